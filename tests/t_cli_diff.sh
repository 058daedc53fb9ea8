#!/bin/bash
# tests/t_cli_diff.sh - asmstore diff A B and the content hash of list --hash / list --json: a one-byte
# change inside one compressed image of stores packed from Mono's real assemblies is found (and only
# it); a store and its unchanged repack are the same (a real sample in place, a .NET 6-8 set, a .so, an
# APK); entries added and removed; store-level differences (compression, format, hash); --json parses
# with its schema field; list's sha256 is sha256sum of what extract writes; exit 0 same, 1 different,
# 2 usage or I/O.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
V3=$SAMPLES/v3-watercountdown-widget
T=$T_TMP

if [ ! -e "$MONO45/Accessibility.dll" ]; then t_skip "diff" "mono's 4.5 assemblies absent (Debian: mono-devel)"; t_done; exit; fi

# d1: five real assemblies; d2: the same with one byte of one image's #Strings heap changed ("<Module>"
# becomes "<Modulf>": still a valid assembly, verify checks it below)
mkdir -p "$T/d1"
for f in Accessibility CustomMarshalers I18N.West Microsoft.VisualC Mono.Http; do cp -L "$MONO45/$f.dll" "$T/d1/"; done
cp -r "$T/d1" "$T/d2"
$PY - "$T/d2/I18N.West.dll" <<'EOF'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
i = b.index(b'<Module>\0')
b[i + 6] = ord('f')
open(p, 'wb').write(bytes(b))
EOF
t_check "setup: the edited image differs from the original in exactly one byte" \
    bash -c "[ \$(cmp -l '$T/d1/I18N.West.dll' '$T/d2/I18N.West.dll' | wc -l) = 1 ]"
"$ASMSTORE" pack -o "$T/s1.bin" --raw "$T/d1" >/dev/null 2>&1
"$ASMSTORE" pack -o "$T/s2.bin" --raw "$T/d2" >/dev/null 2>&1
t_check "setup: both stores verify (the edited one still holds assemblies), the image is zstd-compressed" \
    bash -c "'$ASMSTORE' verify '$T/s1.bin' && '$ASMSTORE' verify '$T/s2.bin' && '$ASMSTORE' list '$T/s2.bin' | grep -q ' zstd I18N.West.dll'"

# ---- a one-byte change inside one compressed image ----
"$ASMSTORE" diff "$T/s1.bin" "$T/s2.bin" >"$T/one.txt" 2>&1
t_check "one byte: exit 1 (different)" test $? = 1
t_check "one byte: the one entry is named changed, by content (sha256)" grep -q '^  ~ I18N.West.dll:.* sha256 ' "$T/one.txt"
t_check "one byte: no other entry, no store-level field is named" \
    bash -c "[ \$(grep -c '^  ' '$T/one.txt') = 2 ] && grep -q '^  0 added, 0 removed, 1 changed, 4 unchanged$' '$T/one.txt'"
t_check "one byte: the same uncompressed size (the content and so the compressed size differ)" \
    bash -c "grep -q '^  ~ I18N.West.dll: stored_size [0-9]* -> [0-9]*, sha256 [0-9a-f]\{16\} -> [0-9a-f]\{16\}$' '$T/one.txt'"
"$ASMSTORE" diff --json "$T/s1.bin" "$T/s2.bin" >"$T/one.json"
t_check "one byte --json: parses; schema 1; I18N.West.dll's content (and compressed size) changed, each sha256 the sha256sum of its file" \
    $PY - "$T/one.json" "$(sha256sum <"$T/d1/I18N.West.dll" | cut -c1-64)" "$(sha256sum <"$T/d2/I18N.West.dll" | cut -c1-64)" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["command"] == "diff" and d["same"] is False, d
