#!/usr/bin/env bash
# tests/t_cross_cache.sh - the cache on big-endian s390x under qemu-user: the threaded cache tests
# and the pure footer tests run there, and cache files cross between s390x and x86_64 both ways
# (the footer is explicit little-endian, so each side hits the other's files).
. "$(dirname "$0")/lib/lib.sh"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror"
cc=s390x-linux-gnu-gcc; q=qemu-s390x
if ! command -v $cc >/dev/null || ! command -v $q >/dev/null; then t_skip s390x "needs $cc and $q (Debian: gcc-s390x-linux-gnu qemu-user)"; t_done; exit; fi
sr="$BUILD/cross/s390x"
if ! "$TOP/tests/lib/cross_sysroot.sh" s390x "$sr" >/dev/null 2>&1; then t_skip s390x "libzstd-dev:s390x or libssl-dev:s390x not downloadable"; t_done; exit; fi
zlib=$(ls "$sr"/root/usr/lib/*/libzstd.a | head -1)
crypto="-DASMSTORE_CLI_CRYPTO -I$sr/root/usr/include -I$sr/root/usr/include/s390x-linux-gnu $(ls "$sr"/root/usr/lib/*/libcrypto.a | head -1)"
inc="$T_TMP/inc"; mkdir -p "$inc"; cp /usr/include/zstd.h /usr/include/zstd_errors.h /usr/include/xxhash.h "$inc/"

if $cc $W -O1 -D_GNU_SOURCE -static -I"$inc" -o "$T_TMP/threads" "$TOP/tests/test_cache_threads.c" "$zlib" -lpthread 2>"$T_TMP/err"; then
  if out=$($q "$T_TMP/threads" 2>&1); then t_ok "s390x: test_cache_threads under $q ($(tail -1 <<<"$out"))"
  else t_fail "s390x: test_cache_threads" "$(grep -E 'FAIL|CHECK' <<<"$out" | head -5)"; fi
else t_fail "s390x: build test_cache_threads" "$(head -5 "$T_TMP/err")"; fi

if $cc $W -O1 -D_GNU_SOURCE -static -I"$inc" -o "$T_TMP/asmstore" "$TOP"/tools/*.c \
     $crypto "$zlib" -lpthread 2>"$T_TMP/err"; then
  mkdir -p "$T_TMP/in"
  seq 1 80000 >"$T_TMP/in/A.dll"; seq 3 11 700000 >"$T_TMP/in/B.dll"; head -c 30000 /dev/urandom >"$T_TMP/in/C.dll"
  "$ASMSTORE" pack --no-check --raw --target net11-preview --runtime monovm -o "$T_TMP/s.store" "$T_TMP/in" 2>/dev/null
  "$ASMSTORE" pack --no-check --raw --target net11-preview --runtime monovm --format 3 -o "$T_TMP/s3.store" "$T_TMP/in" 2>/dev/null
  for st in s s3; do
    $q "$T_TMP/asmstore" load --cache "$T_TMP/be-$st" "$T_TMP/$st.store" --all >"$T_TMP/be1" 2>/dev/null
    "$ASMSTORE" load --cache "$T_TMP/be-$st" "$T_TMP/$st.store" --all >"$T_TMP/le2" 2>/dev/null
    "$ASMSTORE" load --cache "$T_TMP/le-$st" "$T_TMP/$st.store" --all >"$T_TMP/le1" 2>/dev/null
    $q "$T_TMP/asmstore" load --cache "$T_TMP/le-$st" "$T_TMP/$st.store" --all >"$T_TMP/be2" 2>/dev/null
    hashes() { awk '{print $1, $2, $4}' "$1"; }
    if [ "$(awk '{print $3}' "$T_TMP/be1" | sort -u)" = miss ] && [ "$(awk '{print $3}' "$T_TMP/le2" | sort -u)" = hit ] &&
       [ "$(awk '{print $3}' "$T_TMP/be2" | sort -u)" = hit ] && [ "$(wc -l <"$T_TMP/be1")" = 3 ] &&
       diff <(hashes "$T_TMP/be1") <(hashes "$T_TMP/le2") >/dev/null && diff <(hashes "$T_TMP/le1") <(hashes "$T_TMP/be2") >/dev/null &&
       diff <(hashes "$T_TMP/be1") <(hashes "$T_TMP/le1") >/dev/null; then
      t_ok "$st: s390x-written cache files hit on x86_64 and x86_64-written ones hit on s390x, same bytes"
    else t_fail "$st: cross-endian cache files" "$(cat "$T_TMP/be1" "$T_TMP/le2" "$T_TMP/le1" "$T_TMP/be2")"; fi
  done
else t_fail "s390x: build CLI" "$(grep -v dlopen "$T_TMP/err" | head -5)"; fi
t_done
