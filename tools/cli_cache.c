/* cli_cache.c - the cache commands of the asmstore CLI (it sees asmstore.h as declarations only and
   holds the asmstore_cache.h implementation).
     asmstore load [--cache DIR] [--abi A] [--dlopen] STORE NAME...|--all
     asmstore cache prune DIR [--keep ID] [--max-bytes N]
     asmstore cache stats DIR */
#include "cli.h"
#include "cli_commands.h"
#include "cli_input.h"
#include "cli_os.h"
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../asmstore_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* >>options ------------------------------------------------------------------------------------ */
enum { OPT_CACHE = 256, OPT_ALL, OPT_ABI, OPT_KEEP, OPT_MAX_BYTES, OPT_JSON, OPT_DLOPEN };
const cli_option cli_load_options[] = {{"cache", OPT_CACHE, 1, "DIR"},
                                       {"all", OPT_ALL, 0, NULL},
                                       {"abi", OPT_ABI, 1, "arm64|arm|x86_64|x86"},
                                       {"json", OPT_JSON, 0, NULL},
                                       {"dlopen", OPT_DLOPEN, 0, NULL},
                                       CLI_OPTIONS_END};
const cli_option cli_cache_options[] = {{"keep", OPT_KEEP, 1, "ID"},
                                        {"max-bytes", OPT_MAX_BYTES, 1, "N"},
                                        {"json", OPT_JSON, 0, NULL},
                                        CLI_OPTIONS_END};

/* >>load --------------------------------------------------------------------------------------- */
/* What load was asked for. */
typedef struct load_args {
    const char *dir;   /* --cache DIR; NULL: no cache */
    const char *path;  /* STORE */
    const char **names; /* argv's strings */
    size_t nnames;
    int all, json;
    int dlopen;        /* --dlopen: a .so for this machine through the system's loader */
    asmstore_abi abi;  /* --abi; UNKNOWN: this machine's when STORE has it, else the first */
} load_args;

/* What is loaded from: STORE opened as info opens it, the stores of it load serves (one ABI's,
   with a .NET 6-8 set's store 0), and, for a STORE of one file, where the locator found it. */
typedef struct load_store {
    cli_input in;
    cli_unit *units[CLI_MAX_UNITS];
    int n;
    asmstore_locator loc;
} load_store;

/* One image loaded. */
typedef struct cli_loaded {
    asmstore_entry e;
    asmstore_cache_image img;
    uint64_t hash;
} cli_loaded;

/* 0, or the usage's exit code. */
static int load_parse(int argc, char **argv, load_args *a) {
    cli_parser p;
    int key;

    memset(a, 0, sizeof *a);
    a->names = (const char **)calloc((size_t)argc + 1, sizeof *a->names);
    if (!a->names)
        return 2;
    cli_parse_begin(&p, argc, argv, cli_load_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if (key == OPT_CACHE)
            a->dir = p.value;
        else if (key == OPT_ALL)
            a->all = 1;
        else if (key == OPT_JSON)
            a->json = 1;
        else if (key == OPT_DLOPEN)
            a->dlopen = 1;
        else if (key == OPT_ABI) {
            if (cli_abi_option("--abi", p.value, &a->abi))
                return 2;
        } else if (key == CLI_OPERAND && !a->path)
            a->path = p.value;
        else if (key == CLI_OPERAND)
            a->names[a->nnames++] = p.value;
        else
            return 2; /* CLI_BAD, said */
    }
    if (a->path && (a->all || a->nnames) && !(a->all && a->nnames))
        return 0;
    cli_usage();
    return 2;
}

/* The ABI load serves: --abi, else this machine's when STORE has a store for it, else the first
   STORE has; UNKNOWN when only a .NET 6-8 store 0 (every ABI's) opened. */
