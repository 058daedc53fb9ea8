/* cli.h - the common part of the asmstore CLI (cli_common.c, which also holds the asmstore.h
   implementation): the running command's usage, option values, messages and their hints, mapped
   files, the codec callbacks, name tables, JSON strings and which optional parts were built in.
   Every CLI source includes this first, before any system header. The other shared parts have a
   header each: cli_input.h (a STORE argument), cli_fs.h (writing under a directory), cli_r2r.h
   (ReadyToRun stubs), cli_commands.h (the commands main dispatches to). */
#ifndef ASMSTORE_CLI_H
#define ASMSTORE_CLI_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* 64-bit off_t/ino_t on 32-bit hosts: otherwise readdir fails with EOVERFLOW on big filesystems */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif
#include "../asmstore.h"

#include <stdio.h>

/* >>usage -------------------------------------------------------------------------------------- */
/* One command of the table in asmstore.c. */
typedef struct cli_option cli_option;
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const cli_option *options; /* what its command line takes (cli_parse_next) */
    const char *usage;         /* its synopsis lines, then what it does */
    const char *example;       /* one command line using it */
} cli_command;

/* "Exit status: ..." the one rule every command follows. */
extern const char cli_exit_rule[];

/* The command about to run: cli_usage() shows its synopsis. */
void cli_begin(const cli_command *c);
void cli_print_usage(FILE *f, const cli_command *c);
/* Prints the running command's usage (or the general one) on stderr; returns 2. */
int cli_usage(void);

/* >>options ------------------------------------------------------------------------------------ */
/* Every command's command line goes through one parser with getopt_long's rules: --name VALUE and
   --name=VALUE, -o VALUE and -oVALUE, flags clustered (-hx), operands between options (handed back
   in order), "--" ends the options, a value is the next argument whatever it starts with. --help
   and -h are every command's (key 'h'), in no table. No abbreviations: --out is not --output. */
struct cli_option {
    const char *name;  /* the long form without its dashes: "output" is --output */
    int key;           /* the short form's letter ('o': -o), or above 255 for a long-only option */
    int nvalues;       /* 0 a flag, 1 --name VALUE, 2 --name VALUE VALUE (pack --arch ABI FILE) */
    const char *value; /* the values as help names them ("OUT"); a '|' list names every choice */
};

#define CLI_OPTIONS_END {NULL, 0, 0, NULL}

/* cli_parse_next's results besides an option's key. */
enum { CLI_OPERAND = 0, CLI_DONE = -1, CLI_BAD = -2 };

typedef struct cli_parser {
    int argc;
    char **argv;
    const cli_option *options; /* ends with CLI_OPTIONS_END */
    int k;                     /* the argument read next */
    int in_cluster;            /* inside argv[k]'s short flags, at argv[k] + in_cluster */
    int operands_only;         /* after "--" */
    const char *value;         /* the option's (first) value, or the operand */
    const char *value2;        /* an nvalues 2 option's second value */
    char spelled[64];          /* the option as given, for messages: "--output", "-o" */
    int quiet;                 /* no messages: cli_check_args reads on after a bad option */
} cli_parser;

void cli_parse_begin(cli_parser *p, int argc, char **argv, const cli_option *options);
/* The next argument: an option's key (its values in p->value, p->value2), CLI_OPERAND (the operand
   in p->value), CLI_DONE at the end, or CLI_BAD after saying on stderr which option is unknown,
   lacks its value or takes none. */
int cli_parse_next(cli_parser *p);
/* The whole command line against the running command's options, before it runs: -1 go on; 0 after
   printing the command's help (--help, -h); 2 after saying what is wrong with an option. */
int cli_check_args(int argc, char **argv);
/* Prints the command's help on f: usage, an example, its options, the exit status rule. */
void cli_print_help(FILE *f, const cli_command *c);
/* The value of an ABI option (--abi, --arch): 0 with *abi set, or 2 after saying it is unknown. */
int cli_abi_option(const char *option, const char *value, asmstore_abi *abi);
/* A whole number >= min (--jobs, --level): 0 with *n set, or 2 after saying what it takes. */
int cli_int_option(const char *option, const char *value, int min, int *n);

