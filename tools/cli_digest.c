/* cli_digest.c - an entry's uncompressed image and its SHA-256 (cli_digest.h). */
#include "cli_digest.h"
#include "cli_os.h"

#include <stdlib.h>
#include <string.h>

/* >>images ------------------------------------------------------------------------------------- */
asmstore_result cli_image_get(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                              cli_image *img, asmstore_error *err) {
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
    if (!(img->owned = (unsigned char *)malloc(e->uncompressed_size + 1)))
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    r = asmstore_reader_read(&u->r, e, img->owned, e->uncompressed_size, dctx, err);
    if (r != ASMSTORE_OK) {
        cli_image_free(img);
        return r;
    }
    img->p = img->owned;
    img->n = e->uncompressed_size;
    return ASMSTORE_OK;
}

void cli_image_free(cli_image *img) {
    free(img->owned);
    memset(img, 0, sizeof *img);
}

/* >>content hash ------------------------------------------------------------------------------- */
int cli_sha256_available(void) {
#ifdef CLI_OS_HAVE_SHA256
    return 1;
#else
    return 0;
#endif
}

int cli_sha256_hex(const void *p, size_t n, char hex[CLI_SHA256_HEX]) {
    static const char digits[] = "0123456789abcdef";
    unsigned char md[32];
    unsigned i;

    hex[0] = 0;
    if (cli_os_sha256(p, n, md) != 0) /* libcrypto's, or Windows' own */
        return -1;
    for (i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = 0;
    return 0;
}

asmstore_result cli_entry_sha256(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                                 char hex[CLI_SHA256_HEX], asmstore_error *err) {
    cli_image img;
    asmstore_result r;

    hex[0] = 0;
    if (!cli_sha256_available())
        return ASMSTORE_ERR_UNSUPPORTED;
    if ((r = cli_image_get(u, e, dctx, &img, err)) != ASMSTORE_OK)
        return r;
    if (cli_sha256_hex(img.p, img.n, hex) != 0)
        r = ASMSTORE_ERR_OUT_OF_MEMORY; /* libcrypto fails only for want of memory */
    cli_image_free(&img);
    return r;
}
