/* lz4_liblz4.c - asmstore_lz4_decode against liblz4's LZ4_decompress_safe on the same blocks:
   every XALZ image of the files given (tests/lz4_images.h: lone images, stores in any container),
   blocks liblz4 makes of generated data (LZ4_compress_default and LZ4_compress_HC 1-12), and
   MUTATIONS damaged copies of each (a byte set, a bit flipped, bytes cut or added, most of them in
   the last 32 bytes where the end rules live; the capacity one less or more). Both must take the
   same blocks with the same bytes and the same length, and refuse the same ones. The decoder
   writes into a buffer of exactly the capacity (build with ASan to see it never leaves it).
     usage: lz4_liblz4 MUTATIONS FILE...   exit 0 when they agree on every block */
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "lz4_images.h"
#include <limits.h>
#include <lz4.h>
#include <lz4hc.h>

static struct {
    long blocks, taken, refused, differ;
    long mutations;
    uint64_t rng;
} run = {0, 0, 0, 0, 0, 0x9E3779B97F4A7C15u};

static uint64_t next(void) {
    run.rng ^= run.rng << 13;
    run.rng ^= run.rng >> 7;
    run.rng ^= run.rng << 17;
    return run.rng;
}

/* one block at one capacity through both decoders; 0 when they agree. Ours reads a copy of exactly
   n bytes and writes into exactly cap bytes, for ASan to see the edges. */
static int compare(const unsigned char *block, size_t n, size_t cap, const char *what) {
    unsigned char *mine = (unsigned char *)malloc(cap ? cap : 1), *theirs = (unsigned char *)malloc(cap ? cap : 1);
    unsigned char *exact = (unsigned char *)malloc(n ? n : 1);
    size_t written = 0;
    asmstore_result res;
    memcpy(exact, block, n);
    res = asmstore_lz4_decode(cap ? mine : NULL, cap, n ? exact : NULL, n, &written);
    int got = LZ4_decompress_safe((const char *)block, (char *)theirs, (int)n, (int)cap);
    int same = res == ASMSTORE_OK ? got >= 0 && (size_t)got == written && memcmp(mine, theirs, written) == 0
                                  : got < 0 && res == ASMSTORE_ERR_DECOMPRESS;
    run.blocks++;
    if (!same) {
        if (run.differ++ < 10)
            fprintf(stderr, "differ: %s: %zu-byte block, capacity %zu: asmstore %s (%zu bytes), liblz4 %d\n", what, n,
                    cap, asmstore_result_string(res), written, got);
    } else if (res == ASMSTORE_OK) {
        run.taken++;
    } else {
        run.refused++;
    }
    free(mine);
    free(theirs);
    free(exact);
    return !same;
}

/* the block, then `count` damaged copies of it */
static void compare_mutated(const unsigned char *block, size_t n, size_t cap, const char *what) {
    unsigned char *m = (unsigned char *)malloc(n + 64);
    long k;
    compare(block, n, cap, what);
    for (k = 0; k < run.mutations && m; k++) {
        uint64_t r = next();
        size_t len = n, at = n ? (size_t)(r >> 16) % n : 0, c = cap;
        memcpy(m, block, n);
        if (n > 32 && (r & 3) != 0) at = n - 1 - (size_t)(r >> 40) % 32; /* mostly near the end */
        switch ((r >> 2) % 7) {
        case 0: if (n) m[at] = (unsigned char)(r >> 24); break;
        case 1: if (n) m[at] ^= (unsigned char)(1u << ((r >> 24) & 7)); break;
        case 2: len = at; break;
        case 3: memset(m + n, (int)(r >> 24), 64); len = n + 1 + (size_t)(r >> 32) % 63; break;
        case 4: c = cap ? cap - 1 : 0; break;
        case 5: c = cap + 1 + (size_t)(r >> 32) % 16; break;
        default: if (n) m[at] = (unsigned char)((r >> 24) & 1 ? 0xFF : 0xF0); break;
        }
        compare(m, len, c, what);
    }
    free(m);
}

static int from_file(void *user, const lz4_image *im) {
    char what[600];
    (void)user;
    snprintf(what, sizeof what, "%s image %ld", im->path, im->index);
    compare_mutated(im->block, im->block_size, im->out_size, what);
    return 0;
}

/* data of n bytes that compresses a little or a lot: runs, repeats at short and long offsets */
static void generate(unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint64_t r = next();
        size_t run_len = 1 + (size_t)(r >> 8) % 64, back = 1 + (size_t)(r >> 20) % 40;
        for (; run_len-- && i < n; i++)
            p[i] = (r & 3) == 0 || i < back ? (unsigned char)next() : (r & 3) == 1 ? p[i - 1] : p[i - back];
    }
}

static void generated_blocks(void) {
    static const size_t sizes[] = {0, 1, 5, 12, 13, 17, 64, 255, 1000, 4096, 65536, 300000};
    size_t s;
    int level;
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        int bound = LZ4_compressBound((int)n);
        unsigned char *src = (unsigned char *)malloc(n + 1), *dst = (unsigned char *)malloc((size_t)bound + 1);
        char what[64];
        generate(src, n);
        for (level = 0; level <= 12; level += 3) {
            int z = level ? LZ4_compress_HC((const char *)src, (char *)dst, (int)n, bound, level)
                          : LZ4_compress_default((const char *)src, (char *)dst, (int)n, bound);
            snprintf(what, sizeof what, "generated %zu bytes, level %d", n, level);
            if (z > 0) compare_mutated(dst, (size_t)z, n, what);
        }
        free(src);
        free(dst);
    }
}

int main(int argc, char **argv) {
    long images = 0;
    int i;
    if (argc < 2) return 2;
    run.mutations = atol(argv[1]);
    for (i = 2; i < argc; i++) {
        long n = lz4_each_image(argv[i], from_file, NULL);
        if (n < 0) {
            fprintf(stderr, "%s: not read\n", argv[i]);
            return 1;
        }
        images += n;
    }
    generated_blocks();
    printf("%ld XALZ images and generated blocks, %ld blocks compared (%ld mutations each): "
           "%ld taken by both with the same bytes, %ld refused by both, %ld differ\n",
           images, run.blocks, run.mutations, run.taken, run.refused, run.differ);
    return run.differ ? 1 : 0;
}
