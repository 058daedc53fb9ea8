#!/usr/bin/env bash
# Runs every test given (binaries and .sh scripts), shows their output, and ends with the sum of
# their "N passed, N failed" lines. A test that crashes or prints no summary counts as one failure.
set -u
pass=0; fail=0
for t in "$@"; do
  echo "== $t"
  case "$t" in *.sh) out=$(bash "$t" 2>&1); rc=$? ;; *) out=$("$t" 2>&1); rc=$? ;; esac
  printf '%s\n' "$out"
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then fail=$((fail+1)); echo "FAIL $t: exit $rc without a summary line"; continue; fi
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
  pass=$((pass+p)); fail=$((fail+f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then fail=$((fail+1)); echo "FAIL $t: exit $rc"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
