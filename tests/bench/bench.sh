#!/usr/bin/env bash
# tests/bench/bench.sh - `make bench`: the benchmark report, OUT/BENCHMARKS.md (+ OUT/bench.png, gnuplot),
# every figure beside its anchor measured in the same run; the sections are echoed to stdout as they go.
# Never fails on timing: a missed target is reported as "behind", never as an error.
#   usage: bench.sh OUT ASMSTORE BENCH_TOOL BENCH_CACHE
#   env:   BENCH_FULL=1 (levels 19 and 22 on the whole corpus, more samples),
#          BENCH_ONLY=ttm|codecs|scan|abis|lookup|size|windows (section 7, 9, 10, 1b, 3b, 11 or 12 alone),
#          BENCH_TTM_SAMPLES=N, BENCH_TTM_PASSES=N (section 7's rounds and passes, tests/bench/bench_ttm.sh)
# The report: summary (targets met / behind, the run's noise), machine and run, then per section its
# figures and anchors (medians with min-max; A and B interleaved in every repetition):
#   1 pack    asmstore pack (1 and N threads) vs the zstd CLI on the same files at the same level, and vs
#             the upstream recipe stand-in (zstd per file + llvm-mc .incbin + ld.lld, docs/store-format.md §6.2);
#             1b: pack --abi of four ABIs vs one (CPU: each image compressed once)
#   2 locate  asmstore_locate_dlopen + reader init vs dlopen+dlsym of an ld.lld-linked .so vs the APK scan
#   3 lookup  ns and callgrind instructions per name vs a bsearch floor; open and attach instructions;
#             3b: the USE block's reader vs upstream's .NET 11 search (bitwise CRC-32, and a table CRC)
#   4 read    asmstore_reader_read vs raw ZSTD_decompressDCtx; zero-copy of stored entries vs a copy
#   5 cache   tests/bench/bench_cache.c: cold vs warm vs cache off, writer, break-even, memory; 5b its startup
#             matrix in fresh processes (hit vs direct zstd vs upstream's removed design; CPU, faults, dirty)
#   6 scale   locate, open, lookup, load for 20 (app), 30, 300, 3000 entries
#   7 startup time to Main, CPU, faults, private dirty of build/coreclr_host and build/mono_host from files,
#             stores in place, warm / cold / no cache (tests/bench/bench_ttm.sh, tests/bench/time_to_main.py)
#   8 python  the Python package reading the bcl store vs asmstore extract
#   9 codecs  asmstore_lz4_decode vs LZ4_decompress_safe; the header's CRC-32 vs zlib's; info of a STORED APK vs
#             reading it + zlib's CRC-32; verify of one with a zstd store vs reading it + decompressing and
#             hashing its images
#  10 scan    asmstore scan --jobs 2 over 510 generated APKs vs the floor (sha256sum, zstd -d, lz4 -d), --yara vs
#             yara -r over the extracted images, max RSS (tests/bench/bench_scan.sh, tests/bench/scan_corpus.py)
#  11 size    .text of the smallest device reader (x86_64, arm64, -Os) beside the full build's
#  12 windows asmstore.exe (make windows) under Wine vs the Linux CLI: info, verify, extract of the real samples
#             and the BCL store (tests/bench/bench_windows.sh; informational, Wine is not Windows)
#   targets, how to reproduce, the plot
# The .NET BCL (the installed shared framework), when there is one, is a second corpus for pack, lookup, read.
set -uo pipefail
OUT=$1; A=$2; T=$3; C=$4
FULL=${BENCH_FULL:-0}
ONLY=${BENCH_ONLY:-} # "ttm": section 7 alone; "codecs": 9; "scan": 10; "abis": 1b; "lookup": 3b; "size": 11;
                     # "windows": 12
NCPU=$(nproc)
# the store these figures have always measured: format 4, monovm, zstd, dlopen .so (pack's default is net11 coreclr)
PACK_AS="--target net11-preview --runtime monovm --wrap dlopen"
MONO_LZ4_AS="--target net10 --runtime monovm --wrap dlopen" # section 7b: the LZ4 store .NET 10 ships for MonoVM
mkdir -p "$OUT"
W=$(mktemp -d "${TMPDIR:-/tmp}/asmstore-bench.XXXXXX"); trap 'rm -rf "$W"' EXIT
MD=$OUT/BENCHMARKS.md
BODY=$W/body.md; : >"$BODY"
say() { printf '%s\n' "$*" | tee -a "$BODY"; }
T0=$(date +%s)

# ---------------------------------------------------------------- noise: the machine's CPU besides ours
# /proc/stat busy and steal ticks at the start; the end compares them with this script's children's CPU (times)
HZ=$(getconf CLK_TCK)
proc_cpu() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $9 }' /proc/stat; } # -> "busy steal" ticks
read -r BUSY0 STEAL0 < <(proc_cpu)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
TOP_START=$(top -b -n 2 -d 0.5 2>/dev/null | awk '/^top -/ { n++ } n == 2 && $1 ~ /^[0-9]+$/ && $9 + 0 >= 10 {
  printf "%s%s %s%%", c++ ? ", " : "", $12, $9 }' | head -c 200)

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
CLR_ENV=$(dirname "$0")/../lib/coreclr_env.sh; [ -f "$CLR_ENV" ] || CLR_ENV=$(dirname "$0")/../coreclr_env.sh
. "$CLR_ENV"
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
  REPS=5; LOC_SAMPLES=21; CACHE_REPS=5; MATRIX_REPS=5; MODE="quick (the default)"
fi

# ---------------------------------------------------------------- helpers
# stats < numbers  ->  "median min max"
stats() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan nan nan"; exit }
  printf "%.6g %.6g %.6g\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
# cell MED LO HI [DIGITS]  ->  "12.3 (12.1–12.9)"
cell() { awk -v m="$1" -v l="$2" -v h="$3" -v d="${4:-2}" 'BEGIN { f = "%." d "f"; printf(f " (" f "–" f ")", m, l, h) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || a == "nan" || b == "nan") print "n/a"; else printf "%.2f×", a / b }'; }
calc() { awk "BEGIN { printf \"%.6g\", ($*) }"; }
fmt() { calc "$2" | xargs printf "%.${1}f"; } # fmt DIGITS EXPR
# get FILE KEY -> "median min max" from bench_tool's "key med lo hi unit" lines
get() { awk -v k="$2" '$1 == k { print $2, $3, $4; f = 1 } END { if (!f) print "nan nan nan" }' "$1"; }
get1() { awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "nan" }' "$1"; }
# tsec CMD... -> "wall_s cpu_s" (cpu: user + sys of the command and everything it waited for)
tsec() { local TIMEFORMAT='%R %U %S' t; t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ); awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }' <<<"$t"; }
status() { awk -v c="$1" 'BEGIN { print (c + 0 ? "**met**" : "**behind**") }'; }
TARGETS=$W/targets; : >"$TARGETS"
target() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" >>"$TARGETS"; }
# anchor LABEL MED LO HI: an anchor's samples, for the run's noise ((max - min) / median)
ANCHORS=$W/anchors; : >"$ANCHORS"
anchor() { awk -v l="$1" -v m="$2" -v lo="$3" -v hi="$4" 'BEGIN { if (m > 0) printf "%.4f %s\n", (hi - lo) / m, l }' >>"$ANCHORS"; }
# section NAME: the time each section took (the report's run table)
SECTIONS=$W/sections; : >"$SECTIONS"; SECT_T=$(date +%s); SECT_NAME=""
section() { local now; now=$(date +%s); [ -n "$SECT_NAME" ] && echo "$SECT_NAME $((now - SECT_T))" >>"$SECTIONS"
  SECT_NAME=$1; SECT_T=$now; [ -n "$1" ] && echo "  $1 ..." >&2; }
