/* impl.c - the one translation unit with the implementation (flags decide the trimming). */
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"
