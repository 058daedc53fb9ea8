/* cli_common.c - the common part of the asmstore CLI (declared in cli.h), and the translation unit
   that holds the asmstore.h implementation. */
#define ASMSTORE_IMPLEMENTATION
#include "cli.h"
#include "cli_os.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef ASMSTORE_CLI_LZ4
#include <lz4.h>
#include <lz4hc.h>
#endif
#ifdef ASMSTORE_CLI_ZLIB
#include <zlib.h>
#endif
#ifdef ASMSTORE_CLI_YARA
#include <yara.h>
#endif
#include <zstd.h>

/* >>usage -------------------------------------------------------------------------------------- */
const char cli_exit_rule[] =
    "Exit status: 0 ok; 1 the input is invalid (no store, a failed check, a name not there);\n"
    "2 usage or I/O error.\n";

static const cli_command *cli_current; /* the command running: cli_usage() shows its synopsis */
static void json_want(void); /* >>json: the command line has --json */

void cli_begin(const cli_command *c) {
    cli_current = c;
}

void cli_print_usage(FILE *f, const cli_command *c) {
    fprintf(f, "usage: asmstore %s", c->usage);
}

int cli_usage(void) {
    char line[200];

    if (!cli_current) {
        fprintf(stderr, "usage: asmstore COMMAND [ARGS...]   (asmstore --help lists the "
                        "commands)\n");
        return 2;
    }
    cli_print_usage(stderr, cli_current);
    fprintf(stderr, "Try 'asmstore %s --help'.\n", cli_current->name);
    snprintf(line, sizeof line, "usage: asmstore %.*s", (int)strcspn(cli_current->usage, "\n"),
             cli_current->usage);
    cli_json_note_error(0, ASMSTORE_OK, line); /* --json: the synopsis' first line */
    return 2;
}

/* >>options ------------------------------------------------------------------------------------ */
void cli_parse_begin(cli_parser *p, int argc, char **argv, const cli_option *options) {
    memset(p, 0, sizeof *p);
    p->argc = argc;
    p->argv = argv;
    p->options = options;
}

static const cli_option cli_help_option = {"help", 'h', 0, NULL};

/* The option with the long name (n bytes) or, when name is NULL, the short letter. */
static const cli_option *cli_find_option(const cli_option *o, const char *name, size_t n,
                                         int letter) {
    if (name ? n == 4 && !memcmp(name, "help", 4) : letter == 'h')
        return &cli_help_option;
    for (; o && o->name; o++)
        if (name ? strlen(o->name) == n && !memcmp(o->name, name, n) : o->key == letter)
            return o;
    return NULL;
}

/* "asmstore CMD: unknown option --x (...)", "asmstore CMD: option -o needs a value, OUT (...)";
   returns CLI_BAD. */
static int cli_parse_bad(const cli_parser *p, const cli_option *o, const char *problem) {
    const char *cmd = cli_current ? cli_current->name : "COMMAND";
    char line[300];

    if (p->quiet)
        return CLI_BAD;
    if (!o)
        snprintf(line, sizeof line, "unknown option %s (asmstore %s --help lists them)", p->spelled,
                 cmd);
    else
        snprintf(line, sizeof line, "option %s %s%s%s (asmstore %s --help lists the options)",
                 p->spelled, problem, o->value ? ", " : "", o->value ? o->value : "", cmd);
    fprintf(stderr, "asmstore %s: %s\n", cmd, cli_shown(line));
    cli_json_note_error(0, ASMSTORE_OK, line);
    return CLI_BAD;
}

/* o's values: attached (--name=V, -oV) or the arguments after it, whatever they start with. */
static int cli_parse_values(cli_parser *p, const cli_option *o, const char *attached) {
    if (!o->nvalues)
        return attached ? cli_parse_bad(p, o, "takes no value") : o->key;
    if (!attached && p->k >= p->argc)
        return cli_parse_bad(p, o, o->nvalues == 2 ? "needs two values" : "needs a value");
    p->value = attached ? attached : p->argv[p->k++];
    if (o->nvalues == 2 && p->k >= p->argc)
        return cli_parse_bad(p, o, "needs two values");
    if (o->nvalues == 2)
        p->value2 = p->argv[p->k++];
    return o->key;
}

/* The letter at argv[k] + in_cluster (1 when starting): the rest of the argument is its value, or
   more flags. */
