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
#include <lz4hc.h>
#endif

static const char *usage_text =
    "usage:\n"
    "  asmstore pack -o OUT [--target net8|net9|net10|net11|net11-preview] [--runtime coreclr|monovm]\n"
    "                [--abi arm64|arm|x86_64|x86] [--format 1|2|3|4] [--hash crc32|xxhash]\n"
    "                [--compression zstd|lz4|none | --no-compress] [--level N] [--align-images N] [--jobs N]\n"
    "                [--pdb] [--raw | --wrap dlopen|section | --template STUB.so] [--symbol NAME] [--soname NAME]\n"
    "                [--align N] [--arch ABI FILE|DIR]... FILE|DIR...\n"
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
    "pack writes what a release writes: by default --target net11 --runtime coreclr (format 3,\n"
    "CRC-32, zstd 22, dlopen-kind .so); --runtime defaults to monovm for net8..net10. Each other flag\n"
    "overrides its part. -o DIR/ writes DIR/<the release's file name>. --target net8 writes the\n"
    ".NET 6-8 set into the directory OUT: assemblies.blob, one assemblies.<abi>.blob per --arch ABI,\n"
    "assemblies.manifest.\n";

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
    s->names = (uint32_t *)malloc(asmstore_reader_name_table_size(&s->r) + 4);
    if (!s->names || asmstore_reader_attach_name_table(&s->r, s->names, asmstore_reader_name_table_size(&s->r) + 4) != ASMSTORE_OK) {
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
static void json_string(FILE *f, const char *s, size_t n) {
    size_t i;
    fputc('"', f);
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
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
/* A name is safe to create under DIR if it is relative, has no "." or ".." component and no empty one. */
static int safe_relative_name(const char *n, size_t len) {
    size_t i = 0;
    if (len == 0 || n[0] == '/') return 0;
    while (i < len) {
        size_t j = i;
        while (j < len && n[j] != '/') j++;
        if (j == i || (j - i == 1 && n[i] == '.') || (j - i == 2 && n[i] == '.' && n[i + 1] == '.')) return 0;
        i = j + 1;
        if (j == len - 1) return 0; /* trailing slash */
    }
    for (i = 0; i < len; i++) if (n[i] == '\0' || n[i] == '\\') return 0;
    return 1;
}

/* Creates the directories of rel under dirfd-relative root without following symlinks; returns a
   path (inside buf) that is safe to write: every directory component was checked to be a real dir. */
static int make_parents(const char *root, const char *rel, char *buf, size_t cap) {
    size_t i, n = strlen(rel);
    struct stat st;
    if ((size_t)snprintf(buf, cap, "%s/", root) >= cap) return -1;
    for (i = 0; i < n; i++) {
        if (rel[i] != '/') continue;
        if (strlen(buf) + i + 1 >= cap) return -1;
        snprintf(buf, cap, "%s/%.*s", root, (int)i, rel);
        if (lstat(buf, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) return -1; /* symlink or file in the way: refuse */
        } else if (mkdir(buf, 0755) != 0) {
            return -1;
        }
    }
    if ((size_t)snprintf(buf, cap, "%s/%s", root, rel) >= cap) return -1;
    if (lstat(buf, &st) == 0 && S_ISLNK(st.st_mode)) return -1;
    return 0;
}

static int write_extracted(const char *dir, const char *name, size_t name_len, const char *suffix_replace, const void *data,
                           size_t size) {
    char rel[PATH_MAX], path[PATH_MAX];
    asmstore_result res;
    if (suffix_replace) {
        /* Foo.dll -> Foo.pdb; Foo.dll -> Foo.dll.config */
        if (!strcmp(suffix_replace, ".pdb")) {
            snprintf(rel, sizeof rel, "%.*s.pdb", (int)asmstore_name_base_len(name, name_len), name);
        } else {
            snprintf(rel, sizeof rel, "%.*s%s", (int)name_len, name, suffix_replace);
        }
    } else {
        snprintf(rel, sizeof rel, "%.*s", (int)name_len, name);
    }
    if (!safe_relative_name(rel, strlen(rel)) || make_parents(dir, rel, path, sizeof path) != 0) {
        fprintf(stderr, "asmstore: refusing to write %s outside %s\n", rel, dir);
        return 1;
    }
    res = asmstore_write_file(path, data, size, 0644);
    if (res != ASMSTORE_OK) {
        fprintf(stderr, "asmstore: %s: %s\n", path, asmstore_result_string(res));
        return 2;
    }
    return 0;
}

static int cmd_extract(int argc, char **argv) {
    const char *path = NULL, *dir = NULL;
    char **names = (char **)calloc((size_t)argc + 1, sizeof *names);
    int nnames = 0, i, rc, status = 0;
    cli_store s;
    uint32_t k;
    ZSTD_DCtx *dctx;
    struct stat st;
    if (!names) return 2;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-C") && i + 1 < argc) dir = argv[++i];
        else if (!path) path = argv[i];
        else names[nnames++] = argv[i];
    }
    if (!path || !dir) { free(names); return usage(); }
    if (lstat(dir, &st) != 0) {
        if (mkdir(dir, 0755) != 0) { fprintf(stderr, "asmstore: %s: %s\n", dir, strerror(errno)); free(names); return 2; }
    } else if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "asmstore: %s is not a directory\n", dir);
        free(names);
        return 2;
    }
    if ((rc = cli_open(path, &s)) != 0) { free(names); return rc; }
    dctx = ZSTD_createDCtx();
    for (i = 0; i < nnames; i++) {
        asmstore_entry e;
        asmstore_result res = asmstore_reader_find(&s.r, names[i], strlen(names[i]), &e);
        if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s: %s\n", names[i], asmstore_result_string(res)); status = 1; }
    }
    for (k = 0; k < s.r.entry_count && status != 2; k++) {
        asmstore_entry e;
        unsigned char *buf;
        asmstore_reader_entry(&s.r, k, &e);
        if (e.ignored) continue;
        if (nnames) {
            int want = 0;
            for (i = 0; i < nnames && !want; i++) {
                asmstore_entry f;
                want = asmstore_reader_find(&s.r, names[i], strlen(names[i]), &f) == ASMSTORE_OK && f.index == k;
            }
            if (!want) continue;
        }
        buf = cli_read_entry(&s, &e, dctx, 0);
        if (!buf) { status = 1; continue; }
        rc = write_extracted(dir, e.name, e.name_len, NULL, buf, e.uncompressed_size);
        free(buf);
        if (!rc && e.pdb) rc = write_extracted(dir, e.name, e.name_len, ".pdb", e.pdb, e.pdb_size);
        if (!rc && e.config) rc = write_extracted(dir, e.name, e.name_len, ".config", e.config, e.config_size);
        if (rc > status) status = rc;
    }
    ZSTD_freeDCtx(dctx);
    cli_close(&s);
    free(names);
    return status;
}

