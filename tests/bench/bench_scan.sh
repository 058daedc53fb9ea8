# tests/bench/bench_scan.sh - section 10 of `make bench` (sourced by tests/bench/bench.sh; alone: make bench-scan):
# `asmstore scan` over a generated corpus of APKs (tests/bench/scan_corpus.py, cached in OUT/scan-corpus: every
# release from real assemblies, plus hostile ones) against the floor measured in the same run, interleaved: the
# APKs through sha256sum and every image's compressed bytes as stored through `zstd -d` / `lz4 -d` into sha256sum,
# in 2 processes as scan has 2 workers (and the same with `openssl dgst -sha256`, the libcrypto scan hashes with:
# coreutils' sha256sum has no SHA extensions, so that floor is the stricter one, the target's); with --yara against YARA's own CLI over the same images extracted to disk
# (yara -p 2 -r); max RSS (/usr/bin/time: the largest of the parent and its workers).
# Environment: BENCH_SCAN_APKS=N (the corpus's APKs; default 510), BENCH_SCAN_REPS=N (default $REPS).
SCAN_N=${BENCH_SCAN_APKS:-510}
SCAN_REPS=${BENCH_SCAN_REPS:-$REPS}
SC=$OUT/scan-corpus
BDIR=$(dirname "$0")
if ! have yara || ! have lz4 || ! have sha256sum || [ ! -x /usr/bin/time ]; then
  say "## 10. Scan"; say ""; say "Not measured: yara, lz4, sha256sum or /usr/bin/time missing."; say ""
else
# the corpus: rebuilt when its generator, its size or the assemblies it draws from change
SCAN_KEY=$( { cat "$BDIR/scan_corpus.py" "$BDIR/../lib/scan_mutants.py" "$BDIR/../lib/zip_cases.py"
  echo "$SCAN_N ${CLR_DIR:-} ${CLR_VERSION:-}"; ls -l $CORPUS_DIRS; } | sha256sum | cut -c1-16)
if [ "$(cat "$SC/key" 2>/dev/null)" != "$SCAN_KEY" ]; then
  echo "  scan: building the corpus ($SCAN_N APKs, once: $SC) ..." >&2
  python3 "$BDIR/scan_corpus.py" "$SC" "$A" "$T" "$SCAN_N" "$(echo $CORPUS_DIRS | tr ' ' :)" "${CLR_DIR:-/nonexistent}" &&
    echo "$SCAN_KEY" >"$SC/key"
fi
read -r _ s_apks _ s_hostile _ s_apk_bytes _ s_img _ s_largest <"$SC/corpus.txt"
awk 'NR % 2 == 1' "$SC/good" >"$W/good-0"; awk 'NR % 2 == 0' "$SC/good" >"$W/good-1"
cat >"$W/rules.yar" <<'EOF'
rule corelib_ref : dotnet { strings: $a = "System.Private.CoreLib" condition: $a }
rule http_client { strings: $a = "HttpClient" ascii wide condition: $a }
rule aes_types : crypto { strings: $a = "AesManaged" $b = "RijndaelManaged" $c = "AesCryptoServiceProvider" condition: any of them }
rule sms_send { strings: $a = "SendTextMessage" nocase condition: $a }
rule pe_metadata { strings: $bsjb = { 42 53 4A 42 01 00 01 00 } condition: uint16(0) == 0x5A4D and $bsjb }
rule never_there { strings: $a = "asmstore bench: no assembly holds this" condition: $a }
EOF
# floor_half HASH H: half H's APKs through HASH (sha256sum, or openssl dgst -sha256), its images' compressed bytes
# through the CLIs into HASH
floor_half() {
  local hash=$1
  xargs -d '\n' -a "$W/good-$2" $hash >/dev/null
  zstd -q -d -c "$SC/floor-$2.zst" | $hash >/dev/null
  lz4 -q -d -c "$SC/floor-$2.lz4" | $hash >/dev/null
  $hash "$SC/floor-$2.plain" >/dev/null
}
floor() { floor_half sha256sum 0 & floor_half sha256sum 1 & wait; }
floor_ssl() { floor_half "openssl dgst -sha256" 0 & floor_half "openssl dgst -sha256" 1 & wait; }
: >"$W/sc_scan"; : >"$W/sc_floor"; : >"$W/sc_fssl"; : >"$W/sc_yara"; : >"$W/sc_ycli"
echo "  scan: $SCAN_REPS reps over $s_apks APKs ..." >&2
"$A" scan --jobs 2 "@$SC/good" >"$W/scan.ndjson" 2>/dev/null # warm the page cache; its lines checked below
for ((i = 0; i < SCAN_REPS; i++)); do
  tsec "$A" scan --jobs 2 "@$SC/good" >>"$W/sc_scan"
  tsec floor >>"$W/sc_floor"
  have openssl && tsec floor_ssl >>"$W/sc_fssl"
  tsec "$A" scan --jobs 2 --yara "$W/rules.yar" "@$SC/good" >>"$W/sc_yara"
  tsec yara -p 2 -r "$W/rules.yar" "$SC/x" >>"$W/sc_ycli"
