# tests/bench/bench_ttm.sh - section 7 of tests/bench/bench.sh (sourced: its helpers, $W, $A, $OUT, $FULL,
# $TTM_SAMPLES): the startup matrix. Per runtime (CoreCLR 10 installed; CoreCLR 11 from build/runtime-net11/,
# a flat runtime dir, when there is one; CoreCLR 10 with the composite build/composite/ when there is one; Mono),
# each start a fresh process of build/coreclr_host or build/mono_host running the program with --time-to-main,
# spawned by tests/bench/time_to_main.py, every start of every runtime interleaved (the order rotated each round):
#   files (the anchor)     coreclr_host [--runtime DIR] --tpa DIR PROGRAM.dll / mono_host --files DIR PROGRAM.exe
#   store in place         an uncompressed store (16-byte aligned images, used where they lie)
#   warm cache             the compressed store, cache filled by an earlier run
#   cold cache             the compressed store, cache directory removed before every run; CoreCLR also with
#                          --external-only (the external assembly probe alone, without the bundle door)
#   cache off              the compressed store, ASMSTORE_CACHE_DISABLE=1
#   misaligned             uncompressed, --align-images 1 (upstream's layout; CoreCLR 10 and Mono only)
#   CoreCLR's first start, each change of issue 43 alone (coreclr_host's switches; the plain cold / cache off rows have
#   them all): cache off and cold with ASMSTORE_HOST_INTO_FILE=0 ASMSTORE_HOST_ARENA=0 (the cache's buffers from
#   malloc, the external door: before),
#   cache off with ASMSTORE_HOST_SCRATCH=plain / map / populate (the scratch without huge pages, or decompressed
#   straight into the images file page by page / populated), ASMSTORE_HOST_AHEAD=1 (CoreLib decompressed before the
#   runtime asks), cold with ASMSTORE_HOST_PUT_AFTER_MAIN=0 (the cache fed during the start); and the floor, no start
#   of its own: files' figures + the cache-off start's own decompression (its host's "phases:" images figure)
# Figures: time to Main, CPU (user + sys of the child), minor faults, private dirty and clean file-backed
# memory at Main (the host's ASMSTORE_HOST_MEMORY=1 line), the host's image and door counts. Writes the
# section's tables, $W/ttm_targets (the start targets) and $W/ttm_{cpu,faults,ttm}.dat (the plot's data).
# Environment: BENCH_TTM_SAMPLES=N (rounds; default $TTM_SAMPLES), BENCH_TTM_PASSES=N (default 1, BENCH_FULL: 2).

TTM_SAMPLES=${BENCH_TTM_SAMPLES:-$TTM_SAMPLES}
TTM_PASSES=${BENCH_TTM_PASSES:-$([ "$FULL" = 1 ] && echo 2 || echo 1)}
TTM_T0=$(date +%s)
BUILD_DIR=$(dirname "$A")
CLR_HOST=$BUILD_DIR/coreclr_host; CLR_APP=$BUILD_DIR/hello_clr
MONO_HOST=$BUILD_DIR/mono_host; MONO_APP=$BUILD_DIR/hello; MONO_FILES=/usr/lib/mono/4.5
# absolute: TRUSTED_PLATFORM_ASSEMBLIES takes absolute paths (a relative --tpa DIR: coreclr_initialize 0x80070057)
NET11_DIR=$(realpath -m "$BUILD_DIR/runtime-net11"); COMPOSITE_DIR=$(realpath -m "$BUILD_DIR/composite")
TTM_SPEC=$W/ttm.spec; : >"$TTM_SPEC"
TTM_STORES=$(realpath -m "$OUT/ttm-stores") # compressed stores kept between runs (level 22 takes a minute): reused while the inputs are unchanged
declare -A TT_TITLE=() TT_ROWS=() TT_SKIP=() TT_NOTE=()
TT_ORDER=()
# the rows: key, label
declare -A TT_LABEL=(
  [files]="files (anchor)"
  [inplace]="in place"
  [inplace_ext]="in place, ext."
  [warm]="warm"
  [warm_ext]="warm, ext."
  [cold]="cold"
  [cold_ext]="cold, ext."
  [off]="cache off"
  [mis]="misaligned"
  [off_old]="cache off, before (CoreCLR: cache's buffers, ext. door; Mono: malloc's)"
  [off_plain]="cache off, scratch without huge pages"
  [off_map]="cache off, into the file page by page"
  [off_pop]="cache off, into the file, MAP_POPULATE"
  [off_ahead]="cache off, CoreLib ahead"
  [cold_old]="cold, before (CoreCLR: cache's buffers, ext. door; Mono: malloc's)"
  [cold_during]="cold, cache fed during the start"
  [floor]="floor: files + decompressing the images"
  [cold_lz4]="cold, LZ4 store (.NET 10's MonoVM layout)"
  [off_lz4]="cache off, LZ4 store (.NET 10's MonoVM layout)"
)
declare -A TT_MONO_ENV=([off_old]=ASMSTORE_HOST_ARENA=0 [cold_old]=ASMSTORE_HOST_ARENA=0)
# the rows of the first start's changes (CoreCLR): row -> the host's environment
declare -A TT_ENV=([off_old]="ASMSTORE_HOST_INTO_FILE=0 ASMSTORE_HOST_ARENA=0"
                   [cold_old]="ASMSTORE_HOST_INTO_FILE=0 ASMSTORE_HOST_ARENA=0"
                   [off_plain]=ASMSTORE_HOST_SCRATCH=plain [off_map]=ASMSTORE_HOST_SCRATCH=map
                   [off_pop]=ASMSTORE_HOST_SCRATCH=populate [off_ahead]=ASMSTORE_HOST_AHEAD=1
                   [cold_during]=ASMSTORE_HOST_PUT_AFTER_MAIN=0)
