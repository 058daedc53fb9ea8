/* tests/test_errors.c - failure paths: the writer retried after each failing allocation, a failing
   compressor callback and an unwritable output (no leak under ASan/LSan: build/asan/test_errors), and
   asmstore_error's result, offset, entry and message filled for a sample of failures. */
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"

#include <errno.h>
#include <pthread.h>

/* ---- an allocator that fails its Nth allocation and counts what is still allocated (the writer's
   workers call it at once: one lock for the counters) ---- */
static pthread_mutex_t fa_lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct failing_alloc {
    long calls, fail_at;   /* fail_at 0: never */
    long live;             /* allocations not freed yet */
    size_t live_bytes;
} failing_alloc;

static void *fa_alloc(void *user, size_t size) {
    failing_alloc *f = (failing_alloc *)user;
    void *p = NULL;
    pthread_mutex_lock(&fa_lock);
    if (++f->calls != f->fail_at) p = malloc(size);
    if (p) { f->live++; f->live_bytes += size; }
    pthread_mutex_unlock(&fa_lock);
    return p;
}
static void fa_free(void *user, void *ptr, size_t size) {
    failing_alloc *f = (failing_alloc *)user;
    pthread_mutex_lock(&fa_lock);
    f->live--;
    f->live_bytes -= size;
    pthread_mutex_unlock(&fa_lock);
    free(ptr);
}

#define N_IMAGES 3
static const char *const names[N_IMAGES] = {"App.dll", "System.Runtime.dll", "fr/App.resources.dll"};

/* The store written reads back: every name found, every image equal to what was added. */
static int reads_back(const void *store, size_t size, uint32_t format, const asmstore_read_options *ro,
                      unsigned char *const images[N_IMAGES], const size_t sizes[N_IMAGES]) {
    asmstore_reader r;
    asmstore_entry e;
    int i, ok = 1;
    if (asmstore_reader_init(&r, store, size, ro, NULL) != ASMSTORE_OK) return 0;
    if (r.entry_count != N_IMAGES) return 0;
    for (i = 0; i < N_IMAGES && ok; i++) {
        unsigned char *buf = (unsigned char *)malloc(sizes[i]);
        if (format == 1) ok = asmstore_reader_entry(&r, (uint32_t)i, &e, NULL) == ASMSTORE_OK;
        else ok = asmstore_reader_find(&r, names[i], strlen(names[i]), &e, NULL) == ASMSTORE_OK;
        ok = ok && e.uncompressed_size == sizes[i] &&
             asmstore_reader_read(&r, &e, buf, sizes[i], NULL, NULL) == ASMSTORE_OK;
        if (ok && format != 1) ok = memcmp(buf, images[i], sizes[i]) == 0;
        free(buf);
    }
    return ok;
}

/* One run with allocation number fail_at failing: create, add (a failed add retried once with the
   allocator healed), finish (a failed finish retried once healed), free. 1: the Nth allocation was
   reached; 0: the run allocated fewer than N times (the loop is done). */
static int retry_run(uint32_t format, int jobs, long fail_at) {
    failing_alloc fa;
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_error err;
    asmstore_result res;
    unsigned char *images[N_IMAGES];
    size_t sizes[N_IMAGES] = {70000, 3000, 500};
    const void *store = NULL;
    size_t store_size = 0;
    int i;
    memset(&fa, 0, sizeof fa);
    fa.fail_at = fail_at;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.jobs = jobs;
    o.allocator.alloc = fa_alloc; o.allocator.free = fa_free; o.allocator.user = &fa;
    for (i = 0; i < N_IMAGES; i++) images[i] = make_bytes(sizes[i], (unsigned)i + 1u);
    res = asmstore_writer_create(&w, &o, &err);
    if (res != ASMSTORE_OK) {
        CHECK_EQ_INT(res, ASMSTORE_ERR_OUT_OF_MEMORY);
        CHECK(err.result == res && err.message != NULL);
        CHECK(w == NULL);
        fa.fail_at = 0;
        res = asmstore_writer_create(&w, &o, NULL);
        CHECK_EQ_INT(res, ASMSTORE_OK);
    }
    for (i = 0; i < N_IMAGES && w; i++) {
        asmstore_add e = {0};
        e.name = names[i];
        e.image = images[i];
        e.image_size = sizes[i];
        e.pdb = i == 0 ? images[2] : NULL;
        e.pdb_size = i == 0 ? 100u : 0u;
        res = asmstore_writer_add(w, &e, &err);
        if (res != ASMSTORE_OK) {
            CHECK_EQ_INT(res, ASMSTORE_ERR_OUT_OF_MEMORY);
            CHECK(err.result == res && err.message != NULL);
            CHECK_EQ_INT(asmstore_writer_count(w), (size_t)i); /* the failed add left nothing behind */
            fa.fail_at = 0;
            res = asmstore_writer_add(w, &e, NULL);
            CHECK_EQ_INT(res, ASMSTORE_OK);
        }
    }
    if (w) {
        res = asmstore_writer_finish(w, &store, &store_size, &err);
        if (res != ASMSTORE_OK) {
            CHECK_EQ_INT(res, ASMSTORE_ERR_OUT_OF_MEMORY);
            CHECK(err.result == res && err.message != NULL);
            fa.fail_at = 0;
            res = asmstore_writer_finish(w, &store, &store_size, NULL);
            CHECK_EQ_INT(res, ASMSTORE_OK);
        }
        if (res == ASMSTORE_OK) CHECK(reads_back(store, store_size, format, NULL, images, sizes));
        asmstore_writer_free(w);
    }
    if (fa.live != 0) fprintf(stderr, "  format %u, %d jobs, allocation %ld failing: leak\n", (unsigned)format, jobs, fail_at);
    CHECK_EQ_INT(fa.live, 0);
    CHECK_EQ_INT(fa.live_bytes, 0);
    for (i = 0; i < N_IMAGES; i++) free(images[i]);
    return fa.calls >= fail_at;
}

