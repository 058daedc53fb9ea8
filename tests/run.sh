#!/usr/bin/env bash
# tests/run.sh TEST... - runs each test given (a binary, or a .sh script run with bash), streams its
# output as it comes, and ends with the sum of their "N passed, N failed" lines (that line last, alone).
# Each test opens with "== [i/N] NAME" and closes with its count and time; a test quiet for a minute
# gets a "still running" line, so no stretch of `make test` is silent. A test that crashes or prints
# no summary counts as one failure, as does one that exits non-zero while reporting none.
set -u
pass=0
fail=0
n=$#
i=0
slow=
log=$(mktemp "${TMPDIR:-/tmp}/asmstore-run.XXXXXX")
trap 'rm -f "$log"' EXIT

# run_one TEST: runs it into $log while its output is streamed; sets rc
run_one() {
  local t=$1 pid tail_pid quiet=0 size=0 now
  : >"$log" # emptied before tail opens it: nothing of the last test is shown again
  case "$t" in
    *.sh) bash "$t" </dev/null >"$log" 2>&1 & ;;
    *)    "$t" </dev/null >"$log" 2>&1 & ;;
  esac
  pid=$!
  tail -n +1 -s 0.2 -f --pid="$pid" "$log" &
  tail_pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.2
    now=$(stat -c %s "$log" 2>/dev/null || echo 0)
    if [ "$now" != "$size" ]; then size=$now; quiet=0; continue; fi
    quiet=$((quiet + 1))
    if [ $((quiet % 300)) -eq 0 ]; then # 60 s
      echo "   ... [$i/$n] $t still running ($((SECONDS - start)) s so far)"
    fi
  done
  wait "$pid"
  rc=$?
  wait "$tail_pid" 2>/dev/null
}

for t in "$@"; do
  i=$((i + 1))
  echo "== [$i/$n] $t"
  start=$SECONDS
  run_one "$t"
  took=$((SECONDS - start))
  [ "$took" -ge 60 ] && slow="$slow $t ${took}s;"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    fail=$((fail + 1))
    echo "FAIL $t: exit $rc without a summary line"
    echo "== [$i/$n] $t: no summary, $took s"
    continue
  fi
  p=${line%% passed*}
  f=${line#*, }
  f=${f%% failed}
  pass=$((pass + p))
  fail=$((fail + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    fail=$((fail + 1))
    echo "FAIL $t: exit $rc"
  fi
  echo "== [$i/$n] $t: $line in $took s (all so far: $pass passed, $fail failed, $SECONDS s)"
done
[ -n "$slow" ] && echo "suites over a minute:$slow"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
