/* mono_host.c - embeds Mono and runs a .NET program whose every assembly, mscorlib included, comes
   out of an assembly store: locate -> asmstore_reader -> asmstore_cache -> Mono, no .dll/.exe
   opened from the filesystem. Mono's AOT code for those assemblies still comes from the install.

     mono_host [--cache DIR] STORE PROGRAM.exe [ARGS...]          the store
     mono_host [--cache DIR] --files FWDIR PROGRAM.exe [ARGS...]  the anchor: the runtime from files

   STORE is opened the way its runtime finds it (host_locate). The .NET 11 GA MonoVM layout
   (`asmstore pack --target net11 --runtime monovm`: lib/<abi>/libassembly-store.so, a stub .so
   whose non-loadable `payload` section holds the store; also .NET 9 and 10) is a file MonoVM maps
   from the app's native library directory, or finds in the APK, and reads the section of:
   asmstore_locate_file does that for a .so, a raw store or an APK (lib/<abi>/libassembly-store.so
   inside). A loadable .so exporting _assembly_store (`--wrap dlopen`, .NET 11 CoreCLR's door) is
   dlopen'ed and the symbol looked up (asmstore_locate_dlopen). The summary line names the door.

   Store mode: PROGRAM.exe is an entry name in the store, not a file. The cache defaults to
   $XDG_CACHE_HOME/asmstore, else /tmp/asmstore-<uid>; ASMSTORE_CACHE_DISABLE=1 turns the image
   cache off (the AOT directory below is still used). Files mode: FWDIR is the framework directory
   Mono itself would use, <root>/mono/4.5 (/usr/lib/mono/4.5 on Debian: mono_set_dirs gets <root>,
   /usr/lib), PROGRAM.exe a path to a file (its own references are found beside it); --cache is
   accepted and unused. ARGS go to Main unchanged (examples/hello: `--time-to-main` prints Main's
   timestamp and returns). The program's output goes to stdout; one summary line to stderr:
     mono_host: all N assemblies served from the store (H hits, M misses, D direct (used in
       place), C copied to 16-byte alignment): store open (DOOR) <timings>; AOT images: A,
       methods from AOT: F, JIT-compiled: J; CPU to Main's return T ms
     mono_host: started from files (N assemblies, mscorlib FILE): <timings>; AOT images: A, ...
   AOT images: the dlopen'ed X.dll.so / X.exe.so objects after Main (dl_iterate_phdr); methods
   from AOT and JIT-compiled: Mono's own counters "Methods from AOT" (counted where
   MONO_LOG_MASK=aot logs "AOT: FOUND"; the log has a few more, from shutdown) and "Methods JITted
   using mono JIT". CPU: getrusage(RUSAGE_SELF) user + sys of every thread when Main has returned
   (less sensitive to a loaded machine than the time to Main). The exit status is the program's (1
   when an assembly came from elsewhere or failed to load). ASMSTORE_HOST_MEMORY=1 adds a
   "memory: ..." line after Main returns (examples/host_memory.h), in both modes. The cache
   decompresses into one mapping per start of transparent huge pages (examples/host_arena.h):
   ASMSTORE_HOST_ARENA=0 makes it use malloc instead, for `make bench`'s comparison. A start with
   no pack to map (the first, or the cache off) decompresses the images itself and gives them to
   the cache after Main, which packs them for the next start (ASMSTORE_HOST_PUT_AFTER_MAIN=0: the
   cache decompresses and writes them during the start). ASMSTORE_HOST_PHASES=1 adds a "phases:"
   line, CPU and faults at each step (examples/host_phases.h), in both modes.

   How mscorlib gets loaded from the store: Mono 6.8's mono_assembly_load_corlib() asks the
   assembly preload hooks for "mscorlib" before it searches any directory, and every later load by
   name (assembly references, Assembly.Load) asks them first too. So the one hook below serves
   every assembly: look the name up in the store, take the image from the cache, hand the bytes to
   mono_image_open_from_data_with_name + mono_assembly_load_from_full. /etc/mono/config (dllmaps)
   is still parsed: it is configuration, not an assembly. An entry's config data (Foo.dll.config
   packed beside Foo.dll) is registered with mono_register_config_for_assembly, so it also comes
   from the store.

   The AOT directory: Mono looks for an image's AOT code (X.dll.so) beside the image's name (for a
   store image "<store>.so/X.dll.so": ENOTDIR) and then in <root>/mono/aot-cache/<arch>/, <root>
   being mono_set_dirs' assembly directory. Debian ships mscorlib's there
   (/usr/lib/mono/aot-cache/amd64/mscorlib.dll.so); without it every method is JIT-compiled (2x
   the CPU to reach Main). So <root> is a private directory holding ONLY that:
   <cache root>/mono-aot-framework-v1/mono/aot-cache/<arch>, a symlink to Mono's real
   <install root>/mono/aot-cache/<arch>, and no assemblies, so a name the store lacks still fails
   loudly instead of coming from /usr/lib/mono. It persists: created once (0700 directories, not
   followed through symlinks, ours), re-validated each start with a few syscalls (the symlink must
   be ours and point at the real directory, else it is replaced). <arch> is Mono's name for the
   build target (amd64, x86, arm64, arm, s390x). With no AOT cache installed, or the directory
   unusable, Mono gets the nonexistent /nonexistent/asmstore-mono-host and stderr a
   "mono_host: no AOT code: ..." note; the program still runs, all JIT.

   Build: cc -std=c99 -D_GNU_SOURCE examples/mono_host.c \
            $(pkg-config --cflags --libs mono-2) -lzstd -ldl */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#define ASMSTORE_NO_BUILD
