/* cli_scan_cache.h - scan --cache DIR: what scan found in an input, kept under the input's SHA-256
   so that scanning the same bytes again (new rules over a corpus) decompresses and hashes nothing.
   Two files an input, written under temporary names and renamed into place, the images first:
     <sha256>.images  each decompressed image: u32 store length, store label, u32 entry length,
                      entry name, u64 size, the bytes (little-endian; one after the other)
     <sha256>.scan    "asmstore scan cache 1\n", u32 length and the build's version text, the 64
                      hex digits of the input's SHA-256, the line's text from "kind" to "stores"
                      and its findings, then a trailer: u64 offset and length of each of the two
                      texts, u32 count and the counts, u64 the images file's size, "ASMSCEND".
   A record of another input, version or build, or one that does not read (truncated, damaged, a
   text that is not a part of a line or breaks it, an images file of another size or that does not
   read to its end) is a miss: the input is scanned and the record written anew.
   The cache is the user's: its texts are spliced into the line as they are. */
#ifndef CLI_SCAN_CACHE_H
#define CLI_SCAN_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SCAN_CACHE_COUNTS 32u /* the most counts a record keeps */

/* A record read back; every pointer into the two files, mapped while it is open. */
typedef struct scan_cache_view {
    const unsigned char *meta, *images;
    size_t meta_n, images_n;
    const char *stores_text, *findings_text; /* the line's text: ", \"kind\": ..." */
    size_t stores_n, findings_n;
    uint32_t counts[SCAN_CACHE_COUNTS];
    uint32_t ncounts;
} scan_cache_view;

/* One image of a record's images file. */
typedef struct scan_cache_image {
    const char *store, *entry; /* not NUL-ended: store_n and entry_n bytes */
    size_t store_n, entry_n;
    const unsigned char *p;
    size_t n;
} scan_cache_image;

/* A record being written: its two temporary files; failed once anything did not write. */
typedef struct scan_cache_writer {
    FILE *images;
    char images_tmp[4200], meta_tmp[4200];
    uint64_t images_n;
    int failed;
} scan_cache_writer;

/* The build's version text a record must carry (version, JSON schema, optional decoders). */
void scan_cache_set_version(const char *version);

/* meta[0..n): 0 with *v's texts and counts when it is the record of sha_hex (64 hex digits) by
   this build, else -1. Fuzzed (fuzz_scan_cache). */
int scan_cache_parse(const unsigned char *meta, size_t n, const char *sha_hex, scan_cache_view *v);
/* The image at *at of images[0..n): 1 and *at past it, 0 at the end, -1 when it does not read. */
int scan_cache_next(const unsigned char *images, size_t n, size_t *at, scan_cache_image *img);

/* The record of sha_hex in dir, mapped: 0 (close it with scan_cache_close), or -1 for a miss (as
   is a record that keeps other than ncounts counts). */
int scan_cache_open(const char *dir, const char *sha_hex, uint32_t ncounts, scan_cache_view *v);
void scan_cache_close(scan_cache_view *v);

/* Writing: begin (0, or -1 when dir cannot take it: scan goes on without), an image at a time,
   then end, which writes the texts and counts and renames both files into place, or drop. */
int scan_cache_begin(scan_cache_writer *w, const char *dir, const char *sha_hex);
void scan_cache_add(scan_cache_writer *w, const char *store, const char *entry,
                    const unsigned char *p, size_t n);
void scan_cache_end(scan_cache_writer *w, const char *dir, const char *sha_hex,
                    const char *stores_text, size_t stores_n, const char *findings_text,
                    size_t findings_n, const uint32_t *counts, uint32_t ncounts);
void scan_cache_drop(scan_cache_writer *w);

#endif
