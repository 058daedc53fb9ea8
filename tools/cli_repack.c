/* cli_repack.c - asmstore repack IN -o OUT [--replace [ABI/]NAME=FILE]... [--add FILE]... [--remove
   NAME]... [--from DIR]
   (--from: the changes in an unpack folder, turned into those three by cli_unpack.h)

   IN is anything cli_input_open reads: a raw store, a .so wrapper, a format-1 (.NET 6-8) set or an
   APK/AAB. Everything not asked to change is kept: format, version word, hash, entry order,
   descriptor and mapping indices, compressed images byte for byte (ADD_VERBATIM), ignored entries,
   pdb and config data, the image padding, the wrapper (the original .so is the template, so its
   ELF details stay and its payload is replaced), file and entry names. What the app's
   libxamarin-app.so would reject is handled as docs/store-releases.md §3.4 says.
   With --sign-key KEY.pem --sign-cert CERT.pem an APK comes out signed (v2 + v3, cli_sign.h) with
   its entries where this writer put them. Exit codes: 0 written; 1 IN invalid or the change
   refused (the reason and what to do are printed); 2 usage or I/O error. OUT is only ever
   replaced whole (temp file + rename). */
#include "cli.h"
#include "cli_app.h"
#include "cli_commands.h"
#include "cli_digest.h"
#include "cli_inflate.h"
#include "cli_input.h"
#include "cli_fs.h"
#include "cli_os.h"
#include "cli_r2r.h"
#include "cli_sign.h"
#include "cli_unpack.h"
#include "cli_zip.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REPACK_APK_ALIGN                                                                           \
    16384u /* store entries: bionic's page on 16 KiB kernels (dlopen from the APK) */

/* One --replace or --remove: NAME, optionally for one ABI ("arm64-v8a/Foo.dll"). */
typedef struct repack_change {
    char *arg;        /* owned copy of [ABI/]NAME */
    const char *name; /* NAME inside arg */
    asmstore_abi abi; /* UNKNOWN: every store that has NAME */
    const char *file; /* --replace: the new image's path; NULL for --remove */
    void *image;      /* its bytes */
    size_t image_size;
    int used; /* matched at least one entry */
    const cli_unit *unit; /* --from: this store only */
    uint32_t entry;       /* --from: that store's entry of this index (exactly) */
    int level;            /* --from: the settings' level; 0 the release's */
} repack_change;

/* One --add FILE, or a new file in --from's folder: a new assembly, stored uncompressed. */
typedef struct repack_add {
    const char *file;
    const char *name;     /* the entry: FILE's base name, or its path in the store's folder */
    const cli_unit *unit; /* --from: this store only; NULL: every store */
    void *image;
    size_t image_size;
} repack_add;

typedef struct repack_args {
    const char *in, *out;
    repack_change *ch; /* grown by new_change: no limit (--from may change every entry) */
    int n, ch_cap;
    repack_add *add; /* grown by new_add */
    int nadd, add_cap;
    int jobs;
    const char *sign_key, *sign_cert; /* --sign-key, --sign-cert (both or neither) */
    const char *from;                 /* --from DIR (asmstore unpack's folder) */
    int json;                         /* --json: the report as docs/json.md §3.8 */
} repack_args;

/* One output file: a store (wrapped as it was) or a format-1 set file, by the name it had. */
typedef struct repack_output {
    const cli_unit *unit;
    char name[256]; /* archive entry name, or file name inside a set directory */
    void *data;     /* malloc'd */
    size_t size;
    int app_library; /* the app's libxamarin-app.so, patched for a grown entry */
} repack_output;

typedef struct repack_entry_name repack_entry_name;
typedef struct repack_names {
    repack_entry_name *v;
    size_t n;
} repack_names;

typedef struct repack_job {
    const repack_args *a;
    cli_input in;
    repack_output outs[2 * CLI_MAX_UNITS + 1]; /* each store, and its patched app library */
    int nouts;
    cli_sign_key *key; /* read before any work, from --sign-key and --sign-cert */
    cli_from from;     /* --from DIR: what changed in the folder */
    cli_apps apps;     /* the app libraries of the store (or set) being built */
    repack_names names[CLI_MAX_UNITS];    /* each unit's entry names, sorted */
    repack_change **match[CLI_MAX_UNITS]; /* each unit's entries' changes (resolve_changes) */
} repack_job;

/* >>arguments ---------------------------------------------------------------------------------- */
enum {
    OPT_REPLACE = 256,
    OPT_REMOVE,
    OPT_ADD,
    OPT_JOBS,
    OPT_SIGN_KEY,
    OPT_SIGN_CERT,
    OPT_FROM,
    OPT_JSON
};
const cli_option cli_repack_options[] = {{"output", 'o', 1, "OUT"},
                                         {"replace", OPT_REPLACE, 1, "[ABI/]NAME=FILE"},
                                         {"remove", OPT_REMOVE, 1, "[ABI/]NAME"},
                                         {"add", OPT_ADD, 1, "FILE"},
                                         {"jobs", OPT_JOBS, 1, "N"},
                                         {"sign-key", OPT_SIGN_KEY, 1, "KEY.pem"},
                                         {"sign-cert", OPT_SIGN_CERT, 1, "CERT.pem"},
                                         {"from", OPT_FROM, 1, "DIR"},
                                         {"json", OPT_JSON, 0, NULL},
                                         CLI_OPTIONS_END};

/* "arm64-v8a/Foo.dll" -> ABI + "Foo.dll"; a first component that names no ABI is part of the name
   ("fr/Foo.resources.dll"). */
static const char *split_abi(const char *s, asmstore_abi *abi) {
    const char *slash = strchr(s, '/');
    char first[32];
    *abi = ASMSTORE_ABI_UNKNOWN;
    if (!slash || (size_t)(slash - s) >= sizeof first)
        return s;
    snprintf(first, sizeof first, "%.*s", (int)(slash - s), s);
    *abi = asmstore_abi_parse(first);
    return *abi != ASMSTORE_ABI_UNKNOWN ? slash + 1 : s;
}

/* list (n items of `item` bytes, room for *cap) with room for one more: list itself, or the list
   moved (*cap doubled), or NULL out of memory (list untouched). */
static void *grow(void *list, int n, int *cap, size_t item) {
    void *p;

    if (n < *cap)
        return list;
    if (*cap > INT_MAX / 2 || !(p = realloc(list, (size_t)(*cap ? 2 * *cap : 16) * item)))
        return NULL;
    *cap = *cap ? 2 * *cap : 16;
    return p;
}

/* The next change (or add), zeroed; NULL out of memory. */
static repack_change *new_change(repack_args *a) {
    repack_change *p = (repack_change *)grow(a->ch, a->n, &a->ch_cap, sizeof *p);

    if (!p)
        return NULL;
    a->ch = p;
    memset(&p[a->n], 0, sizeof *p);
    return &p[a->n++];
}

static repack_add *new_add(repack_args *a) {
    repack_add *p = (repack_add *)grow(a->add, a->nadd, &a->add_cap, sizeof *p);

    if (!p)
        return NULL;
    a->add = p;
    memset(&p[a->nadd], 0, sizeof *p);
    return &p[a->nadd++];
}

/* --replace [ABI/]NAME=FILE (file set) or --remove [ABI/]NAME into the next change. 0, or 2. */
static int parse_change(repack_args *a, const char *v, int replace) {
    repack_change *c = new_change(a);
    const char *eq = strchr(v, '=');

    if (!c)
        return 2;
    if (replace) {
        if (!eq || eq == v || !eq[1]) {
            cli_error("--replace takes NAME=FILE, not %s", v);
            return 2;
        }
        c->arg = strdup(v); /* NAME: cut at the '=' (strndup is POSIX only) */
        if (c->arg)
            c->arg[eq - v] = '\0';
        c->file = eq + 1;
    } else {
        c->arg = strdup(v);
    }
    if (!c->arg)
        return 2;
    c->name = split_abi(c->arg, &c->abi);
    return 0;
}

