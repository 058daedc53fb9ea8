/* asmstore_elf_part.h - ELF wrapper, payload finder, bionic-rules validator, ZIP scan and locators
   for asmstore.h. To be merged into asmstore.h: the first block goes after the "files" declarations,
   the second into the implementation. Until then include it right after asmstore.h:
       #define ASMSTORE_IMPLEMENTATION
       #include "asmstore.h"
       #include "asmstore_elf_part.h"
   Trimming: ASMSTORE_NO_ELF drops the generator and the validator (the payload finder and the ZIP
   scan are pure parsers and always present); ASMSTORE_NO_LOCATOR drops dlopen/dlsym;
   ASMSTORE_NO_STDIO drops the file/APK (mmap) locators and asmstore_elf_write_file.
   The dlopen locator bounds the payload with dl_iterate_phdr (and dladdr1 on glibc): on glibc
   compile the implementation with _GNU_SOURCE defined before any system header. */

/* ==== DECLARATIONS (elf, locator) ==== */
#ifndef ASMSTORE_ELF_PART_H_INCLUDED
#define ASMSTORE_ELF_PART_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

#define ASMSTORE_ELF_DEFAULT_SYMBOL    "_assembly_store"
#define ASMSTORE_ELF_DEFAULT_SONAME    "libassembly-store.so"
#define ASMSTORE_ELF_DEFAULT_ALIGNMENT 16384u
#define ASMSTORE_ELF_MAX_NAME          4096u  /* longest symbol name / soname accepted */
#define ASMSTORE_ZIP_MIN_ALIGNMENT     16u    /* MonoVM aborts below this (store-format.md §7.2) */

/* How the payload sits in (or was found in) an ELF file. */
typedef enum asmstore_elf_kind {
    ASMSTORE_ELF_NONE = 0,    /* not an ELF file: a raw store */
    ASMSTORE_ELF_SYMBOL = 1,  /* loadable payload named by a dynamic symbol ("elf-dlopen") */
    ASMSTORE_ELF_SECTION = 2  /* non-loadable section named "payload" ("elf-section") */
} asmstore_elf_kind;

/* "raw", "elf-dlopen", "elf-section". */
ASMSTORE_DEF const char *asmstore_elf_kind_name(asmstore_elf_kind kind);

/* What asmstore_elf_payload found. */
typedef struct asmstore_elf_info {
    asmstore_elf_kind kind;
    asmstore_abi abi;          /* from e_machine; UNKNOWN for other machines */
    int is_64bit;
    uint16_t machine;
    uint64_t payload_offset;   /* file offset of the payload */
    uint64_t payload_size;
    uint64_t symbol_size;      /* st_size of the symbol (0 for lld-made wrappers) */
    uint32_t section_index;    /* section holding the payload */
    int section_is_last;       /* that section is the last section header (what MonoVM assumes) */
} asmstore_elf_info;

/* Finds the payload in an ELF image held in memory: first the dynamic symbol `symbol` (NULL:
   "_assembly_store"; file offset = sh_offset + st_value - sh_addr of its section; st_size 0 means
   "the rest of the section"), then the section named "payload". 32- and 64-bit little-endian.
   Every offset, size and count is bounds- and overflow-checked; any bytes are safe to pass.
   *payload points into elf. info may be NULL. Returns ASMSTORE_ERR_BAD_ELF for a malformed file,
   ASMSTORE_ERR_NO_PAYLOAD when neither is present. */
ASMSTORE_DEF asmstore_result asmstore_elf_payload(const void *elf, size_t size, const char *symbol, const void **payload,
                                                  size_t *payload_size, asmstore_elf_info *info);

/* ---- ZIP / APK scan (pure, over memory) ---- */
typedef struct asmstore_zip_entry {
    uint64_t lfh_offset;        /* local file header */
    uint64_t data_offset;       /* first data byte: lfh + 30 + LOCAL name and extra lengths */
    uint64_t compressed_size;
    uint64_t uncompressed_size;
    uint32_t crc32;
    uint16_t method;            /* 0 = STORED */
    uint16_t flags;
    uint64_t alignment;         /* largest power of two dividing data_offset (capped at 1 MiB) */
    int zip64;                  /* the archive has a ZIP64 end of central directory */
} asmstore_zip_entry;

/* Finds the entry named name[0..name_len) in the ZIP archive zip[0..size): EOCD (archive comment
   allowed; a signature inside the comment is rejected unless the directory ends right at it and
   the record ends the file), ZIP64 EOCD + locator, the central directory (duplicates rejected),
   the local header (signature, name equal to the central one, data inside the archive, before the
   central directory). *out is filled whenever the entry exists, also on the errors below.
   Returns ASMSTORE_ERR_NOT_FOUND, ASMSTORE_ERR_BAD_ZIP, ASMSTORE_ERR_ZIP_ENCRYPTED,
   ASMSTORE_ERR_ZIP_COMPRESSED (not STORED) or ASMSTORE_ERR_MISALIGNED (data % 16 != 0).
   err (optional) gets the offset of the problem. */
ASMSTORE_DEF asmstore_result asmstore_zip_find(const void *zip, size_t size, const char *name, size_t name_len,
                                               asmstore_zip_entry *out, asmstore_error *err);
/* The store entry "lib/<abi>/libassembly-store.so" for `abi` (android dir name), or with
   ASMSTORE_ABI_UNKNOWN the first ABI present in the order arm64, arm, x86_64, x86 (*found_abi
   says which; may be NULL). Same checks and results as asmstore_zip_find. */
ASMSTORE_DEF asmstore_result asmstore_zip_find_store(const void *zip, size_t size, asmstore_abi abi,
                                                     asmstore_abi *found_abi, asmstore_zip_entry *out, asmstore_error *err);

#ifndef ASMSTORE_NO_ELF
/* ---- generating the wrapper ---- */
typedef enum asmstore_elf_mode {
    ASMSTORE_ELF_MODE_DLOPEN = 0,   /* loadable payload + dynamic symbol (default) */
    ASMSTORE_ELF_MODE_SECTION = 1,  /* MonoVM legacy: non-loadable "payload" section, last header */
    ASMSTORE_ELF_MODE_TEMPLATE = 2  /* add the "payload" section to a caller stub .so */
} asmstore_elf_mode;

/* Zero-initialised means: arm64, dlopen mode, "_assembly_store", "libassembly-store.so", 16 KiB. */
typedef struct asmstore_elf_options {
    asmstore_abi abi;            /* 0: arm64. Template mode: 0 = take the stub's, else must match it */
    asmstore_elf_mode mode;
    const char *symbol;          /* dlopen mode: NULL = "_assembly_store" */
    const char *soname;          /* dlopen/section mode: NULL = "libassembly-store.so" */
    size_t alignment;            /* payload alignment: 0 = 16384; power of two, 4096 ..  1 GiB */
    const void *stub;            /* template mode: the stub .so bytes (only read) */
    size_t stub_size;
    asmstore_allocator allocator;
} asmstore_elf_options;

/* A wrapper laid out around a payload that is NOT copied: the file is
   head[0..head_size) + payload[0..payload_size) + tail[0..tail_size). head ends with the zero
   padding up to the payload, so head_size == payload_offset. Owned; free with asmstore_elf_image_free. */
typedef struct asmstore_elf_image {
    unsigned char *head;
    size_t head_size;
    size_t payload_offset;
    size_t payload_size;
    unsigned char *tail;
    size_t tail_size;
    size_t total_size;
    asmstore_allocator allocator;
} asmstore_elf_image;

/* Lays out the wrapper for a payload of payload_size bytes (the payload itself is not needed).
   Checks the options (ABI, names: non-empty, < ASMSTORE_ELF_MAX_NAME, alignment) and, in template
   mode, the stub (ELF, little-endian, 32/64-bit, ET_DYN, header, section table and .shstrtab in
   bounds: ASMSTORE_ERR_BAD_ELF; ABI differs from opt->abi: ASMSTORE_ERR_ABI_MISMATCH).
   ELF32 files over 4 GiB: ASMSTORE_ERR_TOO_LARGE. */
ASMSTORE_DEF asmstore_result asmstore_elf_layout(asmstore_elf_image *img, const asmstore_elf_options *opt, size_t payload_size);
/* Frees head and tail; NULL-safe, idempotent. */
ASMSTORE_DEF void asmstore_elf_image_free(asmstore_elf_image *img);
/* Convenience: the whole .so in one buffer from opt->allocator (free with asmstore_free(&opt->allocator, *out, *out_size)). */
ASMSTORE_DEF asmstore_result asmstore_elf_wrap(const asmstore_elf_options *opt, const void *payload, size_t payload_size,
                                               void **out, size_t *out_size);
#ifndef ASMSTORE_NO_STDIO
/* Writes the .so to path atomically (asmstore_write_file_parts: head, payload, tail; no payload copy). */
ASMSTORE_DEF asmstore_result asmstore_elf_write_file(const char *path, const asmstore_elf_options *opt,
                                                     const void *payload, size_t payload_size, unsigned mode);
#endif

/* ---- validating against bionic's loader (elf-so-requirements.md §4) ---- */
typedef struct asmstore_elf_violation {
    int rule;                   /* 1..12 of §4; 0 when the file passes */
    const char *message;        /* static text naming the check */
    uint64_t offset;            /* file offset involved, or 0 */
} asmstore_elf_violation;

/* Applies the 12 bionic-only rules: section headers, SHT_DYNAMIC == PT_DYNAMIC, DT_HASH, DT_STRSZ
   and string bounds, DT_SYMENT and tags, PT_PHDR inside a PT_LOAD, 16 KiB PT_LOADs, forbidden
   segments, class/machine for `abi` (UNKNOWN: any of the four), the symbol `symbol` (NULL:
   "_assembly_store") when present (rule 10), else the legacy "payload" section (rule 11; a
   file with neither fails rule 10), and, when apk_entry is not NULL, rule 12 for the APK entry the
   file came from. Returns ASMSTORE_OK, ASMSTORE_ERR_BAD_ELF (not parseable at all) or
   ASMSTORE_ERR_ELF_RULE with *v (optional) naming the first violated rule. */
ASMSTORE_DEF asmstore_result asmstore_elf_check_bionic(const void *elf, size_t size, asmstore_abi abi, const char *symbol,
                                                       const asmstore_zip_entry *apk_entry, asmstore_elf_violation *v);
#endif /* ASMSTORE_NO_ELF */

/* ---- locators: where a host gets (data, size) for asmstore_reader_init ---- */
typedef enum asmstore_locate_via {
    ASMSTORE_VIA_NONE = 0,
    ASMSTORE_VIA_DLOPEN = 1,
    ASMSTORE_VIA_FILE = 2,
    ASMSTORE_VIA_APK = 3
} asmstore_locate_via;

/* An open store. data/size is the payload; close with asmstore_locator_close (NULL-safe,
   idempotent; a zero-initialised locator is closed). */
typedef struct asmstore_locator {
    const void *data;
    size_t size;
    asmstore_locate_via via;
    asmstore_elf_kind wrapper;    /* how the payload sat in the file (NONE: raw store) */
    asmstore_abi abi;             /* APK: the lib/<abi> dir; ELF: e_machine */
    uint64_t file_offset;         /* payload offset in the file opened (APK: in the archive) */
    asmstore_zip_entry entry;     /* APK: the libassembly-store.so entry */
    int from_split;               /* APK: found in split_config.<abi>.apk beside base.apk */
    void *dl_handle;              /* dlopen handle (closed by asmstore_locator_close) */
    void *map;                    /* mmap'd range (unmapped by asmstore_locator_close) */
    size_t map_size;
    char error[192];              /* dlerror() text when dlopen/dlsym failed */
} asmstore_locator;