/* >>messages ----------------------------------------------------------------------------------- */
/* Every one says what failed and what to try. */
/* What to try after a result, as a clause ("copy it again: ..."); "" when nothing helps. */
const char *cli_result_hint(asmstore_result r);
/* "RESULT: what was checked (at offset N)" in buf: the library's message and offset only when err
   describes this result (some failures are the CLI's own, e.g. out of memory), the offset when not
   0. */
const char *cli_failure(asmstore_result r, const asmstore_error *err, char *buf, size_t cap);
/* The exit status a result stands for: 2 for I/O errors and memory, 1 for anything the input holds.
   */
int cli_status(asmstore_result r);
/* one when n is 1, else many: "1 entry", "2 entries". */
const char *cli_plural(unsigned long long n, const char *one, const char *many);
/* An entry's compression as list, diff, unpack's settings and --json spell it: "none", "lz4", "zstd". */
const char *cli_compression_name(asmstore_compression c);
/* Prints "asmstore: WHAT: <cli_failure>; <what to try>" and returns cli_status(r). err may be NULL.
   */
int cli_fail(const char *what, asmstore_result r, const asmstore_error *err);
/* cli_fail for a file asmstore_read_file could not read: a missing or unreadable file is an I/O
   error. */
int cli_fail_read(const char *path, asmstore_result r);
/* Prints that PATH holds no store (for ABI only, unless UNKNOWN): where it looked, what to try;
   returns 1. */
int cli_no_store(const char *path, asmstore_abi only);
/* Prints "asmstore: PATH: cannot DOING: <strerror(errno)>; <what to try>" and returns 2. */
int cli_fail_errno(const char *path, const char *doing);
#if defined(__GNUC__) || defined(__clang__)
#if defined(__MINGW_PRINTF_FORMAT) /* mingw-w64's own printf (__USE_MINGW_ANSI_STDIO): C99's %zu */
#define CLI_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#else
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif
#else
#define CLI_PRINTF(f, a)
#endif
/* The CLI's own refusal: prints "asmstore: <text>\n" on stderr and, with --json, makes the text the
   document's "error" (the first one noted wins), its code null. */
void cli_error(const char *fmt, ...) CLI_PRINTF(1, 2);
/* cli_error for a failure the library's result r stands for: "error"'s code is r. */
void cli_error_result(asmstore_result r, const char *fmt, ...) CLI_PRINTF(2, 3);

/* >>files -------------------------------------------------------------------------------------- */
/* Maps a whole regular file read-only (an empty one gives NULL, 0): 0 mapped; 1 not there; 2
   anything else, errno says why (EISDIR, EINVAL for a device or pipe). Undo with cli_unmap_file. */
int cli_map_file(const char *path, const unsigned char **data, size_t *size);
void cli_unmap_file(const unsigned char *data, size_t size);

/* >>bytes -------------------------------------------------------------------------------------- */
/* Little-endian integers of the ZIP, PE and signing records the CLI reads and writes (the header's
   own are not API); inline here, so that a file compiled alone (the fuzzers') has them too. */