TT_PLOT_ROWS="inplace inplace_ext warm warm_ext cold cold_ext off mis"
declare -A TT_SHORT=([inplace]=in-place [inplace_ext]=in-place/ext [warm]=warm [warm_ext]=warm/ext [cold]=cold
                     [cold_ext]=cold/ext [off]=off [mis]=misaligned)

# ttm_pack OUT KIND FLAGS... -- FILES...: OUT (KIND z: compressed, default level, reused from $TTM_STORES while
# FLAGS, FILES (name, size, mtime) and the asmstore binary (its bytes) are unchanged; u: --no-compress --align-images 16; 1: --align-images 1)
ttm_pack() {
  local out=$1 kind=$2 flags=() key kept; shift 2
  while [ "$1" != -- ]; do flags+=("$1"); shift; done; shift
  case $kind in
    z) key=$( { echo "${flags[*]}"; sha1sum <"$A"; stat -L -c '%n %s %Y' "$@"; } | sha1sum | cut -c1-16)
       kept=$TTM_STORES/$(basename "$out").$key
       if [ ! -f "$kept" ]; then
         mkdir -p "$TTM_STORES"; rm -f "$TTM_STORES/$(basename "$out")".*
         "$A" pack --abi x86_64 "${flags[@]}" --jobs "$NCPU" -o "$kept.tmp" "$@" >/dev/null 2>&1 && mv "$kept.tmp" "$kept" || return 1
       fi
       ln -sf "$kept" "$out" ;;
    u) "$A" pack --abi x86_64 "${flags[@]}" --no-compress --align-images 16 -o "$out" "$@" >/dev/null 2>&1 ;;
    1) "$A" pack --abi x86_64 "${flags[@]}" --no-compress --align-images 1 -o "$out" "$@" >/dev/null 2>&1 ;;
  esac
}

# ttm_add TABLE ROW MODE STORE COMMAND...: one start (MODE: files, store, cold, nocache; time_to_main.py's spec)
ttm_add() {
  local t=$1 r=$2 mode=$3 store=$4 cache=-; shift 4
  [ "$mode" != files ] && cache=$W/ttm-cache/${t}_$r
  TT_ROWS[$t]="${TT_ROWS[$t]:-} $r"
  (IFS=$'\t'; printf '%s\n' "${t}_$r"$'\t'"$mode"$'\t'"$cache"$'\t'"$store"$'\t'"$*") >>"$TTM_SPEC"
}
ttm_skip() { TT_ROWS[$1]="${TT_ROWS[$1]:-} $2"; TT_SKIP[${1}_$2]=$3; } # TABLE ROW REASON
ttm_table_new() { TT_ORDER+=("$1"); TT_TITLE[$1]=$2; TT_ROWS[$1]=""; } # TABLE TITLE

# what the hosts can do (their usage lines)
CLR_USAGE=$([ -x "$CLR_HOST" ] && "$CLR_HOST" 2>&1 | head -n 20)
MONO_USAGE=$([ -x "$MONO_HOST" ] && "$MONO_HOST" 2>&1 | head -n 20)
clr_can() { grep -q -- "$1" <<<"$CLR_USAGE"; }

