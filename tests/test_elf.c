/* tests/test_elf.c - the elf/zip/locator sections of asmstore.h: generated wrappers (every ABI and mode) found again and
   passing the bionic rules; each rule violated on purpose; template mode on a stub; the ZIP scan on
   archives built here byte by byte (comment with a fake EOCD, ZIP64, signing block, compressed,
   encrypted, misaligned, duplicate, truncated); locators (file, dlopen, APK, split APK); and a
   deterministic mutation run over every parser (no crash, results stay inside the input). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static const asmstore_abi all_abis[4] = {ASMSTORE_ABI_ARM64, ASMSTORE_ABI_ARM, ASMSTORE_ABI_X86_64, ASMSTORE_ABI_X86};
static char tmpdir[256];

/* ---- little helpers ---- */
static void w16(unsigned char *p, unsigned v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void w32(unsigned char *p, uint32_t v) { w16(p, v & 0xFFFFu); w16(p + 2, v >> 16); }
static void w64(unsigned char *p, uint64_t v) { w32(p, (uint32_t)v); w32(p + 4, (uint32_t)(v >> 32)); }
static uint32_t r32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t r64(const unsigned char *p) { return r32(p) | (uint64_t)r32(p + 4) << 32; }
static int is64(asmstore_abi a) { return a == ASMSTORE_ABI_ARM64 || a == ASMSTORE_ABI_X86_64; }

/* A small real store for `abi` (two stored entries), owned by the returned writer. */
static asmstore_writer *make_store(asmstore_abi abi, const void **data, size_t *size) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    unsigned char a[3000], b[700];
    size_t i;
    memset(&o, 0, sizeof o);
    o.abi = abi; o.no_compress = 1; o.jobs = 1; o.image_alignment = 1; /* back to back, as releases write */
    for (i = 0; i < sizeof a; i++) a[i] = (unsigned char)(i * 7 + 1);
    for (i = 0; i < sizeof b; i++) b[i] = (unsigned char)(i ^ 0x5a);
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return NULL;
    if (test_add(w, "A.dll", a, sizeof a, 0) != ASMSTORE_OK ||
        test_add(w, "B.dll", b, sizeof b, 0) != ASMSTORE_OK ||
        asmstore_writer_finish(w, data, size, NULL) != ASMSTORE_OK) { asmstore_writer_free(w); return NULL; }
    return w;
}

static unsigned char *wrap(asmstore_abi abi, asmstore_elf_mode mode, const void *p, size_t n, size_t *out_size) {
    asmstore_elf_options o;
    void *out = NULL;
    memset(&o, 0, sizeof o);
    o.abi = abi; o.mode = mode;
    if (asmstore_elf_wrap(&o, p, n, &out, out_size, NULL) != ASMSTORE_OK) return NULL;
    return (unsigned char *)out;
}

/* ---- generated files ---- */
static void test_wrap_every_abi_and_mode(void) {
    int i, m;
    for (i = 0; i < 4; i++) {
        const void *store; size_t store_size;
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        CHECK(w != NULL);
        if (!w) return;
        for (m = 0; m < 2; m++) {
            size_t n = 0, ps = 0;
            const void *pl = NULL;
            asmstore_elf_info info;
            asmstore_error v;
            asmstore_elf_image img;
            asmstore_elf_options o;
            asmstore_reader r;
            unsigned char *f = wrap(all_abis[i], (asmstore_elf_mode)m, store, store_size, &n);
            CHECK(f != NULL);
            if (!f) continue;
            CHECK_EQ_INT(asmstore_elf_payload(f, n, NULL, &pl, &ps, &info, NULL), ASMSTORE_OK);
            CHECK(ps == store_size && pl && memcmp(pl, store, store_size) == 0);
            CHECK_EQ_INT(info.kind, m == 0 ? ASMSTORE_ELF_SYMBOL : ASMSTORE_ELF_SECTION);
            CHECK_EQ_INT(info.abi, all_abis[i]);
            CHECK_EQ_INT(info.is_64bit, is64(all_abis[i]));
            CHECK_EQ_INT(info.payload_offset, 16384);
            if (m == 0) CHECK_EQ_INT(info.symbol_size, store_size);
            else CHECK(info.section_is_last);
            CHECK_EQ_INT(asmstore_reader_init(&r, pl, ps, NULL, NULL), ASMSTORE_OK);
            memset(&v, 0, sizeof v); /* a passing file leaves it as it was */
            CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, all_abis[i], NULL, NULL, &v), ASMSTORE_OK);
            CHECK_EQ_INT(v.rule, 0);
            /* wrong ABI directory: rule 9 */
            CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, all_abis[(i + 1) % 4], NULL, NULL, &v), ASMSTORE_ERR_ELF_RULE);
            CHECK_EQ_INT(v.rule, 9);
            /* the layout API gives the same bytes without copying the payload */
            memset(&o, 0, sizeof o);
            o.abi = all_abis[i]; o.mode = (asmstore_elf_mode)m;
            CHECK_EQ_INT(asmstore_elf_layout(&img, &o, store_size, NULL), ASMSTORE_OK);
            CHECK(img.total_size == n && img.head_size == img.payload_offset && img.head_size + store_size + img.tail_size == n);
            CHECK(memcmp(img.head, f, img.head_size) == 0 && memcmp(img.tail, f + img.head_size + store_size, img.tail_size) == 0);
            asmstore_elf_image_free(&img);
            asmstore_elf_image_free(&img); /* idempotent */
            /* arm: EABI5 without the float flag that armhf glibc rejects */
            CHECK_EQ_INT(r32(f + (is64(all_abis[i]) ? 48 : 36)), all_abis[i] == ASMSTORE_ABI_ARM ? 0x05000000u : 0u);
            free(f);
        }
        asmstore_writer_free(w);
    }
}

static uint64_t shdr_off(const unsigned char *f, int b64, size_t idx);

