/* cli_input.c - what a STORE argument of the asmstore CLI can be, opened into a list of stores:
   a raw store or .so wrapper of any format; a format-1 (.NET 6-8) store set given as one of its
   .blob files or as its directory (the set's other files and its manifest are found beside it);
   an APK, split APK or AAB holding stores at any release's path (docs/store-releases.md §1.2),
   STORED or DEFLATEd (inflated here, with zlib: the on-device locator never inflates). */
#include "cli_input.h"

#include "cli_inflate.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* >>files -------------------------------------------------------------------------------------- */
/* Every input file is mapped once and unmapped by cli_input_close. */
static int map_file(cli_input *in, const char *path, const unsigned char **data, size_t *size) {
    int rc;

    if (in->nmaps >= CLI_MAX_MAPS)
        return 2;
    if ((rc = cli_map_file(path, data, size)) != 0)
        return rc;
    in->maps[in->nmaps].p = *data;
    in->maps[in->nmaps++].n = *size;
    return 0;
}

static void *keep_buffer(cli_input *in, void *p) {
    if (!p || in->nowned >= CLI_MAX_UNITS * 2) {
        free(p);
        return NULL;
    }
    return in->owned[in->nowned++] = p;
}

/* >>units -------------------------------------------------------------------------------------- */
static cli_unit *new_unit(cli_input *in, const char *label, asmstore_abi abi) {
    cli_unit *u;

    if (in->n >= CLI_MAX_UNITS)
        return NULL;
    u = &in->units[in->n++];
    memset(u, 0, sizeof *u);
    snprintf(u->label, sizeof u->label, "%s", label);
    u->abi = abi;
    u->selected = 1;
    u->wrapper = "raw";
    return u;
}

/* Opens the reader over bytes that hold a raw store or an ELF wrapper around one. */
static void open_unit_bytes(cli_unit *u, const unsigned char *p, size_t n) {
    asmstore_read_options ro;
    const void *payload = p;
    size_t psize = n;
    asmstore_elf_info info;

    memset(&ro, 0, sizeof ro);
    /* a tool reads everything: refuse stores declaring more */
    ro.max_total_size = ASMSTORE_MAX_TOTAL_SIZE;
    if (n >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') {
        u->res = asmstore_elf_payload(p, n, NULL, &payload, &psize, &info, &u->err);
        if (u->res != ASMSTORE_OK)
            return;
        u->wrapper = asmstore_elf_kind_name(info.kind);
        u->net12 = asmstore_elf_is_style(p, n, ASMSTORE_ELF_STYLE_NET12);
        u->payload_offset = info.payload_offset;
        if (u->abi == ASMSTORE_ABI_UNKNOWN)
            u->abi = info.abi;
    }
    u->res = asmstore_reader_init(&u->r, payload, psize, &ro, &u->err);
    u->opened = u->res == ASMSTORE_OK;
    if (u->opened && u->r.format != 1) {
        if (u->abi == ASMSTORE_ABI_UNKNOWN)
            u->abi = u->r.abi;
        u->names = cli_attach_name_table(&u->r);
        if (!u->names) {
            u->res = ASMSTORE_ERR_OUT_OF_MEMORY;
            u->opened = 0;
        }
    }
}

void cli_unit_reopen(cli_unit *u, const unsigned char *p, size_t n) {
    free(u->names);
    u->names = NULL;
    open_unit_bytes(u, p, n);
}

void cli_abi_file_name(asmstore_abi abi, char *buf, size_t cap) {
    size_t k;

    snprintf(buf, cap, "%s", abi == ASMSTORE_ABI_UNKNOWN ? "" : asmstore_abi_android_name(abi));
    for (k = 0; buf[k]; k++)
        if (buf[k] == '-')
            buf[k] = '_';
}

/* The ABI a format-1 file name carries: "<prefix>.<abi_>.blob" (arm64_v8a, armeabi_v7a, x86_64,
   x86). */
