/* asmstore.h - v0.6.0 - .NET for Android assembly stores (XABA formats 1-4) in one C/C++ header:
   read them, write them, wrap them in a .so, find them where an app carries them.
   No warranty; MIT licence at the end of this file.

   Do this:
       #define ASMSTORE_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the implementation. Every other
   file includes it without the define and gets the declarations only. Link -lzstd (unless
   ASMSTORE_NO_ZSTD), -lpthread (the writer's threads) and, before glibc 2.34, -ldl (the dlopen
   locator); xxhash.h must be on the include path (used header-only: no XXH* symbol is exported).
   Builds with no knob on Linux, Android, the BSDs, macOS and Windows (mingw-w64 or MSVC: Win32
   threads, no -lpthread; every path the API takes is UTF-8), each through >>platform.

   WHAT IT DOES (each part is found by its banner, `>>name`, in the order data flows)
     reader      validate a store held in memory once, look entries up by name ("Foo.dll", "Foo",
                 "fr/Foo.resources"), read images into your buffers: XAZS through libzstd, XALZ
                 (LZ4) through the header's own LZ4 block decoder (or a decompress callback you
                 supply). Formats 1 (.NET 6-8 sets), 2 (.NET 9), 3 (.NET 10 and 11) and 4 (.NET 11
                 previews), told apart by the bytes.
     image       check that an image is what it claims (assembly, PDB, config); say who an
                 assembly is (name, version, culture, key, MVID, debug id, PDB path and checksum).
     elf         find the payload in any .so (the `_assembly_store` symbol or a "payload" section).
     zip         find a store in an APK/AAB at every release's path; walk every entry of one.
     locator     give a host (data, size) from dlopen, a mapped file or an APK (split APKs too),
                 from its own fd + range or a payload address it has, and the file offset of a
                 stored image for a runtime that maps images itself.
     app buffers at run time, load a compressed image into the buffer libxamarin-app.so reserves
                 for it, once whatever the threads, with the runtime's checks as results.
     files       atomic output (temp file + rename; identical targets left untouched).
     writer      write stores of every format for the monovm and coreclr profiles from images in
                 memory or files, compressed on N threads; presets say what each release writes.
     elf-writer  wrap a store in a .so that bionic and glibc load; bionic-check checks a .so.

   USE (every call returns an asmstore_result; checks shortened)
       // build time: write a store and wrap it in libassembly-store.so
       asmstore_writer *w;  const void *store;  size_t n;  asmstore_error err;
       asmstore_write_options wo = {0};               // zero = defaults
       asmstore_add add = {0};
       wo.abi = ASMSTORE_ABI_ARM64;
       asmstore_writer_create(&w, &wo, &err);
       add.name = "System.Runtime.dll";
       asmstore_writer_add_file(w, &add, "bin/System.Runtime.dll", NULL, NULL, &err);
       asmstore_writer_finish(w, &store, &n, &err);   // on failure err.message says why
       asmstore_elf_options eo = {0};                 // dlopen mode, 16 KiB pages
       eo.abi = ASMSTORE_ABI_ARM64;
       asmstore_elf_write_file("libassembly-store.so", &eo, store, n, 0644, &err);
       asmstore_writer_free(w);
       // run time: locate, validate once (with room for the name table: O(1) lookups), look up, read
       static uint32_t names[ASMSTORE_NAME_TABLE_BYTES(1024) / 4];  // stores up to 1,024 entries
       asmstore_read_options ro = {0};
       asmstore_locator loc;  asmstore_reader r;  asmstore_entry e;
       ro.name_table = names;  ro.name_table_bytes = sizeof names;
       ro.expect_abi = ASMSTORE_ABI_ARM64;  ro.expect_hash = ASMSTORE_HASH_CRC32; // this host's layout
       asmstore_locate_dlopen(&loc, "libassembly-store.so", NULL, &err);
       // (or asmstore_locate_memory(&loc, dlsym(h, "_assembly_store"), 0, &err), or
       //  asmstore_locate_fd(&loc, apk_fd, member_offset, member_size, NULL, &err))
       asmstore_reader_init(&r, loc.data, loc.size, &ro, &err);
       if (asmstore_reader_find(&r, "System.Runtime", 14, &e, &err) == ASMSTORE_OK) // e.name_hash:
           asmstore_reader_read(&r, &e, buf, e.uncompressed_size, dctx, &err); // the lookup's hash
       // or, as the app's runtime does, into the buffer its libxamarin-app.so reserves (any thread)
       asmstore_app_tables app;  const unsigned char *image;  size_t size;
       asmstore_app_tables_dlsym(&app, dlopen("libxamarin-app.so", RTLD_NOW), &err);
       asmstore_app_load(&app, &r, &e, dctx, &image, &size, &err); // once; aborts are results
       asmstore_locator_close(&loc);

   CONFIGURATION (define before the implementation include; defaults in brackets)
     ASMSTORE_STATIC            every function static to the including file         [extern]
     ASMSTORE_DEF               storage/visibility of public functions              [extern]
     ASMSTORE_MALLOC, _FREE     allocator when no asmstore_allocator is given  [malloc, free]
     ASMSTORE_ASSERT(x)         programmer-error checks only                        [assert]
     ASMSTORE_NO_BUILD          drop files, writer, presets, ELF generator, bionic checker and
                                the inspector's kit: an on-device host
     ASMSTORE_NO_WRITER         drop the writer and its presets (NO_BUILD implies it)
     ASMSTORE_NO_ELF            drop the ELF generator and bionic checker (NO_BUILD implies it)
     ASMSTORE_NO_INSPECT        drop the inspector's kit: the inertness check, the app library's
                                reader and patcher (NO_BUILD implies it)
     ASMSTORE_NO_ZIP            drop the ZIP scan and the APK locator
     ASMSTORE_NO_DLOPEN         drop the dlopen locator (no dlopen, no -ldl); set by itself
                                where no system loader loads ELF (Windows, macOS)
     ASMSTORE_NO_STDIO          drop everything that touches files
     ASMSTORE_NO_ZSTD           no libzstd: stored and XALZ images, or the decompress callback
     ASMSTORE_NO_THREADS        the writer compresses on the calling thread only
     ASMSTORE_NO_ERROR_STRINGS  asmstore_result_string() returns the codes' names
     ASMSTORE_NO_GNU_SOURCE     do not define _GNU_SOURCE (then define it yourself)
     ASMSTORE_MAX_ENTRY_SIZE    largest decompressed image accepted                 [1 GiB]
     ASMSTORE_MAX_ENTRIES       largest entry_count accepted                        [1 << 20]
     ASMSTORE_MAX_NAME_LEN      longest entry name in bytes                         [1024]
     ASMSTORE_MAX_TOTAL_SIZE    a sensible read_options.max_total_size              [8 GiB]
     ASMSTORE_LOCATOR_PATH_MAX  size of asmstore_locator.path                       [4096]
     ASMSTORE_ZSTD_HEADER       how to include zstd                                 [<zstd.h>]
     ASMSTORE_XXHASH_HEADER     how to include xxhash                               [<xxhash.h>]
   The smallest on-device reader is NO_BUILD + NO_ZIP + NO_DLOPEN: reader, ELF payload finder and
   file locator.

   ERRORS
     Every function that returns an asmstore_result takes `asmstore_error *err` last (may be NULL)
     and fills it when it fails: the result, the byte offset in the input, the entry, the zstd code
     or errno, a static message saying what was checked, and the bionic rule. On success it is not
     written. Result codes are never renumbered; new ones are appended.

   THREADS AND SAFETY
     A reader is read-only after asmstore_reader_init: threads may share it (each with its own
     ZSTD_DCtx). It keeps no memory and no global state (init borrows a scratch only for a store
     whose images are out of descriptor order, which no writer makes). Every offset in the store is
     checked once at init; a store that passes cannot make a later call read outside it. A writer
     belongs to one thread at a time; it runs its worker threads inside asmstore_writer_finish.

   The format itself: docs/store-format.md; what each .NET release ships: docs/store-releases.md.
*/
/* The implementation uses POSIX interfaces (O_CLOEXEC, mkstemp) and, where glibc has them, GNU
   ones (dladdr1, dl_iterate_phdr); on Windows the Win32 API (>>platform). This takes effect when
   the header comes before any system header in the implementation file; otherwise define
   _GNU_SOURCE yourself. */
#if defined(ASMSTORE_IMPLEMENTATION) && !defined(_GNU_SOURCE) && !defined(ASMSTORE_NO_GNU_SOURCE)
#define _GNU_SOURCE 1
#endif
#ifndef ASMSTORE_H_INCLUDED
#define ASMSTORE_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

/* >>public ------------------------------------------------------------------------------------- */
/* Declarations: core (format constants, results, types, basics), reader, elf, zip, locator,
   then the build side. What has two underscores (asmstore__) is not API and may change. */

/* >>core: config ------------------------------------------------------------------------------- */
#define ASMSTORE_VERSION_MAJOR 0
#define ASMSTORE_VERSION_MINOR 6
#define ASMSTORE_VERSION_PATCH 0
#define ASMSTORE_VERSION_NUMBER \
    (ASMSTORE_VERSION_MAJOR * 10000 + ASMSTORE_VERSION_MINOR * 100 + ASMSTORE_VERSION_PATCH)

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

/* Trim switches (CONFIGURATION): the broad ones imply the narrow ones, the old name the new. */
#if defined(ASMSTORE_NO_BUILD) && !defined(ASMSTORE_NO_WRITER)
#define ASMSTORE_NO_WRITER
#endif
#if defined(ASMSTORE_NO_BUILD) && !defined(ASMSTORE_NO_INSPECT)
#define ASMSTORE_NO_INSPECT
#endif
#if defined(ASMSTORE_NO_BUILD) && !defined(ASMSTORE_NO_ELF)
#define ASMSTORE_NO_ELF
#endif
#if defined(ASMSTORE_NO_LOCATOR) && !defined(ASMSTORE_NO_DLOPEN)
#define ASMSTORE_NO_DLOPEN
#endif
/* The dlopen locator needs a system loader of ELF objects: Linux, Android and the BSDs have one;
   elsewhere (Windows, macOS) it is absent, as if ASMSTORE_NO_DLOPEN were given. */
#if !defined(ASMSTORE_NO_DLOPEN) && !defined(__linux__) && !defined(__FreeBSD__) && \
    !defined(__NetBSD__) && !defined(__OpenBSD__) && !defined(__DragonFly__)
#define ASMSTORE_NO_DLOPEN
#endif

#ifndef ASMSTORE_MAX_ENTRY_SIZE
#define ASMSTORE_MAX_ENTRY_SIZE ((size_t)1 << 30)
#endif
#ifndef ASMSTORE_MAX_ENTRIES
#define ASMSTORE_MAX_ENTRIES (1u << 20)
#endif
#ifndef ASMSTORE_MAX_TOTAL_SIZE
/* a sensible read_options.max_total_size: 8 GiB */
#define ASMSTORE_MAX_TOTAL_SIZE ((uint64_t)1 << 33)
#endif
#ifndef ASMSTORE_MAX_NAME_LEN
#define ASMSTORE_MAX_NAME_LEN 1024u
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* >>core: format ------------------------------------------------------------------------------- */
/* docs/store-format.md §1, §5 */
#define ASMSTORE_MAGIC            0x41424158u /* "XABA" */
#define ASMSTORE_ZSTD_MAGIC       0x535A4158u /* "XAZS" */
#define ASMSTORE_LZ4_MAGIC        0x5A4C4158u /* "XALZ" */
#define ASMSTORE_FLAG_64BIT       0x80000000u
#define ASMSTORE_HEADER_SIZE_V2   20u
#define ASMSTORE_HEADER_SIZE_V4   28u
#define ASMSTORE_DESCRIPTOR_SIZE  28u
#define ASMSTORE_IMAGE_HEADER_SIZE 12u

/* >>core: results ------------------------------------------------------------------------------ */
/* Fixed values, never renumbered; new codes are appended. */
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
    X(ERR_UNSUPPORTED_COMPRESSION, -21, \
      "unsupported compression (XAZS without libzstd, or LZ4 written without a compressor)") \
    X(ERR_BAD_NAME,           -22, "invalid entry name (empty, NUL, invalid UTF-8 or too long)") \
    X(ERR_DUPLICATE_NAME,     -23, "duplicate entry name") \
    X(ERR_SIZE_MISMATCH,      -24, "decompressed size differs from the image header") \
    X(ERR_BAD_ELF,            -25, "malformed ELF file") \
    X(ERR_NO_PAYLOAD,         -26, "no _assembly_store symbol or payload section") \
    X(ERR_BAD_ZIP,            -27, "malformed ZIP/APK archive") \
    X(ERR_ZIP_COMPRESSED,     -28, "archive entry is compressed (must be STORED)") \
    X(ERR_MISALIGNED,         -29, "archive entry data is not aligned (run zipalign)") \
    X(ERR_DLOPEN,             -30, "dlopen or dlsym failed") \
    X(ERR_PROFILE,            -31, \
      "format not available for this runtime profile (coreclr needs format 3 or 4)") \
    X(ERR_ELF_RULE,           -32, "ELF file breaks a bionic loader rule") \
    X(ERR_ZIP_ENCRYPTED,      -33, "archive entry is encrypted") \
    X(ERR_ABI_MISMATCH,       -34, "ELF class/machine does not match the requested ABI") \
    X(ERR_NAME_NOT_UTF8,      -35, \
      "entry name is not valid UTF-8 (overlong, surrogate, stray byte or NUL)") \
    X(ERR_OVERLAP,            -36, "two entries' image, pdb or config ranges overlap") \
    X(ERR_COMPRESS,           -37, "compression failed") \
    X(ERR_ELF_NOT_INERT,      -38, \
      "loading this ELF file would run code from it, load other files or crash the loader") \
    X(ERR_BAD_IMAGE,          -39, \
      "an image is not what it claims (a PE assembly with a CLI header, a PDB or a .config)") \
    X(ERR_LAYOUT,             -40, \
      "the store is not the layout the host expects (ABI, format or name hash)")

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

/* Detail about a failure. Every function that returns asmstore_result takes an asmstore_error *
   last (may be NULL) and fills it when it fails; on success it is not written. */
typedef struct asmstore_error {
    asmstore_result result;
    uint64_t offset;      /* byte offset in the input the problem was found at, or 0 */
    int64_t entry;        /* descriptor index involved, or -1 */
    int64_t backend_code; /* zstd error code or errno, or 0 */
    const char *message;  /* static text: what was checked or looked for; NULL when none */
    int rule;             /* asmstore_elf_check_bionic: the rule (1..12) broken, else 0 */
    int64_t other_entry;  /* ASMSTORE_ERR_OVERLAP: the descriptor entry's range overlaps; a
                             duplicate descriptor_index: its first holder; else -1 */
} asmstore_error;

/* asmstore_entry.descriptor_index of an image stored as is: no table slot. */
#define ASMSTORE_NO_DESCRIPTOR UINT32_MAX

/* >>core: types -------------------------------------------------------------------------------- */

typedef enum asmstore_abi {
    ASMSTORE_ABI_UNKNOWN = 0,
    ASMSTORE_ABI_ARM64 = 1,  /* arm64-v8a   */
    ASMSTORE_ABI_ARM = 2,    /* armeabi-v7a */
    ASMSTORE_ABI_X86_64 = 3, /* x86_64      */
    ASMSTORE_ABI_X86 = 4     /* x86         */
} asmstore_abi;

typedef enum asmstore_hash_kind {
    ASMSTORE_HASH_UNKNOWN = 0,
    ASMSTORE_HASH_CRC32 = 1,   /* CoreCLR .NET 11 (formats 3 and 4, every ABI): IEEE CRC-32 */
    ASMSTORE_HASH_XXH32 = 2,   /* formats 2-4 on 32-bit ABIs, seed 0 */
    ASMSTORE_HASH_XXH3_64 = 3, /* formats 2-4 on 64-bit ABIs, seed 0 */
    ASMSTORE_HASH_XXH64 = 4    /* format 1 (.NET 6-8): lookups use the XXH64 table, seed 0 */
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

/* Decompressor callback: decompress src (the image after its 12-byte header) into dst, set
   *written. Used, when given, for XALZ images (else asmstore_lz4_decode serves them); for XAZS
   images only in ASMSTORE_NO_ZSTD builds (libzstd serves them otherwise). */
typedef asmstore_result (*asmstore_decompress_fn)(void *user, asmstore_compression kind, void *dst,
                                                  size_t dst_cap, const void *src, size_t src_size,
                                                  size_t *written);

/* >>core: basics ------------------------------------------------------------------------------- */
/* Returns the static string for a result code ("?" for unknown values). */
ASMSTORE_DEF const char *asmstore_result_string(asmstore_result r);
/* Returns ASMSTORE_VERSION_NUMBER of the compiled implementation. */
ASMSTORE_DEF unsigned asmstore_version_number(void);
/* Names: "arm64", "arm", "x86_64", "x86"; Android dirs: "arm64-v8a", "armeabi-v7a", "x86_64",
   "x86". */
ASMSTORE_DEF const char *asmstore_abi_name(asmstore_abi abi);
ASMSTORE_DEF const char *asmstore_abi_android_name(asmstore_abi abi);
/* Parses either spelling above; returns ASMSTORE_ABI_UNKNOWN if neither. */
ASMSTORE_DEF asmstore_abi asmstore_abi_parse(const char *name);
/* 1 for the 64-bit ABIs (arm64, x86_64), else 0 (UNKNOWN and values out of range too). */
ASMSTORE_DEF int asmstore_abi_is_64bit(asmstore_abi abi);
/* The ABI this code was compiled for (a .so for it can be dlopen'ed here); UNKNOWN elsewhere. */
ASMSTORE_DEF asmstore_abi asmstore_host_abi(void);
/* The writer's level range for a compression: 1 .. max (zstd 22, LZ4 HC 12; none: 0), and the
   level it uses when given 0 (zstd 3, LZ4 HC 12; none: 0). 0 for values out of range. */
ASMSTORE_DEF int asmstore_compression_level_max(asmstore_compression c);
ASMSTORE_DEF int asmstore_compression_level_default(asmstore_compression c);
ASMSTORE_DEF const char *asmstore_hash_name(asmstore_hash_kind kind);

/* The name hashes, exactly as the format uses them (seed 0; CRC-32 of "" is 0xFFFFFFFF); XXH64
   through asmstore_name_hash. */
ASMSTORE_DEF uint32_t asmstore_crc32(const void *data, size_t len);
ASMSTORE_DEF uint32_t asmstore_xxh32(const void *data, size_t len);
ASMSTORE_DEF uint64_t asmstore_xxh3_64(const void *data, size_t len);
/* Hash of one name with the given kind (32-bit kinds zero-extended). */
ASMSTORE_DEF uint64_t asmstore_name_hash(asmstore_hash_kind kind, const void *name, size_t len);
/* Length of `name` without its last extension, as upstream's second index name: "Foo.dll" -> 3,
   "fr/Foo.resources.dll" -> 16, "Foo" -> 3; a dot only counts after the last '/'. */
ASMSTORE_DEF size_t asmstore_name_base_len(const char *name, size_t len);
/* 1 when s[0..n) is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF) with
   no NUL byte, as every entry name must be; else 0. */
ASMSTORE_DEF int asmstore_utf8_valid(const void *s, size_t n);
/* Allocates size bytes (at least 1) with a's alloc, or ASMSTORE_MALLOC when a or a->alloc is
   NULL. */
ASMSTORE_DEF void *asmstore_alloc(const asmstore_allocator *a, size_t size);
/* Frees memory from asmstore_alloc, asmstore_read_file, asmstore_elf_wrap ... with the same
   allocator; NULL is fine. */
ASMSTORE_DEF void asmstore_free(const asmstore_allocator *a, void *ptr, size_t size);

/* >>shared: little-endian access, errors ------------------------------------------------------- */
/* Shared with asmstore_cache.h and the CLI, not API (two underscores: may change in any
   release): the little-endian access and the one way an asmstore_error is filled. Static inline in every file
   that includes the header, so the cache header uses the same code whether or not its
   translation unit holds the implementation. Fields are never read by casting mapped
   bytes to wider types: on little-endian GCC/Clang a memcpy (one unaligned load), elsewhere byte
   shifts; right on big-endian and strict-alignment CPUs either way. */
#if defined(__GNUC__) || defined(__clang__)
#define ASMSTORE__INLINE static inline __attribute__((unused))
#elif defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define ASMSTORE__INLINE static inline
#else
#define ASMSTORE__INLINE static
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ASMSTORE__LE_LOAD 1
#else
#define ASMSTORE__LE_LOAD 0
#endif

ASMSTORE__INLINE uint16_t asmstore__rd16(const unsigned char *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}

ASMSTORE__INLINE uint32_t asmstore__rd32(const unsigned char *p) {
#if ASMSTORE__LE_LOAD
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
#endif
}

ASMSTORE__INLINE uint64_t asmstore__rd64(const unsigned char *p) {
#if ASMSTORE__LE_LOAD
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
    return v;
#else
    return (uint64_t)asmstore__rd32(p) | ((uint64_t)asmstore__rd32(p + 4) << 32);
#endif
}

ASMSTORE__INLINE void asmstore__wr16(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

ASMSTORE__INLINE void asmstore__wr32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

ASMSTORE__INLINE void asmstore__wr64(unsigned char *p, uint64_t v) {
    asmstore__wr32(p, (uint32_t)v);
    asmstore__wr32(p + 4, (uint32_t)(v >> 32));
}

/* Records a failure in the optional detail struct (err may be NULL) and returns the code: how
   every function of both headers fills its asmstore_error. */
ASMSTORE__INLINE asmstore_result asmstore__fail(asmstore_error *err, asmstore_result r,
                                                uint64_t offset, int64_t entry, int64_t backend,
                                                const char *message) {
    if (err) {
        err->result = r;
        err->offset = offset;
        err->entry = entry;
        err->backend_code = backend;
        err->message = message;
        err->rule = 0;
        err->other_entry = -1;
    }
    return r;
}

/* >>reader ------------------------------------------------------------------------------------- */
typedef struct asmstore_read_options {
    size_t max_entry_size;             /* 0: ASMSTORE_MAX_ENTRY_SIZE; largest decompressed image */
    uint32_t max_entries;              /* 0: ASMSTORE_MAX_ENTRIES */
    uint64_t max_total_size;           /* 0: not checked; else the largest sum of declared image
                                          sizes (checked at init: reads each image's header) */
    asmstore_decompress_fn decompress; /* XALZ (and XAZS without zstd) images; NULL: the
                                          header's LZ4 decoder (asmstore_lz4_decode) */
    void *decompress_user;
    asmstore_allocator allocator;      /* init's scratch for a layout out of descriptor order
                                          (NULL members: ASMSTORE_MALLOC); never kept */
    asmstore_abi expect_abi;           /* not UNKNOWN: the ABI the store must serve (a format 1
                                          store 0 serves every ABI) */
    unsigned expect_formats;           /* not 0: the formats a host takes, 1u << format each */
    asmstore_hash_kind expect_hash;    /* not UNKNOWN: the name hash its lookups compute */
    uint32_t *name_table;              /* caller memory init attaches as the name table when it */
    size_t name_table_bytes;           /* holds asmstore_reader_name_table_size: lookups are then
                                          O(1) (ASMSTORE_NAME_TABLE_BYTES sizes it for a count) */
} asmstore_read_options;

/* Bytes a name table (asmstore_read_options.name_table) needs at most for a store of `entries`
   descriptors: 16 per entry and 16 more, whatever its format and index. */
#define ASMSTORE_NAME_TABLE_BYTES(entries) ((size_t)(entries) * 16u + 16u)

/* A validated store. Caller-owned, no destructor: it only points into the caller's bytes. */
typedef struct asmstore_reader {
    /* the caller's: what the store is (read them; asmstore_reader_init fills them) */
    const unsigned char *data;
    size_t size;
    uint32_t version_word;
    uint32_t format;                 /* 1 (.NET 6-8), 2 (9), 3 (10, 11), 4 (11 previews) */
    asmstore_abi abi;                /* UNKNOWN in format 1: its version word names no ABI */
    int is_64bit;
    asmstore_hash_kind hash_kind;
    uint32_t entry_count;            /* descriptors (ignored ones included) */
    uint32_t index_entry_count;      /* 2 * entry_count; format 1: rows per hash table */
    uint32_t index_entry_size;       /* 8, 9, 12 or 13; format 1: 20 */
    uint32_t hash_size;              /* 4 or 8 */
    uint32_t store_id;               /* format 1: 0 = assemblies.blob (the hash tables), 1 = ABI */
    uint32_t global_entry_count;     /* format 1 store 0: rows in each hash table */
    int has_content_id;              /* format 4 */
    uint64_t content_id;
    size_t header_size;              /* where each table starts, in bytes from data */
    size_t index_offset;
    size_t descriptors_offset;
    size_t names_offset;
    size_t data_offset;
    uint64_t total_uncompressed_size; /* sum of declared image sizes (0 unless max_total_size) */
    const char *manifest;            /* format 1: assemblies.manifest text (attach_manifest) */
    size_t manifest_size;

    /* the library's: how lookups run; may change in any release, do not set or rely on them */
    uint64_t hash_mask;              /* the hash's width: an index entry's 8 bytes & hash_mask */
    uint32_t ignore_offset;          /* an index entry's ignore byte (9 and 13 bytes), else 0 */
    size_t descriptor_size;          /* 28; format 1: 24 */
    size_t hash32_offset;            /* format 1: the XXH32 table (index_offset: the XXH64 one) */
    size_t max_entry_size;
    asmstore_decompress_fn decompress;
    void *decompress_user;
    const uint32_t *name_offsets;    /* attach_name_table / attach_manifest: caller memory */
    const uint32_t *name_bases;      /* attach_name_table: each name's length minus extension */
    const uint32_t *buckets;         /* attach_name_table: first index position per bucket */
    uint32_t bucket_shift;           /* a hash's bucket: hash >> bucket_shift */
    const struct asmstore_reader *v1_common; /* format 1 arch store: its set's store 0 */
} asmstore_reader;

/* One entry as the store describes it (all the caller's). Pointers point into the reader's
   bytes. */
typedef struct asmstore_entry {
    uint32_t index;                  /* descriptor index */
    uint32_t mapping_index;          /* format 1: from the hash rows (0 when store 0 is unknown) */
    int ignored;                     /* a "X.ni.dll" placeholder: owns no bytes */
    uint64_t hash;                   /* format 1: XXH64 of the name from store 0's table, else 0 */
    const char *name;                /* NOT NUL-terminated; format 1: from the manifest or NULL */
    size_t name_len;
    const unsigned char *image;      /* stored bytes (with the 12-byte header when compressed) */
    size_t image_size;
    asmstore_compression compression;
    size_t uncompressed_size;        /* image_size when not compressed */
    uint32_t descriptor_index;       /* a compressed image's index into libxamarin-app.so's table
                                        (its header's); ASMSTORE_NO_DESCRIPTOR when stored as is */
    const unsigned char *pdb;        /* NULL when absent */
    size_t pdb_size;
    const unsigned char *config;     /* NULL when absent */
    size_t config_size;
    uint64_t name_hash;              /* asmstore_reader_find: the hash it computed of the name asked
                                        for, as the store's index keys names (32-bit kinds
                                        zero-extended; format 1: XXH64 of the name without .dll),
                                        what MonoVM keys its image cache by; else 0 */
} asmstore_entry;

/* Validates the store in data[0..size) and fills *r. Allocates nothing; the bytes must outlive
   the reader. opt and err may be NULL. Detection is from the bytes alone
   (docs/store-releases.md §5): version word 1 = format 1 (one file of a .NET 6-8 set); else
   format 2-4 with the ABI and 64-bit bit checked; the index entry width from index_size /
   index_entry_count; the hash (XXH3-64 for 12/13-byte entries, CRC-32 or XXH32 for 8/9-byte ones
   told apart by the store's own names); v4's 28-byte header, or 20 where only that fits. Checked
   once: counts, index order, every descriptor range (in bounds, no two sharing bytes in any
   order: ASMSTORE_ERR_OVERLAP names both entries, err->entry and err->other_entry), names
   (ASMSTORE_ERR_NAME_NOT_UTF8), and, when opt->max_total_size is set, the sum of declared sizes.
   Ranges in descriptor order (every writer's layout) are checked in one pass with no memory; any
   other layout is sorted on a scratch of 8 bytes per range from opt->allocator, freed before this
   returns (ASMSTORE_ERR_OUT_OF_MEMORY without it): O(n log n) either way. A store valid but not
   the layout opt->expect_* names fails ASMSTORE_ERR_LAYOUT, err->message naming both sides
   ("store serves x86_64; the host expects arm64-v8a"). On failure *r holds no
   entries (its counts are 0), so nothing is ever sized from a count that was not checked. */
ASMSTORE_DEF asmstore_result asmstore_reader_init(asmstore_reader *r, const void *data, size_t size,
                                                  const asmstore_read_options *opt,
                                                  asmstore_error *err);

/* Bytes a name table for this store needs: format 1, 4 per entry (its manifest row); formats
   2-4, 8 per entry (its name's offset and length minus extension) and 4 per bucket of the index
   search (the power of two <= the index entries, plus one): 12-16 per entry. */
ASMSTORE_DEF size_t asmstore_reader_name_table_size(const asmstore_reader *r);

/* Optional: fills caller memory with the offset and extension of every name and the index's
   buckets, so a lookup searches about one index entry and compares one name
   (asmstore_reader_entry: O(1)) instead of bisecting the index and walking the names table. The
   memory (4-byte aligned) must outlive the reader; the reader only reads it. */
ASMSTORE_DEF asmstore_result asmstore_reader_attach_name_table(asmstore_reader *r, uint32_t *table,
                                                               size_t bytes, asmstore_error *err);

/* Format 1. An arch store (store_id 1) finds names through the hash tables of its set's
   assemblies.blob (store 0): attach it (it must outlive `arch`). A manifest (assemblies.manifest)
   gives entries their names: `table` is caller memory of asmstore_reader_name_table_size bytes;
   each row's hashes are checked against its name (and store 0's table when known). Without
   either, entries are known by index (and store 0's entries by hash). */
ASMSTORE_DEF asmstore_result asmstore_reader_attach_common(asmstore_reader *arch,
                                                           const asmstore_reader *common,
                                                           asmstore_error *err);
ASMSTORE_DEF asmstore_result asmstore_reader_attach_manifest(asmstore_reader *r, const char *text,
                                                             size_t size, uint32_t *table,
                                                             size_t bytes, asmstore_error *err);

/* Describes descriptor `index` (0 .. entry_count-1). */
ASMSTORE_DEF asmstore_result asmstore_reader_entry(const asmstore_reader *r, uint32_t index,
                                                   asmstore_entry *out, asmstore_error *err);

/* Looks a name up the way hosts ask: "Foo.dll", "Foo", "fr/Foo.resources.dll",
   "fr/Foo.resources". The name is checked, so a hash collision never returns another entry. With
   a name table attached (asmstore_reader_attach_name_table) the search looks in one bucket of
   about one entry (O(log n) at worst) and a hit's name is O(1); without, the index is bisected
   and each hit walks the names table. Returns ASMSTORE_OK, ASMSTORE_ERR_NOT_FOUND, or
   ASMSTORE_ERR_IGNORED (the name exists as an ignored placeholder). Hashes once and gives that
   hash in out->name_hash (a runtime's image cache key); the entry filled reads the image's
   12-byte header. */
ASMSTORE_DEF asmstore_result asmstore_reader_find(const asmstore_reader *r, const char *name,
                                                  size_t name_len, asmstore_entry *out,
                                                  asmstore_error *err);

/* The lookup alone: the same search and name check as asmstore_reader_find, giving the
   descriptor index (also for ASMSTORE_ERR_IGNORED) without describing the entry, so the image is
   not touched (its 12-byte header, a far read in a large store, is what asmstore_entry's sizes
   come from). asmstore_reader_entry(r, *index, ...) describes it later (hashing the name again
   only for indexes with an ignore byte). index may be NULL; it is left alone on other results. */
ASMSTORE_DEF asmstore_result asmstore_reader_find_index(const asmstore_reader *r, const char *name,
                                                        size_t name_len, uint32_t *index,
                                                        asmstore_error *err);

/* ASMSTORE_OK when e describes descriptor e->index exactly as the store does (image, sizes,
   compression); ASMSTORE_ERR_IGNORED for placeholders; else ASMSTORE_ERR_INVALID_ARG. */
ASMSTORE_DEF asmstore_result asmstore_reader_entry_check(const asmstore_reader *r,
                                                         const asmstore_entry *e,
                                                         asmstore_error *err);

/* What the runtimes abort on before they load an entry, beyond what asmstore_reader_init checks
   (a store they abort on may still be read). Formats 2-4 (format 1 keeps its mapping in store
   0's rows, its compressed descriptors in the app library): every descriptor with bytes has
   mapping_index < entry_count (ASMSTORE_ERR_BAD_INDEX; CoreCLR sizes its per-entry array by
   entry_count), every compressed image declares a non-zero uncompressed length
   (ASMSTORE_ERR_CORRUPT) and a descriptor_index no other image of the store has
   (ASMSTORE_ERR_BAD_INDEX: err->entry the later image, err->other_entry the earlier; the .NET 12
   CoreCLR host builds its buffer table from these and aborts on a duplicate). Sorts the indices
   on a scratch of 8 bytes per compressed image from alloc (NULL: ASMSTORE_MALLOC), freed before
   this returns. */
ASMSTORE_DEF asmstore_result asmstore_reader_check_runtime(const asmstore_reader *r,
                                                           const asmstore_allocator *alloc,
                                                           asmstore_error *err);

/* The largest decompressed image the reader accepts: read_options.max_entry_size, or its
   default. */
ASMSTORE_DEF size_t asmstore_reader_max_entry_size(const asmstore_reader *r);

/* Writes the entry's uncompressed image into dst[0..cap). Only e->index and e->ignored are used:
   everything else is taken from the store again, so an edited entry cannot widen what is read or
   written. Stored images are copied; XAZS images are decompressed with dctx (a ZSTD_DCtx* the
   caller owns; NULL makes zstd allocate one per call), after checking that the frame's content
   size equals the header's length and the reader's maximum; XALZ images go to the decompress
   callback when there is one, else to asmstore_lz4_decode (XAZS go to the callback in
   ASMSTORE_NO_ZSTD builds, else ASMSTORE_ERR_UNSUPPORTED_COMPRESSION). */
struct ZSTD_DCtx_s;
ASMSTORE_DEF asmstore_result asmstore_reader_read(const asmstore_reader *r, const asmstore_entry *e,
                                                  void *dst, size_t cap, struct ZSTD_DCtx_s *dctx,
                                                  asmstore_error *err);

/* Decodes one raw LZ4 block (an XALZ image after its 12-byte header) from src[0..src_size) into
   dst[0..cap); *written = the bytes made. Takes and refuses the same blocks as liblz4's
   LZ4_decompress_safe given the same capacity (ASMSTORE_ERR_DECOMPRESS), and never reads or
   writes outside the two buffers, whatever the input; bytes of dst past *written may be
   overwritten. The reader gives cap = the image header's length and wants *written equal to it. */
ASMSTORE_DEF asmstore_result asmstore_lz4_decode(void *dst, size_t cap, const void *src,
                                                 size_t src_size, size_t *written);

/* >>image -------------------------------------------------------------------------------------- */
/* What an entry's bytes claim to be (formats 1-3 carry no checksum: this is how a damaged image is
   told from an assembly). */
typedef enum asmstore_image_kind {
    ASMSTORE_IMAGE_ASSEMBLY = 0, /* .dll (.exe): a PE32/PE32+ file with a CLI header and metadata */
    ASMSTORE_IMAGE_PDB = 1,      /* .pdb: a Portable PDB, or a Windows PDB (MSF 7.00) */
    ASMSTORE_IMAGE_CONFIG = 2    /* .dll.config: XML text */
} asmstore_image_kind;

/* A PE file's parts as asmstore_pe_parse found them, all inside [data, data + size). */
typedef struct asmstore_pe {
    const unsigned char *data;
    size_t size;
    int pe32_plus;                   /* optional header magic 0x20b (else 0x10b) */
    const unsigned char *sections;   /* the section table: section_count headers of 40 bytes */
    uint32_t section_count;
    const unsigned char *cli_header; /* IMAGE_COR20_HEADER: cli_header_size (its cb, >= 72) bytes */
    uint32_t cli_header_size;
    const unsigned char *metadata;   /* the metadata root ("BSJB"): metadata_size bytes */
    uint32_t metadata_size;
    const unsigned char *directories; /* the optional header's data directories: 8 bytes each */
    uint32_t directory_count;         /* NumberOfRvaAndSizes as far as the header holds them */
} asmstore_pe;

/* Parses data[0..size) as an assembly: "MZ" and e_lfanew inside the 64-byte DOS header, "PE\0\0"
   and the COFF header there, an optional header of magic 0x10b (PE32) or 0x20b (PE32+) as long as
   its fixed part and 15 data directories, the section table and every section's file bytes
   inside the file (a PE cut short fails here), data directory 14
   (the CLI header) present with its RVA mapped by a section to file bytes holding its cb (>= 72)
   bytes, the CLI header's metadata RVA and size mapped the same way, and there a metadata root
   "BSJB" whose version string and stream count fit in it. ReadyToRun and composite component
   images pass (they are PE files with a CLI header too). Any bytes are safe; bounded (each RVA is
   looked up among at most 65,535 sections) and allocation-free. ASMSTORE_OK, or
   ASMSTORE_ERR_BAD_IMAGE with err->message saying what is wrong and err->offset where in data. */
ASMSTORE_DEF asmstore_result asmstore_pe_parse(asmstore_pe *pe, const void *data, size_t size,
                                               asmstore_error *err);

/* The n bytes at rva, through the section whose file bytes hold them all; NULL when none does. */
ASMSTORE_DEF const unsigned char *asmstore_pe_at_rva(const asmstore_pe *pe, uint32_t rva,
                                                     uint64_t n);

/* Checks that data[0..size) is what `kind` says. ASSEMBLY: asmstore_pe_parse. PDB: a Portable PDB
   (a metadata root "BSJB" at offset 0 whose version string and stream count fit in the file), or
   a Windows PDB (the 32-byte "Microsoft C/C++ MSF 7.00" signature, a block size of 512, 1024, 2048
   or 4096 and a block count covering the file exactly: the runtimes skip it, it is still a PDB).
   CONFIG: text, a '<' first after an optional UTF-8 BOM and white space, no NUL byte but one at
   the end (format 1 appends it). Bounded (one pass at most), allocation-free, any bytes are safe.
   ASMSTORE_OK, or ASMSTORE_ERR_BAD_IMAGE with err->offset the byte of data found wrong. */
ASMSTORE_DEF asmstore_result asmstore_image_check(asmstore_image_kind kind, const void *data,
                                                  size_t size, asmstore_error *err);

/* Checks an entry's parts: image[0..image_size), its uncompressed bytes (asmstore_reader_read's,
   or e->image when stored), as an assembly, then e->pdb and e->config when present. An ignored
   placeholder owns no bytes and passes. As asmstore_image_check; on failure *part (may be NULL)
   says which part failed, err->entry is e->index and err->offset is where in that part. */
ASMSTORE_DEF asmstore_result asmstore_image_check_entry(const asmstore_entry *e, const void *image,
                                                        size_t image_size,
                                                        asmstore_image_kind *part,
                                                        asmstore_error *err);

/* Who an assembly says it is, as a crash reporter or a scanner names it: its Assembly and Module
   rows (ECMA-335 §II.22.2, §II.22.30) and its debug directory's CodeView and PDB checksum records
   (PE/COFF "Debug Directory"; the Portable PDB spec's "PE/COFF Headers"). Strings and blobs point
   into the image: `_len` bytes of UTF-8 (or the blob's bytes), not NUL-terminated. */
typedef struct asmstore_identity {
    int has_assembly;               /* an Assembly row; 0 for a .netmodule (then name..flags 0) */
    const char *name;               /* the Assembly row's Name: "System.Runtime" */
    uint32_t name_len;
    const char *culture;            /* "fr" for a satellite; 0 bytes for a neutral assembly */
    uint32_t culture_len;
    uint16_t version[4];            /* major, minor, build, revision */
    uint32_t flags;                 /* AssemblyFlags: 0x0001 = public_key holds the full key */
    uint32_t hash_algorithm;        /* HashAlgId: 0x8004 SHA-1 */
    const unsigned char *public_key; /* the full key (its token: the last 8 bytes of its SHA-1, */
    uint32_t public_key_size;        /* reversed; no SHA-1 here: use your crypto library); 0: none */
    unsigned char mvid[16];         /* the Module row's Mvid, in the GUID's stored byte order */
    uint32_t timestamp;             /* COFF TimeDateStamp (deterministic builds: a content hash) */
    int has_codeview;               /* a CodeView "RSDS" debug record: */
    unsigned char pdb_guid[16];     /*   the PDB's id, in stored byte order */
    uint32_t pdb_age;               /*   its age (1 for a Portable PDB) */
    uint32_t pdb_stamp;             /*   the record's TimeDateStamp: a Portable PDB's id's end */
    int pdb_portable;               /*   the record's MinorVersion is 0x504d ("PM"): Portable */
    const char *pdb_path;           /*   the PDB's path as the compiler wrote it */
    uint32_t pdb_path_len;
    const char *pdb_checksum_algorithm; /* a PDB checksum record: "SHA256"; NULL when none */
    uint32_t pdb_checksum_algorithm_len;
    const unsigned char *pdb_checksum;  /* the PDB's checksum, pdb_checksum_size bytes */
    uint32_t pdb_checksum_size;
} asmstore_identity;

/* Fills *id from pe (asmstore_pe_parse's): the metadata's stream headers and table stream (every
   table before Assembly sized from the row counts and heap sizes, as the runtimes do), the Module
   row's Mvid in #GUID, the Assembly row's strings and public key in #Strings and #Blob, the COFF
   timestamp, and the debug directory's CodeView (type 2) and PDB checksum (type 19) entries at
   their PointerToRawData. Any bytes are safe: bounded (at most 64 tables, 4,096 debug entries),
   allocation-free. ASMSTORE_OK, or ASMSTORE_ERR_BAD_IMAGE with err->offset the byte found wrong in
   the image (no #~ stream, no Module row, an index or a record outside its heap or the file). */
ASMSTORE_DEF asmstore_result asmstore_pe_identity(const asmstore_pe *pe, asmstore_identity *id,
                                                  asmstore_error *err);

/* >>elf ---------------------------------------------------------------------------------------- */
#define ASMSTORE_ELF_DEFAULT_SYMBOL    "_assembly_store"
#define ASMSTORE_ELF_DEFAULT_SONAME    "libassembly-store.so"
#define ASMSTORE_ELF_PAGE_16K          16384u /* bionic, 16 KiB kernels: PT_LOADs, APK entry */
#define ASMSTORE_ELF_DEFAULT_ALIGNMENT ASMSTORE_ELF_PAGE_16K
#define ASMSTORE_ELF_MAX_NAME          4096u  /* longest symbol name / soname accepted */
#define ASMSTORE_ZIP_MIN_ALIGNMENT     16u    /* MonoVM aborts below (docs/store-format.md §7.2) */

/* How the payload sits in (or was found in) an ELF file. */
typedef enum asmstore_elf_kind {
    ASMSTORE_ELF_NONE = 0,    /* not an ELF file: a raw store */
    ASMSTORE_ELF_SYMBOL = 1,  /* loadable payload named by a dynamic symbol ("elf-dlopen") */
    ASMSTORE_ELF_SECTION = 2  /* non-loadable section named "payload" ("elf-section") */
} asmstore_elf_kind;

/* "raw", "elf-dlopen", "elf-section". */
ASMSTORE_DEF const char *asmstore_elf_kind_name(asmstore_elf_kind kind);

/* What asmstore_elf_payload found (all the caller's). */
typedef struct asmstore_elf_info {
    asmstore_elf_kind kind;
    asmstore_abi abi;             /* from e_machine; UNKNOWN for other machines */
    int is_64bit;
    uint16_t machine;
    uint64_t payload_offset;      /* file offset of the payload */
    uint64_t payload_size;
    uint64_t symbol_size;         /* st_size of the symbol (0 for lld-made wrappers) */
    uint32_t section_index;       /* section holding the payload */
    int section_is_last;          /* that section is the last section header (MonoVM assumes so) */
    uint64_t symbol_entry_offset; /* file offset of the symbol's .dynsym entry (SYMBOL), else 0 */
} asmstore_elf_info;

/* Finds the payload in an ELF image held in memory: first the dynamic symbol `symbol` (NULL:
   "_assembly_store"; file offset = sh_offset + st_value - sh_addr of its section; st_size 0
   means "the rest of the section"), then the section named "payload". 32- and 64-bit
   little-endian. Every offset, size and count is bounds- and overflow-checked; any bytes are
   safe to pass. *payload points into elf. info may be NULL. Returns ASMSTORE_ERR_BAD_ELF for a
   malformed file, ASMSTORE_ERR_NO_PAYLOAD when neither is present. */
ASMSTORE_DEF asmstore_result asmstore_elf_payload(const void *elf, size_t size, const char *symbol,
                                                  const void **payload, size_t *payload_size,
                                                  asmstore_elf_info *info, asmstore_error *err);

#ifndef ASMSTORE_NO_INSPECT /* the inspector's kit: what loading runs, the app library */
/* Checks that dlopen of the ELF file elf[0..size) (and dlsym of any of its symbols) runs nothing
   from it and loads nothing else (docs/elf-so.md §7): an ET_DYN whose program headers are only
   PT_LOAD, PT_DYNAMIC, PT_PHDR, PT_GNU_STACK, PT_GNU_RELRO, PT_NOTE, PT_GNU_PROPERTY or
   PT_GNU_EH_FRAME, none executable (PF_X), with a PT_GNU_STACK (without one glibc makes the stack
   executable); one PT_DYNAMIC inside a PT_LOAD's file bytes, ended by DT_NULL there, holding only
   the tags a data-only library needs (no DT_NEEDED, DT_INIT*, DT_PREINIT_ARRAY*, DT_FINI*,
   DT_AUDIT, DT_DEPAUDIT, DT_FILTER, DT_AUXILIARY, DT_VERNEED, DT_TEXTREL; relocation tables only
   with size 0); no relocation or init/fini-array section with bytes; no IFUNC or TLS symbol among
   those DT_HASH / DT_GNU_HASH reach (dlsym would call an IFUNC's resolver). The shape
   asmstore_elf_write, template mode over upstream's stub and upstream's stores have. Reads the
   bytes as the loader would see them mapped; bounded (O(headers + tags + symbols)), allocation
   free, any bytes are safe. Returns ASMSTORE_OK, ASMSTORE_ERR_BAD_ELF (not a parseable ELF) or
   ASMSTORE_ERR_ELF_NOT_INERT with err->message naming the segment, tag, section or symbol and
   err->offset where it lies in the file. */
ASMSTORE_DEF asmstore_result asmstore_elf_check_inert(const void *elf, size_t size,
                                                      asmstore_error *err);

/* >>app library -------------------------------------------------------------------------------- */
/* The app's own libxamarin-app.so holds the table a compressed entry's descriptor_index points
   into: the size of the buffer the runtime decompresses it into, fixed at build time
   (docs/store-releases.md §3). Read from the dynamic symbols, through the PT_LOADs as the loader
   maps them (file offsets differ from addresses in .data). */
typedef enum asmstore_app_table {
    ASMSTORE_APP_TABLE_NONE = 0,     /* neither table: a Debug build, or not the app's library */
    ASMSTORE_APP_TABLE_POINTERS = 1, /* .NET 6-9: compressed_assemblies {count, descriptors*},
                                        each descriptor's data a relocated pointer */
    ASMSTORE_APP_TABLE_BUFFER = 2    /* .NET 10+: compressed_assembly_count, descriptors with an
                                        offset into uncompressed_assemblies_data_buffer */
} asmstore_app_table;

/* What asmstore_app_open found (offsets are file offsets, addresses virtual ones). */
typedef struct asmstore_app_info {
    asmstore_abi abi;            /* from e_machine */
    int is_64bit;
    asmstore_app_table table;
    uint32_t format_tag;         /* format_tag's version (1: .NET 6-8, 2: 9-10 ...), 0 if absent */
    uint32_t count;              /* descriptors */
    uint32_t descriptor_size;    /* 12 (BUFFER, 32-bit POINTERS) or 16 (64-bit POINTERS) */
    uint64_t count_offset;       /* the u32 count */
    uint64_t descriptors_addr;
    uint64_t descriptors_offset;
    uint32_t data_size;          /* BUFFER: uncompressed_assemblies_data_size */
    uint64_t data_size_offset;   /* BUFFER: where that u32 lies */
    uint64_t data_addr;          /* BUFFER: uncompressed_assemblies_data_buffer */
    uint64_t data_symbol_size;   /* BUFFER: its st_size */
    int have_config;             /* application_config found and large enough */
    uint64_t config_offset;
    uint32_t assemblies_in_apk;  /* application_config.number_of_assemblies_in_apk */
    uint32_t store_files;        /* .number_of_assembly_store_files (format_tag 1), else 0 */
    uint32_t bundled_slots;      /* entries of assembly_store_bundled_assemblies[] */
    int runtime_known;           /* 1 when a symbol only one runtime's library has is there */
    asmstore_runtime runtime;    /* CORECLR: init_runtime_property_names; MONOVM:
                                    assembly_image_cache_hashes (with runtime_known) */
} asmstore_app_info;

/* One compressed-assembly descriptor. */
typedef struct asmstore_app_descriptor {
    uint32_t uncompressed_file_size; /* the most a decompressed image may hold */
    uint8_t loaded;
    uint32_t buffer_offset;    /* BUFFER: into the data buffer */
    uint64_t data_addr;        /* where the runtime decompresses to (POINTERS: 0 when null) */
    uint64_t offset;           /* the descriptor's file offset */
    uint64_t reloc_offset;     /* POINTERS: file offset of the relocation setting data, else 0 */
} asmstore_app_descriptor;

/* Reads the compressed-assembly table of the app library so[0..size): the table (one of the two
   releases' symbols, its descriptors inside a PT_LOAD's file bytes and inside the symbol; BUFFER:
   the buffer inside a writable PT_LOAD's memory; POINTERS: the descriptors' address from the
   relative relocation of compressed_assemblies.descriptors), application_config's counts and the
   slots of assembly_store_bundled_assemblies[]. Symbols and relocations are read as glibc and bionic
   read them, through PT_DYNAMIC (DT_SYMTAB and DT_STRTAB, the symbols DT_GNU_HASH or else DT_HASH
   reaches; DT_RELA, DT_REL and DT_JMPREL), never through section headers, which may point at
   other tables. 32- and 64-bit little-endian; bounded (O(headers + symbols + relocations)),
   allocation-free, any bytes are safe. Returns ASMSTORE_OK (table NONE when neither table symbol
   is there), ASMSTORE_ERR_BAD_ELF with err->message naming what is out of place or what the
   loader's choice would hang on (two PT_DYNAMICs, two dynamic symbols of a name the runtime
   reads, a pointer set by two relocations, DT_RELR or packed relocations, which are not
   decoded), ASMSTORE_ERR_INVALID_ARG for NULL. */
ASMSTORE_DEF asmstore_result asmstore_app_open(const void *so, size_t size,
                                               asmstore_app_info *info, asmstore_error *err);

/* Descriptor `index` (< info->count) of the table asmstore_app_open read from the same bytes.
   POINTERS: data from its relative relocation (O(relocations)); BUFFER: O(1). Allocation-free.
   Returns ASMSTORE_OK, ASMSTORE_ERR_NOT_FOUND for an index past the table, ASMSTORE_ERR_BAD_ELF
   when the pointer's relocation is out of place (outside the file, not R_*_RELATIVE, or one of
   two). */
ASMSTORE_DEF asmstore_result asmstore_app_read_descriptor(const void *so, size_t size,
                                                          const asmstore_app_info *info,
                                                          uint32_t index,
                                                          asmstore_app_descriptor *d,
                                                          asmstore_error *err);

/* The runtime's checks (docs/store-releases.md §3.3) for one compressed image whose header says
   descriptor_index and uncompressed_length: a table with the index in it, BUFFER: the
   descriptor's range inside uncompressed_assemblies_data_size and the buffer symbol, POINTERS: a
   non-null data pointer, and uncompressed_length <= the descriptor's size (smaller is accepted).
   Allocation-free. Returns ASMSTORE_OK, ASMSTORE_ERR_BAD_INDEX (no table or index past it),
   ASMSTORE_ERR_TOO_LARGE (the image grew past the descriptor: the runtime aborts),
   ASMSTORE_ERR_CORRUPT (the descriptor's buffer is out of place), err->entry the index. */
ASMSTORE_DEF asmstore_result asmstore_app_check_image(const void *so, size_t size,
                                                      const asmstore_app_info *info,
                                                      uint32_t descriptor_index,
                                                      uint32_t uncompressed_length,
                                                      asmstore_error *err);

/* Lets descriptor `index` hold new_size bytes, patching so[0..size), a writable copy of the
   library info was read from, in place (the file does not grow): new zero-filled memory at the end
   of the last writable PT_LOAD (that segment's p_memsz and the NOBITS section it ends with grow).
   BUFFER (.NET 10+): the data buffer moves there (the dynamic symbol's st_value and st_size follow;
   the runtime finds the buffer through that symbol), the descriptor gets new_size at the buffer's
   old end and uncompressed_assemblies_data_size grows by new_size; a second call extends the moved
   buffer. POINTERS (.NET 6-9): the descriptor gets a region of its own there and its data
   pointer's relative relocation is retargeted to it. Every other byte stays; new_size <= the
   descriptor's size changes nothing. Refreshes *info. Allocation-free, O(headers + symbols +
   relocations). Returns ASMSTORE_OK, ASMSTORE_ERR_UNSUPPORTED with err->message saying why the
   layout allows no safe patch (the buffer not in the last writable PT_LOAD, a section or segment
   past its end, no section ending it, no relocation to retarget; a crafted library whose fields the
   patch writes overlap one another or its table: the patch is taken back), ASMSTORE_ERR_TOO_LARGE
   past 4 GiB, ASMSTORE_ERR_NOT_FOUND for an index past the table. */
ASMSTORE_DEF asmstore_result asmstore_app_grow(void *so, size_t size, asmstore_app_info *info,
                                               uint32_t index, uint32_t new_size,
                                               asmstore_error *err);

/* Lets a CoreCLR (.NET 10+) library serve `slots` assemblies, patching so[0..size) in place as
   asmstore_app_grow does: AssemblyStore::open_assembly writes
   assembly_store_bundled_assemblies[mapping_index] with no bound check, so a store with more
   entries than the build needs that array larger. It moves to new zero-filled memory at the end
   of the last writable PT_LOAD (its dynamic symbol's st_value and st_size follow; it must have
   been in that segment's zero-filled memory past p_filesz, no relocation may write into it or
   point into it), and application_config.number_of_assemblies_in_apk becomes `slots`. slots <=
   the array's entries changes nothing. MonoVM cannot take a new name
   (MonoImageLoader::stash_and_return aborts on one missing from assembly_image_cache_hashes[],
   sorted in .rodata): ASMSTORE_ERR_UNSUPPORTED for a library not known to be CoreCLR's, as for a
   layout that allows no safe patch (or a patch whose fields overlap, taken back), with
   err->message saying why. Refreshes *info.
   Allocation-free. */
ASMSTORE_DEF asmstore_result asmstore_app_add_slots(void *so, size_t size, asmstore_app_info *info,
                                                    uint32_t slots, asmstore_error *err);
#endif /* ASMSTORE_NO_INSPECT */

/* >>app buffers -------------------------------------------------------------------------------- */
/* Run time: what the runtime does with a compressed image (docs/store-releases.md §3.3), done on
   the tables of the app's libxamarin-app.so as the loader mapped them into this process, so a host
   loads each image into the buffer the build reserved for it, once, whatever the threads. The
   element types are xamarin-app.hh's CompressedAssemblyDescriptor in the C layout every Android
   ABI gives them (`loaded` is a one-byte C++ bool). */
typedef struct asmstore_app_buffer_descriptor { /* .NET 10 on: compressed_assembly_descriptors[] */
    uint32_t uncompressed_file_size;
    uint8_t loaded;
    uint32_t buffer_offset;                     /* into uncompressed_assemblies_data_buffer */
} asmstore_app_buffer_descriptor;

typedef struct asmstore_app_pointer_descriptor { /* .NET 6-9 (10 p1-p5) */
    uint32_t uncompressed_file_size;
    uint8_t loaded;
    unsigned char *data;                         /* its own zero-filled buffer */
} asmstore_app_pointer_descriptor;

typedef struct asmstore_app_pointer_table {      /* .NET 6-9: the symbol compressed_assemblies */
    uint32_t count;
    asmstore_app_pointer_descriptor *descriptors;
} asmstore_app_pointer_table;

/* The addresses of the library's symbols, as dlsym gives them (asmstore_app_tables_dlsym) or as
   the linker does to a host linked against the library: the four of .NET 10 on, or
   compressed_assemblies of .NET 6-9; all NULL: no table (a Debug build: no image is compressed).
   The load state lives in the library's own descriptors, so any number of these may describe one
   library. */
typedef struct asmstore_app_tables {
    const uint32_t *count;                       /* &compressed_assembly_count */
    asmstore_app_buffer_descriptor *descriptors; /* compressed_assembly_descriptors */
    const uint32_t *data_size;                   /* &uncompressed_assemblies_data_size */
    unsigned char *data;                         /* uncompressed_assemblies_data_buffer */
    asmstore_app_pointer_table *pointers;        /* &compressed_assemblies (.NET 6-9) */
} asmstore_app_tables;

/* The uncompressed image of entry e of r, as the runtime's loader gets it. Stored as is: *image is
   e's bytes in the store (read-only memory: copy them if your runtime writes to its images, as
   CoreCLR's Android host does). Compressed: the runtime's checks, each with its result where the
   runtime aborts: a table that holds the image's descriptor_index (ASMSTORE_ERR_BAD_INDEX), the
   descriptor's buffer inside uncompressed_assemblies_data_size, or a .NET 6-9 descriptor's data
   not NULL (ASMSTORE_ERR_CORRUPT), an uncompressed length no larger than the descriptor's size
   ("assemblies don't grow": ASMSTORE_ERR_TOO_LARGE; a smaller one shrinks the descriptor's size,
   as the runtime does); then the image is decompressed into the descriptor's buffer with dctx (a
   ZSTD_DCtx* the caller owns, NULL: one per call) exactly as asmstore_reader_read does (damaged
   data: its results, ASMSTORE_ERR_DECOMPRESS or ASMSTORE_ERR_SIZE_MISMATCH), and *image, *size
   are that buffer and the descriptor's size. Once per descriptor, whatever the threads: the
   descriptor's `loaded` byte is read with acquire; the thread that turns it from 0 to 2 (a
   compare-exchange) decompresses, then stores 1 with release, or 0 again on failure (the next
   call tries again and fails the same way); the others wait (yielding) and take the buffer, as
   upstream's double-checked flag and lock. A descriptor the library has marked loaded (1) is
   returned as it is, as the runtime does; the build writes 0, and 2 must only ever be this
   call's. Only e->index counts (the rest is read from the store again); ASMSTORE_ERR_IGNORED for
   a placeholder. Allocation-free but for dctx NULL. */
ASMSTORE_DEF asmstore_result asmstore_app_load(const asmstore_app_tables *t,
                                               const asmstore_reader *r, const asmstore_entry *e,
                                               struct ZSTD_DCtx_s *dctx,
                                               const unsigned char **image, size_t *size,
                                               asmstore_error *err);

#ifndef ASMSTORE_NO_DLOPEN
/* Fills *t from a dlopen handle of libxamarin-app.so (dlsym of each symbol above). Returns
   ASMSTORE_OK with one table's symbols set, or ASMSTORE_ERR_NOT_FOUND (*t all NULL) when the
   library has neither table complete (a Debug build, or another library). */
ASMSTORE_DEF asmstore_result asmstore_app_tables_dlsym(asmstore_app_tables *t, void *handle,
                                                       asmstore_error *err);
#endif

/* >>zip ---------------------------------------------------------------------------------------- */
/* An archive entry as its headers describe it (all the caller's). Pure scans over memory. */
typedef struct asmstore_zip_entry {
    uint64_t lfh_offset;        /* local file header */
    uint64_t data_offset;       /* first data byte: lfh + 30 + LOCAL name and extra lengths */
    uint64_t compressed_size;
    uint64_t uncompressed_size;
    uint32_t crc32;
    uint16_t method;            /* 0 = STORED */
    uint16_t flags;
    uint64_t alignment;         /* largest power of two dividing data_offset (capped at 1 MiB) */
    int zip64;                  /* the archive has a ZIP64 end of central directory */
} asmstore_zip_entry;

#ifndef ASMSTORE_NO_ZIP
/* Finds the entry named name[0..name_len) in the ZIP archive zip[0..size): EOCD (archive comment
   allowed; a signature inside the comment is rejected unless the directory ends right at it and
   the record ends the file), ZIP64 EOCD + locator, the central directory (duplicates rejected),
   the local header, which must agree with the central one as `unzip -t` wants: signature, name,
   method, the flags that change how the data is read (encryption, data descriptor, UTF-8 name),
   CRC-32 and both sizes (ZIP64 too; with a data descriptor, flag bit 3, the local CRC-32 and sizes
   may be zero: the descriptor is not read), data inside the archive, before the central
   directory. The data's CRC-32 is not computed here (a host mapping a store would read it all):
   a reader that wants it compares asmstore_zip_crc32 of the bytes with out->crc32. *out is
   filled whenever the entry exists, also on the errors below. Bounded, allocation-free.
   Returns ASMSTORE_ERR_NOT_FOUND, ASMSTORE_ERR_BAD_ZIP (also a local header that disagrees),
   ASMSTORE_ERR_ZIP_ENCRYPTED, ASMSTORE_ERR_ZIP_COMPRESSED (not STORED) or
   ASMSTORE_ERR_MISALIGNED (data % 16 != 0). err (optional) gets the offset of the problem. */
ASMSTORE_DEF asmstore_result asmstore_zip_find(const void *zip, size_t size, const char *name,
                                               size_t name_len, asmstore_zip_entry *out,
                                               asmstore_error *err);

/* Path number i (0, 1, ...) where a release puts the store of `abi` in an archive, written to
   buf: lib/<abi>/libassembly-store.so (.NET 10.0.102+), lib/<abi>/libassemblies.<abi>.blob.so
   (.NET 9 - 10.0.101), assemblies/assemblies.<abi_>.blob (.NET 6-8, the format-1 arch store),
   then the same under base/lib/ and base/root/ (AAB). Returns the length, 0 past the last path
   or if cap is short. */
ASMSTORE_DEF size_t asmstore_zip_store_path(asmstore_abi abi, unsigned i, char *buf, size_t cap);

/* The store entry of `abi` at the first of its release paths present (asmstore_zip_store_path),
   or with ASMSTORE_ABI_UNKNOWN of the first ABI present in the order arm64, arm, x86_64, x86
   (*found_abi says which; may be NULL). Same checks and results as asmstore_zip_find: a DEFLATEd
   entry (a Release APK with extractNativeLibs=true) gives ASMSTORE_ERR_ZIP_COMPRESSED. */
ASMSTORE_DEF asmstore_result asmstore_zip_find_store(const void *zip, size_t size, asmstore_abi abi,
                                                     asmstore_abi *found_abi,
                                                     asmstore_zip_entry *out, asmstore_error *err);

/* A walk over every entry of an archive's central directory, in its order (all the caller's). */
typedef struct asmstore_zip_dir {
    uint64_t cd_offset, cd_size; /* the central directory; the data of every entry lies before it */
    uint64_t count;              /* its entries */
    uint64_t comment_offset;     /* the archive comment (after the end of central directory) */
    uint32_t comment_size;
    int zip64;                   /* the archive has a ZIP64 end of central directory */
    uint64_t index;              /* entries returned so far */
    uint64_t record_offset;      /* the last returned entry's central directory record: 46 bytes, */
    uint64_t record_size;        /* name, extra field and comment (to copy its fields from) */
} asmstore_zip_dir;

/* asmstore_zip_dir_open finds the central directory of zip[0..size) as asmstore_zip_find does (EOCD,
   ZIP64 records) and fills *dir for the walk. asmstore_zip_next then returns the next entry (*name,
   *name_len: its name inside zip; out, name and name_len may be NULL) with the checks
   asmstore_zip_find makes of the one it finds: the central record inside the directory, ZIP64
   extra field, local header agreeing with it, data before the central directory. Neither checks
   duplicates, method, encryption or alignment (the caller decides) nor reads the data. Bounded
   (the walk reads each record and local header once), allocation-free. Returns ASMSTORE_OK,
   ASMSTORE_ERR_BAD_ZIP (dir->index says which entry) or, past the last entry,
   ASMSTORE_ERR_NOT_FOUND; ASMSTORE_ERR_INVALID_ARG for NULL arguments. */
ASMSTORE_DEF asmstore_result asmstore_zip_dir_open(const void *zip, size_t size,
                                                   asmstore_zip_dir *dir, asmstore_error *err);
ASMSTORE_DEF asmstore_result asmstore_zip_next(const void *zip, size_t size, asmstore_zip_dir *dir,
                                               asmstore_zip_entry *out, const char **name,
                                               size_t *name_len, asmstore_error *err);

/* The CRC-32 an archive's headers hold (zlib's crc32) of data[0..len), continued from crc: 0 to
   start, then the value of the bytes before, so an entry can be checked in pieces. Unlike
   asmstore_crc32 (the store's name hash) the empty input gives 0. */
ASMSTORE_DEF uint32_t asmstore_zip_crc32(uint32_t crc, const void *data, size_t len);
#endif /* ASMSTORE_NO_ZIP */

/* >>locator ------------------------------------------------------------------------------------ */
/* Where a host gets (data, size) for asmstore_reader_init. */
#ifndef ASMSTORE_LOCATOR_PATH_MAX
#define ASMSTORE_LOCATOR_PATH_MAX 4096
#endif

typedef enum asmstore_locate_via {
    ASMSTORE_VIA_NONE = 0,
    ASMSTORE_VIA_DLOPEN = 1,
    ASMSTORE_VIA_FILE = 2,
    ASMSTORE_VIA_APK = 3,
    ASMSTORE_VIA_FD = 4,    /* asmstore_locate_fd: a range of the host's open file */
    ASMSTORE_VIA_MEMORY = 5 /* asmstore_locate_memory: bytes the host already has */
} asmstore_locate_via;

/* A file as it was opened: its device, inode, size and modification and change times (a write to
   it or a replacement of it changes one). known 0: none was taken. */
typedef struct asmstore_file_identity {
    int known;
    uint64_t dev, ino, size;
    uint64_t mtime_ns, ctime_ns;
} asmstore_file_identity;

/* An open store. data/size is the payload; close with asmstore_locator_close (NULL-safe,
   idempotent; a zero-initialised locator is closed). */
typedef struct asmstore_locator {
    /* the caller's: what was found, and where */
    const void *data;
    size_t size;
    asmstore_locate_via via;
    asmstore_elf_kind wrapper;    /* how the payload sat in the file (NONE: raw store) */
    asmstore_abi abi;             /* APK: the lib/<abi> dir; ELF: e_machine */
    uint64_t file_offset;         /* payload offset in the file `path` (APK: in the archive) */
    asmstore_zip_entry entry;     /* APK: the libassembly-store.so entry */
    const void *entry_data;       /* the file's bytes the payload was found in: the APK's store
                                     entry, or the whole file (raw store or .so); NULL for dlopen
                                     (the loader's mapping) */
    size_t entry_size;
    int from_split;               /* APK: found in split_config.<abi>.apk beside base.apk */
    char error[192];              /* dlerror() text when dlopen/dlsym failed */
    char path[ASMSTORE_LOCATOR_PATH_MAX]; /* the file file_offset counts in, as it was opened
                                     (APK: the split holding the store; dlopen: the loader's name
                                     for the object); "" when unknown (a longer path, or dlopen
                                     without dl_iterate_phdr) */
    /* the file `path` as it was mapped: fstat of the very descriptor the mapping came from, so a
       file replaced since is told apart (asmstore_cache_options.store_file_identity); known 0
       for dlopen */
    asmstore_file_identity file_identity;

    /* the library's: what asmstore_locator_close releases; may change in any release */
    void *dl_handle;              /* dlopen handle */
    void *map;                    /* mmap'd range */
    size_t map_size;
} asmstore_locator;

#ifndef ASMSTORE_NO_DLOPEN
/* dlopen(path, RTLD_NOW|RTLD_LOCAL) + dlsym(symbol; NULL: "_assembly_store"). Extent: the
   symbol's st_size (dladdr1, glibc), else the end of the PT_LOAD holding it (dl_iterate_phdr);
   never unbounded (no extent source: ASMSTORE_ERR_UNSUPPORTED). ASMSTORE_ERR_DLOPEN with
   l->error set when dlopen or dlsym fails. */
ASMSTORE_DEF asmstore_result asmstore_locate_dlopen(asmstore_locator *l, const char *path,
                                                    const char *symbol, asmstore_error *err);
#endif

#ifndef ASMSTORE_NO_STDIO
/* mmaps a file read-only: a raw store (given whole), a .so of either kind (payload found with
   asmstore_elf_payload and `symbol`), or a ZIP/APK (as asmstore_locate_apk with ABI unknown).
   Each file is opened once and mapped once (an APK: then trimmed to the entry's pages). */
ASMSTORE_DEF asmstore_result asmstore_locate_file(asmstore_locator *l, const char *path,
                                                  const char *symbol, asmstore_error *err);
#ifndef ASMSTORE_NO_ZIP
/* Finds lib/<abi>/libassembly-store.so in an APK (abi UNKNOWN: first present, see
   asmstore_zip_find_store). If path's basename is base.apk, split_config.<abi_underscored>.apk
   beside it is tried first, base.apk is the fallback. Each file is opened once and mapped once,
   read-only: the directory is read through that mapping, then all but the entry's pages (offset
   rounded down to the page size) are unmapped; the payload is found inside the entry (ELF or
   raw). */
ASMSTORE_DEF asmstore_result asmstore_locate_apk(asmstore_locator *l, const char *path,
                                                 asmstore_abi abi, const char *symbol,
                                                 asmstore_error *err);
#endif /* ASMSTORE_NO_ZIP */
/* The store in bytes [offset, offset + size) of a file the host already has open: an APK member its
   own ZIP scan found (STORED), a .so, a raw store; size 0: to the end of the file. Maps only the
   pages holding that range, read-only, once (fd is neither kept nor closed: close it when you
   like), and finds the payload inside as asmstore_locate_file does (an ELF file's symbol or
   "payload" section, else a raw store). l->file_offset is the payload's offset in fd's file (what
   asmstore_locator_image_offset counts in; l->path is ""), l->file_identity fd's. Returns
   ASMSTORE_ERR_INVALID_ARG (fd < 0), ASMSTORE_ERR_IO (not a regular file, or the mapping failed;
   err->backend_code the errno), ASMSTORE_ERR_TRUNCATED (the range is empty or runs past the end of
   the file), or the payload finder's results. */
ASMSTORE_DEF asmstore_result asmstore_locate_fd(asmstore_locator *l, int fd, uint64_t offset,
                                                uint64_t size, const char *symbol,
                                                asmstore_error *err);
#endif /* ASMSTORE_NO_STDIO */

/* The store at an address the host already has: data = dlsym(handle, "_assembly_store"), a
   pointer into its own mapping, or an ELF file in memory (its payload is found as
   asmstore_locate_file does). size: the bytes there when the host knows them. size 0: read the
   extent from the ELF object the loader mapped data in, as asmstore_locate_dlopen does: up to the
   end of the PT_LOAD holding data (dl_iterate_phdr, with l->path and l->file_offset), or the
   symbol's st_size when data is "_assembly_store" and glibc's dladdr1 tells it; that needs the
   dlopen locator (ASMSTORE_ERR_UNSUPPORTED without it, or for an address no loaded object holds).
   Nothing is mapped, opened or kept: the bytes must outlive l. */
ASMSTORE_DEF asmstore_result asmstore_locate_memory(asmstore_locator *l, const void *data,
                                                    size_t size, asmstore_error *err);

/* Unmaps / dlcloses what l holds and zeroes it. */
ASMSTORE_DEF void asmstore_locator_close(asmstore_locator *l);

/* Where entry e's image lies in the file l->path, for a runtime that maps images from a file
   itself (CoreCLR's bundle_probe: an offset inside the file passed as exe_path; the image is used
   like a .dll on disk, nothing copied). r must read l's payload and e describe one of its
   entries. *offset = l->file_offset + the image's place in the payload.
   ASMSTORE_ERR_UNSUPPORTED when the image is compressed (it has no bytes to map) or l knows no
   file (l->path ""); ASMSTORE_ERR_MISALIGNED (err->offset: the image's offset) when
   min_alignment (0 or a power of two) does not divide it: CoreCLR crashed on an image at an odd
   offset, 16 is enough. */
ASMSTORE_DEF asmstore_result asmstore_locator_image_offset(const asmstore_locator *l,
                                                           const asmstore_reader *r,
                                                           const asmstore_entry *e,
                                                           size_t min_alignment, uint64_t *offset,
                                                           asmstore_error *err);

/* The build side, in data-flow order: files, writer, presets, elf-writer, bionic-check (what
   ASMSTORE_NO_BUILD leaves out). */

/* >>files -------------------------------------------------------------------------------------- */
#if !defined(ASMSTORE_NO_STDIO) && !defined(ASMSTORE_NO_BUILD)
/* Maps the regular file at path read-only, the page cache's bytes with no copy, until
   asmstore_unmap_file; an empty file gives *data NULL, *size 0 and ASMSTORE_OK. A missing file
   gives ASMSTORE_ERR_NOT_FOUND; anything but a regular file (a FIFO never blocks the open)
   ASMSTORE_ERR_IO. errno says why. */
ASMSTORE_DEF asmstore_result asmstore_map_file(const char *path, const unsigned char **data,
                                               size_t *size, asmstore_error *err);
/* Unmaps what asmstore_map_file mapped (NULL is fine). */
ASMSTORE_DEF void asmstore_unmap_file(const void *data, size_t size);
/* Reads a whole file into memory from the allocator (NULL: default). Free with asmstore_free. */
ASMSTORE_DEF asmstore_result asmstore_read_file(const char *path, const asmstore_allocator *a,
                                                void **data, size_t *size, asmstore_error *err);
/* Writes data to path atomically: temp file in the same directory, one write, explicit mode,
   rename. On failure the temp file is removed and the old file is untouched. If path already holds
   exactly these bytes it is left alone (mtime unchanged). */
ASMSTORE_DEF asmstore_result asmstore_write_file(const char *path, const void *data, size_t size,
                                                 unsigned mode, asmstore_error *err);
/* Gather variant: the file is the concatenation of n parts. */
ASMSTORE_DEF asmstore_result asmstore_write_file_parts(const char *path, const void *const *parts,
                                                       const size_t *sizes, size_t n, unsigned mode,
                                                       asmstore_error *err);
/* The platform layer's file calls, for a tool built on the header that handles files itself
   (asmstore's CLI is one): UTF-8 paths (UTF-16 to Windows, never its ANSI code page), binary
   files; -1 with errno set on failure. open_read: an fd to read path; a FIFO or a terminal never
   blocks the open; nofollow: never through a symlink at its end (ELOOP). read: one read of at
   most len bytes (Windows: 1 GiB a call), 0 at the end. create_temp: a new file named tmpl, its
   last six characters "XXXXXX" made unique, open to write (as mkstemp; on Windows shared, so that
   it can be opened again by name to read it back). replace: renames from to to, replacing an
   existing to (rename; MoveFileExW on Windows, whose rename refuses an existing target). */
ASMSTORE_DEF int asmstore_file_open_read(const char *path, int nofollow);
ASMSTORE_DEF long long asmstore_file_read(int fd, void *buf, size_t len);
ASMSTORE_DEF int asmstore_file_close(int fd);
ASMSTORE_DEF int asmstore_file_create_temp(char *tmpl);
ASMSTORE_DEF int asmstore_file_replace(const char *from, const char *to);
#ifdef _WIN32
/* errno's value for a Win32 error code (GetLastError()), as the calls above set it. */
ASMSTORE_DEF int asmstore_win32_errno(unsigned long code);
#endif
#endif

/* >>writer ------------------------------------------------------------------------------------- */
#ifndef ASMSTORE_NO_WRITER

typedef struct asmstore_writer asmstore_writer;

/* Compressor callback: compress src into dst[0..dst_cap) (the payload after the 12-byte image
   header: a raw LZ4 block for ASMSTORE_COMPRESSION_LZ4, a zstd frame for ZSTD) at `level`, set
   *written. Called from the writer's worker threads, several at once. dst_cap is at least the
   kind's worst-case bound (LZ4_COMPRESSBOUND, ZSTD_COMPRESSBOUND). Used for XALZ images; for XAZS
   images only in ASMSTORE_NO_ZSTD builds (libzstd serves them otherwise). */
typedef asmstore_result (*asmstore_compress_fn)(void *user, asmstore_compression kind, int level,
                                                void *dst, size_t dst_cap, const void *src,
                                                size_t src_size, size_t *written);

/* Zero-initialised means: arm64, monovm, format 4, xxHash, zstd level 3, all CPUs. A release's
   exact settings come from asmstore_write_options_preset (below the writer declarations). */
typedef struct asmstore_write_options {
    asmstore_abi abi;                  /* 0: arm64 */
    asmstore_runtime runtime;          /* 0: monovm */
    uint32_t format;                   /* 0: 4; 1 (.NET 6-8 store set: see asmstore_writer_output),
                                          2, 3 or 4 */
    int level;                         /* 0: zstd 3, LZ4 HC 12; zstd 1..22, LZ4 HC 1..12 */
    int jobs;                          /* compression threads; 0: online CPUs */
    int no_compress;                   /* store every image uncompressed */
    size_t max_name_len;               /* 0: ASMSTORE_MAX_NAME_LEN */
    asmstore_allocator allocator;
    /* after each entry, from a worker, serialised */
    void (*progress)(void *user, size_t done, size_t total);
    void *progress_user;
    asmstore_hash_kind hash;           /* 0: CRC-32 for coreclr format 4, else XXH3-64 (64-bit
                                          ABIs) / XXH32. CRC-32 fits every ABI; XXH3-64 only
                                          64-bit, XXH32 only 32-bit ABIs. Format 1 always uses its
                                          own XXH32 + XXH64 tables: leave 0 */
    asmstore_compression compression;  /* ZSTD (XAZS) or LZ4 (XALZ, needs `compress`); NONE (0)
                                          means ZSTD: no_compress is what stores images as they
                                          are */
    asmstore_compress_fn compress;     /* see asmstore_compress_fn; may be NULL */
    void *compress_user;
    size_t image_alignment;            /* every image starts at a multiple of this in its store
                                          (zero padding before it; pdb and config follow the image
                                          directly). Power of two, 1 .. 16384; 0: 16 for
                                          no_compress stores (runtimes map such images in place),
                                          else 1. Releases use 1 (no padding) */
    int no_companions;                 /* coreclr: no ignored "X.ni.dll" companion after each
                                          entry, as .NET 11 GA writes (dotnet/android#12811);
                                          0: one each, as .NET 10 and 11 previews (p1 .. rc1)
                                          wrote. A real "X.ni.dll" is an ordinary entry either
                                          way */
    const asmstore_writer *reuse;      /* a finished writer (another ABI's store of the same
                                          build, say): an image with the same bytes, compression
                                          and level as one it compressed takes that payload
                                          instead of being compressed again. The output is the
                                          same bytes either way (a compress callback must give
                                          the same payload for the same input). It must stay
                                          alive and unchanged until this finish returns */
} asmstore_write_options;

/* Per-entry flags (asmstore_add.flags). */
/* store this image as is (unless it begins with "XAZS" or "XALZ", which the format would read as
   compressed: those are compressed) */
#define ASMSTORE_ADD_UNCOMPRESSED 1u
/* use image/pdb/config in place instead of copying them: the caller keeps them alive and unchanged
   until the writer is freed */
#define ASMSTORE_ADD_BORROW 2u
/* the compressed image header gets descriptor_index */
#define ASMSTORE_ADD_DESCRIPTOR_INDEX 4u
/* the descriptor gets mapping_index (formats 2-4) */
#define ASMSTORE_ADD_MAPPING_INDEX 8u
/* an ignored placeholder (formats 3-4): no image, pdb or config, all-zero descriptor, index
   entries marked ignore */
#define ASMSTORE_ADD_IGNORED 16u
/* coreclr: do not add the ignored "X.ni.dll" companion */
#define ASMSTORE_ADD_NO_COMPANION 32u
/* image is already in stored form (a plain image, or a 12-byte header + payload with the store's
   compression magic) and goes in byte for byte; its header's descriptor index is kept */
#define ASMSTORE_ADD_VERBATIM 64u

/* One entry for asmstore_writer_add and asmstore_writer_add_file. Zero-initialised fields mean the
   defaults, so `asmstore_add e = {0}; e.name = "Foo.dll"; e.image = p; e.image_size = n;` is a
   whole entry. Repacking a store keeps its entry order, descriptor and mapping indices, ignored
   entries (ADD_IGNORED, with ADD_NO_COMPANION on the real ones) and compressed images
   (ADD_VERBATIM). */
typedef struct asmstore_add {
    const char *name;                  /* "Foo.dll", "fr/Foo.resources.dll": UTF-8, no NUL */
    size_t name_len;                   /* 0: strlen(name) */
    const void *image;                 /* the assembly (add_file: NULL, read from the path) */
    size_t image_size;
    const void *pdb;                   /* optional: NULL/0 for none */
    size_t pdb_size;
    const void *config;                /* optional: NULL/0 for none */
    size_t config_size;
    unsigned flags;                    /* ASMSTORE_ADD_*; 0: copied, compressed as the store says */
    int level;                         /* 0: the store's level; else this entry's (same range) */
    uint32_t descriptor_index;         /* with ASMSTORE_ADD_DESCRIPTOR_INDEX. Default: formats 2-4
                                          number the compressed entries 0, 1, 2 ... in add order
                                          (entries with an explicit index keep their place in the
                                          count); format 1 sorts every compressed entry's
                                          destination path ordinally ("Foo.dll",
                                          "fr/Foo.resources.dll", "arm64-v8a/X.dll" for arch
                                          entries when several ABIs have them), as .NET 6-8 did */
    uint32_t mapping_index;            /* with ASMSTORE_ADD_MAPPING_INDEX (formats 2-4). Default:
                                          0, 1, 2 ... over the non-ignored entries in add order
                                          (format 1: common then arch) */
    asmstore_abi abi;                  /* format 1 only: UNKNOWN (0) = the common store
                                          (assemblies.blob); an ABI = that ABI's arch store. Every
                                          ABI must get the same names in the same order (finish:
                                          ASMSTORE_ERR_BAD_COUNTS). Formats 2-4: leave 0 */
} asmstore_add;

/* Creates a writer. Checks the options: coreclr with format 1 or 2 gives ASMSTORE_ERR_PROFILE;
   LZ4 without a compress callback gives ASMSTORE_ERR_UNSUPPORTED_COMPRESSION. */
ASMSTORE_DEF asmstore_result asmstore_writer_create(asmstore_writer **out,
                                                    const asmstore_write_options *opt,
                                                    asmstore_error *err);

/* Adds a copy of entry->image (and of the optional pdb/config) under entry->name; with
   ASMSTORE_ADD_BORROW the bytes are used in place. Rejects empty names, NUL bytes, invalid UTF-8,
   names over the limit (ASMSTORE_ERR_BAD_NAME) and duplicates (ASMSTORE_ERR_DUPLICATE_NAME); a
   NULL entry, bytes NULL with a size, unknown flags or options the format lacks give
   ASMSTORE_ERR_INVALID_ARG. Under the coreclr profile an ignored "Foo.ni.dll" companion is added
   too (unless ASMSTORE_ADD_NO_COMPANION or opt->no_companions). */
ASMSTORE_DEF asmstore_result asmstore_writer_add(asmstore_writer *w, const asmstore_add *entry,
                                                 asmstore_error *err);
#ifndef ASMSTORE_NO_STDIO
/* As asmstore_writer_add with the bytes read from files: entry gives the name and options, its
   image/pdb/config must be NULL/0. pdb_path and config_path may be NULL. The writer keeps the
   buffers it read (no second copy; ASMSTORE_ADD_BORROW does not apply). */
ASMSTORE_DEF asmstore_result asmstore_writer_add_file(asmstore_writer *w, const asmstore_add *entry,
                                                      const char *image_path, const char *pdb_path,
                                                      const char *config_path, asmstore_error *err);
#endif
/* Compresses (on opt->jobs threads) and lays out the store. *data stays owned by the writer and
   valid until asmstore_writer_free. Output bytes depend only on the entries and options, never on
   the thread count. Stores over 4 GiB give ASMSTORE_ERR_TOO_LARGE; two compressed entries with one
   descriptor index ASMSTORE_ERR_INVALID_ARG; format 1 names whose XXH32 or XXH64 (of the name
   without ".dll") collide ASMSTORE_ERR_DUPLICATE_NAME. Format 1: *data is store 0
   (assemblies.blob). */
ASMSTORE_DEF asmstore_result asmstore_writer_finish(asmstore_writer *w, const void **data,
                                                    size_t *size, asmstore_error *err);
/* After finish: output file i of the store, 0 .. (ASMSTORE_ERR_NOT_FOUND past the last). Formats
   2-4: one, the store, *name NULL (asmstore_preset.file_name says what releases call it). Format 1:
   "assemblies.blob", then "assemblies.<abi_>.blob" per ABI with arch entries (arm64_v8a,
   armeabi_v7a, x86_64, x86 in that order), then "assemblies.manifest". Owned by the writer. */
ASMSTORE_DEF asmstore_result asmstore_writer_output(const asmstore_writer *w, size_t i,
                                                    const char **name, const void **data,
                                                    size_t *size, asmstore_error *err);
/* Number of descriptors added so far (coreclr companions and every ABI's arch entries included). */
ASMSTORE_DEF size_t asmstore_writer_count(const asmstore_writer *w);
/* What finish made of one entry (asmstore_writer_entry). */
typedef struct asmstore_written {
    const char *name;            /* not NUL-terminated; owned by the writer */
    size_t name_len;
    asmstore_abi abi;            /* format 1 arch entries: their ABI; else UNKNOWN */
    int ignored;                 /* a placeholder (ASMSTORE_ADD_IGNORED or a coreclr companion) */
    int reused;                  /* its compressed image came from opt.reuse's, not compressed
                                    again */
    uint32_t descriptor_index;   /* the compressed image header's; ASMSTORE_NO_DESCRIPTOR for
                                    images stored as they are and ignored entries */
    uint32_t mapping_index;      /* the descriptor's (formats 2-4); UINT32_MAX in format 1 and
                                    for ignored entries */
    size_t image_size;           /* the image as added */
    size_t stored_size;          /* its bytes in the store: header + payload, or the image */
    size_t pdb_size, config_size;
} asmstore_written;
/* After a successful finish: entry i (0 .. asmstore_writer_count - 1, in add order) as written.
   ASMSTORE_ERR_INVALID_ARG before finish or for NULLs, ASMSTORE_ERR_NOT_FOUND past the last. */
ASMSTORE_DEF asmstore_result asmstore_writer_entry(const asmstore_writer *w, size_t i,
                                                   asmstore_written *out, asmstore_error *err);
/* Frees the writer and everything it owns; NULL is fine. */
ASMSTORE_DEF void asmstore_writer_free(asmstore_writer *w);

#endif /* ASMSTORE_NO_WRITER */

/* >>presets ------------------------------------------------------------------------------------ */
#ifndef ASMSTORE_NO_WRITER
/* What each .NET for Android release ships (docs/store-releases.md §1, §4). */
typedef enum asmstore_target {
    ASMSTORE_TARGET_NONE = 0,
    ASMSTORE_TARGET_NET8 = 1,          /* .NET 6-8: format 1 store set, XALZ (LZ4 HC 9); MonoVM
                                          only */
    ASMSTORE_TARGET_NET9 = 2,          /* format 2, XALZ (LZ4 HC 12), stub wrapper; MonoVM only */
    ASMSTORE_TARGET_NET10 = 3,         /* format 3, xxHash, XALZ (LZ4 HC 12), stub wrapper;
                                          coreclr ".ni.dll" companions */
    ASMSTORE_TARGET_NET11 = 4,         /* GA: format 3, XAZS level 22; coreclr CRC-32 + dlopen
                                          wrapper and no ".ni.dll" companions, monovm xxHash + stub
                                          wrapper */
    ASMSTORE_TARGET_NET11_PREVIEW = 5, /* 11 p7/rc1: format 4 (content id), XAZS level 3; hashes
                                          and wrappers as GA, coreclr ".ni.dll" companions */
    ASMSTORE_TARGET_NET12 = 6          /* dotnet/android main (not yet released): coreclr only,
                                          as net11 GA's but wrapped as AssemblyStoreElfWriter
                                          writes (ASMSTORE_ELF_STYLE_NET12) */
} asmstore_target;

/* What a preset implies beyond the write options: the layout it gives and how releases package
   it. */
typedef struct asmstore_preset {
    uint32_t version_word;             /* the header's version word for the ABI (1 for format 1) */
    uint32_t header_size;              /* 20 or 28 */
    uint32_t index_entry_size;         /* 8, 9, 12 or 13; 0 for format 1 (20-byte hash rows) */
    asmstore_elf_kind wrapper;         /* SYMBOL: the dlopen wrapper; SECTION: MonoVM's stub
                                          wrapper; NONE: raw files (format 1) */
    int elf_style;                     /* the wrapper's asmstore_elf_style: 1 (NET12) for net12 */
    const char *file_name;             /* "libassembly-store.so" (.NET 10.0.102+, 11, 12),
                                          "libassemblies.<abi>.blob.so" (.NET 9; 10.0.100-101),
                                          "assemblies.blob" (.NET 6-8, store 0 of the set) */
} asmstore_preset;

/* Sets the preset's fields of *o (abi, runtime, format, hash, compression, level, no_companions,
   no_compress = 0, image_alignment = 1: no padding, as releases write) and leaves the others
   (jobs, allocator, progress, compress callback, max_name_len) alone. abi 0 means arm64. info may
   be NULL.
   Combinations no release shipped (net8 or net9 with coreclr, net12 with monovm) give
   ASMSTORE_ERR_PROFILE. The
   descriptor indices follow the release's rule by default (asmstore_add). coreclr stores of net10
   and net11-preview get their ignored ".ni.dll" companions; net11 (GA) sets no_companions, as
   dotnet/android#12811 made the release write none. LZ4 presets still need o->compress. */
ASMSTORE_DEF asmstore_result asmstore_write_options_preset(asmstore_write_options *o,
                                                           asmstore_target target,
                                                           asmstore_runtime runtime,
                                                           asmstore_abi abi, asmstore_preset *info,
                                                           asmstore_error *err);
/* The level releases compress a store of this format and compression at (the presets' ladder):
   LZ4 HC 9 in format 1 (.NET 6-8), 12 in formats 2-3 (.NET 9, 10); zstd 3 in format 4 (11 p7,
   rc1), 22 in format 3 (11 GA, main); 0 for ASMSTORE_COMPRESSION_NONE. A repacker keeps an
   entry's level with it. */
ASMSTORE_DEF int asmstore_release_level(uint32_t format, asmstore_compression kind);
/* "net8", "net9", "net10", "net11", "net11-preview", "net12"; parse: ASMSTORE_TARGET_NONE for others. */
ASMSTORE_DEF const char *asmstore_target_name(asmstore_target target);
ASMSTORE_DEF asmstore_target asmstore_target_parse(const char *name);
#endif /* ASMSTORE_NO_WRITER */

/* >>elf-writer --------------------------------------------------------------------------------- */
#ifndef ASMSTORE_NO_ELF
typedef enum asmstore_elf_mode {
    ASMSTORE_ELF_MODE_DLOPEN = 0,      /* loadable payload + dynamic symbol (default) */
    ASMSTORE_ELF_MODE_SECTION = 1,     /* MonoVM legacy: non-loadable "payload" section, the
                                          last section header */
    ASMSTORE_ELF_MODE_TEMPLATE = 2     /* add the "payload" section to a caller stub .so; a stub
                                          that already carries one (a "payload" section or the
                                          symbol) gets it replaced, never a second one beside it */
} asmstore_elf_mode;

/* Whose layout a generated dlopen-mode wrapper follows (section and template modes: asmstore's). */
typedef enum asmstore_elf_style {
    ASMSTORE_ELF_STYLE_ASMSTORE = 0,   /* docs/elf-so.md §3: PT_LOAD p_align 16 KiB or more on
                                          every ABI, arm e_flags 0x05000000 (EABI5: armhf glibc
                                          loads it) */
    ASMSTORE_ELF_STYLE_NET12 = 1       /* byte for byte what dotnet/android main's
                                          AssemblyStoreElfWriter writes (.NET 12, not yet
                                          released; docs/elf-so.md §3.1): payload and PT_LOAD
                                          aligned to the ABI's page (16 KiB on 64-bit ABIs, 4 KiB
                                          on 32-bit), PT_GNU_STACK to the word, arm e_flags
                                          0x05000200 (soft-float: armhf glibc refuses it, bionic
                                          does not look) */
} asmstore_elf_style;

/* Zero-initialised means: arm64, dlopen mode, "_assembly_store", "libassembly-store.so", 16 KiB,
   asmstore's layout. */
typedef struct asmstore_elf_options {
    asmstore_abi abi;                  /* 0: arm64. Template mode: 0 = the stub's, else the same */
    asmstore_elf_mode mode;
    const char *symbol;                /* dlopen mode: NULL = "_assembly_store" */
    const char *soname;                /* dlopen/section mode: NULL = "libassembly-store.so" */
    size_t alignment;                  /* payload: 0 = 16384 (NET12 style: the ABI's page); a power
                                          of two, 4096 .. 1 GiB */
    asmstore_elf_style style;          /* dlopen mode: whose layout; else ignored */
    const void *stub;                  /* template mode: the stub .so bytes (only read) */
    size_t stub_size;
    asmstore_allocator allocator;
} asmstore_elf_options;

/* A wrapper laid out around a payload that is NOT copied: the file is
   head[0..head_size) + payload[0..payload_size) + tail[0..tail_size). head ends with the zero
   padding up to the payload, so head_size == payload_offset. Owned; free with
   asmstore_elf_image_free. */
typedef struct asmstore_elf_image {
    unsigned char *head;
    size_t head_size;
    size_t payload_offset;
    size_t payload_size;
    unsigned char *tail;
    size_t tail_size;
    size_t total_size;
    asmstore_allocator allocator;
} asmstore_elf_image;

/* Lays out the wrapper for a payload of payload_size bytes (the payload itself is not needed).
   Checks the options (ABI, names: non-empty, < ASMSTORE_ELF_MAX_NAME, alignment) and, in template
   mode, the stub (ELF, little-endian, 32/64-bit, ET_DYN, header, section table and .shstrtab in
   bounds: ASMSTORE_ERR_BAD_ELF; ABI differs from opt->abi: ASMSTORE_ERR_ABI_MISMATCH).
   A stub that already holds a payload (asmstore_elf_payload with opt->symbol finds one) keeps every
   byte before it; the new payload takes the old one's place (same offset, so opt->alignment is
   not used), followed by .shstrtab (unless it lies before the payload) and the section headers; the
   payload section's size, and for a loadable payload the PT_LOAD ending with it and the symbol's
   st_size (when not 0), are updated.
   That needs nothing but .shstrtab and the section header table after the old payload (what
   llvm-objcopy --add-section and this generator write): ASMSTORE_ERR_UNSUPPORTED otherwise (an
   lld-linked wrapper, whose .dynamic follows the payload: regenerate it in dlopen mode).
   ELF32 files over 4 GiB: ASMSTORE_ERR_TOO_LARGE. */
ASMSTORE_DEF asmstore_result asmstore_elf_layout(asmstore_elf_image *img,
                                                 const asmstore_elf_options *opt,
                                                 size_t payload_size, asmstore_error *err);
/* 1 when elf[0..size) is byte for byte the dlopen-mode wrapper asmstore_elf_layout gives in
   `style` (default symbol, alignment and allocator; the soname the file's own) around the payload
   its "_assembly_store" symbol names, else 0. How a reader tells dotnet/android main's
   AssemblyStoreElfWriter output (ASMSTORE_ELF_STYLE_NET12) from other wrappers; any bytes are
   safe. */
ASMSTORE_DEF int asmstore_elf_is_style(const void *elf, size_t size, asmstore_elf_style style);
/* Frees head and tail; NULL-safe, idempotent. */
ASMSTORE_DEF void asmstore_elf_image_free(asmstore_elf_image *img);
/* Convenience: the whole .so in one buffer from opt->allocator (free with
   asmstore_free(&opt->allocator, *out, *out_size)). */
ASMSTORE_DEF asmstore_result asmstore_elf_wrap(const asmstore_elf_options *opt, const void *payload,
                                               size_t payload_size, void **out, size_t *out_size,
                                               asmstore_error *err);
#ifndef ASMSTORE_NO_STDIO
/* Writes the .so to path atomically (asmstore_write_file_parts: head, payload, tail; no payload
   copy). */
ASMSTORE_DEF asmstore_result asmstore_elf_write_file(const char *path,
                                                     const asmstore_elf_options *opt,
                                                     const void *payload, size_t payload_size,
                                                     unsigned mode, asmstore_error *err);
#endif

/* >>bionic-check ------------------------------------------------------------------------------- */
/* Applies the 12 bionic-only rules of docs/elf-so.md §4: section headers, SHT_DYNAMIC ==
   PT_DYNAMIC, DT_HASH, DT_STRSZ and string bounds, DT_SYMENT and tags, PT_PHDR inside a PT_LOAD,
   16 KiB PT_LOADs, forbidden segments, class/machine for `abi` (UNKNOWN: any of the four), the
   symbol `symbol` (NULL: "_assembly_store") when present (rule 10), else the legacy "payload"
   section (rule 11; a file with neither fails rule 10), and, when apk_entry is not NULL, rule 12
   for the APK entry the file came from. Returns ASMSTORE_OK, ASMSTORE_ERR_BAD_ELF (not parseable
   at all) or ASMSTORE_ERR_ELF_RULE with err->rule (1..12 of §4), err->message naming the check and
   err->offset the file offset involved, for the first violated rule. */
ASMSTORE_DEF asmstore_result asmstore_elf_check_bionic(const void *elf, size_t size,
                                                       asmstore_abi abi, const char *symbol,
                                                       const asmstore_zip_entry *apk_entry,
                                                       asmstore_error *err);
#endif /* ASMSTORE_NO_ELF */

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_H_INCLUDED */

/* >>implementation ----------------------------------------------------------------------------- */
/* Everything below is the library's own; asmstore__ names may change in any release. */
#ifdef ASMSTORE_IMPLEMENTATION
#ifndef ASMSTORE_IMPLEMENTATION_INCLUDED
#define ASMSTORE_IMPLEMENTATION_INCLUDED

/* >>config ------------------------------------------------------------------------------------- */
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

/* >>platform ----------------------------------------------------------------------------------- */
/* The one place that touches the OS: open, read, write, map, replace and remove files, the page
   size, the CPU count, the writer's threads, a yield. POSIX (Linux, Android, the BSDs, macOS) or
   Windows (mingw-w64 and MSVC: paths are UTF-8, converted to UTF-16 for the wide calls, never
   through the ANSI code page; files in binary mode; a temp file replaces the output with
   MoveFileExW, as rename does on POSIX). Descriptors are the C library's ints on both. Every other part calls
   asmstore__os_*; nothing GNU-only outside a guard. */
#if defined(_WIN32) && !defined(ASMSTORE__WINDOWS)
#define ASMSTORE__WINDOWS 1
#endif
#ifdef ASMSTORE__WINDOWS /* files, threads, and the yield of asmstore_app_load's wait */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN /* what the layer needs, not the whole of windows.h */
#define ASMSTORE__LEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX /* no min/max macros in a C++ includer's way */
#define ASMSTORE__NOMINMAX
#endif
#include <windows.h>
#ifdef ASMSTORE__LEAN
#undef WIN32_LEAN_AND_MEAN
#undef ASMSTORE__LEAN
#endif
#ifdef ASMSTORE__NOMINMAX
#undef NOMINMAX
#undef ASMSTORE__NOMINMAX
#endif
#endif
#ifndef ASMSTORE_NO_STDIO /* file and APK locators, files */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#ifdef ASMSTORE__WINDOWS
#include <io.h>
#include <wchar.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif
#endif
#ifndef ASMSTORE__WINDOWS
#include <sched.h> /* sched_yield: asmstore_app_load waits for the thread loading an image */
#endif
#ifndef ASMSTORE_NO_DLOPEN /* dlopen locator (only where the system loads ELF: >>core: config) */
#include <dlfcn.h>
#include <link.h>
#endif
#if !defined(ASMSTORE_NO_WRITER) && !defined(ASMSTORE_NO_THREADS) /* the writer's workers */
#ifdef ASMSTORE__WINDOWS
#include <process.h>
#else
#include <pthread.h>
#include <unistd.h>
#endif
#endif

#ifndef ASMSTORE_NO_STDIO
#ifdef ASMSTORE__WINDOWS
/* The errno for a Win32 error code (what the caller's message and errno name). */
ASMSTORE__PRIVATE int asmstore__os_errno(DWORD e) {
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_WRITE_PROTECT: return EACCES;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return EEXIST;
    case ERROR_INVALID_NAME:
    case ERROR_NO_UNICODE_TRANSLATION: return EINVAL;
    default: return EIO;
    }
}

/* path (UTF-8) as UTF-16 in ASMSTORE_MALLOC'd memory; NULL with errno set (EINVAL: not UTF-8). */
ASMSTORE__PRIVATE wchar_t *asmstore__os_wide(const char *path) {
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    wchar_t *w;

    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    w = (wchar_t *)ASMSTORE_MALLOC((size_t)n * sizeof *w);
    if (!w) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, w, n);
    return w;
}

/* Is the nearest existing directory above w (cut at its separators in place) something other than
   a directory? Then a path through it is ENOTDIR, as on POSIX, not Windows' "path not found". */
ASMSTORE__PRIVATE int asmstore__os_parent_not_dir(wchar_t *w) {
    size_t n = wcslen(w);
    DWORD a;

    while (n-- > 0)
        if (w[n] == L'/' || w[n] == L'\\') {
            w[n] = 0;
            a = GetFileAttributesW(w);
            if (a != INVALID_FILE_ATTRIBUTES) return !(a & FILE_ATTRIBUTE_DIRECTORY);
        }
    return 0;
}

/* _wopen of a UTF-8 path, binary and not inherited; nofollow: a reparse point (symlink,
   junction) is refused with ELOOP, as O_NOFOLLOW does. errno as POSIX would say it: ENOTDIR for
   a path through a file, and EBUSY (not EACCES) for a file another process opened unshared. */
ASMSTORE__PRIVATE int asmstore__os_wopen(const char *path, int flags, int nofollow) {
    wchar_t *w = asmstore__os_wide(path);
    DWORD attrs;
    int fd = -1, e;

    if (!w) return -1;
    attrs = nofollow ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_REPARSE_POINT))
        errno = ELOOP;
    else
        fd = _wopen(w, flags | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
    if (fd < 0 && errno == EACCES && GetLastError() == ERROR_SHARING_VIOLATION) errno = EBUSY;
    if (fd < 0 && errno == ENOENT && asmstore__os_parent_not_dir(w)) errno = ENOTDIR;
    e = errno;
    ASMSTORE_FREE(w);
    errno = e;
    return fd;
}
#endif

/* The file name in path: after its last '/' (Windows: '\\' and a drive's ':' too). */
ASMSTORE__PRIVATE const char *asmstore__os_basename(const char *path) {
    const char *base = path, *p;
    for (p = path; *p; p++)
#ifdef ASMSTORE__WINDOWS
        if (*p == '/' || *p == '\\' || *p == ':') base = p + 1;
#else
        if (*p == '/') base = p + 1;
#endif
    return base;
}

/* Opens path to read (a FIFO or a terminal never blocks the open: O_NONBLOCK changes nothing for
   regular files); nofollow: not through a symlink. -1 with errno set. */
ASMSTORE__PRIVATE int asmstore__os_open_read(const char *path, int nofollow) {
#ifdef ASMSTORE__WINDOWS
    return asmstore__os_wopen(path, _O_RDONLY, nofollow);
#else
    return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (nofollow ? O_NOFOLLOW : 0));
#endif
}

ASMSTORE__PRIVATE int asmstore__os_close(int fd) {
#ifdef ASMSTORE__WINDOWS
    return _close(fd);
#else
    return close(fd);
#endif
}

/* A struct stat's time t (m, c) in nanoseconds: Darwin spells st_mtim st_mtimespec. */
#ifdef __APPLE__
#define ASMSTORE__STAT_NS(st, t)                                                                  \
    ((uint64_t)(st).st_##t##timespec.tv_sec * 1000000000u + (uint64_t)(st).st_##t##timespec.tv_nsec)
#else
#define ASMSTORE__STAT_NS(st, t)                                                                  \
    ((uint64_t)(st).st_##t##tim.tv_sec * 1000000000u + (uint64_t)(st).st_##t##tim.tv_nsec)
#endif

/* 0 and *size when fd is a regular file, with *id (may be NULL) its identity (unknown on Windows,
   whose _fstat64 gives no file number); else the errno (*size 0): EISDIR, EINVAL (not regular),
   fstat's. */
ASMSTORE__PRIVATE int asmstore__os_regular_size(int fd, uint64_t *size,
                                                asmstore_file_identity *id) {
#ifdef ASMSTORE__WINDOWS
    struct _stat64 st;
    *size = 0;
    if (id) memset(id, 0, sizeof *id);
    if (_fstat64(fd, &st) != 0) return errno;
    if ((st.st_mode & _S_IFMT) != _S_IFREG)
        return (st.st_mode & _S_IFMT) == _S_IFDIR ? EISDIR : EINVAL;
#else
    struct stat st;
    *size = 0;
    if (fstat(fd, &st) != 0) return errno;
    if (!S_ISREG(st.st_mode)) return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    if (id) {
        id->known = 1;
        id->dev = (uint64_t)st.st_dev;
        id->ino = (uint64_t)st.st_ino;
        id->size = (uint64_t)st.st_size;
        id->mtime_ns = ASMSTORE__STAT_NS(st, m);
        id->ctime_ns = ASMSTORE__STAT_NS(st, c);
    }
#endif
    *size = st.st_size > 0 ? (uint64_t)st.st_size : 0u;
    return 0;
}

/* One read()/write() of at most len bytes (Windows': at most 1 GiB a call); -1 with errno set. */
ASMSTORE__PRIVATE long long asmstore__os_read(int fd, void *buf, size_t len) {
#ifdef ASMSTORE__WINDOWS
    return _read(fd, buf, (unsigned)(len > (1u << 30) ? (1u << 30) : len));
#else
    return (long long)read(fd, buf, len);
#endif
}
ASMSTORE__PRIVATE long long asmstore__os_write(int fd, const void *buf, size_t len) {
#ifdef ASMSTORE__WINDOWS
    return _write(fd, buf, (unsigned)(len > (1u << 30) ? (1u << 30) : len));
#else
    return (long long)write(fd, buf, len);
#endif
}

/* Maps size bytes of fd read-only (private); 0, or the errno. */
/* What a mapping's file offset must be a multiple of: the page size (Windows: the allocation
   granularity). */
ASMSTORE__PRIVATE size_t asmstore__os_map_unit(void) {
#ifdef ASMSTORE__WINDOWS
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwAllocationGranularity ? (size_t)si.dwAllocationGranularity : 65536u;
#else
    long pg = sysconf(_SC_PAGESIZE);
    return pg > 0 ? (size_t)pg : 4096u;
#endif
}

/* Maps size bytes of fd from offset (a multiple of asmstore__os_map_unit) read-only; 0 or the
   errno. */
ASMSTORE__PRIVATE int asmstore__os_map(int fd, uint64_t offset, size_t size, unsigned char **map) {
#ifdef ASMSTORE__WINDOWS
    HANDLE fm = CreateFileMappingW((HANDLE)_get_osfhandle(fd), NULL, PAGE_READONLY, 0, 0, NULL);
    void *m;
    if (!fm) return asmstore__os_errno(GetLastError());
    m = MapViewOfFile(fm, FILE_MAP_READ, (DWORD)(offset >> 32), (DWORD)offset, size);
    if (!m) {
        int e = asmstore__os_errno(GetLastError());
        CloseHandle(fm);
        return e;
    }
    CloseHandle(fm); /* the view keeps the mapping */
#else
    void *m;
    if ((uint64_t)(off_t)offset != offset) return EOVERFLOW; /* a 32-bit off_t */
    m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, (off_t)offset);
    if (m == MAP_FAILED) return errno;
#endif
    *map = (unsigned char *)m;
    return 0;
}

/* Unmaps what asmstore__os_map mapped (or what asmstore__os_map_keep kept of it). */
ASMSTORE__PRIVATE void asmstore__os_unmap(void *map, size_t size) {
#ifdef ASMSTORE__WINDOWS
    (void)size;
    UnmapViewOfFile(map);
#else
    munmap(map, size);
#endif
}

/* Of the mapping *map[0..*size), keeps at least the pages holding [off, off+len) and updates
   *map and *size: POSIX unmaps the pages around (at most one munmap on each side, so the bytes
   stay where the one mmap put them); Windows unmaps a view only whole, so keeps it. */
ASMSTORE__PRIVATE void asmstore__os_map_keep(unsigned char **map, size_t *size, uint64_t off,
                                             uint64_t len) {
#ifdef ASMSTORE__WINDOWS
    (void)map;
    (void)size;
    (void)off;
    (void)len;
#else
    size_t page = asmstore__os_map_unit(), start = (size_t)off - (size_t)off % page,
           last = (size_t)(off + len), n = *size;
    size_t mapped = n + (page - n % page) % page, end = last + (page - last % page) % page;
    if (end > mapped) end = mapped;
    if (start > 0) munmap(*map, start);
    if (end < mapped) munmap(*map + end, mapped - end);
    *map += start;
    *size = end - start;
#endif
}

/* Creates and opens (to write) a new file named tmpl, whose last six characters "XXXXXX" are
   replaced to make the name unique, as mkstemp; -1 with errno set. */
ASMSTORE__PRIVATE int asmstore__os_create_temp(char *tmpl) {
#ifdef ASMSTORE__WINDOWS
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    char *x = tmpl + strlen(tmpl) - 6;
    uint64_t s = (uint64_t)GetTickCount() ^ ((uint64_t)GetCurrentProcessId() << 32) ^
                 (uint64_t)(uintptr_t)tmpl; /* GetTickCount: every Windows, any _WIN32_WINNT */
    int tries, i, fd = -1;

    for (tries = 0; tries < 100 && fd < 0; tries++) {
        for (i = 0; i < 6; i++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            x[i] = digits[(s >> 33) % 36u];
        }
        fd = asmstore__os_wopen(tmpl, _O_WRONLY | _O_CREAT | _O_EXCL, 0);
        if (fd < 0 && errno != EEXIST) break;
    }
    return fd;
#else
    return mkstemp(tmpl);
#endif
}

/* The file's permission bits (POSIX); Windows has none to set (ACLs are inherited from the
   directory), so 0 there. 0, or -1 with errno set. */
ASMSTORE__PRIVATE int asmstore__os_set_mode(int fd, unsigned mode) {
#ifdef ASMSTORE__WINDOWS
    (void)fd;
    (void)mode;
    return 0;
#else
    return fchmod(fd, (mode_t)mode);
#endif
}

#ifdef ASMSTORE__WINDOWS
/* The errno of MoveFileExW's failure code to replace `to`, whose "access denied" says neither of
   its usual causes: a directory there (EISDIR, as POSIX rename says) or a file another process
   holds open without FILE_SHARE_DELETE (EBUSY: Windows replaces no file in use). */
ASMSTORE__PRIVATE int asmstore__os_replace_errno(const wchar_t *to, DWORD code) {
    DWORD a = GetFileAttributesW(to);
    HANDLE h;

    if (code != ERROR_ACCESS_DENIED && code != ERROR_SHARING_VIOLATION)
        return asmstore__os_errno(code);
    if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY)) return EISDIR;
    h = CreateFileW(to, DELETE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                    OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    if (h != INVALID_HANDLE_VALUE) {
        CloseHandle(h);
        return asmstore__os_errno(code);
    }
    return GetLastError() == ERROR_SHARING_VIOLATION ? EBUSY : asmstore__os_errno(code);
}
#endif

/* Renames from to to, replacing to when it exists (atomically on POSIX; MoveFileExW on
   Windows, where rename() would refuse an existing target). 0, or -1 with errno set. */
ASMSTORE__PRIVATE int asmstore__os_replace(const char *from, const char *to) {
#ifdef ASMSTORE__WINDOWS
    wchar_t *wf = asmstore__os_wide(from), *wt = wf ? asmstore__os_wide(to) : NULL;
    int rc = -1, e = errno;

    if (wt && MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        rc = 0;
    else if (wt)
        e = asmstore__os_replace_errno(wt, GetLastError());
    ASMSTORE_FREE(wf);
    ASMSTORE_FREE(wt);
    errno = e;
    return rc;
#else
    return rename(from, to);
#endif
}

ASMSTORE__PRIVATE int asmstore__os_remove(const char *path) {
#ifdef ASMSTORE__WINDOWS
    wchar_t *w = asmstore__os_wide(path);
    int rc = w ? _wunlink(w) : -1;
    ASMSTORE_FREE(w);
    return rc;
#else
    return unlink(path);
#endif
}
#endif /* ASMSTORE_NO_STDIO */

#if !defined(ASMSTORE_NO_WRITER) && !defined(ASMSTORE_NO_THREADS)
/* The writer's workers and their one lock. A thread function is declared
   `asmstore__os_thread_ret ASMSTORE__OS_THREAD_CALL f(void *)` and returns 0. */
#ifdef ASMSTORE__WINDOWS
typedef HANDLE asmstore__os_thread;
typedef CRITICAL_SECTION asmstore__os_mutex;
typedef unsigned asmstore__os_thread_ret;
#define ASMSTORE__OS_THREAD_CALL __stdcall
#else
typedef pthread_t asmstore__os_thread;
typedef pthread_mutex_t asmstore__os_mutex;
typedef void *asmstore__os_thread_ret;
#define ASMSTORE__OS_THREAD_CALL
#endif
typedef asmstore__os_thread_ret(ASMSTORE__OS_THREAD_CALL *asmstore__os_thread_fn)(void *);

/* Starts fn(arg) on a new thread; 0, or nonzero when none could be started. */
ASMSTORE__PRIVATE int asmstore__os_thread_start(asmstore__os_thread *t, asmstore__os_thread_fn fn,
                                                void *arg) {
#ifdef ASMSTORE__WINDOWS
    uintptr_t h = _beginthreadex(NULL, 0, fn, arg, 0, NULL);
    *t = (HANDLE)h;
    return h == 0;
#else
    return pthread_create(t, NULL, fn, arg);
#endif
}
ASMSTORE__PRIVATE void asmstore__os_thread_join(asmstore__os_thread t) {
#ifdef ASMSTORE__WINDOWS
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
#else
    pthread_join(t, NULL);
#endif
}
/* 0, or nonzero when the mutex could not be made. */
ASMSTORE__PRIVATE int asmstore__os_mutex_init(asmstore__os_mutex *m) {
#ifdef ASMSTORE__WINDOWS
    InitializeCriticalSection(m);
    return 0;
#else
    return pthread_mutex_init(m, NULL);
#endif
}
ASMSTORE__PRIVATE void asmstore__os_mutex_destroy(asmstore__os_mutex *m) {
#ifdef ASMSTORE__WINDOWS
    DeleteCriticalSection(m);
#else
    pthread_mutex_destroy(m);
#endif
}
#ifdef ASMSTORE__WINDOWS
#define ASMSTORE__OS_LOCK(m)   EnterCriticalSection(m)
#define ASMSTORE__OS_UNLOCK(m) LeaveCriticalSection(m)
#else
#define ASMSTORE__OS_LOCK(m)   pthread_mutex_lock(m)
#define ASMSTORE__OS_UNLOCK(m) pthread_mutex_unlock(m)
#endif

/* Processors online (at least 1). */
ASMSTORE__PRIVATE int asmstore__os_cpu_count(void) {
#ifdef ASMSTORE__WINDOWS
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
#else
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (c > 4096 ? 4096 : (int)c) : 1;
#endif
}
#elif !defined(ASMSTORE_NO_WRITER)
typedef void *asmstore__os_thread_ret; /* the worker runs on the calling thread only */
#define ASMSTORE__OS_THREAD_CALL
#endif /* threads */

/* Lets another thread run (asmstore_app_load waits so for the thread loading an image). */
ASMSTORE__PRIVATE void asmstore__os_yield(void) {
#ifdef ASMSTORE__WINDOWS
    SwitchToThread();
#else
    sched_yield();
#endif
}

#ifdef __cplusplus
extern "C" {
#endif

/* >>errors ------------------------------------------------------------------------------------- */
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

ASMSTORE_DEF unsigned asmstore_version_number(void) {
    return ASMSTORE_VERSION_NUMBER;
}

/* >>alloc -------------------------------------------------------------------------------------- */
ASMSTORE_DEF void *asmstore_alloc(const asmstore_allocator *a, size_t size) {
    if (size == 0) size = 1;
    if (a && a->alloc) return a->alloc(a->user, size);
    return ASMSTORE_MALLOC(size);
}

ASMSTORE_DEF void asmstore_free(const asmstore_allocator *a, void *ptr, size_t size) {
    if (!ptr) return;
    if (a && a->free) {
        a->free(a->user, ptr, size);
        return;
    }
    (void)size;
    ASMSTORE_FREE(ptr);
}

/* >>internal: bytes and descriptors ------------------------------------------------------------ */
/* True when [off, off+len) lies inside [0, size). */
ASMSTORE__INLINE int asmstore__range_ok(uint64_t off, uint64_t len, uint64_t size) {
    return off <= size && len <= size - off;
}

/* One descriptor as the store holds it (format 1 has no mapping index in it: see its hash rows). */
typedef struct asmstore__desc {
    uint32_t mapping;
    uint32_t image_off;
    uint32_t image_size;
    uint32_t pdb_off;
    uint32_t pdb_size;
    uint32_t config_off;
    uint32_t config_size;
} asmstore__desc;

/* Decodes the descriptor at p: ASMSTORE_DESCRIPTOR_SIZE bytes with the mapping index first, or
   (has_mapping 0: format 1) the 24 bytes without it. The caller has checked the range. */
ASMSTORE__INLINE void asmstore__desc_decode(const unsigned char *p, int has_mapping,
                                            asmstore__desc *d) {
    d->mapping = 0;
    if (has_mapping) {
        d->mapping = asmstore__rd32(p);
        p += 4;
    }
    d->image_off = asmstore__rd32(p);
    d->image_size = asmstore__rd32(p + 4);
    d->pdb_off = asmstore__rd32(p + 8);
    d->pdb_size = asmstore__rd32(p + 12);
    d->config_off = asmstore__rd32(p + 16);
    d->config_size = asmstore__rd32(p + 20);
}

/* >>hash --------------------------------------------------------------------------------------- */
/* The CRC-32 tables for slicing by 16 (zlib's polynomial, reflected: 0xEDB88320): [0] is the
   classic byte table; [k][b] is the CRC of byte b followed by k zero bytes. */
static const uint32_t asmstore__crc_tables[16][256] = {
    {
        0x00000000u, 0x77073096u, 0xee0e612cu, 0x990951bau, 0x076dc419u, 0x706af48fu, 0xe963a535u,
        0x9e6495a3u, 0x0edb8832u, 0x79dcb8a4u, 0xe0d5e91eu, 0x97d2d988u, 0x09b64c2bu, 0x7eb17cbdu,
        0xe7b82d07u, 0x90bf1d91u, 0x1db71064u, 0x6ab020f2u, 0xf3b97148u, 0x84be41deu, 0x1adad47du,
        0x6ddde4ebu, 0xf4d4b551u, 0x83d385c7u, 0x136c9856u, 0x646ba8c0u, 0xfd62f97au, 0x8a65c9ecu,
        0x14015c4fu, 0x63066cd9u, 0xfa0f3d63u, 0x8d080df5u, 0x3b6e20c8u, 0x4c69105eu, 0xd56041e4u,
        0xa2677172u, 0x3c03e4d1u, 0x4b04d447u, 0xd20d85fdu, 0xa50ab56bu, 0x35b5a8fau, 0x42b2986cu,
        0xdbbbc9d6u, 0xacbcf940u, 0x32d86ce3u, 0x45df5c75u, 0xdcd60dcfu, 0xabd13d59u, 0x26d930acu,
        0x51de003au, 0xc8d75180u, 0xbfd06116u, 0x21b4f4b5u, 0x56b3c423u, 0xcfba9599u, 0xb8bda50fu,
        0x2802b89eu, 0x5f058808u, 0xc60cd9b2u, 0xb10be924u, 0x2f6f7c87u, 0x58684c11u, 0xc1611dabu,
        0xb6662d3du, 0x76dc4190u, 0x01db7106u, 0x98d220bcu, 0xefd5102au, 0x71b18589u, 0x06b6b51fu,
        0x9fbfe4a5u, 0xe8b8d433u, 0x7807c9a2u, 0x0f00f934u, 0x9609a88eu, 0xe10e9818u, 0x7f6a0dbbu,
        0x086d3d2du, 0x91646c97u, 0xe6635c01u, 0x6b6b51f4u, 0x1c6c6162u, 0x856530d8u, 0xf262004eu,
        0x6c0695edu, 0x1b01a57bu, 0x8208f4c1u, 0xf50fc457u, 0x65b0d9c6u, 0x12b7e950u, 0x8bbeb8eau,
        0xfcb9887cu, 0x62dd1ddfu, 0x15da2d49u, 0x8cd37cf3u, 0xfbd44c65u, 0x4db26158u, 0x3ab551ceu,
        0xa3bc0074u, 0xd4bb30e2u, 0x4adfa541u, 0x3dd895d7u, 0xa4d1c46du, 0xd3d6f4fbu, 0x4369e96au,
        0x346ed9fcu, 0xad678846u, 0xda60b8d0u, 0x44042d73u, 0x33031de5u, 0xaa0a4c5fu, 0xdd0d7cc9u,
        0x5005713cu, 0x270241aau, 0xbe0b1010u, 0xc90c2086u, 0x5768b525u, 0x206f85b3u, 0xb966d409u,
        0xce61e49fu, 0x5edef90eu, 0x29d9c998u, 0xb0d09822u, 0xc7d7a8b4u, 0x59b33d17u, 0x2eb40d81u,
        0xb7bd5c3bu, 0xc0ba6cadu, 0xedb88320u, 0x9abfb3b6u, 0x03b6e20cu, 0x74b1d29au, 0xead54739u,
        0x9dd277afu, 0x04db2615u, 0x73dc1683u, 0xe3630b12u, 0x94643b84u, 0x0d6d6a3eu, 0x7a6a5aa8u,
        0xe40ecf0bu, 0x9309ff9du, 0x0a00ae27u, 0x7d079eb1u, 0xf00f9344u, 0x8708a3d2u, 0x1e01f268u,
        0x6906c2feu, 0xf762575du, 0x806567cbu, 0x196c3671u, 0x6e6b06e7u, 0xfed41b76u, 0x89d32be0u,
        0x10da7a5au, 0x67dd4accu, 0xf9b9df6fu, 0x8ebeeff9u, 0x17b7be43u, 0x60b08ed5u, 0xd6d6a3e8u,
        0xa1d1937eu, 0x38d8c2c4u, 0x4fdff252u, 0xd1bb67f1u, 0xa6bc5767u, 0x3fb506ddu, 0x48b2364bu,
        0xd80d2bdau, 0xaf0a1b4cu, 0x36034af6u, 0x41047a60u, 0xdf60efc3u, 0xa867df55u, 0x316e8eefu,
        0x4669be79u, 0xcb61b38cu, 0xbc66831au, 0x256fd2a0u, 0x5268e236u, 0xcc0c7795u, 0xbb0b4703u,
        0x220216b9u, 0x5505262fu, 0xc5ba3bbeu, 0xb2bd0b28u, 0x2bb45a92u, 0x5cb36a04u, 0xc2d7ffa7u,
        0xb5d0cf31u, 0x2cd99e8bu, 0x5bdeae1du, 0x9b64c2b0u, 0xec63f226u, 0x756aa39cu, 0x026d930au,
        0x9c0906a9u, 0xeb0e363fu, 0x72076785u, 0x05005713u, 0x95bf4a82u, 0xe2b87a14u, 0x7bb12baeu,
        0x0cb61b38u, 0x92d28e9bu, 0xe5d5be0du, 0x7cdcefb7u, 0x0bdbdf21u, 0x86d3d2d4u, 0xf1d4e242u,
        0x68ddb3f8u, 0x1fda836eu, 0x81be16cdu, 0xf6b9265bu, 0x6fb077e1u, 0x18b74777u, 0x88085ae6u,
        0xff0f6a70u, 0x66063bcau, 0x11010b5cu, 0x8f659effu, 0xf862ae69u, 0x616bffd3u, 0x166ccf45u,
        0xa00ae278u, 0xd70dd2eeu, 0x4e048354u, 0x3903b3c2u, 0xa7672661u, 0xd06016f7u, 0x4969474du,
        0x3e6e77dbu, 0xaed16a4au, 0xd9d65adcu, 0x40df0b66u, 0x37d83bf0u, 0xa9bcae53u, 0xdebb9ec5u,
        0x47b2cf7fu, 0x30b5ffe9u, 0xbdbdf21cu, 0xcabac28au, 0x53b39330u, 0x24b4a3a6u, 0xbad03605u,
        0xcdd70693u, 0x54de5729u, 0x23d967bfu, 0xb3667a2eu, 0xc4614ab8u, 0x5d681b02u, 0x2a6f2b94u,
        0xb40bbe37u, 0xc30c8ea1u, 0x5a05df1bu, 0x2d02ef8du,
    },
    {
        0x00000000u, 0x191b3141u, 0x32366282u, 0x2b2d53c3u, 0x646cc504u, 0x7d77f445u, 0x565aa786u,
        0x4f4196c7u, 0xc8d98a08u, 0xd1c2bb49u, 0xfaefe88au, 0xe3f4d9cbu, 0xacb54f0cu, 0xb5ae7e4du,
        0x9e832d8eu, 0x87981ccfu, 0x4ac21251u, 0x53d92310u, 0x78f470d3u, 0x61ef4192u, 0x2eaed755u,
        0x37b5e614u, 0x1c98b5d7u, 0x05838496u, 0x821b9859u, 0x9b00a918u, 0xb02dfadbu, 0xa936cb9au,
        0xe6775d5du, 0xff6c6c1cu, 0xd4413fdfu, 0xcd5a0e9eu, 0x958424a2u, 0x8c9f15e3u, 0xa7b24620u,
        0xbea97761u, 0xf1e8e1a6u, 0xe8f3d0e7u, 0xc3de8324u, 0xdac5b265u, 0x5d5daeaau, 0x44469febu,
        0x6f6bcc28u, 0x7670fd69u, 0x39316baeu, 0x202a5aefu, 0x0b07092cu, 0x121c386du, 0xdf4636f3u,
        0xc65d07b2u, 0xed705471u, 0xf46b6530u, 0xbb2af3f7u, 0xa231c2b6u, 0x891c9175u, 0x9007a034u,
        0x179fbcfbu, 0x0e848dbau, 0x25a9de79u, 0x3cb2ef38u, 0x73f379ffu, 0x6ae848beu, 0x41c51b7du,
        0x58de2a3cu, 0xf0794f05u, 0xe9627e44u, 0xc24f2d87u, 0xdb541cc6u, 0x94158a01u, 0x8d0ebb40u,
        0xa623e883u, 0xbf38d9c2u, 0x38a0c50du, 0x21bbf44cu, 0x0a96a78fu, 0x138d96ceu, 0x5ccc0009u,
        0x45d73148u, 0x6efa628bu, 0x77e153cau, 0xbabb5d54u, 0xa3a06c15u, 0x888d3fd6u, 0x91960e97u,
        0xded79850u, 0xc7cca911u, 0xece1fad2u, 0xf5facb93u, 0x7262d75cu, 0x6b79e61du, 0x4054b5deu,
        0x594f849fu, 0x160e1258u, 0x0f152319u, 0x243870dau, 0x3d23419bu, 0x65fd6ba7u, 0x7ce65ae6u,
        0x57cb0925u, 0x4ed03864u, 0x0191aea3u, 0x188a9fe2u, 0x33a7cc21u, 0x2abcfd60u, 0xad24e1afu,
        0xb43fd0eeu, 0x9f12832du, 0x8609b26cu, 0xc94824abu, 0xd05315eau, 0xfb7e4629u, 0xe2657768u,
        0x2f3f79f6u, 0x362448b7u, 0x1d091b74u, 0x04122a35u, 0x4b53bcf2u, 0x52488db3u, 0x7965de70u,
        0x607eef31u, 0xe7e6f3feu, 0xfefdc2bfu, 0xd5d0917cu, 0xcccba03du, 0x838a36fau, 0x9a9107bbu,
        0xb1bc5478u, 0xa8a76539u, 0x3b83984bu, 0x2298a90au, 0x09b5fac9u, 0x10aecb88u, 0x5fef5d4fu,
        0x46f46c0eu, 0x6dd93fcdu, 0x74c20e8cu, 0xf35a1243u, 0xea412302u, 0xc16c70c1u, 0xd8774180u,
        0x9736d747u, 0x8e2de606u, 0xa500b5c5u, 0xbc1b8484u, 0x71418a1au, 0x685abb5bu, 0x4377e898u,
        0x5a6cd9d9u, 0x152d4f1eu, 0x0c367e5fu, 0x271b2d9cu, 0x3e001cddu, 0xb9980012u, 0xa0833153u,
        0x8bae6290u, 0x92b553d1u, 0xddf4c516u, 0xc4eff457u, 0xefc2a794u, 0xf6d996d5u, 0xae07bce9u,
        0xb71c8da8u, 0x9c31de6bu, 0x852aef2au, 0xca6b79edu, 0xd37048acu, 0xf85d1b6fu, 0xe1462a2eu,
        0x66de36e1u, 0x7fc507a0u, 0x54e85463u, 0x4df36522u, 0x02b2f3e5u, 0x1ba9c2a4u, 0x30849167u,
        0x299fa026u, 0xe4c5aeb8u, 0xfdde9ff9u, 0xd6f3cc3au, 0xcfe8fd7bu, 0x80a96bbcu, 0x99b25afdu,
        0xb29f093eu, 0xab84387fu, 0x2c1c24b0u, 0x350715f1u, 0x1e2a4632u, 0x07317773u, 0x4870e1b4u,
        0x516bd0f5u, 0x7a468336u, 0x635db277u, 0xcbfad74eu, 0xd2e1e60fu, 0xf9ccb5ccu, 0xe0d7848du,
        0xaf96124au, 0xb68d230bu, 0x9da070c8u, 0x84bb4189u, 0x03235d46u, 0x1a386c07u, 0x31153fc4u,
        0x280e0e85u, 0x674f9842u, 0x7e54a903u, 0x5579fac0u, 0x4c62cb81u, 0x8138c51fu, 0x9823f45eu,
        0xb30ea79du, 0xaa1596dcu, 0xe554001bu, 0xfc4f315au, 0xd7626299u, 0xce7953d8u, 0x49e14f17u,
        0x50fa7e56u, 0x7bd72d95u, 0x62cc1cd4u, 0x2d8d8a13u, 0x3496bb52u, 0x1fbbe891u, 0x06a0d9d0u,
        0x5e7ef3ecu, 0x4765c2adu, 0x6c48916eu, 0x7553a02fu, 0x3a1236e8u, 0x230907a9u, 0x0824546au,
        0x113f652bu, 0x96a779e4u, 0x8fbc48a5u, 0xa4911b66u, 0xbd8a2a27u, 0xf2cbbce0u, 0xebd08da1u,
        0xc0fdde62u, 0xd9e6ef23u, 0x14bce1bdu, 0x0da7d0fcu, 0x268a833fu, 0x3f91b27eu, 0x70d024b9u,
        0x69cb15f8u, 0x42e6463bu, 0x5bfd777au, 0xdc656bb5u, 0xc57e5af4u, 0xee530937u, 0xf7483876u,
        0xb809aeb1u, 0xa1129ff0u, 0x8a3fcc33u, 0x9324fd72u,
    },
    {
        0x00000000u, 0x01c26a37u, 0x0384d46eu, 0x0246be59u, 0x0709a8dcu, 0x06cbc2ebu, 0x048d7cb2u,
        0x054f1685u, 0x0e1351b8u, 0x0fd13b8fu, 0x0d9785d6u, 0x0c55efe1u, 0x091af964u, 0x08d89353u,
        0x0a9e2d0au, 0x0b5c473du, 0x1c26a370u, 0x1de4c947u, 0x1fa2771eu, 0x1e601d29u, 0x1b2f0bacu,
        0x1aed619bu, 0x18abdfc2u, 0x1969b5f5u, 0x1235f2c8u, 0x13f798ffu, 0x11b126a6u, 0x10734c91u,
        0x153c5a14u, 0x14fe3023u, 0x16b88e7au, 0x177ae44du, 0x384d46e0u, 0x398f2cd7u, 0x3bc9928eu,
        0x3a0bf8b9u, 0x3f44ee3cu, 0x3e86840bu, 0x3cc03a52u, 0x3d025065u, 0x365e1758u, 0x379c7d6fu,
        0x35dac336u, 0x3418a901u, 0x3157bf84u, 0x3095d5b3u, 0x32d36beau, 0x331101ddu, 0x246be590u,
        0x25a98fa7u, 0x27ef31feu, 0x262d5bc9u, 0x23624d4cu, 0x22a0277bu, 0x20e69922u, 0x2124f315u,
        0x2a78b428u, 0x2bbade1fu, 0x29fc6046u, 0x283e0a71u, 0x2d711cf4u, 0x2cb376c3u, 0x2ef5c89au,
        0x2f37a2adu, 0x709a8dc0u, 0x7158e7f7u, 0x731e59aeu, 0x72dc3399u, 0x7793251cu, 0x76514f2bu,
        0x7417f172u, 0x75d59b45u, 0x7e89dc78u, 0x7f4bb64fu, 0x7d0d0816u, 0x7ccf6221u, 0x798074a4u,
        0x78421e93u, 0x7a04a0cau, 0x7bc6cafdu, 0x6cbc2eb0u, 0x6d7e4487u, 0x6f38fadeu, 0x6efa90e9u,
        0x6bb5866cu, 0x6a77ec5bu, 0x68315202u, 0x69f33835u, 0x62af7f08u, 0x636d153fu, 0x612bab66u,
        0x60e9c151u, 0x65a6d7d4u, 0x6464bde3u, 0x662203bau, 0x67e0698du, 0x48d7cb20u, 0x4915a117u,
        0x4b531f4eu, 0x4a917579u, 0x4fde63fcu, 0x4e1c09cbu, 0x4c5ab792u, 0x4d98dda5u, 0x46c49a98u,
        0x4706f0afu, 0x45404ef6u, 0x448224c1u, 0x41cd3244u, 0x400f5873u, 0x4249e62au, 0x438b8c1du,
        0x54f16850u, 0x55330267u, 0x5775bc3eu, 0x56b7d609u, 0x53f8c08cu, 0x523aaabbu, 0x507c14e2u,
        0x51be7ed5u, 0x5ae239e8u, 0x5b2053dfu, 0x5966ed86u, 0x58a487b1u, 0x5deb9134u, 0x5c29fb03u,
        0x5e6f455au, 0x5fad2f6du, 0xe1351b80u, 0xe0f771b7u, 0xe2b1cfeeu, 0xe373a5d9u, 0xe63cb35cu,
        0xe7fed96bu, 0xe5b86732u, 0xe47a0d05u, 0xef264a38u, 0xeee4200fu, 0xeca29e56u, 0xed60f461u,
        0xe82fe2e4u, 0xe9ed88d3u, 0xebab368au, 0xea695cbdu, 0xfd13b8f0u, 0xfcd1d2c7u, 0xfe976c9eu,
        0xff5506a9u, 0xfa1a102cu, 0xfbd87a1bu, 0xf99ec442u, 0xf85cae75u, 0xf300e948u, 0xf2c2837fu,
        0xf0843d26u, 0xf1465711u, 0xf4094194u, 0xf5cb2ba3u, 0xf78d95fau, 0xf64fffcdu, 0xd9785d60u,
        0xd8ba3757u, 0xdafc890eu, 0xdb3ee339u, 0xde71f5bcu, 0xdfb39f8bu, 0xddf521d2u, 0xdc374be5u,
        0xd76b0cd8u, 0xd6a966efu, 0xd4efd8b6u, 0xd52db281u, 0xd062a404u, 0xd1a0ce33u, 0xd3e6706au,
        0xd2241a5du, 0xc55efe10u, 0xc49c9427u, 0xc6da2a7eu, 0xc7184049u, 0xc25756ccu, 0xc3953cfbu,
        0xc1d382a2u, 0xc011e895u, 0xcb4dafa8u, 0xca8fc59fu, 0xc8c97bc6u, 0xc90b11f1u, 0xcc440774u,
        0xcd866d43u, 0xcfc0d31au, 0xce02b92du, 0x91af9640u, 0x906dfc77u, 0x922b422eu, 0x93e92819u,
        0x96a63e9cu, 0x976454abu, 0x9522eaf2u, 0x94e080c5u, 0x9fbcc7f8u, 0x9e7eadcfu, 0x9c381396u,
        0x9dfa79a1u, 0x98b56f24u, 0x99770513u, 0x9b31bb4au, 0x9af3d17du, 0x8d893530u, 0x8c4b5f07u,
        0x8e0de15eu, 0x8fcf8b69u, 0x8a809decu, 0x8b42f7dbu, 0x89044982u, 0x88c623b5u, 0x839a6488u,
        0x82580ebfu, 0x801eb0e6u, 0x81dcdad1u, 0x8493cc54u, 0x8551a663u, 0x8717183au, 0x86d5720du,
        0xa9e2d0a0u, 0xa820ba97u, 0xaa6604ceu, 0xaba46ef9u, 0xaeeb787cu, 0xaf29124bu, 0xad6fac12u,
        0xacadc625u, 0xa7f18118u, 0xa633eb2fu, 0xa4755576u, 0xa5b73f41u, 0xa0f829c4u, 0xa13a43f3u,
        0xa37cfdaau, 0xa2be979du, 0xb5c473d0u, 0xb40619e7u, 0xb640a7beu, 0xb782cd89u, 0xb2cddb0cu,
        0xb30fb13bu, 0xb1490f62u, 0xb08b6555u, 0xbbd72268u, 0xba15485fu, 0xb853f606u, 0xb9919c31u,
        0xbcde8ab4u, 0xbd1ce083u, 0xbf5a5edau, 0xbe9834edu,
    },
    {
        0x00000000u, 0xb8bc6765u, 0xaa09c88bu, 0x12b5afeeu, 0x8f629757u, 0x37def032u, 0x256b5fdcu,
        0x9dd738b9u, 0xc5b428efu, 0x7d084f8au, 0x6fbde064u, 0xd7018701u, 0x4ad6bfb8u, 0xf26ad8ddu,
        0xe0df7733u, 0x58631056u, 0x5019579fu, 0xe8a530fau, 0xfa109f14u, 0x42acf871u, 0xdf7bc0c8u,
        0x67c7a7adu, 0x75720843u, 0xcdce6f26u, 0x95ad7f70u, 0x2d111815u, 0x3fa4b7fbu, 0x8718d09eu,
        0x1acfe827u, 0xa2738f42u, 0xb0c620acu, 0x087a47c9u, 0xa032af3eu, 0x188ec85bu, 0x0a3b67b5u,
        0xb28700d0u, 0x2f503869u, 0x97ec5f0cu, 0x8559f0e2u, 0x3de59787u, 0x658687d1u, 0xdd3ae0b4u,
        0xcf8f4f5au, 0x7733283fu, 0xeae41086u, 0x525877e3u, 0x40edd80du, 0xf851bf68u, 0xf02bf8a1u,
        0x48979fc4u, 0x5a22302au, 0xe29e574fu, 0x7f496ff6u, 0xc7f50893u, 0xd540a77du, 0x6dfcc018u,
        0x359fd04eu, 0x8d23b72bu, 0x9f9618c5u, 0x272a7fa0u, 0xbafd4719u, 0x0241207cu, 0x10f48f92u,
        0xa848e8f7u, 0x9b14583du, 0x23a83f58u, 0x311d90b6u, 0x89a1f7d3u, 0x1476cf6au, 0xaccaa80fu,
        0xbe7f07e1u, 0x06c36084u, 0x5ea070d2u, 0xe61c17b7u, 0xf4a9b859u, 0x4c15df3cu, 0xd1c2e785u,
        0x697e80e0u, 0x7bcb2f0eu, 0xc377486bu, 0xcb0d0fa2u, 0x73b168c7u, 0x6104c729u, 0xd9b8a04cu,
        0x446f98f5u, 0xfcd3ff90u, 0xee66507eu, 0x56da371bu, 0x0eb9274du, 0xb6054028u, 0xa4b0efc6u,
        0x1c0c88a3u, 0x81dbb01au, 0x3967d77fu, 0x2bd27891u, 0x936e1ff4u, 0x3b26f703u, 0x839a9066u,
        0x912f3f88u, 0x299358edu, 0xb4446054u, 0x0cf80731u, 0x1e4da8dfu, 0xa6f1cfbau, 0xfe92dfecu,
        0x462eb889u, 0x549b1767u, 0xec277002u, 0x71f048bbu, 0xc94c2fdeu, 0xdbf98030u, 0x6345e755u,
        0x6b3fa09cu, 0xd383c7f9u, 0xc1366817u, 0x798a0f72u, 0xe45d37cbu, 0x5ce150aeu, 0x4e54ff40u,
        0xf6e89825u, 0xae8b8873u, 0x1637ef16u, 0x048240f8u, 0xbc3e279du, 0x21e91f24u, 0x99557841u,
        0x8be0d7afu, 0x335cb0cau, 0xed59b63bu, 0x55e5d15eu, 0x47507eb0u, 0xffec19d5u, 0x623b216cu,
        0xda874609u, 0xc832e9e7u, 0x708e8e82u, 0x28ed9ed4u, 0x9051f9b1u, 0x82e4565fu, 0x3a58313au,
        0xa78f0983u, 0x1f336ee6u, 0x0d86c108u, 0xb53aa66du, 0xbd40e1a4u, 0x05fc86c1u, 0x1749292fu,
        0xaff54e4au, 0x322276f3u, 0x8a9e1196u, 0x982bbe78u, 0x2097d91du, 0x78f4c94bu, 0xc048ae2eu,
        0xd2fd01c0u, 0x6a4166a5u, 0xf7965e1cu, 0x4f2a3979u, 0x5d9f9697u, 0xe523f1f2u, 0x4d6b1905u,
        0xf5d77e60u, 0xe762d18eu, 0x5fdeb6ebu, 0xc2098e52u, 0x7ab5e937u, 0x680046d9u, 0xd0bc21bcu,
        0x88df31eau, 0x3063568fu, 0x22d6f961u, 0x9a6a9e04u, 0x07bda6bdu, 0xbf01c1d8u, 0xadb46e36u,
        0x15080953u, 0x1d724e9au, 0xa5ce29ffu, 0xb77b8611u, 0x0fc7e174u, 0x9210d9cdu, 0x2aacbea8u,
        0x38191146u, 0x80a57623u, 0xd8c66675u, 0x607a0110u, 0x72cfaefeu, 0xca73c99bu, 0x57a4f122u,
        0xef189647u, 0xfdad39a9u, 0x45115eccu, 0x764dee06u, 0xcef18963u, 0xdc44268du, 0x64f841e8u,
        0xf92f7951u, 0x41931e34u, 0x5326b1dau, 0xeb9ad6bfu, 0xb3f9c6e9u, 0x0b45a18cu, 0x19f00e62u,
        0xa14c6907u, 0x3c9b51beu, 0x842736dbu, 0x96929935u, 0x2e2efe50u, 0x2654b999u, 0x9ee8defcu,
        0x8c5d7112u, 0x34e11677u, 0xa9362eceu, 0x118a49abu, 0x033fe645u, 0xbb838120u, 0xe3e09176u,
        0x5b5cf613u, 0x49e959fdu, 0xf1553e98u, 0x6c820621u, 0xd43e6144u, 0xc68bceaau, 0x7e37a9cfu,
        0xd67f4138u, 0x6ec3265du, 0x7c7689b3u, 0xc4caeed6u, 0x591dd66fu, 0xe1a1b10au, 0xf3141ee4u,
        0x4ba87981u, 0x13cb69d7u, 0xab770eb2u, 0xb9c2a15cu, 0x017ec639u, 0x9ca9fe80u, 0x241599e5u,
        0x36a0360bu, 0x8e1c516eu, 0x866616a7u, 0x3eda71c2u, 0x2c6fde2cu, 0x94d3b949u, 0x090481f0u,
        0xb1b8e695u, 0xa30d497bu, 0x1bb12e1eu, 0x43d23e48u, 0xfb6e592du, 0xe9dbf6c3u, 0x516791a6u,
        0xccb0a91fu, 0x740cce7au, 0x66b96194u, 0xde0506f1u,
    },
    {
        0x00000000u, 0x3d6029b0u, 0x7ac05360u, 0x47a07ad0u, 0xf580a6c0u, 0xc8e08f70u, 0x8f40f5a0u,
        0xb220dc10u, 0x30704bc1u, 0x0d106271u, 0x4ab018a1u, 0x77d03111u, 0xc5f0ed01u, 0xf890c4b1u,
        0xbf30be61u, 0x825097d1u, 0x60e09782u, 0x5d80be32u, 0x1a20c4e2u, 0x2740ed52u, 0x95603142u,
        0xa80018f2u, 0xefa06222u, 0xd2c04b92u, 0x5090dc43u, 0x6df0f5f3u, 0x2a508f23u, 0x1730a693u,
        0xa5107a83u, 0x98705333u, 0xdfd029e3u, 0xe2b00053u, 0xc1c12f04u, 0xfca106b4u, 0xbb017c64u,
        0x866155d4u, 0x344189c4u, 0x0921a074u, 0x4e81daa4u, 0x73e1f314u, 0xf1b164c5u, 0xccd14d75u,
        0x8b7137a5u, 0xb6111e15u, 0x0431c205u, 0x3951ebb5u, 0x7ef19165u, 0x4391b8d5u, 0xa121b886u,
        0x9c419136u, 0xdbe1ebe6u, 0xe681c256u, 0x54a11e46u, 0x69c137f6u, 0x2e614d26u, 0x13016496u,
        0x9151f347u, 0xac31daf7u, 0xeb91a027u, 0xd6f18997u, 0x64d15587u, 0x59b17c37u, 0x1e1106e7u,
        0x23712f57u, 0x58f35849u, 0x659371f9u, 0x22330b29u, 0x1f532299u, 0xad73fe89u, 0x9013d739u,
        0xd7b3ade9u, 0xead38459u, 0x68831388u, 0x55e33a38u, 0x124340e8u, 0x2f236958u, 0x9d03b548u,
        0xa0639cf8u, 0xe7c3e628u, 0xdaa3cf98u, 0x3813cfcbu, 0x0573e67bu, 0x42d39cabu, 0x7fb3b51bu,
        0xcd93690bu, 0xf0f340bbu, 0xb7533a6bu, 0x8a3313dbu, 0x0863840au, 0x3503adbau, 0x72a3d76au,
        0x4fc3fedau, 0xfde322cau, 0xc0830b7au, 0x872371aau, 0xba43581au, 0x9932774du, 0xa4525efdu,
        0xe3f2242du, 0xde920d9du, 0x6cb2d18du, 0x51d2f83du, 0x167282edu, 0x2b12ab5du, 0xa9423c8cu,
        0x9422153cu, 0xd3826fecu, 0xeee2465cu, 0x5cc29a4cu, 0x61a2b3fcu, 0x2602c92cu, 0x1b62e09cu,
        0xf9d2e0cfu, 0xc4b2c97fu, 0x8312b3afu, 0xbe729a1fu, 0x0c52460fu, 0x31326fbfu, 0x7692156fu,
        0x4bf23cdfu, 0xc9a2ab0eu, 0xf4c282beu, 0xb362f86eu, 0x8e02d1deu, 0x3c220dceu, 0x0142247eu,
        0x46e25eaeu, 0x7b82771eu, 0xb1e6b092u, 0x8c869922u, 0xcb26e3f2u, 0xf646ca42u, 0x44661652u,
        0x79063fe2u, 0x3ea64532u, 0x03c66c82u, 0x8196fb53u, 0xbcf6d2e3u, 0xfb56a833u, 0xc6368183u,
        0x74165d93u, 0x49767423u, 0x0ed60ef3u, 0x33b62743u, 0xd1062710u, 0xec660ea0u, 0xabc67470u,
        0x96a65dc0u, 0x248681d0u, 0x19e6a860u, 0x5e46d2b0u, 0x6326fb00u, 0xe1766cd1u, 0xdc164561u,
        0x9bb63fb1u, 0xa6d61601u, 0x14f6ca11u, 0x2996e3a1u, 0x6e369971u, 0x5356b0c1u, 0x70279f96u,
        0x4d47b626u, 0x0ae7ccf6u, 0x3787e546u, 0x85a73956u, 0xb8c710e6u, 0xff676a36u, 0xc2074386u,
        0x4057d457u, 0x7d37fde7u, 0x3a978737u, 0x07f7ae87u, 0xb5d77297u, 0x88b75b27u, 0xcf1721f7u,
        0xf2770847u, 0x10c70814u, 0x2da721a4u, 0x6a075b74u, 0x576772c4u, 0xe547aed4u, 0xd8278764u,
        0x9f87fdb4u, 0xa2e7d404u, 0x20b743d5u, 0x1dd76a65u, 0x5a7710b5u, 0x67173905u, 0xd537e515u,
        0xe857cca5u, 0xaff7b675u, 0x92979fc5u, 0xe915e8dbu, 0xd475c16bu, 0x93d5bbbbu, 0xaeb5920bu,
        0x1c954e1bu, 0x21f567abu, 0x66551d7bu, 0x5b3534cbu, 0xd965a31au, 0xe4058aaau, 0xa3a5f07au,
        0x9ec5d9cau, 0x2ce505dau, 0x11852c6au, 0x562556bau, 0x6b457f0au, 0x89f57f59u, 0xb49556e9u,
        0xf3352c39u, 0xce550589u, 0x7c75d999u, 0x4115f029u, 0x06b58af9u, 0x3bd5a349u, 0xb9853498u,
        0x84e51d28u, 0xc34567f8u, 0xfe254e48u, 0x4c059258u, 0x7165bbe8u, 0x36c5c138u, 0x0ba5e888u,
        0x28d4c7dfu, 0x15b4ee6fu, 0x521494bfu, 0x6f74bd0fu, 0xdd54611fu, 0xe03448afu, 0xa794327fu,
        0x9af41bcfu, 0x18a48c1eu, 0x25c4a5aeu, 0x6264df7eu, 0x5f04f6ceu, 0xed242adeu, 0xd044036eu,
        0x97e479beu, 0xaa84500eu, 0x4834505du, 0x755479edu, 0x32f4033du, 0x0f942a8du, 0xbdb4f69du,
        0x80d4df2du, 0xc774a5fdu, 0xfa148c4du, 0x78441b9cu, 0x4524322cu, 0x028448fcu, 0x3fe4614cu,
        0x8dc4bd5cu, 0xb0a494ecu, 0xf704ee3cu, 0xca64c78cu,
    },
    {
        0x00000000u, 0xcb5cd3a5u, 0x4dc8a10bu, 0x869472aeu, 0x9b914216u, 0x50cd91b3u, 0xd659e31du,
        0x1d0530b8u, 0xec53826du, 0x270f51c8u, 0xa19b2366u, 0x6ac7f0c3u, 0x77c2c07bu, 0xbc9e13deu,
        0x3a0a6170u, 0xf156b2d5u, 0x03d6029bu, 0xc88ad13eu, 0x4e1ea390u, 0x85427035u, 0x9847408du,
        0x531b9328u, 0xd58fe186u, 0x1ed33223u, 0xef8580f6u, 0x24d95353u, 0xa24d21fdu, 0x6911f258u,
        0x7414c2e0u, 0xbf481145u, 0x39dc63ebu, 0xf280b04eu, 0x07ac0536u, 0xccf0d693u, 0x4a64a43du,
        0x81387798u, 0x9c3d4720u, 0x57619485u, 0xd1f5e62bu, 0x1aa9358eu, 0xebff875bu, 0x20a354feu,
        0xa6372650u, 0x6d6bf5f5u, 0x706ec54du, 0xbb3216e8u, 0x3da66446u, 0xf6fab7e3u, 0x047a07adu,
        0xcf26d408u, 0x49b2a6a6u, 0x82ee7503u, 0x9feb45bbu, 0x54b7961eu, 0xd223e4b0u, 0x197f3715u,
        0xe82985c0u, 0x23755665u, 0xa5e124cbu, 0x6ebdf76eu, 0x73b8c7d6u, 0xb8e41473u, 0x3e7066ddu,
        0xf52cb578u, 0x0f580a6cu, 0xc404d9c9u, 0x4290ab67u, 0x89cc78c2u, 0x94c9487au, 0x5f959bdfu,
        0xd901e971u, 0x125d3ad4u, 0xe30b8801u, 0x28575ba4u, 0xaec3290au, 0x659ffaafu, 0x789aca17u,
        0xb3c619b2u, 0x35526b1cu, 0xfe0eb8b9u, 0x0c8e08f7u, 0xc7d2db52u, 0x4146a9fcu, 0x8a1a7a59u,
        0x971f4ae1u, 0x5c439944u, 0xdad7ebeau, 0x118b384fu, 0xe0dd8a9au, 0x2b81593fu, 0xad152b91u,
        0x6649f834u, 0x7b4cc88cu, 0xb0101b29u, 0x36846987u, 0xfdd8ba22u, 0x08f40f5au, 0xc3a8dcffu,
        0x453cae51u, 0x8e607df4u, 0x93654d4cu, 0x58399ee9u, 0xdeadec47u, 0x15f13fe2u, 0xe4a78d37u,
        0x2ffb5e92u, 0xa96f2c3cu, 0x6233ff99u, 0x7f36cf21u, 0xb46a1c84u, 0x32fe6e2au, 0xf9a2bd8fu,
        0x0b220dc1u, 0xc07ede64u, 0x46eaaccau, 0x8db67f6fu, 0x90b34fd7u, 0x5bef9c72u, 0xdd7beedcu,
        0x16273d79u, 0xe7718facu, 0x2c2d5c09u, 0xaab92ea7u, 0x61e5fd02u, 0x7ce0cdbau, 0xb7bc1e1fu,
        0x31286cb1u, 0xfa74bf14u, 0x1eb014d8u, 0xd5ecc77du, 0x5378b5d3u, 0x98246676u, 0x852156ceu,
        0x4e7d856bu, 0xc8e9f7c5u, 0x03b52460u, 0xf2e396b5u, 0x39bf4510u, 0xbf2b37beu, 0x7477e41bu,
        0x6972d4a3u, 0xa22e0706u, 0x24ba75a8u, 0xefe6a60du, 0x1d661643u, 0xd63ac5e6u, 0x50aeb748u,
        0x9bf264edu, 0x86f75455u, 0x4dab87f0u, 0xcb3ff55eu, 0x006326fbu, 0xf135942eu, 0x3a69478bu,
        0xbcfd3525u, 0x77a1e680u, 0x6aa4d638u, 0xa1f8059du, 0x276c7733u, 0xec30a496u, 0x191c11eeu,
        0xd240c24bu, 0x54d4b0e5u, 0x9f886340u, 0x828d53f8u, 0x49d1805du, 0xcf45f2f3u, 0x04192156u,
        0xf54f9383u, 0x3e134026u, 0xb8873288u, 0x73dbe12du, 0x6eded195u, 0xa5820230u, 0x2316709eu,
        0xe84aa33bu, 0x1aca1375u, 0xd196c0d0u, 0x5702b27eu, 0x9c5e61dbu, 0x815b5163u, 0x4a0782c6u,
        0xcc93f068u, 0x07cf23cdu, 0xf6999118u, 0x3dc542bdu, 0xbb513013u, 0x700de3b6u, 0x6d08d30eu,
        0xa65400abu, 0x20c07205u, 0xeb9ca1a0u, 0x11e81eb4u, 0xdab4cd11u, 0x5c20bfbfu, 0x977c6c1au,
        0x8a795ca2u, 0x41258f07u, 0xc7b1fda9u, 0x0ced2e0cu, 0xfdbb9cd9u, 0x36e74f7cu, 0xb0733dd2u,
        0x7b2fee77u, 0x662adecfu, 0xad760d6au, 0x2be27fc4u, 0xe0beac61u, 0x123e1c2fu, 0xd962cf8au,
        0x5ff6bd24u, 0x94aa6e81u, 0x89af5e39u, 0x42f38d9cu, 0xc467ff32u, 0x0f3b2c97u, 0xfe6d9e42u,
        0x35314de7u, 0xb3a53f49u, 0x78f9ececu, 0x65fcdc54u, 0xaea00ff1u, 0x28347d5fu, 0xe368aefau,
        0x16441b82u, 0xdd18c827u, 0x5b8cba89u, 0x90d0692cu, 0x8dd55994u, 0x46898a31u, 0xc01df89fu,
        0x0b412b3au, 0xfa1799efu, 0x314b4a4au, 0xb7df38e4u, 0x7c83eb41u, 0x6186dbf9u, 0xaada085cu,
        0x2c4e7af2u, 0xe712a957u, 0x15921919u, 0xdececabcu, 0x585ab812u, 0x93066bb7u, 0x8e035b0fu,
        0x455f88aau, 0xc3cbfa04u, 0x089729a1u, 0xf9c19b74u, 0x329d48d1u, 0xb4093a7fu, 0x7f55e9dau,
        0x6250d962u, 0xa90c0ac7u, 0x2f987869u, 0xe4c4abccu,
    },
    {
        0x00000000u, 0xa6770bb4u, 0x979f1129u, 0x31e81a9du, 0xf44f2413u, 0x52382fa7u, 0x63d0353au,
        0xc5a73e8eu, 0x33ef4e67u, 0x959845d3u, 0xa4705f4eu, 0x020754fau, 0xc7a06a74u, 0x61d761c0u,
        0x503f7b5du, 0xf64870e9u, 0x67de9cceu, 0xc1a9977au, 0xf0418de7u, 0x56368653u, 0x9391b8ddu,
        0x35e6b369u, 0x040ea9f4u, 0xa279a240u, 0x5431d2a9u, 0xf246d91du, 0xc3aec380u, 0x65d9c834u,
        0xa07ef6bau, 0x0609fd0eu, 0x37e1e793u, 0x9196ec27u, 0xcfbd399cu, 0x69ca3228u, 0x582228b5u,
        0xfe552301u, 0x3bf21d8fu, 0x9d85163bu, 0xac6d0ca6u, 0x0a1a0712u, 0xfc5277fbu, 0x5a257c4fu,
        0x6bcd66d2u, 0xcdba6d66u, 0x081d53e8u, 0xae6a585cu, 0x9f8242c1u, 0x39f54975u, 0xa863a552u,
        0x0e14aee6u, 0x3ffcb47bu, 0x998bbfcfu, 0x5c2c8141u, 0xfa5b8af5u, 0xcbb39068u, 0x6dc49bdcu,
        0x9b8ceb35u, 0x3dfbe081u, 0x0c13fa1cu, 0xaa64f1a8u, 0x6fc3cf26u, 0xc9b4c492u, 0xf85cde0fu,
        0x5e2bd5bbu, 0x440b7579u, 0xe27c7ecdu, 0xd3946450u, 0x75e36fe4u, 0xb044516au, 0x16335adeu,
        0x27db4043u, 0x81ac4bf7u, 0x77e43b1eu, 0xd19330aau, 0xe07b2a37u, 0x460c2183u, 0x83ab1f0du,
        0x25dc14b9u, 0x14340e24u, 0xb2430590u, 0x23d5e9b7u, 0x85a2e203u, 0xb44af89eu, 0x123df32au,
        0xd79acda4u, 0x71edc610u, 0x4005dc8du, 0xe672d739u, 0x103aa7d0u, 0xb64dac64u, 0x87a5b6f9u,
        0x21d2bd4du, 0xe47583c3u, 0x42028877u, 0x73ea92eau, 0xd59d995eu, 0x8bb64ce5u, 0x2dc14751u,
        0x1c295dccu, 0xba5e5678u, 0x7ff968f6u, 0xd98e6342u, 0xe86679dfu, 0x4e11726bu, 0xb8590282u,
        0x1e2e0936u, 0x2fc613abu, 0x89b1181fu, 0x4c162691u, 0xea612d25u, 0xdb8937b8u, 0x7dfe3c0cu,
        0xec68d02bu, 0x4a1fdb9fu, 0x7bf7c102u, 0xdd80cab6u, 0x1827f438u, 0xbe50ff8cu, 0x8fb8e511u,
        0x29cfeea5u, 0xdf879e4cu, 0x79f095f8u, 0x48188f65u, 0xee6f84d1u, 0x2bc8ba5fu, 0x8dbfb1ebu,
        0xbc57ab76u, 0x1a20a0c2u, 0x8816eaf2u, 0x2e61e146u, 0x1f89fbdbu, 0xb9fef06fu, 0x7c59cee1u,
        0xda2ec555u, 0xebc6dfc8u, 0x4db1d47cu, 0xbbf9a495u, 0x1d8eaf21u, 0x2c66b5bcu, 0x8a11be08u,
        0x4fb68086u, 0xe9c18b32u, 0xd82991afu, 0x7e5e9a1bu, 0xefc8763cu, 0x49bf7d88u, 0x78576715u,
        0xde206ca1u, 0x1b87522fu, 0xbdf0599bu, 0x8c184306u, 0x2a6f48b2u, 0xdc27385bu, 0x7a5033efu,
        0x4bb82972u, 0xedcf22c6u, 0x28681c48u, 0x8e1f17fcu, 0xbff70d61u, 0x198006d5u, 0x47abd36eu,
        0xe1dcd8dau, 0xd034c247u, 0x7643c9f3u, 0xb3e4f77du, 0x1593fcc9u, 0x247be654u, 0x820cede0u,
        0x74449d09u, 0xd23396bdu, 0xe3db8c20u, 0x45ac8794u, 0x800bb91au, 0x267cb2aeu, 0x1794a833u,
        0xb1e3a387u, 0x20754fa0u, 0x86024414u, 0xb7ea5e89u, 0x119d553du, 0xd43a6bb3u, 0x724d6007u,
        0x43a57a9au, 0xe5d2712eu, 0x139a01c7u, 0xb5ed0a73u, 0x840510eeu, 0x22721b5au, 0xe7d525d4u,
        0x41a22e60u, 0x704a34fdu, 0xd63d3f49u, 0xcc1d9f8bu, 0x6a6a943fu, 0x5b828ea2u, 0xfdf58516u,
        0x3852bb98u, 0x9e25b02cu, 0xafcdaab1u, 0x09baa105u, 0xfff2d1ecu, 0x5985da58u, 0x686dc0c5u,
        0xce1acb71u, 0x0bbdf5ffu, 0xadcafe4bu, 0x9c22e4d6u, 0x3a55ef62u, 0xabc30345u, 0x0db408f1u,
        0x3c5c126cu, 0x9a2b19d8u, 0x5f8c2756u, 0xf9fb2ce2u, 0xc813367fu, 0x6e643dcbu, 0x982c4d22u,
        0x3e5b4696u, 0x0fb35c0bu, 0xa9c457bfu, 0x6c636931u, 0xca146285u, 0xfbfc7818u, 0x5d8b73acu,
        0x03a0a617u, 0xa5d7ada3u, 0x943fb73eu, 0x3248bc8au, 0xf7ef8204u, 0x519889b0u, 0x6070932du,
        0xc6079899u, 0x304fe870u, 0x9638e3c4u, 0xa7d0f959u, 0x01a7f2edu, 0xc400cc63u, 0x6277c7d7u,
        0x539fdd4au, 0xf5e8d6feu, 0x647e3ad9u, 0xc209316du, 0xf3e12bf0u, 0x55962044u, 0x90311ecau,
        0x3646157eu, 0x07ae0fe3u, 0xa1d90457u, 0x579174beu, 0xf1e67f0au, 0xc00e6597u, 0x66796e23u,
        0xa3de50adu, 0x05a95b19u, 0x34414184u, 0x92364a30u,
    },
    {
        0x00000000u, 0xccaa009eu, 0x4225077du, 0x8e8f07e3u, 0x844a0efau, 0x48e00e64u, 0xc66f0987u,
        0x0ac50919u, 0xd3e51bb5u, 0x1f4f1b2bu, 0x91c01cc8u, 0x5d6a1c56u, 0x57af154fu, 0x9b0515d1u,
        0x158a1232u, 0xd92012acu, 0x7cbb312bu, 0xb01131b5u, 0x3e9e3656u, 0xf23436c8u, 0xf8f13fd1u,
        0x345b3f4fu, 0xbad438acu, 0x767e3832u, 0xaf5e2a9eu, 0x63f42a00u, 0xed7b2de3u, 0x21d12d7du,
        0x2b142464u, 0xe7be24fau, 0x69312319u, 0xa59b2387u, 0xf9766256u, 0x35dc62c8u, 0xbb53652bu,
        0x77f965b5u, 0x7d3c6cacu, 0xb1966c32u, 0x3f196bd1u, 0xf3b36b4fu, 0x2a9379e3u, 0xe639797du,
        0x68b67e9eu, 0xa41c7e00u, 0xaed97719u, 0x62737787u, 0xecfc7064u, 0x205670fau, 0x85cd537du,
        0x496753e3u, 0xc7e85400u, 0x0b42549eu, 0x01875d87u, 0xcd2d5d19u, 0x43a25afau, 0x8f085a64u,
        0x562848c8u, 0x9a824856u, 0x140d4fb5u, 0xd8a74f2bu, 0xd2624632u, 0x1ec846acu, 0x9047414fu,
        0x5ced41d1u, 0x299dc2edu, 0xe537c273u, 0x6bb8c590u, 0xa712c50eu, 0xadd7cc17u, 0x617dcc89u,
        0xeff2cb6au, 0x2358cbf4u, 0xfa78d958u, 0x36d2d9c6u, 0xb85dde25u, 0x74f7debbu, 0x7e32d7a2u,
        0xb298d73cu, 0x3c17d0dfu, 0xf0bdd041u, 0x5526f3c6u, 0x998cf358u, 0x1703f4bbu, 0xdba9f425u,
        0xd16cfd3cu, 0x1dc6fda2u, 0x9349fa41u, 0x5fe3fadfu, 0x86c3e873u, 0x4a69e8edu, 0xc4e6ef0eu,
        0x084cef90u, 0x0289e689u, 0xce23e617u, 0x40ace1f4u, 0x8c06e16au, 0xd0eba0bbu, 0x1c41a025u,
        0x92cea7c6u, 0x5e64a758u, 0x54a1ae41u, 0x980baedfu, 0x1684a93cu, 0xda2ea9a2u, 0x030ebb0eu,
        0xcfa4bb90u, 0x412bbc73u, 0x8d81bcedu, 0x8744b5f4u, 0x4beeb56au, 0xc561b289u, 0x09cbb217u,
        0xac509190u, 0x60fa910eu, 0xee7596edu, 0x22df9673u, 0x281a9f6au, 0xe4b09ff4u, 0x6a3f9817u,
        0xa6959889u, 0x7fb58a25u, 0xb31f8abbu, 0x3d908d58u, 0xf13a8dc6u, 0xfbff84dfu, 0x37558441u,
        0xb9da83a2u, 0x7570833cu, 0x533b85dau, 0x9f918544u, 0x111e82a7u, 0xddb48239u, 0xd7718b20u,
        0x1bdb8bbeu, 0x95548c5du, 0x59fe8cc3u, 0x80de9e6fu, 0x4c749ef1u, 0xc2fb9912u, 0x0e51998cu,
        0x04949095u, 0xc83e900bu, 0x46b197e8u, 0x8a1b9776u, 0x2f80b4f1u, 0xe32ab46fu, 0x6da5b38cu,
        0xa10fb312u, 0xabcaba0bu, 0x6760ba95u, 0xe9efbd76u, 0x2545bde8u, 0xfc65af44u, 0x30cfafdau,
        0xbe40a839u, 0x72eaa8a7u, 0x782fa1beu, 0xb485a120u, 0x3a0aa6c3u, 0xf6a0a65du, 0xaa4de78cu,
        0x66e7e712u, 0xe868e0f1u, 0x24c2e06fu, 0x2e07e976u, 0xe2ade9e8u, 0x6c22ee0bu, 0xa088ee95u,
        0x79a8fc39u, 0xb502fca7u, 0x3b8dfb44u, 0xf727fbdau, 0xfde2f2c3u, 0x3148f25du, 0xbfc7f5beu,
        0x736df520u, 0xd6f6d6a7u, 0x1a5cd639u, 0x94d3d1dau, 0x5879d144u, 0x52bcd85du, 0x9e16d8c3u,
        0x1099df20u, 0xdc33dfbeu, 0x0513cd12u, 0xc9b9cd8cu, 0x4736ca6fu, 0x8b9ccaf1u, 0x8159c3e8u,
        0x4df3c376u, 0xc37cc495u, 0x0fd6c40bu, 0x7aa64737u, 0xb60c47a9u, 0x3883404au, 0xf42940d4u,
        0xfeec49cdu, 0x32464953u, 0xbcc94eb0u, 0x70634e2eu, 0xa9435c82u, 0x65e95c1cu, 0xeb665bffu,
        0x27cc5b61u, 0x2d095278u, 0xe1a352e6u, 0x6f2c5505u, 0xa386559bu, 0x061d761cu, 0xcab77682u,
        0x44387161u, 0x889271ffu, 0x825778e6u, 0x4efd7878u, 0xc0727f9bu, 0x0cd87f05u, 0xd5f86da9u,
        0x19526d37u, 0x97dd6ad4u, 0x5b776a4au, 0x51b26353u, 0x9d1863cdu, 0x1397642eu, 0xdf3d64b0u,
        0x83d02561u, 0x4f7a25ffu, 0xc1f5221cu, 0x0d5f2282u, 0x079a2b9bu, 0xcb302b05u, 0x45bf2ce6u,
        0x89152c78u, 0x50353ed4u, 0x9c9f3e4au, 0x121039a9u, 0xdeba3937u, 0xd47f302eu, 0x18d530b0u,
        0x965a3753u, 0x5af037cdu, 0xff6b144au, 0x33c114d4u, 0xbd4e1337u, 0x71e413a9u, 0x7b211ab0u,
        0xb78b1a2eu, 0x39041dcdu, 0xf5ae1d53u, 0x2c8e0fffu, 0xe0240f61u, 0x6eab0882u, 0xa201081cu,
        0xa8c40105u, 0x646e019bu, 0xeae10678u, 0x264b06e6u,
    },
    {
        0x00000000u, 0x177b1443u, 0x2ef62886u, 0x398d3cc5u, 0x5dec510cu, 0x4a97454fu, 0x731a798au,
        0x64616dc9u, 0xbbd8a218u, 0xaca3b65bu, 0x952e8a9eu, 0x82559eddu, 0xe634f314u, 0xf14fe757u,
        0xc8c2db92u, 0xdfb9cfd1u, 0xacc04271u, 0xbbbb5632u, 0x82366af7u, 0x954d7eb4u, 0xf12c137du,
        0xe657073eu, 0xdfda3bfbu, 0xc8a12fb8u, 0x1718e069u, 0x0063f42au, 0x39eec8efu, 0x2e95dcacu,
        0x4af4b165u, 0x5d8fa526u, 0x640299e3u, 0x73798da0u, 0x82f182a3u, 0x958a96e0u, 0xac07aa25u,
        0xbb7cbe66u, 0xdf1dd3afu, 0xc866c7ecu, 0xf1ebfb29u, 0xe690ef6au, 0x392920bbu, 0x2e5234f8u,
        0x17df083du, 0x00a41c7eu, 0x64c571b7u, 0x73be65f4u, 0x4a335931u, 0x5d484d72u, 0x2e31c0d2u,
        0x394ad491u, 0x00c7e854u, 0x17bcfc17u, 0x73dd91deu, 0x64a6859du, 0x5d2bb958u, 0x4a50ad1bu,
        0x95e962cau, 0x82927689u, 0xbb1f4a4cu, 0xac645e0fu, 0xc80533c6u, 0xdf7e2785u, 0xe6f31b40u,
        0xf1880f03u, 0xde920307u, 0xc9e91744u, 0xf0642b81u, 0xe71f3fc2u, 0x837e520bu, 0x94054648u,
        0xad887a8du, 0xbaf36eceu, 0x654aa11fu, 0x7231b55cu, 0x4bbc8999u, 0x5cc79ddau, 0x38a6f013u,
        0x2fdde450u, 0x1650d895u, 0x012bccd6u, 0x72524176u, 0x65295535u, 0x5ca469f0u, 0x4bdf7db3u,
        0x2fbe107au, 0x38c50439u, 0x014838fcu, 0x16332cbfu, 0xc98ae36eu, 0xdef1f72du, 0xe77ccbe8u,
        0xf007dfabu, 0x9466b262u, 0x831da621u, 0xba909ae4u, 0xadeb8ea7u, 0x5c6381a4u, 0x4b1895e7u,
        0x7295a922u, 0x65eebd61u, 0x018fd0a8u, 0x16f4c4ebu, 0x2f79f82eu, 0x3802ec6du, 0xe7bb23bcu,
        0xf0c037ffu, 0xc94d0b3au, 0xde361f79u, 0xba5772b0u, 0xad2c66f3u, 0x94a15a36u, 0x83da4e75u,
        0xf0a3c3d5u, 0xe7d8d796u, 0xde55eb53u, 0xc92eff10u, 0xad4f92d9u, 0xba34869au, 0x83b9ba5fu,
        0x94c2ae1cu, 0x4b7b61cdu, 0x5c00758eu, 0x658d494bu, 0x72f65d08u, 0x169730c1u, 0x01ec2482u,
        0x38611847u, 0x2f1a0c04u, 0x6655004fu, 0x712e140cu, 0x48a328c9u, 0x5fd83c8au, 0x3bb95143u,
        0x2cc24500u, 0x154f79c5u, 0x02346d86u, 0xdd8da257u, 0xcaf6b614u, 0xf37b8ad1u, 0xe4009e92u,
        0x8061f35bu, 0x971ae718u, 0xae97dbddu, 0xb9eccf9eu, 0xca95423eu, 0xddee567du, 0xe4636ab8u,
        0xf3187efbu, 0x97791332u, 0x80020771u, 0xb98f3bb4u, 0xaef42ff7u, 0x714de026u, 0x6636f465u,
        0x5fbbc8a0u, 0x48c0dce3u, 0x2ca1b12au, 0x3bdaa569u, 0x025799acu, 0x152c8defu, 0xe4a482ecu,
        0xf3df96afu, 0xca52aa6au, 0xdd29be29u, 0xb948d3e0u, 0xae33c7a3u, 0x97befb66u, 0x80c5ef25u,
        0x5f7c20f4u, 0x480734b7u, 0x718a0872u, 0x66f11c31u, 0x029071f8u, 0x15eb65bbu, 0x2c66597eu,
        0x3b1d4d3du, 0x4864c09du, 0x5f1fd4deu, 0x6692e81bu, 0x71e9fc58u, 0x15889191u, 0x02f385d2u,
        0x3b7eb917u, 0x2c05ad54u, 0xf3bc6285u, 0xe4c776c6u, 0xdd4a4a03u, 0xca315e40u, 0xae503389u,
        0xb92b27cau, 0x80a61b0fu, 0x97dd0f4cu, 0xb8c70348u, 0xafbc170bu, 0x96312bceu, 0x814a3f8du,
        0xe52b5244u, 0xf2504607u, 0xcbdd7ac2u, 0xdca66e81u, 0x031fa150u, 0x1464b513u, 0x2de989d6u,
        0x3a929d95u, 0x5ef3f05cu, 0x4988e41fu, 0x7005d8dau, 0x677ecc99u, 0x14074139u, 0x037c557au,
        0x3af169bfu, 0x2d8a7dfcu, 0x49eb1035u, 0x5e900476u, 0x671d38b3u, 0x70662cf0u, 0xafdfe321u,
        0xb8a4f762u, 0x8129cba7u, 0x9652dfe4u, 0xf233b22du, 0xe548a66eu, 0xdcc59aabu, 0xcbbe8ee8u,
        0x3a3681ebu, 0x2d4d95a8u, 0x14c0a96du, 0x03bbbd2eu, 0x67dad0e7u, 0x70a1c4a4u, 0x492cf861u,
        0x5e57ec22u, 0x81ee23f3u, 0x969537b0u, 0xaf180b75u, 0xb8631f36u, 0xdc0272ffu, 0xcb7966bcu,
        0xf2f45a79u, 0xe58f4e3au, 0x96f6c39au, 0x818dd7d9u, 0xb800eb1cu, 0xaf7bff5fu, 0xcb1a9296u,
        0xdc6186d5u, 0xe5ecba10u, 0xf297ae53u, 0x2d2e6182u, 0x3a5575c1u, 0x03d84904u, 0x14a35d47u,
        0x70c2308eu, 0x67b924cdu, 0x5e341808u, 0x494f0c4bu,
    },
    {
        0x00000000u, 0xefc26b3eu, 0x04f5d03du, 0xeb37bb03u, 0x09eba07au, 0xe629cb44u, 0x0d1e7047u,
        0xe2dc1b79u, 0x13d740f4u, 0xfc152bcau, 0x172290c9u, 0xf8e0fbf7u, 0x1a3ce08eu, 0xf5fe8bb0u,
        0x1ec930b3u, 0xf10b5b8du, 0x27ae81e8u, 0xc86cead6u, 0x235b51d5u, 0xcc993aebu, 0x2e452192u,
        0xc1874aacu, 0x2ab0f1afu, 0xc5729a91u, 0x3479c11cu, 0xdbbbaa22u, 0x308c1121u, 0xdf4e7a1fu,
        0x3d926166u, 0xd2500a58u, 0x3967b15bu, 0xd6a5da65u, 0x4f5d03d0u, 0xa09f68eeu, 0x4ba8d3edu,
        0xa46ab8d3u, 0x46b6a3aau, 0xa974c894u, 0x42437397u, 0xad8118a9u, 0x5c8a4324u, 0xb348281au,
        0x587f9319u, 0xb7bdf827u, 0x5561e35eu, 0xbaa38860u, 0x51943363u, 0xbe56585du, 0x68f38238u,
        0x8731e906u, 0x6c065205u, 0x83c4393bu, 0x61182242u, 0x8eda497cu, 0x65edf27fu, 0x8a2f9941u,
        0x7b24c2ccu, 0x94e6a9f2u, 0x7fd112f1u, 0x901379cfu, 0x72cf62b6u, 0x9d0d0988u, 0x763ab28bu,
        0x99f8d9b5u, 0x9eba07a0u, 0x71786c9eu, 0x9a4fd79du, 0x758dbca3u, 0x9751a7dau, 0x7893cce4u,
        0x93a477e7u, 0x7c661cd9u, 0x8d6d4754u, 0x62af2c6au, 0x89989769u, 0x665afc57u, 0x8486e72eu,
        0x6b448c10u, 0x80733713u, 0x6fb15c2du, 0xb9148648u, 0x56d6ed76u, 0xbde15675u, 0x52233d4bu,
        0xb0ff2632u, 0x5f3d4d0cu, 0xb40af60fu, 0x5bc89d31u, 0xaac3c6bcu, 0x4501ad82u, 0xae361681u,
        0x41f47dbfu, 0xa32866c6u, 0x4cea0df8u, 0xa7ddb6fbu, 0x481fddc5u, 0xd1e70470u, 0x3e256f4eu,
        0xd512d44du, 0x3ad0bf73u, 0xd80ca40au, 0x37cecf34u, 0xdcf97437u, 0x333b1f09u, 0xc2304484u,
        0x2df22fbau, 0xc6c594b9u, 0x2907ff87u, 0xcbdbe4feu, 0x24198fc0u, 0xcf2e34c3u, 0x20ec5ffdu,
        0xf6498598u, 0x198beea6u, 0xf2bc55a5u, 0x1d7e3e9bu, 0xffa225e2u, 0x10604edcu, 0xfb57f5dfu,
        0x14959ee1u, 0xe59ec56cu, 0x0a5cae52u, 0xe16b1551u, 0x0ea97e6fu, 0xec756516u, 0x03b70e28u,
        0xe880b52bu, 0x0742de15u, 0xe6050901u, 0x09c7623fu, 0xe2f0d93cu, 0x0d32b202u, 0xefeea97bu,
        0x002cc245u, 0xeb1b7946u, 0x04d91278u, 0xf5d249f5u, 0x1a1022cbu, 0xf12799c8u, 0x1ee5f2f6u,
        0xfc39e98fu, 0x13fb82b1u, 0xf8cc39b2u, 0x170e528cu, 0xc1ab88e9u, 0x2e69e3d7u, 0xc55e58d4u,
        0x2a9c33eau, 0xc8402893u, 0x278243adu, 0xccb5f8aeu, 0x23779390u, 0xd27cc81du, 0x3dbea323u,
        0xd6891820u, 0x394b731eu, 0xdb976867u, 0x34550359u, 0xdf62b85au, 0x30a0d364u, 0xa9580ad1u,
        0x469a61efu, 0xadaddaecu, 0x426fb1d2u, 0xa0b3aaabu, 0x4f71c195u, 0xa4467a96u, 0x4b8411a8u,
        0xba8f4a25u, 0x554d211bu, 0xbe7a9a18u, 0x51b8f126u, 0xb364ea5fu, 0x5ca68161u, 0xb7913a62u,
        0x5853515cu, 0x8ef68b39u, 0x6134e007u, 0x8a035b04u, 0x65c1303au, 0x871d2b43u, 0x68df407du,
        0x83e8fb7eu, 0x6c2a9040u, 0x9d21cbcdu, 0x72e3a0f3u, 0x99d41bf0u, 0x761670ceu, 0x94ca6bb7u,
        0x7b080089u, 0x903fbb8au, 0x7ffdd0b4u, 0x78bf0ea1u, 0x977d659fu, 0x7c4ade9cu, 0x9388b5a2u,
        0x7154aedbu, 0x9e96c5e5u, 0x75a17ee6u, 0x9a6315d8u, 0x6b684e55u, 0x84aa256bu, 0x6f9d9e68u,
        0x805ff556u, 0x6283ee2fu, 0x8d418511u, 0x66763e12u, 0x89b4552cu, 0x5f118f49u, 0xb0d3e477u,
        0x5be45f74u, 0xb426344au, 0x56fa2f33u, 0xb938440du, 0x520fff0eu, 0xbdcd9430u, 0x4cc6cfbdu,
        0xa304a483u, 0x48331f80u, 0xa7f174beu, 0x452d6fc7u, 0xaaef04f9u, 0x41d8bffau, 0xae1ad4c4u,
        0x37e20d71u, 0xd820664fu, 0x3317dd4cu, 0xdcd5b672u, 0x3e09ad0bu, 0xd1cbc635u, 0x3afc7d36u,
        0xd53e1608u, 0x24354d85u, 0xcbf726bbu, 0x20c09db8u, 0xcf02f686u, 0x2ddeedffu, 0xc21c86c1u,
        0x292b3dc2u, 0xc6e956fcu, 0x104c8c99u, 0xff8ee7a7u, 0x14b95ca4u, 0xfb7b379au, 0x19a72ce3u,
        0xf66547ddu, 0x1d52fcdeu, 0xf29097e0u, 0x039bcc6du, 0xec59a753u, 0x076e1c50u, 0xe8ac776eu,
        0x0a706c17u, 0xe5b20729u, 0x0e85bc2au, 0xe147d714u,
    },
    {
        0x00000000u, 0xc18edfc0u, 0x586cb9c1u, 0x99e26601u, 0xb0d97382u, 0x7157ac42u, 0xe8b5ca43u,
        0x293b1583u, 0xbac3e145u, 0x7b4d3e85u, 0xe2af5884u, 0x23218744u, 0x0a1a92c7u, 0xcb944d07u,
        0x52762b06u, 0x93f8f4c6u, 0xaef6c4cbu, 0x6f781b0bu, 0xf69a7d0au, 0x3714a2cau, 0x1e2fb749u,
        0xdfa16889u, 0x46430e88u, 0x87cdd148u, 0x1435258eu, 0xd5bbfa4eu, 0x4c599c4fu, 0x8dd7438fu,
        0xa4ec560cu, 0x656289ccu, 0xfc80efcdu, 0x3d0e300du, 0x869c8fd7u, 0x47125017u, 0xdef03616u,
        0x1f7ee9d6u, 0x3645fc55u, 0xf7cb2395u, 0x6e294594u, 0xafa79a54u, 0x3c5f6e92u, 0xfdd1b152u,
        0x6433d753u, 0xa5bd0893u, 0x8c861d10u, 0x4d08c2d0u, 0xd4eaa4d1u, 0x15647b11u, 0x286a4b1cu,
        0xe9e494dcu, 0x7006f2ddu, 0xb1882d1du, 0x98b3389eu, 0x593de75eu, 0xc0df815fu, 0x01515e9fu,
        0x92a9aa59u, 0x53277599u, 0xcac51398u, 0x0b4bcc58u, 0x2270d9dbu, 0xe3fe061bu, 0x7a1c601au,
        0xbb92bfdau, 0xd64819efu, 0x17c6c62fu, 0x8e24a02eu, 0x4faa7feeu, 0x66916a6du, 0xa71fb5adu,
        0x3efdd3acu, 0xff730c6cu, 0x6c8bf8aau, 0xad05276au, 0x34e7416bu, 0xf5699eabu, 0xdc528b28u,
        0x1ddc54e8u, 0x843e32e9u, 0x45b0ed29u, 0x78bedd24u, 0xb93002e4u, 0x20d264e5u, 0xe15cbb25u,
        0xc867aea6u, 0x09e97166u, 0x900b1767u, 0x5185c8a7u, 0xc27d3c61u, 0x03f3e3a1u, 0x9a1185a0u,
        0x5b9f5a60u, 0x72a44fe3u, 0xb32a9023u, 0x2ac8f622u, 0xeb4629e2u, 0x50d49638u, 0x915a49f8u,
        0x08b82ff9u, 0xc936f039u, 0xe00de5bau, 0x21833a7au, 0xb8615c7bu, 0x79ef83bbu, 0xea17777du,
        0x2b99a8bdu, 0xb27bcebcu, 0x73f5117cu, 0x5ace04ffu, 0x9b40db3fu, 0x02a2bd3eu, 0xc32c62feu,
        0xfe2252f3u, 0x3fac8d33u, 0xa64eeb32u, 0x67c034f2u, 0x4efb2171u, 0x8f75feb1u, 0x169798b0u,
        0xd7194770u, 0x44e1b3b6u, 0x856f6c76u, 0x1c8d0a77u, 0xdd03d5b7u, 0xf438c034u, 0x35b61ff4u,
        0xac5479f5u, 0x6ddaa635u, 0x77e1359fu, 0xb66fea5fu, 0x2f8d8c5eu, 0xee03539eu, 0xc738461du,
        0x06b699ddu, 0x9f54ffdcu, 0x5eda201cu, 0xcd22d4dau, 0x0cac0b1au, 0x954e6d1bu, 0x54c0b2dbu,
        0x7dfba758u, 0xbc757898u, 0x25971e99u, 0xe419c159u, 0xd917f154u, 0x18992e94u, 0x817b4895u,
        0x40f59755u, 0x69ce82d6u, 0xa8405d16u, 0x31a23b17u, 0xf02ce4d7u, 0x63d41011u, 0xa25acfd1u,
        0x3bb8a9d0u, 0xfa367610u, 0xd30d6393u, 0x1283bc53u, 0x8b61da52u, 0x4aef0592u, 0xf17dba48u,
        0x30f36588u, 0xa9110389u, 0x689fdc49u, 0x41a4c9cau, 0x802a160au, 0x19c8700bu, 0xd846afcbu,
        0x4bbe5b0du, 0x8a3084cdu, 0x13d2e2ccu, 0xd25c3d0cu, 0xfb67288fu, 0x3ae9f74fu, 0xa30b914eu,
        0x62854e8eu, 0x5f8b7e83u, 0x9e05a143u, 0x07e7c742u, 0xc6691882u, 0xef520d01u, 0x2edcd2c1u,
        0xb73eb4c0u, 0x76b06b00u, 0xe5489fc6u, 0x24c64006u, 0xbd242607u, 0x7caaf9c7u, 0x5591ec44u,
        0x941f3384u, 0x0dfd5585u, 0xcc738a45u, 0xa1a92c70u, 0x6027f3b0u, 0xf9c595b1u, 0x384b4a71u,
        0x11705ff2u, 0xd0fe8032u, 0x491ce633u, 0x889239f3u, 0x1b6acd35u, 0xdae412f5u, 0x430674f4u,
        0x8288ab34u, 0xabb3beb7u, 0x6a3d6177u, 0xf3df0776u, 0x3251d8b6u, 0x0f5fe8bbu, 0xced1377bu,
        0x5733517au, 0x96bd8ebau, 0xbf869b39u, 0x7e0844f9u, 0xe7ea22f8u, 0x2664fd38u, 0xb59c09feu,
        0x7412d63eu, 0xedf0b03fu, 0x2c7e6fffu, 0x05457a7cu, 0xc4cba5bcu, 0x5d29c3bdu, 0x9ca71c7du,
        0x2735a3a7u, 0xe6bb7c67u, 0x7f591a66u, 0xbed7c5a6u, 0x97ecd025u, 0x56620fe5u, 0xcf8069e4u,
        0x0e0eb624u, 0x9df642e2u, 0x5c789d22u, 0xc59afb23u, 0x041424e3u, 0x2d2f3160u, 0xeca1eea0u,
        0x754388a1u, 0xb4cd5761u, 0x89c3676cu, 0x484db8acu, 0xd1afdeadu, 0x1021016du, 0x391a14eeu,
        0xf894cb2eu, 0x6176ad2fu, 0xa0f872efu, 0x33008629u, 0xf28e59e9u, 0x6b6c3fe8u, 0xaae2e028u,
        0x83d9f5abu, 0x42572a6bu, 0xdbb54c6au, 0x1a3b93aau,
    },
    {
        0x00000000u, 0x9ba54c6fu, 0xec3b9e9fu, 0x779ed2f0u, 0x03063b7fu, 0x98a37710u, 0xef3da5e0u,
        0x7498e98fu, 0x060c76feu, 0x9da93a91u, 0xea37e861u, 0x7192a40eu, 0x050a4d81u, 0x9eaf01eeu,
        0xe931d31eu, 0x72949f71u, 0x0c18edfcu, 0x97bda193u, 0xe0237363u, 0x7b863f0cu, 0x0f1ed683u,
        0x94bb9aecu, 0xe325481cu, 0x78800473u, 0x0a149b02u, 0x91b1d76du, 0xe62f059du, 0x7d8a49f2u,
        0x0912a07du, 0x92b7ec12u, 0xe5293ee2u, 0x7e8c728du, 0x1831dbf8u, 0x83949797u, 0xf40a4567u,
        0x6faf0908u, 0x1b37e087u, 0x8092ace8u, 0xf70c7e18u, 0x6ca93277u, 0x1e3dad06u, 0x8598e169u,
        0xf2063399u, 0x69a37ff6u, 0x1d3b9679u, 0x869eda16u, 0xf10008e6u, 0x6aa54489u, 0x14293604u,
        0x8f8c7a6bu, 0xf812a89bu, 0x63b7e4f4u, 0x172f0d7bu, 0x8c8a4114u, 0xfb1493e4u, 0x60b1df8bu,
        0x122540fau, 0x89800c95u, 0xfe1ede65u, 0x65bb920au, 0x11237b85u, 0x8a8637eau, 0xfd18e51au,
        0x66bda975u, 0x3063b7f0u, 0xabc6fb9fu, 0xdc58296fu, 0x47fd6500u, 0x33658c8fu, 0xa8c0c0e0u,
        0xdf5e1210u, 0x44fb5e7fu, 0x366fc10eu, 0xadca8d61u, 0xda545f91u, 0x41f113feu, 0x3569fa71u,
        0xaeccb61eu, 0xd95264eeu, 0x42f72881u, 0x3c7b5a0cu, 0xa7de1663u, 0xd040c493u, 0x4be588fcu,
        0x3f7d6173u, 0xa4d82d1cu, 0xd346ffecu, 0x48e3b383u, 0x3a772cf2u, 0xa1d2609du, 0xd64cb26du,
        0x4de9fe02u, 0x3971178du, 0xa2d45be2u, 0xd54a8912u, 0x4eefc57du, 0x28526c08u, 0xb3f72067u,
        0xc469f297u, 0x5fccbef8u, 0x2b545777u, 0xb0f11b18u, 0xc76fc9e8u, 0x5cca8587u, 0x2e5e1af6u,
        0xb5fb5699u, 0xc2658469u, 0x59c0c806u, 0x2d582189u, 0xb6fd6de6u, 0xc163bf16u, 0x5ac6f379u,
        0x244a81f4u, 0xbfefcd9bu, 0xc8711f6bu, 0x53d45304u, 0x274cba8bu, 0xbce9f6e4u, 0xcb772414u,
        0x50d2687bu, 0x2246f70au, 0xb9e3bb65u, 0xce7d6995u, 0x55d825fau, 0x2140cc75u, 0xbae5801au,
        0xcd7b52eau, 0x56de1e85u, 0x60c76fe0u, 0xfb62238fu, 0x8cfcf17fu, 0x1759bd10u, 0x63c1549fu,
        0xf86418f0u, 0x8ffaca00u, 0x145f866fu, 0x66cb191eu, 0xfd6e5571u, 0x8af08781u, 0x1155cbeeu,
        0x65cd2261u, 0xfe686e0eu, 0x89f6bcfeu, 0x1253f091u, 0x6cdf821cu, 0xf77ace73u, 0x80e41c83u,
        0x1b4150ecu, 0x6fd9b963u, 0xf47cf50cu, 0x83e227fcu, 0x18476b93u, 0x6ad3f4e2u, 0xf176b88du,
        0x86e86a7du, 0x1d4d2612u, 0x69d5cf9du, 0xf27083f2u, 0x85ee5102u, 0x1e4b1d6du, 0x78f6b418u,
        0xe353f877u, 0x94cd2a87u, 0x0f6866e8u, 0x7bf08f67u, 0xe055c308u, 0x97cb11f8u, 0x0c6e5d97u,
        0x7efac2e6u, 0xe55f8e89u, 0x92c15c79u, 0x09641016u, 0x7dfcf999u, 0xe659b5f6u, 0x91c76706u,
        0x0a622b69u, 0x74ee59e4u, 0xef4b158bu, 0x98d5c77bu, 0x03708b14u, 0x77e8629bu, 0xec4d2ef4u,
        0x9bd3fc04u, 0x0076b06bu, 0x72e22f1au, 0xe9476375u, 0x9ed9b185u, 0x057cfdeau, 0x71e41465u,
        0xea41580au, 0x9ddf8afau, 0x067ac695u, 0x50a4d810u, 0xcb01947fu, 0xbc9f468fu, 0x273a0ae0u,
        0x53a2e36fu, 0xc807af00u, 0xbf997df0u, 0x243c319fu, 0x56a8aeeeu, 0xcd0de281u, 0xba933071u,
        0x21367c1eu, 0x55ae9591u, 0xce0bd9feu, 0xb9950b0eu, 0x22304761u, 0x5cbc35ecu, 0xc7197983u,
        0xb087ab73u, 0x2b22e71cu, 0x5fba0e93u, 0xc41f42fcu, 0xb381900cu, 0x2824dc63u, 0x5ab04312u,
        0xc1150f7du, 0xb68bdd8du, 0x2d2e91e2u, 0x59b6786du, 0xc2133402u, 0xb58de6f2u, 0x2e28aa9du,
        0x489503e8u, 0xd3304f87u, 0xa4ae9d77u, 0x3f0bd118u, 0x4b933897u, 0xd03674f8u, 0xa7a8a608u,
        0x3c0dea67u, 0x4e997516u, 0xd53c3979u, 0xa2a2eb89u, 0x3907a7e6u, 0x4d9f4e69u, 0xd63a0206u,
        0xa1a4d0f6u, 0x3a019c99u, 0x448dee14u, 0xdf28a27bu, 0xa8b6708bu, 0x33133ce4u, 0x478bd56bu,
        0xdc2e9904u, 0xabb04bf4u, 0x3015079bu, 0x428198eau, 0xd924d485u, 0xaeba0675u, 0x351f4a1au,
        0x4187a395u, 0xda22effau, 0xadbc3d0au, 0x36197165u,
    },
    {
        0x00000000u, 0xdd96d985u, 0x605cb54bu, 0xbdca6cceu, 0xc0b96a96u, 0x1d2fb313u, 0xa0e5dfddu,
        0x7d730658u, 0x5a03d36du, 0x87950ae8u, 0x3a5f6626u, 0xe7c9bfa3u, 0x9abab9fbu, 0x472c607eu,
        0xfae60cb0u, 0x2770d535u, 0xb407a6dau, 0x69917f5fu, 0xd45b1391u, 0x09cdca14u, 0x74becc4cu,
        0xa92815c9u, 0x14e27907u, 0xc974a082u, 0xee0475b7u, 0x3392ac32u, 0x8e58c0fcu, 0x53ce1979u,
        0x2ebd1f21u, 0xf32bc6a4u, 0x4ee1aa6au, 0x937773efu, 0xb37e4bf5u, 0x6ee89270u, 0xd322febeu,
        0x0eb4273bu, 0x73c72163u, 0xae51f8e6u, 0x139b9428u, 0xce0d4dadu, 0xe97d9898u, 0x34eb411du,
        0x89212dd3u, 0x54b7f456u, 0x29c4f20eu, 0xf4522b8bu, 0x49984745u, 0x940e9ec0u, 0x0779ed2fu,
        0xdaef34aau, 0x67255864u, 0xbab381e1u, 0xc7c087b9u, 0x1a565e3cu, 0xa79c32f2u, 0x7a0aeb77u,
        0x5d7a3e42u, 0x80ece7c7u, 0x3d268b09u, 0xe0b0528cu, 0x9dc354d4u, 0x40558d51u, 0xfd9fe19fu,
        0x2009381au, 0xbd8d91abu, 0x601b482eu, 0xddd124e0u, 0x0047fd65u, 0x7d34fb3du, 0xa0a222b8u,
        0x1d684e76u, 0xc0fe97f3u, 0xe78e42c6u, 0x3a189b43u, 0x87d2f78du, 0x5a442e08u, 0x27372850u,
        0xfaa1f1d5u, 0x476b9d1bu, 0x9afd449eu, 0x098a3771u, 0xd41ceef4u, 0x69d6823au, 0xb4405bbfu,
        0xc9335de7u, 0x14a58462u, 0xa96fe8acu, 0x74f93129u, 0x5389e41cu, 0x8e1f3d99u, 0x33d55157u,
        0xee4388d2u, 0x93308e8au, 0x4ea6570fu, 0xf36c3bc1u, 0x2efae244u, 0x0ef3da5eu, 0xd36503dbu,
        0x6eaf6f15u, 0xb339b690u, 0xce4ab0c8u, 0x13dc694du, 0xae160583u, 0x7380dc06u, 0x54f00933u,
        0x8966d0b6u, 0x34acbc78u, 0xe93a65fdu, 0x944963a5u, 0x49dfba20u, 0xf415d6eeu, 0x29830f6bu,
        0xbaf47c84u, 0x6762a501u, 0xdaa8c9cfu, 0x073e104au, 0x7a4d1612u, 0xa7dbcf97u, 0x1a11a359u,
        0xc7877adcu, 0xe0f7afe9u, 0x3d61766cu, 0x80ab1aa2u, 0x5d3dc327u, 0x204ec57fu, 0xfdd81cfau,
        0x40127034u, 0x9d84a9b1u, 0xa06a2517u, 0x7dfcfc92u, 0xc036905cu, 0x1da049d9u, 0x60d34f81u,
        0xbd459604u, 0x008ffacau, 0xdd19234fu, 0xfa69f67au, 0x27ff2fffu, 0x9a354331u, 0x47a39ab4u,
        0x3ad09cecu, 0xe7464569u, 0x5a8c29a7u, 0x871af022u, 0x146d83cdu, 0xc9fb5a48u, 0x74313686u,
        0xa9a7ef03u, 0xd4d4e95bu, 0x094230deu, 0xb4885c10u, 0x691e8595u, 0x4e6e50a0u, 0x93f88925u,
        0x2e32e5ebu, 0xf3a43c6eu, 0x8ed73a36u, 0x5341e3b3u, 0xee8b8f7du, 0x331d56f8u, 0x13146ee2u,
        0xce82b767u, 0x7348dba9u, 0xaede022cu, 0xd3ad0474u, 0x0e3bddf1u, 0xb3f1b13fu, 0x6e6768bau,
        0x4917bd8fu, 0x9481640au, 0x294b08c4u, 0xf4ddd141u, 0x89aed719u, 0x54380e9cu, 0xe9f26252u,
        0x3464bbd7u, 0xa713c838u, 0x7a8511bdu, 0xc74f7d73u, 0x1ad9a4f6u, 0x67aaa2aeu, 0xba3c7b2bu,
        0x07f617e5u, 0xda60ce60u, 0xfd101b55u, 0x2086c2d0u, 0x9d4cae1eu, 0x40da779bu, 0x3da971c3u,
        0xe03fa846u, 0x5df5c488u, 0x80631d0du, 0x1de7b4bcu, 0xc0716d39u, 0x7dbb01f7u, 0xa02dd872u,
        0xdd5ede2au, 0x00c807afu, 0xbd026b61u, 0x6094b2e4u, 0x47e467d1u, 0x9a72be54u, 0x27b8d29au,
        0xfa2e0b1fu, 0x875d0d47u, 0x5acbd4c2u, 0xe701b80cu, 0x3a976189u, 0xa9e01266u, 0x7476cbe3u,
        0xc9bca72du, 0x142a7ea8u, 0x695978f0u, 0xb4cfa175u, 0x0905cdbbu, 0xd493143eu, 0xf3e3c10bu,
        0x2e75188eu, 0x93bf7440u, 0x4e29adc5u, 0x335aab9du, 0xeecc7218u, 0x53061ed6u, 0x8e90c753u,
        0xae99ff49u, 0x730f26ccu, 0xcec54a02u, 0x13539387u, 0x6e2095dfu, 0xb3b64c5au, 0x0e7c2094u,
        0xd3eaf911u, 0xf49a2c24u, 0x290cf5a1u, 0x94c6996fu, 0x495040eau, 0x342346b2u, 0xe9b59f37u,
        0x547ff3f9u, 0x89e92a7cu, 0x1a9e5993u, 0xc7088016u, 0x7ac2ecd8u, 0xa754355du, 0xda273305u,
        0x07b1ea80u, 0xba7b864eu, 0x67ed5fcbu, 0x409d8afeu, 0x9d0b537bu, 0x20c13fb5u, 0xfd57e630u,
        0x8024e068u, 0x5db239edu, 0xe0785523u, 0x3dee8ca6u,
    },
    {
        0x00000000u, 0x9d0fe176u, 0xe16ec4adu, 0x7c6125dbu, 0x19ac8f1bu, 0x84a36e6du, 0xf8c24bb6u,
        0x65cdaac0u, 0x33591e36u, 0xae56ff40u, 0xd237da9bu, 0x4f383bedu, 0x2af5912du, 0xb7fa705bu,
        0xcb9b5580u, 0x5694b4f6u, 0x66b23c6cu, 0xfbbddd1au, 0x87dcf8c1u, 0x1ad319b7u, 0x7f1eb377u,
        0xe2115201u, 0x9e7077dau, 0x037f96acu, 0x55eb225au, 0xc8e4c32cu, 0xb485e6f7u, 0x298a0781u,
        0x4c47ad41u, 0xd1484c37u, 0xad2969ecu, 0x3026889au, 0xcd6478d8u, 0x506b99aeu, 0x2c0abc75u,
        0xb1055d03u, 0xd4c8f7c3u, 0x49c716b5u, 0x35a6336eu, 0xa8a9d218u, 0xfe3d66eeu, 0x63328798u,
        0x1f53a243u, 0x825c4335u, 0xe791e9f5u, 0x7a9e0883u, 0x06ff2d58u, 0x9bf0cc2eu, 0xabd644b4u,
        0x36d9a5c2u, 0x4ab88019u, 0xd7b7616fu, 0xb27acbafu, 0x2f752ad9u, 0x53140f02u, 0xce1bee74u,
        0x988f5a82u, 0x0580bbf4u, 0x79e19e2fu, 0xe4ee7f59u, 0x8123d599u, 0x1c2c34efu, 0x604d1134u,
        0xfd42f042u, 0x41b9f7f1u, 0xdcb61687u, 0xa0d7335cu, 0x3dd8d22au, 0x581578eau, 0xc51a999cu,
        0xb97bbc47u, 0x24745d31u, 0x72e0e9c7u, 0xefef08b1u, 0x938e2d6au, 0x0e81cc1cu, 0x6b4c66dcu,
        0xf64387aau, 0x8a22a271u, 0x172d4307u, 0x270bcb9du, 0xba042aebu, 0xc6650f30u, 0x5b6aee46u,
        0x3ea74486u, 0xa3a8a5f0u, 0xdfc9802bu, 0x42c6615du, 0x1452d5abu, 0x895d34ddu, 0xf53c1106u,
        0x6833f070u, 0x0dfe5ab0u, 0x90f1bbc6u, 0xec909e1du, 0x719f7f6bu, 0x8cdd8f29u, 0x11d26e5fu,
        0x6db34b84u, 0xf0bcaaf2u, 0x95710032u, 0x087ee144u, 0x741fc49fu, 0xe91025e9u, 0xbf84911fu,
        0x228b7069u, 0x5eea55b2u, 0xc3e5b4c4u, 0xa6281e04u, 0x3b27ff72u, 0x4746daa9u, 0xda493bdfu,
        0xea6fb345u, 0x77605233u, 0x0b0177e8u, 0x960e969eu, 0xf3c33c5eu, 0x6eccdd28u, 0x12adf8f3u,
        0x8fa21985u, 0xd936ad73u, 0x44394c05u, 0x385869deu, 0xa55788a8u, 0xc09a2268u, 0x5d95c31eu,
        0x21f4e6c5u, 0xbcfb07b3u, 0x8373efe2u, 0x1e7c0e94u, 0x621d2b4fu, 0xff12ca39u, 0x9adf60f9u,
        0x07d0818fu, 0x7bb1a454u, 0xe6be4522u, 0xb02af1d4u, 0x2d2510a2u, 0x51443579u, 0xcc4bd40fu,
        0xa9867ecfu, 0x34899fb9u, 0x48e8ba62u, 0xd5e75b14u, 0xe5c1d38eu, 0x78ce32f8u, 0x04af1723u,
        0x99a0f655u, 0xfc6d5c95u, 0x6162bde3u, 0x1d039838u, 0x800c794eu, 0xd698cdb8u, 0x4b972cceu,
        0x37f60915u, 0xaaf9e863u, 0xcf3442a3u, 0x523ba3d5u, 0x2e5a860eu, 0xb3556778u, 0x4e17973au,
        0xd318764cu, 0xaf795397u, 0x3276b2e1u, 0x57bb1821u, 0xcab4f957u, 0xb6d5dc8cu, 0x2bda3dfau,
        0x7d4e890cu, 0xe041687au, 0x9c204da1u, 0x012facd7u, 0x64e20617u, 0xf9ede761u, 0x858cc2bau,
        0x188323ccu, 0x28a5ab56u, 0xb5aa4a20u, 0xc9cb6ffbu, 0x54c48e8du, 0x3109244du, 0xac06c53bu,
        0xd067e0e0u, 0x4d680196u, 0x1bfcb560u, 0x86f35416u, 0xfa9271cdu, 0x679d90bbu, 0x02503a7bu,
        0x9f5fdb0du, 0xe33efed6u, 0x7e311fa0u, 0xc2ca1813u, 0x5fc5f965u, 0x23a4dcbeu, 0xbeab3dc8u,
        0xdb669708u, 0x4669767eu, 0x3a0853a5u, 0xa707b2d3u, 0xf1930625u, 0x6c9ce753u, 0x10fdc288u,
        0x8df223feu, 0xe83f893eu, 0x75306848u, 0x09514d93u, 0x945eace5u, 0xa478247fu, 0x3977c509u,
        0x4516e0d2u, 0xd81901a4u, 0xbdd4ab64u, 0x20db4a12u, 0x5cba6fc9u, 0xc1b58ebfu, 0x97213a49u,
        0x0a2edb3fu, 0x764ffee4u, 0xeb401f92u, 0x8e8db552u, 0x13825424u, 0x6fe371ffu, 0xf2ec9089u,
        0x0fae60cbu, 0x92a181bdu, 0xeec0a466u, 0x73cf4510u, 0x1602efd0u, 0x8b0d0ea6u, 0xf76c2b7du,
        0x6a63ca0bu, 0x3cf77efdu, 0xa1f89f8bu, 0xdd99ba50u, 0x40965b26u, 0x255bf1e6u, 0xb8541090u,
        0xc435354bu, 0x593ad43du, 0x691c5ca7u, 0xf413bdd1u, 0x8872980au, 0x157d797cu, 0x70b0d3bcu,
        0xedbf32cau, 0x91de1711u, 0x0cd1f667u, 0x5a454291u, 0xc74aa3e7u, 0xbb2b863cu, 0x2624674au,
        0x43e9cd8au, 0xdee62cfcu, 0xa2870927u, 0x3f88e851u,
    },
    {
        0x00000000u, 0xb9fbdbe8u, 0xa886b191u, 0x117d6a79u, 0x8a7c6563u, 0x3387be8bu, 0x22fad4f2u,
        0x9b010f1au, 0xcf89cc87u, 0x7672176fu, 0x670f7d16u, 0xdef4a6feu, 0x45f5a9e4u, 0xfc0e720cu,
        0xed731875u, 0x5488c39du, 0x44629f4fu, 0xfd9944a7u, 0xece42edeu, 0x551ff536u, 0xce1efa2cu,
        0x77e521c4u, 0x66984bbdu, 0xdf639055u, 0x8beb53c8u, 0x32108820u, 0x236de259u, 0x9a9639b1u,
        0x019736abu, 0xb86ced43u, 0xa911873au, 0x10ea5cd2u, 0x88c53e9eu, 0x313ee576u, 0x20438f0fu,
        0x99b854e7u, 0x02b95bfdu, 0xbb428015u, 0xaa3fea6cu, 0x13c43184u, 0x474cf219u, 0xfeb729f1u,
        0xefca4388u, 0x56319860u, 0xcd30977au, 0x74cb4c92u, 0x65b626ebu, 0xdc4dfd03u, 0xcca7a1d1u,
        0x755c7a39u, 0x64211040u, 0xdddacba8u, 0x46dbc4b2u, 0xff201f5au, 0xee5d7523u, 0x57a6aecbu,
        0x032e6d56u, 0xbad5b6beu, 0xaba8dcc7u, 0x1253072fu, 0x89520835u, 0x30a9d3ddu, 0x21d4b9a4u,
        0x982f624cu, 0xcafb7b7du, 0x7300a095u, 0x627dcaecu, 0xdb861104u, 0x40871e1eu, 0xf97cc5f6u,
        0xe801af8fu, 0x51fa7467u, 0x0572b7fau, 0xbc896c12u, 0xadf4066bu, 0x140fdd83u, 0x8f0ed299u,
        0x36f50971u, 0x27886308u, 0x9e73b8e0u, 0x8e99e432u, 0x37623fdau, 0x261f55a3u, 0x9fe48e4bu,
        0x04e58151u, 0xbd1e5ab9u, 0xac6330c0u, 0x1598eb28u, 0x411028b5u, 0xf8ebf35du, 0xe9969924u,
        0x506d42ccu, 0xcb6c4dd6u, 0x7297963eu, 0x63eafc47u, 0xda1127afu, 0x423e45e3u, 0xfbc59e0bu,
        0xeab8f472u, 0x53432f9au, 0xc8422080u, 0x71b9fb68u, 0x60c49111u, 0xd93f4af9u, 0x8db78964u,
        0x344c528cu, 0x253138f5u, 0x9ccae31du, 0x07cbec07u, 0xbe3037efu, 0xaf4d5d96u, 0x16b6867eu,
        0x065cdaacu, 0xbfa70144u, 0xaeda6b3du, 0x1721b0d5u, 0x8c20bfcfu, 0x35db6427u, 0x24a60e5eu,
        0x9d5dd5b6u, 0xc9d5162bu, 0x702ecdc3u, 0x6153a7bau, 0xd8a87c52u, 0x43a97348u, 0xfa52a8a0u,
        0xeb2fc2d9u, 0x52d41931u, 0x4e87f0bbu, 0xf77c2b53u, 0xe601412au, 0x5ffa9ac2u, 0xc4fb95d8u,
        0x7d004e30u, 0x6c7d2449u, 0xd586ffa1u, 0x810e3c3cu, 0x38f5e7d4u, 0x29888dadu, 0x90735645u,
        0x0b72595fu, 0xb28982b7u, 0xa3f4e8ceu, 0x1a0f3326u, 0x0ae56ff4u, 0xb31eb41cu, 0xa263de65u,
        0x1b98058du, 0x80990a97u, 0x3962d17fu, 0x281fbb06u, 0x91e460eeu, 0xc56ca373u, 0x7c97789bu,
        0x6dea12e2u, 0xd411c90au, 0x4f10c610u, 0xf6eb1df8u, 0xe7967781u, 0x5e6dac69u, 0xc642ce25u,
        0x7fb915cdu, 0x6ec47fb4u, 0xd73fa45cu, 0x4c3eab46u, 0xf5c570aeu, 0xe4b81ad7u, 0x5d43c13fu,
        0x09cb02a2u, 0xb030d94au, 0xa14db333u, 0x18b668dbu, 0x83b767c1u, 0x3a4cbc29u, 0x2b31d650u,
        0x92ca0db8u, 0x8220516au, 0x3bdb8a82u, 0x2aa6e0fbu, 0x935d3b13u, 0x085c3409u, 0xb1a7efe1u,
        0xa0da8598u, 0x19215e70u, 0x4da99dedu, 0xf4524605u, 0xe52f2c7cu, 0x5cd4f794u, 0xc7d5f88eu,
        0x7e2e2366u, 0x6f53491fu, 0xd6a892f7u, 0x847c8bc6u, 0x3d87502eu, 0x2cfa3a57u, 0x9501e1bfu,
        0x0e00eea5u, 0xb7fb354du, 0xa6865f34u, 0x1f7d84dcu, 0x4bf54741u, 0xf20e9ca9u, 0xe373f6d0u,
        0x5a882d38u, 0xc1892222u, 0x7872f9cau, 0x690f93b3u, 0xd0f4485bu, 0xc01e1489u, 0x79e5cf61u,
        0x6898a518u, 0xd1637ef0u, 0x4a6271eau, 0xf399aa02u, 0xe2e4c07bu, 0x5b1f1b93u, 0x0f97d80eu,
        0xb66c03e6u, 0xa711699fu, 0x1eeab277u, 0x85ebbd6du, 0x3c106685u, 0x2d6d0cfcu, 0x9496d714u,
        0x0cb9b558u, 0xb5426eb0u, 0xa43f04c9u, 0x1dc4df21u, 0x86c5d03bu, 0x3f3e0bd3u, 0x2e4361aau,
        0x97b8ba42u, 0xc33079dfu, 0x7acba237u, 0x6bb6c84eu, 0xd24d13a6u, 0x494c1cbcu, 0xf0b7c754u,
        0xe1caad2du, 0x583176c5u, 0x48db2a17u, 0xf120f1ffu, 0xe05d9b86u, 0x59a6406eu, 0xc2a74f74u,
        0x7b5c949cu, 0x6a21fee5u, 0xd3da250du, 0x8752e690u, 0x3ea93d78u, 0x2fd45701u, 0x962f8ce9u,
        0x0d2e83f3u, 0xb4d5581bu, 0xa5a83262u, 0x1c53e98au,
    },
    {
        0x00000000u, 0xae689191u, 0x87a02563u, 0x29c8b4f2u, 0xd4314c87u, 0x7a59dd16u, 0x539169e4u,
        0xfdf9f875u, 0x73139f4fu, 0xdd7b0edeu, 0xf4b3ba2cu, 0x5adb2bbdu, 0xa722d3c8u, 0x094a4259u,
        0x2082f6abu, 0x8eea673au, 0xe6273e9eu, 0x484faf0fu, 0x61871bfdu, 0xcfef8a6cu, 0x32167219u,
        0x9c7ee388u, 0xb5b6577au, 0x1bdec6ebu, 0x9534a1d1u, 0x3b5c3040u, 0x129484b2u, 0xbcfc1523u,
        0x4105ed56u, 0xef6d7cc7u, 0xc6a5c835u, 0x68cd59a4u, 0x173f7b7du, 0xb957eaecu, 0x909f5e1eu,
        0x3ef7cf8fu, 0xc30e37fau, 0x6d66a66bu, 0x44ae1299u, 0xeac68308u, 0x642ce432u, 0xca4475a3u,
        0xe38cc151u, 0x4de450c0u, 0xb01da8b5u, 0x1e753924u, 0x37bd8dd6u, 0x99d51c47u, 0xf11845e3u,
        0x5f70d472u, 0x76b86080u, 0xd8d0f111u, 0x25290964u, 0x8b4198f5u, 0xa2892c07u, 0x0ce1bd96u,
        0x820bdaacu, 0x2c634b3du, 0x05abffcfu, 0xabc36e5eu, 0x563a962bu, 0xf85207bau, 0xd19ab348u,
        0x7ff222d9u, 0x2e7ef6fau, 0x8016676bu, 0xa9ded399u, 0x07b64208u, 0xfa4fba7du, 0x54272becu,
        0x7def9f1eu, 0xd3870e8fu, 0x5d6d69b5u, 0xf305f824u, 0xdacd4cd6u, 0x74a5dd47u, 0x895c2532u,
        0x2734b4a3u, 0x0efc0051u, 0xa09491c0u, 0xc859c864u, 0x663159f5u, 0x4ff9ed07u, 0xe1917c96u,
        0x1c6884e3u, 0xb2001572u, 0x9bc8a180u, 0x35a03011u, 0xbb4a572bu, 0x1522c6bau, 0x3cea7248u,
        0x9282e3d9u, 0x6f7b1bacu, 0xc1138a3du, 0xe8db3ecfu, 0x46b3af5eu, 0x39418d87u, 0x97291c16u,
        0xbee1a8e4u, 0x10893975u, 0xed70c100u, 0x43185091u, 0x6ad0e463u, 0xc4b875f2u, 0x4a5212c8u,
        0xe43a8359u, 0xcdf237abu, 0x639aa63au, 0x9e635e4fu, 0x300bcfdeu, 0x19c37b2cu, 0xb7abeabdu,
        0xdf66b319u, 0x710e2288u, 0x58c6967au, 0xf6ae07ebu, 0x0b57ff9eu, 0xa53f6e0fu, 0x8cf7dafdu,
        0x229f4b6cu, 0xac752c56u, 0x021dbdc7u, 0x2bd50935u, 0x85bd98a4u, 0x784460d1u, 0xd62cf140u,
        0xffe445b2u, 0x518cd423u, 0x5cfdedf4u, 0xf2957c65u, 0xdb5dc897u, 0x75355906u, 0x88cca173u,
        0x26a430e2u, 0x0f6c8410u, 0xa1041581u, 0x2fee72bbu, 0x8186e32au, 0xa84e57d8u, 0x0626c649u,
        0xfbdf3e3cu, 0x55b7afadu, 0x7c7f1b5fu, 0xd2178aceu, 0xbadad36au, 0x14b242fbu, 0x3d7af609u,
        0x93126798u, 0x6eeb9fedu, 0xc0830e7cu, 0xe94bba8eu, 0x47232b1fu, 0xc9c94c25u, 0x67a1ddb4u,
        0x4e696946u, 0xe001f8d7u, 0x1df800a2u, 0xb3909133u, 0x9a5825c1u, 0x3430b450u, 0x4bc29689u,
        0xe5aa0718u, 0xcc62b3eau, 0x620a227bu, 0x9ff3da0eu, 0x319b4b9fu, 0x1853ff6du, 0xb63b6efcu,
        0x38d109c6u, 0x96b99857u, 0xbf712ca5u, 0x1119bd34u, 0xece04541u, 0x4288d4d0u, 0x6b406022u,
        0xc528f1b3u, 0xade5a817u, 0x038d3986u, 0x2a458d74u, 0x842d1ce5u, 0x79d4e490u, 0xd7bc7501u,
        0xfe74c1f3u, 0x501c5062u, 0xdef63758u, 0x709ea6c9u, 0x5956123bu, 0xf73e83aau, 0x0ac77bdfu,
        0xa4afea4eu, 0x8d675ebcu, 0x230fcf2du, 0x72831b0eu, 0xdceb8a9fu, 0xf5233e6du, 0x5b4baffcu,
        0xa6b25789u, 0x08dac618u, 0x211272eau, 0x8f7ae37bu, 0x01908441u, 0xaff815d0u, 0x8630a122u,
        0x285830b3u, 0xd5a1c8c6u, 0x7bc95957u, 0x5201eda5u, 0xfc697c34u, 0x94a42590u, 0x3accb401u,
        0x130400f3u, 0xbd6c9162u, 0x40956917u, 0xeefdf886u, 0xc7354c74u, 0x695ddde5u, 0xe7b7badfu,
        0x49df2b4eu, 0x60179fbcu, 0xce7f0e2du, 0x3386f658u, 0x9dee67c9u, 0xb426d33bu, 0x1a4e42aau,
        0x65bc6073u, 0xcbd4f1e2u, 0xe21c4510u, 0x4c74d481u, 0xb18d2cf4u, 0x1fe5bd65u, 0x362d0997u,
        0x98459806u, 0x16afff3cu, 0xb8c76eadu, 0x910fda5fu, 0x3f674bceu, 0xc29eb3bbu, 0x6cf6222au,
        0x453e96d8u, 0xeb560749u, 0x839b5eedu, 0x2df3cf7cu, 0x043b7b8eu, 0xaa53ea1fu, 0x57aa126au,
        0xf9c283fbu, 0xd00a3709u, 0x7e62a698u, 0xf088c1a2u, 0x5ee05033u, 0x7728e4c1u, 0xd9407550u,
        0x24b98d25u, 0x8ad11cb4u, 0xa319a846u, 0x0d7139d7u,
    },
};

/* The CRC-32 (zlib's, ZIP's) of p[0..len) continued from crc, the value of the bytes before:
   16 bytes a step through the 16 tables (slicing by 16), the bytes before the first 8-aligned
   one and after the last whole step one at a time. The names' hash and the ZIP entries' share
   it. */
ASMSTORE__PRIVATE uint32_t asmstore__crc32_update(uint32_t crc, const unsigned char *p, size_t len) {
    const uint32_t(*t)[256] = asmstore__crc_tables;

    crc = ~crc;
    for (; len && ((uintptr_t)p & 7u); len--, p++) crc = t[0][(crc ^ *p) & 0xFFu] ^ (crc >> 8);
    for (; len >= 16; len -= 16, p += 16) {
        uint32_t a = asmstore__rd32(p) ^ crc, b = asmstore__rd32(p + 4), c = asmstore__rd32(p + 8),
                 d = asmstore__rd32(p + 12);

        crc = t[15][a & 0xFFu] ^ t[14][(a >> 8) & 0xFFu] ^ t[13][(a >> 16) & 0xFFu] ^
              t[12][a >> 24] ^ t[11][b & 0xFFu] ^ t[10][(b >> 8) & 0xFFu] ^
              t[9][(b >> 16) & 0xFFu] ^ t[8][b >> 24] ^ t[7][c & 0xFFu] ^ t[6][(c >> 8) & 0xFFu] ^
              t[5][(c >> 16) & 0xFFu] ^ t[4][c >> 24] ^ t[3][d & 0xFFu] ^ t[2][(d >> 8) & 0xFFu] ^
              t[1][(d >> 16) & 0xFFu] ^ t[0][d >> 24];
    }
    for (; len; len--, p++) crc = t[0][(crc ^ *p) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

ASMSTORE_DEF uint32_t asmstore_crc32(const void *data, size_t len) {
    if (len == 0) return 0xFFFFFFFFu; /* upstream's special case (docs/store-format.md §2) */
    return asmstore__crc32_update(0, (const unsigned char *)data, len);
}

ASMSTORE_DEF uint32_t asmstore_xxh32(const void *data, size_t len) {
    return (uint32_t)XXH32(data, len, 0);
}

ASMSTORE_DEF uint64_t asmstore_xxh3_64(const void *data, size_t len) {
    return (uint64_t)XXH3_64bits(data, len);
}

/* asmstore_name_hash, inlined where a lookup hashes (one call less on the hot path) */
ASMSTORE__PRIVATE inline uint64_t asmstore__name_hash(asmstore_hash_kind kind, const void *name,
                                                      size_t len) {
    switch (kind) {
    case ASMSTORE_HASH_CRC32: return asmstore_crc32(name, len);
    case ASMSTORE_HASH_XXH32: return (uint64_t)XXH32(name, len, 0);
    case ASMSTORE_HASH_XXH3_64: return (uint64_t)XXH3_64bits(name, len);
    case ASMSTORE_HASH_XXH64: return (uint64_t)XXH64(name, len, 0);
    default: return 0;
    }
}

ASMSTORE_DEF uint64_t asmstore_name_hash(asmstore_hash_kind kind, const void *name, size_t len) {
    return asmstore__name_hash(kind, name, len);
}

/* >>abi ---------------------------------------------------------------------------------------- */
/* Everything the library knows about an ABI, one row per asmstore_abi value. Row order is also
   the order an unknown ABI is searched in (APK lib dirs, split APKs): arm64, arm, x86_64, x86. */
#define ASMSTORE__ABI_COUNT 5u /* asmstore_abi values: UNKNOWN and the four ABIs */
typedef struct asmstore__abi_info {
    const char *name;          /* "arm64" */
    const char *android_dir;   /* "arm64-v8a": lib/<dir>/ in an APK */
    const char *underscored;   /* "arm64_v8a": format 1 file names, split_config.<...>.apk */
    const char *aliases[2];    /* other spellings asmstore_abi_parse accepts (NULL: none) */
    uint16_t e_machine;        /* EM_AARCH64, EM_ARM, EM_X86_64, EM_386 */
    uint32_t e_flags;          /* what a generated wrapper's e_flags holds (ARM: EABI version 5) */
    int is_64bit;              /* ELFCLASS64, and the store's 64-bit version flag */
    const char *v1_store_file; /* .NET 6-8 store-set file (UNKNOWN row: store 0, the common one) */
    const char *net9_file;     /* .NET 9 (and 10.0.100-101) wrapper name */
    uint32_t r_relative;       /* R_*_RELATIVE: how the app library's pointers are relocated */
} asmstore__abi_info;

static const asmstore__abi_info asmstore__abis[ASMSTORE__ABI_COUNT] = {
    {"unknown", "unknown", "unknown", {NULL, NULL}, 0, 0, 0, "assemblies.blob", "", 0},
    {"arm64", "arm64-v8a", "arm64_v8a", {"aarch64", NULL}, 183, 0, 1,
     "assemblies.arm64_v8a.blob", "libassemblies.arm64-v8a.blob.so", 1027},
    {"arm", "armeabi-v7a", "armeabi_v7a", {"armhf", "armv7"}, 40, 0x05000000u, 0,
     "assemblies.armeabi_v7a.blob", "libassemblies.armeabi-v7a.blob.so", 23},
    {"x86_64", "x86_64", "x86_64", {NULL, NULL}, 62, 0, 1,
     "assemblies.x86_64.blob", "libassemblies.x86_64.blob.so", 8},
    {"x86", "x86", "x86", {"i386", "i686"}, 3, 0, 0,
     "assemblies.x86.blob", "libassemblies.x86.blob.so", 8}};

/* An asmstore_abi value (UNKNOWN included) the table has a row for; anything else is a bad
   argument. */
ASMSTORE__PRIVATE int asmstore__abi_in_range(asmstore_abi abi) {
    return (unsigned)abi < ASMSTORE__ABI_COUNT;
}

/* One of the four ABIs. */
ASMSTORE__PRIVATE int asmstore__abi_known(asmstore_abi abi) {
    return (unsigned)abi - 1u < ASMSTORE__ABI_COUNT - 1u;
}

/* The row of abi; the UNKNOWN row for values out of range. */
ASMSTORE__PRIVATE const asmstore__abi_info *asmstore__abi(asmstore_abi abi) {
    return &asmstore__abis[asmstore__abi_in_range(abi) ? (unsigned)abi : 0u];
}

/* The i-th ABI to try when looking for `want`: `want` alone when known, else every ABI in row
   order; UNKNOWN past the last. */
ASMSTORE__PRIVATE asmstore_abi asmstore__abi_candidate(asmstore_abi want, unsigned i) {
    if (want != ASMSTORE_ABI_UNKNOWN) return i == 0 ? want : ASMSTORE_ABI_UNKNOWN;
    return i + 1u < ASMSTORE__ABI_COUNT ? (asmstore_abi)(i + 1u) : ASMSTORE_ABI_UNKNOWN;
}

/* The ABI whose e_machine is `machine`; UNKNOWN for other machines. */
ASMSTORE__PRIVATE asmstore_abi asmstore__abi_of_machine(uint16_t machine) {
    unsigned i;

    for (i = 1; i < ASMSTORE__ABI_COUNT; i++)
        if (asmstore__abis[i].e_machine == machine) return (asmstore_abi)i;
    return ASMSTORE_ABI_UNKNOWN;
}

ASMSTORE_DEF const char *asmstore_abi_name(asmstore_abi abi) {
    return asmstore__abi(abi)->name;
}

ASMSTORE_DEF const char *asmstore_abi_android_name(asmstore_abi abi) {
    return asmstore__abi(abi)->android_dir;
}

ASMSTORE_DEF asmstore_abi asmstore_abi_parse(const char *name) {
    unsigned i, k;

    if (!name) return ASMSTORE_ABI_UNKNOWN;
    for (i = 1; i < ASMSTORE__ABI_COUNT; i++) {
        const asmstore__abi_info *a = &asmstore__abis[i];
        if (!strcmp(name, a->name) || !strcmp(name, a->android_dir)) return (asmstore_abi)i;
        for (k = 0; k < 2; k++)
            if (a->aliases[k] && !strcmp(name, a->aliases[k])) return (asmstore_abi)i;
    }
    return ASMSTORE_ABI_UNKNOWN;
}

ASMSTORE_DEF int asmstore_abi_is_64bit(asmstore_abi abi) {
    return asmstore__abi(abi)->is_64bit;
}

ASMSTORE_DEF asmstore_abi asmstore_host_abi(void) {
#if defined(__aarch64__)
    return ASMSTORE_ABI_ARM64;
#elif defined(__arm__)
    return ASMSTORE_ABI_ARM;
#elif defined(__x86_64__)
    return ASMSTORE_ABI_X86_64;
#elif defined(__i386__)
    return ASMSTORE_ABI_X86;
#else
    return ASMSTORE_ABI_UNKNOWN;
#endif
}

/* >>compression -------------------------------------------------------------------------------- */
/* The writer's levels, one row per asmstore_compression value: {max, default}. */
static const int asmstore__levels[3][2] = {{0, 0}, {22, 3}, {12, 12}};

ASMSTORE_DEF int asmstore_compression_level_max(asmstore_compression c) {
    return (unsigned)c < 3u ? asmstore__levels[c][0] : 0;
}

ASMSTORE_DEF int asmstore_compression_level_default(asmstore_compression c) {
    return (unsigned)c < 3u ? asmstore__levels[c][1] : 0;
}

/* >>names -------------------------------------------------------------------------------------- */
ASMSTORE_DEF const char *asmstore_hash_name(asmstore_hash_kind kind) {
    switch (kind) {
    case ASMSTORE_HASH_CRC32: return "crc32";
    case ASMSTORE_HASH_XXH32: return "xxh32";
    case ASMSTORE_HASH_XXH3_64: return "xxh3-64";
    case ASMSTORE_HASH_XXH64: return "xxh64";
    default: return "unknown";
    }
}

ASMSTORE_DEF size_t asmstore_name_base_len(const char *name, size_t len) {
    size_t i = len;

    while (i > 0) {
        i--;
        if (name[i] == '/') break;
        if (name[i] == '.') return i;
    }
    return len;
}

/* Valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF) without NUL bytes. */
ASMSTORE__PRIVATE int asmstore__name_valid(const unsigned char *s, size_t n) {
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i], need, k;
        uint32_t cp;
        if (c == 0) return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07;
        } else {
            return 0;
        }
        if (n - i <= need) return 0;
        for (k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return 0;
        i += need + 1;
    }
    return 1;
}
ASMSTORE_DEF int asmstore_utf8_valid(const void *s, size_t n) {
    return s || !n ? asmstore__name_valid((const unsigned char *)s, n) : 0;
}

/* >>reader: descriptors ------------------------------------------------------------------------ */
ASMSTORE__PRIVATE inline void asmstore__read_desc(const asmstore_reader *r, uint32_t index,
                                                  asmstore__desc *d) {
    asmstore__desc_decode(r->data + r->descriptors_offset + (size_t)index * r->descriptor_size,
                          r->format != 1, d);
}

/* The bytes a descriptor's image occupies and how they are compressed, from the store alone. */
ASMSTORE__PRIVATE inline void
asmstore__describe_image(const asmstore_reader *r, const asmstore__desc *d, asmstore_entry *out) {
    /* an empty image is a valid entry: give it a real (in-bounds, zero-length) pointer */
    out->image = r->data + (d->image_size ? d->image_off : r->data_offset);
    out->image_size = d->image_size;
    out->compression = ASMSTORE_COMPRESSION_NONE;
    out->uncompressed_size = d->image_size;
    out->descriptor_index = ASMSTORE_NO_DESCRIPTOR;
    if (d->image_size >= ASMSTORE_IMAGE_HEADER_SIZE) {
        uint32_t m = asmstore__rd32(out->image);
        if (m == ASMSTORE_ZSTD_MAGIC || m == ASMSTORE_LZ4_MAGIC) {
            out->compression =
                m == ASMSTORE_ZSTD_MAGIC ? ASMSTORE_COMPRESSION_ZSTD : ASMSTORE_COMPRESSION_LZ4;
            out->descriptor_index = asmstore__rd32(out->image + 4);
            out->uncompressed_size = asmstore__rd32(out->image + 8);
        }
    }
}

/* >>reader: index ------------------------------------------------------------------------------ */
/* The index entry at position i: its hash, then a 4-byte descriptor index (then the ignore
   byte). */
ASMSTORE__PRIVATE const unsigned char *asmstore__index_entry(const asmstore_reader *r, uint32_t i) {
    return r->data + r->index_offset + (size_t)i * r->index_entry_size;
}

/* One 8-byte read masked to the hash's width (every index entry is at least 8 bytes): no branch on
   the width in the search loops. */
ASMSTORE__PRIVATE uint64_t asmstore__entry_hash(const asmstore_reader *r,
                                                const unsigned char *entry) {
    return asmstore__rd64(entry) & r->hash_mask;
}

/* v2+: the descriptor an index entry points at; format 1: the mapping index of a hash row. */
ASMSTORE__PRIVATE uint32_t asmstore__entry_descriptor(const asmstore_reader *r,
                                                      const unsigned char *entry) {
    return asmstore__rd32(entry + r->hash_size);
}

ASMSTORE__PRIVATE uint64_t asmstore__index_hash(const asmstore_reader *r, uint32_t i) {
    return asmstore__entry_hash(r, asmstore__index_entry(r, i));
}

ASMSTORE__PRIVATE uint32_t asmstore__index_descriptor(const asmstore_reader *r, uint32_t i) {
    return asmstore__entry_descriptor(r, asmstore__index_entry(r, i));
}

/* Does the index entry at `entry` mark its name an ignored placeholder (9- and 13-byte entries
   only)? */
ASMSTORE__PRIVATE int asmstore__index_ignored(const asmstore_reader *r,
                                              const unsigned char *entry) {
    return r->ignore_offset && entry[r->ignore_offset] != 0;
}

/* Where a search for hash h starts: a position at most 8 before the first whose hash is >= h. With
   a name table attached, its buckets narrow the range to the positions sharing h's top bits (about
   one: hashes are uniform); otherwise the range is the whole index. A bisection takes a wide range
   (a store made to crowd one bucket stays O(log n)) down to a few positions, which the caller
   walks. The index order was checked at init. */
ASMSTORE__PRIVATE inline uint32_t asmstore__search_start(const asmstore_reader *r, uint64_t h) {
    uint32_t lo = 0, hi = r->index_entry_count;

    if (r->buckets) {
        size_t b = (size_t)(h >> r->bucket_shift);
        lo = r->buckets[b];
        hi = r->buckets[b + 1];
    }
    while (hi - lo > 8) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (asmstore__index_hash(r, mid) < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* First index position whose hash is >= h. */
ASMSTORE__PRIVATE uint32_t asmstore__lower_bound(const asmstore_reader *r, uint64_t h) {
    uint32_t i = asmstore__search_start(r, h);

    while (i < r->index_entry_count && asmstore__index_hash(r, i) < h) i++;
    return i;
}

/* How many top bits of a hash pick its bucket: 2^bits is the largest power of two <= the index
   entries (at least 2, at most 2^20), so a bucket holds about one entry. */
ASMSTORE__PRIVATE unsigned asmstore__bucket_bits(const asmstore_reader *r) {
    unsigned bits = 1;

    while (bits < 20 && ((uint64_t)2 << bits) <= r->index_entry_count) bits++;
    return bits;
}

/* Fills buckets[0 .. 2^bits] with the first index position of each top-bits value (the last: the
   end) and hands them to the search. */
ASMSTORE__PRIVATE void asmstore__attach_buckets(asmstore_reader *r, uint32_t *buckets) {
    unsigned bits = asmstore__bucket_bits(r);
    uint32_t b, i = 0, n = r->index_entry_count, count = (uint32_t)1 << bits;

    r->bucket_shift = 8u * r->hash_size - bits;
    for (b = 0; b < count; b++) {
        while (i < n && (asmstore__index_hash(r, i) >> r->bucket_shift) < b) i++;
        buckets[b] = i;
    }
    buckets[count] = n;
    r->buckets = buckets;
}

/* Offset of descriptor `index`'s name record (validated at init, so the walk stays in bounds). */
ASMSTORE__PRIVATE size_t asmstore__name_record(const asmstore_reader *r, uint32_t index) {
    size_t off = r->names_offset;
    uint32_t i;

    if (r->name_offsets) return r->name_offsets[index];
    for (i = 0; i < index; i++) off += 4u + asmstore__rd32(r->data + off);
    return off;
}

/* Length of descriptor `index`'s name (record at `off`) minus its extension:
   asmstore_name_base_len. */
ASMSTORE__PRIVATE size_t asmstore__name_base(const asmstore_reader *r, uint32_t index, size_t off) {
    if (r->name_bases) return r->name_bases[index];
    return asmstore_name_base_len((const char *)r->data + off + 4, asmstore__rd32(r->data + off));
}

/* Where a lookup landed: the descriptor, and what describing it needs without searching again. */
typedef struct asmstore__hit {
    uint64_t hash;   /* the name's, as the index keys it */
    uint32_t index;  /* descriptor */
    uint32_t row;    /* format 1: its hash64 row (UINT32_MAX: store 0 unknown) */
    size_t name_off; /* format 2+: its name record */
} asmstore__hit;

/* The index entry naming `name` (hash h), or NULL. Among the entries with this hash an exact name
   wins over a name minus its extension ("A" must not resolve to "A.dll" when "A" exists), else the
   first such match. Names are compared, so a hash collision never answers with another entry. The
   walk steps a pointer: this is the lookup's hot loop. */
ASMSTORE__PRIVATE const unsigned char *asmstore__index_of(const asmstore_reader *r, uint64_t h,
                                                          const char *name, size_t len,
                                                          size_t *name_off) {
    const unsigned char *index = asmstore__index_entry(r, 0), *pick = NULL;
    const unsigned char *p = index + (size_t)asmstore__search_start(r, h) * r->index_entry_size;
    const unsigned char *end = index + (size_t)r->index_entry_count * r->index_entry_size;

    for (; p < end; p += r->index_entry_size) {
        uint64_t v = asmstore__entry_hash(r, p);
        uint32_t d;
        size_t off, stored;
        if (v != h) {
            if (v < h) continue;
            break;
        }
        d = asmstore__entry_descriptor(r, p);
        off = asmstore__name_record(r, d);
        stored = asmstore__rd32(r->data + off);
        if (stored == len) {
            if (memcmp(name, r->data + off + 4, len) == 0) {
                *name_off = off;
                return p;
            }
        } else if (!pick && asmstore__name_base(r, d, off) == len &&
                   memcmp(name, r->data + off + 4, len) == 0) {
            pick = p;
            *name_off = off;
        }
    }
    return pick;
}

/* The index entry with hash h pointing at descriptor desc, or UINT32_MAX. */
ASMSTORE__PRIVATE uint32_t asmstore__index_entry_for(const asmstore_reader *r, uint64_t h,
                                                     uint32_t desc) {
    uint32_t i = asmstore__lower_bound(r, h);

    for (; i < r->index_entry_count && asmstore__index_hash(r, i) == h; i++)
        if (asmstore__index_descriptor(r, i) == desc) return i;
    return UINT32_MAX;
}

/* Does the first name (full and minus extension) hash with `kind` to index entries pointing back at
   it? That is how a 32-bit index tells CRC-32 from XXH32 (docs/store-releases.md §5.6): two 32-bit
   values matching by chance under the wrong function is a 1-in-2^64 event. Other names are
   checked at lookup, so a damaged one is never served under another's hash. */
ASMSTORE__PRIVATE int asmstore__hash_kind_fits(const asmstore_reader *r, asmstore_hash_kind kind) {
    const unsigned char *name = r->data + r->names_offset + 4;
    size_t len = asmstore__rd32(r->data + r->names_offset),
           base = asmstore_name_base_len((const char *)name, len);
    return asmstore__index_entry_for(r, asmstore_name_hash(kind, name, len), 0) != UINT32_MAX &&
           asmstore__index_entry_for(r, asmstore_name_hash(kind, name, base), 0) != UINT32_MAX;
}

/* >>reader: validation ------------------------------------------------------------------------- */
/* Range k (0 image, 1 pdb, 2 config) of a descriptor: where it starts and how long it is. */
ASMSTORE__PRIVATE void asmstore__desc_range(const asmstore__desc *d, int k, uint64_t *off,
                                            uint64_t *len) {
    *off = k == 0 ? d->image_off : k == 1 ? d->pdb_off : d->config_off;
    *len = k == 0 ? d->image_size : k == 1 ? d->pdb_size : d->config_size;
}

/* A range as one sortable key: its start in the high half, its length in the low (both 32-bit in
   every format), so keys sort by where ranges start. */
ASMSTORE__PRIVATE uint64_t asmstore__range_key(uint64_t off, uint64_t len) {
    return off << 32 | len;
}

ASMSTORE__PRIVATE uint64_t asmstore__range_key_end(uint64_t key) {
    return (key >> 32) + (key & 0xFFFFFFFFu);
}

/* Heapsort of n keys: O(n log n) whatever their order, no recursion, no memory. */
ASMSTORE__PRIVATE void asmstore__sift_down(uint64_t *keys, size_t root, size_t n) {
    uint64_t v = keys[root];

    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1] > keys[child]) child++;
        if (keys[child] <= v) break;
        keys[root] = keys[child];
        root = child;
    }
    keys[root] = v;
}

ASMSTORE__PRIVATE void asmstore__sort_keys(uint64_t *keys, size_t n) {
    size_t i;

    for (i = n / 2; i-- > 0;) asmstore__sift_down(keys, i, n);
    for (i = n; i-- > 1;) {
        uint64_t top = keys[0];
        keys[0] = keys[i];
        keys[i] = top;
        asmstore__sift_down(keys, 0, i);
    }
}

/* The first range in descriptor order whose key is `key`, other than `skip`: 3 * descriptor +
   range kind (the keys came from these descriptors, so one is always found). */
ASMSTORE__PRIVATE uint64_t asmstore__range_owner(const asmstore_reader *r, uint64_t key,
                                                 uint64_t skip) {
    uint32_t i;
    int k;

    for (i = 0; i < r->entry_count; i++) {
        asmstore__desc d;
        asmstore__read_desc(r, i, &d);
        for (k = 0; k < 3; k++) {
            uint64_t o, n, id = 3u * (uint64_t)i + (uint64_t)k;
            asmstore__desc_range(&d, k, &o, &n);
            if (n && asmstore__range_key(o, n) == key && id != skip) return id;
        }
    }
    return skip;
}

/* Ranges with keys a and b share bytes: names the later descriptor (err->entry, its descriptor's
   offset) and the other (err->other_entry), and what of each overlaps. */
ASMSTORE__PRIVATE asmstore_result asmstore__overlap_fail(const asmstore_reader *r, uint64_t a,
                                                         uint64_t b, asmstore_error *err) {
    static const char *const what[3][3] = {
        {"image overlaps the image of other_entry", "image overlaps the pdb of other_entry",
         "image overlaps the config of other_entry"},
        {"pdb overlaps the image of other_entry", "pdb overlaps the pdb of other_entry",
         "pdb overlaps the config of other_entry"},
        {"config overlaps the image of other_entry", "config overlaps the pdb of other_entry",
         "config overlaps the config of other_entry"}};
    uint64_t one = asmstore__range_owner(r, a, UINT64_MAX), two = asmstore__range_owner(r, b, one);
    uint64_t later = one > two ? one : two, other = one > two ? two : one;
    uint32_t i = (uint32_t)(later / 3);

    (void)asmstore__fail(err, ASMSTORE_ERR_OVERLAP,
                         r->descriptors_offset + (uint64_t)i * r->descriptor_size, i, 0,
                         what[later % 3][other % 3]);
    if (err) err->other_entry = (int64_t)(other / 3);
    return ASMSTORE_ERR_OVERLAP;
}

/* Any layout: the `count` non-empty ranges sorted by start on a scratch (8 bytes each, freed
   before this returns), then each checked against the one before it. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_any_order(const asmstore_reader *r, size_t count,
                                                            const asmstore_allocator *alloc,
                                                            asmstore_error *err) {
    uint64_t *keys = (uint64_t *)asmstore_alloc(alloc, count * sizeof *keys), a = 0, b = 0;
    size_t j = 0;
    uint32_t i;
    int k, found = 0;

    if (!keys)
        return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, r->descriptors_offset, -1, 0,
                              "no scratch to check images out of descriptor order (8 bytes each)");
    for (i = 0; i < r->entry_count; i++) {
        asmstore__desc d;
        asmstore__read_desc(r, i, &d);
        for (k = 0; k < 3; k++) {
            uint64_t o, n;
            asmstore__desc_range(&d, k, &o, &n);
            if (n) keys[j++] = asmstore__range_key(o, n);
        }
    }
    asmstore__sort_keys(keys, count);
    for (j = 1; j < count && !found; j++) {
        found = (keys[j] >> 32) < asmstore__range_key_end(keys[j - 1]);
        a = keys[j - 1];
        b = keys[j];
    }
    asmstore_free(alloc, keys, count * sizeof *keys);
    return found ? asmstore__overlap_fail(r, a, b, err) : ASMSTORE_OK;
}

/* Every descriptor range inside [data_start, size), and no two ranges sharing bytes, so a small
   store cannot declare terabytes by pointing many descriptors at one frame. Ranges in descriptor
   order, as every writer lays them out, are checked in this one pass; any other layout (the
   runtimes accept any whose images do not overlap) by asmstore__check_any_order. With
   opt->max_total_size also sums the sizes the images declare: that reads every image's first
   bytes, a page of the store each, which a host starting from an evicted page cache need not
   pay. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_ranges(asmstore_reader *r, uint64_t data_start,
                                                         const asmstore_read_options *opt,
                                                         asmstore_error *err) {
    uint64_t next = data_start, first = UINT64_MAX, total = 0;
    uint64_t max_total = opt ? opt->max_total_size : 0;
    size_t count = 0;
    int in_order = 1;
    uint32_t i;

    for (i = 0; i < r->entry_count; i++) {
        uint64_t at = r->descriptors_offset + (uint64_t)i * r->descriptor_size;
        asmstore__desc d;
        asmstore_entry e;
        int k;
        asmstore__read_desc(r, i, &d);
        for (k = 0; k < 3; k++) {
            uint64_t o, n;
            asmstore__desc_range(&d, k, &o, &n);
            if (n == 0) continue;
            if (o < data_start || !asmstore__range_ok(o, n, r->size))
                return asmstore__fail(err, ASMSTORE_ERR_BAD_DESCRIPTOR, at, i, 0,
                                      "image, pdb or config range outside the store's data");
            in_order &= o >= next;
            next = o + n;
            count++;
            if (k == 0 && o < first) first = o;
        }
        if (!max_total) continue;
        asmstore__describe_image(r, &d, &e);
        total += e.uncompressed_size;
        if (total > max_total)
            return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, at, i, 0,
                                  "sum of the images' declared sizes over max_total_size");
    }
    if (!in_order) {
        asmstore_result res = asmstore__check_any_order(r, count, opt ? &opt->allocator : NULL, err);
        if (res != ASMSTORE_OK) return res;
    }
    r->data_offset = (size_t)(first == UINT64_MAX ? data_start : first);
    r->total_uncompressed_size = max_total ? total : 0;
    return ASMSTORE_OK;
}

/* Names: entry_count length-prefixed UTF-8 records right after the descriptors. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_names(const asmstore_reader *r,
                                                        uint64_t *names_end, asmstore_error *err) {
    uint64_t off = r->names_offset;
    uint32_t i;

    for (i = 0; i < r->entry_count; i++) {
        uint32_t len;
        if (!asmstore__range_ok(off, 4, r->size))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, off, i, 0,
                                  "name record outside the store");
        len = asmstore__rd32(r->data + off);
        if (len == 0 || len > ASMSTORE_MAX_NAME_LEN || !asmstore__range_ok(off + 4, len, r->size))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, off, i, 0,
                                  "name length over the limit or past the end of the store");
        if (memchr(r->data + off + 4, 0, len))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, off, i, 0, "NUL byte inside a name");
        if (!asmstore__name_valid(r->data + off + 4, len))
            return asmstore__fail(err, ASMSTORE_ERR_NAME_NOT_UTF8, off, i, 0,
                                  "name is not valid UTF-8");
        off += 4u + len;
    }
    *names_end = off;
    return ASMSTORE_OK;
}

/* Index (v2+): sorted by hash, every entry pointing at a descriptor. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_index(const asmstore_reader *r,
                                                        asmstore_error *err) {
    uint32_t i;

    for (i = 0; i < r->index_entry_count; i++) {
        uint64_t at = r->index_offset + (uint64_t)i * r->index_entry_size;
        if (asmstore__index_descriptor(r, i) >= r->entry_count)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, at, -1, 0,
                                  "index entry points past the descriptors");
        if (i > 0 && asmstore__index_hash(r, i - 1) > asmstore__index_hash(r, i))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, at, -1, 0,
                                  "index entries not sorted by hash");
    }
    return ASMSTORE_OK;
}

/* Hash function of a v2+ index, from the entry width and the store's own names (§5.6). */
ASMSTORE__PRIVATE asmstore_result asmstore__detect_hash(asmstore_reader *r, asmstore_error *err) {
    if (r->hash_size == 8) {
        r->hash_kind = ASMSTORE_HASH_XXH3_64;
        if (r->entry_count == 0 || asmstore__hash_kind_fits(r, r->hash_kind)) return ASMSTORE_OK;
    } else if (r->entry_count == 0) {
        /* nothing to look up either way; name it as the release that writes this width would */
        r->hash_kind = r->is_64bit ? ASMSTORE_HASH_CRC32 : ASMSTORE_HASH_XXH32;
        return ASMSTORE_OK;
    } else if (asmstore__hash_kind_fits(r, ASMSTORE_HASH_CRC32)) {
        r->hash_kind = ASMSTORE_HASH_CRC32;
        return ASMSTORE_OK;
    } else if (asmstore__hash_kind_fits(r, ASMSTORE_HASH_XXH32)) {
        r->hash_kind = ASMSTORE_HASH_XXH32;
        return ASMSTORE_OK;
    }
    r->hash_kind = ASMSTORE_HASH_UNKNOWN;
    return asmstore__fail(err, ASMSTORE_ERR_BAD_HASH, r->index_offset, 0, 0,
                          "index hashes match none of CRC-32, XXH32, XXH3-64 of the names");
}

/* Index entry width from index_size / index_entry_count, never from version + ABI (§5.5). */
ASMSTORE__PRIVATE asmstore_result asmstore__index_width(asmstore_reader *r, uint32_t index_size,
                                                        asmstore_error *err) {
    uint32_t es;

    if (r->index_entry_count == 0) {
        if (index_size != 0)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX_SIZE, 16, -1, 0,
                                  "index size not 0 for an empty store");
        es = (r->format == 2 ? 4u : 5u) + (r->is_64bit ? 8u : 4u);
    } else {
        es = index_size / r->index_entry_count;
        if ((uint64_t)es * r->index_entry_count != index_size ||
            !(r->format == 2 ? (es == 8 || es == 12) : (es == 9 || es == 13)))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX_SIZE, 16, -1, 0,
                                  "index size not entry count times 8, 9, 12 or 13");
    }
    r->index_entry_size = es;
    r->hash_size = (es == 12 || es == 13) ? 8u : 4u;
    r->hash_mask = UINT64_MAX >> (64u - 8u * r->hash_size);
    r->ignore_offset = (es == 9 || es == 13) ? r->hash_size + 4u : 0u;
    if (r->hash_size == 8 && !r->is_64bit)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX_SIZE, 16, -1, 0,
                              "64-bit hashes in a 32-bit ABI's store");
    return ASMSTORE_OK;
}

/* Formats 2-4 with header size h: index, descriptors, names, data. */
ASMSTORE__PRIVATE asmstore_result asmstore__init_v2(asmstore_reader *r, size_t h,
                                                    const asmstore_read_options *opt,
                                                    asmstore_error *err) {
    uint32_t index_size = asmstore__rd32(r->data + 16);
    uint64_t off, names_end = 0;
    asmstore_result res;

    if (r->size < h)
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, 0, -1, 0,
                              "header larger than the store");
    r->header_size = h;
    r->has_content_id = h == ASMSTORE_HEADER_SIZE_V4;
    r->content_id = r->has_content_id ? asmstore__rd64(r->data + 20) : 0;
    if ((res = asmstore__index_width(r, index_size, err)) != ASMSTORE_OK) return res;
    r->index_offset = h;
    if (!asmstore__range_ok(h, index_size, r->size))
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, h, -1, 0, "index outside the store");
    off = (uint64_t)h + index_size;
    r->descriptors_offset = (size_t)off;
    r->descriptor_size = ASMSTORE_DESCRIPTOR_SIZE;
    if (!asmstore__range_ok(off, (uint64_t)r->entry_count * ASMSTORE_DESCRIPTOR_SIZE, r->size))
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, off, -1, 0,
                              "descriptors outside the store");
    r->names_offset = (size_t)(off + (uint64_t)r->entry_count * ASMSTORE_DESCRIPTOR_SIZE);
    if ((res = asmstore__check_names(r, &names_end, err)) != ASMSTORE_OK) return res;
    if ((res = asmstore__check_index(r, err)) != ASMSTORE_OK) return res;
    if ((res = asmstore__check_ranges(r, names_end, opt, err)) != ASMSTORE_OK) return res;
    return asmstore__detect_hash(r, err);
}

/* Version word of formats 2-4: format in the low half, ABI in bits 16-23, bit 31 = 64-bit ABI. */
ASMSTORE__PRIVATE asmstore_result asmstore__parse_version(asmstore_reader *r, asmstore_error *err) {
    uint32_t v = r->version_word, abi = (v >> 16) & 0xFFu;

    r->format = v & 0xFFFFu;
    r->is_64bit = (v & ASMSTORE_FLAG_64BIT) != 0;
    if (v == 1u) {
        r->format = 1;
        return ASMSTORE_OK;
    }
    if (r->format < 2 || r->format > 4 || !asmstore__abi_known((asmstore_abi)abi) ||
        (v & 0x7F000000u) || r->is_64bit != asmstore__abi((asmstore_abi)abi)->is_64bit)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_VERSION, 4, -1, 0,
                              "version word names no known format, ABI or 64-bit flag");
    r->abi = (asmstore_abi)abi;
    return ASMSTORE_OK;
}

/* >>reader: format 1 --------------------------------------------------------------------------- */
/* .NET 6-8 store sets (docs/store-releases.md §2). */
#define ASMSTORE__V1_DESCRIPTOR_SIZE 24u
#define ASMSTORE__V1_ROW_SIZE 20u

/* Row i of the hash64 table (the one lookups use): store id and descriptor index in that store. */
ASMSTORE__PRIVATE uint32_t asmstore__v1_row_store(const asmstore_reader *t, uint32_t i) {
    return asmstore__rd32(t->data + t->index_offset + (size_t)i * ASMSTORE__V1_ROW_SIZE + 16);
}

ASMSTORE__PRIVATE uint32_t asmstore__v1_row_local(const asmstore_reader *t, uint32_t i) {
    return asmstore__rd32(t->data + t->index_offset + (size_t)i * ASMSTORE__V1_ROW_SIZE + 12);
}

/* Each hash table strictly ascending (the build fails on equal keys), rows pointing at store 0's
   descriptors or at store 1, mapping indices below the row count. */
ASMSTORE__PRIVATE asmstore_result asmstore__v1_check_tables(const asmstore_reader *r,
                                                            asmstore_error *err) {
    uint32_t t, i, g = r->global_entry_count;

    for (t = 0; t < 2; t++) {
        size_t base = r->hash32_offset + (size_t)t * g * ASMSTORE__V1_ROW_SIZE;
        for (i = 0; i < g; i++) {
            const unsigned char *row = r->data + base + (size_t)i * ASMSTORE__V1_ROW_SIZE;
            uint64_t h = asmstore__rd64(row);
            uint32_t mapping = asmstore__rd32(row + 8), local = asmstore__rd32(row + 12);
            uint32_t store = asmstore__rd32(row + 16);
            int bad = (t == 0 && h > UINT32_MAX) || mapping >= g || store > 1u ||
                      (store == 0 && local >= r->entry_count) ||
                      (i > 0 && asmstore__rd64(row - ASMSTORE__V1_ROW_SIZE) >= h);
            if (bad)
                return asmstore__fail(
                    err, ASMSTORE_ERR_BAD_INDEX, base + (uint64_t)i * ASMSTORE__V1_ROW_SIZE, -1, 0,
                    "format 1 hash table row unsorted or pointing outside the set");
        }
    }
    return ASMSTORE_OK;
}

/* [20-byte header][L descriptors][G hash32 rows][G hash64 rows][data]; only store 0 has rows. */
ASMSTORE__PRIVATE asmstore_result asmstore__init_v1(asmstore_reader *r, uint32_t max_entries,
                                                    const asmstore_read_options *opt,
                                                    asmstore_error *err) {
    uint64_t tables;
    asmstore_result res;

    r->header_size = ASMSTORE_HEADER_SIZE_V2;
    r->entry_count = asmstore__rd32(r->data + 8);
    r->global_entry_count = asmstore__rd32(r->data + 12);
    r->store_id = asmstore__rd32(r->data + 16);
    if (r->entry_count > max_entries || r->global_entry_count > max_entries ||
        (r->store_id != 0 && r->global_entry_count != 0))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_COUNTS, 8, -1, 0,
                              "format 1 entry counts over the limit or hash rows in an arch store");
    r->hash_kind = ASMSTORE_HASH_XXH64;
    r->hash_size = 8;
    r->hash_mask = UINT64_MAX;
    r->descriptor_size = ASMSTORE__V1_DESCRIPTOR_SIZE;
    r->descriptors_offset = r->header_size;
    r->index_entry_count = r->global_entry_count;
    r->index_entry_size = ASMSTORE__V1_ROW_SIZE;
    tables = r->header_size + (uint64_t)r->entry_count * ASMSTORE__V1_DESCRIPTOR_SIZE;
    r->hash32_offset = (size_t)tables;
    r->index_offset = (size_t)(tables + (uint64_t)r->global_entry_count * ASMSTORE__V1_ROW_SIZE);
    if (!asmstore__range_ok(tables, 2u * (uint64_t)r->global_entry_count * ASMSTORE__V1_ROW_SIZE,
                            r->size))
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, tables, -1, 0,
                              "format 1 hash tables outside the store");
    r->names_offset =
        (size_t)(tables + 2u * (uint64_t)r->global_entry_count * ASMSTORE__V1_ROW_SIZE);
    if ((res = asmstore__v1_check_tables(r, err)) != ASMSTORE_OK) return res;
    return asmstore__check_ranges(r, r->names_offset, opt, err);
}

/* The hash64 row naming (store, local), or UINT32_MAX: a scan, for listing, not for lookups. */
ASMSTORE__PRIVATE uint32_t asmstore__v1_row_of(const asmstore_reader *t, uint32_t store,
                                               uint32_t local) {
    uint32_t i;

    for (i = 0; t && i < t->index_entry_count; i++)
        if (asmstore__v1_row_store(t, i) == store && asmstore__v1_row_local(t, i) == local)
            return i;
    return UINT32_MAX;
}

/* The store holding the set's hash tables: store 0 itself, or the one attached to an arch store. */
ASMSTORE__PRIVATE const asmstore_reader *asmstore__v1_tables(const asmstore_reader *r) {
    return r->store_id == 0 ? r : r->v1_common;
}

/* Name of a format-1 entry from the attached manifest (*len 0 when unknown). */
ASMSTORE__PRIVATE const char *asmstore__v1_name(const asmstore_reader *r, uint32_t index,
                                                size_t *len) {
    const char *s, *end;

    *len = 0;
    if (!r->manifest || !r->name_offsets || r->name_offsets[index] == 0) return NULL;
    s = r->manifest + r->name_offsets[index] - 1;
    end = s;
    while (end < r->manifest + r->manifest_size && *end != '\n' && *end != '\r') end++;
    *len = (size_t)(end - s);
    return s;
}

ASMSTORE__PRIVATE void asmstore__v1_describe(const asmstore_reader *r, uint32_t index, uint32_t row,
                                             asmstore_entry *out) {
    const asmstore_reader *t = asmstore__v1_tables(r);
    asmstore__desc d;

    memset(out, 0, sizeof *out);
    asmstore__read_desc(r, index, &d);
    out->index = index;
    out->name = asmstore__v1_name(r, index, &out->name_len);
    if (t && row != UINT32_MAX) {
        const unsigned char *p = t->data + t->index_offset + (size_t)row * ASMSTORE__V1_ROW_SIZE;
        out->hash = asmstore__rd64(p);
        out->mapping_index = asmstore__rd32(p + 8);
    }
    asmstore__describe_image(r, &d, out);
    out->pdb = d.pdb_size ? r->data + d.pdb_off : NULL;
    out->pdb_size = d.pdb_size;
    out->config = d.config_size ? r->data + d.config_off : NULL;
    out->config_size = d.config_size;
}

/* Name as format 1 hashes it: a trailing ".dll" removed (docs/store-releases.md §2.4). */
ASMSTORE__PRIVATE size_t asmstore__v1_key_len(const char *name, size_t len) {
    return len > 4 && !memcmp(name + len - 4, ".dll", 4) ? len - 4 : len;
}

ASMSTORE__PRIVATE asmstore_result asmstore__v1_find(const asmstore_reader *r, const char *name,
                                                    size_t name_len, asmstore__hit *hit,
                                                    asmstore_error *err) {
    const asmstore_reader *t = asmstore__v1_tables(r);
    size_t key = asmstore__v1_key_len(name, name_len), have;
    uint32_t i, row = UINT32_MAX, local = UINT32_MAX;
    const char *known;
    uint64_t h = XXH64(name, key, 0);

    hit->hash = h;
    if (t) {
        i = asmstore__lower_bound(t, h);
        if (i < t->index_entry_count && asmstore__index_hash(t, i) == h &&
            asmstore__v1_row_store(t, i) == r->store_id) {
            row = i;
            local = asmstore__v1_row_local(t, i);
        }
    } else {
        /* an arch store on its own: only the manifest's names can say which entry it is */
        for (i = 0; i < r->entry_count && local == UINT32_MAX; i++) {
            known = asmstore__v1_name(r, i, &have);
            if (known && have == key && !memcmp(known, name, key)) local = i;
        }
    }
    if (local == UINT32_MAX || local >= r->entry_count)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0,
                              "no hash row or manifest name for this name");
    known = asmstore__v1_name(r, local, &have);
    if (known && (have != key || memcmp(known, name, key) != 0))
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0,
                              "hash row matches, the entry's name differs");
    hit->index = local;
    hit->row = row;
    return ASMSTORE_OK;
}

/* >>reader: lz4 block -------------------------------------------------------------------------- */
/* The LZ4 block format (lz4's doc/lz4_Block_format.md), written from its text: sequences of a
   token (literal count in the high nibble, match length - 4 in the low one; 15 is followed by
   extra bytes, each added, the last one under 255), the literals, a 16-bit little-endian offset
   back into the output and the match. The last sequence is literals alone and ends the input.
   What counts as damaged is what liblz4's LZ4_decompress_safe (1.9, as built for x86_64) refuses
   for the same capacity, since the runtime decodes with it:
   - literals that reach into the output's last 12 bytes, or leave fewer than 8 input bytes after
     them, make the last sequence, which must end the input exactly; a match must end 5 or more
     bytes before the output's end; an offset must stay inside the output made so far;
   - liblz4's shortcuts skip some of those rules, so they are skipped here too: while 64 or more
     output bytes are left ("fast", until a sequence comes near either end), a literal count under
     15 with 17 or more input bytes left is not checked; after that, one under 15 with more than 16
     input and 32 or more output bytes left is not, nor is the match after it when under 19 bytes
     with an offset of 8 or more;
   - offset 0 (the format's "invalid") repeats zeros, as liblz4 makes it. */
#define ASMSTORE__LZ4_MATCH_LIMIT   12u /* literals ending this near the output's end end it */
#define ASMSTORE__LZ4_LAST_LITERALS 5u  /* a match ends at least this far before the end */
#define ASMSTORE__LZ4_TAIL          8u  /* input after literals that a match follows */
#define ASMSTORE__LZ4_FAST          64u /* output left for liblz4's fast loop */

/* A literal count's extra bytes at *ip (its nibble was 15): 15 + each byte while it is 255, more
   than 15 input bytes left before each (liblz4's bound); 0 when damaged (past the input). */
ASMSTORE__INLINE size_t asmstore__lz4_literal_count(const unsigned char **ip,
                                                    const unsigned char *iend) {
    const unsigned char *p = *ip;
    size_t n = 15;
    unsigned s;

    do {
        if (iend - p <= 15) return 0;
        s = *p++;
        n += s;
        if (n > (size_t)(iend - p)) return 0;
    } while (s == 255);
    *ip = p;
    return n;
}

/* A match length's extra bytes at *ip (its nibble was 15): 15 + each byte while it is 255, 4 or
   more input bytes left after each (liblz4's bound); 0 when damaged (longer than out_left). */
ASMSTORE__INLINE size_t asmstore__lz4_match_extra(const unsigned char **ip,
                                                  const unsigned char *iend, size_t out_left) {
    const unsigned char *p = *ip;
    size_t n = 15;
    unsigned s;

    do {
        s = *p++;
        n += s;
        if (iend - p < 4 || n > out_left) return 0;
    } while (s == 255);
    *ip = p;
    return n;
}

/* Copies n (1 or more) bytes in 16-byte steps, up to 15 bytes past n: the caller leaves room in
   both buffers. `unit` 16 for another buffer or a source 16 or more bytes behind op, 8 for one 8
   to 15 bytes behind (two 8-byte copies a step). */
ASMSTORE__INLINE void asmstore__lz4_wild_copy(unsigned char *op, const unsigned char *ip, size_t n,
                                              int unit) {
    unsigned char *end = op + n;

    if (unit == 16) {
        do {
            memcpy(op, ip, 16);
            op += 16;
            ip += 16;
        } while (op < end);
        return;
    }
    do {
        memcpy(op, ip, 8);
        memcpy(op + 8, ip + 8, 8);
        op += 16;
        ip += 16;
    } while (op < end);
}

/* Copies lit literals, 16 bytes at a time where both buffers (in_left, out_left) have room. */
ASMSTORE__INLINE void asmstore__lz4_literals(unsigned char *op, const unsigned char *ip, size_t lit,
                                             size_t in_left, size_t out_left) {
    if (lit == 0)
        return;
    if (lit <= 16 && in_left >= 16 && out_left >= 16)
        memcpy(op, ip, 16);
    else if (lit + 15 <= in_left && lit + 15 <= out_left)
        asmstore__lz4_wild_copy(op, ip, lit, 16);
    else
        memcpy(op, ip, lit);
}

/* Writes the match of `len` bytes `offset` back at op (inside the output made so far, ending at
   oend or before); returns its end. 15 or more bytes before oend: 16-byte steps, or for offsets
   1-7 an 8-byte pattern (the first 8 bytes one at a time) stored every largest multiple of the
   offset up to 8; nearer: 8-byte steps while the offset allows, then one byte at a time. */
ASMSTORE__INLINE unsigned char *asmstore__lz4_match(unsigned char *op, size_t offset, size_t len,
                                                    unsigned char *oend) {
    static const unsigned char step_of[8] = {0, 8, 8, 6, 8, 5, 6, 7};
    unsigned char *end = op + len;
    const unsigned char *m = op - offset;

    if (offset == 0) {
        memset(op, 0, len);
    } else if ((size_t)(oend - end) >= 15 && offset >= 8) {
        asmstore__lz4_wild_copy(op, m, len, offset >= 16 ? 16 : 8);
    } else if ((size_t)(oend - end) >= 15) {
        unsigned char pattern[8];
        size_t i, step = step_of[offset];

        for (i = 0; i < 8; i++) op[i] = m[i];
        memcpy(pattern, op, 8);
        for (op += step; op < end; op += step) memcpy(op, pattern, 8);
    } else {
        for (; offset >= 8 && end - op >= 8; op += 8, m += 8) memcpy(op, m, 8);
        for (; op < end; op++) *op = *(op - offset);
    }
    return end;
}

/* The common sequence in liblz4's fast loop (64 or more output bytes left at the token, 17 or more
   input bytes after it): under 15 literals, a match under 19 bytes. Copies 16 literal bytes and
   18 match bytes whatever the counts (room is there), then moves *ip and *op on; 0 when the offset
   points before dst, else 1. *fast becomes 0 when the match ends within 64 bytes of oend. */
ASMSTORE__INLINE int asmstore__lz4_short(const unsigned char **ip, unsigned char **op,
                                         const unsigned char *dst, unsigned char *oend,
                                         unsigned token, int *fast) {
    const unsigned char *p = *ip;
    unsigned char *o = *op;
    size_t offset, len = (token & 15u) + 4;

    memcpy(o, p, 16);
    o += token >> 4;
    p += token >> 4;
    offset = asmstore__rd16(p);
    if (offset > (size_t)(o - dst)) return 0;
    if (len + ASMSTORE__LZ4_FAST >= (size_t)(oend - o)) *fast = 0;
    if (offset >= 8) {
        memcpy(o, o - offset, 8);
        memcpy(o + 8, o - offset + 8, 8);
        memcpy(o + 16, o - offset + 16, 2);
        o += len;
    } else {
        o = asmstore__lz4_match(o, offset, len, oend);
    }
    *ip = p + 2;
    *op = o;
    return 1;
}

ASMSTORE_DEF asmstore_result asmstore_lz4_decode(void *dst, size_t cap, const void *src,
                                                 size_t src_size, size_t *written) {
    const unsigned char *ip = (const unsigned char *)src, *iend;
    unsigned char *op = (unsigned char *)dst, *oend;
    size_t lit, in_left;
    int fast = cap >= ASMSTORE__LZ4_FAST; /* liblz4's fast loop: see the banner */

    if (!written || (!src && src_size) || (!dst && cap)) return ASMSTORE_ERR_INVALID_ARG;
    *written = 0;
    if (src_size == 0) return ASMSTORE_ERR_DECOMPRESS;
    if (cap == 0) return src_size == 1 && ip[0] == 0 ? ASMSTORE_OK : ASMSTORE_ERR_DECOMPRESS;
    for (iend = ip + src_size, oend = op + cap;;) {
        unsigned token = *ip++;
        size_t offset, len = token & 15u, out_left = (size_t)(oend - op);
        int unchecked = 0; /* literals (after the fast loop: a short match too) free of the rules */

        if (fast && token < 0xF0u && len != 15 && iend - ip >= 17) {
            if (!asmstore__lz4_short(&ip, &op, (unsigned char *)dst, oend, token, &fast))
                return ASMSTORE_ERR_DECOMPRESS;
            continue;
        }
        lit = token >> 4;
        in_left = (size_t)(iend - ip);
        if (lit < 15) {
            unchecked = fast ? in_left >= 17 : in_left > 16 && out_left >= 32;
            fast = fast && unchecked;
        } else {
            if ((lit = asmstore__lz4_literal_count(&ip, iend)) == 0) return ASMSTORE_ERR_DECOMPRESS;
            in_left = (size_t)(iend - ip);
            fast = fast && lit + 32 <= out_left && lit + 32 <= in_left;
        }
        if (!unchecked && (lit + ASMSTORE__LZ4_MATCH_LIMIT > out_left ||
                           lit + ASMSTORE__LZ4_TAIL > in_left))
            break; /* the last sequence: literals alone */
        asmstore__lz4_literals(op, ip, lit, in_left, out_left);
        op += lit;
        ip += lit;
        offset = asmstore__rd16(ip);
        ip += 2;
        out_left = (size_t)(oend - op);
        if (offset > (size_t)(op - (unsigned char *)dst)) return ASMSTORE_ERR_DECOMPRESS;
        unchecked = unchecked && !fast && len != 15 && offset >= 8;
        if (len == 15 && (len = asmstore__lz4_match_extra(&ip, iend, out_left)) == 0)
            return ASMSTORE_ERR_DECOMPRESS;
        len += 4;
        if (len + ASMSTORE__LZ4_FAST >= out_left) fast = 0;
        if (!unchecked && len + ASMSTORE__LZ4_LAST_LITERALS > out_left)
            return ASMSTORE_ERR_DECOMPRESS;
        op = asmstore__lz4_match(op, offset, len, oend);
    }
    if (lit != in_left || lit > (size_t)(oend - op)) return ASMSTORE_ERR_DECOMPRESS;
    if (lit) memcpy(op, ip, lit);
    *written = (size_t)(op - (unsigned char *)dst) + lit;
    return ASMSTORE_OK;
}

/* >>reader: public ----------------------------------------------------------------------------- */
ASMSTORE__PRIVATE asmstore_result asmstore__reader_open(asmstore_reader *r, const void *data,
                                                       size_t size, const asmstore_read_options *opt,
                                                       asmstore_error *err) {
    const unsigned char *p = (const unsigned char *)data;
    uint32_t max_entries;
    asmstore_reader z;
    asmstore_error first;
    asmstore_result res;

    (void)asmstore__fail(err, ASMSTORE_OK, 0, -1, 0, NULL);
    if (!r || (!data && size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL reader, or NULL data with a size");
    memset(&z, 0, sizeof z);
    *r = z;
    if (size < 4 || asmstore__rd32(p) != ASMSTORE_MAGIC)
        return asmstore__fail(err, size < 4 ? ASMSTORE_ERR_TRUNCATED : ASMSTORE_ERR_BAD_MAGIC, 0,
                              -1, 0,
                              size < 4 ? "fewer than the 4 bytes of the \"XABA\" magic"
                                       : "no \"XABA\" magic at offset 0");
    if (size < ASMSTORE_HEADER_SIZE_V2)
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, 0, -1, 0,
                              "store shorter than the 20-byte header");
    r->data = p;
    r->size = size;
    r->version_word = asmstore__rd32(p + 4);
    if ((res = asmstore__parse_version(r, err)) != ASMSTORE_OK) return res;
    max_entries = (opt && opt->max_entries) ? opt->max_entries : ASMSTORE_MAX_ENTRIES;
    r->max_entry_size =
        (opt && opt->max_entry_size) ? opt->max_entry_size : ASMSTORE_MAX_ENTRY_SIZE;
    if (opt) {
        r->decompress = opt->decompress;
        r->decompress_user = opt->decompress_user;
    }
    if (r->format == 1) return asmstore__init_v1(r, max_entries, opt, err);
    r->entry_count = asmstore__rd32(p + 8);
    r->index_entry_count = asmstore__rd32(p + 12);
    if (r->entry_count > max_entries ||
        (uint64_t)r->index_entry_count != 2u * (uint64_t)r->entry_count)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_COUNTS, 8, -1, 0,
                              "entry count over the limit, or index entry count not twice it");
    res = asmstore__init_v2(r, r->format == 4 ? ASMSTORE_HEADER_SIZE_V4 : ASMSTORE_HEADER_SIZE_V2,
                            opt, &first);

    /* v4 with the 20-byte header: main builds of 2026-07-15..17 (docs/store-releases.md §5.4) */
    if (res != ASMSTORE_OK && r->format == 4 &&
        asmstore__init_v2(r, ASMSTORE_HEADER_SIZE_V2, opt, NULL) == ASMSTORE_OK)
        return ASMSTORE_OK;
    if (res != ASMSTORE_OK && err) *err = first;
    return res;
}

/* The store's ABI, format and name hash against what the host said it expects; the message
   names both sides from static tables (messages are static text). */
#define ASMSTORE__EXPECT_ABI(f, e) "store serves " f "; the host expects " e
#define ASMSTORE__EXPECT_ABI_ROW(f)                                                               \
    {ASMSTORE__EXPECT_ABI(f, "arm64-v8a"), ASMSTORE__EXPECT_ABI(f, "armeabi-v7a"),                \
     ASMSTORE__EXPECT_ABI(f, "x86_64"), ASMSTORE__EXPECT_ABI(f, "x86")}
#define ASMSTORE__EXPECT_FORMAT_ROW(f)                                                            \
    {"store is format " f "; the host expects another format",                                   \
     "store is format " f "; the host expects format 1",                                         \
     "store is format " f "; the host expects format 2",                                         \
     "store is format " f "; the host expects format 3",                                         \
     "store is format " f "; the host expects format 4"}
#define ASMSTORE__EXPECT_HASH(f, e) "store's names are hashed with " f "; the host expects " e
#define ASMSTORE__EXPECT_HASH_ROW(f)                                                              \
    {ASMSTORE__EXPECT_HASH(f, "CRC-32"), ASMSTORE__EXPECT_HASH(f, "XXH32"),                       \
     ASMSTORE__EXPECT_HASH(f, "XXH3-64"), ASMSTORE__EXPECT_HASH(f, "XXH64")}

ASMSTORE__PRIVATE asmstore_result asmstore__expect(const asmstore_reader *r,
                                                   const asmstore_read_options *o,
                                                   asmstore_error *err) {
    static const char *const abi[4][4] = {
        ASMSTORE__EXPECT_ABI_ROW("arm64-v8a"), ASMSTORE__EXPECT_ABI_ROW("armeabi-v7a"),
        ASMSTORE__EXPECT_ABI_ROW("x86_64"), ASMSTORE__EXPECT_ABI_ROW("x86")};
    static const char *const format[4][5] = {
        ASMSTORE__EXPECT_FORMAT_ROW("1"), ASMSTORE__EXPECT_FORMAT_ROW("2"),
        ASMSTORE__EXPECT_FORMAT_ROW("3"), ASMSTORE__EXPECT_FORMAT_ROW("4")};
    static const char *const hash[4][4] = {
        ASMSTORE__EXPECT_HASH_ROW("CRC-32"), ASMSTORE__EXPECT_HASH_ROW("XXH32"),
        ASMSTORE__EXPECT_HASH_ROW("XXH3-64"), ASMSTORE__EXPECT_HASH_ROW("XXH64")};
    unsigned f = o->expect_formats, single;

    if (o->expect_abi >= ASMSTORE_ABI_ARM64 && o->expect_abi <= ASMSTORE_ABI_X86 &&
        r->abi != ASMSTORE_ABI_UNKNOWN && r->abi != o->expect_abi)
        return asmstore__fail(err, ASMSTORE_ERR_LAYOUT, 4, -1, 0,
                              abi[r->abi - 1][o->expect_abi - 1]);
    if (f && r->format >= 1 && r->format <= 4 && !(f & (1u << r->format))) {
        single = f == 2u ? 1u : f == 4u ? 2u : f == 8u ? 3u : f == 16u ? 4u : 0u;
        return asmstore__fail(err, ASMSTORE_ERR_LAYOUT, 4, -1, 0, format[r->format - 1][single]);
    }
    if (o->expect_hash >= ASMSTORE_HASH_CRC32 && o->expect_hash <= ASMSTORE_HASH_XXH64 &&
        r->hash_kind >= ASMSTORE_HASH_CRC32 && r->hash_kind <= ASMSTORE_HASH_XXH64 &&
        r->hash_kind != o->expect_hash)
        return asmstore__fail(err, ASMSTORE_ERR_LAYOUT, 0, -1, 0,
                              hash[r->hash_kind - 1][o->expect_hash - 1]);
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_reader_init(asmstore_reader *r, const void *data, size_t size,
                                                  const asmstore_read_options *opt,
                                                  asmstore_error *err) {
    asmstore_result res = asmstore__reader_open(r, data, size, opt, err);

    if (res == ASMSTORE_OK && opt) res = asmstore__expect(r, opt, err);
    if (res != ASMSTORE_OK && r) { /* counts read before the check failed are no one's to size by */
        r->entry_count = 0;
        r->index_entry_count = 0;
        r->global_entry_count = 0;
    }
    if (res == ASMSTORE_OK && opt && opt->name_table && r->format != 1 &&
        opt->name_table_bytes >= asmstore_reader_name_table_size(r))
        res = asmstore_reader_attach_name_table(r, opt->name_table, opt->name_table_bytes, err);
    return res;
}

ASMSTORE_DEF size_t asmstore_reader_name_table_size(const asmstore_reader *r) {
    size_t buckets;

    if (!r) return 0;
    if (r->format == 1) return (size_t)r->entry_count * sizeof(uint32_t);
    buckets = ((size_t)1 << asmstore__bucket_bits(r)) + 1u;
    return (2u * (size_t)r->entry_count + buckets) * sizeof(uint32_t);
}

ASMSTORE_DEF asmstore_result asmstore_reader_attach_name_table(asmstore_reader *r, uint32_t *table,
                                                               size_t bytes, asmstore_error *err) {
    size_t off;
    uint32_t i;

    if (!r || !r->data || (!table && r->entry_count) || bytes < asmstore_reader_name_table_size(r))
        return asmstore__fail(
            err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
            "reader not initialised, or table smaller than asmstore_reader_name_table_size");
    if (r->format == 1) /* no names inside: attach a manifest */
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0,
                              "format 1 stores hold no names: attach a manifest");
    if (r->size > UINT32_MAX)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0,
                              "store over 4 GiB: name offsets need 32 bits");
    off = r->names_offset;
    for (i = 0; i < r->entry_count; i++) {
        uint32_t len = asmstore__rd32(r->data + off);
        table[i] = (uint32_t)off;
        table[r->entry_count + i] =
            (uint32_t)asmstore_name_base_len((const char *)r->data + off + 4, len);
        off += 4u + len;
    }
    r->name_offsets = table;
    r->name_bases = table + r->entry_count;
    asmstore__attach_buckets(r, table + 2u * r->entry_count);
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_reader_attach_common(asmstore_reader *arch,
                                                           const asmstore_reader *common,
                                                           asmstore_error *err) {
    uint32_t i;

    if (!arch || !common || arch->format != 1 || common->format != 1 || common->store_id != 0 ||
        arch->store_id == 0)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "need a format 1 arch store and its store 0");
    for (i = 0; i < common->index_entry_count; i++)
        if (asmstore__v1_row_store(common, i) == arch->store_id &&
            asmstore__v1_row_local(common, i) >= arch->entry_count)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX,
                                  common->index_offset + (uint64_t)i * ASMSTORE__V1_ROW_SIZE, -1, 0,
                                  "store 0's hash row points past the arch store's descriptors");
    arch->v1_common = common;
    return ASMSTORE_OK;
}

/* Parses one manifest row (docs/store-releases.md §2.5):
   "0x<h32>  0x<h64>  <store>  <local>  <name>". */
ASMSTORE__PRIVATE int asmstore__manifest_row(const char *s, const char *end, uint64_t f[4],
                                             const char **name) {
    int k;

    for (k = 0; k < 4; k++) {
        int hex = k < 2, digits = 0;
        f[k] = 0;
        while (s < end && *s == ' ') s++;
        if (hex && (end - s < 2 || s[0] != '0' || s[1] != 'x')) return 0;
        if (hex) s += 2;
        for (; s < end && *s != ' '; s++, digits++) {
            int v = (*s >= '0' && *s <= '9')                          ? *s - '0'
                    : hex && (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' ? (*s | 0x20) - 'a' + 10
                                                                      : -1;
            if (v < 0 || digits >= 16) return 0;
            f[k] = f[k] * (hex ? 16u : 10u) + (uint64_t)v;
        }
        if (digits == 0) return 0;
    }
    while (s < end && *s == ' ') s++;
    *name = s;
    return s < end;
}

ASMSTORE_DEF asmstore_result asmstore_reader_attach_manifest(asmstore_reader *r, const char *text,
                                                             size_t size, uint32_t *table,
                                                             size_t bytes, asmstore_error *err) {
    const char *s, *end, *eol, *next, *name;
    uint64_t f[4];
    const asmstore_reader *t;

    if (!r || !r->data || !text || (!table && r->entry_count) ||
        bytes < asmstore_reader_name_table_size(r))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "reader not initialised, no text, or table too small");
    if (r->format != 1)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0,
                              "a manifest names format 1 entries only");
    if (size >= UINT32_MAX)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0, "manifest of 4 GiB or more");
    t = asmstore__v1_tables(r);
    memset(table, 0, asmstore_reader_name_table_size(r));
    end = text + size;
    for (s = text; s < end; s = next) {
        const char *ne;
        eol = (const char *)memchr(s, '\n', (size_t)(end - s));
        if (!eol) eol = end;
        next = eol < end ? eol + 1 : end;
        ne = eol > s && eol[-1] == '\r' ? eol - 1 : eol;
        if (s == text || ne == s) continue; /* line 1 is the column header */
        if (!asmstore__manifest_row(s, ne, f, &name) ||
            !asmstore__name_valid((const unsigned char *)name, (size_t)(ne - name)))
            return asmstore__fail(err, ASMSTORE_ERR_BAD_NAMES, (uint64_t)(s - text), -1, 0,
                                  "manifest row: 0x<h32> 0x<h64> <store> <local> <UTF-8 name>");
        if (XXH64(name, (size_t)(ne - name), 0) != f[1] ||
            XXH32(name, (size_t)(ne - name), 0) != f[0])
            return asmstore__fail(err, ASMSTORE_ERR_BAD_HASH, (uint64_t)(s - text), -1, 0,
                                  "manifest row's hashes differ from its name's");
        if (f[2] != r->store_id || f[3] >= r->entry_count) continue;
        if (t) {
            uint32_t row = asmstore__v1_row_of(t, r->store_id, (uint32_t)f[3]);
            if (row == UINT32_MAX || asmstore__index_hash(t, row) != f[1])
                return asmstore__fail(err, ASMSTORE_ERR_BAD_HASH, (uint64_t)(s - text), -1, 0,
                                      "manifest row's XXH64 differs from store 0's hash row");
        }
        table[f[3]] = (uint32_t)(name - text) + 1u;
    }
    r->manifest = text;
    r->manifest_size = size;
    r->name_offsets = table;
    return ASMSTORE_OK;
}

/* Fills *out for v2+ descriptor `index` whose name record starts at `name_off`. */
ASMSTORE__PRIVATE void asmstore__describe(const asmstore_reader *r, uint32_t index, size_t name_off,
                                          int ignored, asmstore_entry *out) {
    asmstore__desc d;

    asmstore__read_desc(r, index, &d);
    out->index = index;
    out->mapping_index = d.mapping;
    out->ignored = ignored;
    out->hash = 0;
    out->name_hash = 0;
    out->name_len = asmstore__rd32(r->data + name_off);
    out->name = (const char *)(r->data + name_off + 4);
    asmstore__describe_image(r, &d, out);
    if (ignored) {
        out->image = NULL;
        out->image_size = 0;
        out->compression = ASMSTORE_COMPRESSION_NONE;
        out->uncompressed_size = 0;
        out->descriptor_index = ASMSTORE_NO_DESCRIPTOR;
    }
    out->pdb = d.pdb_size ? r->data + d.pdb_off : NULL;
    out->pdb_size = d.pdb_size;
    out->config = d.config_size ? r->data + d.config_off : NULL;
    out->config_size = d.config_size;
}

ASMSTORE_DEF asmstore_result asmstore_reader_entry(const asmstore_reader *r, uint32_t index,
                                                   asmstore_entry *out, asmstore_error *err) {
    int ignored = 0;
    uint32_t i;
    size_t noff, nlen;

    if (!r || !r->data || !out)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL reader or entry");
    if (index >= r->entry_count)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, (int64_t)index, 0,
                              "index past the descriptors");
    if (r->format == 1) {
        asmstore__v1_describe(r, index,
                              asmstore__v1_row_of(asmstore__v1_tables(r), r->store_id, index), out);
        return ASMSTORE_OK;
    }

    /* an entry is ignored when its index entries say so (only 9- and 13-byte ones have the byte);
       both point here, so look one up by hash */
    noff = asmstore__name_record(r, index);
    nlen = asmstore__rd32(r->data + noff);
    if (r->ignore_offset) {
        i = asmstore__index_entry_for(r, asmstore_name_hash(r->hash_kind, r->data + noff + 4, nlen),
                                      index);
        ignored = i != UINT32_MAX && asmstore__index_ignored(r, asmstore__index_entry(r, i));
    }
    asmstore__describe(r, index, noff, ignored, out);
    return ASMSTORE_OK;
}

/* The lookup both finds share: hash once, search, compare names; the index entry's ignore byte
   last. */
ASMSTORE__PRIVATE asmstore_result asmstore__find(const asmstore_reader *r, const char *name,
                                                 size_t name_len, asmstore__hit *hit,
                                                 asmstore_error *err) {
    const unsigned char *at;

    if (!r || !r->data || (!name && name_len))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL reader or name");
    if (name_len == 0) return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0, "empty name");
    if (r->format == 1) return asmstore__v1_find(r, name, name_len, hit, err);
    hit->hash = asmstore__name_hash(r->hash_kind, name, name_len);
    at = asmstore__index_of(r, hit->hash, name, name_len, &hit->name_off);
    if (!at)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0,
                              "no index entry with this name's hash and name");
    hit->index = asmstore__entry_descriptor(r, at);
    if (asmstore__index_ignored(r, at))
        return asmstore__fail(err, ASMSTORE_ERR_IGNORED, 0, (int64_t)hit->index, 0,
                              "the name is an ignored placeholder");
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_reader_find_index(const asmstore_reader *r, const char *name,
                                                        size_t name_len, uint32_t *index,
                                                        asmstore_error *err) {
    asmstore__hit hit;
    asmstore_result res = asmstore__find(r, name, name_len, &hit, err);

    if (index && (res == ASMSTORE_OK || res == ASMSTORE_ERR_IGNORED)) *index = hit.index;
    return res;
}

ASMSTORE_DEF asmstore_result asmstore_reader_find(const asmstore_reader *r, const char *name,
                                                  size_t name_len, asmstore_entry *out,
                                                  asmstore_error *err) {
    asmstore__hit hit;
    asmstore_result res = asmstore__find(r, name, name_len, &hit, err);

    if (res != ASMSTORE_OK || !out) return res;
    if (r->format == 1)
        asmstore__v1_describe(r, hit.index, hit.row, out);
    else
        asmstore__describe(r, hit.index, hit.name_off, 0, out);
    out->name_hash = hit.hash;
    return ASMSTORE_OK;
}

ASMSTORE_DEF size_t asmstore_reader_max_entry_size(const asmstore_reader *r) {
    return r ? r->max_entry_size : 0;
}

/* The image of descriptor e->index as the store says, whatever the caller did to *e. */
ASMSTORE_DEF asmstore_result asmstore_reader_entry_check(const asmstore_reader *r,
                                                         const asmstore_entry *e,
                                                         asmstore_error *err) {
    asmstore__desc d;
    asmstore_entry s;

    if (!r || !r->data || !e || e->index >= r->entry_count)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL reader or entry, or index past the descriptors");
    if (e->ignored || !e->image)
        return asmstore__fail(err, ASMSTORE_ERR_IGNORED, 0, (int64_t)e->index, 0,
                              "entry is an ignored placeholder");
    asmstore__read_desc(r, e->index, &d);
    asmstore__describe_image(r, &d, &s);
    if (e->image != s.image || e->image_size != s.image_size || e->compression != s.compression ||
        e->uncompressed_size != s.uncompressed_size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, (int64_t)e->index, 0,
                              "entry differs from its descriptor (image, sizes, compression)");
    return ASMSTORE_OK;
}

/* Keys descriptor_index << 32 | entry of the n compressed images of formats 2-4, sorted; the
   first two sharing an index named in *err. */
ASMSTORE__PRIVATE asmstore_result asmstore__shared_descriptor_index(const asmstore_reader *r,
                                                                     uint64_t *keys, size_t n,
                                                                     asmstore_error *err) {
    size_t j = 0;
    uint32_t i;

    for (i = 0; i < r->entry_count; i++) {
        asmstore__desc d;
        asmstore_entry e;
        asmstore__read_desc(r, i, &d);
        asmstore__describe_image(r, &d, &e);
        if (e.compression != ASMSTORE_COMPRESSION_NONE)
            keys[j++] = (uint64_t)e.descriptor_index << 32 | i;
    }
    asmstore__sort_keys(keys, n);
    for (j = 1; j < n; j++) {
        if (keys[j] >> 32 != keys[j - 1] >> 32) continue;
        (void)asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, 0, (int64_t)(keys[j] & 0xFFFFFFFFu), 0,
                             "another compressed image has this descriptor_index (the runtime "
                             "aborts on a duplicate)");
        if (err) err->other_entry = (int64_t)(keys[j - 1] & 0xFFFFFFFFu);
        return ASMSTORE_ERR_BAD_INDEX;
    }
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_reader_check_runtime(const asmstore_reader *r,
                                                           const asmstore_allocator *alloc,
                                                           asmstore_error *err) {
    asmstore_result res;
    uint64_t *keys;
    size_t n = 0;
    uint32_t i;

    if (!r || !r->data) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL reader");
    if (r->format == 1) return ASMSTORE_OK;
    for (i = 0; i < r->entry_count; i++) { /* as the host: every descriptor with bytes */
        asmstore__desc d;
        asmstore_entry e;
        asmstore__read_desc(r, i, &d);
        if (!d.image_size) continue;
        asmstore__describe_image(r, &d, &e);
        if (d.mapping >= r->entry_count)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, 0, (int64_t)i, 0,
                                  "mapping_index not below the store's entry count (the "
                                  "runtime's per-entry array ends there)");
        if (e.compression == ASMSTORE_COMPRESSION_NONE) continue;
        if (e.uncompressed_size == 0)
            return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, (uint64_t)(e.image - r->data),
                                  (int64_t)i, 0, "compressed image declares 0 bytes uncompressed");
        n++;
    }
    if (n < 2) return ASMSTORE_OK;
    keys = (uint64_t *)asmstore_alloc(alloc, n * sizeof *keys);
    if (!keys)
        return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, -1, 0,
                              "no scratch to check descriptor indices (8 bytes per image)");
    res = asmstore__shared_descriptor_index(r, keys, n, err);
    asmstore_free(alloc, keys, n * sizeof *keys);
    return res;
}

/* Decompresses src into dst[0..size) with the caller's callback, else libzstd (XAZS) or
   asmstore_lz4_decode (XALZ); *written = bytes made. */
ASMSTORE__PRIVATE asmstore_result asmstore__decompress(const asmstore_reader *r,
                                                       asmstore_compression kind, void *dst,
                                                       size_t size, const unsigned char *src,
                                                       size_t src_size, struct ZSTD_DCtx_s *dctx,
                                                       size_t *written, int64_t *backend) {
#ifdef ASMSTORE_NO_ZSTD
    (void)dctx;
    (void)backend;
    if (r->decompress)
        return r->decompress(r->decompress_user, kind, dst, size, src, src_size, written);
    if (kind == ASMSTORE_COMPRESSION_LZ4)
        return asmstore_lz4_decode(dst, size, src, src_size, written);
    return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
#else
    unsigned long long fcs;
    size_t z;
    if (kind != ASMSTORE_COMPRESSION_ZSTD) {
        if (r->decompress)
            return r->decompress(r->decompress_user, kind, dst, size, src, src_size, written);
        return asmstore_lz4_decode(dst, size, src, src_size, written);
    }
    fcs = ZSTD_getFrameContentSize(src, src_size);
    if (fcs == ZSTD_CONTENTSIZE_ERROR || fcs == ZSTD_CONTENTSIZE_UNKNOWN)
        return ASMSTORE_ERR_DECOMPRESS;
    if (fcs != (unsigned long long)size) return ASMSTORE_ERR_SIZE_MISMATCH;
    z = dctx ? ZSTD_decompressDCtx(dctx, dst, size, src, src_size)
             : ZSTD_decompress(dst, size, src, src_size);
    if (ZSTD_isError(z)) {
        *backend = (int64_t)(0 - z); /* zstd error code */
        return ASMSTORE_ERR_DECOMPRESS;
    }
    *written = z;
    return ASMSTORE_OK;
#endif
}

ASMSTORE_DEF asmstore_result asmstore_reader_read(const asmstore_reader *r, const asmstore_entry *e,
                                                  void *dst, size_t cap, struct ZSTD_DCtx_s *dctx,
                                                  asmstore_error *err) {
    asmstore__desc d;
    asmstore_entry s; /* the entry as the store describes it: e is only asked for its index */
    size_t written = 0;
    int64_t ix, backend = 0;
    uint64_t at;
    asmstore_result res;

    if (!r || !r->data || !e || (!dst && cap) || e->index >= r->entry_count)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL reader, entry or buffer, or entry index past the descriptors");
    ix = (int64_t)e->index;
    if (e->ignored)
        return asmstore__fail(err, ASMSTORE_ERR_IGNORED, 0, ix, 0,
                              "entry is an ignored placeholder");
    asmstore__read_desc(r, e->index, &d);
    asmstore__describe_image(r, &d, &s);
    at = (uint64_t)(s.image - r->data);
    if (s.uncompressed_size > r->max_entry_size)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, at, ix, 0,
                              "image larger than the reader's max_entry_size");
    if (cap < s.uncompressed_size)
        return asmstore__fail(err, ASMSTORE_ERR_BUFFER_TOO_SMALL, 0, ix, 0,
                              "buffer smaller than the uncompressed image");
    if (s.compression == ASMSTORE_COMPRESSION_NONE) {
        if (s.image_size) memcpy(dst, s.image, s.image_size);
        return ASMSTORE_OK;
    }
    res = asmstore__decompress(r, s.compression, dst, s.uncompressed_size,
                               s.image + ASMSTORE_IMAGE_HEADER_SIZE,
                               s.image_size - ASMSTORE_IMAGE_HEADER_SIZE, dctx, &written, &backend);
    if (res != ASMSTORE_OK)
        return asmstore__fail(
            err, res, at + (res == ASMSTORE_ERR_DECOMPRESS ? ASMSTORE_IMAGE_HEADER_SIZE : 0), ix,
            backend, "decompressing the image");
    if (written != s.uncompressed_size)
        return asmstore__fail(err, ASMSTORE_ERR_SIZE_MISMATCH, at, ix, 0,
                              "decompressor made fewer bytes than the image header says");
    return ASMSTORE_OK;
}

/* >>image -------------------------------------------------------------------------------------- */
/* ECMA-335 §II.25 (PE file), §II.24.2.1 (metadata root); the Portable PDB spec; LLVM's MSF docs. */
#define ASMSTORE__PE_SECTION_SIZE 40u
#define ASMSTORE__PE_DIR_CLI      14u /* IMAGE_DIRECTORY_ENTRY_COM_DESCRIPTOR */
#define ASMSTORE__CLI_HEADER_MIN  72u /* IMAGE_COR20_HEADER */
#define ASMSTORE__METADATA_MAGIC  0x424A5342u /* "BSJB" */
#define ASMSTORE__MSF_HEADER_SIZE 56u

ASMSTORE__PRIVATE asmstore_result asmstore__bad_image(asmstore_error *err, uint64_t offset,
                                                      const char *message) {
    return asmstore__fail(err, ASMSTORE_ERR_BAD_IMAGE, offset, -1, 0, message);
}

/* A metadata root at p (n bytes, at offset `at` of the checked file): "BSJB", versions, the
   version string's length and the string, flags and stream count inside n; `short_root` says
   what it is when they are not. */
ASMSTORE__PRIVATE asmstore_result asmstore__metadata_root(const unsigned char *p, uint64_t n,
                                                          uint64_t at, const char *short_root,
                                                          asmstore_error *err) {
    if (n < 4 || asmstore__rd32(p) != ASMSTORE__METADATA_MAGIC)
        return asmstore__bad_image(err, at, "no metadata root (\"BSJB\") where the metadata starts");
    if (n < 16 || (uint64_t)asmstore__rd32(p + 12) + 20u > n)
        return asmstore__bad_image(err, n < 16 ? at : at + 12, short_root);
    return ASMSTORE_OK;
}

ASMSTORE_DEF const unsigned char *asmstore_pe_at_rva(const asmstore_pe *pe, uint32_t rva,
                                                     uint64_t n) {
    uint32_t k;

    for (k = 0; pe && k < pe->section_count; k++) {
        const unsigned char *s = pe->sections + (size_t)k * ASMSTORE__PE_SECTION_SIZE;
        uint32_t va = asmstore__rd32(s + 12), raw_size = asmstore__rd32(s + 16);
        uint64_t raw_ptr = asmstore__rd32(s + 20);
        if (rva < va || rva - va >= raw_size) continue;
        if (n > raw_size - (rva - va) || !asmstore__range_ok(raw_ptr + (rva - va), n, pe->size))
            return NULL;
        return pe->data + raw_ptr + (rva - va);
    }
    return NULL;
}

/* Every section's file bytes inside the file (sections_at: the table's offset): a PE cut short
   loses the end of its last section. */
ASMSTORE__PRIVATE asmstore_result asmstore__pe_sections(const asmstore_pe *pe, uint64_t sections_at,
                                                        asmstore_error *err) {
    uint32_t k;

    for (k = 0; k < pe->section_count; k++) {
        const unsigned char *s = pe->sections + (size_t)k * ASMSTORE__PE_SECTION_SIZE;
        if (!asmstore__range_ok(asmstore__rd32(s + 20), asmstore__rd32(s + 16), pe->size))
            return asmstore__bad_image(err, sections_at + (uint64_t)k * ASMSTORE__PE_SECTION_SIZE,
                                       "a section's file bytes run past the end of the file "
                                       "(cut short?)");
    }
    return ASMSTORE_OK;
}

/* The DOS, COFF and optional headers and the section table: fills pe's section table, and *dirs
   with the offset of the data directories (at least 15 of them). */
ASMSTORE__PRIVATE asmstore_result asmstore__pe_headers(asmstore_pe *pe, uint64_t *dirs,
                                                       asmstore_error *err) {
    const unsigned char *p = pe->data;
    uint64_t coff, opt, opt_size, count_at, sections;

    if (pe->size < 64 || p[0] != 'M' || p[1] != 'Z')
        return asmstore__bad_image(err, 0, "no \"MZ\" DOS header of 64 bytes: not a PE file");
    coff = (uint64_t)asmstore__rd32(p + 0x3c) + 4u;
    if (!asmstore__range_ok(coff - 4u, 24, pe->size) || memcmp(p + coff - 4u, "PE\0\0", 4) != 0)
        return asmstore__bad_image(err, 0x3c,
                                   "e_lfanew points at no \"PE\\0\\0\" signature and COFF header "
                                   "inside the file");
    opt = coff + 20u;
    opt_size = asmstore__rd16(p + coff + 16);
    if (opt_size < 2 || !asmstore__range_ok(opt, opt_size, pe->size))
        return asmstore__bad_image(err, coff + 16, "optional header runs past the end of the file");
    pe->pe32_plus = asmstore__rd16(p + opt) == 0x20b;
    if (!pe->pe32_plus && asmstore__rd16(p + opt) != 0x10b)
        return asmstore__bad_image(err, opt,
                                   "optional header magic is neither 0x10b (PE32) nor 0x20b "
                                   "(PE32+)");
    count_at = pe->pe32_plus ? 108u : 92u; /* NumberOfRvaAndSizes; the directories follow it */
    *dirs = opt + count_at + 4u;
    if (opt_size < count_at + 4u + 8u * (ASMSTORE__PE_DIR_CLI + 1u) ||
        asmstore__rd32(p + opt + count_at) <= ASMSTORE__PE_DIR_CLI)
        return asmstore__bad_image(err, coff + 16,
                                   "optional header too short for its magic and the 15 data "
                                   "directories (no CLI header directory)");
    pe->directories = p + *dirs;
    pe->directory_count = (uint32_t)((opt_size - count_at - 4u) / 8u);
    if (asmstore__rd32(p + opt + count_at) < pe->directory_count)
        pe->directory_count = asmstore__rd32(p + opt + count_at);
    pe->section_count = asmstore__rd16(p + coff + 2);
    sections = opt + opt_size;
    if (!asmstore__range_ok(sections, (uint64_t)pe->section_count * ASMSTORE__PE_SECTION_SIZE,
                            pe->size))
        return asmstore__bad_image(err, coff + 2, "section table runs past the end of the file");
    pe->sections = p + sections;
    return asmstore__pe_sections(pe, sections, err);
}

ASMSTORE_DEF asmstore_result asmstore_pe_parse(asmstore_pe *pe, const void *data, size_t size,
                                               asmstore_error *err) {
    asmstore_pe z;
    uint64_t dirs = 0;
    uint32_t rva, dir_size, md_rva;
    asmstore_result res;

    if (!pe || (!data && size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL pe, or NULL data with a size");
    memset(&z, 0, sizeof z);
    *pe = z;
    pe->data = (const unsigned char *)data;
    pe->size = size;
    if ((res = asmstore__pe_headers(pe, &dirs, err)) != ASMSTORE_OK) return res;
    rva = asmstore__rd32(pe->data + dirs + 8u * ASMSTORE__PE_DIR_CLI);
    dir_size = asmstore__rd32(pe->data + dirs + 8u * ASMSTORE__PE_DIR_CLI + 4u);
    if (rva == 0 || dir_size == 0)
        return asmstore__bad_image(err, dirs + 8u * ASMSTORE__PE_DIR_CLI,
                                   "no CLI header (data directory 14 is empty): a native PE "
                                   "file, not a .NET assembly");
    pe->cli_header = asmstore_pe_at_rva(pe, rva, ASMSTORE__CLI_HEADER_MIN);
    pe->cli_header_size = pe->cli_header ? asmstore__rd32(pe->cli_header) : 0;
    if (pe->cli_header_size < ASMSTORE__CLI_HEADER_MIN ||
        !asmstore_pe_at_rva(pe, rva, pe->cli_header_size))
        return asmstore__bad_image(err, dirs + 8u * ASMSTORE__PE_DIR_CLI,
                                   "CLI header not in a section's file bytes, or its cb under 72");
    md_rva = asmstore__rd32(pe->cli_header + 8);
    pe->metadata_size = asmstore__rd32(pe->cli_header + 12);
    pe->metadata = asmstore_pe_at_rva(pe, md_rva, pe->metadata_size);
    if (!pe->metadata || pe->metadata_size == 0)
        return asmstore__bad_image(err, (uint64_t)(pe->cli_header - pe->data) + 8u,
                                   "CLI header's metadata range not in a section's file bytes");
    return asmstore__metadata_root(pe->metadata, pe->metadata_size,
                                   (uint64_t)(pe->metadata - pe->data),
                                   "metadata root's version string and stream count run past "
                                   "the metadata",
                                   err);
}

/* A Windows PDB: the MSF 7.00 superblock, its block size and a block count covering the file. */
ASMSTORE__PRIVATE asmstore_result asmstore__msf_check(const unsigned char *p, size_t size,
                                                      asmstore_error *err) {
    static const char magic[32] = "Microsoft C/C++ MSF 7.00\r\n\x1a" "DS\0\0";
    uint32_t block, blocks;

    if (size < ASMSTORE__MSF_HEADER_SIZE || memcmp(p, magic, sizeof magic) != 0)
        return asmstore__bad_image(err, 0,
                                   "neither a Portable PDB (metadata root \"BSJB\" at offset 0) "
                                   "nor a Windows PDB (\"Microsoft C/C++ MSF 7.00\")");
    block = asmstore__rd32(p + 32);
    blocks = asmstore__rd32(p + 40);
    if ((block != 512 && block != 1024 && block != 2048 && block != 4096) ||
        (uint64_t)block * blocks != size)
        return asmstore__bad_image(err, 32,
                                   "Windows PDB whose block size is not 512-4096 or whose blocks "
                                   "do not cover the file");
    return ASMSTORE_OK;
}

/* A .config: XML text (a '<' after an optional UTF-8 BOM and white space), no NUL but a last
   one. */
ASMSTORE__PRIVATE asmstore_result asmstore__config_check(const unsigned char *p, size_t size,
                                                         asmstore_error *err) {
    size_t i = size >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3u : 0u;
    const unsigned char *nul;

    while (i < size && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    if (i >= size || p[i] != '<')
        return asmstore__bad_image(err, i,
                                   "config is not XML: no '<' after its BOM and white space");
    nul = (const unsigned char *)memchr(p, 0, size - (p[size - 1] == 0));
    if (nul)
        return asmstore__bad_image(err, (uint64_t)(nul - p),
                                   "config holds a NUL byte: not text");
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_image_check(asmstore_image_kind kind, const void *data,
                                                  size_t size, asmstore_error *err) {
    const unsigned char *p = (const unsigned char *)data;
    asmstore_pe pe;

    if (!data && size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL data with a size");
    if (kind == ASMSTORE_IMAGE_ASSEMBLY) return asmstore_pe_parse(&pe, data, size, err);
    if (kind == ASMSTORE_IMAGE_PDB) {
        if (size >= 4 && asmstore__rd32(p) == ASMSTORE__METADATA_MAGIC)
            return asmstore__metadata_root(p, size, 0,
                                           "Portable PDB's version string and stream count run "
                                           "past the file",
                                           err);
        return asmstore__msf_check(p, size, err);
    }
    if (kind == ASMSTORE_IMAGE_CONFIG) return asmstore__config_check(p, size, err);
    return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "unknown image kind");
}

ASMSTORE_DEF asmstore_result asmstore_image_check_entry(const asmstore_entry *e, const void *image,
                                                        size_t image_size,
                                                        asmstore_image_kind *part,
                                                        asmstore_error *err) {
    asmstore_image_kind kind = ASMSTORE_IMAGE_ASSEMBLY;
    asmstore_result res;

    if (!e)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL entry");
    if (e->ignored) return ASMSTORE_OK;
    res = asmstore_image_check(kind, image, image_size, err);
    if (res == ASMSTORE_OK && e->pdb) {
        kind = ASMSTORE_IMAGE_PDB;
        res = asmstore_image_check(kind, e->pdb, e->pdb_size, err);
    }
    if (res == ASMSTORE_OK && e->config) {
        kind = ASMSTORE_IMAGE_CONFIG;
        res = asmstore_image_check(kind, e->config, e->config_size, err);
    }
    if (res == ASMSTORE_OK) return res;
    if (part) *part = kind;
    if (err) err->entry = e->index;
    return res;
}

/* >>image: identity ---------------------------------------------------------------------------- */
/* ECMA-335 §II.24.2.2 (stream headers), §II.24.2.6 (#~ and the coded indices), §II.22 (columns). */
#define ASMSTORE__MD_ASSEMBLY  0x20u /* the Assembly table: the last one sized here */
#define ASMSTORE__MD_TABLE_MAX 64u
#define ASMSTORE__MD_NO_TABLE  0xFFu /* a coded index's tag that names no table */
#define ASMSTORE__DIR_DEBUG    6u    /* IMAGE_DIRECTORY_ENTRY_DEBUG */
#define ASMSTORE__DEBUG_ENTRY  28u   /* IMAGE_DEBUG_DIRECTORY */
#define ASMSTORE__DEBUG_MAX    4096u

/* The metadata streams a row reads (offsets in the image) and the table sizes #~ gives. */
typedef struct asmstore__md {
    const unsigned char *p;
    uint64_t at[4], len[4]; /* asmstore__md_stream order: #~ (or #-), #Strings, #GUID, #Blob */
    unsigned heap_sizes;    /* bit 0: 4-byte #Strings indices, bit 1: #GUID, bit 2: #Blob */
    uint32_t rows[ASMSTORE__MD_TABLE_MAX];
    uint64_t table_at[ASMSTORE__MD_ASSEMBLY + 1];
    uint32_t row_size[ASMSTORE__MD_ASSEMBLY + 1];
} asmstore__md;

enum { ASMSTORE__MD_TILDE, ASMSTORE__MD_STRINGS, ASMSTORE__MD_GUID, ASMSTORE__MD_BLOB };

/* Each table's columns, 0x00-0x20: '2' and '4' constants, 'S' 'G' 'B' heap indices, 0x80 | table
   a table index, a lower-case letter a coded index (asmstore__md_coded). */
static const char *const asmstore__md_columns[ASMSTORE__MD_ASSEMBLY + 1] = {
    "2SGGG", "rSS", "4SSt\x84\x86", "\x84", "2SB", "\x86", "422SB\x88", "\x88", "22S", "\x82t",
    "pSB", "2cB", "hyB", "fB", "2dB", "24\x82", "4\x84", "B", "\x82\x94", "\x94", "2St",
    "\x82\x97", "\x97", "2SB", "2\x86s", "\x82mm", "S", "B", "2wS\x9a", "4\x84", "44", "4",
    "422224BSS"};

/* A coded index: its letter in asmstore__md_columns, tag bits and tables by tag. */
typedef struct asmstore__md_code {
    char letter;
    unsigned char bits, count;
    unsigned char tables[22];
} asmstore__md_code;

static const asmstore__md_code asmstore__md_codes[] = {
    {'t', 2, 3, {0x02, 0x01, 0x1B}},                                   /* TypeDefOrRef */
    {'c', 2, 3, {0x04, 0x08, 0x17}},                                   /* HasConstant */
    {'h', 5, 22, {0x06, 0x04, 0x01, 0x02, 0x08, 0x09, 0x0A, 0x00, 0x0E, 0x17, 0x14, 0x11, 0x1A,
                  0x1B, 0x20, 0x23, 0x26, 0x27, 0x28, 0x2A, 0x2C, 0x2B}}, /* HasCustomAttribute */
    {'f', 1, 2, {0x04, 0x08}},                                         /* HasFieldMarshal */
    {'d', 2, 3, {0x02, 0x06, 0x20}},                                   /* HasDeclSecurity */
    {'p', 3, 5, {0x02, 0x01, 0x1A, 0x06, 0x1B}},                       /* MemberRefParent */
    {'s', 1, 2, {0x14, 0x17}},                                         /* HasSemantics */
    {'m', 1, 2, {0x06, 0x0A}},                                         /* MethodDefOrRef */
    {'w', 1, 2, {0x04, 0x06}},                                         /* MemberForwarded */
    {'r', 2, 4, {0x00, 0x1A, 0x23, 0x01}},                             /* ResolutionScope */
    {'y', 3, 5, {0xFF, 0xFF, 0x06, 0x0A, 0xFF}}};                      /* CustomAttributeType */

/* A column's width in bytes: 2, or 4 where its heap is large or a table it indexes has 2^16 rows
   or more (2^(16 - tag bits) for a coded index). */
ASMSTORE__PRIVATE unsigned asmstore__md_column_size(const asmstore__md *m, unsigned char col) {
    size_t i, k;
    uint32_t most = 0;

    if (col == '2') return 2;
    if (col == '4') return 4;
    if (col == 'S' || col == 'G' || col == 'B')
        return m->heap_sizes & (col == 'S' ? 1u : col == 'G' ? 2u : 4u) ? 4u : 2u;
    if (col & 0x80u) return m->rows[col & 0x7Fu] < 0x10000u ? 2u : 4u;
    for (i = 0; i < sizeof asmstore__md_codes / sizeof asmstore__md_codes[0]; i++) {
        const asmstore__md_code *c = &asmstore__md_codes[i];
        if (c->letter != (char)col) continue;
        for (k = 0; k < c->count; k++)
            if (c->tables[k] != ASMSTORE__MD_NO_TABLE && m->rows[c->tables[k]] > most)
                most = m->rows[c->tables[k]];
        return most < (1u << (16u - c->bits)) ? 2u : 4u;
    }
    return 0; /* not reached: every letter of asmstore__md_columns is in asmstore__md_codes */
}

/* Column `col` (0-based) of row `row` (1-based, checked by the caller) of table t. */
ASMSTORE__PRIVATE uint32_t asmstore__md_cell(const asmstore__md *m, unsigned t, uint32_t row,
                                             unsigned col) {
    const char *c = asmstore__md_columns[t];
    uint64_t at = m->table_at[t] + (uint64_t)(row - 1u) * m->row_size[t];
    unsigned k;

    for (k = 0; k < col; k++) at += asmstore__md_column_size(m, (unsigned char)c[k]);
    return asmstore__md_column_size(m, (unsigned char)c[col]) == 2 ? asmstore__rd16(m->p + at)
                                                                   : asmstore__rd32(m->p + at);
}

/* The stream headers after the metadata root: where #~ (or #-), #Strings, #GUID and #Blob are. */
ASMSTORE__PRIVATE asmstore_result asmstore__md_streams(const asmstore_pe *pe, asmstore__md *m,
                                                       asmstore_error *err) {
    static const char *const names[] = {"#~", "#Strings", "#GUID", "#Blob"};
    const unsigned char *md = pe->metadata;
    uint64_t root = (uint64_t)(md - pe->data), h = 20u + asmstore__rd32(md + 12), end;
    uint32_t count, k, i;

    count = asmstore__rd16(md + h - 2u); /* asmstore__metadata_root: h <= metadata_size */
    for (k = 0; k < count; k++) {
        uint64_t off, len;
        const unsigned char *name = md + h + 8u, *nul;
        if (h + 9u > pe->metadata_size ||
            !(nul = (const unsigned char *)memchr(name, 0, (size_t)(pe->metadata_size - h - 8u))))
            return asmstore__bad_image(err, root + h, "a metadata stream header runs past the "
                                                      "metadata");
        off = asmstore__rd32(md + h);
        len = asmstore__rd32(md + h + 4u);
        if (!asmstore__range_ok(off, len, pe->metadata_size))
            return asmstore__bad_image(err, root + h, "a metadata stream lies outside the "
                                                      "metadata");
        for (i = 0; i < 4; i++)
            if (!m->at[i] && (strcmp((const char *)name, names[i]) == 0 ||
                              (i == ASMSTORE__MD_TILDE && strcmp((const char *)name, "#-") == 0))) {
                m->at[i] = root + off;
                m->len[i] = len;
            }
        end = (uint64_t)(nul - md) + 1u;
        h = (end + 3u) & ~(uint64_t)3u;
    }
    if (!m->at[ASMSTORE__MD_TILDE] || m->len[ASMSTORE__MD_TILDE] < 24u)
        return asmstore__bad_image(err, root, "no metadata table stream (#~) of 24 bytes or more");
    return ASMSTORE_OK;
}

/* The table stream's header: heap sizes, row counts, and where each table up to Assembly lies. */
ASMSTORE__PRIVATE asmstore_result asmstore__md_tables(asmstore__md *m, asmstore_error *err) {
    const unsigned char *t = m->p + m->at[ASMSTORE__MD_TILDE];
    uint64_t valid = asmstore__rd64(t + 8), at = 24u, len = m->len[ASMSTORE__MD_TILDE];
    unsigned k;
    const char *c;

    m->heap_sizes = t[6];
    for (k = 0; k < ASMSTORE__MD_TABLE_MAX; k++) {
        if (!(valid >> k & 1u)) continue;
        if (at + 4u > len)
            return asmstore__bad_image(err, m->at[0] + at, "metadata row counts run past #~");
        m->rows[k] = asmstore__rd32(t + at);
        at += 4u;
    }
    if (m->heap_sizes & 0x40u) at += 4u; /* "extra data" after the row counts (CoreCLR, Mono) */
    for (k = 0; k <= ASMSTORE__MD_ASSEMBLY; k++) {
        m->table_at[k] = m->at[ASMSTORE__MD_TILDE] + at;
        for (c = asmstore__md_columns[k]; *c; c++)
            m->row_size[k] += asmstore__md_column_size(m, (unsigned char)*c);
        at += (uint64_t)m->rows[k] * m->row_size[k];
        if (at > len)
            return asmstore__bad_image(err, m->table_at[k], "a metadata table runs past #~");
    }
    return ASMSTORE_OK;
}

/* String `idx` of #Strings: its bytes up to the NUL that ends it inside the heap. */
ASMSTORE__PRIVATE asmstore_result asmstore__md_string(const asmstore__md *m, uint32_t idx,
                                                      const char **s, uint32_t *n,
                                                      asmstore_error *err) {
    const unsigned char *p = m->p + m->at[ASMSTORE__MD_STRINGS], *nul;

    if (idx >= m->len[ASMSTORE__MD_STRINGS] ||
        !(nul = (const unsigned char *)memchr(p + idx, 0,
                                              (size_t)(m->len[ASMSTORE__MD_STRINGS] - idx))))
        return asmstore__bad_image(err, m->at[ASMSTORE__MD_STRINGS],
                                   "a #Strings index lies outside #Strings, or its string has "
                                   "no NUL there");
    *s = (const char *)(p + idx);
    *n = (uint32_t)(nul - (p + idx));
    return ASMSTORE_OK;
}

/* Blob `idx` of #Blob: its compressed length (1, 2 or 4 bytes, §II.24.2.4) and its bytes. */
ASMSTORE__PRIVATE asmstore_result asmstore__md_blob(const asmstore__md *m, uint32_t idx,
                                                    const unsigned char **b, uint32_t *n,
                                                    asmstore_error *err) {
    const unsigned char *p = m->p + m->at[ASMSTORE__MD_BLOB];
    uint64_t heap = m->len[ASMSTORE__MD_BLOB], head, len;

    if (idx == 0 && heap == 0) { /* blob 0 is the empty blob, even with no #Blob at all */
        *b = p;
        *n = 0;
        return ASMSTORE_OK;
    }
    head = idx < heap ? (p[idx] & 0x80u) == 0 ? 1u : (p[idx] & 0xC0u) == 0x80u ? 2u
                                           : (p[idx] & 0xE0u) == 0xC0u ? 4u : 0u
                      : 0u;
    if (head == 0 || !asmstore__range_ok(idx, head, heap))
        return asmstore__bad_image(err, m->at[ASMSTORE__MD_BLOB] + (idx < heap ? idx : 0u),
                                   "a #Blob index lies outside #Blob, or its length is malformed");
    len = head == 1 ? p[idx] : head == 2 ? (p[idx] & 0x3Fu) << 8 | p[idx + 1]
                                         : (uint64_t)(p[idx] & 0x1Fu) << 24 |
                                               (uint64_t)p[idx + 1] << 16 |
                                               (uint64_t)p[idx + 2] << 8 | p[idx + 3];
    if (!asmstore__range_ok(idx + head, len, heap))
        return asmstore__bad_image(err, m->at[ASMSTORE__MD_BLOB] + idx, "a blob runs past #Blob");
    *b = p + idx + head;
    *n = (uint32_t)len;
    return ASMSTORE_OK;
}

/* The Module row's Mvid: GUID `idx` (1-based) of #GUID; 0 is the null GUID. */
ASMSTORE__PRIVATE asmstore_result asmstore__md_module(const asmstore__md *m, asmstore_identity *id,
                                                      asmstore_error *err) {
    uint32_t idx;

    if (m->rows[0] == 0)
        return asmstore__bad_image(err, m->at[ASMSTORE__MD_TILDE], "no Module row in the "
                                                                   "metadata");
    idx = asmstore__md_cell(m, 0, 1, 2);
    if (idx == 0) return ASMSTORE_OK;
    if (!asmstore__range_ok((uint64_t)(idx - 1u) * 16u, 16, m->len[ASMSTORE__MD_GUID]))
        return asmstore__bad_image(err, m->table_at[0], "the Module row's Mvid lies outside "
                                                        "#GUID");
    memcpy(id->mvid, m->p + m->at[ASMSTORE__MD_GUID] + (uint64_t)(idx - 1u) * 16u, 16);
    return ASMSTORE_OK;
}

/* The Assembly row, when there is one: version, flags, public key, name and culture. */
ASMSTORE__PRIVATE asmstore_result asmstore__md_assembly(const asmstore__md *m,
                                                        asmstore_identity *id,
                                                        asmstore_error *err) {
    const unsigned t = ASMSTORE__MD_ASSEMBLY;
    asmstore_result res;
    unsigned k;

    if (m->rows[t] == 0) return ASMSTORE_OK;
    id->has_assembly = 1;
    id->hash_algorithm = asmstore__md_cell(m, t, 1, 0);
    for (k = 0; k < 4; k++) id->version[k] = (uint16_t)asmstore__md_cell(m, t, 1, 1 + k);
    id->flags = asmstore__md_cell(m, t, 1, 5);
    if ((res = asmstore__md_blob(m, asmstore__md_cell(m, t, 1, 6), &id->public_key,
                                 &id->public_key_size, err)) != ASMSTORE_OK ||
        (res = asmstore__md_string(m, asmstore__md_cell(m, t, 1, 7), &id->name, &id->name_len,
                                   err)) != ASMSTORE_OK)
        return res;
    return asmstore__md_string(m, asmstore__md_cell(m, t, 1, 8), &id->culture, &id->culture_len,
                               err);
}

/* One debug directory record's data (d: its IMAGE_DEBUG_DIRECTORY): a CodeView "RSDS" record
   (GUID, age, NUL-terminated path) or a PDB checksum (NUL-terminated algorithm name, then the
   checksum); the first of each kind counts, other kinds are skipped. */
ASMSTORE__PRIVATE asmstore_result asmstore__pe_debug_record(const asmstore_pe *pe,
                                                            const unsigned char *d,
                                                            asmstore_identity *id,
                                                            asmstore_error *err) {
    uint32_t type = asmstore__rd32(d + 12), size = asmstore__rd32(d + 16);
    uint64_t at = asmstore__rd32(d + 24);
    const unsigned char *p = pe->data + at, *nul;

    if ((type != 2 || id->has_codeview) && (type != 19 || id->pdb_checksum_algorithm))
        return ASMSTORE_OK;
    if (!asmstore__range_ok(at, size, pe->size))
        return asmstore__bad_image(err, (uint64_t)(d - pe->data) + 16u,
                                   "a debug directory record lies outside the file");
    if (type == 2) {
        if (size < 24u || memcmp(p, "RSDS", 4) != 0) return ASMSTORE_OK; /* an older NB10 */
        if (!(nul = (const unsigned char *)memchr(p + 24, 0, size - 24u)))
            return asmstore__bad_image(err, at + 24u, "CodeView record's PDB path has no NUL");
        id->has_codeview = 1;
        memcpy(id->pdb_guid, p + 4, 16);
        id->pdb_age = asmstore__rd32(p + 20);
        id->pdb_stamp = asmstore__rd32(d + 4);
        id->pdb_portable = asmstore__rd16(d + 10) == 0x504du;
        id->pdb_path = (const char *)(p + 24);
        id->pdb_path_len = (uint32_t)(nul - (p + 24));
        return ASMSTORE_OK;
    }
    if (!(nul = (const unsigned char *)memchr(p, 0, size)))
        return asmstore__bad_image(err, at, "PDB checksum record's algorithm name has no NUL");
    id->pdb_checksum_algorithm = (const char *)p;
    id->pdb_checksum_algorithm_len = (uint32_t)(nul - p);
    id->pdb_checksum = nul + 1;
    id->pdb_checksum_size = size - id->pdb_checksum_algorithm_len - 1u;
    return ASMSTORE_OK;
}

/* The debug directory (data directory 6), when there is one, record by record. */
ASMSTORE__PRIVATE asmstore_result asmstore__pe_debug(const asmstore_pe *pe, asmstore_identity *id,
                                                     asmstore_error *err) {
    const unsigned char *dir = pe->directories + 8u * ASMSTORE__DIR_DEBUG, *d;
    uint32_t rva, size, k;
    asmstore_result res;

    if (pe->directory_count <= ASMSTORE__DIR_DEBUG) return ASMSTORE_OK;
    rva = asmstore__rd32(dir);
    size = asmstore__rd32(dir + 4);
    if (rva == 0 || size == 0) return ASMSTORE_OK;
    if (size / ASMSTORE__DEBUG_ENTRY > ASMSTORE__DEBUG_MAX || !(d = asmstore_pe_at_rva(pe, rva, size)))
        return asmstore__bad_image(err, (uint64_t)(dir - pe->data),
                                   "debug directory not in a section's file bytes, or over 4,096 "
                                   "records");
    for (k = 0; k < size / ASMSTORE__DEBUG_ENTRY; k++)
        if ((res = asmstore__pe_debug_record(pe, d + (size_t)k * ASMSTORE__DEBUG_ENTRY, id,
                                             err)) != ASMSTORE_OK)
            return res;
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_pe_identity(const asmstore_pe *pe, asmstore_identity *id,
                                                  asmstore_error *err) {
    asmstore__md m;
    asmstore_result res;

    if (!pe || !id || !pe->data || !pe->metadata)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL id, or a pe asmstore_pe_parse did not fill");
    memset(id, 0, sizeof *id);
    memset(&m, 0, sizeof m);
    m.p = pe->data;
    id->timestamp = asmstore__rd32(pe->data + asmstore__rd32(pe->data + 0x3c) + 8u);
    if ((res = asmstore__md_streams(pe, &m, err)) != ASMSTORE_OK ||
        (res = asmstore__md_tables(&m, err)) != ASMSTORE_OK ||
        (res = asmstore__md_module(&m, id, err)) != ASMSTORE_OK ||
        (res = asmstore__md_assembly(&m, id, err)) != ASMSTORE_OK)
        return res;
    return asmstore__pe_debug(pe, id, err);
}

/* >>elf ---------------------------------------------------------------------------------------- */
#define ASMSTORE__ET_DYN 3u
#define ASMSTORE__PT_LOAD 1u
#define ASMSTORE__PT_DYNAMIC 2u
#define ASMSTORE__PT_INTERP 3u
#define ASMSTORE__PT_NOTE 4u
#define ASMSTORE__PT_PHDR 6u
#define ASMSTORE__PT_TLS 7u
#define ASMSTORE__PT_GNU_STACK 0x6474e551u
#define ASMSTORE__PT_GNU_RELRO 0x6474e552u
#define ASMSTORE__PF_X 1u
#define ASMSTORE__PF_W 2u
#define ASMSTORE__PF_R 4u
#define ASMSTORE__SHT_PROGBITS 1u
#define ASMSTORE__SHT_STRTAB 3u
#define ASMSTORE__SHT_HASH 5u
#define ASMSTORE__SHT_DYNAMIC 6u
#define ASMSTORE__SHT_NOBITS 8u
#define ASMSTORE__SHT_DYNSYM 11u
#define ASMSTORE__SHF_ALLOC 2u
#define ASMSTORE__DT_NULL 0u
#define ASMSTORE__DT_NEEDED 1u
#define ASMSTORE__DT_HASH 4u
#define ASMSTORE__DT_STRTAB 5u
#define ASMSTORE__DT_SYMTAB 6u
#define ASMSTORE__DT_STRSZ 10u
#define ASMSTORE__DT_SYMENT 11u
#define ASMSTORE__DT_SONAME 14u
#define ASMSTORE__EF_ARM_NET12 0x05000200u /* EABI5 + EF_ARM_ABI_FLOAT_SOFT: AssemblyStoreElfWriter's */
#define ASMSTORE__DT_TEXTREL 22u
#define ASMSTORE__DT_FLAGS 30u
#define ASMSTORE__DF_TEXTREL 4u
#define ASMSTORE__DT_GNU_HASH 0x6ffffef5u
#define ASMSTORE__STB_GLOBAL 1u
#define ASMSTORE__STT_OBJECT 1u

ASMSTORE_DEF const char *asmstore_elf_kind_name(asmstore_elf_kind kind) {
    switch (kind) {
    case ASMSTORE_ELF_SYMBOL: return "elf-dlopen";
    case ASMSTORE_ELF_SECTION: return "elf-section";
    default: return "raw";
    }
}

/* One parsed header of each kind, class-independent. */
typedef struct asmstore__shdr {
    uint32_t name, type, link, info;
    uint64_t flags, addr, offset, size, addralign, entsize;
} asmstore__shdr;

typedef struct asmstore__phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
} asmstore__phdr;

typedef struct asmstore__sym {
    uint32_t name;
    unsigned char info, other;
    uint16_t shndx;
    uint64_t value, size;
} asmstore__sym;

/* A validated view of an ELF file's header: the program and section header tables (when their
   counts are non-zero) lie inside the file with entries at least as large as the spec's. */
typedef struct asmstore__elf {
    const unsigned char *p;
    uint64_t size;
    int is64;
    uint16_t type, machine;
    uint32_t flags;
    uint64_t phoff, shoff;
    uint32_t phnum, shnum, phentsize, shentsize, shstrndx, ehsize;
} asmstore__elf;

ASMSTORE__PRIVATE uint64_t asmstore__rdw(const unsigned char *p, int is64) {
    return is64 ? asmstore__rd64(p) : asmstore__rd32(p);
}

ASMSTORE__PRIVATE void asmstore__wrw(unsigned char *p, uint64_t v, int is64) {
    if (is64)
        asmstore__wr64(p, v);
    else
        asmstore__wr32(p, (uint32_t)v);
}

ASMSTORE__PRIVATE asmstore_result asmstore__elf_open(asmstore__elf *e, const void *data,
                                                     size_t size) {
    const unsigned char *p = (const unsigned char *)data;

    memset(e, 0, sizeof *e);
    if (!p || size < 52) return ASMSTORE_ERR_BAD_ELF;
    if (p[0] != 0x7f || p[1] != 'E' || p[2] != 'L' || p[3] != 'F') return ASMSTORE_ERR_BAD_ELF;
    if ((p[4] != 1 && p[4] != 2) || p[5] != 1)
        return ASMSTORE_ERR_BAD_ELF; /* 32/64-bit, little-endian only */
    e->p = p;
    e->size = size;
    e->is64 = p[4] == 2;
    if (e->is64 && size < 64) return ASMSTORE_ERR_BAD_ELF;
    e->type = asmstore__rd16(p + 16);
    e->machine = asmstore__rd16(p + 18);
    if (e->is64) {
        e->phoff = asmstore__rd64(p + 32);
        e->shoff = asmstore__rd64(p + 40);
        e->flags = asmstore__rd32(p + 48);
        e->ehsize = asmstore__rd16(p + 52);
        e->phentsize = asmstore__rd16(p + 54);
        e->phnum = asmstore__rd16(p + 56);
        e->shentsize = asmstore__rd16(p + 58);
        e->shnum = asmstore__rd16(p + 60);
        e->shstrndx = asmstore__rd16(p + 62);
    } else {
        e->phoff = asmstore__rd32(p + 28);
        e->shoff = asmstore__rd32(p + 32);
        e->flags = asmstore__rd32(p + 36);
        e->ehsize = asmstore__rd16(p + 40);
        e->phentsize = asmstore__rd16(p + 42);
        e->phnum = asmstore__rd16(p + 44);
        e->shentsize = asmstore__rd16(p + 46);
        e->shnum = asmstore__rd16(p + 48);
        e->shstrndx = asmstore__rd16(p + 50);
    }
    if (e->phnum && (e->phentsize < (e->is64 ? 56u : 32u) ||
                     !asmstore__range_ok(e->phoff, (uint64_t)e->phnum * e->phentsize, e->size)))
        return ASMSTORE_ERR_BAD_ELF;
    if (e->shnum && (e->shentsize < (e->is64 ? 64u : 40u) ||
                     !asmstore__range_ok(e->shoff, (uint64_t)e->shnum * e->shentsize, e->size)))
        return ASMSTORE_ERR_BAD_ELF;
    return ASMSTORE_OK;
}

/* asmstore__elf_open of a public function's argument, saying in err what failed. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_open_or_fail(asmstore__elf *e, const void *data,
                                                             size_t size, asmstore_error *err) {
    asmstore_result res;

    if (!data && size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL file with a size");
    res = asmstore__elf_open(e, data, size);
    if (res != ASMSTORE_OK)
        return asmstore__fail(
            err, res, 0, -1, 0,
            "ELF header (little-endian, 32/64-bit) or its header tables out of bounds");
    return ASMSTORE_OK;
}

ASMSTORE__PRIVATE void asmstore__elf_shdr(const asmstore__elf *e, uint32_t i, asmstore__shdr *s) {
    const unsigned char *q = e->p + e->shoff + (uint64_t)i * e->shentsize;

    s->name = asmstore__rd32(q);
    s->type = asmstore__rd32(q + 4);
    if (e->is64) {
        s->flags = asmstore__rd64(q + 8);
        s->addr = asmstore__rd64(q + 16);
        s->offset = asmstore__rd64(q + 24);
        s->size = asmstore__rd64(q + 32);
        s->link = asmstore__rd32(q + 40);
        s->info = asmstore__rd32(q + 44);
        s->addralign = asmstore__rd64(q + 48);
        s->entsize = asmstore__rd64(q + 56);
    } else {
        s->flags = asmstore__rd32(q + 8);
        s->addr = asmstore__rd32(q + 12);
        s->offset = asmstore__rd32(q + 16);
        s->size = asmstore__rd32(q + 20);
        s->link = asmstore__rd32(q + 24);
        s->info = asmstore__rd32(q + 28);
        s->addralign = asmstore__rd32(q + 32);
        s->entsize = asmstore__rd32(q + 36);
    }
}

ASMSTORE__PRIVATE void asmstore__elf_phdr(const asmstore__elf *e, uint32_t i, asmstore__phdr *h) {
    const unsigned char *q = e->p + e->phoff + (uint64_t)i * e->phentsize;

    h->type = asmstore__rd32(q);
    if (e->is64) {
        h->flags = asmstore__rd32(q + 4);
        h->offset = asmstore__rd64(q + 8);
        h->vaddr = asmstore__rd64(q + 16);
        h->paddr = asmstore__rd64(q + 24);
        h->filesz = asmstore__rd64(q + 32);
        h->memsz = asmstore__rd64(q + 40);
        h->align = asmstore__rd64(q + 48);
    } else {
        h->offset = asmstore__rd32(q + 4);
        h->vaddr = asmstore__rd32(q + 8);
        h->paddr = asmstore__rd32(q + 12);
        h->filesz = asmstore__rd32(q + 16);
        h->memsz = asmstore__rd32(q + 20);
        h->flags = asmstore__rd32(q + 24);
        h->align = asmstore__rd32(q + 28);
    }
}

/* Symbol i of a symbol table at file offset off (caller checked the range). */
ASMSTORE__PRIVATE void asmstore__elf_sym(const asmstore__elf *e, uint64_t off, uint64_t i,
                                         asmstore__sym *s) {
    const unsigned char *q = e->p + off + i * (e->is64 ? 24u : 16u);

    s->name = asmstore__rd32(q);
    if (e->is64) {
        s->info = q[4];
        s->other = q[5];
        s->shndx = asmstore__rd16(q + 6);
        s->value = asmstore__rd64(q + 8);
        s->size = asmstore__rd64(q + 16);
    } else {
        s->value = asmstore__rd32(q + 4);
        s->size = asmstore__rd32(q + 8);
        s->info = q[12];
        s->other = q[13];
        s->shndx = asmstore__rd16(q + 14);
    }
}

/* Does the NUL-terminated string at strtab offset `idx` (table [off, off+size) inside the file)
   equal want[0..len)? Reads at most len + 1 bytes, all bounds-checked. */
ASMSTORE__PRIVATE int asmstore__elf_str_eq(const asmstore__elf *e, uint64_t off, uint64_t size,
                                           uint64_t idx, const char *want, size_t len) {
    if (!asmstore__range_ok(off, size, e->size) || idx >= size || size - idx < (uint64_t)len + 1)
        return 0;
    return memcmp(e->p + off + idx, want, len) == 0 && e->p[off + idx + len] == 0;
}

/* Section whose name (through e_shstrndx) is `name`; returns its index or 0. */
ASMSTORE__PRIVATE uint32_t asmstore__elf_find_section(const asmstore__elf *e, const char *name,
                                                      asmstore__shdr *out) {
    asmstore__shdr str, s;
    uint32_t i;
    size_t len = strlen(name);

    if (e->shnum == 0 || e->shstrndx == 0 || e->shstrndx >= e->shnum) return 0;
    asmstore__elf_shdr(e, e->shstrndx, &str);
    if (str.type != ASMSTORE__SHT_STRTAB) return 0;
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &s);
        if (asmstore__elf_str_eq(e, str.offset, str.size, s.name, name, len)) {
            *out = s;
            return i;
        }
    }
    return 0;
}

/* Where symbol y (its .dynsym entry at entry_off, for errors) puts the payload: *off and *size
   in the file. The symbol must be defined in a section with bytes, and lie inside it. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_symbol_extent(const asmstore__elf *e,
                                                              const asmstore__sym *y,
                                                              uint64_t entry_off, uint64_t *off,
                                                              uint64_t *size, asmstore_error *err) {
    asmstore__shdr target;
    uint64_t rel;
    uint64_t avail;

    if (y->shndx == 0 || y->shndx >= e->shnum) /* undefined, ABS or reserved */
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, entry_off, -1, 0,
                              "payload symbol not defined in a section");
    asmstore__elf_shdr(e, y->shndx, &target);
    if (target.type == ASMSTORE__SHT_NOBITS ||
        !asmstore__range_ok(target.offset, target.size, e->size) || y->value < target.addr ||
        y->value - target.addr > target.size)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, entry_off, -1, 0,
                              "payload symbol's address outside its section");
    rel = y->value - target.addr;
    avail = target.size - rel;
    if (y->size > avail)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, entry_off, -1, 0,
                              "payload symbol's size past its section");
    *off = target.offset + rel;
    *size = y->size ? y->size : avail;
    return ASMSTORE_OK;
}

/* The dynamic symbol named `symbol` in the first SHT_DYNSYM section (one pass: O(e_shnum +
   symbols)): ASMSTORE_OK with *y and *entry_off (its .dynsym entry's file offset),
   ASMSTORE_ERR_NOT_FOUND when there is no such symbol (or no .dynsym), else the error. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_dynsym_find(const asmstore__elf *e,
                                                            const char *symbol, asmstore__sym *y,
                                                            uint64_t *entry_off,
                                                            asmstore_error *err) {
    uint64_t entsz = e->is64 ? 24u : 16u;
    size_t symlen = strlen(symbol);
    asmstore__shdr s;
    asmstore__shdr str;
    uint32_t i = 1;
    uint64_t n;
    uint64_t k;

    while (i < e->shnum) {
        asmstore__elf_shdr(e, i, &s);
        if (s.type == ASMSTORE__SHT_DYNSYM) break;
        i++;
    }
    if (i >= e->shnum) return ASMSTORE_ERR_NOT_FOUND;
    if (!asmstore__range_ok(s.offset, s.size, e->size) || s.link >= e->shnum)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, s.offset, -1, 0,
                              ".dynsym outside the file or its sh_link out of range");
    asmstore__elf_shdr(e, s.link, &str);
    if (str.type != ASMSTORE__SHT_STRTAB || !asmstore__range_ok(str.offset, str.size, e->size))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, str.offset, -1, 0,
                              ".dynstr not a string table inside the file");

    n = s.size / entsz;
    for (k = 1; k < n; k++) {
        asmstore__elf_sym(e, s.offset, k, y);
        if (!asmstore__elf_str_eq(e, str.offset, str.size, y->name, symbol, symlen)) continue;
        *entry_off = s.offset + k * entsz;
        return ASMSTORE_OK;
    }
    return ASMSTORE_ERR_NOT_FOUND;
}

/* The payload named by `symbol` (asmstore__elf_dynsym_find): ASMSTORE_OK with *off, *size and
   info filled, ASMSTORE_ERR_NOT_FOUND when there is no such symbol, else the error. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_symbol_payload(const asmstore__elf *e,
                                                               const char *symbol, uint64_t *off,
                                                               uint64_t *size,
                                                               asmstore_elf_info *info,
                                                               asmstore_error *err) {
    asmstore__sym y;
    uint64_t at = 0;
    asmstore_result res = asmstore__elf_dynsym_find(e, symbol, &y, &at, err);

    if (res != ASMSTORE_OK) return res;
    res = asmstore__elf_symbol_extent(e, &y, at, off, size, err);
    if (res != ASMSTORE_OK) return res;
    if (info) {
        info->kind = ASMSTORE_ELF_SYMBOL;
        info->symbol_size = y.size;
        info->section_index = y.shndx;
        info->section_is_last = y.shndx + 1u == e->shnum;
        info->symbol_entry_offset = at;
    }
    return ASMSTORE_OK;
}

/* The section named "payload" (MonoVM's legacy wrapper): *off and *size in the file. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_section_payload(const asmstore__elf *e,
                                                                uint64_t *off, uint64_t *size,
                                                                asmstore_elf_info *info,
                                                                asmstore_error *err) {
    asmstore__shdr target;
    uint32_t i = asmstore__elf_find_section(e, "payload", &target);

    if (i == 0)
        return asmstore__fail(err, ASMSTORE_ERR_NO_PAYLOAD, 0, -1, 0,
                              "no payload symbol and no 'payload' section");
    if (target.type == ASMSTORE__SHT_NOBITS ||
        !asmstore__range_ok(target.offset, target.size, e->size))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, target.offset, -1, 0,
                              "'payload' section without bytes in the file");
    *off = target.offset;
    *size = target.size;
    if (info) {
        info->kind = ASMSTORE_ELF_SECTION;
        info->section_index = i;
        info->section_is_last = i + 1u == e->shnum;
    }
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_elf_payload(const void *elf, size_t size, const char *symbol,
                                                  const void **payload, size_t *payload_size,
                                                  asmstore_elf_info *info, asmstore_error *err) {
    asmstore__elf e;
    asmstore_result res;
    uint64_t off = 0;
    uint64_t len = 0;

    if (!payload || !payload_size || (!elf && size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL output, or NULL file with a size");
    *payload = NULL;
    *payload_size = 0;
    if (info) memset(info, 0, sizeof *info);
    if (!symbol) symbol = ASMSTORE_ELF_DEFAULT_SYMBOL;
    if ((res = asmstore__elf_open_or_fail(&e, elf, size, err)) != ASMSTORE_OK) return res;
    if (info) {
        info->is_64bit = e.is64;
        info->machine = e.machine;
        info->abi = asmstore__abi_of_machine(e.machine);
    }

    /* 1. the dynamic symbol, 2. the section named "payload" */
    res = asmstore__elf_symbol_payload(&e, symbol, &off, &len, info, err);
    if (res == ASMSTORE_ERR_NOT_FOUND)
        res = asmstore__elf_section_payload(&e, &off, &len, info, err);
    if (res != ASMSTORE_OK) return res;
    *payload = e.p + off;
    *payload_size = (size_t)len;
    if (info) {
        info->payload_offset = off;
        info->payload_size = len;
    }
    return ASMSTORE_OK;
}

/* Is [vaddr, vaddr + len) inside one PT_LOAD: its file bytes, or with in_writable_memory the
   memory of a writable one (where .data and .bss live)? */
ASMSTORE__PRIVATE int asmstore__elf_load_covers(const asmstore__elf *e, uint64_t vaddr,
                                                uint64_t len, int in_writable_memory) {
    asmstore__phdr h;
    uint32_t i;

    for (i = 0; i < e->phnum; i++) {
        uint64_t span;

        asmstore__elf_phdr(e, i, &h);
        if (h.type != ASMSTORE__PT_LOAD || (in_writable_memory && !(h.flags & ASMSTORE__PF_W)))
            continue;
        span = in_writable_memory ? h.memsz : h.filesz;
        if (vaddr >= h.vaddr && vaddr - h.vaddr <= span && len <= span - (vaddr - h.vaddr))
            return 1;
    }
    return 0;
}

#ifndef ASMSTORE_NO_INSPECT
/* >>elf: what loading runs --------------------------------------------------------------------- */
/* asmstore_elf_check_inert reads every table as the loader sees it mapped (through the PT_LOADs),
   never through section headers, which loaders do not use for them. */
#define ASMSTORE__PT_GNU_EH_FRAME 0x6474e550u
#define ASMSTORE__PT_GNU_PROPERTY 0x6474e553u
#define ASMSTORE__STT_COMMON 5u         /* the last symbol type that is neither code nor TLS */
#define ASMSTORE__INERT_PAGE_MIN 4096u  /* the smallest page a loader maps with */
#define ASMSTORE__INERT_PAGE_MAX 65536u /* the largest (arm64 Linux with 64 KiB pages) */

/* What the check has found so far. */
typedef struct asmstore__inert {
    asmstore__elf e;
    asmstore_error *err;
    asmstore__phdr dyn;          /* the PT_DYNAMIC */
    uint64_t dyn_at;             /* its program header's file offset */
    uint64_t symtab, hash, gnu_hash;
    int have_symtab, have_hash, have_gnu_hash;
    unsigned rel_tables, rel_sizes; /* bit k: relocation table k's address / size tag seen */
} asmstore__inert;

ASMSTORE__PRIVATE asmstore_result asmstore__inert_fail(const asmstore__inert *c, const char *msg,
                                                       uint64_t off) {
    return asmstore__fail(c->err, ASMSTORE_ERR_ELF_NOT_INERT, off, -1, 0, msg);
}

/* The file offset the loader maps [vaddr, vaddr + len) from: 1 when the range lies in one
   PT_LOAD's file bytes (the segment checks make every other mapping of those pages agree), with
   *avail (may be NULL) the bytes from vaddr to the end of those. */
ASMSTORE__PRIVATE int asmstore__elf_mapped(const asmstore__elf *e, uint64_t vaddr, uint64_t len,
                                           uint64_t *off, uint64_t *avail) {
    asmstore__phdr h;
    uint32_t i;

    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &h);
        if (h.type != ASMSTORE__PT_LOAD || vaddr < h.vaddr || vaddr - h.vaddr > h.filesz ||
            len > h.filesz - (vaddr - h.vaddr) || !asmstore__range_ok(h.offset, h.filesz, e->size))
            continue;
        *off = h.offset + (vaddr - h.vaddr);
        if (avail) *avail = h.filesz - (vaddr - h.vaddr);
        return 1;
    }
    return 0;
}

/* The PT_DYNAMIC (the first, in *h, its program header's file offset in *at); returns how many
   there are: loaders disagree on which of several they take (glibc the last, bionic the first). */
ASMSTORE__PRIVATE uint32_t asmstore__elf_pt_dynamic(const asmstore__elf *e, asmstore__phdr *h,
                                                    uint64_t *at) {
    asmstore__phdr p;
    uint32_t i, n = 0;

    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &p);
        if (p.type != ASMSTORE__PT_DYNAMIC) continue;
        if (n++ == 0) {
            *h = p;
            *at = e->phoff + (uint64_t)i * e->phentsize;
        }
    }
    return n;
}

/* One dynamic entry at file offset at; anything but ASMSTORE_OK stops the walk with that result. */
typedef asmstore_result (*asmstore__elf_dyn_fn)(void *ctx, uint64_t tag, uint64_t val,
                                                uint64_t at);

/* The dynamic table, read where the loader maps PT_DYNAMIC (which must be its p_offset, the bytes
   bionic reads through the section header), up to DT_NULL inside its file bytes: visit for each
   entry. A table out of place fails with `code`. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_dynamic(const asmstore__elf *e,
                                                        const asmstore__phdr *dyn, uint64_t dyn_at,
                                                        asmstore_result code, asmstore_error *err,
                                                        asmstore__elf_dyn_fn visit, void *ctx) {
    uint64_t w = e->is64 ? 8u : 4u, off = 0, k, n;
    asmstore_result res;

    if (!asmstore__elf_mapped(e, dyn->vaddr, dyn->filesz, &off, NULL) || off != dyn->offset)
        return asmstore__fail(err, code, dyn_at, -1, 0, "PT_DYNAMIC not mapped from its file bytes");
    n = dyn->filesz / (2 * w);
    for (k = 0; k < n; k++) {
        uint64_t at = off + k * 2 * w, tag = asmstore__rdw(e->p + at, e->is64);

        if (tag == ASMSTORE__DT_NULL) return ASMSTORE_OK;
        if ((res = visit(ctx, tag, asmstore__rdw(e->p + at + w, e->is64), at)) != ASMSTORE_OK)
            return res;
    }
    return asmstore__fail(err, code, off, -1, 0, "no DT_NULL inside PT_DYNAMIC");
}

/* DT_HASH at vaddr hash: nbucket, nchain, then buckets and chains, every one below nchain (glibc
   follows them unchecked), all mapped. *count: the nchain symbols lookups reach. Fails with code. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_sysv_count(const asmstore__elf *e, uint64_t hash,
                                                           asmstore_result code,
                                                           asmstore_error *err, uint64_t *count) {
    uint64_t off = 0, words, k;
    uint32_t nchain;

    if (!asmstore__elf_mapped(e, hash, 8, &off, NULL))
        return asmstore__fail(err, code, 0, -1, 0, "DT_HASH not in the file's mapped bytes");
    nchain = asmstore__rd32(e->p + off + 4);
    words = (uint64_t)asmstore__rd32(e->p + off) + nchain;
    if (!asmstore__elf_mapped(e, hash, 8 + 4 * words, &off, NULL))
        return asmstore__fail(err, code, off, -1, 0,
                              "DT_HASH buckets or chains past the mapped bytes");
    for (k = 0; k < words; k++)
        if (asmstore__rd32(e->p + off + 8 + 4 * k) >= nchain)
            return asmstore__fail(err, code, off + 8 + 4 * k, -1, 0,
                                  "DT_HASH bucket or chain past its nchain symbols");
    *count = nchain;
    return ASMSTORE_OK;
}

/* DT_GNU_HASH at vaddr gnu_hash: the header, bloom words and buckets mapped, every bucket 0 or >=
   symoffset. *count: lookups reach symbols up to the end of the highest bucket's chain (its word
   with bit 0), symoffset when every bucket is empty. Fails with code. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_gnu_count(const asmstore__elf *e, uint64_t gnu_hash,
                                                          asmstore_result code,
                                                          asmstore_error *err, uint64_t *count) {
    const unsigned char *p = e->p;
    uint64_t off = 0, avail = 0, nbuckets, symoffset, head, k, top = 0;

    if (!asmstore__elf_mapped(e, gnu_hash, 16, &off, NULL))
        return asmstore__fail(err, code, 0, -1, 0, "DT_GNU_HASH not in the file's mapped bytes");
    nbuckets = asmstore__rd32(p + off);
    symoffset = asmstore__rd32(p + off + 4);
    head = 16 + (uint64_t)asmstore__rd32(p + off + 8) * (e->is64 ? 8u : 4u); /* bloom words */
    if (!asmstore__elf_mapped(e, gnu_hash, head + 4 * nbuckets, &off, &avail))
        return asmstore__fail(err, code, off, -1, 0, "DT_GNU_HASH buckets past the mapped bytes");
    for (k = 0; k < nbuckets; k++) {
        uint64_t b = asmstore__rd32(p + off + head + 4 * k);

        if (b != 0 && b < symoffset)
            return asmstore__fail(err, code, off + head + 4 * k, -1, 0,
                                  "DT_GNU_HASH bucket below symoffset");
        if (b > top) top = b;
    }
    *count = symoffset;
    if (top == 0) return ASMSTORE_OK;
    /* the chains follow the buckets: walk the highest bucket's to its end */
    for (k = top - symoffset; 4 * k + 4 <= avail - head - 4 * nbuckets; k++)
        if (asmstore__rd32(p + off + head + 4 * nbuckets + 4 * k) & 1u) {
            *count = symoffset + k + 1;
            return ASMSTORE_OK;
        }
    return asmstore__fail(err, code, off, -1, 0, "DT_GNU_HASH chain past the mapped bytes");
}

/* The page size the check reasons with: the largest (up to 64 KiB) that divides every PT_LOAD's
   p_vaddr - p_offset, since a loader maps with no other; 0 when not even 4 KiB does. */
ASMSTORE__PRIVATE uint64_t asmstore__inert_page(const asmstore__elf *e) {
    asmstore__phdr h;
    uint64_t deltas = 0, page = ASMSTORE__INERT_PAGE_MAX;
    uint32_t i;

    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &h);
        if (h.type == ASMSTORE__PT_LOAD) deltas |= h.vaddr - h.offset;
    }
    while (page >= ASMSTORE__INERT_PAGE_MIN && (deltas & (page - 1)) != 0) page >>= 1;
    return page >= ASMSTORE__INERT_PAGE_MIN ? page : 0;
}

/* One PT_LOAD after `prev` (nload of them before it): inside the file, sorted, not overlapping,
   and sharing a page with prev only where both map the same file bytes there. */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_load(const asmstore__inert *c,
                                                       const asmstore__phdr *h,
                                                       const asmstore__phdr *prev, uint32_t nload,
                                                       uint64_t page, uint64_t at) {
    uint64_t prev_last;

    if (!asmstore__range_ok(h->offset, h->filesz, c->e.size) || h->filesz > h->memsz ||
        h->vaddr + h->memsz < h->vaddr)
        return asmstore__inert_fail(c, "PT_LOAD outside the file, filesz > memsz, or wrapping",
                                    at);
    if (!(h->flags & ASMSTORE__PF_R))
        return asmstore__inert_fail(c, "a PT_LOAD without PF_R: loaders map it unreadable", at);
    if (nload == 0) return ASMSTORE_OK;
    if (h->vaddr < prev->vaddr + prev->memsz)
        return asmstore__inert_fail(c, "PT_LOADs unsorted or overlapping", at);
    prev_last = prev->memsz ? prev->vaddr + prev->memsz - 1 : prev->vaddr;
    if (prev_last / page == h->vaddr / page &&
        h->vaddr - h->offset != prev->vaddr - prev->offset)
        return asmstore__inert_fail(
            c, "two PT_LOADs share a page but map it from different file bytes", at);
    return ASMSTORE_OK;
}

/* A PT_PHDR: the loader reads the program headers again where its p_vaddr says, so it must map
   exactly the table's file bytes (glibc reads whatever lies there, or faults). */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_phdr(const asmstore__inert *c,
                                                       const asmstore__phdr *h, uint64_t at) {
    const asmstore__elf *e = &c->e;
    uint64_t off = 0;

    if (!asmstore__elf_mapped(e, h->vaddr, (uint64_t)e->phnum * e->phentsize, &off, NULL) ||
        off != e->phoff)
        return asmstore__inert_fail(c, "PT_PHDR does not map the program headers", at);
    return ASMSTORE_OK;
}

/* Every program header: a type the loader only maps or reads, none executable, every PT_LOAD
   readable, one PT_DYNAMIC, a PT_GNU_STACK. */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_segments(asmstore__inert *c) {
    const asmstore__elf *e = &c->e;
    uint64_t page = asmstore__inert_page(e);
    asmstore__phdr h, prev;
    uint32_t i, nload = 0, nstack = 0;
    asmstore_result res;

    if (e->type != ASMSTORE__ET_DYN) return asmstore__inert_fail(c, "e_type is not ET_DYN", 16);
    if (page == 0)
        return asmstore__inert_fail(c, "PT_LOAD p_vaddr - p_offset not a multiple of 4 KiB", 0);
    memset(&prev, 0, sizeof prev);
    for (i = 0; i < e->phnum; i++) {
        uint64_t at = e->phoff + (uint64_t)i * e->phentsize;

        asmstore__elf_phdr(e, i, &h);
        if (h.flags & ASMSTORE__PF_X)
            return asmstore__inert_fail(c, "an executable segment (PF_X)", at);
        if (h.type == ASMSTORE__PT_INTERP)
            return asmstore__inert_fail(c, "PT_INTERP: a program interpreter", at);
        if (h.type == ASMSTORE__PT_TLS)
            return asmstore__inert_fail(c, "PT_TLS: thread-local storage the loader sets up", at);
        if (h.type == ASMSTORE__PT_LOAD) {
            if ((res = asmstore__inert_load(c, &h, &prev, nload, page, at)) != ASMSTORE_OK)
                return res;
            prev = h;
            nload++;
        } else if (h.type == ASMSTORE__PT_PHDR) {
            if ((res = asmstore__inert_phdr(c, &h, at)) != ASMSTORE_OK) return res;
        } else if (h.type == ASMSTORE__PT_GNU_STACK) {
            nstack++;
        } else if (h.type != 0 && h.type != ASMSTORE__PT_DYNAMIC && h.type != ASMSTORE__PT_NOTE &&
                   h.type != ASMSTORE__PT_GNU_RELRO && h.type != ASMSTORE__PT_GNU_PROPERTY &&
                   h.type != ASMSTORE__PT_GNU_EH_FRAME) {
            return asmstore__inert_fail(c, "a program header type a data-only library lacks", at);
        }
    }
    /* the table's offset is one in the file only when it has entries */
    if (nload == 0) return asmstore__inert_fail(c, "no PT_LOAD", e->phnum ? e->phoff : 0);
    if (asmstore__elf_pt_dynamic(e, &c->dyn, &c->dyn_at) != 1)
        return asmstore__inert_fail(c, "not exactly one PT_DYNAMIC", e->phoff);
    if (nstack == 0)
        return asmstore__inert_fail(c, "no PT_GNU_STACK: glibc would make the stack executable",
                                    e->phoff);
    return ASMSTORE_OK;
}

/* The dynamic tags a data-only library may carry (HARMLESS), the ones that make the loader run
   code or load another file (REFUSED, with what they do), and the relocation tables (RELOC_TABLE)
   and their sizes (RELOC_SIZE) k = 0..3, allowed when the size is 0. Any other tag is refused. */
enum { ASMSTORE__TAG_HARMLESS, ASMSTORE__TAG_REFUSED, ASMSTORE__TAG_RELOC_TABLE,
       ASMSTORE__TAG_RELOC_SIZE };
typedef struct asmstore__inert_tag {
    uint32_t tag;
    unsigned char role, k;
    const char *what;
} asmstore__inert_tag;

static const asmstore__inert_tag asmstore__inert_tags[] = {
    {1, ASMSTORE__TAG_REFUSED, 0, "DT_NEEDED: loads another library"},
    {12, ASMSTORE__TAG_REFUSED, 0, "DT_INIT: a constructor"},
    {13, ASMSTORE__TAG_REFUSED, 0, "DT_FINI: a destructor"},
    {22, ASMSTORE__TAG_REFUSED, 0, "DT_TEXTREL: relocations in read-only segments"},
    {25, ASMSTORE__TAG_REFUSED, 0, "DT_INIT_ARRAY: constructors"},
    {26, ASMSTORE__TAG_REFUSED, 0, "DT_FINI_ARRAY: destructors"},
    {27, ASMSTORE__TAG_REFUSED, 0, "DT_INIT_ARRAYSZ: constructors"},
    {28, ASMSTORE__TAG_REFUSED, 0, "DT_FINI_ARRAYSZ: destructors"},
    {32, ASMSTORE__TAG_REFUSED, 0, "DT_PREINIT_ARRAY: constructors"},
    {33, ASMSTORE__TAG_REFUSED, 0, "DT_PREINIT_ARRAYSZ: constructors"},
    {0x6ffffefbu, ASMSTORE__TAG_REFUSED, 0, "DT_DEPAUDIT: loads audit libraries"},
    {0x6ffffefcu, ASMSTORE__TAG_REFUSED, 0, "DT_AUDIT: loads audit libraries"},
    {0x6ffffffeu, ASMSTORE__TAG_REFUSED, 0, "DT_VERNEED: needs other libraries' versions"},
    {0x6fffffffu, ASMSTORE__TAG_REFUSED, 0, "DT_VERNEEDNUM: needs other libraries' versions"},
    {0x7ffffffdu, ASMSTORE__TAG_REFUSED, 0, "DT_AUXILIARY: loads an auxiliary library"},
    {0x7fffffffu, ASMSTORE__TAG_REFUSED, 0, "DT_FILTER: loads the library it filters"},
    {7, ASMSTORE__TAG_RELOC_TABLE, 0, NULL},
    {8, ASMSTORE__TAG_RELOC_SIZE, 0, "DT_RELASZ: relocations"},
    {17, ASMSTORE__TAG_RELOC_TABLE, 1, NULL},
    {18, ASMSTORE__TAG_RELOC_SIZE, 1, "DT_RELSZ: relocations"},
    {36, ASMSTORE__TAG_RELOC_TABLE, 2, NULL},
    {35, ASMSTORE__TAG_RELOC_SIZE, 2, "DT_RELRSZ: relocations"},
    {23, ASMSTORE__TAG_RELOC_TABLE, 3, NULL},
    {2, ASMSTORE__TAG_RELOC_SIZE, 3, "DT_PLTRELSZ: PLT relocations"},
    /* HASH STRTAB SYMTAB STRSZ SYMENT SONAME RPATH SYMBOLIC DEBUG BIND_NOW RUNPATH FLAGS PLTGOT */
    {4, 0, 0, NULL}, {5, 0, 0, NULL}, {6, 0, 0, NULL}, {10, 0, 0, NULL}, {11, 0, 0, NULL},
    {14, 0, 0, NULL}, {15, 0, 0, NULL}, {16, 0, 0, NULL}, {21, 0, 0, NULL}, {24, 0, 0, NULL},
    {29, 0, 0, NULL}, {30, 0, 0, NULL}, {3, 0, 0, NULL},
    /* RELAENT RELENT PLTREL RELRENT RELACOUNT RELCOUNT: entry sizes and counts, no table */
    {9, 0, 0, NULL}, {19, 0, 0, NULL}, {20, 0, 0, NULL}, {37, 0, 0, NULL},
    {0x6ffffff9u, 0, 0, NULL}, {0x6ffffffau, 0, 0, NULL},
    /* GNU_HASH VERSYM FLAGS_1 VERDEF VERDEFNUM */
    {0x6ffffef5u, 0, 0, NULL}, {0x6ffffff0u, 0, 0, NULL}, {0x6ffffffbu, 0, 0, NULL},
    {0x6ffffffcu, 0, 0, NULL}, {0x6ffffffdu, 0, 0, NULL}};

/* One tag with its value, found at file offset at. */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_tag_check(void *ctx, uint64_t tag, uint64_t val,
                                                            uint64_t at) {
    asmstore__inert *c = (asmstore__inert *)ctx;
    size_t i, n = sizeof asmstore__inert_tags / sizeof asmstore__inert_tags[0];
    const asmstore__inert_tag *t = NULL;

    for (i = 0; i < n && !t; i++)
        if (asmstore__inert_tags[i].tag == tag) t = &asmstore__inert_tags[i];
    if (!t) return asmstore__inert_fail(c, "a dynamic tag a data-only library lacks", at);
    if (t->role == ASMSTORE__TAG_REFUSED) return asmstore__inert_fail(c, t->what, at);
    if (t->role == ASMSTORE__TAG_RELOC_TABLE) c->rel_tables |= 1u << t->k;
    if (t->role == ASMSTORE__TAG_RELOC_SIZE && val != 0) return asmstore__inert_fail(c, t->what, at);
    if (t->role == ASMSTORE__TAG_RELOC_SIZE) c->rel_sizes |= 1u << t->k;
    if (tag == ASMSTORE__DT_FLAGS && (val & ASMSTORE__DF_TEXTREL))
        return asmstore__inert_fail(c, "DF_TEXTREL: relocations in read-only segments", at);
    if (tag == ASMSTORE__DT_SYMTAB) c->symtab = val;
    if (tag == ASMSTORE__DT_HASH) c->hash = val;
    if (tag == ASMSTORE__DT_GNU_HASH) c->gnu_hash = val;
    c->have_symtab |= tag == ASMSTORE__DT_SYMTAB;
    c->have_hash |= tag == ASMSTORE__DT_HASH;
    c->have_gnu_hash |= tag == ASMSTORE__DT_GNU_HASH;
    return ASMSTORE_OK;
}

/* The dynamic table (asmstore__elf_dynamic), every tag checked, each relocation table sized. */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_dynamic(asmstore__inert *c) {
    asmstore_result res = asmstore__elf_dynamic(&c->e, &c->dyn, c->dyn_at, ASMSTORE_ERR_ELF_NOT_INERT,
                                                c->err, asmstore__inert_tag_check, c);

    if (res != ASMSTORE_OK) return res;
    if (c->rel_tables & ~c->rel_sizes)
        return asmstore__inert_fail(c, "a relocation table without its size", c->dyn.offset);
    return ASMSTORE_OK;
}

/* Section headers the loaders do not read, but that say what the file is for: no relocation or
   init/fini array section with bytes, no SHT_DYNAMIC apart from PT_DYNAMIC. */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_sections(const asmstore__inert *c) {
    const asmstore__elf *e = &c->e;
    asmstore__shdr s;
    uint32_t i;

    for (i = 1; i < e->shnum; i++) {
        uint64_t at = e->shoff + (uint64_t)i * e->shentsize;

        asmstore__elf_shdr(e, i, &s);
        /* SHT_RELA, SHT_REL, SHT_RELR and Android's packed ones */
        if (s.size && (s.type == 4 || s.type == 9 || s.type == 19 || s.type == 0x60000001u ||
                       s.type == 0x60000002u || s.type == 0x6fffff00u))
            return asmstore__inert_fail(c, "a relocation section with bytes", at);
        /* SHT_INIT_ARRAY, SHT_FINI_ARRAY, SHT_PREINIT_ARRAY */
        if (s.size && s.type >= 14 && s.type <= 16)
            return asmstore__inert_fail(c, "an init or fini array section with bytes", at);
        if (s.type == ASMSTORE__SHT_DYNAMIC && s.offset != c->dyn.offset)
            return asmstore__inert_fail(c, "an SHT_DYNAMIC section apart from PT_DYNAMIC", at);
    }
    return ASMSTORE_OK;
}

/* Symbols 0..count-1 of DT_SYMTAB, the ones a hash lookup can reach: none an IFUNC (dlsym would
   call its resolver) or TLS symbol, or of a type above those (OS- and processor-specific). */
ASMSTORE__PRIVATE asmstore_result asmstore__inert_symbols(const asmstore__inert *c,
                                                          uint64_t count) {
    uint64_t symsz = c->e.is64 ? 24u : 16u, off = 0, k;
    asmstore__sym y;

    if (count == 0) return ASMSTORE_OK;
    if (!c->have_symtab || count > c->e.size / symsz ||
        !asmstore__elf_mapped(&c->e, c->symtab, count * symsz, &off, NULL))
        return asmstore__inert_fail(c, "the symbols a hash table reaches are not in the file", 0);
    for (k = 0; k < count; k++) {
        asmstore__elf_sym(&c->e, off, k, &y);
        if ((y.info & 15u) > ASMSTORE__STT_COMMON)
            return asmstore__inert_fail(
                c, "an IFUNC or TLS symbol: dlsym would run or set up code for it", off + k * symsz);
    }
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_elf_check_inert(const void *elf, size_t size,
                                                      asmstore_error *err) {
    asmstore__inert c;
    uint64_t count = 0;
    asmstore_result res;

    memset(&c, 0, sizeof c);
    c.err = err;
    if ((res = asmstore__elf_open_or_fail(&c.e, elf, size, err)) != ASMSTORE_OK) return res;
    if ((res = asmstore__inert_segments(&c)) != ASMSTORE_OK ||
        (res = asmstore__inert_dynamic(&c)) != ASMSTORE_OK ||
        (res = asmstore__inert_sections(&c)) != ASMSTORE_OK)
        return res;
    /* glibc and bionic take DT_GNU_HASH when there is one, else DT_HASH: check both */
    if (c.have_hash &&
        ((res = asmstore__elf_sysv_count(&c.e, c.hash, ASMSTORE_ERR_ELF_NOT_INERT, err, &count)) !=
             ASMSTORE_OK ||
         (res = asmstore__inert_symbols(&c, count)) != ASMSTORE_OK))
        return res;
    if (c.have_gnu_hash &&
        ((res = asmstore__elf_gnu_count(&c.e, c.gnu_hash, ASMSTORE_ERR_ELF_NOT_INERT, err,
                                        &count)) != ASMSTORE_OK ||
         (res = asmstore__inert_symbols(&c, count)) != ASMSTORE_OK))
        return res;
    return ASMSTORE_OK;
}

/* >>app library -------------------------------------------------------------------------------- */
/* Layouts of src/native/.../xamarin-app.hh (docs/store-releases.md §3.2): a descriptor's data
   pointer / buffer_offset sits at +8 on every ABI; application_config's counts are u32s after its
   eleven flag bytes. */
#define ASMSTORE__APP_DESC_DATA 8u
#define ASMSTORE__APP_BUFFER_DESC 12u
#define ASMSTORE__APP_CFG_ASSEMBLIES 24u
#define ASMSTORE__APP_CFG_STORE_FILES 32u /* format_tag 1 (.NET 6-8) only */
#define ASMSTORE__APP_CFG_CLR_ASSEMBLIES 20u /* CoreCLR's: four flag bytes, four u32s first */
#define ASMSTORE__APP_SLOT_WORDS 4u /* a bundled-assembly slot: image, debug, config, descriptor */
#define ASMSTORE__APP_FORMAT_TAG 0x5E6972616D58ull /* "Xmari^", the version in the top 16 bits */

#define ASMSTORE__DT_PLTRELSZ 2u
#define ASMSTORE__DT_RELA 7u
#define ASMSTORE__DT_REL 17u
#define ASMSTORE__DT_PLTREL 20u
#define ASMSTORE__DT_JMPREL 23u
#define ASMSTORE__DT_RELRSZ 35u
#define ASMSTORE__DT_ANDROID_RELSZ 0x60000010u
#define ASMSTORE__DT_ANDROID_RELASZ 0x60000012u
#define ASMSTORE__APP_DT_KEPT 38u /* the dynamic tags below this one are kept by value */

/* A relocation table the loader applies: its file offset and bytes, RELA or REL entries. */
typedef struct asmstore__app_rtab {
    uint64_t off, size;
    int rela;
} asmstore__app_rtab;

/* An app library as the loader reads it: the header view and what PT_DYNAMIC says, as file
   offsets through the PT_LOADs. No section header is read for these: they may point anywhere. */
typedef struct asmstore__app_lib {
    asmstore__elf e;
    uint64_t symtab, nsyms;    /* DT_SYMTAB; the symbols a hash lookup reaches (0: none) */
    uint64_t strtab, strsz;    /* DT_STRTAB, DT_STRSZ */
    asmstore__app_rtab rel[3]; /* DT_RELA, DT_REL, DT_JMPREL */
} asmstore__app_lib;

/* The dynamic table's tags (asmstore__app_lib_open's walk). */
typedef struct asmstore__app_tags {
    uint64_t val[ASMSTORE__APP_DT_KEPT];
    uint64_t seen;                  /* bit t: tag t is there */
    uint64_t gnu_hash, packed_size; /* DT_GNU_HASH; DT_ANDROID_REL(A)SZ */
    int have_gnu_hash;
} asmstore__app_tags;

ASMSTORE__PRIVATE asmstore_result asmstore__app_tag(void *ctx, uint64_t tag, uint64_t val,
                                                    uint64_t at) {
    asmstore__app_tags *t = (asmstore__app_tags *)ctx;

    (void)at;
    if (tag < ASMSTORE__APP_DT_KEPT) { /* a repeated tag's last value, as glibc and bionic take */
        t->val[tag] = val;
        t->seen |= (uint64_t)1 << tag;
    } else if (tag == ASMSTORE__DT_GNU_HASH) {
        t->gnu_hash = val;
        t->have_gnu_hash = 1;
    } else if (tag == ASMSTORE__DT_ANDROID_RELSZ || tag == ASMSTORE__DT_ANDROID_RELASZ) {
        t->packed_size |= val;
    }
    return ASMSTORE_OK;
}

/* Relocation table k (DT_RELA, DT_REL, DT_JMPREL) where the loader reads it: of the kind bionic
   applies on the ABI (RELA on 64-bit ones, REL on 32-bit ones: it refuses the other), entries of
   the class's size, inside one PT_LOAD's file bytes. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_rtab_open(asmstore__app_lib *l,
                                                          const asmstore__app_tags *t, unsigned k,
                                                          asmstore_error *err) {
    static const uint32_t addr_tag[3] = {ASMSTORE__DT_RELA, ASMSTORE__DT_REL, ASMSTORE__DT_JMPREL};
    static const uint32_t size_tag[3] = {8u, 18u, ASMSTORE__DT_PLTRELSZ}; /* RELASZ, RELSZ */
    static const uint32_t ent_tag[3] = {9u, 19u, 0u};                     /* RELAENT, RELENT */
    asmstore__app_rtab *r = &l->rel[k];
    uint64_t w = l->e.is64 ? 8u : 4u, kind = t->val[ASMSTORE__DT_PLTREL];

    if (!(t->seen >> addr_tag[k] & 1u) || t->val[size_tag[k]] == 0) return ASMSTORE_OK;
    r->size = t->val[size_tag[k]];
    r->rela = k == 0 || (k == 2 && kind == ASMSTORE__DT_RELA);
    if ((k == 2 && kind != ASMSTORE__DT_RELA && kind != ASMSTORE__DT_REL) || r->rela != l->e.is64)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                              "relocations of a kind the ABI's loader refuses (bionic: RELA on "
                              "64-bit ABIs, REL on 32-bit ones)");
    if (ent_tag[k] && (t->seen >> ent_tag[k] & 1u) && t->val[ent_tag[k]] != w * (r->rela ? 3u : 2u))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                              "DT_RELAENT or DT_RELENT not the class's entry size");
    if (!asmstore__elf_mapped(&l->e, t->val[addr_tag[k]], r->size, &r->off, NULL))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                              "DT_RELA, DT_REL or DT_JMPREL table not in the file's mapped bytes");
    return ASMSTORE_OK;
}

/* The symbols a lookup reaches (DT_GNU_HASH when there is one, else DT_HASH, as glibc and bionic
   take them) and their names, mapped; none without DT_SYMTAB or either hash table. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_symbols_open(asmstore__app_lib *l,
                                                             const asmstore__app_tags *t,
                                                             asmstore_error *err) {
    const asmstore__elf *e = &l->e;
    uint64_t symsz = e->is64 ? 24u : 16u, n = 0;
    asmstore_result res = ASMSTORE_OK;

    if (!(t->seen >> ASMSTORE__DT_SYMTAB & 1u)) return ASMSTORE_OK;
    if (t->have_gnu_hash)
        res = asmstore__elf_gnu_count(e, t->gnu_hash, ASMSTORE_ERR_BAD_ELF, err, &n);
    else if (t->seen >> ASMSTORE__DT_HASH & 1u)
        res = asmstore__elf_sysv_count(e, t->val[ASMSTORE__DT_HASH], ASMSTORE_ERR_BAD_ELF, err, &n);
    if (res != ASMSTORE_OK || n == 0) return res;
    if (((t->seen >> ASMSTORE__DT_SYMENT & 1u) && t->val[ASMSTORE__DT_SYMENT] != symsz) ||
        n > e->size / symsz ||
        !asmstore__elf_mapped(e, t->val[ASMSTORE__DT_SYMTAB], n * symsz, &l->symtab, NULL) ||
        !asmstore__elf_mapped(e, t->val[ASMSTORE__DT_STRTAB], t->val[ASMSTORE__DT_STRSZ],
                              &l->strtab, NULL))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                              "DT_SYMTAB's symbols or DT_STRTAB not in the file's mapped bytes, or "
                              "DT_SYMENT not the class's symbol size");
    l->nsyms = n;
    l->strsz = t->val[ASMSTORE__DT_STRSZ];
    return ASMSTORE_OK;
}

/* so[0..size) read as the loader reads it (asmstore__app_lib). A library with no PT_DYNAMIC has
   no symbols; one with several, or with relocations this reader does not decode, is refused. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_lib_open(asmstore__app_lib *l, const void *so,
                                                         size_t size, asmstore_error *err) {
    asmstore__app_tags t;
    asmstore__phdr dyn;
    uint64_t dyn_at = 0;
    uint32_t ndyn;
    unsigned k;
    asmstore_result res;

    memset(l, 0, sizeof *l);
    memset(&t, 0, sizeof t);
    memset(&dyn, 0, sizeof dyn); /* asmstore__elf_pt_dynamic fills it; gcc -O3 cannot tell */
    if ((res = asmstore__elf_open_or_fail(&l->e, so, size, err)) != ASMSTORE_OK) return res;
    if ((ndyn = asmstore__elf_pt_dynamic(&l->e, &dyn, &dyn_at)) == 0) return ASMSTORE_OK;
    if (ndyn > 1)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, l->e.phoff, -1, 0,
                              "more than one PT_DYNAMIC (glibc takes the last, bionic the first)");
    res = asmstore__elf_dynamic(&l->e, &dyn, dyn_at, ASMSTORE_ERR_BAD_ELF, err, asmstore__app_tag,
                                &t);
    if (res != ASMSTORE_OK) return res;
    if (t.packed_size || t.val[ASMSTORE__DT_RELRSZ])
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, dyn.offset, -1, 0,
                              "DT_RELR or Android's packed relocations, which this reader does "
                              "not decode");
    for (k = 0; k < 3; k++)
        if ((res = asmstore__app_rtab_open(l, &t, k, err)) != ASMSTORE_OK) return res;
    return asmstore__app_symbols_open(l, &t, err);
}

/* The dynamic symbol named `symbol` among those a lookup reaches: ASMSTORE_OK with *y and
   *entry_off (its DT_SYMTAB entry's file offset), ASMSTORE_ERR_NOT_FOUND when there is none,
   ASMSTORE_ERR_BAD_ELF when two have the name (which one the loader takes hangs on its hash). */
ASMSTORE__PRIVATE asmstore_result asmstore__app_find(const asmstore__app_lib *l,
                                                     const char *symbol, asmstore__sym *y,
                                                     uint64_t *entry_off, asmstore_error *err) {
    uint64_t symsz = l->e.is64 ? 24u : 16u, k;
    size_t len = strlen(symbol);
    asmstore_result res = ASMSTORE_ERR_NOT_FOUND;
    asmstore__sym s;

    for (k = 1; k < l->nsyms; k++) {
        asmstore__elf_sym(&l->e, l->symtab, k, &s);
        if (!asmstore__elf_str_eq(&l->e, l->strtab, l->strsz, s.name, symbol, len)) continue;
        if (res == ASMSTORE_OK)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, l->symtab + k * symsz, -1, 0,
                                  "two dynamic symbols of a name the runtime reads");
        *y = s;
        *entry_off = l->symtab + k * symsz;
        res = ASMSTORE_OK;
    }
    return res;
}

/* [addr, addr + len) in the memory of a writable PT_LOAD (.data, .bss). */
ASMSTORE__PRIVATE int asmstore__app_in_data(const asmstore__elf *e, uint64_t addr, uint64_t len) {
    return asmstore__elf_load_covers(e, addr, len, 1);
}

/* A dynamic symbol's bytes as the loader maps them: ASMSTORE_OK with *off when `symbol` is there
   with at least `need` bytes inside a PT_LOAD's file bytes, ASMSTORE_ERR_NOT_FOUND when absent,
   ASMSTORE_ERR_BAD_ELF saying `why` when it is out of place. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_symbol(const asmstore__app_lib *l,
                                                       const char *symbol, uint64_t need,
                                                       const char *why, asmstore__sym *y,
                                                       uint64_t *off, asmstore_error *err) {
    uint64_t at = 0;
    asmstore_result res = asmstore__app_find(l, symbol, y, &at, err);

    if (res != ASMSTORE_OK) return res;
    if (y->shndx == 0 || y->size < need || !asmstore__elf_mapped(&l->e, y->value, need, off, NULL))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, at, -1, 0, why);
    return ASMSTORE_OK;
}

/* One dynamic relocation: the word it sets, and for an R_*_RELATIVE one the value it sets it to
   (RELA: the addend; REL: the word in place, when that lies in the file: in_file). */
typedef struct asmstore__app_reloc {
    uint64_t target, value, at; /* at: the relocation's own file offset */
    int relative, in_file;
} asmstore__app_reloc;

typedef int (*asmstore__app_reloc_fn)(void *ctx, const asmstore__app_reloc *r);

/* Calls visit for every relocation of the tables the loader applies (asmstore__app_lib) until it
   returns 1. */
ASMSTORE__PRIVATE void asmstore__app_relocations(const asmstore__app_lib *l,
                                                 asmstore__app_reloc_fn visit, void *ctx) {
    const asmstore__elf *e = &l->e;
    uint64_t w = e->is64 ? 8u : 4u;
    uint32_t want = asmstore__abi(asmstore__abi_of_machine(e->machine))->r_relative;
    unsigned t;

    for (t = 0; t < 3; t++) {
        const asmstore__app_rtab *tab = &l->rel[t];
        uint64_t ent = w * (tab->rela ? 3u : 2u), k;

        for (k = 0; k + ent <= tab->size; k += ent) {
            const unsigned char *r = e->p + tab->off + k;
            uint64_t info = asmstore__rdw(r + w, e->is64), off = 0;
            asmstore__app_reloc rel;

            rel.target = asmstore__rdw(r, e->is64);
            rel.at = tab->off + k;
            rel.relative = (e->is64 ? (uint32_t)info : (uint32_t)(info & 0xffu)) == want;
            rel.in_file = tab->rela || asmstore__elf_mapped(e, rel.target, w, &off, NULL);
            rel.value = tab->rela ? asmstore__rdw(r + 2 * w, e->is64)
                                  : rel.in_file ? asmstore__rdw(e->p + off, e->is64) : 0;
            if (visit(ctx, &rel)) return;
        }
    }
}

/* asmstore__app_relocated's visitor: the relocations of the word at target, counted, the first
   kept. */
typedef struct asmstore__app_word {
    uint64_t target;
    asmstore__app_reloc first;
    unsigned relocs;
} asmstore__app_word;

ASMSTORE__PRIVATE int asmstore__app_reloc_at(void *ctx, const asmstore__app_reloc *r) {
    asmstore__app_word *want = (asmstore__app_word *)ctx;

    if (r->target == want->target && want->relocs++ == 0) want->first = *r;
    return 0;
}

/* The value the loader stores in the pointer at `addr`: the one R_*_RELATIVE relocation that
   targets it; *value 0 and *at 0 when none does (an unrelocated pointer of a shared library is
   null). A word set by any other relocation, or by two, is refused. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_relocated(const asmstore__app_lib *l, uint64_t addr,
                                                          uint64_t *value, uint64_t *at,
                                                          asmstore_error *err) {
    asmstore__app_word word;

    memset(&word, 0, sizeof word);
    word.target = addr;
    asmstore__app_relocations(l, asmstore__app_reloc_at, &word);
    *value = 0;
    *at = 0;
    if (word.relocs == 0) return ASMSTORE_OK;
    if (word.relocs > 1 || !word.first.relative)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, word.first.at, -1, 0,
                              "pointer set by more than one relocation, or not by R_*_RELATIVE");
    if (!word.first.in_file)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, word.first.at, -1, 0,
                              "relocated pointer outside the file");
    *value = word.first.value;
    *at = word.first.at;
    return ASMSTORE_OK;
}

/* .NET 10+: compressed_assembly_count, the descriptors (12 B each, inside their symbol), the data
   size and the buffer in writable memory. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_buffer_table(const asmstore__app_lib *l,
                                                             asmstore_app_info *info,
                                                             asmstore_error *err) {
    const asmstore__elf *e = &l->e;
    asmstore__sym y;
    uint64_t off = 0;
    asmstore_result res;

    info->table = ASMSTORE_APP_TABLE_BUFFER;
    info->descriptor_size = ASMSTORE__APP_BUFFER_DESC;
    info->count = asmstore__rd32(e->p + info->count_offset);
    res = asmstore__app_symbol(l, "compressed_assembly_descriptors",
                               (uint64_t)info->count * ASMSTORE__APP_BUFFER_DESC,
                               "compressed_assembly_descriptors smaller than the count's 12-byte "
                               "descriptors or outside the file",
                               &y, &off, err);
    if (res == ASMSTORE_ERR_NOT_FOUND)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                              "compressed_assembly_count without compressed_assembly_descriptors");
    if (res != ASMSTORE_OK) return res;
    info->descriptors_addr = y.value;
    info->descriptors_offset = off;
    res = asmstore__app_symbol(l, "uncompressed_assemblies_data_size", 4,
                               "uncompressed_assemblies_data_size not a u32 in the file", &y, &off,
                               err);
    if (res == ASMSTORE_ERR_NOT_FOUND)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                              "compressed_assembly_count without uncompressed_assemblies_data_size");
    if (res != ASMSTORE_OK) return res;
    info->data_size = asmstore__rd32(e->p + off);
    info->data_size_offset = off;
    res = asmstore__app_find(l, "uncompressed_assemblies_data_buffer", &y, &off, err);
    if (res == ASMSTORE_ERR_NOT_FOUND ||
        (res == ASMSTORE_OK && (y.shndx == 0 || !asmstore__app_in_data(e, y.value, y.size))))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, off, -1, 0,
                              "uncompressed_assemblies_data_buffer missing or not in writable "
                              "memory");
    if (res != ASMSTORE_OK) return res;
    info->data_addr = y.value;
    info->data_symbol_size = y.size;
    return ASMSTORE_OK;
}

/* .NET 6-9: compressed_assemblies = {u32 count; descriptors *}, the array (12 / 16 B each) where
   the pointer's relocation says, inside writable memory (the runtime sets `loaded` there). */
ASMSTORE__PRIVATE asmstore_result asmstore__app_pointer_table(const asmstore__app_lib *l,
                                                              const asmstore__sym *table,
                                                              asmstore_app_info *info,
                                                              asmstore_error *err) {
    const asmstore__elf *e = &l->e;
    uint64_t w = e->is64 ? 8u : 4u;
    uint64_t bytes, at = 0, off = 0;
    asmstore_result res;

    info->table = ASMSTORE_APP_TABLE_POINTERS;
    info->descriptor_size = (uint32_t)(ASMSTORE__APP_DESC_DATA + w);
    info->count = asmstore__rd32(e->p + info->count_offset);
    res = asmstore__app_relocated(l, table->value + w, &info->descriptors_addr, &at, err);
    if (res != ASMSTORE_OK) return res;
    bytes = (uint64_t)info->count * info->descriptor_size;
    if (info->count == 0) return ASMSTORE_OK;
    if (!asmstore__elf_mapped(e, info->descriptors_addr, bytes, &off, NULL) ||
        !asmstore__app_in_data(e, info->descriptors_addr, bytes))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, at, -1, 0,
                              "compressed_assemblies.descriptors not relocated to writable data "
                              "in the file");
    info->descriptors_offset = off;
    return ASMSTORE_OK;
}

/* Where application_config.number_of_assemblies_in_apk lies in the runtime's struct. */
ASMSTORE__PRIVATE uint64_t asmstore__app_cfg_assemblies(const asmstore_app_info *info) {
    return info->runtime_known && info->runtime == ASMSTORE_RUNTIME_CORECLR
               ? ASMSTORE__APP_CFG_CLR_ASSEMBLIES
               : ASMSTORE__APP_CFG_ASSEMBLIES;
}

/* The runtime, format_tag's version, application_config's counts, assembly_store_bundled_assemblies' slots:
   each one only when its symbol is there and large enough. */
ASMSTORE__PRIVATE void asmstore__app_config(const asmstore__app_lib *l, asmstore_app_info *info) {
    const asmstore__elf *e = &l->e;
    uint64_t w = e->is64 ? 8u : 4u;
    asmstore__sym y;
    uint64_t off = 0;
    uint64_t tag;

    if (asmstore__app_symbol(l, "format_tag", 8, NULL, &y, &off, NULL) == ASMSTORE_OK) {
        tag = asmstore__rd64(e->p + off);
        if ((tag & 0xFFFFFFFFFFFFull) == ASMSTORE__APP_FORMAT_TAG)
            info->format_tag = (uint32_t)(tag >> 48);
    }
    if (asmstore__app_find(l, "init_runtime_property_names", &y, &off, NULL) ==
        ASMSTORE_OK) {
        info->runtime_known = 1;
        info->runtime = ASMSTORE_RUNTIME_CORECLR;
    } else if (asmstore__app_find(l, "assembly_image_cache_hashes", &y, &off, NULL) ==
               ASMSTORE_OK) {
        info->runtime_known = 1;
        info->runtime = ASMSTORE_RUNTIME_MONOVM;
    }
    if (asmstore__app_symbol(l, "application_config", ASMSTORE__APP_CFG_STORE_FILES + 4, NULL, &y,
                             &off, NULL) == ASMSTORE_OK) {
        info->have_config = 1;
        info->config_offset = off;
        info->assemblies_in_apk = asmstore__rd32(e->p + off + asmstore__app_cfg_assemblies(info));
        if (info->format_tag == 1)
            info->store_files = asmstore__rd32(e->p + off + ASMSTORE__APP_CFG_STORE_FILES);
    }
    if (asmstore__app_find(l, "assembly_store_bundled_assemblies", &y, &off, NULL) ==
        ASMSTORE_OK)
        info->bundled_slots =
            (uint32_t)(y.size / (ASMSTORE__APP_SLOT_WORDS * w) > 0xFFFFFFFFu
                           ? 0xFFFFFFFFu
                           : y.size / (ASMSTORE__APP_SLOT_WORDS * w));
}

ASMSTORE_DEF asmstore_result asmstore_app_open(const void *so, size_t size,
                                               asmstore_app_info *info, asmstore_error *err) {
    asmstore__app_lib l;
    asmstore__sym y;
    uint64_t off = 0;
    asmstore_result res;

    if (!info)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL info");
    memset(info, 0, sizeof *info);
    if ((res = asmstore__app_lib_open(&l, so, size, err)) != ASMSTORE_OK) return res;
    info->abi = asmstore__abi_of_machine(l.e.machine);
    info->is_64bit = l.e.is64;
    asmstore__app_config(&l, info);
    res = asmstore__app_symbol(&l, "compressed_assembly_count", 4,
                               "compressed_assembly_count not a u32 in the file", &y, &off, err);
    if (res == ASMSTORE_OK) {
        info->count_offset = off;
        return asmstore__app_buffer_table(&l, info, err);
    }
    if (res != ASMSTORE_ERR_NOT_FOUND) return res;
    res = asmstore__app_symbol(&l, "compressed_assemblies", l.e.is64 ? 16u : 8u,
                               "compressed_assemblies smaller than {count, descriptors} or outside "
                               "the file",
                               &y, &off, err);
    if (res == ASMSTORE_ERR_NOT_FOUND) return ASMSTORE_OK;
    if (res != ASMSTORE_OK) return res;
    info->count_offset = off;
    return asmstore__app_pointer_table(&l, &y, info, err);
}

ASMSTORE_DEF asmstore_result asmstore_app_read_descriptor(const void *so, size_t size,
                                                          const asmstore_app_info *info,
                                                          uint32_t index,
                                                          asmstore_app_descriptor *d,
                                                          asmstore_error *err) {
    asmstore__app_lib l;
    asmstore_result res;
    const unsigned char *p;

    if (!info || !d)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL argument");
    memset(d, 0, sizeof *d);
    if (info->table == ASMSTORE_APP_TABLE_NONE || index >= info->count)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, index, 0,
                              "descriptor index past the app library's table");
    if ((res = asmstore__app_lib_open(&l, so, size, err)) != ASMSTORE_OK) return res;
    d->offset = info->descriptors_offset + (uint64_t)index * info->descriptor_size;
    if (!asmstore__range_ok(d->offset, info->descriptor_size, l.e.size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, index, 0,
                              "info does not come from these bytes");
    p = l.e.p + d->offset;
    d->uncompressed_file_size = asmstore__rd32(p);
    d->loaded = p[4];
    if (info->table == ASMSTORE_APP_TABLE_BUFFER) {
        d->buffer_offset = asmstore__rd32(p + ASMSTORE__APP_DESC_DATA);
        d->data_addr = info->data_addr + d->buffer_offset;
        return ASMSTORE_OK;
    }
    return asmstore__app_relocated(&l,
                                   info->descriptors_addr +
                                       (uint64_t)index * info->descriptor_size +
                                       ASMSTORE__APP_DESC_DATA,
                                   &d->data_addr, &d->reloc_offset, err);
}

ASMSTORE_DEF asmstore_result asmstore_app_check_image(const void *so, size_t size,
                                                      const asmstore_app_info *info,
                                                      uint32_t descriptor_index,
                                                      uint32_t uncompressed_length,
                                                      asmstore_error *err) {
    asmstore__elf e;
    asmstore_app_descriptor d;
    asmstore_result res;
    int in_place;

    if (!info) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL info");
    if (info->table == ASMSTORE_APP_TABLE_NONE || descriptor_index >= info->count)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, 0, descriptor_index, 0,
                              "compressed image's descriptor index past the app library's table "
                              "(the runtime aborts)");
    res = asmstore_app_read_descriptor(so, size, info, descriptor_index, &d, err);
    if (res != ASMSTORE_OK) return res;
    if (info->table == ASMSTORE_APP_TABLE_BUFFER)
        in_place = asmstore__range_ok(d.buffer_offset, d.uncompressed_file_size, info->data_size) &&
                   info->data_size <= info->data_symbol_size;
    else
        in_place = asmstore__elf_open(&e, so, size) == ASMSTORE_OK && d.data_addr != 0 &&
                   asmstore__app_in_data(&e, d.data_addr, d.uncompressed_file_size);
    if (!in_place)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, d.offset, descriptor_index, 0,
                              "descriptor's buffer outside the app library's data (the runtime "
                              "aborts)");
    if (uncompressed_length > d.uncompressed_file_size)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, d.offset, descriptor_index, 0,
                              "compressed image larger than its descriptor in the app library "
                              "(the runtime aborts: assemblies don't grow)");
    return ASMSTORE_OK;
}

/* Where a grown buffer may go: the last writable PT_LOAD (*ph; every other PT_LOAD and any
   PT_GNU_RELRO end at or below its start) and the NOBITS section (*sh) that ends it with no
   allocated section past it. 0 with *why when the layout allows no safe patch. */
ASMSTORE__PRIVATE int asmstore__app_tail(const asmstore__elf *e, uint32_t *ph, asmstore__phdr *h,
                                         uint32_t *sh, asmstore__shdr *s, const char **why) {
    asmstore__phdr p;
    asmstore__shdr t;
    uint32_t i;
    uint64_t end;

    *sh = 0;
    *ph = e->phnum;
    memset(h, 0, sizeof *h);
    memset(s, 0, sizeof *s);
    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &p);
        if (p.type == ASMSTORE__PT_LOAD && (*ph == e->phnum || p.vaddr > h->vaddr)) {
            *h = p;
            *ph = i;
        }
    }
    *why = "the last PT_LOAD is not writable, or its end overflows";
    if (*ph == e->phnum || !(h->flags & ASMSTORE__PF_W) || h->memsz > UINT32_MAX ||
        h->vaddr > UINT32_MAX)
        return 0;
    end = h->vaddr + h->memsz;
    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &p);
        *why = "another PT_LOAD or the PT_GNU_RELRO reaches into the last writable PT_LOAD";
        if (i != *ph && (p.type == ASMSTORE__PT_LOAD || p.type == ASMSTORE__PT_GNU_RELRO) &&
            (p.vaddr > h->vaddr || p.memsz > h->vaddr - p.vaddr))
            return 0;
    }
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &t);
        if (!(t.flags & ASMSTORE__SHF_ALLOC))
            continue;
        *why = "an allocated section lies past the end of the last writable PT_LOAD";
        if (t.addr > end || (t.addr == end && t.size))
            return 0;
        if (t.type == ASMSTORE__SHT_NOBITS && end - t.addr == t.size) {
            *sh = i;
            *s = t;
        }
    }
    *why = "no NOBITS section (.bss) ends the last writable PT_LOAD";
    return *sh != 0;
}

/* The last writable PT_LOAD and the section ending it (asmstore__app_tail), for a patch. */
#define ASMSTORE__APP_PATCH_WRITES 8u /* the most one patch writes: 7 fields */
typedef struct asmstore__app_patch {
    asmstore__app_lib l;
    unsigned char *p;
    size_t size;
    asmstore__phdr h;
    asmstore__shdr s;
    uint32_t ph, sh;
    uint64_t end; /* where the segment's memory ends now */
    struct {      /* every field written, with the bytes it held: the patch can be taken back */
        uint64_t at;
        unsigned n;
        unsigned char was[8];
    } put[ASMSTORE__APP_PATCH_WRITES];
    unsigned nput;
    int overflow; /* a write found the journal full: not made, and the patch is taken back */
} asmstore__app_patch;

/* Writes v as an n-byte (4 or 8) little-endian field at file offset `at`, keeping what it held. */
ASMSTORE__PRIVATE void asmstore__app_put(asmstore__app_patch *t, uint64_t at, uint64_t v,
                                         unsigned n) {
    if (t->nput == ASMSTORE__APP_PATCH_WRITES) {
        t->overflow = 1; /* a patch that writes more fields than the journal holds: a bug here */
        return;
    }
    t->put[t->nput].at = at;
    t->put[t->nput].n = n;
    memcpy(t->put[t->nput++].was, t->p + at, n);
    asmstore__wrw(t->p + at, v, n == 8);
}

/* Every field the patch wrote back to what it held, last first. */
ASMSTORE__PRIVATE void asmstore__app_undo(asmstore__app_patch *t) {
    while (t->nput > 0) {
        t->nput--;
        memcpy(t->p + t->put[t->nput].at, t->put[t->nput].was, t->put[t->nput].n);
    }
}

/* 1 when [at, at + n) meets one of the fields written but the `skip`th. */
ASMSTORE__PRIVATE int asmstore__app_put_meets(const asmstore__app_patch *t, uint64_t at,
                                              uint64_t n, unsigned skip) {
    unsigned k;

    for (k = 0; k < t->nput; k++)
        if (k != skip && at < t->put[k].at + t->put[k].n && t->put[k].at < at + n) return 1;
    return 0;
}

/* 1 when the patch wrote what it meant and nothing the tables are read from: its fields apart
   from one another and from the count and every descriptor but `own` (UINT32_MAX: none), and the
   library, opened again into *after, with its table where it was. A crafted library can make
   the fields one patch writes the same bytes, or bytes its tables are read from. */
ASMSTORE__PRIVATE int asmstore__app_patch_held(const asmstore__app_patch *t,
                                               const asmstore_app_info *before, uint32_t own,
                                               asmstore_app_info *after) {
    uint64_t table = (uint64_t)before->count * before->descriptor_size;
    uint64_t own_at = before->descriptors_offset + (uint64_t)own * before->descriptor_size;
    unsigned k;

    if (t->overflow) return 0;
    for (k = 0; k < t->nput; k++) {
        uint64_t at = t->put[k].at;
        int in_own = own != UINT32_MAX && at >= own_at && at - own_at < before->descriptor_size;
        if (asmstore__app_put_meets(t, at, t->put[k].n, k) ||
            (at < before->count_offset + 4 && before->count_offset < at + t->put[k].n) ||
            (!in_own && at < before->descriptors_offset + table &&
             before->descriptors_offset < at + t->put[k].n))
            return 0;
    }
    return asmstore_app_open(t->p, t->size, after, NULL) == ASMSTORE_OK &&
           after->table == before->table && after->count == before->count &&
           after->count_offset == before->count_offset &&
           after->descriptors_offset == before->descriptors_offset &&
           after->descriptor_size == before->descriptor_size &&
           after->have_config == before->have_config;
}

/* The segment and its section made to end at new_end (zero-filled memory: p_memsz, sh_size). */
ASMSTORE__PRIVATE void asmstore__app_extend(asmstore__app_patch *t, uint64_t new_end) {
    const asmstore__elf *e = &t->l.e;
    unsigned w = e->is64 ? 8u : 4u;

    asmstore__app_put(t, e->phoff + (uint64_t)t->ph * e->phentsize + (e->is64 ? 40u : 20u),
                      new_end - t->h.vaddr, w);
    asmstore__app_put(t, e->shoff + (uint64_t)t->sh * e->shentsize + (e->is64 ? 32u : 20u),
                      new_end - t->s.addr, w);
}

/* The dynamic symbol whose entry is at file offset `at` now at `addr`, `size` bytes. */
ASMSTORE__PRIVATE void asmstore__app_move_symbol(asmstore__app_patch *t, uint64_t at,
                                                 uint64_t addr, uint64_t size) {
    int is64 = t->l.e.is64;

    asmstore__app_put(t, at + (is64 ? 8u : 4u), addr, is64 ? 8u : 4u);
    asmstore__app_put(t, at + (is64 ? 16u : 8u), size, is64 ? 8u : 4u);
}

/* Where memory for the symbol [value, value + size) may go: where it is when it already ends the
   segment (extended in place), else the segment's end rounded up to 16. */
ASMSTORE__PRIVATE uint64_t asmstore__app_new_home(const asmstore__app_patch *t, uint64_t value,
                                                  uint64_t size) {
    return value + size == t->end ? value : (t->end + 15u) & ~(uint64_t)15u;
}

/* .NET 10+: the buffer moved to (or, already there, extended at) the segment's end; the grown
   descriptor's bytes at its old end. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_grow_buffer(asmstore__app_patch *t,
                                                            const asmstore_app_info *info,
                                                            const asmstore_app_descriptor *d,
                                                            uint32_t index, uint32_t new_size,
                                                            asmstore_error *err) {
    asmstore__sym y;
    uint64_t at = 0, base, total;

    if (asmstore__app_find(&t->l, "uncompressed_assemblies_data_buffer", &y, &at, err) !=
            ASMSTORE_OK ||
        y.value < t->h.vaddr || y.value - t->h.vaddr > t->h.memsz || info->data_size > y.size)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, at, index, 0,
                              "the data buffer is not inside the last writable PT_LOAD, or "
                              "smaller than uncompressed_assemblies_data_size");
    base = asmstore__app_new_home(t, y.value, y.size);
    total = (uint64_t)info->data_size + new_size;
    if (total > UINT32_MAX || base + total > UINT32_MAX)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, d->offset, index, 0,
                              "the grown data buffer would pass 4 GiB");
    asmstore__app_extend(t, base + total);
    asmstore__app_move_symbol(t, at, base, total);
    asmstore__app_put(t, info->data_size_offset, total, 4);
    asmstore__app_put(t, d->offset, new_size, 4);
    asmstore__app_put(t, d->offset + ASMSTORE__APP_DESC_DATA, info->data_size, 4);
    return ASMSTORE_OK;
}

/* .NET 6-9: a region of its own at the segment's end, the descriptor's data relocation retargeted
   there (RELA: its addend; REL: the word in place). */
ASMSTORE__PRIVATE asmstore_result asmstore__app_grow_pointer(asmstore__app_patch *t,
                                                             const asmstore_app_descriptor *d,
                                                             uint32_t index, uint32_t new_size,
                                                             asmstore_error *err) {
    const asmstore__app_lib *l = &t->l;
    uint64_t w = l->e.is64 ? 8u : 4u, base = (t->end + 15u) & ~(uint64_t)15u;
    unsigned k = 0;

    while (k < 3 && (d->reloc_offset < l->rel[k].off ||
                     d->reloc_offset - l->rel[k].off >= l->rel[k].size))
        k++;
    if (d->reloc_offset == 0 || k == 3 || base + new_size > UINT32_MAX)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, d->offset, index, 0,
                              "the descriptor's data pointer has no relative relocation to "
                              "retarget, or the new region would pass 4 GiB");
    asmstore__app_extend(t, base + new_size);
    asmstore__app_put(t, l->rel[k].rela ? d->reloc_offset + 2 * w
                                        : d->offset + ASMSTORE__APP_DESC_DATA,
                      base, (unsigned)w);
    asmstore__app_put(t, d->offset, new_size, 4);
    return ASMSTORE_OK;
}

/* so[0..size) opened for a patch at the end of its last writable PT_LOAD (asmstore__app_tail). */
ASMSTORE__PRIVATE asmstore_result asmstore__app_patch_open(asmstore__app_patch *t, void *so,
                                                           size_t size, int64_t entry,
                                                           asmstore_error *err) {
    const char *why = NULL;
    asmstore_result res = asmstore__app_lib_open(&t->l, so, size, err);

    if (res != ASMSTORE_OK) return res;
    t->p = (unsigned char *)so;
    t->size = size;
    t->nput = 0;
    t->overflow = 0;
    if (!asmstore__app_tail(&t->l.e, &t->ph, &t->h, &t->sh, &t->s, &why))
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, entry, 0, why);
    t->end = t->h.vaddr + t->h.memsz;
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_app_grow(void *so, size_t size, asmstore_app_info *info,
                                               uint32_t index, uint32_t new_size,
                                               asmstore_error *err) {
    asmstore__app_patch t;
    asmstore_app_descriptor d;
    asmstore_app_info after;
    asmstore_result res;

    if (!so || !info)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL library or info");
    if ((res = asmstore_app_read_descriptor(so, size, info, index, &d, err)) != ASMSTORE_OK)
        return res;
    if (new_size <= d.uncompressed_file_size)
        return ASMSTORE_OK;
    if ((res = asmstore__app_patch_open(&t, so, size, index, err)) != ASMSTORE_OK)
        return res;
    res = info->table == ASMSTORE_APP_TABLE_BUFFER
              ? asmstore__app_grow_buffer(&t, info, &d, index, new_size, err)
              : asmstore__app_grow_pointer(&t, &d, index, new_size, err);
    if (res != ASMSTORE_OK) return res;
    if (!asmstore__app_patch_held(&t, info, index, &after) ||
        asmstore_app_read_descriptor(so, size, &after, index, &d, NULL) != ASMSTORE_OK ||
        d.uncompressed_file_size != new_size ||
        asmstore_app_check_image(so, size, &after, index, new_size, NULL) != ASMSTORE_OK) {
        asmstore__app_undo(&t);
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, d.offset, index, 0,
                              "the fields the patch writes overlap one another or the table "
                              "(a crafted library): left unchanged");
    }
    *info = after;
    return ASMSTORE_OK;
}

/* asmstore_app_add_slots' visitor: a relocation writing into [lo, hi), or a relative one whose
   pointer points there. */
typedef struct asmstore__app_range {
    uint64_t lo, hi, at;
    int hit;
} asmstore__app_range;

ASMSTORE__PRIVATE int asmstore__app_reloc_into(void *ctx, const asmstore__app_reloc *r) {
    asmstore__app_range *g = (asmstore__app_range *)ctx;

    if ((r->target < g->lo || r->target >= g->hi) &&
        (!r->relative || r->value < g->lo || r->value >= g->hi))
        return 0;
    g->hit = 1;
    g->at = r->at;
    return 1;
}

ASMSTORE_DEF asmstore_result asmstore_app_add_slots(void *so, size_t size, asmstore_app_info *info,
                                                    uint32_t slots, asmstore_error *err) {
    asmstore__app_patch t;
    asmstore__app_range g;
    asmstore_app_info after;
    asmstore__sym y;
    uint64_t at = 0, base, bytes;
    asmstore_result res;

    if (!so || !info)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL library or info");
    if (!info->runtime_known || info->runtime != ASMSTORE_RUNTIME_CORECLR)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0,
                              "not a CoreCLR library: MonoVM aborts "
                              "(MonoImageLoader::stash_and_return) on a name missing from "
                              "assembly_image_cache_hashes[], sorted in .rodata");
    if (slots <= info->bundled_slots) return ASMSTORE_OK;
    if ((res = asmstore__app_patch_open(&t, so, size, -1, err)) != ASMSTORE_OK) return res;
    if (asmstore__app_find(&t.l, "assembly_store_bundled_assemblies", &y, &at, NULL) !=
            ASMSTORE_OK ||
        y.value < t.h.vaddr + t.h.filesz || y.value > t.end || y.size > t.end - y.value)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, at, -1, 0,
                              "assembly_store_bundled_assemblies missing, or not in the zero-filled "
                              "memory (past p_filesz) of the last writable PT_LOAD");
    memset(&g, 0, sizeof g);
    g.lo = y.value;
    g.hi = y.value + y.size;
    asmstore__app_relocations(&t.l, asmstore__app_reloc_into, &g);
    if (g.hit)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, g.at, -1, 0,
                              "a relocation writes into assembly_store_bundled_assemblies or "
                              "points into it");
    bytes = (uint64_t)slots * ASMSTORE__APP_SLOT_WORDS * (t.l.e.is64 ? 8u : 4u);
    base = asmstore__app_new_home(&t, y.value, y.size);
    if (base + bytes > UINT32_MAX)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, at, -1, 0,
                              "the bundled-assembly slots would pass 4 GiB");
    asmstore__app_extend(&t, base + bytes);
    asmstore__app_move_symbol(&t, at, base, bytes);
    if (info->have_config && info->assemblies_in_apk < slots)
        asmstore__app_put(&t, info->config_offset + asmstore__app_cfg_assemblies(info), slots, 4);
    if (!asmstore__app_patch_held(&t, info, UINT32_MAX, &after) || after.bundled_slots != slots) {
        asmstore__app_undo(&t);
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, at, -1, 0,
                              "the fields the patch writes overlap one another or the table "
                              "(a crafted library): left unchanged");
    }
    *info = after;
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_INSPECT */

/* >>app buffers -------------------------------------------------------------------------------- */
/* The descriptor's once-flag, `loaded`: 0 not loaded, 2 a thread is loading it, 1 loaded. Acquire
   loads, a release store and an acquire compare-exchange on the byte: the compilers' builtins,
   MSVC's interlocked intrinsics (full barriers), or C11's atomics. */
#define ASMSTORE__APP_LOADING 2u
#if defined(__GNUC__) || defined(__clang__)
#define ASMSTORE__ATOMIC_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ASMSTORE__ATOMIC_STORE(p, v) __atomic_store_n((p), (uint8_t)(v), __ATOMIC_RELEASE)
#define ASMSTORE__ATOMIC_CLAIM(p, expected) \
    __atomic_compare_exchange_n((p), (expected), (uint8_t)ASMSTORE__APP_LOADING, 0, \
                                __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
#elif defined(_MSC_VER)
#include <intrin.h>
#define ASMSTORE__ATOMIC_LOAD(p) ((uint8_t)_InterlockedOr8((char volatile *)(p), 0))
#define ASMSTORE__ATOMIC_STORE(p, v) ((void)_InterlockedExchange8((char volatile *)(p), (char)(v)))
#define ASMSTORE__ATOMIC_CLAIM(p, expected) asmstore__msvc_claim((p), (expected))
/* *p from *expected to LOADING: 1; else 0 with *expected what *p held (as C11's). */
ASMSTORE__PRIVATE int asmstore__msvc_claim(uint8_t *p, uint8_t *expected) {
    uint8_t was = (uint8_t)_InterlockedCompareExchange8((char volatile *)p,
                                                       (char)ASMSTORE__APP_LOADING, (char)*expected);
    if (was == *expected) return 1;
    *expected = was;
    return 0;
}
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define ASMSTORE__ATOMIC_LOAD(p) atomic_load_explicit((_Atomic uint8_t *)(p), memory_order_acquire)
#define ASMSTORE__ATOMIC_STORE(p, v) \
    atomic_store_explicit((_Atomic uint8_t *)(p), (uint8_t)(v), memory_order_release)
#define ASMSTORE__ATOMIC_CLAIM(p, expected) \
    atomic_compare_exchange_strong_explicit((_Atomic uint8_t *)(p), (expected), \
                                            (uint8_t)ASMSTORE__APP_LOADING, \
                                            memory_order_acquire, memory_order_acquire)
#else
#error "asmstore_app_load needs atomics: GCC, Clang, MSVC or a C11 compiler with <stdatomic.h>"
#endif

/* One descriptor of the app's table: its size field, once-flag and buffer. */
typedef struct asmstore__app_slot {
    uint32_t *size;
    uint8_t *loaded;
    unsigned char *data;
    uint32_t room; /* .NET 10 on: the data size's bytes from the buffer's start on; else 0 */
} asmstore__app_slot;

/* The runtime's checks of descriptor `index` that read nothing a load writes. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_slot_of(const asmstore_app_tables *t,
                                                        uint32_t index, asmstore__app_slot *s,
                                                        asmstore_error *err) {
    uint32_t count = t->count ? *t->count : t->pointers ? t->pointers->count : 0;

    if (count == 0)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, 0, (int64_t)index, 0,
                              "a compressed image, and the app library has no descriptors");
    if (index >= count)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_INDEX, 0, (int64_t)index, 0,
                              "the image's descriptor index is past the app library's table");
    if (t->count && (!t->descriptors || !t->data_size || !t->data))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, (int64_t)index, 0,
                              "the .NET 10 table needs all four of its symbols");
    if (!t->count && !t->pointers->descriptors)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, 0, (int64_t)index, 0,
                              "compressed_assemblies.descriptors is NULL");
    if (t->count) {
        asmstore_app_buffer_descriptor *d = &t->descriptors[index];
        if (d->buffer_offset >= *t->data_size)
            return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, 0, (int64_t)index, 0,
                                  "the descriptor's buffer_offset is past "
                                  "uncompressed_assemblies_data_size");
        s->size = &d->uncompressed_file_size;
        s->loaded = &d->loaded;
        s->data = t->data + d->buffer_offset;
        s->room = *t->data_size - d->buffer_offset;
    } else {
        asmstore_app_pointer_descriptor *d = &t->pointers->descriptors[index];
        if (!d->data)
            return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, 0, (int64_t)index, 0,
                                  "the descriptor has no buffer (data is NULL)");
        s->size = &d->uncompressed_file_size;
        s->loaded = &d->loaded;
        s->data = d->data;
        s->room = 0;
    }
    return ASMSTORE_OK;
}

/* The loading thread's part: the size checks, the shrink and the decompression into the buffer. */
ASMSTORE__PRIVATE asmstore_result asmstore__app_fill(const asmstore__app_slot *s,
                                                     const asmstore_reader *r,
                                                     const asmstore_entry *e,
                                                     struct ZSTD_DCtx_s *dctx,
                                                     asmstore_error *err) {
    if (s->room && *s->size > s->room)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, 0, (int64_t)e->descriptor_index, 0,
                              "the descriptor's buffer runs past "
                              "uncompressed_assemblies_data_size");
    if (e->uncompressed_size > *s->size)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, (int64_t)e->descriptor_index, 0,
                              "the image is larger than its descriptor's buffer: assemblies "
                              "don't grow (the runtime aborts)");
    *s->size = (uint32_t)e->uncompressed_size;
    return asmstore_reader_read(r, e, s->data, e->uncompressed_size, dctx, err);
}

ASMSTORE_DEF asmstore_result asmstore_app_load(const asmstore_app_tables *t,
                                               const asmstore_reader *r, const asmstore_entry *e,
                                               struct ZSTD_DCtx_s *dctx,
                                               const unsigned char **image, size_t *size,
                                               asmstore_error *err) {
    asmstore_entry own;
    asmstore__app_slot s;
    asmstore_result res;
    uint8_t state;

    if (!t || !r || !e || !image || !size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL argument");
    if ((res = asmstore_reader_entry(r, e->index, &own, err)) != ASMSTORE_OK) return res;
    if (own.ignored)
        return asmstore__fail(err, ASMSTORE_ERR_IGNORED, 0, (int64_t)own.index, 0,
                              "the entry is an ignored placeholder");
    if (own.compression == ASMSTORE_COMPRESSION_NONE) {
        *image = own.image;
        *size = own.image_size;
        return ASMSTORE_OK;
    }
    if ((res = asmstore__app_slot_of(t, own.descriptor_index, &s, err)) != ASMSTORE_OK) return res;
    for (;;) {
        state = ASMSTORE__ATOMIC_LOAD(s.loaded);
        if (state == 1) { /* loaded: its size no longer changes (a library built loaded: checked) */
            if (s.room && *s.size > s.room)
                return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, 0, (int64_t)own.descriptor_index,
                                      0, "the descriptor's buffer runs past "
                                         "uncompressed_assemblies_data_size");
            break;
        }
        if (state == ASMSTORE__APP_LOADING) {
            asmstore__os_yield();
            continue;
        }
        if (!ASMSTORE__ATOMIC_CLAIM(s.loaded, &state)) continue;
        res = asmstore__app_fill(&s, r, &own, dctx, err);
        ASMSTORE__ATOMIC_STORE(s.loaded, res == ASMSTORE_OK ? 1u : 0u);
        if (res != ASMSTORE_OK) return res;
        break;
    }
    *image = s.data;
    *size = *s.size;
    return ASMSTORE_OK;
}

#ifndef ASMSTORE_NO_DLOPEN
ASMSTORE_DEF asmstore_result asmstore_app_tables_dlsym(asmstore_app_tables *t, void *handle,
                                                       asmstore_error *err) {
    if (!t || !handle)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL tables or handle");
    memset(t, 0, sizeof *t);
    t->count = (const uint32_t *)dlsym(handle, "compressed_assembly_count");
    t->descriptors =
        (asmstore_app_buffer_descriptor *)dlsym(handle, "compressed_assembly_descriptors");
    t->data_size = (const uint32_t *)dlsym(handle, "uncompressed_assemblies_data_size");
    t->data = (unsigned char *)dlsym(handle, "uncompressed_assemblies_data_buffer");
    if (t->count && t->descriptors && t->data_size && t->data) return ASMSTORE_OK;
    memset(t, 0, sizeof *t);
    t->pointers = (asmstore_app_pointer_table *)dlsym(handle, "compressed_assemblies");
    if (t->pointers) return ASMSTORE_OK;
    return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0,
                          "neither compressed_assembly_count, _descriptors, "
                          "uncompressed_assemblies_data_size and _buffer nor "
                          "compressed_assemblies (a Debug build, or not libxamarin-app.so)");
}
#endif

/* >>zip ---------------------------------------------------------------------------------------- */
#ifndef ASMSTORE_NO_ZIP
#define ASMSTORE__ZIP_LFH 0x04034b50u
#define ASMSTORE__ZIP_CDH 0x02014b50u
#define ASMSTORE__ZIP_EOCD 0x06054b50u
#define ASMSTORE__ZIP64_LOC 0x07064b50u
#define ASMSTORE__ZIP64_EOCD 0x06064b50u
/* the flag bits local and central headers must agree on: encrypted (0), data descriptor (3),
   strong encryption (6), UTF-8 name (11); bits 1-2 (DEFLATE options) only inform, 13 is local */
#define ASMSTORE__ZIP_FLAGS_READ 0x0849u

typedef struct asmstore__zip {
    const unsigned char *p;
    uint64_t size, cd_off, cd_size, n_total;
    uint64_t eocd; /* the (32-bit) end of central directory record */
    int zip64;
} asmstore__zip;

/* EOCD (+ ZIP64) -> central directory range. */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_open(asmstore__zip *z, const void *data,
                                                     size_t size, asmstore_error *err) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t lo, e;

    memset(z, 0, sizeof *z);
    z->p = p;
    z->size = size;
    if (!p || size < 22)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, 0, -1, 0,
                              "archive shorter than an end of central directory record");
    lo = size > 22u + 65535u ? size - 22u - 65535u : 0;
    for (e = size - 22;; e--) {
        const unsigned char *q = p + e;
        if (asmstore__rd32(q) == ASMSTORE__ZIP_EOCD && e + 22u + asmstore__rd16(q + 20) == size) {
            uint64_t n_disk = asmstore__rd16(q + 8), n_total = asmstore__rd16(q + 10);
            uint64_t cd_size = asmstore__rd32(q + 12), cd_off = asmstore__rd32(q + 16),
                     cd_end_want = e;
            int disk = asmstore__rd16(q + 4) != 0 || asmstore__rd16(q + 6) != 0;
            int zip64 = 0;
            if (e >= 20 && asmstore__rd32(p + e - 20) == ASMSTORE__ZIP64_LOC) {
                uint64_t z64 = asmstore__rd64(p + e - 12);
                if (z64 <= e - 20 && e - 20 - z64 >= 56 &&
                    asmstore__rd32(p + z64) == ASMSTORE__ZIP64_EOCD &&
                    asmstore__rd32(p + e - 16) == 0) {
                    const unsigned char *r = p + z64;
                    n_disk = asmstore__rd64(r + 24);
                    n_total = asmstore__rd64(r + 32);
                    cd_size = asmstore__rd64(r + 40);
                    cd_off = asmstore__rd64(r + 48);
                    disk = asmstore__rd32(r + 16) != 0 || asmstore__rd32(r + 20) != 0;
                    cd_end_want = z64;
                    zip64 = 1;
                }
            }
            if (!zip64 && (cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu)) {
                if (e == lo) break;
                continue; /* ZIP64 markers without ZIP64 records: not this one */
            }
            if (cd_off <= cd_end_want && cd_size == cd_end_want - cd_off) {
                if (disk || n_disk != n_total)
                    return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, e, -1, 0,
                                          "archive spans several disks");
                if (cd_size / 46u < n_total)
                    return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, e, -1, 0,
                                          "central directory smaller than its entry count");
                z->cd_off = cd_off;
                z->cd_size = cd_size;
                z->n_total = n_total;
                z->eocd = e;
                z->zip64 = zip64;
                return ASMSTORE_OK;
            }
        }
        if (e == lo) break;
    }
    return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, 0, -1, 0,
                          "no end of central directory record");
}

ASMSTORE__PRIVATE uint64_t asmstore__alignment_of(uint64_t off) {
    uint64_t a = 1;

    while (a < (1u << 20) && off % (a * 2) == 0) a *= 2;
    return a;
}

/* Finds `name` in an opened archive. */
/* The ZIP64 extra field (0x0001) among a central directory entry's extras x[0..xend): only the
   fields whose 32-bit value is saturated, in order. 1 when it is there and holds them all. */
ASMSTORE__PRIVATE int asmstore__zip64_extra(const unsigned char *x, const unsigned char *xend,
                                            uint64_t *usize, uint64_t *csize, uint64_t *lfh) {
    while (xend - x >= 4) {
        unsigned id = asmstore__rd16(x), len = asmstore__rd16(x + 2);
        const unsigned char *f = x + 4, *fend;
        if ((size_t)(xend - f) < len) return 0;
        fend = f + len;
        if (id == 1) {
            if (*usize == 0xFFFFFFFFu) {
                if (fend - f < 8) return 0;
                *usize = asmstore__rd64(f);
                f += 8;
            }
            if (*csize == 0xFFFFFFFFu) {
                if (fend - f < 8) return 0;
                *csize = asmstore__rd64(f);
                f += 8;
            }
            if (*lfh == 0xFFFFFFFFu) {
                if (fend - f < 8) return 0;
                *lfh = asmstore__rd64(f);
            }
            return 1;
        }
        x = fend;
    }
    return 0;
}

/* The central directory header at cd_off + pos: signature, and its name, extra field and comment
   inside the directory. *len: its size. */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_cd_record(const asmstore__zip *z, uint64_t pos,
                                                          uint64_t *len, asmstore_error *err) {
    const unsigned char *q = z->p + z->cd_off + pos;

    if (pos > z->cd_size || z->cd_size - pos < 46 || asmstore__rd32(q) != ASMSTORE__ZIP_CDH)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, z->cd_off + pos, -1, 0,
                              "central directory header signature or size");
    *len = 46u + (uint64_t)asmstore__rd16(q + 28) + asmstore__rd16(q + 30) + asmstore__rd16(q + 32);
    if (z->cd_size - pos < *len)
        return asmstore__fail(
            err, ASMSTORE_ERR_BAD_ZIP, z->cd_off + pos, -1, 0,
            "central directory header's name, extra or comment past the directory");
    return ASMSTORE_OK;
}

/* The one central directory header named name[0..name_len) (*hit), walking every header once:
   a malformed header or a second entry of that name is an error. */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_cd_find(const asmstore__zip *z, const char *name,
                                                        size_t name_len,
                                                        const unsigned char **hit,
                                                        asmstore_error *err) {
    uint64_t pos = 0;
    uint64_t i;

    *hit = NULL;
    for (i = 0; i < z->n_total; i++) {
        const unsigned char *q = z->p + z->cd_off + pos;
        uint64_t len;
        asmstore_result res = asmstore__zip_cd_record(z, pos, &len, err);

        if (res != ASMSTORE_OK) return res;
        if (asmstore__rd16(q + 28) == name_len && memcmp(q + 46, name, name_len) == 0) {
            if (*hit)
                return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, z->cd_off + pos, -1, 0,
                                      "two central directory entries with this name");
            *hit = q;
        }
        pos += len;
    }
    if (!*hit)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0,
                              "no central directory entry with this name");
    return ASMSTORE_OK;
}

/* A local header field against the central directory's value: equal, or zero when the local
   header's flag bit 3 says the value follows the data in a data descriptor (APPNOTE 4.4.4). */
ASMSTORE__PRIVATE int asmstore__zip_local_agrees(uint64_t local, uint64_t central, int descriptor) {
    return local == central || (descriptor && local == 0);
}

/* The local header of the entry the central directory describes as ent (its offsets, sizes, CRC-32,
   method, flags) under name[0..name_len) agrees with it, as `unzip -t` wants: signature, the same
   name, method, the flags that change how the data is read (ASMSTORE__ZIP_FLAGS_READ), CRC-32 and
   both sizes (ZIP64 extra field too); the data lies before the central directory. With a data
   descriptor (bit 3) the local CRC-32 and sizes may be zero; the descriptor itself is not read: a
   reader checks the data's CRC-32 against the central directory's (asmstore_zip_crc32). Sets
   ent->data_offset and ent->alignment. Every entry the library reads comes through here. */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_local_check(const asmstore__zip *z,
                                                            const char *name, size_t name_len,
                                                            asmstore_zip_entry *ent,
                                                            asmstore_error *err) {
    const unsigned char *l;
    uint64_t csize, usize, no_offset = 0, data;
    unsigned flags;
    int dd;
    const char *why = NULL;

    if (ent->lfh_offset > z->cd_off || z->cd_off - ent->lfh_offset < 30 ||
        asmstore__rd32(z->p + ent->lfh_offset) != ASMSTORE__ZIP_LFH)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, ent->lfh_offset, -1, 0,
                              "local file header missing or outside the archive");
    l = z->p + ent->lfh_offset; /* formed only once it is known to lie inside */
    data = ent->lfh_offset + 30 + asmstore__rd16(l + 26) + asmstore__rd16(l + 28);
    if (asmstore__rd16(l + 26) != name_len || data > z->cd_off ||
        memcmp(l + 30, name, name_len) != 0)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, ent->lfh_offset, -1, 0,
                              "local file header's name differs from the central directory's");
    flags = asmstore__rd16(l + 6);
    dd = (flags & 8u) != 0;
    csize = asmstore__rd32(l + 18);
    usize = asmstore__rd32(l + 22);
    if ((csize == 0xFFFFFFFFu || usize == 0xFFFFFFFFu) &&
        !asmstore__zip64_extra(l + 30 + name_len, z->p + data, &usize, &csize, &no_offset))
        why = "local file header without its ZIP64 extra field";
    else if (asmstore__rd16(l + 8) != ent->method)
        why = "local file header's compression method differs from the central directory's";
    else if ((flags ^ ent->flags) & ASMSTORE__ZIP_FLAGS_READ)
        why = "local file header's flags (encryption, data descriptor, UTF-8 name) differ from "
              "the central directory's";
    else if (!asmstore__zip_local_agrees(asmstore__rd32(l + 14), ent->crc32, dd))
        why = "local file header's CRC-32 differs from the central directory's";
    else if (!asmstore__zip_local_agrees(csize, ent->compressed_size, dd) ||
             !asmstore__zip_local_agrees(usize, ent->uncompressed_size, dd))
        why = "local file header's sizes differ from the central directory's";
    if (why)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, ent->lfh_offset, -1, 0, why);
    if (ent->compressed_size > z->cd_off - data)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, data, -1, 0,
                              "entry data runs into the central directory");
    ent->data_offset = data;
    ent->alignment = asmstore__alignment_of(data);
    return ASMSTORE_OK;
}

/* The entry whose central directory header is at q: its sizes (ZIP64 extra field too), then its
   local header (asmstore__zip_local_check). */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_entry_at(const asmstore__zip *z,
                                                         const unsigned char *q, const char *name,
                                                         size_t name_len, asmstore_zip_entry *ent,
                                                         asmstore_error *err) {
    const unsigned char *x = q + 46 + name_len;
    const unsigned char *xend = x + asmstore__rd16(q + 30);
    uint64_t cd_pos = (uint64_t)(q - z->p);
    uint64_t csize = asmstore__rd32(q + 20);
    uint64_t usize = asmstore__rd32(q + 24);
    uint64_t lfh = asmstore__rd32(q + 42);

    ent->flags = asmstore__rd16(q + 8);
    ent->method = asmstore__rd16(q + 10);
    ent->crc32 = asmstore__rd32(q + 16);
    if (asmstore__rd16(q + 34) != 0 && asmstore__rd16(q + 34) != 0xFFFFu)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, cd_pos, -1, 0,
                              "central directory entry on another disk");
    if ((usize == 0xFFFFFFFFu || csize == 0xFFFFFFFFu || lfh == 0xFFFFFFFFu) &&
        !asmstore__zip64_extra(x, xend, &usize, &csize, &lfh))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, cd_pos, -1, 0,
                              "central directory entry without its ZIP64 extra field");
    ent->compressed_size = csize;
    ent->uncompressed_size = usize;
    ent->lfh_offset = lfh;
    ent->zip64 = z->zip64;
    return asmstore__zip_local_check(z, name, name_len, ent, err);
}

ASMSTORE__PRIVATE asmstore_result asmstore__zip_lookup(const asmstore__zip *z, const char *name,
                                                       size_t name_len, asmstore_zip_entry *out,
                                                       asmstore_error *err) {
    const unsigned char *hit;
    asmstore_zip_entry ent;
    asmstore_result res;

    memset(&ent, 0, sizeof ent);
    res = asmstore__zip_cd_find(z, name, name_len, &hit, err);
    if (res == ASMSTORE_OK) res = asmstore__zip_entry_at(z, hit, name, name_len, &ent, err);
    if (res != ASMSTORE_OK) return res;

    /* the entry exists: *out is filled, also on the errors below */
    if (out) *out = ent;
    if (ent.flags & 1u)
        return asmstore__fail(err, ASMSTORE_ERR_ZIP_ENCRYPTED, ent.lfh_offset, -1, 0,
                              "entry is encrypted");
    if (ent.method != 0)
        return asmstore__fail(err, ASMSTORE_ERR_ZIP_COMPRESSED, ent.lfh_offset, -1, 0,
                              "entry is not STORED");
    if (ent.compressed_size != ent.uncompressed_size)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, (uint64_t)(hit - z->p), -1, 0,
                              "STORED entry whose sizes differ");
    if (ent.data_offset % ASMSTORE_ZIP_MIN_ALIGNMENT)
        return asmstore__fail(err, ASMSTORE_ERR_MISALIGNED, ent.data_offset, -1, 0,
                              "entry data not 16-byte aligned");
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_zip_find(const void *zip, size_t size, const char *name,
                                               size_t name_len, asmstore_zip_entry *out,
                                               asmstore_error *err) {
    asmstore__zip z;
    asmstore_result res;

    if (out) memset(out, 0, sizeof *out);
    if ((!zip && size) || !name || name_len == 0 || name_len > 65535u)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL archive with a size, or empty or over-long name");
    res = asmstore__zip_open(&z, zip, size, err);
    if (res != ASMSTORE_OK) return res;
    return asmstore__zip_lookup(&z, name, name_len, out, err);
}

/* Where each release puts a store in an archive (docs/store-releases.md §1.2), APK paths then AAB
   ones. */
static const char *const asmstore__store_paths[] = {
    "lib/%s/libassembly-store.so",     /* .NET 10.0.102+, 11 */
    "lib/%s/libassemblies.%s.blob.so", /* .NET 9, 10.0.100-101 */
    "assemblies/assemblies.%_.blob",   /* .NET 6-8: the arch store of format 1 */
    "base/lib/%s/libassembly-store.so",
    "base/lib/%s/libassemblies.%s.blob.so",
    "base/root/assemblies/assemblies.%_.blob"};

ASMSTORE_DEF size_t asmstore_zip_store_path(asmstore_abi abi, unsigned i, char *buf, size_t cap) {
    const asmstore__abi_info *info = asmstore__abi(abi);
    const char *f;
    size_t n = 0, k;

    if (!asmstore__abi_known(abi) ||
        i >= sizeof asmstore__store_paths / sizeof *asmstore__store_paths || !buf)
        return 0;
    for (f = asmstore__store_paths[i]; *f; f++) {
        char sub[16];
        size_t len = 1;
        sub[0] = *f;
        if (f[0] == '%') {
            /* %s: the Android dir name; %_: the same with '_' for '-' (format 1 file names) */
            const char *d = f[1] == '_' ? info->underscored : info->android_dir;
            for (len = 0; d[len]; len++) sub[len] = d[len];
            f++;
        }
        if (n + len >= cap) return 0;
        for (k = 0; k < len; k++) buf[n++] = sub[k];
    }
    buf[n] = 0;
    return n;
}

ASMSTORE_DEF asmstore_result asmstore_zip_find_store(const void *zip, size_t size, asmstore_abi abi,
                                                     asmstore_abi *found_abi,
                                                     asmstore_zip_entry *out, asmstore_error *err) {
    asmstore__zip z;
    asmstore_result res = ASMSTORE_ERR_NOT_FOUND;
    char name[96];
    unsigned i, p;
    asmstore_abi a;

    if (out) memset(out, 0, sizeof *out);
    if (found_abi) *found_abi = ASMSTORE_ABI_UNKNOWN;
    if ((!zip && size) || !asmstore__abi_in_range(abi))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL archive with a size, or unknown ABI");
    res = asmstore__zip_open(&z, zip, size, err);
    if (res != ASMSTORE_OK) return res;
    res = ASMSTORE_ERR_NOT_FOUND;
    for (i = 0; res == ASMSTORE_ERR_NOT_FOUND &&
                (a = asmstore__abi_candidate(abi, i)) != ASMSTORE_ABI_UNKNOWN;
         i++) {
        size_t n;
        for (p = 0; res == ASMSTORE_ERR_NOT_FOUND &&
                    (n = asmstore_zip_store_path(a, p, name, sizeof name)) != 0;
             p++)
            res = asmstore__zip_lookup(&z, name, n, out, err);
        if (found_abi && res != ASMSTORE_ERR_NOT_FOUND) *found_abi = a;
    }
    return res;
}

ASMSTORE_DEF asmstore_result asmstore_zip_dir_open(const void *zip, size_t size,
                                                   asmstore_zip_dir *dir, asmstore_error *err) {
    asmstore__zip z;
    asmstore_result res;

    if (!dir || (!zip && size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL walk, or NULL archive with a size");
    memset(dir, 0, sizeof *dir);
    res = asmstore__zip_open(&z, zip, size, err);
    if (res != ASMSTORE_OK) return res;
    dir->cd_offset = z.cd_off;
    dir->cd_size = z.cd_size;
    dir->count = z.n_total;
    dir->comment_offset = z.eocd + 22;
    dir->comment_size = asmstore__rd16(z.p + z.eocd + 20);
    dir->zip64 = z.zip64;
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_zip_next(const void *zip, size_t size, asmstore_zip_dir *dir,
                                               asmstore_zip_entry *out, const char **name,
                                               size_t *name_len, asmstore_error *err) {
    asmstore__zip z;
    asmstore_zip_entry ent;
    const unsigned char *q;
    uint64_t pos, len;
    asmstore_result res;

    if (!dir || !zip || dir->cd_offset > size || size - dir->cd_offset < dir->cd_size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL archive or walk, or a walk of another archive");
    if (dir->index >= dir->count)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0, "past the last entry");
    memset(&z, 0, sizeof z);
    z.p = (const unsigned char *)zip;
    z.size = size;
    z.cd_off = dir->cd_offset;
    z.cd_size = dir->cd_size;
    z.n_total = dir->count;
    z.zip64 = dir->zip64;
    /* the record after the last one returned (a walk changed by its caller fails the range check) */
    pos = dir->index ? dir->record_offset + dir->record_size - dir->cd_offset : 0;
    res = asmstore__zip_cd_record(&z, pos, &len, err);
    if (res != ASMSTORE_OK) return res;
    q = z.p + z.cd_off + pos;
    memset(&ent, 0, sizeof ent);
    res = asmstore__zip_entry_at(&z, q, (const char *)q + 46, asmstore__rd16(q + 28), &ent, err);
    if (res != ASMSTORE_OK) return res;
    dir->record_offset = z.cd_off + pos;
    dir->record_size = len;
    dir->index++;
    if (out) *out = ent;
    if (name) *name = (const char *)q + 46;
    if (name_len) *name_len = asmstore__rd16(q + 28);
    return ASMSTORE_OK;
}

ASMSTORE_DEF uint32_t asmstore_zip_crc32(uint32_t crc, const void *data, size_t len) {
    return len ? asmstore__crc32_update(crc, (const unsigned char *)data, len) : crc;
}

#endif /* ASMSTORE_NO_ZIP */

/* >>locator ------------------------------------------------------------------------------------ */
ASMSTORE_DEF void asmstore_locator_close(asmstore_locator *l) {
    if (!l) return;
#ifndef ASMSTORE_NO_DLOPEN
    if (l->dl_handle) dlclose(l->dl_handle);
#endif
#ifndef ASMSTORE_NO_STDIO
    if (l->map) asmstore__os_unmap(l->map, l->map_size);
#endif
    memset(l, 0, sizeof *l);
}

/* Names the file l's file_offset counts in; a path that does not fit leaves l->path "" (no file
   known). */
ASMSTORE__PRIVATE void asmstore__keep_path(asmstore_locator *l, const char *path) {
    size_t n = strlen(path);

    if (n >= sizeof l->path) n = 0;
    memcpy(l->path, path, n);
    l->path[n] = 0;
}

ASMSTORE_DEF asmstore_result asmstore_locator_image_offset(const asmstore_locator *l,
                                                           const asmstore_reader *r,
                                                           const asmstore_entry *e,
                                                           size_t min_alignment, uint64_t *offset,
                                                           asmstore_error *err) {
    uintptr_t payload, image;
    uint64_t at;
    asmstore_result res;

    if (!l || !r || !e || !offset || !l->data || (min_alignment & (min_alignment - 1)))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL argument, or min_alignment not a power of two");
    payload = (uintptr_t)l->data;
    if ((uintptr_t)r->data < payload || r->size > l->size ||
        (uintptr_t)r->data - payload > l->size - r->size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "the reader does not read this locator's payload");
    if ((res = asmstore_reader_entry_check(r, e, err)) != ASMSTORE_OK) return res;
    if (e->compression != ASMSTORE_COMPRESSION_NONE)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, (int64_t)e->index, 0,
                              "the image is compressed: the file holds no bytes of it to map");
    if (!l->path[0] && l->via != ASMSTORE_VIA_FD) /* the host's fd: its own file */
        return asmstore__fail(
            err, ASMSTORE_ERR_UNSUPPORTED, 0, (int64_t)e->index, 0,
            "the locator knows no file for its payload (path too long, or no dl_iterate_phdr)");
    image = (uintptr_t)e->image;
    at = l->file_offset + (uint64_t)(image - payload);
    if (min_alignment > 1 && at % min_alignment != 0)
        return asmstore__fail(
            err, ASMSTORE_ERR_MISALIGNED, at, (int64_t)e->index, 0,
            "the image's offset in its file is not a multiple of the alignment asked for");
    *offset = at;
    return ASMSTORE_OK;
}

/* Payload inside bytes [p, p+n) that came from file offset `at`: ELF (either kind) or raw. */
ASMSTORE__PRIVATE asmstore_result asmstore__locate_inner(asmstore_locator *l,
                                                         const unsigned char *p, size_t n,
                                                         uint64_t at, const char *symbol) {
    if (n >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') {
        asmstore_elf_info info;
        const void *pl;
        size_t pls;
        asmstore_result res = asmstore_elf_payload(p, n, symbol, &pl, &pls, &info, NULL);
        if (res != ASMSTORE_OK) return res;
        l->data = pl;
        l->size = pls;
        l->wrapper = info.kind;
        if (l->abi == ASMSTORE_ABI_UNKNOWN) l->abi = info.abi;
        l->file_offset = at + info.payload_offset;
        return ASMSTORE_OK;
    }
    l->data = p;
    l->size = n;
    l->wrapper = ASMSTORE_ELF_NONE;
    l->file_offset = at;
    return ASMSTORE_OK;
}

#ifndef ASMSTORE_NO_DLOPEN
#if defined(__BIONIC__) || (defined(__GLIBC__) && defined(__USE_GNU))
#define ASMSTORE__HAVE_PHDR_ITER 1
typedef struct asmstore__phdr_find {
    uintptr_t addr, end;
    uint64_t file_offset; /* of addr in the object's file */
    const char *name;     /* the loader's name for the object */
    int found;
} asmstore__phdr_find;

static int asmstore__phdr_cb(struct dl_phdr_info *info, size_t size, void *data) {
    asmstore__phdr_find *f = (asmstore__phdr_find *)data;
    int i;

    (void)size;
    for (i = 0; i < (int)info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start, end;
        if (ph->p_type != PT_LOAD) continue;
        start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        end = start + (uintptr_t)ph->p_filesz;
        if (f->addr < start || f->addr >= end) continue;
        f->end = end;
        f->file_offset = (uint64_t)ph->p_offset + (uint64_t)(f->addr - start);
        f->name = info->dlpi_name;
        f->found = 1;
        return 1;
    }
    return 0;
}
#endif

/* Keeps dlerror()'s text (if any) in l->error for the caller to print. */
ASMSTORE__PRIVATE void asmstore__keep_dlerror(asmstore_locator *l) {
    const char *msg = dlerror();

    if (msg) {
        strncpy(l->error, msg, sizeof l->error - 1);
        l->error[sizeof l->error - 1] = 0;
    }
}

/* The extent of the object's bytes from p on: the end of the PT_LOAD holding p
   (dl_iterate_phdr), with l's file offset and path; 0 when unknown. */
ASMSTORE__PRIVATE size_t asmstore__dl_extent(asmstore_locator *l, const void *p) {
#ifdef ASMSTORE__HAVE_PHDR_ITER
    asmstore__phdr_find f;

    memset(&f, 0, sizeof f);
    f.addr = (uintptr_t)p;
    dl_iterate_phdr(asmstore__phdr_cb, &f);
    if (!f.found) return 0;
    l->file_offset = f.file_offset;
    if (f.name) asmstore__keep_path(l, f.name);
    return (size_t)(f.end - f.addr);
#else
    (void)l;
    (void)p;
    return 0;
#endif
}

/* The symbol's st_size when the loader tells it (dladdr1, glibc), else `extent`; 0 when st_size
   runs past the extent. */
ASMSTORE__PRIVATE size_t asmstore__dl_symbol_size(void *p, const char *symbol, size_t extent) {
#if defined(__GLIBC__) && defined(__USE_GNU)
    Dl_info di;
    void *symp = NULL;
    const ElfW(Sym) *sym;

    if (!dladdr1(p, &di, &symp, RTLD_DL_SYMENT) || !symp || di.dli_saddr != p || !di.dli_sname ||
        strcmp(di.dli_sname, symbol) != 0)
        return extent;
    sym = (const ElfW(Sym) *)symp;
    if ((uint64_t)sym->st_size > (uint64_t)extent) return 0;
    return sym->st_size ? (size_t)sym->st_size : extent;
#else
    (void)p;
    (void)symbol;
    return extent;
#endif
}

ASMSTORE_DEF asmstore_result asmstore_locate_dlopen(asmstore_locator *l, const char *path,
                                                    const char *symbol, asmstore_error *err) {
    void *h;
    void *p;
    size_t extent;
    size_t size;

    if (!l || !path)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL locator or path");
    memset(l, 0, sizeof *l);
    if (!symbol) symbol = ASMSTORE_ELF_DEFAULT_SYMBOL;
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        asmstore__keep_dlerror(l);
        return asmstore__fail(err, ASMSTORE_ERR_DLOPEN, 0, -1, 0,
                              "dlopen failed (see the locator's error)");
    }
    (void)dlerror();
    p = dlsym(h, symbol);
    if (!p) {
        asmstore__keep_dlerror(l);
        dlclose(h);
        return asmstore__fail(err, ASMSTORE_ERR_NO_PAYLOAD, 0, -1, 0,
                              "dlsym found no such symbol (see the locator's error)");
    }

    extent = asmstore__dl_extent(l, p);
    if (extent == 0) {
        dlclose(h);
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0,
                              "no extent for the symbol (no dl_iterate_phdr)");
    }
    size = asmstore__dl_symbol_size(p, symbol, extent);
    if (size == 0) {
        dlclose(h);
        memset(l, 0, sizeof *l);
        return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0, "symbol size past its PT_LOAD");
    }
    l->data = p;
    l->size = size;
    l->via = ASMSTORE_VIA_DLOPEN;
    l->wrapper = ASMSTORE_ELF_SYMBOL;
    l->dl_handle = h;
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_DLOPEN */

ASMSTORE_DEF asmstore_result asmstore_locate_memory(asmstore_locator *l, const void *data,
                                                    size_t size, asmstore_error *err) {
    if (!l || !data)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL locator or data");
    memset(l, 0, sizeof *l);
    if (size == 0) {
#ifndef ASMSTORE_NO_DLOPEN
        size_t extent = asmstore__dl_extent(l, data);
        size = extent ? asmstore__dl_symbol_size((void *)(uintptr_t)data,
                                                 ASMSTORE_ELF_DEFAULT_SYMBOL, extent)
                      : 0;
        if (extent && size == 0) {
            memset(l, 0, sizeof *l);
            return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0,
                                  "symbol size past its PT_LOAD");
        }
#endif
        if (size == 0)
            return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0,
                                  "size 0, and no loaded object's PT_LOAD holds the address "
                                  "(or no dl_iterate_phdr): give the size");
    }
    l->via = ASMSTORE_VIA_MEMORY;
    l->entry_data = data;
    l->entry_size = size;
    return asmstore__locate_inner(l, (const unsigned char *)data, size, l->file_offset, NULL) ==
                   ASMSTORE_OK
               ? ASMSTORE_OK
               : asmstore__fail(err, ASMSTORE_ERR_NO_PAYLOAD, 0, -1, 0,
                                "an ELF file, malformed or with no payload symbol or section");
}

#ifndef ASMSTORE_NO_STDIO
/* Opens path to read (a FIFO or a terminal given as a path never blocks the open); -1 (err and
   errno set; *res the result) when it is not there, cannot be opened or is not a regular file
   (errno EISDIR or EINVAL, *res not_regular); else the descriptor, the file's *size and its *id
   (may be NULL). */
ASMSTORE__PRIVATE int asmstore__open_regular(const char *path, asmstore_result not_regular,
                                             uint64_t *size, asmstore_file_identity *id,
                                             asmstore_result *res, asmstore_error *err) {
    int fd = asmstore__os_open_read(path, 0), e;

    if (fd < 0) {
        e = errno;
        *res = asmstore__fail(err, e == ENOENT ? ASMSTORE_ERR_NOT_FOUND : ASMSTORE_ERR_IO, 0, -1, e,
                              "opening the file");
        errno = e;
        return -1;
    }
    if ((e = asmstore__os_regular_size(fd, size, id)) == 0) return fd;
    asmstore__os_close(fd);
    *res = asmstore__fail(err, not_regular, 0, -1, e, "not a regular file (or fstat failed)");
    errno = e;
    return -1;
}

/* Opens path and maps all of it read-only, once (the descriptor is closed again), with *id (may be
   NULL) the identity of what was mapped. not_regular / empty: the results for something that is not a
   regular file / an empty one. On failure errno says why. */
ASMSTORE__PRIVATE asmstore_result asmstore__map_file(const char *path, asmstore_result not_regular,
                                                     asmstore_result empty, unsigned char **map,
                                                     size_t *size, asmstore_file_identity *id,
                                                     asmstore_error *err) {
    uint64_t file_size;
    asmstore_result res = ASMSTORE_OK;
    int fd, e;

    *map = NULL;
    *size = 0;
    if ((fd = asmstore__open_regular(path, not_regular, &file_size, id, &res, err)) < 0) return res;
    if (file_size == 0) {
        asmstore__os_close(fd);
        return asmstore__fail(err, empty, 0, -1, 0, "empty file");
    }
    if (file_size > (uint64_t)SIZE_MAX) {
        asmstore__os_close(fd);
        errno = EFBIG;
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, EFBIG,
                              "file larger than the address space");
    }
    e = asmstore__os_map(fd, 0, (size_t)file_size, map);
    asmstore__os_close(fd);
    errno = e;
    if (e) return asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, e, "mapping the file");
    *size = (size_t)file_size;
    return ASMSTORE_OK;
}

/* l found its store in the file path, mapped as id says. */
ASMSTORE__PRIVATE void asmstore__keep_file(asmstore_locator *l, const char *path,
                                           const asmstore_file_identity *id) {
    asmstore__keep_path(l, path);
    l->file_identity = *id;
}

/* Of the mapping m[0..n), keeps the pages holding [off, off+len) as l's map (the rest is unmapped
   where the OS can: asmstore__os_map_keep), so the entry stays where the one mapping put it. */
ASMSTORE__PRIVATE void asmstore__keep_pages(asmstore_locator *l, unsigned char *m, size_t n,
                                            uint64_t off, uint64_t len) {
    asmstore__os_map_keep(&m, &n, off, len);
    l->map = m;
    l->map_size = n;
}

#ifndef ASMSTORE_NO_ZIP
/* The store entry of the ZIP mapped whole at m[0..n) (that mapping is handed over: trimmed to the
   entry's pages and kept in l, or unmapped on failure); then the payload inside the entry. */
ASMSTORE__PRIVATE asmstore_result asmstore__locate_in_zip(asmstore_locator *l, unsigned char *m,
                                                          size_t n, asmstore_abi abi,
                                                          const char *symbol, asmstore_error *err) {
    asmstore_zip_entry ent;
    asmstore_abi found = ASMSTORE_ABI_UNKNOWN;
    asmstore_result res = asmstore_zip_find_store(m, n, abi, &found, &ent, err);

    l->entry = ent;
    if (res == ASMSTORE_OK && ent.compressed_size == 0)
        res = asmstore__fail(err, ASMSTORE_ERR_NO_PAYLOAD, ent.data_offset, -1, 0,
                             "store entry is empty");
    if (res != ASMSTORE_OK) {
        asmstore__os_unmap(m, n);
        return res;
    }
    asmstore__keep_pages(l, m, n, ent.data_offset, ent.compressed_size);
    l->via = ASMSTORE_VIA_APK;
    l->abi = found;
    l->entry_data = m + ent.data_offset;
    l->entry_size = (size_t)ent.compressed_size;
    res = asmstore__locate_inner(l, m + ent.data_offset, (size_t)ent.compressed_size,
                                 ent.data_offset, symbol);
    if (res != ASMSTORE_OK) {
        asmstore__os_unmap(l->map, l->map_size);
        l->map = NULL;
        l->map_size = 0;
        l->entry_data = NULL;
        l->entry_size = 0;
        return asmstore__fail(
            err, res, ent.data_offset, -1, 0,
            "store entry's ELF wrapper malformed, or no payload symbol or section in it");
    }
    return ASMSTORE_OK;
}

/* Opens one APK and locates the store entry; ASMSTORE_OK with l filled. */
ASMSTORE__PRIVATE asmstore_result asmstore__locate_apk_one(asmstore_locator *l, const char *path,
                                                           asmstore_abi abi, const char *symbol,
                                                           asmstore_error *err) {
    unsigned char *m;
    size_t n;
    asmstore_file_identity id;

    asmstore_result res =
        asmstore__map_file(path, ASMSTORE_ERR_BAD_ZIP, ASMSTORE_ERR_BAD_ZIP, &m, &n, &id, err);
    if (res != ASMSTORE_OK) return res;
    res = asmstore__locate_in_zip(l, m, n, abi, symbol, err);
    if (res == ASMSTORE_OK) asmstore__keep_file(l, path, &id);
    return res;
}

/* Split APKs: when path's basename is base.apk, the store from
   <dir>/split_config.<abi_underscored>.apk (abi UNKNOWN: the first ABI with one). ASMSTORE_OK with
   l filled; else l is left zeroed. */
ASMSTORE__PRIVATE asmstore_result asmstore__locate_split(asmstore_locator *l, const char *path,
                                                         asmstore_abi abi, const char *symbol) {
    char split[4096 + 64];
    const char *base = asmstore__os_basename(path);
    size_t dir = (size_t)(base - path);
    unsigned i;
    asmstore_abi a;

    if (strcmp(base, "base.apk") != 0 || strlen(path) >= 4000) return ASMSTORE_ERR_NOT_FOUND;
    for (i = 0; (a = asmstore__abi_candidate(abi, i)) != ASMSTORE_ABI_UNKNOWN; i++) {
        const char *an = asmstore__abi(a)->underscored;
        size_t m = strlen(an);
        memcpy(split, path, dir);
        memcpy(split + dir, "split_config.", 13);
        memcpy(split + dir + 13, an, m);
        memcpy(split + dir + 13 + m, ".apk", 5);
        if (asmstore__locate_apk_one(l, split, a, symbol, NULL) == ASMSTORE_OK) {
            l->from_split = 1;
            return ASMSTORE_OK;
        }
        asmstore_locator_close(l);
    }
    return ASMSTORE_ERR_NOT_FOUND;
}

ASMSTORE_DEF asmstore_result asmstore_locate_apk(asmstore_locator *l, const char *path,
                                                 asmstore_abi abi, const char *symbol,
                                                 asmstore_error *err) {
    if (!l || !path || !asmstore__abi_in_range(abi))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL locator or path, or unknown ABI");
    memset(l, 0, sizeof *l);
    if (asmstore__locate_split(l, path, abi, symbol) == ASMSTORE_OK) return ASMSTORE_OK;
    return asmstore__locate_apk_one(l, path, abi, symbol, err);
}
#endif /* ASMSTORE_NO_ZIP */

ASMSTORE_DEF asmstore_result asmstore_locate_file(asmstore_locator *l, const char *path,
                                                  const char *symbol, asmstore_error *err) {
    unsigned char *m;
    size_t n;
    asmstore_file_identity id;
    asmstore_result res;

    if (!l || !path)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL locator or path");
    memset(l, 0, sizeof *l);
    res = asmstore__map_file(path, ASMSTORE_ERR_IO, ASMSTORE_ERR_TRUNCATED, &m, &n, &id, err);
    if (res != ASMSTORE_OK) return res;
    if (n >= 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 &&
        m[3] == 4) { /* a ZIP: as asmstore_locate_apk */
#ifndef ASMSTORE_NO_ZIP
        if (asmstore__locate_split(l, path, ASMSTORE_ABI_UNKNOWN, symbol) == ASMSTORE_OK) {
            asmstore__os_unmap(m, n); /* a split holds the store: base.apk's mapping goes */
            return ASMSTORE_OK;
        }
        res = asmstore__locate_in_zip(l, m, n, ASMSTORE_ABI_UNKNOWN, symbol, err);
        if (res == ASMSTORE_OK) asmstore__keep_file(l, path, &id);
        return res;
#else
        asmstore__os_unmap(m, n);
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0,
                              "a ZIP archive, and ASMSTORE_NO_ZIP is set");
#endif
    }
    l->map = m;
    l->map_size = n;
    l->via = ASMSTORE_VIA_FILE;
    l->entry_data = m;
    l->entry_size = n;
    res = asmstore__locate_inner(l, m, n, 0, symbol);
    if (res != ASMSTORE_OK) {
        asmstore_locator_close(l);
        return asmstore__fail(err, res, 0, -1, 0,
                              "ELF file malformed, or no payload symbol or section in it");
    }
    asmstore__keep_file(l, path, &id);
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_locate_fd(asmstore_locator *l, int fd, uint64_t offset,
                                                uint64_t size, const char *symbol,
                                                asmstore_error *err) {
    uint64_t file_size, start;
    size_t unit = asmstore__os_map_unit();
    asmstore_file_identity id;
    unsigned char *m = NULL;
    asmstore_result res;
    int e;

    if (!l || fd < 0)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL locator or fd < 0");
    memset(l, 0, sizeof *l);
    if ((e = asmstore__os_regular_size(fd, &file_size, &id)) != 0)
        return asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, e, "not a regular file (or fstat failed)");
    if (offset >= file_size || size > file_size - offset)
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, offset, -1, 0,
                              "the range is empty or runs past the end of the file");
    if (size == 0) size = file_size - offset;
    start = offset - offset % unit;
    if (size > (uint64_t)SIZE_MAX - (offset - start))
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, offset, -1, 0,
                              "range larger than the address space");
    if ((e = asmstore__os_map(fd, start, (size_t)(offset - start + size), &m)) != 0)
        return asmstore__fail(err, ASMSTORE_ERR_IO, start, -1, e, "mapping the range");
    l->map = m;
    l->map_size = (size_t)(offset - start + size);
    l->via = ASMSTORE_VIA_FD;
    l->entry_data = m + (offset - start);
    l->entry_size = (size_t)size;
    l->file_identity = id;
    res = asmstore__locate_inner(l, m + (offset - start), (size_t)size, offset, symbol);
    if (res != ASMSTORE_OK) {
        asmstore_locator_close(l);
        return asmstore__fail(err, res, offset, -1, 0,
                              "ELF file malformed, or no payload symbol or section in it");
    }
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_STDIO */

/* >>files -------------------------------------------------------------------------------------- */
#if !defined(ASMSTORE_NO_STDIO) && !defined(ASMSTORE_NO_BUILD)

/* read() until len bytes or EOF, retrying EINTR; returns bytes read or -1. */
ASMSTORE__PRIVATE long long asmstore__read_full(int fd, void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        long long n = asmstore__os_read(fd, (char *)buf + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) break;
        done += (size_t)n;
    }
    return (long long)done;
}
ASMSTORE__PRIVATE int asmstore__write_full(int fd, const void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        long long n = asmstore__os_write(fd, (const char *)buf + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        done += (size_t)n;
    }
    return 0;
}

ASMSTORE_DEF asmstore_result asmstore_map_file(const char *path, const unsigned char **data,
                                               size_t *size, asmstore_error *err) {
    unsigned char *m = NULL;
    asmstore_error e;
    asmstore_result r;
    if (!path || !data || !size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL path or output");
    /* empty: the only case map_file answers with ASMSTORE_ERR_TRUNCATED here (err untouched) */
    r = asmstore__map_file(path, ASMSTORE_ERR_IO, ASMSTORE_ERR_TRUNCATED, &m, size, NULL, &e);
    *data = m;
    if (r == ASMSTORE_ERR_TRUNCATED) return ASMSTORE_OK;
    if (r != ASMSTORE_OK && err) *err = e;
    return r;
}
ASMSTORE_DEF int asmstore_file_open_read(const char *path, int nofollow) {
    return asmstore__os_open_read(path, nofollow);
}
ASMSTORE_DEF long long asmstore_file_read(int fd, void *buf, size_t len) {
    return asmstore__os_read(fd, buf, len);
}
ASMSTORE_DEF int asmstore_file_close(int fd) {
    return asmstore__os_close(fd);
}
ASMSTORE_DEF int asmstore_file_create_temp(char *tmpl) {
    return asmstore__os_create_temp(tmpl);
}
ASMSTORE_DEF int asmstore_file_replace(const char *from, const char *to) {
    return asmstore__os_replace(from, to);
}
#ifdef ASMSTORE__WINDOWS
ASMSTORE_DEF int asmstore_win32_errno(unsigned long code) {
    return asmstore__os_errno((DWORD)code);
}
#endif

ASMSTORE_DEF void asmstore_unmap_file(const void *data, size_t size) {
    if (data) asmstore__os_unmap((void *)(uintptr_t)data, size);
}

ASMSTORE_DEF asmstore_result asmstore_read_file(const char *path, const asmstore_allocator *a,
                                                void **data, size_t *size, asmstore_error *err) {
    uint64_t file_size;
    int fd;
    void *buf;
    long long n;
    asmstore_result res = ASMSTORE_OK;
    if (!path || !data || !size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL path or output");
    *data = NULL;
    *size = 0;
    if ((fd = asmstore__open_regular(path, ASMSTORE_ERR_IO, &file_size, NULL, &res, err)) < 0)
        return res;
    if (file_size > (uint64_t)(SIZE_MAX / 2)) {
        asmstore__os_close(fd);
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0,
                              "file larger than half the address space");
    }
    buf = asmstore_alloc(a, (size_t)file_size);
    if (!buf) {
        asmstore__os_close(fd);
        return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, -1, 0, "buffer for the file");
    }
    n = asmstore__read_full(fd, buf, (size_t)file_size);
    asmstore__os_close(fd);
    if (n != (long long)file_size) {
        asmstore_free(a, buf, (size_t)file_size);
        return asmstore__fail(err, ASMSTORE_ERR_IO, n < 0 ? 0 : (uint64_t)n, -1, n < 0 ? errno : 0,
                              "reading the file (short read or error)");
    }
    *data = buf;
    *size = (size_t)file_size;
    return ASMSTORE_OK;
}

/* Does the file at path hold exactly the concatenated parts? */
ASMSTORE__PRIVATE int asmstore__file_equals(const char *path, const void *const *parts,
                                            const size_t *sizes, size_t n) {
    unsigned char buf[65536];
    uint64_t file_size;
    size_t total = 0, i, off;
    int fd, same = 1;
    for (i = 0; i < n; i++) total += sizes[i];
    fd = asmstore__os_open_read(path, 1);
    if (fd < 0) return 0;
    if (asmstore__os_regular_size(fd, &file_size, NULL) != 0 || file_size != (uint64_t)total) {
        asmstore__os_close(fd);
        return 0;
    }
    for (i = 0; i < n && same; i++) {
        for (off = 0; off < sizes[i] && same;) {
            size_t want = sizes[i] - off < sizeof buf ? sizes[i] - off : sizeof buf;
            if (asmstore__read_full(fd, buf, want) != (long long)want ||
                memcmp(buf, (const char *)parts[i] + off, want) != 0)
                same = 0;
            off += want;
        }
    }
    asmstore__os_close(fd);
    return same;
}

ASMSTORE_DEF asmstore_result asmstore_write_file_parts(const char *path, const void *const *parts,
                                                       const size_t *sizes, size_t n, unsigned mode,
                                                       asmstore_error *err) {
    size_t plen, i;
    char *tmp;
    int fd, saved = 0;
    const char *failed = NULL; /* the step that failed; errno of it in saved */
    if (!path || (!parts && n) || (!sizes && n) || !*path)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL or empty path, or NULL parts");
    if (asmstore__file_equals(path, parts, sizes, n)) return ASMSTORE_OK;
    plen = strlen(path);
    tmp = (char *)asmstore_alloc(NULL, plen + 16);
    if (!tmp) return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, -1, 0, "temp file name");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    fd = asmstore__os_create_temp(tmp);
    if (fd < 0) {
        saved = errno;
        asmstore_free(NULL, tmp, plen + 16);
        return asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, saved,
                              "creating the temp file beside the output");
    }
    for (i = 0; i < n && !failed; i++)
        if (sizes[i] && asmstore__write_full(fd, parts[i], sizes[i]) != 0) {
            failed = "writing the temp file";
            saved = errno;
        }
    if (!failed && asmstore__os_set_mode(fd, mode) != 0) {
        failed = "setting the temp file's mode";
        saved = errno;
    }
    if (asmstore__os_close(fd) != 0 && !failed) {
        failed = "closing the temp file";
        saved = errno;
    }
    if (!failed && asmstore__os_replace(tmp, path) != 0) {
        failed = "renaming the temp file to the output";
        saved = errno;
    }
    if (failed) asmstore__os_remove(tmp);
    asmstore_free(NULL, tmp, plen + 16);
    return failed ? asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, saved, failed) : ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_write_file(const char *path, const void *data, size_t size,
                                                 unsigned mode, asmstore_error *err) {
    const void *parts[1];
    size_t sizes[1];
    parts[0] = data;
    sizes[0] = size;
    return asmstore_write_file_parts(path, parts, sizes, 1, mode, err);
}
#endif /* files */

/* >>writer: entries ---------------------------------------------------------------------------- */
#ifndef ASMSTORE_NO_WRITER

#define ASMSTORE__ADD_TAKE 0x100u /* private: the writer takes the buffers (from its allocator) */
#define ASMSTORE__ADD_PUBLIC                                                           \
    (ASMSTORE_ADD_UNCOMPRESSED | ASMSTORE_ADD_BORROW | ASMSTORE_ADD_DESCRIPTOR_INDEX | \
     ASMSTORE_ADD_MAPPING_INDEX | ASMSTORE_ADD_IGNORED | ASMSTORE_ADD_NO_COMPANION |   \
     ASMSTORE_ADD_VERBATIM)
#define ASMSTORE__OWNS_IMAGE          1u
#define ASMSTORE__OWNS_PDB            2u
#define ASMSTORE__OWNS_CONFIG         4u
#define ASMSTORE__MAX_IMAGE_ALIGNMENT 16384u
#define ASMSTORE__V1_HEADER_SIZE      20u
#define ASMSTORE__MAX_OUTPUTS         6 /* format 1: store 0, four arch stores, the manifest */

#define ASMSTORE__V1_MANIFEST "assemblies.manifest"

typedef struct asmstore__wentry {
    char *name; /* owned, not NUL-terminated */
    size_t name_len;
    const unsigned char *image; /* NULL for ignored entries */
    size_t image_size;
    const unsigned char *pdb, *config;
    size_t pdb_size, config_size;
    unsigned owns;  /* ASMSTORE__OWNS_*: which of image/pdb/config the writer frees */
    unsigned flags; /* ASMSTORE_ADD_* */
    asmstore_abi
        abi; /* format 1: the arch store it belongs to; UNKNOWN: common (and formats 2-4) */
    int ignored;
    int compressed;            /* stored behind a compression header (known when added) */
    int level;                 /* 0: the store's */
    uint32_t mapping;          /* descriptor's mapping_index (formats 2-4) */
    uint32_t descriptor_index; /* in the compressed image header */
    unsigned char *frame;      /* owned: compression header + payload, when compressed here */
    size_t frame_cap;
    uint64_t content;          /* XXH3-64 of the image, when compressed here (opt.reuse's key) */
    int reused;                /* frame's payload copied from opt.reuse's */
    const unsigned char *stored; /* what goes into the store: the image itself or frame */
    size_t stored_size;
    asmstore_result status;
} asmstore__wentry;

typedef struct asmstore__output {
    const char *name;
    unsigned char *data;
    size_t size, cap;
} asmstore__output;

struct asmstore_writer {
    asmstore_write_options opt; /* defaults filled in */
    uint32_t magic;             /* ASMSTORE_ZSTD_MAGIC or ASMSTORE_LZ4_MAGIC */
    asmstore__wentry *entries;
    size_t count, cap;
    uint32_t real_count,
        compressed_count; /* default mapping and descriptor indices of the next entry */
    asmstore__output outs[ASMSTORE__MAX_OUTPUTS];
    size_t nouts; /* set by finish */
    /* compression work distribution: jobs[] lists entry indices, largest image first */
    size_t *jobs;
    /* opt.reuse's entries with a frame, sorted by image size then content hash (finish only) */
    const asmstore__wentry **reusable;
    size_t nreusable;
    size_t next_job, done_jobs;
    /* names added so far, for the duplicate check: open addressing on XXH3-64 of the name,
       slots hold entry index + 1 (0 = empty), capacity a power of two kept at most half full */
    uint32_t *name_set;
    size_t name_set_cap;
#ifndef ASMSTORE_NO_THREADS
    asmstore__os_mutex lock;
#endif
};
/* The writer's one lock (job queue, progress count); nothing to take in ASMSTORE_NO_THREADS
   builds. */
#ifndef ASMSTORE_NO_THREADS
#define ASMSTORE__WRITER_LOCK(w)   ASMSTORE__OS_LOCK(&(w)->lock)
#define ASMSTORE__WRITER_UNLOCK(w) ASMSTORE__OS_UNLOCK(&(w)->lock)
#else
#define ASMSTORE__WRITER_LOCK(w)   ((void)0)
#define ASMSTORE__WRITER_UNLOCK(w) ((void)0)
#endif

/* The version word of a format 2-4 store (format 1 has none but its number). */
ASMSTORE__PRIVATE uint32_t asmstore__version_word(uint32_t format, asmstore_abi abi) {
    if (format == 1) return 1;
    return format | ((uint32_t)abi << 16) |
           (asmstore__abi(abi)->is_64bit ? ASMSTORE_FLAG_64BIT : 0u);
}
/* Bytes of one index entry: the hash, the descriptor index, from format 3 on the ignore byte. */
ASMSTORE__PRIVATE uint32_t asmstore__index_entry_size(uint32_t format, asmstore_hash_kind hash) {
    return (hash == ASMSTORE_HASH_XXH3_64 ? 8u : 4u) + 4u + (format >= 3 ? 1u : 0u);
}
ASMSTORE__PRIVATE int asmstore__level_ok(asmstore_compression kind, int level) {
    return level >= 1 && level <= asmstore_compression_level_max(kind);
}
ASMSTORE__PRIVATE int asmstore__has_compression_magic(const unsigned char *p, size_t n) {
    return n >= 4 &&
           (asmstore__rd32(p) == ASMSTORE_ZSTD_MAGIC || asmstore__rd32(p) == ASMSTORE_LZ4_MAGIC);
}

/* Fills in the defaults of o and checks it. */
ASMSTORE__PRIVATE asmstore_result asmstore__resolve_options(asmstore_write_options *o,
                                                            asmstore_error *err) {
    int is64;
    size_t al;
    if (o->abi == ASMSTORE_ABI_UNKNOWN) o->abi = ASMSTORE_ABI_ARM64;
    if (o->format == 0) o->format = 4;
    if (o->compression == ASMSTORE_COMPRESSION_NONE) o->compression = ASMSTORE_COMPRESSION_ZSTD;
    if (o->level == 0) o->level = asmstore_compression_level_default(o->compression);
    if (o->max_name_len == 0) o->max_name_len = ASMSTORE_MAX_NAME_LEN;
    if (o->image_alignment == 0) o->image_alignment = o->no_compress ? 16u : 1u;
    al = o->image_alignment;
    if (!asmstore__abi_in_range(o->abi) || o->format < 1 || o->format > 4 || o->jobs < 0 ||
        (o->runtime != ASMSTORE_RUNTIME_MONOVM && o->runtime != ASMSTORE_RUNTIME_CORECLR) ||
        o->max_name_len > ASMSTORE_MAX_NAME_LEN ||
        (o->compression != ASMSTORE_COMPRESSION_ZSTD &&
         o->compression != ASMSTORE_COMPRESSION_LZ4) ||
        !asmstore__level_ok(o->compression, o->level) || al > ASMSTORE__MAX_IMAGE_ALIGNMENT ||
        (al & (al - 1)) != 0)
        return asmstore__fail(
            err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
            "write options: abi, format, jobs, runtime, max_name_len, compression, level or "
            "image_alignment");
    if (o->runtime == ASMSTORE_RUNTIME_CORECLR && o->format <= 2)
        return asmstore__fail(err, ASMSTORE_ERR_PROFILE, 0, -1, 0,
                              "coreclr reads formats 3 and 4 only");
    is64 = asmstore__abi(o->abi)->is_64bit;
    if (o->format == 1) {
        if (o->hash != ASMSTORE_HASH_UNKNOWN) /* its tables hold XXH32 and XXH64 */
            return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                                  "format 1 takes no hash option");
    } else if (o->hash == ASMSTORE_HASH_UNKNOWN) {
        if (o->runtime == ASMSTORE_RUNTIME_CORECLR && o->format == 4)
            o->hash = ASMSTORE_HASH_CRC32;
        else
            o->hash = is64 ? ASMSTORE_HASH_XXH3_64 : ASMSTORE_HASH_XXH32;
    } else if (!(o->hash == ASMSTORE_HASH_CRC32 || (o->hash == ASMSTORE_HASH_XXH3_64 && is64) ||
                 (o->hash == ASMSTORE_HASH_XXH32 && !is64))) {
        /* 8-byte hashes only fit 64-bit stores; a 4-byte hash in a 64-bit store means CRC-32 to
           readers */
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "hash does not fit the ABI (XXH3-64: 64-bit, XXH32: 32-bit)");
    }
    if (o->compression == ASMSTORE_COMPRESSION_LZ4 && !o->compress && !o->no_compress)
        return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED_COMPRESSION, 0, -1, 0,
                              "LZ4 needs a compress callback");
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_writer_create(asmstore_writer **out,
                                                    const asmstore_write_options *opt,
                                                    asmstore_error *err) {
    asmstore_writer *w;
    asmstore_write_options o;
    asmstore_result res;
    if (!out) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL output");
    *out = NULL;
    memset(&o, 0, sizeof o);
    if (opt) o = *opt;
    if ((res = asmstore__resolve_options(&o, err)) != ASMSTORE_OK) return res;
    if (o.reuse && !o.reuse->nouts)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "write options: reuse is not a finished writer");
    w = (asmstore_writer *)asmstore_alloc(&o.allocator, sizeof *w);
    if (!w) return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, -1, 0, "the writer");
    memset(w, 0, sizeof *w);
    w->opt = o;
    w->magic = o.compression == ASMSTORE_COMPRESSION_LZ4 ? ASMSTORE_LZ4_MAGIC : ASMSTORE_ZSTD_MAGIC;
    *out = w;
    return ASMSTORE_OK;
}

ASMSTORE_DEF size_t asmstore_writer_count(const asmstore_writer *w) {
    return w ? w->count : 0;
}

ASMSTORE__PRIVATE void asmstore__wentry_free(asmstore_writer *w, asmstore__wentry *e) {
    const asmstore_allocator *a = &w->opt.allocator;
    asmstore_free(a, e->frame, e->frame_cap);
    asmstore_free(a, e->name, e->name_len);
    if (e->owns & ASMSTORE__OWNS_IMAGE) asmstore_free(a, (void *)e->image, e->image_size);
    if (e->owns & ASMSTORE__OWNS_PDB) asmstore_free(a, (void *)e->pdb, e->pdb_size);
    if (e->owns & ASMSTORE__OWNS_CONFIG) asmstore_free(a, (void *)e->config, e->config_size);
}

/* Owned copy of bytes (NULL for empty input); *ok cleared on allocation failure. */
ASMSTORE__PRIVATE unsigned char *asmstore__dup(asmstore_writer *w, const void *p, size_t n,
                                               int *ok) {
    unsigned char *c;
    if (!n) return NULL;
    c = (unsigned char *)asmstore_alloc(&w->opt.allocator, n);
    if (!c) {
        *ok = 0;
        return NULL;
    }
    memcpy(c, p, n);
    return c;
}

/* Will this image sit behind a compression header? One that begins with a compression magic must
   (the format would read it as compressed); a VERBATIM one is stored as it comes. */
ASMSTORE__PRIVATE int asmstore__stores_compressed(const asmstore_writer *w,
                                                  const unsigned char *img, size_t n,
                                                  unsigned flags) {
    int magic = asmstore__has_compression_magic(img, n);
    if (flags & ASMSTORE_ADD_VERBATIM) return magic;
    return magic || !(w->opt.no_compress || (flags & ASMSTORE_ADD_UNCOMPRESSED));
}

/* Room for one more entry in w->entries. */
ASMSTORE__PRIVATE asmstore_result asmstore__grow_entries(asmstore_writer *w) {
    size_t ncap;
    asmstore__wentry *n;

    if (w->count < w->cap) return ASMSTORE_OK;
    ncap = w->cap ? w->cap * 2 : 64;
    n = (asmstore__wentry *)asmstore_alloc(&w->opt.allocator, ncap * sizeof *n);
    if (!n) return ASMSTORE_ERR_OUT_OF_MEMORY;
    if (w->count) memcpy(n, w->entries, w->count * sizeof *n);
    asmstore_free(&w->opt.allocator, w->entries, w->cap * sizeof *n);
    w->entries = n;
    w->cap = ncap;
    return ASMSTORE_OK;
}

/* e's name, image, pdb and config: the caller's bytes (BORROW, TAKE) or copies. ok: 0 when a copy
   failed. */
ASMSTORE__PRIVATE void asmstore__hold_bytes(asmstore_writer *w, asmstore__wentry *e,
                                            const asmstore_add *a, int *ok) {
    e->name = (char *)asmstore__dup(w, a->name, a->name_len, ok);
    e->name_len = a->name_len;
    if (a->flags & (ASMSTORE_ADD_BORROW | ASMSTORE__ADD_TAKE)) {
        e->image = (const unsigned char *)a->image;
        e->pdb = (const unsigned char *)a->pdb;
        e->config = (const unsigned char *)a->config;
        if (a->flags & ASMSTORE__ADD_TAKE)
            e->owns = ASMSTORE__OWNS_IMAGE | ASMSTORE__OWNS_PDB | ASMSTORE__OWNS_CONFIG;
    } else {
        e->image = asmstore__dup(w, a->image, a->image_size, ok);
        e->pdb = asmstore__dup(w, a->pdb, a->pdb_size, ok);
        e->config = asmstore__dup(w, a->config, a->config_size, ok);
        e->owns = ASMSTORE__OWNS_IMAGE | ASMSTORE__OWNS_PDB | ASMSTORE__OWNS_CONFIG;
    }
    e->image_size = a->image_size;
    e->pdb_size = a->pdb_size;
    e->config_size = a->config_size;
}

/* Appends one entry (checks done by the caller). Ignored entries come with ASMSTORE_ADD_IGNORED. */
ASMSTORE__PRIVATE asmstore_result asmstore__push(asmstore_writer *w, const asmstore_add *a) {
    asmstore__wentry e;
    unsigned flags = a->flags;
    int ok = 1;

    if (asmstore__grow_entries(w) != ASMSTORE_OK) return ASMSTORE_ERR_OUT_OF_MEMORY;
    memset(&e, 0, sizeof e);
    asmstore__hold_bytes(w, &e, a, &ok);
    e.flags = flags;
    e.abi = a->abi;
    e.level = a->level;
    e.ignored = (flags & ASMSTORE_ADD_IGNORED) != 0;
    e.compressed = !e.ignored && asmstore__stores_compressed(w, (const unsigned char *)a->image,
                                                             a->image_size, flags);
    if (!ok) {
        if (flags & ASMSTORE__ADD_TAKE) e.owns = 0; /* on failure the caller keeps its buffers */
        asmstore__wentry_free(w, &e);
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    }

    if (!e.ignored)
        e.mapping = (flags & ASMSTORE_ADD_MAPPING_INDEX) ? a->mapping_index : w->real_count;
    w->real_count += !e.ignored;
    if (e.compressed) {
        if (flags & ASMSTORE_ADD_DESCRIPTOR_INDEX)
            e.descriptor_index = a->descriptor_index;
        else if (flags & ASMSTORE_ADD_VERBATIM)
            e.descriptor_index = asmstore__rd32(e.image + 4);
        else
            e.descriptor_index = w->compressed_count;
        w->compressed_count++;
    }
    w->entries[w->count++] = e;
    return ASMSTORE_OK;
}

/* The name set's slot holding (abi, name), or the empty slot where it would go. */
ASMSTORE__PRIVATE size_t asmstore__name_slot(const uint32_t *set, size_t cap,
                                             const asmstore__wentry *entries, const char *name,
                                             size_t len, asmstore_abi abi) {
    size_t mask = cap - 1, i = (size_t)(asmstore_xxh3_64(name, len) + (uint64_t)abi) & mask;
    for (;; i = (i + 1) & mask) {
        const asmstore__wentry *e;
        if (set[i] == 0) return i;
        e = &entries[set[i] - 1];
        if (e->abi == abi && e->name_len == len && memcmp(e->name, name, len) == 0) return i;
    }
}

/* Is this exact name already in the writer (in the same store set part)? O(1) expected. */
ASMSTORE__PRIVATE int asmstore__has_name(const asmstore_writer *w, const char *name, size_t len,
                                         asmstore_abi abi) {
    if (!w->name_set_cap) return 0;
    return w->name_set[asmstore__name_slot(w->name_set, w->name_set_cap, w->entries, name, len,
                                           abi)] != 0;
}

/* Makes room in the name set for `total` names (rehashing every entry when it grows). */
ASMSTORE__PRIVATE asmstore_result asmstore__reserve_names(asmstore_writer *w, size_t total) {
    size_t cap = w->name_set_cap ? w->name_set_cap : 64, i;
    uint32_t *set;
    while (cap < 2 * total) cap *= 2;
    if (cap == w->name_set_cap) return ASMSTORE_OK;
    set = (uint32_t *)asmstore_alloc(&w->opt.allocator, cap * sizeof *set);
    if (!set) return ASMSTORE_ERR_OUT_OF_MEMORY;
    memset(set, 0, cap * sizeof *set);
    for (i = 0; i < w->count; i++) {
        const asmstore__wentry *e = &w->entries[i];
        set[asmstore__name_slot(set, cap, w->entries, e->name, e->name_len, e->abi)] =
            (uint32_t)(i + 1);
    }
    asmstore_free(&w->opt.allocator, w->name_set, w->name_set_cap * sizeof *set);
    w->name_set = set;
    w->name_set_cap = cap;
    return ASMSTORE_OK;
}

/* Records entry `index` (already in entries[], room reserved) in the name set. */
ASMSTORE__PRIVATE void asmstore__remember_name(asmstore_writer *w, size_t index) {
    const asmstore__wentry *e = &w->entries[index];
    size_t slot =
        asmstore__name_slot(w->name_set, w->name_set_cap, w->entries, e->name, e->name_len, e->abi);
    w->name_set[slot] = (uint32_t)(index + 1);
}

/* The per-entry options against the store's. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_add(const asmstore_writer *w,
                                                      const asmstore_add *a, asmstore_error *err) {
    const unsigned char *image = (const unsigned char *)a->image;
    unsigned f = a->flags;
    uint32_t config_max = UINT32_MAX - (w->opt.format == 1 ? 1u : 0u);

    if ((a->level && !asmstore__level_ok(w->opt.compression, a->level)) ||
        !asmstore__abi_in_range(a->abi) || (a->abi != ASMSTORE_ABI_UNKNOWN && w->opt.format != 1) ||
        (w->opt.format == 1 && (f & (ASMSTORE_ADD_MAPPING_INDEX | ASMSTORE_ADD_IGNORED))))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "add options: level, abi (format 1 only) or flags for this format");
    if ((f & ASMSTORE_ADD_IGNORED) &&
        (w->opt.format < 3 || a->image_size || a->pdb_size || a->config_size ||
         (f &
          (ASMSTORE_ADD_DESCRIPTOR_INDEX | ASMSTORE_ADD_MAPPING_INDEX | ASMSTORE_ADD_VERBATIM))))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "ignored entry: formats 3-4, no bytes, no indices");
    if ((f & ASMSTORE_ADD_VERBATIM) && asmstore__has_compression_magic(image, a->image_size)) {
        if (a->image_size < ASMSTORE_IMAGE_HEADER_SIZE)
            return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, 0, -1, 0,
                                  "verbatim image shorter than its 12-byte header");
        if (asmstore__rd32(image) != w->magic) /* a store never mixes magics */
            return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED_COMPRESSION, 0, -1, 0,
                                  "verbatim image's magic is not the store's");
        if ((f & ASMSTORE_ADD_DESCRIPTOR_INDEX) && asmstore__rd32(image + 4) != a->descriptor_index)
            return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 4, -1, 0,
                                  "verbatim image header's descriptor index differs");
    }

    /* format 1 appends a NUL to config data, and its size counts it */
    if (a->image_size > UINT32_MAX || a->pdb_size > UINT32_MAX || a->config_size > config_max)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0,
                              "image, pdb or config of 4 GiB or more");
    return ASMSTORE_OK;
}

/* The entry's arguments and name, then its options against the store's. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_entry(const asmstore_writer *w,
                                                        const asmstore_add *a,
                                                        asmstore_error *err) {
    if (!w || (!a->name && a->name_len) || (!a->image && a->image_size) ||
        (!a->pdb && a->pdb_size) || (!a->config && a->config_size) || w->nouts ||
        (a->flags & ~(ASMSTORE__ADD_PUBLIC | ASMSTORE__ADD_TAKE)))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL writer or bytes with a size, unknown flags, or after finish");
    if (a->name_len == 0 || a->name_len > w->opt.max_name_len ||
        !asmstore__name_valid((const unsigned char *)a->name, a->name_len))
        return asmstore__fail(err, ASMSTORE_ERR_BAD_NAME, 0, -1, 0,
                              "name empty, over max_name_len, or not UTF-8 without NUL");
    return asmstore__check_add(w, a, err);
}

/* The coreclr profile's ignored companion of a: ChangeExtension(name, ".ni.dll") into ni
   (ASMSTORE_MAX_NAME_LEN + 8 bytes); *ni_len 0 when a gets none. */
ASMSTORE__PRIVATE asmstore_result asmstore__companion_name(const asmstore_writer *w,
                                                           const asmstore_add *a, char *ni,
                                                           size_t *ni_len, asmstore_error *err) {
    size_t base;

    *ni_len = 0;
    if (w->opt.runtime != ASMSTORE_RUNTIME_CORECLR || w->opt.no_companions ||
        (a->flags & (ASMSTORE_ADD_IGNORED | ASMSTORE_ADD_NO_COMPANION)))
        return ASMSTORE_OK;
    base = asmstore_name_base_len(a->name, a->name_len);
    if (base + 7 > w->opt.max_name_len)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_NAME, 0, -1, 0,
                              "the coreclr \".ni.dll\" companion's name over max_name_len");
    memcpy(ni, a->name, base);
    memcpy(ni + base, ".ni.dll", 7);
    *ni_len = base + 7;
    if (asmstore__has_name(w, ni, *ni_len, a->abi))
        return asmstore__fail(err, ASMSTORE_ERR_DUPLICATE_NAME, 0, -1, 0,
                              "the coreclr \".ni.dll\" companion's name was added already");
    return ASMSTORE_OK;
}

/* Pushes a and, when ni_len, its ignored companion ni; all or nothing. */
ASMSTORE__PRIVATE asmstore_result asmstore__push_pair(asmstore_writer *w, const asmstore_add *a,
                                                      const char *ni, size_t ni_len) {
    asmstore_add ign;
    asmstore__wentry *e;
    asmstore_result res = asmstore__push(w, a);

    if (res != ASMSTORE_OK || !ni_len) return res;
    memset(&ign, 0, sizeof ign);
    ign.name = ni;
    ign.name_len = ni_len;
    ign.flags = ASMSTORE_ADD_IGNORED;
    res = asmstore__push(w, &ign);
    if (res == ASMSTORE_OK) return res;

    e = &w->entries[--w->count];
    if (a->flags & ASMSTORE__ADD_TAKE) e->owns = 0; /* on failure the caller keeps its buffers */
    w->real_count--;
    w->compressed_count -= e->compressed ? 1u : 0u;
    asmstore__wentry_free(w, e);
    return res;
}

ASMSTORE_DEF asmstore_result asmstore_writer_add(asmstore_writer *w, const asmstore_add *entry,
                                                 asmstore_error *err) {
    char ni[ASMSTORE_MAX_NAME_LEN + 8];
    size_t ni_len = 0;
    asmstore_add a;
    asmstore_result res;

    if (!entry) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL entry");
    a = *entry;
    if (a.name && !a.name_len) a.name_len = strlen(a.name);
    if ((res = asmstore__check_entry(w, &a, err)) != ASMSTORE_OK) return res;
    if ((res = asmstore__companion_name(w, &a, ni, &ni_len, err)) != ASMSTORE_OK) return res;
    if (asmstore__has_name(w, a.name, a.name_len, a.abi) ||
        (ni_len == a.name_len && memcmp(ni, a.name, ni_len) == 0))
        return asmstore__fail(err, ASMSTORE_ERR_DUPLICATE_NAME, 0, -1, 0, "name added already");
    if (w->count + 2 > ASMSTORE_MAX_ENTRIES)
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0,
                              "entries over ASMSTORE_MAX_ENTRIES");
    if ((res = asmstore__reserve_names(w, w->count + 2)) != ASMSTORE_OK)
        return asmstore__fail(err, res, 0, -1, 0, "growing the name set");

    if ((res = asmstore__push_pair(w, &a, ni, ni_len)) != ASMSTORE_OK)
        return asmstore__fail(err, res, 0, -1, 0, "copying the entry");
    asmstore__remember_name(w, w->count - 1 - (ni_len ? 1u : 0u));
    if (ni_len) asmstore__remember_name(w, w->count - 1);
    return ASMSTORE_OK;
}

#ifndef ASMSTORE_NO_STDIO
ASMSTORE_DEF asmstore_result asmstore_writer_add_file(asmstore_writer *w, const asmstore_add *entry,
                                                      const char *image_path, const char *pdb_path,
                                                      const char *config_path,
                                                      asmstore_error *err) {
    void *bufs[3] = {NULL, NULL, NULL};
    size_t sizes[3] = {0, 0, 0};
    const char *paths[3];
    asmstore_add a;
    asmstore_result res = ASMSTORE_OK;
    int i;

    if (!w || !entry || !entry->name || !image_path || entry->image || entry->image_size ||
        entry->pdb || entry->pdb_size || entry->config || entry->config_size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL writer, entry, name or image path, or bytes beside the paths");
    paths[0] = image_path;
    paths[1] = pdb_path;
    paths[2] = config_path;
    for (i = 0; i < 3 && res == ASMSTORE_OK; i++)
        if (paths[i])
            res = asmstore_read_file(paths[i], &w->opt.allocator, &bufs[i], &sizes[i], err);

    /* the writer takes the buffers just read (no second copy); on failure they are still ours */
    a = *entry;
    a.image = bufs[0];
    a.image_size = sizes[0];
    a.pdb = bufs[1];
    a.pdb_size = sizes[1];
    a.config = bufs[2];
    a.config_size = sizes[2];
    a.flags = (a.flags & ~ASMSTORE_ADD_BORROW) | ASMSTORE__ADD_TAKE;
    if (res == ASMSTORE_OK) res = asmstore_writer_add(w, &a, err);
    if (res != ASMSTORE_OK)
        for (i = 0; i < 3; i++) asmstore_free(&w->opt.allocator, bufs[i], sizes[i]);
    return res;
}
#endif

/* >>writer: compression ------------------------------------------------------------------------ */
/* Worst-case compressed size of n bytes: LZ4_COMPRESSBOUND / ZSTD_COMPRESSBOUND. */
ASMSTORE__PRIVATE size_t asmstore__compress_bound(asmstore_compression kind, size_t n) {
    size_t k128 = (size_t)128 << 10;
    if (kind == ASMSTORE_COMPRESSION_LZ4) return n + n / 255u + 16u;
    return n + (n >> 8) + (n < k128 ? (k128 - n) >> 11 : 0u);
}

/* opt.reuse's entries ordered by image size, then content hash. */
static int asmstore__reusable_cmp(const void *a, const void *b) {
    const asmstore__wentry *x = *(const asmstore__wentry *const *)a;
    const asmstore__wentry *y = *(const asmstore__wentry *const *)b;
    if (x->image_size != y->image_size) return x->image_size < y->image_size ? -1 : 1;
    return x->content < y->content ? -1 : (x->content > y->content);
}
/* The level an entry is compressed at. */
ASMSTORE__PRIVATE int asmstore__entry_level(const asmstore_writer *w, const asmstore__wentry *e) {
    return e->level ? e->level : w->opt.level;
}
/* Lists opt.reuse's compressed-here entries for asmstore__reuse_frame (none when its compression
   differs: no payload of it could serve). */
ASMSTORE__PRIVATE asmstore_result asmstore__reusable_list(asmstore_writer *w) {
    const asmstore_writer *src = w->opt.reuse;
    size_t i;
    w->nreusable = 0;
    if (!src || src->opt.compression != w->opt.compression || !src->count) return ASMSTORE_OK;
    w->reusable = (const asmstore__wentry **)asmstore_alloc(&w->opt.allocator,
                                                            src->count * sizeof *w->reusable);
    if (!w->reusable) return ASMSTORE_ERR_OUT_OF_MEMORY;
    for (i = 0; i < src->count; i++)
        if (src->entries[i].frame) w->reusable[w->nreusable++] = &src->entries[i];
    if (w->nreusable) qsort(w->reusable, w->nreusable, sizeof *w->reusable, asmstore__reusable_cmp);
    return ASMSTORE_OK;
}
/* Entry e (its frame's header written, content hashed) takes the payload of an opt.reuse entry
   with the same bytes and level, when there is one: 1 done, 0 compress it. Equal bytes are
   checked, not assumed from the hash. */
ASMSTORE__PRIVATE int asmstore__reuse_frame(asmstore_writer *w, asmstore__wentry *e, int level) {
    size_t lo = 0, hi = w->nreusable;
    while (lo < hi) { /* the first candidate not below e */
        size_t mid = lo + (hi - lo) / 2;
        const asmstore__wentry *c = w->reusable[mid];
        if (c->image_size < e->image_size ||
            (c->image_size == e->image_size && c->content < e->content))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < w->nreusable; lo++) {
        const asmstore__wentry *c = w->reusable[lo];
        size_t payload = c->stored_size - ASMSTORE_IMAGE_HEADER_SIZE;
        if (c->image_size != e->image_size || c->content != e->content) break;
        if (asmstore__entry_level(w->opt.reuse, c) != level ||
            memcmp(c->image, e->image, e->image_size) != 0 ||
            payload > e->frame_cap - ASMSTORE_IMAGE_HEADER_SIZE)
            continue;
        memcpy(e->frame + ASMSTORE_IMAGE_HEADER_SIZE, c->frame + ASMSTORE_IMAGE_HEADER_SIZE,
               payload);
        e->stored = e->frame;
        e->stored_size = c->stored_size;
        e->reused = 1;
        return 1;
    }
    return 0;
}

/* Compresses entry i into its XAZS/XALZ form (or keeps the image when it is stored as it is). */
ASMSTORE__PRIVATE asmstore_result asmstore__compress_one(asmstore_writer *w, size_t i, void *cctx) {
    asmstore__wentry *e = &w->entries[i];
    asmstore_compression kind = w->opt.compression;
    int level = asmstore__entry_level(w, e);
    size_t bound = asmstore__compress_bound(kind, e->image_size), z = 0;
    if (e->ignored) return ASMSTORE_OK;
    if (!e->compressed || (e->flags & ASMSTORE_ADD_VERBATIM)) {
        e->stored = e->image;
        e->stored_size = e->image_size;
        return ASMSTORE_OK;
    }
    if (bound < e->image_size || bound > SIZE_MAX - ASMSTORE_IMAGE_HEADER_SIZE)
        return ASMSTORE_ERR_TOO_LARGE;
    asmstore_free(&w->opt.allocator, e->frame, e->frame_cap); /* from an earlier, failed finish */
    e->reused = 0;
    e->frame_cap = ASMSTORE_IMAGE_HEADER_SIZE + bound;
    e->frame = (unsigned char *)asmstore_alloc(&w->opt.allocator, e->frame_cap);
    if (!e->frame) {
        e->frame_cap = 0;
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    }
    asmstore__wr32(e->frame, w->magic);
    asmstore__wr32(e->frame + 4, e->descriptor_index);
    asmstore__wr32(e->frame + 8, (uint32_t)e->image_size);
    e->content = asmstore_xxh3_64(e->image, e->image_size);
    if (asmstore__reuse_frame(w, e, level)) return ASMSTORE_OK;
#ifndef ASMSTORE_NO_ZSTD
    if (kind == ASMSTORE_COMPRESSION_ZSTD) {
        z = ZSTD_compressCCtx((ZSTD_CCtx *)cctx, e->frame + ASMSTORE_IMAGE_HEADER_SIZE, bound,
                              e->image, e->image_size, level);
        if (ZSTD_isError(z)) return ASMSTORE_ERR_COMPRESS;
    } else
#endif
    {
        asmstore_result res;
        (void)cctx;
        if (!w->opt.compress) return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
        res = w->opt.compress(w->opt.compress_user, kind, level,
                              e->frame + ASMSTORE_IMAGE_HEADER_SIZE, bound, e->image, e->image_size,
                              &z);
        if (res != ASMSTORE_OK) return res;
        if (z > bound) return ASMSTORE_ERR_COMPRESS; /* the callback says it wrote past dst_cap */
    }
    e->stored = e->frame;
    e->stored_size = ASMSTORE_IMAGE_HEADER_SIZE + z;
    return ASMSTORE_OK;
}

/* Worker loop: takes the next entry until none are left; results land in each entry. */
static asmstore__os_thread_ret ASMSTORE__OS_THREAD_CALL asmstore__compress_worker(void *arg) {
    asmstore_writer *w = (asmstore_writer *)arg;
    void *cctx = NULL;
    int need_cctx = 0;

#ifndef ASMSTORE_NO_ZSTD
    need_cctx = w->opt.compression == ASMSTORE_COMPRESSION_ZSTD;
    if (need_cctx) cctx = ZSTD_createCCtx();
#endif
    for (;;) {
        size_t i;
        asmstore_result res;
        ASMSTORE__WRITER_LOCK(w);
        i = w->next_job < w->count ? w->jobs[w->next_job++] : w->count;
        ASMSTORE__WRITER_UNLOCK(w);
        if (i >= w->count) break;
        res = need_cctx && !cctx ? ASMSTORE_ERR_OUT_OF_MEMORY : asmstore__compress_one(w, i, cctx);
        w->entries[i].status = res;
        ASMSTORE__WRITER_LOCK(w);
        w->done_jobs++;
        if (w->opt.progress) w->opt.progress(w->opt.progress_user, w->done_jobs, w->count);
        ASMSTORE__WRITER_UNLOCK(w);
    }
#ifndef ASMSTORE_NO_ZSTD
    ZSTD_freeCCtx((ZSTD_CCtx *)cctx);
#endif
    return 0;
}

/* Job order: largest image first (ties by index), so one big entry does not finish alone at the
   end. */
typedef struct asmstore__job {
    size_t size, index;
} asmstore__job;
static int asmstore__job_cmp(const void *a, const void *b) {
    const asmstore__job *x = (const asmstore__job *)a, *y = (const asmstore__job *)b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* The workers of asmstore__compress_all over every entry (opt.reuse's list made first). */
ASMSTORE__PRIVATE asmstore_result asmstore__run_compression(asmstore_writer *w) {
    const asmstore_allocator *a = &w->opt.allocator;
    size_t i, n = w->count;
    int jobs;
    if (asmstore__reusable_list(w) != ASMSTORE_OK) return ASMSTORE_ERR_OUT_OF_MEMORY;
    {
        asmstore__job *order = (asmstore__job *)asmstore_alloc(a, n * sizeof *order);
        w->jobs = (size_t *)asmstore_alloc(a, n * sizeof *w->jobs);
        if (!order || !w->jobs) {
            asmstore_free(a, order, n * sizeof *order);
            asmstore_free(a, w->jobs, n * sizeof *w->jobs);
            w->jobs = NULL;
            return ASMSTORE_ERR_OUT_OF_MEMORY;
        }
        for (i = 0; i < n; i++) {
            order[i].size = w->entries[i].image_size;
            order[i].index = i;
        }
        if (n) qsort(order, n, sizeof *order, asmstore__job_cmp);
        for (i = 0; i < n; i++) w->jobs[i] = order[i].index;
        asmstore_free(a, order, n * sizeof *order);
    }
    jobs = w->opt.jobs;
    w->next_job = 0;
    w->done_jobs = 0;
#ifndef ASMSTORE_NO_THREADS
    if (jobs == 0) {
        int c = asmstore__os_cpu_count();
        jobs = c > 256 ? 256 : c;
    }
    if ((size_t)jobs > n) jobs = n ? (int)n : 1;
    if (asmstore__os_mutex_init(&w->lock) != 0) {
        asmstore_free(a, w->jobs, n * sizeof *w->jobs);
        w->jobs = NULL;
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    }
    {
        asmstore__os_thread th[256];
        int started = 0, t;
        for (t = 1; t < jobs && t < 256; t++) {
            if (asmstore__os_thread_start(&th[started], asmstore__compress_worker, w) != 0) break;
            started++;
        }
        asmstore__compress_worker(w);
        for (t = 0; t < started; t++) asmstore__os_thread_join(th[t]);
    }
    asmstore__os_mutex_destroy(&w->lock);
#else
    (void)jobs;
    asmstore__compress_worker(w);
#endif
    asmstore_free(a, w->jobs, n * sizeof *w->jobs);
    w->jobs = NULL;
    return ASMSTORE_OK;
}

/* Compresses every entry, N workers pulling entries largest first; each result depends only on its
   entry, so the bytes never depend on the thread count. */
ASMSTORE__PRIVATE asmstore_result asmstore__compress_all(asmstore_writer *w) {
    asmstore_result res = asmstore__run_compression(w);
    size_t i;
    asmstore_free(&w->opt.allocator, w->reusable,
                  w->opt.reuse ? w->opt.reuse->count * sizeof *w->reusable : 0);
    w->reusable = NULL;
    w->nreusable = 0;
    if (res != ASMSTORE_OK) return res;
    for (i = 0; i < w->count; i++)
        if (w->entries[i].status != ASMSTORE_OK) return w->entries[i].status;
    return ASMSTORE_OK;
}

/* >>writer: layout ----------------------------------------------------------------------------- */
static int asmstore__u32_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : (x > y);
}

/* Two compressed entries with one descriptor index would load each other's bytes
   (docs/store-releases.md §3.4): refused. */
ASMSTORE__PRIVATE asmstore_result asmstore__check_descriptor_indices(asmstore_writer *w) {
    const asmstore_allocator *a = &w->opt.allocator;
    size_t i, k = 0;
    uint32_t *v = (uint32_t *)asmstore_alloc(a, w->count * sizeof *v);
    asmstore_result res = ASMSTORE_OK;
    if (!v) return ASMSTORE_ERR_OUT_OF_MEMORY;
    for (i = 0; i < w->count; i++)
        if (w->entries[i].compressed) v[k++] = w->entries[i].descriptor_index;
    if (k) qsort(v, k, sizeof *v, asmstore__u32_cmp);
    for (i = 1; i < k; i++)
        if (v[i] == v[i - 1]) res = ASMSTORE_ERR_INVALID_ARG;
    asmstore_free(a, v, w->count * sizeof *v);
    return res;
}

/* Where one entry's blobs go, from `off` on: the image at the next multiple of the alignment, then
   the pdb, then the config (+ one NUL in format 1). d[] = image, pdb, config as offset/size pairs
   (0/0 when absent; all zero for ignored entries). Returns the end. */
ASMSTORE__PRIVATE uint64_t asmstore__place(const asmstore_writer *w, const asmstore__wentry *e,
                                           uint64_t off, uint64_t d[6]) {
    uint64_t align = w->opt.image_alignment;
    uint64_t config = e->config_size ? e->config_size + (w->opt.format == 1 ? 1u : 0u) : 0u;
    memset(d, 0, 6 * sizeof *d);
    if (e->ignored) return off;
    off = (off + align - 1) & ~(align - 1);
    d[0] = off;
    d[1] = e->stored_size;
    off += e->stored_size;
    if (e->pdb_size) {
        d[2] = off;
        d[3] = e->pdb_size;
        off += e->pdb_size;
    }
    if (config) {
        d[4] = off;
        d[5] = config;
        off += config;
    }
    return off;
}
/* Copies a placed entry's blobs into the store (padding and the config's NUL are already zero). */
ASMSTORE__PRIVATE void asmstore__put(unsigned char *o, const asmstore__wentry *e,
                                     const uint64_t d[6]) {
    if (d[1]) memcpy(o + d[0], e->stored, (size_t)d[1]);
    if (d[3]) memcpy(o + d[2], e->pdb, (size_t)d[3]);
    if (d[5]) memcpy(o + d[4], e->config, e->config_size);
}
/* A zeroed output buffer of `total` bytes (refused past the format's 32-bit offsets). */
ASMSTORE__PRIVATE asmstore_result asmstore__new_output(asmstore_writer *w, const char *name,
                                                       uint64_t total) {
    asmstore__output *out = &w->outs[w->nouts];
    if (total > UINT32_MAX || total > (uint64_t)(SIZE_MAX / 2)) return ASMSTORE_ERR_TOO_LARGE;
    out->data = (unsigned char *)asmstore_alloc(&w->opt.allocator, (size_t)total);
    if (!out->data) return ASMSTORE_ERR_OUT_OF_MEMORY;
    memset(out->data, 0, (size_t)total);
    out->name = name;
    out->size = out->cap = (size_t)total;
    w->nouts++;
    return ASMSTORE_OK;
}

typedef struct asmstore__windex {
    uint64_t hash;
    uint32_t desc;
    uint32_t order;
    unsigned char ignore;
} asmstore__windex;

static int asmstore__windex_cmp(const void *a, const void *b) {
    const asmstore__windex *x = (const asmstore__windex *)a, *y = (const asmstore__windex *)b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    if (x->desc != y->desc) return x->desc < y->desc ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order);
}

/* The index of formats 2-4 at p from idx (2 rows per entry): each name with and without its last
   extension, sorted by hash (ties: descriptor, then the full name first). */
ASMSTORE__PRIVATE void asmstore__write_index(const asmstore_writer *w, asmstore__windex *idx,
                                             unsigned char *p, size_t esize) {
    size_t hsize = w->opt.hash == ASMSTORE_HASH_XXH3_64 ? 8u : 4u;
    size_t i, n = w->count;

    for (i = 0; i < n; i++) {
        const asmstore__wentry *e = &w->entries[i];
        size_t base = asmstore_name_base_len(e->name, e->name_len);
        idx[2 * i].hash = asmstore_name_hash(w->opt.hash, e->name, e->name_len);
        idx[2 * i + 1].hash = asmstore_name_hash(w->opt.hash, e->name, base);
        idx[2 * i].desc = (uint32_t)i;
        idx[2 * i + 1].desc = (uint32_t)i;
        idx[2 * i].order = 0;
        idx[2 * i + 1].order = 1;
        idx[2 * i].ignore = (unsigned char)e->ignored;
        idx[2 * i + 1].ignore = (unsigned char)e->ignored;
    }
    if (n) qsort(idx, 2 * n, sizeof *idx, asmstore__windex_cmp);

    for (i = 0; i < 2 * n; i++, p += esize) {
        if (hsize == 8)
            asmstore__wr64(p, idx[i].hash);
        else
            asmstore__wr32(p, (uint32_t)idx[i].hash);
        asmstore__wr32(p + hsize, idx[i].desc);
        if (esize > hsize + 4) p[hsize + 4] = idx[i].ignore;
    }
}

/* The descriptors (from desc_at in store o), names and data of formats 2-4. */
ASMSTORE__PRIVATE void asmstore__write_entries(const asmstore_writer *w, unsigned char *o,
                                               uint64_t desc_at, uint64_t data_start) {
    unsigned char *desc = o + desc_at;
    unsigned char *names = desc + w->count * ASMSTORE_DESCRIPTOR_SIZE;
    uint64_t off = data_start, d[6];
    size_t i;
    int k;

    for (i = 0; i < w->count; i++, desc += ASMSTORE_DESCRIPTOR_SIZE) {
        const asmstore__wentry *e = &w->entries[i];
        asmstore__wr32(names, (uint32_t)e->name_len);
        memcpy(names + 4, e->name, e->name_len);
        names += 4 + e->name_len;
        off = asmstore__place(w, e, off, d);
        if (e->ignored) continue; /* all-zero descriptor */
        asmstore__wr32(desc, e->mapping);
        for (k = 0; k < 6; k++) asmstore__wr32(desc + 4 + 4 * k, (uint32_t)d[k]);
        asmstore__put(o, e, d);
    }
    ASMSTORE_ASSERT(off == w->outs[0].size);
}

/* Formats 2-4: [header][index][descriptors][names][data], one store. */
ASMSTORE__PRIVATE asmstore_result asmstore__layout(asmstore_writer *w) {
    const asmstore_allocator *a = &w->opt.allocator;
    size_t i, n = w->count;
    size_t header = w->opt.format >= 4 ? ASMSTORE_HEADER_SIZE_V4 : ASMSTORE_HEADER_SIZE_V2;
    size_t esize = asmstore__index_entry_size(w->opt.format, w->opt.hash);
    uint64_t names_size = 0, index_size = (uint64_t)2 * n * esize, data_start, off, d[6];
    asmstore__windex *idx;
    unsigned char *o;
    asmstore_result res;

    for (i = 0; i < n; i++) names_size += 4u + w->entries[i].name_len;
    data_start = header + index_size + (uint64_t)n * ASMSTORE_DESCRIPTOR_SIZE + names_size;
    for (off = data_start, i = 0; i < n; i++) off = asmstore__place(w, &w->entries[i], off, d);
    idx = (asmstore__windex *)asmstore_alloc(a, 2 * n * sizeof *idx);
    if (!idx) return ASMSTORE_ERR_OUT_OF_MEMORY;
    if ((res = asmstore__new_output(w, NULL, off)) != ASMSTORE_OK) {
        asmstore_free(a, idx, 2 * n * sizeof *idx);
        return res;
    }

    o = w->outs[0].data;
    asmstore__wr32(o, ASMSTORE_MAGIC);
    asmstore__wr32(o + 4, asmstore__version_word(w->opt.format, w->opt.abi));
    asmstore__wr32(o + 8, (uint32_t)n);
    asmstore__wr32(o + 12, (uint32_t)(2 * n));
    asmstore__wr32(o + 16, (uint32_t)index_size);
    asmstore__write_index(w, idx, o + header, esize);
    asmstore_free(a, idx, 2 * n * sizeof *idx);
    asmstore__write_entries(w, o, header + index_size, data_start);
    if (w->opt.format >= 4) asmstore__wr64(o + 20, asmstore_xxh3_64(o + 28, w->outs[0].size - 28));
    return ASMSTORE_OK;
}

/* >>writer: format 1 sets ---------------------------------------------------------------------- */
/* Format 1 (.NET 6-8): store 0 with the common entries and both hash tables, one arch store per
   ABI, assemblies.manifest (docs/store-releases.md §2). */

/* One row of the global hash tables; `mapping` is its place in global order (common, then arch). */
typedef struct asmstore__v1row {
    uint64_t hash;
    uint32_t entry, mapping, local, store_id;
} asmstore__v1row;
static int asmstore__v1row_cmp(const void *a, const void *b) {
    const asmstore__v1row *x = (const asmstore__v1row *)a, *y = (const asmstore__v1row *)b;
    return x->hash < y->hash ? -1 : (x->hash > y->hash);
}
/* Length of the name as format 1 hashes it: without a final ".dll". */
ASMSTORE__PRIVATE size_t asmstore__v1_name_len(const asmstore__wentry *e) {
    return e->name_len > 4 && memcmp(e->name + e->name_len - 4, ".dll", 4) == 0 ? e->name_len - 4
                                                                                : e->name_len;
}
/* Does ABI b's arch store list the same names in the same order as ABI a's? */
ASMSTORE__PRIVATE int asmstore__v1_same_arch(const asmstore_writer *w, asmstore_abi a,
                                             asmstore_abi b) {
    size_t i = 0, j = 0;
    for (;; i++, j++) {
        while (i < w->count && w->entries[i].abi != a) i++;
        while (j < w->count && w->entries[j].abi != b) j++;
        if (i == w->count || j == w->count) return i == w->count && j == w->count;
        if (w->entries[i].name_len != w->entries[j].name_len ||
            memcmp(w->entries[i].name, w->entries[j].name, w->entries[i].name_len) != 0)
            return 0;
    }
}
/* The ABIs with arch entries, as a bit set over asmstore_abi (bit 1 = arm64 ...). */
ASMSTORE__PRIVATE unsigned asmstore__v1_abis(const asmstore_writer *w) {
    unsigned set = 0;
    size_t i;
    for (i = 0; i < w->count; i++) set |= 1u << (unsigned)w->entries[i].abi;
    return set & ~1u;
}

/* A compressed entry's sort key: %(DestinationSubPath), "<abi>/" before arch names in multi-ABI
   sets. */
typedef struct asmstore__v1key {
    const char *key;
    size_t len, entry;
} asmstore__v1key;
static int asmstore__v1key_cmp(const void *a, const void *b) {
    const asmstore__v1key *x = (const asmstore__v1key *)a, *y = (const asmstore__v1key *)b;
    int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->entry < y->entry ? -1 : (x->entry > y->entry);
}

/* .NET 6-8 numbered the compressed assemblies of all ABIs by an ordinal sort of their destination
   paths (byte order of UTF-8, which is .NET's UTF-16 order for every name outside U+E000..U+FFFF
   against supplementary characters). Entries with an explicit index keep it. */
ASMSTORE__PRIVATE asmstore_result asmstore__v1_descriptor_indices(asmstore_writer *w,
                                                                  int multi_abi) {
    const asmstore_allocator *a = &w->opt.allocator;
    size_t i, k = 0, bytes = 0, used = 0;
    asmstore__v1key *keys;
    char *buf;
    for (i = 0; i < w->count; i++) bytes += w->entries[i].name_len + 16u;
    keys = (asmstore__v1key *)asmstore_alloc(a, w->count * sizeof *keys);
    buf = (char *)asmstore_alloc(a, bytes);
    if (!keys || !buf) {
        asmstore_free(a, keys, w->count * sizeof *keys);
        asmstore_free(a, buf, bytes);
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    }
    for (i = 0; i < w->count; i++) {
        const asmstore__wentry *e = &w->entries[i];
        size_t dir = 0;
        if (!e->compressed) continue;
        if (e->abi != ASMSTORE_ABI_UNKNOWN && multi_abi) {
            const char *abi = asmstore_abi_android_name(e->abi);
            dir = strlen(abi);
            memcpy(buf + used, abi, dir);
            buf[used + dir++] = '/';
        }
        memcpy(buf + used + dir, e->name, e->name_len);
        keys[k].key = buf + used;
        keys[k].len = dir + e->name_len;
        keys[k].entry = i;
        used += keys[k].len;
        k++;
    }
    if (k) qsort(keys, k, sizeof *keys, asmstore__v1key_cmp);
    for (i = 0; i < k; i++) {
        asmstore__wentry *e = &w->entries[keys[i].entry];
        if (!(e->flags & (ASMSTORE_ADD_DESCRIPTOR_INDEX | ASMSTORE_ADD_VERBATIM)))
            e->descriptor_index = (uint32_t)i;
    }
    asmstore_free(a, keys, w->count * sizeof *keys);
    asmstore_free(a, buf, bytes);
    return ASMSTORE_OK;
}

/* Checks the ABIs' arch stores agree and numbers the compressed entries (before compression). */
ASMSTORE__PRIVATE asmstore_result asmstore__v1_prepare(asmstore_writer *w) {
    unsigned abis = asmstore__v1_abis(w), first = 0, b;
    for (b = 1; b < ASMSTORE__ABI_COUNT; b++) {
        if (!(abis & (1u << b))) continue;
        if (!first)
            first = b;
        else if (!asmstore__v1_same_arch(w, (asmstore_abi)first, (asmstore_abi)b))
            return ASMSTORE_ERR_BAD_COUNTS;
    }
    return asmstore__v1_descriptor_indices(w, (abis & (abis - 1)) != 0);
}

/* Writes one format 1 store: the entries of `abi` (UNKNOWN: the common ones), and in store 0 the
   two hash tables (rows32/rows64 sorted, g rows each). */
ASMSTORE__PRIVATE asmstore_result asmstore__v1_store(asmstore_writer *w, asmstore_abi abi,
                                                     const asmstore__v1row *rows32,
                                                     const asmstore__v1row *rows64, size_t g) {
    uint64_t off, d[6];
    size_t i, local = 0, r;
    unsigned char *o, *desc, *p;
    asmstore_result res;
    int k;
    for (i = 0; i < w->count; i++) local += w->entries[i].abi == abi;
    off = ASMSTORE__V1_HEADER_SIZE + (uint64_t)local * ASMSTORE__V1_DESCRIPTOR_SIZE +
          (uint64_t)2 * g * ASMSTORE__V1_ROW_SIZE;
    for (i = 0; i < w->count; i++)
        if (w->entries[i].abi == abi) off = asmstore__place(w, &w->entries[i], off, d);
    if ((res = asmstore__new_output(w, asmstore__abi(abi)->v1_store_file, off)) != ASMSTORE_OK)
        return res;
    o = w->outs[w->nouts - 1].data;
    asmstore__wr32(o, ASMSTORE_MAGIC);
    asmstore__wr32(o + 4, 1);
    asmstore__wr32(o + 8, (uint32_t)local);
    asmstore__wr32(o + 12, (uint32_t)g);
    asmstore__wr32(o + 16, abi == ASMSTORE_ABI_UNKNOWN ? 0u : 1u);
    p = o + ASMSTORE__V1_HEADER_SIZE + local * ASMSTORE__V1_DESCRIPTOR_SIZE;
    for (r = 0; r < 2 * g; r++, p += ASMSTORE__V1_ROW_SIZE) {
        const asmstore__v1row *row = r < g ? &rows32[r] : &rows64[r - g];
        asmstore__wr64(p, row->hash);
        asmstore__wr32(p + 8, row->mapping);
        asmstore__wr32(p + 12, row->local);
        asmstore__wr32(p + 16, row->store_id);
    }
    off = (uint64_t)(p - o);
    desc = o + ASMSTORE__V1_HEADER_SIZE;
    for (i = 0; i < w->count; i++) {
        const asmstore__wentry *e = &w->entries[i];
        if (e->abi != abi) continue;
        off = asmstore__place(w, e, off, d);
        for (k = 0; k < 6; k++) asmstore__wr32(desc + 4 * k, (uint32_t)d[k]);
        desc += ASMSTORE__V1_DESCRIPTOR_SIZE;
        asmstore__put(o, e, d);
    }
    ASMSTORE_ASSERT(off == w->outs[w->nouts - 1].size);
    return ASMSTORE_OK;
}

ASMSTORE__PRIVATE char *asmstore__put_hex(char *p, uint64_t v, int digits) {
    while (digits-- > 0) *p++ = "0123456789abcdef"[(v >> (4 * digits)) & 15u];
    return p;
}
ASMSTORE__PRIVATE char *asmstore__put_dec(char *p, uint32_t v, int min_digits) {
    char t[10];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v || n < min_digits);
    while (n) *p++ = t[--n];
    return p;
}

/* assemblies.manifest: a column header, then one line per assembly in global (mapping) order. */
ASMSTORE__PRIVATE asmstore_result asmstore__v1_manifest(asmstore_writer *w,
                                                        const asmstore__v1row *rows, size_t g) {
    static const char head[] = "Hash 32     Hash 64             Blob ID  Blob idx  Name\n";
    asmstore__output *out = &w->outs[w->nouts];
    size_t i, cap = sizeof head;
    char *p;
    for (i = 0; i < g; i++) cap += 70u + w->entries[rows[i].entry].name_len;
    p = (char *)asmstore_alloc(&w->opt.allocator, cap);
    if (!p) return ASMSTORE_ERR_OUT_OF_MEMORY;
    out->data = (unsigned char *)p;
    out->cap = cap;
    out->name = ASMSTORE__V1_MANIFEST;
    memcpy(p, head, sizeof head - 1);
    p += sizeof head - 1;
    for (i = 0; i < g; i++) {
        const asmstore__wentry *e = &w->entries[rows[i].entry];
        size_t len = asmstore__v1_name_len(e);
        *p++ = '0';
        *p++ = 'x';
        p = asmstore__put_hex(p, (uint32_t)XXH32(e->name, len, 0), 8);
        memcpy(p, "  0x", 4);
        p += 4;
        p = asmstore__put_hex(p, (uint64_t)XXH64(e->name, len, 0), 16);
        memcpy(p, "  ", 2);
        p += 2;
        p = asmstore__put_dec(p, rows[i].store_id, 3);
        memcpy(p, "      ", 6);
        p += 6;
        p = asmstore__put_dec(p, rows[i].local, 4);
        memcpy(p, "      ", 6);
        p += 6;
        memcpy(p, e->name, len);
        p += len;
        *p++ = '\n';
    }
    out->size = (size_t)(p - (char *)out->data);
    w->nouts++;
    return ASMSTORE_OK;
}

/* Sorts a copy of the global rows by one hash; equal hashes make the build fail upstream, so
   here. */
ASMSTORE__PRIVATE asmstore_result asmstore__v1_table(const asmstore_writer *w,
                                                     const asmstore__v1row *global, size_t g,
                                                     int wide, asmstore__v1row *t) {
    size_t i;
    for (i = 0; i < g; i++) {
        const asmstore__wentry *e = &w->entries[global[i].entry];
        size_t len = asmstore__v1_name_len(e);
        t[i] = global[i];
        t[i].hash = wide ? (uint64_t)XXH64(e->name, len, 0) : (uint64_t)XXH32(e->name, len, 0);
    }
    if (g) qsort(t, g, sizeof *t, asmstore__v1row_cmp);
    for (i = 1; i < g; i++)
        if (t[i].hash == t[i - 1].hash) return ASMSTORE_ERR_DUPLICATE_NAME;
    return ASMSTORE_OK;
}

ASMSTORE__PRIVATE asmstore_result asmstore__layout_v1(asmstore_writer *w) {
    const asmstore_allocator *a = &w->opt.allocator;
    unsigned abis = asmstore__v1_abis(w), b, first = 0;
    size_t i, g = 0, local[ASMSTORE__ABI_COUNT] = {0, 0, 0, 0, 0};
    asmstore__v1row *rows = (asmstore__v1row *)asmstore_alloc(a, 3 * w->count * sizeof *rows);
    asmstore_result res;
    if (!rows) return ASMSTORE_ERR_OUT_OF_MEMORY;
    for (b = 1; b < ASMSTORE__ABI_COUNT && !first; b++)
        if (abis & (1u << b)) first = b;
    /* global order: the common entries, then the arch entries once (those of the first ABI) */
    for (i = 0; i < w->count; i++) {
        const asmstore__wentry *e = &w->entries[i];
        if (e->abi != ASMSTORE_ABI_UNKNOWN) continue;
        rows[g].entry = (uint32_t)i;
        rows[g].mapping = (uint32_t)g;
        rows[g].local = (uint32_t)local[0]++;
        rows[g].store_id = 0;
        g++;
    }
    for (i = 0; i < w->count; i++) {
        const asmstore__wentry *e = &w->entries[i];
        if (first == 0 || e->abi != (asmstore_abi)first) continue;
        rows[g].entry = (uint32_t)i;
        rows[g].mapping = (uint32_t)g;
        rows[g].local = (uint32_t)local[first]++;
        rows[g].store_id = 1;
        g++;
    }
    res = asmstore__v1_table(w, rows, g, 0, rows + g);
    if (res == ASMSTORE_OK) res = asmstore__v1_table(w, rows, g, 1, rows + 2 * g);
    if (res == ASMSTORE_OK)
        res = asmstore__v1_store(w, ASMSTORE_ABI_UNKNOWN, rows + g, rows + 2 * g, g);
    for (b = 1; b < ASMSTORE__ABI_COUNT && res == ASMSTORE_OK; b++)
        if (abis & (1u << b)) res = asmstore__v1_store(w, (asmstore_abi)b, NULL, NULL, 0);
    if (res == ASMSTORE_OK) res = asmstore__v1_manifest(w, rows, g);
    asmstore_free(a, rows, 3 * w->count * sizeof *rows);
    return res;
}

/* >>writer: finish ----------------------------------------------------------------------------- */
/* Drops the outputs of a finish that failed half way. */
ASMSTORE__PRIVATE void asmstore__free_outputs(asmstore_writer *w) {
    size_t i;
    for (i = 0; i < w->nouts; i++)
        asmstore_free(&w->opt.allocator, w->outs[i].data, w->outs[i].cap);
    memset(w->outs, 0, sizeof w->outs);
    w->nouts = 0;
}

ASMSTORE_DEF asmstore_result asmstore_writer_finish(asmstore_writer *w, const void **data,
                                                    size_t *size, asmstore_error *err) {
    asmstore_result res = ASMSTORE_OK;
    const char *step = "format 1: every ABI's arch entries with the same names in the same order";
    int64_t entry = -1;
    size_t i;
    if (!w || !data || !size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL writer or output");
    if (!w->nouts) {
        if (w->count > ASMSTORE_MAX_ENTRIES)
            return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0,
                                  "entries over ASMSTORE_MAX_ENTRIES");
        if (w->opt.format == 1) res = asmstore__v1_prepare(w);
        if (res == ASMSTORE_OK) {
            step = "descriptor indices: two compressed entries with one";
            res = asmstore__check_descriptor_indices(w);
        }
        if (res == ASMSTORE_OK) {
            step = "compressing an image";
            res = asmstore__compress_all(w);
            for (i = 0; res != ASMSTORE_OK && entry < 0 && i < w->count; i++)
                if (w->entries[i].status != ASMSTORE_OK) entry = (int64_t)i;
        }
        if (res == ASMSTORE_OK) {
            step =
                "laying out the store: over 4 GiB, or format 1 names whose XXH32 or XXH64 collide";
            res = w->opt.format == 1 ? asmstore__layout_v1(w) : asmstore__layout(w);
        }
        if (res != ASMSTORE_OK) {
            asmstore__free_outputs(w);
            return asmstore__fail(err, res, 0, entry, 0, step);
        }
    }
    *data = w->outs[0].data;
    *size = w->outs[0].size;
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_writer_output(const asmstore_writer *w, size_t i,
                                                    const char **name, const void **data,
                                                    size_t *size, asmstore_error *err) {
    if (!w || !name || !data || !size || !w->nouts)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL writer or output, or before a successful finish");
    if (i >= w->nouts)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0,
                              "output index past the last file");
    *name = w->outs[i].name;
    *data = w->outs[i].data;
    *size = w->outs[i].size;
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_writer_entry(const asmstore_writer *w, size_t i,
                                                   asmstore_written *out, asmstore_error *err) {
    const asmstore__wentry *e;
    if (!w || !out || !w->nouts)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL writer or output, or before a successful finish");
    if (i >= w->count)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0, "entry index past the last");
    e = &w->entries[i];
    memset(out, 0, sizeof *out);
    out->name = e->name;
    out->name_len = e->name_len;
    out->abi = e->abi;
    out->ignored = e->ignored;
    out->reused = e->reused;
    out->descriptor_index = e->compressed && !e->ignored ? e->descriptor_index
                                                         : ASMSTORE_NO_DESCRIPTOR;
    out->mapping_index = w->opt.format == 1 || e->ignored ? UINT32_MAX : e->mapping;
    out->image_size = e->image_size;
    out->stored_size = e->stored_size;
    out->pdb_size = e->pdb_size;
    out->config_size = e->config_size;
    return ASMSTORE_OK;
}

ASMSTORE_DEF void asmstore_writer_free(asmstore_writer *w) {
    asmstore_allocator a;
    size_t i;
    if (!w) return;
    a = w->opt.allocator;
    for (i = 0; i < w->count; i++) asmstore__wentry_free(w, &w->entries[i]);
    asmstore__free_outputs(w);
    asmstore_free(&a, w->entries, w->cap * sizeof *w->entries);
    asmstore_free(&a, w->name_set, w->name_set_cap * sizeof *w->name_set);
    asmstore_free(&a, w, sizeof *w);
}

/* >>presets ------------------------------------------------------------------------------------ */
/* What each release ships (docs/store-releases.md §1.1, §1.2, §4). */
static const char *const asmstore__target_names[7] = {
    "none", "net8", "net9", "net10", "net11", "net11-preview", "net12"};

ASMSTORE_DEF const char *asmstore_target_name(asmstore_target target) {
    return asmstore__target_names[(unsigned)target <= 6u ? (unsigned)target : 0u];
}
ASMSTORE_DEF asmstore_target asmstore_target_parse(const char *name) {
    unsigned i;
    for (i = 1; name && i <= 6; i++)
        if (!strcmp(name, asmstore__target_names[i])) return (asmstore_target)i;
    return ASMSTORE_TARGET_NONE;
}

/* LZ4 HC L09_HC (6-8), L12_MAX (9, 10); zstd 22 in optimised GA (and main) builds, 3 in 11
   p7/rc1 */
ASMSTORE_DEF int asmstore_release_level(uint32_t format, asmstore_compression kind) {
    if (kind == ASMSTORE_COMPRESSION_LZ4) return format == 1 ? 9 : 12;
    if (kind == ASMSTORE_COMPRESSION_ZSTD) return format == 4 ? 3 : 22;
    return 0;
}

ASMSTORE_DEF asmstore_result asmstore_write_options_preset(asmstore_write_options *o,
                                                           asmstore_target target,
                                                           asmstore_runtime runtime,
                                                           asmstore_abi abi, asmstore_preset *info,
                                                           asmstore_error *err) {
    int coreclr = runtime == ASMSTORE_RUNTIME_CORECLR, crc = 0;
    if (!o || !asmstore__abi_in_range(abi) || target < ASMSTORE_TARGET_NET8 ||
        target > ASMSTORE_TARGET_NET12 || (runtime != ASMSTORE_RUNTIME_MONOVM && !coreclr))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL options, or unknown target, runtime or ABI");
    if (coreclr && target <= ASMSTORE_TARGET_NET9) /* CoreCLR stores start with .NET 10 */
        return asmstore__fail(err, ASMSTORE_ERR_PROFILE, 0, -1, 0,
                              "no release shipped coreclr stores before .NET 10");
    if (!coreclr && target == ASMSTORE_TARGET_NET12) /* Mono leaves .NET 12: #12868 */
        return asmstore__fail(err, ASMSTORE_ERR_PROFILE, 0, -1, 0,
                              "dotnet/android main (.NET 12) has no monovm stores");
    if (abi == ASMSTORE_ABI_UNKNOWN) abi = ASMSTORE_ABI_ARM64;
    crc = coreclr && target >= ASMSTORE_TARGET_NET11;
    o->abi = abi;
    o->runtime = runtime;
    o->no_compress = 0;
    o->image_alignment = 1;
    o->no_companions = /* GA: #12811 */
        coreclr && (target == ASMSTORE_TARGET_NET11 || target == ASMSTORE_TARGET_NET12);
    o->format = target == ASMSTORE_TARGET_NET8            ? 1u
                : target == ASMSTORE_TARGET_NET9          ? 2u
                : target == ASMSTORE_TARGET_NET11_PREVIEW ? 4u
                                                          : 3u;
    o->hash = o->format == 1                 ? ASMSTORE_HASH_UNKNOWN
              : crc                          ? ASMSTORE_HASH_CRC32
              : asmstore__abi(abi)->is_64bit ? ASMSTORE_HASH_XXH3_64
                                             : ASMSTORE_HASH_XXH32;
    o->compression =
        target <= ASMSTORE_TARGET_NET10 ? ASMSTORE_COMPRESSION_LZ4 : ASMSTORE_COMPRESSION_ZSTD;
    o->level = asmstore_release_level(o->format, o->compression);
    if (info) {
        info->version_word = asmstore__version_word(o->format, abi);
        info->header_size = o->format == 4 ? ASMSTORE_HEADER_SIZE_V4 : ASMSTORE_HEADER_SIZE_V2;
        info->index_entry_size =
            o->format == 1 ? 0u : asmstore__index_entry_size(o->format, o->hash);
        info->elf_style = target == ASMSTORE_TARGET_NET12 ? 1 : 0; /* ASMSTORE_ELF_STYLE_NET12 */
        info->wrapper = o->format == 1 ? ASMSTORE_ELF_NONE
                        : crc          ? ASMSTORE_ELF_SYMBOL
                                       : ASMSTORE_ELF_SECTION;
        info->file_name = o->format == 1 ? asmstore__abi(ASMSTORE_ABI_UNKNOWN)->v1_store_file
                          : target == ASMSTORE_TARGET_NET9 ? asmstore__abi(abi)->net9_file
                                                           : ASMSTORE_ELF_DEFAULT_SONAME;
    }
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_WRITER */

#ifndef ASMSTORE_NO_ELF
/* >>elf-writer: encoding ----------------------------------------------------------------------- */
/* Class-dependent writers (asmstore__wrw: >>elf). */
ASMSTORE__PRIVATE void asmstore__elf_put_shdr(unsigned char *q, int is64, const asmstore__shdr *s) {
    asmstore__wr32(q, s->name);
    asmstore__wr32(q + 4, s->type);
    if (is64) {
        asmstore__wr64(q + 8, s->flags);
        asmstore__wr64(q + 16, s->addr);
        asmstore__wr64(q + 24, s->offset);
        asmstore__wr64(q + 32, s->size);
        asmstore__wr32(q + 40, s->link);
        asmstore__wr32(q + 44, s->info);
        asmstore__wr64(q + 48, s->addralign);
        asmstore__wr64(q + 56, s->entsize);
    } else {
        asmstore__wr32(q + 8, (uint32_t)s->flags);
        asmstore__wr32(q + 12, (uint32_t)s->addr);
        asmstore__wr32(q + 16, (uint32_t)s->offset);
        asmstore__wr32(q + 20, (uint32_t)s->size);
        asmstore__wr32(q + 24, s->link);
        asmstore__wr32(q + 28, s->info);
        asmstore__wr32(q + 32, (uint32_t)s->addralign);
        asmstore__wr32(q + 36, (uint32_t)s->entsize);
    }
}
ASMSTORE__PRIVATE void asmstore__elf_put_phdr(unsigned char *q, int is64, uint32_t type,
                                              uint32_t flags, uint64_t off, uint64_t size,
                                              uint64_t align) {
    asmstore__wr32(q, type);
    if (is64) {
        asmstore__wr32(q + 4, flags);
        asmstore__wr64(q + 8, off);
        asmstore__wr64(q + 16, off);
        asmstore__wr64(q + 24, off);
        asmstore__wr64(q + 32, size);
        asmstore__wr64(q + 40, size);
        asmstore__wr64(q + 48, align);
    } else {
        asmstore__wr32(q + 4, (uint32_t)off);
        asmstore__wr32(q + 8, (uint32_t)off);
        asmstore__wr32(q + 12, (uint32_t)off);
        asmstore__wr32(q + 16, (uint32_t)size);
        asmstore__wr32(q + 20, (uint32_t)size);
        asmstore__wr32(q + 24, flags);
        asmstore__wr32(q + 28, (uint32_t)align);
    }
}
ASMSTORE__PRIVATE void asmstore__elf_put_sym(unsigned char *q, int is64, uint32_t name,
                                             uint64_t value, uint64_t size, unsigned char info,
                                             uint16_t shndx) {
    asmstore__wr32(q, name);
    if (is64) {
        q[4] = info;
        q[5] = 0;
        asmstore__wr16(q + 6, shndx);
        asmstore__wr64(q + 8, value);
        asmstore__wr64(q + 16, size);
    } else {
        asmstore__wr32(q + 4, (uint32_t)value);
        asmstore__wr32(q + 8, (uint32_t)size);
        q[12] = info;
        q[13] = 0;
        asmstore__wr16(q + 14, shndx);
    }
}

/* The ELF header fields that place the section header table: e_shoff, e_shentsize, e_shnum,
   e_shstrndx. */
ASMSTORE__PRIVATE void asmstore__elf_put_shtab(unsigned char *h, int is64, uint64_t shoff,
                                               uint32_t shnum, uint32_t shstrndx) {
    if (is64) {
        asmstore__wr64(h + 40, shoff);
        asmstore__wr16(h + 58, 64u);
        asmstore__wr16(h + 60, shnum);
        asmstore__wr16(h + 62, shstrndx);
    } else {
        asmstore__wr32(h + 32, (uint32_t)shoff);
        asmstore__wr16(h + 46, 40u);
        asmstore__wr16(h + 48, shnum);
        asmstore__wr16(h + 50, shstrndx);
    }
}

/* ELF header; offsets and counts patched in by the caller where they differ. */
ASMSTORE__PRIVATE void asmstore__elf_put_ehdr(unsigned char *p, int is64, uint16_t machine,
                                              uint32_t flags, uint64_t phoff, uint32_t phnum,
                                              uint64_t shoff, uint32_t shnum, uint32_t shstrndx) {
    memset(p, 0, is64 ? 64u : 52u);
    p[0] = 0x7f;
    p[1] = 'E';
    p[2] = 'L';
    p[3] = 'F';
    p[4] = (unsigned char)(is64 ? 2 : 1);
    p[5] = 1;
    p[6] = 1;
    asmstore__wr16(p + 16, ASMSTORE__ET_DYN);
    asmstore__wr16(p + 18, machine);
    asmstore__wr32(p + 20, 1);
    if (is64) {
        asmstore__wr64(p + 32, phoff);
        asmstore__wr32(p + 48, flags);
        asmstore__wr16(p + 52, 64);
        asmstore__wr16(p + 54, 56);
        asmstore__wr16(p + 56, phnum);
    } else {
        asmstore__wr32(p + 28, (uint32_t)phoff);
        asmstore__wr32(p + 36, flags);
        asmstore__wr16(p + 40, 52);
        asmstore__wr16(p + 42, 32);
        asmstore__wr16(p + 44, phnum);
    }
    asmstore__elf_put_shtab(p, is64, shoff, shnum, shstrndx);
}

ASMSTORE__PRIVATE uint64_t asmstore__align_up(uint64_t v, uint64_t a) {
    return (v + a - 1) & ~(a - 1);
}

/* The page a .NET 12 wrapper aligns its payload to: 16 KiB on 64-bit ABIs (UNKNOWN: arm64's),
   4 KiB on 32-bit ones. */
ASMSTORE__PRIVATE uint64_t asmstore__abi_page(asmstore_abi abi) {
    return abi == ASMSTORE_ABI_ARM || abi == ASMSTORE_ABI_X86 ? 4096u : ASMSTORE_ELF_PAGE_16K;
}

ASMSTORE__PRIVATE int asmstore__name_ok(const char *s) {
    size_t n;
    if (!s) return 0;
    n = strlen(s);
    return n > 0 && n < ASMSTORE_ELF_MAX_NAME;
}

ASMSTORE_DEF void asmstore_elf_image_free(asmstore_elf_image *img) {
    if (!img) return;
    asmstore_free(&img->allocator, img->head, img->head_size);
    asmstore_free(&img->allocator, img->tail, img->tail_size);
    img->head = img->tail = NULL;
    img->head_size = img->tail_size = 0;
}

/* Offset of `name` in a string table of NUL-terminated names (table[0] is the empty name). The
   generator takes its sh_name values from here, so they follow the tables as written. */
ASMSTORE__PRIVATE uint32_t asmstore__strtab_offset(const char *table, size_t size,
                                                   const char *name) {
    size_t i = 1;
    while (i < size && strcmp(table + i, name) != 0) i += strlen(table + i) + 1;
    ASMSTORE_ASSERT(i < size);
    return (uint32_t)i;
}

/* img's zeroed head [0, payload_off) and tail [tail_start, total) around a payload of payload_size
   bytes at payload_off. Files past the address space, and ELF32 files over 4 GiB:
   ASMSTORE_ERR_TOO_LARGE. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_alloc_parts(asmstore_elf_image *img, int is64,
                                                            uint64_t payload_off,
                                                            uint64_t tail_start, uint64_t total,
                                                            size_t payload_size) {
    if ((uint64_t)payload_size > total || total > (uint64_t)SIZE_MAX ||
        (!is64 && total > 0xFFFFFFFFu))
        return ASMSTORE_ERR_TOO_LARGE;
    img->head_size = (size_t)payload_off;
    img->tail_size = (size_t)(total - tail_start);
    img->head = (unsigned char *)asmstore_alloc(&img->allocator, img->head_size);
    img->tail = (unsigned char *)asmstore_alloc(&img->allocator, img->tail_size);
    if (!img->head || !img->tail) {
        asmstore_elf_image_free(img);
        return ASMSTORE_ERR_OUT_OF_MEMORY;
    }
    memset(img->head, 0, img->head_size);
    memset(img->tail, 0, img->tail_size);
    img->payload_offset = (size_t)payload_off;
    img->payload_size = payload_size;
    img->total_size = (size_t)total;
    return ASMSTORE_OK;
}

/* >>elf-writer: layout ------------------------------------------------------------------------- */
/* The layout of a generated wrapper (dlopen and section modes): docs/elf-so.md §3. The
   head holds the ELF header, 4 program headers, .dynsym, .dynstr, .hash and .dynamic, then zero
   padding up to the payload; the tail holds .shstrtab and the 7 section headers. */
typedef struct asmstore__elf_gen {
    int is64, dl;
    uint64_t wa, ehsz, phsz, shsz, symsz, dynsz, align, p_align, stack_align;
    uint32_t e_flags;
    const char *sym, *soname;
    size_t symlen, solen, payload_size;
    const char *shstr; /* the .shstrtab as written: section order differs by mode */
    size_t shstr_size;
    uint32_t nsyms, payload_idx, shstr_idx;
    uint64_t dynsym_off, dynstr_off, dynstr_size, soname_idx, hash_off, dyn_off, meta_end,
        payload_off;
    uint64_t shstr_off, shoff, total, load_size;
} asmstore__elf_gen;
#define ASMSTORE__GEN_NDYN \
    7u /* .dynamic entries: SONAME, SYMTAB, SYMENT, STRTAB, STRSZ, HASH, NULL */
#define ASMSTORE__GEN_NSEC 7u /* null, .dynsym, .dynstr, .hash, .dynamic, payload and .shstrtab */

/* Sizes and offsets of everything; ASMSTORE_ERR_TOO_LARGE when the file cannot hold the payload. */
ASMSTORE__PRIVATE void asmstore__elf_gen_layout(asmstore__elf_gen *g,
                                                const asmstore_elf_options *opt, asmstore_abi abi,
                                                uint64_t align, size_t payload_size) {
    static const char shstr_dl[] = "\0.dynsym\0.dynstr\0.hash\0.dynamic\0payload\0.shstrtab";
    static const char shstr_sec[] = "\0.dynsym\0.dynstr\0.hash\0.dynamic\0.shstrtab\0payload";
    memset(g, 0, sizeof *g);
    g->is64 = asmstore__abi(abi)->is_64bit;
    g->dl = opt->mode == ASMSTORE_ELF_MODE_DLOPEN;
    g->sym = opt->symbol ? opt->symbol : ASMSTORE_ELF_DEFAULT_SYMBOL;
    g->soname = opt->soname ? opt->soname : ASMSTORE_ELF_DEFAULT_SONAME;
    g->wa = g->is64 ? 8u : 4u;
    g->ehsz = g->is64 ? 64u : 52u;
    g->phsz = g->is64 ? 56u : 32u;
    g->shsz = g->is64 ? 64u : 40u;
    g->symsz = g->is64 ? 24u : 16u;
    g->dynsz = g->is64 ? 16u : 8u;
    g->align = align;
    g->p_align = align > ASMSTORE_ELF_PAGE_16K ? align : ASMSTORE_ELF_PAGE_16K;
    g->stack_align = 16;
    g->e_flags = asmstore__abi(abi)->e_flags;
    if (g->dl && opt->style == ASMSTORE_ELF_STYLE_NET12) { /* AssemblyStoreElfWriter's choices */
        g->p_align = align;
        g->stack_align = g->wa;
        if (abi == ASMSTORE_ABI_ARM) g->e_flags = ASMSTORE__EF_ARM_NET12;
    }
    g->symlen = g->dl ? strlen(g->sym) : 0;
    g->solen = strlen(g->soname);
    g->payload_size = payload_size;
    g->shstr = g->dl ? shstr_dl : shstr_sec;
    g->shstr_size = sizeof shstr_dl;
    g->nsyms = g->dl ? 2u : 1u;
    g->payload_idx = g->dl ? 5u : 6u;
    g->shstr_idx = g->dl ? 6u : 5u;
    g->dynsym_off = asmstore__align_up(g->ehsz + 4 * g->phsz, g->wa);
    g->dynstr_off = g->dynsym_off + g->nsyms * g->symsz;
    g->soname_idx = g->dl ? 1u + g->symlen + 1u : 1u;
    g->dynstr_size = g->soname_idx + g->solen + 1u;
    g->hash_off = asmstore__align_up(g->dynstr_off + g->dynstr_size, 4);
    g->dyn_off = asmstore__align_up(g->hash_off + 4u * (2u + 1u + g->nsyms), g->wa);
    g->meta_end = g->dyn_off + ASMSTORE__GEN_NDYN * g->dynsz;
    g->payload_off = asmstore__align_up(g->meta_end, align);
    g->shstr_off = g->payload_off + (uint64_t)payload_size;
    g->shoff = asmstore__align_up(g->shstr_off + g->shstr_size, g->wa);
    g->total = g->shoff + ASMSTORE__GEN_NSEC * g->shsz;
    g->load_size = g->dl ? g->payload_off + payload_size : g->meta_end;
}

/* The head (zeroed by the caller): ELF header, program headers, .dynsym, .dynstr, .hash,
   .dynamic. */
ASMSTORE__PRIVATE void asmstore__elf_gen_head(const asmstore__elf_gen *g, asmstore_abi abi,
                                              unsigned char *h) {
    const uint64_t tags[ASMSTORE__GEN_NDYN] = {
        ASMSTORE__DT_SONAME, ASMSTORE__DT_SYMTAB, ASMSTORE__DT_SYMENT, ASMSTORE__DT_STRTAB,
        ASMSTORE__DT_STRSZ,  ASMSTORE__DT_HASH,   ASMSTORE__DT_NULL};
    const uint64_t vals[ASMSTORE__GEN_NDYN] = {
        g->soname_idx, g->dynsym_off, g->symsz, g->dynstr_off, g->dynstr_size, g->hash_off, 0};
    const int is64 = g->is64;
    unsigned char *q;
    uint32_t i;
    asmstore__elf_put_ehdr(h, is64, asmstore__abi(abi)->e_machine, g->e_flags, g->ehsz, 4,
                           g->shoff, ASMSTORE__GEN_NSEC, g->shstr_idx);
    q = h + g->ehsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_PHDR, ASMSTORE__PF_R, g->ehsz, 4 * g->phsz, g->wa);
    q += g->phsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_LOAD, ASMSTORE__PF_R, 0, g->load_size, g->p_align);
    q += g->phsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_DYNAMIC, ASMSTORE__PF_R, g->dyn_off,
                           ASMSTORE__GEN_NDYN * g->dynsz, g->wa);
    q += g->phsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_GNU_STACK, ASMSTORE__PF_R | ASMSTORE__PF_W, 0, 0,
                           g->stack_align);
    /* .dynsym: [0] null, [1] the symbol; .dynstr: "", the symbol, the soname */
    if (g->dl) {
        const unsigned char info =
            (unsigned char)((ASMSTORE__STB_GLOBAL << 4) | ASMSTORE__STT_OBJECT);
        asmstore__elf_put_sym(h + g->dynsym_off + g->symsz, is64, 1, g->payload_off,
                              g->payload_size, info, (uint16_t)g->payload_idx);
        memcpy(h + g->dynstr_off + 1, g->sym, g->symlen);
    }
    memcpy(h + g->dynstr_off + g->soname_idx, g->soname, g->solen);
    /* .hash: one bucket, so bucket[0] starts the chain whatever the symbol's SysV hash is */
    q = h + g->hash_off;
    asmstore__wr32(q, 1);
    asmstore__wr32(q + 4, g->nsyms);
    asmstore__wr32(q + 8, g->dl ? 1u : 0u);
    asmstore__wr32(q + 12, 0);
    if (g->dl) asmstore__wr32(q + 16, 0);
    q = h + g->dyn_off;
    for (i = 0; i < ASMSTORE__GEN_NDYN; i++) {
        asmstore__wrw(q + i * g->dynsz, tags[i], is64);
        asmstore__wrw(q + i * g->dynsz + g->wa, vals[i], is64);
    }
}

/* The tail (zeroed by the caller): .shstrtab, then the section headers ([0] stays null). */
ASMSTORE__PRIVATE void asmstore__elf_gen_tail(const asmstore__elf_gen *g, unsigned char *t) {
    asmstore__shdr s[ASMSTORE__GEN_NSEC];
    asmstore__shdr *p = &s[g->payload_idx], *str = &s[g->shstr_idx];
    uint32_t i;
    memcpy(t, g->shstr, g->shstr_size);
    memset(s, 0, sizeof s);
    s[1].type = ASMSTORE__SHT_DYNSYM;
    s[1].addr = s[1].offset = g->dynsym_off;
    s[1].size = g->nsyms * g->symsz;
    s[1].link = 2;
    s[1].info = 1;
    s[1].addralign = g->wa;
    s[1].entsize = g->symsz;
    s[2].type = ASMSTORE__SHT_STRTAB;
    s[2].addr = s[2].offset = g->dynstr_off;
    s[2].size = g->dynstr_size;
    s[2].addralign = 1;
    s[3].type = ASMSTORE__SHT_HASH;
    s[3].addr = s[3].offset = g->hash_off;
    s[3].size = 4u * (3u + g->nsyms);
    s[3].link = 1;
    s[3].addralign = 4;
    s[3].entsize = 4;
    s[4].type = ASMSTORE__SHT_DYNAMIC;
    s[4].addr = s[4].offset = g->dyn_off;
    s[4].size = ASMSTORE__GEN_NDYN * g->dynsz;
    s[4].link = 2;
    s[4].addralign = g->wa;
    s[4].entsize = g->dynsz;
    for (i = 1; i <= 4; i++) s[i].flags = ASMSTORE__SHF_ALLOC;
    s[1].name = asmstore__strtab_offset(g->shstr, g->shstr_size, ".dynsym");
    s[2].name = asmstore__strtab_offset(g->shstr, g->shstr_size, ".dynstr");
    s[3].name = asmstore__strtab_offset(g->shstr, g->shstr_size, ".hash");
    s[4].name = asmstore__strtab_offset(g->shstr, g->shstr_size, ".dynamic");
    p->name = asmstore__strtab_offset(g->shstr, g->shstr_size, "payload");
    p->type = ASMSTORE__SHT_PROGBITS;
    p->offset = g->payload_off;
    p->size = g->payload_size;
    p->addralign = g->align;
    if (g->dl) {
        p->flags = ASMSTORE__SHF_ALLOC;
        p->addr = g->payload_off;
    }
    str->name = asmstore__strtab_offset(g->shstr, g->shstr_size, ".shstrtab");
    str->type = ASMSTORE__SHT_STRTAB;
    str->offset = g->shstr_off;
    str->size = g->shstr_size;
    str->addralign = 1;
    for (i = 0; i < ASMSTORE__GEN_NSEC; i++)
        asmstore__elf_put_shdr(t + (g->shoff - g->shstr_off) + i * g->shsz, g->is64, &s[i]);
}

/* Generated wrapper (dlopen and section modes): head and tail around a payload that is not
   copied. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_generate(asmstore_elf_image *img,
                                                         const asmstore_elf_options *opt,
                                                         asmstore_abi abi, uint64_t align,
                                                         size_t payload_size) {
    asmstore__elf_gen g;
    asmstore_result res;

    asmstore__elf_gen_layout(&g, opt, abi, align, payload_size);
    res = asmstore__elf_alloc_parts(img, g.is64, g.payload_off, g.shstr_off, g.total, payload_size);
    if (res != ASMSTORE_OK) return res;
    asmstore__elf_gen_head(&g, abi, img->head);
    asmstore__elf_gen_tail(&g, img->tail);
    return ASMSTORE_OK;
}

/* >>elf-writer: template ----------------------------------------------------------------------- */
/* May a stub's old payload at [cut, cut + old) be replaced in place? Everything the file keeps
   (headers, segments, sections other than the payload and .shstrtab) must end by `cut`; a loadable
   payload must end its PT_LOAD (no bss after it), whose index goes to *load (-1: none). */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_replaceable(const asmstore__elf *e,
                                                            const asmstore_elf_info *info,
                                                            uint64_t cut, int *load) {
    asmstore__shdr s;
    asmstore__phdr h;
    uint32_t i;
    *load = -1;
    if (e->ehsize > cut ||
        (e->phnum && !asmstore__range_ok(e->phoff, (uint64_t)e->phnum * e->phentsize, cut)))
        return ASMSTORE_ERR_UNSUPPORTED;
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &s);
        if (i == info->section_index) {
            if (s.offset != cut || s.size != info->payload_size)
                return ASMSTORE_ERR_UNSUPPORTED; /* payload = whole section */
        } else if (i == e->shstrndx) {
            if (s.type != ASMSTORE__SHT_STRTAB || !asmstore__range_ok(s.offset, s.size, e->size))
                return ASMSTORE_ERR_BAD_ELF;
        } else if (s.type != ASMSTORE__SHT_NOBITS && !asmstore__range_ok(s.offset, s.size, cut)) {
            return ASMSTORE_ERR_UNSUPPORTED;
        }
    }
    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &h);
        if (asmstore__range_ok(h.offset, h.filesz, cut)) continue;
        if (!asmstore__range_ok(h.offset, h.filesz, e->size)) return ASMSTORE_ERR_BAD_ELF;
        if (info->kind != ASMSTORE_ELF_SYMBOL || h.type != ASMSTORE__PT_LOAD || *load >= 0 ||
            h.offset > cut || h.offset + h.filesz != cut + info->payload_size ||
            h.memsz != h.filesz)
            return ASMSTORE_ERR_UNSUPPORTED;
        *load = (int)i;
    }
    return info->kind == ASMSTORE_ELF_SYMBOL && *load < 0 ? ASMSTORE_ERR_UNSUPPORTED : ASMSTORE_OK;
}

/* Patches the copied stub head for a replaced payload now ending at `end`: the PT_LOAD `load`
   (when >= 0) ends with it, and the symbol's st_size (when not 0) is the new size. */
ASMSTORE__PRIVATE void asmstore__elf_patch_head(unsigned char *head, const asmstore__elf *e,
                                                const asmstore_elf_info *info, int load,
                                                uint64_t end, size_t payload_size) {
    asmstore__phdr h;

    if (load >= 0) {
        unsigned char *q = head + e->phoff + (uint64_t)load * e->phentsize;
        asmstore__elf_phdr(e, (uint32_t)load, &h);
        asmstore__elf_put_phdr(q, e->is64, h.type, h.flags, h.offset, end - h.offset, h.align);
        if (h.vaddr != h.offset || h.paddr != h.offset) { /* keep the segment's own addresses */
            if (e->is64) {
                asmstore__wr64(q + 16, h.vaddr);
                asmstore__wr64(q + 24, h.paddr);
            } else {
                asmstore__wr32(q + 8, (uint32_t)h.vaddr);
                asmstore__wr32(q + 12, (uint32_t)h.paddr);
            }
        }
    }

    /* st_size: 64-bit at +16, 32-bit at +8 */
    if (info->kind == ASMSTORE_ELF_SYMBOL && info->symbol_size)
        asmstore__wrw(head + info->symbol_entry_offset + (e->is64 ? 16u : 8u), payload_size,
                      e->is64);
}

/* Template mode over a stub that already carries a payload: the old one is replaced (see
   asmstore_elf_layout). head = stub[0, cut) patched; tail = .shstrtab + the section headers. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_template_replace(asmstore_elf_image *img,
                                                                 const asmstore__elf *e,
                                                                 const asmstore_elf_info *info,
                                                                 size_t payload_size) {
    const uint64_t shsz = e->is64 ? 64u : 40u, cut = info->payload_offset;
    asmstore__shdr str, s;
    uint64_t shstr_off = cut + (uint64_t)payload_size, shoff, total;
    uint32_t i;
    int load;
    asmstore_result res = asmstore__elf_replaceable(e, info, cut, &load);

    if (res != ASMSTORE_OK) return res;
    memset(&str, 0, sizeof str);
    if (e->shstrndx) asmstore__elf_shdr(e, e->shstrndx, &str);
    if (asmstore__range_ok(str.offset, str.size, cut))
        str.size = 0; /* names before the payload (llvm-objcopy's layout) stay there */
    shoff = asmstore__align_up(shstr_off + str.size, e->is64 ? 8u : 4u);
    total = shoff + (uint64_t)e->shnum * shsz;
    res = asmstore__elf_alloc_parts(img, e->is64, cut, shstr_off, total, payload_size);
    if (res != ASMSTORE_OK) return res;

    memcpy(img->head, e->p, (size_t)cut);
    if (e->is64)
        asmstore__wr64(img->head + 40, shoff);
    else
        asmstore__wr32(img->head + 32, (uint32_t)shoff);
    asmstore__elf_patch_head(img->head, e, info, load, shstr_off, payload_size);

    if (str.size) memcpy(img->tail, e->p + str.offset, (size_t)str.size);
    for (i = 0; i < e->shnum; i++) {
        unsigned char *q = img->tail + (shoff - shstr_off) + (uint64_t)i * shsz;
        memcpy(q, e->p + e->shoff + (uint64_t)i * shsz, (size_t)shsz);
        if (i != info->section_index && !(i == e->shstrndx && i && str.size)) continue;
        asmstore__elf_shdr(e, i, &s);
        if (i == info->section_index)
            s.size = payload_size;
        else
            s.offset = shstr_off;
        asmstore__elf_put_shdr(q, e->is64, &s);
    }
    return ASMSTORE_OK;
}

/* A template stub: ELF, ET_DYN, one of the four machines with its class (ASMSTORE_ERR_ABI_MISMATCH
   when it is not opt->abi), a section header table of whole entries and a valid e_shstrndx. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_stub_open(asmstore__elf *e,
                                                          const asmstore_elf_options *opt) {
    asmstore_result res = asmstore__elf_open(e, opt->stub, opt->stub_size);
    asmstore_abi machine_abi;

    if (res != ASMSTORE_OK) return res;
    machine_abi = asmstore__abi_of_machine(e->machine);
    if (e->type != ASMSTORE__ET_DYN || machine_abi == ASMSTORE_ABI_UNKNOWN)
        return ASMSTORE_ERR_BAD_ELF;
    if ((e->is64 != 0) != asmstore__abi(machine_abi)->is_64bit) return ASMSTORE_ERR_BAD_ELF;
    if (opt->abi != ASMSTORE_ABI_UNKNOWN && machine_abi != opt->abi)
        return ASMSTORE_ERR_ABI_MISMATCH;
    if (e->shnum != 0 && e->shentsize != (e->is64 ? 64u : 40u)) return ASMSTORE_ERR_BAD_ELF;
    if (e->shnum >= 0xff00u || (e->shnum == 0 && e->shstrndx != 0) ||
        (e->shnum && e->shstrndx >= e->shnum))
        return ASMSTORE_ERR_BAD_ELF;
    return ASMSTORE_OK;
}

/* Where template mode puts things in a stub without a payload. */
typedef struct asmstore__elf_tpl {
    asmstore__shdr str;     /* the stub's .shstrtab header (zero when it has none) */
    int new_strtab;         /* the stub has no .shstrtab: one is added */
    uint32_t old_n, new_n;  /* section headers before and after */
    uint32_t str_idx;       /* .shstrtab's index in the new table */
    uint32_t name_shstrtab; /* sh_name of a new ".shstrtab" */
    uint32_t name_payload;  /* sh_name of "payload" */
    uint64_t shstr_size;    /* the new .shstrtab's size */
    uint64_t payload_off, shstr_off, shoff, total;
} asmstore__elf_tpl;

/* Plans the template: new .shstrtab = old bytes + ("\0" when empty) + [".shstrtab\0" when new] +
   "payload\0", then the payload at `align` after the stub, .shstrtab and the section headers. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_tpl_plan(asmstore__elf_tpl *t,
                                                         const asmstore__elf *e, uint64_t align,
                                                         size_t payload_size) {
    memset(t, 0, sizeof *t);
    t->new_strtab = e->shstrndx == 0;
    if (!t->new_strtab) {
        asmstore__elf_shdr(e, e->shstrndx, &t->str);
        if (t->str.type != ASMSTORE__SHT_STRTAB ||
            !asmstore__range_ok(t->str.offset, t->str.size, e->size) ||
            (t->str.size && e->p[t->str.offset + t->str.size - 1] != 0))
            return ASMSTORE_ERR_BAD_ELF;
    }

    t->old_n = e->shnum;
    t->str_idx = t->new_strtab ? (t->old_n ? t->old_n : 1u) : e->shstrndx;
    t->new_n = (t->old_n ? t->old_n : 1u) + (t->new_strtab ? 2u : 1u);
    t->shstr_size = t->str.size ? t->str.size : 1u;
    if (t->new_strtab) {
        t->name_shstrtab = (uint32_t)t->shstr_size;
        t->shstr_size += sizeof ".shstrtab";
    }
    t->name_payload = (uint32_t)t->shstr_size;
    t->shstr_size += sizeof "payload";

    t->payload_off = asmstore__align_up(e->size, align);
    t->shstr_off = t->payload_off + (uint64_t)payload_size;
    t->shoff = asmstore__align_up(t->shstr_off + t->shstr_size, e->is64 ? 8u : 4u);
    t->total = t->shoff + (uint64_t)t->new_n * (e->is64 ? 64u : 40u);
    return ASMSTORE_OK;
}

/* The template's tail (zeroed): the new .shstrtab, the old section headers, .shstrtab's header
   moved to the new bytes (or a new one), and the payload's header last. */
ASMSTORE__PRIVATE void asmstore__elf_tpl_tail(unsigned char *t, const asmstore__elf_tpl *p,
                                              const asmstore__elf *e, uint64_t align,
                                              size_t payload_size) {
    static const char add_names[] = ".shstrtab\0payload";
    const uint64_t shsz = e->is64 ? 64u : 40u;
    asmstore__shdr s;
    uint32_t i;

    if (p->str.size) memcpy(t, e->p + p->str.offset, (size_t)p->str.size);
    if (p->new_strtab) memcpy(t + p->name_shstrtab, add_names, sizeof ".shstrtab");
    memcpy(t + p->name_payload, add_names + sizeof ".shstrtab", sizeof "payload");
    t += p->shoff - p->shstr_off;
    /* old_n == 0: entry [0] stays the zeroed null header */
    for (i = 0; i < p->old_n; i++)
        memcpy(t + i * shsz, e->p + e->shoff + (uint64_t)i * shsz, (size_t)shsz);

    if (p->new_strtab) {
        memset(&s, 0, sizeof s);
        s.name = p->name_shstrtab;
        s.type = ASMSTORE__SHT_STRTAB;
        s.addralign = 1;
    } else {
        s = p->str;
    }
    s.offset = p->shstr_off;
    s.size = p->shstr_size;
    asmstore__elf_put_shdr(t + (uint64_t)p->str_idx * shsz, e->is64, &s);

    memset(&s, 0, sizeof s);
    s.name = p->name_payload;
    s.type = ASMSTORE__SHT_PROGBITS;
    s.offset = p->payload_off;
    s.size = payload_size;
    s.addralign = align;
    asmstore__elf_put_shdr(t + (uint64_t)(p->new_n - 1) * shsz, e->is64, &s);
}

/* Template mode: what `llvm-objcopy --add-section payload=F --set-section-flags
   payload=readonly,data --set-section-alignment payload=A` does, in one pass: stub bytes (header
   fields patched), zero padding, payload, new .shstrtab (old one + "payload"), new section header
   table. A payload already there is replaced, never duplicated. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_template(asmstore_elf_image *img,
                                                         const asmstore_elf_options *opt,
                                                         uint64_t align, size_t payload_size) {
    asmstore__elf e;
    asmstore__elf_tpl t;
    asmstore_elf_info info;
    const void *old;
    size_t old_size;
    asmstore_result res = asmstore__elf_stub_open(&e, opt);

    if (res != ASMSTORE_OK) return res;
    res = asmstore_elf_payload(e.p, (size_t)e.size, opt->symbol, &old, &old_size, &info, NULL);
    if (res == ASMSTORE_OK) return asmstore__elf_template_replace(img, &e, &info, payload_size);
    if (res != ASMSTORE_ERR_NO_PAYLOAD) return res;

    if ((res = asmstore__elf_tpl_plan(&t, &e, align, payload_size)) != ASMSTORE_OK) return res;
    res = asmstore__elf_alloc_parts(img, e.is64, t.payload_off, t.shstr_off, t.total, payload_size);
    if (res != ASMSTORE_OK) return res;
    memcpy(img->head, e.p, (size_t)e.size);
    /* ELF header: only the section header table location fields change */
    asmstore__elf_put_shtab(img->head, e.is64, t.shoff, t.new_n, t.str_idx);
    asmstore__elf_tpl_tail(img->tail, &t, &e, align, payload_size);
    return ASMSTORE_OK;
}

/* >>elf-writer: public ------------------------------------------------------------------------- */
/* What a failed generator or template pass was checking, by its result. */
ASMSTORE__PRIVATE const char *asmstore__elf_layout_message(asmstore_result res, int template_mode) {
    switch (res) {
        case ASMSTORE_ERR_OUT_OF_MEMORY: return "the wrapper's head or tail";
        case ASMSTORE_ERR_TOO_LARGE: return "ELF32 file over 4 GiB";
        case ASMSTORE_ERR_ABI_MISMATCH: return "stub's class or machine differs from opt->abi";
        case ASMSTORE_ERR_BAD_ELF:
            return "stub: little-endian ET_DYN of a known ABI, sections and .shstrtab in bounds";
        case ASMSTORE_ERR_UNSUPPORTED:
            return "stub: only .shstrtab and section headers may follow its old payload";
        default: return template_mode ? "stub" : NULL;
    }
}

ASMSTORE_DEF asmstore_result asmstore_elf_layout(asmstore_elf_image *img,
                                                 const asmstore_elf_options *opt,
                                                 size_t payload_size, asmstore_error *err) {
    asmstore_elf_options o;
    uint64_t align;
    asmstore_result res;
    if (!img) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "NULL image");
    memset(img, 0, sizeof *img);
    if (opt)
        o = *opt;
    else
        memset(&o, 0, sizeof o);
    img->allocator = o.allocator;
    align = o.alignment;
    if (!align)
        align = o.mode == ASMSTORE_ELF_MODE_DLOPEN && o.style == ASMSTORE_ELF_STYLE_NET12
                    ? asmstore__abi_page(o.abi)
                    : ASMSTORE_ELF_DEFAULT_ALIGNMENT;
    if (align < 4096u || align > (1u << 30) || (align & (align - 1)) != 0)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "alignment: a power of two, 4096 .. 1 GiB");
    if ((unsigned)o.style > (unsigned)ASMSTORE_ELF_STYLE_NET12)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "unknown style");
    switch (o.mode) {
        case ASMSTORE_ELF_MODE_DLOPEN:
        case ASMSTORE_ELF_MODE_SECTION:
            if (o.abi == ASMSTORE_ABI_UNKNOWN) o.abi = ASMSTORE_ABI_ARM64;
            if (!asmstore__abi_known(o.abi))
                return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "unknown ABI");
            if ((o.symbol && !asmstore__name_ok(o.symbol)) ||
                (o.soname && !asmstore__name_ok(o.soname)))
                return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                                      "symbol or soname empty or over ASMSTORE_ELF_MAX_NAME");
            res = asmstore__elf_generate(img, &o, o.abi, align, payload_size);
            break;
        case ASMSTORE_ELF_MODE_TEMPLATE:
            if (!o.stub || !o.stub_size)
                return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                                      "template mode without a stub");
            if (!asmstore__abi_in_range(o.abi))
                return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "unknown ABI");
            res = asmstore__elf_template(img, &o, align, payload_size);
            break;
        default: return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0, "unknown mode");
    }
    if (res == ASMSTORE_OK) return ASMSTORE_OK;
    return asmstore__fail(err, res, 0, -1, 0,
                          asmstore__elf_layout_message(res, o.mode == ASMSTORE_ELF_MODE_TEMPLATE));
}

/* The soname a generated wrapper holds: in .dynstr after the default symbol's name (every field
   before it has a fixed size), NUL-terminated in the file; NULL when there is none. */
ASMSTORE__PRIVATE const char *asmstore__elf_gen_soname(const unsigned char *f, size_t size,
                                                       int is64) {
    size_t at = (is64 ? 64u + 4u * 56u + 2u * 24u : 52u + 4u * 32u + 2u * 16u) +
                sizeof ASMSTORE_ELF_DEFAULT_SYMBOL + 1u;
    size_t room = size > at ? size - at : 0;
    const unsigned char *nul;
    if (!room) return NULL;
    if (room > ASMSTORE_ELF_MAX_NAME) room = ASMSTORE_ELF_MAX_NAME;
    nul = (const unsigned char *)memchr(f + at, 0, room);
    return nul && nul > f + at ? (const char *)(f + at) : NULL;
}

ASMSTORE_DEF int asmstore_elf_is_style(const void *elf, size_t size, asmstore_elf_style style) {
    const unsigned char *f = (const unsigned char *)elf;
    asmstore_elf_info info;
    asmstore_elf_options o;
    asmstore_elf_image img;
    const void *pl;
    size_t pls;
    int same;
    if (!f || asmstore_elf_payload(elf, size, NULL, &pl, &pls, &info, NULL) != ASMSTORE_OK ||
        info.kind != ASMSTORE_ELF_SYMBOL || info.abi == ASMSTORE_ABI_UNKNOWN)
        return 0;
    memset(&o, 0, sizeof o);
    o.abi = info.abi;
    o.style = style;
    o.soname = asmstore__elf_gen_soname(f, size, info.is_64bit);
    if (!o.soname || asmstore_elf_layout(&img, &o, pls, NULL) != ASMSTORE_OK) return 0;
    same = img.total_size == size && img.payload_offset == info.payload_offset &&
           !memcmp(img.head, f, img.head_size) &&
           !memcmp(img.tail, f + img.payload_offset + pls, img.tail_size);
    asmstore_elf_image_free(&img);
    return same;
}

ASMSTORE_DEF asmstore_result asmstore_elf_wrap(const asmstore_elf_options *opt, const void *payload,
                                               size_t payload_size, void **out, size_t *out_size,
                                               asmstore_error *err) {
    asmstore_elf_image img;
    asmstore_result res;
    unsigned char *o;
    if (!out || !out_size || (!payload && payload_size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL output, or NULL payload with a size");
    *out = NULL;
    *out_size = 0;
    res = asmstore_elf_layout(&img, opt, payload_size, err);
    if (res != ASMSTORE_OK) return res;
    o = (unsigned char *)asmstore_alloc(&img.allocator, img.total_size);
    if (!o) {
        asmstore_elf_image_free(&img);
        return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, -1, 0, "the whole .so");
    }
    memcpy(o, img.head, img.head_size);
    if (payload_size) memcpy(o + img.head_size, payload, payload_size);
    memcpy(o + img.head_size + payload_size, img.tail, img.tail_size);
    *out = o;
    *out_size = img.total_size;
    asmstore_elf_image_free(&img);
    return ASMSTORE_OK;
}

#ifndef ASMSTORE_NO_STDIO
ASMSTORE_DEF asmstore_result asmstore_elf_write_file(const char *path,
                                                     const asmstore_elf_options *opt,
                                                     const void *payload, size_t payload_size,
                                                     unsigned mode, asmstore_error *err) {
    asmstore_elf_image img;
    asmstore_result res;
    const void *parts[3];
    size_t sizes[3];
    if (!path || (!payload && payload_size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "NULL path, or NULL payload with a size");
    res = asmstore_elf_layout(&img, opt, payload_size, err);
    if (res != ASMSTORE_OK) return res;
    parts[0] = img.head;
    sizes[0] = img.head_size;
    parts[1] = payload;
    sizes[1] = payload_size;
    parts[2] = img.tail;
    sizes[2] = img.tail_size;
    res = asmstore_write_file_parts(path, parts, sizes, 3, mode, err);
    asmstore_elf_image_free(&img);
    return res;
}
#endif

/* >>bionic-check ------------------------------------------------------------------------------- */
ASMSTORE__PRIVATE asmstore_result asmstore__rule(asmstore_error *err, int rule, const char *msg,
                                                 uint64_t off) {
    (void)asmstore__fail(err, ASMSTORE_ERR_ELF_RULE, off, -1, 0, msg);
    if (err) err->rule = rule;
    return ASMSTORE_ERR_ELF_RULE;
}
/* Is [vaddr, vaddr+len) inside some PT_LOAD's file-backed range? */
ASMSTORE__PRIVATE int asmstore__in_load(const asmstore__elf *e, uint64_t vaddr, uint64_t len) {
    return asmstore__elf_load_covers(e, vaddr, len, 0);
}

/* What the bionic checker has learnt so far. Each helper below checks one group of rules
   (docs/elf-so.md §4), in the order bionic meets them, and returns ASMSTORE_ERR_ELF_RULE
   with *v naming the rule, or ASMSTORE_OK. */
typedef struct asmstore__bionic {
    asmstore__elf e;
    asmstore_error *err;
    uint64_t wa, symsz, dynsz; /* word, Sym and Dyn sizes of the file's class */
    uint64_t page;             /* the largest page its ABIs run on: 16 KiB, 4 KiB for ELF32 */
    asmstore__phdr dynph;      /* the last PT_DYNAMIC, as in bionic */
    int have_dynph;
    asmstore__shdr dynsec, strsec, symsec;
    uint64_t strsz, strtab, symtab, hash, soname, nsyms;
    int have_strsz, have_hash, have_soname;
} asmstore__bionic;

/* Rule 9 (type, machine, class), rule 1 (section headers) and the program header table (rule 6). */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_headers(const asmstore__bionic *b,
                                                           asmstore_abi abi) {
    const asmstore__elf *e = &b->e;
    asmstore_error *err = b->err;
    asmstore_abi machine_abi = asmstore__abi_of_machine(e->machine);
    asmstore__shdr s;
    /* rule 9 first: everything below depends on the class */
    if (e->type != ASMSTORE__ET_DYN || asmstore__rd32(e->p + 20) != 1)
        return asmstore__rule(err, 9, "e_type must be ET_DYN, e_version 1", 16);
    if (machine_abi == ASMSTORE_ABI_UNKNOWN)
        return asmstore__rule(err, 9, "e_machine is not arm64/arm/x86_64/x86", 18);
    if (abi != ASMSTORE_ABI_UNKNOWN && machine_abi != abi)
        return asmstore__rule(err, 9, "e_machine does not match the ABI directory", 18);
    if ((e->is64 != 0) != asmstore__abi(machine_abi)->is_64bit)
        return asmstore__rule(err, 9, "ELF class does not match the machine", 4);
    /* rule 1: section headers */
    if (e->shnum == 0 || e->shoff == 0) return asmstore__rule(err, 1, "no section headers", 0);
    if (e->shoff % b->wa) return asmstore__rule(err, 1, "e_shoff misaligned", e->shoff);
    if (e->shentsize != (e->is64 ? 64u : 40u))
        return asmstore__rule(err, 1, "e_shentsize is not sizeof(Shdr)", 0);
    if (e->shstrndx == 0 || e->shstrndx >= e->shnum)
        return asmstore__rule(err, 1, "e_shstrndx is 0 or out of range", 0);
    asmstore__elf_shdr(e, e->shstrndx, &s);
    if (s.type != ASMSTORE__SHT_STRTAB)
        return asmstore__rule(err, 1, "e_shstrndx section is not SHT_STRTAB", 0);
    /* program headers (bionic: 1..65536/sizeof, phoff > 0 and aligned) are part of rules 6/7 */
    if (e->phnum == 0 || e->phnum > 65536u / (e->is64 ? 56u : 32u) || e->phoff == 0 ||
        e->phoff % b->wa || e->phentsize != (e->is64 ? 56u : 32u))
        return asmstore__rule(err, 6,
                              "program header table missing, misaligned or with a wrong entry size",
                              e->phoff);
    return ASMSTORE_OK;
}

/* Rule 7 for one PT_LOAD; *end is where the previous one ends (nload of them seen so far). */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_load(const asmstore__bionic *b,
                                                        const asmstore__phdr *h, uint32_t nload,
                                                        uint64_t *end) {
    asmstore_error *err = b->err;
    if (h->align < b->page || (h->align & (h->align - 1)))
        return asmstore__rule(err, 7,
                              "PT_LOAD p_align not a power of two >= the page (16384; ELF32: 4096)",
                              0);
    if (h->offset % b->page != h->vaddr % b->page)
        return asmstore__rule(err, 7, "PT_LOAD p_offset and p_vaddr differ mod the page", h->offset);
    if (!asmstore__range_ok(h->offset, h->filesz, b->e.size))
        return asmstore__rule(err, 7, "PT_LOAD past end of file", h->offset);
    if (h->filesz > h->memsz)
        return asmstore__rule(err, 7, "PT_LOAD p_filesz > p_memsz", h->offset);
    if ((h->flags & ASMSTORE__PF_W) && (h->flags & ASMSTORE__PF_X))
        return asmstore__rule(err, 7, "PT_LOAD both writable and executable", h->offset);
    if (!(h->flags & ASMSTORE__PF_R))
        return asmstore__rule(err, 7, "PT_LOAD without PF_R (bionic maps it PROT_NONE)",
                              h->offset);
    if (nload && h->vaddr < *end)
        return asmstore__rule(err, 7, "PT_LOADs unsorted or overlapping", h->offset);
    if (h->vaddr + h->memsz < h->vaddr)
        return asmstore__rule(err, 7, "PT_LOAD wraps around", h->offset);
    *end = h->vaddr + h->memsz;
    return ASMSTORE_OK;
}

/* Rules 7 and 8 (segments), rule 6 (PT_PHDR, or a first PT_LOAD that covers the program
   headers). */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_segments(asmstore__bionic *b) {
    const asmstore__elf *e = &b->e;
    asmstore__phdr h;
    asmstore_result res;
    uint64_t last_load_end = 0;
    uint32_t i, nload = 0;
    int have_phdr = 0;
    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &h);
        if (h.type == ASMSTORE__PT_LOAD) {
            if ((res = asmstore__bionic_load(b, &h, nload, &last_load_end)) != ASMSTORE_OK)
                return res;
            nload++;
        } else if (h.type == ASMSTORE__PT_GNU_RELRO || h.type == ASMSTORE__PT_TLS ||
                   h.type == ASMSTORE__PT_NOTE || h.type == ASMSTORE__PT_INTERP) {
            return asmstore__rule(b->err, 8, "PT_GNU_RELRO, PT_TLS, PT_NOTE or PT_INTERP present",
                                  0);
        } else if (h.type == ASMSTORE__PT_DYNAMIC) {
            b->dynph = h;
            b->have_dynph = 1; /* the last one wins, as in bionic */
        } else if (h.type == ASMSTORE__PT_PHDR) {
            have_phdr = 1;
            /* bionic's CheckPhdr: the whole table inside one PT_LOAD's file bytes */
            if (!asmstore__in_load(e, h.vaddr, (uint64_t)e->phnum * e->phentsize) ||
                h.offset != e->phoff)
                return asmstore__rule(b->err, 6, "PT_PHDR not inside a PT_LOAD", h.offset);
        }
    }
    if (nload == 0) return asmstore__rule(b->err, 7, "no PT_LOAD", 0);
    if (!have_phdr) {
        asmstore__phdr first;
        memset(&first, 0, sizeof first);
        for (i = 0; i < e->phnum; i++) {
            asmstore__elf_phdr(e, i, &first);
            if (first.type == ASMSTORE__PT_LOAD) break;
        }
        if (first.offset != 0 ||
            !asmstore__in_load(e, first.vaddr + e->phoff, (uint64_t)e->phnum * e->phentsize))
            return asmstore__rule(
                b->err, 6, "no PT_PHDR and the first PT_LOAD does not cover the program headers",
                0);
    }
    return ASMSTORE_OK;
}

/* Rule 2: exactly one SHT_DYNAMIC, equal to PT_DYNAMIC, loaded, linked to an in-file string
   table. */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_dynamic_section(asmstore__bionic *b) {
    const asmstore__elf *e = &b->e;
    asmstore_error *err = b->err;
    asmstore__shdr s;
    uint32_t i, ndynsec = 0;
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &s);
        if (s.type == ASMSTORE__SHT_DYNAMIC) {
            if (!ndynsec) b->dynsec = s;
            ndynsec++;
        }
    }
    if (ndynsec != 1) return asmstore__rule(err, 2, "not exactly one SHT_DYNAMIC section", 0);
    if (!b->have_dynph) return asmstore__rule(err, 2, "no PT_DYNAMIC", 0);
    if (b->dynsec.offset != b->dynph.offset || b->dynsec.size != b->dynph.filesz)
        return asmstore__rule(err, 2, ".dynamic section differs from PT_DYNAMIC", b->dynsec.offset);
    if (b->dynsec.offset % b->wa || !asmstore__range_ok(b->dynsec.offset, b->dynsec.size, e->size))
        return asmstore__rule(err, 2, ".dynamic misaligned or outside the file", b->dynsec.offset);
    if (!asmstore__in_load(e, b->dynph.vaddr, b->dynph.filesz))
        return asmstore__rule(err, 2, "PT_DYNAMIC not inside a PT_LOAD", b->dynph.offset);
    if (b->dynsec.link == 0 || b->dynsec.link >= e->shnum)
        return asmstore__rule(err, 2, ".dynamic sh_link out of range", 0);
    asmstore__elf_shdr(e, b->dynsec.link, &b->strsec);
    if (b->strsec.type != ASMSTORE__SHT_STRTAB ||
        !asmstore__range_ok(b->strsec.offset, b->strsec.size, e->size))
        return asmstore__rule(err, 2, ".dynamic sh_link is not an in-file SHT_STRTAB", 0);
    return ASMSTORE_OK;
}

/* Walks the dynamic table: DT_NULL within sh_size (rule 2), only tags bionic takes quietly (rule
   5). */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_dynamic_tags(asmstore__bionic *b) {
    const asmstore__elf *e = &b->e;
    asmstore_error *err = b->err;
    uint64_t k, ndyn = b->dynsec.size / b->dynsz;
    for (k = 0; k < ndyn; k++) {
        uint64_t at = b->dynsec.offset + k * b->dynsz;
        uint64_t tag = asmstore__rdw(e->p + at, e->is64),
                 val = asmstore__rdw(e->p + at + b->wa, e->is64);
        if (tag == ASMSTORE__DT_NULL) return ASMSTORE_OK;
        switch (tag) {
            case ASMSTORE__DT_HASH:
                b->hash = val;
                b->have_hash = 1;
                break;
            case ASMSTORE__DT_STRTAB: b->strtab = val; break;
            case ASMSTORE__DT_SYMTAB: b->symtab = val; break;
            case ASMSTORE__DT_STRSZ:
                b->strsz = val;
                b->have_strsz = 1;
                break;
            case ASMSTORE__DT_SYMENT:
                if (val != b->symsz)
                    return asmstore__rule(err, 5, "DT_SYMENT is not sizeof(Sym)", at);
                break;
            case ASMSTORE__DT_SONAME:
                b->soname = val;
                b->have_soname = 1;
                break;
            case ASMSTORE__DT_GNU_HASH: break;
            case ASMSTORE__DT_FLAGS:
                if (val & ASMSTORE__DF_TEXTREL) return asmstore__rule(err, 5, "DF_TEXTREL set", at);
                break;
            case ASMSTORE__DT_TEXTREL: return asmstore__rule(err, 5, "DT_TEXTREL present", at);
            case ASMSTORE__DT_NEEDED: return asmstore__rule(err, 5, "DT_NEEDED present", at);
            default: return asmstore__rule(err, 5, "unknown dynamic tag (bionic warns)", at);
        }
    }
    return asmstore__rule(err, 2, "no DT_NULL within .dynamic", b->dynsec.offset);
}

/* Rule 3: DT_HASH points at the .hash section, nbucket >= 1, nchain == the .dynsym count, all
   loaded. */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_hash(const asmstore__bionic *b) {
    const asmstore__elf *e = &b->e;
    asmstore_error *err = b->err;
    asmstore__shdr s;
    uint32_t i, nbucket, nchain;
    uint64_t bytes;
    memset(&s, 0, sizeof s);
    if (!b->have_hash) return asmstore__rule(err, 3, "DT_HASH missing (Android 5 needs it)", 0);
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &s);
        if (s.type == ASMSTORE__SHT_HASH) break;
    }
    if (i == e->shnum || s.addr != b->hash)
        return asmstore__rule(err, 4, "DT_HASH does not point at the .hash section", 0);
    if (!asmstore__in_load(e, b->hash, 8) || !asmstore__range_ok(s.offset, 8, e->size))
        return asmstore__rule(err, 3, "DT_HASH not loaded", 0);
    nbucket = asmstore__rd32(e->p + s.offset);
    nchain = asmstore__rd32(e->p + s.offset + 4);
    if (nbucket == 0) return asmstore__rule(err, 3, "DT_HASH nbucket is 0", s.offset);
    if (nchain != b->nsyms)
        return asmstore__rule(err, 3, "DT_HASH nchain differs from the .dynsym count",
                              s.offset + 4);
    bytes = 8u + 4u * ((uint64_t)nbucket + nchain);
    if (!asmstore__range_ok(s.offset, bytes, e->size) || !asmstore__in_load(e, b->hash, bytes))
        return asmstore__rule(err, 3, "DT_HASH table outside the loaded file", s.offset);
    return ASMSTORE_OK;
}

/* Rule 4 (DT_STRSZ, DT_STRTAB, DT_SONAME, .dynsym, every st_name) with rule 3 (DT_HASH) where
   bionic meets it: after the symbol table, before the names. */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_tables(asmstore__bionic *b) {
    const asmstore__elf *e = &b->e;
    asmstore_error *err = b->err;
    asmstore_result res;
    uint32_t i;
    uint64_t k;
    if (!b->have_strsz || b->strsz == 0)
        return asmstore__rule(err, 4, "DT_STRSZ missing (bionic aborts on the first name lookup)",
                              0);
    if (b->strsz > b->strsec.size)
        return asmstore__rule(err, 4, "DT_STRSZ larger than the .dynstr section", 0);
    if (b->strtab != b->strsec.addr || !asmstore__in_load(e, b->strtab, b->strsz))
        return asmstore__rule(err, 4, "DT_STRTAB not the .dynstr address or not loaded", 0);
    if (b->have_soname && b->soname >= b->strsz)
        return asmstore__rule(err, 4, "DT_SONAME index out of DT_STRSZ", 0);
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &b->symsec);
        if (b->symsec.type == ASMSTORE__SHT_DYNSYM) break;
    }
    if (i == e->shnum) return asmstore__rule(err, 4, "no .dynsym section", 0);
    if (!asmstore__range_ok(b->symsec.offset, b->symsec.size, e->size) || b->symsec.size % b->symsz)
        return asmstore__rule(err, 4, ".dynsym outside the file or not a whole number of symbols",
                              b->symsec.offset);
    if (b->symtab != b->symsec.addr || !asmstore__in_load(e, b->symtab, b->symsec.size))
        return asmstore__rule(err, 4, "DT_SYMTAB not the .dynsym address or not loaded", 0);
    b->nsyms = b->symsec.size / b->symsz;
    if ((res = asmstore__bionic_hash(b)) != ASMSTORE_OK) return res;
    for (k = 0; k < b->nsyms; k++) {
        asmstore__sym y;
        asmstore__elf_sym(e, b->symsec.offset, k, &y);
        if (y.name >= b->strsz)
            return asmstore__rule(err, 4, "st_name out of DT_STRSZ",
                                  b->symsec.offset + k * b->symsz);
    }
    return ASMSTORE_OK;
}

/* Rule 10 for a payload named by a symbol: in the .dynsym DT_SYMTAB points at, GLOBAL, OBJECT or
   NOTYPE, DEFAULT, at the payload section's address, loaded at its file offset. */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_symbol(const asmstore__bionic *b,
                                                          const char *symbol) {
    const asmstore__elf *e = &b->e;
    asmstore_error *err = b->err;
    const char *want = symbol ? symbol : ASMSTORE_ELF_DEFAULT_SYMBOL;
    asmstore__sym y;
    asmstore__shdr ps;
    uint64_t k, at;
    for (k = 1; k < b->nsyms; k++) {
        asmstore__elf_sym(e, b->symsec.offset, k, &y);
        if (asmstore__elf_str_eq(e, b->strsec.offset, b->strsz, y.name, want, strlen(want))) break;
    }
    if (k >= b->nsyms)
        return asmstore__rule(err, 10, "symbol not in the .dynsym DT_SYMTAB points at", 0);
    at = b->symsec.offset + k * b->symsz;
    asmstore__elf_shdr(e, y.shndx, &ps);
    /* ours: OBJECT with st_size = payload size; upstream's llvm-mc + ld.lld wrappers: NOTYPE, size
       0. bionic loads both (dlsym only needs GLOBAL/WEAK, defined, not TLS) */
    if ((y.info >> 4) != ASMSTORE__STB_GLOBAL ||
        ((y.info & 15u) != ASMSTORE__STT_OBJECT && (y.info & 15u) != 0) || (y.other & 3u) != 0)
        return asmstore__rule(err, 10, "symbol is not GLOBAL, OBJECT or NOTYPE, DEFAULT", at);
    if (y.value != ps.addr || y.value == 0)
        return asmstore__rule(err, 10, "st_value is not the payload section address", at);
    if (y.size != ps.size && y.size != 0)
        return asmstore__rule(err, 10, "st_size is neither the payload size nor 0", at);
    if (!(ps.flags & ASMSTORE__SHF_ALLOC) || ps.offset != ps.addr ||
        !asmstore__in_load(e, ps.addr, ps.size))
        return asmstore__rule(err, 10, "payload section not loaded at its file offset", ps.offset);
    return ASMSTORE_OK;
}

/* Rule 11 for MonoVM's legacy "payload" section: not SHF_ALLOC, 16 KiB-aligned, outside every
   PT_LOAD. */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_legacy_section(const asmstore__bionic *b,
                                                                  uint32_t index) {
    const asmstore__elf *e = &b->e;
    asmstore__shdr ps;
    asmstore__phdr h;
    uint32_t i;
    asmstore__elf_shdr(e, index, &ps);
    if (ps.flags & ASMSTORE__SHF_ALLOC)
        return asmstore__rule(b->err, 11, "legacy payload section is SHF_ALLOC", ps.offset);
    if (ps.offset % ASMSTORE_ELF_PAGE_16K)
        return asmstore__rule(b->err, 11, "legacy payload section offset not 16 KiB-aligned",
                              ps.offset);
    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &h);
        if (h.type == ASMSTORE__PT_LOAD && ps.offset < h.offset + h.filesz &&
            h.offset < ps.offset + ps.size)
            return asmstore__rule(b->err, 11, "legacy payload section inside a PT_LOAD", ps.offset);
    }
    return ASMSTORE_OK;
}

/* Rules 10 / 11: the payload as asmstore_elf_payload finds it, then its own rule. */
ASMSTORE__PRIVATE asmstore_result asmstore__bionic_payload(const asmstore__bionic *b,
                                                           const char *symbol) {
    asmstore_elf_info info;
    const void *pl;
    size_t pls;
    asmstore_result res;
    memset(&info, 0, sizeof info);
    res = asmstore_elf_payload(b->e.p, (size_t)b->e.size, symbol, &pl, &pls, &info, NULL);
    if (res == ASMSTORE_ERR_NO_PAYLOAD)
        return asmstore__rule(b->err, 10, "neither the symbol nor a payload section", 0);
    if (res != ASMSTORE_OK)
        return asmstore__rule(b->err, info.kind == ASMSTORE_ELF_SECTION ? 11 : 10,
                              "payload symbol or section malformed", 0);
    if (info.kind == ASMSTORE_ELF_SYMBOL) return asmstore__bionic_symbol(b, symbol);
    return asmstore__bionic_legacy_section(b, info.section_index);
}

ASMSTORE_DEF asmstore_result asmstore_elf_check_bionic(const void *elf, size_t size,
                                                       asmstore_abi abi, const char *symbol,
                                                       const asmstore_zip_entry *apk_entry,
                                                       asmstore_error *err) {
    asmstore__bionic b;
    asmstore_result res;
    memset(&b, 0, sizeof b);
    b.err = err;
    if ((res = asmstore__elf_open_or_fail(&b.e, elf, size, err)) != ASMSTORE_OK) return res;
    b.wa = b.e.is64 ? 8u : 4u;
    b.symsz = b.e.is64 ? 24u : 16u;
    b.dynsz = b.e.is64 ? 16u : 8u;
    b.page = b.e.is64 ? ASMSTORE_ELF_PAGE_16K : 4096u; /* 16 KiB kernels run 64-bit code only */
    if ((res = asmstore__bionic_headers(&b, abi)) != ASMSTORE_OK ||
        (res = asmstore__bionic_segments(&b)) != ASMSTORE_OK ||
        (res = asmstore__bionic_dynamic_section(&b)) != ASMSTORE_OK ||
        (res = asmstore__bionic_dynamic_tags(&b)) != ASMSTORE_OK ||
        (res = asmstore__bionic_tables(&b)) != ASMSTORE_OK ||
        (res = asmstore__bionic_payload(&b, symbol)) != ASMSTORE_OK)
        return res;
    /* rule 12: the APK entry */
    if (apk_entry) {
        if (apk_entry->method != 0)
            return asmstore__rule(err, 12, "APK entry is not STORED", apk_entry->lfh_offset);
        if (apk_entry->data_offset % b.page)
            return asmstore__rule(err, 12, "APK entry data not page-aligned (16 KiB; ELF32: 4 KiB)",
                                  apk_entry->data_offset);
    }
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_ELF */

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_IMPLEMENTATION_INCLUDED */
#endif /* ASMSTORE_IMPLEMENTATION */

/*
   REVISION HISTORY (what changed for a user: CHANGELOG.md)
     0.6.0  one version for the project; asmstore_add for the writer's entries; the library
            facts (asmstore_abi_is_64bit, asmstore_host_abi, asmstore_compression_level_max and
            _default); the internal layer moved into the implementation.
     0.1.0  first release: reader and writer for formats 2, 3, 4; atomic file output; ELF wrapper
            (dlopen, section, template modes), payload finder, bionic-rules checker; ZIP/APK scan;
            dlopen, file and APK locators. (asmstore.h said 0.1.0 until 0.6.0; format 1, the
            trim switches and the cache header came in between.)

   OLDER NAMES
     ASMSTORE_NO_LOCATOR    is still honoured as ASMSTORE_NO_DLOPEN.

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
