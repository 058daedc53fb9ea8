/* tests/test_elf.c - the elf and elf-writer sections of asmstore.h: generated wrappers (every ABI
   and mode) found again by the payload finder and passing the bionic rules; the wrapper options;
   each bionic rule violated on purpose; template mode on a stub, and a stub that already carries
   a payload getting it replaced; what loading runs (asmstore_elf_check_inert): every generated kind
   passes, each thing that would run code or load another file is refused by name. ZIP, locators and the mutation run: test_locator.c. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define ASMSTORE_IMPLEMENTATION
#include "../asmstore.h"
#include "test.h"

#include <stdint.h>

static const asmstore_abi all_abis[4] = {ASMSTORE_ABI_ARM64, ASMSTORE_ABI_ARM, ASMSTORE_ABI_X86_64, ASMSTORE_ABI_X86};

/* ---- little helpers ---- */
static uint32_t r32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t r64(const unsigned char *p) { return r32(p) | (uint64_t)r32(p + 4) << 32; }
static int is64(asmstore_abi a) { return a == ASMSTORE_ABI_ARM64 || a == ASMSTORE_ABI_X86_64; }

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
/* The word of the class at p. */
static void wword(unsigned char *p, int b64, uint64_t v) { if (b64) w64(p, v); else w32(p, (uint32_t)v); }

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
    case 7: { unsigned char *p = phdr(f, b64, 1); if (b64) w64(p + 48, 4096); else w32(p + 28, 2048); } break; /* p_align below the page */
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

/* What glibc's loader faults on and bionic maps unreadable: a PT_LOAD without PF_R (rule 7), a
   PT_PHDR whose table ends past its PT_LOAD's file bytes (rule 6: p_filesz 0 at the LOAD's end). */
static void test_bionic_loader_faults(void) {
    int i;
    for (i = 0; i < 4; i++) {
        const void *store; size_t store_size, n;
        int b64 = is64(all_abis[i]);
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        unsigned char *f = wrap(all_abis[i], ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n);
        unsigned char *lp, *pp;
        uint64_t load_end;
        asmstore_error v;
        CHECK(w && f);
        if (!w || !f) return;
        memset(&v, 0, sizeof v);
        lp = phdr(f, b64, 1);
        pp = phdr(f, b64, 0);
        load_end = b64 ? r64(lp + 16) + r64(lp + 32) : r32(lp + 8) + r32(lp + 16); /* p_vaddr + p_filesz */
        w32(lp + (b64 ? 4 : 24), 0);
        CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, all_abis[i], NULL, NULL, &v), ASMSTORE_ERR_ELF_RULE);
        CHECK(v.rule == 7 && v.message && strstr(v.message, "PF_R"));
        w32(lp + (b64 ? 4 : 24), 4);
        wword(pp + (b64 ? 16 : 8), b64, load_end);
        wword(pp + (b64 ? 32 : 16), b64, 0);
        CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, all_abis[i], NULL, NULL, &v), ASMSTORE_ERR_ELF_RULE);
        CHECK(v.rule == 6);
        free(f);
        asmstore_writer_free(w);
    }
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
        ze.method = 0; ze.data_offset = is64(all_abis[i]) ? 4096 : 2048; /* below the page */
        CHECK(expect_rule(f, n, all_abis[i], 0, &ze));
        ze.data_offset = 4096; /* a 32-bit ABI's page (no 16 KiB kernel runs 32-bit code) */
        CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, all_abis[i], NULL, &ze, NULL), is64(all_abis[i]) ? ASMSTORE_ERR_ELF_RULE : ASMSTORE_OK);
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

/* ---- what loading runs (asmstore_elf_check_inert) ---- */

/* One mutation of a generated dlopen-kind file and the words the refusal must name. The dynamic
   table is SONAME, SYMTAB, SYMENT, STRTAB, STRSZ, HASH, NULL; the program headers PHDR, LOAD,
   DYNAMIC, GNU_STACK (docs/elf-so.md §3). */
