#!/bin/bash
# tests/t_cli_sign.sh - asmstore repack --sign-key/--sign-cert: an APK built with zip + zipalign around
# the real v3 sample's stores (wrapped as libassembly-store.so) comes out signed with APK Signature
# Scheme v2 + v3 for RSA 2048 (PKCS#8 and traditional) and EC P-256 (PKCS#8 and traditional) keys:
# Debian's apksigner verifies it (v2 and v3 true), a flipped byte makes it fail, elfcheck, unzip -t and
# our verify pass, the entries are byte for byte those of the unsigned repack (the block sits before the
# central directory, padded to 4 KiB); bad keys, mismatched pairs, AABs and non-APKs are refused with
# OUT untouched; without a key the message says how to sign (and an AAB's says jarsigner). A FIFO or a
# directory as --sign-key/--sign-cert is refused at once; EC curves and RSA exponents Android's verifiers
# refuse are refused naming them, P-384 and P-521 verify.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
V3=$SAMPLES/v3-watercountdown-widget
SMALL=$(readlink -f "$MONO45/Accessibility.dll" 2>/dev/null) # 12288 bytes: fits System.Linq's 13824

if [ ! -d "$SAMPLES" ]; then t_skip "repack --sign-key" "samples absent (set SAMPLES=.../assembly-store-samples)"; t_done; exit; fi
for tool in openssl zip zipalign unzip; do
    command -v $tool >/dev/null || { t_skip "repack --sign-key" "$tool absent (Debian: apt-get install $tool)"; t_done; exit; }
done
HAVE_APKSIGNER=1
command -v apksigner >/dev/null || { HAVE_APKSIGNER=0; t_skip "apksigner verify" "apksigner absent (Debian: apt-get install apksigner)"; }

# ---- keys and certificates ----
K=$T_TMP/keys; mkdir -p "$K"
mk() { openssl req -new -x509 -key "$K/$1.pem" -subj "/CN=asmstore test $1" -days 3650 -out "$K/$1.crt" 2>/dev/null; }
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$K/rsa8.pem" 2>/dev/null
openssl rsa -in "$K/rsa8.pem" -traditional -out "$K/rsatrad.pem" 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$K/ec8.pem" 2>/dev/null
openssl ec -in "$K/ec8.pem" -out "$K/ectrad.pem" 2>/dev/null
for k in rsa8 rsatrad ec8 ectrad; do mk $k; done
t_check "keys: PKCS#8 and traditional PEM made for RSA and EC" bash -c \
    "grep -q 'BEGIN PRIVATE KEY' '$K/rsa8.pem' && grep -q 'BEGIN RSA PRIVATE KEY' '$K/rsatrad.pem' && grep -q 'BEGIN PRIVATE KEY' '$K/ec8.pem' && grep -q 'BEGIN EC PRIVATE KEY' '$K/ectrad.pem'"

# ---- the APK: both ABIs' stores, a STORED and a DEFLATEd entry, an old v1 signature ----
A=$T_TMP/apk; mkdir -p "$A/lib/arm64-v8a" "$A/lib/x86_64" "$A/META-INF" "$A/res"
"$ASMSTORE" wrap -o "$A/lib/arm64-v8a/libassembly-store.so" --abi arm64 --mode section "$V3/arm64-v8a/assembly-store.so" >/dev/null
"$ASMSTORE" wrap -o "$A/lib/x86_64/libassembly-store.so" --abi x86_64 --mode section "$V3/x86_64/assembly-store.so" >/dev/null
seq 1 3000 >"$A/AndroidManifest.xml"; seq 1 500 >"$A/res/layout.xml"; head -c 777 /dev/urandom >"$A/resources.arsc"
echo "Manifest-Version: 1.0" >"$A/META-INF/MANIFEST.MF"; echo rsa >"$A/META-INF/CERT.RSA"
(cd "$A" && zip -q -X ../in0.apk AndroidManifest.xml res/layout.xml META-INF/MANIFEST.MF META-INF/CERT.RSA &&
    zip -q -X -0 ../in0.apk resources.arsc lib/arm64-v8a/libassembly-store.so lib/x86_64/libassembly-store.so)
zipalign -f -p 4 "$T_TMP/in0.apk" "$T_TMP/in.apk"
IN=$T_TMP/in.apk

