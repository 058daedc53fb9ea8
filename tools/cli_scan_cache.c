/* cli_scan_cache.c - scan --cache DIR: the records cli_scan_cache.h describes, read bounds-checked
   (whatever the files hold, a record reads or is a miss) and written under temporary names. */
#include "cli_scan_cache.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCAN_CACHE_MAGIC "asmstore scan cache 1\n"
#define SCAN_CACHE_END   "ASMSCEND"
#define SCAN_CACHE_SHA   64u

static char scan_cache_version[128] = "";

void scan_cache_set_version(const char *version) {
    snprintf(scan_cache_version, sizeof scan_cache_version, "%s", version);
}

/* >>reading ------------------------------------------------------------------------------------ */
/* p[off..off+len) inside n bytes. */
static int inside(uint64_t off, uint64_t len, size_t n) {
    return off <= n && len <= n - off;
}

/* 1 when text[0..n) is a part of a line as scan writes it: it starts with `lead` and holds no line
   break (a record's text must not break the one line an input gets, which workers' output is cut
   by). */
static int scan_cache_text_ok(const unsigned char *text, uint64_t n, const char *lead) {
    size_t k = strlen(lead);

    return n >= k && !memcmp(text, lead, k) && !memchr(text, '\n', (size_t)n) &&
           !memchr(text, '\r', (size_t)n);
}

/* The header: magic, this build's version, the input's SHA-256; the offset past it, or 0. */
static size_t scan_cache_header(const unsigned char *p, size_t n, const char *sha_hex) {
    size_t m = sizeof SCAN_CACHE_MAGIC - 1, vn = strlen(scan_cache_version);

    if (n < m + 4 || memcmp(p, SCAN_CACHE_MAGIC, m) != 0 || cli_rd32(p + m) != vn ||
        !inside(m + 4, (uint64_t)vn + SCAN_CACHE_SHA, n) ||
        memcmp(p + m + 4, scan_cache_version, vn) != 0 ||
        memcmp(p + m + 4 + vn, sha_hex, SCAN_CACHE_SHA) != 0)
        return 0;
    return m + 4 + vn + SCAN_CACHE_SHA;
}

int scan_cache_parse(const unsigned char *p, size_t n, const char *sha_hex, scan_cache_view *v) {
    size_t body = scan_cache_header(p, n, sha_hex), end, t;
    uint64_t so, sn, fo, fn;
    uint32_t k;

    memset(v, 0, sizeof *v);
    end = sizeof SCAN_CACHE_END - 1;
    if (!body || n < body + 32 + 4 + 8 + end || memcmp(p + n - end, SCAN_CACHE_END, end) != 0)
        return -1;
    v->images_n = (size_t)cli_rd64(p + n - end - 8); /* checked against the file when it opens */
    if ((uint64_t)v->images_n != cli_rd64(p + n - end - 8)) return -1; /* past 32-bit addresses */
    v->ncounts = cli_rd32(p + n - end - 12);
    if (v->ncounts > SCAN_CACHE_COUNTS || n < body + 32 + 4 + 4u * v->ncounts + 8 + end) return -1;
    t = n - end - 12 - 4u * v->ncounts - 32; /* the trailer's start */
    so = cli_rd64(p + t), sn = cli_rd64(p + t + 8);
    fo = cli_rd64(p + t + 16), fn = cli_rd64(p + t + 24);
    if (so < body || fo < body || !inside(so, sn, t) || !inside(fo, fn, t) ||
        !scan_cache_text_ok(p + so, sn, ", \"kind\": ") ||
        !scan_cache_text_ok(p + fo, fn, ", \"findings\": "))
        return -1;
    for (k = 0; k < v->ncounts; k++) v->counts[k] = cli_rd32(p + t + 32 + 4u * k);
    v->stores_text = (const char *)p + so, v->stores_n = (size_t)sn;
    v->findings_text = (const char *)p + fo, v->findings_n = (size_t)fn;
    return 0;
}

