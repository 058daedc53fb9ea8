#!/usr/bin/env bash
# APKs read as strictly as `unzip -t` (issue 24): a CRC-32 the data does not have (STORED and
# DEFLATEd), a local header whose sizes or method disagree with the central directory, an entry
# that inflates to more than it declares or declares more than DEFLATE can give: verify, extract,
# info, list and load exit 1 with "damaged archive" and extract creates nothing; a 1.5 MB APK whose
# store inflates to 1.5 GiB of zeros is refused with a max RSS under 64 MiB; well-formed APKs
# (STORED, DEFLATEd) still give the store's exact bytes. The APKs come from tests/lib/zip_cases.py.
. "$(dirname "$0")/lib/lib.sh"
A=$ASMSTORE
CASES="python3 $TOP/tests/lib/zip_cases.py"
ls "$MONO45"/Facades/System.Runtime.dll >/dev/null 2>&1 ||
  { t_skip "ZIP checks" "needs the Mono 4.5 facades in $MONO45 (Debian: mono-runtime)"; t_done; exit; }
"$A" pack -o "$T_TMP/store.so" --target net11 --abi arm64 "$MONO45"/Facades/System.Runtime.dll \
  "$MONO45"/Facades/System.Collections.dll >/dev/null 2>&1 || t_fail "pack the store the APKs hold"
"$A" extract "$T_TMP/store.so" -C "$T_TMP/want" >/dev/null

# rss_run CMD...: CMD's output in $T_TMP/out; prints its exit status and max RSS in KiB
rss_run() {
  python3 -c 'import resource, subprocess, sys
with open(sys.argv[1], "wb") as f:
    rc = subprocess.call(sys.argv[2:], stdout=f, stderr=subprocess.STDOUT)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$T_TMP/out" "$@"
}

# ---- well-formed: the store's bytes, STORED or DEFLATEd ----
for c in stored deflated; do
  $CASES "$T_TMP/$c.apk" $c "$T_TMP/store.so"
  "$A" verify "$T_TMP/$c.apk" >"$T_TMP/out" 2>&1; rc=$?
  if [ $rc = 0 ] && "$A" extract "$T_TMP/$c.apk" -C "$T_TMP/x-$c" >/dev/null 2>&1 &&
     diff -r "$T_TMP/want" "$T_TMP/x-$c" >/dev/null; then
    t_ok "$c APK: verify ok, extract gives the store's exact entries"
  else t_fail "$c APK" "verify rc=$rc $(head -3 "$T_TMP/out")"; fi
done

# ---- damaged: every command that reads the archive says so and exits 1 ----
for c in crc-stored crc-deflated local-size local-method declared-short ratio; do
  $CASES "$T_TMP/$c.apk" $c "$T_TMP/store.so"
  bad=
  for cmd in verify info list "load --all"; do
    # shellcheck disable=SC2086
    "$A" $cmd "$T_TMP/$c.apk" >"$T_TMP/out" 2>&1; rc=$?
    [ $rc = 1 ] && grep -q "damaged archive: lib/arm64-v8a/libassembly-store.so: " "$T_TMP/out" ||
      bad="$bad $cmd: rc=$rc $(head -2 "$T_TMP/out")"
  done
  "$A" extract "$T_TMP/$c.apk" -C "$T_TMP/never-$c" >"$T_TMP/out" 2>&1; rc=$?
  [ $rc = 1 ] && grep -q "damaged archive" "$T_TMP/out" && [ ! -e "$T_TMP/never-$c" ] ||
    bad="$bad extract: rc=$rc $(head -2 "$T_TMP/out")"
  if [ -z "$bad" ]; then t_ok "$c: verify, info, list, load and extract exit 1: $(grep -o 'damaged archive.*' "$T_TMP/out" | cut -c1-150)"
  else t_fail "$c" "$bad"; fi
done

# an APK cut short (no central directory): one line says so, not one per release path looked for
head -c 20000 "$T_TMP/stored.apk" >"$T_TMP/cut.apk"
"$A" verify "$T_TMP/cut.apk" >"$T_TMP/out" 2>&1; rc=$?
if [ $rc = 1 ] && [ "$(grep -c "damaged archive: no end of central directory record" "$T_TMP/out")" = 1 ] &&
   [ "$(grep -c '^asmstore:' "$T_TMP/out")" = 1 ]; then
  t_ok "an APK cut short: verify exits 1 with one line: $(grep -o 'damaged archive.*' "$T_TMP/out" | cut -c1-60)"
else t_fail "APK cut short" "rc=$rc $(head -3 "$T_TMP/out")"; fi

# a .NET 6-8 APK whose manifest (not a store, read for the names) has a wrong CRC-32
"$A" pack --target net8 -o "$T_TMP/v1" --abi arm64 "$MONO45"/Facades/System.Runtime.dll >/dev/null 2>&1
$CASES "$T_TMP/v1.apk" crc-manifest "$T_TMP/v1"
"$A" verify "$T_TMP/v1.apk" >"$T_TMP/out" 2>&1; rc=$?
"$A" extract "$T_TMP/v1.apk" -C "$T_TMP/v1-x" >>"$T_TMP/out" 2>&1; rc2=$?
if [ $rc:$rc2 = 1:1 ] && grep -q "damaged archive: assemblies/assemblies.manifest: CRC-32" "$T_TMP/out"; then
  t_ok "a .NET 6-8 APK with a damaged manifest: verify and extract exit 1 naming the manifest"
else t_fail "damaged manifest" "verify rc=$rc extract rc=$rc2 $(head -3 "$T_TMP/out")"; fi

# ---- the bomb: 1.5 GiB of zeros from a 1.5 MB APK, refused in bounded memory ----
$CASES "$T_TMP/bomb.apk" bomb
size=$(stat -c %s "$T_TMP/bomb.apk")
for cmd in verify "extract -C $T_TMP/bomb-x" "load --all"; do
  rm -rf "$T_TMP/bomb-x"
  # shellcheck disable=SC2086
  read -r rc rss < <(rss_run "$A" $cmd "$T_TMP/bomb.apk")
  if [ "$rc" = 1 ] && [ "$rss" -lt 65536 ] && grep -q "refused to inflate it" "$T_TMP/out" && [ ! -e "$T_TMP/bomb-x" ]; then
    t_ok "bomb ($size-byte APK, 1.5 GiB of zeros): ${cmd%% *} exits 1 with max RSS $((rss / 1024)) MiB (< 64): $(grep -o 'refused.*' "$T_TMP/out" | head -1)"
  else t_fail "bomb: $cmd" "rc=$rc max RSS ${rss} KiB $(head -2 "$T_TMP/out")"; fi
done
t_done
