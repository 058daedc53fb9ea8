/* cli_read.c - the asmstore commands that read a STORE: list, info, verify, extract. Each opens
   its argument with cli_input_open_or_fail and walks the selected stores. */
#include "cli.h"
#include "cli_commands.h"
#include "cli_digest.h"
#include "cli_fs.h"
#include "cli_os.h"
#include "cli_app.h"
#include "cli_input.h"
#include "cli_r2r.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* "STORE [--json] [--abi A]" and the like: what the commands reading a store take. */
enum { OPT_JSON = 256, OPT_ABI, OPT_HASH, OPT_APP };
#define OPTION_ABI {"abi", OPT_ABI, 1, "arm64|arm|x86_64|x86"}
const cli_option cli_list_options[] = {{"json", OPT_JSON, 0, NULL}, {"hash", OPT_HASH, 0, NULL},
                                       OPTION_ABI, CLI_OPTIONS_END};
const cli_option cli_info_options[] = {{"json", OPT_JSON, 0, NULL}, OPTION_ABI,
                                       {"app", OPT_APP, 1, "FILE"}, CLI_OPTIONS_END};
const cli_option cli_verify_options[] = {{"json", OPT_JSON, 0, NULL}, OPTION_ABI, CLI_OPTIONS_END};
const cli_option cli_extract_options[] = {{"directory", 'C', 1, "DIR"},
                                          {"json", OPT_JSON, 0, NULL}, OPTION_ABI,
                                          CLI_OPTIONS_END};

typedef struct cli_args {
    const char *path, *dir;
    const char *app; /* info --app FILE: the app library */
    int json, hash;
    asmstore_abi abi;
    const char **names;
    int nnames;
} cli_args;

/* STORE, then NAMEs for extract (its -C DIR is required). 0, or the exit code. */
static int parse_store_args(int argc, char **argv, const cli_option *options, cli_args *a) {
    int extract = options == cli_extract_options, key;
    cli_parser p;

    memset(a, 0, sizeof *a);
    a->names = (const char **)calloc((size_t)argc + 1, sizeof *a->names);
    if (!a->names)
        return 2;
    cli_parse_begin(&p, argc, argv, options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        switch (key) {
        case OPT_JSON: a->json = 1; break;
        case OPT_HASH: a->hash = 1; break;
        case OPT_ABI:
            if (cli_abi_option("--abi", p.value, &a->abi))
                return 2;
            break;
        case 'C': a->dir = p.value; break;
        case OPT_APP: a->app = p.value; break;
        case CLI_OPERAND:
            if (!a->path)
                a->path = p.value;
            else if (extract)
                a->names[a->nnames++] = p.value;
            else
                return cli_usage();
            break;
        default: return 2; /* CLI_BAD, said; --help never gets here (cli_check_args) */
        }
    }
    if (!a->path || (extract && !a->dir))
        return cli_usage();
    return 0;
}

/* >>list and info ------------------------------------------------------------------------------ */
/* One driver walks every selected store of STORE. */
typedef struct cli_visit {
    const cli_input *in;
    const cli_unit *u;
    int nth;  /* 0 for the first store printed */
    int many; /* more than one store, or an archive: say which one each line is about */
    int json;
    int hash;        /* list --hash: a sha256 column */
    ZSTD_DCtx *dctx; /* list: images are decompressed to hash them */
    int *status;     /* raised by an image that cannot be read (cli_status) */
    const char *app; /* info --app FILE, or NULL: look beside the store */
} cli_visit;

/* --json: the document's first fields, the one every reading command starts with. */
static void json_begin_input(const char *command, const char *path) {
    cli_json_begin(command);
    cli_json_str("input", path);
}

/* --json: what names a store in every command's "stores" item. */
static void json_store_head(const cli_unit *u) {
    cli_json_open(NULL, '{');
    cli_json_str("store", u->label);
    cli_json_abi("abi", u->abi);
}

/* --json: a store that did not open, as its "stores" item (the message is on stderr too). */
static void json_unit_problem(const cli_unit *u) {
    char why[512];

    json_store_head(u);
    cli_json_str("problem", u->detail[0] ? u->detail : cli_failure(u->res, &u->err, why, sizeof why));
    cli_json_close();
}

