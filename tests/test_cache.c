/* tests/test_cache.c - asmstore_cache.h on real files, real threads and real processes: miss -> file
   -> hit, every corruption of a cache file, files others could write, stale v2/v3 data, storage
   faults (read-only and full filesystems in a private mount namespace, RLIMIT_FSIZE), a writer
   killed mid-write, 8 processes racing on one cache directory, the disable switches, the queue
   bound, prune. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../asmstore_cache.h"
#include "test.h"
#include "cache_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

static const char *mono_dirs[2] = {"/usr/lib/mono/4.5", "/usr/lib/mono/4.5/Facades"};

/* Loads every entry through c; returns how many came back wrong. Adds the sources seen. */
static int load_all(asmstore_cache *c, const cu_store *s, int *hits, int *misses, int *direct) {
    size_t i;
    int bad = 0;
    for (i = 0; i < s->n; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        asmstore_result res;
        if (asmstore_reader_entry(&s->r, (uint32_t)i, &e, NULL) != ASMSTORE_OK) { bad++; continue; }
        res = asmstore_cache_get(c, &e, &img, NULL);
        if (res != ASMSTORE_OK) { fprintf(stderr, "  get %zu: %s\n", i, asmstore_result_string(res)); bad++; continue; }
        if (img.size != s->src_size[i] || (img.size && memcmp(img.data, s->src[i], img.size) != 0)) {
            fprintf(stderr, "  entry %zu: wrong bytes (source %d)\n", i, (int)img.source);
            bad++;
        }
        if (img.source == ASMSTORE_CACHE_HIT && hits) (*hits)++;
        if (img.source == ASMSTORE_CACHE_MISS && misses) (*misses)++;
        if (img.source == ASMSTORE_CACHE_DIRECT && direct) (*direct)++;
        asmstore_cache_release(&img);
    }
    return bad;
}

/* Opens, loads everything, flushes, closes; returns wrong entries, fills the counters. */
static int run_once(const char *root, const cu_store *s, const asmstore_cache_options *o, asmstore_cache_counters *n,
                    int *hits, int *misses) {
    asmstore_cache *c = NULL;
    int bad;
    if (asmstore_cache_open(&c, root, &s->r, o, NULL) != ASMSTORE_OK) return 1000;
    bad = load_all(c, s, hits, misses, NULL);
    asmstore_cache_flush(c);
    if (n) asmstore_cache_stats(c, n);
    asmstore_cache_close(c);
    return bad;
}

static const size_t small_sizes[] = {5000, 70000, 300, 150000, 24000, 9000};

/* ------------------------------------------------------------------------------------------ */
static void test_miss_persist_hit_mono(void) {
    cu_store s;
    char *root = cu_tmpdir(), path[4096], real[4096], dir[4096];
    asmstore_cache *c = NULL;
    asmstore_cache_counters n;
    int hits = 0, misses = 0, rc;
    size_t i, compressed = 0;
    struct stat st;
    rc = cu_from_dirs(&s, 4, mono_dirs, 1, 12);
    if (rc == 1) { cu_rmrf(root); free(root); SKIP("/usr/lib/mono/4.5 has no .dll files"); }
    CHECK(rc == 0);
    if (rc != 0) { cu_free(&s); cu_rmrf(root); free(root); return; }
    for (i = 0; i < s.n; i++) { asmstore_entry e; asmstore_reader_entry(&s.r, (uint32_t)i, &e, NULL); compressed += e.compression != ASMSTORE_COMPRESSION_NONE; }
    CHECK(compressed > 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, &hits, &misses), 0);
    CHECK_EQ_INT(misses, compressed);
    CHECK_EQ_INT(hits, 0);
    CHECK_EQ_INT(n.entries_written, compressed);
    CHECK_EQ_INT(n.write_failures, 0);
    CHECK(n.enabled && n.writes_enabled);
    CHECK(n.store_id == s.r.content_id);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    CHECK_EQ_INT(cu_count_names(dir, ".tmp."), 0);
    /* second run: every compressed entry a hit, mapped from its file */
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    for (i = 0; i < s.n; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        asmstore_reader_entry(&s.r, (uint32_t)i, &e, NULL);
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK);
        CHECK(img.size == s.src_size[i] && memcmp(img.data, s.src[i], img.size) == 0);
        if (e.compression == ASMSTORE_COMPRESSION_NONE) { CHECK(img.source == ASMSTORE_CACHE_DIRECT); asmstore_cache_release(&img); continue; }
        CHECK(img.source == ASMSTORE_CACHE_HIT);
        CHECK(img.writable);
        cu_entry_path(path, sizeof path, root, s.r.content_id, (uint32_t)i);
        CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 && (size_t)st.st_size == img.size + ASMSTORE_CACHE_FOOTER_SIZE);
        /* the mapping is file-backed: /proc/self/maps names the cache file at img.data */
        if (realpath(path, real)) {
            FILE *f = fopen("/proc/self/maps", "r");
            char line[8192];
            int found = 0;
            while (f && fgets(line, sizeof line, f)) {
                unsigned long lo, hi;
                if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (unsigned long)(uintptr_t)img.data == lo && strstr(line, real)) found = 1;
            }
            if (f) fclose(f);
            CHECK(found);
        }
        /* MAP_PRIVATE: writing the image changes neither the file nor a second hit */
        ((unsigned char *)(uintptr_t)img.data)[0] ^= 0xFF;
        {
            asmstore_cache_image again;
            CHECK(asmstore_cache_get(c, &e, &again, NULL) == ASMSTORE_OK && again.source == ASMSTORE_CACHE_HIT);
            CHECK(again.size == s.src_size[i] && memcmp(again.data, s.src[i], again.size) == 0);
            asmstore_cache_release(&again);
        }
        asmstore_cache_release(&img);
        CHECK(img.data == NULL && img.source == ASMSTORE_CACHE_NONE);
    }
    asmstore_cache_stats(c, &n);
    CHECK_EQ_INT(n.misses, 0);
    CHECK_EQ_INT(n.hits, 2 * compressed);
    CHECK_EQ_INT(n.entries_written, 0);
    asmstore_cache_close(c);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

static void test_direct_uncompressed(void) {
    cu_store s;
    asmstore_writer *w = cu_writer(4, 1);
    unsigned char buf[3000];
    char *root = cu_tmpdir(), dir[4096];
    asmstore_cache *c = NULL;
    int direct = 0;
    memset(&s, 0, sizeof s);
    cu_fill(buf, sizeof buf, 7, 1);
    CHECK(cu_add(w, &s, "Plain.dll", buf, sizeof buf) == 0);
    CHECK(cu_finish(w, &s) == 0);
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    CHECK_EQ_INT(load_all(c, &s, NULL, NULL, &direct), 0);
    CHECK_EQ_INT(direct, 1);
    {
        asmstore_entry e;
        asmstore_cache_image img;
        asmstore_reader_entry(&s.r, 0, &e, NULL);
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK);
        CHECK(img.data == e.image && !img.writable);
        asmstore_cache_release(&img);
    }
    asmstore_cache_flush(c);
    asmstore_cache_close(c);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    CHECK_EQ_INT(cu_count_names(dir, ".bin"), 0);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* A caller's entry whose index and image disagree never reaches a file name. */
static void test_entry_checked(void) {
    cu_store s;
    char *root = cu_tmpdir();
    asmstore_cache *c = NULL, *c2 = NULL;
    asmstore_entry e0, e1;
    asmstore_cache_image img;
    asmstore_cache_options bad;
    asmstore_error err;
    memset(&bad, 0, sizeof bad);
    bad.min_alignment = 3;
    CHECK(cu_synthetic(&s, 4, 2, small_sizes, 2, 11) == 0);
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    asmstore_reader_entry(&s.r, 0, &e0, NULL);
    asmstore_reader_entry(&s.r, 1, &e1, NULL);
    e0.image = e1.image;
    CHECK(asmstore_cache_get(c, &e0, &img, NULL) == ASMSTORE_ERR_INVALID_ARG && img.data == NULL);
    e1.index = 7;
    CHECK(asmstore_cache_get(c, &e1, &img, NULL) == ASMSTORE_ERR_INVALID_ARG);
    asmstore_reader_entry(&s.r, 1, &e1, NULL);
    e1.uncompressed_size += 1;
    CHECK(asmstore_cache_get(c, &e1, &img, NULL) == ASMSTORE_ERR_INVALID_ARG);
    CHECK(asmstore_cache_get(c, NULL, &img, NULL) == ASMSTORE_ERR_INVALID_ARG);
    memset(&err, 0, sizeof err);
    CHECK(asmstore_cache_get(c, &e1, &img, &err) == ASMSTORE_ERR_INVALID_ARG);
    CHECK(err.result == ASMSTORE_ERR_INVALID_ARG && err.entry == 1 && err.message);
    CHECK(asmstore_cache_prune(root, NULL, 0, NULL, &err) == ASMSTORE_OK);
    CHECK(asmstore_cache_open(&c2, root, &s.r, &bad, &err) == ASMSTORE_ERR_INVALID_ARG && !c2);
    CHECK(err.message && strstr(err.message, "min_alignment"));
    asmstore_cache_close(c);
    asmstore_cache_close(NULL);
    asmstore_cache_release(NULL);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* ---- corruption: each kind is its own test case ------------------------------------------ */
enum { K_PAYLOAD, K_MAGIC, K_VERSION, K_STORE_ID, K_PAYLOAD_HASH, K_INDEX, K_FLAGS, K_SIZE, K_SOURCE,
       K_TRUNCATED, K_EXTENDED, K_OTHER_STORE, K_EMPTY, K_DIRECTORY, K_SYMLINK, K_FIFO, K_OTHER_ENTRY,
       K_WORLD_WRITABLE, K_GROUP_WRITABLE, K_OTHER_OWNER };

static void corruption_case(int kind, uint32_t format) {
    cu_store s;
    char *root = cu_tmpdir(), path[4096], other[4096], elsewhere[4096];
    asmstore_cache_counters n;
    unsigned char *f;
    size_t fs = 0, S;
    uint32_t k = 1; /* a 70000-byte entry */
    uint64_t id;
    int hits = 0, misses = 0;
    if (kind == K_OTHER_OWNER && geteuid() != 0) { cu_rmrf(root); free(root); SKIP("chown to another uid needs root"); }
    CHECK(cu_synthetic(&s, format, 4, small_sizes, 4, 100 + (uint32_t)kind) == 0);
    id = asmstore_cache_store_id(&s.r);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.entries_written, 4);
    cu_entry_path(path, sizeof path, root, id, k);
    f = cu_slurp(path, &fs);
    CHECK(f != NULL);
    if (!f) { cu_free(&s); cu_rmrf(root); free(root); return; }
    S = fs - ASMSTORE_CACHE_FOOTER_SIZE;
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere.bin", root);
    switch (kind) {
    case K_PAYLOAD: f[S / 2] ^= 0x01; break;
    case K_MAGIC: f[S + 0] ^= 0x01; break;
    case K_VERSION: f[S + 4] ^= 0x01; break;
    case K_STORE_ID: f[S + 8] ^= 0x01; break;
    case K_PAYLOAD_HASH: f[S + 16] ^= 0x01; break;
    case K_INDEX: f[S + 24] ^= 0x01; break;
    case K_FLAGS: f[S + 28] ^= 0x01; break;
    case K_SIZE: f[S + 32] ^= 0x01; break;
    case K_SOURCE: f[S + 40] ^= 0x01; break;
    case K_TRUNCATED: fs -= 1; break;
    case K_EXTENDED: f = (unsigned char *)realloc(f, fs + 1); f[fs++] = 0; break;
    case K_OTHER_STORE: {
        /* a genuine file of another store: valid footer, other id */
        uint64_t src = asmstore_xxh3_64(s.r.data, 8);
        asmstore_cache_footer_encode(f + S, id ^ 0x5555u, k, f, S, format < 4 ? &src : NULL);
        break;
    }
    case K_EMPTY: fs = 0; break;
    default: break;
    }
    if (kind == K_DIRECTORY) {
        char inner[4200];
        CHECK(unlink(path) == 0 && mkdir(path, 0700) == 0);
        snprintf(inner, sizeof inner, "%s/junk", path);
        CHECK(cu_spit(inner, "x", 1) == 0);
    } else if (kind == K_SYMLINK) {
        /* a perfectly valid file, but reached through a symlink: never followed */
        CHECK(cu_spit(elsewhere, f, fs) == 0);
        CHECK(unlink(path) == 0 && symlink(elsewhere, path) == 0);
    } else if (kind == K_FIFO) {
        CHECK(unlink(path) == 0 && mkfifo(path, 0600) == 0);
    } else if (kind == K_OTHER_ENTRY) {
        cu_entry_path(other, sizeof other, root, id, 3);
        CHECK(cu_spit(other, f, fs) == 0); /* entry 1's file as entry 3's */
        k = 3;
        cu_entry_path(path, sizeof path, root, id, k);
    } else {
        CHECK(cu_spit(path, f, fs) == 0);
    }
    /* intact bytes, but others could have written them */
    if (kind == K_WORLD_WRITABLE) CHECK(chmod(path, 0666) == 0);
    if (kind == K_GROUP_WRITABLE) CHECK(chmod(path, 0620) == 0);
    if (kind == K_OTHER_OWNER) CHECK(chown(path, 65534, 65534) == 0);
    free(f);
    /* the damaged file is a miss, the bytes are right, and it gets replaced */
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, &hits, &misses), 0);
    CHECK_EQ_INT(misses, 1);
    CHECK_EQ_INT(hits, 3);
    CHECK_EQ_INT(n.rejected, 1);
    CHECK_EQ_INT(n.entries_written, 1);
    CHECK(n.writes_enabled);
    if (kind == K_PAYLOAD || kind == K_PAYLOAD_HASH || (kind == K_SOURCE && format < 4)) CHECK_EQ_INT(n.checksum_failures, 1);
    {
        struct stat st;
        unsigned char *g;
        size_t gs = 0;
        uint64_t src_hash = 0;
        asmstore_entry e;
        CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
        CHECK((st.st_mode & 077) == 0 && st.st_uid == geteuid()); /* the replacement is ours and private */
        g = cu_slurp(path, &gs);
        asmstore_reader_entry(&s.r, k, &e, NULL);
        src_hash = asmstore_xxh3_64(e.image, e.image_size);
        CHECK(g && asmstore_cache_validate_file(g, gs, id, k, s.src_size[k], format < 4 ? &src_hash : NULL, NULL) == ASMSTORE_OK);
        free(g);
    }
    if (kind == K_SYMLINK) {
        /* the symlink's target was not written through */
        struct stat st;
        CHECK(lstat(elsewhere, &st) == 0 && (size_t)st.st_size == s.src_size[k] + ASMSTORE_CACHE_FOOTER_SIZE);
    }
    hits = misses = 0;
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, &hits, &misses), 0);
    CHECK_EQ_INT(hits, 4);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}
