/* cli_unpack.c - asmstore unpack IN -C DIR, and what repack --from DIR takes from that folder.

   unpack writes every store's uncompressed images (and .pdb/.config companions) under
   DIR/<store>/ (the store's ABI, "any-abi" for a .NET 6-8 store 0), then DIR/asmstore-unpack.json
   (cli_settings.h; docs/unpack.md): what repack needs to rebuild exactly that store, each entry's
   SHA-256 included. Every file goes through cli_write_under (a temp file renamed, never through a
   symlink, never outside DIR). repack --from reads it back (cli_from_read). Exit codes: 0
   written; 1 IN invalid or an entry's name unsafe; 2 usage or I/O (DIR not empty without
   --force). */
#include "cli.h"
#include "cli_commands.h"
#include "cli_digest.h"
#include "cli_fs.h"
#include "cli_os.h"
#include "cli_settings.h"
#include "cli_unpack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct unpack_job {
    const char *in, *dir;
    int force, json;
    int rootfd;
    cli_input input;
    ZSTD_DCtx *dctx;
    char dirs[CLI_MAX_UNITS][40]; /* each store's directory under DIR */
    unsigned long long files;
} unpack_job;

/* Where unit u came from, as the settings record it: the archive entry, or the file's name (the
   input may have moved since). */
static const char *unit_source(const cli_input *in, const cli_unit *u) {
    const char *slash = strrchr(u->label, '/');

    return in->archive || !slash ? u->label : slash + 1;
}

/* >>arguments ---------------------------------------------------------------------------------- */
enum { OPT_FORCE = 256, OPT_JSON };
const cli_option cli_unpack_options[] = {{"directory", 'C', 1, "DIR"},
                                         {"force", OPT_FORCE, 0, NULL},
                                         {"json", OPT_JSON, 0, NULL},
                                         CLI_OPTIONS_END};

static int parse_args(int argc, char **argv, unpack_job *j) {
    cli_parser p;
    int key;

    cli_parse_begin(&p, argc, argv, cli_unpack_options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if (key == 'C')
            j->dir = p.value;
        else if (key == OPT_FORCE)
            j->force = 1;
        else if (key == OPT_JSON)
            j->json = 1;
        else if (key == CLI_OPERAND && !j->in)
            j->in = p.value;
        else
            return key == CLI_BAD ? 2 : cli_usage();
    }
    return j->in && j->dir ? 0 : cli_usage();
}

/* >>the folder --------------------------------------------------------------------------------- */
/* DIR must be new or empty unless --force: unpack never replaces files silently. 0, or 2. */
static int check_dir(const unpack_job *j) {
    DIR *d = opendir(j->dir);
    struct dirent *de;
    int empty = 1;

    if (!d)
        return 0; /* a new one (cli_dir_open says what else is wrong) */
    while (empty && (de = readdir(d)) != NULL)
        empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
    closedir(d);
    if (empty || j->force)
        return 0;
    cli_error("-C %s: the directory is not empty: unpack into a new or empty directory, or "
              "give --force to overwrite the files unpack writes (others stay, and repack --from "
              "takes them for new assemblies)",
              j->dir);
    return 2;
}

/* Each store's directory: its ABI ("any-abi" for a .NET 6-8 store 0), "-2" and on when the input
   has two stores of one ABI. */
static void name_dirs(unpack_job *j) {
    int i, k, n;

    for (i = 0; i < j->input.n; i++) {
        const cli_unit *u = &j->input.units[i];
        const char *base =
            u->abi == ASMSTORE_ABI_UNKNOWN ? "any-abi" : asmstore_abi_android_name(u->abi);

        snprintf(j->dirs[i], sizeof j->dirs[i], "%s", base);
        for (n = 2, k = 0; k < i; k++)
            if (!strcmp(j->dirs[k], j->dirs[i])) {
                snprintf(j->dirs[i], sizeof j->dirs[i], "%s-%d", base, n++);
                k = -1;
            }
    }
}

