/* trim.c - one program for every trim flavour (tests/t_build_flavours.sh). It reads entry NAME from a
   store in a .so through the file locator, then uses what the flavour keeps and says so on stdout:
   "zip" (the APK locator finds the same store; without the ZIP scan an archive is UNSUPPORTED),
   "dlopen" (the dlopen locator finds it), "build" (the writer repacks the image, the ELF generator
   wraps it, the bionic checker passes it). The test compares that line with what the flags promise.
   usage: trim STORE.so APP.apk NAME */
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, asmstore_result r) {
    fprintf(stderr, "%s: %s\n", what, asmstore_result_string(r));
    return 1;
}

/* Finds `name` in the store at loc and reads its image into *img (malloc'd). */
static asmstore_result read_entry(const asmstore_locator *loc, const char *name, unsigned char **img, size_t *size) {
    asmstore_reader r;
    asmstore_entry e;
    asmstore_result res = asmstore_reader_init(&r, loc->data, loc->size, NULL, NULL);
    if (res == ASMSTORE_OK) res = asmstore_reader_find(&r, name, strlen(name), &e, NULL);
    if (res != ASMSTORE_OK) return res;
    *img = (unsigned char *)malloc(e.uncompressed_size ? e.uncompressed_size : 1);
    if (!*img) return ASMSTORE_ERR_OUT_OF_MEMORY;
    *size = e.uncompressed_size;
    return asmstore_reader_read(&r, &e, *img, *size, NULL, NULL);
}

#if !defined(ASMSTORE_NO_ZIP) || !defined(ASMSTORE_NO_DLOPEN)
/* The same image again through another locator. */
static int same_entry(asmstore_locator *loc, const char *name, const unsigned char *img, size_t size) {
    unsigned char *again = NULL;
    size_t n = 0;
    int same = read_entry(loc, name, &again, &n) == ASMSTORE_OK && n == size && memcmp(again, img, size) == 0;
    free(again);
    asmstore_locator_close(loc);
    return same;
}
#endif

int main(int argc, char **argv) {
    asmstore_locator loc;
    asmstore_result res;
    unsigned char *img = NULL;
    size_t size = 0;
    if (argc != 4) return 2;
    if ((res = asmstore_locate_file(&loc, argv[1], NULL, NULL)) != ASMSTORE_OK) return fail("locate_file", res);
    if ((res = read_entry(&loc, argv[3], &img, &size)) != ASMSTORE_OK) return fail("read", res);
    asmstore_locator_close(&loc);
    if (size < 2 || img[0] != 'M' || img[1] != 'Z') return fail("image", ASMSTORE_ERR_CORRUPT);
    printf("read");
    res = asmstore_locate_file(&loc, argv[2], NULL, NULL);
#ifndef ASMSTORE_NO_ZIP
    if (res != ASMSTORE_OK) return fail("locate_file APK", res);
    if (loc.via != ASMSTORE_VIA_APK || !same_entry(&loc, argv[3], img, size)) return fail("APK", ASMSTORE_ERR_CORRUPT);
    printf(" zip");
#else
    if (res != ASMSTORE_ERR_UNSUPPORTED) return fail("locate_file APK without the ZIP scan", res);
#endif
#ifndef ASMSTORE_NO_DLOPEN
    if ((res = asmstore_locate_dlopen(&loc, argv[1], NULL, NULL)) != ASMSTORE_OK) return fail("locate_dlopen", res);
    if (!same_entry(&loc, argv[3], img, size)) return fail("dlopen", ASMSTORE_ERR_CORRUPT);
    printf(" dlopen");
#endif
#ifndef ASMSTORE_NO_BUILD
    {
        asmstore_writer *w;
        asmstore_write_options wo;
        asmstore_elf_options eo;
        asmstore_add entry;
        const void *store;
        size_t n;
        void *so;
        size_t so_size;
        memset(&wo, 0, sizeof wo);
        memset(&entry, 0, sizeof entry);
        memset(&eo, 0, sizeof eo);
        wo.jobs = 1;
        if ((res = asmstore_writer_create(&w, &wo, NULL)) != ASMSTORE_OK) return fail("writer_create", res);
        entry.name = argv[3];
        entry.image = img;
        entry.image_size = size;
        res = asmstore_writer_add(w, &entry, NULL);
        if (res == ASMSTORE_OK) res = asmstore_writer_finish(w, &store, &n, NULL);
        if (res == ASMSTORE_OK) res = asmstore_elf_wrap(&eo, store, n, &so, &so_size, NULL);
        asmstore_writer_free(w);
        if (res != ASMSTORE_OK) return fail("write + wrap", res);
        res = asmstore_elf_check_bionic(so, so_size, ASMSTORE_ABI_ARM64, NULL, NULL, NULL);
        asmstore_free(&eo.allocator, so, so_size);
        if (res != ASMSTORE_OK) return fail("check_bionic", res);
        printf(" build");
    }
#endif
    printf("\n");
    free(img);
    return 0;
}
