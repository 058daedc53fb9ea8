#!/usr/bin/env bash
# tests/t_host_coreclr.sh - build/coreclr_host runs examples/hello_clr (LINQ, System.Text.Json, a regex,
# System.Xml.Linq, its own Greeting.dll) on the installed .NET runtime (CoreCLR) with every assembly,
# System.Private.CoreLib included, out of a store .so of the whole shared framework: cold (cache
# misses), warm (hits), under strace -f (no .dll path touched on the filesystem at all, the installed
# libcoreclr.so loaded), and with bad stores (no CoreLib, an assembly missing, an entry whose frame
# is corrupt, an image that is not a PE file, a program not in the store): the runtime's own error
# and a non-zero exit, never a file from the shared framework instead.
. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/coreclr_env.sh"
HOST=$BUILD/coreclr_host
APP=$BUILD/hello_clr
if ! clr_find_runtime; then t_skip "coreclr host" "$CLR_WHY"; t_done; exit; fi
if [ "$(uname -m)" != x86_64 ]; then t_skip "coreclr host" "the test packs an x86_64 store; this is $(uname -m)"; t_done; exit; fi
if [ ! -x "$HOST" ] || [ ! -f "$APP/hello.dll" ] || [ ! -f "$APP/Greeting.dll" ]; then
  t_fail "coreclr host" "$HOST or $APP/hello.dll not built (make coreclr-host)"; t_done; exit
fi
cd "$T_TMP" || exit 1
echo "  runtime: $CLR_DIR; pack flags: $PACK_CORECLR_FLAGS"

# The expectation: fixed lines (the work the program does), then its "loaded:" line from the stock
# launcher (`dotnet hello.dll`: the same runtime reading the same files from disk).
clr_want_fixed >want.fixed
if DOTNET_ROLL_FORWARD=LatestMajor dotnet "$APP/hello.dll" store "two words" >stock.out 2>stock.err &&
   head -n 9 stock.out | diff want.fixed - >stock.diff && grep -q '^loaded: .*System.Private.CoreLib' stock.out; then
  cp stock.out want
  t_ok "stock launcher (dotnet hello.dll) prints the expected output; it loads $(($(sed -n 's/^loaded: //p' want | wc -w))) assemblies"
else
  t_fail "stock launcher output" "$(cat stock.diff stock.err | head -10)"; t_done; exit
fi
nloaded=$(sed -n 's/^loaded: //p' want | wc -w)

# one store: the whole shared framework (~170 assemblies) + the program and its library
t_check "pack $(ls "$CLR_DIR"/*.dll | wc -l) framework assemblies + hello.dll + Greeting.dll ($PACK_CORECLR_FLAGS)" \
  "$ASMSTORE" pack --abi x86_64 $PACK_CORECLR_FLAGS -o app.so "$CLR_DIR" "$APP/hello.dll" "$APP/Greeting.dll"

