#!/usr/bin/env bash
# tests/t_host_composite.sh - a composite ReadyToRun framework (make composite-net10: the installed .NET 10
# framework + hello.dll + Greeting.dll compiled by crossgen2 into build/composite/hello.r2r.dll, one IL
# component stub per input beside it) runs examples/hello_clr from files with build/coreclr_host --tpa,
# and its code is what runs: the image is opened and mapped, and the JIT compiles a small fraction of
# what it compiles for the same files with ReadyToRun code disabled (counted by the runtime itself,
# DOTNET_JitStdOutFile + DOTNET_JitDisasmSummary; no timing). The stubs without the composite: the
# runtime looks for it beside the first stub and aborts (SIGABRT, nothing printed), recorded as a fact.
# And build/runtime-net11 (make runtime-net11, a flat runtime dir of symlinks into the NuGet package)
# starts the same program, from files and from a store.
. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/coreclr_env.sh"
HOST=$BUILD/coreclr_host
APP=$BUILD/hello_clr
COMP=$BUILD/composite
R11=$BUILD/runtime-net11
if ! clr_find_runtime; then t_skip "composite" "$CLR_WHY"; t_done; exit; fi
if [ "$(uname -m)" != x86_64 ]; then t_skip "composite" "the composite and runtime-net11 are linux-x64; this is $(uname -m)"; t_done; exit; fi
if [ ! -x "$HOST" ] || [ ! -f "$APP/hello.dll" ]; then t_skip "composite" "$HOST or $APP/hello.dll not built (make coreclr-host)"; t_done; exit; fi
if ! command -v strace >/dev/null 2>&1; then t_skip "composite" "strace not installed (make deps): the checks read what the runtime opened"; t_done; exit; fi
cd "$T_TMP" || exit 1

clr_want_fixed >want.fixed
# out_ok FILE: the 9 fixed lines exactly, then one "loaded:" line naming CoreLib, hello and Greeting
out_ok() {
  [ "$(wc -l <"$1")" = 10 ] && head -n 9 "$1" | diff -q want.fixed - >/dev/null &&
    sed -n '10p' "$1" | grep -Eq '^loaded: (.* )?System\.Private\.CoreLib( .*)?$' &&
    sed -n '10p' "$1" | grep -Eq ' hello( |$)' && sed -n '10p' "$1" | grep -Eq ' Greeting( |$)'
}
loaded() { sed -n 's/^loaded: //p' "$1" | tr ' ' '\n' | sort; }
# hostrun NAME [env...] -- ARGS...: the host under strace -f (openat, mmap), in a subshell (an abort is
# reported there, not on our stderr) -> NAME.out NAME.err NAME.rc NAME.st
hostrun() {
  local name=$1; shift; local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  (env "${envs[@]}" strace -f -qq -e trace=openat,mmap -o "$name.st" "$HOST" "$@" >"$name.out" 2>"$name.err"
   echo $? >"$name.rc") 2>/dev/null
}
# jitcount NAME [env...] -- ARGS...: how many methods the JIT compiled (-1: no summary written)
jitcount() {
  local name=$1; shift; local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  rm -f "$T_TMP/$name.jit"
  (env "${envs[@]}" DOTNET_JitDisasmSummary=1 DOTNET_JitStdOutFile="$T_TMP/$name.jit" "$HOST" "$@" >"$name.jout" 2>&1) 2>/dev/null
  if [ -s "$name.jit" ]; then grep -c 'JIT compiled' "$name.jit"; else echo -1; fi
}
# mapped ST PATH: PATH opened (an fd) and part of that fd mmap'ed executable (its code)
mapped() {
  local fd
  fd=$(grep -F "openat(AT_FDCWD, \"$2\"" "$1" | sed -n 's/.* = \([0-9][0-9]*\)$/\1/p' | head -n 1)
  [ -n "$fd" ] && grep -Eq "mmap\([^,]*, [0-9]+, PROT_READ\|PROT_EXEC, [^,]*, $fd, " "$1"
}

# ---- the composite ----
if [ ! -f "$COMP/hello.r2r.dll" ] || [ ! -f "$COMP/.stamp" ]; then
  t_skip "composite" "$COMP/hello.r2r.dll not built (make composite-net10: crossgen2, minutes on 2 cores)"
