/* cli.h - what the asmstore CLI's translation units share: asmstore.c (core commands, the
   asmstore.h implementation), cli_cache.c (cache commands, the asmstore_cache.h implementation),
   cli_fs.c (writing files under a directory) and cli_r2r.c (ReadyToRun component stubs). */
#ifndef ASMSTORE_CLI_H
#define ASMSTORE_CLI_H
/* Every CLI source includes this first, before any system header. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
/* 64-bit off_t/ino_t on 32-bit hosts: otherwise readdir fails with EOVERFLOW on big filesystems */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif
#include "../asmstore.h"

/* Decompressor callback for XALZ (LZ4 block) images: liblz4 when built with ASMSTORE_CLI_LZ4,
   else ASMSTORE_ERR_UNSUPPORTED_COMPRESSION. (XAZS images are decompressed by the reader itself.) */
asmstore_result cli_decompress(void *user, asmstore_compression kind, void *dst, size_t cap, const void *src,
                               size_t src_size, size_t *written);

/* ---- errors (asmstore.c): every message says what failed and what to try ---- */
/* What to try after a result, as a clause ("copy it again: ..."); "" when nothing helps. */
const char *cli_result_hint(asmstore_result r);
/* "RESULT: what was checked (at offset N)" in buf: the library's message and offset only when err
   describes this result (some failures are the CLI's own, e.g. out of memory), the offset when not 0. */
const char *cli_failure(asmstore_result r, const asmstore_error *err, char *buf, size_t cap);
/* Prints "asmstore: WHAT: <cli_failure>; <what to try>" and returns the exit status the rule gives it:
   2 for I/O errors and memory, 1 for anything the input holds. err may be NULL. */
int cli_fail(const char *what, asmstore_result r, const asmstore_error *err);
/* cli_fail for a file asmstore_read_file could not read: a missing or unreadable file is an I/O error. */
int cli_fail_read(const char *path, asmstore_result r);
/* Prints that PATH holds no store (for ABI only, unless UNKNOWN): where it looked, what to try; returns 1. */
int cli_no_store(const char *path, asmstore_abi only);
/* Prints "asmstore: PATH: cannot DOING: <strerror(errno)>; <what to try>" and returns 2. */
int cli_fail_errno(const char *path, const char *doing);

/* ---- cli_input.c: a STORE argument opened into the stores it holds ---- */
#define CLI_MAX_UNITS 40
#define CLI_MAX_MAPS 16

/* One store found in the input: one file, one archive entry, one file of a format-1 set. */
typedef struct cli_unit {
    char label[256];          /* the file or archive entry it came from */
    asmstore_abi abi;         /* the ABI it serves (archive dir, format-1 file name, version word);
                                 UNKNOWN for a format-1 store 0, which serves every ABI */
    int selected;             /* asked for (others are context: a format-1 store 0, other ABIs) */
    const char *wrapper;      /* "raw", "elf-dlopen", "elf-section" */
    uint64_t payload_offset;  /* of the store inside the file or entry */
    int in_zip, deflated;     /* archive entry, and whether it had to be inflated */
    int from_split;           /* the entry is in split_config.<abi>.apk beside base.apk */
    asmstore_zip_entry zent;
    int has_manifest;         /* format 1: names come from assemblies.manifest */
    int opened;               /* the reader validated it; else res/err say why */
    asmstore_result res;
    asmstore_error err;
    asmstore_reader r;
    uint32_t *names;          /* the reader's name table */
} cli_unit;

typedef struct cli_input {
    const char *path;
    int archive;
    cli_unit units[CLI_MAX_UNITS];
    int n;
    struct { const unsigned char *p; size_t n; } maps[CLI_MAX_MAPS];
    int nmaps;
    void *owned[CLI_MAX_UNITS * 2]; /* inflated archive entries */
    int nowned;
} cli_input;

/* Opens PATH (raw store, .so, format-1 .blob or set directory, APK/AAB/split APK). `only` other than
   UNKNOWN deselects the other ABIs. Returns 0 when at least one store was found (each unit says
   whether it opened), 1 when the input holds no store, 2 on I/O errors. */
int cli_input_open(cli_input *in, const char *path, asmstore_abi only);
void cli_input_close(cli_input *in);
/* "format 3, CRC-32 index, dlopen wrapper: the .NET 11 CoreCLR layout" and the like. */
void cli_unit_release(const cli_unit *u, char *buf, size_t cap);
const char *cli_unit_runtime(const cli_unit *u);
/* The file name an entry is listed and extracted under (format 1: name + ".dll", or its hash). */
int cli_entry_filename(const cli_unit *u, const asmstore_entry *e, char *buf, size_t cap);

/* A name table for r (asmstore_reader_attach_name_table: O(1) entries, O(log n) lookups), malloc'd
   for the caller to free after the reader's last use; NULL when out of memory. (asmstore.c) */
uint32_t *cli_attach_name_table(asmstore_reader *r);

/* Maps a whole regular file read-only (an empty one gives NULL, 0): 0 mapped; 1 not there; 2 anything
   else, errno says why (EISDIR, EINVAL for a device or pipe). Undo with cli_unmap_file. (asmstore.c) */
int cli_map_file(const char *path, const unsigned char **data, size_t *size);
void cli_unmap_file(const unsigned char *data, size_t size);

/* Writing under a directory without ever following a symlink (cli_fs.c). */
/* Opens DIR (creating it, not its parents, when create) as a directory fd; DIR itself must not be a
   symlink. -1 with errno on failure. */
int cli_dir_open(const char *dir, int create);
/* Writes data as rootfd/relpath (mode set exactly), creating the directories between: each is
   opened with O_NOFOLLOW from the one above, the file goes to an O_EXCL temp file renamed within
   its directory. 0 written; 1 refused (an unsafe name: absolute, "." or "..", empty component,
   backslash; or a symlink or something other than a directory in the way); 2 I/O error (errno). */
int cli_write_under(int rootfd, const char *relpath, const void *data, size_t size, unsigned mode);

/* Compressor callback for XALZ: LZ4 HC into a raw block, as K4os LZ4Codec.Encode did (asmstore.c). */
asmstore_result cli_compress(void *user, asmstore_compression kind, int level, void *dst, size_t cap,
                             const void *src, size_t src_size, size_t *written);

/* ---- cli_r2r.c: ReadyToRun component stubs ---- */
/* When image (any bytes, read only inside [image, image + size)) is a PE file whose ReadyToRun header
   marks it a component stub (READYTORUN_FLAG_COMPONENT) and names its composite image (the
   OWNER_COMPOSITE_EXECUTABLE section), points *name at that file name inside image (name_len bytes,
   no NUL) and returns 1; else 0. CoreCLR aborts without a message when a stub's composite is missing. */
int cli_r2r_composite_owner(const void *image, size_t size, const char **name, size_t *name_len);

/* asmstore repack IN -o OUT ... (cli_repack.c): exit 0 written, 1 invalid input or refused change, 2 usage or I/O. */
int cli_cmd_repack(int argc, char **argv);

/* asmstore load ... / asmstore cache ... (cli_cache.c) */
int cli_cmd_load(int argc, char **argv);
int cli_cmd_cache(int argc, char **argv);
#endif
