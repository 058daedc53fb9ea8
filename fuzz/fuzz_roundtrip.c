/* fuzz_roundtrip.c - bytes -> a list of entries -> writer -> reader -> the same entries.
   Input: byte 0 picks format/ABI/runtime/compression; then records [u8 name_len][name][u16 size][data].
   Every entry the writer accepted must be found by its name and read back byte-exact. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_STDIO
#include "../asmstore.h"
#include <stdlib.h>

typedef struct item { const uint8_t *name; size_t name_len; const uint8_t *data; size_t size; } item;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    asmstore_write_options o;
    asmstore_writer *w = NULL;
    asmstore_reader r;
    item items[64];
    size_t n = 0, pos = 1, i;
    const void *out;
    size_t out_size;
    if (size < 1) return 0;
    memset(&o, 0, sizeof o);
    o.format = 2u + (data[0] % 3u);
    o.abi = (asmstore_abi)(1 + ((data[0] >> 2) & 3));
    o.runtime = (data[0] & 0x10) ? ASMSTORE_RUNTIME_CORECLR : ASMSTORE_RUNTIME_MONOVM;
    o.no_compress = (data[0] & 0x20) != 0;
    /* releases' back-to-back layout, or images padded to 2..16384 bytes (zero-copy stores) */
    o.image_alignment = (data[0] & 0x80) ? (size_t)1 << (1 + size % 14) : 1;
    if (size & 4) o.hash = ASMSTORE_HASH_CRC32; /* .NET 11 GA: CRC-32 in any format, any ABI */
    o.no_companions = (size & 8) != 0;       /* .NET 11 GA CoreCLR: no ".ni.dll" twins */
    o.level = 1;
    o.jobs = 1 + ((data[0] >> 6) & 1);
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return 0; /* coreclr + format 2: refused */
    while (pos < size && n < 64) {
        item it;
        asmstore_add e;
        it.name_len = data[pos++];
        if (size - pos < it.name_len + 2) break;
        it.name = data + pos; pos += it.name_len;
        it.size = (size_t)(data[pos] | (data[pos + 1] << 8)); pos += 2;
        if (it.size > size - pos) it.size = size - pos;
        it.data = data + pos; pos += it.size;
        memset(&e, 0, sizeof e);
        e.name = it.name_len ? (const char *)it.name : ""; /* name_len 0 would mean strlen */
        e.name_len = it.name_len;
        e.image = it.data;
        e.image_size = it.size;
        e.flags = (it.size & 1) ? ASMSTORE_ADD_UNCOMPRESSED : 0;
        if (asmstore_writer_add(w, &e, NULL) == ASMSTORE_OK)
            items[n++] = it;
    }
    if (asmstore_writer_finish(w, &out, &out_size, NULL) != ASMSTORE_OK) abort();
    if (asmstore_reader_init(&r, out, out_size, NULL, NULL) != ASMSTORE_OK) abort();
    /* CoreCLR stores get one ignored twin per entry unless no_companions (.NET 11 GA) */
    if (o.runtime == ASMSTORE_RUNTIME_CORECLR && r.entry_count != (o.no_companions ? n : 2 * n)) abort();
    for (i = 0; i < n; i++) {
        asmstore_entry e;
        unsigned char *buf;
        asmstore_result res = asmstore_reader_find(&r, (const char *)items[i].name, items[i].name_len, &e, NULL);
        if (res != ASMSTORE_OK) {
            /* a coreclr "X.ni.dll" name can legitimately collide with another entry's companion: the
               writer refuses that, so every accepted name must be found */
            abort();
        }
        if (e.uncompressed_size != items[i].size) abort();
        if (e.image_size && (size_t)(e.image - (const unsigned char *)out) % o.image_alignment) abort();
        buf = (unsigned char *)malloc(items[i].size + 1);
        if (asmstore_reader_read(&r, &e, buf, items[i].size, NULL, NULL) != ASMSTORE_OK) abort();
        if (items[i].size && memcmp(buf, items[i].data, items[i].size) != 0) abort();
        free(buf);
    }
    asmstore_writer_free(w);
    return 0;
}
