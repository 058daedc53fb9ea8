/* tests/test_locator.c - the zip, locator and files sections of asmstore.h as a store is found: the
   ZIP scan on archives built here byte by byte (comment with a fake EOCD, ZIP64, signing block,
   compressed, encrypted, misaligned, duplicate, truncated, a local header disagreeing with the central
   directory in each field; zip CRC-32); the locators (file, dlopen, APK,
   split APK); where each image lies in its file; a FIFO refused, never waited on; and a
   deterministic mutation run over every parser a store is found through (ELF payload finder,
   bionic check, template stub, ZIP scan: no crash, results stay inside the input). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef ASMSTORE_CLI_ZLIB
#include <zlib.h>
#endif

static const asmstore_abi all_abis[4] = {ASMSTORE_ABI_ARM64, ASMSTORE_ABI_ARM, ASMSTORE_ABI_X86_64, ASMSTORE_ABI_X86};
static char tmpdir[256];

/* ---- ZIP archives built by hand ---- */
typedef struct zent { const char *name; const void *data; size_t size; unsigned method, flags; size_t align; int lfh_name_differs; } zent;
typedef struct zopts { const char *comment; size_t comment_len; int zip64; size_t sigblock; int trailing; } zopts;

/* Builds an archive: local headers (data padded to `align` through the extra field, as zipalign
   does), an optional signing block, the central directory, ZIP64 records, EOCD, comment. */
static unsigned char *zip_build(const zent *e, int n, const zopts *zo, size_t *out_size) {
    size_t cap = 1 << 20, pos = 0, i, cd_start, lfh[16];
    unsigned char *z = (unsigned char *)calloc(1, cap);
    for (i = 0; i < (size_t)n; i++) {
        size_t nl = strlen(e[i].name), pad = 0;
        if (e[i].align) while ((pos + 30 + nl + pad) % e[i].align) pad++;
        lfh[i] = pos;
        w32(z + pos, 0x04034b50u); w16(z + pos + 4, 20); w16(z + pos + 6, e[i].flags); w16(z + pos + 8, e[i].method);
        w32(z + pos + 14, asmstore_crc32(e[i].data, e[i].size)); w32(z + pos + 18, (uint32_t)e[i].size); w32(z + pos + 22, (uint32_t)e[i].size);
        w16(z + pos + 26, (unsigned)nl); w16(z + pos + 28, (unsigned)pad);
        memcpy(z + pos + 30, e[i].name, nl);
        if (e[i].lfh_name_differs) z[pos + 30] ^= 1;
        pos += 30 + nl + pad;
        memcpy(z + pos, e[i].data, e[i].size);
        pos += e[i].size;
    }
    if (zo && zo->sigblock) { memset(z + pos, 0xAB, zo->sigblock); memcpy(z + pos + zo->sigblock - 16, "APK Sig Block 42", 16); pos += zo->sigblock; }
    cd_start = pos;
    for (i = 0; i < (size_t)n; i++) {
        size_t nl = strlen(e[i].name);
        int z64 = zo && zo->zip64;
        w32(z + pos, 0x02014b50u); w16(z + pos + 4, 0x31e); w16(z + pos + 6, 20); w16(z + pos + 8, e[i].flags); w16(z + pos + 10, e[i].method);
        w32(z + pos + 16, asmstore_crc32(e[i].data, e[i].size)); w32(z + pos + 20, (uint32_t)e[i].size); w32(z + pos + 24, (uint32_t)e[i].size);
        w16(z + pos + 28, (unsigned)nl); w16(z + pos + 30, z64 ? 12u : 0u);
        w32(z + pos + 42, z64 ? 0xFFFFFFFFu : (uint32_t)lfh[i]);
        memcpy(z + pos + 46, e[i].name, nl);
        pos += 46 + nl;
        if (z64) { w16(z + pos, 1); w16(z + pos + 2, 8); w64(z + pos + 4, lfh[i]); pos += 12; }
    }
    if (zo && zo->zip64) {
        size_t rec = pos;
        w32(z + pos, 0x06064b50u); w64(z + pos + 4, 44); w16(z + pos + 12, 45); w16(z + pos + 14, 45);
        w64(z + pos + 24, (uint64_t)n); w64(z + pos + 32, (uint64_t)n); w64(z + pos + 40, rec - cd_start); w64(z + pos + 48, cd_start);
        pos += 56;
        w32(z + pos, 0x07064b50u); w64(z + pos + 8, rec); w32(z + pos + 16, 1);
        pos += 20;
        w32(z + pos, 0x06054b50u); w16(z + pos + 8, 0xFFFF); w16(z + pos + 10, 0xFFFF);
        w32(z + pos + 12, 0xFFFFFFFFu); w32(z + pos + 16, 0xFFFFFFFFu);
    } else {
        w32(z + pos, 0x06054b50u); w16(z + pos + 8, (unsigned)n); w16(z + pos + 10, (unsigned)n);
        w32(z + pos + 12, (uint32_t)(pos - cd_start)); w32(z + pos + 16, (uint32_t)cd_start);
    }
    w16(z + pos + 20, zo && zo->comment ? (unsigned)zo->comment_len : 0u);
    pos += 22;
    if (zo && zo->comment) { memcpy(z + pos, zo->comment, zo->comment_len); pos += zo->comment_len; }
    if (zo && zo->trailing) { memcpy(z + pos, "junk", 4); pos += 4; }
    *out_size = pos;
    return z;
}

static const char payload_bytes[] = "0123456789abcdef-the-payload-bytes";

