/* tests/test_app_load.c - asmstore_app_load: the runtime's loading of compressed images into the
   buffers of libxamarin-app.so. The three real libraries (.NET 10 x86_64 and arm64: one buffer with
   offsets; .NET 8 arm64: relocated per-entry pointers) are put in memory as the loader maps them
   (each PT_LOAD's file bytes at its address, the rest zero; the .NET 8 pointers set from their
   relocations, read with asmstore_app_open and asmstore_app_read_descriptor), their symbols at the
   addresses the header's PT_DYNAMIC reader gives; 8 threads then load every entry of the store at
   once and each image's SHA-256 must be EXPECTED.json's. The runtime's aborts (a descriptor index
   past the table, an image larger than its buffer, damaged data) return their results and leave
   the descriptor to load again; hostile tables (every field of a descriptor set at random over a
   written store) never make it read or write outside (ASan) and give only the documented
   results. The real files are read in place (SAMPLES overrides where they are). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"
#include "fixture.h"

#include <pthread.h>

#define THREADS 8
#define NO_SAMPLES "samples absent (set SAMPLES=.../assembly-store-samples)"

/* ---- SHA-256 (FIPS 180-4), to compare with EXPECTED.json's uncompressed_sha256 ---- */
static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

static void sha_block(uint32_t h[8], const unsigned char *p) {
    uint32_t w[64], v[8], t1, t2;
    unsigned i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (i = 16; i < 64; i++)
        w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
               (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10));
    memcpy(v, h, sizeof v);
    for (i = 0; i < 64; i++) {
        t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha_k[i] + w[i];
        t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (i = 0; i < 8; i++) h[i] += v[i];
}

/* The lowercase hex SHA-256 of p[0..n) into hex[65]. */
static void sha256_hex(const unsigned char *p, size_t n, char hex[65]) {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char tail[128];
    size_t i, rest = n % 64, pad = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)n * 8u;
    for (i = 0; i + 64 <= n; i += 64) sha_block(h, p + i);
    memset(tail, 0, sizeof tail);
    memcpy(tail, p + i, rest);
    tail[rest] = 0x80;
    for (i = 0; i < 8; i++) tail[pad - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha_block(h, tail);
    if (pad == 128) sha_block(h, tail + 64);
    for (i = 0; i < 8; i++) snprintf(hex + 8 * i, 9, "%08x", h[i]);
}

/* ---- the samples ---- */
/* EXPECTED.json's uncompressed_sha256 of descriptor `index` of sample `key` into hex[65]: the
   index-th such field after the key (the descriptors are listed in order); 0 when absent. */
static int expected_sha(const char *json, const char *key, uint32_t index, char hex[65]) {
    char quoted[256];
    const char *p, *end;
    snprintf(quoted, sizeof quoted, "\"%s\": {", key);
    if (!(p = strstr(json, quoted))) return 0;
    end = strstr(p + 1, "\n }");
    for (;;) {
        p = strstr(p + 1, "\"uncompressed_sha256\": \"");
        if (!p || (end && p > end)) return 0;
        if (index-- == 0) break;
    }
    memcpy(hex, p + 24, 64);
    hex[64] = 0;
    return 1;
}

/* ---- a library in memory as the loader maps it ---- */
typedef struct mapped_lib {
    unsigned char *mem; /* each PT_LOAD's file bytes at its address; zero elsewhere */
    size_t size;
    asmstore_app_info info;
    asmstore_app_tables tables;
} mapped_lib;

static uint64_t rd64(const unsigned char *p) { return asmstore__rd64(p); }

/* The address of file offset `off` (inside a PT_LOAD's file bytes), 0 when none holds it. */
static uint64_t vaddr_of(const unsigned char *so, uint64_t off) {
    const unsigned char *ph = so + rd64(so + 32);
    unsigned i, n = asmstore__rd16(so + 56);
    for (i = 0; i < n; i++, ph += 56)
        if (asmstore__rd32(ph) == 1 && off >= rd64(ph + 8) && off - rd64(ph + 8) < rd64(ph + 32))
            return rd64(ph + 16) + (off - rd64(ph + 8));
    return 0;
}