static int expect_not_inert(const unsigned char *orig, size_t n, asmstore_abi abi, int mutation, const char *want) {
    unsigned char *f = (unsigned char *)malloc(n);
    int b64 = is64(abi);
    gen_layout g;
    unsigned char *dyn, *sym, *lp;
    asmstore_error v;
    asmstore_result res;
    uint64_t load_end;
    memcpy(f, orig, n);
    g = layout_of(f, b64);
    dyn = f + shdr_off(f, b64, 4);
    sym = f + shdr_off(f, b64, 1) + (b64 ? 24 : 16); /* _assembly_store */
    lp = phdr(f, b64, 1);
    load_end = b64 ? r64(lp + 16) + r64(lp + 40) : r32(lp + 8) + r32(lp + 20); /* LOAD's p_vaddr + p_memsz */
    switch (mutation) {
    case 0: w16(f + 16, 2); break;                              /* ET_EXEC */
    case 1: w32(phdr(f, b64, 1) + (b64 ? 4 : 24), 5); break;    /* PT_LOAD R+X */
    case 2: w32(phdr(f, b64, 3), 3); break;                     /* GNU_STACK -> PT_INTERP */
    case 3: w32(phdr(f, b64, 3), 7); break;                     /* GNU_STACK -> PT_TLS */
    case 4: w32(phdr(f, b64, 3), 0); break;                     /* no GNU_STACK */
    case 5: w32(phdr(f, b64, 3) + (b64 ? 4 : 24), 7); break;    /* executable stack */
    case 6: w32(phdr(f, b64, 0), 2); break;                     /* PHDR -> a 2nd PT_DYNAMIC */
    case 7: w32(phdr(f, b64, 3), 0x70000001u); break;           /* GNU_STACK -> PT_ARM_EXIDX */
    case 8: wword(phdr(f, b64, 2) + (b64 ? 16 : 8), b64, 0x100000); break; /* PT_DYNAMIC unmapped */
    case 9: wword(dyn + 6 * 2 * g.wa, b64, 21); break;          /* DT_NULL -> DT_DEBUG */
    case 10: wword(dyn, b64, 1); break;                         /* SONAME -> NEEDED */
    case 11: wword(dyn, b64, 12); break;                        /* -> INIT */
    case 12: wword(dyn, b64, 25); break;                        /* -> INIT_ARRAY */
    case 13: wword(dyn, b64, 32); break;                        /* -> PREINIT_ARRAY */
    case 14: wword(dyn, b64, 26); break;                        /* -> FINI_ARRAY */
    case 15: wword(dyn, b64, 13); break;                        /* -> FINI */
    case 16: wword(dyn, b64, 0x6ffffefcu); break;               /* -> AUDIT */
    case 17: wword(dyn, b64, 0x7fffffffu); break;               /* -> FILTER */
    case 18: wword(dyn, b64, 0x7ffffffdu); break;               /* -> AUXILIARY */
    case 19: wword(dyn, b64, 0x6000000fu); break;               /* -> ANDROID_REL */
    case 20: wword(dyn, b64, 8); break;                         /* -> RELASZ (SONAME's index) */
    case 21: wword(dyn, b64, 7); break;                         /* -> RELA, no RELASZ */
    case 22: wword(dyn, b64, 23); break;                        /* -> JMPREL, no PLTRELSZ */
    case 23: wword(dyn, b64, 30); wword(dyn + g.wa, b64, 4); break; /* -> FLAGS DF_TEXTREL */
    case 24: w32(f + g.shoff + 3 * g.shsz + 4, 4); break;       /* .hash -> SHT_RELA */
    case 25: w32(f + g.shoff + 3 * g.shsz + 4, 14); break;      /* .hash -> SHT_INIT_ARRAY */
    case 26: sym[b64 ? 4 : 12] = 0x1a; break;                   /* GLOBAL IFUNC */
    case 27: sym[b64 ? 4 : 12] = 0x16; break;                   /* GLOBAL TLS */
    case 28: w32(f + shdr_off(f, b64, 3) + 12, 2); break;       /* chain[0] = nchain */
    case 29: wword(phdr(f, b64, 1) + (b64 ? 16 : 8), b64, 16); break; /* LOAD vaddr - offset = 16 */
    case 30: { unsigned char *p = phdr(f, b64, 3); /* GNU_STACK -> a LOAD in LOAD's last 16 KiB page, */
               w32(p, 1);                          /* mapped from 16 KiB before in the file */
               if (b64) { w64(p + 8, load_end - 0x4000); w64(p + 16, load_end); w64(p + 32, 16); w64(p + 40, 16); }
               else { w32(p + 4, (uint32_t)load_end - 0x4000); w32(p + 8, (uint32_t)load_end);
                      w32(p + 16, 16); w32(p + 20, 16); }
             } break;
    case 31: w32(phdr(f, b64, 1) + (b64 ? 4 : 24), 0); break;   /* PT_LOAD without PF_R */
    case 32: wword(phdr(f, b64, 0) + (b64 ? 16 : 8), b64, 0x10000000u); break; /* PHDR unmapped */
    default: break;
    }
    memset(&v, 0, sizeof v);
    res = asmstore_elf_check_inert(f, n, &v);
    free(f);
    if (res != ASMSTORE_ERR_ELF_NOT_INERT || !v.message || !strstr(v.message, want)) {
        fprintf(stderr, "  abi %s mutation %d: %s (%s), wanted '%s'\n", asmstore_abi_name(abi), mutation,
                asmstore_result_string(res), v.message ? v.message : "", want);
        return 0;
    }
    return 1;
}

