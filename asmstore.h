/* asmstore.h - v0.1.0 - the .NET for Android assembly store (XABA v2/v3/v4), single-header C library.
   MIT licence: see the end of this file.

   Do this:
       #define ASMSTORE_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the implementation.
   Every other file includes it without the define and gets the declarations only.

   WHAT IT DOES
     reader   validate a store held in memory once, look entries up by name (with or without the
              extension, satellite "fr/Foo.resources" names too), decompress XAZS (zstd) images into
              caller buffers; XALZ (LZ4) images go to a decompressor callback you supply.
     writer   add named images (memory or files, with optional pdb/config), compress them with zstd
              on N threads, emit byte-identical v2/v3/v4 stores for the monovm and coreclr profiles.
     files    atomic output (temp file + rename; identical targets left untouched).

   CONFIGURATION (define before the implementation include; defaults in brackets)
     ASMSTORE_STATIC               every function static to the including file   [extern]
     ASMSTORE_DEF                  storage/visibility of public functions        [extern / static]
     ASMSTORE_MALLOC/FREE          allocator used when no asmstore_allocator     [malloc/free]
     ASMSTORE_ASSERT(x)            programmer-error checks only                  [assert]
     ASMSTORE_NO_WRITER            drop the writer (reader-only builds, on-device hosts)
     ASMSTORE_NO_STDIO             drop everything that touches files (implies no add_file/write_file)
     ASMSTORE_NO_ZSTD              no libzstd: stored images, or the decompress callback, only
     ASMSTORE_NO_THREADS           the writer compresses on the calling thread only
     ASMSTORE_NO_ERROR_STRINGS     asmstore_result_string() returns terse codes
     ASMSTORE_MAX_ENTRY_SIZE       largest decompressed image accepted           [1 GiB]
     ASMSTORE_MAX_ENTRIES          largest entry_count accepted                  [1 << 20]
     ASMSTORE_MAX_NAME_LEN         longest entry name, bytes                     [1024]
     ASMSTORE_ZSTD_HEADER          how to include zstd                           [<zstd.h>]
     ASMSTORE_XXHASH_HEADER        how to include xxhash                         [<xxhash.h>]

   DEPENDENCIES
     libzstd (link -lzstd) unless ASMSTORE_NO_ZSTD; xxhash, included header-only with XXH_INLINE_ALL
     inside the implementation, so no XXH* symbol is exported; pthreads for the threaded writer.

   EXAMPLE (error handling shortened)
       asmstore_reader r;
       if (asmstore_reader_init(&r, data, size, NULL, NULL) != ASMSTORE_OK) return;
       asmstore_entry e;
       if (asmstore_reader_find(&r, "System.Runtime", 14, &e) == ASMSTORE_OK) {
           void *buf = malloc(e.uncompressed_size);
           asmstore_reader_read(&r, &e, buf, e.uncompressed_size, dctx, NULL);   // dctx: ZSTD_DCtx*
       }

   THREADS AND SAFETY
     A reader is read-only after asmstore_reader_init: any number of threads may share it (give each
     its own ZSTD_DCtx). The reader allocates nothing and keeps no global state. Every offset in the
     store is checked once at init; a store that passes cannot make a later call read outside it.
     A writer belongs to one thread at a time; it starts and joins its own worker threads inside
     asmstore_writer_finish.
*/
#ifndef ASMSTORE_H_INCLUDED
#define ASMSTORE_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define ASMSTORE_VERSION_MAJOR 0
#define ASMSTORE_VERSION_MINOR 1
#define ASMSTORE_VERSION_PATCH 0
#define ASMSTORE_VERSION_NUMBER (ASMSTORE_VERSION_MAJOR * 10000 + ASMSTORE_VERSION_MINOR * 100 + ASMSTORE_VERSION_PATCH)

#ifndef ASMSTORE_DEF
#ifdef ASMSTORE_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define ASMSTORE_DEF static __attribute__((unused)) /* a static copy need not use every function */
#else
#define ASMSTORE_DEF static
#endif
#else
#define ASMSTORE_DEF extern
#endif
#endif

#ifndef ASMSTORE_MAX_ENTRY_SIZE
#define ASMSTORE_MAX_ENTRY_SIZE ((size_t)1 << 30)
#endif
#ifndef ASMSTORE_MAX_ENTRIES
#define ASMSTORE_MAX_ENTRIES (1u << 20)
#endif
#ifndef ASMSTORE_MAX_NAME_LEN
#define ASMSTORE_MAX_NAME_LEN 1024u
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- format constants (store-format.md §1, §5) ---- */
#define ASMSTORE_MAGIC            0x41424158u /* "XABA" */
#define ASMSTORE_ZSTD_MAGIC       0x535A4158u /* "XAZS" */
#define ASMSTORE_LZ4_MAGIC        0x5A4C4158u /* "XALZ" */
#define ASMSTORE_FLAG_64BIT       0x80000000u
#define ASMSTORE_HEADER_SIZE_V2   20u
#define ASMSTORE_HEADER_SIZE_V4   28u
#define ASMSTORE_DESCRIPTOR_SIZE  28u
#define ASMSTORE_IMAGE_HEADER_SIZE 12u

/* ---- results: fixed values, never renumbered, new codes appended ---- */
#define ASMSTORE_RESULT_LIST(X) \
    X(OK,                       0, "ok") \
    X(ERR_INVALID_ARG,         -1, "invalid argument") \
    X(ERR_OUT_OF_MEMORY,       -2, "out of memory") \
    X(ERR_TRUNCATED,           -3, "data ends before the structure it must hold") \
    X(ERR_BAD_MAGIC,           -4, "bad magic (not an XABA store)") \
    X(ERR_BAD_VERSION,         -5, "unsupported version word (format number, ABI or 64-bit flag)") \
    X(ERR_CORRUPT,             -6, "corrupt data") \
    X(ERR_NOT_FOUND,           -7, "not found") \
    X(ERR_TOO_LARGE,           -8, "size over the configured or format limit") \
    X(ERR_BUFFER_TOO_SMALL,    -9, "output buffer too small") \
    X(ERR_DECOMPRESS,         -10, "decompression failed") \
    X(ERR_CHECKSUM,           -11, "checksum mismatch") \
    X(ERR_IO,                 -12, "I/O error") \
    X(ERR_UNSUPPORTED,        -13, "unsupported") \
    X(ERR_IGNORED,            -14, "entry exists but is marked ignored") \
    X(ERR_BAD_COUNTS,         -15, "entry counts inconsistent or over the limit") \
    X(ERR_BAD_INDEX_SIZE,     -16, "index size does not match entry count and entry size") \
    X(ERR_BAD_INDEX,          -17, "index unsorted or pointing past the descriptors") \
    X(ERR_BAD_DESCRIPTOR,     -18, "descriptor range (image, pdb or config) outside the store") \
    X(ERR_BAD_NAMES,          -19, "names table malformed") \
    X(ERR_BAD_HASH,           -20, "index hashes do not match the store's names") \
    X(ERR_UNSUPPORTED_COMPRESSION, -21, "unsupported compression (no decompressor for this image)") \
    X(ERR_BAD_NAME,           -22, "invalid entry name (empty, NUL, invalid UTF-8 or too long)") \
    X(ERR_DUPLICATE_NAME,     -23, "duplicate entry name") \
    X(ERR_SIZE_MISMATCH,      -24, "decompressed size differs from the image header") \
    X(ERR_BAD_ELF,            -25, "malformed ELF file") \
    X(ERR_NO_PAYLOAD,         -26, "no _assembly_store symbol or payload section") \
    X(ERR_BAD_ZIP,            -27, "malformed ZIP/APK archive") \
    X(ERR_ZIP_COMPRESSED,     -28, "archive entry is compressed (must be STORED)") \
    X(ERR_MISALIGNED,         -29, "archive entry data is not aligned (run zipalign)") \
    X(ERR_DLOPEN,             -30, "dlopen or dlsym failed") \
    X(ERR_PROFILE,            -31, "format not available for this runtime profile (coreclr needs format 3 or 4)") \
    X(ERR_ELF_RULE,           -32, "ELF file breaks a bionic loader rule") \
    X(ERR_ZIP_ENCRYPTED,      -33, "archive entry is encrypted") \
    X(ERR_ABI_MISMATCH,       -34, "ELF class/machine does not match the requested ABI")

typedef enum asmstore_result {
#define ASMSTORE__ENUM(name, value, text) ASMSTORE_##name = value,
    ASMSTORE_RESULT_LIST(ASMSTORE__ENUM)
#undef ASMSTORE__ENUM
} asmstore_result;
/* Values run 0, -1, -2 ... without gaps: the lowest is 1 - (number of codes). */
enum asmstore__result_count {
#define ASMSTORE__COUNT(name, value, text) ASMSTORE__COUNT_##name,
    ASMSTORE_RESULT_LIST(ASMSTORE__COUNT)
#undef ASMSTORE__COUNT
    ASMSTORE__RESULT_COUNT
};
#define ASMSTORE_RESULT_MIN (1 - (int)ASMSTORE__RESULT_COUNT)

/* Optional detail about a failure, filled by functions that take one (may be NULL). */
typedef struct asmstore_error {
    asmstore_result result;
    uint64_t offset;      /* byte offset in the input the problem was found at, or 0 */
    int64_t entry;        /* descriptor index involved, or -1 */
    int64_t backend_code; /* zstd error code or errno, or 0 */
} asmstore_error;

typedef enum asmstore_abi {
    ASMSTORE_ABI_UNKNOWN = 0,
    ASMSTORE_ABI_ARM64 = 1,  /* arm64-v8a   */
    ASMSTORE_ABI_ARM = 2,    /* armeabi-v7a */
    ASMSTORE_ABI_X86_64 = 3, /* x86_64      */
    ASMSTORE_ABI_X86 = 4     /* x86         */
} asmstore_abi;

