#!/bin/bash
# tests/t_cli_unpack.sh - asmstore unpack IN -C DIR and repack IN --from DIR: without an edit the
# output is IN byte for byte, for every real sample (in place, never copied) and every pack
# --target/--runtime preset in every wrapper (raw, .so, .NET 6-8 set, APK); an edited file comes back
# (verify passes, extract returns it), a deleted one is removed, an edited level is used, a new file
# goes the --add way; hostile settings files and entry names are refused, a non-empty DIR too; the
# README's walk-through runs as written.
. "$(dirname "$0")/lib/lib.sh"
T=$T_TMP
SMALL=$(readlink -f "$MONO45/Accessibility.dll") # 12288 bytes
BIG=$MONO45/Facades/System.Runtime.dll           # 22528 bytes
if [ ! -e "$SMALL" ] || [ ! -e "$BIG" ]; then t_skip "unpack" "mono's 4.5 assemblies absent (Debian: mono-devel)"; t_done; exit; fi

# round IN NAME: unpack IN, repack IN --from the folder; OUT must be IN byte for byte (a set: each
# of its .blob and .manifest files)
round() {
    local in=$1 name=$2 out=$T/rt-$2
    rm -rf "$T/u-$name"
    if ! "$ASMSTORE" unpack "$in" -C "$T/u-$name" >"$T/log" 2>&1 ||
        ! "$ASMSTORE" repack "$in" --from "$T/u-$name" -o "$out" >>"$T/log" 2>&1; then
        t_fail "$name: unpack, repack --from" "$(tail -3 "$T/log")"; return
    fi
    local ok=1 f
    if [ -d "$in" ] || [ -d "$out" ]; then
        local src=$in; [ -d "$in" ] || src=$(dirname "$in")
        for f in "$out"/*; do cmp -s "$f" "$src/$(basename "$f")" || { ok=0; echo "    $(basename "$f") differs"; }; done
        [ "$(ls "$out" | wc -l)" -gt 0 ] || ok=0
    else
        cmp "$in" "$out" || ok=0
    fi
    if [ $ok = 1 ] && grep -q 'unchanged' "$T/log"; then t_ok "$name: unpack, repack --from without an edit: byte-identical"
    else t_fail "$name: byte-identical" "$(tail -3 "$T/log")"; fi
}

# ---- every real sample ----
V3=$SAMPLES/v3-watercountdown-widget
if [ -d "$SAMPLES" ]; then
    for abi in arm64-v8a x86_64; do round "$V3/$abi/assembly-store.so" "v3-$abi"; done
    round "$SAMPLES/v1-razr-pointcrep" v1-razr
    round "$SAMPLES/v1-expandroid" v1-expandroid
    round "$SAMPLES/v1-razr-pointcrep/base_assemblies.arm64_v8a.blob" v1-razr-one-file
else t_skip "real samples" "absent (set SAMPLES=.../assembly-store-samples)"; fi

# ---- every preset, in every wrapper ----
mkdir -p "$T/src/fr"
cp "$SMALL" "$T/src/Accessibility.dll"
cp "$BIG" "$T/src/System.Runtime.dll"
t_pe "$T/src/Mini.dll" 3000
t_pe --pdb "$T/src/Mini.pdb" 800
printf '<?xml version="1.0"?>\n<configuration/>\n' >"$T/src/Mini.dll.config"
t_pe --fill sat "$T/src/fr/Mini.resources.dll" 900
mkdir -p "$T/arch" && t_pe --fill arch "$T/arch/Native.dll" 1500 # a .NET 6-8 set's per-ABI store
# apk NAME SRCDIR ENTRYDIR: an APK as asmstore writes it (zip, then repack: the layout repack keeps)
apk() {
    (cd "$2" && seq 1 50 >AndroidManifest.xml && zip -q -X -0 -r "$T/$1.zip" AndroidManifest.xml "$3") &&
        "$ASMSTORE" repack "$T/$1.zip" -o "$T/$1.apk" >/dev/null 2>&1
}
for tg in net8 net9 net10 net11 net11-preview; do
    for rt in monovm coreclr; do
        p=$tg-$rt; o=$T/p-$p
        if [ $tg = net8 ]; then
            "$ASMSTORE" pack --target $tg --runtime $rt --pdb -o "$o" "$T/src" --arch arm64 "$T/arch" >"$T/log" 2>&1 ||
                { grep -q "no coreclr store exists" "$T/log" && t_skip "$p" "$(head -1 "$T/log")" || t_fail "$p: pack" "$(head -2 "$T/log")"; continue; }
            round "$o" "$p-set"
            mkdir -p "$T/a-$p/assemblies" && cp "$o"/* "$T/a-$p/assemblies/" &&
                apk "$p" "$T/a-$p" assemblies && round "$T/$p.apk" "$p-apk"
            continue
        fi
        if ! "$ASMSTORE" pack --target $tg --runtime $rt --pdb --raw -o "$o.bin" "$T/src" >"$T/log" 2>&1; then
            grep -q "no coreclr store exists" "$T/log" && t_skip "$p" "$(head -1 "$T/log")" || t_fail "$p: pack" "$(head -2 "$T/log")"; continue
        fi
        round "$o.bin" "$p-raw"
        mkdir -p "$o" && "$ASMSTORE" pack --target $tg --runtime $rt --pdb -o "$o/" "$T/src" >/dev/null 2>&1
        so=$(ls "$o"/*.so); round "$so" "$p-so"
        "$ASMSTORE" pack --target $tg --runtime $rt --pdb --wrap section -o "$o.section.so" "$T/src" >/dev/null 2>&1 &&
            round "$o.section.so" "$p-section-so"
        mkdir -p "$T/a-$p/lib/arm64-v8a" && cp "$so" "$T/a-$p/lib/arm64-v8a/" && apk "$p" "$T/a-$p" lib && round "$T/$p.apk" "$p-apk"
    done
done

# an APK with two ABIs' stores, and an AAB (base/lib/<abi>/)
mkdir -p "$T/multi/lib/x86_64" "$T/aab/base/lib/arm64-v8a" &&
    cp "$T/a-net11-coreclr/lib/arm64-v8a"/*.so "$T/aab/base/lib/arm64-v8a/" &&
    cp -r "$T/a-net11-coreclr/lib" "$T/multi/" &&
    "$ASMSTORE" pack --target net11 --abi x86_64 -o "$T/multi/lib/x86_64/" "$T/src" >/dev/null 2>&1 &&
    apk multi "$T/multi" lib && round "$T/multi.apk" "two-ABI-apk" &&
    apk aab "$T/aab" base && cp "$T/aab.apk" "$T/app.aab" && round "$T/app.aab" "aab"
[ "$(ls -d "$T/u-two-ABI-apk"/*/ 2>/dev/null | wc -l)" = 2 ] || t_fail "two-ABI APK: one directory per ABI" "$(ls "$T/u-two-ABI-apk")"

