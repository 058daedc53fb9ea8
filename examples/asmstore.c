/* asmstore - command-line tool over asmstore.h: pack, wrap, elfcheck, list, info, verify, extract
   (and, from cli_cache.c over asmstore_cache.h: load, cache prune, cache stats).
   Build: make (links -lzstd, and -llz4 when liblz4 is present so XALZ stores from .NET 9/10 read too). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* 64-bit off_t/ino_t on 32-bit hosts: otherwise readdir fails with EOVERFLOW on big filesystems */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif
#define ASMSTORE_IMPLEMENTATION
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#ifdef ASMSTORE_CLI_LZ4
#include <lz4.h>
#endif

static const char *usage_text =
    "usage:\n"
    "  asmstore pack -o OUT [--abi arm64|arm|x86_64|x86] [--runtime coreclr|monovm] [--format 2|3|4]\n"
    "                [--level N] [--jobs N] [--no-compress] [--raw | --wrap dlopen|section | --template STUB.so]\n"
    "                [--symbol NAME] [--soname NAME] [--align N] FILE|DIR...\n"
    "  asmstore wrap -o OUT.so --abi A [--mode dlopen|section] [--template STUB.so] [--symbol NAME]\n"
    "                [--soname NAME] [--align N] PAYLOAD\n"
    "  asmstore elfcheck FILE.so|APK [--abi A] [--symbol NAME]\n"
    "  asmstore list STORE [--json]\n"
    "  asmstore info STORE [--json]\n"
    "  asmstore verify STORE\n"
    "  asmstore extract STORE -C DIR [NAME...]\n"
    "  asmstore load [--cache DIR] STORE NAME...|--all\n"
    "  asmstore cache prune DIR [--keep ID] [--max-bytes N]\n"
    "  asmstore cache stats DIR\n"
    "STORE is a raw store, a .so wrapper (dlopen or section kind) or an APK (every ABI's\n"
    "lib/<abi>/libassembly-store.so; base.apk also looks at split_config.<abi>.apk beside it).\n"
    "pack writes a dlopen-kind .so unless --raw.\n";

static int usage(void) {
    fputs(usage_text, stderr);
    return 2;
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
    if (t && asmstore_reader_attach_name_table(r, t, bytes) != ASMSTORE_OK) { free(t); t = NULL; }
    return t;
}

/* ---- opening a STORE argument ---- */
typedef struct cli_store {
    const char *kind;  /* "raw", "elf-dlopen", "elf-section", "apk" */
    asmstore_locator loc;
    asmstore_reader r;
    uint32_t *names;   /* name table for O(1) entry access */
} cli_store;

/* Opens a raw store, a .so or an APK; abi selects the store in an APK (UNKNOWN: the first present). */
static int cli_open_abi(const char *path, asmstore_abi abi, cli_store *s) {
    asmstore_read_options ro;
    asmstore_error err;
    asmstore_result res;
    struct stat st;
    memset(s, 0, sizeof *s);
    memset(&err, 0, sizeof err);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "asmstore: %s: %s\n", path, errno ? strerror(errno) : "not a regular file");
        return 2;
    }
    res = abi != ASMSTORE_ABI_UNKNOWN ? asmstore_locate_apk(&s->loc, path, abi, NULL, &err)
                                      : asmstore_locate_file(&s->loc, path, NULL, &err);
    if (res != ASMSTORE_OK) {
        if (res == ASMSTORE_ERR_MISALIGNED)
            fprintf(stderr, "asmstore: %s: %s: entry data at offset %llu is only %llu-byte aligned\n", path,
                    asmstore_result_string(res), (unsigned long long)s->loc.entry.data_offset, (unsigned long long)s->loc.entry.alignment);
        else if (res == ASMSTORE_ERR_ZIP_COMPRESSED)
            fprintf(stderr, "asmstore: %s: %s (method %u)\n", path, asmstore_result_string(res), s->loc.entry.method);
        else
            fprintf(stderr, "asmstore: %s: %s (at offset %llu)\n", path, asmstore_result_string(res), (unsigned long long)err.offset);
        return res == ASMSTORE_ERR_IO || res == ASMSTORE_ERR_OUT_OF_MEMORY ? 2 : 1;
    }
    memset(&ro, 0, sizeof ro);
    ro.decompress = cli_decompress;
    s->kind = s->loc.via == ASMSTORE_VIA_APK ? "apk" : asmstore_elf_kind_name(s->loc.wrapper);
    res = asmstore_reader_init(&s->r, s->loc.data, s->loc.size, &ro, &err);
    if (res != ASMSTORE_OK) {
        fprintf(stderr, "asmstore: %s: %s (at offset %llu)\n", path, asmstore_result_string(res),
                (unsigned long long)err.offset);
        asmstore_locator_close(&s->loc);
        return 1;
    }
    s->names = cli_attach_name_table(&s->r);
    if (!s->names) {
        fprintf(stderr, "asmstore: out of memory\n");
        return 2;
    }
    return 0;
}