/* Maps a 64-bit library so[0..n) and points m->tables at its symbols; 0 on success. */
static int map_lib(const unsigned char *so, size_t n, mapped_lib *m) {
    const unsigned char *ph = so + rd64(so + 32);
    unsigned i, count = asmstore__rd16(so + 56);
    uint64_t span = 0;
    memset(m, 0, sizeof *m);
    if (asmstore_app_open(so, n, &m->info, NULL) != ASMSTORE_OK || m->info.table == ASMSTORE_APP_TABLE_NONE) return 1;
    for (i = 0; i < count; i++)
        if (asmstore__rd32(ph + 56 * i) == 1 && rd64(ph + 56 * i + 16) + rd64(ph + 56 * i + 40) > span)
            span = rd64(ph + 56 * i + 16) + rd64(ph + 56 * i + 40);
    m->size = (size_t)span;
    m->mem = (unsigned char *)calloc(1, m->size);
    for (i = 0; i < count; i++, ph += 56)
        if (asmstore__rd32(ph) == 1) memcpy(m->mem + rd64(ph + 16), so + rd64(ph + 8), (size_t)rd64(ph + 32));
    if (m->info.table == ASMSTORE_APP_TABLE_BUFFER) {
        m->tables.count = (const uint32_t *)(void *)(m->mem + vaddr_of(so, m->info.count_offset));
        m->tables.descriptors = (asmstore_app_buffer_descriptor *)(void *)(m->mem + m->info.descriptors_addr);
        m->tables.data_size = (const uint32_t *)(void *)(m->mem + vaddr_of(so, m->info.data_size_offset));
        m->tables.data = m->mem + m->info.data_addr;
        return 0;
    }
    m->tables.pointers = (asmstore_app_pointer_table *)(void *)(m->mem + vaddr_of(so, m->info.count_offset));
    m->tables.pointers->descriptors = (asmstore_app_pointer_descriptor *)(void *)(m->mem + m->info.descriptors_addr);
    for (i = 0; i < m->info.count; i++) { /* the relative relocations of each data pointer */
        asmstore_app_descriptor d;
        if (asmstore_app_read_descriptor(so, n, &m->info, i, &d, NULL) != ASMSTORE_OK) return 1;
        m->tables.pointers->descriptors[i].data = m->mem + d.data_addr;
    }
    return 0;
}

/* ---- 8 threads load every entry ---- */
typedef struct load_job {
    const asmstore_app_tables *tables;
    const asmstore_reader *r;
    uint32_t first; /* each thread starts at another entry */
    const unsigned char *image[64];
    size_t size[64];
    int failures;
} load_job;

static void *load_all(void *arg) {
    load_job *j = (load_job *)arg;
    uint32_t k, n = j->r->entry_count;
    for (k = 0; k < n; k++) {
        uint32_t i = (j->first + k) % n;
        asmstore_entry e;
        if (asmstore_reader_entry(j->r, i, &e, NULL) != ASMSTORE_OK ||
            asmstore_app_load(j->tables, j->r, &e, NULL, &j->image[i], &j->size[i], NULL) != ASMSTORE_OK)
            j->failures++;
    }
    return NULL;
}

/* Loads every entry of r from THREADS threads at once; each image's SHA-256 must be EXPECTED's for
   `key`, every thread must get the same bytes, a compressed one inside the library. Returns the
   compressed entries seen. */
static int load_store_threads(const mapped_lib *m, const asmstore_reader *r, const char *json, const char *key) {
    load_job jobs[THREADS];
    pthread_t th[THREADS];
    uint32_t i, t;
    int compressed = 0;
    CHECK(r->entry_count <= 64);
    for (t = 0; t < THREADS; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].tables = &m->tables;
        jobs[t].r = r;
        jobs[t].first = t * 3u;
        CHECK(pthread_create(&th[t], NULL, load_all, &jobs[t]) == 0);
    }
    for (t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (i = 0; i < r->entry_count; i++) {
        char want[65], got[65];
        asmstore_entry e;
        CHECK(asmstore_reader_entry(r, i, &e, NULL) == ASMSTORE_OK);
        CHECK(expected_sha(json, key, i, want));
        sha256_hex(jobs[0].image[i], jobs[0].size[i], got);
        if (strcmp(want, got) != 0) fprintf(stderr, "  %s entry %u: sha256 %s, EXPECTED %s\n", key, i, got, want);
        CHECK(strcmp(want, got) == 0);
        for (t = 0; t < THREADS; t++) {
            CHECK_EQ_INT(jobs[t].failures, 0);
            CHECK(jobs[t].image[i] == jobs[0].image[i] && jobs[t].size[i] == jobs[0].size[i]);
        }
        if (e.compression == ASMSTORE_COMPRESSION_NONE) continue;
        compressed++;
        CHECK(jobs[0].image[i] >= m->mem && jobs[0].image[i] + jobs[0].size[i] <= m->mem + m->size);
    }
    return compressed;
}

