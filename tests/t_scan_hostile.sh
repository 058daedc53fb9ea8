#!/bin/bash
# tests/t_scan_hostile.sh - asmstore scan over hostile inputs (issue 41's "Bad input"): a few hundred
# mutants of every input kind (raw stores of formats 2-4 and a real one, .so wrappers, .NET 6-8 sets
# made here and a real one, APKs with the store STORED or DEFLATEd, the real arm64 store and its
# libxamarin-app.so, an AAB), made by tests/lib/scan_mutants.py with a fixed seed (bytes flipped, cut
# short, size/offset/count fields set to 0xFFFFFFFF, 0, 0x80000000, the store inside a sound archive
# mutated), with tests/lib/zip_cases.py's broken archives and zip bomb, through `scan --jobs 2
# --timeout 20`: one valid line per input, in order, never a worker killed by a signal nor a
# timeout, in bounded time. A walked directory with a link loop, a dangling link, a FIFO, a socket,
# an unreadable file and an unreadable directory (as an unprivileged user when run as root):
# neither loops nor blocks, and the directory that does not open gets its own line.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
T=$T_TMP
SEED=${SCAN_HOSTILE_SEED:-41}
F=$MONO45/Facades
V3=$SAMPLES/v3-watercountdown-widget

if [ ! -e "$F/System.Runtime.dll" ] || [ ! -d "$V3" ]; then
  t_skip "scan of hostile inputs" "Mono's 4.5 assemblies or the real samples absent"; t_done; exit
fi
# the bases: small stores of real assemblies for every layout, and the real samples
in=("$F/System.Runtime.dll" "$F/System.Collections.dll" "$MONO45/Accessibility.dll")
"$ASMSTORE" pack --raw --format 2 --runtime monovm -o "$T/raw2.bin" "${in[@]}" >/dev/null 2>&1
"$ASMSTORE" pack --raw --format 3 -o "$T/raw3.bin" "${in[@]}" >/dev/null 2>&1
"$ASMSTORE" pack --raw --format 4 --compression lz4 -o "$T/raw4.bin" "${in[@]}" >/dev/null 2>&1
"$ASMSTORE" pack --target net9 -o "$T/n9.so" "${in[@]}" >/dev/null 2>&1
"$ASMSTORE" pack --target net10 --runtime coreclr --compression lz4 --wrap dlopen -o "$T/n10.so" "${in[@]}" >/dev/null 2>&1
"$ASMSTORE" pack --target net8 --arch arm64 "$F/System.Runtime.dll" --arch x86_64 "$F/System.Runtime.dll" \
    -o "$T/set8" "$F/System.Collections.dll" "$MONO45/Accessibility.dll" >/dev/null 2>&1
"$ASMSTORE" wrap -o "$T/v3.so" --abi arm64 "$V3/arm64-v8a/assembly-store.so" >/dev/null
M=$T/mutants
$PY "$TOP/tests/lib/scan_mutants.py" "$SEED" "$M" store:"$T/raw2.bin" store:"$T/raw3.bin" store:"$T/raw4.bin" \
    store:"$V3/x86_64/assembly-store.so" so:"$T/n9.so" so:"$T/n10.so" set:"$T/set8" set:"$SAMPLES/v1-expandroid" \
    apk-stored:"$T/v3.so,$V3/arm64-v8a/libxamarin-app.so" apk-deflated:"$T/n10.so" aab:"$T/n9.so"
for c in bomb ratio declared-short crc-stored crc-deflated local-size local-method; do
  $PY "$TOP/tests/lib/zip_cases.py" "$M/zip-$c.apk" "$c" $([ $c != bomb ] && echo "$T/raw3.bin") && echo "$M/zip-$c.apk" >>"$M/list"
done
n=$(wc -l <"$M/list")
t0=$(date +%s)
timeout 300 "$ASMSTORE" scan --jobs 2 --timeout 20 "@$M/list" >"$T/h.ndjson" 2>"$T/h.err"; rc=$?
secs=$(( $(date +%s) - t0 ))
t_check "$n mutants (seed $SEED): exit 0-2, one valid line each, in order, no signal, no timeout, $secs s (< 120)" \
    $PY - "$T/h.ndjson" "$M/list" "$rc" "$secs" <<'PYEOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
