/* lz4_samples.c - reads every XALZ image of the files given with asmstore.h alone: no decompress
   callback, no liblz4 (tests/t_releases.sh links it with libzstd only and checks that with ldd):
   images of stores through asmstore_reader_read, lone image files through asmstore_lz4_decode.
   Each image is written to OUTDIR/<k>.<descriptor index> (k: the file's place among FILE..., from
   1) for the test to compare with EXPECTED.json's sha256.
     usage: lz4_samples OUTDIR FILE...   exit 0 when every file had images and each was read */
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "lz4_images.h"

static const char *out_dir;

static int save(void *user, const lz4_image *im) {
    unsigned char *out = (unsigned char *)malloc(im->out_size ? im->out_size : 1);
    char name[4096];
    size_t written = 0;
    asmstore_result res;
    FILE *f;
    if (!out) return 1;
    if (im->r) res = asmstore_reader_read(im->r, im->e, out, im->out_size, NULL, NULL);
    else if ((res = asmstore_lz4_decode(out, im->out_size, im->block, im->block_size, &written)) == ASMSTORE_OK &&
             written != im->out_size)
        res = ASMSTORE_ERR_SIZE_MISMATCH;
    snprintf(name, sizeof name, "%s/%d.%ld", out_dir, *(const int *)user, im->index);
    if (res != ASMSTORE_OK || !(f = fopen(name, "wb"))) {
        fprintf(stderr, "%s: image %ld: %s\n", im->path, im->index, asmstore_result_string(res));
        free(out);
        return 1;
    }
    fwrite(out, 1, im->out_size, f);
    fclose(f);
    free(out);
    return 0;
}

int main(int argc, char **argv) {
    long total = 0;
    int i;
    if (argc < 3) return 2;
    out_dir = argv[1];
    for (i = 2; i < argc; i++) {
        int k = i - 1;
        long n = lz4_each_image(argv[i], save, &k);
        if (n <= 0) {
            fprintf(stderr, "%s: %s\n", argv[i], n < 0 ? "not read" : "no XALZ image");
            return 1;
        }
        total += n;
    }
    printf("%ld XALZ images read\n", total);
    return 0;
}