/* Writes one file under DIR; a name that would leave it is refused (1), an I/O error is 2. */
static int put_file(unpack_job *j, const cli_unit *u, const char *rel, const void *p, size_t n) {
    int rc = cli_write_under(j->rootfd, rel, p, n, 0644);

    if (rc == 1)
        cli_error("%s: refusing to write %s under %s: %s: nothing is written outside -C DIR",
                  u->label, rel, j->dir, cli_write_refused_why(rel));
    else if (rc == 2)
        cli_fail_errno(rel, "write it under -C DIR");
    j->files += rc == 0;
    return rc;
}

/* >>one entry ---------------------------------------------------------------------------------- */
/* A companion's file and its SHA-256 into the entry's JSON: "pdb": "Foo.pdb", "pdb_sha256": ...
   (key and sha_key: "pdb" and "pdb_sha256", or the config's). */
static int put_companion(unpack_job *j, const cli_unit *u, int s, const char *key,
                         const char *sha_key, const char *file, const unsigned char *p, size_t n) {
    char rel[PATH_MAX], hex[CLI_SHA256_HEX];
    int rc;

    if (!p) {
        cli_json_null(key);
        cli_json_null(sha_key);
        return 0;
    }
    snprintf(rel, sizeof rel, "%s/%s", j->dirs[s], file);
    if ((rc = put_file(j, u, rel, p, n)) != 0)
        return rc;
    cli_sha256_hex(p, n, hex);
    cli_json_str(key, file);
    cli_json_str(sha_key, hex);
    return 0;
}

/* The entry's image and companions under DIR/<store>/, its object into the settings. */
static int unpack_entry(unpack_job *j, int s, const asmstore_entry *e, const char *fname) {
    const cli_unit *u = &j->input.units[s];
    char rel[PATH_MAX], hex[CLI_SHA256_HEX] = "", why[512], pdb[1100];
    asmstore_error err;
    cli_image img;
    int rc = 0;

    memset(&img, 0, sizeof img);
    if (!e->ignored) {
        asmstore_result res = cli_image_get(u, e, j->dctx, &img, &err);

        if (res != ASMSTORE_OK || cli_image_problem(e, img.p, why, sizeof why)) {
            cli_error_result(res != ASMSTORE_OK ? res : ASMSTORE_ERR_BAD_IMAGE,
                             "%s (%s): entry %u %s: %s; nothing unpacked (asmstore verify "
                             "lists every damaged entry)",
                             u->label, cli_unit_abi(u), e->index, fname,
                             res != ASMSTORE_OK ? cli_failure(res, &err, why, sizeof why) : why);
            cli_image_free(&img);
            return 1;
        }
        snprintf(rel, sizeof rel, "%s/%s", j->dirs[s], fname);
        rc = put_file(j, u, rel, img.p, img.n);
        cli_sha256_hex(img.p, img.n, hex);
        cli_image_free(&img);
    }
    cli_json_open(NULL, '{');
    cli_json_num("index", e->index);
    cli_json_str("name", fname);
    cli_json_str("file", e->ignored ? NULL : fname);
    cli_json_num_or_null("descriptor_index", e->descriptor_index != ASMSTORE_NO_DESCRIPTOR,
                         e->descriptor_index);
    cli_json_num("mapping_index", e->mapping_index);
    cli_json_str("compression", cli_compression_name(e->compression));
    cli_json_num("level", (unsigned long long)asmstore_release_level(u->r.format, e->compression));
    cli_json_bool("ignored", e->ignored);
    cli_json_num("size", e->uncompressed_size);
    cli_json_str("sha256", e->ignored ? NULL : hex);
    snprintf(pdb, sizeof pdb, "%.*s.pdb", (int)asmstore_name_base_len(fname, strlen(fname)), fname);
    if (rc == 0)
        rc = put_companion(j, u, s, "pdb", "pdb_sha256", pdb, e->pdb, e->pdb_size);
    snprintf(pdb, sizeof pdb, "%s.config", fname);
    if (rc == 0)
        rc = put_companion(j, u, s, "config", "config_sha256", pdb, e->config,
                           cli_entry_config_size(u, e));
    cli_json_close();
    return rc;
}

