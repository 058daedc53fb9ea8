/* cli_write.c - the asmstore commands that write: pack (a store as a release writes it), wrap (any
   file into a .so), elfcheck (bionic's loader rules over what was written). */
#include "cli.h"
#include "cli_commands.h"
#include "cli_os.h"
#include "cli_r2r.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* For an APK: the ABIs whose store entry exists (usable or not), in arm64, arm, x86_64, x86 order.
   Returns their count, 0 when path is not a ZIP. */
static int cli_apk_abis(const char *path, asmstore_abi *out) {
    const unsigned char *p;
    size_t size;
    int n = 0, a, zip;

    if (cli_map_file(path, &p, &size) != 0)
        return 0;
    zip = size >= 4 && p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4;
    cli_unmap_file(p, size);
    if (!zip)
        return 0;
    for (a = 1; a <= 4; a++) {
        asmstore_locator l;
        asmstore_result r = asmstore_locate_apk(&l, path, (asmstore_abi)a, NULL, NULL);

        if (r != ASMSTORE_ERR_NOT_FOUND && r != ASMSTORE_ERR_BAD_ZIP)
            out[n++] = (asmstore_abi)a;
        asmstore_locator_close(&l);
    }
    return n;
}

/* >>pack --------------------------------------------------------------------------------------- */
/* abi: UNKNOWN for ordinary inputs; format 1's arch entries (--arch ABI PATH) carry their ABI */
/* one input: its name in the store, its path, and its image, pdb and config once mapped
   (pack_map_item) */
typedef struct pack_item {
    char *name, *path;
    asmstore_abi abi;
    int uncompressed; /* --keep-uncompressed named it */
    const unsigned char *bytes[3];
    size_t sizes[3];
    unsigned read_mask; /* bit k: bytes[k] was read into memory (the mappings ran out), not mapped */
} pack_item;
#define PACK_READ_BELOW (64 * 1024) /* inputs smaller than this are read, not mapped */
typedef struct pack_list {
    pack_item *items;
    size_t n, cap;
    asmstore_abi abi; /* of the items pushed now */
} pack_list;

static int has_suffix(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);

    return a >= b && !strcmp(s + a - b, suf);
}

static int pack_push(pack_list *l, const char *name, const char *path) {
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        pack_item *ni = (pack_item *)realloc(l->items, nc * sizeof *ni);

        if (!ni)
            return -1;
        l->items = ni;
        l->cap = nc;
    }
    memset(&l->items[l->n], 0, sizeof l->items[l->n]);
    l->items[l->n].name = strdup(name);
    l->items[l->n].path = strdup(path);
    l->items[l->n].abi = l->abi;
    if (!l->items[l->n].name || !l->items[l->n].path)
        return -1;
    l->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the regular files (symlinks followed) in dir that pass keep(), NULL-terminated.
   */
static char **list_dir(const char *dir, int (*keep)(const char *), size_t *count) {
    DIR *d = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t n = 0, cap = 0;

    *count = 0;
    if (!d)
        return NULL;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || (keep && !keep(de->d_name)))
            continue;
        if (n + 1 >= cap) {
            char **nv;

            cap = cap ? cap * 2 : 64;
            nv = (char **)realloc(v, cap * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (v) {
        qsort(v, n, sizeof *v, cmp_str);
        v[n] = NULL;
    }
    *count = n;
    return v;
}

static void free_list(char **v, size_t n) {
    size_t i;

    for (i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int is_satellite(const char *name) {
    return has_suffix(name, ".resources.dll");
}

/* DIR: every .dll in it (what a .NET for Android store holds; name .exe files explicitly), plus
   culture/X.resources.dll satellites one level down. */
static int pack_collect_dir(pack_list *l, const char *dir) {
    size_t n, i, m, j;
    char **v = list_dir(dir, NULL, &n);
    char path[PATH_MAX];
    struct stat st;

    if (!v) {
        cli_fail_errno(dir, "list the directory");
        return -1;
    }
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, v[i]);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISREG(st.st_mode) && has_suffix(v[i], ".dll")) {
            if (pack_push(l, v[i], path))
                return -1;
        } else if (S_ISDIR(st.st_mode)) {
            char **sv = list_dir(path, is_satellite, &m);

            for (j = 0; sv && j < m; j++) {
                char name[PATH_MAX], spath[PATH_MAX + NAME_MAX + 2];

                snprintf(name, sizeof name, "%s/%s", v[i], sv[j]);
                snprintf(spath, sizeof spath, "%s/%s", path, sv[j]);
                if (pack_push(l, name, spath))
                    return -1;
            }
            if (sv)
                free_list(sv, m);
        }
    }
    free_list(v, n);
    return 0;
}

/* Path of a companion file if it exists: Foo.dll -> Foo.pdb / Foo.dll.config. */
static char *companion(const char *path, int pdb) {
    char buf[PATH_MAX];
    struct stat st;

    if (pdb) {
        snprintf(buf, sizeof buf, "%.*s.pdb", (int)asmstore_name_base_len(path, strlen(path)),
                 path);
    } else {
        snprintf(buf, sizeof buf, "%s.config", path);
    }
    return (stat(buf, &st) == 0 && S_ISREG(st.st_mode)) ? strdup(buf) : NULL;
}

static void show_progress(void *user, size_t done, size_t total) {
    (void)user;
    fprintf(stderr, "\rcompressing %zu/%zu", done, total);
    if (done == total)
        fputc('\n', stderr);
}

/* --template's file: its bytes (eo->stub points into them) and its path, named when it is what
   failed. */
typedef struct wrap_template {
    void *data;
    const char *path;
} wrap_template;

/* The options of pack and wrap, and their keys. */
enum {
    OPT_TARGET = 256,
    OPT_RUNTIME,
    OPT_ABI,
    OPT_FORMAT,
    OPT_HASH,
    OPT_COMPRESSION,
    OPT_NO_COMPRESS,
    OPT_LEVEL,
    OPT_ALIGN_IMAGES,
    OPT_JOBS,
    OPT_KEEP,
    OPT_PDB,
    OPT_RAW,
    OPT_WRAP,
    OPT_MODE,
    OPT_TEMPLATE,
    OPT_SYMBOL,
    OPT_SONAME,
    OPT_ALIGN,
    OPT_ARCH,
    OPT_NO_CHECK,
    OPT_JSON
};
#define OPTION_ABI {"abi", OPT_ABI, 1, "arm64|arm|x86_64|x86"}
#define OPTIONS_ELF                                                                               \
    {"template", OPT_TEMPLATE, 1, "STUB.so"}, {"symbol", OPT_SYMBOL, 1, "NAME"},                  \
        {"soname", OPT_SONAME, 1, "NAME"}, {"align", OPT_ALIGN, 1, "N"}