# ttm_clr TABLE TITLE RUNTIME_DIR("": the installed one) TPA_DIR PROGRAM ROWS -- PACK_FILES...: one CoreCLR table
ttm_clr() {
  local t=$1 title=$2 rt=$3 tpa=$4 prog=$5 rows=$6 r store mode ext rtf=(); shift 6; shift
  ttm_table_new "$t" "$title"
  [ -n "$rt" ] && rtf=(--runtime "$rt")
  if ! ttm_pack "$W/$t.z.so" z $PACK_CORECLR_FLAGS -- "$@" || ! ttm_pack "$W/$t.u.so" u $PACK_CORECLR_FLAGS -- "$@" ||
     { [[ " $rows " == *" mis "* ]] && ! ttm_pack "$W/$t.1.so" 1 $PACK_CORECLR_FLAGS -- "$@"; }; then
    TT_NOTE[$t]="Skipped: \`asmstore pack\` failed."; return
  fi
  for r in $rows; do
    ext=(); [[ $r == *_ext ]] && ext=(--external-only)
    if [ "$r" = floor ]; then TT_ROWS[$t]="${TT_ROWS[$t]:-} floor"; continue; fi # figures of files + off
    if [ ${#ext[@]} -gt 0 ] && ! clr_can --external-only; then ttm_skip "$t" "$r" "skipped: $CLR_HOST has no \`--external-only\` yet"; continue; fi
    case $r in
      files) ttm_add "$t" "$r" files - "$CLR_HOST" "${rtf[@]}" --tpa "$tpa" "$prog" --time-to-main; continue ;;
      inplace*) store=$W/$t.u.so; mode=store ;;
      mis) store=$W/$t.1.so; mode=store ;;
      warm*) store=$W/$t.z.so; mode=store ;;
      cold*) store=$W/$t.z.so; mode=cold ;;
      off*) store=$W/$t.z.so; mode=nocache ;;
    esac
    ttm_add "$t" "$r" "$mode" "$store" ${TT_ENV[$r]:-} "$CLR_HOST" "${rtf[@]}" --cache "$W/ttm-cache/${t}_$r" "${ext[@]}" "$store" "$(basename "$prog")" --time-to-main
  done
}

