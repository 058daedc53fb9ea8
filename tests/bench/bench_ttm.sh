# tests/bench/bench_ttm.sh - section 7 of tests/bench/bench.sh (sourced: its helpers, $W, $A, $TTM_SAMPLES):
# time to Main and memory of a real runtime started from a store, per runtime (CoreCLR: build/coreclr_host
# + build/hello_clr on the installed shared framework; Mono: build/mono_host + build/hello on /usr/lib/mono/4.5),
# each store variant in fresh processes spawned by tests/bench/time_to_main.py:
#   compressed store, cache warm / cold / off;  uncompressed, images 16-byte aligned (used in place);
#   uncompressed, 16 KiB aligned (in place);  uncompressed back to back (--align-images 1: copied);
#   CoreCLR only: the TPA anchor (the same runtime from the files on disk).

# ttm_pack OUT FLAGS... -- FILES...: the four stores of one runtime, same files and format flags:
# OUT.z.so (compressed, default level), OUT.16.so, OUT.16384.so, OUT.1.so (uncompressed, --align-images N)
ttm_pack() {
  local out=$1 flags=() al; shift
  while [ "$1" != -- ]; do flags+=("$1"); shift; done; shift
  "$A" pack --abi x86_64 "${flags[@]}" -o "$out.z.so" "$@" >/dev/null 2>&1 || return 1
  for al in 16 16384 1; do
    "$A" pack --abi x86_64 "${flags[@]}" --no-compress --align-images $al -o "$out.$al.so" "$@" >/dev/null 2>&1 || return 1
  done
}

# ttm_table FILE ANCHOR(tpa|""): the table of one runtime's time_to_main.py output
ttm_table() {
  local f=$1 anchor=$2 tw ta="" v k t tl th w wl wh size
  tw=$(get1 "$f" ttm_warm_ms); [ -n "$anchor" ] && ta=$(get1 "$f" ttm_tpa_ms)
  say "| start | store, MiB | time to Main, ms | ÷ warm |$([ -n "$anchor" ] && echo ' ÷ files (TPA) |') wall, ms | minor faults | private dirty, MiB | clean file-backed, MiB | images: hits/misses/in place/copied |"
  say "|---|---|---|---|$([ -n "$anchor" ] && echo '---|')---|---|---|---|---|"
  for v in ${anchor:+"tpa:anchor: files on disk (TPA)"} \
           "warm:(a) compressed, cache warm (each image a validated cache file, mmap'd)" \
           "cold:(a) compressed, cache cold (each image decompressed, cache files written)" \
           "nocache:compressed, cache off (each image decompressed, nothing written)" \
           "16:(b) uncompressed, 16-byte aligned: used in place" \
           "16384:(c) uncompressed, 16 KiB aligned: used in place" \
           "1:uncompressed, back to back (\`--align-images 1\`, upstream's layout): misaligned images copied"; do
    k=${v%%:*}
    read -r t tl th < <(get "$f" "ttm_${k}_ms"); read -r w wl wh < <(get "$f" "wall_${k}_ms")
    size=$(get1 "$f" "size_$k")
    say "| ${v#*:} | $([ "$size" = nan ] && echo — || calc "$size / 1048576" | xargs printf %.1f) | $(cell "$t" "$tl" "$th" 1) | $(ratio "$t" "$tw") |$([ -n "$anchor" ] && echo " $(ratio "$t" "$ta") |") $(cell "$w" "$wl" "$wh" 1) | $(get1 "$f" "faults_$k") | $(calc "$(get1 "$f" "dirty_${k}_kb") / 1024" | xargs printf %.1f) | $(calc "$(get1 "$f" "clean_${k}_kb") / 1024" | xargs printf %.1f) | $(awk -v k="served_$k" '$1 == k { print $2 == "files" ? "— (files)" : $2 "/" $4 "/" $6 "/" $8 }' "$f") |"
  done
  say ""
}

