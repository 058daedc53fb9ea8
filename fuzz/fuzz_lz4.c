/* fuzz_lz4.c - the header's LZ4 block decoder (asmstore_lz4_decode) over any bytes: the first 4 bytes
   (little-endian) are the capacity (at most 1 MiB), the rest the block. The output buffer is exactly
   the capacity, so ASan sees any write or read outside the two buffers; a refusal writes no length,
   a success no more than the capacity. Built with liblz4 (ASMSTORE_FUZZ_LIBLZ4, mk/fuzz.mk), the same
   block must be taken or refused by LZ4_decompress_safe alike, with the same bytes, and the input's
   bytes compressed by liblz4 must decode back to themselves. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>
#include <string.h>
#ifdef ASMSTORE_FUZZ_LIBLZ4
#include <lz4.h>
#endif

#define FUZZ_MAX_OUT (1u << 20)

#ifdef ASMSTORE_FUZZ_LIBLZ4
/* liblz4 on the same block: taken with the same bytes, or refused, as ours was */
static void same_as_liblz4(const uint8_t *block, size_t n, size_t cap, asmstore_result res,
                           const unsigned char *out, size_t written) {
    char *theirs = (char *)malloc(cap ? cap : 1);
    int got = LZ4_decompress_safe((const char *)block, theirs, (int)n, (int)cap);
    if ((res == ASMSTORE_OK) != (got >= 0)) abort();
    if (res == ASMSTORE_OK && ((size_t)got != written || memcmp(out, theirs, written) != 0)) abort();
    free(theirs);
}

/* the bytes compressed by liblz4 decode back to themselves */
static void round_trip(const uint8_t *data, size_t n) {
    int bound = LZ4_compressBound((int)n), z;
    char *block = (char *)malloc((size_t)bound + 1);
    unsigned char *back = (unsigned char *)malloc(n ? n : 1);
    size_t written = 0;
    z = LZ4_compress_default((const char *)data, block, (int)n, bound);
    if (z <= 0 || asmstore_lz4_decode(n ? back : NULL, n, block, (size_t)z, &written) != ASMSTORE_OK ||
        written != n || (n && memcmp(back, data, n) != 0))
        abort();
    free(block);
    free(back);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t cap, n, written = 12345;
    unsigned char *out;
    asmstore_result res;
    if (size < 4) return 0;
    cap = asmstore__rd32(data) % (FUZZ_MAX_OUT + 1);
    n = size - 4;
    out = (unsigned char *)malloc(cap ? cap : 1);
    res = asmstore_lz4_decode(cap ? out : NULL, cap, n ? data + 4 : NULL, n, &written);
    if (res != ASMSTORE_OK && (res != ASMSTORE_ERR_DECOMPRESS || written != 0)) abort();
    if (res == ASMSTORE_OK && written > cap) abort();
#ifdef ASMSTORE_FUZZ_LIBLZ4
    if (n) same_as_liblz4(data + 4, n, cap, res, out, written);
    round_trip(data + 4, n);
#endif
    free(out);
    return 0;
}
