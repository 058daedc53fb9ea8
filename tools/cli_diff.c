/* cli_diff.c - asmstore diff A B: what differs between two STOREs (anything info reads), store by
   store. Stores are paired by ABI (a .NET 6-8 set's assemblies.blob, which serves every ABI, with
   its like); entries by file name, or by name hash where a format-1 store has no manifest, else by
   descriptor index. A pair of entries is compared field by field and by content: the uncompressed
   images byte for byte, one entry of each side in memory at a time; the SHA-256 it reports is
   libcrypto's (cli_digest.h). Reads bytes only: nothing is loaded or dlopen'ed. */
#include "cli.h"
#include "cli_commands.h"
#include "cli_digest.h"
#include "cli_input.h"

#include <stdlib.h>
#include <string.h>


/* >>options ------------------------------------------------------------------------------------ */
enum { OPT_JSON = 256, OPT_ABI };
const cli_option cli_diff_options[] = {
    {"json", OPT_JSON, 0, NULL}, {"abi", OPT_ABI, 1, "arm64|arm|x86_64|x86"}, CLI_OPTIONS_END};

typedef struct diff_args {
    const char *path[2];
    int json;
    asmstore_abi abi;
} diff_args;

/* A B [--json] [--abi A]: 0, or the exit status. */
static int parse_diff_args(int argc, char **argv, diff_args *d) {
    cli_parser p;
    int key, n = 0;

    memset(d, 0, sizeof *d);
    cli_parse_begin(&p, argc, argv, cli_diff_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if (key == OPT_JSON)
            d->json = 1;
        else if (key == OPT_ABI) {
            if (cli_abi_option("--abi", p.value, &d->abi))
                return 2;
        } else if (key == CLI_OPERAND && n < 2)
            d->path[n++] = p.value;
        else
            return key == CLI_BAD ? 2 : cli_usage();
    }
    return n == 2 ? 0 : cli_usage();
}

/* >>the run ------------------------------------------------------------------------------------ */
typedef struct diff_counts {
    unsigned long long added, removed, changed, same;
    unsigned long long unreadable; /* entries that could not be compared */
} diff_counts;

/* One run: how it prints, the store pair it is in, what it found so far. */
typedef struct diff_run {
    int json;
    ZSTD_DCtx *dctx;
    const cli_unit *a, *b; /* the store pair being compared */
    int said;              /* text: the pair's heading printed; JSON: items in the current array */
    int pairs;             /* store pairs printed */
    int pairs_differ;      /* pairs with any difference, stores only in one input included */
    int trouble;           /* something could not be read or compared: exit 2 */
    diff_counts total;
} diff_run;

static const char *abi_word(const cli_unit *u) {
    return u->abi == ASMSTORE_ABI_UNKNOWN ? NULL : asmstore_abi_android_name(u->abi);
}

/* Before each difference: the pair's heading (text) or the array's comma (JSON). */
static void before_item(diff_run *d) {
    if (d->json)
        fputs(d->said ? ", " : "", stdout);
    else if (!d->said)
        printf("%s (%s | %s):\n", cli_unit_abi(d->a), cli_shown(d->a->label),
               cli_shown(d->b->label));
    d->said++;
}

/* >>store-level fields ------------------------------------------------------------------------- */
/* What a store is, field by field; the archive entry's only when both stores are in archives. */
enum {
    F_FORMAT,
    F_HEADER,
    F_HASH,
    F_WRAPPER,
    F_ALIGN,
    F_COMPRESSION,
    F_PATH,
    F_ENTRY_ALIGN,
    F_ENTRY_METHOD,
    F_NFIELDS
};
static const char *const store_field_name[F_NFIELDS] = {
    "format",      "header_size", "hash",           "wrapper",     "image_alignment",
    "compression", "path",        "entry_alignment", "entry_method"};

typedef struct field_value {
    const char *s; /* a word, or NULL for the number n */
    unsigned long long n;
} field_value;

static field_value store_field(const cli_unit *u, int f) {
    field_value v = {NULL, 0};

    switch (f) {
    case F_FORMAT: v.n = u->r.format; break;
    case F_HEADER: v.n = u->r.header_size; break;
    case F_HASH: v.s = asmstore_hash_name(u->r.hash_kind); break;
    case F_WRAPPER: v.s = u->wrapper; break;
    case F_ALIGN: v.n = cli_unit_image_alignment(u); break;
    case F_COMPRESSION: v.s = cli_compression_name(cli_unit_compression(u)); break;
    case F_PATH: v.s = u->label; break;
    /* 16 KiB is what the loader asks of a store; beyond it is where the entry happens to lie */
    case F_ENTRY_ALIGN: v.n = u->zent.alignment < 16384 ? u->zent.alignment : 16384; break;
    default: v.s = u->deflated ? "deflate" : "stored"; break;
    }
    return v;
}

