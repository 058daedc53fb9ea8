#!/bin/bash
# tests/t_cli_scan.sh - asmstore scan: one NDJSON line per input, in input order whatever --jobs is
# (the real samples walked as a directory, @LIST and -); APKs made of the real stores with each
# finding a reviewer wants (an image that is no assembly, an assembly under another name, a damaged
# image, a DEFLATEd, misaligned and misplaced store, an assembly also as a plain member, a table
# libxamarin-app.so disagrees with), each by its stable code; --timeout and --max-memory stopping a
# worker with an "error" line; a walk over a symbolic link loop and a FIFO that neither loops nor
# blocks; a FIFO given as an input; --yara over the decompressed images against YARA's own CLI over
# the extracted ones, --yara-members, a rule that does not compile.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
V3=$SAMPLES/v3-watercountdown-widget
T=$T_TMP

# codes FILE LINE: the finding codes of line LINE (1-based) of the NDJSON in FILE, sorted, one a line
codes() { $PY -c 'import json,sys; l=open(sys.argv[1]).read().splitlines()[int(sys.argv[2])-1]; print("\n".join(sorted(set(f["code"] for f in json.loads(l)["findings"]))))' "$1" "$2"; }
# field FILE LINE EXPR: a Python expression over line LINE's document d
field() { $PY -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2])-1]); print(eval(sys.argv[3]))' "$1" "$2" "$3"; }
export PY; export -f codes field

if [ ! -d "$V3" ]; then t_skip "scan" "the real samples are absent"; t_done; exit; fi

# ---- the real samples: one line per file, in the walk's order, whatever --jobs ----
"$ASMSTORE" scan "$SAMPLES" >"$T/s1.ndjson"; rc1=$?
"$ASMSTORE" scan --jobs 3 "$SAMPLES" >"$T/s3.ndjson"; rc3=$?
( cd "$SAMPLES" && find . -type f | sed 's|^\./||' | LC_ALL=C sort ) >"$T/files"
t_check "samples: exit 0, one valid document per file, \"schema\" 1, \"command\" scan, in name order" \
    $PY - "$T/s1.ndjson" "$T/files" "$SAMPLES" "$rc1" <<'PYEOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
want = [sys.argv[3] + "/" + f for f in open(sys.argv[2]).read().split()]
docs = [json.loads(l) for l in lines]
assert sys.argv[4] == "0", sys.argv[4]
assert [d["input"] for d in docs] == want, ([d["input"] for d in docs], want)
assert all(d["schema"] == 1 and d["command"] == "scan" and d["error"] is None for d in docs)
PYEOF
t_check "samples: --jobs 3 gives the same bytes as --jobs 1" cmp "$T/s1.ndjson" "$T/s3.ndjson"
t_check "samples: the .NET 10 store: MonoVM, its 10 entries with sha256 and identity, no findings" \
    $PY - "$T/s1.ndjson" <<'PYEOF'
import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.find("x86_64/assembly-store.so\"") > 0][0]
assert d["kind"] == "store" and d["dotnet"] and d["runtime"] == "MonoVM" and d["abis"] == ["x86_64"], d
e = d["stores"][0]["entries"]
assert len(e) == 10 and all(x["sha256"] and x["identity"]["mvid"] for x in e), e
assert d["findings"] == [] and d["findings_total"] == 0
PYEOF
t_check "samples: a text file is not an app (no store, no finding), libxamarin-app.so a .so with none" \
    bash -c "grep '/SOURCES.md\"' '$T/s1.ndjson' | grep -q '\"kind\": \"not-an-app\", \"dotnet\": false, .*\"stores\": \[\], .*\"findings\": \[\]' &&
             grep 'x86_64/libxamarin-app.so\"' '$T/s1.ndjson' | grep -q '\"kind\": \"so\".*\"stores\": \[\]'"
printf '%s\n' "$V3/x86_64/assembly-store.so" "$SAMPLES/SOURCES.md" >"$T/list"
"$ASMSTORE" scan "@$T/list" >"$T/at.ndjson"
"$ASMSTORE" scan - <"$T/list" >"$T/dash.ndjson"
t_check "@LIST and -: the listed paths, in the list's order" \
    bash -c "[ \$(wc -l <'$T/at.ndjson') = 2 ] && cmp '$T/at.ndjson' '$T/dash.ndjson' && head -1 '$T/at.ndjson' | grep -q 'x86_64/assembly-store.so\"'"