static void test_options(void) {
    const void *store; size_t store_size, n, ps;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size);
    asmstore_elf_options o;
    asmstore_elf_info info;
    asmstore_error v;
    const void *pl;
    void *out = NULL;
    static const size_t bad[] = {1, 2048, 0x3000, 4097, (size_t)1 << 31};
    size_t i;
    if (!w) { CHECK(0); return; }
    memset(&o, 0, sizeof o);
    o.abi = ASMSTORE_ABI_X86_64;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o.alignment = bad[i];
        CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_INVALID_ARG);
    }
    o.alignment = 4096;
    CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_elf_payload(out, n, NULL, &pl, &ps, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.payload_offset, 4096);
    CHECK_EQ_INT(asmstore_elf_check_bionic(out, n, ASMSTORE_ABI_X86_64, NULL, NULL, &v), ASMSTORE_OK); /* p_align stays 16 KiB */
    free(out);
    o.alignment = 65536;
    o.symbol = "my_store"; o.soname = "libmine.so";
    CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_elf_payload(out, n, "my_store", &pl, &ps, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.kind, ASMSTORE_ELF_SYMBOL);
    CHECK_EQ_INT(info.payload_offset, 65536);
    CHECK(ps == store_size && memcmp(pl, store, ps) == 0);
    CHECK(memmem(out, 4096, "libmine.so", 11) != NULL);
    CHECK_EQ_INT(asmstore_elf_check_bionic(out, n, ASMSTORE_ABI_X86_64, "my_store", NULL, &v), ASMSTORE_OK);
    /* st_size 0 (what lld-made upstream wrappers carry): the payload is the rest of its section */
    {
        unsigned char *sy = (unsigned char *)out + shdr_off((const unsigned char *)out, 1, 1) + 24;
        w64(sy + 16, 0);
        CHECK_EQ_INT(asmstore_elf_payload(out, n, "my_store", &pl, &ps, &info, NULL), ASMSTORE_OK);
        CHECK(info.kind == ASMSTORE_ELF_SYMBOL && info.symbol_size == 0 && ps == store_size);
        CHECK_EQ_INT(asmstore_elf_check_bionic(out, n, ASMSTORE_ABI_X86_64, "my_store", NULL, &v), ASMSTORE_OK); /* bionic loads it */
        w64(sy + 16, store_size - 1); /* neither 0 nor the payload size */
        CHECK_EQ_INT(asmstore_elf_check_bionic(out, n, ASMSTORE_ABI_X86_64, "my_store", NULL, &v), ASMSTORE_ERR_ELF_RULE);
        CHECK_EQ_INT(v.rule, 10);
        w64(sy + 16, store_size + 1); /* past its section: malformed */
        CHECK_EQ_INT(asmstore_elf_payload(out, n, "my_store", &pl, &ps, &info, NULL), ASMSTORE_ERR_BAD_ELF);
        w64(sy + 16, store_size);
    }
    /* the default symbol is absent: the finder falls back to the section named payload */
    CHECK_EQ_INT(asmstore_elf_payload(out, n, NULL, &pl, &ps, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(info.kind, ASMSTORE_ELF_SECTION);
    free(out);
    o.alignment = 0;
    o.symbol = ""; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_INVALID_ARG);
    o.symbol = NULL; o.abi = (asmstore_abi)9; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_INVALID_ARG);
    o.abi = ASMSTORE_ABI_X86_64; o.mode = (asmstore_elf_mode)7; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_INVALID_ARG);
    /* an empty payload still makes a valid file */
    o.mode = ASMSTORE_ELF_MODE_SECTION;
    CHECK_EQ_INT(asmstore_elf_wrap(&o, NULL, 0, &out, &n, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_elf_payload(out, n, NULL, &pl, &ps, &info, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(ps, 0);
    free(out);
    asmstore_writer_free(w);
}

/* Offsets inside a generated file (docs/elf-so.md §3 layout). */
typedef struct gen_layout { size_t ehsz, phsz, shsz, wa, shoff; } gen_layout;
static gen_layout layout_of(const unsigned char *f, int b64) {
    gen_layout g;
    g.ehsz = b64 ? 64 : 52; g.phsz = b64 ? 56 : 32; g.shsz = b64 ? 64 : 40; g.wa = b64 ? 8 : 4;
    g.shoff = (size_t)(b64 ? r64(f + 40) : r32(f + 32));
    return g;
}
static uint64_t shdr_off(const unsigned char *f, int b64, size_t idx) { /* sh_offset of section idx */
    gen_layout g = layout_of(f, b64);
    const unsigned char *q = f + g.shoff + idx * g.shsz;
    return b64 ? r64(q + 24) : r32(q + 16);
}
static unsigned char *phdr(unsigned char *f, int b64, size_t idx) { gen_layout g = layout_of(f, b64); return f + g.ehsz + idx * g.phsz; }

/* One mutation of a generated file and the rule it must break. */
static int expect_rule(const unsigned char *orig, size_t n, asmstore_abi abi, int mutation, const asmstore_zip_entry *ze) {
    unsigned char *f = (unsigned char *)malloc(n);
    int b64 = is64(abi);
    gen_layout g;
    asmstore_error v;
    asmstore_result res;
    memcpy(f, orig, n);
    g = layout_of(f, b64);
    switch (mutation) {
    case 1: if (b64) w16(f + 60, 0); else w16(f + 48, 0); break;                         /* e_shnum = 0 */
    case 2: { unsigned char *p = phdr(f, b64, 2); if (b64) w64(p + 8, r64(p + 8) + 8); else w32(p + 4, r32(p + 4) + 4); } break; /* PT_DYNAMIC offset */
    case 3: w32(f + shdr_off(f, b64, 3) + 4, 3); break;                                   /* nchain */
    case 4: { unsigned char *d = f + shdr_off(f, b64, 4) + 4 * (b64 ? 16 : 8);            /* DT_STRSZ -> DT_GNU_HASH */
              if (b64) w64(d, 0x6ffffef5u); else w32(d, 0x6ffffef5u); } break;
    case 5: { unsigned char *d = f + shdr_off(f, b64, 4) + 1 * (b64 ? 16 : 8);            /* DT_SYMTAB -> DT_DEBUG */
              if (b64) w64(d, 21); else w32(d, 21); } break;
    case 6: { unsigned char *p = phdr(f, b64, 0); if (b64) w64(p + 8, 0x100); else w32(p + 4, 0x100); } break; /* PT_PHDR offset */
    case 7: { unsigned char *p = phdr(f, b64, 1); if (b64) w64(p + 48, 4096); else w32(p + 28, 4096); } break; /* p_align */
    case 8: w32(phdr(f, b64, 3), 0x6474e552u); break;                                      /* GNU_STACK -> GNU_RELRO */
    case 9: w16(f + 18, 8); break;                                                         /* e_machine MIPS */
    case 10: { unsigned char *s = f + shdr_off(f, b64, 1) + (b64 ? 24 : 16);               /* st_size - 1 */
               if (b64) w64(s + 16, r64(s + 16) - 1); else w32(s + 8, r32(s + 8) - 1); } break;
    case 11: { unsigned char *s = f + g.shoff + 6 * g.shsz;                                /* section kind: payload SHF_ALLOC */
               if (b64) w64(s + 8, 2); else w32(s + 8, 2); } break;
    default: break;
    }
    res = asmstore_elf_check_bionic(f, n, abi, NULL, ze, &v);
    free(f);
    if (res != ASMSTORE_ERR_ELF_RULE || v.rule != (mutation == 0 ? 12 : mutation)) {
        fprintf(stderr, "  abi %s mutation %d: %s, rule %d (%s)\n", asmstore_abi_name(abi), mutation, asmstore_result_string(res),
                v.rule, v.message ? v.message : "");
        return 0;
    }
    return 1;
}

static void test_bionic_rules_each(void) {
    int i, rule;
    for (i = 0; i < 4; i++) {
        const void *store; size_t store_size, n, ns;
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        unsigned char *f = wrap(all_abis[i], ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n);
        unsigned char *s = wrap(all_abis[i], ASMSTORE_ELF_MODE_SECTION, store, store_size, &ns);
        asmstore_zip_entry ze;
        CHECK(w && f && s);
        if (!w || !f || !s) return;
        for (rule = 1; rule <= 10; rule++) CHECK(expect_rule(f, n, all_abis[i], rule, NULL));
        CHECK(expect_rule(s, ns, all_abis[i], 11, NULL));
        memset(&ze, 0, sizeof ze);
        ze.method = 8; ze.data_offset = 16384;
        CHECK(expect_rule(f, n, all_abis[i], 0, &ze));
        ze.method = 0; ze.data_offset = 4096;
        CHECK(expect_rule(f, n, all_abis[i], 0, &ze));
        ze.data_offset = 65536;
        CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, all_abis[i], NULL, &ze, NULL), ASMSTORE_OK);
        /* not ELF at all, and a truncated file */
        CHECK_EQ_INT(asmstore_elf_check_bionic(store, store_size, ASMSTORE_ABI_UNKNOWN, NULL, NULL, NULL), ASMSTORE_ERR_BAD_ELF);
        CHECK(asmstore_elf_check_bionic(f, 200, ASMSTORE_ABI_UNKNOWN, NULL, NULL, NULL) != ASMSTORE_OK);
        free(f); free(s);
        asmstore_writer_free(w);
    }
}