# ---- without a key: the message says how to sign without moving entries ----
"$ASMSTORE" repack "$IN" -o "$T_TMP/unsigned.apk" 2>"$T_TMP/nokey.log"
t_check "no key: the message gives the asmstore command that signs" grep -q -- "asmstore repack .*unsigned.apk --sign-key key.pem --sign-cert cert.pem" "$T_TMP/nokey.log"
t_check "no key: the message warns that aligners move lib/<abi>/*.so to 4 KiB" grep -q "zipalign without -P 16 puts lib/<abi>/\*.so at 4 KiB and apksigner before build-tools 35" "$T_TMP/nokey.log"

# the entries section of an archive (up to its signing block, or its central directory)
entries_end() {
    $PY - "$1" <<'EOF'
import sys
raw = open(sys.argv[1], "rb").read()
e = raw.rfind(b"PK\x05\x06")
cd = int.from_bytes(raw[e + 16:e + 20], "little")
if raw[cd - 16:cd] == b"APK Sig Block 42":
    cd -= int.from_bytes(raw[cd - 24:cd - 16], "little") + 8
print(cd)
EOF
}
# the signing block: right before the central directory, both schemes' ids, its size a multiple of 4096
block_ok() {
    $PY - "$1" <<'EOF'
import sys
raw = open(sys.argv[1], "rb").read()
e = raw.rfind(b"PK\x05\x06")
cd = int.from_bytes(raw[e + 16:e + 20], "little")
assert raw[cd - 16:cd] == b"APK Sig Block 42", "no signing block before the central directory"
size = int.from_bytes(raw[cd - 24:cd - 16], "little")
start = cd - size - 8
assert int.from_bytes(raw[start:start + 8], "little") == size, "the two size fields differ"
assert (size + 8) % 4096 == 0, "block of %d bytes" % (size + 8)
ids, i = [], start + 8
while i < cd - 24:
    n = int.from_bytes(raw[i:i + 8], "little")
    ids.append(int.from_bytes(raw[i + 8:i + 12], "little"))
    i += 8 + n
assert i == cd - 24, "pairs overrun the block"
assert ids[:2] == [0x7109871a, 0xf05368c0], [hex(x) for x in ids]
EOF
}
# the data offset of entry NAME
data_offset() {
    $PY - "$1" "$2" <<'EOF'
import sys, zipfile
raw = open(sys.argv[1], "rb").read()
i = zipfile.ZipFile(sys.argv[1]).getinfo(sys.argv[2])
h = i.header_offset
print(h + 30 + int.from_bytes(raw[h + 26:h + 28], "little") + int.from_bytes(raw[h + 28:h + 30], "little"))
EOF
}
verifies() { # APK: apksigner accepts it with both schemes
    apksigner verify --verbose --min-sdk-version 24 "$1" >"$T_TMP/vfy.log" 2>&1 || { cat "$T_TMP/vfy.log"; return 1; }
    grep -q "Verified using v2 scheme (APK Signature Scheme v2): true" "$T_TMP/vfy.log" &&
        grep -q "Verified using v3 scheme (APK Signature Scheme v3): true" "$T_TMP/vfy.log" || { cat "$T_TMP/vfy.log"; return 1; }
}

# ---- signed, for each kind of key ----
UNS_END=$(entries_end "$T_TMP/unsigned.apk")
for k in rsa8 rsatrad ec8 ectrad; do
    O=$T_TMP/signed-$k.apk
    if ! "$ASMSTORE" repack "$IN" -o "$O" --sign-key "$K/$k.pem" --sign-cert "$K/$k.crt" 2>"$T_TMP/sign.log"; then
        t_fail "$k: repack --sign-key exits 0" "$(cat "$T_TMP/sign.log")"; continue
    fi
    t_check "$k: the message says it is signed (v2 + v3)" grep -q "signed (APK Signature Scheme v2 + v3" "$T_TMP/sign.log"
    [ $HAVE_APKSIGNER = 1 ] && t_check "$k: apksigner verify --min-sdk-version 24: v2 and v3 true" verifies "$O"
    t_check "$k: the signing block is before the central directory, v2 then v3, padded to 4096" block_ok "$O"
    t_check "$k: the entries are byte for byte the unsigned repack's (no entry moved)" \
        bash -c "[ \$(bash -c '$(declare -f entries_end); PY=$PY; entries_end \"$O\"') = $UNS_END ] && cmp -n $UNS_END '$O' '$T_TMP/unsigned.apk'"
    t_check "$k: unzip -t passes" unzip -tq "$O"
    t_check "$k: elfcheck passes on the store entries (16 KiB alignment kept)" "$ASMSTORE" elfcheck "$O"
    t_check "$k: our verify passes" "$ASMSTORE" verify "$O"
    t_check "$k: old META-INF signature files are not copied" bash -c "! unzip -l '$O' | grep -q META-INF/"
