/* use_all.c - calls into every public section so trimmed builds show what they drop. Compiled by
   t_build_flavours.sh as C99, C11 and (as use_all.cpp) C++11, with every warning as an error. */
#include "../../asmstore.h"
#include <stdio.h>

int use_all(const void *data, size_t size);
int use_all(const void *data, size_t size) {
    asmstore_reader r;
    asmstore_entry e;
    int n = 0;
    if (asmstore_reader_init(&r, data, size, NULL, NULL) == ASMSTORE_OK &&
        asmstore_reader_find(&r, "A", 1, &e, NULL) == ASMSTORE_OK) n++;
#ifndef ASMSTORE_NO_WRITER
    {
        asmstore_writer *w = NULL;
        if (asmstore_writer_create(&w, NULL, NULL) == ASMSTORE_OK) n++;
        asmstore_writer_free(w);
    }
#endif
    return n + (int)asmstore_crc32("x", 1) + (int)asmstore_version_number();
}
