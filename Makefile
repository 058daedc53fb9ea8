# asmstore - build, test, bench. `make` builds the CLI and examples; `make test` runs every test and
# ends with one line "N passed, N failed"; `make deps` installs what a fresh Debian/Ubuntu lacks.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror
STD      = -std=c99
B        = build
LIBS     = -lzstd -lpthread
HAVE_LZ4 := $(shell test -f /usr/include/lz4.h && echo 1)
ifeq ($(HAVE_LZ4),1)
CLI_DEFS += -DASMSTORE_CLI_LZ4
CLI_LIBS += -llz4
endif
# zlib: the CLI inflates DEFLATEd APK entries; libzip: asmstore repack writes APKs (both optional,
# as liblz4 is: cross builds go without them)
HAVE_ZLIB := $(shell test -f /usr/include/zlib.h && echo 1)
ifeq ($(HAVE_ZLIB),1)
CLI_DEFS += -DASMSTORE_CLI_ZLIB
CLI_LIBS += -lz
endif
HAVE_LIBZIP := $(shell test -f /usr/include/zip.h && echo 1)
ifeq ($(HAVE_LIBZIP),1)
CLI_DEFS += -DASMSTORE_CLI_REPACK
CLI_LIBS += -lzip
CLI_REPACK = examples/cli_repack.c
endif
HEADERS  = asmstore.h asmstore_cache.h

DEPS = build-essential pkg-config zlib1g-dev libzstd-dev libxxhash-dev liblz4-dev zstd xxhash clang libclang-rt-14-dev llvm lld \
       libzip-dev elfutils binutils zip unzip zipalign file strace python3 python3-xxhash python3-zstandard python3-lz4 \
       qemu-user gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-i686-linux-gnu \
       libc6-dev-arm64-cross libc6-dev-armhf-cross libc6-dev-i386-cross \
       mono-devel libmono-2.0-dev gcc-s390x-linux-gnu libc6-dev-s390x-cross cppcheck afl++
# foreign architectures whose libzstd the cross tests download (tests/cross_sysroot.sh)
CROSS_DEBARCHES = s390x arm64 armhf

.PHONY: all examples test deps clean bench demo
all: $(B)/asmstore

examples: all

$(B):
	mkdir -p $(B)

CLI_SRC = examples/asmstore.c examples/cli_cache.c examples/cli_input.c examples/cli_fs.c $(CLI_REPACK)
$(B)/asmstore: $(CLI_SRC) examples/cli.h $(HEADERS) | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE $(CLI_DEFS) -o $@ $(CLI_SRC) $(LIBS) $(CLI_LIBS)

TEST_C   = $(wildcard tests/test_*.c)
TEST_BIN = $(patsubst tests/%.c,$(B)/%,$(TEST_C))
TEST_SH  = $(sort $(wildcard tests/t_*.sh))

# Feature fragments (ELF/locator tests, cache, fuzzing, bench) add their own rules and may append to
# TEST_EXTRA (more test binaries/scripts for `make test`) and DEPS.
TEST_EXTRA =
BENCH_TARGETS =
-include $(sort $(wildcard mk/*.mk))

# ---- tests ----

$(B)/test_%: tests/test_%.c tests/test.h $(HEADERS) | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE $(CLI_DEFS) -o $@ $< $(LIBS) $(CLI_LIBS) -ldl

test: all $(TEST_BIN) $(TEST_EXTRA)
	@tests/run.sh $(TEST_BIN) $(TEST_SH) $(TEST_EXTRA)

deps:
	@missing=$$(for p in $(DEPS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "all dependencies present"; fi
	@SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); added=; \
	for a in $(CROSS_DEBARCHES); do dpkg --print-foreign-architectures | grep -qx $$a || { $$SUDO dpkg --add-architecture $$a; added=1; }; done; \
	if [ -n "$$added" ]; then $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq || echo "apt-get update: some indexes failed (cross tests may skip)"; fi

clean:
	rm -rf $(B)

demo: all
	@B=$(B) examples/demo.sh

# ---- benchmarks: every figure next to an anchor measured in the same run; never fails on timing ----
# Fragments append their targets to BENCH_TARGETS.

# `make bench` = the report of mk/bench.mk (pack, locate, lookup, read, cache, scale -> build/bench/BENCHMARKS.md);
# it runs bench_cache itself.
bench: all
	@$(MAKE) --no-print-directory bench-report || echo "(bench-report failed)"
	@for t in $(filter-out bench-cache,$(BENCH_TARGETS)); do $(MAKE) --no-print-directory $$t || echo "($$t failed)"; done
