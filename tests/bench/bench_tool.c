/* bench_tool.c - the C half of `make bench` (tests/bench/bench.sh drives it and writes BENCHMARKS.md).
   Every timed figure is printed as one machine-readable line "key median min max [unit]"; the
   script puts each next to its anchor. A and B are interleaved inside every repetition.

     bench_tool mkstore OUT LEVEL JOBS N NOCOMPRESS FILE...
         raw v4 x86_64 store of N entries cycling over FILE...; pass k >= 1 names its copies
         "p<k>/<basename>" (the scale sets: 30, 300, 3000 entries)
     bench_tool reader STORE REPS
         open (asmstore_reader_init), lookup (asmstore_reader_find_index) and lookup + entry
         (asmstore_reader_find) vs a bsearch floor (+ where the difference goes),
         read vs raw ZSTD_decompressDCtx, load (find + read every entry), and for stored
         (uncompressed) entries zero-copy access vs a copy
     bench_tool upstream STORE REPS
         a net11 CoreCLR store (CRC-32, arm64): asmstore_reader_find on a reader set up as the header's
         USE block shows (name table through the read options) vs dotnet/android's search as .NET 11
         ships it (bitwise CRC-32, lower_bound, the run of equal hashes), the same with a table CRC,
         and the bsearch floor, interleaved
     bench_tool count STORE lookup|index|floor|open|attach|upuse|upbit|uptab ITER
         runs one of those ITER times inside a noinline function, for
         valgrind --tool=callgrind --toggle-collect=bench_count_* (instructions per operation)
     bench_tool locate SAMPLES [LABEL:]KIND=PATH...
         KIND so:  asmstore_locate_dlopen + asmstore_reader_init
              loc: asmstore_locate_dlopen alone (dlopen + dlsym + the payload's extent)
              dl:  dlopen + dlsym only (the anchor: what an ld.lld-made .so costs)
              apk: asmstore_locate_apk (ZIP central directory + mmap + ELF walk) + asmstore_reader_init
         each sample in a fresh fork()ed process (dlopen caches within a process), kinds rotated
         round-robin so none always runs first. Prints locate_<LABEL>_us (LABEL defaults to KIND).
     bench_tool lz4 STORE REPS
         every XALZ image of STORE (a raw store) decoded by asmstore_lz4_decode and by liblz4's
         LZ4_decompress_safe into the same buffer, the two in turn in each repetition (which goes
         first alternates); both outputs compared once. Prints lz4_ours_mbs, lz4_liblz4_mbs (MB/s
         of output). Needs a build with liblz4 (ASMSTORE_CLI_LZ4).
     bench_tool crc MIB REPS
         the ZIP CRC-32 of MIB MiB of random bytes: asmstore_zip_crc32 (the header's) vs zlib's
         crc32_z, interleaved. Prints crc_ours_mbs, crc_zlib_mbs. Needs zlib (ASMSTORE_CLI_ZLIB).
     bench_tool readcrc FILE
         one sample of the floor under `asmstore info` of an APK: read FILE whole, then zlib's CRC-32
         of it. Prints readcrc_s (seconds). Needs zlib.
     bench_tool readimages APK
         one sample of the floor under `asmstore verify` of an APK: read APK whole, then every image
         of its store decompressed (asmstore_reader_read: libzstd, the header's LZ4) and hashed
         (XXH3-64), as verify reads each. Prints readimages_s (seconds).
     bench_tool frames ZST LZ4 PLAIN STORE...
         appends every image of each STORE (raw, .so, a .NET 6-8 set's .blob) as its CLI's input:
         zstd images' frames to ZST, LZ4 images' blocks each in an LZ4 frame to LZ4 (lz4 -d reads
         concatenated frames), uncompressed images to PLAIN: the scan section's floor (the same
         compressed bytes through zstd -d / lz4 -d and sha256sum); prints "images N bytes B
         largest L" (their uncompressed sizes)
     bench_tool floor LIST ZST LZ4 PLAIN
         the scan section's floor in one process, as one scan worker is: each file LIST names (one a
         line) read and hashed (SHA-256, libcrypto), then ZST through libzstd's streaming decoder,
         LZ4 through liblz4's frame decoder (what zstd -d and lz4 -d run) and PLAIN, each stream's
         output hashed as it comes. Needs liblz4 and libcrypto (ASMSTORE_CLI_LZ4, _CRYPTO). */
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>
#ifdef ASMSTORE_CLI_LZ4
#include <lz4.h>
#endif
#ifdef ASMSTORE_CLI_ZLIB
#include <zlib.h>
#endif
#if defined(ASMSTORE_CLI_LZ4) && defined(ASMSTORE_CLI_CRYPTO)
#include <lz4frame.h>
#include <openssl/evp.h>
#define BENCH_FLOOR 1
#endif

#define NOINLINE __attribute__((noinline))

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
static void report(const char *key, double *v, int n, const char *unit) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    printf("%s %.4g %.4g %.4g %s\n", key, v[n / 2], v[0], v[n - 1], unit);
}
static volatile uint64_t sink;
/* ns per name of one timed call making `rounds` passes over n names */
static double ns_t0;
#define NS_PER_NAME(call, rounds, n) \
    (ns_t0 = now(), (call), (now() - ns_t0) * 1e9 / (double)(rounds) / (double)(n))

