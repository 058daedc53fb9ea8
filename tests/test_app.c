/* tests/test_app.c - the app library part of asmstore.h (asmstore_app_*): the compressed-assembly
   table of the three real libxamarin-app.so files (.NET 10 arm64 and x86_64: one buffer with
   offsets; .NET 8 arm64: relocated per-entry pointers) read and matched against their own stores
   with the runtime's checks; damaged copies (a count past the table, a lost relocation, a buffer
   outside the data, a grown image) refused by name; every truncation and byte flip is safe. The
   real files are read in place (SAMPLES overrides where they are). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"

#define V3_X64 "v3-watercountdown-widget/x86_64/"
#define V3_ARM64 "v3-watercountdown-widget/arm64-v8a/"
#define V1_RAZR "v1-razr-pointcrep/"
#define NO_SAMPLES "samples absent (set SAMPLES=.../assembly-store-samples)"

static uint32_t r32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Every compressed entry of the store in `blob` (an ELF wrapper or a raw store) passes the
   runtime's checks against the library; returns how many were checked, -1 when it does not read. */
static int check_store(const unsigned char *so, size_t so_size, const asmstore_app_info *info,
                       const unsigned char *blob, size_t blob_size) {
    const void *pl = blob;
    size_t pl_size = blob_size;
    asmstore_reader r;
    uint32_t i;
    int n = 0;
    if (blob_size > 4 && blob[0] == 0x7f &&
        asmstore_elf_payload(blob, blob_size, NULL, &pl, &pl_size, NULL, NULL) != ASMSTORE_OK)
        return -1;
    if (asmstore_reader_init(&r, pl, pl_size, NULL, NULL) != ASMSTORE_OK) return -1;
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        asmstore_error err;
        if (asmstore_reader_entry(&r, i, &e, NULL) != ASMSTORE_OK || e.ignored) continue;
        if (e.compression == ASMSTORE_COMPRESSION_NONE) continue;
        CHECK_EQ_INT(asmstore_app_check_image(so, so_size, info, e.descriptor_index,
                                              (uint32_t)e.uncompressed_size, &err),
                     ASMSTORE_OK);
        n++;
    }
    return n;
}

/* >>real libraries ----------------------------------------------------------------------------- */
static void test_net10_x86_64(void) {
    size_t n = 0, sn = 0;
    unsigned char *so = test_sample(V3_X64 "libxamarin-app.so", &n);
    unsigned char *store = test_sample(V3_X64 "assembly-store.so", &sn);
    asmstore_app_info info;
    asmstore_app_descriptor d;
    uint64_t sum = 0;
    uint32_t i;
    if (!so || !store) {
        free(so);
        free(store);
        SKIP(NO_SAMPLES);
    }
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.table, ASMSTORE_APP_TABLE_BUFFER);
    CHECK_EQ_INT(info.abi, ASMSTORE_ABI_X86_64);
    CHECK_EQ_INT(info.count, 10);
    CHECK_EQ_INT(info.descriptor_size, 12);
    CHECK_EQ_INT(info.format_tag, 2);
    CHECK_EQ_INT(info.data_size, 1836544);
    CHECK_EQ_INT(info.data_symbol_size, 1836544);
    CHECK_EQ_INT(info.descriptors_addr, 0xeed0);
    CHECK_EQ_INT(info.descriptors_offset, 0xeed0 - 0xdb80 + 0x5b80); /* .data: address != offset */
    CHECK(info.have_config);
    CHECK_EQ_INT(info.assemblies_in_apk, 10);
    CHECK_EQ_INT(info.store_files, 0);
    CHECK_EQ_INT(info.bundled_slots, 10);
    for (i = 0; i < info.count; i++) {
        CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, i, &d, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(d.buffer_offset, sum); /* the running sum of the sizes */
        CHECK_EQ_INT(d.data_addr, info.data_addr + sum);
        CHECK_EQ_INT(d.loaded, 0);
        sum += d.uncompressed_file_size;
    }
    CHECK_EQ_INT(sum, info.data_size);
    CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, 10, &d, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(check_store(so, n, &info, store, sn), 10);
    free(so);
    free(store);
}

