# ELF wrapper + locators (the elf/zip/locator sections of asmstore.h): the cross-built dlopen test hosts
# tests/t_elf.sh runs (elf-hosts, built before `make test`).
#   build/elf-host-<abi>   the dlopen harness (tests/lib/elf_host.c) per ABI: native gcc for x86_64,
#                          Debian cross gcc for arm64/arm/x86 (run under qemu-user by tests/t_elf.sh)
# The hosts read stored (uncompressed) stores only: no cross libzstd needed.
ELF_HOST_SRC  = tests/lib/elf_host.c asmstore.h
ELF_HOST_FLAGS = $(STD) $(WARN) -O1 -g -D_GNU_SOURCE -DASMSTORE_NO_ZSTD -DASMSTORE_NO_WRITER
$(B)/elf-host-x86_64: $(ELF_HOST_SRC) | $(B)
	$(CC) $(ELF_HOST_FLAGS) -o $@ tests/lib/elf_host.c -ldl
# Cross hosts: built only when the cross compiler exists (t_elf.sh prints SKIP otherwise).
$(B)/elf-host-%: $(ELF_HOST_SRC) | $(B)
	@cc=$$(case $* in arm64) echo aarch64-linux-gnu-gcc;; arm) echo arm-linux-gnueabihf-gcc;; x86) echo i686-linux-gnu-gcc;; esac); \
	if command -v $$cc >/dev/null 2>&1; then echo "$$cc ... -o $@"; \
	  $$cc $(ELF_HOST_FLAGS) -o $@ tests/lib/elf_host.c -ldl; \
	else echo "  SKIP $@: $$cc not installed"; fi

ELF_HOSTS = $(B)/elf-host-x86_64 $(B)/elf-host-arm64 $(B)/elf-host-arm $(B)/elf-host-x86
.PHONY: elf-hosts
elf-hosts: $(ELF_HOSTS)
