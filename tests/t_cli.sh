#!/usr/bin/env bash
# The asmstore CLI on real inputs: the Mono 4.5 framework packed in every profile and format and
# extracted back byte-identical, thread-count determinism, verify's exit codes, extract's refusal to
# write outside its directory, and the real .NET 10 stores in ../shared (sha256 of every image
# against EXPECTED.json, computed by Python's hashlib, not by us).
. "$(dirname "$0")/lib/lib.sh"

# --- Mono corpus: a target x runtime x ABI sample, extracted back byte-identical ---
if [ -d "$MONO45" ] && [ -d "$MONO45/Facades" ]; then
  # resolve symlinks once so cmp compares real bytes
  mkdir -p "$T_TMP/src/Facades"
  for f in "$MONO45"/*.dll; do cp -L "$f" "$T_TMP/src/"; done
  for f in "$MONO45"/Facades/*.dll; do cp -L "$f" "$T_TMP/src/Facades/"; done
  n45=$(ls "$T_TMP"/src/*.dll | wc -l); nfac=$(ls "$T_TMP"/src/Facades/*.dll | wc -l)
  # (format 3 with CRC-32, net11's, is checked in the pack --target section below)
  combos="net9:monovm:2:arm64 net10:monovm:3:arm net11-preview:monovm:4:x86_64 net10:coreclr:3:x86 net11-preview:coreclr:4:arm64 net11-preview:coreclr:4:arm"
  for c in $combos; do
    IFS=: read -r tg rt fmt abi <<<"$c"
    out="$T_TMP/$rt-$fmt-$abi.store"
    if "$ASMSTORE" pack --raw -o "$out" --target "$tg" --runtime "$rt" --abi "$abi" --level 1 \
         "$T_TMP/src" "$T_TMP/src/Facades" 2>"$T_TMP/err"; then
      rm -rf "$T_TMP/x"
      if "$ASMSTORE" extract "$out" -C "$T_TMP/x" && "$ASMSTORE" verify "$out" >/dev/null; then
        bad=0
        for f in "$T_TMP"/src/*.dll "$T_TMP"/src/Facades/*.dll; do
          cmp -s "$f" "$T_TMP/x/$(basename "$f")" || { bad=1; echo "    differs: $f"; break; }
        done
        cnt=$(ls "$T_TMP"/x/*.dll | wc -l)
        want=$((n45 + nfac))
        if [ "$bad" = 0 ] && [ "$cnt" = "$want" ]; then t_ok "mono 4.5 + Facades ($want) $rt format $fmt $abi: extract is byte-identical"
        else t_fail "mono 4.5 $rt $fmt $abi" "extracted $cnt of $want, bad=$bad"; fi
        info=$("$ASMSTORE" info --json "$out")
        case "$rt:$fmt:$abi" in
          coreclr:4:*) h=crc32 ;; *:arm64|*:x86_64) h=xxh3-64 ;; *) h=xxh32 ;;
        esac
        if grep -q "\"format\": $fmt," <<<"$info" && grep -q "\"hash\": \"$h\"" <<<"$info"; then t_ok "info reports format $fmt, $h"
        else t_fail "info for $rt $fmt $abi" "$info"; fi
      else t_fail "extract/verify $rt $fmt $abi"; fi
    else t_fail "pack $rt $fmt $abi" "$(cat "$T_TMP/err")"; fi
  done
  # thread count never changes the bytes
  "$ASMSTORE" pack --raw -o "$T_TMP/j1" --jobs 1 --level 19 "$T_TMP/src/Facades" 2>/dev/null
  "$ASMSTORE" pack --raw -o "$T_TMP/j2" --jobs 2 --level 19 "$T_TMP/src/Facades" 2>/dev/null
  t_check "--jobs 1 and --jobs 2 give identical stores" cmp "$T_TMP/j1" "$T_TMP/j2"
  # an unchanged output is left alone (incremental builds stay incremental)
  before=$(stat -c '%i %Y' "$T_TMP/j1"); sleep 1
  "$ASMSTORE" pack --raw -o "$T_TMP/j1" --jobs 2 --level 19 "$T_TMP/src/Facades" 2>/dev/null
  t_check "repacking identical input leaves the file untouched" test "$before" = "$(stat -c '%i %Y' "$T_TMP/j1")"
  # a failed pack leaves the old output intact
  cp "$T_TMP/j1" "$T_TMP/j1.orig"
  "$ASMSTORE" pack --raw -o "$T_TMP/j1" "$T_TMP/src/Facades" "$T_TMP/does-not-exist.dll" 2>/dev/null
  rc=$?
  if [ "$rc" -ne 0 ] && cmp -s "$T_TMP/j1" "$T_TMP/j1.orig"; then t_ok "failed pack exits $rc and keeps the old file"; else t_fail "failed pack" "rc=$rc"; fi
  # inputs are mapped, not read: a .pdb and a .dll.config beside an assembly come back byte for byte,
  # and an input that cannot be mapped (a FIFO) is refused with a reason, the old output intact
  mkdir -p "$T_TMP/comp"; cp "$T_TMP/src/Facades/System.Runtime.dll" "$T_TMP/comp/"
  t_pe --pdb "$T_TMP/comp/System.Runtime.pdb" 3000; echo '<configuration/>' >"$T_TMP/comp/System.Runtime.dll.config"
  "$ASMSTORE" pack --raw --runtime monovm --format 3 --pdb -o "$T_TMP/comp.store" "$T_TMP/comp" 2>/dev/null &&
    "$ASMSTORE" extract "$T_TMP/comp.store" -C "$T_TMP/comp.out" >/dev/null 2>&1
  t_check "pack --pdb: the image, .pdb and .dll.config extract byte for byte" \
    sh -c "cd '$T_TMP/comp' && for f in *; do cmp \"\$f\" '$T_TMP/comp.out/'\"\$f\" || exit 1; done"
  mkfifo "$T_TMP/Pipe.dll"
  "$ASMSTORE" pack --raw -o "$T_TMP/j1" "$T_TMP/src/Facades" "$T_TMP/Pipe.dll" 2>"$T_TMP/err"; rc=$?
  if [ "$rc" = 2 ] && grep -q "Pipe.dll: cannot read it: .*pipe, socket or device" "$T_TMP/err" && cmp -s "$T_TMP/j1" "$T_TMP/j1.orig"
  then t_ok "pack of a FIFO exits 2, says it is not a regular file, keeps the old output"
  else t_fail "pack of a FIFO" "rc=$rc: $(cat "$T_TMP/err")"; fi
  # duplicate names are refused
  if "$ASMSTORE" pack --raw -o "$T_TMP/dup" "$T_TMP/src/Facades" "$T_TMP/src/Facades/System.Runtime.dll" 2>"$T_TMP/err"; then
    t_fail "duplicate name refused"; else grep -q "duplicate" "$T_TMP/err" && t_ok "duplicate name refused with a clear message" || t_fail "duplicate message" "$(cat "$T_TMP/err")"; fi
else
  t_skip "mono corpus" "$MONO45 not installed (Debian: mono-devel)"
fi

# --- load --dlopen: a .so goes through glibc's dlopen; bytes checked against xxhsum of the source files ---
if "$ASMSTORE" --version | grep -q "load --dlopen is not available"; then
  t_skip "load --dlopen" "$ASMSTORE is linked statically (make static): no dlopen"
elif [ -d "$MONO45/Facades" ] && command -v xxhsum >/dev/null; then
  "$ASMSTORE" pack -o "$T_TMP/fac.so" --target net11-preview --runtime monovm --wrap dlopen --abi x86_64 --level 3 "$T_TMP/src/Facades" 2>/dev/null
  LD_DEBUG=files "$ASMSTORE" load --dlopen --cache "$T_TMP/cache" "$T_TMP/fac.so" --all >"$T_TMP/cold" 2>"$T_TMP/ld"
  "$ASMSTORE" load --dlopen --cache "$T_TMP/cache" "$T_TMP/fac.so" --all >"$T_TMP/warm" 2>/dev/null
  # through the descriptor the inert check read: the loader names it /proc/self/fd/N
  if grep -Eq "file=/proc/self/fd/[0-9]+ .*dynamically loaded" "$T_TMP/ld" && ! grep -q "not dlopen'ed" "$T_TMP/ld"; then
    t_ok "load --dlopen opens the .so with glibc's dlopen (LD_DEBUG=files)"
  else t_fail "load via dlopen" "$(grep -m3 file= "$T_TMP/ld")"; fi
  for f in "$T_TMP"/src/Facades/*.dll; do
    echo "$(basename "$f") $(xxhsum -H3 "$f" 2>/dev/null | tr -d '\r' | sed -n 's/.*= \([0-9a-f]\{16\}\).*/\1/p')"
  done | sort >"$T_TMP/want"
  awk '{print $1, $4}' "$T_TMP/cold" | sort >"$T_TMP/got-cold"
  awk '{print $1, $4}' "$T_TMP/warm" | sort >"$T_TMP/got-warm"
  t_check "load, cold: XXH3 of every entry equals xxhsum -H3 of its source file" cmp "$T_TMP/want" "$T_TMP/got-cold"
  t_check "load, warm: the same bytes" cmp "$T_TMP/want" "$T_TMP/got-warm"
  nmiss=$(awk '$3 == "miss"' "$T_TMP/cold" | wc -l); nhit=$(awk '$3 == "hit"' "$T_TMP/warm" | wc -l); n=$(wc -l <"$T_TMP/want")
  t_check "load: cold run all $n misses, warm run all $n hits" test "$nmiss:$nhit" = "$n:$n"