/* ---------------------------------------------------------------- mkstore */
static int cmd_mkstore(int argc, char **argv) {
    asmstore_write_options o;
    asmstore_add entry;
    asmstore_writer *w;
    const void *data;
    size_t size;
    long n, i, nf;
    asmstore_result res;
    if (argc < 7) return 2;
    memset(&o, 0, sizeof o);
    memset(&entry, 0, sizeof entry);
    o.abi = ASMSTORE_ABI_X86_64;
    o.level = atoi(argv[3]);
    o.jobs = atoi(argv[4]);
    n = atol(argv[5]);
    o.no_compress = atoi(argv[6]);
    o.image_alignment = 1; /* the layout these figures have always measured */
    nf = argc - 7;
    if (nf <= 0 || n <= 0) return 2;
    if ((res = asmstore_writer_create(&w, &o, NULL)) != ASMSTORE_OK) { fprintf(stderr, "create: %s\n", asmstore_result_string(res)); return 1; }
    for (i = 0; i < n; i++) {
        const char *f = argv[7 + i % nf], *base = strrchr(f, '/');
        char name[1100];
        long k = i / nf;
        base = base ? base + 1 : f;
        if (k) snprintf(name, sizeof name, "p%ld/%s", k, base);
        else snprintf(name, sizeof name, "%s", base);
        entry.name = name;
        if ((res = asmstore_writer_add_file(w, &entry, f, NULL, NULL, NULL)) != ASMSTORE_OK) {
            fprintf(stderr, "add %s: %s\n", name, asmstore_result_string(res));
            return 1;
        }
    }
    if ((res = asmstore_writer_finish(w, &data, &size, NULL)) != ASMSTORE_OK || (res = asmstore_write_file(argv[2], data, size, 0644, NULL)) != ASMSTORE_OK) {
        fprintf(stderr, "finish: %s\n", asmstore_result_string(res));
        return 1;
    }
    asmstore_writer_free(w);
    return 0;
}

/* ---------------------------------------------------------------- reader */
typedef struct names {
    const char **name;
    size_t *len;
    size_t n;
    uint64_t *hashes; /* sorted index hashes: the floor's array */
    size_t maxsize;
} names;

static void collect(asmstore_reader *r, names *nm, int with_stripped, int shuffle) {
    size_t i;
    nm->name = (const char **)malloc(2 * r->entry_count * sizeof *nm->name + 1);
    nm->len = (size_t *)malloc(2 * r->entry_count * sizeof *nm->len + 1);
    nm->hashes = (uint64_t *)malloc(r->index_entry_count * sizeof *nm->hashes + 1);
    nm->n = 0;
    nm->maxsize = 1;
    for (i = 0; i < r->entry_count; i++) {
        asmstore_entry e;
        asmstore_reader_entry(r, (uint32_t)i, &e, NULL);
        if (e.ignored) continue;
        nm->name[nm->n] = e.name; nm->len[nm->n++] = e.name_len;
        if (with_stripped) { nm->name[nm->n] = e.name; nm->len[nm->n++] = asmstore_name_base_len(e.name, e.name_len); }
        if (e.uncompressed_size > nm->maxsize) nm->maxsize = e.uncompressed_size;
    }
    if (shuffle) {
        srand(12345);
        for (i = nm->n; i > 1; i--) {
            size_t j = (size_t)rand() % i;
            const char *tn = nm->name[i - 1];
            size_t tl = nm->len[i - 1];
            nm->name[i - 1] = nm->name[j]; nm->len[i - 1] = nm->len[j]; nm->name[j] = tn; nm->len[j] = tl;
        }
    }
    for (i = 0; i < r->index_entry_count; i++) nm->hashes[i] = asmstore__index_hash(r, (uint32_t)i);
    qsort(nm->hashes, r->index_entry_count, sizeof *nm->hashes, cmp_u64);
}

NOINLINE static void bench_count_lookup(const asmstore_reader *r, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) {
            asmstore_entry e;
            sink += (uint64_t)asmstore_reader_find(r, nm->name[i], nm->len[i], &e, NULL) + e.index;
        }
}
NOINLINE static void bench_count_index(const asmstore_reader *r, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) {
            uint32_t d = 0;
            sink += (uint64_t)asmstore_reader_find_index(r, nm->name[i], nm->len[i], &d, NULL) + d;
        }
}
NOINLINE static void bench_count_floor(const asmstore_reader *r, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) {
            uint64_t h = asmstore_name_hash(r->hash_kind, nm->name[i], nm->len[i]);
            const uint64_t *hit = (const uint64_t *)bsearch(&h, nm->hashes, r->index_entry_count, sizeof *nm->hashes, cmp_u64);
            sink += hit ? (uint64_t)(hit - nm->hashes) : 0u;
        }
}
NOINLINE static void bench_count_open(const void *data, size_t size, long iter) {
    long k;
    for (k = 0; k < iter; k++) {
        asmstore_reader r;
        sink += (uint64_t)asmstore_reader_init(&r, data, size, NULL, NULL) + r.entry_count;
    }
}
NOINLINE static void bench_count_attach(asmstore_reader *r, uint32_t *table, size_t bytes, long iter) {
    long k;
    for (k = 0; k < iter; k++) sink += (uint64_t)asmstore_reader_attach_name_table(r, table, bytes, NULL);
}
/* where lookup time goes: (1) hash, (2) + binary search of the store's index, (3) + name check */
NOINLINE static void stage_hash(const asmstore_reader *r, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) sink += asmstore_name_hash(r->hash_kind, nm->name[i], nm->len[i]);
}
NOINLINE static void stage_bound(const asmstore_reader *r, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) sink += asmstore__lower_bound(r, asmstore_name_hash(r->hash_kind, nm->name[i], nm->len[i]));
}
NOINLINE static void stage_verify(const asmstore_reader *r, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) {
            uint64_t h = asmstore_name_hash(r->hash_kind, nm->name[i], nm->len[i]);
            uint32_t j = asmstore__lower_bound(r, h);
            for (; j < r->index_entry_count && asmstore__index_hash(r, j) == h; j++) {
                uint32_t d = asmstore__index_descriptor(r, j);
                size_t noff = asmstore__name_record(r, d), nlen = asmstore__rd32(r->data + noff);
                if ((nlen == nm->len[i] || asmstore__name_base(r, d, noff) == nm->len[i]) && !memcmp(nm->name[i], r->data + noff + 4, nm->len[i])) { sink += d; break; }
            }
        }
}

