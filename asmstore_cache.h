/* asmstore_cache.h - v0.6.0 - on-disk cache of decompressed assembly-store entries, single header.
   MIT licence at the end of this file. Builds on asmstore.h (its declarations only).

   WHAT IT IS
     A host asks for an entry's decompressed image. A hit is a private, writable mapping of a file
     an earlier run wrote, served only after it passed every check against the store. A miss is
     decompressed into memory the caller owns, and a snapshot of it is queued for ONE background
     writer thread, which writes a temp file and renames it into place. Once enough files have
     gathered, the writer consolidates them into the store's one pack file (each image on a page),
     mapped once: hits from it are slices of that one mapping, so a process may hold more images
     than the kernel allows mappings. Uncompressed entries are served straight from the store.

   DO THIS
       #define ASMSTORE_CACHE_IMPLEMENTATION
     before you include this file in *one* C or C++ file. That file needs only asmstore.h's
     declarations (the cache calls its public functions and its byte readers), and _GNU_SOURCE or
     _POSIX_C_SOURCE >= 200809L (openat, fdopendir, sigtimedwait; with only the latter, madvise
     and mincore are not declared: hits map their own ranges, >>cache-platform). Link -lpthread,
     and -lzstd unless ASMSTORE_NO_ZSTD. Linux and Android run it; macOS and the BSDs compile
     it; Windows does not.

   EXAMPLE (checks shortened)
       asmstore_cache *c;
       asmstore_cache_image img;
       asmstore_error err;
       asmstore_cache_open(&c, code_cache_dir, &reader, NULL, &err); // an unusable cache: no error
       if (asmstore_cache_get(c, &entry, &img, &err) == ASMSTORE_OK) {
           use(img.data, img.size);                      // img.source: HIT, MISS, DIRECT or COPY
           asmstore_cache_release(&img);                 // images may outlive the cache
       } else {
           fprintf(stderr, "%s\n", err.message);
       }
       asmstore_cache_close(c);                          // joins the writer thread

   ERRORS
     As in asmstore.h: every function that returns an asmstore_result takes `asmstore_error *err`
     last (may be NULL) and fills it when it fails: the result, a static message saying what was
     checked or looked for, the byte offset in the cache file, the entry, errno. A cache directory
     that cannot be used (read-only disk, another owner, a symlink in the way) is not a failure:
     open gives an object that only decompresses (counters.enabled 0, counters.last_errno why).

   LAYOUT
     <root>/decompressed-assembly-cache-v1/<store id: 16 hex>/{<index>.bin, pack, .verified}
     Directories 0700, files 0600. The directory must be private to the app: a hit is a MAP_PRIVATE
     mapping, and another writer truncating its file could raise SIGBUS (our writers never modify a
     file in place; a file of another uid, or writable by others, is a miss and replaced). Store id:
     the v4 header's content_id; v2/v3 stores have none, so it is XXH3-64 of the store's metadata,
     and every file also checks a hash of the entry's stored bytes. The file formats are at their
     banners below: >>cache-footer, >>cache-records, >>cache-pack.

   THREADS
     asmstore_cache_get may be called from any number of threads at once. Open starts no thread; the
     writer starts on the first miss (or at flush), runs with every signal blocked, and is joined by
     close. Storage failures (ENOSPC, EROFS, EACCES, EIO, EFBIG, ...) turn writing off for the
     object's life; hits and decompression go on. A host should ignore SIGXFSZ: the writer survives
     EFBIG either way, but the default action of a SIGXFSZ raised elsewhere kills the process.

   OPTIONS (asmstore_cache_options; zero means the default)
     verify   RECORDED: a hit on the file the writer recorded reads no payload byte; FULL: every hit
              hashes its payload.
     policy   AUTO: files in the page cache are served; an evicted file is served unless the
              store's learned decompression rate beats the read rate measured this run.
              ALWAYS, RESIDENT.
     pack     AUTO: consolidate once ASMSTORE_CACHE_PACK_MIN_FILES files lie outside the pack.
              ALWAYS, NEVER, AT_FLUSH (for hosts that map images from the pack by offset).

   CONFIGURATION (define before the implementation include; defaults in brackets)
     ASMSTORE_CACHE_STATIC          every function static to the including file  [ASMSTORE_STATIC]
     ASMSTORE_CACHE_DEF             storage/visibility of public functions       [extern / static]
     ASMSTORE_CACHE_QUEUE_BYTES     default bound of queued snapshots            [32 MiB]
     ASMSTORE_CACHE_DCTX_POOL       ZSTD_DCtx objects kept for reuse             [8]
     ASMSTORE_CACHE_STALE_SECONDS   a temp file this old is stale even if its pid lives [3600]
     ASMSTORE_CACHE_PROBE_BYTES     POLICY_AUTO: bytes read, timed, before stepping aside [1 MiB]
     ASMSTORE_CACHE_PACK_MIN_FILES  PACK_AUTO: files outside the pack before consolidating [16]
     ASMSTORE_NO_ZSTD               as in asmstore.h: no ZSTD_DCtx pool
     ASMSTORE_ZSTD_HEADER           how to include zstd                          [<zstd.h>]
     Environment: ASMSTORE_CACHE_DISABLE set to anything but "" or "0" turns the cache off at open.
     FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION changes nothing: every check stays on (fuzzers feed
     asmstore_cache_validate_file, the pure function every hit goes through).

   The version is asmstore.h's (ASMSTORE_VERSION_*): one version for the project.
   HISTORY and LICENCE are at the end of this file.
*/
#ifndef ASMSTORE_CACHE_H_INCLUDED
#define ASMSTORE_CACHE_H_INCLUDED

#include "asmstore.h"

/* >>cache-api ---------------------------------------------------------------------------------- */
#ifndef ASMSTORE_CACHE_DEF
#if defined(ASMSTORE_CACHE_STATIC) || defined(ASMSTORE_STATIC)
#if defined(__GNUC__) || defined(__clang__)
/* a static copy need not use them all */
#define ASMSTORE_CACHE_DEF static __attribute__((unused))
#else
#define ASMSTORE_CACHE_DEF static
#endif
#else
#define ASMSTORE_CACHE_DEF extern
#endif
#endif

#ifndef ASMSTORE_CACHE_QUEUE_BYTES
#define ASMSTORE_CACHE_QUEUE_BYTES ((size_t)32 << 20)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ASMSTORE_CACHE_MAGIC            0x43434158u /* "XACC" */
#define ASMSTORE_CACHE_FOOTER_VERSION   2u
#define ASMSTORE_CACHE_FOOTER_SIZE      48u
#define ASMSTORE_CACHE_FLAG_SOURCE_HASH 1u
#define ASMSTORE_CACHE_DIR_NAME         "decompressed-assembly-cache-v1"

typedef struct asmstore_cache asmstore_cache;

typedef struct asmstore_cache_options {
    int disable;   /* nonzero: cache off (decompress every entry, write nothing) */
    int read_only; /* nonzero: use hits, never write */
    int fsync;     /* nonzero: fsync the directory after each rename too */
    /* 0: ASMSTORE_CACHE_QUEUE_BYTES. Snapshots (payload + footer) queued to write; one larger
       image at a time is queued beside them */
    size_t max_queue_bytes;
    /* 0 or 1: any. A power of two (<= 16384): an uncompressed image whose address is not a
       multiple of it is copied into a block that is (COPY) */
    size_t min_alignment;
    asmstore_allocator allocator; /* images, snapshots, records; NULL members: malloc/free */
    int verify;                   /* ASMSTORE_CACHE_VERIFY_RECORDED (0) or _FULL */
    int no_prefetch;              /* nonzero: do not ask for the recorded files ahead at open */
    int policy;                   /* when a valid file is served: ASMSTORE_CACHE_POLICY_AUTO (0) */
    int pack;                     /* when files are consolidated: ASMSTORE_CACHE_PACK_AUTO (0) */
    /* The file the store's bytes are mapped from (a locator's path), or NULL. A pack written now
       names it (inode, size, times); a v2/v3 hit in a pack written against that unchanged file is
       served on the pack's source hashes instead of hashing the entry's stored bytes again. Its
       identity is taken by stat(store_file) at asmstore_cache_open, unless store_file_identity
       is known. */
    const char *store_file;
    /* The identity of the file as it was mapped: the locator's file_identity (fstat of the
       descriptor the mapping came from). Known, it is what the pack names and is compared with,
       in place of stat(store_file): a file replaced between the mapping and asmstore_cache_open
       then never lends its identity to the old file's bytes. Zeroed (known 0): store_file. */
    asmstore_file_identity store_file_identity;
} asmstore_cache_options;

/* When the writer consolidates the store's valid files into its one pack file. */
enum asmstore_cache_pack {
    /* once ASMSTORE_CACHE_PACK_MIN_FILES files lie outside the pack, or the pack failed a check
       or is not the recorded one */
    ASMSTORE_CACHE_PACK_AUTO = 0,
    ASMSTORE_CACHE_PACK_ALWAYS = 1, /* as AUTO, from one file outside the pack */
    ASMSTORE_CACHE_PACK_NEVER = 2,  /* never write a pack (one that is there is still served) */
    /* every file outside the pack, but only in asmstore_cache_flush: for a host that maps images
       from the pack by offset (asmstore_cache_pack_file) and flushes after its start */
    ASMSTORE_CACHE_PACK_AT_FLUSH = 3
};

/* Whether a compressed entry whose cache file exists is served from it. */
enum asmstore_cache_policy {
    /* in the page cache: served; else served unless this store's learned decompression rate
       beats the read rate measured on this run's first files not in the page cache */
    ASMSTORE_CACHE_POLICY_AUTO = 0,
    ASMSTORE_CACHE_POLICY_ALWAYS = 1,  /* every valid file is served */
    ASMSTORE_CACHE_POLICY_RESIDENT = 2 /* only files whose first and last pages are resident */
};

/* What a hit checks beyond the file's type, owner, mode, size and footer. */
enum asmstore_cache_verify {
    ASMSTORE_CACHE_VERIFY_RECORDED = 0, /* payload hashed unless the file is the recorded one */
    ASMSTORE_CACHE_VERIFY_FULL = 1      /* payload hashed on every hit */
};

typedef enum asmstore_cache_source {
    ASMSTORE_CACHE_NONE = 0,   /* no image (after release or a failed get) */
    ASMSTORE_CACHE_HIT = 1,    /* private mapping of a validated cache file */
    ASMSTORE_CACHE_MISS = 2,   /* decompressed now into caller-owned memory */
    ASMSTORE_CACHE_DIRECT = 3, /* uncompressed entry: points into the store, read-only */
    ASMSTORE_CACHE_COPY = 4    /* uncompressed entry below opt.min_alignment: an aligned copy */
} asmstore_cache_source;

/* An image handed out by asmstore_cache_get; give it back with asmstore_cache_release. */
typedef struct asmstore_cache_image {
    /* the caller's (read them) */
    const unsigned char *data; /* size bytes */
    size_t size;
    asmstore_cache_source source;
    int writable;         /* data may be cast to non-const and written: HIT, MISS, COPY */
    size_t alignment;     /* largest power of two (up to 16384) dividing data's address */
    uint64_t pack_id;     /* HIT from the pack: the pack (asmstore_cache_pack_file), or 0 */
    uint64_t pack_offset; /* HIT from the pack: the image's offset in that pack file */
    /* private: for asmstore_cache_release only */
    void *base;                   /* the mapping or heap block (a slice: data) */
    size_t length;                /* its length (a slice: size) */
    asmstore_allocator allocator; /* for a MISS or COPY block */
    void *slice_of;               /* HIT lent from the pack's one mapping: that mapping */
} asmstore_cache_image;

/* What a cache object did, for tools, tests and hosts (asmstore_cache_stats). */
typedef struct asmstore_cache_counters {
    uint64_t hits, misses, direct;
    uint64_t copied;            /* uncompressed images copied: below min_alignment */
    uint64_t rejected;          /* files present but failing a check (each also a miss) */
    uint64_t checksum_failures; /* of those: payload or source hash mismatch */
    uint64_t entries_written, bytes_written;
    uint64_t entries_skipped; /* snapshots not queued or dropped: queue full, writes off, OOM */
    uint64_t write_failures;  /* at most 1: writing stays off after one */
    uint64_t stale_removed;   /* stale temp files removed at open */
    int enabled;              /* the cache directory is in use */
    int writes_enabled;       /* new files may still be written */
    int last_errno;           /* of the write failure, or of what turned the cache off */
    uint64_t store_id;
    uint64_t recorded_hits;     /* hits on the file the writer recorded: payload not hashed */
    uint64_t records_written;   /* files recorded as durable and verified (".verified") */
    uint64_t aside;             /* files present but not served by the policy (also misses) */
    uint64_t probed;            /* evicted files read in to learn the read rate (also hits) */
    uint32_t direct_ns_per_mib; /* learned: decompressing (read + zstd) per MiB, 0 = unknown */
    uint32_t read_ns_per_mib;   /* this run: reading a file not in the page cache, 0 = not yet */
    uint32_t new_memory_ns_per_mib; /* this run: first writes to new memory, 0 = not yet */
    uint64_t pack_hits;             /* hits served from the pack (also hits) */
    uint64_t packs_written;         /* packs this object consolidated and renamed into place */
    uint64_t packed_entries;        /* images in the pack the object serves from now */
    /* v2/v3 gets that hashed the entry's stored bytes (none for a hit in a pack written against
       the unchanged options.store_file) */
    uint64_t source_hashed;
    /* valid files not served because mmap failed (the process holds as many mappings as the
       kernel allows, vm.max_map_count): decompressed instead (also misses) */
    uint64_t map_failures;
} asmstore_cache_counters;

typedef struct asmstore_cache_prune_stats {
    uint64_t dirs_removed;  /* store-id directories removed (other ids) */
    uint64_t files_removed; /* in those directories, over the budget, stale temps */
    uint64_t bytes_removed;
    uint64_t files_kept, bytes_kept;
} asmstore_cache_prune_stats;

/* The cache key of a store: content_id for v4, XXH3-64 of bytes [0, data_offset) for v2/v3. */
ASMSTORE_CACHE_DEF uint64_t asmstore_cache_store_id(const asmstore_reader *store);

/* Opens the cache of one store under root (created 0700 if missing, its two subdirectories too;
   root may be reached through symlinks, the two below never). The reader is copied; its bytes
   must outlive the cache. An unusable cache is no failure (env ASMSTORE_CACHE_DISABLE,
   opt->disable, a symlink or non-directory in the way, another uid's directory, mkdir or open
   failing): *out then only decompresses (counters.enabled 0). Removes stale temp files (their
   pid is gone, or older than ASMSTORE_CACHE_STALE_SECONDS). Fails with ASMSTORE_ERR_INVALID_ARG
   or _OUT_OF_MEMORY. opt may be NULL. asmstore_cache_close frees *out. */
ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_open(asmstore_cache **out, const char *root,
                                                       const asmstore_reader *store,
                                                       const asmstore_cache_options *opt,
                                                       asmstore_error *err);

/* Gives the decompressed image of entry e (from asmstore_reader_find/_entry on the same store;
   its index, image and sizes are checked against the store's descriptor). Compressed: a HIT or
   a MISS (memory from the cache's allocator; a snapshot queued for the writer unless the queue
   is full). Uncompressed: DIRECT into the store, or COPY when its address is below
   opt->min_alignment. A valid file that mmap refuses (the process holds vm.max_map_count
   mappings) is decompressed instead (counters.map_failures); if memory fails too, the
   _OUT_OF_MEMORY message says the mappings ran out. On failure (ASMSTORE_ERR_IGNORED,
   _INVALID_ARG, _TOO_LARGE, _DECOMPRESS, _OUT_OF_MEMORY, ...) *out is empty. The image is the
   caller's until asmstore_cache_release, and may outlive the cache. */
ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_get(asmstore_cache *c, const asmstore_entry *e,
                                                      asmstore_cache_image *out,
                                                      asmstore_error *err);

/* Queues image[0..size), the decompressed image of compressed entry e made by the caller (for
   one, decompressed straight into a file the runtime maps), to be written as a miss's would be:
   a snapshot is copied, the writer starts if it has not, and the pack takes it when due
   (PACK_AT_FLUSH: at asmstore_cache_flush). For a host that writes its cache after its start:
   gets during the start then cost no snapshot and no live writer. Where a miss's snapshot would
   be dropped for want of room in the queue (max_queue_bytes), put waits for the writer to empty
   the queue first, so that a start's images are all written. The caller vouches for the
   bytes (asmstore_reader_read's output): the file records their hash, not the stored bytes'
   decompression. Nothing is queued when writing is off, the cache is off or the image is queued
   already. ASMSTORE_ERR_INVALID_ARG: NULL arguments, an uncompressed entry, or size not e's
   uncompressed size; the checks of asmstore_reader_entry_check otherwise. */
ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_put(asmstore_cache *c, const asmstore_entry *e,
                                                      const void *image, size_t size,
                                                      asmstore_error *err);

/* The pack file hits are served from now: a new descriptor of it (O_CLOEXEC; the caller closes
   it), and in *pack_id the pack_id of the images it serves (never 0). -1 when there is no pack.
   For a runtime that maps images from a file itself (CoreCLR's bundle_probe): "/proc/self/fd/N"
   (macOS and the BSDs: "/dev/fd/N") keeps naming this very file after a consolidation renames
   a new pack into its place; hits then carry the new pack's id, and an image with another
   pack_id must be handed over by address. */
ASMSTORE_CACHE_DEF int asmstore_cache_pack_file(asmstore_cache *c, uint64_t *pack_id);

/* Unmaps (HIT; a slice of the pack's mapping is given back, what was written to it dropped) or
   frees (MISS, COPY) the image and clears *img; DIRECT images and NULL are fine. Any thread. */
ASMSTORE_CACHE_DEF void asmstore_cache_release(asmstore_cache_image *img);

