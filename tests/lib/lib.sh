# tests/lib/lib.sh - shared helpers for shell tests. Source it, call t_ok/t_fail/t_skip, end with t_done.
# Every script ends with one line "N passed, N failed".
T_PASS=0; T_FAIL=0
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$TOP/build}
ASMSTORE=${ASMSTORE:-$BUILD/asmstore}
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/asmstore-test.XXXXXX")
trap 'rm -rf "$T_TMP"' EXIT
t_ok()   { T_PASS=$((T_PASS+1)); echo "ok   $1"; }
t_fail() { T_FAIL=$((T_FAIL+1)); echo "FAIL $1${2:+: $2}"; }
t_skip() { echo "  SKIP $1: $2"; }
# t_check NAME CMD...: passes when CMD exits 0
t_check() { local n=$1; shift; if "$@" >"$T_TMP/out" 2>&1; then t_ok "$n"; else t_fail "$n"; sed 's/^/    /' "$T_TMP/out" | tail -20; fi; }
t_done() { echo "$T_PASS passed, $T_FAIL failed"; [ "$T_FAIL" -eq 0 ]; }
SAMPLES=${SAMPLES:-$TOP/../shared/assembly-store-samples}
MONO45=${MONO45:-/usr/lib/mono/4.5}
# t_pe [--pdb] [--fill random|zero|TEXT] OUT SIZE...: the smallest real assembly (or Portable PDB) of
# SIZE bytes, for stores verify and extract must accept (tests/lib/mini_pe.py)
t_pe() { python3 "$TOP/tests/lib/mini_pe.py" "$@"; }
# t_evil_store OUT: a raw store of two real assemblies of names of equal length, the second renamed in
# place to "../AAAA.dll" (its index hashes then point at a name that no longer matches: the reader
# still opens it), for commands that must never write outside their directory
t_evil_store() {
    local d; d=$(mktemp -d "$T_TMP/evil.XXXXXX")
    t_pe --fill "one " "$d/aaaaaaa.dll" 700 "$d/bbbbbbb.dll" 700
    "$ASMSTORE" pack --raw --no-compress --runtime monovm --format 3 -o "$1" "$d/aaaaaaa.dll" "$d/bbbbbbb.dll" 2>/dev/null
    python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); i = b.index(b"bbbbbbb.dll")
b[i:i+11] = b"../AAAA.dll"; open(p, "wb").write(b)' "$1"
}