static int cli_each_store(int argc, char **argv, const char *command,
                          const cli_option *options, void (*visit)(const cli_visit *v)) {
    cli_args a;
    cli_input in;
    int rc, i, nsel = 0, status = 0;
    cli_visit v;

    if ((rc = parse_store_args(argc, argv, options, &a)) != 0) {
        free(a.names);
        return rc;
    }
    free(a.names);
    if (a.json)
        json_begin_input(command, a.path);
    if ((rc = cli_input_open_or_fail(&in, a.path, a.abi)) != 0)
        return rc;
    for (i = 0; i < in.n; i++)
        nsel += in.units[i].selected;
    if (a.json)
        cli_json_open("stores", '[');
    v.in = &in;
    v.nth = 0;
    v.many = in.archive || nsel > 1;
    v.json = a.json;
    v.hash = a.hash;
    v.dctx = ZSTD_createDCtx();
    v.status = &status;
    v.app = a.app;
    for (i = 0; i < in.n; i++) {
        if (!in.units[i].selected)
            continue;
        if (!in.units[i].opened) {
            int r = cli_unit_problem(&in, &in.units[i], stderr);

            if (a.json)
                json_unit_problem(&in.units[i]);
            if (r > status)
                status = r;
            continue;
        }
        v.u = &in.units[i];
        visit(&v);
        v.nth++;
    }
    if (a.json)
        cli_json_close();
    ZSTD_freeDCtx(v.dctx);
    cli_input_close(&in);
    return status;
}

/* Entry e's image (*img) and its SHA-256 in hex, for list --hash and --json ("" for a placeholder);
   an image that cannot be read is named on stderr and makes list exit 1. */
static void list_image(const cli_visit *v, const asmstore_entry *e, const char *fname,
                       cli_image *img, char hex[CLI_SHA256_HEX]) {
    asmstore_error err;
    asmstore_result r = cli_image_get(v->u, e, v->dctx, img, &err);
    char why[512];

    hex[0] = 0;
    if (r == ASMSTORE_OK) {
        if (cli_sha256_hex(img->p, img->n, hex) != 0)
            r = ASMSTORE_ERR_OUT_OF_MEMORY; /* libcrypto fails only for want of memory */
        else
            return;
    }
    if (r == ASMSTORE_ERR_IGNORED)
        return;
    cli_error_result(r, "%s (%s): entry %u %s: no sha256: %s", v->u->label, cli_unit_abi(v->u),
                     e->index, fname, cli_failure(r, &err, why, sizeof why));
    if (*v->status < cli_status(r))
        *v->status = cli_status(r);
}

static void list_visit(const cli_visit *v) {
    const cli_unit *u = v->u;
    uint32_t k;
    char fname[1200], sha[CLI_SHA256_HEX] = "";
    cli_image img;

    if (v->many && !v->json)
        printf("# %s (%s, %s, payload at offset %llu)\n", cli_shown(u->label), cli_unit_abi(u),
               u->wrapper,
               (unsigned long long)u->payload_offset);
    if (u->r.format == 1 && !u->has_manifest && !v->json)
        printf("# no assemblies.manifest beside it: entries are shown by %s\n",
               u->r.store_id == 0 || u->r.v1_common ? "name hash" : "index");
    if (v->json) {
        json_store_head(u);
        cli_json_num("format", u->r.format);
        cli_json_open("entries", '[');
    } else { /* the columns' names; a sha256 column is 64 wide */
        printf("%5s %10s %10s %-4s %s%*sname\n", "index", "size", "stored", "comp",
               v->hash ? "sha256" : "", v->hash ? 59 : 0, "");
    }
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;

        asmstore_reader_entry(&u->r, k, &e, NULL);
        if (cli_entry_filename(u, &e, fname, sizeof fname) != 0)
            fname[0] = 0;
        memset(&img, 0, sizeof img);
        if (v->json || v->hash)
            list_image(v, &e, fname, &img, sha);
        if (v->json) {
            cli_json_entry(u, &e, fname, sha, &img);
        } else {
            printf("%5u %10zu %10zu %-4s %s%s%s%s%s%s\n", k, e.uncompressed_size, e.image_size,
                   cli_compression_name(e.compression), v->hash ? (sha[0] ? sha : "-") : "",
                   v->hash ? " " : "", cli_shown(fname), e.ignored ? " (ignored)" : "",
                   e.pdb ? " +pdb" : "", e.config ? " +config" : "");
        }
        cli_image_free(&img);
    }
    if (v->json) {
        cli_json_close();
        cli_json_close();
    }
}

