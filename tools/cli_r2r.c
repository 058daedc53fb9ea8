/* cli_r2r.c - the one thing the CLI reads from a PE image's ReadyToRun header: which composite
   image a component stub's native code lives in (dotnet/runtime
   docs/design/coreclr/botr/readytorun-format.md, src/coreclr/inc/readytorun.h). Any bytes are safe
   input: every read is checked against the size. */
#include "cli.h"
#include "cli_r2r.h"

#include <string.h>

#define PE_DIR_CLI_HEADER           14u /* IMAGE_DIRECTORY_ENTRY_COM_DESCRIPTOR */
#define PE_SECTION_SIZE             40u
#define CLI_HEADER_SIZE             72u         /* IMAGE_COR20_HEADER */
#define CLI_MANAGED_NATIVE_HEADER   64u         /* its ManagedNativeHeader directory */
#define R2R_SIGNATURE               0x00525452u /* "RTR" */
#define R2R_HEADER_SIZE             16u         /* Signature, versions, Flags, NumberOfSections */
#define R2R_SECTION_SIZE            12u         /* Type, RVA, Size */
#define R2R_FLAG_COMPONENT          0x20u
#define R2R_SECTION_OWNER_COMPOSITE 116u
#define R2R_MAX_NAME                1024u /* a file name; anything longer is not one */

/* The file's bytes and its section table, once the PE headers checked out. */
typedef struct pe_file {
    const unsigned char *p;
    size_t n;
    const unsigned char *sections;
    uint32_t nsections;
} pe_file;

/* n bytes at off, or NULL when they are not all inside the file. */
static const unsigned char *pe_bytes(const pe_file *f, uint64_t off, uint64_t n) {
    if (off > f->n || n > f->n - off)
        return NULL;
    return f->p + off;
}

/* The n bytes at rva, through the section holding them; NULL when no section's file bytes hold them
   all. */
static const unsigned char *pe_at_rva(const pe_file *f, uint32_t rva, uint64_t n) {
    uint32_t k;
    for (k = 0; k < f->nsections; k++) {
        const unsigned char *s = f->sections + (size_t)k * PE_SECTION_SIZE;
        uint32_t va = asmstore__rd32(s + 12), raw_size = asmstore__rd32(s + 16),
                 raw_ptr = asmstore__rd32(s + 20);

        if (rva < va || rva - va >= raw_size)
            continue;
        if (n > raw_size - (rva - va))
            return NULL;
        return pe_bytes(f, (uint64_t)raw_ptr + (rva - va), n);
    }
    return NULL;
}

/* The CLI header directory's RVA from the DOS, COFF and optional headers; sets f's section table.
   0: not a PE image. */
static uint32_t pe_cli_header_rva(pe_file *f) {
    const unsigned char *dos = pe_bytes(f, 0, 64), *coff, *opt;
    uint32_t pe_off;
    uint16_t opt_size, magic;
    size_t dirs, count_at;

    if (!dos || dos[0] != 'M' || dos[1] != 'Z')
        return 0;
    pe_off = asmstore__rd32(dos + 0x3c);
    coff = pe_bytes(f, pe_off, 24);
    if (!coff || memcmp(coff, "PE\0\0", 4) != 0)
        return 0;
    coff += 4;
    opt_size = asmstore__rd16(coff + 16);
    if (!(opt = pe_bytes(f, (uint64_t)pe_off + 24, opt_size)) || opt_size < 2)
        return 0;
    magic = asmstore__rd16(opt);
    if (magic != 0x10b && magic != 0x20b)
        return 0;
    count_at =
        magic == 0x10b ? 92u : 108u; /* PE32 / PE32+: NumberOfRvaAndSizes, the directories follow */
    dirs = count_at + 4;
    if (opt_size < dirs + 8u * (PE_DIR_CLI_HEADER + 1) ||
        asmstore__rd32(opt + count_at) <= PE_DIR_CLI_HEADER)
        return 0;
    f->nsections = asmstore__rd16(coff + 2);
    f->sections =
        pe_bytes(f, (uint64_t)pe_off + 24 + opt_size, (uint64_t)f->nsections * PE_SECTION_SIZE);
    if (!f->sections)
        return 0;
    return asmstore__rd32(opt + dirs + 8u * PE_DIR_CLI_HEADER);
}

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
    pe_file f;
    const unsigned char *cli, *r2r, *sec;
    uint32_t rva, nsections, k;

    memset(&f, 0, sizeof f);
    f.p = (const unsigned char *)image;
    f.n = image ? size : 0;
    if (!(rva = pe_cli_header_rva(&f)) || !(cli = pe_at_rva(&f, rva, CLI_HEADER_SIZE)))
        return 0;
    rva = asmstore__rd32(cli + CLI_MANAGED_NATIVE_HEADER);
    if (!(r2r = pe_at_rva(&f, rva, R2R_HEADER_SIZE)) || asmstore__rd32(r2r) != R2R_SIGNATURE)
        return 0;
    if (!(asmstore__rd32(r2r + 8) & R2R_FLAG_COMPONENT))
        return 0;
    nsections = asmstore__rd32(r2r + 12);
    if (!(r2r = pe_at_rva(&f, rva, R2R_HEADER_SIZE + (uint64_t)nsections * R2R_SECTION_SIZE)))
        return 0;
    for (k = 0; k < nsections; k++) {
        const unsigned char *s = r2r + R2R_HEADER_SIZE + (size_t)k * R2R_SECTION_SIZE;
        uint32_t sec_size = asmstore__rd32(s + 8);

        if (asmstore__rd32(s) != R2R_SECTION_OWNER_COMPOSITE)
            continue;
        if (sec_size > R2R_MAX_NAME || !(sec = pe_at_rva(&f, asmstore__rd32(s + 4), sec_size)))
            return 0;
        return sec_size && r2r_name(sec, sec_size, name, name_len);
    }
    return 0;
}