else
  nstub=$(ls "$COMP"/*.dll | grep -vc '/hello\.r2r\.dll$')
  echo "  composite: $(sed -n 2p "$COMP/.stamp")"
  # anchor: the installed framework (per-assembly R2R), the same host, from files
  hostrun fw -- --tpa "$CLR_DIR" "$APP/hello.dll" store "two words"
  if [ "$(cat fw.rc)" = 0 ] && out_ok fw.out; then t_ok "anchor: --tpa $CLR_DIR runs hello.dll ($(loaded fw.out | wc -l) assemblies loaded)"
  else t_fail "anchor --tpa $CLR_DIR (exit $(cat fw.rc))" "$(diff want.fixed fw.out | head -5; tail -3 fw.err)"; fi

  # the brief's layout: --tpa build/composite; CoreLib still comes from libcoreclr.so's own directory
  hostrun comp -- --tpa "$COMP" "$COMP/hello.dll" store "two words"
  if [ "$(cat comp.rc)" = 0 ] && out_ok comp.out && grep -q "started from files" comp.err; then
    gone=$(comm -23 <(loaded fw.out) <(loaded comp.out) | tr '\n' ' ')
    t_ok "--tpa $COMP ($nstub stubs + hello.r2r.dll): exit 0, the 9 output lines exact; loads $(loaded comp.out | wc -l) assemblies${gone:+ (not the facades ${gone% } that the JIT-compiled anchor resolves)}"
  else t_fail "--tpa $COMP (exit $(cat comp.rc))" "$(diff want.fixed comp.out | head -5; tail -3 comp.err)"; fi
  if mapped comp.st "$COMP/hello.r2r.dll"; then t_ok "strace: $COMP/hello.r2r.dll opened and mmap'ed PROT_EXEC"
  else t_fail "hello.r2r.dll not opened and mapped" "$(grep -F r2r comp.st | head -3)"; fi
  if grep -qF "openat(AT_FDCWD, \"$CLR_DIR/System.Private.CoreLib.dll\"" comp.st; then
    t_ok "with the installed libcoreclr.so CoreLib is $CLR_DIR's (its own R2R code), not the composite's stub"
  else t_fail "CoreLib's origin" "$(grep -F System.Private.CoreLib.dll comp.st | head -2)"; fi
  n_comp=$(jitcount comp -- --tpa "$COMP" "$COMP/hello.dll" store "two words")
  n_off=$(jitcount off DOTNET_ReadyToRun=0 -- --tpa "$COMP" "$COMP/hello.dll" store "two words")
  n_fw=$(jitcount fwj -- --tpa "$CLR_DIR" "$APP/hello.dll" store "two words")
  if [ "$n_comp" -lt 0 ] || [ "$n_off" -lt 0 ]; then
    t_skip "JIT count" "this runtime wrote no DOTNET_JitStdOutFile summary (DOTNET_JitDisasmSummary unsupported?)"
  elif [ "$n_comp" -gt 0 ] && [ $((n_comp * 10)) -lt "$n_off" ]; then
    t_ok "the composite's code runs: the JIT compiled $n_comp methods (DOTNET_ReadyToRun=0, same files: $n_off; installed per-assembly R2R framework: $n_fw)"
  else t_fail "JIT count" "composite $n_comp methods JIT'd, ReadyToRun=0 $n_off (want under a tenth)"; fi

  # the whole framework from the composite: a DOTNET_ROOT whose runtime dir holds libcoreclr.so & co
  # (symlinks to the installed ones) and the composite's files, so CoreLib is the composite's too
  root=$COMP.root; rdir=$(ls -d "$root/shared/Microsoft.NETCore.App/"* 2>/dev/null | head -n 1)
  if [ -n "$rdir" ] && [ -e "$rdir/hello.r2r.dll" ]; then
    hostrun full DOTNET_ROOT="$root" -- --tpa "$rdir" "$rdir/hello.dll" store "two words"
    n_full=$(jitcount full DOTNET_ROOT="$root" -- --tpa "$rdir" "$rdir/hello.dll" store "two words")
    if [ "$(cat full.rc)" = 0 ] && out_ok full.out && grep -qF "openat(AT_FDCWD, \"$rdir/System.Private.CoreLib.dll\"" full.st &&
       mapped full.st "$rdir/hello.r2r.dll" && [ "$n_full" -ge 0 ] && [ $((n_full * 10)) -lt "$n_off" ]; then
      t_ok "DOTNET_ROOT=${root#"$TOP"/} (CoreLib from the composite too): exit 0, output exact, hello.r2r.dll mapped, $n_full methods JIT'd"
    else t_fail "composite root (exit $(cat full.rc), $n_full JIT'd)" "$(diff want.fixed full.out | head -3; grep -F -e CoreLib -e r2r full.st | head -3; tail -2 full.err)"; fi
  else t_skip "composite root" "$root not made (make composite-net10 makes it)"; fi

  # the stubs without the composite image: the runtime looks for it beside the first stub, aborts
  mkdir stubs && for f in "$COMP"/*.dll; do [ "${f##*/}" = hello.r2r.dll ] || cp "$f" stubs/; done
  hostrun stubs -- --tpa "$T_TMP/stubs" "$T_TMP/stubs/hello.dll" store "two words"
  if [ "$(cat stubs.rc)" = 134 ] && [ ! -s stubs.out ] && [ ! -s stubs.err ] &&
     grep -qF "openat(AT_FDCWD, \"$T_TMP/stubs/hello.r2r.dll\", O_RDONLY) = -1 ENOENT" stubs.st; then
    t_ok "the $nstub stubs without hello.r2r.dll: the runtime looks for stubs/hello.r2r.dll (ENOENT) and aborts: SIGABRT (exit 134), nothing on stdout or stderr"
  else t_fail "stubs without the composite: exit $(cat stubs.rc) (recorded: 134, silent)" "$(head -3 stubs.out stubs.err; grep -F r2r stubs.st | head -2)"; fi
