# Fuzzing: libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined) and, for each, a replay
# build with a plain main (gcc + ASan + UBSan, -fno-sanitize-recover=all) that `make fuzz-regress`
# runs over the generated seed corpus and the committed regression files (fuzz/regress.sh, part of
# `make test`, as is fuzz/smoke.sh: a short libFuzzer run of each harness).
#   make corpus                 seeds from our writer (every format, ABI, profile, wrapper)
#   make fuzz FUZZ_SECONDS=60   each harness for N seconds, new finds land in build/fuzz/corpus-<h>
#   make fuzz-regress           replay seeds + fuzz/corpus/<h>/ (kept finds, e.g. AFL++'s queue) +
#                               fuzz/regress/<h>/ (inputs that once crashed) under sanitizers
#   make afl-reader AFL_SECONDS=600   AFL++ on the store reader; keep its queue in fuzz/corpus/reader
FUZZ_HARNESSES = $(patsubst fuzz/fuzz_%.c,%,$(filter-out fuzz/fuzz_main.c,$(wildcard fuzz/fuzz_*.c)))
FUZZ_SECONDS  ?= 60
FUZZ_CC       ?= clang
FUZZ_SAN       = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIBS      = -lzstd -lpthread -ldl
FUZZ_HDRS      = $(wildcard asmstore*.h)

$(B)/fuzz:
	mkdir -p $@

$(B)/fuzz/%-replay: fuzz/fuzz_%.c fuzz/fuzz_main.c $(FUZZ_HDRS) | $(B)/fuzz
	$(CC) -std=c99 -g -O1 -D_GNU_SOURCE $(FUZZ_SAN) -o $@ $< fuzz/fuzz_main.c $(FUZZ_LIBS)

$(B)/fuzz/%-libfuzzer: fuzz/fuzz_%.c $(FUZZ_HDRS) | $(B)/fuzz
	$(FUZZ_CC) -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $< $(FUZZ_LIBS)

# fuzz_zip also drives the CLI's entry reader (tools/cli_inflate.c: CRC-32, bounded inflate with zlib)
$(B)/fuzz/zip-replay $(B)/fuzz/zip-libfuzzer: tools/cli_inflate.c tools/cli_inflate.h tools/cli.h
ifeq ($(HAVE_ZLIB),1)
$(B)/fuzz/zip-replay $(B)/fuzz/zip-libfuzzer: FUZZ_LIBS += -DASMSTORE_CLI_ZLIB -lz
endif

# fuzz_lz4 compares the header's LZ4 decoder with liblz4's LZ4_decompress_safe when liblz4 is there
ifeq ($(HAVE_LZ4),1)
$(B)/fuzz/lz4-replay $(B)/fuzz/lz4-libfuzzer: FUZZ_LIBS += -DASMSTORE_FUZZ_LIBLZ4 -llz4
endif

# fuzz_options drives the CLI's option parser (tools/cli_common.c: cli_parse_next)
$(B)/fuzz/options-replay $(B)/fuzz/options-libfuzzer: tools/cli_common.c tools/cli.h tools/cli_os.c tools/cli_os.h

# fuzz_json drives the CLI's --json writer (tools/cli_common.c), its output read back by
# tools/cli_settings.c's JSON reader
$(B)/fuzz/json-replay $(B)/fuzz/json-libfuzzer: tools/cli_common.c tools/cli.h tools/cli_settings.c \
    tools/cli_settings.h tools/cli_fs.c tools/cli_fs.h tools/cli_os.c tools/cli_os.h

# fuzz_settings drives repack --from's settings reader (tools/cli_settings.c: bounded JSON, schema
# checks; tools/cli_fs.c: the safe-name rule)
$(B)/fuzz/settings-replay $(B)/fuzz/settings-libfuzzer: tools/cli_settings.c tools/cli_settings.h \
    tools/cli_fs.c tools/cli_fs.h tools/cli_os.c tools/cli_os.h tools/cli.h

