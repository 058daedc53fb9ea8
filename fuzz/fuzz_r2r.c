/* fuzz_r2r.c - the CLI's ReadyToRun header reader (tools/cli_r2r.c) over arbitrary bytes: never a
   read outside the input, and a composite name only from inside it. Seeds: fuzz/corpus/r2r/ (a
   component stub, its composite, damaged stubs). */
#define ASMSTORE_IMPLEMENTATION /* asmstore_pe_parse, which cli_r2r.c reads the PE file with */
#include "../tools/cli_r2r.c"
#include <stdlib.h>

/* A store that holds nothing: every stub is an orphan. */
static int fuzz_has_none(const void *ctx, const char *name, size_t len) {
    (void)ctx;
    (void)name;
    (void)len;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *name = NULL;
    size_t len = 0;
    if (!cli_r2r_composite_owner(data, size, &name, &len)) {
        if (cli_r2r_orphan(data, size, fuzz_has_none, NULL, &name, &len)) abort(); /* pack's rule */
        return 0;
    }
    if (!cli_r2r_orphan(data, size, fuzz_has_none, NULL, &name, &len)) abort();
    if (!len || (const uint8_t *)name < data || len > size || (size_t)((const uint8_t *)name - data) > size - len) abort();
    if (memchr(name, 0, len)) abort(); /* a name ends at its NUL */
    return 0;
}
