/* fuzz_app.c - the app library reader (asmstore_app_open, _read_descriptor, _check_image) and its
   patches (asmstore_app_grow, _add_slots) over arbitrary bytes: what it reports lies inside the input, every descriptor of a table it accepts
   reads, and the runtime's checks answer with one of their codes. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_LOCATOR
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>

#define FUZZ_APP_MAX_CHECKED 256u /* descriptors looked at per input: keeps each run short */

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
    return 0;
}
