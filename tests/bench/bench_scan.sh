# tests/bench/bench_scan.sh - section 10 of `make bench` (sourced by tests/bench/bench.sh; alone: make bench-scan):
# `asmstore scan` over a generated corpus of APKs (tests/bench/scan_corpus.py, cached in OUT/scan-corpus: every
# release from real assemblies, plus hostile ones) against the floor measured in the same run, interleaved: the
# APKs through sha256sum and every image's compressed bytes as stored through `zstd -d` / `lz4 -d` into sha256sum,
# in 2 halves at once as scan has 2 workers (and the same with `openssl dgst -sha256`, the libcrypto scan hashes with:
# coreutils' sha256sum has no SHA extensions, so that floor is the stricter one, the target's); jsxamstore (npm
# @warren-bank/jsxamstore, installed into OUT/jsxamstore when absent and npm can) on the .NET 6-8 APKs; with --yara
# against YARA's own CLI over the same images extracted to disk (yara -p 2 -r: 2 threads, as scan's 2 workers); max
# RSS (/usr/bin/time: the largest of the parent and its workers).
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
# jsxamstore, the anchor on the .NET 6-8 APKs: npm's @warren-bank/jsxamstore in OUT/jsxamstore (installed once when
# absent); it reads a set from a directory, so each APK's assemblies/ is unzipped into $W first (not timed). JSX is
# its path, or empty with jsx_why saying why not. Measured in the first 2 repetitions only (a minute each: node and
# its LZ4 WebAssembly start for every set).
JSX_PKG=@warren-bank/jsxamstore@2.3.0
JSX=$OUT/jsxamstore/node_modules/.bin/jsxamstore; jsx_why=""
if [ ! -x "$JSX" ] && have npm; then
  echo "  scan: npm install $JSX_PKG into $OUT/jsxamstore ..." >&2
  timeout 300 npm install --prefix "$OUT/jsxamstore" --no-audit --no-fund --loglevel=error "$JSX_PKG" >"$W/npm.log" 2>&1
fi
if ! have npm && [ ! -x "$JSX" ]; then jsx_why="npm is not installed"
elif [ ! -x "$JSX" ]; then
  jsx_why="\`npm install $JSX_PKG\` failed: $(grep -o -m 1 "'[^']*' could not be found" "$W/npm.log" ||
    grep -o -m 1 'npm error code [A-Z0-9]*' "$W/npm.log" || echo "npm said nothing")"
fi
grep -e '-net8\.apk$' "$SC/good" >"$W/net8"
if [ -z "$jsx_why" ]; then
  while read -r apk; do
    d=$W/jsx/$(basename "$apk" .apk); mkdir -p "$d"; unzip -q -o "$apk" 'assemblies/*' -d "$d"; echo "$d"
  done <"$W/net8" >"$W/jsx.dirs"
fi
jsx_all() { xargs -d '\n' -P 2 -I{} "$JSX" unpack -d {}/assemblies -o {}/out -f <"$W/jsx.dirs"; }
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
# the same work with the libraries those CLIs run, one process a half as scan has one a worker (bench_tool floor): no
# pipe between decompressor and hash, and as many processes as scan on a shared machine
floor_lib() { for h in 0 1; do "$T" floor "$W/good-$h" "$SC/floor-$h.zst" "$SC/floor-$h.lz4" "$SC/floor-$h.plain" & done; wait; }
have_floor_lib=0; "$T" floor /dev/null /dev/null /dev/null /dev/null 2>/dev/null && have_floor_lib=1
: >"$W/sc_ycache"; : >"$W/sc_scan"; : >"$W/sc_floor"; : >"$W/sc_fssl"; : >"$W/sc_yara"; : >"$W/sc_ycli"; : >"$W/sc_net8"; : >"$W/sc_jsx"; : >"$W/sc_flib"
echo "  scan: $SCAN_REPS reps over $s_apks APKs ..." >&2
"$A" scan --jobs 2 "@$SC/good" >"$W/scan.ndjson" 2>/dev/null # warm the page cache; its lines checked below
# --cache: filled once (timed), then every repetition re-scans from it with the rules, as an analyst running new
# rules over a corpus scanned before; the lines it gives must be the plain scan's
read -r cfill cfill_cpu < <(tsec "$A" scan --jobs 2 --cache "$W/scan-cache" "@$SC/good")
"$A" scan --jobs 2 --cache "$W/scan-cache" "@$SC/good" >"$W/cached.ndjson" 2>/dev/null
cache_same=$(cmp -s "$W/scan.ndjson" "$W/cached.ndjson" && echo "the same bytes as" || echo "LINES THAT DIFFER FROM")
cache_mb=$(du -sk "$W/scan-cache" | cut -f1)
for ((i = 0; i < SCAN_REPS; i++)); do
  tsec "$A" scan --jobs 2 "@$SC/good" >>"$W/sc_scan"
  tsec floor >>"$W/sc_floor"
  have openssl && tsec floor_ssl >>"$W/sc_fssl"
  [ $have_floor_lib = 1 ] && tsec floor_lib >>"$W/sc_flib"
  tsec "$A" scan --jobs 2 --yara "$W/rules.yar" "@$SC/good" >>"$W/sc_yara"
  tsec yara -p 2 -r "$W/rules.yar" "$SC/x" >>"$W/sc_ycli"
  tsec "$A" scan --jobs 2 --yara "$W/rules.yar" --cache "$W/scan-cache" "@$SC/good" >>"$W/sc_ycache"
  if [ -z "$jsx_why" ] && [ "$i" -lt 2 ]; then # jsxamstore takes a minute: 2 repetitions
    tsec "$A" scan --jobs 2 "@$W/net8" >>"$W/sc_net8"; tsec jsx_all >>"$W/sc_jsx"
  fi
