/* cli_scan.c - asmstore scan: many inputs, one NDJSON line each, in input order whatever --jobs
   is (docs/json.md §3.12). --jobs worker processes read one input at a time each, the next one
   already sent to them (a worker serves up to 64 inputs, then a fresh one takes over), so an
   input that runs past --timeout or --max-memory costs only its own line, whose "error" then
   says so, and the worker killed for it is replaced; the parent walks directories, hands out the
   inputs, orders the lines and counts them. A line holds the input (size, SHA-256, kind), the
   app (.NET for Android or not, runtime, ABIs), each store with its entries (SHA-256 and
   identity of every image), the YARA rules that matched a decompressed image or an archive
   member (--yara), and findings, each with a stable code (scan_codes). Nothing is loaded or
   dlopen'ed; one image is in memory at a time. */
#include "cli.h"
#include "cli_app.h"
#include "cli_commands.h"
#include "cli_digest.h"
#include "cli_inflate.h"
#include "cli_input.h"
#include "cli_os.h"
#include "cli_scan_cache.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef _WIN32
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#endif
#ifdef ASMSTORE_CLI_YARA
#include <yara.h>
#endif

/* >>options ------------------------------------------------------------------------------------ */
enum { OPT_TIMEOUT = 256, OPT_SUMMARY, OPT_YARA, OPT_YARA_MEMBERS, OPT_MAX_MEMORY, OPT_CACHE };

const cli_option cli_scan_options[] = {{"jobs", 'j', 1, "N"},
                                       {"timeout", OPT_TIMEOUT, 1, "S"},
                                       {"max-memory", OPT_MAX_MEMORY, 1, "MIB"},
                                       {"summary", OPT_SUMMARY, 0, NULL},
                                       {"yara", OPT_YARA, 1, "RULES"},
                                       {"yara-members", OPT_YARA_MEMBERS, 0, NULL},
                                       {"cache", OPT_CACHE, 1, "DIR"},
                                       CLI_OPTIONS_END};

typedef struct scan_args {
    int jobs, timeout, max_memory_mib, summary, yara_members;
    const char *yara;
    const char *cache; /* --cache DIR: records of inputs scanned before (cli_scan_cache.h) */
    char **inputs; /* the files to scan, directories walked and @LIST read: malloc'd */
    size_t ninputs, cap;
} scan_args;

/* >>findings ----------------------------------------------------------------------------------- */
/* A finding's code: scan_codes[] spells it (the same order). */
typedef enum scan_code {
    SCAN_NOT_AN_ASSEMBLY,
    SCAN_NAME_MISMATCH,
    SCAN_UNREACHABLE_ENTRY,
    SCAN_IGNORED_WITH_DATA,
    SCAN_DAMAGED_IMAGE,
    SCAN_DAMAGED_STORE,
    SCAN_APP_TABLE_DISAGREES,
    SCAN_STORE_DEFLATED,
    SCAN_STORE_MISALIGNED,
    SCAN_STORE_UNEXPECTED_PLACE,
    SCAN_ASSEMBLY_ALSO_PLAIN,
    SCAN_APP_TABLE_EXTRA
} scan_code;

/* Every finding's code, in the order docs/json.md §3.12 explains them; never renumbered or
   reworded: scanners key on them. */
static const char *const scan_codes[] = {
    "not-an-assembly",        /* an entry's image is not what its name claims */
    "name-mismatch",          /* an assembly whose own name differs from its entry's */
    "unreachable-entry",      /* lookup by its name gives another entry or none: never loaded */
    "ignored-with-data",      /* an ignored (placeholder) entry that still carries bytes */
    "damaged-image",          /* an image that does not decompress (what verify reports) */
    "damaged-store",          /* a store that does not open, or a content id that disagrees */
    "app-table-disagrees",    /* libxamarin-app.so's table rejects entries the runtime loads */
    "store-deflated",         /* a store the runtime cannot map: DEFLATEd in the archive */
    "store-misaligned",       /* a store entry not aligned as the runtime maps it */
    "store-unexpected-place", /* store-like bytes at no path a release reads */
    "assembly-also-plain",    /* an assembly of a store that also sits as a plain archive member */
    "app-table-extra",        /* libxamarin-app.so's table has descriptors no image uses */
};
#define SCAN_NCODES       (sizeof scan_codes / sizeof scan_codes[0])
#define SCAN_MAX_FINDINGS 1000u

typedef struct scan_finding {
    scan_code code;
    char where[300]; /* the store (and entry) or archive member */
    char detail[600];
} scan_finding;

/* What one input's worker counted, sent to the parent after its line (--summary). */
typedef struct scan_counts {
    uint32_t dotnet, stores, entries, errors, yara_matches;
    uint32_t findings[SCAN_NCODES];
} scan_counts;

/* A YARA rule that matched an image or a member (--yara). */
typedef struct scan_match {
    char rule[128];
    char tags[256]; /* each NUL-terminated, then an empty one */
    char store[256];
    char entry[300]; /* the entry, or the archive member */
    int member;
} scan_match;

/* One input being scanned (in its worker). */
typedef struct scan_state {
    const scan_args *a;
    cli_input in;
    scan_finding *found;
    unsigned nfound;
    scan_match *matches;
    unsigned nmatches;
    scan_counts counts;
    ZSTD_DCtx *dctx;            /* the worker's, reused from input to input */
    cli_image_buffer *images;   /* the worker's: one image at a time */
    scan_cache_writer *cache;   /* --cache on a miss: every image goes into the record too */
} scan_state;

static void scan_find(scan_state *s, scan_code code, const char *where, const char *fmt, ...)
    CLI_PRINTF(4, 5);
static void scan_find(scan_state *s, scan_code code, const char *where, const char *fmt, ...) {
    va_list ap;
    scan_finding *f;

    s->counts.findings[code]++;
    if (s->nfound >= SCAN_MAX_FINDINGS ||
        (!s->found && !(s->found = (scan_finding *)calloc(SCAN_MAX_FINDINGS, sizeof *f))))
        return; /* counted, not listed: "findings_listed" says how many are */
    f = &s->found[s->nfound++];
    f->code = code;
    snprintf(f->where, sizeof f->where, "%s", where);
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
}

static void scan_json_matches(const scan_state *s) {
    unsigned i;
    const char *t;

    cli_json_open("yara", '[');
    for (i = 0; i < s->nmatches; i++) {
        const scan_match *m = &s->matches[i];
        cli_json_open(NULL, '{');
        cli_json_str("rule", m->rule);
        cli_json_open("tags", '[');
        for (t = m->tags; *t; t += strlen(t) + 1) cli_json_str(NULL, t);
        cli_json_close();
        if (m->member) {
            cli_json_str("member", m->entry);
        } else {
            cli_json_str("store", m->store);
            cli_json_str("entry", m->entry);
        }
        cli_json_close();
    }
    cli_json_close();
}

static void scan_json_findings(const scan_state *s) {
    unsigned i, total = 0;

    for (i = 0; i < SCAN_NCODES; i++) total += s->counts.findings[i];
    cli_json_open("findings", '[');
    for (i = 0; i < s->nfound; i++) {
        cli_json_open(NULL, '{');
        cli_json_str("code", scan_codes[s->found[i].code]);
        cli_json_str("where", s->found[i].where);
        cli_json_str("detail", s->found[i].detail);
        cli_json_close();
    }
    cli_json_close();
    cli_json_num("findings_total", total);
}

/* >>yara --------------------------------------------------------------------------------------- */
/* --yara RULES: libyara's rules (source, or compiled by yarac: "YARA" first), compiled once by the
   parent before any worker starts; each worker scans every decompressed image (and with
   --yara-members every other archive member) and lists each rule that matched. */