# ---- an edited file comes back; verify passes; extract returns it ----
E=$T/u-net11-coreclr-apk
if [ -d "$E" ]; then
    cp "$BIG" "$E/arm64-v8a/Mini.dll" # bigger than Mini: stored uncompressed (the growth rule)
    "$ASMSTORE" repack "$T/net11-coreclr.apk" --from "$E" -o "$T/ed.apk" >"$T/ed.log" 2>&1
    t_check "edited file: repack --from says it replaced Mini.dll, and written" \
        bash -c "grep -q '^Mini.dll (arm64-v8a): replaced, stored UNCOMPRESSED' '$T/ed.log' && grep -q 'ed.apk: written' '$T/ed.log'"
    t_check "edited file: verify passes on the output" "$ASMSTORE" verify "$T/ed.apk"
    t_check "edited file: extract gives the edit back, the others as they were" bash -c \
        "'$ASMSTORE' extract '$T/ed.apk' -C '$T/edx' >/dev/null && cmp '$BIG' '$T/edx/Mini.dll' && cmp '$SMALL' '$T/edx/Accessibility.dll' && cmp '$T/src/Mini.pdb' '$T/edx/Mini.pdb'"
    t_check "edited file: elfcheck passes (16 KiB alignment kept)" "$ASMSTORE" elfcheck "$T/ed.apk"
    cp "$T/src/Mini.dll" "$E/arm64-v8a/Mini.dll"
    rm "$E/arm64-v8a/Accessibility.dll"
    "$ASMSTORE" repack "$T/net11-coreclr.apk" --from "$E" -o "$T/rm.apk" >"$T/rm.log" 2>&1
    t_check "deleted file: the entry is removed, the rest verifies" bash -c \
        "'$ASMSTORE' verify '$T/rm.apk' && ! '$ASMSTORE' list '$T/rm.apk' | grep -q Accessibility && '$ASMSTORE' list '$T/rm.apk' | grep -q Mini.dll"
    cp "$SMALL" "$E/arm64-v8a/Accessibility.dll"
