#!/usr/bin/env bash
# The CLI against inputs an attacker picks: 200,000 entries (load --all, load NAME..., extract
# NAME... stay linear), names that are not valid UTF-8 or hold quotes and control characters
# (list --json stays valid JSON), and extract's own manners (a STORE that does not open creates no
# -C DIR; success says what was written). Stores come from tests/lib/plain_store.py.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
LIMIT=20 # seconds: generous, so timing noise never fails a test (measured: under 1 s each)
if ! $PY -c 'import xxhash, zstandard' 2>/dev/null; then
  t_skip "CLI hardening" "needs python3-xxhash and python3-zstandard (Debian)"; t_done; exit; fi

# --- extract: a STORE that does not open creates nothing; success prints what it wrote ---
head -c 100 /dev/urandom >"$T_TMP/garbage"
"$ASMSTORE" extract "$T_TMP/garbage" -C "$T_TMP/never" >/dev/null 2>&1; rc=$?
if [ "$rc" != 0 ] && [ ! -e "$T_TMP/never" ]; then t_ok "extract of a bad STORE exits $rc and does not create -C DIR"
else t_fail "extract of a bad STORE" "rc=$rc, DIR exists: $([ -e "$T_TMP/never" ] && echo yes || echo no)"; fi
$PY "$TOP/tests/lib/plain_store.py" "$T_TMP/three.store" count 3
"$ASMSTORE" extract "$T_TMP/three.store" -C "$T_TMP/three" >"$T_TMP/out" 2>&1; rc=$?
want="extracted 3 files ($(cat "$T_TMP"/three/*.dll | wc -c) bytes) to $T_TMP/three"
t_check "extract prints what it wrote: '$want'" test "$rc:$(cat "$T_TMP/out")" = "0:$want"

# --- 200,000 entries: every command that walks or looks up many names is linear ---
# run NAME CMD...: CMD must exit 0 within LIMIT seconds (it is killed at 3 x LIMIT)
run() {
  local name=$1 t0 t1 rc ms; shift
  t0=$(date +%s%N); timeout $((3 * LIMIT)) "$@" >"$T_TMP/run.out" 2>"$T_TMP/run.err"; rc=$?; t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  if [ "$rc" = 0 ] && [ "$ms" -lt $((LIMIT * 1000)) ]; then t_ok "$name: $ms ms (limit ${LIMIT} s)"
  else t_fail "$name" "exit $rc after $ms ms (limit ${LIMIT} s) $(head -2 "$T_TMP/run.err")"; fi
}
N=200000
$PY "$TOP/tests/lib/plain_store.py" "$T_TMP/big.store" count $N
run "load --all over $N entries" "$ASMSTORE" load "$T_TMP/big.store" --all
t_check "load --all printed all $N entries" test "$(wc -l <"$T_TMP/run.out")" = $N
# 1000 names spread over the store (every 200th entry, the last one included)
names=$(seq 199 200 $((N - 1)) | awk '{printf "A%07d.dll\n", $1}')
# shellcheck disable=SC2086
run "load of 1000 names over $N entries" "$ASMSTORE" load "$T_TMP/big.store" $names
# shellcheck disable=SC2086
run "extract of 1000 names over $N entries" "$ASMSTORE" extract "$T_TMP/big.store" -C "$T_TMP/big" $names
t_check "extract wrote exactly the 1000 named entries" test "$(ls "$T_TMP/big" | wc -l):$(tail -c 13 "$T_TMP/big/A0199999.dll")" = "1000:image 199999"

# --- pack of more input files than the process may map (vm.max_map_count) ---
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$maps" -gt 0 ] && [ "$maps" -le 300000 ]; then
  n=$((maps + 5000))
  t_pe "$T_TMP/one.dll" 700
  $PY - "$T_TMP/one.dll" "$T_TMP/many" $n <<'EOF'
import os, sys
image = open(sys.argv[1], "rb").read()
os.mkdir(sys.argv[2])
for i in range(int(sys.argv[3])):
    with open("%s/M%06d.dll" % (sys.argv[2], i), "wb") as f:
        f.write(image)