#ifdef ASMSTORE_CLI_YARA
static YR_RULES *scan_rules;

static void yara_compile_error(int level, const char *file, int line, const YR_RULE *rule,
                               const char *message, void *user) {
    (void)rule;
    if (level == YARA_ERROR_LEVEL_ERROR && !*(int *)user) {
        *(int *)user = 1;
        cli_error("scan --yara %s: line %d: %s; fix the rule (yara's own CLI says the same)",
                  file ? file : "", line, message);
    }
}

/* 0 with scan_rules set, or 2 after saying why the rules did not load. */
static int yara_load(const char *path) {
    YR_COMPILER *c = NULL;
    FILE *f;
    char magic[4] = {0};
    int said = 0, errors;

    if (yr_initialize() != ERROR_SUCCESS || !(f = fopen(path, "rb"))) {
        cli_error("scan --yara %s: cannot read the rules: %s", path, strerror(errno));
        return 2;
    }
    if (fread(magic, 1, 4, f) == 4 && !memcmp(magic, "YARA", 4)) {
        fclose(f);
        if (yr_rules_load(path, &scan_rules) == ERROR_SUCCESS) return 0;
        cli_error("scan --yara %s: compiled rules libyara %s cannot load (compiled by another "
                  "yarac?); give the rules' source instead",
                  path, YR_VERSION);
        return 2;
    }
    rewind(f);
    if (yr_compiler_create(&c) != ERROR_SUCCESS) {
        fclose(f);
        return cli_fail("scan --yara", ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
    }
    yr_compiler_set_callback(c, yara_compile_error, &said);
    errors = yr_compiler_add_file(c, f, NULL, path);
    fclose(f);
    if (errors == 0 && yr_compiler_get_rules(c, &scan_rules) == ERROR_SUCCESS) {
        yr_compiler_destroy(c);
        return 0;
    }
    yr_compiler_destroy(c);
    if (!said) cli_error("scan --yara %s: the rules do not compile", path);
    return 2;
}

/* A new match record, or NULL past SCAN_MAX_FINDINGS (counted all the same). */
static scan_match *scan_match_new(scan_state *s) {
    s->counts.yara_matches++;
    if (s->nmatches >= SCAN_MAX_FINDINGS ||
        (!s->matches &&
         !(s->matches = (scan_match *)calloc(SCAN_MAX_FINDINGS, sizeof(scan_match)))))
        return NULL;
    memset(&s->matches[s->nmatches], 0, sizeof(scan_match));
    return &s->matches[s->nmatches++];
}

static int yara_matched(YR_SCAN_CONTEXT *context, int message, void *data, void *user) {
    scan_state *s = (scan_state *)user;
    const YR_RULE *rule = (const YR_RULE *)data;
    const char *tag;
    scan_match *m;
    size_t at = 0;

    (void)context;
    if (message != CALLBACK_MSG_RULE_MATCHING) return CALLBACK_CONTINUE;
    if (!(m = scan_match_new(s))) return CALLBACK_CONTINUE;
    snprintf(m->rule, sizeof m->rule, "%s", rule->identifier);
    yr_rule_tags_foreach(rule, tag) {
        if (at + strlen(tag) + 2 > sizeof m->tags) break;
        memcpy(m->tags + at, tag, strlen(tag) + 1);
        at += strlen(tag) + 1;
    }
    m->tags[at] = 0; /* each tag NUL-terminated, an empty one last */
    return CALLBACK_CONTINUE;
}

/* Scans p[0..n), the image of `entry` in `store` or archive member `member` (the other NULL). */
static void yara_scan(scan_state *s, const unsigned char *p, size_t n, const char *store,
                      const char *entry, const char *member) {
    unsigned first = s->nmatches, k;

    if (!scan_rules) return;
    yr_rules_scan_mem(scan_rules, p, n, 0, yara_matched, s, s->a->timeout);
    for (k = first; k < s->nmatches; k++) {
        snprintf(s->matches[k].store, sizeof s->matches[k].store, "%s", store ? store : "");
        snprintf(s->matches[k].entry, sizeof s->matches[k].entry, "%s", entry ? entry : member);
        s->matches[k].member = member != NULL;
    }
}
#else
static void yara_scan(scan_state *s, const unsigned char *p, size_t n, const char *store,
                      const char *entry, const char *member) {
    (void)s, (void)p, (void)n, (void)store, (void)entry, (void)member;
}

static int yara_load(const char *path) {
    cli_error("scan --yara %s: this asmstore was built without libyara: install libyara-dev "
              "(Debian) or yara (Homebrew) and rebuild",
              path);
    return 2;
}
#endif

/* >>archive members ---------------------------------------------------------------------------- */
/* What an archive's member names say of the app. */
typedef struct scan_app {
    int apk_manifest, bundle, runtime_mono, runtime_coreclr, app_library;
    unsigned abis; /* bit per asmstore_abi (1-4) with a lib/<abi>/ directory */
} scan_app;

/* The archive's bytes when the input is one (cli_input keeps every file it mapped; the input's
   own is the first). */
static int scan_archive(const scan_state *s, const unsigned char **zip, size_t *n) {
    if (!s->in.archive || s->in.nmaps < 1) return 0;
    *zip = s->in.maps[0].p;
    *n = s->in.maps[0].n;
    return 1;
}

/* 1 when name is where some release keeps a store (asmstore_zip_store_path), or the .NET 6-8
   set's common store and manifest. */
static int scan_release_path(const char *name, size_t len) {
    static const char *const common[] = {"assemblies/assemblies.blob",
                                         "assemblies/assemblies.manifest"};
    char path[256];
    unsigned abi, i;
    size_t k, n;

    for (k = 0; k < 2; k++)
        for (i = 0; i < 3; i++) { /* as is, under base/ and base/root/ (an AAB) */
            const char *pre = i == 0 ? "" : i == 1 ? "base/" : "base/root/";
            n = (size_t)snprintf(path, sizeof path, "%s%s", pre, common[k]);
            if (n == len && !memcmp(path, name, len)) return 1;
        }
    for (abi = 1; abi <= 4; abi++)
        for (i = 0; (n = asmstore_zip_store_path((asmstore_abi)abi, i, path, sizeof path)); i++)
            if (n == len && !memcmp(path, name, len)) return 1;
    return 0;
}

/* The ABI of a "lib/<abi>/" or "base/lib/<abi>/" member, else UNKNOWN; *file: what follows. */
static asmstore_abi scan_lib_abi(const char *name, size_t len, const char **file) {
    const char *p = name, *end = name + len, *slash;
    unsigned abi;

    if (len > 5 && !memcmp(p, "base/", 5)) p += 5;
    if (end - p < 5 || memcmp(p, "lib/", 4) != 0) return ASMSTORE_ABI_UNKNOWN;
    p += 4;
    if (!(slash = (const char *)memchr(p, '/', (size_t)(end - p)))) return ASMSTORE_ABI_UNKNOWN;
    *file = slash + 1;
    for (abi = 1; abi <= 4; abi++) {
        const char *dir = asmstore_abi_android_name((asmstore_abi)abi);
        if (strlen(dir) == (size_t)(slash - p) && !memcmp(dir, p, (size_t)(slash - p)))
            return (asmstore_abi)abi;
    }
    return ASMSTORE_ABI_UNKNOWN;
}

/* One member: what its name says of the app, and whether it is a store out of place. */
static void scan_member(scan_state *s, scan_app *app, const unsigned char *zip,
                        const asmstore_zip_entry *e, const char *name, size_t len) {
    const char *file = NULL;
    asmstore_abi abi = scan_lib_abi(name, len, &file);
    size_t fl = file ? (size_t)(name + len - file) : 0;
    char shown[300];
    int looks;

    app->apk_manifest |= len == 19 && !memcmp(name, "AndroidManifest.xml", 19);
    app->bundle |= len == 16 && !memcmp(name, "BundleConfig.pb", 16);
    if (abi != ASMSTORE_ABI_UNKNOWN) {
        app->abis |= 1u << abi;
        app->runtime_mono |= (fl == 18 && !memcmp(file, "libmonosgen-2.0.so", 18)) ||
                             (fl == 15 && !memcmp(file, "libmonodroid.so", 15));
        app->runtime_coreclr |= fl == 13 && !memcmp(file, "libcoreclr.so", 13);
        app->app_library |= fl == 17 && !memcmp(file, "libxamarin-app.so", 17);
    }
    looks =
        (e->method == 0 && e->compressed_size >= 4 && !memcmp(zip + e->data_offset, "XABA", 4)) ||
        (len > 5 && !memcmp(name + len - 5, ".blob", 5)) ||
        (len > 8 && !memcmp(name + len - 8, ".blob.so", 8)) ||
        (fl == 20 && !memcmp(file, "libassembly-store.so", 20));
    if (looks && !scan_release_path(name, len)) {
        snprintf(shown, sizeof shown, "%.*s", (int)(len < 280 ? len : 280), name);
        scan_find(s, SCAN_STORE_UNEXPECTED_PLACE, shown,
                  "store-like bytes or name at a path no release reads (a runtime "
                  "never loads it; something else may)");
    }
}

/* --yara-members: one member's bytes (inflated when DEFLATEd, within cli_entry_read's bounds). */
static void scan_member_yara(scan_state *s, const unsigned char *zip, const asmstore_zip_entry *e,
                             const char *name, size_t len) {
    cli_entry_bytes b;
    char shown[300];

    if (!s->a->yara_members || cli_entry_read(zip, e, 0, &b) != ASMSTORE_OK) return;
    snprintf(shown, sizeof shown, "%.*s", (int)(len < 280 ? len : 280), name);
    yara_scan(s, b.p, b.n, NULL, NULL, shown);
    free(b.owned);
}

/* Every member of the input's archive once. */
static void scan_members(scan_state *s, scan_app *app) {
    const unsigned char *zip;
    size_t n, len;
    asmstore_zip_dir dir;
    asmstore_zip_entry e;
    const char *name;

    memset(app, 0, sizeof *app);
    if (!scan_archive(s, &zip, &n) || asmstore_zip_dir_open(zip, n, &dir, NULL) != ASMSTORE_OK)
        return;
    while (asmstore_zip_next(zip, n, &dir, &e, &name, &len, NULL) == ASMSTORE_OK) {
        scan_member(s, app, zip, &e, name, len);
        scan_member_yara(s, zip, &e, name, len);
    }
}

/* --yara-members over the archive zip[0..n) alone: an input whose findings the cache had. */
static void scan_members_yara(scan_state *s, const unsigned char *zip, size_t n) {
    asmstore_zip_dir dir;
    asmstore_zip_entry e;
    const char *name;
    size_t len;

    if (!s->a->yara_members || asmstore_zip_dir_open(zip, n, &dir, NULL) != ASMSTORE_OK) return;
    while (asmstore_zip_next(zip, n, &dir, &e, &name, &len, NULL) == ASMSTORE_OK)
        scan_member_yara(s, zip, &e, name, len);
}

/* An assembly of a store that also sits as a plain member ("assemblies/Foo.dll", any .dll/.exe):
   which copy loads depends on the runtime's probing order. */
static void scan_plain_assemblies(scan_state *s) {
    const unsigned char *zip;
    size_t n, len;
    asmstore_zip_dir dir;
    const char *name, *base;
    int i;

    if (!scan_archive(s, &zip, &n) || asmstore_zip_dir_open(zip, n, &dir, NULL) != ASMSTORE_OK)
        return;
    while (asmstore_zip_next(zip, n, &dir, NULL, &name, &len, NULL) == ASMSTORE_OK) {
        if (len < 5 || (memcmp(name + len - 4, ".dll", 4) && memcmp(name + len - 4, ".exe", 4)))
            continue;
        for (base = name + len; base > name && base[-1] != '/';) base--;
        for (i = 0; i < s->in.n; i++) {
            const cli_unit *u = &s->in.units[i];
            char shown[300];
            if (!u->opened || asmstore_reader_find(&u->r, base, (size_t)(name + len - base), NULL,
                                                   NULL) != ASMSTORE_OK)
                continue;
            snprintf(shown, sizeof shown, "%.*s", (int)(len < 280 ? len : 280), name);
            scan_find(s, SCAN_ASSEMBLY_ALSO_PLAIN, shown, "also entry %.*s of %s (%s)",
                      (int)(name + len - base), base, u->label, cli_unit_abi(u));
            break;
        }
    }
}

/* >>stores ------------------------------------------------------------------------------------- */
/* The entry's names must reach it (verify's rule): else the runtime never loads it. */
static void scan_lookup(scan_state *s, const cli_unit *u, const asmstore_entry *e,
                        const char *where) {
    asmstore_entry f;
    asmstore_result r, want = e->ignored ? ASMSTORE_ERR_IGNORED : ASMSTORE_OK;

    if (!e->name) return; /* format 1 without its manifest: known by hash only */
    r = asmstore_reader_find(&u->r, e->name, e->name_len, &f, NULL);
    if (r == want && (r != ASMSTORE_OK || f.index == e->index)) return;
    if (r == ASMSTORE_OK)
        scan_find(s, SCAN_UNREACHABLE_ENTRY, where,
                  "its name finds entry %u first: this one is never loaded", f.index);
    else
        scan_find(s, SCAN_UNREACHABLE_ENTRY, where,
                  "its name finds nothing (%s): it is never loaded", asmstore_result_string(r));
}

/* The assembly's own name (asmstore_pe_identity) against its entry's, extension and culture
   directory aside: "fr/Foo.resources.dll" holds "Foo.resources". */
static void scan_name_check(scan_state *s, const asmstore_entry *e, const cli_image *img,
                            const char *where) {
    asmstore_pe pe;
    asmstore_identity id;
    const char *base, *end;

    if (!e->name || asmstore_pe_parse(&pe, img->p, img->n, NULL) != ASMSTORE_OK ||
        asmstore_pe_identity(&pe, &id, NULL) != ASMSTORE_OK || !id.has_assembly)
        return;
    end = e->name + e->name_len;
    for (base = end; base > e->name && base[-1] != '/';) base--;
    if (end - base > 4 && (!memcmp(end - 4, ".dll", 4) || !memcmp(end - 4, ".exe", 4))) end -= 4;
    if ((size_t)(end - base) == id.name_len && !memcmp(base, id.name, id.name_len)) return;
    scan_find(s, SCAN_NAME_MISMATCH, where, "the assembly calls itself %.*s", (int)id.name_len,
              id.name);
}

/* One entry: its line item, and what is wrong with it. */
static void scan_entry(scan_state *s, const cli_unit *u, const asmstore_entry *e) {
    char fname[1200], sha[CLI_SHA256_HEX] = "", where[1500], why[512];
    asmstore_error err;
    asmstore_result r;
    cli_image img;

    memset(&img, 0, sizeof img);
    if (cli_entry_filename(u, e, fname, sizeof fname) != 0) fname[0] = 0;
    snprintf(where, sizeof where, "%s (%s): %s", u->label, cli_unit_abi(u), fname);
    s->counts.entries++;
    scan_lookup(s, u, e, where);
    if (e->ignored) {
        if (e->image_size)
            scan_find(s, SCAN_IGNORED_WITH_DATA, where, "%zu bytes behind a placeholder",
                      e->image_size);
    } else if ((r = cli_image_get_reusing(u, e, s->dctx, s->images, &img, &err)) != ASMSTORE_OK) {
        scan_find(s, SCAN_DAMAGED_IMAGE, where, "%s", cli_failure(r, &err, why, sizeof why));
    } else {
        cli_sha256_hex(img.p, img.n, sha);
        if (cli_image_problem(e, img.p, why, sizeof why))
            scan_find(s, SCAN_NOT_AN_ASSEMBLY, where, "%s", why);
        else
            scan_name_check(s, e, &img, where);
        yara_scan(s, img.p, img.n, u->label, fname, NULL);
        if (s->cache) scan_cache_add(s->cache, u->label, fname, img.p, img.n);
    }
    cli_json_entry(u, e, fname, sha, &img);
    cli_image_free(&img);
}

/* Where the store sits in its archive: the runtime maps it in place, so it must be STORED and
   aligned (16 bytes for a blob, a page for a .so the loader maps). */
static void scan_store_place(scan_state *s, const cli_unit *u) {
    uint64_t need = strncmp(u->wrapper, "elf", 3) == 0 ? 4096u : 16u;

    if (!u->in_zip) return;
    if (u->deflated)
        scan_find(s, SCAN_STORE_DEFLATED, u->label,
                  "DEFLATEd in the archive: the runtime cannot map it "
                  "(extractNativeLibs=true, or a repackaging tool)");
    else if (u->zent.alignment < need)
        scan_find(s, SCAN_STORE_MISALIGNED, u->label,
                  "its data is at offset %llu, aligned to %llu bytes; the runtime "
                  "maps it at %llu",
                  (unsigned long long)u->zent.data_offset, (unsigned long long)u->zent.alignment,
                  (unsigned long long)need);
}

/* The descriptors of a's table that no compressed image of u uses: an image left out of the store,
   or a table for another store (formats 2-4: a .NET 6-8 set's table spans every ABI's store). */
static uint32_t scan_unused_descriptors(const cli_app *a, const cli_unit *u) {
    unsigned char *used;
    uint32_t k, unused = 0;

    if (u->r.format == 1 || !a->info.count || !(used = (unsigned char *)calloc(a->info.count, 1)))
        return 0;
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        asmstore_reader_entry(&u->r, k, &e, NULL);
        if (e.descriptor_index < a->info.count) used[e.descriptor_index] = 1;
    }
    for (k = 0; k < a->info.count; k++) unused += !used[k];
    free(used);
    return unused;
}

