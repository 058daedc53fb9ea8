/* tests/lib/elf_host.c - dlopen harness for generated .so files, built per ABI (native and cross) and
   run by tests/t_elf.sh (under qemu-user for arm64/arm/x86).
     elf-host dlopen   LIB.so RAW [DIR]   asmstore_locate_dlopen: payload == RAW byte for byte
     elf-host section  LIB.so RAW [DIR]   plain dlopen must work, dlsym(_assembly_store) must not;
                                          then asmstore_locate_file finds the payload section
     elf-host template LIB.so RAW [DIR] SYMBOL   as section, and the stub's SYMBOL resolves
     elf-host locate   FILE RAW [DIR]     asmstore_locate_file (raw store, .so or APK) alone: payload == RAW,
                                          and inside the entry bytes the locator exposes (t_elf.sh runs this
                                          under strace to count the opens and maps of FILE)
   With DIR, every entry of the store read through asmstore_reader must equal DIR/<name>.
   Exit 0 when everything matches; prints what differs otherwise. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_entries(const void *data, size_t size, const char *dir) {
    asmstore_reader r;
    asmstore_result res = asmstore_reader_init(&r, data, size, NULL, NULL);
    uint32_t k, n = 0;
    if (res != ASMSTORE_OK) { printf("reader_init: %s\n", asmstore_result_string(res)); return 1; }
    for (k = 0; k < r.entry_count; k++) {
        asmstore_entry e;
        char path[4096];
        void *want = NULL, *got;
        size_t want_size = 0;
        if (asmstore_reader_entry(&r, k, &e, NULL) != ASMSTORE_OK) { printf("entry %u unreadable\n", k); return 1; }
        if (e.ignored) continue;
        got = malloc(e.uncompressed_size ? e.uncompressed_size : 1);
        if (!got) return 1;
        res = asmstore_reader_read(&r, &e, got, e.uncompressed_size, NULL, NULL);
        if (res != ASMSTORE_OK) { printf("entry %.*s: %s\n", (int)e.name_len, e.name, asmstore_result_string(res)); free(got); return 1; }
        if (dir) {
            snprintf(path, sizeof path, "%s/%.*s", dir, (int)e.name_len, e.name);
            if (asmstore_read_file(path, NULL, &want, &want_size, NULL) != ASMSTORE_OK) { printf("%s: cannot read\n", path); free(got); return 1; }
            if (want_size != e.uncompressed_size || memcmp(want, got, want_size) != 0) {
                printf("entry %.*s differs from %s\n", (int)e.name_len, e.name, path);
                free(want); free(got);
                return 1;
            }
            free(want);
        }
        free(got);
        n++;
    }
    printf("%u entries read back%s\n", n, dir ? " byte-exact" : "");
    return n == 0 && r.entry_count != 0;
}

int main(int argc, char **argv) {
    asmstore_locator l;
    asmstore_result res;
    void *raw = NULL;
    size_t raw_size = 0;
    const char *mode, *lib, *dir;
    int rc = 0;
    if (argc < 4) { fprintf(stderr, "usage: elf-host dlopen|section|template|locate LIB.so RAW [DIR] [SYMBOL]\n"); return 2; }
    mode = argv[1]; lib = argv[2];
    dir = argc > 4 && argv[4][0] ? argv[4] : NULL;
    if (asmstore_read_file(argv[3], NULL, &raw, &raw_size, NULL) != ASMSTORE_OK) { printf("%s: cannot read\n", argv[3]); return 2; }
    if (!strcmp(mode, "locate")) {
        res = asmstore_locate_file(&l, lib, NULL, NULL);
        if (res != ASMSTORE_OK) { printf("locate_file: %s\n", asmstore_result_string(res)); return 1; }
        if (!l.entry_data || (const char *)l.data < (const char *)l.entry_data ||
            (const char *)l.data + l.size > (const char *)l.entry_data + l.entry_size) {
            printf("payload not inside the entry bytes the locator exposes\n");
            rc = 1;
        }
    } else if (!strcmp(mode, "dlopen")) {
        res = asmstore_locate_dlopen(&l, lib, NULL, NULL);
        if (res != ASMSTORE_OK) { printf("locate_dlopen: %s: %s\n", asmstore_result_string(res), l.error); return 1; }
    } else {
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (!h) { printf("dlopen: %s\n", dlerror()); return 1; }
        if (dlsym(h, ASMSTORE_ELF_DEFAULT_SYMBOL)) { printf("section kind exports _assembly_store\n"); rc = 1; }
        if (!strcmp(mode, "template") && argc > 5 && !dlsym(h, argv[5])) { printf("stub symbol %s lost\n", argv[5]); rc = 1; }
        dlclose(h);
        res = asmstore_locate_file(&l, lib, NULL, NULL);
        if (res != ASMSTORE_OK) { printf("locate_file: %s\n", asmstore_result_string(res)); return 1; }
        if (l.wrapper != ASMSTORE_ELF_SECTION) { printf("payload found as %s, not elf-section\n", asmstore_elf_kind_name(l.wrapper)); rc = 1; }
    }
    if (l.size != raw_size || memcmp(l.data, raw, raw_size) != 0) {
        printf("payload differs from %s (%zu vs %zu bytes)\n", argv[3], l.size, raw_size);
        rc = 1;
    } else {
        printf("payload: %zu bytes identical (%s)\n", l.size, asmstore_elf_kind_name(l.wrapper));
        rc |= check_entries(l.data, l.size, dir);
    }
    asmstore_locator_close(&l);
    free(raw);
    return rc;
}
