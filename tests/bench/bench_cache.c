/* tests/bench/bench_cache.c - the decompressed-entry cache against its anchor, in one run:
   packs every .dll of the given directories (default /usr/lib/mono/4.5 + Facades) into a v4 store,
   then measures (or, with --matrix, the startup matrix in fresh processes: see matrix_main)
     cold   load every entry through an empty cache (decompress + snapshot for the writer)
     plain  the same with the cache off (decompress only)
     warm   load every entry from the cache (open + fstat against the writer's record + mmap + footer)
   as medians of N repetitions, the first run's writer completion time and bytes written, and the
   memory held after loading every entry (private dirty vs clean file-backed, /proc/self/smaps_rollup)
   for the decompress path and the hit path, each in its own child process. Never fails on timing.
   usage: bench_cache [--level N] [--reps N] [--matrix] DIR... */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../../asmstore_cache.h"
#include "../cache_util.h"

#include <spawn.h>
#include <sys/resource.h>
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
        if (asmstore_reader_entry(&s->r, (uint32_t)i, &e, NULL) != ASMSTORE_OK || asmstore_cache_get(c, &e, &img, NULL) != ASMSTORE_OK) { bad++; continue; }
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
        asmstore_cache_open(&c, root, &s->r, &o, NULL);
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

/* ---- the startup matrix: fresh processes, page cache resident or evicted ------------------------
   Each run is a posix_spawn of this program ("--child"), timed from the spawn to wait (whole process) and
   inside (open = map the store file + reader + cache open; load = get + touch every image of the
   workload). Paths: direct zstd (cache off), our cache hit, and a replica of upstream's removed
   design (#11967, docs/store-format.md §8: <N>.bin = payload || 32-byte footer, CRC-32 of the whole
   payload checked on every hit, mmap). Cells run interleaved, rep by rep. Not fork + exec: copying the page tables of
   this harness (it holds the corpus and the store) added ~5 ms to every start on a Firecracker VM, a cost of the
   harness that no app start pays and that shrank every path's lead over another. */
enum { P_DIRECT, P_HIT, P_UPSTREAM, NPATHS };
enum { W_APP, W_ALL, NWORK };
enum { T_WHOLE, T_SPARSE, NTOUCH };
enum { S_RESIDENT, S_EVICTED, NSTATE };
static const char *path_name[NPATHS] = {"direct", "cache hit", "upstream"};
static const char *work_name[NWORK] = {"app", "corpus"};
static const char *touch_name[NTOUCH] = {"whole", "sparse"};
static const char *state_name[NSTATE] = {"resident", "evicted"};

/* The app subset: what a small app loads (the bench's 20 + 10 more), by entry name. */
static const char *const app_names[] = {
    "mscorlib", "System", "System.Core", "System.Xml", "System.Xml.Linq", "System.Runtime.Serialization",
    "System.Net.Http", "System.Numerics", "System.ComponentModel.Composition", "Mono.Security",
    "System.ServiceModel.Internals", "System.IO.Compression", "System.Runtime", "System.Collections",
    "System.Threading.Tasks", "System.Linq", "System.Reflection", "System.Text.Encoding", "System.IO", "netstandard",
    "System.Data", "System.Drawing", "System.Json", "System.Transactions", "System.Web.Services",
    "System.Runtime.Extensions", "System.Threading", "System.Diagnostics.Debug", "System.Globalization", "System.Console"};