/* Blocks until every queued snapshot is written (or dropped after a failure), recorded, and
   consolidated into the pack when that is due. For tools, tests and hosts after their start. */
ASMSTORE_CACHE_DEF void asmstore_cache_flush(asmstore_cache *c);

/* Copies the counters (a consistent snapshot). */
ASMSTORE_CACHE_DEF void asmstore_cache_stats(asmstore_cache *c, asmstore_cache_counters *out);

/* Where an image came from, as tools print it: "hit", "miss", "direct", "copy" or "none". */
ASMSTORE_CACHE_DEF const char *asmstore_cache_source_name(asmstore_cache_source source);

/* Stops the writer after the file it is writing, or between two images of a consolidation
   (whose temp file it removes; queued snapshots are dropped: flush first to keep them), joins
   it, closes the directory and the pack and frees the cache. Images handed out stay valid. NULL
   is fine. */
ASMSTORE_CACHE_DEF void asmstore_cache_close(asmstore_cache *c);

/* Removes, under <root>/decompressed-assembly-cache-v1/: every store-id directory but keep_id
   (NULL: keep them all), stale temp files, then, if max_bytes > 0, the least recently used files
   (atime, then mtime) until the kept ones total at most max_bytes. Never follows a symlink, never
   touches a name that is not a store id or one of our files. stats may be NULL.
   ASMSTORE_ERR_NOT_FOUND when there is no cache directory, _IO when it cannot be read. */
ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_prune(const char *root, const uint64_t *keep_id,
                                                        uint64_t max_bytes,
                                                        asmstore_cache_prune_stats *stats,
                                                        asmstore_error *err);

/* Pure check of a whole cache file in memory (what a hit runs): size == expected_size + 48
   (ASMSTORE_ERR_TRUNCATED, _SIZE_MISMATCH), magic (_BAD_MAGIC), version (_BAD_VERSION), store
   id, index, size and flags (_CORRUPT), source hash (_CHECKSUM; source_hash NULL: the file must
   carry none), payload hash (_CHECKSUM). err->offset: the footer field that differs. No
   allocation. */
ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_validate_file(const void *bytes, size_t size,
                                                                uint64_t store_id, uint32_t index,
                                                                uint64_t expected_size,
                                                                const uint64_t *source_hash,
                                                                asmstore_error *err);

/* Writes the footer for payload[0..size) into out[0..48). source_hash NULL: none (flags 0). */
ASMSTORE_CACHE_DEF void asmstore_cache_footer_encode(unsigned char *out, uint64_t store_id,
                                                     uint32_t index, const void *payload,
                                                     uint64_t size, const uint64_t *source_hash);

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_CACHE_H_INCLUDED */

/* >>cache-implementation ----------------------------------------------------------------------- */
#ifdef ASMSTORE_CACHE_IMPLEMENTATION
#ifndef ASMSTORE_CACHE_IMPLEMENTATION_INCLUDED
#define ASMSTORE_CACHE_IMPLEMENTATION_INCLUDED

/* >>cache-config ------------------------------------------------------------------------------- */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#ifndef ASMSTORE_NO_ZSTD
#ifndef ASMSTORE_ZSTD_HEADER
#define ASMSTORE_ZSTD_HEADER <zstd.h>
#endif
#include ASMSTORE_ZSTD_HEADER
#endif

#ifndef ASMSTORE_CACHE_DCTX_POOL
#define ASMSTORE_CACHE_DCTX_POOL 8
#endif
#ifndef ASMSTORE_CACHE_STALE_SECONDS
#define ASMSTORE_CACHE_STALE_SECONDS 3600
#endif
#ifndef ASMSTORE_CACHE_SETTLE_NS
/* a file is recorded only once its ctime is this far in the past */
#define ASMSTORE_CACHE_SETTLE_NS 20000000
#endif
#if defined(__GNUC__) || defined(__clang__)
#define ASMSTORE_CACHE__PRIVATE static __attribute__((unused))
#else
#define ASMSTORE_CACHE__PRIVATE static
#endif

#ifndef ASMSTORE_CACHE_PACK_MIN_FILES
/* PACK_AUTO: files outside the pack before it is consolidated again */
#define ASMSTORE_CACHE_PACK_MIN_FILES 16
#endif
#ifndef ASMSTORE_CACHE_PROBE_BYTES
/* POLICY_AUTO: bytes read, timed, before deciding */
#define ASMSTORE_CACHE_PROBE_BYTES ((uint64_t)1 << 20)
#endif
/* >>cache-platform ----------------------------------------------------------------------------- */
/* The cache runs where hosts run (Linux, Android) and compiles on the other POSIX systems (macOS,
   the BSDs) and in strict POSIX mode (no _GNU_SOURCE); not on Windows. What differs, once:
   - file times: POSIX 2008's st_mtim/st_ctim; Darwin's st_mtimespec/st_ctimespec;
   - posix_fadvise (a hint; Darwin has none: no hint there);
   - madvise and mincore: declared beside MADV_DONTNEED (strict POSIX on glibc and musl: neither,
     then no slices of the pack and every file counts as resident, as on an old kernel);
     mincore's vector is char * on Darwin, unsigned char * elsewhere;
   - sigtimedwait (Darwin has none: sigpending, then sigwait of a signal known pending). */
#ifdef __APPLE__
#define ASMSTORE_CACHE__TIME_NS(st, t)                          \
    ((uint64_t)(st)->st_##t##timespec.tv_sec * 1000000000u + \
     (uint64_t)(st)->st_##t##timespec.tv_nsec)
#else
#define ASMSTORE_CACHE__TIME_NS(st, t) \
    ((uint64_t)(st)->st_##t##tim.tv_sec * 1000000000u + (uint64_t)(st)->st_##t##tim.tv_nsec)
#endif
#ifdef POSIX_FADV_SEQUENTIAL
#define ASMSTORE_CACHE__FADVISE(fd, len, advice) \
    ((void)posix_fadvise(fd, 0, len, POSIX_FADV_##advice))
#else
#define ASMSTORE_CACHE__FADVISE(fd, len, advice) ((void)(fd), (void)(len))
#endif

/* Drops the private pages of [p, p + len) of a MAP_PRIVATE mapping (the file's bytes show
   again); -1 where the system cannot or refuses. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__drop_pages(void *p, size_t len) {
#ifdef MADV_DONTNEED
    return madvise(p, len, MADV_DONTNEED);
#else
    (void)p;
    (void)len;
    return -1;
#endif
}

/* Is the page at p in the page cache: 1, 0, or -1 when the system cannot tell. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__in_core(const void *p) {
#ifdef MADV_DONTNEED
#ifdef __APPLE__
    char in = 0;
#else
    unsigned char in = 0;
#endif
    if (mincore((void *)(uintptr_t)p, 1, &in) != 0) return -1;
    return (in & 1) != 0;
#else
    (void)p;
    return -1;
#endif
}

/* Takes a pending SIGXFSZ (blocked on this thread) off without waiting. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__drain_signal(int sig) {
    sigset_t s;
#if defined(__APPLE__) || defined(__OpenBSD__)
    sigset_t pending;
    int got;
    sigemptyset(&s);
    sigaddset(&s, sig);
    while (sigpending(&pending) == 0 && sigismember(&pending, sig) == 1 &&
           sigwait(&s, &got) == 0) {
    }
#else
    struct timespec zero;
    zero.tv_sec = 0;
    zero.tv_nsec = 0;
    sigemptyset(&s);
    sigaddset(&s, sig);
    while (sigtimedwait(&s, NULL, &zero) == sig) {
    }
#endif
}

/* One statement run with c->lock held; longer sections lock and unlock by hand. */
#define ASMSTORE_CACHE__LOCKED(c, ...)    \
    do {                                  \
        pthread_mutex_lock(&(c)->lock);   \
        __VA_ARGS__;                      \
        pthread_mutex_unlock(&(c)->lock); \
    } while (0)

#ifdef __cplusplus
extern "C" {
#endif

/* >>cache-footer ------------------------------------------------------------------------------- */
/* A cache file is payload[S] || footer[48], the footer's fields little-endian at offsets from S:
       off size field
        0    4  magic            0x43434158 ("XACC")
        4    4  version          2 (1 is upstream's 32-byte CRC-32 footer, docs/store-format.md §8)
        8    8  store_id         the store's cache key (asmstore_cache_store_id)
       16    8  payload_hash     XXH3-64 (seed 0) of payload[0..S)
       24    4  descriptor_index the store's descriptor index (the file name's N)
       28    4  flags            bit 0: source_hash is set and checked (v2/v3); other bits 0
       32    8  payload_size     S
       40    8  source_hash      XXH3-64 of the entry's stored (compressed) bytes (v2/v3), else 0
   A hit needs a regular file of ours (opened O_NOFOLLOW | O_NONBLOCK) of exactly S + 48 bytes,
   every footer field equal to what the store says (v2/v3: the source hash recomputed), and either
   its fstat identity equal to the writer's record (>>cache-records) or the payload hash
   recomputed and equal. Anything else is a miss, and the file is replaced. */
ASMSTORE_CACHE_DEF void asmstore_cache_footer_encode(unsigned char *out, uint64_t store_id,
                                                     uint32_t index, const void *payload,
                                                     uint64_t size, const uint64_t *source_hash) {
    asmstore__wr32(out, ASMSTORE_CACHE_MAGIC);
    asmstore__wr32(out + 4, ASMSTORE_CACHE_FOOTER_VERSION);
    asmstore__wr64(out + 8, store_id);
    asmstore__wr64(out + 16, asmstore_xxh3_64(payload, (size_t)size));
    asmstore__wr32(out + 24, index);
    asmstore__wr32(out + 28, source_hash ? ASMSTORE_CACHE_FLAG_SOURCE_HASH : 0u);
    asmstore__wr64(out + 32, size);
    asmstore__wr64(out + 40, source_hash ? *source_hash : 0u);
}

/* Every check of asmstore_cache_validate_file but the payload hash. */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__check_footer(
    const void *bytes, size_t size, uint64_t store_id, uint32_t index, uint64_t expected_size,
    const uint64_t *source_hash, asmstore_error *err) {
    const unsigned char *f = (const unsigned char *)bytes;
    uint32_t flags = source_hash ? ASMSTORE_CACHE_FLAG_SOURCE_HASH : 0u;
    int64_t entry = (int64_t)index;
    size_t s;

    if (!bytes && size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, entry, 0,
                              "cache file: NULL bytes with a nonzero size");
    if (size < ASMSTORE_CACHE_FOOTER_SIZE)
        return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, 0, entry, 0,
                              "cache file shorter than its 48-byte footer");
    s = size - ASMSTORE_CACHE_FOOTER_SIZE;
    if ((uint64_t)s != expected_size)
        return asmstore__fail(err, ASMSTORE_ERR_SIZE_MISMATCH, 0, entry, 0,
                              "cache file size is not the entry's image size + 48");
    f += s;
    if (asmstore__rd32(f) != ASMSTORE_CACHE_MAGIC)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_MAGIC, s, entry, 0,
                              "cache footer magic is not \"XACC\"");
    if (asmstore__rd32(f + 4) != ASMSTORE_CACHE_FOOTER_VERSION)
        return asmstore__fail(err, ASMSTORE_ERR_BAD_VERSION, s + 4, entry, 0,
                              "cache footer version is not 2");
    if (asmstore__rd64(f + 8) != store_id)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, s + 8, entry, 0,
                              "cache footer's store id is not the store's");
    if (asmstore__rd32(f + 24) != index)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, s + 24, entry, 0,
                              "cache footer's descriptor index is not the entry's");
    if (asmstore__rd32(f + 28) != flags)
        return asmstore__fail(
            err, ASMSTORE_ERR_CORRUPT, s + 28, entry, 0,
            "cache footer's flags are not the store's (source hash iff v2/v3)");
    if (asmstore__rd64(f + 32) != expected_size)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, s + 32, entry, 0,
                              "cache footer's payload size is not the entry's image size");
    if (source_hash && asmstore__rd64(f + 40) != *source_hash)
        return asmstore__fail(err, ASMSTORE_ERR_CHECKSUM, s + 40, entry, 0,
                              "cache footer's source hash is not that of the stored bytes");
    if (!source_hash && asmstore__rd64(f + 40) != 0u)
        return asmstore__fail(err, ASMSTORE_ERR_CORRUPT, s + 40, entry, 0,
                              "cache footer has a source hash where the store has none");
    return ASMSTORE_OK;
}

ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_validate_file(const void *bytes, size_t size,
                                                                uint64_t store_id, uint32_t index,
                                                                uint64_t expected_size,
                                                                const uint64_t *source_hash,
                                                                asmstore_error *err) {
    const unsigned char *p = (const unsigned char *)bytes;
    asmstore_result res =
        asmstore_cache__check_footer(bytes, size, store_id, index, expected_size, source_hash, err);
    if (res != ASMSTORE_OK) return res;
    size -= ASMSTORE_CACHE_FOOTER_SIZE;
    if (asmstore_xxh3_64(p, size) != asmstore__rd64(p + size + 16))
        return asmstore__fail(err, ASMSTORE_ERR_CHECKSUM, size + 16, (int64_t)index, 0,
                              "cache file's payload hash is not the footer's");
    return ASMSTORE_OK;
}

/* >>cache-object ------------------------------------------------------------------------------- */
typedef struct asmstore_cache__job {
    struct asmstore_cache__job *next;
    uint32_t index;
    unsigned char *bytes; /* payload || footer space */
    size_t size;          /* payload size */
    int has_source;
    /* larger than the queue's bound: queued alone, outside queued_bytes */
    int big;
    uint64_t source_hash;
} asmstore_cache__job;

enum { ASMSTORE_CACHE__IDLE = 0, ASMSTORE_CACHE__QUEUED = 1, ASMSTORE_CACHE__WRITTEN = 2 };

/* A file's identity as fstat gives it: any write, truncation or replacement changes one of
   these. */
typedef struct asmstore_cache__ident {
    /* the descriptor index, or ASMSTORE_CACHE__PACK_INDEX for the pack */
    uint32_t index;
    uint64_t ino, size, mtime_ns, ctime_ns;
} asmstore_cache__ident;

#define ASMSTORE_CACHE__PACK_NAME  "pack"
#define ASMSTORE_CACHE__PACK_INDEX 0xFFFFFFFFu /* the pack's record in ".verified" */

/* One image of the pack, as its table gives it. */
typedef struct asmstore_cache__slot {
    uint32_t index;
    uint64_t offset, size, hash, source_hash;
} asmstore_cache__slot;

/* A pack served from is mapped whole, once (>>cache-pack): its hits are slices of that one
   mapping, each lent to one image at a time. It outlives the pack and the cache while slices are
   lent; the last reference unmaps it. */
typedef struct asmstore_cache__map {
    pthread_mutex_t lock;
    unsigned char *base; /* the pack's bytes, MAP_PRIVATE */
    size_t len, page;
    unsigned char *lent; /* a bit per page: the slice of the image starting there is lent */
    size_t lent_bytes;
    size_t refs; /* the pack's own + one per slice lent (lock) */
    asmstore_allocator allocator;
} asmstore_cache__map;

/* A pack file opened, its header and table checked. Gets take a reference while they map from
   it; the writer replaces the cache's pack after a consolidation, and the last reference closes
   the old one. */
typedef struct asmstore_cache__pack {
    int fd;
    size_t len;                 /* its size */
    asmstore_cache__slot *slot; /* sorted by index */
    size_t nslot;
    asmstore_cache__ident id;
    int recorded; /* its identity is the recorded one: images are not hashed */
    /* the images' pack_id: 1, 2, ... in the order this cache object opened packs */
    uint64_t serial;
    /* written against the very store file this cache object reads (store_file) */
    int same_store;
    size_t refs;              /* the cache's own + gets in flight (c->lock) */
    asmstore_cache__map *map; /* the pack mapped whole, or NULL: each hit maps its range */
} asmstore_cache__pack;

struct asmstore_cache {
    asmstore_reader store; /* a copy; the bytes are the caller's */
    asmstore_cache_options opt;
    uint64_t store_id;
    int use_source_hash; /* v2/v3 */
    int dirfd;           /* the store-id directory, or -1 when the cache is off */
    pthread_mutex_t lock;
    pthread_cond_t wake;    /* writer: work or stop */
    pthread_cond_t drained; /* flush: queue empty and writer idle */
    asmstore_cache__job *head, *tail;
    size_t queued_bytes;
    int big_queued; /* a job larger than the bound is queued (one at a time) */
    int writer_started, writer_busy, stop, writes_on;
    pthread_t writer;
    unsigned char *state; /* per descriptor: IDLE, QUEUED, WRITTEN */
    /* per descriptor: its file was this object's n-th written (1, 2, ...), or 0 */
    uint32_t *write_seq;
    uint32_t writes; /* files written so far (the last write_seq) */
    uint64_t tmp_counter;
    asmstore_cache_counters n;
    /* the ".verified" file read at open, sorted by index; read-only after open */
    asmstore_cache__ident *rec;
    size_t nrec;
    /* files to record at the end of the writer's batch (lock held) */
    asmstore_cache__ident *pend;
    size_t npend, cappend;
    size_t page; /* sysconf(_SC_PAGESIZE) */
    /* this run's decompressions (read + zstd), timed: the learned rate */
    uint64_t miss_ns, miss_bytes;
    /* this run's reads of files not in the page cache, timed (POLICY_AUTO) */
    uint64_t probe_ns, probe_bytes;
    /* the pack served from, or NULL; replaced only by the writer (lock held) */
    asmstore_cache__pack *pack;
    uint64_t packs_opened; /* the last pack's serial */
    /* XXH3 of the store file's identity (opt.store_file_identity, else stat(opt.store_file) at
       open), 0 when neither is given or there */
    uint64_t store_file_id;
    /* the writer looks whether a consolidation is due when its queue is empty */
    int pack_check;
    int pack_bad; /* a packed image failed a check this run: consolidate again */
    int flushing; /* a flush waits (PACK_AT_FLUSH consolidates only then) */
#ifndef ASMSTORE_NO_ZSTD
    ZSTD_DCtx *dctx[ASMSTORE_CACHE_DCTX_POOL];
    int ndctx;
#endif
};

