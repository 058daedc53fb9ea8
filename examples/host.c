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
#define _GNU_SOURCE /* dladdr1 bounds the payload by its symbol size; openat/O_CLOEXEC for the cache */
#endif
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#define ASMSTORE_NO_BUILD /* a host only reads: no writer, ELF generator, checkers or patcher */
#include "../asmstore.h"
#include "../asmstore_cache.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Stands in for the runtime's "load an image from memory" (mono_image_open_from_data, ...):
   touches every page so the figures include the cost of actually reading the bytes. */
static volatile unsigned sink;
static void hand_to_runtime(const unsigned char *data, size_t size) {
    size_t i;
    for (i = 0; i < size; i += 4096) sink += data[i];
}

int main(int argc, char **argv) {
    const char *cache_dir = NULL, *path;
    char default_dir[4096];
    int argi = 1, failed = 0;
    asmstore_locator loc;
    asmstore_reader r;
    asmstore_error err;
    asmstore_cache *cache;
    asmstore_cache_counters cnt;
    asmstore_cache_image *images;
    asmstore_result res;
    uint32_t i, n, *name_table;
    double t0, t_open, t_loaded, t_flushed;
    unsigned long long bytes = 0;

    if (argi + 1 < argc && !strcmp(argv[argi], "--cache")) { cache_dir = argv[argi + 1]; argi += 2; }
    if (argi >= argc || argv[argi][0] == '-') {
        fprintf(stderr, "usage: host [--cache DIR] STORE.so [NAME...]\n");
        return 2;
    }
    path = argv[argi++];
    if (!cache_dir) {
        const char *xdg = getenv("XDG_CACHE_HOME");
        if (xdg && xdg[0] == '/') snprintf(default_dir, sizeof default_dir, "%s/asmstore", xdg);
        else snprintf(default_dir, sizeof default_dir, "/tmp/asmstore-%lu", (unsigned long)getuid());
        cache_dir = default_dir;
    }
    /* The cache's writer survives RLIMIT_FSIZE either way, but a host should not die of SIGXFSZ. */
    signal(SIGXFSZ, SIG_IGN);

    /* 1-3: dlopen, validate, open the cache. None of this decompresses or reads the entries. */
    t0 = now_us();
    if ((res = asmstore_locate_dlopen(&loc, path, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "host: %s: %s%s%s\n", path, asmstore_result_string(res), loc.error[0] ? ": " : "", loc.error);
        return 1;
    }
    if ((res = asmstore_reader_init(&r, loc.data, loc.size, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "host: %s: %s at offset %llu\n", path, asmstore_result_string(res), (unsigned long long)err.offset);
        asmstore_locator_close(&loc);
        return 1;
    }
    /* 12-16 bytes per entry (the reader itself allocates nothing): a lookup searches one bucket of the
       index and reads one name instead of bisecting the index and walking the names table. */
    name_table = (uint32_t *)malloc(asmstore_reader_name_table_size(&r) + 4);
    if (!name_table || asmstore_reader_attach_name_table(&r, name_table, asmstore_reader_name_table_size(&r) + 4, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "host: out of memory\n");
        free(name_table);
        asmstore_locator_close(&loc);
        return 1;
    }
    /* Never fails for "cache unusable" (read-only disk, ASMSTORE_CACHE_DISABLE=1 ...): it then only decompresses. */
    if ((res = asmstore_cache_open(&cache, cache_dir, &r, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "host: cache: %s: %s\n", asmstore_result_string(res), err.message ? err.message : "");
        free(name_table);
        asmstore_locator_close(&loc);
        return 1;
    }
    t_open = now_us();

    /* 4: load. A runtime keeps images for the process's life; we keep them until the end too. */
    n = argi < argc ? (uint32_t)(argc - argi) : r.entry_count;
    images = (asmstore_cache_image *)calloc(n ? n : 1, sizeof *images);
    if (!images) { asmstore_cache_close(cache); free(name_table); asmstore_locator_close(&loc); return 1; }
    printf("%-44s %10s %-6s %9s\n", "entry", "bytes", "source", "us");
    for (i = 0; i < n; i++) {
        asmstore_entry e;
        double t;
        if (argi < argc) { /* "System.Xml", "System.Xml.dll" and "fr/App.resources" all work */
            const char *name = argv[argi + (int)i];
            res = asmstore_reader_find(&r, name, strlen(name), &e, NULL);
            if (res != ASMSTORE_OK) { fprintf(stderr, "host: %s: %s\n", name, asmstore_result_string(res)); failed++; continue; }
        } else if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.ignored) {
            continue; /* coreclr "X.ni.dll" placeholders own no bytes */
        }
        t = now_us();
        res = asmstore_cache_get(cache, &e, &images[i], &err); /* thread-safe: hosts may load in parallel */
        if (res == ASMSTORE_OK) hand_to_runtime(images[i].data, images[i].size);
        t = now_us() - t;
        if (res != ASMSTORE_OK) {
            fprintf(stderr, "host: %.*s: %s: %s\n", (int)e.name_len, e.name, asmstore_result_string(res),
                    err.message ? err.message : "");
            failed++;
            continue;
        }
        bytes += images[i].size;
        printf("%-44.*s %10zu %-6s %9.0f\n", (int)e.name_len, e.name, images[i].size, asmstore_cache_source_name(images[i].source), t);
    }
    t_loaded = now_us();

    /* 5: a short-lived process waits for the writer so the next run hits; a long-lived one need not. */
    asmstore_cache_flush(cache);
    t_flushed = now_us();
    asmstore_cache_stats(cache, &cnt);
    printf("total: %llu entries, %llu bytes, %llu hits (%llu on the writer's record, not hashed), %llu misses, %llu direct, %u failed; "
           "open %.0f us, load %.0f us, cache writer done %.0f us later (%llu files written)%s\n",
           (unsigned long long)(cnt.hits + cnt.misses + cnt.direct), bytes, (unsigned long long)cnt.hits,
           (unsigned long long)cnt.recorded_hits,
           (unsigned long long)cnt.misses, (unsigned long long)cnt.direct, (unsigned)failed, t_open - t0,
           t_loaded - t_open, t_flushed - t_loaded, (unsigned long long)cnt.entries_written,
           cnt.enabled ? "" : " [cache off]");

    for (i = 0; i < n; i++) asmstore_cache_release(&images[i]); /* images may outlive the cache too */
    free(images);
    asmstore_cache_close(cache);
    free(name_table);
    asmstore_locator_close(&loc);
    return failed ? 1 : 0;
}