# run NAME STORE EXPECT-REGEX [env...]: runs the host with -v; checks the exit code, the output, the
# summary line, and that the assemblies served are exactly those the program says it loaded
run() {
  local name=$1 store=$2 re=$3; shift 3
  env "$@" "$HOST" -v $RUN_FLAGS --cache cache "$store" hello.dll store "two words" >"$name.out" 2>"$name.err"
  local rc=$?
  sed -n 's/^coreclr_host: probe \(.*\)\.dll: store.*/\1/p' "$name.err" | sort -u >"$name.served"
  sed -n 's/^loaded: //p' "$name.out" | tr ' ' '\n' | sort >"$name.loaded"
  if [ $rc -eq 0 ] && diff want "$name.out" >"$name.diff" && grep -Eq "$re" "$name.err" && cmp -s "$name.served" "$name.loaded"; then
    t_ok "$name: exit 0, output exact, every assembly it loaded came from the store: $(grep -o '[0-9]* assemblies served[^;]*' "$name.err")"
  else t_fail "$name (exit $rc)" "$(cat "$name.diff"; diff "$name.served" "$name.loaded"; grep -v ': probe ' "$name.err" | head -10)"; fi
}
RUN_FLAGS=
# the doors: a cold start decompresses into this start's images file, which the runtime maps through the bundle
# door; after Main the images go to the cache (asmstore_cache_put), whose flush packs them, so a warm start maps them
# all from the cache's pack through the bundle door; --external-only hands every image over by address
IMAGES="this start's images, decompressed into memory"
run cold app.so "$nloaded assemblies served from the store, System.Private.CoreLib.dll included \(0 hits, $nloaded misses, 0 direct \(used in place\), 0 copied.*doors: $nloaded bundle, 0 external \(bundle file: $IMAGES\)"
run warm app.so "$nloaded assemblies served from the store, System.Private.CoreLib.dll included \($nloaded hits, 0 misses, 0 direct \(used in place\), 0 copied.*doors: $nloaded bundle, 0 external \(bundle file: the cache's pack\)"
run nocache app.so "\(0 hits, $nloaded misses, 0 direct \(used in place\), 0 copied.*doors: $nloaded bundle, 0 external \(bundle file: $IMAGES\)" ASMSTORE_CACHE_DISABLE=1
# ASMSTORE_HOST_PHASES=1: where the start went (examples/host_phases.h): the marks in order, every image the cache-off
# start made counted, and one thread when coreclr_initialize began (the ahead thread joined: a live one costs 8-20 ms)
ph=$(ASMSTORE_CACHE_DISABLE=1 ASMSTORE_HOST_PHASES=1 ASMSTORE_HOST_AHEAD=1 "$HOST" --cache cache app.so hello.dll store x 2>&1 >/dev/null | grep '^phases: ')
if echo "$ph" | awk -v n="$nloaded" '{ for (i = 2; i <= 6; i++) { split($i, a, "[=/]"); if (a[2] < last) bad = 1; last = a[2] }
     split($7, im, "[=/]"); exit !(!bad && im[4] == n && im[5] > 0 && $8 == "threads=1") }'; then
  t_ok "phases: marks in order, $nloaded images decompressed, one thread at coreclr_initialize: $ph"
else t_fail "phases line" "${ph:-no phases: line}"; fi
# the first start's switches (make bench measures each): every way into the images file, CoreLib ahead, and the
# cache's own buffers through the external door (ASMSTORE_HOST_INTO_FILE=0, how the host worked before)
for sw in SCRATCH=plain SCRATCH=map SCRATCH=populate AHEAD=1; do
  run "nocache-${sw,,}" app.so "\(0 hits, $nloaded misses.*doors: $nloaded bundle, 0 external \(bundle file: $IMAGES\)" ASMSTORE_CACHE_DISABLE=1 "ASMSTORE_HOST_$sw"
done
run nocache-not-into-file app.so "\(0 hits, $nloaded misses.*doors: 0 bundle, $nloaded external \(bundle file: the store\)" ASMSTORE_CACHE_DISABLE=1 ASMSTORE_HOST_INTO_FILE=0
# the cache fed during the start (PUT_AFTER_MAIN=0), or by the cache's own misses (INTO_FILE=0): a warm start after
# either maps every image from the pack
for sw in PUT_AFTER_MAIN=0 INTO_FILE=0; do
  rm -rf cache
  doors="$nloaded bundle, 0 external"; [ $sw = INTO_FILE=0 ] && doors="0 bundle, $nloaded external"
  run "cold-${sw,,}" app.so "\(0 hits, $nloaded misses.*doors: $doors" "ASMSTORE_HOST_$sw"
  run "warm-after-${sw,,}" app.so "\($nloaded hits, 0 misses.*doors: $nloaded bundle, 0 external \(bundle file: the cache's pack\)"
