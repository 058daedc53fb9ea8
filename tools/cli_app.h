/* cli_app.h - the app's own libxamarin-app.so beside a store (cli_app.c): found in the archive, the
   store's directory or named by --app FILE, read with asmstore_app_open, and compared with the
   store the way the runtime would compare them (docs/store-releases.md §3.3). */
#ifndef ASMSTORE_CLI_APP_H
#define ASMSTORE_CLI_APP_H
#include "cli.h"
#include "cli_input.h"

#define CLI_APP_LIBRARY "libxamarin-app.so"

/* >>finding ------------------------------------------------------------------------------------ */
/* One app library and what its table says. */
typedef struct cli_app {
    int found;                 /* it is there: label set; p, n too when read (res says why not:
                                  an I/O error for a file, errno why; the entry's result) */
    char label[1100];          /* where: "lib/x86_64/libxamarin-app.so" in the archive, or a path */
    const char *name;          /* in label: the archive entry, or the path under the store's
                                  directory ("lib/arm64-v8a/libxamarin-app.so") */
    const unsigned char *p;
    size_t n;
    const unsigned char *map;  /* a file of its own, mapped */
    unsigned char *owned;      /* a DEFLATEd archive entry, inflated */
    asmstore_result res;       /* asmstore_app_open's */
    asmstore_error err;
    asmstore_app_info info;
    unsigned char *patched;    /* cli_app_grow's copy (n bytes), NULL until a descriptor grew */
    asmstore_app_info patched_info;
    asmstore_error patch_err;
} cli_app;

/* The app library serving unit u of `in`: `path` (--app FILE) when not NULL, else the archive's
   [base/]lib/<abi>/libxamarin-app.so (any ABI for a format-1 store 0: every ABI's table is the
   same), else libxamarin-app.so in the store's directory (or lib/<abi>/ under it). Returns 0 with
   a->found set or not (nothing there), 2 when --app FILE cannot be read (said on stderr). */
int cli_app_find(cli_app *a, const cli_input *in, const cli_unit *u, const char *path);
void cli_app_close(cli_app *a);

/* >>agreement ---------------------------------------------------------------------------------- */
/* What the runtime's checks say of unit u's compressed entries against the table. */
typedef struct cli_app_agreement {
    uint32_t compressed;       /* compressed entries */
    uint32_t out_of_range;     /* descriptor index past the table */
    uint32_t too_large;        /* uncompressed size over the descriptor's */
    uint32_t bad_buffer;       /* descriptor's buffer out of place */
} cli_app_agreement;

/* Checks every compressed entry of u; prints each disagreement as "ENTRY: why" lines on f (NULL:
   nothing printed). Returns the number of disagreements. */
uint32_t cli_app_agree(const cli_app *a, const cli_unit *u, FILE *f, cli_app_agreement *out);
/* The largest uncompressed image the runtime accepts for descriptor `index` (in the patched copy
   once there is one): its size, 0 when the table has no such descriptor (or no table was read). */
uint32_t cli_app_limit(const cli_app *a, uint32_t index);

/* >>patching ----------------------------------------------------------------------------------- */
/* The libraries a store's entries load through: the store's own for formats 2-4; for a .NET 6-8
   set one per arch store's ABI (the set's descriptor indices span every ABI and each ABI's library
   holds the same table, so an entry that grows must grow in each). */
typedef struct cli_apps {
    cli_app app[CLI_MAX_UNITS];
    const cli_unit *unit[CLI_MAX_UNITS]; /* the store each library serves */
    int n;
    char missing[200]; /* why some store has no readable library of its own; "" when each has */
} cli_apps;

/* The libraries of unit u (formats 2-4), or with u NULL of the format-1 set in `in`. 0, or 2 when
   a library cannot be read (said on stderr). */
int cli_apps_find(cli_apps *s, const cli_input *in, const cli_unit *u);
void cli_apps_close(cli_apps *s);
/* cli_app_limit over every library: the smallest, 0 when one has no such descriptor. */
uint32_t cli_apps_limit(const cli_apps *s, uint32_t index);
/* Lets descriptor `index` hold `size` bytes in a patched copy of every library (asmstore_app_grow),
   all or none. 1 when they do; 0 with *why saying why they cannot be patched. */
int cli_apps_grow(cli_apps *s, uint32_t index, uint32_t size, const char **why);
/* Lets every library of s serve `slots` assemblies (asmstore_app_add_slots: CoreCLR only), all or
   none. 1 when they do; 0 with *why. */
int cli_apps_add_slots(cli_apps *s, uint32_t slots, const char **why);

/* >>showing ------------------------------------------------------------------------------------ */
/* info: the library, its table (one line per descriptor, with the entry using it) and whether it
   agrees with the store; --json: an "app_library" member (null when none was found). */
void cli_app_show(const cli_app *a, const cli_unit *u, int json);
#endif