#ifndef ASMSTORE_NO_LOCATOR
/* dlopen(path, RTLD_NOW|RTLD_LOCAL) + dlsym(symbol; NULL: "_assembly_store"). Extent: the symbol's
   st_size (dladdr1, glibc), else the end of the PT_LOAD holding it (dl_iterate_phdr); never
   unbounded (no extent source: ASMSTORE_ERR_UNSUPPORTED). ASMSTORE_ERR_DLOPEN with l->error set
   when dlopen or dlsym fails. */
ASMSTORE_DEF asmstore_result asmstore_locate_dlopen(asmstore_locator *l, const char *path, const char *symbol,
                                                    asmstore_error *err);
#endif
#ifndef ASMSTORE_NO_STDIO
/* mmaps a file read-only: a raw store (given whole), a .so of either kind (payload found with
   asmstore_elf_payload and `symbol`), or a ZIP/APK (as asmstore_locate_apk with ABI unknown). */
ASMSTORE_DEF asmstore_result asmstore_locate_file(asmstore_locator *l, const char *path, const char *symbol,
                                                  asmstore_error *err);
/* Finds lib/<abi>/libassembly-store.so in an APK (abi UNKNOWN: first present, see
   asmstore_zip_find_store). If path's basename is base.apk, split_config.<abi_underscored>.apk beside it
   is tried first, base.apk is the fallback. Maps only the entry's pages (offset rounded down to the
   page size), then finds the payload inside the entry (ELF or raw). */
ASMSTORE_DEF asmstore_result asmstore_locate_apk(asmstore_locator *l, const char *path, asmstore_abi abi,
                                                 const char *symbol, asmstore_error *err);
#endif
/* Unmaps / dlcloses what l holds and zeroes it. */
ASMSTORE_DEF void asmstore_locator_close(asmstore_locator *l);

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_ELF_PART_H_INCLUDED */

/* ==== IMPLEMENTATION ==== */
#ifdef ASMSTORE_IMPLEMENTATION
#ifndef ASMSTORE_ELF_PART_IMPLEMENTATION_INCLUDED
#define ASMSTORE_ELF_PART_IMPLEMENTATION_INCLUDED

#if !defined(ASMSTORE_NO_STDIO) || !defined(ASMSTORE_NO_LOCATOR)
#include <string.h>
#endif
#ifndef ASMSTORE_NO_STDIO
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#ifndef ASMSTORE_NO_LOCATOR
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* >>elf --------------------------------------------------------------------------------- */
#define ASMSTORE__ET_DYN 3u
#define ASMSTORE__PT_LOAD 1u
#define ASMSTORE__PT_DYNAMIC 2u
#define ASMSTORE__PT_INTERP 3u
#define ASMSTORE__PT_NOTE 4u
#define ASMSTORE__PT_PHDR 6u
#define ASMSTORE__PT_TLS 7u
#define ASMSTORE__PT_GNU_STACK 0x6474e551u
#define ASMSTORE__PT_GNU_RELRO 0x6474e552u
#define ASMSTORE__PF_X 1u
#define ASMSTORE__PF_W 2u
#define ASMSTORE__PF_R 4u
#define ASMSTORE__SHT_PROGBITS 1u
#define ASMSTORE__SHT_STRTAB 3u
#define ASMSTORE__SHT_HASH 5u
#define ASMSTORE__SHT_DYNAMIC 6u
#define ASMSTORE__SHT_NOBITS 8u
#define ASMSTORE__SHT_DYNSYM 11u
#define ASMSTORE__SHF_ALLOC 2u
#define ASMSTORE__DT_NULL 0u
#define ASMSTORE__DT_NEEDED 1u
#define ASMSTORE__DT_HASH 4u
#define ASMSTORE__DT_STRTAB 5u
#define ASMSTORE__DT_SYMTAB 6u
#define ASMSTORE__DT_STRSZ 10u
#define ASMSTORE__DT_SYMENT 11u
#define ASMSTORE__DT_SONAME 14u
#define ASMSTORE__DT_TEXTREL 22u
#define ASMSTORE__DT_FLAGS 30u
#define ASMSTORE__DF_TEXTREL 4u
#define ASMSTORE__DT_GNU_HASH 0x6ffffef5u
#define ASMSTORE__STB_GLOBAL 1u
#define ASMSTORE__STT_OBJECT 1u

ASMSTORE_DEF const char *asmstore_elf_kind_name(asmstore_elf_kind kind) {
    switch (kind) {
    case ASMSTORE_ELF_SYMBOL: return "elf-dlopen";
    case ASMSTORE_ELF_SECTION: return "elf-section";
    default: return "raw";
    }
}

/* e_machine of an ABI and back. */
ASMSTORE__PRIVATE uint16_t asmstore__elf_machine(asmstore_abi abi) {
    switch (abi) {
    case ASMSTORE_ABI_ARM64: return 183;
    case ASMSTORE_ABI_ARM: return 40;
    case ASMSTORE_ABI_X86_64: return 62;
    case ASMSTORE_ABI_X86: return 3;
    default: return 0;
    }
}
ASMSTORE__PRIVATE asmstore_abi asmstore__elf_abi(uint16_t machine) {
    switch (machine) {
    case 183: return ASMSTORE_ABI_ARM64;
    case 40: return ASMSTORE_ABI_ARM;
    case 62: return ASMSTORE_ABI_X86_64;
    case 3: return ASMSTORE_ABI_X86;
    default: return ASMSTORE_ABI_UNKNOWN;
    }
}

/* One parsed header of each kind, class-independent. */
typedef struct asmstore__shdr {
    uint32_t name, type, link, info;
    uint64_t flags, addr, offset, size, addralign, entsize;
} asmstore__shdr;
typedef struct asmstore__phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
} asmstore__phdr;
typedef struct asmstore__sym {
    uint32_t name;
    unsigned char info, other;
    uint16_t shndx;
    uint64_t value, size;
} asmstore__sym;

/* A validated view of an ELF file's header: the program and section header tables (when their
   counts are non-zero) lie inside the file with entries at least as large as the spec's. */
typedef struct asmstore__elf {
    const unsigned char *p;
    uint64_t size;
    int is64;
    uint16_t type, machine;
    uint32_t flags;
    uint64_t phoff, shoff;
    uint32_t phnum, shnum, phentsize, shentsize, shstrndx, ehsize;
} asmstore__elf;

ASMSTORE__PRIVATE uint64_t asmstore__rdw(const unsigned char *p, int is64) { return is64 ? asmstore__rd64(p) : asmstore__rd32(p); }

ASMSTORE__PRIVATE asmstore_result asmstore__elf_open(asmstore__elf *e, const void *data, size_t size) {
    const unsigned char *p = (const unsigned char *)data;
    memset(e, 0, sizeof *e);
    if (!p || size < 52) return ASMSTORE_ERR_BAD_ELF;
    if (p[0] != 0x7f || p[1] != 'E' || p[2] != 'L' || p[3] != 'F') return ASMSTORE_ERR_BAD_ELF;
    if ((p[4] != 1 && p[4] != 2) || p[5] != 1) return ASMSTORE_ERR_BAD_ELF; /* 32/64-bit, little-endian only */
    e->p = p;
    e->size = size;
    e->is64 = p[4] == 2;
    if (e->is64 && size < 64) return ASMSTORE_ERR_BAD_ELF;
    e->type = asmstore__rd16(p + 16);
    e->machine = asmstore__rd16(p + 18);
    if (e->is64) {
        e->phoff = asmstore__rd64(p + 32); e->shoff = asmstore__rd64(p + 40); e->flags = asmstore__rd32(p + 48);
        e->ehsize = asmstore__rd16(p + 52); e->phentsize = asmstore__rd16(p + 54); e->phnum = asmstore__rd16(p + 56);
        e->shentsize = asmstore__rd16(p + 58); e->shnum = asmstore__rd16(p + 60); e->shstrndx = asmstore__rd16(p + 62);
    } else {
        e->phoff = asmstore__rd32(p + 28); e->shoff = asmstore__rd32(p + 32); e->flags = asmstore__rd32(p + 36);
        e->ehsize = asmstore__rd16(p + 40); e->phentsize = asmstore__rd16(p + 42); e->phnum = asmstore__rd16(p + 44);
        e->shentsize = asmstore__rd16(p + 46); e->shnum = asmstore__rd16(p + 48); e->shstrndx = asmstore__rd16(p + 50);
    }
    if (e->phnum && (e->phentsize < (e->is64 ? 56u : 32u) ||
                     !asmstore__range_ok(e->phoff, (uint64_t)e->phnum * e->phentsize, e->size)))
        return ASMSTORE_ERR_BAD_ELF;
    if (e->shnum && (e->shentsize < (e->is64 ? 64u : 40u) ||
                     !asmstore__range_ok(e->shoff, (uint64_t)e->shnum * e->shentsize, e->size)))
        return ASMSTORE_ERR_BAD_ELF;
    return ASMSTORE_OK;
}

ASMSTORE__PRIVATE void asmstore__elf_shdr(const asmstore__elf *e, uint32_t i, asmstore__shdr *s) {
    const unsigned char *q = e->p + e->shoff + (uint64_t)i * e->shentsize;
    s->name = asmstore__rd32(q);
    s->type = asmstore__rd32(q + 4);
    if (e->is64) {
        s->flags = asmstore__rd64(q + 8); s->addr = asmstore__rd64(q + 16); s->offset = asmstore__rd64(q + 24);
        s->size = asmstore__rd64(q + 32); s->link = asmstore__rd32(q + 40); s->info = asmstore__rd32(q + 44);
        s->addralign = asmstore__rd64(q + 48); s->entsize = asmstore__rd64(q + 56);
    } else {
        s->flags = asmstore__rd32(q + 8); s->addr = asmstore__rd32(q + 12); s->offset = asmstore__rd32(q + 16);
        s->size = asmstore__rd32(q + 20); s->link = asmstore__rd32(q + 24); s->info = asmstore__rd32(q + 28);
        s->addralign = asmstore__rd32(q + 32); s->entsize = asmstore__rd32(q + 36);
    }
}
ASMSTORE__PRIVATE void asmstore__elf_phdr(const asmstore__elf *e, uint32_t i, asmstore__phdr *h) {
    const unsigned char *q = e->p + e->phoff + (uint64_t)i * e->phentsize;
    h->type = asmstore__rd32(q);
    if (e->is64) {
        h->flags = asmstore__rd32(q + 4); h->offset = asmstore__rd64(q + 8); h->vaddr = asmstore__rd64(q + 16);
        h->paddr = asmstore__rd64(q + 24); h->filesz = asmstore__rd64(q + 32); h->memsz = asmstore__rd64(q + 40);
        h->align = asmstore__rd64(q + 48);
    } else {
        h->offset = asmstore__rd32(q + 4); h->vaddr = asmstore__rd32(q + 8); h->paddr = asmstore__rd32(q + 12);
        h->filesz = asmstore__rd32(q + 16); h->memsz = asmstore__rd32(q + 20); h->flags = asmstore__rd32(q + 24);
        h->align = asmstore__rd32(q + 28);
    }
}
/* Symbol i of a symbol table at file offset off (caller checked the range). */
ASMSTORE__PRIVATE void asmstore__elf_sym(const asmstore__elf *e, uint64_t off, uint64_t i, asmstore__sym *s) {
    const unsigned char *q = e->p + off + i * (e->is64 ? 24u : 16u);
    s->name = asmstore__rd32(q);
    if (e->is64) {
        s->info = q[4]; s->other = q[5]; s->shndx = asmstore__rd16(q + 6);
        s->value = asmstore__rd64(q + 8); s->size = asmstore__rd64(q + 16);
    } else {
        s->value = asmstore__rd32(q + 4); s->size = asmstore__rd32(q + 8);
        s->info = q[12]; s->other = q[13]; s->shndx = asmstore__rd16(q + 14);
    }
}
/* Does the NUL-terminated string at strtab offset `idx` (table [off, off+size) inside the file)
   equal want[0..len)? Reads at most len + 1 bytes, all bounds-checked. */
