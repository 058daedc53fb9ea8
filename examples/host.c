/* host.c - the minimal runtime host: what a .NET for Android-style host does at startup with
   asmstore.h + asmstore_cache.h. Copy it, replace hand_to_runtime() with your runtime's loader.

     host [--cache DIR] STORE.so [NAME...]

   1. dlopen the store .so (a path with a '/' is opened as is; a bare "libassembly-store.so" goes
      through the dynamic linker's search path, as in an app's lib dir) and find _assembly_store;
   2. validate the store once (asmstore_reader_init: after this, lookups cannot read outside it);
   3. open the decompressed-entry cache for this store under DIR
      (default $XDG_CACHE_HOME/asmstore, else /tmp/asmstore-<uid>);
   4. for each NAME (default: every entry), look it up and get its image through the cache:
      a HIT maps a file an earlier run wrote, a MISS decompresses now and queues the file,
      DIRECT points into the store (uncompressed entries);
   5. print one line per entry and the totals; wait for the cache writer; clean up.

   Build (one .c file holds the implementations):
     cc -std=c99 -O2 -D_GNU_SOURCE examples/host.c -o host -lzstd -lpthread -ldl */
#ifndef _GNU_SOURCE
/* dladdr1 bounds the payload by its symbol size; openat/O_CLOEXEC for the cache */
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#define ASMSTORE_NO_BUILD /* a host only reads: no writer, ELF generator, checkers or patcher */
#include "../asmstore.h"
#include "../asmstore_cache.h"
#include "host_util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stands in for the runtime's "load an image from memory" (mono_image_open_from_data, ...):
   touches every page so the figures include the cost of actually reading the bytes. */
static volatile unsigned sink;
static void hand_to_runtime(const unsigned char *data, size_t size) {
    size_t i;
    for (i = 0; i < size; i += 4096) sink += data[i];
}

/* What a run holds: the store's locator and reader, the name table, the cache and the images. */
typedef struct run {
    asmstore_locator loc;
    asmstore_reader r;
    uint32_t *name_table;
    asmstore_cache *cache;
    asmstore_cache_image *images;
    uint32_t n;
    unsigned long long bytes;
    int failed;
} run;

static void run_close(run *h) {
    uint32_t i;
    for (i = 0; h->images && i < h->n; i++) /* images may outlive the cache too */
        asmstore_cache_release(&h->images[i]);
    free(h->images);
    asmstore_cache_close(h->cache);
    free(h->name_table);
    asmstore_locator_close(&h->loc);
}