static asmstore_abi v1_file_abi(const char *base, size_t *prefix_len) {
    size_t n = strlen(base);
    int a;

    *prefix_len = 0;
    if (n < 5 || strcmp(base + n - 5, ".blob") != 0)
        return ASMSTORE_ABI_UNKNOWN;
    *prefix_len = n - 5;
    for (a = 1; a <= 4; a++) {
        char abi[24], want[32];
        size_t w;

        cli_abi_file_name((asmstore_abi)a, abi, sizeof abi);
        snprintf(want, sizeof want, ".%s.blob", abi);
        w = strlen(want);
        if (n > w && !strcmp(base + n - w, want)) {
            *prefix_len = n - w;
            return (asmstore_abi)a;
        }
    }
    return ASMSTORE_ABI_UNKNOWN;
}

/* >>format-1 sets ------------------------------------------------------------------------------ */
/* Arch stores look names up through store 0; every store of the set gets the manifest. */
static void link_v1_set(cli_input *in, int first, const char *manifest, size_t manifest_size) {
    const asmstore_reader *common = NULL;
    int i;

    for (i = first; i < in->n; i++)
        if (in->units[i].opened && in->units[i].r.format == 1 && in->units[i].r.store_id == 0)
            common = &in->units[i].r;
    for (i = first; i < in->n; i++) {
        cli_unit *u = &in->units[i];

        if (!u->opened || u->r.format != 1)
            continue;
        if (u->r.store_id != 0 && common &&
            (u->res = asmstore_reader_attach_common(&u->r, common, &u->err)) != ASMSTORE_OK) {
            u->opened = 0;
            continue;
        }
        if (!manifest)
            continue;
        u->names = (uint32_t *)malloc(asmstore_reader_name_table_size(&u->r) + 4);
        if (!u->names) {
            u->res = ASMSTORE_ERR_OUT_OF_MEMORY;
            u->opened = 0;
            continue;
        }
        u->res =
            asmstore_reader_attach_manifest(&u->r, manifest, manifest_size, u->names,
                                            asmstore_reader_name_table_size(&u->r) + 4, &u->err);
        u->has_manifest = u->res == ASMSTORE_OK;
        if (!u->has_manifest)
            u->opened = 0;
    }
}

/* One file of a format-1 set on disk: its siblings (store 0, the other ABIs, the manifest) join as
   context; only the file asked for is selected unless the whole directory was. */
static int add_v1_dir_set(cli_input *in, const char *dir, const char *prefix, const char *only) {
    char path[PATH_MAX];
    const unsigned char *p, *man = NULL;
    size_t n, man_size = 0;
    int a, first = in->n;

    for (a = 0; a <= 4; a++) {
        cli_unit *u;
        char base[128];
        char abi[24];

        cli_abi_file_name((asmstore_abi)a, abi, sizeof abi);
        snprintf(base, sizeof base, "%s%s%s.blob", prefix, a ? "." : "", abi);
        snprintf(path, sizeof path, "%s/%s", dir, base);
        if (map_file(in, path, &p, &n) != 0)
            continue;
        if (!(u = new_unit(in, base, (asmstore_abi)a)))
            return 2;
        u->selected = !only || !strcmp(only, base);
        open_unit_bytes(u, p, n);
    }
    snprintf(path, sizeof path, "%s/%s.manifest", dir, prefix);
    if (map_file(in, path, &man, &man_size) != 0)
        man = NULL;
    link_v1_set(in, first, (const char *)man, man_size);
    return in->n > first ? 0 : 1;
}

/* >>archives ----------------------------------------------------------------------------------- */
/* What the library found wrong with the archive, and where, as u's detail. */
static void damage_found(cli_unit *u, const asmstore_error *err) {
    int n = snprintf(u->detail, sizeof u->detail, "%s", err->message ? err->message : "");

    if (err->offset && n >= 0 && (size_t)n < sizeof u->detail)
        snprintf(u->detail + n, sizeof u->detail - (size_t)n, " (at offset %llu)",
                 (unsigned long long)err->offset);
}