const cli_option cli_pack_options[] = {{"output", 'o', 1, "OUT"},
                                       {"target", OPT_TARGET, 1,
                                        "net8|net9|net10|net11|net11-preview|net12"},
                                       {"runtime", OPT_RUNTIME, 1, "coreclr|monovm"},
                                       OPTION_ABI,
                                       {"format", OPT_FORMAT, 1, "1|2|3|4"},
                                       {"hash", OPT_HASH, 1, "crc32|xxhash"},
                                       {"compression", OPT_COMPRESSION, 1, "zstd|lz4|none"},
                                       {"no-compress", OPT_NO_COMPRESS, 0, NULL},
                                       {"level", OPT_LEVEL, 1, "N"},
                                       {"align-images", OPT_ALIGN_IMAGES, 1, "N"},
                                       {"jobs", OPT_JOBS, 1, "N"},
                                       {"keep-uncompressed", OPT_KEEP, 1, "NAME"},
                                       {"pdb", OPT_PDB, 0, NULL},
                                       {"raw", OPT_RAW, 0, NULL},
                                       {"wrap", OPT_WRAP, 1, "dlopen|section"},
                                       {"mode", OPT_MODE, 1, "dlopen|section"},
                                       OPTIONS_ELF,
                                       {"arch", OPT_ARCH, 2, "ABI FILE|DIR"},
                                       {"no-check", OPT_NO_CHECK, 0, NULL},
                                       {"json", OPT_JSON, 0, NULL},
                                       CLI_OPTIONS_END};
const cli_option cli_wrap_options[] = {{"output", 'o', 1, "OUT.so"},
                                       OPTION_ABI,
                                       {"mode", OPT_MODE, 1, "dlopen|section"},
                                       {"wrap", OPT_WRAP, 1, "dlopen|section"},
                                       OPTIONS_ELF,
                                       CLI_OPTIONS_END};
const cli_option cli_elfcheck_options[] = {OPTION_ABI, {"symbol", OPT_SYMBOL, 1, "NAME"},
                                           {"json", OPT_JSON, 0, NULL}, CLI_OPTIONS_END};

/* Shared by pack and wrap: --wrap/--mode, --template, --symbol, --soname, --align VALUE. Returns 1
   when key is one of them, 0 when not, -1 on a bad value (said). */
static int elf_option(int key, const char *v, asmstore_elf_options *eo, wrap_template *tpl) {
    asmstore_result res;

    switch (key) {
    case OPT_WRAP:
    case OPT_MODE:
        if (strcmp(v, "dlopen") != 0 && strcmp(v, "section") != 0) {
            cli_error("unknown wrapper mode %s (dlopen or section)", v);
            return -1;
        }
        eo->mode = v[0] == 'd' ? ASMSTORE_ELF_MODE_DLOPEN : ASMSTORE_ELF_MODE_SECTION;
        return 1;
    case OPT_TEMPLATE:
        free(tpl->data);
        tpl->data = NULL;
        res = asmstore_read_file(v, NULL, &tpl->data, &eo->stub_size, NULL);
        if (res != ASMSTORE_OK) {
            cli_fail_read(v, res);
            return -1;
        }
        eo->stub = tpl->data;
        tpl->path = v;
        eo->mode = ASMSTORE_ELF_MODE_TEMPLATE;
        return 1;
    case OPT_SYMBOL: eo->symbol = v; return 1;
    case OPT_SONAME: eo->soname = v; return 1;
    case OPT_ALIGN: eo->alignment = (size_t)strtoull(v, NULL, 0); return 1;
    default: return 0;
    }
}

/* Writes payload as a .so per eo, or raw when raw is set; reports on stderr, naming the template
   when its bytes are what the generator refused. */
static int write_output(const char *out, const asmstore_elf_options *eo, const char *template_path,
                        int raw, const void *data, size_t size) {
    asmstore_error err;
    asmstore_result res = raw ? asmstore_write_file(out, data, size, 0644, &err)
                              : asmstore_elf_write_file(out, eo, data, size, 0644, &err);
    int stub_refused = eo->mode == ASMSTORE_ELF_MODE_TEMPLATE && template_path &&
                       (res == ASMSTORE_ERR_BAD_ELF || res == ASMSTORE_ERR_UNSUPPORTED ||
                        res == ASMSTORE_ERR_ABI_MISMATCH);

    if (res == ASMSTORE_OK)
        return 0;
    if (res == ASMSTORE_ERR_IO)
        return cli_fail_errno(out, "write it");
    return cli_fail(stub_refused ? template_path : out, res, &err);
}

