/* mono_host.c - embeds Mono and runs a .NET program whose every assembly, mscorlib included, comes
   out of an assembly store .so: dlopen -> asmstore_reader -> asmstore_cache -> Mono, no .dll/.exe
   opened from the filesystem.

     mono_host [--cache DIR] STORE.so PROGRAM.exe [ARGS...]

   PROGRAM.exe is an entry name in the store, not a file. The cache defaults to
   $XDG_CACHE_HOME/asmstore, else /tmp/asmstore-<uid>; ASMSTORE_CACHE_DISABLE=1 turns it off.
   The program's output goes to stdout; one summary line goes to stderr:
     mono_host: all N assemblies served from the store (H hits, M misses, D direct), ...
   and the exit status is the program's (1 when an assembly came from elsewhere or failed to load).
   ASMSTORE_HOST_MEMORY=1 adds a "memory: ..." line after Main returns (examples/host_memory.h).

   How mscorlib gets loaded from the store: Mono 6.8's mono_assembly_load_corlib() asks the
   assembly preload hooks for "mscorlib" before it searches any directory, and every later load by
   name (assembly references, Assembly.Load) asks them first too. So the one hook below serves
   every assembly: look the name up in the store, take the image from the cache, hand the bytes to
   mono_image_open_from_data_with_name + mono_assembly_load_from_full. The framework directory is
   pointed at a path that does not exist (mono_set_dirs), so nothing can silently come from
   /usr/lib/mono instead; /etc/mono/config (dllmaps) is still parsed: it is configuration, not an
   assembly. An entry's config data (Foo.dll.config packed beside Foo.dll) is registered with
   mono_register_config_for_assembly, so it also comes from the store.

   Build: cc -std=c99 -D_GNU_SOURCE examples/mono_host.c $(pkg-config --cflags --libs mono-2) -lzstd -ldl */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#define ASMSTORE_NO_WRITER
#include "../asmstore.h"
#include "../asmstore_cache.h"
#include "host_memory.h"

#include <mono/jit/jit.h>
#include <mono/metadata/assembly.h>
#include <mono/metadata/image.h>
#include <mono/metadata/mono-config.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Mono's framework directory: a path that cannot exist, so a name the store lacks fails loudly. */
#define HOST_NO_FRAMEWORK_DIR "/nonexistent/asmstore-mono-host"
/* Uncompressed images below this alignment are copied before Mono sees them (measured: 4 is enough, 1 is not). */
#define MONO_HOST_MIN_ALIGNMENT 16u

typedef struct loaded {
    MonoAssembly *assembly;        /* NULL until loaded */
    asmstore_cache_image image;    /* kept for the process's life: Mono reads it in place */
    char *config, *config_name;    /* the entry's config data and assembly name, NUL-terminated (Mono keeps the pointers) */
} loaded;

typedef struct host {
    asmstore_locator loc;
    asmstore_reader reader;
    uint32_t *name_table;          /* 12-16 bytes per entry: O(1) lookups */
    asmstore_cache *cache;
    loaded *by_index;              /* one per store descriptor */
    pthread_mutex_t lock;          /* recursive: loading an image may ask the hook for another */
    const char *store_path;
    unsigned hits, misses, direct, copied, failures;
    double get_us, mono_us;        /* time in asmstore_cache_get, time in Mono's image/assembly load */
} host;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Loads the store entry `name` ("mscorlib", "System.Xml", "hello.exe", "fr/App.resources") as a
   MonoAssembly, once: later calls return the same assembly. NULL when the store lacks it. */
