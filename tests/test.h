/* tests/test.h - tiny test harness: RUN(fn) runs a test case, CHECK(cond) marks it failed.
   Each test binary ends with one line "N passed, N failed" (test cases, not checks) and exits
   non-zero on any failure. SKIP(msg) marks a case skipped with a visible message. */
#ifndef ASMSTORE_TEST_H
#define ASMSTORE_TEST_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test__passed, test__failed, test__case_failed, test__skipped;

#define CHECK(cond) do { if (!(cond)) { test__case_failed = 1; \
    fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ_INT(a, b) do { long long test__a = (long long)(a), test__b = (long long)(b); if (test__a != test__b) { \
    test__case_failed = 1; fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, test__a, #b, test__b); } } while (0)
#define SKIP(msg) do { printf("  SKIP %s: %s\n", __func__, msg); test__skipped = 1; return; } while (0)
#define RUN(fn) do { test__case_failed = 0; test__skipped = 0; fn(); \
    if (test__skipped) {} else if (test__case_failed) { test__failed++; printf("FAIL %s\n", #fn); } \
    else { test__passed++; printf("ok   %s\n", #fn); } } while (0)
/* Deterministic, compressible bytes that differ per seed, starting with "MZ" (a fake assembly). */
static inline unsigned char *make_bytes(size_t n, unsigned seed) {
    unsigned char *p = (unsigned char *)malloc(n ? n : 1);
    unsigned x = seed * 2654435761u + 1u;
    size_t i;
    for (i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (i % 7 == 0) ? (unsigned char)(x >> 24) : (unsigned char)"MZ assembly data "[i % 17];
    }
    if (n >= 2) { p[0] = 'M'; p[1] = 'Z'; }
    return p;
}

/* Little-endian stores, for bytes built or patched by hand (ELF headers, ZIP records). */
static inline void w16(unsigned char *p, unsigned v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static inline void w32(unsigned char *p, uint32_t v) {
    w16(p, v & 0xFFFFu);
    w16(p + 2, v >> 16);
}
static inline void w64(unsigned char *p, uint64_t v) {
    w32(p, (uint32_t)v);
    w32(p + 4, (uint32_t)(v >> 32));
}

/* Where the real samples are: SAMPLES, else beside the project (tests run from its top directory). */
static inline const char *test_samples(void) {
    const char *s = getenv("SAMPLES");
    return s ? s : "../shared/assembly-store-samples";
}

#if defined(ASMSTORE_H_INCLUDED) && !defined(ASMSTORE_NO_STDIO) && !defined(ASMSTORE_NO_BUILD)
/* The bytes of sample `file` (a path under test_samples()), read whole; NULL when absent. */
static inline unsigned char *test_sample(const char *file, size_t *n) {
    char path[1024];
    void *d = NULL;
    snprintf(path, sizeof path, "%s/%s", test_samples(), file);
    if (asmstore_read_file(path, NULL, &d, n, NULL) != ASMSTORE_OK) return NULL;
    return (unsigned char *)d;
}
#endif

#if defined(ASMSTORE_H_INCLUDED) && !defined(ASMSTORE_NO_WRITER)
/* asmstore_writer_add of image under name (strlen), no pdb or config, the other fields from opt
   (NULL: defaults). */
static inline asmstore_result test_add_opt(asmstore_writer *w, const char *name, const void *image, size_t size,
                                           const asmstore_add *opt) {
    asmstore_add e;
    if (opt)
        e = *opt;
    else
        memset(&e, 0, sizeof e);
    e.name = name;
    e.name_len = 0;
    e.image = image;
    e.image_size = size;
    return asmstore_writer_add(w, &e, NULL);
}

/* The common case: image under name with flags. */
static inline asmstore_result test_add(asmstore_writer *w, const char *name, const void *image, size_t size,
                                       unsigned flags) {
    asmstore_add opt;
    memset(&opt, 0, sizeof opt);
    opt.flags = flags;
    return test_add_opt(w, name, image, size, &opt);
}

/* A small real store for `abi` (two stored entries, back to back, as releases write), owned by the
   returned writer (test_elf.c, test_locator.c). */
static inline asmstore_writer *make_store(asmstore_abi abi, const void **data, size_t *size) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    unsigned char a[3000], b[700];
    size_t i;
    memset(&o, 0, sizeof o);
    o.abi = abi;
    o.no_compress = 1;
    o.jobs = 1;
    o.image_alignment = 1;
    for (i = 0; i < sizeof a; i++) a[i] = (unsigned char)(i * 7 + 1);
    for (i = 0; i < sizeof b; i++) b[i] = (unsigned char)(i ^ 0x5a);
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return NULL;
    if (test_add(w, "A.dll", a, sizeof a, 0) != ASMSTORE_OK ||
        test_add(w, "B.dll", b, sizeof b, 0) != ASMSTORE_OK ||
        asmstore_writer_finish(w, data, size, NULL) != ASMSTORE_OK) {
        asmstore_writer_free(w);
        return NULL;
    }
    return w;
}

#ifndef ASMSTORE_NO_ELF
/* p wrapped in a .so of abi and mode with the default options; NULL on failure (free() it). */
static inline unsigned char *wrap(asmstore_abi abi, asmstore_elf_mode mode, const void *p, size_t n,
                                  size_t *out_size) {
    asmstore_elf_options o;
    void *out = NULL;
    memset(&o, 0, sizeof o);
    o.abi = abi;
    o.mode = mode;
    if (asmstore_elf_wrap(&o, p, n, &out, out_size, NULL) != ASMSTORE_OK) return NULL;
    return (unsigned char *)out;
}
#endif
#endif

#define TEST_DONE() (printf("%d passed, %d failed\n", test__passed, test__failed), test__failed ? 1 : 0)

#endif