static int cli_parse_short(cli_parser *p) {
    const char *arg = p->argv[p->k];
    int at = p->in_cluster ? p->in_cluster : 1;
    const cli_option *o = cli_find_option(p->options, NULL, 0, (unsigned char)arg[at]);
    int more = arg[at + 1] != 0;

    snprintf(p->spelled, sizeof p->spelled, "-%c", arg[at]);
    p->in_cluster = more && (!o || !o->nvalues) ? at + 1 : 0;
    if (!p->in_cluster)
        p->k++;
    if (!o)
        return cli_parse_bad(p, NULL, NULL);
    return cli_parse_values(p, o, more && o->nvalues ? arg + at + 1 : NULL);
}

int cli_parse_next(cli_parser *p) {
    const char *arg, *eq;
    const cli_option *o;
    size_t n;

    p->value = p->value2 = NULL;
    if (p->in_cluster)
        return cli_parse_short(p);
    if (p->k >= p->argc)
        return CLI_DONE;
    arg = p->argv[p->k];
    if (p->operands_only || arg[0] != '-' || !arg[1]) {
        p->value = arg;
        p->k++;
        return CLI_OPERAND;
    }
    if (arg[1] != '-')
        return cli_parse_short(p);
    p->k++;
    if (!arg[2]) {
        p->operands_only = 1;
        return cli_parse_next(p);
    }
    eq = strchr(arg, '=');
    n = eq ? (size_t)(eq - arg) - 2 : strlen(arg) - 2;
    snprintf(p->spelled, sizeof p->spelled, "--%.*s", (int)(n < 56 ? n : 56), arg + 2);
    o = cli_find_option(p->options, arg + 2, n, 0);
    return o ? cli_parse_values(p, o, eq ? eq + 1 : NULL) : cli_parse_bad(p, NULL, NULL);
}

int cli_check_args(int argc, char **argv) {
    const cli_option *json_option = cli_find_option(cli_current->options, "json", 4, 0);
    cli_parser p;
    int key, rc = -1;

    cli_parse_begin(&p, argc, argv, cli_current->options);
    while ((key = cli_parse_next(&p)) != CLI_DONE) {
        if (json_option && key == json_option->key)
            json_want();
        if (key == CLI_BAD) {
            rc = 2;
            p.quiet = 1; /* said once; the rest is read for --json only */
        }
        if (key == 'h' && rc < 0) {
            cli_print_help(stdout, cli_current);
            return 0;
        }
    }
    return rc;
}

void cli_print_help(FILE *f, const cli_command *c) {
    const cli_option *o;

    cli_print_usage(f, c);
    fputs("Options:\n", f);
    for (o = c->options; o && o->name; o++)
        fprintf(f, "  %s%c%s--%s%s%s\n", o->key < 256 ? "-" : " ", o->key < 256 ? o->key : ' ',
                o->key < 256 ? ", " : "  ", o->name, o->value ? " " : "", o->value ? o->value : "");
    fprintf(f, "  -h, --help\nExample: %s\n%s", c->example, cli_exit_rule);
}

int cli_abi_option(const char *option, const char *value, asmstore_abi *abi) {
    *abi = asmstore_abi_parse(value);
    if (*abi != ASMSTORE_ABI_UNKNOWN)
        return 0;
    cli_error("%s %s: unknown ABI (try arm64-v8a, armeabi-v7a, x86_64 or x86)", option, value);
    return 2;
}

int cli_int_option(const char *option, const char *value, int min, int *n) {
    *n = atoi(value);
    if (*n >= min)
        return 0;
    cli_error("%s must be >= %d", option + 2, min); /* "--jobs" -> "jobs" */
    return 2;
}

/* >>messages ----------------------------------------------------------------------------------- */
/* What went wrong, then what to try. */
/* The hints for a damaged store or a bad name, which many results share. */
static const char *shared_hint(asmstore_result r) {
    switch (r) {
    case ASMSTORE_ERR_CORRUPT:
    case ASMSTORE_ERR_BAD_COUNTS:
    case ASMSTORE_ERR_BAD_INDEX_SIZE:
    case ASMSTORE_ERR_BAD_INDEX:
    case ASMSTORE_ERR_BAD_DESCRIPTOR:
    case ASMSTORE_ERR_BAD_NAMES:
    case ASMSTORE_ERR_BAD_HASH:
    case ASMSTORE_ERR_OVERLAP:
    case ASMSTORE_ERR_DECOMPRESS:
    case ASMSTORE_ERR_CHECKSUM:
    case ASMSTORE_ERR_SIZE_MISMATCH:
        return "the store is damaged: take it from the app's original package or build the app "
               "again";
    case ASMSTORE_ERR_BAD_NAME:
    case ASMSTORE_ERR_DUPLICATE_NAME:
    case ASMSTORE_ERR_NAME_NOT_UTF8: return "entry names must be unique, non-empty UTF-8";
    default: return "";
    }
}