/* One option or operand: 0, or the exit code. */
static int parse_arg(repack_args *a, int key, const char *v) {
    switch (key) {
    case 'o': a->out = v; return 0;
    case OPT_REPLACE:
    case OPT_REMOVE: return parse_change(a, v, key == OPT_REPLACE);
    case OPT_ADD: {
        repack_add *ad = new_add(a);

        if (!ad)
            return 2;
        ad->file = v;
        ad->name = strrchr(v, '/') ? strrchr(v, '/') + 1 : v;
        return 0;
    }
    case OPT_SIGN_KEY: a->sign_key = v; return 0;
    case OPT_SIGN_CERT: a->sign_cert = v; return 0;
    case OPT_FROM: a->from = v; return 0;
    case OPT_JSON: a->json = 1; return 0;
    case OPT_JOBS: return cli_int_option("--jobs", v, 1, &a->jobs);
    case CLI_OPERAND:
        if (a->in)
            return cli_usage();
        a->in = v;
        return 0;
    default: return 2; /* CLI_BAD, said */
    }
}

static int parse_args(int argc, char **argv, repack_args *a) {
    cli_parser p;
    int key, rc;

    cli_parse_begin(&p, argc, argv, cli_repack_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE)
        if ((rc = parse_arg(a, key, p.value)) != 0)
            return rc;
    if (!a->sign_key != !a->sign_cert) {
        cli_error("--sign-key and --sign-cert go together: give both (the PEM "
                  "private key and its certificate)");
        return 2;
    }
    return a->in && a->out ? 0 : cli_usage();
}

/* >>replacement images ------------------------------------------------------------------------- */
/* Reads every --replace FILE. 0, or the exit code (2 unreadable, 1 not a .NET assembly). */
/* FILE's bytes, checked to be a .NET assembly. 0, or the exit code (said on stderr). */
static int load_image(const char *file, void **image, size_t *size) {
    asmstore_error err;
    asmstore_result res = asmstore_read_file(file, NULL, image, size, NULL);

    if (res != ASMSTORE_OK)
        return cli_fail_read(file, res);
    if (asmstore_image_check(ASMSTORE_IMAGE_ASSEMBLY, *image, *size, &err) != ASMSTORE_OK) {
        cli_error("%s: not a .NET assembly: %s (at offset %llu): an assembly store "
                  "holds .NET assemblies only",
                  file, err.message, (unsigned long long)err.offset);
        return 1;
    }
    return 0;
}

/* Every --replace and --add image, read and checked. 0, or the exit code. */
static int load_replacements(repack_args *a) {
    int i, rc = 0;

    for (i = 0; i < a->n && rc == 0; i++)
        if (a->ch[i].file && !a->ch[i].image)
            rc = load_image(a->ch[i].file, &a->ch[i].image, &a->ch[i].image_size);
    for (i = 0; i < a->nadd && rc == 0; i++)
        if (!a->add[i].image)
            rc = load_image(a->add[i].file, &a->add[i].image, &a->add[i].image_size);
    return rc;
}

static void free_args(repack_args *a) {
    int i;

    for (i = 0; i < a->n; i++) {
        free(a->ch[i].arg);
        free(a->ch[i].image);
    }
    for (i = 0; i < a->nadd; i++)
        free(a->add[i].image);
    free(a->ch);
    free(a->add);
}

/* >>what changes for one entry ----------------------------------------------------------------- */
/* One entry in its unit's list of names, sorted for lookups (resolve_changes): linear work for any
   number of entries and changes. */
struct repack_entry_name {
    char *name; /* as list shows it (cli_entry_filename) */
    uint32_t k; /* its index */
    int ignored;
};

static int entry_name_order(const void *a, const void *b) {
    return strcmp(((const repack_entry_name *)a)->name, ((const repack_entry_name *)b)->name);
}