ASMSTORE_CACHE__PRIVATE int asmstore_cache__slot_cmp(const void *a, const void *b) {
    uint32_t x = ((const asmstore_cache__slot *)a)->index,
             y = ((const asmstore_cache__slot *)b)->index;
    return x < y ? -1 : x > y;
}

/* Orders slots by offset (then index): the pack's layout. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__slot_offset_cmp(const void *a, const void *b) {
    const asmstore_cache__slot *x = (const asmstore_cache__slot *)a,
                               *y = (const asmstore_cache__slot *)b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The image of entry `index` in pack p (may be NULL), or NULL. */
ASMSTORE_CACHE__PRIVATE const asmstore_cache__slot *asmstore_cache__pack_find(
    const asmstore_cache__pack *p, uint32_t index) {
    asmstore_cache__slot key;
    if (!p) return NULL;
    memset(&key, 0, sizeof key);
    key.index = index;
    return (const asmstore_cache__slot *)bsearch(&key, p->slot, p->nslot, sizeof *p->slot,
                                                 asmstore_cache__slot_cmp);
}

ASMSTORE_CACHE_DEF uint64_t asmstore_cache_store_id(const asmstore_reader *store) {
    if (!store || !store->data) return 0;
    if (store->has_content_id) return store->content_id;
    return asmstore_xxh3_64(store->data, store->data_offset);
}

/* >>cache-files -------------------------------------------------------------------------------- */
/* The name of a record's or a job's file: "<index>.bin", or "pack". */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__file_name(char *out, size_t cap, uint32_t index) {
    if (index == ASMSTORE_CACHE__PACK_INDEX)
        snprintf(out, cap, "%s", ASMSTORE_CACHE__PACK_NAME);
    else
        snprintf(out, cap, "%u.bin", (unsigned)index);
}

/* The pid in a temp name "....tmp.<pid>.<rand>": -1 when name has no ".tmp.", 0 when no digits
   follow. */
ASMSTORE_CACHE__PRIVATE long asmstore_cache__tmp_pid(const char *name) {
    const char *t = strstr(name, ".tmp.");
    long pid = 0;
    if (!t) return -1;
    for (t += 5; *t >= '0' && *t <= '9' && pid < 100000000L; t++) pid = pid * 10 + (*t - '0');
    return pid;
}

/* N of a cache file name "<N>.bin" (1 to 10 digits), else -1. */
ASMSTORE_CACHE__PRIVATE int64_t asmstore_cache__bin_index(const char *s) {
    int64_t n = 0;
    size_t i = 0;
    while (i < 10 && s[i] >= '0' && s[i] <= '9') n = n * 10 + (s[i++] - '0');
    return i > 0 && strcmp(s + i, ".bin") == 0 ? n : -1;
}

