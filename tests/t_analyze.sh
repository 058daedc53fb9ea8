#!/usr/bin/env bash
# Static analysis of the headers with every implementation compiled in: clang --analyze (the
# Clang Static Analyzer) and cppcheck (warning, portability, performance). Any finding fails.
. "$(dirname "$0")/lib/lib.sh"
tu="$T_TMP/all.c"
{
  echo '#define _GNU_SOURCE'
  echo '#define ASMSTORE_IMPLEMENTATION'
  echo '#define ASMSTORE_CACHE_IMPLEMENTATION'
  echo "#include \"$TOP/asmstore.h\""
  echo "#include \"$TOP/asmstore_cache.h\""
} >"$tu"
if command -v clang >/dev/null; then
  out=$(clang --analyze -Xanalyzer -analyzer-output=text -D_GNU_SOURCE "$tu" -o /dev/null 2>&1)
  if grep -qE 'warning|error' <<<"$out"; then t_fail "clang --analyze" "$(grep -E 'warning|error' <<<"$out" | head -10)"; else t_ok "clang --analyze: no findings"; fi
else t_skip "clang --analyze" "clang not installed"; fi
# cppcheck analyses the configuration gcc compiles on Linux (__GNUC__: the atomics; __linux__: dlopen;
# without a compiler it knows, asmstore_app_load #errors, as it should)
if command -v cppcheck >/dev/null; then
  out=$(cppcheck --quiet --enable=warning,portability,performance --std=c99 --suppress=missingIncludeSystem \
        -D_GNU_SOURCE -D__GNUC__=12 -D__linux__=1 -DASMSTORE_IMPLEMENTATION -DASMSTORE_CACHE_IMPLEMENTATION "$tu" 2>&1)
  if [ -n "$out" ]; then t_fail "cppcheck" "$(head -10 <<<"$out")"; else t_ok "cppcheck: no findings"; fi
else t_skip "cppcheck" "not installed (Debian: cppcheck)"; fi
t_done
