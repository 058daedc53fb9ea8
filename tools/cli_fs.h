/* cli_fs.h - writing files under a directory without ever following a symlink (cli_fs.c). */
#ifndef ASMSTORE_CLI_FS_H
#define ASMSTORE_CLI_FS_H
#include <stddef.h>

/* Opens DIR (creating it, not its parents, when create) as a directory fd; DIR itself must not be a
   symlink. -1 with errno on failure. */
int cli_dir_open(const char *dir, int create);
/* Is n[0..len) safe to create under a directory: relative, no "." or ".." component, no empty one,
   no NUL or backslash? 1 or 0. */
int cli_safe_relative_name(const char *n, size_t len);
/* Writes data as rootfd/relpath (mode set exactly), creating the directories between: each is
   opened with O_NOFOLLOW from the one above, the file goes to an O_EXCL temp file renamed within
   its directory. 0 written; 1 refused (an unsafe name: absolute, "." or "..", empty component,
   backslash; or a symlink or something other than a directory in the way); 2 I/O error (errno). */
int cli_write_under(int rootfd, const char *relpath, const void *data, size_t size, unsigned mode);
#endif
