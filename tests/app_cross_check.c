/* tests/app_cross_check.c - a 32-bit libxamarin-app.so (tests/lib/app_lib32.c, or a grown copy of
   it) read two ways by t_app_cross.sh, which compares both with what the source and binutils say:

     app_cross_check open LIB          asmstore_app_open and every descriptor
                                       (asmstore_app_read_descriptor), one line each
     app_cross_check load STANDIN LIB  built for the library's ABI, run under qemu-user: glibc's
                                       dlopen loads STANDIN (soname libc.so), then LIB; the symbols
                                       the runtime reads (docs/store-releases.md §3.3) give each
                                       descriptor's size and buffer, which must be zero-filled
                                       and writable (the runtime decompresses there), and
                                       .NET 10's data size within the buffer symbol's st_size
                                       (dladdr1: as the loader resolved it). Exit 0; 1
                                       naming the first descriptor that is not; 2 when a file or
                                       symbol is missing. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_NO_ZSTD
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int open_lib(const char *lib) {
    void *data = NULL;
    size_t n = 0;
    asmstore_app_info info;
    asmstore_app_descriptor d;
    asmstore_error err;
    uint32_t i;

    if (asmstore_read_file(lib, NULL, &data, &n, NULL) != ASMSTORE_OK)
        return fprintf(stderr, "%s: cannot read\n", lib), 2;
    if (asmstore_app_open(data, n, &info, &err) != ASMSTORE_OK)
        return fprintf(stderr, "%s: %s\n", lib, err.message ? err.message : "?"), 1;
    printf("abi %s, %d-bit, table %d, format_tag %u, %u descriptors of %u bytes at 0x%llx\n",
           asmstore_abi_name(info.abi), info.is_64bit ? 64 : 32, (int)info.table, info.format_tag,
           info.count, info.descriptor_size, (unsigned long long)info.descriptors_addr);
    printf("config: %u assemblies in the APK, %u store files, %u bundled slots\n",
           info.assemblies_in_apk, info.store_files, info.bundled_slots);
    if (info.table == ASMSTORE_APP_TABLE_BUFFER)
        printf("buffer: %u bytes at 0x%llx\n", info.data_size, (unsigned long long)info.data_addr);
    for (i = 0; i < info.count; i++) {
        if (asmstore_app_read_descriptor(data, n, &info, i, &d, &err) != ASMSTORE_OK)
            return fprintf(stderr, "descriptor %u: %s\n", i, err.message ? err.message : "?"), 1;
        printf("descriptor %u: %u bytes at 0x%llx\n", i, d.uncompressed_file_size,
               (unsigned long long)d.data_addr);
    }
    free(data);
    return 0;
}

/* The runtime's CompressedAssemblyDescriptor of either release: the data pointer (.NET 6-9) or
   buffer_offset (.NET 10+) at +8 on 32-bit ABIs. */
typedef struct runtime_descriptor {
    uint32_t uncompressed_file_size;
    unsigned char loaded;
    union {
        uint8_t *data;
        uint32_t buffer_offset;
    } at;
} runtime_descriptor;

/* .NET 6-9's compressed_assemblies. */
typedef struct runtime_pointers {
    uint32_t count;
    runtime_descriptor *descriptors;
} runtime_pointers;

/* Zero-filled (nothing decompressed yet) and writable (the runtime decompresses there). */
static int usable(uint32_t index, uint8_t *p, uint32_t size) {
    uint32_t k;

    for (k = 0; k < size; k++)
        if (p[k] != 0)
            return printf("descriptor %u: byte %u is %u, not zero\n", index, k, p[k]), 1;
    memset(p, 0xA5, size);
    printf("descriptor %u: %u bytes, zero-filled, writable\n", index, size);
    return 0;
}

/* The st_size of the dynamic symbol at p, as the loader resolved it (0 when dladdr1 finds none). */
static size_t symbol_size(const void *p) {
    const ElfW(Sym) *sym = NULL;
    Dl_info di;

    return dladdr1(p, &di, (void **)&sym, RTLD_DL_SYMENT) && sym ? (size_t)sym->st_size : 0;
}

static int load_lib(const char *standin, const char *lib) {
    void *h;
    const uint32_t *count = NULL, *data_size = NULL;
    runtime_descriptor *d = NULL;
    uint8_t *buffer = NULL;
    uint32_t i, n;

    if (!dlopen(standin, RTLD_NOW | RTLD_GLOBAL) || !(h = dlopen(lib, RTLD_NOW)))
        return fprintf(stderr, "dlopen: %s\n", dlerror()), 2;
    if ((count = (const uint32_t *)dlsym(h, "compressed_assembly_count")) != NULL) {
        d = (runtime_descriptor *)dlsym(h, "compressed_assembly_descriptors");
        data_size = (const uint32_t *)dlsym(h, "uncompressed_assemblies_data_size");
        buffer = (uint8_t *)dlsym(h, "uncompressed_assemblies_data_buffer");
        if (!d || !data_size || !buffer)
            return fprintf(stderr, "%s: a .NET 10 symbol is missing\n", lib), 2;
        if (*data_size > symbol_size(buffer))
            return printf("buffer: %u bytes, past the buffer symbol's %zu\n", *data_size,
                          symbol_size(buffer)), 1;
        printf("buffer: %u bytes\n", *data_size);
    } else {
        const runtime_pointers *t = (const runtime_pointers *)dlsym(h, "compressed_assemblies");

        if (!t) return fprintf(stderr, "%s: no compressed-assembly table\n", lib), 2;
        count = &t->count;
        d = t->descriptors;
    }
    n = *count;
    for (i = 0; i < n; i++) {
        uint32_t size = d[i].uncompressed_file_size;

        uint32_t at = buffer ? d[i].at.buffer_offset : 0;

        if (buffer && (at > *data_size || size > *data_size - at))
            return printf("descriptor %u: outside the buffer\n", i), 1;
        if (usable(i, buffer ? buffer + at : d[i].at.data, size) != 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "open"))
        return open_lib(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "load"))
        return load_lib(argv[2], argv[3]);
    fprintf(stderr, "usage: app_cross_check open LIB | load STANDIN_LIBC LIB\n");
    return 2;
}
