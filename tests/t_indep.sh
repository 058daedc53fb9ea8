#!/usr/bin/env bash
# Our stores against an independent implementation of the format (tests/lib/indep_store.py: written
# from docs/store-format.md, hashes by python3-xxhash and zlib, frames by python3-zstandard):
#   every format x profile x ABI that asmstore packs passes its byte-level checks, images equal;
#   every store it writes opens in asmstore (verify) and extracts byte-identical.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
if ! $PY -c 'import xxhash, zstandard' 2>/dev/null; then
  t_skip "independent implementation" "needs python3-xxhash and python3-zstandard (Debian)"; t_done; exit; fi
src="$T_TMP/src"; mkdir -p "$src"
if [ -d "$MONO45/Facades" ]; then
  for f in "$MONO45"/Facades/*.dll "$MONO45"/System.Xml.dll "$MONO45"/mscorlib.dll; do cp -L "$f" "$src/"; done
else
  for i in 1 2 3 4 5; do t_pe "$src/Blob$i.dll" $((i * 7000)); done
fi
n=$(ls "$src" | wc -l)
for combo in monovm:2 monovm:3 monovm:4 coreclr:3 coreclr:4; do
  rt=${combo%%:*}; fmt=${combo##*:}
  for abi in arm64 arm x86_64 x86; do
    h=xxhash; [ "$rt:$fmt" = coreclr:4 ] && h=crc32 # the hashes indep_store.py reads (CRC-32 format 3: t_cli)
    "$ASMSTORE" pack --raw -o "$T_TMP/s" --runtime "$rt" --format "$fmt" --hash $h --abi "$abi" --level 3 "$src" 2>/dev/null
    if $PY "$TOP/tests/lib/indep_store.py" check "$T_TMP/s" "$src" >"$T_TMP/out" 2>&1; then
      t_ok "asmstore $rt v$fmt $abi ($n entries) passes the independent checker"
    else t_fail "independent check of $rt v$fmt $abi" "$(grep problem "$T_TMP/out" | head -5; tail -3 "$T_TMP/out")"; fi
    $PY "$TOP/tests/lib/indep_store.py" write "$T_TMP/p" "$fmt" "$abi" "$rt" "$src"/*.dll 2>"$T_TMP/err" || { t_fail "independent writer $rt v$fmt $abi" "$(tail -3 "$T_TMP/err")"; continue; }
    rm -rf "$T_TMP/x"
    if "$ASMSTORE" verify "$T_TMP/p" >"$T_TMP/out" 2>&1 && "$ASMSTORE" extract "$T_TMP/p" -C "$T_TMP/x" 2>>"$T_TMP/out"; then
      bad=0; for f in "$src"/*.dll; do cmp -s "$f" "$T_TMP/x/$(basename "$f")" || bad=1; done
      h=$("$ASMSTORE" info --json "$T_TMP/p" | sed 's/.*"hash": "\([^"]*\)".*/\1/')
      t_check "independent $rt v$fmt $abi store: asmstore verifies it ($h), extract byte-identical" test $bad = 0
    else t_fail "asmstore on the independent $rt v$fmt $abi store" "$(tail -5 "$T_TMP/out")"; fi
  done
done
# every release preset (pack --target x --runtime), every ABI: the independent checker reads it
# back (hash, index width, compression, padding detected from the bytes; XALZ through python3-lz4)
if $PY -c 'import lz4.block' 2>/dev/null; then
  set -- "$src"/*.dll; small="$T_TMP/small"; mkdir -p "$small"; cp "$1" "$2" "$3" "$small/"
  for tr in net9:monovm net10:monovm net10:coreclr net11:monovm net11:coreclr net11-preview:monovm net11-preview:coreclr; do
    for abi in arm64 arm x86_64 x86; do
      "$ASMSTORE" pack --raw --target "${tr%%:*}" --runtime "${tr##*:}" --abi "$abi" -o "$T_TMP/t.store" "$small" >/dev/null 2>&1 &&
        $PY "$TOP/tests/lib/indep_store.py" check "$T_TMP/t.store" "$small" >"$T_TMP/out" 2>&1
      t_check "pack --target ${tr%%:*} --runtime ${tr##*:} --abi $abi: the independent checker reads every image back" test $? = 0
    done
  done
  # format 1: two common assemblies, the third per ABI (an "arch" assembly, as CoreLib is)
  mkdir -p "$T_TMP/common" "$T_TMP/arch"; cp "$1" "$2" "$T_TMP/common/"; cp "$3" "$T_TMP/arch/"
  for abis in arm64 arm,x86_64,x86; do
    args=(); for a in ${abis//,/ }; do args+=(--arch "$a" "$T_TMP/arch"); done
    rm -rf "$T_TMP/set"
    "$ASMSTORE" pack --target net8 -o "$T_TMP/set" "${args[@]}" "$T_TMP/common" >"$T_TMP/out" 2>&1 &&
      $PY "$TOP/tests/lib/indep_store.py" check-v1 "$T_TMP/set" >>"$T_TMP/out" 2>&1
    t_check "pack --target net8 (.NET 6-8 set, ABIs $abis): the independent format-1 checker accepts it" test $? = 0
  done
else t_skip "release presets" "needs python3-lz4 (Debian)"; fi
t_done