static void test_corrupt_payload_byte(void) { corruption_case(K_PAYLOAD, 4); }
static void test_corrupt_footer_magic(void) { corruption_case(K_MAGIC, 4); }
static void test_corrupt_footer_version(void) { corruption_case(K_VERSION, 4); }
static void test_corrupt_footer_store_id(void) { corruption_case(K_STORE_ID, 4); }
static void test_corrupt_footer_payload_hash(void) { corruption_case(K_PAYLOAD_HASH, 4); }
static void test_corrupt_footer_index(void) { corruption_case(K_INDEX, 4); }
static void test_corrupt_footer_flags(void) { corruption_case(K_FLAGS, 4); }
static void test_corrupt_footer_size(void) { corruption_case(K_SIZE, 4); }
static void test_corrupt_footer_source_v4(void) { corruption_case(K_SOURCE, 4); }
static void test_corrupt_footer_source_v3(void) { corruption_case(K_SOURCE, 3); }
static void test_corrupt_payload_v2(void) { corruption_case(K_PAYLOAD, 2); }
static void test_corrupt_truncated(void) { corruption_case(K_TRUNCATED, 4); }
static void test_corrupt_extended(void) { corruption_case(K_EXTENDED, 4); }
static void test_corrupt_other_store_id(void) { corruption_case(K_OTHER_STORE, 4); }
static void test_corrupt_other_store_id_v3(void) { corruption_case(K_OTHER_STORE, 3); }
static void test_corrupt_empty_file(void) { corruption_case(K_EMPTY, 4); }
static void test_corrupt_directory(void) { corruption_case(K_DIRECTORY, 4); }
static void test_corrupt_symlink(void) { corruption_case(K_SYMLINK, 4); }
static void test_corrupt_fifo(void) { corruption_case(K_FIFO, 4); }
static void test_corrupt_other_entry(void) { corruption_case(K_OTHER_ENTRY, 4); }
static void test_reject_world_writable(void) { corruption_case(K_WORLD_WRITABLE, 4); }
static void test_reject_group_writable(void) { corruption_case(K_GROUP_WRITABLE, 3); }
static void test_reject_other_owner(void) { corruption_case(K_OTHER_OWNER, 4); }

/* ---- the pure validator ---------------------------------------------------------------- */
static void test_validate_file(void) {
    unsigned char b[100 + 48];
    uint64_t src = 0x1122334455667788ull, wrong = 1;
    asmstore_error err;
    cu_fill(b, 100, 3, 0);
    asmstore_cache_footer_encode(b + 100, 42, 7, b, 100, NULL);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, NULL, NULL) == ASMSTORE_OK);
    CHECK(b[100] == 0x58 && b[101] == 0x41 && b[102] == 0x43 && b[103] == 0x43); /* "XACC" in file order */
    CHECK(b[100 + 8] == 42 && b[100 + 24] == 7 && b[100 + 32] == 100);         /* little-endian fields */
    CHECK(asmstore_cache_validate_file(b, sizeof b, 43, 7, 100, NULL, NULL) == ASMSTORE_ERR_CORRUPT);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 8, 100, NULL, NULL) == ASMSTORE_ERR_CORRUPT);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 99, NULL, NULL) == ASMSTORE_ERR_SIZE_MISMATCH);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &src, NULL) == ASMSTORE_ERR_CORRUPT);
    CHECK(asmstore_cache_validate_file(b, 47, 42, 7, 100, NULL, NULL) == ASMSTORE_ERR_TRUNCATED);
    CHECK(asmstore_cache_validate_file(NULL, 0, 42, 7, 0, NULL, NULL) == ASMSTORE_ERR_TRUNCATED);
    asmstore_cache_footer_encode(b + 100, 42, 7, b, 100, &src);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &src, NULL) == ASMSTORE_OK);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &wrong, NULL) == ASMSTORE_ERR_CHECKSUM);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, NULL, NULL) == ASMSTORE_ERR_CORRUPT);
    b[5] ^= 1;
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &src, NULL) == ASMSTORE_ERR_CHECKSUM);
    b[100] = 0;
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &src, NULL) == ASMSTORE_ERR_BAD_MAGIC);
    /* the error detail: what was checked, and where in the file */
    memset(&err, 0, sizeof err);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &src, &err) == ASMSTORE_ERR_BAD_MAGIC);
    CHECK(err.result == ASMSTORE_ERR_BAD_MAGIC && err.offset == 100 && err.entry == 7 && err.message);
    asmstore_cache_footer_encode(b + 100, 42, 7, b, 100, &src);
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 8, 100, &src, &err) == ASMSTORE_ERR_CORRUPT);
    CHECK(err.offset == 100 + 24 && err.message && strstr(err.message, "index"));
    CHECK(asmstore_cache_validate_file(b, sizeof b, 42, 7, 100, &wrong, &err) == ASMSTORE_ERR_CHECKSUM);
    CHECK(err.offset == 100 + 40 && strstr(err.message, "source hash"));
}

/* ---- v2/v3: data changed under the same metadata ---------------------------------------- */
/* Two stores with identical metadata (names, sizes) but different bytes: noise of equal length
   compresses to frames of equal length. */
static int twin_stores(cu_store *a, cu_store *b, uint32_t format) {
    size_t i, sz[3] = {40000, 9000, 120000};
    asmstore_writer *wa = cu_writer(format, 0), *wb = cu_writer(format, 0);
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    for (i = 0; i < 3; i++) {
        char name[32];
        unsigned char *x = (unsigned char *)malloc(sz[i]), *y = (unsigned char *)malloc(sz[i]);
        cu_fill(x, sz[i], 500 + (uint32_t)i, 0);
        cu_fill(y, sz[i], 900 + (uint32_t)i, 0);
        snprintf(name, sizeof name, "Twin%zu.dll", i);
        cu_add(wa, a, name, x, sz[i]);
        cu_add(wb, b, name, y, sz[i]);
        free(x);
        free(y);
    }
    if (cu_finish(wa, a) != 0 || cu_finish(wb, b) != 0) return -1;
    if (a->size != b->size || a->r.data_offset != b->r.data_offset || memcmp(a->bytes, b->bytes, a->r.data_offset) != 0) return -1;
    return 0;
}

static void stale_case(uint32_t format) {
    cu_store a, b;
    char *root = cu_tmpdir();
    asmstore_cache_counters n;
    int hits = 0, misses = 0;
    CHECK(twin_stores(&a, &b, format) == 0);
    CHECK(asmstore_cache_store_id(&a.r) == asmstore_cache_store_id(&b.r));
    {   /* every entry really is compressed (else this proves nothing) */
        asmstore_entry e;
        uint32_t i;
        for (i = 0; i < 3; i++) { asmstore_reader_entry(&a.r, i, &e, NULL); CHECK(e.compression == ASMSTORE_COMPRESSION_ZSTD); }
    }
    CHECK_EQ_INT(run_once(root, &a, NULL, &n, &hits, &misses), 0);
    CHECK_EQ_INT(n.entries_written, 3);
    /* store b: same metadata, other data -> never a's images */
    hits = misses = 0;
    CHECK_EQ_INT(run_once(root, &b, NULL, &n, &hits, &misses), 0);
    CHECK_EQ_INT(hits, 0);
    CHECK_EQ_INT(misses, 3);
    CHECK_EQ_INT(n.checksum_failures, 3);
    CHECK_EQ_INT(n.entries_written, 3);
    hits = misses = 0;
    CHECK_EQ_INT(run_once(root, &b, NULL, NULL, &hits, &misses), 0);
    CHECK_EQ_INT(hits, 3);
    /* and back */
    hits = misses = 0;
    CHECK_EQ_INT(run_once(root, &a, NULL, NULL, &hits, &misses), 0);
    CHECK_EQ_INT(misses, 3);
    cu_free(&a);
    cu_free(&b);
    cu_rmrf(root);
    free(root);
}
static void test_stale_data_v3(void) { stale_case(3); }
static void test_stale_data_v2(void) { stale_case(2); }

/* The v2/v3 key is the metadata hash: the whole store is not hashed, the metadata is. */
static void test_store_id_v3(void) {
    cu_store s;
    CHECK(cu_synthetic(&s, 3, 3, small_sizes, 3, 77) == 0);
    CHECK(!s.r.has_content_id);
    {
        uint64_t id = asmstore_cache_store_id(&s.r);
        CHECK(id == asmstore_xxh3_64(s.bytes, s.r.data_offset));
        s.bytes[s.r.data_offset + 20] ^= 0x20;  /* data bytes are not part of the key */
        CHECK(asmstore_cache_store_id(&s.r) == id);
        s.bytes[s.r.names_offset + 4] ^= 0x20;  /* metadata is */
        CHECK(asmstore_cache_store_id(&s.r) != id);
    }
    cu_free(&s);
}

/* ---- switches, bounds, layout hazards ------------------------------------------------------ */
static void test_disable_env_and_option(void) {
    cu_store s;
    char *root = cu_tmpdir(), top[4096];
    asmstore_cache_options o;
    asmstore_cache_counters n;
    int misses = 0, hits = 0;
    struct stat st;
    CHECK(cu_synthetic(&s, 4, 3, small_sizes, 3, 5) == 0);
    snprintf(top, sizeof top, "%s/" ASMSTORE_CACHE_DIR_NAME, root);
    setenv("ASMSTORE_CACHE_DISABLE", "1", 1);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, &hits, &misses), 0);
    CHECK(!n.enabled && !n.writes_enabled);
    CHECK_EQ_INT(misses, 3);
    CHECK(stat(top, &st) != 0);
    setenv("ASMSTORE_CACHE_DISABLE", "0", 1); /* "0" means on */
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK(n.enabled && n.entries_written == 3);
    unsetenv("ASMSTORE_CACHE_DISABLE");
    memset(&o, 0, sizeof o);
    o.disable = 1;
    hits = misses = 0;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, &misses), 0);
    CHECK(!n.enabled && hits == 0 && misses == 3);
    /* read-only option: hits yes, writes no */
    memset(&o, 0, sizeof o);
    o.read_only = 1;
    hits = misses = 0;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, &misses), 0);
    CHECK(n.enabled && !n.writes_enabled && hits == 3);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

