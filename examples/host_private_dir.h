/* host_private_dir.h - the hosts' (mono_host, coreclr_host) private directories under the cache
   root: made once, 0700, ours, checked at every start without writing anything, so that what they
   hold (symlinks to the runtime's own files, nothing else) costs a few syscalls and no directory
   writes on the start's path. The directories themselves are opened with the cache's own rule
   (asmstore_cache__open_dir: created 0700, never through a symlink, ours, made private), so
   include this after asmstore_cache.h's implementation. */
#ifndef HOST_PRIVATE_DIR_H
#define HOST_PRIVATE_DIR_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when `name` in dirfd is a symlink of ours whose target is exactly `target`. */
static int host_link_ok(int dirfd, const char *name, const char *target) {
    char buf[4096];
    struct stat st;
    ssize_t n = readlinkat(dirfd, name, buf, sizeof buf);
    if (n < 0 || (size_t)n != strlen(target) || memcmp(buf, target, (size_t)n) != 0) return 0;
    return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
           st.st_uid == geteuid();
}

/* Makes `name` in dirfd the symlink `target` unless it already is (a fresh link under a temporary
   name renamed over it: atomic). 1 when it is now; 0 with errno set. */
static int host_place_link(int dirfd, const char *name, const char *target) {
    char tmp[300];
    int ok;
    if (host_link_ok(dirfd, name, target)) return 1;
    snprintf(tmp, sizeof tmp, ".%.200s.tmp.%ld", name, (long)getpid());
    (void)unlinkat(dirfd, tmp, 0);
    errno = 0;
    if (symlinkat(target, dirfd, tmp) != 0) return 0;
    if (renameat(dirfd, tmp, dirfd, name) != 0) {
        (void)unlinkat(dirfd, tmp, 0);
        return 0;
    }
    ok = host_link_ok(dirfd, name, target);
    if (!ok && !errno) errno = EEXIST;
    return ok;
}

#endif
