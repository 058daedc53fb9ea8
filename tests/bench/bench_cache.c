/* tests/bench/bench_cache.c - the decompressed-entry cache against its anchor, in one run:
   packs every .dll of the given directories (default /usr/lib/mono/4.5 + Facades) into a v4 store,
   then measures
     cold   load every entry through an empty cache (decompress + snapshot for the writer)
     plain  the same with the cache off (decompress only)
     warm   load every entry from the cache (open + fstat + mmap + footer + XXH3 scan)
   as medians of N repetitions, the first run's writer completion time and bytes written, and the
   memory held after loading every entry (private dirty vs clean file-backed, /proc/self/smaps_rollup)
   for the decompress path and the hit path, each in its own child process. Never fails on timing.
   usage: bench_cache [--level N] [--reps N] DIR... */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../../asmstore_cache.h"
#include "../cache_util.h"

#include <sys/wait.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Loads every entry; keeps the images in imgs (may be NULL: released at once). Returns wrong entries. */
static int load_every(asmstore_cache *c, const cu_store *s, asmstore_cache_image *imgs) {
    size_t i;
    int bad = 0;
    for (i = 0; i < s->n; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        if (asmstore_reader_entry(&s->r, (uint32_t)i, &e) != ASMSTORE_OK || asmstore_cache_get(c, &e, &img) != ASMSTORE_OK) { bad++; continue; }
        if (img.size != s->src_size[i]) bad++;
        if (imgs) imgs[i] = img;
        else asmstore_cache_release(&img);
    }
    return bad;
}

typedef struct mem { long dirty_kb, clean_file_kb, anon_kb; } mem;

static mem read_mem(void) {
    mem m;
    char line[256];
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    long pc = 0, sc = 0;
    memset(&m, 0, sizeof m);
    while (f && fgets(line, sizeof line, f)) {
        long v;
        if (sscanf(line, "Private_Dirty: %ld", &v) == 1) m.dirty_kb = v;
        else if (sscanf(line, "Private_Clean: %ld", &v) == 1) pc = v;
        else if (sscanf(line, "Shared_Clean: %ld", &v) == 1) sc = v;
        else if (sscanf(line, "Anonymous: %ld", &v) == 1) m.anon_kb = v;
    }
    if (f) fclose(f);
    m.clean_file_kb = pc + sc;
    return m;
}

/* In a child: open the cache at root, load and hold every entry, print the memory delta. */
static void mem_child(const char *what, const char *root, const cu_store *s, int disable) {
    pid_t p;
    fflush(stdout);
    p = fork();
    if (p == 0) {
        asmstore_cache_options o;
        asmstore_cache *c = NULL;
        asmstore_cache_image *imgs = (asmstore_cache_image *)calloc(s->n, sizeof *imgs);
        mem before, after;
        size_t i;
        int bad;
        memset(&o, 0, sizeof o);
        o.disable = disable;
        o.read_only = 1; /* memory of the images only: no snapshots queued */
        asmstore_cache_open(&c, root, &s->r, &o);
        before = read_mem();
        bad = load_every(c, s, imgs);
        after = read_mem();
        {
            asmstore_cache_counters n;
            asmstore_cache_stats(c, &n);
            printf("  %-26s private dirty %+8ld kB   clean file-backed %+8ld kB   (%llu hits, %llu misses)%s\n", what,
                   after.dirty_kb - before.dirty_kb, after.clean_file_kb - before.clean_file_kb, (unsigned long long)n.hits,
                   (unsigned long long)n.misses, bad ? "  (LOAD ERRORS)" : "");
        }
        for (i = 0; i < s->n; i++) asmstore_cache_release(&imgs[i]);
        asmstore_cache_close(c);
        fflush(stdout);
        _exit(0);
    }
    if (p > 0) waitpid(p, NULL, 0);
}

