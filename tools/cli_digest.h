/* cli_digest.h - an entry's uncompressed image, its content hash and its identity (cli_digest.c):
   the SHA-256 that list --hash, list --json and diff give per entry, and who the assembly says it
   is, from the bytes alone (nothing is loaded or dlopen'ed). The hash is libcrypto's; built
   without it (no ASMSTORE_CLI_CRYPTO) there is none. */
#ifndef ASMSTORE_CLI_DIGEST_H
#define ASMSTORE_CLI_DIGEST_H
#include "cli_input.h"

#include <zstd.h>

/* >>images ------------------------------------------------------------------------------------- */
/* One entry's uncompressed image: in the store when it is stored as is, else in `owned`. */
typedef struct cli_image {
    const unsigned char *p;
    size_t n;
    unsigned char *owned;
} cli_image;

/* Entry e of u's store, uncompressed: in place when stored so, else decompressed (with dctx) into
   one malloc'd buffer of the entry's size, so one image at a time is in memory. ASMSTORE_OK with
   *img set (cli_image_free releases it); ASMSTORE_ERR_IGNORED for a placeholder, which owns no
   bytes; else the reader's result (err says what was found). */
asmstore_result cli_image_get(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                              cli_image *img, asmstore_error *err);
void cli_image_free(cli_image *img);
/* A buffer that serves image after image (cli_image_get_reusing): grown to the largest one read,
   so a reader of many images does not map, fault in and unmap fresh memory for each. */
typedef struct cli_image_buffer {
    unsigned char *p;
    size_t cap;
} cli_image_buffer;
/* cli_image_get, decompressing into *buf (grown when too small) rather than a buffer of the
   image's own: img->owned stays NULL and img->p is valid until buf is used again or freed. */
asmstore_result cli_image_get_reusing(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                                      cli_image_buffer *buf, cli_image *img, asmstore_error *err);

/* >>content hash ------------------------------------------------------------------------------- */
#define CLI_SHA256_HEX 65 /* 64 lowercase hex digits and a NUL */

/* The SHA-256 of p[0..n) in hex; 0, or -1 with hex "" (the crypto library failed: memory). */
int cli_sha256_hex(const void *p, size_t n, char hex[CLI_SHA256_HEX]);
/* The SHA-256 of entry e's uncompressed image (cli_image_get, then cli_sha256_hex): ASMSTORE_OK;
   else why the image could not be read (err). hex is ""
   unless ASMSTORE_OK. */
asmstore_result cli_entry_sha256(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                                 char hex[CLI_SHA256_HEX], asmstore_error *err);
/* >>identity ----------------------------------------------------------------------------------- */
#define CLI_GUID_TEXT 37 /* "d8039cd0-9dd7-4bc8-9795-6a8fbd245662" and a NUL */

/* A GUID's 16 stored bytes as text, as .NET's Guid.ToString() writes it (the first three fields
   little-endian). */
void cli_guid_text(const unsigned char g[16], char text[CLI_GUID_TEXT]);
/* Who image[0..n) says it is (asmstore_pe_identity), with the fields text needs formatted:
   "10.0.0.0", the public key token (SHA-1; "" without a key), the MVID,
   the debug id (Sentry's: the CodeView GUID, '-' and a Portable PDB's stamp or a Windows PDB's age
   in hex; "" without CodeView) and "SHA256:hex" (malloc'd, NULL when none: cli_identity_free). */
typedef struct cli_identity_text {
    asmstore_identity id; /* the fields as read: strings point into the image */
    char version[24];
    char token[17];
    char mvid[CLI_GUID_TEXT];
    char debug_id[CLI_GUID_TEXT + 9];
    char *pdb_checksum;
} cli_identity_text;

/* 0 with *t filled, or -1 for what is no assembly (nothing to free). */
int cli_identity_read(cli_identity_text *t, const void *image, size_t n);
void cli_identity_free(cli_identity_text *t);
/* --json: `key` is who image[0..n) says it is (asmstore_pe_identity): name, version, culture
   (null: neutral), public_key_token (SHA-1; null without a key), mvid,
   timestamp, debug_id (Sentry's: the CodeView GUID and a Portable PDB's stamp or a Windows
   PDB's age), pdb_path, pdb_checksum ("SHA256:hex"); null for what is no assembly (or a
   .netmodule's missing Assembly row: name and the rest null). */
void cli_json_identity(const char *key, const void *image, size_t n);

/* >>entries ------------------------------------------------------------------------------------ */
/* --json: entry e of u as list (and scan) give it (docs/json.md §3.2): what the format does not
   record is null; sha is its SHA-256 in hex ("" for none), img its image (p NULL when unread). */
void cli_json_entry(const cli_unit *u, const asmstore_entry *e, const char *fname, const char *sha,
                    const cli_image *img);
#endif
