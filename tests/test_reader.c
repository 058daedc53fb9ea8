/* test_reader.c - the reader and the basics it stands on: hash vectors (checked against xxhsum
   and zlib's CRC-32), name forms, result strings and library facts; round trips for every
   format x ABI x profile with lookups with and without the name table; one test per corruption
   class, every truncation, hash collisions, read errors, decompression bombs; the index search
   on any spread of hashes; hostile stores and caller-edited entries. */
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"
#include "fixture.h"

#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

static uint32_t rd32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void wr32(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24); }

/* ---- hashes ---- */

/* Runs `xxhsum -H<k>` over a file holding s and returns the hex it prints, parsed. */
static int xxhsum_of(const char *s, int k, unsigned long long *out) {
    char path[] = "/tmp/asmstore-hash-XXXXXX", cmd[256], line[256];
    int fd = mkstemp(path);
    FILE *p;
    int ok = 0;
    if (fd < 0) return 0;
    if (write(fd, s, strlen(s)) != (ssize_t)strlen(s)) { close(fd); unlink(path); return 0; }
    close(fd);
    snprintf(cmd, sizeof cmd, "xxhsum -H%d %s 2>/dev/null", k, path);
    p = popen(cmd, "r");
    if (p && fgets(line, sizeof line, p)) {
        char *eq = strstr(line, "= ");
        ok = sscanf(eq ? eq + 2 : line, "%llx", out) == 1;
    }
    if (p) pclose(p);
    unlink(path);
    return ok;
}

static void test_hash_vectors(void) {
    /* CRC-32 reference values (zlib), docs/store-format.md §2 */
    CHECK(asmstore_crc32("123456789", 9) == 0xCBF43926u);
    CHECK(asmstore_crc32("System.Runtime", 14) == 0x5bf6a0a2u);
    CHECK(asmstore_crc32("System.Runtime.dll", 18) == 0x237e2f9cu);
    CHECK(asmstore_crc32("Mono.Android.dll", 16) == 0xc926113fu);
    CHECK(asmstore_crc32("fr/App.resources.dll", 20) == 0xa1caee88u);
    CHECK(asmstore_crc32("", 0) == 0xFFFFFFFFu);
    CHECK(asmstore_crc32("Foo.ni.dll", 10) == 0x411e680du);
    /* XXH3-64 from a real .NET 10 store's index (EXPECTED.json) */
    CHECK(asmstore_xxh3_64("System.Runtime", 14) == 0x2174319c0d835bc9ull);
    CHECK(asmstore_xxh3_64("Mono.Android", 12) == 0x0c59ad9fbbd43abeull);
}

static void test_hash_vs_xxhsum(void) {
    static const char *names[] = {"System.Runtime", "Mono.Android.dll", "fr/App.resources", "a", "System.Private.CoreLib.dll"};
    unsigned long long v;
    size_t i;
    if (!xxhsum_of("x", 0, &v)) SKIP("xxhsum not installed (Debian: xxhash)");
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK(xxhsum_of(names[i], 3, &v) && v == asmstore_xxh3_64(names[i], strlen(names[i])));
        CHECK(xxhsum_of(names[i], 0, &v) && v == asmstore_xxh32(names[i], strlen(names[i])));
    }
}

/* ---- round trips ---- */