/* 1-3: dlopen, validate, open the cache. None of this decompresses or reads the entries. 0 or 1. */
static int run_open(run *h, const char *path, const char *cache_dir) {
    asmstore_error err;
    asmstore_result res;
    size_t table_bytes;
    if ((res = asmstore_locate_dlopen(&h->loc, path, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "host: %s: %s%s%s\n", path, asmstore_result_string(res),
                h->loc.error[0] ? ": " : "", h->loc.error);
        return 1;
    }
    if ((res = asmstore_reader_init(&h->r, h->loc.data, h->loc.size, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "host: %s: %s at offset %llu\n", path, asmstore_result_string(res),
                (unsigned long long)err.offset);
        return 1;
    }
    /* 12-16 bytes per entry (the reader itself allocates nothing): a lookup searches one bucket of
       the index and reads one name instead of bisecting the index and walking the names table. */
    table_bytes = asmstore_reader_name_table_size(&h->r) + 4;
    h->name_table = (uint32_t *)malloc(table_bytes);
    if (!h->name_table ||
        asmstore_reader_attach_name_table(&h->r, h->name_table, table_bytes, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "host: out of memory\n");
        return 1;
    }
    /* Never fails for "cache unusable" (read-only disk, ASMSTORE_CACHE_DISABLE=1 ...): it then only
       decompresses. */
    if ((res = asmstore_cache_open(&h->cache, cache_dir, &h->r, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "host: cache: %s: %s\n", asmstore_result_string(res),
                err.message ? err.message : "");
        return 1;
    }
    return 0;
}

/* 4: image i (entry e) through the cache, handed to the runtime, one line printed. */
static void run_load(run *h, uint32_t i, const asmstore_entry *e) {
    asmstore_error err;
    asmstore_result res;
    double t = now_us();
    /* thread-safe: hosts may load in parallel */
    res = asmstore_cache_get(h->cache, e, &h->images[i], &err);
    if (res == ASMSTORE_OK) hand_to_runtime(h->images[i].data, h->images[i].size);
    t = now_us() - t;
    if (res != ASMSTORE_OK) {
        fprintf(stderr, "host: %.*s: %s: %s\n", (int)e->name_len, e->name,
                asmstore_result_string(res), err.message ? err.message : "");
        h->failed++;
        return;
    }
    h->bytes += h->images[i].size;
    printf("%-44.*s %10zu %-6s %9.0f\n", (int)e->name_len, e->name, h->images[i].size,
           asmstore_cache_source_name(h->images[i].source), t);
}

/* 4: each NAME (names[0..count)), or every entry when there are none. A runtime keeps images for
   the process's life; we keep them until the end too. 0 or 1. */
static int run_load_all(run *h, char **names, int count) {
    uint32_t i;
    h->n = count > 0 ? (uint32_t)count : h->r.entry_count;
    h->images = (asmstore_cache_image *)calloc(h->n ? h->n : 1, sizeof *h->images);
    if (!h->images) return 1;
    printf("%-44s %10s %-6s %9s\n", "entry", "bytes", "source", "us");
    for (i = 0; i < h->n; i++) {
        asmstore_entry e;
        if (count > 0) { /* "System.Xml", "System.Xml.dll" and "fr/App.resources" all work */
            asmstore_result res = asmstore_reader_find(&h->r, names[i], strlen(names[i]), &e, NULL);
            if (res != ASMSTORE_OK) {
                fprintf(stderr, "host: %s: %s\n", names[i], asmstore_result_string(res));
                h->failed++;
                continue;
            }
        } else if (asmstore_reader_entry(&h->r, i, &e, NULL) != ASMSTORE_OK || e.ignored) {
            continue; /* coreclr "X.ni.dll" placeholders own no bytes */
        }
        run_load(h, i, &e);
    }
    return 0;
}

/* 5: the totals; t[0..3): started, opened, loaded, the cache writer done. */
static void run_totals(const run *h, const double t[4]) {
    asmstore_cache_counters cnt;
    asmstore_cache_stats(h->cache, &cnt);
    printf("total: %llu entries, %llu bytes, %llu hits (%llu on the writer's record, not hashed), "
           "%llu misses, %llu direct, %u failed; open %.0f us, load %.0f us, cache writer done "
           "%.0f us later (%llu files written)%s\n",
           (unsigned long long)(cnt.hits + cnt.misses + cnt.direct), h->bytes,
           (unsigned long long)cnt.hits, (unsigned long long)cnt.recorded_hits,
           (unsigned long long)cnt.misses, (unsigned long long)cnt.direct, (unsigned)h->failed,
           t[1] - t[0], t[2] - t[1], t[3] - t[2], (unsigned long long)cnt.entries_written,
           cnt.enabled ? "" : " [cache off]");
}

int main(int argc, char **argv) {
    const char *cache_dir = NULL, *path;
    char default_dir[4096];
    int argi = 1, rc;
    double t[4];
    run h;

    if (argi + 1 < argc && !strcmp(argv[argi], "--cache")) {
        cache_dir = argv[argi + 1];
        argi += 2;
    }
    if (argi >= argc || argv[argi][0] == '-') {
        fprintf(stderr, "usage: host [--cache DIR] STORE.so [NAME...]\n");
        return 2;
    }
    path = argv[argi++];
    if (!cache_dir) {
        default_cache_dir(default_dir, sizeof default_dir);
        cache_dir = default_dir;
    }
    /* The cache's writer survives RLIMIT_FSIZE either way, but a host should not die of SIGXFSZ. */
    signal(SIGXFSZ, SIG_IGN);
    memset(&h, 0, sizeof h);
    t[0] = now_us();
    rc = run_open(&h, path, cache_dir);
    t[1] = now_us();
    if (rc == 0) rc = run_load_all(&h, argv + argi, argc - argi);
    t[2] = now_us();
    /* 5: a short-lived process waits for the writer so the next run hits; a long-lived one need
       not. */
    if (rc == 0) asmstore_cache_flush(h.cache);
    t[3] = now_us();
    if (rc == 0) run_totals(&h, t);
    run_close(&h);
    return rc ? rc : h.failed ? 1 : 0;
}
