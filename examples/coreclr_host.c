/* coreclr_host.c - runs a C# program on .NET's own runtime (the installed shared framework's
   libcoreclr.so) with every assembly, System.Private.CoreLib included, served out of an assembly
   store .so through the runtime's external assembly probe: what .NET for Android's CoreCLR host does
   (dotnet/android src/native/clr/host/host.cc), on a desktop runtime.

     coreclr_host [-v] [--cache DIR] STORE.so PROGRAM.dll [ARGS...]
     coreclr_host [-v] --tpa DIR PROGRAM.dll [ARGS...]

   The first form: PROGRAM.dll is an entry name in the store, not a file; Main gets ARGS and the
   host exits with Main's exit code. The runtime is found through DOTNET_ROOT (its
   shared/Microsoft.NETCore.App/<highest version>/), else `dotnet --list-runtimes`. The cache
   defaults to $XDG_CACHE_HOME/asmstore, else /tmp/asmstore-<uid>; ASMSTORE_CACHE_DISABLE=1 turns
   it off. One summary line goes to stderr, -v adds a line per probe:
     coreclr_host: 26 assemblies served from the store, System.Private.CoreLib included (...)
   ASMSTORE_HOST_MEMORY=1 adds a "memory: ..." line after Main returns (examples/host_memory.h).
   The second form is the anchor `make bench` compares with: the same runtime started the usual
   way (corerun's), from files: every .dll in DIR and in PROGRAM's directory listed in
   TRUSTED_PLATFORM_ASSEMBLIES, no store, no probe.

   How nothing comes from the disk:
   - TRUSTED_PLATFORM_ASSEMBLIES is empty and APP_PATHS unset: the binder knows no file, so every
     load by name ("System.Runtime" -> "System.Runtime.ni.dll", then "System.Runtime.dll") asks the
     probe and nothing else. "X.ni.dll" names hit the store's ignored placeholders: declined.
   - CoreLib: the runtime asks the probe for "System.Private.CoreLib.dll" first, then falls back to
     the directory libcoreclr.so was loaded from, which in the shared framework holds that file. So
     libcoreclr.so and libclrjit.so are dlopen'ed through symlinks in a fresh private directory that
     is deleted before coreclr_initialize: the runtime's own directory is empty, and a store
     without CoreLib fails with the runtime's own "Failed to load System.Private.CoreLib.dll".
     (The JIT, which the runtime loads later from that directory, is already loaded under that
     path, so the dynamic linker hands it back without opening anything.)
   - PROGRAM.dll is executed as "<store>/<PROGRAM.dll>": only the probe can serve that path (a .so
     is not a directory), never a file of that name in the current directory.
   Native libraries (libSystem.Native.so, ...) still come from the runtime's directory
   (NATIVE_DLL_SEARCH_DIRECTORIES), as on Android they come from the app's lib directory.

   The contract: .NET 10's host_runtime_contract (dotnet/runtime src/native/corehost/
   host_runtime_contract.h) has external_assembly_probe after pinvoke_override, as dotnet/android's
   host fills it; the runtime takes the contract from the HOST_RUNTIME_CONTRACT property (the
   pointer as a number) and uses the probe when `size` covers it. Runtimes before .NET 10 have no
   probe: the host then says so next to the runtime's message.

   Build: cc -std=c99 -D_GNU_SOURCE examples/coreclr_host.c -lzstd -lpthread -ldl */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strverscmp, mkdtemp, dladdr1 in the locator */
#endif
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#define ASMSTORE_NO_WRITER
#include "../asmstore.h"
#include "../asmstore_cache.h"
#include "host_memory.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CORELIB "System.Private.CoreLib.dll"
/* Uncompressed images below this alignment are copied before the runtime sees them (PE/metadata readers
   use aligned loads; .NET 10+ Android copies every uncompressed image, store-releases.md §3.3). */
#define CLR_MIN_ALIGNMENT 16u

/* .NET 10's layout of the contract (see the top of this file). */
typedef struct host_runtime_contract {
    size_t size;
    void *context;
    size_t (*get_runtime_property)(const char *key, char *value_buffer, size_t value_buffer_size, void *context);
    bool (*bundle_probe)(const char *path, int64_t *offset, int64_t *size, int64_t *compressed_size);
    const void *(*pinvoke_override)(const char *library_name, const char *entry_point_name);
    bool (*external_assembly_probe)(const char *path, void **data_start, int64_t *size);
} host_runtime_contract;

