# asmstore - build, test, bench. `make` builds the CLI and examples; `make check` is the quick test to run
# before each commit; `make test` runs every test; both end with one line "N passed, N failed".
# `make deps` installs what a fresh Debian/Ubuntu lacks for the whole test matrix.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror
STD      = -std=c99
B        = build
LIBS     = -lzstd -lpthread
# Optional libraries, found the standard way: pkg-config (every distribution's and Homebrew's .pc
# files), else the compiler's own search paths (a header it finds and a library it links).
# HAVE_LZ4=0 (and the like) on the command line leaves one out.
#   liblz4   writing LZ4 (XALZ) stores byte for byte as .NET does (reading needs no library)
#   zlib     DEFLATEd APK entries
#   libyara  scan --yara
# libcrypto is not optional: SHA-256 (list --hash, diff, unpack, scan) and repack --sign-key need it,
# and a CLI without them must not exist: not found (or HAVE_CRYPTO=0), the CLI's build stops naming
# the package. (asmstore.exe uses Windows' own CNG instead: mk/windows.mk.)
# $(call probe,PKG,HEADER,LIB): "pc" (pkg-config knows it), "cc" (the compiler finds it) or ""
probe = $(shell pkg-config --exists $(1) 2>/dev/null && echo pc || \
          { printf '\043include <$(2)>\nint main(void) { return 0; }\n' | \
            $(CC) -x c - -o /dev/null $(3) >/dev/null 2>&1 && echo cc; })
# $(call optional,NAME,PKG,HEADER,LIB,DEFINE): sets HAVE_NAME (1 or 0) and adds the flags
define optional
$(1)_FOUND := $$(call probe,$(2),$(3),$(4))
HAVE_$(1) ?= $$(if $$($(1)_FOUND),1,0)
ifeq ($$(HAVE_$(1)),1)
CLI_DEFS += -D$(5) $$(if $$(filter pc,$$($(1)_FOUND)),$$(shell pkg-config --cflags $(2)))
CLI_LIBS += $$(if $$(filter pc,$$($(1)_FOUND)),$$(shell pkg-config --libs $(2)),$(4))
endif
endef
$(eval $(call optional,LZ4,liblz4,lz4.h,-llz4,ASMSTORE_CLI_LZ4))
$(eval $(call optional,ZLIB,zlib,zlib.h,-lz,ASMSTORE_CLI_ZLIB))
$(eval $(call optional,CRYPTO,libcrypto,openssl/evp.h,-lcrypto,ASMSTORE_CLI_CRYPTO))
$(eval $(call optional,YARA,yara,yara.h,-lyara,ASMSTORE_CLI_YARA))
OPTIONAL_FOUND = liblz4 $(if $(filter 1,$(HAVE_LZ4)),yes,no), zlib $(if $(filter 1,$(HAVE_ZLIB)),yes,no), \
                 libyara $(if $(filter 1,$(HAVE_YARA)),yes,no); libcrypto (required) \
                 $(if $(filter 1,$(HAVE_CRYPTO)),yes,no)
CRYPTO_MISSING = asmstore CLI: libcrypto (OpenSSL) not found by pkg-config or $(CC): it gives SHA-256 \
  and APK signing. Install libssl-dev (Debian, Ubuntu), openssl-devel (Fedora) or openssl (Homebrew; \
  then PKG_CONFIG_PATH=$$(brew --prefix openssl)/lib/pkgconfig) and run make again
HEADERS  = asmstore.h asmstore_cache.h

# Everything `make deps` installs (the one list; fragments add none), by what needs it:
# the build, CMake, the CLI's optional codecs and tests/*.py
DEPS  = build-essential pkg-config cmake libzstd-dev libxxhash-dev liblz4-dev zlib1g-dev \
        libssl-dev zstd xxhash python3 python3-xxhash python3-zstandard python3-lz4 file strace cppcheck \
        libyara-dev yara
# the Python package (python/, tests/t_python.sh): its C extension's build, the venv it installs
# into offline (pip --no-build-isolation: the system's setuptools and wheel), its pytest suite and
# the Dask cluster of worker processes that scans with it
DEPS += python3-dev python3-venv python3-setuptools python3-wheel python3-pip python3-pytest \
        python3-distributed
# the ELF wrapper and APK tests (time: repack's memory), and the cross builds they run under qemu
# (tests/t_elf.sh, t_cross.sh)
DEPS += elfutils binutils zip unzip zipalign apksigner time qemu-user \
        gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-i686-linux-gnu gcc-s390x-linux-gnu \
        libc6-dev-arm64-cross libc6-dev-armhf-cross libc6-dev-i386-cross libc6-dev-s390x-cross
# the Mono host (mk/hosts.mk), fuzzing (mk/fuzz.mk), the benchmark's upstream stand-in, instruction
# counts and plot (mk/bench.mk)
DEPS += mono-devel libmono-2.0-dev clang libclang-rt-14-dev afl++ llvm lld valgrind gnuplot-nox
# Windows and a second libc: the mingw-w64 cross compiler (and its zlib) and Wine that run the
# header's platform layer and asmstore.exe (mk/windows.mk, tests/t_windows.sh), musl-gcc for the
# strict builds (tests/t_build_flavours.sh)
DEPS += mingw-w64 wine wine64 musl-tools libz-mingw-w64-dev
# foreign architectures whose libzstd the cross tests download (tests/lib/cross_sysroot.sh)
CROSS_DEBARCHES = s390x arm64 armhf

.PHONY: all examples check test deps clean bench demo FORCE
all: $(B)/asmstore $(B)/host $(B)/android_host $(B)/coreclr_host mono-host

examples: all

$(B):
	mkdir -p $(B)

