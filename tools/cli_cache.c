/* cli_cache.c - the cache commands of the asmstore CLI (it sees asmstore.h as declarations only and
   holds the asmstore_cache.h implementation).
     asmstore load [--cache DIR] STORE NAME...|--all
     asmstore cache prune DIR [--keep ID] [--max-bytes N]
     asmstore cache stats DIR */
#include "cli.h"
#include "cli_commands.h"
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../asmstore_cache.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* >>usage -------------------------------------------------------------------------------------- */
static int cli_cache_usage(void) {
    fputs("usage:\n"
          "  asmstore load [--cache DIR] STORE NAME...|--all\n"
          "      loads entries as a host would (through the cache in DIR when given), waits for "
          "the\n"
          "      cache writer, prints: name size hit|miss|direct xxh3-64-of-the-bytes\n"
          "  asmstore cache prune DIR [--keep ID] [--max-bytes N]\n"
          "  asmstore cache stats DIR\n"
          "STORE is a .so (loaded with dlopen, as a host does), a raw store or an APK; DIR holds "
          ASMSTORE_CACHE_DIR_NAME "/. ASMSTORE_CACHE_DISABLE=1 turns the cache off.\n",
          stderr);
    return 2;
}

/* >>load --------------------------------------------------------------------------------------- */
static double cli_now_ms(void) {
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A .so built for this machine is loaded with dlopen, as a host does at startup; a .so for another
   ABI, raw stores and APKs are mapped (a note says so for the .so). */
static asmstore_result load_open(const char *path, asmstore_locator *loc, asmstore_error *err) {
    char real[PATH_MAX];
    asmstore_result res = asmstore_locate_file(loc, path, NULL, err);

    /* an APK entry is mapped where it lies: dlopen of the APK path would read the ZIP as ELF */
    if (res != ASMSTORE_OK || loc->wrapper != ASMSTORE_ELF_SYMBOL || loc->via == ASMSTORE_VIA_APK)
        return res;
    if (loc->abi != asmstore_host_abi()) {
        fprintf(stderr,
                "asmstore: %s is an %s library: mapped, not dlopen'ed, on this %s machine\n", path,
                asmstore_abi_name(loc->abi), asmstore_abi_name(asmstore_host_abi()));
        return res;
    }
    asmstore_locator_close(loc);
    if (!realpath(path, real))
        return ASMSTORE_ERR_IO;
    return asmstore_locate_dlopen(loc, real, NULL, err); /* absolute path: dlopen must not search */
}

/* What load was asked for. */
typedef struct load_args {
    const char *dir;   /* --cache DIR; NULL: no cache */
    const char *path;  /* STORE */
    char **names;      /* argv's strings */
    size_t nnames;
    int all;
} load_args;

/* The store being loaded from: where it was found, its reader and the reader's name table. */
typedef struct load_store {
    asmstore_locator loc;
    asmstore_reader r;
    uint32_t *name_table;
} load_store;

/* One image loaded. */
typedef struct cli_loaded {
    asmstore_entry e;
    asmstore_cache_image img;
    uint64_t hash;
} cli_loaded;

/* 0, or the usage's exit code. */
static int load_parse(int argc, char **argv, load_args *a) {
    int i;

    memset(a, 0, sizeof *a);
    a->names = (char **)calloc((size_t)argc + 1, sizeof *a->names);
    if (!a->names)
        return 2;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--cache") && i + 1 < argc)
            a->dir = argv[++i];
        else if (!strcmp(argv[i], "--all"))
            a->all = 1;
        else if (!a->path)
            a->path = argv[i];
        else
            a->names[a->nnames++] = argv[i];
    }
    if (!a->path || (!a->all && a->nnames == 0) || (a->all && a->nnames))
        return cli_cache_usage();
    return 0;
}