/* The runtime's exports (dotnet/runtime src/coreclr/hosts/inc/coreclrhost.h). */
typedef struct clr_api {
    int (*initialize)(const char *exe_path, const char *app_domain_name, int property_count, const char **keys,
                      const char **values, void **handle, unsigned *domain_id);
    int (*execute_assembly)(void *handle, unsigned domain_id, int argc, const char **argv, const char *assembly_path,
                            unsigned *exit_code);
    int (*shutdown_2)(void *handle, unsigned domain_id, int *latched_exit_code);
    void (*set_error_writer)(void (*writer)(const char *message));
} clr_api;

typedef struct runtime {
    char dir[PATH_MAX];            /* .../shared/Microsoft.NETCore.App/<version> */
    char version[64];
    clr_api api;
} runtime;

typedef struct served {
    asmstore_cache_image image;    /* kept for the process's life: the runtime reads it in place */
    int state;                     /* 0 not asked, 1 served, -1 failed */
} served;

typedef struct host {
    asmstore_locator loc;
    asmstore_reader reader;
    uint32_t *name_table;
    asmstore_cache *cache;
    served *by_index;              /* one per store descriptor */
    pthread_mutex_t lock;          /* the runtime may probe from several threads */
    char store_path[PATH_MAX];     /* absolute: the prefix of the program's path */
    int verbose;
    unsigned served_count, hits, misses, direct, copied, placeholders, not_found, failures, probes;
    int corelib;                   /* 0 never asked, 1 served, -1 asked and not served */
    double get_us;                 /* time in asmstore_cache_get */
} host;

static host *the_host;             /* the probe has no context argument */

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* out = dir/name; 0 when it does not fit. */
static int join_path(char *out, size_t cap, const char *dir, const char *name) {
    int n = snprintf(out, cap, "%s/%s", dir, name);
    return n > 0 && (size_t)n < cap;
}

/* ---------------------------------------------------------------- finding and loading the runtime */

/* The highest version under ROOT/shared/Microsoft.NETCore.App that has a libcoreclr.so. */
static int runtime_from_root(runtime *rt, const char *root) {
    char base[PATH_MAX], lib[PATH_MAX + 300];
    DIR *d;
    struct dirent *de;
    int found = 0;
    join_path(base, sizeof base, root, "shared/Microsoft.NETCore.App");
    if (!(d = opendir(base))) return 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof rt->version) continue;
        snprintf(lib, sizeof lib, "%s/%s/libcoreclr.so", base, de->d_name);
        if (access(lib, R_OK) != 0 || (found && strverscmp(de->d_name, rt->version) <= 0)) continue;
        snprintf(rt->version, sizeof rt->version, "%s", de->d_name);
        found = join_path(rt->dir, sizeof rt->dir, base, de->d_name);
    }
    closedir(d);
    return found;
}

/* `dotnet --list-runtimes` lines: "Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]". */
static int runtime_from_dotnet(runtime *rt) {
    char line[PATH_MAX + 128], version[64], base[PATH_MAX];
    int found = 0;
    FILE *p = popen("dotnet --list-runtimes 2>/dev/null", "r");
    if (!p) return 0;
    while (fgets(line, sizeof line, p)) {
        if (sscanf(line, "Microsoft.NETCore.App %63s [%4095[^]]]", version, base) != 2) continue;
        if (found && strverscmp(version, rt->version) <= 0) continue;
        snprintf(rt->version, sizeof rt->version, "%s", version);
        found = join_path(rt->dir, sizeof rt->dir, base, version);
    }
    pclose(p);
    return found;
}

static int runtime_find(runtime *rt) {
    const char *root = getenv("DOTNET_ROOT");
    if (root && *root) {
        if (runtime_from_root(rt, root)) return 1;
        fprintf(stderr, "coreclr_host: DOTNET_ROOT=%s has no shared/Microsoft.NETCore.App/*/libcoreclr.so\n", root);
        return 0;
    }
    if (runtime_from_dotnet(rt)) return 1;
    fprintf(stderr, "coreclr_host: no .NET runtime: set DOTNET_ROOT or put `dotnet` on PATH "
                    "(https://learn.microsoft.com/dotnet/core/install/linux)\n");
    return 0;
}