/* libxamarin-app.so's table against the store, as the runtime checks it (info's "agrees"), and
   the reverse: descriptors no image uses. */
static void scan_app_table(scan_state *s, const cli_unit *u) {
    cli_app a;
    cli_app_agreement g;
    uint32_t bad, unused;

    memset(&a, 0, sizeof a);
    if (cli_app_find(&a, &s->in, u, NULL) != 0 || !a.found || a.res != ASMSTORE_OK) {
        cli_app_close(&a);
        return;
    }
    if ((bad = cli_app_agree(&a, u, NULL, &g)) != 0)
        scan_find(s, SCAN_APP_TABLE_DISAGREES, u->label,
                  "%s: %u of %u compressed entries rejected (%u past the table, "
                  "%u larger than their descriptor, %u with the buffer out of "
                  "place)",
                  a.label, bad, g.compressed, g.out_of_range, g.too_large, g.bad_buffer);
    if ((unused = scan_unused_descriptors(&a, u)) != 0)
        scan_find(s, SCAN_APP_TABLE_EXTRA, u->label,
                  "%s: %u of its %u descriptors hold no image of this store", a.label, unused,
                  a.info.count);
    cli_app_close(&a);
}

/* 0 for the one unit of a file that holds no store at all (no "XABA", an ELF file without a
   payload): that input is simply not an app; anything else is a store, damaged or not. */