typedef enum asmstore_hash_kind {
    ASMSTORE_HASH_UNKNOWN = 0,
    ASMSTORE_HASH_CRC32 = 1,  /* CoreCLR v4: IEEE CRC-32 */
    ASMSTORE_HASH_XXH32 = 2,  /* 32-bit ABIs, seed 0 */
    ASMSTORE_HASH_XXH3_64 = 3 /* 64-bit ABIs, seed 0 */
} asmstore_hash_kind;

typedef enum asmstore_runtime {
    ASMSTORE_RUNTIME_MONOVM = 0,
    ASMSTORE_RUNTIME_CORECLR = 1
} asmstore_runtime;

typedef enum asmstore_compression {
    ASMSTORE_COMPRESSION_NONE = 0,
    ASMSTORE_COMPRESSION_ZSTD = 1, /* XAZS */
    ASMSTORE_COMPRESSION_LZ4 = 2   /* XALZ: raw LZ4 block */
} asmstore_compression;

/* Allocator hooks; NULL members mean ASMSTORE_MALLOC/ASMSTORE_FREE. free receives the size. */
typedef struct asmstore_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} asmstore_allocator;

/* Decompressor callback: decompress src (the image after its 12-byte header) into dst, set *written.
   Used for XALZ images, and for XAZS images when set (then libzstd is not used). */
typedef asmstore_result (*asmstore_decompress_fn)(void *user, asmstore_compression kind, void *dst,
                                                  size_t dst_cap, const void *src, size_t src_size,
                                                  size_t *written);

/* Returns the static string for a result code ("?" for unknown values). */
ASMSTORE_DEF const char *asmstore_result_string(asmstore_result r);
/* Returns ASMSTORE_VERSION_NUMBER of the compiled implementation. */
ASMSTORE_DEF unsigned asmstore_version_number(void);
/* Names: "arm64", "arm", "x86_64", "x86"; Android dirs: "arm64-v8a", "armeabi-v7a", "x86_64", "x86". */
ASMSTORE_DEF const char *asmstore_abi_name(asmstore_abi abi);
ASMSTORE_DEF const char *asmstore_abi_android_name(asmstore_abi abi);
/* Parses either spelling above; returns ASMSTORE_ABI_UNKNOWN if neither. */
ASMSTORE_DEF asmstore_abi asmstore_abi_parse(const char *name);
ASMSTORE_DEF const char *asmstore_hash_name(asmstore_hash_kind kind);

/* The three name hashes, exactly as the format uses them (seed 0; CRC-32 of "" is 0xFFFFFFFF). */
ASMSTORE_DEF uint32_t asmstore_crc32(const void *data, size_t len);
ASMSTORE_DEF uint32_t asmstore_xxh32(const void *data, size_t len);
ASMSTORE_DEF uint64_t asmstore_xxh3_64(const void *data, size_t len);
/* Hash of one name with the given kind (32-bit kinds zero-extended). */
ASMSTORE_DEF uint64_t asmstore_name_hash(asmstore_hash_kind kind, const void *name, size_t len);

/* ================================ reader ================================ */

typedef struct asmstore_read_options {
    size_t max_entry_size;            /* 0: ASMSTORE_MAX_ENTRY_SIZE; largest decompressed image */
    uint32_t max_entries;             /* 0: ASMSTORE_MAX_ENTRIES */
    asmstore_decompress_fn decompress;/* XALZ images (and XAZS, when set); may be NULL */
    void *decompress_user;
} asmstore_read_options;

/* A validated store. Caller-owned, no destructor: it only points into the caller's bytes. */
typedef struct asmstore_reader {
    const unsigned char *data;
    size_t size;
    uint32_t version_word;
    uint32_t format;                 /* 2, 3 or 4 */
    asmstore_abi abi;
    int is_64bit;
    asmstore_hash_kind hash_kind;
    uint32_t entry_count;            /* descriptors (ignored ones included) */
    uint32_t index_entry_count;      /* 2 * entry_count */
    uint32_t index_entry_size;       /* 8, 9, 12 or 13 */
    uint32_t hash_size;              /* 4 or 8 */
    int has_content_id;              /* format 4 */
    uint64_t content_id;
    size_t header_size, index_offset, descriptors_offset, names_offset, data_offset;
    size_t max_entry_size;
    asmstore_decompress_fn decompress;
    void *decompress_user;
    const uint32_t *name_offsets;    /* optional table from asmstore_reader_attach_name_table */
} asmstore_reader;

/* One entry as the store describes it. Pointers point into the reader's bytes. */
typedef struct asmstore_entry {
    uint32_t index;                  /* descriptor index */
    uint32_t mapping_index;
    int ignored;                     /* a "X.ni.dll" placeholder: owns no bytes */
    const char *name;                /* NOT NUL-terminated */
    size_t name_len;
    const unsigned char *image;      /* stored bytes (with the 12-byte header when compressed) */
    size_t image_size;
    asmstore_compression compression;
    size_t uncompressed_size;        /* image_size when not compressed */
    const unsigned char *pdb;        /* NULL when absent */
    size_t pdb_size;
    const unsigned char *config;     /* NULL when absent */
    size_t config_size;
} asmstore_entry;

/* Validates the store in data[0..size) (header, version word, counts, index size and order,
   every descriptor range, the names table, the hash kind) and fills *r. Allocates nothing;
   the bytes must outlive the reader. opt and err may be NULL. */
ASMSTORE_DEF asmstore_result asmstore_reader_init(asmstore_reader *r, const void *data, size_t size,
                                                  const asmstore_read_options *opt, asmstore_error *err);

/* Bytes a name table for this store needs (entry_count * 4). */
ASMSTORE_DEF size_t asmstore_reader_name_table_size(const asmstore_reader *r);
/* Optional: fills caller memory with the offset of every name so lookups and asmstore_reader_entry
   are O(log n) / O(1) instead of walking the names table. The memory (4-byte aligned) must outlive
   the reader; the reader only reads it. */
ASMSTORE_DEF asmstore_result asmstore_reader_attach_name_table(asmstore_reader *r, uint32_t *table, size_t bytes);

/* Describes descriptor `index` (0 .. entry_count-1). */
ASMSTORE_DEF asmstore_result asmstore_reader_entry(const asmstore_reader *r, uint32_t index, asmstore_entry *out);

/* Looks a name up the way hosts ask: "Foo.dll", "Foo", "fr/Foo.resources.dll", "fr/Foo.resources".
   The name is checked, so a hash collision never returns another entry. Returns ASMSTORE_OK,
   ASMSTORE_ERR_NOT_FOUND, or ASMSTORE_ERR_IGNORED (the name exists as an ignored placeholder). */
ASMSTORE_DEF asmstore_result asmstore_reader_find(const asmstore_reader *r, const char *name, size_t name_len,
                                                  asmstore_entry *out);

/* Writes the entry's uncompressed image into dst[0..cap). Stored images are copied; XAZS images are
   decompressed with dctx (a ZSTD_DCtx* the caller owns; NULL makes zstd allocate one per call), after
   checking that the frame's content size equals the header's length and the reader's maximum;
   XALZ images go to the decompress callback, else ASMSTORE_ERR_UNSUPPORTED_COMPRESSION. */
struct ZSTD_DCtx_s;
ASMSTORE_DEF asmstore_result asmstore_reader_read(const asmstore_reader *r, const asmstore_entry *e, void *dst,
                                                  size_t cap, struct ZSTD_DCtx_s *dctx, asmstore_error *err);

/* ================================ writer ================================ */
#ifndef ASMSTORE_NO_WRITER

typedef struct asmstore_writer asmstore_writer;

typedef struct asmstore_write_options {
    asmstore_abi abi;                /* 0: arm64 */
    asmstore_runtime runtime;        /* 0: monovm */
    uint32_t format;                 /* 0: 4; 2, 3 or 4 */
    int level;                       /* zstd level 1..22; 0: 3 */
    int jobs;                        /* compression threads; 0: online CPUs */
    int no_compress;                 /* store every image uncompressed */
    size_t max_name_len;             /* 0: ASMSTORE_MAX_NAME_LEN */
    asmstore_allocator allocator;
    void (*progress)(void *user, size_t done, size_t total); /* after each entry, from a worker, serialised */
    void *progress_user;
} asmstore_write_options;

/* Per-entry flags for asmstore_writer_add*. */
#define ASMSTORE_ADD_UNCOMPRESSED 1u  /* store this image as is */

/* Creates a writer. Checks the profile: coreclr with format 2 gives ASMSTORE_ERR_PROFILE. */
ASMSTORE_DEF asmstore_result asmstore_writer_create(asmstore_writer **out, const asmstore_write_options *opt);
/* Adds a copy of image (and of the optional pdb/config) under `name` (e.g. "Foo.dll",
   "fr/Foo.resources.dll"). Rejects empty names, NUL bytes, invalid UTF-8, names over the limit
   and duplicates with their own codes. Under the coreclr profile an ignored "Foo.ni.dll" companion
   is added too. */
ASMSTORE_DEF asmstore_result asmstore_writer_add(asmstore_writer *w, const char *name, size_t name_len,
                                                 const void *image, size_t image_size,
                                                 const void *pdb, size_t pdb_size,
                                                 const void *config, size_t config_size, unsigned flags);
#ifndef ASMSTORE_NO_STDIO
/* As asmstore_writer_add with the bytes read from files; pdb_path/config_path may be NULL. */
ASMSTORE_DEF asmstore_result asmstore_writer_add_file(asmstore_writer *w, const char *name, const char *image_path,
                                                      const char *pdb_path, const char *config_path, unsigned flags);