(s,) = d["stores"]
assert s["abi"] == "arm64-v8a" and s["differences"] == [] and s["changed"] == 1 and s["unchanged"] == 4, s
(e,) = s["entries"]
assert e["change"] == "changed" and e["name"] == "I18N.West.dll" and e["fields"] == ["stored_size", "sha256"], e
assert e["a"]["size"] == e["b"]["size"] == 71680, e
assert e["a"]["sha256"] == sys.argv[2] and e["b"]["sha256"] == sys.argv[3], e
EOF
t_check "a store against itself: exit 0, 'same'" bash -c "'$ASMSTORE' diff '$T/s1.bin' '$T/s1.bin' | grep -q '^same: '"
"$ASMSTORE" pack -o "$T/s1b.bin" --raw "$T/d1" >/dev/null 2>&1
t_check "a store packed twice from the same files: exit 0" "$ASMSTORE" diff "$T/s1.bin" "$T/s1b.bin"

# ---- a store and its unchanged repack: nothing ----
same_after_repack() { # NAME IN OUT
    "$ASMSTORE" repack "$2" -o "$3" >/dev/null 2>&1 || { t_fail "$1: repack"; return; }
    "$ASMSTORE" diff "$2" "$3" >"$T/rp.txt" 2>&1
    local rc=$?
    if [ $rc = 0 ] && grep -q '^same: ' "$T/rp.txt" && ! grep -q '^  ' "$T/rp.txt"; then t_ok "$1: diff IN OUT finds nothing (exit 0)"
    else t_fail "$1: diff IN OUT (exit $rc)"; sed 's/^/    /' "$T/rp.txt" | head; fi
}
if [ -d "$SAMPLES" ]; then
    same_after_repack "real v3 sample (in place)" "$V3/arm64-v8a/assembly-store.so" "$T/v3.so"
    same_after_repack "real .NET 6-8 set (in place)" "$SAMPLES/v1-razr-pointcrep" "$T/razr"
    t_check "real samples: arm64-v8a against x86_64 differ (exit 1), each store only in one input" \
        bash -c "'$ASMSTORE' diff '$V3/arm64-v8a/assembly-store.so' '$V3/x86_64/assembly-store.so' >'$T/ab.txt'; [ \$? = 1 ] && grep -q '^arm64-v8a: only in A' '$T/ab.txt' && grep -q '^x86_64: only in B' '$T/ab.txt'"
else
    t_skip "diff on the real samples" "samples absent (set SAMPLES=.../assembly-store-samples)"
fi
# the README's example, run as written where a fresh clone runs it (build/ only, no ../shared beside
# it; its /tmp directory moved into T_TMP): on a store it packs from Mono's facades
sed -n '/^## Compare two stores/,/^## Supported formats/p' "$TOP/README.md" | awk '/^```sh/{g=1; next} g&&/^```/{exit} g' |
    sed "s|D=/tmp/diffing|D=$T/readme|" >"$T/readme.sh"
NEW=/usr/lib/mono/4.5-api/Facades/System.Runtime.dll
if [ -d "$MONO45/Facades" ] && [ -e "$NEW" ]; then
    mkdir -p "$T/clone" && ln -sfn "$BUILD" "$T/clone/build"
    t_check "README's diff example runs as written: same, then System.Runtime.dll changed (exit 1), list --hash" bash -c \
        "grep -q 'asmstore diff' '$T/readme.sh' && ! grep -q '\.\./shared' '$T/readme.sh' && cd '$T/clone' &&
         bash -e '$T/readme.sh' >'$T/readme.log' 2>&1 &&
         grep -q '^same: ' '$T/readme.log' && grep -q '^  ~ System.Runtime.dll: .*sha256' '$T/readme.log' && grep -q '^exit 1$' '$T/readme.log' &&
         grep -q \" \$(sha256sum <'$NEW' | cut -c1-64) System.Runtime.dll\$\" '$T/readme.log' || { cat '$T/readme.log'; false; }"