/* Finds and reads the store as a host would. 0, or an exit code after saying why. */
static int load_store_open(load_store *s, const char *path) {
    asmstore_error err;
    asmstore_read_options ro;
    asmstore_result res = load_open(path, &s->loc, &err);

    if (res != ASMSTORE_OK && access(path, R_OK) != 0)
        return cli_fail_errno(path, "read it");
    if (res != ASMSTORE_OK) {
        fprintf(stderr, "asmstore: %s: %s%s%s; %s\n", path, asmstore_result_string(res),
                s->loc.error[0] ? ": " : "", s->loc.error,
                res == ASMSTORE_ERR_IO          ? "check the path and its permissions"
                : res == ASMSTORE_ERR_NOT_FOUND ? "no store for this machine's ABI there "
                                                  "('asmstore info' lists what it holds)"
                                                : cli_result_hint(res));
        return res == ASMSTORE_ERR_IO ? 2 : 1;
    }
    memset(&ro, 0, sizeof ro);
    ro.decompress = cli_decompress; /* XALZ (.NET 9/10); zstd goes through the cache's contexts */
    res = asmstore_reader_init(&s->r, s->loc.data, s->loc.size, &ro, &err);
    if (res != ASMSTORE_OK)
        return cli_fail(path, res, &err);
    /* without a name table every entry (and every lookup's hit) walks the names: quadratic */
    s->name_table = cli_attach_name_table(&s->r);
    if (!s->name_table) {
        cli_fail(path, ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
        return 2;
    }
    return 0;
}

/* The cache in dir, or a disabled one (every entry decompressed) without it. 0, or 2. */
static int load_cache_open(asmstore_cache **c, const char *dir, const asmstore_reader *r) {
    asmstore_cache_options co;
    asmstore_error err;
    asmstore_result res;
    char why[512];

    memset(&co, 0, sizeof co);
    co.disable = !dir;
    res = asmstore_cache_open(c, dir ? dir : ".", r, &co, &err);
    if (res == ASMSTORE_OK)
        return 0;
    fprintf(stderr, "asmstore: cache %s: %s; %s\n", dir ? dir : "(none)",
            cli_failure(res, &err, why, sizeof why),
            res == ASMSTORE_ERR_IO ? "give --cache a directory you can write"
                                   : cli_result_hint(res));
    return 2;
}

/* Gets every entry asked for (all, or by name) into out[*n...]. 0, or 1 when one failed. */
static int load_entries(asmstore_cache *c, const asmstore_reader *r, const load_args *a,
                        cli_loaded *out, size_t *n) {
    size_t k, count = a->all ? (size_t)r->entry_count : a->nnames;
    int rc = 0;

    for (k = 0; k < count; k++) {
        asmstore_entry e;
        asmstore_error err;
        asmstore_result res;
        char why[512];

        if (a->all) {
            if (asmstore_reader_entry(r, (uint32_t)k, &e, NULL) != ASMSTORE_OK || e.ignored)
                continue;
        } else {
            res = asmstore_reader_find(r, a->names[k], strlen(a->names[k]), &e, &err);
            if (res != ASMSTORE_OK) {
                rc = cli_fail(a->names[k], res, &err);
                continue;
            }
        }
        res = asmstore_cache_get(c, &e, &out[*n].img, &err);
        if (res != ASMSTORE_OK) {
            fprintf(stderr, "asmstore: %.*s: %s; %s\n", (int)e.name_len, e.name,
                    cli_failure(res, &err, why, sizeof why), cli_result_hint(res));
            rc = 1;
            continue;
        }
        out[*n].e = e;
        out[*n].hash = asmstore_xxh3_64(out[*n].img.data, out[*n].img.size);
        (*n)++;
    }
    return rc;
}

/* Prints each image loaded (and releases it), then the cache's counters on stderr. */
static void load_report(asmstore_cache *c, cli_loaded *out, size_t n, double t0, double t1) {
    asmstore_cache_counters cnt;
    size_t k;

    asmstore_cache_flush(c);
    asmstore_cache_stats(c, &cnt);
    for (k = 0; k < n; k++) {
        printf("%.*s %zu %s %016llx\n", (int)out[k].e.name_len, out[k].e.name, out[k].img.size,
               asmstore_cache_source_name(out[k].img.source), (unsigned long long)out[k].hash);
        asmstore_cache_release(&out[k].img);
    }
    fprintf(stderr,
            "%zu entries in %.1f ms (writer done at %.1f ms): %llu hits (%llu from the pack), "
            "%llu misses, %llu direct; cache %s%s, %llu files written (%llu bytes), %llu packs "
            "written (%llu images packed), %llu rejected, %llu skipped, %llu write failures\n",
            n, t1 - t0, cli_now_ms() - t0, (unsigned long long)cnt.hits,
            (unsigned long long)cnt.pack_hits, (unsigned long long)cnt.misses,
            (unsigned long long)cnt.direct, cnt.enabled ? "on" : "off",
            cnt.enabled && !cnt.writes_enabled ? " (writes off)" : "",
            (unsigned long long)cnt.entries_written, (unsigned long long)cnt.bytes_written,
            (unsigned long long)cnt.packs_written, (unsigned long long)cnt.packed_entries,
            (unsigned long long)cnt.rejected, (unsigned long long)cnt.entries_skipped,
            (unsigned long long)cnt.write_failures);
}

int cli_cmd_load(int argc, char **argv) {
    load_args a;
    load_store s;
    asmstore_cache *c = NULL;
    cli_loaded *out = NULL;
    size_t n = 0;
    double t0;
    int rc;

    memset(&s, 0, sizeof s);
    rc = load_parse(argc, argv, &a);
    if (rc == 0)
        rc = load_store_open(&s, a.path);
    if (rc == 0)
        rc = load_cache_open(&c, a.dir, &s.r);
    if (rc == 0) {
        out = (cli_loaded *)calloc(a.all ? (size_t)s.r.entry_count + 1 : a.nnames, sizeof *out);
        rc = out ? 0 : 2;
    }
    if (rc == 0) {
        t0 = cli_now_ms();
        rc = load_entries(c, &s.r, &a, out, &n);
        load_report(c, out, n, t0, cli_now_ms());
    }
    asmstore_cache_close(c);
    free(out);
    free(s.name_table);
    asmstore_locator_close(&s.loc);
    free(a.names);
    return rc;
}

/* >>cache stats and prune ---------------------------------------------------------------------- */
/* ROOT/decompressed-assembly-cache-v1: where a cache under ROOT lives. */
static void cache_top(const char *root, char *buf, size_t cap) {
    snprintf(buf, cap, "%s/" ASMSTORE_CACHE_DIR_NAME, root);
}

/* Says ROOT holds no cache, and how to make one; returns 1. */
static int no_cache(const char *root) {
    char top[PATH_MAX];

    cache_top(root, top, sizeof top);
    fprintf(stderr, "asmstore: %s: no cache there (looked for %s); 'asmstore load --cache %s STORE "
                    "--all' makes one\n", root, top, root);
    return 1;
}

/* Prints one store id's directory: its files, their bytes, its temp files. */
static void stats_dir(const char *sub, const char *id, unsigned long long *all_files,
                      unsigned long long *all_bytes) {
    unsigned long long files = 0, bytes = 0, tmps = 0;
    struct dirent *fe;
    struct stat st;
    DIR *s = opendir(sub);

    if (!s)
        return;
    while ((fe = readdir(s)) != NULL) {
        char fp[PATH_MAX + 600];

        if (fe->d_name[0] == '.')
            continue;
        snprintf(fp, sizeof fp, "%s/%s", sub, fe->d_name);
        if (lstat(fp, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (strstr(fe->d_name, ".tmp.")) {
            tmps++;
            continue;
        }
        files++;
        bytes += (unsigned long long)st.st_size;
    }
    closedir(s);
    printf("%-16s %8llu %12llu %5llu\n", id, files, bytes, tmps);
    *all_files += files;
    *all_bytes += bytes;
}

static int cli_cache_stats_cmd(const char *root) {
    char top[PATH_MAX];
    struct dirent *de;
    DIR *d;
    unsigned long long all_files = 0, all_bytes = 0;
    int ndirs = 0;

    cache_top(root, top, sizeof top);
    d = opendir(top);
    if (!d && errno == ENOENT)
        return no_cache(root);
    if (!d)
        return cli_fail_errno(top, "list the cache");
    printf("%-16s %8s %12s %5s\n", "store-id", "files", "bytes", "temp");
    while ((de = readdir(d)) != NULL) {
        char sub[PATH_MAX + 300];
        struct stat st;

        if (de->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", top, de->d_name);
        if (lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        stats_dir(sub, de->d_name, &all_files, &all_bytes);
        ndirs++;
    }
    closedir(d);
    printf("total: %d store ids, %llu files, %llu bytes\n", ndirs, all_files, all_bytes);
    return 0;
}

static int cli_cache_prune_cmd(int argc, char **argv) {
    const char *root = argv[1];
    uint64_t keep = 0, max_bytes = 0;
    int has_keep = 0, i;
    asmstore_cache_prune_stats ps;
    asmstore_error err;
    asmstore_result res;

    for (i = 2; i < argc; i++) {
        char *end = NULL;

        if (!strcmp(argv[i], "--keep") && i + 1 < argc) {
            keep = strtoull(argv[++i], &end, 16);
            has_keep = 1;
        } else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) {
            max_bytes = strtoull(argv[++i], &end, 10);
        }
        if (!end || !*argv[i] || *end)
            return cli_cache_usage();
    }
    res = asmstore_cache_prune(root, has_keep ? &keep : NULL, max_bytes, &ps, &err);
    if (res == ASMSTORE_ERR_NOT_FOUND)
        return no_cache(root);
    if (res == ASMSTORE_ERR_IO)
        return cli_fail_errno(root, "prune the cache");
    if (res != ASMSTORE_OK)
        return cli_fail(root, res, &err);
    printf("removed %llu store dirs, %llu files, %llu bytes; kept %llu files, %llu bytes\n",
           (unsigned long long)ps.dirs_removed, (unsigned long long)ps.files_removed,
           (unsigned long long)ps.bytes_removed, (unsigned long long)ps.files_kept,
           (unsigned long long)ps.bytes_kept);
    return 0;
}

int cli_cmd_cache(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[0], "stats"))
        return cli_cache_stats_cmd(argv[1]);
    if (argc >= 2 && !strcmp(argv[0], "prune"))
        return cli_cache_prune_cmd(argc, argv);
    return cli_cache_usage();
}
