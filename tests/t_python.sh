#!/usr/bin/env bash
# tests/t_python.sh - the Python package (python/, issue 26) as python/README.md installs it: a venv
# with the system's site packages, `pip install --no-build-isolation ./python` (offline), then
# `python -c "import asmstore; ..."` over every real sample, the README's example run as written on
# an APK, and the pytest suite python/tests/ (each of its tests counted here as one ok/FAIL line).
# Then the sdist (issue 39): built as `make sdist` does, installed in an empty directory away from
# the clone into a venv of PYTHON and of each other CPython >= 3.8 found (OTHER_PYTHONS, default:
# python3 on PATH when it is another one, and the oldest pyenv 3.8+), offline: a venv lacking
# setuptools >= 61 or wheel gets them from WHEELHOUSE (directories of .whl files; default: the
# pristine ones pyenv's CPythons carry in lib/python3.*/test), else that interpreter is skipped.
# Then the wheel `make wheel` built before the run (WHEEL_DIR, default build/dist; issue 39): zstd,
# lz4, zlib and libcrypto linked in (its extension's ldd names none of them), the stable ABI (one
# cp311-abi3 wheel), installed into a venv with no site packages by PYTHON and by each other CPython
# >= 3.11 found, each running sdist_checks.
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
ASMSTORE_TOP=$TOP ASMSTORE_SAMPLES=$SAMPLES ASMSTORE=$ASMSTORE "$VPY" -m pytest -p no:cacheprovider -rA -q \
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

