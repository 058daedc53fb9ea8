/* cli_input.h - a STORE argument of the asmstore CLI opened into the stores it holds (cli_input.c):
   a raw store or .so, a format-1 (.NET 6-8) set, an APK/AAB/split APK. */
#ifndef ASMSTORE_CLI_INPUT_H
#define ASMSTORE_CLI_INPUT_H
#include "cli.h"

#define CLI_MAX_UNITS 40
#define CLI_MAX_MAPS 16

/* >>units -------------------------------------------------------------------------------------- */
/* One store found in the input: one file, one archive entry, one file of a format-1 set. */
typedef struct cli_unit {
    char label[256];          /* the file or archive entry it came from */
    asmstore_abi abi;         /* the ABI it serves (archive dir, format-1 file name, version word);
                                 UNKNOWN for a format-1 store 0, which serves every ABI */
    int selected;             /* asked for (others are context: a format-1 store 0, other ABIs) */
    const char *wrapper;      /* "raw", "elf-dlopen", "elf-section" */
    int net12;                /* the .so is byte for byte what dotnet/android main's
                                 AssemblyStoreElfWriter writes (.NET 12: no app library) */
    uint64_t payload_offset;  /* of the store inside the file or entry */
    int in_zip;               /* an archive entry */
    int deflated;             /* the entry had to be inflated */
    int from_split;           /* the entry is in split_config.<abi>.apk beside base.apk */
    asmstore_zip_entry zent;
    int has_manifest;         /* format 1: names come from assemblies.manifest */
    int opened;               /* the reader validated it; else res/err say why */
    asmstore_result res;
    asmstore_error err;
    char detail[200];         /* an archive entry that could not be read: what was found */
    asmstore_reader r;
    uint32_t *names;          /* the reader's name table */
} cli_unit;

typedef struct cli_input {
    const char *path;
    int archive;
    cli_unit units[CLI_MAX_UNITS];
    int n;
    struct {
        const unsigned char *p;
        size_t n;
    } maps[CLI_MAX_MAPS];
    int nmaps;
    void *owned[CLI_MAX_UNITS * 2]; /* inflated archive entries */
    int nowned;
} cli_input;

/* >>opening ------------------------------------------------------------------------------------ */
/* Opens PATH (raw store, .so, format-1 .blob or set directory, APK/AAB/split APK). `only` other
   than UNKNOWN deselects the other ABIs. Returns 0 when at least one store was found (each unit
   says whether it opened), 1 when the input holds no store, 2 on I/O errors. */
int cli_input_open(cli_input *in, const char *path, asmstore_abi only);
/* cli_input_open, and on failure prints what was looked for (or why no selected store opened) and
   returns the exit status; 0 when at least one selected store opened. */
int cli_input_open_or_fail(cli_input *in, const char *path, asmstore_abi only);
void cli_input_close(cli_input *in);
/* Opens unit u's reader again over p[0..n) (a raw store or an ELF wrapper around one: the payload
   where a loader mapped it, say), with a new name table; u->opened and u->res say how it went. */
void cli_unit_reopen(cli_unit *u, const unsigned char *p, size_t n);
/* Prints why unit u could not be used on f; returns the exit status it stands for. */
int cli_unit_problem(const cli_input *in, const cli_unit *u, FILE *f);

/* >>words for what was found ------------------------------------------------------------------- */
/* "arm64-v8a", or "every ABI" for a format-1 store 0. */
const char *cli_unit_abi(const cli_unit *u);
/* "format 3, CRC-32 index, dlopen wrapper: the .NET 11 GA CoreCLR layout" and the like. */
#define CLI_NET12_LAYOUT "the .NET 12 CoreCLR layout (dotnet/android main)"
void cli_unit_release(const cli_unit *u, char *buf, size_t cap);
const char *cli_unit_runtime(const cli_unit *u);
/* The compression of the store's first compressed entry; NONE when none is. */
asmstore_compression cli_unit_compression(const cli_unit *u);
/* The image alignment the store was written with: 1 when every entry follows the one before
   directly (what releases write), else the largest power of two (up to 16 KiB) dividing every image
   offset (repack keeps it, diff compares it). */
size_t cli_unit_image_alignment(const cli_unit *u);
/* The file name an entry is listed and extracted under (format 1: name + ".dll", or its hash). */
int cli_entry_filename(const cli_unit *u, const asmstore_entry *e, char *buf, size_t cap);
/* The size of entry e's .config as the file it was: format 1 stores it with one NUL appended
   (docs/store-releases.md §2.3), which the writer appends again. 0 without one. */
size_t cli_entry_config_size(const cli_unit *u, const asmstore_entry *e);
/* Says in why[0..cap) how entry e's bytes (image: its uncompressed image) are not what it claims;
   0 when they are (asmstore_image_check_entry). */
int cli_image_problem(const asmstore_entry *e, const unsigned char *image, char *why, size_t cap);
/* An ABI as file names spell it: "arm64_v8a" (assemblies.arm64_v8a.blob, split_config.x86.apk). */
void cli_abi_file_name(asmstore_abi abi, char *buf, size_t cap);
#endif
