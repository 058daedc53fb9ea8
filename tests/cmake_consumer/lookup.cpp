// C++ caller: the headers' declarations have C linkage, so this links against main.c's implementation.
#include "asmstore.h"
#include "asmstore_cache.h"

extern "C" int consumer_lookup(const asmstore_reader *r, const char *name, size_t *size);

extern "C" int consumer_lookup(const asmstore_reader *r, const char *name, size_t *size) {
    asmstore_entry e;
    size_t len = 0;
    while (name[len]) len++;
    if (asmstore_reader_find(r, name, len, &e, NULL) != ASMSTORE_OK) return 0;
    *size = e.uncompressed_size;
    return 1;
}
