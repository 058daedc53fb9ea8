/* tests/cache_util.h - helpers shared by the cache tests and the cache bench: build stores with the
   writer API, synthetic data, temp directories, file helpers. Include after asmstore.h with the
   implementation defined. */
#ifndef ASMSTORE_CACHE_UTIL_H
#define ASMSTORE_CACHE_UTIL_H
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CU_MAX 512
#if defined(__GNUC__) || defined(__clang__)
#define CU_UNUSED __attribute__((unused))
#else
#define CU_UNUSED
#endif

/* zstd level for stores built here (0: the writer's default); the bench sets it. */
static int cu_level = 0;
static int cu_jobs = 1;

/* A store plus what it must give back. */
typedef struct cu_store {
    unsigned char *bytes;          /* malloc'd copy of the store */
    size_t size;
    asmstore_reader r;
    size_t n;
    char *names[CU_MAX];
    unsigned char *src[CU_MAX];    /* the original image of entry i (descriptor i) */
    size_t src_size[CU_MAX];
} cu_store;

/* Deterministic bytes: compressible text-like data when text != 0, else noise. */
CU_UNUSED static void cu_fill(unsigned char *p, size_t n, uint32_t seed, int text) {
    static const char *words[] = {"System", "Runtime", "Collections", "Generic", "assembly", "metadata", "IL", "token",
                                  "Microsoft", "Android", "public", "static", "void", "string", "int", "\n"};
    uint32_t x = seed * 2654435761u + 12345u;
    size_t i = 0;
    while (i < n) {
        x = x * 1103515245u + 12345u;
        if (text) {
            const char *w = words[(x >> 16) & 15u];
            size_t l = strlen(w);
            if (l > n - i) l = n - i;
            memcpy(p + i, w, l);
            i += l;
            if (i < n) p[i++] = (unsigned char)(' ' + ((x >> 8) & 3u));
        } else {
            p[i++] = (unsigned char)(x >> 24);
        }
    }
}

CU_UNUSED static void cu_free(cu_store *s) {
    size_t i;
    for (i = 0; i < s->n; i++) { free(s->names[i]); free(s->src[i]); }
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

/* Finishes a writer whose entries were added in order names/src, into *s. 0 on success. */
CU_UNUSED static int cu_finish(asmstore_writer *w, cu_store *s) {
    const void *data;
    size_t size, i;
    if (asmstore_writer_finish(w, &data, &size, NULL) != ASMSTORE_OK) { asmstore_writer_free(w); return -1; }
    s->bytes = (unsigned char *)malloc(size);
    memcpy(s->bytes, data, size);
    s->size = size;
    asmstore_writer_free(w);
    if (asmstore_reader_init(&s->r, s->bytes, s->size, NULL, NULL) != ASMSTORE_OK) return -1;
    if (s->r.entry_count != s->n) return -1;
    for (i = 0; i < s->n; i++) {
        asmstore_entry e;
        if (asmstore_reader_entry(&s->r, (uint32_t)i, &e, NULL) != ASMSTORE_OK) return -1;
        if (e.name_len != strlen(s->names[i]) || memcmp(e.name, s->names[i], e.name_len)) return -1;
    }
    return 0;
}

static asmstore_writer *cu_writer(uint32_t format, int no_compress) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    memset(&o, 0, sizeof o);
    o.format = format;
    o.abi = ASMSTORE_ABI_X86_64;
    o.jobs = cu_jobs;
    o.level = cu_level;
    o.no_compress = no_compress;
    o.image_alignment = 1; /* images back to back, as releases write them */
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return NULL;
    return w;
}

CU_UNUSED static int cu_add(asmstore_writer *w, cu_store *s, const char *name, const unsigned char *img, size_t size) {
    asmstore_add e = {0};

    if (s->n >= CU_MAX) return -1;
    e.name = name;
    e.image = img;
    e.image_size = size;
    if (asmstore_writer_add(w, &e, NULL) != ASMSTORE_OK) return -1;
    s->names[s->n] = strdup(name);
    s->src[s->n] = (unsigned char *)malloc(size ? size : 1);
    if (size) memcpy(s->src[s->n], img, size);
    s->src_size[s->n] = size;
    s->n++;
    return 0;
}