#include "../asmstore.h"
#include "../asmstore_cache.h"
#include "host_arena.h"
#include "host_memory.h"
#include "host_phases.h"
#include "host_private_dir.h"
#include "host_util.h"

#include <mono/jit/jit.h>
#include <mono/metadata/assembly.h>
#include <mono/metadata/image.h>
#include <mono/metadata/mono-config.h>
#include <mono/utils/mono-counters.h>

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Mono's framework directory without AOT code: a path that cannot exist, so that a name the store
   lacks fails loudly. */
#define HOST_NO_FRAMEWORK_DIR "/nonexistent/asmstore-mono-host"
/* The AOT-only framework directory, under the cache root (beside the image cache's own one). */
#define HOST_AOT_DIR_NAME "mono-aot-framework-v1"
/* Mono's MONO_ARCHITECTURE for the build target: the aot-cache subdirectory it looks in. */
#if defined(__x86_64__)
#define HOST_MONO_ARCH "amd64"
#elif defined(__aarch64__)
#define HOST_MONO_ARCH "arm64"
#elif defined(__arm__)
#define HOST_MONO_ARCH "arm"
#elif defined(__i386__)
#define HOST_MONO_ARCH "x86"
#elif defined(__s390x__)
#define HOST_MONO_ARCH "s390x"
#endif
/* Uncompressed images below this alignment are copied before Mono sees them (measured: 4 is
   enough, 1 is not). */
#define MONO_HOST_MIN_ALIGNMENT 16u

typedef struct loaded {
    MonoAssembly *assembly;     /* NULL until loaded */
    asmstore_cache_image image; /* kept for the process's life: Mono reads it in place */
    unsigned char *own;         /* or decompressed by the host (no pack yet): given to the cache
                                   after Main (host_put_after_main) */
    const unsigned char *data;  /* the image Mono reads: image's or own */
    size_t size;
    /* the entry's config data and assembly name, NUL-terminated (Mono keeps the pointers) */
    char *config, *config_name;
} loaded;

typedef struct host {
    asmstore_locator loc;
    asmstore_reader reader;
    uint32_t *name_table; /* 12-16 bytes per entry: O(1) lookups */
    asmstore_cache *cache;
    host_arena arena;     /* what the cache decompresses into (examples/host_arena.h) */
    loaded *by_index;     /* one per store descriptor */
    pthread_mutex_t lock; /* recursive: loading an image may ask the hook for another */
    const char *store_path;
    unsigned hits, misses, direct, copied, failures;
    double get_us, mono_us; /* time in asmstore_cache_get, time in Mono's image/assembly load */
    asmstore_allocator alloc; /* the arena's (or malloc): own images */
    int own_images;           /* no pack to map (cold, or cache off): the host decompresses and
                                 the cache gets the images after Main (ASMSTORE_HOST_PUT_AFTER_MAIN) */
    struct ZSTD_DCtx_s *dctx;
    host_phases phases;
} host;