static void test_net10_arm64_upper_bound(void) {
    size_t n = 0, sn = 0;
    unsigned char *so = test_sample(V3_ARM64 "libxamarin-app.so", &n);
    unsigned char *store = test_sample(V3_ARM64 "assembly-store.so", &sn);
    asmstore_app_info info;
    asmstore_app_descriptor d;
    asmstore_error err;
    if (!so || !store) {
        free(so);
        free(store);
        SKIP(NO_SAMPLES);
    }
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.table, ASMSTORE_APP_TABLE_BUFFER);
    CHECK_EQ_INT(info.abi, ASMSTORE_ABI_ARM64);
    CHECK_EQ_INT(info.descriptors_offset, 0x6b10);
    CHECK_EQ_INT(info.data_size, 1827328);
    /* Mono.Android: the unshrunk size, while the store holds the shrunk 294,400 */
    CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, 9, &d, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(d.uncompressed_file_size, 306688);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 294400, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 306688, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 306689, &err), ASMSTORE_ERR_TOO_LARGE);
    CHECK_EQ_INT(err.entry, 9);
    CHECK(err.message && strstr(err.message, "larger than its descriptor"));
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 10, 1, &err), ASMSTORE_ERR_BAD_INDEX);
    CHECK_EQ_INT(check_store(so, n, &info, store, sn), 10);
    free(so);
    free(store);
}

static void test_net8_relocated_pointers(void) {
    size_t n = 0, b0n = 0, b1n = 0;
    unsigned char *so = test_sample(V1_RAZR "libxamarin-app.so", &n);
    unsigned char *b0 = test_sample(V1_RAZR "base_assemblies.blob", &b0n);
    unsigned char *b1 = test_sample(V1_RAZR "base_assemblies.arm64_v8a.blob", &b1n);
    asmstore_app_info info;
    asmstore_app_descriptor d;
    uint64_t next = 0;
    uint32_t i;
    if (!so || !b0 || !b1) {
        free(so);
        free(b0);
        free(b1);
        SKIP(NO_SAMPLES);
    }
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.table, ASMSTORE_APP_TABLE_POINTERS);
    CHECK_EQ_INT(info.count, 25);
    CHECK_EQ_INT(info.descriptor_size, 16);
    CHECK_EQ_INT(info.descriptors_addr, 0x36418); /* the RELATIVE relocation's addend */
    CHECK_EQ_INT(info.format_tag, 1);
    CHECK_EQ_INT(info.assemblies_in_apk, 25);
    CHECK_EQ_INT(info.store_files, 2);
    CHECK_EQ_INT(info.bundled_slots, 25);
    for (i = 0; i < info.count; i++) {
        CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, i, &d, NULL), ASMSTORE_OK);
        CHECK(d.data_addr != 0 && d.reloc_offset != 0);
        if (i) CHECK(d.data_addr >= next); /* consecutive buffers, each as large as its size */
        next = d.data_addr + d.uncompressed_file_size;
    }
    CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, 2, &d, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(d.uncompressed_file_size, 363008); /* Mono.Android, unshrunk; the store: 339,456 */
    CHECK_EQ_INT(check_store(so, n, &info, b0, b0n) + check_store(so, n, &info, b1, b1n), 25);
    free(so);
    free(b0);
    free(b1);
}

