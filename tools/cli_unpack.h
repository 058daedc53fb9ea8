/* cli_unpack.h - asmstore unpack (cli_unpack.c) and what repack --from takes from its folder: the
   settings file (cli_settings.h) checked against IN, and each entry's file compared with the
   SHA-256 unpack recorded. docs/unpack.md describes the folder and the file. */
#ifndef ASMSTORE_CLI_UNPACK_H
#define ASMSTORE_CLI_UNPACK_H
#include "cli_input.h"

/* >>from a folder ------------------------------------------------------------------------------ */
/* One entry whose file in the folder is not what unpack wrote, or whose level was edited. */
typedef struct cli_from_edit {
    const cli_unit *unit;
    uint32_t index; /* the entry's index in its store (an edit's) */
    char *name;  /* the entry, as list shows it */
    char *path;  /* its file in the folder; NULL when deleted (the entry is removed) */
    int level;   /* the settings file's, for a re-compressed image */
} cli_from_edit;

typedef struct cli_from {
    cli_from_edit *edits;
    int n;
    cli_from_edit *adds; /* files in a store's directory that no entry names: new assemblies */
    int nadd;
} cli_from;

/* Reads DIR's settings file, checks that it describes IN's stores (every field repack keeps; an
   edit it cannot honour is refused with what to do), then compares every entry's file with its
   recorded SHA-256. 0 with *f filled (cli_from_free), 1 refused (said on stderr), 2 I/O. */
int cli_from_read(const char *dir, const cli_input *in, cli_from *f);
void cli_from_free(cli_from *f);
#endif