/* The bytes of archive entry `name` for unit u, read by cli_entry_read: in place when STORED
   (aligned or not: the CLI reads either), inflated when DEFLATEd; `store`: it must hold a store.
   0 found, 1 absent, -1 broken or damaged (u->res says why, u->detail what was found). */
static int entry_bytes(cli_input *in, const unsigned char *zip, size_t size, const char *name,
                       int store, cli_unit *u, const unsigned char **p, size_t *n) {
    asmstore_zip_entry e;
    asmstore_error err;
    asmstore_result r = asmstore_zip_find(zip, size, name, strlen(name), &e, &err);
    cli_entry_bytes b;

    if (r == ASMSTORE_ERR_NOT_FOUND)
        return 1;
    u->in_zip = 1;
    u->zent = e;
    u->deflated = e.method != 0;
    if (r == ASMSTORE_ERR_BAD_ZIP) {
        damage_found(u, &err);
    } else if (r == ASMSTORE_OK || r == ASMSTORE_ERR_MISALIGNED ||
               r == ASMSTORE_ERR_ZIP_COMPRESSED) {
        r = cli_entry_read(zip, &e, store, &b);
        if (r == ASMSTORE_OK && (!b.owned || keep_buffer(in, b.owned))) {
            *p = b.p;
            *n = b.n;
            return 0;
        }
        if (r == ASMSTORE_OK)
            r = ASMSTORE_ERR_OUT_OF_MEMORY;
        snprintf(u->detail, sizeof u->detail, "%s", b.why);
        memset(&err, 0, sizeof err);
    }
    u->res = r;
    u->err = err;
    return -1;
}

/* A format-1 set's manifest in the archive, or NULL. A damaged one stays as a unit that never
   opens, so every command says the archive is damaged. */
static const unsigned char *archive_manifest(cli_input *in, const unsigned char *zip, size_t size,
                                             const char *name, size_t *n) {
    const unsigned char *p = NULL;
    cli_unit *u = new_unit(in, name, ASMSTORE_ABI_UNKNOWN);
    int rc;

    if (!u)
        return NULL;
    rc = entry_bytes(in, zip, size, name, 0, u, &p, n);
    if (rc != -1 || u->res != ASMSTORE_ERR_BAD_ZIP)
        in->n--;
    return rc == 0 ? p : NULL;
}

/* 1 when the archive's central directory is there; else one unit says so (not one per path). */
static int archive_opens(cli_input *in, const unsigned char *zip, size_t size,
                         const char *archive_label) {
    asmstore_zip_dir dir;
    asmstore_error err;
    cli_unit *u;

    if (asmstore_zip_dir_open(zip, size, &dir, &err) == ASMSTORE_OK)
        return 1;
    if ((u = new_unit(in, archive_label, ASMSTORE_ABI_UNKNOWN)) != NULL) {
        u->in_zip = 1;
        u->res = err.result;
        u->err = err;
        damage_found(u, &err);
    }
    return 0;
}

/* Every store of every ABI and release path in one archive, plus a format-1 common store and
   manifest. */