done
for abi in arm64-v8a x86_64; do
    off=$(data_offset "$T_TMP/signed-ec8.apk" lib/$abi/libassembly-store.so)
    [ $((off % 16384)) = 0 ] && t_ok "$abi store entry's data at a 16 KiB multiple ($off)" || t_fail "$abi store entry at $off"
done

# ---- the command the no-key message gives, run as given (in place) ----
cp "$T_TMP/unsigned.apk" "$T_TMP/inplace.apk"
t_check "the no-key message's command signs the APK in place" bash -c \
    "'$ASMSTORE' repack '$T_TMP/inplace.apk' -o '$T_TMP/inplace.apk' --sign-key '$K/ec8.pem' --sign-cert '$K/ec8.crt' 2>/dev/null && $(declare -f block_ok); PY=$PY; block_ok '$T_TMP/inplace.apk' && cmp -n $UNS_END '$T_TMP/inplace.apk' '$T_TMP/unsigned.apk'"
[ $HAVE_APKSIGNER = 1 ] && t_check "the in-place signed APK: apksigner verifies it" verifies "$T_TMP/inplace.apk"

# ---- what the message warns of: an entry before the stores grows, zipalign -p 4 puts them at 4 KiB;
# repack --sign-key puts them back at 16 KiB, signed ----
mkdir -p "$T_TMP/grow"; cp "$T_TMP/unsigned.apk" "$T_TMP/grow/g.apk"; seq 1 5000 >"$T_TMP/grow/AndroidManifest.xml"
(cd "$T_TMP/grow" && zip -q g.apk AndroidManifest.xml) && zipalign -f -p 4 "$T_TMP/grow/g.apk" "$T_TMP/grow/za.apk"
t_check "zipalign -p 4 after an earlier entry grew: elfcheck refuses the store (not 16 KiB)" bash -c \
    "! '$ASMSTORE' elfcheck '$T_TMP/grow/za.apk' && '$ASMSTORE' elfcheck '$T_TMP/grow/za.apk' 2>&1 | grep -q '16 KiB'"
t_check "repack --sign-key of that APK: elfcheck passes again, signed" bash -c \
    "'$ASMSTORE' repack '$T_TMP/grow/za.apk' -o '$T_TMP/grow/fixed.apk' --sign-key '$K/rsa8.pem' --sign-cert '$K/rsa8.crt' 2>/dev/null &&
     '$ASMSTORE' elfcheck '$T_TMP/grow/fixed.apk' && $(declare -f block_ok); PY=$PY; block_ok '$T_TMP/grow/fixed.apk'"

# ---- a changed store, signed ----
if [ -e "$SMALL" ] && [ $HAVE_APKSIGNER = 1 ]; then
    t_check "--replace + --sign-key: apksigner verifies, elfcheck and verify pass" bash -c \
        "'$ASMSTORE' repack '$IN' -o '$T_TMP/replaced.apk' --replace System.Linq.dll='$SMALL' --sign-key '$K/rsa8.pem' --sign-cert '$K/rsa8.crt' 2>/dev/null &&
         $(declare -f verifies); T_TMP='$T_TMP'; verifies '$T_TMP/replaced.apk' && '$ASMSTORE' elfcheck '$T_TMP/replaced.apk' && '$ASMSTORE' verify '$T_TMP/replaced.apk'"
fi

# ---- the signature covers the bytes: one flipped byte in an entry, in the central directory ----
if [ $HAVE_APKSIGNER = 1 ]; then
    $PY - "$T_TMP/signed-rsa8.apk" "$T_TMP" <<'EOF'