EOF
  "$ASMSTORE" pack --raw -o "$T_TMP/many.store" "$T_TMP/many" >"$T_TMP/many.out" 2>&1
  t_check "pack of $n files (vm.max_map_count $maps): exit 0 ($(tail -1 "$T_TMP/many.out"))" \
    test $? = 0
  t_check "pack of $n files: every file is an entry" \
    test "$("$ASMSTORE" list "$T_TMP/many.store" | grep -c ' M[0-9]*\.dll$')" = $n
  rm -rf "$T_TMP/many" "$T_TMP/many.store"
else
  t_skip "pack past vm.max_map_count" "the limit is $maps (unreadable or above 300,000)"
fi

# --- list --json: valid JSON whatever the bytes of a name ---
# json_string's rule: quotes, backslashes and control characters escaped, valid UTF-8 as is, and
# \ufffd for each byte that does not start a valid sequence
cat >"$T_TMP/json_check.py" <<'EOF'
import json, sys
def expect(b):
    out, i = [], 0
    while i < len(b):
        n = 1 if b[i] < 0x80 else 4 if b[i] >= 0xF0 else 3 if b[i] >= 0xE0 else 2
        try:
            out.append(b[i:i + n].decode("utf-8")); i += n
        except UnicodeDecodeError:
            out.append("\ufffd"); i += 1
    return "".join(out)
got = [e["name"] for s in json.load(open(sys.argv[1], encoding="utf-8"))["stores"] for e in s["entries"]]
want = [expect(bytes.fromhex(h)) for h in sys.argv[2:]]
sys.exit(0 if got == want else "got %r\nwant %r" % (got, want))
EOF
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
valid="$(hex 'q"uote\back.dll') $(printf 'ctl\001\037\177.dll' | od -An -tx1 | tr -d ' \n') $(hex 'fr/é日本😀.dll')"
invalid="ff2e646c6c c3282e646c6c eda0802e646c6c c0af2e646c6c f49080802e646c6c 802e646c6c 412e646c6ce282"
# shellcheck disable=SC2086
$PY "$TOP/tests/lib/plain_store.py" "$T_TMP/ctl.store" names $valid
"$ASMSTORE" list --json "$T_TMP/ctl.store" >"$T_TMP/ctl.json" 2>"$T_TMP/err"
# shellcheck disable=SC2086
if $PY -m json.tool "$T_TMP/ctl.json" >/dev/null 2>"$T_TMP/jerr" && $PY "$T_TMP/json_check.py" "$T_TMP/ctl.json" $valid 2>>"$T_TMP/jerr"; then
  t_ok "list --json: quotes, backslashes, control characters and UTF-8 names are valid JSON and read back exactly"
else t_fail "list --json, escapes" "$(head -3 "$T_TMP/jerr") $(head -c 300 "$T_TMP/ctl.json")"; fi
# shellcheck disable=SC2086
$PY "$TOP/tests/lib/plain_store.py" "$T_TMP/bad8.store" names $invalid
"$ASMSTORE" list --json "$T_TMP/bad8.store" >"$T_TMP/bad8.json" 2>"$T_TMP/err"; rc=$?
if [ "$rc" = 1 ] && grep -q "entry name is not valid UTF-8" "$T_TMP/err"; then
  t_ok "list --json: a store with invalid UTF-8 names is refused at open ($(head -1 "$T_TMP/err"))"
# shellcheck disable=SC2086
elif [ "$rc" = 0 ] && $PY -m json.tool "$T_TMP/bad8.json" >/dev/null 2>"$T_TMP/jerr" &&
     $PY "$T_TMP/json_check.py" "$T_TMP/bad8.json" $invalid 2>>"$T_TMP/jerr"; then
  t_ok "list --json: invalid UTF-8 (stray, truncated, overlong, surrogate, > U+10FFFF) becomes one \\ufffd per byte"
else t_fail "list --json, invalid UTF-8" "rc=$rc $(head -3 "$T_TMP/jerr" "$T_TMP/err" 2>/dev/null)"; fi
# the reader refuses such names at open with a result of its own: verify exits 1 and says so
"$ASMSTORE" verify "$T_TMP/bad8.store" >"$T_TMP/out" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q "not valid UTF-8" "$T_TMP/out"; then t_ok "verify refuses a store with an overlong / surrogate / stray-byte name (exit 1)"
else t_fail "verify on invalid UTF-8 names" "rc=$rc $(cat "$T_TMP/out")"; fi