fi

# ---- the composite from a store: the runtime asks the probes for hello.r2r.dll by its bare name after CoreLib;
# served through the bundle door it is mapped from the store's file (in place) or the cache's pack (warm) ----
if [ -f "$COMP/hello.r2r.dll" ] && [ -f "$COMP/.stamp" ]; then
  # (zstd level 3: the preset's level 22 takes minutes on a 49 MB image; the store's bytes are not under test)
  t_check "pack the composite + its $nstub stubs: uncompressed, compressed, compressed with the composite kept uncompressed" \
    sh -c "'$ASMSTORE' pack --abi x86_64 --target net11 --runtime coreclr --no-compress -o comp-flat.so '$COMP' &&
           '$ASMSTORE' pack --abi x86_64 --target net11 --runtime coreclr --level 3 -o comp-z.so '$COMP' &&
           '$ASMSTORE' pack --abi x86_64 --target net11 --runtime coreclr --level 3 --keep-uncompressed '*.r2r.dll' -o comp-keep.so '$COMP'"
  # storerun NAME STORE EXPECT-REGEX: -v, exact output, the composite served through the bundle door, the JIT count
  storerun() {
    local name=$1 store=$2 re=$3 n
    "$HOST" -v --cache cache "$store" hello.dll store "two words" >"$name.out" 2>"$name.err"; echo $? >"$name.rc"
    n=$(jitcount "$name.j" -- --cache cache "$store" hello.dll store "two words")
    if [ "$(cat "$name.rc")" = 0 ] && out_ok "$name.out" && grep -Eq "$re" "$name.err" &&
       grep -q '^coreclr_host: probe hello.r2r.dll: store, .*, bundle door$' "$name.err" && [ "$n" -ge 0 ] && [ $((n * 10)) -lt "$n_off" ]; then
      t_ok "$name: output exact, hello.r2r.dll through the bundle door, $n methods JIT'd: $(grep -o 'doors: [^)]*)' "$name.err")"
    else t_fail "$name (exit $(cat "$name.rc"), $n JIT'd)" "$(grep -E 'r2r|doors' "$name.err" | cut -c1-200 | head -4)"; fi
  }
  storerun comp-in-place comp-flat.so "doors: [0-9]+ bundle, 0 external \(bundle file: the store\)"
  # the .NET 11 preview layout: every entry with its ignored .ni.dll twin (GA's, above, has none)
  "$ASMSTORE" pack --abi x86_64 --target net11-preview --runtime coreclr --no-compress -o comp-twins.so "$COMP" >/dev/null 2>&1
  storerun comp-twins comp-twins.so "doors: [0-9]+ bundle, 0 external \(bundle file: the store\); [0-9]+ probes declined \([1-9][0-9]* \.ni\.dll placeholders"
  storerun comp-keep comp-keep.so "doors: 1 bundle, [0-9]+ external \(bundle file: the store\)"
  rm -rf cache
  "$HOST" --cache cache comp-z.so hello.dll store "two words" >comp-cold.out 2>comp-cold.err
  if out_ok comp-cold.out && grep -Eq "doors: [1-9][0-9]* bundle, 0 external \(bundle file: this start's images" comp-cold.err; then
    t_ok "comp-cold: output exact, every image decompressed into this start's images file (bundle door), the 49 MB composite put in the cache after Main"
  else t_fail "comp-cold" "$(tail -2 comp-cold.err | cut -c1-300)"; fi
  storerun comp-warm comp-z.so "\([0-9]+ hits, 0 misses.*doors: [0-9]+ bundle, 0 external \(bundle file: the cache's pack\)"