fi
L=$T/u-net11-monovm-raw
if [ -d "$L" ]; then
    sed 's/"name": "Accessibility.dll", \(.*\)"level": 22/"name": "Accessibility.dll", \1"level": 1/' "$L/asmstore-unpack.json" >"$T/lv.json" &&
        cp "$T/lv.json" "$L/asmstore-unpack.json"
    "$ASMSTORE" repack "$T/p-net11-monovm.bin" --from "$L" -o "$T/lv.bin" >"$T/lv.log" 2>&1
    t_check "edited level: re-compressed at zstd level 1, content unchanged" bash -c \
        "grep -q 'Accessibility.dll (.*): replaced, XAZS (zstd) level 1' '$T/lv.log' && ! cmp -s '$T/p-net11-monovm.bin' '$T/lv.bin' &&
         '$ASMSTORE' verify '$T/lv.bin' && '$ASMSTORE' diff '$T/p-net11-monovm.bin' '$T/lv.bin' >'$T/lv.diff'; ! grep -q 'content' '$T/lv.diff'"
    t_pe "$L/arm64-v8a/New.dll" 700
    "$ASMSTORE" repack "$T/p-net11-monovm.bin" --from "$L" -o "$T/add.bin" >"$T/add.log" 2>&1; rc=$?
    t_check "new file: goes the --add way (refused naming it, or added)" bash -c \
        "([ $rc = 1 ] && grep -q -- '--add .*/arm64-v8a/New.dll' '$T/add.log') || ([ $rc = 0 ] && '$ASMSTORE' list '$T/add.bin' | grep -q New.dll)"
    rm -f "$L/arm64-v8a/New.dll"
    sed 's/"compression": "zstd"/"compression": "lz4"/' "$L/asmstore-unpack.json" >"$T/cz.json"
    mkdir -p "$T/cz" && cp -r "$L"/* "$T/cz/" && cp "$T/cz.json" "$T/cz/asmstore-unpack.json"
    "$ASMSTORE" repack "$T/p-net11-monovm.bin" --from "$T/cz" -o "$T/cz.bin" >"$T/cz.log" 2>&1; rc=$?
    t_check "edited compression kind: refused (exit 1), saying repack cannot honour it" bash -c \
        "[ $rc = 1 ] && grep -q '\"compression\" is lz4 there but zstd in' '$T/cz.log' && [ ! -e '$T/cz.bin' ]"
fi

# ---- hostile settings ----
H=$T/u-v3-arm64-v8a
hostile() { # NAME SED-EXPR WANT: the settings edited, repack --from must exit 1 saying WANT
    rm -rf "$T/h"; cp -r "$H" "$T/h"
    sed "$2" "$H/asmstore-unpack.json" >"$T/h/asmstore-unpack.json"
    "$ASMSTORE" repack "$V3/arm64-v8a/assembly-store.so" --from "$T/h" -o "$T/h.out" >"$T/h.log" 2>&1; local rc=$?
    if [ $rc = 1 ] && grep -q -- "$3" "$T/h.log" && [ ! -e "$T/h.out" ]; then t_ok "hostile settings: $1 refused (exit 1)"
    else t_fail "hostile settings: $1" "rc=$rc $(head -2 "$T/h.log")"; fi
}
if [ -d "$H" ]; then
    hostile "a file outside the folder" 's|"file": "System.Linq.dll"|"file": "../../../etc/passwd"|' "not a relative name under the folder: a '.' or '..' component"
    hostile "an absolute file" 's|"file": "System.Linq.dll"|"file": "/etc/passwd"|' 'not a relative name under the folder: an absolute path'
    hostile "a store dir outside" 's|"dir": "arm64-v8a"|"dir": ".."|' 'not a relative name'
    hostile "a nested store dir" 's|"dir": "arm64-v8a"|"dir": "a/b"|' 'more than one path component'
    hostile "not JSON" 's|"schema": 1,|"schema": 1|' 'at byte 13: not JSON'
    hostile "schema 2" 's|"schema": 1|"schema": 2|' 'schema: not 1'
    hostile "a bad sha256" 's|"sha256": "9|"sha256": "X|' 'sha256 that is not'
    hostile "a huge number" 's|"index": 0,|"index": 99999999999999999999999,|' 'not a whole number in range'
    hostile "another store's settings" 's|"version_word": 2147549187|"version_word": 2147549188|' '"version_word" is 2147549188 there'
    hostile "an edited name" 's|"name": "System.Linq.dll"|"name": "Evil.dll"|' '"name" is Evil.dll there'
    hostile "deep nesting" 's|"tool"|"x": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]], "tool"|' 'no deeper nesting'
    hostile "a level out of range" 's|"level": 12|"level": 40|' 'not a whole number in range'
    hostile "a number one past a max below 9" 's|"format": 3|"format": 5|' 'format: not a whole number in range'
    "$ASMSTORE" repack "$V3/x86_64/assembly-store.so" --from "$H" -o "$T/other.out" >"$T/o.log" 2>&1; rc=$?
    t_check "the folder of another input: refused (exit 1), naming the field" bash -c "[ $rc = 1 ] && grep -q 'abi' '$T/o.log'"
    rm -rf "$T/h" && cp -r "$H" "$T/h" && rm -r "$T/h/arm64-v8a"
    "$ASMSTORE" repack "$V3/arm64-v8a/assembly-store.so" --from "$T/h" -o "$T/h.out" >"$T/o.log" 2>&1; rc=$?
    t_check "a store's directory gone: refused (exit 1), not every entry removed" bash -c \
        "[ $rc = 1 ] && grep -q 'no directory arm64-v8a/' '$T/o.log' && [ ! -e '$T/h.out' ]"
    "$ASMSTORE" repack "$V3/x86_64/assembly-store.so" --from "$T/nothing" -o "$T/other.out" >"$T/o.log" 2>&1; rc=$?
    t_check "--from a directory without the settings: exit 2, says what to give" bash -c "[ $rc = 2 ] && grep -q 'asmstore unpack IN -C DIR' '$T/o.log'"
fi


# ---- repack --from loses nothing silently: exact names, nothing taken through a symlink or left
# out unsaid (entries "Foo" and "Foo.dll" side by side) ----
A=$T/amb
mkdir -p "$A/src" && t_pe "$A/src/Foo" 700 "$A/src/Foo.dll" 800 "$A/src/Bar.dll" 900 &&
    "$ASMSTORE" pack --raw --no-compress -o "$A/s.store" "$A/src/Foo" "$A/src/Foo.dll" "$A/src/Bar.dll" >/dev/null 2>&1 &&
    "$ASMSTORE" unpack "$A/s.store" -C "$A/u" >/dev/null
D=$(ls -d "$A"/u/*/ | head -1); D=${D%/}
cp "$A/src/Bar.dll" "$D/Foo"
"$ASMSTORE" repack "$A/s.store" --from "$A/u" -o "$A/ed.store" >"$A/ed.log" 2>&1
t_check "--from, only Foo's file edited: Foo replaced, Foo.dll as it was" bash -c \
    "'$ASMSTORE' extract '$A/ed.store' -C '$A/edx' >/dev/null && cmp '$A/src/Bar.dll' '$A/edx/Foo' && cmp '$A/src/Foo.dll' '$A/edx/Foo.dll'"
