#!/usr/bin/env bash
# tests/t_python.sh - the Python package (python/, issue 26) as python/README.md installs it: a venv
# with the system's site packages, `pip install --no-build-isolation ./python` (offline), then
# `python -c "import asmstore; ..."` over every real sample, the README's example run as written on
# an APK, and the pytest suite python/tests/ (each of its tests counted here as one ok/FAIL line).
# PYTHON picks the interpreter (default /usr/bin/python3: the one Debian's python3-pytest is for).
. "$(dirname "$0")/lib/lib.sh"
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3)
if ! "$PY" -c 'import venv, setuptools, wheel, pytest' 2>/dev/null; then
  t_skip "python package" "$PY lacks venv, setuptools, wheel or pytest (make deps installs python3-venv python3-setuptools python3-wheel python3-pytest)"
  t_done; exit
fi
if ! "$PY" -c 'import sysconfig, os, sys; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  t_skip "python package" "no Python.h for $PY (make deps installs python3-dev)"
  t_done; exit
fi

# ---- install, as the README says -----------------------------------------------------------------
V=$T_TMP/venv
t_check "python: $PY -m venv --system-site-packages" "$PY" -m venv --system-site-packages "$V"
# the README's command, from the clone's top (pip builds in python/build, which git ignores)
t_check "python: pip install --no-build-isolation ./python (offline, from the clone)" \
  bash -c "cd '$TOP' && ASMSTORE_WERROR=1 '$V/bin/pip' install --no-build-isolation --no-index ./python"
VPY=$V/bin/python
cd "$T_TMP" || exit 2 # never import the source tree's asmstore/ (it has no extension)
t_check "python: the installed package is the venv's, with its extension" \
  "$VPY" -c 'import asmstore, sys; assert asmstore.__file__.startswith(sys.prefix), asmstore.__file__; asmstore._asmstore.results()'

# ---- python -c lists every real sample (the issue's "done when") ---------------------------------
if [ -f "$SAMPLES/EXPECTED.json" ]; then
  for s in v1-expandroid v1-razr-pointcrep v3-watercountdown-widget/arm64-v8a/assembly-store.so \
           v3-watercountdown-widget/x86_64/assembly-store.so; do
    out=$("$VPY" -c "import asmstore, sys; s = asmstore.open(sys.argv[1]); [print(e.file_name, e.size) for e in s]" \
          "$SAMPLES/$s" 2>&1)
    n=$(printf '%s\n' "$out" | grep -c '^[^ ]* [0-9][0-9]*$')
    if [ "$n" -gt 0 ] && ! printf '%s\n' "$out" | grep -q Traceback; then
      t_ok "python -c lists $s ($n entries)"
    else
      t_fail "python -c lists $s" "$out"
    fi
  done
else
  t_skip "python -c over the real samples" "no samples at $SAMPLES"
fi

# ---- the README's example, as written, on an APK holding System.Runtime.dll ----------------------
mkdir -p "$T_TMP/ex/in" && cd "$T_TMP/ex" || exit 2
t_pe in/System.Runtime.dll 5632 in/App.dll 4096 >/dev/null
"$ASMSTORE" pack -o app.so in/System.Runtime.dll in/App.dll >/dev/null 2>&1
"$VPY" -c 'import zipfile; z = zipfile.ZipFile("app.apk", "w", zipfile.ZIP_DEFLATED); z.writestr("AndroidManifest.xml", "<manifest/>"); z.write("app.so", "lib/arm64-v8a/libassembly-store.so"); z.close()'
sed -n '/^## Example/,/^## /p' "$TOP/python/README.md" | sed -n '/^```python$/,/^```$/p' | sed '1d;$d' >example.py
lines=$(wc -l <example.py)
if [ "$lines" -ge 5 ] && [ "$lines" -le 12 ] && "$VPY" example.py >example.out 2>&1 &&
   grep -q 'System.Runtime.dll .* 5632 ZSTD' example.out && grep -q 'App.dll' example.out &&
   cmp -s System.Runtime.dll in/System.Runtime.dll; then
  t_ok "python/README.md's example ($lines lines) lists the APK and dumps System.Runtime.dll"
else
  t_fail "python/README.md's example" "$(cat example.py example.out 2>&1 | tail -20)"
fi
cd "$T_TMP" || exit 2

# ---- pytest: every test one line -----------------------------------------------------------------
ASMSTORE_TOP=$TOP ASMSTORE_SAMPLES=$SAMPLES "$VPY" -m pytest -p no:cacheprovider -rA -q \
  --rootdir "$T_TMP" "$TOP/python/tests" >"$T_TMP/pytest.out" 2>&1
rc=$?
while read -r word test rest; do
  case $word in
    PASSED) t_ok "pytest ${test#*tests/}" ;;
    FAILED|ERROR) t_fail "pytest ${test#*tests/}" "$rest" ;;
    SKIPPED) t_skip "pytest $test" "$rest" ;;
  esac
done < <(sed -n '/short test summary info/,$p' "$T_TMP/pytest.out")
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] || ! grep -q 'short test summary info' "$T_TMP/pytest.out"; then
  t_fail "pytest ran (exit $rc)" "$(tail -30 "$T_TMP/pytest.out")"
elif [ "$rc" -eq 1 ]; then
  sed -n '/= FAILURES =/,/short test summary/p' "$T_TMP/pytest.out" | head -80
fi
t_done
