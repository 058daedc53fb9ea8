/* android_host.c - what dotnet/android's own host does with the store and libxamarin-app.so when
   the runtime asks for an assembly (CoreCLR's AssemblyStore::open_assembly, MonoVM's
   assembly_store_open_from_bundles), written on asmstore.h alone:

     android_host LIBXAMARIN_APP.so STORE [NAME...]

   1. dlopen the app's libxamarin-app.so and take the addresses of its compressed-assembly table
      (asmstore_app_tables_dlsym: .NET 10 on, or .NET 6-9's compressed_assemblies);
   2. map the store (a raw store, its .so or an APK; formats 2-4) and validate it once, with the
      name table;
   3. for each NAME (default: every entry) look it up by the name the runtime asks for, keeping
      the hash the lookup computed (MonoVM keys its image cache by it), and get its image with
      asmstore_app_load: a compressed one is decompressed once into the buffer the build reserved
      for it in libxamarin-app.so, with the runtime's checks (descriptor index in the table, the
      image no larger than its buffer, intact data) as results where the runtime aborts; a stored
      one is the store's own bytes;
   4. ask for every name a second time: the runtime's second request finds the buffer loaded.

   Prints one line per image and exits 0, 1 when an image fails to load (the runtime would abort),
   2 on a usage, library or store error. Build:
     cc -std=c99 -O2 -D_GNU_SOURCE examples/android_host.c -o android_host -lzstd -ldl */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_BUILD /* a host only reads */
#include "../asmstore.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct app_host {
    asmstore_app_tables tables;
    asmstore_locator loc;
    asmstore_reader reader;
    uint32_t *names;
} app_host;

static int fail(const char *what, const asmstore_error *err) {
    fprintf(stderr, "android_host: %s: %s\n", what, err->message ? err->message : "?");
    return 2;
}

/* Steps 1 and 2: the library's table, the store validated with its name table. */
static int open_host(app_host *h, const char *lib, const char *store) {
    asmstore_read_options ro;
    asmstore_error err;
    void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL); /* never closed, as upstream's */

    memset(&err, 0, sizeof err);
    if (!handle) return fprintf(stderr, "android_host: %s\n", dlerror()), 2;
    if (asmstore_app_tables_dlsym(&h->tables, handle, &err) != ASMSTORE_OK) return fail(lib, &err);
    if (asmstore_locate_file(&h->loc, store, NULL, &err) != ASMSTORE_OK) return fail(store, &err);
    memset(&ro, 0, sizeof ro);
    if (asmstore_reader_init(&h->reader, h->loc.data, h->loc.size, &ro, &err) != ASMSTORE_OK)
        return fail(store, &err);
    ro.name_table_bytes = asmstore_reader_name_table_size(&h->reader);
    ro.name_table = h->names = (uint32_t *)malloc(ro.name_table_bytes);
    if (!h->names ||
        asmstore_reader_init(&h->reader, h->loc.data, h->loc.size, &ro, &err) != ASMSTORE_OK)
        return fail(store, &err);
    return 0;
}

/* Step 3 for one name, as the runtime asks for it; 1 when the runtime would abort. */
static int load_one(const app_host *h, const char *name, int again) {
    asmstore_entry e;
    asmstore_error err;
    const unsigned char *image;
    size_t size;
    asmstore_result res = asmstore_reader_find(&h->reader, name, strlen(name), &e, &err);

    if (res == ASMSTORE_ERR_NOT_FOUND || res == ASMSTORE_ERR_IGNORED) {
        printf("%s: %s (the runtime looks elsewhere)\n", name, asmstore_result_string(res));
        return 0;
    }
    if (res == ASMSTORE_OK)
        res = asmstore_app_load(&h->tables, &h->reader, &e, NULL, &image, &size, &err);
    if (res != ASMSTORE_OK) {
        printf("%s: %s: %s (the runtime aborts)\n", name, asmstore_result_string(res),
               err.message ? err.message : "?");
        return 1;
    }
    printf("%s: %zu bytes, hash 0x%llx, %s%s\n", name, size, (unsigned long long)e.name_hash,
           e.compression == ASMSTORE_COMPRESSION_NONE ? "the store's own bytes"
                                                     : "in libxamarin-app.so's buffer",
           again ? " (asked again)" : "");
    return image[0] == 'M' && image[1] == 'Z' ? 0 : 1;
}

int main(int argc, char **argv) {
    app_host h;
    asmstore_entry e;
    uint32_t i;
    int pass, failed = 0, rc;

    if (argc < 3) {
        fprintf(stderr, "usage: android_host LIBXAMARIN_APP.so STORE [NAME...]\n");
        return 2;
    }
    memset(&h, 0, sizeof h);
    if ((rc = open_host(&h, argv[1], argv[2])) != 0) return rc;
    for (pass = 0; pass < 2; pass++) {
        if (argc > 3) {
            for (rc = 3; rc < argc; rc++) failed |= load_one(&h, argv[rc], pass);
            continue;
        }
        for (i = 0; i < h.reader.entry_count; i++) { /* every entry, by its stored name */
            char name[ASMSTORE_MAX_NAME_LEN + 1];
            if (asmstore_reader_entry(&h.reader, i, &e, NULL) != ASMSTORE_OK || !e.name) continue;
            memcpy(name, e.name, e.name_len);
            name[e.name_len] = 0;
            failed |= load_one(&h, name, pass);
        }
    }
    asmstore_locator_close(&h.loc);
    free(h.names);
    return failed;
}