/* The hints about where the bytes came from: files, archives, wrappers. */
static const char *input_hint(asmstore_result r) {
    switch (r) {
    case ASMSTORE_ERR_TRUNCATED:
        return "the file is cut short (an incomplete copy or download?): copy it again";
    case ASMSTORE_ERR_BAD_MAGIC:
        return "it is not an assembly store; give the APK, its lib/<abi>/libassembly-store.so or "
               "an "
               "assemblies*.blob";
    case ASMSTORE_ERR_IO: return "check the path, its permissions and the free space";
    case ASMSTORE_ERR_BAD_ELF:
        return "it is not a well-formed ELF file ('readelf -h' shows its header)";
    case ASMSTORE_ERR_NO_PAYLOAD:
        return "this .so holds no store; the store is lib/<abi>/libassembly-store.so or "
               "libassemblies.<abi>.blob.so";
    case ASMSTORE_ERR_BAD_ZIP:
        return "the archive is damaged ('unzip -t' checks it): copy it again";
    case ASMSTORE_ERR_ZIP_COMPRESSED:
        return "store the entry uncompressed (zip -0) or build asmstore with zlib";
    case ASMSTORE_ERR_MISALIGNED: return "align the archive (zipalign -p 4 IN OUT)";
    case ASMSTORE_ERR_ZIP_ENCRYPTED: return "decrypt the archive first";
    case ASMSTORE_ERR_DLOPEN:
        return "a .so for another machine is mapped instead: 'asmstore info' reads it without "
               "dlopen";
    default: return shared_hint(r);
    }
}

const char *cli_result_hint(asmstore_result r) {
    switch (r) {
    case ASMSTORE_ERR_OUT_OF_MEMORY: return "free some memory, or read one ABI with --abi";
    case ASMSTORE_ERR_BAD_VERSION:
        return "this asmstore reads formats 1-4 (.NET 6-11); a newer release may need a newer "
               "asmstore";
    case ASMSTORE_ERR_NOT_FOUND: return "'asmstore list' shows what the store holds";
    case ASMSTORE_ERR_TOO_LARGE:
        return "it is over asmstore's size limits (ASMSTORE_MAX_ENTRY_SIZE and the format's)";
    case ASMSTORE_ERR_UNSUPPORTED:
        return "README 'Supported formats' lists what asmstore reads and writes";
    case ASMSTORE_ERR_IGNORED:
        return "the app marked the entry ignored: its runtime never loads it";
    case ASMSTORE_ERR_UNSUPPORTED_COMPRESSION:
        return "writing LZ4 (XALZ) images: built without liblz4: install liblz4-dev and rebuild "
               "(reading them needs nothing)";
    case ASMSTORE_ERR_PROFILE: return "coreclr stores are format 3 or 4 (--format 3)";
    case ASMSTORE_ERR_ELF_RULE: return "'asmstore elfcheck FILE' names each rule it breaks";
    case ASMSTORE_ERR_ABI_MISMATCH:
        return "give the --abi the file was built for ('asmstore info FILE' shows it)";
    case ASMSTORE_ERR_BAD_IMAGE:
        return "a store holds .NET assemblies (with their .pdb and .dll.config): take the file "
               "from the app's build output or original package";
    default: return input_hint(r);
    }
}

const char *cli_failure(asmstore_result r, const asmstore_error *err, char *buf, size_t cap) {
    int about = err && err->result == r;
    const char *msg = about ? err->message : NULL;
    int n =
        snprintf(buf, cap, "%s%s%s", asmstore_result_string(r), msg ? ": " : "", msg ? msg : "");

    if (about && r == ASMSTORE_ERR_OVERLAP && err->other_entry >= 0 && n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, " (entry %lld, other_entry %lld)",
                      (long long)err->entry, (long long)err->other_entry);
    if (about && err->offset && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " (at offset %llu)", (unsigned long long)err->offset);
    return buf;
}