static int cmd_reader(int argc, char **argv) {
    void *data;
    size_t size, i, total_z = 0, total_s = 0, nz = 0, ns = 0;
    asmstore_reader r;
    uint32_t *table;
    names nm, plain;
    int reps, rep;
    long rounds, open_iter;
    double *a, *b, *c, *d, *e5, *x;
    unsigned char *buf;
    ZSTD_DCtx *dctx;
    if (argc < 4 || asmstore_read_file(argv[2], NULL, &data, &size, NULL) != ASMSTORE_OK ||
        asmstore_reader_init(&r, data, size, NULL, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "bench_tool reader: cannot open %s\n", argc > 2 ? argv[2] : "?");
        return 2;
    }
    reps = atoi(argv[3]);
    if (reps < 1) reps = 1;
    a = (double *)malloc((size_t)reps * sizeof *a); b = (double *)malloc((size_t)reps * sizeof *b);
    c = (double *)malloc((size_t)reps * sizeof *c); d = (double *)malloc((size_t)reps * sizeof *d);
    e5 = (double *)malloc((size_t)reps * sizeof *e5); x = (double *)malloc((size_t)reps * sizeof *x);
    printf("entries %u\nstore_bytes %zu\n", r.entry_count, size);
    /* open: asmstore_reader_init over the whole store (validates every range and name) */
    open_iter = r.entry_count >= 1000 ? 20 : r.entry_count >= 100 ? 200 : 2000;
    for (rep = 0; rep < reps; rep++) {
        double t0 = now();
        bench_count_open(data, size, open_iter);
        a[rep] = (now() - t0) * 1e6 / (double)open_iter;
    }
    report("open_us", a, reps, "us");
    table = (uint32_t *)malloc(asmstore_reader_name_table_size(&r) + 4);
    asmstore_reader_attach_name_table(&r, table, asmstore_reader_name_table_size(&r) + 4, NULL);
    collect(&r, &nm, 1, 1);
    collect(&r, &plain, 0, 0);
    printf("names %zu\n", nm.n);
    /* lookup vs floor, interleaved; then the stages */
    rounds = (long)(400000 / (nm.n ? nm.n : 1)) + 1;
    for (rep = 0; rep < reps; rep++) {
        a[rep] = NS_PER_NAME(bench_count_lookup(&r, &nm, rounds), rounds, nm.n);
        x[rep] = NS_PER_NAME(bench_count_index(&r, &nm, rounds), rounds, nm.n);
        b[rep] = NS_PER_NAME(bench_count_floor(&r, &nm, rounds), rounds, nm.n);
        c[rep] = NS_PER_NAME(stage_hash(&r, &nm, rounds), rounds, nm.n);
        d[rep] = NS_PER_NAME(stage_bound(&r, &nm, rounds), rounds, nm.n);
        e5[rep] = NS_PER_NAME(stage_verify(&r, &nm, rounds), rounds, nm.n);
    }
    report("lookup_ns", a, reps, "ns");
    report("index_ns", x, reps, "ns");
    report("floor_ns", b, reps, "ns");
    report("stage_hash_ns", c, reps, "ns");
    report("stage_bound_ns", d, reps, "ns");
    report("stage_verify_ns", e5, reps, "ns");
    /* read: compressed entries through asmstore_reader_read vs raw ZSTD_decompressDCtx */
    buf = (unsigned char *)malloc(nm.maxsize);
    dctx = ZSTD_createDCtx();
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        asmstore_reader_entry(&r, (uint32_t)i, &e, NULL);
        if (e.ignored) continue;
        if (e.compression == ASMSTORE_COMPRESSION_ZSTD) { nz++; total_z += e.uncompressed_size; }
        else if (e.compression == ASMSTORE_COMPRESSION_NONE) { ns++; total_s += e.image_size; }
    }
    if (nz) {
        /* per entry, ours and raw back to back (order alternating), so load drift hits both alike */
        for (rep = 0; rep < reps; rep++) {
            double ta = 0, tb = 0;
            for (i = 0; i < r.entry_count; i++) {
                asmstore_entry e;
                double t0, t1, t2;
                int ours_first = (int)((i + (size_t)rep) & 1u);
                asmstore_reader_entry(&r, (uint32_t)i, &e, NULL);
                if (e.compression != ASMSTORE_COMPRESSION_ZSTD) continue;
                t0 = now();
                if (ours_first) { if (asmstore_reader_read(&r, &e, buf, nm.maxsize, dctx, NULL) != ASMSTORE_OK) { fprintf(stderr, "read failed\n"); return 1; } }
                else sink += ZSTD_decompressDCtx(dctx, buf, nm.maxsize, e.image + 12, e.image_size - 12);
                t1 = now();
                if (!ours_first) { if (asmstore_reader_read(&r, &e, buf, nm.maxsize, dctx, NULL) != ASMSTORE_OK) { fprintf(stderr, "read failed\n"); return 1; } }
                else sink += ZSTD_decompressDCtx(dctx, buf, nm.maxsize, e.image + 12, e.image_size - 12);
                t2 = now();
                if (ours_first) { ta += t1 - t0; tb += t2 - t1; }
                else { tb += t1 - t0; ta += t2 - t1; }
            }
            a[rep] = (double)total_z / ta / 1e6;
            b[rep] = (double)total_z / tb / 1e6;
        }
        printf("read_bytes %zu\n", total_z);
        report("read_mbs", a, reps, "MB/s");
        report("zstd_mbs", b, reps, "MB/s");
    }
    /* load: what a host does for every entry: find by name, then decompress (or copy) */
    for (rep = 0; rep < reps; rep++) {
        double t0 = now();
        for (i = 0; i < plain.n; i++) {
            asmstore_entry e;
            if (asmstore_reader_find(&r, plain.name[i], plain.len[i], &e, NULL) != ASMSTORE_OK ||
                asmstore_reader_read(&r, &e, buf, nm.maxsize, dctx, NULL) != ASMSTORE_OK) { fprintf(stderr, "load failed\n"); return 1; }
        }
        a[rep] = (now() - t0) * 1e3;
        b[rep] = a[rep] * 1e3 / (double)(plain.n ? plain.n : 1);
    }
    report("load_ms", a, reps, "ms");
    report("load_us_per_entry", b, reps, "us");
    /* zero-copy: stored entries are usable in place (find + pointer) vs copying them out */
    if (ns) {
        for (rep = 0; rep < reps; rep++) {
            double t0 = now();
            for (i = 0; i < plain.n; i++) {
                asmstore_entry e;
                if (asmstore_reader_find(&r, plain.name[i], plain.len[i], &e, NULL) == ASMSTORE_OK && e.compression == ASMSTORE_COMPRESSION_NONE)
                    sink += (uint64_t)(uintptr_t)e.image + e.image_size;
            }
            a[rep] = (now() - t0) * 1e3;
            t0 = now();
            for (i = 0; i < plain.n; i++) {
                asmstore_entry e;
                if (asmstore_reader_find(&r, plain.name[i], plain.len[i], &e, NULL) == ASMSTORE_OK && e.compression == ASMSTORE_COMPRESSION_NONE &&
                    asmstore_reader_read(&r, &e, buf, nm.maxsize, dctx, NULL) == ASMSTORE_OK)
                    sink += buf[0];
            }
            b[rep] = (now() - t0) * 1e3;
        }
        printf("stored_bytes %zu\n", total_s);
        report("zerocopy_ms", a, reps, "ms");
        report("copy_ms", b, reps, "ms");
    }
    ZSTD_freeDCtx(dctx);
    free(buf); free(table); free(a); free(b); free(c); free(d); free(e5); free(x);
    asmstore_free(NULL, data, size);
    return 0;
}