static asmstore_abi load_pick_abi(const cli_input *in, asmstore_abi want, int *nabis) {
    asmstore_abi first = ASMSTORE_ABI_UNKNOWN;
    unsigned seen = 0;
    int i, host = 0;

    for (i = 0; i < in->n; i++) {
        const cli_unit *u = &in->units[i];

        if (!u->selected || !u->opened || u->abi == ASMSTORE_ABI_UNKNOWN)
            continue;
        host |= u->abi == asmstore_host_abi();
        if (first == ASMSTORE_ABI_UNKNOWN)
            first = u->abi;
        seen |= 1u << u->abi;
    }
    for (*nabis = 0; seen; seen &= seen - 1)
        (*nabis)++;
    if (want != ASMSTORE_ABI_UNKNOWN)
        return want;
    return host ? asmstore_host_abi() : first;
}

#ifndef ASMSTORE_NO_DLOPEN
/* Is the file open as self (cli_os_fd_path) one that loading runs nothing from? 1 yes; 0 after
   saying why not. */
static int load_is_inert(const char *path, const char *self) {
    const unsigned char *data = NULL;
    size_t size = 0;
    asmstore_error err;
    asmstore_result res = ASMSTORE_ERR_IO;
    char why[512];

    if (cli_map_file(self, &data, &size) == 0) {
        res = asmstore_elf_check_inert(data, size, &err);
        cli_unmap_file(data, size);
    }
    if (res == ASMSTORE_OK)
        return 1;
    fprintf(stderr, "asmstore: %s: read from the file, not dlopen'ed: %s\n", cli_shown(path),
            res == ASMSTORE_ERR_IO ? "it could not be mapped again to check what loading runs"
                                   : cli_failure(res, &err, why, sizeof why));
    return 0;
}

/* --dlopen: path, a .so for this machine that loading runs nothing from, dlopen'ed into s->loc
   (the check and dlopen see the same file: both open it through one descriptor). ASMSTORE_OK;
   ASMSTORE_ERR_NOT_FOUND after a note saying why it stays read from the file; another result when
   dlopen failed (err and s->loc.error say why). */
static asmstore_result load_dlopen(load_store *s, const cli_unit *u, const char *path,
                                   asmstore_error *err) {
    char self[64];
    asmstore_result res;
    int fd;

    if (u->abi != asmstore_host_abi()) {
        fprintf(stderr, "asmstore: %s is an %s library: read from the file, not dlopen'ed, on this "
                        "%s machine\n", cli_shown(path), asmstore_abi_name(u->abi),
                asmstore_abi_name(asmstore_host_abi()));
        return ASMSTORE_ERR_NOT_FOUND;
    }
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return asmstore_locate_file(&s->loc, path, NULL, err); /* it says why */
    cli_os_fd_path(fd, self, sizeof self);
    res = load_is_inert(path, self) ? asmstore_locate_dlopen(&s->loc, self, NULL, err)
                                    : ASMSTORE_ERR_NOT_FOUND;
    close(fd); /* the loader holds its own mapping */
    return res;
}
#else /* no dlopen locator where the system's loader reads no ELF (macOS): the file is mapped */
static asmstore_result load_dlopen(load_store *s, const cli_unit *u, const char *path,
                                   asmstore_error *err) {
    (void)s;
    (void)u;
    (void)err;
    fprintf(stderr, "asmstore: %s: read from the file, not dlopen'ed: this system's loader reads "
                    "no ELF\n", cli_shown(path));
    return ASMSTORE_ERR_NOT_FOUND;
}
#endif

/* STORE, one file, is read as a host reads it: through the file locator (the same bytes, mapped),
   or with --dlopen, a .so for this machine through the system's loader (load_dlopen). The unit is
   opened again over what was located. 0, or the exit status after saying why it was not. */