int cli_status(asmstore_result r) {
    return r == ASMSTORE_ERR_IO || r == ASMSTORE_ERR_OUT_OF_MEMORY ? 2 : 1;
}

const char *cli_plural(unsigned long long n, const char *one, const char *many) {
    return n == 1 ? one : many;
}

const char *cli_compression_name(asmstore_compression c) {
    return c == ASMSTORE_COMPRESSION_ZSTD ? "zstd" : c == ASMSTORE_COMPRESSION_LZ4 ? "lz4" : "none";
}

/* cli_error and cli_error_result: the text on stderr however long, its control characters
   escaped (cli_put_shown: names come from files); "error" keeps what fits, as it is. */
static void cli_verror(int has_code, asmstore_result r, const char *fmt, va_list ap) {
    char line[1200], *all = NULL;
    va_list again;
    int n;

    va_copy(again, ap);
    n = vsnprintf(line, sizeof line, fmt, ap);
    if (n >= (int)sizeof line && (all = (char *)malloc((size_t)n + 1)) != NULL)
        vsnprintf(all, (size_t)n + 1, fmt, again);
    va_end(again);
    fputs("asmstore: ", stderr);
    cli_put_shown(stderr, all ? all : line, all ? (size_t)n : strlen(line));
    fputc('\n', stderr);
    free(all);
    cli_json_note_error(has_code, r, line);
}

void cli_error(const char *fmt, ...) {
    va_list ap;

    va_start(ap, fmt);
    cli_verror(0, ASMSTORE_OK, fmt, ap);
    va_end(ap);
}

void cli_error_result(asmstore_result r, const char *fmt, ...) {
    va_list ap;

    va_start(ap, fmt);
    cli_verror(1, r, fmt, ap);
    va_end(ap);
}

int cli_fail(const char *what, asmstore_result r, const asmstore_error *err) {
    const char *hint = cli_result_hint(r);
    char why[512];

    cli_error_result(r, "%s: %s%s%s", what, cli_failure(r, err, why, sizeof why), *hint ? "; " : "",
                     hint);
    return cli_status(r);
}

int cli_fail_read(const char *path, asmstore_result r) {
    if (r == ASMSTORE_ERR_NOT_FOUND)
        errno = ENOENT; /* asmstore_read_file: the file is not there */
    if (r == ASMSTORE_ERR_IO || r == ASMSTORE_ERR_NOT_FOUND)
        return cli_fail_errno(path, "read it");
    return cli_fail(path, r, NULL);
}

int cli_no_store(const char *path, asmstore_abi only) {
    fprintf(stderr,
            "asmstore: %s: no assembly store found%s. Looked for: an XABA store or a .so wrapping "
            "one; a .NET 6-8 set (assemblies*.blob + assemblies.manifest); in an APK/AAB: "
            "lib/<abi>/libassembly-store.so, lib/<abi>/libassemblies.<abi>.blob.so, "
            "assemblies/assemblies*.blob (and under base/). %s\n",
            cli_shown(path), only ? " for that ABI" : "",
            only ? "Try without --abi ('asmstore info' names the ABIs there)"
                 : "Is it a .NET for Android app (.NET 6 or later) built in Release? Debug builds "
                   "keep the assemblies outside the APK, and Xamarin.Android apps keep them as "
                   "loose "
                   "assemblies/*.dll");
    if (cli_json_on()) {
        char line[PATH_MAX + 64];

        snprintf(line, sizeof line, "%s: no assembly store found%s", path,
                 only ? " for that ABI" : "");
        cli_json_note_error(1, ASMSTORE_ERR_NOT_FOUND, line);
    }
    return 1;
}

