/* coreclr_host.c - runs a C# program on .NET's own runtime (libcoreclr.so) with every assembly,
   System.Private.CoreLib included, served out of an assembly store .so: what .NET for Android's
   CoreCLR host does (dotnet/android src/native/clr/host/host.cc), on a desktop runtime, at the cost
   of a start from files.

     coreclr_host [-v] [--runtime DIR] [--cache DIR] [--external-only] STORE.so PROGRAM.dll
   [ARGS...] coreclr_host [-v] [--runtime DIR] --tpa DIR PROGRAM.dll [ARGS...]

   The first form: PROGRAM.dll is an entry name in the store, not a file; Main gets ARGS and the
   host exits with Main's exit code. The runtime: --runtime DIR (a directory holding libcoreclr.so
   and the framework, e.g. an installed shared/Microsoft.NETCore.App/<version> or `make
   runtime-net11`'s), else DOTNET_ROOT's shared/Microsoft.NETCore.App/<highest version>/, else
   `dotnet --list-runtimes`. The cache defaults to $XDG_CACHE_HOME/asmstore, else
   /tmp/asmstore-<uid>; ASMSTORE_CACHE_DISABLE=1 turns it off. One summary line goes to stderr, -v
   adds a line per probe: coreclr_host: 26 assemblies served from the store, ... doors: 26 bundle, 0
   external; ... ASMSTORE_HOST_MEMORY=1 adds a "memory: ..." line after Main returns
   (examples/host_memory.h), ASMSTORE_HOST_PHASES=1 a "phases: ..." line: CPU and faults at each
   step, and of decompressing (examples/host_phases.h). The second form is the anchor `make bench`
   compares with: the same runtime started the usual way (corerun's), from files: every .dll in DIR
   and in PROGRAM's directory listed in TRUSTED_PLATFORM_ASSEMBLIES, no store, no probe.

   Two doors (host_runtime_contract; the runtime asks bundle_probe, then external_assembly_probe):
   - bundle_probe answers with an offset and size inside ONE file, the "bundle": the file passed to
     coreclr_initialize as exe_path. The runtime maps the image's sections from that file itself,
     MAP_PRIVATE, exactly as for a .dll on disk: no copy, the same page faults and memory as files.
     Only an image stored uncompressed at that offset can go this way. The bundle is the store's own
     file when CoreLib or the composite (<PROGRAM>.r2r.dll) is stored uncompressed in it, else the
     cache's pack (asmstore_cache_pack_file), named "/proc/self/fd/N" so that the runtime, which
   opens it anew for every image, keeps reading the very file the cache checked even if a
   consolidation renames a new pack into place. Images at offsets not a multiple of 16 (an odd one
   crashed the runtime) and pack hits from another pack than that one go through the other door.
   - external_assembly_probe answers with a pointer to the image's bytes: a cache hit's mapping, a
     freshly decompressed image, or the store's bytes. The runtime copies every ReadyToRun image it
   gets this way into memory of its own (its ConvertedImageLayout: +15 MiB private dirty for the
   framework, 1.4x the CPU of files); IL-only images (composite component stubs) are used in place.
   A start with no pack to map (cold, or the cache off) decompresses into "this start's images": one
   memfd laid out at open with a page-aligned place for every compressed image, passed as the bundle
   (/proc/self/fd/N), so the runtime maps decompressed images as it maps a file's: no copy of its
   own, faults as from files (issue 43 measured each choice; BENCHMARKS.md section 7). The switches,
   for `make bench`: ASMSTORE_HOST_INTO_FILE=0      the cache's buffers and the external door
   instead (the runtime copies each) ASMSTORE_HOST_ARENA=0          the cache's buffers (misses, and
   the snapshots its writer copies) from malloc, not one reserved mapping of huge pages
   (examples/host_arena.h) ASMSTORE_HOST_SCRATCH=thp      decompress into a reused scratch buffer of
   transparent huge pages (2 MiB a fault), then pwrite into the file (the default); plain: the
   scratch without huge pages; map: straight into a shared mapping of the file, page by page;
                                    populate: the same mapping made with MAP_POPULATE
     ASMSTORE_HOST_AHEAD=1          CoreLib and the program decompressed on a thread while the
   runtime loads, joined before coreclr_initialize; off by default: the runtime's load is all it can
   overlap (about 2 ms of CPU here), and it cost 2-3 ms of CPU ASMSTORE_HOST_PUT_AFTER_MAIN=0 a cold
   start gives each image to the cache as it is made; by default after Main (asmstore_cache_put), so
   no snapshot and no writer thread costs the start anything; the flush then packs them for the next
   start
   --external-only uses the second door alone (how this host worked before; kept for comparison).
   What exe_path changes for the program: Environment.GetCommandLineArgs()[0] is the bundle's path
   (the runtime puts Bundle::Path() there whenever bundle_probe is set, as for a single-file app's
   executable): the store's path in place, /proc/self/fd/N from the pack or this start's images;
   with --external-only it is the entry path
   "<store>/PROGRAM.dll" (from files: the .dll's path). PAL initialisation records it as the
   process's executable. Main's args, AppContext.BaseDirectory (APP_CONTEXT_BASE_DIRECTORY: the
   store's directory) and Environment.ProcessPath (the real executable) do not change;
   Assembly.Location is "" either way, as for any image not read from a path of its own. (hello.dll
   --argv0 prints the first two.)

   How nothing comes from the disk:
   - TRUSTED_PLATFORM_ASSEMBLIES is empty and APP_PATHS unset: the binder knows no file, so every
     load by name ("System.Runtime" -> "System.Runtime.ni.dll", then "System.Runtime.dll") asks the
     probes and nothing else. "X.ni.dll" names are declined either way: a .NET 10 or 11 preview
     store holds ignored placeholders for them, a .NET 11 GA one none (dotnet/android#12811), and a
     real assembly of such a name is served like any other.
   - CoreLib: the runtime asks the probes for "System.Private.CoreLib.dll" first, then falls back to
     the directory libcoreclr.so was loaded from, which in a runtime directory holds that file. So
     libcoreclr.so and libclrjit.so are dlopen'ed through symlinks in a private directory that holds
     nothing else, <cache root>/coreclr-runtime-v1/<key>, made once and checked at every start
     without writing (a directory made and removed around every start cost 0.4-2.8 ms of time to
     Main; a fresh one in TMPDIR, removed after Main, where the cache root is unusable): a store
     without CoreLib fails with the runtime's own "Failed to load System.Private.CoreLib.dll".
   - PROGRAM.dll is executed as "<store>/<PROGRAM.dll>" (a .so is not a directory, so only a probe
   can serve that path, never a file of that name), or "/proc/self/fd/<PROGRAM.dll>" when the bundle
   is the pack (the bundle door is asked for paths under the bundle's directory).
   - No thread of the host's lives during coreclr_initialize: the ahead thread is joined before it,
   and the cache starts its writer on the first miss or put (a second thread makes the runtime's
   membarrier registration wait 9-20 ms). Native libraries (libSystem.Native.so, ...) still come
   from the runtime's directory (NATIVE_DLL_SEARCH_DIRECTORIES), as on Android they come from the
   app's lib directory.

   The contract: host_runtime_contract as .NET 10 and 11 lay it out (dotnet/runtime
   src/native/corehost/ host_runtime_contract.h): size, context, get_runtime_property, bundle_probe,
   pinvoke_override, external_assembly_probe. The runtime reads a member only when `size` covers it,
   so `size` is the size of this struct. Runtimes before .NET 10 have no external probe: the host
   then says so next to the runtime's message.

   Build: cc -std=c99 -D_GNU_SOURCE examples/coreclr_host.c -lzstd -lpthread -ldl */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* strverscmp, mkdtemp, dladdr1 in the locator */
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

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CORELIB "System.Private.CoreLib.dll"
/* Uncompressed images below this alignment are copied before the runtime sees them (PE/metadata
   readers use aligned loads; .NET 10+ Android copies every uncompressed image), and never handed
   over by file offset (an image at an odd offset crashed the runtime; 16 works). */