/* >>one store ---------------------------------------------------------------------------------- */
/* The store's object in the settings, up to its "entries" array (opened). */
static void store_json(const unpack_job *j, int s) {
    const cli_unit *u = &j->input.units[s];
    char release[300];

    cli_unit_release(u, release, sizeof release);
    cli_json_open(NULL, '{');
    cli_json_str("dir", j->dirs[s]);
    cli_json_str("source", unit_source(&j->input, u));
    cli_json_abi("abi", u->abi);
    cli_json_str("wrapper", u->wrapper);
    cli_json_str("release", release);
    cli_json_num("format", u->r.format);
    cli_json_num("version_word", u->r.version_word);
    cli_json_num("store_id", u->r.store_id);
    cli_json_num("header_size", u->r.header_size);
    cli_json_str("hash", asmstore_hash_name(u->r.hash_kind));
    cli_json_num("image_alignment", cli_unit_image_alignment(u));
    cli_json_open("entries", '[');
}

static int unpack_store(unpack_job *j, int s) {
    const cli_unit *u = &j->input.units[s];
    uint32_t k;
    int rc = 0;

    store_json(j, s);
    for (k = 0; k < u->r.entry_count && rc == 0; k++) {
        asmstore_entry e;
        char fname[1024];

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK ||
            cli_entry_filename(u, &e, fname, sizeof fname) != 0) {
            cli_error("%s: entry %u cannot be read", u->label, k);
            return 1;
        }
        rc = unpack_entry(j, s, &e, fname);
    }
    cli_json_close();
    cli_json_close();
    return rc;
}

/* >>the command -------------------------------------------------------------------------------- */
/* Every store of IN must have opened, and the settings must be what repack --from reads (at most
   CLI_SETTINGS_MAX_ENTRIES entries): a folder that cannot be packed back is no use. */
static int open_input(unpack_job *j) {
    int rc = cli_input_open_or_fail(&j->input, j->in, ASMSTORE_ABI_UNKNOWN), i;
    unsigned long long entries = 0;

    for (i = 0; rc == 0 && i < j->input.n; i++) {
        if (!j->input.units[i].opened)
            rc = cli_unit_problem(&j->input, &j->input.units[i], stderr);
        entries += j->input.units[i].r.entry_count;
    }
    if (rc == 0 && entries > CLI_SETTINGS_MAX_ENTRIES) {
        cli_error("%s: %llu entries, more than the %u that repack --from reads back: nothing "
                  "unpacked (extract the entries you need with asmstore extract)",
                  j->in, entries, CLI_SETTINGS_MAX_ENTRIES);
        rc = 1;
    }
    return rc;
}

/* Every store, then the settings file last (a folder without it is an unfinished unpack). */
static int unpack_all(unpack_job *j) {
    char *text = NULL;
    size_t size = 0;
    const char *slash = strrchr(j->in, '/');
    FILE *f = cli_os_memstream(&text, &size);
    char tool[64];
    int i, rc = 0;

    if (!f)
        return cli_fail_errno(j->in, "hold its settings in memory");
    snprintf(tool, sizeof tool, "asmstore %d.%d.%d", ASMSTORE_VERSION_MAJOR,
             ASMSTORE_VERSION_MINOR, ASMSTORE_VERSION_PATCH);
    cli_json_file_begin(f);
    cli_json_num("schema", CLI_SETTINGS_SCHEMA);
    cli_json_str("tool", tool);
    cli_json_str("input", slash ? slash + 1 : j->in);
    cli_json_bool("archive", j->input.archive);
    cli_json_open("stores", '[');
    for (i = 0; i < j->input.n && rc == 0; i++)
        rc = unpack_store(j, i);
    cli_json_file_end();
    if (cli_os_memstream_close(f, &text, &size) != 0 && rc == 0)
        rc = cli_fail_errno(j->in, "hold its settings in memory");
    if (rc == 0 && size > CLI_SETTINGS_MAX_SIZE) {
        cli_error("%s: its settings would be %zu bytes (long entry names), more than the %u that "
                  "repack --from reads: the files are written, %s is not",
                  j->in, size, CLI_SETTINGS_MAX_SIZE, CLI_SETTINGS_NAME);
        rc = 1;
    }
    if (rc == 0)
        rc = put_file(j, &j->input.units[0], CLI_SETTINGS_NAME, text, size);
    free(text);
    return rc;
}