/* What to try after errno e on path. */
static const char *errno_hint(int e, const char *path) {
    struct stat st;

    if (e == ENOENT)
        return "check the path";
    if (e == EACCES || e == EPERM)
        return "check its permissions";
    if (e == ENOSPC || e == EDQUOT)
        return "free some disk space";
    if (e == EISDIR)
        return "give a file, not a directory";
    if (e == EBUSY) /* Windows replaces no file another program holds open */
        return "another program has it open: close it there";
    if (e == ENOTDIR)
        return "a part of the path is not a directory";
    /* cli_map_file's EINVAL: something other than a file or directory */
    if (e == EINVAL && stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return "it is a pipe, socket or device: give a regular file";
    return "";
}

int cli_fail_errno(const char *path, const char *doing) {
    int e = errno;
    const char *hint = errno_hint(e, path);

    cli_error_result(ASMSTORE_ERR_IO, "%s: cannot %s: %s%s%s", path, doing,
                     e ? strerror(e) : "unknown error", *hint ? "; " : "", hint);
    return 2;
}

/* >>files -------------------------------------------------------------------------------------- */
/* The header's mapping (asmstore_map_file: a FIFO never blocks the open; an empty file is NULL, 0). */
int cli_map_file(const char *path, const unsigned char **data, size_t *size) {
    asmstore_result r = asmstore_map_file(path, data, size, NULL);

    if (r == ASMSTORE_OK)
        return 0;
    return r == ASMSTORE_ERR_NOT_FOUND ? 1 : 2;
}

void cli_unmap_file(const unsigned char *data, size_t size) {
    asmstore_unmap_file(data, size);
}

/* >>codecs ------------------------------------------------------------------------------------- */
asmstore_result cli_compress(void *user, asmstore_compression kind, int level, void *dst,
                             size_t cap, const void *src, size_t src_size, size_t *written) {
    (void)user;
#ifdef ASMSTORE_CLI_LZ4
    if (kind == ASMSTORE_COMPRESSION_LZ4) {
        int n;

        if (src_size > LZ4_MAX_INPUT_SIZE || cap > INT_MAX)
            return ASMSTORE_ERR_TOO_LARGE;
        n = LZ4_compress_HC((const char *)src, (char *)dst, (int)src_size, (int)cap, level);
        if (n <= 0)
            return ASMSTORE_ERR_BUFFER_TOO_SMALL;
        *written = (size_t)n;
        return ASMSTORE_OK;
    }
#endif
    (void)kind;
    (void)level;
    (void)dst;
    (void)cap;
    (void)src;
    (void)src_size;
    (void)written;
    return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
}

/* >>terminal text ------------------------------------------------------------------------------ */
/* How the text at u[i..n) starts on a terminal: the bytes it takes (*used) and what shows them,
   into out (5 bytes at most, not terminated): a valid UTF-8 character as it is, unless a C1
   control (U+0080-U+009F); a C0 control, DEL, a C1 control and a byte that starts no valid
   character as \xHH, one per byte. Returns the length of out. */
static size_t shown_unit(const unsigned char *u, size_t n, size_t i, char *out, size_t *used) {
    unsigned char c = u[i];
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

    if (c >= 0x80 && len <= n - i && asmstore_utf8_valid(u + i, len) &&
        !(c == 0xC2 && u[i + 1] < 0xA0)) {
        memcpy(out, u + i, len);
        *used = len;
        return len;
    }
    *used = 1;
    if (c >= 0x20 && c < 0x7f) {
        out[0] = (char)c;
        return 1;
    }
    snprintf(out, 5, "\\x%02x", c);
    return 4;
}

const char *cli_shown_n(const char *s, size_t n) {
    static char ring[8][CLI_SHOWN_MAX + 4];
    static unsigned next;
    const unsigned char *u = (const unsigned char *)s;
    char *buf = ring[next++ % 8], unit[5];
    size_t i = 0, at = 0, used, k;

    while (i < n) {
        k = shown_unit(u, n, i, unit, &used);
        if (at + k > CLI_SHOWN_MAX) {
            memcpy(buf + at, "...", 3);
            at += 3;
            break;
        }
        memcpy(buf + at, unit, k);
        at += k;
        i += used;
    }
    buf[at] = 0;
    return buf;
}

const char *cli_shown(const char *s) {
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), i = 0, used;
    char unit[5];

    while (i < n && shown_unit(u, n, i, unit, &used) == used && memcmp(unit, u + i, used) == 0)
        i += used;
    return i == n ? s : cli_shown_n(s, n); /* nothing to escape: s as it is, however long */
}

void cli_put_shown(FILE *f, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, used;
    char unit[5];

    while (i < n) {
        fwrite(unit, 1, shown_unit(u, n, i, unit, &used), f);
        i += used;
    }
}