ASMSTORE__PRIVATE int asmstore__elf_str_eq(const asmstore__elf *e, uint64_t off, uint64_t size, uint64_t idx,
                                          const char *want, size_t len) {
    if (!asmstore__range_ok(off, size, e->size) || idx >= size || size - idx < (uint64_t)len + 1) return 0;
    return memcmp(e->p + off + idx, want, len) == 0 && e->p[off + idx + len] == 0;
}
/* Section whose name (through e_shstrndx) is `name`; returns its index or 0. */
ASMSTORE__PRIVATE uint32_t asmstore__elf_find_section(const asmstore__elf *e, const char *name, asmstore__shdr *out) {
    asmstore__shdr str, s;
    uint32_t i;
    size_t len = strlen(name);
    if (e->shnum == 0 || e->shstrndx == 0 || e->shstrndx >= e->shnum) return 0;
    asmstore__elf_shdr(e, e->shstrndx, &str);
    if (str.type != ASMSTORE__SHT_STRTAB) return 0;
    for (i = 1; i < e->shnum; i++) {
        asmstore__elf_shdr(e, i, &s);
        if (asmstore__elf_str_eq(e, str.offset, str.size, s.name, name, len)) { *out = s; return i; }
    }
    return 0;
}

ASMSTORE_DEF asmstore_result asmstore_elf_payload(const void *elf, size_t size, const char *symbol, const void **payload,
                                                  size_t *payload_size, asmstore_elf_info *info) {
    asmstore__elf e;
    asmstore__shdr s, str, target;
    asmstore_result res;
    uint32_t i;
    size_t symlen;
    if (!payload || !payload_size || (!elf && size)) return ASMSTORE_ERR_INVALID_ARG;
    *payload = NULL; *payload_size = 0;
    if (info) memset(info, 0, sizeof *info);
    if (!symbol) symbol = ASMSTORE_ELF_DEFAULT_SYMBOL;
    symlen = strlen(symbol);
    res = asmstore__elf_open(&e, elf, size);
    if (res != ASMSTORE_OK) return res;
    if (info) { info->is_64bit = e.is64; info->machine = e.machine; info->abi = asmstore__elf_abi(e.machine); }
    /* 1. the dynamic symbol in the first SHT_DYNSYM section (one pass: O(e_shnum + symbols)) */
    for (i = 1; i < e.shnum; i++) {
        uint64_t entsz = e.is64 ? 24u : 16u, n, k;
        asmstore__elf_shdr(&e, i, &s);
        if (s.type != ASMSTORE__SHT_DYNSYM) continue;
        if (!asmstore__range_ok(s.offset, s.size, e.size) || s.link >= e.shnum) return ASMSTORE_ERR_BAD_ELF;
        asmstore__elf_shdr(&e, s.link, &str);
        if (str.type != ASMSTORE__SHT_STRTAB || !asmstore__range_ok(str.offset, str.size, e.size)) return ASMSTORE_ERR_BAD_ELF;
        n = s.size / entsz;
        for (k = 1; k < n; k++) {
            asmstore__sym y;
            uint64_t rel, avail, off;
            asmstore__elf_sym(&e, s.offset, k, &y);
            if (!asmstore__elf_str_eq(&e, str.offset, str.size, y.name, symbol, symlen)) continue;
            if (y.shndx == 0 || y.shndx >= e.shnum) return ASMSTORE_ERR_BAD_ELF; /* undefined, ABS or reserved */
            asmstore__elf_shdr(&e, y.shndx, &target);
            if (target.type == ASMSTORE__SHT_NOBITS || !asmstore__range_ok(target.offset, target.size, e.size) ||
                y.value < target.addr || y.value - target.addr > target.size)
                return ASMSTORE_ERR_BAD_ELF;
            rel = y.value - target.addr;
            avail = target.size - rel;
            if (y.size > avail) return ASMSTORE_ERR_BAD_ELF;
            off = target.offset + rel;
            *payload = e.p + off;
            *payload_size = (size_t)(y.size ? y.size : avail);
            if (info) {
                info->kind = ASMSTORE_ELF_SYMBOL; info->payload_offset = off; info->payload_size = *payload_size;
                info->symbol_size = y.size; info->section_index = y.shndx;
                info->section_is_last = y.shndx + 1u == e.shnum;
            }
            return ASMSTORE_OK;
        }
        break;
    }
    /* 2. the section named "payload" */
    i = asmstore__elf_find_section(&e, "payload", &target);
    if (i == 0) return ASMSTORE_ERR_NO_PAYLOAD;
    if (target.type == ASMSTORE__SHT_NOBITS || !asmstore__range_ok(target.offset, target.size, e.size)) return ASMSTORE_ERR_BAD_ELF;
    *payload = e.p + target.offset;
    *payload_size = (size_t)target.size;
    if (info) {
        info->kind = ASMSTORE_ELF_SECTION; info->payload_offset = target.offset; info->payload_size = target.size;
        info->section_index = i; info->section_is_last = i + 1u == e.shnum;
    }
    return ASMSTORE_OK;
}

#ifndef ASMSTORE_NO_ELF
/* Class-dependent writers. */
ASMSTORE__PRIVATE void asmstore__wrw(unsigned char *p, uint64_t v, int is64) {
    if (is64) asmstore__wr64(p, v); else asmstore__wr32(p, (uint32_t)v);
}
ASMSTORE__PRIVATE void asmstore__elf_put_shdr(unsigned char *q, int is64, const asmstore__shdr *s) {
    asmstore__wr32(q, s->name);
    asmstore__wr32(q + 4, s->type);
    if (is64) {
        asmstore__wr64(q + 8, s->flags); asmstore__wr64(q + 16, s->addr); asmstore__wr64(q + 24, s->offset);
        asmstore__wr64(q + 32, s->size); asmstore__wr32(q + 40, s->link); asmstore__wr32(q + 44, s->info);
        asmstore__wr64(q + 48, s->addralign); asmstore__wr64(q + 56, s->entsize);
    } else {
        asmstore__wr32(q + 8, (uint32_t)s->flags); asmstore__wr32(q + 12, (uint32_t)s->addr);
        asmstore__wr32(q + 16, (uint32_t)s->offset); asmstore__wr32(q + 20, (uint32_t)s->size);
        asmstore__wr32(q + 24, s->link); asmstore__wr32(q + 28, s->info);
        asmstore__wr32(q + 32, (uint32_t)s->addralign); asmstore__wr32(q + 36, (uint32_t)s->entsize);
    }
}
ASMSTORE__PRIVATE void asmstore__elf_put_phdr(unsigned char *q, int is64, uint32_t type, uint32_t flags, uint64_t off,
                                             uint64_t size, uint64_t align) {
    asmstore__wr32(q, type);
    if (is64) {
        asmstore__wr32(q + 4, flags); asmstore__wr64(q + 8, off); asmstore__wr64(q + 16, off); asmstore__wr64(q + 24, off);
        asmstore__wr64(q + 32, size); asmstore__wr64(q + 40, size); asmstore__wr64(q + 48, align);
    } else {
        asmstore__wr32(q + 4, (uint32_t)off); asmstore__wr32(q + 8, (uint32_t)off); asmstore__wr32(q + 12, (uint32_t)off);
        asmstore__wr32(q + 16, (uint32_t)size); asmstore__wr32(q + 20, (uint32_t)size); asmstore__wr32(q + 24, flags);
        asmstore__wr32(q + 28, (uint32_t)align);
    }
}
ASMSTORE__PRIVATE void asmstore__elf_put_sym(unsigned char *q, int is64, uint32_t name, uint64_t value, uint64_t size,
                                            unsigned char info, uint16_t shndx) {
    asmstore__wr32(q, name);
    if (is64) { q[4] = info; q[5] = 0; asmstore__wr16(q + 6, shndx); asmstore__wr64(q + 8, value); asmstore__wr64(q + 16, size); }
    else { asmstore__wr32(q + 4, (uint32_t)value); asmstore__wr32(q + 8, (uint32_t)size); q[12] = info; q[13] = 0; asmstore__wr16(q + 14, shndx); }
}
/* ELF header; offsets and counts patched in by the caller where they differ. */
ASMSTORE__PRIVATE void asmstore__elf_put_ehdr(unsigned char *p, int is64, uint16_t machine, uint32_t flags, uint64_t phoff,
                                             uint32_t phnum, uint64_t shoff, uint32_t shnum, uint32_t shstrndx) {
    memset(p, 0, is64 ? 64u : 52u);
    p[0] = 0x7f; p[1] = 'E'; p[2] = 'L'; p[3] = 'F';
    p[4] = (unsigned char)(is64 ? 2 : 1); p[5] = 1; p[6] = 1;
    asmstore__wr16(p + 16, ASMSTORE__ET_DYN);
    asmstore__wr16(p + 18, machine);
    asmstore__wr32(p + 20, 1);
    if (is64) {
        asmstore__wr64(p + 32, phoff); asmstore__wr64(p + 40, shoff); asmstore__wr32(p + 48, flags);
        asmstore__wr16(p + 52, 64); asmstore__wr16(p + 54, 56); asmstore__wr16(p + 56, phnum);
        asmstore__wr16(p + 58, 64); asmstore__wr16(p + 60, shnum); asmstore__wr16(p + 62, shstrndx);
    } else {
        asmstore__wr32(p + 28, (uint32_t)phoff); asmstore__wr32(p + 32, (uint32_t)shoff); asmstore__wr32(p + 36, flags);
        asmstore__wr16(p + 40, 52); asmstore__wr16(p + 42, 32); asmstore__wr16(p + 44, phnum);
        asmstore__wr16(p + 46, 40); asmstore__wr16(p + 48, shnum); asmstore__wr16(p + 50, shstrndx);
    }
}
ASMSTORE__PRIVATE uint64_t asmstore__align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

ASMSTORE__PRIVATE int asmstore__name_ok(const char *s) {
    size_t n;
    if (!s) return 0;
    n = strlen(s);
    return n > 0 && n < ASMSTORE_ELF_MAX_NAME;
}

ASMSTORE_DEF void asmstore_elf_image_free(asmstore_elf_image *img) {
    if (!img) return;
    asmstore_free(&img->allocator, img->head, img->head_size);
    asmstore_free(&img->allocator, img->tail, img->tail_size);
    img->head = img->tail = NULL;
    img->head_size = img->tail_size = 0;
}