else
  t_skip "load" "needs $MONO45/Facades and xxhsum"
fi

# --- verify exit codes and corruption ---
mkdir -p "$T_TMP/small"
t_pe "$T_TMP/small/A.dll" 5000; t_pe --fill zero "$T_TMP/small/B.dll" 3000
"$ASMSTORE" pack --raw -o "$T_TMP/s.store" --runtime monovm --format 3 "$T_TMP/small" 2>/dev/null
"$ASMSTORE" verify "$T_TMP/s.store" >/dev/null; t_check "verify: valid store exits 0" test $? = 0
sz=$(stat -c %s "$T_TMP/s.store")
cp "$T_TMP/s.store" "$T_TMP/bad.store"
printf '\xff\xff\xff\xff' | dd of="$T_TMP/bad.store" bs=1 seek=$((sz - 20)) conv=notrunc 2>/dev/null
"$ASMSTORE" verify "$T_TMP/bad.store" >"$T_TMP/out"; rc=$?
if [ $rc = 1 ] && grep -q "entry" "$T_TMP/out"; then t_ok "verify: damaged frame exits 1 and names the entry"; else t_fail "verify damaged" "rc=$rc $(cat "$T_TMP/out")"; fi
"$ASMSTORE" verify "$T_TMP/missing" >/dev/null 2>&1; t_check "verify: missing file exits 2" test $? = 2
"$ASMSTORE" verify >/dev/null 2>&1; t_check "verify: usage error exits 2" test $? = 2
head -c 100 /dev/urandom >"$T_TMP/garbage"
"$ASMSTORE" verify "$T_TMP/garbage" >/dev/null 2>&1; t_check "verify: garbage exits 1" test $? = 1