/* >>not an app library ------------------------------------------------------------------------- */
static void test_no_table(void) {
    static const unsigned char not_elf[64] = "not an ELF file";
    static const unsigned char payload[16] = "XABA";
    asmstore_app_info info;
    asmstore_error err;
    void *so = NULL;
    size_t n = 0;
    CHECK_EQ_INT(asmstore_app_open(not_elf, sizeof not_elf, &info, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK_EQ_INT(asmstore_app_open(NULL, 0, NULL, &err), ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(asmstore_app_check_image(NULL, 0, NULL, 0, 0, &err), ASMSTORE_ERR_INVALID_ARG);
    /* a store's ELF wrapper is an ELF file with neither table */
    CHECK_EQ_INT(asmstore_elf_wrap(NULL, payload, sizeof payload, &so, &n, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, &err), ASMSTORE_OK);
    CHECK_EQ_INT(info.table, ASMSTORE_APP_TABLE_NONE);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 0, 1, &err), ASMSTORE_ERR_BAD_INDEX);
    asmstore_free(NULL, so, n);
}

/* >>damaged copies ----------------------------------------------------------------------------- */
static void test_damaged_buffer_table(void) {
    size_t n = 0;
    unsigned char *so = test_sample(V3_X64 "libxamarin-app.so", &n);
    asmstore_app_info info, bad;
    asmstore_error err;
    if (!so) SKIP(NO_SAMPLES);
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    /* a count past the descriptors' symbol */
    w32(so + info.count_offset, 11);
    CHECK_EQ_INT(asmstore_app_open(so, n, &bad, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK(err.message && strstr(err.message, "compressed_assembly_descriptors"));
    w32(so + info.count_offset, 10);
    /* descriptor 3's buffer past the data size */
    w32(so + info.descriptors_offset + 3 * 12 + 8, info.data_size);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 3, 1, &err), ASMSTORE_ERR_CORRUPT);
    CHECK_EQ_INT(err.entry, 3);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 2, 1, &err), ASMSTORE_OK);
    /* a data size past the buffer symbol: every entry's buffer is out of place */
    w32(so + info.data_size_offset, info.data_size + 1);
    CHECK_EQ_INT(asmstore_app_open(so, n, &bad, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &bad, 2, 1, &err), ASMSTORE_ERR_CORRUPT);
    free(so);
}