# ---- APKs with findings ----
if command -v zip >/dev/null && command -v zipalign >/dev/null && [ -e "$MONO45/Accessibility.dll" ]; then
  A=$T/apk; mkdir -p "$A/lib/x86_64" "$A/lib/arm64-v8a" "$A/assets" "$A/assemblies" "$T/in"
  echo '<manifest/>' >"$A/AndroidManifest.xml"
  printf 'not an assembly' >"$T/in/Junk.dll"
  cp -L "$MONO45/Accessibility.dll" "$T/in/Renamed.dll"
  cp -L "$MONO45/Facades/System.Runtime.dll" "$T/in/System.Runtime.dll"
  "$ASMSTORE" pack -o "$A/lib/x86_64/libassembly-store.so" --target net10 --abi x86_64 --no-check "$T/in"/*.dll >/dev/null 2>&1
  cp "$T/in/System.Runtime.dll" "$A/assemblies/System.Runtime.dll"
  cp "$A/lib/x86_64/libassembly-store.so" "$A/assets/extra.blob"
  # arm64: the real store, its real library with descriptor 9 shrunk below Mono.Android's image
  "$ASMSTORE" wrap -o "$A/lib/arm64-v8a/libassembly-store.so" --abi arm64 "$V3/arm64-v8a/assembly-store.so" >/dev/null
  $PY -c 'import struct,sys; d=bytearray(open(sys.argv[1],"rb").read()); struct.pack_into("<I", d, 0x6b10 + 9 * 12, 1000); open(sys.argv[2],"wb").write(d)' \
      "$V3/arm64-v8a/libxamarin-app.so" "$A/lib/arm64-v8a/libxamarin-app.so"
  (cd "$A" && zip -q -X ../f0.apk AndroidManifest.xml lib/arm64-v8a/libxamarin-app.so assemblies/System.Runtime.dll assets/extra.blob &&
   zip -q -X -0 ../f0.apk lib/x86_64/libassembly-store.so lib/arm64-v8a/libassembly-store.so)
  zipalign -f -p 4 "$T/f0.apk" "$T/good.apk"
  (cd "$A" && zip -q -X ../deflated.apk AndroidManifest.xml lib/x86_64/libassembly-store.so)
  (cd "$A" && zip -q -X ../odd.apk AndroidManifest.xml && zip -q -X -0 ../odd.apk lib/x86_64/libassembly-store.so)
  "$ASMSTORE" scan "$T/good.apk" "$T/deflated.apk" "$T/odd.apk" >"$T/f.ndjson"; rc=$?
  t_check "APK: exit 0, kind apk, .NET for Android, both ABIs, both stores read" \
      bash -c "[ $rc = 0 ] && [ \"\$(field '$T/f.ndjson' 1 '(d[\"kind\"], d[\"dotnet\"], d[\"abis\"], len(d[\"stores\"]))')\" = \"('apk', True, ['arm64-v8a', 'x86_64'], 2)\" ]"
  codes "$T/f.ndjson" 1 >"$T/c1"
  t_check "APK: not-an-assembly (Junk.dll), name-mismatch (Renamed.dll is Accessibility)" \
      bash -c "grep -qx not-an-assembly '$T/c1' && grep -qx name-mismatch '$T/c1' && grep -q 'the assembly calls itself Accessibility' '$T/f.ndjson'"
  t_check "APK: assembly-also-plain (assemblies/System.Runtime.dll), store-unexpected-place (assets/extra.blob)" \
      bash -c "grep -qx assembly-also-plain '$T/c1' && grep -qx store-unexpected-place '$T/c1' && grep -q '\"where\": \"assets/extra.blob\"' '$T/f.ndjson'"
  t_check "APK: app-table-disagrees (arm64's library with descriptor 9 shrunk), nothing else" \
      bash -c "grep -qx app-table-disagrees '$T/c1' && [ \$(wc -l <'$T/c1') = 5 ]"
  t_check "APK: store-deflated, and store-misaligned for a STORED .so off its page" \
      bash -c "codes '$T/f.ndjson' 2 | grep -qx store-deflated && codes '$T/f.ndjson' 3 | grep -qx store-misaligned &&
               ! codes '$T/f.ndjson' 2 | grep -qx store-misaligned"
  # a store of two assemblies beside the real x86_64 library and its table of 10 descriptors
  mkdir -p "$T/extra/lib/x86_64"; cp "$V3/x86_64/libxamarin-app.so" "$T/extra/lib/x86_64/"
  "$ASMSTORE" pack -o "$T/extra/lib/x86_64/libassembly-store.so" --target net10 --abi x86_64 "$T/in/System.Runtime.dll" "$T/in/Renamed.dll" >/dev/null 2>&1
  "$ASMSTORE" scan "$T/extra/lib/x86_64/libassembly-store.so" >"$T/e.ndjson"
  t_check "app-table-extra: 8 of the library's 10 descriptors hold no image of the store" \
      grep -q '"code": "app-table-extra", "where": "[^"]*", "detail": "[^"]*libxamarin-app.so: 8 of its 10 descriptors hold no image of this store"' "$T/e.ndjson"
  # a damaged image: the zstd frame of the last entry broken at its data offset
  "$ASMSTORE" pack -o "$T/damaged.so" --compression zstd --no-check "$T/in"/*.dll >/dev/null 2>&1
  $PY -c '
import sys
p = sys.argv[1]; b = bytearray(open(p, "rb").read())
i = b.rfind(b"\x28\xb5\x2f\xfd")          # the last zstd frame
b[i + 8:i + 24] = bytes(16)
open(p, "wb").write(bytes(b))' "$T/damaged.so"
  "$ASMSTORE" scan "$T/damaged.so" >"$T/d.ndjson"
  t_check "a damaged zstd frame: damaged-image, the line still whole" grep -q '"code": "damaged-image"' "$T/d.ndjson"
else
  t_skip "scan of APKs" "zip, zipalign or Mono's 4.5 assemblies absent"
fi

# ---- bounds: a FIFO given, a walk past a link loop and a FIFO, --timeout, --max-memory ----
mkdir -p "$T/walk/sub"; ln -s .. "$T/walk/sub/loop"; mkfifo "$T/walk/pipe" "$T/fifo"
cp "$V3/x86_64/assembly-store.so" "$T/walk/sub/store.so"
timeout 60 "$ASMSTORE" scan "$T/walk" >"$T/w.ndjson"; rc=$?
t_check "walk: a link loop is not followed, a FIFO in it is left out: one line, exit 0" \
    bash -c "[ $rc = 0 ] && [ \$(wc -l <'$T/w.ndjson') = 1 ] && grep -q 'sub/store.so\"' '$T/w.ndjson'"
timeout 60 "$ASMSTORE" scan "$T/fifo" "$V3/x86_64/assembly-store.so" >"$T/p.ndjson"; rc=$?
t_check "a FIFO given: its line says it cannot be read (no block), the next input still scanned, exit 2" \
    bash -c "[ $rc = 2 ] && [ \$(wc -l <'$T/p.ndjson') = 2 ] && head -1 '$T/p.ndjson' | grep -q '\"error\": {\"status\": 2' && tail -1 '$T/p.ndjson' | grep -q '\"error\": null'"
# eight 512 MiB images of zeros (sparse files; zstd level 1): seconds of decompression and hashing
for i in 1 2 3 4 5 6 7 8; do truncate -s 512M "$T/z$i.dll"; done
"$ASMSTORE" pack -o "$T/big.blob" --raw --no-check --level 1 "$T"/z?.dll >/dev/null 2>&1
rm -f "$T"/z?.dll
timeout 60 "$ASMSTORE" scan --timeout 1 "$T/big.blob" "$V3/x86_64/assembly-store.so" >"$T/t.ndjson"; rc=$?
t_check "--timeout 1: the slow input's line says it timed out, the next is scanned, exit 1" \
    bash -c "[ $rc = 1 ] && head -1 '$T/t.ndjson' | grep -q 'timed out after 1 s' && tail -1 '$T/t.ndjson' | grep -q '\"error\": null'"
# started at .8 of a wall-clock second: a deadline counted in whole seconds came 0.2-0.45 s later
$PY -c 'import time; time.sleep((0.8 - time.time() % 1) % 1)'
t0=$(date +%s%N); "$ASMSTORE" scan --timeout 1 "$T/big.blob" >/dev/null; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
t_check "--timeout 1 stops an input after 1 s, not at the next whole second ($ms ms)" [ "$ms" -ge 1000 ]
timeout 120 "$ASMSTORE" scan --max-memory 256 "$T/big.blob" >"$T/m.ndjson"; rc=$?
t_check "--max-memory 256: a 512 MiB image is not read (damaged-image: out of memory), the line whole" \
    bash -c "grep -q '\"code\": \"damaged-image\".*out of memory' '$T/m.ndjson' && [ \$(wc -l <'$T/m.ndjson') = 1 ]"

# ---- workers: each reads input after input (a fork per input cost a third of a small APK's CPU) ----
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
  mkdir -p "$T/many"; for i in $(seq 100 229); do echo "not an app $i" >"$T/many/$i.txt"; done
  strace -f -qq -e trace=clone,clone3,fork,vfork -o "$T/forks" "$ASMSTORE" scan --jobs 2 "$T/many" >"$T/many.ndjson"
  forks=$(grep -v CLONE_THREAD "$T/forks" | grep -c -E '(clone3?|v?fork)\(')
  t_check "130 inputs with --jobs 2: 130 lines, in order, from at most 6 worker processes ($forks)" \
      bash -c "[ $forks -le 6 ] && cut -d'\"' -f10 '$T/many.ndjson' | cmp - <(ls -d '$T/many'/*)"
else
  t_skip "scan's worker count" "no strace, or it cannot trace here"
fi

# ---- YARA ----
if "$ASMSTORE" --version | grep -q "libyara on" && command -v yara >/dev/null; then
  cat >"$T/rules.yar" <<'EOF'
rule corelib_ref : dotnet { strings: $a = "System.Private.CoreLib" condition: $a }
rule never { strings: $a = "no assembly holds this string 0xdeadbeef" condition: $a }
rule runtime_name { strings: $a = "System.Runtime" condition: $a }
EOF
  "$ASMSTORE" scan --yara "$T/rules.yar" "$V3/x86_64/assembly-store.so" >"$T/y.ndjson"
  "$ASMSTORE" extract -C "$T/yx" "$V3/x86_64/assembly-store.so" >/dev/null 2>&1
  yara -r "$T/rules.yar" "$T/yx" | awk '$1 == "corelib_ref" {print $2}' | xargs -n1 basename | sort >"$T/y.cli"
  field "$T/y.ndjson" 1 '"\n".join(sorted(m["entry"] for m in d["yara"] if m["rule"] == "corelib_ref"))' >"$T/y.ours"
  t_check "--yara: the rule matches inside zstd-compressed images, the same entries as yara's CLI over the extracted files" \
      bash -c "[ -s '$T/y.ours' ] && diff '$T/y.ours' '$T/y.cli' && grep -q '\"tags\": \[\"dotnet\"\]' '$T/y.ndjson'"
  if [ -e "$T/good.apk" ]; then
    "$ASMSTORE" scan --yara "$T/rules.yar" --yara-members "$T/good.apk" >"$T/ym.ndjson" 2>/dev/null
    t_check "--yara-members: the plain assemblies/System.Runtime.dll member matches as a member" \
        grep -q '"rule": "runtime_name", "tags": \[\], "member": "assemblies/System.Runtime.dll"' "$T/ym.ndjson"
  fi
  # ---- --cache: a scan of the same bytes again reads the record (line and images) and runs only the rules ----
  ins=("$SAMPLES"); [ -e "$T/good.apk" ] && ins+=("$T/good.apk")
  "$ASMSTORE" scan --yara "$T/rules.yar" --yara-members "${ins[@]}" >"$T/c0.ndjson" 2>/dev/null
  "$ASMSTORE" scan --yara "$T/rules.yar" --yara-members --cache "$T/sc" "${ins[@]}" >"$T/c1.ndjson" 2>/dev/null
  "$ASMSTORE" scan --yara "$T/rules.yar" --yara-members --cache "$T/sc" --jobs 2 "${ins[@]}" >"$T/c2.ndjson" 2>/dev/null
  t_check "--cache: filling it and reading it back (--jobs 2) give the bytes of a scan without it" \
      bash -c "cmp '$T/c0.ndjson' '$T/c1.ndjson' && cmp '$T/c0.ndjson' '$T/c2.ndjson' && ls '$T/sc' | grep -q '\.images$'"
  sha=$(sha256sum "$V3/x86_64/assembly-store.so" | cut -c1-64)
  printf 'rule cache_marker { strings: $a = "ASMSTORE-CACHE-MARK" condition: $a }\n' >>"$T/rules.yar"
  $PY - "$T/sc/$sha.images" <<'PYEOF'
import struct, sys
p = bytearray(open(sys.argv[1], "rb").read())
at = 0
n = struct.unpack_from("<I", p, at)[0]; at += 4 + n        # the store's label
n = struct.unpack_from("<I", p, at)[0]; at += 4 + n        # the entry's name
size = struct.unpack_from("<Q", p, at)[0]; at += 8
assert size > 100
p[at + 64:at + 83] = b"ASMSTORE-CACHE-MARK"                # the same length: the record still reads
open(sys.argv[1], "wb").write(p)
PYEOF
  "$ASMSTORE" scan --yara "$T/rules.yar" --cache "$T/sc" "$V3/x86_64/assembly-store.so" >"$T/c3.ndjson"
  t_check "--cache: the rules run over the record's images (a mark written into the cached image matches)" \
      grep -q '"rule": "cache_marker"' "$T/c3.ndjson"
  "$ASMSTORE" scan --yara "$T/rules.yar" "$V3/x86_64/assembly-store.so" >"$T/c4.ndjson"
  head -c -9 "$T/sc/$sha.scan" >"$T/cut" && cat "$T/cut" >"$T/sc/$sha.scan"
  "$ASMSTORE" scan --yara "$T/rules.yar" --cache "$T/sc" "$V3/x86_64/assembly-store.so" >"$T/c5.ndjson"
  t_check "--cache: a truncated record is a miss: the input scanned again (no mark), the record written anew" \
      bash -c "cmp '$T/c4.ndjson' '$T/c5.ndjson' && ! grep -q cache_marker '$T/c5.ndjson' && [ \$(tail -c 8 '$T/sc/$sha.scan') = ASMSCEND ]"
  $PY -c 'import sys; p=bytearray(open(sys.argv[1],"rb").read()); p[30]^=1; open(sys.argv[1],"wb").write(p)' "$T/sc/$sha.scan"
  head -c 100 "$T/sc/$sha.images" >"$T/cut" && cat "$T/cut" >"$T/sc/$sha.images"
  "$ASMSTORE" scan --yara "$T/rules.yar" --cache "$T/sc" "$V3/x86_64/assembly-store.so" >"$T/c6.ndjson"
  t_check "--cache: a record of another build (its version text changed) and a truncated images file are misses" \
      cmp "$T/c4.ndjson" "$T/c6.ndjson"
  "$ASMSTORE" scan --yara "$T/rules.yar" --cache "$T/sc" "$V3/x86_64/assembly-store.so" >/dev/null # written anew
  $PY -c 'import sys; p=open(sys.argv[1],"rb").read(); i=p.index(b"\"stores\""); open(sys.argv[1],"wb").write(p[:i]+b"\n"+p[i+1:])' "$T/sc/$sha.scan"
  "$ASMSTORE" scan --yara "$T/rules.yar" --cache "$T/sc" --jobs 2 "$V3/x86_64/assembly-store.so" "$V3/x86_64/assembly-store.so" >"$T/c8.ndjson"
  t_check "--cache: a record whose text would break the line (a newline in it) is a miss: two whole lines, as without it" \
      bash -c "cat '$T/c4.ndjson' '$T/c4.ndjson' | cmp - '$T/c8.ndjson'"
  "$ASMSTORE" scan --cache "$T/c4.ndjson" "$V3/x86_64/assembly-store.so" >"$T/c7.out" 2>&1; rc=$?
  t_check "--cache naming a file: exit 2, says it is not a directory, no line" \
      bash -c "[ $rc = 2 ] && grep -q 'scan cache' '$T/c7.out' && ! grep -q '\"command\"' '$T/c7.out'"
  printf 'rule broken { condition: $a }\n' >"$T/bad.yar"
  "$ASMSTORE" scan --yara "$T/bad.yar" "$V3/x86_64/assembly-store.so" >"$T/bad.out" 2>&1; rc=$?
  t_check "--yara with a rule that does not compile: exit 2, YARA's message, no line" \
      bash -c "[ $rc = 2 ] && grep -q 'bad.yar: line 1: undefined string' '$T/bad.out' && ! grep -q '\"command\"' '$T/bad.out'"
else
  t_skip "scan --yara" "asmstore built without libyara (libyara-dev) or no yara CLI"
fi
t_done