#define CLR_MIN_ALIGNMENT 16u
#define PROC_FD_DIR       "/proc/self/fd"

/* .NET 10's layout of the contract (see the top of this file). */
typedef struct host_runtime_contract {
    size_t size;
    void *context;
    size_t (*get_runtime_property)(const char *key, char *value_buffer, size_t value_buffer_size,
                                   void *context);
    bool (*bundle_probe)(const char *path, int64_t *offset, int64_t *size,
                         int64_t *compressed_size);
    const void *(*pinvoke_override)(const char *library_name, const char *entry_point_name);
    bool (*external_assembly_probe)(const char *path, void **data_start, int64_t *size);
} host_runtime_contract;

/* The runtime's exports (dotnet/runtime src/coreclr/hosts/inc/coreclrhost.h). */
typedef struct clr_api {
    int (*initialize)(const char *exe_path, const char *app_domain_name, int property_count,
                      const char **keys, const char **values, void **handle, unsigned *domain_id);
    int (*execute_assembly)(void *handle, unsigned domain_id, int argc, const char **argv,
                            const char *assembly_path, unsigned *exit_code);
    int (*shutdown_2)(void *handle, unsigned domain_id, int *latched_exit_code);
    void (*set_error_writer)(void (*writer)(const char *message));
} clr_api;

typedef struct runtime {
    char dir[PATH_MAX]; /* .../shared/Microsoft.NETCore.App/<version>, or --runtime DIR */
    char version[64];
    char private_dir[PATH_MAX]; /* store mode: the directory of links libcoreclr.so was loaded
                                   through */
    int private_is_temp;        /* it is a fresh one, to remove after Main */
    clr_api api;
} runtime;

typedef enum door { DOOR_NONE = 0, DOOR_BUNDLE = 1, DOOR_EXTERNAL = 2 } door;

typedef struct served {
    asmstore_cache_image
        image; /* kept for the process's life when served by address: the runtime reads it */
    int state; /* 0 not asked, 1 served, -1 failed */
    door door; /* BUNDLE: at `offset` in the bundle file */
    uint64_t offset;
    size_t size; /* the image's size and source: a pack hit's mapping is released once the */
    asmstore_cache_source source; /* runtime maps the pack itself */
} served;

/* How an image decompressed into the images file gets there (ASMSTORE_HOST_SCRATCH): through a
   scratch buffer of transparent huge pages (2 MiB a fault) or of plain pages, then pwrite; or
   straight into a shared mapping of the file, faulted page by page or populated at mmap
   (MAP_POPULATE). */
typedef enum scratch_kind {
    SCRATCH_THP,
    SCRATCH_PLAIN,
    SCRATCH_MAP,
    SCRATCH_POPULATE
} scratch_kind;

/* This start's images file (a cold start or the cache off): every compressed image of the store has
   a page-aligned place in one memfd, laid out at open (sparse: a place costs nothing until
   written); an image is decompressed into its place when first probed (or ahead), and the runtime
   maps it through the bundle door as it maps a file (no copy of its own, faults as from files). */
typedef struct images_file {
    int fd;          /* the memfd, -1 when images go the cache's way */
    uint64_t *place; /* per descriptor: its offset in the file (compressed entries) */
    scratch_kind scratch;
    unsigned char *buf; /* SCRATCH_THP, _PLAIN: decompressed here, then written to fd */
    size_t buf_len;
    ZSTD_DCtx *dctx;
} images_file;

/* The file bundle_probe's offsets count in (exe_path): the store's, the cache's pack, or the images
 * file. */
typedef struct bundle_file {
    char path[PATH_MAX]; /* "" when no image can be handed over by offset */
    int is_pack;
    int is_images; /* the images file: path is /proc/self/fd/<images.fd> */
    int pack_fd;   /* the pack, open for the process's life: path is /proc/self/fd/<pack_fd> */
    uint64_t pack_id;
} bundle_file;

typedef struct host {
    asmstore_locator loc;
    asmstore_reader reader;
    uint32_t *name_table;
    asmstore_cache *cache;
    served *by_index;          /* one per store descriptor */
    pthread_mutex_t lock;      /* the runtime may probe from several threads */
    char store_path[PATH_MAX]; /* absolute: the prefix of the program's path */
    size_t store_path_len;
    const char *store_base; /* its last component: the bundle door strips the directory */
    size_t store_base_len;
    bundle_file bundle;
    images_file images;
    host_arena
        arena; /* the cache's allocator (examples/host_arena.h; ASMSTORE_HOST_ARENA=0: malloc) */
    int into_file; /* ASMSTORE_HOST_INTO_FILE (default 1): a start without a pack decompresses into
                                      the images file */
    int ahead; /* ASMSTORE_HOST_AHEAD (default 0): CoreLib decompressed while the runtime loads */
    int put_after_main; /* ASMSTORE_HOST_PUT_AFTER_MAIN (default 1): the cache written after Main */
    const char *program; /* PROGRAM.dll, the entry's name */
    pthread_t ahead_thread;
    int ahead_started;
    host_phases phases;
    int verbose, external_only;
    unsigned served_count, hits, misses, direct, copied, placeholders, not_found, failures, probes;
    unsigned via_bundle, via_external;
    int corelib;   /* 0 never asked, 1 served, -1 asked and not served */
    double get_us; /* time in asmstore_cache_get */
} host;