static void check_store(const built *b, uint32_t format, asmstore_abi abi, asmstore_runtime rt) {
    asmstore_reader r;
    asmstore_error err;
    size_t i;
    int is64 = abi == ASMSTORE_ABI_ARM64 || abi == ASMSTORE_ABI_X86_64;
    uint32_t nentries = (uint32_t)(rt == ASMSTORE_RUNTIME_CORECLR ? 2 * NFIX : NFIX);
    asmstore_hash_kind want_hash = (rt == ASMSTORE_RUNTIME_CORECLR && format == 4) ? ASMSTORE_HASH_CRC32
                                   : is64 ? ASMSTORE_HASH_XXH3_64 : ASMSTORE_HASH_XXH32;
    uint32_t tablemem[64];
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    CHECK(b->data != NULL);
    if (!b->data) return;
    CHECK_EQ_INT(asmstore_reader_init(&r, b->data, b->size, NULL, &err), ASMSTORE_OK);
    CHECK_EQ_INT(r.format, format);
    CHECK_EQ_INT(r.abi, abi);
    CHECK_EQ_INT(r.version_word, format | ((uint32_t)abi << 16) | (is64 ? 0x80000000u : 0));
    CHECK_EQ_INT(r.hash_kind, want_hash);
    CHECK_EQ_INT(r.entry_count, nentries);
    CHECK_EQ_INT(r.index_entry_size, (want_hash == ASMSTORE_HASH_XXH3_64 ? 8 : 4) + 4 + (format >= 3 ? 1 : 0));
    CHECK_EQ_INT(r.has_content_id, format == 4);
    if (format == 4) CHECK(r.content_id == asmstore_xxh3_64((const unsigned char *)b->data + 28, b->size - 28));
    /* lookups with and without the name table */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) CHECK_EQ_INT(asmstore_reader_attach_name_table(&r, tablemem, sizeof tablemem, NULL), ASMSTORE_OK);
        for (i = 0; i < NFIX; i++) {
            const fixture_entry *f = &fixture[i];
            asmstore_entry e, e2;
            size_t base = strlen(f->name);
            const char *dot = strrchr(f->name, '.');
            unsigned char *want = make_bytes(f->size, (unsigned)i), *got = (unsigned char *)malloc(f->size);
            if (dot && !strchr(dot, '/')) base = (size_t)(dot - f->name);
            CHECK_EQ_INT(asmstore_reader_find(&r, f->name, strlen(f->name), &e, NULL), ASMSTORE_OK);
            CHECK_EQ_INT(asmstore_reader_find(&r, f->name, base, &e2, NULL), ASMSTORE_OK);
            CHECK_EQ_INT(e.index, e2.index);
            CHECK(e.name_len == strlen(f->name) && memcmp(e.name, f->name, e.name_len) == 0);
            CHECK_EQ_INT(e.uncompressed_size, f->size);
            CHECK_EQ_INT(e.compression, f->uncompressed ? ASMSTORE_COMPRESSION_NONE : ASMSTORE_COMPRESSION_ZSTD);
            CHECK_EQ_INT(asmstore_reader_read(&r, &e, got, f->size, pass ? dctx : NULL, NULL), ASMSTORE_OK);
            CHECK(memcmp(got, want, f->size) == 0);
            if (f->uncompressed) CHECK(memcmp(e.image, want, f->size) == 0); /* zero-copy access */
            if (f->pdb) { unsigned char *p = make_bytes(321, (unsigned)i + 100); CHECK(e.pdb_size == 321 && memcmp(e.pdb, p, 321) == 0); free(p); }
            else CHECK(e.pdb == NULL && e.pdb_size == 0);
            if (f->config) { unsigned char *c = make_bytes(77, (unsigned)i + 200); CHECK(e.config_size == 77 && memcmp(e.config, c, 77) == 0); free(c); }
            else CHECK(e.config == NULL);
            if (rt == ASMSTORE_RUNTIME_CORECLR) {
                char ni[128];
                snprintf(ni, sizeof ni, "%.*s.ni.dll", (int)base, f->name);
                CHECK_EQ_INT(asmstore_reader_find(&r, ni, strlen(ni), NULL, NULL), ASMSTORE_ERR_IGNORED);
                CHECK_EQ_INT(asmstore_reader_find(&r, ni, strlen(ni) - 4, NULL, NULL), ASMSTORE_ERR_IGNORED);
            }
            free(want); free(got);
        }
        /* every descriptor by index, ignored ones flagged */
        for (i = 0; i < r.entry_count; i++) {
            asmstore_entry e;
            CHECK_EQ_INT(asmstore_reader_entry(&r, (uint32_t)i, &e, NULL), ASMSTORE_OK);
            CHECK_EQ_INT(e.ignored, rt == ASMSTORE_RUNTIME_CORECLR && (i % 2) == 1);
            if (e.ignored) CHECK(e.image == NULL && e.mapping_index == 0);
        }
        CHECK_EQ_INT(asmstore_reader_entry(&r, r.entry_count, NULL, NULL), ASMSTORE_ERR_INVALID_ARG);
        CHECK_EQ_INT(asmstore_reader_find(&r, "Missing.dll", 11, NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
        CHECK_EQ_INT(asmstore_reader_find(&r, "System.Runtime.d", 16, NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
        CHECK_EQ_INT(asmstore_reader_find(&r, "system.runtime.dll", 18, NULL, NULL), ASMSTORE_ERR_NOT_FOUND); /* case kept */
        CHECK_EQ_INT(asmstore_reader_find(&r, "", 0, NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
    }
    ZSTD_freeDCtx(dctx);
}

static void test_roundtrip_all_profiles(void) {
    static const asmstore_abi abis[] = {ASMSTORE_ABI_ARM64, ASMSTORE_ABI_ARM, ASMSTORE_ABI_X86_64, ASMSTORE_ABI_X86};
    uint32_t format;
    size_t a;
    int rt;
    for (format = 2; format <= 4; format++)
        for (a = 0; a < 4; a++)
            for (rt = 0; rt < 2; rt++) {
                built b;
                if (rt == ASMSTORE_RUNTIME_CORECLR && format == 2) continue;
                b = build_store(format, abis[a], (asmstore_runtime)rt, 2, 3);
                check_store(&b, format, abis[a], (asmstore_runtime)rt);
                free(b.data);
            }
}

/* ---- corruption: one test per class ---- */

static asmstore_result open_mutated(const built *b, void (*mutate)(unsigned char *, size_t), size_t *size_io) {
    unsigned char *copy = (unsigned char *)malloc(b->size);
    asmstore_reader r;
    asmstore_result res;
    size_t size = size_io ? *size_io : b->size;
    memcpy(copy, b->data, b->size);
    if (mutate) mutate(copy, size);
    res = asmstore_reader_init(&r, copy, size, NULL, NULL);
    /* a reader that failed holds no entries: no caller sizes anything from an unchecked count */
    if (res != ASMSTORE_OK)
        CHECK(r.entry_count == 0 && r.index_entry_count == 0 && r.global_entry_count == 0);
    free(copy);
    return res;
}

/* layout of the fixture store built below: v4 arm64 monovm, 13-byte index entries */
#define IDX 28u
#define DESC(b) (IDX + 2u * (uint32_t)NFIX * 13u)
#define NAMES (IDX + 2u * (uint32_t)NFIX * 13u + (uint32_t)NFIX * 28u)
static void m_magic(unsigned char *p, size_t n) { (void)n; p[0] = 'Y'; }
static void m_format(unsigned char *p, size_t n) { (void)n; p[4] = 5; }
static void m_format1(unsigned char *p, size_t n) { (void)n; p[4] = 1; }
static void m_abi(unsigned char *p, size_t n) { (void)n; p[6] = 7; }
static void m_flag(unsigned char *p, size_t n) { (void)n; p[7] = 0; }
static void m_reserved(unsigned char *p, size_t n) { (void)n; p[7] |= 0x01; }
static void m_counts(unsigned char *p, size_t n) { (void)n; wr32(p + 12, rd32(p + 12) + 1); }
static void m_counts_huge(unsigned char *p, size_t n) { (void)n; wr32(p + 8, 0x7FFFFFFFu); wr32(p + 12, 0xFFFFFFFEu); }
static void m_index_size(unsigned char *p, size_t n) { (void)n; wr32(p + 16, rd32(p + 16) + 1); }
static void m_index_size_12(unsigned char *p, size_t n) { (void)n; wr32(p + 16, rd32(p + 12) * 12u); }
static void m_unsorted(unsigned char *p, size_t n) {
    unsigned char t[13];
    (void)n;
    memcpy(t, p + IDX, 13); memcpy(p + IDX, p + IDX + 13, 13); memcpy(p + IDX + 13, t, 13);
    if (memcmp(p + IDX, p + IDX + 13, 8) == 0) p[IDX + 7] ^= 0xFF;
}
static void m_index_desc(unsigned char *p, size_t n) { (void)n; wr32(p + IDX + 8, (uint32_t)NFIX); }
static void m_image_range(unsigned char *p, size_t n) { wr32(p + DESC(0) + 8, (uint32_t)n); }
static void m_image_before_names(unsigned char *p, size_t n) { (void)n; wr32(p + DESC(0) + 4, 30); }
static void m_pdb_range(unsigned char *p, size_t n) { wr32(p + DESC(0) + 12, (uint32_t)n - 10); wr32(p + DESC(0) + 16, 11); }
static void m_config_range(unsigned char *p, size_t n) { (void)n; wr32(p + DESC(0) + 20, 0xFFFFFFF0u); wr32(p + DESC(0) + 24, 0x20); }
static void m_name_len(unsigned char *p, size_t n) { (void)n; wr32(p + NAMES, 0x7FFFFFFFu); }
static void m_name_zero(unsigned char *p, size_t n) { (void)n; wr32(p + NAMES, 0); }
static void m_name_nul(unsigned char *p, size_t n) { (void)n; p[NAMES + 5] = 0; }
static void m_name_byte(unsigned char *p, size_t n) { (void)n; p[NAMES + 4] ^= 0x20; } /* descriptor 0's name */
static void m_names_gap(unsigned char *p, size_t n) { (void)n; wr32(p + NAMES, rd32(p + NAMES) - 1); }

static void test_corruption_classes(void) {
    built b = build_store(4, ASMSTORE_ABI_ARM64, ASMSTORE_RUNTIME_MONOVM, 1, 3);
    size_t small;
    CHECK_EQ_INT(open_mutated(&b, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(open_mutated(&b, m_magic, NULL), ASMSTORE_ERR_BAD_MAGIC);
    CHECK_EQ_INT(open_mutated(&b, m_format, NULL), ASMSTORE_ERR_BAD_VERSION);
    CHECK_EQ_INT(open_mutated(&b, m_format1, NULL), ASMSTORE_ERR_BAD_VERSION);
    CHECK_EQ_INT(open_mutated(&b, m_abi, NULL), ASMSTORE_ERR_BAD_VERSION);
    CHECK_EQ_INT(open_mutated(&b, m_flag, NULL), ASMSTORE_ERR_BAD_VERSION);
    CHECK_EQ_INT(open_mutated(&b, m_reserved, NULL), ASMSTORE_ERR_BAD_VERSION);
    CHECK_EQ_INT(open_mutated(&b, m_counts, NULL), ASMSTORE_ERR_BAD_COUNTS);
    CHECK_EQ_INT(open_mutated(&b, m_counts_huge, NULL), ASMSTORE_ERR_BAD_COUNTS);
    CHECK_EQ_INT(open_mutated(&b, m_index_size, NULL), ASMSTORE_ERR_BAD_INDEX_SIZE);
    CHECK_EQ_INT(open_mutated(&b, m_index_size_12, NULL), ASMSTORE_ERR_BAD_INDEX_SIZE);
    CHECK_EQ_INT(open_mutated(&b, m_unsorted, NULL), ASMSTORE_ERR_BAD_INDEX);
    CHECK_EQ_INT(open_mutated(&b, m_index_desc, NULL), ASMSTORE_ERR_BAD_INDEX);
    CHECK_EQ_INT(open_mutated(&b, m_image_range, NULL), ASMSTORE_ERR_BAD_DESCRIPTOR);
    CHECK_EQ_INT(open_mutated(&b, m_image_before_names, NULL), ASMSTORE_ERR_BAD_DESCRIPTOR);
    CHECK_EQ_INT(open_mutated(&b, m_pdb_range, NULL), ASMSTORE_ERR_BAD_DESCRIPTOR);
    CHECK_EQ_INT(open_mutated(&b, m_config_range, NULL), ASMSTORE_ERR_BAD_DESCRIPTOR);
    CHECK_EQ_INT(open_mutated(&b, m_name_len, NULL), ASMSTORE_ERR_BAD_NAMES);
    CHECK_EQ_INT(open_mutated(&b, m_name_zero, NULL), ASMSTORE_ERR_BAD_NAMES);
    CHECK_EQ_INT(open_mutated(&b, m_name_nul, NULL), ASMSTORE_ERR_BAD_NAMES);
    CHECK_EQ_INT(open_mutated(&b, m_names_gap, NULL), ASMSTORE_ERR_BAD_NAMES);
    CHECK_EQ_INT(open_mutated(&b, m_name_byte, NULL), ASMSTORE_ERR_BAD_HASH);
    small = 3; CHECK_EQ_INT(open_mutated(&b, NULL, &small), ASMSTORE_ERR_TRUNCATED);
    small = 24; CHECK_EQ_INT(open_mutated(&b, NULL, &small), ASMSTORE_ERR_TRUNCATED);
    small = 100; CHECK_EQ_INT(open_mutated(&b, NULL, &small), ASMSTORE_ERR_TRUNCATED);
    free(b.data);
}

/* No prefix of a store opens (except the whole), and nothing crashes while trying. */
static void test_every_truncation(void) {
    built b = build_store(3, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_CORECLR, 1, 1);
    size_t n;
    int bad = 0;
    for (n = 0; n < b.size; n++) {
        unsigned char *copy = (unsigned char *)malloc(n ? n : 1);
        asmstore_reader r;
        memcpy(copy, b.data, n);
        if (asmstore_reader_init(&r, copy, n, NULL, NULL) == ASMSTORE_OK) bad++;
        free(copy);
    }
    CHECK_EQ_INT(bad, 0);
    free(b.data);
}

/* Two names whose hash points at a descriptor with another name: the name check answers NOT_FOUND. */
static void test_hash_collision_never_wrong_image(void) {
    built b = build_store(4, ASMSTORE_ABI_ARM64, ASMSTORE_RUNTIME_MONOVM, 1, 1);
    unsigned char *p = (unsigned char *)b.data;
    asmstore_reader r;
    asmstore_entry e;
    size_t off = NAMES;
    /* rename descriptor 1 ("Mono.Android.dll") in place to "Mono.Androix.dll": its index hashes stay */
    off += 4 + rd32(p + off);
    CHECK(memcmp(p + off + 4, "Mono.Android.dll", 16) == 0);
    p[off + 4 + 11] = 'x';
    CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android.dll", 16, &e, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android", 12, &e, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_reader_find(&r, "System.Runtime", 14, &e, NULL), ASMSTORE_OK);
    free(b.data);
}

static void test_read_errors(void) {
    built b = build_store(4, ASMSTORE_ABI_ARM64, ASMSTORE_RUNTIME_MONOVM, 1, 3);
    unsigned char *p = (unsigned char *)b.data;
    asmstore_reader r;
    asmstore_read_options ro;
    asmstore_entry e;
    asmstore_error err;
    unsigned char *buf = (unsigned char *)malloc(100000);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android", 12, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, e.uncompressed_size - 1, NULL, NULL), ASMSTORE_ERR_BUFFER_TOO_SMALL);
    /* a reader with a lower maximum refuses the entry before decompressing */
    memset(&ro, 0, sizeof ro);
    ro.max_entry_size = 1000;
    CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, &ro, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android", 12, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, 100000, NULL, NULL), ASMSTORE_ERR_TOO_LARGE);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, NULL, NULL), ASMSTORE_OK);
    /* header length disagrees with the frame's content size */
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android", 12, &e, NULL), ASMSTORE_OK);
    wr32((unsigned char *)e.image + 8, (uint32_t)e.uncompressed_size - 1);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android", 12, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, 100000, NULL, &err), ASMSTORE_ERR_SIZE_MISMATCH);
    CHECK_EQ_INT(err.entry, e.index);
    wr32((unsigned char *)e.image + 8, (uint32_t)e.uncompressed_size + 1);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Mono.Android", 12, &e, NULL), ASMSTORE_OK);
    /* a garbled frame body */
    CHECK_EQ_INT(asmstore_reader_find(&r, "System.Runtime", 14, &e, NULL), ASMSTORE_OK);
    memset((unsigned char *)e.image + 12 + 8, 0xFF, 40);
    CHECK(asmstore_reader_read(&r, &e, buf, 100000, NULL, NULL) != ASMSTORE_OK);
    /* a zstd frame labelled XALZ, with no callback: the header's LZ4 decoder refuses it */
    CHECK_EQ_INT(asmstore_reader_find(&r, "fr/App.resources", 16, &e, NULL), ASMSTORE_OK);
    wr32((unsigned char *)e.image, ASMSTORE_LZ4_MAGIC);
    CHECK_EQ_INT(asmstore_reader_find(&r, "fr/App.resources", 16, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(e.compression, ASMSTORE_COMPRESSION_LZ4);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, 100000, NULL, NULL), ASMSTORE_ERR_DECOMPRESS);
    free(buf);
    free(b.data);
}

/* ---- the header's LZ4 block decoder (asmstore_lz4_decode), the reader's without a callback ---- */
/* A compress callback that writes literal-only LZ4 blocks (a valid encoding of any input), so the
   writer makes XALZ stores without liblz4. */
static asmstore_result literal_lz4(void *user, asmstore_compression kind, int level, void *dst, size_t cap,
                                   const void *src, size_t n, size_t *written) {
    unsigned char *o = (unsigned char *)dst;
    size_t k = 0, left = n >= 15 ? n - 15 : 0;
    (void)user; (void)level;
    if (kind != ASMSTORE_COMPRESSION_LZ4 || cap < n + n / 255 + 16) return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
    o[k++] = (unsigned char)((n >= 15 ? 15 : n) << 4);
    if (n >= 15) {
        for (; left >= 255; left -= 255) o[k++] = 255;
        o[k++] = (unsigned char)left;
    }
    memcpy(o + k, src, n);
    *written = k + n;
    return ASMSTORE_OK;
}

static void test_lz4_store_without_callback(void) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_reader r;
    const void *d;
    size_t n, sizes[3] = {14, 15, 70000};
    unsigned i;
    memset(&o, 0, sizeof o);
    o.format = 3; o.abi = ASMSTORE_ABI_ARM64; o.runtime = ASMSTORE_RUNTIME_MONOVM;
    o.compression = ASMSTORE_COMPRESSION_LZ4; o.compress = literal_lz4;
    CHECK_EQ_INT(asmstore_writer_create(&w, &o, NULL), ASMSTORE_OK);
    for (i = 0; i < 3 && w; i++) {
        char name[32];
        unsigned char *img = make_bytes(sizes[i], i);
        asmstore_add e = {0};
        snprintf(name, sizeof name, "Lz4Test%u.dll", i);
        e.name = name; e.image = img; e.image_size = sizes[i];
        CHECK_EQ_INT(asmstore_writer_add(w, &e, NULL), ASMSTORE_OK);
        free(img);
    }
    CHECK_EQ_INT(asmstore_writer_finish(w, &d, &n, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_init(&r, d, n, NULL, NULL), ASMSTORE_OK);
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        unsigned char *want = make_bytes(sizes[i], i), *got = (unsigned char *)malloc(sizes[i]);
        CHECK_EQ_INT(asmstore_reader_entry(&r, i, &e, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(e.compression, ASMSTORE_COMPRESSION_LZ4);
        CHECK_EQ_INT(asmstore_reader_read(&r, &e, got, sizes[i], NULL, NULL), ASMSTORE_OK);
        CHECK(memcmp(got, want, sizes[i]) == 0);
        free(want); free(got);
    }
    asmstore_writer_free(w);
}

/* One sequence of a hand-made block: literals, then a match (len 0: the last sequence). */
typedef struct lz4_seq { const char *lit; unsigned offset, len; } lz4_seq;

/* Encodes seqs into blk, and the output they mean into want, one byte at a time (the reference);
   returns the block's length, *out_n the output's. */
static size_t lz4_build(const lz4_seq *s, size_t count, unsigned char *blk, unsigned char *want, size_t *out_n) {
    size_t i, k = 0, o = 0;
    for (i = 0; i < count; i++) {
        size_t lit = strlen(s[i].lit), ml = s[i].len ? s[i].len - 4 : 0, j;
        blk[k++] = (unsigned char)(((lit >= 15 ? 15 : lit) << 4) | (ml >= 15 ? 15 : ml));
        if (lit >= 15) { for (j = lit - 15; j >= 255; j -= 255) blk[k++] = 255; blk[k++] = (unsigned char)j; }
        memcpy(blk + k, s[i].lit, lit); k += lit;
        memcpy(want + o, s[i].lit, lit); o += lit;
        if (!s[i].len) break;
        blk[k++] = (unsigned char)s[i].offset; blk[k++] = (unsigned char)(s[i].offset >> 8);
        if (ml >= 15) { for (j = ml - 15; j >= 255; j -= 255) blk[k++] = 255; blk[k++] = (unsigned char)j; }
        for (j = 0; j < s[i].len; j++, o++) /* an offset before the start: refused, any bytes */
            want[o] = s[i].offset && s[i].offset <= o ? want[o - s[i].offset] : 0;
    }
    *out_n = o;
    return k;
}

/* decodes blk into a buffer of exactly cap bytes: the result, and the bytes against want */
static asmstore_result lz4_try(const unsigned char *blk, size_t n, size_t cap, const unsigned char *want, size_t want_n) {
    unsigned char *out = (unsigned char *)malloc(cap ? cap : 1);
    size_t written = 7;
    asmstore_result res = asmstore_lz4_decode(cap ? out : NULL, cap, blk, n, &written);
    if (res == ASMSTORE_OK && (written != want_n || memcmp(out, want, want_n) != 0)) res = ASMSTORE_ERR_SIZE_MISMATCH; /* wrong bytes or length: never the decoder's */
    if (res != ASMSTORE_OK && written != 0) res = ASMSTORE_ERR_SIZE_MISMATCH; /* wrong bytes or length: never the decoder's */
    free(out);
    return res;
}

static void test_lz4_decode(void) {
    static const char *tail = "tail.";
    unsigned char blk[2048], want[4096];
    size_t n, out_n, cut;
    unsigned offset;
    /* every overlapping offset 1..19 at lengths around the 8- and 16-byte steps, near and far
       from the end; offset 0 repeats zeros as liblz4 makes it */
    for (offset = 0; offset < 20; offset++) {
        unsigned len;
        for (len = 4; len < 60; len += 7) {
            lz4_seq s[] = {{"MZ0123456789abcdefghij", offset, len}, {"x", 3, 40}, {"0123456789ab", 0, 0}};
            lz4_seq near_end[] = {{"MZ0123456789abcdefghij", offset, len}, {tail, 0, 0}};
            n = lz4_build(s, 3, blk, want, &out_n);
            CHECK_EQ_INT(lz4_try(blk, n, out_n, want, out_n), ASMSTORE_OK);
            n = lz4_build(near_end, 2, blk, want, &out_n);
            if (len + strlen(tail) < 12) { /* a match starts 12 or more bytes before the end */
                CHECK_EQ_INT(lz4_try(blk, n, out_n, want, out_n), ASMSTORE_ERR_DECOMPRESS);
                continue;
            }
            CHECK_EQ_INT(lz4_try(blk, n, out_n, want, out_n), ASMSTORE_OK);
            /* a capacity one short refuses; one more takes the same bytes */
            CHECK_EQ_INT(lz4_try(blk, n, out_n - 1, want, out_n), ASMSTORE_ERR_DECOMPRESS);
            CHECK_EQ_INT(lz4_try(blk, n, out_n + 1, want, out_n), ASMSTORE_OK);
        }
    }
    {   /* the end rules: a match ending 4 bytes before the end, literals of a match sequence
           reaching into the last 12 bytes, an offset before the output's start */
        lz4_seq late[] = {{"MZ0123456789", 4, 8}, {"tail", 0, 0}};
        lz4_seq far[] = {{"MZ01", 5, 8}, {"0123456789ab", 0, 0}};
        lz4_seq ok[] = {{"MZ0123456789", 4, 8}, {tail, 0, 0}};
        n = lz4_build(late, 2, blk, want, &out_n);
        CHECK_EQ_INT(lz4_try(blk, n, out_n, want, out_n), ASMSTORE_ERR_DECOMPRESS);
        n = lz4_build(far, 2, blk, want, &out_n);
        CHECK_EQ_INT(lz4_try(blk, n, out_n, want, out_n), ASMSTORE_ERR_DECOMPRESS);
        n = lz4_build(ok, 2, blk, want, &out_n);
        CHECK_EQ_INT(lz4_try(blk, n, out_n, want, out_n), ASMSTORE_OK);
        /* every cut of a good block is refused, or decodes to fewer bytes, inside the buffer */
        for (cut = 0; cut < n; cut++) {
            unsigned char *piece = (unsigned char *)malloc(cut ? cut : 1);
            memcpy(piece, blk, cut);
            CHECK(lz4_try(piece, cut, out_n, want, out_n) != ASMSTORE_OK);
            free(piece);
        }
    }
    /* the empty output: only the block "\0"; no input is damaged */
    CHECK_EQ_INT(lz4_try((const unsigned char *)"", 1, 0, want, 0), ASMSTORE_OK);
    CHECK_EQ_INT(lz4_try((const unsigned char *)"\x10x", 2, 0, want, 0), ASMSTORE_ERR_DECOMPRESS);
    CHECK_EQ_INT(lz4_try(blk, 0, 16, want, 0), ASMSTORE_ERR_DECOMPRESS);
    CHECK_EQ_INT(asmstore_lz4_decode(want, 4, blk, 1, NULL), ASMSTORE_ERR_INVALID_ARG);
}

/* 32-bit v4 stores do not say which hash they use: the reader tells CRC-32 from XXH32 by the names. */
static void test_hash_detection_32bit_v4(void) {
    built mono = build_store(4, ASMSTORE_ABI_ARM, ASMSTORE_RUNTIME_MONOVM, 1, 1);
    built clr = build_store(4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_CORECLR, 1, 1);
    asmstore_reader r;
    CHECK_EQ_INT(asmstore_reader_init(&r, mono.data, mono.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(r.hash_kind, ASMSTORE_HASH_XXH32);
    CHECK_EQ_INT(r.index_entry_size, 9);
    CHECK_EQ_INT(asmstore_reader_init(&r, clr.data, clr.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(r.hash_kind, ASMSTORE_HASH_CRC32);
    CHECK_EQ_INT(r.index_entry_size, 9);
    free(mono.data); free(clr.data);
}

/* "A" and "A.dll" in one store: each name finds its own entry, the exact name winning. */
static void test_exact_name_wins(void) {
    static const char *orders[2][2] = {{"A.dll", "A"}, {"A", "A.dll"}};
    int k;
    for (k = 0; k < 2; k++) {
        asmstore_writer *w = NULL;
        asmstore_reader r;
        asmstore_entry e;
        const void *d;
        size_t n;
        CHECK_EQ_INT(asmstore_writer_create(&w, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(test_add(w, orders[k][0], "first", 5, 0), ASMSTORE_OK);
        CHECK_EQ_INT(test_add(w, orders[k][1], "second!", 7, 0), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_writer_finish(w, &d, &n, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_init(&r, d, n, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_find(&r, "A", 1, &e, NULL), ASMSTORE_OK);
        CHECK(e.name_len == 1 && e.name[0] == 'A');
        CHECK_EQ_INT(asmstore_reader_find(&r, "A.dll", 5, &e, NULL), ASMSTORE_OK);
        CHECK(e.name_len == 5);
        asmstore_writer_free(w);
    }
}

/* A zero-length image is an entry like any other (found by the round-trip fuzzer). */
static void test_empty_image_roundtrip(void) {
    int k;
    for (k = 0; k < 2; k++) {
        asmstore_write_options o;
        asmstore_writer *w = NULL;
        asmstore_reader r;
        asmstore_entry e;
        const void *d;
        size_t n;
        char buf[1];
        memset(&o, 0, sizeof o);
        o.runtime = ASMSTORE_RUNTIME_CORECLR;
        o.no_compress = k;
        CHECK_EQ_INT(asmstore_writer_create(&w, &o, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(test_add(w, "Empty.dll", NULL, 0, 0), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_writer_finish(w, &d, &n, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_init(&r, d, n, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_find(&r, "Empty", 5, &e, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(e.uncompressed_size, 0);
        CHECK(e.image != NULL);
        CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, 0, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_find(&r, "Empty.ni.dll", 12, &e, NULL), ASMSTORE_ERR_IGNORED);
        asmstore_writer_free(w);
    }
}

/* A decompression bomb: a few hundred bytes of frame that expand to 64 MiB. The reader refuses it
   against its maximum before decompressing, and a header that understates the size is caught by
   the frame's own content size, so nothing is ever written past the caller's buffer. */
static void test_decompression_bomb(void) {
    size_t big = (size_t)64 << 20;
    unsigned char *zeros = (unsigned char *)calloc(1, big), *buf = (unsigned char *)malloc(4096);
    asmstore_writer *w = NULL;
    asmstore_reader r;
    asmstore_read_options ro;
    asmstore_entry e;
    const void *d;
    size_t n;
    unsigned char *copy;
    CHECK(zeros && buf);
    if (!zeros || !buf) { free(zeros); free(buf); return; }
    CHECK_EQ_INT(asmstore_writer_create(&w, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(test_add(w, "Bomb.dll", zeros, big, ASMSTORE_ADD_BORROW), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_writer_finish(w, &d, &n, NULL), ASMSTORE_OK);
    CHECK(n < 64 * 1024); /* the whole store is tiny */
    copy = (unsigned char *)malloc(n);
    memcpy(copy, d, n);
    asmstore_writer_free(w);
    free(zeros);
    memset(&ro, 0, sizeof ro);
    ro.max_entry_size = 1u << 20;
    CHECK_EQ_INT(asmstore_reader_init(&r, copy, n, &ro, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Bomb", 4, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(e.uncompressed_size, big);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, 4096, NULL, NULL), ASMSTORE_ERR_TOO_LARGE);
    /* the image header now claims 4000 bytes; the frame still says 64 MiB */
    wr32((unsigned char *)e.image + 8, 4000);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Bomb", 4, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, 4096, NULL, NULL), ASMSTORE_ERR_SIZE_MISMATCH);
    free(copy);
    free(buf);
}

/* The index search against a linear scan, without and with the name table's buckets, on indexes that
   are not evenly spread (clustered hashes crowding one bucket, long runs of one hash) and on ones that
   are, for both hash widths (9- and 13-byte entries). */
static void test_lower_bound_any_spread(void) {
    enum { N = 1000 };
    static unsigned char idx[N * 13 + 8];
    static uint32_t buckets[N + 1];
    uint64_t keys[N];
    int width, shape, i, q, bad = 0;
    for (width = 4; width <= 8; width += 4)
        for (shape = 0; shape < 3; shape++) {
            asmstore_reader r;
            uint64_t top = width == 8 ? UINT64_MAX : UINT32_MAX, x = 88172645463325252ull;
            memset(&r, 0, sizeof r);
            r.data = idx; r.size = sizeof idx; r.index_entry_count = N;
            r.hash_size = (uint32_t)width; r.hash_mask = top; r.index_entry_size = (uint32_t)width + 5u;
            for (i = 0; i < N; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                keys[i] = shape == 0 ? x & top                      /* evenly spread */
                        : shape == 1 ? (top / 2) + (x % 64)         /* all in one narrow cluster */
                        : (uint64_t)(i / 100) * (top / 16);         /* runs of 100 equal hashes */
            }
            for (i = 1; i < N; i++) { /* insertion sort: the index is ascending */
                uint64_t k = keys[i];
                int j = i;
                for (; j > 0 && keys[j - 1] > k; j--) keys[j] = keys[j - 1];
                keys[j] = k;
            }
            memset(idx, 0, sizeof idx);
            for (i = 0; i < N; i++) {
                unsigned char *e = idx + (size_t)i * r.index_entry_size;
                int b;
                for (b = 0; b < width; b++) e[b] = (unsigned char)(keys[i] >> (8 * b));
            }
            for (q = 0; q < 6 * N; q++) { /* bisection alone, then from the buckets */
                uint64_t h = q % (3 * N) < N ? keys[q % N] : q % (3 * N) < 2 * N ? keys[q % N] + 1
                           : (keys[q % N] ^ (uint64_t)q) & top;
                uint32_t want = 0;
                if (q == 3 * N) asmstore__attach_buckets(&r, buckets);
                while (want < N && keys[want] < h) want++;
                if (asmstore__lower_bound(&r, h) != want) bad++;
            }
            CHECK_EQ_INT(r.buckets == buckets && buckets[(1u << asmstore__bucket_bits(&r))] == N, 1);
        }
    CHECK_EQ_INT(bad, 0);
}

/* asmstore_reader_find_index: the descriptor asmstore_reader_find describes, for both spellings of
   every name; placeholders answer IGNORED with their index; misses leave *index alone. */
/* asmstore_reader_find gives the hash it computed (MonoVM keys its image cache by it): known values
   from zlib's crc32 and python3-xxhash, the XXH3-64 ones also the real .NET 10 x86_64 store's index
   rows (EXPECTED.json); asmstore_reader_entry gives 0. */
static void test_find_gives_hash(void) {
    static const struct { uint32_t format; asmstore_abi abi; asmstore_runtime rt; const char *name; uint64_t hash; } cases[] = {
        {4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_CORECLR, "System.Runtime", 0x5bf6a0a2u},
        {4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_CORECLR, "System.Runtime.dll", 0x237e2f9cu},
        {4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_CORECLR, "Mono.Android.dll", 0xc926113fu},
        {3, ASMSTORE_ABI_X86_64, ASMSTORE_RUNTIME_MONOVM, "System.Runtime", 0x2174319c0d835bc9u},
        {3, ASMSTORE_ABI_X86_64, ASMSTORE_RUNTIME_MONOVM, "Mono.Android", 0x0c59ad9fbbd43abeu},
        {4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_MONOVM, "System.Runtime", 0x62c6282eu},
        {4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_MONOVM, "fr/App.resources", 0xde980eb6u},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        built b = build_store(cases[i].format, cases[i].abi, cases[i].rt, 1, 1);
        asmstore_reader r;
        asmstore_entry e;
        memset(&e, 0, sizeof e);
        CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_find(&r, cases[i].name, strlen(cases[i].name), &e, NULL), ASMSTORE_OK);
        if (e.name_hash != cases[i].hash)
            fprintf(stderr, "  %s: name_hash 0x%llx, want 0x%llx\n", cases[i].name, (unsigned long long)e.name_hash,
                    (unsigned long long)cases[i].hash);
        CHECK(e.name_hash == cases[i].hash);
        CHECK_EQ_INT(asmstore_reader_entry(&r, e.index, &e, NULL), ASMSTORE_OK);
        CHECK(e.name_hash == 0);
        free(b.data);
    }
}

static void test_find_index(void) {
    built b = build_store(4, ASMSTORE_ABI_X86, ASMSTORE_RUNTIME_CORECLR, 1, 1);
    asmstore_reader r;
    uint32_t i, index, found = 0;
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, NULL, NULL), ASMSTORE_OK);
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e, f;
        size_t base;
        CHECK_EQ_INT(asmstore_reader_entry(&r, i, &e, NULL), ASMSTORE_OK);
        base = asmstore_name_base_len(e.name, e.name_len);
        index = UINT32_MAX;
        CHECK_EQ_INT(asmstore_reader_find_index(&r, e.name, e.name_len, &index, NULL), e.ignored ? ASMSTORE_ERR_IGNORED : ASMSTORE_OK);
        CHECK_EQ_INT(index, i);
        index = UINT32_MAX;
        CHECK_EQ_INT(asmstore_reader_find_index(&r, e.name, base, &index, NULL), e.ignored ? ASMSTORE_ERR_IGNORED : ASMSTORE_OK);
        CHECK_EQ_INT(index, i);
        if (e.ignored) continue;
        CHECK_EQ_INT(asmstore_reader_find(&r, e.name, e.name_len, &f, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(f.index, i);
        found++;
    }
    CHECK(found > 0 && found < r.entry_count); /* CoreCLR: every image has its .ni.dll placeholder */
    index = 7;
    CHECK_EQ_INT(asmstore_reader_find_index(&r, "Missing.dll", 11, &index, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(index, 7);
    CHECK_EQ_INT(asmstore_reader_find_index(&r, "", 0, &index, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_reader_find_index(NULL, "A", 1, &index, NULL), ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(asmstore_reader_find_index(&r, NULL, 1, NULL, NULL), ASMSTORE_ERR_INVALID_ARG);
    free(b.data);
}

/* asmstore_read_options.name_table: init attaches it when it holds the table (lookups then as
   with asmstore_reader_attach_name_table), leaves it when it is short or NULL (lookups walk the
   names, the same answers); ASMSTORE_NAME_TABLE_BYTES is enough for every format and count. */
static void test_name_table_at_init(void) {
    static const uint32_t formats[] = {2, 3, 4};
    size_t f;

    for (f = 0; f < 3; f++) {
        built b = build_store(formats[f], ASMSTORE_ABI_ARM64, f == 1 ? ASMSTORE_RUNTIME_CORECLR : ASMSTORE_RUNTIME_MONOVM, 1, 1);
        asmstore_read_options ro;
        asmstore_reader r, plain;
        uint32_t *table = (uint32_t *)malloc(ASMSTORE_NAME_TABLE_BYTES(64)), i;
        memset(&ro, 0, sizeof ro);
        CHECK_EQ_INT(asmstore_reader_init(&plain, b.data, b.size, NULL, NULL), ASMSTORE_OK);
        CHECK(asmstore_reader_name_table_size(&plain) <= ASMSTORE_NAME_TABLE_BYTES(plain.entry_count));
        ro.name_table = table;
        ro.name_table_bytes = asmstore_reader_name_table_size(&plain) - 1; /* short: not attached */
        CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, NULL), ASMSTORE_OK);
        CHECK(r.name_offsets == NULL && r.buckets == NULL);
        ro.name_table_bytes = ASMSTORE_NAME_TABLE_BYTES(plain.entry_count);
        CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, NULL), ASMSTORE_OK);
        CHECK(r.name_offsets == table && r.buckets != NULL);
        for (i = 0; i < r.entry_count; i++) {
            asmstore_entry e, f1, f2;
            asmstore_reader_entry(&plain, i, &e, NULL);
            CHECK_EQ_INT(asmstore_reader_find(&r, e.name, e.name_len, &f1, NULL),
                         asmstore_reader_find(&plain, e.name, e.name_len, &f2, NULL));
            if (!e.ignored) CHECK_EQ_INT(f1.index, f2.index);
        }
        free(table);
        free(b.data);
    }
}

/* asmstore_read_options.expect_*: a valid store of another ABI, format or name hash than the host
   expects fails ASMSTORE_ERR_LAYOUT naming both sides; what matches (or is not asked) passes. */
static void test_expected_layout(void) {
    built b = build_store(3, ASMSTORE_ABI_X86_64, ASMSTORE_RUNTIME_MONOVM, 1, 1); /* XXH3-64 */
    asmstore_read_options ro;
    asmstore_reader r;
    asmstore_error err;

    memset(&ro, 0, sizeof ro);
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, &err), ASMSTORE_OK);
    ro.expect_abi = ASMSTORE_ABI_X86_64;
    ro.expect_formats = 1u << 3;
    ro.expect_hash = ASMSTORE_HASH_XXH3_64;
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, &err), ASMSTORE_OK);
    ro.expect_abi = ASMSTORE_ABI_ARM64;
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, &err), ASMSTORE_ERR_LAYOUT);
    CHECK(!strcmp(err.message, "store serves x86_64; the host expects arm64-v8a"));
    CHECK(r.abi == ASMSTORE_ABI_X86_64 && r.entry_count == 0); /* what it is, and nothing to read */
    ro.expect_abi = ASMSTORE_ABI_UNKNOWN;
    ro.expect_formats = 1u << 2;
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, &err), ASMSTORE_ERR_LAYOUT);
    CHECK(!strcmp(err.message, "store is format 3; the host expects format 2"));
    ro.expect_formats = (1u << 2) | (1u << 4);
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, &err), ASMSTORE_ERR_LAYOUT);
    CHECK(!strcmp(err.message, "store is format 3; the host expects another format"));
    ro.expect_formats = (1u << 3) | (1u << 4);
    ro.expect_hash = ASMSTORE_HASH_CRC32; /* a GA CoreCLR host given a .NET 10 MonoVM store */
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, &ro, &err), ASMSTORE_ERR_LAYOUT);
    CHECK(!strcmp(err.message, "store's names are hashed with XXH3-64; the host expects CRC-32"));
    CHECK(strcmp(asmstore_result_string(ASMSTORE_ERR_LAYOUT), "?") != 0);
    free(b.data);
}

/* Path.GetFileNameWithoutExtension with the culture prefix kept: the second name each entry is indexed by. */
static void test_name_base_len(void) {
    CHECK_EQ_INT(asmstore_name_base_len("Foo.dll", 7), 3);
    CHECK_EQ_INT(asmstore_name_base_len("fr/Foo.resources.dll", 20), 16);
    CHECK_EQ_INT(asmstore_name_base_len("Foo", 3), 3);
    CHECK_EQ_INT(asmstore_name_base_len("Foo.ni.dll", 10), 6);
    CHECK_EQ_INT(asmstore_name_base_len("a.b/c", 5), 5);   /* a dot before the last '/' is not an extension */
    CHECK_EQ_INT(asmstore_name_base_len(".dll", 4), 0);
    CHECK_EQ_INT(asmstore_name_base_len("x.", 2), 1);
}

static void test_result_strings(void) {
    int v;
    CHECK(ASMSTORE_RESULT_MIN <= -31);
    for (v = 0; v >= ASMSTORE_RESULT_MIN; v--) CHECK(strcmp(asmstore_result_string((asmstore_result)v), "?") != 0);
    CHECK(strcmp(asmstore_result_string((asmstore_result)(ASMSTORE_RESULT_MIN - 1)), "?") == 0);
    CHECK(strcmp(asmstore_result_string((asmstore_result)5), "?") == 0);
    CHECK_EQ_INT(asmstore_abi_parse("arm64-v8a"), ASMSTORE_ABI_ARM64);
    CHECK_EQ_INT(asmstore_abi_parse("armeabi-v7a"), ASMSTORE_ABI_ARM);
    CHECK_EQ_INT(asmstore_abi_parse("x86"), ASMSTORE_ABI_X86);
    CHECK_EQ_INT(asmstore_abi_parse("mips"), ASMSTORE_ABI_UNKNOWN);
}

/* The library facts the CLI asks instead of restating: 64-bit ABIs, the host, the level ranges. */
static void test_library_facts(void) {
    CHECK_EQ_INT(asmstore_abi_is_64bit(ASMSTORE_ABI_ARM64), 1);
    CHECK_EQ_INT(asmstore_abi_is_64bit(ASMSTORE_ABI_X86_64), 1);
    CHECK_EQ_INT(asmstore_abi_is_64bit(ASMSTORE_ABI_ARM), 0);
    CHECK_EQ_INT(asmstore_abi_is_64bit(ASMSTORE_ABI_X86), 0);
    CHECK_EQ_INT(asmstore_abi_is_64bit(ASMSTORE_ABI_UNKNOWN), 0);
    CHECK_EQ_INT(asmstore_abi_is_64bit((asmstore_abi)9), 0);
#if defined(__x86_64__)
    CHECK_EQ_INT(asmstore_host_abi(), ASMSTORE_ABI_X86_64);
#elif defined(__aarch64__)
    CHECK_EQ_INT(asmstore_host_abi(), ASMSTORE_ABI_ARM64);
#endif
    if (asmstore_host_abi() != ASMSTORE_ABI_UNKNOWN) /* s390x and other non-Android CPUs have none */
        CHECK_EQ_INT(asmstore_abi_is_64bit(asmstore_host_abi()), sizeof(void *) == 8);
    CHECK_EQ_INT(asmstore_compression_level_max(ASMSTORE_COMPRESSION_ZSTD), 22);
    CHECK_EQ_INT(asmstore_compression_level_max(ASMSTORE_COMPRESSION_LZ4), 12);
    CHECK_EQ_INT(asmstore_compression_level_max(ASMSTORE_COMPRESSION_NONE), 0);
    CHECK_EQ_INT(asmstore_compression_level_default(ASMSTORE_COMPRESSION_ZSTD), 3);
    CHECK_EQ_INT(asmstore_compression_level_default(ASMSTORE_COMPRESSION_LZ4), 12);
    CHECK_EQ_INT(asmstore_compression_level_default(ASMSTORE_COMPRESSION_NONE), 0);
    CHECK_EQ_INT(asmstore_compression_level_max((asmstore_compression)7), 0);
}

/* ---- hardening: what a hostile store or a caller-edited entry can make the reader do ---- */

/* read() takes only the index from the entry: widened sizes or moved pointers change nothing. */
static void test_edited_entry_cannot_widen_read(void) {
    built b = build_store(3, ASMSTORE_ABI_ARM64, ASMSTORE_RUNTIME_MONOVM, 1, 3);
    asmstore_reader r;
    asmstore_entry e, z;
    unsigned char *small;
    CHECK_EQ_INT(asmstore_reader_init(&r, b.data, b.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "App.dll", 7, &e, NULL), ASMSTORE_OK); /* stored uncompressed, 5000 bytes */
    CHECK_EQ_INT(e.compression, ASMSTORE_COMPRESSION_NONE);
    small = (unsigned char *)malloc(e.uncompressed_size); /* exactly what the store says: ASan watches the end */
    e.image_size = 100000; e.uncompressed_size = 10;
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, small, 5000, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_entry_check(&r, &e, NULL), ASMSTORE_ERR_INVALID_ARG);
    /* an entry pointed at the store's last 4 bytes and called zstd: read still uses the descriptor */
    CHECK_EQ_INT(asmstore_reader_find(&r, "System.Runtime", 14, &z, NULL), ASMSTORE_OK);
    z.image = (const unsigned char *)b.data + b.size - 4; z.image_size = 4; z.compression = ASMSTORE_COMPRESSION_ZSTD;
    {
        unsigned char *buf = (unsigned char *)malloc(20000);
        CHECK_EQ_INT(asmstore_reader_read(&r, &z, buf, 20000, NULL, NULL), ASMSTORE_OK);
        free(buf);
    }
    z.index = r.entry_count; /* an index the store does not have */
    CHECK_EQ_INT(asmstore_reader_read(&r, &z, small, 5000, NULL, NULL), ASMSTORE_ERR_INVALID_ARG);
    free(small);
    free(b.data);
}

/* 1000 descriptors sharing one frame (a small store declaring far more than it holds) are refused at
   open, quickly; so is a sum of declared sizes over the caller's limit. */
static void test_amplification_refused(void) {
    enum { N = 1000 };
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_reader r;
    asmstore_read_options ro;
    const void *d;
    size_t n, i;
    unsigned char *p, *img = make_bytes(4096, 7);
    clock_t t0;
    memset(&o, 0, sizeof o);
    o.format = 3; o.jobs = 1;
    CHECK_EQ_INT(asmstore_writer_create(&w, &o, NULL), ASMSTORE_OK);
    for (i = 0; i < N; i++) {
        char name[32];
        snprintf(name, sizeof name, "A%04u.dll", (unsigned)i);
        CHECK_EQ_INT(test_add(w, name, img, 4096, 0), ASMSTORE_OK);
    }
    CHECK_EQ_INT(asmstore_writer_finish(w, &d, &n, NULL), ASMSTORE_OK);
    p = (unsigned char *)malloc(n);
    memcpy(p, d, n);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, n, NULL, NULL), ASMSTORE_OK);
    memset(&ro, 0, sizeof ro);
    ro.max_total_size = (uint64_t)N * 4096 - 1; /* one byte short of what the images declare */
    CHECK_EQ_INT(asmstore_reader_init(&r, p, n, &ro, NULL), ASMSTORE_ERR_TOO_LARGE);
    ro.max_total_size = (uint64_t)N * 4096;
    CHECK_EQ_INT(asmstore_reader_init(&r, p, n, &ro, NULL), ASMSTORE_OK);
    /* every descriptor now points at descriptor 0's frame */
    for (i = 1; i < N; i++) {
        unsigned char *di = p + r.descriptors_offset + i * ASMSTORE_DESCRIPTOR_SIZE, *d0 = p + r.descriptors_offset;
        memcpy(di + 4, d0 + 4, 8);
    }
    t0 = clock();
    CHECK_EQ_INT(asmstore_reader_init(&r, p, n, NULL, NULL), ASMSTORE_ERR_OVERLAP);
    printf("  1000 descriptors on one frame refused in %.3f ms of CPU\n", 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(p); free(img);
    asmstore_writer_free(w);
}

/* Names must be UTF-8: overlong, surrogate and stray bytes each give ASMSTORE_ERR_NAME_NOT_UTF8. */
static void test_names_must_be_utf8(void) {
    static const unsigned char bad[][2] = {{0xC0, 0xAE}, {0xED, 0xA0}, {0xFF, 'x'}, {0x80, 'x'}};
    size_t k;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        built b = build_store(3, ASMSTORE_ABI_ARM64, ASMSTORE_RUNTIME_MONOVM, 1, 1);
        asmstore_reader r;
        asmstore_error err;
        unsigned char *p = (unsigned char *)b.data;
        size_t off = 20u + 2u * NFIX * 13u + NFIX * 28u; /* format 3: first name record */
        CHECK(memcmp(p + off + 4, "System.Runtime.dll", 18) == 0);
        p[off + 4 + 6] = bad[k][0]; p[off + 4 + 7] = bad[k][1];
        CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, NULL, &err), ASMSTORE_ERR_NAME_NOT_UTF8);
        CHECK_EQ_INT((int)err.offset, (int)off);
        free(b.data);
    }
}

/* ---- layouts: any order without overlap ---- */

/* A store of n stored images of 8 bytes each, back to back (format 3, arm64); NULL on failure.
   *desc: where the descriptors start. */
static unsigned char *layout_store(size_t n, size_t *size, size_t *desc) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_reader r;
    const void *d;
    unsigned char *p = NULL;
    size_t i;
    memset(&o, 0, sizeof o);
    o.format = 3; o.jobs = 1;
    o.no_compress = 1; o.image_alignment = 1;
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return NULL;
    for (i = 0; i < n; i++) {
        char name[32];
        unsigned char img[8];
        snprintf(name, sizeof name, "L%06u.dll", (unsigned)i);
        memcpy(img, "img", 3); wr32(img + 4, (uint32_t)i);
        img[3] = (unsigned char)'0' + (unsigned char)(i % 10);
        if (test_add(w, name, img, sizeof img, 0) != ASMSTORE_OK) break;
    }
    if (i == n && asmstore_writer_finish(w, &d, size, NULL) == ASMSTORE_OK &&
        asmstore_reader_init(&r, d, *size, NULL, NULL) == ASMSTORE_OK) {
        p = (unsigned char *)malloc(*size);
        memcpy(p, d, *size);
        *desc = r.descriptors_offset;
    }
    asmstore_writer_free(w);
    return p;
}

/* Descriptor i's image offset (format 3: after the mapping index). */
static unsigned char *image_off_field(unsigned char *p, size_t desc, size_t i) {
    return p + desc + i * ASMSTORE_DESCRIPTOR_SIZE + 4;
}

/* The images of p placed in reverse descriptor order (image i where image n-1-i was), the bytes
   moved with them: a valid store no writer makes. */
static void reverse_layout(unsigned char *p, size_t size, size_t desc, size_t n) {
    unsigned char *copy = (unsigned char *)malloc(size);
    size_t i;
    memcpy(copy, p, size);
    for (i = 0; i < n; i++) {
        uint32_t from = rd32(copy + desc + i * ASMSTORE_DESCRIPTOR_SIZE + 4);
        uint32_t to = rd32(copy + desc + (n - 1 - i) * ASMSTORE_DESCRIPTOR_SIZE + 4);
        memcpy(p + to, copy + from, 8);
        wr32(image_off_field(p, desc, i), to);
    }
    free(copy);
}

/* Images in reverse descriptor order are what runtimes accept: init opens the store and every
   entry reads its own bytes; before 0.7 this was ASMSTORE_ERR_OVERLAP ("out of descriptor
   order"). An image moved into another's bytes is refused, naming both entries. */
static void test_layout_any_order(void) {
    enum { N = 6 };
    size_t size = 0, desc = 0, i;
    unsigned char *p = layout_store(N, &size, &desc);
    asmstore_reader r;
    asmstore_error err;
    CHECK(p != NULL);
    if (!p) return;
    reverse_layout(p, size, desc, N);
    CHECK(rd32(image_off_field(p, desc, 0)) > rd32(image_off_field(p, desc, N - 1)));
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, NULL, &err), ASMSTORE_OK);
    for (i = 0; i < N; i++) {
        asmstore_entry e;
        unsigned char buf[8];
        CHECK_EQ_INT(asmstore_reader_entry(&r, (uint32_t)i, &e, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, sizeof buf, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(rd32(buf + 4), i);
    }
    CHECK_EQ_INT(r.data_offset, rd32(image_off_field(p, desc, N - 1)));
    /* entry 4's image now starts inside entry 1's */
    wr32(image_off_field(p, desc, 4), rd32(image_off_field(p, desc, 1)) + 3);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, NULL, &err), ASMSTORE_ERR_OVERLAP);
    CHECK_EQ_INT(err.entry, 4);
    CHECK_EQ_INT(err.other_entry, 1);
    CHECK_EQ_INT(err.offset, desc + 4 * ASMSTORE_DESCRIPTOR_SIZE);
    CHECK(err.message && strcmp(err.message, "image overlaps the image of other_entry") == 0);
    free(p);
}

/* A pdb laid over another entry's image, in descriptor order otherwise: both named, and what. */
static void test_layout_pdb_overlap(void) {
    built b = build_store(3, ASMSTORE_ABI_ARM64, ASMSTORE_RUNTIME_MONOVM, 1, 1);
    unsigned char *p = (unsigned char *)b.data;
    asmstore_reader r;
    asmstore_error err;
    size_t desc;
    CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, NULL, NULL), ASMSTORE_OK);
    desc = r.descriptors_offset;
    CHECK(rd32(p + desc + 3 * ASMSTORE_DESCRIPTOR_SIZE + 16) != 0); /* App.dll has a pdb */
    wr32(p + desc + 3 * ASMSTORE_DESCRIPTOR_SIZE + 12, rd32(p + desc + ASMSTORE_DESCRIPTOR_SIZE + 4));
    CHECK_EQ_INT(asmstore_reader_init(&r, p, b.size, NULL, &err), ASMSTORE_ERR_OVERLAP);
    CHECK_EQ_INT(err.entry, 3);
    CHECK_EQ_INT(err.other_entry, 1);
    CHECK(err.message && strcmp(err.message, "pdb overlaps the image of other_entry") == 0);
    free(b.data);
}

