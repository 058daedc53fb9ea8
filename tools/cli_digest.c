/* cli_digest.c - an entry's uncompressed image, its SHA-256 and its identity (cli_digest.h). */
#include "cli_digest.h"
#include "cli_os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* >>images ------------------------------------------------------------------------------------- */
asmstore_result cli_image_get(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                              cli_image *img, asmstore_error *err) {
    return cli_image_get_reusing(u, e, dctx, NULL, img, err);
}

/* Room for n bytes at *buf (grown, never shrunk: one image at a time is in it); NULL when none. */
static unsigned char *buffer_room(cli_image_buffer *buf, size_t n) {
    unsigned char *p;

    if (n <= buf->cap)
        return buf->p;
    free(buf->p); /* its bytes are the last image's: nothing to keep */
    buf->cap = 0;
    if (!(buf->p = p = (unsigned char *)malloc(n)))
        return NULL;
    buf->cap = n;
    return p;
}

asmstore_result cli_image_get_reusing(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                                      cli_image_buffer *buf, cli_image *img, asmstore_error *err) {
    unsigned char *dst;
    asmstore_result r;

    memset(img, 0, sizeof *img);
    if (e->ignored)
        return ASMSTORE_ERR_IGNORED;
    if (e->compression == ASMSTORE_COMPRESSION_NONE) {
        img->p = e->image;
        img->n = e->image_size;
        return ASMSTORE_OK;
    }
    /* + 1: never malloc(0) */
    dst = buf ? buffer_room(buf, e->uncompressed_size + 1)
              : (img->owned = (unsigned char *)malloc(e->uncompressed_size + 1));
    if (!dst)
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    r = asmstore_reader_read(&u->r, e, dst, e->uncompressed_size, dctx, err);
    if (r != ASMSTORE_OK) {
        cli_image_free(img);
        return r;
    }
    img->p = dst;
    img->n = e->uncompressed_size;
    return ASMSTORE_OK;
}

void cli_image_free(cli_image *img) {
    free(img->owned);
    memset(img, 0, sizeof *img);
}

/* >>content hash ------------------------------------------------------------------------------- */
/* b[0..n) as 2n lower-case hex digits and a NUL at out (2n + 1 bytes). */
static void hex_text(const unsigned char *b, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = 0;
}

int cli_sha256_hex(const void *p, size_t n, char hex[CLI_SHA256_HEX]) {
    unsigned char md[32];

    hex[0] = 0;
    if (cli_os_digest(CLI_OS_SHA256, p, n, md) != 0) /* libcrypto's, or Windows' own */
        return -1;
    hex_text(md, sizeof md, hex);
    return 0;
}

asmstore_result cli_entry_sha256(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                                 char hex[CLI_SHA256_HEX], asmstore_error *err) {
    cli_image img;
    asmstore_result r;

    hex[0] = 0;
    if ((r = cli_image_get(u, e, dctx, &img, err)) != ASMSTORE_OK)
        return r;
    if (cli_sha256_hex(img.p, img.n, hex) != 0)
        r = ASMSTORE_ERR_OUT_OF_MEMORY; /* libcrypto fails only for want of memory */
    cli_image_free(&img);
    return r;
}

