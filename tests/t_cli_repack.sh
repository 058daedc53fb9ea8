#!/bin/bash
# tests/t_cli_repack.sh - asmstore repack on the real samples (in place, never copied), on .so wrappers
# (ours, and upstream's stub layout made with clang + llvm-objcopy), and on an APK built with zip +
# zipalign: no change gives the input back byte for byte; --replace puts the new image in and leaves
# every other one as it was (checked by our reader and by tests/lib/indep_store.py); bad input exits
# 1 or 2 with the old OUT untouched.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
INDEP="$PY $TOP/tests/lib/indep_store.py"
V3=$SAMPLES/v3-watercountdown-widget
BIG=$MONO45/Facades/System.Runtime.dll          # 22528 bytes: larger than the 5632 reserved
SMALL=$(readlink -f "$MONO45/Accessibility.dll") # 12288 bytes: fits System.Linq's 13824

# same IN OUT: byte for byte, or say which bytes differ and why
same() {
    if cmp -s "$1" "$2"; then return 0; fi
    echo "    $2 differs from $1: $(cmp "$1" "$2" 2>&1 | head -1)"
    echo "    (compressed images are copied verbatim, so only a different layout or wrapper could explain it)"
    return 1
}

if [ ! -d "$SAMPLES" ]; then t_skip "repack on the real samples" "samples absent (set SAMPLES=.../assembly-store-samples)"; t_done; exit; fi
if [ ! -e "$BIG" ] || [ ! -e "$SMALL" ]; then t_skip "repack --replace" "mono's 4.5 assemblies absent (Debian: mono-devel)"; fi

# ---- no change: every sample comes back byte for byte ----
for abi in arm64-v8a x86_64; do
    t_check "v3 $abi: repack without change is byte-identical" \
        bash -c "'$ASMSTORE' repack '$V3/$abi/assembly-store.so' -o '$T_TMP/v3-$abi.so' && $(declare -f same); same '$V3/$abi/assembly-store.so' '$T_TMP/v3-$abi.so'"