static void add_archive(cli_input *in, const unsigned char *zip, size_t size,
                        const char *archive_label) {
    static const char *const v1_dirs[2] = {"assemblies/", "base/root/assemblies/"};
    int a, first = in->n, d;
    unsigned i;

    if (!archive_opens(in, zip, size, archive_label))
        return;
    for (a = 1; a <= 4; a++) {
        char name[96];
        size_t len;

        for (i = 0; (len = asmstore_zip_store_path((asmstore_abi)a, i, name, sizeof name)) != 0;
             i++) {
            const unsigned char *p;
            size_t n;
            char label[200];
            cli_unit *u;

            snprintf(label, sizeof label, "%s%s%s", archive_label, archive_label[0] ? ":" : "",
                     name);
            if (!(u = new_unit(in, label, (asmstore_abi)a)))
                return;
            u->from_split = archive_label[0] != 0;
            if (entry_bytes(in, zip, size, name, 1, u, &p, &n) == 1) {
                in->n--;
                continue;
            }
            if (u->res == ASMSTORE_OK)
                open_unit_bytes(u, p, n);
        }
    }
    for (d = 0; d < 2; d++) {
        char name[96];
        const unsigned char *p, *man = NULL;
        size_t n, man_size = 0;
        cli_unit *u;

        snprintf(name, sizeof name, "%sassemblies.blob", v1_dirs[d]);
        if ((u = new_unit(in, name, ASMSTORE_ABI_UNKNOWN)) != NULL) {
            u->from_split = archive_label[0] != 0;
            if (entry_bytes(in, zip, size, name, 1, u, &p, &n) == 1)
                in->n--;
            else if (u->res == ASMSTORE_OK)
                open_unit_bytes(u, p, n);
        }
        snprintf(name, sizeof name, "%sassemblies.manifest", v1_dirs[d]);
        man = archive_manifest(in, zip, size, name, &man_size);
        if (man || in->n > first)
            link_v1_set(in, first, (const char *)man, man_size);
    }
}

/* base.apk: the ABI splits beside it (split_config.<abi_>.apk) hold the native libraries. */
static void add_splits(cli_input *in, const char *path) {
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path + 1) : 0;
    int a;

    if (strcmp(slash ? slash + 1 : path, "base.apk") != 0)
        return;
    for (a = 1; a <= 4; a++) {
        char split[PATH_MAX], label[64];
        const unsigned char *p;
        char abi[24];
        size_t n;

        cli_abi_file_name((asmstore_abi)a, abi, sizeof abi);
        snprintf(label, sizeof label, "split_config.%s.apk", abi);
        snprintf(split, sizeof split, "%.*s%s", (int)dl, path, label);
        if (map_file(in, split, &p, &n) == 0)
            add_archive(in, p, n, label);
    }
}

/* >>opening ------------------------------------------------------------------------------------ */
static int open_directory(cli_input *in, const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *de;
    char prefix[128] = "";

    if (!d)
        return 2;
    while ((de = readdir(d)) != NULL) {
        size_t pl, nl = strlen(de->d_name);

        if (nl > 9 && !strcmp(de->d_name + nl - 9, ".manifest") && nl - 9 < sizeof prefix) {
            snprintf(prefix, sizeof prefix, "%.*s", (int)(nl - 9), de->d_name);
        } else if (!prefix[0] && v1_file_abi(de->d_name, &pl) != ASMSTORE_ABI_UNKNOWN &&
                   pl < sizeof prefix) {
            snprintf(prefix, sizeof prefix, "%.*s", (int)pl, de->d_name);
        }
    }
    closedir(d);
    if (!prefix[0])
        return 1;
    return add_v1_dir_set(in, dir, prefix, NULL);
}

int cli_input_open(cli_input *in, const char *path, asmstore_abi only) {
    const unsigned char *p;
    size_t n;
    struct stat st;
    int rc, i;

    memset(in, 0, sizeof *in);
    in->path = path;
    if (stat(path, &st) != 0)
        return 2;
    if (S_ISDIR(st.st_mode))
        rc = open_directory(in, path);
    else if ((rc = map_file(in, path, &p, &n)) != 0)
        return rc;
    else if (n >= 4 && p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4) {
        in->archive = 1;
        add_archive(in, p, n, "");
        add_splits(in, path);
        rc = in->n ? 0 : 1;
    } else {
        cli_unit *u = new_unit(in, path, ASMSTORE_ABI_UNKNOWN);
        const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
        size_t pl = 0;

        open_unit_bytes(u, p, n);
        rc = 0;
        if (u->opened && u->r.format == 1 && (v1_file_abi(base, &pl), pl > 0) && pl < 128) {
            /* one file of a .NET 6-8 set: reopen it together with its siblings, as context */
            char dir[PATH_MAX], prefix[128];
            snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
            snprintf(prefix, sizeof prefix, "%.*s", (int)pl, base);
            in->n = 0;
            rc = add_v1_dir_set(in, dir, prefix, base);
        }
    }
    for (i = 0; i < in->n && only != ASMSTORE_ABI_UNKNOWN; i++)
        if (in->units[i].abi != only && in->units[i].abi != ASMSTORE_ABI_UNKNOWN)
            in->units[i].selected = 0;
    return rc;
}