static host *the_host; /* the probe has no context argument */

/* out = dir/name; 0 when it does not fit. */
static int join_path(char *out, size_t cap, const char *dir, const char *name) {
    int n = snprintf(out, cap, "%s/%s", dir, name);
    return n > 0 && (size_t)n < cap;
}

/* >>finding and loading the runtime ------------------------------------------------------------ */

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
        snprintf(rt->version, sizeof rt->version, "%.63s", de->d_name);
        found = join_path(rt->dir, sizeof rt->dir, base, de->d_name);
    }
    closedir(d);
    return found;
}

/* `dotnet --list-runtimes` lines: "Microsoft.NETCore.App 10.0.12
 * [/usr/share/dotnet/shared/Microsoft.NETCore.App]". */
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

/* The version in a runtime library's real path: its last directory whose name starts with a digit
   (.../Microsoft.NETCore.App/10.0.12/libcoreclr.so, or a NuGet package's
   .../11.0.0/runtimes/linux-x64/native/). */
static void runtime_version_of(runtime *rt, const char *lib) {
    char real[PATH_MAX];
    char *part, *next;
    snprintf(rt->version, sizeof rt->version, "(unknown version)");
    if (!realpath(lib, real)) return;
    for (part = strtok_r(real, "/", &next); part; part = strtok_r(NULL, "/", &next))
        if (part[0] >= '0' && part[0] <= '9' && next && *next)
            snprintf(rt->version, sizeof rt->version, "%.63s", part);
}

/* --runtime DIR: a directory with libcoreclr.so and the framework. */
static int runtime_from_dir(runtime *rt, const char *dir) {
    char lib[PATH_MAX + 64];
    if (!realpath(dir, rt->dir)) {
        perror(dir);
        return 0;
    }
    join_path(lib, sizeof lib, rt->dir, "libcoreclr.so");
    if (access(lib, R_OK) != 0) {
        fprintf(stderr, "coreclr_host: --runtime %s: no libcoreclr.so in it\n", dir);
        return 0;
    }
    runtime_version_of(rt, lib);
    return 1;
}

static int runtime_find(runtime *rt, const char *dir) {
    const char *root = getenv("DOTNET_ROOT");
    if (dir) return runtime_from_dir(rt, dir);
    if (root && *root) {
        if (runtime_from_root(rt, root)) return 1;
        fprintf(
            stderr,
            "coreclr_host: DOTNET_ROOT=%s has no shared/Microsoft.NETCore.App/*/libcoreclr.so\n",
            root);
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
        !clr_sym(lib, "coreclr_execute_assembly", &rt->api.execute_assembly,
                 sizeof rt->api.execute_assembly) ||
        !clr_sym(lib, "coreclr_shutdown_2", &rt->api.shutdown_2, sizeof rt->api.shutdown_2)) {
        fprintf(stderr, "coreclr_host: %s/libcoreclr.so: %s\n", rt->dir, dlerror());
        return 0;
    }
    clr_sym(lib, "coreclr_set_error_writer", &rt->api.set_error_writer,
            sizeof rt->api.set_error_writer);
    return 1;
}

/* Store mode: libcoreclr.so and libclrjit.so are loaded through symlinks in a directory that holds
   nothing else, so the runtime's own directory holds no assembly: <cache
   root>/coreclr-runtime-v1/<XXH3 of the runtime's directory, hex>, made once and checked at every
   start (a dozen syscalls, nothing written: creating and removing a directory per start cost up to
   8 ms); where the cache root is unusable, a fresh mkdtemp directory removed after Main
   (runtime_remove_private). */
#define RUNTIME_LINKS_DIR "coreclr-runtime-v1"
static const char *const runtime_libs[] = {"libcoreclr.so", "libclrjit.so"};

/* Removes every entry of dirfd but the runtime's two links (this host puts nothing else there); 0
   when one cannot go (a directory, say): the caller then uses a fresh directory instead. */
static int runtime_links_only(int dirfd) {
    int fd = dup(dirfd), ok = 1;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *de;
    if (!d) {
        if (fd >= 0) close(fd);
        return 0;
    }
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
            !strcmp(de->d_name, runtime_libs[0]) || !strcmp(de->d_name, runtime_libs[1]))
            continue;
        if (unlinkat(dirfd, de->d_name, 0) != 0) ok = 0;
    }
    closedir(d);
    return ok;
}