static void retry_each_allocation(uint32_t format, int jobs) {
    long n;
    for (n = 1; n < 100000 && retry_run(format, jobs, n); n++) {}
    CHECK(n > 10); /* the writer allocates more than a handful of times: the loop really ran */
}
static void test_retry_after_allocation_failure_format4(void) { retry_each_allocation(4, 1); }
static void test_retry_after_allocation_failure_format4_threads(void) { retry_each_allocation(4, 3); }
static void test_retry_after_allocation_failure_format1(void) { retry_each_allocation(1, 2); }

/* ---- a compressor callback that fails, then one that claims more than dst_cap ---- */
static asmstore_result copy_back(void *user, asmstore_compression kind, void *dst, size_t dst_cap, const void *src,
                                 size_t src_size, size_t *written) {
    (void)user; (void)kind;
    if (src_size > dst_cap) return ASMSTORE_ERR_DECOMPRESS;
    memcpy(dst, src, src_size);
    *written = src_size;
    return ASMSTORE_OK;
}
static int lz4_mode; /* 0: fail on the second call, 1: report dst_cap + 1 bytes, 2: store raw */
static int lz4_calls;
static asmstore_result fake_lz4(void *user, asmstore_compression kind, int level, void *dst, size_t dst_cap,
                                const void *src, size_t src_size, size_t *written) {
    (void)user; (void)kind; (void)level;
    lz4_calls++;
    if (lz4_mode == 0 && lz4_calls == 2) return ASMSTORE_ERR_COMPRESS;
    if (lz4_mode == 1) { *written = dst_cap + 1; return ASMSTORE_OK; }
    if (src_size > dst_cap) return ASMSTORE_ERR_COMPRESS;
    memcpy(dst, src, src_size);
    *written = src_size;
    return ASMSTORE_OK;
}

static void test_compress_callback_failure_then_retry(void) {
    failing_alloc fa;
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_error err;
    unsigned char *images[N_IMAGES];
    size_t sizes[N_IMAGES] = {4000, 3000, 2000};
    asmstore_read_options ro;
    const void *store;
    size_t store_size;
    int i, mode;
    memset(&ro, 0, sizeof ro);
    ro.decompress = copy_back;
    for (mode = 0; mode < 2; mode++) {
        memset(&fa, 0, sizeof fa);
        memset(&o, 0, sizeof o);
        o.compression = ASMSTORE_COMPRESSION_LZ4;
        o.compress = fake_lz4;
        o.jobs = 1;
        o.allocator.alloc = fa_alloc; o.allocator.free = fa_free; o.allocator.user = &fa;
        CHECK_EQ_INT(asmstore_writer_create(&w, &o, NULL), ASMSTORE_OK);
        if (!w) return;
        for (i = 0; i < N_IMAGES; i++) {
            images[i] = make_bytes(sizes[i], (unsigned)i + 7u);
            CHECK_EQ_INT(test_add(w, names[i], images[i], sizes[i], 0),
                         ASMSTORE_OK);
        }
        lz4_mode = mode; lz4_calls = 0;
        CHECK_EQ_INT(asmstore_writer_finish(w, &store, &store_size, &err), ASMSTORE_ERR_COMPRESS);
        CHECK_EQ_INT(err.result, ASMSTORE_ERR_COMPRESS);
        CHECK(err.entry >= 0 && err.entry < N_IMAGES);
        CHECK(err.message != NULL && strstr(err.message, "compress") != NULL);
        lz4_mode = 2;
        CHECK_EQ_INT(asmstore_writer_finish(w, &store, &store_size, &err), ASMSTORE_OK);
        CHECK(reads_back(store, store_size, 4, &ro, images, sizes));
        asmstore_writer_free(w);
        CHECK_EQ_INT(fa.live, 0);
        for (i = 0; i < N_IMAGES; i++) free(images[i]);
    }
}

