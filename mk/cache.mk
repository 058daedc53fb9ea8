# Cache (asmstore_cache.h): a ThreadSanitizer build of the threaded cache tests (CACHE_TESTS, run by
# `make test`), and the cache benchmark.
#   make tsan-cache     build + run tests/test_cache_threads.c under -fsanitize=thread
#   make bench-cache    tests/bench/bench_cache.c over /usr/lib/mono/4.5 + Facades
TSAN_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo $(CC))

$(B)/test_cache_threads_tsan: tests/test_cache_threads.c tests/test.h tests/cache_util.h $(HEADERS) | $(B)
	$(TSAN_CC) $(STD) $(WARN) -O1 -g -fsanitize=thread -D_GNU_SOURCE -o $@ $< $(LIBS)

$(B)/test_cache: tests/cache_util.h
$(B)/test_cache_threads: tests/cache_util.h

CACHE_TESTS = $(B)/test_cache_threads_tsan

.PHONY: tsan-cache bench-cache
tsan-cache: $(B)/test_cache_threads_tsan
	TSAN_OPTIONS=halt_on_error=1 $(B)/test_cache_threads_tsan

$(B)/bench_cache: tests/bench/bench_cache.c tests/cache_util.h $(HEADERS) | $(B)
	$(CC) $(STD) $(WARN) -O2 -g -D_GNU_SOURCE -o $@ $< $(LIBS)

bench-cache: $(B)/bench_cache
	$(B)/bench_cache /usr/lib/mono/4.5 /usr/lib/mono/4.5/Facades