# ---- the sdist, installed away from the clone by every CPython found -----------------------------
DIST=$T_TMP/dist
t_check "python: setup.py sdist (make sdist)" bash -c "cd '$TOP/python' && '$PY' setup.py -q sdist --dist-dir '$DIST'"
SDIST=$(ls "$DIST"/asmstore-*.tar.gz 2>/dev/null | head -1)
listing=$(tar tzf "$SDIST" 2>/dev/null)
missing=$(cd "$TOP" && for f in asmstore.h tools/*.c tools/*.h; do
  printf '%s\n' "$listing" | grep -qx "asmstore-[0-9.]*/csrc/$f" || echo "$f"; done)
if [ -n "$SDIST" ] && [ -z "$missing" ] && printf '%s\n' "$listing" | grep -q '/csrc/xxhash.h$' &&
   ! printf '%s\n' "$listing" | grep -qv '^asmstore-[0-9.]*/'; then
  t_ok "python: the sdist carries asmstore.h, every tools/*.[ch] and xxhash.h in csrc/"
else
  t_fail "python: the sdist's C files" "missing: $missing $(printf '%s\n' "$listing" | head -5)"
fi
CLI_VERSION=$("$ASMSTORE" --version | head -1)
SAMPLE=$SAMPLES/v1-razr-pointcrep
# sdist_checks VENV_PYTHON: the installed package's version is the CLI's, it reads a real sample's
# images as EXPECTED.json says, and python -m asmstore and the asmstore script exit as the CLI does
sdist_checks() {
  local vpy=$1 bin; bin=$(dirname "$1")
  "$vpy" -c 'import asmstore, sys
assert "asmstore " + asmstore.__version__ == sys.argv[1], (asmstore.__version__, sys.argv[1])
assert asmstore.__file__.startswith(sys.prefix), asmstore.__file__' "$CLI_VERSION" || return 1
  if [ -f "$SAMPLES/EXPECTED.json" ]; then
    "$vpy" -c 'import asmstore, hashlib, json, os, sys
want = json.load(open(os.path.join(sys.argv[1], "EXPECTED.json")))
key = "v1-razr-pointcrep/base_assemblies.arm64_v8a.blob"
with asmstore.open(os.path.join(sys.argv[1], key)) as s:
    got = [hashlib.sha256(s.read(e)).hexdigest() for e in s]
assert got == [d["uncompressed_sha256"] for d in want[key]["descriptors"]], "images differ"' \
      "$SAMPLES" || return 1
    "$vpy" -m asmstore verify "$SAMPLE" >/dev/null || return 1
  fi
  "$bin/asmstore" list "$T_TMP/not-there" 2>/dev/null; [ $? -eq 2 ] || return 1
  "$vpy" -m asmstore list "$T_TMP/not-there" 2>/dev/null; [ $? -eq 2 ]
}
# wheelhouse: pristine setuptools and wheel .whl files (not Debian's /usr/share/python-wheels,
# patched for Debian's own Python), copied into $T_TMP/wheels for pip --find-links
wheelhouse() {
  local root=${PYENV_ROOT:-$HOME/.pyenv} d
  mkdir -p "$T_TMP/wheels"
  for d in ${WHEELHOUSE:-"$root"/versions/*/lib/python3*/test/wheeldata
                         "$root"/versions/*/lib/python3*/test}; do
    cp "$d"/setuptools-*.whl "$d"/wheel-*.whl "$T_TMP/wheels/" 2>/dev/null
  done
  echo "$T_TMP/wheels"
}
# build_tools VENV: setuptools >= 61 and wheel in VENV (what --no-build-isolation builds with),
# from the wheelhouse when it lacks them; 1 when they cannot be had offline
build_tools() {
  "$1/bin/python" -c 'import setuptools, wheel, sys
sys.exit(int(setuptools.__version__.split(".")[0]) < 61)' 2>/dev/null ||
    "$1/bin/pip" install -q --no-index --find-links "$(wheelhouse)" 'setuptools>=61' wheel
}
# sdist_install PY NAME [--system-site-packages]: a venv of PY in an empty directory, the sdist
# installed there offline (--no-build-isolation), sdist_checks
sdist_install() {
  local py=$1 name=$2 away v
  away=$(mktemp -d "$T_TMP/away.XXXXXX"); v=$away/venv
  if ! "$py" -m venv $3 "$v" >"$away/log" 2>&1; then
    t_skip "python: sdist on $name" "no venv: $(tail -1 "$away/log")"; return
  fi
  if ! build_tools "$v" >"$away/log" 2>&1; then
    t_skip "python: sdist on $name" "its venv lacks setuptools >= 61 or wheel and none is offline here (WHEELHOUSE=DIR of their .whl files)"
    return
  fi
  if (cd "$away" && "$v/bin/pip" install --no-cache-dir --no-build-isolation --no-index "$SDIST" >"$away/log" 2>&1) &&
     (cd "$away" && sdist_checks "$v/bin/python" >>"$away/log" 2>&1); then
    t_ok "python: the sdist installs and works on $name, in an empty directory away from the clone"
  else
    t_fail "python: the sdist on $name" "$(tail -15 "$away/log")"
  fi
}
# other_pythons: python3 on PATH when it is not $PY, and the oldest pyenv CPython >= 3.8
other_pythons() {
  local on_path p
  on_path=$(command -v python3)
  [ -n "$on_path" ] && [ "$(readlink -f "$on_path")" != "$(readlink -f "$PY")" ] && echo "$on_path"
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.{8,9,10,11,12,13}*/bin/python3; do
    [ -x "$p" ] && [ "$(readlink -f "$p")" != "$(readlink -f "$on_path")" ] && { echo "$p"; break; }
  done
}
# ---- the self-contained wheel, installed where its libraries are not needed ---------------------
WHEEL=$(ls "${WHEEL_DIR:-$BUILD/dist}"/asmstore-*-cp311-abi3-*.whl 2>/dev/null | head -1)
# wheel_install PY: a venv of PY with nothing in it, the wheel installed offline, sdist_checks
wheel_install() {
  local py=$1 away v
  away=$(mktemp -d "$T_TMP/wheel.XXXXXX"); v=$away/venv
  "$py" -m venv "$v" >"$away/log" 2>&1 || { t_skip "python: wheel on $py" "no venv: $(tail -1 "$away/log")"; return; }
  if (cd "$away" && "$v/bin/pip" install -q --no-index --no-deps "$WHEEL" >"$away/log" 2>&1 &&
      sdist_checks "$v/bin/python" >>"$away/log" 2>&1); then
    t_ok "python: the wheel installs and works on $("$py" -V 2>&1) ($py), in a venv with no site packages"
  else
    t_fail "python: the wheel on $py" "$(tail -15 "$away/log")"
  fi
}
WHEEL_LOG=${WHEEL_DIR:-$BUILD/dist}/wheel.log # python-wheel-check's, before make test
if [ -z "$WHEEL" ] && grep -qE '^debsrc: .*(failed|not fetched)' "$WHEEL_LOG" 2>/dev/null; then
  t_skip "python: the self-contained wheel" "Debian's source packages out of reach ($(grep -m1 '^debsrc:' "$WHEEL_LOG"))"
elif [ -z "$WHEEL" ]; then
  t_fail "python: make wheel gave no cp311-abi3 wheel in ${WHEEL_DIR:-$BUILD/dist}" "$(tail -5 "$WHEEL_LOG" 2>/dev/null)"
else
  ext=$(cd "$T_TMP" && rm -rf wx && mkdir wx && cd wx && "$PY" -m zipfile -e "$WHEEL" . && ls asmstore/_asmstore*.so)
  libs=$(ldd "$T_TMP/wx/$ext" | awk '{print $1}' | sed 's/\.so.*//' | grep -vE '^(linux-vdso|/lib64/ld-linux-x86-64|libc|libm|libpthread)$' | tr '\n' ' ')
  t_check "python: the wheel's extension ($ext) links only libc, libm and libpthread${libs:+ (also: $libs)}" test -z "$libs"
  wheel_install "$PY"
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[1-9]*/bin/python3; do
    [ -x "$p" ] && [ "$(readlink -f "$p")" != "$(readlink -f "$PY")" ] && wheel_install "$p"
  done
fi

if [ -n "$SDIST" ]; then
  sdist_install "$PY" "$("$PY" -V 2>&1) ($PY)" --system-site-packages
  [ -n "${OTHER_PYTHONS+set}" ] || OTHER_PYTHONS=$(other_pythons)
  [ -n "$OTHER_PYTHONS" ] || t_skip "python: sdist on another CPython" "none found (OTHER_PYTHONS)"
  for p in $OTHER_PYTHONS; do sdist_install "$p" "$("$p" -V 2>&1) ($p)"; done
fi
t_done