/* Where the entries named `name` start in the sorted names of unit ui, and how many (*count). */
static size_t names_find(const repack_job *j, int ui, const char *name, size_t *count) {
    const repack_names *l = &j->names[ui];
    size_t lo = 0, hi = l->n, end;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (strcmp(l->v[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (end = lo; end < l->n && !strcmp(l->v[end].name, name); end++)
        ;
    *count = end - lo;
    return lo;
}

/* The entries named `name` that change c can apply to (a replacement not to an ignored entry, which
   has no image); with take, each not yet taken by an earlier change gets c. How many. */
static size_t apply_named(repack_job *j, int ui, const char *name, repack_change *c, int take) {
    size_t count, at = names_find(j, ui, name, &count), i, n = 0;

    for (i = at; i < at + count; i++) {
        const repack_entry_name *e = &j->names[ui].v[i];

        if (c->file && e->ignored)
            continue;
        n++;
        if (take && !j->match[ui][e->k]) {
            j->match[ui][e->k] = c;
            c->used = 1;
        }
    }
    return n;
}

/* A removed "Foo.dll" (or "Foo") takes its ignored "Foo.ni.dll" companion along: it only exists
   for it. */
static void remove_companion(repack_job *j, int ui, repack_change *c) {
    char ni[1100];
    size_t base = asmstore_name_base_len(c->name, strlen(c->name)), count, at, i;

    if (!strchr(c->name + base, '.'))
        base = strlen(c->name); /* "Foo" names no extension */
    snprintf(ni, sizeof ni, "%.*s.ni.dll", (int)base, c->name);
    at = names_find(j, ui, ni, &count);
    for (i = at; i < at + count; i++)
        if (j->names[ui].v[i].ignored && !j->match[ui][j->names[ui].v[i].k])
            j->match[ui][j->names[ui].v[i].k] = c;
}

/* Change c in unit ui: --from's by the entry's index; a NAME of the command line exactly, or
   NAME.dll ("Foo" for "Foo.dll"), never both: that is refused. 0, or 1 (said). */
static int resolve_change(repack_job *j, int ui, repack_change *c) {
    const cli_unit *u = &j->in.units[ui];
    char dll[1100];

    if (c->unit) {
        if (c->entry < u->r.entry_count && !j->match[ui][c->entry]) {
            j->match[ui][c->entry] = c;
            c->used = 1;
        }
    } else {
        snprintf(dll, sizeof dll, "%s.dll", c->name);
        if (apply_named(j, ui, c->name, c, 0) && apply_named(j, ui, dll, c, 0)) {
            cli_error("%s %s: %s has an entry %s and an entry %s: give the exact name of the "
                      "one to %s (asmstore list %s shows them)",
                      c->file ? "--replace" : "--remove", c->arg, u->label, c->name, dll,
                      c->file ? "replace" : "remove", j->a->in);
            return 1;
        }
        if (!apply_named(j, ui, c->name, c, 1))
            apply_named(j, ui, dll, c, 1);
    }
    if (!c->file)
        remove_companion(j, ui, c);
    return 0;
}

/* Does change c apply to unit u: its ABI (or none), and --from's store? */
static int change_applies(const repack_change *c, const cli_unit *u) {
    if (c->abi != ASMSTORE_ABI_UNKNOWN && u->abi != ASMSTORE_ABI_UNKNOWN && c->abi != u->abi)
        return 0;
    return !c->unit || c->unit == u;
}

/* Unit ui's names, sorted, and each change's entries in j->match[ui]. 0, or an exit code. */
static int resolve_unit(repack_job *j, int ui) {
    const cli_unit *u = &j->in.units[ui];
    repack_names *l = &j->names[ui];
    size_t cap = u->r.entry_count ? u->r.entry_count : 1;
    uint32_t k;
    int i, rc = 0;

    l->v = (repack_entry_name *)calloc(cap, sizeof *l->v);
    j->match[ui] = (repack_change **)calloc(cap, sizeof *j->match[ui]);
    errno = ENOMEM;
    if (!l->v || !j->match[ui])
        return cli_fail_errno(u->label, "hold its entries' names");
    for (k = 0; k < u->r.entry_count; k++, l->n++) {
        asmstore_entry e;
        char fname[1024] = "";

        memset(&e, 0, sizeof e);
        if (asmstore_reader_entry(&u->r, k, &e, NULL) == ASMSTORE_OK)
            (void)cli_entry_filename(u, &e, fname, sizeof fname); /* add_unit refuses "" */
        l->v[k].k = k;
        l->v[k].ignored = e.ignored;
        if (!(l->v[k].name = strdup(fname)))
            return cli_fail_errno(u->label, "hold its entries' names");
    }
    qsort(l->v, l->n, sizeof *l->v, entry_name_order);
    for (i = 0; i < j->a->n && rc == 0; i++)
        if (change_applies(&j->a->ch[i], u))
            rc = resolve_change(j, ui, &j->a->ch[i]);
    return rc;
}

/* Every unit's changes resolved to its entries (before anything is built). 0, or an exit code. */
static int resolve_changes(repack_job *j) {
    int i, rc = 0;

    for (i = 0; i < j->in.n && rc == 0; i++)
        rc = resolve_unit(j, i);
    return rc;
}

static void free_names(repack_job *j) {
    int i;
    size_t k;

    for (i = 0; i < CLI_MAX_UNITS; i++) { /* j->in may be closed (and zeroed) by now */
        for (k = 0; k < j->names[i].n; k++)
            free(j->names[i].v[k].name);
        free(j->names[i].v);
        free(j->match[i]);
    }
}

/* The replacement image c for entry e, stored the way the app can still load (docs/store-releases.md
   §3.4): uncompressed as before, uncompressed when it outgrew what the app reserved (the
   descriptor's size in the app library when one was found, else the entry's own size), else
   compressed as the release did, keeping the entry's descriptor index. Says which on stderr. */
/* A replacement that outgrew its descriptor stays compressed when the app libraries can be
   patched to hold it: in an APK/AAB, whose output carries them in place of the old ones, or in a
   .NET 6-8 set directory, which the output directory carries them in. */
static int grow_library(cli_apps *apps, const cli_unit *u, const asmstore_entry *e, size_t size,
                        const char **why) {
    if (u->net12 && !apps->n)
        return 1; /* .NET 12: no app table, the runtime sizes the image from its own header */
    if (!u->in_zip && u->r.format != 1) {
        *why = "the library is patched only inside an APK, an AAB or a .NET 6-8 set directory, "
               "where the output carries it";
        return 0;
    }
    if (size > UINT32_MAX) {
        *why = "over 4 GiB";
        return 0;
    }
    return cli_apps_grow(apps, e->descriptor_index, (uint32_t)size, why);
}

static void add_replacement(asmstore_add *ao, const cli_unit *u, const asmstore_entry *e,
                            const repack_change *c, cli_apps *apps) {
    const char *abi = cli_unit_abi(u);
    size_t limit = e->uncompressed_size;
    const char *from = apps->n ? "the store's own size for it: the app library beside the "
                                 "store has no readable descriptor for it"
                               : "the store's own size for it: no app library found beside "
                                 "the store";
    const char *why = NULL;

    ao->image = c->image;
    ao->image_size = c->image_size;
    if (e->compression != ASMSTORE_COMPRESSION_NONE &&
        cli_apps_limit(apps, e->descriptor_index) != 0) {
        limit = cli_apps_limit(apps, e->descriptor_index);
        from = apps->app[0].label;
    }
    if (e->compression == ASMSTORE_COMPRESSION_NONE) {
        ao->flags |= ASMSTORE_ADD_UNCOMPRESSED;
        fprintf(stderr, "%s (%s): replaced, stored uncompressed as before (%zu bytes)\n",
                cli_shown(ao->name), abi, ao->image_size);
    } else if (ao->image_size > limit && !grow_library(apps, u, e, ao->image_size, &why)) {
        ao->flags |= ASMSTORE_ADD_UNCOMPRESSED;
        fprintf(stderr,
                "%s (%s): replaced, stored UNCOMPRESSED: %zu bytes is more than the %zu the app's "
                "libxamarin-app.so reserved for it (%s; not patched: %s), and a compressed image "
                "that grew would abort the app\n",
                cli_shown(ao->name), abi, ao->image_size, limit, cli_shown(from), cli_shown(why));
    } else {
        if (ao->image_size > limit) {
            limit = ao->image_size;
            from = u->net12 && !apps->n ? "its own header: the .NET 12 layout has no app library"
                                        : "the app library patched to hold it";
        }
        ao->flags |= ASMSTORE_ADD_DESCRIPTOR_INDEX;
        ao->descriptor_index = e->descriptor_index;
        ao->level = c->level ? c->level : asmstore_release_level(u->r.format, e->compression);
        fprintf(stderr,
                "%s (%s): replaced, %s level %d, descriptor index %u kept (%zu bytes "
                "uncompressed, %zu reserved: %s)\n",
                cli_shown(ao->name), abi,
                e->compression == ASMSTORE_COMPRESSION_LZ4 ? "XALZ (LZ4 HC)" : "XAZS (zstd)",
                ao->level, ao->descriptor_index, ao->image_size, limit, cli_shown(from));
    }
}

/* Adds entry e of unit u to w as it was, or with its change applied (apps: the app libraries beside
   the store, found or not). 0, or an exit code. */
static int add_entry(asmstore_writer *w, const cli_unit *u, const asmstore_entry *e,
                     const char *fname, const repack_change *c, cli_apps *apps, int renumber) {
    asmstore_add ao;
    asmstore_error err;
    asmstore_result res;

    memset(&ao, 0, sizeof ao);
    ao.name = fname;
    ao.flags = ASMSTORE_ADD_NO_COMPANION | ASMSTORE_ADD_BORROW;
    if (u->r.format == 1)
        ao.abi = u->r.store_id ? u->abi : ASMSTORE_ABI_UNKNOWN;
    else if (!e->ignored && !renumber) { /* renumbered: the writer's 0..n-1, in order */
        ao.flags |= ASMSTORE_ADD_MAPPING_INDEX;
        ao.mapping_index = e->mapping_index;
    }
    if (e->ignored)
        ao.flags |= ASMSTORE_ADD_IGNORED;
    else if (c)
        add_replacement(&ao, u, e, c, apps);
    else {
        ao.flags |= ASMSTORE_ADD_VERBATIM;
        ao.image = e->image;
        ao.image_size = e->image_size;
    }
    ao.pdb = e->pdb;
    ao.pdb_size = e->pdb_size;
    ao.config = e->config;
    ao.config_size = cli_entry_config_size(u, e); /* format 1: without the NUL it appends */
    res = asmstore_writer_add(w, &ao, &err);
    if (res != ASMSTORE_OK) {
        char what[600];

        snprintf(what, sizeof what, "%.255s: %.300s", u->label, fname);
        return cli_fail(what, res, &err);
    }
    return 0;
}

/* >>readytorun: the rule of pack --------------------------------------------------------------- */
typedef struct repack_unit_ref {
    const repack_job *j;
    int ui;
} repack_unit_ref;

/* Will the store written for unit ref->ui hold an entry named name[0..len): one of its entries not
   removed, or one added to it? (cli_r2r_orphan's question.) */
static int output_has(const void *ref, const char *name, size_t len) {
    const repack_unit_ref *r = (const repack_unit_ref *)ref;
    const repack_job *j = r->j;
    char want[1100];
    size_t count, at, i;
    int a;

    if (len >= sizeof want)
        return 0;
    memcpy(want, name, len);
    want[len] = 0;
    at = names_find(j, r->ui, want, &count);
    for (i = at; i < at + count; i++) {
        const repack_entry_name *e = &j->names[r->ui].v[i];
        const repack_change *c = j->match[r->ui][e->k];

        if (!e->ignored && (!c || c->file))
            return 1;
    }
    for (a = 0; a < j->a->nadd; a++)
        if ((!j->a->add[a].unit || j->a->add[a].unit == &j->in.units[r->ui]) &&
            !strcmp(j->a->add[a].name, want))
            return 1;
    return 0;
}

/* An image that unit u's new store will hold as entry `name`: a ReadyToRun component stub needs its
   composite image in that store, as pack requires (cli_r2r_orphan). 0, or 1 (said). */
static int check_stub(const repack_job *j, const cli_unit *u, const char *name, const void *image,
                      size_t size) {
    repack_unit_ref r;
    const char *owner;
    size_t len;
    char what[1200], fix[1400], message[3900];

    r.j = j;
    r.ui = (int)(u - j->in.units);
    if (!cli_r2r_orphan(image, size, output_has, &r, &owner, &len))
        return 0;
    snprintf(what, sizeof what, "%s (%s)", name, cli_unit_abi(u));
    snprintf(fix, sizeof fix, "keep %.*s in the store (no --remove of it, its file not deleted) "
             "or --add it, or use the IL assembly instead of the stub", (int)len, owner);
    cli_r2r_orphan_message(message, sizeof message, what, owner, len,
                           "the repacked store would not hold", fix);
    cli_error("%s", message);
    return 1;
}

/* An unchanged entry is copied as it is, so it is checked first (asmstore_image_check_entry on its
   uncompressed bytes): a repack must not carry a damaged image into a new app, nor a ReadyToRun
   stub whose composite is gone (check_stub). 0, or 1 naming it (verify lists every such entry). */
static int check_unchanged(const repack_job *j, const cli_unit *u, const asmstore_entry *e,
                           const char *fname) {
    cli_image img;
    asmstore_error err;
    asmstore_result res = cli_image_get(u, e, NULL, &img, &err);
    char why[512];
    int bad = res != ASMSTORE_OK || cli_image_problem(e, img.p, why, sizeof why);

    if (bad)
        cli_error_result(res != ASMSTORE_OK ? res : ASMSTORE_ERR_BAD_IMAGE,
                         "%s (%s): entry %u %s: %s; nothing written (asmstore verify "
                         "lists every damaged entry; --replace it with a good image)",
                         u->label, cli_unit_abi(u), e->index, fname,
                         res != ASMSTORE_OK ? asmstore_result_string(res) : why);
    else
        bad = check_stub(j, u, fname, img.p, img.n);
    cli_image_free(&img);
    return bad;
}

/* Whether u (formats 2-4) loses an entry that has a mapping index (a --remove): then its kept
   entries are renumbered 0..n-1 in order (*kept of them), for the runtime aborts on a
   mapping_index at or past the store's count, which the removal would leave; the per-entry slots
   they index hold nothing built in, so a renumbered entry takes a free one. */
static int unit_renumbers(const repack_job *j, const cli_unit *u, uint32_t *kept) {
    uint32_t k;
    int removes = 0;

    *kept = 0;
    for (k = 0; u->r.format != 1 && k < u->r.entry_count; k++) {
        asmstore_entry e;
        const repack_change *c = j->match[u - j->in.units][k];

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK || e.ignored)
            continue;
        if (c && !c->file)
            removes = 1;
        else
            (*kept)++;
    }
    return removes;
}

/* Adds every entry of unit u with the changes asked for, against j->apps (what a replacement may
   grow to and stay compressed). 0, or an exit code. */
static int add_unit(repack_job *j, asmstore_writer *w, const cli_unit *u) {
    uint32_t k, kept;
    int renumber = unit_renumbers(j, u, &kept);

    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        char fname[1024];
        repack_change *c;
        int rc;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK ||
            cli_entry_filename(u, &e, fname, sizeof fname) != 0) {
            cli_error("%s: entry %u cannot be read", u->label, k);
            return 1;
        }
        if (u->r.format == 1 && !e.name) {
            cli_error("%s: format-1 entry %u has no name: repacking a .NET 6-8 set needs "
                      "its assemblies.manifest beside it",
                      u->label, k);
            return 1;
        }
        c = j->match[u - j->in.units][k];
        if (c && !c->file)
            continue; /* --remove */
        if (!c && !e.ignored && (rc = check_unchanged(j, u, &e, fname)) != 0)
            return rc;
        if (c && !e.ignored && (rc = check_stub(j, u, fname, c->image, c->image_size)) != 0)
            return rc;
        if ((rc = add_entry(w, u, &e, fname, c, &j->apps, renumber)) != 0)
            return rc;
    }
    return 0;
}