static int load_locate(load_store *s, cli_unit *u, const load_args *a) {
    asmstore_error err;
    asmstore_result res = ASMSTORE_ERR_NOT_FOUND;

    if (s->in.archive || s->in.n != 1)
        return 0;
    if (a->dlopen && !strcmp(u->wrapper, "elf-dlopen"))
        res = load_dlopen(s, u, a->path, &err);
    if (res == ASMSTORE_ERR_NOT_FOUND)
        res = asmstore_locate_file(&s->loc, a->path, NULL, &err);
    if (res != ASMSTORE_OK) {
        cli_error_result(res, "%s: %s%s%s; %s", a->path, asmstore_result_string(res),
                         s->loc.error[0] ? ": " : "", s->loc.error, cli_result_hint(res));
        return cli_status(res);
    }
    cli_unit_reopen(u, (const unsigned char *)s->loc.data, s->loc.size);
    return u->opened ? 0 : cli_unit_problem(&s->in, u, stderr);
}

/* Opens STORE as info does and picks the stores load serves: each of them that failed to open is
   said and left out (*skipped: the worst exit status of those), the others go on. 0, or the exit
   code after saying why nothing could be served. */
static int load_store_open(load_store *s, const load_args *a, int *skipped) {
    int i, nabis, rc = cli_input_open_or_fail(&s->in, a->path, a->abi);
    asmstore_abi abi;

    *skipped = 0;
    if (rc != 0)
        return rc;
    abi = load_pick_abi(&s->in, a->abi, &nabis);
    if (nabis > 1 && a->abi == ASMSTORE_ABI_UNKNOWN)
        fprintf(stderr, "asmstore: %s holds stores for %d ABIs: loading %s's (--abi picks "
                        "another)\n", cli_shown(a->path), nabis, asmstore_abi_android_name(abi));
    for (i = 0; i < s->in.n; i++) {
        cli_unit *u = &s->in.units[i];
        int unit_rc;

        if (!u->selected || (u->abi != abi && u->abi != ASMSTORE_ABI_UNKNOWN))
            continue;
        unit_rc = u->opened ? load_locate(s, u, a) : cli_unit_problem(&s->in, u, stderr);
        if (unit_rc == 0)
            s->units[s->n++] = u;
        else if (unit_rc > *skipped)
            *skipped = unit_rc;
    }
    return 0;
}

/* The names asked for that unit k holds, into ua (names: room for a's); unit 0 also gets those no
   unit holds, so each is said to be missing once. */
static void load_names_of(const load_store *s, int k, const load_args *a, load_args *ua) {
    size_t i;

    ua->nnames = 0;
    for (i = 0; i < a->nnames; i++) {
        const char *name = a->names[i];
        int j, owner = 0;

        for (j = 0; j < s->n; j++)
            if (asmstore_reader_find_index(&s->units[j]->r, name, strlen(name), NULL, NULL) !=
                ASMSTORE_ERR_NOT_FOUND) {
                owner = j;
                break;
            }
        if (owner == k)
            ua->names[ua->nnames++] = a->names[i];
    }
}

/* The cache in dir, or a disabled one (every entry decompressed) without it, over r; loc: where
   the file locator mapped r's bytes from, as a host names it to the cache (the file as mapped).
   0, or 2. */
static int load_cache_open(asmstore_cache **c, const char *dir, const asmstore_reader *r,
                           const asmstore_locator *loc) {
    asmstore_cache_options co;
    asmstore_error err;
    asmstore_result res;
    char why[512];

    memset(&co, 0, sizeof co);
    co.disable = !dir;
    if (loc->file_identity.known) {
        co.store_file = loc->path;
        co.store_file_identity = loc->file_identity;
    }
    res = asmstore_cache_open(c, dir ? dir : ".", r, &co, &err);
    if (res == ASMSTORE_OK)
        return 0;
    cli_error_result(
        res, "cache %s: %s; %s", dir ? dir : "(none)", cli_failure(res, &err, why, sizeof why),
        res == ASMSTORE_ERR_IO ? "give --cache a directory you can write" : cli_result_hint(res));
    return 2;
}

/* Entries that failed, named one by one before the rest are counted: a store of 200,000 entries
   must not print a line for each. */
#define LOAD_FAILURES_NAMED 10