/* The persistent link directory under cache_root into rt->private_dir; 0 when it cannot be used. */
static int runtime_links_persistent(runtime *rt, const char *cache_root) {
    char root[PATH_MAX], key[17], target[PATH_MAX + 64];
    int fd, next, ok = 1;
    size_t i;
    if ((mkdir(cache_root, 0700) != 0 && errno != EEXIST) || !realpath(cache_root, root)) return 0;
    snprintf(key, sizeof key, "%016llx",
             (unsigned long long)asmstore_xxh3_64(rt->dir, strlen(rt->dir)));
    if ((fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) return 0;
    next = asmstore_cache__open_dir(fd, RUNTIME_LINKS_DIR);
    close(fd);
    if ((fd = next) < 0) return 0;
    next = asmstore_cache__open_dir(fd, key);
    close(fd);
    if ((fd = next) < 0) return 0;
    for (i = 0; i < 2 && ok; i++) {
        join_path(target, sizeof target, rt->dir, runtime_libs[i]);
        ok = host_place_link(fd, runtime_libs[i], target);
    }
    ok = ok && runtime_links_only(fd);
    close(fd);
    return ok && snprintf(rt->private_dir, sizeof rt->private_dir, "%s/" RUNTIME_LINKS_DIR "/%s",
                          root, key) < (int)sizeof rt->private_dir;
}

/* A fresh directory of links in TMPDIR (rt->private_is_temp: removed after Main). */
static int runtime_links_temp(runtime *rt) {
    const char *tmp = getenv("TMPDIR");
    char target[PATH_MAX + 64], link[PATH_MAX + 64];
    size_t i;
    snprintf(rt->private_dir, sizeof rt->private_dir, "%s/coreclr_host.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(rt->private_dir)) {
        perror("coreclr_host: mkdtemp");
        rt->private_dir[0] = 0;
        return 0;
    }
    rt->private_is_temp = 1;
    for (i = 0; i < 2; i++) {
        join_path(target, sizeof target, rt->dir, runtime_libs[i]);
        join_path(link, sizeof link, rt->private_dir, runtime_libs[i]);
        if (symlink(target, link) != 0) {
            perror("coreclr_host: symlink");
            return 0;
        }
    }
    return 1;
}

static int runtime_load_bare(runtime *rt, const char *cache_root) {
    char link[PATH_MAX + 64];
    void *handles[2] = {NULL, NULL};
    size_t i;
    if (!runtime_links_persistent(rt, cache_root) && !runtime_links_temp(rt)) return 0;
    for (i = 0; i < 2; i++) {
        join_path(link, sizeof link, rt->private_dir, runtime_libs[i]);
        if (!(handles[i] = dlopen(link, RTLD_NOW | RTLD_LOCAL))) {
            fprintf(stderr, "coreclr_host: %s\n", dlerror());
            return 0;
        }
    }
    return clr_bind(rt, handles[0]); /* both stay loaded for the process's life */
}

/* Removes a temporary link directory (after Main: its unlinks and rmdir cost up to 8 ms before the
 * start). */
static void runtime_remove_private(runtime *rt) {
    char link[PATH_MAX + 64];
    size_t i;
    if (!rt->private_is_temp) return;
    for (i = 0; i < 2; i++) {
        join_path(link, sizeof link, rt->private_dir, runtime_libs[i]);
        unlink(link);
    }
    rmdir(rt->private_dir);
    rt->private_is_temp = 0;
}

/* Anchor mode: the runtime's own directory, as every other host loads it. */
static int runtime_load_installed(runtime *rt) {
    char lib[PATH_MAX + 64];
    void *h;
    join_path(lib, sizeof lib, rt->dir, "libcoreclr.so");
    if (!(h = dlopen(lib, RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "coreclr_host: %s\n", dlerror());
        return 0;
    }
    return clr_bind(rt, h);
}

static void runtime_error_writer(const char *message) {
    fprintf(stderr, "%s\n", message);
}

/* >>the images file ---------------------------------------------------------------------------- */


static scratch_kind scratch_from_env(void) {
    const char *v = getenv("ASMSTORE_HOST_SCRATCH");
    if (!v || !*v || !strcmp(v, "thp")) return SCRATCH_THP;
    if (!strcmp(v, "plain")) return SCRATCH_PLAIN;
    if (!strcmp(v, "map")) return SCRATCH_MAP;
    if (!strcmp(v, "populate")) return SCRATCH_POPULATE;
    fprintf(stderr,
            "coreclr_host: ASMSTORE_HOST_SCRATCH=%s: not thp, plain, map or populate; thp it is\n",
            v);
    return SCRATCH_THP;
}

/* Lays every compressed image of the store out in a fresh memfd; 0 when there is none or the file
   cannot be made (images then go the cache's way). */
static int images_open(host *h) {
    images_file *f = &h->images;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE),
             at = page; /* the runtime takes offset 0 for "not in the bundle" */
    asmstore_entry e;
    uint32_t i;
    if (!(f->place = (uint64_t *)calloc(h->reader.entry_count ? h->reader.entry_count : 1,
                                        sizeof *f->place)))
        return 0;
    for (i = 0; i < h->reader.entry_count && at <= INT64_MAX; i++) {
        if (asmstore_reader_entry(&h->reader, i, &e, NULL) != ASMSTORE_OK || e.ignored ||
            e.compression == ASMSTORE_COMPRESSION_NONE)
            continue;
        f->place[i] = at;
        at += ((uint64_t)e.uncompressed_size + page - 1) & ~(page - 1);
    }
    if (at == page || at > INT64_MAX || (f->fd = memfd_create("asmstore-images", MFD_CLOEXEC)) < 0)
        return 0;
    if (ftruncate(f->fd, (off_t)at) != 0 || !(f->dctx = ZSTD_createDCtx())) {
        close(f->fd);
        f->fd = -1;
        return 0;
    }
    return 1;
}

/* The scratch buffer, at least len bytes: kept for the next image, 2 MiB-aligned so that
   SCRATCH_THP's huge pages cover it. NULL when mmap fails. */
static unsigned char *images_scratch(images_file *f, size_t len) {
    size_t want = (len + HOST_ARENA_HUGE - 1) & ~(HOST_ARENA_HUGE - 1);
    if (f->buf_len >= len) return f->buf;
    if (f->buf) munmap(f->buf, f->buf_len);
    f->buf_len = (f->buf = host_map_huge(want, f->scratch == SCRATCH_THP)) != NULL ? want : 0;
    return f->buf;
}

/* Decompresses e into its place in the images file, the way f->scratch says. */
static asmstore_result images_fill(images_file *f, const asmstore_reader *r,
                                   const asmstore_entry *e, asmstore_error *err) {
    size_t size = e->uncompressed_size;
    int mapped = f->scratch == SCRATCH_MAP || f->scratch == SCRATCH_POPULATE;
    unsigned char *dst;
    asmstore_result res;
    if (mapped) {
        void *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
                       MAP_SHARED | (f->scratch == SCRATCH_POPULATE ? MAP_POPULATE : 0), f->fd,
                       (off_t)f->place[e->index]);
        dst = m == MAP_FAILED ? NULL : (unsigned char *)m;
    } else {
        dst = images_scratch(f, size);
    }
    if (!dst) {
        err->message = "no memory to decompress into";
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    }
    res = asmstore_reader_read(r, e, dst, size, f->dctx, err);
    if (res == ASMSTORE_OK && !mapped &&
        asmstore_cache__pwrite_all(f->fd, dst, size, f->place[e->index]) != 0) {
        err->message = "writing the images file";
        res = ASMSTORE_ERR_IO;
    }
    if (mapped) munmap(dst, size);
    return res;
}

/* Gives the cache the image of e made in the images file (its snapshot is copied now, written by
 * the cache's writer). */
static void images_put(host *h, const asmstore_entry *e) {
    void *m = mmap(NULL, e->uncompressed_size, PROT_READ, MAP_SHARED, h->images.fd,
                   (off_t)h->images.place[e->index]);
    if (m == MAP_FAILED) return;
    (void)asmstore_cache_put(h->cache, e, m, e->uncompressed_size, NULL);
    munmap(m, e->uncompressed_size);
}

/* After Main (ASMSTORE_HOST_PUT_AFTER_MAIN): every image this start decompressed into the images
   file goes to the cache, whose flush then packs them, so that the next start maps them all. */
