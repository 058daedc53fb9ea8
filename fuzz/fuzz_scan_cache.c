/* fuzz_scan_cache.c - scan --cache's record reader (tools/cli_scan_cache.c) over any bytes. The
   first byte chooses: even, the rest is a .scan record's body, behind the header the harness
   writes (magic, this harness's version text, the input's SHA-256) so that every run reaches the
   trailer; odd, the rest is an images file. A record either reads, its texts inside it and in
   order, its counts at most SCAN_CACHE_COUNTS, or is a miss; the images file is walked to its end
   or to the first image that does not read, every image inside it. */
#include "../tools/cli_common.c"
#include "../tools/cli_fs.c"
#include "../tools/cli_os.c"
#include "../tools/cli_scan_cache.c"

#include <stdlib.h>

#define FUZZ_SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define FUZZ_OTHER_SHA "f123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void fuzz_record(const unsigned char *body, size_t n) {
    static const char magic[] = SCAN_CACHE_MAGIC;
    size_t head = sizeof magic - 1 + 4 + 4 + 64, total = head + n;
    unsigned char *p = (unsigned char *)malloc(total ? total : 1);
    scan_cache_view v;

    if (!p) return;
    memcpy(p, magic, sizeof magic - 1);
    cli_wr32(p + sizeof magic - 1, 4);
    memcpy(p + sizeof magic - 1 + 4, "fuzz", 4);
    memcpy(p + sizeof magic - 1 + 8, FUZZ_SHA, 64);
    if (n) memcpy(p + head, body, n);
    if (scan_cache_parse(p, total, FUZZ_SHA, &v) == 0) {
        const char *lo = (const char *)p + head, *hi = (const char *)p + total;
        if (v.ncounts > SCAN_CACHE_COUNTS) abort();
        if (v.stores_text < lo || v.stores_n > (size_t)(hi - v.stores_text)) abort();
        if (v.findings_text < lo || v.findings_n > (size_t)(hi - v.findings_text)) abort();
    }
    if (scan_cache_parse(p, total, FUZZ_OTHER_SHA, &v) == 0) abort(); /* another input's */
    free(p);
}

static void fuzz_images(const unsigned char *p, size_t n) {
    scan_cache_image img;
    size_t at = 0, was = 0;
    int k;

    while ((k = scan_cache_next(p, n, &at, &img)) == 1) {
        if (at <= was || at > n) abort(); /* forward, inside */
        if (img.p < p || img.n > (size_t)(p + n - img.p)) abort();
        if ((const unsigned char *)img.store < p || img.store_n > n) abort();
        was = at;
    }
    if (k != 0 && k != -1) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    scan_cache_set_version("fuzz");
    if (data[0] & 1)
        fuzz_images(data + 1, size - 1);
    else
        fuzz_record(data + 1, size - 1);
    return 0;
}
