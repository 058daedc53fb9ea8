/* asmstore - command-line tool over asmstore.h: pack, wrap, elfcheck, list, info, verify, extract
   (and, from cli_cache.c over asmstore_cache.h: load, cache prune, cache stats).
   Build: make (links -lzstd, and -llz4 when liblz4 is present so XALZ stores from .NET 9/10 read too). */
#define ASMSTORE_IMPLEMENTATION
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#ifdef ASMSTORE_CLI_LZ4
#include <lz4.h>
#include <lz4hc.h>
#endif

/* ---- commands: one table, each with its usage; one exit-status rule for all of them ---- */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage; /* its synopsis lines, then what it does */
} cli_command;

static const char *exit_rule = "Exit status: 0 ok; 1 the input is invalid (no store, a failed check, a name not there);\n"
                               "2 usage or I/O error.\n";
static const cli_command *cli_current; /* the command running: usage() shows its synopsis */

static void print_usage(FILE *f, const cli_command *c) {
    fprintf(f, "usage: asmstore %s", c->usage);
}

static int usage(void) {
    if (cli_current) {
        print_usage(stderr, cli_current);
        fprintf(stderr, "Try 'asmstore %s --help'.\n", cli_current->name);
    } else {
        fprintf(stderr, "usage: asmstore COMMAND [ARGS...]   (asmstore --help lists the commands)\n");
    }
    return 2;
}

/* ---- errors: what went wrong, then what to try ---- */
const char *cli_result_hint(asmstore_result r) {
    switch (r) {
    case ASMSTORE_ERR_OUT_OF_MEMORY: return "free some memory, or read one ABI with --abi";
    case ASMSTORE_ERR_TRUNCATED: return "the file is cut short (an incomplete copy or download?): copy it again";
    case ASMSTORE_ERR_BAD_MAGIC:
        return "it is not an assembly store; give the APK, its lib/<abi>/libassembly-store.so or an assemblies*.blob";
    case ASMSTORE_ERR_BAD_VERSION: return "this asmstore reads formats 1-4 (.NET 6-11); a newer release may need a newer asmstore";
    case ASMSTORE_ERR_CORRUPT: case ASMSTORE_ERR_BAD_COUNTS: case ASMSTORE_ERR_BAD_INDEX_SIZE: case ASMSTORE_ERR_BAD_INDEX:
    case ASMSTORE_ERR_BAD_DESCRIPTOR: case ASMSTORE_ERR_BAD_NAMES: case ASMSTORE_ERR_BAD_HASH: case ASMSTORE_ERR_OVERLAP:
    case ASMSTORE_ERR_DECOMPRESS: case ASMSTORE_ERR_CHECKSUM: case ASMSTORE_ERR_SIZE_MISMATCH:
        return "the store is damaged: take it from the app's original package or build the app again";
    case ASMSTORE_ERR_NOT_FOUND: return "'asmstore list' shows what the store holds";
    case ASMSTORE_ERR_TOO_LARGE: return "it is over asmstore's size limits (ASMSTORE_MAX_ENTRY_SIZE and the format's)";
    case ASMSTORE_ERR_IO: return "check the path, its permissions and the free space";
    case ASMSTORE_ERR_UNSUPPORTED: return "README 'Supported formats' lists what asmstore reads and writes";
    case ASMSTORE_ERR_IGNORED: return "the app marked the entry ignored: its runtime never loads it";
    case ASMSTORE_ERR_UNSUPPORTED_COMPRESSION:
        return "LZ4 (XALZ) images need an asmstore built with liblz4 (Debian: liblz4-dev)";
    case ASMSTORE_ERR_BAD_NAME: case ASMSTORE_ERR_DUPLICATE_NAME: case ASMSTORE_ERR_NAME_NOT_UTF8:
        return "entry names must be unique, non-empty UTF-8";
    case ASMSTORE_ERR_BAD_ELF: return "it is not a well-formed ELF file ('readelf -h' shows its header)";
    case ASMSTORE_ERR_NO_PAYLOAD:
        return "this .so holds no store; the store is lib/<abi>/libassembly-store.so or libassemblies.<abi>.blob.so";
    case ASMSTORE_ERR_BAD_ZIP: return "the archive is damaged ('unzip -t' checks it): copy it again";
    case ASMSTORE_ERR_ZIP_COMPRESSED: return "store the entry uncompressed (zip -0) or build asmstore with zlib";
    case ASMSTORE_ERR_MISALIGNED: return "align the archive (zipalign -p 4 IN OUT)";
    case ASMSTORE_ERR_DLOPEN: return "a .so for another machine is mapped instead: 'asmstore info' reads it without dlopen";
    case ASMSTORE_ERR_PROFILE: return "coreclr stores are format 3 or 4 (--format 3)";
    case ASMSTORE_ERR_ELF_RULE: return "'asmstore elfcheck FILE' names each rule it breaks";
    case ASMSTORE_ERR_ZIP_ENCRYPTED: return "decrypt the archive first";
    case ASMSTORE_ERR_ABI_MISMATCH: return "give the --abi the file was built for ('asmstore info FILE' shows it)";
    default: return "";
    }
}

const char *cli_failure(asmstore_result r, const asmstore_error *err, char *buf, size_t cap) {
    int about = err && err->result == r;
    const char *msg = about ? err->message : NULL;
    int n = snprintf(buf, cap, "%s%s%s", asmstore_result_string(r), msg ? ": " : "", msg ? msg : "");
    if (about && err->offset && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " (at offset %llu)", (unsigned long long)err->offset);
    return buf;
}

int cli_fail(const char *what, asmstore_result r, const asmstore_error *err) {
    const char *hint = cli_result_hint(r);
    char why[512];
    fprintf(stderr, "asmstore: %s: %s%s%s\n", what, cli_failure(r, err, why, sizeof why), *hint ? "; " : "", hint);
    return r == ASMSTORE_ERR_IO || r == ASMSTORE_ERR_OUT_OF_MEMORY ? 2 : 1;
}

int cli_fail_read(const char *path, asmstore_result r) {
    if (r == ASMSTORE_ERR_NOT_FOUND) errno = ENOENT; /* asmstore_read_file: the file is not there */
    return r == ASMSTORE_ERR_IO || r == ASMSTORE_ERR_NOT_FOUND ? cli_fail_errno(path, "read it") : cli_fail(path, r, NULL);
}

int cli_no_store(const char *path, asmstore_abi only) {
    fprintf(stderr, "asmstore: %s: no assembly store found%s. Looked for: an XABA store or a .so wrapping one; "
                    "a .NET 6-8 set (assemblies*.blob + assemblies.manifest); in an APK/AAB: lib/<abi>/libassembly-store.so, "
                    "lib/<abi>/libassemblies.<abi>.blob.so, assemblies/assemblies*.blob (and under base/). %s\n",
            path, only ? " for that ABI" : "",
            only ? "Try without --abi ('asmstore info' names the ABIs there)"
                 : "Is it a .NET for Android app (.NET 6 or later) built in Release? Debug builds keep the "
                   "assemblies outside the APK, and Xamarin.Android apps keep them as loose assemblies/*.dll");
    return 1;
}

int cli_fail_errno(const char *path, const char *doing) {
    int e = errno;
    struct stat st;
    int special = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode); /* cli_map_file's EINVAL */
    const char *hint = e == ENOENT ? "check the path" : e == EACCES || e == EPERM ? "check its permissions"
                     : e == ENOSPC || e == EDQUOT ? "free some disk space" : e == EISDIR ? "give a file, not a directory"
                     : e == ENOTDIR ? "a part of the path is not a directory"
                     : e == EINVAL && special ? "it is a pipe, socket or device: give a regular file" : "";
    fprintf(stderr, "asmstore: %s: cannot %s: %s%s%s\n", path, doing, e ? strerror(e) : "unknown error", *hint ? "; " : "",
            hint);
    return 2;
}

/* The header's mapping (asmstore__map_file: a FIFO never blocks the open), with an empty file mapped as
   NULL, 0 rather than refused. */
int cli_map_file(const char *path, const unsigned char **data, size_t *size) {
    unsigned char *m;
    asmstore_result r = asmstore__map_file(path, ASMSTORE_ERR_IO, ASMSTORE_ERR_TRUNCATED, &m, size, NULL);
    *data = m;
    if (r == ASMSTORE_ERR_TRUNCATED) return 0; /* empty: the only way map_file says TRUNCATED */
    return r == ASMSTORE_OK ? 0 : r == ASMSTORE_ERR_NOT_FOUND ? 1 : 2;
}

void cli_unmap_file(const unsigned char *data, size_t size) {
    if (data) munmap((void *)(uintptr_t)data, size);
}