/* Is the temp file `name` (in dirfd) left over by a process that is gone, or very old? */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__tmp_is_stale(int dirfd, const char *name) {
    struct stat st;
    long pid = asmstore_cache__tmp_pid(name);
    if (pid < 0) return 0;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
    if (time(NULL) - st.st_mtime > (time_t)ASMSTORE_CACHE_STALE_SECONDS) return 1;
    if (pid <= 0 || (pid_t)pid == getpid()) return 0;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes stale temp files from the store directory; returns how many. */
ASMSTORE_CACHE__PRIVATE uint64_t asmstore_cache__remove_stale(int dirfd) {
    uint64_t removed = 0;
    struct dirent *de;
    DIR *d;
    int fd = dup(dirfd);

    if (fd < 0) return 0;
    d = fdopendir(fd);
    if (!d) {
        close(fd);
        return 0;
    }
    while ((de = readdir(d)) != NULL) {
        if (!strstr(de->d_name, ".tmp.")) continue;
        if (asmstore_cache__tmp_is_stale(dirfd, de->d_name) && unlinkat(dirfd, de->d_name, 0) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}

/* Removes name (in parentfd) and, if it is a directory, everything below it; never follows a
   symlink. Adds to the files and bytes counters (may be NULL). Returns 0 when name is gone. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__remove_tree(int parentfd, const char *name, int depth,
                                                        uint64_t *files, uint64_t *bytes) {
    struct stat st;
    struct dirent *de;
    DIR *d;
    int fd;

    if (fstatat(parentfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode)) {
        if (unlinkat(parentfd, name, 0) != 0) return errno == ENOENT ? 0 : -1;
        if (name[0] == '.') return 0; /* the record file is not counted as a cache file */
        if (files) (*files)++;
        if (bytes) *bytes += (uint64_t)st.st_size;
        return 0;
    }
    if (depth > 16) return -1;
    fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        (void)asmstore_cache__remove_tree(fd, de->d_name, depth + 1, files, bytes);
    }
    closedir(d);
    return unlinkat(parentfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

/* Opens (creating it 0700 if missing) the directory `name` in parentfd without following a symlink;
   it must be ours (our euid) and is made private if it is not. Returns the fd or -1 (errno set). */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__open_dir(int parentfd, const char *name) {
    struct stat st;
    int fd;

    if (mkdirat(parentfd, name, 0700) != 0 && errno != EEXIST) return -1;
    fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    if ((st.st_mode & 077) != 0) (void)fchmod(fd, 0700);
    return fd;
}

/* Opens <root>/decompressed-assembly-cache-v1 (creating both as needed); -1 with errno on
   failure. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__open_top(const char *root, int create) {
    int rootfd, fd, saved;

    if (create && mkdir(root, 0700) != 0 && errno != EEXIST) return -1;
    rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0) return -1;
    if (create)
        fd = asmstore_cache__open_dir(rootfd, ASMSTORE_CACHE_DIR_NAME);
    else
        fd = openat(rootfd, ASMSTORE_CACHE_DIR_NAME,
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    saved = errno;
    close(rootfd);
    errno = saved;
    return fd;
}

ASMSTORE_CACHE__PRIVATE void asmstore_cache__id_hex(char *out, uint64_t id) {
    static const char hex[] = "0123456789abcdef";
    int i;
    for (i = 0; i < 16; i++) out[i] = hex[(id >> (60 - 4 * i)) & 15u];
    out[16] = 0;
}

ASMSTORE_CACHE__PRIVATE int asmstore_cache__is_id_name(const char *s) {
    int i;
    for (i = 0; i < 16; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return s[16] == 0;
}

/* pwrite() all of buf at offset at, retrying EINTR; 0 or -1 with errno. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__pwrite_all(int fd, const unsigned char *buf, size_t len,
                                                       uint64_t at) {
    while (len > 0) {
        ssize_t n = pwrite(fd, buf, len, (off_t)at);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) {
            errno = EIO;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
        at += (uint64_t)n;
    }
    return 0;
}

/* After EFBIG the kernel has queued SIGXFSZ on this (blocked) thread: take it off. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__drain_sigxfsz(void) {
    asmstore_cache__drain_signal(SIGXFSZ);
}

/* A file another user owns, or one group or others may write, may hold anything: not ours. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__is_ours(const struct stat *st) {
    return S_ISREG(st->st_mode) && st->st_uid == geteuid() &&
           (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* Opens entry index's cache file when it is a regular file of ours of exactly size + footer
   bytes (*st: its fstat). Else -1, with errno ENOENT when there is no such name. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__open_file(const asmstore_cache *c, uint32_t index,
                                                      uint64_t size, struct stat *st) {
    char name[32];
    int fd;

    asmstore_cache__file_name(name, sizeof name, index);
    fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return -1;
    if (fstat(fd, st) != 0 || !asmstore_cache__is_ours(st) ||
        size > SIZE_MAX - ASMSTORE_CACHE_FOOTER_SIZE ||
        (uint64_t)st->st_size != size + ASMSTORE_CACHE_FOOTER_SIZE) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    return fd;
}

/* >>cache-rates -------------------------------------------------------------------------------- */
/* The policy compares two rates, each in ns per MiB of image: decompressing (timed on misses,
   learned across runs through the record file) and reading a cache file that is not in the page
   cache (timed this run). */
ASMSTORE_CACHE__PRIVATE uint64_t asmstore_cache__now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* 0 means unknown, so a measured rate is at least 1; capped at UINT32_MAX (4 s per MiB). */
ASMSTORE_CACHE__PRIVATE uint32_t asmstore_cache__ns_per_mib(uint64_t ns, uint64_t bytes) {
    uint64_t r;
    if (bytes == 0) return 0;
    if (ns > UINT64_MAX / 1048576u) ns = UINT64_MAX / 1048576u;
    r = ns * 1048576u / bytes;
    return r == 0 ? 1u : r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* >>cache-records ------------------------------------------------------------------------------ */
/* The ".verified" file of a store directory lists the cache files the writer made durable and
   whose bytes it knows, each with its fstat identity (inode, size, mtime, ctime). The writer
   fsyncs each file before its rename, then, at the end of each batch and once the file's ctime
   is ASMSTORE_CACHE_SETTLE_NS old, records it. A hit on a recorded file reads no payload byte: a
   kill at any point leaves only temp files, and any later write, truncation or replacement
   changes the identity, so such a file is hashed in full (and recorded once it passes).
   options.verify = ASMSTORE_CACHE_VERIFY_FULL hashes every hit. The pack is recorded the same
   way; an unrecorded pack (planted, rewritten in place, left by a kill between its rename and
   its record) has each image hashed against its table before it is served.
   File: header[32] = magic "XACV" u32, version 1 u32, store_id u64, count u32, the store's
   learned decompression rate u32 (ns per MiB of image, read + zstd, timed on misses; 0
   unknown), XXH3-64 of the records u64; then count records[40] sorted by index = index u32,
   0 u32, ino, size, mtime_ns, ctime_ns (u64 each); index 0xFFFFFFFF (last) is the pack.
   Anything else about it (absent, foreign, damaged) means "no records". */
#define ASMSTORE_CACHE__REC_MAGIC 0x56434158u /* "XACV" */
/* a dot name: not a cache file to stats and prune counts */
#define ASMSTORE_CACHE__REC_NAME ".verified"

ASMSTORE_CACHE__PRIVATE void asmstore_cache__ident_of(asmstore_cache__ident *id, uint32_t index,
                                                      const struct stat *st) {
    id->index = index;
    id->ino = (uint64_t)st->st_ino;
    id->size = (uint64_t)st->st_size;
    id->mtime_ns = ASMSTORE_CACHE__TIME_NS(st, m);
    id->ctime_ns = ASMSTORE_CACHE__TIME_NS(st, c);
}

ASMSTORE_CACHE__PRIVATE int asmstore_cache__ident_eq(const asmstore_cache__ident *a,
                                                     const asmstore_cache__ident *b) {
    return a->index == b->index && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

ASMSTORE_CACHE__PRIVATE int asmstore_cache__ident_cmp(const void *a, const void *b) {
    uint32_t x = ((const asmstore_cache__ident *)a)->index,
             y = ((const asmstore_cache__ident *)b)->index;
    return x < y ? -1 : x > y;
}

/* Reads the records (*n of them, from allocator a) and the learned rate, or returns NULL for
   "none". */
ASMSTORE_CACHE__PRIVATE asmstore_cache__ident *asmstore_cache__records_read(
    const asmstore_allocator *a, int dirfd, uint64_t store_id, uint32_t entry_count, size_t *n,
    uint32_t *rate) {
    struct stat st;
    unsigned char *buf = NULL;
    asmstore_cache__ident *rec = NULL;
    size_t count = 0, i, size = 0;
    int fd = openat(dirfd, ASMSTORE_CACHE__REC_NAME,
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

    *n = 0;
    *rate = 0;
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0 || !asmstore_cache__is_ours(&st) || st.st_size < 32 ||
        (uint64_t)st.st_size > 32u + 40u * ((uint64_t)entry_count + 1u) ||
        ((size_t)st.st_size - 32u) % 40u != 0)
        goto done;
    size = (size_t)st.st_size;
    buf = (unsigned char *)asmstore_alloc(a, size);
    if (!buf || pread(fd, buf, size, 0) != (ssize_t)size) goto done;
    count = (size - 32u) / 40u;
    if (asmstore__rd32(buf) != ASMSTORE_CACHE__REC_MAGIC || asmstore__rd32(buf + 4) != 1u ||
        asmstore__rd64(buf + 8) != store_id || asmstore__rd32(buf + 16) != count ||
        asmstore__rd64(buf + 24) != asmstore_xxh3_64(buf + 32, size - 32u) || count == 0)
        goto done;
    rec = (asmstore_cache__ident *)asmstore_alloc(a, count * sizeof *rec);
    for (i = 0; rec && i < count; i++) {
        const unsigned char *r = buf + 32 + 40 * i;
        rec[i].index = asmstore__rd32(r);
        rec[i].ino = asmstore__rd64(r + 8);
        rec[i].size = asmstore__rd64(r + 16);
        rec[i].mtime_ns = asmstore__rd64(r + 24);
        rec[i].ctime_ns = asmstore__rd64(r + 32);
        if ((rec[i].index >= entry_count && rec[i].index != ASMSTORE_CACHE__PACK_INDEX) ||
            (i > 0 && rec[i].index <= rec[i - 1].index) || asmstore__rd32(r + 4) != 0u)
            break;
    }
    if (rec && i == count) {
        *n = count;
        *rate = asmstore__rd32(buf + 20);
    } else {
        asmstore_free(a, rec, count * sizeof *rec);
        rec = NULL;
    }
done:
    asmstore_free(a, buf, size);
    close(fd);
    return rec;
}

/* Creates <base>.tmp.<pid>.<16 hex random> O_EXCL in dirfd; name in tmp. Returns the fd or -1
   (errno). */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__open_temp(int dirfd, const char *base, uint64_t nonce,
                                                      char *tmp, size_t cap) {
    struct timespec ts;
    uint64_t seed[4], rnd;
    int fd, attempt;

    for (attempt = 0;; attempt++) {
        clock_gettime(CLOCK_REALTIME, &ts);
        seed[0] = (uint64_t)ts.tv_sec;
        seed[1] = (uint64_t)ts.tv_nsec;
        seed[2] = nonce + (uint64_t)attempt;
        seed[3] = (uint64_t)(uintptr_t)tmp;
        rnd = asmstore_xxh3_64(seed, sizeof seed);
        snprintf(tmp, cap, "%s.tmp.%ld.%08x%08x", base, (long)getpid(), (unsigned)(rnd >> 32),
                 (unsigned)rnd);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST || attempt >= 3) return fd;
    }
}

/* The files of pend[0..npend) that can be recorded as verified: each must still have the
   identity it had when written (or hashed), is fsync'd, and its ctime must lie
   ASMSTORE_CACHE_SETTLE_NS in the past when it is checked the last time, so that a later write
   to it cannot land in the same timestamp tick. Compacts pend; returns how many are left. */
ASMSTORE_CACHE__PRIVATE size_t asmstore_cache__records_settle(asmstore_cache *c,
                                                              asmstore_cache__ident *pend,
                                                              size_t npend) {
    size_t i, k = 0;
    uint64_t newest = 0, now;
    struct timespec ts;
    struct stat st;

    for (i = 0; i < npend; i++) { /* durable, and still the bytes we know */
        asmstore_cache__ident cur;
        char name[32];
        int fd, ok;
        asmstore_cache__file_name(name, sizeof name, pend[i].index);
        fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0) continue;
        ok = fstat(fd, &st) == 0 &&
             (asmstore_cache__ident_of(&cur, pend[i].index, &st),
              asmstore_cache__ident_eq(&cur, &pend[i])) &&
             fsync(fd) == 0;
        close(fd);
        if (ok) {
            pend[k++] = pend[i];
            if (cur.ctime_ns > newest) newest = cur.ctime_ns;
        }
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    if (k > 0 && newest + ASMSTORE_CACHE_SETTLE_NS > now) {
        uint64_t wait = newest + ASMSTORE_CACHE_SETTLE_NS - now;
        /* a ctime in the future: checked below */
        if (wait > ASMSTORE_CACHE_SETTLE_NS) wait = ASMSTORE_CACHE_SETTLE_NS;
        ts.tv_sec = (time_t)(wait / 1000000000u);
        ts.tv_nsec = (long)(wait % 1000000000u);
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        clock_gettime(CLOCK_REALTIME, &ts);
        now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    }
    for (i = 0, npend = k, k = 0; i < npend; i++) { /* the last look: unchanged and settled */
        asmstore_cache__ident cur;
        char name[32];
        asmstore_cache__file_name(name, sizeof name, pend[i].index);
        if (fstatat(c->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        asmstore_cache__ident_of(&cur, pend[i].index, &st);
        if (asmstore_cache__ident_eq(&cur, &pend[i]) &&
            cur.ctime_ns + ASMSTORE_CACHE_SETTLE_NS <= now)
            pend[k++] = pend[i];
    }
    return k;
}

/* The record file's bytes for all[0..n) (sorted by index), with the store's learned
   decompression rate (ns per MiB, 0 = unknown) in the header's otherwise unused word. NULL when
   out of memory. */
ASMSTORE_CACHE__PRIVATE unsigned char *asmstore_cache__records_encode(
    const asmstore_allocator *a, const asmstore_cache__ident *all, size_t n, uint64_t store_id,
    uint32_t rate, size_t *size) {
    unsigned char *buf;
    size_t i;

    *size = 32 + 40 * n;
    buf = (unsigned char *)asmstore_alloc(a, *size);
    if (!buf) return NULL;
    memset(buf, 0, *size);
    for (i = 0; i < n; i++) {
        unsigned char *r = buf + 32 + 40 * i;
        asmstore__wr32(r, all[i].index);
        asmstore__wr64(r + 8, all[i].ino);
        asmstore__wr64(r + 16, all[i].size);
        asmstore__wr64(r + 24, all[i].mtime_ns);
        asmstore__wr64(r + 32, all[i].ctime_ns);
    }
    asmstore__wr32(buf, ASMSTORE_CACHE__REC_MAGIC);
    asmstore__wr32(buf + 4, 1u);
    asmstore__wr64(buf + 8, store_id);
    asmstore__wr32(buf + 16, (uint32_t)n);
    asmstore__wr32(buf + 20, rate);
    asmstore__wr64(buf + 24, asmstore_xxh3_64(buf + 32, *size - 32));
    return buf;
}

/* Records the files of pend that settle (above), merged with the records on disk (another
   process may have added some) less those of the images in `packed` (may be NULL: their files
   are about to go), and replaces the file atomically. A record lost to a racing process or a
   failure only means that file is hashed again. Returns how many were recorded. */
ASMSTORE_CACHE__PRIVATE size_t asmstore_cache__records_write(asmstore_cache *c,
                                                             asmstore_cache__ident *pend,
                                                             size_t npend, uint32_t rate,
                                                             uint64_t nonce,
                                                             const asmstore_cache__pack *packed) {
    const asmstore_allocator *al = &c->opt.allocator;
    asmstore_cache__ident *old, *all;
    size_t nold = 0, k, a = 0, b = 0, nall = 0, size = 0;
    uint32_t old_rate = 0;
    unsigned char *buf;
    char tmp[96];
    int fd, ok;

    k = asmstore_cache__records_settle(c, pend, npend);
    if (k == 0) return 0;
    qsort(pend, k, sizeof *pend, asmstore_cache__ident_cmp);
    old = asmstore_cache__records_read(al, c->dirfd, c->store_id, c->store.entry_count, &nold,
                                       &old_rate);
    all = (asmstore_cache__ident *)asmstore_alloc(al, (nold + k) * sizeof *all);

    /* merge; ours win; a duplicate index in pend keeps the last */
    while (all && (a < nold || b < k)) {
        if (b < k && (a >= nold || pend[b].index <= old[a].index)) {
            if (a < nold && old[a].index == pend[b].index) a++;
            if (nall > 0 && all[nall - 1].index == pend[b].index) nall--;
            all[nall++] = pend[b++];
        } else if (asmstore_cache__pack_find(packed, old[a].index)) {
            a++;
        } else {
            all[nall++] = old[a++];
        }
    }
    asmstore_free(al, old, nold * sizeof *old);
    buf = all ? asmstore_cache__records_encode(al, all, nall, c->store_id, rate ? rate : old_rate,
                                               &size)
              : NULL;
    asmstore_free(al, all, (nold + k) * sizeof *all);
    if (!buf) return 0;
    fd = asmstore_cache__open_temp(c->dirfd, ASMSTORE_CACHE__REC_NAME, nonce, tmp, sizeof tmp);
    ok = fd >= 0 && asmstore_cache__pwrite_all(fd, buf, size, 0) == 0 && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0) ok = 0;
    asmstore_free(al, buf, size);
    if (fd < 0) return 0;
    if (!ok || renameat(c->dirfd, tmp, c->dirfd, ASMSTORE_CACHE__REC_NAME) != 0) {
        (void)unlinkat(c->dirfd, tmp, 0);
        return 0;
    }
    (void)fsync(c->dirfd);
    return k;
}

/* Queues a file for recording (lock held); no memory just means no record. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__add_pending(asmstore_cache *c,
                                                         const asmstore_cache__ident *id) {
    if (c->npend == c->cappend) {
        size_t ncap = c->cappend ? 2 * c->cappend : 64;
        asmstore_cache__ident *p =
            (asmstore_cache__ident *)asmstore_alloc(&c->opt.allocator, ncap * sizeof *p);
        if (!p) return;
        if (c->npend) memcpy(p, c->pend, c->npend * sizeof *p);
        asmstore_free(&c->opt.allocator, c->pend, c->cappend * sizeof *p);
        c->pend = p;
        c->cappend = ncap;
    }
    c->pend[c->npend++] = *id;
}

/* >>cache-pack --------------------------------------------------------------------------------- */
/* The pack holds the store's images in one file, so that a cold start reads one file (one
   read-ahead stream, one open) instead of one per image: an evicted start pays per file, not
   per byte. Each image starts on a page, so a hit is still a private mapping of its range.
   Format: header[64] || table[count * 40] || images, each at a multiple of `align`; all fields
   little-endian; the bytes between images are zero:
       header: off size field                   table record: off size field
                0    4  magic 0x50434158 "XACP"               0    4  descriptor index
                4    4  version 1                             4    4  0
                8    8  XXH3-64 of [16, 64 + 40*count)         8    8  offset of the image
               16    8  store_id                             16    8  size S (the image size)
               24    4  count (>= 1)                         24    8  XXH3-64 of the image
               28    4  flags: bit 0 as in the footer        32    8  source hash (v2/v3), or 0
               32    4  align: the writer's page size
               36    4  0
               40    8  the pack's size in bytes
               48    8  the store file it was written against (options.store_file), or 0
               56    8  0
   The writer leaves room for a table of every descriptor, so the first image starts at the
   first multiple of align after 64 + 40 * entry_count. Images lie in the order the writer met
   them (the app's load order), not the index's. The header and table are untrusted input:
   pack_parse checks every field against the store and the file's size before any image is
   mapped, and a packed image is served only when its size and source hash are the store's.
   The pack served from is mapped whole, once, and a hit is a slice of that mapping: a process
   holding every image of a large store holds one mapping, where one mapping per image stopped at
   the kernel's vm.max_map_count (65530 by default), and malloc failed with it. A slice is lent
   to one image at a time (a second get of an image still held maps its range on its own: writes
   to one must not show in the other); release drops its private pages (MADV_DONTNEED: the next
   borrower reads the file's bytes again) before it can be lent again. */
#define ASMSTORE_CACHE__PACK_MAGIC     0x50434158u /* "XACP" */
#define ASMSTORE_CACHE__PACK_HEAD      64u
#define ASMSTORE_CACHE__PACK_SLOT      40u
#define ASMSTORE_CACHE__PACK_ALIGN_MAX 65536u

/* Checks a pack's header and table, buf[0..len) being its first bytes, against the store and
   file_size (its st_size): magic, version, store id, flags, alignment (a power of two, a
   multiple of page), the table's hash, the records in increasing index order below entry_count,
   and the images aligned, after the table, inside the file, apart from each other, the last one
   ending the file. Fills slot[0..cap) (sorted by index); returns the image count, 0 when
   anything is off. */
ASMSTORE_CACHE__PRIVATE size_t asmstore_cache__pack_parse(const unsigned char *buf, size_t len,
                                                          uint64_t file_size, uint64_t store_id,
                                                          int has_source, uint32_t entry_count,
                                                          size_t page, asmstore_cache__slot *slot,
                                                          size_t cap, uint64_t *store_file) {
    uint64_t count, align, table_end, end;
    size_t i;

    if (len < ASMSTORE_CACHE__PACK_HEAD || asmstore__rd32(buf) != ASMSTORE_CACHE__PACK_MAGIC ||
        asmstore__rd32(buf + 4) != 1u || asmstore__rd64(buf + 16) != store_id ||
        asmstore__rd32(buf + 28) != (has_source ? ASMSTORE_CACHE_FLAG_SOURCE_HASH : 0u) ||
        asmstore__rd32(buf + 36) != 0u || asmstore__rd64(buf + 40) != file_size ||
        asmstore__rd64(buf + 56) != 0u)
        return 0;
    *store_file = asmstore__rd64(buf + 48);
    count = asmstore__rd32(buf + 24);
    align = asmstore__rd32(buf + 32);
    table_end = ASMSTORE_CACHE__PACK_HEAD + ASMSTORE_CACHE__PACK_SLOT * count;
    if (count == 0 || count > entry_count || count > cap || table_end > len || align < page ||
        align > ASMSTORE_CACHE__PACK_ALIGN_MAX || (align & (align - 1)) != 0 ||
        asmstore__rd64(buf + 8) != asmstore_xxh3_64(buf + 16, (size_t)table_end - 16u))
        return 0;
    for (i = 0; i < count; i++) {
        const unsigned char *r = buf + ASMSTORE_CACHE__PACK_HEAD + ASMSTORE_CACHE__PACK_SLOT * i;
        asmstore_cache__slot *sl = &slot[i];
        sl->index = asmstore__rd32(r);
        sl->offset = asmstore__rd64(r + 8);
        sl->size = asmstore__rd64(r + 16);
        sl->hash = asmstore__rd64(r + 24);
        sl->source_hash = asmstore__rd64(r + 32);
        if (sl->index >= entry_count || (i > 0 && sl->index <= slot[i - 1].index) ||
            asmstore__rd32(r + 4) != 0u || (sl->offset & (align - 1)) != 0 ||
            sl->offset < table_end || sl->offset > file_size || sl->size == 0 ||
            sl->size > file_size - sl->offset || (uint64_t)(size_t)sl->size != sl->size ||
            (!has_source && sl->source_hash != 0u))
            return 0;
    }

    /* the images apart, in the order they lie in the file (the writer's order, not the index's) */
    qsort(slot, (size_t)count, sizeof *slot, asmstore_cache__slot_offset_cmp);
    for (i = 0, end = table_end; i < count && slot[i].offset >= end; i++)
        end = slot[i].offset + slot[i].size;
    qsort(slot, (size_t)count, sizeof *slot, asmstore_cache__slot_cmp);
    return i == count && end == file_size ? (size_t)count : 0;
}

/* Drops a reference to mapping m (lock held, released here); the last one unmaps it. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__map_drop(asmstore_cache__map *m) {
    asmstore_allocator a;
    size_t left = --m->refs;

    pthread_mutex_unlock(&m->lock);
    if (left) return;
    munmap(m->base, m->len);
    pthread_mutex_destroy(&m->lock);
    a = m->allocator;
    asmstore_free(&a, m->lent, m->lent_bytes);
    asmstore_free(&a, m, sizeof *m);
}

/* Maps pack p whole for slices (p->map). Where it cannot (no memory or address space; a system
   whose MADV_DONTNEED keeps private pages: not Linux) p->map stays NULL and each hit maps its
   own range. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__pack_map(const asmstore_cache *c,
                                                      asmstore_cache__pack *p) {
#if defined(__linux__) && defined(MADV_DONTNEED)
    const asmstore_allocator *a = &c->opt.allocator;
    asmstore_cache__map *m = (asmstore_cache__map *)asmstore_alloc(a, sizeof *m);
    void *base = MAP_FAILED;

    if (!m) return;
    memset(m, 0, sizeof *m);
    m->lent_bytes = p->len / c->page / 8u + 1u;
    m->lent = (unsigned char *)asmstore_alloc(a, m->lent_bytes);
    if (m->lent) base = mmap(NULL, p->len, PROT_READ | PROT_WRITE, MAP_PRIVATE, p->fd, 0);
    if (base == MAP_FAILED || pthread_mutex_init(&m->lock, NULL) != 0) {
        if (base != MAP_FAILED) munmap(base, p->len);
        asmstore_free(a, m->lent, m->lent_bytes);
        asmstore_free(a, m, sizeof *m);
        return;
    }
    memset(m->lent, 0, m->lent_bytes);
    m->base = (unsigned char *)base;
    m->len = p->len;
    m->page = c->page;
    m->refs = 1;
    m->allocator = *a;
    p->map = m;
#else
    (void)c;
    (void)p;
#endif
}

/* Lends the slice of mapping m (may be NULL) where the image at offset starts: its address, or
   NULL when there is no mapping or that slice is lent already. */
ASMSTORE_CACHE__PRIVATE unsigned char *asmstore_cache__slice_lend(asmstore_cache__map *m,
                                                                  uint64_t offset) {
    unsigned char *slice = NULL, bit;
    size_t page;

    if (!m) return NULL;
    page = (size_t)(offset / m->page);
    bit = (unsigned char)(1u << (page & 7u));
    pthread_mutex_lock(&m->lock);
    if (!(m->lent[page / 8u] & bit)) {
        m->lent[page / 8u] |= bit;
        m->refs++;
        slice = m->base + offset;
    }
    pthread_mutex_unlock(&m->lock);
    return slice;
}

/* Gives back the slice at `slice` holding an image of size bytes. Written (written != 0: it was
   handed out writable), its private pages are dropped first; a slice whose pages cannot be
   (madvise refused: mlock'ed memory) is never lent again, its gets map their own range. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__slice_return(asmstore_cache__map *m,
                                                         unsigned char *slice, size_t size,
                                                         int written) {
    size_t page = (size_t)(slice - m->base) / m->page,
           span = (size + m->page - 1u) & ~(m->page - 1u);
    int keep = written && asmstore_cache__drop_pages(slice, span) != 0;

    pthread_mutex_lock(&m->lock);
    if (!keep) m->lent[page / 8u] &= (unsigned char)~(1u << (page & 7u));
    asmstore_cache__map_drop(m);
}

ASMSTORE_CACHE__PRIVATE void asmstore_cache__pack_close(const asmstore_allocator *a,
                                                        asmstore_cache__pack *p) {
    if (p->map) {
        pthread_mutex_lock(&p->map->lock);
        asmstore_cache__map_drop(p->map);
    }
    close(p->fd);
    asmstore_free(a, p->slot, p->nslot * sizeof *p->slot);
    asmstore_free(a, p, sizeof *p);
}

/* Opens the store directory's pack when it is a regular file of ours whose header and table pass
   pack_parse, with one read; it is recorded when its identity is the record's. NULL when there
   is none, it fails, or no memory. */
ASMSTORE_CACHE__PRIVATE asmstore_cache__pack *asmstore_cache__pack_open(asmstore_cache *c) {
    const asmstore_allocator *a = &c->opt.allocator;
    const asmstore_cache__ident *rec = NULL;
    asmstore_cache__pack *p = NULL;
    unsigned char *buf = NULL;
    struct stat st;
    uint64_t want =
        ASMSTORE_CACHE__PACK_HEAD + ASMSTORE_CACHE__PACK_SLOT * (uint64_t)c->store.entry_count;
    uint64_t written_for = 0;
    size_t len = 0, count = 0;
    int fd = openat(c->dirfd, ASMSTORE_CACHE__PACK_NAME,
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

    if (fd < 0) return NULL;
    if (fstat(fd, &st) == 0 && asmstore_cache__is_ours(&st) &&
        st.st_size >= (off_t)ASMSTORE_CACHE__PACK_HEAD) {
        if ((uint64_t)st.st_size < want) want = (uint64_t)st.st_size;
        len = (size_t)want == want ? (size_t)want : 0u;
        buf = len ? (unsigned char *)asmstore_alloc(a, len) : NULL;
    }
    if (buf && pread(fd, buf, len, 0) == (ssize_t)len) count = asmstore__rd32(buf + 24);
    /* the slots are sized from the file's count: only when its table lies in the bytes read */
    if (count > 0 && count <= c->store.entry_count &&
        count <= (len - ASMSTORE_CACHE__PACK_HEAD) / ASMSTORE_CACHE__PACK_SLOT)
        p = (asmstore_cache__pack *)asmstore_alloc(a, sizeof *p);
    if (p) {
        memset(p, 0, sizeof *p);
        p->slot = (asmstore_cache__slot *)asmstore_alloc(a, count * sizeof *p->slot);
        p->nslot = count;
        p->len = (size_t)st.st_size; /* pack_parse checks that every image fits in a size_t */
        if (!p->slot || asmstore_cache__pack_parse(
                            buf, len, (uint64_t)st.st_size, c->store_id, c->use_source_hash,
                            c->store.entry_count, c->page, p->slot, count, &written_for) != count) {
            asmstore_free(a, p->slot, count * sizeof *p->slot);
            asmstore_free(a, p, sizeof *p);
            p = NULL;
        }
    }
    asmstore_free(a, buf, len);
    if (!p) {
        close(fd);
        return NULL;
    }
    p->fd = fd;
    p->same_store = c->store_file_id != 0 && written_for == c->store_file_id;

    /* the hits' faults read it as one stream (prefetch) */
    ASMSTORE_CACHE__FADVISE(fd, 0, SEQUENTIAL);
    asmstore_cache__ident_of(&p->id, ASMSTORE_CACHE__PACK_INDEX, &st);
    if (c->nrec > 0 && c->rec[c->nrec - 1].index == ASMSTORE_CACHE__PACK_INDEX)
        rec = &c->rec[c->nrec - 1];
    p->recorded = rec && asmstore_cache__ident_eq(rec, &p->id);
    return p;
}

/* Takes a reference on the cache's pack (NULL: there is none); pack_unref gives it back. */
ASMSTORE_CACHE__PRIVATE asmstore_cache__pack *asmstore_cache__pack_ref(asmstore_cache *c) {
    asmstore_cache__pack *p;
    pthread_mutex_lock(&c->lock);
    p = c->pack;
    if (p) p->refs++;
    pthread_mutex_unlock(&c->lock);
    return p;
}

ASMSTORE_CACHE__PRIVATE void asmstore_cache__pack_unref(asmstore_cache *c,
                                                        asmstore_cache__pack *p) {
    size_t left;
    if (!p) return;
    ASMSTORE_CACHE__LOCKED(c, left = --p->refs);
    if (left == 0) asmstore_cache__pack_close(&c->opt.allocator, p);
}

/* >>cache-writer ------------------------------------------------------------------------------- */
/* Renames temp file tmp to final_name in the store directory. Returns 0 or an errno. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__rename_into_place(asmstore_cache *c, const char *tmp,
                                                              const char *final_name) {
    int err;
    if (renameat(c->dirfd, tmp, c->dirfd, final_name) == 0) return 0;
    err = errno;
    /* a directory in the way: clear it out once and retry */
    if ((err == EISDIR || err == ENOTEMPTY || err == EEXIST) &&
        asmstore_cache__remove_tree(c->dirfd, final_name, 0, NULL, NULL) == 0 &&
        renameat(c->dirfd, tmp, c->dirfd, final_name) == 0)
        return 0;
    return err ? err : EIO;
}

/* Writes one snapshot: temp file, one write, fsync (so the record can trust it after a crash),
   rename; *id gets the file's identity. Returns 0 or an errno. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__write_job(asmstore_cache *c, asmstore_cache__job *j,
                                                      uint64_t nonce, asmstore_cache__ident *id) {
    char final_name[32], tmp[96];
    struct stat st;
    int fd, err = 0;

    asmstore_cache_footer_encode(j->bytes + j->size, c->store_id, j->index, j->bytes,
                                 (uint64_t)j->size, j->has_source ? &j->source_hash : NULL);
    asmstore_cache__file_name(final_name, sizeof final_name, j->index);
    fd = asmstore_cache__open_temp(c->dirfd, final_name, nonce, tmp, sizeof tmp);
    if (fd < 0) return errno ? errno : EIO;
    if (asmstore_cache__pwrite_all(fd, j->bytes, j->size + ASMSTORE_CACHE_FOOTER_SIZE, 0) != 0)
        err = errno;
    if (err == EFBIG) asmstore_cache__drain_sigxfsz();
    if (!err && fsync(fd) != 0) err = errno;
    if (!err) err = asmstore_cache__rename_into_place(c, tmp, final_name);

    /* the identity after the rename: on some filesystems rename changes ctime */
    if (!err && fstat(fd, &st) == 0)
        asmstore_cache__ident_of(id, j->index, &st);
    else
        id->ino = id->size = 0;
    if (close(fd) != 0 && !err) err = errno;
    if (err) {
        (void)unlinkat(c->dirfd, tmp, 0);
        return err ? err : EIO;
    }
    if (c->opt.fsync) (void)fsync(c->dirfd);
    return 0;
}

ASMSTORE_CACHE__PRIVATE void asmstore_cache__free_job(asmstore_cache *c, asmstore_cache__job *j) {
    asmstore_free(&c->opt.allocator, j->bytes, j->size + ASMSTORE_CACHE_FOOTER_SIZE);
    asmstore_free(&c->opt.allocator, j, sizeof *j);
}

/* Gives back what a job reserved of the queue (lock held): its bytes, or the one place for an
   image over the bound. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__unreserve(asmstore_cache *c, size_t size, int big) {
    if (big)
        c->big_queued = 0;
    else
        c->queued_bytes -= size + ASMSTORE_CACHE_FOOTER_SIZE;
}

/* Drops every queued job (lock held). */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__drop_queue(asmstore_cache *c, int count_skipped) {
    while (c->head) {
        asmstore_cache__job *j = c->head;
        c->head = j->next;
        asmstore_cache__unreserve(c, j->size, j->big);
        c->state[j->index] = ASMSTORE_CACHE__IDLE;
        if (count_skipped) c->n.entries_skipped++;
        asmstore_cache__free_job(c, j);
    }
    c->tail = NULL;
}

/* Storage failed (lock held): writing stays off for the cache object's life, what is queued is
   dropped. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__writes_failed(asmstore_cache *c, int err) {
    c->n.write_failures++;
    c->n.last_errno = err;
    c->writes_on = 0;
    c->n.writes_enabled = 0;
    c->pack_check = 0;
    asmstore_cache__drop_queue(c, 1);
}

/* >>cache-consolidate -------------------------------------------------------------------------- */
/* When its queue is empty (and at a flush that starts it), the writer consolidates if
   ASMSTORE_CACHE_PACK_MIN_FILES files (PACK_ALWAYS, PACK_AT_FLUSH: 1; PACK_AT_FLUSH only while
   asmstore_cache_flush waits) lie outside the pack, or the pack failed a check or is not the
   recorded one. It writes a new pack from the current one's images (in its order) and the files
   (in the order they were written, the app's load order), each image hashed as it is copied
   (one that does not match its table, footer or the store is left out), to a temp file; fsyncs
   it, renames it into place, fsyncs the directory, records it, serves from it, then removes the
   files it holds. Files stay the staging area: fewer than the minimum stay files until more
   come, rather than the whole pack being rewritten for each. Two processes may consolidate at
   once: each writes its own temp file, and the last rename wins whole. A storage failure while
   consolidating turns writing off like any write failure.
   Everything here runs on the writer thread, which alone replaces c->pack, so it reads c->pack
   without the lock. */

/* Is a consolidation due: a packed image failed a check, the pack is not the recorded one, or
   enough files "<N>.bin" lie outside the pack (PACK_AUTO: ASMSTORE_CACHE_PACK_MIN_FILES,
   PACK_ALWAYS: one)? */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__pack_due(asmstore_cache *c) {
    size_t outside = 0,
           need = c->opt.pack == ASMSTORE_CACHE_PACK_AUTO ? ASMSTORE_CACHE_PACK_MIN_FILES : 1u;
    struct dirent *de;
    DIR *d;
    int bad, fd;

    ASMSTORE_CACHE__LOCKED(c, bad = c->pack_bad);
    if (bad || (c->pack && !c->pack->recorded && c->opt.verify != ASMSTORE_CACHE_VERIFY_FULL))
        return 1;
    fd = dup(c->dirfd);
    d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return 0;
    }
    rewinddir(d); /* a dup shares the directory offset: an earlier listing left it at the end */
    while (outside < need && (de = readdir(d)) != NULL) {
        int64_t index = asmstore_cache__bin_index(de->d_name);
        if (index >= 0 && index < (int64_t)c->store.entry_count &&
            !asmstore_cache__pack_find(c->pack, (uint32_t)index))
            outside++;
    }
    closedir(d);
    return outside >= need;
}

/* Maps entry index's image read-only from the old pack (may be NULL) when it is there and hashes
   as its table says, else from its file when that passes every check a hit makes and its payload
   hash; *sl gets its size and hashes. Returns the mapping of *len bytes (the image at its
   start), or MAP_FAILED when no valid image is at hand. */
ASMSTORE_CACHE__PRIVATE void *asmstore_cache__pack_source(asmstore_cache *c,
                                                          const asmstore_cache__pack *old,
                                                          uint32_t index, asmstore_cache__slot *sl,
                                                          size_t *len) {
    const asmstore_cache__slot *o = asmstore_cache__pack_find(old, index);
    asmstore_entry e;
    struct stat st;
    void *m = MAP_FAILED;
    int fd;

    if (asmstore_reader_entry(&c->store, index, &e, NULL) != ASMSTORE_OK || e.ignored ||
        e.compression == ASMSTORE_COMPRESSION_NONE || e.uncompressed_size == 0)
        return MAP_FAILED;
    sl->index = index;
    sl->size = (uint64_t)e.uncompressed_size;
    sl->source_hash = c->use_source_hash ? asmstore_xxh3_64(e.image, e.image_size) : 0u;
    if (o && o->size == sl->size && o->source_hash == sl->source_hash) {
        *len = e.uncompressed_size;
        m = mmap(NULL, *len, PROT_READ, MAP_SHARED, old->fd, (off_t)o->offset);
        if (m != MAP_FAILED && asmstore_xxh3_64(m, *len) == o->hash) {
            sl->hash = o->hash;
            return m;
        }
        if (m != MAP_FAILED) munmap(m, *len);
    }
    fd = asmstore_cache__open_file(c, index, sl->size, &st);
    if (fd < 0) return MAP_FAILED;
    *len = e.uncompressed_size + ASMSTORE_CACHE_FOOTER_SIZE;
    m = mmap(NULL, *len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return MAP_FAILED;
    if (asmstore_cache_validate_file(m, *len, c->store_id, index, sl->size,
                                     c->use_source_hash ? &sl->source_hash : NULL,
                                     NULL) != ASMSTORE_OK) {
        munmap(m, *len);
        return MAP_FAILED;
    }
    sl->hash = asmstore__rd64((const unsigned char *)m + e.uncompressed_size + 16);
    return m;
}

/* The pack's header and table for slot[0..n) (sorted by index), images aligned to align,
   file_size bytes in all: ASMSTORE_CACHE__PACK_HEAD + n table records (from allocator a; NULL
   when out of memory). */
ASMSTORE_CACHE__PRIVATE unsigned char *asmstore_cache__pack_encode(
    const asmstore_allocator *a, uint64_t store_id, uint64_t store_file, int has_source,
    size_t align, uint64_t file_size, const asmstore_cache__slot *slot, size_t n, size_t *size) {
    unsigned char *buf;
    size_t i;

    *size = ASMSTORE_CACHE__PACK_HEAD + ASMSTORE_CACHE__PACK_SLOT * n;
    buf = (unsigned char *)asmstore_alloc(a, *size);
    if (!buf) return NULL;
    memset(buf, 0, *size);
    for (i = 0; i < n; i++) {
        unsigned char *r = buf + ASMSTORE_CACHE__PACK_HEAD + ASMSTORE_CACHE__PACK_SLOT * i;
        asmstore__wr32(r, slot[i].index);
        asmstore__wr64(r + 8, slot[i].offset);
        asmstore__wr64(r + 16, slot[i].size);
        asmstore__wr64(r + 24, slot[i].hash);
        asmstore__wr64(r + 32, slot[i].source_hash);
    }
    asmstore__wr32(buf, ASMSTORE_CACHE__PACK_MAGIC);
    asmstore__wr32(buf + 4, 1u);
    asmstore__wr64(buf + 16, store_id);
    asmstore__wr32(buf + 24, (uint32_t)n);
    asmstore__wr32(buf + 28, has_source ? ASMSTORE_CACHE_FLAG_SOURCE_HASH : 0u);
    asmstore__wr32(buf + 32, (uint32_t)align);
    asmstore__wr64(buf + 40, file_size);
    asmstore__wr64(buf + 48, store_file);
    asmstore__wr64(buf + 8, asmstore_xxh3_64(buf + 16, *size - 16u));
    return buf;
}

/* Orders the pack_order records: by .offset (the old offset, or the file's mtime after them),
   then .size (this object's write sequence), then index. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__order_cmp(const void *a, const void *b) {
    const asmstore_cache__slot *x = (const asmstore_cache__slot *)a,
                               *y = (const asmstore_cache__slot *)b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The order the pack is written in, into order[0..return) (entry index, and the sort keys): the
   old pack's images as they lie in it, then the files in the order they were written (mtime),
   which is the order of the misses that made them, the order the app loaded them in: the next
   start's faults then read the pack front to back. */
ASMSTORE_CACHE__PRIVATE size_t asmstore_cache__pack_order(asmstore_cache *c,
                                                          const asmstore_cache__pack *old,
                                                          asmstore_cache__slot *order) {
    struct dirent *de;
    struct stat st;
    size_t n = 0, i;
    int fd = dup(c->dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

    if (!d && fd >= 0) close(fd);
    for (i = 0; old && i < old->nslot; i++) {
        order[n].index = old->slot[i].index;
        order[n].size = 0;
        order[n++].offset = old->slot[i].offset;
    }
    if (d) rewinddir(d); /* a dup shares the directory offset */
    while (d && (de = readdir(d)) != NULL) {
        int64_t index = asmstore_cache__bin_index(de->d_name);
        if (index < 0 || index >= (int64_t)c->store.entry_count ||
            asmstore_cache__pack_find(old, (uint32_t)index) ||
            fstatat(c->dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        order[n].index = (uint32_t)index;
        /* after every old image */
        order[n].offset = (uint64_t)1 << 63 | ASMSTORE_CACHE__TIME_NS(&st, m) >> 1;
        /* within one mtime tick (coarse): the order this object wrote */
        order[n++].size = c->write_seq[index];
    }
    if (d) closedir(d);
    qsort(order, n, sizeof *order, asmstore_cache__order_cmp);
    return n;
}

/* Copies every valid image (pack_source) of order[0..norder) into temp file fd, each at the next
   page boundary after room for a whole table, then writes the header and table. Fills
   slot[0..*n). Returns 0, an errno, or -1 when close() asked the writer to stop or there was
   nothing to pack. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__pack_fill(asmstore_cache *c,
                                                      const asmstore_cache__pack *old, int fd,
                                                      const asmstore_cache__slot *order,
                                                      size_t norder, asmstore_cache__slot *slot,
                                                      size_t *n) {
    uint64_t at =
        ASMSTORE_CACHE__PACK_HEAD + ASMSTORE_CACHE__PACK_SLOT * (uint64_t)c->store.entry_count;
    unsigned char *head;
    size_t i, k = 0, len = 0, hsize = 0;
    int err = 0, stop = 0;

    for (i = 0; i < norder && !err && !stop; i++) {
        void *m = asmstore_cache__pack_source(c, old, order[i].index, &slot[k], &len);
        if (m == MAP_FAILED) continue;
        slot[k].offset = at = (at + c->page - 1) & ~(uint64_t)(c->page - 1);
        if (asmstore_cache__pwrite_all(fd, (const unsigned char *)m, (size_t)slot[k].size, at) != 0)
            err = errno;
        munmap(m, len);
        at += slot[k++].size;
        ASMSTORE_CACHE__LOCKED(c, stop = c->stop);
    }
    *n = k;
    if (err == EFBIG) asmstore_cache__drain_sigxfsz();
    if (err) return err;
    if (stop || k == 0) return -1;
    qsort(slot, k, sizeof *slot, asmstore_cache__slot_cmp); /* the table is sorted by index */
    head = asmstore_cache__pack_encode(&c->opt.allocator, c->store_id, c->store_file_id,
                                       c->use_source_hash, c->page, at, slot, k, &hsize);
    if (!head) return -1;
    if (asmstore_cache__pwrite_all(fd, head, hsize, 0) != 0) err = errno;
    asmstore_free(&c->opt.allocator, head, hsize);
    return err;
}

/* Writes the new pack from old (may be NULL) and the files: temp file, pack_fill, fsync, rename,
   and an fsync of the directory (the pack's name must be durable before the files it holds go).
   *ino: the new pack's inode. Returns 0, an errno of a storage failure, or -1 when nothing was
   written. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__pack_write(asmstore_cache *c,
                                                       const asmstore_cache__pack *old,
                                                       uint64_t nonce, uint64_t *ino) {
    const asmstore_allocator *a = &c->opt.allocator;
    asmstore_cache__slot *slot, *order;
    struct stat st;
    size_t n = 0, norder = 0, cap = c->store.entry_count ? c->store.entry_count : 1u;
    char tmp[96];
    int fd = -1, err = -1;

    /* the table, then the order */
    slot = (asmstore_cache__slot *)asmstore_alloc(a, 2 * cap * sizeof *slot);
    order = slot ? slot + cap : NULL;
    if (slot)
        fd = asmstore_cache__open_temp(c->dirfd, ASMSTORE_CACHE__PACK_NAME, nonce, tmp, sizeof tmp);
    if (slot && fd < 0) err = errno ? errno : EIO;
    if (fd >= 0) norder = asmstore_cache__pack_order(c, old, order);
    if (fd >= 0) err = asmstore_cache__pack_fill(c, old, fd, order, norder, slot, &n);
    asmstore_free(a, slot, 2 * cap * sizeof *slot);
    if (fd < 0) return err;
    if (!err && fsync(fd) != 0) err = errno;
    if (!err) err = asmstore_cache__rename_into_place(c, tmp, ASMSTORE_CACHE__PACK_NAME);
    if (!err && fstat(fd, &st) == 0) *ino = (uint64_t)st.st_ino;
    if (close(fd) != 0 && !err) err = errno;
    if (err) {
        (void)unlinkat(c->dirfd, tmp, 0);
        return err;
    }
    (void)fsync(c->dirfd);
    return 0;
}

/* Consolidates when due (pack_due): writes the new pack from the one on disk now (another
   process may have replaced ours) and the files, records it, serves from it, and removes the
   files it holds. A pack another process renamed over ours in between is served but neither
   recorded nor trusted to replace files. Returns 0, or the errno of a storage failure. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__consolidate(asmstore_cache *c, uint64_t nonce) {
    asmstore_cache__pack *old, *fresh, *prev;
    asmstore_cache__ident id;
    uint64_t ino = 0;
    uint32_t rate;
    size_t i;
    int err, ours;

    if (!asmstore_cache__pack_due(c)) return 0;
    old = asmstore_cache__pack_open(c);
    err = asmstore_cache__pack_write(c, old, nonce, &ino);
    if (old) asmstore_cache__pack_close(&c->opt.allocator, old);
    if (err) return err > 0 ? err : 0;
    fresh = asmstore_cache__pack_open(c);
    if (!fresh) return 0;
    asmstore_cache__pack_map(c, fresh);
    ours = fresh->id.ino == ino;
    if (ours) {
        ASMSTORE_CACHE__LOCKED(c, rate = c->n.direct_ns_per_mib);
        id = fresh->id;
        fresh->recorded = asmstore_cache__records_write(c, &id, 1, rate, nonce, fresh) == 1 &&
                          c->opt.verify != ASMSTORE_CACHE_VERIFY_FULL;
    }
    fresh->refs = 1;
    pthread_mutex_lock(&c->lock);
    prev = c->pack;
    c->pack = fresh;
    fresh->serial = ++c->packs_opened;
    c->pack_bad = 0;
    c->n.packs_written += (uint64_t)ours;
    c->n.packed_entries = fresh->nslot;
    pthread_mutex_unlock(&c->lock);
    asmstore_cache__pack_unref(c, prev);
    for (i = 0; ours && i < fresh->nslot; i++) { /* gets look in the pack first from now on */
        char name[32];
        asmstore_cache__file_name(name, sizeof name, fresh->slot[i].index);
        (void)unlinkat(c->dirfd, name, 0);
    }
    return 0;
}

/* >>cache-thread ------------------------------------------------------------------------------- */
/* The writer at the end of a batch (lock held, released while it works): records what the batch
   wrote or verified, with the store's decompression rate learned from this run's misses. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__writer_record(asmstore_cache *c) {
    asmstore_cache__ident *pend = c->pend;
    size_t npend = c->npend, cap = c->cappend, done;
    uint32_t rate;
    uint64_t nonce;

    if (c->miss_bytes)
        c->n.direct_ns_per_mib = asmstore_cache__ns_per_mib(c->miss_ns, c->miss_bytes);
    rate = c->n.direct_ns_per_mib;
    c->pend = NULL;
    c->npend = c->cappend = 0;
    c->writer_busy = 1;
    nonce = ++c->tmp_counter;
    pthread_mutex_unlock(&c->lock);
    done = asmstore_cache__records_write(c, pend, npend, rate, nonce, NULL);
    asmstore_free(&c->opt.allocator, pend, cap * sizeof *pend);
    pthread_mutex_lock(&c->lock);
    c->writer_busy = 0;
    c->n.records_written += done;
}

/* The writer with nothing queued (lock held, released while it works): consolidates if due. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__writer_consolidate(asmstore_cache *c) {
    uint64_t nonce;
    int err;

    c->pack_check = 0;
    if (!c->writes_on) return;
    c->writer_busy = 1;
    nonce = ++c->tmp_counter;
    pthread_mutex_unlock(&c->lock);
    err = asmstore_cache__consolidate(c, nonce);
    pthread_mutex_lock(&c->lock);
    c->writer_busy = 0;
    if (err) asmstore_cache__writes_failed(c, err);
}

ASMSTORE_CACHE__PRIVATE void *asmstore_cache__writer_main(void *arg) {
    asmstore_cache *c = (asmstore_cache *)arg;

    pthread_mutex_lock(&c->lock);
    for (;;) {
        asmstore_cache__job *j;
        asmstore_cache__ident id;
        uint64_t nonce;
        int err;
        if (c->stop) break;
        if (!c->head && c->npend > 0) {
            asmstore_cache__writer_record(c);
            continue;
        }
        if (!c->head && c->pack_check &&
            (c->opt.pack != ASMSTORE_CACHE_PACK_AT_FLUSH || c->flushing)) {
            asmstore_cache__writer_consolidate(c);
            continue;
        }
        if (!c->head) {
            pthread_cond_broadcast(&c->drained);
            pthread_cond_wait(&c->wake, &c->lock);
            continue;
        }
        j = c->head;
        c->head = j->next;
        if (!c->head) c->tail = NULL;
        c->writer_busy = 1;
        nonce = ++c->tmp_counter;
        pthread_mutex_unlock(&c->lock);

        err = asmstore_cache__write_job(c, j, nonce, &id);

        pthread_mutex_lock(&c->lock);
        c->writer_busy = 0;
        asmstore_cache__unreserve(c, j->size, j->big);
        if (err) {
            c->state[j->index] = ASMSTORE_CACHE__IDLE;
            asmstore_cache__writes_failed(c, err);
        } else {
            c->state[j->index] = ASMSTORE_CACHE__WRITTEN;
            c->write_seq[j->index] = ++c->writes;
            c->n.entries_written++;
            c->n.bytes_written += (uint64_t)j->size + ASMSTORE_CACHE_FOOTER_SIZE;
            if (id.size) asmstore_cache__add_pending(c, &id);
            c->pack_check = c->opt.pack != ASMSTORE_CACHE_PACK_NEVER;
        }
        asmstore_cache__free_job(c, j);
    }
    pthread_cond_broadcast(&c->drained);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Starts the writer with every signal blocked (lock held). Returns 0 or an errno. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__start_writer(asmstore_cache *c) {
    sigset_t all, old;
    int rc;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&c->writer, NULL, asmstore_cache__writer_main, c);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0) c->writer_started = 1;
    return rc;
}

/* A job for entry index holding a copy of payload[0..size) and room for its footer; NULL when
   out of memory. */
ASMSTORE_CACHE__PRIVATE asmstore_cache__job *asmstore_cache__new_job(asmstore_cache *c,
                                                                     uint32_t index,
                                                                     const unsigned char *payload,
                                                                     size_t size, int has_source,
                                                                     uint64_t source_hash) {
    const asmstore_allocator *a = &c->opt.allocator;
    asmstore_cache__job *j = (asmstore_cache__job *)asmstore_alloc(a, sizeof *j);

    if (!j) return NULL;
    memset(j, 0, sizeof *j);
    j->bytes = (unsigned char *)asmstore_alloc(a, size + ASMSTORE_CACHE_FOOTER_SIZE);
    if (!j->bytes) {
        asmstore_free(a, j, sizeof *j);
        return NULL;
    }
    if (size) memcpy(j->bytes, payload, size);
    j->index = index;
    j->size = size;
    j->has_source = has_source;
    j->source_hash = source_hash;
    return j;
}

/* Queues a snapshot of payload[0..size) for entry `index` unless it is queued already, the queue
   is full or writing is off. Never blocks on I/O. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__enqueue(asmstore_cache *c, uint32_t index,
                                                     const unsigned char *payload, size_t size,
                                                     int has_source, uint64_t source_hash) {
    asmstore_cache__job *j;
    size_t need = size + ASMSTORE_CACHE_FOOTER_SIZE;
    int rc, fits, big;

    pthread_mutex_lock(&c->lock);
    if (!c->writes_on || c->stop || c->state[index] == ASMSTORE_CACHE__QUEUED) {
        pthread_mutex_unlock(&c->lock);
        return;
    }

    /* an image over the whole bound is still queued, one at a time beside the others: a
       composite R2R image larger than the bound would otherwise be decompressed on every start */
    big = need >= size && need > c->opt.max_queue_bytes;
    fits = need >= size && c->queued_bytes <= c->opt.max_queue_bytes &&
           need <= c->opt.max_queue_bytes - c->queued_bytes;
    if (big ? c->big_queued : !fits) {
        c->n.entries_skipped++;
        pthread_mutex_unlock(&c->lock);
        return;
    }
    if (big)
        c->big_queued = 1; /* reserve, then copy outside the lock */
    else
        c->queued_bytes += need;
    c->state[index] = ASMSTORE_CACHE__QUEUED;
    pthread_mutex_unlock(&c->lock);

    j = asmstore_cache__new_job(c, index, payload, size, has_source, source_hash);
    if (j) j->big = big;

    pthread_mutex_lock(&c->lock);
    rc = j ? 0 : ENOMEM;
    if (j && (!c->writes_on || c->stop)) rc = ECANCELED;
    if (!rc && !c->writer_started) {
        rc = asmstore_cache__start_writer(c);
        if (rc) {
            c->writes_on = 0;
            c->n.writes_enabled = 0;
            c->n.last_errno = rc;
        }
    }
    if (rc) {
        asmstore_cache__unreserve(c, size, big);
        c->state[index] = ASMSTORE_CACHE__IDLE;
        c->n.entries_skipped++;
        if (j) asmstore_cache__free_job(c, j);
    } else {
        if (c->tail)
            c->tail->next = j;
        else
            c->head = j;
        c->tail = j;
        pthread_cond_signal(&c->wake);
    }
    pthread_mutex_unlock(&c->lock);
}

/* Waits while the queue has no room for a snapshot of need bytes and the writer is emptying it. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__wait_for_room(asmstore_cache *c, size_t need) {
    size_t max = c->opt.max_queue_bytes;
    pthread_mutex_lock(&c->lock);
    while (c->writer_started && c->writes_on && !c->stop && (c->head || c->writer_busy) &&
           (need > max ? c->big_queued : c->queued_bytes > max || need > max - c->queued_bytes))
        pthread_cond_wait(&c->drained, &c->lock);
    pthread_mutex_unlock(&c->lock);
}

/* >>cache-open --------------------------------------------------------------------------------- */
/* The options in effect, *o: opt's (may be NULL) with the defaults filled in, checked. */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__options(asmstore_cache_options *o,
                                                                const asmstore_cache_options *opt,
                                                                asmstore_error *err) {
    memset(o, 0, sizeof *o);
    if (opt) *o = *opt;
    if (o->max_queue_bytes == 0) o->max_queue_bytes = ASMSTORE_CACHE_QUEUE_BYTES;
    if (o->min_alignment > 16384u || (o->min_alignment & (o->min_alignment - 1)))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "options.min_alignment is not 0 or a power of two <= 16384");
    if (o->policy < ASMSTORE_CACHE_POLICY_AUTO || o->policy > ASMSTORE_CACHE_POLICY_RESIDENT)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "options.policy is not an asmstore_cache_policy");
    if (o->pack < ASMSTORE_CACHE_PACK_AUTO || o->pack > ASMSTORE_CACHE_PACK_AT_FLUSH)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "options.pack is not an asmstore_cache_pack");
    return ASMSTORE_OK;
}