#endif
/* Compresses (on opt->jobs threads) and lays out the store. *data stays owned by the writer and
   valid until asmstore_writer_free. Output bytes depend only on the entries and options, never on
   the thread count. Stores over 4 GiB give ASMSTORE_ERR_TOO_LARGE. */
ASMSTORE_DEF asmstore_result asmstore_writer_finish(asmstore_writer *w, const void **data, size_t *size);
/* Number of descriptors added so far (coreclr companions included). */
ASMSTORE_DEF size_t asmstore_writer_count(const asmstore_writer *w);
/* Frees the writer and everything it owns; NULL is fine. */
ASMSTORE_DEF void asmstore_writer_free(asmstore_writer *w);

#endif /* ASMSTORE_NO_WRITER */

/* ================================ files ================================ */
#ifndef ASMSTORE_NO_STDIO
/* Reads a whole file into memory from the allocator (NULL: default). Free with asmstore_free. */
ASMSTORE_DEF asmstore_result asmstore_read_file(const char *path, const asmstore_allocator *a, void **data, size_t *size);
/* Writes data to path atomically: temp file in the same directory, one write, explicit mode,
   rename. On failure the temp file is removed and the old file is untouched. If path already holds
   exactly these bytes it is left alone (mtime unchanged). */
ASMSTORE_DEF asmstore_result asmstore_write_file(const char *path, const void *data, size_t size, unsigned mode);
/* Gather variant: the file is the concatenation of n parts. */
ASMSTORE_DEF asmstore_result asmstore_write_file_parts(const char *path, const void *const *parts, const size_t *sizes,
                                                       size_t n, unsigned mode);