static int scan_holds_store(const cli_unit *u) {
    return u->opened || u->in_zip ||
           (u->res != ASMSTORE_ERR_BAD_MAGIC && u->res != ASMSTORE_ERR_NO_PAYLOAD);
}

static void scan_store(scan_state *s, const cli_unit *u) {
    char release[200], why[512];
    uint32_t k;

    cli_json_open(NULL, '{');
    cli_json_str("store", u->label);
    cli_json_abi("abi", u->abi);
    if (!u->opened) {
        const char *problem =
            u->detail[0] ? u->detail : cli_failure(u->res, &u->err, why, sizeof why);
        cli_json_str("problem", problem);
        cli_json_close();
        scan_find(s, SCAN_DAMAGED_STORE, u->label, "%s", problem);
        return;
    }
    s->counts.stores++;
    cli_unit_release(u, release, sizeof release);
    cli_json_str("release", release);
    cli_json_str("runtime", cli_unit_runtime(u));
    cli_json_num("format", u->r.format);
    cli_json_str("wrapper", u->wrapper);
    scan_store_place(s, u);
    cli_json_open("entries", '[');
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        asmstore_reader_entry(&u->r, k, &e, NULL);
        scan_entry(s, u, &e);
    }
    cli_json_close();
    scan_app_table(s, u);
    cli_json_close();
}

/* >>one input ---------------------------------------------------------------------------------- */
/* What the input is, from its first bytes, its archive members and the stores found in it. */
static const char *scan_kind(const scan_state *s, const scan_app *app, const unsigned char *p,
                             size_t n) {
    const char *slash = strrchr(s->in.path, '/');
    const char *base = slash ? slash + 1 : s->in.path;
    int i;

    if (s->in.archive)
        return app->bundle                   ? "aab"
               : !strncmp(base, "split_", 6) ? "split"
               : app->apk_manifest           ? "apk"
                                             : "zip";
    for (i = 0; i < s->in.n; i++)
        if (s->in.units[i].opened && s->in.units[i].r.format == 1) return "set";
    if (n >= 4 && !memcmp(p, "\177ELF", 4)) return "so";
    if (n >= 4 && !memcmp(p, "XABA", 4)) return "store";
    return "not-an-app";
}

/* The runtime the app ships (its lib/<abi>/ libraries), else what its stores' layout says. */
static const char *scan_runtime(const scan_state *s, const scan_app *app) {
    int i;

    if (app->runtime_coreclr && app->runtime_mono) return "CoreCLR and MonoVM";
    if (app->runtime_coreclr) return "CoreCLR";
    if (app->runtime_mono) return "MonoVM";
    for (i = 0; i < s->in.n; i++)
        if (s->in.units[i].opened) return cli_unit_runtime(&s->in.units[i]);
    return NULL;
}

/* "app": .NET for Android or not, its runtime, layout and ABIs. */
static void scan_json_app(scan_state *s, const scan_app *app) {
    char release[200] = "";
    unsigned abis = app->abis, abi;
    int i, stores = 0;

    for (i = 0; i < s->in.n; i++) {
        const cli_unit *u = &s->in.units[i];
        if (!u->opened) continue;
        stores++;
        if (!release[0]) cli_unit_release(u, release, sizeof release);
        if (u->abi != ASMSTORE_ABI_UNKNOWN) abis |= 1u << u->abi;
    }
    s->counts.dotnet = stores || app->runtime_mono || app->runtime_coreclr || app->app_library;
    cli_json_bool("dotnet", (int)s->counts.dotnet);
    cli_json_str("runtime", scan_runtime(s, app));
    cli_json_str("release", release[0] ? release : NULL);
    cli_json_open("abis", '[');
    for (abi = 1; abi <= 4; abi++)
        if (abis & (1u << abi)) cli_json_str(NULL, asmstore_abi_android_name((asmstore_abi)abi));
    cli_json_close();
}