static void test_damaged_pointer_table(void) {
    size_t n = 0;
    unsigned char *so = test_sample(V1_RAZR "libxamarin-app.so", &n);
    asmstore_app_info info, bad;
    asmstore_app_descriptor d;
    asmstore_error err;
    if (!so) SKIP(NO_SAMPLES);
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    /* descriptor 4's data relocation retargeted elsewhere: a null pointer at run time */
    CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, 4, &d, NULL), ASMSTORE_OK);
    w32(so + d.reloc_offset, r32(so + d.reloc_offset) + 1);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 4, 1, &err), ASMSTORE_ERR_CORRUPT);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 5, 1, &err), ASMSTORE_OK);
    /* a count past the file */
    w32(so + info.count_offset, 0x10000000u);
    CHECK_EQ_INT(asmstore_app_open(so, n, &bad, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK(err.message && strstr(err.message, "descriptors"));
    free(so);
}

/* >>the loader's view --------------------------------------------------------------------------- */
/* A decoy of the ELF64 library so[0..n): .dynsym, .dynstr and every SHT_RELA section copied past the
   end, their section headers pointed at the copies (tests/lib/app_decoy.py, for any class). glibc
   and bionic read none of them through section headers: the decoy loads as the original. */
static unsigned char *decoy64(const unsigned char *so, size_t n, size_t *out) {
    uint64_t shoff = asmstore__rd64(so + 40), at = n;
    unsigned shent = asmstore__rd16(so + 58), shnum = asmstore__rd16(so + 60), i;
    unsigned char *d = (unsigned char *)calloc(1, 2 * n);

    if (!d) return NULL;
    memcpy(d, so, n);
    for (i = 1; i < shnum; i++) {
        unsigned char *sh = d + shoff + (uint64_t)i * shent;
        uint32_t type = asmstore__rd32(sh + 4);
        uint64_t off = asmstore__rd64(sh + 24), size = asmstore__rd64(sh + 32);
        if (type != 11 && type != 4 && !(type == 3 && (sh[8] & 2))) continue; /* DYNSYM RELA .dynstr */
        at = (at + 15) & ~(uint64_t)15;
        memcpy(d + at, so + off, (size_t)size);
        w64(sh + 24, at);
        at += size;
    }
    *out = (size_t)at;
    return d;
}

#define X64_BUFFER_SYM (0x228 + 46 * 24) /* the x86_64 sample's DT_SYMTAB entry of the buffer */

/* The x86_64 sample's decoy: the table reads the same; a growth moves the buffer symbol the loader
   resolves (DT_SYMTAB's), not the copy's; the loader's buffer shrunk under the data size is a
   disagreement whatever the copy says. */
static void test_decoy_buffer(void) {
    size_t n = 0, dn = 0;
    unsigned char *so = test_sample(V3_X64 "libxamarin-app.so", &n), *d;
    asmstore_app_info info, orig;
    asmstore_error err;
    if (!so) SKIP(NO_SAMPLES);
    d = decoy64(so, n, &dn);
    CHECK(d != NULL && dn > n);
    CHECK_EQ_INT(asmstore_app_open(so, n, &orig, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_open(d, dn, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.data_addr, orig.data_addr);
    CHECK_EQ_INT(info.descriptors_offset, orig.descriptors_offset);
    CHECK_EQ_INT(asmstore__rd64(d + X64_BUFFER_SYM + 8), info.data_addr);
    CHECK_EQ_INT(asmstore_app_grow(d, dn, &info, 9, 3300000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore__rd64(d + X64_BUFFER_SYM + 8), info.data_addr);
    CHECK_EQ_INT(asmstore__rd64(d + X64_BUFFER_SYM + 16), 1836544 + 3300000);
    CHECK_EQ_INT(asmstore_app_check_image(d, dn, &info, 9, 3300000, NULL), ASMSTORE_OK);
    free(d);
    d = decoy64(so, n, &dn);
    w64(d + X64_BUFFER_SYM + 16, 1000000); /* the loader's buffer; the copy keeps 1,836,544 */
    CHECK_EQ_INT(asmstore_app_open(d, dn, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.data_symbol_size, 1000000);
    CHECK_EQ_INT(asmstore_app_check_image(d, dn, &info, 0, 1, &err), ASMSTORE_ERR_CORRUPT);
    free(d);
    free(so);
}

/* What the loader would resolve by its hash, or set by the last relocation, is not guessed: two
   dynamic symbols of a name the runtime reads, or a second relocation of a descriptor's pointer, are
   refused. */
static void test_loader_ambiguity(void) {
    size_t n = 0, n8 = 0;
    unsigned char *so = test_sample(V3_X64 "libxamarin-app.so", &n);
    unsigned char *so8 = test_sample(V1_RAZR "libxamarin-app.so", &n8);
    asmstore_app_info info;
    asmstore_app_descriptor d, d5;
    asmstore_error err;
    if (!so || !so8) {
        free(so);
        free(so8);
        SKIP(NO_SAMPLES);
    }
    /* format_tag (symbol 5) renamed compressed_assembly_count (symbol 7) */
    w32(so + 0x228 + 5 * 24, r32(so + 0x228 + 7 * 24));
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK(err.message && strstr(err.message, "two dynamic symbols"));
    /* descriptor 5's data relocation retargeted at descriptor 4's pointer */
    CHECK_EQ_INT(asmstore_app_open(so8, n8, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_read_descriptor(so8, n8, &info, 4, &d, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_read_descriptor(so8, n8, &info, 5, &d5, NULL), ASMSTORE_OK);
    w64(so8 + d5.reloc_offset, asmstore__rd64(so8 + d.reloc_offset));
    CHECK_EQ_INT(asmstore_app_read_descriptor(so8, n8, &info, 4, &d, &err), ASMSTORE_ERR_BAD_ELF);
    CHECK(err.message && strstr(err.message, "more than one relocation"));
    free(so);
    free(so8);
}

/* >>growing a descriptor ----------------------------------------------------------------------- */
/* x86_64 Mono.Android grown to 3.3 MB: the buffer moves past .bss, only the fields that say so
   change, the runtime's checks accept 3.3 MB and nothing more; a second growth extends it. */
static void test_grow_net10(void) {
    size_t n = 0, k, changed = 0;
    unsigned char *orig = test_sample(V3_X64 "libxamarin-app.so", &n);
    unsigned char *so;
    asmstore_app_info before, info;
    asmstore_app_descriptor d, d0;
    uint32_t i;
    if (!orig) SKIP(NO_SAMPLES);
    so = (unsigned char *)malloc(n);
    memcpy(so, orig, n);
    CHECK_EQ_INT(asmstore_app_open(so, n, &before, NULL), ASMSTORE_OK);
    info = before;
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 3300000, NULL), ASMSTORE_ERR_TOO_LARGE);
    CHECK_EQ_INT(asmstore_app_grow(so, n, &info, 9, 3300000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.data_size, 1836544 + 3300000);
    CHECK(info.data_addr >= 0xefc0 + 0x1c0950); /* past the old .bss */
    CHECK_EQ_INT(info.data_addr % 16, 0);
    CHECK_EQ_INT(info.data_symbol_size, info.data_size);
    CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, 9, &d, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(d.uncompressed_file_size, 3300000);
    CHECK_EQ_INT(d.buffer_offset, 1836544);
    for (i = 0; i < 9; i++) {
        CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, i, &d, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_app_read_descriptor(orig, n, &before, i, &d0, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(d.uncompressed_file_size, d0.uncompressed_file_size);
        CHECK_EQ_INT(d.buffer_offset, d0.buffer_offset);
        CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, i, d0.uncompressed_file_size, NULL),
                     ASMSTORE_OK);
    }
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 3300000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 3300001, NULL), ASMSTORE_ERR_TOO_LARGE);
    for (k = 0; k < n; k++)
        changed += so[k] != orig[k];
    CHECK(changed > 0 && changed <= 40); /* p_memsz, sh_size, st_value, st_size, two u32s */
    /* a second growth extends the moved buffer in place */
    before = info;
    CHECK_EQ_INT(asmstore_app_grow(so, n, &info, 6, 2000000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.data_addr, before.data_addr);
    CHECK_EQ_INT(info.data_size, before.data_size + 2000000);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 6, 2000000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 9, 3300000, NULL), ASMSTORE_OK);
    /* no larger than before: nothing to do */
    CHECK_EQ_INT(asmstore_app_grow(so, n, &info, 2, 1, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.data_size, before.data_size + 2000000);
    free(so);
    free(orig);
}

/* .NET 8 Mono.Android grown to 400,000: its own region past .bss, the relocation retargeted; the
   other descriptors' buffers as they were. */
static void test_grow_net8(void) {
    size_t n = 0, k, changed = 0;
    unsigned char *orig = test_sample(V1_RAZR "libxamarin-app.so", &n);
    unsigned char *so;
    asmstore_app_info before, info;
    asmstore_app_descriptor d, d0;
    uint32_t i;
    if (!orig) SKIP(NO_SAMPLES);
    so = (unsigned char *)malloc(n);
    memcpy(so, orig, n);
    CHECK_EQ_INT(asmstore_app_open(so, n, &before, NULL), ASMSTORE_OK);
    info = before;
    CHECK_EQ_INT(asmstore_app_grow(so, n, &info, 2, 400000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.count, 25);
    CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, 2, &d, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(d.uncompressed_file_size, 400000);
    CHECK(d.data_addr >= 0x2b4d68 + 7168); /* past the last old buffer */
    CHECK_EQ_INT(d.data_addr % 16, 0);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 2, 400000, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, 2, 400001, NULL), ASMSTORE_ERR_TOO_LARGE);
    for (i = 0; i < info.count; i++) {
        if (i == 2) continue;
        CHECK_EQ_INT(asmstore_app_read_descriptor(so, n, &info, i, &d, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_app_read_descriptor(orig, n, &before, i, &d0, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(d.data_addr, d0.data_addr);
        CHECK_EQ_INT(asmstore_app_check_image(so, n, &info, i, d0.uncompressed_file_size, NULL),
                     ASMSTORE_OK);
    }
    for (k = 0; k < n; k++)
        changed += so[k] != orig[k];
    CHECK(changed > 0 && changed <= 24); /* p_memsz, sh_size, the addend, the size */
    free(so);
    free(orig);
}

static void test_grow_refused(void) {
    size_t n = 0, n8 = 0;
    unsigned char *so = test_sample(V3_ARM64 "libxamarin-app.so", &n);
    unsigned char *so8 = test_sample(V1_RAZR "libxamarin-app.so", &n8);
    asmstore_app_info info;
    asmstore_app_descriptor d;
    asmstore_error err;
    uint32_t i, phoff;
    if (!so || !so8) {
        free(so);
        free(so8);
        SKIP(NO_SAMPLES);
    }
    /* a .NET 8 descriptor whose data relocation is lost has nothing to retarget */
    CHECK_EQ_INT(asmstore_app_open(so8, n8, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_read_descriptor(so8, n8, &info, 2, &d, NULL), ASMSTORE_OK);
    w32(so8 + d.reloc_offset, r32(so8 + d.reloc_offset) + 1);
    CHECK_EQ_INT(asmstore_app_grow(so8, n8, &info, 2, 400000, &err), ASMSTORE_ERR_UNSUPPORTED);
    CHECK(err.message && strstr(err.message, "no relative relocation"));
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_app_grow(so, n, &info, 10, 400000, &err), ASMSTORE_ERR_NOT_FOUND);
    /* the last PT_LOAD made read-only: no safe place for the buffer */
    phoff = r32(so + 32);
    for (i = (uint32_t)(so[56] | so[57] << 8); i-- > 0;) {
        unsigned char *ph = so + phoff + i * 56u;
        if (r32(ph) == 1) {
            w32(ph + 4, r32(ph + 4) & ~2u);
            break;
        }
    }
    CHECK_EQ_INT(asmstore_app_grow(so, n, &info, 9, 400000, &err), ASMSTORE_ERR_UNSUPPORTED);
    CHECK(err.message && strstr(err.message, "not writable"));
    free(so);
    free(so8);
}

#define X64_DATA_SIZE_SYM (0x228 + 52 * 24) /* uncompressed_assemblies_data_size's entry */
#define X64_CONFIG_SYM    (0x228 + 43 * 24) /* application_config's */

/* grow(index, size) or, index UINT32_MAX, add_slots(size) of so (the x86_64 sample, taken as
   CoreCLR's) refused as overlapping, with not one byte changed. */
static void check_patch_refused(unsigned char *so, size_t n, uint32_t index, uint32_t size) {
    unsigned char *was = (unsigned char *)malloc(n);
    asmstore_app_info info;
    asmstore_error err;

    memcpy(was, so, n);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    info.runtime = ASMSTORE_RUNTIME_CORECLR; /* as CoreCLR's library reads (test_add_slots) */
    info.assemblies_in_apk = 0;
    CHECK_EQ_INT(index == UINT32_MAX ? asmstore_app_add_slots(so, n, &info, size, &err)
                                     : asmstore_app_grow(so, n, &info, index, size, &err),
                 ASMSTORE_ERR_UNSUPPORTED);
    CHECK(err.message && strstr(err.message, "overlap"));
    CHECK(memcmp(so, was, n) == 0);
    free(was);
}

/* Crafted libraries whose fields one patch writes are the same bytes (the data size's symbol moved
   onto descriptor 0, then 1; application_config moved so its assembly count is
   compressed_assembly_count): patched, their tables would say other than what was asked. */
static void test_patch_overlap_refused(void) {
    size_t n = 0;
    unsigned char *so = test_sample(V3_X64 "libxamarin-app.so", &n);
    asmstore_app_info info;
    if (!so) SKIP(NO_SAMPLES);
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore__rd64(so + X64_DATA_SIZE_SYM + 8), 18868); /* the sample's layout */
    CHECK_EQ_INT(asmstore__rd64(so + X64_CONFIG_SYM + 8), 38960);
    w64(so + X64_DATA_SIZE_SYM + 8, info.descriptors_addr);
    check_patch_refused(so, n, 0, 3300000);
    w64(so + X64_DATA_SIZE_SYM + 8, info.descriptors_addr + 12);
    check_patch_refused(so, n, 0, 3300000);
    w64(so + X64_DATA_SIZE_SYM + 8, 18868);
    w64(so + X64_CONFIG_SYM + 8, 18864 - 20); /* number_of_assemblies_in_apk on the count */
    check_patch_refused(so, n, UINT32_MAX, 14);
    free(so);
}

/* The real libraries are MonoVM's (assembly_image_cache_hashes): no new assembly fits them. Made to
   look like CoreCLR's (the hashes' symbol name, in .dynstr, renamed to a longer CoreCLR-only one
   cannot be done in place, so runtime_known is set by hand), the slots move past .bss and
   application_config's count (at CoreCLR's offset 20) follows. */
static void test_add_slots(void) {
    size_t n = 0;
    unsigned char *so = test_sample(V3_X64 "libxamarin-app.so", &n);
    asmstore_app_info info, before;
    asmstore_error err;
    if (!so)
        SKIP(NO_SAMPLES);
    CHECK_EQ_INT(asmstore_app_open(so, n, &info, NULL), ASMSTORE_OK);
    CHECK(info.runtime_known);
    CHECK_EQ_INT(info.runtime, ASMSTORE_RUNTIME_MONOVM);
    CHECK_EQ_INT(asmstore_app_add_slots(so, n, &info, 11, &err), ASMSTORE_ERR_UNSUPPORTED);
    CHECK(err.message && strstr(err.message, "stash_and_return"));
    info.runtime = ASMSTORE_RUNTIME_CORECLR;
    before = info;
    CHECK_EQ_INT(asmstore_app_add_slots(so, n, &info, 10, &err), ASMSTORE_OK); /* fits: no change */
    CHECK_EQ_INT(info.bundled_slots, 10);
    CHECK_EQ_INT(asmstore_app_add_slots(so, n, &info, 14, &err), ASMSTORE_OK);
    CHECK_EQ_INT(info.bundled_slots, 14);
    CHECK_EQ_INT(info.data_addr, before.data_addr); /* the compressed table is untouched */
    CHECK_EQ_INT(info.data_size, before.data_size);
    CHECK_EQ_INT(r32(so + before.config_offset + 20), 14);
    CHECK_EQ_INT(asmstore_app_add_slots(NULL, n, &info, 14, &err), ASMSTORE_ERR_INVALID_ARG);
    free(so);
}

/* Every prefix and every single-byte change of the three libraries reads without a fault; the
   reader either refuses or gives a table whose every descriptor reads. */
static void test_truncations_and_flips(void) {
    static const char *const files[3] = {V3_X64 "libxamarin-app.so", V3_ARM64 "libxamarin-app.so",
                                         V1_RAZR "libxamarin-app.so"};
    int f;
    for (f = 0; f < 3; f++) {
        size_t n = 0, k;
        unsigned char *so = test_sample(files[f], &n);
        if (!so) SKIP(NO_SAMPLES);
        for (k = 0; k < n; k += (k < 4096 ? 1 : 97)) {
            asmstore_app_info info;
            unsigned char keep = so[k];
            uint32_t i;
            (void)asmstore_app_open(so, k, &info, NULL);
            so[k] = (unsigned char)(keep ^ 0xA5);
            if (asmstore_app_open(so, n, &info, NULL) == ASMSTORE_OK)
                for (i = 0; i < info.count && i < 64; i++)
                    (void)asmstore_app_check_image(so, n, &info, i, 1, NULL);
            so[k] = keep;
        }
        free(so);
    }
}

int main(void) {
    RUN(test_net10_x86_64);
    RUN(test_net10_arm64_upper_bound);
    RUN(test_net8_relocated_pointers);
    RUN(test_no_table);
    RUN(test_damaged_buffer_table);
    RUN(test_damaged_pointer_table);
    RUN(test_decoy_buffer);
    RUN(test_loader_ambiguity);
    RUN(test_grow_net10);
    RUN(test_grow_net8);
    RUN(test_grow_refused);
    RUN(test_add_slots);
    RUN(test_patch_overlap_refused);
    RUN(test_truncations_and_flips);
    printf("%d passed, %d failed\n", test__passed, test__failed);
    return test__failed ? 1 : 0;
}
