# `make static`: build/static/asmstore, one statically linked CLI against musl (musl-gcc), that runs
# on any x86_64 Linux (Alpine and WSL included). Its libraries are built for musl by mk/debsrc.sh
# from Debian's source packages of the versions the Linux build links, into build/static/deps/:
# zstd, lz4, zlib and OpenSSL's libcrypto (the one slow part, a few minutes: SHA-256 and signing
# are in every build). xxhash.h is Debian's own header. Every command, load and cache included; no libyara (scan --yara is off).
# tests/t_static.sh runs the portable CLI suites against it.
STATIC_CC     = musl-gcc
STATIC_DIR    = $(B)/static
STATIC_DEPS   = $(STATIC_DIR)/deps
HAVE_MUSL := $(shell command -v $(STATIC_CC) >/dev/null 2>&1 && echo 1)

$(STATIC_DEPS)/lib/libzstd.a:
	@src=$$(mk/debsrc.sh fetch libzstd-dev $(B)/debsrc) && \
	  CC=$(STATIC_CC) AR=ar CFLAGS=-O2 mk/debsrc.sh zstd "$$src" $(STATIC_DEPS)
$(STATIC_DEPS)/lib/liblz4.a:
	@src=$$(mk/debsrc.sh fetch liblz4-dev $(B)/debsrc) && \
	  CC=$(STATIC_CC) AR=ar CFLAGS=-O2 mk/debsrc.sh lz4 "$$src" $(STATIC_DEPS)
$(STATIC_DEPS)/lib/libz.a:
	@src=$$(mk/debsrc.sh fetch zlib1g-dev $(B)/debsrc) && \
	  CC=$(STATIC_CC) CFLAGS=-O2 mk/debsrc.sh zlib "$$src" $(STATIC_DEPS)
$(STATIC_DEPS)/lib/libcrypto.a:
	@src=$$(mk/debsrc.sh fetch libssl-dev $(B)/debsrc newer) && \
	  CC=$(STATIC_CC) AR=ar CFLAGS=-O2 mk/debsrc.sh openssl "$$src" $(STATIC_DEPS)
$(STATIC_DEPS)/include/xxhash.h: /usr/include/xxhash.h
	@mkdir -p $(@D) && cp $< $@
STATIC_LIBS = $(STATIC_DEPS)/lib/libzstd.a $(STATIC_DEPS)/lib/liblz4.a $(STATIC_DEPS)/lib/libz.a \
              $(STATIC_DEPS)/lib/libcrypto.a $(STATIC_DEPS)/include/xxhash.h
STATIC_DEFS = -DASMSTORE_CLI_LZ4 -DASMSTORE_CLI_ZLIB -DASMSTORE_CLI_CRYPTO -DASMSTORE_CLI_STATIC
STATIC_LINK = -lzstd -llz4 -lz -lcrypto
STATIC_OBJ_DIR = $(STATIC_DIR)/cli
STATIC_CLI_OBJ = $(patsubst tools/%.c,$(STATIC_OBJ_DIR)/%.o,$(CLI_SRC))
# the libraries' headers come first: musl-gcc does not look in /usr/include
$(STATIC_OBJ_DIR)/%.o: tools/%.c | $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(STATIC_CC) $(STD) $(WARN) -O2 -D_GNU_SOURCE $(STATIC_DEFS) -I$(STATIC_DEPS)/include -MMD -MP -c -o $@ $<
$(STATIC_DIR)/asmstore: $(STATIC_CLI_OBJ)
	$(STATIC_CC) -O2 -static -o $@ $^ -L$(STATIC_DEPS)/lib $(STATIC_LINK) -lpthread
-include $(STATIC_CLI_OBJ:.o=.d)

.PHONY: static static-check-program
ifeq ($(HAVE_MUSL),1)
static: $(STATIC_DIR)/asmstore
# before `make test` (STATIC_TEST_NEEDS): a failure (Debian's source packages out of reach) is said,
# not fatal: tests/t_static.sh then skips
static-check-program:
	@$(MAKE) --no-print-directory $(STATIC_DIR)/asmstore || \
	  echo "  SKIP static: the musl build failed (above; Debian's source packages out of reach?)"
else
static:
	@echo "make static: $(STATIC_CC) not installed (make deps installs musl-tools)"; exit 2
static-check-program:
	@echo "  SKIP static: $(STATIC_CC) not installed (make deps installs musl-tools)"
endif
STATIC_TEST_NEEDS = static-check-program