/* A new cache object for store with options o, still off (no directory); NULL when out of
   memory. */
ASMSTORE_CACHE__PRIVATE asmstore_cache *asmstore_cache__create(const asmstore_reader *store,
                                                               const asmstore_cache_options *o) {
    const asmstore_allocator *a = &o->allocator;
    size_t nstate = store->entry_count ? store->entry_count : 1u; /* per-descriptor arrays */
    asmstore_cache *c = (asmstore_cache *)asmstore_alloc(a, sizeof *c);

    if (!c) return NULL;
    memset(c, 0, sizeof *c);
    c->state = (unsigned char *)asmstore_alloc(a, nstate);
    c->write_seq = (uint32_t *)asmstore_alloc(a, nstate * sizeof *c->write_seq);
    if (!c->state || !c->write_seq || pthread_mutex_init(&c->lock, NULL) != 0) {
        asmstore_free(a, c->state, nstate);
        asmstore_free(a, c->write_seq, nstate * sizeof *c->write_seq);
        asmstore_free(a, c, sizeof *c);
        return NULL;
    }
    memset(c->state, 0, nstate);
    memset(c->write_seq, 0, nstate * sizeof *c->write_seq);
    pthread_cond_init(&c->wake, NULL);
    pthread_cond_init(&c->drained, NULL);

    c->store = *store;
    c->opt = *o;
    c->dirfd = -1;
    c->page = (size_t)sysconf(_SC_PAGESIZE);
    if (c->page == 0 || (c->page & (c->page - 1))) c->page = 4096;
    c->store_id = asmstore_cache_store_id(store);
    c->use_source_hash = !store->has_content_id;
    c->n.store_id = c->store_id;
    return c;
}