void cli_input_close(cli_input *in) {
    int i;

    for (i = 0; i < in->n; i++)
        free(in->units[i].names);
    for (i = 0; i < in->nowned; i++)
        free(in->owned[i]);
    for (i = 0; i < in->nmaps; i++)
        cli_unmap_file(in->maps[i].p, in->maps[i].n);
    memset(in, 0, sizeof *in);
}

/* Opens STORE; on failure prints what was looked for and returns the exit status (else 0). */
int cli_input_open_or_fail(cli_input *in, const char *path, asmstore_abi only) {
    int rc = cli_input_open(in, path, only), i, selected = 0, opened = 0, worst = 0;

    if (rc == 2)
        return cli_fail_errno(path, "read it");
    for (i = 0; i < in->n; i++) {
        selected |= in->units[i].selected;
        opened |= in->units[i].selected && in->units[i].opened;
    }
    if (rc == 1 || !selected) {
        cli_no_store(path, only);
        cli_input_close(in);
        return 1;
    }
    if (opened)
        return 0;
    /* nothing usable: say why for each store, before any output is created */
    for (i = 0; i < in->n; i++) {
        if (!in->units[i].selected)
            continue;
        rc = cli_unit_problem(in, &in->units[i], stderr);
        if (rc > worst)
            worst = rc;
    }
    cli_input_close(in);
    return worst;
}

int cli_unit_problem(const cli_input *in, const cli_unit *u, FILE *f) {
    char why[512], line[1600];
    const char *sep = strcmp(u->label, in->path) ? ": " : "";
    const char *label = strcmp(u->label, in->path) ? u->label : "";
    const char *hint = cli_result_hint(u->res);

    if (u->detail[0] && u->res == ASMSTORE_ERR_BAD_ZIP)
        snprintf(line, sizeof line, "%s: damaged archive: %s%s%s; %s", in->path, u->label,
                 u->label[0] ? ": " : "", u->detail, hint);
    else if (u->res == ASMSTORE_ERR_ZIP_COMPRESSED && u->zent.method == 8)
        snprintf(line, sizeof line,
                 "%s%s%s (%s): the entry is DEFLATEd and this asmstore was built without zlib "
                 "(install zlib1g-dev and rebuild)",
                 in->path, sep, label, cli_unit_abi(u));
    else if (u->res == ASMSTORE_ERR_ZIP_COMPRESSED)
        snprintf(line, sizeof line,
                 "%s%s%s (%s): archive entry uses compression method %u; only STORED and "
                 "DEFLATE are read",
                 in->path, sep, label, cli_unit_abi(u), u->zent.method);
    else if (u->detail[0])
        snprintf(line, sizeof line, "%s%s%s (%s): %s", in->path, sep, label, cli_unit_abi(u),
                 u->detail);
    else
        snprintf(line, sizeof line, "%s%s%s (%s): %s%s%s", in->path, sep, label,
                 cli_unit_abi(u), cli_failure(u->res, &u->err, why, sizeof why),
                 *hint ? "; " : "", hint);
    fprintf(f, "asmstore: %s\n", cli_shown(line));
    if (f == stderr) /* verify's findings go to stdout and are its report, not a failure */
        cli_json_note_error(1, u->res, line);
    return cli_status(u->res);
}

/* >>words for what was found ------------------------------------------------------------------- */
/* docs/store-releases.md §5, the evidence table. */
const char *cli_unit_abi(const cli_unit *u) {
    return u->abi == ASMSTORE_ABI_UNKNOWN ? "every ABI" : asmstore_abi_android_name(u->abi);
}