static void test_queue_bound_big_alone(void) {
    static const size_t sizes[] = {200000, 1000, 300000, 2000};
    int misses, run;
    cu_store s;
    char *root = cu_tmpdir();
    asmstore_cache_options o;
    asmstore_cache_counters n;
    CHECK(cu_synthetic(&s, 4, 8, sizes, 4, 9) == 0);
    memset(&o, 0, sizeof o);
    o.max_queue_bytes = 100000; /* the 200000 and 300000 entries are over the bound: queued one at a time */
    CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0);
    CHECK(n.writes_enabled);
    /* the four small ones always fit; a big one is skipped only while another big one is queued */
    CHECK(n.entries_skipped <= 3 && n.entries_written == 8 - n.entries_skipped);
    CHECK(n.bytes_written >= 200000 + 2 * 1000 + 2 * 2000 + 5 * 48);
    /* each run writes at least one more big one: within four runs every entry hits (was: the big ones never) */
    for (run = 0, misses = 1; run < 4 && misses > 0; run++) {
        misses = 0;
        CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, &misses), 0);
    }
    CHECK_EQ_INT(misses, 0);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* A symlink or a non-directory where a cache directory belongs turns the cache off. */
static void test_symlinked_dirs_mean_off(void) {
    cu_store s;
    char *root = cu_tmpdir(), top[4096], target[4096], iddir[4096];
    asmstore_cache_counters n;
    int misses = 0;
    CHECK(cu_synthetic(&s, 4, 3, small_sizes, 3, 15) == 0);
    snprintf(top, sizeof top, "%s/" ASMSTORE_CACHE_DIR_NAME, root);
    snprintf(target, sizeof target, "%s/target", root);
    CHECK(mkdir(target, 0700) == 0);
    CHECK(symlink(target, top) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, &misses), 0);
    CHECK(!n.enabled && misses == 3);
    CHECK_EQ_INT(cu_count_names(target, "0"), 0);
    /* the store-id directory as a symlink */
    CHECK(unlink(top) == 0 && mkdir(top, 0700) == 0);
    cu_store_dir(iddir, sizeof iddir, root, s.r.content_id);
    CHECK(symlink(target, iddir) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK(!n.enabled);
    CHECK_EQ_INT(cu_count_names(target, ".bin"), 0);
    /* a regular file as the store-id directory */
    CHECK(unlink(iddir) == 0 && cu_spit(iddir, "x", 1) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK(!n.enabled);
    /* group/world-writable store directory is made private */
    CHECK(unlink(iddir) == 0 && mkdir(iddir, 0777) == 0 && chmod(iddir, 0777) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    {
        struct stat st;
        CHECK(n.enabled && stat(iddir, &st) == 0 && (st.st_mode & 0777) == 0700);
    }
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

static void test_stale_tmp_removed(void) {
    cu_store s;
    char *root = cu_tmpdir(), dir[4096], p[4300];
    asmstore_cache_counters n;
    struct timespec old[2];
    pid_t child;
    CHECK(cu_synthetic(&s, 4, 2, small_sizes, 2, 19) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    child = fork();
    if (child == 0) { pause(); _exit(0); }
    snprintf(p, sizeof p, "%s/0.bin.tmp.999999.00000000deadbeef", dir);     /* pid cannot exist (pid_max) */
    CHECK(cu_spit(p, "junk", 4) == 0);
    snprintf(p, sizeof p, "%s/1.bin.tmp.%ld.0000000000000001", dir, (long)child); /* a live process */
    CHECK(cu_spit(p, "junk", 4) == 0);
    snprintf(p, sizeof p, "%s/1.bin.tmp.%ld.0000000000000002", dir, (long)child); /* live but a day old */
    CHECK(cu_spit(p, "junk", 4) == 0);
    old[0].tv_sec = old[1].tv_sec = time(NULL) - 86400;
    old[0].tv_nsec = old[1].tv_nsec = 0;
    CHECK(utimensat(AT_FDCWD, p, old, 0) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.stale_removed, 2);
    CHECK_EQ_INT(cu_count_names(dir, ".tmp."), 1);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.stale_removed, 1);
    CHECK_EQ_INT(cu_count_names(dir, ".tmp."), 0);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

static void test_prune(void) {
    cu_store s[3];
    char *root = cu_tmpdir(), top[4096], p[4300], dir0[4096], elsewhere[4096];
    asmstore_cache_prune_stats ps;
    uint64_t keep;
    int i;
    for (i = 0; i < 3; i++) {
        CHECK(cu_synthetic(&s[i], 4, 6, small_sizes, 6, 300 + (uint32_t)i * 10) == 0);
        CHECK_EQ_INT(run_once(root, &s[i], NULL, NULL, NULL, NULL), 0);
    }
    keep = s[0].r.content_id;
    snprintf(top, sizeof top, "%s/" ASMSTORE_CACHE_DIR_NAME, root);
    snprintf(p, sizeof p, "%s/not-a-store-id", top);
    CHECK(mkdir(p, 0700) == 0);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", root);
    CHECK(mkdir(elsewhere, 0700) == 0);
    snprintf(p, sizeof p, "%s/elsewhere/precious", root);
    CHECK(cu_spit(p, "x", 1) == 0);
    snprintf(p, sizeof p, "%s/00000000000000ff", top); /* an id-named symlink: removed, target untouched */
    CHECK(symlink(elsewhere, p) == 0);
    cu_store_dir(dir0, sizeof dir0, root, keep);
    snprintf(p, sizeof p, "%s/2.bin.tmp.999999.0000000000000003", dir0);
    CHECK(cu_spit(p, "junk", 4) == 0);
    CHECK(asmstore_cache_prune(root, &keep, 0, &ps, NULL) == ASMSTORE_OK);
    CHECK_EQ_INT(ps.dirs_removed, 3);
    CHECK_EQ_INT(ps.files_kept, 6);
    CHECK_EQ_INT(cu_count_names(top, "0"), 1);                /* only the kept id dir has digits */
    CHECK_EQ_INT(cu_count_names(top, "not-a-store-id"), 1);
    snprintf(p, sizeof p, "%s/elsewhere/precious", root);
    CHECK(access(p, F_OK) == 0);
    CHECK_EQ_INT(cu_count_names(dir0, ".tmp."), 0);
    /* byte budget: keep at most 200 KB of the ~560 KB */
    CHECK(asmstore_cache_prune(root, NULL, 200000, &ps, NULL) == ASMSTORE_OK);
    CHECK(ps.bytes_kept <= 200000 && ps.files_removed > 0 && ps.files_kept > 0);
    /* what is left still hits, the rest comes back as misses, all bytes right */
    {
        int hits = 0, misses = 0;
        CHECK_EQ_INT(run_once(root, &s[0], NULL, NULL, &hits, &misses), 0);
        CHECK_EQ_INT(hits, ps.files_kept);
        CHECK_EQ_INT(misses, 6 - (int)ps.files_kept);
    }
    CHECK(asmstore_cache_prune(root, NULL, 1, &ps, NULL) == ASMSTORE_OK && ps.files_kept == 0);
    {
        char *empty = cu_tmpdir();
        CHECK(asmstore_cache_prune(empty, NULL, 0, NULL, NULL) == ASMSTORE_ERR_NOT_FOUND);
        cu_rmrf(empty);
        free(empty);
    }
    for (i = 0; i < 3; i++) cu_free(&s[i]);
    cu_rmrf(root);
    free(root);
}

/* ---- storage faults, in child processes ----------------------------------------------------- */
/* Runs fn in a child; returns its exit status (0 = every check passed), or -1 if it was killed. */
static int in_child(int (*fn)(void *), void *arg, int *signo) {
    int status = 0;
    pid_t p;
    fflush(stdout);
    fflush(stderr);
    p = fork();
    if (p == 0) _exit(fn(arg));
    if (p < 0 || waitpid(p, &status, 0) != p) return -2;
    if (WIFSIGNALED(status)) { if (signo) *signo = WTERMSIG(status); return -1; }
    return WEXITSTATUS(status);
}

typedef struct fault_arg {
    const cu_store *s;
    const char *root;
    int mode;          /* 0: read-only mount, 1: full tmpfs, 2: RLIMIT_FSIZE + SIG_IGN, 3: RLIMIT_FSIZE, default SIGXFSZ */
} fault_arg;

/* In a child: 0 all good, 77 skip (no mount namespace), else a failure code. */
static int fault_child(void *p) {
    fault_arg *a = (fault_arg *)p;
    asmstore_cache_counters n;
    int hits = 0, misses = 0, bad;
    if (a->mode <= 1) {
        if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 77;
        if (mount("tmpfs", a->root, "tmpfs", 0, a->mode == 1 ? "size=256k,mode=0700" : "size=8m,mode=0700") != 0) return 77;
        if (a->mode == 0) {
            /* fill part of the cache, then make the mount read-only */
            asmstore_cache *c = NULL;
            asmstore_entry e;
            asmstore_cache_image img;
            if (asmstore_cache_open(&c, a->root, &a->s->r, NULL, NULL) != ASMSTORE_OK) return 10;
            asmstore_reader_entry(&a->s->r, 0, &e, NULL);
            if (asmstore_cache_get(c, &e, &img, NULL) != ASMSTORE_OK) return 11;
            asmstore_cache_release(&img);
            asmstore_cache_flush(c);
            asmstore_cache_close(c);
            if (mount("tmpfs", a->root, "tmpfs", MS_REMOUNT | MS_RDONLY, NULL) != 0) return 77;
        }
    } else {
        struct rlimit rl;
        if (a->mode == 2) signal(SIGXFSZ, SIG_IGN);
        else signal(SIGXFSZ, SIG_DFL);
        rl.rlim_cur = rl.rlim_max = 100000; /* the 150000-byte entries cannot be written */
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) return 12;
    }
    /* the first pass meets the fault; a second pass through the same cache object must neither
       write nor fail again, and give right bytes */
    {
        asmstore_cache *c = NULL;
        if (asmstore_cache_open(&c, a->root, &a->s->r, NULL, NULL) != ASMSTORE_OK) return 19;
        bad = load_all(c, a->s, &hits, &misses, NULL);
        asmstore_cache_flush(c);
        bad += load_all(c, a->s, NULL, NULL, NULL);
        asmstore_cache_flush(c);
        asmstore_cache_stats(c, &n);
        asmstore_cache_close(c);
    }
    if (bad) return 20;
    if (!n.enabled) return 21;
    if (n.write_failures != 1 || n.writes_enabled) { fprintf(stderr, "  write_failures %llu writes_enabled %d\n", (unsigned long long)n.write_failures, n.writes_enabled); return 22; }
    if (a->mode == 0 && (hits != 1 || n.last_errno != EROFS)) return 23;
    if (a->mode == 1 && n.last_errno != ENOSPC) return 24;
    if (a->mode >= 2 && n.last_errno != EFBIG) return 25;
    bad = run_once(a->root, a->s, NULL, &n, NULL, NULL);
    if (bad) return 26;
    /* no temp file left behind */
    {
        char dir[4096];
        cu_store_dir(dir, sizeof dir, a->root, a->s->r.content_id);
        if (cu_count_names(dir, ".tmp.") != 0) return 27;
    }
    return 0;
}

/* Runs child(mode) in a private mount namespace over a synthetic store of `entries` images cycling
   through sizes[4] (the seed makes it distinct), and requires it to exit 0. */
static void run_fault_child(int (*child)(void *), int mode, uint32_t entries, const size_t *sizes, uint32_t seed) {
    cu_store s;
    char *root = cu_tmpdir();
    fault_arg a;
    int rc, sig = 0;
    CHECK(cu_synthetic(&s, 4, entries, sizes, 4, seed + (uint32_t)mode) == 0);
    a.s = &s;
    a.root = root;
    a.mode = mode;
    rc = in_child(child, &a, &sig);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
    if (rc == 77) SKIP("no private mount namespace (unshare/mount not permitted)");
    if (rc == -1) fprintf(stderr, "  child killed by signal %d\n", sig);
    CHECK_EQ_INT(rc, 0);
}
static void fault_case(int mode) {
    static const size_t sizes[] = {150000, 5000, 150000, 60000};
    run_fault_child(fault_child, mode, 12, sizes, 1000);
}
static void test_fault_readonly_fs(void) {
    if (geteuid() != 0) {
        /* not root: permissions work, so a read-only directory is enough */
        cu_store s;
        char *root = cu_tmpdir(), dir[4096];
        asmstore_cache_counters n;
        asmstore_cache_options o;
        CHECK(cu_synthetic(&s, 4, 4, small_sizes, 4, 55) == 0);
        memset(&o, 0, sizeof o);
        o.read_only = 1;
        CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0); /* creates the dirs */
        cu_store_dir(dir, sizeof dir, root, s.r.content_id);
        CHECK(chmod(dir, 0500) == 0);
        CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
        CHECK(n.write_failures == 1 && !n.writes_enabled && n.last_errno == EACCES);
        chmod(dir, 0700);
        cu_free(&s);
        cu_rmrf(root);
        free(root);
        return;
    }
    fault_case(0);
}
static void test_fault_full_fs(void) { fault_case(1); }
static void test_fault_fsize_sigxfsz_ignored(void) { fault_case(2); }
static void test_fault_fsize_sigxfsz_default(void) { fault_case(3); }

/* ---- crash safety: SIGKILL in the middle of a write ---------------------------------------- */
static int crash_child(void *p) {
    const cu_store *s = (const cu_store *)((void **)p)[0];
    const char *root = (const char *)((void **)p)[1];
    asmstore_cache_options o;
    memset(&o, 0, sizeof o);
    o.max_queue_bytes = (size_t)256 << 20;
    o.fsync = 1; /* slower writes: a wider window to be killed in */
    return run_once(root, s, &o, NULL, NULL, NULL) ? 1 : 0;
}

static void test_crash_mid_write(void) {
    static const size_t sizes[] = {(size_t)48 << 20};
    cu_store s;
    char *root = cu_tmpdir(), dir[4096], path[4096];
    int attempt, caught = 0;
    CHECK(cu_synthetic(&s, 4, 1, sizes, 1, 4242) == 0);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    cu_entry_path(path, sizeof path, root, s.r.content_id, 0);
    for (attempt = 0; attempt < 6 && caught < 2; attempt++) {
        void *args[2];
        pid_t p;
        int status, polls = 0, seen = 0, caught_now = 0;
        args[0] = &s;
        args[1] = root;
        unlink(path);
        fflush(stdout);
        p = fork();
        if (p == 0) _exit(crash_child(args));
        /* wait until a temp file exists (the writer is inside write()), then kill */
        while (polls++ < 400000) {
            if (cu_count_names(dir, ".tmp.") > 0) { seen = 1; break; }
            if (waitpid(p, &status, WNOHANG) == p) break;
            usleep(50);
        }
        if (seen) usleep((useconds_t)(attempt * 1500));
        kill(p, SIGKILL);
        waitpid(p, &status, 0);
        if (!seen) continue;
        {
            int tmps = cu_count_names(dir, ".tmp.");
            struct stat st;
            int final_exists = stat(path, &st) == 0;
            if (tmps > 0 && !final_exists) {
                /* the kill landed mid-write; plant the torn temp as the final name too */
                DIR *d = opendir(dir);
                struct dirent *de;
                char tp[4400];
                while (d && (de = readdir(d)) != NULL)
                    if (strstr(de->d_name, ".tmp.")) { snprintf(tp, sizeof tp, "%s/%s", dir, de->d_name); break; }
                if (d) closedir(d);
                {
                    size_t ts = 0;
                    unsigned char *t = cu_slurp(tp, &ts);
                    if (t && ts < s.src_size[0] + 48) { caught++; caught_now = 1; CHECK(cu_spit(path, t, ts) == 0); }
                    free(t);
                }
            }
        }
        /* a later run: never accepts a torn file, removes the dead writer's temp, gives right bytes */
        {
            asmstore_cache_counters n;
            asmstore_cache_options o;
            int hits = 0, misses = 0;
            memset(&o, 0, sizeof o);
            o.max_queue_bytes = (size_t)256 << 20;
            CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, &misses), 0);
            CHECK(hits + misses == 1);
            CHECK_EQ_INT(n.rejected, caught_now);
            CHECK_EQ_INT(cu_count_names(dir, ".tmp."), 0);
            hits = 0;
            CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
            CHECK_EQ_INT(hits, 1);
        }
    }
    if (caught == 0) printf("  note: test_crash_mid_write never caught a partial temp file (writes too fast)\n");
    CHECK(caught > 0);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}


