/* host_phases.h - where a host's start goes, for `make bench` and BENCHMARKS.md's startup section:
   with ASMSTORE_HOST_PHASES=1 in the environment, host_phases_report() prints one line to stderr,
     phases: open=CPU/FLT loaded=CPU/FLT initialized=CPU/FLT main=CPU/FLT end=CPU/FLT
   images=CPU/FLT/N/BYTES threads=T each mark the process's CPU (user + sys of every thread since
   exec, microseconds) and minor faults (getrusage RUSAGE_SELF) when the host got there: the store
   located and opened (open), the runtime loaded (loaded), its initialisation returned
   (initialized), Main returned (main), the cache written (end). images: the CPU and faults of the
   threads that made the N images (BYTES in all) while they made them (RUSAGE_THREAD around each):
   decompression and the first touches of the memory it writes. threads: the process's threads when
   the runtime's initialisation began (host_phases_threads; 1: no thread of the host's lived through
   it). */
#ifndef HOST_PHASES_H
#define HOST_PHASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

typedef enum host_mark {
    MARK_OPEN,
    MARK_LOADED,
    MARK_INITIALIZED,
    MARK_MAIN,
    MARK_END,
    MARK_COUNT
} host_mark;

typedef struct host_usage {
    long cpu_us, faults;
} host_usage;

typedef struct host_phases {
    host_usage mark[MARK_COUNT];
    host_usage images; /* summed over the images made */
    unsigned long image_count;
    unsigned long long image_bytes;
    long threads; /* at the start of the runtime's initialisation, or -1 */
} host_phases;

static host_usage host_usage_now(int who) {
    struct rusage ru;
    host_usage u = {0, 0};
    if (getrusage(who, &ru) != 0) return u;
    u.cpu_us = (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
               (long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    u.faults = ru.ru_minflt;
    return u;
}

static void host_phases_mark(host_phases *p, host_mark m) {
    p->mark[m] = host_usage_now(RUSAGE_SELF);
}

/* An image made by this thread since `before` (host_usage_now(RUSAGE_THREAD)). */
static void host_phases_image(host_phases *p, host_usage before, size_t bytes) {
    host_usage after = host_usage_now(RUSAGE_THREAD);
    p->images.cpu_us += after.cpu_us - before.cpu_us;
    p->images.faults += after.faults - before.faults;
    p->image_count++;
    p->image_bytes += bytes;
}

/* Counts the process's threads now (/proc/self/status), into p->threads; -1 when it cannot tell. */
static void host_phases_threads(host_phases *p) {
    char line[128];
    FILE *f = fopen("/proc/self/status", "r");
    p->threads = -1;
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %ld", &p->threads) == 1) break;
    fclose(f);
}

static void host_phases_report(const host_phases *p) {
    static const char *const names[MARK_COUNT] = {"open", "loaded", "initialized", "main", "end"};
    const char *on = getenv("ASMSTORE_HOST_PHASES");
    int i;
    if (!on || strcmp(on, "1") != 0) return;
    fprintf(stderr, "phases:");
    for (i = 0; i < MARK_COUNT; i++)
        fprintf(stderr, " %s=%ld/%ld", names[i], p->mark[i].cpu_us, p->mark[i].faults);
    fprintf(stderr, " images=%ld/%ld/%lu/%llu threads=%ld\n", p->images.cpu_us, p->images.faults,
            p->image_count, p->image_bytes, p->threads);
}

#endif