/* Upstream's removed cache, as docs/store-format.md §8 describes it (the bench's anchor). */
static void up_path(char *out, size_t cap, const char *root, uint32_t index) { /* root: a short temp path */
    snprintf(out, cap, "%s/%u.bin", root, (unsigned)index);
}
static int up_write(const char *root, uint32_t index, uint64_t store_id, const unsigned char *p, size_t n) {
    char path[4400], tmp[4500];
    unsigned char f[32];
    int fd, ok;
    asmstore__wr32(f, ASMSTORE_CACHE_MAGIC);
    asmstore__wr32(f + 4, 1);
    asmstore__wr64(f + 8, store_id);
    asmstore__wr64(f + 16, asmstore_crc32(p, n));
    asmstore__wr32(f + 24, index);
    asmstore__wr32(f + 28, (uint32_t)n);
    up_path(path, sizeof path, root, index);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    ok = asmstore_cache__pwrite_all(fd, p, n, 0) == 0 && asmstore_cache__pwrite_all(fd, f, sizeof f, n) == 0;
    close(fd);
    return ok && rename(tmp, path) == 0 ? 0 : -1;
}
/* A hit as upstream did it: open, fstat, mmap private writable, every footer field, CRC of the payload. */
static const unsigned char *up_hit(const char *root, const asmstore_entry *e, uint64_t store_id) {
    char path[4400];
    struct stat st;
    unsigned char *m;
    const unsigned char *f;
    size_t len = e->uncompressed_size + 32;
    int fd;
    up_path(path, sizeof path, root, e->index);
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len) { close(fd); return NULL; }
    m = (unsigned char *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return NULL;
    f = m + e->uncompressed_size;
    if (asmstore__rd32(f) != ASMSTORE_CACHE_MAGIC || asmstore__rd32(f + 4) != 1 || asmstore__rd64(f + 8) != store_id ||
        asmstore__rd32(f + 24) != e->index || asmstore__rd32(f + 28) != (uint32_t)e->uncompressed_size ||
        asmstore__rd64(f + 16) != asmstore_crc32(m, e->uncompressed_size)) {
        munmap(m, len);
        return NULL;
    }
    return m;
}

/* Where a runtime reads a PE image: the headers, the CLI metadata, and then a quarter of the pages
   (IL bodies and resources it happens to need). Falls back to the first two pages when the image
   is not a PE file. Returns the sum of the bytes read (kept, so nothing is optimised away). */
static unsigned touch_sparse(const unsigned char *d, size_t n) {
    unsigned sum = 0;
    size_t i, md_off = 0, md_len = 0;
    uint32_t pe = n >= 64 ? asmstore__rd32(d + 0x3c) : 0;
    if (pe > 0 && (size_t)pe + 24 + 224 <= n && asmstore__rd32(d + pe) == 0x4550u) {
        size_t opt = pe + 24u, nsec = (size_t)d[pe + 6] | (size_t)d[pe + 7] << 8;
        size_t optsz = (size_t)d[pe + 20] | (size_t)d[pe + 21] << 8, dd = opt + (d[opt] == 0x0b && d[opt + 1] == 0x02 ? 112u : 96u);
        size_t sec = opt + optsz, k;
        uint32_t cli_rva = dd + 14 * 8 + 8 <= n ? asmstore__rd32(d + dd + 14 * 8) : 0, md_rva = 0;
        size_t cli_off = 0;
        /* RVA -> file offset through the section table, twice: the CLI header, then the metadata */
        for (k = 0; k < nsec && sec + 40 * (k + 1) <= n; k++) {
            const unsigned char *s = d + sec + 40 * k;
            uint32_t va = asmstore__rd32(s + 12), vs = asmstore__rd32(s + 8), raw = asmstore__rd32(s + 20);
            if (cli_rva >= va && cli_rva < va + vs) cli_off = raw + (cli_rva - va);
        }
        if (cli_off && cli_off + 16 <= n) md_rva = asmstore__rd32(d + cli_off + 8), md_len = asmstore__rd32(d + cli_off + 12);
        for (k = 0; md_rva && k < nsec && sec + 40 * (k + 1) <= n; k++) {
            const unsigned char *s = d + sec + 40 * k;
            uint32_t va = asmstore__rd32(s + 12), vs = asmstore__rd32(s + 8), raw = asmstore__rd32(s + 20);
            if (md_rva >= va && md_rva < va + vs) md_off = raw + (md_rva - va);
        }
        if (md_off >= n) md_off = md_len = 0;
        if (md_len > n - md_off) md_len = n - md_off;
    }
    for (i = 0; i < n && i < 8192; i += 4096) sum += d[i];
    for (i = md_off; i < md_off + md_len; i += 4096) sum += d[i];
    for (i = 3 * 4096; i < n; i += 4 * 4096) sum += d[i];
    return sum;
}
static volatile unsigned sink;
static unsigned touch_whole(const unsigned char *d, size_t n) {
    unsigned sum = 0;
    size_t i;
    for (i = 0; i < n; i += 4096) sum += d[i];
    return sum;
}

/* The child: one app start. argv: PATH TOUCH STOREFILE ROOT WORK.
   Prints "open_us load_us hits misses dirty_kb" (private dirty after the load, what the start holds). */
