#!/usr/bin/env bash
# Cross-architecture runs under qemu-user: the core and writer test suites built with Debian's cross gcc for
# s390x (big-endian), aarch64 and armhf (strict alignment), static; the CLI built for each packs the
# same files into the same bytes as the native x86_64 build, and reads stores written on x86_64.
. "$(dirname "$0")/lib/lib.sh"
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror"
if [ -d "$MONO45/Facades" ]; then CORPUS="$MONO45/Facades"; else CORPUS=""; fi
for spec in s390x:s390x-linux-gnu:s390x aarch64:aarch64-linux-gnu:arm64 arm:arm-linux-gnueabihf:armhf; do
  IFS=: read -r qarch triplet debarch <<<"$spec"
  cc=$triplet-gcc; q=qemu-$qarch
  if ! command -v "$cc" >/dev/null || ! command -v "$q" >/dev/null; then t_skip "$debarch" "needs $cc and $q (Debian: gcc-$triplet qemu-user)"; continue; fi
  sr="$BUILD/cross/$debarch"
  if ! "$TOP/tests/lib/cross_sysroot.sh" "$debarch" "$sr"; then t_skip "$debarch" "libzstd-dev:$debarch or libssl-dev:$debarch not downloadable (dpkg --add-architecture $debarch && apt-get update)"; continue; fi
  zlib=$(ls "$sr"/root/usr/lib/*/libzstd.a | head -1)
  # the CLI's SHA-256: the architecture's own libcrypto (its configuration.h is per triplet)
  crypto="-DASMSTORE_CLI_CRYPTO -I$sr/root/usr/include -I$sr/root/usr/include/$triplet"
  crypto="$crypto $(ls "$sr"/root/usr/lib/*/libcrypto.a | head -1)"
  inc="-I$T_TMP/inc"; mkdir -p "$T_TMP/inc"; cp /usr/include/zstd.h /usr/include/zstd_errors.h /usr/include/xxhash.h "$T_TMP/inc/" 2>/dev/null
  for t in test_reader test_writer; do # (test_writer without liblz4 here: its LZ4 cases skip)
    if $cc $W -O1 -D_GNU_SOURCE -static $inc -o "$T_TMP/$t-$debarch" "$TOP/tests/$t.c" "$zlib" -lpthread 2>"$T_TMP/err"; then
      if out=$($q "$T_TMP/$t-$debarch" 2>&1); then t_ok "$debarch: $t under $q ($(tail -1 <<<"$out"))"
      else t_fail "$debarch: $t" "$(grep -E 'FAIL|CHECK' <<<"$out" | head -5)"; fi
    else t_fail "$debarch: build $t" "$(head -5 "$T_TMP/err")"; continue 2; fi
  done
  if [ -n "$CORPUS" ]; then
    if $cc $W -O1 -D_GNU_SOURCE -static $inc -o "$T_TMP/asmstore-$debarch" "$TOP"/tools/*.c $crypto "$zlib" -lpthread 2>"$T_TMP/err"; then
      # uncompressed: every byte of the layout is ours, so it must match x86_64 exactly
      "$ASMSTORE" pack --raw --target net11-preview --runtime monovm --no-compress -o "$T_TMP/native-nc.store" "$CORPUS" 2>/dev/null
      $q "$T_TMP/asmstore-$debarch" pack --raw --target net11-preview --runtime monovm --no-compress -o "$T_TMP/$debarch-nc.store" "$CORPUS" 2>/dev/null
      t_check "$debarch: uncompressed store byte-identical to x86_64 ($(ls "$CORPUS"/*.dll | wc -l) Facades)" cmp "$T_TMP/native-nc.store" "$T_TMP/$debarch-nc.store"
      # compressed: the same except where libzstd itself emits other frames on this CPU (it does on
      # big-endian s390x for a few inputs); either side reads the other's store byte-exact
      "$ASMSTORE" pack --raw --target net11-preview --runtime monovm -o "$T_TMP/native.store" --level 5 --jobs 2 "$CORPUS" 2>/dev/null
      $q "$T_TMP/asmstore-$debarch" pack --raw --target net11-preview --runtime monovm -o "$T_TMP/$debarch.store" --level 5 --jobs 2 "$CORPUS" 2>/dev/null
      if cmp -s "$T_TMP/native.store" "$T_TMP/$debarch.store"; then t_ok "$debarch: zstd store byte-identical to x86_64"
      else
        nd=$(diff <("$ASMSTORE" list "$T_TMP/native.store") <("$ASMSTORE" list "$T_TMP/$debarch.store") | grep -c '^<' || true)
        echo "  note: $debarch libzstd emitted different frames for $nd of $(ls "$CORPUS"/*.dll | wc -l) inputs (zstd's own output, not our layout)"
      fi
      rm -rf "$T_TMP/y-$debarch"
      if "$ASMSTORE" extract "$T_TMP/$debarch.store" -C "$T_TMP/y-$debarch" 2>/dev/null; then
        bad=0; for f in "$CORPUS"/*.dll; do cmp -s "$f" "$T_TMP/y-$debarch/$(basename "$f")" || bad=1; done
        t_check "$debarch-written zstd store reads back byte-exact on x86_64" test $bad = 0
      else t_fail "$debarch: x86_64 extract of $debarch store"; fi
      rm -rf "$T_TMP/x-$debarch"
      if $q "$T_TMP/asmstore-$debarch" verify "$T_TMP/native.store" >/dev/null && $q "$T_TMP/asmstore-$debarch" extract "$T_TMP/native.store" -C "$T_TMP/x-$debarch" 2>/dev/null; then
        bad=0; for f in "$CORPUS"/*.dll; do cmp -s "$f" "$T_TMP/x-$debarch/$(basename "$f")" || bad=1; done
        t_check "$debarch: reads the x86_64-written store, every entry byte-exact" test $bad = 0
      else t_fail "$debarch: verify/extract native store"; fi
    else t_fail "$debarch: build CLI" "$(head -5 "$T_TMP/err")"; fi
  fi
done
t_done