static inline uint16_t cli_rd16(const unsigned char *p) {
    return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t cli_rd32(const unsigned char *p) {
    return (uint32_t)cli_rd16(p) | (uint32_t)cli_rd16(p + 2) << 16;
}
static inline uint64_t cli_rd64(const unsigned char *p) {
    return (uint64_t)cli_rd32(p) | (uint64_t)cli_rd32(p + 4) << 32;
}
static inline void cli_wr16(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static inline void cli_wr32(unsigned char *p, uint32_t v) {
    cli_wr16(p, v & 0xFFFFu);
    cli_wr16(p + 2, v >> 16);
}
static inline void cli_wr64(unsigned char *p, uint64_t v) {
    cli_wr32(p, (uint32_t)v);
    cli_wr32(p + 4, (uint32_t)(v >> 32));
}

/* >>codecs ------------------------------------------------------------------------------------- */
/* (Reading needs no callback: the reader decodes XALZ images with asmstore_lz4_decode and XAZS
   ones with libzstd.) Compressor callback for XALZ: LZ4 HC into a raw block, as K4os
   LZ4Codec.Encode did; built without liblz4 (ASMSTORE_CLI_LZ4):
   ASMSTORE_ERR_UNSUPPORTED_COMPRESSION. */
asmstore_result cli_compress(void *user, asmstore_compression kind, int level, void *dst,
                             size_t cap, const void *src, size_t src_size, size_t *written);

/* >>terminal text ------------------------------------------------------------------------------ */
/* Human output shows text from files (entry names, archive entry names, paths) through these, so
   a name cannot move the cursor, retitle the terminal or hide a line: each C0 control, DEL, C1
   control (U+0080-U+009F) and byte of invalid UTF-8 becomes \xHH, the rest stays as it is (--json
   escapes its own way). cli_shown gives s itself when nothing needs escaping, else (like
   cli_shown_n) one of 8 buffers used in turn, so up to 8 results may go to one printf; an escaped
   text longer than CLI_SHOWN_MAX bytes ends in "...". cli_put_shown writes all of s[0..n) to f. */
#define CLI_SHOWN_MAX 4096
const char *cli_shown(const char *s);
const char *cli_shown_n(const char *s, size_t n);
void cli_put_shown(FILE *f, const char *s, size_t n);

/* >>names -------------------------------------------------------------------------------------- */
/* A name table for r (asmstore_reader_attach_name_table: O(1) entries, O(log n) lookups), malloc'd
   for the caller to free after the reader's last use; NULL when out of memory. */
uint32_t *cli_attach_name_table(asmstore_reader *r);

/* >>json --------------------------------------------------------------------------------------- */
/* Writes n bytes as a JSON string, valid JSON whatever the bytes (see cli_common.c). */
void cli_json_string(FILE *f, const char *s, size_t n);

/* --json's one document on stdout (docs/json.md): {"schema": CLI_JSON_SCHEMA, "command": NAME,
   ...the command's fields..., "error": null or {"status", "code", "message"}}. cli_json_begin
   starts it; cli_error, cli_fail, cli_fail_errno and cli_no_store note their message for "error",
   and so do usage errors; main's cli_json_finish closes whatever is open, or prints the whole
   document for a command line with --json that failed before its document began, so the output
   is one valid document on every path. The field writers take the key (a literal, written as it is;
   NULL for an array's item) and put the commas. fuzz/fuzz_json.c reads back what any sequence of
   them writes. */
#define CLI_JSON_SCHEMA 1 /* raised when a field is removed or changes meaning */
void cli_json_begin(const char *command);
int cli_json_on(void);
/* A second document, into f (unpack's settings file), while the report waits: the field writers
   write there from cli_json_file_begin's '{' to cli_json_file_end's closing "}\n", each array item
   on a line of its own. */
void cli_json_file_begin(FILE *f);
void cli_json_file_end(void);
void cli_json_open(const char *key, char bracket); /* '{' or '['; 15 levels at most (4 used) */
void cli_json_close(void);
void cli_json_key(const char *key); /* the comma and "key": ; the caller writes the value */
/* Reports from now on go to f (a capture: scan --cache keeps a line's parts); returns the old. */
FILE *cli_json_out(FILE *f);
/* text, written before by this writer (from its ", " on) and kept, written again as it is. */
void cli_json_raw(const char *text, size_t n);
void cli_json_str(const char *key, const char *s); /* null for NULL */
void cli_json_strn(const char *key, const char *s, size_t n); /* s[0..n); null for NULL */
void cli_json_value(const char *s); /* s (null for NULL) alone: no comma, no key */
void cli_json_num(const char *key, unsigned long long n);
void cli_json_num_or_null(const char *key, int have, unsigned long long n); /* null when !have */
void cli_json_bool(const char *key, int b);
void cli_json_null(const char *key);
/* The APK's directory name (arm64-v8a, armeabi-v7a, x86_64, x86), null for no ABI. */
void cli_json_abi(const char *key, asmstore_abi abi);
/* A 64-bit value as 16 hex digits, null when the format has none (!have). */
void cli_json_hex64(const char *key, int have, unsigned long long v);
/* The failure "error" names: the library's result (has_code 0: the CLI's own) and the message. */
void cli_json_note_error(int has_code, asmstore_result r, const char *message);
/* The document holds the command's whole report, so an exit status 1 is what it found (verify,
   diff, elfcheck, extract's "missing"), not an error: "error" stays null unless one was noted. */
void cli_json_reported(void);
/* Ends the document begun (nothing when none was): "error" is the noted failure, else one for an
   exit status 2, or for 1 without cli_json_reported; returns status, the command's exit status. */
int cli_json_finish(int status);

/* >>optional parts ----------------------------------------------------------------------------- */
/* "liblz4 on, zlib off": which optional parts this asmstore was built with. */
void cli_print_optional_parts(FILE *f);
#endif