have() { command -v "$1" >/dev/null 2>&1; }

LLVM_MC=$(command -v llvm-mc || ls /usr/bin/llvm-mc-* 2>/dev/null | head -n 1 || true)
LLD=$(command -v ld.lld || ls /usr/bin/ld.lld-* 2>/dev/null | head -n 1 || true)
# ld.lld wrapping of a raw store exactly as docs/store-format.md §6.2 (x86_64 triple: native dlopen)
lld_wrap() { # RAW OUT.so
  printf '\t.section payload, "a"\n\t.balign 16384\n\t.globl _assembly_store\n_assembly_store:\n\t.incbin "%s"\n' \
    "$(realpath "$1")" >"$W/payload.s"
  "$LLVM_MC" --filetype=obj -triple=x86_64-linux-android -o "$W/payload.o" "$W/payload.s" &&
  "$LLD" --shared -soname libassembly-store.so -z max-page-size=16384 --build-id=sha1 \
      --export-dynamic-symbol=_assembly_store -o "$2" "$W/payload.o"
}

count_ir() { # STORE WHAT ITER -> instructions per op (callgrind, toggled on the noinline bench_count_* function)
  have valgrind || { echo nan; return; }
  local out=$W/cg.$2 ops ir
  ops=$(valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="bench_count_$2" "$T" count "$1" "$2" "$3" 2>/dev/null |
        awk '/^ops/ { print $2 }')
  ir=$(awk '/^totals:/ { print $2 }' "$out" 2>/dev/null)
  [ -n "$ops" ] && [ -n "$ir" ] && calc "$ir / $ops" || echo nan
}
# 3b (called in section 3, or alone under BENCH_ONLY=lookup): the reader a host gets from the USE block vs
# upstream's own search (bench_tool upstream), on .NET 11 GA CoreCLR stores (CRC-32, arm64, the USE block's
# host) of each corpus, level 1 (lookups never decompress)
lookup_vs_upstream() {
  "$A" pack --raw --abi arm64 -o "$W/crc.raw" --level 1 --jobs "$NCPU" "${corpus[@]}" >/dev/null 2>&1
  [ ${#bcl[@]} -gt 0 ] && "$A" pack --raw --abi arm64 -o "$W/bclcrc.raw" --level 1 --jobs "$NCPU" "${bcl[@]}" >/dev/null 2>&1
  say "### 3b. Lookup as a host writes it, vs upstream's"
  say ""
  say "A .NET 11 GA CoreCLR store (CRC-32, arm64) of each corpus, every name with and without extension, random order:"
  say "\`asmstore_reader_find\` on a reader set up exactly as the header's USE block shows (a static name table for"
  say "1,024 entries through the read options, the host's ABI and hash expected) vs dotnet/android's search as .NET 11"
  say "ships it (written here from its algorithm: bitwise CRC-32, \`lower_bound\` over the packed 9-byte index, the run"
  say "of equal hashes, names compared against a table of views built at configure), the same search with a table"
  say "CRC-32, and the floor (the header's CRC-32 + glibc \`bsearch\`). ns per name; instructions: callgrind."
  say ""
  say "| store | USE block's find | upstream, bitwise CRC | upstream, table CRC (anchor) | floor | ÷ table CRC; ÷ bitwise; ÷ floor |"
  say "|---|---|---|---|---|---|"
  UP_WORST=0
  for st in crc bclcrc; do
    [ -f "$W/$st.raw" ] || continue
    "$T" upstream "$W/$st.raw" "$REPS" >"$W/up.$st" 2>&1 || { say "| $st | bench_tool upstream failed: $(tail -n 1 "$W/up.$st") | | | | |"; continue; }
    read -r us usl ush < <(get "$W/up.$st" use_find_ns); read -r ub ubl ubh < <(get "$W/up.$st" up_bitwise_ns)
    read -r ut utl uth < <(get "$W/up.$st" up_table_ns); read -r uf ufl ufh < <(get "$W/up.$st" floor_ns)
    irs=$(count_ir "$W/$st.raw" upuse 10); irt=$(count_ir "$W/$st.raw" uptab 10); irb=$(count_ir "$W/$st.raw" upbit 10)
    anchor "upstream's search, table CRC, $st" "$ut" "$utl" "$uth"
    label=$([ $st = crc ] && echo "corpus ($(get1 "$W/up.$st" names) names)" || echo ".NET BCL ($(get1 "$W/up.$st" names) names)")
    say "| $label; agree on $(get1 "$W/up.$st" agree) | $(cell "$us" "$usl" "$ush" 1); $(fmt 0 "$irs") |" \
        "$(cell "$ub" "$ubl" "$ubh" 1); $(fmt 0 "$irb") | $(cell "$ut" "$utl" "$uth" 1); $(fmt 0 "$irt") |" \
        "$(cell "$uf" "$ufl" "$ufh" 1) | $(ratio "$us" "$ut"); $(ratio "$us" "$ub"); $(ratio "$us" "$uf") |"
    UP_WORST=$(calc "$us / $ut > $UP_WORST ? $us / $ut : $UP_WORST")
  done
  say ""
  target "lookup (the USE block's reader) ÷ upstream's search with a table CRC, worst store" "≤ 1.20×" \
    "$(printf '%.2f×' "$UP_WORST")" "$(status "$(calc "$UP_WORST > 0 && $UP_WORST <= 1.2")")"
}

# ---------------------------------------------------------------- 1. pack
if [ -z "$ONLY" ]; then # sections 1-6 (BENCH_ONLY=ttm, codecs or scan: section 7, 9 or 10 alone)
section pack
say "## 1. Pack"
say ""
say "\`asmstore pack\` (writes the \`.so\`) vs the \`zstd\` CLI on the same files at the same level (\`-T1 --no-check\`),"
say "and vs the upstream recipe stand-in: those frames + \`llvm-mc\` + \`ld.lld\` wrapping the raw store with \`.incbin\`"
say "(docs/store-format.md §6.2; making the raw store is taken as free). $NCPU threads: \`--jobs $NCPU\` vs $NCPU \`zstd\`"
say "processes (\`xargs -P $NCPU\`). Seconds; CPU = user + sys of every process. Ratios: anchor ÷ asmstore (> 1: faster)."
say ""
PACKTAB=$W/packtab; : >"$PACKTAB"
SIZES=$W/sizes; : >"$SIZES"
for run in $PACK_RUNS; do
  IFS=: read -r set L R <<<"$run"
  case $set in
    corpus) files=("${corpus[@]}") ;;
    bcl) files=("${bcl[@]}") ;;
    *) files=("${app[@]}") ;;
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
  for f in j1 z1 jn zn wr; do
    cut -d' ' -f1 "$W/$f" | stats >"$W/$f.t"; cut -d' ' -f2 "$W/$f" | stats | cut -d' ' -f1 >"$W/$f.c"
  done
  read -r j1 j1l j1h <"$W/j1.t"; read -r z1 z1l z1h <"$W/z1.t"
  read -r jn jnl jnh <"$W/jn.t"; read -r zn znl znh <"$W/zn.t"; read -r wr _ _ <"$W/wr.t"
  anchor "zstd -T1, $set level $L" "$z1" "$z1l" "$z1h"
  s1=$(calc "$z1 + $wr"); sn=$(calc "$zn + $wr")
  printf '| %s, level %s | 1 | %s | %.2f | %s | %.2f | %.2f | %s | %s |\n' "$set" "$L" \
    "$(cell "$j1" "$j1l" "$j1h")" "$(cat "$W/j1.c")" "$(cell "$z1" "$z1l" "$z1h")" "$(cat "$W/z1.c")" \
    "$s1" "$(ratio "$z1" "$j1")" "$(ratio "$s1" "$j1")" >>"$PACKTAB"
  printf '| %s, level %s | %d | %s | %.2f | %s | %.2f | %.2f | %s | %s |\n' "$set" "$L" "$NCPU" \
    "$(cell "$jn" "$jnl" "$jnh")" "$(cat "$W/jn.c")" "$(cell "$zn" "$znl" "$znh")" "$(cat "$W/zn.c")" \
    "$sn" "$(ratio "$zn" "$jn")" "$(ratio "$sn" "$jn")" >>"$PACKTAB"
  # sizes: our frames (store image bytes minus the 12-byte XAZS headers) vs the zstd CLI's frames
  zs=$(cat "$W"/z1o/*.zst | wc -c)
  stored=$("$A" info --json "$W/pack.raw" | sed 's/.*"stored_bytes": \([0-9]*\).*/\1/')
  awk -v s="$stored" -v z="$zs" -v n="$nf" -v set="$set" -v L="$L" 'BEGIN {
    printf "%s level %s %d B (%+.3f%%)\n", set, L, s - 12 * n, 100 * (s - 12 * n - z) / z }' >>"$SIZES"
  echo "$set $L $j1 $z1 $jn $zn $stored $zs $nf" >>"$W/packraw"
  cmp -s "$W/j1.so" "$W/jn.so" || echo "$set level $L: **the -j1 and -j$NCPU outputs differ**" >>"$SIZES"