static int cli_open(const char *path, cli_store *s) { return cli_open_abi(path, ASMSTORE_ABI_UNKNOWN, s); }

static void cli_close(cli_store *s) {
    free(s->names);
    asmstore_locator_close(&s->loc);
}

/* For an APK: the ABIs whose store entry exists (usable or not), in arm64, arm, x86_64, x86 order.
   Returns their count, 0 when path is not a ZIP. */
static int cli_apk_abis(const char *path, asmstore_abi *out) {
    unsigned char magic[4] = {0, 0, 0, 0};
    FILE *f = fopen(path, "rb");
    int n = 0, a;
    if (!f) return 0;
    if (fread(magic, 1, 4, f) != 4 || magic[0] != 'P' || magic[1] != 'K' || magic[2] != 3 || magic[3] != 4) { fclose(f); return 0; }
    fclose(f);
    for (a = 1; a <= 4; a++) {
        asmstore_locator l;
        asmstore_result r = asmstore_locate_apk(&l, path, (asmstore_abi)a, NULL, NULL);
        if (r != ASMSTORE_ERR_NOT_FOUND && r != ASMSTORE_ERR_BAD_ZIP) out[n++] = (asmstore_abi)a;
        asmstore_locator_close(&l);
    }
    return n;
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

/* ---- list and info: one driver walks every store of STORE (each ABI of an APK) ---- */
typedef struct cli_visit {
    const cli_store *s;
    asmstore_abi apk_abi;  /* the lib/<abi> dir of an APK, UNKNOWN for a single store */
    int nth;               /* 0 for the first store printed */
    int json;
} cli_visit;

/* Parses "STORE [--json]", opens each store in turn and calls visit(); JSON output is one array
   when several stores are visited (APKs), else visit()'s own object or array. */
static int cli_each_store(int argc, char **argv, int json_array_always, void (*visit)(const cli_visit *v)) {
    const char *path = NULL;
    asmstore_abi abis[4];
    int json = 0, i, rc, napk, ai, array;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!path) path = argv[i];
        else return usage();
    }
    if (!path) return usage();
    napk = cli_apk_abis(path, abis);
    array = json && (json_array_always || napk > 0);
    if (array) printf("[");
    for (ai = 0; ai < (napk > 0 ? napk : 1); ai++) {
        cli_store s;
        cli_visit v;
        if ((rc = cli_open_abi(path, napk > 0 ? abis[ai] : ASMSTORE_ABI_UNKNOWN, &s)) != 0) {
            if (array) printf("]\n");
            return rc;
        }
        v.s = &s; v.apk_abi = napk > 0 ? abis[ai] : ASMSTORE_ABI_UNKNOWN; v.nth = ai; v.json = json;
        visit(&v);
        cli_close(&s);
    }
    if (array) printf("\n]\n");
    return 0;
}