/* Why path cannot be read: a directory the walk could not open (scan_walk gives it a line of its
   own rather than stop) says so; the exit status. */
static int scan_unreadable(const char *path) {
    int read_errno = errno;
    struct stat st;
    DIR *d;

    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!(d = opendir(path))) return cli_fail_errno(path, "walk the directory");
        closedir(d);
    }
    errno = read_errno;
    return cli_fail_errno(path, "read it");
}

/* The input's own fields: size and SHA-256 (into sha) of the file as read. 0, or the exit status
   after noting why it cannot be read. */
static int scan_file_fields(const char *path, const unsigned char **p, size_t *n, char *sha) {
    if (cli_map_file(path, p, n) != 0) return scan_unreadable(path);
    cli_sha256_hex(*p, *n, sha);
    cli_json_num("size", *n);
    cli_json_str("sha256", sha[0] ? sha : NULL);
    return 0;
}

/* What a worker keeps from input to input: past 64 MiB its image buffer goes after the input, so
   one huge image does not hold memory through the inputs after it. */
typedef struct scan_kept {
    ZSTD_DCtx *dctx;
    cli_image_buffer images;
} scan_kept;
#define SCAN_KEEP_IMAGES ((size_t)64 << 20)

/* --cache: the line written into memory first, so that its parts go into the record as they went
   into the line; on a miss, the record being written. */
typedef struct scan_capture {
    FILE *mem, *was;
    char *text;
    size_t n;
    long mark[4]; /* the line's text from "kind" to "stores": [0, 1); its findings: [2, 3) */
    int keep;     /* a miss scanned whole: the record is written */
    char sha[CLI_SHA256_HEX];
    scan_cache_writer w;
    uint32_t counts[SCAN_CACHE_COUNTS];
} scan_capture;

/* The counts a record keeps: not errors (a record is kept only for a line without one) nor YARA's
   matches (counted again over the record's images). */
#define SCAN_NCOUNTS (3u + (uint32_t)SCAN_NCODES)
typedef char scan_counts_fit[SCAN_NCOUNTS <= SCAN_CACHE_COUNTS ? 1 : -1];

static void scan_counts_pack(const scan_counts *c, uint32_t *v) {
    unsigned k;

    v[0] = c->dotnet, v[1] = c->stores, v[2] = c->entries;
    for (k = 0; k < SCAN_NCODES; k++) v[3 + k] = c->findings[k];
}

static void scan_counts_unpack(scan_counts *c, const uint32_t *v) {
    unsigned k;

    c->dotnet = v[0], c->stores = v[1], c->entries = v[2];
    for (k = 0; k < SCAN_NCODES; k++) c->findings[k] = v[3 + k];
}

static void scan_mark(scan_capture *c, int k) {
    if (c) c->mark[k] = ftell(c->mem);
}

/* How much of an n-byte name a cap-byte buffer takes, as a printf precision (n may pass INT_MAX;
   the matches keep less anyway). */
static int scan_cut(size_t n, size_t cap) {
    return (int)(n < cap ? n : cap - 1);
}

/* An input the cache has (v): its texts spliced into the line, only the YARA rules run again, over
   the record's images and (--yara-members) the archive's members. */
static void scan_from_cache(scan_state *s, const scan_cache_view *v, const unsigned char *p,
                            size_t n) {
    scan_cache_image img;
    char store[1500], entry[1200];
    size_t at = 0;

    cli_json_raw(v->stores_text, v->stores_n);
    scan_members_yara(s, p, n);
    while (s->a->yara && scan_cache_next(v->images, v->images_n, &at, &img) == 1) {
        snprintf(store, sizeof store, "%.*s", scan_cut(img.store_n, sizeof store), img.store);
        snprintf(entry, sizeof entry, "%.*s", scan_cut(img.entry_n, sizeof entry), img.entry);
        yara_scan(s, img.p, img.n, store, entry, NULL);
    }
    scan_json_matches(s);
    cli_json_raw(v->findings_text, v->findings_n);
    scan_counts_unpack(&s->counts, v->counts);
}

/* An input read whole: its archive, stores and images (kept for the record on a miss). */
static int scan_whole(scan_state *s, const char *path, const unsigned char *p, size_t n,
                      scan_capture *c) {
    scan_app app;
    int rc, i, status = 0;

    rc = cli_input_open(&s->in, path, ASMSTORE_ABI_UNKNOWN);
    s->in.path = path;
    scan_members(s, &app);
    scan_mark(c, 0);
    cli_json_str("kind", scan_kind(s, &app, p, n));
    scan_json_app(s, &app);
    cli_json_open("stores", '[');
    for (i = 0; rc == 0 && i < s->in.n; i++)
        if (scan_holds_store(&s->in.units[i])) scan_store(s, &s->in.units[i]);
    cli_json_close();
    scan_plain_assemblies(s);
    scan_mark(c, 1);
    scan_json_matches(s);
    scan_mark(c, 2);
    scan_json_findings(s);
    scan_mark(c, 3);
    if (rc == 2) status = cli_fail_errno(path, "read the stores it holds");
    cli_input_close(&s->in);
    return status;
}

/* One input's line (c: into its capture, the cache consulted); its exit status: 0 read (findings
   or not), 1 an input asmstore cannot read as what it looks like, 2 not a readable file. */
static int scan_line(const scan_args *a, const char *path, scan_kept *kept, scan_counts *counts,
                     scan_capture *c) {
    scan_state s;
    scan_cache_view v;
    const unsigned char *p = NULL;
    size_t n = 0;
    char sha[CLI_SHA256_HEX] = "";
    int status;

    memset(&s, 0, sizeof s);
    memset(counts, 0, sizeof *counts);
    s.a = a;
    s.dctx = kept->dctx;
    s.images = &kept->images;
    cli_json_begin("scan");
    cli_json_str("input", path);
    if ((status = scan_file_fields(path, &p, &n, sha)) != 0) {
        counts->errors = 1;
        return cli_json_finish(status);
    }
    if (c && scan_cache_open(a->cache, sha, SCAN_NCOUNTS, &v) == 0) {
        scan_from_cache(&s, &v, p, n);
        scan_cache_close(&v);
        status = 0;
    } else {
        if (c && scan_cache_begin(&c->w, a->cache, sha) == 0) s.cache = &c->w;
        status = scan_whole(&s, path, p, n, c);
    }
    cli_unmap_file(p, n);
    free(s.found);
    free(s.matches);
    if (kept->images.cap > SCAN_KEEP_IMAGES) {
        free(kept->images.p);
        memset(&kept->images, 0, sizeof kept->images);
    }
    *counts = s.counts;
    counts->errors = status != 0;
    if (c) {
        c->keep = s.cache != NULL && status == 0;
        memcpy(c->sha, sha, sizeof c->sha);
        scan_counts_pack(counts, c->counts);
    }
    return cli_json_finish(status);
}

/* 1 when the marks cut the captured line into its parts, in order. */
static int scan_marks_ok(const scan_capture *c) {
    return c->mark[0] > 0 && c->mark[0] <= c->mark[1] && c->mark[1] <= c->mark[2] &&
           c->mark[2] <= c->mark[3] && (size_t)c->mark[3] <= c->n;
}

/* One input's line on stdout (a worker's job for that input), through the cache with --cache:
   a capture that fails scans the input again straight to stdout, without the cache. */