done
say "| set, level | threads | asmstore, s | CPU, s | zstd (anchor), s | CPU, s | stand-in, s | zstd ÷ | stand-in ÷ |"
say "|---|---|---|---|---|---|---|---|---|"
tee -a "$BODY" <"$PACKTAB"
say ""
say "Size: our frames vs the zstd CLI's frames of the same files at the same level, + 12 bytes (\`XAZS\`) per entry:"
say "$(awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }' "$SIZES")."
say ""
while read -r set L j1 z1 jn zn stored zs nf; do
  d=$(calc "100 * ($stored - 12 * $nf - $zs) / $zs")
  target "pack $set, level $L: zstd ÷ ours, 1 thread; size vs zstd" "≥ 1.00×; ≤ +0.1%" \
    "$(ratio "$z1" "$j1"); $(printf '%+.3f%%' "$d")" "$(status "$(calc "$z1 / $j1 >= 1 && $d <= 0.1")")"
  if [ "$L" = 19 ]; then
    target "pack $set, level 19: $NCPU threads ÷ 1" "≥ 1.70×" "$(ratio "$j1" "$jn")" "$(status "$(calc "$j1 / $jn >= 1.7")")"
  fi
done <"$W/packraw"

fi # section 1
# ---------------------------------------------------------------- 1b. pack several ABIs
# `pack --abi arm64,arm,x86_64,x86` (one run, each image compressed once: write_options.reuse) vs
# `pack --abi x86_64` alone, CPU of each run (user + sys), interleaved; the x86_64 store of both
# compared byte for byte. The app subset is IL-only, as most of an app's assemblies are.
if [ -z "$ONLY" ] || [ "$ONLY" = abis ]; then
section "pack abis"
ABIS_L=19; ABIS_R=$([ "$FULL" = 1 ] && echo 7 || echo 5)
echo "  pack: app level $ABIS_L, one ABI vs four, $ABIS_R reps ..." >&2
: >"$W/ab1"; : >"$W/ab4"
for ((i = 0; i < ABIS_R; i++)); do
  tsec "$A" pack $PACK_AS --abi x86_64 -o "$W/ab1.so" --level "$ABIS_L" --jobs 1 "${app[@]}" >>"$W/ab1"
  rm -rf "$W/ab4o"; mkdir "$W/ab4o"
  tsec "$A" pack $PACK_AS --abi arm64,arm,x86_64,x86 -o "$W/ab4o/" --level "$ABIS_L" --jobs 1 "${app[@]}" >>"$W/ab4"