static int child_main(char **argv) {
    int path = atoi(argv[0]), touch = atoi(argv[1]), work = atoi(argv[4]);
    const char *root = argv[3];
    double t0 = now_ms(), t_open, t_load;
    struct stat st;
    asmstore_reader r;
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    asmstore_cache_counters cnt;
    unsigned char *store;
    uint32_t i, n;
    unsigned hits = 0, misses = 0;
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) return 2;
    store = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0); /* as dlopen maps it */
    close(fd);
    if (store == MAP_FAILED || asmstore_reader_init(&r, store, (size_t)st.st_size, NULL, NULL) != ASMSTORE_OK) return 2;
    memset(&o, 0, sizeof o);
    o.disable = path != P_HIT; /* direct zstd, and the replica's fallback on a miss */
    o.read_only = 1;           /* the runs measure hits; priming wrote every file */
    if (asmstore_cache_open(&c, root, &r, &o, NULL) != ASMSTORE_OK) return 2;
    t_open = now_ms();
    n = work == W_APP ? (uint32_t)(sizeof app_names / sizeof app_names[0]) : r.entry_count;
    for (i = 0; i < n; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        const unsigned char *d;
        if (work == W_APP) {
            if (asmstore_reader_find(&r, app_names[i], strlen(app_names[i]), &e, NULL) != ASMSTORE_OK) continue;
        } else if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.ignored) {
            continue;
        }
        if (path == P_UPSTREAM) {
            d = up_hit(root, &e, r.content_id);
            if (d) hits++;
            else if (asmstore_cache_get(c, &e, &img, NULL) == ASMSTORE_OK) { d = img.data; misses++; }
        } else {
            if (asmstore_cache_get(c, &e, &img, NULL) != ASMSTORE_OK) return 3;
            d = img.data; /* kept for the process's life, as a runtime keeps its images */
        }
        if (d) sink += touch == T_WHOLE ? touch_whole(d, e.uncompressed_size) : touch_sparse(d, e.uncompressed_size);
    }
    t_load = now_ms();
    asmstore_cache_stats(c, &cnt);
    if (path != P_UPSTREAM) { hits = (unsigned)cnt.hits; misses = (unsigned)cnt.misses; }
    printf("%.0f %.0f %u %u %ld\n", (t_open - t0) * 1e3, (t_load - t_open) * 1e3, hits, misses, read_mem().dirty_kb);
    return 0;
}

/* ---- the parent: files, page cache, cells --------------------------------------------------- */
typedef struct flist { char **paths; size_t n, cap; } flist;

static void flist_add_tree(flist *l, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        char p[4200];
        struct stat st;
        if (de->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (lstat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) { flist_add_tree(l, p); continue; }
        if (!S_ISREG(st.st_mode)) continue;
        if (l->n == l->cap) { l->cap = l->cap ? 2 * l->cap : 512; l->paths = (char **)realloc(l->paths, l->cap * sizeof *l->paths); }
        l->paths[l->n++] = strdup(p);
    }
    if (d) closedir(d);
}

/* Evicts (DONTNEED) or loads (reads) every file (the store, our packs and files, the replica's files); returns the
   resident fraction afterwards (mincore). */