/* One FILE|DIR argument: a directory adds its assemblies (pack_collect_dir), a file itself. */
static int pack_input(pack_list *l, const char *arg) {
    struct stat st;
    const char *base = strrchr(arg, '/');

    if (stat(arg, &st) != 0) {
        cli_fail_errno(arg, "add it (an assembly or a directory of them)");
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return pack_collect_dir(l, arg);
    return pack_push(l, base ? base + 1 : arg, arg);
}

/* What pack's flags asked for; 0 / NULL: the preset's choice. */
typedef struct pack_args {
    const char *out;
    asmstore_target target;
    int runtime; /* -1: the target's default */
    asmstore_abi abi; /* the first --abi (UNKNOWN: none given) */
    asmstore_abi abis[4]; /* every --abi, in the order given (--abi a,b,...: one store each) */
    size_t nabis;
    uint32_t format;
    const char *hash, *compression;
    int level, jobs, with_pdb, raw, wrap_set, no_check, json;
    size_t align_images;
    const char **keep; /* --keep-uncompressed NAMEs (argv's strings) */
    size_t nkeep;
} pack_args;

/* --target, --runtime, --format, --hash, --compression VALUE: 1 taken, 0 not one of them, -1 a bad
   value (said). */
static int pack_choice_option(int key, const char *v, pack_args *a) {
    if (key == OPT_TARGET) {
        a->target = asmstore_target_parse(v);
        if (a->target)
            return 1;
        cli_error("unknown target %s (net8, net9, net10, net11, net11-preview, net12)", v);
    } else if (key == OPT_RUNTIME) {
        a->runtime = !strcmp(v, "coreclr")  ? ASMSTORE_RUNTIME_CORECLR
                     : !strcmp(v, "monovm") ? ASMSTORE_RUNTIME_MONOVM
                                            : -1;
        if (a->runtime >= 0)
            return 1;
        cli_error("unknown runtime %s (coreclr or monovm)", v);
    } else if (key == OPT_FORMAT) {
        a->format = (uint32_t)atoi(v);
        if (a->format >= 1 && a->format <= 4)
            return 1;
        cli_error("format must be 1, 2, 3 or 4");
    } else if (key == OPT_HASH) {
        a->hash = v;
        if (!strcmp(v, "crc32") || !strcmp(v, "xxhash"))
            return 1;
        cli_error("hash must be crc32 or xxhash");
    } else if (key == OPT_COMPRESSION) {
        a->compression = v;
        if (!strcmp(v, "zstd") || !strcmp(v, "lz4") || !strcmp(v, "none"))
            return 1;
        cli_error("compression must be zstd, lz4 or none");
    } else {
        return 0;
    }
    return -1;
}

/* --abi A[,B...]: one store per ABI, each named once. 1, or -1 after saying why. */
static int pack_abi_list(const char *v, pack_args *a) {
    char one[32];
    size_t k;

    for (a->nabis = 0;; v++) {
        size_t len = strcspn(v, ",");
        asmstore_abi abi;

        if (!len) {
            cli_error("--abi needs an ABI (arm64, arm, x86_64, x86) or a list such as arm64,x86_64");
            return -1;
        }
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), v);
        if (cli_abi_option("--abi", one, &abi))
            return -1;
        for (k = 0; k < a->nabis && a->abis[k] != abi; k++) {
        }
        if (k < a->nabis) {
            cli_error("--abi %s: ABI given twice (give each of arm64, arm, x86_64, x86 once)", one);
            return -1;
        }
        a->abis[a->nabis++] = abi; /* at most 4: a fifth repeats one */
        v += len;
        if (!*v)
            break;
    }
    a->abi = a->abis[0];
    return 1;
}

/* --abi, --level, --jobs, --align-images, --keep-uncompressed VALUE: as pack_choice_option. */
static int pack_value_option(int key, const char *v, int argc, pack_args *a) {
    if (key == OPT_ABI)
        return pack_abi_list(v, a);
    if (key == OPT_LEVEL)
        return cli_int_option("--level", v, 1, &a->level) ? -1 : 1;
    if (key == OPT_JOBS)
        return cli_int_option("--jobs", v, 1, &a->jobs) ? -1 : 1;
    if (key == OPT_ALIGN_IMAGES) {
        char *end;
        unsigned long long n = strtoull(v, &end, 0);

        a->align_images = (size_t)n;
        if (!*end && n >= 1 && n <= 16384 && !(n & (n - 1)))
            return 1;
        cli_error("--align-images takes a power of two, 1 .. 16384");
        return -1;
    }
    if (key == OPT_KEEP) {
        if (!a->keep)
            a->keep = (const char **)malloc((size_t)argc * sizeof *a->keep);
        if (!a->keep) {
            cli_error_result(ASMSTORE_ERR_OUT_OF_MEMORY, "out of memory");
            return -1;
        }
        a->keep[a->nkeep++] = v;
        return 1;
    }
    return 0;
}

/* --arch ABI PATH (format 1): PATH goes into that ABI's arch store. 0, or 2 after saying why. */
static int pack_arch_input(pack_list *l, const char *abi_name, const char *path) {
    asmstore_abi abi;

    if (cli_abi_option("--arch", abi_name, &abi))
        return 2;
    l->abi = abi;
    if (pack_input(l, path))
        return 2;
    l->abi = ASMSTORE_ABI_UNKNOWN;
    return 0;
}

/* Parses pack's command line into a, eo (wrapper flags) and l (inputs). Returns 0 or an exit code.
   */
static int pack_parse(int argc, char **argv, pack_args *a, asmstore_elf_options *eo,
                      wrap_template *tpl, pack_list *l) {
    cli_parser p;
    int key, taken;

    cli_parse_begin(&p, argc, argv, cli_pack_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        a->wrap_set |= key == OPT_WRAP || key == OPT_MODE || key == OPT_TEMPLATE;
        taken = elf_option(key, p.value, eo, tpl);
        if (taken == 0)
            taken = pack_choice_option(key, p.value, a);
        if (taken == 0)
            taken = pack_value_option(key, p.value, argc, a);
        if (taken < 0)
            return 2;
        if (taken)
            continue;
        switch (key) {
        case 'o': a->out = p.value; break;
        case OPT_NO_COMPRESS: a->compression = "none"; break;
        case OPT_PDB: a->with_pdb = 1; break;
        case OPT_NO_CHECK: a->no_check = 1; break;
        case OPT_JSON: a->json = 1; break;
        case OPT_RAW: a->raw = 1; break;
        case OPT_ARCH:
            if (pack_arch_input(l, p.value, p.value2))
                return 2;
            break;
        case CLI_OPERAND:
            if (pack_input(l, p.value))
                return 2;
            break;
        default: return 2; /* CLI_BAD, said */
        }
    }
    if (a->out && l->n)
        return 0;
    cli_usage();
    return 2;
}

/* the image base page-aligned, as a file's is on 4 KiB kernels */
#define PACK_CORECLR_ALIGNMENT 4096u

/* Where images start. CoreCLR maps an uncompressed image in place through its bundle_probe door and
   crashes on one at an odd offset, so those get PACK_CORECLR_ALIGNMENT unless --align-images says
   otherwise (1 still reproduces a release's back-to-back layout, with a warning). */
static void pack_alignment(const pack_args *a, asmstore_write_options *o) {
    int clr_in_place = o->runtime == ASMSTORE_RUNTIME_CORECLR && (o->no_compress || a->nkeep);

    if (a->align_images)
        o->image_alignment = a->align_images;
    else if (clr_in_place)
        o->image_alignment = PACK_CORECLR_ALIGNMENT;
    /* uncompressed without an explicit --target: no release's bytes to match, so images get the
       writer's default alignment (16), which runtimes can use in place */
    else if (o->no_compress && !a->target)
        o->image_alignment = 0;
    if (clr_in_place && o->image_alignment == 1)
        fprintf(stderr,
                "asmstore: warning: --align-images 1 lets uncompressed images start at odd "
                "offsets, which "
                "CoreCLR's bundle_probe door cannot map (the runtime crashes); leave "
                "--align-images out "
                "(%u) or give 16 or more, unless you need a release's back-to-back layout\n",
                PACK_CORECLR_ALIGNMENT);
}