/* >>names -------------------------------------------------------------------------------------- */
uint32_t *cli_attach_name_table(asmstore_reader *r) {
    size_t bytes = asmstore_reader_name_table_size(r) + 4; /* + 4: never malloc(0) */
    uint32_t *t = (uint32_t *)malloc(bytes);

    if (t && asmstore_reader_attach_name_table(r, t, bytes, NULL) != ASMSTORE_OK) {
        free(t);
        t = NULL;
    }
    return t;
}

/* >>json --------------------------------------------------------------------------------------- */
/* Quotes, backslashes and control characters are escaped, valid UTF-8 goes through as is, and each
   byte that does not start a valid UTF-8 sequence (stray continuation, overlong, surrogate,
   > U+10FFFF, truncated) becomes \ufffd, the replacement character, one per byte. */
void cli_json_string(FILE *f, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    fputc('"', f);
    while (i < n) {
        unsigned char c = u[i];
        size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

        if (c >= 0x80 && len <= n - i && asmstore_utf8_valid(u + i, len)) {
            fwrite(u + i, 1, len, f);
            i += len;
            continue;
        }
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (c < 0x80)
            fputc(c, f);
        else
            fputs("\\ufffd", f);
        i++;
    }
    fputc('"', f);
}

/* A document being written: one level per open object or array, each with its item count (for
   the commas). */
#define JSON_DEPTH 16
typedef struct json_doc {
    FILE *out;
    int depth;
    int lines; /* each array item on a line of its own, indented (a file people edit) */
    unsigned items[JSON_DEPTH];
    char closer[JSON_DEPTH];
} json_doc;

static json_doc json_report, json_file;
static FILE *json_stream; /* where reports go: stdout, or a capture (cli_json_out) */
static json_doc *doc = &json_report; /* where cli_json_* write */

/* The report on stdout: whether it is on, and the first failure noted for "error". */
static struct {
    int on;
    int wanted; /* the command line has --json: a failure before cli_json_begin still gets one */
    int noted, has_code, reported;
    asmstore_result code;
    char message[1200]; /* as much as cli_error keeps */
} json;

static void json_item(void) {
    int first = doc->items[doc->depth]++ == 0;

    if (doc->lines && doc->closer[doc->depth] == ']')
        fprintf(doc->out, "%s\n%*s", first ? "" : ",", 2 * doc->depth, "");
    else if (!first)
        fputs(", ", doc->out);
}

static void json_doc_begin(json_doc *d, FILE *out, int lines) {
    memset(d, 0, sizeof *d);
    d->out = out;
    d->lines = lines;
    d->closer[0] = '}';
    fputc('{', out);
    doc = d;
}

static void json_doc_end(void) {
    while (doc->depth > 0)
        cli_json_close();
    fputs("}\n", doc->out);
    doc = &json_report;
}

static void json_want(void) {
    json.wanted = 1;
}

/* The document's first fields; what was noted stays. */
static void json_head(const char *command) {
    json.on = 1;
    json_doc_begin(&json_report, json_stream ? json_stream : stdout, 0);
    cli_json_num("schema", CLI_JSON_SCHEMA);
    cli_json_str("command", command);
}

void cli_json_begin(const char *command) {
    int wanted = json.wanted;

    memset(&json, 0, sizeof json); /* a failure noted before is one the command went past */
    json.wanted = wanted;
    json_head(command);
}

int cli_json_on(void) {
    return json.on;
}

void cli_json_file_begin(FILE *f) {
    json_doc_begin(&json_file, f, 1);
}

void cli_json_file_end(void) {
    json_doc_end();
}

FILE *cli_json_out(FILE *f) {
    FILE *was = json_stream ? json_stream : stdout;

    json_stream = f;
    json_report.out = f;
    return was;
}

void cli_json_raw(const char *text, size_t n) {
    if (n) fwrite(text, 1, n, doc->out);
}

void cli_json_key(const char *key) {
    json_item();
    if (key)
        fprintf(doc->out, "\"%s\": ", key);
}

void cli_json_open(const char *key, char bracket) {
    cli_json_key(key);
    fputc(bracket, doc->out);
    if (doc->depth + 1 < JSON_DEPTH) {
        doc->depth++;
        doc->items[doc->depth] = 0;
        doc->closer[doc->depth] = bracket == '{' ? '}' : ']';
    }
}

void cli_json_close(void) {
    if (doc->depth > 0)
        fputc(doc->closer[doc->depth--], doc->out);
}