/* ---- decompressor callback for XALZ (LZ4 block) images ---- */
asmstore_result cli_decompress(void *user, asmstore_compression kind, void *dst, size_t cap, const void *src,
                               size_t src_size, size_t *written) {
    (void)user;
#ifdef ASMSTORE_CLI_LZ4
    if (kind == ASMSTORE_COMPRESSION_LZ4) {
        int n;
        if (cap > INT_MAX || src_size > INT_MAX) return ASMSTORE_ERR_TOO_LARGE;
        n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_size, (int)cap);
        if (n < 0) return ASMSTORE_ERR_DECOMPRESS;
        *written = (size_t)n;
        return ASMSTORE_OK;
    }
#endif
    (void)kind; (void)dst; (void)cap; (void)src; (void)src_size; (void)written;
    return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
}

uint32_t *cli_attach_name_table(asmstore_reader *r) {
    size_t bytes = asmstore_reader_name_table_size(r) + 4; /* + 4: never malloc(0) */
    uint32_t *t = (uint32_t *)malloc(bytes);
    if (t && asmstore_reader_attach_name_table(r, t, bytes, NULL) != ASMSTORE_OK) { free(t); t = NULL; }
    return t;
}

/* For an APK: the ABIs whose store entry exists (usable or not), in arm64, arm, x86_64, x86 order.
   Returns their count, 0 when path is not a ZIP. */
static int cli_apk_abis(const char *path, asmstore_abi *out) {
    const unsigned char *p;
    size_t size;
    int n = 0, a, zip;
    if (cli_map_file(path, &p, &size) != 0) return 0;
    zip = size >= 4 && p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4;
    cli_unmap_file(p, size);
    if (!zip) return 0;
    for (a = 1; a <= 4; a++) {
        asmstore_locator l;
        asmstore_result r = asmstore_locate_apk(&l, path, (asmstore_abi)a, NULL, NULL);
        if (r != ASMSTORE_ERR_NOT_FOUND && r != ASMSTORE_ERR_BAD_ZIP) out[n++] = (asmstore_abi)a;
        asmstore_locator_close(&l);
    }
    return n;
}

/* ---- opening a STORE argument (cli_input.c) and saying what went wrong ---- */
static const char *abi_or_set(const cli_unit *u) {
    return u->abi == ASMSTORE_ABI_UNKNOWN ? "every ABI" : asmstore_abi_android_name(u->abi);
}

/* Prints why a unit could not be used; returns the exit status it stands for (1: invalid input). */
static int unit_problem(const cli_input *in, const cli_unit *u, FILE *f) {
    char why[512];
    const char *sep = strcmp(u->label, in->path) ? ": " : "";
    const char *label = strcmp(u->label, in->path) ? u->label : "";
    if (u->res == ASMSTORE_ERR_ZIP_COMPRESSED && u->zent.method == 8)
        fprintf(f, "asmstore: %s%s%s (%s): the entry is DEFLATEd and this asmstore was built without zlib "
                   "(install zlib1g-dev and rebuild)\n", in->path, sep, label, abi_or_set(u));
    else if (u->res == ASMSTORE_ERR_ZIP_COMPRESSED)
        fprintf(f, "asmstore: %s%s%s (%s): archive entry uses compression method %u; only STORED and DEFLATE are read\n",
                in->path, sep, label, abi_or_set(u), u->zent.method);
    else {
        const char *hint = cli_result_hint(u->res);
        fprintf(f, "asmstore: %s%s%s (%s): %s%s%s\n", in->path, sep, label, abi_or_set(u),
                cli_failure(u->res, &u->err, why, sizeof why), *hint ? "; " : "", hint);
    }
    return u->res == ASMSTORE_ERR_OUT_OF_MEMORY || u->res == ASMSTORE_ERR_IO ? 2 : 1;
}

/* Opens STORE; on failure prints what was looked for and returns the exit status (else 0). */
static int open_input(cli_input *in, const char *path, asmstore_abi only) {
    int rc = cli_input_open(in, path, only), i, any = 0;
    if (rc == 2) return cli_fail_errno(path, "read it");
    for (i = 0; i < in->n; i++) any |= in->units[i].selected;
    if (rc == 1 || !any) {
        cli_no_store(path, only);
        cli_input_close(in);
        return 1;
    }
    for (i = 0, any = 0; i < in->n; i++) any |= in->units[i].selected && in->units[i].opened;
    if (!any) { /* nothing usable: say why for each store, before any output is created */
        for (i = 0; i < in->n; i++) if (in->units[i].selected && (rc = unit_problem(in, &in->units[i], stderr)) > any) any = rc;
        cli_input_close(in);
        return any;
    }
    return 0;
}

/* "STORE [--json] [--abi A]" and the like: flags any command reading a store takes. */
typedef struct cli_args {
    const char *path, *dir;
    int json;
    asmstore_abi abi;
    char **names;
    int nnames;
} cli_args;

