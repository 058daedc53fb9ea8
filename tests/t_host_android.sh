#!/usr/bin/env bash
# tests/t_host_android.sh - build/android_host (examples/android_host.c: dotnet/android's host on
# asmstore_app_load) on the real .NET 10 x86_64 libxamarin-app.so, loaded by glibc's dlopen beside a
# stand-in bionic libc.so (tests/lib/standin_libc.c), and its store: every image lands in the
# library's buffer with EXPECTED.json's size, each lookup's hash is the store's own index row for
# that name, a second request gets it again; then the runtime's three aborts, each a result and exit
# 1 naming it: the library's count cut under Mono.Android's descriptor index, its descriptor shrunk
# under the image ("assemblies don't grow"), a byte of its compressed data damaged in the store.
. "$(dirname "$0")/lib/lib.sh"
HOST=$BUILD/android_host
X64=$SAMPLES/v3-watercountdown-widget/x86_64
if [ "$(uname -m)" != x86_64 ] || [ ! -f "$X64/libxamarin-app.so" ]; then
  t_skip "android host" "needs an x86_64 machine and the samples ($SAMPLES)"; t_done; exit
fi
if [ ! -x "$HOST" ]; then t_fail "android host" "$HOST not built (run make)"; t_done; exit; fi
CC=${CC:-cc}
printf 'LIBC { global: puts; abort; local: *; };\n' >"$T_TMP/libc.map"
$CC -shared -fPIC -o "$T_TMP/libc.so" "$TOP/tests/lib/standin_libc.c" \
  -Wl,--version-script="$T_TMP/libc.map" -Wl,-soname,libc.so || { t_fail "stand-in libc.so"; t_done; exit; }
run() { LD_LIBRARY_PATH=$T_TMP "$HOST" "$@"; }

run "$X64/libxamarin-app.so" "$X64/assembly-store.so" >"$T_TMP/all" 2>&1; rc=$?
t_check "every entry loads (exit 0, 20 lines: each asked twice)" sh -c "[ $rc = 0 ] && [ \$(wc -l <'$T_TMP/all') = 20 ]"
t_check "each image in libxamarin-app.so's buffer with EXPECTED.json's size; each hash the store's index row" \
  python3 - "$SAMPLES/EXPECTED.json" "$T_TMP/all" <<'EOF'
import json, re, sys
exp = json.load(open(sys.argv[1]))["v3-watercountdown-widget/x86_64/assembly-store.so"]
sizes = {d["name"]: d["uncompressed_size"] for d in exp["descriptors"]}
rows = {r["hashed_name"]: int(r["hash"], 16) for r in exp["index"]}
seen = 0
for line in open(sys.argv[2]):
    m = re.match(r"(\S+): (\d+) bytes, hash 0x([0-9a-f]+), in libxamarin-app.so's buffer", line)
    assert m, line
    assert sizes[m[1]] == int(m[2]) and rows[m[1]] == int(m[3], 16), line
    seen += 1
sys.exit(0 if seen == 20 else 1)
EOF
run "$X64/libxamarin-app.so" "$X64/assembly-store.so" System.Runtime Missing.dll >"$T_TMP/one" 2>&1
t_check "a name as MonoVM asks for it: the XXH3-64 of 'System.Runtime' (0x2174319c0d835bc9), a missing one not found" \
  sh -c "grep -q '^System.Runtime: 5632 bytes, hash 0x2174319c0d835bc9' '$T_TMP/one' && grep -q '^Missing.dll: not found' '$T_TMP/one'"

# the runtime's aborts: patched copies of the library (at the file offsets of the symbols' addresses)
# and of the store
cp "$X64/libxamarin-app.so" "$T_TMP/count.so"; cp "$X64/libxamarin-app.so" "$T_TMP/grow.so"
cp "$X64/assembly-store.so" "$T_TMP/damaged.store"
python3 - "$T_TMP" "$SAMPLES/EXPECTED.json" <<'EOF' || t_fail "patching the copies"
import json, struct, subprocess, sys
t = sys.argv[1]
lib = t + "/count.so"
syms = {l.split()[2]: int(l.split()[0], 16) for l in subprocess.check_output(["nm", "-D", "--defined-only", lib], text=True).splitlines()}
loads = [l.split() for l in subprocess.check_output(["readelf", "-lW", lib], text=True).splitlines() if l.strip().startswith("LOAD")]
def offset(va):
    for l in loads:
        off, vaddr, filesz = int(l[1], 16), int(l[2], 16), int(l[4], 16)
        if vaddr <= va < vaddr + filesz:
            return off + va - vaddr
    raise SystemExit("no PT_LOAD holds 0x%x" % va)
def poke(path, at, value):
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(struct.pack("<I", value))
poke(t + "/count.so", offset(syms["compressed_assembly_count"]), 9)  # Mono.Android's index is 9
poke(t + "/grow.so", offset(syms["compressed_assembly_descriptors"] + 9 * 12), 306687)
d = [d for d in json.load(open(sys.argv[2]))["v3-watercountdown-widget/x86_64/assembly-store.so"]["descriptors"] if d["name"] == "Mono.Android.dll"][0]
with open(t + "/damaged.store", "r+b") as f:
    f.seek(d["data_offset"] + 40)
    b = f.read(8)
    f.seek(d["data_offset"] + 40)
    f.write(bytes(x ^ 0xA5 for x in b))
EOF
abort_case() { # NAME LIB STORE WORDS: Mono.Android.dll refused with WORDS, exit 1
  local rc
  run "$2" "$3" Mono.Android.dll >"$T_TMP/abort" 2>&1; rc=$?
  if [ $rc = 1 ] && grep "^Mono.Android.dll: " "$T_TMP/abort" | grep -F "$4" | grep -qF "(the runtime aborts)"; then
    t_ok "abort as a result, exit 1: $1"
  else t_fail "abort as a result: $1" "exit $rc: $(cat "$T_TMP/abort")"; fi
}
abort_case "the count cut under the descriptor index" "$T_TMP/count.so" "$X64/assembly-store.so" \
  "descriptor index is past the app library's table"
abort_case "the descriptor shrunk under the image" "$T_TMP/grow.so" "$X64/assembly-store.so" \
  "assemblies don't grow"
abort_case "damaged data" "$X64/libxamarin-app.so" "$T_TMP/damaged.store" "decompression failed"
run "$X64/assembly-store.so" "$X64/assembly-store.so" >"$T_TMP/notapp" 2>&1; rc=$?
t_check "a library that is not libxamarin-app.so: exit 2, saying so" \
  sh -c "[ $rc = 2 ] && grep -q 'android_host: ' '$T_TMP/notapp'"
t_done