/* >>adding ----------------------------------------------------------------------------------- */
/* Why --add cannot go into unit u's store (docs/store-releases.md §3.4), or NULL when it may: a
   format 3-4 store in an APK/AAB, whose output carries the app library the new slot is made in
   (and whether that library is CoreCLR's, which alone takes a new name, is its own check). */
static const char *add_refusal(const cli_unit *u) {
    if (u->r.format == 1)
        return ".NET 6-8 (format 1) searches exactly the number_of_assemblies_in_apk rows it was "
               "built with and aborts on a mapping_index past them";
    if (u->r.format == 2)
        return ".NET 9 (format 2) runs on MonoVM, whose MonoImageLoader::stash_and_return aborts "
               "(\"Failed to look up image index\") on a name missing from the sorted "
               "assembly_image_cache_hashes[] in .rodata";
    if (!u->in_zip && !u->net12)
        return "the app library's bundled-assembly slots are patched only inside an APK or AAB, "
               "where the output carries the library";
    return NULL;
}

/* Says why --add FILE cannot go into u's store. 1. */
static int add_refused(const repack_add *ad, const cli_unit *u, const char *why) {
    cli_error("--add %s refused for %s: %s. Rebuild the app with the assembly, or --replace one "
              "it already has",
              ad->file, u->label, why);
    return 1;
}

/* The mapping index a new entry of u takes: one past every index u's entries have. */
static uint32_t next_mapping_index(const cli_unit *u) {
    uint32_t k, next = 0;

    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) == ASMSTORE_OK && !e.ignored &&
            e.mapping_index >= next)
            next = e.mapping_index + 1;
    }
    return next;
}

/* Each --add for u's store as a new uncompressed entry (a compressed one would need a descriptor,
   in initialized .data that cannot grow) with the next mapping index, and j->apps' libraries
   patched to serve that many (CoreCLR .NET 10+ only). 0, or an exit code. */
static int add_new(repack_job *j, asmstore_writer *w, const cli_unit *u) {
    uint32_t kept, next = unit_renumbers(j, u, &kept) ? kept : next_mapping_index(u), added = 0;
    const repack_add *first = NULL;
    const char *why;
    int i;

    for (i = 0; i < j->a->nadd; i++) {
        const repack_add *ad = &j->a->add[i];
        asmstore_add ao;
        asmstore_error err;
        asmstore_result res;

        if (ad->unit && ad->unit != u)
            continue;
        if ((why = add_refusal(u)) != NULL)
            return add_refused(ad, u, why);
        if (asmstore_reader_find_index(&u->r, ad->name, strlen(ad->name), NULL, NULL) !=
            ASMSTORE_ERR_NOT_FOUND)
            return add_refused(ad, u, "the store already has an entry of that name");
        if (check_stub(j, u, ad->name, ad->image, ad->image_size))
            return 1;
        memset(&ao, 0, sizeof ao);
        ao.name = ad->name;
        ao.image = ad->image;
        ao.image_size = ad->image_size;
        ao.flags = ASMSTORE_ADD_NO_COMPANION | ASMSTORE_ADD_BORROW | ASMSTORE_ADD_UNCOMPRESSED |
                   ASMSTORE_ADD_MAPPING_INDEX;
        ao.mapping_index = next + added++;
        first = first ? first : ad;
        if ((res = asmstore_writer_add(w, &ao, &err)) != ASMSTORE_OK)
            return cli_fail(ad->file, res, &err);
        fprintf(stderr, "%s (%s): added, stored uncompressed (%zu bytes, mapping index %u)\n",
                cli_shown(ad->name), cli_unit_abi(u), ad->image_size, ao.mapping_index);
    }
    if (first && !(u->net12 && !j->apps.n) && /* .NET 12: no app library, no slots */
        !cli_apps_add_slots(&j->apps, next + added, &why))
        return add_refused(first, u, why);
    return 0;
}

static repack_output *new_output(repack_job *j, const cli_unit *u, const char *name);
static const repack_output *output_named(const repack_job *j, const char *name, size_t len);

/* Two stores of one ABI (libassembly-store.so and libassemblies.<abi>.blob.so side by side) share
   one app library: each store's patch is made on its own copy of it, and only one copy could land.
   Refused when a second store needs it patched. 1 (said). */