/* ---- template mode ---- */
static void test_template(void) {
    int i;
    for (i = 0; i < 4; i++) {
        const void *store; size_t store_size, sn, n, ps, k;
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        unsigned char *stub = wrap(all_abis[i], ASMSTORE_ELF_MODE_DLOPEN, "stub", 4, &sn), *hit;
        asmstore_elf_options o;
        asmstore_elf_info info;
        const void *pl;
        void *out = NULL;
        int b64 = is64(all_abis[i]);
        if (!w || !stub) { CHECK(0); return; }
        /* make the stub's own section "payload" something else, and its symbol too */
        hit = (unsigned char *)memmem(stub, sn, "\0payload\0", 9);
        CHECK(hit != NULL);
        if (hit) hit[1] = 'P';
        hit = (unsigned char *)memmem(stub, sn, "_assembly_store", 15);
        if (hit) hit[0] = 'X';
        memset(&o, 0, sizeof o);
        o.mode = ASMSTORE_ELF_MODE_TEMPLATE; o.stub = stub; o.stub_size = sn;
        CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_OK);
        if (!out) { free(stub); asmstore_writer_free(w); continue; }
        CHECK_EQ_INT(asmstore_elf_payload(out, n, NULL, &pl, &ps, &info, NULL), ASMSTORE_OK);
        CHECK(ps == store_size && memcmp(pl, store, ps) == 0);
        CHECK_EQ_INT(info.kind, ASMSTORE_ELF_SECTION);
        CHECK(info.section_is_last);
        CHECK_EQ_INT(info.payload_offset % 16384, 0);
        CHECK(info.payload_offset >= sn);
        /* the stub's bytes are untouched except e_shoff and e_shnum/e_shstrndx */
        for (k = 0; k < sn; k++) {
            int hdr = b64 ? ((k >= 40 && k < 48) || (k >= 58 && k < 64)) : ((k >= 32 && k < 36) || (k >= 46 && k < 52));
            if (!hdr && ((const unsigned char *)out)[k] != stub[k]) { CHECK(!"stub byte changed"); break; }
        }
        CHECK_EQ_INT(r32((const unsigned char *)out + (b64 ? 60 : 48)) & 0xFFFFu, 8); /* 7 + payload */
        /* still valid for bionic: the stub was, and the new section is non-loadable and 16 KiB-aligned */
        CHECK_EQ_INT(asmstore_elf_check_bionic(out, n, all_abis[i], NULL, NULL, NULL), ASMSTORE_OK);
        free(out);
        /* stub checks */
        o.abi = all_abis[(i + 1) % 4];
        CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_ABI_MISMATCH);
        o.abi = ASMSTORE_ABI_UNKNOWN;
        o.stub_size = 40; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_BAD_ELF);
        o.stub_size = sn - 10; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_BAD_ELF); /* section table cut */
        o.stub = store; o.stub_size = store_size; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_BAD_ELF);
        o.stub = NULL; CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &out, &n, NULL), ASMSTORE_ERR_INVALID_ARG);
        free(stub);
        asmstore_writer_free(w);
    }
}

/* How often needle occurs in hay. */
static int count_mem(const void *hay, size_t n, const char *needle, size_t len) {
    const char *p = (const char *)hay, *end = p + n, *hit;
    int c = 0;
    while ((hit = (const char *)memmem(p, (size_t)(end - p), needle, len)) != NULL) { c++; p = hit + 1; }
    return c;
}

/* The --template trap: a stub that already carries a payload (the section kind, the dlopen kind, a
   template's own output) gets it replaced, never a second one beside it. Bytes before the payload
   stay, the payload section stays where it was, and re-wrapping the same payload gives the file back. */
