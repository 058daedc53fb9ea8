/* cli_cache.c - the cache commands of the asmstore CLI (a second translation unit: it sees asmstore.h
   as declarations only and holds the asmstore_cache.h implementation).
     asmstore load [--cache DIR] STORE NAME...|--all
     asmstore cache prune DIR [--keep ID] [--max-bytes N]
     asmstore cache stats DIR */
#include "cli.h"
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


static int cli_cache_usage(void) {
    fputs("usage:\n"
          "  asmstore load [--cache DIR] STORE NAME...|--all\n"
          "      loads entries as a host would (through the cache in DIR when given), waits for the\n"
          "      cache writer, prints: name size hit|miss|direct xxh3-64-of-the-bytes\n"
          "  asmstore cache prune DIR [--keep ID] [--max-bytes N]\n"
          "  asmstore cache stats DIR\n"
          "STORE is a .so (loaded with dlopen, as a host does), a raw store or an APK; DIR holds " ASMSTORE_CACHE_DIR_NAME "/. ASMSTORE_CACHE_DISABLE=1 turns the cache off.\n",
          stderr);
    return 2;
}

static double cli_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *cli_source_name(asmstore_cache_source s) {
    return s == ASMSTORE_CACHE_HIT ? "hit" : s == ASMSTORE_CACHE_MISS ? "miss" : s == ASMSTORE_CACHE_DIRECT ? "direct" : "none";
}

/* The ABI this program runs as: a .so for it can be dlopen'ed. */
static asmstore_abi host_abi(void) {
#if defined(__aarch64__)
    return ASMSTORE_ABI_ARM64;
#elif defined(__arm__)
    return ASMSTORE_ABI_ARM;
#elif defined(__x86_64__)
    return ASMSTORE_ABI_X86_64;
#elif defined(__i386__)
    return ASMSTORE_ABI_X86;
#else
    return ASMSTORE_ABI_UNKNOWN;
#endif
}

/* A .so built for this machine is loaded with dlopen, as a host does at startup; a .so for another
   ABI, raw stores and APKs are mapped (a note says so for the .so). */
static asmstore_result load_open(const char *path, asmstore_locator *loc, asmstore_error *err) {
    char real[PATH_MAX];
    asmstore_result res = asmstore_locate_file(loc, path, NULL, err);
    /* an APK entry is mapped where it lies: dlopen of the APK path itself would read the ZIP as ELF */
    if (res != ASMSTORE_OK || loc->wrapper != ASMSTORE_ELF_SYMBOL || loc->via == ASMSTORE_VIA_APK) return res;
    if (loc->abi != host_abi()) {
        fprintf(stderr, "asmstore: %s is an %s library: mapped, not dlopen'ed, on this %s machine\n", path,
                asmstore_abi_name(loc->abi), asmstore_abi_name(host_abi()));
        return res;
    }
    asmstore_locator_close(loc);
    if (!realpath(path, real)) return ASMSTORE_ERR_IO;
    return asmstore_locate_dlopen(loc, real, NULL, err); /* absolute path: dlopen must not search */
}

typedef struct cli_loaded {
    asmstore_entry e;
    asmstore_cache_image img;
    uint64_t hash;
} cli_loaded;