done
RUN_FLAGS=--external-only run warm-external app.so "\($nloaded hits, 0 misses.*doors: 0 bundle, $nloaded external \(bundle file: none, --external-only\)"
# a pack cut short fails its checks at open: every image decompressed again (through the external probe), the
# program unchanged, and the flush writes a whole pack again, which the next start maps
pack=$(echo cache/decompressed-assembly-cache-v1/*/pack)
if [ -f "$pack" ]; then
  truncate -s $(($(stat -c %s "$pack") / 2)) "$pack"
  run truncated-pack app.so "\(0 hits, $nloaded misses.*doors: $nloaded bundle, 0 external \(bundle file: $IMAGES\)"
  run repacked app.so "\($nloaded hits, 0 misses.*doors: $nloaded bundle, 0 external \(bundle file: the cache's pack\)"
else t_fail "the warm run's pack" "no $pack after a cold and a warm run"; fi
# zero-copy: uncompressed stores; aligned images (pack's CoreCLR default, 4096) are used in place, through the
# bundle door; back-to-back ones (--align-images 1, upstream's layout) at offsets not a multiple of 16 are
# copied first and handed over by address (how many land on a multiple of 16 depends on the names before
# them: with or without .ni.dll twins); same output
"$ASMSTORE" pack --abi x86_64 --runtime coreclr --no-compress -o flat16.so "$CLR_DIR" "$APP/hello.dll" "$APP/Greeting.dll" >/dev/null 2>&1
"$ASMSTORE" pack --abi x86_64 --runtime coreclr --no-compress --align-images 1 -o flat1.so "$CLR_DIR" "$APP/hello.dll" "$APP/Greeting.dll" >/dev/null 2>&1
run flat16 flat16.so "\(0 hits, 0 misses, $nloaded direct \(used in place\), 0 copied.*doors: $nloaded bundle, 0 external \(bundle file: the store\)"
run flat1 flat1.so "\(0 hits, 0 misses, [0-9]+ direct \(used in place\), [1-9][0-9]* copied.*doors: [0-9]+ bundle, [1-9][0-9]* external"
RUN_FLAGS=--external-only run flat16-external flat16.so "\(0 hits, 0 misses, $nloaded direct.*doors: 0 bundle, $nloaded external"
# what exe_path changes for the program: GetCommandLineArgs()[0] is the bundle (the store in place, the pack as
# /proc/self/fd/N), the entry path with --external-only, the .dll's path from files; AppContext.BaseDirectory is the
# store's directory in every store mode
argv0() { "$HOST" "$@" hello.dll --argv0 2>/dev/null | sed -n 's/^argv0 //p;s/^base /base=/p' | paste -sd' '; }
a_place=$(argv0 --cache cache flat16.so); a_pack=$(argv0 --cache cache app.so); a_ext=$(argv0 --external-only --cache cache app.so)
a_files=$("$HOST" --tpa "$CLR_DIR" "$APP/hello.dll" --argv0 2>/dev/null | sed -n 's/^argv0 //p')
tt=$(realpath "$T_TMP")
if [ "$a_place" = "$tt/flat16.so base=$tt/" ] && echo "$a_pack" | grep -Eqx "/proc/self/fd/[0-9]+ base=$tt/" &&
   [ "$a_ext" = "$tt/app.so/hello.dll base=$tt/" ] && [ "$a_files" = "$(realpath "$APP/hello.dll")" ]; then
  t_ok "GetCommandLineArgs()[0]: the store in place, /proc/self/fd/N from the pack, <store>/hello.dll by address, the .dll from files"
else t_fail "GetCommandLineArgs()[0] by mode" "in place: $a_place; pack: $a_pack; external: $a_ext; files: $a_files"; fi

# what the door changes: mapped from the file, the images cost no private memory; by address the runtime copies
# each (+15 MiB private dirty for this program); the margin is 8 MiB, a fact of the layout, not of timing
dirty() { ASMSTORE_HOST_MEMORY=1 "$HOST" "$@" --cache cache-mem flat16.so hello.dll store x 2>&1 >/dev/null | sed -n 's/^memory: private_dirty_kb=\([0-9]*\).*/\1/p'; }
d_bundle=$(dirty); d_external=$(dirty --external-only)
if [ -n "$d_bundle" ] && [ -n "$d_external" ] && [ $((d_external - d_bundle)) -gt 8192 ]; then
  t_ok "the bundle door maps instead of copying: private dirty $((d_bundle / 1024)) MiB vs $((d_external / 1024)) MiB by address"
else t_fail "private dirty, bundle vs external door" "${d_bundle:-?} vs ${d_external:-?} kB"; fi
# X.ni.dll names: a .NET 11 GA store (app.so) has no twins, so those probes are "not in the store"; a store of the
# .NET 10 / 11 preview layout (twins.so) answers them from its ignored placeholders; the program runs from both
if grep -q "probe System.Private.CoreLib.dll: store" cold.err && grep -q "probe System.Runtime.ni.dll: declined (not in the store)" cold.err &&
   grep -q '(0 .ni.dll placeholders' cold.err && "$ASMSTORE" info app.so | grep -q '^entries: .*(0 ignored'; then
  t_ok "twin-less store: CoreLib served, X.ni.dll names declined as not in the store (it holds no .ni.dll placeholders)"
else t_fail "CoreLib / .ni.dll probes (no twins)" "$(grep -E 'CoreLib|ni\.dll' cold.err | head -5; "$ASMSTORE" info app.so | grep entries)"; fi
"$ASMSTORE" pack --abi x86_64 --target net11-preview --runtime coreclr -o twins.so "$CLR_DIR" "$APP/hello.dll" "$APP/Greeting.dll" >/dev/null 2>&1
run twins twins.so "$nloaded assemblies served from the store, .*probes declined \([1-9][0-9]* \.ni\.dll placeholders"
if grep -q "probe System.Runtime.ni.dll: declined (placeholder)" twins.err; then
  t_ok "store with .ni.dll twins (--target net11-preview): X.ni.dll names declined by its ignored placeholders"
else t_fail ".ni.dll probes (twins)" "$(grep -E 'ni\.dll' twins.err | head -5)"; fi

"$HOST" --cache cache app.so hello.dll --exit 7 >exit.out 2>exit.err
rc=$?
if [ $rc -eq 7 ] && grep -q '^args: 2 \[0\]=--exit \[1\]=7$' exit.out; then t_ok "Main's exit code is the host's (7)"
else t_fail "exit code" "exit $rc; $(head -3 exit.out exit.err)"; fi

# Main returns while a background thread reads every loaded image's metadata and IL: the runtime's threads outlive
# coreclr_shutdown_2, so whatever the host handed over must stay mapped until the process is gone (cold:
# decompressed images; warm: the pack; flat16: the store in place; flat1: aligned copies). A host that unmaps
# them crashed in about 4 of 5 such starts: three rounds of each
busy_fail=
for round in 1 2 3; do for busy in cold:app.so warm:app.so external:app.so:--external-only flat16:flat16.so flat1:flat1.so; do
  IFS=: read -r kind store flags <<<"$busy"
  [ "$kind" = cold ] && rm -rf cache-busy
  (exec "$HOST" $flags --cache cache-busy "$store" hello.dll --busy-at-exit >busy.out 2>busy.err) 2>/dev/null
  rc=$?
  [ $rc -eq 0 ] && [ "$(cat busy.out)" = "busy at exit" ] || busy_fail="$busy_fail $kind (round $round): exit $rc, $(head -c 200 busy.out);"
done; done
if [ -z "$busy_fail" ]; then t_ok "a thread still reading the images after Main (cold, warm, external, flat16, flat1; three rounds): exit 0"
else t_fail "a thread still reading the images after Main" "$busy_fail"; fi

# strace -f: no .dll path in any file syscall of any thread (not even a failed probe), the installed
# libcoreclr.so loaded (through the private directory's symlink), nothing but lib*.so opened from the
# runtime's directory
strace_run() { # NAME STORE PROGRAM [ARGS...] -> NAME.st (every thread's file syscalls), NAME.out, NAME.err, NAME.rc
  local name=$1 store=$2; shift 2
  # (a subshell: the runtime aborts on an unhandled exception, and bash would report that on our stderr)
  (strace -f -ff -qq -e trace=%file -o "$name.st" "$HOST" --cache cache "$store" "$@" >"$name.out" 2>"$name.err"
   echo $? >"$name.rc") 2>/dev/null
  cat "$name.st".[0-9]* >"$name.st"; rm -f "$name.st".[0-9]*
}
dll_paths() { grep -v '^execve(' "$1" | grep -E '\.dll"' || true; }
# the same, less failed lookups in the host's private runtime directory (<cache>/coreclr-runtime-v1/<key>, 0700,
# holding only the libcoreclr.so and libclrjit.so symlinks): where a store without CoreLib sends the runtime
PRIVATE_RE='/coreclr-runtime-v1/[0-9a-f]{16}'
dll_paths_public() { dll_paths "$1" | grep -vE "\"[^\"]*$PRIVATE_RE/[^/\"]*\\.dll\".* = -1 ENOENT" || true; }
if command -v strace >/dev/null 2>&1; then
  for kind in cold warm; do
    [ $kind = cold ] && rm -rf cache
    strace_run "st.$kind" app.so hello.dll store "two words"
    dlls=$(dll_paths "st.$kind.st")
    core=$(grep -E "^openat\\(AT_FDCWD, \"[^\"]*$PRIVATE_RE/libcoreclr\\.so\", .*\\) = [0-9]+\$" "st.$kind.st" | head -1)
    linked=$(readlink cache/coreclr-runtime-v1/*/libcoreclr.so | grep -cxF "$CLR_DIR/libcoreclr.so")
    fw=$(grep -F "\"$CLR_DIR/" "st.$kind.st" | grep -v '= -1 E' | grep -vE "\"$CLR_DIR/lib[^/\"]*\.so\"" | grep -v '^symlink(' || true)
    if [ "$(cat "st.$kind.rc")" = 0 ] && diff -q want "st.$kind.out" >/dev/null && [ -z "$dlls" ] && [ -n "$core" ] && [ "$linked" = 1 ] && [ -z "$fw" ]; then
      t_ok "strace -f ($kind): exit 0, output exact, no .dll opened (or even looked up) on the filesystem, $CLR_DIR/libcoreclr.so loaded"
    else t_fail "strace -f ($kind, exit $(cat "st.$kind.rc"))" "$(printf '%s\n' "$dlls" "$fw" | head -8; echo "libcoreclr: ${core:-not opened}"; tail -3 "st.$kind.err")"; fi
  done
  # the warm start's bundle is the pack, which the runtime opens as /proc/self/fd/N (the descriptor the cache
  # checked, whatever a consolidation renames into place meanwhile; the PAL spells it /proc/<pid>/fd/N)
  nfd=$(grep -cE '^openat\(AT_FDCWD, "/proc/(self|[0-9]+)/fd/[0-9]+", O_RDONLY.*\) = [0-9]+$' st.warm.st)
  if [ "$nfd" -ge "$nloaded" ]; then
    t_ok "strace -f (warm): the runtime maps its $nloaded images from the pack, opened $nfd times as /proc/self/fd/N"
  else t_fail "strace -f (warm): the pack as the bundle" "$nfd opens; $(grep -E '/proc/[^/]*/fd/' st.warm.st | head -3)"; fi
else t_skip "strace" "strace not installed"; fi

# ---- bad input: the runtime's own error, a non-zero exit, nothing read from the shared framework ----
# a symlink farm of the framework without one assembly (and optionally something else in its place)
farm() { # DIR WITHOUT
  mkdir "$1"; for f in "$CLR_DIR"/*.dll; do [ "$(basename "$f")" = "$2" ] || ln -s "$f" "$1/"; done
}
pack_farm() { "$ASMSTORE" pack --abi x86_64 $PACK_CORECLR_FLAGS -o "$1" "$2" "$APP/hello.dll" "$APP/Greeting.dll" >/dev/null 2>&1; }
# bad NAME STORE GREP-REGEX DESCRIPTION: under strace, exit non-zero, the message, no .dll from disk
bad() {
  local name=$1 store=$2 re=$3 what=$4 rc dlls
  rm -rf cache
  strace_run "$name" "$store" hello.dll store
  rc=$(cat "$name.rc"); dlls=$(dll_paths_public "$name.st")
  if [ "$rc" -ne 0 ] && grep -Eq "$re" "$name.err" && [ -z "$dlls" ]; then
    t_ok "$what: exit $rc, \"$(grep -Eo "$re" "$name.err" | head -1 | cut -c1-110)\", no .dll from the filesystem"
  else t_fail "$what (exit $rc)" "$(printf '%s\n' "$dlls" | head -3; head -8 "$name.err")"; fi
}

farm nocorelib System.Private.CoreLib.dll; pack_farm nocorelib.so nocorelib
bad nocorelib nocorelib.so "Failed to load System.Private.CoreLib.dll \(error code 0x80070002\)" "a store without System.Private.CoreLib"
if grep -q "coreclr_initialize failed: 0x80070002" nocorelib.err && grep -q "System.Private.CoreLib.dll did not come from the store" nocorelib.err &&
   ! grep -qF "$CLR_DIR/System.Private.CoreLib.dll" nocorelib.st; then
  t_ok "without CoreLib the runtime looked only in its own private directory (symlinks to its two libraries), never at $CLR_DIR/System.Private.CoreLib.dll"
else t_fail "CoreLib fallback" "$(grep -F System.Private.CoreLib nocorelib.st | head -3; tail -2 nocorelib.err)"; fi

farm noregex System.Text.RegularExpressions.dll; pack_farm noregex.so noregex
bad noregex noregex.so "FileNotFoundException: Could not load file or assembly 'System.Text.RegularExpressions, Version=[0-9.]+" \
  "a store without System.Text.RegularExpressions (the program uses it)"

# the same assembly's entry with its zstd frame magic overwritten: the cache cannot decompress it
cp app.so corrupt.so
size=$(stat -c %s "$CLR_DIR/System.Text.RegularExpressions.dll")
if python3 - corrupt.so "$size" <<'EOF'
import struct, sys
path, size = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
# an XAZS image: "XAZS", u32 index, u32 uncompressed length, then the zstd frame (magic 28 b5 2f fd)
hits = [i for i in range(len(data)) if data.startswith(b"XAZS", i) and struct.unpack_from("<I", data, i + 8)[0] == size]
if len(hits) != 1 or data[hits[0] + 12:hits[0] + 16] != b"\x28\xb5\x2f\xfd":
    sys.exit("found %d XAZS images of %d bytes" % (len(hits), size))
data[hits[0] + 12:hits[0] + 16] = b"\0\0\0\0"
open(path, "wb").write(data)
EOF
then
  bad corrupt corrupt.so "FileNotFoundException: Could not load file or assembly 'System.Text.RegularExpressions" \
    "a corrupt entry (System.Text.RegularExpressions' zstd frame)"
  if grep -q "^coreclr_host: System.Text.RegularExpressions.dll: " corrupt.err; then
    t_ok "the host names the corrupt entry: $(grep -m1 '^coreclr_host: System.Text.RegularExpressions.dll: ' corrupt.err)"
  else t_fail "corrupt entry message" "$(head -5 corrupt.err)"; fi
else t_fail "corrupt an entry" "the XAZS image of System.Text.RegularExpressions.dll not found once in app.so"; fi

# an entry that decompresses fine but is not a PE image: served, and the runtime rejects it
farm notpe System.Text.RegularExpressions.dll
head -c 20000 /dev/urandom | { printf 'MZ'; cat; } >notpe/System.Text.RegularExpressions.dll
"$ASMSTORE" pack --no-check --abi x86_64 $PACK_CORECLR_FLAGS -o notpe.so notpe "$APP/hello.dll" "$APP/Greeting.dll" >/dev/null 2>&1
bad notpe notpe.so "FileNotFoundException: Could not load file or assembly 'System.Text.RegularExpressions" "an entry that is not a PE image"

# a program not in the store: the runtime, declined by the probe, tries "<store>/nothere.dll" on disk
# (ENOTDIR: a .so is not a directory; with the pack or this start's images as the bundle, /proc/self/fd/nothere.dll,
# which the runtime also stats as /proc/<pid>/fd/nothere.dll: ENOENT) and reports it; no other .dll path is touched
strace_run noprogram app.so nothere.dll
other=$(dll_paths noprogram.st | grep -vE "\"($T_TMP/app.so|/proc/(self|[0-9]+)/fd)/nothere.dll\"" || true)
if [ "$(cat noprogram.rc)" -ne 0 ] && grep -qE "FileNotFoundException: Could not load file or assembly '($T_TMP/app.so|/proc/self/fd)/nothere.dll'" noprogram.err &&
   [ -z "$other" ] && ! dll_paths noprogram.st | grep -qvE ' = -1 (ENOTDIR|ENOENT)'; then
  t_ok "a program not in the store: exit $(cat noprogram.rc), the runtime's FileNotFoundException for <store or /proc/self/fd>/nothere.dll (never a file)"
else t_fail "a program not in the store (exit $(cat noprogram.rc))" "$(printf '%s\n' "$other" | head -3; head -4 noprogram.err)"; fi

# the anchor make bench compares with: the same host and runtime, assemblies from files (TPA)
"$HOST" --tpa "$CLR_DIR" "$APP/hello.dll" store "two words" >tpa.out 2>tpa.err
rc=$?
if [ $rc -eq 0 ] && diff -q want tpa.out >/dev/null && grep -q "started from files" tpa.err; then t_ok "--tpa (files on disk, the bench's anchor): same output"
else t_fail "--tpa (exit $rc)" "$(diff want tpa.out | head -5; tail -3 tpa.err)"; fi

# ---- the doors' code under ASan + UBSan (build/asan/coreclr_host): in place, misaligned, warm, a truncated pack ----
ASAN_HOST=$BUILD/asan/coreclr_host
if [ ! -x "$ASAN_HOST" ]; then t_skip "ASan host" "$ASAN_HOST not built (make coreclr-host)"
else
  asan_run() { # NAME STORE EXPECT-REGEX [host flags]
    local name=$1 store=$2 re=$3; shift 3
    ASAN_OPTIONS=detect_leaks=0 "$ASAN_HOST" "$@" --cache cache-asan "$store" hello.dll store "two words" >"$name.out" 2>"$name.err"
    local rc=$?
    if [ $rc -eq 0 ] && diff -q want "$name.out" >/dev/null && grep -Eq "$re" "$name.err" && ! grep -q 'Sanitizer' "$name.err"; then
      t_ok "ASan+UBSan $name: output exact, no report: $(grep -o 'doors: [^)]*)' "$name.err")"
    else t_fail "ASan+UBSan $name (exit $rc)" "$(grep -A3 -m1 Sanitizer "$name.err"; tail -2 "$name.err" | cut -c1-200)"; fi
  }
  asan_run asan-in-place flat16.so "doors: $nloaded bundle, 0 external"
  asan_run asan-misaligned flat1.so "doors: [0-9]+ bundle, [1-9][0-9]* external"
  asan_run asan-cold app.so "doors: $nloaded bundle, 0 external \(bundle file: $IMAGES\)"
  asan_run asan-warm app.so "doors: $nloaded bundle, 0 external \(bundle file: the cache's pack\)"
  pack=$(echo cache-asan/decompressed-assembly-cache-v1/*/pack)
  [ -f "$pack" ] && truncate -s 70000 "$pack"
  asan_run asan-truncated-pack app.so "\(0 hits, $nloaded misses.*doors: $nloaded bundle, 0 external"
  rm -rf cache-asan
  ASMSTORE_HOST_INTO_FILE=0 asan_run asan-cold-not-into-file app.so "doors: 0 bundle, $nloaded external \(bundle file: the store\)"
  rm -rf cache-asan
  ASMSTORE_HOST_SCRATCH=map ASMSTORE_CACHE_DISABLE=1 asan_run asan-nocache-map app.so "doors: $nloaded bundle, 0 external \(bundle file: $IMAGES\)"
  asan_run asan-external app.so "doors: 0 bundle, $nloaded external" --external-only
fi

# ---- the same doors on .NET 11.0.0 (make runtime-net11: the NuGet runtime pack as a runtime directory), with a
# store of that runtime's own framework ----
NET11=$BUILD/runtime-net11
if [ ! -f "$NET11/libcoreclr.so" ]; then t_skip ".NET 11.0.0" "no $NET11 (make runtime-net11: needs dotnet and the NuGet feed)"
else
  # (zstd level 3: the preset's 22 takes a minute here, and the store's bytes are not what is under test)
  t_check "pack the 11.0.0 framework + hello.dll + Greeting.dll (--target net11 --runtime coreclr, compressed and not)" \
    sh -c "'$ASMSTORE' pack --abi x86_64 --target net11 --runtime coreclr --level 3 -o app11.so '$NET11' '$APP/hello.dll' '$APP/Greeting.dll' &&
           '$ASMSTORE' pack --abi x86_64 --target net11 --runtime coreclr --no-compress -o flat11.so '$NET11' '$APP/hello.dll' '$APP/Greeting.dll'"
  # run11 NAME STORE EXPECT-REGEX [host flags]: the program's fixed lines and every assembly it loaded from the store
  run11() {
    local name=$1 store=$2 re=$3; shift 3
    "$HOST" -v --runtime "$NET11" "$@" --cache cache11 "$store" hello.dll store "two words" >"$name.out" 2>"$name.err"
    local rc=$?
    sed -n 's/^coreclr_host: probe \(.*\)\.dll: store.*/\1/p' "$name.err" | sort -u >"$name.served"
    sed -n 's/^loaded: //p' "$name.out" | tr ' ' '\n' | sort >"$name.loaded"
    if [ $rc -eq 0 ] && head -n 9 "$name.out" | diff want.fixed - >"$name.diff" && grep -Eq "$re" "$name.err" &&
       grep -qx System.Private.CoreLib "$name.loaded" && cmp -s "$name.served" "$name.loaded"; then
      t_ok "11.0.0 $name: output exact, every assembly from the store: $(grep -o 'doors: [^)]*)' "$name.err")"
    else t_fail "11.0.0 $name (exit $rc)" "$(cat "$name.diff"; diff "$name.served" "$name.loaded"; grep -v ': probe ' "$name.err" | head -6)"; fi
  }
  run11 cold app11.so "\(0 hits, [0-9]+ misses.*doors: [0-9]+ bundle, 0 external \(bundle file: $IMAGES\).*runtime 11\.0\.0"
  run11 warm app11.so "\([0-9]+ hits, 0 misses.*doors: [0-9]+ bundle, 0 external \(bundle file: the cache's pack\).*runtime 11\.0\.0"
  run11 in-place flat11.so "\(0 hits, 0 misses, [0-9]+ direct.*doors: [0-9]+ bundle, 0 external \(bundle file: the store\)"
  run11 in-place-external flat11.so "doors: 0 bundle, [0-9]+ external \(bundle file: none" --external-only
fi

t_done