done
for f in sc_scan sc_floor sc_fssl sc_yara sc_ycli sc_net8 sc_jsx sc_flib sc_ycache; do
  cut -d' ' -f1 "$W/$f" | stats >"$W/$f.t"; cut -d' ' -f2 "$W/$f" | stats | cut -d' ' -f1 >"$W/$f.c"
done
read -r ss ssl ssh <"$W/sc_scan.t"; read -r sf sfl sfh <"$W/sc_floor.t"; read -r so sol soh <"$W/sc_fssl.t"
read -r sy syl syh <"$W/sc_yara.t"; read -r sc scl sch <"$W/sc_ycli.t"; read -r sr srl srh <"$W/sc_ycache.t"
read -r s8 s8l s8h <"$W/sc_net8.t"; read -r sj sjl sjh <"$W/sc_jsx.t"; read -r sb sbl sbh <"$W/sc_flib.t"
c_scan=$(cat "$W/sc_scan.c"); c_yara=$(cat "$W/sc_yara.c"); c_ycli=$(cat "$W/sc_ycli.c"); c_ycache=$(cat "$W/sc_ycache.c")
anchor "scan floor (sha256sum, zstd -d, lz4 -d)" "$sf" "$sfl" "$sfh"
anchor "scan floor (openssl dgst, zstd -d, lz4 -d)" "$so" "$sol" "$soh"
# the target's floor: the stricter (faster) of the two
if [ "$so" != nan ] && [ "$(calc "$so < $sf")" = 1 ]; then fl=$so; flc=$(cat "$W/sc_fssl.c"); fl_name="openssl dgst"
else fl=$sf; flc=$(cat "$W/sc_floor.c"); fl_name="sha256sum"; fi
anchor "yara -p 2 -r over the extracted images" "$sc" "$scl" "$sch"
[ -z "$jsx_why" ] && anchor "jsxamstore unpack of the .NET 6-8 sets" "$sj" "$sjl" "$sjh"
# max RSS: the largest of scan's parent and workers (/usr/bin/time reports the reaped children's maximum)
rss_of() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
rss=$(rss_of "$A" scan --jobs 2 "@$SC/good"); rssy=$(rss_of "$A" scan --jobs 2 --yara "$W/rules.yar" "@$SC/good")
rss_goal=$(calc "(2 * $s_largest + 64 * 1048576) / 1024")
# the hostile inputs: each one line, none a signal or a timeout; their max RSS
read -r hs rssh < <(/usr/bin/time -f "%e %M" -o "$W/h.time" "$A" scan --jobs 2 --timeout 20 "@$SC/list" >"$W/all.ndjson" 2>/dev/null
  tail -n 1 "$W/h.time")
h_lines=$(wc -l <"$W/all.ndjson"); h_want=$(wc -l <"$SC/list")
h_bad=$(grep -c 'worker reading it stopped\|timed out after' "$W/all.ndjson")
g_err=$(grep -vc '"error": null' "$W/scan.ndjson")
# jsxamstore's images of the first .NET 6-8 APK against scan's SHA-256s of them: the same bytes
jsx_same=""
if [ -z "$jsx_why" ]; then
  jsx_same=$(python3 - "$W/scan.ndjson" "$(head -n 1 "$W/net8")" "$(head -n 1 "$W/jsx.dirs")/out" <<'PYEOF'
import hashlib, json, os, sys
line = next(json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["input"] == sys.argv[2])
ours = sorted(e["sha256"] for st in line["stores"] for e in st.get("entries", []))
theirs = sorted(hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
                for d, _, fs in os.walk(sys.argv[3]) for f in fs if f.endswith(".dll"))
print("the same %d images as scan's" % len(ours) if ours == theirs else "images that differ from scan's (%d vs %d)"
      % (len(theirs), len(ours)))
PYEOF
  )
