/* host_memory.h - the hosts' (mono_host, coreclr_host) memory report for `make bench`: with
   ASMSTORE_HOST_MEMORY=1 in the environment, host_memory_report() prints one line to stderr,
     memory: private_dirty_kb=N private_clean_kb=N shared_clean_kb=N rss_kb=N
   the process's totals from /proc/self/smaps_rollup (the fields tests/bench/bench_cache.c reads).
   Private dirty is what the process alone holds (heap, decompressed images, copies); clean pages
   are file-backed and reclaimable (a store .so or cache file mapped and only read). Without the
   variable, or without smaps_rollup (kernels before 4.14), it prints nothing. */
#ifndef HOST_MEMORY_H
#define HOST_MEMORY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void host_memory_report(void) {
    const char *on = getenv("ASMSTORE_HOST_MEMORY");
    char line[256];
    long v, dirty = -1, clean = -1, shared = -1, rss = -1;
    FILE *f;
    if (!on || strcmp(on, "1") != 0 || (f = fopen("/proc/self/smaps_rollup", "r")) == NULL) return;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "Private_Dirty: %ld", &v) == 1) dirty = v;
        else if (sscanf(line, "Private_Clean: %ld", &v) == 1) clean = v;
        else if (sscanf(line, "Shared_Clean: %ld", &v) == 1) shared = v;
        else if (sscanf(line, "Rss: %ld", &v) == 1) rss = v;
    }
    fclose(f);
    fprintf(stderr,
            "memory: private_dirty_kb=%ld private_clean_kb=%ld shared_clean_kb=%ld rss_kb=%ld\n",
            dirty, clean, shared, rss);
}

#endif