# --- every image is what it claims: a 1-byte image, a PE cut short and a PE without a CLI header
#     (a native DLL) make verify exit 1 naming the entry, and extract write every entry but that one
#     and exit 1, on formats 1 to 4 (formats 1-3 carry no checksum; before 0.7 verify said ok) ---
# patch_size STORE SRC SIZE: the descriptor whose bytes are SRC's declares SIZE bytes
cat >"$T_TMP/patch_size.py" <<'EOF'
import struct, sys
path, img, size = sys.argv[1], open(sys.argv[2], "rb").read(), int(sys.argv[3])
b = bytearray(open(path, "rb").read())
ver, n = struct.unpack_from("<II", b, 4)
if ver == 1: start, step, field = 20, 24, 0
else: start, step, field = (28 if ver & 0xFFFF == 4 else 20) + struct.unpack_from("<I", b, 16)[0], 28, 4
for i in range(n):
    at = start + i * step + field
    off, have = struct.unpack_from("<II", b, at)
    if b[off:off + have] == img:
        struct.pack_into("<I", b, at + 4, size); open(path, "wb").write(b); sys.exit(0)
sys.exit("no descriptor holds " + sys.argv[2])
EOF
mkdir -p "$T_TMP/img/ok" "$T_TMP/img/native"
t_pe "$T_TMP/img/ok/A.dll" 3000 "$T_TMP/img/ok/B.dll" 3000 "$T_TMP/img/ok/C.dll" 3000
cp "$T_TMP/img/ok/A.dll" "$T_TMP/img/ok/C.dll" "$T_TMP/img/native/"
# B.dll without a CLI header: data directory 14 (at 0x58 + 96 + 8 * 14) zeroed
$PY -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0x128:0x130] = bytes(8); open(sys.argv[2], "wb").write(b)' \
  "$T_TMP/img/ok/B.dll" "$T_TMP/img/native/B.dll"
# store_of FORMAT SRCDIR OUT: OUT is the store file holding B.dll (format 1: the set's assemblies.blob)
store_of() {
  case $1 in
    1) "$ASMSTORE" pack --no-check --target net8 --no-compress -o "$3.set" "$2" >/dev/null 2>&1 && cp "$3.set/assemblies.blob" "$3" &&
       cp "$3.set/assemblies.manifest" "$(dirname "$3")/assemblies.manifest" ;;
    *) "$ASMSTORE" pack --no-check --raw --runtime monovm --format "$1" --no-compress -o "$3" "$2" >/dev/null 2>&1 ;;
  esac
}
for fmt in 1 2 3 4; do
  for how in size1 truncated no-cli; do
    d="$T_TMP/img/f$fmt-$how"; mkdir -p "$d"
    case $how in
      no-cli) store_of $fmt "$T_TMP/img/native" "$d/assemblies.blob" ;;
      size1) store_of $fmt "$T_TMP/img/ok" "$d/assemblies.blob" && $PY "$T_TMP/patch_size.py" "$d/assemblies.blob" "$T_TMP/img/ok/B.dll" 1 ;;
      truncated) store_of $fmt "$T_TMP/img/ok" "$d/assemblies.blob" && $PY "$T_TMP/patch_size.py" "$d/assemblies.blob" "$T_TMP/img/ok/B.dll" 2000 ;;
    esac
    "$ASMSTORE" verify "$d/assemblies.blob" >"$T_TMP/out" 2>&1; rc=$?
    "$ASMSTORE" extract "$d/assemblies.blob" -C "$d/x" >"$T_TMP/xout" 2>"$T_TMP/xerr"; xrc=$?
    if [ "$rc" = 1 ] && grep -q "entry [0-9]* B.dll: the image is not a .NET assembly" "$T_TMP/out" &&
       [ "$xrc" = 1 ] && [ ! -e "$d/x/B.dll" ] && cmp -s "$d/x/A.dll" "$T_TMP/img/ok/A.dll" &&
       cmp -s "$d/x/C.dll" "$T_TMP/img/ok/C.dll" && grep -q "B.dll: not extracted: the image is not" "$T_TMP/xerr"; then
      t_ok "format $fmt, B.dll $how: verify exits 1 and extract writes all but B.dll, naming it ($(grep -o 'not a .NET assembly: [^(]*' "$T_TMP/out"))"
    else t_fail "format $fmt, B.dll $how" "verify $rc: $(cat "$T_TMP/out"); extract $xrc: $(cat "$T_TMP/xerr")"; fi
  done