/* 100,000 descriptors (300,000 would-be ranges' worth of work): reversed, accepted; one pair made
   to overlap in the middle, refused naming that pair; every descriptor on one frame, refused.
   Correctness only: the bound is O(n log n), a heapsort. */
static void test_layout_100000(void) {
    enum { N = 100000 };
    size_t size = 0, desc = 0, i;
    unsigned char *p = layout_store(N, &size, &desc);
    asmstore_reader r;
    asmstore_error err;
    asmstore_entry e;
    unsigned char buf[8];
    CHECK(p != NULL);
    if (!p) return;
    reverse_layout(p, size, desc, N);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, NULL, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_entry(&r, 54321, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_read(&r, &e, buf, sizeof buf, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(rd32(buf + 4), 54321);
    wr32(image_off_field(p, desc, 70000), rd32(image_off_field(p, desc, 30000)) + 7);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, NULL, &err), ASMSTORE_ERR_OVERLAP);
    CHECK_EQ_INT(err.entry, 70000);
    CHECK_EQ_INT(err.other_entry, 30000);
    for (i = 0; i < N; i++) wr32(image_off_field(p, desc, i), rd32(image_off_field(p, desc, N - 1)));
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, NULL, &err), ASMSTORE_ERR_OVERLAP);
    CHECK_EQ_INT(err.entry, 1);
    CHECK_EQ_INT(err.other_entry, 0);
    free(p);
}