# --- extract never writes outside DIR ---
t_evil_store "$T_TMP/evil.store" # its second entry is named "../AAAA.dll"
mkdir -p "$T_TMP/out1"
"$ASMSTORE" extract "$T_TMP/evil.store" -C "$T_TMP/out1" 2>"$T_TMP/err"; rc=$?
if [ $rc != 0 ] && [ ! -e "$T_TMP/AAAA.dll" ] && [ -f "$T_TMP/out1/aaaaaaa.dll" ] && grep -q refusing "$T_TMP/err"; then
  t_ok "extract refuses ../ names and writes the rest"; else t_fail "extract ../" "rc=$rc $(cat "$T_TMP/err")"; fi
# a symlinked directory inside DIR is not followed
mkdir -p "$T_TMP/sat/fr" "$T_TMP/out2" "$T_TMP/elsewhere"
t_pe --fill sat "$T_TMP/sat/fr/X.resources.dll" 700
"$ASMSTORE" pack --raw --runtime monovm -o "$T_TMP/sat.store" "$T_TMP/sat" 2>/dev/null
ln -s "$T_TMP/elsewhere" "$T_TMP/out2/fr"
"$ASMSTORE" extract "$T_TMP/sat.store" -C "$T_TMP/out2" 2>/dev/null; rc=$?
if [ $rc != 0 ] && [ ! -e "$T_TMP/elsewhere/X.resources.dll" ]; then t_ok "extract does not follow a symlinked directory"; else t_fail "extract symlink" "rc=$rc"; fi
rm "$T_TMP/out2/fr"
"$ASMSTORE" extract "$T_TMP/sat.store" -C "$T_TMP/out2" && cmp -s "$T_TMP/out2/fr/X.resources.dll" "$T_TMP/sat/fr/X.resources.dll"
t_check "satellite fr/X.resources.dll packs and extracts" test $? = 0

# --- pack --target: what each release writes, checked by tests/lib/release_check.py (an independent
#     reading of docs/store-releases.md: python3-xxhash, zlib, python3-lz4, python3-zstandard) ---
PY=/usr/bin/python3
CHK="$TOP/tests/lib/release_check.py"
rel="$T_TMP/rel"; mkdir -p "$rel/src/fr" "$rel/arch"
if [ -d "$MONO45/Facades" ]; then
  for f in System.Runtime System.Collections System.IO System.Threading.Tasks; do cp -L "$MONO45/Facades/$f.dll" "$rel/src/"; done
  for f in System.Linq System.Threading; do cp -L "$MONO45/Facades/$f.dll" "$rel/arch/"; done
else
  for i in 1 2 3 4; do t_pe "$rel/src/Lib$i.dll" $((i * 3000)); done
  for i in 5 6; do t_pe "$rel/arch/Lib$i.dll" $((i * 3000)); done
fi
cp "$rel/src/$(ls "$rel/src" | grep -m1 dll)" "$rel/src/fr/App.resources.dll"
if ! $PY -c 'import lz4.block, xxhash, zstandard' 2>/dev/null; then
  t_skip "pack --target" "needs python3-lz4, python3-xxhash, python3-zstandard (Debian)"
elif ! "$ASMSTORE" pack --target net10 --raw -o "$T_TMP/probe" "$rel/src" 2>/dev/null; then
  t_skip "pack --target" "CLI built without liblz4 (Debian: liblz4-dev)"
