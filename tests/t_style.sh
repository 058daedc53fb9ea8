#!/usr/bin/env bash
# tests/t_style.sh - the project's written code style (tests/style_check.py) over the two headers,
# tools/ and examples/ (coreclr_host.c aside until it is rewrapped: EXAMPLES_LEFT_OUT there): no
# function over 60 lines, under 1 % of lines past 100 columns and none past 120, no line with three
# statements, one banner style, no circle among the files that include each other.
. "$(dirname "$0")/lib/lib.sh"
t_check "style: asmstore.h, asmstore_cache.h, tools/, examples/ (python3 tests/style_check.py)" \
  python3 "$TOP/tests/style_check.py"
t_done