static void images_put_all(host *h) {
    asmstore_entry e;
    uint32_t i;
    if (h->images.fd < 0 || !h->put_after_main) return;
    for (i = 0; i < h->reader.entry_count; i++)
        if (h->by_index[i].state > 0 && h->by_index[i].source == ASMSTORE_CACHE_MISS &&
            asmstore_reader_entry(&h->reader, i, &e, NULL) == ASMSTORE_OK)
            images_put(h, &e);
}

static void images_close(images_file *f) {
    if (f->buf) munmap(f->buf, f->buf_len);
    if (f->dctx) ZSTD_freeDCtx(f->dctx);
    if (f->fd >= 0) close(f->fd);
    free(f->place);
}

/* >>the store ---------------------------------------------------------------------------------- */

static int store_open(host *h, const char *path, const char *cache_dir) {
    asmstore_cache_options co;
    asmstore_error err;
    asmstore_result res;
    size_t table;
    const char *slash;
    if (!realpath(path, h->store_path)) {
        perror(path);
        return 0;
    }
    slash = strrchr(h->store_path, '/');
    h->store_base = slash ? slash + 1 : h->store_path;
    h->store_path_len = strlen(h->store_path);
    h->store_base_len = strlen(h->store_base);
    if ((res = asmstore_locate_dlopen(&h->loc, h->store_path, NULL, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: %s: %s%s%s\n", path, asmstore_result_string(res),
                h->loc.error[0] ? ": " : "", h->loc.error);
        return 0;
    }
    if ((res = asmstore_reader_init(&h->reader, h->loc.data, h->loc.size, NULL, &err)) !=
        ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: %s: %s\n", path, asmstore_result_string(res));
        return 0;
    }
    table = asmstore_reader_name_table_size(&h->reader) + 4;
    h->name_table = (uint32_t *)malloc(table);
    h->by_index =
        (served *)calloc(h->reader.entry_count ? h->reader.entry_count : 1, sizeof *h->by_index);
    if (!h->name_table || !h->by_index ||
        asmstore_reader_attach_name_table(&h->reader, h->name_table, table, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: out of memory\n");
        return 0;
    }
    memset(&co, 0, sizeof co);
    co.min_alignment =
        CLR_MIN_ALIGNMENT; /* uncompressed images: in place when aligned, else copied */
    co.pack = ASMSTORE_CACHE_PACK_AT_FLUSH; /* every image in the pack after a start: the next one
                                               maps them all */
    co.store_file =
        h->loc.path; /* its unchanged file: pack hits need not hash the stored bytes again */
    host_arena_open(&h->arena, &h->reader,
                    &co.allocator); /* misses and snapshots: huge pages, not 4 KiB faults */
    if ((res = asmstore_cache_open(&h->cache, cache_dir, &h->reader, &co, &err)) != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: cache: %s: %s\n", asmstore_result_string(res),
                err.message ? err.message : "");
        return 0;
    }
    pthread_mutex_init(&h->lock, NULL);
    h->bundle.pack_fd = -1;
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
    if (h->bundle.pack_fd >= 0) close(h->bundle.pack_fd);
    images_close(&h->images);
}

/* Is `name` in the store, stored uncompressed at an offset the bundle door can take? */
static int store_holds_mappable(host *h, const char *name) {
    asmstore_entry e;
    uint64_t offset;
    return asmstore_reader_find(&h->reader, name, strlen(name), &e, NULL) == ASMSTORE_OK &&
           asmstore_locator_image_offset(&h->loc, &h->reader, &e, CLR_MIN_ALIGNMENT, &offset,
                                         NULL) == ASMSTORE_OK;
}

/* Chooses the bundle file (exe_path) before the runtime starts: the store's file when the images
   that cost most to copy, CoreLib and the composite (<PROGRAM>.r2r.dll, what a Release build
   ships), are mappable in it; else the cache's pack, whose hits are; else (a cold start, the cache
   off) the images file this start decompresses into (ASMSTORE_HOST_INTO_FILE); else the store's
   file (its uncompressed images, if any). */
static void bundle_choose(host *h, const char *program) {
    char composite[PATH_MAX];
    size_t n = strlen(program);
    bundle_file *b = &h->bundle;
    if (h->external_only) return;
    snprintf(composite, sizeof composite, "%.*s.r2r.dll",
             (int)(n > 4 && !strcmp(program + n - 4, ".dll") ? n - 4 : n), program);
    if (!store_holds_mappable(h, CORELIB) && !store_holds_mappable(h, composite) &&
        (b->pack_fd = asmstore_cache_pack_file(h->cache, &b->pack_id)) >= 0) {
        b->is_pack = 1;
        snprintf(b->path, sizeof b->path, PROC_FD_DIR "/%d", b->pack_fd);
        return;
    }
    if (h->into_file && !store_holds_mappable(h, CORELIB) && !store_holds_mappable(h, composite) &&
        images_open(h)) {
        b->is_images = 1;
        snprintf(b->path, sizeof b->path, PROC_FD_DIR "/%d", h->images.fd);
        return;
    }
    snprintf(b->path, sizeof b->path, "%s", h->loc.path);
}

/* >>the two doors ------------------------------------------------------------------------------ */

/* Which door serves the image just got: BUNDLE when it lies in the bundle file at an offset the
   door takes (s->offset), else EXTERNAL (by address). */
static door door_for(host *h, const asmstore_entry *e, served *s) {
    const bundle_file *b = &h->bundle;
    if (!b->path[0]) return DOOR_EXTERNAL;
    if (b->is_pack && s->image.source == ASMSTORE_CACHE_HIT && s->image.pack_id == b->pack_id) {
        s->offset = s->image.pack_offset;
        return DOOR_BUNDLE;
    }
    if (!b->is_pack && s->image.source == ASMSTORE_CACHE_DIRECT &&
        asmstore_locator_image_offset(&h->loc, &h->reader, e, CLR_MIN_ALIGNMENT, &s->offset,
                                      NULL) == ASMSTORE_OK)
        return DOOR_BUNDLE;
    return DOOR_EXTERNAL;
}

/* Counts s, served (state, size, source and door set), or failed with res. */
static served *serve_count(host *h, const asmstore_entry *e, served *s, asmstore_result res,
                           const asmstore_error *err) {
    if (res != ASMSTORE_OK) {
        fprintf(stderr, "coreclr_host: %.*s: %s: %s\n", (int)e->name_len, e->name,
                asmstore_result_string(res), err->message ? err->message : "");
        s->state = -1;
        h->failures++;
        return NULL;
    }
    s->state = 1;
    h->served_count++;
    switch (s->source) {
    case ASMSTORE_CACHE_HIT:
        h->hits++;
        break;
    case ASMSTORE_CACHE_MISS:
        h->misses++;
        break;
    case ASMSTORE_CACHE_COPY:
        h->copied++;
        break;
    default:
        h->direct++;
        break;
    }
    if (s->door == DOOR_BUNDLE)
        h->via_bundle++;
    else
        h->via_external++;
    return s;
}

/* The entry's image, once per entry, and the door it goes through; later probes get the same
   answer: a compressed image decompressed into the images file when there is one (through the
   bundle door; given to the cache now unless ASMSTORE_HOST_PUT_AFTER_MAIN), else through the cache.
   Called with h->lock held. */
static served *serve(host *h, const asmstore_entry *e) {
    served *s = &h->by_index[e->index];
    host_usage before;
    asmstore_error err;
    asmstore_result res;
    double t;
    if (s->state) return s->state > 0 ? s : NULL;
    before = host_usage_now(RUSAGE_THREAD);
    t = now_us();
    memset(&err, 0, sizeof err);
    if (h->images.fd >= 0 && e->compression != ASMSTORE_COMPRESSION_NONE) {
        res = e->uncompressed_size > asmstore_reader_max_entry_size(&h->reader)
                  ? ASMSTORE_ERR_TOO_LARGE
                  : images_fill(&h->images, &h->reader, e, &err);
        s->size = e->uncompressed_size;
        s->source = ASMSTORE_CACHE_MISS;
        s->door = DOOR_BUNDLE;
        s->offset = h->images.place[e->index];
        if (res == ASMSTORE_OK && !h->put_after_main) images_put(h, e);
    } else {
        res = asmstore_cache_get(h->cache, e, &s->image, &err);
        if (res == ASMSTORE_OK && s->image.size > INT64_MAX) res = ASMSTORE_ERR_TOO_LARGE;
        s->size = s->image.size;
        s->source = s->image.source;
        if (res == ASMSTORE_OK) s->door = door_for(h, e, s);
    }
    h->get_us += now_us() - t;
    if (res == ASMSTORE_OK && s->source == ASMSTORE_CACHE_MISS)
        host_phases_image(&h->phases, before, s->size);
    return serve_count(h, e, s, res, &err);
}

/* Serves `name` if the store has it (h->lock taken here): what the ahead thread asks for. */
static void serve_name(host *h, const char *name) {
    asmstore_entry e;
    if (asmstore_reader_find(&h->reader, name, strlen(name), &e, NULL) != ASMSTORE_OK) return;
    pthread_mutex_lock(&h->lock);
    (void)serve(h, &e);
    pthread_mutex_unlock(&h->lock);
}

/* The images the runtime asks for first, CoreLib and the program, decompressed into the images file
   while the runtime loads (ASMSTORE_HOST_AHEAD), on a thread joined before coreclr_initialize: a
   live thread there makes the runtime's membarrier registration wait 8-20 ms. */
static void *ahead_main(void *arg) {
    host *h = (host *)arg;
    serve_name(h, CORELIB);
    serve_name(h, h->program);
    return NULL;
}

static void ahead_start(host *h) {
    sigset_t all, old;
    if (!h->ahead || h->images.fd < 0) return;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    h->ahead_started = pthread_create(&h->ahead_thread, NULL, ahead_main, h) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void ahead_join(host *h) {
    if (h->ahead_started) pthread_join(h->ahead_thread, NULL);
    h->ahead_started = 0;
}

/* The store entry a probed path names: "System.Runtime.dll", "fr/App.resources.dll",
   "<store>/PROGRAM.dll", or, relative to the bundle's directory, "<store file name>/PROGRAM.dll".
 */
static const char *probe_name(const host *h, const char *path) {
    size_t full = h->store_path_len, base = h->store_base_len;
    if (!strncmp(path, h->store_path, full) && path[full] == '/') return path + full + 1;
    if (!strncmp(path, h->store_base, base) && path[base] == '/') return path + base + 1;
    return path;
}

/* Looks the path up and serves it (h->lock taken here); counts what both doors decline. */
static served *probe_lookup(host *h, const char *name, int count_declined, asmstore_result *found) {
    asmstore_entry e;
    served *s = NULL;
    *found = asmstore_reader_find(&h->reader, name, strlen(name), &e, NULL);
    pthread_mutex_lock(&h->lock);
    h->probes++;
    if (*found == ASMSTORE_OK)
        s = serve(h, &e);
    else if (count_declined && *found == ASMSTORE_ERR_IGNORED)
        h->placeholders++;
    else if (count_declined)
        h->not_found++;
    if (!strcmp(name, CORELIB) && (s || count_declined)) h->corelib = s ? 1 : -1;
    pthread_mutex_unlock(&h->lock);
    return s;
}

static void probe_log(const host *h, const char *door_name, const char *name, const served *s,
                      asmstore_result found) {
    if (!h->verbose) return;
    if (s)
        fprintf(stderr, "coreclr_host: probe %s: store, %s, %zu bytes, %s\n", name,
                asmstore_cache_source_name(s->source), s->size, door_name);
    else
        fprintf(stderr, "coreclr_host: probe %s: declined (%s)\n", name,
                found == ASMSTORE_ERR_IGNORED ? "placeholder"
                : found == ASMSTORE_OK        ? "unreadable"
                                              : "not in the store");
}

/* host_runtime_contract.bundle_probe: the image's offset and size in the bundle file, for images
   stored there uncompressed; everything else is declined here and asked of the external probe next.
 */
static bool bundle_probe(const char *path, int64_t *offset, int64_t *size,
                         int64_t *compressed_size) {
    host *h = the_host;
    const char *name = probe_name(h, path);
    asmstore_result found;
    served *s = probe_lookup(h, name, 0, &found);
    if (!s || s->door != DOOR_BUNDLE) return false;
    probe_log(h, "bundle door", name, s, found);
    *offset = (int64_t)s->offset;
    *size = (int64_t)s->size;
    *compressed_size = 0;
    if (s->image.source == ASMSTORE_CACHE_HIT)
        asmstore_cache_release(&s->image); /* the runtime maps the pack itself */
    return true;
}

/* host_runtime_contract.external_assembly_probe: the image's bytes, in place. */
static bool store_probe(const char *path, void **data_start, int64_t *size) {
    host *h = the_host;
    const char *name = probe_name(h, path);
    asmstore_result found;
    served *s = probe_lookup(h, name, 1, &found);
    if (s && s->door == DOOR_BUNDLE)
        s = NULL; /* already mapped through the bundle door: not asked again */
    probe_log(h, "external door", name, s, found);
    if (!s) return false;
    *data_start = (void *)(uintptr_t)s->image.data;
    *size = (int64_t)s->image.size;
    return true;
}

/* >>the anchor: trusted platform assemblies ---------------------------------------------------- */

/* Appends the path of every .dll in dir to *list (':'-separated). */
static int tpa_add_dir(char **list, size_t *len, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *de;
    if (!d) {
        perror(dir);
        return 0;
    }
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name), add = strlen(dir) + 1 + n + 1;
        char *grown;
        if (n < 5 || strcmp(de->d_name + n - 4, ".dll") != 0) continue;
        if (!(grown = (char *)realloc(*list, *len + add + 1))) {
            closedir(d);
            return 0;
        }
        *list = grown;
        *len +=
            (size_t)snprintf(*list + *len, add + 1, "%s%s/%s", *len ? ":" : "", dir, de->d_name);
    }
    closedir(d);
    return 1;
}

