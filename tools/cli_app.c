/* cli_app.c - the app's own libxamarin-app.so beside a store: found, read with asmstore_app_open
   and compared with the store as the runtime compares them (cli_app.h). */
#include "cli_app.h"
#include "cli_inflate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* >>finding ------------------------------------------------------------------------------------ */
/* Reads the table of the bytes just found. */
static void app_open(cli_app *a) {
    a->found = 1;
    a->res = asmstore_app_open(a->p, a->n, &a->info, &a->err);
}

/* PATH mapped as the app library, its name from path[rel] on: 0 found, 1 not there, 2
   unreadable (a directory, FIFO, no permission: found, named in label, res an I/O error, errno
   why). */
static int app_from_file(cli_app *a, const char *path, size_t rel) {
    int rc = cli_map_file(path, &a->map, &a->n), e = errno;

    if (rc == 1)
        return rc;
    snprintf(a->label, sizeof a->label, "%.*s", (int)sizeof a->label - 1, path);
    a->name = a->label + (rel < strlen(a->label) ? rel : 0);
    if (rc == 2) {
        a->found = 1;
        a->res = ASMSTORE_ERR_IO;
        errno = e;
        return rc;
    }
    a->p = a->map;
    app_open(a);
    return 0;
}

/* The archive entry `name` of zip as the app library: 1 when it was there (read, or res the
   reason it could not be: an unknown compression method, a damaged DEFLATE stream). */
static int app_from_entry(cli_app *a, const unsigned char *zip, size_t size, const char *name) {
    asmstore_zip_entry e;
    asmstore_result r = asmstore_zip_find(zip, size, name, strlen(name), &e, NULL);
    cli_entry_bytes b;

    if (r != ASMSTORE_OK && r != ASMSTORE_ERR_MISALIGNED && r != ASMSTORE_ERR_ZIP_COMPRESSED)
        return 0;
    snprintf(a->label, sizeof a->label, "%s", name);
    a->name = a->label;
    if ((r = cli_entry_read(zip, &e, 0, &b)) != ASMSTORE_OK) {
        a->found = 1;
        a->res = r;
        return 1;
    }
    a->p = b.p;
    a->n = b.n;
    a->owned = b.owned;
    app_open(a);
    return 1;
}

/* lib/<abi>/ or base/lib/<abi>/ (an AAB) of any archive the input mapped. */
static void app_from_archive(cli_app *a, const cli_input *in, asmstore_abi abi) {
    static const char *const dirs[2] = {"lib", "base/lib"};
    char name[128];
    int m, d;

    for (m = 0; m < in->nmaps; m++)
        for (d = 0; d < 2; d++) {
            snprintf(name, sizeof name, "%s/%s/" CLI_APP_LIBRARY, dirs[d],
                     asmstore_abi_android_name(abi));
            if (app_from_entry(a, in->maps[m].p, in->maps[m].n, name))
                return;
        }
}

/* DIR/libxamarin-app.so, DIR/lib/<abi>/ and DIR/<abi>/: 0 found or nothing there, 2 unreadable. */
static int app_from_dir(cli_app *a, const char *dir, asmstore_abi abi) {
    const char *an = asmstore_abi_android_name(abi);
    char path[3][1100];
    int i, rc;

    snprintf(path[0], sizeof path[0], "%s/" CLI_APP_LIBRARY, dir);
    snprintf(path[1], sizeof path[1], "%s/lib/%s/" CLI_APP_LIBRARY, dir, an);
    snprintf(path[2], sizeof path[2], "%s/%s/" CLI_APP_LIBRARY, dir, an);
    for (i = 0; i < 3; i++)
        if ((rc = app_from_file(a, path[i], strlen(dir) + 1)) != 1)
            return rc;
    return 0;
}

/* The ABIs a unit's table may come from: its own, or (format-1 store 0) each in turn. */
static asmstore_abi app_abi(const cli_unit *u, int i) {
    if (u->abi != ASMSTORE_ABI_UNKNOWN)
        return i == 0 ? u->abi : ASMSTORE_ABI_UNKNOWN;
    return i < 4 ? (asmstore_abi)(i + 1) : ASMSTORE_ABI_UNKNOWN;
}

