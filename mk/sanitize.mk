# Sanitizer flavours of every C test (SANITIZE_TESTS, run by `make test`):
#   build/asan/test_*  ASan + UBSan, -fno-sanitize-recover=all (every test)
#   build/tsan/test_*  TSan for the tests that run threads (the writer's workers, the cache's writer)
SAN_FLAGS  = -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE
TSAN_TESTS = $(filter $(patsubst %,tests/%.c,test_reader test_writer test_cache test_app_load),$(TEST_C))

$(B)/asan $(B)/tsan:
	mkdir -p $@

$(B)/asan/test_%: tests/test_%.c tests/test.h tests/fixture.h $(HEADERS) | $(B)/asan
	$(CC) $(STD) $(WARN) $(SAN_FLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all $(CLI_DEFS) -o $@ $< $(LIBS) $(CLI_LIBS) -ldl

$(B)/tsan/test_%: tests/test_%.c tests/test.h tests/fixture.h $(HEADERS) | $(B)/tsan
	$(CC) $(STD) $(WARN) $(SAN_FLAGS) -fsanitize=thread $(CLI_DEFS) -o $@ $< $(LIBS) $(CLI_LIBS) -ldl

SANITIZE_TESTS = $(patsubst tests/%.c,$(B)/asan/%,$(TEST_C)) $(patsubst tests/%.c,$(B)/tsan/%,$(TSAN_TESTS))