static void test_template_replaces_payload(void) {
    static const asmstore_elf_mode modes[3] = {ASMSTORE_ELF_MODE_SECTION, ASMSTORE_ELF_MODE_DLOPEN, ASMSTORE_ELF_MODE_TEMPLATE};
    int i, m;
    for (i = 0; i < 4; i++)
        for (m = 0; m < 3; m++) {
            const void *store, *pl;
            size_t store_size, on, n, n2, ps, k, bigger;
            asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
            unsigned char *orig, *big;
            asmstore_elf_options o;
            asmstore_elf_info info, oinfo;
            void *out = NULL, *again = NULL;
            if (modes[m] == ASMSTORE_ELF_MODE_TEMPLATE) { /* a template's output: a plain stub + payload */
                unsigned char *stub = wrap(all_abis[i], ASMSTORE_ELF_MODE_DLOPEN, "stub", 4, &n);
                unsigned char *hit = stub ? (unsigned char *)memmem(stub, n, "\0payload\0", 9) : NULL;
                if (hit) hit[1] = 'P';
                if (stub && (hit = (unsigned char *)memmem(stub, n, "_assembly_store", 15)) != NULL) hit[0] = 'X';
                memset(&o, 0, sizeof o);
                o.mode = ASMSTORE_ELF_MODE_TEMPLATE; o.stub = stub; o.stub_size = n;
                orig = NULL;
                if (stub && asmstore_elf_wrap(&o, store, store_size, &out, &on, NULL) == ASMSTORE_OK) orig = (unsigned char *)out;
                free(stub);
            } else {
                orig = wrap(all_abis[i], modes[m], store, store_size, &on);
            }
            if (!w || !orig) { CHECK(0); asmstore_writer_free(w); free(orig); continue; }
            CHECK_EQ_INT(asmstore_elf_payload(orig, on, NULL, &pl, &ps, &oinfo, NULL), ASMSTORE_OK);
            /* a larger payload: a copy of the store with 5000 more bytes */
            bigger = store_size + 5000;
            big = (unsigned char *)calloc(1, bigger);
            memcpy(big, store, store_size);
            memset(&o, 0, sizeof o);
            o.mode = ASMSTORE_ELF_MODE_TEMPLATE; o.stub = orig; o.stub_size = on;
            out = NULL;
            CHECK_EQ_INT(asmstore_elf_wrap(&o, big, bigger, &out, &n, NULL), ASMSTORE_OK);
            if (!out) { free(big); free(orig); asmstore_writer_free(w); continue; }
            CHECK_EQ_INT(asmstore_elf_payload(out, n, NULL, &pl, &ps, &info, NULL), ASMSTORE_OK);
            CHECK(ps == bigger && memcmp(pl, big, bigger) == 0);
            CHECK_EQ_INT(info.kind, oinfo.kind);
            CHECK_EQ_INT(info.payload_offset, oinfo.payload_offset);
            CHECK_EQ_INT(info.section_index, oinfo.section_index);
            CHECK_EQ_INT(count_mem(out, n, "\0payload\0", 9), count_mem(orig, on, "\0payload\0", 9));
            CHECK_EQ_INT(r32((const unsigned char *)out + (is64(all_abis[i]) ? 60 : 48)) & 0xFFFFu,
                         r32(orig + (is64(all_abis[i]) ? 60 : 48)) & 0xFFFFu); /* no section added */
            if (info.kind == ASMSTORE_ELF_SYMBOL) CHECK_EQ_INT(info.symbol_size, bigger);
            CHECK_EQ_INT(asmstore_elf_check_bionic(out, n, all_abis[i], NULL, NULL, NULL), ASMSTORE_OK);
            /* bytes before the payload: the stub's, apart from e_shoff and (dlopen) PT_LOAD sizes and st_size */
            for (k = 0; k < 16; k++) CHECK(((unsigned char *)out)[k] == orig[k]);
            /* the old payload put back: the original file, byte for byte */
            o.stub = out; o.stub_size = n;
            CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &again, &n2, NULL), ASMSTORE_OK);
            CHECK(again && n2 == on && memcmp(again, orig, on) == 0);
            free(again); free(out); free(big); free(orig);
            asmstore_writer_free(w);
        }
}

/* ---- ZIP archives built by hand ---- */
typedef struct zent { const char *name; const void *data; size_t size; unsigned method, flags; size_t align; int lfh_name_differs; } zent;
typedef struct zopts { const char *comment; size_t comment_len; int zip64; size_t sigblock; int trailing; } zopts;

/* Builds an archive: local headers (data padded to `align` through the extra field, as zipalign
   does), an optional signing block, the central directory, ZIP64 records, EOCD, comment. */