/* The scratch comes from read_options.allocator; without memory init says so. */
static void *no_memory(void *user, size_t size) { (void)user; (void)size; return NULL; }
static void test_layout_scratch_allocator(void) {
    size_t size = 0, desc = 0;
    unsigned char *p = layout_store(4, &size, &desc);
    asmstore_reader r;
    asmstore_read_options ro;
    CHECK(p != NULL);
    if (!p) return;
    memset(&ro, 0, sizeof ro);
    ro.allocator.alloc = no_memory;
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, &ro, NULL), ASMSTORE_OK); /* in order: none */
    reverse_layout(p, size, desc, 4);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, &ro, NULL), ASMSTORE_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(asmstore_reader_init(&r, p, size, NULL, NULL), ASMSTORE_OK);
    free(p);
}

/* ---- image check ---- */

/* asmstore_image_check's verdict on p with byte `at` (4 bytes, little-endian) set to v. */
static asmstore_result pe_with(const unsigned char *pe, size_t n, size_t at, uint32_t v,
                               asmstore_error *err) {
    unsigned char *c = (unsigned char *)malloc(n);
    asmstore_result res;
    memcpy(c, pe, n);
    wr32(c + at, v);
    res = asmstore_image_check(ASMSTORE_IMAGE_ASSEMBLY, c, n, err);
    free(c);
    return res;
}