/* unpack --json: each store's directory under DIR (docs/json.md §3.9). */
static void unpack_json_report(const unpack_job *j) {
    int i;

    cli_json_str("settings", CLI_SETTINGS_NAME);
    cli_json_num("files", j->files);
    cli_json_open("stores", '[');
    for (i = 0; i < j->input.n; i++) {
        cli_json_open(NULL, '{');
        cli_json_str("store", j->input.units[i].label);
        cli_json_abi("abi", j->input.units[i].abi);
        cli_json_str("dir", j->dirs[i]);
        cli_json_close();
    }
    cli_json_close();
}

int cli_cmd_unpack(int argc, char **argv) {
    static unpack_job j;
    int rc;

    memset(&j, 0, sizeof j);
    j.rootfd = -1;
    if ((rc = parse_args(argc, argv, &j)) != 0)
        return rc;
    if (j.json) {
        cli_json_begin("unpack");
        cli_json_str("input", j.in);
        cli_json_str("directory", j.dir);
    }
    if ((rc = check_dir(&j)) != 0 || (rc = open_input(&j)) != 0)
        return rc;
    if ((j.rootfd = cli_dir_open(j.dir, 1)) < 0) {
        cli_error("-C %s: %s (give -C a new or empty directory, not a symlink)", j.dir,
                  errno == ELOOP || errno == ENOTDIR ? "not a directory" : strerror(errno));
        cli_input_close(&j.input);
        return 2;
    }
    name_dirs(&j);
    j.dctx = ZSTD_createDCtx();
    rc = unpack_all(&j);
    if (rc == 0 && j.json)
        unpack_json_report(&j);
    else if (rc == 0)
        printf("unpacked %d %s (%llu files) into %s; edit them, then: asmstore repack %s --from %s "
               "-o OUT\n", j.input.n, cli_plural((unsigned)j.input.n, "store", "stores"), j.files,
               cli_shown(j.dir), cli_shown(j.in), cli_shown(j.dir));
    ZSTD_freeDCtx(j.dctx);
    cli_os_dir_close(j.rootfd);
    cli_input_close(&j.input);
    return rc;
}

/* >>from a folder: the settings against the input ---------------------------------------------- */
typedef struct from_job {
    const char *dir;
    char settings[PATH_MAX];
    const cli_input *in;
    cli_settings s;
    cli_from *f;
    const char **known; /* the files the current store's entries name, sorted (list_known) */
    size_t nknown;
    unsigned char *buf; /* read_file's */
    size_t bufcap;
} from_job;

/* One field of the settings that IN does not have: refused, saying why it cannot be (1). */
static int differs(const from_job *j, const cli_unit *u, const char *entry, const char *field,
                   const char *there, const char *here) {
    cli_error("%s: %s%s%s: \"%s\" is %s there but %s in %s: the folder was unpacked from "
              "another input, or the field was edited, which repack cannot honour (of an entry's "
              "settings only \"level\" can change; unpack %s again)",
              j->settings, u->label, entry ? ": " : "", entry ? entry : "", field, there, here,
              j->in->path, j->in->path);
    return 1;
}

static int differs_u(const from_job *j, const cli_unit *u, const char *entry, const char *field,
                     uint64_t there, uint64_t here) {
    char a[24], b[24];

    if (there == here)
        return 0;
    snprintf(a, sizeof a, "%llu", (unsigned long long)there);
    snprintf(b, sizeof b, "%llu", (unsigned long long)here);
    return differs(j, u, entry, field, a, b);
}

static int differs_s(const from_job *j, const cli_unit *u, const char *entry, const char *field,
                     const char *there, const char *here) {
    if ((!there && !here) || (there && here && !strcmp(there, here)))
        return 0;
    return differs(j, u, entry, field, there ? there : "null", here ? here : "null");
}

