/* Reads the store (raw, .so or APK entry by path) at argv[1] and prints its entries. */
#define ASMSTORE_IMPLEMENTATION
#include "asmstore.h"
#include <stdio.h>

int main(int argc, char **argv) {
    asmstore_locator loc;
    asmstore_reader r;
    asmstore_entry e;
    asmstore_error err;
    uint32_t i;

    if (argc != 2) return 2;
    if (asmstore_locate_file(&loc, argv[1], NULL, &err) != ASMSTORE_OK ||
        asmstore_reader_init(&r, loc.data, loc.size, NULL, &err) != ASMSTORE_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message ? err.message : "not read");
        return 1;
    }
    for (i = 0; i < r.entry_count; i++)
        if (asmstore_reader_entry(&r, i, &e, NULL) == ASMSTORE_OK && e.name)
            printf("%.*s %llu\n", (int)e.name_len, e.name, (unsigned long long)e.uncompressed_size);
    printf("%u entries\n", (unsigned)r.entry_count);
    asmstore_locator_close(&loc);
    return 0;
}