static MonoAssembly *host_load(host *h, const char *name) {
    asmstore_entry e;
    loaded *l;
    MonoImage *image;
    MonoImageOpenStatus status = MONO_IMAGE_OK;
    MonoAssembly *a = NULL;
    char fname[4096];
    double t;
    asmstore_result res = asmstore_reader_find(&h->reader, name, strlen(name), &e, NULL);
    if (res != ASMSTORE_OK) return NULL; /* not ours: Mono goes on (and finds nothing on disk) */

    pthread_mutex_lock(&h->lock);
    l = &h->by_index[e.index];
    if (l->assembly) { a = l->assembly; goto out; }

    t = now_us();
    res = asmstore_cache_get(h->cache, &e, &l->image);
    h->get_us += now_us() - t;
    if (res != ASMSTORE_OK || l->image.size > UINT32_MAX) {
        fprintf(stderr, "mono_host: %s: %s\n", name, asmstore_result_string(res));
        h->failures++;
        goto out;
    }
    switch (l->image.source) {
    case ASMSTORE_CACHE_HIT: h->hits++; break;
    case ASMSTORE_CACHE_MISS: h->misses++; break;
    case ASMSTORE_CACHE_COPY: h->copied++; break;
    default: h->direct++; break;
    }
    /* The name Mono files the image under: "<store path>/<entry name>". It is never opened (a .so
       is not a directory); it makes Assembly.Location and Mono's messages point at the store. */
    snprintf(fname, sizeof fname, "%s/%.*s", h->store_path, (int)e.name_len, e.name);
    if (e.config && e.config_size) { /* Foo.dll.config from the store, before Mono looks for a file */
        l->config = (char *)malloc(e.config_size + 1);
        l->config_name = strndup(e.name, e.name_len);
        if (l->config && l->config_name) {
            char *dot = strrchr(l->config_name, '.');
            memcpy(l->config, e.config, e.config_size);
            l->config[e.config_size] = 0;
            if (dot && (!strcmp(dot, ".dll") || !strcmp(dot, ".exe"))) *dot = 0;
            mono_register_config_for_assembly(l->config_name, l->config);
        }
    }
    t = now_us();
    /* need_copy 0: Mono reads the cache's image in place (a private mapping or our heap block). */
    image = mono_image_open_from_data_with_name((char *)(uintptr_t)l->image.data, (uint32_t)l->image.size, 0, &status, 0,
                                                fname);
    if (image) {
        a = mono_assembly_load_from_full(image, fname, &status, 0);
        mono_image_close(image); /* the assembly holds its own reference */
    }
    h->mono_us += now_us() - t;
    if (!a) {
        fprintf(stderr, "mono_host: %s: Mono rejected the image (status %d)\n", name, (int)status);
        asmstore_cache_release(&l->image);
        h->failures++;
        goto out;
    }
    l->assembly = a;
out:
    pthread_mutex_unlock(&h->lock);
    return a;
}

/* The preload hook: Mono asks it for every assembly by name before searching any directory,
   mscorlib first. Satellites come with a culture: "fr" + "App.resources" -> "fr/App.resources". */
static MonoAssembly *host_preload(MonoAssemblyName *aname, char **assemblies_path, void *user) {
    const char *name = mono_assembly_name_get_name(aname), *culture = mono_assembly_name_get_culture(aname);
    char key[1024];
    (void)assemblies_path;
    if (!name) return NULL;
    if (culture && *culture) snprintf(key, sizeof key, "%s/%s", culture, name);
    else snprintf(key, sizeof key, "%s", name);
    return host_load((host *)user, key);
}

/* After the run: every assembly in the domain must be one the hook handed out. */
typedef struct audit { host *h; unsigned total, foreign; } audit;
static void host_audit_one(void *assembly, void *user) {
    audit *au = (audit *)user;
    uint32_t i;
    au->total++;
    for (i = 0; i < au->h->reader.entry_count; i++)
        if (au->h->by_index[i].assembly == (MonoAssembly *)assembly) return;
    au->foreign++;
    fprintf(stderr, "mono_host: %s was not loaded from the store\n",
            mono_image_get_name(mono_assembly_get_image((MonoAssembly *)assembly)));
}

