#define ASMSTORE_STATIC
#define ASMSTORE_IMPLEMENTATION
#include "../../asmstore.h"
#include <stdio.h>
unsigned a_crc(void);
int main(void) {
    int ok = a_crc() == 0xCBF43926u && asmstore_crc32("123456789", 9) == 0xCBF43926u;
    puts(ok ? "static copies agree" : "static copies disagree");
    return ok ? 0 : 1;
}