/* Says how many more entries failed than were named. */
static void load_failures_counted(size_t failed, size_t count) {
    if (failed > LOAD_FAILURES_NAMED)
        fprintf(stderr,
                "asmstore: %zu more entries failed to load (%zu of %zu in all; the first %d are "
                "named above)\n",
                failed - LOAD_FAILURES_NAMED, failed, count, LOAD_FAILURES_NAMED);
}

/* Gets every entry asked for (all, or by name) into out[*n...]. 0, or 1 when one failed. */
static int load_entries(asmstore_cache *c, const asmstore_reader *r, const load_args *a,
                        cli_loaded *out, size_t *n) {
    size_t k, failed = 0, count = a->all ? (size_t)r->entry_count : a->nnames;
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
                rc = failed++ < LOAD_FAILURES_NAMED ? cli_fail(a->names[k], res, &err)
                                                    : cli_status(res);
                continue;
            }
        }
        res = asmstore_cache_get(c, &e, &out[*n].img, &err);
        if (res != ASMSTORE_OK) {
            if (failed++ < LOAD_FAILURES_NAMED)
                cli_error_result(res, "%.*s: %s; %s", (int)e.name_len, e.name,
                                 cli_failure(res, &err, why, sizeof why), cli_result_hint(res));
            rc = 1;
            continue;
        }
        out[*n].e = e;
        out[*n].hash = asmstore_xxh3_64(out[*n].img.data, out[*n].img.size);
        (*n)++;
    }
    load_failures_counted(failed, count);
    return rc;
}

/* The cache's counters, each counted noun singular or plural ("1 hit", "2 packs written"). */
static void load_print_counters(const asmstore_cache_counters *c) {
    unsigned long long hits = c->hits, misses = c->misses, files = c->entries_written;
    unsigned long long packs = c->packs_written, packed = c->packed_entries;
    unsigned long long failures = c->write_failures;

    fprintf(stderr,
            "%llu %s (%llu from the pack), %llu %s, %llu direct; cache %s%s, %llu %s written "
            "(%llu bytes), %llu %s written (%llu %s packed), %llu rejected, %llu skipped, %llu "
            "write %s\n",
            hits, cli_plural(hits, "hit", "hits"), (unsigned long long)c->pack_hits, misses,
            cli_plural(misses, "miss", "misses"), (unsigned long long)c->direct,
            c->enabled ? "on" : "off", c->enabled && !c->writes_enabled ? " (writes off)" : "",
            files, cli_plural(files, "file", "files"), (unsigned long long)c->bytes_written, packs,
            cli_plural(packs, "pack", "packs"), packed, cli_plural(packed, "image", "images"),
            (unsigned long long)c->rejected, (unsigned long long)c->entries_skipped, failures,
            cli_plural(failures, "failure", "failures"));
}

/* load --json: one image loaded, as its "entries" item. */
static void load_json_entry(const cli_loaded *l) {
    cli_json_open(NULL, '{');
    cli_json_key("name");
    cli_json_string(stdout, l->e.name, l->e.name_len);
    cli_json_num("size", l->img.size);
    cli_json_str("source", asmstore_cache_source_name(l->img.source));
    cli_json_hex64("xxh3", 1, (unsigned long long)l->hash);
    cli_json_close();
}

/* load --json: the "entries" array ends, the cache's counters follow. */
static void load_json_counters(const asmstore_cache_counters *c) {
    cli_json_close();
    cli_json_open("counters", '{');
    cli_json_bool("cache", c->enabled);
    cli_json_num("hits", c->hits);
    cli_json_num("pack_hits", c->pack_hits);
    cli_json_num("misses", c->misses);
    cli_json_num("direct", c->direct);
    cli_json_num("files_written", c->entries_written);
    cli_json_num("bytes_written", c->bytes_written);
    cli_json_num("packs_written", c->packs_written);
    cli_json_num("rejected", c->rejected);
    cli_json_num("write_failures", c->write_failures);
    cli_json_close();
}

