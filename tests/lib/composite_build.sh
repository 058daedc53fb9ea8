#!/usr/bin/env bash
# tests/lib/composite_build.sh OUT CROSSGEN2_VERSION APP.dll... - `make composite-net10` (mk/dotnet.mk):
# restores Microsoft.NETCore.App.Crossgen2.linux-x64 (tests/lib/dotnet_restore.sh; tools/crossgen2, one
# native executable) and compiles the installed .NET runtime's framework of the same major version
# (found as tests/lib/coreclr_env.sh does) plus APP.dll... into one composite ReadyToRun image:
#   crossgen2 --composite --targetos:linux --targetarch:x64 -O --out OUT/hello.r2r.dll FRAMEWORK/*.dll APP.dll...
# crossgen2 writes beside it one component stub per input (the IL and metadata, its native code
# replaced by a reference to hello.r2r.dll), under the input's file name.
# Left out (and named): a framework .dll that is not a managed assembly (no CLI header).
# OUT/.stamp holds a hash of crossgen2's version, the command and every input's size and mtime: when it
# matches nothing is done. Cannot restore, or no runtime: one line, exit 0, no OUT. crossgen2 fails: exit 1.
set -u
out=$1 cgver=$2; shift 2
name=$(basename "$out")
here=$(cd "$(dirname "$0")" && pwd)
for a in "$@"; do
  [ -f "$a" ] || { echo "  SKIP $name: $a not built (make coreclr-host needs dotnet)"; exit 0; }
done
# shellcheck source=tests/lib/coreclr_env.sh
. "$here/coreclr_env.sh"
if ! clr_find_runtime; then echo "  SKIP $name: $CLR_WHY"; exit 0; fi
major=${cgver%%.*}
fw=$(ls -d "$DOTNET_ROOT/shared/Microsoft.NETCore.App/$major".* 2>/dev/null | sort -V | tail -n 1)
if [ -z "$fw" ] || [ ! -f "$fw/System.Private.CoreLib.dll" ]; then
  echo "  SKIP $name: no .NET $major runtime under $DOTNET_ROOT/shared/Microsoft.NETCore.App (crossgen2 $cgver compiles for .NET $major)"; exit 0
fi
if ! dir=$("$here/dotnet_restore.sh" Microsoft.NETCore.App.Crossgen2.linux-x64 "$cgver" 2>"$out.why"); then
  echo "  SKIP $name: $(cat "$out.why")"; rm -f "$out.why"; exit 0
fi
rm -f "$out.why"
cg=$dir/tools/crossgen2
[ -x "$cg" ] || { echo "$name: $dir has no tools/crossgen2 (layout changed?)" >&2; exit 1; }

# the framework's managed assemblies: a PE image whose CLI header directory (data directory 14) is set
mapfile -t managed < <(python3 - "$fw"/*.dll <<'EOF'
import struct, sys
for p in sys.argv[1:]:
    try:
        d = open(p, "rb").read(4096)
        pe = struct.unpack_from("<I", d, 0x3c)[0]
        magic = struct.unpack_from("<H", d, pe + 24)[0]
        dirs = pe + 24 + (96 if magic == 0x10b else 112)
        rva, size = struct.unpack_from("<II", d, dirs + 14 * 8)
        ok = d[:2] == b"MZ" and d[pe:pe + 4] == b"PE\0\0" and rva and size
    except (OSError, struct.error):
        ok = False
    print(("y " if ok else "n ") + p)
EOF
)
inputs=(); left=()
for m in "${managed[@]}"; do case $m in "y "*) inputs+=("${m#y }") ;; *) left+=("$(basename "${m#n }")") ;; esac; done
[ ${#inputs[@]} -gt 0 ] || { echo "$name: no managed assembly found in $fw" >&2; exit 1; }
inputs+=("$@")
args=(--composite --targetos:linux --targetarch:x64 -O)

# OUT.root/shared/Microsoft.NETCore.App/<version>/: the runtime's own files (libcoreclr.so, ...) and the
# composite's, as relative symlinks: a DOTNET_ROOT (and a flat runtime directory) under which CoreLib, too,
# comes from the composite. (With `--tpa OUT` and the installed runtime, CoreCLR takes CoreLib from
# libcoreclr.so's own directory: the installed System.Private.CoreLib.dll and its own R2R code.)
make_root() {
  local r=$out.root/shared/Microsoft.NETCore.App/${fw##*/} f
  rm -rf "$out.root" && mkdir -p "$r" || exit 1
  for f in "$fw"/*; do case $f in *.dll) ;; *) ln -s "$f" "$r/" || exit 1 ;; esac; done
  for f in "$out"/*.dll; do ln -sr "$f" "$r/" || exit 1; done
  echo "$name: ${out##*/}.root/shared/Microsoft.NETCore.App/${fw##*/}: a DOTNET_ROOT with the composite's CoreLib"
}

key=$( { "$cg" --version 2>&1; echo "${args[*]}"; stat -L -c '%n %s %Y' "${inputs[@]}"; } | sha256sum | cut -c1-64)
if [ -f "$out/.stamp" ] && [ "$(head -n 1 "$out/.stamp")" = "$key" ] && [ -f "$out/hello.r2r.dll" ]; then
  echo "$name: up to date ($(sed -n 2p "$out/.stamp"))"
  [ -e "$out.root/shared/Microsoft.NETCore.App/${fw##*/}/hello.r2r.dll" ] || make_root
  exit 0
fi
echo "$name: crossgen2 $cgver ${args[*]}: ${#inputs[@]} inputs (${#left[@]} framework .dll left out${left[*]:+: ${left[*]}}) from $fw + $*"
tmp=$out.tmp.$$
rm -rf "$tmp"; mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
if ! "$cg" "${args[@]}" --out "$tmp/hello.r2r.dll" "${inputs[@]}" >"$out.log" 2>&1; then
  echo "$name: crossgen2 failed (exit $?): $(grep -m1 -i error "$out.log" | cut -c1-200) (all of it: $out.log)" >&2; exit 1
fi
t1=$(date +%s)
missing=()
for f in "${inputs[@]}"; do [ -f "$tmp/$(basename "$f")" ] || missing+=("$(basename "$f")"); done
if [ ! -f "$tmp/hello.r2r.dll" ] || [ ${#missing[@]} -gt 0 ]; then
  echo "$name: crossgen2 wrote no hello.r2r.dll or no stub for: ${missing[*]:-} (ls $tmp)" >&2; exit 1
fi
summary="hello.r2r.dll $(stat -c %s "$tmp/hello.r2r.dll") bytes + ${#inputs[@]} component stubs, crossgen2 $cgver, $((t1 - t0)) s, framework $fw"
printf '%s\n%s\n' "$key" "$summary" >"$tmp/.stamp"
[ ${#left[@]} -gt 0 ] && printf 'left out (not managed): %s\n' "${left[*]}" >>"$tmp/.stamp"
rm -rf "$out" && mv "$tmp" "$out" || exit 1
trap - EXIT
echo "$name: $summary"
make_root
