/* cli_fs.h - writing files under a directory without ever following a symlink (cli_fs.c). */
#ifndef ASMSTORE_CLI_FS_H
#define ASMSTORE_CLI_FS_H
#include <stddef.h>

/* Opens DIR (creating it, not its parents, when create) as a directory fd; DIR itself must not be a
   symlink. -1 with errno on failure. */
int cli_dir_open(const char *dir, int create);
/* Why n[0..len) is not safe to create under a directory: absolute, empty, a "." or ".." or empty
   component, a NUL or a backslash, or a component this system would take for something else
   (cli_os_name_unsafe: on Windows a drive or stream ':', a device name, a trailing dot or space);
   NULL when it is safe. */
const char *cli_unsafe_name(const char *n, size_t len);
/* Why cli_write_under refused relpath (it returned 1): its name's fault, else what was in the
   way. */
const char *cli_write_refused_why(const char *relpath);
/* Writes data as rootfd/relpath (mode set exactly), creating the directories between: each is
   opened with O_NOFOLLOW from the one above, the file goes to an O_EXCL temp file renamed within
   its directory. 0 written; 1 refused (cli_write_refused_why); 2 I/O error (errno). */
int cli_write_under(int rootfd, const char *relpath, const void *data, size_t size, unsigned mode);
#endif