/* Generated wrapper (dlopen and section modes): elf-so-requirements.md §3. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_generate(asmstore_elf_image *img, const asmstore_elf_options *opt,
                                                         asmstore_abi abi, uint64_t align, size_t payload_size) {
    static const char shstr_dl[] = "\0.dynsym\0.dynstr\0.hash\0.dynamic\0payload\0.shstrtab";
    static const char shstr_sec[] = "\0.dynsym\0.dynstr\0.hash\0.dynamic\0.shstrtab\0payload";
    /* name offsets inside the two tables above */
    enum { N_DYNSYM = 1, N_DYNSTR = 9, N_HASH = 17, N_DYNAMIC = 23 };
    const int is64 = abi == ASMSTORE_ABI_ARM64 || abi == ASMSTORE_ABI_X86_64;
    const int dl = opt->mode == ASMSTORE_ELF_MODE_DLOPEN;
    const char *sym = opt->symbol ? opt->symbol : ASMSTORE_ELF_DEFAULT_SYMBOL;
    const char *soname = opt->soname ? opt->soname : ASMSTORE_ELF_DEFAULT_SONAME;
    const uint64_t wa = is64 ? 8u : 4u, ehsz = is64 ? 64u : 52u, phsz = is64 ? 56u : 32u, shsz = is64 ? 64u : 40u;
    const uint64_t symsz = is64 ? 24u : 16u, dynsz = is64 ? 16u : 8u;
    const uint32_t nsyms = dl ? 2u : 1u, ndyn = 7u, nsec = 7u;
    const uint64_t p_align = align > 16384u ? align : 16384u;
    size_t symlen = dl ? strlen(sym) : 0, solen = strlen(soname), shstr_size = sizeof shstr_dl;
    uint64_t dynsym_off, dynstr_off, dynstr_size, soname_idx, hash_off, dyn_off, meta_end, payload_off, shstr_off, shoff, total;
    uint64_t load_size;
    uint32_t payload_name = dl ? 32u : 42u, shstrtab_name = dl ? 40u : 32u, payload_idx = dl ? 5u : 6u, shstr_idx = dl ? 6u : 5u;
    unsigned char *h, *t, *q;
    asmstore__shdr s;
    uint32_t i;

    dynsym_off = asmstore__align_up(ehsz + 4 * phsz, wa);
    dynstr_off = dynsym_off + nsyms * symsz;
    soname_idx = dl ? 1u + symlen + 1u : 1u;
    dynstr_size = soname_idx + solen + 1u;
    hash_off = asmstore__align_up(dynstr_off + dynstr_size, 4);
    dyn_off = asmstore__align_up(hash_off + 4u * (2u + 1u + nsyms), wa);
    meta_end = dyn_off + ndyn * dynsz;
    payload_off = asmstore__align_up(meta_end, align);
    shstr_off = payload_off + (uint64_t)payload_size;
    shoff = asmstore__align_up(shstr_off + shstr_size, wa);
    total = shoff + nsec * shsz;
    if ((uint64_t)payload_size > total || total > (uint64_t)SIZE_MAX || (!is64 && total > 0xFFFFFFFFu))
        return ASMSTORE_ERR_TOO_LARGE;
    load_size = dl ? payload_off + payload_size : meta_end;

    img->head_size = (size_t)payload_off;
    img->tail_size = (size_t)(total - shstr_off);
    img->head = (unsigned char *)asmstore__alloc(&img->allocator, img->head_size);
    img->tail = (unsigned char *)asmstore__alloc(&img->allocator, img->tail_size);
    if (!img->head || !img->tail) { asmstore_elf_image_free(img); return ASMSTORE_ERR_OUT_OF_MEMORY; }
    h = img->head; t = img->tail;
    memset(h, 0, img->head_size);
    memset(t, 0, img->tail_size);

    asmstore__elf_put_ehdr(h, is64, asmstore__elf_machine(abi), abi == ASMSTORE_ABI_ARM ? 0x05000000u : 0u, ehsz, 4, shoff, nsec, shstr_idx);
    q = h + ehsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_PHDR, ASMSTORE__PF_R, ehsz, 4 * phsz, wa); q += phsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_LOAD, ASMSTORE__PF_R, 0, load_size, p_align); q += phsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_DYNAMIC, ASMSTORE__PF_R, dyn_off, ndyn * dynsz, wa); q += phsz;
    asmstore__elf_put_phdr(q, is64, ASMSTORE__PT_GNU_STACK, ASMSTORE__PF_R | ASMSTORE__PF_W, 0, 0, 16);
    /* .dynsym: [0] null, [1] the symbol */
    if (dl)
        asmstore__elf_put_sym(h + dynsym_off + symsz, is64, 1, payload_off, payload_size,
                              (unsigned char)((ASMSTORE__STB_GLOBAL << 4) | ASMSTORE__STT_OBJECT), (uint16_t)payload_idx);
    /* .dynstr */
    if (dl) memcpy(h + dynstr_off + 1, sym, symlen);
    memcpy(h + dynstr_off + soname_idx, soname, solen);
    /* .hash: one bucket, so every symbol is reachable whatever its hash */
    q = h + hash_off;
    asmstore__wr32(q, 1); asmstore__wr32(q + 4, nsyms);
    asmstore__wr32(q + 8, dl ? 1u : 0u);
    asmstore__wr32(q + 12, 0);
    if (dl) asmstore__wr32(q + 16, 0);
    /* one bucket: bucket[0] starts the chain whatever the symbol's SysV hash is */
    /* .dynamic */
    q = h + dyn_off;
    {
        const uint64_t tags[7][2] = {
            {ASMSTORE__DT_SONAME, 0}, {ASMSTORE__DT_SYMTAB, 0}, {ASMSTORE__DT_SYMENT, 0}, {ASMSTORE__DT_STRTAB, 0},
            {ASMSTORE__DT_STRSZ, 0}, {ASMSTORE__DT_HASH, 0}, {ASMSTORE__DT_NULL, 0}};
        const uint64_t vals[7] = {soname_idx, dynsym_off, symsz, dynstr_off, dynstr_size, hash_off, 0};
        for (i = 0; i < ndyn; i++) {
            asmstore__wrw(q + i * dynsz, tags[i][0], is64);
            asmstore__wrw(q + i * dynsz + wa, vals[i], is64);
        }
    }
    /* tail: .shstrtab then the section headers */
    memcpy(t, dl ? shstr_dl : shstr_sec, shstr_size);
    q = t + (shoff - shstr_off);
    memset(&s, 0, sizeof s);
    q += shsz; /* [0] null */
    s.name = N_DYNSYM; s.type = ASMSTORE__SHT_DYNSYM; s.flags = ASMSTORE__SHF_ALLOC; s.addr = s.offset = dynsym_off;
    s.size = nsyms * symsz; s.link = 2; s.info = 1; s.addralign = wa; s.entsize = symsz;
    asmstore__elf_put_shdr(q, is64, &s); q += shsz;
    memset(&s, 0, sizeof s);
    s.name = N_DYNSTR; s.type = ASMSTORE__SHT_STRTAB; s.flags = ASMSTORE__SHF_ALLOC; s.addr = s.offset = dynstr_off;
    s.size = dynstr_size; s.addralign = 1;
    asmstore__elf_put_shdr(q, is64, &s); q += shsz;
    memset(&s, 0, sizeof s);
    s.name = N_HASH; s.type = ASMSTORE__SHT_HASH; s.flags = ASMSTORE__SHF_ALLOC; s.addr = s.offset = hash_off;
    s.size = 4u * (3u + nsyms); s.link = 1; s.addralign = 4; s.entsize = 4;
    asmstore__elf_put_shdr(q, is64, &s); q += shsz;
    memset(&s, 0, sizeof s);
    s.name = N_DYNAMIC; s.type = ASMSTORE__SHT_DYNAMIC; s.flags = ASMSTORE__SHF_ALLOC; s.addr = s.offset = dyn_off;
    s.size = ndyn * dynsz; s.link = 2; s.addralign = wa; s.entsize = dynsz;
    asmstore__elf_put_shdr(q, is64, &s); q += shsz;
    for (i = 5; i < 7; i++, q += shsz) {
        memset(&s, 0, sizeof s);
        if (i == payload_idx) {
            s.name = payload_name; s.type = ASMSTORE__SHT_PROGBITS; s.offset = payload_off; s.size = payload_size;
            s.addralign = align;
            if (dl) { s.flags = ASMSTORE__SHF_ALLOC; s.addr = payload_off; }
        } else {
            s.name = shstrtab_name; s.type = ASMSTORE__SHT_STRTAB; s.offset = shstr_off; s.size = shstr_size; s.addralign = 1;
        }
        asmstore__elf_put_shdr(q, is64, &s);
    }
    img->payload_offset = (size_t)payload_off;
    img->payload_size = payload_size;
    img->total_size = (size_t)total;
    return ASMSTORE_OK;
}

/* Template mode: what `llvm-objcopy --add-section payload=F --set-section-flags payload=readonly,data
   --set-section-alignment payload=A` does, in one pass: stub bytes (header fields patched), zero
   padding, payload, new .shstrtab (old one + "payload"), new section header table. */