/* ---------------------------------------------------------------- upstream */
/* dotnet/android's CoreCLR lookup (.NET 11, src/native/clr/host/assembly-store.cc), written here from
   its algorithm (docs: the reference's "Runtime lookup"): h = CRC-32 of the name as asked; the first
   9-byte index row (packed: u32 hash, u32 descriptor, u8 ignore; read with memcpy) whose hash is not
   below h, by binary search; then along the rows of equal hash, the first whose descriptor is below
   the entry count and whose name (a string view built once at configure) equals the name asked, or
   equals it with the stored name's last extension (after the last '/') removed. */
typedef struct up_name {
    const char *p;
    size_t n, base; /* base: n minus the last extension */
} up_name;
typedef struct upstream {
    const unsigned char *rows; /* the index */
    uint32_t nrows, count;
    up_name *names;           /* per descriptor */
    uint32_t table[256];      /* the table CRC's */
} upstream;
/* as upstream ships it: bit by bit, 8 shifts per byte; an empty name hashes to 0xFFFFFFFF */
static uint32_t up_crc_bitwise(const upstream *u, const char *s, size_t n) {
    uint32_t crc = 0xffffffffu;
    size_t i;
    int bit;
    (void)u;
    if (n == 0) return 0xffffffffu;
    for (i = 0; i < n; i++) {
        crc ^= (unsigned char)s[i];
        for (bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ ((crc & 1u) ? 0xedb88320u : 0u);
    }
    return ~crc;
}
/* the same CRC a byte at a time from a 256-entry table */
static uint32_t up_crc_table(const upstream *u, const char *s, size_t n) {
    uint32_t crc = 0xffffffffu;
    size_t i;
    if (n == 0) return 0xffffffffu;
    for (i = 0; i < n; i++) crc = u->table[(crc ^ (unsigned char)s[i]) & 0xffu] ^ (crc >> 8);
    return ~crc;
}
static uint32_t up_row_hash(const upstream *u, uint32_t i) {
    uint32_t h;
    memcpy(&h, u->rows + 9u * i, 4);
    return h;
}
typedef uint32_t (*up_crc_fn)(const upstream *, const char *, size_t);
static int up_find(const upstream *u, up_crc_fn crc, const char *name, size_t len, uint32_t *desc) {
    uint32_t h = crc(u, name, len), lo = 0, n = u->nrows;
    while (n > 0) { /* lower_bound */
        uint32_t half = n / 2;
        if (up_row_hash(u, lo + half) < h) { lo += half + 1; n -= half + 1; }
        else n = half;
    }
    for (; lo < u->nrows && up_row_hash(u, lo) == h; lo++) {
        uint32_t d;
        memcpy(&d, u->rows + 9u * lo + 4, 4);
        if (d < u->count && (u->names[d].n == len || u->names[d].base == len) &&
            !memcmp(u->names[d].p, name, len)) {
            *desc = d;
            return u->rows[9u * lo + 8] == 0;
        }
    }
    return 0;
}
/* configure: the names' views and the CRC table, once */
static int up_configure(upstream *u, const asmstore_reader *r) {
    uint32_t i, k;
    if (r->hash_kind != ASMSTORE_HASH_CRC32 || r->index_entry_size != 9) return -1;
    u->rows = r->data + r->index_offset;
    u->nrows = r->index_entry_count;
    u->count = r->entry_count;
    u->names = (up_name *)calloc(r->entry_count + 1u, sizeof *u->names);
    for (i = 0; i < r->entry_count; i++) {
        asmstore_entry e;
        asmstore_reader_entry(r, i, &e, NULL);
        u->names[i].p = e.name; u->names[i].n = e.name_len;
        u->names[i].base = asmstore_name_base_len(e.name, e.name_len);
    }
    for (i = 0; i < 256; i++) {
        uint32_t c = i;
        for (k = 0; k < 8; k++) c = (c >> 1) ^ ((c & 1u) ? 0xedb88320u : 0u);
        u->table[i] = c;
    }
    return 0;
}
NOINLINE static void bench_count_upbit(const upstream *u, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) {
            uint32_t d = 0;
            sink += (uint64_t)up_find(u, up_crc_bitwise, nm->name[i], nm->len[i], &d) + d;
        }
}
NOINLINE static void bench_count_uptab(const upstream *u, const names *nm, long iter) {
    long k;
    size_t i;
    for (k = 0; k < iter; k++)
        for (i = 0; i < nm->n; i++) {
            uint32_t d = 0;
            sink += (uint64_t)up_find(u, up_crc_table, nm->name[i], nm->len[i], &d) + d;
        }
}
NOINLINE static void bench_count_upuse(const asmstore_reader *r, const names *nm, long iter) {
    bench_count_lookup(r, nm, iter);
}
/* the reader exactly as the header's USE block sets it up: a static name table for up to 1,024
   entries through the read options, the host's expected ABI and hash */