static int check_store(const from_job *j, const cli_unit *u, const cli_settings_store *st) {
    const char *abi = u->abi == ASMSTORE_ABI_UNKNOWN ? NULL : asmstore_abi_android_name(u->abi);

    return differs_s(j, u, NULL, "source", st->source, unit_source(j->in, u)) ||
           differs_s(j, u, NULL, "abi", st->abi, abi) ||
           differs_s(j, u, NULL, "wrapper", st->wrapper, u->wrapper) ||
           differs_s(j, u, NULL, "hash", st->hash, asmstore_hash_name(u->r.hash_kind)) ||
           differs_u(j, u, NULL, "format", st->format, u->r.format) ||
           differs_u(j, u, NULL, "version_word", st->version_word, u->r.version_word) ||
           differs_u(j, u, NULL, "store_id", st->store_id, u->r.store_id) ||
           differs_u(j, u, NULL, "header_size", st->header_size, u->r.header_size) ||
           differs_u(j, u, NULL, "image_alignment", st->image_alignment,
                     cli_unit_image_alignment(u)) ||
           differs_u(j, u, NULL, "the number of entries", st->nentries, u->r.entry_count);
}

/* The level a re-compressed image can get: 1-12 for LZ4 HC, 1-22 for zstd, 0 uncompressed. */
static int check_level(const from_job *j, const cli_unit *u, const cli_settings_entry *se,
                       const asmstore_entry *e) {
    int max = e->compression == ASMSTORE_COMPRESSION_LZ4 ? 12 : e->compression ? 22 : 0;

    if (se->level >= (max ? 1 : 0) && se->level <= max)
        return 0;
    cli_error("%s: %s: %s: \"level\" %d: a %s image takes %s", j->settings, u->label, se->name,
              se->level, cli_compression_name(e->compression),
              max ? (max == 12 ? "1 to 12 (LZ4 HC)" : "1 to 22 (zstd)") : "0 (it is stored as is)");
    return 1;
}

static int check_entry(const from_job *j, const cli_unit *u, const cli_settings_entry *se,
                       const asmstore_entry *e, const char *fname) {
    uint32_t di = e->descriptor_index != ASMSTORE_NO_DESCRIPTOR ? e->descriptor_index : 0;

    return differs_s(j, u, fname, "name", se->name, fname) ||
           differs_u(j, u, fname, "index", se->index, e->index) ||
           differs_u(j, u, fname, "ignored", (unsigned)se->ignored, (unsigned)!!e->ignored) ||
           differs_s(j, u, fname, "compression", se->compression,
                     cli_compression_name(e->compression)) ||
           differs_u(j, u, fname, "size", se->size, e->uncompressed_size) ||
           differs_u(j, u, fname, "descriptor_index",
                     se->has_descriptor_index ? se->descriptor_index : UINT64_MAX,
                     e->compression ? di : UINT64_MAX) ||
           differs_u(j, u, fname, "mapping_index", se->mapping_index, e->mapping_index) ||
           differs_u(j, u, fname, "file (null for an ignored entry)", !se->file,
                     (unsigned)!!e->ignored) ||
           differs_u(j, u, fname, "pdb (null without one)", !se->pdb, !e->pdb) ||
           differs_u(j, u, fname, "config (null without one)", !se->config, !e->config) ||
           check_level(j, u, se, e);
}

/* >>from a folder: its files ------------------------------------------------------------------- */
enum { FILE_SAME, FILE_CHANGED, FILE_GONE, FILE_BAD, FILE_REFUSED };
#define FROM_MAX_DEPTH 8 /* directories under a store's: deeper is refused, not ignored */

/* repack --from never reads through a symlink (it could point anywhere outside the folder). 1. */
static int say_symlink(const char *path) {
    cli_error("%s: a symlink: repack --from never follows one (it could point anywhere); put the "
              "file or directory itself there, or remove it",
              path);
    return 1;
}

/* 1 after naming the symlink in the way when path (DIR/<store>/<rel>) is one or goes through one;
   else 0. */
static int symlink_in(const from_job *j, const char *path) {
    char prefix[PATH_MAX];
    size_t at = strlen(j->dir);
    struct stat sb;

    while (path[at] == '/') {
        const char *slash = strchr(path + at + 1, '/');

        at = slash ? (size_t)(slash - path) : strlen(path);
        snprintf(prefix, sizeof prefix, "%.*s", (int)at, path);
        if (cli_os_lstat(prefix, &sb) == 0 && CLI_OS_ISLNK(sb.st_mode))
            return say_symlink(prefix);
    }
    return 0;
}