/* ---- .NET 12: dotnet/android main's AssemblyStoreElfWriter, byte for byte ---- */
/* The offsets AssemblyStoreElfWriter (dotnet/android 2132d36678, its tests 99caaf09fe) gives a
   5-byte payload and "libassembly-store.so", worked out by hand from its Layout: symbols at the
   word after 4 program headers, strings after 2 symbols, .hash (5 words) and .dynamic (7 pairs)
   each at the next word, the payload on the ABI's page, .shstrtab (50 bytes) right after it, the
   7 section headers at the next word. */
typedef struct net12_vector {
    asmstore_abi abi;
    uint16_t machine;
    uint32_t flags;
    uint64_t sym, str, hash, dyn, payload, shstr, shoff, total, page;
} net12_vector;
static const net12_vector net12_vectors[4] = {
    {ASMSTORE_ABI_ARM64, 183, 0, 288, 336, 376, 400, 16384, 16389, 16440, 16888, 16384},
    {ASMSTORE_ABI_ARM, 40, 0x05000200u, 180, 212, 252, 272, 4096, 4101, 4152, 4432, 4096},
    {ASMSTORE_ABI_X86_64, 62, 0, 288, 336, 376, 400, 16384, 16389, 16440, 16888, 16384},
    {ASMSTORE_ABI_X86, 3, 0, 180, 212, 252, 272, 4096, 4101, 4152, 4432, 4096}};

static uint64_t rw(const unsigned char *p, int w64) { return w64 ? r64(p) : r32(p); }

/* Bytes [from, to) of f are zero: the padding between the parts. */
static int zeros(const unsigned char *f, uint64_t from, uint64_t to) {
    for (; from < to; from++) if (f[from]) return 0;
    return 1;
}

/* Program header i: type, flags, offset (= vaddr = paddr), size (= memsz), align. */
static void check_phdr(const unsigned char *f, int w64, int i, uint32_t type, uint32_t flags, uint64_t off, uint64_t size, uint64_t align) {
    const unsigned char *q = f + (w64 ? 64 + 56 * i : 52 + 32 * i);
    uint64_t w = w64 ? 8 : 4, at = w64 ? 8 : 4;
    CHECK_EQ_INT(r32(q), type);
    CHECK_EQ_INT(r32(q + (w64 ? 4 : 24)), flags);
    CHECK_EQ_INT(rw(q + at, w64), off);
    CHECK_EQ_INT(rw(q + at + w, w64), off);
    CHECK_EQ_INT(rw(q + at + 2 * w, w64), off);
    CHECK_EQ_INT(rw(q + at + 3 * w, w64), size);
    CHECK_EQ_INT(rw(q + at + 4 * w, w64), size);
    CHECK_EQ_INT(rw(q + (w64 ? 48 : 28), w64), align);
}

