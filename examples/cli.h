/* cli.h - what the asmstore CLI's translation units share: asmstore.c (core commands, the
   asmstore.h implementation), cli_cache.c (cache commands, the asmstore_cache.h implementation)
   and cli_fs.c (writing files under a directory). */
#ifndef ASMSTORE_CLI_H
#define ASMSTORE_CLI_H
#include "../asmstore.h"

/* Decompressor callback for XALZ (LZ4 block) images: liblz4 when built with ASMSTORE_CLI_LZ4,
   else ASMSTORE_ERR_UNSUPPORTED_COMPRESSION. (XAZS images are decompressed by the reader itself.) */
asmstore_result cli_decompress(void *user, asmstore_compression kind, void *dst, size_t cap, const void *src,
                               size_t src_size, size_t *written);

/* A name table for r (asmstore_reader_attach_name_table: O(1) entries, O(log n) lookups), malloc'd
   for the caller to free after the reader's last use; NULL when out of memory. (asmstore.c) */
uint32_t *cli_attach_name_table(asmstore_reader *r);

/* Writing under a directory without ever following a symlink (cli_fs.c). */
/* Opens DIR (creating it, not its parents, when create) as a directory fd; DIR itself must not be a
   symlink. -1 with errno on failure. */
int cli_dir_open(const char *dir, int create);
/* Writes data as rootfd/relpath (mode set exactly), creating the directories between: each is
   opened with O_NOFOLLOW from the one above, the file goes to an O_EXCL temp file renamed within
   its directory. 0 written; 1 refused (an unsafe name: absolute, "." or "..", empty component,
   backslash; or a symlink or something other than a directory in the way); 2 I/O error (errno). */
int cli_write_under(int rootfd, const char *relpath, const void *data, size_t size, unsigned mode);

/* asmstore load ... / asmstore cache ... (cli_cache.c) */
int cli_cmd_load(int argc, char **argv);
int cli_cmd_cache(int argc, char **argv);
#endif