/* ---- files: an output nobody can write ---- */
static void test_unwritable_output(void) {
    asmstore_error err;
    asmstore_elf_options eo;
    unsigned char payload[64];
    void *data = NULL;
    size_t size = 0;
    memset(payload, 0x5a, sizeof payload);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(asmstore_write_file("/nonexistent-dir/store.bin", payload, sizeof payload, 0644, &err), ASMSTORE_ERR_IO);
    CHECK_EQ_INT(err.result, ASMSTORE_ERR_IO);
    CHECK_EQ_INT(err.backend_code, ENOENT);
    CHECK(err.message != NULL && strstr(err.message, "temp file") != NULL);
    memset(&eo, 0, sizeof eo);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(asmstore_elf_write_file("/nonexistent-dir/libassembly-store.so", &eo, payload, sizeof payload, 0644, &err),
                 ASMSTORE_ERR_IO);
    CHECK_EQ_INT(err.backend_code, ENOENT);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(asmstore_read_file("/nonexistent-dir/x", NULL, &data, &size, &err), ASMSTORE_ERR_NOT_FOUND);
    CHECK(err.message != NULL && err.backend_code == ENOENT && data == NULL);
}

/* ---- messages and offsets for a sample of failures ---- */
static asmstore_writer *stored_store(const void **store, size_t *size) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    unsigned char *a = make_bytes(1000, 1), *b = make_bytes(2000, 2);
    memset(&o, 0, sizeof o);
    o.no_compress = 1;
    o.jobs = 1;
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK ||
        test_add(w, "A.dll", a, 1000, 0) != ASMSTORE_OK ||
        test_add(w, "B.dll", b, 2000, 0) != ASMSTORE_OK ||
        asmstore_writer_finish(w, store, size, NULL) != ASMSTORE_OK) {
        asmstore_writer_free(w);
        w = NULL;
    }
    free(a); free(b);
    return w;
}

static void test_reader_messages(void) {
    const void *store;
    size_t size;
    asmstore_writer *w = stored_store(&store, &size);
    asmstore_reader r;
    asmstore_error err;
    asmstore_entry e;
    unsigned char *copy;
    size_t second;
    CHECK(w != NULL);
    if (!w) return;
    /* truncated: the images run past the end */
    CHECK_EQ_INT(asmstore_reader_init(&r, store, size - 100, NULL, &err), ASMSTORE_ERR_BAD_DESCRIPTOR);
    CHECK_EQ_INT(err.result, ASMSTORE_ERR_BAD_DESCRIPTOR);
    CHECK_EQ_INT(err.entry, 1);
    CHECK(err.message != NULL && strstr(err.message, "outside") != NULL);
    CHECK_EQ_INT(asmstore_reader_init(&r, store, 10, NULL, &err), ASMSTORE_ERR_TRUNCATED);
    CHECK(err.message != NULL && err.offset == 0);
    /* overlapping: the second image starts where the first does */
    CHECK_EQ_INT(asmstore_reader_init(&r, store, size, NULL, NULL), ASMSTORE_OK);
    second = r.descriptors_offset + ASMSTORE_DESCRIPTOR_SIZE;
    copy = (unsigned char *)malloc(size);
    memcpy(copy, store, size);
    memcpy(copy + second + 4, copy + second - ASMSTORE_DESCRIPTOR_SIZE + 4, 4);
    CHECK_EQ_INT(asmstore_reader_init(&r, copy, size, NULL, &err), ASMSTORE_ERR_OVERLAP);
    CHECK_EQ_INT(err.entry, 1);
    CHECK_EQ_INT(err.offset, second);
    CHECK(err.message != NULL && strstr(err.message, "overlaps") != NULL);
    free(copy);
    /* lookups: not found, index past the end */
    CHECK_EQ_INT(asmstore_reader_init(&r, store, size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "C.dll", 5, &e, &err), ASMSTORE_ERR_NOT_FOUND);
    CHECK(err.result == ASMSTORE_ERR_NOT_FOUND && err.message != NULL);
    CHECK_EQ_INT(asmstore_reader_entry(&r, 7, &e, &err), ASMSTORE_ERR_NOT_FOUND);
    CHECK(err.entry == 7 && err.message != NULL);
    /* success leaves err alone */
    err.message = "untouched";
    CHECK_EQ_INT(asmstore_reader_find(&r, "A", 1, &e, &err), ASMSTORE_OK);
    CHECK(strcmp(err.message, "untouched") == 0);
    asmstore_writer_free(w);
}