fi
mb() { fmt 1 "$1 / 1e6"; }
rate() { fmt "${3:-1}" "$1 / $2"; } # rate COUNT SECONDS [DIGITS]
say "## 10. Scan"
say ""
say "\`asmstore scan --jobs 2\` over $s_apks APKs generated from real assemblies (tests/bench/scan_corpus.py: .NET 6-8 sets"
say "DEFLATEd, .NET 9, .NET 10 MonoVM and CoreCLR with LZ4, .NET 11 CoreCLR and MonoVM with zstd; $(mb "$s_apk_bytes") MB of APKs,"
say "$(mb "$s_img") MB of images, the largest $(mb "$s_largest") MB) beside the floor: the same APKs through \`sha256sum\` and every"
say "image's compressed bytes as stored through \`zstd -d\` / \`lz4 -d\` into \`sha256sum\`, in 2 halves at once (as scan's 2"
say "workers). The floor leaves out work scan cannot: inflating the DEFLATEd .NET 6-8 sets (it reads their LZ4 images"
say "as stored inside), the ZIP CRC-32s, reading the archives and the assemblies' metadata; it is the stricter for it."
say "With \`--yara\` (6 rules) beside \`yara -p 2 -r\` (2 threads, as scan's 2 worker processes; neither in fast mode) over"
say "the same images extracted to disk. $SCAN_REPS repetitions, interleaved; seconds, CPU = user + sys of every process."
say "Ratios: the anchor's time ÷ ours (above 1: faster). On a loaded machine the CLI floors' pipelines (4 processes)"
say "get a larger share of the CPUs than scan's 2 workers: the CPU ratio is then the steadier one, and the floor in one"
say "process a half (the same decoders and hash without the pipes; as many processes as scan) the like-for-like one."
say ""
say "| run | s | CPU, s | APKs/s | MB of images/s | anchor ÷ ours |"
say "|---|---|---|---|---|---|"
say "| floor (anchor): sha256sum + zstd -d / lz4 -d + sha256sum | $(cell "$sf" "$sfl" "$sfh") | $(cat "$W/sc_floor.c") |" \
    "$(rate "$s_apks" "$sf" 0) | $(rate "$s_img / 1e6" "$sf" 0) | 1 |"
[ "$so" != nan ] &&
  say "| floor (anchor): the same with \`openssl dgst -sha256\` | $(cell "$so" "$sol" "$soh") | $(cat "$W/sc_fssl.c") |" \
      "$(rate "$s_apks" "$so" 0) | $(rate "$s_img / 1e6" "$so" 0) | 1 |"
[ "$sb" != nan ] &&
  say "| floor in one process a half: libzstd, liblz4, libcrypto (bench_tool floor) | $(cell "$sb" "$sbl" "$sbh") |" \
      "$(cat "$W/sc_flib.c") | $(rate "$s_apks" "$sb" 0) | $(rate "$s_img / 1e6" "$sb" 0) | 1 |"
say "| \`scan --jobs 2\` | $(cell "$ss" "$ssl" "$ssh") | $c_scan | $(rate "$s_apks" "$ss" 0) |" \
    "$(rate "$s_img / 1e6" "$ss" 0) | $(ratio "$sf" "$ss"); $(ratio "$so" "$ss") openssl; $(ratio "$sb" "$ss") one process |"
say "| \`yara -p 2 -r\` over the extracted images (anchor) | $(cell "$sc" "$scl" "$sch") | $c_ycli |" \
    "$(rate "$s_apks" "$sc" 0) | $(rate "$s_img / 1e6" "$sc" 0) | 1 |"
say "| \`scan --jobs 2 --yara\` | $(cell "$sy" "$syl" "$syh") | $c_yara | $(rate "$s_apks" "$sy" 0) |" \
    "$(rate "$s_img / 1e6" "$sy" 0) | $(ratio "$sc" "$sy") |"
say "| \`scan --jobs 2 --yara --cache\`: the same APKs again, their images in the cache | $(cell "$sr" "$srl" "$srh") |" \
    "$c_ycache | $(rate "$s_apks" "$sr" 0) | $(rate "$s_img / 1e6" "$sr" 0) | $(ratio "$sc" "$sr") |"
