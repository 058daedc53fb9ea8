/* static_a.c + static_b.c: two translation units, each with its own static copy (ASMSTORE_STATIC),
   linked into one program: no symbol clash, and each copy works. */
#define ASMSTORE_STATIC
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"
unsigned a_crc(void);
unsigned a_crc(void) { return asmstore_crc32("123456789", 9); }