static double page_cache(const flist *l, int evict) {
    static unsigned char buf[1 << 16];
    size_t i, pages = 0, resident = 0, pg = (size_t)sysconf(_SC_PAGESIZE);
    for (i = 0; i < l->n; i++) {
        struct stat st;
        int fd = open(l->paths[i], O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        if (evict) (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        else while (read(fd, buf, sizeof buf) > 0) {}
        if (fstat(fd, &st) == 0 && st.st_size > 0) {
            size_t np = ((size_t)st.st_size + pg - 1) / pg, k;
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
            unsigned char *v = (unsigned char *)malloc(np);
            if (m != MAP_FAILED && v && mincore(m, (size_t)st.st_size, v) == 0)
                for (k = 0; k < np; k++) resident += v[k] & 1u;
            pages += np;
            free(v);
            if (m != MAP_FAILED) munmap(m, (size_t)st.st_size);
        }
        close(fd);
    }
    return pages ? (double)resident / (double)pages : 0;
}

typedef struct cell {
    double wall[64], load[64];
    double cpu[64], faults[64], dirty[64]; /* user + sys ms, minor faults, private dirty kB */
    int n;
    unsigned hits, misses;
    double resid_sum;
} cell;

/* One fresh process; fills wall/load (ms), cpu (ms, wait4's rusage), faults and dirty (the child's open
   time is not kept: the whole process and the load are what the matrix compares). */
static int run_child(const char *self, int path, int touch, const char *store, const char *root, int work, cell *c) {
    char a0[8], a1[8], a4[8], out[256];
    int pipefd[2], status;
    ssize_t got;
    double t0;
    unsigned hits = 0, misses = 0;
    double load_us = 0;
    char *args[] = {(char *)self, (char *)"--child", a0, a1, (char *)store, (char *)root, a4, NULL};
    posix_spawn_file_actions_t fa;
    struct rusage ru;
    long dirty_kb = 0;
    pid_t p;
    snprintf(a0, sizeof a0, "%d", path);
    snprintf(a1, sizeof a1, "%d", touch);
    snprintf(a4, sizeof a4, "%d", work);
    if (pipe(pipefd) != 0) return -1;
    fflush(stdout);
    t0 = now_ms();
    if (posix_spawn_file_actions_init(&fa) != 0) { close(pipefd[0]); close(pipefd[1]); return -1; }
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    if (posix_spawn(&p, self, &fa, NULL, args, environ) != 0) p = -1;
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (p < 0) { close(pipefd[0]); return -1; }
    got = read(pipefd[0], out, sizeof out - 1);
    if (wait4(p, &status, 0, &ru) < 0) memset(&ru, 0, sizeof ru);
    c->wall[c->n] = now_ms() - t0;
    close(pipefd[0]);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    out[got] = 0;
    if (sscanf(out, "%*f %lf %u %u %ld", &load_us, &hits, &misses, &dirty_kb) != 4) return -1;
    c->cpu[c->n] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    c->faults[c->n] = (double)ru.ru_minflt;
    c->dirty[c->n] = (double)dirty_kb;
    c->load[c->n] = load_us / 1e3;
    c->hits = hits;
    c->misses = misses;
    c->n++;
    return 0;
}

static double median(const double *v, int n) {
    double t[64];
    memcpy(t, v, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, dcmp);
    return n ? (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2) : 0;
}
static double vmin(const double *v, int n) { double m = n ? v[0] : 0; int i; for (i = 1; i < n; i++) if (v[i] < m) m = v[i]; return m; }
static double vmax(const double *v, int n) { double m = n ? v[0] : 0; int i; for (i = 1; i < n; i++) if (v[i] > m) m = v[i]; return m; }

/* Primes our cache (through the cache itself) and the replica with what workload w loads, as the
   app's earlier runs would have: each workload has its own cache directories. */
static int prime(const cu_store *s, int w, const char *ours, const char *up) {
    asmstore_cache *c = NULL;
    asmstore_cache_options o;
    uint32_t i, n = w == W_APP ? (uint32_t)(sizeof app_names / sizeof app_names[0]) : (uint32_t)s->n;
    memset(&o, 0, sizeof o);
    o.max_queue_bytes = (size_t)1 << 30;
    if (mkdir(up, 0700) != 0 || asmstore_cache_open(&c, ours, &s->r, &o, NULL) != ASMSTORE_OK) return -1;
    for (i = 0; i < n; i++) {
        asmstore_entry e;
        asmstore_cache_image img;
        if (w == W_APP ? asmstore_reader_find(&s->r, app_names[i], strlen(app_names[i]), &e, NULL) != ASMSTORE_OK
                       : asmstore_reader_entry(&s->r, i, &e, NULL) != ASMSTORE_OK)
            continue;
        if (asmstore_cache_get(c, &e, &img, NULL) != ASMSTORE_OK) return -1;
        if (img.source != ASMSTORE_CACHE_DIRECT && up_write(up, e.index, s->r.content_id, img.data, img.size) != 0) return -1;
        asmstore_cache_release(&img);
    }
    asmstore_cache_flush(c);
    asmstore_cache_close(c);
    return 0;
}

/* Builds the store file, primes both caches, runs every cell `reps` times interleaved, prints the matrix. */
static int matrix_main(const char *self, const cu_store *s, const char *tmp, int reps) {
    static cell cells[NWORK][NTOUCH][NSTATE][NPATHS];
    char store[4096], ours[NWORK][4096], up[NWORK][4096];
    flist files;
    int w, t, st, p, r, bad = 0;
    size_t i, packs;
    memset(&files, 0, sizeof files);
    snprintf(store, sizeof store, "%s/store.bin", tmp);
    if (cu_spit(store, s->bytes, s->size) != 0) return 1;
    for (w = 0; w < NWORK; w++) {
        snprintf(ours[w], sizeof ours[w], "%s/ours-%s", tmp, work_name[w]);
        snprintf(up[w], sizeof up[w], "%s/upstream-%s", tmp, work_name[w]);
        if (prime(s, w, ours[w], up[w]) != 0) return 1;
        flist_add_tree(&files, ours[w]);
        flist_add_tree(&files, up[w]);
    }
    sync(); /* written back: DONTNEED cannot drop dirty pages */
    if (files.n == files.cap) files.paths = (char **)realloc(files.paths, (files.cap + 1) * sizeof *files.paths);
    files.paths[files.n++] = strdup(store);
    for (i = 0, packs = 0; i < files.n; i++) packs += cu_has_suffix(files.paths[i], "/pack") ? 1u : 0u;
    printf("matrix: %zu entries (app subset: %zu names), %zu files in the page-cache set (%zu packs), %d fresh processes per cell, interleaved\n",
           s->n, sizeof app_names / sizeof app_names[0], files.n, packs, reps);
    for (r = 0; r < reps; r++)
        for (st = 0; st < NSTATE; st++)
            for (w = 0; w < NWORK; w++)
                for (t = 0; t < NTOUCH; t++)
                    for (p = 0; p < NPATHS; p++) {
                        /* rotate the order of the paths each rep: none always runs right after a reload */
                        int pp = (p + r) % NPATHS;
                        cell *c1 = &cells[w][t][st][pp];
                        c1->resid_sum += page_cache(&files, st == S_EVICTED);
                        if (run_child(self, pp, t, store, pp == P_UPSTREAM ? up[w] : ours[w], w, c1) != 0) bad++;
                    }
    printf("| cell (resident) | path | process, ms | ÷ direct | ÷ upstream | load ms | CPU ms | faults | dirty MiB |"
           " hits/misses |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (w = 0; w < NWORK; w++)
        for (t = 0; t < NTOUCH; t++)
            for (st = 0; st < NSTATE; st++) {
                double dwall = median(cells[w][t][st][P_DIRECT].wall, cells[w][t][st][P_DIRECT].n);
                double uwall = median(cells[w][t][st][P_UPSTREAM].wall, cells[w][t][st][P_UPSTREAM].n);
                for (p = 0; p < NPATHS; p++) {
                    cell *c1 = &cells[w][t][st][p];
                    double mw = median(c1->wall, c1->n);
                    printf("| %s, %s, %s (%.0f%%) | %s%s%s | %.1f (%.1f–%.1f) | %.2f | %.2f | %.1f | %.0f | %.0f | %.1f |"
                           " %u/%u |\n", work_name[w], touch_name[t], state_name[st],
                           c1->n ? 100.0 * c1->resid_sum / c1->n : 0, p == P_HIT ? "**" : "", path_name[p],
                           p == P_HIT ? "**" : "", mw, vmin(c1->wall, c1->n), vmax(c1->wall, c1->n),
                           dwall > 0 ? mw / dwall : 0, uwall > 0 ? mw / uwall : 0, median(c1->load, c1->n),
                           median(c1->cpu, c1->n), median(c1->faults, c1->n), median(c1->dirty, c1->n) / 1024,
                           c1->hits, c1->misses);
                }
            }
    /* the targets, worst touch pattern of each workload and page-cache state */
    for (st = 0; st < NSTATE; st++)
        for (w = 0; w < NWORK; w++) {
            double rd = 0, ru = 0, goal = st == S_EVICTED ? 0.5 : 0.3;
            for (t = 0; t < NTOUCH; t++) {
                double h = median(cells[w][t][st][P_HIT].wall, cells[w][t][st][P_HIT].n);
                double d = median(cells[w][t][st][P_DIRECT].wall, cells[w][t][st][P_DIRECT].n);
                double u = median(cells[w][t][st][P_UPSTREAM].wall, cells[w][t][st][P_UPSTREAM].n);
                if (d > 0 && h / d > rd) rd = h / d;
                if (u > 0 && h / u > ru) ru = h / u;
            }
            printf("target|hit ÷ direct zstd, %s, %s (whole process, worse touch)|≤ %.2f×|%.2f×|%d\n", work_name[w], state_name[st], goal, rd, rd <= goal);
            printf("target|hit ÷ upstream replica, %s, %s (whole process, worse touch)|≤ 0.25×|%.2f×|%d\n", work_name[w], state_name[st], ru, ru <= 0.25);
        }
    if (bad) printf("matrix: %d runs failed\n", bad);
    for (i = 0; i < files.n; i++) free(files.paths[i]);
    free(files.paths);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    const char *dirs[16];
    size_t ndirs = 0, i, total = 0;
    int reps = 5, r, rc, matrix = 0;
    cu_store s;
    char *root;
    double cold[32], plain[32], warm[32], writer_ms = 0, t0;
    asmstore_cache_counters first;
    if (argc == 7 && !strcmp(argv[1], "--child")) return child_main(argv + 2);
    setvbuf(stdout, NULL, _IOLBF, 0);
    cu_level = 0;
    cu_jobs = 0;
    for (r = 1; r < argc; r++) {
        if (!strcmp(argv[r], "--level") && r + 1 < argc) cu_level = atoi(argv[++r]);
        else if (!strcmp(argv[r], "--reps") && r + 1 < argc) reps = atoi(argv[++r]);
        else if (!strcmp(argv[r], "--matrix")) matrix = 1;
        else if (ndirs < 16) dirs[ndirs++] = argv[r];
    }
    if (reps < 1) reps = 1;
    if (reps > 32) reps = 32; /* the matrix keeps 64 samples a cell */
    if (ndirs == 0) { dirs[0] = "/usr/lib/mono/4.5"; dirs[1] = "/usr/lib/mono/4.5/Facades"; ndirs = 2; }
    unsetenv("ASMSTORE_CACHE_DISABLE");
    rc = cu_from_dirs(&s, 4, dirs, ndirs, CU_MAX);
    if (rc == 1) { printf("bench-cache: SKIP: no .dll files in %s\n", dirs[0]); return 0; }
    if (rc != 0) { printf("bench-cache: could not build the store\n"); return 1; }
    for (i = 0; i < s.n; i++) total += s.src_size[i];
    printf("bench-cache: %zu entries, %.1f MB uncompressed, store %.1f MB (zstd level %d), median of %d runs\n", s.n,
           (double)total / 1e6, (double)s.size / 1e6, cu_level ? cu_level : 3, reps);
    root = cu_tmpdir();
    if (matrix) {
        char self[4096];
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        rc = k > 0 ? (self[k] = 0, matrix_main(self, &s, root, reps)) : 1;
        cu_rmrf(root);
        free(root);
        cu_free(&s);
        return rc;
    }
    for (r = 0; r < reps; r++) {
        asmstore_cache *c = NULL;
        asmstore_cache_options o;
        char sub[4200];
        /* cold: a new, empty cache root each time */
        snprintf(sub, sizeof sub, "%s/cold%d", root, r);
        memset(&o, 0, sizeof o);
        o.max_queue_bytes = (size_t)1 << 30; /* the whole set: measure the writer, not the bound */
        t0 = now_ms();
        asmstore_cache_open(&c, sub, &s.r, &o, NULL);
        if (load_every(c, &s, NULL)) printf("  LOAD ERRORS (cold)\n");
        cold[r] = now_ms() - t0;
        asmstore_cache_flush(c);
        if (r == 0) { writer_ms = now_ms() - t0; asmstore_cache_stats(c, &first); }
        asmstore_cache_close(c);
        /* plain decompress */
        memset(&o, 0, sizeof o);
        o.disable = 1;
        t0 = now_ms();
        asmstore_cache_open(&c, sub, &s.r, &o, NULL);
        load_every(c, &s, NULL);
        plain[r] = now_ms() - t0;
        asmstore_cache_close(c);
        /* warm: every entry a hit */
        t0 = now_ms();
        asmstore_cache_open(&c, sub, &s.r, NULL, NULL);
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
    printf("  warm: hit (mmap + footer)    %8.2f ms   (%.0f MB/s)\n", warm[reps / 2], (double)total / 1e3 / warm[reps / 2]);
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
