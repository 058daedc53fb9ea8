/* platform_check.c - the header with no knobs, as a user on any platform builds it: reads stores
   through the file locator (mapping), writes one through the writer's threads and the ELF generator
   (a temp file replacing the output), and prints what it saw, so tests/t_windows.sh can compare a
   Windows build run under Wine with the Linux build byte for byte.
   usage: platform_check read FILE...         per store: format, entries; per entry: its name,
                                              compression, size and the XXH3-64 of its image
          platform_check pack OUT FILE        every image of FILE's store packed into OUT (a .so,
                                              net11 preset: zstd, Mono), then OUT read back: its
                                              size and XXH3-64, and its images as read prints them */
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include <errno.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XALZ images (format 1 sets): the reader's callback, with liblz4 */
static asmstore_result lz4_decompress(void *user, asmstore_compression kind, void *dst,
                                      size_t dst_cap, const void *src, size_t src_size,
                                      size_t *written) {
    int n;
    (void)user;
    if (kind != ASMSTORE_COMPRESSION_LZ4 || dst_cap > 0x7fffffff || src_size > 0x7fffffff)
        return ASMSTORE_ERR_UNSUPPORTED_COMPRESSION;
    n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_size, (int)dst_cap);
    if (n < 0) return ASMSTORE_ERR_CORRUPT;
    *written = (size_t)n;
    return ASMSTORE_OK;
}

/* Calls each(user, entry, image, size) for every image of the store in path; 0 on success. */
typedef int (*image_fn)(void *user, const asmstore_entry *e, const unsigned char *img, size_t n);
static int each_image(const char *path, image_fn each, void *user) {
    asmstore_locator loc;
    asmstore_reader r;
    asmstore_read_options ro;
    asmstore_error err;
    uint32_t i;
    int rc = 0;

    memset(&ro, 0, sizeof ro);
    ro.decompress = lz4_decompress;
    if (asmstore_locate_file(&loc, path, NULL, &err) != ASMSTORE_OK ||
        asmstore_reader_init(&r, loc.data, loc.size, &ro, &err) != ASMSTORE_OK) {
        printf("%s: %s (%s)\n", path, asmstore_result_string(err.result), err.message);
        return 1;
    }
    printf("store format %u, %u entries, %s\n", (unsigned)r.format, (unsigned)r.entry_count,
           asmstore_elf_kind_name(loc.wrapper));
    for (i = 0; i < r.entry_count && rc == 0; i++) {
        asmstore_entry e;
        unsigned char *img;
        if (asmstore_reader_entry(&r, i, &e, &err) != ASMSTORE_OK || e.ignored) continue;
        img = (unsigned char *)malloc(e.uncompressed_size ? e.uncompressed_size : 1);
        if (!img ||
            asmstore_reader_read(&r, &e, img, e.uncompressed_size, NULL, &err) != ASMSTORE_OK) {
            printf("  entry %u: %s\n", (unsigned)i, img ? err.message : "out of memory");
            rc = 1;
        } else {
            rc = each(user, &e, img, e.uncompressed_size);
        }
        free(img);
    }
    asmstore_locator_close(&loc);
    return rc;
}

static int print_image(void *user, const asmstore_entry *e, const unsigned char *img, size_t n) {
    (void)user;
    printf("  %u %.*s %d %lu %016llx\n", (unsigned)e->index, e->name ? (int)e->name_len : 1,
           e->name ? e->name : "-", (int)e->compression, (unsigned long)n,
           (unsigned long long)asmstore_xxh3_64(img, n));
    return 0;
}

/* Adds the image under its own name, or "ImageNNNN.dll" (format 1 entries may have none). */
static int add_image(void *user, const asmstore_entry *e, const unsigned char *img, size_t n) {
    asmstore_writer *w = (asmstore_writer *)user;
    asmstore_add add;
    asmstore_error err;
    char name[1100];
    memset(&add, 0, sizeof add);
    if (e->name)
        snprintf(name, sizeof name, "%.*s", (int)e->name_len, e->name);
    else
        snprintf(name, sizeof name, "Image%04u.dll", (unsigned)e->index);
    add.name = name;
    add.image = img;
    add.image_size = n;
    if (asmstore_writer_add(w, &add, &err) == ASMSTORE_OK) return 0;
    printf("add: %s\n", err.message);
    return 1;
}

static int pack(const char *out, const char *in) {
    asmstore_writer *w;
    asmstore_write_options wo;
    asmstore_elf_options eo;
    asmstore_error err;
    const void *store;
    void *back;
    size_t n, back_size;
    int rc;

    memset(&wo, 0, sizeof wo);
    memset(&eo, 0, sizeof eo);
    eo.abi = ASMSTORE_ABI_ARM64;
    if (asmstore_write_options_preset(&wo, ASMSTORE_TARGET_NET11, ASMSTORE_RUNTIME_MONOVM, eo.abi,
                                      NULL, &err) != ASMSTORE_OK ||
        asmstore_writer_create(&w, &wo, &err) != ASMSTORE_OK) {
        printf("writer: %s\n", err.message);
        return 1;
    }
    rc = each_image(in, add_image, w);
    if (rc == 0 && (asmstore_writer_finish(w, &store, &n, &err) != ASMSTORE_OK ||
                    asmstore_elf_write_file(out, &eo, store, n, 0644, &err) != ASMSTORE_OK ||
                    asmstore_read_file(out, NULL, &back, &back_size, &err) != ASMSTORE_OK)) {
        printf("pack: %s (%s)%s\n", asmstore_result_string(err.result), err.message,
               err.backend_code == EACCES ? ": EACCES" : "");
        rc = 1;
    }
    asmstore_writer_free(w);
    if (rc) return rc;
    printf("wrote %lu bytes, %016llx\n", (unsigned long)back_size,
           (unsigned long long)asmstore_xxh3_64(back, back_size));
    asmstore_free(NULL, back, back_size);
    return each_image(out, print_image, NULL);
}

static int run(int argc, char **argv) {
    int i, rc = 0;
    if (argc >= 3 && strcmp(argv[1], "read") == 0) {
        for (i = 2; i < argc; i++) rc |= each_image(argv[i], print_image, NULL);
        return rc;
    }
    if (argc == 4 && strcmp(argv[1], "pack") == 0) return pack(argv[2], argv[3]);
    fprintf(stderr, "usage: platform_check read FILE... | pack OUT FILE\n");
    return 2;
}

#ifdef _WIN32
/* The header takes UTF-8 paths: the arguments as UTF-16 (wmain, -municode), converted, never
   through the ANSI code page main's argv would have come through. */
#include <windows.h>
int wmain(int argc, wchar_t **wargv) {
    char **argv = (char **)calloc((size_t)argc + 1, sizeof *argv);
    int i;
    for (i = 0; argv && i < argc; i++) {
        int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);
        if (n <= 0 || !(argv[i] = (char *)malloc((size_t)n))) return 2;
        WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n, NULL, NULL);
    }
    return argv ? run(argc, argv) : 2;
}
#else
int main(int argc, char **argv) { return run(argc, argv); }
#endif
