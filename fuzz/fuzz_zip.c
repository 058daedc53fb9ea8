/* fuzz_zip.c - the APK/ZIP scanner over arbitrary bytes, in memory: EOCD (comment, ZIP64), central
   directory, local headers (which must agree with the central directory), the walk over every
   entry (asmstore_zip_next, what repack copies), and, built with zlib
   (ASMSTORE_CLI_ZLIB), the CLI's entry reader (tools/cli_inflate.c): CRC-32, bounded inflate.
   Whatever the scanner returns must lie inside the archive and agree with its local header; what
   the reader returns must have the declared size and CRC-32. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_LOCATOR
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>
#ifdef ASMSTORE_CLI_ZLIB
#include "../tools/cli_inflate.c"
#endif

/* An entry found: inside the archive, and its local header says what the central directory says. */
static void check_entry(const uint8_t *data, const asmstore_zip_entry *e, size_t size,
                        const char *name, size_t name_len) {
    const uint8_t *l = data + e->lfh_offset;

    if (e->data_offset > size || e->compressed_size > size - e->data_offset) abort();
    if (e->lfh_offset >= e->data_offset || e->data_offset - e->lfh_offset < 30 + name_len) abort();
    if (asmstore__rd16(l + 26) != name_len || memcmp(l + 30, name, name_len) != 0) abort();
    if (asmstore__rd16(l + 8) != e->method) abort();
    if (e->lfh_offset + 30 + asmstore__rd16(l + 26) + asmstore__rd16(l + 28) != e->data_offset) abort();
}

/* The CLI's reader on an entry the scanner gave: a success has the declared size and CRC-32. */
static void read_entry(const uint8_t *data, size_t size, const asmstore_zip_entry *e) {
#ifdef ASMSTORE_CLI_ZLIB
    int store;

    for (store = 0; store < 2; store++) {
        cli_entry_bytes b;

        if (cli_entry_read(data, e, store, &b) == ASMSTORE_OK) {
            if (b.n != e->uncompressed_size || asmstore_zip_crc32(0, b.p, b.n) != e->crc32) abort();
            if (!b.owned && (b.p < data || b.n > size - (size_t)(b.p - data))) abort();
        } else if (b.owned || !b.why[0]) {
            abort(); /* a refusal keeps nothing and says why */
        }
        free(b.owned);
    }
#else
    (void)data;
    (void)size;
    (void)e;
#endif
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
        check_entry(data, &e, size, name, len);
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
    static const char *names[] = {"lib/arm64-v8a/libassembly-store.so", "a", "classes.dex", ""};
    asmstore_zip_entry e;
    asmstore_abi found;
    asmstore_error err;
    size_t k;
    for (k = 0; k < sizeof abis / sizeof abis[0]; k++)
        if (asmstore_zip_find_store(data, size, abis[k], &found, &e, &err) == ASMSTORE_OK) {
            const void *payload;
            size_t psize;
            if (e.data_offset > size || e.compressed_size > size - e.data_offset) abort();
            asmstore_elf_payload(data + e.data_offset, (size_t)e.compressed_size, NULL, &payload, &psize, NULL, NULL);
        }
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        asmstore_result r = asmstore_zip_find(data, size, names[k], strlen(names[k]), &e, &err);
        if (r == ASMSTORE_OK || r == ASMSTORE_ERR_MISALIGNED || r == ASMSTORE_ERR_ZIP_COMPRESSED) {
            check_entry(data, &e, size, names[k], strlen(names[k]));
            read_entry(data, size, &e);
        }
    }
    walk_dir(data, size);
    return 0;
}