/* Section header i: name, type, flags, addr, offset, size, link, info, addralign, entsize. */
static void check_shdr(const unsigned char *f, const net12_vector *v, int w64, int i, const uint64_t want[10]) {
    const unsigned char *q = f + v->shoff + (uint64_t)i * (w64 ? 64u : 40u);
    uint64_t w = w64 ? 8 : 4;
    CHECK_EQ_INT(r32(q), want[0]);
    CHECK_EQ_INT(r32(q + 4), want[1]);
    CHECK_EQ_INT(rw(q + 8, w64), want[2]);
    CHECK_EQ_INT(rw(q + 8 + w, w64), want[3]);
    CHECK_EQ_INT(rw(q + 8 + 2 * w, w64), want[4]);
    CHECK_EQ_INT(rw(q + 8 + 3 * w, w64), want[5]);
    CHECK_EQ_INT(r32(q + 8 + 4 * w), want[6]);
    CHECK_EQ_INT(r32(q + 12 + 4 * w), want[7]);
    CHECK_EQ_INT(rw(q + 16 + 4 * w, w64), want[8]);
    CHECK_EQ_INT(rw(q + 16 + 5 * w, w64), want[9]);
}

static void check_net12_file(const unsigned char *f, size_t n, const net12_vector *v) {
    static const char dynstr[] = "\0_assembly_store\0libassembly-store.so";       /* 38 with its NUL */
    static const char shstr[] = "\0.dynsym\0.dynstr\0.hash\0.dynamic\0payload\0.shstrtab"; /* 50 */
    static const unsigned char ident[16] = {0x7f, 'E', 'L', 'F', 0, 1, 1};
    const int w64 = is64(v->abi);
    const uint64_t wa = w64 ? 8 : 4, symsz = w64 ? 24 : 16, dynsz = 7 * 2 * wa;
    const uint64_t tags[7][2] = {{14, 17}, {6, v->sym}, {11, symsz}, {5, v->str}, {10, 38}, {4, v->hash}, {0, 0}};
    unsigned char id[16];
    const unsigned char *q;
    int i;
    CHECK_EQ_INT(n, v->total);
    if (n != v->total) return;
    memcpy(id, ident, 16); id[4] = (unsigned char)(w64 ? 2 : 1);
    CHECK(!memcmp(f, id, 16));
    CHECK_EQ_INT(r32(f + 16) & 0xFFFF, 3);               /* ET_DYN */
    CHECK_EQ_INT(r32(f + 16) >> 16, v->machine);
    CHECK_EQ_INT(r32(f + 20), 1);                        /* EV_CURRENT */
    CHECK_EQ_INT(rw(f + 24, w64), 0);                    /* no entry point */
    CHECK_EQ_INT(rw(f + 24 + wa, w64), w64 ? 64 : 52);   /* e_phoff */
    CHECK_EQ_INT(rw(f + 24 + 2 * wa, w64), v->shoff);
    q = f + 24 + 3 * wa;                                 /* e_flags, then the six sizes and counts */
    CHECK_EQ_INT(r32(q), v->flags);
    CHECK_EQ_INT(r32(q + 4), (w64 ? 64u : 52u) | (w64 ? 56u : 32u) << 16);
    CHECK_EQ_INT(r32(q + 8), 4u | (w64 ? 64u : 40u) << 16);
    CHECK_EQ_INT(r32(q + 12), 7u | 6u << 16);            /* 7 sections, .shstrtab the last */
    check_phdr(f, w64, 0, 6, 4, w64 ? 64 : 52, 4 * (w64 ? 56 : 32), wa);     /* PT_PHDR */
    check_phdr(f, w64, 1, 1, 4, 0, v->payload + 5, v->page);                 /* PT_LOAD */
    check_phdr(f, w64, 2, 2, 4, v->dyn, dynsz, wa);                          /* PT_DYNAMIC */
    check_phdr(f, w64, 3, 0x6474e551u, 6, 0, 0, wa);                         /* PT_GNU_STACK */
    CHECK(zeros(f, w64 ? 64u + 4u * 56u : 52u + 4u * 32u, v->sym + symsz));  /* and symbol 0 */
    q = f + v->sym + symsz;                                                  /* _assembly_store */
    CHECK_EQ_INT(r32(q), 1);
    CHECK_EQ_INT(w64 ? q[4] : q[12], 0x11);
    CHECK_EQ_INT(w64 ? q[5] : q[13], 0);
    CHECK_EQ_INT(w64 ? (q[6] | q[7] << 8) : (q[14] | q[15] << 8), 5);
    CHECK_EQ_INT(rw(q + (w64 ? 8 : 4), w64), v->payload);
    CHECK_EQ_INT(rw(q + (w64 ? 16 : 8), w64), 5);
    CHECK(!memcmp(f + v->str, dynstr, 38));
    CHECK(zeros(f, v->str + 38, v->hash));
    for (i = 0; i < 5; i++) CHECK_EQ_INT(r32(f + v->hash + 4 * i), i < 3 ? (i == 1 ? 2u : 1u) : 0u);
    CHECK(zeros(f, v->hash + 20, v->dyn));
    for (i = 0; i < 7; i++) {
        CHECK_EQ_INT(rw(f + v->dyn + 2 * wa * (uint64_t)i, w64), tags[i][0]);
        CHECK_EQ_INT(rw(f + v->dyn + 2 * wa * (uint64_t)i + wa, w64), tags[i][1]);
    }
    CHECK(zeros(f, v->dyn + dynsz, v->payload));
    CHECK(!memcmp(f + v->payload, "\1\2\3\4\5", 5));
    CHECK(!memcmp(f + v->shstr, shstr, 50));
    CHECK(zeros(f, v->shstr + 50, v->shoff));
    {
        const uint64_t sh[7][10] = {
            {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
            {1, 11, 2, v->sym, v->sym, 2 * symsz, 2, 1, wa, symsz},
            {9, 3, 2, v->str, v->str, 38, 0, 0, 1, 0},
            {17, 5, 2, v->hash, v->hash, 20, 1, 0, 4, 4},
            {23, 6, 2, v->dyn, v->dyn, dynsz, 2, 0, wa, 2 * wa},
            {32, 1, 2, v->payload, v->payload, 5, 0, 0, v->page, 0},
            {40, 3, 0, 0, v->shstr, 50, 0, 0, 1, 0}};
        for (i = 0; i < 7; i++) check_shdr(f, v, w64, i, sh[i]);
    }
}

/* pack --target net12's wrapper: every field of the hand-derived vector, the payload found again,
   the bionic rules passed (4 KiB pages on 32-bit ABIs) and the file recognised as that layout. */
static void test_net12_layout(void) {
    int i;
    for (i = 0; i < 4; i++) {
        const net12_vector *v = &net12_vectors[i];
        asmstore_elf_options o;
        asmstore_elf_info info;
        const void *pl;
        size_t n = 0, pls = 0;
        void *f = NULL;
        asmstore_error err;
        memset(&o, 0, sizeof o);
        o.abi = v->abi;
        o.style = ASMSTORE_ELF_STYLE_NET12;
        CHECK_EQ_INT(asmstore_elf_wrap(&o, "\1\2\3\4\5", 5, &f, &n, NULL), ASMSTORE_OK);
        if (!f) continue;
        check_net12_file((const unsigned char *)f, n, v);
        CHECK_EQ_INT(asmstore_elf_payload(f, n, NULL, &pl, &pls, &info, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(info.kind, ASMSTORE_ELF_SYMBOL);
        CHECK_EQ_INT(pls, 5);
        CHECK_EQ_INT(asmstore_elf_check_bionic(f, n, v->abi, NULL, NULL, &err), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_elf_check_inert(f, n, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_elf_is_style(f, n, ASMSTORE_ELF_STYLE_NET12), 1);
        CHECK_EQ_INT(asmstore_elf_is_style(f, n, ASMSTORE_ELF_STYLE_ASMSTORE), 0);
        ((unsigned char *)f)[n - 1] ^= 1; /* one byte off is not the layout */
        CHECK_EQ_INT(asmstore_elf_is_style(f, n, ASMSTORE_ELF_STYLE_NET12), 0);
        asmstore_free(NULL, f, n);
        o.style = ASMSTORE_ELF_STYLE_ASMSTORE; /* asmstore's own is not taken for it */
        CHECK_EQ_INT(asmstore_elf_wrap(&o, "\1\2\3\4\5", 5, &f, &n, NULL), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_elf_is_style(f, n, ASMSTORE_ELF_STYLE_NET12), 0);
        CHECK_EQ_INT(asmstore_elf_is_style(f, n, ASMSTORE_ELF_STYLE_ASMSTORE), 1);
        asmstore_free(NULL, f, n);
    }
}

/* Every generated kind on every ABI, and a template over a stub, pass; each thing that would run
   code or load another file is refused, naming it. */
static void test_inert(void) {
    static const char *const want[33] = {
        "ET_DYN", "executable segment", "PT_INTERP", "PT_TLS", "no PT_GNU_STACK", "executable segment",
        "not exactly one PT_DYNAMIC", "program header type", "PT_DYNAMIC not mapped", "no DT_NULL",
        "DT_NEEDED", "DT_INIT:", "DT_INIT_ARRAY", "DT_PREINIT_ARRAY", "DT_FINI_ARRAY", "DT_FINI:", "DT_AUDIT",
        "DT_FILTER", "DT_AUXILIARY", "dynamic tag", "DT_RELASZ", "without its size", "without its size",
        "DF_TEXTREL", "relocation section", "init or fini array", "IFUNC", "TLS", "past its nchain",
        "4 KiB", "share a page", "without PF_R", "PT_PHDR does not map"};
    int i, m;
    for (i = 0; i < 4; i++) {
        const void *store; size_t store_size, n, sn, tn;
        asmstore_writer *w = make_store(all_abis[i], &store, &store_size);
        unsigned char *f = w ? wrap(all_abis[i], ASMSTORE_ELF_MODE_DLOPEN, store, store_size, &n) : NULL;
        unsigned char *s = w ? wrap(all_abis[i], ASMSTORE_ELF_MODE_SECTION, store, store_size, &sn) : NULL;
        unsigned char *stub = wrap(all_abis[i], ASMSTORE_ELF_MODE_DLOPEN, "stub", 4, &tn);
        asmstore_elf_options o;
        void *t = NULL;
        asmstore_error v;
        CHECK(w && f && s && stub);
        if (!w || !f || !s || !stub) return;
        memset(&o, 0, sizeof o);
        o.mode = ASMSTORE_ELF_MODE_TEMPLATE; o.stub = stub; o.stub_size = tn;
        CHECK_EQ_INT(asmstore_elf_wrap(&o, store, store_size, &t, &tn, NULL), ASMSTORE_OK);
        memset(&v, 0, sizeof v); /* a passing file leaves it as it was */
        CHECK_EQ_INT(asmstore_elf_check_inert(f, n, &v), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_elf_check_inert(s, sn, &v), ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_elf_check_inert(t, tn, &v), ASMSTORE_OK);
        CHECK(v.message == NULL);
        for (m = 0; m <= 32; m++) CHECK(expect_not_inert(f, n, all_abis[i], m, want[m]));
        /* not ELF, cut short, NULL */
        CHECK_EQ_INT(asmstore_elf_check_inert(store, store_size, NULL), ASMSTORE_ERR_BAD_ELF);
        CHECK(asmstore_elf_check_inert(f, 200, NULL) != ASMSTORE_OK);
        CHECK_EQ_INT(asmstore_elf_check_inert(NULL, 5, NULL), ASMSTORE_ERR_INVALID_ARG);
        free(f); free(s); free(stub); free(t);
        asmstore_writer_free(w);
    }
}

int main(void) {
    RUN(test_wrap_every_abi_and_mode);
    RUN(test_options);
    RUN(test_bionic_rules_each);
    RUN(test_bionic_loader_faults);
    RUN(test_template);
    RUN(test_template_replaces_payload);
    RUN(test_inert);
    RUN(test_net12_layout);
    return TEST_DONE();
}