typedef struct store_totals {
    uint32_t ignored, compressed;
    unsigned long long stored, unpacked;
} store_totals;

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

/* info --json: the archive entry a store came from, null for a file of its own. */
static void info_json_archive(const cli_unit *u) {
    if (!u->in_zip) {
        cli_json_null("archive_entry");
        return;
    }
    cli_json_open("archive_entry", '{');
    cli_json_num("offset", u->zent.data_offset);
    cli_json_num("alignment", u->zent.alignment);
    cli_json_bool("deflated", u->deflated);
    cli_json_bool("from_split", u->from_split);
    cli_json_close();
}

/* info --json: one store; format 1's own fields are null in later formats and the other way round
   (docs/json.md). */
static void info_json(const cli_unit *u, const store_totals *t, const char *release,
                      const cli_app *app) {
    const asmstore_reader *r = &u->r;
    int v1 = r->format == 1;
    char word[16];

    snprintf(word, sizeof word, "0x%08x", r->version_word);
    json_store_head(u);
    info_json_archive(u);
    cli_json_str("release", release);
    cli_json_str("runtime", cli_unit_runtime(u));
    cli_json_str("wrapper", u->wrapper);
    cli_json_num("payload_offset", u->payload_offset);
    cli_json_num("format", r->format);
    cli_json_str("version_word", word);
    cli_json_str("hash", v1 ? NULL : asmstore_hash_name(r->hash_kind));
    cli_json_num("header_size", r->header_size);
    cli_json_hex64("content_id", r->has_content_id, (unsigned long long)r->content_id);
    cli_json_num_or_null("store_id", v1, r->store_id);
    cli_json_num_or_null("hash_table_rows", v1, r->global_entry_count);
    cli_json_key("manifest");
    fputs(!v1 ? "null" : u->has_manifest ? "true" : "false", stdout);
    cli_json_num("entries", r->entry_count);
    cli_json_num("ignored", t->ignored);
    cli_json_num("compressed", t->compressed);
    cli_json_num("index_entry_size", r->index_entry_size);
    cli_json_num("store_size", r->size);
    cli_json_num("stored_bytes", t->stored);
    cli_json_num("uncompressed_bytes", t->unpacked);
    cli_app_show(app, u, 1);
    cli_json_close();
}

/* info without --json: one "field: value" line each, the app library's last. */
static void info_text(const cli_visit *v, const store_totals *t, const char *release,
                      const cli_app *app) {
    const cli_unit *u = v->u;
    const asmstore_reader *r = &u->r;

    if (v->nth)
        printf("\n");
    if (v->many)
        printf("store:          %s\n", cli_shown(u->label));
    if (u->in_zip)
        printf("archive entry:  at offset %llu (%llu-byte aligned)%s%s\n",
               (unsigned long long)u->zent.data_offset, (unsigned long long)u->zent.alignment,
               u->deflated ? ", DEFLATEd (inflated to read it)" : ", STORED",
               u->from_split ? ", from the ABI split" : "");
    printf("layout:         %s\n", release);
    printf("runtime:        %s\n", cli_unit_runtime(u));
    printf("wrapper:        %s\n", u->wrapper);
    printf("payload offset: %llu\n", (unsigned long long)u->payload_offset);
    printf("format:         %u (version word 0x%08x, %zu-byte header)\n", r->format,
           r->version_word, r->header_size);
    printf("abi:            %s\n", cli_unit_abi(u));
    if (r->format == 1) {
        printf("store id:       %u%s\n", r->store_id,
               r->store_id == 0 ? " (assemblies.blob: holds the XXH32 and XXH64 tables)" : "");
        printf("names:          %s\n",
               u->has_manifest ? "from assemblies.manifest" : "none (no manifest found beside it)");
    } else {
        printf("name hash:      %s (%u-byte index entries)\n", asmstore_hash_name(r->hash_kind),
               r->index_entry_size);
    }
    if (r->has_content_id)
        printf("content id:     %016llx\n", (unsigned long long)r->content_id);
    else
        printf("content id:     none (format %u)\n", r->format);
    printf("entries:        %u (%u ignored, %u compressed)\n", r->entry_count, t->ignored,
           t->compressed);
    printf("store size:     %zu bytes\n", r->size);
    printf("images:         %llu bytes stored, %llu bytes uncompressed\n", t->stored, t->unpacked);
    cli_app_show(app, u, 0);
}