static void list_visit(const cli_visit *v) {
    const cli_store *s = v->s;
    uint32_t k;
    if (v->apk_abi && !v->json)
        printf("# lib/%s/libassembly-store.so (%s, payload at offset %llu)\n", asmstore_abi_android_name(v->apk_abi),
               asmstore_elf_kind_name(s->loc.wrapper), (unsigned long long)s->loc.file_offset);
    for (k = 0; k < s->r.entry_count; k++) {
        asmstore_entry e;
        asmstore_reader_entry(&s->r, k, &e);
        if (v->json) {
            printf("%s\n {\"index\": %u, ", (v->nth == 0 && k == 0) ? "" : ",", k);
            if (v->apk_abi) printf("\"abi\": \"%s\", ", asmstore_abi_android_name(v->apk_abi));
            printf("\"name\": ");
            json_string(stdout, e.name, e.name_len);
            printf(", \"ignored\": %s, \"stored_size\": %zu, \"size\": %zu, \"compression\": \"%s\", \"pdb_size\": %zu, \"config_size\": %zu}",
                   e.ignored ? "true" : "false", e.image_size, e.uncompressed_size, compression_name(e.compression),
                   e.pdb_size, e.config_size);
        } else {
            printf("%5u %10zu %10zu %-4s %.*s%s%s%s\n", k, e.uncompressed_size, e.image_size, compression_name(e.compression),
                   (int)e.name_len, e.name, e.ignored ? " (ignored)" : "", e.pdb ? " +pdb" : "", e.config ? " +config" : "");
        }
    }
}

static void info_visit(const cli_visit *v) {
    const cli_store *s = v->s;
    const asmstore_reader *r = &s->r;
    uint32_t k, ignored = 0, compressed = 0;
    unsigned long long stored = 0, unpacked = 0;
    for (k = 0; k < r->entry_count; k++) {
        asmstore_entry e;
        asmstore_reader_entry(r, k, &e);
        ignored += (uint32_t)e.ignored;
        compressed += e.compression != ASMSTORE_COMPRESSION_NONE;
        stored += e.image_size;
        unpacked += e.uncompressed_size;
    }
    if (v->json) {
        if (v->apk_abi)
            printf("%s{\"apk_abi\": \"%s\", \"entry_offset\": %llu, \"entry_alignment\": %llu, \"from_split\": %s, \"payload_kind\": \"%s\", ",
                   v->nth ? ",\n" : "", asmstore_abi_android_name(v->apk_abi), (unsigned long long)s->loc.entry.data_offset,
                   (unsigned long long)s->loc.entry.alignment, s->loc.from_split ? "true" : "false", asmstore_elf_kind_name(s->loc.wrapper));
        else printf("{");
        printf("\"wrapper\": \"%s\", \"payload_offset\": %llu, \"format\": %u, \"version_word\": \"0x%08x\", \"abi\": \"%s\", \"hash\": \"%s\", "
               "\"content_id\": %s%016llx%s, \"entries\": %u, \"ignored\": %u, \"compressed\": %u, \"index_entry_size\": %u, "
               "\"store_size\": %zu, \"stored_bytes\": %llu, \"uncompressed_bytes\": %llu}%s",
               s->kind, (unsigned long long)s->loc.file_offset, r->format, r->version_word, asmstore_abi_name(r->abi), asmstore_hash_name(r->hash_kind),
               r->has_content_id ? "\"" : "", r->has_content_id ? (unsigned long long)r->content_id : 0ull,
               r->has_content_id ? "\"" : "", r->entry_count, ignored, compressed, r->index_entry_size, r->size, stored, unpacked,
               v->apk_abi ? "" : "\n");
        return;
    }
    if (v->apk_abi) {
        printf("%sapk entry:      lib/%s/libassembly-store.so at offset %llu (%llu-byte aligned)%s\n", v->nth ? "\n" : "",
               asmstore_abi_android_name(v->apk_abi), (unsigned long long)s->loc.entry.data_offset,
               (unsigned long long)s->loc.entry.alignment, s->loc.from_split ? ", from the ABI split" : "");
        printf("payload kind:   %s\n", asmstore_elf_kind_name(s->loc.wrapper));
    }
    printf("wrapper:        %s\n", s->kind);
    printf("payload offset: %llu\n", (unsigned long long)s->loc.file_offset);
    printf("format:         %u (version word 0x%08x)\n", r->format, r->version_word);
    printf("abi:            %s (%s)\n", asmstore_abi_name(r->abi), asmstore_abi_android_name(r->abi));
    printf("name hash:      %s (%u-byte index entries)\n", asmstore_hash_name(r->hash_kind), r->index_entry_size);
    if (r->has_content_id) printf("content id:     %016llx\n", (unsigned long long)r->content_id);
    else printf("content id:     none (format %u)\n", r->format);
    printf("entries:        %u (%u ignored, %u compressed)\n", r->entry_count, ignored, compressed);
    printf("store size:     %zu bytes\n", r->size);
    printf("images:         %llu bytes stored, %llu bytes uncompressed\n", stored, unpacked);
}