/* What --from cannot take (anything but a directory or a regular file, or a directory too deep;
   mode: its lstat's): refused, naming it, rather than left out of the output unsaid. 1. */
static int refuse_other(const char *full, mode_t mode) {
    if (CLI_OS_ISLNK(mode))
        return say_symlink(full);
    if (S_ISDIR(mode))
        cli_error("%s: a directory more than %d levels under its store's: repack --from does not "
                  "go that deep; move the files up, or remove it",
                  full, FROM_MAX_DEPTH);
    else
        cli_error("%s: not a regular file (a FIFO, socket, device, or a directory where an "
                  "entry's file belongs): repack --from reads files only; put a file there, or "
                  "remove it",
                  full);
    return 1;
}

/* A regular file's bytes into j->buf (grown as needed), never through a symlink at its end (ELOOP)
   nor blocking on a FIFO: 0 with *n, or -1 with errno (EINVAL: not a regular file). One read per
   file, no mapping: the folder may hold 100,000 of them. */
static int read_file(from_job *j, const char *path, size_t *n) {
    int fd = asmstore_file_open_read(path, 1), err = EINVAL;
    struct stat sb;
    size_t size = 0;
    long long got = 1;

    if (fd < 0)
        return -1;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size < SIZE_MAX) {
        size = (size_t)sb.st_size;
        if (size >= j->bufcap) {
            free(j->buf);
            j->bufcap = size + 1;
            j->buf = (unsigned char *)malloc(j->bufcap);
        }
        err = j->buf ? 0 : ENOMEM;
    }
    for (*n = 0; !err && *n < size && got != 0;) { /* 0: it shrank; what is there is hashed */
        got = asmstore_file_read(fd, j->buf + *n, size - *n);
        if (got > 0)
            *n += (size_t)got;
        else if (got < 0 && errno != EINTR)
            err = errno;
    }
    asmstore_file_close(fd);
    errno = err;
    return err ? -1 : 0;
}

/* DIR/<store>/<rel> against the SHA-256 unpack recorded; FILE_BAD or FILE_REFUSED after saying
   why. */
static int file_state(from_job *j, const cli_settings_store *st, const char *rel,
                      const char *sha256, char *path, size_t cap) {
    char hex[CLI_SHA256_HEX];
    size_t n;
    int rc;

    snprintf(path, cap, "%s/%s/%s", j->dir, st->dir, rel);
    if (strchr(rel, '/') && symlink_in(j, path)) /* the store's directory is checked once */
        return FILE_REFUSED;
    if (read_file(j, path, &n) != 0) {
        if (errno == ENOENT)
            return FILE_GONE;
        if (errno == ELOOP || errno == EINVAL) {
            refuse_other(path, errno == ELOOP ? CLI_OS_MODE_LINK : CLI_OS_MODE_OTHER);
            return FILE_REFUSED;
        }
        cli_fail_errno(path, "read it");
        return FILE_BAD;
    }
    rc = cli_sha256_hex(j->buf, n, hex);
    if (rc != 0) {
        cli_error("%s: cannot hash it (libcrypto failed)", path);
        return FILE_BAD;
    }
    return strcmp(hex, sha256) ? FILE_CHANGED : FILE_SAME;
}

/* A .pdb or .config is kept as IN has it: its file must be there, unchanged. */
static int check_companion(from_job *j, const cli_settings_store *st, const char *rel,
                           const char *sha256) {
    char path[PATH_MAX + 1100];
    int state;

    if (!rel || (state = file_state(j, st, rel, sha256, path, sizeof path)) == FILE_SAME)
        return 0;
    if (state == FILE_BAD || state == FILE_REFUSED)
        return state == FILE_BAD ? 2 : 1;
    cli_error("%s: %s: repack keeps an entry's .pdb and .config as the input has them: "
              "put the file unpack wrote back (or remove the entry's image too)",
              path, state == FILE_GONE ? "deleted" : "changed");
    return 1;
}

/* One more edit (or add: index 0) on the list *list of *n (room doubled when a power of 2 is
   full). 0, or 2 out of memory. */