rm "$D/Foo"
"$ASMSTORE" repack "$A/s.store" --from "$A/u" -o "$A/rm.store" >"$A/rm.log" 2>&1
t_check "--from, Foo's file deleted: Foo removed, Foo.dll and Bar.dll kept" bash -c \
    "[ \"\$('$ASMSTORE' list '$A/rm.store' | awk 'NR > 1 {print \$5}' | tr '\n' ' ')\" = 'Foo.dll Bar.dll ' ]"
cp "$A/src/Foo" "$D/Foo"
for opt in "--remove Foo" "--replace Foo=$A/src/Bar.dll"; do
    # shellcheck disable=SC2086
    "$ASMSTORE" repack "$A/s.store" $opt -o "$A/opt.store" >"$A/opt.log" 2>&1; rc=$?
    t_check "${opt%%=*} with entries Foo and Foo.dll: refused (exit 1), naming both, nothing written" bash -c \
        "[ $rc = 1 ] && grep -q 'has an entry Foo and an entry Foo.dll: give the exact name' '$A/opt.log' && [ ! -e '$A/opt.store' ]"
done
# refused_from NAME: repack --from must exit 1 naming WANT, writing nothing
refused_from() {
    "$ASMSTORE" repack "$A/s.store" --from "$A/u" -o "$A/sl.store" >"$A/sl.log" 2>&1; local rc=$?
    if [ $rc = 1 ] && grep -q -- "$2" "$A/sl.log" && [ ! -e "$A/sl.store" ]; then t_ok "--from: $1: refused (exit 1), naming it"
    else t_fail "--from: $1" "rc=$rc $(head -2 "$A/sl.log")"; fi
}
ln -s "$A/src/Bar.dll" "$D/New.dll"
refused_from "a new file that is a symlink" "$D/New.dll: a symlink: repack --from never follows one"
rm "$D/New.dll" && mv "$D/Bar.dll" "$A/Bar.moved" && ln -s "$A/Bar.moved" "$D/Bar.dll"
refused_from "an entry's file replaced by a symlink" "$D/Bar.dll: a symlink"
rm "$D/Bar.dll" && mv "$A/Bar.moved" "$D/Bar.dll"
mkdir -p "$D/1/2/3/4/5/6/7/8/9" && cp "$A/src/Bar.dll" "$D/1/2/3/4/5/6/7/8/9/Deep.dll"
refused_from "a new file nested 9 directories deep" "9: a directory more than 8 levels under its store's"
rm -r "${D:?}/1" && mkfifo "$D/fifo"
refused_from "a FIFO" "fifo: not a regular file"
rm "$D/fifo"
t_check "--from, the folder as unpack wrote it again: unchanged, byte-identical" bash -c \
    "'$ASMSTORE' repack '$A/s.store' --from '$A/u' -o '$A/same.store' 2>&1 | grep -q unchanged && cmp '$A/s.store' '$A/same.store'"

