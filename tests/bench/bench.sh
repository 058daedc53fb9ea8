#!/usr/bin/env bash
# tests/bench/bench.sh - `make bench`: every figure next to its anchor, measured in the same run,
# written to OUT/BENCHMARKS.md and OUT/bench.png (gnuplot) and echoed to stdout as it goes.
# Never fails on timing: a missed target is reported as "behind", never as an error.
#   usage: bench.sh OUT ASMSTORE BENCH_TOOL BENCH_CACHE     env: BENCH_FULL=1 (every level, more samples),
#          BENCH_ONLY=ttm (section 7 alone)
# Figures (each a median with min-max; A and B interleaved in every repetition):
#   pack    asmstore pack (1 and N threads) vs the zstd CLI on the same files at the same level, and vs
#           the upstream recipe stand-in (zstd per file + llvm-mc .incbin + ld.lld, store-format.md §6.2)
#   locate  asmstore_locate_dlopen + reader init vs dlopen+dlsym of an ld.lld-linked .so vs the APK scan,
#           one fresh process per sample
#   lookup  ns/name vs a bsearch floor (the lookup alone, asmstore_reader_find_index, and with the entry filled,
#           asmstore_reader_find), plus callgrind instructions per lookup and per open
#   read    asmstore_reader_read vs raw ZSTD_decompressDCtx; zero-copy of stored entries vs a copy
#   cache   tests/bench/bench_cache.c: cold vs warm, writer, break-even, dirty vs clean memory; --matrix: the startup
#           matrix in fresh processes (app/corpus, whole/sparse touch, page cache resident/evicted; hit, direct, upstream)
#   scale   locate, open, lookup, load for 20 (app), 30, 300, 3000 entries
#   time to Main  build/coreclr_host (examples/hello_clr on the installed .NET runtime) and build/mono_host
#           (examples/hello) from a compressed store (cache warm, cold, off) and uncompressed ones (16-byte and 16 KiB
#           aligned: used in place; back to back: copied), CoreCLR also from the files on disk; time to Main, page
#           faults, private dirty / clean file-backed memory, store sizes (tests/bench/bench_ttm.sh, time_to_main.py)
# The .NET BCL (the installed shared framework), when there is one, is a second corpus for pack, lookup, read.
set -uo pipefail
OUT=$1; A=$2; T=$3; C=$4
FULL=${BENCH_FULL:-0}
ONLY=${BENCH_ONLY:-} # "ttm": section 7 alone
NCPU=$(nproc)
# the store these figures have always measured: format 4, monovm, zstd, dlopen .so (pack's default is net11 coreclr)
PACK_AS="--target net11-preview --runtime monovm --wrap dlopen"
mkdir -p "$OUT"
W=$(mktemp -d "${TMPDIR:-/tmp}/asmstore-bench.XXXXXX"); trap 'rm -rf "$W"' EXIT
MD=$OUT/BENCHMARKS.md
: >"$MD"
say() { printf '%s\n' "$*" | tee -a "$MD"; }
T0=$(date +%s)