int cli_app_find(cli_app *a, const cli_input *in, const cli_unit *u, const char *path) {
    char dir[1024];
    struct stat st;
    char *slash;
    asmstore_abi abi;
    int i, rc = 0;

    memset(a, 0, sizeof *a);
    if (path) {
        if ((rc = app_from_file(a, path, 0)) == 0)
            return 0;
        return cli_fail_errno(path, "read the app library (--app)");
    }
    snprintf(dir, sizeof dir, "%s", in->path);
    if (stat(in->path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        slash = strrchr(dir, '/');
        snprintf(slash ? slash : dir, sizeof dir - (size_t)(slash ? slash - dir : 0), "%s",
                 slash ? "" : ".");
    }
    for (i = 0; (abi = app_abi(u, i)) != ASMSTORE_ABI_UNKNOWN && !a->found && rc == 0; i++) {
        if (in->archive)
            app_from_archive(a, in, abi);
        else
            rc = app_from_dir(a, dir, abi);
    }
    return rc == 2 ? cli_fail_errno(a->label, "read the app library") : 0;
}

void cli_app_close(cli_app *a) {
    if (a->map)
        cli_unmap_file(a->map, a->n);
    free(a->owned);
    free(a->patched);
    memset(a, 0, sizeof *a);
}

/* >>agreement ---------------------------------------------------------------------------------- */
uint32_t cli_app_limit(const cli_app *a, uint32_t index) {
    asmstore_app_descriptor d;
    const unsigned char *p = a->patched ? a->patched : a->p;

    if (!a->found || a->res != ASMSTORE_OK ||
        asmstore_app_read_descriptor(p, a->n, a->patched ? &a->patched_info : &a->info, index, &d,
                                     NULL) != ASMSTORE_OK)
        return 0;
    return d.uncompressed_file_size;
}

/* One compressed entry's disagreement, counted and said. */
static void app_disagree(const cli_unit *u, const asmstore_entry *e, asmstore_result r,
                         uint32_t index, FILE *f, cli_app_agreement *out, const cli_app *a) {
    char fname[1200];

    if (r == ASMSTORE_ERR_BAD_INDEX)
        out->out_of_range++;
    else if (r == ASMSTORE_ERR_TOO_LARGE)
        out->too_large++;
    else
        out->bad_buffer++;
    if (!f)
        return;
    if (cli_entry_filename(u, e, fname, sizeof fname) != 0)
        fname[0] = 0;
    if (r == ASMSTORE_ERR_BAD_INDEX)
        fprintf(f, "  entry %u %s: descriptor %u, past the app library's %u %s\n", e->index,
                cli_shown(fname), index, a->info.count,
                cli_plural(a->info.count, "descriptor", "descriptors"));
    else if (r == ASMSTORE_ERR_TOO_LARGE)
        fprintf(f, "  entry %u %s: %zu bytes uncompressed, descriptor %u holds %u (the runtime "
                   "aborts)\n", e->index, cli_shown(fname), e->uncompressed_size, index,
                cli_app_limit(a, index));
    else
        fprintf(f, "  entry %u %s: descriptor %u's buffer is outside the app library's data\n",
                e->index, cli_shown(fname), index);
}

uint32_t cli_app_agree(const cli_app *a, const cli_unit *u, FILE *f, cli_app_agreement *out) {
    uint32_t k, bad = 0;

    memset(out, 0, sizeof *out);
    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;
        asmstore_result r;
        uint32_t index;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK || e.ignored ||
            e.compression == ASMSTORE_COMPRESSION_NONE)
            continue;
        out->compressed++;
        index = e.descriptor_index;
        r = asmstore_app_check_image(a->p, a->n, &a->info, index, (uint32_t)e.uncompressed_size,
                                     NULL);
        if (r == ASMSTORE_OK)
            continue;
        app_disagree(u, &e, r, index, f, out, a);
        bad++;
    }
    return bad;
}

/* >>patching ----------------------------------------------------------------------------------- */
/* Adds the library found for unit u to s; else says in s->missing why u has none. */
static void apps_add(cli_apps *s, cli_app *a, const cli_unit *u) {
    const char *abi = asmstore_abi_android_name(u->abi);

    if (a->found && a->res == ASMSTORE_OK && (u->abi == ASMSTORE_ABI_UNKNOWN ||
                                              a->info.abi == u->abi)) {
        s->app[s->n] = *a;
        s->app[s->n].name = s->app[s->n].label + (a->name - a->label); /* into its own label */
        s->unit[s->n++] = u;
        return;
    }
    if (!s->missing[0])
        snprintf(s->missing, sizeof s->missing, "%s " CLI_APP_LIBRARY " for %s%s",
                 !a->found ? "no" : a->res != ASMSTORE_OK ? "no readable" : "no",
                 abi ? abi : "the store",
                 a->found && a->res == ASMSTORE_OK ? " (the one found is another ABI's)" : "");
    cli_app_close(a);
}