fi

# ---- runtime 11 from the NuGet package ----
if [ ! -f "$R11/.stamp" ]; then
  t_skip "runtime-net11" "$R11 not made (make runtime-net11: offline or no dotnet?)"
else
  v11=$(sed -n 's/^Microsoft\.NETCore\.App\.Runtime\.linux-x64 \([^ ]*\) .*/\1/p' "$R11/.stamp")
  broken=$(find "$R11" -xtype l | head -3); copies=$(find "$R11" -type f ! -name .stamp | head -3)
  if [ -z "$broken" ] && [ -z "$copies" ] && [ -e "$R11/libcoreclr.so" ] && [ -e "$R11/libclrjit.so" ] && [ -e "$R11/System.Private.CoreLib.dll" ]; then
    t_ok "$(basename "$R11") ($v11): $(ls "$R11"/*.dll | wc -l) assemblies, $(ls "$R11"/*.so | wc -l) native libraries, all symlinks, none dangling"
  else t_fail "$R11 layout" "dangling: $broken; not links: $copies"; fi
  # until coreclr_host has --runtime: a DOTNET_ROOT whose only runtime is that directory
  mkdir -p root11/shared/Microsoft.NETCore.App && ln -s "$R11" "root11/shared/Microsoft.NETCore.App/$v11"
  hostrun r11 DOTNET_ROOT="$T_TMP/root11" -- --tpa "$T_TMP/root11/shared/Microsoft.NETCore.App/$v11" "$APP/hello.dll" store "two words"
  if [ "$(cat r11.rc)" = 0 ] && out_ok r11.out && grep -q "runtime $v11:" r11.err &&
     grep -Eq "openat\(AT_FDCWD, \"($T_TMP/root11/shared/Microsoft.NETCore.App/$v11|$R11)/System.Private.CoreLib.dll\", [^)]*\) = [0-9]" r11.st; then
    t_ok "runtime $v11 from $(basename "$R11") (DOTNET_ROOT, --tpa): exit 0, output exact, CoreLib found beside the libcoreclr.so symlink"
  else t_fail "runtime $v11 --tpa (exit $(cat r11.rc))" "$(diff want.fixed r11.out | head -3; tail -3 r11.err)"; fi
  if [ -x "$ASMSTORE" ]; then
    # zstd level 3, not the preset's 22: the store's bytes are not what is tested here (22 takes ~80 s)
    "$ASMSTORE" pack --abi x86_64 $PACK_CORECLR_FLAGS --level 3 -o app11.so "$R11" "$APP/hello.dll" "$APP/Greeting.dll" >pack11.out 2>&1
    hostrun s11 DOTNET_ROOT="$T_TMP/root11" ASMSTORE_CACHE_DISABLE=1 -- app11.so hello.dll store "two words"
    if [ "$(cat s11.rc)" = 0 ] && out_ok s11.out && grep -q "System.Private.CoreLib.dll included.*runtime $v11:" s11.err; then
      t_ok "runtime $v11 from a store of $(basename "$R11") ($PACK_CORECLR_FLAGS --level 3): $(grep -o '[0-9]* assemblies served[^;]*' s11.err)"
    else t_fail "runtime $v11 from a store (exit $(cat s11.rc))" "$(head -3 pack11.out; diff want.fixed s11.out | head -3; tail -3 s11.err)"; fi
  else t_skip "runtime $v11 from a store" "$ASMSTORE not built"; fi
  if "$HOST" --help 2>&1 | grep -q -- '--runtime'; then
    hostrun r11b -- --runtime "$R11" --tpa "$R11" "$APP/hello.dll" store "two words"
    if [ "$(cat r11b.rc)" = 0 ] && out_ok r11b.out && grep -qF "openat(AT_FDCWD, \"$R11/libcoreclr.so\"" r11b.st &&
       grep -qF "openat(AT_FDCWD, \"$R11/System.Private.CoreLib.dll\"" r11b.st; then
      t_ok "coreclr_host --runtime ${R11#"$TOP"/} --tpa: exit 0, output exact, its libcoreclr.so and CoreLib loaded ($(grep -o 'runtime [^:]*:' r11b.err | head -1))"
    else t_fail "--runtime $R11 (exit $(cat r11b.rc))" "$(diff want.fixed r11b.out | head -3; tail -3 r11b.err)"; fi
  else t_skip "coreclr_host --runtime" "this build/coreclr_host has no --runtime yet"; fi
fi
t_done
