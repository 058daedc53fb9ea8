/* cli_zip.c - a ZIP archive written in one pass, entries copied raw and aligned (cli_zip.h).
   Memory: the copy buffer (64 KiB) and the central directory; entry data never is all in memory
   unless the caller holds it (a rewritten store). */
#include "cli_os.h"
#include "cli_zip.h"
#include "cli_inflate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZIP_LFH 0x04034b50u
#define ZIP_EOCD 0x06054b50u
#define ZIP64_EOCD 0x06064b50u
#define ZIP64_LOCATOR 0x07064b50u
#define ZIP_SATURATED 0xFFFFFFFFu /* a 32-bit field whose value is in the ZIP64 extra field */
#define ZIP_COPY_BUF 65536u       /* also holds one local extra field (at most 65535 bytes) */
#define ZIP_MAX_ALIGN 16384u
#define ZIP64_VERSION 45u         /* "version needed" of an entry or archive that uses ZIP64 */
#define ZIP_SIGN_BLOCK_ROOM 65536u /* a signing block's size is far below it (one certificate) */

static const unsigned char zeros[ZIP_MAX_ALIGN];

/* >>creating ----------------------------------------------------------------------------------- */
int cli_zip_create(cli_zip_out *z, const char *path) {
    size_t n = strlen(path);
    int fd;

    memset(z, 0, sizeof *z);
    z->path = path;
    z->tmp = (char *)malloc(n + sizeof ".tmp.XXXXXX");
    z->buf = (unsigned char *)malloc(ZIP_COPY_BUF);
    if (!z->tmp || !z->buf) {
        errno = ENOMEM;
        cli_fail_errno(path, "write it");
        cli_zip_discard(z);
        return 2;
    }
    memcpy(z->tmp, path, n);
    memcpy(z->tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    fd = asmstore_file_create_temp(z->tmp);
    if (fd < 0 || !(z->f = fdopen(fd, "wb"))) {
        cli_fail_errno(path, "create a temp file beside it");
        if (fd >= 0)
            close(fd);
        if (fd < 0)
            z->tmp[0] = 0; /* nothing to remove */
        cli_zip_discard(z);
        return 2;
    }
    return 0;
}

void cli_zip_discard(cli_zip_out *z) {
    if (z->f)
        fclose(z->f);
    if (z->tmp && z->tmp[0])
        unlink(z->tmp);
    free(z->tmp);
    free(z->buf);
    free(z->cd);
    memset(z, 0, sizeof *z);
}

/* >>headers ------------------------------------------------------------------------------------ */
static int put(cli_zip_out *z, const void *p, size_t n) {
    if (n && fwrite(p, 1, n, z->f) != n)
        return 2;
    z->pos += n;
    return 0;
}

static uint32_t saturated32(uint64_t v) {
    return v >= ZIP_SATURATED ? ZIP_SATURATED : (uint32_t)v;
}

/* The records of extra field x[0..n) that stay: all but ZIP64 (0x0001), zipalign's alignment
   (0xD935) and zero padding (id 0), which this writer redoes; a record running past the field ends
   it. Written to out; returns their length. */
static size_t kept_extra(const unsigned char *x, size_t n, unsigned char *out) {
    size_t i = 0, k = 0;

    while (n - i >= 4) {
        unsigned id = cli_rd16(x + i);
        size_t len = 4u + cli_rd16(x + i + 2);

        if (len > n - i)
            break;
        if (id != 0x0001u && id != 0xD935u && id != 0) {
            memcpy(out + k, x + i, len);
            k += len;
        }
        i += len;
    }
    return k;
}

/* The ZIP64 extra field of the n values v[] in order: those past 32 bits, or all of them when
   `all` and one is. Written to out (at most 28 bytes); returns its length, 0 when none is needed. */
static size_t zip64_extra(const uint64_t *v, int n, int all, unsigned char *out) {
    size_t k = 4;
    int i, any = 0;

    for (i = 0; i < n; i++)
        any |= v[i] >= ZIP_SATURATED;
    for (i = 0; i < n && any; i++)
        if (all || v[i] >= ZIP_SATURATED) {
            cli_wr64(out + k, v[i]);
            k += 8;
        }
    if (!any)
        return 0;
    cli_wr16(out, 1);
    cli_wr16(out + 2, (uint32_t)(k - 4));
    return k;
}

static uint32_t version_needed(const unsigned char *record, size_t zip64_len) {
    uint32_t v = cli_rd16(record + 6);

    return zip64_len && v < ZIP64_VERSION ? ZIP64_VERSION : v;
}

/* The local header: the central record's fields with this item's method, flags, CRC-32 and sizes
   (both in a ZIP64 extra field when one needs it), the input's local extra records, then zeros
   so the data starts at a multiple of it->align. 0; 1 when the extra field has no room left for
   the padding; 2 on a write error. */
static int put_local(cli_zip_out *z, const cli_zip_item *it) {
    const unsigned char *r = it->record;
    size_t name_len = cli_rd16(r + 28), kept, z64_len, pad;
    uint64_t sizes[2];
    unsigned char h[30], z64[28];
    uint64_t data;

    sizes[0] = it->uncompressed_size;
    sizes[1] = it->compressed_size;
    z64_len = zip64_extra(sizes, 2, 1, z64);
    kept = kept_extra(it->local_extra, it->local_extra_size, z->buf);
    data = z->pos + 30 + name_len + z64_len + kept;
    pad = (size_t)((it->align - data % it->align) % it->align);
    if (z64_len + kept + pad > 0xFFFFu)
        return 1;
    cli_wr32(h, ZIP_LFH);
    cli_wr16(h + 4, version_needed(r, z64_len));
    cli_wr16(h + 6, it->flags);
    cli_wr16(h + 8, it->method);
    memcpy(h + 10, r + 12, 4); /* time and date */
    cli_wr32(h + 14, it->crc32);
    cli_wr32(h + 18, z64_len ? ZIP_SATURATED : (uint32_t)it->compressed_size);
    cli_wr32(h + 22, z64_len ? ZIP_SATURATED : (uint32_t)it->uncompressed_size);
    cli_wr16(h + 26, (uint32_t)name_len);
    cli_wr16(h + 28, (uint32_t)(z64_len + kept + pad));
    if (put(z, h, 30) || put(z, r + 46, name_len) || put(z, z64, z64_len) || put(z, z->buf, kept) ||
        put(z, zeros, pad))
        return 2;
    return 0;
}

/* The central record: the input's, with this item's fields, the local header's new offset, a
   ZIP64 extra field for what needs it, the input's other extra records and its comment. 0; 1 when
   the extra field would outgrow 65,535 bytes; 2 out of memory. */
static int put_central(cli_zip_out *z, const cli_zip_item *it, uint64_t lfh) {
    const unsigned char *r = it->record;
    size_t nl = cli_rd16(r + 28), xl = cli_rd16(r + 30), cl = cli_rd16(r + 32);
    size_t need = 46 + nl + 28 + xl + cl, z64_len, kept;
    uint64_t v[3];
    unsigned char *c;

    if (z->cd_cap - z->cd_size < need) {
        size_t cap = z->cd_cap ? z->cd_cap * 2 : 65536;
        unsigned char *grown;

        while (cap - z->cd_size < need)
            cap *= 2;
        if (!(grown = (unsigned char *)realloc(z->cd, cap)))
            return 2;
        z->cd = grown;
        z->cd_cap = cap;
    }
    c = z->cd + z->cd_size;
    v[0] = it->uncompressed_size;
    v[1] = it->compressed_size;
    v[2] = lfh;
    memcpy(c, r, 46 + nl);
    z64_len = zip64_extra(v, 3, 0, c + 46 + nl);
    kept = kept_extra(r + 46 + nl, xl, c + 46 + nl + z64_len);
    if (z64_len + kept > 0xFFFFu)
        return 1;
    memcpy(c + 46 + nl + z64_len + kept, r + 46 + nl + xl, cl);
    cli_wr16(c + 6, version_needed(r, z64_len));
    cli_wr16(c + 8, it->flags);
    cli_wr16(c + 10, it->method);
    cli_wr32(c + 16, it->crc32);
    cli_wr32(c + 20, saturated32(it->compressed_size));
    cli_wr32(c + 24, saturated32(it->uncompressed_size));
    cli_wr16(c + 30, (uint32_t)(z64_len + kept));
    cli_wr16(c + 34, 0); /* disk */
    cli_wr32(c + 42, saturated32(lfh));
    z->cd_size += 46 + nl + z64_len + kept + cl;
    z->count++;
    return 0;
}

/* >>data --------------------------------------------------------------------------------------- */
/* The item's data: from memory, or read from the input in pieces of ZIP_COPY_BUF (a STORED
   entry's CRC-32 checked on the way). 0, 1 damaged, 2 I/O error (said). */
static int copy_data(cli_zip_out *z, const cli_zip_item *it, const char *in_path) {
    const unsigned char *r = it->record;
    uint64_t left = it->compressed_size;
    uint32_t crc = 0;

    if (it->data)
        return put(z, it->data, (size_t)left) ? cli_fail_errno(z->path, "write it") : 0;
    if (fseeko(it->from, (off_t)it->from_offset, SEEK_SET) != 0)
        return cli_fail_errno(in_path, "read it");
    while (left) {
        size_t n = left < ZIP_COPY_BUF ? (size_t)left : ZIP_COPY_BUF;

        if (fread(z->buf, 1, n, it->from) != n) {
            if (!ferror(it->from))
                errno = EIO; /* shorter than when it was checked: changed meanwhile */
            return cli_fail_errno(in_path, "read it");
        }
        if (it->check_crc)
            crc = cli_crc32(crc, z->buf, n);
        if (put(z, z->buf, n))
            return cli_fail_errno(z->path, "write it");
        left -= n;
    }
    if (it->check_crc && crc != it->crc32) {
        cli_error("%s: damaged archive: the data of entry %.*s does not have the CRC-32 "
                  "its headers give ('unzip -t %s' shows it): copy the archive again",
                  in_path, (int)cli_rd16(r + 28), (const char *)r + 46, in_path);
        return 1;
    }
    return 0;
}

/* >>writing ------------------------------------------------------------------------------------ */
int cli_zip_add(cli_zip_out *z, const cli_zip_item *it, const char *in_path) {
    const unsigned char *r = it->record;
    uint64_t lfh = z->pos;
    int rc = it->align && it->align <= ZIP_MAX_ALIGN ? put_local(z, it) : 1;

    if (rc == 2)
        return cli_fail_errno(z->path, "write it");
    if (rc == 0 && (rc = copy_data(z, it, in_path)) != 0)
        return rc;
    if (rc == 0 && (rc = put_central(z, it, lfh)) == 2) {
        errno = ENOMEM;
        return cli_fail_errno(z->path, "hold its central directory");
    }
    if (rc == 1)
        cli_error("%s: entry %.*s: its extra fields leave no room for the padding that "
                  "aligns its data (at most 65,535 bytes in all): remove them (zip -X) and repack",
                  in_path, (int)cli_rd16(r + 28), (const char *)r + 46);
    return rc;
}

/* The end of central directory for cd_size bytes at cd_off: the ZIP64 record and locator first
   when the count, a size or an offset needs them, then the classic record (its fields saturated)
   and the comment's length. Written to end (98 bytes); returns the length. */
static size_t central_end(const cli_zip_out *z, uint64_t cd_off, size_t comment_size,
                          unsigned char *end) {
    size_t n = 0;

    if (z->count >= 0xFFFFu || z->cd_size >= ZIP_SATURATED || cd_off >= ZIP_SATURATED) {
        memset(end, 0, 76);
        cli_wr32(end, ZIP64_EOCD);
        cli_wr64(end + 4, 44); /* the record's size after this field */
        cli_wr16(end + 12, ZIP64_VERSION);
        cli_wr16(end + 14, ZIP64_VERSION);
        cli_wr64(end + 24, z->count);
        cli_wr64(end + 32, z->count);
        cli_wr64(end + 40, z->cd_size);
        cli_wr64(end + 48, cd_off);
        cli_wr32(end + 56, ZIP64_LOCATOR);
        cli_wr64(end + 64, cd_off + z->cd_size);
        cli_wr32(end + 72, 1); /* disks */
        n = 76;
    }
    memset(end + n, 0, 22);
    cli_wr32(end + n, ZIP_EOCD);
    cli_wr16(end + n + 8, z->count >= 0xFFFFu ? 0xFFFFu : (uint32_t)z->count);
    cli_wr16(end + n + 10, z->count >= 0xFFFFu ? 0xFFFFu : (uint32_t)z->count);
    cli_wr32(end + n + 12, saturated32(z->cd_size));
    cli_wr32(end + n + 16, saturated32(cd_off));
    cli_wr16(end + n + 20, (uint32_t)comment_size);
    return n + 22;
}

/* Does OUT already hold what the temp file holds (compared in halves of the copy buffer)? Then it
   is left alone, mtime unchanged, as asmstore_write_file leaves an unchanged file. */
static int same_as_out(const cli_zip_out *z) {
    const size_t half = ZIP_COPY_BUF / 2;
    struct stat st;
    FILE *a, *b;
    int same;

    if (cli_os_lstat(z->path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != z->pos)
        return 0;
    a = fopen(z->tmp, "rb");
    b = fopen(z->path, "rb");
    same = a && b;
    while (same) {
        size_t n = fread(z->buf, 1, half, a);

        same = fread(z->buf + half, 1, half, b) == n && !memcmp(z->buf, z->buf + half, n) &&
               !ferror(a) && !ferror(b);
        if (n < half)
            break;
    }
    if (a)
        fclose(a);
    if (b)
        fclose(b);
    return same;
}

/* The signing block over the entries written so far (read back from the temp file), the central
   directory and the end that will follow it, written at z->pos. 0, or 2 after saying why. */
static int put_signing_block(cli_zip_out *z, const unsigned char *comment, size_t comment_size) {
    unsigned char *end = (unsigned char *)malloc(98 + comment_size), *block = NULL;
    size_t n = end ? central_end(z, z->pos, comment_size, end) : 0, block_size = 0;
    FILE *f = NULL;
    int rc = 2;

    if (!end)
        errno = ENOMEM;
    if (n != 22 || z->pos > ZIP_SATURATED - ZIP_SIGN_BLOCK_ROOM)
        cli_error("%s: cannot sign it: it needs ZIP64 (over 65,534 entries or 4 GiB), "
                  "which APK signing does not allow",
                  z->path);
    else if (fflush(z->f) != 0 || !(f = fopen(z->tmp, "rb")))
        cli_fail_errno(z->path, "read it back to sign it");
    else {
        memcpy(end + n, comment, comment_size);
        rc = cli_sign_block(z->sign, z->path, f, z->pos, z->cd, z->cd_size, end,
                            n + comment_size, &block, &block_size);
    }
    if (rc == 0 && put(z, block, block_size))
        rc = cli_fail_errno(z->path, "write it");
    if (f)
        fclose(f);
    free(block);
    free(end);
    return rc;
}

int cli_zip_finish(cli_zip_out *z, const unsigned char *comment, size_t comment_size) {
    unsigned char end[98];
    size_t n;
    int bad;

    if (z->sign && put_signing_block(z, comment, comment_size) != 0) {
        cli_zip_discard(z);
        return 2;
    }
    n = central_end(z, z->pos, comment_size, end);
    bad = put(z, z->cd, z->cd_size) || put(z, end, n) || put(z, comment, comment_size) ||
          fflush(z->f) != 0 || cli_os_set_mode(fileno(z->f), 0644) != 0;

    if (fclose(z->f) != 0)
        bad = 1;
    z->f = NULL;
    if (!bad && same_as_out(z)) {
        cli_zip_discard(z); /* removes the temp file */
        return 0;
    }
    if (bad || asmstore_file_replace(z->tmp, z->path) != 0) {
        cli_fail_errno(z->path, "write it");
        cli_zip_discard(z);
        return 2;
    }
    z->tmp[0] = 0; /* renamed: nothing to remove */
    cli_zip_discard(z);
    return 0;
}