/* Does the store hold ignored entries (the ".ni.dll" twins CoreCLR stores of .NET 10 and the 11
   previews carry; .NET 11 GA writes none)? */
static int unit_has_ignored(const cli_unit *u) {
    uint32_t k;

    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) == ASMSTORE_OK && e.ignored)
            return 1;
    }
    return 0;
}

/* From the bytes (docs/store-releases.md §5.8): a CRC-32 index only CoreCLR reads; an xxHash one
   with twins is the CoreCLR of .NET 10 / 11 previews, without them MonoVM. An empty index hashes
   nothing: then only a dlopen wrapper (CoreCLR's from 11 p7) tells. */
const char *cli_unit_runtime(const cli_unit *u) {
    if (u->r.format == 1 || u->r.format == 2)
        return "MonoVM";
    if (!u->r.entry_count)
        return !strcmp(u->wrapper, "elf-dlopen") ? "CoreCLR" : "CoreCLR or MonoVM";
    if (u->r.hash_kind == ASMSTORE_HASH_CRC32 || unit_has_ignored(u))
        return "CoreCLR";
    return "MonoVM";
}

asmstore_compression cli_unit_compression(const cli_unit *u) {
    uint32_t k;

    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) == ASMSTORE_OK &&
            e.compression != ASMSTORE_COMPRESSION_NONE)
            return e.compression;
    }
    return ASMSTORE_COMPRESSION_NONE;
}

/* The release a format-3 store's bytes name (docs/store-releases.md §5.8): the index's hash, the
   compression, the wrapper; twins only where the hash leaves CoreCLR and MonoVM apart. */
static const char *unit_era3(const cli_unit *u, asmstore_compression c) {
    int dlopen = !strcmp(u->wrapper, "elf-dlopen");

    if (u->net12 && !unit_has_ignored(u) &&
        (!u->r.entry_count || u->r.hash_kind == ASMSTORE_HASH_CRC32))
        return CLI_NET12_LAYOUT;
    if (!u->r.entry_count)
        return dlopen ? "the .NET 11 GA CoreCLR layout (an empty store)"
                      : "the .NET 10 or 11 layout (CoreCLR or MonoVM: an empty index names no hash)";
    if (u->r.hash_kind == ASMSTORE_HASH_CRC32)
        return unit_has_ignored(u) ? "the .NET 11 CoreCLR layout, with the .ni.dll twins GA no "
                                     "longer writes"
                                   : "the .NET 11 GA CoreCLR layout";
    if (c == ASMSTORE_COMPRESSION_ZSTD)
        return unit_has_ignored(u) ? "a .NET 11 main build of 2026-07-02..15 (CoreCLR)"
                                   : "the .NET 11 MonoVM layout";
    if (strstr(u->label, "libassemblies."))
        return "the .NET 10.0.100-101 layout";
    return "the .NET 10 layout (or 11 previews 1-6)";
}

void cli_unit_release(const cli_unit *u, char *buf, size_t cap) {
    const asmstore_reader *r = &u->r;
    asmstore_compression c = cli_unit_compression(u);
    const char *hash = r->format != 1 && !r->entry_count       ? "empty"
                       : r->hash_kind == ASMSTORE_HASH_CRC32   ? "CRC-32"
                       : r->hash_kind == ASMSTORE_HASH_XXH32   ? "XXH32"
                       : r->hash_kind == ASMSTORE_HASH_XXH3_64 ? "XXH3-64"
                                                               : "XXH32/XXH64";
    const char *era;

    if (r->format == 1)
        era = "the .NET 6-8 layout (or 9 previews 1-2)";
    else if (r->format == 2)
        era = "the .NET 9 layout (or 10 previews 1-6)";
    else if (r->format == 4)
        era = r->header_size == ASMSTORE_HEADER_SIZE_V4 ? "the .NET 11 preview 7 / rc1 layout"
                                                        : "a .NET 11 main build of 2026-07-15..17";
    else
        era = unit_era3(u, c);
    if (r->format == 1)
        snprintf(buf, cap, "format 1, %s, %s: %s",
                 r->store_id == 0 ? "store 0 (XXH32 and XXH64 tables)" : "per-ABI store 1",
                 c == ASMSTORE_COMPRESSION_LZ4    ? "LZ4"
                 : c == ASMSTORE_COMPRESSION_NONE ? "uncompressed"
                                                  : "zstd",
                 era);
    else
        snprintf(buf, cap, "format %u, %s index, %s wrapper: %s", r->format, hash,
                 !strcmp(u->wrapper, "elf-dlopen")    ? "dlopen"
                 : !strcmp(u->wrapper, "elf-section") ? "stub"
                                                      : "no",
                 era);
}