/* An entry's config data (Foo.dll.config packed beside Foo.dll), registered for "Foo" with Mono,
   which keeps both pointers: copies, NUL-terminated, kept in l for the process's life. */
static void host_register_config(loaded *l, const asmstore_entry *e) {
    char *dot;
    if (!e->config || !e->config_size) return;
    l->config = (char *)malloc(e->config_size + 1);
    l->config_name = strndup(e->name, e->name_len);
    if (!l->config || !l->config_name) return;
    dot = strrchr(l->config_name, '.');
    memcpy(l->config, e->config, e->config_size);
    l->config[e->config_size] = 0;
    if (dot && (!strcmp(dot, ".dll") || !strcmp(dot, ".exe"))) *dot = 0;
    mono_register_config_for_assembly(l->config_name, l->config);
}

/* The summary's counts: where an image came from. */
static void host_count_source(host *h, asmstore_cache_source source) {
    if (source == ASMSTORE_CACHE_HIT) h->hits++;
    else if (source == ASMSTORE_CACHE_MISS) h->misses++;
    else if (source == ASMSTORE_CACHE_COPY) h->copied++;
    else h->direct++;
}

/* Loads the store entry `name` ("mscorlib", "System.Xml", "hello.exe", "fr/App.resources") as a
   MonoAssembly, once: later calls return the same assembly. NULL when the store lacks it. */
static void host_image_release(host *h, loaded *l) {
    asmstore_cache_release(&l->image);
    if (l->own) asmstore_free(&h->alloc, l->own, l->size);
    l->own = NULL;
    l->data = NULL;
}

/* Entry e's image into l: decompressed here into the arena when the host owns its images (the
   cache gets them after Main), else from the cache. */
static asmstore_result host_image(host *h, const asmstore_entry *e, loaded *l, asmstore_error *err) {
    host_usage before = host_usage_now(RUSAGE_THREAD);
    asmstore_result res;

    if (h->own_images && e->compression != ASMSTORE_COMPRESSION_NONE) {
        if (e->uncompressed_size > asmstore_reader_max_entry_size(&h->reader))
            return ASMSTORE_ERR_TOO_LARGE;
        if (!h->dctx) h->dctx = ZSTD_createDCtx();
        l->own = (unsigned char *)asmstore_alloc(&h->alloc, e->uncompressed_size);
        if (!l->own) return ASMSTORE_ERR_OUT_OF_MEMORY;
        res = asmstore_reader_read(&h->reader, e, l->own, e->uncompressed_size, h->dctx, err);
        if (res != ASMSTORE_OK) {
            asmstore_free(&h->alloc, l->own, e->uncompressed_size);
            l->own = NULL;
            return res;
        }
        l->data = l->own;
        l->size = e->uncompressed_size;
        host_phases_image(&h->phases, before, l->size);
        host_count_source(h, ASMSTORE_CACHE_MISS);
        return ASMSTORE_OK;
    }
    res = asmstore_cache_get(h->cache, e, &l->image, err);
    if (res != ASMSTORE_OK) return res;
    l->data = l->image.data;
    l->size = l->image.size;
    if (l->image.source == ASMSTORE_CACHE_MISS) host_phases_image(&h->phases, before, l->size);
    host_count_source(h, l->image.source);
    return ASMSTORE_OK;
}

