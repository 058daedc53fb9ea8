#!/usr/bin/env bash
# fuzz/smoke.sh - each libFuzzer harness for FUZZ_SMOKE_SECONDS (default 60) under ASan + UBSan, from the
# seeds and kept finds; new crashes land in fuzz/regress/<h>/ and fail. -malloc_limit_mb makes any
# allocation over 256 MiB a failure (no harness may allocate more than the configured maximum entry size).
# A harness without a libFuzzer build (clang + libclang-rt-14-dev) is skipped. `make test` runs it;
# B=<dir> names the build directory (default build).
cd "$(dirname "$0")/.." || exit 2
B=${B:-build}
pass=0; fail=0; secs=${FUZZ_SMOKE_SECONDS:-60}
# the lines of a crash report worth a log: what failed, the input's file, the stack's top
REPORT='ERROR|SUMMARY|Test unit written|malloc|runtime error|Assertion|\*\*\*|^    #[0-9] '

# show_artifact H FILE: the input replayed where a crash shows its stack (libFuzzer prints none when
# it crashes mid-symbolizing), and the input itself in the log when it is small (a CI machine's
# artifact does not outlive its run): gzip | base64, to paste into `base64 -d | gunzip`
show_artifact() {
  local replay=$B/fuzz/$1-replay packed
  [ -x "$replay" ] && ASAN_OPTIONS=handle_abort=1:handle_sigill=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$replay" "$2" 2>&1 | grep -E "$REPORT" | head -n 12
  packed=$(gzip -9c "$2" | base64 -w0)
  if [ "${#packed}" -le 65536 ]; then echo "  input ($(wc -c <"$2") bytes, gzip | base64): $packed"
  else echo "  input: $(wc -c <"$2") bytes, too large to print"; fi
}
for src in fuzz/fuzz_*.c; do
  h=${src#fuzz/fuzz_}; h=${h%.c}
  [ "$h" = main ] && continue
  bin=$B/fuzz/$h-libfuzzer
  if [ ! -x "$bin" ]; then echo "  SKIP fuzz smoke $h: $bin not built (clang + libclang-rt-14-dev)"; continue; fi
  mkdir -p "$B/fuzz/corpus-$h" "fuzz/regress/$h"; dirs="$B/fuzz/corpus-$h"
  for d in "$B/fuzz/seeds/$h" "fuzz/corpus/$h"; do [ -d "$d" ] && dirs="$dirs $d"; done
  # shellcheck disable=SC2086  # $dirs is a list of directories
  if out=$("$bin" -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=256 -dict=fuzz/asmstore.dict \
        -artifact_prefix="fuzz/regress/$h/" $dirs 2>&1); then
    echo "ok   fuzz smoke $h: $(echo "$out" | sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) .*/\1 runs in \2 s/p')"
    pass=$((pass+1))
  else
    echo "$out" | grep -E "$REPORT" | head -n 16
    artifact=$(echo "$out" | sed -n 's/.*Test unit written to //p' | tail -1)
    [ -n "$artifact" ] && show_artifact "$h" "$artifact"
    echo "FAIL fuzz smoke $h"; fail=$((fail+1))
  fi
done
echo "$pass passed, $fail failed"