static void info_visit(const cli_visit *v) {
    const cli_unit *u = v->u;
    store_totals t = totals_of(&u->r);
    char release[160];
    cli_app app;

    if (cli_app_find(&app, v->in, u, v->app) != 0)
        *v->status = 2;
    cli_unit_release(u, release, sizeof release);
    if (v->json)
        info_json(u, &t, release, &app);
    else
        info_text(v, &t, release, &app);
    cli_app_close(&app);
}

int cli_cmd_list(int argc, char **argv) {
    return cli_each_store(argc, argv, "list", cli_list_options, list_visit);
}
int cli_cmd_info(int argc, char **argv) {
    return cli_each_store(argc, argv, "info", cli_info_options, info_visit);
}

/* Entry e's uncompressed image into *img (cli_image_get: in place when stored, else decompressed);
   prints a problem naming the store on out and returns -1 when it cannot be read. */
static int cli_read_entry(FILE *out, const cli_unit *u, const asmstore_entry *e, ZSTD_DCtx *dctx,
                          const char *fname, cli_image *img) {
    asmstore_error err;
    asmstore_result res = cli_image_get(u, e, dctx, img, &err);
    char line[1600];

    if (res == ASMSTORE_OK)
        return 0;
    snprintf(line, sizeof line, "%s (%s): entry %u %s: %s", cli_shown(u->label), cli_unit_abi(u),
             e->index, cli_shown(fname), asmstore_result_string(res));
    fprintf(out, "%s\n", line);
    if (out == stderr) /* extract --json: a failure; verify's lines are its report */
        cli_json_note_error(1, res, line);
    return -1;
}

/* >>verify ------------------------------------------------------------------------------------- */
/* Exit 0 valid; 1 problems found, each printed with its store and ABI (on out: stdout, or with
   --json a buffer that becomes the store's "problems"); 2 usage or I/O. */
/* Each entry must be reachable by its names (v2+: with and without the extension). */
static int verify_lookup(FILE *out, const cli_unit *u, const asmstore_entry *e, const char *fname) {
    asmstore_entry f;
    asmstore_result r1, r2, want = e->ignored ? ASMSTORE_ERR_IGNORED : ASMSTORE_OK;

    if (!e->name)
        return 0; /* format 1 without a manifest: known by hash only */
    r1 = asmstore_reader_find(&u->r, e->name, e->name_len, &f, NULL);
    r2 = u->r.format == 1
             ? asmstore_reader_find(&u->r, fname, strlen(fname), NULL, NULL)
             : asmstore_reader_find(&u->r, e->name, asmstore_name_base_len(e->name, e->name_len),
                                    NULL, NULL);
    if (r1 == want && r2 == want && (r1 != ASMSTORE_OK || f.index == e->index))
        return 0;
    fprintf(out, "%s (%s): entry %u %s: lookup by name gives %s / %s\n", cli_shown(u->label),
            cli_unit_abi(u), e->index, cli_shown(fname), asmstore_result_string(r1),
            asmstore_result_string(r2));
    return 1;
}