static int add_edit(cli_from_edit **list, int *n, const cli_unit *u, uint32_t index,
                    const char *name, const char *path, int level) {
    cli_from_edit *e = *list;

    if (*n >= INT_MAX / 2)
        return 2;
    if (!(*n & (*n - 1)) &&
        !(e = (cli_from_edit *)realloc(*list, (size_t)(*n ? 2 * *n : 1) * sizeof *e)))
        return 2;
    *list = e;
    e += (*n)++;
    e->unit = u;
    e->index = index;
    e->level = level;
    e->name = strdup(name);
    e->path = path ? strdup(path) : NULL;
    return e->name && (!path || e->path) ? 0 : 2;
}

/* One entry: unchanged (nothing), changed or re-levelled (an edit with its file), deleted (an
   edit without one). 0, or the exit code. */
static int entry_edit(from_job *j, const cli_unit *u, const cli_settings_store *st, uint32_t k,
                      asmstore_compression kind) {
    const cli_settings_entry *se = &st->entries[k];
    char path[PATH_MAX + 1100];
    int state;

    if (se->ignored)
        return 0;
    state = file_state(j, st, se->file, se->sha256, path, sizeof path);
    if (state == FILE_BAD || state == FILE_REFUSED)
        return state == FILE_BAD ? 2 : 1;
    if (state == FILE_GONE)
        return add_edit(&j->f->edits, &j->f->n, u, k, se->name, NULL, 0);
    if (check_companion(j, st, se->pdb, se->pdb_sha256) ||
        check_companion(j, st, se->config, se->config_sha256))
        return 1;
    if (state == FILE_SAME && se->level == asmstore_release_level(u->r.format, kind))
        return 0;
    return add_edit(&j->f->edits, &j->f->n, u, k, se->name, path, se->level);
}

static int string_order(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every file the entries of st name (image or companion), sorted into j->known. 0, or 2. */
static int list_known(from_job *j, const cli_settings_store *st) {
    size_t i;

    free(j->known);
    j->nknown = 0;
    if (!(j->known = (const char **)malloc((3 * st->nentries + 1) * sizeof *j->known)))
        return 2;
    for (i = 0; i < st->nentries; i++) {
        const cli_settings_entry *e = &st->entries[i];

        if (e->file)
            j->known[j->nknown++] = e->file;
        if (e->pdb)
            j->known[j->nknown++] = e->pdb;
        if (e->config)
            j->known[j->nknown++] = e->config;
    }
    qsort(j->known, j->nknown, sizeof *j->known, string_order);
    return 0;
}

/* Does some entry of the store name rel as its image or a companion? */
static int named(const from_job *j, const char *rel) {
    return bsearch(&rel, j->known, j->nknown, sizeof *j->known, string_order) != NULL;
}

/* Every regular file under DIR/<store>/<sub> that no entry names: a new assembly (an add); anything
   else there is refused (refuse_other). 0, or the exit code. */
static int find_new(from_job *j, const cli_unit *u, const cli_settings_store *st, const char *sub,
                    int depth) {
    char path[PATH_MAX], rel[PATH_MAX];
    struct dirent *de;
    DIR *d;
    int rc = 0;

    snprintf(path, sizeof path, "%s/%s%s%s", j->dir, st->dir, *sub ? "/" : "", sub);
    if (!(d = opendir(path)))
        return errno == ENOENT && !*sub ? 0 : cli_fail_errno(path, "read the directory");
    while (rc == 0 && (de = readdir(d)) != NULL) {
        struct stat sb;
        char full[PATH_MAX * 2];

        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        snprintf(rel, sizeof rel, "%s%s%s", sub, *sub ? "/" : "", de->d_name);
        snprintf(full, sizeof full, "%s/%s", path, de->d_name);
        if (cli_os_lstat(full, &sb) != 0)
            rc = cli_fail_errno(full, "read it");
        else if (S_ISDIR(sb.st_mode) && depth < FROM_MAX_DEPTH)
            rc = find_new(j, u, st, rel, depth + 1);
        else if (!S_ISREG(sb.st_mode))
            rc = refuse_other(full, sb.st_mode);
        else if (!named(j, rel))
            rc = add_edit(&j->f->adds, &j->f->nadd, u, 0, rel, full, 0);
    }
    closedir(d);
    return rc;
}

/* >>from a folder: reading it all -------------------------------------------------------------- */
/* The settings file, mapped and parsed. 0, or the exit code. */
static int read_settings(from_job *j) {
    const unsigned char *p;
    size_t n;
    int rc;

    snprintf(j->settings, sizeof j->settings, "%s/%s", j->dir, CLI_SETTINGS_NAME);
    rc = cli_map_file(j->settings, &p, &n);
    if (rc == 1)
        cli_error("--from %s: no %s in it: give --from the directory 'asmstore "
                  "unpack IN -C DIR' wrote",
                  j->dir, CLI_SETTINGS_NAME);
    if (rc != 0)
        return rc == 1 ? 2 : cli_fail_errno(j->settings, "read it");
    rc = cli_settings_parse(&j->s, (const char *)p, n);
    cli_unmap_file(p, n);
    if (rc != 0)
        cli_error("%s: at byte %zu: %s (unpack again to get a good one)", j->settings,
                  j->s.error_offset, j->s.error);
    return rc ? 1 : 0;
}

/* A store whose directory is gone would lose every entry: more likely a slip than meant. */
static int store_dir_missing(const from_job *j, const cli_settings_store *st) {
    char path[PATH_MAX];
    struct stat sb;
    size_t i;

    for (i = 0; i < st->nentries && !st->entries[i].file; i++)
        ;
    snprintf(path, sizeof path, "%s/%s", j->dir, st->dir);
    if (i == st->nentries || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)))
        return 0;
    cli_error("--from %s: no directory %s/ (the store %s): put it back as unpack wrote it "
              "(to remove entries, delete their files in it)",
              j->dir, st->dir, st->source);
    return 1;
}