import sys
src, d = sys.argv[1], sys.argv[2]
raw = open(src, "rb").read()
a = bytearray(raw); a[100] ^= 1                 # inside the first entry's data
open(d + "/flip-entry.apk", "wb").write(a)
e = raw.rfind(b"PK\x05\x06")
cd = int.from_bytes(raw[e + 16:e + 20], "little")
b = bytearray(raw); b[cd + 12] ^= 1             # the first central record's time
open(d + "/flip-cd.apk", "wb").write(b)
EOF
    t_check "a flipped byte in an entry: apksigner verify fails" bash -c "! apksigner verify --min-sdk-version 24 '$T_TMP/flip-entry.apk' >/dev/null 2>&1"
    t_check "a flipped byte in the central directory: apksigner verify fails" bash -c "! apksigner verify --min-sdk-version 24 '$T_TMP/flip-cd.apk' >/dev/null 2>&1"
fi

# ---- the README's signing walk-through, run as written where a fresh clone runs it (build/ only, no
# ../shared beside it; its /tmp directory moved into T_TMP): an APK around a store of Mono's facades ----
awk '/^\*\*Signing\.\*\*/{f=1} f&&/^```sh/{g=1; next} g&&/^```/{exit} g' "$TOP/README.md" |
    sed "s|D=/tmp/signing|D=$T_TMP/readme|" >"$T_TMP/readme.sh"
mkdir -p "$T_TMP/clone" && ln -sfn "$BUILD" "$T_TMP/clone/build"
if [ $HAVE_APKSIGNER = 1 ] && [ -d "$MONO45/Facades" ]; then
    t_check "README's signing walk-through runs as written: apksigner v2 + v3 true, elfcheck ok" bash -c \
        "grep -q 'sign-key' '$T_TMP/readme.sh' && ! grep -q '\.\./shared' '$T_TMP/readme.sh' && cd '$T_TMP/clone' &&
         bash -e '$T_TMP/readme.sh' >'$T_TMP/readme.log' 2>&1 &&
         grep -q 'v2 scheme (APK Signature Scheme v2): true' '$T_TMP/readme.log' && grep -q 'v3 scheme (APK Signature Scheme v3): true' '$T_TMP/readme.log' &&
         grep -q 'lib/arm64-v8a: ok' '$T_TMP/readme.log' || { cat '$T_TMP/readme.log'; false; }"
fi

# ---- refusals: exit code, OUT untouched ----
refused() { # NAME CODE GREP ARGS...: exits CODE, says GREP, OUT (keep.apk) as it was
    local n=$1 code=$2 msg=$3; shift 3
    echo keep >"$T_TMP/keep.apk"
    timeout 20 "$ASMSTORE" repack "$@" 2>"$T_TMP/bad.log" </dev/null; local rc=$? # 124: it hung
    if [ $rc != "$code" ]; then t_fail "$n" "exit $rc, not $code: $(cat "$T_TMP/bad.log")"
    elif ! grep -q -- "$msg" "$T_TMP/bad.log"; then t_fail "$n" "no '$msg' in: $(cat "$T_TMP/bad.log")"
    elif [ "$(cat "$T_TMP/keep.apk")" != keep ] || ls "$T_TMP"/keep.apk.tmp.* >/dev/null 2>&1; then t_fail "$n" "OUT changed or a temp file left"
    else t_ok "$n (exit $code, OUT untouched)"; fi
}
refused "a certificate of another key is refused" 1 "is not the certificate of the key" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$K/ec8.crt"
refused "a key file that is not there is refused" 2 "cannot read the signing key" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/none.pem" --sign-cert "$K/rsa8.crt"
refused "a certificate file that is not there is refused" 2 "cannot read the signing certificate" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$K/none.crt"
refused "a key file holding no key (the certificate) is refused" 1 "no PEM private key found" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.crt" --sign-cert "$K/rsa8.crt"
openssl pkey -in "$K/rsa8.pem" -aes256 -passout pass:secret -out "$K/enc.pem" 2>/dev/null
refused "an encrypted key is refused, not prompted for" 1 "without a password" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/enc.pem" --sign-cert "$K/rsa8.crt" </dev/null
refused "a certificate file holding no certificate is refused" 1 "no PEM X.509 certificate found" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$K/rsa8.pem"
refused "--sign-key without --sign-cert is a usage error" 2 "go together" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem"
refused "--sign-key on a store that is no APK is refused" 2 "signs APKs, and this is no APK" \
    "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$K/rsa8.crt"