#endif
/* Frees memory returned by asmstore_read_file (and other *_alloc results) with the same allocator. */
ASMSTORE_DEF void asmstore_free(const asmstore_allocator *a, void *ptr, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_H_INCLUDED */

/* ######################################################################################## */
/* #                                   IMPLEMENTATION                                     # */
/* ######################################################################################## */
#ifdef ASMSTORE_IMPLEMENTATION
#ifndef ASMSTORE_IMPLEMENTATION_INCLUDED
#define ASMSTORE_IMPLEMENTATION_INCLUDED

/* >>config ------------------------------------------------------------------------------ */
#if defined(ASMSTORE_MALLOC) != defined(ASMSTORE_FREE)
#error "define both ASMSTORE_MALLOC and ASMSTORE_FREE, or neither"
#endif
#ifndef ASMSTORE_MALLOC
#include <stdlib.h>
#define ASMSTORE_MALLOC(sz) malloc(sz)
#define ASMSTORE_FREE(p) free(p)
#endif
#ifndef ASMSTORE_ASSERT
#include <assert.h>
#define ASMSTORE_ASSERT(x) assert(x)
#endif
#include <string.h>
#ifndef ASMSTORE_ZSTD_HEADER
#define ASMSTORE_ZSTD_HEADER <zstd.h>
#endif
#ifndef ASMSTORE_XXHASH_HEADER
#define ASMSTORE_XXHASH_HEADER <xxhash.h>
#endif
#ifndef ASMSTORE_NO_ZSTD
#include ASMSTORE_ZSTD_HEADER
#endif
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include ASMSTORE_XXHASH_HEADER

#if defined(__GNUC__) || defined(__clang__)
#define ASMSTORE__UNUSED __attribute__((unused))
#else
#define ASMSTORE__UNUSED
#endif
#define ASMSTORE__PRIVATE static ASMSTORE__UNUSED

#ifdef __cplusplus
extern "C" {
#endif

/* >>errors ------------------------------------------------------------------------------ */
ASMSTORE_DEF const char *asmstore_result_string(asmstore_result r) {
    switch (r) {
#ifndef ASMSTORE_NO_ERROR_STRINGS
#define ASMSTORE__STR(name, value, text) case ASMSTORE_##name: return text;
#else
#define ASMSTORE__STR(name, value, text) case ASMSTORE_##name: return #name;
#endif
    ASMSTORE_RESULT_LIST(ASMSTORE__STR)
#undef ASMSTORE__STR
    default: return "?";
    }
}

ASMSTORE_DEF unsigned asmstore_version_number(void) { return ASMSTORE_VERSION_NUMBER; }

/* Records a failure in the optional detail struct and returns the code. */
ASMSTORE__PRIVATE asmstore_result asmstore__fail(asmstore_error *err, asmstore_result r, uint64_t offset,
                                                 int64_t entry, int64_t backend) {
    if (err) { err->result = r; err->offset = offset; err->entry = entry; err->backend_code = backend; }
    return r;
}

/* >>alloc ------------------------------------------------------------------------------- */
ASMSTORE__PRIVATE void *asmstore__alloc(const asmstore_allocator *a, size_t size) {
    if (size == 0) size = 1;
    if (a && a->alloc) return a->alloc(a->user, size);
    return ASMSTORE_MALLOC(size);
}
ASMSTORE_DEF void asmstore_free(const asmstore_allocator *a, void *ptr, size_t size) {
    if (!ptr) return;
    if (a && a->free) a->free(a->user, ptr, size);
    else { (void)size; ASMSTORE_FREE(ptr); }
}

/* >>read-le ----------------------------------------------------------------------------- */
/* Little-endian field access that never casts mapped bytes to wider types: on little-endian hosts a
   memcpy (one unaligned load after optimisation), elsewhere byte shifts. Correct on big-endian and
   strict-alignment CPUs either way. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ASMSTORE__LE_HOST 1
#else
#define ASMSTORE__LE_HOST 0
#endif
ASMSTORE__PRIVATE uint16_t asmstore__rd16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
ASMSTORE__PRIVATE uint32_t asmstore__rd32(const unsigned char *p) {
#if ASMSTORE__LE_HOST
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}
ASMSTORE__PRIVATE uint64_t asmstore__rd64(const unsigned char *p) {
#if ASMSTORE__LE_HOST
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return (uint64_t)asmstore__rd32(p) | ((uint64_t)asmstore__rd32(p + 4) << 32);
#endif
}
ASMSTORE__PRIVATE void asmstore__wr16(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
ASMSTORE__PRIVATE void asmstore__wr32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}
ASMSTORE__PRIVATE void asmstore__wr64(unsigned char *p, uint64_t v) {
    asmstore__wr32(p, (uint32_t)v); asmstore__wr32(p + 4, (uint32_t)(v >> 32));
}
/* True when [off, off+len) lies inside [0, size). */
ASMSTORE__PRIVATE int asmstore__range_ok(uint64_t off, uint64_t len, uint64_t size) {
    return off <= size && len <= size - off;
}

/* >>hash -------------------------------------------------------------------------------- */
static const uint32_t asmstore__crc_table[256] = {
    0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu,
    0xe963a535u, 0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u,
    0x09b64c2bu, 0x7eb17cbdu, 0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u,
    0xf3b97148u, 0x84be41deu, 0x1adad47du, 0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u,
    0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu, 0x14015c4fu, 0x63066cd9u,
    0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u, 0xa2677172u,
    0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
    0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u,
    0x26d930acu, 0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u,
    0xcfba9599u, 0xb8bda50fu, 0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u,
    0x2f6f7c87u, 0x58684c11u, 0xc1611dabu, 0xb6662d3du, 0x76dc4190u, 0x01db7106u,
    0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu, 0x9fbfe4a5u, 0xe8b8d433u,
    0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu, 0x086d3d2du,
    0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
    0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u,
    0x8bbeb8eau, 0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u,
    0x4db26158u, 0x3ab551ceu, 0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u,
    0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au, 0x346ed9fcu, 0xad678846u, 0xda60b8d0u,
    0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u, 0x5005713cu, 0x270241aau,
    0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u, 0xce61e49fu,
    0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
    0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au,
    0xead54739u, 0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u,
    0x0d6d6a3eu, 0x7a6a5aa8u, 0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u,
    0xf00f9344u, 0x8708a3d2u, 0x1e01f268u, 0x6906c2feu, 0xf762575du, 0x806567cbu,
    0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u, 0x10da7a5au, 0x67dd4accu,
    0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u, 0xa1d1937eu,
    0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
    0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u,
    0x316e8eefu, 0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u,
    0xcc0c7795u, 0xbb0b4703u, 0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u,
    0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u, 0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du,
    0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au, 0x9c0906a9u, 0xeb0e363fu,
    0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu, 0x0cb61b38u,
    0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
    0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u,
    0x88085ae6u, 0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u,
    0x616bffd3u, 0x166ccf45u, 0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u,
    0xa7672661u, 0xd06016f7u, 0x4969474du, 0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu,
    0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u, 0x47b2cf7fu, 0x30b5ffe9u,
    0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u, 0xcdd70693u,
    0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
    0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
};

ASMSTORE_DEF uint32_t asmstore_crc32(const void *data, size_t len) {
    const unsigned char *p = (const unsigned char *)data;
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    if (len == 0) return 0xFFFFFFFFu; /* upstream's special case (store-format.md §2) */
    for (i = 0; i < len; i++) crc = asmstore__crc_table[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}
ASMSTORE_DEF uint32_t asmstore_xxh32(const void *data, size_t len) { return (uint32_t)XXH32(data, len, 0); }
ASMSTORE_DEF uint64_t asmstore_xxh3_64(const void *data, size_t len) { return (uint64_t)XXH3_64bits(data, len); }
ASMSTORE_DEF uint64_t asmstore_name_hash(asmstore_hash_kind kind, const void *name, size_t len) {
    switch (kind) {
    case ASMSTORE_HASH_CRC32: return asmstore_crc32(name, len);
    case ASMSTORE_HASH_XXH32: return asmstore_xxh32(name, len);
    case ASMSTORE_HASH_XXH3_64: return asmstore_xxh3_64(name, len);
    default: return 0;
    }
}

/* >>format ------------------------------------------------------------------------------ */
static const char *const asmstore__abi_names[5][2] = {
    {"unknown", "unknown"}, {"arm64", "arm64-v8a"}, {"arm", "armeabi-v7a"}, {"x86_64", "x86_64"}, {"x86", "x86"}};

ASMSTORE_DEF const char *asmstore_abi_name(asmstore_abi abi) {
    return asmstore__abi_names[(unsigned)abi <= 4u ? (unsigned)abi : 0u][0];
}
ASMSTORE_DEF const char *asmstore_abi_android_name(asmstore_abi abi) {
    return asmstore__abi_names[(unsigned)abi <= 4u ? (unsigned)abi : 0u][1];
}
ASMSTORE_DEF asmstore_abi asmstore_abi_parse(const char *name) {
    unsigned i;
    if (!name) return ASMSTORE_ABI_UNKNOWN;
    for (i = 1; i <= 4; i++)
        if (!strcmp(name, asmstore__abi_names[i][0]) || !strcmp(name, asmstore__abi_names[i][1])) return (asmstore_abi)i;
    if (!strcmp(name, "aarch64")) return ASMSTORE_ABI_ARM64;
    if (!strcmp(name, "armhf") || !strcmp(name, "armv7")) return ASMSTORE_ABI_ARM;
    if (!strcmp(name, "i386") || !strcmp(name, "i686")) return ASMSTORE_ABI_X86;
    return ASMSTORE_ABI_UNKNOWN;
}
ASMSTORE_DEF const char *asmstore_hash_name(asmstore_hash_kind kind) {
    switch (kind) {
    case ASMSTORE_HASH_CRC32: return "crc32";
    case ASMSTORE_HASH_XXH32: return "xxh32";
    case ASMSTORE_HASH_XXH3_64: return "xxh3-64";
    default: return "unknown";
    }
}
ASMSTORE__PRIVATE int asmstore__abi_is_64bit(asmstore_abi abi) {
    return abi == ASMSTORE_ABI_ARM64 || abi == ASMSTORE_ABI_X86_64;
}
/* Length of `name` without its last extension; the dot only counts after the last '/'. */
ASMSTORE__PRIVATE size_t asmstore__strip_ext_len(const char *name, size_t len) {
    size_t i = len;
    while (i > 0) {
        i--;
        if (name[i] == '/') break;
        if (name[i] == '.') return i;
    }
    return len;
}

/* >>reader ------------------------------------------------------------------------------ */
ASMSTORE__PRIVATE uint64_t asmstore__index_hash(const asmstore_reader *r, uint32_t i) {
    const unsigned char *p = r->data + r->index_offset + (size_t)i * r->index_entry_size;
    return r->hash_size == 8 ? asmstore__rd64(p) : asmstore__rd32(p);
}
ASMSTORE__PRIVATE uint32_t asmstore__index_descriptor(const asmstore_reader *r, uint32_t i) {
    return asmstore__rd32(r->data + r->index_offset + (size_t)i * r->index_entry_size + r->hash_size);
}
ASMSTORE__PRIVATE int asmstore__index_ignored(const asmstore_reader *r, uint32_t i) {
    return r->index_entry_size == r->hash_size + 5u &&
           r->data[r->index_offset + (size_t)i * r->index_entry_size + r->hash_size + 4u] != 0;
}
/* First index position whose hash is >= h. */
ASMSTORE__PRIVATE uint32_t asmstore__lower_bound(const asmstore_reader *r, uint64_t h) {
    uint32_t lo = 0, n = r->index_entry_count;
    while (n > 0) {
        uint32_t half = n / 2;
        if (asmstore__index_hash(r, lo + half) < h) { lo += half + 1; n -= half + 1; }
        else n = half;
    }
    return lo;
}
/* Offset of descriptor `index`'s name record (validated at init, so the walk stays in bounds). */
ASMSTORE__PRIVATE size_t asmstore__name_record(const asmstore_reader *r, uint32_t index) {
    size_t off = r->names_offset;
    uint32_t i;
    if (r->name_offsets) return r->name_offsets[index];
    for (i = 0; i < index; i++) off += 4u + asmstore__rd32(r->data + off);
    return off;
}
/* True when `want` names the stored entry: the same bytes, or the stored name minus its extension. */
ASMSTORE__PRIVATE int asmstore__name_matches(const char *want, size_t want_len, const unsigned char *stored, size_t stored_len) {
    if (want_len == stored_len) return memcmp(want, stored, want_len) == 0;
    return want_len < stored_len && asmstore__strip_ext_len((const char *)stored, stored_len) == want_len &&
           memcmp(want, stored, want_len) == 0;
}

ASMSTORE__PRIVATE int asmstore__find_hash(const asmstore_reader *r, uint64_t h, uint32_t desc) {
    uint32_t i = asmstore__lower_bound(r, h);
    for (; i < r->index_entry_count && asmstore__index_hash(r, i) == h; i++)
        if (asmstore__index_descriptor(r, i) == desc) return 1;
    return 0;
}

/* Does name record `name` of descriptor `desc` hash (with `kind`) into the index? */
ASMSTORE__PRIVATE int asmstore__hash_kind_fits(const asmstore_reader *r, asmstore_hash_kind kind,
                                              const unsigned char *name, size_t len, uint32_t desc) {
    size_t base = asmstore__strip_ext_len((const char *)name, len);
    return asmstore__find_hash(r, asmstore_name_hash(kind, name, len), desc) &&
           asmstore__find_hash(r, asmstore_name_hash(kind, name, base), desc);
}

ASMSTORE_DEF asmstore_result asmstore_reader_init(asmstore_reader *r, const void *data, size_t size,
                                                  const asmstore_read_options *opt, asmstore_error *err) {
    const unsigned char *p = (const unsigned char *)data;
    uint32_t magic, abi, entry_count, index_entry_count, index_size, i, max_entries;
    uint64_t off, names_end, first_data = UINT64_MAX;
    asmstore_reader z;
    if (err) { err->result = ASMSTORE_OK; err->offset = 0; err->entry = -1; err->backend_code = 0; }
    if (!r || (!data && size)) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    memset(&z, 0, sizeof z);
    *r = z;
    if (size < ASMSTORE_HEADER_SIZE_V2) return asmstore__fail(err, size < 4 ? ASMSTORE_ERR_TRUNCATED : (asmstore__rd32(p) == ASMSTORE_MAGIC ? ASMSTORE_ERR_TRUNCATED : ASMSTORE_ERR_BAD_MAGIC), 0, -1, 0);
    magic = asmstore__rd32(p);
    if (magic != ASMSTORE_MAGIC) return asmstore__fail(err, ASMSTORE_ERR_BAD_MAGIC, 0, -1, 0);
    r->data = p;
    r->size = size;
    r->version_word = asmstore__rd32(p + 4);
    r->format = r->version_word & 0xFFFFu;
    abi = (r->version_word >> 16) & 0xFFu;
    r->is_64bit = (r->version_word & ASMSTORE_FLAG_64BIT) != 0;
    if (r->format < 2 || r->format > 4 || abi < 1 || abi > 4 || (r->version_word & 0x7F000000u) ||
        r->is_64bit != asmstore__abi_is_64bit((asmstore_abi)abi))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_VERSION, 4, -1, 0);
    r->abi = (asmstore_abi)abi;
    r->header_size = r->format >= 4 ? ASMSTORE_HEADER_SIZE_V4 : ASMSTORE_HEADER_SIZE_V2;
    if (size < r->header_size) return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, 0, -1, 0);
    entry_count = asmstore__rd32(p + 8);
    index_entry_count = asmstore__rd32(p + 12);
    index_size = asmstore__rd32(p + 16);
    if (r->format >= 4) { r->has_content_id = 1; r->content_id = asmstore__rd64(p + 20); }
    max_entries = (opt && opt->max_entries) ? opt->max_entries : ASMSTORE_MAX_ENTRIES;
    if (entry_count > max_entries || (uint64_t)index_entry_count != 2u * (uint64_t)entry_count)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_COUNTS, 8, -1, 0);
    r->entry_count = entry_count;
    r->index_entry_count = index_entry_count;
    /* entry size from the index: v2 8/12, v3/v4 9/13 */
    if (index_entry_count == 0) {
        if (index_size != 0) return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX_SIZE, 16, -1, 0);
        r->index_entry_size = (r->format == 2 ? 4u : 5u) + (r->is_64bit ? 8u : 4u);
    } else {
        uint32_t es = index_size / index_entry_count;
        int ok = (uint64_t)es * index_entry_count == index_size &&
                 (r->format == 2 ? (es == 8 || es == 12) : (es == 9 || es == 13));
        if (!ok) return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX_SIZE, 16, -1, 0);
        r->index_entry_size = es;
    }
    r->hash_size = (r->index_entry_size == 12 || r->index_entry_size == 13) ? 8u : 4u;
    if (r->hash_size == 8 && !r->is_64bit) return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX_SIZE, 16, -1, 0);
    r->index_offset = r->header_size;
    off = (uint64_t)r->header_size + index_size;
    if (!asmstore__range_ok(r->header_size, index_size, size)) return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, r->header_size, -1, 0);
    r->descriptors_offset = (size_t)off;
    if (!asmstore__range_ok(off, (uint64_t)entry_count * ASMSTORE_DESCRIPTOR_SIZE, size))
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, off, -1, 0);
    off += (uint64_t)entry_count * ASMSTORE_DESCRIPTOR_SIZE;
    r->names_offset = (size_t)off;
    /* names: entry_count length-prefixed records */
    for (i = 0; i < entry_count; i++) {
        uint32_t len;
        if (!asmstore__range_ok(off, 4, size)) return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, off, i, 0);
        len = asmstore__rd32(p + off);
        if (len == 0 || len > ASMSTORE_MAX_NAME_LEN || !asmstore__range_ok(off + 4, len, size))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, off, i, 0);
        if (memchr(p + off + 4, 0, len)) return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, off, i, 0);
        off += 4u + len;
    }
    names_end = off;
    /* index: sorted, descriptor indices in range */
    for (i = 0; i < index_entry_count; i++) {
        if (asmstore__index_descriptor(r, i) >= entry_count) return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, r->index_offset + (uint64_t)i * r->index_entry_size, -1, 0);
        if (i > 0 && asmstore__index_hash(r, i - 1) > asmstore__index_hash(r, i))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, r->index_offset + (uint64_t)i * r->index_entry_size, -1, 0);
    }
    /* descriptors: every range inside the store and after the names */
    for (i = 0; i < entry_count; i++) {
        const unsigned char *d = p + r->descriptors_offset + (size_t)i * ASMSTORE_DESCRIPTOR_SIZE;
        int k;
        for (k = 0; k < 3; k++) {
            uint64_t o = asmstore__rd32(d + 4 + 8 * k), n = asmstore__rd32(d + 8 + 8 * k);
            if (n == 0) continue;
            if (o < names_end || !asmstore__range_ok(o, n, size))
                return asmstore__fail(err, ASMSTORE_ERR_BAD_DESCRIPTOR, r->descriptors_offset + (uint64_t)i * ASMSTORE_DESCRIPTOR_SIZE, i, 0);
            if (k == 0 && o < first_data) first_data = o;
        }
    }
    r->data_offset = (size_t)(first_data == UINT64_MAX ? names_end : first_data);
    if (first_data != UINT64_MAX && first_data != names_end) {
        /* the writer places data right after the names; anything else is not a store we understand */
        return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, names_end, -1, 0);
    }
    /* hash kind: from the layout, or (32-bit v4) from the store's own first name */
    if (r->hash_size == 8) r->hash_kind = ASMSTORE_HASH_XXH3_64;
    else if (r->format < 4) r->hash_kind = ASMSTORE_HASH_XXH32;
    else if (r->is_64bit) r->hash_kind = ASMSTORE_HASH_CRC32;
    else r->hash_kind = ASMSTORE_HASH_UNKNOWN;
    if (entry_count > 0) {
        const unsigned char *n0 = p + r->names_offset + 4;
        size_t l0 = asmstore__rd32(p + r->names_offset);
        if (r->hash_kind == ASMSTORE_HASH_UNKNOWN) {
            if (asmstore__hash_kind_fits(r, ASMSTORE_HASH_CRC32, n0, l0, 0)) r->hash_kind = ASMSTORE_HASH_CRC32;
            else if (asmstore__hash_kind_fits(r, ASMSTORE_HASH_XXH32, n0, l0, 0)) r->hash_kind = ASMSTORE_HASH_XXH32;
        } else if (!asmstore__hash_kind_fits(r, r->hash_kind, n0, l0, 0)) {
            r->hash_kind = ASMSTORE_HASH_UNKNOWN;
        }
        if (r->hash_kind == ASMSTORE_HASH_UNKNOWN) return asmstore__fail(err, ASMSTORE_ERR_BAD_HASH, r->index_offset, 0, 0);
    } else if (r->hash_kind == ASMSTORE_HASH_UNKNOWN) {
        r->hash_kind = ASMSTORE_HASH_CRC32; /* empty 32-bit v4 store: nothing to look up either way */
    }
    r->max_entry_size = (opt && opt->max_entry_size) ? opt->max_entry_size : ASMSTORE_MAX_ENTRY_SIZE;
    if (opt) { r->decompress = opt->decompress; r->decompress_user = opt->decompress_user; }
    return ASMSTORE_OK;
}