/* The identity of the file holding the store's bytes, as a pack records it: XXH3-64 of its
   device, inode, size, mtime and ctime (any write or replacement changes one), never 0. Taken
   from o->store_file_identity when known, else by stat(o->store_file); 0 with neither. */
ASMSTORE_CACHE__PRIVATE uint64_t asmstore_cache__store_file_id(const asmstore_cache_options *o) {
    asmstore_file_identity fi = o->store_file_identity;
    struct stat st;
    asmstore_cache__ident ident;
    uint64_t f[5], id;

    if (!fi.known) {
        if (!o->store_file || stat(o->store_file, &st) != 0) return 0;
        asmstore_cache__ident_of(&ident, 0, &st);
        fi.dev = (uint64_t)st.st_dev;
        fi.ino = ident.ino;
        fi.size = ident.size;
        fi.mtime_ns = ident.mtime_ns;
        fi.ctime_ns = ident.ctime_ns;
    }
    f[0] = fi.dev;
    f[1] = fi.ino;
    f[2] = fi.size;
    f[3] = fi.mtime_ns;
    f[4] = fi.ctime_ns;
    id = asmstore_xxh3_64(f, sizeof f);
    return id ? id : 1u;
}

/* Asks the kernel to read every recorded file and the start of the pack ahead
   (POSIX_FADV_WILLNEED starts the reads and does not wait): after a reboot the hits then find
   their pages arriving at the device's full queue depth instead of faulting them in one
   read-around at a time. They hold what earlier runs of this app loaded. The pack is one stream
   that the hits' faults carry on (its file is marked POSIX_FADV_SEQUENTIAL: twice the read-ahead
   window), so only its first MiB is asked for: asking for all of it competes with the faults
   (docs/benchmark-history.md). A few microseconds a file when they are resident. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__prefetch(asmstore_cache *c) {
    size_t i;

    if (c->pack) ASMSTORE_CACHE__FADVISE(c->pack->fd, (off_t)1 << 20, WILLNEED);
    for (i = 0; i < c->nrec; i++) {
        char name[32];
        int fd, stop;
        ASMSTORE_CACHE__LOCKED(c, stop = c->stop);
        if (stop) return;
        if (c->rec[i].index == ASMSTORE_CACHE__PACK_INDEX ||
            asmstore_cache__pack_find(c->pack, c->rec[i].index))
            continue;
        asmstore_cache__file_name(name, sizeof name, c->rec[i].index);
        fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0) continue;
        ASMSTORE_CACHE__FADVISE(fd, 0, WILLNEED);
        close(fd);
    }
}

/* Turns the cache on when its directory under root can be used: removes stale temp files,
   reads the records and the pack, and asks for them ahead. Else it stays off, errno kept. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__attach(asmstore_cache *c, const char *root) {
    const asmstore_cache_options *o = &c->opt;
    char idhex[17];
    int top = asmstore_cache__open_top(root, 1);

    if (top < 0) {
        c->n.last_errno = errno;
        return;
    }
    asmstore_cache__id_hex(idhex, c->store_id);
    c->dirfd = asmstore_cache__open_dir(top, idhex);
    if (c->dirfd < 0) c->n.last_errno = errno;
    close(top);
    if (c->dirfd < 0) return;

    c->n.enabled = 1;
    c->writes_on = !o->read_only;
    c->n.writes_enabled = c->writes_on;
    c->n.stale_removed = asmstore_cache__remove_stale(c->dirfd);
    c->store_file_id = asmstore_cache__store_file_id(o);
    if (o->verify != ASMSTORE_CACHE_VERIFY_FULL)
        c->rec =
            asmstore_cache__records_read(&o->allocator, c->dirfd, c->store_id, c->store.entry_count,
                                         &c->nrec, &c->n.direct_ns_per_mib);
    c->pack = asmstore_cache__pack_open(c);
    if (c->pack) {
        asmstore_cache__pack_map(c, c->pack);
        c->pack->refs = 1;
        c->pack->serial = ++c->packs_opened;
        c->n.packed_entries = c->pack->nslot;
    }

    /* No thread yet: a runtime started next may wait for one (CoreCLR's membarrier registration
       waits an RCU grace period in a process with a second thread). The read-ahead advice costs
       microseconds from here; the writer starts on the first miss, or at flush to look whether
       earlier runs left files to consolidate. */
    if ((c->nrec > 0 || c->pack) && !o->no_prefetch && o->policy != ASMSTORE_CACHE_POLICY_RESIDENT)
        asmstore_cache__prefetch(c);
    c->pack_check = c->writes_on && o->pack != ASMSTORE_CACHE_PACK_NEVER;
}

ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_open(asmstore_cache **out, const char *root,
                                                       const asmstore_reader *store,
                                                       const asmstore_cache_options *opt,
                                                       asmstore_error *err) {
    asmstore_cache_options o;
    asmstore_result res;
    const char *env;

    if (!out)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "cache open: out is NULL");
    *out = NULL;
    if (!root || !*root)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "cache open: root directory is NULL or empty");
    if (!store || !store->data)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "cache open: store is NULL or not initialised");
    res = asmstore_cache__options(&o, opt, err);
    if (res != ASMSTORE_OK) return res;
    *out = asmstore_cache__create(store, &o);
    if (!*out)
        return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, -1, 0,
                              "no memory for the cache object");

    env = getenv("ASMSTORE_CACHE_DISABLE");
    if (!o.disable && !(env && *env && strcmp(env, "0") != 0)) asmstore_cache__attach(*out, root);
    return ASMSTORE_OK;
}

/* >>cache-policy ------------------------------------------------------------------------------- */
/* Are the first and the last page of the file mapping m in the page cache? mincore answers for
   files we own; where it cannot (an old kernel), the answer is yes: the file is served as
   before. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__resident(const asmstore_cache *c, void *m, size_t len) {
    int first = asmstore_cache__in_core(m),
        last = asmstore_cache__in_core((unsigned char *)m + (len - 1) / c->page * c->page);
    return first < 0 || last < 0 || (first && last);
}

/* What reading entry e's compressed bytes adds per MiB of its image when they are not in the
   page cache (read at readr ns per MiB), else 0. Describing the entry read its first page, so
   its last page tells. The store's mapping is the host's: mincore answers where it maps a file;
   a copy in memory counts as resident. */
ASMSTORE_CACHE__PRIVATE uint64_t asmstore_cache__store_read_ns_per_mib(const asmstore_cache *c,
                                                                       const asmstore_entry *e,
                                                                       uint32_t readr) {
    uintptr_t last = ((uintptr_t)e->image + e->image_size - 1u) & ~(uintptr_t)(c->page - 1);
    if (e->image_size == 0 || e->uncompressed_size == 0 ||
        asmstore_cache__in_core((const void *)last) != 0)
        return 0;
    return (uint64_t)readr * e->image_size / e->uncompressed_size;
}

/* Writes a byte on every page of [p, p + len): the first writes to new memory, done here and not
   later. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__write_pages(unsigned char *p, size_t len,
                                                         size_t page) {
    size_t i;
    for (i = 0; i < len; i += page) ((volatile unsigned char *)p)[i] = 0;
}

/* What stepping aside adds per MiB for the buffer it decompresses into: the first writes to
   memory the process never had (page faults, and under a hypervisor its own faults too), timed
   once on 256 KiB of new anonymous memory. A start's buffers are new, while the learned rate is
   decompression alone (misses write their buffer before the timing, since an allocator may hand
   back used memory). Under a hypervisor this can cost more than decompressing the same MiB, and
   without it an evicted start steps aside from images it reads faster. 0 where the system has no
   MAP_ANONYMOUS (strict POSIX builds): nothing added. */