/* The write options of the store for abi: the preset for --target/--runtime/abi (default net11
   coreclr arm64), then every explicit flag over its part. Returns 0 or an exit code. */
static int pack_options(const pack_args *a, asmstore_abi abi, asmstore_write_options *o,
                        asmstore_preset *info) {
    asmstore_target target = a->target ? a->target : ASMSTORE_TARGET_NET11;

    /* no --runtime: the release's default (MonoVM through .NET 10, CoreCLR from 11) */
    asmstore_runtime rt = a->runtime >= 0                   ? (asmstore_runtime)a->runtime
                          : target <= ASMSTORE_TARGET_NET10 ? ASMSTORE_RUNTIME_MONOVM
                                                            : ASMSTORE_RUNTIME_CORECLR;
    asmstore_compression preset_kind;
    int max_level;
    if (asmstore_write_options_preset(o, target, rt, abi, info, NULL) != ASMSTORE_OK) {
        cli_error("no %s store exists for %s (coreclr stores start with net10; net12 has only "
                  "coreclr)",
                  rt == ASMSTORE_RUNTIME_CORECLR ? "coreclr" : "monovm",
                  asmstore_target_name(target));
        return 2;
    }
    preset_kind = o->compression;
    if (a->format)
        o->format = a->format;
    if (o->format == 1)
        o->hash = ASMSTORE_HASH_UNKNOWN; /* its tables are XXH32 + XXH64 */
    if (a->hash) {
        if (o->format == 1) {
            cli_error("format 1 always holds XXH32 and XXH64 tables (no --hash)");
            return 2;
        }
        o->hash = !strcmp(a->hash, "crc32")       ? ASMSTORE_HASH_CRC32
                  : asmstore_abi_is_64bit(o->abi) ? ASMSTORE_HASH_XXH3_64
                                                  : ASMSTORE_HASH_XXH32;
    }
    if (a->compression) {
        o->no_compress = !strcmp(a->compression, "none");
        if (!o->no_compress)
            o->compression = !strcmp(a->compression, "lz4") ? ASMSTORE_COMPRESSION_LZ4
                                                            : ASMSTORE_COMPRESSION_ZSTD;
        if (o->compression != preset_kind)
            o->level = 0; /* the kind's own default: zstd 3, LZ4 HC 12 */
    }
    max_level = asmstore_compression_level_max(o->compression);
    if (a->level > max_level) {
        cli_error("level must be 1..%d for %s", max_level,
                  o->compression == ASMSTORE_COMPRESSION_LZ4 ? "LZ4 HC" : "zstd");
        return 2;
    }
    if (a->level)
        o->level = a->level;
    if (a->jobs)
        o->jobs = a->jobs;
    pack_alignment(a, o);
    o->compress = cli_compress;
    return 0;
}

/* Marks the inputs each --keep-uncompressed NAME (a name or an fnmatch pattern) matches; a NAME
   that matches none is a usage error (exit 2). */
static int pack_mark_kept(pack_list *l, const pack_args *a) {
    size_t k, i;

    for (k = 0; k < a->nkeep; k++) {
        size_t matched = 0;

        for (i = 0; i < l->n; i++) {
            if (cli_os_fnmatch(a->keep[k], l->items[i].name) != 0)
                continue;
            l->items[i].uncompressed = 1;
            matched++;
        }
        if (matched)
            continue;
        cli_error("--keep-uncompressed %s: no input is stored under that name; give an "
                  "entry name as "
                  "the store lists it (e.g. %s) or a pattern such as '*.r2r.dll'",
                  a->keep[k], l->items[0].name);
        return 2;
    }
    return 0;
}

/* OUT, or OUT/<file name> when OUT is a directory (or ends with '/'). */
static void pack_out_path(const char *out, const char *file_name, char *buf, size_t cap) {
    struct stat st;
    size_t n = strlen(out);

    if ((n && out[n - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)))
        snprintf(buf, cap, "%s%s%s", out, n && out[n - 1] == '/' ? "" : "/", file_name);
    else
        snprintf(buf, cap, "%s", out);
}

/* The directory OUT goes into (OUT itself when it is one or ends with '/') is there and takes
   files: checked before any work, so a mistyped -o costs nothing. 0, or 2 after naming it. */
static int pack_check_out(const char *out) {
    char dir[PATH_MAX];
    const char *slash = strrchr(out, '/');
    struct stat st;
    size_t n = strlen(out);

    if ((n && out[n - 1] == '/') || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)))
        snprintf(dir, sizeof dir, "%s", out);
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == out ? 1 : (int)(slash - out), out);
    else
        snprintf(dir, sizeof dir, ".");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cli_error("-o %s: the directory %s is not there (create it first, or give "
                  "-o a path in an existing directory)",
                  out, dir);
        return 2;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        cli_error("-o %s: cannot write into the directory %s: %s (check its "
                  "permissions, or give -o another directory)",
                  out, dir, strerror(errno));
        return 2;
    }
    return 0;
}

/* pack --json: one written file, as its "files" item. */
static void pack_json_file(const char *path, size_t size) {
    if (!cli_json_on())
        return;
    cli_json_open(NULL, '{');
    cli_json_str("path", path);
    cli_json_num("size", size);
    cli_json_close();
}

/* Format 1: every file of the set into DIR (created if missing), each written atomically. */
static int pack_write_set(const asmstore_writer *w, const char *dir) {
    struct stat st;
    size_t i, size;
    const char *name;
    const void *data;

    if (stat(dir, &st) != 0 && cli_os_mkdir(dir) != 0)
        return cli_fail_errno(dir, "create the directory");
    for (i = 0; asmstore_writer_output(w, i, &name, &data, &size, NULL) == ASMSTORE_OK; i++) {
        char path[PATH_MAX];
        asmstore_error err;
        asmstore_result res;

        snprintf(path, sizeof path, "%s/%s", dir, name);
        if ((res = asmstore_write_file(path, data, size, 0644, &err)) != ASMSTORE_OK)
            return res == ASMSTORE_ERR_IO ? cli_fail_errno(path, "write it")
                                          : cli_fail(path, res, &err);
        fprintf(stderr, "%s: %zu bytes\n", cli_shown(path), size);
        pack_json_file(path, size);
    }
    return 0;
}

