/* tests/fixture.h - the six-entry fixture store the reader and writer tests build (test_reader.c,
   test_writer.c): names with and without an extension and a culture prefix, pdb and config
   blobs, one entry stored uncompressed; build_store writes it for any format x ABI x runtime.
   Include after asmstore.h and test.h. */
#ifndef ASMSTORE_TEST_FIXTURE_H
#define ASMSTORE_TEST_FIXTURE_H

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