static unsigned char *zip_build(const zent *e, int n, const zopts *zo, size_t *out_size) {
    size_t cap = 1 << 20, pos = 0, i, cd_start, lfh[16];
    unsigned char *z = (unsigned char *)calloc(1, cap);
    for (i = 0; i < (size_t)n; i++) {
        size_t nl = strlen(e[i].name), pad = 0;
        if (e[i].align) while ((pos + 30 + nl + pad) % e[i].align) pad++;
        lfh[i] = pos;
        w32(z + pos, 0x04034b50u); w16(z + pos + 4, 20); w16(z + pos + 6, e[i].flags); w16(z + pos + 8, e[i].method);
        w32(z + pos + 14, asmstore_crc32(e[i].data, e[i].size)); w32(z + pos + 18, (uint32_t)e[i].size); w32(z + pos + 22, (uint32_t)e[i].size);
        w16(z + pos + 26, (unsigned)nl); w16(z + pos + 28, (unsigned)pad);
        memcpy(z + pos + 30, e[i].name, nl);
        if (e[i].lfh_name_differs) z[pos + 30] ^= 1;
        pos += 30 + nl + pad;
        memcpy(z + pos, e[i].data, e[i].size);
        pos += e[i].size;
    }
    if (zo && zo->sigblock) { memset(z + pos, 0xAB, zo->sigblock); memcpy(z + pos + zo->sigblock - 16, "APK Sig Block 42", 16); pos += zo->sigblock; }
    cd_start = pos;
    for (i = 0; i < (size_t)n; i++) {
        size_t nl = strlen(e[i].name);
        int z64 = zo && zo->zip64;
        w32(z + pos, 0x02014b50u); w16(z + pos + 4, 0x31e); w16(z + pos + 6, 20); w16(z + pos + 8, e[i].flags); w16(z + pos + 10, e[i].method);
        w32(z + pos + 16, asmstore_crc32(e[i].data, e[i].size)); w32(z + pos + 20, (uint32_t)e[i].size); w32(z + pos + 24, (uint32_t)e[i].size);
        w16(z + pos + 28, (unsigned)nl); w16(z + pos + 30, z64 ? 12u : 0u);
        w32(z + pos + 42, z64 ? 0xFFFFFFFFu : (uint32_t)lfh[i]);
        memcpy(z + pos + 46, e[i].name, nl);
        pos += 46 + nl;
        if (z64) { w16(z + pos, 1); w16(z + pos + 2, 8); w64(z + pos + 4, lfh[i]); pos += 12; }
    }
    if (zo && zo->zip64) {
        size_t rec = pos;
        w32(z + pos, 0x06064b50u); w64(z + pos + 4, 44); w16(z + pos + 12, 45); w16(z + pos + 14, 45);
        w64(z + pos + 24, (uint64_t)n); w64(z + pos + 32, (uint64_t)n); w64(z + pos + 40, rec - cd_start); w64(z + pos + 48, cd_start);
        pos += 56;
        w32(z + pos, 0x07064b50u); w64(z + pos + 8, rec); w32(z + pos + 16, 1);
        pos += 20;
        w32(z + pos, 0x06054b50u); w16(z + pos + 8, 0xFFFF); w16(z + pos + 10, 0xFFFF);
        w32(z + pos + 12, 0xFFFFFFFFu); w32(z + pos + 16, 0xFFFFFFFFu);
    } else {
        w32(z + pos, 0x06054b50u); w16(z + pos + 8, (unsigned)n); w16(z + pos + 10, (unsigned)n);
        w32(z + pos + 12, (uint32_t)(pos - cd_start)); w32(z + pos + 16, (uint32_t)cd_start);
    }
    w16(z + pos + 20, zo && zo->comment ? (unsigned)zo->comment_len : 0u);
    pos += 22;
    if (zo && zo->comment) { memcpy(z + pos, zo->comment, zo->comment_len); pos += zo->comment_len; }
    if (zo && zo->trailing) { memcpy(z + pos, "junk", 4); pos += 4; }
    *out_size = pos;
    return z;
}

static const char payload_bytes[] = "0123456789abcdef-the-payload-bytes";

