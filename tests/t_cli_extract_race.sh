#!/usr/bin/env bash
# extract -C DIR while DIR/fr is swapped for a symlink to a directory outside DIR: nothing may ever
# land outside. (a) an LD_PRELOAD shim (tests/lib/extract_race_shim.c) makes the swap at the worst
# moment, right before extract creates its first file in DIR/fr; (b) a second process
# (tests/lib/extract_race_swap.c) flips DIR/fr and the symlink with renameat2(RENAME_EXCHANGE) as fast
# as it can while extract runs again and again.
. "$(dirname "$0")/lib/lib.sh"
CC=${CC:-cc}
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror -O2 -D_GNU_SOURCE"
SECONDS_B=${RACE_SECONDS:-4}

if ! $CC $W -shared -fPIC -o "$T_TMP/shim.so" "$TOP/tests/lib/extract_race_shim.c" -ldl 2>"$T_TMP/err" ||
   ! $CC $W -o "$T_TMP/swap" "$TOP/tests/lib/extract_race_swap.c" 2>>"$T_TMP/err"; then
  t_fail "build the race helpers" "$(head -5 "$T_TMP/err")"; t_done; exit
fi

# a store of Main.dll and 20 satellites fr/Axx.resources.dll
mkdir -p "$T_TMP/src/fr"
t_pe --fill main "$T_TMP/src/Main.dll" 700
for i in $(seq -w 0 19); do t_pe --fill "satellite $i" "$T_TMP/src/fr/A$i.resources.dll" 700; done
"$ASMSTORE" pack --raw -o "$T_TMP/s.store" "$T_TMP/src" 2>/dev/null || { t_fail "pack the store"; t_done; exit; }
W_ROOT=$(cd "$T_TMP" && pwd -P) # canonical: the shim compares directory paths

# (a) the swap right before the first file is created in DIR/fr
out="$W_ROOT/out-a"; outside="$W_ROOT/outside-a"
mkdir -p "$out/fr" "$outside"
RACE_DIR="$out/fr" RACE_TARGET="$outside" LD_PRELOAD="$T_TMP/shim.so" \
  "$ASMSTORE" extract "$T_TMP/s.store" -C "$out" >"$T_TMP/a.out" 2>&1
rc=$?
leaked=$(find "$outside" -mindepth 1 | wc -l)
if [ ! -L "$out/fr" ]; then t_fail "(a) shim swapped DIR/fr before extract's first create in it" "rc=$rc $(head -3 "$T_TMP/a.out")"
elif [ "$leaked" = 0 ] && [ -f "$out/Main.dll" ]; then
  t_ok "(a) DIR/fr swapped for a symlink right before the create: nothing outside DIR (exit $rc, $(find "$out/fr.moved" -type f | wc -l) files in the moved real dir)"
else t_fail "(a) swap before create" "exit $rc, $leaked file(s) outside DIR: $(cd "$outside" && ls | head -3 | tr '\n' ' ')"; fi

# (b) a real concurrent swapper
out="$W_ROOT/out-b"; outside="$W_ROOT/outside-b"
mkdir -p "$out/fr" "$outside"
ln -s "$outside" "$out/fr.link"
"$T_TMP/swap" "$out/fr" "$out/fr.link" "$SECONDS_B" >"$T_TMP/swaps" 2>&1 &
swapper=$!
runs=0; ok=0; refused=0; other=0
while kill -0 "$swapper" 2>/dev/null; do
  "$ASMSTORE" extract "$T_TMP/s.store" -C "$out" >/dev/null 2>"$T_TMP/b.err"
  case $? in 0) ok=$((ok+1)) ;; 1) refused=$((refused+1)) ;; *) other=$((other+1)); cp "$T_TMP/b.err" "$T_TMP/b.other" ;; esac
  runs=$((runs+1))
done
wait "$swapper"; swap_rc=$?
leaked=$(find "$outside" -mindepth 1 | wc -l)
inside=$(find "$out" -name '*.resources.dll' -type f | wc -l)
summary="$runs runs ($ok complete, $refused refused a symlink, $other other) against $(cat "$T_TMP/swaps") swaps"
if [ "$swap_rc" != 0 ]; then t_fail "(b) swapper" "$(cat "$T_TMP/swaps")"
elif [ "$leaked" = 0 ] && [ "$runs" -gt 0 ] && [ "$inside" -gt 0 ] && [ "$other" = 0 ]; then
  t_ok "(b) concurrent swapper for ${SECONDS_B}s: nothing outside DIR; $summary"
else t_fail "(b) concurrent swapper" "$leaked file(s) outside DIR, $inside inside; $summary $(head -2 "$T_TMP/b.other" 2>/dev/null)"; fi
t_done
