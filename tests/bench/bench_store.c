/* bench_store.c - reader figures next to their anchors, measured in the same run:
     lookup: ns per asmstore_reader_find over every name (with and without extension, random order)
             vs a plain bsearch over the same sorted hashes (hash computed in both: the floor);
     read:   asmstore_reader_read of every entry vs raw ZSTD_decompressDCtx over the same frames.
   A and B runs are interleaved; each figure is the median of the repetitions, with min-max.
   usage: bench_store STORE [reps] */
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
static void summary(double *v, int n, double *med, double *lo, double *hi) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *med = v[n / 2]; *lo = v[0]; *hi = v[n - 1];
}
static volatile uint64_t sink;

int main(int argc, char **argv) {
    void *data;
    size_t size, i, nnames = 0, maxsize = 0;
    asmstore_reader r;
    uint32_t *table;
    const char **names;
    size_t *lens;
    uint64_t *hashes;
    int reps = argc > 2 ? atoi(argv[2]) : 9, rep, rounds = 200;
    double *ta, *tb, med_a, lo_a, hi_a, med_b, lo_b, hi_b;
    unsigned char *buf;
    ZSTD_DCtx *dctx;
    if (argc < 2 || asmstore_read_file(argv[1], NULL, &data, &size) != ASMSTORE_OK ||
        asmstore_reader_init(&r, data, size, NULL, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "usage: bench_store RAW-STORE [reps]\n");
        return 2;
    }
    table = (uint32_t *)malloc(asmstore_reader_name_table_size(&r) + 4);
    asmstore_reader_attach_name_table(&r, table, asmstore_reader_name_table_size(&r) + 4);
    names = (const char **)malloc(2 * r.entry_count * sizeof *names);
    lens = (size_t *)malloc(2 * r.entry_count * sizeof *lens);
    hashes = (uint64_t *)malloc(2 * r.entry_count * sizeof *hashes);
    ta = (double *)malloc((size_t)reps * sizeof *ta);
    tb = (double *)malloc((size_t)reps * sizeof *tb);
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        size_t base;
        asmstore_reader_entry(&r, (uint32_t)i, &e);
        if (e.ignored) continue;
        base = asmstore__strip_ext_len(e.name, e.name_len);
        names[nnames] = e.name; lens[nnames++] = e.name_len;
        names[nnames] = e.name; lens[nnames++] = base;
        if (e.uncompressed_size > maxsize) maxsize = e.uncompressed_size;
    }
    /* random order (fixed seed) */
    srand(12345);
    for (i = nnames; i > 1; i--) {
        size_t j = (size_t)rand() % i;
        const char *tn = names[i - 1]; size_t tl = lens[i - 1];
        names[i - 1] = names[j]; lens[i - 1] = lens[j]; names[j] = tn; lens[j] = tl;
    }
    for (i = 0; i < r.index_entry_count; i++) hashes[i] = asmstore__index_hash(&r, (uint32_t)i);
    qsort(hashes, r.index_entry_count, sizeof *hashes, cmp_u64);
    for (rep = 0; rep < reps; rep++) {
        double t0 = now();
        int k;
        for (k = 0; k < rounds; k++)
            for (i = 0; i < nnames; i++) {
                asmstore_entry e;
                sink += (uint64_t)asmstore_reader_find(&r, names[i], lens[i], &e) + e.index;
            }
        ta[rep] = (now() - t0) * 1e9 / (double)(rounds * nnames);
        t0 = now();
        for (k = 0; k < rounds; k++)
            for (i = 0; i < nnames; i++) {
                uint64_t h = asmstore_name_hash(r.hash_kind, names[i], lens[i]);
                const uint64_t *hit = (const uint64_t *)bsearch(&h, hashes, r.index_entry_count, sizeof *hashes, cmp_u64);
                sink += hit ? (uint64_t)(hit - hashes) : 0u;
            }
        tb[rep] = (now() - t0) * 1e9 / (double)(rounds * nnames);
    }
    summary(ta, reps, &med_a, &lo_a, &hi_a);
    summary(tb, reps, &med_b, &lo_b, &hi_b);
    printf("| %-34s | %14s | %14s | %6s |\n", "figure (median, min-max)", "asmstore", "anchor", "ratio");
    printf("|------------------------------------|----------------|----------------|--------|\n");
    printf("| lookup, ns/name (%zu names, %s) | %5.1f (%.0f-%.0f) | %5.1f (%.0f-%.0f) | %5.2fx |\n", nnames,
           asmstore_hash_name(r.hash_kind), med_a, lo_a, hi_a, med_b, lo_b, hi_b, med_a / med_b);
    /* read: every compressed entry, our API vs raw ZSTD_decompressDCtx on the same frame */
    buf = (unsigned char *)malloc(maxsize ? maxsize : 1);
    dctx = ZSTD_createDCtx();
    {
        size_t total = 0;
        for (rep = 0; rep < reps; rep++) {
            double t0;
            total = 0;
            t0 = now();
            for (i = 0; i < r.entry_count; i++) {
                asmstore_entry e;
                asmstore_reader_entry(&r, (uint32_t)i, &e);
                if (e.compression != ASMSTORE_COMPRESSION_ZSTD) continue;
                if (asmstore_reader_read(&r, &e, buf, maxsize, dctx, NULL) != ASMSTORE_OK) { fprintf(stderr, "read failed\n"); return 1; }
                total += e.uncompressed_size;
            }
            ta[rep] = (double)total / (now() - t0) / 1e6;
            t0 = now();
            for (i = 0; i < r.entry_count; i++) {
                asmstore_entry e;
                asmstore_reader_entry(&r, (uint32_t)i, &e);
                if (e.compression != ASMSTORE_COMPRESSION_ZSTD) continue;
                sink += ZSTD_decompressDCtx(dctx, buf, maxsize, e.image + 12, e.image_size - 12);
            }
            tb[rep] = (double)total / (now() - t0) / 1e6;
        }
        summary(ta, reps, &med_a, &lo_a, &hi_a);
        summary(tb, reps, &med_b, &lo_b, &hi_b);
        printf("| read, MB/s decompressed (%zu MB)    | %5.0f (%.0f-%.0f) | %5.0f (%.0f-%.0f) | %5.3fx |\n", total >> 20,
               med_a, lo_a, hi_a, med_b, lo_b, hi_b, med_a / med_b);
    }
    ZSTD_freeDCtx(dctx);
    free(buf); free(table); free(names); free(lens); free(hashes); free(ta); free(tb);
    asmstore_free(NULL, data, size);
    return 0;
}