static uint32_t use_names[ASMSTORE_NAME_TABLE_BYTES(1024) / 4];
static int use_block_reader(asmstore_reader *r, const void *data, size_t size) {
    asmstore_read_options ro;
    asmstore_error err;
    memset(&ro, 0, sizeof ro);
    ro.name_table = use_names;  ro.name_table_bytes = sizeof use_names;
    ro.expect_abi = ASMSTORE_ABI_ARM64;  ro.expect_hash = ASMSTORE_HASH_CRC32;
    if (asmstore_reader_init(r, data, size, &ro, &err) == ASMSTORE_OK && r->name_offsets) return 0;
    fprintf(stderr, "bench_tool: the USE block's reader: %s\n", err.message ? err.message : "no name table attached");
    return -1;
}
/* How many names both CRCs' searches and asmstore_reader_find resolve to the same descriptor. */
static size_t up_agree(const upstream *u, const asmstore_reader *r, const names *nm) {
    size_t i, same = 0;
    for (i = 0; i < nm->n; i++) {
        asmstore_entry e;
        uint32_t d1 = UINT32_MAX, d2 = UINT32_MAX;
        up_find(u, up_crc_bitwise, nm->name[i], nm->len[i], &d1);
        up_find(u, up_crc_table, nm->name[i], nm->len[i], &d2);
        same += asmstore_reader_find(r, nm->name[i], nm->len[i], &e, NULL) == ASMSTORE_OK && e.index == d1 && d1 == d2;
    }
    return same;
}
/* bench_tool upstream STORE REPS: a net11 CoreCLR (CRC-32, arm64) store's every name with and without
   extension, random order: asmstore_reader_find on the USE block's reader vs upstream's search with the
   bitwise CRC it ships and with a table CRC, and the bsearch floor, interleaved. */
static int cmd_upstream(int argc, char **argv) {
    void *data;
    size_t size;
    asmstore_reader r;
    upstream u;
    names nm;
    int reps, rep;
    long rounds;
    double *a, *b, *c, *f;
    if (argc < 4 || asmstore_read_file(argv[2], NULL, &data, &size, NULL) != ASMSTORE_OK ||
        use_block_reader(&r, data, size) != 0 || up_configure(&u, &r) != 0) {
        fprintf(stderr, "bench_tool upstream: %s is no arm64 CRC-32 store of up to 1,024 entries\n", argc > 2 ? argv[2] : "?");
        return 2;
    }
    reps = atoi(argv[3]);
    if (reps < 1) reps = 1;
    a = (double *)malloc((size_t)reps * sizeof *a); b = (double *)malloc((size_t)reps * sizeof *b);
    c = (double *)malloc((size_t)reps * sizeof *c); f = (double *)malloc((size_t)reps * sizeof *f);
    collect(&r, &nm, 1, 1);
    printf("names %zu\nagree %zu\n", nm.n, up_agree(&u, &r, &nm));
    rounds = (long)(400000 / (nm.n ? nm.n : 1)) + 1;
    for (rep = 0; rep < reps; rep++) {
        a[rep] = NS_PER_NAME(bench_count_lookup(&r, &nm, rounds), rounds, nm.n);
        b[rep] = NS_PER_NAME(bench_count_upbit(&u, &nm, rounds), rounds, nm.n);
        c[rep] = NS_PER_NAME(bench_count_uptab(&u, &nm, rounds), rounds, nm.n);
        f[rep] = NS_PER_NAME(bench_count_floor(&r, &nm, rounds), rounds, nm.n);
    }
    report("use_find_ns", a, reps, "ns");
    report("up_bitwise_ns", b, reps, "ns");
    report("up_table_ns", c, reps, "ns");
    report("floor_ns", f, reps, "ns");
    free(a); free(b); free(c); free(f); free(u.names);
    asmstore_free(NULL, data, size);
    return 0;
}

static int cmd_count(int argc, char **argv) {
    void *data;
    size_t size;
    asmstore_reader r;
    uint32_t *table;
    names nm;
    long iter;
    if (argc < 5 || asmstore_read_file(argv[2], NULL, &data, &size, NULL) != ASMSTORE_OK ||
        asmstore_reader_init(&r, data, size, NULL, NULL) != ASMSTORE_OK) return 2;
    iter = atol(argv[4]);
    table = (uint32_t *)malloc(asmstore_reader_name_table_size(&r) + 4);
    if (!strcmp(argv[3], "attach")) {
        bench_count_attach(&r, table, asmstore_reader_name_table_size(&r) + 4, iter);
        printf("ops %ld\n", iter);
        return 0;
    }
    if (!strcmp(argv[3], "open")) {
        bench_count_open(data, size, iter);
        printf("ops %ld\n", iter);
        return 0;
    }
    if (!strncmp(argv[3], "up", 2)) { /* the USE block's reader and upstream's search (cmd_upstream) */
        upstream u;
        free(table);
        if (use_block_reader(&r, data, size) != 0 || up_configure(&u, &r) != 0) return 2;
        collect(&r, &nm, 1, 1);
        if (!strcmp(argv[3], "upuse")) bench_count_upuse(&r, &nm, iter);
        else if (!strcmp(argv[3], "upbit")) bench_count_upbit(&u, &nm, iter);
        else if (!strcmp(argv[3], "uptab")) bench_count_uptab(&u, &nm, iter);
        else return 2;
        printf("ops %ld\n", iter * (long)nm.n);
        return 0;
    }
    asmstore_reader_attach_name_table(&r, table, asmstore_reader_name_table_size(&r) + 4, NULL);
    collect(&r, &nm, 1, 1);
    if (!strcmp(argv[3], "lookup")) bench_count_lookup(&r, &nm, iter);
    else if (!strcmp(argv[3], "index")) bench_count_index(&r, &nm, iter);
    else if (!strcmp(argv[3], "floor")) bench_count_floor(&r, &nm, iter);
    else return 2;
    printf("ops %ld\n", iter * (long)nm.n);
    return 0;
}