static int scan_input(const scan_args *a, const char *path, scan_kept *kept, scan_counts *counts) {
    scan_capture c;
    int status;

    memset(&c, 0, sizeof c);
    if (!a->cache || !(c.mem = cli_os_memstream(&c.text, &c.n)))
        return scan_line(a, path, kept, counts, NULL);
    c.was = cli_json_out(c.mem);
    status = scan_line(a, path, kept, counts, &c);
    cli_json_out(c.was);
    if (cli_os_memstream_close(c.mem, &c.text, &c.n) != 0) {
        scan_cache_drop(&c.w);
        return scan_line(a, path, kept, counts, NULL);
    }
    fwrite(c.text, 1, c.n, stdout);
    if (c.keep && scan_marks_ok(&c))
        scan_cache_end(&c.w, a->cache, c.sha, c.text + c.mark[0], (size_t)(c.mark[1] - c.mark[0]),
                       c.text + c.mark[2], (size_t)(c.mark[3] - c.mark[2]), c.counts,
                       SCAN_NCOUNTS);
    else
        scan_cache_drop(&c.w);
    free(c.text);
    return status;
}

/* >>workers ------------------------------------------------------------------------------------ */
/* Totals for --summary. */
static void scan_add(scan_counts *total, const scan_counts *c) {
    unsigned k;

    total->dotnet += c->dotnet;
    total->stores += c->stores;
    total->entries += c->entries;
    total->errors += c->errors;
    total->yara_matches += c->yara_matches;
    for (k = 0; k < SCAN_NCODES; k++) total->findings[k] += c->findings[k];
}

#ifndef _WIN32
/* The line of an input whose worker did not finish it. */
static int scan_stopped_line(const char *path, const char *why) {
    cli_json_begin("scan");
    cli_json_str("input", path);
    cli_json_note_error(0, ASMSTORE_OK, why);
    return cli_json_finish(1);
}

#define SCAN_MAX_LINE ((size_t)1 << 30) /* a line past 1 GiB is a worker gone wrong */
#define SCAN_MAX_WORKERS 256u /* --jobs past it: this many */
/* A worker's inputs before a fresh one takes over: what a leak or a fragmented heap could grow
   to stays bounded, and forking (a third of the CPU of scanning a small APK) is rare. */
#define SCAN_WORKER_INPUTS 64u
#define SCAN_IDLE          ((size_t)-1)

/* What a worker sends after an input's line. */
typedef struct scan_trailer {
    int status;
    scan_counts counts;
} scan_trailer;

/* One input: its line (then its trailer) as it came from a worker. */
typedef struct scan_job {
    const char *path;
    char *out;
    size_t len, cap;
    size_t line; /* the line's length with its newline once that has come, else 0 */
    int done, wait_status;
    const char *stopped; /* why the parent stopped its worker: NULL, or what the line says */
} scan_job;

/* A worker process: the inputs it is given, over a socket; their lines back. The next input is
   sent while it reads the one before, so it never waits for the parent between two. */
typedef struct scan_worker {
    pid_t pid;     /* 0: none running */
    int fd;        /* the parent's end of the socket */
    size_t job;    /* the input it is reading, or SCAN_IDLE */
    size_t queued; /* the input it reads next, or SCAN_IDLE; kept for the next worker if it ends */
    unsigned served;
    double started; /* cli_now_ms when it began its input */
} scan_worker;

/* n bytes from fd into p; 0, or -1 at the end (the parent closed its end) or on error. */
static int scan_read_full(int fd, void *p, size_t n) {
    ssize_t got;

    while (n > 0) {
        if ((got = read(fd, p, n)) <= 0) {
            if (got < 0 && errno == EINTR) continue;
            return -1;
        }
        p = (char *)p + got;
        n -= (size_t)got;
    }
    return 0;
}

/* The worker: for each input index the parent sends, the input's line on the socket, then its
   trailer; exits when the parent closes its end. One ZSTD_DCtx, image buffer and heap serve
   every input. */
static void scan_worker_main(const scan_args *a, int fd) {
    scan_trailer t;
    size_t k;
    int devnull = open("/dev/null", O_WRONLY);
    struct rlimit lim;
    scan_kept kept;

    if (dup2(fd, STDOUT_FILENO) < 0) _exit(2);
    if (devnull >= 0) dup2(devnull, STDERR_FILENO); /* the line's "error" says it all */
    lim.rlim_cur = lim.rlim_max = (rlim_t)a->max_memory_mib << 20;
    setrlimit(RLIMIT_DATA, &lim);
    memset(&kept, 0, sizeof kept);
    kept.dctx = ZSTD_createDCtx();
    while (scan_read_full(fd, &k, sizeof k) == 0 && k < a->ninputs) {
        memset(&t, 0, sizeof t);
        t.status = scan_input(a, a->inputs[k], &kept, &t.counts);
        fflush(stdout);
        if (write(STDOUT_FILENO, &t, sizeof t) != (ssize_t)sizeof t) break;
    }
    _exit(0);
}

/* Starts worker w (of ws[0..nw)). 0, or -1 with errno. */
static int scan_spawn(const scan_args *a, scan_worker *ws, size_t nw, scan_worker *w) {
    int fds[2];
    size_t i;

    fflush(stdout); /* nothing buffered may reach the child */
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return -1;
    if ((w->pid = fork()) < 0) {
        close(fds[0]);
        close(fds[1]);
        w->pid = 0;
        return -1;
    }
    if (w->pid == 0) {
        for (i = 0; i < nw; i++) /* the others' ends: their workers see their end only from us */
            if (ws[i].pid > 0) close(ws[i].fd);
        close(fds[0]);
        scan_worker_main(a, fds[1]);
    }
    close(fds[1]);
    w->fd = fds[0];
    w->job = SCAN_IDLE;
    w->served = 0;
    return 0;
}

/* Ends worker w (SIGKILL first when kill_it) and reaps it; its wait status. */
static int scan_retire(scan_worker *w, int kill_it) {
    int st = 0;

    if (kill_it) kill(w->pid, SIGKILL);
    close(w->fd); /* an idle worker reads the end of its socket and exits */
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR) {
    }
    w->pid = 0;
    w->job = SCAN_IDLE;
    return st;
}

/* Worker w's input stops unfinished: `why` (the parent's reason, NULL: the worker died). The input
   it had queued goes to the next worker. */
static void scan_abandon(scan_worker *w, scan_job *jobs, const char *why) {
    scan_job *j = &jobs[w->job];
    int st = scan_retire(w, why != NULL);

    j->wait_status = st;
    j->stopped = why;
    j->done = 1;
}

/* Sends input k to worker w (started first when none runs): its input now when idle, else its
   next. 0; 1 when w's end is gone while it reads (its end is read next); -1 when none starts. */
static int scan_give(const scan_args *a, scan_worker *ws, size_t nw, scan_worker *w, size_t k) {
    if (w->pid > 0 && w->job == SCAN_IDLE && w->served >= SCAN_WORKER_INPUTS) scan_retire(w, 0);
    if (w->pid == 0 && scan_spawn(a, ws, nw, w) != 0) return -1;
    if (send(w->fd, &k, sizeof k, MSG_NOSIGNAL) != (ssize_t)sizeof k) {
        if (w->job != SCAN_IDLE) return 1;
        scan_retire(w, 1); /* gone while idle: once more with a fresh one */
        if (scan_spawn(a, ws, nw, w) != 0 || send(w->fd, &k, sizeof k, MSG_NOSIGNAL) != (ssize_t)sizeof k)
            return -1;
    }
    w->served++;
    if (w->job != SCAN_IDLE) {
        w->queued = k;
        return 0;
    }
    w->job = k;
    w->started = cli_now_ms();
    return 0;
}

