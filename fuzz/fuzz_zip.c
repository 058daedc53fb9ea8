/* fuzz_zip.c - the APK/ZIP scanner over arbitrary bytes, in memory: EOCD (comment, ZIP64), central
   directory, local headers, and the walk over every entry (asmstore_zip_next, what repack copies).
   Whatever it returns must lie inside the archive. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_LOCATOR
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>

static void check_inside(const asmstore_zip_entry *e, size_t size) {
    if (e->data_offset > size || e->compressed_size > size - e->data_offset) abort();
    if (e->lfh_offset >= e->data_offset) abort();
}

/* The central directory walk (asmstore_zip_dir_open, asmstore_zip_next): the directory and comment
   inside the archive; every entry's data before the directory, its name and record inside it, in
   order; at most `count` entries. */
static void walk_dir(const uint8_t *data, size_t size) {
    asmstore_zip_dir dir;
    asmstore_zip_entry e;
    const char *name;
    size_t len;
    uint64_t n = 0, next;

    if (asmstore_zip_dir_open(data, size, &dir, NULL) != ASMSTORE_OK) return;
    if (dir.cd_offset > size || dir.cd_size > size - dir.cd_offset ||
        dir.comment_offset + dir.comment_size > size)
        abort();
    next = dir.cd_offset;
    while (asmstore_zip_next(data, size, &dir, &e, &name, &len, NULL) == ASMSTORE_OK) {
        check_inside(&e, size);
        if (e.data_offset + e.compressed_size > dir.cd_offset || ++n > dir.count || n != dir.index)
            abort();
        if (dir.record_offset != next ||
            dir.record_offset + dir.record_size > dir.cd_offset + dir.cd_size ||
            (const uint8_t *)name != data + dir.record_offset + 46 || len > dir.record_size - 46)
            abort();
        next = dir.record_offset + dir.record_size;
    }
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
    walk_dir(data, size);
    return 0;
}