ASMSTORE__PRIVATE asmstore_result asmstore__elf_template(asmstore_elf_image *img, const asmstore_elf_options *opt,
                                                         uint64_t align, size_t payload_size) {
    static const char add_names[] = ".shstrtab\0payload";
    asmstore__elf e;
    asmstore__shdr str, s;
    asmstore_result res;
    uint64_t payload_off, shstr_off, shstr_size, old_str_size = 0, shoff, total, shsz, wa;
    uint32_t old_n, new_n, str_idx, i, name_payload, name_shstrtab = 0;
    int new_strtab;
    unsigned char *t;
    memset(&str, 0, sizeof str);
    res = asmstore__elf_open(&e, opt->stub, opt->stub_size);
    if (res != ASMSTORE_OK) return res;
    if (e.type != ASMSTORE__ET_DYN || asmstore__elf_abi(e.machine) == ASMSTORE_ABI_UNKNOWN) return ASMSTORE_ERR_BAD_ELF;
    if ((e.is64 != 0) != (e.machine == 183 || e.machine == 62)) return ASMSTORE_ERR_BAD_ELF;
    if (opt->abi != ASMSTORE_ABI_UNKNOWN && asmstore__elf_abi(e.machine) != opt->abi) return ASMSTORE_ERR_ABI_MISMATCH;
    shsz = e.is64 ? 64u : 40u;
    wa = e.is64 ? 8u : 4u;
    if (e.shnum != 0 && e.shentsize != shsz) return ASMSTORE_ERR_BAD_ELF;
    if (e.shnum >= 0xff00u || (e.shnum == 0 && e.shstrndx != 0) || (e.shnum && e.shstrndx >= e.shnum)) return ASMSTORE_ERR_BAD_ELF;
    new_strtab = e.shstrndx == 0;
    if (!new_strtab) {
        asmstore__elf_shdr(&e, e.shstrndx, &str);
        if (str.type != ASMSTORE__SHT_STRTAB || !asmstore__range_ok(str.offset, str.size, e.size) ||
            (str.size && e.p[str.offset + str.size - 1] != 0))
            return ASMSTORE_ERR_BAD_ELF;
        old_str_size = str.size;
    }
    old_n = e.shnum;
    str_idx = new_strtab ? (old_n ? old_n : 1u) : e.shstrndx;
    new_n = (old_n ? old_n : 1u) + (new_strtab ? 2u : 1u);
    /* new .shstrtab = old bytes + ("\0" when empty) + [".shstrtab\0" when new] + "payload\0" */
    shstr_size = old_str_size ? old_str_size : 1u;
    if (new_strtab) { name_shstrtab = (uint32_t)shstr_size; shstr_size += 10u; }
    name_payload = (uint32_t)shstr_size;
    shstr_size += 8u;
    payload_off = asmstore__align_up(e.size, align);
    shstr_off = payload_off + (uint64_t)payload_size;
    shoff = asmstore__align_up(shstr_off + shstr_size, wa);
    total = shoff + (uint64_t)new_n * shsz;
    if ((uint64_t)payload_size > total || total > (uint64_t)SIZE_MAX || (!e.is64 && total > 0xFFFFFFFFu))
        return ASMSTORE_ERR_TOO_LARGE;
    img->head_size = (size_t)payload_off;
    img->tail_size = (size_t)(total - shstr_off);
    img->head = (unsigned char *)asmstore__alloc(&img->allocator, img->head_size);
    img->tail = (unsigned char *)asmstore__alloc(&img->allocator, img->tail_size);
    if (!img->head || !img->tail) { asmstore_elf_image_free(img); return ASMSTORE_ERR_OUT_OF_MEMORY; }
    memcpy(img->head, e.p, (size_t)e.size);
    memset(img->head + e.size, 0, (size_t)(payload_off - e.size));
    /* ELF header: only the section header table location fields change */
    if (e.is64) { asmstore__wr64(img->head + 40, shoff); asmstore__wr16(img->head + 58, (uint32_t)shsz); asmstore__wr16(img->head + 60, new_n); asmstore__wr16(img->head + 62, str_idx); }
    else { asmstore__wr32(img->head + 32, (uint32_t)shoff); asmstore__wr16(img->head + 46, (uint32_t)shsz); asmstore__wr16(img->head + 48, new_n); asmstore__wr16(img->head + 50, str_idx); }
    t = img->tail;
    memset(t, 0, img->tail_size);
    if (old_str_size) memcpy(t, e.p + str.offset, (size_t)old_str_size);
    if (new_strtab) memcpy(t + name_shstrtab, add_names, 10);
    memcpy(t + name_payload, add_names + 10, 8);
    t += shoff - shstr_off;
    for (i = 0; i < old_n; i++) memcpy(t + i * shsz, e.p + e.shoff + (uint64_t)i * shsz, (size_t)shsz);
    /* old_n == 0: entry [0] stays the zeroed null header */
    memset(&s, 0, sizeof s);
    s.name = new_strtab ? name_shstrtab : str.name; s.type = ASMSTORE__SHT_STRTAB; s.offset = shstr_off; s.size = shstr_size;
    s.addralign = 1;
    if (!new_strtab) { s.flags = str.flags; s.addr = str.addr; s.link = str.link; s.info = str.info; s.addralign = str.addralign; s.entsize = str.entsize; }
    asmstore__elf_put_shdr(t + (uint64_t)str_idx * shsz, e.is64, &s);
    memset(&s, 0, sizeof s);
    s.name = name_payload; s.type = ASMSTORE__SHT_PROGBITS; s.offset = payload_off; s.size = payload_size; s.addralign = align;
    asmstore__elf_put_shdr(t + (uint64_t)(new_n - 1) * shsz, e.is64, &s);
    img->payload_offset = (size_t)payload_off;
    img->payload_size = payload_size;
    img->total_size = (size_t)total;
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_elf_layout(asmstore_elf_image *img, const asmstore_elf_options *opt, size_t payload_size) {
    asmstore_elf_options o;
    uint64_t align;
    if (!img) return ASMSTORE_ERR_INVALID_ARG;
    memset(img, 0, sizeof *img);
    if (opt) o = *opt; else memset(&o, 0, sizeof o);
    img->allocator = o.allocator;
    align = o.alignment ? o.alignment : ASMSTORE_ELF_DEFAULT_ALIGNMENT;
    if (align < 4096u || align > (1u << 30) || (align & (align - 1)) != 0) return ASMSTORE_ERR_INVALID_ARG;
    switch (o.mode) {
    case ASMSTORE_ELF_MODE_DLOPEN:
    case ASMSTORE_ELF_MODE_SECTION:
        if (o.abi == ASMSTORE_ABI_UNKNOWN) o.abi = ASMSTORE_ABI_ARM64;
        if (asmstore__elf_machine(o.abi) == 0) return ASMSTORE_ERR_INVALID_ARG;
        if ((o.symbol && !asmstore__name_ok(o.symbol)) || (o.soname && !asmstore__name_ok(o.soname))) return ASMSTORE_ERR_INVALID_ARG;
        return asmstore__elf_generate(img, &o, o.abi, align, payload_size);
    case ASMSTORE_ELF_MODE_TEMPLATE:
        if (!o.stub || !o.stub_size) return ASMSTORE_ERR_INVALID_ARG;
        if ((unsigned)o.abi > 4u) return ASMSTORE_ERR_INVALID_ARG;
        return asmstore__elf_template(img, &o, align, payload_size);
    default:
        return ASMSTORE_ERR_INVALID_ARG;
    }
}

ASMSTORE_DEF asmstore_result asmstore_elf_wrap(const asmstore_elf_options *opt, const void *payload, size_t payload_size,
                                               void **out, size_t *out_size) {
    asmstore_elf_image img;
    asmstore_result res;
    unsigned char *o;
    if (!out || !out_size || (!payload && payload_size)) return ASMSTORE_ERR_INVALID_ARG;
    *out = NULL; *out_size = 0;
    res = asmstore_elf_layout(&img, opt, payload_size);
    if (res != ASMSTORE_OK) return res;
    o = (unsigned char *)asmstore__alloc(&img.allocator, img.total_size);
    if (!o) { asmstore_elf_image_free(&img); return ASMSTORE_ERR_OUT_OF_MEMORY; }
    memcpy(o, img.head, img.head_size);
    if (payload_size) memcpy(o + img.head_size, payload, payload_size);
    memcpy(o + img.head_size + payload_size, img.tail, img.tail_size);
    *out = o;
    *out_size = img.total_size;
    asmstore_elf_image_free(&img);
    return ASMSTORE_OK;
}

#ifndef ASMSTORE_NO_STDIO
ASMSTORE_DEF asmstore_result asmstore_elf_write_file(const char *path, const asmstore_elf_options *opt,
                                                     const void *payload, size_t payload_size, unsigned mode) {
    asmstore_elf_image img;
    asmstore_result res;
    const void *parts[3];
    size_t sizes[3];
    if (!path || (!payload && payload_size)) return ASMSTORE_ERR_INVALID_ARG;
    res = asmstore_elf_layout(&img, opt, payload_size);
    if (res != ASMSTORE_OK) return res;
    parts[0] = img.head; sizes[0] = img.head_size;
    parts[1] = payload; sizes[1] = payload_size;
    parts[2] = img.tail; sizes[2] = img.tail_size;
    res = asmstore_write_file_parts(path, parts, sizes, 3, mode);
    asmstore_elf_image_free(&img);
    return res;
}
#endif

/* ---- bionic rules ---- */
ASMSTORE__PRIVATE asmstore_result asmstore__rule(asmstore_elf_violation *v, int rule, const char *msg, uint64_t off) {
    if (v) { v->rule = rule; v->message = msg; v->offset = off; }
    return ASMSTORE_ERR_ELF_RULE;
}
/* Is [vaddr, vaddr+len) inside some PT_LOAD's file-backed range? */
ASMSTORE__PRIVATE int asmstore__in_load(const asmstore__elf *e, uint64_t vaddr, uint64_t len) {
    asmstore__phdr h;
    uint32_t i;
    for (i = 0; i < e->phnum; i++) {
        asmstore__elf_phdr(e, i, &h);
        if (h.type == ASMSTORE__PT_LOAD && vaddr >= h.vaddr && vaddr - h.vaddr <= h.filesz && len <= h.filesz - (vaddr - h.vaddr))
            return 1;
    }
    return 0;
}

ASMSTORE_DEF asmstore_result asmstore_elf_check_bionic(const void *elf, size_t size, asmstore_abi abi, const char *symbol,
                                                       const asmstore_zip_entry *apk_entry, asmstore_elf_violation *v) {
    asmstore__elf e;
    asmstore__shdr s, dynsec, strsec, symsec;
    asmstore__phdr h, dynph;
    asmstore_result res;
    uint64_t wa, symsz, dynsz, k, ndyn, strsz = 0, strtab = 0, symtab = 0, hash = 0, nsyms;
    uint32_t i, ndynsec = 0, dynidx = 0, nload = 0, have_strsz = 0, have_hash = 0, have_dynph = 0, have_phdr = 0;
    uint64_t last_load_end = 0, soname = 0;
    int have_soname = 0;
    const void *pl;
    size_t pls;
    asmstore_elf_info info;
    memset(&s, 0, sizeof s); memset(&dynsec, 0, sizeof dynsec); memset(&strsec, 0, sizeof strsec);
    memset(&symsec, 0, sizeof symsec); memset(&h, 0, sizeof h); memset(&dynph, 0, sizeof dynph);
    if (v) { v->rule = 0; v->message = "ok"; v->offset = 0; }
    if (!elf && size) return ASMSTORE_ERR_INVALID_ARG;
    res = asmstore__elf_open(&e, elf, size);
    if (res != ASMSTORE_OK) return res;
    wa = e.is64 ? 8u : 4u;
    symsz = e.is64 ? 24u : 16u;
    dynsz = e.is64 ? 16u : 8u;
    /* rule 9 first: everything below depends on the class */
    if (e.type != ASMSTORE__ET_DYN || asmstore__rd32(e.p + 20) != 1) return asmstore__rule(v, 9, "e_type must be ET_DYN, e_version 1", 16);
    if (asmstore__elf_abi(e.machine) == ASMSTORE_ABI_UNKNOWN) return asmstore__rule(v, 9, "e_machine is not arm64/arm/x86_64/x86", 18);
    if (abi != ASMSTORE_ABI_UNKNOWN && asmstore__elf_abi(e.machine) != abi) return asmstore__rule(v, 9, "e_machine does not match the ABI directory", 18);
    if ((e.is64 != 0) != (e.machine == 183 || e.machine == 62)) return asmstore__rule(v, 9, "ELF class does not match the machine", 4);
    /* rule 1: section headers */
    if (e.shnum == 0 || e.shoff == 0) return asmstore__rule(v, 1, "no section headers", 0);
    if (e.shoff % wa) return asmstore__rule(v, 1, "e_shoff misaligned", e.shoff);
    if (e.shentsize != (e.is64 ? 64u : 40u)) return asmstore__rule(v, 1, "e_shentsize is not sizeof(Shdr)", 0);
    if (e.shstrndx == 0 || e.shstrndx >= e.shnum) return asmstore__rule(v, 1, "e_shstrndx is 0 or out of range", 0);
    asmstore__elf_shdr(&e, e.shstrndx, &s);
    if (s.type != ASMSTORE__SHT_STRTAB) return asmstore__rule(v, 1, "e_shstrndx section is not SHT_STRTAB", 0);
    /* program headers (bionic: 1..65536/sizeof, phoff > 0 and aligned) are part of rules 6/7 */
    if (e.phnum == 0 || e.phnum > 65536u / (e.is64 ? 56u : 32u) || e.phoff == 0 || e.phoff % wa ||
        e.phentsize != (e.is64 ? 56u : 32u))
        return asmstore__rule(v, 6, "program header table missing, misaligned or with a wrong entry size", e.phoff);
    /* rules 7 and 8: segments */
    for (i = 0; i < e.phnum; i++) {
        asmstore__elf_phdr(&e, i, &h);
        if (h.type == ASMSTORE__PT_LOAD) {
            if (h.align < 16384u || (h.align & (h.align - 1))) return asmstore__rule(v, 7, "PT_LOAD p_align not a power of two >= 16384", 0);
            if (h.offset % 16384u != h.vaddr % 16384u) return asmstore__rule(v, 7, "PT_LOAD p_offset and p_vaddr differ mod 16384", h.offset);
            if (!asmstore__range_ok(h.offset, h.filesz, e.size)) return asmstore__rule(v, 7, "PT_LOAD past end of file", h.offset);
            if (h.filesz > h.memsz) return asmstore__rule(v, 7, "PT_LOAD p_filesz > p_memsz", h.offset);
            if ((h.flags & ASMSTORE__PF_W) && (h.flags & ASMSTORE__PF_X)) return asmstore__rule(v, 7, "PT_LOAD both writable and executable", h.offset);
            if (nload && h.vaddr < last_load_end) return asmstore__rule(v, 7, "PT_LOADs unsorted or overlapping", h.offset);
            if (h.vaddr + h.memsz < h.vaddr) return asmstore__rule(v, 7, "PT_LOAD wraps around", h.offset);
            last_load_end = h.vaddr + h.memsz;
            nload++;
        } else if (h.type == ASMSTORE__PT_GNU_RELRO || h.type == ASMSTORE__PT_TLS || h.type == ASMSTORE__PT_NOTE ||
                   h.type == ASMSTORE__PT_INTERP) {
            return asmstore__rule(v, 8, "PT_GNU_RELRO, PT_TLS, PT_NOTE or PT_INTERP present", 0);
        } else if (h.type == ASMSTORE__PT_DYNAMIC) {
            dynph = h; have_dynph = 1; /* the last one wins, as in bionic */
        } else if (h.type == ASMSTORE__PT_PHDR) {
            have_phdr = 1;
            if (!asmstore__in_load(&e, h.vaddr, h.filesz) || h.offset != e.phoff)
                return asmstore__rule(v, 6, "PT_PHDR not inside a PT_LOAD", h.offset);
        }
    }
    if (nload == 0) return asmstore__rule(v, 7, "no PT_LOAD", 0);
    if (!have_phdr) {
        asmstore__phdr first;
        memset(&first, 0, sizeof first);
        for (i = 0; i < e.phnum; i++) { asmstore__elf_phdr(&e, i, &first); if (first.type == ASMSTORE__PT_LOAD) break; }
        if (first.offset != 0 || !asmstore__in_load(&e, first.vaddr + e.phoff, (uint64_t)e.phnum * e.phentsize))
            return asmstore__rule(v, 6, "no PT_PHDR and the first PT_LOAD does not cover the program headers", 0);
    }
    /* rule 2: exactly one SHT_DYNAMIC, equal to PT_DYNAMIC */
    for (i = 1; i < e.shnum; i++) {
        asmstore__elf_shdr(&e, i, &s);
        if (s.type == ASMSTORE__SHT_DYNAMIC) { if (!ndynsec) { dynsec = s; dynidx = i; } ndynsec++; }
    }
    if (ndynsec != 1) return asmstore__rule(v, 2, "not exactly one SHT_DYNAMIC section", 0);
    if (!have_dynph) return asmstore__rule(v, 2, "no PT_DYNAMIC", 0);
    if (dynsec.offset != dynph.offset || dynsec.size != dynph.filesz) return asmstore__rule(v, 2, ".dynamic section differs from PT_DYNAMIC", dynsec.offset);
    if (dynsec.offset % wa || !asmstore__range_ok(dynsec.offset, dynsec.size, e.size)) return asmstore__rule(v, 2, ".dynamic misaligned or outside the file", dynsec.offset);
    if (!asmstore__in_load(&e, dynph.vaddr, dynph.filesz)) return asmstore__rule(v, 2, "PT_DYNAMIC not inside a PT_LOAD", dynph.offset);
    if (dynsec.link == 0 || dynsec.link >= e.shnum) return asmstore__rule(v, 2, ".dynamic sh_link out of range", 0);
    asmstore__elf_shdr(&e, dynsec.link, &strsec);
    if (strsec.type != ASMSTORE__SHT_STRTAB || !asmstore__range_ok(strsec.offset, strsec.size, e.size))
        return asmstore__rule(v, 2, ".dynamic sh_link is not an in-file SHT_STRTAB", 0);
    (void)dynidx;
    /* walk the dynamic table; DT_NULL must come within sh_size (rule 2), tags checked (rule 5) */
    ndyn = dynsec.size / dynsz;
    for (k = 0; k < ndyn; k++) {
        const unsigned char *q = e.p + dynsec.offset + k * dynsz;
        uint64_t tag = asmstore__rdw(q, e.is64), val = asmstore__rdw(q + wa, e.is64);
        if (tag == ASMSTORE__DT_NULL) break;
        switch (tag) {
        case ASMSTORE__DT_HASH: hash = val; have_hash = 1; break;
        case ASMSTORE__DT_STRTAB: strtab = val; break;
        case ASMSTORE__DT_SYMTAB: symtab = val; break;
        case ASMSTORE__DT_STRSZ: strsz = val; have_strsz = 1; break;
        case ASMSTORE__DT_SYMENT: if (val != symsz) return asmstore__rule(v, 5, "DT_SYMENT is not sizeof(Sym)", dynsec.offset + k * dynsz); break;
        case ASMSTORE__DT_SONAME: soname = val; have_soname = 1; break;
        case ASMSTORE__DT_GNU_HASH: break;
        case ASMSTORE__DT_FLAGS: if (val & ASMSTORE__DF_TEXTREL) return asmstore__rule(v, 5, "DF_TEXTREL set", dynsec.offset + k * dynsz); break;
        case ASMSTORE__DT_TEXTREL: return asmstore__rule(v, 5, "DT_TEXTREL present", dynsec.offset + k * dynsz);
        case ASMSTORE__DT_NEEDED: return asmstore__rule(v, 5, "DT_NEEDED present", dynsec.offset + k * dynsz);
        default: return asmstore__rule(v, 5, "unknown dynamic tag (bionic warns)", dynsec.offset + k * dynsz);
        }
    }
    if (k == ndyn) return asmstore__rule(v, 2, "no DT_NULL within .dynamic", dynsec.offset);
    /* rule 4: strings */
    if (!have_strsz || strsz == 0) return asmstore__rule(v, 4, "DT_STRSZ missing (bionic aborts on the first name lookup)", 0);
    if (strsz > strsec.size) return asmstore__rule(v, 4, "DT_STRSZ larger than the .dynstr section", 0);
    if (strtab != strsec.addr || !asmstore__in_load(&e, strtab, strsz)) return asmstore__rule(v, 4, "DT_STRTAB not the .dynstr address or not loaded", 0);
    if (have_soname && soname >= strsz) return asmstore__rule(v, 4, "DT_SONAME index out of DT_STRSZ", 0);
    /* rule 3: DT_HASH with nbucket >= 1, nchain == .dynsym count */
    for (i = 1; i < e.shnum; i++) { asmstore__elf_shdr(&e, i, &symsec); if (symsec.type == ASMSTORE__SHT_DYNSYM) break; }
    if (i == e.shnum) return asmstore__rule(v, 4, "no .dynsym section", 0);
    if (!asmstore__range_ok(symsec.offset, symsec.size, e.size) || symsec.size % symsz) return asmstore__rule(v, 4, ".dynsym outside the file or not a whole number of symbols", symsec.offset);
    if (symtab != symsec.addr || !asmstore__in_load(&e, symtab, symsec.size)) return asmstore__rule(v, 4, "DT_SYMTAB not the .dynsym address or not loaded", 0);
    nsyms = symsec.size / symsz;
    if (!have_hash) return asmstore__rule(v, 3, "DT_HASH missing (Android 5 needs it)", 0);
    for (i = 1; i < e.shnum; i++) { asmstore__elf_shdr(&e, i, &s); if (s.type == ASMSTORE__SHT_HASH) break; }
    if (i == e.shnum || s.addr != hash) return asmstore__rule(v, 4, "DT_HASH does not point at the .hash section", 0);
    if (!asmstore__in_load(&e, hash, 8) || !asmstore__range_ok(s.offset, 8, e.size))
        return asmstore__rule(v, 3, "DT_HASH not loaded", 0);
    {
        uint32_t nbucket = asmstore__rd32(e.p + s.offset), nchain = asmstore__rd32(e.p + s.offset + 4);
        if (nbucket == 0) return asmstore__rule(v, 3, "DT_HASH nbucket is 0", s.offset);
        if (nchain != nsyms) return asmstore__rule(v, 3, "DT_HASH nchain differs from the .dynsym count", s.offset + 4);
        if (!asmstore__range_ok(s.offset, 8u + 4u * ((uint64_t)nbucket + nchain), e.size) ||
            !asmstore__in_load(&e, hash, 8u + 4u * ((uint64_t)nbucket + nchain)))
            return asmstore__rule(v, 3, "DT_HASH table outside the loaded file", s.offset);
    }
    /* rule 4: every st_name < DT_STRSZ */
    for (k = 0; k < nsyms; k++) {
        asmstore__sym y;
        asmstore__elf_sym(&e, symsec.offset, k, &y);
        if (y.name >= strsz) return asmstore__rule(v, 4, "st_name out of DT_STRSZ", symsec.offset + k * symsz);
    }
    /* rules 10 / 11: the payload */
    memset(&info, 0, sizeof info);
    res = asmstore_elf_payload(elf, size, symbol, &pl, &pls, &info);
    if (res == ASMSTORE_ERR_NO_PAYLOAD) return asmstore__rule(v, 10, "neither the symbol nor a payload section", 0);
    if (res != ASMSTORE_OK) return asmstore__rule(v, info.kind == ASMSTORE_ELF_SECTION ? 11 : 10, "payload symbol or section malformed", 0);
    if (info.kind == ASMSTORE_ELF_SYMBOL) {
        asmstore__sym y;
        asmstore__shdr ps;
        const char *want = symbol ? symbol : ASMSTORE_ELF_DEFAULT_SYMBOL;
        for (k = 1; k < nsyms; k++) {
            asmstore__elf_sym(&e, symsec.offset, k, &y);
            if (asmstore__elf_str_eq(&e, strsec.offset, strsz, y.name, want, strlen(want))) break;
        }
        if (k == nsyms) return asmstore__rule(v, 10, "symbol not in the .dynsym DT_SYMTAB points at", 0);
        asmstore__elf_shdr(&e, y.shndx, &ps);
        if ((y.info >> 4) != ASMSTORE__STB_GLOBAL || (y.info & 15u) != ASMSTORE__STT_OBJECT || (y.other & 3u) != 0)
            return asmstore__rule(v, 10, "symbol is not GLOBAL OBJECT DEFAULT", symsec.offset + k * symsz);
        if (y.value != ps.addr || y.value == 0) return asmstore__rule(v, 10, "st_value is not the payload section address", symsec.offset + k * symsz);
        if (y.size != ps.size || y.size == 0) return asmstore__rule(v, 10, "st_size is not the payload size", symsec.offset + k * symsz);
        if (!(ps.flags & ASMSTORE__SHF_ALLOC) || ps.offset != ps.addr || !asmstore__in_load(&e, ps.addr, ps.size))
            return asmstore__rule(v, 10, "payload section not loaded at its file offset", ps.offset);
    } else {
        asmstore__shdr ps;
        asmstore__elf_shdr(&e, info.section_index, &ps);
        if (ps.flags & ASMSTORE__SHF_ALLOC) return asmstore__rule(v, 11, "legacy payload section is SHF_ALLOC", ps.offset);
        if (ps.offset % 16384u) return asmstore__rule(v, 11, "legacy payload section offset not 16 KiB-aligned", ps.offset);
        for (i = 0; i < e.phnum; i++) {
            asmstore__elf_phdr(&e, i, &h);
            if (h.type == ASMSTORE__PT_LOAD && ps.offset < h.offset + h.filesz && h.offset < ps.offset + ps.size)
                return asmstore__rule(v, 11, "legacy payload section inside a PT_LOAD", ps.offset);
        }
    }
    /* rule 12: the APK entry */
    if (apk_entry) {
        if (apk_entry->method != 0) return asmstore__rule(v, 12, "APK entry is not STORED", apk_entry->lfh_offset);
        if (apk_entry->data_offset % 16384u) return asmstore__rule(v, 12, "APK entry data not 16 KiB-aligned", apk_entry->data_offset);
    }
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_ELF */

/* >>zip --------------------------------------------------------------------------------- */
#define ASMSTORE__ZIP_LFH 0x04034b50u
#define ASMSTORE__ZIP_CDH 0x02014b50u
#define ASMSTORE__ZIP_EOCD 0x06054b50u
#define ASMSTORE__ZIP64_LOC 0x07064b50u
#define ASMSTORE__ZIP64_EOCD 0x06064b50u

typedef struct asmstore__zip {
    const unsigned char *p;
    uint64_t size, cd_off, cd_size, n_total;
    int zip64;
} asmstore__zip;

/* EOCD (+ ZIP64) -> central directory range. */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_open(asmstore__zip *z, const void *data, size_t size, asmstore_error *err) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t lo, e;
    memset(z, 0, sizeof *z);
    z->p = p;
    z->size = size;
    if (!p || size < 22) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, 0, -1, 0);
    lo = size > 22u + 65535u ? size - 22u - 65535u : 0;
    for (e = size - 22;; e--) {
        const unsigned char *q = p + e;
        if (asmstore__rd32(q) == ASMSTORE__ZIP_EOCD && e + 22u + asmstore__rd16(q + 20) == size) {
            uint64_t n_disk = asmstore__rd16(q + 8), n_total = asmstore__rd16(q + 10);
            uint64_t cd_size = asmstore__rd32(q + 12), cd_off = asmstore__rd32(q + 16), cd_end_want = e;
            int disk = asmstore__rd16(q + 4) != 0 || asmstore__rd16(q + 6) != 0;
            int zip64 = 0;
            if (e >= 20 && asmstore__rd32(p + e - 20) == ASMSTORE__ZIP64_LOC) {
                uint64_t z64 = asmstore__rd64(p + e - 12);
                if (z64 <= e - 20 && e - 20 - z64 >= 56 && asmstore__rd32(p + z64) == ASMSTORE__ZIP64_EOCD &&
                    asmstore__rd32(p + e - 16) == 0) {
                    const unsigned char *r = p + z64;
                    n_disk = asmstore__rd64(r + 24); n_total = asmstore__rd64(r + 32);
                    cd_size = asmstore__rd64(r + 40); cd_off = asmstore__rd64(r + 48);
                    disk = asmstore__rd32(r + 16) != 0 || asmstore__rd32(r + 20) != 0;
                    cd_end_want = z64;
                    zip64 = 1;
                }
            }
            if (!zip64 && (cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu)) {
                if (e == lo) break;
                continue; /* ZIP64 markers without ZIP64 records: not this one */
            }
            if (cd_off <= cd_end_want && cd_size == cd_end_want - cd_off) {
                if (disk || n_disk != n_total) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, e, -1, 0);
                if (cd_size / 46u < n_total) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, e, -1, 0);
                z->cd_off = cd_off; z->cd_size = cd_size; z->n_total = n_total; z->zip64 = zip64;
                return ASMSTORE_OK;
            }
        }
        if (e == lo) break;
    }
    return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, 0, -1, 0);
}