/* dlsym into a function pointer without the object-to-function pointer cast ISO C forbids. */
static int clr_sym(void *lib, const char *name, void *fn, size_t fn_size) {
    void *sym = dlsym(lib, name);
    if (!sym) return 0;
    memcpy(fn, &sym, fn_size);
    return 1;
}

static int clr_bind(runtime *rt, void *lib) {
    if (!clr_sym(lib, "coreclr_initialize", &rt->api.initialize, sizeof rt->api.initialize) ||
        !clr_sym(lib, "coreclr_execute_assembly", &rt->api.execute_assembly, sizeof rt->api.execute_assembly) ||
        !clr_sym(lib, "coreclr_shutdown_2", &rt->api.shutdown_2, sizeof rt->api.shutdown_2)) {
        fprintf(stderr, "coreclr_host: %s/libcoreclr.so: %s\n", rt->dir, dlerror());
        return 0;
    }
    clr_sym(lib, "coreclr_set_error_writer", &rt->api.set_error_writer, sizeof rt->api.set_error_writer);
    return 1;
}

/* Store mode: libcoreclr.so and libclrjit.so loaded through symlinks in a private directory that is
   gone again before the runtime starts, so the runtime's directory holds no assembly. */
static int runtime_load_bare(runtime *rt) {
    static const char *const libs[] = {"libcoreclr.so", "libclrjit.so"};
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], target[PATH_MAX + 64], link[PATH_MAX + 64];
    void *handles[2] = {NULL, NULL};
    size_t i;
    int ok = 1;
    snprintf(dir, sizeof dir, "%s/coreclr_host.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) { perror("coreclr_host: mkdtemp"); return 0; }
    for (i = 0; i < 2 && ok; i++) {
        join_path(target, sizeof target, rt->dir, libs[i]);
        join_path(link, sizeof link, dir, libs[i]);
        if (symlink(target, link) != 0) { perror("coreclr_host: symlink"); ok = 0; break; }
        if (!(handles[i] = dlopen(link, RTLD_NOW | RTLD_LOCAL))) {
            fprintf(stderr, "coreclr_host: %s\n", dlerror());
            ok = 0;
        }
    }
    for (i = 0; i < 2; i++) {
        join_path(link, sizeof link, dir, libs[i]);
        unlink(link);
    }
    rmdir(dir);
    return ok && clr_bind(rt, handles[0]); /* both stay loaded for the process's life */
}

/* Anchor mode: the runtime's own directory, as every other host loads it. */
static int runtime_load_installed(runtime *rt) {
    char lib[PATH_MAX + 64];
    void *h;
    join_path(lib, sizeof lib, rt->dir, "libcoreclr.so");
    if (!(h = dlopen(lib, RTLD_NOW | RTLD_LOCAL))) { fprintf(stderr, "coreclr_host: %s\n", dlerror()); return 0; }
    return clr_bind(rt, h);
}

static void runtime_error_writer(const char *message) { fprintf(stderr, "%s\n", message); }

/* ---------------------------------------------------------------- the store and the probe */

