# Windows (x86_64, mingw-w64): the header's platform layer built with no knobs and run under Wine
# (tests/t_windows.sh). Everything lands in build/windows/:
#   deps/              libzstd.a and liblz4.a for mingw, built by mk/debsrc.sh from Debian's source
#                      packages of the versions the Linux build links (the same zstd writes the same
#                      frames); xxhash.h is Debian's own header (used header-only)
#   platform_check.exe tests/platform_check.c, static; build/platform_check is its Linux twin
#   asmstore.exe       the CLI (make windows, below)
# Built before `make test` (WINDOWS_TEST_NEEDS) when mingw-w64 is installed; else, or when the build
# fails, nothing (the suite skips with one line). A new libzstd-dev: `rm -r build/windows` rebuilds.
WIN_CC     = x86_64-w64-mingw32-gcc
WIN_AR     = x86_64-w64-mingw32-ar
WIN_DIR    = $(B)/windows
WIN_DEPS   = $(WIN_DIR)/deps
HAVE_MINGW := $(shell command -v $(WIN_CC) >/dev/null 2>&1 && echo 1)

$(WIN_DEPS)/lib/libzstd.a:
	@src=$$(mk/debsrc.sh fetch libzstd-dev $(B)/debsrc) && \
	  CC=$(WIN_CC) AR=$(WIN_AR) CFLAGS=-O2 mk/debsrc.sh zstd "$$src" $(WIN_DEPS)
$(WIN_DEPS)/lib/liblz4.a:
	@src=$$(mk/debsrc.sh fetch liblz4-dev $(B)/debsrc) && \
	  CC=$(WIN_CC) AR=$(WIN_AR) CFLAGS=-O2 mk/debsrc.sh lz4 "$$src" $(WIN_DEPS)
$(WIN_DEPS)/include/xxhash.h: /usr/include/xxhash.h
	@mkdir -p $(@D) && cp $< $@
WIN_LIBS = $(WIN_DEPS)/lib/libzstd.a $(WIN_DEPS)/lib/liblz4.a $(WIN_DEPS)/include/xxhash.h

# -municode: wmain, the arguments as UTF-16 (the header takes UTF-8 paths, never the ANSI code page)
$(WIN_DIR)/platform_check.exe: tests/platform_check.c asmstore.h $(WIN_LIBS)
	$(WIN_CC) $(STD) $(WARN) -O2 -municode -I$(WIN_DEPS)/include -o $@ $< -static -L$(WIN_DEPS)/lib -lzstd -llz4
$(B)/platform_check: tests/platform_check.c asmstore.h | $(B)
	$(CC) $(STD) $(WARN) -O2 -o $@ $< -lzstd -llz4 -lpthread

.PHONY: windows-check-programs
ifeq ($(HAVE_MINGW),1)
# a failure (Debian's source packages out of reach) is said, not fatal: tests/t_windows.sh then skips
windows-check-programs:
	@$(MAKE) --no-print-directory $(WIN_DIR)/platform_check.exe $(B)/platform_check $(WIN_DIR)/asmstore.exe || \
	  echo "  SKIP windows: the mingw builds failed (above; Debian's source packages out of reach?)"
else
windows-check-programs:
	@echo "  SKIP windows: $(WIN_CC) not installed (make deps installs mingw-w64)"
endif
WINDOWS_TEST_NEEDS = windows-check-programs

# `make windows`: build/windows/asmstore.exe, static (zstd, lz4 as above; zlib: Debian's
# libz-mingw-w64-dev), every command but load and cache (asmstore_cache.h is device-side), with
# the UTF-8 code page manifest (tools/asmstore.manifest). SHA-256 and repack --sign-key: Windows'
# CNG (bcrypt; crypt32 for PEM and certificates), tools/cli_os.c and tools/cli_os_sign.c.
WIN_CLI_SRC  = $(filter-out tools/cli_cache.c,$(CLI_SRC))
WIN_CLI_OBJ  = $(patsubst tools/%.c,$(WIN_DIR)/cli/%.o,$(WIN_CLI_SRC))
WIN_CLI_DEFS = -D__USE_MINGW_ANSI_STDIO=1 -DASMSTORE_CLI_LZ4 -DASMSTORE_CLI_ZLIB
$(WIN_DIR)/cli/%.o: tools/%.c $(WIN_LIBS)
	@mkdir -p $(@D)
	$(WIN_CC) $(STD) $(WARN) -O2 -D_GNU_SOURCE $(WIN_CLI_DEFS) -I$(WIN_DEPS)/include -MMD -MP -c -o $@ $<
$(WIN_DIR)/cli/manifest.o: tools/asmstore.manifest
	@mkdir -p $(@D)
	printf '#include <winuser.h>\n1 RT_MANIFEST "%s"\n' $(abspath $<) >$(WIN_DIR)/cli/manifest.rc
	x86_64-w64-mingw32-windres $(WIN_DIR)/cli/manifest.rc -O coff -o $@
$(WIN_DIR)/asmstore.exe: $(WIN_CLI_OBJ) $(WIN_DIR)/cli/manifest.o
	$(WIN_CC) -O2 -static -o $@ $^ -L$(WIN_DEPS)/lib -lzstd -llz4 -lz -lcrypt32 -lbcrypt
-include $(WIN_CLI_OBJ:.o=.d)
.PHONY: windows
windows: $(WIN_DIR)/asmstore.exe
