/* tests/fixture.h - the six-entry fixture store the reader and writer tests build (test_reader.c,
   test_writer.c): names with and without an extension and a culture prefix, pdb and config
   blobs, one entry stored uncompressed; build_store writes it for any format x ABI x runtime.
   Include after asmstore.h and test.h. */
#ifndef ASMSTORE_TEST_FIXTURE_H
#define ASMSTORE_TEST_FIXTURE_H

/* The smallest assembly make_pe writes: headers, one section holding the CLI header and a
   metadata root. */
#define PE_MIN_SIZE 0x268u
#define PE_SECTION_RAW 0x200u /* where the section's bytes start (RVA 0x2000) */

/* A real minimal assembly of n bytes (at least PE_MIN_SIZE): a PE32 DLL whose one section holds
   the CLI header and a metadata root "BSJB", then make_bytes(seed) filler to n. asmstore_pe_parse
   accepts it; tests break one field to see each refusal. Offsets in the comments are the file's. */
static inline unsigned char *make_pe(size_t n, unsigned seed) {
    unsigned char *p, *fill;

    if (n < PE_MIN_SIZE) n = PE_MIN_SIZE;
    p = (unsigned char *)calloc(n, 1);
    fill = make_bytes(n, seed);
    memcpy(p + 0x268, fill + 0x268, n - 0x268);
    free(fill);
    p[0] = 'M'; p[1] = 'Z';
    w32(p + 0x3c, 0x40);                    /* e_lfanew */
    memcpy(p + 0x40, "PE\0\0", 4);
    w16(p + 0x44, 0x14c);                   /* Machine: i386, as AnyCPU assemblies are */
    w16(p + 0x46, 1);                       /* NumberOfSections */
    w16(p + 0x54, 0xE0);                    /* SizeOfOptionalHeader: PE32 */
    w16(p + 0x56, 0x2102);                  /* a DLL */
    w16(p + 0x58, 0x10b);                   /* optional header magic: PE32 */
    w32(p + 0x58 + 92, 16);                 /* NumberOfRvaAndSizes */
    w32(p + 0x58 + 96 + 8 * 14, 0x2000);    /* data directory 14: the CLI header */
    w32(p + 0x58 + 96 + 8 * 14 + 4, 72);
    memcpy(p + 0x138, ".text\0\0\0", 8);    /* the section table */
    w32(p + 0x138 + 8, (uint32_t)(n - PE_SECTION_RAW));  /* VirtualSize */
    w32(p + 0x138 + 12, 0x2000);                         /* VirtualAddress */
    w32(p + 0x138 + 16, (uint32_t)(n - PE_SECTION_RAW)); /* SizeOfRawData */
    w32(p + 0x138 + 20, PE_SECTION_RAW);                 /* PointerToRawData */
    w32(p + 0x200, 72);                     /* CLI header: cb, runtime 2.5, metadata, flags */
    w16(p + 0x204, 2); w16(p + 0x206, 5);
    w32(p + 0x208, 0x2048);
    w32(p + 0x20c, 32);
    w32(p + 0x210, 1);
    memcpy(p + 0x248, "BSJB", 4);           /* metadata root: 1.1, version string, no streams */
    w16(p + 0x24c, 1); w16(p + 0x24e, 1);
    w32(p + 0x254, 12);
    memcpy(p + 0x258, "v4.0.30319\0\0", 12);
    return p;
}

/* A minimal Portable PDB of n bytes (at least 32): a metadata root "BSJB" at offset 0, filler. */
static inline unsigned char *make_pdb(size_t n, unsigned seed) {
    unsigned char *p = make_bytes(n < 32 ? 32 : n, seed);

    memcpy(p, "BSJB\1\0\1\0\0\0\0\0\x0c\0\0\0PDB v1.0\0\0\0\0\0\0\0\0", 32);
    return p;
}

typedef struct fixture_entry {
    const char *name;
    size_t size;
    int pdb, config, uncompressed;
} fixture_entry;

static const fixture_entry fixture[] = {
    {"System.Runtime.dll", 20000, 0, 0, 0},
    {"Mono.Android.dll", 70000, 1, 1, 0},
    {"fr/App.resources.dll", 3000, 0, 0, 0},
    {"App.dll", 5000, 1, 0, 1},
    {"NoExtension", 100, 0, 1, 0},
    {"de/App.resources.dll", 2500, 0, 0, 0},
};
#define NFIX (sizeof fixture / sizeof fixture[0])

typedef struct built { void *data; size_t size; } built;

static built build_store(uint32_t format, asmstore_abi abi, asmstore_runtime rt, int jobs,
                         int level) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    built b = {NULL, 0};
    const void *d;
    size_t n, i;
    memset(&o, 0, sizeof o);
    o.format = format; o.abi = abi; o.runtime = rt; o.jobs = jobs; o.level = level;
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return b;
    for (i = 0; i < NFIX; i++) {
        const fixture_entry *f = &fixture[i];
        unsigned char *img = make_bytes(f->size, (unsigned)i);
        unsigned char *pdb = make_bytes(321, (unsigned)i + 100);
        unsigned char *cfg = make_bytes(77, (unsigned)i + 200);
        asmstore_add e = {0};
        asmstore_result r;
        e.name = f->name;
        e.image = img;
        e.image_size = f->size;
        e.pdb = f->pdb ? pdb : NULL;
        e.pdb_size = f->pdb ? 321 : 0;
        e.config = f->config ? cfg : NULL;
        e.config_size = f->config ? 77 : 0;
        e.flags = f->uncompressed ? ASMSTORE_ADD_UNCOMPRESSED : 0;
        r = asmstore_writer_add(w, &e, NULL);
        free(img); free(pdb); free(cfg);
        if (r != ASMSTORE_OK) { asmstore_writer_free(w); return b; }
    }
    if (asmstore_writer_finish(w, &d, &n, NULL) == ASMSTORE_OK) {
        b.data = malloc(n);
        memcpy(b.data, d, n);
        b.size = n;
    }
    asmstore_writer_free(w);
    return b;
}

#endif
