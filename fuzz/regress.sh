#!/usr/bin/env bash
# fuzz/regress.sh - replays the generated seeds and the kept inputs through every harness's replay build
# (ASan + UBSan): build/fuzz/seeds/<h>, fuzz/corpus/<h> (kept finds), fuzz/regress/<h> (inputs that once
# crashed), build/fuzz/corpus-<h> (the last `make fuzz`). `make fuzz-regress` and `make test` run it after
# building the replays and the seeds; B=<dir> names the build directory (default build).
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
pass=0; fail=0
for src in fuzz/fuzz_*.c; do
  h=${src#fuzz/fuzz_}; h=${h%.c}
  [ "$h" = main ] && continue
  dirs=""
  for d in "$B/fuzz/seeds/$h" "fuzz/corpus/$h" "fuzz/regress/$h" "$B/fuzz/corpus-$h"; do [ -d "$d" ] && dirs="$dirs $d"; done
  if [ -z "$dirs" ]; then echo "FAIL $h: no corpus"; fail=$((fail+1)); continue; fi
  # shellcheck disable=SC2086  # $dirs is a list of directories
  if out=$("$B/fuzz/$h-replay" $dirs 2>&1); then
    echo "ok   fuzz_$h: $(echo "$out" | sed -n 's/^replayed \([0-9]*\).*/\1/p') inputs replayed clean"; pass=$((pass+1))
  else echo "$out" | tail -n 30; echo "FAIL fuzz_$h"; fail=$((fail+1)); fi
done
echo "$pass passed, $fail failed"