/* Room for n more bytes of job j's line; 0, or -1 past SCAN_MAX_LINE or out of memory. */
static int scan_room(scan_job *j, size_t n) {
    size_t cap = j->cap ? j->cap : 1 << 16;
    char *p;

    while (cap < j->len + n && cap <= SCAN_MAX_LINE) cap *= 2;
    if (cap == j->cap) return 0;
    if (cap > SCAN_MAX_LINE || !(p = (char *)realloc(j->out, cap))) return -1;
    j->out = p;
    j->cap = cap;
    return 0;
}

/* Adds what came from worker w to its input's line, up to the end of that input's trailer, where
   the input is done and the queued one begins. The bytes used (0: the input was abandoned). */
static size_t scan_take(scan_worker *w, scan_job *jobs, const char *p, size_t n) {
    scan_job *j = &jobs[w->job];
    const char *nl;
    size_t end;

    if (!j->line && (nl = (const char *)memchr(p, '\n', n)) != NULL)
        j->line = j->len + (size_t)(nl - p) + 1;
    end = j->line + sizeof(scan_trailer);
    if (j->line && j->len + n > end) n = end - j->len;
    if (scan_room(j, n) != 0) {
        scan_abandon(w, jobs, "its line grew past 1 GiB (or out of memory): stopped");
        return 0;
    }
    memcpy(j->out + j->len, p, n);
    j->len += n;
    if (j->line && j->len == end) {
        j->done = 1;
        w->job = w->queued;
        w->queued = SCAN_IDLE;
        w->started = cli_now_ms();
    }
    return n;
}

/* Reads what worker w sent: its inputs' lines and trailers, or its end (the input it was reading
   then stops unfinished). */
static void scan_read(scan_worker *w, scan_job *jobs) {
    char buf[65536];
    ssize_t got = read(w->fd, buf, sizeof buf);
    size_t at = 0;

    if (got < 0 && errno == EINTR) return;
    if (got <= 0) {
        if (w->job != SCAN_IDLE) scan_abandon(w, jobs, NULL);
        else scan_retire(w, 1);
        return;
    }
    while (at < (size_t)got && w->pid > 0 && w->job != SCAN_IDLE) {
        size_t used = scan_take(w, jobs, buf + at, (size_t)got - at);
        if (!used) return;
        at += used;
    }
    if (at < (size_t)got && w->pid > 0) scan_retire(w, 1); /* bytes for no input: gone wrong */
}

/* Job j's line on stdout (or the line saying why it has none); its exit status. */
static int scan_emit(const scan_job *j, scan_counts *total) {
    scan_trailer t;
    char why[200];

    if (!j->stopped && j->line && j->len == j->line + sizeof t) {
        memcpy(&t, j->out + j->line, sizeof t);
        fwrite(j->out, 1, j->line, stdout);
        scan_add(total, &t.counts);
        return t.status;
    }
    if (!j->stopped)
        snprintf(why, sizeof why,
                 "the worker reading it stopped (%s %d): a bug in asmstore, "
                 "please report it with the input",
                 WIFSIGNALED(j->wait_status) ? "signal" : "exit status",
                 WIFSIGNALED(j->wait_status) ? WTERMSIG(j->wait_status)
                                             : WEXITSTATUS(j->wait_status));
    total->errors++;
    return scan_stopped_line(j->path, j->stopped ? j->stopped : why);
}

/* Kills the workers whose input runs past --timeout. */
static void scan_deadlines(const scan_args *a, scan_worker *ws, size_t nw, scan_job *jobs) {
    static char why[80];
    double now = cli_now_ms();
    size_t i;

    snprintf(why, sizeof why, "timed out after %d s (--timeout): stopped", a->timeout);
    for (i = 0; i < nw; i++)
        if (ws[i].job != SCAN_IDLE && now - ws[i].started >= 1000.0 * a->timeout)
            scan_abandon(&ws[i], jobs, why);
}

/* Waits for what the workers send (or their end) and reads it. */
static void scan_poll(scan_worker *ws, size_t nw, scan_job *jobs) {
    struct pollfd fds[SCAN_MAX_WORKERS];
    size_t map[SCAN_MAX_WORKERS], i, n = 0;

    for (i = 0; i < nw; i++)
        if (ws[i].pid > 0) {
            fds[n].fd = ws[i].fd;
            fds[n].events = POLLIN;
            map[n++] = i;
        }
    if (poll(fds, (nfds_t)n, 250) <= 0) return;
    for (i = 0; i < n; i++)
        if (fds[i].revents) scan_read(&ws[map[i]], jobs);
}

/* Room in worker w for one more input: none being read, or none queued and a fresh worker not
   due yet. */
static int scan_has_room(const scan_worker *w) {
    return w->job == SCAN_IDLE || (w->queued == SCAN_IDLE && w->served < SCAN_WORKER_INPUTS);
}

/* The next inputs to the workers with room (first an input a stopped worker had queued), while
   fewer than SCAN_WINDOW lines wait for an earlier one: one large input does not leave the
   other workers idle. */
#define SCAN_WINDOW 256
static void scan_hand_out(const scan_args *a, scan_worker *ws, size_t nw, scan_job *jobs,
                          size_t *next, size_t emitted) {
    size_t i, k;
    int r;

    for (i = 0; i < nw; i++) {
        scan_worker *w = &ws[i];
        if (w->pid == 0 && (k = w->queued) != SCAN_IDLE) {
            w->queued = SCAN_IDLE;
            if (scan_give(a, ws, nw, w, k) != 0) {
                jobs[k].done = 1;
                jobs[k].stopped = "could not start a worker for it";
            }
        }
        while (scan_has_room(w) && *next < a->ninputs && *next - emitted < SCAN_WINDOW) {
            if ((r = scan_give(a, ws, nw, w, *next)) > 0) break;
            if (r < 0) {
                jobs[*next].done = 1;
                jobs[*next].stopped = "could not start a worker for it";
            }
            (*next)++;
            if (r < 0) break;
        }
    }
}

/* Every input through at most a->jobs worker processes, each reading one input at a time (so an
   input past --timeout or --max-memory costs its own line only); lines in input order. Returns
   the worst status. */
static int scan_run(const scan_args *a, scan_counts *total) {
    size_t nw = (size_t)a->jobs < SCAN_MAX_WORKERS ? (size_t)a->jobs : SCAN_MAX_WORKERS;
    scan_job *jobs = (scan_job *)calloc(a->ninputs ? a->ninputs : 1, sizeof *jobs);
    scan_worker *ws = (scan_worker *)calloc(nw, sizeof *ws);
    size_t next = 0, emitted = 0, i;
    int worst = 0, progress = isatty(STDERR_FILENO);
    char warm[CLI_SHA256_HEX];

    if (!jobs || !ws) {
        free(jobs);
        free(ws);
        return cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
    }
    /* libcrypto reads its configuration on first use: once here rather than in every worker */
    cli_sha256_hex("", 0, warm);
    for (i = 0; i < a->ninputs; i++) jobs[i].path = a->inputs[i];
    for (i = 0; i < nw; i++) ws[i].job = ws[i].queued = SCAN_IDLE;
    while (emitted < a->ninputs) {
        scan_hand_out(a, ws, nw, jobs, &next, emitted);
        scan_poll(ws, nw, jobs);
        scan_deadlines(a, ws, nw, jobs);
        for (; emitted < next && jobs[emitted].done; emitted++) {
            int st = scan_emit(&jobs[emitted], total);
            worst = st > worst ? st : worst;
            free(jobs[emitted].out);
            if (progress) fprintf(stderr, "\rscan: %zu of %zu inputs", emitted + 1, a->ninputs);
        }
        fflush(stdout);
    }
    for (i = 0; i < nw; i++)
        if (ws[i].pid > 0) scan_retire(&ws[i], 0);
    if (progress) fputs("\r\033[K", stderr);
    free(jobs);
    free(ws);
    return worst;
}
#else
/* Windows has no fork: each input in turn, in this process (no --timeout, no memory bound). */
static int scan_run(const scan_args *a, scan_counts *total) {
    scan_kept kept;
    size_t i;
    int worst = 0;

    memset(&kept, 0, sizeof kept);
    kept.dctx = ZSTD_createDCtx();
    for (i = 0; i < a->ninputs; i++) {
        scan_counts c;
        int st = scan_input(a, a->inputs[i], &kept, &c);
        scan_add(total, &c);
        worst = st > worst ? st : worst;
    }
    ZSTD_freeDCtx(kept.dctx);
    free(kept.images.p);
    return worst;
}
#endif