# ---- the settings reader's memory: a small multiple of the text, whatever the text ----
if [ -d "$H" ] && [ -x /usr/bin/time ]; then
    rm -rf "$T/h" && cp -r "$H" "$T/h"
    python3 -c 'import sys; n = 64 << 20; open(sys.argv[1], "wb").write(b"[" + b"1," * ((n - 3) // 2) + b"1]")' "$T/h/asmstore-unpack.json"
    /usr/bin/time -f %M -o "$T/h.mem" "$ASMSTORE" repack "$V3/arm64-v8a/assembly-store.so" --from "$T/h" -o "$T/h.out" >"$T/h.log" 2>&1; rc=$?
    t_check "a 64 MiB settings file of 33 million values: refused (exit 1) in at most 256 MiB ($(tail -1 "$T/h.mem") KiB)" \
        bash -c "[ $rc = 1 ] && [ \$(tail -1 '$T/h.mem') -le 262144 ] && grep -q 'fewer values' '$T/h.log'"
fi

# ---- 100,000 entries (the settings' limit): repack --from is linear, unpack refuses one more ----
# cpu_of LOG: the user seconds (CPU in the program itself, not the kernel's file work, which a busy
# disk inflates) that /usr/bin/time -f %U wrote last in LOG, rounded up
cpu_of() { tail -1 "$1" | awk '{ printf "%d", $1 == int($1) ? $1 : int($1) + 1 }'; }
CPU_LIMIT=8 # user seconds: the linear walk takes about 1 (0.8 measured), the quadratic one 23
if [ -x /usr/bin/time ]; then
    N=100000 B=$T/big
    mkdir -p "$B/src" && t_pe "$B/one.dll" 700 && python3 - "$B/one.dll" "$B/src" $((N + 1)) <<'EOF2'
import sys
image = open(sys.argv[1], "rb").read()
for i in range(int(sys.argv[3])):
    with open("%s/M%06d.dll" % (sys.argv[2], i), "wb") as f:
        f.write(image)