/* A u32 length and that many bytes at *at; 0 when they do not fit. */
static int scan_cache_name(const unsigned char *p, size_t n, size_t *at, const char **s,
                           size_t *len) {
    if (!inside(*at, 4, n) || !inside(*at + 4, cli_rd32(p + *at), n)) return 0;
    *len = cli_rd32(p + *at);
    *s = (const char *)p + *at + 4;
    *at += 4 + *len;
    return 1;
}

int scan_cache_next(const unsigned char *p, size_t n, size_t *at, scan_cache_image *img) {
    uint64_t size;

    if (*at == n) return 0;
    if (!scan_cache_name(p, n, at, &img->store, &img->store_n) ||
        !scan_cache_name(p, n, at, &img->entry, &img->entry_n) || !inside(*at, 8, n))
        return -1;
    size = cli_rd64(p + *at);
    if (!inside(*at + 8, size, n)) return -1;
    img->p = p + *at + 8;
    img->n = (size_t)size;
    *at += 8 + (size_t)size;
    return 1;
}

/* dir/<sha_hex><suffix> into buf; 0 when it fits. */
static int scan_cache_path(char *buf, size_t size, const char *dir, const char *sha_hex,
                           const char *suffix) {
    int k = snprintf(buf, size, "%s/%.64s%s", dir, sha_hex, suffix);
    return k < 0 || (size_t)k >= size ? -1 : 0;
}

/* 0 when the images file reads to its end, image after image. */
static int scan_cache_walk(const scan_cache_view *v) {
    scan_cache_image img;
    size_t at = 0;
    int k;

    while ((k = scan_cache_next(v->images, v->images_n, &at, &img)) == 1) continue;
    return k;
}

int scan_cache_open(const char *dir, const char *sha_hex, uint32_t ncounts, scan_cache_view *v) {
    char path[4200];
    const unsigned char *meta = NULL, *images = NULL;
    size_t meta_n = 0, images_n = 0;

    memset(v, 0, sizeof *v);
    if (scan_cache_path(path, sizeof path, dir, sha_hex, ".scan") != 0 ||
        cli_map_file(path, &meta, &meta_n) != 0)
        return -1;
    if (scan_cache_parse(meta, meta_n, sha_hex, v) != 0 || v->ncounts != ncounts ||
        scan_cache_path(path, sizeof path, dir, sha_hex, ".images") != 0 ||
        (v->images_n && cli_map_file(path, &images, &images_n) != 0) || images_n != v->images_n) {
        cli_unmap_file(images, images_n);
        cli_unmap_file(meta, meta_n);
        memset(v, 0, sizeof *v);
        return -1;
    }
    v->meta = meta, v->meta_n = meta_n, v->images = images;
    if (scan_cache_walk(v) != 0) {
        scan_cache_close(v);
        return -1;
    }
    return 0;
}

void scan_cache_close(scan_cache_view *v) {
    cli_unmap_file(v->images, v->images_n);
    cli_unmap_file(v->meta, v->meta_n);
    memset(v, 0, sizeof *v);
}

/* >>writing ------------------------------------------------------------------------------------ */
/* A new temporary file beside dir/<sha_hex><suffix>, its name in tmp; NULL when none. */
static FILE *scan_cache_temp(char *tmp, size_t size, const char *dir, const char *sha_hex,
                             const char *suffix) {
    char s[32];
    FILE *f;
    int fd;

    snprintf(s, sizeof s, "%s.tmp.XXXXXX", suffix);
    if (scan_cache_path(tmp, size, dir, sha_hex, s) != 0 ||
        (fd = asmstore_file_create_temp(tmp)) < 0) {
        tmp[0] = 0;
        return NULL;
    }
    if (!(f = fdopen(fd, "wb"))) {
        close(fd);
        unlink(tmp);
        tmp[0] = 0;
    }
    return f;
}

static void put(scan_cache_writer *w, FILE *f, const void *p, size_t n) {
    if (n && fwrite(p, 1, n, f) != n) w->failed = 1;
}

static void put32(scan_cache_writer *w, FILE *f, uint32_t v) {
    unsigned char b[4];
    cli_wr32(b, v);
    put(w, f, b, 4);
}

