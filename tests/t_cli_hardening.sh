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
t_check "extract wrote exactly the 1000 named entries" test "$(ls "$T_TMP/big" | wc -l):$(cat "$T_TMP/big/A0199999.dll")" = "1000:image 199999"

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
got = [e["name"] for e in json.load(open(sys.argv[1], encoding="utf-8"))]
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
t_done
