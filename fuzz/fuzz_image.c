/* fuzz_image.c - the image check (asmstore.h >>image) over arbitrary bytes: the first byte picks
   what the rest claims to be (0 assembly, 1 pdb, 2 config, by value mod 3). Never a read outside
   the input; an accepted assembly's parts (section table, CLI header, metadata) lie inside it and
   its RVA lookups answer inside it too, and so do its identity's strings and blobs
   (asmstore_pe_identity); asmstore_image_check_entry passes a placeholder and checks the image
   first.
   Seeds: build/fuzz/seeds/image (tests/lib/fuzz_corpus.sh: real small assemblies, a Portable and a
   Windows PDB, configs, and truncations of each). */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_BUILD
#include "../asmstore.h"
#include <stdlib.h>
#include <string.h>

/* p[0..n) lies inside data[0..size). */
static int inside(const uint8_t *data, size_t size, const unsigned char *p, uint64_t n) {
    return p >= data && (size_t)(p - data) <= size && n <= size - (size_t)(p - data);
}

/* asmstore_pe_identity: a result it names, and every string and blob it gives inside the input. */
static void check_identity(const uint8_t *data, size_t size, const asmstore_pe *pe) {
    asmstore_identity id;
    asmstore_error err;
    asmstore_result r = asmstore_pe_identity(pe, &id, &err);

    if (r != ASMSTORE_OK) {
        if (r != ASMSTORE_ERR_BAD_IMAGE || !err.message || err.offset > size) abort();
        return;
    }
    if (id.has_assembly && (!inside(data, size, (const unsigned char *)id.name, id.name_len) ||
                            !inside(data, size, (const unsigned char *)id.culture, id.culture_len) ||
                            !inside(data, size, id.public_key, id.public_key_size)))
        abort();
    if (id.has_codeview && !inside(data, size, (const unsigned char *)id.pdb_path, id.pdb_path_len))
        abort();
    if (id.pdb_checksum_algorithm &&
        (!inside(data, size, (const unsigned char *)id.pdb_checksum_algorithm,
                 id.pdb_checksum_algorithm_len) ||
         !inside(data, size, id.pdb_checksum, id.pdb_checksum_size)))
        abort();
}

static void check_assembly(const uint8_t *data, size_t size) {
    asmstore_pe pe;
    uint32_t k;

    if (asmstore_pe_parse(&pe, data, size, NULL) != ASMSTORE_OK) return;
    if (!inside(data, size, pe.sections, (uint64_t)pe.section_count * 40u)) abort();
    if (pe.cli_header_size < 72 || !inside(data, size, pe.cli_header, pe.cli_header_size)) abort();
    if (!pe.metadata_size || !inside(data, size, pe.metadata, pe.metadata_size)) abort();
    if (memcmp(pe.metadata, "BSJB", 4) != 0) abort();
    /* RVAs taken from the input itself, of lengths 1 and 4096 */
    for (k = 0; k + 4 <= size && k < 256; k += 4) {
        uint32_t rva = asmstore__rd32(data + k);
        const unsigned char *a = asmstore_pe_at_rva(&pe, rva, 1), *b = asmstore_pe_at_rva(&pe, rva, 4096);
        if ((a && !inside(data, size, a, 1)) || (b && !inside(data, size, b, 4096))) abort();
    }
    check_identity(data, size, &pe);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    asmstore_image_kind kind;
    asmstore_error err;
    asmstore_result one, all;
    asmstore_entry e;

    if (size < 1) return 0;
    kind = (asmstore_image_kind)(data[0] % 3);
    data++;
    size--;
    one = asmstore_image_check(kind, data, size, &err);
    if (one != ASMSTORE_OK && (one != ASMSTORE_ERR_BAD_IMAGE || !err.message || err.offset > size)) abort();
    if (kind == ASMSTORE_IMAGE_ASSEMBLY) check_assembly(data, size);
    /* the same bytes as an entry's pdb or config: a placeholder passes whatever it points at; else
       the missing image fails first, whatever the pdb or config */
    memset(&e, 0, sizeof e);
    e.index = 7;
    if (kind == ASMSTORE_IMAGE_ASSEMBLY) return 0;
    if (kind == ASMSTORE_IMAGE_PDB) {
        e.pdb = data;
        e.pdb_size = size;
    } else {
        e.config = size ? data : NULL;
        e.config_size = size;
    }
    e.ignored = 1;
    if (asmstore_image_check_entry(&e, NULL, 0, NULL, NULL) != ASMSTORE_OK) abort();
    e.ignored = 0;
    all = asmstore_image_check_entry(&e, NULL, 0, &kind, &err);
    if (all != ASMSTORE_ERR_BAD_IMAGE || err.entry != 7 || kind != ASMSTORE_IMAGE_ASSEMBLY) abort();
    return 0;
}
