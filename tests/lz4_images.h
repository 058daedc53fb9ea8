/* lz4_images.h - every XALZ image of a file, for tests/lz4_samples.c and tests/lz4_liblz4.c: a file
   that is one image ("XALZ", descriptor index, uncompressed length, then the LZ4 block: the
   samples' xalz/ files) or a store in any container asmstore_locate_file opens (raw, .so, a .NET
   6-8 blob). Include after asmstore.h with ASMSTORE_IMPLEMENTATION. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* one image: its descriptor index, the block and the length its header gives; the reader and the
   entry when it came from a store (NULL for a lone image file) */
typedef struct lz4_image {
    const char *path;
    long index;
    const unsigned char *block;
    size_t block_size, out_size;
    const asmstore_reader *r;
    const asmstore_entry *e;
} lz4_image;
typedef int (*lz4_image_fn)(void *user, const lz4_image *im);

static unsigned char *lz4_slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    unsigned char *p = NULL;
    long size;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (p = (unsigned char *)malloc((size_t)size + 1)) != NULL && fread(p, 1, (size_t)size, f) != (size_t)size) {
        free(p);
        p = NULL;
    }
    if (p) *n = (size_t)size;
    fclose(f);
    return p;
}

/* Calls fn for every XALZ image of path; returns how many (fn's nonzero stops: -1), -1 when the
   file is neither an image nor a store. */
static long lz4_each_image(const char *path, lz4_image_fn fn, void *user) {
    asmstore_locator l;
    asmstore_reader r;
    lz4_image im;
    size_t n = 0;
    unsigned char *lone = lz4_slurp(path, &n);
    long count = 0;
    uint32_t i;
    memset(&im, 0, sizeof im);
    im.path = path;
    if (lone && n >= 12 && asmstore__rd32(lone) == ASMSTORE_LZ4_MAGIC) {
        im.index = (long)asmstore__rd32(lone + 4);
        im.block = lone + 12;
        im.block_size = n - 12;
        im.out_size = asmstore__rd32(lone + 8);
        count = fn(user, &im) ? -1 : 1;
        free(lone);
        return count;
    }
    free(lone);
    if (asmstore_locate_file(&l, path, NULL, NULL) != ASMSTORE_OK) return -1;
    if (asmstore_reader_init(&r, l.data, l.size, NULL, NULL) != ASMSTORE_OK) {
        asmstore_locator_close(&l);
        return -1;
    }
    for (i = 0; i < r.entry_count && count >= 0; i++) {
        asmstore_entry e;
        if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.compression != ASMSTORE_COMPRESSION_LZ4) continue;
        im.index = (long)i;
        im.block = e.image + 12;
        im.block_size = e.image_size - 12;
        im.out_size = e.uncompressed_size;
        im.r = &r;
        im.e = &e;
        count = fn(user, &im) ? -1 : count + 1;
    }
    asmstore_locator_close(&l);
    return count;
}