# ---- what cannot be read to its end: a FIFO blocks a plain open, a directory holds no key ----
mkfifo "$T_TMP/fifo"
refused "a FIFO as --sign-key is refused, never waited on" 2 "cannot read the signing key: .*pipe, socket or device" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$T_TMP/fifo" --sign-cert "$K/rsa8.crt"
refused "a FIFO as --sign-cert is refused, never waited on" 2 "cannot read the signing certificate: .*pipe, socket or device" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$T_TMP/fifo"
refused "a directory as --sign-key is named as one" 2 "cannot read the signing key: Is a directory; give a file, not a directory" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K" --sign-cert "$K/rsa8.crt"

# ---- keys Android's v2/v3 verifiers refuse (apksigner: "Curve not supported"; the device's
# BoringSSL: an RSA exponent above 33 bits) are refused, naming the curve; P-384, P-521 and a
# 33-bit exponent are taken and verify ----
for c in P-384 P-521 P-224 secp256k1 brainpoolP256r1; do
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:$c -out "$K/ec-$c.pem" 2>/dev/null && mk ec-$c
done
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -pkeyopt rsa_keygen_pubexp:8589934591 -out "$K/rsa-e33.pem" 2>/dev/null && mk rsa-e33
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -pkeyopt rsa_keygen_pubexp:8589934593 -out "$K/rsa-e34.pem" 2>/dev/null && mk rsa-e34
for k in ec-P-384 ec-P-521 rsa-e33; do
    t_check "$k: signed, and apksigner verifies it" bash -c \
        "'$ASMSTORE' repack '$IN' -o '$T_TMP/$k.apk' --sign-key '$K/$k.pem' --sign-cert '$K/$k.crt' 2>/dev/null &&
         { [ $HAVE_APKSIGNER = 0 ] || apksigner verify --min-sdk-version 24 '$T_TMP/$k.apk'; }"
done
refused "an EC key on P-224 is refused, naming the curve" 1 "an EC key on curve secp224r1, which Android's APK signature verifiers refuse" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/ec-P-224.pem" --sign-cert "$K/ec-P-224.crt"
refused "an EC key on secp256k1 is refused, naming the curve" 1 "curve secp256k1, .*P-256, P-384 or P-521" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/ec-secp256k1.pem" --sign-cert "$K/ec-secp256k1.crt"
refused "an EC key on brainpoolP256r1 is refused, naming the curve" 1 "curve brainpoolP256r1" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/ec-brainpoolP256r1.pem" --sign-cert "$K/ec-brainpoolP256r1.crt"
refused "an RSA key with a 34-bit exponent is refused" 1 "public exponent of 34 bits, which Android's APK signature verifiers refuse" \
    "$IN" -o "$T_TMP/keep.apk" --sign-key "$K/rsa-e34.pem" --sign-cert "$K/rsa-e34.crt"

# ---- an APK that needs ZIP64 (70,000 entries): APK signing does not allow it ----
$PY - "$A/lib/arm64-v8a/libassembly-store.so" "$T_TMP/z64.apk" 70000 <<'EOF'
import sys, zipfile
store, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    for i in range(n):
        z.writestr("res/raw/f%05d.txt" % i, b"entry %d\n" % i)
    z.writestr("lib/arm64-v8a/libassembly-store.so", open(store, "rb").read())
EOF
refused "an APK that needs ZIP64 is refused when signing" 2 "needs ZIP64.*which APK signing does not allow" \
    "$T_TMP/z64.apk" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$K/rsa8.crt"

# ---- AAB: signed with jarsigner ----
B=$T_TMP/aab; mkdir -p "$B/base/lib/arm64-v8a"
cp "$A/lib/arm64-v8a/libassembly-store.so" "$B/base/lib/arm64-v8a/"
(cd "$B" && zip -q -X -0 ../in.aab base/lib/arm64-v8a/libassembly-store.so)
refused "--sign-key on an AAB is refused, naming jarsigner" 2 "an AAB is signed with jarsigner" \
    "$T_TMP/in.aab" -o "$T_TMP/keep.apk" --sign-key "$K/rsa8.pem" --sign-cert "$K/rsa8.crt"
"$ASMSTORE" repack "$T_TMP/in.aab" -o "$T_TMP/out.aab" 2>"$T_TMP/aab.log"
t_check "AAB without a key: the message says jarsigner, not apksigner" bash -c \
    "grep -q 'jarsigner -keystore' '$T_TMP/aab.log' && ! grep -q 'apksigner sign\|--sign-key' '$T_TMP/aab.log'"
t_done