/* One input file: mapped, or read into memory when it is small (a mapping costs one of the
   process's vm.max_map_count, about 65,000) or when the mappings ran out. Returns 0, 1 or 2 as
   cli_map_file does. */
static int pack_hold_file(pack_item *it, int k, const char *path) {
    struct stat st;
    void *copy;
    int rc;

    if (stat(path, &st) != 0 || st.st_size >= PACK_READ_BELOW) {
        rc = cli_map_file(path, &it->bytes[k], &it->sizes[k]);
        if (rc != 2 || errno != ENOMEM)
            return rc;
    }
    if (asmstore_read_file(path, NULL, &copy, &it->sizes[k], NULL) != ASMSTORE_OK)
        return cli_map_file(path, &it->bytes[k], &it->sizes[k]); /* its errno and exit code */
    it->bytes[k] = (const unsigned char *)copy;
    it->read_mask |= 1u << k;
    return 0;
}

/* Holds an input's image and the companions found beside it; returns 0 or an exit code. Mapped, not
   read: the writer borrows the page cache's bytes (no copy, no new memory) until it is freed. */
static int pack_map_item(pack_item *it, int with_pdb) {
    char *paths[3];
    int k, rc = 0;

    paths[0] = it->path;
    paths[1] = with_pdb ? companion(it->path, 1) : NULL;
    paths[2] = companion(it->path, 0);
    for (k = 0; k < 3 && rc == 0; k++) {
        if (!paths[k])
            continue;
        rc = pack_hold_file(it, k, paths[k]);
        if (rc)
            cli_fail_errno(paths[k],
                           "read it"); /* 1: gone since pack_input saw it (errno ENOENT) */
    }
    free(paths[1]);
    free(paths[2]);
    return rc ? 2 : 0;
}

static void pack_unmap_all(pack_list *l) {
    size_t i;
    int k;

    for (i = 0; i < l->n; i++)
        for (k = 0; k < 3; k++) {
            pack_item *it = &l->items[i];

            if (it->read_mask & (1u << k))
                asmstore_free(NULL, (void *)(uintptr_t)it->bytes[k], it->sizes[k]);
            else
                cli_unmap_file(it->bytes[k], it->sizes[k]);
        }
}

/* An input the store would misname: not a .NET assembly (a PE file with a CLI header), a --pdb
   companion that is no PDB, a .config that is no XML text. 0, or 1 after naming it. */
static int pack_check_item(const pack_item *it) {
    static const char *const claim[] = {"not a .NET assembly (a PE file with a CLI header)",
                                        "not a PDB (Portable or Windows)", "not XML text"};
    static const char *const part[] = {"", ", its .pdb", ", its .config"};
    int k;

    for (k = 0; k < 3; k++) {
        asmstore_error err;

        if (k && !it->bytes[k])
            continue;
        if (asmstore_image_check((asmstore_image_kind)k, it->bytes[k], it->sizes[k], &err) ==
            ASMSTORE_OK)
            continue;
        cli_error_result(ASMSTORE_ERR_BAD_IMAGE, "%s (%s%s): %s: %s (at offset %llu); %s", it->name,
                         it->path, part[k], claim[k], err.message, (unsigned long long)err.offset,
                         cli_result_hint(ASMSTORE_ERR_BAD_IMAGE));
        return 1;
    }
    return 0;
}

/* Holds and checks every input (and its companions; --no-check: holds only) before any is
   compressed. 0, or the exit code. */
static int pack_hold_inputs(pack_list *l, const pack_args *a) {
    size_t i;
    int rc;

    for (i = 0; i < l->n; i++)
        if ((rc = pack_map_item(&l->items[i], a->with_pdb)) != 0 ||
            (!a->no_check && (rc = pack_check_item(&l->items[i])) != 0))
            return rc;
    return 0;
}

/* Adds every (held) input; returns 0 or an exit code. */
static int pack_add_all(asmstore_writer *w, pack_list *l) {
    size_t i;

    for (i = 0; i < l->n; i++) {
        pack_item *it = &l->items[i];
        asmstore_add ao;
        asmstore_result res;

        memset(&ao, 0, sizeof ao);
        ao.abi = it->abi;
        ao.flags = ASMSTORE_ADD_BORROW | (it->uncompressed ? ASMSTORE_ADD_UNCOMPRESSED : 0u);
        ao.name = it->name;
        ao.image = it->bytes[0];
        ao.image_size = it->sizes[0];
        ao.pdb = it->bytes[1];
        ao.pdb_size = it->sizes[1];
        ao.config = it->bytes[2];
        ao.config_size = it->sizes[2];
        res = asmstore_writer_add(w, &ao, NULL);
        if (res != ASMSTORE_OK) {
            cli_error_result(res, "%s (%s): %s; %s", it->name, it->path,
                             asmstore_result_string(res),
                             res == ASMSTORE_ERR_INVALID_ARG && ao.abi
                                 ? "--arch needs --target net8 or --format 1"
                             : *cli_result_hint(res) ? cli_result_hint(res)
                                                     : "give .NET assemblies (.dll) only");
            return 1;
        }
    }
    return 0;
}

/* Is one of the inputs stored under name? */
static int pack_has_name(const void *list, const char *name, size_t len) {
    const pack_list *l = (const pack_list *)list;
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strlen(l->items[i].name) == len && !memcmp(l->items[i].name, name, len))
            return 1;
    return 0;
}

/* A CoreCLR store of .NET 10 and the 11 previews holds an ignored, zero-size "X.ni.dll" twin for
   each X.dll (docs/store-releases.md §1.1); an input named like a twin would collide with it.
   Refused before any work, naming both inputs. Returns 0 or 2. */
static int pack_check_twins(const pack_list *l, const asmstore_write_options *o) {
    size_t i, j, clashes = 0;

    if (o->runtime != ASMSTORE_RUNTIME_CORECLR || o->no_companions)
        return 0;
    for (i = 0; i < l->n; i++) {
        const char *name = l->items[i].name;
        size_t base = asmstore_name_base_len(name, strlen(name));

        for (j = 0; j < l->n; j++) {
            const pack_item *twin = &l->items[j];

            if (j == i || twin->abi != l->items[i].abi || strlen(twin->name) != base + 7 ||
                memcmp(twin->name, name, base) || strcmp(twin->name + base, ".ni.dll"))
                continue;
            clashes++;
            cli_error(
                "%s (%s) has the name of the ignored, zero-size %s twin this "
                "release's CoreCLR store writes for %s (%s): both cannot be in one store. Pack "
                "with --target net11 (the .NET 11 GA layout writes no twins) or --runtime "
                "monovm, or rename %s or leave it out",
                twin->name, twin->path, twin->name, name, l->items[i].path, twin->name);
        }
    }
    return clashes ? 2 : 0;
}

