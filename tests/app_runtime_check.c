/* tests/app_runtime_check.c - what the runtime does with a store's compressed entries, run against
   the real (or repacked) x86_64 libxamarin-app.so loaded by glibc's dlopen, with no mocks
   (docs/store-releases.md §3.3; src/native/mono/monodroid/embedded-assemblies.cc, .NET 10+):

     app_runtime_check STANDIN_LIBC LIB STORE...   dlopen STANDIN_LIBC (soname libc.so), then LIB;
         read compressed_assembly_count, compressed_assembly_descriptors,
         uncompressed_assemblies_data_size and uncompressed_assemblies_data_buffer by dlsym; for
         each compressed entry: the index in range, the buffer inside the data size, the image no
         larger than its descriptor (smaller: the descriptor shrinks), then decompress into the
         library's buffer, which must hold it (the buffer symbol's st_size, from dladdr1: what the
         loader resolved), and compare the size. Exit 0 when every entry passes, 1 naming the first
         entry the runtime would abort on, 2 when a file or symbol is missing.
     app_runtime_check --coreclr STANDIN_LIBC LIB STORE...
         the same, and what CoreCLR's AssemblyStore::open_assembly (src/native/clr/host/
         assembly-store.cc) does with every entry it finds, compressed or not: write its slot
         assembly_store_bundled_assemblies[mapping_index] (no bound check there; here the slot
         must lie inside the symbol's st_size, from dladdr1, or it exits 1 naming the entry).
     app_runtime_check --grow LIB INDEX SIZE OUT
         asmstore_app_grow on a copy of LIB, written to OUT.
     app_runtime_check --slots LIB SLOTS OUT
         asmstore_app_add_slots on a copy of LIB, written to OUT. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"

#include <dlfcn.h>
#include <link.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* The runtime's CompressedAssemblyDescriptor, .NET 10+ (xamarin-app.hh). */
typedef struct runtime_descriptor {
    uint32_t uncompressed_file_size;
    unsigned char loaded;
    uint32_t buffer_offset;
} runtime_descriptor;

/* AssemblyStoreSingleAssemblyRuntimeData (xamarin-app.hh): what open_assembly fills in. */
typedef struct runtime_slot {
    const unsigned char *image_data, *debug_info_data, *config_data;
    const void *descriptor;
} runtime_slot;

typedef struct runtime_table {
    const uint32_t *count;
    runtime_descriptor *descriptors;
    const uint32_t *data_size;
    unsigned char *buffer;
    size_t buffer_size; /* the buffer symbol's st_size, as the loader resolved it */
    runtime_slot *slots; /* --coreclr: assembly_store_bundled_assemblies, nslots of them */
    size_t nslots;
} runtime_table;

/* The dynamic symbol `name` of h and its st_size, as the loader resolved them (NULL: absent). */
static void *symbol(void *h, const char *name, size_t *size) {
    const ElfW(Sym) *sym = NULL;
    Dl_info di;
    void *p = dlsym(h, name);

    if (!p || !dladdr1(p, &di, (void **)&sym, RTLD_DL_SYMENT) || !sym) return NULL;
    *size = (size_t)sym->st_size;
    return p;
}

/* --coreclr: assembly_store_bundled_assemblies and its size from its dynamic symbol. */
static int load_slots(void *h, const char *lib, runtime_table *t) {
    size_t bytes = 0;

    t->slots = (runtime_slot *)symbol(h, "assembly_store_bundled_assemblies", &bytes);
    if (!t->slots) {
        fprintf(stderr, "%s: no assembly_store_bundled_assemblies\n", lib);
        return 2;
    }
    t->nslots = bytes / sizeof *t->slots;
    return 0;
}

static int load(const char *standin, const char *lib, int coreclr, runtime_table *t) {
    void *h;

    if (!dlopen(standin, RTLD_NOW | RTLD_GLOBAL) || !(h = dlopen(lib, RTLD_NOW))) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    t->count = (const uint32_t *)dlsym(h, "compressed_assembly_count");
    t->descriptors = (runtime_descriptor *)dlsym(h, "compressed_assembly_descriptors");
    t->data_size = (const uint32_t *)dlsym(h, "uncompressed_assemblies_data_size");
    t->buffer = (unsigned char *)symbol(h, "uncompressed_assemblies_data_buffer", &t->buffer_size);
    if (!t->count || !t->descriptors || !t->data_size || !t->buffer) {
        fprintf(stderr, "%s: a symbol the runtime reads is missing\n", lib);
        return 2;
    }
    return coreclr ? load_slots(h, lib, t) : 0;
}

/* CoreCLR's open_assembly for entry e: its slot filled in (the write that would go past the array). */
static int open_entry(const runtime_table *t, const asmstore_entry *e) {
    if (e->mapping_index >= t->nslots)
        return printf("entry %u: mapping index %u past assembly_store_bundled_assemblies' %zu "
                      "slots: open_assembly writes past the array\n",
                      e->index, e->mapping_index, t->nslots), 1;
    t->slots[e->mapping_index].image_data = e->image;
    t->slots[e->mapping_index].descriptor = e;
    return 0;
}

