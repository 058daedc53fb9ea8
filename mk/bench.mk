# `make bench`: the benchmark report (tests/bench/bench.sh): summary (targets met and behind, the run's
# noise), machine and run, each figure beside its anchor measured in the same run, targets, how to
# reproduce, the plot; written to build/bench/BENCHMARKS.md + build/bench/bench.png (the committed copies:
# BENCHMARKS.md, docs/bench.png). Quick by default (5-15 minutes on 2 cores); BENCH_FULL=1 adds levels 19
# and 22 on the whole corpus and more samples. Never fails on timing. Needs zstd, llvm-mc + ld.lld (the
# upstream stand-in), zip + zipalign (the APK path), valgrind (instruction counts), gnuplot (the plot);
# each missing one drops its column. Section 7 has a CoreCLR 11 table after `make runtime-net11` and a
# composite table after `make composite-net10`. Section 8 (the Python package) needs build/python-venv,
# which it builds (mk/python.mk).
#   make bench-report   the report alone (make bench = all + this)
#   make bench-report BENCH_ONLY=ttm   section 7 alone (time to Main, CPU, faults, memory: CoreCLR and Mono)
#   make bench-report BENCH_ONLY=codecs   section 9 alone (LZ4 decode vs liblz4, CRC-32 vs zlib, info of a STORED APK)
#   make bench-report BENCH_ONLY=abis   section 1b alone (pack --abi of four ABIs vs one, CPU)
#   make bench-report BENCH_ONLY=lookup   section 3b alone (the USE block's lookup vs upstream's .NET 11 search)
#   make bench-report BENCH_ONLY=size   section 11 alone (.text of the smallest device reader, x86_64 and arm64)
#   make bench-report BENCH_ONLY=windows   section 12 alone (asmstore.exe under Wine vs the Linux CLI; needs
#                       make windows first)
#   make bench-scan     section 10 alone (asmstore scan vs the floor, --yara vs yara's CLI, max RSS)
#   make bench-report BENCH_TTM_SAMPLES=5   fewer rounds of section 7 (15 by default, 41 with BENCH_FULL=1)
#   make bench-publish  copy the last report to BENCHMARKS.md + docs/bench.png (what is committed)
# built before `make test` too, so that a header change that breaks a bench program fails CI, not the next bench
BENCH_TEST_NEEDS = $(B)/bench/bench_tool $(B)/bench_cache

$(B)/bench/bench_tool: tests/bench/bench_tool.c asmstore.h | $(B)
	@mkdir -p $(B)/bench
	$(CC) $(STD) $(WARN) -O2 -g -D_GNU_SOURCE $(CLI_DEFS) -o $@ $< $(LIBS) $(CLI_LIBS) -ldl

.PHONY: bench-report
bench-report: $(B)/asmstore $(B)/bench/bench_tool $(B)/bench_cache coreclr-host
	@$(MAKE) --no-print-directory python-venv >/dev/null || echo "bench: no section 8: the Python package did not build" >&2
	@CC="$(CC)" BENCH_FULL=$(BENCH_FULL) BENCH_ONLY=$(BENCH_ONLY) BENCH_PYTHON="$(CURDIR)/$(PY_VENV)/bin/python" \
	  tests/bench/bench.sh $(B)/bench $(B)/asmstore $(B)/bench/bench_tool $(B)/bench_cache

# Section 10 alone (asmstore scan over 510 generated APKs: tests/bench/bench_scan.sh; the corpus cached in
# $(B)/bench/scan-corpus); needs yara, lz4 and /usr/bin/time.
.PHONY: bench-scan
bench-scan: $(B)/asmstore $(B)/bench/bench_tool
	@CC="$(CC)" BENCH_ONLY=scan tests/bench/bench.sh $(B)/bench $(B)/asmstore $(B)/bench/bench_tool $(B)/bench_cache

# Copies the last run's report to the committed places (BENCHMARKS.md, docs/bench.png).
.PHONY: bench-publish
bench-publish:
	@test -f $(B)/bench/BENCHMARKS.md || { echo "run make bench first"; exit 1; }
	mkdir -p docs
	sed 's|(bench.png)|(docs/bench.png)|' $(B)/bench/BENCHMARKS.md >BENCHMARKS.md
	if [ -f $(B)/bench/bench.png ]; then cp $(B)/bench/bench.png docs/bench.png; fi