/* Refuses ReadyToRun component stubs whose composite image is not among the (mapped) inputs:
   CoreCLR aborts without a word on loading one. Returns 0 or 2. */
static int pack_check_composites(const pack_list *l) {
    size_t i, missing = 0;

    for (i = 0; i < l->n; i++) {
        const pack_item *it = &l->items[i];
        const char *owner;
        size_t len;
        char what[2100], fix[1200], message[4600];

        if (!cli_r2r_orphan(it->bytes[0], it->sizes[0], pack_has_name, l, &owner, &len) ||
            missing++)
            continue;
        snprintf(what, sizeof what, "%.1000s (%.1000s)", it->name, it->path);
        snprintf(fix, sizeof fix, "add %.*s (crossgen2 writes it beside the stubs), or pack the IL "
                 "assemblies instead of the stubs", (int)len, owner);
        cli_r2r_orphan_message(message, sizeof message, what, owner, len,
                               "is not among the inputs", fix);
        cli_error("%s", message);
    }
    if (missing > 1)
        fprintf(stderr,
                "asmstore: %zu component stubs in all name a composite image the inputs lack\n",
                missing);
    return missing ? 2 : 0;
}

/* One store of a pack run: its ABI's write options, the preset's facts, the writer and its bytes. */
typedef struct pack_store {
    asmstore_write_options o;
    asmstore_preset info;
    asmstore_writer *w;
    const void *data;
    size_t size;
} pack_store;

/* One pack run: what the command line asked for and what it made, one store per ABI (--abi a,b:
   the first store's writer lends its compressed images to the others). */
typedef struct pack_job {
    pack_args a;
    asmstore_elf_options eo;
    pack_list l;
    wrap_template tpl;
    pack_store s[4];
    size_t ns;
} pack_job;

/* What --abi a,b,... cannot combine with. 0, or 2 after saying why. */
static int pack_check_abis(const pack_job *j) {
    const char *out = j->a.out;
    size_t n = strlen(out);
    struct stat st;

    if (j->ns < 2)
        return 0;
    if (j->s[0].o.format == 1)
        cli_error("--abi takes one ABI for a format 1 set (its arch stores come from "
                  "--arch ABI FILE|DIR)");
    else if (j->eo.mode == ASMSTORE_ELF_MODE_TEMPLATE)
        cli_error("--template: the stub has one ABI; give one --abi, or leave --template out");
    else if (!(n && out[n - 1] == '/') && !(stat(out, &st) == 0 && S_ISDIR(st.st_mode)))
        cli_error("-o %s: with several ABIs -o names a directory (each store goes into "
                  "OUT/<abi>/, as in an APK's lib/); give -o %s/",
                  out, out);
    else
        return 0;
    return 2;
}

/* The command line into the job's options and inputs. 0, or an exit code. */
static int pack_prepare(pack_job *j, int argc, char **argv) {
    size_t k;
    int rc;

    j->a.runtime = -1;
    rc = pack_parse(argc, argv, &j->a, &j->eo, &j->tpl, &j->l);
    if (rc == 0 && j->a.json) {
        cli_json_begin("pack");
        cli_json_str("output", j->a.out);
    }
    if (rc == 0)
        rc = pack_check_out(j->a.out);
    if (rc == 0)
        rc = pack_mark_kept(&j->l, &j->a);
    j->ns = j->a.nabis ? j->a.nabis : 1;
    for (k = 0; rc == 0 && k < j->ns; k++)
        rc = pack_options(&j->a, j->a.nabis ? j->a.abis[k] : ASMSTORE_ABI_UNKNOWN, &j->s[k].o,
                          &j->s[k].info);
    if (rc == 0 && j->s[0].o.format == 1 && (j->a.wrap_set || j->a.raw)) {
        cli_error("format 1 stores are raw files (no --raw, --wrap or "
                  "--template)");
        rc = 2;
    }
    if (rc == 0)
        rc = pack_check_abis(j);
    if (rc == 0)
        rc = pack_hold_inputs(&j->l, &j->a);
    if (rc == 0)
        rc = pack_check_composites(&j->l);
    if (rc == 0)
        rc = pack_check_twins(&j->l, &j->s[0].o);
    return rc;
}

/* Every input through store k's writer into its bytes; stores after the first reuse the first's
   compressed images. 0, or an exit code. */
static int pack_build(pack_job *j, size_t k) {
    pack_store *st = &j->s[k];
    asmstore_error err;
    asmstore_result res;
    int rc;

    if (cli_os_stderr_is_tty() && j->l.n > 50)
        st->o.progress = show_progress;
    st->o.reuse = k ? j->s[0].w : NULL;
    res = asmstore_writer_create(&st->w, &st->o, &err);
    if (res != ASMSTORE_OK) {
        cli_fail("the pack options", res, &err);
        return 2;
    }
    if ((rc = pack_add_all(st->w, &j->l)) != 0)
        return rc;
    res = asmstore_writer_finish(st->w, &st->data, &st->size, &err);
    if (res == ASMSTORE_OK)
        return 0;
    if (res == ASMSTORE_ERR_UNSUPPORTED_COMPRESSION && st->o.compression == ASMSTORE_COMPRESSION_LZ4)
        cli_error_result(res,
                         "writing LZ4 (XALZ) images: built without liblz4: install liblz4-dev "
                         "and rebuild, or give --compression zstd|none");
    else
        cli_fail("packing the store", res, &err);
    return 1;
}