static void test_elf_and_zip_messages(void) {
    static const char garbage[] = "\x7f" "ELF this is not an ELF file at all, only its magic and some text";
    unsigned char zip[256];
    size_t n = 0, cd;
    const void *pl;
    size_t pls;
    asmstore_error err;
    asmstore_zip_entry ze;
    /* elf_payload on garbage */
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(asmstore_elf_payload(garbage, sizeof garbage, NULL, &pl, &pls, NULL, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK(err.result == ASMSTORE_ERR_BAD_ELF && err.message != NULL);
    CHECK_EQ_INT(asmstore_elf_check_bionic(garbage, sizeof garbage, ASMSTORE_ABI_UNKNOWN, NULL, NULL, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK(err.message != NULL && err.rule == 0);
    /* a ZIP with one STORED entry "a.txt" and no store */
    memset(zip, 0, sizeof zip);
    memcpy(zip, "PK\3\4", 4); zip[26] = 5; zip[28] = 13; memcpy(zip + 30, "a.txt", 5); n = 48; /* data 16-aligned */
    cd = n;
    memcpy(zip + n, "PK\1\2", 4); zip[n + 28] = 5; memcpy(zip + n + 46, "a.txt", 5); n += 51;
    memcpy(zip + n, "PK\5\6", 4); zip[n + 8] = 1; zip[n + 10] = 1; zip[n + 12] = 51; zip[n + 16] = (unsigned char)cd;
    n += 22;
    CHECK_EQ_INT(asmstore_zip_find(zip, n, "a.txt", 5, &ze, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_zip_find(zip, n, "b.txt", 5, &ze, &err), ASMSTORE_ERR_NOT_FOUND);
    CHECK(err.message != NULL && strstr(err.message, "central directory") != NULL);
    CHECK_EQ_INT(asmstore_zip_find_store(zip, n, ASMSTORE_ABI_UNKNOWN, NULL, &ze, &err), ASMSTORE_ERR_NOT_FOUND);
    CHECK(err.message != NULL);
    CHECK_EQ_INT(asmstore_zip_find(zip, n - 1, "a.txt", 5, &ze, &err), ASMSTORE_ERR_BAD_ZIP);
    CHECK(err.message != NULL);
}

/* The bionic checker reports its rule through asmstore_error: a dlopen wrapper for arm64 checked
   as x86 breaks rule 9 (class/machine), with the message and the e_machine offset. */
static void test_bionic_rule_in_error(void) {
    const void *store;
    size_t size, n = 0;
    asmstore_writer *w = stored_store(&store, &size);
    asmstore_elf_options eo;
    asmstore_error err;
    void *so = NULL, *bad = NULL;
    size_t bad_size = 0;
    CHECK(w != NULL);
    if (!w) return;
    memset(&eo, 0, sizeof eo);
    CHECK_EQ_INT(asmstore_elf_wrap(&eo, store, size, &so, &n, NULL), ASMSTORE_OK);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(asmstore_elf_check_bionic(so, n, ASMSTORE_ABI_ARM64, NULL, NULL, &err), ASMSTORE_OK);
    CHECK_EQ_INT(err.rule, 0);
    CHECK_EQ_INT(asmstore_elf_check_bionic(so, n, ASMSTORE_ABI_X86, NULL, NULL, &err), ASMSTORE_ERR_ELF_RULE);
    CHECK_EQ_INT(err.result, ASMSTORE_ERR_ELF_RULE);
    CHECK_EQ_INT(err.rule, 9);
    CHECK_EQ_INT(err.offset, 18);
    CHECK(err.message != NULL && strstr(err.message, "e_machine") != NULL);
    eo.alignment = 1000;
    CHECK_EQ_INT(asmstore_elf_wrap(&eo, store, size, &bad, &bad_size, &err), ASMSTORE_ERR_INVALID_ARG);
    CHECK(bad == NULL);
    CHECK(err.rule == 0 && err.message != NULL && strstr(err.message, "alignment") != NULL);
    asmstore_free(NULL, so, n);
    asmstore_writer_free(w);
}

int main(void) {
    RUN(test_retry_after_allocation_failure_format4);
    RUN(test_retry_after_allocation_failure_format4_threads);
    RUN(test_retry_after_allocation_failure_format1);
    RUN(test_compress_callback_failure_then_retry);
    RUN(test_unwritable_output);
    RUN(test_reader_messages);
    RUN(test_elf_and_zip_messages);
    RUN(test_bionic_rule_in_error);
    return TEST_DONE();
}
