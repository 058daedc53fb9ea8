#!/usr/bin/env bash
# make static: build/static/asmstore, the CLI linked statically against musl (mk/static.mk). It has
# no program interpreter and no shared library; a store it packs is byte-identical to the glibc
# build's (the same Debian zstd source); and the portable CLI suites pass with ASMSTORE pointed at
# it: t_cli, t_cli_json, t_cli_options, t_cli_repack, t_cli_zip, t_cli_diff, t_cli_sign (the last
# two need its libcrypto). What a static binary cannot do (load --dlopen: musl's static dlopen loads
# nothing) it says in --version, and t_cli skips. Skips with one line where musl-gcc or the build
# is absent (make static builds it).
. "$(dirname "$0")/lib/lib.sh"
STATIC=$BUILD/static/asmstore
if ! command -v musl-gcc >/dev/null; then t_skip "static" "musl-gcc not installed (make deps installs musl-tools)"; t_done; exit; fi
if [ ! -x "$STATIC" ]; then t_skip "static" "$STATIC not built (make static)"; t_done; exit; fi

t_check "no program interpreter, no shared library (readelf -l, -d)" \
  bash -c "! readelf -l '$STATIC' | grep -q INTERP && ! readelf -d '$STATIC' 2>/dev/null | grep -q NEEDED"
t_check "--version says what it cannot do (load --dlopen)" bash -c "'$STATIC' --version | grep -q 'load --dlopen is not available'"

V3=$SAMPLES/v3-watercountdown-widget/arm64-v8a/assembly-store.so
if [ -f "$V3" ]; then
  "$ASMSTORE" extract "$V3" -C "$T_TMP/x" >/dev/null 2>&1
  "$ASMSTORE" pack --target net10 --abi arm64 -o "$T_TMP/glibc.so" "$T_TMP/x" >/dev/null 2>&1
  "$STATIC" pack --target net10 --abi arm64 -o "$T_TMP/musl.so" "$T_TMP/x" >/dev/null 2>&1
  t_check "pack: the static build's .so byte-identical to the glibc build's" cmp "$T_TMP/glibc.so" "$T_TMP/musl.so"
else t_skip "pack against the glibc build" "samples absent"; fi

# each suite run whole with ASMSTORE set to the static binary; its own summary line judged
for s in t_cli t_cli_json t_cli_options t_cli_repack t_cli_zip t_cli_diff t_cli_sign; do
  ASMSTORE=$STATIC bash "$TOP/tests/$s.sh" </dev/null >"$T_TMP/$s.log" 2>&1
  sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$T_TMP/$s.log" | tail -1)
  passed=${sum%% passed*}; failed=${sum#*passed, }; failed=${failed%% failed}
  if [ -n "$sum" ] && [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; then t_ok "$s with the static build: $sum"
  else t_fail "$s with the static build: ${sum:-no summary}" "$(grep -m3 '^FAIL' "$T_TMP/$s.log")"; fi
done
t_done