/* make_pe passes; each field it depends on, broken, is refused with ASMSTORE_ERR_BAD_IMAGE and a
   message naming it; so are a 1-byte image and every truncation. */
static void test_image_check_pe(void) {
    static const struct { size_t at; uint32_t v; const char *says; } broken[] = {
        {0, 0x905a4e, "\"MZ\""},                       /* "NZ" */
        {0x3c, 0x7fffffff, "e_lfanew"},
        {0x40, 0x4551, "\"PE\\0\\0\""},               /* "QE\0\0" */
        {0x54, 0x21020010, "optional header too short"}, /* SizeOfOptionalHeader 16 */
        {0x54, 0x2102ffff, "optional header runs past"},
        {0x58, 0x10c, "magic"},
        {0x58 + 92, 14, "15 data directories"},       /* NumberOfRvaAndSizes 14 */
        {0x44, 0x7fff014c, "section table"},          /* 32767 sections */
        {0x138 + 16, 0x100000, "section's file bytes"},
        {0x58 + 96 + 8 * 14, 0, "no CLI header"},
        {0x58 + 96 + 8 * 14, 0x9000, "CLI header not in a section"},
        {0x200, 71, "cb under 72"},
        {0x208, 0x1000, "metadata range"},
        {0x20c, 0x7fffff, "metadata range"},
        {0x248, 0x424a5343, "\"BSJB\""},
        {0x254, 13, "version string"},
    };
    size_t n = 3000, i;
    unsigned char *pe = make_pe(n, 3);
    asmstore_pe parsed;
    asmstore_error err;
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_ASSEMBLY, pe, n, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_pe_parse(&parsed, pe, n, &err), ASMSTORE_OK);
    CHECK(parsed.cli_header == pe + 0x200 && parsed.metadata == pe + 0x248 && !parsed.pe32_plus);
    CHECK(asmstore_pe_at_rva(&parsed, 0x2000 + (uint32_t)n - 0x200, 1) == NULL);
    CHECK(asmstore_pe_at_rva(&parsed, 0x2000 + (uint32_t)n - 0x201, 1) == pe + n - 1);
    for (i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        memset(&err, 0, sizeof err);
        CHECK_EQ_INT(pe_with(pe, n, broken[i].at, broken[i].v, &err), ASMSTORE_ERR_BAD_IMAGE);
        if (!err.message || !strstr(err.message, broken[i].says))
            fprintf(stderr, "  case %u: %s\n", (unsigned)i, err.message ? err.message : "(none)");
        CHECK(err.message && strstr(err.message, broken[i].says));
    }
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_ASSEMBLY, "M", 1, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK_EQ_INT(err.offset, 0);
    for (i = 0; i < n; i++)
        if (asmstore_image_check(ASMSTORE_IMAGE_ASSEMBLY, pe, i, &err) != ASMSTORE_ERR_BAD_IMAGE || err.offset > i) break;
    CHECK_EQ_INT(i, n); /* every truncation refused, at an offset inside what is left */
    free(pe);
}