static void print_value(int json, field_value v) {
    if (v.s && json)
        cli_json_value(v.s);
    else if (v.s)
        fputs(cli_shown(v.s), stdout);
    else
        printf("%llu", v.n);
}

/* Prints each store-level field that differs (JSON: the "differences" items); how many do. */
static int diff_store_fields(diff_run *d) {
    int f, n = 0;

    for (f = 0; f < F_NFIELDS && (f < F_PATH || (d->a->in_zip && d->b->in_zip)); f++) {
        field_value va = store_field(d->a, f), vb = store_field(d->b, f);

        if (va.s || vb.s ? va.s && vb.s && !strcmp(va.s, vb.s) : va.n == vb.n)
            continue;
        n++;
        before_item(d);
        printf(d->json ? "{\"field\": \"%s\", \"a\": " : "  %s: ", store_field_name[f]);
        print_value(d->json, va);
        fputs(d->json ? ", \"b\": " : " -> ", stdout);
        print_value(d->json, vb);
        fputs(d->json ? "}" : "\n", stdout);
    }
    return n;
}

/* One store as JSON, to read the differences against; null when the input has none. */
static void json_store(const cli_unit *u) {
    int f;

    if (!u) {
        fputs("null", stdout);
        return;
    }
    printf("{\"store\": ");
    cli_json_value(u->label);
    printf(", \"entries\": %u", u->r.entry_count);
    for (f = 0; f < F_NFIELDS; f++) {
        if (f == F_PATH)
            continue; /* it is "store" */
        printf(", \"%s\": ", store_field_name[f]);
        if (f >= F_PATH && !u->in_zip)
            fputs("null", stdout);
        else
            print_value(1, store_field(u, f));
    }
    fputs("}", stdout);
}

/* >>matching entries --------------------------------------------------------------------------- */
/* An entry's key: its file name (format 1: the manifest's name + ".dll", as list shows it), else
   its name hash, else its descriptor index (id). */
typedef struct entry_key {
    const char *name;
    size_t len;
    int dll;
    uint64_t id;
    uint32_t index;
} entry_key;

enum { BY_NAME, BY_HASH, BY_INDEX };

/* How u's entries can be told apart: by name unless a format-1 store lacks its manifest; by hash
   when store 0's tables give every entry one. */
static int match_kind(const cli_unit *u) {
    uint32_t k;

    if (u->r.format != 1 || u->has_manifest)
        return BY_NAME;
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK || !e.hash)
            return BY_INDEX;
    }
    return BY_HASH;
}

/* u's keys in descriptor order (malloc'd), or NULL when out of memory. */
static entry_key *unit_keys(const cli_unit *u, int by) {
    entry_key *keys = (entry_key *)calloc((size_t)u->r.entry_count + 1, sizeof *keys);
    uint32_t k;

    for (k = 0; keys && k < u->r.entry_count; k++) {
        asmstore_entry e;

        asmstore_reader_entry(&u->r, k, &e, NULL);
        keys[k].index = k;
        if (by == BY_NAME) {
            keys[k].name = e.name;
            keys[k].len = e.name_len;
            keys[k].dll = u->r.format == 1;
        } else {
            keys[k].id = by == BY_HASH ? e.hash : k;
        }
    }
    return keys;
}

/* The key's name as the bytes of name, then ".dll" when dll. */
static int key_char(const entry_key *k, size_t i) {
    return (unsigned char)(i < k->len ? k->name[i] : ".dll"[i - k->len]);
}