# the CLI: each tools/*.c compiled on its own into build/cli/ (-MMD: each object also depends on the
# headers it includes), then linked
CLI_SRC = $(wildcard tools/*.c)
CLI_OBJ = $(patsubst tools/%.c,$(B)/cli/%.o,$(CLI_SRC))
# the flags the objects were compiled with: a change (e.g. liblz4 installed since) rebuilds them all
CLI_FLAGS_NOW = $(CC) $(STD) $(CFLAGS) $(CLI_DEFS)
$(B)/cli/flags: FORCE | $(B)
	@mkdir -p $(B)/cli
	@$(if $(filter 1,$(HAVE_CRYPTO)),:,echo '$(CRYPTO_MISSING)' >&2; exit 1)
	@echo '$(CLI_FLAGS_NOW)' | cmp -s - $@ || { echo "asmstore CLI: optional libraries: $(OPTIONAL_FOUND)"; \
	  echo '$(CLI_FLAGS_NOW)' >$@; }
$(B)/cli/%.o: tools/%.c $(B)/cli/flags | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE $(CLI_DEFS) -MMD -MP -c -o $@ $<
$(B)/asmstore: $(CLI_OBJ)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIBS) $(CLI_LIBS)
-include $(CLI_OBJ:.o=.d)

TEST_C   = $(wildcard tests/test_*.c)
TEST_BIN = $(patsubst tests/%.c,$(B)/%,$(TEST_C))
TEST_SH  = $(sort $(wildcard tests/t_*.sh))

# ---- fragments: each adds its own rules; what they add to `all` and `test` is named here ----
#   mk/hosts.mk     the example hosts: build/host, build/coreclr_host, mono-host (in `all`); coreclr-host
#                   (+ hello_clr when dotnet exists) before `make test`, `make demo` and the bench
#   mk/elf.mk       elf-hosts: the per-ABI dlopen harnesses tests/t_elf.sh runs, built before `make test`
#   mk/cache.mk     CACHE_TESTS (the TSan build of the threaded cache test); make tsan-cache, bench-cache
#   mk/sanitize.mk  SANITIZE_TESTS (ASan + UBSan of every tests/test_*.c, TSan of the threaded ones)
#   mk/fuzz.mk      FUZZ_TESTS (fuzz/regress.sh, fuzz/smoke.sh) and FUZZ_TEST_NEEDS (the replay and
#                   libFuzzer builds and seeds they run); make corpus, fuzz, fuzz-regress, afl-reader
#   mk/install.mk   make install, make uninstall (headers, CLI, asmstore.pc, CMake package config)
#   mk/bench.mk     make bench-report (what `make bench` runs), bench-publish; BENCH_TEST_NEEDS (the bench
#                   programs, compiled before `make test`)
#   mk/dotnet.mk    make runtime-net11, composite-net10 (NuGet packages into build/); DOTNET_TEST_NEEDS
#   mk/python.mk    make sdist, wheel, python-venv, bench-python, python-asan; PYTHON_TEST_NEEDS (the wheel
#                   tests/t_python.sh installs; the sdist it builds on its own)
#   mk/windows.mk   make windows (build/windows/asmstore.exe); WINDOWS_TEST_NEEDS (build/windows/:
#                   mingw builds of zstd and lz4 from Debian's source packages by mk/debsrc.sh, the
#                   platform check and the CLI for Wine)
#   mk/static.mk    make static (build/static/asmstore: musl-gcc, static; its libraries built by
#                   mk/debsrc.sh from Debian's source packages); STATIC_TEST_NEEDS (it, for
#                   tests/t_static.sh)
include mk/hosts.mk mk/elf.mk mk/cache.mk mk/sanitize.mk mk/fuzz.mk mk/install.mk mk/bench.mk mk/dotnet.mk
include mk/python.mk mk/windows.mk mk/static.mk

# what `make test` runs besides tests/test_*.c and tests/t_*.sh, and what it builds first
TEST_EXTRA = $(CACHE_TESTS) $(FUZZ_TESTS) $(SANITIZE_TESTS)
TEST_NEEDS = elf-hosts mono-host coreclr-host $(FUZZ_TEST_NEEDS) $(BENCH_TEST_NEEDS) $(DOTNET_TEST_NEEDS) \
             $(WINDOWS_TEST_NEEDS) $(PYTHON_TEST_NEEDS) $(STATIC_TEST_NEEDS)

# ---- tests ----

$(B)/test_%: tests/test_%.c tests/test.h tests/fixture.h $(HEADERS) | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE $(CLI_DEFS) -o $@ $< $(LIBS) $(CLI_LIBS) -ldl

test: all $(TEST_BIN) $(TEST_EXTRA) $(TEST_NEEDS)
	@B=$(B) tests/run.sh $(TEST_BIN) $(TEST_SH) $(TEST_EXTRA)

# `make check`, before each commit (under a minute from a built tree, 2 cores): the unit tests, the CLI on
# real inputs, one real host (Mono) and the code style. tests/README.md says which suite covers what.
CHECK_SH = tests/t_cli.sh tests/t_host_mono.sh tests/t_style.sh
check: $(B)/asmstore $(TEST_BIN) mono-host
	@B=$(B) tests/run.sh $(TEST_BIN) $(CHECK_SH)

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

demo: all coreclr-host
	@B=$(B) examples/demo.sh

# ---- benchmarks: every figure next to an anchor measured in the same run; never fails on timing ----
# `make bench` = the report of mk/bench.mk (pack, locate, lookup, read, cache, scale -> build/bench/BENCHMARKS.md);
# it runs bench_cache itself.
bench: all
	@$(MAKE) --no-print-directory bench-report || echo "(bench-report failed)"