/* Prints each image loaded (and releases it), then the cache's counters on stderr. */
static void load_report(asmstore_cache *c, cli_loaded *out, size_t n, double t0, double t1) {
    asmstore_cache_counters cnt;
    size_t k;

    asmstore_cache_flush(c);
    asmstore_cache_stats(c, &cnt);
    for (k = 0; k < n; k++) {
        if (cli_json_on())
            load_json_entry(&out[k]);
        else
            printf("%s %zu %s %016llx\n", cli_shown_n(out[k].e.name, out[k].e.name_len),
                   out[k].img.size, asmstore_cache_source_name(out[k].img.source),
                   (unsigned long long)out[k].hash);
        asmstore_cache_release(&out[k].img);
    }
    if (cli_json_on())
        load_json_counters(&cnt);
    fprintf(stderr, "%zu %s in %.1f ms (writer done at %.1f ms): ", n,
            cli_plural(n, "entry", "entries"), t1 - t0, cli_now_ms() - t0);
    load_print_counters(&cnt);
    if (cnt.map_failures)
        fprintf(stderr,
                "asmstore: %llu valid cache files were decompressed instead: mmap refused them "
                "(this process holds as many mappings as the kernel allows, vm.max_map_count)\n",
                (unsigned long long)cnt.map_failures);
}

/* Loads what was asked for from unit k of s (through its own cache) and reports it. 0, 1 when an
   entry failed, 2 when the cache or memory did. */
static int load_unit(const load_store *s, int k, const load_args *a) {
    const asmstore_reader *r = &s->units[k]->r;
    load_args ua = *a;
    asmstore_cache *c = NULL;
    cli_loaded *out = NULL;
    size_t n = 0;
    double t0;
    int rc;

    ua.names = (const char **)calloc(a->nnames + 1, sizeof *ua.names);
    if (!ua.names)
        return 2;
    load_names_of(s, k, a, &ua);
    rc = ua.all || ua.nnames ? load_cache_open(&c, a->dir, r, &s->loc) : 0;
    if (rc == 0 && c) {
        out = (cli_loaded *)calloc(ua.all ? (size_t)r->entry_count + 1 : ua.nnames, sizeof *out);
        rc = out ? 0 : 2;
    }
    if (rc == 0 && c) {
        if (a->json) { /* this store's "stores" item; load_report ends "entries" */
            cli_json_open(NULL, '{');
            cli_json_str("store", s->units[k]->label);
            cli_json_abi("abi", s->units[k]->abi);
            cli_json_open("entries", '[');
        }
        t0 = cli_now_ms();
        rc = load_entries(c, r, &ua, out, &n);
        load_report(c, out, n, t0, cli_now_ms());
        if (a->json)
            cli_json_close();
    }
    asmstore_cache_close(c);
    free(out);
    free(ua.names);
    return rc;
}

int cli_cmd_load(int argc, char **argv) {
    load_args a;
    load_store s;
    int rc, k, skipped = 0;

    memset(&s, 0, sizeof s);
    rc = load_parse(argc, argv, &a);
    if (rc == 0 && a.json) {
        cli_json_begin("load");
        cli_json_str("input", a.path);
        cli_json_str("cache", a.dir);
    }
    if (rc == 0)
        rc = load_store_open(&s, &a, &skipped);
    if (rc == 0 && a.json)
        cli_json_open("stores", '[');
    for (k = 0; rc < 2 && k < s.n; k++) {
        int unit_rc = load_unit(&s, k, &a);

        rc = unit_rc > rc ? unit_rc : rc;
    }
    rc = skipped > rc ? skipped : rc;
    cli_input_close(&s.in);
    asmstore_locator_close(&s.loc); /* after the readers over its mapping */
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
    cli_error("%s: no cache there (looked for %s); 'asmstore load --cache %s STORE "
              "--all' makes one",
              root, top, root);
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
    if (cli_json_on()) { /* its "store_ids" item */
        cli_json_open(NULL, '{');
        cli_json_str("store_id", id);
        cli_json_num("files", files);
        cli_json_num("bytes", bytes);
        cli_json_num("temp", tmps);
        cli_json_close();
    } else {
        printf("%-16s %8llu %12llu %5llu\n", cli_shown(id), files, bytes, tmps);
    }
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
    if (cli_json_on())
        cli_json_open("store_ids", '[');
    else
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
    if (cli_json_on()) {
        cli_json_close();
        cli_json_num("files", all_files);
        cli_json_num("bytes", all_bytes);
        return 0;
    }
    printf("total: %d store %s, %llu %s, %llu bytes\n", ndirs,
           cli_plural((unsigned)ndirs, "id", "ids"), all_files, cli_plural(all_files, "file", "files"),
           all_bytes);
    return 0;
}