static int verify_image(FILE *out, const cli_unit *u, const asmstore_entry *e, const char *fname,
                        const unsigned char *image) {
    char why[512];

    if (!cli_image_problem(e, image, why, sizeof why))
        return 0;
    fprintf(out, "%s (%s): entry %u %s: %s\n", cli_shown(u->label), cli_unit_abi(u), e->index,
            cli_shown(fname), why);
    return 1;
}

/* A ReadyToRun component stub's composite image must be in the store: CoreCLR aborts without a word
   otherwise. */
static int verify_composite(FILE *out, const cli_unit *u, const asmstore_entry *e, const char *fname,
                            const unsigned char *image) {
    const char *owner;
    size_t len;

    if (!e->name || !cli_r2r_composite_owner(image, e->uncompressed_size, &owner, &len))
        return 0;
    if (asmstore_reader_find(&u->r, owner, len, NULL, NULL) == ASMSTORE_OK)
        return 0;
    fprintf(out,
            "%s (%s): entry %u %s: a ReadyToRun component stub whose code is in the composite "
            "image %s, which the store does not hold (CoreCLR aborts without a message); pack "
            "%s into the store too\n",
            cli_shown(u->label), cli_unit_abi(u), e->index, cli_shown(fname),
            cli_shown_n(owner, len), cli_shown_n(owner, len));
    return 1;
}

/* What the runtime aborts on before loading (asmstore_reader_check_runtime): the first found. */
static int verify_runtime_rules(FILE *out, const cli_unit *u) {
    asmstore_error err;
    asmstore_entry e;
    char fname[1200] = "";

    if (asmstore_reader_check_runtime(&u->r, NULL, &err) == ASMSTORE_OK)
        return 0;
    if (err.entry >= 0 && asmstore_reader_entry(&u->r, (uint32_t)err.entry, &e, NULL) == 0 &&
        cli_entry_filename(u, &e, fname, sizeof fname) != 0)
        fname[0] = 0;
    fprintf(out, "%s (%s): entry %lld %s: %s", cli_shown(u->label), cli_unit_abi(u),
            (long long)err.entry, cli_shown(fname), err.message);
    if (err.other_entry >= 0)
        fprintf(out, ": entry %lld", (long long)err.other_entry);
    fprintf(out, "\n");
    return 1;
}

static int verify_unit(FILE *out, const cli_unit *u, ZSTD_DCtx *dctx) {
    int problems = verify_runtime_rules(out, u);
    uint32_t k;
    char fname[1200];

    if (u->r.has_content_id && u->r.header_size == ASMSTORE_HEADER_SIZE_V4) {
        uint64_t id = asmstore_xxh3_64(u->r.data + ASMSTORE_HEADER_SIZE_V4,
                                       u->r.size - ASMSTORE_HEADER_SIZE_V4);

        if (id != u->r.content_id) {
            fprintf(out, "%s (%s): content id %016llx does not match the store's bytes (%016llx)\n",
                    cli_shown(u->label), cli_unit_abi(u), (unsigned long long)u->r.content_id,
                    (unsigned long long)id);
            problems++;
        }
    }
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        cli_image img;

        asmstore_reader_entry(&u->r, k, &e, NULL);
        if (cli_entry_filename(u, &e, fname, sizeof fname) != 0)
            fname[0] = 0;
        problems += verify_lookup(out, u, &e, fname);
        if (e.ignored)
            continue;
        if (cli_read_entry(out, u, &e, dctx, fname, &img) != 0) {
            problems++;
            continue;
        }
        problems += verify_image(out, u, &e, fname, img.p);
        problems += verify_composite(out, u, &e, fname, img.p);
        cli_image_free(&img);
    }
    return problems;
}

/* verify --json: the lines one store's check printed, as its "problems" strings. */
static void verify_json_problems(char *text, size_t len) {
    char *line = text, *end = text + len;

    cli_json_open("problems", '[');
    while (line < end) {
        char *nl = memchr(line, '\n', (size_t)(end - line));

        if (!nl)
            nl = end;
        *nl = 0;
        if (!strncmp(line, "asmstore: ", 10))
            line += 10; /* cli_unit_problem's lines */
        if (*line)
            cli_json_str(NULL, line);
        line = nl + 1;
    }
    cli_json_close();
}