ASMSTORE_DEF size_t asmstore_reader_name_table_size(const asmstore_reader *r) {
    return r ? (size_t)r->entry_count * sizeof(uint32_t) : 0;
}

ASMSTORE_DEF asmstore_result asmstore_reader_attach_name_table(asmstore_reader *r, uint32_t *table, size_t bytes) {
    size_t off;
    uint32_t i;
    if (!r || !r->data || (!table && r->entry_count) || bytes < asmstore_reader_name_table_size(r))
        return ASMSTORE_ERR_INVALID_ARG;
    if (r->size > UINT32_MAX) return ASMSTORE_ERR_TOO_LARGE;
    off = r->names_offset;
    for (i = 0; i < r->entry_count; i++) {
        table[i] = (uint32_t)off;
        off += 4u + asmstore__rd32(r->data + off);
    }
    r->name_offsets = table;
    return ASMSTORE_OK;
}

/* Fills *out for descriptor `index` whose name record starts at `name_off`. */
ASMSTORE__PRIVATE void asmstore__describe(const asmstore_reader *r, uint32_t index, size_t name_off, int ignored, asmstore_entry *out) {
    const unsigned char *d = r->data + r->descriptors_offset + (size_t)index * ASMSTORE_DESCRIPTOR_SIZE;
    uint32_t o = asmstore__rd32(d + 4), n = asmstore__rd32(d + 8);
    memset(out, 0, sizeof *out);
    out->index = index;
    out->mapping_index = asmstore__rd32(d);
    out->name_len = asmstore__rd32(r->data + name_off);
    out->name = (const char *)(r->data + name_off + 4);
    out->ignored = ignored;
    if (n) { out->image = r->data + o; out->image_size = n; }
    out->uncompressed_size = out->image_size;
    if (n >= ASMSTORE_IMAGE_HEADER_SIZE) {
        uint32_t m = asmstore__rd32(out->image);
        if (m == ASMSTORE_ZSTD_MAGIC || m == ASMSTORE_LZ4_MAGIC) {
            out->compression = m == ASMSTORE_ZSTD_MAGIC ? ASMSTORE_COMPRESSION_ZSTD : ASMSTORE_COMPRESSION_LZ4;
            out->uncompressed_size = asmstore__rd32(out->image + 8);
        }
    }
    if (asmstore__rd32(d + 16)) { out->pdb = r->data + asmstore__rd32(d + 12); out->pdb_size = asmstore__rd32(d + 16); }
    if (asmstore__rd32(d + 24)) { out->config = r->data + asmstore__rd32(d + 20); out->config_size = asmstore__rd32(d + 24); }
}

ASMSTORE_DEF asmstore_result asmstore_reader_entry(const asmstore_reader *r, uint32_t index, asmstore_entry *out) {
    int ignored = 0;
    uint32_t i;
    if (!r || !r->data || !out) return ASMSTORE_ERR_INVALID_ARG;
    if (index >= r->entry_count) return ASMSTORE_ERR_NOT_FOUND;
    /* an entry is ignored when its index entries say so; both point here, so look one up by hash */
    {
        size_t noff = asmstore__name_record(r, index);
        size_t nlen = asmstore__rd32(r->data + noff);
        uint64_t h = asmstore_name_hash(r->hash_kind, r->data + noff + 4, nlen);
        for (i = asmstore__lower_bound(r, h); i < r->index_entry_count && asmstore__index_hash(r, i) == h; i++)
            if (asmstore__index_descriptor(r, i) == index) { ignored = asmstore__index_ignored(r, i); break; }
        asmstore__describe(r, index, noff, ignored, out);
    }
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_reader_find(const asmstore_reader *r, const char *name, size_t name_len,
                                                  asmstore_entry *out) {
    uint64_t h;
    uint32_t i, found_i = 0, found_d = 0;
    size_t found_off = 0;
    int found = 0;
    if (!r || !r->data || (!name && name_len)) return ASMSTORE_ERR_INVALID_ARG;
    if (name_len == 0) return ASMSTORE_ERR_NOT_FOUND;
    h = asmstore_name_hash(r->hash_kind, name, name_len);
    /* among the entries with this hash, an exact name wins over a name minus its extension
       ("A" must not resolve to "A.dll" when "A" exists); otherwise the first such match */
    for (i = asmstore__lower_bound(r, h); i < r->index_entry_count && asmstore__index_hash(r, i) == h; i++) {
        uint32_t d = asmstore__index_descriptor(r, i);
        size_t noff = asmstore__name_record(r, d), nlen = asmstore__rd32(r->data + noff);
        if (!asmstore__name_matches(name, name_len, r->data + noff + 4, nlen)) continue;
        if (nlen != name_len && !found) { found = 1; found_i = i; found_d = d; found_off = noff; }
        if (nlen == name_len) { found = 2; found_i = i; found_d = d; found_off = noff; break; }
    }
    if (!found) return ASMSTORE_ERR_NOT_FOUND;
    if (asmstore__index_ignored(r, found_i)) return ASMSTORE_ERR_IGNORED;
    if (out) asmstore__describe(r, found_d, found_off, 0, out);
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_reader_read(const asmstore_reader *r, const asmstore_entry *e, void *dst,
                                                  size_t cap, struct ZSTD_DCtx_s *dctx, asmstore_error *err) {
    const unsigned char *src;
    size_t src_size, written = 0;
    int64_t ix;
    asmstore_result res;
    if (!r || !e || (!dst && cap)) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    ix = (int64_t)e->index;
    if (e->ignored || !e->image) return asmstore__fail(err, ASMSTORE_ERR_IGNORED, 0, ix, 0);
    /* the entry may come from the caller: never trust its pointers beyond our own buffer */
    if (e->image < r->data || !asmstore__range_ok((uint64_t)(e->image - r->data), e->image_size, r->size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, ix, 0);
    if (e->uncompressed_size > r->max_entry_size) return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, (uint64_t)(e->image - r->data), ix, 0);
    if (cap < e->uncompressed_size) return asmstore__fail(err, ASMSTORE_ERR_BUFFER_TOO_SMALL, 0, ix, 0);
    if (e->compression == ASMSTORE_COMPRESSION_NONE) {
        if (e->image_size) memcpy(dst, e->image, e->image_size);
        return ASMSTORE_OK;
    }
    src = e->image + ASMSTORE_IMAGE_HEADER_SIZE;
    src_size = e->image_size - ASMSTORE_IMAGE_HEADER_SIZE;
    if (r->decompress) {
        res = r->decompress(r->decompress_user, e->compression, dst, e->uncompressed_size, src, src_size, &written);
        if (res != ASMSTORE_OK) return asmstore__fail(err, res, (uint64_t)(e->image - r->data), ix, 0);
    } else if (e->compression != ASMSTORE_COMPRESSION_ZSTD) {
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED_COMPRESSION, (uint64_t)(e->image - r->data), ix, 0);
    } else {
#ifdef ASMSTORE_NO_ZSTD
        (void)dctx;
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED_COMPRESSION, (uint64_t)(e->image - r->data), ix, 0);
#else
        unsigned long long fcs = ZSTD_getFrameContentSize(src, src_size);
        size_t z;
        if (fcs == ZSTD_CONTENTSIZE_ERROR || fcs == ZSTD_CONTENTSIZE_UNKNOWN)
            return asmstore__fail(err, ASMSTORE_ERR_DECOMPRESS, (uint64_t)(src - r->data), ix, 0);
        if (fcs != (unsigned long long)e->uncompressed_size)
            return asmstore__fail(err, ASMSTORE_ERR_SIZE_MISMATCH, (uint64_t)(src - r->data), ix, 0);
        z = dctx ? ZSTD_decompressDCtx(dctx, dst, e->uncompressed_size, src, src_size)
                 : ZSTD_decompress(dst, e->uncompressed_size, src, src_size);
        if (ZSTD_isError(z)) return asmstore__fail(err, ASMSTORE_ERR_DECOMPRESS, (uint64_t)(src - r->data), ix, (int64_t)(0 - z) /* zstd error code */);
        written = z;
#endif
    }
    if (written != e->uncompressed_size) return asmstore__fail(err, ASMSTORE_ERR_SIZE_MISMATCH, (uint64_t)(e->image - r->data), ix, 0);
    return ASMSTORE_OK;
}