/* ---- pack ---- */
/* abi: UNKNOWN for ordinary inputs; format 1's arch entries (--arch ABI PATH) carry their ABI */
typedef struct pack_item { char *name; char *path; asmstore_abi abi; } pack_item;
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

/* ---- compressor callback for XALZ: LZ4 HC into a raw block, as K4os LZ4Codec.Encode did ---- */
static asmstore_result cli_compress(void *user, asmstore_compression kind, int level, void *dst, size_t cap,
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
    if (stat(arg, &st) != 0) { fprintf(stderr, "asmstore: %s: %s\n", arg, strerror(errno)); return -1; }
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
} pack_args;

/* Parses pack's command line into a, eo (wrapper flags) and l (inputs). Returns 0 or an exit code. */
static int pack_parse(int argc, char **argv, pack_args *a, asmstore_elf_options *eo, void **stub, pack_list *l) {
    int k, eor;
    for (k = 0; k < argc; k++) {
        const char *o = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        a->wrap_set |= !strcmp(o, "--wrap") || !strcmp(o, "--template");
        if ((eor = elf_option(argc, argv, &k, eo, &a->raw, stub)) != 0) { if (eor < 0) return 2; }
        else if (!strcmp(o, "-o") && v) { a->out = v; k++; }
        else if (!strcmp(o, "--target") && v) {
            k++;
            if (!(a->target = asmstore_target_parse(v))) { fprintf(stderr, "asmstore: unknown target %s (net8, net9, net10, net11, net11-preview)\n", v); return 2; }
        }
        else if (!strcmp(o, "--abi") && v) { a->abi = asmstore_abi_parse(v); k++; if (!a->abi) { fprintf(stderr, "asmstore: unknown ABI %s\n", v); return 2; } }
        else if (!strcmp(o, "--runtime") && v) {
            k++;
            if (!strcmp(v, "coreclr")) a->runtime = ASMSTORE_RUNTIME_CORECLR;
            else if (!strcmp(v, "monovm")) a->runtime = ASMSTORE_RUNTIME_MONOVM;
            else { fprintf(stderr, "asmstore: unknown runtime %s\n", v); return 2; }
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
        else if (!strcmp(o, "--pdb")) a->with_pdb = 1;
        else if (!strcmp(o, "--arch") && v && k + 2 < argc) {
            /* format 1: PATH goes into that ABI's arch store */
            asmstore_abi abi = asmstore_abi_parse(v);
            if (!abi) { fprintf(stderr, "asmstore: unknown ABI %s\n", v); return 2; }
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

/* The write options: the preset for --target/--runtime/--abi (default net11 coreclr arm64), then
   every explicit flag over its part. Returns 0 or an exit code. */
static int pack_options(const pack_args *a, asmstore_write_options *o, asmstore_preset *info) {
    asmstore_target target = a->target ? a->target : ASMSTORE_TARGET_NET11;
    /* no --runtime: the release's default (MonoVM through .NET 10, CoreCLR from 11) */
    asmstore_runtime rt = a->runtime >= 0 ? (asmstore_runtime)a->runtime
                          : target <= ASMSTORE_TARGET_NET10 ? ASMSTORE_RUNTIME_MONOVM : ASMSTORE_RUNTIME_CORECLR;
    asmstore_compression preset_kind;
    int max_level;
    if (asmstore_write_options_preset(o, target, rt, a->abi, info) != ASMSTORE_OK) {
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
    if (a->align_images) o->image_alignment = a->align_images;
    o->compress = cli_compress;
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
    if (stat(dir, &st) != 0 && mkdir(dir, 0755) != 0) { fprintf(stderr, "asmstore: %s: %s\n", dir, strerror(errno)); return 2; }
    for (i = 0; asmstore_writer_output(w, i, &name, &data, &size) == ASMSTORE_OK; i++) {
        char path[PATH_MAX];
        asmstore_result res;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if ((res = asmstore_write_file(path, data, size, 0644)) != ASMSTORE_OK) {
            fprintf(stderr, "asmstore: %s: %s\n", path, asmstore_result_string(res));
            return 2;
        }
        fprintf(stderr, "%s: %zu bytes\n", path, size);
    }
    return 0;
}

/* Adds every input; returns 0 or an exit code. */
static int pack_add_all(asmstore_writer *w, const pack_list *l, int with_pdb) {
    size_t i;
    for (i = 0; i < l->n; i++) {
        char *pdb = with_pdb ? companion(l->items[i].path, 1) : NULL, *cfg = companion(l->items[i].path, 0);
        asmstore_add_options ao;
        asmstore_result res;
        memset(&ao, 0, sizeof ao);
        ao.abi = l->items[i].abi;
        res = asmstore_writer_add_file_ex(w, l->items[i].name, l->items[i].path, pdb, cfg, &ao);
        free(pdb);
        free(cfg);
        if (res != ASMSTORE_OK) {
            fprintf(stderr, "asmstore: %s (%s): %s%s\n", l->items[i].name, l->items[i].path, asmstore_result_string(res),
                    res == ASMSTORE_ERR_INVALID_ARG && ao.abi ? " (--arch needs --target net8 or --format 1)" : "");
            return res == ASMSTORE_ERR_IO || res == ASMSTORE_ERR_NOT_FOUND ? 2 : 1;
        }
    }
    return 0;
}

static int cmd_pack(int argc, char **argv) {
    asmstore_write_options o;
    asmstore_elf_options eo;
    asmstore_preset info;
    pack_args a;
    pack_list l;
    void *stub = NULL;
    asmstore_writer *w = NULL;
    asmstore_result res;
    const void *data;
    size_t size, i;
    int rc;
    memset(&o, 0, sizeof o);
    memset(&eo, 0, sizeof eo);
    memset(&l, 0, sizeof l);
    memset(&a, 0, sizeof a);
    a.runtime = -1;
    rc = pack_parse(argc, argv, &a, &eo, &stub, &l);
    if (rc == 0) rc = pack_options(&a, &o, &info);
    if (rc == 0 && o.format == 1 && (a.wrap_set || a.raw)) { fprintf(stderr, "asmstore: format 1 stores are raw files (no --raw, --wrap or --template)\n"); rc = 2; }
    if (rc == 0) {
        if (isatty(2) && l.n > 50) o.progress = show_progress;
        res = asmstore_writer_create(&w, &o);
        if (res != ASMSTORE_OK) { fprintf(stderr, "asmstore: %s\n", asmstore_result_string(res)); rc = 2; }
    }
    if (rc == 0) rc = pack_add_all(w, &l, a.with_pdb);
    if (rc == 0) {
        res = asmstore_writer_finish(w, &data, &size);
        if (res == ASMSTORE_ERR_UNSUPPORTED_COMPRESSION && o.compression == ASMSTORE_COMPRESSION_LZ4)
            fprintf(stderr, "asmstore: LZ4 (XALZ) images need a build with liblz4 (Debian: liblz4-dev), or --compression zstd|none\n");
        else if (res != ASMSTORE_OK) fprintf(stderr, "asmstore: %s\n", asmstore_result_string(res));
        if (res != ASMSTORE_OK) rc = 1;
    }
    if (rc == 0 && o.format == 1) rc = pack_write_set(w, a.out);
    else if (rc == 0) {
        char path[PATH_MAX];
        pack_out_path(a.out, info.file_name, path, sizeof path);
        if (!a.wrap_set) eo.mode = info.wrapper == ASMSTORE_ELF_SECTION ? ASMSTORE_ELF_MODE_SECTION : ASMSTORE_ELF_MODE_DLOPEN;
        eo.abi = eo.mode == ASMSTORE_ELF_MODE_TEMPLATE ? a.abi : o.abi; /* template: 0 takes the stub's */
        rc = write_output(path, &eo, a.raw, data, size);
        if (rc == 0) fprintf(stderr, "%s: %zu entries, %zu-byte format %u store%s\n", path, asmstore_writer_count(w), size, o.format,
                             a.raw ? "" : eo.mode == ASMSTORE_ELF_MODE_SECTION ? " in a section-kind .so"
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