/* ---- the recorded-identity rule ------------------------------------------------------------ */
static void test_recorded_hits_skip_hash(void) {
    cu_store s;
    char *root = cu_tmpdir(), dir[4096], rec[4200];
    asmstore_cache_counters n;
    asmstore_cache_options full;
    int hits = 0;
    CHECK(cu_synthetic(&s, 4, 4, small_sizes, 4, 77) == 0);
    cu_store_dir(dir, sizeof dir, root, asmstore_cache_store_id(&s.r));
    snprintf(rec, sizeof rec, "%s/.verified", dir);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.entries_written, 4);
    CHECK_EQ_INT(n.records_written, 4);          /* the writer recorded the files it made durable */
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, &hits, NULL), 0);
    CHECK_EQ_INT(hits, 4);
    CHECK_EQ_INT(n.recorded_hits, 4);            /* no payload hashed */
    memset(&full, 0, sizeof full);
    full.verify = ASMSTORE_CACHE_VERIFY_FULL;
    CHECK_EQ_INT(run_once(root, &s, &full, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.hits, 4);
    CHECK_EQ_INT(n.recorded_hits, 0);            /* VERIFY_FULL hashes every hit */
    /* no record (e.g. files an older version wrote): hashed, then recorded for the next run */
    CHECK(unlink(rec) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.hits, 4);
    CHECK_EQ_INT(n.recorded_hits, 0);
    CHECK_EQ_INT(n.records_written, 4);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.recorded_hits, 4);
    /* a damaged record file means "no records", never a wrong hit */
    {
        size_t rs = 0;
        unsigned char *r = cu_slurp(rec, &rs);
        CHECK(r != NULL && rs == 32 + 4 * 40);
        if (r) { r[40] ^= 1; CHECK(cu_spit(rec, r, rs) == 0); }
        free(r);
        CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
        CHECK_EQ_INT(n.hits, 4);
        CHECK_EQ_INT(n.recorded_hits, 0);
    }
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* ---- the allocator ------------------------------------------------------------------------ */
/* A counting allocator that tags its blocks: a block freed with the wrong size, or memory it did not hand out
   passed to it, counts as bad; its blocks passed to free() abort (the tag sits before the pointer). */
typedef struct tagged_alloc {
    pthread_mutex_t lock;
    pthread_t main;
    long allocs, frees, bad, writer_allocs; /* writer_allocs: made on another thread than main */
    size_t live;
} tagged_alloc;
#define TAGGED_HEAD 16
static void *tagged_alloc_fn(void *user, size_t size) {
    tagged_alloc *t = (tagged_alloc *)user;
    unsigned char *p = (unsigned char *)malloc(size + TAGGED_HEAD);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    memcpy(p + 8, "tagged!", 8);
    pthread_mutex_lock(&t->lock);
    t->allocs++;
    t->live += size;
    if (!pthread_equal(pthread_self(), t->main)) t->writer_allocs++;
    pthread_mutex_unlock(&t->lock);
    return p + TAGGED_HEAD;
}
static void tagged_free_fn(void *user, void *ptr, size_t size) {
    tagged_alloc *t = (tagged_alloc *)user;
    unsigned char *p = (unsigned char *)ptr - TAGGED_HEAD;
    size_t had;
    memcpy(&had, p, sizeof had);
    pthread_mutex_lock(&t->lock);
    if (memcmp(p + 8, "tagged!", 8) != 0 || had != (size ? size : 1u)) t->bad++; /* asmstore_alloc asks 1 for 0 */
    t->frees++;
    t->live -= had;
    pthread_mutex_unlock(&t->lock);
    free(p);
}

/* Everything the cache allocates goes through options.allocator: miss images and snapshots, the record file
   read at open (held while the cache is), and the writer's pending list, merge and encoding of the records. */
static void test_allocator_gets_everything(void) {
    cu_store s;
    char *root = cu_tmpdir(), dir[4096], rec[4200];
    asmstore_cache_options o, full;
    asmstore_cache_counters n;
    asmstore_cache *c = NULL;
    tagged_alloc t;
    size_t live_without_records;
    memset(&t, 0, sizeof t);
    pthread_mutex_init(&t.lock, NULL);
    t.main = pthread_self();
    memset(&o, 0, sizeof o);
    o.allocator.alloc = tagged_alloc_fn;
    o.allocator.free = tagged_free_fn;
    o.allocator.user = &t;
    full = o;
    full.verify = ASMSTORE_CACHE_VERIFY_FULL; /* reads no records */
    CHECK(cu_synthetic(&s, 4, 4, small_sizes, 4, 91) == 0);
    cu_store_dir(dir, sizeof dir, root, asmstore_cache_store_id(&s.r));
    snprintf(rec, sizeof rec, "%s/.verified", dir);
    CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0); /* misses: files written, then recorded */
    CHECK_EQ_INT(n.records_written, 4);
    CHECK(t.writer_allocs >= 3); /* the pending list, the merged records, the record file's bytes */
    CHECK_EQ_INT(t.live, 0);
    CHECK(asmstore_cache_open(&c, root, &s.r, &full, NULL) == ASMSTORE_OK);
    live_without_records = t.live;
    asmstore_cache_close(c);
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    CHECK(t.live >= live_without_records + 4 * 36); /* four records of index, inode, size, mtime, ctime */
    asmstore_cache_close(c);
    CHECK(unlink(rec) == 0); /* hits hashed, queued to record from this thread, recorded by the writer */
    CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.hits, 4);
    CHECK_EQ_INT(n.records_written, 4);
    CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.recorded_hits, 4);
    CHECK_EQ_INT(t.live, 0);
    CHECK_EQ_INT(t.bad, 0);
    CHECK_EQ_INT(t.allocs, t.frees);
    pthread_mutex_destroy(&t.lock);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* SIGKILL of a writing process at any point (mid-write, between fsync and rename, while the record
   file is written, while the pack is consolidated, renamed, recorded or the files it holds removed,
   after): the next run serves only right bytes, and a torn temp file planted under the final name
   (what a filesystem without atomic rename could leave) is never a hit. */
static void kill_options(asmstore_cache_options *o) {
    memset(o, 0, sizeof *o);
    o->max_queue_bytes = (size_t)256 << 20;
    o->pack = ASMSTORE_CACHE_PACK_ALWAYS; /* every run that writes a file consolidates */
}
static int kill_child(void *p) {
    const cu_store *s = (const cu_store *)((void **)p)[0];
    asmstore_cache_options o;
    kill_options(&o);
    return run_once((const char *)((void **)p)[1], s, &o, NULL, NULL, NULL) ? 1 : 0;
}

static void test_sigkill_any_point_recorded(void) {
    static const size_t sizes[] = {(size_t)3 << 20, (size_t)1 << 20, 70000, (size_t)5 << 20};
    cu_store s;
    char *root = cu_tmpdir(), dir[4096];
    int it, torn_planted = 0, wrong = 0;
    uint64_t recorded = 0, from_pack = 0;
    struct timeval t0, t1;
    double span_us;
    asmstore_cache_options ko;
    kill_options(&ko);
    CHECK(cu_synthetic(&s, 4, 8, sizes, 4, 999) == 0);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    /* a complete run first: every file written and recorded, so the rounds below always start from
       recorded files, however slowly the killed writers get (TSan, a loaded machine); its duration is the span
       the kills below are spread over ("any point" on this machine, whatever its speed), plus a quarter */
    gettimeofday(&t0, NULL);
    CHECK_EQ_INT(run_once(root, &s, &ko, NULL, NULL, NULL), 0);
    gettimeofday(&t1, NULL);
    span_us = 1.25 * ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_usec - t0.tv_usec));
    for (it = 0; it < 24; it++) {
        void *args[2];
        pid_t p;
        int status;
        uint32_t k;
        args[0] = &s;
        args[1] = root;
        /* half of the files gone (alternating halves), every other round the pack (all is written and packed
           again), and every third round the record too (a pack that is not the recorded one is packed again) */
        for (k = (uint32_t)(it % 2); k < s.n; k += 2) {
            char path[4200];
            cu_entry_path(path, sizeof path, root, s.r.content_id, k);
            unlink(path);
        }
        if (it % 2 == 0) { char pk[4200]; snprintf(pk, sizeof pk, "%s/pack", dir); unlink(pk); }
        if (it % 3 == 2) { char rec[4200]; snprintf(rec, sizeof rec, "%s/.verified", dir); unlink(rec); }
        fflush(stdout);
        p = fork();
        if (p == 0) _exit(kill_child(args));
        /* 24 points from 0 to 1.25x a whole run: before, during and after the writes and the record */
        usleep((useconds_t)(span_us * (double)it / 23.0));
        kill(p, SIGKILL);
        waitpid(p, &status, 0);
        {   /* plant the first torn temp file under its final name (a pack's temp: whatever it holds) */
            DIR *d = opendir(dir);
            struct dirent *de;
            while (d && (de = readdir(d)) != NULL) {
                char tp[4400], fp[4400];
                unsigned idx;
                size_t ts = 0;
                unsigned char *t;
                int is_pack = !strncmp(de->d_name, "pack.tmp.", 9);
                if (!is_pack && (sscanf(de->d_name, "%u.bin.tmp.", &idx) != 1 || idx >= s.n)) continue;
                snprintf(tp, sizeof tp, "%s/%s", dir, de->d_name);
                if (is_pack) snprintf(fp, sizeof fp, "%s/pack", dir);
                else snprintf(fp, sizeof fp, "%s/%u.bin", dir, idx);
                t = cu_slurp(tp, &ts);
                if (t && (is_pack || ts < s.src_size[idx] + ASMSTORE_CACHE_FOOTER_SIZE)) {
                    CHECK(cu_spit(fp, t, ts) == 0);
                    torn_planted++;
                }
                free(t);
                break;
            }
            if (d) closedir(d);
        }
        {   /* the next run: right bytes from every hit (load_all compares them), nothing torn served */
            asmstore_cache_counters n;
            asmstore_cache_options ro;
            memset(&ro, 0, sizeof ro);
            ro.read_only = 1;
            wrong += run_once(root, &s, &ro, &n, NULL, NULL);
            recorded += n.recorded_hits;
            from_pack += n.pack_hits;
        }
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(recorded > 0); /* the rule was exercised, not only the full hash */
    printf("  %d torn files planted, %llu recorded hits checked, %llu hits from a pack\n", torn_planted,
           (unsigned long long)recorded, (unsigned long long)from_pack);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* ---- the serving policy: cache files in and out of the page cache ---------------------------- */
enum { PC_LOOK, PC_EVICT, PC_LOAD };
/* Looks at, evicts (fdatasync + POSIX_FADV_DONTNEED) or reads in every entry's cache file; returns the fraction
   of their pages in the page cache afterwards (mincore), or -1 when a file is missing. */
static double cache_files_resident(const char *root, const cu_store *s, int what) {
    size_t i, pages = 0, in = 0, pg = (size_t)sysconf(_SC_PAGESIZE);
    for (i = 0; i < s->n; i++) {
        char path[4200];
        static unsigned char buf[1 << 16];
        struct stat st;
        unsigned char *v;
        void *m;
        size_t np, k;
        int fd;
        cu_entry_path(path, sizeof path, root, s->r.content_id, (uint32_t)i);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) { if (fd >= 0) close(fd); return -1; }
        if (what == PC_EVICT) { (void)fdatasync(fd); (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); }
        if (what == PC_LOAD) while (read(fd, buf, sizeof buf) > 0) {}
        np = ((size_t)st.st_size + pg - 1) / pg;
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        v = (unsigned char *)malloc(np);
        if (m != MAP_FAILED && v && mincore(m, (size_t)st.st_size, v) == 0)
            for (k = 0; k < np; k++) in += v[k] & 1u;
        pages += np;
        free(v);
        if (m != MAP_FAILED) munmap(m, (size_t)st.st_size);
        close(fd);
    }
    return pages ? (double)in / (double)pages : -1;
}

