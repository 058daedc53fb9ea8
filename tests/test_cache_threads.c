/* tests/test_cache_threads.c - many threads on one asmstore_cache: concurrent misses and hits of the
   same entries, flush and stats from other threads, close with work still queued, images that
   outlive the cache. Built twice: plainly (make test) and with -fsanitize=thread (mk/cache.mk). */
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#include "../asmstore_cache.h"
#include "test.h"
#include "cache_util.h"

#include <pthread.h>

#define NTHREADS 8

typedef struct worker {
    asmstore_cache *c;
    const cu_store *s;
    int id, rounds, wrong, hits, misses, flusher;
    uint32_t only;          /* UINT32_MAX: every entry; else just this index */
} worker;

static void *worker_main(void *p) {
    worker *w = (worker *)p;
    int r;
    size_t k;
    for (r = 0; r < w->rounds; r++) {
        for (k = 0; k < w->s->n; k++) {
            /* each thread walks the entries in its own order */
            uint32_t i = w->only != UINT32_MAX ? w->only : (uint32_t)((k * 7 + (size_t)w->id * 5 + (size_t)r) % w->s->n);
            asmstore_entry e;
            asmstore_cache_image img;
            if (asmstore_reader_entry(&w->s->r, i, &e, NULL) != ASMSTORE_OK || asmstore_cache_get(w->c, &e, &img, NULL) != ASMSTORE_OK) {
                w->wrong++;
                continue;
            }
            if (img.size != w->s->src_size[i] || memcmp(img.data, w->s->src[i], img.size) != 0) w->wrong++;
            if (img.source == ASMSTORE_CACHE_HIT) w->hits++;
            if (img.source == ASMSTORE_CACHE_MISS) w->misses++;
            /* images are private: writing one never shows in another */
            if (img.writable && img.size) ((unsigned char *)(uintptr_t)img.data)[img.size - 1] ^= 0x5A;
            asmstore_cache_release(&img);
            if (w->only != UINT32_MAX) break;
        }
        if (w->flusher && r % 3 == 0) {
            asmstore_cache_counters n;
            asmstore_cache_flush(w->c);
            asmstore_cache_stats(w->c, &n);
        }
    }
    return NULL;
}

static int run_threads(asmstore_cache *c, const cu_store *s, int rounds, uint32_t only, int *hits, int *misses) {
    pthread_t t[NTHREADS];
    worker w[NTHREADS];
    int i, wrong = 0;
    for (i = 0; i < NTHREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].c = c; w[i].s = s; w[i].id = i; w[i].rounds = rounds; w[i].only = only; w[i].flusher = i < 2;
        pthread_create(&t[i], NULL, worker_main, &w[i]);
    }
    for (i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        wrong += w[i].wrong;
        *hits += w[i].hits;
        *misses += w[i].misses;
    }
    return wrong;
}

static const size_t sizes[] = {20000, 3000, 90000, 500, 45000};

static void test_threads_share_one_cache(void) {
    cu_store s;
    char *root = cu_tmpdir();
    asmstore_cache *c = NULL;
    asmstore_cache_counters n;
    int hits = 0, misses = 0, rounds = 6;
    CHECK(cu_synthetic(&s, 4, 20, sizes, 5, 31) == 0);
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    CHECK_EQ_INT(run_threads(c, &s, rounds, UINT32_MAX, &hits, &misses), 0);
    asmstore_cache_flush(c);
    asmstore_cache_stats(c, &n);
    CHECK_EQ_INT(hits + misses, NTHREADS * rounds * 20);
    CHECK_EQ_INT((int)(n.hits + n.misses), hits + misses);
    CHECK(n.entries_written >= 20);
    CHECK_EQ_INT(n.write_failures, 0);
    CHECK(hits > 0);
    asmstore_cache_close(c);
    /* a fresh cache object: everything hits */
    hits = misses = 0;
    CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
    CHECK_EQ_INT(run_threads(c, &s, 2, UINT32_MAX, &hits, &misses), 0);
    CHECK_EQ_INT(misses, 0);
    /* pack hits are slices of one mapping, lent, written and given back by 8 threads at once */
    asmstore_cache_stats(c, &n);
    CHECK(n.pack_hits > 0);
    asmstore_cache_close(c);
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* Eight threads miss the same cold entry at once: right bytes everywhere, one valid file. */
static void test_same_entry_at_once(void) {
    static const size_t big[] = {600000};
    cu_store s;
    char *root = cu_tmpdir(), path[4096];
    asmstore_cache *c = NULL;
    asmstore_cache_counters n;
    int hits = 0, misses = 0, rep;
    CHECK(cu_synthetic(&s, 3, 1, big, 1, 41) == 0);
    for (rep = 0; rep < 3; rep++) {
        cu_rmrf(root);
        CHECK(mkdir(root, 0700) == 0);
        hits = misses = 0;
        CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
        CHECK_EQ_INT(run_threads(c, &s, 1, 0, &hits, &misses), 0);
        asmstore_cache_flush(c);
        asmstore_cache_stats(c, &n);
        CHECK(misses >= 1 && hits + misses == NTHREADS);
        CHECK(n.entries_written >= 1 && n.entries_written <= (uint64_t)misses);
        asmstore_cache_close(c);
        cu_entry_path(path, sizeof path, root, asmstore_cache_store_id(&s.r), 0);
        {
            size_t fs = 0;
            unsigned char *f = cu_slurp(path, &fs);
            asmstore_entry e;
            uint64_t src;
            asmstore_reader_entry(&s.r, 0, &e, NULL);
            src = asmstore_xxh3_64(e.image, e.image_size);
            CHECK(f && asmstore_cache_validate_file(f, fs, asmstore_cache_store_id(&s.r), 0, s.src_size[0], &src, NULL) == ASMSTORE_OK);
            free(f);
        }
    }
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

/* close() with snapshots still queued: no hang, no leak, no thread left; images outlive the cache. */
static void test_close_with_queue_and_images_outlive(void) {
    cu_store s;
    char *root = cu_tmpdir();
    asmstore_cache *c = NULL;
    asmstore_cache_image imgs[20];
    size_t i;
    int rep;
    CHECK(cu_synthetic(&s, 4, 20, sizes, 5, 51) == 0);
    for (rep = 0; rep < 4; rep++) {
        CHECK(asmstore_cache_open(&c, root, &s.r, NULL, NULL) == ASMSTORE_OK);
        for (i = 0; i < s.n; i++) {
            asmstore_entry e;
            asmstore_reader_entry(&s.r, (uint32_t)i, &e, NULL);
            CHECK(asmstore_cache_get(c, &e, &imgs[i], NULL) == ASMSTORE_OK);
        }
        asmstore_cache_close(c);
        for (i = 0; i < s.n; i++) {
            CHECK(imgs[i].size == s.src_size[i] && memcmp(imgs[i].data, s.src[i], imgs[i].size) == 0);
            asmstore_cache_release(&imgs[i]);
        }
    }
    cu_free(&s);
    cu_rmrf(root);
    free(root);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    unsetenv("ASMSTORE_CACHE_DISABLE");
    RUN(test_threads_share_one_cache);
    RUN(test_same_entry_at_once);
    RUN(test_close_with_queue_and_images_outlive);
    return TEST_DONE();
}