/* Store i of the settings against unit i of IN, entry by entry, then its files. */
static int from_store(from_job *j, const cli_unit *u, const cli_settings_store *st) {
    uint32_t k;
    char dir[PATH_MAX];
    int rc = check_store(j, u, st) || store_dir_missing(j, st);

    snprintf(dir, sizeof dir, "%s/%s", j->dir, st->dir);
    if (rc == 0 && symlink_in(j, dir))
        rc = 1; /* nothing is read through it (file_state checks only what is under it) */

    for (k = 0; rc == 0 && k < u->r.entry_count; k++) {
        asmstore_entry e;
        char fname[1024];

        if (asmstore_reader_entry(&u->r, k, &e, NULL) != ASMSTORE_OK ||
            cli_entry_filename(u, &e, fname, sizeof fname) != 0)
            return 1;
        rc = check_entry(j, u, &st->entries[k], &e, fname);
        if (rc == 0)
            rc = entry_edit(j, u, st, k, e.compression);
    }
    if (rc == 0)
        rc = list_known(j, st);
    return rc ? rc : find_new(j, u, st, "", 0);
}

int cli_from_read(const char *dir, const cli_input *in, cli_from *f) {
    static from_job j;
    int rc, i;

    memset(&j, 0, sizeof j);
    memset(f, 0, sizeof *f);
    j.dir = dir;
    j.in = in;
    j.f = f;
    if ((rc = read_settings(&j)) != 0)
        return rc;
    if ((size_t)in->n != j.s.nstores || j.s.archive != in->archive) {
        cli_error("%s: it describes %zu %s%s, and %s holds %d%s: unpack %s again", j.settings,
                  j.s.nstores, cli_plural(j.s.nstores, "store", "stores"),
                  j.s.archive ? " in an archive" : "", in->path, in->n,
                  in->archive ? " in an archive" : "", in->path);
        rc = 1;
    }
    for (i = 0; rc == 0 && i < in->n; i++)
        rc = from_store(&j, &in->units[i], &j.s.stores[i]);
    cli_settings_free(&j.s);
    free(j.known);
    free(j.buf);
    if (rc != 0)
        cli_from_free(f);
    return rc;
}

void cli_from_free(cli_from *f) {
    int i;

    for (i = 0; i < f->n; i++) {
        free(f->edits[i].name);
        free(f->edits[i].path);
    }
    for (i = 0; i < f->nadd; i++) {
        free(f->adds[i].name);
        free(f->adds[i].path);
    }
    free(f->edits);
    free(f->adds);
    memset(f, 0, sizeof *f);
}
