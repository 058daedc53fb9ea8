/* fuzz_app.c - the app library reader (asmstore_app_open, _read_descriptor, _check_image) and its
   patches (asmstore_app_grow, _add_slots) over arbitrary bytes: what it reports lies inside the
   input, every descriptor of a table it accepts reads, and the runtime's checks answer with one of
   their codes. A .NET 10 table it reads is then
   the run time's (asmstore_app_load): a small store's compressed images loaded into it give one of
   the documented results, and an image only inside the buffer. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_LOCATOR
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>

#define FUZZ_APP_MAX_CHECKED 256u /* descriptors looked at per input: keeps each run short */
#define FUZZ_APP_LOAD_DESCRIPTORS 8u /* the .NET 10 table's descriptors asmstore_app_load sees */
#define FUZZ_APP_LOAD_BUFFER 65536u  /* its buffer: uncompressed_assemblies_data_size at most */

/* One descriptor: inside the input, and judged the runtime's way at three lengths. */
static void check_descriptor(const uint8_t *data, size_t size, const asmstore_app_info *info,
                             uint32_t i) {
    static const uint32_t lengths[3] = {0, 1, 0xFFFFFFFFu};
    asmstore_app_descriptor d;
    asmstore_error err;
    asmstore_result r = asmstore_app_read_descriptor(data, size, info, i, &d, &err);
    size_t k;

    if (r == ASMSTORE_ERR_BAD_ELF && info->table == ASMSTORE_APP_TABLE_POINTERS) return;
    if (r != ASMSTORE_OK) abort();
    if (d.offset > size || info->descriptor_size > size - d.offset) abort();
    if (d.reloc_offset > size) abort();
    for (k = 0; k < 3; k++) {
        r = asmstore_app_check_image(data, size, info, i, lengths[k], &err);
        if (r != ASMSTORE_OK && r != ASMSTORE_ERR_TOO_LARGE && r != ASMSTORE_ERR_CORRUPT &&
            r != ASMSTORE_ERR_BAD_ELF)
            abort();
        if (r == ASMSTORE_OK || r == ASMSTORE_ERR_BAD_ELF)
            continue;
        if (!err.message || err.entry != (int64_t)i)
            abort();
    }
}

/* A library asmstore_app_grow patched is input too: it reads again, and its grown descriptor takes
   the new size and no more. */
static void check_grow(const uint8_t *data, size_t size, const asmstore_app_info *info) {
    unsigned char *copy = (unsigned char *)malloc(size ? size : 1);
    asmstore_app_info grown = *info;
    asmstore_app_descriptor d;
    uint32_t want;

    if (!copy)
        return;
    memcpy(copy, data, size);
    if (asmstore_app_read_descriptor(copy, size, &grown, 0, &d, NULL) == ASMSTORE_OK &&
        d.uncompressed_file_size < 0xFFFF0000u) {
        want = d.uncompressed_file_size + 4096u;
        if (asmstore_app_grow(copy, size, &grown, 0, want, NULL) == ASMSTORE_OK) {
            asmstore_app_info again;

            if (asmstore_app_open(copy, size, &again, NULL) != ASMSTORE_OK) abort();
            if (asmstore_app_check_image(copy, size, &again, 0, want, NULL) != ASMSTORE_OK) abort();
            if (asmstore_app_check_image(copy, size, &again, 0, want + 1, NULL) !=
                ASMSTORE_ERR_TOO_LARGE)
                abort();
        }
    }
    free(copy);
}

/* A library asmstore_app_add_slots patched (taken as CoreCLR's) reads again with the slots asked. */
static void check_add_slots(const uint8_t *data, size_t size, const asmstore_app_info *info) {
    unsigned char *copy;
    asmstore_app_info more = *info;
    uint32_t want = info->bundled_slots + 3u;

    if (info->bundled_slots > 0xFFFFu || !(copy = (unsigned char *)malloc(size ? size : 1)))
        return;
    memcpy(copy, data, size);
    more.runtime_known = 1;
    more.runtime = ASMSTORE_RUNTIME_CORECLR;
    if (asmstore_app_add_slots(copy, size, &more, want, NULL) == ASMSTORE_OK) {
        asmstore_app_info again;

        if (asmstore_app_open(copy, size, &again, NULL) != ASMSTORE_OK) abort();
        if (again.bundled_slots != want) abort();
    }
    free(copy);
}