/* One store: checked, its problems printed (or, with --json, its "stores" item); how many. */
static int verify_store(const cli_input *in, const cli_unit *u, ZSTD_DCtx *dctx, int json) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = json ? cli_os_memstream(&text, &len) : stdout;
    int p;

    if (!out)
        out = stderr; /* no memory for the buffer: the problems are at least said */
    if (!u->opened) {
        cli_unit_problem(in, u, out);
        p = 1;
    } else {
        p = verify_unit(out, u, dctx);
    }
    if (json) {
        if (out != stderr)
            cli_os_memstream_close(out, &text, &len);
        json_store_head(u);
        cli_json_num("entries", u->opened ? u->r.entry_count : 0);
        cli_json_bool("ok", p == 0);
        verify_json_problems(text, text ? len : 0);
        cli_json_close();
        free(text);
    } else if (in->n > 1 && u->opened) {
        printf("%s (%s): %s, %u %s\n", cli_shown(u->label), cli_unit_abi(u), p ? "FAILED" : "ok",
               u->r.entry_count, cli_plural(u->r.entry_count, "entry", "entries"));
    }
    return p;
}

/* The last line: how many problems in how many stores, or ok. */
static void verify_summary(const char *path, int problems, int bad_stores, int checked,
                           const cli_unit *last) {
    if (problems)
        printf("%d %s in %d of %d %s\n", problems,
               cli_plural((unsigned)problems, "problem", "problems"), bad_stores, checked,
               cli_plural((unsigned)checked, "store", "stores"));
    else if (checked == 1)
        printf("%s: ok, %u %s\n", cli_shown(path), last->r.entry_count,
               cli_plural(last->r.entry_count, "entry", "entries"));
    else
        printf("%s: ok, %d stores\n", cli_shown(path), checked);
}

int cli_cmd_verify(int argc, char **argv) {
    cli_args a;
    cli_input in;
    int rc, i, problems = 0, bad_stores = 0, checked = 0;
    const cli_unit *last = NULL;
    ZSTD_DCtx *dctx;

    if ((rc = parse_store_args(argc, argv, cli_verify_options, &a)) != 0) {
        free(a.names);
        return rc;
    }
    free(a.names);
    if (a.json)
        json_begin_input("verify", a.path);
    if ((rc = cli_input_open_or_fail(&in, a.path, a.abi)) != 0) {
        if (rc == 1 && !a.json)
            printf("%s: invalid store\n", cli_shown(a.path));
        return rc;
    }
    if (a.json)
        cli_json_open("stores", '[');
    dctx = ZSTD_createDCtx();
    for (i = 0; i < in.n; i++) {
        int p;

        if (!in.units[i].selected)
            continue;
        checked++;
        last = &in.units[i];
        p = verify_store(&in, last, dctx, a.json);
        problems += p;
        bad_stores += p > 0;
    }
    ZSTD_freeDCtx(dctx);
    if (a.json) {
        cli_json_close();
        cli_json_num("problems", (unsigned long long)problems);
        cli_json_bool("ok", problems == 0);
        cli_json_reported();
    } else {
        verify_summary(a.path, problems, bad_stores, checked, last);
    }
    cli_input_close(&in);
    return problems ? 1 : 0;
}