/* One compressed image, the runtime's steps; 0 or 1 with the reason printed. */
static int run_entry(const runtime_table *t, const asmstore_entry *e) {
    uint32_t index = e->descriptor_index, length = asmstore__rd32(e->image + 8);
    runtime_descriptor *d;
    size_t got;

    if (index >= *t->count)
        return printf("entry %u: descriptor index %u >= %u: abort\n", e->index, index,
                      *t->count), 1;
    d = &t->descriptors[index];
    if (d->buffer_offset >= *t->data_size ||
        d->uncompressed_file_size > *t->data_size - d->buffer_offset)
        return printf("entry %u: buffer outside the data: abort\n", e->index), 1;
    if (length > d->uncompressed_file_size)
        return printf("entry %u: %u bytes, larger than when the application was built (%u): "
                      "abort\n", e->index, length, d->uncompressed_file_size), 1;
    if (d->buffer_offset > t->buffer_size || length > t->buffer_size - d->buffer_offset)
        return printf("entry %u: decompresses past uncompressed_assemblies_data_buffer's %zu "
                      "bytes, over what follows it\n", e->index, t->buffer_size), 1;
    d->uncompressed_file_size = length;
    if (e->compression == ASMSTORE_COMPRESSION_LZ4) {
        int n = LZ4_decompress_safe((const char *)e->image + 12,
                                    (char *)t->buffer + d->buffer_offset,
                                    (int)(e->image_size - 12), (int)length);
        got = n < 0 ? (size_t)-1 : (size_t)n;
    } else {
        got = ZSTD_decompress(t->buffer + d->buffer_offset, length, e->image + 12,
                              e->image_size - 12);
    }
    if (got != length)
        return printf("entry %u: decompressed %zu bytes, not %u: abort\n", e->index, got,
                      length), 1;
    d->loaded = 1;
    return 0;
}

static int check_store(const runtime_table *t, const char *path) {
    void *data = NULL;
    const void *pl;
    size_t n = 0, pn;
    asmstore_reader r;
    uint32_t k, checked = 0, opened = 0;

    if (asmstore_read_file(path, NULL, &data, &n, NULL) != ASMSTORE_OK)
        return fprintf(stderr, "%s: cannot read\n", path), 2;
    pl = data;
    pn = n;
    if (n > 4 && memcmp(data, "\177ELF", 4) == 0 &&
        asmstore_elf_payload(data, n, NULL, &pl, &pn, NULL, NULL) != ASMSTORE_OK)
        return fprintf(stderr, "%s: no store in it\n", path), 2;
    if (asmstore_reader_init(&r, pl, pn, NULL, NULL) != ASMSTORE_OK)
        return fprintf(stderr, "%s: not a store\n", path), 2;
    for (k = 0; k < r.entry_count; k++) {
        asmstore_entry e;

        if (asmstore_reader_entry(&r, k, &e, NULL) != ASMSTORE_OK || e.ignored)
            continue;
        if (t->slots && open_entry(t, &e) != 0)
            return 1;
        opened += t->slots != NULL;
        if (e.compression == ASMSTORE_COMPRESSION_NONE)
            continue;
        if (run_entry(t, &e) != 0)
            return 1;
        checked++;
    }
    printf("%s: %u compressed entries load", path, checked);
    if (t->slots)
        printf(", %u entries open into %zu bundled-assembly slots", opened, t->nslots);
    printf("\n");
    free(data);
    return 0;
}

/* --grow (index, size) or --slots (size NULL): the patch on a copy of LIB, written to OUT. */
static int patch(const char *lib, const char *index, const char *size, const char *out) {
    void *data = NULL;
    size_t n = 0;
    asmstore_app_info info;
    asmstore_error err;
    asmstore_result r;

    if (asmstore_read_file(lib, NULL, &data, &n, NULL) != ASMSTORE_OK)
        return 2;
    r = asmstore_app_open(data, n, &info, &err);
    if (r == ASMSTORE_OK)
        r = size ? asmstore_app_grow(data, n, &info, (uint32_t)strtoul(index, NULL, 10),
                                     (uint32_t)strtoul(size, NULL, 10), &err)
                 : asmstore_app_add_slots(data, n, &info, (uint32_t)strtoul(index, NULL, 10),
                                          &err);
    if (r != ASMSTORE_OK)
        return fprintf(stderr, "%s: %s\n", lib, err.message ? err.message : "?"), 1;
    r = asmstore_write_file(out, data, n, 0644, NULL);
    free(data);
    return r == ASMSTORE_OK ? 0 : 2;
}

int main(int argc, char **argv) {
    runtime_table t;
    int i, rc, coreclr = argc > 1 && !strcmp(argv[1], "--coreclr");

    if (argc == 6 && !strcmp(argv[1], "--grow"))
        return patch(argv[2], argv[3], argv[4], argv[5]);
    if (argc == 5 && !strcmp(argv[1], "--slots"))
        return patch(argv[2], argv[3], NULL, argv[4]);
    argv += coreclr;
    argc -= coreclr;
    if (argc < 4)
        return fprintf(stderr, "usage: app_runtime_check [--coreclr] STANDIN_LIBC LIB STORE...\n"), 2;
    memset(&t, 0, sizeof t);
    if ((rc = load(argv[1], argv[2], coreclr, &t)) != 0)
        return rc;
    for (i = 3; i < argc; i++)
        if ((rc = check_store(&t, argv[i])) != 0)
            return rc;
    return 0;
}