else t_skip "README's diff example" "mono-devel's assemblies absent"; fi
"$ASMSTORE" pack -o "$T/w1.so" --wrap dlopen "$T/d1" >/dev/null 2>&1
same_after_repack "a .so we packed" "$T/w1.so" "$T/w1r.so"
if command -v zip >/dev/null; then
    mkdir -p "$T/apk/lib/arm64-v8a"; cp "$T/w1.so" "$T/apk/lib/arm64-v8a/libassembly-store.so"; echo manifest >"$T/apk/AndroidManifest.xml"
    (cd "$T/apk" && zip -q -X ../a.apk AndroidManifest.xml && zip -q -X -0 ../a.apk lib/arm64-v8a/libassembly-store.so)
    "$ASMSTORE" repack "$T/a.apk" -o "$T/ar.apk" >/dev/null 2>&1
    t_check "APK: zip's unaligned store entry against repack's 16 KiB-aligned one: entry_alignment named, exit 1" \
        bash -c "'$ASMSTORE' diff '$T/a.apk' '$T/ar.apk' >'$T/al.txt'; [ \$? = 1 ] && grep -Eq '^  entry_alignment: [0-9]+ -> 16384$' '$T/al.txt' && grep -q ' 0 changed, 5 unchanged' '$T/al.txt'"
    same_after_repack "an APK (16 KiB-aligned, as repack writes it)" "$T/ar.apk" "$T/arr.apk"
    "$ASMSTORE" repack "$T/a.apk" -o "$T/a2.apk" --replace I18N.West.dll="$T/d2/I18N.West.dll" >/dev/null 2>&1
    t_check "APK: the repacked image is found changed, exit 1" \
        bash -c "'$ASMSTORE' diff '$T/a.apk' '$T/a2.apk' >'$T/apk.txt'; [ \$? = 1 ] && grep -q '^  ~ I18N.West.dll:' '$T/apk.txt' && grep -q ' 1 changed, 4 unchanged' '$T/apk.txt'"
    t_check "APK against the bare .so: the same stores, exit 0 (archive fields compared only between archives)" "$ASMSTORE" diff "$T/a.apk" "$T/w1.so"
else
    t_skip "diff on an APK" "zip absent"
fi

# ---- entries added and removed ----
cp -r "$T/d1" "$T/d3"; rm "$T/d3/Mono.Http.dll"; cp -L "$MONO45/Mono.Posix.dll" "$T/d3/" 2>/dev/null || cp -L "$MONO45/I18N.Other.dll" "$T/d3/"
"$ASMSTORE" pack -o "$T/s3.bin" --raw "$T/d3" >/dev/null 2>&1
"$ASMSTORE" diff "$T/s1.bin" "$T/s3.bin" >"$T/ar.txt" 2>&1
t_check "added/removed: exit 1" test $? = 1
t_check "added/removed: the removed entry named with '-', the added with '+'" \
    bash -c "grep -q '^  - Mono.Http.dll (descriptor ' '$T/ar.txt' && grep -Eq '^  \\+ (Mono.Posix|I18N.Other).dll \\(descriptor ' '$T/ar.txt'"
t_check "added/removed: --json says so, with the sha256 of the added and removed images" \
    bash -c "'$ASMSTORE' diff --json '$T/s1.bin' '$T/s3.bin' | $PY -c '