done
for f in ab1 ab4; do cut -d' ' -f2 "$W/$f" | stats >"$W/$f.c"; done
read -r c1 c1l c1h <"$W/ab1.c"; read -r c4 c4l c4h <"$W/ab4.c"
anchor "pack, one ABI (CPU)" "$c1" "$c1l" "$c1h"
same_x86_64=$(cmp -s "$W/ab1.so" "$W/ab4o/x86_64/"*.so && echo "byte for byte the one-ABI run's" || echo "**differs from the one-ABI run's**")
say "### 1b. Several ABIs in one run"
say ""
say "\`asmstore pack --abi arm64,arm,x86_64,x86\` (each image compressed once, the other stores take its payload) vs"
say "\`--abi x86_64\` alone: the app subset ($(echo "${#app[@]}") IL-only assemblies), level $ABIS_L, \`--jobs 1\`; CPU = user + sys, s;"
say "$ABIS_R runs each, interleaved. Its x86_64 store: $same_x86_64."
say ""
say "| run | CPU, s | ÷ one ABI |"
say "|---|---|---|"
say "| anchor: one ABI | $(cell "$c1" "$c1l" "$c1h") | 1 |"
say "| four ABIs | $(cell "$c4" "$c4l" "$c4h") | $(ratio "$c4" "$c1") |"
say ""
target "pack four ABIs (IL-only, level $ABIS_L): CPU ÷ one ABI's" "≤ 1.30×" "$(ratio "$c4" "$c1")" \
  "$(status "$(calc "$c4 / $c1 <= 1.3")")"
fi
if [ "$ONLY" = lookup ]; then
  section "lookup vs upstream"; lookup_vs_upstream
fi
if [ -z "$ONLY" ]; then # sections 2-6
# ---------------------------------------------------------------- stores used below
section stores
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
section locate
say "## 2. Locate"
say ""
say "From nothing to a validated reader, each sample a fresh \`fork()\`ed process (page cache warm), variants rotated;"
say "$LOC_SAMPLES samples each, µs. The store: the corpus at level 19 ($(stat -c %s "$W/corpus.raw") bytes, x86_64)."
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
anchor "ld.lld .so dlopen" "$ll" "$lll" "$llh"
say "| path | µs | ÷ the anchor |"
say "|---|---|---|"
say "| anchor: \`ld.lld\` .so from \`.incbin\`, dlopen + dlsym alone | $(cell "$ll" "$lll" "$llh" 1) | 1 |"
say "| our generated .so, dlopen + dlsym alone | $(cell "$od" "$odl" "$odh" 1) | $(ratio "$od" "$ll") |"
say "| our .so: asmstore_locate_dlopen alone (+ the payload's extent) | $(cell "$oc" "$ocl" "$och" 1) | $(ratio "$oc" "$ll") |"
say "| our .so: asmstore_locate_dlopen + asmstore_reader_init | $(cell "$lo" "$lol" "$loh" 1) | $(ratio "$lo" "$ll") |"
say "| APK ($(unzip -l "$W/app.apk" 2>/dev/null | tail -n 1 | awk '{ print $2 }') entries, zipalign 16384): locate_apk + reader_init |" \
    "$(cell "$la" "$lal" "$lah" 1) | $(ratio "$la" "$ll") (÷ our .so: $(ratio "$la" "$lo")) |"
say ""
grep FAILED "$W/loc" | sed 's/^/    /' | tee -a "$BODY" || true
target "locate: our .so + reader init vs the lld .so's dlopen + dlsym" "≤ 1.00×" "$(ratio "$lo" "$ll")" "$(status "$(calc "$lo <= $ll")")"
target "locate: the APK path vs our .so's" "≤ 2.00×" "$(ratio "$la" "$lo")" "$(status "$(calc "$la <= 2 * $lo")")"

# ---------------------------------------------------------------- 3 + 4. lookup, read
section "lookup + read"
"$T" reader "$W/corpus.raw" "$REPS" >"$W/rd" 2>&1
"$T" reader "$W/stored.raw" "$REPS" >"$W/rds" 2>&1
IR_LK=$(count_ir "$W/corpus.raw" lookup 10); IR_IX=$(count_ir "$W/corpus.raw" index 10); IR_FL=$(count_ir "$W/corpus.raw" floor 10)
IR_OPEN=$(count_ir "$W/corpus.raw" open 20)
HAVE_BCL=0
if [ -f "$W/bcl.raw" ]; then # the second corpus: the same figures on the .NET BCL store
  "$T" reader "$W/bcl.raw" "$REPS" >"$W/rdb" 2>&1
  IR_LKB=$(count_ir "$W/bcl.raw" lookup 10); IR_IXB=$(count_ir "$W/bcl.raw" index 10)
  IR_FLB=$(count_ir "$W/bcl.raw" floor 10); HAVE_BCL=1
fi
say "## 3. Lookup"
say ""
say "Every name of the corpus store with and without extension ($(get1 "$W/rd" names), random order, name table attached):"
say "\`asmstore_reader_find_index\` and \`asmstore_reader_find\` (+ the entry, sizes from the image's header) vs the"
say "floor: the same hash + glibc \`bsearch\` over the sorted index hashes. Instructions: callgrind (load-independent)."
say ""
read -r lk lkl lkh < <(get "$W/rd" lookup_ns); read -r fl fll flh < <(get "$W/rd" floor_ns)
read -r ix ixl ixh < <(get "$W/rd" index_ns)
read -r op opl oph < <(get "$W/rd" open_us)
anchor "bsearch floor, corpus" "$fl" "$fll" "$flh"
say "| figure | asmstore | anchor: hash + bsearch | ratios |"
say "|---|---|---|---|"
say "| find_index (the lookup), ns; instructions per name | $(cell "$ix" "$ixl" "$ixh" 1); $(fmt 0 "$IR_IX") |" \
    "$(cell "$fl" "$fll" "$flh" 1); $(fmt 0 "$IR_FL") | $(ratio "$ix" "$fl"); $(ratio "$IR_IX" "$IR_FL") |"
say "| find (lookup + entry), ns; instructions per name | $(cell "$lk" "$lkl" "$lkh" 1); $(fmt 0 "$IR_LK") |" \
    "$(cell "$fl" "$fll" "$flh" 1); $(fmt 0 "$IR_FL") | $(ratio "$lk" "$fl"); $(ratio "$IR_LK" "$IR_FL") |"
if [ $HAVE_BCL = 1 ]; then
  read -r bk bkl bkh < <(get "$W/rdb" lookup_ns); read -r bf bfl bfh < <(get "$W/rdb" floor_ns)
  read -r bx bxl bxh < <(get "$W/rdb" index_ns)
  anchor "bsearch floor, BCL" "$bf" "$bfl" "$bfh"
  say "| .NET BCL ($(get1 "$W/rdb" names) names): find_index | $(cell "$bx" "$bxl" "$bxh" 1); $(fmt 0 "$IR_IXB") |" \
      "$(cell "$bf" "$bfl" "$bfh" 1); $(fmt 0 "$IR_FLB") | $(ratio "$bx" "$bf"); $(ratio "$IR_IXB" "$IR_FLB") |"
  say "| .NET BCL: find | $(cell "$bk" "$bkl" "$bkh" 1); $(fmt 0 "$IR_LKB") |" \
      "$(cell "$bf" "$bfl" "$bfh" 1); $(fmt 0 "$IR_FLB") | $(ratio "$bk" "$bf"); $(ratio "$IR_LKB" "$IR_FLB") |"
fi
say "| open (reader_init: checks every range and name), µs; instructions | $(cell "$op" "$opl" "$oph" 2);" \
    "$(fmt 0 "$IR_OPEN") ($(fmt 0 "$IR_OPEN / $(get1 "$W/rd" entries)")/entry) | | |"
say ""
target "lookup: find_index ÷ floor (time; instructions)" "≤ 1.50×; ≤ 1.50×" \
  "$(ratio "$ix" "$fl"); $(ratio "$IR_IX" "$IR_FL")" "$(status "$(calc "$ix <= 1.5 * $fl && $IR_IX <= 1.5 * $IR_FL")")"
target "lookup: find ÷ floor (time; instructions)" "≤ 1.50×; ≤ 1.50×" \
  "$(ratio "$lk" "$fl"); $(ratio "$IR_LK" "$IR_FL")" "$(status "$(calc "$lk <= 1.5 * $fl && $IR_LK <= 1.5 * $IR_FL")")"

lookup_vs_upstream

say "## 4. Read"
say ""
read -r rm rml rmh < <(get "$W/rd" read_mbs); read -r zm zml zmh < <(get "$W/rd" zstd_mbs)
read -r ld ldl ldh < <(get "$W/rd" load_ms)
read -r zc zcl zch < <(get "$W/rds" zerocopy_ms); read -r cp cpl cph < <(get "$W/rds" copy_ms)
anchor "raw ZSTD_decompressDCtx, corpus" "$zm" "$zml" "$zmh"
say "Every entry of the corpus store ($(fmt 1 "$(get1 "$W/rd" read_bytes) / 1e6") MB): \`asmstore_reader_read\` vs raw \`ZSTD_decompressDCtx\`, same"
say "frames and context, back to back per entry; packed \`--no-compress\`: zero-copy (a pointer into the store) vs a copy."
say ""
say "| figure | asmstore | anchor | ratio |"
say "|---|---|---|---|"
say "| read, MB/s (higher is better) | $(cell "$rm" "$rml" "$rmh" 0) | raw zstd $(cell "$zm" "$zml" "$zmh" 0) | $(ratio "$rm" "$zm") of raw |"
say "| load every entry by name (find + read), ms | $(cell "$ld" "$ldl" "$ldh" 1) | | |"
if [ $HAVE_BCL = 1 ]; then
  read -r brm brml brmh < <(get "$W/rdb" read_mbs); read -r bzm bzml bzmh < <(get "$W/rdb" zstd_mbs)
  anchor "raw ZSTD_decompressDCtx, BCL" "$bzm" "$bzml" "$bzmh"
  say "| .NET BCL ($(fmt 1 "$(get1 "$W/rdb" read_bytes) / 1e6") MB, level 19): read, MB/s | $(cell "$brm" "$brml" "$brmh" 0) |" \
      "raw zstd $(cell "$bzm" "$bzml" "$bzmh" 0) | $(ratio "$brm" "$bzm") of raw |"
fi
say "| stored entries: zero-copy, all ${#corpus[@]}, ms | $(cell "$zc" "$zcl" "$zch" 3) | copy out $(cell "$cp" "$cpl" "$cph" 2) |" \
    "$(ratio "$zc" "$cp") |"
say ""
target "read ÷ raw zstd (corpus$([ $HAVE_BCL = 1 ] && echo "; .NET BCL"))" "≥ 0.97×" \
  "$(ratio "$rm" "$zm")$([ $HAVE_BCL = 1 ] && echo "; $(ratio "$brm" "$bzm")")" \
  "$(status "$(calc "$rm >= 0.97 * $zm$([ $HAVE_BCL = 1 ] && echo " && $brm >= 0.97 * $bzm")")")"

# ---------------------------------------------------------------- 5. cache
section cache
say "## 5. Cache"
say ""
"$C" --reps "$CACHE_REPS" $CORPUS_DIRS >"$W/cache" 2>&1
num() { sed -n "s/.*$1[^0-9]*\([0-9.]*\).*/\1/p" "$W/cache" | head -n 1; }
cold=$(num 'cold: decompress + queue'); plain=$(num 'anchor: decompress only'); warm=$(num 'warm: hit (mmap + footer)')
wdone=$(sed -n 's/.*writer done at *\([0-9.]*\) ms.*/\1/p' "$W/cache"); wmb=$(sed -n 's/.*files, \([0-9.]*\) MB written.*/\1/p' "$W/cache")
wfiles=$(sed -n 's/.*ms *\([0-9]*\) files,.*/\1/p' "$W/cache")
mline() { sed -n "s/.*$1:.*$2 *\([-+0-9]*\) kB.*/\1/p" "$W/cache"; } # PATH-LABEL FIGURE
dcold=$(mline 'decompress path (miss)' 'private dirty'); ccold=$(mline 'decompress path (miss)' 'clean file-backed')
dwarm=$(mline 'hit path (cache files)' 'private dirty'); cwarm=$(mline 'hit path (cache files)' 'clean file-backed')
say "$(echo "$(head -n 1 "$W/cache" | sed 's/^bench-cache: /Store: /; s/, median of [0-9]* runs//');" \
  "tests/bench/bench_cache.c, medians of $CACHE_REPS runs, every entry through \`asmstore_cache_get\`: cold (decompress +" \
  "queue for the writer), cache off (the anchor), warm (all hits). Memory: after loading and holding every entry," \
  "each path in its own process (smaps_rollup deltas)." | fold -s -w 116 | sed "s/ *$//")"
say ""
extra=$(calc "$wdone - $plain"); save=$(calc "$plain - $warm")
be=$(awk -v e="$extra" -v s="$save" 'BEGIN { if (s <= 0) print "never"; else { n = e / s; printf "%d", (n == int(n)) ? n : int(n) + 1 } }')
be_fg=$(awk -v e="$(calc "$cold - $plain")" -v s="$save" 'BEGIN { if (s <= 0) print "never"; else { n = e / s; if (n < 0) n = 0
  printf "%d", (n == int(n)) ? n : int(n) + 1 } }')
say "| figure | value | anchor | ratio |"
say "|---|---|---|---|"
say "| cold load of every entry, ms | $cold | decompress only $plain | $(ratio "$cold" "$plain") |"
say "| warm load of every entry, ms | $warm | cold $cold | cold is $(ratio "$cold" "$warm") warm |"
say "| first run: writer done at, ms | $wdone ($wfiles files, $wmb MB written) | decompress only $plain | $(ratio "$wdone" "$plain") |"
say "| break-even: warm runs that repay the first | $be (the writer's whole time); $be_fg (the foreground only) | | |"
say "| after loading all: private dirty; clean file-backed, kB | warm $dwarm; $cwarm | cold $dcold; $ccold |" \
    "$(ratio "$dwarm" "$dcold") |"
say ""
target "cache: cold ÷ warm; warm's private dirty ÷ cold's" "≥ 8×; ≤ 0.05×" "$(ratio "$cold" "$warm"); $(ratio "$dwarm" "$dcold")" \
  "$(status "$(calc "$cold >= 8 * $warm && $dwarm <= 0.05 * $dcold")")"

# ---------------------------------------------------------------- 5b. cache: startup matrix
section "cache matrix"
say "### 5b. Startup matrix: cache hit vs direct zstd vs upstream's removed design"
say ""
"$C" --matrix --reps "$MATRIX_REPS" $CORPUS_DIRS >"$W/matrix" 2>&1
say "$(echo "$(sed -n 's/^matrix: .*, \([0-9]*\) fresh processes per cell.*/\1/p' "$W/matrix") fresh processes per row," \
  "interleaved, each mapping the store, validating it, opening the cache, getting + touching every image of the" \
  "workload (app = $(sed -n 's/^matrix: .*(app subset: \([0-9]*\) names).*/\1/p' "$W/matrix") assemblies, corpus = all;" \
  "whole = every page, sparse = headers, metadata, every 4th page). *Evicted* = \`posix_fadvise(DONTNEED)\` on every" \
  "file first (\`mincore\` residency in brackets); direct = cache off; hit = files of an earlier run; upstream = a" \
  "replica of #11967's removed design (docs/store-format.md §8: CRC-32 of the payload on every hit). Process = spawn" \
  "to exit; CPU = user + sys; dirty = private dirty at the end; targets take the worse touch." | fold -s -w 116 | sed "s/ *$//")"
say ""
grep '^|' "$W/matrix" | tee -a "$BODY" >/dev/null
grep '^matrix: .*failed' "$W/matrix" | tee -a "$BODY" || true
say ""
while IFS='|' read -r _ st g1 g2 v ok; do
  target "matrix $st: hit ÷ direct, ÷ upstream; app; corpus" "$g1, $g2" "$v" "$(status "$ok")"
done < <(awk -F'|' '{ k = $3; g1[k] = $4; g2[k] = $7; v[k] = v[k] (v[k] == "" ? "" : "; ") $5 ", " $8
  if (!(k in ok)) ok[k] = 1
  ok[k] = ok[k] && $6 && $9 } END { for (k in g1) print "t|" k "|" g1[k] "|" g2[k] "|" v[k] "|" ok[k] }' < <(awk -F'|' '$1 == "target" { split($2, a, ", "); split(a[3], b, " "); k = a[2] "|" b[1]
  if ($2 ~ /direct/) d[k] = $3 "|" $4 "|" $5; else u[k] = $3 "|" $4 "|" $5; o[k] = 1 }
  END { for (k in o) print "t|" k "|" d[k] "|" u[k] }' "$W/matrix" | sort -t'|' -k2,2) | sort -t'|' -k2,2r)
awk -F'|' '$3 == " direct " { split($4, a, /[ (–)]+/); if (a[2] > 0) printf "%.4f matrix direct,%s\n", (a[4] - a[3]) / a[2], $2 }' \
  "$W/matrix" >>"$ANCHORS"

# ---------------------------------------------------------------- 6. scale
section scale
say "## 6. Scale"
say ""
say "Stores of 20 (the app subset), 30, 300, 3000 entries (the corpus cycled; level 3). locate = locate_dlopen + init in a"
say "fresh process ($LOC_SAMPLES samples); open = reader init alone; lookup = find, per name; load = find + decompress all."
say ""
say "| entries | store MB | locate µs | open µs | lookup ns | lookup instr. | load ms | load µs/entry |"
say "|---|---|---|---|---|---|---|---|"
: >"$W/scale.dat"
for n in app 30 300 3000; do
  echo "    $n entries ..." >&2
  if [ "$n" = app ]; then "$T" mkstore "$W/s.raw" 3 "$NCPU" "${#app[@]}" 0 "${app[@]}" 2>&1
  else "$T" mkstore "$W/s.raw" 3 "$NCPU" "$n" 0 "${corpus[@]}" 2>&1; fi
  "$A" wrap -o "$W/s.so" --abi x86_64 "$W/s.raw" >/dev/null 2>&1
  "$T" locate "$LOC_SAMPLES" "s:so=$W/s.so" >"$W/sl" 2>&1
  "$T" reader "$W/s.raw" "$REPS" >"$W/sr" 2>&1
  ne=$(get1 "$W/sr" entries); nn=$(get1 "$W/sr" names)
  irl=$(count_ir "$W/s.raw" lookup "$(( 20000 / nn + 1 ))")
  read -r a al ah < <(get "$W/sl" locate_s_us); read -r o ol oh < <(get "$W/sr" open_us)
  read -r k kl kh < <(get "$W/sr" lookup_ns); read -r l ll lh < <(get "$W/sr" load_ms)
  read -r lu lul luh < <(get "$W/sr" load_us_per_entry)
  say "| $ne$([ "$n" = app ] && echo ' (app)') | $(fmt 1 "$(get1 "$W/sr" store_bytes) / 1e6") | $(cell "$a" "$al" "$ah" 0) |" \
      "$(cell "$o" "$ol" "$oh" 1) | $(cell "$k" "$kl" "$kh" 1) | $(fmt 0 "$irl") | $(cell "$l" "$ll" "$lh" 1) | $(fmt 0 "$lu") |"
  echo "$ne $a $o $k $irl $l $lu" >>"$W/scale.dat"
done
say ""
# growth 300 -> 3000 (10x entries): linear = per-entry cost flat; lookup instructions ~ log n
read -r g_open g_lk g_loc g_load g_lkt < <(sort -n "$W/scale.dat" | awk '$1 == 300 { o = $3; k = $5; a = $2; l = $7; t = $4 }
  $1 == 3000 { printf "%.2f %.2f %.2f %.2f %.2f\n", ($3 / 3000) / (o / 300), $5 / k, $2 / a, $7 / l, $4 / t }')
LOG=$(fmt 2 "log(6000) / log(600)")
say "300 → 3000 entries, per entry (1.00 = linear): open ${g_open:-?}×, load ${g_load:-?}×; locate ${g_loc:-?}×; lookup instructions"
say "${g_lk:-?}× (log₂ 6000 ÷ log₂ 600 = $LOG), time ${g_lkt:-?}× (the entry fill reads headers spread over the whole store)."
say ""
[ -n "${g_open:-}" ] &&
  target "scale 300 → 3000: open, load per entry; lookup instr." "≤ 1.15×, 1.15×; ≤ $LOG×" \
    "${g_open}×, ${g_load}×; ${g_lk}×" "$(status "$(calc "$g_open <= 1.15 && $g_load <= 1.15 && $g_lk <= $LOG")")"

fi # sections 1-6
# ---------------------------------------------------------------- 7. time to Main and memory (CoreCLR, Mono)
if [ -z "$ONLY" ] || [ "$ONLY" = ttm ]; then
  section startup
  . "$(dirname "$0")/bench_ttm.sh"
fi
# ---------------------------------------------------------------- 8. the Python package (bench_python.py)
if [ -z "$ONLY" ] && [ -f "$W/bcl.raw" ] && [ -x "${BENCH_PYTHON:-}" ]; then
  section python
  say "## 8. Python package"
  say ""
  say "Every image of the \`bcl\` store read from Python (\`asmstore.open\`, then \`store.read(e)\` for each entry: one"
  say "process) beside \`asmstore extract\` of it (the C CLI: each image decompressed, checked and written), interleaved,"
  say "5 repetitions a round, 2 rounds (tests/bench/bench_python.py). CPU = user + sys of each process (getrusage);"
  say "the interpreter's start-up and the import (40-50 ms) count; Python writes no files. Target: within 1.2× of the CLI."
  "$BENCH_PYTHON" "$(dirname "$0")/bench_python.py" --python "$BENCH_PYTHON" --asmstore "$A" --store "$W/bcl.raw" \
    --work "$W/python" >"$W/python.md" 2>&1
  tee -a "$BODY" <"$W/python.md"
  say ""
  PY_WORST=$(awk -F'|' '/Python ÷ CLI/ { for (i = 3; i <= 4; i++) { v = $i; gsub(/[ ×]/, "", v); if (v + 0 > w + 0) w = v } }
    END { if (w != "") print w }' "$W/python.md")
  [ -n "$PY_WORST" ] && target "Python reads the bcl store (wall, CPU ÷ CLI extract), worst round" "≤ 1.2×" \
    "${PY_WORST}×" "$(status "$(calc "$PY_WORST <= 1.2")")"
fi
# ---------------------------------------------------------------- 9. codecs: LZ4 decode, CRC-32, info of an APK
if [ -z "$ONLY" ] || [ "$ONLY" = codecs ]; then
  section codecs
  say "## 9. Codecs"
  say ""
  say "The reader's own LZ4 block decoder (\`asmstore_lz4_decode\`) vs liblz4's \`LZ4_decompress_safe\` on the same blocks"
  say "(every image of the corpus packed \`--target net10 --runtime monovm\`: LZ4 HC 12), the two in turn in each of $((REPS + 4))"
  say "repetitions; the header's CRC-32 (slicing by 16) vs zlib's \`crc32_z\` on 64 MiB, interleaved; \`asmstore info\` of a"
  say "STORED APK (the corpus \`--no-compress\` + 32 MB of other entries, zipaligned: it checks the store entry's CRC-32 with"
  say "zlib) vs the floor: reading the whole file + zlib's CRC-32 of it (bench_tool readcrc), in turn, $((REPS + 4)) each;"
  say "\`asmstore verify\` of the same APK with its store compressed (\`--target net10 --runtime coreclr\`: zstd) vs"
  say "the floor: reading the file, then every image decompressed and hashed with XXH3 (bench_tool readimages), in turn."
  say ""
  "$A" pack --raw --target net10 --runtime monovm --abi x86_64 -o "$W/lz4.raw" --jobs "$NCPU" "${corpus[@]}" >/dev/null 2>&1
  "$T" lz4 "$W/lz4.raw" $((REPS + 4)) >"$W/lz4" 2>&1
  "$T" crc 64 $((REPS + 4)) >"$W/crc" 2>&1
  read -r lo lol loh < <(get "$W/lz4" lz4_ours_mbs); read -r ll lll llh < <(get "$W/lz4" lz4_liblz4_mbs)
  read -r co col coh < <(get "$W/crc" crc_ours_mbs); read -r cz czl czh < <(get "$W/crc" crc_zlib_mbs)
  anchor "LZ4_decompress_safe" "$ll" "$lll" "$llh"; anchor "zlib crc32_z" "$cz" "$czl" "$czh"
  : >"$W/info"; : >"$W/floor"; : >"$W/verify"; : >"$W/vfloor"; APK_MB=nan
  if have zip && have zipalign; then
    d=$W/apk80.d; rm -rf "$d"; mkdir -p "$d/lib/x86_64"
    "$A" pack --no-compress --abi x86_64 -o "$d/lib/x86_64/libassembly-store.so" --jobs "$NCPU" "${corpus[@]}" >/dev/null 2>&1
    head -c 32000000 /dev/urandom >"$d/classes.dex"
    (cd "$d" && zip -q -0 -r "$W/apk80.zip" .) && zipalign -f 16384 "$W/apk80.zip" "$W/apk80.apk" &&
      APK_MB=$(fmt 1 "$(stat -c %s "$W/apk80.apk") / 1e6")
    "$A" pack --target net10 --runtime coreclr --abi x86_64 -o "$d/lib/x86_64/libassembly-store.so" --jobs "$NCPU" \
      "${corpus[@]}" >/dev/null 2>&1
    rm -f "$W/apkz.zip"; (cd "$d" && zip -q -0 -r "$W/apkz.zip" .) && zipalign -f 16384 "$W/apkz.zip" "$W/apkz.apk" &&
      APKZ_MB=$(fmt 1 "$(stat -c %s "$W/apkz.apk") / 1e6")
    for ((i = 0; i < REPS + 4; i++)); do
      [ -f "$W/apk80.apk" ] || break
      tsec "$A" info "$W/apk80.apk" | cut -d' ' -f1 >>"$W/info"
      "$T" readcrc "$W/apk80.apk" | awk '$1 == "readcrc_s" { print $2 }' >>"$W/floor"
      [ -f "$W/apkz.apk" ] || continue
      tsec "$A" verify "$W/apkz.apk" | cut -d' ' -f1 >>"$W/verify"
      "$T" readimages "$W/apkz.apk" | awk '$1 == "readimages_s" { print $2 }' >>"$W/vfloor"
    done
  fi
  read -r io iol ioh < <(stats <"$W/info"); read -r fl fll flh < <(stats <"$W/floor")
  anchor "read + zlib CRC-32 of the APK" "$fl" "$fll" "$flh"
  read -r vo vol voh < <(stats <"$W/verify"); read -r vf vfl vfh < <(stats <"$W/vfloor")
  anchor "read + decompress and hash every image" "$vf" "$vfl" "$vfh"
  say "| figure | asmstore | anchor | ratio |"
  say "|---|---|---|---|"
  say "| LZ4 decode, MB/s of output ($(fmt 1 "$(get1 "$W/lz4" lz4_bytes) / 1e6") MB; higher is better) | $(cell "$lo" "$lol" "$loh" 0) |" \
      "liblz4 $(cell "$ll" "$lll" "$llh" 0) | $(ratio "$lo" "$ll") of liblz4 |"
  say "| CRC-32, MB/s (higher is better) | $(cell "$co" "$col" "$coh" 0) | zlib $(cell "$cz" "$czl" "$czh" 0) | $(ratio "$co" "$cz") of zlib |"
  say "| \`info\` of a STORED $APK_MB MB APK, ms | $(cell "$(calc "$io * 1000")" "$(calc "$iol * 1000")" "$(calc "$ioh * 1000")" 1) |" \
      "read + CRC-32 $(cell "$(calc "$fl * 1000")" "$(calc "$fll * 1000")" "$(calc "$flh * 1000")" 1) | $(ratio "$io" "$fl") |"
  say "| \`verify\` of a STORED ${APKZ_MB:-nan} MB APK (zstd store), ms | $(cell "$(calc "$vo * 1000")" "$(calc "$vol * 1000")" "$(calc "$voh * 1000")" 1) |" \
      "read + decompress + hash $(cell "$(calc "$vf * 1000")" "$(calc "$vfl * 1000")" "$(calc "$vfh * 1000")" 1) | $(ratio "$vo" "$vf") |"
  say ""
  grep -v -E '^(lz4_|crc_)' "$W/lz4" "$W/crc" | sed 's/^/    /' | tee -a "$BODY" || true
  target "LZ4 decode: the header's ÷ LZ4_decompress_safe" "≥ 0.70×" "$(ratio "$lo" "$ll")" "$(status "$(calc "$lo >= 0.7 * $ll")")"
  target "CRC-32: the header's, MB/s; ÷ zlib's" "≥ 1000; ≥ 0.30×" "$(fmt 0 "$co"); $(ratio "$co" "$cz")" \
    "$(status "$(calc "$co >= 1000 && $co >= 0.3 * $cz")")"
  target "info of a STORED $APK_MB MB APK ÷ read + zlib CRC-32 of it" "≤ 2.00×" "$(ratio "$io" "$fl")" "$(status "$(calc "$io <= 2 * $fl")")"
  target "verify of a STORED ${APKZ_MB:-nan} MB APK ÷ read + decompress + hash its images" "≤ 1.50×" \
    "$(ratio "$vo" "$vf")" "$(status "$(calc "$vo <= 1.5 * $vf")")"
fi

# ---------------------------------------------------------------- 10. scan (bench_scan.sh)
if [ -z "$ONLY" ] || [ "$ONLY" = scan ]; then
  section scan
  . "$(dirname "$0")/bench_scan.sh"
fi
# ---------------------------------------------------------------- 11. size of the device reader
# `.text` of asmstore.h's implementation alone at -Os: the smallest on-device reader (the header's
# "smallest on-device reader": ASMSTORE_NO_BUILD + NO_ZIP + NO_DLOPEN) beside the full build, x86_64 (cc)
# and arm64 (aarch64-linux-gnu-gcc, when installed; zstd.h and xxhash.h copied beside, as a cross build
# would find them).
if [ -z "$ONLY" ] || [ "$ONLY" = size ]; then
  section size
  HDR_DIR=$(cd "$(dirname "$0")/../.." && pwd)
  mkdir -p "$W/size/inc"; cp /usr/include/zstd.h /usr/include/zstd_errors.h /usr/include/xxhash.h "$W/size/inc/" 2>/dev/null
  printf '#define ASMSTORE_IMPLEMENTATION\n#include "asmstore.h"\n' >"$W/size/impl.c"
  DEVICE_DEFS="-DASMSTORE_NO_BUILD -DASMSTORE_NO_ZIP -DASMSTORE_NO_DLOPEN"
  text_of() { # CC DEFS... -> .text bytes of the implementation at -Os (empty when it does not build)
    local c=$1; shift
    "$c" -std=c99 -Os -I"$HDR_DIR" -I"$W/size/inc" "$@" -c "$W/size/impl.c" -o "$W/size/o.o" 2>/dev/null &&
      size -A "$W/size/o.o" | awk '$1 == ".text" { print $2 }'
  }
  say "## 11. Size of the device reader"
  say ""
  say "\`.text\` bytes of \`asmstore.h\`'s implementation alone (\`-std=c99 -Os\`): the smallest on-device reader"
  say "(\`$DEVICE_DEFS\`: reader, ELF payload finder, file locator; no writer, ELF generator, checker or patcher)"
  say "beside the full build; the share is the reader's ÷ the full build's."
  say ""
  say "| target, compiler | device reader, B | full build, B | share |"
  say "|---|---|---|---|"
  for c in "$CC" aarch64-linux-gnu-gcc; do
    have "$c" || { say "| $c | not installed | | |"; continue; }
    dev=$(text_of "$c" $DEVICE_DEFS); full=$(text_of "$c")
    arch=$("$c" -dumpmachine 2>/dev/null | cut -d- -f1)
    if [ -n "$dev" ] && [ -n "$full" ]; then
      say "| $arch, $c | $dev | $full | $(awk -v d="$dev" -v f="$full" 'BEGIN { printf "%.0f %%", 100 * d / f }') |"
    else say "| $arch, $c | did not build | | |"; fi
  done
  say ""
fi
# ---------------------------------------------------------------- 12. Windows under Wine (bench_windows.sh)
if [ -z "$ONLY" ] || [ "$ONLY" = windows ]; then
  section windows
  . "$(dirname "$0")/bench_windows.sh"
fi
section ""

# ---------------------------------------------------------------- plot
# row 1 (not under BENCH_ONLY=ttm): scale, cache time, cache memory; row 2: section 7's startup matrix, each start's
# CPU, minor faults and time to Main ÷ the same runtime's start from files (bench_ttm.sh's $W/ttm_*.dat), per runtime
PNG=""
TTM_PLOT=0; [ -s "$W/ttm_cpu.dat" ] && [ "$(wc -l <"$W/ttm_cpu.dat")" -gt 1 ] && TTM_PLOT=1
PLOT_MAIN=0; [ -z "$ONLY" ] && PLOT_MAIN=1
CPU_MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
if have gnuplot && [ $((PLOT_MAIN + TTM_PLOT)) -gt 0 ]; then
  {
    cat <<EOF
set terminal pngcairo size 1500,$((480 * PLOT_MAIN + 540 * TTM_PLOT)) font ",10"
set output "$OUT/bench.png"
set multiplot layout $((PLOT_MAIN + TTM_PLOT)),3 title "asmstore make bench$([ -n "$ONLY" ] && echo ", $ONLY alone") ($(date -u +%Y-%m-%d), $CPU_MODEL x $NCPU)"
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

# ---------------------------------------------------------------- the report: summary, machine, body, targets
ELAPSED=$(( $(date +%s) - T0 ))
read -r BUSY1 STEAL1 < <(proc_cpu)
times >"$W/times" # in this shell: a subshell's children are not this script's
OURS=$(tail -n 1 "$W/times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } print s }')
OTHERS=$(calc "($BUSY1 - $BUSY0) / $HZ - $OURS"); [ "$(calc "$OTHERS < 0")" = 1 ] && OTHERS=0
OTHERS_PC=$(fmt 0 "100 * $OTHERS / ($ELAPSED * $NCPU + 1e-9)")
STEAL_PC=$(fmt 1 "100 * ($STEAL1 - $STEAL0) / $HZ / ($ELAPSED * $NCPU + 1e-9)")
OURS_PC=$(fmt 0 "100 * $OURS / ($ELAPSED * $NCPU + 1e-9)")
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
SPREAD=$(sort -g "$ANCHORS" | awk '{ v[NR] = $1; l[NR] = substr($0, index($0, " ") + 1) }
  END { if (NR) printf "median %.0f %%, widest %.0f %% (%s), over %d anchors", 100 * v[int((NR + 1) / 2)], 100 * v[NR], l[NR], NR
        else printf "n/a" }')
N_MET=$(grep -o '\*\*met\*\*' "$TARGETS" "$W"/ttm_targets 2>/dev/null | wc -l)
N_BEHIND=$(grep -o '\*\*behind\*\*' "$TARGETS" "$W"/ttm_targets 2>/dev/null | wc -l)
BEHIND=$({ cat "$TARGETS"; sed 's/^/startup|/' "$W"/ttm_target_rows 2>/dev/null; } | awk -F'|' '
  $1 == "startup" { for (i = 4; i <= 7; i++) if ($i ~ /behind/) { gsub(/^ +| +$/, "", $3); sb = sb (sb == "" ? "" : "; ") $3; break }
    next }
  /\*\*behind\*\*/ { sub(/:.*/, "", $2); gsub(/^ +| +$/, "", $2); if (!seen[$2]++) printf "%s%s", (n++ ? "; " : ""), $2 }
  END { if (sb != "") printf "%sstartup vs files (%s)", (n ? "; " : ""), sb }')
ver() { "$@" 2>/dev/null | grep -o '[0-9][0-9.]*[0-9]' | head -n 1; }
COMMIT=$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo ?)
DIRTY=$(git -C "$(dirname "$0")" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo " + uncommitted changes")
CMD="make bench$([ "$FULL" = 1 ] && echo ' BENCH_FULL=1')${ONLY:+ BENCH_ONLY=$ONLY}"; [ "$ONLY" = scan ] && CMD="make bench-scan"
{
  echo "# asmstore benchmarks"
  echo ""
  echo "Written by \`$CMD\` (tests/bench/bench.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'), $MODE; not edited by hand."
  echo "Each figure: median (min–max), from the same run as its anchor, interleaved; ratios asmstore ÷ anchor for times"
  echo "(below 1: faster) unless a column says otherwise. Missed targets are **behind**. Earlier: docs/benchmark-history.md."
  echo ""
  echo "## Summary"
  echo ""
  echo "- Targets: **$N_MET met, $N_BEHIND behind**${BEHIND:+ (behind: $BEHIND)}." | fold -s -w 116 | sed 's/ *$//; 2,$s/^/  /'
  { printf '%s' "- Noise: other processes used $OTHERS_PC % of the $NCPU CPUs during the run (the benchmark itself $OURS_PC %;"
    printf '%s' " steal $STEAL_PC %); load average $LOAD_START at the start (busy: ${TOP_START:-nothing over 10 %}),"
    printf '%s' " $LOAD_END at the end; the anchors' spread (max − min) ÷ median: $SPREAD."
    [ "$OTHERS_PC" -ge 10 ] 2>/dev/null &&
      printf '%s' " A shared machine: read the ratios (a figure and its anchor share the load), not the times."
    echo; } | fold -s -w 116 | sed 's/ *$//; 2,$s/^/  /'
  echo ""
  echo "## Machine and run"
  echo ""
  echo "| | |"
  echo "|---|---|"
  echo "| CPU, memory | $CPU_MODEL, $NCPU cores ($(awk '/^cpu MHz/ { printf "%.0f MHz", $4; exit }' /proc/cpuinfo);" \
       "$(sed -n 's/^cache size[[:space:]]*: //p' /proc/cpuinfo | head -n 1) cache), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) |"
  echo "| kernel, compiler | $(uname -srm), $(${CC:-cc} --version | head -n 1) (-O2) |"
  echo "| asmstore | $("$A" --version 2>/dev/null | head -n 1), commit $COMMIT$DIRTY |"
  echo "| libzstd, zstd, llvm-mc, ld.lld, valgrind, gnuplot | $(pkg-config --modversion libzstd 2>/dev/null || echo ?)," \
       "$(zstd -V 2>/dev/null | grep -o 'v[0-9.]*' | head -n 1), $([ -n "$LLVM_MC" ] && ver "$LLVM_MC" --version || echo missing)," \
       "$([ -n "$LLD" ] && ver "$LLD" --version || echo missing), $(ver valgrind --version || echo missing)," \
       "$(ver gnuplot --version || echo missing) |"
  echo "| .NET, Mono | CoreCLR ${CLR_VERSION:-missing}$([ -n "${v11:-}" ] && echo ", $v11 (build/runtime-net11)"), Mono" \
       "$(ver mono --version || echo missing) |"
  echo "| command | \`$CMD\`, $ELAPSED s |"
  echo "| sections, s | $(awk '{ t = $NF; $NF = ""; sub(/ $/, ""); printf "%s%s %d", (NR > 1 ? ", " : ""), $0, t }' "$SECTIONS") |"
  echo ""
  { echo "Corpus: Mono 4.5 + Facades, ${#corpus[@]} assemblies, $(fmt 1 "$CORPUS_BYTES / 1e6") MB; app subset:" \
         "${#app[@]} of them (mscorlib, System, ...), $(fmt 1 "$APP_BYTES / 1e6") MB.$([ ${#bcl[@]} -gt 0 ] &&
         echo " \`bcl\`: the .NET $CLR_VERSION shared framework, ${#bcl[@]} assemblies, $(fmt 1 "$BCL_BYTES / 1e6") MB.")" \
         ; } | fold -s -w 116 | sed 's/ *$//'
  echo ""
  cat "$BODY"
  echo "## Targets"
  echo ""
  if [ -s "$TARGETS" ]; then
    echo "| target | goal | measured | status |"
    echo "|---|---|---|---|"
    cat "$TARGETS"
    echo ""
  fi
  [ -s "$W/ttm_targets" ] && cat "$W/ttm_targets" && echo ""
  echo "## Reproduce"
  echo ""
  echo "\`make deps runtime-net11 composite-net10\` once (the last two: section 7's CoreCLR 11 and composite tables),"
  echo "then \`make bench && make bench-publish\` (build/bench/BENCHMARKS.md and bench.png to BENCHMARKS.md, docs/)."
  echo "\`BENCH_FULL=1\`: levels 19 and 22 on the whole corpus, more samples; \`BENCH_ONLY=ttm\`: section 7 alone;"
  echo "\`BENCH_ONLY=codecs\`: section 9 alone (LZ4 decode, CRC-32, info and verify of a STORED APK);"
  echo "\`BENCH_ONLY=abis\`, \`lookup\`: section 1b, 3b alone; \`BENCH_ONLY=size\`: section 11 alone;"
  echo "(\`make bench-scan\`: section 10 alone, its corpus cached in build/bench/scan-corpus); \`BENCH_ONLY=windows\`:"
  echo "section 12 alone (after \`make windows\`);"
  echo "\`BENCH_TTM_SAMPLES=N\`: its rounds. An idle machine for absolute times; ratios hold under load."
  echo ""
  [ -n "$PNG" ] && echo "![scale, cache and the startup matrix](bench.png)"
} >"$MD"
echo "bench: wrote $MD ($(wc -l <"$MD") lines)${PNG:+ and $PNG}" >&2
exit 0