/* The image alignment the store was written with: 1 when every entry follows the one before
   directly (what releases write), else the largest power of two (up to 16 KiB) dividing every image
   offset. */
size_t cli_unit_image_alignment(const cli_unit *u) {
    uint64_t end = u->r.data_offset, all = 0;
    int gap = 0;
    uint32_t k;

    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        uint64_t off;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK || e.ignored || !e.image_size)
            continue;
        off = (uint64_t)(e.image - u->r.data);
        gap |= off != end;
        all |= off;
        end = off + e.image_size;
        if (e.pdb)
            end = (uint64_t)(e.pdb - u->r.data) + e.pdb_size;
        if (e.config)
            end = (uint64_t)(e.config - u->r.data) + e.config_size + (u->r.format == 1 ? 1u : 0u);
    }
    if (!gap)
        return 1;
    all &= ~all + 1; /* lowest set bit */
    return all && all <= 16384 ? (size_t)all : 16384;
}

/* The file name an entry is shown and extracted under. Format 1 names have no ".dll"; unnamed
   format-1 entries are called after their XXH64 hash, or their index where no hash is known. */
int cli_entry_filename(const cli_unit *u, const asmstore_entry *e, char *buf, size_t cap) {
    if (u->r.format != 1)
        return snprintf(buf, cap, "%.*s", (int)e->name_len, e->name) < (int)cap ? 0 : -1;
    if (e->name)
        return snprintf(buf, cap, "%.*s.dll", (int)e->name_len, e->name) < (int)cap ? 0 : -1;
    if (e->hash)
        return snprintf(buf, cap, "xxh64-%016llx.dll", (unsigned long long)e->hash) < (int)cap ? 0
                                                                                               : -1;
    return snprintf(buf, cap, "store%u-entry%u.dll", u->r.store_id, e->index) < (int)cap ? 0 : -1;
}

size_t cli_entry_config_size(const cli_unit *u, const asmstore_entry *e) {
    if (!e->config)
        return 0;
    return e->config_size - (u->r.format == 1 && e->config[e->config_size - 1] == 0);
}

/* Says in why[0..cap) how an entry's bytes are not what it claims (asmstore_image_check_entry:
   the image a PE assembly with a CLI header, its .pdb a PDB, its .config XML text); 0 when they
   are. verify reports it, extract writes nothing for it, repack refuses the store. */
int cli_image_problem(const asmstore_entry *e, const unsigned char *image, char *why, size_t cap) {
    static const char *const claim[] = {"the image is not a .NET assembly", "its .pdb is not a PDB",
                                        "its .config is not XML text"};
    static const char *const part[] = {"image", ".pdb", ".config"};
    asmstore_image_kind kind = ASMSTORE_IMAGE_ASSEMBLY;
    asmstore_error err;

    if (asmstore_image_check_entry(e, image, e->uncompressed_size, &kind, &err) == ASMSTORE_OK)
        return 0;
    snprintf(why, cap, "%s: %s (at offset %llu of the %s)", claim[kind], err.message,
             (unsigned long long)err.offset, part[kind]);
    return 1;
}