static void test_app_load_samples_threads(void) {
    static const char *const libs[] = {"v3-watercountdown-widget/x86_64/", "v3-watercountdown-widget/arm64-v8a/"};
    size_t jn = 0, i;
    char *json = (char *)test_sample("EXPECTED.json", &jn);
    if (!json) SKIP(NO_SAMPLES);
    json = (char *)realloc(json, jn + 1);
    json[jn] = 0;
    for (i = 0; i < 2; i++) {
        char file[256], key[256];
        size_t n = 0, sn = 0, pn = 0;
        unsigned char *so, *store;
        const void *pl;
        mapped_lib m;
        asmstore_reader r;
        snprintf(file, sizeof file, "%slibxamarin-app.so", libs[i]);
        so = test_sample(file, &n);
        snprintf(key, sizeof key, "%sassembly-store.so", libs[i]);
        store = test_sample(key, &sn);
        CHECK(so && store && map_lib(so, n, &m) == 0);
        CHECK(asmstore_elf_payload(store, sn, NULL, &pl, &pn, NULL, NULL) == ASMSTORE_OK || (pl = store, pn = sn));
        CHECK(asmstore_reader_init(&r, pl, pn, NULL, NULL) == ASMSTORE_OK);
        CHECK_EQ_INT(load_store_threads(&m, &r, json, key), 10);
        CHECK(m.tables.descriptors[9].loaded == 1);
        free(m.mem);
        free(so);
        free(store);
    }
    free(json);
}

/* .NET 8: a format-1 set (the arch store through store 0's hash tables) and its library's
   relocated per-entry pointers. */
static void test_app_load_net8_pointers(void) {
    size_t jn = 0, n = 0, an = 0, cn = 0;
    char *json = (char *)test_sample("EXPECTED.json", &jn);
    unsigned char *so = test_sample("v1-razr-pointcrep/libxamarin-app.so", &n);
    unsigned char *arch = test_sample("v1-razr-pointcrep/base_assemblies.arm64_v8a.blob", &an);
    unsigned char *common = test_sample("v1-razr-pointcrep/base_assemblies.blob", &cn);
    asmstore_reader rc, ra;
    mapped_lib m;
    if (!json || !so || !arch || !common) SKIP(NO_SAMPLES);
    json = (char *)realloc(json, jn + 1);
    json[jn] = 0;
    CHECK(map_lib(so, n, &m) == 0 && m.info.table == ASMSTORE_APP_TABLE_POINTERS);
    CHECK(asmstore_reader_init(&rc, common, cn, NULL, NULL) == ASMSTORE_OK);
    CHECK(asmstore_reader_init(&ra, arch, an, NULL, NULL) == ASMSTORE_OK);
    CHECK(asmstore_reader_attach_common(&ra, &rc, NULL) == ASMSTORE_OK);
    { /* format 1's lookup hash: XXH64 of the name without .dll, store 0's first hash row */
        asmstore_entry e;
        CHECK(asmstore_reader_find(&rc, "Mono.Android", 12, &e, NULL) == ASMSTORE_OK);
        CHECK(e.name_hash == 0x01accec39cafe242u && e.mapping_index == 23);
    }
    CHECK_EQ_INT(load_store_threads(&m, &rc, json, "v1-razr-pointcrep/base_assemblies.blob"), 24);
    CHECK_EQ_INT(load_store_threads(&m, &ra, json, "v1-razr-pointcrep/base_assemblies.arm64_v8a.blob"), 1);
    free(m.mem);
    free(json);
    free(so);
    free(arch);
    free(common);
}

/* ---- the runtime's aborts, and hostile tables, over a written store ---- */
/* A .NET 10-shaped table for the compressed entries of `store` (a format-4 CoreCLR store of the
   fixture): each descriptor exactly its image's size, the buffers back to back. */
typedef struct fake_app {
    uint32_t count, data_size;
    asmstore_app_buffer_descriptor d[NFIX];
    unsigned char *buffer;
    asmstore_app_tables t;
} fake_app;

static void fake_app_init(fake_app *f, const asmstore_reader *r) {
    uint32_t i;
    memset(f, 0, sizeof *f);
    for (i = 0; i < r->entry_count; i++) {
        asmstore_entry e;
        if (asmstore_reader_entry(r, i, &e, NULL) != ASMSTORE_OK || e.descriptor_index == ASMSTORE_NO_DESCRIPTOR)
            continue;
        CHECK(e.descriptor_index < NFIX);
        f->d[e.descriptor_index].uncompressed_file_size = (uint32_t)e.uncompressed_size;
        if (e.descriptor_index + 1 > f->count) f->count = e.descriptor_index + 1;
    }
    for (i = 0; i < f->count; i++) {
        f->d[i].buffer_offset = f->data_size;
        f->data_size += f->d[i].uncompressed_file_size;
    }
    f->buffer = (unsigned char *)calloc(1, f->data_size);
    f->t.count = &f->count;
    f->t.descriptors = f->d;
    f->t.data_size = &f->data_size;
    f->t.data = f->buffer;
}