/* Real assemblies pass: Mono's framework and the .NET shared framework, where installed. */
static void test_image_check_real(void) {
    const char *dirs[] = {"/usr/lib/mono/4.5", "/usr/lib/mono/4.5/Facades", "build/runtime-net11"};
    size_t k, checked = 0;
    for (k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
        char cmd[512], path[1024];
        FILE *ls;
        snprintf(cmd, sizeof cmd, "ls %s/*.dll 2>/dev/null", dirs[k]);
        if (!(ls = popen(cmd, "r"))) continue;
        while (fgets(path, sizeof path, ls)) {
            void *d = NULL;
            size_t n = 0;
            asmstore_error err;
            path[strcspn(path, "\n")] = 0;
            if (asmstore_read_file(path, NULL, &d, &n, NULL) != ASMSTORE_OK) continue;
            if (asmstore_image_check(ASMSTORE_IMAGE_ASSEMBLY, d, n, &err) != ASMSTORE_OK)
                fprintf(stderr, "  %s: %s at %llu\n", path, err.message, (unsigned long long)err.offset);
            else
                checked++;
            CHECK_EQ_INT(err.result == ASMSTORE_ERR_BAD_IMAGE && err.message, 0);
            asmstore_free(NULL, d, n);
            memset(&err, 0, sizeof err);
        }
        pclose(ls);
    }
    if (!checked) SKIP("no Mono 4.5 or build/runtime-net11 assemblies here");
    printf("  %u real assemblies pass\n", (unsigned)checked);
}