int cli_apps_find(cli_apps *s, const cli_input *in, const cli_unit *u) {
    cli_app a;
    int i, rc = 0;

    memset(s, 0, sizeof *s);
    if (u) {
        rc = cli_app_find(&a, in, u, NULL);
        if (rc == 0)
            apps_add(s, &a, u);
        return rc;
    }
    for (i = 0; i < in->n && rc == 0; i++)
        if (in->units[i].r.format == 1 && in->units[i].r.store_id != 0 &&
            (rc = cli_app_find(&a, in, &in->units[i], NULL)) == 0)
            apps_add(s, &a, &in->units[i]);
    for (i = 0; i < in->n && rc == 0 && s->n == 0 && !s->missing[0]; i++)
        if (in->units[i].r.format == 1 && (rc = cli_app_find(&a, in, &in->units[i], NULL)) == 0)
            apps_add(s, &a, &in->units[i]); /* a set of store 0 alone */
    return rc;
}

void cli_apps_close(cli_apps *s) {
    int i;

    for (i = 0; i < s->n; i++)
        cli_app_close(&s->app[i]);
    s->n = 0;
}

uint32_t cli_apps_limit(const cli_apps *s, uint32_t index) {
    uint32_t least = 0;
    int i;

    for (i = 0; i < s->n; i++) {
        uint32_t k = cli_app_limit(&s->app[i], index);

        if (k == 0)
            return 0;
        if (i == 0 || k < least)
            least = k;
    }
    return least;
}

/* One patch of a library: descriptor `index` grown to `size`, or with slots set, room for that
   many assemblies. */
typedef struct app_change {
    uint32_t index, size, slots;
} app_change;

/* A copy of a's library (patched so far, else as found) with change c made: the copy, or NULL
   with *why. */
static unsigned char *app_patched_copy(cli_app *a, const app_change *c, asmstore_app_info *info,
                                       const char **why) {
    unsigned char *copy = (unsigned char *)malloc(a->n ? a->n : 1);
    asmstore_result res;

    *info = a->patched ? a->patched_info : a->info;
    if (!copy) {
        *why = "out of memory";
        return NULL;
    }
    memcpy(copy, a->patched ? a->patched : a->p, a->n);
    res = c->slots ? asmstore_app_add_slots(copy, a->n, info, c->slots, &a->patch_err)
                   : asmstore_app_grow(copy, a->n, info, c->index, c->size, &a->patch_err);
    if (res == ASMSTORE_OK)
        return copy;
    *why = a->patch_err.message ? a->patch_err.message : asmstore_result_string(res);
    free(copy);
    return NULL;
}

/* Change c in every library of s, all or none. */
static int apps_patch(cli_apps *s, const app_change *c, const char **why) {
    unsigned char *next[CLI_MAX_UNITS];
    asmstore_app_info info[CLI_MAX_UNITS];
    int i, made = 0;

    if (s->n == 0 || s->missing[0]) {
        *why = s->missing[0] ? s->missing : "no app library found beside the store";
        return 0;
    }
    while (made < s->n &&
           (next[made] = app_patched_copy(&s->app[made], c, &info[made], why)) != NULL)
        made++;
    for (i = 0; i < made; i++) {
        if (made < s->n) { /* one could not be patched: none is */
            free(next[i]);
            continue;
        }
        free(s->app[i].patched);
        s->app[i].patched = next[i];
        s->app[i].patched_info = info[i];
    }
    return made == s->n;
}

int cli_apps_grow(cli_apps *s, uint32_t index, uint32_t size, const char **why) {
    app_change c;

    c.index = index;
    c.size = size;
    c.slots = 0;
    return apps_patch(s, &c, why);
}

int cli_apps_add_slots(cli_apps *s, uint32_t slots, const char **why) {
    app_change c;

    c.index = 0;
    c.size = 0;
    c.slots = slots;
    return apps_patch(s, &c, why);
}

/* >>showing ------------------------------------------------------------------------------------ */
/* The store entry whose compressed image names descriptor `index`; -1 when none does. */
static long app_user(const cli_unit *u, uint32_t index) {
    uint32_t k;

    for (k = 0; k < u->r.entry_count; k++) {
        asmstore_entry e;

        if (asmstore_reader_entry(&u->r, k, &e, NULL) == ASMSTORE_OK && !e.ignored &&
            e.compression != ASMSTORE_COMPRESSION_NONE && e.descriptor_index == index)
            return (long)k;
    }
    return -1;
}

/* The runtime the library's symbols name: "coreclr", "monovm", or NULL. */
static const char *app_runtime_name(const asmstore_app_info *info) {
    if (!info->runtime_known)
        return NULL;
    return info->runtime == ASMSTORE_RUNTIME_CORECLR ? "coreclr" : "monovm";
}

static const char *app_table_name(asmstore_app_table t) {
    return t == ASMSTORE_APP_TABLE_BUFFER     ? "buffer"
           : t == ASMSTORE_APP_TABLE_POINTERS ? "pointers"
                                              : "none";
}