ASMSTORE_CACHE__PRIVATE uint32_t asmstore_cache__new_memory_ns_per_mib(asmstore_cache *c) {
    uint32_t rate = 0;

#ifdef MAP_ANONYMOUS
    size_t len = (size_t)1 << 18;
    uint64_t t0;
    unsigned char *m;
    ASMSTORE_CACHE__LOCKED(c, rate = c->n.new_memory_ns_per_mib);
    if (rate) return rate;
    t0 = asmstore_cache__now_ns();
    m = (unsigned char *)mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                              0);
    if (m == MAP_FAILED) return 0;
    asmstore_cache__write_pages(m, len, c->page);
    t0 = asmstore_cache__now_ns() - t0;
    munmap(m, len);
    rate = asmstore_cache__ns_per_mib(t0, len);
    ASMSTORE_CACHE__LOCKED(c, c->n.new_memory_ns_per_mib = rate);
#else
    (void)c;
#endif
    return rate;
}

/* The policy: 1 = serve the file mapped at m (entry e's image), 0 = step aside (decompress). A
   file in the page cache is always served. POLICY_AUTO with a learned decompression rate reads
   the first files that are not in, timed (read faults: the pages stay clean and shared), until
   ASMSTORE_CACHE_PROBE_BYTES; from then on it serves such a file only if reading it is not
   slower than decompressing into new memory, which also reads the entry's compressed bytes from
   the store at the same rate when they are not in the page cache either (an evicted start: the
   learned rate is of misses whose store was read already). Without a learned rate there is
   nothing to compare. A packed image (of pack p) is part of one stream that the faults carry on:
   the rate is decided only once a quarter of the pack (at least ASMSTORE_CACHE_PROBE_BYTES) has
   been waited for, so that the first wait, the disk's latency paid once per start, is spread
   over what the stream then delivers. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__serve(asmstore_cache *c, const asmstore_entry *e,
                                                  const unsigned char *m, size_t len,
                                                  const asmstore_cache__pack *p) {
    volatile unsigned char sink;
    uint32_t direct = 0, readr = 0;
    uint64_t t0, probe = ASMSTORE_CACHE_PROBE_BYTES;
    size_t i;

    if (c->opt.policy == ASMSTORE_CACHE_POLICY_ALWAYS ||
        asmstore_cache__resident(c, (void *)(uintptr_t)m, len))
        return 1;
    if (c->opt.policy != ASMSTORE_CACHE_POLICY_AUTO) return 0;
    pthread_mutex_lock(&c->lock);
    direct = c->n.direct_ns_per_mib;
    readr = c->n.read_ns_per_mib;
    pthread_mutex_unlock(&c->lock);
    if (direct == 0) return 1;
    if (readr != 0) {
        uint64_t aside = (uint64_t)direct + asmstore_cache__new_memory_ns_per_mib(c);
        return readr <= aside + asmstore_cache__store_read_ns_per_mib(c, e, readr);
    }
    if (p && p->len / 4 > probe) probe = p->len / 4;
    t0 = asmstore_cache__now_ns();
    for (i = 0; i < len; i += c->page) sink = m[i];
    (void)sink;
    t0 = asmstore_cache__now_ns() - t0;
    pthread_mutex_lock(&c->lock);
    c->n.probed++;
    c->probe_ns += t0;
    c->probe_bytes += len;
    if (c->probe_bytes >= probe)
        c->n.read_ns_per_mib = asmstore_cache__ns_per_mib(c->probe_ns, c->probe_bytes);
    pthread_mutex_unlock(&c->lock);
    return 1;
}

/* >>cache-get ---------------------------------------------------------------------------------- */
/* Largest power of two up to 16 KiB dividing p: what a runtime can assume about an image's
   start. */
ASMSTORE_CACHE__PRIVATE size_t asmstore_cache__alignment_of(const void *p) {
    uintptr_t a = (uintptr_t)p;
    size_t al = 1;
    while (al < 16384u && !(a & al)) al <<= 1;
    return al;
}

/* Asks the writer to record a file a hit has just hashed (e.g. one an older version wrote). */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__record_later(asmstore_cache *c,
                                                          const asmstore_cache__ident *id) {
    pthread_mutex_lock(&c->lock);
    if (c->writes_on && !c->stop && (c->writer_started || asmstore_cache__start_writer(c) == 0)) {
        asmstore_cache__add_pending(c, id);
        pthread_cond_signal(&c->wake);
    }
    pthread_mutex_unlock(&c->lock);
}

/* A packed image failed a check: the writer consolidates again when its queue is empty. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__pack_failed(asmstore_cache *c) {
    pthread_mutex_lock(&c->lock);
    c->pack_bad = 1;
    if (c->writes_on && !c->stop && c->opt.pack != ASMSTORE_CACHE_PACK_NEVER &&
        (c->writer_started || asmstore_cache__start_writer(c) == 0)) {
        c->pack_check = 1;
        pthread_cond_signal(&c->wake);
    }
    pthread_mutex_unlock(&c->lock);
}

/* Fills a hit's image: the private mapping m of size bytes. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__hit_image(asmstore_cache_image *img, void *m,
                                                       size_t size, size_t len) {
    img->data = (const unsigned char *)m;
    img->size = size;
    img->source = ASMSTORE_CACHE_HIT;
    img->alignment = asmstore_cache__alignment_of(m);
    img->writable = 1;
    img->base = m;
    img->length = len;
}

/* Entry e's source hash (XXH3-64 of its stored bytes: v2/v3) in *hash, computed at most once a
   get (*known). */
ASMSTORE_CACHE__PRIVATE const uint64_t *asmstore_cache__source_hash(asmstore_cache *c,
                                                                    const asmstore_entry *e,
                                                                    uint64_t *hash, int *known) {
    if (*known) return hash;
    *hash = asmstore_xxh3_64(e->image, e->image_size);
    *known = 1;
    ASMSTORE_CACHE__LOCKED(c, c->n.source_hashed++);
    return hash;
}

/* Packed image sl (of size bytes) of pack p, writable: a slice of p's mapping (*slice_of: that
   mapping), or when that is lent or missing a mapping of its own (*slice_of NULL). NULL when mmap
   fails. */
ASMSTORE_CACHE__PRIVATE unsigned char *asmstore_cache__pack_image(const asmstore_cache__pack *p,
                                                                  const asmstore_cache__slot *sl,
                                                                  size_t size,
                                                                  asmstore_cache__map **slice_of) {
    unsigned char *m = asmstore_cache__slice_lend(p->map, sl->offset);
    void *own;

    *slice_of = m ? p->map : NULL;
    if (m) return m;
    own = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, p->fd, (off_t)sl->offset);
    return own == MAP_FAILED ? NULL : (unsigned char *)own;
}

/* Tries entry e's image in the pack, as try_hit below does its file (0: the pack does not hold
   it, 3: it could not be mapped). The table's size and source hash must be the store's (src_hash
   NULL: the store has none; a pack written against this very store file is taken at its word,
   else the stored bytes are hashed); the image is hashed unless the pack is the recorded one. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__try_pack(asmstore_cache *c, const asmstore_entry *e,
                                                     uint64_t *src_hash, int *src_known,
                                                     asmstore_cache_image *img, int *checksum,
                                                     int *recorded) {
    asmstore_cache__pack *p = asmstore_cache__pack_ref(c);
    const asmstore_cache__slot *sl = asmstore_cache__pack_find(p, e->index);
    asmstore_cache__map *slice_of = NULL;
    size_t size = e->uncompressed_size;
    uint64_t want = 0;
    unsigned char *m = NULL;
    int rc = -1;

    *checksum = 0;
    *recorded = 0;
    if (!sl) {
        asmstore_cache__pack_unref(c, p);
        return 0;
    }
    if (src_hash)
        want = p->same_store ? sl->source_hash
                             : *asmstore_cache__source_hash(c, e, src_hash, src_known);
    if (sl->size == (uint64_t)size && sl->source_hash == want) {
        m = asmstore_cache__pack_image(p, sl, size, &slice_of);
        rc = m ? -1 : 3;
    } else {
        *checksum = sl->size == (uint64_t)size; /* v2/v3: the store's data changed */
    }
    if (m) {
        if (!asmstore_cache__serve(c, e, m, size, p))
            rc = 2;
        else if (!p->recorded && asmstore_xxh3_64(m, size) != sl->hash)
            *checksum = 1;
        else
            rc = 1;
        if (rc != 1 && slice_of) asmstore_cache__slice_return(slice_of, m, size, 0);
        if (rc != 1 && !slice_of) munmap(m, size);
    }
    if (rc == 1) {
        asmstore_cache__hit_image(img, m, size, size);
        img->slice_of = slice_of;
        img->pack_id = p->serial;
        img->pack_offset = sl->offset;
        *recorded = p->recorded;
    }
    asmstore_cache__pack_unref(c, p);
    return rc;
}

/* Tries the cache file of entry e. 1: hit (*img filled), 0: no file, -1: a file that failed a
   check, 2: a file the policy steps aside from, 3: a file mmap refused. *recorded: the file is the one the writer
   recorded, so its payload was not hashed. */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__try_hit(asmstore_cache *c, const asmstore_entry *e,
                                                    const uint64_t *src_hash,
                                                    asmstore_cache_image *img, int *checksum,
                                                    int *recorded) {
    struct stat st;
    asmstore_cache__ident id, key;
    const asmstore_cache__ident *rec;
    uint64_t size = (uint64_t)e->uncompressed_size;
    size_t len;
    void *m;
    int fd;
    asmstore_result res;

    *checksum = 0;
    *recorded = 0;
    fd = asmstore_cache__open_file(c, e->index, size, &st);
    if (fd < 0) return errno == ENOENT ? 0 : -1;
    len = e->uncompressed_size + ASMSTORE_CACHE_FOOTER_SIZE;
    asmstore_cache__ident_of(&id, e->index, &st);
    memset(&key, 0, sizeof key);
    key.index = e->index;
    rec = c->nrec ? (const asmstore_cache__ident *)bsearch(&key, c->rec, c->nrec, sizeof *c->rec,
                                                           asmstore_cache__ident_cmp)
                  : NULL;
    *recorded = rec && asmstore_cache__ident_eq(rec, &id);

    /* no MAP_POPULATE: with PROT_WRITE it pre-faults for writing and copies every page (the whole
       image turns into private dirty memory); read faults keep the pages clean and shared */
    m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return 3;
    if (!asmstore_cache__serve(c, e, (const unsigned char *)m, len, NULL)) {
        munmap(m, len);
        return 2;
    }

    /* the footer's last page only, or every page when the file is not the recorded one */
    if (*recorded)
        res = asmstore_cache__check_footer(m, len, c->store_id, e->index, size, src_hash, NULL);
    else
        res = asmstore_cache_validate_file(m, len, c->store_id, e->index, size, src_hash, NULL);
    if (res != ASMSTORE_OK) {
        *checksum = res == ASMSTORE_ERR_CHECKSUM;
        munmap(m, len);
        return -1;
    }
    if (!*recorded && c->opt.verify != ASMSTORE_CACHE_VERIFY_FULL)
        asmstore_cache__record_later(c, &id);
    asmstore_cache__hit_image(img, m, e->uncompressed_size, len);
    return 1;
}

#ifndef ASMSTORE_NO_ZSTD
ASMSTORE_CACHE__PRIVATE ZSTD_DCtx *asmstore_cache__get_dctx(asmstore_cache *c) {
    ZSTD_DCtx *d = NULL;
    pthread_mutex_lock(&c->lock);
    if (c->ndctx > 0) d = c->dctx[--c->ndctx];
    pthread_mutex_unlock(&c->lock);
    return d ? d : ZSTD_createDCtx();
}

ASMSTORE_CACHE__PRIVATE void asmstore_cache__put_dctx(asmstore_cache *c, ZSTD_DCtx *d) {
    if (!d) return;
    pthread_mutex_lock(&c->lock);
    if (c->ndctx < ASMSTORE_CACHE_DCTX_POOL) {
        c->dctx[c->ndctx++] = d;
        d = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    if (d) ZSTD_freeDCtx(d);
}
#endif

/* An uncompressed image: in place when aligned enough, else copied into an aligned block
   (runtimes read metadata with aligned loads: Mono fails on an image at an odd address). */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__direct(asmstore_cache *c,
                                                               const asmstore_entry *e,
                                                               asmstore_cache_image *out,
                                                               asmstore_error *err) {
    size_t want = c->opt.min_alignment > 1 ? c->opt.min_alignment : 1;
    int64_t entry = (int64_t)e->index;

    out->source = ASMSTORE_CACHE_DIRECT;
    out->data = e->image;
    if (asmstore_cache__alignment_of(e->image) < want) {
        unsigned char *block;
        uintptr_t at;
        if (e->image_size > SIZE_MAX - want)
            return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, entry, 0,
                                  "uncompressed image too large for an aligned copy");
        block = (unsigned char *)asmstore_alloc(&c->opt.allocator, e->image_size + want);
        if (!block)
            return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, entry, 0,
                                  "no memory for the aligned copy of an image");
        at = ((uintptr_t)block + want - 1) & ~(uintptr_t)(want - 1);
        memcpy((void *)at, e->image, e->image_size);
        out->data = (const unsigned char *)at;
        out->source = ASMSTORE_CACHE_COPY;
        out->writable = 1;
        out->base = block;
        out->length = e->image_size + want;
        out->allocator = c->opt.allocator;
    }
    out->size = e->image_size;
    out->alignment = asmstore_cache__alignment_of(out->data);
    pthread_mutex_lock(&c->lock);
    if (out->source == ASMSTORE_CACHE_COPY)
        c->n.copied++;
    else
        c->n.direct++;
    pthread_mutex_unlock(&c->lock);
    return ASMSTORE_OK;
}

/* Looks for entry e's image in the pack first, then in its own file (not packed yet, or the
   replacement of a bad packed image). v2/v3: the stored bytes are hashed (*src_hash, once a
   get) before a file is checked or written, so that the footer we may write describes the
   bytes the payload came from. Returns what try_hit does (1 hit, counted; 0 none; -1 a file
   that failed a check, *checksum says whether a hash did; 2 the policy stepped aside; 3 mmap
   refused a valid image). */
ASMSTORE_CACHE__PRIVATE int asmstore_cache__lookup(asmstore_cache *c, const asmstore_entry *e,
                                                   uint64_t *src_hash, int *src_known,
                                                   asmstore_cache_image *out, int *checksum) {
    uint64_t *want = c->use_source_hash ? src_hash : NULL;
    int recorded = 0, hit;
    int packed = asmstore_cache__try_pack(c, e, want, src_known, out, checksum, &recorded);

    if (packed == -1) asmstore_cache__pack_failed(c);
    hit = packed;
    if (packed == 0 || packed == -1) {
        const uint64_t *src = want ? asmstore_cache__source_hash(c, e, src_hash, src_known) : NULL;
        int file_checksum;
        hit = asmstore_cache__try_hit(c, e, src, out, &file_checksum, &recorded);
        if (hit == 0 && packed == -1)
            hit = -1; /* the bad packed image is this miss's rejected file */
        else
            *checksum = file_checksum;
    }
    if (hit != 1) return hit;
    pthread_mutex_lock(&c->lock);
    c->n.hits++;
    c->n.recorded_hits += (uint64_t)recorded;
    c->n.pack_hits += (uint64_t)(packed == 1);
    pthread_mutex_unlock(&c->lock);
    return hit;
}

/* Decompresses entry e into a new block *buf, timed (*ns): the rate the policy weighs hits
   against. The block's pages are written first, outside the timing: whether they are new
   depends on the allocator, and the policy adds what new memory costs where a start pays it
   (asmstore_cache__new_memory_ns_per_mib). */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__decompress(asmstore_cache *c,
                                                                   const asmstore_entry *e,
                                                                   unsigned char **buf,
                                                                   uint64_t *ns,
                                                                   asmstore_error *err) {
    size_t size = e->uncompressed_size;
    asmstore_result res;
    uint64_t t0;

    *buf = (unsigned char *)asmstore_alloc(&c->opt.allocator, size);
    if (!*buf)
        return asmstore__fail(err, ASMSTORE_ERR_OUT_OF_MEMORY, 0, (int64_t)e->index, 0,
                              "no memory for the decompressed image");
    asmstore_cache__write_pages(*buf, size, c->page);
    t0 = asmstore_cache__now_ns();
#ifndef ASMSTORE_NO_ZSTD
    {
        int zstd = e->compression == ASMSTORE_COMPRESSION_ZSTD;
        ZSTD_DCtx *d = zstd ? asmstore_cache__get_dctx(c) : NULL;
        res = asmstore_reader_read(&c->store, e, *buf, size, d, err);
        asmstore_cache__put_dctx(c, d);
    }
#else
    res = asmstore_reader_read(&c->store, e, *buf, size, NULL, err);
#endif
    *ns = asmstore_cache__now_ns() - t0;
    if (res != ASMSTORE_OK) {
        asmstore_free(&c->opt.allocator, *buf, size);
        *buf = NULL;
    }
    return res;
}