static int refuse_second_patch(const repack_job *j, const cli_unit *u, const cli_app *app) {
    const repack_output *first = output_named(j, app->label, strlen(app->label));

    cli_error("%s: %s and %s both need their entries' room patched in this one app library, "
              "and a patch of one store would undo the other's: change the entries of one store "
              "per repack (run repack again on its output for the other), or keep the "
              "replacements within the sizes the library reserves",
              app->label, first && first->unit ? first->unit->label : "another store", u->label);
    return 1;
}

/* Each library of j->apps a grown entry patched becomes an output of its own, replacing the
   archive's entry (or written into the set directory). 0, or 1 (refuse_second_patch). */
static int add_patched_libraries(repack_job *j) {
    int i;

    for (i = 0; i < j->apps.n; i++) {
        cli_app *app = &j->apps.app[i];
        repack_output *o;

        if (!app->patched || !memcmp(app->patched, app->p, app->n))
            continue;
        if (j->in.archive && output_named(j, app->label, strlen(app->label)))
            return refuse_second_patch(j, j->apps.unit[i], app);
        o = new_output(j, j->apps.unit[i], app->label);
        snprintf(o->name, sizeof o->name, "%s", app->name); /* a set's: where it was, under OUT */
        o->data = app->patched;
        o->size = app->n;
        o->app_library = 1;
        app->patched = NULL;
        fprintf(stderr, "%s (%s): patched:", cli_shown(o->name), cli_unit_abi(o->unit));
        if (app->patched_info.data_addr != app->info.data_addr)
            fprintf(stderr, " uncompressed_assemblies_data_buffer moved to the end of .bss, %u "
                            "bytes, for the grown entries;",
                    app->patched_info.data_size);
        else if (app->patched_info.table == ASMSTORE_APP_TABLE_POINTERS)
            fprintf(stderr, " each grown entry's buffer is a new zero-filled region at the end of "
                            ".bss, its pointer's relocation retargeted;");
        if (app->patched_info.bundled_slots != app->info.bundled_slots)
            fprintf(stderr, " assembly_store_bundled_assemblies has %u slots at the end of .bss "
                            "for the added entries (number_of_assemblies_in_apk %u);",
                    app->patched_info.bundled_slots, app->patched_info.assemblies_in_apk);
        fprintf(stderr, " nothing else changed\n");
    }
    return 0;
}

/* >>write options that reproduce a store ------------------------------------------------------- */
static void store_options(const repack_job *j, const cli_unit *u, asmstore_compression kind,
                          asmstore_write_options *o) {
    memset(o, 0, sizeof *o);
    o->format = u->r.format;
    o->abi = u->r.format == 1 ? ASMSTORE_ABI_ARM64 : u->r.abi;
    o->hash = u->r.format == 1 ? ASMSTORE_HASH_UNKNOWN : u->r.hash_kind;
    o->compression = kind ? kind : ASMSTORE_COMPRESSION_ZSTD;
    o->level = asmstore_release_level(u->r.format, o->compression);
    o->compress = cli_compress;
    o->jobs = j->a->jobs;
    o->image_alignment = cli_unit_image_alignment(u);
}

/* >>building the outputs ----------------------------------------------------------------------- */
/* The whole file (or archive entry) unit u was found in. */
static void unit_file(const cli_input *in, const cli_unit *u, const unsigned char **p, size_t *n) {
    int i;

    *p = u->r.data - u->payload_offset;
    *n = u->r.size + (size_t)u->payload_offset;
    if (u->in_zip) {
        *n = (size_t)u->zent.uncompressed_size;
        return;
    }
    for (i = 0; i < in->nmaps; i++)
        if (in->maps[i].p == (const void *)*p)
            *n = in->maps[i].n;
}

static repack_output *new_output(repack_job *j, const cli_unit *u, const char *name) {
    repack_output *o = &j->outs[j->nouts++];
    const char *slash = strrchr(name, '/');

    memset(o, 0, sizeof *o);
    o->unit = u;
    /* a file of its own keeps its base name; an archive entry its full path */
    snprintf(o->name, sizeof o->name, "%s", j->in.archive || !slash ? name : slash + 1);
    return o;
}

/* The store in its wrapper: raw as it came, or the original .so as the template (its payload
   replaced). */
static int wrap_like(repack_job *j, const cli_unit *u, const void *store, size_t size,
                     repack_output *o) {
    asmstore_elf_options eo;
    asmstore_error err;
    asmstore_result res;

    if (!strcmp(u->wrapper, "raw")) {
        if (!(o->data = malloc(size ? size : 1)))
            return 2;
        memcpy(o->data, store, size);
        o->size = size;
        return 0;
    }
    memset(&eo, 0, sizeof eo);
    eo.mode = ASMSTORE_ELF_MODE_TEMPLATE;
    unit_file(&j->in, u, (const unsigned char **)&eo.stub, &eo.stub_size);
    res = asmstore_elf_wrap(&eo, store, size, &o->data, &o->size, &err);
    if (res == ASMSTORE_ERR_UNSUPPORTED)
        cli_error("%s: this %s wrapper has more than section names and headers after its "
                  "payload (an lld-linked "
                  "wrapper), so its payload cannot be replaced in place: repack the raw store "
                  "(asmstore extract, pack) and "
                  "wrap it with asmstore wrap --mode dlopen",
                  u->label, u->wrapper);
    else if (res != ASMSTORE_OK)
        return cli_fail(u->label, res, &err);
    return res == ASMSTORE_OK ? 0 : 1;
}

/* A format 2-4 store, rebuilt and wrapped as it was. */
static int build_store(repack_job *j, const cli_unit *u) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_error err;
    asmstore_result res;
    const void *data;
    size_t size;
    int rc;

    if (u->r.format == 4 && u->r.header_size != ASMSTORE_HEADER_SIZE_V4) {
        cli_error("%s: a format-4 store with a 20-byte header (a .NET 11 main build of "
                  "July 2026) is not written by asmstore",
                  u->label);
        return 1;
    }
    store_options(j, u, cli_unit_compression(u), &o);
    if ((res = asmstore_writer_create(&w, &o, &err)) != ASMSTORE_OK)
        return cli_fail(u->label, res, &err);
    rc = cli_apps_find(&j->apps, &j->in, u);
    if (rc == 0)
        rc = add_unit(j, w, u);
    if (rc == 0)
        rc = add_new(j, w, u);
    if (rc == 0)
        rc = add_patched_libraries(j);
    cli_apps_close(&j->apps);
    if (rc == 0 && (res = asmstore_writer_finish(w, &data, &size, &err)) != ASMSTORE_OK)
        rc = cli_fail(u->label, res, &err);
    if (rc == 0)
        rc = wrap_like(j, u, data, size, new_output(j, u, u->label));
    if (rc == 0)
        fprintf(stderr, "%s: %zu %s, format %u\n", cli_shown(u->label), asmstore_writer_count(w),
                cli_plural(asmstore_writer_count(w), "entry", "entries"), u->r.format);
    asmstore_writer_free(w);
    return rc;
}

/* The format-1 unit that writer output `name` ("assemblies.blob", "assemblies.<abi_>.blob") stands
   for. */
static const cli_unit *v1_unit_for(const repack_job *j, const char *name) {
    int i;
    for (i = 0; i < j->in.n; i++) {
        const cli_unit *u = &j->in.units[i];
        char want[64];

        if (u->r.format != 1)
            continue;
        char abi[24];
        cli_abi_file_name(u->r.store_id == 0 ? ASMSTORE_ABI_UNKNOWN : u->abi, abi, sizeof abi);
        snprintf(want, sizeof want, "assemblies%s%s.blob", abi[0] ? "." : "", abi);
        if (!strcmp(want, name))
            return u;
    }
    return NULL;
}

/* A .NET 6-8 set: store 0 and every arch store through one writer (the hash tables and mapping
   indices span the set); each file keeps its name; the manifest is unchanged (names and rows
   stay: adding and removing are refused) and is copied as it was. */
