/* cli.h - what the asmstore CLI's two translation units share: asmstore.c (core commands, the
   asmstore.h implementation) and cli_cache.c (cache commands, the asmstore_cache.h implementation). */
#ifndef ASMSTORE_CLI_H
#define ASMSTORE_CLI_H
#include "../asmstore.h"

/* Decompressor callback for XALZ (LZ4 block) images: liblz4 when built with ASMSTORE_CLI_LZ4,
   else ASMSTORE_ERR_UNSUPPORTED_COMPRESSION. (XAZS images are decompressed by the reader itself.) */
asmstore_result cli_decompress(void *user, asmstore_compression kind, void *dst, size_t cap, const void *src,
                               size_t src_size, size_t *written);

/* asmstore load ... / asmstore cache ... (cli_cache.c) */
int cli_cmd_load(int argc, char **argv);
int cli_cmd_cache(int argc, char **argv);
#endif
