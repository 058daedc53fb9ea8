#!/usr/bin/env bash
# tests/t_host_mono.sh - build/mono_host runs examples/hello (a C# program using System.Core, System.Xml
# and System.Xml.Linq) with every assembly, mscorlib included, out of a store .so (a --wrap dlopen one,
# dlopen'ed; and the .NET 11 GA MonoVM layout, a stub .so read as a file): cold (cache misses), warm (hits), under strace (no .dll/.exe opened from the filesystem; Mono's AOT .so files
# may be), and without the assemblies it needs in the store (it must fail, not fall back to
# /usr/lib/mono). Mono keeps its AOT code: as many methods from AOT as started from files (--files,
# the anchor), through the private AOT-only framework dir (created 0700, its symlink re-validated).
. "$(dirname "$0")/lib/lib.sh"
MONO_HOST=$BUILD/mono_host
HELLO=$BUILD/hello
if ! pkg-config --exists mono-2 2>/dev/null || ! command -v mcs >/dev/null 2>&1 || [ ! -f "$MONO45/mscorlib.dll" ]; then
  t_skip "mono host" "libmono-2.0-dev / mono-devel (mcs, $MONO45) not installed (make deps installs them)"
  t_done; exit
fi
if [ ! -x "$MONO_HOST" ] || [ ! -f "$HELLO/hello.exe" ] || [ ! -f "$HELLO/Greeting.dll" ]; then
  t_fail "mono host" "$MONO_HOST or $HELLO/hello.exe not built (run make)"; t_done; exit
fi
case $(uname -m) in # store ABI, and Mono's architecture name (its aot-cache subdirectory)
  x86_64) abi=x86_64 march=amd64 ;; aarch64) abi=arm64 march=arm64 ;; armv7l|armv8l) abi=arm march=arm ;;
  i?86) abi=x86 march=x86 ;; *) abi= march= ;;
esac
AOT_DIR=$(dirname "$MONO45")/aot-cache/$march # Debian: /usr/lib/mono/aot-cache/amd64/mscorlib.dll.so
have_aot=; [ -n "$march" ] && [ -f "$AOT_DIR/mscorlib.dll.so" ] && have_aot=1
if [ -z "$abi" ]; then t_skip "mono host" "no store ABI for $(uname -m)"; t_done; exit; fi
cd "$T_TMP" || exit 1

cat >want <<'EOF'
hello, store, from an assembly store
primes: 2 3 5 7 11 13 17 19 23 29 31 37
sum of squares: 4727
most primes end in 3: 3,13,23
xml: 263 chars, 12 <p> elements
fnv1a: 17a337d2
loaded: Greeting System System.Core System.Xml System.Xml.Linq hello mscorlib
EOF
if command -v mono >/dev/null 2>&1; then # the expectation itself, from the stock launcher
  if (cd "$HELLO" && mono hello.exe store) 2>&1 | diff want - >diff0; then t_ok "stock mono prints the expected output"
  else t_fail "stock mono output" "$(cat diff0)"; fi
fi

t_check "pack the framework + Facades + hello into a $abi .so" \
  "$ASMSTORE" pack --target net11-preview --runtime monovm --wrap dlopen --abi "$abi" -o app.so "$MONO45" "$MONO45/Facades" "$HELLO/hello.exe" "$HELLO/Greeting.dll"

