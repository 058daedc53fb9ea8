/* cli_settings.h - the settings file unpack writes and repack --from reads (cli_settings.c; the
   schema is docs/unpack.md's): a bounded JSON reader, then the file's stores and entries. Needs
   nothing but libc, so fuzz/fuzz_settings.c builds it alone. */
#ifndef ASMSTORE_CLI_SETTINGS_H
#define ASMSTORE_CLI_SETTINGS_H
#include <stddef.h>
#include <stdint.h>

#define CLI_SETTINGS_NAME "asmstore-unpack.json"
#define CLI_SETTINGS_SCHEMA 1
#define CLI_SETTINGS_MAX_SIZE (64u << 20) /* bytes: a store of 100,000 entries needs ~30 MiB */
#define CLI_SETTINGS_MAX_ENTRIES 100000u  /* in all stores: what unpack writes and --from reads */
/* values: an entry is 29 (its object, 14 keys and values), a store 25 and its entries' */
#define CLI_SETTINGS_MAX_VALUES (32u * CLI_SETTINGS_MAX_ENTRIES + 4096u)
#define CLI_SETTINGS_MAX_DEPTH 16
#define CLI_SETTINGS_MAX_STORES 40 /* CLI_MAX_UNITS: no input has more */

/* >>json --------------------------------------------------------------------------------------- */
typedef enum {
    CLI_JSON_NULL,
    CLI_JSON_FALSE,
    CLI_JSON_TRUE,
    CLI_JSON_NUMBER,
    CLI_JSON_STRING,
    CLI_JSON_ARRAY,
    CLI_JSON_OBJECT
} cli_json_type;

/* One value; an array's elements and an object's keys and values follow it in document order.
   32-bit fields (the text is at most 64 MiB): 20 bytes a value bound the reader's memory. */
typedef struct cli_json_node {
    cli_json_type type;
    uint32_t start, len; /* its text (a string's without the quotes) */
    uint32_t count;      /* an array's elements, an object's members */
    uint32_t next;       /* the node after this value and everything in it */
} cli_json_node;

typedef struct cli_json {
    const char *text;
    size_t size;
    cli_json_node *nodes; /* one malloc: one node per '[', '{', ',' and ':' of the text, and 1,
                             at most CLI_SETTINGS_MAX_VALUES */
    size_t n;
    size_t error_offset; /* where the text stops being JSON */
    char error[120];     /* what was expected there */
} cli_json;

/* Parses text[0..size) (RFC 8259; at most CLI_SETTINGS_MAX_SIZE bytes, CLI_SETTINGS_MAX_VALUES
   values and CLI_SETTINGS_MAX_DEPTH levels). 0, or -1 with error and error_offset set (nodes
   freed). cli_json_free undoes it. */
int cli_json_parse(cli_json *j, const char *text, size_t size);
void cli_json_free(cli_json *j);
/* The value of member key in object node obj, or 0 (node 0 is the document, never a member). */
size_t cli_json_get(const cli_json *j, size_t obj, const char *key);

/* >>settings ----------------------------------------------------------------------------------- */
/* Strings point into the settings' arena (NUL-terminated, decoded); NULL for null or absent. */
typedef struct cli_settings_entry {
    uint32_t index;             /* descriptor index: the entry's place in the store */
    const char *name;           /* as list shows it */
    const char *file;           /* its image under the store's directory; NULL when ignored */
    int has_descriptor_index;   /* a compressed image's header index */
    uint32_t descriptor_index;
    int has_mapping_index;
    uint32_t mapping_index;
    const char *compression;    /* "none", "lz4", "zstd" */
    int level;                  /* what a re-compressed image gets; 0 none */
    int ignored;
    uint64_t size;              /* uncompressed */
    const char *sha256;         /* of the uncompressed image, 64 hex digits */
    const char *pdb, *pdb_sha256, *config, *config_sha256;
} cli_settings_entry;

typedef struct cli_settings_store {
    const char *dir;            /* its directory under DIR: one path component */
    const char *source;         /* the file, archive entry or set file it came from */
    const char *abi;            /* "arm64-v8a", or NULL for a .NET 6-8 store 0 */
    const char *wrapper;        /* "raw", "elf-dlopen", "elf-section" */
    const char *hash;           /* asmstore_hash_name's, NULL when the format has none */
    const char *release;        /* info's words, for people */
    uint32_t format, version_word, store_id;
    uint64_t header_size, image_alignment;
    cli_settings_entry *entries;
    size_t nentries;
} cli_settings_store;

typedef struct cli_settings {
    const char *input;          /* IN's file name when unpacked */
    int archive;                /* IN was an APK/AAB */
    cli_settings_store stores[CLI_SETTINGS_MAX_STORES];
    size_t nstores;
    char *arena;                /* every string, one malloc */
    cli_settings_entry *all;    /* every entry, one malloc */
    char error[200];            /* why it was refused, with error_offset */
    size_t error_offset;
} cli_settings;

/* Reads a settings file's text: JSON, "schema" CLI_SETTINGS_SCHEMA, every member of the right type
   and in range, store directories and entry files safe relative names (no "..", no "/" at the
   start), at most CLI_SETTINGS_MAX_ENTRIES entries. Allocates beside the text at most its size
   (the strings) and about 75 MiB (the values, the entries). 0, or -1 with error and error_offset
   (the byte the problem is at) and nothing held. */
int cli_settings_parse(cli_settings *s, const char *text, size_t size);
void cli_settings_free(cli_settings *s);
#endif
