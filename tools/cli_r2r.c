/* cli_r2r.c - the one thing the CLI reads from a PE image's ReadyToRun header: which composite
   image a component stub's native code lives in (dotnet/runtime
   docs/design/coreclr/botr/readytorun-format.md, src/coreclr/inc/readytorun.h). The PE file itself
   through asmstore.h's asmstore_pe_parse and asmstore_pe_at_rva. Any bytes are safe input: every
   read is checked against the size. */
#include "cli.h"
#include "cli_r2r.h"

#include <stdio.h>
#include <string.h>

#define CLI_MANAGED_NATIVE_HEADER   64u         /* the CLI header's ManagedNativeHeader directory */
#define R2R_SIGNATURE               0x00525452u /* "RTR" */
#define R2R_HEADER_SIZE             16u         /* Signature, versions, Flags, NumberOfSections */
#define R2R_SECTION_SIZE            12u         /* Type, RVA, Size */
#define R2R_FLAG_COMPONENT          0x20u
#define R2R_SECTION_OWNER_COMPOSITE 116u
#define R2R_MAX_NAME                1024u /* a file name; anything longer is not one */

/* A file name: not empty, no control bytes (it ends at its NUL, if any). */
static int r2r_name(const unsigned char *s, uint32_t size, const char **name, size_t *name_len) {
    const unsigned char *nul = (const unsigned char *)memchr(s, 0, size);
    size_t len = nul ? (size_t)(nul - s) : size, i;

    if (len == 0)
        return 0;
    for (i = 0; i < len; i++)
        if (s[i] < 0x20 || s[i] == 0x7f)
            return 0;
    *name = (const char *)s;
    *name_len = len;
    return 1;
}

int cli_r2r_composite_owner(const void *image, size_t size, const char **name, size_t *name_len) {
    asmstore_pe pe;
    const unsigned char *r2r, *sec;
    uint32_t rva, nsections, k;

    if (asmstore_pe_parse(&pe, image, image ? size : 0, NULL) != ASMSTORE_OK)
        return 0;
    rva = cli_rd32(pe.cli_header + CLI_MANAGED_NATIVE_HEADER);
    r2r = asmstore_pe_at_rva(&pe, rva, R2R_HEADER_SIZE);
    if (!r2r || cli_rd32(r2r) != R2R_SIGNATURE)
        return 0;
    if (!(cli_rd32(r2r + 8) & R2R_FLAG_COMPONENT))
        return 0;
    nsections = cli_rd32(r2r + 12);
    r2r = asmstore_pe_at_rva(&pe, rva, R2R_HEADER_SIZE + (uint64_t)nsections * R2R_SECTION_SIZE);
    if (!r2r)
        return 0;
    for (k = 0; k < nsections; k++) {
        const unsigned char *s = r2r + R2R_HEADER_SIZE + (size_t)k * R2R_SECTION_SIZE;
        uint32_t sec_size = cli_rd32(s + 8);

        if (cli_rd32(s) != R2R_SECTION_OWNER_COMPOSITE)
            continue;
        sec = asmstore_pe_at_rva(&pe, cli_rd32(s + 4), sec_size);
        if (sec_size > R2R_MAX_NAME || !sec)
            return 0;
        return sec_size && r2r_name(sec, sec_size, name, name_len);
    }
    return 0;
}

int cli_r2r_orphan(const void *image, size_t size,
                   int (*has)(const void *ctx, const char *name, size_t len), const void *ctx,
                   const char **name, size_t *name_len) {
    return cli_r2r_composite_owner(image, size, name, name_len) && !has(ctx, *name, *name_len);
}

void cli_r2r_orphan_message(char *buf, size_t cap, const char *what, const char *owner,
                            size_t len, const char *absent, const char *fix) {
    snprintf(buf, cap,
             "%s is a ReadyToRun component stub whose code is in the composite image %.*s, "
             "which %s (CoreCLR would abort without a message); %s",
             what, (int)len, owner, absent, fix);
}