void cli_json_value(const char *s) {
    if (s)
        cli_json_string(doc->out, s, strlen(s));
    else
        fputs("null", doc->out);
}

void cli_json_str(const char *key, const char *s) {
    cli_json_key(key);
    cli_json_value(s);
}

void cli_json_strn(const char *key, const char *s, size_t n) {
    cli_json_key(key);
    if (s)
        cli_json_string(doc->out, s, n);
    else
        fputs("null", doc->out);
}

void cli_json_num(const char *key, unsigned long long n) {
    cli_json_key(key);
    fprintf(doc->out, "%llu", n);
}

void cli_json_num_or_null(const char *key, int have, unsigned long long n) {
    if (have)
        cli_json_num(key, n);
    else
        cli_json_null(key);
}

void cli_json_bool(const char *key, int b) {
    cli_json_key(key);
    fputs(b ? "true" : "false", doc->out);
}

void cli_json_null(const char *key) {
    cli_json_key(key);
    fputs("null", doc->out);
}

void cli_json_abi(const char *key, asmstore_abi abi) {
    cli_json_str(key, abi == ASMSTORE_ABI_UNKNOWN ? NULL : asmstore_abi_android_name(abi));
}

void cli_json_hex64(const char *key, int have, unsigned long long v) {
    cli_json_key(key);
    if (have)
        fprintf(doc->out, "\"%016llx\"", v);
    else
        fputs("null", doc->out);
}

void cli_json_note_error(int has_code, asmstore_result r, const char *message) {
    size_t n = strlen(message);

    if ((!json.on && !json.wanted) || json.noted)
        return; /* the first failure is the one the others follow from */
    json.noted = 1;
    json.has_code = has_code;
    json.code = r;
    while (n && message[n - 1] == '\n')
        n--;
    snprintf(json.message, sizeof json.message, "%.*s", (int)n, message);
}

void cli_json_reported(void) {
    json.reported = 1;
}

int cli_json_finish(int status) {
    if (!json.on && json.wanted && status && cli_current)
        json_head(cli_current->name); /* failed before its document began: a usage error */
    if (!json.on)
        return status;
    doc = &json_report;
    while (doc->depth > 0)
        cli_json_close();
    if (json.noted || status == 2 || (status == 1 && !json.reported)) {
        cli_json_open("error", '{');
        cli_json_num("status", (unsigned long long)status);
        cli_json_key("code");
        if (json.noted && json.has_code)
            fprintf(doc->out, "%d", (int)json.code);
        else
            fputs("null", doc->out);
        cli_json_str("message", json.noted    ? json.message
                                : status == 1 ? "the input is invalid or damaged (exit status 1)"
                                              : "a usage or I/O error (exit status 2)");
        cli_json_close();
    } else {
        cli_json_null("error");
    }
    json_doc_end();
    json.on = 0;
    return status;
}

/* >>optional parts ----------------------------------------------------------------------------- */
void cli_print_optional_parts(FILE *f) {
#ifdef ASMSTORE_CLI_LZ4
    const char *lz4 = "on";
#else
    const char *lz4 = "off";
#endif
#ifdef ASMSTORE_CLI_ZLIB
    const char *zlib = "on";
#else
    const char *zlib = "off";
#endif
#ifdef ASMSTORE_CLI_YARA
    const char *yara = "on";
#else
    const char *yara = "off";
#endif

    fprintf(f,
            "optional parts: liblz4 %s (writing LZ4 stores), zlib %s (DEFLATEd archive entries), "
            "libyara %s (scan --yara)\n",
            lz4, zlib, yara);
    fprintf(f, "built with: libzstd %s", ZSTD_versionString());
#ifdef ASMSTORE_CLI_LZ4
    fprintf(f, ", liblz4 %s", LZ4_versionString());
#endif
#ifdef ASMSTORE_CLI_ZLIB
    fprintf(f, ", zlib %s", zlibVersion());
#endif
    fprintf(f, ", %s (SHA-256, signing)", cli_os_crypto_version()); /* never optional */
#ifdef ASMSTORE_CLI_YARA
    fprintf(f, ", libyara %s", YR_VERSION);
#endif
    fputc('\n', f);
#ifdef ASMSTORE_CLI_STATIC /* make static: musl's static dlopen loads nothing */
    fprintf(f, "linked statically (musl): load --dlopen is not available\n");
#endif
}