# ttm_diff FILE FIELD A B: FIELD (dirty, clean) of variant A minus that of B, MiB, signed
ttm_diff() { calc "($(get1 "$1" "${2}_${3}_kb") - $(get1 "$1" "${2}_${4}_kb")) / 1024" | xargs printf %+.1f | sed 's/^[-+]0\.0$/±0.0/'; }

# ttm_meaning FILE: what the memory columns say, from FILE's medians
ttm_meaning() {
  local f=$1
  say "Memory, in place vs decompressed: the 16-byte-aligned store holds $(ttm_diff "$f" dirty 16 cold) MiB private dirty vs a cold"
  say "cache ($(ttm_diff "$f" dirty 16 nocache) MiB vs the cache off) and $(ttm_diff "$f" dirty 16 warm) MiB vs a warm cache, with $(ttm_diff "$f" clean 16 warm) MiB clean file-backed"
  say "vs the warm cache; 16 KiB alignment: $(ttm_diff "$f" clean 16384 16) MiB clean vs 16 bytes; back to back (misaligned images"
  say "copied): $(ttm_diff "$f" dirty 1 16) MiB private dirty and $(ttm_diff "$f" clean 1 16) MiB clean vs in place (the copies, plus the store"
  say "pages they were read from)."
  say ""
}

BUILD_DIR=$(dirname "$A")
CLR_HOST=$BUILD_DIR/coreclr_host; CLR_APP=$BUILD_DIR/hello_clr
MONO_HOST=$BUILD_DIR/mono_host; MONO_APP=$BUILD_DIR/hello
say "## 7. Time to Main and memory (CoreCLR, Mono)"
say ""
say "Each host starts its program with \`--time-to-main\` (Main's first statement prints \`Stopwatch.GetTimestamp()\`,"
say "CLOCK_MONOTONIC on both runtimes, and returns), each sample a fresh process spawned by tests/bench/time_to_main.py,"
say "the starts rotated every round; $TTM_SAMPLES samples each. Time to Main: from just before the spawn to Main's timestamp, ms."
say "Wall: spawn to exit (+ shutdown; the cold start also waits for its cache writer). Memory: the host's"
say "\`ASMSTORE_HOST_MEMORY=1\` line, /proc/self/smaps_rollup right after Main returns (examples/host_memory.h), medians:"
say "private dirty (what this process alone holds: heap, decompressed images, copies) and clean file-backed"
say "(Private_Clean + Shared_Clean: the store .so or cache files mapped and only read; reclaimable). Each runtime's four"
say "stores hold the same files in the same format; the uncompressed ones differ only in \`--align-images\`. Images"
say "column: the host's own count of the last sample (in place = pointer into the mapped store, no copy)."
say ""