/* ---------------------------------------------------------------- locate */
/* One sample in this (fresh) process: microseconds, or -1 on failure. */
static double locate_once(const char *kind, const char *path) {
    double t0 = now(), t1;
    asmstore_locator l;
    asmstore_reader r;
    if (!strcmp(kind, "dl")) {
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL), *p = h ? dlsym(h, ASMSTORE_ELF_DEFAULT_SYMBOL) : NULL;
        t1 = now();
        return p ? (t1 - t0) * 1e6 : -1;
    }
    if (!strcmp(kind, "loc")) {
        if (asmstore_locate_dlopen(&l, path, NULL, NULL) != ASMSTORE_OK) return -1;
        t1 = now();
        return (t1 - t0) * 1e6;
    }
    if (!strcmp(kind, "so")) {
        if (asmstore_locate_dlopen(&l, path, NULL, NULL) != ASMSTORE_OK || asmstore_reader_init(&r, l.data, l.size, NULL, NULL) != ASMSTORE_OK) return -1;
    } else if (!strcmp(kind, "apk")) {
        if (asmstore_locate_apk(&l, path, ASMSTORE_ABI_X86_64, NULL, NULL) != ASMSTORE_OK || asmstore_reader_init(&r, l.data, l.size, NULL, NULL) != ASMSTORE_OK) return -1;
    } else {
        return -1;
    }
    t1 = now();
    return (t1 - t0) * 1e6;
}

static int cmd_locate(int argc, char **argv) {
    int samples, nk = argc - 3, k, s, j;
    double *v;
    char **kind, **path, **label;
    if (argc < 4) return 2;
    samples = atoi(argv[2]);
    if (samples < 1) samples = 1;
    kind = (char **)calloc((size_t)nk, sizeof *kind);
    path = (char **)calloc((size_t)nk, sizeof *path);
    label = (char **)calloc((size_t)nk, sizeof *label);
    v = (double *)calloc((size_t)(nk * samples), sizeof *v);
    for (k = 0; k < nk; k++) {
        char *eq = strchr(argv[3 + k], '='), *colon;
        if (!eq) return 2;
        *eq = 0;
        colon = strchr(argv[3 + k], ':');
        if (colon) { *colon = 0; label[k] = argv[3 + k]; kind[k] = colon + 1; }
        else label[k] = kind[k] = argv[3 + k];
        path[k] = eq + 1;
    }
    /* bind dlopen/dlsym/mmap/clock_gettime in the parent so no child pays first-call costs */
    {
        void *h = dlopen(NULL, RTLD_NOW);
        if (h) { sink += (uint64_t)(uintptr_t)dlsym(h, "main"); dlclose(h); }
        sink += (uint64_t)now();
    }
    fflush(stdout);
    for (s = 0; s < samples; s++)
        for (j = 0; j < nk; j++) {
            int fd[2], st;
            double x = -1;
            pid_t p;
            k = (j + s) % nk; /* rotate which kind runs first */
            if (pipe(fd) != 0) return 1;
            p = fork();
            if (p == 0) {
                close(fd[0]);
                x = locate_once(kind[k], path[k]);
                if (write(fd[1], &x, sizeof x) != (ssize_t)sizeof x) _exit(1);
                _exit(0);
            }
            close(fd[1]);
            if (p < 0 || read(fd[0], &x, sizeof x) != (ssize_t)sizeof x) x = -1;
            close(fd[0]);
            if (p > 0) waitpid(p, &st, 0);
            v[k * samples + s] = x;
        }
    for (k = 0; k < nk; k++) {
        char key[64];
        for (s = 0; s < samples; s++)
            if (v[k * samples + s] < 0) { printf("locate_%s FAILED %s\n", label[k], path[k]); break; }
        if (s < samples) continue;
        snprintf(key, sizeof key, "locate_%s_us", label[k]);
        report(key, v + k * samples, samples, "us");
    }
    free(v); free(kind); free(path); free(label);
    return 0;
}

/* ---------------------------------------------------------------- lz4, crc, readcrc */
#ifdef ASMSTORE_CLI_LZ4
/* every XALZ image of r decoded once by ours (which = 0) or liblz4's; seconds, 0 on a failure */
static double lz4_pass(const asmstore_reader *r, unsigned char *out, int which) {
    double t0 = now();
    uint32_t i;
    for (i = 0; i < r->entry_count; i++) {
        asmstore_entry e;
        size_t w = 0;
        if (asmstore_reader_entry(r, i, &e, NULL) != ASMSTORE_OK || e.compression != ASMSTORE_COMPRESSION_LZ4) continue;
        if (which ? LZ4_decompress_safe((const char *)e.image + 12, (char *)out, (int)(e.image_size - 12),
                                         (int)e.uncompressed_size) != (int)e.uncompressed_size
                  : asmstore_lz4_decode(out, e.uncompressed_size, e.image + 12, e.image_size - 12, &w) != ASMSTORE_OK ||
                        w != e.uncompressed_size)
            return 0;
    }
    return now() - t0;
}

static int cmd_lz4(int argc, char **argv) {
    void *data;
    size_t size, total = 0, most = 1;
    asmstore_reader r;
    unsigned char *out, *check;
    double *ours, *theirs;
    int reps, rep;
    uint32_t i;
    if (argc < 4 || asmstore_read_file(argv[2], NULL, &data, &size, NULL) != ASMSTORE_OK ||
        asmstore_reader_init(&r, data, size, NULL, NULL) != ASMSTORE_OK)
        return 2;
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.compression != ASMSTORE_COMPRESSION_LZ4) continue;
        total += e.uncompressed_size;
        if (e.uncompressed_size > most) most = e.uncompressed_size;
    }
    reps = atoi(argv[3]) < 1 ? 1 : atoi(argv[3]);
    out = (unsigned char *)malloc(most); check = (unsigned char *)malloc(most);
    ours = (double *)malloc((size_t)reps * sizeof *ours); theirs = (double *)malloc((size_t)reps * sizeof *theirs);
    for (i = 0; i < r.entry_count; i++) { /* the same bytes from both, once */
        asmstore_entry e;
        size_t w = 0;
        if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.compression != ASMSTORE_COMPRESSION_LZ4) continue;
        asmstore_lz4_decode(out, e.uncompressed_size, e.image + 12, e.image_size - 12, &w);
        LZ4_decompress_safe((const char *)e.image + 12, (char *)check, (int)(e.image_size - 12), (int)e.uncompressed_size);
        if (w != e.uncompressed_size || memcmp(out, check, w)) { fprintf(stderr, "lz4: image %u differs\n", i); return 1; }
    }
    for (rep = 0; rep < reps; rep++) {
        int first = rep & 1;
        double t1 = lz4_pass(&r, out, first), t2 = lz4_pass(&r, out, !first);
        ours[rep] = (double)total / 1e6 / (first ? t2 : t1);
        theirs[rep] = (double)total / 1e6 / (first ? t1 : t2);
    }
    printf("lz4_bytes %zu\n", total);
    report("lz4_ours_mbs", ours, reps, "MB/s");
    report("lz4_liblz4_mbs", theirs, reps, "MB/s");
    return 0;
}
#endif