static int store_open(host *h, const char *path, const char *cache_dir) {
    asmstore_cache_options co;
    asmstore_error err;
    asmstore_result res;
    size_t table;
    if (!realpath(path, h->store_path)) { perror(path); return 0; }
    if ((res = asmstore_locate_dlopen(&h->loc, h->store_path, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: %s: %s%s%s\n", path, asmstore_result_string(res), h->loc.error[0] ? ": " : "",
                h->loc.error);
        return 0;
    }
    if ((res = asmstore_reader_init(&h->reader, h->loc.data, h->loc.size, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: %s: %s\n", path, asmstore_result_string(res));
        return 0;
    }
    table = asmstore_reader_name_table_size(&h->reader) + 4;
    h->name_table = (uint32_t *)malloc(table);
    h->by_index = (served *)calloc(h->reader.entry_count ? h->reader.entry_count : 1, sizeof *h->by_index);
    if (!h->name_table || !h->by_index || asmstore_reader_attach_name_table(&h->reader, h->name_table, table, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: out of memory\n");
        return 0;
    }
    memset(&co, 0, sizeof co);
    co.min_alignment = CLR_MIN_ALIGNMENT; /* uncompressed images: in place when aligned, else copied */
    if ((res = asmstore_cache_open(&h->cache, cache_dir, &h->reader, &co)) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: cache: %s\n", asmstore_result_string(res));
        return 0;
    }
    pthread_mutex_init(&h->lock, NULL);
    return 1;
}

static void store_close(host *h) {
    uint32_t i;
    if (h->by_index)
        for (i = 0; i < h->reader.entry_count; i++) asmstore_cache_release(&h->by_index[i].image);
    free(h->by_index);
    asmstore_cache_close(h->cache);
    free(h->name_table);
    asmstore_locator_close(&h->loc);
}

static const char *source_name(asmstore_cache_source s) {
    return s == ASMSTORE_CACHE_HIT ? "hit" : s == ASMSTORE_CACHE_MISS ? "miss" : s == ASMSTORE_CACHE_COPY ? "copied" : "direct";
}

/* The entry's image through the cache, once per entry; later probes get the same bytes.
   Called with h->lock held. */
static served *serve(host *h, const asmstore_entry *e) {
    served *s = &h->by_index[e->index];
    asmstore_result res;
    double t;
    if (s->state) return s->state > 0 ? s : NULL;
    t = now_us();
    res = asmstore_cache_get(h->cache, e, &s->image);
    h->get_us += now_us() - t;
    if (res != ASMSTORE_OK || s->image.size > INT64_MAX) {
        fprintf(stderr, "coreclr_host: %.*s: %s\n", (int)e->name_len, e->name, asmstore_result_string(res));
        s->state = -1;
        h->failures++;
        return NULL;
    }
    s->state = 1;
    h->served_count++;
    switch (s->image.source) {
    case ASMSTORE_CACHE_HIT: h->hits++; break;
    case ASMSTORE_CACHE_MISS: h->misses++; break;
    case ASMSTORE_CACHE_COPY: h->copied++; break;
    default: h->direct++; break;
    }
    return s;
}

/* host_runtime_contract.external_assembly_probe: `path` is a name the binder made up
   ("System.Runtime.dll", "System.Runtime.ni.dll", "fr/App.resources.dll", "System.Private.CoreLib.dll")
   or the program's "<store>/PROGRAM.dll". */
static bool store_probe(const char *path, void **data_start, int64_t *size) {
    host *h = the_host;
    size_t prefix = strlen(h->store_path);
    const char *name = path;
    asmstore_entry e;
    asmstore_result res;
    served *s = NULL;
    if (!strncmp(path, h->store_path, prefix) && path[prefix] == '/') name = path + prefix + 1;
    res = asmstore_reader_find(&h->reader, name, strlen(name), &e, NULL);
    pthread_mutex_lock(&h->lock);
    h->probes++;
    if (res == ASMSTORE_OK) s = serve(h, &e);
    else if (res == ASMSTORE_ERR_IGNORED) h->placeholders++;
    else h->not_found++;
    if (!strcmp(name, CORELIB)) h->corelib = s ? 1 : -1;
    pthread_mutex_unlock(&h->lock);
    if (h->verbose) {
        if (s) fprintf(stderr, "coreclr_host: probe %s: store, %s, %zu bytes\n", name, source_name(s->image.source), s->image.size);
        else fprintf(stderr, "coreclr_host: probe %s: declined (%s)\n", name,
                     res == ASMSTORE_ERR_IGNORED ? "placeholder" : res == ASMSTORE_OK ? "unreadable" : "not in the store");
    }
    if (!s) return false;
    *data_start = (void *)(uintptr_t)s->image.data;
    *size = (int64_t)s->image.size;
    return true;
}

/* ---------------------------------------------------------------- the anchor's TPA list */

/* Appends the path of every .dll in dir to *list (':'-separated). */
static int tpa_add_dir(char **list, size_t *len, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *de;
    if (!d) { perror(dir); return 0; }
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name), add = strlen(dir) + 1 + n + 1;
        char *grown;
        if (n < 5 || strcmp(de->d_name + n - 4, ".dll") != 0) continue;
        if (!(grown = (char *)realloc(*list, *len + add + 1))) { closedir(d); return 0; }
        *list = grown;
        *len += (size_t)snprintf(*list + *len, add + 1, "%s%s/%s", *len ? ":" : "", dir, de->d_name);
    }
    closedir(d);
    return 1;
}

/* ---------------------------------------------------------------- running */

typedef struct run_times { double start, loaded, initialized, ended; } run_times;

/* coreclr_initialize with the given properties, then Main(ARGS) of `entry`. Returns the exit code
   (Main's, or 1 when the runtime failed). */
static int run_program(const runtime *rt, const char **keys, const char **values, int n, const char *entry, int argc,
                       const char **argv, run_times *t) {
    char exe[PATH_MAX];
    void *handle = NULL;
    unsigned domain = 0, exit_code = 1;
    int hr, latched = 0;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = 0;
    if (rt->api.set_error_writer) rt->api.set_error_writer(runtime_error_writer);
    hr = rt->api.initialize(exe, "coreclr_host", n, keys, values, &handle, &domain);
    t->initialized = now_us();
    if (hr < 0) {
        fprintf(stderr, "coreclr_host: coreclr_initialize failed: 0x%08x\n", (unsigned)hr);
        t->ended = t->initialized;
        return 1;
    }
    hr = rt->api.execute_assembly(handle, domain, argc, argv, entry, &exit_code);
    fflush(stdout);
    host_memory_report(); /* ASMSTORE_HOST_MEMORY=1: make bench's memory after Main */
    t->ended = now_us();
    if (hr < 0) {
        fprintf(stderr, "coreclr_host: coreclr_execute_assembly(%s) failed: 0x%08x\n", entry, (unsigned)hr);
        exit_code = 1;
    }
    rt->api.shutdown_2(handle, domain, &latched);
    return (int)exit_code;
}

static int run_from_store(host *h, const runtime *rt, const char *program, int argc, const char **argv, double t0) {
    host_runtime_contract contract;
    char contract_ptr[32], native_dirs[PATH_MAX + 2], base_dir[PATH_MAX + 2], entry[2 * PATH_MAX];
    const char *keys[] = {"HOST_RUNTIME_CONTRACT", "TRUSTED_PLATFORM_ASSEMBLIES", "NATIVE_DLL_SEARCH_DIRECTORIES",
                          "APP_CONTEXT_BASE_DIRECTORY"};
    const char *values[4];
    char *slash;
    run_times t;
    int rc;

    memset(&contract, 0, sizeof contract);
    contract.size = sizeof contract;
    contract.external_assembly_probe = store_probe;
    the_host = h;
    snprintf(contract_ptr, sizeof contract_ptr, "0x%zx", (size_t)(uintptr_t)&contract);
    snprintf(native_dirs, sizeof native_dirs, "%s/", rt->dir);
    snprintf(base_dir, sizeof base_dir, "%s", h->store_path);
    if ((slash = strrchr(base_dir, '/')) != NULL) slash[1] = 0;
    join_path(entry, sizeof entry, h->store_path, program);
    values[0] = contract_ptr;
    values[1] = ""; /* no file is trusted: every assembly comes through the probe */
    values[2] = native_dirs;
    values[3] = base_dir;

    t.start = t0;
    t.loaded = now_us();
    rc = run_program(rt, keys, values, 4, entry, argc, argv, &t);
    asmstore_cache_flush(h->cache); /* a short-lived process waits for the writer, so the next run hits */

    if (h->corelib != 1) {
        fprintf(stderr, "coreclr_host: %s did not come from the store: %s\n", CORELIB,
                h->corelib < 0 ? "the store lacks it or it could not be read (the runtime's message is above)"
                : strverscmp(rt->version, "10") < 0
                    ? "this runtime never asked the external assembly probe (host_runtime_contract has it from .NET 10 on)"
                    : "the runtime never asked the external assembly probe for it");
        return rc ? rc : 1;
    }
    fprintf(stderr, "coreclr_host: %u assemblies served from the store, %s included (%u hits, %u misses, %u direct (used in place), "
                    "%u copied to %u-byte alignment); "
                    "%u probes declined (%u .ni.dll placeholders, %u not in the store, %u unreadable); runtime %s: "
                    "store + runtime load %.0f us, coreclr_initialize %.0f us, run %.0f us; cache get %.0f us\n",
            h->served_count, CORELIB, h->hits, h->misses, h->direct, h->copied, CLR_MIN_ALIGNMENT, h->placeholders + h->not_found + h->failures,
            h->placeholders, h->not_found, h->failures, rt->version, t.loaded - t.start, t.initialized - t.loaded,
            t.ended - t.initialized, h->get_us);
    return rc;
}

static int run_from_files(const runtime *rt, const char *tpa_dir, const char *program, int argc, const char **argv,
                          double t0) {
    char path[PATH_MAX], app_dir[PATH_MAX + 2], native_dirs[PATH_MAX + 2], *slash, *tpa = NULL;
    const char *keys[] = {"TRUSTED_PLATFORM_ASSEMBLIES", "NATIVE_DLL_SEARCH_DIRECTORIES", "APP_CONTEXT_BASE_DIRECTORY"};
    const char *values[3];
    size_t len = 0;
    run_times t;
    int rc;
    if (!realpath(program, path)) { perror(program); return 1; }
    snprintf(app_dir, sizeof app_dir, "%s", path);
    if ((slash = strrchr(app_dir, '/')) != NULL) *slash = 0;
    if (!tpa_add_dir(&tpa, &len, tpa_dir) || !tpa_add_dir(&tpa, &len, app_dir)) { free(tpa); return 1; }
    snprintf(native_dirs, sizeof native_dirs, "%s/", rt->dir);
    strcat(app_dir, "/");
    values[0] = tpa;
    values[1] = native_dirs;
    values[2] = app_dir;
    t.start = t0;
    t.loaded = now_us();
    rc = run_program(rt, keys, values, 3, path, argc, argv, &t);
    fprintf(stderr, "coreclr_host: started from files (TPA: %s/*.dll + %s*.dll); runtime %s: runtime load %.0f us, "
                    "coreclr_initialize %.0f us, run %.0f us\n",
            tpa_dir, app_dir, rt->version, t.loaded - t.start, t.initialized - t.loaded, t.ended - t.initialized);
    free(tpa);
    return rc;
}

static void default_cache_dir(char *out, size_t cap) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') snprintf(out, cap, "%s/asmstore", xdg);
    else snprintf(out, cap, "/tmp/asmstore-%lu", (unsigned long)getuid());
}

int main(int argc, char **argv) {
    static host h; /* static: the probe reaches it for the process's life */
    runtime rt;
    const char *cache_dir = NULL, *tpa_dir = NULL;
    char default_dir[PATH_MAX];
    int argi = 1, rc;
    double t0 = now_us();

    memset(&rt, 0, sizeof rt);
    for (; argi < argc && argv[argi][0] == '-'; argi++) {
        if (!strcmp(argv[argi], "-v")) h.verbose = 1;
        else if (!strcmp(argv[argi], "--cache") && argi + 1 < argc) cache_dir = argv[++argi];
        else if (!strcmp(argv[argi], "--tpa") && argi + 1 < argc) tpa_dir = argv[++argi];
        else break;
    }
    if (argc - argi < (tpa_dir ? 1 : 2)) {
        fprintf(stderr, "usage: coreclr_host [-v] [--cache DIR] STORE.so PROGRAM.dll [ARGS...]\n"
                        "       coreclr_host [-v] --tpa DIR PROGRAM.dll [ARGS...]\n");
        return 2;
    }
    signal(SIGXFSZ, SIG_IGN);
    if (!runtime_find(&rt)) return 1;

    if (tpa_dir) {
        if (!runtime_load_installed(&rt)) return 1;
        return run_from_files(&rt, tpa_dir, argv[argi], argc - argi - 1, (const char **)argv + argi + 1, t0);
    }
    if (!cache_dir) { default_cache_dir(default_dir, sizeof default_dir); cache_dir = default_dir; }
    if (!store_open(&h, argv[argi], cache_dir) || !runtime_load_bare(&rt)) { store_close(&h); return 1; }
    rc = run_from_store(&h, &rt, argv[argi + 1], argc - argi - 2, (const char **)argv + argi + 2, t0);
    store_close(&h);
    return rc;
}