static int build_v1_set(repack_job *j) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_compression kind = ASMSTORE_COMPRESSION_NONE;
    const cli_unit *first = NULL;
    asmstore_error err;
    asmstore_result res;
    const void *data;
    size_t size, i;
    const char *name;
    int rc = 0, a, k;

    for (k = 0; k < j->in.n; k++) {
        const cli_unit *u = &j->in.units[k];

        if (u->r.format != 1)
            continue;
        if (!first || u->r.store_id == 0)
            first = u;
        if (!kind)
            kind = cli_unit_compression(u);
    }
    store_options(j, first, kind, &o);
    if ((res = asmstore_writer_create(&w, &o, &err)) != ASMSTORE_OK)
        return cli_fail(first->label, res, &err);
    rc = cli_apps_find(&j->apps, &j->in, NULL);
    for (a = 0; a <= 4 && rc == 0; a++) /* store 0, then the arch stores in ABI order */
        for (k = 0; k < j->in.n && rc == 0; k++) {
            const cli_unit *u = &j->in.units[k];

            if (u->r.format == 1 &&
                (a == 0 ? u->r.store_id == 0 : u->r.store_id != 0 && u->abi == (asmstore_abi)a) &&
                (rc = add_unit(j, w, u)) == 0)
                rc = add_new(j, w, u); /* refuses: format 1 takes no new assembly */
        }
    if (rc == 0 && (res = asmstore_writer_finish(w, &data, &size, &err)) != ASMSTORE_OK)
        rc = cli_fail(first->label, res, &err);
    for (i = 0; rc == 0 && asmstore_writer_output(w, i, &name, &data, &size, NULL) == ASMSTORE_OK;
         i++) {
        const cli_unit *u = v1_unit_for(j, name);

        if (!u)
            continue; /* the manifest (kept as it is), or a store 0 the input did not have */
        rc = wrap_like(j, u, data, size, new_output(j, u, u->label));
        if (rc == 0)
            fprintf(stderr, "%s: %u %s, format 1\n", cli_shown(u->label), u->r.entry_count,
                    cli_plural(u->r.entry_count, "entry", "entries"));
    }
    if (rc == 0)
        rc = add_patched_libraries(j);
    cli_apps_close(&j->apps);
    asmstore_writer_free(w);
    return rc;
}

/* >>writing a set directory -------------------------------------------------------------------- */
/* "<prefix>.manifest" for a set whose file `o` is "<prefix>.blob" or "<prefix>.<abi_>.blob". */
static void v1_manifest_name(const repack_output *o, char *buf, size_t cap) {
    size_t n = strlen(o->name), cut = n >= 5 ? n - 5 : 0; /* ".blob" */
    if (o->unit->r.store_id != 0)
        while (cut > 0 && o->name[cut - 1] != '.')
            cut--;

    if (cut && o->unit->r.store_id != 0)
        cut--;
    snprintf(buf, cap, "%.*s.manifest", (int)cut, o->name);
}

/* Takes back file `name` (maybe "lib/<abi>/x") of a new set directory dirfd, and the directories
   it made. */
static void unwrite_set_file(int dirfd, const char *name) {
    char path[300];
    char *slash;

    snprintf(path, sizeof path, "%s", name);
    (void)cli_os_unlink_at(dirfd, path, 0);
    while ((slash = strrchr(path, '/')) != NULL) {
        *slash = 0;
        (void)cli_os_unlink_at(dirfd, path, 1); /* fails, as it should, while not empty */
    }
}

/* Every file of the set into directory OUT (a patched app library at the path it had under the
   input's directory). Everything is built before the first write, each file is written
   atomically and never through a symlink, and a new OUT is filled under a temporary name and
   renamed at the end, so a failure never leaves a half-written set behind. */