say "### 7a. CoreCLR"
say ""
if [ ${#bcl[@]} -eq 0 ]; then say "Skipped: $CLR_WHY."
elif [ ! -x "$CLR_HOST" ] || [ ! -f "$CLR_APP/hello.dll" ]; then say "Skipped: $CLR_HOST or $CLR_APP/hello.dll not built (make coreclr-host)."
elif ! ttm_pack "$W/clr" $PACK_CORECLR_FLAGS -- "$CLR_DIR" "$CLR_APP/hello.dll" "$CLR_APP/Greeting.dll"; then say "Skipped: pack failed."
else
  echo "  time to Main (CoreCLR) ..." >&2
  python3 "$(dirname "$0")/time_to_main.py" --host "$CLR_HOST" --program "$CLR_APP/hello.dll" --cache "$W/clr-cache" \
    --samples "$TTM_SAMPLES" --tpa "$CLR_DIR" --nocache --compressed "$W/clr.z.so" \
    16="$W/clr.16.so" 16384="$W/clr.16384.so" 1="$W/clr.1.so" >"$W/ttm" 2>&1
  say "\`build/coreclr_host\` running examples/hello_clr on the installed .NET $CLR_VERSION runtime. The anchor: the same host and"
  say "runtime started the usual way (corerun's), TRUSTED_PLATFORM_ASSEMBLIES of the shared framework's ${#bcl[@]} files + the"
  say "program's, no store. The stores: those files + hello.dll + Greeting.dll (\`pack $PACK_CORECLR_FLAGS\`); every assembly the"
  say "runtime loads, System.Private.CoreLib included, comes through host_runtime_contract.external_assembly_probe."
  say ""
  if grep -q FAILED "$W/ttm"; then sed 's/^/    /' "$W/ttm" | tee -a "$MD"
  else
    ttm_table "$W/ttm" tpa
    tw=$(get1 "$W/ttm" ttm_warm_ms); tc=$(get1 "$W/ttm" ttm_cold_ms); td=$(get1 "$W/ttm" ttm_16_ms); ta=$(get1 "$W/ttm" ttm_tpa_ms)
    fdiff=$(calc "$(get1 "$W/ttm" faults_16) - $(get1 "$W/ttm" faults_tpa)")
    ttm_meaning "$W/ttm"
    say "CoreCLR copies every image it is handed as bytes into a loaded layout of its own (where from a file it maps the"
    say "sections), so in place saves the decompression, not that copy: private dirty stays"
    say "$(ttm_diff "$W/ttm" dirty 16 tpa) MiB above the start from files, and the in-place start is $(ratio "$td" "$ta") the start from"
    say "files with $fdiff more page faults. What a warm cache adds to in place: $(calc "$tw - $td" | xargs printf %.1f) ms; what a cold"
    say "cache adds to a warm one (decompressing all the program loads + queueing the cache files): $(calc "$tc - $tw" | xargs printf %.1f) ms."
    say ""
    target "time to Main, store with a warm cache, within 10% of the uncompressed store used in place (CoreCLR)" "≤ 1.10×" "$(ratio "$tw" "$td")" "$(status "$(calc "$tw <= 1.1 * $td")")"
    target "time to Main: a warm cache at least 1.5× faster than a cold one (CoreCLR)" "≥ 1.50×" "$(ratio "$tc" "$tw")" "$(status "$(calc "$tc >= 1.5 * $tw")")"
  fi
fi
say ""

say "### 7b. Mono"
say ""
if [ ! -x "$MONO_HOST" ] || [ ! -f "$MONO_APP/hello.exe" ]; then say "Skipped: $MONO_HOST or $MONO_APP/hello.exe not built (make mono-host)."
elif ! ttm_pack "$W/mono" $PACK_AS -- $CORPUS_DIRS "$MONO_APP/hello.exe" "$MONO_APP/Greeting.dll"; then say "Skipped: pack failed."
else
  echo "  time to Main (Mono) ..." >&2
  python3 "$(dirname "$0")/time_to_main.py" --host "$MONO_HOST" --program "$MONO_APP/hello.exe" --cache "$W/mono-cache" \
    --samples "$TTM_SAMPLES" --nocache --compressed "$W/mono.z.so" \
    16="$W/mono.16.so" 16384="$W/mono.16384.so" 1="$W/mono.1.so" >"$W/ttm-mono" 2>&1
  say "\`build/mono_host\` running examples/hello on the system's Mono ($(mono --version 2>/dev/null | grep -o 'version [0-9.]*' | head -n 1 || echo '?'))."
  say "The stores: the corpus ($CORPUS_DIRS) + hello.exe + Greeting.dll (\`pack $PACK_AS\`); every assembly, mscorlib"
  say "included, comes through the preload hook. No file anchor here: Mono's own launcher is a different program."
  say ""
  if grep -q FAILED "$W/ttm-mono"; then sed 's/^/    /' "$W/ttm-mono" | tee -a "$MD"
  else
    ttm_table "$W/ttm-mono" ""
    ttm_meaning "$W/ttm-mono"
    say "Mono reads the image where it is handed (need_copy 0): used in place, an image costs no private memory at all,"
    say "like a warm cache's mmap'd file, only clean pages of the store; decompressed or copied, it is private dirty."
    say ""
  fi
fi
say ""
