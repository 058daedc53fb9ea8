/* fuzz_reader.c - the store reader over arbitrary bytes: open, look up every name (both spellings)
   and some garbage names, read every entry with capacities taken from the input, decompress; the file offset
   of every image (asmstore_locator_image_offset).
   No allocation beyond the configured maximum entry size, whatever the input claims. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FUZZ_MAX_ENTRY (1u << 20)

/* an "LZ4" callback that checks its contract and fills the buffer */
static asmstore_result fake_lz4(void *user, asmstore_compression kind, void *dst, size_t cap, const void *src,
                                size_t src_size, size_t *written) {
    (void)user; (void)src;
    if (kind != ASMSTORE_COMPRESSION_LZ4) return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
    if (cap > FUZZ_MAX_ENTRY) abort(); /* the reader must have bounded it */
    memset(dst, 0xA5, cap);
    *written = src_size & 1 ? cap : cap / 2; /* sometimes wrong: must give SIZE_MISMATCH */
    return ASMSTORE_OK;
}

/* The oracle for a hit: what was asked is the name found, or that name minus its extension. */
static int same_or_base(const char *asked, size_t asked_len, const char *found, size_t found_len) {
    size_t base = asmstore_name_base_len(found, found_len);
    return (asked_len == found_len || asked_len == base) && memcmp(asked, found, asked_len) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ZSTD_DCtx *dctx;
    asmstore_reader r;
    asmstore_read_options ro;
    uint32_t i, table[4096];
    unsigned char *buf;
    static const char *garbage[] = {"", "a", "System.Runtime", "System.Runtime.dll", "fr/X.resources", ".dll", "/", "x.ni.dll"};
    if (!dctx) dctx = ZSTD_createDCtx();
    memset(&ro, 0, sizeof ro);
    ro.max_entry_size = FUZZ_MAX_ENTRY;
    ro.max_entries = 1u << 16;
    ro.decompress = (size & 2) ? fake_lz4 : NULL;
    ro.max_total_size = (size & 4) ? (uint64_t)FUZZ_MAX_ENTRY * 8u : 0; /* the sum check reads every image header */
    if (asmstore_reader_init(&r, data, size, &ro, NULL) != ASMSTORE_OK) return 0;
    if (r.format == 1) {
        /* format 1: the input's last quarter doubles as a manifest (usually refused, never a crash) */
        if (asmstore_reader_name_table_size(&r) <= sizeof table)
            asmstore_reader_attach_manifest(&r, (const char *)data + size - size / 4, size / 4, table, sizeof table, NULL);
    } else if (asmstore_reader_name_table_size(&r) <= sizeof table && (size & 1)) {
        if (asmstore_reader_attach_name_table(&r, table, sizeof table, NULL) != ASMSTORE_OK) abort();
    }
    {   /* the runtime's rules: a result, and a duplicate names two distinct entries of the store */
        asmstore_error rerr;
        if (asmstore_reader_check_runtime(&r, NULL, &rerr) == ASMSTORE_ERR_BAD_INDEX &&
            (rerr.entry < 0 || (uint64_t)rerr.entry >= r.entry_count || rerr.other_entry == rerr.entry))
            abort();
    }
    buf = (unsigned char *)malloc(FUZZ_MAX_ENTRY);
    for (i = 0; i < r.entry_count && i < 512; i++) {
        asmstore_entry e, f;
        size_t cap;
        asmstore_result res;
        if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK) abort();
        /* the entry must lie inside the input */
        if (e.image && (e.image < data || e.image + e.image_size > data + size)) abort();
        if (e.name && (e.name < (const char *)data || (const unsigned char *)e.name + e.name_len > data + size)) abort();
        /* the file offset of an image: only for uncompressed ones, and then exactly where the image lies */
        {
            asmstore_locator l;
            uint64_t off = 0;
            memset(&l, 0, sizeof l);
            l.data = data;
            l.size = size;
            l.file_offset = 100;
            l.path[0] = 'x';
            res = asmstore_locator_image_offset(&l, &r, &e, (size_t)1 << (size & 7), &off, NULL);
            if (res == ASMSTORE_OK && (e.compression != ASMSTORE_COMPRESSION_NONE || off != 100 + (uint64_t)(e.image - data)))
                abort();
        }
        /* the reader's own entries always pass its entry check */
        if (!e.ignored && asmstore_reader_entry_check(&r, &e, NULL) != ASMSTORE_OK) abort();
        res = e.name ? asmstore_reader_find(&r, e.name, e.name_len, &f, NULL) : ASMSTORE_ERR_NOT_FOUND;
        /* whatever a hostile store holds, a hit is always a name that matches what was asked */
        if (res == ASMSTORE_OK && r.format != 1 && !same_or_base(e.name, e.name_len, f.name, f.name_len)) abort();
        cap = e.uncompressed_size < FUZZ_MAX_ENTRY ? e.uncompressed_size : FUZZ_MAX_ENTRY;
        if (size > 0 && (data[i % size] & 1)) cap = cap / 2;
        if (i & 2) { e.image_size += 4096; e.uncompressed_size = 1; } /* an edited entry must not widen the read */
        asmstore_reader_read(&r, &e, buf, cap, (i & 1) ? dctx : NULL, NULL);
    }
    for (i = 0; i < sizeof garbage / sizeof garbage[0]; i++) asmstore_reader_find(&r, garbage[i], strlen(garbage[i]), NULL, NULL);
    free(buf);
    return 0;
}
