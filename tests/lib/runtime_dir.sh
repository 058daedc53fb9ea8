#!/usr/bin/env bash
# tests/lib/runtime_dir.sh OUT VERSION TFM - `make runtime-net11` (mk/dotnet.mk): restores
# Microsoft.NETCore.App.Runtime.linux-x64 VERSION (tests/lib/dotnet_restore.sh) and assembles OUT, a flat
# runtime directory laid out like an installed shared/Microsoft.NETCore.App/<version>/: every file of
# the package's runtimes/linux-x64/native/ (libcoreclr.so, libclrjit.so, libSystem.*.so, createdump)
# and runtimes/linux-x64/lib/TFM/ (every framework .dll, System.Private.CoreLib.dll included, and
# Microsoft.NETCore.App.deps.json) and .version, as relative symlinks into the package (CoreCLR takes its
# directory from the path libcoreclr.so was loaded by, not the link's target, so CoreLib is found
# beside the link; checked by tests/t_host_composite.sh). libhostfxr.so is left out: an installed runtime
# keeps it in host/fxr/, not here.
# OUT/.stamp names the package; with it and every link intact nothing is done. Cannot restore: one
# line, exit 0, no OUT (an old complete OUT stays). A layout that is not what we expect: exit 1.
set -u
out=$1 ver=$2 tfm=$3
pkg=Microsoft.NETCore.App.Runtime.linux-x64
want="$pkg $ver runtimes/linux-x64/native runtimes/linux-x64/lib/$tfm .version"
name=$(basename "$out")
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$want" ] && [ -z "$(find "$out" -xtype l)" ]; then
  echo "$name: up to date ($pkg $ver, $(ls "$out"/*.dll | wc -l) assemblies)"; exit 0
fi
if ! dir=$("$(dirname "$0")/dotnet_restore.sh" "$pkg" "$ver" 2>"$out.why"); then
  echo "  SKIP $name: $(cat "$out.why")"; rm -f "$out.why"; exit 0
fi
rm -f "$out.why"
native=$dir/runtimes/linux-x64/native lib=$dir/runtimes/linux-x64/lib/$tfm
for f in "$native/libcoreclr.so" "$native/libclrjit.so" "$lib/System.Private.CoreLib.dll" "$lib/System.Runtime.dll"; do
  [ -f "$f" ] || { echo "$name: $pkg $ver has no ${f#"$dir"/} (layout changed?)" >&2; exit 1; }
done
tmp=$out.tmp.$$
rm -rf "$tmp"; mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
for f in "$native"/* "$lib"/*; do
  case ${f##*/} in libhostfxr.so) continue ;; esac
  [ -e "$tmp/${f##*/}" ] && { echo "$name: ${f##*/} is in both native/ and lib/$tfm/" >&2; exit 1; }
  ln -sr "$f" "$tmp/" || exit 1
done
# .version as an installed runtime has it (the source commit, then the version): the package's versions.txt
[ -f "$dir/Microsoft.NETCore.App.versions.txt" ] && ln -sr "$dir/Microsoft.NETCore.App.versions.txt" "$tmp/.version"
echo "$want" >"$tmp/.stamp"
rm -rf "$out" && mv "$tmp" "$out" || exit 1
trap - EXIT
echo "$name: $pkg $ver: $(ls "$out"/*.dll | wc -l) assemblies + $(ls "$out"/*.so | wc -l) native libraries, symlinks into ${dir#"$PWD"/}"
