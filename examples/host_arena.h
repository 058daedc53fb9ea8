/* host_arena.h - the memory a host's cache decompresses into (asmstore_cache_options.allocator):
   one mapping per start, reserved at open for every compressed image of the store twice over (the
   image, and the snapshot a cold start's writer copies), asked for as transparent huge pages, so
   that a start's decompressed images fault 2 MiB at a time where the kernel gives huge pages, not 4
   KiB (issue 43: the faults of a start without a cache were mostly first touches of these buffers).
   Blocks of 64 KiB and more come from it, page-aligned, handed out in order and never reused (a
   start frees little before it exits; what it frees stays reserved, not resident unless it was
   touched); smaller ones, and any once the arena is full, from malloc. ASMSTORE_HOST_ARENA=0 in the
   environment: no arena (every block from malloc). Thread-safe: the cache allocates from the
   runtime's threads and frees from its writer. */
#ifndef HOST_ARENA_H
#define HOST_ARENA_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__GNUC__) || defined(__clang__)
#define HOST_ARENA_DEF static __attribute__((unused)) /* coreclr_host uses host_map_huge alone */
#else
#define HOST_ARENA_DEF static
#endif
#define HOST_ARENA_MIN_BLOCK ((size_t)64 << 10)
#define HOST_ARENA_HUGE      ((size_t)2 << 20)

typedef struct host_arena {
    unsigned char *base; /* NULL: no arena */
    size_t len, used;
    pthread_mutex_t lock;
} host_arena;

/* An anonymous mapping of len bytes (a multiple of 2 MiB), 2 MiB-aligned so that huge pages can
   cover it, asked for as transparent huge pages when huge_pages; reserved only (MAP_NORESERVE).
   NULL when mmap fails. */
HOST_ARENA_DEF unsigned char *host_map_huge(size_t len, int huge_pages) {
    size_t head;
    unsigned char *m = (unsigned char *)mmap(NULL, len + HOST_ARENA_HUGE, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return NULL;
    head =
        (HOST_ARENA_HUGE - (size_t)((uintptr_t)m & (HOST_ARENA_HUGE - 1))) & (HOST_ARENA_HUGE - 1);
    if (head) munmap(m, head);
    if (HOST_ARENA_HUGE - head) munmap(m + head + len, HOST_ARENA_HUGE - head);
#ifdef MADV_HUGEPAGE
    if (huge_pages) (void)madvise(m + head, len, MADV_HUGEPAGE);
#else
    (void)huge_pages;
#endif
    return m + head;
}

HOST_ARENA_DEF void *host_arena_alloc(void *user, size_t size) {
    host_arena *a = (host_arena *)user;
    size_t need = (size + 4095) & ~(size_t)4095;
    void *p = NULL;
    if (a->base && size >= HOST_ARENA_MIN_BLOCK && need >= size) {
        pthread_mutex_lock(&a->lock);
        if (need <= a->len - a->used) {
            p = a->base + a->used;
            a->used += need;
        }
        pthread_mutex_unlock(&a->lock);
    }
    return p ? p : malloc(size ? size : 1);
}

HOST_ARENA_DEF void host_arena_free(void *user, void *ptr, size_t size) {
    host_arena *a = (host_arena *)user;
    uintptr_t p = (uintptr_t)ptr, b = (uintptr_t)a->base;
    (void)size;
    if (a->base && p >= b && p < b + a->len) return; /* reserved until the process exits */
    free(ptr);
}

/* Reserves the arena for the store's compressed images (twice their uncompressed size) and fills
   *out with it; with ASMSTORE_HOST_ARENA=0, or when the reservation fails, *out is malloc's. */
HOST_ARENA_DEF void host_arena_open(host_arena *a, const asmstore_reader *r,
                                    asmstore_allocator *out) {
    const char *off = getenv("ASMSTORE_HOST_ARENA");
    asmstore_entry e;
    size_t total = 0;
    uint32_t i;
    memset(a, 0, sizeof *a);
    memset(out, 0, sizeof *out);
    pthread_mutex_init(&a->lock, NULL);
    if (off && !strcmp(off, "0")) return;
    for (i = 0; i < r->entry_count; i++)
        if (asmstore_reader_entry(r, i, &e, NULL) == ASMSTORE_OK && !e.ignored &&
            e.compression != ASMSTORE_COMPRESSION_NONE && total < SIZE_MAX / 4)
            total += ((e.uncompressed_size + 4095) & ~(size_t)4095) * 2;
    if (total == 0 || total >= SIZE_MAX / 4) return;
    total = (total + HOST_ARENA_HUGE - 1) & ~(HOST_ARENA_HUGE - 1);
    if (!(a->base = host_map_huge(total, 1))) return;
    a->len = total;
    out->alloc = host_arena_alloc;
    out->free = host_arena_free;
    out->user = a;
}

#endif