static int key_cmp(const void *x, const void *y) {
    const entry_key *a = (const entry_key *)x, *b = (const entry_key *)y;
    size_t an = a->len + (a->dll ? 4u : 0u), bn = b->len + (b->dll ? 4u : 0u), i;

    for (i = 0; i < an && i < bn; i++)
        if (key_char(a, i) != key_char(b, i))
            return key_char(a, i) - key_char(b, i);
    if (an != bn)
        return an < bn ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* >>comparing entries -------------------------------------------------------------------------- */
enum {
    E_INDEX,
    E_STORED,
    E_SIZE,
    E_COMPRESSION,
    E_IGNORED,
    E_CONTENT,
    E_PDB,
    E_CONFIG,
    E_NFIELDS
};
static const char *const entry_field_name[E_NFIELDS] = {
    "index", "stored_size", "size", "compression", "ignored", "sha256", "pdb", "config"};

static int bytes_same(const unsigned char *a, size_t an, const unsigned char *b, size_t bn) {
    return an == bn && (!an || !memcmp(a, b, an));
}

static unsigned field_bit(int differs, int f) {
    return differs ? 1u << f : 0u;
}

/* The fields read from the descriptors that differ, as bits (1 << E_...). */
static unsigned described_diff(const asmstore_entry *a, const asmstore_entry *b) {
    return field_bit(a->index != b->index, E_INDEX) |
           field_bit(a->image_size != b->image_size, E_STORED) |
           field_bit(a->uncompressed_size != b->uncompressed_size, E_SIZE) |
           field_bit(a->compression != b->compression, E_COMPRESSION) |
           field_bit(!a->ignored != !b->ignored, E_IGNORED) |
           field_bit(!bytes_same(a->pdb, a->pdb_size, b->pdb, b->pdb_size), E_PDB) |
           field_bit(!bytes_same(a->config, a->config_size, b->config, b->config_size), E_CONFIG);
}

/* Says that entry e of u could not be read; the run ends with exit 2. */
static void unreadable(diff_run *d, const cli_unit *u, const asmstore_entry *e, asmstore_result r,
                       const asmstore_error *err) {
    char fname[1200], why[512];

    if (cli_entry_filename(u, e, fname, sizeof fname) != 0)
        fname[0] = 0;
    cli_error_result(r, "%s (%s): entry %u %s: cannot read it to compare: %s", u->label,
                     cli_unit_abi(u), e->index, fname, cli_failure(r, err, why, sizeof why));
    d->trouble = 1;
}

/* Whether the uncompressed images differ (1) or not (0), -1 when one cannot be read (said); sha[]
   gets both images' SHA-256 when they were decompressed to tell ("" otherwise). Stored bytes that
   are the same are the same image, without decompressing. */
static int content_diff(diff_run *d, const asmstore_entry *a, const asmstore_entry *b,
                        char sha[2][CLI_SHA256_HEX]) {
    cli_image ia, ib;
    asmstore_error err;
    asmstore_result r;
    int differ;

    sha[0][0] = sha[1][0] = 0;
    if (a->ignored || b->ignored)
        return !a->ignored != !b->ignored;
    if (a->compression == b->compression &&
        bytes_same(a->image, a->image_size, b->image, b->image_size))
        return 0;
    if ((r = cli_image_get(d->a, a, d->dctx, &ia, &err)) != ASMSTORE_OK) {
        unreadable(d, d->a, a, r, &err);
        return -1;
    }
    if ((r = cli_image_get(d->b, b, d->dctx, &ib, &err)) != ASMSTORE_OK) {
        cli_image_free(&ia);
        unreadable(d, d->b, b, r, &err);
        return -1;
    }
    differ = !bytes_same(ia.p, ia.n, ib.p, ib.n);
    cli_sha256_hex(ia.p, ia.n, sha[0]);
    cli_sha256_hex(ib.p, ib.n, sha[1]);
    cli_image_free(&ia);
    cli_image_free(&ib);
    return differ;
}

/* The SHA-256 of an entry's image into hex ("" for a placeholder); 0, or -1
   when the image cannot be read (said). */
static int entry_hash(diff_run *d, const cli_unit *u, const asmstore_entry *e,
                      char hex[CLI_SHA256_HEX]) {
    asmstore_error err;
    asmstore_result r = cli_entry_sha256(u, e, d->dctx, hex, &err);

    if (r == ASMSTORE_OK || r == ASMSTORE_ERR_IGNORED)
        return 0;
    unreadable(d, u, e, r, &err);
    return -1;
}

/* >>printing entries --------------------------------------------------------------------------- */
/* One side of an entry as JSON. */
static void json_entry(const asmstore_entry *e, const char *sha) {
    if (!e) {
        fputs("null", stdout);
        return;
    }
    printf("{\"index\": %u, \"stored_size\": %zu, \"size\": %zu, \"compression\": \"%s\", "
           "\"ignored\": %s, \"pdb_size\": %zu, \"config_size\": %zu, \"sha256\": ",
           e->index, e->image_size, e->uncompressed_size, cli_compression_name(e->compression),
           e->ignored ? "true" : "false", e->pdb_size, e->config_size);
    cli_json_value(sha && sha[0] ? sha : NULL);
    fputs("}", stdout);
}

/* A changed field's two values in text. */
static void text_field(int f, const asmstore_entry *a, const asmstore_entry *b,
                       char sha[2][CLI_SHA256_HEX]) {
    const asmstore_entry *s[2] = {a, b};
    int i;

    printf(" %s ", entry_field_name[f]);
    for (i = 0; i < 2; i++) {
        const asmstore_entry *e = s[i];

        fputs(i ? " -> " : "", stdout);
        switch (f) {
        case E_INDEX: printf("%u", e->index); break;
        case E_STORED: printf("%zu", e->image_size); break;
        case E_SIZE: printf("%zu", e->uncompressed_size); break;
        case E_COMPRESSION: fputs(cli_compression_name(e->compression), stdout); break;
        case E_IGNORED: fputs(e->ignored ? "yes" : "no", stdout); break;
        case E_CONTENT: printf("%.16s", sha[i][0] ? sha[i] : e->ignored ? "none" : "?"); break;
        case E_PDB: printf("%zu bytes", e->pdb_size); break;
        default: printf("%zu bytes", e->config_size); break;
        }
    }
}

/* One entry added (a NULL), removed (b NULL) or changed (the bits in m). */
static void print_entry(diff_run *d, const asmstore_entry *a, const asmstore_entry *b, unsigned m,
                        char sha[2][CLI_SHA256_HEX]) {
    const cli_unit *u = a ? d->a : d->b;
    const asmstore_entry *e = a ? a : b;
    const char *change = !a ? "added" : !b ? "removed" : "changed";
    char fname[1200];
    int f, n = 0;

    if (cli_entry_filename(u, e, fname, sizeof fname) != 0)
        fname[0] = 0;
    before_item(d);
    if (!d->json) {
        printf("  %c %s", !a ? '+' : !b ? '-' : '~', cli_shown(fname));
        if (!a || !b)
            printf(" (descriptor %u, %zu bytes, %s)", e->index, e->uncompressed_size,
                   cli_compression_name(e->compression));
        for (f = 0; f < E_NFIELDS; f++)
            if (m & (1u << f)) {
                fputs(n++ ? "," : ":", stdout);
                text_field(f, a, b, sha);
            }
        fputs("\n", stdout);
        return;
    }
    printf("{\"change\": \"%s\", \"name\": ", change);
    cli_json_value(fname);
    printf(", \"fields\": [");
    for (f = 0; f < E_NFIELDS; f++)
        if (m & (1u << f))
            printf("%s\"%s\"", n++ ? ", " : "", entry_field_name[f]);
    printf("], \"a\": ");
    json_entry(a, sha[0]);
    printf(", \"b\": ");
    json_entry(b, sha[1]);
    fputs("}", stdout);
}

/* >>walking a pair ----------------------------------------------------------------------------- */
/* Entry a of the first store against its match b (NULL: removed). */
static void diff_entry(diff_run *d, const asmstore_entry *a, const asmstore_entry *b,
                       diff_counts *c) {
    char sha[2][CLI_SHA256_HEX] = {"", ""};
    unsigned m;
    int content;

    if (!b) {
        if (!d->json || entry_hash(d, d->a, a, sha[0]) == 0)
            print_entry(d, a, NULL, 0, sha);
        c->removed++;
        return;
    }
    m = described_diff(a, b);
    if ((content = content_diff(d, a, b, sha)) < 0) {
        c->unreadable++;
        return;
    }
    m |= field_bit(content, E_CONTENT);
    if (!m) {
        c->same++;
        return;
    }
    /* the hashes to show, where telling the contents apart did not take them: text shows them for a
       change of content only */
    if ((d->json || (m & field_bit(1, E_CONTENT))) && !sha[0][0] && !sha[1][0] &&
        (entry_hash(d, d->a, a, sha[0]) || entry_hash(d, d->b, b, sha[1]))) {
        c->unreadable++;
        return;
    }
    print_entry(d, a, b, m, sha);
    c->changed++;
}

/* Every entry of the pair: the first store's in descriptor order (removed or compared), then the
   second's that matched none (added). */
static void diff_entries(diff_run *d, diff_counts *c) {
    int by = match_kind(d->a) > match_kind(d->b) ? match_kind(d->a) : match_kind(d->b);
    entry_key *ka = unit_keys(d->a, by), *kb = unit_keys(d->b, by);
    char *matched = (char *)calloc((size_t)d->b->r.entry_count + 1, 1);
    uint32_t k;

    if (!ka || !kb || !matched) {
        cli_error_result(ASMSTORE_ERR_OUT_OF_MEMORY,
                         "out of memory comparing %s; free some memory, or compare one "
                         "ABI with --abi",
                         d->a->label);
        d->trouble = 1;
    } else {
        qsort(kb, d->b->r.entry_count, sizeof *kb, key_cmp);
    }
    for (k = 0; matched && ka && kb && k < d->a->r.entry_count; k++) {
        const entry_key *hit = (const entry_key *)bsearch(&ka[k], kb, d->b->r.entry_count,
                                                         sizeof *kb, key_cmp);
        asmstore_entry ea, eb;

        asmstore_reader_entry(&d->a->r, k, &ea, NULL);
        if (hit) {
            matched[hit->index] = 1;
            asmstore_reader_entry(&d->b->r, hit->index, &eb, NULL);
        }
        diff_entry(d, &ea, hit ? &eb : NULL, c);
    }
    for (k = 0; matched && ka && kb && k < d->b->r.entry_count; k++) {
        asmstore_entry eb;
        char sha[2][CLI_SHA256_HEX] = {"", ""};

        if (matched[k])
            continue;
        asmstore_reader_entry(&d->b->r, k, &eb, NULL);
        if (!d->json || entry_hash(d, d->b, &eb, sha[1]) == 0)
            print_entry(d, NULL, &eb, 0, sha);
        c->added++;
    }
    free(ka);
    free(kb);
    free(matched);
}

/* The counts as JSON members, or in words ("1 added, ..."). */
static void print_counts(int json, const diff_counts *c) {
    printf(json ? "\"added\": %llu, \"removed\": %llu, \"changed\": %llu, \"unchanged\": %llu, "
                  "\"unreadable\": %llu"
                : "%llu added, %llu removed, %llu changed, %llu unchanged",
           c->added, c->removed, c->changed, c->same, c->unreadable);
    if (!json && c->unreadable)
        printf(", %llu could not be read", c->unreadable);
}

/* JSON "same": false when something differs, null when not all could be compared. */
static const char *same_word(int differ, int incomplete) {
    return differ ? "false" : incomplete ? "null" : "true";
}

static void add_counts(diff_counts *t, const diff_counts *c) {
    t->added += c->added;
    t->removed += c->removed;
    t->changed += c->changed;
    t->same += c->same;
    t->unreadable += c->unreadable;
}

/* Compares one pair of stores; 1 when they differ. */
static int diff_pair(diff_run *d, const cli_unit *a, const cli_unit *b) {
    diff_counts c = {0, 0, 0, 0, 0};
    int fields, differ;

    d->a = a;
    d->b = b;
    d->said = 0;
    if (d->json) {
        printf("%s\n {\"abi\": ", d->pairs ? "," : "");
        cli_json_value(abi_word(a));
        printf(", \"only_in\": null, \"a\": ");
        json_store(a);
        printf(", \"b\": ");
        json_store(b);
        printf(", \"differences\": [");
    }
    fields = diff_store_fields(d);
    if (d->json) {
        printf("], \"entries\": [");
        d->said = 0;
    }
    diff_entries(d, &c);
    differ = fields || c.added || c.removed || c.changed;
    if (d->json) {
        printf("], ");
        print_counts(1, &c);
        printf(", \"same\": %s}", same_word(differ, c.unreadable > 0));
    } else if (differ || c.unreadable) {
        if (!d->said)
            before_item(d);
        fputs("  ", stdout);
        print_counts(0, &c);
        fputs("\n", stdout);
    } else {
        printf("%s (%s | %s): the same, %llu %s\n", cli_unit_abi(a), cli_shown(a->label),
               cli_shown(b->label), c.same,
               cli_plural(c.same, "entry", "entries"));
    }
    add_counts(&d->total, &c);
    d->pairs++;
    return differ;
}

/* A store only one input has (which: 0 the first, 1 the second). */
static void only_in(diff_run *d, const cli_unit *u, int which) {
    if (d->json) {
        printf("%s\n {\"abi\": ", d->pairs ? "," : "");
        cli_json_value(abi_word(u));
        printf(", \"only_in\": \"%s\", \"a\": ", which ? "b" : "a");
        json_store(which ? NULL : u);
        printf(", \"b\": ");
        json_store(which ? u : NULL);
        printf(", \"differences\": [], \"entries\": [], \"added\": 0, \"removed\": 0, "
               "\"changed\": 0, \"unchanged\": 0, \"unreadable\": 0, \"same\": false}");
    } else {
        printf("%s: only in %s (%s, %u %s)\n", cli_unit_abi(u), which ? "B" : "A",
               cli_shown(u->label), u->r.entry_count, cli_plural(u->r.entry_count, "entry", "entries"));
    }
    d->pairs++;
    d->pairs_differ++;
}

/* Pairs the selected stores of the two inputs by ABI, in order, and compares each pair. A store
   that does not open is named (exit 2), never taken for one the other input lacks. */
static void diff_inputs(diff_run *d, const cli_input *in[2]) {
    char used[CLI_MAX_UNITS] = {0};
    int i, j;

    for (i = 0; i < in[0]->n; i++) {
        const cli_unit *a = &in[0]->units[i], *b = NULL;

        if (!a->selected)
            continue;
        for (j = 0; j < in[1]->n && !b; j++)
            if (in[1]->units[j].selected && !used[j] && in[1]->units[j].abi == a->abi) {
                used[j] = 1;
                b = &in[1]->units[j];
            }
        if (!a->opened || (b && !b->opened)) {
            if (!a->opened)
                cli_unit_problem(in[0], a, stderr);
            if (b && !b->opened)
                cli_unit_problem(in[1], b, stderr);
            d->trouble = 1;
        } else if (b) {
            d->pairs_differ += diff_pair(d, a, b);
        } else {
            only_in(d, a, 0);
        }
    }
    for (j = 0; j < in[1]->n; j++) {
        if (!in[1]->units[j].selected || used[j])
            continue;
        if (in[1]->units[j].opened)
            only_in(d, &in[1]->units[j], 1);
        else {
            cli_unit_problem(in[1], &in[1]->units[j], stderr);
            d->trouble = 1;
        }
    }
}

/* >>the command -------------------------------------------------------------------------------- */
/* The last line: same or not, and the totals. */
static void diff_summary(const diff_run *d, const diff_args *a) {
    const diff_counts *t = &d->total;

    if (d->json) {
        fputs("\n", stdout);
        cli_json_close(); /* "stores" */
        fputs(", ", stdout);
        print_counts(1, t);
        printf(", \"same\": %s", same_word(d->pairs_differ, d->trouble));
        cli_json_reported(); /* main's cli_json_finish ends the document */
    } else if (d->pairs_differ || d->trouble) {
        if (d->pairs_differ)
            printf("differ: %d of %d %s; entries: ", d->pairs_differ, d->pairs,
                   cli_plural((unsigned)d->pairs, "store", "stores"));
        else
            printf("not compared in full (what could not be read is named above); entries: ");
        print_counts(0, t);
        fputs("\n", stdout);
    } else {
        printf("same: %s and %s hold the same %d %s, %llu %s\n", cli_shown(a->path[0]),
               cli_shown(a->path[1]), d->pairs,
               cli_plural((unsigned)d->pairs, "store", "stores"), t->same,
               cli_plural(t->same, "entry", "entries"));
    }
}

int cli_cmd_diff(int argc, char **argv) {
    diff_args a;
    cli_input in[2];
    const cli_input *both[2] = {&in[0], &in[1]};
    diff_run d;
    int rc;

    if ((rc = parse_diff_args(argc, argv, &a)) != 0)
        return rc;
    if (a.json) {
        cli_json_begin("diff");
        cli_json_str("a", a.path[0]);
        cli_json_str("b", a.path[1]);
    }
    /* an input that holds no store is trouble, not a difference: 2 either way */
    if (cli_input_open_or_fail(&in[0], a.path[0], a.abi) != 0)
        return 2;
    if (cli_input_open_or_fail(&in[1], a.path[1], a.abi) != 0) {
        cli_input_close(&in[0]);
        return 2;
    }
    memset(&d, 0, sizeof d);
    d.json = a.json;
    if (!(d.dctx = ZSTD_createDCtx())) {
        cli_error_result(ASMSTORE_ERR_OUT_OF_MEMORY,
                         "out of memory (a zstd context); free some memory");
        d.trouble = 1;
    } else {
        if (d.json)
            cli_json_open("stores", '[');
        diff_inputs(&d, both);
        diff_summary(&d, &a);
    }
    ZSTD_freeDCtx(d.dctx);
    cli_input_close(&in[0]);
    cli_input_close(&in[1]);
    return d.trouble ? 2 : d.pairs_differ ? 1 : 0;
}