#ifdef ASMSTORE_CLI_ZLIB
static int cmd_crc(int argc, char **argv) {
    size_t n = (size_t)(argc > 2 ? atol(argv[2]) : 64) << 20, i;
    int reps = argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : 5, rep;
    unsigned char *p = (unsigned char *)malloc(n);
    double *ours = (double *)malloc((size_t)reps * sizeof *ours), *theirs = (double *)malloc((size_t)reps * sizeof *theirs);
    uint64_t x = 88172645463325252u;
    for (i = 0; i < n; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; p[i] = (unsigned char)x; }
    if (asmstore_zip_crc32(0, p, n) != (uint32_t)crc32_z(0, p, n)) { fprintf(stderr, "crc: the two differ\n"); return 1; }
    for (rep = 0; rep < reps; rep++) {
        double t0 = now(), t1, t2;
        sink += asmstore_zip_crc32(0, p, n);
        t1 = now();
        sink += crc32_z(0, p, n);
        t2 = now();
        ours[rep] = (double)n / 1e6 / (t1 - t0);
        theirs[rep] = (double)n / 1e6 / (t2 - t1);
    }
    report("crc_ours_mbs", ours, reps, "MB/s");
    report("crc_zlib_mbs", theirs, reps, "MB/s");
    return 0;
}

static int cmd_readcrc(int argc, char **argv) {
    void *data;
    size_t size;
    double t0 = now();
    if (argc < 3 || asmstore_read_file(argv[2], NULL, &data, &size, NULL) != ASMSTORE_OK) return 2;
    sink += crc32_z(0, (const unsigned char *)data, size);
    printf("readcrc_s %.6f\n", now() - t0);
    free(data);
    return 0;
}

/* every image of the store in zip[0..size) decompressed into buf and hashed; 0, or -1 */
static int images_pass(const unsigned char *zip, size_t size) {
    asmstore_zip_entry ze;
    asmstore_reader r;
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    unsigned char *buf = NULL;
    uint32_t i;
    int rc = -1;
    if (asmstore_zip_find_store(zip, size, ASMSTORE_ABI_UNKNOWN, NULL, &ze, NULL) != ASMSTORE_OK) goto done;
    {
        const void *payload;
        size_t n;
        if (asmstore_elf_payload(zip + ze.data_offset, (size_t)ze.compressed_size, NULL, &payload, &n, NULL, NULL) !=
                ASMSTORE_OK ||
            asmstore_reader_init(&r, payload, n, NULL, NULL) != ASMSTORE_OK)
            goto done;
    }
    {
        size_t most = 1;
        for (i = 0; i < r.entry_count; i++) {
            asmstore_entry e;
            if (asmstore_reader_entry(&r, i, &e, NULL) == ASMSTORE_OK && e.uncompressed_size > most)
                most = e.uncompressed_size;
        }
        if (!(buf = (unsigned char *)malloc(most))) goto done;
    }
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.ignored) continue;
        if (e.compression == ASMSTORE_COMPRESSION_NONE) sink += XXH3_64bits(e.image, e.image_size);
        else if (asmstore_reader_read(&r, &e, buf, e.uncompressed_size, dctx, NULL) == ASMSTORE_OK)
            sink += XXH3_64bits(buf, e.uncompressed_size);
        else goto done;
    }
    rc = 0;
done:
    free(buf);
    ZSTD_freeDCtx(dctx);
    return rc;
}

static int cmd_readimages(int argc, char **argv) {
    void *data;
    size_t size;
    double t0 = now();
    if (argc < 3 || asmstore_read_file(argv[2], NULL, &data, &size, NULL) != ASMSTORE_OK) return 2;
    if (images_pass((const unsigned char *)data, size) != 0) { fprintf(stderr, "readimages: no store read\n"); return 1; }
    printf("readimages_s %.6f\n", now() - t0);
    free(data);
    return 0;
}
#endif

/* ---------------------------------------------------------------- frames */
/* An LZ4 block of n bytes (decompressing to at most 4 MiB) as a frame of one block: magic, FLG
   (version 1, independent blocks), BD (4 MiB blocks), the header checksum, the block, the end. */
static int lz4_frame(FILE *f, const unsigned char *block, size_t n) {
    unsigned char head[7] = {0x04, 0x22, 0x4d, 0x18, 0x60, 0x70, 0};
    unsigned char size[4] = {(unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16),
                             (unsigned char)(n >> 24)};
    static const unsigned char end[4] = {0, 0, 0, 0};

    head[6] = (unsigned char)(asmstore_xxh32(head + 4, 2) >> 8);
    return fwrite(head, 1, 7, f) == 7 && fwrite(size, 1, 4, f) == 4 && fwrite(block, 1, n, f) == n &&
           fwrite(end, 1, 4, f) == 4;
}

/* What frames wrote: images, their uncompressed bytes, the largest. */
typedef struct frames_count {
    size_t images, bytes, largest;
} frames_count;