# ---------------------------------------------------------------- the starts
TT_CLR_ROWS="files inplace warm cold cold_ext off"
TT_FIRST_ROWS="floor off_old off_plain off_map off_pop off_ahead cold_old cold_during" # CoreCLR 10 and 11
if [ ${#bcl[@]} -eq 0 ]; then CLR_SKIP="Skipped: $CLR_WHY."
elif [ ! -x "$CLR_HOST" ] || [ ! -f "$CLR_APP/hello.dll" ]; then CLR_SKIP="Skipped: $CLR_HOST or $CLR_APP/hello.dll not built (make coreclr-host)."
else CLR_SKIP=""; fi
echo "  startup matrix: packing the stores ..." >&2
if [ -z "$CLR_SKIP" ]; then
  ttm_clr c10 "CoreCLR $CLR_VERSION (installed)" "" "$CLR_DIR" "$CLR_APP/hello.dll" "$TT_CLR_ROWS mis $TT_FIRST_ROWS" -- \
    "$CLR_DIR"/*.dll "$CLR_APP/hello.dll" "$CLR_APP/Greeting.dll"
  if [ ! -f "$NET11_DIR/libcoreclr.so" ]; then NET11_SKIP="CoreCLR 11: skipped, no $BUILD_DIR/runtime-net11/libcoreclr.so (a flat .NET 11 runtime directory)."
  elif ! clr_can --runtime; then NET11_SKIP="CoreCLR 11: skipped, $CLR_HOST has no \`--runtime DIR\` yet."
  else
    NET11_SKIP=""
    v11=$(readlink -f "$NET11_DIR/libcoreclr.so" | sed -n 's|.*/microsoft\.netcore\.app\.runtime\.[^/]*/\([0-9][^/]*\)/.*|\1|p')
    ttm_clr c11 "CoreCLR ${v11:-11} ($BUILD_DIR/runtime-net11)" "$NET11_DIR" "$NET11_DIR" "$CLR_APP/hello.dll" "$TT_CLR_ROWS $TT_FIRST_ROWS" -- \
      "$NET11_DIR"/*.dll "$CLR_APP/hello.dll" "$CLR_APP/Greeting.dll"
  fi
  if [ ! -f "$COMPOSITE_DIR/hello.r2r.dll" ]; then COMPOSITE_SKIP="CoreCLR $CLR_VERSION composite: skipped, no $BUILD_DIR/composite/hello.r2r.dll (make composite-net10)."
  else
    COMPOSITE_SKIP=""
    ttm_clr c10c "CoreCLR $CLR_VERSION, composite ($BUILD_DIR/composite: one R2R image + stubs)" "" "$COMPOSITE_DIR" "$COMPOSITE_DIR/hello.dll" \
      "files inplace warm cold off floor" -- "$COMPOSITE_DIR"/*.dll
  fi
fi
if [ ! -x "$MONO_HOST" ] || [ ! -f "$MONO_APP/hello.exe" ]; then MONO_SKIP="Skipped: $MONO_HOST or $MONO_APP/hello.exe not built (make mono-host)."
elif ! ttm_pack "$W/mono.z.so" z $PACK_AS -- $CORPUS_DIRS "$MONO_APP/hello.exe" "$MONO_APP/Greeting.dll" ||
     ! ttm_pack "$W/mono.u.so" u $PACK_AS -- $CORPUS_DIRS "$MONO_APP/hello.exe" "$MONO_APP/Greeting.dll" ||
     ! ttm_pack "$W/mono.1.so" 1 $PACK_AS -- $CORPUS_DIRS "$MONO_APP/hello.exe" "$MONO_APP/Greeting.dll" ||
     ! ttm_pack "$W/mono.l.so" z $MONO_LZ4_AS -- $CORPUS_DIRS "$MONO_APP/hello.exe" "$MONO_APP/Greeting.dll"; then MONO_SKIP="Skipped: \`asmstore pack\` failed."
else
  MONO_SKIP=""
  ttm_table_new mono "Mono $(mono --version 2>/dev/null | grep -o 'version [0-9.]*' | head -n 1 | cut -d' ' -f2)"
  if grep -q -- --files <<<"$MONO_USAGE"; then
    ttm_add mono files files - "$MONO_HOST" --files "$MONO_FILES" "$MONO_APP/hello.exe" --time-to-main
  else TT_NOTE[mono]="No files row: $MONO_HOST has no \`--files DIR\` yet, so the ÷ files columns and Mono's targets are n/a."; fi
  for r in inplace warm cold off mis cold_old off_old cold_lz4 off_lz4; do
    case $r in inplace) s=$W/mono.u.so m=store ;; mis) s=$W/mono.1.so m=store ;; warm) s=$W/mono.z.so m=store ;;
               cold_lz4) s=$W/mono.l.so m=cold ;; off_lz4) s=$W/mono.l.so m=nocache ;;
               cold*) s=$W/mono.z.so m=cold ;; off*) s=$W/mono.z.so m=nocache ;; esac
    # Mono's "before": the cache's buffers from malloc (ASMSTORE_HOST_ARENA=0), not one mapping of huge pages
    ttm_add mono "$r" "$m" "$s" ${TT_MONO_ENV[$r]:-} "$MONO_HOST" --cache "$W/ttm-cache/mono_$r" "$s" hello.exe --time-to-main
  done
fi

# ---------------------------------------------------------------- the runs
TTM_PACK_SECS=$(( $(date +%s) - TTM_T0 ))
for ((pass = 1; pass <= TTM_PASSES; pass++)); do
  echo "  startup matrix: pass $pass of $TTM_PASSES, $(grep -c . "$TTM_SPEC") starts × $TTM_SAMPLES rounds ..." >&2
  rm -rf "$W/ttm-cache"
  python3 "$(dirname "$0")/time_to_main.py" --samples "$TTM_SAMPLES" "$TTM_SPEC" >"$W/ttm.$pass" 2>&1
done
TTM_F=$W/ttm.1
TTM_SECS=$(( $(date +%s) - TTM_T0 ))

# ---------------------------------------------------------------- the tables
mib() { [ "$1" = nan ] && echo — || fmt 1 "$1 / 1024"; } # kB -> MiB
# ttm_val TABLE ROW FIGURE -> the median (nan: not measured)
ttm_val() { get1 "$TTM_F" "${1}_$2.$3"; }
ttm_doors() { awk -v k="${1}_$2.doors" '$1 == k { print $2 == "-" ? "—" : $2 "/" $3 }' "$TTM_F"; } # TABLE ROW
ttm_ok() { [ "$(get1 "$TTM_F" "${1}_$2.ttm")" != nan ]; }

# ms1 VALUE -> one decimal, or — when not measured
ms1() { [ "$1" = nan ] && echo — || fmt 1 "$1"; }
# ttm_phases TABLE ROW -> the phase columns: CPU at Main's return (÷ files'), CPU after Main, CPU decompressing
ttm_phases() {
  local m; m=$(ttm_val "$1" "$2" cpu_main)
  printf '%s | %s | %s | %s' "$(ms1 "$m")" "$(ratio "$m" "$(ttm_val "$1" files cpu_main)")" \
    "$(ms1 "$(ttm_val "$1" "$2" cpu_after)")" "$(ms1 "$(ttm_val "$1" "$2" cpu_img)")"
}
# ttm_floor TABLE -> the floor's row: files' figures + the cache-off start's decompression (no start of its own)
ttm_floor() {
  local t=$1 c m f img imf de=$2
  c=$(ttm_val "$t" files cpu); m=$(ttm_val "$t" files cpu_main); f=$(ttm_val "$t" files faults)
  img=$(ttm_val "$t" off cpu_img); imf=$(ttm_val "$t" off flt_img)
  if [ "$c" = nan ] || [ "$img" = nan ]; then say "| ${TT_LABEL[floor]} | not measured | | | | | | | | | | | | |$de"; return; fi
  say "| ${TT_LABEL[floor]} | — | — | $(fmt 0 "$c + $img") | $(ratio "$(calc "$c + $img")" "$c") | $(fmt 0 "$f + $imf") |" \
      "$(ratio "$(calc "$f + $imf")" "$f") | $(fmt 1 "$m + $img") | $(ratio "$(calc "$m + $img")" "$m") | — | $(fmt 1 "$img") |" \
      "— | — | — |$de"
}

# ttm_table TABLE: one row per start: time to Main, CPU, faults (each ÷ files), CPU at Main and after, decompressing,
# private dirty, clean, counts
ttm_table() {
  local t=$1 r k fk t0 tl th c cl ch f served doors fail label dh="" dl="" de=""
  fk=${t}_files
  [ "$t" != mono ] && { dh=" doors |"; dl="---|"; de=" |"; } # Mono: one door (the preload hook)
  say "| start | to Main, ms | ÷ files | CPU, ms | ÷ files | faults | ÷ files | CPU at Main, ms | ÷ files | after Main, ms |" \
      "decompressing, ms | dirty, MiB | clean, MiB | images |$dh"
  say "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|$dl"
  for r in ${TT_ROWS[$t]}; do
    k=${t}_$r; label=${TT_LABEL[$r]}
    if [ "$r" = floor ]; then ttm_floor "$t" "$de"; continue; fi
    if [ -n "${TT_SKIP[$k]:-}" ]; then say "| $label | ${TT_SKIP[$k]} | | | | | | | | | | | | |$de"; continue; fi
    fail=$(awk -v k="$k.failed" '$1 == k { $1 = ""; print substr($0, 2) }' "$TTM_F")
    if [ -n "$fail" ]; then say "| $label | failed: $(printf %s "$fail" | tr '|' '/' | cut -c1-100) | | | | | | | | | | | | |$de"; continue; fi
    read -r t0 tl th < <(get "$TTM_F" "$k.ttm"); read -r c cl ch < <(get "$TTM_F" "$k.cpu")
    [ "$r" = files ] && anchor "${TT_TITLE[$t]%% (*}, files: time to Main" "$t0" "$tl" "$th"
    f=$(get1 "$TTM_F" "$k.faults")
    served=$(awk -v k="$k.served" '$1 == k { print $2 == "files" ? "—" : $2 "/" $3 "/" $4 "/" $5 }' "$TTM_F")
    doors=$(ttm_doors "$t" "$r")
    [ "$r" = files ] && doors="—"
    say "| $label | $(cell "$t0" "$tl" "$th" 1) | $(ratio "$t0" "$(get1 "$TTM_F" "$fk.ttm")") | $(cell "$c" "$cl" "$ch" 0) |" \
        "$(ratio "$c" "$(get1 "$TTM_F" "$fk.cpu")") | $f | $(ratio "$f" "$(get1 "$TTM_F" "$fk.faults")") |" \
        "$(ttm_phases "$t" "$r") | $(mib "$(get1 "$TTM_F" "$k.dirty")") | $(mib "$(get1 "$TTM_F" "$k.clean")") | $served |${dh:+ $doors |}"
  done
  say ""
}

# ttm_phase_table TABLE ROWS...: where each start's CPU and faults went, from the host's "phases:" marks (medians of the
# marks, so a step is the difference of two medians): before the runtime (exec, locating the store, its lookup
# table, the cache's open), loading the runtime (dlopen; and the ahead thread's decompression), coreclr_initialize
# (CoreLib's probe), to Main (the rest of the probes), after Main (the cache's writing), and the decompression
# within those steps (RUSAGE_THREAD around each image: zstd, the first touches of the memory it writes, the copy
# into the images file)
ttm_phase_table() {
  local t=$1 r k a b prev pf v f init=coreclr_initialize; shift
  ttm_ok "$t" files || return 0
  [ "$(ttm_val "$t" files cpu_main)" != nan ] || return 0
  [ "$t" = mono ] && init=mono_jit_init_version
  say "Where the CPU (ms) and minor faults went, per step (the host's \`phases:\` marks):"
  say ""
  say "| start | before the runtime | runtime load | $init | to Main | after Main | of which decompressing |"
  say "|---|---|---|---|---|---|---|"
  for r in "$@"; do
    k=${t}_$r
    [[ " ${TT_ROWS[$t]} " == *" $r "* ]] && ttm_ok "$t" "$r" && [ "$(ttm_val "$t" "$r" cpu_main)" != nan ] || continue
    v="| ${TT_LABEL[$r]} |"; prev=0; pf=0
    for a in open loaded init main; do
      b=$(ttm_val "$t" "$r" "cpu_$a"); f=$(ttm_val "$t" "$r" "flt_$a")
      v="$v $(fmt 1 "$b - $prev") / $(fmt 0 "$f - $pf") |"; prev=$b; pf=$f
    done
    v="$v $(fmt 1 "$(ttm_val "$t" "$r" cpu_after)") / $(ttm_val "$t" "$r" flt_after) |"
    v="$v $(fmt 1 "$(ttm_val "$t" "$r" cpu_img)") / $(ttm_val "$t" "$r" flt_img) |"
    say "$v"
  done
  say ""
}

# ttm_passes TABLE: how the second pass's medians differed from the first's (per start, pass 2 ÷ pass 1)
ttm_passes() {
  local t=$1
  [ "$TTM_PASSES" -ge 2 ] || return 0
  say "Second pass ÷ first: $(awk -v t="${t}_" '
    FNR == 1 { p++ } index($1, t) == 1 && $1 ~ /\.(ttm|cpu|faults|dirty)$/ && NF == 4 { v[p, $1] = $2; keys[$1] = 1 }
    END { split("ttm cpu faults dirty", fs, " "); split("time to Main,CPU,faults,private dirty", ns, ",")
      for (i = 1; i <= 4; i++) { lo = 1e9; hi = -1e9; n = 0
        for (k in keys) if (k ~ ("\\." fs[i] "$") && v[1, k] > 0 && v[2, k] != "") {
          r = v[2, k] / v[1, k]; n++; if (r < lo) lo = r; if (r > hi) hi = r }
        printf "%s%s %s", (i > 1 ? "; " : ""), ns[i], n ? sprintf("%.2f–%.2f×", lo, hi) : "n/a" }
      print " (the range over this table'"'"'s starts)." }' "$W/ttm.1" "$W/ttm.2")"
  say ""
}

# the start targets, one table: a row per (runtime, start), a column per figure ÷ the same runtime's files
TTM_TGT=$W/ttm_targets; : >"$TTM_TGT"
TTM_TGT_ROWS=$W/ttm_target_rows; : >"$TTM_TGT_ROWS"
# tcell VALUE FILES_VALUE GOAL(factor) -> "1.01× met" ; dcell for private dirty (files + 1 MiB)
tcell() { [ "$1" = nan ] || [ "$2" = nan ] && { echo "n/a"; return; }
  echo "$(ratio "$1" "$2") $(status "$(calc "$1 <= $3 * $2")")"; }
dcell() { [ "$1" = nan ] || [ "$2" = nan ] && { echo "n/a"; return; }
  echo "$(fmt 1 "($1 - $2) / 1024" | sed 's/^\([0-9]\)/+\1/') MiB $(status "$(calc "$1 <= $2 + 1024")")"; }
# ttm_targets_first TABLE NAME: issue 43's first-start targets: cache off ≤ 1.5× files' CPU and ≤ 2.5× its faults,
# cold ≤ 1.6× files' CPU to Main (CPU at Main's return, the host's "phases:"); each with the floor's ratio beside it
ttm_targets_first() {
  local t=$1 n=$2 fc fm ff img floor v
  fc=$(ttm_val "$t" files cpu); fm=$(ttm_val "$t" files cpu_main); ff=$(ttm_val "$t" files faults)
  img=$(ttm_val "$t" off cpu_img)
  floor=$([ "$img" != nan ] && [ "$fc" != nan ] && echo " (floor $(ratio "$(calc "$fc + $img")" "$fc"))")
  v=$(ttm_val "$t" off cpu)
  if [ "$v" = nan ] || [ "$fc" = nan ]; then target "startup $n, cache off: CPU ÷ files" "≤ 1.50×" "not measured" "n/a"
  else target "startup $n, cache off: CPU ÷ files" "≤ 1.50×" "$(ratio "$v" "$fc")$floor" "$(status "$(calc "$v <= 1.5 * $fc")")"; fi
  v=$(ttm_val "$t" off faults)
  if [ "$v" = nan ] || [ "$ff" = nan ]; then target "startup $n, cache off: faults ÷ files" "≤ 2.50×" "not measured" "n/a"
  else target "startup $n, cache off: faults ÷ files" "≤ 2.50×" "$(ratio "$v" "$ff")" "$(status "$(calc "$v <= 2.5 * $ff")")"; fi
  v=$(ttm_val "$t" cold cpu_main)
  floor=$([ "$img" != nan ] && [ "$fm" != nan ] && echo " (floor $(ratio "$(calc "$fm + $img")" "$fm"))")
  if [ "$v" = nan ] || [ "$fm" = nan ]; then target "startup $n, cold: CPU to Main ÷ files" "≤ 1.60×" "not measured" "n/a"
  else target "startup $n, cold: CPU to Main ÷ files" "≤ 1.60×" "$(ratio "$v" "$fm")$floor" "$(status "$(calc "$v <= 1.6 * $fm")")"; fi
}
# ttm_targets_mono: Mono's cache-off start ≤ 1.5× its files start's CPU (the whole run) and its cold start's CPU to
# Main (mono_host's "phases:"; the cache is written after Main) ≤ 1.5× files', from the zstd store (.NET 11's) and
# the LZ4 one (.NET 10's)
ttm_targets_mono() {
  local r v f what col
  for r in off cold off_lz4 cold_lz4; do
    case $r in cold*) col=cpu_main what="CPU to Main" ;; *) col=cpu what=CPU ;; esac
    v=$(ttm_val mono "$r" $col); f=$(ttm_val mono files $col)
    if [ "$v" = nan ] || [ "$f" = nan ]; then target "startup Mono, ${TT_LABEL[$r]}: $what ÷ files" "≤ 1.50×" "not measured" "n/a"
    else target "startup Mono, ${TT_LABEL[$r]}: $what ÷ files" "≤ 1.50×" "$(ratio "$v" "$f")" "$(status "$(calc "$v <= 1.5 * $f")")"; fi
  done
}

# ttm_targets_start TABLE NAME ROW TIME_GOAL CPU_GOAL [FAULTS DIRTY]: one row of the start targets
ttm_targets_start() {
  local t=$1 n=$2 r=$3 tg=$4 cg=$5 fd=${6:-1} what=${TT_LABEL[$3]}
  if ! ttm_ok "$t" files || ! ttm_ok "$t" "$r"; then echo "| $n, $what | not measured | | | |" >>"$TTM_TGT_ROWS"; return; fi
  printf '| %s, %s | %s | %s | %s | %s |\n' "$n" "$what" "$(tcell "$(ttm_val "$t" "$r" ttm)" "$(ttm_val "$t" files ttm)" "$tg")" \
    "$(tcell "$(ttm_val "$t" "$r" cpu)" "$(ttm_val "$t" files cpu)" "$cg")" \
    "$([ "$fd" = 1 ] && tcell "$(ttm_val "$t" "$r" faults)" "$(ttm_val "$t" files faults)" 1.15 || echo —)" \
    "$([ "$fd" = 1 ] && dcell "$(ttm_val "$t" "$r" dirty)" "$(ttm_val "$t" files dirty)" || echo —)" >>"$TTM_TGT_ROWS"
}

say "## 7. Startup: time to Main, CPU, faults, memory (CoreCLR, Mono)"
say ""
say "$(echo "Each host runs its program with \`--time-to-main\` (Main prints \`Stopwatch.GetTimestamp()\` and returns)," \
  "a fresh process per sample, the $(grep -c . "$TTM_SPEC") starts below interleaved, rotated, $TTM_SAMPLES rounds × $TTM_PASSES." \
  "*To Main*: spawn to Main's timestamp; *CPU*: the child's user + sys, every thread; *faults*: minor; *dirty*:" \
  "private dirty, *clean*: clean file-backed at Main; *images*: hits/misses/in place/copied; *doors*: CoreCLR's" \
  "bundle/external probe. *files* = no store (\`--tpa DIR\`, Mono \`--files DIR\`); *in place* = uncompressed" \
  "(\`--align-images 16\`); *warm* = compressed, every image a cache hit (CoreCLR: from the cache's pack); *cold* =" \
  "cache removed before each run; *cache off* = no cache; *misaligned* = \`--align-images 1\` (copied); *ext.* =" \
  "\`--external-only\` (no bundle door). *CPU at Main*: the process's CPU when Main returned (the host's \`phases:\`" \
  "line, examples/host_phases.h), *after Main*: its CPU after that (the cache's writing), *decompressing*: the CPU of" \
  "the threads that decompressed the images while they did (with the first touches of the memory they wrote)." \
  "CoreCLR's first start: the rows named for one change of issue 43 take that change out of the plain *cold* /" \
  "*cache off* start (*before*: none of them); the *floor* is files' figures plus the cache-off start's decompressing." \
  "CoreCLR: \`pack $PACK_CORECLR_FLAGS\`, the framework + hello.dll +" \
  "Greeting.dll; Mono: \`pack $PACK_AS\` (the LZ4 rows: \`pack $MONO_LZ4_AS\`), the corpus + hello.exe + Greeting.dll, AOT code kept." | fold -s -w 116 | sed "s/ *$//")"
say ""

ttm_section_table() { # TABLE SUBTITLE
  local t=$1
  say "### $2"
  say ""
  [ -n "${TT_NOTE[$t]:-}" ] && { say "${TT_NOTE[$t]}"; say ""; }
  [ -n "${TT_ROWS[$t]// /}" ] || return 0
  ttm_table "$t"
  if [ "$t" = mono ]; then ttm_phase_table "$t" files warm off off_old cold cold_old off_lz4 cold_lz4
  else ttm_phase_table "$t" files warm off off_old cold cold_old cold_during; fi
  ttm_passes "$t"
}
ttm_sizes() { # TABLE -> "X / Y" (compressed / uncompressed MiB)
  printf '%s / %s' "$(fmt 1 "$(stat -L -c %s "$W/$1.z.so") / 1048576")" "$(fmt 1 "$(stat -L -c %s "$W/$1.u.so") / 1048576")"
}
TTM_SIZES=""

if [ -n "$CLR_SKIP" ]; then say "### 7a. CoreCLR"; say ""; say "$CLR_SKIP"; say ""
else
  for t in "${TT_ORDER[@]}"; do
    [ "$t" = mono ] && continue
    ttm_section_table "$t" "7a. ${TT_TITLE[$t]}"
    [ -n "${TT_NOTE[$t]:-}" ] || TTM_SIZES="${TTM_SIZES:+$TTM_SIZES; }${TT_TITLE[$t]%% (*} $(ttm_sizes "$t")"
  done
  [ -n "$NET11_SKIP" ] && { say "$NET11_SKIP"; say ""; }
  [ -n "$COMPOSITE_SKIP" ] && { say "$COMPOSITE_SKIP"; say ""; }
  for t in "${TT_ORDER[@]}"; do
    [ "$t" = mono ] && continue
    n=${TT_TITLE[$t]%% (*}; n=${n%%,*}$([ "$t" = c10c ] && echo " composite")
    ttm_targets_start "$t" "$n" inplace 1.05 1.05
    ttm_targets_start "$t" "$n" warm 1.05 1.05
    ttm_targets_first "$t" "$n"
    if [ "$t" != c10c ]; then
      if ttm_ok "$t" cold && ttm_ok "$t" cold_ext; then
        v=$(ttm_val "$t" cold ttm); fv=$(ttm_val "$t" cold_ext ttm)
        target "startup $n, cold: default door ÷ \`--external-only\` (time)" "≤ 1.00×" "$(ratio "$v" "$fv")" \
          "$(status "$(calc "$v <= 1.005 * $fv")")" # at the ratio's precision
      else target "startup, $n: cold, default door ÷ \`--external-only\`" "≤ 1.00×" "not measured" "n/a"; fi
    fi
  done
fi

if [ -n "$MONO_SKIP" ]; then say "### 7b. Mono"; say ""; say "$MONO_SKIP"; say ""
else
  ttm_section_table mono "7b. ${TT_TITLE[mono]}"
  TTM_SIZES="${TTM_SIZES:+$TTM_SIZES; }Mono $(ttm_sizes mono)"
  ttm_targets_start mono Mono inplace 0.90 1.00 0
  ttm_targets_start mono Mono warm 0.90 1.00 0
  ttm_targets_mono
fi
[ -n "$TTM_SIZES" ] && { say "$(echo "Stores, MiB compressed / uncompressed: $TTM_SIZES." | fold -s -w 116 | sed "s/ *$//")"; say ""; }
if [ -s "$TTM_TGT_ROWS" ]; then
  {
    echo "| start ÷ files (CoreCLR ≤ 1.05×, 1.05×, 1.15×, + 1 MiB; Mono ≤ 0.90×, 1.00×) | time to Main | CPU | faults | dirty |"
    echo "|---|---|---|---|---|"
    cat "$TTM_TGT_ROWS"
  } >"$TTM_TGT"
fi

# ---------------------------------------------------------------- the plot's data: ÷ files per start (rows) and table (columns)
: >"$W/ttm_cpu.dat"; : >"$W/ttm_faults.dat"; : >"$W/ttm_ttm.dat"
TT_PLOT_TABLES=()
for t in "${TT_ORDER[@]}"; do ttm_ok "$t" files && TT_PLOT_TABLES+=("$t"); done
if [ ${#TT_PLOT_TABLES[@]} -gt 0 ]; then
  for fig in cpu faults ttm; do
    {
      printf 'start'
      for t in "${TT_PLOT_TABLES[@]}"; do n=${TT_TITLE[$t]%% (*}; printf ' "%s"' "${n%%,*}$([ "$t" = c10c ] && echo ' composite')"; done
      echo
      for r in $TT_PLOT_ROWS; do
        line=${TT_SHORT[$r]}; any=0
        for t in "${TT_PLOT_TABLES[@]}"; do
          v=$(ttm_val "$t" "$r" "$fig")
          if [ "$v" = nan ]; then line="$line ?"; else line="$line $(calc "$v / $(ttm_val "$t" files "$fig")")"; any=1; fi
        done
        [ $any = 1 ] && echo "$line"
      done
    } >"$W/ttm_$fig.dat"
  done
fi
echo "  startup matrix: $TTM_SECS s ($TTM_PACK_SECS s packing)" >&2
