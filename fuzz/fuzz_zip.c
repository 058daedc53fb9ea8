/* fuzz_zip.c - the APK/ZIP scanner over arbitrary bytes, in memory: EOCD (comment, ZIP64), central
   directory, local headers. Whatever it returns must lie inside the archive. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_LOCATOR
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>

static void check_inside(const asmstore_zip_entry *e, size_t size) {
    if (e->data_offset > size || e->compressed_size > size - e->data_offset) abort();
    if (e->lfh_offset >= e->data_offset) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const asmstore_abi abis[] = {ASMSTORE_ABI_UNKNOWN, ASMSTORE_ABI_ARM64, ASMSTORE_ABI_X86};
    static const char *names[] = {"lib/arm64-v8a/libassembly-store.so", "a", ""};
    asmstore_zip_entry e;
    asmstore_abi found;
    asmstore_error err;
    size_t k;
    for (k = 0; k < sizeof abis / sizeof abis[0]; k++)
        if (asmstore_zip_find_store(data, size, abis[k], &found, &e, &err) == ASMSTORE_OK) {
            const void *payload;
            size_t psize;
            check_inside(&e, size);
            asmstore_elf_payload(data + e.data_offset, (size_t)e.compressed_size, NULL, &payload, &psize, NULL, NULL);
        }
    for (k = 0; k < sizeof names / sizeof names[0]; k++)
        if (asmstore_zip_find(data, size, names[k], strlen(names[k]), &e, &err) == ASMSTORE_OK) check_inside(&e, size);
    return 0;
}