import json, sys
s = json.load(sys.stdin)[\"stores\"][0]
assert s[\"added\"] == 1 and s[\"removed\"] == 1, s
ch = {e[\"change\"]: e for e in s[\"entries\"]}
assert ch[\"removed\"][\"b\"] is None and len(ch[\"removed\"][\"a\"][\"sha256\"]) == 64, ch
assert ch[\"added\"][\"a\"] is None and len(ch[\"added\"][\"b\"][\"sha256\"]) == 64, ch'"

# ---- a .NET 6-8 set without its manifest: entries matched by name hash ----
mkdir -p "$T/c1" "$T/a1" "$T/a2"; cp "$T/d1/Accessibility.dll" "$T/d1/CustomMarshalers.dll" "$T/c1/"
cp "$T/d1/I18N.West.dll" "$T/d1/Mono.Http.dll" "$T/a1/"; cp "$T/d2/I18N.West.dll" "$T/d1/Mono.Http.dll" "$T/a2/"
"$ASMSTORE" pack -o "$T/n1" --target net8 "$T/c1" --arch arm64 "$T/a1" >/dev/null 2>&1
"$ASMSTORE" pack -o "$T/n2" --target net8 "$T/c1" --arch arm64 "$T/a2" >/dev/null 2>&1
cp -r "$T/n1" "$T/n1-bare"; rm -f "$T/n1-bare/assemblies.manifest" "$T/n2/assemblies.manifest"
t_check ".NET 6-8 set with and without its manifest: the same (matched by name hash), exit 0" "$ASMSTORE" diff "$T/n1" "$T/n1-bare"
t_check ".NET 6-8 set without a manifest: the one-byte change found in the ABI store, store 0 the same" \
    bash -c "'$ASMSTORE' diff '$T/n1' '$T/n2' >'$T/n.txt'; [ \$? = 1 ] && grep -q '^  ~ I18N.West.dll: sha256 ' '$T/n.txt' && grep -q '^every ABI (assemblies.blob | assemblies.blob): the same, 2 entries$' '$T/n.txt' && grep -q ' 1 changed, 1 unchanged$' '$T/n.txt'"

# ---- store-level differences ----
"$ASMSTORE" pack -o "$T/lz.bin" --raw --compression lz4 "$T/d1" >/dev/null 2>&1
"$ASMSTORE" diff "$T/s1.bin" "$T/lz.bin" >"$T/lz.txt" 2>&1; rc=$?
t_check "zstd vs lz4: exit 1, 'compression: zstd -> lz4' at store level" bash -c "[ $rc = 1 ] && grep -q '^  compression: zstd -> lz4$' '$T/lz.txt'"
t_check "zstd vs lz4: entries differ in stored size and compression, not in content" \
    bash -c "grep -q '^  ~ Accessibility.dll: stored_size [0-9]* -> [0-9]*, compression zstd -> lz4$' '$T/lz.txt' && ! grep -q sha256 '$T/lz.txt'"
"$ASMSTORE" pack -o "$T/f2.bin" --raw --runtime monovm --target net9 "$T/d1" >/dev/null 2>&1
"$ASMSTORE" pack -o "$T/f3.bin" --raw --runtime monovm --target net10 "$T/d1" >/dev/null 2>&1
t_check "format 2 vs 3: 'format: 2 -> 3'" bash -c "'$ASMSTORE' diff '$T/f2.bin' '$T/f3.bin' | grep -q '^  format: 2 -> 3$'"
"$ASMSTORE" pack -o "$T/h1.bin" --raw --hash crc32 "$T/d1" >/dev/null 2>&1
"$ASMSTORE" pack -o "$T/h2.bin" --raw --hash xxhash "$T/d1" >/dev/null 2>&1
t_check "CRC-32 vs XXH3-64 index: the hash named, exit 1; --json's difference item" \
    bash -c "'$ASMSTORE' diff '$T/h1.bin' '$T/h2.bin' | grep -q '^  hash: crc32 -> xxh3-64$' && '$ASMSTORE' diff --json '$T/h1.bin' '$T/h2.bin' | $PY -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"schema\"] == 1 and not d[\"same\"]
assert {\"field\": \"hash\", \"a\": \"crc32\", \"b\": \"xxh3-64\"} in d[\"stores\"][0][\"differences\"], d'"
t_check "--json of two same stores: same true, every store's fields there (null for what it has not)" \
    bash -c "'$ASMSTORE' diff --json '$T/s1.bin' '$T/s1.bin' | $PY -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"same\"] is True and d[\"stores\"][0][\"same\"] is True and d[\"stores\"][0][\"entries\"] == []
a = d[\"stores\"][0][\"a\"]
assert a[\"format\"] == 3 and a[\"compression\"] == \"zstd\" and a[\"entry_alignment\"] is None, a'"

# ---- exit 2: usage, I/O, no store ----
t_check "one operand: usage, exit 2" bash -c "'$ASMSTORE' diff '$T/s1.bin' 2>/dev/null; [ \$? = 2 ]"
t_check "a missing file: exit 2 (not 'different')" bash -c "'$ASMSTORE' diff '$T/s1.bin' '$T/nope.bin' 2>/dev/null; [ \$? = 2 ]"
t_check "a file with no store: exit 2" bash -c "'$ASMSTORE' diff '$T/d1/Accessibility.dll' '$T/s1.bin' 2>/dev/null; [ \$? = 2 ]"

# ---- an image that cannot be decompressed: named, never taken for the same (exit 2) ----
cp "$T/s1.bin" "$T/bad.bin"
$PY - "$T/bad.bin" <<'EOF'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
i = b.index(b'\x28\xb5\x2f\xfd')   # the first zstd frame (Accessibility.dll's): its header made impossible
b[i + 4:i + 12] = b'\xff' * 8
open(p, 'wb').write(bytes(b))
EOF
"$ASMSTORE" diff "$T/s1.bin" "$T/bad.bin" >"$T/bad.txt" 2>"$T/bad.err"; rc=$?
t_check "damaged image: exit 2, the entry named on stderr, 'could not be read', no 'same'" \
    bash -c "[ $rc = 2 ] && grep -q 'entry 0 Accessibility.dll: cannot read it to compare' '$T/bad.err' && grep -q ', 1 could not be read$' '$T/bad.txt' && ! grep -q 'same' '$T/bad.txt'"
t_check "damaged image --json: \"same\": null (not known), unreadable 1" \
    bash -c "'$ASMSTORE' diff --json '$T/s1.bin' '$T/bad.bin' 2>/dev/null | $PY -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"same\"] is None and d[\"unreadable\"] == 1 and d[\"stores\"][0][\"same\"] is None, d'"
t_check "damaged image: list --hash names it, shows '-' for it, exits 1" \
    bash -c "'$ASMSTORE' list --hash '$T/bad.bin' >'$T/bl.txt' 2>'$T/bl.err'; [ \$? = 1 ] && grep -q ' zstd - Accessibility.dll$' '$T/bl.txt' && grep -q 'Accessibility.dll: no sha256: decompression failed' '$T/bl.err'"

# ---- list --hash and list --json: sha256 of the uncompressed image ----
"$ASMSTORE" extract "$T/s2.bin" -C "$T/x2" >/dev/null
t_check "list --hash: each entry's sha256 column is sha256sum of the file extract writes" \
    bash -c "cd '$T/x2' && '$ASMSTORE' list --hash '$T/s2.bin' | awk '\$1 ~ /^[0-9]+\$/ {print \$5\"  \"\$6}' >'$T/lh' && [ \$(wc -l <'$T/lh') = 5 ] && sha256sum -c --strict --quiet '$T/lh'"
t_check "list --json: a sha256 per entry, sha256sum of the file extract writes" \
    bash -c "'$ASMSTORE' list --json '$T/s2.bin' | $PY -c '
import json, sys, hashlib
es = json.load(sys.stdin)[\"stores\"][0][\"entries\"]
assert len(es) == 5
for e in es:
    assert e[\"sha256\"] == hashlib.sha256(open(\"$T/x2/\" + e[\"name\"], \"rb\").read()).hexdigest(), e'"
if [ -d "$SAMPLES" ]; then
    t_check "list --json on a real .NET 6-8 set: the sha256 EXPECTED.json gives each image" \
        bash -c "'$ASMSTORE' list --json '$SAMPLES/v1-expandroid' | $PY -c '
import json, sys
ss = json.load(sys.stdin)[\"stores\"]; want = json.load(open(\"$SAMPLES/EXPECTED.json\"))[\"v1-expandroid/assemblies.arm64_v8a.blob\"]
got = [e[\"sha256\"] for s in ss if s[\"store\"] == \"assemblies.arm64_v8a.blob\" for e in s[\"entries\"]]
assert got == [d[\"uncompressed_sha256\"] for d in want[\"descriptors\"]], got'"
fi
t_done
