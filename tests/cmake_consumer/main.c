/* The one file with the implementations; the rest of the program includes the headers only. */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "asmstore.h"
#include "asmstore_cache.h"
#include <stdio.h>
#include <string.h>

/* lookup.cpp */
int consumer_lookup(const asmstore_reader *r, const char *name, size_t *size);

int main(int argc, char **argv) {
    static unsigned char img[100000];
    asmstore_write_options o;
    asmstore_add add;
    asmstore_writer *w;
    asmstore_reader r;
    asmstore_entry e;
    asmstore_cache *c;
    asmstore_cache_image ci;
    const void *store;
    size_t size, n = 0, i;
    int pass;
    if (argc != 2) return 2;
    for (i = 0; i < sizeof img; i++) img[i] = (unsigned char)(i * 7 % 13);
    memset(&o, 0, sizeof o);
    o.level = 9;
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK) return 1;
    memset(&add, 0, sizeof add);
    add.name = "Consumer.dll";
    add.image = img;
    add.image_size = sizeof img;
    if (asmstore_writer_add(w, &add, NULL) != ASMSTORE_OK) return 1;
    if (asmstore_writer_finish(w, &store, &size, NULL) != ASMSTORE_OK) return 1;
    if (asmstore_reader_init(&r, store, size, NULL, NULL) != ASMSTORE_OK) return 1;
    if (!consumer_lookup(&r, "Consumer", &n) || n != sizeof img) return 1;
    for (pass = 0; pass < 2; pass++) {
        if (asmstore_cache_open(&c, argv[1], &r, NULL, NULL) != ASMSTORE_OK) return 1;
        if (asmstore_reader_find(&r, "Consumer.dll", 12, &e, NULL) != ASMSTORE_OK || asmstore_cache_get(c, &e, &ci, NULL) != ASMSTORE_OK ||
            ci.size != sizeof img || memcmp(ci.data, img, sizeof img) != 0)
            return 1;
        printf("%s\n", ci.source == ASMSTORE_CACHE_HIT ? "hit" : ci.source == ASMSTORE_CACHE_MISS ? "miss" : "direct");
        asmstore_cache_release(&ci);
        asmstore_cache_flush(c);
        asmstore_cache_close(c);
    }
    printf("consumer ok: %zu-byte store, version %u\n", size, asmstore_version_number());
    asmstore_writer_free(w);
    return 0;
}