/* The size of the file written (a .so is larger than the store it wraps). */
static long long pack_file_size(const char *path) {
    struct stat st;

    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Where store k goes: OUT as pack_out_path says, or with several ABIs OUT/<abi>/<file name> (the
   ABI's directory made when missing). 0, or an exit code. */
static int pack_store_path(const pack_job *j, size_t k, char *buf, size_t cap) {
    char dir[PATH_MAX];
    struct stat st;

    if (j->ns < 2) {
        pack_out_path(j->a.out, j->s[k].info.file_name, buf, cap);
        return 0;
    }
    pack_out_path(j->a.out, asmstore_abi_android_name(j->s[k].o.abi), dir, sizeof dir);
    if (stat(dir, &st) != 0 && cli_os_mkdir(dir) != 0)
        return cli_fail_errno(dir, "create the directory");
    if ((size_t)snprintf(buf, cap, "%s/%s", dir, j->s[k].info.file_name) < cap)
        return 0;
    cli_error("-o %s: the path is too long (give a shorter -o)", j->a.out);
    return 2;
}

/* How many of store k's images came compressed from the first store's writer. */
static size_t pack_reused(const pack_store *st) {
    size_t i, n = 0;
    asmstore_written e;

    for (i = 0; asmstore_writer_entry(st->w, i, &e, NULL) == ASMSTORE_OK; i++)
        n += (size_t)e.reused;
    return n;
}

/* Store k as one file: raw, or in the .so the options name. 0, or an exit code. */
static int pack_write_store(pack_job *j, size_t k) {
    char path[PATH_MAX];
    asmstore_elf_options *eo = &j->eo;
    const pack_store *st = &j->s[k];
    size_t count = asmstore_writer_count(st->w), reused = pack_reused(st);
    int rc = pack_store_path(j, k, path, sizeof path);

    if (rc)
        return rc;
    if (!j->a.wrap_set)
        eo->mode = st->info.wrapper == ASMSTORE_ELF_SECTION ? ASMSTORE_ELF_MODE_SECTION
                                                            : ASMSTORE_ELF_MODE_DLOPEN;
    eo->style = (asmstore_elf_style)st->info.elf_style; /* net12: AssemblyStoreElfWriter's */
    /* a template: 0 takes the stub's ABI */
    eo->abi = eo->mode == ASMSTORE_ELF_MODE_TEMPLATE ? j->a.abi : st->o.abi;
    rc = write_output(path, eo, j->tpl.path, j->a.raw, st->data, st->size);
    if (rc == 0)
        pack_json_file(path, (size_t)pack_file_size(path));
    if (rc == 0)
        fprintf(stderr, "%s: %zu %s, %zu-byte format %u store%s", cli_shown(path), count,
                cli_plural(count, "entry", "entries"), st->size, st->o.format,
                j->a.raw                                 ? ""
                : eo->mode == ASMSTORE_ELF_MODE_SECTION  ? " in a section-kind .so"
                : eo->mode == ASMSTORE_ELF_MODE_TEMPLATE ? " added to the template .so"
                                                         : " in a dlopen-kind .so");
    if (rc == 0 && reused)
        fprintf(stderr, "; %zu compressed %s taken from the %s store", reused,
                cli_plural(reused, "image", "images"), asmstore_abi_name(j->s[0].o.abi));
    if (rc == 0)
        fputc('\n', stderr);
    return rc;
}

/* pack --json: each entry of one store as the writer wrote it. */
static void pack_json_written(const asmstore_writer *w) {
    asmstore_written e;
    size_t i;

    cli_json_open("written", '[');
    for (i = 0; asmstore_writer_entry(w, i, &e, NULL) == ASMSTORE_OK; i++) {
        cli_json_open(NULL, '{');
        cli_json_strn("name", e.name, e.name_len);
        cli_json_bool("ignored", e.ignored);
        cli_json_num_or_null("descriptor_index", e.descriptor_index != ASMSTORE_NO_DESCRIPTOR,
                             e.descriptor_index);
        cli_json_num_or_null("mapping_index", e.mapping_index != UINT32_MAX, e.mapping_index);
        cli_json_num("size", e.image_size);
        cli_json_num("stored_size", e.stored_size);
        cli_json_bool("reused", e.reused);
        cli_json_close();
    }
    cli_json_close();
}

/* pack --json: what was written (the first store's facts at the top, then every store); the files
   follow as "files" (closed by cli_json_finish). */
static void pack_json_store(const pack_job *j) {
    const asmstore_write_options *o = &j->s[0].o;
    int v1 = o->format == 1;
    size_t k;

    cli_json_abi("abi", v1 && !o->abi ? ASMSTORE_ABI_UNKNOWN : o->abi);
    cli_json_str("runtime", o->runtime == ASMSTORE_RUNTIME_CORECLR ? "CoreCLR" : "MonoVM");
    cli_json_num("format", o->format);
    cli_json_str("hash", v1 ? NULL : asmstore_hash_name(o->hash));
    cli_json_str("compression",
                 cli_compression_name(o->no_compress ? ASMSTORE_COMPRESSION_NONE : o->compression));
    cli_json_num("entries", asmstore_writer_count(j->s[0].w));
    cli_json_num("store_size", j->s[0].size);
    cli_json_open("stores", '[');
    for (k = 0; k < j->ns; k++) {
        cli_json_open(NULL, '{');
        cli_json_abi("abi", v1 && !j->s[k].o.abi ? ASMSTORE_ABI_UNKNOWN : j->s[k].o.abi);
        cli_json_str("hash", v1 ? NULL : asmstore_hash_name(j->s[k].o.hash));
        cli_json_num("store_size", j->s[k].size);
        cli_json_num("reused", pack_reused(&j->s[k]));
        pack_json_written(j->s[k].w);
        cli_json_close();
    }
    cli_json_close();
    cli_json_open("files", '[');
}

static void pack_free(pack_job *j) {
    size_t i;

    free(j->tpl.data);
    free(j->a.keep);
    for (i = j->ns; i-- > 0;) /* the first lends its images to the others */
        asmstore_writer_free(j->s[i].w);
    pack_unmap_all(&j->l);
    for (i = 0; i < j->l.n; i++) {
        free(j->l.items[i].name);
        free(j->l.items[i].path);
    }
    free(j->l.items);
}

int cli_cmd_pack(int argc, char **argv) {
    pack_job j;
    size_t k;
    int rc;

    memset(&j, 0, sizeof j);
    rc = pack_prepare(&j, argc, argv);
    for (k = 0; rc == 0 && k < j.ns; k++) /* every store built before any is written */
        rc = pack_build(&j, k);
    if (rc == 0 && j.a.json)
        pack_json_store(&j);
    if (rc == 0 && j.s[0].o.format == 1)
        rc = pack_write_set(j.s[0].w, j.a.out);
    for (k = 0; rc == 0 && j.s[0].o.format != 1 && k < j.ns; k++)
        rc = pack_write_store(&j, k);
    pack_free(&j);
    return rc;
}

/* >>wrap --------------------------------------------------------------------------------------- */
/* Any file into a .so. */
/* wrap's command line: 0, or the exit code. */
static int wrap_parse(int argc, char **argv, asmstore_elf_options *eo, wrap_template *tpl,
                      const char **out, const char **in) {
    cli_parser p;
    int key, taken;

    cli_parse_begin(&p, argc, argv, cli_wrap_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if ((taken = elf_option(key, p.value, eo, tpl)) != 0) {
            if (taken < 0)
                return 2;
        } else if (key == 'o')
            *out = p.value;
        else if (key == OPT_ABI) {
            if (cli_abi_option("--abi", p.value, &eo->abi))
                return 2;
        } else if (key == CLI_OPERAND && !*in)
            *in = p.value;
        else
            return key == CLI_BAD ? 2 : cli_usage();
    }
    if (*out && *in && (eo->abi || eo->mode == ASMSTORE_ELF_MODE_TEMPLATE))
        return 0;
    cli_usage();
    return 2;
}

int cli_cmd_wrap(int argc, char **argv) {
    asmstore_elf_options eo;
    const char *out = NULL, *in = NULL;
    const unsigned char *data = NULL;
    wrap_template tpl = {NULL, NULL};
    size_t size = 0;
    int rc;

    memset(&eo, 0, sizeof eo);
    if ((rc = wrap_parse(argc, argv, &eo, &tpl, &out, &in)) != 0) {
        free(tpl.data);
        return rc;
    }
    if (cli_map_file(in, &data, &size) != 0) {
        free(tpl.data);
        return cli_fail_errno(in, "read it");
    }
    rc = write_output(out, &eo, tpl.path, 0, data, size);
    cli_unmap_file(data, size);
    free(tpl.data);
    return rc;
}

/* >>elfcheck ----------------------------------------------------------------------------------- */
/* Bionic's loader rules (docs/elf-so.md §4) over a .so, or the store .so in an APK. */
/* elfcheck --json: one .so's "checks" item; rule, message and offset null when it passed. */
static void elfcheck_json(const char *what, asmstore_abi abi, asmstore_result res,
                          const asmstore_error *v) {
    int rule = res == ASMSTORE_ERR_ELF_RULE && v;

    cli_json_open(NULL, '{');
    cli_json_str("file", what);
    cli_json_abi("abi", abi);
    cli_json_bool("ok", res == ASMSTORE_OK);
    cli_json_num_or_null("rule", rule, rule ? (unsigned long long)v->rule : 0);
    cli_json_str("message", res == ASMSTORE_OK ? NULL : rule ? v->message
                                                              : asmstore_result_string(res));
    cli_json_num_or_null("offset", rule, rule ? (unsigned long long)v->offset : 0);
    cli_json_close();
}

/* Prints "WHAT: ok", "WHAT: rule N: ... (offset N)" (v may be NULL) or "WHAT: RESULT" (--json:
   its "checks" item); returns 0 ok, 1 else. */
static int elfcheck_report(const char *what, asmstore_abi abi, asmstore_result res,
                           const asmstore_error *v) {
    if (cli_json_on())
        elfcheck_json(what, abi, res, v);
    else if (res == ASMSTORE_OK)
        printf("%s: ok\n", cli_shown(what));
    else if (res == ASMSTORE_ERR_ELF_RULE && v)
        printf("%s: rule %d: %s (offset %llu)\n", cli_shown(what), v->rule, v->message,
               (unsigned long long)v->offset);
    else
        printf("%s: %s\n", cli_shown(what), asmstore_result_string(res));
    return res != ASMSTORE_OK;
}

/* A .so on its own. */
static int elfcheck_file(const char *path, asmstore_abi abi, const char *symbol) {
    asmstore_error v;
    asmstore_result res;
    void *data;
    size_t size;

    res = asmstore_read_file(path, NULL, &data, &size, NULL);
    if (res != ASMSTORE_OK)
        return cli_fail_read(path, res);
    res = asmstore_elf_check_bionic(data, size, abi, symbol, NULL, &v);
    free(data);
    return elfcheck_report(path, abi, res, &v);
}

/* The store .so of one ABI in an APK, where the loader would map it. */
static int elfcheck_apk(const char *path, asmstore_abi abi, const char *symbol) {
    asmstore_locator l;
    asmstore_error v;
    asmstore_result res;
    char what[PATH_MAX + 32];

    snprintf(what, sizeof what, cli_json_on() ? "lib/%s" : "%s: lib/%s",
             cli_json_on() ? asmstore_abi_android_name(abi) : path, asmstore_abi_android_name(abi));
    res = asmstore_locate_apk(&l, path, abi, symbol, NULL);
    if (res != ASMSTORE_OK && l.map == NULL) {
        asmstore_locator_close(&l);
        return elfcheck_report(what, abi, res, NULL);
    }
    res = asmstore_elf_check_bionic(l.entry_data, l.entry_size, abi, symbol, &l.entry, &v);
    asmstore_locator_close(&l);
    return elfcheck_report(what, abi, res, &v);
}

int cli_cmd_elfcheck(int argc, char **argv) {
    const char *path = NULL, *symbol = NULL;
    asmstore_abi abi = ASMSTORE_ABI_UNKNOWN;
    asmstore_abi abis[4];
    cli_parser p;
    int k, key, napk, bad = 0, json = 0;

    cli_parse_begin(&p, argc, argv, cli_elfcheck_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if (key == OPT_JSON)
            json = 1;
        else if (key == OPT_ABI) {
            if (cli_abi_option("--abi", p.value, &abi))
                return 2;
        } else if (key == OPT_SYMBOL)
            symbol = p.value;
        else if (key == CLI_OPERAND && !path)
            path = p.value;
        else
            return key == CLI_BAD ? 2 : cli_usage();
    }
    if (!path)
        return cli_usage();
    if (json) {
        cli_json_begin("elfcheck");
        cli_json_str("input", path);
        cli_json_open("checks", '[');
    }
    napk = cli_apk_abis(path, abis);
    if (napk == 0)
        bad = elfcheck_file(path, abi, symbol);
    for (k = 0; k < napk; k++)
        if (!abi || abis[k] == abi)
            bad |= elfcheck_apk(path, abis[k], symbol);
    if (json) {
        cli_json_close();
        cli_json_bool("ok", !bad);
        cli_json_reported();
    }
    return bad;
}