# ---------------------------------------------------------------- corpus
CORPUS_DIRS="/usr/lib/mono/4.5 /usr/lib/mono/4.5/Facades"
corpus=(); for d in $CORPUS_DIRS; do for f in "$d"/*.dll; do [ -f "$f" ] && corpus+=("$f"); done; done
if [ ${#corpus[@]} -eq 0 ]; then echo "bench: SKIP: no .dll files in $CORPUS_DIRS (apt-get install mono-devel)"; exit 0; fi
app=()
for n in mscorlib System System.Core System.Xml System.Xml.Linq System.Runtime.Serialization System.Net.Http \
         System.Numerics System.ComponentModel.Composition Mono.Security System.ServiceModel.Internals \
         System.IO.Compression Facades/System.Runtime Facades/System.Collections Facades/System.Threading.Tasks \
         Facades/System.Linq Facades/System.Reflection Facades/System.Text.Encoding Facades/System.IO Facades/netstandard; do
  [ -f "/usr/lib/mono/4.5/$n.dll" ] && app+=("/usr/lib/mono/4.5/$n.dll")
done
bytes_of() { cat "$@" | wc -c; }
CORPUS_BYTES=$(bytes_of "${corpus[@]}"); APP_BYTES=$(bytes_of "${app[@]}")
# the second corpus: the .NET BCL, Microsoft.NETCore.App/<version>/*.dll of the installed runtime
. "$(dirname "$0")/../coreclr_env.sh"
bcl=(); BCL_BYTES=0
if clr_find_runtime; then bcl=("$CLR_DIR"/*.dll); BCL_BYTES=$(bytes_of "${bcl[@]}"); else echo "bench: no .NET BCL corpus: $CLR_WHY" >&2; fi

if [ "$FULL" = 1 ]; then
  PACK_RUNS="corpus:3:5 corpus:19:3 corpus:22:3 app:19:5 app:22:5"
  [ ${#bcl[@]} -gt 0 ] && PACK_RUNS="$PACK_RUNS bcl:3:5 bcl:19:3"
  TTM_SAMPLES=41
  REPS=9; LOC_SAMPLES=51; CACHE_REPS=9; MATRIX_REPS=11; MODE="full (BENCH_FULL=1)"
else
  PACK_RUNS="corpus:3:3 app:19:3"
  [ ${#bcl[@]} -gt 0 ] && PACK_RUNS="$PACK_RUNS bcl:3:3"
  TTM_SAMPLES=15
  REPS=5; LOC_SAMPLES=21; CACHE_REPS=5; MATRIX_REPS=5; MODE="quick (default; BENCH_FULL=1 for levels 19 and 22 on the whole corpus and more samples)"
fi

# ---------------------------------------------------------------- helpers
# stats < numbers  ->  "median min max"
stats() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan nan nan"; exit } printf "%.6g %.6g %.6g\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
# cell MED LO HI [DIGITS]  ->  "12.3 (12.1–12.9)"
cell() { awk -v m="$1" -v l="$2" -v h="$3" -v d="${4:-2}" 'BEGIN { f = "%." d "f"; printf(f " (" f "–" f ")", m, l, h) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || a == "nan" || b == "nan") print "n/a"; else printf "%.2f×", a / b }'; }
calc() { awk "BEGIN { printf \"%.6g\", ($*) }"; }
# get FILE KEY -> "median min max" from bench_tool's "key med lo hi unit" lines
get() { awk -v k="$2" '$1 == k { print $2, $3, $4; f = 1 } END { if (!f) print "nan nan nan" }' "$1"; }
get1() { awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "nan" }' "$1"; }
tsec() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f\n", e - s }'; }
status() { awk -v c="$1" 'BEGIN { print (c + 0 ? "**met**" : "**behind**") }'; }
TARGETS=$W/targets; : >"$TARGETS"
target() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" >>"$TARGETS"; }
have() { command -v "$1" >/dev/null 2>&1; }

LLVM_MC=$(command -v llvm-mc || ls /usr/bin/llvm-mc-* 2>/dev/null | head -n 1 || true)
LLD=$(command -v ld.lld || ls /usr/bin/ld.lld-* 2>/dev/null | head -n 1 || true)
# ld.lld wrapping of a raw store exactly as store-format.md §6.2 (x86_64 triple: native dlopen)
lld_wrap() { # RAW OUT.so
  printf '\t.section payload, "a"\n\t.balign 16384\n\t.globl _assembly_store\n_assembly_store:\n\t.incbin "%s"\n' "$(realpath "$1")" >"$W/payload.s"
  "$LLVM_MC" --filetype=obj -triple=x86_64-linux-android -o "$W/payload.o" "$W/payload.s" &&
  "$LLD" --shared -soname libassembly-store.so -z max-page-size=16384 --build-id=sha1 \
      --export-dynamic-symbol=_assembly_store -o "$2" "$W/payload.o"
}

# ---------------------------------------------------------------- header
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
say "# asmstore benchmarks"
say ""
say "Generated by \`make bench\` ($MODE) on $(date -u '+%Y-%m-%d %H:%M UTC'). Every figure is a median with"
say "min–max in brackets, measured in the same run as its anchor, A and B interleaved in every repetition."
say "Ratios are *asmstore ÷ anchor* for times (below 1 = we are faster) unless the column says otherwise."
say "Benchmarks never fail the build; targets we miss are marked **behind**."
say ""
say "## Machine"
say ""
say "| | |"
say "|---|---|"
say "| CPU | $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) × $NCPU ($(awk '/^cpu MHz/ { printf "%.0f MHz", $4; exit }' /proc/cpuinfo); $(sed -n 's/^cache size[[:space:]]*: //p' /proc/cpuinfo | head -n 1) cache) |"
say "| memory | $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) |"
say "| kernel | $(uname -srm) |"
say "| compiler | $(${CC:-cc} --version | head -n 1) (-O2) |"
say "| libzstd / zstd CLI | $(pkg-config --modversion libzstd 2>/dev/null || echo ?) / $(zstd -V 2>/dev/null | grep -o 'v[0-9.]*' | head -n 1) |"
say "| llvm-mc / ld.lld | $([ -n "$LLVM_MC" ] && "$LLVM_MC" --version | grep -o 'version [0-9.]*' | head -n 1 || echo missing) / $([ -n "$LLD" ] && "$LLD" --version | head -n 1 || echo missing) |"
say "| valgrind | $(valgrind --version 2>/dev/null || echo missing) |"
say "| load average at start | $LOAD_START |"
say ""
say "Corpus: Mono 4.5 framework + Facades, ${#corpus[@]} assemblies, $(calc "$CORPUS_BYTES / 1e6" | xargs printf %.1f) MB; app subset ${#app[@]} assemblies"
say "(mscorlib, System, System.Core, System.Xml, ... + 7 facades), $(calc "$APP_BYTES / 1e6" | xargs printf %.1f) MB; scale sets: the corpus cycled"
say "under prefixes \`p1/\`, \`p2/\` ... to 30, 300 and 3000 entries."
[ ${#bcl[@]} -gt 0 ] && say "Second corpus (\`bcl\`): the .NET $CLR_VERSION BCL, the installed shared framework's ${#bcl[@]} assemblies, $(calc "$BCL_BYTES / 1e6" | xargs printf %.1f) MB."
say ""

# ---------------------------------------------------------------- 1. pack
if [ "$ONLY" != ttm ]; then # sections 1-6 (BENCH_ONLY=ttm: section 7 alone)
say "## 1. Pack"
say ""
say "\`asmstore pack\` (writes the \`.so\`) vs the \`zstd\` CLI over the same files at the same level (\`-T1 --no-check\`: our"
say "frames carry no checksum either), and vs the upstream recipe stand-in: those zstd frames + \`llvm-mc\` + \`ld.lld\`"
say "wrapping the raw store with \`.incbin\` (store-format.md §6.2; building the raw store from the frames is taken as free,"
say "which favours the stand-in). N threads: \`asmstore pack --jobs $NCPU\` vs $NCPU \`zstd\` processes over halves of the"
say "file list (\`xargs -P $NCPU\`). Seconds, MB/s of input in brackets after the median. Ratios: anchor ÷ asmstore"
say "(above 1 = we are faster)."
say ""
PACKTAB=$W/packtab; : >"$PACKTAB"
PACKTABN=$W/packtabn; : >"$PACKTABN"
SIZES=$W/sizes; : >"$SIZES"
for run in $PACK_RUNS; do
  IFS=: read -r set L R <<<"$run"
  case $set in
    corpus) files=("${corpus[@]}"); raw=$CORPUS_BYTES ;;
    bcl) files=("${bcl[@]}"); raw=$BCL_BYTES ;;
    *) files=("${app[@]}"); raw=$APP_BYTES ;;
  esac
  nf=${#files[@]}; half=$(( (nf + NCPU - 1) / NCPU ))
  ultra=$([ "$L" -gt 19 ] && echo --ultra || true)
  echo "  pack: $set level $L, $R reps ..." >&2
  "$A" pack --raw $PACK_AS --abi x86_64 -o "$W/pack.raw" --level "$L" --jobs "$NCPU" "${files[@]}" >/dev/null 2>&1
  : >"$W/j1"; : >"$W/z1"; : >"$W/jn"; : >"$W/zn"; : >"$W/wr"
  for ((i = 0; i < R; i++)); do
    tsec "$A" pack $PACK_AS --abi x86_64 -o "$W/j1.so" --level "$L" --jobs 1 "${files[@]}" >>"$W/j1"
    rm -rf "$W/z1o"; mkdir "$W/z1o"
    tsec zstd -q -f -T1 --no-check "-$L" $ultra --output-dir-flat "$W/z1o" "${files[@]}" >>"$W/z1"
    tsec "$A" pack $PACK_AS --abi x86_64 -o "$W/jn.so" --level "$L" --jobs "$NCPU" "${files[@]}" >>"$W/jn"
    rm -rf "$W/zno"; mkdir "$W/zno"
    tsec sh -c 'printf "%s\n" "$@" | xargs -d "\n" -P '"$NCPU"' -n '"$half"' zstd -q -f -T1 --no-check -'"$L"' '"$ultra"' --output-dir-flat '"$W/zno" sh "${files[@]}" >>"$W/zn"
    if [ -n "$LLVM_MC" ] && [ -n "$LLD" ]; then tsec lld_wrap "$W/pack.raw" "$W/lld.so" >>"$W/wr"; fi
  done
  read -r j1 j1l j1h < <(stats <"$W/j1"); read -r z1 z1l z1h < <(stats <"$W/z1")
  read -r jn jnl jnh < <(stats <"$W/jn"); read -r zn znl znh < <(stats <"$W/zn")
  read -r wr wrl wrh < <(stats <"$W/wr")
  mbs() { awk -v r="$raw" -v s="$1" 'BEGIN { printf "%.1f", r / 1e6 / s }'; }
  pc() { printf '%.2f s (%s MB/s) [%.2f–%.2f]' "$1" "$(mbs "$1")" "$2" "$3"; }
  s1=$(calc "$z1 + $wr"); s1l=$(calc "$z1l + $wrl"); s1h=$(calc "$z1h + $wrh")
  sn=$(calc "$zn + $wr"); snl=$(calc "$znl + $wrl"); snh=$(calc "$znh + $wrh")
  printf '| %s, %d files, level %s | %s | %s | %s | %s | %s |\n' "$set" "$nf" "$L" "$(pc "$j1" "$j1l" "$j1h")" "$(pc "$z1" "$z1l" "$z1h")" \
    "$(pc "$s1" "$s1l" "$s1h")" "$(ratio "$z1" "$j1")" "$(ratio "$s1" "$j1")" >>"$PACKTAB"
  printf '| %s, %d files, level %s | %s | %s | %s | %s | %s | %s |\n' "$set" "$nf" "$L" "$(pc "$jn" "$jnl" "$jnh")" "$(pc "$zn" "$znl" "$znh")" \
    "$(pc "$sn" "$snl" "$snh")" "$(ratio "$zn" "$jn")" "$(ratio "$sn" "$jn")" "$(ratio "$j1" "$jn")" >>"$PACKTABN"
  # sizes: our frames (store image bytes minus the 12-byte XAZS headers) vs the zstd CLI's frames
  zs=$(cat "$W"/z1o/*.zst | wc -c)
  stored=$("$A" info --json "$W/pack.raw" | sed 's/.*"stored_bytes": \([0-9]*\).*/\1/')
  awk -v s="$stored" -v z="$zs" -v n="$nf" -v set="$set" -v L="$L" 'BEGIN { printf "| %s, level %s | %d B | %d B | %+.3f%% | %d B (12 B × %d) |\n", set, L, s - 12 * n, z, 100 * (s - 12 * n - z) / z, 12 * n, n }' >>"$SIZES"
  echo "$set $L $j1 $z1 $jn $zn $s1 $sn $stored $zs $nf" >>"$W/packraw"
  cmp -s "$W/j1.so" "$W/jn.so" || echo "| $set, level $L | **the -j1 and -j$NCPU outputs differ** | | | |" >>"$SIZES"
