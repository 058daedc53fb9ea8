/* tests/lib/extract_race_shim.c - LD_PRELOAD shim for t_cli_extract_race.sh. The first time the process
   creates a file directly in RACE_DIR (open/openat with O_CREAT, or mkstemp, whatever the path or
   directory fd it goes through), the shim first swaps RACE_DIR for a symlink to RACE_TARGET: the
   real directory moves to RACE_DIR.moved (still inside extract's -C DIR), then the call goes on.
   A writer that resolves a checked path again follows the symlink out; one that holds the
   directory's fd does not. RACE_DIR must be a canonical path (no symlinks, no trailing slash). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*mkstemp_fn)(char *);

/* dlsym's object pointer as a function pointer, without the cast ISO C forbids */
static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }
#define NEXT(type, var, name) type var; { void *p_ = next_symbol(name); memcpy(&var, &p_, sizeof var); }

/* Does dirfd/path (a file to be created) sit directly in RACE_DIR? */
static int in_race_dir(int dirfd, const char *path, const char *race_dir) {
    char full[2 * PATH_MAX], link[64];
    char *slash;
    if (path[0] == '/' || dirfd == AT_FDCWD) {
        snprintf(full, sizeof full, "%s", path);
    } else {
        ssize_t n;
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        n = readlink(link, full, PATH_MAX);
        if (n < 0) return 0;
        full[n] = '\0';
        snprintf(full + n, sizeof full - (size_t)n, "/%s", path);
    }
    slash = strrchr(full, '/');
    if (!slash) return 0;
    *slash = '\0';
    return strcmp(full, race_dir) == 0;
}

static void swap_before_create(int dirfd, const char *path) {
    static int done;
    const char *dir = getenv("RACE_DIR"), *target = getenv("RACE_TARGET");
    char moved[PATH_MAX + 8];
    if (done || !dir || !target || !in_race_dir(dirfd, path, dir)) return;
    done = 1;
    snprintf(moved, sizeof moved, "%s.moved", dir);
    if (rename(dir, moved) != 0 || symlink(target, dir) != 0) { perror("extract_race_shim"); _exit(99); }
}

static int mode_arg(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, int) : 0; }

#define DEFINE_OPEN(fname)                                            \
    int fname(const char *path, int flags, ...) {                     \
        va_list ap;                                                   \
        int mode;                                                     \
        NEXT(open_fn, real, #fname)                                   \
        va_start(ap, flags);                                          \
        mode = mode_arg(flags, ap);                                   \
        va_end(ap);                                                   \
        if (flags & O_CREAT) swap_before_create(AT_FDCWD, path);      \
        return real(path, flags, mode);                               \
    }
#define DEFINE_OPENAT(fname)                                          \
    int fname(int dirfd, const char *path, int flags, ...) {          \
        va_list ap;                                                   \
        int mode;                                                     \
        NEXT(openat_fn, real, #fname)                                 \
        va_start(ap, flags);                                          \
        mode = mode_arg(flags, ap);                                   \
        va_end(ap);                                                   \
        if (flags & O_CREAT) swap_before_create(dirfd, path);         \
        return real(dirfd, path, flags, mode);                        \
    }
#define DEFINE_MKSTEMP(fname)                                         \
    int fname(char *tmpl) {                                           \
        NEXT(mkstemp_fn, real, #fname)                                \
        swap_before_create(AT_FDCWD, tmpl);                           \
        return real(tmpl);                                            \
    }

DEFINE_OPEN(open)
DEFINE_OPEN(open64)
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)
DEFINE_MKSTEMP(mkstemp)
DEFINE_MKSTEMP(mkstemp64)