/* >>files ------------------------------------------------------------------------------- */
#ifndef ASMSTORE_NO_STDIO
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* read() until len bytes or EOF, retrying EINTR; returns bytes read or -1. */
ASMSTORE__PRIVATE long long asmstore__read_full(int fd, void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, (char *)buf + done, len - done);
        if (n < 0) { if (errno == EINTR) continue; return -1; }
        if (n == 0) break;
        done += (size_t)n;
    }
    return (long long)done;
}
ASMSTORE__PRIVATE int asmstore__write_full(int fd, const void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, (const char *)buf + done, len - done);
        if (n < 0) { if (errno == EINTR) continue; return -1; }
        done += (size_t)n;
    }
    return 0;
}

ASMSTORE_DEF asmstore_result asmstore_read_file(const char *path, const asmstore_allocator *a, void **data, size_t *size) {
    struct stat st;
    int fd;
    void *buf;
    long long n;
    if (!path || !data || !size) return ASMSTORE_ERR_INVALID_ARG;
    *data = NULL; *size = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? ASMSTORE_ERR_NOT_FOUND : ASMSTORE_ERR_IO;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return ASMSTORE_ERR_IO; }
    if ((unsigned long long)st.st_size > (unsigned long long)(SIZE_MAX / 2)) { close(fd); return ASMSTORE_ERR_TOO_LARGE; }
    buf = asmstore__alloc(a, (size_t)st.st_size);
    if (!buf) { close(fd); return ASMSTORE_ERR_OUT_OF_MEMORY; }
    n = asmstore__read_full(fd, buf, (size_t)st.st_size);
    close(fd);
    if (n != (long long)st.st_size) { asmstore_free(a, buf, (size_t)st.st_size); return ASMSTORE_ERR_IO; }
    *data = buf;
    *size = (size_t)st.st_size;
    return ASMSTORE_OK;
}

/* Does the file at path hold exactly the concatenated parts? */
ASMSTORE__PRIVATE int asmstore__file_equals(const char *path, const void *const *parts, const size_t *sizes, size_t n) {
    unsigned char buf[65536];
    struct stat st;
    size_t total = 0, i, off;
    int fd, same = 1;
    for (i = 0; i < n; i++) total += sizes[i];
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size != (unsigned long long)total) { close(fd); return 0; }
    for (i = 0; i < n && same; i++) {
        for (off = 0; off < sizes[i] && same;) {
            size_t want = sizes[i] - off < sizeof buf ? sizes[i] - off : sizeof buf;
            if (asmstore__read_full(fd, buf, want) != (long long)want || memcmp(buf, (const char *)parts[i] + off, want) != 0) same = 0;
            off += want;
        }
    }
    close(fd);
    return same;
}

ASMSTORE_DEF asmstore_result asmstore_write_file_parts(const char *path, const void *const *parts, const size_t *sizes,
                                                       size_t n, unsigned mode) {
    size_t plen, i;
    char *tmp;
    int fd, ok = 1, saved;
    if (!path || (!parts && n) || (!sizes && n) || !*path) return ASMSTORE_ERR_INVALID_ARG;
    if (asmstore__file_equals(path, parts, sizes, n)) return ASMSTORE_OK;
    plen = strlen(path);
    tmp = (char *)asmstore__alloc(NULL, plen + 16);
    if (!tmp) return ASMSTORE_ERR_OUT_OF_MEMORY;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    fd = mkstemp(tmp);
    if (fd < 0) { saved = errno; asmstore_free(NULL, tmp, plen + 16); (void)saved; return ASMSTORE_ERR_IO; }
    for (i = 0; i < n && ok; i++) if (sizes[i] && asmstore__write_full(fd, parts[i], sizes[i]) != 0) ok = 0;
    if (ok && fchmod(fd, (mode_t)mode) != 0) ok = 0;
    if (close(fd) != 0) ok = 0;
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) unlink(tmp);
    asmstore_free(NULL, tmp, plen + 16);
    return ok ? ASMSTORE_OK : ASMSTORE_ERR_IO;
}

ASMSTORE_DEF asmstore_result asmstore_write_file(const char *path, const void *data, size_t size, unsigned mode) {
    const void *parts[1];
    size_t sizes[1];
    parts[0] = data; sizes[0] = size;
    return asmstore_write_file_parts(path, parts, sizes, 1, mode);
}
#endif /* ASMSTORE_NO_STDIO */

/* >>writer ------------------------------------------------------------------------------ */
#ifndef ASMSTORE_NO_WRITER
#ifndef ASMSTORE_NO_THREADS
#include <pthread.h>
#include <unistd.h>
#endif

typedef struct asmstore__wentry {
    char *name;                  /* owned, not NUL-terminated */
    size_t name_len;
    unsigned char *image;        /* owned copy (NULL for ignored entries) */
    size_t image_size;
    unsigned char *pdb, *config; /* owned copies or NULL */
    size_t pdb_size, config_size;
    unsigned flags;
    int ignored;
    uint32_t mapping;            /* position among non-ignored entries: mapping and XAZS index */
    unsigned char *stored;       /* what goes into the store: image itself or XAZS header + frame */
    size_t stored_size, stored_cap;
    asmstore_result status;
} asmstore__wentry;

struct asmstore_writer {
    asmstore_write_options opt;
    asmstore_hash_kind hash_kind;
    asmstore__wentry *entries;
    size_t count, cap;
    unsigned char *out;
    size_t out_size;
    /* compression work distribution: jobs[] lists entry indices, largest image first */
    size_t *jobs;
    size_t next_job, done_jobs;
    asmstore_result job_error;
#ifndef ASMSTORE_NO_THREADS
    pthread_mutex_t lock;
#endif
};

ASMSTORE_DEF asmstore_result asmstore_writer_create(asmstore_writer **out, const asmstore_write_options *opt) {
    asmstore_writer *w;
    asmstore_write_options o;
    if (!out) return ASMSTORE_ERR_INVALID_ARG;
    *out = NULL;
    memset(&o, 0, sizeof o);
    if (opt) o = *opt;
    if (o.abi == ASMSTORE_ABI_UNKNOWN) o.abi = ASMSTORE_ABI_ARM64;
    if (o.format == 0) o.format = 4;
    if (o.level == 0) o.level = 3;
    if (o.max_name_len == 0) o.max_name_len = ASMSTORE_MAX_NAME_LEN;
    if ((unsigned)o.abi > 4u || o.format < 2 || o.format > 4 || o.level < 1 || o.level > 22 || o.jobs < 0 ||
        (o.runtime != ASMSTORE_RUNTIME_MONOVM && o.runtime != ASMSTORE_RUNTIME_CORECLR) || o.max_name_len > ASMSTORE_MAX_NAME_LEN)
        return ASMSTORE_ERR_INVALID_ARG;
    if (o.runtime == ASMSTORE_RUNTIME_CORECLR && o.format == 2) return ASMSTORE_ERR_PROFILE;
    w = (asmstore_writer *)asmstore__alloc(&o.allocator, sizeof *w);
    if (!w) return ASMSTORE_ERR_OUT_OF_MEMORY;
    memset(w, 0, sizeof *w);
    w->opt = o;
    if (o.runtime == ASMSTORE_RUNTIME_CORECLR && o.format == 4) w->hash_kind = ASMSTORE_HASH_CRC32;
    else w->hash_kind = asmstore__abi_is_64bit(o.abi) ? ASMSTORE_HASH_XXH3_64 : ASMSTORE_HASH_XXH32;
    *out = w;
    return ASMSTORE_OK;
}