/* >>running ------------------------------------------------------------------------------------ */

typedef struct run_times {
    double start, loaded, initialized, ended;
} run_times;

/* coreclr_initialize with the given properties and exe_path (NULL: this executable), then
   Main(ARGS) of `entry`; the private directory goes after Main. Returns the exit code (Main's, or 1
   when the runtime failed). */
static int run_program(runtime *rt, const char *exe_path, const char **keys, const char **values,
                       int n, const char *entry, int argc, const char **argv, run_times *t,
                       host_phases *ph) {
    char exe[PATH_MAX];
    void *handle = NULL;
    unsigned domain = 0, exit_code = 1;
    int hr, latched = 0;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = 0;
    if (rt->api.set_error_writer) rt->api.set_error_writer(runtime_error_writer);
    host_phases_threads(ph);
    hr = rt->api.initialize(exe_path ? exe_path : exe, "coreclr_host", n, keys, values, &handle,
                            &domain);
    t->initialized = now_us();
    host_phases_mark(ph, MARK_INITIALIZED);
    if (hr < 0) {
        fprintf(stderr, "coreclr_host: coreclr_initialize failed: 0x%08x\n", (unsigned)hr);
        t->ended = t->initialized;
        runtime_remove_private(rt);
        return 1;
    }
    hr = rt->api.execute_assembly(handle, domain, argc, argv, entry, &exit_code);
    host_phases_mark(ph, MARK_MAIN);
    fflush(stdout);
    host_memory_report(); /* ASMSTORE_HOST_MEMORY=1: make bench's memory after Main */
    t->ended = now_us();
    runtime_remove_private(rt);
    if (hr < 0) {
        fprintf(stderr, "coreclr_host: coreclr_execute_assembly(%s) failed: 0x%08x\n", entry,
                (unsigned)hr);
        exit_code = 1;
    }
    rt->api.shutdown_2(handle, domain, &latched);
    return (int)exit_code;
}