# run NAME EXPECT-REGEX [env...]: runs the host, checks the program's output and the summary line
run() {
  local name=$1 re=$2; shift 2
  env "$@" "$MONO_HOST" --cache cache "$T_TMP/app.so" hello.exe store >"$name.out" 2>"$name.err"
  local rc=$?
  if [ $rc -eq 0 ] && diff want "$name.out" >"$name.diff" && grep -Eq "$re" "$name.err"; then
    t_ok "$name: program output exact; $(grep -o 'all [0-9]* assemblies[^:]*' "$name.err")"
  else t_fail "$name (exit $rc)" "$(cat "$name.diff" "$name.err" | head -20)"; fi
}
run cold 'all 7 assemblies served from the store \(0 hits, 7 misses, 0 direct'
# the cold start decompresses the images itself and gives them to the cache after Main: one pack of all 7
pack=$(echo cache/decompressed-assembly-cache-v1/*/pack)
nbin=$(find cache -name '*.bin' | wc -l)
if [ -f "$pack" ] && [ "$nbin" -eq 0 ]; then t_ok "cold run left the cache's pack ($(stat -c %s "$pack") bytes), no loose files"
else t_fail "the pack after the cold run" "pack $pack, $nbin loose files"; fi
run warm 'all 7 assemblies served from the store \(7 hits, 0 misses, 0 direct'
run disabled 'all 7 assemblies served from the store \(0 hits, 7 misses, 0 direct' ASMSTORE_CACHE_DISABLE=1
if grep -q 'store open (dlopen + dlsym _assembly_store)' warm.err; then t_ok "the --wrap dlopen store: dlopen + dlsym"
else t_fail "the --wrap dlopen store's door" "$(tail -1 warm.err)"; fi

# the layout .NET 11 GA's MonoVM ships (docs/store-releases.md 1.1, 1.2): format 3, XXH3-64 names, in the
# stub lib/<abi>/libassembly-store.so whose non-loadable `payload` section holds the store (no
# _assembly_store to dlopen), opened as a file the way MonoVM opens it in the native library directory
mkdir -p "ga/lib/$abi"
t_check "pack --target net11 --runtime monovm: the GA layout, lib/$abi/libassembly-store.so" \
  "$ASMSTORE" pack --target net11 --runtime monovm --abi "$abi" -o "ga/lib/$abi/" "$MONO45" "$MONO45/Facades" "$HELLO/hello.exe" "$HELLO/Greeting.dll"
ga=$T_TMP/ga/lib/$abi/libassembly-store.so
if "$ASMSTORE" info "$ga" | grep -q '^layout: *format 3, XXH3-64 index, stub wrapper'; then t_ok "the GA store: format 3, XXH3-64, stub wrapper"
else t_fail "the GA store's layout" "$("$ASMSTORE" info "$ga" | head -3)"; fi
for kind in cold warm; do
  "$MONO_HOST" --cache cache-ga "$ga" hello.exe store >"ga.$kind.out" 2>"ga.$kind.err"; rc=$?
  [ $kind = cold ] && want_re='\(0 hits, 7 misses' || want_re='\(7 hits, 0 misses'
  if [ $rc -eq 0 ] && diff want "ga.$kind.out" >"ga.$kind.diff" && grep -Eq "all 7 assemblies served from the store $want_re" "ga.$kind.err" &&
     grep -q 'store open (as a file, its payload section)' "ga.$kind.err"; then
    t_ok "GA MonoVM store ($kind): program output exact; the stub .so's payload section read as a file; $(grep -o '[0-9]* hits, [0-9]* misses' "ga.$kind.err")"
  else t_fail "GA MonoVM store ($kind, exit $rc)" "$(cat "ga.$kind.diff" "ga.$kind.err" | head -10)"; fi
done

# files mode (the benchmark's anchor): the same host and runtime, assemblies from $MONO45 and beside hello.exe
"$MONO_HOST" --files "$MONO45" "$HELLO/hello.exe" store >files.out 2>files.err; rc=$?
if [ $rc -eq 0 ] && diff want files.out >files.diff && grep -q "^mono_host: started from files (7 assemblies, mscorlib $MONO45/mscorlib.dll)" files.err; then
  t_ok "files mode: program output exact; $(grep -o 'started from files ([^)]*)' files.err)"
else t_fail "files mode (exit $rc)" "$(cat files.diff files.err | head -10)"; fi
"$MONO_HOST" --cache cache --files "$MONO45/" "$HELLO/hello.exe" --time-to-main >ttm.out 2>ttm.err; rc=$?
if [ $rc -eq 0 ] && grep -Eqx 'main-at [0-9]+' ttm.out && grep -q '^mono_host: started from files' ttm.err; then
  t_ok "files mode passes --time-to-main to Main: $(cat ttm.out)"
else t_fail "files mode --time-to-main (exit $rc)" "$(cat ttm.out ttm.err | head -5)"; fi
if "$MONO_HOST" --files "$HELLO" "$HELLO/hello.exe" >bad.out 2>bad.err; then t_fail "--files on a non-framework dir must fail"
elif grep -q 'not a Mono framework directory' bad.err; then t_ok "--files on a non-framework dir: refused"
else t_fail "--files on a non-framework dir" "$(head -3 bad.err)"; fi

# AOT: Mono's AOT code for mscorlib (the install's aot-cache) is used from the store as from files. Counted
# two ways: the host's summary (Mono's "Methods from AOT" counter, AOT images mapped) and Mono's own log.
# aotn FILE FIELD: a number from a summary line ("AOT images", "methods from AOT", "JIT-compiled")
aotn() { sed -n "s/.*; AOT images: \([0-9]*\), methods from AOT: \([0-9-]*\), JIT-compiled: \([0-9-]*\);.*/\1 \2 \3/p" "$1" | tail -1 | cut -d' ' -f"$2"; }
if [ -n "$have_aot" ]; then
  sa=$(aotn warm.err 2); fa=$(aotn files.err 2); si=$(aotn warm.err 1)
  if [ "${sa:-0}" -gt 0 ] && [ "${si:-0}" -ge 1 ] && [ $((sa * 10)) -ge $((fa * 9)) ] && [ $((sa * 10)) -le $((fa * 11)) ]; then
    t_ok "AOT from the store (warm): $si AOT image(s), $sa methods from AOT, $(aotn warm.err 3) JIT-compiled (files: $fa, $(aotn files.err 3))"
  else t_fail "AOT from the store" "store: images $si methods $sa; files: $fa; $(tail -2 warm.err)"; fi
  for mode in store files; do
    if [ $mode = store ]; then set -- "$MONO_HOST" --cache cache "$T_TMP/app.so" hello.exe --time-to-main
    else set -- "$MONO_HOST" --files "$MONO45" "$HELLO/hello.exe" --time-to-main; fi
    MONO_LOG_MASK=aot MONO_LOG_LEVEL=debug "$@" >"log.$mode.out" 2>"log.$mode.err"
    eval "found_$mode=$(cat "log.$mode.out" "log.$mode.err" | grep -c 'AOT: FOUND')" # Mono logs to stdout
  done
  if [ "$found_store" -gt 0 ] && [ $((found_store * 10)) -ge $((found_files * 9)) ] && [ $((found_store * 10)) -le $((found_files * 11)) ]; then
    t_ok "MONO_LOG_MASK=aot, --time-to-main: $found_store \"AOT: FOUND\" from the store, $found_files from files"
  else t_fail "AOT: FOUND from the store" "store $found_store, files $found_files; $(grep -m3 'AOT' log.store.err)"; fi
  link=cache/mono-aot-framework-v1/mono/aot-cache/$march
  modes=$(stat -c %a cache/mono-aot-framework-v1 cache/mono-aot-framework-v1/mono cache/mono-aot-framework-v1/mono/aot-cache | tr '\n' ' ')
  others=$(find cache/mono-aot-framework-v1 -mindepth 1 ! -path "$link" ! -name aot-cache ! -name mono | head -3)
  if [ "$(readlink "$link")" = "$AOT_DIR" ] && [ "$modes" = "700 700 700 " ] && [ -z "$others" ]; then
    t_ok "AOT-only framework dir: 0700 directories, $march -> $AOT_DIR, nothing else"
  else t_fail "AOT-only framework dir" "modes $modes link $(readlink "$link") others $others"; fi
  # a planted symlink (ours, pointing elsewhere) is replaced; an unusable cache root falls back, loudly, to all-JIT
  mkdir -p aotdecoy cache-plant/mono-aot-framework-v1/mono/aot-cache && ln -s "$T_TMP/aotdecoy" "cache-plant/mono-aot-framework-v1/mono/aot-cache/$march"
  "$MONO_HOST" --cache cache-plant "$T_TMP/app.so" hello.exe store >plant.out 2>plant.err; rc=$?
  if [ $rc -eq 0 ] && diff -q want plant.out >/dev/null && [ "$(readlink "cache-plant/mono-aot-framework-v1/mono/aot-cache/$march")" = "$AOT_DIR" ] &&
     [ "$(aotn plant.err 1)" -ge 1 ]; then t_ok "a symlink pointing elsewhere is replaced (AOT images: $(aotn plant.err 1))"
  else t_fail "planted symlink (exit $rc)" "$(readlink "cache-plant/mono-aot-framework-v1/mono/aot-cache/$march") $(tail -2 plant.err)"; fi
  : >notadir
  "$MONO_HOST" --cache notadir "$T_TMP/app.so" hello.exe store >nd.out 2>nd.err; rc=$?
  if [ $rc -eq 0 ] && diff -q want nd.out >/dev/null && grep -q '^mono_host: no AOT code: .*every method is JIT-compiled' nd.err &&
     [ "$(aotn nd.err 1)" = 0 ] && [ "$(aotn nd.err 2)" = 0 ]; then
    t_ok "cache root unusable: runs all-JIT with a note ($(grep -o 'no AOT code: [^;]*' nd.err | cut -c1-90)...)"
  else t_fail "cache root unusable (exit $rc)" "$(tail -3 nd.err)"; fi
else t_skip "AOT" "no $AOT_DIR/mscorlib.dll.so (Mono's AOT cache for $(uname -m))"; fi

# zero-copy: uncompressed stores. Images aligned to 16 (pack's default without --target) or 16 KiB are
# used in place; packed back to back (--align-images 1, upstream's layout) the misaligned ones are
# copied before Mono sees them (at an odd address Mono dies in CultureInfo), and the program still runs.
for al in default 16384 1; do
  flags=(--no-compress); [ $al != default ] && flags+=(--align-images $al)
  "$ASMSTORE" pack --abi "$abi" "${flags[@]}" -o "flat-$al.so" "$MONO45" "$MONO45/Facades" "$HELLO/hello.exe" "$HELLO/Greeting.dll" >/dev/null 2>&1
  "$MONO_HOST" --cache "cache-flat-$al" "$T_TMP/flat-$al.so" hello.exe store >"flat-$al.out" 2>"flat-$al.err"; rc=$?
  counts=$(grep -o '([0-9]* hits, [0-9]* misses, [0-9]* direct (used in place), [0-9]* copied' "flat-$al.err")
  copied=$(sed -n 's/.* \([0-9]*\) copied$/\1/p' <<<"$counts"); direct=$(sed -n 's/.* \([0-9]*\) direct .*/\1/p' <<<"$counts")
  if [ "$al" = 1 ]; then want_ok=$([ "${copied:-0}" -gt 0 ] && echo 1); else want_ok=$([ "${copied:-1}" = 0 ] && [ "${direct:-0}" = 7 ] && echo 1); fi
  if [ $rc = 0 ] && diff -q want "flat-$al.out" >/dev/null && [ -n "$want_ok" ]; then
    t_ok "uncompressed store, image alignment $al: program output exact; $counts"
  else t_fail "uncompressed store, alignment $al (exit $rc)" "$counts $(tail -3 "flat-$al.err")"; fi
done

# a pack cut short fails its checks at open: every image decompressed again, and written again after Main
truncate -s $(($(stat -c %s "$pack") / 2)) "$pack"
run truncated-pack 'all 7 assemblies served from the store \(0 hits, 7 misses, 0 direct'
run repacked 'all 7 assemblies served from the store \(7 hits, 0 misses, 0 direct'
# ASMSTORE_HOST_PUT_AFTER_MAIN=0: the cache decompresses and writes during the start, a file per image; a damaged
# cache file is a miss, never a wrong image: break mscorlib's (the largest) file
rm -rf cache
run cold-during 'all 7 assemblies served from the store \(0 hits, 7 misses, 0 direct' ASMSTORE_HOST_PUT_AFTER_MAIN=0
nbin=$(find cache -name '*.bin' | wc -l)
if [ "$nbin" -eq 7 ]; then t_ok "ASMSTORE_HOST_PUT_AFTER_MAIN=0: the cold run left 7 cache files"; else t_fail "cache files after the cold run" "$nbin"; fi
big=$(find cache -name '*.bin' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2)
printf 'garbage' | dd of="$big" bs=1 seek=4096 conv=notrunc 2>/dev/null
run damaged 'all 7 assemblies served from the store \(6 hits, 1 misses, 0 direct' ASMSTORE_HOST_PUT_AFTER_MAIN=0

# strace: the only assembly bytes come through the store .so and the cache files. Mono probes the
# names we file images under ("<store>.so/X.dll": ENOTDIR by construction) and a framework dir that
# does not exist; no open of a .dll/.exe path may succeed, none may touch /usr/lib/mono.
if command -v strace >/dev/null 2>&1; then
  for kind in cold warm; do
    [ $kind = cold ] && rm -rf cache
    # -ff: one file per thread, so no call is split into "unfinished" / "resumed" halves
    strace -ff -qq -e trace=open,openat -o "st.$kind" "$MONO_HOST" --cache cache "$T_TMP/app.so" hello.exe store \
      >"st.$kind.out" 2>"st.$kind.err"
    rc=$?
    cat "st.$kind".[0-9]* >"st.$kind"
    # Mono's AOT code (X.dll.so, native code, no assembly) may come from the private framework dir's aot-cache
    aot_re="/mono-aot-framework-v1/mono/aot-cache/$march/[^/\"]+\\.(dll|exe)\\.so\""
    opened=$(grep -E '\.(dll|exe)([."]|$)' "st.$kind" | grep -Ev '= -1 E' | grep -Ev "$aot_re" || true)
    aot=$(grep -E "$aot_re" "st.$kind" | grep -vc '= -1 E')
    framework=$(grep -E '/usr/lib/mono|/mono/4\.5' "st.$kind" || true)
    store=$(grep -F "\"$T_TMP/app.so\"" "st.$kind" | grep -Ev '= -1 E' | head -1)
    bins=$(grep -E '"([0-9]+\.bin|pack)"' "st.$kind" | grep -vc '= -1 E')
    probes=$(grep -cE '\.(dll|exe)([."]|$)' "st.$kind")
    if [ $rc -eq 0 ] && diff -q want "st.$kind.out" >/dev/null && [ -z "$opened" ] && [ -z "$framework" ] && [ -n "$store" ] &&
       { [ $kind = cold ] || [ "$bins" -ge 1 ]; } && { [ -z "$have_aot" ] || [ "$aot" -ge 1 ]; }; then
      t_ok "strace ($kind): no .dll/.exe opened from the filesystem (store .so opened, $bins cache files (the pack) opened, $aot AOT .so opened, $probes failed probes)"
    else t_fail "strace ($kind, exit $rc)" "$(printf '%s\n' "$opened" "$framework" | head -10; tail -3 "st.$kind.err")"; fi
  done
else t_skip "strace" "strace not installed"; fi

# without mscorlib in the store the runtime cannot start: it does not come from the filesystem
"$ASMSTORE" pack --target net11-preview --runtime monovm --wrap dlopen --abi "$abi" -o nocorlib.so "$HELLO/hello.exe" "$HELLO/Greeting.dll" 2>/dev/null
if "$MONO_HOST" --cache cache2 "$T_TMP/nocorlib.so" hello.exe >nc.out 2>nc.err; then
  t_fail "a store without mscorlib must not run" "$(cat nc.out nc.err | head -5)"
elif cat nc.out nc.err | grep -q 'mscorlib.dll was not found'; then t_ok "a store without mscorlib: the runtime refuses to start"
else t_fail "a store without mscorlib" "$(cat nc.err | head -5)"; fi

# without System.Xml.Linq (still in /usr/lib/mono/4.5) the program's types cannot even be loaded: no fallback
mkdir fw; for f in "$MONO45"/*.dll; do case $(basename "$f") in System.Xml.Linq.dll) ;; *) ln -s "$f" fw/ ;; esac; done
"$ASMSTORE" pack --target net11-preview --runtime monovm --wrap dlopen --abi "$abi" -o noxlinq.so fw "$HELLO/hello.exe" "$HELLO/Greeting.dll" 2>/dev/null
"$MONO_HOST" --cache cache3 "$T_TMP/noxlinq.so" hello.exe store >nx.out 2>nx.err
rc=$?
if [ $rc -ne 0 ] && grep -q "Could not load file or assembly 'System.Xml.Linq" nx.err; then
  t_ok "a store without System.Xml.Linq: $(grep -oE 'System\.[A-Za-z]+Exception' nx.err | head -1), not /usr/lib/mono's copy (exit $rc)"
else t_fail "a store without System.Xml.Linq (exit $rc)" "$(cat nx.out nx.err | head -8)"; fi

t_done