else
  for tg in net9 net10 net11 net11-preview; do
    for rt in monovm coreclr; do
      [ "$tg:$rt" = net9:coreclr ] && continue
      for abi in arm64 arm x86_64 x86; do
        case $tg in net9) fmt=2 ;; net11-preview) fmt=4 ;; *) fmt=3 ;; esac
        case $tg in net9|net10) magic=XALZ ;; *) magic=XAZS ;; esac
        case $tg:$rt:$abi in net11*:coreclr:*) h=crc32 ;; *:arm64|*:x86_64) h=xxh3 ;; *) h=xxh32 ;; esac
        case $tg:$rt in net11*:coreclr) kind=dlopen ;; *) kind=section ;; esac
        case $abi in arm64) dir=arm64-v8a ;; arm) dir=armeabi-v7a ;; *) dir=$abi ;; esac
        case $tg in net9) file=libassemblies.$dir.blob.so ;; *) file=libassembly-store.so ;; esac
        tw=0; [ $rt:$tg != coreclr:net11 ] && [ $rt = coreclr ] && tw=1   # .NET 11 GA writes no .ni.dll twins
        out="$rel/$tg-$rt-$abi"; mkdir -p "$out"
        "$ASMSTORE" pack --target $tg --runtime $rt --abi $abi --raw -o "$out/raw" "$rel/src" 2>"$T_TMP/err" &&
          "$ASMSTORE" pack --target $tg --runtime $rt --abi $abi -o "$out/" "$rel/src" 2>>"$T_TMP/err"
        if ! $PY "$CHK" store "$out/raw" "$rel/src" $fmt $abi $h $magic $tw >"$T_TMP/out" 2>&1; then
          t_fail "pack --target $tg --runtime $rt --abi $abi" "$(cat "$T_TMP/err"; grep problem "$T_TMP/out" | head -5; tail -2 "$T_TMP/out")"
        elif [ ! -f "$out/$file" ]; then t_fail "pack --target $tg -o DIR/" "no $file in $(ls "$out")"
        elif [ $kind = dlopen ] && ! readelf -W --dyn-syms "$out/$file" | grep -q ' _assembly_store$'; then t_fail "$tg $rt $abi wrapper" "no _assembly_store"
        elif [ $kind = section ] && readelf -W --dyn-syms "$out/$file" | grep -q _assembly_store; then t_fail "$tg $rt $abi wrapper" "dlopen kind, expected stub"
        elif ! readelf -W -S "$out/$file" | grep -q ' payload '; then t_fail "$tg $rt $abi wrapper" "no payload section"
        else t_ok "pack --target $tg --runtime $rt --abi $abi: format $fmt, $h, $magic, twins=$tw; $file, $kind wrapper"; fi
      done
    done
  done
  for tg in net8 net9; do
    "$ASMSTORE" pack --target $tg --runtime coreclr -o "$rel/no" "$rel/src" 2>"$T_TMP/err"; rc=$?
    if [ $rc = 2 ] && grep -q "no coreclr store exists for $tg" "$T_TMP/err" && [ ! -e "$rel/no" ]; then t_ok "pack --target $tg --runtime coreclr refused (no such release)"
    else t_fail "$tg coreclr refused" "rc=$rc $(cat "$T_TMP/err")"; fi
  done
  # .NET 6-8: the store set, common + two ABIs' arch stores; --jobs never changes a byte
  "$ASMSTORE" pack --target net8 --jobs 1 -o "$rel/set1" "$rel/src" --arch arm64 "$rel/arch" --arch x86_64 "$rel/arch" 2>"$T_TMP/err"
  "$ASMSTORE" pack --target net8 --jobs 4 -o "$rel/set4" "$rel/src" --arch x86_64 "$rel/arch" --arch arm64 "$rel/arch" 2>>"$T_TMP/err"
  if $PY "$CHK" set "$rel/set1" "$rel/src" arm64="$rel/arch" x86_64="$rel/arch" >"$T_TMP/out" 2>&1; then
    t_ok "pack --target net8: assemblies.blob, two arch stores, manifest as .NET 6-8 wrote them ($(tail -1 "$T_TMP/out"))"
  else t_fail "pack --target net8" "$(cat "$T_TMP/err"; grep problem "$T_TMP/out" | head -5; tail -2 "$T_TMP/out")"; fi
  t_check "pack --target net8: the same files for --jobs 1 and 4" diff -r "$rel/set1" "$rel/set4"
  t_check "pack --target net8: exactly the four files" test "$(ls "$rel/set1" | tr '\n' ' ')" = "assemblies.arm64_v8a.blob assemblies.blob assemblies.manifest assemblies.x86_64.blob "
  "$ASMSTORE" pack --target net8 --raw -o "$rel/setr" "$rel/src" 2>"$T_TMP/err"
  t_check "pack --target net8 --raw is a usage error" grep -q "format 1 stores are raw files" "$T_TMP/err"
  for tg in net10 net11; do
    "$ASMSTORE" pack --target $tg --raw --jobs 1 -o "$rel/j1-$tg" "$rel/src" "$rel/arch" 2>/dev/null
    "$ASMSTORE" pack --target $tg --raw --jobs 4 -o "$rel/j4-$tg" "$rel/src" "$rel/arch" 2>/dev/null
    t_check "pack --target $tg: --jobs 1 and --jobs 4 give identical stores" cmp "$rel/j1-$tg" "$rel/j4-$tg"
  done
  # the default is net11 coreclr; every flag overrides only its part
  check_flags() { # NAME FORMAT HASH MAGIC TWINS ALIGN -- PACK FLAGS
    local n=$1 f=$2 h=$3 m=$4 c=$5 al=$6; shift 7
    if "$ASMSTORE" pack --raw -o "$rel/fl" "$@" "$rel/src" 2>"$T_TMP/err" && $PY "$CHK" store "$rel/fl" "$rel/src" $f arm64 $h $m $c $al >"$T_TMP/out" 2>&1
    then t_ok "pack $n: format $f, $h, $m, twins=$c, images aligned to $al"
    else t_fail "pack $n" "$(cat "$T_TMP/err"; grep problem "$T_TMP/out" | head -5)"; fi
  }
  # (the net11 coreclr default writes no .ni.dll twins, as .NET 11 GA; net10 / net11-preview coreclr do)
  check_flags "(no flags)" 3 crc32 XAZS 0 1 --
  check_flags "--format 4" 4 crc32 XAZS 0 1 -- --format 4
  check_flags "--hash xxhash" 3 xxh3 XAZS 0 1 -- --hash xxhash
  check_flags "--compression lz4" 3 crc32 XALZ 0 1 -- --compression lz4
  check_flags "--target net10 --runtime coreclr --no-compress" 3 xxh3 none 1 4096 -- --target net10 --runtime coreclr --no-compress
  check_flags "--target net11-preview --format 3" 3 crc32 XAZS 1 1 -- --target net11-preview --format 3
  # uncompressed without --target: images 16-byte aligned (usable in place), 4096 for CoreCLR (which maps
  # them in place and crashes on odd offsets) even with --target; --align-images 1: the release's layout
  check_flags "--no-compress" 3 crc32 none 0 4096 -- --no-compress
  check_flags "--runtime monovm --format 2 --compression none" 2 xxh3 none 0 16 -- --runtime monovm --format 2 --compression none
  check_flags "--target net11 --no-compress" 3 crc32 none 0 4096 -- --target net11 --no-compress
  check_flags "--target net11 --no-compress --align-images 1" 3 crc32 none 0 1 -- --target net11 --no-compress --align-images 1
  check_flags "--target net10 --runtime monovm --no-compress" 3 xxh3 none 0 1 -- --target net10 --runtime monovm --no-compress
  check_flags "--target net10 --compression zstd --level 5" 3 xxh3 XAZS 0 1 -- --target net10 --compression zstd --level 5
  check_flags "--align-images 4096 --no-compress" 3 crc32 none 0 4096 -- --align-images 4096 --no-compress
  check_flags "--target net9 --align-images 16" 2 xxh3 XALZ 0 16 -- --target net9 --align-images 16
  "$ASMSTORE" pack -o "$rel/def.so" "$rel/src" 2>/dev/null
  t_check "pack (no flags) writes a dlopen-kind .so" sh -c "readelf -W --dyn-syms '$rel/def.so' | grep -q ' _assembly_store\$'"
  "$ASMSTORE" pack --wrap section -o "$rel/sec.so" "$rel/src" 2>/dev/null
  t_check "pack --wrap section overrides the preset's wrapper" sh -c "! readelf -W --dyn-syms '$rel/sec.so' | grep -q _assembly_store && readelf -W -S '$rel/sec.so' | grep -q ' payload '"
  "$ASMSTORE" pack --raw --level 23 -o "$rel/x" "$rel/src" 2>"$T_TMP/err"; rc=$?
  t_check "pack --level 23 refused for zstd (exit 2)" sh -c "[ $rc = 2 ] && grep -q '1..22' '$T_TMP/err'"
  "$ASMSTORE" pack --raw --compression lz4 --level 13 -o "$rel/x" "$rel/src" 2>"$T_TMP/err"; rc=$?
  t_check "pack --compression lz4 --level 13 refused (LZ4 HC stops at 12)" sh -c "[ $rc = 2 ] && grep -q '1..12' '$T_TMP/err'"
  "$ASMSTORE" pack --raw --align-images 24 -o "$rel/x" "$rel/src" 2>"$T_TMP/err"; rc=$?
  t_check "pack --align-images 24 refused (power of two)" sh -c "[ $rc = 2 ] && grep -q 'power of two' '$T_TMP/err'"