/* >>extract ------------------------------------------------------------------------------------ */
/* Writes one file under the -C directory descriptor: never through a symlink, never outside it. */
static int write_extracted(int rootfd, const char *dir, const char *rel, const void *data,
                           size_t size) {
    int rc = cli_write_under(rootfd, rel, data, size, 0644);

    if (rc == 0 && cli_json_on()) { /* --json: the file's "files" item */
        cli_json_open(NULL, '{');
        cli_json_str("path", rel);
        cli_json_num("size", size);
        cli_json_close();
    }
    if (rc == 1)
        cli_error("refusing to write %s under %s: %s (extract writes under -C DIR only: "
                  "extract into a new, empty directory)",
                  rel, dir, cli_write_refused_why(rel));
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
static int extract_entry(extract_job *j, const cli_unit *u, const asmstore_entry *e,
                         const char *abi_dir) {
    char fname[1200], rel[PATH_MAX], why[512];
    cli_image img;
    int rc;

    if (cli_entry_filename(u, e, fname, sizeof fname) != 0)
        return 1;
    if (cli_read_entry(cli_json_on() ? stderr : stdout, u, e, j->dctx, fname, &img) != 0)
        return 1;
    if (cli_image_problem(e, img.p, why, sizeof why)) {
        snprintf(rel, sizeof rel, "%s (%s): entry %u %s: not extracted: %s", cli_shown(u->label),
                 cli_unit_abi(u), e->index, cli_shown(fname), why);
        cli_error_result(ASMSTORE_ERR_BAD_IMAGE, "%s", rel);
        cli_image_free(&img);
        return 1;
    }
    snprintf(rel, sizeof rel, "%s%s", abi_dir, fname);
    rc = write_extracted(j->rootfd, j->dir, rel, img.p, img.n);
    cli_image_free(&img);
    if (rc)
        return rc;
    j->files++;
    j->bytes += e->uncompressed_size;
    j->unnamed |= u->r.format == 1 && !e->name;
    if (e->pdb) {
        snprintf(rel, sizeof rel, "%s%.*s.pdb", abi_dir,
                 (int)asmstore_name_base_len(fname, strlen(fname)), fname);
        if ((rc = write_extracted(j->rootfd, j->dir, rel, e->pdb, e->pdb_size)) != 0)
            return rc;
        j->files++;
        j->bytes += e->pdb_size;
    }
    if (e->config) {
        /* format 1 stores the .config with one NUL appended (docs/store-releases.md §2.3): give the
           file back */
        size_t n = e->config_size - (u->r.format == 1 && e->config[e->config_size - 1] == 0);
        snprintf(rel, sizeof rel, "%s%s.config", abi_dir, fname);
        if ((rc = write_extracted(j->rootfd, j->dir, rel, e->config, n)) != 0)
            return rc;
        j->files++;
        j->bytes += e->config_size;
    }
    return 0;
}

/* More than one ABI among the selected stores: each ABI's files go to DIR/<abi>/. */
static int several_abis(const cli_input *in) {
    int i;
    asmstore_abi seen = ASMSTORE_ABI_UNKNOWN;

    for (i = 0; i < in->n; i++) {
        const cli_unit *u = &in->units[i];

        if (!u->selected || !u->opened || u->abi == ASMSTORE_ABI_UNKNOWN)
            continue;
        if (seen != ASMSTORE_ABI_UNKNOWN && u->abi != seen)
            return 1;
        seen = u->abi;
    }
    return 0;
}

/* Names each NAME no store holds (--json: the "files" array ends, "missing" lists them); how many. */
static int extract_missing(const char *path, const char **names, int nnames, const int *found) {
    int n, missing = 0;

    if (cli_json_on()) {
        cli_json_close();
        cli_json_open("missing", '[');
    }
    for (n = 0; n < nnames; n++) {
        if (found[n])
            continue;
        missing++;
        if (cli_json_on())
            cli_json_str(NULL, names[n]);
        fprintf(stderr,
                "asmstore: %s: no entry named %s (names are matched with or without .dll; see "
                "asmstore list)\n",
                cli_shown(path), cli_shown(names[n]));
    }
    if (cli_json_on()) {
        cli_json_close();
        cli_json_reported();
    }
    return missing;
}

/* Extracts the stores of one input: all entries, or those named (each looked up once per store). */
static int extract_input(extract_job *j, const cli_input *in, const char **names, int nnames) {
    int i, n, status = 0, per_abi = several_abis(in);
    int *found = (int *)calloc((size_t)nnames + 1, sizeof *found);

    if (!found)
        return 2;
    for (i = 0; i < in->n && status < 2; i++) {
        const cli_unit *u = &in->units[i];
        char abi_dir[32] = "";
        uint32_t k;

        if (!u->selected)
            continue;
        if (!u->opened) {
            if (cli_unit_problem(in, u, stderr) > status)
                status = 1;
            continue;
        }
        if (per_abi && u->abi != ASMSTORE_ABI_UNKNOWN)
            snprintf(abi_dir, sizeof abi_dir, "%s/", asmstore_abi_android_name(u->abi));
        for (n = 0; n < nnames && status < 2; n++) {
            asmstore_entry e;
            int rc;

            if (asmstore_reader_find(&u->r, names[n], strlen(names[n]), &e, NULL) != ASMSTORE_OK)
                continue;
            found[n] = 1;
            if ((rc = extract_entry(j, u, &e, abi_dir)) > status)
                status = rc;
        }
        for (k = 0; !nnames && k < u->r.entry_count && status < 2; k++) {
            asmstore_entry e;
            int rc;

            asmstore_reader_entry(&u->r, k, &e, NULL);
            if (!e.ignored && (rc = extract_entry(j, u, &e, abi_dir)) > status)
                status = rc;
        }
    }
    if (extract_missing(in->path, names, nnames, found) && status < 1)
        status = 1;
    free(found);
    return status;
}

/* Does a selected store hold one of the names? None: extract has nothing to write. */
static int extract_finds_any(const cli_input *in, const char **names, int nnames) {
    int i, n;

    for (i = 0; i < in->n; i++)
        for (n = 0; n < nnames; n++)
            if (in->units[i].selected && in->units[i].opened &&
                asmstore_reader_find(&in->units[i].r, names[n], strlen(names[n]), NULL, NULL) ==
                    ASMSTORE_OK)
                return 1;
    return 0;
}

/* The last line, or --json's totals. */
static void extract_totals(const extract_job *j, const char *dir, int json) {
    if (json) {
        cli_json_num("count", j->files);
        cli_json_num("bytes", j->bytes);
        cli_json_bool("named_by_hash", j->unnamed);
    } else if (j->rootfd >= 0) {
        printf("extracted %llu %s (%llu bytes) to %s%s\n", j->files,
               cli_plural(j->files, "file", "files"), j->bytes, cli_shown(dir),
               j->unnamed ? " (no assemblies.manifest: unnamed entries are named after their XXH64 "
                            "hash)"
                          : "");
    }
}

int cli_cmd_extract(int argc, char **argv) {
    cli_args a;
    cli_input in;
    extract_job j;
    int rc;

    if ((rc = parse_store_args(argc, argv, cli_extract_options, &a)) != 0) {
        free(a.names);
        return rc;
    }
    if (a.json) {
        json_begin_input("extract", a.path);
        cli_json_str("directory", a.dir);
    }
    /* open the input first: a store that cannot be read creates no directory */
    if ((rc = cli_input_open_or_fail(&in, a.path, a.abi)) != 0) {
        free(a.names);
        return rc;
    }
    memset(&j, 0, sizeof j);
    j.rootfd = -1; /* no directory made (yet) */
    if (a.json)
        cli_json_open("files", '[');
    if (a.nnames && !extract_finds_any(&in, a.names, a.nnames)) {
        rc = extract_input(&j, &in, a.names, a.nnames); /* names each one not there */
        extract_totals(&j, a.dir, a.json);
        cli_input_close(&in);
        free(a.names);
        return rc; /* and creates no directory for nothing */
    }
    if ((j.rootfd = cli_dir_open(a.dir, 1)) < 0) {
        cli_error("-C %s: %s (give -C a new or existing directory, not a symlink)", a.dir,
                  errno == ELOOP || errno == ENOTDIR ? "not a directory" : strerror(errno));
        cli_input_close(&in);
        free(a.names);
        return 2;
    }
    j.dir = a.dir;
    j.dctx = ZSTD_createDCtx();
    rc = extract_input(&j, &in, a.names, a.nnames);
    ZSTD_freeDCtx(j.dctx);
    cli_os_dir_close(j.rootfd);
    extract_totals(&j, a.dir, a.json);
    cli_input_close(&in);
    free(a.names);
    return rc;
}