/* PDBs: a Portable PDB passes, a Windows PDB (MSF 7.00) too; random bytes and a Windows PDB whose
   blocks do not cover it do not. Configs: XML text after a BOM and white space, one last NUL. */
static void test_image_check_pdb_config(void) {
    static const char msf[32] = "Microsoft C/C++ MSF 7.00\r\n\x1a" "DS\0\0";
    unsigned char *pdb = make_pdb(500, 1), win[4096], *rnd = make_bytes(500, 2);
    static const char *good[] = {"<configuration/>", "\xEF\xBB\xBF <?xml version=\"1.0\"?><a/>",
                                 "\r\n\t<configuration></configuration>\n"};
    asmstore_error err;
    size_t i;
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_PDB, pdb, 500, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_PDB, pdb, 30, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "Portable PDB") != NULL);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_PDB, "BSJB[", 5, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK_EQ_INT(err.offset, 0); /* fuzz/regress/image/short-pdb-root: the offset was 12 */
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_PDB, rnd, 500, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "neither a Portable PDB") != NULL);
    memset(win, 0, sizeof win);
    memcpy(win, msf, sizeof msf);
    wr32(win + 32, 1024); wr32(win + 40, 4);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_PDB, win, sizeof win, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_PDB, win, 3000, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "Windows PDB") != NULL);
    for (i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_CONFIG, good[i], strlen(good[i]), &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_CONFIG, "<a/>", 5, &err), ASMSTORE_OK); /* format 1's NUL */
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_CONFIG, "<a\0/>", 5, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK_EQ_INT(err.offset, 2);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_CONFIG, "config", 6, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "not XML") != NULL);
    CHECK_EQ_INT(asmstore_image_check(ASMSTORE_IMAGE_CONFIG, "", 0, &err), ASMSTORE_ERR_BAD_IMAGE);
    free(pdb); free(rnd);
}

