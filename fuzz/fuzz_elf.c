/* fuzz_elf.c - the ELF payload finder, the bionic-rules validator, the .NET 12 layout test
   (asmstore_elf_is_style) and the check that loading runs nothing (asmstore_elf_check_inert) over
   arbitrary bytes (32- and 64-bit), then the store reader
   over whatever payload comes out. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_LOCATOR
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *symbols[] = {NULL, "_assembly_store", "x", ""};
    const void *payload;
    size_t psize, k;
    asmstore_elf_info info;
    asmstore_error v;
    asmstore_result inert;
    for (k = 0; k < sizeof symbols / sizeof symbols[0]; k++) {
        if (asmstore_elf_payload(data, size, symbols[k], &payload, &psize, &info, NULL) == ASMSTORE_OK) {
            asmstore_reader r;
            const uint8_t *p = (const uint8_t *)payload;
            if (p < data || psize > size || (size_t)(p - data) > size - psize) abort(); /* inside the input */
            if (info.payload_offset != (uint64_t)(p - data) || info.payload_size != psize) abort();
            asmstore_reader_init(&r, payload, psize, NULL, NULL);
        }
    }
    asmstore_elf_check_bionic(data, size, ASMSTORE_ABI_UNKNOWN, NULL, NULL, &v);
    asmstore_elf_check_bionic(data, size, ASMSTORE_ABI_ARM, "_assembly_store", NULL, &v);
    /* the .NET 12 layout is recognised only in a file whose payload the finder takes */
    if (asmstore_elf_is_style(data, size, ASMSTORE_ELF_STYLE_NET12) &&
        asmstore_elf_payload(data, size, NULL, &payload, &psize, &info, NULL) != ASMSTORE_OK)
        abort();
    /* a refusal names what it found and where, inside the input */
    memset(&v, 0, sizeof v);
    inert = asmstore_elf_check_inert(data, size, &v);
    if (inert == ASMSTORE_ERR_ELF_NOT_INERT && (!v.message || v.offset > size)) abort();
    if (inert != ASMSTORE_OK && inert != ASMSTORE_ERR_ELF_NOT_INERT && inert != ASMSTORE_ERR_BAD_ELF) abort();
    return 0;
}