/* A miss: e decompressed into *out, counted (hit and checksum: what lookup found), and written
   to the cache again unless the file is there (the policy stepped aside from it, or mmap refused
   it: that failure says which limit the process met). */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__miss(
    asmstore_cache *c, const asmstore_entry *e, int hit, int checksum, uint64_t *src_hash,
    int *src_known, asmstore_cache_image *out, asmstore_error *err) {
    size_t size = e->uncompressed_size;
    uint64_t ns = 0;
    unsigned char *buf = NULL;
    asmstore_result res = asmstore_cache__decompress(c, e, &buf, &ns, err);

    if (res == ASMSTORE_ERR_OUT_OF_MEMORY && hit == 3)
        return asmstore__fail(err, res, 0, (int64_t)e->index, ENOMEM,
                              "no memory for the decompressed image, and mmap refused its cache "
                              "file: the process holds as many mappings as the kernel allows "
                              "(vm.max_map_count); release images or raise the limit");
    if (res != ASMSTORE_OK) return res;

    pthread_mutex_lock(&c->lock);
    c->n.misses++;
    c->miss_ns += ns;
    c->miss_bytes += size;
    if (hit < 0) {
        c->n.rejected++;
        c->n.checksum_failures += (uint64_t)checksum;
    }
    if (hit == 2) c->n.aside++;
    if (hit == 3) c->n.map_failures++;

    /* a file this process wrote and now missed was damaged or removed */
    if (hit < 2 && c->state[e->index] == ASMSTORE_CACHE__WRITTEN)
        c->state[e->index] = ASMSTORE_CACHE__IDLE;
    pthread_mutex_unlock(&c->lock);
    if (c->dirfd >= 0 && hit < 2) {
        uint64_t src = 0;
        if (c->use_source_hash) src = *asmstore_cache__source_hash(c, e, src_hash, src_known);
        asmstore_cache__enqueue(c, e->index, buf, size, c->use_source_hash, src);
    }

    out->data = buf;
    out->size = size;
    out->source = ASMSTORE_CACHE_MISS;
    out->alignment = asmstore_cache__alignment_of(buf);
    out->writable = 1;
    out->base = buf;
    out->length = size;
    out->allocator = c->opt.allocator;
    return ASMSTORE_OK;
}

ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_get(asmstore_cache *c, const asmstore_entry *e,
                                                      asmstore_cache_image *out,
                                                      asmstore_error *err) {
    uint64_t src_hash = 0;
    int hit = 0, checksum = 0, src_known = 0;
    asmstore_result res;

    if (out) memset(out, 0, sizeof *out);
    if (!c || !e || !out)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "cache get: cache, entry or image is NULL");
    if (e->ignored || !e->image)
        return asmstore__fail(err, ASMSTORE_ERR_IGNORED, 0, (int64_t)e->index, 0,
                              "cache get: the entry is an ignored placeholder");

    /* the store's own descriptor decides: a stray entry can neither read outside the store nor
       file one entry's bytes under another's index */
    res = asmstore_reader_entry_check(&c->store, e, err);
    if (res != ASMSTORE_OK) return res;
    if (e->compression == ASMSTORE_COMPRESSION_NONE) return asmstore_cache__direct(c, e, out, err);
    if (e->uncompressed_size > asmstore_reader_max_entry_size(&c->store))
        return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, (int64_t)e->index, 0,
                              "entry's image is larger than the reader's max_entry_size");
    if (c->dirfd >= 0) hit = asmstore_cache__lookup(c, e, &src_hash, &src_known, out, &checksum);
    if (hit == 1) return ASMSTORE_OK;
    return asmstore_cache__miss(c, e, hit, checksum, &src_hash, &src_known, out, err);
}

ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_put(asmstore_cache *c, const asmstore_entry *e,
                                                      const void *image, size_t size,
                                                      asmstore_error *err) {
    uint64_t src = 0;
    int known = 0;
    asmstore_result res;

    if (!c || !e || (!image && size))
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "cache put: cache, entry or image is NULL");
    res = asmstore_reader_entry_check(&c->store, e, err);
    if (res != ASMSTORE_OK) return res;
    if (e->ignored || !e->image || e->compression == ASMSTORE_COMPRESSION_NONE ||
        size != e->uncompressed_size)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, (int64_t)e->index, 0,
                              "cache put: the entry is not compressed, or the image is not its "
                              "uncompressed size");
    if (c->dirfd < 0) return ASMSTORE_OK;
    if (c->use_source_hash) src = *asmstore_cache__source_hash(c, e, &src, &known);
    asmstore_cache__wait_for_room(c, size + ASMSTORE_CACHE_FOOTER_SIZE);
    asmstore_cache__enqueue(c, e->index, (const unsigned char *)image, size, c->use_source_hash,
                            src);
    return ASMSTORE_OK;
}

/* >>cache-release, flush, close ---------------------------------------------------------------- */
ASMSTORE_CACHE_DEF int asmstore_cache_pack_file(asmstore_cache *c, uint64_t *pack_id) {
    asmstore_cache__pack *p = c ? asmstore_cache__pack_ref(c) : NULL;
    int fd = p ? fcntl(p->fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (fd >= 0 && pack_id) *pack_id = p->serial;
    asmstore_cache__pack_unref(c, p);
    return fd;
}

ASMSTORE_CACHE_DEF void asmstore_cache_release(asmstore_cache_image *img) {
    if (!img) return;
    if (img->source == ASMSTORE_CACHE_HIT && img->slice_of)
        asmstore_cache__slice_return((asmstore_cache__map *)img->slice_of,
                                     (unsigned char *)img->base, img->length, 1);
    else if (img->source == ASMSTORE_CACHE_HIT && img->base)
        munmap(img->base, img->length);
    else if ((img->source == ASMSTORE_CACHE_MISS || img->source == ASMSTORE_CACHE_COPY) &&
             img->base)
        asmstore_free(&img->allocator, img->base, img->length);
    memset(img, 0, sizeof *img);
}

ASMSTORE_CACHE_DEF void asmstore_cache_flush(asmstore_cache *c) {
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    if (!c->writer_started && c->pack_check && !c->stop && asmstore_cache__start_writer(c) != 0)
        c->pack_check = 0;
    c->flushing++;
    pthread_cond_signal(&c->wake);
    while (c->writer_started && !c->stop &&
           (c->head || c->writer_busy || c->npend || c->pack_check))
        pthread_cond_wait(&c->drained, &c->lock);
    c->flushing--;
    pthread_mutex_unlock(&c->lock);
}

ASMSTORE_CACHE_DEF const char *asmstore_cache_source_name(asmstore_cache_source source) {
    switch (source) {
    case ASMSTORE_CACHE_HIT:
        return "hit";
    case ASMSTORE_CACHE_MISS:
        return "miss";
    case ASMSTORE_CACHE_DIRECT:
        return "direct";
    case ASMSTORE_CACHE_COPY:
        return "copy";
    case ASMSTORE_CACHE_NONE:
        break;
    }
    return "none";
}

ASMSTORE_CACHE_DEF void asmstore_cache_stats(asmstore_cache *c, asmstore_cache_counters *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!c) return;
    ASMSTORE_CACHE__LOCKED(c, *out = c->n);
}

ASMSTORE_CACHE_DEF void asmstore_cache_close(asmstore_cache *c) {
    asmstore_allocator a;
    int started;

    if (!c) return;
    pthread_mutex_lock(&c->lock);
    c->stop = 1;
    started = c->writer_started;
    pthread_cond_broadcast(&c->wake);
    pthread_mutex_unlock(&c->lock);
    if (started) pthread_join(c->writer, NULL);
    ASMSTORE_CACHE__LOCKED(c, asmstore_cache__drop_queue(c, 0));
    asmstore_cache__pack_unref(c, c->pack);
#ifndef ASMSTORE_NO_ZSTD
    while (c->ndctx > 0) ZSTD_freeDCtx(c->dctx[--c->ndctx]);
#endif
    if (c->dirfd >= 0) close(c->dirfd);
    pthread_cond_destroy(&c->wake);
    pthread_cond_destroy(&c->drained);
    pthread_mutex_destroy(&c->lock);
    asmstore_free(&c->opt.allocator, c->rec, c->nrec * sizeof *c->rec);
    asmstore_free(&c->opt.allocator, c->pend, c->cappend * sizeof *c->pend);
    a = c->opt.allocator;
    asmstore_free(&a, c->state, c->store.entry_count ? c->store.entry_count : 1u);
    asmstore_free(&a, c->write_seq,
                  (c->store.entry_count ? c->store.entry_count : 1u) * sizeof *c->write_seq);
    asmstore_free(&a, c, sizeof *c);
}

/* >>cache-prune -------------------------------------------------------------------------------- */
#define ASMSTORE_CACHE__PRUNE_DIRS 64 /* store-id directories prune looks into at once */

typedef struct asmstore_cache__pfile {
    int dir; /* index into the kept directory fds */
    char name[40];
    uint64_t size;
    int64_t atime, mtime;
} asmstore_cache__pfile;

ASMSTORE_CACHE__PRIVATE int asmstore_cache__pfile_cmp(const void *a, const void *b) {
    const asmstore_cache__pfile *x = (const asmstore_cache__pfile *)a,
                                *y = (const asmstore_cache__pfile *)b;
    if (x->atime != y->atime) return x->atime < y->atime ? -1 : 1;
    if (x->mtime != y->mtime) return x->mtime < y->mtime ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The cache files prune may remove, from the default allocator (prune has no cache object). */
typedef struct asmstore_cache__plist {
    asmstore_cache__pfile *v;
    size_t n, cap;
    uint64_t total; /* bytes of the listed files */
    asmstore_allocator alloc;
} asmstore_cache__plist;

ASMSTORE_CACHE__PRIVATE int asmstore_cache__plist_push(asmstore_cache__plist *l, int dir,
                                                       const char *name, const struct stat *sb) {
    asmstore_cache__pfile *f;

    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 256;
        asmstore_cache__pfile *nv =
            (asmstore_cache__pfile *)asmstore_alloc(&l->alloc, ncap * sizeof *nv);
        if (!nv) return -1;
        if (l->n) memcpy(nv, l->v, l->n * sizeof *nv);
        asmstore_free(&l->alloc, l->v, l->cap * sizeof *l->v);
        l->v = nv;
        l->cap = ncap;
    }
    f = &l->v[l->n++];
    f->dir = dir;
    memcpy(f->name, name, strlen(name) + 1); /* "<=10 digits>.bin" or "pack" fits */
    f->size = S_ISREG(sb->st_mode) ? (uint64_t)sb->st_size : 0u;
    f->atime = (int64_t)sb->st_atime;
    f->mtime = (int64_t)sb->st_mtime;
    l->total += f->size;
    return 0;
}

/* One kept store directory (fd sub, number dir): removes its stale temp files, lists its cache
   files. */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__prune_scan(int sub, int dir,
                                                                   asmstore_cache__plist *l,
                                                                   asmstore_cache_prune_stats *st) {
    struct stat sb;
    struct dirent *fe;
    int subdup = dup(sub);
    DIR *d = subdup >= 0 ? fdopendir(subdup) : NULL;

    if (!d) {
        if (subdup >= 0) close(subdup);
        return ASMSTORE_ERR_IO;
    }
    while ((fe = readdir(d)) != NULL) {
        if (strstr(fe->d_name, ".tmp.")) {
            if (asmstore_cache__tmp_is_stale(sub, fe->d_name) &&
                fstatat(sub, fe->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
                unlinkat(sub, fe->d_name, 0) == 0) {
                st->files_removed++;
                st->bytes_removed += (uint64_t)sb.st_size;
            }
            continue;
        }
        if ((asmstore_cache__bin_index(fe->d_name) < 0 &&
             strcmp(fe->d_name, ASMSTORE_CACHE__PACK_NAME) != 0) ||
            fstatat(sub, fe->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (asmstore_cache__plist_push(l, dir, fe->d_name, &sb) != 0) {
            closedir(d);
            return ASMSTORE_ERR_OUT_OF_MEMORY;
        }
    }
    closedir(d);
    return ASMSTORE_OK;
}

/* Removes the least recently used files until the listed ones total at most max_bytes; counts
   what is kept. */
ASMSTORE_CACHE__PRIVATE void asmstore_cache__prune_lru(const int *dirs, asmstore_cache__plist *l,
                                                       uint64_t max_bytes,
                                                       asmstore_cache_prune_stats *st) {
    size_t i;

    if (max_bytes > 0 && l->total > max_bytes) {
        qsort(l->v, l->n, sizeof *l->v, asmstore_cache__pfile_cmp);
        for (i = 0; i < l->n && l->total > max_bytes; i++) {
            if (asmstore_cache__remove_tree(dirs[l->v[i].dir], l->v[i].name, 0, &st->files_removed,
                                            &st->bytes_removed) == 0) {
                l->total -= l->v[i].size;
                l->v[i].size = UINT64_MAX; /* removed */
            }
        }
    }
    for (i = 0; i < l->n; i++)
        if (l->v[i].size != UINT64_MAX) {
            st->files_kept++;
            st->bytes_kept += l->v[i].size;
        }
}

/* Walks the store-id directories of top: removes those that are not keep_hex (NULL: keep all),
   lists the cache files of the others in l and keeps their fds in dirs[0..*ndirs). Closes top.
   ASMSTORE_ERR_IO when top cannot be listed, _OUT_OF_MEMORY when the list cannot grow. */
ASMSTORE_CACHE__PRIVATE asmstore_result asmstore_cache__prune_dirs(int top, const char *keep_hex,
                                                                   int *dirs, int *ndirs,
                                                                   asmstore_cache__plist *l,
                                                                   asmstore_cache_prune_stats *st) {
    asmstore_result res = ASMSTORE_OK;
    struct dirent *de;
    DIR *d = fdopendir(top);

    if (!d) {
        close(top);
        return ASMSTORE_ERR_IO;
    }
    while (res == ASMSTORE_OK && (de = readdir(d)) != NULL) {
        int sub;
        if (!asmstore_cache__is_id_name(de->d_name)) continue;
        if (keep_hex && strcmp(de->d_name, keep_hex) != 0) {
            if (asmstore_cache__remove_tree(top, de->d_name, 0, &st->files_removed,
                                            &st->bytes_removed) == 0)
                st->dirs_removed++;
            continue;
        }
        if (*ndirs >= ASMSTORE_CACHE__PRUNE_DIRS) continue;
        sub = openat(top, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) continue;
        dirs[*ndirs] = sub;
        res = asmstore_cache__prune_scan(sub, *ndirs, l, st);
        if (res == ASMSTORE_ERR_IO) { /* unreadable: skipped */
            close(sub);
            res = ASMSTORE_OK;
            continue;
        }
        (*ndirs)++;
    }
    closedir(d);
    return res;
}

ASMSTORE_CACHE_DEF asmstore_result asmstore_cache_prune(const char *root, const uint64_t *keep_id,
                                                        uint64_t max_bytes,
                                                        asmstore_cache_prune_stats *stats,
                                                        asmstore_error *err) {
    asmstore_cache_prune_stats st;
    asmstore_cache__plist list;
    int dirs[ASMSTORE_CACHE__PRUNE_DIRS], ndirs = 0, top, k;
    asmstore_result res;
    char keep_hex[17];

    memset(&st, 0, sizeof st);
    memset(&list, 0, sizeof list);
    if (stats) *stats = st;
    if (!root)
        return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0,
                              "cache prune: root directory is NULL");
    top = asmstore_cache__open_top(root, 0);
    if (top < 0 && errno == ENOENT)
        return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, ENOENT,
                              "no " ASMSTORE_CACHE_DIR_NAME " directory under root");
    if (top < 0)
        return asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, errno,
                              "cannot open the " ASMSTORE_CACHE_DIR_NAME " directory");
    if (keep_id) asmstore_cache__id_hex(keep_hex, *keep_id);
    res = asmstore_cache__prune_dirs(top, keep_id ? keep_hex : NULL, dirs, &ndirs, &list, &st);
    if (res == ASMSTORE_ERR_IO) /* before anything was listed */
        return asmstore__fail(err, res, 0, -1, errno,
                              "cannot list the " ASMSTORE_CACHE_DIR_NAME " directory");

    if (res == ASMSTORE_OK) asmstore_cache__prune_lru(dirs, &list, max_bytes, &st);
    for (k = 0; res != ASMSTORE_OK && k < (int)list.n; k++) {
        st.files_kept++;
        st.bytes_kept += list.v[k].size;
    }
    for (k = 0; k < ndirs; k++) close(dirs[k]);
    asmstore_free(&list.alloc, list.v, list.cap * sizeof *list.v);
    if (stats) *stats = st;
    if (res != ASMSTORE_OK)
        return asmstore__fail(err, res, 0, -1, 0, "no memory for the list of cache files");
    return ASMSTORE_OK;
}

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_CACHE_IMPLEMENTATION_INCLUDED */
#endif /* ASMSTORE_CACHE_IMPLEMENTATION */

/*
   HISTORY
     0.7.0  the pack is mapped once and its hits are slices of that mapping (one mapping per image
            stopped at vm.max_map_count); a file mmap refuses is decompressed, not rejected
            (counters.map_failures); asmstore_cache_image has a private slice_of.
            asmstore_cache_put: a host that decompressed an image itself (into a file its runtime
            maps) gives it to the cache after its start, to be written and packed like a miss's.
     0.6.0  one version with asmstore.h; open, get, prune and validate_file take asmstore_error *err
            last (message, footer offset, entry, errno); asmstore_cache_image's private fields are
            base, length, allocator (were base_, length_, allocator_).
     0.5.0  open starts no thread; pack hits say where their image lies (pack_id, pack_offset) and
            asmstore_cache_pack_file gives the pack's descriptor; PACK_AT_FLUSH; options.store_file
            (v2/v3 pack hits skip hashing the stored bytes while that file is unchanged); an image
            larger than the queue bound is queued alone.
     0.4.1  POLICY_AUTO adds the cost of new memory to a step aside (new_memory_ns_per_mib).
     0.4.0  one pack file per store (options.pack): consolidated, page-aligned images, recorded like
            a file; counters pack_hits, packs_written, packed_entries.
     0.3.0  options.policy (AUTO, ALWAYS, RESIDENT); counters aside, probed, *_ns_per_mib.
     0.2.0  durable writes (fsync before rename) and the ".verified" record; VERIFY_FULL; read-ahead
            of recorded files at open.
     0.1.0  first release: 48-byte XXH3 footer (version 2), v2/v3 source hash, bounded queue, one
            writer thread, prune.

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