/* An entry: image, pdb, config each checked, err->entry naming it; placeholders pass. */
static void test_image_check_entry(void) {
    unsigned char *pe = make_pe(1000, 4), *pdb = make_pdb(100, 5);
    asmstore_entry e;
    asmstore_error err;
    asmstore_image_kind part = ASMSTORE_IMAGE_CONFIG;
    memset(&e, 0, sizeof e);
    e.index = 9;
    CHECK_EQ_INT(asmstore_image_check_entry(&e, pe, 1000, &part, &err), ASMSTORE_OK);
    e.pdb = pdb; e.pdb_size = 100;
    e.config = (const unsigned char *)"<c/>"; e.config_size = 4;
    CHECK_EQ_INT(asmstore_image_check_entry(&e, pe, 1000, &part, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_image_check_entry(&e, pe, 999, &part, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK_EQ_INT(err.entry, 9);
    CHECK_EQ_INT(part, ASMSTORE_IMAGE_ASSEMBLY);
    e.pdb_size = 10;
    CHECK_EQ_INT(asmstore_image_check_entry(&e, pe, 1000, &part, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "PDB") != NULL);
    CHECK_EQ_INT(part, ASMSTORE_IMAGE_PDB);
    e.pdb_size = 100;
    e.config = (const unsigned char *)"c/>"; e.config_size = 3;
    CHECK_EQ_INT(asmstore_image_check_entry(&e, pe, 1000, &part, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "config") != NULL);
    CHECK_EQ_INT(part, ASMSTORE_IMAGE_CONFIG);
    e.ignored = 1;
    CHECK_EQ_INT(asmstore_image_check_entry(&e, NULL, 0, NULL, &err), ASMSTORE_OK);
    free(pe); free(pdb);
}

/* asmstore_pe_identity on a real assembly (Mono's Accessibility.dll: its name, version, key and
   MVID as System.Reflection.Metadata reads them; t_identity.sh compares whole corpora), then on
   make_pe's root with no streams, then on every cut of the metadata and every flipped byte of
   the #~ header and the Assembly row: BAD_IMAGE or fields inside the image, never a read outside
   (the ASan build runs this too). */
static void test_pe_identity(void) {
    static const unsigned char mvid[16] = {0x86, 0x26, 0x02, 0xa9, 0x88, 0x5e, 0xd9, 0x41, /* a9022686-5e88- */
                                           0x9e, 0x3f, 0xf7, 0x0b, 0x83, 0xd3, 0x56, 0x83}; /* 41d9-9e3f-... */
    unsigned char *d = NULL, *pe0 = make_pe(PE_MIN_SIZE, 1);
    size_t n = 0, i, md_at, checked = 0;
    asmstore_pe pe;
    asmstore_identity id;
    asmstore_error err;

    CHECK_EQ_INT(asmstore_pe_parse(&pe, pe0, PE_MIN_SIZE, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_pe_identity(&pe, &id, &err), ASMSTORE_ERR_BAD_IMAGE);
    CHECK(strstr(err.message, "#~") != NULL);
    CHECK_EQ_INT(asmstore_pe_identity(NULL, &id, &err), ASMSTORE_ERR_INVALID_ARG);
    free(pe0);
    if (asmstore_read_file("/usr/lib/mono/4.5/Accessibility.dll", NULL, (void **)&d, &n, NULL) !=
        ASMSTORE_OK)
        SKIP("no /usr/lib/mono/4.5/Accessibility.dll (Debian: mono-devel)");
    CHECK_EQ_INT(asmstore_pe_parse(&pe, d, n, &err), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_pe_identity(&pe, &id, &err), ASMSTORE_OK);
    CHECK(id.has_assembly && id.name_len == 13 && memcmp(id.name, "Accessibility", 13) == 0);
    CHECK(id.version[0] == 4 && id.version[1] == 0 && id.version[2] == 0 && id.version[3] == 0);
    CHECK(id.culture_len == 0 && id.public_key_size == 160 && (id.flags & 1u));
    CHECK(memcmp(id.mvid, mvid, 16) == 0);
    CHECK(!id.has_codeview && !id.pdb_checksum_algorithm);
    md_at = (size_t)(pe.metadata - d);
    for (i = md_at; i < md_at + pe.metadata_size; i++) { /* every cut inside the metadata */
        asmstore_pe cut = pe;
        cut.metadata_size = (uint32_t)(i - md_at);
        if (cut.metadata_size < 20u + asmstore__rd32(d + md_at + 12)) continue; /* parse refuses */
        if (asmstore_pe_identity(&cut, &id, &err) == ASMSTORE_OK)
            CHECK((const unsigned char *)id.name >= d && (const unsigned char *)id.name + id.name_len <= d + n);
        checked++;
    }
    for (i = md_at; i < md_at + 512 && i < n; i++) { /* every byte of the root, streams, #~ */
        unsigned char was = d[i];
        d[i] = (unsigned char)(was ^ 0xFF);
        if (asmstore_pe_parse(&pe, d, n, &err) == ASMSTORE_OK &&
            asmstore_pe_identity(&pe, &id, &err) == ASMSTORE_OK && id.has_assembly)
            CHECK((const unsigned char *)id.name >= d && (const unsigned char *)id.name + id.name_len < d + n);
        d[i] = was;
    }
    CHECK(checked > 1000);
    asmstore_free(NULL, d, n);
}

int main(void) {
    RUN(test_hash_vectors);
    RUN(test_hash_vs_xxhsum);
    RUN(test_roundtrip_all_profiles);
    RUN(test_corruption_classes);
    RUN(test_every_truncation);
    RUN(test_hash_collision_never_wrong_image);
    RUN(test_read_errors);
    RUN(test_hash_detection_32bit_v4);
    RUN(test_lz4_store_without_callback);
    RUN(test_lz4_decode);
    RUN(test_name_base_len);
    RUN(test_exact_name_wins);
    RUN(test_lower_bound_any_spread);
    RUN(test_find_index);
    RUN(test_find_gives_hash);
    RUN(test_name_table_at_init);
    RUN(test_expected_layout);
    RUN(test_empty_image_roundtrip);
    RUN(test_decompression_bomb);
    RUN(test_result_strings);
    RUN(test_library_facts);
    RUN(test_edited_entry_cannot_widen_read);
    RUN(test_amplification_refused);
    RUN(test_names_must_be_utf8);
    RUN(test_layout_any_order);
    RUN(test_layout_pdb_overlap);
    RUN(test_layout_100000);
    RUN(test_layout_scratch_allocator);
    RUN(test_image_check_pe);
    RUN(test_image_check_real);
    RUN(test_image_check_pdb_config);
    RUN(test_image_check_entry);
    RUN(test_pe_identity);
    return TEST_DONE();
}