done
for f in sc_scan sc_floor sc_fssl sc_yara sc_ycli; do
  cut -d' ' -f1 "$W/$f" | stats >"$W/$f.t"; cut -d' ' -f2 "$W/$f" | stats | cut -d' ' -f1 >"$W/$f.c"
done
read -r ss ssl ssh <"$W/sc_scan.t"; read -r sf sfl sfh <"$W/sc_floor.t"; read -r so sol soh <"$W/sc_fssl.t"
read -r sy syl syh <"$W/sc_yara.t"; read -r sc scl sch <"$W/sc_ycli.t"
anchor "scan floor (sha256sum, zstd -d, lz4 -d)" "$sf" "$sfl" "$sfh"
anchor "scan floor (openssl dgst, zstd -d, lz4 -d)" "$so" "$sol" "$soh"
# the target's floor: the stricter (faster) of the two
if [ "$so" != nan ] && [ "$(calc "$so < $sf")" = 1 ]; then fl=$so; flc=$(cat "$W/sc_fssl.c"); fl_name="openssl dgst"
else fl=$sf; flc=$(cat "$W/sc_floor.c"); fl_name="sha256sum"; fi
anchor "yara -p 2 -r over the extracted images" "$sc" "$scl" "$sch"
# max RSS: the largest of scan's parent and workers (/usr/bin/time reports the reaped children's maximum)
rss_of() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
rss=$(rss_of "$A" scan --jobs 2 "@$SC/good"); rssy=$(rss_of "$A" scan --jobs 2 --yara "$W/rules.yar" "@$SC/good")
rss_goal=$(calc "(2 * $s_largest + 64 * 1048576) / 1024")
# the hostile inputs: each one line, none a signal or a timeout
t0=$(date +%s.%N); "$A" scan --jobs 2 --timeout 20 "@$SC/list" >"$W/all.ndjson" 2>/dev/null; hs=$(calc "$(date +%s.%N) - $t0")
h_lines=$(wc -l <"$W/all.ndjson"); h_want=$(wc -l <"$SC/list")
h_bad=$(grep -c 'worker reading it stopped\|timed out after' "$W/all.ndjson")
g_err=$(grep -vc '"error": null' "$W/scan.ndjson")
mb() { fmt 1 "$1 / 1e6"; }
rate() { fmt "${3:-1}" "$1 / $2"; } # rate COUNT SECONDS [DIGITS]
say "## 10. Scan"
say ""
say "\`asmstore scan --jobs 2\` over $s_apks APKs generated from real assemblies (tests/bench/scan_corpus.py: .NET 6-8 sets"
say "DEFLATEd, .NET 9, .NET 10 MonoVM and CoreCLR with LZ4, .NET 11 CoreCLR and MonoVM with zstd; $(mb "$s_apk_bytes") MB of APKs,"
say "$(mb "$s_img") MB of images, the largest $(mb "$s_largest") MB) beside the floor: the same APKs through \`sha256sum\` and every"
say "image's compressed bytes as stored through \`zstd -d\` / \`lz4 -d\` into \`sha256sum\`, in 2 processes; and with \`--yara\`"
say "(6 rules) beside \`yara -p 2 -r\` over the same images extracted to disk. $SCAN_REPS repetitions, interleaved; seconds,"
say "CPU = user + sys of every process. Ratios: the anchor's time ÷ ours (above 1: faster). On a loaded machine the floor's"
say "pipelines (4 processes) get a larger share of the CPUs than scan's 2 workers: the CPU ratio is then the steadier one."
say ""
say "| run | s | CPU, s | APKs/s | MB of images/s | anchor ÷ ours |"
say "|---|---|---|---|---|---|"
say "| floor (anchor): sha256sum + zstd -d / lz4 -d + sha256sum | $(cell "$sf" "$sfl" "$sfh") | $(cat "$W/sc_floor.c") |" \
    "$(rate "$s_apks" "$sf" 0) | $(rate "$s_img / 1e6" "$sf" 0) | 1 |"
