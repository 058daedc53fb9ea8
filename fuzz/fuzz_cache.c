/* fuzz_cache.c - cache-file validation (footer + payload checks) over arbitrary bytes.
   Byte 0 chooses the mode: validate the raw input against parameters taken from it, or build a
   correct file from the input, corrupt one byte (position and value from the input) and require
   that the check rejects it unless the byte did not change; with bit 2 set, the rest of the input is a
   cache pack, its table hash fixed up so that every later check is reached, and every table the
   parser accepts must list ascending indices of images inside the pack, aligned and apart page by page. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#define ASMSTORE_NO_WRITER
#include "../asmstore.h"
#include "../asmstore_cache.h"
#include <stdlib.h>

static uint64_t rd64(const uint8_t *p) { uint64_t v = 0; int i; for (i = 7; i >= 0; i--) v = (v << 8) | p[i]; return v; }
static uint64_t pages(uint64_t size) { return (size + 4095u) & ~(uint64_t)4095u; }

/* The pack parser over p[0..n) as a pack (its store id its own, its size n unless mode bit 3 makes the file
   longer) of a store of 300 entries, the table's hash fixed up. */
static void fuzz_pack(uint8_t mode, const uint8_t *p, size_t n) {
    static asmstore_cache__slot slot[300];
    unsigned char *b = (unsigned char *)malloc(n ? n : 1);
    uint64_t file_size = n + (mode & 8 ? 4096u : 0u), id = n >= 24 ? rd64(p + 16) : 0, written_for = 0;
    size_t count, i, j, table_end = n >= 28 ? 64u + 40u * (size_t)(p[24] | (uint32_t)p[25] << 8) : 0;
    if (n) memcpy(b, p, n);
    if (table_end > 16 && table_end <= n) asmstore__wr64(b + 8, asmstore_xxh3_64(b + 16, table_end - 16));
    count = asmstore_cache__pack_parse(b, n, file_size, id, mode & 2, 300, 4096, slot, 300, &written_for);
    for (i = 0; i < count; i++) {
        if (slot[i].offset % 4096 || slot[i].size == 0 || slot[i].offset + slot[i].size > file_size ||
            slot[i].index >= 300 || slot[i].offset < 64u + 40u * count || (i > 0 && slot[i].index <= slot[i - 1].index))
            abort();
        /* apart page by page, in whatever order they lie: a hit's slice of the pack's mapping and the pages
           release drops (its size rounded up to a page) hold no other image */
        for (j = 0; j < i; j++)
            if (slot[j].offset < slot[i].offset + pages(slot[i].size) && slot[i].offset < slot[j].offset + pages(slot[j].size))
                abort();
    }
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t id, src;
    uint32_t index;
    if (size < 16) return 0;
    id = rd64(data + 1);
    index = (uint32_t)data[9] | (uint32_t)data[10] << 8;
    src = rd64(data + 8);
    if (data[0] & 4) {
        fuzz_pack(data[0], data + 1, size - 1);
    } else if ((data[0] & 1) == 0) {
        /* raw: any bytes as a cache file, expected size from the input */
        uint64_t expected = size >= ASMSTORE_CACHE_FOOTER_SIZE ? size - ASMSTORE_CACHE_FOOTER_SIZE + (data[11] & 1) : data[11];
        asmstore_cache_validate_file(data, size, id, index, expected, (data[0] & 2) ? &src : NULL, NULL);
        asmstore_cache_validate_file(data + 16, size - 16, id, index, size - 16 >= ASMSTORE_CACHE_FOOTER_SIZE ? size - 16 - ASMSTORE_CACHE_FOOTER_SIZE : 0, NULL, NULL);
    } else {
        size_t psize = size - 16, pos;
        unsigned char *file = (unsigned char *)malloc(psize + ASMSTORE_CACHE_FOOTER_SIZE);
        unsigned char old;
        const uint64_t *sp = (data[0] & 2) ? &src : NULL;
        memcpy(file, data + 16, psize);
        asmstore_cache_footer_encode(file + psize, id, index, file, psize, sp);
        if (asmstore_cache_validate_file(file, psize + ASMSTORE_CACHE_FOOTER_SIZE, id, index, psize, sp, NULL) != ASMSTORE_OK) abort();
        pos = (size_t)(rd64(data + 4) % (psize + ASMSTORE_CACHE_FOOTER_SIZE));
        old = file[pos];
        file[pos] = (unsigned char)(file[pos] ^ (data[12] | 1));
        if (asmstore_cache_validate_file(file, psize + ASMSTORE_CACHE_FOOTER_SIZE, id, index, psize, sp, NULL) == ASMSTORE_OK && file[pos] != old) {
            /* XXH3-64 collisions on a one-byte change do not happen; a pass here is a bug */
            abort();
        }
        free(file);
    }
    return 0;
}
