/* impl.c - the one translation unit with both implementations (flags decide the trimming). */
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"
#ifndef ASMSTORE_NO_WRITER
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../../asmstore_cache.h"
#endif