static void test_zip_scan(void) {
    zent e[4];
    zopts zo;
    unsigned char *z;
    size_t n, k;
    asmstore_zip_entry ent;
    asmstore_abi found;
    asmstore_error err;
    memset(e, 0, sizeof e); memset(&zo, 0, sizeof zo);
    e[0].name = "AndroidManifest.xml"; e[0].data = "<manifest/>"; e[0].size = 11;
    e[1].name = "lib/x86/libassembly-store.so"; e[1].data = payload_bytes; e[1].size = sizeof payload_bytes; e[1].align = 16384;
    e[2].name = "lib/arm64-v8a/libassembly-store.so"; e[2].data = payload_bytes; e[2].size = sizeof payload_bytes; e[2].align = 16384;
    e[3].name = "classes.dex"; e[3].data = "dex"; e[3].size = 3; e[3].method = 8;
    /* plain */
    z = zip_build(e, 4, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_OK);
    CHECK(ent.data_offset % 16384 == 0 && ent.alignment >= 16384 && ent.compressed_size == sizeof payload_bytes);
    CHECK(memcmp(z + ent.data_offset, payload_bytes, sizeof payload_bytes) == 0);
    CHECK_EQ_INT(asmstore_zip_find_store(z, n, ASMSTORE_ABI_UNKNOWN, &found, &ent, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(found, ASMSTORE_ABI_ARM64); /* preference order, not archive order */
    CHECK_EQ_INT(asmstore_zip_find_store(z, n, ASMSTORE_ABI_X86, &found, &ent, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(found, ASMSTORE_ABI_X86);
    CHECK_EQ_INT(asmstore_zip_find_store(z, n, ASMSTORE_ABI_ARM, &found, &ent, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_zip_find(z, n, "classes.dex", 11, &ent, NULL), ASMSTORE_ERR_ZIP_COMPRESSED);
    CHECK_EQ_INT(ent.method, 8);
    CHECK_EQ_INT(asmstore_zip_find(z, n, "AndroidManifest.xml", 19, &ent, NULL), ASMSTORE_ERR_MISALIGNED);
    CHECK_EQ_INT(ent.data_offset, 30 + 19);
    CHECK_EQ_INT(ent.alignment, 1);
    CHECK_EQ_INT(asmstore_zip_find(z, n, "missing", 7, &ent, NULL), ASMSTORE_ERR_NOT_FOUND);
    /* every truncation fails cleanly */
    for (k = 0; k < n; k += (k < 64 || n - k < 256) ? 1 : 97)
        if (asmstore_zip_find(z, k, e[2].name, strlen(e[2].name), &ent, NULL) == ASMSTORE_OK) { CHECK(!"truncated archive accepted"); break; }
    free(z);
    /* comment holding a fake EOCD that claims to end the file: rejected, the real one is found */
    {
        char c[64];
        memset(c, 'c', sizeof c);
        memcpy(c + 10, "PK\5\6", 4);
        w16((unsigned char *)c + 10 + 12, 0); w16((unsigned char *)c + 10 + 16, 0);
        w16((unsigned char *)c + 10 + 20, (unsigned)(sizeof c - 10 - 22));
        zo.comment = c; zo.comment_len = sizeof c;
        z = zip_build(e, 4, &zo, &n);
        CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_OK);
        free(z);
        zo.comment = NULL;
    }
    /* bytes after the EOCD: not an archive libziparchive would open */
    zo.trailing = 1;
    z = zip_build(e, 4, &zo, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    free(z);
    zo.trailing = 0;
    /* APK signing block between the entries and the central directory; ZIP64 records */
    zo.sigblock = 4096; zo.zip64 = 1;
    z = zip_build(e, 4, &zo, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, &err), ASMSTORE_OK);
    CHECK(ent.zip64 && ent.data_offset % 16384 == 0 && memcmp(z + ent.data_offset, payload_bytes, sizeof payload_bytes) == 0);
    free(z);
    zo.sigblock = 0; zo.zip64 = 0;
    /* encrypted, duplicate name, local header disagreeing with the central one */
    e[2].flags = 1;
    z = zip_build(e, 4, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_ZIP_ENCRYPTED);
    free(z);
    e[2].flags = 0;
    e[3] = e[2]; e[3].align = 0;
    z = zip_build(e, 4, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    free(z);
    e[2].lfh_name_differs = 1;
    z = zip_build(e, 3, NULL, &n);
    CHECK_EQ_INT(asmstore_zip_find(z, n, e[2].name, strlen(e[2].name), &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    free(z);
    /* not a zip, empty, NULL */
    CHECK_EQ_INT(asmstore_zip_find(payload_bytes, sizeof payload_bytes, "a", 1, &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    CHECK_EQ_INT(asmstore_zip_find(NULL, 0, "a", 1, &ent, NULL), ASMSTORE_ERR_BAD_ZIP);
    CHECK_EQ_INT(asmstore_zip_find(NULL, 5, "a", 1, &ent, NULL), ASMSTORE_ERR_INVALID_ARG);
}

/* ---- locators ---- */
static int write_tmp(const char *name, const void *p, size_t n, char *path, size_t cap) {
    snprintf(path, cap, "%s/%s", tmpdir, name);
    return asmstore_write_file(path, p, n, 0644, NULL) == ASMSTORE_OK;
}

static void test_locate_file_and_dlopen(void) {
    const void *store; size_t store_size, n, ns;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size);
    unsigned char *f = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n);
    unsigned char *s = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_SECTION, store, store_size, &ns);
    char p_raw[512], p_dl[512], p_sec[512];
    asmstore_locator l;
    asmstore_reader r;
    asmstore_entry e;
    if (!w || !f || !s) { CHECK(0); return; }
    CHECK(write_tmp("raw.store", store, store_size, p_raw, sizeof p_raw));
    CHECK(write_tmp("libdl.so", f, n, p_dl, sizeof p_dl));
    CHECK(write_tmp("libsec.so", s, ns, p_sec, sizeof p_sec));
    CHECK_EQ_INT(asmstore_locate_file(&l, p_raw, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_NONE && l.via == ASMSTORE_VIA_FILE);
    CHECK(l.entry_data == l.data && l.entry_size == store_size); /* the whole file */
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_file(&l, p_dl, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_SYMBOL && l.file_offset == 16384);
    CHECK(l.entry_size == n && memcmp(l.entry_data, f, n) == 0); /* the whole .so */
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_file(&l, p_sec, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.wrapper == ASMSTORE_ELF_SECTION);
    asmstore_locator_close(&l);
    asmstore_locator_close(&l); /* idempotent */
    CHECK_EQ_INT(asmstore_locate_file(&l, "/nonexistent/x.so", NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
    /* dlopen (native x86_64 only) */
#if defined(__x86_64__) && !defined(ASMSTORE_NO_LOCATOR)
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, p_dl, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == store_size && memcmp(l.data, store, store_size) == 0 && l.via == ASMSTORE_VIA_DLOPEN);
    CHECK_EQ_INT(asmstore_reader_init(&r, l.data, l.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "A", 1, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(e.uncompressed_size, 3000);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, p_sec, NULL, NULL), ASMSTORE_ERR_NO_PAYLOAD);
    CHECK(strstr(l.error, "_assembly_store") != NULL);
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, "/nonexistent/x.so", NULL, NULL), ASMSTORE_ERR_DLOPEN);
    CHECK(l.error[0] != 0);
#else
    (void)r; (void)e;
    printf("  SKIP dlopen part: not an x86_64 host (or no locator)\n");
#endif
    unlink(p_raw); unlink(p_dl); unlink(p_sec);
    free(f); free(s);
    asmstore_writer_free(w);
}

static void test_locate_apk_and_split(void) {
    const void *st_a, *st_x; size_t sa, sx, na, nx, nz;
    asmstore_writer *wa = make_store(ASMSTORE_ABI_ARM64, &st_a, &sa), *wx = make_store(ASMSTORE_ABI_X86, &st_x, &sx);
    unsigned char *fa = wrap(ASMSTORE_ABI_ARM64, ASMSTORE_ELF_MODE_DLOPEN, st_a, sa, &na);
    unsigned char *fx = wrap(ASMSTORE_ABI_X86, ASMSTORE_ELF_MODE_SECTION, st_x, sx, &nx), *z;
    zent e[3];
    char dir[400], base[512], split[512], path[512];
    asmstore_locator l;
    long pg = sysconf(_SC_PAGESIZE);
    if (!wa || !wx || !fa || !fx) { CHECK(0); return; }
    memset(e, 0, sizeof e);
    e[0].name = "classes.dex"; e[0].data = "dex\n035"; e[0].size = 7;
    e[1].name = "lib/arm64-v8a/libassembly-store.so"; e[1].data = fa; e[1].size = na; e[1].align = 16384;
    e[2].name = "lib/x86/libassembly-store.so"; e[2].data = fx; e[2].size = nx; e[2].align = 16384;
    /* one APK holding two ABIs */
    z = zip_build(e, 3, NULL, &nz);
    CHECK(write_tmp("app.apk", z, nz, path, sizeof path));
    free(z);
    CHECK_EQ_INT(asmstore_locate_apk(&l, path, ASMSTORE_ABI_ARM64, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == sa && memcmp(l.data, st_a, sa) == 0 && l.via == ASMSTORE_VIA_APK && l.wrapper == ASMSTORE_ELF_SYMBOL);
    CHECK(l.abi == ASMSTORE_ABI_ARM64 && !l.from_split && l.entry.data_offset % 16384 == 0);
    CHECK(l.file_offset == l.entry.data_offset + 16384);
    CHECK(l.map_size <= na + (size_t)pg); /* only the entry is mapped */
    CHECK(l.entry_size == na && memcmp(l.entry_data, fa, na) == 0); /* the entry's bytes, as stored */
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, path, ASMSTORE_ABI_X86, NULL, NULL), ASMSTORE_OK);
    CHECK(l.size == sx && memcmp(l.data, st_x, sx) == 0 && l.wrapper == ASMSTORE_ELF_SECTION);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, path, ASMSTORE_ABI_X86_64, NULL, NULL), ASMSTORE_ERR_NOT_FOUND);
    CHECK_EQ_INT(asmstore_locate_file(&l, path, NULL, NULL), ASMSTORE_OK); /* file locator sees a ZIP */
    CHECK(l.via == ASMSTORE_VIA_APK && l.abi == ASMSTORE_ABI_ARM64);
    asmstore_locator_close(&l);
    unlink(path);
    /* split: base.apk holds x86 only, split_config.arm64_v8a.apk holds arm64 */
    snprintf(dir, sizeof dir, "%s/split", tmpdir);
    mkdir(dir, 0755);
    snprintf(base, sizeof base, "%s/base.apk", dir);
    snprintf(split, sizeof split, "%s/split_config.arm64_v8a.apk", dir);
    z = zip_build(e + 1, 1, NULL, &nz);
    CHECK(asmstore_write_file(split, z, nz, 0644, NULL) == ASMSTORE_OK);
    free(z);
    e[1] = e[0];
    z = zip_build(e + 1, 2, NULL, &nz);
    CHECK(asmstore_write_file(base, z, nz, 0644, NULL) == ASMSTORE_OK);
    free(z);
    CHECK_EQ_INT(asmstore_locate_apk(&l, base, ASMSTORE_ABI_ARM64, NULL, NULL), ASMSTORE_OK);
    CHECK(l.from_split && l.size == sa && memcmp(l.data, st_a, sa) == 0);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, base, ASMSTORE_ABI_X86, NULL, NULL), ASMSTORE_OK); /* no x86 split: base */
    CHECK(!l.from_split && l.size == sx && memcmp(l.data, st_x, sx) == 0);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_apk(&l, base, ASMSTORE_ABI_UNKNOWN, NULL, NULL), ASMSTORE_OK); /* first ABI: arm64 split */
    CHECK(l.from_split && l.abi == ASMSTORE_ABI_ARM64);
    asmstore_locator_close(&l);
    unlink(split); unlink(base); rmdir(dir);
    free(fa); free(fx);
    asmstore_writer_free(wa); asmstore_writer_free(wx);
}