done
# a compressed image is checked once decompressed; a .pdb and a .config for their own form
t_pe --pdb "$T_TMP/img/native/C.pdb" 500; printf 'not xml' >"$T_TMP/img/native/A.dll.config"
"$ASMSTORE" pack --no-check --raw --runtime monovm --format 3 --pdb -o "$T_TMP/img/z.store" "$T_TMP/img/native" >/dev/null 2>&1
"$ASMSTORE" verify "$T_TMP/img/z.store" >"$T_TMP/out" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q "B.dll: the image is not a .NET assembly: no CLI header" "$T_TMP/out" &&
   grep -q "A.dll: its .config is not XML text" "$T_TMP/out" && ! grep -q "C.dll" "$T_TMP/out"; then
  t_ok "zstd store: the decompressed native B.dll and A.dll's text .config are named, C.dll's Portable PDB passes"
else t_fail "zstd store image check" "rc=$rc $(cat "$T_TMP/out")"; fi

# --- any layout whose images do not overlap is valid, as the runtimes accept it; an overlap names
#     both entries (before 0.7 the reversed store was refused as "out of descriptor order") ---
cat >"$T_TMP/reverse.py" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read()); src = bytes(b)
n, isz = struct.unpack_from("<I", b, 8)[0], struct.unpack_from("<I", b, 16)[0]
d = 20 + isz
offs = [struct.unpack_from("<II", src, d + 28 * i + 4) for i in range(n)]
assert len({s for _, s in offs}) == 1, "images of one size only"
for i in range(n):
    to = offs[n - 1 - i][0]
    b[to:to + offs[i][1]] = src[offs[i][0]:offs[i][0] + offs[i][1]]
    struct.pack_into("<I", b, d + 28 * i + 4, to)
if len(sys.argv) > 2: struct.pack_into("<I", b, d + 4, offs[0][0] + 8)  # A.dll 8 bytes into C.dll's image
open(sys.argv[1], "wb").write(b)
EOF
"$ASMSTORE" pack --raw --runtime monovm --format 3 --no-compress --align-images 1 -o "$T_TMP/rev.store" "$T_TMP/img/ok" >/dev/null 2>&1
cp "$T_TMP/rev.store" "$T_TMP/overlap.store"
$PY "$T_TMP/reverse.py" "$T_TMP/rev.store"; $PY "$T_TMP/reverse.py" "$T_TMP/overlap.store" overlap
"$ASMSTORE" verify "$T_TMP/rev.store" >"$T_TMP/out" 2>&1; rc=$?
"$ASMSTORE" extract "$T_TMP/rev.store" -C "$T_TMP/rev" >/dev/null 2>&1
if [ "$rc" = 0 ] && cmp -s "$T_TMP/rev/A.dll" "$T_TMP/img/ok/A.dll" && cmp -s "$T_TMP/rev/C.dll" "$T_TMP/img/ok/C.dll"; then
  t_ok "images in reverse descriptor order: verify ok, extract gives each entry its own bytes"
else t_fail "reverse layout" "rc=$rc $(cat "$T_TMP/out")"; fi
"$ASMSTORE" verify "$T_TMP/overlap.store" >"$T_TMP/out" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q "image overlaps the image of other_entry (entry 2, other_entry 0)" "$T_TMP/out"; then
  t_ok "an image inside another's: exit 1, both entries named ($(grep -o 'image overlaps.*' "$T_TMP/out" | head -1))"
else t_fail "overlap" "rc=$rc $(cat "$T_TMP/out")"; fi
t_done