/* info: one line per descriptor, with the store entry that uses it. */
static void app_show_rows(const cli_app *a, const cli_unit *u) {
    uint32_t i;

    printf("  descriptor       size   %s  entry\n",
           a->info.table == ASMSTORE_APP_TABLE_BUFFER ? "  offset" : " address");
    for (i = 0; i < a->info.count; i++) {
        asmstore_app_descriptor d;
        long user = app_user(u, i);
        asmstore_entry e;
        char fname[1200] = "-";

        if (asmstore_app_read_descriptor(a->p, a->n, &a->info, i, &d, NULL) != ASMSTORE_OK)
            continue;
        if (user >= 0 && asmstore_reader_entry(&u->r, (uint32_t)user, &e, NULL) == ASMSTORE_OK &&
            cli_entry_filename(u, &e, fname, sizeof fname) != 0)
            fname[0] = 0;
        printf("  %10u %10u %#10llx  %s\n", i, d.uncompressed_file_size,
               (unsigned long long)(a->info.table == ASMSTORE_APP_TABLE_BUFFER ? d.buffer_offset
                                                                               : d.data_addr),
               user >= 0 ? cli_shown(fname) : "- (not in this store)");
    }
}

static void app_show_json(const cli_app *a, const cli_unit *u) {
    cli_app_agreement g;
    uint32_t bad, i;

    if (!a->found || a->res != ASMSTORE_OK) {
        cli_json_null("app_library");
        return;
    }
    bad = cli_app_agree(a, u, NULL, &g);
    cli_json_open("app_library", '{');
    cli_json_str("file", a->label);
    cli_json_str("table", app_table_name(a->info.table));
    if (app_runtime_name(&a->info))
        cli_json_str("runtime", app_runtime_name(&a->info));
    else
        cli_json_null("runtime");
    cli_json_num("descriptors", a->info.count);
    cli_json_num("data_size", a->info.data_size);
    cli_json_num("assemblies_in_apk", a->info.assemblies_in_apk);
    cli_json_num("bundled_slots", a->info.bundled_slots);
    cli_json_bool("agrees", bad == 0);
    cli_json_num("compressed_entries", g.compressed);
    cli_json_num("index_out_of_range", g.out_of_range);
    cli_json_num("larger_than_descriptor", g.too_large);
    cli_json_num("buffer_out_of_place", g.bad_buffer);
    cli_json_open("sizes", '[');
    for (i = 0; i < a->info.count; i++) {
        cli_json_key(NULL);
        printf("%u", cli_app_limit(a, i));
    }
    cli_json_close();
    cli_json_close();
}

void cli_app_show(const cli_app *a, const cli_unit *u, int json) {
    cli_app_agreement g;
    char why[512];
    uint32_t bad;

    if (json) {
        app_show_json(a, u);
        return;
    }
    if (!a->found && u->net12) {
        printf("app library:    none: %s has no " CLI_APP_LIBRARY " (the runtime sizes each "
               "compressed image from its own header)\n", CLI_NET12_LAYOUT);
        return;
    }
    if (!a->found) {
        printf("app library:    none found (looked for lib/<abi>/" CLI_APP_LIBRARY
               " in the archive or " CLI_APP_LIBRARY " beside the store; name it with --app FILE)\n");
        return;
    }
    if (a->res != ASMSTORE_OK) {
        printf("app library:    %s: cannot read %s: %s\n", cli_shown(a->label),
               a->p ? "its table" : "it",
               cli_failure(a->res, &a->err, why, sizeof why));
        return;
    }
    printf("app library:    %s: %s table, %u %s", cli_shown(a->label),
           app_table_name(a->info.table), a->info.count, cli_plural(a->info.count, "descriptor", "descriptors"));
    if (a->info.table == ASMSTORE_APP_TABLE_BUFFER)
        printf(", %u-byte buffer", a->info.data_size);
    printf("; %u assemblies in the APK, %u bundled slots; %s\n", a->info.assemblies_in_apk,
           a->info.bundled_slots,
           !a->info.runtime_known                        ? "runtime not named by its symbols"
           : a->info.runtime == ASMSTORE_RUNTIME_CORECLR ? "CoreCLR's"
                                                         : "MonoVM's");
    if (a->info.table != ASMSTORE_APP_TABLE_NONE)
        app_show_rows(a, u);
    bad = cli_app_agree(a, u, NULL, &g);
    if (bad == 0) {
        printf("app table:      agrees with the store (%u compressed %s: every index in range, "
               "every size within its descriptor)\n",
               g.compressed, cli_plural(g.compressed, "entry", "entries"));
        return;
    }
    printf("app table:      disagrees with the store: %u of %u compressed entries would abort the "
           "app (asmstore repack --replace stores such an image uncompressed)\n",
           bad, g.compressed);
    (void)cli_app_agree(a, u, stdout, &g);
}