ASMSTORE__PRIVATE uint64_t asmstore__alignment_of(uint64_t off) {
    uint64_t a = 1;
    while (a < (1u << 20) && off % (a * 2) == 0) a *= 2;
    return a;
}

/* Finds `name` in an opened archive. */
ASMSTORE__PRIVATE asmstore_result asmstore__zip_lookup(const asmstore__zip *z, const char *name, size_t name_len,
                                                       asmstore_zip_entry *out, asmstore_error *err) {
    const unsigned char *cd = z->p + z->cd_off, *hit = NULL;
    uint64_t pos = 0, i, usize = 0, csize = 0, lfh = 0;
    asmstore_zip_entry ent;
    memset(&ent, 0, sizeof ent);
    for (i = 0; i < z->n_total; i++) {
        const unsigned char *q = cd + pos;
        uint64_t n, m, c;
        if (z->cd_size - pos < 46 || asmstore__rd32(q) != ASMSTORE__ZIP_CDH) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, z->cd_off + pos, -1, 0);
        n = asmstore__rd16(q + 28); m = asmstore__rd16(q + 30); c = asmstore__rd16(q + 32);
        if (z->cd_size - pos - 46 < n + m + c) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, z->cd_off + pos, -1, 0);
        if (n == name_len && memcmp(q + 46, name, name_len) == 0) {
            if (hit) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, z->cd_off + pos, -1, 0); /* duplicate name */
            hit = q;
        }
        pos += 46 + n + m + c;
    }
    if (!hit) return asmstore__fail(err, ASMSTORE_ERR_NOT_FOUND, 0, -1, 0);
    {
        const unsigned char *q = hit, *x = hit + 46 + name_len, *xend = x + asmstore__rd16(hit + 30);
        uint64_t lh_n, lh_m, data, cd_pos = (uint64_t)(hit - z->p);
        ent.flags = asmstore__rd16(q + 8);
        ent.method = asmstore__rd16(q + 10);
        ent.crc32 = asmstore__rd32(q + 16);
        csize = asmstore__rd32(q + 20);
        usize = asmstore__rd32(q + 24);
        lfh = asmstore__rd32(q + 42);
        if (asmstore__rd16(q + 34) != 0 && asmstore__rd16(q + 34) != 0xFFFFu) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, cd_pos, -1, 0);
        if (usize == 0xFFFFFFFFu || csize == 0xFFFFFFFFu || lfh == 0xFFFFFFFFu) {
            /* ZIP64 extra (0x0001): only the fields whose 32-bit value is saturated, in order */
            int found = 0;
            while (xend - x >= 4) {
                unsigned id = asmstore__rd16(x), len = asmstore__rd16(x + 2);
                const unsigned char *f = x + 4, *fend;
                if ((size_t)(xend - f) < len) break;
                fend = f + len;
                if (id == 1) {
                    if (usize == 0xFFFFFFFFu) { if (fend - f < 8) break; usize = asmstore__rd64(f); f += 8; }
                    if (csize == 0xFFFFFFFFu) { if (fend - f < 8) break; csize = asmstore__rd64(f); f += 8; }
                    if (lfh == 0xFFFFFFFFu) { if (fend - f < 8) break; lfh = asmstore__rd64(f); }
                    found = 1;
                    break;
                }
                x = fend;
            }
            if (!found) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, cd_pos, -1, 0);
        }
        ent.compressed_size = csize;
        ent.uncompressed_size = usize;
        ent.lfh_offset = lfh;
        ent.zip64 = z->zip64;
        if (lfh > z->cd_off || z->cd_off - lfh < 30 || asmstore__rd32(z->p + lfh) != ASMSTORE__ZIP_LFH)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, lfh, -1, 0);
        lh_n = asmstore__rd16(z->p + lfh + 26);
        lh_m = asmstore__rd16(z->p + lfh + 28);
        data = lfh + 30 + lh_n + lh_m;
        if (lh_n != name_len || data > z->cd_off || memcmp(z->p + lfh + 30, name, name_len) != 0)
            return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, lfh, -1, 0);
        if (csize > z->cd_off - data) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, data, -1, 0);
        ent.data_offset = data;
        ent.alignment = asmstore__alignment_of(data);
        if (out) *out = ent;
        if (ent.flags & 1u) return asmstore__fail(err, ASMSTORE_ERR_ZIP_ENCRYPTED, lfh, -1, 0);
        if (ent.method != 0) return asmstore__fail(err, ASMSTORE_ERR_ZIP_COMPRESSED, lfh, -1, 0);
        if (csize != usize) return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, cd_pos, -1, 0);
        if (data % ASMSTORE_ZIP_MIN_ALIGNMENT) return asmstore__fail(err, ASMSTORE_ERR_MISALIGNED, data, -1, 0);
    }
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_zip_find(const void *zip, size_t size, const char *name, size_t name_len,
                                               asmstore_zip_entry *out, asmstore_error *err) {
    asmstore__zip z;
    asmstore_result res;
    if (out) memset(out, 0, sizeof *out);
    if ((!zip && size) || !name || name_len == 0 || name_len > 65535u) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    res = asmstore__zip_open(&z, zip, size, err);
    if (res != ASMSTORE_OK) return res;
    return asmstore__zip_lookup(&z, name, name_len, out, err);
}

