# tests/bench/bench_windows.sh - section 12 of tests/bench/bench.sh (sourced: say, tsec, stats, cell,
# ratio, calc, W, A, REPS and the bcl corpus are its): the Windows CLI (build/windows/asmstore.exe,
# make windows) under Wine beside the Linux CLI, info, verify and extract of the real sample stores
# and of the BCL store, the two in turn in each repetition. Informational: Wine is not Windows (it
# adds a process start of its own, measured alone in the first row), and no target rides on it.
WIN_EXE=$(dirname "$A")/windows/asmstore.exe
say "## 12. Windows under Wine"
say ""
if ! have wine || [ ! -x "$WIN_EXE" ]; then
  say "Not measured: $([ -x "$WIN_EXE" ] && echo "wine is not installed" || echo "no $WIN_EXE (make windows)")."
  say ""
  return 0 2>/dev/null || exit 0
fi
export WINEPREFIX=${WINEPREFIX:-$(cd "$(dirname "$A")" && pwd)/windows/wineprefix} WINEDEBUG=-all
# the prefix made and warm before anything is timed; a Wine that cannot run it is said, not timed
if ! wine "$WIN_EXE" --version >"$W/wver" 2>&1; then
  say "Not measured: Wine could not run $WIN_EXE ($(head -1 "$W/wver"))."
  say ""
  return 0 2>/dev/null || exit 0
fi
WIN_SAMPLES=${SAMPLES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/assembly-store-samples}
win_in=()
for f in v1-expandroid/assemblies.arm64_v8a.blob v1-razr-pointcrep/base_assemblies.blob \
         v3-watercountdown-widget/arm64-v8a/assembly-store.so v3-watercountdown-widget/x86_64/assembly-store.so; do
  [ -f "$WIN_SAMPLES/$f" ] && win_in+=("$WIN_SAMPLES/$f")
done
if [ ${#bcl[@]} -gt 0 ] && [ ! -f "$W/bcl.raw" ]; then
  "$A" pack --raw --abi x86_64 -o "$W/bcl.raw" --level 19 --jobs "$NCPU" "${bcl[@]}" >/dev/null 2>&1
fi
[ -f "$W/bcl.raw" ] && win_in+=("$W/bcl.raw")
say "\`asmstore.exe\` (mingw-w64, static, \`make windows\`) run by Wine $(wine --version 2>/dev/null | sed 's/^wine-//') vs \`build/asmstore\`"
say "(glibc) on the same file, in turn, $REPS repetitions each; wall time in ms, median (min–max); ratio Wine ÷ Linux."
say "Wine is not Windows: its own start is the first row, and it is in every other Wine figure."
say ""
say "| input | command | Linux, ms | Wine, ms | ratio |"
say "|---|---|---|---|---|"
# win_row LABEL CMD...: one row, CMD run as "$A" CMD and as wine asmstore.exe CMD in turn (once
# first, untimed: both must exit 0, or the row says so)
win_row() {
  local label=$1 i; shift
  : >"$W/wl"; : >"$W/ww"
  rm -rf "$W/wx"; "$A" "$@" >/dev/null 2>&1 && rm -rf "$W/wx" && wine "$WIN_EXE" "$@" >/dev/null 2>&1 ||
    { say "| $label | \`$1\` | failed | failed | n/a |"; return; }
  for ((i = 0; i < REPS; i++)); do
    rm -rf "$W/wx"; tsec "$A" "$@" | cut -d' ' -f1 >>"$W/wl"
    rm -rf "$W/wx"; tsec wine "$WIN_EXE" "$@" | cut -d' ' -f1 >>"$W/ww"
  done
  read -r l ll lh < <(stats <"$W/wl"); read -r w wl wh < <(stats <"$W/ww")
  say "| $label | \`${*:1:1}\` | $(cell "$(calc "$l * 1000")" "$(calc "$ll * 1000")" "$(calc "$lh * 1000")" 1) |" \
      "$(cell "$(calc "$w * 1000")" "$(calc "$wl * 1000")" "$(calc "$wh * 1000")" 1) | $(ratio "$w" "$l") |"
}
win_row "(process start)" --version
for f in "${win_in[@]}"; do
  case $f in
    "$W/bcl.raw") label="BCL store ($(fmt 1 "$(stat -c %s "$f") / 1e6") MB, level 19)" ;;
    *) label="sample ${f#"$WIN_SAMPLES"/}" ;;
  esac
  for c in info verify; do win_row "$label" $c "$f"; done
  win_row "$label" extract "$f" -C "$W/wx"
done
rm -rf "$W/wx"
say ""