/* The first compressed entry of r, by name. */
static asmstore_entry find(const asmstore_reader *r, const char *name) {
    asmstore_entry e;
    memset(&e, 0, sizeof e);
    CHECK(asmstore_reader_find(r, name, strlen(name), &e, NULL) == ASMSTORE_OK);
    return e;
}

static void test_app_load_aborts(void) {
    built b = build_store(4, ASMSTORE_ABI_X86_64, ASMSTORE_RUNTIME_CORECLR, 1, 0);
    asmstore_reader r;
    asmstore_entry e, plain;
    asmstore_error err;
    fake_app f;
    const unsigned char *img = NULL;
    size_t size = 0, k;
    uint32_t di;
    unsigned char *want = make_bytes(70000, 1);
    CHECK(b.data && asmstore_reader_init(&r, b.data, b.size, NULL, NULL) == ASMSTORE_OK);
    fake_app_init(&f, &r);
    e = find(&r, "Mono.Android.dll");
    di = e.descriptor_index;
    CHECK(e.compression == ASMSTORE_COMPRESSION_ZSTD && di < f.count);
    /* 1. the descriptor index past the table: BAD_INDEX, naming it */
    f.count = di;
    CHECK_EQ_INT(asmstore_app_load(&f.t, &r, &e, NULL, &img, &size, &err), ASMSTORE_ERR_BAD_INDEX);
    CHECK_EQ_INT(err.entry, di);
    f.count = 0;
    CHECK_EQ_INT(asmstore_app_load(&f.t, &r, &e, NULL, &img, &size, &err), ASMSTORE_ERR_BAD_INDEX);
    f.count = di + 1;
    /* 2. the image larger than its buffer: TOO_LARGE ("assemblies don't grow"), nothing written */
    f.d[di].uncompressed_file_size = 69999;
    CHECK_EQ_INT(asmstore_app_load(&f.t, &r, &e, NULL, &img, &size, &err), ASMSTORE_ERR_TOO_LARGE);
    CHECK(strstr(err.message, "don't grow") != NULL);
    CHECK_EQ_INT(f.d[di].loaded, 0);
    for (k = 0; k < f.data_size && f.buffer[k] == 0; k++) {}
    CHECK_EQ_INT(k, f.data_size);
    /* a smaller image is taken and shrinks the descriptor, as the runtime does */
    f.d[di].uncompressed_file_size = 70001;
    CHECK_EQ_INT(asmstore_app_load(&f.t, &r, &e, NULL, &img, &size, &err), ASMSTORE_OK);
    CHECK(size == 70000 && f.d[di].uncompressed_file_size == 70000 && f.d[di].loaded == 1);
    CHECK(img == f.buffer + f.d[di].buffer_offset && memcmp(img, want, 70000) == 0);
    /* 3. damaged data: the decompressor's result, the descriptor left to load again */
    e = find(&r, "System.Runtime.dll");
    di = e.descriptor_index;
    ((unsigned char *)b.data)[(size_t)(e.image - (const unsigned char *)b.data) + 20] ^= 0x55;
    ((unsigned char *)b.data)[(size_t)(e.image - (const unsigned char *)b.data) + 21] ^= 0x55;
    {
        asmstore_result res = asmstore_app_load(&f.t, &r, &e, NULL, &img, &size, &err);
        CHECK(res == ASMSTORE_ERR_DECOMPRESS || res == ASMSTORE_ERR_SIZE_MISMATCH || res == ASMSTORE_ERR_CHECKSUM);
        CHECK_EQ_INT(f.d[di].loaded, 0);
    }
    /* a stored image needs no table; a placeholder is refused */
    plain = find(&r, "App.dll");
    CHECK_EQ_INT(asmstore_app_load(&f.t, &r, &plain, NULL, &img, &size, NULL), ASMSTORE_OK);
    CHECK(img == plain.image && size == 5000);
    CHECK_EQ_INT(asmstore_app_load(NULL, &r, &plain, NULL, &img, &size, NULL), ASMSTORE_ERR_INVALID_ARG);
    free(want);
    free(f.buffer);
    free(b.data);
}