/* A store of four zstd images (descriptor indices 0-3, 1,000 to 4,000 bytes), written once. */
static const asmstore_reader *load_store(void) {
    static asmstore_reader r;
    static int made;
    static unsigned char image[4000];
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    const void *store;
    size_t n, i;
    static const char *const names[4] = {"A.dll", "B.dll", "C.dll", "D.dll"};

    if (made) return made > 0 ? &r : NULL;
    made = -1;
    memset(&o, 0, sizeof o);
    o.format = 4;
    o.runtime = ASMSTORE_RUNTIME_MONOVM;
    o.abi = ASMSTORE_ABI_X86_64;
    o.jobs = 1;
    image[0] = 'M';
    image[1] = 'Z';
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return NULL;
    for (i = 0; i < 4; i++) {
        asmstore_add a;
        memset(&a, 0, sizeof a);
        a.name = names[i];
        a.image = image;
        a.image_size = 1000 * (i + 1);
        if (asmstore_writer_add(w, &a, NULL) != ASMSTORE_OK) return NULL;
    }
    if (asmstore_writer_finish(w, &store, &n, NULL) == ASMSTORE_OK) {
        unsigned char *copy = (unsigned char *)malloc(n);
        if (copy) memcpy(copy, store, n);
        if (copy && asmstore_reader_init(&r, copy, n, NULL, NULL) == ASMSTORE_OK) made = 1;
    }
    asmstore_writer_free(w); /* the copy lives as long as the process */
    return made > 0 ? &r : NULL;
}

/* The .NET 10 table read from the input, as the loader would hand it over (count, data size and
   the first descriptors' fields from their file bytes; the buffer zero-filled), loaded into. */
static void check_app_load(const uint8_t *data, size_t size, const asmstore_app_info *info) {
    const asmstore_reader *r = load_store();
    asmstore_app_buffer_descriptor d[FUZZ_APP_LOAD_DESCRIPTORS];
    uint32_t count, data_size, i;
    asmstore_app_tables t;
    unsigned char *buffer;

    if (!r || info->table != ASMSTORE_APP_TABLE_BUFFER ||
        !(buffer = (unsigned char *)calloc(1, FUZZ_APP_LOAD_BUFFER)))
        return;
    count = info->count < FUZZ_APP_LOAD_DESCRIPTORS ? info->count : FUZZ_APP_LOAD_DESCRIPTORS;
    data_size = info->data_size < FUZZ_APP_LOAD_BUFFER ? info->data_size : FUZZ_APP_LOAD_BUFFER;
    for (i = 0; i < count; i++) {
        const uint8_t *p = data + info->descriptors_offset + (size_t)i * 12u;
        d[i].uncompressed_file_size = asmstore__rd32(p);
        d[i].loaded = p[4] & 1u; /* as built: 0 or 1 (2 is only ever asmstore_app_load's) */
        d[i].buffer_offset = asmstore__rd32(p + 8);
    }
    (void)size; /* asmstore_app_open put the descriptors inside it */
    t.count = &count;
    t.descriptors = d;
    t.data_size = &data_size;
    t.data = buffer;
    t.pointers = NULL;
    for (i = 0; i < r->entry_count; i++) {
        asmstore_entry e;
        const unsigned char *image = NULL;
        size_t n = 0;
        asmstore_result res;
        if (asmstore_reader_entry(r, i, &e, NULL) != ASMSTORE_OK) abort();
        res = asmstore_app_load(&t, r, &e, NULL, &image, &n, NULL);
        if (res != ASMSTORE_OK && res != ASMSTORE_ERR_BAD_INDEX && res != ASMSTORE_ERR_CORRUPT &&
            res != ASMSTORE_ERR_TOO_LARGE)
            abort();
        if (res == ASMSTORE_OK && (image < buffer || n > data_size ||
                                   (size_t)(image - buffer) > data_size - n))
            abort();
    }
    free(buffer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    asmstore_app_info info;
    asmstore_error err;
    asmstore_result r = asmstore_app_open(data, size, &info, &err);
    uint32_t i;

    if (r != ASMSTORE_OK) {
        if (r != ASMSTORE_ERR_BAD_ELF || !err.message) abort();
        return 0;
    }
    check_add_slots(data, size, &info);
    if (info.table == ASMSTORE_APP_TABLE_NONE) {
        if (info.count != 0) abort();
        if (asmstore_app_check_image(data, size, &info, 0, 1, NULL) != ASMSTORE_ERR_BAD_INDEX)
            abort();
        return 0;
    }
    if (info.count_offset > size - 4 || size < 4) abort();
    if (info.count &&
        (info.descriptors_offset > size ||
         (uint64_t)info.count * info.descriptor_size > size - info.descriptors_offset))
        abort();
    if (info.have_config && info.config_offset > size) abort();
    for (i = 0; i < info.count && i < FUZZ_APP_MAX_CHECKED; i++)
        check_descriptor(data, size, &info, i);
    if (asmstore_app_check_image(data, size, &info, info.count, 1, NULL) != ASMSTORE_ERR_BAD_INDEX)
        abort();
    if (info.count)
        check_grow(data, size, &info);
    check_app_load(data, size, &info);
    return 0;
}