/* What a run from the store says on stderr: where CoreLib came from (1, and nothing else, when it
   did not come from the store), then what was served through which door and the times. */
static int report_store_run(const host *h, const runtime *rt, const run_times *t, int rc) {
    if (h->corelib != 1) {
        fprintf(stderr, "coreclr_host: %s did not come from the store: %s\n", CORELIB,
                h->corelib < 0
                    ? "the store lacks it or it could not be read (the runtime's message is above)"
                : strverscmp(rt->version, "10") < 0
                    ? "this runtime never asked the external assembly probe (host_runtime_contract "
                      "has it from .NET 10 on)"
                    : "the runtime never asked the probes for it");
        return rc ? rc : 1;
    }
    fprintf(stderr,
            "coreclr_host: %u assemblies served from the store, %s included (%u hits, %u misses, "
            "%u direct (used in place), "
            "%u copied to %u-byte alignment); doors: %u bundle, %u external (bundle file: %s); "
            "%u probes declined (%u .ni.dll placeholders, %u not in the store, %u unreadable); "
            "runtime %s: "
            "store + runtime load %.0f us, coreclr_initialize %.0f us, run %.0f us; cache get %.0f "
            "us\n",
            h->served_count, CORELIB, h->hits, h->misses, h->direct, h->copied, CLR_MIN_ALIGNMENT,
            h->via_bundle, h->via_external,
            h->external_only      ? "none, --external-only"
            : h->bundle.is_pack   ? "the cache's pack"
            : h->bundle.is_images ? "this start's images, decompressed into memory"
                                  : "the store",
            h->placeholders + h->not_found + h->failures, h->placeholders, h->not_found,
            h->failures, rt->version, t->loaded - t->start, t->initialized - t->loaded,
            t->ended - t->initialized, h->get_us);
    return rc;
}

/* What the runtime is told about the store: the contract (both doors, or the external one alone),
   no trusted file, the runtime's native libraries, the store's directory as the app's. */
static int run_from_store(host *h, runtime *rt, const char *program, int argc, const char **argv,
                          double t0) {
    host_runtime_contract contract;
    char contract_ptr[32], native_dirs[PATH_MAX + 2], base_dir[PATH_MAX + 2], entry[2 * PATH_MAX];
    const char *keys[] = {"HOST_RUNTIME_CONTRACT", "TRUSTED_PLATFORM_ASSEMBLIES",
                          "NATIVE_DLL_SEARCH_DIRECTORIES", "APP_CONTEXT_BASE_DIRECTORY"};
    const char *values[4];
    char *slash;
    run_times t;
    int rc;

    memset(&contract, 0, sizeof contract);
    contract.size = sizeof contract;
    contract.bundle_probe = h->bundle.path[0] ? bundle_probe : NULL;
    contract.external_assembly_probe = store_probe;
    the_host = h;
    snprintf(contract_ptr, sizeof contract_ptr, "0x%zx", (size_t)(uintptr_t)&contract);
    snprintf(native_dirs, sizeof native_dirs, "%s/", rt->dir);
    snprintf(base_dir, sizeof base_dir, "%s", h->store_path);
    if ((slash = strrchr(base_dir, '/')) != NULL) slash[1] = 0;
    join_path(entry, sizeof entry,
              h->bundle.is_pack || h->bundle.is_images ? PROC_FD_DIR : h->store_path, program);
    values[0] = contract_ptr;
    values[1] = ""; /* no file is trusted: every assembly comes through a probe */
    values[2] = native_dirs;
    values[3] = base_dir;

    ahead_join(h); /* no thread of ours lives during coreclr_initialize */
    host_phases_mark(&h->phases, MARK_LOADED);
    t.start = t0;
    t.loaded = now_us();
    rc = run_program(rt, h->bundle.path[0] ? h->bundle.path : NULL, keys, values, 4, entry, argc,
                     argv, &t, &h->phases);
    images_put_all(h);
    /* a short-lived process waits for the writer, so the next run hits */
    asmstore_cache_flush(h->cache);
    host_phases_mark(&h->phases, MARK_END);
    host_phases_report(&h->phases);

    return report_store_run(h, rt, &t, rc);
}