want = open(sys.argv[2]).read().splitlines()
assert sys.argv[3] in ("0", "1", "2"), "exit status " + sys.argv[3]
assert int(sys.argv[4]) < 120, sys.argv[4] + " s"
assert len(lines) == len(want), (len(lines), len(want))
for line, path in zip(lines, want):
    d = json.loads(line)
    assert d["input"] == path, (d["input"], path)
    why = (d["error"] or {}).get("message", "")
    assert "worker reading it stopped" not in why and "timed out" not in why, (path, why)
    assert d["error"] or isinstance(d["findings"], list), path
PYEOF
t_check "mutants: findings and errors both seen (the mutants reach the parsers)" \
    bash -c "grep -q '\"code\": \"damaged-' '$T/h.ndjson' && grep -q '\"error\": {' '$T/h.ndjson' && grep -q '\"error\": null' '$T/h.ndjson'"

# ---- a walk over what must neither loop nor block, and what cannot be read ----
W=$T/walk
mkdir -p "$W/a" "$W/locked" "$W/z"
cp "$T/raw3.bin" "$W/a/s.bin"; cp "$T/raw3.bin" "$W/locked/in.bin"; cp "$T/raw3.bin" "$W/z/s.bin"; cp "$T/raw3.bin" "$W/secret.bin"
ln -s .. "$W/a/up"; ln -s "$W" "$W/z/self"; ln -s /nonexistent "$W/dangling"; mkfifo "$W/pipe"
$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$W/sock"
chmod 000 "$W/locked" "$W/secret.bin"
as_user=()
if [ "$(id -u)" = 0 ]; then
  # root reads anything: the walk runs as nobody (T_TMP opened to it for the run)
  command -v setpriv >/dev/null && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chmod 755 "$T"
fi
if [ "$(id -u)" = 0 ] && [ ${#as_user[@]} = 0 ]; then
  t_skip "walk with unreadable entries" "run as root without setpriv"
else
  timeout 60 "${as_user[@]}" "$ASMSTORE" scan --jobs 2 "$W" >"$T/w.ndjson" 2>"$T/w.err"; rc=$?
  t_check "walk: a link loop, a dangling link, a FIFO and a socket left out; an unreadable file and directory each a line saying why; exit 2" \
      $PY - "$T/w.ndjson" "$W" "$rc" <<'PYEOF'
import json, sys
W = sys.argv[2]
docs = [json.loads(l) for l in open(sys.argv[1])]
assert sys.argv[3] == "2", "exit status " + sys.argv[3]
assert [d["input"] for d in docs] == [W + "/a/s.bin", W + "/locked", W + "/secret.bin", W + "/z/s.bin"], [d["input"] for d in docs]
assert docs[0]["error"] is None and docs[3]["error"] is None
assert docs[1]["error"]["message"].endswith("locked: cannot walk the directory: Permission denied; check its permissions"), docs[1]
assert docs[2]["error"]["message"].endswith("secret.bin: cannot read it: Permission denied; check its permissions"), docs[2]
PYEOF
fi
chmod 700 "$W/locked" "$T"
printf '%s\n' "$W/a" "$W/pipe" "$W/a/s.bin" >"$T/dirs"
timeout 60 "$ASMSTORE" scan --jobs 2 "@$T/dirs" >"$T/l.ndjson"; rc=$?
t_check "@LIST naming a directory and a FIFO where files are expected: each its line saying why, the file scanned, exit 2" \
    bash -c "[ $rc = 2 ] && [ \$(wc -l <'$T/l.ndjson') = 3 ] && sed -n 1p '$T/l.ndjson' | grep -q 'Is a directory; give a file, not a directory' &&
             sed -n 2p '$T/l.ndjson' | grep -q 'pipe, socket or device' && sed -n 3p '$T/l.ndjson' | grep -q '\"error\": null'"
t_done