/* "lib/<android abi>/libassembly-store.so" into buf (64 bytes); returns the length. */
ASMSTORE__PRIVATE size_t asmstore__store_entry_name(char *buf, asmstore_abi abi) {
    const char *d = asmstore_abi_android_name(abi);
    size_t n = strlen(d);
    memcpy(buf, "lib/", 4);
    memcpy(buf + 4, d, n);
    memcpy(buf + 4 + n, "/libassembly-store.so", 22);
    return 4 + n + 21;
}

ASMSTORE_DEF asmstore_result asmstore_zip_find_store(const void *zip, size_t size, asmstore_abi abi,
                                                     asmstore_abi *found_abi, asmstore_zip_entry *out, asmstore_error *err) {
    static const asmstore_abi order[4] = {ASMSTORE_ABI_ARM64, ASMSTORE_ABI_ARM, ASMSTORE_ABI_X86_64, ASMSTORE_ABI_X86};
    asmstore__zip z;
    asmstore_result res;
    char name[64];
    int i;
    if (out) memset(out, 0, sizeof *out);
    if (found_abi) *found_abi = ASMSTORE_ABI_UNKNOWN;
    if ((!zip && size) || (unsigned)abi > 4u) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    res = asmstore__zip_open(&z, zip, size, err);
    if (res != ASMSTORE_OK) return res;
    for (i = 0; i < 4; i++) {
        asmstore_abi a = abi != ASMSTORE_ABI_UNKNOWN ? abi : order[i];
        size_t n = asmstore__store_entry_name(name, a);
        res = asmstore__zip_lookup(&z, name, n, out, err);
        if (res != ASMSTORE_ERR_NOT_FOUND || abi != ASMSTORE_ABI_UNKNOWN) {
            if (found_abi && res != ASMSTORE_ERR_NOT_FOUND) *found_abi = a;
            return res;
        }
    }
    return res;
}

