/* cli_inflate.c - an archive entry's bytes, checked as `unzip -t` checks them (cli_inflate.h). */
#include "cli_inflate.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#ifdef ASMSTORE_CLI_ZLIB /* set by the Makefile when zlib.h is there */
#include <zlib.h>
#endif

#define CLI_STORE_LIMIT ((uint64_t)4 << 30) /* largest store entry inflated: 4 GiB */
#define CLI_OTHER_LIMIT ((uint64_t)64 << 20) /* a manifest: 64 MiB, ~600,000 rows */
#define CLI_FIRST_CHUNK ((size_t)64 << 10)   /* inflated before a store entry's magic is checked */
/* DEFLATE gives at most 1032 bytes per compressed byte (a 258-byte match per 2 bits); the slack
   covers the block headers of short streams */
#define CLI_DEFLATE_RATIO 1032u
#define CLI_DEFLATE_SLACK 4096u

/* >>entry bytes -------------------------------------------------------------------------------- */
uint32_t cli_crc32(uint32_t crc, const void *p, size_t n) {
#ifdef ASMSTORE_CLI_ZLIB
    return n ? (uint32_t)crc32_z(crc, (const Bytef *)p, n) : crc;
#else
    return asmstore_zip_crc32(crc, p, n);
#endif
}

int cli_can_inflate(void) {
#ifdef ASMSTORE_CLI_ZLIB
    return 1;
#else
    return 0;
#endif
}

static asmstore_result refuse(cli_entry_bytes *b, asmstore_result r, const char *fmt, ...) {
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(b->why, sizeof b->why, fmt, ap);
    va_end(ap);
    free(b->owned);
    b->owned = NULL;
    b->p = NULL;
    b->n = 0;
    return r;
}

#ifdef ASMSTORE_CLI_ZLIB
/* A store entry starts as a raw store (XABA) or as the ELF file wrapping one. */
static int looks_like_store(const unsigned char *p, size_t n) {
    return n >= 4 && (memcmp(p, "XABA", 4) == 0 || memcmp(p, "\177ELF", 4) == 0);
}

/* Before inflating: over the limit, or more than DEFLATE can give from the compressed size. */
static asmstore_result check_declared(const asmstore_zip_entry *e, int store, cli_entry_bytes *b) {
    uint64_t limit = store ? CLI_STORE_LIMIT : CLI_OTHER_LIMIT;
    unsigned long long u = e->uncompressed_size, c = e->compressed_size;

    if (u > limit || u > SIZE_MAX || c > UINT_MAX)
        return refuse(b, ASMSTORE_ERR_TOO_LARGE,
                      "it declares %llu bytes (%llu compressed), over the %llu bytes asmstore "
                      "inflates",
                      u, c, (unsigned long long)limit);
    if (u > c * CLI_DEFLATE_RATIO + CLI_DEFLATE_SLACK)
        return refuse(b, ASMSTORE_ERR_BAD_ZIP,
                      "it declares %llu bytes from %llu compressed, more than DEFLATE can give "
                      "(%u to 1)",
                      u, c, CLI_DEFLATE_RATIO);
    return ASMSTORE_OK;
}

/* The output buffer once full: 64 KiB first, then twice as large, never past the declared size. */
static int grow(cli_entry_bytes *b, size_t *cap, size_t declared) {
    size_t want = *cap ? *cap * 2 : CLI_FIRST_CHUNK;
    unsigned char *p;

    if (want > declared || want < *cap)
        want = declared;
    if (!(p = (unsigned char *)realloc(b->owned, want ? want : 1)))
        return -1;
    b->owned = p;
    *cap = want;
    return 0;
}

/* Inflates until the stream ends; output past the declared size goes to one spare byte, which
   is enough to say there is more than declared. */
