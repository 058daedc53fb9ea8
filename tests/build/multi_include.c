/* the header included twice, declarations then implementation, then again: guards hold */
#include "../../asmstore.h"
#include "../../asmstore.h"
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"
#include "../../asmstore.h"
int main(void) { return asmstore_crc32("123456789", 9) == 0xCBF43926u ? 0 : 1; }