n8=$(wc -l <"$W/net8")
if [ -z "$jsx_why" ]; then
  say "| jsxamstore unpack, 2 at a time, of the $n8 .NET 6-8 sets (anchor) | $(cell "$sj" "$sjl" "$sjh") | $(cat "$W/sc_jsx.c") |" \
      "$(rate "$n8" "$sj" 0) | | 1 |"
  say "| \`scan --jobs 2\` of the same $n8 APKs | $(cell "$s8" "$s8l" "$s8h") | $(cat "$W/sc_net8.c") | $(rate "$n8" "$s8" 0) |" \
      "| $(ratio "$sj" "$s8") |"
fi
say ""
ycpu=$(calc "$c_yara - $c_scan")
# the least CPU the floors took (the one-process floor's, when measured): what no scan can go below
fmin=$flc; [ "$sb" != nan ] && [ "$(calc "$(cat "$W/sc_flib.c") < $flc")" = 1 ] && fmin=$(cat "$W/sc_flib.c")
say "The YARA share of \`scan --yara\` (its CPU minus plain scan's): $(fmt 2 "$ycpu") s, $(ratio "$ycpu" "$c_ycli") of \`yara\`'s"
say "CPU over the extracted files; the rest is what scan does anyway (SHA-256 of every APK and image, decompression,"
say "the ZIP CRC-32s, inflating the DEFLATEd .NET 6-8 sets) and the CLI, handed the images already on disk, does not."
say "No scan can take less CPU than the least floor's work and YARA's: $(fmt 2 "$fmin") + $(fmt 2 "$c_ycli") s, $(ratio "$(calc "$fmin + $c_ycli")" "$c_ycli")"
say "of \`yara\`'s CPU (scan --yara: $(ratio "$c_yara" "$c_ycli"))."
say "The anchor is handed the images already extracted; \`--cache DIR\` is scan's extracted state: a first scan with it"
say "keeps each input's line and images under the input's SHA-256 ($(fmt 2 "$cfill") s, $(fmt 2 "$cfill_cpu") s CPU, once, for"
say "$(fmt 0 "$cache_mb / 1024") MiB; it gave $cache_same the plain scan's lines), and a scan of the same bytes again hashes each APK, finds"
say "its record and runs only the rules: $(fmt 2 "$c_ycache") s CPU, $(ratio "$c_ycache" "$c_ycli") of \`yara\`'s."
if [ -n "$jsx_why" ]; then
  say "jsxamstore ($JSX_PKG): not measured, $jsx_why."
else
  say "jsxamstore ($JSX_PKG, node $(node --version); 2 repetitions) reads each set from its assemblies/ directory,"
  say "unzipped beforehand (not timed), decompresses the LZ4 images and writes them out; it wrote $jsx_same."
fi
say ""
say "Max RSS (the largest of the parent and its workers): $(fmt 1 "$rss / 1024") MiB, with \`--yara\` $(fmt 1 "$rssy / 1024") MiB,"
say "over the hostile inputs too $(fmt 1 "$rssh / 1024") MiB (the goal: twice the largest image + 64 MiB = $(fmt 1 "$rss_goal / 1024") MiB)."
say "Lines: $s_apks APKs, $g_err with an \"error\"."
say "Hostile: $s_hostile more inputs (tests/lib/scan_mutants.py over three of the APKs, tests/lib/zip_cases.py's archives"
say "and 1.5 GiB bomb) scanned with the rest (\`--timeout 20\`): $h_lines lines for $h_want inputs, $h_bad stopped by a signal"
say "or the timeout, $(fmt 1 "$hs") s for all $h_want."
say ""
target "scan --jobs 2: throughput ÷ the floor's ($fl_name)" "≥ 0.80×" \
  "$(ratio "$fl" "$ss") (CPU: $(ratio "$flc" "$c_scan"); the one-process floor: $(ratio "$sb" "$ss"))" \
  "$(status "$(calc "$fl / $ss >= 0.8")")"
target "scan: max RSS ÷ (2 × largest image + 64 MiB)" "≤ 1.00×" "$(ratio "$rss" "$rss_goal"); --yara $(ratio "$rssy" "$rss_goal")" \
  "$(status "$(calc "$rss <= $rss_goal && $rssy <= $rss_goal")")"
target "scan --yara ÷ yara -p 2 -r, both over the images extracted (scan: from --cache)" "≤ 1.20×" \
  "$(ratio "$sr" "$sc") (CPU: $(ratio "$c_ycache" "$c_ycli")); a first scan: $(ratio "$sy" "$sc") (CPU: $(ratio "$c_yara" "$c_ycli"); its bound, floor + yara: $(ratio "$(calc "$fmin + $c_ycli")" "$c_ycli"))" \
  "$(status "$(calc "$sr <= 1.2 * $sc")")"
target "scan: one line per input, hostile ones included, no signal or timeout" "all" "$h_lines of $h_want, $h_bad stopped" \
  "$(status "$(calc "$h_lines == $h_want && $h_bad == 0")")"
fi