static void put64(scan_cache_writer *w, FILE *f, uint64_t v) {
    unsigned char b[8];
    cli_wr64(b, v);
    put(w, f, b, 8);
}

int scan_cache_begin(scan_cache_writer *w, const char *dir, const char *sha_hex) {
    memset(w, 0, sizeof *w);
    w->images = scan_cache_temp(w->images_tmp, sizeof w->images_tmp, dir, sha_hex, ".images");
    return w->images ? 0 : -1;
}

void scan_cache_add(scan_cache_writer *w, const char *store, const char *entry,
                    const unsigned char *p, size_t n) {
    size_t sn = strlen(store), en = strlen(entry);

    if (!w->images || w->failed) return;
    put32(w, w->images, (uint32_t)sn);
    put(w, w->images, store, sn);
    put32(w, w->images, (uint32_t)en);
    put(w, w->images, entry, en);
    put64(w, w->images, n);
    put(w, w->images, p, n);
    w->images_n += 4 + sn + 4 + en + 8 + n;
}

/* The .scan file's bytes into f (its header, the two texts, the trailer). */
static void scan_cache_meta(scan_cache_writer *w, FILE *f, const char *sha_hex, const char *st,
                            size_t sn, const char *ft, size_t fn, const uint32_t *counts,
                            uint32_t ncounts) {
    uint64_t at = sizeof SCAN_CACHE_MAGIC - 1 + 4 + strlen(scan_cache_version) + SCAN_CACHE_SHA;
    uint32_t k;

    put(w, f, SCAN_CACHE_MAGIC, sizeof SCAN_CACHE_MAGIC - 1);
    put32(w, f, (uint32_t)strlen(scan_cache_version));
    put(w, f, scan_cache_version, strlen(scan_cache_version));
    put(w, f, sha_hex, SCAN_CACHE_SHA);
    put(w, f, st, sn);
    put(w, f, ft, fn);
    put64(w, f, at), put64(w, f, sn), put64(w, f, at + sn), put64(w, f, fn);
    for (k = 0; k < ncounts; k++) put32(w, f, counts[k]);
    put32(w, f, ncounts);
    put64(w, f, w->images_n);
    put(w, f, SCAN_CACHE_END, sizeof SCAN_CACHE_END - 1);
}

/* tmp renamed to dir/<sha_hex><suffix>; 0 when it was. */
static int scan_cache_rename(char *tmp, const char *dir, const char *sha_hex, const char *suffix) {
    char path[4200];

    if (scan_cache_path(path, sizeof path, dir, sha_hex, suffix) != 0 ||
        asmstore_file_replace(tmp, path) != 0)
        return -1;
    tmp[0] = 0;
    return 0;
}

void scan_cache_end(scan_cache_writer *w, const char *dir, const char *sha_hex,
                    const char *stores_text, size_t stores_n, const char *findings_text,
                    size_t findings_n, const uint32_t *counts, uint32_t ncounts) {
    FILE *meta;

    if (!w->images || ncounts > SCAN_CACHE_COUNTS) {
        scan_cache_drop(w);
        return;
    }
    if (fclose(w->images) != 0) w->failed = 1;
    w->images = NULL;
    meta = w->failed ? NULL
                     : scan_cache_temp(w->meta_tmp, sizeof w->meta_tmp, dir, sha_hex, ".scan");
    if (!meta) {
        scan_cache_drop(w);
        return;
    }
    scan_cache_meta(w, meta, sha_hex, stores_text, stores_n, findings_text, findings_n, counts,
                    ncounts);
    if (fclose(meta) != 0) w->failed = 1;
    if (w->failed || scan_cache_rename(w->images_tmp, dir, sha_hex, ".images") != 0 ||
        scan_cache_rename(w->meta_tmp, dir, sha_hex, ".scan") != 0)
        scan_cache_drop(w);
}

void scan_cache_drop(scan_cache_writer *w) {
    if (w->images) fclose(w->images);
    w->images = NULL;
    if (w->images_tmp[0]) unlink(w->images_tmp);
    if (w->meta_tmp[0]) unlink(w->meta_tmp);
    w->images_tmp[0] = w->meta_tmp[0] = 0;
}