static int write_set_dir(repack_job *j) {
    const char *out = j->a->out;
    char dir[PATH_MAX], man[300];
    struct stat st;
    int i, dirfd, rc = 0, fresh = stat(out, &st) != 0;
    const cli_unit *withman = NULL;
    const repack_output *manof = j->outs;

    if (!fresh && !S_ISDIR(st.st_mode)) {
        cli_error("%s: a .NET 6-8 set is written into a directory", out);
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", out);
    if (fresh) {
        snprintf(dir, sizeof dir, "%s.tmp.XXXXXX", out);
        if (!cli_os_mkdtemp(dir))
            return cli_fail_errno(dir, "create the directory");
    }
    if ((dirfd = cli_dir_open(dir, 0)) < 0)
        return cli_fail_errno(dir, "open the directory");
    for (i = 0; i < j->nouts; i++)
        if (j->outs[i].unit->r.manifest && !j->outs[i].app_library) {
            withman = j->outs[i].unit;
            manof = &j->outs[i];
        }
    if (withman)
        v1_manifest_name(manof, man, sizeof man);
    for (i = 0; i <= j->nouts && rc == 0; i++) {
        const char *name = i < j->nouts ? j->outs[i].name : man;

        if (i == j->nouts && !withman)
            break;
        rc = i < j->nouts ? cli_write_under(dirfd, name, j->outs[i].data, j->outs[i].size, 0644)
                          : cli_write_under(dirfd, name, withman->r.manifest,
                                            withman->r.manifest_size, 0644);
        if (rc != 0)
            cli_fail_errno(name, rc == 1 ? "write it (a symlink or a non-directory in the way)"
                                         : "write it");
    }
    for (i--; rc != 0 && fresh && i >= 0; i--)
        unwrite_set_file(dirfd, i < j->nouts ? j->outs[i].name : man);
    cli_os_dir_close(dirfd);
    if (rc != 0) {
        if (fresh)
            rmdir(dir);
        return 2;
    }
    if (fresh && rename(dir, out) != 0)
        return cli_fail_errno(out, "rename the new set into place");
    return 0;
}

/* >>writing an apk/aab ------------------------------------------------------------------------- */
static int ends_with(const char *s, size_t n, const char *suffix) {
    size_t k = strlen(suffix);

    return n >= k && !memcmp(s + n - k, suffix, k);
}

/* v1 (JAR) signature files: the signatures no longer match once a store changed. */
static int is_signature_file(const char *name, size_t len) {
    if (len < 9 || memcmp(name, "META-INF/", 9) != 0 || memchr(name + 9, '/', len - 9))
        return 0;
    return (len == 20 && ends_with(name, len, "MANIFEST.MF")) || ends_with(name, len, ".SF") ||
           ends_with(name, len, ".RSA") || ends_with(name, len, ".DSA") ||
           ends_with(name, len, ".EC");
}

static const repack_output *output_named(const repack_job *j, const char *name, size_t len) {
    int i;

    for (i = 0; i < j->nouts; i++)
        if (strlen(j->outs[i].name) == len && !memcmp(j->outs[i].name, name, len))
            return &j->outs[i];
    return NULL;
}

/* Alignment of a STORED entry's data: 16 KiB for stores and other .so files (dlopen from the APK on
   16 KiB kernels), 4 for the rest (as zipalign -p 4); compressed entries need none. */
static uint32_t entry_alignment(const repack_job *j, const char *name, size_t len,
                                unsigned method) {
    if (method != 0)
        return 1;
    if (output_named(j, name, len) || ends_with(name, len, ".so"))
        return REPACK_APK_ALIGN;
    return 4;
}

/* An archive entry's name and where it is in the input (for the duplicate check). */
typedef struct repack_name {
    const char *p;
    size_t n;
} repack_name;

static int name_order(const void *a, const void *b) {
    const repack_name *x = (const repack_name *)a, *y = (const repack_name *)b;
    int c = memcmp(x->p, y->p, x->n < y->n ? x->n : y->n);

    return c ? c : (x->n > y->n) - (x->n < y->n);
}

static int damaged(const repack_job *j, const asmstore_zip_dir *dir, asmstore_result res,
                   const asmstore_error *err) {
    char what[300];

    snprintf(what, sizeof what, "%.200s: damaged archive (central directory entry %llu)",
             j->a->in, (unsigned long long)dir->index + 1);
    return cli_fail(what, res, err);
}

/* Walks every entry (asmstore_zip_next: its headers agree) into names[]. No entry may be
   encrypted, and the local headers and data of all must fit before the central directory without
   overlapping (their sizes add up to at most its offset: the output is then no larger than the
   input and its padding). 0, or the exit code. */
static int walk_entries(const repack_job *j, const unsigned char *zip, size_t size,
                        asmstore_zip_dir *dir, repack_name *names) {
    asmstore_zip_entry e;
    asmstore_error err;
    asmstore_result res;
    uint64_t used = 0;
    const char *name;
    size_t len;

    while ((res = asmstore_zip_next(zip, size, dir, &e, &name, &len, &err)) == ASMSTORE_OK) {
        names[dir->index - 1].p = name;
        names[dir->index - 1].n = len;
        used += e.data_offset - e.lfh_offset + e.compressed_size;
        if (used > dir->cd_offset) {
            cli_error("%s: damaged archive: entry %.*s overlaps another (their headers "
                      "and data add up to more than lies before the central directory)",
                      j->a->in, (int)len, name);
            return 1;
        }
        if (e.flags & 1u) {
            cli_error_result(ASMSTORE_ERR_ZIP_ENCRYPTED, "%s: entry %.*s is encrypted: %s",
                             j->a->in, (int)len, name, cli_result_hint(ASMSTORE_ERR_ZIP_ENCRYPTED));
            return 1;
        }
    }
    return res == ASMSTORE_ERR_NOT_FOUND ? 0 : damaged(j, dir, res, &err);
}

/* Every entry of the archive is checked before anything is written: walk_entries, and no two
   entries of one name (readers would disagree on which one counts). 0, or the exit code. */
static int check_archive(const repack_job *j, const unsigned char *zip, size_t size) {
    asmstore_zip_dir dir;
    asmstore_error err;
    asmstore_result res = asmstore_zip_dir_open(zip, size, &dir, &err);
    repack_name *names;
    uint64_t i;
    int rc;

    if (res != ASMSTORE_OK)
        return damaged(j, &dir, res, &err);
    if (!(names = (repack_name *)malloc((size_t)(dir.count ? dir.count : 1) * sizeof *names))) {
        errno = ENOMEM;
        return cli_fail_errno(j->a->in, "read its central directory");
    }
    rc = walk_entries(j, zip, size, &dir, names);
    if (rc == 0)
        qsort(names, (size_t)dir.count, sizeof *names, name_order);
    for (i = 1; rc == 0 && i < dir.count; i++)
        if (name_order(&names[i - 1], &names[i]) == 0) {
            cli_error("%s: damaged archive: two entries are named %.*s (readers disagree "
                      "on which one counts; 'unzip -l' lists both): rebuild the archive",
                      j->a->in, (int)names[i].n, names[i].p);
            rc = 1;
        }
    free(names);
    return rc;
}

/* What entry e (named name[0..len), its central record the one dir returned last) is written
   as: the store's new bytes STORED when it is a store, else its bytes as they are (no
   recompression) with its CRC-32, sizes, time, attributes and extra fields. The sizes and CRC-32
   go in the local header, so no data descriptor follows the data (flag bit 3 cleared). */
static void entry_item(const repack_job *j, const unsigned char *zip, const asmstore_zip_dir *dir,
                       const asmstore_zip_entry *e, const char *name, size_t len, FILE *from,
                       cli_zip_item *it) {
    const repack_output *o = output_named(j, name, len);
    const unsigned char *lfh = zip + e->lfh_offset;

    memset(it, 0, sizeof *it);
    it->record = zip + dir->record_offset;
    it->local_extra = lfh + 30 + cli_rd16(lfh + 26);
    it->local_extra_size = cli_rd16(lfh + 28);
    it->flags = (uint16_t)(e->flags & ~8u);
    if (o) {
        it->flags = (uint16_t)(it->flags & ~6u); /* DEFLATE's options */
        it->crc32 = cli_crc32(0, o->data, o->size);
        it->compressed_size = o->size;
        it->uncompressed_size = o->size;
        it->data = o->data;
    } else {
        it->method = e->method;
        it->crc32 = e->crc32;
        it->compressed_size = e->compressed_size;
        it->uncompressed_size = e->uncompressed_size;
        it->from = from;
        it->from_offset = e->data_offset;
        it->check_crc = e->method == 0;
    }
    it->align = entry_alignment(j, name, len, it->method);
}

/* Every entry but the v1 signature files (counted in *dropped) into z, in central directory
   order, then its end with the archive comment. 0, or the exit code (z is discarded then). */
static int copy_entries(const repack_job *j, const unsigned char *zip, size_t size, FILE *from,
                        cli_zip_out *z, int *dropped) {
    asmstore_zip_dir dir;
    asmstore_zip_entry e;
    cli_zip_item it;
    const char *name;
    size_t len;
    int rc = 0;

    if (asmstore_zip_dir_open(zip, size, &dir, NULL) != ASMSTORE_OK)
        rc = 1; /* check_archive passed: the file changed since */
    while (rc == 0 && asmstore_zip_next(zip, size, &dir, &e, &name, &len, NULL) == ASMSTORE_OK) {
        if (is_signature_file(name, len)) {
            (*dropped)++;
            continue;
        }
        entry_item(j, zip, &dir, &e, name, len, from, &it);
        rc = cli_zip_add(z, &it, j->a->in);
    }
    if (rc == 0)
        return cli_zip_finish(z, zip + dir.comment_offset, dir.comment_size);
    cli_zip_discard(z);
    return rc;
}

/* An AAB: its stores are under base/ (asmstore_apk_store_path's bundle paths). */
static int is_bundle(const repack_job *j) {
    return j->in.n > 0 && !strncmp(j->in.units[0].label, "base/", 5);
}

/* What to run now that the input's signature is gone: an AAB is signed with jarsigner; an APK
   with --sign-key, or with an apksigner that keeps the stores' 16 KiB alignment. */
static void say_sign_next(const repack_job *j, int dropped) {
    const char *out = cli_shown(j->a->out);

    fprintf(stderr,
            "%s: every other entry copied as it was; stores STORED and 16 KiB-aligned. The %s "
            "signature is gone (signing block%s dropped): sign it again before %s:\n",
            out, is_bundle(j) ? "AAB" : "APK", dropped ? " and META-INF signature files" : "",
            is_bundle(j) ? "uploading it" : "installing it");
    if (is_bundle(j)) {
        fprintf(stderr, "  jarsigner -keystore my.keystore %s my-key-alias\n"
                        "(an AAB is signed with jarsigner: apksigner is for APKs)\n", out);
        return;
    }
    fprintf(stderr,
            "  asmstore repack %s -o %s --sign-key key.pem --sign-cert cert.pem\n"
            "signs it (APK Signature Scheme v2 + v3, minSdk 24 and later) without moving an entry. "
            "Sign last: once anything before a store changed, zipalign without -P 16 puts "
            "lib/<abi>/*.so at 4 KiB and apksigner before build-tools 35 (Debian's) does not "
            "restore 16 KiB, and 'asmstore elfcheck' then refuses the store (16 KiB pages)\n",
            out, out);
}

/* The new archive in one pass (cli_zip.h): the input's central directory is read from its
   mapping, every entry's data streamed from the file (never all in memory: only the rebuilt
   stores are); signed with j->key when there is one. */
static int write_archive(repack_job *j) {
    const unsigned char *zip;
    size_t size;
    int dropped = 0, rc;
    FILE *from = NULL;
    cli_zip_out z;

    if (cli_map_file(j->a->in, &zip, &size) != 0)
        return cli_fail_errno(j->a->in, "read it");
    rc = check_archive(j, zip, size);
    if (rc == 0 && !(from = fopen(j->a->in, "rb")))
        rc = cli_fail_errno(j->a->in, "read it");
    if (rc == 0)
        rc = cli_zip_create(&z, j->a->out);
    if (rc == 0) {
        z.sign = j->key;
        rc = copy_entries(j, zip, size, from, &z, &dropped);
    }
    if (rc == 0 && j->key)
        fprintf(stderr,
                "%s: every other entry copied as it was; stores STORED and 16 KiB-aligned; signed "
                "(APK Signature Scheme v2 + v3, minSdk 24 and later; no v1 signature)\n",
                cli_shown(j->a->out));
    else if (rc == 0)
        say_sign_next(j, dropped);
    if (from)
        fclose(from);
    cli_unmap_file(zip, size);
    return rc;
}

/* >>the command -------------------------------------------------------------------------------- */
/* Opens IN; every store must be readable. 0, or the exit code. */
static int open_in(repack_job *j) {
    int rc = cli_input_open(&j->in, j->a->in, ASMSTORE_ABI_UNKNOWN), i;

    if (rc == 2)
        return cli_fail_errno(j->a->in, "read it");
    if (rc == 1 || j->in.n == 0)
        return cli_no_store(j->a->in, ASMSTORE_ABI_UNKNOWN);
    for (i = 0; i < j->in.n; i++) {
        const cli_unit *u = &j->in.units[i];

        if (!u->opened) {
            char why[512];

            cli_error_result(u->res, "%s: %s: %s: only a valid input can be repacked; %s", j->a->in,
                             u->label, cli_failure(u->res, &u->err, why, sizeof why),
                             cli_result_hint(u->res));
            return u->res == ASMSTORE_ERR_OUT_OF_MEMORY || u->res == ASMSTORE_ERR_IO ? 2 : 1;
        }
        if (j->in.archive && u->from_split) {
            cli_error("%s: the stores of %s are in a split APK: repack that file on its "
                      "own",
                      j->a->in, u->label);
            return 1;
        }
    }
    return 0;
}

/* --from DIR (cli_unpack.h): each entry whose file changed, or whose level was edited, becomes a
   --replace of that store's entry, each deleted file a --remove, each new file an --add; they are
   then read, checked and refused exactly as those options are. 0, or the exit code. */
static int from_changes(repack_job *j) {
    repack_args *a = (repack_args *)j->a;
    int i, rc = cli_from_read(a->from, &j->in, &j->from);

    for (i = 0; rc == 0 && i < j->from.n; i++) {
        const cli_from_edit *e = &j->from.edits[i];
        repack_change *c = new_change(a);

        if (!c || !(c->arg = strdup(e->name)))
            return 2;
        c->name = c->arg;
        c->abi = e->unit->abi;
        c->unit = e->unit;
        c->entry = e->index;
        c->file = e->path;
        c->level = e->level;
    }
    for (i = 0; rc == 0 && i < j->from.nadd; i++) {
        repack_add *ad = new_add(a);

        if (!ad)
            return 2;
        ad->file = j->from.adds[i].path;
        ad->name = j->from.adds[i].name;
        ad->unit = j->from.adds[i].unit;
    }
    return rc ? rc : load_replacements(a);
}

/* Removing from a .NET 6-8 set changes the row count libxamarin-app.so was built with
   (docs/store-releases.md §3.4). */
static int refuse_v1_remove(const repack_job *j) {
    int i, v1 = 0;

    for (i = 0; i < j->in.n; i++)
        v1 |= j->in.units[i].r.format == 1;
    for (i = 0; i < j->a->n && v1; i++)
        if (!j->a->ch[i].file) {
            cli_error("--remove %s refused: a .NET 6-8 app (format 1) aborts unless its "
                      "stores hold exactly "
                      "the number of assemblies libxamarin-app.so was built with. Rebuild the app "
                      "without it, or --replace it instead.",
                      j->a->ch[i].arg);
            return 1;
        }
    return 0;
}

/* --sign-key signs an APK: not a store, a set or an AAB. */
static int refuse_sign(const repack_job *j) {
    if (!j->key || (j->in.archive && !is_bundle(j)))
        return 0;
    if (j->in.archive)
        cli_error("%s: --sign-key signs APKs; an AAB is signed with jarsigner: repack "
                  "without --sign-key, then 'jarsigner -keystore my.keystore %s my-key-alias'",
                  j->a->in, j->a->out);
    else
        cli_error("%s: --sign-key signs APKs, and this is no APK: repack without it", j->a->in);
    return 2;
}

/* Every change must have matched an entry. */
static int unmatched(const repack_job *j) {
    int i;

    for (i = 0; i < j->a->n; i++)
        if (!j->a->ch[i].used) {
            cli_error("%s: no entry %s%s%s in %s (asmstore list %s shows the names)",
                      j->a->ch[i].file ? "--replace" : "--remove", j->a->ch[i].name,
                      j->a->ch[i].abi ? " for " : "",
                      j->a->ch[i].abi ? asmstore_abi_android_name(j->a->ch[i].abi) : "", j->a->in,
                      j->a->in);
            return 1;
        }
    return 0;
}

static int build_all(repack_job *j) {
    int i, rc = 0, v1 = 0;

    for (i = 0; i < j->in.n && rc == 0; i++) {
        if (j->in.units[i].r.format == 1)
            v1 = 1;
        else
            rc = build_store(j, &j->in.units[i]);
    }
    if (rc == 0 && v1)
        rc = build_v1_set(j);
    return rc ? rc : unmatched(j);
}

static int write_all(repack_job *j) {
    int i, v1 = 0;

    for (i = 0; i < j->in.n; i++)
        v1 |= j->in.units[i].r.format == 1;
    if (j->in.archive)
        return write_archive(j);
    if (v1)
        return write_set_dir(j);
    if (asmstore_write_file(j->a->out, j->outs[0].data, j->outs[0].size, 0644, NULL) !=
        ASMSTORE_OK) {
        return cli_fail_errno(j->a->out, "write it");
    }
    return 0;
}

/* repack --json: what was written, each store (or set file) with the size it has now. */
static void repack_json_report(const repack_job *j) {
    int i;

    cli_json_bool("changed", j->a->n || j->a->nadd);
    cli_json_num("changes", (unsigned long long)(j->a->n + j->a->nadd));
    cli_json_bool("signed", j->a->sign_key != NULL);
    cli_json_open("stores", '[');
    for (i = 0; i < j->nouts; i++) {
        if (j->outs[i].app_library)
            continue;
        cli_json_open(NULL, '{');
        cli_json_str("store", j->outs[i].name);
        cli_json_abi("abi", j->outs[i].unit ? j->outs[i].unit->abi : ASMSTORE_ABI_UNKNOWN);
        cli_json_num("size", j->outs[i].size);
        cli_json_close();
    }
    cli_json_close();
    cli_json_open("patched_libraries", '[');
    for (i = 0; i < j->nouts; i++) {
        if (!j->outs[i].app_library)
            continue;
        cli_json_open(NULL, '{');
        cli_json_str("file", j->outs[i].name);
        cli_json_abi("abi", j->outs[i].unit ? j->outs[i].unit->abi : ASMSTORE_ABI_UNKNOWN);
        cli_json_close();
    }
    cli_json_close();
}

int cli_cmd_repack(int argc, char **argv) {
    static repack_args a;
    static repack_job j;
    int rc, i;

    memset(&a, 0, sizeof a);
    memset(&j, 0, sizeof j);
    j.a = &a;
    rc = parse_args(argc, argv, &a);
    if (rc == 0 && a.json) {
        cli_json_begin("repack");
        cli_json_str("input", a.in);
        cli_json_str("output", a.out);
    }
    if (rc == 0 && a.sign_key)
        rc = cli_sign_load(a.sign_key, a.sign_cert, &j.key);
    if (rc == 0)
        rc = load_replacements(&a);
    if (rc == 0)
        rc = open_in(&j);
    if (rc == 0 && a.from)
        rc = from_changes(&j);
    if (rc == 0)
        rc = refuse_sign(&j);
    if (rc == 0)
        rc = refuse_v1_remove(&j);
    if (rc == 0)
        rc = resolve_changes(&j);
    if (rc == 0)
        rc = build_all(&j);
    if (rc == 0)
        rc = write_all(&j);
    if (rc == 0)
        fprintf(stderr, "%s: %s\n", cli_shown(a.out),
                a.n || a.nadd ? "written"
                              : "unchanged (no --replace, --remove or --add: every entry is "
                                "kept as IN has it)");
    if (rc == 0 && a.json)
        repack_json_report(&j);
    for (i = 0; i < j.nouts; i++)
        free(j.outs[i].data);
    cli_input_close(&j.in);
    cli_sign_free(j.key);
    cli_from_free(&j.from);
    free_names(&j);
    free_args(&a);
    return rc;
}