/* >>identity ----------------------------------------------------------------------------------- */
void cli_guid_text(const unsigned char g[16], char text[CLI_GUID_TEXT]) {
    snprintf(text, CLI_GUID_TEXT, "%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             (unsigned long)cli_rd32(g), (unsigned)cli_rd16(g + 4),
             (unsigned)cli_rd16(g + 6), g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

/* The public key token of a full key: the last 8 bytes of its SHA-1, last first (ECMA-335
   §II.6.2.1.3); 0, or -1 with hex "" (no key, no SHA-1 here). */
static int public_key_token(const unsigned char *key, size_t n, char hex[17]) {
    unsigned char md[20], token[8];
    unsigned i;

    hex[0] = 0;
    if (n == 0 || cli_os_digest(CLI_OS_SHA1, key, n, md) != 0)
        return -1;
    for (i = 0; i < 8; i++) token[i] = md[19 - i];
    hex_text(token, sizeof token, hex);
    return 0;
}

/* "SHA256:1f0c...": the checksum record's algorithm, ':' and the checksum in hex; NULL (none,
   or no memory) else, malloc'd. */
static char *pdb_checksum_text(const asmstore_identity *id) {
    size_t n = id->pdb_checksum_algorithm_len + 2u + 2u * (size_t)id->pdb_checksum_size;
    char *text = id->pdb_checksum_algorithm ? (char *)malloc(n) : NULL;

    if (!text) return NULL;
    memcpy(text, id->pdb_checksum_algorithm, id->pdb_checksum_algorithm_len);
    text[id->pdb_checksum_algorithm_len] = ':';
    hex_text(id->pdb_checksum, id->pdb_checksum_size, text + id->pdb_checksum_algorithm_len + 1);
    return text;
}

int cli_identity_read(cli_identity_text *t, const void *image, size_t n) {
    asmstore_pe pe;
    const asmstore_identity *id = &t->id;
    unsigned long appendix;
    char guid[CLI_GUID_TEXT];

    memset(t, 0, sizeof *t);
    if (!image || asmstore_pe_parse(&pe, image, n, NULL) != ASMSTORE_OK ||
        asmstore_pe_identity(&pe, &t->id, NULL) != ASMSTORE_OK)
        return -1;
    snprintf(t->version, sizeof t->version, "%u.%u.%u.%u", id->version[0], id->version[1],
             id->version[2], id->version[3]);
    public_key_token(id->public_key, id->public_key_size, t->token);
    cli_guid_text(id->mvid, t->mvid);
    appendix = id->pdb_portable ? id->pdb_stamp : id->pdb_age;
    cli_guid_text(id->pdb_guid, guid);
    if (id->has_codeview && appendix)
        snprintf(t->debug_id, sizeof t->debug_id, "%s-%lx", guid, appendix);
    else if (id->has_codeview)
        snprintf(t->debug_id, sizeof t->debug_id, "%s", guid);
    t->pdb_checksum = pdb_checksum_text(id);
    return 0;
}

void cli_identity_free(cli_identity_text *t) {
    free(t->pdb_checksum);
    t->pdb_checksum = NULL;
}

void cli_json_identity(const char *key, const void *image, size_t n) {
    cli_identity_text t;
    const asmstore_identity *id = &t.id;

    if (cli_identity_read(&t, image, n) != 0) {
        cli_json_null(key);
        return;
    }
    cli_json_open(key, '{');
    cli_json_strn("name", id->has_assembly ? id->name : NULL, id->name_len);
    cli_json_str("version", id->has_assembly ? t.version : NULL);
    cli_json_strn("culture", id->culture_len ? id->culture : NULL, id->culture_len);
    cli_json_str("public_key_token", t.token[0] ? t.token : NULL);
    cli_json_str("mvid", t.mvid);
    cli_json_num("timestamp", id->timestamp);
    cli_json_str("debug_id", t.debug_id[0] ? t.debug_id : NULL);
    cli_json_strn("pdb_path", id->has_codeview ? id->pdb_path : NULL, id->pdb_path_len);
    cli_json_str("pdb_checksum", t.pdb_checksum);
    cli_json_close();
    cli_identity_free(&t);
}

/* >>entries ------------------------------------------------------------------------------------ */
void cli_json_entry(const cli_unit *u, const asmstore_entry *e, const char *fname, const char *sha,
                    const cli_image *img) {
    int v1 = u->r.format == 1, tables = !v1 || u->r.store_id == 0 || u->r.v1_common;

    cli_json_open(NULL, '{');
    cli_json_num("index", e->index);
    cli_json_str("name", fname);
    cli_json_bool("named", !v1 || e->name);
    cli_json_hex64("xxh64", v1 && tables, (unsigned long long)e->hash);
    cli_json_num_or_null("mapping_index", tables, e->mapping_index);
    cli_json_bool("ignored", e->ignored);
    cli_json_num("stored_size", e->image_size);
    cli_json_num("size", e->uncompressed_size);
    cli_json_str("compression", cli_compression_name(e->compression));
    cli_json_num("pdb_size", e->pdb_size);
    cli_json_num("config_size", e->config_size);
    cli_json_str("sha256", sha[0] ? sha : NULL);
    cli_json_identity("identity", img->p, img->n);
    cli_json_close();
}
