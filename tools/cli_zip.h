/* cli_zip.h - a ZIP archive written in one pass (cli_zip.c), for repack: each entry's local header,
   zero padding in its extra field so the data lands at the entry's alignment (as zipalign does),
   then its data, copied raw from the input archive through a bounded buffer or given in memory;
   the central directory is kept in memory and written at the end, with the ZIP64 records where a
   size, an offset or the entry count needs them. The archive is written under a temporary name
   beside OUT and renamed over it by cli_zip_finish, so a failure leaves OUT as it was. With a
   signer, the APK signing block (cli_sign.h) goes between the last entry and the central
   directory, so signing moves no entry. */
#ifndef ASMSTORE_CLI_ZIP_H
#define ASMSTORE_CLI_ZIP_H
#include "cli.h"
#include "cli_sign.h"

#include <stdint.h>
#include <stdio.h>

/* >>the archive being written ------------------------------------------------------------------ */
typedef struct cli_zip_out {
    const char *path; /* OUT */
    char *tmp;        /* the temp file beside it */
    FILE *f;
    uint64_t pos;      /* bytes written so far */
    unsigned char *cd; /* the central directory so far */
    size_t cd_size, cd_cap;
    uint64_t count;
    unsigned char *buf; /* the copy buffer, then room for one extra field */
    const cli_sign_key *sign; /* set after cli_zip_create to sign the archive (v2 + v3), or NULL */
} cli_zip_out;

/* One entry: what the input's central directory says of it, and where its data comes from. */
typedef struct cli_zip_item {
    const unsigned char *record; /* its central directory record in the input: versions, time,
                                    attributes, name, extra field and comment are taken from it */
    const unsigned char *local_extra; /* the input's local extra field (kept, but its ZIP64 and */
    size_t local_extra_size;          /* alignment records and zero padding, which are redone) */
    uint16_t method, flags;
    uint32_t crc32;
    uint64_t compressed_size, uncompressed_size;
    uint32_t align;       /* the data's offset is a multiple of it */
    const void *data;     /* the data, or NULL: compressed_size bytes at offset `from_offset` */
    FILE *from;           /* of the input file */
    uint64_t from_offset;
    int check_crc;        /* a STORED entry: its bytes must have crc32 (else damaged) */
} cli_zip_item;

/* >>writing ------------------------------------------------------------------------------------ */
/* Creates the temp file for OUT. 0, or 2 after saying why. */
int cli_zip_create(cli_zip_out *z, const char *path);
/* Writes one entry. 0; 1 after saying why the input's entry cannot be written (its data is not
   what its CRC-32 says, or its extra field leaves no room for the padding); 2 on I/O errors. */
int cli_zip_add(cli_zip_out *z, const cli_zip_item *it, const char *in_path);
/* Writes the signing block when z->sign is set (refused for an archive that needs ZIP64, which
   APK signing does not allow), the central directory and its end (comment[0..comment_size), the
   input's archive comment) and renames the temp file over OUT (mode 0644), unless OUT already
   holds these bytes (then it is left untouched). 0, or 2 after saying why. Frees z either way. */
int cli_zip_finish(cli_zip_out *z, const unsigned char *comment, size_t comment_size);
/* Removes the temp file and frees z (after a failure). */
void cli_zip_discard(cli_zip_out *z);
#endif