static void test_zip_scan(void) {
    zent e[4];
    zopts zo;
    unsigned char *z;
    size_t n, k;
    asmstore_zip_entry ent;
    asmstore_abi found;
    asmstore_error err;
    memset(e, 0, sizeof e); memset(&zo, 0, sizeof zo);
    e[0].name = "AndroidManifest.xml"; e[0].data = "<manifest/>"; e[0].size = 11;
    e[1].name = "lib/x86/libassembly-store.so"; e[1].data = payload_bytes; e[1].size = sizeof payload_bytes; e[1].align = 16384;
    e[2].name = "lib/arm64-v8a/libassembly-store.so"; e[2].data = payload_bytes; e[2].size = sizeof payload_bytes; e[2].align = 16384;
    e[3].name = "classes.dex"; e[3].data = "dex"; e[3].size = 3; e[3].method = 8;
    /* plain */
    z = zip_build(e, 4, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_OK);
    CHECK(ent.data_offset % 16384 == 0 && ent.alignment >= 16384 && ent.compressed_size == sizeof payload_bytes);
    CHECK(memcmp(z + ent.data_offset, payload_bytes, sizeof payload_bytes) == 0);
    CHECK_EQ_INT(asmstore_zip_find_store(z, n, ASMSTORE_ABI_UNKNOWN, &found, &ent, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(found, ASMSTORE_ABI_ARM64); /* preference order, not archive order */
    CHECK_EQ_INT(asmstore_zip_find_store(z, n, ASMSTORE_ABI_X86, &found, &ent, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(found, ASMSTORE_ABI_X86);
    CHECK_EQ_INT(asmstore_zip_find_store(z, n, ASMSTORE_ABI_ARM, &found, &ent, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_zip_find(z, n, "classes.dex", 11, &ent, NULL), ASMSTORE_ERR_ZIP_COMPRESSED);
    CHECK_EQ_INT(ent.method, 8);
    CHECK_EQ_INT(asmstore_zip_find(z, n, "AndroidManifest.xml", 19, &ent, NULL), ASMSTORE_ERR_MISALIGNED);
    CHECK_EQ_INT(ent.data_offset, 30 + 19);
    CHECK_EQ_INT(ent.alignment, 1);
    CHECK_EQ_INT(asmstore_zip_find(z, n, "missing", 7, &ent, NULL), ASMSTORE_ERR_NOT_FOUND);
    /* every truncation fails cleanly */
    for (k = 0; k < n; k += (k < 64 || n - k < 256) ? 1 : 97)
        if (asmstore_zip_find(z, k, e[2].name, strlen(e[2].name), &ent, NULL) == ASMSTORE_OK) { CHECK(!"truncated archive accepted"); break; }
    free(z);
    /* comment holding a fake EOCD that claims to end the file: rejected, the real one is found */
    {
        char c[64];
        memset(c, 'c', sizeof c);
        memcpy(c + 10, "PK\5\6", 4);
        w16((unsigned char *)c + 10 + 12, 0); w16((unsigned char *)c + 10 + 16, 0);
        w16((unsigned char *)c + 10 + 20, (unsigned)(sizeof c - 10 - 22));
        zo.comment = c; zo.comment_len = sizeof c;
        z = zip_build(e, 4, &zo, &n);
        CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_OK);
        free(z);
        zo.comment = NULL;
    }
    /* bytes after the EOCD: not an archive libziparchive would open */
    zo.trailing = 1;
    z = zip_build(e, 4, &zo, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    free(z);
    zo.trailing = 0;
    /* APK signing block between the entries and the central directory; ZIP64 records */
    zo.sigblock = 4096; zo.zip64 = 1;
    z = zip_build(e, 4, &zo, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, &err), ASMSTORE_OK);
    CHECK(ent.zip64 && ent.data_offset % 16384 == 0 && memcmp(z + ent.data_offset, payload_bytes, sizeof payload_bytes) == 0);
    free(z);
    zo.sigblock = 0; zo.zip64 = 0;
    /* encrypted, duplicate name, local header disagreeing with the central one */
    e[2].flags = 1;
    z = zip_build(e, 4, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_ZIP_ENCRYPTED);
    free(z);
    e[2].flags = 0;
    e[3] = e[2]; e[3].align = 0;
    z = zip_build(e, 4, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    free(z);
    e[2].lfh_name_differs = 1;
    z = zip_build(e, 3, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    free(z);
    /* not a zip, empty, NULL */
    CHECK_EQ_INT(asmstore_zip_find(payload_bytes, sizeof payload_bytes, "a", 1, &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    CHECK_EQ_INT(asmstore_zip_find(NULL, 0, "a", 1, &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    CHECK_EQ_INT(asmstore_zip_find(NULL, 5, "a", 1, &ent, NULL), ASMSTORE_ERR_INVALID_ARG);
}

/* asmstore_zip_find on z[0..n) for e->name: want, and when refused, a message naming want_msg. */
static void zip_expect(const unsigned char *z, size_t n, const zent *e, asmstore_result want, const char *want_msg) {
    asmstore_zip_entry ent;
    asmstore_error err;
    asmstore_result r = asmstore_zip_find(z, n, e->name, strlen(e->name), &ent, &err);
    CHECK_EQ_INT(r, want);
    if (r == want && want != ASMSTORE_OK && want_msg) CHECK(err.message && strstr(err.message, want_msg));
}

/* The local header must agree with the central directory (issue 24: accepted before): each field
   changed in the local header alone is refused; what APPNOTE allows (a data descriptor's zeros, the
   DEFLATE option bits) is not. */
static void test_zip_local_header(void) {
    static const struct { size_t off, width; uint32_t value; const char *msg; } bad[] = {
        {30, 1, 'L', "name"},           /* first byte of the name */
        {8, 2, 8, "method"},            /* STORED -> DEFLATE */
        {14, 4, 0x12345678u, "CRC-32"},
        {18, 4, 1, "sizes"},            /* compressed size */
        {22, 4, 1, "sizes"},            /* uncompressed size */
        {6, 2, 8, "flags"},             /* a data descriptor the central directory does not have */
        {6, 2, 0x800, "flags"},         /* UTF-8 name in the local header only */
        {18, 4, 0xFFFFFFFFu, "ZIP64"},  /* ZIP64 sizes without the extra field */
    };
    zent e[2];
    unsigned char *z, *l;
    size_t n, k, cd;
    asmstore_zip_entry ent;
    memset(e, 0, sizeof e);
    e[0].name = "lib/arm64-v8a/libassembly-store.so"; e[0].data = payload_bytes; e[0].size = sizeof payload_bytes; e[0].align = 16;
    e[1].name = "classes.dex"; e[1].data = "dex"; e[1].size = 3; e[1].method = 8;
    z = zip_build(e, 2, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[0].name, strlen(e[0].name), &ent, NULL), ASMSTORE_OK);
    l = z + ent.lfh_offset;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        unsigned char keep[4];
        memcpy(keep, l + bad[k].off, 4);
        if (bad[k].width == 1) l[bad[k].off] = (unsigned char)bad[k].value;
        else if (bad[k].width == 2) w16(l + bad[k].off, bad[k].value);
        else w32(l + bad[k].off, bad[k].value);
        zip_expect(z, n, &e[0], ASMSTORE_ERR_BAD_ZIP, bad[k].msg);
        memcpy(l + bad[k].off, keep, 4);
    }
    /* DEFLATE option bits (1-2) only inform: a difference is no damage */
    w16(l + 6, 6);
    zip_expect(z, n, &e[0], ASMSTORE_OK, NULL);
    free(z);
    /* a data descriptor in both headers: the local CRC-32 and sizes may be zero, not something else */
    e[0].flags = 8;
    z = zip_build(e, 2, NULL, &n);
    zip_expect(z, n, &e[0], ASMSTORE_OK, NULL);
    l = z + ent.lfh_offset;
    w32(l + 14, 0); w32(l + 18, 0); w32(l + 22, 0);
    zip_expect(z, n, &e[0], ASMSTORE_OK, NULL);
    w32(l + 18, 7);
    zip_expect(z, n, &e[0], ASMSTORE_ERR_BAD_ZIP, "sizes");
    /* ...and the central directory's own flag must say so too */
    w32(l + 18, 0);
    for (cd = 0; cd + 46 <= n && !(asmstore__rd32(z + cd) == 0x02014b50u && !memcmp(z + cd + 46, e[0].name, strlen(e[0].name))); cd++) {}
    CHECK(cd + 46 <= n);
    w16(z + cd + 8, 0);
    zip_expect(z, n, &e[0], ASMSTORE_ERR_BAD_ZIP, "flags");
    free(z);
}

/* asmstore_zip_crc32 is zlib's crc32 (check value, pieces, the empty input); asmstore_crc32, the
   name hash on the same table, keeps upstream's empty-input value. */
static void test_zip_crc32(void) {
    uint32_t c = asmstore_zip_crc32(0, "1234", 4);
    CHECK_EQ_INT(asmstore_zip_crc32(0, "123456789", 9), 0xCBF43926u);
    CHECK_EQ_INT(asmstore_zip_crc32(c, "56789", 5), 0xCBF43926u);
    CHECK_EQ_INT(asmstore_zip_crc32(0, "", 0), 0);
    CHECK_EQ_INT(asmstore_zip_crc32(c, NULL, 0), c);
    CHECK_EQ_INT(asmstore_crc32("123456789", 9), 0xCBF43926u);
    CHECK_EQ_INT(asmstore_crc32("", 0), 0xFFFFFFFFu);
}

/* More vectors (zlib's values), and every length 0..4096 at offsets 0-7 from an 8-byte boundary
   (slicing by 8 takes the bytes before the first boundary and after the last step one at a time),
   from a nonzero start and in two pieces, against a bit-at-a-time CRC-32 and zlib's crc32_z. */
static uint32_t crc32_bitwise(uint32_t crc, const unsigned char *p, size_t n) {
    crc = ~crc;
    while (n--) {
        int k;
        crc ^= *p++;
        for (k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void test_zip_crc32_lengths(void) {
    static const struct { const char *s; uint32_t crc; } v[] = {
        {"a", 0xE8B7BE43u}, {"abc", 0x352441C2u}, {"message digest", 0x20159D7Fu},
        {"abcdefghijklmnopqrstuvwxyz", 0x4C2750BDu}, {"The quick brown fox jumps over the lazy dog", 0x414FA339u}};
    unsigned char *buf = (unsigned char *)malloc(4096 + 16), zeros[4096];
    size_t i, len, off;
    int bad = 0;
    for (i = 0; i < sizeof v / sizeof *v; i++) CHECK_EQ_INT(asmstore_zip_crc32(0, v[i].s, strlen(v[i].s)), v[i].crc);
    memset(zeros, 0, sizeof zeros);
    CHECK_EQ_INT(asmstore_zip_crc32(0, zeros, sizeof zeros), 0xC71C0011u);
    for (i = 0; i < 4096 + 16; i++) buf[i] = (unsigned char)(i * 2654435761u >> 13);
    for (off = 0; off < 8 && !bad; off++) {
        for (len = 0; len <= 4096 && !bad; len++) {
            const unsigned char *p = buf + off;
            uint32_t want = crc32_bitwise(0x12345678u, p, len), cut = (uint32_t)(len / 3);
            uint32_t got = asmstore_zip_crc32(0x12345678u, p, len);
            uint32_t pieces = asmstore_zip_crc32(asmstore_zip_crc32(0x12345678u, p, cut), p + cut, len - cut);
#ifdef ASMSTORE_CLI_ZLIB
            if ((uint32_t)crc32_z(0x12345678u, p, len) != want) bad = 1;
#endif
            if (got != want || pieces != want) bad = 1;
            if (bad) fprintf(stderr, "  CRC-32 of %zu bytes at offset %zu: 0x%08x, in pieces 0x%08x, want 0x%08x\n", len, off,
                             (unsigned)got, (unsigned)pieces, (unsigned)want);
        }
    }
    CHECK(!bad);
    free(buf);
}

/* asmstore_zip_dir_open + asmstore_zip_next: every entry in central directory order with its
   record, past a signing block, ZIP64 and a comment; the end; a disagreeing local header stops the
   walk at its entry; a walk changed by its caller or NULL arguments are refused. */
static void test_zip_walk(void) {
    zent e[3] = {{"a.txt", "one", 3, 0, 0, 4, 0}, {"lib/x.so", payload_bytes, sizeof payload_bytes, 0, 0, 16384, 0},
                 {"b", "two", 3, 0, 0, 0, 0}};
    zopts zo = {"the comment", 11, 1, 4096, 0};
    size_t n, len, k;
    unsigned char *z = zip_build(e, 3, &zo, &n);
    asmstore_zip_dir dir;
    asmstore_zip_entry ent;
    const char *name;
    uint64_t next;

    CHECK_EQ_INT(asmstore_zip_dir_open(z, n, &dir, NULL), ASMSTORE_OK);
    CHECK(dir.count == 3 && dir.zip64 && dir.comment_size == 11 && memcmp(z + dir.comment_offset, "the comment", 11) == 0);
    next = dir.cd_offset;
    for (k = 0; k < 3; k++) {
        CHECK_EQ_INT(asmstore_zip_next(z, n, &dir, &ent, &name, &len, NULL), ASMSTORE_OK);
        CHECK(len == strlen(e[k].name) && memcmp(name, e[k].name, len) == 0 && dir.index == k + 1);
        CHECK(dir.record_offset == next && dir.record_size == 46 + len + 12 && (const unsigned char *)name == z + next + 46);
        CHECK(ent.compressed_size == e[k].size && memcmp(z + ent.data_offset, e[k].data, e[k].size) == 0);
        next += dir.record_size;
    }
    CHECK_EQ_INT(asmstore_zip_next(z, n, &dir, &ent, &name, &len, NULL), ASMSTORE_ERR_NOT_FOUND);
    dir.index = 1;
    dir.record_offset = n; /* a walk of another archive */
    CHECK_EQ_INT(asmstore_zip_next(z, n, &dir, NULL, NULL, NULL, NULL), ASMSTORE_ERR_BAD_ZIP);
    CHECK_EQ_INT(asmstore_zip_dir_open(NULL, 5, &dir, NULL), ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(asmstore_zip_next(z, n, NULL, NULL, NULL, NULL, NULL), ASMSTORE_ERR_INVALID_ARG);
    free(z);

    e[1].lfh_name_differs = 1;
    z = zip_build(e, 3, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_dir_open(z, n, &dir, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_zip_next(z, n, &dir, NULL, NULL, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_zip_next(z, n, &dir, NULL, NULL, NULL, NULL), ASMSTORE_ERR_BAD_ZIP);
    CHECK(dir.index == 1);
    free(z);
}

/* ---- locators ---- */
static int write_tmp(const char *name, const void *p, size_t n, char *path, size_t cap) {
    snprintf(path, cap, "%s/%s", tmpdir, name);
    return asmstore_write_file(path, p, n, 0644, NULL) == ASMSTORE_OK;
}

/* Does l's file_identity name the file at path (as it is now: device, inode, size)? */
static int identity_is(const asmstore_locator *l, const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && l->file_identity.known && l->file_identity.dev == (uint64_t)st.st_dev &&
           l->file_identity.ino == (uint64_t)st.st_ino && l->file_identity.size == (uint64_t)st.st_size;
}

static void test_locate_file_and_dlopen(void) {
    const void *store; size_t store_size, n, ns;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size);
    unsigned char *f = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n);
    unsigned char *s = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_SECTION, store, store_size, &ns);
    char p_raw[512], p_dl[512], p_sec[512];
    asmstore_locator l;
    asmstore_reader r;
    asmstore_entry e;
    if (!w || !f || !s) { CHECK(0); return; }
    CHECK(write_tmp("raw.store", store, store_size, p_raw, sizeof p_raw));
    CHECK(write_tmp("libdl.so", f, n, p_dl, sizeof p_dl));
    CHECK(write_tmp("libsec.so", s, ns, p_sec, sizeof p_sec));
    CHECK_EQ_INT(asmstore_locate_file(&l, p_raw, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_NONE && l.via == ASMSTORE_VIA_FILE);
    CHECK(l.entry_data == l.data && l.entry_size == store_size); /* the whole file */
    CHECK(identity_is(&l, p_raw));
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_file(&l, p_dl, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_SYMBOL && l.file_offset == 16384);
    CHECK(l.entry_size == n && memcmp(l.entry_data, f, n) == 0); /* the whole .so */
    CHECK(identity_is(&l, p_dl));
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_file(&l, p_sec, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_SECTION);
    asmstore_locator_close(&l);
    asmstore_locator_close(&l); /* idempotent */
    CHECK_EQ_INT(asmstore_locate_file(&l, "/nonexistent/x.so", NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
    /* dlopen (native x86_64 only) */
#if defined(__x86_64__) && !defined(ASMSTORE_NO_LOCATOR)
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, p_dl, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.via == ASMSTORE_VIA_DLOPEN);
    CHECK(!l.file_identity.known); /* the loader's mapping: no descriptor of ours */
    CHECK_EQ_INT(asmstore_reader_init(&r, l.data, l.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "A", 1, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(e.uncompressed_size, 3000);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, p_sec, NULL, NULL), ASMSTORE_ERR_NO_PAYLOAD);
    CHECK(strstr(l.error, "_assembly_store") != NULL);
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, "/nonexistent/x.so", NULL, NULL), ASMSTORE_ERR_DLOPEN);
    CHECK(l.error[0] != 0);
#else
    (void)r; (void)e;
    printf("  SKIP dlopen part: not an x86_64 host (or no locator)\n");
#endif
    unlink(p_raw); unlink(p_dl); unlink(p_sec);
    free(f); free(s);
    asmstore_writer_free(w);
}

static void test_locate_apk_and_split(void) {
    const void *st_a, *st_x; size_t sa, sx, na, nx, nz;
    asmstore_writer *wa = make_store(ASMSTORE_ABI_ARM64, &st_a, &sa), *wx = make_store(ASMSTORE_ABI_X86, &st_x, &sx);
    unsigned char *fa = wrap(ASMSTORE_ABI_ARM64, ASMSTORE_ELF_MODE_DLOPEN, st_a, sa, &na);
    unsigned char *fx = wrap(ASMSTORE_ABI_X86, ASMSTORE_ELF_MODE_SECTION, st_x, sx, &nx), *z;
    zent e[3];
    char dir[400], base[512], split[512], path[512];
    asmstore_locator l;
    long pg = sysconf(_SC_PAGESIZE);
    if (!wa || !wx || !fa || !fx) { CHECK(0); return; }
    memset(e, 0, sizeof e);
    e[0].name = "classes.dex"; e[0].data = "dex\n035"; e[0].size = 7;
    e[1].name = "lib/arm64-v8a/libassembly-store.so"; e[1].data = fa; e[1].size = na; e[1].align = 16384;
    e[2].name = "lib/x86/libassembly-store.so"; e[2].data = fx; e[2].size = nx; e[2].align = 16384;
    /* one APK holding two ABIs */
    z = zip_build(e, 3, NULL, &nz);
    CHECK(write_tmp("app.apk", z, nz, path, sizeof path));
    free(z);
    CHECK_EQ_INT(asmstore_locate_apk(&l, path, ASMSTORE_ABI_ARM64, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == sa && memcmp(l.data, st_a, sa) == 0 && l.via == ASMSTORE_VIA_APK && l.wrapper == ASMSTORE_ELF_SYMBOL);
    CHECK(l.abi == ASMSTORE_ABI_ARM64 && !l.from_split && l.entry.data_offset % 16384 == 0);
    CHECK(l.file_offset == l.entry.data_offset + 16384);
    CHECK(l.map_size <= na + (size_t)pg); /* only the entry is mapped */
    CHECK(l.entry_size == na && memcmp(l.entry_data, fa, na) == 0); /* the entry's bytes, as stored */
    CHECK(identity_is(&l, path));
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, path, ASMSTORE_ABI_X86, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == sx && memcmp(l.data, st_x, sx) == 0 && l.wrapper == ASMSTORE_ELF_SECTION);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, path, ASMSTORE_ABI_X86_64, NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_locate_file(&l, path, NULL, NULL), ASMSTORE_OK); /* file locator sees a ZIP */
    CHECK(l.via == ASMSTORE_VIA_APK && l.abi == ASMSTORE_ABI_ARM64 && identity_is(&l, path));
    asmstore_locator_close(&l);
    unlink(path);
    /* split: base.apk holds x86 only, split_config.arm64_v8a.apk holds arm64 */
    snprintf(dir, sizeof dir, "%s/split", tmpdir);
    mkdir(dir, 0755);
    snprintf(base, sizeof base, "%s/base.apk", dir);
    snprintf(split, sizeof split, "%s/split_config.arm64_v8a.apk", dir);
    z = zip_build(e + 1, 1, NULL, &nz);
    CHECK(asmstore_write_file(split, z, nz, 0644, NULL) == ASMSTORE_OK);
    free(z);
    e[1] = e[0];
    z = zip_build(e + 1, 2, NULL, &nz);
    CHECK(asmstore_write_file(base, z, nz, 0644, NULL) == ASMSTORE_OK);
    free(z);
    CHECK_EQ_INT(asmstore_locate_apk(&l, base, ASMSTORE_ABI_ARM64, NULL, NULL), ASMSTORE_OK);
    CHECK(l.from_split && l.size == sa && memcmp(l.data, st_a, sa) == 0);
    CHECK(identity_is(&l, split)); /* the split it mapped, not base.apk */
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, base, ASMSTORE_ABI_X86, NULL, NULL), ASMSTORE_OK); /* no x86 split: base */
    CHECK(!l.from_split && l.size == sx && memcmp(l.data, st_x, sx) == 0 && identity_is(&l, base));
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, base, ASMSTORE_ABI_UNKNOWN, NULL, NULL), ASMSTORE_OK); /* first ABI: arm64 split */
    CHECK(l.from_split && l.abi == ASMSTORE_ABI_ARM64);
    asmstore_locator_close(&l);
    unlink(split); unlink(base); rmdir(dir);
    free(fa); free(fx);
    asmstore_writer_free(wa); asmstore_writer_free(wx);
}

/* ---- where an image lies in its file (asmstore_locator_image_offset) ---- */
/* The file at path holds n bytes equal to p at off. */
static int file_holds(const char *path, uint64_t off, const void *p, size_t n) {
    unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
    int fd = open(path, O_RDONLY | O_CLOEXEC), ok;
    ok = buf && fd >= 0 && pread(fd, buf, n, (off_t)off) == (ssize_t)n && memcmp(buf, p, n) == 0;
    if (fd >= 0) close(fd);
    free(buf);
    return ok;
}

/* Every entry of l's store: its offset (any alignment) names its bytes in l->path; with 16, exactly the entries
   at multiples of 16 are OK and the others MISALIGNED at their offset. Returns how many were misaligned. */
static int check_image_offsets(const asmstore_locator *l, const char *path) {
    asmstore_reader r;
    asmstore_error err;
    uint32_t i;
    int misaligned = 0;
    CHECK(l->via == ASMSTORE_VIA_FD ? l->path[0] == 0 : strcmp(l->path, path) == 0); /* fd: the host's file */
    CHECK_EQ_INT(asmstore_reader_init(&r, l->data, l->size, NULL, NULL), ASMSTORE_OK);
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        uint64_t off = 0, off16 = 0;
        asmstore_result res;
        CHECK_EQ_INT(asmstore_reader_entry(&r, i, &e, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_locator_image_offset(l, &r, &e, 1, &off, NULL), ASMSTORE_OK);
        CHECK(file_holds(path, off, e.image, e.image_size));
        res = asmstore_locator_image_offset(l, &r, &e, 16, &off16, &err);
        CHECK_EQ_INT(res, off % 16 ? ASMSTORE_ERR_MISALIGNED : ASMSTORE_OK);
        if (res == ASMSTORE_ERR_MISALIGNED) CHECK(err.offset == off && err.entry == (int64_t)i);
        misaligned += res == ASMSTORE_ERR_MISALIGNED;
    }
    return misaligned;
}

static void test_image_offsets(void) {
    const void *store, *packed;
    size_t store_size, packed_size, n, nz;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size), *wz = NULL;
    unsigned char *so = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n), *z, big[5000];
    char p_raw[512], p_so[512], p_apk[512], p_z[512];
    asmstore_write_options o;
    asmstore_locator l, other;
    asmstore_reader r;
    asmstore_entry e;
    uint64_t off;
    zent ze[2];
    if (!w || !so) { CHECK(0); return; }
    CHECK(write_tmp("offsets.store", store, store_size, p_raw, sizeof p_raw));
    CHECK(write_tmp("liboffsets.so", so, n, p_so, sizeof p_so));
    /* the raw store, its .so by mapping and by dlopen: the back-to-back layout has a misaligned image */
    CHECK_EQ_INT(asmstore_locate_file(&l, p_raw, NULL, NULL), ASMSTORE_OK);
    CHECK(check_image_offsets(&l, p_raw) >= 1);
    /* a reader over other bytes, a bad alignment: refused */
    CHECK_EQ_INT(asmstore_reader_init(&r, store, store_size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_entry(&r, 0, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_locator_image_offset(&l, &r, &e, 1, &off, NULL), ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(asmstore_locator_image_offset(&l, &r, &e, 3, &off, NULL), ASMSTORE_ERR_INVALID_ARG);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_file(&l, p_so, NULL, NULL), ASMSTORE_OK);
    CHECK(check_image_offsets(&l, p_so) >= 1);
    asmstore_locator_close(&l);
#if defined(__x86_64__) && !defined(ASMSTORE_NO_LOCATOR)
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, p_so, NULL, NULL), ASMSTORE_OK);
    CHECK(l.file_offset == 16384);
    CHECK(check_image_offsets(&l, p_so) >= 1);
    asmstore_locator_close(&l);
#endif
    /* inside an APK entry: offsets count in the archive */
    memset(ze, 0, sizeof ze);
    ze[0].name = "classes.dex"; ze[0].data = "dex\n035"; ze[0].size = 7;
    ze[1].name = "lib/x86_64/libassembly-store.so"; ze[1].data = so; ze[1].size = n; ze[1].align = 16384;
    z = zip_build(ze, 2, NULL, &nz);
    CHECK(write_tmp("offsets.apk", z, nz, p_apk, sizeof p_apk));
    free(z);
    CHECK_EQ_INT(asmstore_locate_apk(&l, p_apk, ASMSTORE_ABI_X86_64, NULL, NULL), ASMSTORE_OK);
    CHECK(check_image_offsets(&l, p_apk) >= 1);
    asmstore_locator_close(&l);
    /* a compressed image has no bytes to map (the writer compresses with zstd: not in ASMSTORE_NO_ZSTD builds) */
#ifndef ASMSTORE_NO_ZSTD
    memset(&o, 0, sizeof o);
    o.abi = ASMSTORE_ABI_X86_64; o.jobs = 1;
    memset(big, 'x', sizeof big);
    CHECK(asmstore_writer_create(&wz, &o, NULL) == ASMSTORE_OK);
    CHECK(wz && test_add(wz, "Z.dll", big, sizeof big, 0) == ASMSTORE_OK);
    CHECK(wz && asmstore_writer_finish(wz, &packed, &packed_size, NULL) == ASMSTORE_OK);
    CHECK(wz && write_tmp("offsets-z.store", packed, packed_size, p_z, sizeof p_z));
    CHECK_EQ_INT(asmstore_locate_file(&l, p_z, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_init(&r, l.data, l.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Z.dll", 5, &e, NULL), ASMSTORE_OK);
    CHECK(e.compression == ASMSTORE_COMPRESSION_ZSTD);
    CHECK_EQ_INT(asmstore_locator_image_offset(&l, &r, &e, 1, &off, NULL), ASMSTORE_ERR_UNSUPPORTED);
    /* a locator that knows no file (a zeroed one has no payload either) */
    memset(&other, 0, sizeof other);
    CHECK_EQ_INT(asmstore_locator_image_offset(&other, &r, &e, 1, &off, NULL), ASMSTORE_ERR_INVALID_ARG);
    asmstore_locator_close(&l);
    unlink(p_z);
#else
    (void)o; (void)other; (void)packed; (void)packed_size; (void)big; (void)p_z;
    printf("  SKIP compressed image: an ASMSTORE_NO_ZSTD build writes none\n");
#endif
    unlink(p_raw); unlink(p_so); unlink(p_apk);
    free(so);
    asmstore_writer_free(w);
    asmstore_writer_free(wz);
}

/* A FIFO given as a file is refused at once, never waited on (the open would block for a writer). */
static int fifo_child(const char *fifo) {
    asmstore_locator l;
    void *data;
    size_t n;
    int ok = asmstore_read_file(fifo, NULL, &data, &n, NULL) == ASMSTORE_ERR_IO && errno == EINVAL;
    ok &= asmstore_locate_file(&l, fifo, NULL, NULL) == ASMSTORE_ERR_IO;
#ifndef ASMSTORE_NO_ZIP
    ok &= asmstore_locate_apk(&l, fifo, ASMSTORE_ABI_UNKNOWN, NULL, NULL) == ASMSTORE_ERR_BAD_ZIP;
#endif
    return ok ? 0 : 1;
}

static void test_fifo_refused(void) {
    char dir[] = "/tmp/asmstore-fifo-XXXXXX", fifo[64];
    int st = 0, waited = 0;
    pid_t p;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(fifo, sizeof fifo, "%s/store.so", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    fflush(stdout);
    if ((p = fork()) == 0) _exit(fifo_child(fifo));
    /* a blocked open never returns: give it 30 s (not a timing test), then fail instead of hanging */
    while (waitpid(p, &st, WNOHANG) == 0 && waited++ < 3000) usleep(10000);
    if (waited > 3000) { kill(p, SIGKILL); waitpid(p, &st, 0); }
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    unlink(fifo);
    rmdir(dir);
}

/* ---- deterministic mutation run over every parser ---- */
/* ---- locators from what a host already has: its fd + range, an address ---- */
/* The payload asmstore_locate_file finds in `path`, copied (what locate_fd must find the same). */
static unsigned char *payload_of(const char *path, size_t *n, uint64_t *payload_offset) {
    asmstore_locator l;
    unsigned char *copy = NULL;
    if (asmstore_locate_file(&l, path, NULL, NULL) != ASMSTORE_OK) return NULL;
    copy = (unsigned char *)malloc(l.size);
    memcpy(copy, l.data, l.size);
    *n = l.size;
    *payload_offset = l.file_offset;
    asmstore_locator_close(&l);
    return copy;
}

/* An APK of the two real .NET 10 stores built by `zip -0` after a file of odd size; each member's
   data offset and size found independently (Python's zipfile and the local header it points at);
   asmstore_locate_fd on the APK's descriptor and that range finds each store's payload. */
static void test_locate_fd_apk_member(void) {
    static const char *const abis[2] = {"arm64-v8a", "x86_64"};
    char dir[512], cmd[4096], line[512], apk[600], sam[1024];
    FILE *py;
    int fd, found = 0;
    snprintf(dir, sizeof dir, "%s/fdapk", tmpdir);
    if (!realpath(test_samples(), sam)) SKIP("samples absent (set SAMPLES=.../assembly-store-samples)");
    snprintf(cmd, sizeof cmd, "command -v zip >/dev/null && command -v python3 >/dev/null");
    if (system(cmd) != 0) SKIP("needs zip and python3");
    { /* the arm64 store in an ELF wrapper (elf-section, as .NET 10's stub), the x86_64 one raw */
        size_t rn = 0, wn = 0;
        unsigned char *raw, *so;
        char path[1100];
        snprintf(path, sizeof path, "%s/v3-watercountdown-widget/arm64-v8a/assembly-store.so", sam);
        CHECK(asmstore_read_file(path, NULL, (void **)&raw, &rn, NULL) == ASMSTORE_OK);
        so = wrap(ASMSTORE_ABI_ARM64, ASMSTORE_ELF_MODE_SECTION, raw, rn, &wn);
        CHECK(so && write_tmp("wrapped.so", so, wn, path, sizeof path));
        free(raw);
        free(so);
    }
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/lib/arm64-v8a' '%s/lib/x86_64' && cd '%s' && printf 'dex\\n035odd' > classes.dex && "
             "cp '%s/wrapped.so' lib/arm64-v8a/libassembly-store.so && "
             "cp '%s/v3-watercountdown-widget/x86_64/assembly-store.so' lib/x86_64/libassembly-store.so && "
             "zip -0 -q -X app.apk classes.dex lib/arm64-v8a/libassembly-store.so lib/x86_64/libassembly-store.so",
             dir, dir, dir, tmpdir, sam);
    CHECK(system(cmd) == 0);
    snprintf(apk, sizeof apk, "%s/app.apk", dir);
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import struct, sys, zipfile\n"
             "f = open(sys.argv[1], \"rb\")\n"
             "for i in zipfile.ZipFile(sys.argv[1]).infolist():\n"
             "    f.seek(i.header_offset + 26); n, x = struct.unpack(\"<HH\", f.read(4))\n"
             "    print(i.filename, i.header_offset + 30 + n + x, i.file_size, i.compress_type)' '%s'", apk);
    py = popen(cmd, "r");
    CHECK(py != NULL);
    while (py && fgets(line, sizeof line, py)) {
        char name[256], orig[1024];
        unsigned long long off, size;
        unsigned method;
        asmstore_locator l;
        asmstore_reader r;
        unsigned char *want;
        size_t want_size = 0;
        uint64_t want_at = 0;
        if (sscanf(line, "%255s %llu %llu %u", name, &off, &size, &method) != 4 || strncmp(name, "lib/", 4) != 0) continue;
        CHECK_EQ_INT(method, 0);
        snprintf(orig, sizeof orig, "%s/%s", dir, name);
        want = payload_of(orig, &want_size, &want_at);
        fd = open(apk, O_RDONLY | O_CLOEXEC);
        CHECK(want && fd >= 0 && off % 4096 != 0); /* a range the mapping must round down */
        CHECK_EQ_INT(asmstore_locate_fd(&l, fd, off, size, NULL, NULL), ASMSTORE_OK);
        close(fd); /* the mapping outlives the descriptor */
        CHECK(l.via == ASMSTORE_VIA_FD && l.size == want_size && memcmp(l.data, want, want_size) == 0);
        CHECK(l.file_offset == off + want_at && l.entry_size == size && l.path[0] == 0 && identity_is(&l, apk));
        CHECK(file_holds(apk, l.file_offset, l.data, l.size));
        CHECK_EQ_INT(asmstore_reader_init(&r, l.data, l.size, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(r.entry_count, 10);
        CHECK(strstr(name, abis[0]) ? l.wrapper == ASMSTORE_ELF_SECTION && want_at == 16384
                                    : strstr(name, abis[1]) && l.wrapper == ASMSTORE_ELF_NONE && want_at == 0);
        asmstore_locator_close(&l);
        free(want);
        found++;
    }
    if (py) CHECK(pclose(py) == 0);
    CHECK_EQ_INT(found, 2);
    /* the host's mistakes: results, never a mapping of something else */
    {
        asmstore_locator l;
        struct stat st;
        fd = open(apk, O_RDONLY | O_CLOEXEC);
        CHECK(fd >= 0 && fstat(fd, &st) == 0);
        CHECK_EQ_INT(asmstore_locate_fd(&l, -1, 0, 0, NULL, NULL), ASMSTORE_ERR_INVALID_ARG);
        CHECK_EQ_INT(asmstore_locate_fd(&l, fd, (uint64_t)st.st_size, 0, NULL, NULL), ASMSTORE_ERR_TRUNCATED);
        CHECK_EQ_INT(asmstore_locate_fd(&l, fd, 10, (uint64_t)st.st_size, NULL, NULL), ASMSTORE_ERR_TRUNCATED);
        CHECK_EQ_INT(asmstore_locate_fd(&l, fd, UINT64_MAX, 2, NULL, NULL), ASMSTORE_ERR_TRUNCATED);
        CHECK_EQ_INT(asmstore_locate_fd(&l, fd, 0, 0, NULL, NULL), ASMSTORE_OK); /* size 0: to the end */
        CHECK(l.entry_size == (size_t)st.st_size && l.wrapper == ASMSTORE_ELF_NONE);
        asmstore_locator_close(&l);
        close(fd);
        fd = open(dir, O_RDONLY | O_CLOEXEC);
        CHECK_EQ_INT(asmstore_locate_fd(&l, fd, 0, 0, NULL, NULL), ASMSTORE_ERR_IO);
        close(fd);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* An image's offset in the host's file, through locate_fd: every entry's bytes are there. */
static void test_locate_fd_image_offsets(void) {
    const void *store;
    size_t store_size, n;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size);
    unsigned char *so = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n), *padded;
    char p_pad[512];
    asmstore_locator l;
    int fd;
    if (!w || !so) { CHECK(0); return; }
    padded = (unsigned char *)calloc(1, n + 777); /* the .so at an odd offset in a bigger file */
    memcpy(padded + 777, so, n);
    CHECK(write_tmp("padded.bin", padded, n + 777, p_pad, sizeof p_pad));
    fd = open(p_pad, O_RDONLY | O_CLOEXEC);
    CHECK_EQ_INT(asmstore_locate_fd(&l, fd, 777, n, NULL, NULL), ASMSTORE_OK);
    close(fd);
    CHECK(l.file_offset == 777 + 16384 && l.wrapper == ASMSTORE_ELF_SYMBOL);
    CHECK(check_image_offsets(&l, p_pad) >= 1);
    asmstore_locator_close(&l);
    unlink(p_pad);
    free(padded);
    free(so);
    asmstore_writer_free(w);
}

/* A payload address: bytes with their size (a raw store, an ELF file in memory), or dlsym's
   address with size 0 (the extent from the loaded object, as asmstore_locate_dlopen). */
static void test_locate_memory(void) {
    const void *store;
    size_t store_size, n;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size);
    unsigned char *so = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n);
    asmstore_locator l;
    if (!w || !so) { CHECK(0); return; }
    CHECK_EQ_INT(asmstore_locate_memory(&l, store, store_size, NULL), ASMSTORE_OK);
    CHECK(l.data == store && l.size == store_size && l.via == ASMSTORE_VIA_MEMORY && l.wrapper == ASMSTORE_ELF_NONE);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_memory(&l, so, n, NULL), ASMSTORE_OK);
    CHECK(l.data == so + 16384 && l.size >= store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_SYMBOL);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_memory(&l, so, 100, NULL), ASMSTORE_ERR_NO_PAYLOAD); /* a cut ELF header */
    CHECK_EQ_INT(asmstore_locate_memory(&l, NULL, 10, NULL), ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(asmstore_locate_memory(&l, so, 0, NULL), ASMSTORE_ERR_UNSUPPORTED); /* heap: no loaded object */
#if defined(__x86_64__) && !defined(ASMSTORE_NO_LOCATOR)
    {
        char p_dl[512];
        void *h, *sym;
        asmstore_locator d;
        asmstore_reader r;
        asmstore_entry e;
        CHECK(write_tmp("libmem.so", so, n, p_dl, sizeof p_dl));
        h = dlopen(p_dl, RTLD_NOW | RTLD_LOCAL);
        sym = h ? dlsym(h, "_assembly_store") : NULL;
        CHECK(sym != NULL);
        CHECK_EQ_INT(asmstore_locate_memory(&l, sym, 0, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_locate_dlopen(&d, p_dl, NULL, NULL), ASMSTORE_OK);
        CHECK(l.data == sym && l.size == d.size && l.file_offset == 16384 && strcmp(l.path, p_dl) == 0);
        CHECK_EQ_INT(asmstore_reader_init(&r, l.data, l.size, NULL, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_reader_find(&r, "A", 1, &e, NULL), ASMSTORE_OK);
        asmstore_locator_close(&l); /* nothing of the host's is closed */
        CHECK(dlsym(h, "_assembly_store") == sym);
        asmstore_locator_close(&d);
        if (h) dlclose(h);
        unlink(p_dl);
    }
#endif
    free(so);
    asmstore_writer_free(w);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17; return (uint32_t)(rng_state >> 11); }

static void fuzz_one(const unsigned char *orig, size_t n, int iters) {
    int it;
    for (it = 0; it < iters; it++) {
        size_t len = n, k, flips = 1 + rnd() % 8;
        unsigned char *f;
        const void *pl; size_t ps;
        asmstore_elf_info info;
        asmstore_zip_entry ze;
        if (rnd() % 8 == 0) len = rnd() % (n + 1);
        f = (unsigned char *)malloc(len ? len : 1);
        memcpy(f, orig, len);
        for (k = 0; k < flips && len; k++) {
            size_t at = (rnd() % 4 == 0) ? rnd() % len : (rnd() % (len < 512 ? len : 512));
            switch (rnd() % 4) {
            case 0: f[at] = (unsigned char)rnd(); break;
            case 1: f[at] = 0xFF; break;
            case 2: f[at] = 0; break;
            default: f[at] ^= (unsigned char)(1u << (rnd() % 8)); break;
            }
        }
        if (asmstore_elf_payload(f, len, NULL, &pl, &ps, &info, NULL) == ASMSTORE_OK)
            CHECK((const unsigned char *)pl >= f && ps <= len && (size_t)((const unsigned char *)pl - f) <= len - ps);
        (void)asmstore_elf_check_bionic(f, len, ASMSTORE_ABI_UNKNOWN, NULL, NULL, NULL);
        if (len) { /* the host's bytes with their size: the payload inside them */
            asmstore_locator lm;
            if (asmstore_locate_memory(&lm, f, len, NULL) == ASMSTORE_OK)
                CHECK((const unsigned char *)lm.data >= f && lm.size <= len &&
                      (size_t)((const unsigned char *)lm.data - f) <= len - lm.size);
        }
        if (asmstore_zip_find_store(f, len, ASMSTORE_ABI_UNKNOWN, NULL, &ze, NULL) == ASMSTORE_OK)
            CHECK(ze.data_offset <= len && ze.compressed_size <= len - ze.data_offset);
        { /* as a template stub: a payload found in it is replaced (ASan sees any stray read or write) */
            asmstore_elf_options o;
            void *out = NULL;
            size_t on = 0;
            memset(&o, 0, sizeof o);
            o.mode = ASMSTORE_ELF_MODE_TEMPLATE; o.stub = f; o.stub_size = len;
            if (asmstore_elf_wrap(&o, "XABA", 4, &out, &on, NULL) == ASMSTORE_OK) CHECK(out && on >= 4);
            free(out);
        }
        free(f);
    }
}

static void test_mutations(void) {
    int i, m;
    const void *store; size_t store_size, n;
    for (i = 0; i < 4; i++) {
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        if (!w) { CHECK(0); return; }
        for (m = 0; m < 2; m++) {
            unsigned char *f = wrap(all_abis[i], (asmstore_elf_mode)m, store, 64, &n); /* small payload: fast */
            if (f) fuzz_one(f, n, 1500);
            free(f);
        }
        asmstore_writer_free(w);
    }
    {
        zent e[2];
        zopts zo;
        unsigned char *z;
        memset(e, 0, sizeof e); memset(&zo, 0, sizeof zo);
        e[0].name = "lib/arm64-v8a/libassembly-store.so"; e[0].data = payload_bytes; e[0].size = sizeof payload_bytes; e[0].align = 16;
        e[1].name = "lib/x86/libassembly-store.so"; e[1].data = payload_bytes; e[1].size = 5; e[1].align = 16;
        z = zip_build(e, 2, NULL, &n); fuzz_one(z, n, 3000); free(z);
        zo.zip64 = 1; zo.comment = "hello"; zo.comment_len = 5;
        z = zip_build(e, 2, &zo, &n); fuzz_one(z, n, 3000); free(z);
    }
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s/asmstore-elf.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) { perror("mkdtemp"); return 1; }
    RUN(test_zip_scan);
    RUN(test_zip_local_header);
    RUN(test_zip_crc32);
    RUN(test_zip_crc32_lengths);
    RUN(test_zip_walk);
    RUN(test_locate_file_and_dlopen);
    RUN(test_locate_apk_and_split);
    RUN(test_image_offsets);
    RUN(test_locate_fd_apk_member);
    RUN(test_locate_fd_image_offsets);
    RUN(test_locate_memory);
    RUN(test_fifo_refused);
    RUN(test_mutations);
    rmdir(tmpdir);
    return TEST_DONE();
}