done
for set in v1-razr-pointcrep v1-expandroid; do
    ok=1
    "$ASMSTORE" repack "$SAMPLES/$set" -o "$T_TMP/$set" >"$T_TMP/log" 2>&1 || ok=0
    # the set's store files (the sample directory may also hold the app's libxamarin-app.so, which is not a store)
    for f in "$SAMPLES/$set"/*.blob "$SAMPLES/$set"/*.manifest; do [ $ok = 1 ] && same "$f" "$T_TMP/$set/$(basename "$f")" || ok=0; done
    [ "$(ls "$T_TMP/$set" | wc -l)" = "$(ls "$SAMPLES/$set"/*.blob "$SAMPLES/$set"/*.manifest | wc -l)" ] || ok=0   # no file added (expandroid has no store 0)
    [ $ok = 1 ] && t_ok "$set: repack without change gives every file of the set back byte for byte" || { t_fail "$set: repack without change"; cat "$T_TMP/log"; }
done
t_check "a set given as one of its files is repacked whole" \
    bash -c "'$ASMSTORE' repack '$SAMPLES/v1-razr-pointcrep/base_assemblies.arm64_v8a.blob' -o '$T_TMP/razr1' && cmp '$SAMPLES/v1-razr-pointcrep/base_assemblies.blob' '$T_TMP/razr1/base_assemblies.blob'"

# ---- --replace on the .NET 10 store: a larger image goes in uncompressed, a smaller one recompressed ----
if [ -e "$BIG" ]; then
    S=$V3/arm64-v8a/assembly-store.so
    "$ASMSTORE" repack "$S" -o "$T_TMP/rep.so" --replace System.Runtime.dll="$BIG" --replace arm64-v8a/System.Linq="$SMALL" 2>"$T_TMP/rep.log"
    t_check "replace: exit 0" test $? = 0
    t_check "replace: the larger image is stored uncompressed, and the output says so" grep -q "System.Runtime.dll.*UNCOMPRESSED" "$T_TMP/rep.log"
    t_check "replace: the smaller one is recompressed with its descriptor index (3 in its XALZ header)" grep -q "System.Linq.dll.*XALZ.*descriptor index 3 kept" "$T_TMP/rep.log"
    "$ASMSTORE" extract "$S" -C "$T_TMP/old" >/dev/null && "$ASMSTORE" extract "$T_TMP/rep.so" -C "$T_TMP/new" >/dev/null
    t_check "replace: the new images come back out" bash -c "cmp '$BIG' '$T_TMP/new/System.Runtime.dll' && cmp '$SMALL' '$T_TMP/new/System.Linq.dll'"
    t_check "replace: every other image is unchanged" bash -c "cd '$T_TMP/old' && for f in *; do case \$f in System.Runtime.dll|System.Linq.dll) ;; *) cmp \$f '$T_TMP/new/'\$f || exit 1;; esac; done"
    t_check "replace: entry order and the untouched compressed images' bytes kept" \
        bash -c "'$ASMSTORE' list '$S' | awk '{print \$5}' > '$T_TMP/o1'; '$ASMSTORE' list '$T_TMP/rep.so' | awk '{print \$5}' > '$T_TMP/o2'; cmp '$T_TMP/o1' '$T_TMP/o2'"
    t_check "replace: our reader verifies it" "$ASMSTORE" verify "$T_TMP/rep.so"
    t_check "replace: indep_store.py accepts it (descriptor indices distinct, the app's holes allowed)" \
        $INDEP check "$T_TMP/rep.so" "$T_TMP/new" --repacked
    t_check "replace: compressed descriptors consistent (XALZ headers decode with the lz4 CLI)" $INDEP lz4-cli "$T_TMP/rep.so"
    "$ASMSTORE" repack "$S" -o "$T_TMP/rm.so" --remove WaterCountdownWidget >/dev/null 2>&1
    t_check "remove: 9 entries left, the rest as they were" bash -c "[ \$('$ASMSTORE' list '$T_TMP/rm.so' | grep -vc '^index') = 9 ] && $INDEP check '$T_TMP/rm.so' '$T_TMP/old' --repacked"

    # format 1: a common entry replaced; the set's other files and the manifest are unchanged
    "$ASMSTORE" repack "$SAMPLES/v1-razr-pointcrep" -o "$T_TMP/razr-rep" --replace StereoKit="$SMALL" >"$T_TMP/v1.log" 2>&1
    t_check "format 1 replace: StereoKit recompressed at LZ4 HC 9 with its descriptor index" grep -q "StereoKit.dll.*level 9, descriptor index" "$T_TMP/v1.log"
    t_check "format 1 replace: check-v1 accepts the set" $INDEP check-v1 "$T_TMP/razr-rep"
    t_check "format 1 replace: the arch store and the manifest are unchanged" bash -c \
        "cmp '$SAMPLES/v1-razr-pointcrep/base_assemblies.arm64_v8a.blob' '$T_TMP/razr-rep/base_assemblies.arm64_v8a.blob' && cmp '$SAMPLES/v1-razr-pointcrep/base_assemblies.manifest' '$T_TMP/razr-rep/base_assemblies.manifest'"
    t_check "format 1 replace: our reader verifies the set" "$ASMSTORE" verify "$T_TMP/razr-rep"
fi

# ---- wrappers: ours (both kinds) and upstream's stub + llvm-objcopy layout ----
for mode in section dlopen; do
    "$ASMSTORE" wrap -o "$T_TMP/w-$mode.so" --abi arm64 --mode $mode "$V3/arm64-v8a/assembly-store.so"
    t_check "$mode .so: repack without change is byte-identical" bash -c "'$ASMSTORE' repack '$T_TMP/w-$mode.so' -o '$T_TMP/w-$mode-same.so' && cmp '$T_TMP/w-$mode.so' '$T_TMP/w-$mode-same.so'"
    if [ -e "$BIG" ]; then
        "$ASMSTORE" repack "$T_TMP/w-$mode.so" -o "$T_TMP/w-$mode-rep.so" --replace System.Runtime.dll="$BIG" >/dev/null 2>&1
        t_check "$mode .so replace: one payload (replaced, not added), bionic rules hold" bash -c \
            "[ \$(readelf -SW '$T_TMP/w-$mode-rep.so' | grep -c ' payload ') = 1 ] && '$ASMSTORE' elfcheck '$T_TMP/w-$mode-rep.so' && '$ASMSTORE' verify '$T_TMP/w-$mode-rep.so'"
    fi
done
if command -v clang >/dev/null && command -v llvm-objcopy >/dev/null; then
    echo 'bool dotnet_for_android_data_payload = true;' > "$T_TMP/stub.cc"
    if clang --target=aarch64-linux-android21 -shared -nostdlib -fuse-ld=lld -Wl,-z,max-page-size=16384 -o "$T_TMP/stub.so" "$T_TMP/stub.cc" 2>/dev/null; then
        llvm-strip "$T_TMP/stub.so"
        cp "$T_TMP/stub.so" "$T_TMP/up.so"
        llvm-objcopy --add-section payload="$V3/arm64-v8a/assembly-store.so" "$T_TMP/up.so"
        llvm-objcopy --set-section-flags payload=readonly,data --set-section-alignment payload=0x4000 "$T_TMP/up.so"
        t_check "upstream stub wrapper (llvm-objcopy): repack without change is byte-identical" bash -c \
            "'$ASMSTORE' repack '$T_TMP/up.so' -o '$T_TMP/up-same.so' && cmp '$T_TMP/up.so' '$T_TMP/up-same.so'"
        "$ASMSTORE" repack "$T_TMP/up.so" -o "$T_TMP/up-rep.so" --replace System.Runtime.dll="$BIG" >/dev/null 2>&1
        t_check "upstream stub wrapper replace: payload still the last section at 0x4000, the stub's bytes after e_shoff unchanged" bash -c \
            "readelf -SW '$T_TMP/up-rep.so' | grep -E '\] payload .* 004000 ' && [ \$(readelf -SW '$T_TMP/up-rep.so' | grep -c ' payload ') = 1 ] && cmp -n 16336 -i 48:48 '$T_TMP/up.so' '$T_TMP/up-rep.so' && '$ASMSTORE' verify '$T_TMP/up-rep.so'"
    else t_skip "upstream stub wrapper" "clang cannot link an aarch64 shared object here"; fi
else t_skip "upstream stub wrapper" "clang or llvm-objcopy absent"; fi

# ---- APK: zip + zipalign input with other entries ----
if command -v zip >/dev/null && command -v zipalign >/dev/null && [ -e "$BIG" ]; then
    A=$T_TMP/apk; mkdir -p "$A/lib/arm64-v8a" "$A/META-INF" "$A/res"
    cp "$T_TMP/w-section.so" "$A/lib/arm64-v8a/libassembly-store.so"
    head -c 5000 /dev/urandom > "$A/lib/arm64-v8a/libmonodroid.so"
    seq 1 3000 > "$A/AndroidManifest.xml"; seq 1 500 > "$A/res/layout.xml"; head -c 777 /dev/urandom > "$A/resources.arsc"
    echo "Manifest-Version: 1.0" > "$A/META-INF/MANIFEST.MF"; echo sig > "$A/META-INF/CERT.SF"; echo rsa > "$A/META-INF/CERT.RSA"
    (cd "$A" && zip -q -X ../in0.apk AndroidManifest.xml res/layout.xml META-INF/MANIFEST.MF META-INF/CERT.SF META-INF/CERT.RSA &&
        zip -q -X -0 ../in0.apk resources.arsc lib/arm64-v8a/libmonodroid.so lib/arm64-v8a/libassembly-store.so)
    zipalign -f -p 4 "$T_TMP/in0.apk" "$T_TMP/in.apk"
    "$ASMSTORE" repack "$T_TMP/in.apk" -o "$T_TMP/out.apk" --replace System.Runtime.dll="$BIG" 2>"$T_TMP/apk.log"
    t_check "APK: exit 0, and it says how to sign again" grep -q "apksigner" "$T_TMP/apk.log"
    t_check "APK: unzip -t passes" unzip -tq "$T_TMP/out.apk"
    t_check "APK: zipalign -c -p 4 passes" zipalign -c -p 4 "$T_TMP/out.apk"
    t_check "APK: the store entry is STORED and 16 KiB-aligned; other entries identical (bytes, method, CRC); signature files gone" \
        $PY - "$T_TMP/in.apk" "$T_TMP/out.apk" <<'EOF'
import sys, zipfile, struct
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
raw = open(sys.argv[2], "rb").read()
store = "lib/arm64-v8a/libassembly-store.so"
names_b = b.namelist()
for i in a.infolist():
    if i.filename.startswith("META-INF/"):
        assert i.filename not in names_b, "signature file kept: " + i.filename
        continue
    j = b.getinfo(i.filename)
    if i.filename == store:
        assert j.compress_type == 0, "store not STORED"
        nl, xl = struct.unpack("<HH", raw[j.header_offset + 26:j.header_offset + 30])
        off = j.header_offset + 30 + nl + xl
        assert off % 16384 == 0, "store data at %d" % off
        continue
    assert (i.compress_type, i.CRC, i.compress_size) == (j.compress_type, j.CRC, j.compress_size), i.filename
    assert a.read(i.filename) == b.read(j.filename), i.filename
assert names_b == [n for n in a.namelist() if not n.startswith("META-INF/")], "entry order"
EOF
    t_check "APK: our reader verifies it and the new image comes back out" bash -c \
        "'$ASMSTORE' verify '$T_TMP/out.apk' && '$ASMSTORE' extract '$T_TMP/out.apk' -C '$T_TMP/apkx' >/dev/null && cmp '$BIG' '$T_TMP/apkx/System.Runtime.dll'"
    t_check "APK: elfcheck passes on the store entry (bionic rule 12: aligned, STORED)" "$ASMSTORE" elfcheck "$T_TMP/out.apk"
else t_skip "APK round trip" "zip, zipalign or mono's assemblies absent"; fi

# ---- bad input: clear error, documented exit code, the old OUT untouched ----
echo "old" > "$T_TMP/keep.so"
not_pe=$T_TMP/not-pe.dll; echo "this is not an assembly" > "$not_pe"
head -c 1000 "$V3/arm64-v8a/assembly-store.so" > "$T_TMP/broken.so"
bad() { # bad NAME WANT_RC ARGS...
    local name=$1 want=$2; shift 2
    "$ASMSTORE" repack "$@" >"$T_TMP/bad.log" 2>&1; local rc=$?
    if [ $rc = "$want" ] && [ "$(cat "$T_TMP/keep.so")" = old ] && [ -s "$T_TMP/bad.log" ] && ! ls "$T_TMP"/keep.so.tmp.* >/dev/null 2>&1; then t_ok "$name (exit $want)"
    else t_fail "$name" "exit $rc, want $want"; cat "$T_TMP/bad.log"; fi
}
bad "a broken IN is refused" 1 "$T_TMP/broken.so" -o "$T_TMP/keep.so"
bad "a name not in the store is refused" 1 "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.so" --replace Nope.dll="$BIG"
bad "a replacement that is not a PE file is refused" 1 "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.so" --replace System.Runtime.dll="$not_pe"
bad "--add is refused (libxamarin-app.so would need patching)" 1 "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.so" --add "$BIG"
bad "--remove from a format-1 set is refused" 1 "$SAMPLES/v1-razr-pointcrep" -o "$T_TMP/keep.so" --remove StereoKit
bad "a missing replacement file is an I/O error" 2 "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.so" --replace System.Runtime.dll="$T_TMP/absent.dll"
bad "a missing IN is an I/O error" 2 "$T_TMP/absent.so" -o "$T_TMP/keep.so"
bad "usage: no -o" 2 "$V3/arm64-v8a/assembly-store.so"
bad "an OUT that cannot be written is an I/O error" 2 "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.so/sub/out.so"
grep -q "not a .NET assembly" <("$ASMSTORE" repack "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/x.so" --replace System.Runtime.dll="$not_pe" 2>&1) &&
    t_ok "the not-an-assembly message says why" || t_fail "the not-an-assembly message says why"
# a native PE (MZ, PE, no CLI header) is no assembly either: the same check as verify's
t_pe "$T_TMP/native.dll" 700
$PY - "$T_TMP/native.dll" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
pe = struct.unpack_from("<I", b, 0x3C)[0]
magic = struct.unpack_from("<H", b, pe + 24)[0]
cli_dir = pe + 24 + (96 if magic == 0x10B else 112) + 14 * 8
b[cli_dir:cli_dir + 8] = bytes(8)  # data directory 14 (the CLI header) gone
open(sys.argv[1], "wb").write(b)
EOF
bad "a replacement without a CLI header (a native PE) is refused" 1 "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.so" --replace System.Runtime.dll="$T_TMP/native.dll"
# an unchanged entry whose bytes are no assembly: repack refuses to carry it into a new store
mkdir -p "$T_TMP/dmg"
t_pe "$T_TMP/dmg/A.dll" 900 "$T_TMP/dmg/B.dll" 900
"$ASMSTORE" pack --raw --compression none -o "$T_TMP/dmg.store" "$T_TMP/dmg" >/dev/null 2>&1
$PY - "$T_TMP/dmg.store" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.rindex(b"BSJB")  # the last image's metadata root
b[at:at + 4] = b"XXXX"
open(sys.argv[1], "wb").write(b)
EOF
bad "an unchanged image that is no assembly is refused" 1 "$T_TMP/dmg.store" -o "$T_TMP/keep.so"
grep -q "B.dll: the image is not a .NET assembly" "$T_TMP/bad.log" &&
    t_ok "the refusal names the entry and why" || { t_fail "the refusal names the entry and why"; cat "$T_TMP/bad.log"; }

# ---- APK in one pass: ZIP64 read and written, memory bounded by the store, a damaged input refused ----
if command -v unzip >/dev/null && [ -e "$T_TMP/w-section.so" ]; then
    # 70,000 entries (a ZIP without ZIP64 counts 65,535) around a real store, made by Python's zipfile
    $PY - "$T_TMP/w-section.so" "$T_TMP/z64.apk" 70000 <<'EOF'
import sys, zipfile, struct
store, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    z.writestr("AndroidManifest.xml", b"<manifest/>" * 100, zipfile.ZIP_DEFLATED)
    for i in range(n):
        z.writestr("res/raw/f%05d.txt" % i, b"entry %d\n" % i)
    name = "lib/arm64-v8a/libassembly-store.so"
    zi = zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0))
    data = z.fp.tell() + 30 + len(name) + 4          # with an empty alignment record (0xD935)
    pad = -data % 16384
    zi.extra = struct.pack("<HH", 0xD935, pad) + b"\0" * pad
    z.writestr(zi, open(store, "rb").read())
EOF
    "$ASMSTORE" repack "$T_TMP/z64.apk" -o "$T_TMP/z64-out.apk" >"$T_TMP/z64.log" 2>&1
    t_check "ZIP64 APK (70,000 entries): repack exits 0" bash -c "[ $? = 0 ] || { cat '$T_TMP/z64.log'; exit 1; }"
    t_check "ZIP64 APK: unzip -t passes on the output" unzip -tq "$T_TMP/z64-out.apk"
    # zipalign cannot open a ZIP64 archive: its -c -p 4 rule checked here
    t_check "ZIP64 APK: ZIP64 end records; every entry kept in order (bytes, method, CRC); STORED data 4-aligned, .so 16 KiB" \
        $PY - "$T_TMP/z64.apk" "$T_TMP/z64-out.apk" <<'EOF'
import sys, zipfile, struct
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
raw = open(sys.argv[2], "rb").read()
assert raw.rfind(b"PK\x06\x06") > 0 and raw.rfind(b"PK\x06\x07") > 0, "no ZIP64 end of central directory"
ia, ib = a.infolist(), b.infolist()
assert [i.filename for i in ia] == [j.filename for j in ib], "entry names or order"
for i, j in zip(ia, ib):
    assert (i.compress_type, i.CRC, i.compress_size, i.date_time) == (j.compress_type, j.CRC, j.compress_size, j.date_time), i.filename
    nl, xl = struct.unpack("<HH", raw[j.header_offset + 26:j.header_offset + 30])
    off = j.header_offset + 30 + nl + xl
    if j.compress_type == 0:
        assert off % (16384 if j.filename.endswith(".so") else 4) == 0, "%s data at %d" % (j.filename, off)
for name in ("AndroidManifest.xml", "res/raw/f69999.txt", "lib/arm64-v8a/libassembly-store.so"):
    assert a.read(name) == b.read(name), name
EOF
    t_check "ZIP64 APK: our reader verifies the output" "$ASMSTORE" verify "$T_TMP/z64-out.apk"
else t_skip "ZIP64 APK" "unzip absent, or the wrapper was not made"; fi

if [ -x /usr/bin/time ] && command -v zip >/dev/null && command -v zipalign >/dev/null && [ -d "$T_TMP/apk" ]; then
    # an ordinary APK: 24 MB of assets beside the store (870 KB); repack copies them through a buffer
    A=$T_TMP/apk; mkdir -p "$A/assets"
    head -c 16000000 /dev/urandom > "$A/assets/big1.bin"; head -c 8000000 /dev/urandom > "$A/assets/big2.bin"
    (cd "$A" && zip -q -X ../rss0.apk AndroidManifest.xml assets/big2.bin && zip -q -X -0 ../rss0.apk assets/big1.bin lib/arm64-v8a/libassembly-store.so)
    zipalign -f -p 4 "$T_TMP/rss0.apk" "$T_TMP/rss.apk"
    /usr/bin/time -o "$T_TMP/rss" -f %M "$ASMSTORE" repack "$T_TMP/rss.apk" -o "$T_TMP/rss-out.apk" >/dev/null 2>&1
    rss=$(tail -1 "$T_TMP/rss"); size=$(stat -c %s "$T_TMP/rss.apk")
    t_check "memory: max RSS of repacking a $((size / 1000000)) MB APK (${rss} KiB) is below its size" \
        bash -c "[ -s '$T_TMP/rss-out.apk' ] && [ $((rss * 1024)) -lt $size ]"
    t_check "memory: the output passes unzip -t and zipalign -c -p 4" bash -c "unzip -tq '$T_TMP/rss-out.apk' && zipalign -c -p 4 '$T_TMP/rss-out.apk'"
    # the temp file is renamed over OUT only when it differs (a new inode), as every other output
    before=$(stat -c %i "$T_TMP/rss-out.apk")
    "$ASMSTORE" repack "$T_TMP/rss.apk" -o "$T_TMP/rss-out.apk" >/dev/null 2>&1
    t_check "an unchanged APK output is left untouched (same inode, no temp file left)" \
        bash -c "[ $before = \$(stat -c %i '$T_TMP/rss-out.apk') ] && ! ls '$T_TMP'/rss-out.apk.tmp.* 2>/dev/null"
else t_skip "repack memory" "/usr/bin/time, zip or zipalign absent"; fi

if [ -e "$T_TMP/in.apk" ]; then
    # each damaged the way `unzip -t` would report, in an entry repack copies without reading it as a store
    $PY - "$T_TMP/in.apk" "$T_TMP" <<'EOF'
import sys, zipfile, warnings
warnings.simplefilter("ignore")  # the duplicate name is made on purpose
src, d = sys.argv[1], sys.argv[2]
raw = bytearray(open(src, "rb").read())
i = zipfile.ZipFile(src).getinfo("resources.arsc")
data = i.header_offset + 30 + int.from_bytes(raw[i.header_offset + 26:i.header_offset + 28], "little") + \
    int.from_bytes(raw[i.header_offset + 28:i.header_offset + 30], "little")
crc = bytearray(raw); crc[data + 100] ^= 0xFF
open(d + "/crc.apk", "wb").write(crc)
m = zipfile.ZipFile(src).getinfo("AndroidManifest.xml")
lh = bytearray(raw); lh[m.header_offset + 8] = 0          # local header says STORED, the central one DEFLATE
open(d + "/lh.apk", "wb").write(lh)
# the first entry's sizes (both headers) stretched to the central directory: its data covers the others
cd = int.from_bytes(raw[-6:-2], "little")
first = zipfile.ZipFile(src).infolist()[0]
ov = bytearray(raw); h = first.header_offset
span = cd - (h + 30 + int.from_bytes(raw[h + 26:h + 28], "little") + int.from_bytes(raw[h + 28:h + 30], "little"))
ov[h + 18:h + 22] = span.to_bytes(4, "little")
c = raw.find(b"PK\x01\x02" , cd)
ov[c + 20:c + 24] = span.to_bytes(4, "little")
open(d + "/overlap.apk", "wb").write(ov)
with zipfile.ZipFile(d + "/dup.apk", "w") as z:
    z.write(d + "/apk/lib/arm64-v8a/libassembly-store.so", "lib/arm64-v8a/libassembly-store.so")
    z.writestr("res/a.txt", b"one")
    z.writestr("res/a.txt", b"two")
EOF
    bad "damaged APK: a STORED entry whose data has another CRC-32 is refused" 1 "$T_TMP/crc.apk" -o "$T_TMP/keep.so"
    t_check "damaged APK: the CRC message names the entry" grep -q "damaged archive.*resources.arsc" "$T_TMP/bad.log"
    bad "damaged APK: a local header that disagrees with the central directory is refused" 1 "$T_TMP/lh.apk" -o "$T_TMP/keep.so"
    t_check "damaged APK: the local header message says damaged archive" grep -q "damaged archive" "$T_TMP/bad.log"
    bad "damaged APK: entries whose data overlap are refused" 1 "$T_TMP/overlap.apk" -o "$T_TMP/keep.so"
    t_check "damaged APK: the overlap message names the entry" grep -q "damaged archive: entry .* overlaps" "$T_TMP/bad.log"
    bad "damaged APK: two entries of one name are refused" 1 "$T_TMP/dup.apk" -o "$T_TMP/keep.so" 2>/dev/null
    t_check "damaged APK: the message names the duplicate" grep -q "two entries are named res/a.txt" "$T_TMP/bad.log"
fi
t_done