/* >>inputs ------------------------------------------------------------------------------------- */
#define SCAN_MAX_DEPTH 64

static int scan_push(scan_args *a, const char *path) {
    if (a->ninputs == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        char **p = (char **)realloc(a->inputs, cap * sizeof *p);
        if (!p) return -1;
        a->inputs = p;
        a->cap = cap;
    }
    if (!(a->inputs[a->ninputs] = strdup(path))) return -1;
    a->ninputs++;
    return 0;
}

static int scan_name_order(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Every regular file under dir, in name order, depth first; symbolic links are not followed
   (no loop can form) and FIFOs, sockets and devices are left out (none can block the walk). A
   directory that does not open is an input of its own, whose line says why (the walk goes on). */
static int scan_walk(scan_args *a, const char *dir, int depth) {
    DIR *d = depth < SCAN_MAX_DEPTH ? opendir(dir) : NULL;
    struct dirent *de;
    char **names = NULL, path[4096];
    size_t n = 0, cap = 0, i;
    int rc = 0;

    if (!d && depth >= SCAN_MAX_DEPTH) return 0;
    if (!d) return scan_push(a, dir) ? cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL) : 0;
    while ((de = readdir(d)) != NULL && rc == 0) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (n == cap &&
            !(names = (char **)realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names)))
            rc = cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
        else if (!(names[n++] = strdup(de->d_name)))
            rc = cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
    }
    closedir(d);
    if (names) qsort(names, n, sizeof *names, scan_name_order);
    for (i = 0; i < n; i++) {
        struct stat st;
        if (rc == 0 && (size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) < sizeof path &&
            cli_os_lstat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                rc = scan_walk(a, path, depth + 1);
            else if (S_ISREG(st.st_mode) && scan_push(a, path) != 0)
                rc = cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* The paths a list holds, one a line ("-": stdin; "@FILE"). */
static int scan_list(scan_args *a, const char *list) {
    FILE *f = strcmp(list, "-") ? fopen(list, "r") : stdin;
    char line[4096];
    int rc = 0;

    if (!f) return cli_fail_errno(list, "read the list of inputs");
    while (rc == 0 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] && scan_push(a, line) != 0)
            rc = cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL);
    }
    if (f != stdin) fclose(f);
    return rc;
}

/* One operand: a file (as given, whatever it is: its line says), a directory walked, @LIST, -. */
static int scan_operand(scan_args *a, const char *arg) {
    struct stat st;

    if (!strcmp(arg, "-")) return scan_list(a, "-");
    if (arg[0] == '@') return scan_list(a, arg + 1);
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) return scan_walk(a, arg, 0);
    return scan_push(a, arg) ? cli_fail("scan", ASMSTORE_ERR_OUT_OF_MEMORY, NULL) : 0;
}

/* >>command ------------------------------------------------------------------------------------ */
static int scan_parse(int argc, char **argv, scan_args *a) {
    cli_parser p;
    int key, rc = 0, operands = 0;

    memset(a, 0, sizeof *a);
    a->jobs = 1;
    a->timeout = 300;
    a->max_memory_mib = 4096;
    cli_parse_begin(&p, argc, argv, cli_scan_options);
    while (rc == 0 && (key = cli_parse_next(&p)) != CLI_DONE) {
        switch (key) {
        case CLI_BAD:
            return 2;
        case CLI_OPERAND:
            operands++;
            rc = scan_operand(a, p.value);
            break;
        case 'j':
            rc = cli_int_option("--jobs", p.value, 1, &a->jobs);
            break;
        case OPT_TIMEOUT:
            rc = cli_int_option("--timeout", p.value, 1, &a->timeout);
            break;
        case OPT_MAX_MEMORY:
            rc = cli_int_option("--max-memory", p.value, 64, &a->max_memory_mib);
            break;
        case OPT_SUMMARY:
            a->summary = 1;
            break;
        case OPT_YARA:
            a->yara = p.value;
            break;
        case OPT_YARA_MEMBERS:
            a->yara_members = 1;
            break;
        case OPT_CACHE:
            a->cache = p.value;
            break;
        default:
            return cli_usage();
        }
    }
    if (rc == 0 && !operands) return cli_usage();
    if (rc == 0 && a->yara_members && !a->yara) {
        cli_error("scan --yara-members needs --yara RULES");
        return 2;
    }
    return rc;
}

/* --cache DIR made (one level) and this build's version set; 0, or 2 after saying why not. */
static int scan_cache_ready(const char *dir) {
    char version[128];
    struct stat st;

    if (cli_os_mkdir(dir) != 0 && errno != EEXIST) return cli_fail_errno(dir, "create the cache");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (errno == 0 || S_ISREG(st.st_mode)) errno = ENOTDIR;
        return cli_fail_errno(dir, "use it as the scan cache (a directory)");
    }
    snprintf(version, sizeof version, "asmstore %d.%d.%d schema %d inflate %d",
             ASMSTORE_VERSION_MAJOR, ASMSTORE_VERSION_MINOR, ASMSTORE_VERSION_PATCH,
             CLI_JSON_SCHEMA, cli_can_inflate());
    scan_cache_set_version(version);
    return 0;
}

static void scan_summary(const scan_args *a, const scan_counts *t) {
    unsigned k;

    fprintf(stderr, "scan: %zu %s, %u .NET for Android, %u %s, %u %s, %u YARA %s, %u %s\n",
            a->ninputs, cli_plural(a->ninputs, "input", "inputs"), t->dotnet, t->stores,
            cli_plural(t->stores, "store", "stores"), t->entries,
            cli_plural(t->entries, "entry", "entries"), t->yara_matches,
            cli_plural(t->yara_matches, "match", "matches"), t->errors,
            cli_plural(t->errors, "unreadable", "unreadable"));
    for (k = 0; k < SCAN_NCODES; k++)
        if (t->findings[k]) fprintf(stderr, "  %-24s %u\n", scan_codes[k], t->findings[k]);
}

int cli_cmd_scan(int argc, char **argv) {
    scan_args a;
    scan_counts total;
    int rc = scan_parse(argc, argv, &a);
    size_t i;

    memset(&total, 0, sizeof total);
    if (rc == 0 && a.yara) rc = yara_load(a.yara);
    if (rc == 0 && a.cache) rc = scan_cache_ready(a.cache);
    if (rc == 0) rc = scan_run(&a, &total);
    if (rc != 2 && a.summary) scan_summary(&a, &total);
    for (i = 0; i < a.ninputs; i++) free(a.inputs[i]);
    free(a.inputs);
    return rc;
}