/* n synthetic entries "SynN.dll", sizes from the list cycled, compressible. */
CU_UNUSED static int cu_synthetic(cu_store *s, uint32_t format, size_t n, const size_t *sizes, size_t nsizes, uint32_t seed) {
    asmstore_writer *w = cu_writer(format, 0);
    size_t i;
    char name[64];
    memset(s, 0, sizeof *s);
    if (!w) return -1;
    for (i = 0; i < n; i++) {
        size_t sz = sizes[i % nsizes];
        unsigned char *b = (unsigned char *)malloc(sz ? sz : 1);
        cu_fill(b, sz, seed + (uint32_t)i, 1);
        snprintf(name, sizeof name, "Syn%zu.dll", i);
        if (cu_add(w, s, name, b, sz) != 0) { free(b); asmstore_writer_free(w); return -1; }
        free(b);
    }
    return cu_finish(w, s);
}

CU_UNUSED static int cu_has_suffix(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

CU_UNUSED static int cu_namecmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Packs up to max *.dll files of each directory (sorted), names relative to the directory. 0 ok, 1 none found. */
CU_UNUSED static int cu_from_dirs(cu_store *s, uint32_t format, const char *const *dirs, size_t ndirs, size_t max) {
    asmstore_writer *w = cu_writer(format, 0);
    size_t k;
    memset(s, 0, sizeof *s);
    if (!w) return -1;
    for (k = 0; k < ndirs; k++) {
        char *list[CU_MAX];
        size_t nl = 0, i, taken = 0;
        struct dirent *de;
        DIR *d = opendir(dirs[k]);
        if (!d) continue;
        while ((de = readdir(d)) != NULL && nl < CU_MAX)
            if (cu_has_suffix(de->d_name, ".dll")) list[nl++] = strdup(de->d_name);
        closedir(d);
        qsort(list, nl, sizeof list[0], cu_namecmp);
        for (i = 0; i < nl; i++) {
            char path[4096];
            void *data;
            size_t size;
            int dup = 0;
            size_t j;
            for (j = 0; j < s->n; j++) if (!strcmp(s->names[j], list[i])) dup = 1;
            if (!dup && taken < max && s->n < CU_MAX) {
                snprintf(path, sizeof path, "%s/%s", dirs[k], list[i]);
                if (asmstore_read_file(path, NULL, &data, &size, NULL) == ASMSTORE_OK) {
                    if (cu_add(w, s, list[i], (const unsigned char *)data, size) == 0) taken++;
                    free(data);
                }
            }
            free(list[i]);
        }
    }
    if (s->n == 0) { asmstore_writer_free(w); return 1; }
    return cu_finish(w, s);
}

/* A fresh temp directory (caller frees the string); rm -rf with cu_rmrf. */
static char *cu_tmpdir(void) {
    char *t = strdup("/tmp/asmcache-test.XXXXXX");
    if (!mkdtemp(t)) { free(t); return NULL; }
    return t;
}
CU_UNUSED static void cu_rmrf(const char *path) {
    char cmd[4200];
    if (!path) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0) fprintf(stderr, "  (could not remove %s)\n", path);
}

/* Path of entry index's cache file for store id under root. */
CU_UNUSED static void cu_entry_path(char *out, size_t cap, const char *root, uint64_t id, uint32_t index) {
    snprintf(out, cap, "%s/" ASMSTORE_CACHE_DIR_NAME "/%016llx/%u.bin", root, (unsigned long long)id, (unsigned)index);
}
CU_UNUSED static void cu_store_dir(char *out, size_t cap, const char *root, uint64_t id) {
    snprintf(out, cap, "%s/" ASMSTORE_CACHE_DIR_NAME "/%016llx", root, (unsigned long long)id);
}

/* Whole file into malloc'd memory; NULL if it cannot be read. */
CU_UNUSED static unsigned char *cu_slurp(const char *path, size_t *size) {
    void *d;
    if (asmstore_read_file(path, NULL, &d, size, NULL) != ASMSTORE_OK) return NULL;
    return (unsigned char *)d;
}
CU_UNUSED static int cu_spit(const char *path, const void *data, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ssize_t n;
    if (fd < 0) return -1;
    n = size ? write(fd, data, size) : 0;
    close(fd);
    return n == (ssize_t)size ? 0 : -1;
}

/* Counts directory entries whose name contains `part`. */
CU_UNUSED static int cu_count_names(const char *dir, const char *part) {
    int n = 0;
    struct dirent *de;
    DIR *d = opendir(dir);
    if (!d) return -1;
    while ((de = readdir(d)) != NULL) if (strstr(de->d_name, part)) n++;
    closedir(d);
    return n;
}

#endif