EOF2
    "$ASMSTORE" pack --raw --no-compress -o "$B/over.store" "$B/src" >/dev/null 2>&1
    "$ASMSTORE" unpack "$B/over.store" -C "$B/over" >"$B/over.log" 2>&1; rc=$?
    t_check "unpack of $((N + 1)) entries: refused (exit 1), naming the limit, nothing written" bash -c \
        "[ $rc = 1 ] && grep -q 'more than the $N that repack --from reads back' '$B/over.log' && [ ! -e '$B/over' ]"
    rm -f "$B/src/M$N.dll" "$B/over.store"
    "$ASMSTORE" pack --raw --no-compress -o "$B/s.store" "$B/src" >/dev/null 2>&1 && rm -r "$B/src" &&
        "$ASMSTORE" unpack "$B/s.store" -C "$B/u" >/dev/null 2>&1
    /usr/bin/time -f %U -o "$B/plain.cpu" "$ASMSTORE" repack "$B/s.store" -o "$B/plain.out" >/dev/null 2>&1
    /usr/bin/time -f %U -o "$B/from.cpu" timeout 600 "$ASMSTORE" repack "$B/s.store" --from "$B/u" -o "$B/from.out" >"$B/from.log" 2>&1; rc=$?
    t_check "--from over $N untouched entries: byte-identical within $CPU_LIMIT s of user CPU ($(cpu_of "$B/from.cpu") s; a plain repack $(cpu_of "$B/plain.cpu") s)" \
        bash -c "[ $rc = 0 ] && cmp '$B/s.store' '$B/from.out' && [ $(cpu_of "$B/from.cpu") -le $CPU_LIMIT ]"
    find "$B/u" -name 'M*[02468].dll' -delete
    /usr/bin/time -f %U -o "$B/rm.cpu" timeout 600 "$ASMSTORE" repack "$B/s.store" --from "$B/u" -o "$B/rm.out" >"$B/rm.log" 2>&1; rc=$?
    t_check "--from with $((N / 2)) files deleted: every one removed within $CPU_LIMIT s of user CPU ($(cpu_of "$B/rm.cpu") s)" \
        bash -c "[ $rc = 0 ] && [ \$('$ASMSTORE' list '$B/rm.out' | grep -c 'M[0-9]*[13579].dll') = $((N / 2)) ] &&
            [ \$('$ASMSTORE' list '$B/rm.out' | wc -l) = $((N / 2 + 1)) ] && [ $(cpu_of "$B/rm.cpu") -le $CPU_LIMIT ]"
    rm -rf "$B"
else t_skip "100,000 entries" "/usr/bin/time absent (Debian: time)"; fi

# ---- unpack never writes outside DIR, never over files silently ----
t_evil_store "$T/evil.store" # its second entry is named "../AAAA.dll"
"$ASMSTORE" unpack "$T/evil.store" -C "$T/ev" >"$T/ev.log" 2>&1; rc=$?
t_check "an entry named ../AAAA.dll: refused (exit 1) saying why, nothing outside DIR, no settings file" bash -c \
    "[ $rc = 1 ] && grep -qF \"refusing to write arm64-v8a/../AAAA.dll under $T/ev: a '.' or '..' component\" '$T/ev.log' && ! find '$T' -name AAAA.dll | grep -q . && [ ! -e '$T/ev/asmstore-unpack.json' ]"
mkdir -p "$T/full" && echo keep >"$T/full/x"
"$ASMSTORE" unpack "$T/p-net11-coreclr.bin" -C "$T/full" >"$T/full.log" 2>&1; rc=$?
t_check "a non-empty DIR: refused (exit 2), saying --force" bash -c "[ $rc = 2 ] && grep -q -- '--force' '$T/full.log' && [ ! -e '$T/full/asmstore-unpack.json' ]"
t_check "a non-empty DIR with --force: unpacked, its other files kept" bash -c \
    "'$ASMSTORE' unpack '$T/p-net11-coreclr.bin' -C '$T/full' --force >/dev/null && [ -s '$T/full/asmstore-unpack.json' ] && grep -q keep '$T/full/x'"

# ---- the README's walk-through, run as written where a fresh clone runs it (build/ only, no ../shared
# beside it; its /tmp directory moved into T_TMP) ----
sed -n '/^## Unpack to a folder/,/^## Compare two stores/p' "$TOP/README.md" | awk '/^```sh/{g=1; next} g&&/^```/{exit} g' |
    sed "s|D=/tmp/unpacking|D=$T/readme|" >"$T/readme.sh"
if command -v zip >/dev/null && command -v openssl >/dev/null && command -v apksigner >/dev/null; then
    t_check "README's unpack walk-through runs as written: edit, repack --from, sign, apksigner and elfcheck pass" bash -c \
        "grep -q 'repack .*--from' '$T/readme.sh' && mkdir -p '$T/clone' && ln -sfn '$BUILD' '$T/clone/build' &&
         cd '$T/clone' && bash -e '$T/readme.sh' >'$T/readme.log' 2>&1 &&
         grep -q 'Verified using v2 scheme (APK Signature Scheme v2): true' '$T/readme.log' &&
         grep -q '~ Accessibility.dll' '$T/readme.log' || { cat '$T/readme.log'; false; }"
else t_skip "README walk-through" "zip, openssl or apksigner absent"; fi
t_done