# fuzz_scan_cache drives scan --cache's record reader (tools/cli_scan_cache.c)
$(B)/fuzz/scan_cache-replay $(B)/fuzz/scan_cache-libfuzzer: tools/cli_scan_cache.c tools/cli_scan_cache.h \
    tools/cli_common.c tools/cli.h tools/cli_fs.c tools/cli_fs.h tools/cli_os.c tools/cli_os.h

# the CLI's platform file (cli_os.c, in these four) hashes with libcrypto, which every CLI build has
$(B)/fuzz/json-replay $(B)/fuzz/json-libfuzzer $(B)/fuzz/settings-replay $(B)/fuzz/settings-libfuzzer \
    $(B)/fuzz/options-replay $(B)/fuzz/options-libfuzzer $(B)/fuzz/scan_cache-replay \
    $(B)/fuzz/scan_cache-libfuzzer: FUZZ_LIBS += -DASMSTORE_CLI_CRYPTO -lcrypto

$(B)/fuzz/seeds/.stamp: $(B)/asmstore tests/lib/fuzz_corpus.sh | $(B)/fuzz
	@tests/lib/fuzz_corpus.sh $(B)/asmstore $(B)/fuzz/seeds
	@touch $@

corpus: $(B)/fuzz/seeds/.stamp

fuzz: corpus $(foreach h,$(FUZZ_HARNESSES),$(B)/fuzz/$(h)-libfuzzer)
	@for h in $(FUZZ_HARNESSES); do \
	  mkdir -p $(B)/fuzz/corpus-$$h fuzz/regress/$$h; \
	  echo "== fuzz_$$h for $(FUZZ_SECONDS) s"; \
	  $(B)/fuzz/$$h-libfuzzer -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -dict=fuzz/asmstore.dict \
	    -artifact_prefix=fuzz/regress/$$h/ $(B)/fuzz/corpus-$$h $(B)/fuzz/seeds/$$h 2>&1 | tail -n 3; \
	done

# the replay builds and the seeds fuzz/regress.sh runs over
fuzz-regress-inputs: $(B)/fuzz/seeds/.stamp $(foreach h,$(FUZZ_HARNESSES),$(B)/fuzz/$(h)-replay)

fuzz-regress: fuzz-regress-inputs
	@B=$(B) fuzz/regress.sh

.PHONY: corpus fuzz fuzz-regress fuzz-regress-inputs

# AFL++ on the store reader (afl-cc instrumentation, the replay main reads the file AFL passes)
AFL_SECONDS ?= 600
$(B)/fuzz/reader-afl: fuzz/fuzz_reader.c fuzz/fuzz_main.c $(FUZZ_HDRS) | $(B)/fuzz
	AFL_QUIET=1 afl-cc -O1 -g -D_GNU_SOURCE -o $@ fuzz/fuzz_reader.c fuzz/fuzz_main.c $(FUZZ_LIBS)
afl-reader: $(B)/fuzz/reader-afl $(B)/fuzz/seeds/.stamp
	AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 afl-fuzz -V $(AFL_SECONDS) \
	  -i $(B)/fuzz/seeds/reader -o $(B)/fuzz/afl-out -x fuzz/asmstore.dict -- $(B)/fuzz/reader-afl @@
.PHONY: afl-reader

# A short libFuzzer run of every harness inside `make test` (fuzz/smoke.sh; a minute each,
# FUZZ_SMOKE_SECONDS=N to change). The libFuzzer builds are best effort: without clang's fuzzer runtime
# the smoke run says SKIP.
FUZZ_SMOKE_SECONDS ?= 60
export FUZZ_SMOKE_SECONDS
fuzz-smoke-inputs: $(B)/fuzz/seeds/.stamp
	@for h in $(FUZZ_HARNESSES); do $(MAKE) --no-print-directory $(B)/fuzz/$$h-libfuzzer >/dev/null 2>&1 || echo "  (no libFuzzer build of $$h)"; done
.PHONY: fuzz-smoke-inputs

# for the Makefile's `make test`: the scripts it runs, and what they need built first
FUZZ_TESTS      = fuzz/regress.sh fuzz/smoke.sh
FUZZ_TEST_NEEDS = fuzz-regress-inputs fuzz-smoke-inputs