static MonoAssembly *host_load(host *h, const char *name) {
    asmstore_entry e;
    loaded *l;
    MonoImage *image;
    MonoImageOpenStatus status = MONO_IMAGE_OK;
    MonoAssembly *a = NULL;
    char fname[4096];
    double t;
    asmstore_error err;
    asmstore_result res = asmstore_reader_find(&h->reader, name, strlen(name), &e, NULL);
    if (res != ASMSTORE_OK) return NULL; /* not ours: Mono goes on (and finds nothing on disk) */

    pthread_mutex_lock(&h->lock);
    l = &h->by_index[e.index];
    if (l->assembly) {
        a = l->assembly;
        goto out;
    }

    t = now_us();
    memset(&err, 0, sizeof err);
    res = host_image(h, &e, l, &err);
    h->get_us += now_us() - t;
    if (res != ASMSTORE_OK || l->size > UINT32_MAX) {
        fprintf(stderr, "mono_host: %s: %s: %s\n", name, asmstore_result_string(res),
                err.message ? err.message : "");
        h->failures++;
        goto out;
    }
    /* The name Mono files the image under: "<store path>/<entry name>". It is never opened (a .so
       is not a directory); it makes Assembly.Location and Mono's messages point at the store. */
    snprintf(fname, sizeof fname, "%s/%.*s", h->store_path, (int)e.name_len, e.name);
    host_register_config(l, &e); /* Foo.dll.config from the store, before Mono looks for a file */
    t = now_us();
    /* need_copy 0: Mono reads the cache's image in place (a private mapping or our heap block). */
    image = mono_image_open_from_data_with_name((char *)(uintptr_t)l->data, (uint32_t)l->size, 0,
                                                &status, 0, fname);
    if (image) {
        a = mono_assembly_load_from_full(image, fname, &status, 0);
        mono_image_close(image); /* the assembly holds its own reference */
    }
    h->mono_us += now_us() - t;
    if (!a) {
        fprintf(stderr, "mono_host: %s: Mono rejected the image (status %d)\n", name, (int)status);
        host_image_release(h, l);
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
    const char *name = mono_assembly_name_get_name(aname),
               *culture = mono_assembly_name_get_culture(aname);
    char key[1024];
    (void)assemblies_path;
    if (!name) return NULL;
    if (culture && *culture)
        snprintf(key, sizeof key, "%s/%s", culture, name);
    else
        snprintf(key, sizeof key, "%s", name);
    return host_load((host *)user, key);
}

/* After the run: every assembly in the domain must be one the hook handed out. */
typedef struct audit {
    host *h;
    unsigned total, foreign;
} audit;
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

/* The AOT-only framework root (the header comment): fills out with
   <cache_root>/mono-aot-framework-v1 and returns 1, or returns 0 with *why saying what is missing.
   mono_root is Mono's own root (/usr/lib). */
static int host_aot_root(const char *cache_root, const char *mono_root, char *out, size_t outsz,
                         char *why, size_t whysz) {
#ifdef HOST_MONO_ARCH
    static const char *const dirs[] = {HOST_AOT_DIR_NAME, "mono", "aot-cache"};
    char real[4096], tmp2[4096];
    struct stat st;
    int fd, next, ok = 0;
    size_t k;
    if (!mono_root) {
        snprintf(why, whysz, "Mono names no install root (mono_assembly_getrootdir)");
        return 0;
    }
    snprintf(real, sizeof real, "%s/mono/aot-cache/" HOST_MONO_ARCH, mono_root);
    errno = 0;
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, whysz, "%.4000s: %s (Mono's AOT cache is not installed)", real,
                 strerror(errno ? errno : ENOTDIR));
        return 0;
    }
    if (mkdir(cache_root, 0700) != 0 && errno != EEXIST) goto fail;
    if ((fd = open(cache_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) goto fail;
    for (k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
        next = asmstore_cache__open_dir(fd, dirs[k]);
        close(fd);
        if ((fd = next) < 0) goto fail;
    }
    /* first start, or Mono moved: (re)placed atomically */
    ok = host_place_link(fd, HOST_MONO_ARCH, real);
    close(fd);
    /* absolute, so that Mono's later probes do not depend on the program's working directory */
    if (ok && cache_root[0] != '/' && getcwd(tmp2, sizeof tmp2) &&
        snprintf(out, outsz, "%s/%s/" HOST_AOT_DIR_NAME, tmp2, cache_root) < (int)outsz)
        return 1;
    if (ok && cache_root[0] == '/' &&
        snprintf(out, outsz, "%s/" HOST_AOT_DIR_NAME, cache_root) < (int)outsz)
        return 1;
    if (ok) errno = ENAMETOOLONG;
fail:
    snprintf(why, whysz,
             "%.2000s/" HOST_AOT_DIR_NAME "/mono/aot-cache/" HOST_MONO_ARCH " -> %.2000s: %s",
             cache_root, real, strerror(errno));
    return 0;
#else
    (void)cache_root;
    (void)mono_root;
    (void)out;
    (void)outsz;
    snprintf(why, whysz, "no Mono architecture name for this build target");
    return 0;
#endif
}

/* AOT use after Main: the AOT images loaded (X.dll.so / X.exe.so objects mapped by dlopen; Mono
   closes an unusable one) and Mono's own method counters. */
typedef struct aot_use {
    unsigned images;
    int from_aot, jitted;
    double cpu_ms;
} aot_use;
static int host_count_aot_image(struct dl_phdr_info *info, size_t size, void *user) {
    const char *n = info->dlpi_name;
    size_t len = n ? strlen(n) : 0;
    (void)size;
    if (len > 7 && (!strcmp(n + len - 7, ".dll.so") || !strcmp(n + len - 7, ".exe.so")))
        ((aot_use *)user)->images++;
    return 0;
}
static mono_bool host_count_methods(MonoCounter *c, void *user) {
    aot_use *u = (aot_use *)user;
    const char *name = mono_counter_get_name(c);
    int *dst = !strcmp(name, "Methods from AOT")                ? &u->from_aot
               : !strcmp(name, "Methods JITted using mono JIT") ? &u->jitted
                                                                : NULL;
    if (dst && (mono_counter_get_type(c) & MONO_COUNTER_TYPE_MASK) == MONO_COUNTER_INT)
        mono_counters_sample(c, dst, (int)sizeof *dst);
    return 1;
}
static aot_use host_aot_use(void) {
    aot_use u;
    struct rusage ru;
    u.images = 0;
    u.from_aot = -1;
    u.jitted = -1;
    u.cpu_ms = -1;
    /* the process's CPU so far: every thread, start to Main's return */
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        u.cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    dl_iterate_phdr(host_count_aot_image, &u);
    mono_counters_foreach(host_count_methods, &u);
    return u;
}

static void host_count_one(void *assembly, void *user) {
    (void)assembly;
    (*(unsigned *)user)++;
}

/* Files mode: the anchor. The same embedding calls as the store's, assemblies from the framework
   directory and beside PROGRAM (no preload hook: nothing to serve; Mono's own search, as the stock
   launcher's). fwdir must be <root>/mono/<version>; mono_set_dirs gets <root>. */
/* <root> of the framework directory <root>/mono/<version> holding mscorlib.dll; 0, or 2 said. */
static int files_root(const char *fwdir, char *root, size_t cap) {
    char corlib[4096];
    char *slash;
    size_t len;

    len = strlen(fwdir);
    while (len > 1 && fwdir[len - 1] == '/') len--;
    snprintf(root, cap, "%.*s", (int)len, fwdir);
    slash = snprintf(corlib, sizeof corlib, "%s/mscorlib.dll", root) < (int)sizeof corlib
                ? strrchr(root, '/')
                : NULL;
    if (slash) *slash = 0; /* <root>/mono/<version> -> <root> */
    if (slash) slash = strrchr(root, '/');
    if (!slash || strcmp(slash + 1, "mono") != 0 || access(corlib, R_OK) != 0) {
        fprintf(stderr,
                "mono_host: --files %s: not a Mono framework directory <root>/mono/<version> with "
                "mscorlib.dll (e.g. /usr/lib/mono/4.5)\n",
                fwdir);
        return 2;
    }
    *slash = 0;
    return 0;
}

static int host_run_files(const char *fwdir, const char *program, int argc, char **argv) {
    char root[4096];
    unsigned total;
    MonoDomain *domain;
    MonoAssembly *main_assembly;
    const char *corlib_file;
    aot_use u;
    host_phases ph;
    int rc;
    double t0 = now_us(), t_runtime, t_end;

    memset(&ph, 0, sizeof ph);
    if (files_root(fwdir, root, sizeof root) != 0) return 2;
    host_phases_mark(&ph, MARK_OPEN);
    host_phases_mark(&ph, MARK_LOADED);
    mono_set_dirs(root[0] ? root : "/", NULL);
    mono_config_parse(NULL);
    host_phases_threads(&ph);
    domain = mono_jit_init_version("asmstore", "v4.0.30319");
    if (!domain) {
        fprintf(stderr, "mono_host: mono_jit_init_version failed\n");
        return 1;
    }
    host_phases_mark(&ph, MARK_INITIALIZED);
    main_assembly = mono_domain_assembly_open(domain, program);
    t_runtime = now_us();
    if (!main_assembly) {
        fprintf(stderr, "mono_host: %s: cannot be loaded\n", program);
        return 1;
    }

    rc = mono_jit_exec(domain, main_assembly, argc, argv);
    host_phases_mark(&ph, MARK_MAIN);
    host_phases_mark(&ph, MARK_END);
    fflush(stdout);
    host_memory_report();
    t_end = now_us();
    host_phases_report(&ph);

    u = host_aot_use();
    total = 0;
    mono_assembly_foreach(host_count_one, &total);
    corlib_file = mono_image_get_filename(mono_get_corlib());
    fprintf(stderr,
            "mono_host: started from files (%u assemblies, mscorlib %s): runtime + mscorlib + "
            "program %.0f us, run %.0f us; AOT images: %u, methods from AOT: %d, JIT-compiled: %d; "
            "CPU to Main's return %.1f ms\n",
            total, corlib_file ? corlib_file : "?", t_runtime - t0, t_end - t_runtime, u.images,
            u.from_aot, u.jitted, u.cpu_ms);
    mono_jit_cleanup(domain);
    return rc;
}

/* Opens the store the way its runtime finds it: the file is mapped and looked at first. A stub .so
   whose non-loadable `payload` section holds the store (the .NET 11 GA MonoVM layout, also 9 and
   10), a raw store or an APK (lib/<abi>/libassembly-store.so inside) stays that mapping, as MonoVM
   reads it; a loadable .so exporting _assembly_store (`--wrap dlopen`) is handed to the loader
   instead: dlopen + dlsym, as a runtime that dlopens its store does. */
static asmstore_result host_locate(host *h, asmstore_error *err) {
    asmstore_result res = asmstore_locate_file(&h->loc, h->store_path, NULL, err);
    if (res != ASMSTORE_OK || h->loc.wrapper != ASMSTORE_ELF_SYMBOL) return res;
    asmstore_locator_close(&h->loc);
    memset(err, 0, sizeof *err);
    return asmstore_locate_dlopen(&h->loc, h->store_path, NULL, err);
}

/* How host_locate opened the store, for the summary line. */
static const char *host_door(const host *h) {
    if (h->loc.via == ASMSTORE_VIA_DLOPEN) return "dlopen + dlsym _assembly_store";
    if (h->loc.via == ASMSTORE_VIA_APK) return "in the APK";
    if (h->loc.wrapper == ASMSTORE_ELF_SECTION) return "as a file, its payload section";
    return "as a file, a raw store";
}

/* 1 when the cache has a pack to serve this start's images from (a warm start). */
static int host_has_pack(asmstore_cache *c) {
    int fd = asmstore_cache_pack_file(c, NULL);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

/* The store: located, validated once, a name table attached, its cache opened. Uncompressed images
   are used in place when aligned enough for Mono (at an odd address it fails in CultureInfo), else
   copied. 0 when it is ready; 1 (said on stderr, everything released) when not. */
static int host_open_store(host *h, const char *cache_dir) {
    asmstore_cache_options co;
    asmstore_error err;
    asmstore_result res;
    size_t nt;
    int put_after_main = env_on("ASMSTORE_HOST_PUT_AFTER_MAIN", 1);
    memset(&co, 0, sizeof co);
    co.min_alignment = MONO_HOST_MIN_ALIGNMENT;
    if (put_after_main) co.pack = ASMSTORE_CACHE_PACK_AT_FLUSH; /* the next start maps one pack */
    memset(&err, 0, sizeof err);
    res = host_locate(h, &err);
    if (res != ASMSTORE_OK) {
        const char *why = h->loc.error[0] ? h->loc.error : err.message ? err.message : "";
        fprintf(stderr, "mono_host: %s: %s%s%s\n", h->store_path, asmstore_result_string(res),
                why[0] ? ": " : "", why);
        return 1;
    }
    memset(&err, 0, sizeof err); /* the name table's failure fills none */
    res = asmstore_reader_init(&h->reader, h->loc.data, h->loc.size, NULL, &err);
    nt = res == ASMSTORE_OK ? asmstore_reader_name_table_size(&h->reader) + 4 : 0;
    if (res == ASMSTORE_OK) h->name_table = (uint32_t *)malloc(nt);
    if (res == ASMSTORE_OK && !h->name_table) res = ASMSTORE_ERR_OUT_OF_MEMORY;
    if (res == ASMSTORE_OK)
        res = asmstore_reader_attach_name_table(&h->reader, h->name_table, nt, NULL);
    if (res == ASMSTORE_OK) host_arena_open(&h->arena, &h->reader, &co.allocator);
    h->alloc = co.allocator;
    if (res == ASMSTORE_OK) res = asmstore_cache_open(&h->cache, cache_dir, &h->reader, &co, &err);
    if (res == ASMSTORE_OK) h->own_images = put_after_main && !host_has_pack(h->cache);
    if (res == ASMSTORE_OK) {
        size_t n = h->reader.entry_count ? h->reader.entry_count : 1;
        h->by_index = (loaded *)calloc(n, sizeof *h->by_index);
        if (h->by_index) return 0;
        res = ASMSTORE_ERR_OUT_OF_MEMORY;
        asmstore_cache_close(h->cache);
    }
    fprintf(stderr, "mono_host: %s: %s: %s\n", h->store_path, asmstore_result_string(res),
            err.message ? err.message : "");
    free(h->name_table);
    asmstore_locator_close(&h->loc);
    return 1;
}

/* The runtime: hook first (mscorlib is loaded inside mono_jit_init_version), a framework dir with
   Mono's AOT cache and no assemblies (the header comment). mono_jit_init_version, unlike
   mono_jit_init(file), does not open the program file. mono_set_dirs(NULL, NULL) sets Mono's own
   defaults, so that mono_assembly_getrootdir says where its install is (/usr/lib). */
static MonoDomain *host_start_runtime(host *h, const char *cache_dir) {
    const char *framework_dir = HOST_NO_FRAMEWORK_DIR;
    char aot_root[4096], why[8192];
    MonoDomain *domain;
    mono_install_assembly_preload_hook(host_preload, h);
    mono_set_dirs(NULL, NULL);
    if (host_aot_root(cache_dir, mono_assembly_getrootdir(), aot_root, sizeof aot_root, why,
                      sizeof why))
        framework_dir = aot_root;
    else
        fprintf(stderr,
                "mono_host: no AOT code: %s; every method is JIT-compiled (framework dir %s)\n",
                why, framework_dir);
    mono_set_dirs(framework_dir, NULL);
    mono_config_parse(NULL);
    domain = mono_jit_init_version("asmstore", "v4.0.30319");
    if (!domain) fprintf(stderr, "mono_host: mono_jit_init_version failed\n");
    return domain;
}

/* After Main: the images the host decompressed itself go to the cache, whose flush packs them. */
static void host_put_after_main(host *h) {
    asmstore_entry e;
    uint32_t i;

    for (i = 0; i < h->reader.entry_count; i++)
        if (h->by_index[i].own && asmstore_reader_entry(&h->reader, i, &e, NULL) == ASMSTORE_OK)
            (void)asmstore_cache_put(h->cache, &e, h->by_index[i].own, h->by_index[i].size, NULL);
}

/* The summary line after Main (the header comment); rc, or 1 when an assembly came from elsewhere.
 */
static int host_report(host *h, int rc, const double t[4]) {
    audit au;
    aot_use u = host_aot_use();
    au.h = h;
    au.total = 0;
    au.foreign = 0;
    mono_assembly_foreach(host_audit_one, &au);
    host_put_after_main(h);
    asmstore_cache_flush(h->cache); /* a short-lived process waits for the writer: the next run hits */
    host_phases_mark(&h->phases, MARK_END);
    host_phases_report(&h->phases);
    if (au.foreign || h->failures) {
        fprintf(stderr, "mono_host: %u of %u assemblies NOT from the store, %u load failures\n",
                au.foreign, au.total, h->failures);
        return rc ? rc : 1;
    }
    fprintf(stderr,
            "mono_host: all %u assemblies served from the store (%u hits, %u misses, %u direct "
            "(used in "
            "place), %u copied to %u-byte alignment): store open (%s) %.0f us, runtime + mscorlib "
            "%.0f us, run %.0f us; cache get %.0f us, Mono image load %.0f us; AOT images: %u, "
            "methods from AOT: %d, JIT-compiled: %d; CPU to Main's return %.1f ms\n",
            au.total, h->hits, h->misses, h->direct, h->copied, MONO_HOST_MIN_ALIGNMENT,
            host_door(h), t[1] - t[0], t[2] - t[1], t[3] - t[2], h->get_us, h->mono_us, u.images,
            u.from_aot, u.jitted, u.cpu_ms);
    return rc;
}

static void host_close(host *h) {
    uint32_t i;
    for (i = 0; i < h->reader.entry_count; i++) {
        host_image_release(h, &h->by_index[i]);
        free(h->by_index[i].config);
        free(h->by_index[i].config_name);
    }
    free(h->by_index);
    if (h->dctx) ZSTD_freeDCtx(h->dctx);
    asmstore_cache_close(h->cache);
    free(h->name_table);
    asmstore_locator_close(&h->loc);
}

/* Store mode: the store, the runtime, Main(string[]) (argv[0] of the program is its entry name). */
static int host_run_store(host *h, const char *cache_dir, int argc, char **argv) {
    pthread_mutexattr_t ma;
    MonoDomain *domain;
    MonoAssembly *main_assembly;
    double t[4];
    int rc;
    t[0] = now_us();
    if (host_open_store(h, cache_dir)) return 1;
    host_phases_mark(&h->phases, MARK_OPEN);
    host_phases_mark(&h->phases, MARK_LOADED);
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&h->lock, &ma);
    pthread_mutexattr_destroy(&ma);
    t[1] = now_us();
    host_phases_threads(&h->phases);
    if (!(domain = host_start_runtime(h, cache_dir))) return 1;
    host_phases_mark(&h->phases, MARK_INITIALIZED);
    main_assembly = host_load(h, argv[0]);
    t[2] = now_us();
    if (!main_assembly) {
        fprintf(stderr, "mono_host: %s: not in the store %s\n", argv[0], h->store_path);
        return 1;
    }
    rc = mono_jit_exec(domain, main_assembly, argc, argv);
    host_phases_mark(&h->phases, MARK_MAIN);
    fflush(stdout);
    host_memory_report(); /* ASMSTORE_HOST_MEMORY=1: make bench's memory after Main */
    t[3] = now_us();
    rc = host_report(h, rc, t);
    mono_jit_cleanup(domain);
    host_close(h);
    return rc;
}

int main(int argc, char **argv) {
    host h;
    const char *cache_dir = NULL, *files_dir = NULL;
    char default_dir[4096];
    int argi = 1;
    memset(&h, 0, sizeof h);
    for (;;) {
        if (argi + 1 < argc && !strcmp(argv[argi], "--cache"))
            cache_dir = argv[argi + 1];
        else if (argi + 1 < argc && !strcmp(argv[argi], "--files"))
            files_dir = argv[argi + 1];
        else
            break;
        argi += 2;
    }
    if (argi + (files_dir ? 0 : 1) >= argc) {
        fprintf(stderr, "usage: mono_host [--cache DIR] STORE PROGRAM.exe [ARGS...]  (STORE: a .so,"
                        " a raw store or an APK)\n"
                        "       mono_host [--cache DIR] --files FRAMEWORK_DIR PROGRAM.exe [ARGS...]"
                        "  (e.g. /usr/lib/mono/4.5)\n");
        return 2;
    }
    signal(SIGXFSZ, SIG_IGN);
    /* argv[0] of the program is PROGRAM (a path here, an entry name below) */
    if (files_dir) return host_run_files(files_dir, argv[argi], argc - argi, argv + argi);
    h.store_path = argv[argi];
    if (!cache_dir) {
        default_cache_dir(default_dir, sizeof default_dir);
        cache_dir = default_dir;
    }
    return host_run_store(&h, cache_dir, argc - argi - 1, argv + argi + 1);
}