int main(int argc, char **argv) {
    const char *dirs[16];
    size_t ndirs = 0, i, total = 0;
    int reps = 5, r, rc;
    cu_store s;
    char *root;
    double cold[32], plain[32], warm[32], writer_ms = 0, t0;
    asmstore_cache_counters first;
    setvbuf(stdout, NULL, _IOLBF, 0);
    cu_level = 0;
    cu_jobs = 0;
    for (r = 1; r < argc; r++) {
        if (!strcmp(argv[r], "--level") && r + 1 < argc) cu_level = atoi(argv[++r]);
        else if (!strcmp(argv[r], "--reps") && r + 1 < argc) reps = atoi(argv[++r]);
        else if (ndirs < 16) dirs[ndirs++] = argv[r];
    }
    if (reps < 1) reps = 1;
    if (reps > 32) reps = 32;
    if (ndirs == 0) { dirs[0] = "/usr/lib/mono/4.5"; dirs[1] = "/usr/lib/mono/4.5/Facades"; ndirs = 2; }
    unsetenv("ASMSTORE_CACHE_DISABLE");
    rc = cu_from_dirs(&s, 4, dirs, ndirs, CU_MAX);
    if (rc == 1) { printf("bench-cache: SKIP: no .dll files in %s\n", dirs[0]); return 0; }
    if (rc != 0) { printf("bench-cache: could not build the store\n"); return 1; }
    for (i = 0; i < s.n; i++) total += s.src_size[i];
    printf("bench-cache: %zu entries, %.1f MB uncompressed, store %.1f MB (zstd level %d), median of %d runs\n", s.n,
           (double)total / 1e6, (double)s.size / 1e6, cu_level ? cu_level : 3, reps);
    root = cu_tmpdir();
    for (r = 0; r < reps; r++) {
        asmstore_cache *c = NULL;
        asmstore_cache_options o;
        char sub[4200];
        /* cold: a new, empty cache root each time */
        snprintf(sub, sizeof sub, "%s/cold%d", root, r);
        memset(&o, 0, sizeof o);
        o.max_queue_bytes = (size_t)1 << 30; /* the whole set: measure the writer, not the bound */
        t0 = now_ms();
        asmstore_cache_open(&c, sub, &s.r, &o);
        if (load_every(c, &s, NULL)) printf("  LOAD ERRORS (cold)\n");
        cold[r] = now_ms() - t0;
        asmstore_cache_flush(c);
        if (r == 0) { writer_ms = now_ms() - t0; asmstore_cache_stats(c, &first); }
        asmstore_cache_close(c);
        /* plain decompress */
        memset(&o, 0, sizeof o);
        o.disable = 1;
        t0 = now_ms();
        asmstore_cache_open(&c, sub, &s.r, &o);
        load_every(c, &s, NULL);
        plain[r] = now_ms() - t0;
        asmstore_cache_close(c);
        /* warm: every entry a hit */
        t0 = now_ms();
        asmstore_cache_open(&c, sub, &s.r, NULL);
        if (load_every(c, &s, NULL)) printf("  LOAD ERRORS (warm)\n");
        warm[r] = now_ms() - t0;
        {
            asmstore_cache_counters n;
            asmstore_cache_stats(c, &n);
            if (n.misses) printf("  note: %llu misses in a warm run\n", (unsigned long long)n.misses);
        }
        asmstore_cache_close(c);
    }
    qsort(cold, (size_t)reps, sizeof cold[0], dcmp);
    qsort(plain, (size_t)reps, sizeof plain[0], dcmp);
    qsort(warm, (size_t)reps, sizeof warm[0], dcmp);
    printf("  cold: decompress + queue     %8.2f ms   (%.0f MB/s of output)\n", cold[reps / 2], (double)total / 1e3 / cold[reps / 2]);
    printf("  anchor: decompress only      %8.2f ms   (cache off)\n", plain[reps / 2]);
    printf("  warm: hit (mmap + XXH3 scan) %8.2f ms   (%.0f MB/s)\n", warm[reps / 2], (double)total / 1e3 / warm[reps / 2]);
    printf("  ratio cold / warm            %8.2fx   (decompress only / warm %.2fx)\n", cold[reps / 2] / warm[reps / 2],
           plain[reps / 2] / warm[reps / 2]);
    printf("  first run's writer done at   %8.2f ms   %llu files, %.1f MB written, %llu skipped, %llu write failures\n", writer_ms,
           (unsigned long long)first.entries_written, (double)first.bytes_written / 1e6,
           (unsigned long long)first.entries_skipped, (unsigned long long)first.write_failures);
    printf("  memory held after loading every entry (each path in its own process):\n");
    {
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/cold0", root);
        /* a later app start finds the files written back; freshly written page-cache pages would
           still count as dirty in smaps even when only read */
        sync();
        mem_child("decompress path (miss):", sub, &s, 1);
        mem_child("hit path (cache files):", sub, &s, 0);
    }
    cu_rmrf(root);
    free(root);
    cu_free(&s);
    return 0;
}