static int cli_cache_prune_cmd(const char *root, const uint64_t *keep, uint64_t max_bytes) {
    asmstore_cache_prune_stats ps;
    asmstore_error err;
    asmstore_result res;

    res = asmstore_cache_prune(root, keep, max_bytes, &ps, &err);
    if (res == ASMSTORE_ERR_NOT_FOUND)
        return no_cache(root);
    if (res == ASMSTORE_ERR_IO)
        return cli_fail_errno(root, "prune the cache");
    if (res != ASMSTORE_OK)
        return cli_fail(root, res, &err);
    if (cli_json_on()) {
        cli_json_num("dirs_removed", ps.dirs_removed);
        cli_json_num("files_removed", ps.files_removed);
        cli_json_num("bytes_removed", ps.bytes_removed);
        cli_json_num("files_kept", ps.files_kept);
        cli_json_num("bytes_kept", ps.bytes_kept);
        return 0;
    }
    printf("removed %llu store %s, %llu %s, %llu bytes; kept %llu %s, %llu bytes\n",
           (unsigned long long)ps.dirs_removed, cli_plural(ps.dirs_removed, "dir", "dirs"),
           (unsigned long long)ps.files_removed, cli_plural(ps.files_removed, "file", "files"),
           (unsigned long long)ps.bytes_removed, (unsigned long long)ps.files_kept,
           cli_plural(ps.files_kept, "file", "files"), (unsigned long long)ps.bytes_kept);
    return 0;
}

/* A whole number in base (16: a store id, 10: bytes) into *n; 0, or -1 when v is not one. */
static int cache_number(const char *v, int base, uint64_t *n) {
    char *end;

    *n = strtoull(v, &end, base);
    return *v && !*end ? 0 : -1;
}

/* cache prune DIR [--keep ID] [--max-bytes N] | cache stats DIR */
int cli_cmd_cache(int argc, char **argv) {
    const char *op[2] = {NULL, NULL};
    uint64_t keep = 0, max_bytes = 0;
    int nop = 0, has_keep = 0, has_max = 0, json = 0, key;
    cli_parser p;

    cli_parse_begin(&p, argc, argv, cli_cache_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if (key == CLI_BAD)
            return 2;
        if (key == CLI_OPERAND && nop < 2)
            op[nop++] = p.value;
        else if (key == OPT_KEEP && !cache_number(p.value, 16, &keep))
            has_keep = 1;
        else if (key == OPT_MAX_BYTES && !cache_number(p.value, 10, &max_bytes))
            has_max = 1;
        else if (key == OPT_JSON)
            json = 1;
        else
            return cli_usage();
    }
    if (json && nop == 2) {
        cli_json_begin("cache");
        cli_json_str("operation", op[0]);
        cli_json_str("directory", op[1]);
    }
    if (nop == 2 && !strcmp(op[0], "stats") && !has_keep && !has_max)
        return cli_cache_stats_cmd(op[1]);
    if (nop == 2 && !strcmp(op[0], "prune"))
        return cli_cache_prune_cmd(op[1], has_keep ? &keep : NULL, max_bytes);
    return cli_usage();
}