int cli_cmd_load(int argc, char **argv) {
    const char *dir = NULL, *path = NULL;
    int all = 0, i, rc = 0;
    size_t nnames = 0, k, n = 0;
    char **names = (char **)calloc((size_t)argc + 1, sizeof *names);
    asmstore_locator loc;
    asmstore_error err;
    asmstore_reader r;
    asmstore_read_options ro;
    asmstore_cache_options co;
    asmstore_cache *c = NULL;
    asmstore_cache_counters cnt;
    asmstore_result res;
    cli_loaded *out = NULL;
    uint32_t *name_table;
    double t0, t1;
    if (!names) return 2;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--cache") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--all")) all = 1;
        else if (!path) path = argv[i];
        else names[nnames++] = argv[i];
    }
    if (!path || (!all && nnames == 0) || (all && nnames)) { free(names); return cli_cache_usage(); }
    res = load_open(path, &loc, &err);
    if (res != ASMSTORE_OK && access(path, R_OK) != 0) { free(names); return cli_fail_errno(path, "read it"); }
    if (res != ASMSTORE_OK) {
        fprintf(stderr, "asmstore: %s: %s%s%s; %s\n", path, asmstore_result_string(res), loc.error[0] ? ": " : "", loc.error,
                res == ASMSTORE_ERR_IO ? "check the path and its permissions"
                : res == ASMSTORE_ERR_NOT_FOUND ? "no store for this machine's ABI there ('asmstore info' lists what it holds)"
                : cli_result_hint(res));
        free(names);
        return res == ASMSTORE_ERR_IO ? 2 : 1;
    }
    memset(&ro, 0, sizeof ro);
    ro.decompress = cli_decompress; /* XALZ stores (.NET 9/10); zstd goes through the cache's contexts */
    res = asmstore_reader_init(&r, loc.data, loc.size, &ro, &err);
    if (res != ASMSTORE_OK) {
        int rc_open = cli_fail(path, res, &err);
        asmstore_locator_close(&loc);
        free(names);
        return rc_open;
    }
    /* without a name table every entry (and every lookup's hit) walks the names: quadratic */
    if (!(name_table = cli_attach_name_table(&r))) {
        cli_fail(path, ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
        asmstore_locator_close(&loc);
        free(names);
        return 2;
    }
    memset(&co, 0, sizeof co);
    if (!dir) co.disable = 1; /* no cache: decompress every entry */
    res = asmstore_cache_open(&c, dir ? dir : ".", &r, &co, &err);
    if (res != ASMSTORE_OK) {
        char why[512];
        fprintf(stderr, "asmstore: cache %s: %s; %s\n", dir ? dir : "(none)",
                cli_failure(res, &err, why, sizeof why),
                res == ASMSTORE_ERR_IO ? "give --cache a directory you can write" : cli_result_hint(res));
        free(name_table);
        asmstore_locator_close(&loc);
        free(names);
        return 2;
    }
    out = (cli_loaded *)calloc(all ? (size_t)r.entry_count + 1 : nnames, sizeof *out);
    if (!out) { asmstore_cache_close(c); free(name_table); asmstore_locator_close(&loc); free(names); return 2; }
    t0 = cli_now_ms();
    for (k = 0; k < (all ? (size_t)r.entry_count : nnames); k++) {
        asmstore_entry e;
        if (all) {
            if (asmstore_reader_entry(&r, (uint32_t)k, &e, NULL) != ASMSTORE_OK || e.ignored) continue;
        } else {
            res = asmstore_reader_find(&r, names[k], strlen(names[k]), &e, &err);
            if (res != ASMSTORE_OK) { rc = cli_fail(names[k], res, &err); continue; }
        }
        res = asmstore_cache_get(c, &e, &out[n].img, &err);
        if (res != ASMSTORE_OK) {
            char why[512];
            fprintf(stderr, "asmstore: %.*s: %s; %s\n", (int)e.name_len, e.name,
                    cli_failure(res, &err, why, sizeof why), cli_result_hint(res));
            rc = 1;
            continue;
        }
        out[n].e = e;
        out[n].hash = asmstore_xxh3_64(out[n].img.data, out[n].img.size);
        n++;
    }
    t1 = cli_now_ms();
    asmstore_cache_flush(c);
    asmstore_cache_stats(c, &cnt);
    for (k = 0; k < n; k++) {
        printf("%.*s %zu %s %016llx\n", (int)out[k].e.name_len, out[k].e.name, out[k].img.size, cli_source_name(out[k].img.source),
               (unsigned long long)out[k].hash);
        asmstore_cache_release(&out[k].img);
    }
    fprintf(stderr, "%zu entries in %.1f ms (writer done at %.1f ms): %llu hits (%llu from the pack), %llu misses, "
                    "%llu direct; cache %s%s, %llu files written (%llu bytes), %llu packs written (%llu images packed), "
                    "%llu rejected, %llu skipped, %llu write failures\n",
            n, t1 - t0, cli_now_ms() - t0, (unsigned long long)cnt.hits, (unsigned long long)cnt.pack_hits,
            (unsigned long long)cnt.misses, (unsigned long long)cnt.direct, cnt.enabled ? "on" : "off",
            cnt.enabled && !cnt.writes_enabled ? " (writes off)" : "", (unsigned long long)cnt.entries_written,
            (unsigned long long)cnt.bytes_written, (unsigned long long)cnt.packs_written,
            (unsigned long long)cnt.packed_entries, (unsigned long long)cnt.rejected,
            (unsigned long long)cnt.entries_skipped, (unsigned long long)cnt.write_failures);
    asmstore_cache_close(c);
    free(out);
    free(name_table);
    asmstore_locator_close(&loc);
    free(names);
    return rc;
}