static int cmd_list(int argc, char **argv) { return cli_each_store(argc, argv, 1, list_visit); }
static int cmd_info(int argc, char **argv) { return cli_each_store(argc, argv, 0, info_visit); }

/* Decompresses one entry into a fresh buffer; prints a problem and returns NULL on failure. */
static unsigned char *cli_read_entry(const cli_store *s, const asmstore_entry *e, ZSTD_DCtx *dctx, int quiet) {
    asmstore_error err;
    unsigned char *buf = (unsigned char *)malloc(e->uncompressed_size ? e->uncompressed_size : 1);
    asmstore_result res;
    if (!buf) return NULL;
    res = asmstore_reader_read(&s->r, e, buf, e->uncompressed_size, dctx, &err);
    if (res != ASMSTORE_OK) {
        if (!quiet) printf("entry %u %.*s: %s\n", e->index, (int)e->name_len, e->name, asmstore_result_string(res));
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- verify: exit 0 valid; 1 problems found, each printed; 2 usage or I/O error ---- */
static int cmd_verify(int argc, char **argv) {
    cli_store s;
    int rc, problems = 0;
    uint32_t k;
    ZSTD_DCtx *dctx;
    if (argc != 1) return usage();
    if ((rc = cli_open(argv[0], &s)) != 0) {
        if (rc == 1) printf("%s: invalid store\n", argv[0]);
        return rc;
    }
    if (s.r.has_content_id) {
        uint64_t id = asmstore_xxh3_64(s.r.data + ASMSTORE_HEADER_SIZE_V4, s.r.size - ASMSTORE_HEADER_SIZE_V4);
        if (id != s.r.content_id) {
            printf("content id %016llx does not match the store's bytes (%016llx)\n", (unsigned long long)s.r.content_id,
                   (unsigned long long)id);
            problems++;
        }
    }
    dctx = ZSTD_createDCtx();
    for (k = 0; k < s.r.entry_count; k++) {
        asmstore_entry e, f;
        unsigned char *buf;
        asmstore_reader_entry(&s.r, k, &e);
        /* each entry must be reachable by both of its names */
        {
            asmstore_result r1 = asmstore_reader_find(&s.r, e.name, e.name_len, &f);
            asmstore_result r2 = asmstore_reader_find(&s.r, e.name, asmstore_name_base_len(e.name, e.name_len), NULL);
            asmstore_result want = e.ignored ? ASMSTORE_ERR_IGNORED : ASMSTORE_OK;
            if (r1 != want || r2 != want || (r1 == ASMSTORE_OK && f.index != k)) {
                printf("entry %u %.*s: lookup by name gives %s / %s\n", k, (int)e.name_len, e.name,
                       asmstore_result_string(r1), asmstore_result_string(r2));
                problems++;
            }
        }
        if (e.ignored) continue;
        buf = cli_read_entry(&s, &e, dctx, 0);
        if (!buf) { problems++; continue; }
        free(buf);
    }
    ZSTD_freeDCtx(dctx);
    if (problems) printf("%d problem(s)\n", problems);
    else printf("%s: ok, %u entries\n", argv[0], s.r.entry_count);
    cli_close(&s);
    return problems ? 1 : 0;
}

/* ---- extract ---- */
/* Writes one file of entry `name` under rootfd (dir names it in messages); suffix_replace ".pdb"
   turns Foo.dll into Foo.pdb, ".config" gives Foo.dll.config. Adds to *files and *bytes. */
static int write_extracted(int rootfd, const char *dir, const char *name, size_t name_len, const char *suffix_replace,
                           const void *data, size_t size, unsigned long long *files, unsigned long long *bytes) {
    char rel[PATH_MAX];
    int rc;
    if (suffix_replace && !strcmp(suffix_replace, ".pdb"))
        snprintf(rel, sizeof rel, "%.*s.pdb", (int)asmstore_name_base_len(name, name_len), name);
    else
        snprintf(rel, sizeof rel, "%.*s%s", (int)name_len, name, suffix_replace ? suffix_replace : "");
    rc = cli_write_under(rootfd, rel, data, size, 0644);
    if (rc == 1) fprintf(stderr, "asmstore: refusing to write %s under %s: unsafe name, or a symlink or non-directory in the way\n", rel, dir);
    else if (rc == 2) fprintf(stderr, "asmstore: %s/%s: %s\n", dir, rel, strerror(errno));
    else { (*files)++; *bytes += size; }
    return rc;
}

static int cmd_extract(int argc, char **argv) {
    const char *path = NULL, *dir = NULL;
    char **names = (char **)calloc((size_t)argc + 1, sizeof *names);
    unsigned char *wanted = NULL; /* wanted[k]: entry k was named (NAME... given) */
    unsigned long long files = 0, bytes = 0;
    int nnames = 0, i, rc, status = 0, rootfd;
    cli_store s;
    uint32_t k;
    ZSTD_DCtx *dctx;
    if (!names) return 2;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-C") && i + 1 < argc) dir = argv[++i];
        else if (!path) path = argv[i];
        else names[nnames++] = argv[i];
    }
    if (!path || !dir) { free(names); return usage(); }
    if ((rc = cli_open(path, &s)) != 0) { free(names); return rc; } /* before DIR: a bad STORE creates nothing */
    if ((rootfd = cli_dir_open(dir, 1)) < 0) {
        fprintf(stderr, "asmstore: %s: %s\n", dir, errno == ELOOP || errno == ENOTDIR ? "not a directory" : strerror(errno));
        cli_close(&s);
        free(names);
        return 2;
    }
    wanted = (unsigned char *)calloc((size_t)s.r.entry_count + 1, 1);
    if (!wanted) { fprintf(stderr, "asmstore: out of memory\n"); status = 2; }
    for (i = 0; i < nnames && wanted; i++) {
        asmstore_entry e;
        asmstore_result res = asmstore_reader_find(&s.r, names[i], strlen(names[i]), &e);
        if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s: %s\n", names[i], asmstore_result_string(res)); status = 1; }
        else wanted[e.index] = 1;
    }
    dctx = ZSTD_createDCtx();
    for (k = 0; k < s.r.entry_count && status != 2; k++) {
        asmstore_entry e;
        unsigned char *buf;
        asmstore_reader_entry(&s.r, k, &e);
        if (e.ignored || (nnames && !wanted[k])) continue;
        buf = cli_read_entry(&s, &e, dctx, 0);
        if (!buf) { status = 1; continue; }
        rc = write_extracted(rootfd, dir, e.name, e.name_len, NULL, buf, e.uncompressed_size, &files, &bytes);
        free(buf);
        if (!rc && e.pdb) rc = write_extracted(rootfd, dir, e.name, e.name_len, ".pdb", e.pdb, e.pdb_size, &files, &bytes);
        if (!rc && e.config) rc = write_extracted(rootfd, dir, e.name, e.name_len, ".config", e.config, e.config_size, &files, &bytes);
        if (rc > status) status = rc;
    }
    if (status == 0) printf("extracted %llu file%s (%llu bytes) to %s\n", files, files == 1 ? "" : "s", bytes, dir);
    ZSTD_freeDCtx(dctx);
    close(rootfd);
    cli_close(&s);
    free(wanted);
    free(names);
    return status;
}

/* ---- pack ---- */
typedef struct pack_item { char *name; char *path; } pack_item;
typedef struct pack_list { pack_item *items; size_t n, cap; } pack_list;

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
    l->items[l->n].name = strdup(name);
    l->items[l->n].path = strdup(path);
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
    if (!v) { fprintf(stderr, "asmstore: cannot read directory %s\n", dir); return -1; }
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

/* Shared by pack and wrap: --wrap/--mode, --template, --symbol, --soname, --align. Returns 1 when
   argv[*k] was one of them (and consumed its value), 0 when not, -1 on a bad value. */
static int elf_option(int argc, char **argv, int *k, asmstore_elf_options *eo, int *raw, void **stub) {
    const char *a = argv[*k], *v = *k + 1 < argc ? argv[*k + 1] : NULL;
    if (!strcmp(a, "--raw")) { *raw = 1; return 1; }
    if (!v) return 0;
    if (!strcmp(a, "--wrap") || !strcmp(a, "--mode")) {
        if (!strcmp(v, "dlopen")) eo->mode = ASMSTORE_ELF_MODE_DLOPEN;
        else if (!strcmp(v, "section")) eo->mode = ASMSTORE_ELF_MODE_SECTION;
        else { fprintf(stderr, "asmstore: unknown wrapper mode %s (dlopen or section)\n", v); return -1; }
    } else if (!strcmp(a, "--template")) {
        asmstore_result res;
        free(*stub);
        *stub = NULL;
        res = asmstore_read_file(v, NULL, stub, &eo->stub_size);
        if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s: %s\n", v, asmstore_result_string(res)); return -1; }
        eo->stub = *stub;
        eo->mode = ASMSTORE_ELF_MODE_TEMPLATE;
    } else if (!strcmp(a, "--symbol")) eo->symbol = v;
    else if (!strcmp(a, "--soname")) eo->soname = v;
    else if (!strcmp(a, "--align")) eo->alignment = (size_t)strtoull(v, NULL, 0);
    else return 0;
    (*k)++;
    return 1;
}

/* Writes payload as a .so per eo, or raw when raw is set; reports on stderr. */
static int write_output(const char *out, const asmstore_elf_options *eo, int raw, const void *data, size_t size) {
    asmstore_result res = raw ? asmstore_write_file(out, data, size, 0644) : asmstore_elf_write_file(out, eo, data, size, 0644);
    if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s: %s\n", out, asmstore_result_string(res)); return res == ASMSTORE_ERR_IO ? 2 : 1; }
    return 0;
}

static int cmd_pack(int argc, char **argv) {
    asmstore_write_options o;
    asmstore_elf_options eo;
    void *stub = NULL;
    int raw = 0, eor;
    const char *out = NULL;
    pack_list l;
    asmstore_writer *w = NULL;
    asmstore_result res;
    const void *data;
    size_t size, i;
    int k, with_pdb = 0, rc = 0;
    memset(&o, 0, sizeof o);
    memset(&eo, 0, sizeof eo);
    memset(&l, 0, sizeof l);
    for (k = 0; k < argc; k++) {
        const char *a = argv[k];
        const char *v = k + 1 < argc ? argv[k + 1] : NULL;
        if ((eor = elf_option(argc, argv, &k, &eo, &raw, &stub)) != 0) { if (eor < 0) return 2; }
        else if (!strcmp(a, "-o") && v) { out = v; k++; }
        else if (!strcmp(a, "--abi") && v) { o.abi = asmstore_abi_parse(v); k++; if (!o.abi) { fprintf(stderr, "asmstore: unknown ABI %s\n", v); return 2; } }
        else if (!strcmp(a, "--runtime") && v) {
            k++;
            if (!strcmp(v, "coreclr")) o.runtime = ASMSTORE_RUNTIME_CORECLR;
            else if (!strcmp(v, "monovm")) o.runtime = ASMSTORE_RUNTIME_MONOVM;
            else { fprintf(stderr, "asmstore: unknown runtime %s\n", v); return 2; }
        }
        else if (!strcmp(a, "--format") && v) { o.format = (uint32_t)atoi(v); k++; if (o.format < 2 || o.format > 4) { fprintf(stderr, "asmstore: format must be 2, 3 or 4\n"); return 2; } }
        else if (!strcmp(a, "--level") && v) { o.level = atoi(v); k++; if (o.level < 1 || o.level > 22) { fprintf(stderr, "asmstore: level must be 1..22\n"); return 2; } }
        else if (!strcmp(a, "--jobs") && v) { o.jobs = atoi(v); k++; if (o.jobs < 1) { fprintf(stderr, "asmstore: jobs must be >= 1\n"); return 2; } }
        else if (!strcmp(a, "--no-compress")) o.no_compress = 1;
        else if (!strcmp(a, "--pdb")) with_pdb = 1;
        else if (a[0] == '-' && a[1]) return usage();
        else {
            struct stat st;
            if (stat(a, &st) != 0) { fprintf(stderr, "asmstore: %s: %s\n", a, strerror(errno)); return 2; }
            if (S_ISDIR(st.st_mode)) { if (pack_collect_dir(&l, a)) return 2; }
            else {
                const char *base = strrchr(a, '/');
                if (pack_push(&l, base ? base + 1 : a, a)) return 2;
            }
        }
    }
    if (!out || l.n == 0) return usage();
    if (isatty(2) && l.n > 50) { o.progress = show_progress; }
    res = asmstore_writer_create(&w, &o);
    if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s\n", asmstore_result_string(res)); return 2; }
    for (i = 0; i < l.n && rc == 0; i++) {
        char *pdb = with_pdb ? companion(l.items[i].path, 1) : NULL, *cfg = companion(l.items[i].path, 0);
        res = asmstore_writer_add_file(w, l.items[i].name, l.items[i].path, pdb, cfg, 0);
        if (res != ASMSTORE_OK) {
            fprintf(stderr, "asmstore: %s (%s): %s\n", l.items[i].name, l.items[i].path, asmstore_result_string(res));
            rc = res == ASMSTORE_ERR_IO || res == ASMSTORE_ERR_NOT_FOUND ? 2 : 1;
        }
        free(pdb);
        free(cfg);
    }
    if (rc == 0) {
        res = asmstore_writer_finish(w, &data, &size);
        if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s\n", asmstore_result_string(res)); rc = 1; }
    }
    if (rc == 0) {
        eo.abi = eo.mode == ASMSTORE_ELF_MODE_TEMPLATE ? o.abi : (o.abi ? o.abi : ASMSTORE_ABI_ARM64);
        rc = write_output(out, &eo, raw, data, size);
        if (rc == 0) fprintf(stderr, "%s: %zu entries, %zu-byte store%s\n", out, asmstore_writer_count(w), size,
                             raw ? "" : eo.mode == ASMSTORE_ELF_MODE_SECTION ? " in a section-kind .so"
                                  : eo.mode == ASMSTORE_ELF_MODE_TEMPLATE ? " added to the template .so" : " in a dlopen-kind .so");
    }
    free(stub);
    asmstore_writer_free(w);
    for (i = 0; i < l.n; i++) { free(l.items[i].name); free(l.items[i].path); }
    free(l.items);
    return rc;
}

/* ---- wrap: any file into a .so ---- */
static int cmd_wrap(int argc, char **argv) {
    asmstore_elf_options eo;
    const char *out = NULL, *in = NULL;
    void *stub = NULL, *data = NULL;
    size_t size = 0;
    int k, raw = 0, eor, rc;
    asmstore_result res;
    memset(&eo, 0, sizeof eo);
    for (k = 0; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if ((eor = elf_option(argc, argv, &k, &eo, &raw, &stub)) != 0) { if (eor < 0) { free(stub); return 2; } }
        else if (!strcmp(a, "-o") && v) { out = v; k++; }
        else if (!strcmp(a, "--abi") && v) { eo.abi = asmstore_abi_parse(v); k++; if (!eo.abi) { fprintf(stderr, "asmstore: unknown ABI %s\n", v); free(stub); return 2; } }
        else if (a[0] == '-' && a[1]) { free(stub); return usage(); }
        else if (!in) in = a;
        else { free(stub); return usage(); }
    }
    if (!out || !in || raw || (!eo.abi && eo.mode != ASMSTORE_ELF_MODE_TEMPLATE)) { free(stub); return usage(); }
    res = asmstore_read_file(in, NULL, &data, &size);
    if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s: %s\n", in, asmstore_result_string(res)); free(stub); return 2; }
    rc = write_output(out, &eo, 0, data, size);
    free(data);
    free(stub);
    return rc;
}

/* ---- elfcheck: bionic loader rules (elf-so-requirements.md §4) over a .so, or the store .so in an APK ---- */
static int cmd_elfcheck(int argc, char **argv) {
    const char *path = NULL, *symbol = NULL;
    asmstore_abi abi = ASMSTORE_ABI_UNKNOWN;
    asmstore_elf_violation v;
    asmstore_result res;
    int k;
    for (k = 0; k < argc; k++) {
        const char *a = argv[k], *val = k + 1 < argc ? argv[k + 1] : NULL;
        if (!strcmp(a, "--abi") && val) { abi = asmstore_abi_parse(val); k++; if (!abi) { fprintf(stderr, "asmstore: unknown ABI %s\n", val); return 2; } }
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
            res = asmstore_read_file(path, NULL, &data, &size);
            if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s: %s\n", path, asmstore_result_string(res)); return 2; }
            res = asmstore_elf_check_bionic(data, size, abi, symbol, NULL, &v);
            free(data);
            if (res == ASMSTORE_OK) { printf("%s: ok\n", path); return 0; }
            if (res == ASMSTORE_ERR_ELF_RULE) printf("%s: rule %d: %s (offset %llu)\n", path, v.rule, v.message, (unsigned long long)v.offset);
            else printf("%s: %s\n", path, asmstore_result_string(res));
            return 1;
        }
        for (ai = 0; ai < napk; ai++) {
            asmstore_locator l;
            const unsigned char *entry;
            if (abi && abis[ai] != abi) continue;
            res = asmstore_locate_apk(&l, path, abis[ai], symbol, NULL);
            if (res != ASMSTORE_OK && l.map == NULL) {
                printf("%s: lib/%s: %s\n", path, asmstore_abi_android_name(abis[ai]), asmstore_result_string(res));
                bad = 1;
                asmstore_locator_close(&l);
                continue;
            }
            entry = (const unsigned char *)l.data - (l.file_offset - l.entry.data_offset);
            res = asmstore_elf_check_bionic(entry, (size_t)l.entry.compressed_size, abis[ai], symbol, &l.entry, &v);
            if (res == ASMSTORE_OK) printf("%s: lib/%s: ok\n", path, asmstore_abi_android_name(abis[ai]));
            else if (res == ASMSTORE_ERR_ELF_RULE) { bad = 1; printf("%s: lib/%s: rule %d: %s (offset %llu)\n", path, asmstore_abi_android_name(abis[ai]), v.rule, v.message, (unsigned long long)v.offset); }
            else { bad = 1; printf("%s: lib/%s: %s\n", path, asmstore_abi_android_name(abis[ai]), asmstore_result_string(res)); }
            asmstore_locator_close(&l);
        }
        return bad;
    }
}

int cli_cmd_load(int argc, char **argv);  /* examples/cli_cache.c */
int cli_cmd_cache(int argc, char **argv);
int main(int argc, char **argv) {
    if (argc < 2) return usage();
    if (!strcmp(argv[1], "load")) return cli_cmd_load(argc - 2, argv + 2);
    if (!strcmp(argv[1], "cache")) return cli_cmd_cache(argc - 2, argv + 2);
    if (!strcmp(argv[1], "pack")) return cmd_pack(argc - 2, argv + 2);
    if (!strcmp(argv[1], "wrap")) return cmd_wrap(argc - 2, argv + 2);
    if (!strcmp(argv[1], "elfcheck")) return cmd_elfcheck(argc - 2, argv + 2);
    if (!strcmp(argv[1], "list")) return cmd_list(argc - 2, argv + 2);
    if (!strcmp(argv[1], "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(argv[1], "verify")) return cmd_verify(argc - 2, argv + 2);
    if (!strcmp(argv[1], "extract")) return cmd_extract(argc - 2, argv + 2);
    if (!strcmp(argv[1], "--version")) { printf("asmstore %u\n", asmstore_version_number()); return 0; }
    return usage();
}
