#!/usr/bin/env bash
# Pack throughput and size next to the zstd CLI compressing the same files at the same level, in
# the same run: `asmstore pack --jobs 1` vs `zstd -T1 --no-check` (one process over all files; our
# frames carry no checksum either, the store has its own), and
# `asmstore pack --jobs N`. Runs are interleaved; each time is the median of REPS (min-max shown).
# usage: bench_pack.sh ASMSTORE "LEVELS" REPS DIR...
set -euo pipefail
A=$1; LEVELS=$2; REPS=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
files=()
for d in "$@"; do for f in "$d"/*.dll; do [ -f "$f" ] && files+=("$f"); done; done
raw=$(cat "${files[@]}" | wc -c)
ncpu=$(nproc)
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }'; }
stats() { sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f %.3f\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
echo "corpus: ${#files[@]} files, $((raw / 1048576)) MiB; $ncpu CPUs; zstd $(zstd -V | grep -o 'v[0-9.]*')"
printf '| %-7s | %-22s | %-22s | %-22s | %-9s | %-9s |\n' level "asmstore -j1 s (MB/s)" "zstd -T1 s (MB/s)" "asmstore -j$ncpu s (MB/s)" "j1/zstd" "j1/j$ncpu"
printf '|---------|------------------------|------------------------|------------------------|-----------|-----------|\n'
for L in $LEVELS; do
  : >"$tmp/a"; : >"$tmp/z"; : >"$tmp/n"
  for ((i = 0; i < REPS; i++)); do
    t "$A" pack --raw -o "$tmp/s1" --level "$L" --jobs 1 "$@" >>"$tmp/a"
    rm -rf "$tmp/zo"; mkdir "$tmp/zo"
    t zstd -q -f -T1 --no-check "-$L" $([ "$L" -gt 19 ] && echo --ultra) --output-dir-flat "$tmp/zo" "${files[@]}" >>"$tmp/z"
    t "$A" pack --raw -o "$tmp/sN" --level "$L" --jobs "$ncpu" "$@" >>"$tmp/n"
  done
  read -r am al ah < <(stats <"$tmp/a"); read -r zm zl zh < <(stats <"$tmp/z"); read -r nm nl nh < <(stats <"$tmp/n")
  mb() { awk -v r="$raw" -v s="$1" 'BEGIN { printf "%.1f", r / 1e6 / s }'; }
  printf '| %-7s | %6.2f (%s) %-7s | %6.2f (%s) %-7s | %6.2f (%s) %-7s | %8.2fx | %8.2fx |\n' "$L" \
    "$am" "$(mb "$am")" "" "$zm" "$(mb "$zm")" "" "$nm" "$(mb "$nm")" "" \
    "$(awk -v a="$am" -v z="$zm" 'BEGIN { print z / a }')" "$(awk -v a="$am" -v n="$nm" 'BEGIN { print a / n }')"
  cmp -s "$tmp/s1" "$tmp/sN" || echo "   WARNING: -j1 and -j$ncpu stores differ"
  zs=$(cat "$tmp"/zo/*.zst | wc -c)
  stored=$("$A" info --json "$tmp/s1" | sed 's/.*"stored_bytes": \([0-9]*\).*/\1/')
  n=${#files[@]}
  awk -v s="$stored" -v z="$zs" -v n="$n" 'BEGIN { printf "   size: asmstore frames %d B (+%d B of 12-byte headers) vs zstd CLI %d B: %+.3f%%\n", s - 12 * n, 12 * n, z, 100 * (s - 12 * n - z) / z }'
done
echo "ratios: j1/zstd > 1 means asmstore single-threaded is faster than the zstd CLI; j1/jN is the thread speed-up"