/* Files in the page cache are served under every policy; evicted ones: RESIDENT steps aside without reading
   them (they stay evicted, are not rewritten); ALWAYS serves them; AUTO reads the first ones in, timed, and
   then decides by the rates it reports: it steps aside exactly when reading was slower than decompressing. */
static void test_policy_page_cache(void) {
    static const size_t sizes[] = {600000, 300000, 900000, 150000};
    cu_store s;
    char *root = cu_tmpdir();
    asmstore_cache_counters n;
    asmstore_cache_options o;
    int pol, hits;
    CHECK(cu_synthetic(&s, 4, 8, sizes, 4, 4321) == 0);
    CHECK_EQ_INT(run_once(root, &s, NULL, &n, NULL, NULL), 0);
    CHECK_EQ_INT(n.entries_written, 8);
    CHECK(n.direct_ns_per_mib > 0); /* the misses were timed and the rate recorded with the files */
    memset(&o, 0, sizeof o);
    o.no_prefetch = 1; /* the read-ahead at open would race the residency checks */
    for (pol = ASMSTORE_CACHE_POLICY_AUTO; pol <= ASMSTORE_CACHE_POLICY_RESIDENT; pol++) {
        CHECK(cache_files_resident(root, &s, PC_LOAD) > 0.99);
        o.policy = pol;
        hits = 0;
        CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
        CHECK_EQ_INT(hits, 8);
        CHECK_EQ_INT(n.aside, 0);
        CHECK_EQ_INT(n.probed, 0);
        CHECK(n.direct_ns_per_mib > 0); /* learned across runs through the record file */
    }
    if (cache_files_resident(root, &s, PC_EVICT) > 0.0) {
        printf("  note: the cache files could not be evicted here (tmpfs?): policy on evicted files not tested\n");
    } else {
        o.policy = ASMSTORE_CACHE_POLICY_RESIDENT;
        hits = 0;
        CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
        CHECK_EQ_INT(hits, 0);
        CHECK_EQ_INT(n.aside, 8);
        CHECK_EQ_INT(n.misses, 8);
        CHECK_EQ_INT(n.entries_written, 0);
        CHECK(cache_files_resident(root, &s, PC_LOOK) == 0.0); /* only mincore looked at them */
        o.policy = ASMSTORE_CACHE_POLICY_ALWAYS;
        hits = 0;
        CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
        CHECK_EQ_INT(hits, 8);
        CHECK_EQ_INT(n.aside, 0);
        CHECK(cache_files_resident(root, &s, PC_EVICT) == 0.0);
        o.policy = ASMSTORE_CACHE_POLICY_AUTO;
        hits = 0;
        CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
        CHECK(n.probed >= 1 && n.probed <= 3); /* 1 MiB of these files */
        CHECK(n.read_ns_per_mib > 0);
        CHECK_EQ_INT((uint64_t)hits + n.aside, 8);
        CHECK(n.new_memory_ns_per_mib > 0); /* timed for the first decision after the probe */
        CHECK_EQ_INT(n.aside,
                     n.read_ns_per_mib > (uint64_t)n.direct_ns_per_mib + n.new_memory_ns_per_mib ? 8 - n.probed : 0);
        printf("  evicted, AUTO: read %u ns/MiB vs decompress %u + new memory %u ns/MiB: %d hits, %llu aside\n",
               n.read_ns_per_mib, n.direct_ns_per_mib, n.new_memory_ns_per_mib, hits, (unsigned long long)n.aside);
    }
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* An evicted start: stepping aside reads the entry's compressed bytes from the store too, which the policy
   adds to the learned rate (at the measured read rate, scaled by the compression ratio) only while they are
   out of the page cache; a store copied into memory counts as resident. */
static void test_policy_counts_store_reads(void) {
    static const size_t sizes[] = {900000, 700000, 800000, 950000};
    cu_store s;
    char *root = cu_tmpdir(), path[4096];
    asmstore_cache *c = NULL;
    asmstore_reader r;
    asmstore_entry e;
    unsigned char *map = NULL, last = 1;
    volatile unsigned char sink;
    size_t i;
    int fd;
    CHECK(cu_synthetic(&s, 4, 4, sizes, 4, 5150) == 0);
    snprintf(path, sizeof path, "%s/store.bin", root);
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    CHECK(fd >= 0 && write(fd, s.bytes, s.size) == (ssize_t)s.size && fdatasync(fd) == 0);
    map = (unsigned char *)mmap(NULL, s.size, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(map != MAP_FAILED);
    (void)madvise(map, s.size, MADV_RANDOM); /* the reader's faults read their own pages, no more */
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    CHECK(asmstore_reader_init(&r, map, s.size, NULL, NULL) == ASMSTORE_OK);
    CHECK(asmstore_cache_open(&c, root, &r, NULL, NULL) == ASMSTORE_OK && c);
    CHECK(asmstore_reader_entry(&r, 3, &e, NULL) == ASMSTORE_OK && e.image_size < e.uncompressed_size);
    (void)mincore((void *)(((uintptr_t)e.image + e.image_size - 1) & ~(uintptr_t)(c->page - 1)), 1, &last);
    if (last & 1u) {
        printf("  note: the store's pages could not be evicted here (tmpfs?): the evicted case not tested\n");
    } else {
        CHECK(asmstore_cache__store_read_ns_per_mib(c, &e, 1000u) == 1000u * e.image_size / e.uncompressed_size);
    }
    for (i = 0; i < e.image_size; i++) sink = e.image[i]; /* read in: resident */
    (void)sink;
    CHECK(asmstore_cache__store_read_ns_per_mib(c, &e, 1000u) == 0);
    asmstore_cache_close(c);
    CHECK(asmstore_reader_entry(&s.r, 3, &e, NULL) == ASMSTORE_OK); /* the malloc'd copy */
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    CHECK(asmstore_cache__store_read_ns_per_mib(c, &e, 1000u) == 0);
    asmstore_cache_close(c);
    munmap(map, s.size);
    close(fd);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* ---- the pack: one file per store ------------------------------------------------------------ */
static const size_t pack_sizes[] = {5000, 70000, 300, 150000, 24000, 9000, 41000};

/* Path of the store's pack under root. */
static void pack_path(char *out, size_t cap, const char *root, uint64_t id) {
    snprintf(out, cap, "%s/" ASMSTORE_CACHE_DIR_NAME "/%016llx/pack", root, (unsigned long long)id);
}

/* Loads the first n entries through a cache opened with pack mode `pack`; returns wrong entries. */
static int load_first(const char *root, const cu_store *s, size_t n, int pack, asmstore_cache_counters *cnt) {
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    size_t i;
    int bad = 0;
    memset(&o, 0, sizeof o);
    o.pack = pack;
    if (asmstore_cache_open(&c, root, &s->r, &o, NULL) != ASMSTORE_OK) return 1000;
    for (i = 0; i < n; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        asmstore_reader_entry(&s->r, (uint32_t)i, &e, NULL);
        if (asmstore_cache_get(c, &e, &img, NULL) != ASMSTORE_OK) { bad++; continue; }
        if (img.size != s->src_size[i] || memcmp(img.data, s->src[i], img.size) != 0) bad++;
        asmstore_cache_release(&img);
    }
    asmstore_cache_flush(c);
    asmstore_cache_stats(c, cnt);
    asmstore_cache_close(c);
    return bad;
}

/* AUTO consolidates once 16 files lie outside the pack: the files go, every image is a recorded hit mapped from the
   pack at a page boundary, private; fewer new files stay files until ALWAYS (or more of them) consolidates again.
   (The files are written by a NEVER run first: a writer that empties its queue mid-run may consolidate early.) */
/* Threads of this process (/proc/self/task), or -1. */
static int thread_count_now(void) {
    DIR *d = opendir("/proc/self/task");
    struct dirent *de;
    int n = 0;
    if (!d) return -1;
    while ((de = readdir(d)) != NULL) n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The process's threads once the count holds still for 10 ms: a thread an earlier test joined
   stays listed in /proc/self/task for a moment after pthread_join returns, and a live writer
   stays listed for good, so settling hides the one and never the other. */
static int thread_count(void) {
    int n = thread_count_now();
    int tries;
    for (tries = 0; tries < 200; tries++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        int again;
        nanosleep(&pause, NULL);
        again = thread_count_now();
        if (again == n)
            break;
        n = again;
    }
    return n;
}

/* Open starts no thread, hit or not (a runtime initialised next would wait for it: CoreCLR's membarrier
   registration); the first miss starts the writer. With PACK_AT_FLUSH no pack is written before the flush. */
static void test_open_starts_no_thread(void) {
    cu_store s;
    char *root = cu_tmpdir(), pk[4096];
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    asmstore_entry e;
    asmstore_cache_image img;
    struct stat st;
    int before;
    CHECK(cu_synthetic(&s, 4, 20, pack_sizes, 7, 707) == 0);
    pack_path(pk, sizeof pk, root, s.r.content_id);
    CHECK_EQ_INT(load_first(root, &s, 20, ASMSTORE_CACHE_PACK_NEVER, NULL), 0); /* 20 recorded files to read ahead */
    memset(&o, 0, sizeof o);
    o.pack = ASMSTORE_CACHE_PACK_AT_FLUSH;
    before = thread_count();
    CHECK(before > 0 && asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    CHECK_EQ_INT(thread_count(), before);
    asmstore_reader_entry(&s.r, 0, &e, NULL);
    CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK && img.source == ASMSTORE_CACHE_HIT);
    asmstore_cache_release(&img);
    CHECK_EQ_INT(thread_count(), before); /* a recorded hit needs no writer */
    CHECK(stat(pk, &st) != 0);            /* AT_FLUSH: 20 files outside the pack, none packed yet */
    asmstore_cache_flush(c);
    CHECK(stat(pk, &st) == 0);
    asmstore_cache_close(c);
    CHECK_EQ_INT(thread_count(), before);
    cu_rmrf(root);
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK && img.source == ASMSTORE_CACHE_MISS);
    asmstore_cache_release(&img);
    CHECK_EQ_INT(thread_count(), before + 1); /* the miss queued a file: the writer runs */
    asmstore_cache_close(c);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* asmstore_cache_put: an image the caller decompressed itself is written as a miss's would be, and packed at the
   flush (PACK_AT_FLUSH): the next object hits it from the pack, byte for byte; no writer runs before the first put;
   a put of the wrong size, of an uncompressed entry or with no image is refused, and one into a disabled cache does
   nothing. v3 too (its files carry the source hash). A queue bound smaller than the images makes put wait. */
static void put_case(uint32_t format, size_t queue_bytes) {
    cu_store s;
    char *root = cu_tmpdir(), pk[4096];
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    asmstore_cache_counters n;
    asmstore_entry e;
    asmstore_cache_image img;
    struct stat st;
    uint32_t i;
    int before = thread_count();
    CHECK(cu_synthetic(&s, format, 6, pack_sizes, 7, 909 + format) == 0);
    pack_path(pk, sizeof pk, root, asmstore_cache_store_id(&s.r));
    memset(&o, 0, sizeof o);
    o.pack = ASMSTORE_CACHE_PACK_AT_FLUSH;
    o.max_queue_bytes = queue_bytes;
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    asmstore_reader_entry(&s.r, 0, &e, NULL);
    CHECK(asmstore_cache_put(c, &e, s.src[0], e.uncompressed_size - 1, NULL) == ASMSTORE_ERR_INVALID_ARG);
    CHECK(asmstore_cache_put(c, &e, NULL, e.uncompressed_size, NULL) == ASMSTORE_ERR_INVALID_ARG);
    CHECK(asmstore_cache_put(NULL, &e, s.src[0], e.uncompressed_size, NULL) == ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(thread_count(), before);
    for (i = 0; i < 6; i++) {
        asmstore_reader_entry(&s.r, i, &e, NULL);
        CHECK(asmstore_cache_put(c, &e, s.src[i], e.uncompressed_size, NULL) == ASMSTORE_OK);
    }
    CHECK_EQ_INT(thread_count(), before + 1); /* the first put started the writer */
    asmstore_cache_flush(c);
    asmstore_cache_stats(c, &n);
    CHECK(n.entries_written == 6 && n.entries_skipped == 0 && n.misses == 0 && stat(pk, &st) == 0);
    asmstore_cache_close(c);
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    for (i = 0; i < 6; i++) {
        asmstore_reader_entry(&s.r, i, &e, NULL);
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK && img.source == ASMSTORE_CACHE_HIT);
        CHECK(img.pack_id != 0 && img.size == e.uncompressed_size && memcmp(img.data, s.src[i], img.size) == 0);
        asmstore_cache_release(&img);
    }
    asmstore_cache_close(c);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}
static void test_put_packed_v4(void) { put_case(4, 0); }
static void test_put_packed_v3(void) { put_case(3, 0); }
/* a queue bound below two images (70000 + 300 + 150000 ... bytes): put waits for room, nothing is dropped */
static void test_put_small_queue(void) { put_case(4, 80000); }

/* put refuses an uncompressed entry, and into a disabled cache does nothing (no file, no thread). */
static void test_put_refused_or_off(void) {
    cu_store s;
    char *root = cu_tmpdir();
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    asmstore_cache_counters n;
    asmstore_entry e;
    int before = thread_count();
    CHECK(cu_synthetic(&s, 4, 3, pack_sizes, 7, 919) == 0);
    memset(&o, 0, sizeof o);
    o.disable = 1;
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    asmstore_reader_entry(&s.r, 1, &e, NULL);
    CHECK(asmstore_cache_put(c, &e, s.src[1], e.uncompressed_size, NULL) == ASMSTORE_OK);
    asmstore_cache_flush(c);
    asmstore_cache_stats(c, &n);
    CHECK(n.entries_written == 0 && thread_count() == before);
    e.compression = ASMSTORE_COMPRESSION_NONE; /* as a stray entry would claim: the store's descriptor decides */
    CHECK(asmstore_cache_put(c, &e, s.src[1], e.uncompressed_size, NULL) != ASMSTORE_OK);
    asmstore_cache_close(c);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* A pack hit says where its image lies: the descriptor asmstore_cache_pack_file gives holds the image at
   pack_offset, and "/proc/self/fd/N" keeps naming that file after another pack is renamed into its place (what a
   runtime mapping images from the pack by offset relies on); hits from the new pack carry another pack_id. */
static void test_pack_file_and_offsets(void) {
    cu_store s;
    char *root = cu_tmpdir(), pk[4096], planted[4200], byfd[64];
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    uint64_t id = 0, id2 = 0;
    unsigned char *buf;
    int fd, fd2, again;
    uint32_t i;
    CHECK(cu_synthetic(&s, 4, 20, pack_sizes, 7, 808) == 0);
    pack_path(pk, sizeof pk, root, s.r.content_id);
    memset(&o, 0, sizeof o);
    o.pack = ASMSTORE_CACHE_PACK_AT_FLUSH;
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_cache_pack_file(c, &id), -1); /* no pack yet */
    asmstore_cache_close(c);
    CHECK_EQ_INT(load_first(root, &s, 20, ASMSTORE_CACHE_PACK_AT_FLUSH, NULL), 0);
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    fd = asmstore_cache_pack_file(c, &id);
    CHECK(fd >= 0 && id != 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
    snprintf(byfd, sizeof byfd, "/proc/self/fd/%d", fd);
    snprintf(planted, sizeof planted, "%s.planted", pk);
    CHECK(cu_spit(planted, "not a pack", 10) == 0 && rename(planted, pk) == 0); /* replaced while we hold it */
    for (i = 0; i < 20; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        asmstore_reader_entry(&s.r, i, &e, NULL);
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK && img.source == ASMSTORE_CACHE_HIT);
        CHECK(img.pack_id == id && img.pack_offset % 4096 == 0);
        buf = (unsigned char *)malloc(img.size);
        fd2 = open(byfd, O_RDONLY | O_CLOEXEC); /* as the runtime opens exe_path: by name, for each image */
        CHECK(buf && fd2 >= 0 && pread(fd2, buf, img.size, (off_t)img.pack_offset) == (ssize_t)img.size);
        CHECK(buf && memcmp(buf, s.src[i], img.size) == 0);
        if (fd2 >= 0) close(fd2);
        free(buf);
        asmstore_cache_release(&img);
    }
    close(fd);
    asmstore_cache_close(c);
    /* the planted file fails the checks: misses, and the flush packs them again under a new identity */
    CHECK_EQ_INT(load_first(root, &s, 20, ASMSTORE_CACHE_PACK_AT_FLUSH, NULL), 0);
    CHECK(asmstore_cache_open(&c, root, &s.r, &o, NULL) == ASMSTORE_OK);
    fd = asmstore_cache_pack_file(c, &id2);
    again = fd >= 0;
    CHECK(again && id2 != 0);
    if (fd >= 0) close(fd);
    asmstore_cache_close(c);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* v2/v3: a pack written with options.store_file names that file; while it is unchanged, hits from the pack take the
   pack's source hashes at their word (no stored byte hashed), and once it changes (a new mtime) or another file is
   named, every hit hashes the stored bytes again. */
static void test_pack_store_file(void) {
    cu_store s;
    char *root = cu_tmpdir(), file[4200];
    asmstore_cache_options o;
    asmstore_cache_counters n;
    int hits;
    CHECK(cu_synthetic(&s, 3, 20, pack_sizes, 7, 909) == 0);
    snprintf(file, sizeof file, "%s/store.bin", root);
    CHECK(cu_spit(file, s.r.data, s.r.size) == 0);
    memset(&o, 0, sizeof o);
    o.pack = ASMSTORE_CACHE_PACK_AT_FLUSH;
    o.store_file = file;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0); /* misses: every entry hashed, then packed */
    CHECK(n.source_hashed == 20 && n.misses == 20);
    hits = 0;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
    CHECK(hits == 20 && n.pack_hits == 20 && n.source_hashed == 0);
    o.store_file = NULL; /* not named: hashed as before */
    hits = 0;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
    CHECK(hits == 20 && n.source_hashed == 20);
    o.store_file = file;
    usleep(20000);
    CHECK(utimensat(AT_FDCWD, file, NULL, 0) == 0); /* now: a new mtime and ctime */
    hits = 0;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
    CHECK(hits == 20 && n.source_hashed == 20);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* The replace-in-between race: the locator maps the store file, the file is replaced (a new inode),
   then the cache opens. The pack written names the file that was mapped (options.store_file_identity:
   the locator's fstat of its descriptor), not the one stat(store_file) finds: a start still on the
   mapped file takes the pack's source hashes at their word, one on the replacement hashes every hit's
   stored bytes again. */
static void test_pack_store_file_replaced(void) {
    cu_store s;
    char *root = cu_tmpdir(), file[4200], repl[4200];
    asmstore_locator loc;
    asmstore_cache_options o;
    asmstore_cache_counters n;
    struct stat st;
    int hits;
    CHECK(cu_synthetic(&s, 3, 20, pack_sizes, 7, 919) == 0);
    snprintf(file, sizeof file, "%s/store.bin", root);
    snprintf(repl, sizeof repl, "%s/store.new", root);
    CHECK(cu_spit(file, s.r.data, s.r.size) == 0 && cu_spit(repl, s.r.data, s.r.size) == 0);
    CHECK(asmstore_locate_file(&loc, file, NULL, NULL) == ASMSTORE_OK && stat(file, &st) == 0);
    CHECK(loc.file_identity.known && loc.file_identity.ino == (uint64_t)st.st_ino &&
          loc.file_identity.dev == (uint64_t)st.st_dev && loc.file_identity.size == s.r.size);
    CHECK(rename(repl, file) == 0); /* replaced after the mapping, before the cache opens */
    memset(&o, 0, sizeof o);
    o.pack = ASMSTORE_CACHE_PACK_AT_FLUSH;
    o.store_file = file;
    o.store_file_identity = loc.file_identity;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, NULL, NULL), 0); /* misses, then packed */
    CHECK(n.misses == 20 && n.packs_written == 1);
    hits = 0; /* a start still on the mapped file */
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
    CHECK(hits == 20 && n.pack_hits == 20 && n.source_hashed == 0);
    memset(&o.store_file_identity, 0, sizeof o.store_file_identity); /* one on the file there now */
    hits = 0;
    CHECK_EQ_INT(run_once(root, &s, &o, &n, &hits, NULL), 0);
    CHECK(hits == 20 && n.pack_hits == 20 && n.source_hashed == 20);
    asmstore_locator_close(&loc);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

static void test_pack_consolidates(void) {
    cu_store s;
    char *root = cu_tmpdir(), dir[4096], pk[4096], real[4096];
    asmstore_cache_counters n;
    asmstore_cache *c = NULL;
    struct stat st;
    uint32_t i;
    CHECK(cu_synthetic(&s, 4, 20, pack_sizes, 7, 606) == 0);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    pack_path(pk, sizeof pk, root, s.r.content_id);
    CHECK_EQ_INT(load_first(root, &s, 17, ASMSTORE_CACHE_PACK_NEVER, &n), 0);
    CHECK_EQ_INT(n.entries_written, 17);
    CHECK_EQ_INT(n.packs_written, 0);
    CHECK_EQ_INT(load_first(root, &s, 0, ASMSTORE_CACHE_PACK_AUTO, &n), 0); /* the writer looks at open */
    CHECK_EQ_INT(n.packs_written, 1);
    CHECK_EQ_INT(n.packed_entries, 17);
    CHECK_EQ_INT(cu_count_names(dir, ".bin"), 0);
    CHECK(stat(pk, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK_EQ_INT(load_first(root, &s, 20, ASMSTORE_CACHE_PACK_AUTO, &n), 0);
    CHECK(n.hits == 17 && n.pack_hits == 17 && n.recorded_hits == 17 && n.misses == 3);
    CHECK_EQ_INT(n.packs_written, 0); /* 3 files: below ASMSTORE_CACHE_PACK_MIN_FILES */
    CHECK_EQ_INT(cu_count_names(dir, ".bin"), 3);
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    for (i = 0; i < 20; i++) {
        asmstore_entry e;
        asmstore_cache_image img, again;
        asmstore_reader_entry(&s.r, i, &e, NULL);
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK && img.source == ASMSTORE_CACHE_HIT && img.writable);
        CHECK(img.alignment >= 4096);
        if (i == 5 && realpath(pk, real)) { /* file-backed: /proc/self/maps names the pack around img.data */
            FILE *f = fopen("/proc/self/maps", "r");
            char line[8192];
            unsigned long at = (unsigned long)(uintptr_t)img.data;
            int found = 0;
            while (f && fgets(line, sizeof line, f)) {
                unsigned long lo, hi;
                if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= at && at < hi && strstr(line, real))
                    found = 1;
            }
            if (f) fclose(f);
            CHECK(found);
        }
        ((unsigned char *)(uintptr_t)img.data)[0] ^= 0xFF; /* MAP_PRIVATE: neither the pack nor a second hit sees it */
        CHECK(asmstore_cache_get(c, &e, &again, NULL) == ASMSTORE_OK && memcmp(again.data, s.src[i], again.size) == 0);
        asmstore_cache_release(&again);
        asmstore_cache_release(&img);
        /* the slice given back is lent again holding the pack's bytes, not the write above */
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK && memcmp(img.data, s.src[i], img.size) == 0);
        asmstore_cache_release(&img);
    }
    asmstore_cache_close(c);
    /* ALWAYS: the old pack and the 3 files become one pack */
    CHECK_EQ_INT(load_first(root, &s, 20, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0);
    CHECK(n.packs_written >= 1 && n.packed_entries == 20);
    CHECK_EQ_INT(cu_count_names(dir, ".bin"), 0);
    CHECK_EQ_INT(cu_count_names(dir, ".tmp."), 0);
    CHECK_EQ_INT(load_first(root, &s, 20, ASMSTORE_CACHE_PACK_NEVER, &n), 0);
    CHECK(n.pack_hits == 20 && n.recorded_hits == 20);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* The pack lies in load order: entries loaded last to first (their files written in that order) are packed last to
   first; a later consolidation keeps the old images' order and puts the new files after them. */
static void test_pack_load_order(void) {
    cu_store s;
    char *root = cu_tmpdir(), pk[4096];
    asmstore_cache_counters n;
    asmstore_cache *c = NULL;
    unsigned char *f;
    size_t fs = 0, k;
    uint64_t off[7];
    int i;
    CHECK(cu_synthetic(&s, 4, 7, pack_sizes, 7, 505) == 0);
    pack_path(pk, sizeof pk, root, s.r.content_id);
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    for (i = 5; i >= 1; i--) { /* entries 5, 4, 3, 2, 1, each written before the next is loaded */
        asmstore_entry e;
        asmstore_cache_image img;
        asmstore_reader_entry(&s.r, (uint32_t)i, &e, NULL);
        CHECK(asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK);
        asmstore_cache_release(&img);
        asmstore_cache_flush(c);
    }
    asmstore_cache_close(c);
    CHECK_EQ_INT(load_first(root, &s, 0, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0); /* packs 5..1 */
    CHECK_EQ_INT(load_first(root, &s, 7, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0); /* adds 0 and 6 after them */
    CHECK(n.packed_entries == 7);
    f = cu_slurp(pk, &fs);
    CHECK(f != NULL && fs > 64 + 7 * 40 && asmstore__rd32(f + 24) == 7);
    for (k = 0; f && k < 7; k++) {
        CHECK(asmstore__rd32(f + 64 + 40 * k) == (uint32_t)k); /* the table is sorted by index */
        off[k] = asmstore__rd64(f + 64 + 40 * k + 8);
    }
    if (f) {
        CHECK(off[5] < off[4] && off[4] < off[3] && off[3] < off[2] && off[2] < off[1]);
        CHECK(off[1] < off[0] && off[1] < off[6]);
    }
    free(f);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* A byte changed inside a packed image (in place: the pack is no longer the recorded one): that image is never
   served (a miss, rejected; NEVER keeps the writer from consolidating meanwhile), the others are hashed before they
   are served, and the next consolidation takes the rewritten image. */
static void test_pack_corrupt_image(void) {
    cu_store s;
    char *root = cu_tmpdir(), pk[4096];
    asmstore_cache_counters n;
    unsigned char *f;
    size_t fs = 0;
    uint64_t off;
    int fd;
    CHECK(cu_synthetic(&s, 3, 7, pack_sizes, 7, 707) == 0);
    pack_path(pk, sizeof pk, root, asmstore_cache_store_id(&s.r));
    CHECK_EQ_INT(load_first(root, &s, 7, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0);
    CHECK(n.packs_written >= 1 && n.packed_entries == 7);
    f = cu_slurp(pk, &fs);
    CHECK(f != NULL && fs > 64 + 3 * 40);
    if (!f) { cu_free(&s); cu_rmrf(root); free(root); return; }
    off = asmstore__rd64(f + 64 + 3 * 40 + 8); /* entry 3's image (the table's fourth record) */
    CHECK(asmstore__rd32(f + 64 + 3 * 40) == 3);
    free(f);
    fd = open(pk, O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, "\x5a", 1, (off_t)(off + 777)) == 1);
    if (fd >= 0) close(fd);
    CHECK_EQ_INT(load_first(root, &s, 7, ASMSTORE_CACHE_PACK_NEVER, &n), 0);
    CHECK(n.misses == 1 && n.hits == 6 && n.pack_hits == 6 && n.recorded_hits == 0);
    CHECK(n.rejected == 1 && n.checksum_failures == 1 && n.entries_written == 1 && n.packs_written == 0);
    CHECK_EQ_INT(load_first(root, &s, 7, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0);
    CHECK(n.packs_written >= 1 && n.packed_entries == 7); /* consolidated again, with the rewritten image */
    CHECK_EQ_INT(load_first(root, &s, 7, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0);
    CHECK(n.pack_hits == 7 && n.recorded_hits == 7 && n.rejected == 0 && n.packs_written == 0);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* A damaged pack is no pack: truncated anywhere, a byte of its header or table flipped, or a table that is consistent
   (its hash fixed up) but out of bounds, unaligned, overlapping or out of order. Each gives right bytes (misses:
   read-only, nothing rewritten) and never a crash; an image whose size is not the store's is never served. */
static void test_pack_bad_tables(void) {
    cu_store s;
    char *root = cu_tmpdir(), pk[4096];
    asmstore_cache_counters n;
    asmstore_cache_options ro;
    unsigned char *good, *b;
    size_t gs = 0, table_end, k;
    int cases = 0, wrong = 0, served = 0, expect;
    CHECK(cu_synthetic(&s, 4, 7, pack_sizes, 7, 808) == 0);
    pack_path(pk, sizeof pk, root, s.r.content_id);
    CHECK_EQ_INT(load_first(root, &s, 7, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0);
    good = cu_slurp(pk, &gs);
    CHECK(good != NULL && gs > 64);
    if (!good) { cu_free(&s); cu_rmrf(root); free(root); return; }
    table_end = 64 + 40 * (size_t)asmstore__rd32(good + 24);
    b = (unsigned char *)malloc(gs + 8192);
    memset(&ro, 0, sizeof ro);
    ro.read_only = 1;
    for (k = 0; k < 3 * table_end + 60; k++) {
        size_t len = gs;
        expect = 0;
        memcpy(b, good, gs);
        if (k < table_end) b[k] ^= (unsigned char)(1u << (k % 8));            /* any header or table byte */
        else if (k < 2 * table_end) len = k - table_end;                      /* truncated there */
        else if (k < 3 * table_end) len = gs - 1 - (k - 2 * table_end) * 97;  /* truncated inside the images */
        else {                                                                /* consistent but wrong */
            size_t r = 64 + 40 * ((k - 3 * table_end) % 7), what = (k - 3 * table_end) / 7;
            if (what == 0) asmstore__wr64(b + r + 8, asmstore__rd64(b + r + 8) + 4096);  /* shifted by a page */
            if (what == 1) asmstore__wr64(b + r + 8, asmstore__rd64(b + r + 8) + 1);     /* unaligned */
            if (what == 2) asmstore__wr64(b + r + 16, asmstore__rd64(b + r + 16) + 1);   /* one byte longer: */
            if (what == 2 && r < 64 + 6 * 40) expect = 6; /* it fits before the next image, only that one is off */
            if (what == 3) asmstore__wr64(b + r + 16, UINT64_MAX - 100);                  /* huge */
            if (what == 4) asmstore__wr64(b + r + 8, 0);                                  /* over the header */
            if (what == 5) asmstore__wr32(b + r, 1000);                                   /* no such entry */
            if (what == 6) asmstore__wr32(b + r, asmstore__rd32(b + r) ^ 1);              /* out of order */
            if (what == 7) asmstore__wr32(b + 24, asmstore__rd32(b + 24) + 1);            /* count */
            if (what == 8) asmstore__wr32(b + 32, 1024);                                  /* below the page size */
            asmstore__wr64(b + 8, asmstore_xxh3_64(b + 16, table_end - 16));
        }
        if (len > gs) continue;
        CHECK(cu_spit(pk, b, len) == 0);
        wrong += run_once(root, &s, &ro, &n, NULL, NULL);
        served += (int)n.pack_hits - expect;
        cases++;
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(served, 0);
    CHECK(cases > 500);
    CHECK(cu_spit(pk, good, gs) == 0); /* and the intact bytes (unrecorded now) are served, each image hashed */
    CHECK_EQ_INT(run_once(root, &s, &ro, &n, NULL, NULL), 0);
    CHECK(n.pack_hits == 7 && n.recorded_hits == 0);
    free(b);
    free(good);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* In a child with its own tmpfs at root (mode 0: remounted read-only once the files are there; 1: too small for the
   pack as well as the files): the consolidation fails once, writing stays off, every byte is right, no temp file is
   left and the files keep serving. 0 all good, 77 skip, else a failure code. */
static int pack_fault_child(void *p) {
    fault_arg *a = (fault_arg *)p;
    asmstore_cache_counters n;
    char dir[4096];
    if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 77;
    if (mount("tmpfs", a->root, "tmpfs", 0, a->mode == 1 ? "size=400k,mode=0700" : "size=8m,mode=0700") != 0) return 77;
    if (load_first(a->root, a->s, a->s->n, ASMSTORE_CACHE_PACK_NEVER, &n) != 0 || n.entries_written != a->s->n) return 10;
    if (a->mode == 0 && mount("tmpfs", a->root, "tmpfs", MS_REMOUNT | MS_RDONLY, NULL) != 0) return 77;
    if (load_first(a->root, a->s, a->s->n, ASMSTORE_CACHE_PACK_ALWAYS, &n) != 0) return 11;
    if (n.hits != a->s->n || n.packs_written != 0 || n.write_failures != 1 || n.writes_enabled) return 12;
    if (n.last_errno != (a->mode == 0 ? EROFS : ENOSPC)) { fprintf(stderr, "  errno %d\n", n.last_errno); return 13; }
    cu_store_dir(dir, sizeof dir, a->root, a->s->r.content_id);
    if (cu_count_names(dir, ".tmp.") != 0 || cu_count_names(dir, "pack") != 0) return 14;
    if (load_first(a->root, a->s, a->s->n, ASMSTORE_CACHE_PACK_ALWAYS, &n) != 0 || n.hits != a->s->n) return 15;
    return 0;
}

static void pack_fault_case(int mode) {
    static const size_t sizes[] = {90000, 60000, 70000, 40000}; /* 260 KB of images */
    run_fault_child(pack_fault_child, mode, 4, sizes, 2000);
}
static void test_pack_readonly_fs(void) { pack_fault_case(0); }
static void test_pack_full_fs(void) { pack_fault_case(1); }

/* Two processes consolidate the same store at once (released together from a pipe): each gives right bytes, the
   directory ends with one valid pack and no temp file, and the next runs hit everything. */
static int pack_race_child(void *p) {
    const cu_store *s = (const cu_store *)((void **)p)[0];
    const char *root = (const char *)((void **)p)[1];
    int go = *(const int *)((void **)p)[2];
    asmstore_cache_counters n;
    char x;
    if (read(go, &x, 1) != 1) return 90;
    if (load_first(root, s, s->n, ASMSTORE_CACHE_PACK_ALWAYS, &n) != 0) return 91;
    if (load_first(root, s, s->n, ASMSTORE_CACHE_PACK_ALWAYS, &n) != 0) return 92;
    return 0;
}

static void test_pack_two_processes(void) {
    static const size_t sizes[] = {300000, 150000, 70000, 500000};
    cu_store s;
    char *root = cu_tmpdir(), dir[4096], pk[4096];
    asmstore_cache_counters n;
    int round, failed = 0;
    CHECK(cu_synthetic(&s, 4, 24, sizes, 4, 909) == 0);
    cu_store_dir(dir, sizeof dir, root, s.r.content_id);
    pack_path(pk, sizeof pk, root, s.r.content_id);
    for (round = 0; round < 4; round++) {
        pid_t kids[2];
        int go[2], i;
        void *args[3];
        /* even rounds: the files are there and both consolidate them; odd ones: nothing, both write and pack */
        if (round % 2 == 0) CHECK_EQ_INT(load_first(root, &s, s.n, ASMSTORE_CACHE_PACK_NEVER, &n), 0);
        CHECK(pipe(go) == 0);
        args[0] = &s;
        args[1] = root;
        args[2] = &go[0];
        fflush(stdout);
        for (i = 0; i < 2; i++) {
            kids[i] = fork();
            if (kids[i] == 0) _exit(pack_race_child(args));
        }
        CHECK(write(go[1], "gg", 2) == 2);
        for (i = 0; i < 2; i++) {
            int st = 0;
            waitpid(kids[i], &st, 0);
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) { failed++; fprintf(stderr, "  child: status 0x%x\n", st); }
        }
        close(go[0]);
        close(go[1]);
        CHECK_EQ_INT(cu_count_names(dir, ".tmp."), 0);
        CHECK_EQ_INT(cu_count_names(dir, "pack"), 1);
        CHECK_EQ_INT(load_first(root, &s, s.n, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0); /* fills what a race lost */
        CHECK_EQ_INT(load_first(root, &s, s.n, ASMSTORE_CACHE_PACK_ALWAYS, &n), 0);
        CHECK(n.hits == s.n && n.pack_hits == s.n && n.recorded_hits == s.n);
        unlink(pk);
    }
    CHECK_EQ_INT(failed, 0);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* ---- races: 8 processes, one directory --------------------------------------------------- */
static int race_child(void *p) {
    const cu_store *s = (const cu_store *)((void **)p)[0];
    const char *root = (const char *)((void **)p)[1];
    long seed = (long)(intptr_t)((void **)p)[2];
    struct timeval t0, t;
    int iter = 0, bad = 0, hits = 0;
    char path[4096];
    uint32_t x = (uint32_t)seed * 7919u + 1u;
    gettimeofday(&t0, NULL);
    do {
        asmstore_cache *c = NULL;
        if (asmstore_cache_open(&c, root, &s->r, NULL, NULL) != ASMSTORE_OK) return 100;
        bad += load_all(c, s, &hits, NULL, NULL);
        x = x * 1103515245u + 12345u;
        if ((x >> 16) % 3 == 0) {
            /* force rewrites while others read */
            cu_entry_path(path, sizeof path, root, s->r.content_id, (x >> 8) % (uint32_t)s->n);
            unlink(path);
        }
        /* the first round always writes, so the second finds something to hit */
        if (iter == 0 || (x >> 20) % 2) asmstore_cache_flush(c); /* else close drops what is queued */
        asmstore_cache_close(c);
        iter++;
        gettimeofday(&t, NULL);
        /* at least two rounds whatever the speed (sanitizers, a loaded machine): the second one hits */
    } while (iter < 2 || (t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_usec - t0.tv_usec) < 1500000L);
    printf("  race child %ld: %d iterations, %d hits, %d wrong\n", seed, iter, hits, bad);
    fflush(stdout);
    if (bad) return 1;
    return hits > 0 ? 0 : 2;
}

static void test_race_8_processes(void) {
    static const size_t sizes[] = {30000, 1000, 90000, 7000, 400, 150000};
    cu_store s;
    char *root = cu_tmpdir();
    pid_t kids[8];
    int i, failed = 0;
    CHECK(cu_synthetic(&s, 4, 24, sizes, 6, 777) == 0);
    fflush(stdout);
    for (i = 0; i < 8; i++) {
        void *args[3];
        args[0] = &s;
        args[1] = root;
        args[2] = (void *)(intptr_t)i;
        kids[i] = fork();
        if (kids[i] == 0) _exit(race_child(args));
    }
    for (i = 0; i < 8; i++) {
        int st = 0;
        waitpid(kids[i], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) { failed++; fprintf(stderr, "  race child %d: status 0x%x\n", i, st); }
    }
    CHECK_EQ_INT(failed, 0);
    {
        int hits = 0;
        CHECK_EQ_INT(run_once(root, &s, NULL, NULL, &hits, NULL), 0);
        CHECK(hits > 0);
    }
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* The names tools print for where an image came from, one per source, "none" for anything else. */
/* ---- more images held than the kernel allows mappings (vm.max_map_count) --------------------- */
/* Image i of the many-images store: 64 bytes naming i. */
static void many_image(unsigned char *img, size_t i) {
    memset(img, 'a' + (int)(i % 26), 64);
    snprintf((char *)img, 64, "image %zu", i);
}

/* A store of n tiny images "M<i>.dll" with a name table attached (reader calls stay O(1) an entry);
   *bytes and *table are the caller's to free. 0 on success. */
static int many_store(size_t n, asmstore_reader *r, unsigned char **bytes, uint32_t **table) {
    asmstore_writer *w = cu_writer(4, 0);
    const void *data;
    size_t size, i, tsize;
    for (i = 0; w && i < n; i++) {
        asmstore_add e = {0};
        unsigned char img[64];
        char name[32];
        many_image(img, i);
        snprintf(name, sizeof name, "M%zu.dll", i);
        e.name = name;
        e.image = img;
        e.image_size = sizeof img;
        if (asmstore_writer_add(w, &e, NULL) != ASMSTORE_OK) break;
    }
    if (!w || i < n || asmstore_writer_finish(w, &data, &size, NULL) != ASMSTORE_OK) {
        asmstore_writer_free(w);
        return -1;
    }
    *bytes = (unsigned char *)malloc(size);
    memcpy(*bytes, data, size);
    asmstore_writer_free(w);
    if (asmstore_reader_init(r, *bytes, size, NULL, NULL) != ASMSTORE_OK) return -1;
    tsize = asmstore_reader_name_table_size(r) + 4;
    *table = (uint32_t *)malloc(tsize);
    return asmstore_reader_attach_name_table(r, *table, tsize, NULL) == ASMSTORE_OK ? 0 : -1;
}

/* Gets every entry of r through a cache on root and holds them all, then flushes; counts the gets
   that failed or gave wrong bytes (*bad), fills *n. */
static void many_load_all(const char *root, const asmstore_reader *r, asmstore_cache_counters *n, size_t *bad) {
    asmstore_cache_image *imgs = (asmstore_cache_image *)calloc(r->entry_count, sizeof *imgs);
    asmstore_cache *c = NULL;
    unsigned char want[64];
    size_t i;
    *bad = r->entry_count;
    if (!imgs || asmstore_cache_open(&c, root, r, NULL, NULL) != ASMSTORE_OK) { free(imgs); return; }
    for (i = 0, *bad = 0; i < r->entry_count; i++) {
        asmstore_entry e;
        asmstore_error err;
        asmstore_reader_entry(r, (uint32_t)i, &e, NULL);
        many_image(want, i);
        if (asmstore_cache_get(c, &e, &imgs[i], &err) != ASMSTORE_OK) {
            if ((*bad)++ < 3) fprintf(stderr, "  get %zu: %s\n", i, err.message);
        } else if (imgs[i].size != sizeof want || memcmp(imgs[i].data, want, sizeof want) != 0) {
            (*bad)++;
        }
    }
    asmstore_cache_flush(c);
    asmstore_cache_stats(c, n);
    for (i = 0; i < r->entry_count; i++) asmstore_cache_release(&imgs[i]);
    asmstore_cache_close(c);
    free(imgs);
}

/* In a child, on a tmpfs of its own (tens of thousands of fsynced files on a disk take most of a
   minute): 0 all good, 77 no mount namespace, else a failure code. */
static int many_child(void *p) {
    const char *root = (const char *)((void **)p)[0];
    const asmstore_reader *r = (const asmstore_reader *)((void **)p)[1];
    asmstore_cache_counters n;
    size_t bad;
    if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return 77;
    if (mount("tmpfs", root, "tmpfs", 0, "size=1g,mode=0700") != 0) return 77;
    many_load_all(root, r, &n, &bad);
    if (bad || n.misses != r->entry_count || n.packed_entries != r->entry_count) {
        fprintf(stderr, "  first run: %zu bad, %llu misses, %llu packed\n", bad, (unsigned long long)n.misses,
                (unsigned long long)n.packed_entries);
        return 10;
    }
    many_load_all(root, r, &n, &bad);
    if (bad || n.pack_hits != r->entry_count || n.misses || n.map_failures) {
        fprintf(stderr, "  second run: %zu bad, %llu pack hits, %llu misses, %llu not mapped\n", bad,
                (unsigned long long)n.pack_hits, (unsigned long long)n.misses, (unsigned long long)n.map_failures);
        return 11;
    }
    return 0;
}

/* A store with more images than vm.max_map_count, every image held at once: the second run serves them all from
   the pack (one mapping, each image a slice of it; one mapping per image stopped at the limit, the rest then failed
   as out of memory). */
static void test_more_images_than_mappings(void) {
    asmstore_reader r;
    unsigned char *bytes = NULL;
    uint32_t *table = NULL;
    char *root = cu_tmpdir();
    void *arg[2];
    long limit = 0;
    int rc, sig = 0;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f && fscanf(f, "%ld", &limit) != 1) limit = 0;
    if (f) fclose(f);
    if (limit <= 0 || limit > 300000) {
        cu_rmrf(root);
        free(root);
        SKIP(limit <= 0 ? "no /proc/sys/vm/max_map_count"
                        : "vm.max_map_count above 300000: a store past it takes too long");
    }
    CHECK(many_store((size_t)limit + 1000, &r, &bytes, &table) == 0);
    arg[0] = root;
    arg[1] = &r;
    rc = in_child(many_child, arg, &sig);
    free(bytes);
    free(table);
    cu_rmrf(root);
    free(root);
    if (rc == 77) SKIP("no private mount namespace for a tmpfs (unshare/mount not permitted)");
    if (rc == -1) fprintf(stderr, "  child killed by signal %d\n", sig);
    CHECK_EQ_INT(rc, 0);
}

static void test_source_names(void) {
    CHECK(!strcmp(asmstore_cache_source_name(ASMSTORE_CACHE_HIT), "hit"));
    CHECK(!strcmp(asmstore_cache_source_name(ASMSTORE_CACHE_MISS), "miss"));
    CHECK(!strcmp(asmstore_cache_source_name(ASMSTORE_CACHE_DIRECT), "direct"));
    CHECK(!strcmp(asmstore_cache_source_name(ASMSTORE_CACHE_COPY), "copy"));
    CHECK(!strcmp(asmstore_cache_source_name(ASMSTORE_CACHE_NONE), "none"));
    CHECK(!strcmp(asmstore_cache_source_name((asmstore_cache_source)99), "none"));
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    unsetenv("ASMSTORE_CACHE_DISABLE");
    RUN(test_miss_persist_hit_mono);
    RUN(test_direct_uncompressed);
    RUN(test_entry_checked);
    RUN(test_validate_file);
    RUN(test_source_names);
    RUN(test_corrupt_payload_byte);
    RUN(test_corrupt_footer_magic);
    RUN(test_corrupt_footer_version);
    RUN(test_corrupt_footer_store_id);
    RUN(test_corrupt_footer_payload_hash);
    RUN(test_corrupt_footer_index);
    RUN(test_corrupt_footer_flags);
    RUN(test_corrupt_footer_size);
    RUN(test_corrupt_footer_source_v4);
    RUN(test_corrupt_footer_source_v3);
    RUN(test_corrupt_payload_v2);
    RUN(test_corrupt_truncated);
    RUN(test_corrupt_extended);
    RUN(test_corrupt_other_store_id);
    RUN(test_corrupt_other_store_id_v3);
    RUN(test_corrupt_empty_file);
    RUN(test_corrupt_directory);
    RUN(test_corrupt_symlink);
    RUN(test_corrupt_fifo);
    RUN(test_corrupt_other_entry);
    RUN(test_reject_world_writable);
    RUN(test_reject_group_writable);
    RUN(test_reject_other_owner);
    RUN(test_store_id_v3);
    RUN(test_stale_data_v3);
    RUN(test_stale_data_v2);
    RUN(test_disable_env_and_option);
    RUN(test_queue_bound_big_alone);
    RUN(test_symlinked_dirs_mean_off);
    RUN(test_stale_tmp_removed);
    RUN(test_prune);
    RUN(test_fault_readonly_fs);
    RUN(test_fault_full_fs);
    RUN(test_fault_fsize_sigxfsz_ignored);
    RUN(test_fault_fsize_sigxfsz_default);
    RUN(test_crash_mid_write);
    RUN(test_recorded_hits_skip_hash);
    RUN(test_allocator_gets_everything);
    RUN(test_sigkill_any_point_recorded);
    RUN(test_policy_page_cache);
    RUN(test_policy_counts_store_reads);
    RUN(test_race_8_processes);
    RUN(test_open_starts_no_thread);
    RUN(test_pack_file_and_offsets);
    RUN(test_put_packed_v4);
    RUN(test_put_packed_v3);
    RUN(test_put_small_queue);
    RUN(test_put_refused_or_off);
    RUN(test_pack_store_file);
    RUN(test_pack_store_file_replaced);
    RUN(test_pack_consolidates);
    RUN(test_pack_load_order);
    RUN(test_pack_corrupt_image);
    RUN(test_pack_bad_tables);
    RUN(test_pack_readonly_fs);
    RUN(test_pack_full_fs);
    RUN(test_pack_two_processes);
    RUN(test_more_images_than_mappings);
    return TEST_DONE();
}
