/* cli_fs.c - how the asmstore CLI writes files under a directory it was given (extract -C DIR).
   Every step goes through a directory file descriptor, from DIR's down, opened with O_NOFOLLOW |
   O_DIRECTORY: no path is resolved twice, so a directory swapped for a symlink while we work is
   refused (if swapped before we open it) or does not matter (we hold the real directory). */
#include "cli.h"
#include "cli_fs.h"
#include "cli_os.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_dir_open(const char *dir, int create) {
    if (create && cli_os_mkdir(dir) != 0 && errno != EEXIST)
        return -1;
    return cli_os_dir_open(dir);
}

const char *cli_unsafe_name(const char *n, size_t len) {
    size_t i, j;

    if (len == 0 || n[0] == '/')
        return len ? "an absolute path" : "an empty name";
    if (memchr(n, '\0', len))
        return "a NUL byte in it";
    if (memchr(n, '\\', len))
        return "a backslash in it (a separator on Windows)";
    for (i = 0; i <= len; i = j + 1) {
        const char *why;

        for (j = i; j < len && n[j] != '/'; j++) {
        }
        if (j == i)
            return "an empty component ('//' or a trailing '/')";
        if ((j - i == 1 && n[i] == '.') || (j - i == 2 && n[i] == '.' && n[i + 1] == '.'))
            return "a '.' or '..' component";
        if ((why = cli_os_name_unsafe(n + i, j - i)) != NULL)
            return why;
    }
    return NULL;
}

const char *cli_write_refused_why(const char *relpath) {
    const char *why = cli_unsafe_name(relpath, strlen(relpath));

    return why ? why : "a symlink or something other than a directory in the way";
}

/* errno of a failed open/rename of something that should be a directory or a file: 1 when a
   symlink or another kind of file is in the way (refused), else 2 (I/O). */
static int refused_or_io(int err) {
    return err == ELOOP || err == ENOTDIR || err == EISDIR || err == ENOTEMPTY || err == EEXIST ? 1
                                                                                                : 2;
}

/* Opens (creating it if missing) directory `name` in parentfd without following a symlink. */
static int subdir_open(int parentfd, const char *name) {
    if (cli_os_mkdir_at(parentfd, name) != 0 && errno != EEXIST)
        return -1;
    return cli_os_dir_open_at(parentfd, name);
}

static int write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        /* at most 1 GiB a call: Windows' write takes an unsigned count */
        long long w = write(fd, p, (unsigned)(n > 0x40000000u ? 0x40000000u : n));

        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Is `name` in dirfd a regular file (not a symlink) holding exactly data[0..size)? */
static int same_file(int dirfd, const char *name, const unsigned char *data, size_t size) {
    unsigned char buf[65536];
    struct stat st;
    size_t off = 0;
    int fd = cli_os_file_open_at(dirfd, name, 0), same;

    if (fd < 0)
        return 0;
    same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
           (unsigned long long)st.st_size == (unsigned long long)size;
    while (same && off < size) {
        long long n = read(fd, buf, (unsigned)(size - off < sizeof buf ? size - off : sizeof buf));

        if (n < 0 && errno == EINTR)
            continue;
        same = n > 0 && memcmp(buf, data + off, (size_t)n) == 0;
        if (same)
            off += (size_t)n;
    }
    close(fd);
    return same;
}

/* Writes data as `name` in dirfd: a fresh temp file (O_EXCL, never through a symlink), its mode set
   with fchmod (umask does not apply), renamed over name within the same directory; like
   asmstore_write_file, no fsync, and a file that already holds the bytes is left alone. A symlink
   at `name` is replaced, never followed. 0, 1 or 2 as cli_write_under. */
static int write_in_dir(int dirfd, const char *name, const void *data, size_t size, unsigned mode) {
    static unsigned counter;
    char tmp[64];
    int fd = -1, attempt, err = 0;

    if (same_file(dirfd, name, (const unsigned char *)data, size))
        return 0;
    for (attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, sizeof tmp, ".asmstore.tmp.%ld.%u", (long)getpid(), counter++);
        fd = cli_os_file_open_at(dirfd, tmp, 1);
        if (fd < 0 && errno != EEXIST)
            return 2;
    }
    if (fd < 0)
        return 2;
    if (write_all(fd, (const unsigned char *)data, size) != 0 || cli_os_set_mode(fd, mode) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && cli_os_rename_at(dirfd, tmp, name) != 0)
        err = errno;
    if (!err)
        return 0;
    (void)cli_os_unlink_at(dirfd, tmp, 0);
    errno = err;
    return refused_or_io(err);
}

int cli_write_under(int rootfd, const char *relpath, const void *data, size_t size, unsigned mode) {
    char comp[NAME_MAX + 1];
    const char *p = relpath, *slash;
    int dirfd, rc, err;

    if (cli_unsafe_name(relpath, strlen(relpath)))
        return 1;
    dirfd = cli_os_dir_dup(rootfd);
    if (dirfd < 0)
        return 2;
    while ((slash = strchr(p, '/')) != NULL) {
        int next;

        if ((size_t)(slash - p) >= sizeof comp) {
            cli_os_dir_close(dirfd);
            errno = ENAMETOOLONG;
            return 2;
        }
        memcpy(comp, p, (size_t)(slash - p));
        comp[slash - p] = '\0';
        next = subdir_open(dirfd, comp);
        err = errno;
        cli_os_dir_close(dirfd);
        if (next < 0) {
            errno = err;
            return refused_or_io(err);
        }
        dirfd = next;
        p = slash + 1;
    }
    rc = write_in_dir(dirfd, p, data, size, mode);
    err = errno;
    cli_os_dir_close(dirfd);
    errno = err;
    return rc;
}