ASMSTORE_DEF size_t asmstore_writer_count(const asmstore_writer *w) { return w ? w->count : 0; }

/* Valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF) without NUL bytes. */
ASMSTORE__PRIVATE int asmstore__name_valid(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i], need, k;
        uint32_t cp;
        if (c == 0) return 0;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
        else return 0;
        if (n - i <= need) return 0;
        for (k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += need + 1;
    }
    return 1;
}

ASMSTORE__PRIVATE void asmstore__wentry_free(asmstore_writer *w, asmstore__wentry *e) {
    const asmstore_allocator *a = &w->opt.allocator;
    if (e->stored != e->image) asmstore_free(a, e->stored, e->stored_cap);
    asmstore_free(a, e->name, e->name_len);
    asmstore_free(a, e->image, e->image_size);
    asmstore_free(a, e->pdb, e->pdb_size);
    asmstore_free(a, e->config, e->config_size);
}

/* Owned copy of bytes (NULL for empty input); *ok cleared on allocation failure. */
ASMSTORE__PRIVATE unsigned char *asmstore__dup(asmstore_writer *w, const void *p, size_t n, int *ok) {
    unsigned char *c;
    if (!n) return NULL;
    c = (unsigned char *)asmstore__alloc(&w->opt.allocator, n);
    if (!c) { *ok = 0; return NULL; }
    memcpy(c, p, n);
    return c;
}

ASMSTORE__PRIVATE asmstore_result asmstore__push(asmstore_writer *w, const char *name, size_t name_len,
                                                const void *image, size_t image_size, const void *pdb, size_t pdb_size,
                                                const void *config, size_t config_size, unsigned flags, int ignored) {
    asmstore__wentry e;
    int ok = 1;
    if (w->count == w->cap) {
        size_t ncap = w->cap ? w->cap * 2 : 64;
        asmstore__wentry *n = (asmstore__wentry *)asmstore__alloc(&w->opt.allocator, ncap * sizeof *n);
        if (!n) return ASMSTORE_ERR_OUT_OF_MEMORY;
        if (w->count) memcpy(n, w->entries, w->count * sizeof *n);
        asmstore_free(&w->opt.allocator, w->entries, w->cap * sizeof *n);
        w->entries = n;
        w->cap = ncap;
    }
    memset(&e, 0, sizeof e);
    e.name = (char *)asmstore__dup(w, name, name_len, &ok);
    e.name_len = name_len;
    e.image = asmstore__dup(w, image, image_size, &ok);
    e.image_size = image_size;
    e.pdb = asmstore__dup(w, pdb, pdb_size, &ok);
    e.pdb_size = pdb_size;
    e.config = asmstore__dup(w, config, config_size, &ok);
    e.config_size = config_size;
    e.flags = flags;
    e.ignored = ignored;
    e.mapping = w->count ? w->entries[w->count - 1].mapping + !w->entries[w->count - 1].ignored : 0;
    if (!ok) { asmstore__wentry_free(w, &e); return ASMSTORE_ERR_OUT_OF_MEMORY; }
    w->entries[w->count++] = e;
    return ASMSTORE_OK;
}

/* Is this exact name already in the writer? */
ASMSTORE__PRIVATE int asmstore__has_name(const asmstore_writer *w, const char *name, size_t len) {
    size_t i;
    for (i = 0; i < w->count; i++)
        if (w->entries[i].name_len == len && memcmp(w->entries[i].name, name, len) == 0) return 1;
    return 0;
}

ASMSTORE_DEF asmstore_result asmstore_writer_add(asmstore_writer *w, const char *name, size_t name_len,
                                                 const void *image, size_t image_size,
                                                 const void *pdb, size_t pdb_size,
                                                 const void *config, size_t config_size, unsigned flags) {
    char ni[ASMSTORE_MAX_NAME_LEN + 8];
    size_t ni_len = 0;
    asmstore_result res;
    if (!w || (!name && name_len) || (!image && image_size) || (!pdb && pdb_size) || (!config && config_size) || w->out)
        return ASMSTORE_ERR_INVALID_ARG;
    if (name_len == 0 || name_len > w->opt.max_name_len || !asmstore__name_valid((const unsigned char *)name, name_len))
        return ASMSTORE_ERR_BAD_NAME;
    if (image_size > UINT32_MAX || pdb_size > UINT32_MAX || config_size > UINT32_MAX) return ASMSTORE_ERR_TOO_LARGE;
    if (w->opt.runtime == ASMSTORE_RUNTIME_CORECLR) {
        /* the ignored companion: ChangeExtension(name, ".ni.dll") */
        size_t base = asmstore__strip_ext_len(name, name_len);
        if (base + 7 > w->opt.max_name_len) return ASMSTORE_ERR_BAD_NAME;
        memcpy(ni, name, base);
        memcpy(ni + base, ".ni.dll", 7);
        ni_len = base + 7;
        if (asmstore__has_name(w, ni, ni_len)) return ASMSTORE_ERR_DUPLICATE_NAME;
    }
    if (asmstore__has_name(w, name, name_len) || (ni_len == name_len && memcmp(ni, name, ni_len) == 0))
        return ASMSTORE_ERR_DUPLICATE_NAME;
    res = asmstore__push(w, name, name_len, image, image_size, pdb, pdb_size, config, config_size, flags, 0);
    if (res == ASMSTORE_OK && ni_len) {
        res = asmstore__push(w, ni, ni_len, NULL, 0, NULL, 0, NULL, 0, 0, 1);
        if (res != ASMSTORE_OK) asmstore__wentry_free(w, &w->entries[--w->count]);
    }
    return res;
}

#ifndef ASMSTORE_NO_STDIO
ASMSTORE_DEF asmstore_result asmstore_writer_add_file(asmstore_writer *w, const char *name, const char *image_path,
                                                      const char *pdb_path, const char *config_path, unsigned flags) {
    void *bufs[3] = {NULL, NULL, NULL};
    size_t sizes[3] = {0, 0, 0};
    const char *paths[3];
    asmstore_result res = ASMSTORE_OK;
    int i;
    if (!w || !name || !image_path) return ASMSTORE_ERR_INVALID_ARG;
    paths[0] = image_path; paths[1] = pdb_path; paths[2] = config_path;
    for (i = 0; i < 3 && res == ASMSTORE_OK; i++)
        if (paths[i]) res = asmstore_read_file(paths[i], &w->opt.allocator, &bufs[i], &sizes[i]);
    if (res == ASMSTORE_OK)
        res = asmstore_writer_add(w, name, strlen(name), bufs[0], sizes[0], bufs[1], sizes[1], bufs[2], sizes[2], flags);
    for (i = 0; i < 3; i++) asmstore_free(&w->opt.allocator, bufs[i], sizes[i]);
    return res;
}
#endif

/* Compresses entry i into its XAZS form (or keeps the image when stored uncompressed). */
ASMSTORE__PRIVATE asmstore_result asmstore__compress_one(asmstore_writer *w, size_t i, void *cctx) {
    asmstore__wentry *e = &w->entries[i];
    if (e->ignored) return ASMSTORE_OK;
    if (w->opt.no_compress || (e->flags & ASMSTORE_ADD_UNCOMPRESSED)) {
        e->stored = e->image;
        e->stored_size = e->image_size;
        return ASMSTORE_OK;
    }
#ifdef ASMSTORE_NO_ZSTD
    (void)cctx;
    return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
#else
    {
        size_t bound = ZSTD_compressBound(e->image_size), z;
        e->stored_cap = ASMSTORE_IMAGE_HEADER_SIZE + bound;
        e->stored = (unsigned char *)asmstore__alloc(&w->opt.allocator, e->stored_cap);
        if (!e->stored) return ASMSTORE_ERR_OUT_OF_MEMORY;
        asmstore__wr32(e->stored, ASMSTORE_ZSTD_MAGIC);
        asmstore__wr32(e->stored + 4, e->mapping);
        asmstore__wr32(e->stored + 8, (uint32_t)e->image_size);
        z = ZSTD_compressCCtx((ZSTD_CCtx *)cctx, e->stored + ASMSTORE_IMAGE_HEADER_SIZE, bound, e->image, e->image_size, w->opt.level);
        if (ZSTD_isError(z)) return ASMSTORE_ERR_UNSUPPORTED;
        e->stored_size = ASMSTORE_IMAGE_HEADER_SIZE + z;
        return ASMSTORE_OK;
    }
#endif
}

/* Worker loop: takes the next entry until none are left; results land in each entry. */
static void *asmstore__compress_worker(void *arg) {
    asmstore_writer *w = (asmstore_writer *)arg;
    void *cctx = NULL;
#ifndef ASMSTORE_NO_ZSTD
    cctx = ZSTD_createCCtx();
#endif
    for (;;) {
        size_t i;
        asmstore_result res;
#ifndef ASMSTORE_NO_THREADS
        pthread_mutex_lock(&w->lock);
#endif
        i = w->next_job < w->count ? w->jobs[w->next_job++] : w->count;
#ifndef ASMSTORE_NO_THREADS
        pthread_mutex_unlock(&w->lock);
#endif
        if (i >= w->count) break;
#ifndef ASMSTORE_NO_ZSTD
        if (!cctx) res = ASMSTORE_ERR_OUT_OF_MEMORY; else
#endif
        res = asmstore__compress_one(w, i, cctx);
        w->entries[i].status = res;
#ifndef ASMSTORE_NO_THREADS
        pthread_mutex_lock(&w->lock);
#endif
        w->done_jobs++;
        if (w->opt.progress) w->opt.progress(w->opt.progress_user, w->done_jobs, w->count);
#ifndef ASMSTORE_NO_THREADS
        pthread_mutex_unlock(&w->lock);
#endif
    }
#ifndef ASMSTORE_NO_ZSTD
    ZSTD_freeCCtx((ZSTD_CCtx *)cctx);
#endif
    return NULL;
}