done
say "One thread:"
say ""
say "| set, level | asmstore pack -j1 | zstd -T1 (anchor) | stand-in: zstd + llvm-mc + ld.lld | zstd ÷ asmstore | stand-in ÷ asmstore |"
say "|---|---|---|---|---|---|"
tee -a "$MD" <"$PACKTAB"
say ""
say "$NCPU threads:"
say ""
say "| set, level | asmstore pack -j$NCPU | zstd × $NCPU processes (anchor) | stand-in: zstd × $NCPU + llvm-mc + ld.lld | zstd ÷ asmstore | stand-in ÷ asmstore | speed-up j1 ÷ j$NCPU |"
say "|---|---|---|---|---|---|---|"
tee -a "$MD" <"$PACKTABN"
say ""
say "Size: our zstd frames vs the zstd CLI's frames of the same files at the same level (the store adds a 12-byte"
say "\`XAZS\` header per entry):"
say ""
say "| set, level | asmstore frames | zstd CLI frames | difference | + headers |"
say "|---|---|---|---|---|"
tee -a "$MD" <"$SIZES"
say ""
while read -r set L j1 z1 jn zn s1 sn stored zs nf; do
  if [ "$L" = 19 ]; then
    target "pack ≥ 1.7× on $NCPU threads at level 19 ($set)" "≥ 1.70×" "$(ratio "$j1" "$jn")" "$(status "$(calc "$j1 / $jn >= 1.7")")"
  fi
  target "pack single-threaded no slower than the zstd CLI ($set, level $L)" "zstd ÷ asmstore ≥ 1" "$(ratio "$z1" "$j1")" "$(status "$(calc "$z1 / $j1 >= 1")")"
  d=$(calc "100 * ($stored - 12 * $nf - $zs) / $zs")
  target "size within 0.1% + 12 B/entry ($set, level $L)" "≤ +0.1%" "$(printf '%+.3f%% + 12 B × %d' "$d" "$nf")" "$(status "$(calc "$d <= 0.1")")"