static int frames_of(const char *path, FILE *zst, FILE *lz4, FILE *plain, frames_count *c) {
    asmstore_reader r;
    asmstore_entry e;
    const void *payload;
    void *data;
    size_t size, psize;
    uint32_t k;
    int ok = 1;

    if (asmstore_read_file(path, NULL, &data, &size, NULL) != ASMSTORE_OK) return 0;
    payload = data;
    psize = size;
    if (size >= 4 && !memcmp(data, "\177ELF", 4))
        ok = asmstore_elf_payload(data, size, NULL, &payload, &psize, NULL, NULL) == ASMSTORE_OK;
    ok = ok && asmstore_reader_init(&r, payload, psize, NULL, NULL) == ASMSTORE_OK;
    for (k = 0; ok && k < r.entry_count; k++) {
        if (asmstore_reader_entry(&r, k, &e, NULL) != ASMSTORE_OK || e.ignored) continue;
        c->images++;
        c->bytes += e.uncompressed_size;
        if (e.uncompressed_size > c->largest) c->largest = e.uncompressed_size;
        if (e.compression == ASMSTORE_COMPRESSION_ZSTD)
            ok = fwrite(e.image + 12, 1, e.image_size - 12, zst) == e.image_size - 12;
        else if (e.compression == ASMSTORE_COMPRESSION_LZ4)
            ok = e.uncompressed_size <= (4u << 20) && lz4_frame(lz4, e.image + 12, e.image_size - 12);
        else
            ok = fwrite(e.image, 1, e.image_size, plain) == e.image_size;
    }
    asmstore_free(NULL, data, size);
    return ok;
}

static int cmd_frames(int argc, char **argv) {
    FILE *zst = argc > 5 ? fopen(argv[2], "ab") : NULL, *lz4 = zst ? fopen(argv[3], "ab") : NULL;
    FILE *plain = lz4 ? fopen(argv[4], "ab") : NULL;
    frames_count c = {0, 0, 0};
    int i, ok = plain != NULL;

    for (i = 5; ok && i < argc; i++)
        if (!(ok = frames_of(argv[i], zst, lz4, plain, &c)))
            fprintf(stderr, "bench_tool frames: %s: not a store, or an LZ4 image over 4 MiB\n", argv[i]);
    if (zst) fclose(zst);
    if (lz4) fclose(lz4);
    if (plain && fclose(plain) != 0) ok = 0;
    if (ok) printf("images %zu bytes %zu largest %zu\n", c.images, c.bytes, c.largest);
    return ok ? 0 : 1;
}

/* ---------------------------------------------------------------- floor */
#ifdef BENCH_FLOOR
#define FLOOR_CHUNK ((size_t)128 << 10) /* coreutils' read size */
enum { FLOOR_COPY, FLOOR_ZSTD, FLOOR_LZ4 };

/* Decodes (or copies) chunk in[0..n) into out, hashing what comes out; 0 on a decoding error. */
static int floor_feed(int kind, void *dec, EVP_MD_CTX *md, const unsigned char *in, size_t n, unsigned char *out) {
    while (n > 0) {
        size_t used = n, made = FLOOR_CHUNK;
        if (kind == FLOOR_COPY) {
            made = 0;
            if (!EVP_DigestUpdate(md, in, n)) return 0;
        } else if (kind == FLOOR_ZSTD) {
            ZSTD_inBuffer i = {in, n, 0};
            ZSTD_outBuffer o = {out, FLOOR_CHUNK, 0};
            if (ZSTD_isError(ZSTD_decompressStream((ZSTD_DStream *)dec, &o, &i))) return 0;
            used = i.pos;
            made = o.pos;
        } else if (LZ4F_isError(LZ4F_decompress((LZ4F_dctx *)dec, out, &made, in, &used, NULL))) {
            return 0;
        }
        if (made && !EVP_DigestUpdate(md, out, made)) return 0;
        in += used;
        n -= used;
    }
    return 1;
}

/* One file read in chunks through floor_feed into a SHA-256 of its own. */
static int floor_file(const char *path, int kind, unsigned char *buf, unsigned char *out) {
    FILE *f = fopen(path, "rb");
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    ZSTD_DStream *zs = kind == FLOOR_ZSTD ? ZSTD_createDStream() : NULL;
    LZ4F_dctx *lz = NULL;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    size_t n;
    int ok = f && md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
             (kind != FLOOR_LZ4 || !LZ4F_isError(LZ4F_createDecompressionContext(&lz, LZ4F_VERSION)));
    while (ok && (n = fread(buf, 1, FLOOR_CHUNK, f)) > 0)
        ok = floor_feed(kind, kind == FLOOR_ZSTD ? (void *)zs : (void *)lz, md, buf, n, out);
    ok = ok && EVP_DigestFinal_ex(md, digest, &len);
    sink += digest[0];
    if (f) fclose(f);
    EVP_MD_CTX_free(md);
    ZSTD_freeDStream(zs);
    if (lz) LZ4F_freeDecompressionContext(lz);
    return ok;
}

static int cmd_floor(int argc, char **argv) {
    unsigned char *buf = (unsigned char *)malloc(FLOOR_CHUNK), *out = (unsigned char *)malloc(FLOOR_CHUNK);
    char line[4096];
    FILE *list = argc == 6 ? fopen(argv[2], "r") : NULL;
    int ok = list && buf && out;

    while (ok && fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        ok = floor_file(line, FLOOR_COPY, buf, out);
    }
    ok = ok && floor_file(argv[3], FLOOR_ZSTD, buf, out) && floor_file(argv[4], FLOOR_LZ4, buf, out) &&
         floor_file(argv[5], FLOOR_COPY, buf, out);
    if (list) fclose(list);
    free(buf);
    free(out);
    if (!ok) fprintf(stderr, "bench_tool floor: a file did not read or decode\n");
    return ok ? 0 : 1;
}
#endif

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef ASMSTORE_CLI_LZ4
    if (argc >= 2 && !strcmp(argv[1], "lz4")) return cmd_lz4(argc, argv);
#endif
#ifdef ASMSTORE_CLI_ZLIB
    if (argc >= 2 && !strcmp(argv[1], "crc")) return cmd_crc(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "readcrc")) return cmd_readcrc(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "readimages")) return cmd_readimages(argc, argv);
#endif
    if (argc >= 2 && !strcmp(argv[1], "mkstore")) return cmd_mkstore(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "reader")) return cmd_reader(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "count")) return cmd_count(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "upstream")) return cmd_upstream(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "locate")) return cmd_locate(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "frames")) return cmd_frames(argc, argv);
#ifdef BENCH_FLOOR
    if (argc >= 2 && !strcmp(argv[1], "floor")) return cmd_floor(argc, argv);
#endif
    fprintf(stderr, "usage: bench_tool mkstore|reader|count|locate|lz4|crc|readcrc|frames ... (see the top of tests/bench/bench_tool.c)\n");
    return 2;
}
