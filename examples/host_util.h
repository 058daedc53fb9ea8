/* host_util.h - what every example host (host, mono_host, coreclr_host) shares: the clock its
   figures are read from, the default cache directory and its environment switches. */
#ifndef HOST_UTIL_H
#define HOST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Microseconds on the monotonic clock. */
static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The cache directory when --cache gives none: $XDG_CACHE_HOME/asmstore (an absolute
   XDG_CACHE_HOME only), else /tmp/asmstore-<uid>. */
static void default_cache_dir(char *out, size_t cap) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') snprintf(out, cap, "%s/asmstore", xdg);
    else snprintf(out, cap, "/tmp/asmstore-%lu", (unsigned long)getuid());
}

/* An environment switch: unset or "" gives dflt, "0" off, anything else on (inline: not every
   host reads one). */
static inline int env_on(const char *name, int dflt) {
    const char *v = getenv(name);
    return v && *v ? strcmp(v, "0") != 0 : dflt;
}

#endif