/* ---- where an image lies in its file (asmstore_locator_image_offset) ---- */
/* The file at path holds n bytes equal to p at off. */
static int file_holds(const char *path, uint64_t off, const void *p, size_t n) {
    unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
    int fd = open(path, O_RDONLY | O_CLOEXEC), ok;
    ok = buf && fd >= 0 && pread(fd, buf, n, (off_t)off) == (ssize_t)n && memcmp(buf, p, n) == 0;
    if (fd >= 0) close(fd);
    free(buf);
    return ok;
}

/* Every entry of l's store: its offset (any alignment) names its bytes in l->path; with 16, exactly the entries
   at multiples of 16 are OK and the others MISALIGNED at their offset. Returns how many were misaligned. */
static int check_image_offsets(const asmstore_locator *l, const char *path) {
    asmstore_reader r;
    asmstore_error err;
    uint32_t i;
    int misaligned = 0;
    CHECK(strcmp(l->path, path) == 0);
    CHECK_EQ_INT(asmstore_reader_init(&r, l->data, l->size, NULL, NULL), ASMSTORE_OK);
    for (i = 0; i < r.entry_count; i++) {
        asmstore_entry e;
        uint64_t off = 0, off16 = 0;
        asmstore_result res;
        CHECK_EQ_INT(asmstore_reader_entry(&r, i, &e, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_locator_image_offset(l, &r, &e, 1, &off, NULL), ASMSTORE_OK);
        CHECK(file_holds(path, off, e.image, e.image_size));
        res = asmstore_locator_image_offset(l, &r, &e, 16, &off16, &err);
        CHECK_EQ_INT(res, off % 16 ? ASMSTORE_ERR_MISALIGNED : ASMSTORE_OK);
        if (res == ASMSTORE_ERR_MISALIGNED) CHECK(err.offset == off && err.entry == (int64_t)i);
        misaligned += res == ASMSTORE_ERR_MISALIGNED;
    }
    return misaligned;
}

static void test_image_offsets(void) {
    const void *store, *packed;
    size_t store_size, packed_size, n, nz;
    asmstore_writer *w = make_store(ASMSTORE_ABI_X86_64, &store, &store_size), *wz = NULL;
    unsigned char *so = wrap(ASMSTORE_ABI_X86_64, ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n), *z, big[5000];
    char p_raw[512], p_so[512], p_apk[512], p_z[512];
    asmstore_write_options o;
    asmstore_locator l, other;
    asmstore_reader r;
    asmstore_entry e;
    uint64_t off;
    zent ze[2];
    if (!w || !so) { CHECK(0); return; }
    CHECK(write_tmp("offsets.store", store, store_size, p_raw, sizeof p_raw));
    CHECK(write_tmp("liboffsets.so", so, n, p_so, sizeof p_so));
    /* the raw store, its .so by mapping and by dlopen: the back-to-back layout has a misaligned image */
    CHECK_EQ_INT(asmstore_locate_file(&l, p_raw, NULL, NULL), ASMSTORE_OK);
    CHECK(check_image_offsets(&l, p_raw) >= 1);
    /* a reader over other bytes, a bad alignment: refused */
    CHECK_EQ_INT(asmstore_reader_init(&r, store, store_size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_entry(&r, 0, &e, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_locator_image_offset(&l, &r, &e, 1, &off, NULL), ASMSTORE_ERR_INVALID_ARG);
    CHECK_EQ_INT(asmstore_locator_image_offset(&l, &r, &e, 3, &off, NULL), ASMSTORE_ERR_INVALID_ARG);
    asmstore_locator_close(&l);
    CHECK_EQ_INT(asmstore_locate_file(&l, p_so, NULL, NULL), ASMSTORE_OK);
    CHECK(check_image_offsets(&l, p_so) >= 1);
    asmstore_locator_close(&l);
#if defined(__x86_64__) && !defined(ASMSTORE_NO_LOCATOR)
    CHECK_EQ_INT(asmstore_locate_dlopen(&l, p_so, NULL, NULL), ASMSTORE_OK);
    CHECK(l.file_offset == 16384);
    CHECK(check_image_offsets(&l, p_so) >= 1);
    asmstore_locator_close(&l);
#endif
    /* inside an APK entry: offsets count in the archive */
    memset(ze, 0, sizeof ze);
    ze[0].name = "classes.dex"; ze[0].data = "dex\n035"; ze[0].size = 7;
    ze[1].name = "lib/x86_64/libassembly-store.so"; ze[1].data = so; ze[1].size = n; ze[1].align = 16384;
    z = zip_build(ze, 2, NULL, &nz);
    CHECK(write_tmp("offsets.apk", z, nz, p_apk, sizeof p_apk));
    free(z);
    CHECK_EQ_INT(asmstore_locate_apk(&l, p_apk, ASMSTORE_ABI_X86_64, NULL, NULL), ASMSTORE_OK);
    CHECK(check_image_offsets(&l, p_apk) >= 1);
    asmstore_locator_close(&l);
    /* a compressed image has no bytes to map (the writer compresses with zstd: not in ASMSTORE_NO_ZSTD builds) */
#ifndef ASMSTORE_NO_ZSTD
    memset(&o, 0, sizeof o);
    o.abi = ASMSTORE_ABI_X86_64; o.jobs = 1;
    memset(big, 'x', sizeof big);
    CHECK(asmstore_writer_create(&wz, &o, NULL) == ASMSTORE_OK);
    CHECK(wz && test_add(wz, "Z.dll", big, sizeof big, 0) == ASMSTORE_OK);
    CHECK(wz && asmstore_writer_finish(wz, &packed, &packed_size, NULL) == ASMSTORE_OK);
    CHECK(wz && write_tmp("offsets-z.store", packed, packed_size, p_z, sizeof p_z));
    CHECK_EQ_INT(asmstore_locate_file(&l, p_z, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_init(&r, l.data, l.size, NULL, NULL), ASMSTORE_OK);
    CHECK_EQ_INT(asmstore_reader_find(&r, "Z.dll", 5, &e, NULL), ASMSTORE_OK);
    CHECK(e.compression == ASMSTORE_COMPRESSION_ZSTD);
    CHECK_EQ_INT(asmstore_locator_image_offset(&l, &r, &e, 1, &off, NULL), ASMSTORE_ERR_UNSUPPORTED);
    /* a locator that knows no file (a zeroed one has no payload either) */
    memset(&other, 0, sizeof other);
    CHECK_EQ_INT(asmstore_locator_image_offset(&other, &r, &e, 1, &off, NULL), ASMSTORE_ERR_INVALID_ARG);
    asmstore_locator_close(&l);
    unlink(p_z);
#else
    (void)o; (void)other; (void)packed; (void)packed_size; (void)big; (void)p_z;
    printf("  SKIP compressed image: an ASMSTORE_NO_ZSTD build writes none\n");
#endif
    unlink(p_raw); unlink(p_so); unlink(p_apk);
    free(so);
    asmstore_writer_free(w);
    asmstore_writer_free(wz);
}

/* ---- deterministic mutation run over every parser ---- */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17; return (uint32_t)(rng_state >> 11); }

static void fuzz_one(const unsigned char *orig, size_t n, int iters) {
    int it;
    for (it = 0; it < iters; it++) {
        size_t len = n, k, flips = 1 + rnd() % 8;
        unsigned char *f;
        const void *pl; size_t ps;
        asmstore_elf_info info;
        asmstore_zip_entry ze;
        if (rnd() % 8 == 0) len = rnd() % (n + 1);
        f = (unsigned char *)malloc(len ? len : 1);
        memcpy(f, orig, len);
        for (k = 0; k < flips && len; k++) {
            size_t at = (rnd() % 4 == 0) ? rnd() % len : (rnd() % (len < 512 ? len : 512));
            switch (rnd() % 4) {
            case 0: f[at] = (unsigned char)rnd(); break;
            case 1: f[at] = 0xFF; break;
            case 2: f[at] = 0; break;
            default: f[at] ^= (unsigned char)(1u << (rnd() % 8)); break;
            }
        }
        if (asmstore_elf_payload(f, len, NULL, &pl, &ps, &info, NULL) == ASMSTORE_OK)
            CHECK((const unsigned char *)pl >= f && ps <= len && (size_t)((const unsigned char *)pl - f) <= len - ps);
        (void)asmstore_elf_check_bionic(f, len, ASMSTORE_ABI_UNKNOWN, NULL, NULL, NULL);
        if (asmstore_zip_find_store(f, len, ASMSTORE_ABI_UNKNOWN, NULL, &ze, NULL) == ASMSTORE_OK)
            CHECK(ze.data_offset <= len && ze.compressed_size <= len - ze.data_offset);
        { /* as a template stub: a payload found in it is replaced (ASan sees any stray read or write) */
            asmstore_elf_options o;
            void *out = NULL;
            size_t on = 0;
            memset(&o, 0, sizeof o);
            o.mode = ASMSTORE_ELF_MODE_TEMPLATE; o.stub = f; o.stub_size = len;
            if (asmstore_elf_wrap(&o, "XABA", 4, &out, &on, NULL) == ASMSTORE_OK) CHECK(out && on >= 4);
            free(out);
        }
        free(f);
    }
}

static void test_mutations(void) {
    int i, m;
    const void *store; size_t store_size, n;
    for (i = 0; i < 4; i++) {
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        if (!w) { CHECK(0); return; }
        for (m = 0; m < 2; m++) {
            unsigned char *f = wrap(all_abis[i], (asmstore_elf_mode)m, store, 64, &n); /* small payload: fast */
            if (f) fuzz_one(f, n, 1500);
            free(f);
        }
        asmstore_writer_free(w);
    }
    {
        zent e[2];
        zopts zo;
        unsigned char *z;
        memset(e, 0, sizeof e); memset(&zo, 0, sizeof zo);
        e[0].name = "lib/arm64-v8a/libassembly-store.so"; e[0].data = payload_bytes; e[0].size = sizeof payload_bytes; e[0].align = 16;
        e[1].name = "lib/x86/libassembly-store.so"; e[1].data = payload_bytes; e[1].size = 5; e[1].align = 16;
        z = zip_build(e, 2, NULL, &n); fuzz_one(z, n, 3000); free(z);
        zo.zip64 = 1; zo.comment = "hello"; zo.comment_len = 5;
        z = zip_build(e, 2, &zo, &n); fuzz_one(z, n, 3000); free(z);
    }
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "%s/asmstore-elf.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) { perror("mkdtemp"); return 1; }
    RUN(test_wrap_every_abi_and_mode);
    RUN(test_options);
    RUN(test_bionic_rules_each);
    RUN(test_template);
    RUN(test_template_replaces_payload);
    RUN(test_zip_scan);
    RUN(test_locate_file_and_dlopen);
    RUN(test_locate_apk_and_split);
    RUN(test_image_offsets);
    RUN(test_mutations);
    rmdir(tmpdir);
    return TEST_DONE();
}