static asmstore_result inflate_bounded(z_stream *zs, size_t declared, int store,
                                       cli_entry_bytes *b) {
    size_t cap = 0, done;
    unsigned char spare;
    int rc;

    do {
        done = (size_t)zs->total_out;
        if (store && done == cap && done > 0 && done <= CLI_FIRST_CHUNK &&
            !looks_like_store(b->owned, done))
            return refuse(b, ASMSTORE_ERR_BAD_MAGIC,
                          "refused to inflate it: its first %zu bytes are no store (no XABA or "
                          "ELF magic) and it declares %zu (a ZIP bomb?)",
                          done, declared);
        if (done == cap && cap < declared && grow(b, &cap, declared) != 0)
            return refuse(b, ASMSTORE_ERR_OUT_OF_MEMORY, "no memory to inflate it");
        zs->next_out = done < cap ? b->owned + done : &spare;
        zs->avail_out = done < cap ? (uInt)(cap - done > UINT_MAX ? UINT_MAX : cap - done) : 1u;
        rc = inflate(zs, Z_NO_FLUSH);
        if (zs->total_out > declared)
            return refuse(b, ASMSTORE_ERR_BAD_ZIP,
                          "it inflates to more than the %zu bytes the central directory declares",
                          declared);
    } while (rc == Z_OK);
    if (rc != Z_STREAM_END)
        return refuse(b, ASMSTORE_ERR_BAD_ZIP, "its DEFLATE data is broken (zlib: %s)",
                      zs->msg ? zs->msg : rc == Z_BUF_ERROR ? "the data ends early" : "error");
    if (zs->total_out != declared)
        return refuse(b, ASMSTORE_ERR_BAD_ZIP,
                      "it inflates to %lu bytes, the central directory declares %zu",
                      (unsigned long)zs->total_out, declared);
    b->p = b->owned;
    b->n = declared;
    return ASMSTORE_OK;
}
#endif

static asmstore_result inflate_entry(const unsigned char *zip, const asmstore_zip_entry *e,
                                     int store, cli_entry_bytes *b) {
#ifndef ASMSTORE_CLI_ZLIB
    (void)zip;
    (void)store;
    return refuse(b, ASMSTORE_ERR_ZIP_COMPRESSED, "compression method %u: built without zlib",
                  e->method);
#else
    z_stream zs;
    asmstore_result r;

    if (e->method != 8)
        return refuse(b, ASMSTORE_ERR_ZIP_COMPRESSED,
                      "compression method %u; only STORED and DEFLATE are read", e->method);
    if ((r = check_declared(e, store, b)) != ASMSTORE_OK)
        return r;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
        return refuse(b, ASMSTORE_ERR_OUT_OF_MEMORY, "no memory to inflate it");
    zs.next_in = (Bytef *)(uintptr_t)(zip + e->data_offset);
    zs.avail_in = (uInt)e->compressed_size;
    r = inflate_bounded(&zs, (size_t)e->uncompressed_size, store, b);
    inflateEnd(&zs);
    return r;
#endif
}

asmstore_result cli_entry_read(const unsigned char *zip, const asmstore_zip_entry *e, int store,
                               cli_entry_bytes *b) {
    asmstore_result r;
    uint32_t crc;

    memset(b, 0, sizeof *b);
    if (e->method != 0 && (r = inflate_entry(zip, e, store, b)) != ASMSTORE_OK)
        return r;
    if (e->method == 0) {
        if (e->compressed_size != e->uncompressed_size || e->uncompressed_size > SIZE_MAX)
            return refuse(b, ASMSTORE_ERR_BAD_ZIP, "a STORED entry whose two sizes differ");
        b->p = zip + e->data_offset;
        b->n = (size_t)e->uncompressed_size;
    }
    crc = cli_crc32(0, b->p, b->n);
    if (crc != e->crc32)
        return refuse(b, ASMSTORE_ERR_BAD_ZIP,
                      "CRC-32 of its %s data is 0x%08x, expected 0x%08x (the central "
                      "directory's)",
                      e->method ? "inflated" : "STORED", (unsigned)crc, (unsigned)e->crc32);
    return ASMSTORE_OK;
}