static int cli_cache_stats_cmd(const char *root) {
    char top[PATH_MAX];
    struct dirent *de;
    DIR *d;
    unsigned long long all_files = 0, all_bytes = 0;
    int ndirs = 0;
    snprintf(top, sizeof top, "%s/" ASMSTORE_CACHE_DIR_NAME, root);
    d = opendir(top);
    if (!d && errno == ENOENT) {
        fprintf(stderr, "asmstore: %s: no cache there (looked for %s); 'asmstore load --cache %s STORE --all' makes one\n",
                root, top, root);
        return 1;
    }
    if (!d) return cli_fail_errno(top, "list the cache");
    printf("%-16s %8s %12s %5s\n", "store-id", "files", "bytes", "temp");
    while ((de = readdir(d)) != NULL) {
        char sub[PATH_MAX + 300];
        struct dirent *fe;
        struct stat st;
        DIR *s;
        unsigned long long files = 0, bytes = 0, tmps = 0;
        if (de->d_name[0] == '.') continue;
        snprintf(sub, sizeof sub, "%s/%s", top, de->d_name);
        if (lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        s = opendir(sub);
        if (!s) continue;
        while ((fe = readdir(s)) != NULL) {
            char fp[PATH_MAX + 600];
            if (fe->d_name[0] == '.') continue;
            snprintf(fp, sizeof fp, "%s/%s", sub, fe->d_name);
            if (lstat(fp, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            if (strstr(fe->d_name, ".tmp.")) { tmps++; continue; }
            files++;
            bytes += (unsigned long long)st.st_size;
        }
        closedir(s);
        printf("%-16s %8llu %12llu %5llu\n", de->d_name, files, bytes, tmps);
        all_files += files;
        all_bytes += bytes;
        ndirs++;
    }
    closedir(d);
    printf("total: %d store ids, %llu files, %llu bytes\n", ndirs, all_files, all_bytes);
    return 0;
}

int cli_cmd_cache(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[0], "stats") && argc == 2) return cli_cache_stats_cmd(argv[1]);
    if (argc >= 2 && !strcmp(argv[0], "prune")) {
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
                if (!*argv[i] || *end) return cli_cache_usage();
                has_keep = 1;
            } else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) {
                max_bytes = strtoull(argv[++i], &end, 10);
                if (!*argv[i] || *end) return cli_cache_usage();
            } else {
                return cli_cache_usage();
            }
        }
        res = asmstore_cache_prune(root, has_keep ? &keep : NULL, max_bytes, &ps, &err);
        if (res == ASMSTORE_ERR_NOT_FOUND) {
            fprintf(stderr, "asmstore: %s: no cache there (looked for %s/" ASMSTORE_CACHE_DIR_NAME ")\n", root, root);
            return 1;
        }
        if (res == ASMSTORE_ERR_IO) return cli_fail_errno(root, "prune the cache");
        if (res != ASMSTORE_OK) return cli_fail(root, res, &err);
        printf("removed %llu store dirs, %llu files, %llu bytes; kept %llu files, %llu bytes\n",
               (unsigned long long)ps.dirs_removed, (unsigned long long)ps.files_removed, (unsigned long long)ps.bytes_removed,
               (unsigned long long)ps.files_kept, (unsigned long long)ps.bytes_kept);
        return 0;
    }
    return cli_cache_usage();
}