static int run_from_files(runtime *rt, const char *tpa_dir, const char *program, int argc,
                          const char **argv, double t0) {
    char path[PATH_MAX], tpa_real[PATH_MAX], app_dir[PATH_MAX + 2], native_dirs[PATH_MAX + 2],
        *slash, *tpa = NULL;
    const char *keys[] = {"TRUSTED_PLATFORM_ASSEMBLIES", "NATIVE_DLL_SEARCH_DIRECTORIES",
                          "APP_CONTEXT_BASE_DIRECTORY"};
    const char *values[3];
    size_t len = 0;
    run_times t;
    host_phases ph;
    int rc;
    memset(&ph, 0, sizeof ph);
    if (!realpath(program, path)) {
        perror(program);
        return 1;
    }
    if (!realpath(tpa_dir, tpa_real)) {
        perror(tpa_dir);
        return 1;
    }
    tpa_dir = tpa_real; /* the runtime takes absolute paths only */
    snprintf(app_dir, sizeof app_dir, "%s", path);
    if ((slash = strrchr(app_dir, '/')) != NULL) *slash = 0;
    if (!tpa_add_dir(&tpa, &len, tpa_dir) || !tpa_add_dir(&tpa, &len, app_dir)) {
        free(tpa);
        return 1;
    }
    snprintf(native_dirs, sizeof native_dirs, "%s/", rt->dir);
    strcat(app_dir, "/");
    values[0] = tpa;
    values[1] = native_dirs;
    values[2] = app_dir;
    host_phases_mark(&ph, MARK_OPEN);
    host_phases_mark(&ph, MARK_LOADED);
    t.start = t0;
    t.loaded = now_us();
    rc = run_program(rt, NULL, keys, values, 3, path, argc, argv, &t, &ph);
    host_phases_mark(&ph, MARK_END);
    host_phases_report(&ph);
    fprintf(stderr,
            "coreclr_host: started from files (TPA: %s/*.dll + %s*.dll); runtime %s: runtime load "
            "%.0f us, "
            "coreclr_initialize %.0f us, run %.0f us\n",
            tpa_dir, app_dir, rt->version, t.loaded - t.start, t.initialized - t.loaded,
            t.ended - t.initialized);
    free(tpa);
    return rc;
}

static const char usage[] =
    "usage: coreclr_host [-v] [--runtime DIR] [--cache DIR] [--external-only] STORE.so PROGRAM.dll "
    "[ARGS...]\n"
    "       coreclr_host [-v] [--runtime DIR] --tpa DIR PROGRAM.dll [ARGS...]\n";

/* The options before STORE.so: the index of the first argument after them, or -1 after --help. */
static int parse_options(int argc, char **argv, host *h, const char **cache_dir,
                         const char **tpa_dir, const char **runtime_dir) {
    int argi = 1;

    for (; argi < argc && argv[argi][0] == '-'; argi++) {
        if (!strcmp(argv[argi], "-v"))
            h->verbose = 1;
        else if (!strcmp(argv[argi], "--external-only"))
            h->external_only = 1;
        else if (!strcmp(argv[argi], "--help")) {
            fputs(usage, stdout);
            return -1;
        } else if (!strcmp(argv[argi], "--cache") && argi + 1 < argc)
            *cache_dir = argv[++argi];
        else if (!strcmp(argv[argi], "--tpa") && argi + 1 < argc)
            *tpa_dir = argv[++argi];
        else if (!strcmp(argv[argi], "--runtime") && argi + 1 < argc)
            *runtime_dir = argv[++argi];
        else
            break;
    }
    return argi;
}

int main(int argc, char **argv) {
    static host h; /* static: the probe reaches it for the process's life */
    runtime rt;
    const char *cache_dir = NULL, *tpa_dir = NULL, *runtime_dir = NULL;
    char default_dir[PATH_MAX];
    int argi;
    double t0 = now_us();

    memset(&rt, 0, sizeof rt);
    argi = parse_options(argc, argv, &h, &cache_dir, &tpa_dir, &runtime_dir);
    if (argi < 0) return 0; /* --help */
    if (argc - argi < (tpa_dir ? 1 : 2)) {
        fputs(usage, stderr);
        return 2;
    }
    signal(SIGXFSZ, SIG_IGN);
    if (!runtime_find(&rt, runtime_dir)) return 1;

    if (tpa_dir) {
        if (!runtime_load_installed(&rt)) return 1;
        return run_from_files(&rt, tpa_dir, argv[argi], argc - argi - 1,
                              (const char **)argv + argi + 1, t0);
    }
    if (!cache_dir) {
        default_cache_dir(default_dir, sizeof default_dir);
        cache_dir = default_dir;
    }
    h.images.fd = -1;
    h.images.scratch = scratch_from_env();
    h.into_file = env_on("ASMSTORE_HOST_INTO_FILE", 1);
    h.ahead = env_on("ASMSTORE_HOST_AHEAD", 0);
    h.put_after_main = env_on("ASMSTORE_HOST_PUT_AFTER_MAIN", 1);
    h.program = argv[argi + 1];
    if (store_open(&h, argv[argi], cache_dir)) {
        bundle_choose(&h, h.program);
        host_phases_mark(&h.phases, MARK_OPEN);
        ahead_start(&h); /* decompresses while the runtime loads */
    }
    if (!h.cache || !runtime_load_bare(&rt, cache_dir)) {
        ahead_join(&h);
        runtime_remove_private(&rt);
        store_close(&h);
        return 1;
    }
    /* No store_close after a start: the runtime's threads outlive coreclr_shutdown_2 and still read
       the images it was given (unmapping them crashed a thread in about one start of eight under
       strace -f); they go with the process. */
    return run_from_store(&h, &rt, argv[argi + 1], argc - argi - 2, (const char **)argv + argi + 2,
                          t0);
}
