/* cli_inflate.h - an archive entry's bytes read as strictly as `unzip -t` reads them
   (cli_inflate.c): the CRC-32 of every entry checked against the central directory, DEFLATE
   inflated with zlib into memory bounded by the output and by the size the central directory
   declares. The local header was checked by asmstore_zip_find. Needs only asmstore.h and zlib, so
   fuzz/fuzz_zip.c drives it too. */
#ifndef ASMSTORE_CLI_INFLATE_H
#define ASMSTORE_CLI_INFLATE_H
#include "cli.h"

/* >>entry bytes -------------------------------------------------------------------------------- */
/* What reading one entry gave. */
typedef struct cli_entry_bytes {
    const unsigned char *p; /* the entry's bytes: in the archive (STORED) or in `owned` */
    size_t n;
    unsigned char *owned;   /* the inflated copy (the caller frees it); NULL when STORED */
    char why[200];          /* what was found, when the read failed */
} cli_entry_bytes;

/* Reads entry e of the archive zip (as asmstore_zip_find gave it: OK, MISALIGNED or
   ZIP_COMPRESSED): STORED in place, DEFLATE inflated into a buffer grown as the output comes
   (never the declared size up front), stopping at the declared size. `store`: the entry must
   hold a store (XABA or ELF), so a DEFLATE entry whose first 64 KiB say otherwise is refused
   before more is inflated (a bomb of zeros costs 64 KiB). Returns ASMSTORE_OK, or with b->why:
   ASMSTORE_ERR_BAD_ZIP (the archive is damaged: CRC-32, a size the data does not have, a
   declaration DEFLATE cannot meet, broken DEFLATE data), ASMSTORE_ERR_BAD_MAGIC (no store),
   ASMSTORE_ERR_TOO_LARGE (over 4 GiB, 64 MiB for other entries), ASMSTORE_ERR_OUT_OF_MEMORY,
   ASMSTORE_ERR_ZIP_COMPRESSED (not DEFLATE, or built without zlib). On failure nothing is kept. */
asmstore_result cli_entry_read(const unsigned char *zip, const asmstore_zip_entry *e, int store,
                               cli_entry_bytes *b);

/* The ZIP CRC-32 of p[0..n) continued from crc (0 to start), as asmstore_zip_crc32: zlib's
   crc32_z where the CLI links zlib (about twice the header's speed), the header's otherwise. */
uint32_t cli_crc32(uint32_t crc, const void *p, size_t n);
/* 1 when this build inflates DEFLATEd members (zlib), else 0: what it reads of an archive. */
int cli_can_inflate(void);
#endif