[ "$so" != nan ] &&
  say "| floor (anchor): the same with \`openssl dgst -sha256\` | $(cell "$so" "$sol" "$soh") | $(cat "$W/sc_fssl.c") |" \
      "$(rate "$s_apks" "$so" 0) | $(rate "$s_img / 1e6" "$so" 0) | 1 |"
say "| \`scan --jobs 2\` | $(cell "$ss" "$ssl" "$ssh") | $(cat "$W/sc_scan.c") | $(rate "$s_apks" "$ss" 0) |" \
    "$(rate "$s_img / 1e6" "$ss" 0) | $(ratio "$sf" "$ss"); $(ratio "$so" "$ss") of the openssl floor |"
say "| \`yara -p 2 -r\` over the extracted images (anchor) | $(cell "$sc" "$scl" "$sch") | $(cat "$W/sc_ycli.c") |" \
    "$(rate "$s_apks" "$sc" 0) | $(rate "$s_img / 1e6" "$sc" 0) | 1 |"
say "| \`scan --jobs 2 --yara\` | $(cell "$sy" "$syl" "$syh") | $(cat "$W/sc_yara.c") | $(rate "$s_apks" "$sy" 0) |" \
    "$(rate "$s_img / 1e6" "$sy" 0) | $(ratio "$sc" "$sy") |"
say ""
ycpu=$(calc "$(cat "$W/sc_yara.c") - $(cat "$W/sc_scan.c")")
say "The YARA share of \`scan --yara\` (its CPU minus plain scan's): $(fmt 2 "$ycpu") s, $(ratio "$ycpu" "$(cat "$W/sc_ycli.c")") of \`yara\`'s"
say "CPU over the extracted files; the rest is what scan does anyway (SHA-256 of every APK and image, decompression,"
say "the ZIP CRC-32s, inflating the DEFLATEd .NET 6-8 sets) and the CLI, handed the images already on disk, does not."
say ""
say "Max RSS (the largest of the parent and its workers): $(fmt 1 "$rss / 1024") MiB, with \`--yara\` $(fmt 1 "$rssy / 1024") MiB"
say "(the goal: twice the largest image + 64 MiB = $(fmt 1 "$rss_goal / 1024") MiB). Lines: $s_apks APKs, $g_err with an \"error\"."
say "Hostile: $s_hostile more inputs (tests/lib/scan_mutants.py over three of the APKs, tests/lib/zip_cases.py's archives"
say "and 1.5 GiB bomb) scanned with the rest (\`--timeout 20\`): $h_lines lines for $h_want inputs, $h_bad stopped by a signal"
say "or the timeout, $(fmt 1 "$hs") s for all $h_want."
say ""
target "scan --jobs 2: throughput ÷ the floor's ($fl_name)" "≥ 0.80×" \
  "$(ratio "$fl" "$ss") (CPU: $(ratio "$flc" "$(cat "$W/sc_scan.c")"))" "$(status "$(calc "$fl / $ss >= 0.8")")"
target "scan: max RSS ÷ (2 × largest image + 64 MiB)" "≤ 1.00×" "$(ratio "$rss" "$rss_goal"); --yara $(ratio "$rssy" "$rss_goal")" \
  "$(status "$(calc "$rss <= $rss_goal && $rssy <= $rss_goal")")"
target "scan --yara ÷ yara -p 2 -r over the extracted images" "≤ 1.20×" \
  "$(ratio "$sy" "$sc") (CPU: $(ratio "$(cat "$W/sc_yara.c")" "$(cat "$W/sc_ycli.c")"))" "$(status "$(calc "$sy <= 1.2 * $sc")")"
target "scan: one line per input, hostile ones included, no signal or timeout" "all" "$h_lines of $h_want, $h_bad stopped" \
  "$(status "$(calc "$h_lines == $h_want && $h_bad == 0")")"
fi