static uint32_t rnd(uint32_t *s) {
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* A field at random: mostly near the real values, sometimes extreme. */
static uint32_t hostile(uint32_t *s, uint32_t real) {
    switch (rnd(s) % 6) {
    case 0: return 0;
    case 1: return UINT32_MAX - rnd(s) % 4;
    case 2: return real + rnd(s) % 3 - 1;
    case 3: return rnd(s);
    default: return real;
    }
}

static void test_app_load_hostile_tables(void) {
    built b = build_store(4, ASMSTORE_ABI_X86_64, ASMSTORE_RUNTIME_CORECLR, 1, 0);
    asmstore_reader r;
    fake_app f, orig;
    uint32_t seed = 12345, round, i, bad = 0, preloaded = 0;
    CHECK(b.data && asmstore_reader_init(&r, b.data, b.size, NULL, NULL) == ASMSTORE_OK);
    fake_app_init(&orig, &r);
    for (round = 0; round < 3000; round++) {
        fake_app_init(&f, &r);
        f.count = hostile(&seed, orig.count) % 16u;
        f.data_size = hostile(&seed, orig.data_size);
        if (f.data_size > orig.data_size) f.data_size = orig.data_size; /* the buffer the test owns */
        for (i = 0; i < NFIX; i++) {
            f.d[i].uncompressed_file_size = hostile(&seed, orig.d[i].uncompressed_file_size);
            f.d[i].buffer_offset = hostile(&seed, orig.d[i].buffer_offset);
            f.d[i].loaded = (uint8_t)(rnd(&seed) % 8 == 0); /* built loaded: returned as it is */
        }
        if (f.count > NFIX) f.count = NFIX; /* the descriptors the test owns */
        for (i = 0; i < r.entry_count; i++) {
            asmstore_entry e;
            const unsigned char *img = NULL;
            size_t size = 0;
            asmstore_result res;
            CHECK(asmstore_reader_entry(&r, i, &e, NULL) == ASMSTORE_OK);
            if (e.ignored) continue;
            res = asmstore_app_load(&f.t, &r, &e, NULL, &img, &size, NULL);
            if (res != ASMSTORE_OK && res != ASMSTORE_ERR_BAD_INDEX && res != ASMSTORE_ERR_CORRUPT &&
                res != ASMSTORE_ERR_TOO_LARGE)
                bad++;
            if (res != ASMSTORE_OK || e.compression == ASMSTORE_COMPRESSION_NONE) continue;
            if (img < f.buffer || size > f.data_size || (size_t)(img - f.buffer) > f.data_size - size)
                bad++;
            else if (memcmp(img, "MZ", 2) != 0 || size != e.uncompressed_size)
                preloaded++; /* a descriptor built loaded: the buffer as it is */
        }
        free(f.buffer);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(preloaded > 0);
    free(orig.buffer);
    free(b.data);
}

/* .NET 6-9 tables: a NULL data pointer or descriptor array is the runtime's abort, not a crash. */
static void test_app_load_pointer_table(void) {
    built b = build_store(4, ASMSTORE_ABI_X86_64, ASMSTORE_RUNTIME_CORECLR, 1, 0);
    asmstore_reader r;
    asmstore_app_pointer_descriptor d[NFIX];
    asmstore_app_pointer_table pt;
    asmstore_app_tables t;
    asmstore_entry e;
    const unsigned char *img = NULL;
    size_t size = 0;
    unsigned char *buf = (unsigned char *)calloc(1, 70000);
    CHECK(b.data && asmstore_reader_init(&r, b.data, b.size, NULL, NULL) == ASMSTORE_OK);
    e = find(&r, "Mono.Android.dll");
    memset(d, 0, sizeof d);
    memset(&t, 0, sizeof t);
    pt.count = NFIX;
    pt.descriptors = NULL;
    t.pointers = &pt;
    CHECK_EQ_INT(asmstore_app_load(&t, &r, &e, NULL, &img, &size, NULL), ASMSTORE_ERR_CORRUPT);
    pt.descriptors = d;
    d[e.descriptor_index].uncompressed_file_size = 70000;
    CHECK_EQ_INT(asmstore_app_load(&t, &r, &e, NULL, &img, &size, NULL), ASMSTORE_ERR_CORRUPT);
    d[e.descriptor_index].data = buf;
    CHECK_EQ_INT(asmstore_app_load(&t, &r, &e, NULL, &img, &size, NULL), ASMSTORE_OK);
    CHECK(img == buf && size == 70000 && d[e.descriptor_index].loaded == 1);
    free(buf);
    free(b.data);
}

int main(void) {
    RUN(test_app_load_samples_threads);
    RUN(test_app_load_net8_pointers);
    RUN(test_app_load_aborts);
    RUN(test_app_load_hostile_tables);
    RUN(test_app_load_pointer_table);
    printf("%d passed, %d failed\n", test__passed, test__failed);
    return test__failed != 0;
}
