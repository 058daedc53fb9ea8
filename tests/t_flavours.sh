#!/usr/bin/env bash
# Build flavours: gcc and clang; C99, C11 and C++11; every warning an error; ASMSTORE_STATIC in two
# translation units linked together; reader-only (no writer, no stdio); no zstd (callback only);
# exported symbols all start with asmstore_ and no XXH* or ZSTD_compress* leaks where it must not.
. "$(dirname "$0")/lib.sh"
W="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror"
WXX="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Werror"
D="$TOP/tests/build"
HDRS="asmstore.h"
for cc in gcc clang; do
  command -v $cc >/dev/null || { t_skip "$cc" "not installed"; continue; }
  cxx=$([ $cc = gcc ] && echo g++ || echo clang++)
  for std in c99 c11; do
    t_check "$cc -std=$std implementation + use, -Werror" \
      sh -c "$cc -std=$std $W -O2 -D_GNU_SOURCE -c $D/impl.c -o $T_TMP/impl-$cc-$std.o && $cc -std=$std $W -O2 -c $D/use_all.c -o $T_TMP/use-$cc-$std.o"
  done
  cp "$D/use_all.c" "$T_TMP/use_all.cpp"; cp "$D/impl.c" "$T_TMP/impl.cpp"
  sed -i "s|../../asmstore|$TOP/asmstore|" "$T_TMP/use_all.cpp" "$T_TMP/impl.cpp"
  t_check "$cxx -std=c++11 implementation + use, -Werror" \
    sh -c "$cxx -std=c++11 $WXX -O2 -D_GNU_SOURCE -c $T_TMP/impl.cpp -o $T_TMP/impl-$cxx.o && $cxx -std=c++11 $WXX -c $T_TMP/use_all.cpp -o $T_TMP/use-$cxx.o"
  t_check "$cc ASMSTORE_STATIC: two static copies link and agree" \
    sh -c "$cc -std=c99 $W -O2 -D_GNU_SOURCE $D/static_a.c $D/static_b.c -o $T_TMP/static-$cc -lzstd -lpthread && $T_TMP/static-$cc"
  t_check "$cc multiple inclusion" \
    sh -c "$cc -std=c99 $W -D_GNU_SOURCE $D/multi_include.c -o $T_TMP/multi-$cc -lzstd -lpthread && $T_TMP/multi-$cc"
  t_check "$cc reader-only build (ASMSTORE_NO_WRITER + ASMSTORE_NO_STDIO + ASMSTORE_NO_ELF + ASMSTORE_NO_LOCATOR)" \
    $cc -std=c99 $W -O2 -DASMSTORE_NO_WRITER -DASMSTORE_NO_STDIO -DASMSTORE_NO_ELF -DASMSTORE_NO_LOCATOR -c $D/impl.c -o "$T_TMP/ro-$cc.o"
  t_check "$cc on-device build (reader + locators: ASMSTORE_NO_WRITER + ASMSTORE_NO_ELF)" \
    $cc -std=c99 $W -O2 -DASMSTORE_NO_WRITER -DASMSTORE_NO_ELF -c $D/impl.c -o "$T_TMP/dev-$cc.o"
  t_check "$cc strict -std=c99 without -D_GNU_SOURCE (the header sets it)" \
    $cc -std=c99 $W -O2 -c $D/impl.c -o "$T_TMP/strict-$cc.o"
  t_check "$cc no-zstd build (ASMSTORE_NO_ZSTD, no zstd.h needed)" \
    $cc -std=c99 $W -O2 -D_GNU_SOURCE -DASMSTORE_NO_ZSTD -DASMSTORE_ZSTD_HEADER='"/nonexistent/zstd.h"' -c $D/impl.c -o "$T_TMP/nz-$cc.o"
done
# exported symbols
if command -v nm >/dev/null && [ -f "$T_TMP/impl-gcc-c99.o" ]; then
  bad=$(nm -g --defined-only "$T_TMP/impl-gcc-c99.o" | awk '{print $3}' | grep -v '^asmstore_' || true) # both headers
  if [ -z "$bad" ]; then t_ok "every exported symbol starts with asmstore_"; else t_fail "exported symbols" "$bad"; fi
  xx=$(nm -g --defined-only "$T_TMP/impl-gcc-c99.o" | awk '{print $3}' | grep -E '^_?(XXH|xxh)' || true)
  if [ -z "$xx" ]; then t_ok "no XXH* symbol leaks (xxhash inlined)"; else t_fail "XXH leak" "$xx"; fi
  if [ -f "$T_TMP/ro-gcc.o" ]; then
    und=$(nm -u "$T_TMP/ro-gcc.o" | grep -E 'ZSTD_compress|ZSTD_createCCtx|fopen|open$|mmap|dlopen|pthread_create' || true)
    if [ -z "$und" ]; then t_ok "reader-only object needs no compressor, stdio or threads"; else t_fail "reader-only references" "$und"; fi
  fi
  if [ -f "$T_TMP/nz-gcc.o" ]; then
    und=$(nm -u "$T_TMP/nz-gcc.o" | grep ZSTD_ || true)
    if [ -z "$und" ]; then t_ok "no-zstd object references no ZSTD_ symbol"; else t_fail "no-zstd references" "$und"; fi
  fi
fi
t_done