/* Job order: largest image first (ties by index), so one big entry does not finish alone at the end. */
typedef struct asmstore__job { size_t size, index; } asmstore__job;
static int asmstore__job_cmp(const void *a, const void *b) {
    const asmstore__job *x = (const asmstore__job *)a, *y = (const asmstore__job *)b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

typedef struct asmstore__windex { uint64_t hash; uint32_t desc; uint32_t order; unsigned char ignore; } asmstore__windex;

static int asmstore__windex_cmp(const void *a, const void *b) {
    const asmstore__windex *x = (const asmstore__windex *)a, *y = (const asmstore__windex *)b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    if (x->desc != y->desc) return x->desc < y->desc ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order);
}

ASMSTORE_DEF asmstore_result asmstore_writer_finish(asmstore_writer *w, const void **data, size_t *size) {
    const asmstore_allocator *a;
    size_t i, n, header, esize, hsize;
    uint64_t total, names_size = 0, data_size = 0, off;
    asmstore__windex *idx;
    unsigned char *o, *p;
    int jobs;
    if (!w || !data || !size) return ASMSTORE_ERR_INVALID_ARG;
    if (w->out) { *data = w->out; *size = w->out_size; return ASMSTORE_OK; }
    a = &w->opt.allocator;
    n = w->count;
    if (n > ASMSTORE_MAX_ENTRIES) return ASMSTORE_ERR_TOO_LARGE;
    /* 1. compress, N workers pulling entries largest first; each result depends only on its entry */
    {
        asmstore__job *order = (asmstore__job *)asmstore__alloc(a, n * sizeof *order);
        w->jobs = (size_t *)asmstore__alloc(a, n * sizeof *w->jobs);
        if (!order || !w->jobs) {
            asmstore_free(a, order, n * sizeof *order);
            asmstore_free(a, w->jobs, n * sizeof *w->jobs);
            w->jobs = NULL;
            return ASMSTORE_ERR_OUT_OF_MEMORY;
        }
        for (i = 0; i < n; i++) { order[i].size = w->entries[i].image_size; order[i].index = i; }
        if (n) qsort(order, n, sizeof *order, asmstore__job_cmp);
        for (i = 0; i < n; i++) w->jobs[i] = order[i].index;
        asmstore_free(a, order, n * sizeof *order);
    }
    jobs = w->opt.jobs;
#ifndef ASMSTORE_NO_THREADS
    if (jobs == 0) { long c = sysconf(_SC_NPROCESSORS_ONLN); jobs = c > 0 ? (int)(c > 256 ? 256 : c) : 1; }
    if ((size_t)jobs > n) jobs = n ? (int)n : 1;
    w->next_job = 0; w->done_jobs = 0;
    if (pthread_mutex_init(&w->lock, NULL) != 0) return ASMSTORE_ERR_OUT_OF_MEMORY;
    {
        pthread_t th[256];
        int started = 0, t;
        for (t = 1; t < jobs && t < 256; t++) {
            if (pthread_create(&th[started], NULL, asmstore__compress_worker, w) != 0) break;
            started++;
        }
        asmstore__compress_worker(w);
        for (t = 0; t < started; t++) pthread_join(th[t], NULL);
    }
    pthread_mutex_destroy(&w->lock);
#else
    (void)jobs;
    w->next_job = 0; w->done_jobs = 0;
    asmstore__compress_worker(w);
#endif
    asmstore_free(a, w->jobs, n * sizeof *w->jobs);
    w->jobs = NULL;
    for (i = 0; i < n; i++) if (w->entries[i].status != ASMSTORE_OK) return w->entries[i].status;
    /* 2. layout */
    header = w->opt.format >= 4 ? ASMSTORE_HEADER_SIZE_V4 : ASMSTORE_HEADER_SIZE_V2;
    hsize = w->hash_kind == ASMSTORE_HASH_XXH3_64 ? 8u : 4u;
    esize = hsize + 4u + (w->opt.format >= 3 ? 1u : 0u);
    for (i = 0; i < n; i++) {
        const asmstore__wentry *e = &w->entries[i];
        names_size += 4u + e->name_len;
        data_size += (uint64_t)e->stored_size + e->pdb_size + e->config_size;
    }
    total = header + (uint64_t)2 * n * esize + (uint64_t)n * ASMSTORE_DESCRIPTOR_SIZE + names_size + data_size;
    if (total > UINT32_MAX || total > (uint64_t)(SIZE_MAX / 2)) return ASMSTORE_ERR_TOO_LARGE;
    idx = (asmstore__windex *)asmstore__alloc(a, 2 * n * sizeof *idx);
    o = (unsigned char *)asmstore__alloc(a, (size_t)total);
    if (!idx || !o) { asmstore_free(a, idx, 2 * n * sizeof *idx); asmstore_free(a, o, (size_t)total); return ASMSTORE_ERR_OUT_OF_MEMORY; }
    memset(o, 0, (size_t)total);
    /* 3. index: name with and without the last extension, sorted by hash (ties: descriptor, kind) */
    for (i = 0; i < n; i++) {
        const asmstore__wentry *e = &w->entries[i];
        size_t base = asmstore__strip_ext_len(e->name, e->name_len);
        idx[2 * i].hash = asmstore_name_hash(w->hash_kind, e->name, e->name_len);
        idx[2 * i + 1].hash = asmstore_name_hash(w->hash_kind, e->name, base);
        idx[2 * i].desc = idx[2 * i + 1].desc = (uint32_t)i;
        idx[2 * i].order = 0; idx[2 * i + 1].order = 1;
        idx[2 * i].ignore = idx[2 * i + 1].ignore = (unsigned char)e->ignored;
    }
    if (n) qsort(idx, 2 * n, sizeof *idx, asmstore__windex_cmp);
    asmstore__wr32(o, ASMSTORE_MAGIC);
    asmstore__wr32(o + 4, w->opt.format | ((uint32_t)w->opt.abi << 16) | (asmstore__abi_is_64bit(w->opt.abi) ? ASMSTORE_FLAG_64BIT : 0u));
    asmstore__wr32(o + 8, (uint32_t)n);
    asmstore__wr32(o + 12, (uint32_t)(2 * n));
    asmstore__wr32(o + 16, (uint32_t)(2 * n * esize));
    p = o + header;
    for (i = 0; i < 2 * n; i++, p += esize) {
        if (hsize == 8) asmstore__wr64(p, idx[i].hash); else asmstore__wr32(p, (uint32_t)idx[i].hash);
        asmstore__wr32(p + hsize, idx[i].desc);
        if (esize > hsize + 4) p[hsize + 4] = idx[i].ignore;
    }
    asmstore_free(a, idx, 2 * n * sizeof *idx);
    /* 4. descriptors, names, data */
    off = header + (uint64_t)2 * n * esize + (uint64_t)n * ASMSTORE_DESCRIPTOR_SIZE + names_size;
    {
        unsigned char *desc = o + header + 2 * n * esize, *names = desc + n * ASMSTORE_DESCRIPTOR_SIZE;
        for (i = 0; i < n; i++, desc += ASMSTORE_DESCRIPTOR_SIZE) {
            const asmstore__wentry *e = &w->entries[i];
            asmstore__wr32(names, (uint32_t)e->name_len);
            memcpy(names + 4, e->name, e->name_len);
            names += 4 + e->name_len;
            if (e->ignored) continue; /* all-zero descriptor */
            asmstore__wr32(desc, e->mapping);
            asmstore__wr32(desc + 4, (uint32_t)off);
            asmstore__wr32(desc + 8, (uint32_t)e->stored_size);
            if (e->stored_size) memcpy(o + off, e->stored, e->stored_size);
            off += e->stored_size;
            if (e->pdb_size) {
                asmstore__wr32(desc + 12, (uint32_t)off); asmstore__wr32(desc + 16, (uint32_t)e->pdb_size);
                memcpy(o + off, e->pdb, e->pdb_size); off += e->pdb_size;
            }
            if (e->config_size) {
                asmstore__wr32(desc + 20, (uint32_t)off); asmstore__wr32(desc + 24, (uint32_t)e->config_size);
                memcpy(o + off, e->config, e->config_size); off += e->config_size;
            }
        }
    }
    ASMSTORE_ASSERT(off == total);
    if (w->opt.format >= 4) asmstore__wr64(o + 20, asmstore_xxh3_64(o + 28, (size_t)total - 28));
    w->out = o;
    w->out_size = (size_t)total;
    *data = o;
    *size = (size_t)total;
    return ASMSTORE_OK;
}

ASMSTORE_DEF void asmstore_writer_free(asmstore_writer *w) {
    asmstore_allocator a;
    size_t i;
    if (!w) return;
    a = w->opt.allocator;
    for (i = 0; i < w->count; i++) asmstore__wentry_free(w, &w->entries[i]);
    asmstore_free(&a, w->entries, w->cap * sizeof *w->entries);
    asmstore_free(&a, w->out, w->out_size);
    asmstore_free(&a, w, sizeof *w);
}
#endif /* ASMSTORE_NO_WRITER */

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_IMPLEMENTATION_INCLUDED */
#endif /* ASMSTORE_IMPLEMENTATION */

/*
   REVISION HISTORY
     0.1.0  first release: reader and writer for formats 2, 3, 4; atomic file output.

   LICENCE
   MIT License. Copyright (c) 2026 the asmstore authors.
   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions: The above copyright notice and this
   permission notice shall be included in all copies or substantial portions of the Software.
   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
   libzstd (BSD or GPLv2) and xxhash (BSD-2-Clause) keep their own licences.
*/