int main(int argc, char **argv) {
    asmstore_cache_options co;
    host h;
    asmstore_error err;
    asmstore_result res;
    pthread_mutexattr_t ma;
    const char *cache_dir = NULL, *program;
    char default_dir[4096];
    int argi = 1, rc;
    uint32_t i;
    MonoDomain *domain;
    MonoAssembly *main_assembly;
    audit au;
    double t0, t_store, t_runtime, t_end;

    memset(&h, 0, sizeof h);
    if (argi + 1 < argc && !strcmp(argv[argi], "--cache")) { cache_dir = argv[argi + 1]; argi += 2; }
    if (argi + 1 >= argc) {
        fprintf(stderr, "usage: mono_host [--cache DIR] STORE.so PROGRAM.exe [ARGS...]\n");
        return 2;
    }
    h.store_path = argv[argi];
    program = argv[argi + 1];
    if (!cache_dir) {
        const char *xdg = getenv("XDG_CACHE_HOME");
        if (xdg && xdg[0] == '/') snprintf(default_dir, sizeof default_dir, "%s/asmstore", xdg);
        else snprintf(default_dir, sizeof default_dir, "/tmp/asmstore-%lu", (unsigned long)getuid());
        cache_dir = default_dir;
    }
    signal(SIGXFSZ, SIG_IGN);

    /* The store: dlopen, validate once, open its cache. Uncompressed images are used in place when
       aligned enough for Mono (at an odd address it fails in CultureInfo), else copied. */
    memset(&co, 0, sizeof co);
    co.min_alignment = MONO_HOST_MIN_ALIGNMENT;
    t0 = now_us();
    if ((res = asmstore_locate_dlopen(&h.loc, h.store_path, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "mono_host: %s: %s%s%s\n", h.store_path, asmstore_result_string(res), h.loc.error[0] ? ": " : "",
                h.loc.error);
        return 1;
    }
    if ((res = asmstore_reader_init(&h.reader, h.loc.data, h.loc.size, NULL, &err)) != ASMSTORE_OK ||
        (res = (h.name_table = (uint32_t *)malloc(asmstore_reader_name_table_size(&h.reader) + 4)) == NULL
                   ? ASMSTORE_ERR_OUT_OF_MEMORY
                   : asmstore_reader_attach_name_table(&h.reader, h.name_table, asmstore_reader_name_table_size(&h.reader) + 4, NULL)) != ASMSTORE_OK ||
        (res = asmstore_cache_open(&h.cache, cache_dir, &h.reader, &co)) != ASMSTORE_OK) {
        fprintf(stderr, "mono_host: %s: %s\n", h.store_path, asmstore_result_string(res));
        free(h.name_table);
        asmstore_locator_close(&h.loc);
        return 1;
    }
    h.by_index = (loaded *)calloc(h.reader.entry_count ? h.reader.entry_count : 1, sizeof *h.by_index);
    if (!h.by_index) { asmstore_cache_close(h.cache); free(h.name_table); asmstore_locator_close(&h.loc); return 1; }
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&h.lock, &ma);
    pthread_mutexattr_destroy(&ma);
    t_store = now_us();

    /* The runtime: hook first (mscorlib is loaded inside mono_jit_init_version), no framework dir.
       mono_jit_init_version, unlike mono_jit_init(file), does not open the program file. */
    mono_install_assembly_preload_hook(host_preload, &h);
    mono_set_dirs(HOST_NO_FRAMEWORK_DIR, NULL);
    mono_config_parse(NULL);
    domain = mono_jit_init_version("asmstore", "v4.0.30319");
    if (!domain) { fprintf(stderr, "mono_host: mono_jit_init_version failed\n"); return 1; }
    main_assembly = host_load(&h, program);
    t_runtime = now_us();
    if (!main_assembly) {
        fprintf(stderr, "mono_host: %s: not in the store %s\n", program, h.store_path);
        return 1;
    }

    /* Run Main(string[]); argv[0] of the program is its entry name. */
    rc = mono_jit_exec(domain, main_assembly, argc - argi - 1, argv + argi + 1);
    fflush(stdout);
    host_memory_report(); /* ASMSTORE_HOST_MEMORY=1: make bench's memory after Main */
    t_end = now_us();

    au.h = &h; au.total = 0; au.foreign = 0;
    mono_assembly_foreach(host_audit_one, &au);
    asmstore_cache_flush(h.cache); /* a short-lived process waits for the writer, so the next run hits */
    if (au.foreign == 0 && h.failures == 0)
        fprintf(stderr, "mono_host: all %u assemblies served from the store (%u hits, %u misses, %u direct (used in place), "
                        "%u copied to %u-byte alignment): "
                        "store open %.0f us, runtime + mscorlib %.0f us, run %.0f us; "
                        "cache get %.0f us, Mono image load %.0f us\n",
                au.total, h.hits, h.misses, h.direct, h.copied, MONO_HOST_MIN_ALIGNMENT, t_store - t0, t_runtime - t_store, t_end - t_runtime, h.get_us,
                h.mono_us);
    else {
        fprintf(stderr, "mono_host: %u of %u assemblies NOT from the store, %u load failures\n", au.foreign, au.total,
                h.failures);
        if (rc == 0) rc = 1;
    }

    mono_jit_cleanup(domain);
    for (i = 0; i < h.reader.entry_count; i++) {
        asmstore_cache_release(&h.by_index[i].image);
        free(h.by_index[i].config);
        free(h.by_index[i].config_name);
    }
    free(h.by_index);
    asmstore_cache_close(h.cache);
    free(h.name_table);
    asmstore_locator_close(&h.loc);
    return rc;
}