fi
# README's pack usage says what the CLI says
"$ASMSTORE" pack --help | sed -n '/^usage: asmstore pack/,/^[A-Z]/p' | sed '$d' | sed 's/^usage: //' | tr -s ' \n' ' ' | sed 's/^ //' >"$T_TMP/u1"
sed -n '/^asmstore pack/,/^asmstore wrap/p' "$TOP/README.md" | sed '$d' | tr -s ' \n' ' ' | sed 's/^ //' >"$T_TMP/u2"
t_check "README's pack usage equals the CLI's" cmp "$T_TMP/u1" "$T_TMP/u2"
# every command: --help on stdout, exit 0; --version is the header's; an unknown command exits 2
bad=""
for c in pack wrap elfcheck list info verify extract load cache; do
  "$ASMSTORE" $c --help >"$T_TMP/h" 2>"$T_TMP/e"; rc=$?
  { [ $rc = 0 ] && grep -q "^usage: asmstore $c" "$T_TMP/h" && grep -q "^Exit status" "$T_TMP/h" && [ ! -s "$T_TMP/e" ]; } || bad="$bad $c:$rc"
done
t_check "asmstore CMD --help prints CMD's usage and the exit-status rule to stdout, exit 0${bad:+ ($bad)}" test -z "$bad"
v=$(sed -n 's/^#define ASMSTORE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$TOP/asmstore.h" | paste -sd.)
t_check "asmstore --version prints the header's version ($v)" test "$("$ASMSTORE" --version | head -n 1)" = "asmstore $v"
"$ASMSTORE" frobnicate >/dev/null 2>"$T_TMP/e"; rc=$?
t_check "an unknown command exits 2 and lists the commands" sh -c "[ $rc = 2 ] && grep -q 'Commands: pack' '$T_TMP/e'"

# --- real .NET 10 stores (../shared; CI has them) ---
if [ -d "$SAMPLES/v3-watercountdown-widget" ]; then
  for abi in arm64-v8a x86_64; do
    s="$SAMPLES/v3-watercountdown-widget/$abi/assembly-store.so"
    rm -rf "$T_TMP/v3"
    if "$ASMSTORE" extract "$s" -C "$T_TMP/v3" 2>"$T_TMP/err"; then
      python3 - "$SAMPLES/EXPECTED.json" "v3-watercountdown-widget/$abi/assembly-store.so" "$T_TMP/v3" <<'EOF' >"$T_TMP/py" 2>&1
import hashlib, json, sys, os
exp = json.load(open(sys.argv[1]))[sys.argv[2]]
bad = 0
for d in exp["descriptors"]:
    p = os.path.join(sys.argv[3], d["name"])
    h = hashlib.sha256(open(p, "rb").read()).hexdigest()
    if h != d["uncompressed_sha256"] or os.path.getsize(p) != d["uncompressed_size"]:
        print("mismatch", d["name"]); bad += 1
print("checked", len(exp["descriptors"]))
sys.exit(1 if bad or len(exp["descriptors"]) == 0 else 0)
EOF
      if [ $? = 0 ]; then t_ok "real v3 $abi store: every image's sha256 matches EXPECTED.json ($(tail -1 "$T_TMP/py"))"
      else t_fail "real v3 $abi sha256" "$(cat "$T_TMP/py")"; fi
    else
      t_fail "extract real v3 $abi" "$(cat "$T_TMP/err")"
    fi
    python3 - "$SAMPLES/EXPECTED.json" "v3-watercountdown-widget/$abi/assembly-store.so" <<'EOF' >"$T_TMP/names"
import json, sys
exp = json.load(open(sys.argv[1]))[sys.argv[2]]
for e in exp["index"]: print(e["hashed_name"])
EOF
    miss=0
    while read -r n; do "$ASMSTORE" extract "$s" -C "$T_TMP/one" "$n" >/dev/null 2>&1 || { miss=1; echo "    not found: $n"; }; done <"$T_TMP/names"
    t_check "real v3 $abi store: all $(wc -l <"$T_TMP/names") index names (with and without .dll) found" test $miss = 0
  done
else
  t_skip "real stores" "$SAMPLES absent"
fi
# --- one exit-status rule for every command (0 ok, 1 invalid input, 2 usage or I/O error), and
# every error says what was looked for and what to try ---
mkdir -p "$T_TMP/rule" && cd "$T_TMP/rule" || exit 1
head -c 4096 /dev/urandom >junk.bin; echo hi >x.txt; zip -q nostore.apk x.txt
bad=
# rule CMD... expect: the exit status of asmstore CMD (stderr kept in rule.err)
rule() { local want=$1; shift; "$ASMSTORE" "$@" >/dev/null 2>rule.err; local rc=$?; [ $rc = "$want" ] || bad="$bad [$* -> $rc, want $want]"; }
for c in list info verify elfcheck; do rule 2 $c; rule 2 $c missing.apk; rule 1 $c junk.bin; done
rule 2 extract; rule 2 extract missing.apk -C out; rule 1 extract junk.bin -C out
rule 2 load; rule 2 load missing.so X; rule 1 load junk.bin X
rule 2 repack; rule 2 repack missing.apk -o o.apk; rule 1 repack junk.bin -o o.bin
rule 2 wrap; rule 2 wrap -o w.so --abi x86_64 missing.bin; rule 1 wrap -o w.so --template junk.bin junk.bin
rule 2 pack; rule 2 pack -o p.so missing.dll; rule 2 pack -o p.so --abi sparc x.txt
rule 2 cache; rule 1 cache stats "$T_TMP/rule"; rule 1 cache prune "$T_TMP/rule"
t_check "every command exits 2 on usage and I/O errors, 1 on invalid input${bad:+:$bad}" test -z "$bad"

"$ASMSTORE" list nostore.apk >/dev/null 2>err; rc=$?
if [ $rc = 1 ] && grep -q 'lib/<abi>/libassembly-store.so' err && grep -q 'libassemblies.<abi>.blob.so' err &&
   grep -q 'assemblies/assemblies\*.blob' err && grep -q 'Release' err; then
  t_ok "an APK without a store: exit 1, says where it looked and what to check"
else t_fail "no-store message" "rc=$rc $(cat err)"; fi
"$ASMSTORE" list --abi x86 nostore.apk >/dev/null 2>err
if grep -q 'for that ABI' err && grep -q 'Try without --abi' err; then t_ok "--abi with no store for it suggests trying without"
else t_fail "no-store --abi message" "$(cat err)"; fi
"$ASMSTORE" info missing.apk >/dev/null 2>err
if grep -q 'missing.apk: cannot read it: No such file or directory; check the path' err; then t_ok "a missing file: what could not be done and what to check"
else t_fail "missing-file message" "$(cat err)"; fi
if [ -f "$MONO45/mscorlib.dll" ]; then
  "$ASMSTORE" pack --raw --abi x86_64 -o small.raw "$MONO45/mscorlib.dll" >/dev/null 2>&1
  "$ASMSTORE" wrap -o w.so --template junk.bin small.raw >/dev/null 2>err; rc=$?
  if [ $rc = 1 ] && grep -q '^asmstore: junk.bin: .*stub' err && ! grep -q 'w.so' err && [ ! -e w.so ]; then
    t_ok "wrap with a bad --template names the template, not the output, and writes nothing"
  else t_fail "bad-template message" "rc=$rc $(cat err)"; fi
else t_skip "bad-template message" "no $MONO45/mscorlib.dll (apt-get install mono-devel)"; fi
"$ASMSTORE" verify junk.bin >/dev/null 2>err
if grep -q 'not an XABA store.*give the APK' err; then t_ok "not a store: says what to give instead"
else t_fail "bad-magic message" "$(cat err)"; fi
"$ASMSTORE" cache stats "$T_TMP/rule" >/dev/null 2>err
if grep -q "looked for $T_TMP/rule/.*asmstore load --cache" err; then t_ok "cache stats without a cache: where it looked, how to make one"
else t_fail "cache stats message" "$(cat err)"; fi

# progress ("compressing i/n") only when stderr is a terminal
mkdir many && t_pe $(for i in $(seq 1 60); do echo "many/A$i.dll $((1000 + i))"; done)
"$ASMSTORE" pack --raw -o many.bin many 2>err >/dev/null
if ! grep -q compressing err && grep -q 'many.bin: [0-9]* entries' err; then t_ok "pack: no progress when stderr is not a terminal (the summary only)"
else t_fail "pack progress to a file" "$(head -c 300 err)"; fi
if command -v script >/dev/null 2>&1; then
  script -qec "'$ASMSTORE' pack --raw -o many2.bin many" /dev/null >tty.out 2>&1
  if grep -q 'compressing [0-9]*/[0-9]*' tty.out; then t_ok "pack: progress on a terminal"
  else t_fail "pack progress on a tty" "$(head -c 300 tty.out)"; fi
else t_skip "progress on a terminal" "no script(1)"; fi

# --- .ni.dll: .NET 11 GA CoreCLR writes no twins (dotnet/android#12811), net10 / net11-preview do; a
#     real X.ni.dll is an ordinary entry; info names the layout from the hash, the wrapper, the bytes ---
mkdir ni && t_pe ni/Foo.dll 2000 ni/Foo.ni.dll 3000 ni/Bar.dll 1500
t_pe ni2.dll 2200; cp ni/Bar.dll Bar.dll
ignored() { "$ASMSTORE" list --json "$1" | python3 -c 'import json,sys; print(sum(e["ignored"] for s in json.load(sys.stdin)["stores"] for e in s["entries"]))'; }
"$ASMSTORE" pack --raw --target net11 --runtime coreclr -o ga.raw ni/Bar.dll ni/Foo.dll 2>/dev/null
"$ASMSTORE" list ga.raw >ga.list 2>&1
if [ "$(grep -vc '^index' ga.list)" = 2 ] && ! grep -q 'ni\.dll' ga.list && [ "$(ignored ga.raw)" = 0 ]; then
  t_ok "pack --target net11 --runtime coreclr: no .ni.dll twins (2 entries for 2 assemblies)"
else t_fail "net11 coreclr twins" "$(cat ga.list)"; fi
for tg in net10 net11-preview; do
  "$ASMSTORE" pack --raw --target $tg --runtime coreclr -o $tg.raw ni/Bar.dll ni/Foo.dll 2>/dev/null
  "$ASMSTORE" list $tg.raw >$tg.list 2>&1
  if [ "$(grep -vc '^index' $tg.list)" = 4 ] && grep -q 'Bar.ni.dll (ignored)' $tg.list && grep -q 'Foo.ni.dll (ignored)' $tg.list; then
    t_ok "pack --target $tg --runtime coreclr keeps each entry's ignored .ni.dll twin"
  else t_fail "$tg coreclr twins" "$(cat $tg.list)"; fi
done
"$ASMSTORE" pack --raw -o real.raw ni 2>err; rc=$?
"$ASMSTORE" list real.raw >real.list 2>&1
rm -rf real.x; "$ASMSTORE" extract real.raw -C real.x >/dev/null 2>&1
if [ $rc = 0 ] && [ "$(grep -vc '^index' real.list)" = 3 ] && [ "$(ignored real.raw)" = 0 ] && cmp -s ni/Foo.ni.dll real.x/Foo.ni.dll &&
   "$ASMSTORE" verify real.raw >/dev/null 2>&1 && "$ASMSTORE" info real.raw | grep -q '^entries: *3 (0 ignored'; then
  t_ok "a real Foo.ni.dll beside Foo.dll (net11 coreclr): an ordinary entry in list, info, verify and extract"
else t_fail "real Foo.ni.dll" "rc=$rc $(cat err real.list)"; fi
"$ASMSTORE" repack real.raw -o real2.raw --replace Foo.ni.dll=ni2.dll --remove Foo >/dev/null 2>err; rc=$?
"$ASMSTORE" list real2.raw >real2.list 2>&1
rm -rf real2.x; "$ASMSTORE" extract real2.raw -C real2.x >/dev/null 2>&1
if [ $rc = 0 ] && [ "$(grep -vc '^index' real2.list)" = 2 ] && cmp -s ni2.dll real2.x/Foo.ni.dll && [ ! -e real2.x/Foo.dll ]; then
  t_ok "repack: --replace Foo.ni.dll replaces the real one, --remove Foo leaves it (only an ignored twin goes with Foo.dll)"
else t_fail "repack of a real Foo.ni.dll" "rc=$rc $(cat err real2.list)"; fi
for tg in net10 net11-preview; do
  "$ASMSTORE" pack --raw --target $tg --runtime coreclr -o no.raw ni 2>err; rc=$?
  if [ $rc = 2 ] && [ ! -e no.raw ] && [ "$(wc -l <err)" = 1 ] &&
     grep -q "^asmstore: Foo.ni.dll (ni/Foo.ni.dll) has the name of the ignored, zero-size Foo.ni.dll twin this release's CoreCLR store writes for Foo.dll (ni/Foo.dll): both cannot be in one store. Pack with --target net11 .*--runtime monovm, or rename Foo.ni.dll or leave it out$" err; then
    t_ok "$tg coreclr: a real Foo.ni.dll beside Foo.dll collides with Foo.dll's twin: refused before any work (exit 2), both named, what to do said"
  else t_fail "$tg twin collision" "rc=$rc $(cat err)"; fi
done
# info: the layout from the bytes; GA's stores and the twins' CRC-32 stores told apart; an empty store's
# index names no hash, so only a dlopen wrapper tells the runtime
"$ASMSTORE" pack --target net11 --runtime coreclr -o ga.so ni/Bar.dll 2>/dev/null
"$ASMSTORE" pack --raw --target net11-preview --format 3 -o tw.raw ni/Bar.dll 2>/dev/null
printf 'XABA\003\000\001\200\0\0\0\0\0\0\0\0\0\0\0\0' >empty.raw
"$ASMSTORE" wrap -o empty.so --abi arm64 empty.raw >/dev/null 2>&1
"$ASMSTORE" pack --raw --target net11 --runtime monovm -o mono.raw ni/Bar.dll 2>/dev/null
bad=""
for c in "ga.so|CRC-32 index, dlopen wrapper: the .NET 11 GA CoreCLR layout$|CoreCLR" \
         "ga.raw|CRC-32 index, no wrapper: the .NET 11 GA CoreCLR layout$|CoreCLR" \
         "tw.raw|CRC-32 index, no wrapper: the .NET 11 CoreCLR layout, with the .ni.dll twins GA no longer writes|CoreCLR" \
         "net10.raw|XXH3-64 index, no wrapper: the .NET 10 layout|CoreCLR" \
         "mono.raw|XXH3-64 index, no wrapper: the .NET 11 MonoVM layout|MonoVM" \
         "empty.so|empty index, dlopen wrapper: the .NET 11 GA CoreCLR layout|CoreCLR" \
         "empty.raw|empty index, no wrapper: .*(CoreCLR or MonoVM: an empty index names no hash)|CoreCLR or MonoVM"; do
  IFS='|' read -r f lay rt <<<"$c"
  "$ASMSTORE" info "$f" >info.out 2>&1
  grep -q "^layout: *format 3, $lay" info.out && grep -q "^runtime: *$rt\$" info.out || bad="$bad $f: $(head -2 info.out | tr '\n' ' ')"
done
if [ -z "$bad" ]; then t_ok "info names the layout and runtime from the bytes (hash, wrapper, empty index), twins only for xxHash stores"
else t_fail "info layout naming" "$bad"; fi
cd "$TOP" || exit 1
# ---- terminal safety: an entry name holding ESC (an OSC title and a colour), BEL, CR, LF, DEL and
# C1 CSI (U+009B) is shown escaped (\xHH) by every command that prints it, never raw ----
TS=$T_TMP/term; mkdir -p "$TS/in" "$TS/x"
EVIL=$(printf 'a\033]0;pwn\007b\rc\nd\177e\302\233f\033[31m.dll')
SHOWN='a\x1b]0;pwn\x07b\x0dc\x0ad\x7fe\xc2\x9bf\x1b[31m.dll'
t_pe --fill "term " "$TS/in/$EVIL" 900 "$TS/in/plain.dll" 900 "$TS/new.dll" 1100
"$ASMSTORE" pack --raw --no-compress --runtime monovm --format 3 -o "$TS/s.raw" "$TS/in/$EVIL" "$TS/in/plain.dll" 2>/dev/null
"$ASMSTORE" pack --raw --no-compress --runtime monovm --format 3 -o "$TS/p.raw" "$TS/in/plain.dll" 2>/dev/null
# the same store with the evil entry's PE signature broken: verify and extract name it in a problem
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); i = b.index(b"PE\0\0"); b[i] = 0x51
open(sys.argv[2], "wb").write(b)' "$TS/s.raw" "$TS/bad.raw"
term_clean() { # LABEL FILE: FILE names the entry escaped and holds no control byte but LF, no C1
    python3 - "$2" "$SHOWN" <<'EOF' || { t_fail "$1" "$(head -c 600 "$2" | od -c | head -12)"; return; }
import re, sys
raw = open(sys.argv[1], "rb").read()
assert sys.argv[2].encode() in raw, "the escaped name is not there"
text = raw.decode("utf-8")  # a stray 0x9b (or any byte of invalid UTF-8) fails here
bad = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", text)
assert not bad, "raw control character at %d" % bad.start()
EOF
    t_ok "$1"
}
"$ASMSTORE" list "$TS/s.raw" >"$TS/list.out" 2>&1; term_clean "list: the name escaped, no raw control byte" "$TS/list.out"
"$ASMSTORE" list --hash "$TS/s.raw" >"$TS/hash.out" 2>&1; term_clean "list --hash: escaped" "$TS/hash.out"
"$ASMSTORE" verify "$TS/bad.raw" >"$TS/verify.out" 2>&1; term_clean "verify: the problem names the entry escaped" "$TS/verify.out"
"$ASMSTORE" diff "$TS/s.raw" "$TS/p.raw" >"$TS/diff.out" 2>&1; term_clean "diff: the removed entry escaped" "$TS/diff.out"
"$ASMSTORE" extract "$TS/bad.raw" -C "$TS/x" >"$TS/extract.out" 2>&1; term_clean "extract: the refused entry escaped" "$TS/extract.out"
"$ASMSTORE" extract "$TS/s.raw" -C "$TS/x2" "$EVIL" "x$EVIL" >"$TS/extract2.out" 2>&1; term_clean "extract NAME: the missing name escaped" "$TS/extract2.out"
t_check "extract: the file is written under its real name" test -s "$TS/x2/$EVIL"
"$ASMSTORE" repack "$TS/s.raw" -o "$TS/r.raw" --replace "$EVIL=$TS/new.dll" >"$TS/repack.out" 2>&1; term_clean "repack --replace: the replaced entry escaped" "$TS/repack.out"
"$ASMSTORE" repack "$TS/s.raw" -o "$TS/r2.raw" --remove "x$EVIL" >"$TS/repack2.out" 2>&1; term_clean "repack --remove of no such entry: the name escaped" "$TS/repack2.out"
"$ASMSTORE" list --json "$TS/s.raw" | python3 -c 'import json, sys; n = [e["name"] for e in json.load(sys.stdin)["stores"][0]["entries"]]; sys.exit(sys.argv[1] not in n)' "$EVIL" &&
    t_ok "list --json: the name as it is (JSON escapes it its own way)" || t_fail "list --json: the name as it is"
t_done