static int parse_store_args(int argc, char **argv, int allow_names, int allow_dir, cli_args *a) {
    int i;
    memset(a, 0, sizeof *a);
    a->names = (char **)calloc((size_t)argc + 1, sizeof *a->names);
    if (!a->names) return 2;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json") && !allow_dir) a->json = 1;
        else if (!strcmp(argv[i], "--abi") && i + 1 < argc) {
            if ((a->abi = asmstore_abi_parse(argv[++i])) == ASMSTORE_ABI_UNKNOWN) {
                fprintf(stderr, "asmstore: --abi %s: unknown ABI (try arm64-v8a, armeabi-v7a, x86_64 or x86)\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "-C") && allow_dir && i + 1 < argc) a->dir = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) return usage();
        else if (!a->path) a->path = argv[i];
        else if (allow_names) a->names[a->nnames++] = argv[i];
        else return usage();
    }
    if (!a->path || (allow_dir && !a->dir)) return usage();
    return 0;
}

/* ---- output helpers ---- */
/* Writes n bytes as a JSON string. Whatever the bytes, the output is valid JSON: quotes, backslashes
   and control characters are escaped, valid UTF-8 goes through as is, and each byte that does not
   start a valid UTF-8 sequence (stray continuation, overlong, surrogate, > U+10FFFF, truncated)
   becomes \ufffd, the replacement character, one per byte. */
static void json_string(FILE *f, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    fputc('"', f);
    while (i < n) {
        unsigned char c = u[i];
        size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else if (c < 0x80) fputc(c, f);
        else if (len <= n - i && asmstore__name_valid(u + i, len)) { fwrite(u + i, 1, len, f); i += len; continue; }
        else fputs("\\ufffd", f);
        i++;
    }
    fputc('"', f);
}

static const char *compression_name(asmstore_compression c) {
    return c == ASMSTORE_COMPRESSION_ZSTD ? "zstd" : c == ASMSTORE_COMPRESSION_LZ4 ? "lz4" : "none";
}

/* ---- list and info: one driver walks every selected store of STORE ---- */
typedef struct cli_visit {
    const cli_input *in;
    const cli_unit *u;
    int nth;               /* 0 for the first store printed */
    int many;              /* more than one store, or an archive: say which one each line is about */
    int json;
} cli_visit;

static int cli_each_store(int argc, char **argv, int json_array_always, void (*visit)(const cli_visit *v)) {
    cli_args a;
    cli_input in;
    int rc, i, nsel = 0, array, status = 0;
    cli_visit v;
    if ((rc = parse_store_args(argc, argv, 0, 0, &a)) != 0) { free(a.names); return rc; }
    free(a.names);
    if ((rc = open_input(&in, a.path, a.abi)) != 0) return rc;
    for (i = 0; i < in.n; i++) nsel += in.units[i].selected;
    array = a.json && (json_array_always || in.archive || nsel > 1);
    if (array) printf("[");
    v.in = &in; v.nth = 0; v.many = in.archive || nsel > 1; v.json = a.json;
    for (i = 0; i < in.n; i++) {
        if (!in.units[i].selected) continue;
        if (!in.units[i].opened) { int r = unit_problem(&in, &in.units[i], stderr); if (r > status) status = r; continue; }
        v.u = &in.units[i];
        visit(&v);
        v.nth++;
    }
    if (array) printf("\n]\n");
    cli_input_close(&in);
    return status;
}

static void list_visit(const cli_visit *v) {
    const cli_unit *u = v->u;
    uint32_t k;
    char fname[1200];
    if (v->many && !v->json)
        printf("# %s (%s, %s, payload at offset %llu)\n", u->label, abi_or_set(u), u->wrapper, (unsigned long long)u->payload_offset);
    if (u->r.format == 1 && !u->has_manifest && !v->json)
        printf("# no assemblies.manifest beside it: entries are shown by %s\n", u->r.store_id == 0 || u->r.v1_common ? "name hash" : "index");
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        asmstore_reader_entry(&u->r, k, &e, NULL);
        if (cli_entry_filename(u, &e, fname, sizeof fname) != 0) fname[0] = 0;
        if (v->json) {
            printf("%s\n {\"index\": %u, ", (v->nth == 0 && k == 0) ? "" : ",", k);
            if (v->many) {
                printf("\"abi\": \"%s\", \"store\": ", u->abi ? asmstore_abi_android_name(u->abi) : "any");
                json_string(stdout, u->label, strlen(u->label));
                printf(", ");
            }
            printf("\"name\": ");
            json_string(stdout, fname, strlen(fname));
            if (u->r.format == 1) printf(", \"named\": %s, \"xxh64\": \"%016llx\", \"mapping_index\": %u", e.name ? "true" : "false",
                                         (unsigned long long)e.hash, e.mapping_index);
            printf(", \"ignored\": %s, \"stored_size\": %zu, \"size\": %zu, \"compression\": \"%s\", \"pdb_size\": %zu, \"config_size\": %zu}",
                   e.ignored ? "true" : "false", e.image_size, e.uncompressed_size, compression_name(e.compression),
                   e.pdb_size, e.config_size);
        } else {
            printf("%5u %10zu %10zu %-4s %s%s%s%s\n", k, e.uncompressed_size, e.image_size, compression_name(e.compression),
                   fname, e.ignored ? " (ignored)" : "", e.pdb ? " +pdb" : "", e.config ? " +config" : "");
        }
    }
}

typedef struct store_totals { uint32_t ignored, compressed; unsigned long long stored, unpacked; } store_totals;

static store_totals totals_of(const asmstore_reader *r) {
    store_totals t;
    uint32_t k;
    memset(&t, 0, sizeof t);
    for (k = 0; k < r->entry_count; k++) {
        asmstore_entry e;
        asmstore_reader_entry(r, k, &e, NULL);
        t.ignored += (uint32_t)e.ignored;
        t.compressed += e.compression != ASMSTORE_COMPRESSION_NONE;
        t.stored += e.image_size;
        t.unpacked += e.uncompressed_size;
    }
    return t;
}

static void info_json(const cli_visit *v, const store_totals *t, const char *release) {
    const cli_unit *u = v->u;
    const asmstore_reader *r = &u->r;
    printf("%s{", v->nth ? ",\n" : "");
    if (u->in_zip)
        printf("\"apk_abi\": \"%s\", \"entry_offset\": %llu, \"entry_alignment\": %llu, \"from_split\": %s, \"payload_kind\": \"%s\", "
               "\"entry_deflated\": %s, ", u->abi ? asmstore_abi_android_name(u->abi) : "any", (unsigned long long)u->zent.data_offset,
               (unsigned long long)u->zent.alignment, u->from_split ? "true" : "false", u->wrapper, u->deflated ? "true" : "false");
    printf("\"store\": ");
    json_string(stdout, u->label, strlen(u->label));
    printf(", \"release\": ");
    json_string(stdout, release, strlen(release));
    printf(", \"runtime\": \"%s\", \"wrapper\": \"%s\", \"payload_offset\": %llu, \"format\": %u, \"version_word\": \"0x%08x\", "
           "\"abi\": \"%s\", \"hash\": \"%s\", \"header_size\": %zu, ",
           cli_unit_runtime(u), u->wrapper, (unsigned long long)u->payload_offset, r->format, r->version_word,
           r->format == 1 ? (u->abi ? asmstore_abi_name(u->abi) : "any") : asmstore_abi_name(r->abi), asmstore_hash_name(r->hash_kind),
           r->header_size);
    if (r->has_content_id) printf("\"content_id\": \"%016llx\", ", (unsigned long long)r->content_id);
    else printf("\"content_id\": null, ");
    if (r->format == 1) printf("\"store_id\": %u, \"hash_table_rows\": %u, \"manifest\": %s, ", r->store_id, r->global_entry_count,
                               u->has_manifest ? "true" : "false");
    printf("\"entries\": %u, \"ignored\": %u, \"compressed\": %u, \"index_entry_size\": %u, \"store_size\": %zu, "
           "\"stored_bytes\": %llu, \"uncompressed_bytes\": %llu}%s",
           r->entry_count, t->ignored, t->compressed, r->index_entry_size, r->size, t->stored, t->unpacked, v->many ? "" : "\n");
}

static void info_visit(const cli_visit *v) {
    const cli_unit *u = v->u;
    const asmstore_reader *r = &u->r;
    store_totals t = totals_of(r);
    char release[160];
    cli_unit_release(u, release, sizeof release);
    if (v->json) { info_json(v, &t, release); return; }
    if (v->nth) printf("\n");
    if (v->many) printf("store:          %s\n", u->label);
    if (u->in_zip)
        printf("archive entry:  at offset %llu (%llu-byte aligned)%s%s\n", (unsigned long long)u->zent.data_offset,
               (unsigned long long)u->zent.alignment, u->deflated ? ", DEFLATEd (inflated to read it)" : ", STORED",
               u->from_split ? ", from the ABI split" : "");
    printf("layout:         %s\n", release);
    printf("runtime:        %s\n", cli_unit_runtime(u));
    printf("wrapper:        %s\n", u->wrapper);
    printf("payload offset: %llu\n", (unsigned long long)u->payload_offset);
    printf("format:         %u (version word 0x%08x, %zu-byte header)\n", r->format, r->version_word, r->header_size);
    printf("abi:            %s\n", abi_or_set(u));
    if (r->format == 1) {
        printf("store id:       %u%s\n", r->store_id, r->store_id == 0 ? " (assemblies.blob: holds the XXH32 and XXH64 tables)" : "");
        printf("names:          %s\n", u->has_manifest ? "from assemblies.manifest" : "none (no manifest found beside it)");
    } else {
        printf("name hash:      %s (%u-byte index entries)\n", asmstore_hash_name(r->hash_kind), r->index_entry_size);
    }
    if (r->has_content_id) printf("content id:     %016llx\n", (unsigned long long)r->content_id);
    else printf("content id:     none (format %u)\n", r->format);
    printf("entries:        %u (%u ignored, %u compressed)\n", r->entry_count, t.ignored, t.compressed);
    printf("store size:     %zu bytes\n", r->size);
    printf("images:         %llu bytes stored, %llu bytes uncompressed\n", t.stored, t.unpacked);
}

static int cmd_list(int argc, char **argv) { return cli_each_store(argc, argv, 1, list_visit); }
static int cmd_info(int argc, char **argv) { return cli_each_store(argc, argv, 0, info_visit); }

/* Decompresses one entry into a fresh buffer; prints a problem (naming the store) and returns NULL on failure. */
static unsigned char *cli_read_entry(const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx, const char *fname) {
    asmstore_error err;
    unsigned char *buf = (unsigned char *)malloc(e->uncompressed_size ? e->uncompressed_size : 1);
    asmstore_result res;
    if (!buf) return NULL;
    res = asmstore_reader_read(&u->r, e, buf, e->uncompressed_size, dctx, &err);
    if (res != ASMSTORE_OK) {
        printf("%s (%s): entry %u %s: %s\n", u->label, abi_or_set(u), e->index, fname, asmstore_result_string(res));
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- verify: exit 0 valid; 1 problems found, each printed with its store and ABI; 2 usage or I/O ---- */
/* Each entry must be reachable by its names (v2+: with and without the extension). */
static int verify_lookup(const cli_unit *u, const asmstore_entry *e, const char *fname) {
    asmstore_entry f;
    asmstore_result r1, r2, want = e->ignored ? ASMSTORE_ERR_IGNORED : ASMSTORE_OK;
    if (!e->name) return 0; /* format 1 without a manifest: known by hash only */
    r1 = asmstore_reader_find(&u->r, e->name, e->name_len, &f, NULL);
    r2 = u->r.format == 1 ? asmstore_reader_find(&u->r, fname, strlen(fname), NULL, NULL)
                          : asmstore_reader_find(&u->r, e->name, asmstore_name_base_len(e->name, e->name_len), NULL, NULL);
    if (r1 == want && r2 == want && (r1 != ASMSTORE_OK || f.index == e->index)) return 0;
    printf("%s (%s): entry %u %s: lookup by name gives %s / %s\n", u->label, abi_or_set(u), e->index, fname,
           asmstore_result_string(r1), asmstore_result_string(r2));
    return 1;
}

/* A ReadyToRun component stub's composite image must be in the store: CoreCLR aborts without a word otherwise. */
static int verify_composite(const cli_unit *u, const asmstore_entry *e, const char *fname, const unsigned char *image) {
    const char *owner;
    size_t len;
    if (!e->name || !cli_r2r_composite_owner(image, e->uncompressed_size, &owner, &len)) return 0;
    if (asmstore_reader_find(&u->r, owner, len, NULL, NULL) == ASMSTORE_OK) return 0;
    printf("%s (%s): entry %u %s: a ReadyToRun component stub whose code is in the composite image %.*s, which the "
           "store does not hold (CoreCLR aborts without a message); pack %.*s into the store too\n",
           u->label, abi_or_set(u), e->index, fname, (int)len, owner, (int)len, owner);
    return 1;
}

static int verify_unit(const cli_unit *u, ZSTD_DCtx *dctx) {
    int problems = 0;
    uint32_t k;
    char fname[1200];
    if (u->r.has_content_id && u->r.header_size == ASMSTORE_HEADER_SIZE_V4) {
        uint64_t id = asmstore_xxh3_64(u->r.data + ASMSTORE_HEADER_SIZE_V4, u->r.size - ASMSTORE_HEADER_SIZE_V4);
        if (id != u->r.content_id) {
            printf("%s (%s): content id %016llx does not match the store's bytes (%016llx)\n", u->label, abi_or_set(u),
                   (unsigned long long)u->r.content_id, (unsigned long long)id);
            problems++;
        }
    }
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        unsigned char *buf;
        asmstore_reader_entry(&u->r, k, &e, NULL);
        if (cli_entry_filename(u, &e, fname, sizeof fname) != 0) fname[0] = 0;
        problems += verify_lookup(u, &e, fname);
        if (e.ignored) continue;
        if (!(buf = cli_read_entry(u, &e, dctx, fname))) { problems++; continue; }
        problems += verify_composite(u, &e, fname, buf);
        free(buf);
    }
    return problems;
}

static int cmd_verify(int argc, char **argv) {
    cli_args a;
    cli_input in;
    int rc, i, problems = 0, bad_stores = 0, checked = 0;
    const cli_unit *last = NULL;
    ZSTD_DCtx *dctx;
    if ((rc = parse_store_args(argc, argv, 0, 0, &a)) != 0 || a.json) { free(a.names); return rc ? rc : usage(); }
    free(a.names);
    if ((rc = open_input(&in, a.path, a.abi)) != 0) {
        if (rc == 1) printf("%s: invalid store\n", a.path);
        return rc;
    }
    dctx = ZSTD_createDCtx();
    for (i = 0; i < in.n; i++) {
        const cli_unit *u = &in.units[i];
        int p;
        if (!u->selected) continue;
        checked++;
        last = u;
        if (!u->opened) { unit_problem(&in, u, stdout); bad_stores++; problems++; continue; }
        p = verify_unit(u, dctx);
        problems += p;
        bad_stores += p > 0;
        if (in.n > 1) printf("%s (%s): %s, %u entries\n", u->label, abi_or_set(u), p ? "FAILED" : "ok", u->r.entry_count);
    }
    ZSTD_freeDCtx(dctx);
    if (problems) printf("%d problem(s) in %d of %d store(s)\n", problems, bad_stores, checked);
    else if (checked == 1) printf("%s: ok, %u entries\n", a.path, last->r.entry_count);
    else printf("%s: ok, %d stores\n", a.path, checked);
    cli_input_close(&in);
    return problems ? 1 : 0;
}

/* ---- extract ---- */
/* Writes one file under the -C directory descriptor: never through a symlink, never outside it. */
static int write_extracted(int rootfd, const char *dir, const char *rel, const void *data, size_t size) {
    int rc = cli_write_under(rootfd, rel, data, size, 0644);
    if (rc == 1) fprintf(stderr, "asmstore: refusing to write %s under %s: an unsafe name, or a symlink or non-directory in the way "
                         "(extract writes under -C DIR only: extract into a new, empty directory)\n", rel, dir);
    else if (rc == 2) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s/%s", dir, rel);
        cli_fail_errno(n >= 0 && (size_t)n < sizeof path ? path : rel, "write it");
    }
    return rc;
}

typedef struct extract_job {
    int rootfd;
    const char *dir;
    ZSTD_DCtx *dctx;
    unsigned long long files, bytes;
    int unnamed;
} extract_job;

/* Writes one entry (and its .pdb / .config) under DIR[/<abi>]; returns the worst exit status. */
static int extract_entry(extract_job *j, const cli_unit *u, const asmstore_entry *e, const char *abi_dir) {
    char fname[1200], rel[PATH_MAX];
    unsigned char *buf;
    int rc;
    if (cli_entry_filename(u, e, fname, sizeof fname) != 0) return 1;
    if (!(buf = cli_read_entry(u, e, j->dctx, fname))) return 1;
    snprintf(rel, sizeof rel, "%s%s", abi_dir, fname);
    rc = write_extracted(j->rootfd, j->dir, rel, buf, e->uncompressed_size);
    free(buf);
    if (rc) return rc;
    j->files++; j->bytes += e->uncompressed_size;
    j->unnamed |= u->r.format == 1 && !e->name;
    if (e->pdb) {
        snprintf(rel, sizeof rel, "%s%.*s.pdb", abi_dir, (int)asmstore_name_base_len(fname, strlen(fname)), fname);
        if ((rc = write_extracted(j->rootfd, j->dir, rel, e->pdb, e->pdb_size)) != 0) return rc;
        j->files++; j->bytes += e->pdb_size;
    }
    if (e->config) {
        /* format 1 stores the .config with one NUL appended (store-releases.md §2.3): give the file back */
        size_t n = e->config_size - (u->r.format == 1 && e->config[e->config_size - 1] == 0);
        snprintf(rel, sizeof rel, "%s%s.config", abi_dir, fname);
        if ((rc = write_extracted(j->rootfd, j->dir, rel, e->config, n)) != 0) return rc;
        j->files++; j->bytes += e->config_size;
    }
    return 0;
}

/* More than one ABI among the selected stores: each ABI's files go to DIR/<abi>/. */
static int several_abis(const cli_input *in) {
    int i;
    asmstore_abi seen = ASMSTORE_ABI_UNKNOWN;
    for (i = 0; i < in->n; i++) {
        const cli_unit *u = &in->units[i];
        if (!u->selected || !u->opened || u->abi == ASMSTORE_ABI_UNKNOWN) continue;
        if (seen != ASMSTORE_ABI_UNKNOWN && u->abi != seen) return 1;
        seen = u->abi;
    }
    return 0;
}

/* Extracts the stores of one input: all entries, or those named (each looked up once per store). */
static int extract_input(extract_job *j, const cli_input *in, char **names, int nnames) {
    int i, n, status = 0, per_abi = several_abis(in);
    int *found = (int *)calloc((size_t)nnames + 1, sizeof *found);
    if (!found) return 2;
    for (i = 0; i < in->n && status < 2; i++) {
        const cli_unit *u = &in->units[i];
        char abi_dir[32] = "";
        uint32_t k;
        if (!u->selected) continue;
        if (!u->opened) { if (unit_problem(in, u, stderr) > status) status = 1; continue; }
        if (per_abi && u->abi != ASMSTORE_ABI_UNKNOWN) snprintf(abi_dir, sizeof abi_dir, "%s/", asmstore_abi_android_name(u->abi));
        for (n = 0; n < nnames && status < 2; n++) {
            asmstore_entry e;
            int rc;
            if (asmstore_reader_find(&u->r, names[n], strlen(names[n]), &e, NULL) != ASMSTORE_OK) continue;
            found[n] = 1;
            if ((rc = extract_entry(j, u, &e, abi_dir)) > status) status = rc;
        }
        for (k = 0; !nnames && k < u->r.entry_count && status < 2; k++) {
            asmstore_entry e;
            int rc;
            asmstore_reader_entry(&u->r, k, &e, NULL);
            if (!e.ignored && (rc = extract_entry(j, u, &e, abi_dir)) > status) status = rc;
        }
    }
    for (n = 0; n < nnames; n++)
        if (!found[n]) {
            fprintf(stderr, "asmstore: %s: no entry named %s (names are matched with or without .dll; see asmstore list)\n", in->path, names[n]);
            if (status < 1) status = 1;
        }
    free(found);
    return status;
}

static int cmd_extract(int argc, char **argv) {
    cli_args a;
    cli_input in;
    extract_job j;
    int rc;
    if ((rc = parse_store_args(argc, argv, 1, 1, &a)) != 0) { free(a.names); return rc; }
    /* open the input first: a store that cannot be read creates no directory */
    if ((rc = open_input(&in, a.path, a.abi)) != 0) { free(a.names); return rc; }
    memset(&j, 0, sizeof j);
    if ((j.rootfd = cli_dir_open(a.dir, 1)) < 0) {
        fprintf(stderr, "asmstore: -C %s: %s (give -C a new or existing directory, not a symlink)\n", a.dir,
                errno == ELOOP || errno == ENOTDIR ? "not a directory" : strerror(errno));
        cli_input_close(&in); free(a.names);
        return 2;
    }
    j.dir = a.dir;
    j.dctx = ZSTD_createDCtx();
    rc = extract_input(&j, &in, a.names, a.nnames);
    ZSTD_freeDCtx(j.dctx);
    close(j.rootfd);
    printf("extracted %llu file%s (%llu bytes) to %s%s\n", j.files, j.files == 1 ? "" : "s", j.bytes, a.dir,
           j.unnamed ? " (no assemblies.manifest: unnamed entries are named after their XXH64 hash)" : "");
    cli_input_close(&in);
    free(a.names);
    return rc;
}

/* ---- pack ---- */
/* abi: UNKNOWN for ordinary inputs; format 1's arch entries (--arch ABI PATH) carry their ABI */
/* one input: its name in the store, its path, and its image, pdb and config once mapped (pack_map_item) */
typedef struct pack_item {
    char *name, *path;
    asmstore_abi abi;
    int uncompressed; /* --keep-uncompressed named it */
    const unsigned char *bytes[3];
    size_t sizes[3];
} pack_item;
typedef struct pack_list { pack_item *items; size_t n, cap; asmstore_abi abi; /* of the items pushed now */ } pack_list;

static int has_suffix(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int pack_push(pack_list *l, const char *name, const char *path) {
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        pack_item *ni = (pack_item *)realloc(l->items, nc * sizeof *ni);
        if (!ni) return -1;
        l->items = ni;
        l->cap = nc;
    }
    memset(&l->items[l->n], 0, sizeof l->items[l->n]);
    l->items[l->n].name = strdup(name);
    l->items[l->n].path = strdup(path);
    l->items[l->n].abi = l->abi;
    if (!l->items[l->n].name || !l->items[l->n].path) return -1;
    l->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names of the regular files (symlinks followed) in dir that pass keep(); NULL-terminated. */
static char **list_dir(const char *dir, int (*keep)(const char *), size_t *count) {
    DIR *d = opendir(dir);
    struct dirent *de;
    char **v = NULL;
    size_t n = 0, cap = 0;
    *count = 0;
    if (!d) return NULL;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || (keep && !keep(de->d_name))) continue;
        if (n + 1 >= cap) {
            char **nv;
            cap = cap ? cap * 2 : 64;
            nv = (char **)realloc(v, cap * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        v[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (v) { qsort(v, n, sizeof *v, cmp_str); v[n] = NULL; }
    *count = n;
    return v;
}

static void free_list(char **v, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) free(v[i]);
    free(v);
}

static int is_satellite(const char *name) { return has_suffix(name, ".resources.dll"); }

/* DIR: every .dll in it (what a .NET for Android store holds; name .exe files explicitly), plus culture/X.resources.dll satellites one level down. */
static int pack_collect_dir(pack_list *l, const char *dir) {
    size_t n, i, m, j;
    char **v = list_dir(dir, NULL, &n);
    char path[PATH_MAX];
    struct stat st;
    if (!v) { cli_fail_errno(dir, "list the directory"); return -1; }
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, v[i]);
        if (stat(path, &st) != 0) continue;
        if (S_ISREG(st.st_mode) && has_suffix(v[i], ".dll")) {
            if (pack_push(l, v[i], path)) return -1;
        } else if (S_ISDIR(st.st_mode)) {
            char **sv = list_dir(path, is_satellite, &m);
            for (j = 0; sv && j < m; j++) {
                char name[PATH_MAX], spath[PATH_MAX + NAME_MAX + 2];
                snprintf(name, sizeof name, "%s/%s", v[i], sv[j]);
                snprintf(spath, sizeof spath, "%s/%s", path, sv[j]);
                if (pack_push(l, name, spath)) return -1;
            }
            if (sv) free_list(sv, m);
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
        snprintf(buf, sizeof buf, "%.*s.pdb", (int)asmstore_name_base_len(path, strlen(path)), path);
    } else {
        snprintf(buf, sizeof buf, "%s.config", path);
    }
    return (stat(buf, &st) == 0 && S_ISREG(st.st_mode)) ? strdup(buf) : NULL;
}

static void show_progress(void *user, size_t done, size_t total) {
    (void)user;
    fprintf(stderr, "\rcompressing %zu/%zu", done, total);
    if (done == total) fputc('\n', stderr);
}

/* --template's file: its bytes (eo->stub points into them) and its path, named when it is what failed. */
typedef struct wrap_template {
    void *data;
    const char *path;
} wrap_template;

/* Shared by pack and wrap: --wrap/--mode, --template, --symbol, --soname, --align. Returns 1 when
   argv[*k] was one of them (and consumed its value), 0 when not, -1 on a bad value. */
static int elf_option(int argc, char **argv, int *k, asmstore_elf_options *eo, int *raw, wrap_template *tpl) {
    const char *a = argv[*k], *v = *k + 1 < argc ? argv[*k + 1] : NULL;
    if (!strcmp(a, "--raw")) { *raw = 1; return 1; }
    if (!v) return 0;
    if (!strcmp(a, "--wrap") || !strcmp(a, "--mode")) {
        if (!strcmp(v, "dlopen")) eo->mode = ASMSTORE_ELF_MODE_DLOPEN;
        else if (!strcmp(v, "section")) eo->mode = ASMSTORE_ELF_MODE_SECTION;
        else { fprintf(stderr, "asmstore: unknown wrapper mode %s (dlopen or section)\n", v); return -1; }
    } else if (!strcmp(a, "--template")) {
        asmstore_result res;
        free(tpl->data);
        tpl->data = NULL;
        res = asmstore_read_file(v, NULL, &tpl->data, &eo->stub_size, NULL);
        if (res != ASMSTORE_OK) { cli_fail_read(v, res); return -1; }
        eo->stub = tpl->data;
        tpl->path = v;
        eo->mode = ASMSTORE_ELF_MODE_TEMPLATE;
    } else if (!strcmp(a, "--symbol")) eo->symbol = v;
    else if (!strcmp(a, "--soname")) eo->soname = v;
    else if (!strcmp(a, "--align")) eo->alignment = (size_t)strtoull(v, NULL, 0);
    else return 0;
    (*k)++;
    return 1;
}

/* Writes payload as a .so per eo, or raw when raw is set; reports on stderr, naming the template when
   its bytes are what the generator refused. */
static int write_output(const char *out, const asmstore_elf_options *eo, const char *template_path, int raw,
                        const void *data, size_t size) {
    asmstore_error err;
    asmstore_result res = raw ? asmstore_write_file(out, data, size, 0644, &err)
                              : asmstore_elf_write_file(out, eo, data, size, 0644, &err);
    int stub_refused = eo->mode == ASMSTORE_ELF_MODE_TEMPLATE && template_path &&
                       (res == ASMSTORE_ERR_BAD_ELF || res == ASMSTORE_ERR_UNSUPPORTED || res == ASMSTORE_ERR_ABI_MISMATCH);
    if (res == ASMSTORE_OK) return 0;
    if (res == ASMSTORE_ERR_IO) return cli_fail_errno(out, "write it");
    return cli_fail(stub_refused ? template_path : out, res, &err);
}

/* ---- compressor callback for XALZ: LZ4 HC into a raw block, as K4os LZ4Codec.Encode did ---- */
asmstore_result cli_compress(void *user, asmstore_compression kind, int level, void *dst, size_t cap,
                             const void *src, size_t src_size, size_t *written) {
    (void)user;
#ifdef ASMSTORE_CLI_LZ4
    if (kind == ASMSTORE_COMPRESSION_LZ4) {
        int n;
        if (src_size > LZ4_MAX_INPUT_SIZE || cap > INT_MAX) return ASMSTORE_ERR_TOO_LARGE;
        n = LZ4_compress_HC((const char *)src, (char *)dst, (int)src_size, (int)cap, level);
        if (n <= 0) return ASMSTORE_ERR_BUFFER_TOO_SMALL;
        *written = (size_t)n;
        return ASMSTORE_OK;
    }
#endif
    (void)kind; (void)level; (void)dst; (void)cap; (void)src; (void)src_size; (void)written;
    return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
}

/* One FILE|DIR argument: a directory adds its assemblies (pack_collect_dir), a file itself. */
static int pack_input(pack_list *l, const char *arg) {
    struct stat st;
    const char *base = strrchr(arg, '/');
    if (stat(arg, &st) != 0) { cli_fail_errno(arg, "add it (an assembly or a directory of them)"); return -1; }
    if (S_ISDIR(st.st_mode)) return pack_collect_dir(l, arg);
    return pack_push(l, base ? base + 1 : arg, arg);
}

/* What pack's flags asked for; 0 / NULL: the preset's choice. */
typedef struct pack_args {
    const char *out;
    asmstore_target target;
    int runtime;                  /* -1: the target's default */
    asmstore_abi abi;
    uint32_t format;
    const char *hash, *compression;
    int level, jobs, with_pdb, raw, wrap_set;
    size_t align_images;
    const char **keep;            /* --keep-uncompressed NAMEs (argv's strings) */
    size_t nkeep;
} pack_args;

/* Parses pack's command line into a, eo (wrapper flags) and l (inputs). Returns 0 or an exit code. */
static int pack_parse(int argc, char **argv, pack_args *a, asmstore_elf_options *eo, wrap_template *tpl, pack_list *l) {
    int k, eor;
    for (k = 0; k < argc; k++) {
        const char *o = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        a->wrap_set |= !strcmp(o, "--wrap") || !strcmp(o, "--template");
        if ((eor = elf_option(argc, argv, &k, eo, &a->raw, tpl)) != 0) { if (eor < 0) return 2; }
        else if (!strcmp(o, "-o") && v) { a->out = v; k++; }
        else if (!strcmp(o, "--target") && v) {
            k++;
            if (!(a->target = asmstore_target_parse(v))) { fprintf(stderr, "asmstore: unknown target %s (net8, net9, net10, net11, net11-preview)\n", v); return 2; }
        }
        else if (!strcmp(o, "--abi") && v) { a->abi = asmstore_abi_parse(v); k++; if (!a->abi) { fprintf(stderr, "asmstore: unknown ABI %s (try arm64-v8a, armeabi-v7a, x86_64 or x86)\n", v); return 2; } }
        else if (!strcmp(o, "--runtime") && v) {
            k++;
            if (!strcmp(v, "coreclr")) a->runtime = ASMSTORE_RUNTIME_CORECLR;
            else if (!strcmp(v, "monovm")) a->runtime = ASMSTORE_RUNTIME_MONOVM;
            else { fprintf(stderr, "asmstore: unknown runtime %s (coreclr or monovm)\n", v); return 2; }
        }
        else if (!strcmp(o, "--format") && v) { a->format = (uint32_t)atoi(v); k++; if (a->format < 1 || a->format > 4) { fprintf(stderr, "asmstore: format must be 1, 2, 3 or 4\n"); return 2; } }
        else if (!strcmp(o, "--hash") && v) {
            a->hash = v; k++;
            if (strcmp(v, "crc32") && strcmp(v, "xxhash")) { fprintf(stderr, "asmstore: hash must be crc32 or xxhash\n"); return 2; }
        }
        else if (!strcmp(o, "--compression") && v) {
            a->compression = v; k++;
            if (strcmp(v, "zstd") && strcmp(v, "lz4") && strcmp(v, "none")) { fprintf(stderr, "asmstore: compression must be zstd, lz4 or none\n"); return 2; }
        }
        else if (!strcmp(o, "--no-compress")) a->compression = "none";
        else if (!strcmp(o, "--level") && v) { a->level = atoi(v); k++; if (a->level < 1) { fprintf(stderr, "asmstore: level must be >= 1\n"); return 2; } }
        else if (!strcmp(o, "--jobs") && v) { a->jobs = atoi(v); k++; if (a->jobs < 1) { fprintf(stderr, "asmstore: jobs must be >= 1\n"); return 2; } }
        else if (!strcmp(o, "--align-images") && v) {
            char *end;
            unsigned long long n = strtoull(v, &end, 0);
            k++;
            if (*end || n < 1 || n > 16384 || (n & (n - 1))) { fprintf(stderr, "asmstore: --align-images takes a power of two, 1 .. 16384\n"); return 2; }
            a->align_images = (size_t)n;
        }
        else if (!strcmp(o, "--keep-uncompressed") && v) {
            k++;
            if (!a->keep && !(a->keep = (const char **)malloc((size_t)argc * sizeof *a->keep))) { fprintf(stderr, "asmstore: out of memory\n"); return 2; }
            a->keep[a->nkeep++] = v;
        }
        else if (!strcmp(o, "--pdb")) a->with_pdb = 1;
        else if (!strcmp(o, "--arch") && v && k + 2 < argc) {
            /* format 1: PATH goes into that ABI's arch store */
            asmstore_abi abi = asmstore_abi_parse(v);
            if (!abi) { fprintf(stderr, "asmstore: unknown ABI %s (try arm64-v8a, armeabi-v7a, x86_64 or x86)\n", v); return 2; }
            l->abi = abi;
            if (pack_input(l, argv[k + 2])) return 2;
            l->abi = ASMSTORE_ABI_UNKNOWN;
            k += 2;
        }
        else if (o[0] == '-' && o[1]) return usage();
        else if (pack_input(l, o)) return 2;
    }
    return a->out && l->n ? 0 : usage();
}

#define PACK_CORECLR_ALIGNMENT 4096u /* the image base page-aligned, as a file's is on 4 KiB kernels */

/* Where images start. CoreCLR maps an uncompressed image in place through its bundle_probe door and
   crashes on one at an odd offset, so those get PACK_CORECLR_ALIGNMENT unless --align-images says
   otherwise (1 still reproduces a release's back-to-back layout, with a warning). */
static void pack_alignment(const pack_args *a, asmstore_write_options *o) {
    int clr_in_place = o->runtime == ASMSTORE_RUNTIME_CORECLR && (o->no_compress || a->nkeep);
    if (a->align_images) o->image_alignment = a->align_images;
    else if (clr_in_place) o->image_alignment = PACK_CORECLR_ALIGNMENT;
    /* uncompressed without an explicit --target: no release's bytes to match, so images get the
       writer's default alignment (16), which runtimes can use in place */
    else if (o->no_compress && !a->target) o->image_alignment = 0;
    if (clr_in_place && o->image_alignment == 1)
        fprintf(stderr, "asmstore: warning: --align-images 1 lets uncompressed images start at odd offsets, which "
                        "CoreCLR's bundle_probe door cannot map (the runtime crashes); leave --align-images out "
                        "(%u) or give 16 or more, unless you need a release's back-to-back layout\n",
                PACK_CORECLR_ALIGNMENT);
}

/* The write options: the preset for --target/--runtime/--abi (default net11 coreclr arm64), then
   every explicit flag over its part. Returns 0 or an exit code. */
static int pack_options(const pack_args *a, asmstore_write_options *o, asmstore_preset *info) {
    asmstore_target target = a->target ? a->target : ASMSTORE_TARGET_NET11;
    /* no --runtime: the release's default (MonoVM through .NET 10, CoreCLR from 11) */
    asmstore_runtime rt = a->runtime >= 0 ? (asmstore_runtime)a->runtime
                          : target <= ASMSTORE_TARGET_NET10 ? ASMSTORE_RUNTIME_MONOVM : ASMSTORE_RUNTIME_CORECLR;
    asmstore_compression preset_kind;
    int max_level;
    if (asmstore_write_options_preset(o, target, rt, a->abi, info, NULL) != ASMSTORE_OK) {
        fprintf(stderr, "asmstore: no %s store exists for %s (coreclr stores start with net10)\n",
                rt == ASMSTORE_RUNTIME_CORECLR ? "coreclr" : "monovm", asmstore_target_name(target));
        return 2;
    }
    preset_kind = o->compression;
    if (a->format) o->format = a->format;
    if (o->format == 1) o->hash = ASMSTORE_HASH_UNKNOWN; /* its tables are XXH32 + XXH64 */
    if (a->hash) {
        if (o->format == 1) { fprintf(stderr, "asmstore: format 1 always holds XXH32 and XXH64 tables (no --hash)\n"); return 2; }
        o->hash = !strcmp(a->hash, "crc32") ? ASMSTORE_HASH_CRC32
                  : (o->abi == ASMSTORE_ABI_ARM64 || o->abi == ASMSTORE_ABI_X86_64) ? ASMSTORE_HASH_XXH3_64 : ASMSTORE_HASH_XXH32;
    }
    if (a->compression) {
        o->no_compress = !strcmp(a->compression, "none");
        if (!o->no_compress) o->compression = !strcmp(a->compression, "lz4") ? ASMSTORE_COMPRESSION_LZ4 : ASMSTORE_COMPRESSION_ZSTD;
        if (o->compression != preset_kind) o->level = 0; /* the kind's own default: zstd 3, LZ4 HC 12 */
    }
    max_level = o->compression == ASMSTORE_COMPRESSION_LZ4 ? 12 : 22;
    if (a->level > max_level) { fprintf(stderr, "asmstore: level must be 1..%d for %s\n", max_level, max_level == 12 ? "LZ4 HC" : "zstd"); return 2; }
    if (a->level) o->level = a->level;
    if (a->jobs) o->jobs = a->jobs;
    pack_alignment(a, o);
    o->compress = cli_compress;
    return 0;
}

/* Marks the inputs each --keep-uncompressed NAME (a name or an fnmatch pattern) matches; a NAME that
   matches none is a usage error (exit 2). */
static int pack_mark_kept(pack_list *l, const pack_args *a) {
    size_t k, i;
    for (k = 0; k < a->nkeep; k++) {
        size_t matched = 0;
        for (i = 0; i < l->n; i++) {
            if (fnmatch(a->keep[k], l->items[i].name, 0) != 0) continue;
            l->items[i].uncompressed = 1;
            matched++;
        }
        if (matched) continue;
        fprintf(stderr, "asmstore: --keep-uncompressed %s: no input is stored under that name; give an entry name as "
                        "the store lists it (e.g. %s) or a pattern such as '*.r2r.dll'\n", a->keep[k], l->items[0].name);
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

/* Format 1: every file of the set into DIR (created if missing), each written atomically. */
static int pack_write_set(const asmstore_writer *w, const char *dir) {
    struct stat st;
    size_t i, size;
    const char *name;
    const void *data;
    if (stat(dir, &st) != 0 && mkdir(dir, 0755) != 0) return cli_fail_errno(dir, "create the directory");
    for (i = 0; asmstore_writer_output(w, i, &name, &data, &size, NULL) == ASMSTORE_OK; i++) {
        char path[PATH_MAX];
        asmstore_error err;
        asmstore_result res;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if ((res = asmstore_write_file(path, data, size, 0644, &err)) != ASMSTORE_OK)
            return res == ASMSTORE_ERR_IO ? cli_fail_errno(path, "write it") : cli_fail(path, res, &err);
        fprintf(stderr, "%s: %zu bytes\n", path, size);
    }
    return 0;
}

/* Maps an input's image and the companions found beside it; returns 0 or an exit code. Mapped, not
   read: the writer borrows the page cache's bytes (no copy, no new memory) until it is freed. */
static int pack_map_item(pack_item *it, int with_pdb) {
    char *paths[3];
    int k, rc = 0;
    paths[0] = it->path;
    paths[1] = with_pdb ? companion(it->path, 1) : NULL;
    paths[2] = companion(it->path, 0);
    for (k = 0; k < 3 && rc == 0; k++) {
        if (!paths[k]) continue;
        rc = cli_map_file(paths[k], &it->bytes[k], &it->sizes[k]);
        if (rc) cli_fail_errno(paths[k], "read it"); /* 1: gone since pack_input saw it (errno ENOENT) */
    }
    free(paths[1]);
    free(paths[2]);
    return rc ? 2 : 0;
}

static void pack_unmap_all(pack_list *l) {
    size_t i;
    int k;
    for (i = 0; i < l->n; i++)
        for (k = 0; k < 3; k++) cli_unmap_file(l->items[i].bytes[k], l->items[i].sizes[k]);
}

/* Adds every input; returns 0 or an exit code. */
static int pack_add_all(asmstore_writer *w, pack_list *l, int with_pdb) {
    size_t i;
    int rc;
    for (i = 0; i < l->n; i++) {
        pack_item *it = &l->items[i];
        asmstore_add ao;
        asmstore_result res;
        if ((rc = pack_map_item(it, with_pdb)) != 0) return rc;
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
            fprintf(stderr, "asmstore: %s (%s): %s; %s\n", it->name, it->path, asmstore_result_string(res),
                    res == ASMSTORE_ERR_INVALID_ARG && ao.abi ? "--arch needs --target net8 or --format 1"
                    : *cli_result_hint(res) ? cli_result_hint(res) : "give .NET assemblies (.dll) only");
            return 1;
        }
    }
    return 0;
}

/* Is one of the inputs stored under name? */
static int pack_has_name(const pack_list *l, const char *name, size_t len) {
    size_t i;
    for (i = 0; i < l->n; i++)
        if (strlen(l->items[i].name) == len && !memcmp(l->items[i].name, name, len)) return 1;
    return 0;
}

/* Refuses ReadyToRun component stubs whose composite image is not among the (mapped) inputs: CoreCLR
   aborts without a word on loading one. Returns 0 or 2. */
static int pack_check_composites(const pack_list *l) {
    size_t i, missing = 0;
    for (i = 0; i < l->n; i++) {
        const pack_item *it = &l->items[i];
        const char *owner;
        size_t len;
        if (!cli_r2r_composite_owner(it->bytes[0], it->sizes[0], &owner, &len) || pack_has_name(l, owner, len)) continue;
        if (missing++) continue;
        fprintf(stderr, "asmstore: %s (%s) is a ReadyToRun component stub whose code is in the composite image %.*s, "
                        "which is not among the inputs (CoreCLR would abort without a message); add %.*s (crossgen2 "
                        "writes it beside the stubs), or pack the IL assemblies instead of the stubs\n",
                it->name, it->path, (int)len, owner, (int)len, owner);
    }
    if (missing > 1) fprintf(stderr, "asmstore: %zu component stubs in all name a composite image the inputs lack\n", missing);
    return missing ? 2 : 0;
}

static int cmd_pack(int argc, char **argv) {
    asmstore_write_options o;
    asmstore_elf_options eo;
    asmstore_preset info;
    pack_args a;
    pack_list l;
    wrap_template tpl = {NULL, NULL};
    asmstore_writer *w = NULL;
    asmstore_error err;
    asmstore_result res;
    const void *data;
    size_t size, i;
    int rc;
    memset(&o, 0, sizeof o);
    memset(&eo, 0, sizeof eo);
    memset(&l, 0, sizeof l);
    memset(&a, 0, sizeof a);
    a.runtime = -1;
    rc = pack_parse(argc, argv, &a, &eo, &tpl, &l);
    if (rc == 0) rc = pack_mark_kept(&l, &a);
    if (rc == 0) rc = pack_options(&a, &o, &info);
    if (rc == 0 && o.format == 1 && (a.wrap_set || a.raw)) { fprintf(stderr, "asmstore: format 1 stores are raw files (no --raw, --wrap or --template)\n"); rc = 2; }
    if (rc == 0) {
        if (isatty(2) && l.n > 50) o.progress = show_progress;
        res = asmstore_writer_create(&w, &o, &err);
        if (res != ASMSTORE_OK) { cli_fail("the pack options", res, &err); rc = 2; }
    }
    if (rc == 0) rc = pack_add_all(w, &l, a.with_pdb);
    if (rc == 0) rc = pack_check_composites(&l);
    if (rc == 0) {
        res = asmstore_writer_finish(w, &data, &size, &err);
        if (res == ASMSTORE_ERR_UNSUPPORTED_COMPRESSION && o.compression == ASMSTORE_COMPRESSION_LZ4)
            fprintf(stderr, "asmstore: LZ4 (XALZ) images need a build with liblz4 (Debian: liblz4-dev), or --compression zstd|none\n");
        else if (res != ASMSTORE_OK) cli_fail("packing the store", res, &err);
        if (res != ASMSTORE_OK) rc = 1;
    }
    if (rc == 0 && o.format == 1) rc = pack_write_set(w, a.out);
    else if (rc == 0) {
        char path[PATH_MAX];
        pack_out_path(a.out, info.file_name, path, sizeof path);
        if (!a.wrap_set) eo.mode = info.wrapper == ASMSTORE_ELF_SECTION ? ASMSTORE_ELF_MODE_SECTION : ASMSTORE_ELF_MODE_DLOPEN;
        eo.abi = eo.mode == ASMSTORE_ELF_MODE_TEMPLATE ? a.abi : o.abi; /* template: 0 takes the stub's */
        rc = write_output(path, &eo, tpl.path, a.raw, data, size);
        if (rc == 0) fprintf(stderr, "%s: %zu entries, %zu-byte format %u store%s\n", path, asmstore_writer_count(w), size, o.format,
                             a.raw ? "" : eo.mode == ASMSTORE_ELF_MODE_SECTION ? " in a section-kind .so"
                                  : eo.mode == ASMSTORE_ELF_MODE_TEMPLATE ? " added to the template .so" : " in a dlopen-kind .so");
    }
    free(tpl.data);
    free(a.keep);
    asmstore_writer_free(w);
    pack_unmap_all(&l);
    for (i = 0; i < l.n; i++) { free(l.items[i].name); free(l.items[i].path); }
    free(l.items);
    return rc;
}

/* ---- wrap: any file into a .so ---- */
static int cmd_wrap(int argc, char **argv) {
    asmstore_elf_options eo;
    const char *out = NULL, *in = NULL;
    const unsigned char *data = NULL;
    wrap_template tpl = {NULL, NULL};
    size_t size = 0;
    int k, raw = 0, eor, rc;
    memset(&eo, 0, sizeof eo);
    for (k = 0; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if ((eor = elf_option(argc, argv, &k, &eo, &raw, &tpl)) != 0) { if (eor < 0) { free(tpl.data); return 2; } }
        else if (!strcmp(a, "-o") && v) { out = v; k++; }
        else if (!strcmp(a, "--abi") && v) { eo.abi = asmstore_abi_parse(v); k++; if (!eo.abi) { fprintf(stderr, "asmstore: unknown ABI %s (try arm64-v8a, armeabi-v7a, x86_64 or x86)\n", v); free(tpl.data); return 2; } }
        else if (a[0] == '-' && a[1]) { free(tpl.data); return usage(); }
        else if (!in) in = a;
        else { free(tpl.data); return usage(); }
    }
    if (!out || !in || raw || (!eo.abi && eo.mode != ASMSTORE_ELF_MODE_TEMPLATE)) { free(tpl.data); return usage(); }
    if (cli_map_file(in, &data, &size) != 0) { free(tpl.data); return cli_fail_errno(in, "read it"); }
    rc = write_output(out, &eo, tpl.path, 0, data, size);
    cli_unmap_file(data, size);
    free(tpl.data);
    return rc;
}

/* ---- elfcheck: bionic loader rules (elf-so-requirements.md §4) over a .so, or the store .so in an APK ---- */
static int cmd_elfcheck(int argc, char **argv) {
    const char *path = NULL, *symbol = NULL;
    asmstore_abi abi = ASMSTORE_ABI_UNKNOWN;
    asmstore_error v;
    asmstore_result res;
    int k;
    for (k = 0; k < argc; k++) {
        const char *a = argv[k], *val = k + 1 < argc ? argv[k + 1] : NULL;
        if (!strcmp(a, "--abi") && val) { abi = asmstore_abi_parse(val); k++; if (!abi) { fprintf(stderr, "asmstore: unknown ABI %s (try arm64-v8a, armeabi-v7a, x86_64 or x86)\n", val); return 2; } }
        else if (!strcmp(a, "--symbol") && val) { symbol = val; k++; }
        else if (a[0] == '-' && a[1]) return usage();
        else if (!path) path = a;
        else return usage();
    }
    if (!path) return usage();
    {
        asmstore_abi abis[4];
        int napk = cli_apk_abis(path, abis), ai, bad = 0;
        if (napk == 0) {
            void *data;
            size_t size;
            res = asmstore_read_file(path, NULL, &data, &size, NULL);
            if (res != ASMSTORE_OK) return cli_fail_read(path, res);
            res = asmstore_elf_check_bionic(data, size, abi, symbol, NULL, &v);
            free(data);
            if (res == ASMSTORE_OK) { printf("%s: ok\n", path); return 0; }
            if (res == ASMSTORE_ERR_ELF_RULE) printf("%s: rule %d: %s (offset %llu)\n", path, v.rule, v.message, (unsigned long long)v.offset);
            else printf("%s: %s\n", path, asmstore_result_string(res));
            return 1;
        }
        for (ai = 0; ai < napk; ai++) {
            asmstore_locator l;
            if (abi && abis[ai] != abi) continue;
            res = asmstore_locate_apk(&l, path, abis[ai], symbol, NULL);
            if (res != ASMSTORE_OK && l.map == NULL) {
                printf("%s: lib/%s: %s\n", path, asmstore_abi_android_name(abis[ai]), asmstore_result_string(res));
                bad = 1;
                asmstore_locator_close(&l);
                continue;
            }
            res = asmstore_elf_check_bionic(l.entry_data, l.entry_size, abis[ai], symbol, &l.entry, &v);
            if (res == ASMSTORE_OK) printf("%s: lib/%s: ok\n", path, asmstore_abi_android_name(abis[ai]));
            else if (res == ASMSTORE_ERR_ELF_RULE) { bad = 1; printf("%s: lib/%s: rule %d: %s (offset %llu)\n", path, asmstore_abi_android_name(abis[ai]), v.rule, v.message, (unsigned long long)v.offset); }
            else { bad = 1; printf("%s: lib/%s: %s\n", path, asmstore_abi_android_name(abis[ai]), asmstore_result_string(res)); }
            asmstore_locator_close(&l);
        }
        return bad;
    }
}

#define STORE_HELP \
    "STORE is a store of any release (.NET 6-11): a raw store or .so wrapper; a .NET 6-8 set given as\n" \
    "one of its assemblies*.blob files or its directory (assemblies.manifest beside it names the\n" \
    "entries); or an APK/AAB/split APK (every ABI, at every release's path, STORED or DEFLATEd).\n"

static const cli_command cli_commands[] = {
    {"pack", cmd_pack,
     "pack -o OUT [--target net8|net9|net10|net11|net11-preview] [--runtime coreclr|monovm]\n"
     "                [--abi arm64|arm|x86_64|x86] [--format 1|2|3|4] [--hash crc32|xxhash]\n"
     "                [--compression zstd|lz4|none | --no-compress] [--level N] [--align-images N] [--jobs N]\n"
     "                [--keep-uncompressed NAME]... [--pdb] [--raw | --wrap dlopen|section | --template STUB.so]\n"
     "                [--symbol NAME] [--soname NAME] [--align N] [--arch ABI FILE|DIR]... FILE|DIR...\n"
     "Writes what a release writes: by default --target net11 --runtime coreclr (format 3,\n"
     "CRC-32, zstd 22, dlopen-kind .so); --runtime defaults to monovm for net8..net10. Each other flag\n"
     "overrides its part. -o DIR/ writes DIR/<the release's file name>. --target net8 writes the\n"
     ".NET 6-8 set into the directory OUT: assemblies.blob, one assemblies.<abi>.blob per --arch ABI,\n"
     "assemblies.manifest. Uncompressed images are 16-byte aligned without --target, and at multiples\n"
     "of 4096 for CoreCLR (page-aligned: it maps them in place and crashes on an odd offset; every image\n"
     "of such a store is then). --align-images N overrides: 16 is enough, 16384 suits 16 KiB-page\n"
     "devices, 1 is a release's back-to-back layout (a warning for CoreCLR). --keep-uncompressed NAME\n"
     "(an entry name or a pattern such as '*.r2r.dll'; repeatable) stores those entries as they are in\n"
     "a compressed store. ReadyToRun component stubs are refused unless their composite image is an input.\n"},
    {"wrap", cmd_wrap,
     "wrap -o OUT.so --abi A [--mode dlopen|section] [--template STUB.so] [--symbol NAME]\n"
     "                [--soname NAME] [--align N] PAYLOAD\n"
     "Wraps any file in a libassembly-store.so (no objcopy, llvm-mc or ld).\n"},
#ifdef ASMSTORE_CLI_REPACK /* needs libzip (libzip-dev) */
    {"repack", cli_cmd_repack,
     "repack IN -o OUT [--replace [ABI/]NAME=FILE]... [--remove [ABI/]NAME]... [--add FILE]... [--jobs N]\n"
     "Rewrites an app's store (raw, .so, .NET 6-8 set, APK/AAB) with assemblies replaced or removed,\n"
     "keeping everything else as the original had it; refuses what the app's runtime would reject.\n"},
#endif
    {"elfcheck", cmd_elfcheck,
     "elfcheck FILE.so|APK [--abi A] [--symbol NAME]\n"
     "Checks bionic's loader rules (16 KiB pages, DT_HASH, ...) one by one.\n"},
    {"list", cmd_list, "list STORE [--json] [--abi A]\nLists every entry of every store in STORE.\n" STORE_HELP},
    {"info", cmd_info,
     "info STORE [--json] [--abi A]\n"
     "Names the layout (format, hash, wrapper: which .NET release writes it) and counts.\n" STORE_HELP},
    {"verify", cmd_verify,
     "verify STORE [--abi A]\n"
     "Looks every entry of every ABI's store up by name and decompresses it; names each failing ABI.\n" STORE_HELP},
    {"extract", cmd_extract,
     "extract STORE -C DIR [--abi A] [NAME...]\n"
     "Writes images (and .pdb/.config) under DIR, DIR/<abi>/ when there are several ABIs; never\n"
     "outside DIR.\n" STORE_HELP},
    {"load", cli_cmd_load,
     "load [--cache DIR] STORE NAME...|--all\n"
     "Loads entries as a host would (through the cache in DIR when given).\n"},
    {"cache", cli_cmd_cache,
     "cache prune DIR [--keep ID] [--max-bytes N]\n"
     "       asmstore cache stats DIR\n"
     "Removes old or excess cache files; shows what a cache directory holds.\n"},
};
#define CLI_NCOMMANDS (sizeof cli_commands / sizeof cli_commands[0])

static int help_all(void) {
    size_t i;
    printf("asmstore %d.%d.%d - the .NET for Android assembly store (XABA), every release\n", ASMSTORE_VERSION_MAJOR,
           ASMSTORE_VERSION_MINOR, ASMSTORE_VERSION_PATCH);
    for (i = 0; i < CLI_NCOMMANDS; i++) {
        const char *u = cli_commands[i].usage, *nl = strchr(u, '\n');
        printf("  asmstore %.*s\n", (int)(nl ? nl - u : (ptrdiff_t)strlen(u)), u);
    }
    printf("Run 'asmstore COMMAND --help' for one command.\n%s", exit_rule);
    return 0;
}

int main(int argc, char **argv) {
    size_t i;
    if (argc < 2) return usage();
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) return help_all();
    if (!strcmp(argv[1], "--version")) {
        printf("asmstore %d.%d.%d\n", ASMSTORE_VERSION_MAJOR, ASMSTORE_VERSION_MINOR, ASMSTORE_VERSION_PATCH);
        return 0;
    }
    for (i = 0; i < CLI_NCOMMANDS; i++) {
        int k;
        if (strcmp(argv[1], cli_commands[i].name) != 0) continue;
        cli_current = &cli_commands[i];
        for (k = 2; k < argc; k++)
            if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
                print_usage(stdout, cli_current);
                fputs(exit_rule, stdout);
                return 0;
            }
        return cli_commands[i].run(argc - 2, argv + 2);
    }
    fprintf(stderr, "asmstore: unknown command '%s'. Commands:", argv[1]);
    for (i = 0; i < CLI_NCOMMANDS; i++) fprintf(stderr, " %s", cli_commands[i].name);
    fprintf(stderr, ". Try 'asmstore --help'.\n");
    return 2;
}
