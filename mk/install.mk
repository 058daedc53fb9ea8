# Install: the headers, the CLI with its man page and bash completion, asmstore.pc and the CMake package config (asmstoreConfig.cmake +
# asmstoreConfigVersion.cmake): the same files `cmake --install` writes, from the same templates in
# cmake/ (tests/t_build_install.sh compares the two trees file by file).
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make uninstall PREFIX=... [DESTDIR=...]
PREFIX     ?= /usr/local
INCLUDEDIR ?= $(PREFIX)/include
BINDIR     ?= $(PREFIX)/bin
PCDIR      ?= $(PREFIX)/share/pkgconfig
CMAKEDIR   ?= $(PREFIX)/share/cmake/asmstore
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ASMSTORE_VERSION := $(shell sed -n 's/^\#define ASMSTORE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' asmstore.h | paste -sd. -)
INSTALL_HDRS = asmstore.h asmstore_cache.h

# the @VARIABLES@ CMake's configure_file fills in, with the values of this build (zstd always on)
INSTALL_SUBST = -e 's|@ASMSTORE_VERSION@|$(ASMSTORE_VERSION)|g' \
                -e 's|@ASMSTORE_VERSION_MAJOR_MINOR@|$(basename $(ASMSTORE_VERSION))|g' \
                -e 's|@ASMSTORE_PREFIX@|$(PREFIX)|g' -e 's|@ASMSTORE_INCLUDEDIR@|$(INCLUDEDIR)|g' \
                -e 's|@ASMSTORE_PC_REQUIRES@|libzstd|g' -e 's|@ASMSTORE_PC_DEFINES@||g' -e 's|@ASMSTORE_WITH_ZSTD@|ON|g' \
                -e "s|@ASMSTORE_CONFIG_TO_INCLUDEDIR@|$$(realpath -m --relative-to='$(CMAKEDIR)' '$(INCLUDEDIR)')|g"

.PHONY: install uninstall
install: $(B)/asmstore
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(CMAKEDIR)
	install -m 0644 $(INSTALL_HDRS) $(DESTDIR)$(INCLUDEDIR)/
	install -m 0755 $(B)/asmstore $(DESTDIR)$(BINDIR)/asmstore
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	$(B)/asmstore --man >$(DESTDIR)$(MANDIR)/man1/asmstore.1
	$(B)/asmstore --completion bash >$(DESTDIR)$(BASHCOMPDIR)/asmstore
	chmod 0644 $(DESTDIR)$(MANDIR)/man1/asmstore.1 $(DESTDIR)$(BASHCOMPDIR)/asmstore
	sed $(INSTALL_SUBST) cmake/asmstore.pc.in >$(DESTDIR)$(PCDIR)/asmstore.pc
	sed $(INSTALL_SUBST) cmake/asmstoreConfig.cmake.in >$(DESTDIR)$(CMAKEDIR)/asmstoreConfig.cmake
	sed $(INSTALL_SUBST) cmake/asmstoreConfigVersion.cmake.in >$(DESTDIR)$(CMAKEDIR)/asmstoreConfigVersion.cmake
	chmod 0644 $(DESTDIR)$(PCDIR)/asmstore.pc $(DESTDIR)$(CMAKEDIR)/asmstoreConfig*.cmake

uninstall:
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(INSTALL_HDRS)) $(DESTDIR)$(BINDIR)/asmstore $(DESTDIR)$(PCDIR)/asmstore.pc \
	      $(DESTDIR)$(MANDIR)/man1/asmstore.1 $(DESTDIR)$(BASHCOMPDIR)/asmstore \
	      $(DESTDIR)$(CMAKEDIR)/asmstoreConfig.cmake $(DESTDIR)$(CMAKEDIR)/asmstoreConfigVersion.cmake
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