done <"$W/packraw"

# ---------------------------------------------------------------- stores used below
echo "  building the corpus stores ..." >&2
"$A" pack --raw $PACK_AS --abi x86_64 -o "$W/corpus.raw" --level 19 --jobs "$NCPU" "${corpus[@]}" >/dev/null 2>&1
"$A" pack --raw $PACK_AS --abi x86_64 -o "$W/stored.raw" --no-compress --jobs "$NCPU" "${corpus[@]}" >/dev/null 2>&1
"$A" wrap -o "$W/ours.so" --abi x86_64 "$W/corpus.raw" >/dev/null 2>&1
[ ${#bcl[@]} -gt 0 ] && "$A" pack --raw --abi x86_64 -o "$W/bcl.raw" --level 19 --jobs "$NCPU" "${bcl[@]}" >/dev/null 2>&1
HAVE_LLD=0
if [ -n "$LLVM_MC" ] && [ -n "$LLD" ] && lld_wrap "$W/corpus.raw" "$W/lld.so" >/dev/null 2>&1; then HAVE_LLD=1; fi
HAVE_APK=0
if have zip && have zipalign; then
  mk_apk() { # SO OUT.apk : the store + a few hundred other entries, zip -0 for lib/, zipalign -f 16384
    local d=$W/apk.d; rm -rf "$d"; mkdir -p "$d/lib/x86_64" "$d/res/raw" "$d/assets"
    cp "$1" "$d/lib/x86_64/libassembly-store.so"
    head -c 200000 /dev/urandom >"$d/classes.dex"; printf '<manifest/>' >"$d/AndroidManifest.xml"
    for i in $(seq 1 300); do printf 'resource %d %0512d\n' "$i" "$i" >"$d/res/raw/r$i.xml"; done
    for i in $(seq 1 40); do head -c 4096 /dev/urandom >"$d/assets/a$i.bin"; done
    rm -f "$W/apk.zip"
    (cd "$d" && zip -q -r "$W/apk.zip" AndroidManifest.xml classes.dex res assets && zip -q -0 -r "$W/apk.zip" lib) &&
    zipalign -f 16384 "$W/apk.zip" "$2"
  }
  mk_apk "$W/ours.so" "$W/app.apk" && HAVE_APK=1
fi

# ---------------------------------------------------------------- 2. locate
echo "  locate ..." >&2
say "## 2. Locate"
say ""
say "From nothing to a validated reader, each sample in a fresh \`fork()\`ed process (the page cache is warm; dlopen state"
say "is not), the variants rotated so none always runs first; $LOC_SAMPLES samples each, µs. The store: the corpus at level 19"
say "($(stat -c %s "$W/corpus.raw") bytes, x86_64)."
say ""
LOCARGS=("ours:so=$W/ours.so" "oursloc:loc=$W/ours.so" "oursdl:dl=$W/ours.so")
[ $HAVE_LLD = 1 ] && LOCARGS+=("lld:dl=$W/lld.so")
[ $HAVE_APK = 1 ] && LOCARGS+=("apk:apk=$W/app.apk")
"$T" locate "$LOC_SAMPLES" "${LOCARGS[@]}" >"$W/loc" 2>&1
read -r lo lol loh < <(get "$W/loc" locate_ours_us)
read -r od odl odh < <(get "$W/loc" locate_oursdl_us)
read -r oc ocl och < <(get "$W/loc" locate_oursloc_us)
read -r ll lll llh < <(get "$W/loc" locate_lld_us)
read -r la lal lah < <(get "$W/loc" locate_apk_us)
say "| path | µs | ratio to the anchor |"
say "|---|---|---|"
say "| anchor: \`ld.lld\` .so from \`.incbin\`, dlopen + dlsym alone | $(cell "$ll" "$lll" "$llh" 1) | 1 |"
say "| our generated .so, dlopen + dlsym alone | $(cell "$od" "$odl" "$odh" 1) | $(ratio "$od" "$ll") |"
say "| our generated .so: asmstore_locate_dlopen alone (+ the payload's extent: dl_iterate_phdr, dladdr1) | $(cell "$oc" "$ocl" "$och" 1) | $(ratio "$oc" "$ll") |"
say "| our generated .so: asmstore_locate_dlopen + asmstore_reader_init | $(cell "$lo" "$lol" "$loh" 1) | $(ratio "$lo" "$ll") |"
say "| APK ($(unzip -l "$W/app.apk" 2>/dev/null | tail -n 1 | awk '{ print $2 }') entries, zipalign 16384): asmstore_locate_apk + asmstore_reader_init | $(cell "$la" "$lal" "$lah" 1) | $(ratio "$la" "$ll") (÷ our dlopen path: $(ratio "$la" "$lo")) |"
say ""
grep FAILED "$W/loc" | sed 's/^/    /' | tee -a "$MD" || true
target "locate of our .so (locate_dlopen + reader init) no slower than the lld .so's dlopen + dlsym alone" "≤ 1.00×" "$(ratio "$lo" "$ll")" "$(status "$(calc "$lo <= $ll")")"
target "APK path within 2× of the dlopen path" "≤ 2.00×" "$(ratio "$la" "$lo")" "$(status "$(calc "$la <= 2 * $lo")")"

# ---------------------------------------------------------------- 3 + 4. lookup, read
echo "  lookup and read ..." >&2
"$T" reader "$W/corpus.raw" "$REPS" >"$W/rd" 2>&1
"$T" reader "$W/stored.raw" "$REPS" >"$W/rds" 2>&1
count_ir() { # STORE WHAT ITER -> instructions per op (callgrind, toggled on the noinline bench_count_* function)
  have valgrind || { echo nan; return; }
  local out=$W/cg.$2 ops ir
  ops=$(valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="bench_count_$2" "$T" count "$1" "$2" "$3" 2>/dev/null | awk '/^ops/ { print $2 }')
  ir=$(awk '/^totals:/ { print $2 }' "$out" 2>/dev/null)
  [ -n "$ops" ] && [ -n "$ir" ] && calc "$ir / $ops" || echo nan
}
IR_LK=$(count_ir "$W/corpus.raw" lookup 10); IR_IX=$(count_ir "$W/corpus.raw" index 10); IR_FL=$(count_ir "$W/corpus.raw" floor 10)
IR_OPEN=$(count_ir "$W/corpus.raw" open 20); IR_ATT=$(count_ir "$W/corpus.raw" attach 20)
HAVE_BCL=0
if [ -f "$W/bcl.raw" ]; then # the second corpus: the same figures on the .NET BCL store
  "$T" reader "$W/bcl.raw" "$REPS" >"$W/rdb" 2>&1
  IR_LKB=$(count_ir "$W/bcl.raw" lookup 10); IR_IXB=$(count_ir "$W/bcl.raw" index 10)
  IR_FLB=$(count_ir "$W/bcl.raw" floor 10); HAVE_BCL=1
fi
say "## 3. Lookup"
say ""
say "Every name of the corpus store with and without its extension ($(get1 "$W/rd" names) names, random order, name table"
say "attached): the lookup (\`asmstore_reader_find_index\`: hash, index search, name check, ignore byte) and the lookup with"
say "the entry filled (\`asmstore_reader_find\`: + \`asmstore_entry\`, whose sizes come from the image's 12-byte header) vs"
say "the floor: the same hash + glibc \`bsearch\` over a sorted \`uint64_t\` array of the index hashes (no name check, no"
say "entry). Instructions from \`valgrind --tool=callgrind\` (\`perf stat -e instructions\` is not supported on this VM),"
say "which do not drift with the machine's load."
say ""
read -r lk lkl lkh < <(get "$W/rd" lookup_ns); read -r fl fll flh < <(get "$W/rd" floor_ns)
read -r ix ixl ixh < <(get "$W/rd" index_ns)
read -r sh shl shh < <(get "$W/rd" stage_hash_ns); read -r sb sbl sbh < <(get "$W/rd" stage_bound_ns)
read -r sv svl svh < <(get "$W/rd" stage_verify_ns); read -r op opl oph < <(get "$W/rd" open_us)
say "| figure | asmstore | anchor: hash + bsearch | ratio |"
say "|---|---|---|---|"
say "| lookup (find_index), ns/name | $(cell "$ix" "$ixl" "$ixh" 1) | $(cell "$fl" "$fll" "$flh" 1) | $(ratio "$ix" "$fl") |"
say "| lookup (find_index), instructions/name | $(printf %.0f "$IR_IX") | $(printf %.0f "$IR_FL") | $(ratio "$IR_IX" "$IR_FL") |"
say "| lookup + entry (find), ns/name | $(cell "$lk" "$lkl" "$lkh" 1) | $(cell "$fl" "$fll" "$flh" 1) | $(ratio "$lk" "$fl") |"
say "| lookup + entry (find), instructions/name | $(printf %.0f "$IR_LK") | $(printf %.0f "$IR_FL") | $(ratio "$IR_LK" "$IR_FL") |"
if [ $HAVE_BCL = 1 ]; then
  read -r bk bkl bkh < <(get "$W/rdb" lookup_ns); read -r bf bfl bfh < <(get "$W/rdb" floor_ns)
  read -r bx bxl bxh < <(get "$W/rdb" index_ns)
  say "| .NET BCL ($(get1 "$W/rdb" names) names): lookup (find_index), ns/name | $(cell "$bx" "$bxl" "$bxh" 1) | $(cell "$bf" "$bfl" "$bfh" 1) | $(ratio "$bx" "$bf") |"
  say "| .NET BCL: lookup (find_index), instructions/name | $(printf %.0f "$IR_IXB") | $(printf %.0f "$IR_FLB") | $(ratio "$IR_IXB" "$IR_FLB") |"
  say "| .NET BCL: lookup + entry (find), ns/name | $(cell "$bk" "$bkl" "$bkh" 1) | $(cell "$bf" "$bfl" "$bfh" 1) | $(ratio "$bk" "$bf") |"
  say "| .NET BCL: lookup + entry (find), instructions/name | $(printf %.0f "$IR_LKB") | $(printf %.0f "$IR_FLB") | $(ratio "$IR_LKB" "$IR_FLB") |"
fi
say "| open (asmstore_reader_init: validates every range and name), µs | $(cell "$op" "$opl" "$oph" 2) | | |"
say "| open, instructions | $(printf %.0f "$IR_OPEN") ($(calc "$IR_OPEN / $(get1 "$W/rd" entries)" | xargs printf %.0f)/entry) | | |"
say "| attach name table (optional, O(1) name access), instructions | $(printf %.0f "$IR_ATT") | | |"
say ""
say "Where the lookup time goes (cumulative stages, ns/name): hash $(cell "$sh" "$shl" "$shh" 1); + the index search (the"
say "name table's bucket for the hash's top bits, about one 13-byte index entry walked) $(cell "$sb" "$sbl" "$sbh" 1); + name check"
say "$(cell "$sv" "$svl" "$svh" 1); \`asmstore_reader_find_index\` (adds the exact-name preference and the ignore byte)"
say "$(cell "$ix" "$ixl" "$ixh" 1); \`asmstore_reader_find\` (adds \`asmstore_entry\` filling, which reads the image's 12-byte"
say "header) $(cell "$lk" "$lkl" "$lkh" 1)."
say ""
target "lookup (find_index) within 1.5× of the bsearch floor (time)" "≤ 1.50×" "$(ratio "$ix" "$fl")" "$(status "$(calc "$ix <= 1.5 * $fl")")"
target "lookup (find_index) within 1.5× of the bsearch floor (instructions)" "≤ 1.50×" "$(ratio "$IR_IX" "$IR_FL")" "$(status "$(calc "$IR_IX <= 1.5 * $IR_FL")")"
target "lookup + entry (find) within 1.5× of the bsearch floor (time)" "≤ 1.50×" "$(ratio "$lk" "$fl")" "$(status "$(calc "$lk <= 1.5 * $fl")")"
target "lookup + entry (find) within 1.5× of the bsearch floor (instructions)" "≤ 1.50×" "$(ratio "$IR_LK" "$IR_FL")" "$(status "$(calc "$IR_LK <= 1.5 * $IR_FL")")"

say "## 4. Read"
say ""
read -r rm rml rmh < <(get "$W/rd" read_mbs); read -r zm zml zmh < <(get "$W/rd" zstd_mbs)
read -r ld ldl ldh < <(get "$W/rd" load_ms)
read -r zc zcl zch < <(get "$W/rds" zerocopy_ms); read -r cp cpl cph < <(get "$W/rds" copy_ms)
say "Every compressed entry of the corpus store ($(calc "$(get1 "$W/rd" read_bytes) / 1e6" | xargs printf %.1f) MB decompressed): \`asmstore_reader_read\` vs raw"
say "\`ZSTD_decompressDCtx\` on the same frames with the same context, the two back to back per entry (order alternating); then a store of the same files packed"
say "\`--no-compress\`: zero-copy access (find + the pointer into the mapped store) vs copying each image out."
say ""
say "| figure | asmstore | anchor | ratio |"
say "|---|---|---|---|"
say "| read, MB/s (higher is better) | $(cell "$rm" "$rml" "$rmh" 0) | raw ZSTD_decompressDCtx $(cell "$zm" "$zml" "$zmh" 0) | $(ratio "$rm" "$zm") of raw speed |"
say "| load every entry by name (find + read), ms | $(cell "$ld" "$ldl" "$ldh" 1) | | |"
if [ $HAVE_BCL = 1 ]; then
  read -r brm brml brmh < <(get "$W/rdb" read_mbs); read -r bzm bzml bzmh < <(get "$W/rdb" zstd_mbs)
  read -r bld bldl bldh < <(get "$W/rdb" load_ms)
  say "| .NET BCL ($(calc "$(get1 "$W/rdb" read_bytes) / 1e6" | xargs printf %.1f) MB, level 19): read, MB/s | $(cell "$brm" "$brml" "$brmh" 0) | raw ZSTD_decompressDCtx $(cell "$bzm" "$bzml" "$bzmh" 0) | $(ratio "$brm" "$bzm") of raw speed |"
  say "| .NET BCL: load every entry by name (find + read), ms | $(cell "$bld" "$bldl" "$bldh" 1) | | |"
fi
say "| stored entries: zero-copy find + pointer, all ${#corpus[@]}, ms | $(cell "$zc" "$zcl" "$zch" 3) | find + copy out $(cell "$cp" "$cpl" "$cph" 2) | $(ratio "$zc" "$cp") |"
say "| stored entries: zero-copy vs decompressing the compressed store | $(cell "$zc" "$zcl" "$zch" 3) | $(cell "$ld" "$ldl" "$ldh" 1) | $(ratio "$zc" "$ld") |"
say ""
target "read within 3% of raw zstd" "≥ 0.97× of raw speed" "$(ratio "$rm" "$zm")" "$(status "$(calc "$rm >= 0.97 * $zm")")"
[ $HAVE_BCL = 1 ] && target "read within 3% of raw zstd (.NET BCL)" "≥ 0.97× of raw speed" "$(ratio "$brm" "$bzm")" "$(status "$(calc "$brm >= 0.97 * $bzm")")"

# ---------------------------------------------------------------- 5. cache
echo "  cache ..." >&2
say "## 5. Cache"
say ""
"$C" --reps "$CACHE_REPS" $CORPUS_DIRS >"$W/cache" 2>&1
num() { sed -n "s/.*$1[^0-9]*\([0-9.]*\).*/\1/p" "$W/cache" | head -n 1; }
cold=$(num 'cold: decompress + queue'); plain=$(num 'anchor: decompress only'); warm=$(num 'warm: hit (mmap + footer)')
wdone=$(sed -n 's/.*writer done at *\([0-9.]*\) ms.*/\1/p' "$W/cache"); wmb=$(sed -n 's/.*files, \([0-9.]*\) MB written.*/\1/p' "$W/cache")
wfiles=$(sed -n 's/.*ms *\([0-9]*\) files,.*/\1/p' "$W/cache")
dcold=$(sed -n 's/.*decompress path (miss):.*private dirty *\([-+0-9]*\) kB.*/\1/p' "$W/cache"); ccold=$(sed -n 's/.*decompress path (miss):.*clean file-backed *\([-+0-9]*\) kB.*/\1/p' "$W/cache")
dwarm=$(sed -n 's/.*hit path (cache files):.*private dirty *\([-+0-9]*\) kB.*/\1/p' "$W/cache"); cwarm=$(sed -n 's/.*hit path (cache files):.*clean file-backed *\([-+0-9]*\) kB.*/\1/p' "$W/cache")
head -n 1 "$W/cache" | sed 's/^bench-cache: /Store: /' | tee -a "$MD"
say "(tests/bench/bench_cache.c; medians of $CACHE_REPS runs; its own min–max are not printed). Every entry loaded through"
say "\`asmstore_cache_get\`: cold = empty cache (decompress + queue a snapshot for the writer thread), anchor = cache off"
say "(decompress only), warm = every entry a hit (open + fstat against the record + mmap + footer). Memory: after loading and holding every"
say "entry, each path in its own process (/proc/self/smaps_rollup deltas)."
say ""
extra=$(calc "$wdone - $plain"); save=$(calc "$plain - $warm")
be=$(awk -v e="$extra" -v s="$save" 'BEGIN { if (s <= 0) print "never"; else { n = e / s; printf "%d", (n == int(n)) ? n : int(n) + 1 } }')
be_fg=$(awk -v e="$(calc "$cold - $plain")" -v s="$save" 'BEGIN { if (s <= 0) print "never"; else { n = e / s; if (n < 0) n = 0; printf "%d", (n == int(n)) ? n : int(n) + 1 } }')
say "| figure | value | anchor | ratio |"
say "|---|---|---|---|"
say "| cold load of every entry, ms | $cold | decompress only $plain | $(ratio "$cold" "$plain") |"
say "| warm load of every entry, ms | $warm | cold $cold | cold is $(ratio "$cold" "$warm") warm |"
say "| first run: writer done at, ms | $wdone ($wfiles files, $wmb MB written) | decompress only $plain | $(ratio "$wdone" "$plain") |"
say "| break-even: warm runs that repay the first run | $be (writer's whole time: ($wdone − $plain) ÷ ($plain − $warm)); $be_fg counting only the cold run's foreground time | | |"
say "| private dirty after loading all, kB | warm $dwarm | cold $dcold | $(ratio "$dwarm" "$dcold") |"
say "| clean file-backed after loading all, kB | warm $cwarm | cold $ccold | |"
say ""
target "warm ≥ 8× faster than cold" "≥ 8×" "$(ratio "$cold" "$warm")" "$(status "$(calc "$cold >= 8 * $warm")")"
target "warm private dirty ≤ 5% of cold's" "≤ 0.05×" "$(ratio "$dwarm" "$dcold")" "$(status "$(calc "$dwarm <= 0.05 * $dcold")")"

# ---------------------------------------------------------------- 5b. cache: startup matrix
echo "  cache startup matrix ..." >&2
say "### 5b. Startup matrix: cache hit vs direct zstd vs upstream's removed design"
say ""
"$C" --matrix --reps "$MATRIX_REPS" $CORPUS_DIRS >"$W/matrix" 2>&1
say "$(sed -n 's/^matrix: //p' "$W/matrix"). Each run is a fresh process (\`posix_spawn\` of bench_cache; a \`fork\` of the harness, which holds the corpus, added ~5 ms a start that is no part of an app's): map the store file,"
say "validate it (reader), open the cache, get + touch every image of the workload (app = 30 assemblies, corpus = every"
say "entry; whole = every page, sparse = PE headers + CLI metadata + every 4th page). Page cache: *resident* = every file"
say "read first; *evicted* = \`posix_fadvise(DONTNEED)\` on the store and every cache file before the run, residency checked"
say "with \`mincore\` (column *resident before*). Paths: direct zstd = cache off; cache hit = asmstore_cache.h, default"
say "options, files written by an earlier run of the same workload; upstream replica = #11967's design (store-format.md"
say "§8: \`<N>.bin\`, CRC-32 of the whole payload on every hit, mmap). Whole process = fork to wait; open/load in process."
say ""
grep '^|' "$W/matrix" | tee -a "$MD" >/dev/null
grep '^matrix: .*failed' "$W/matrix" | tee -a "$MD" || true
say ""
while IFS='|' read -r _ d g v ok; do target "$d" "$g" "$v" "$(status "$ok")"; done < <(grep '^target|' "$W/matrix")

# ---------------------------------------------------------------- 6. scale
echo "  scale ..." >&2
say "## 6. Scale"
say ""
say "Stores of 20 (the app subset), 30, 300 and 3000 entries (level 3, x86_64 .so). locate = asmstore_locate_dlopen +"
say "reader init in a fresh process ($LOC_SAMPLES samples); open = asmstore_reader_init alone (in process); lookup ="
say "ns/name (with and without extension) and callgrind instructions/name; load = find + decompress every entry."
say ""
say "| entries | store MB | locate µs | open µs | open µs/entry | lookup ns/name | lookup instr/name | load ms | load µs/entry |"
say "|---|---|---|---|---|---|---|---|---|"
: >"$W/scale.dat"
for n in app 30 300 3000; do
  echo "    $n entries ..." >&2
  if [ "$n" = app ]; then "$T" mkstore "$W/s.raw" 3 "$NCPU" "${#app[@]}" 0 "${app[@]}" 2>&1; else "$T" mkstore "$W/s.raw" 3 "$NCPU" "$n" 0 "${corpus[@]}" 2>&1; fi
  "$A" wrap -o "$W/s.so" --abi x86_64 "$W/s.raw" >/dev/null 2>&1
  "$T" locate "$LOC_SAMPLES" "s:so=$W/s.so" >"$W/sl" 2>&1
  "$T" reader "$W/s.raw" "$REPS" >"$W/sr" 2>&1
  ne=$(get1 "$W/sr" entries); nn=$(get1 "$W/sr" names)
  irl=$(count_ir "$W/s.raw" lookup "$(( 20000 / nn + 1 ))")
  read -r a al ah < <(get "$W/sl" locate_s_us); read -r o ol oh < <(get "$W/sr" open_us)
  read -r k kl kh < <(get "$W/sr" lookup_ns); read -r l ll lh < <(get "$W/sr" load_ms)
  read -r lu lul luh < <(get "$W/sr" load_us_per_entry)
  say "| $ne$([ "$n" = app ] && echo ' (app)') | $(calc "$(get1 "$W/sr" store_bytes) / 1e6" | xargs printf %.1f) | $(cell "$a" "$al" "$ah" 0) | $(cell "$o" "$ol" "$oh" 2) | $(calc "$o / $ne" | xargs printf %.4f) | $(cell "$k" "$kl" "$kh" 1) | $(printf %.0f "$irl") | $(cell "$l" "$ll" "$lh" 1) | $(cell "$lu" "$lul" "$luh" 0) |"
  echo "$ne $a $o $k $irl $l $lu" >>"$W/scale.dat"
done
say ""
# growth 300 -> 3000 (10x entries): linear = per-entry cost flat; lookup instructions ~ log n
read -r g_open g_lk g_loc g_load g_lkt < <(sort -n "$W/scale.dat" | awk '$1 == 300 { o = $3; k = $5; a = $2; l = $7; t = $4 } $1 == 3000 { printf "%.2f %.2f %.2f %.2f %.2f\n", ($3 / 3000) / (o / 300), $5 / k, $2 / a, $7 / l, $4 / t }')
LOG=$(calc "log(6000) / log(600)" | xargs printf %.2f)
say "From 300 to 3000 entries (10×), per-entry cost (1.00 = linear growth): open $g_open×, load $g_load×; locate (total) $g_loc×;"
say "lookup instructions/name $g_lk× (log₂ 6000 ÷ log₂ 600 = $LOG), lookup time/name $g_lkt× (the 3000-entry store is"
say "$(ls -l "$W/s.raw" | awk '{ printf "%.0f", $5 / 1e6 }') MB: the lookup's \`asmstore_entry\` fill reads each image's 12-byte header, a cache and TLB miss"
say "spread over the whole store; the instruction count is what grows logarithmically)."
say ""
target "growth no worse than linear: open µs/entry, 300 → 3000 entries (15% allowed for timing noise)" "≤ 1.15×" "${g_open}×" "$(status "$(calc "$g_open <= 1.15")")"
target "growth no worse than linear: load µs/entry, 300 → 3000 entries (15% allowed for timing noise)" "≤ 1.15×" "${g_load}×" "$(status "$(calc "$g_load <= 1.15")")"
target "lookup logarithmic: instructions/name, 300 → 3000 entries" "≤ $LOG×" "${g_lk}×" "$(status "$(calc "$g_lk <= $LOG")")"

# ---------------------------------------------------------------- 7. time to Main and memory (CoreCLR, Mono)
fi # sections 1-6
. "$(dirname "$0")/bench_ttm.sh"

# ---------------------------------------------------------------- plot
# row 1 (not under BENCH_ONLY=ttm): scale, cache time, cache memory; row 2: section 7's startup matrix, each start's
# CPU, minor faults and time to Main ÷ the same runtime's start from files (bench_ttm.sh's $W/ttm_*.dat), per runtime
PNG=""
TTM_PLOT=0; [ -s "$W/ttm_cpu.dat" ] && [ "$(wc -l <"$W/ttm_cpu.dat")" -gt 1 ] && TTM_PLOT=1
PLOT_MAIN=0; [ "$ONLY" != ttm ] && PLOT_MAIN=1
if have gnuplot && [ $((PLOT_MAIN + TTM_PLOT)) -gt 0 ]; then
  {
    cat <<EOF
set terminal pngcairo size 1500,$((480 * PLOT_MAIN + 540 * TTM_PLOT)) font ",10"
set output "$OUT/bench.png"
set multiplot layout $((PLOT_MAIN + TTM_PLOT)),3 title "asmstore make bench$([ "$ONLY" = ttm ] && echo ', section 7 alone') ($(date -u +%Y-%m-%d), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) x $NCPU)"
EOF
    if [ $PLOT_MAIN = 1 ]; then
      sort -n "$W/scale.dat" >"$W/scale.sorted"
      printf 'cold %s\ndecompress-only %s\nwarm %s\n' "$cold" "$plain" "$warm" >"$W/cache.dat"
      printf 'cold %s\nwarm %s\n' "$dcold" "$dwarm" >"$W/mem.dat"
      cat <<EOF
set title "scale: cost vs entries (log-log)"
set logscale xy
set xlabel "entries"
set ylabel "time"
set key top left
set grid
plot "$W/scale.sorted" using 1:2 with linespoints title "locate (us)", \\
     "" using 1:3 with linespoints title "open (us)", \\
     "" using 1:4 with linespoints title "lookup (ns/name)", \\
     "" using 1:6 with linespoints title "load all (ms)", \\
     "" using 1:5 with linespoints title "lookup (instructions/name)"
unset logscale
set title "cache: load every entry (ms)"
set style fill solid 0.6
set boxwidth 0.6
set xlabel ""
set ylabel "ms"
set yrange [0:*]
unset key
plot "$W/cache.dat" using 0:2:xtic(1) with boxes, "" using 0:2:(sprintf("%.1f", \$2)) with labels offset 0,1
set title "cache: private dirty after loading all (kB)"
set ylabel "kB"
plot "$W/mem.dat" using 0:2:xtic(1) with boxes, "" using 0:2:(sprintf("%d", \$2)) with labels offset 0,1
EOF
    fi
    if [ $TTM_PLOT = 1 ]; then
      ncol=$(head -n 1 "$W/ttm_cpu.dat" | awk -F'"' '{ print int(NF / 2) }')
      cat <<EOF
unset logscale
unset grid
set xlabel ""
set ylabel "÷ files"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set boxwidth 0.9
set grid ytics
set key below horizontal maxcols 2
set xtics rotate by 30 right scale 0
set logscale y
set yrange [0.5:*]
set ytics (0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32)
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2 lc rgb "black" front
EOF
      for fig in "cpu:CPU (user + sys) ÷ files:1.05" "faults:minor faults ÷ files:1.15" "ttm:time to Main ÷ files:1.05"; do
        IFS=: read -r f title goal <<<"$fig"
        echo "set title \"startup matrix: $title (log scale)\\ndashed: files = 1; CoreCLR target, in place and warm: ≤ $goal\" noenhanced"
        printf 'plot for [i=2:%d] "%s" using i:xtic(1) title columnheader(i)\n' "$((ncol + 1))" "$W/ttm_$f.dat"
      done
    fi
    echo "unset multiplot"
  } >"$W/plot.gp"
  gnuplot "$W/plot.gp" 2>"$W/gnuplot.err" && PNG=$OUT/bench.png
fi

# ---------------------------------------------------------------- targets + footer
say "## Targets"
say ""
say "| target | goal | measured | status |"
say "|---|---|---|---|"
tee -a "$MD" <"$TARGETS"
say ""
say "## This run"
say ""
say "- command: \`make bench$([ "$FULL" = 1 ] && echo ' BENCH_FULL=1')${ONLY:+ BENCH_ONLY=$ONLY}\` (tests/bench/bench.sh, mk/bench.mk), $(( $(date +%s) - T0 )) s"
say "- load average: $LOAD_START at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end ($NCPU CPUs)"
say "- other processes using CPU at the end (top -b -n 2, second sample): $(top -b -n 2 -d 0.5 2>/dev/null | awk '/^top -/ { n++ } n == 2 && $1 ~ /^[0-9]+$/ && $9 + 0 >= 5 { printf "%s%s %s%%", c++ ? ", " : "", $12, $9 }' | head -c 300)"
[ -n "$PNG" ] && say "- plot: ![scale and cache](bench.png)"
echo "bench: wrote $MD${PNG:+ and $PNG}" >&2
exit 0