/* >>locator ----------------------------------------------------------------------------- */
ASMSTORE_DEF void asmstore_locator_close(asmstore_locator *l) {
    if (!l) return;
#ifndef ASMSTORE_NO_LOCATOR
    if (l->dl_handle) dlclose(l->dl_handle);
#endif
#ifndef ASMSTORE_NO_STDIO
    if (l->map) munmap(l->map, l->map_size);
#endif
    memset(l, 0, sizeof *l);
}

#ifndef ASMSTORE_NO_LOCATOR
#if defined(__BIONIC__) || (defined(__GLIBC__) && defined(__USE_GNU))
#define ASMSTORE__HAVE_PHDR_ITER 1
typedef struct asmstore__phdr_find { uintptr_t addr, end; int found; } asmstore__phdr_find;
static int asmstore__phdr_cb(struct dl_phdr_info *info, size_t size, void *data) {
    asmstore__phdr_find *f = (asmstore__phdr_find *)data;
    int i;
    (void)size;
    for (i = 0; i < (int)info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start, end;
        if (ph->p_type != PT_LOAD) continue;
        start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
        end = start + (uintptr_t)ph->p_filesz;
        if (f->addr >= start && f->addr < end) { f->end = end; f->found = 1; return 1; }
    }
    return 0;
}
#endif

ASMSTORE_DEF asmstore_result asmstore_locate_dlopen(asmstore_locator *l, const char *path, const char *symbol,
                                                    asmstore_error *err) {
    void *h, *p;
    const char *msg;
    size_t extent = 0, size = 0;
    if (!l || !path) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    memset(l, 0, sizeof *l);
    if (!symbol) symbol = ASMSTORE_ELF_DEFAULT_SYMBOL;
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        msg = dlerror();
        if (msg) { strncpy(l->error, msg, sizeof l->error - 1); l->error[sizeof l->error - 1] = 0; }
        return asmstore__fail(err, ASMSTORE_ERR_DLOPEN, 0, -1, 0);
    }
    (void)dlerror();
    p = dlsym(h, symbol);
    if (!p) {
        msg = dlerror();
        if (msg) { strncpy(l->error, msg, sizeof l->error - 1); l->error[sizeof l->error - 1] = 0; }
        dlclose(h);
        return asmstore__fail(err, ASMSTORE_ERR_NO_PAYLOAD, 0, -1, 0);
    }
#ifdef ASMSTORE__HAVE_PHDR_ITER
    {
        asmstore__phdr_find f;
        f.addr = (uintptr_t)p; f.end = 0; f.found = 0;
        dl_iterate_phdr(asmstore__phdr_cb, &f);
        if (f.found) extent = (size_t)(f.end - f.addr);
    }
#endif
    if (extent == 0) { dlclose(h); return asmstore__fail(err, ASMSTORE_ERR_UNSUPPORTED, 0, -1, 0); }
    size = extent;
#if defined(__GLIBC__) && defined(__USE_GNU)
    {
        Dl_info di;
        void *symp = NULL;
        if (dladdr1(p, &di, &symp, RTLD_DL_SYMENT) && symp && di.dli_saddr == p && di.dli_sname && !strcmp(di.dli_sname, symbol)) {
            const ElfW(Sym) *sym = (const ElfW(Sym) *)symp;
            if ((uint64_t)sym->st_size > (uint64_t)extent) { dlclose(h); return asmstore__fail(err, ASMSTORE_ERR_BAD_ELF, 0, -1, 0); }
            if (sym->st_size) size = (size_t)sym->st_size;
        }
    }
#endif
    l->data = p;
    l->size = size;
    l->via = ASMSTORE_VIA_DLOPEN;
    l->wrapper = ASMSTORE_ELF_SYMBOL;
    l->dl_handle = h;
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_LOCATOR */

#ifndef ASMSTORE_NO_STDIO
/* Maps [off, off+len) of fd read-only, page-rounded; *base gets the byte at off. */
ASMSTORE__PRIVATE asmstore_result asmstore__map_range(asmstore_locator *l, int fd, uint64_t off, uint64_t len, const unsigned char **base) {
    long pg = sysconf(_SC_PAGESIZE);
    uint64_t page = pg > 0 ? (uint64_t)pg : 4096u, start = off - off % page, mlen = len + (off - start);
    void *m;
    if (len == 0) return ASMSTORE_ERR_NO_PAYLOAD;
    if (mlen > (uint64_t)SIZE_MAX || start > (uint64_t)INT64_MAX || (uint64_t)(off_t)start != start) return ASMSTORE_ERR_TOO_LARGE;
    m = mmap(NULL, (size_t)mlen, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
    if (m == MAP_FAILED) return ASMSTORE_ERR_IO;
    l->map = m;
    l->map_size = (size_t)mlen;
    *base = (const unsigned char *)m + (off - start);
    return ASMSTORE_OK;
}

/* Payload inside bytes [p, p+n) that came from file offset `at`: ELF (either kind) or raw. */
ASMSTORE__PRIVATE asmstore_result asmstore__locate_inner(asmstore_locator *l, const unsigned char *p, size_t n, uint64_t at,
                                                         const char *symbol) {
    if (n >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') {
        asmstore_elf_info info;
        const void *pl;
        size_t pls;
        asmstore_result res = asmstore_elf_payload(p, n, symbol, &pl, &pls, &info);
        if (res != ASMSTORE_OK) return res;
        l->data = pl; l->size = pls; l->wrapper = info.kind;
        if (l->abi == ASMSTORE_ABI_UNKNOWN) l->abi = info.abi;
        l->file_offset = at + info.payload_offset;
        return ASMSTORE_OK;
    }
    l->data = p; l->size = n; l->wrapper = ASMSTORE_ELF_NONE; l->file_offset = at;
    return ASMSTORE_OK;
}

/* Opens one APK and locates the store entry; 0 on success with l filled. */
ASMSTORE__PRIVATE asmstore_result asmstore__locate_apk_one(asmstore_locator *l, const char *path, asmstore_abi abi,
                                                           const char *symbol, asmstore_error *err) {
    struct stat st;
    int fd;
    void *whole;
    asmstore_zip_entry ent;
    asmstore_abi found = ASMSTORE_ABI_UNKNOWN;
    asmstore_result res;
    const unsigned char *base;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return asmstore__fail(err, errno == ENOENT ? ASMSTORE_ERR_NOT_FOUND : ASMSTORE_ERR_IO, 0, -1, errno);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) { close(fd); return asmstore__fail(err, ASMSTORE_ERR_BAD_ZIP, 0, -1, 0); }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) { close(fd); return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0); }
    /* scan through a read-only mapping: only the directory and the local header pages are touched */
    whole = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (whole == MAP_FAILED) { close(fd); return asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, errno); }
    res = asmstore_zip_find_store(whole, (size_t)st.st_size, abi, &found, &ent, err);
    munmap(whole, (size_t)st.st_size);
    l->entry = ent;
    if (res != ASMSTORE_OK) { close(fd); return res; }
    res = asmstore__map_range(l, fd, ent.data_offset, ent.compressed_size, &base);
    close(fd);
    if (res != ASMSTORE_OK) return asmstore__fail(err, res, ent.data_offset, -1, 0);
    l->via = ASMSTORE_VIA_APK;
    l->abi = found;
    res = asmstore__locate_inner(l, base, (size_t)ent.compressed_size, ent.data_offset, symbol);
    if (res != ASMSTORE_OK) { munmap(l->map, l->map_size); l->map = NULL; l->map_size = 0; return asmstore__fail(err, res, ent.data_offset, -1, 0); }
    return ASMSTORE_OK;
}

ASMSTORE_DEF asmstore_result asmstore_locate_apk(asmstore_locator *l, const char *path, asmstore_abi abi,
                                                 const char *symbol, asmstore_error *err) {
    static const asmstore_abi order[4] = {ASMSTORE_ABI_ARM64, ASMSTORE_ABI_ARM, ASMSTORE_ABI_X86_64, ASMSTORE_ABI_X86};
    size_t n;
    const char *slash;
    if (!l || !path || (unsigned)abi > 4u) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    memset(l, 0, sizeof *l);
    n = strlen(path);
    slash = strrchr(path, '/');
    if (!strcmp(slash ? slash + 1 : path, "base.apk") && n < 4000) {
        /* split APKs: <dir>/split_config.<abi_underscored>.apk first */
        char split[4096 + 64];
        size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
        int i;
        for (i = 0; i < 4; i++) {
            asmstore_abi a = abi != ASMSTORE_ABI_UNKNOWN ? abi : order[i];
            const char *an = asmstore_abi_android_name(a);
            size_t k, m = strlen(an);
            struct stat st;
            memcpy(split, path, dir);
            memcpy(split + dir, "split_config.", 13);
            for (k = 0; k < m; k++) split[dir + 13 + k] = an[k] == '-' ? '_' : an[k];
            memcpy(split + dir + 13 + m, ".apk", 5);
            if (stat(split, &st) == 0 && asmstore__locate_apk_one(l, split, a, symbol, NULL) == ASMSTORE_OK) {
                l->from_split = 1;
                return ASMSTORE_OK;
            }
            asmstore_locator_close(l);
            if (abi != ASMSTORE_ABI_UNKNOWN) break;
        }
    }
    return asmstore__locate_apk_one(l, path, abi, symbol, err);
}

ASMSTORE_DEF asmstore_result asmstore_locate_file(asmstore_locator *l, const char *path, const char *symbol,
                                                  asmstore_error *err) {
    struct stat st;
    int fd;
    const unsigned char *base;
    asmstore_result res;
    if (!l || !path) return asmstore__fail(err, ASMSTORE_ERR_INVALID_ARG, 0, -1, 0);
    memset(l, 0, sizeof *l);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return asmstore__fail(err, errno == ENOENT ? ASMSTORE_ERR_NOT_FOUND : ASMSTORE_ERR_IO, 0, -1, errno);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return asmstore__fail(err, ASMSTORE_ERR_IO, 0, -1, 0); }
    if (st.st_size == 0) { close(fd); return asmstore__fail(err, ASMSTORE_ERR_TRUNCATED, 0, -1, 0); }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX) { close(fd); return asmstore__fail(err, ASMSTORE_ERR_TOO_LARGE, 0, -1, 0); }
    res = asmstore__map_range(l, fd, 0, (uint64_t)st.st_size, &base);
    close(fd);
    if (res != ASMSTORE_OK) return asmstore__fail(err, res, 0, -1, 0);
    l->via = ASMSTORE_VIA_FILE;
    if (st.st_size >= 4 && base[0] == 'P' && base[1] == 'K' && base[2] == 3 && base[3] == 4) {
        asmstore_locator_close(l);
        return asmstore_locate_apk(l, path, ASMSTORE_ABI_UNKNOWN, symbol, err);
    }
    res = asmstore__locate_inner(l, base, (size_t)st.st_size, 0, symbol);
    if (res != ASMSTORE_OK) { asmstore_locator_close(l); return asmstore__fail(err, res, 0, -1, 0); }
    return ASMSTORE_OK;
}
#endif /* ASMSTORE_NO_STDIO */

#ifdef __cplusplus
}
#endif
#endif /* ASMSTORE_ELF_PART_IMPLEMENTATION_INCLUDED */
#endif /* ASMSTORE_IMPLEMENTATION */
