#!/usr/bin/env bash
# tests/lib/dotnet_restore.sh PACKAGE VERSION - downloads one NuGet package (a <PackageDownload> of a
# throwaway project, `dotnet restore`) into $NUGET_PACKAGES (mk/dotnet.mk: build/nuget) and prints
# its directory, e.g. build/nuget/microsoft.netcore.app.runtime.linux-x64/11.0.0.
# Exit 0: printed. Exit 3: it cannot be had here (no dotnet, offline, the feed refused it): one line
# on stderr says why, and nothing is left half-extracted. Already restored: no dotnet call at all.
# The feed: NuGet's default (nuget.org or the machine's mirror); DOTNET_RESTORE_SOURCE overrides it.
set -u
pkg=$1 ver=$2
: "${NUGET_PACKAGES:?set NUGET_PACKAGES (mk/dotnet.mk does)}"
lower=$(printf '%s' "$pkg" | tr 'A-Z' 'a-z')
dir=$NUGET_PACKAGES/$lower/$ver
# NuGet writes .nupkg.metadata last: with it the package is complete
if [ -f "$dir/.nupkg.metadata" ]; then echo "$dir"; exit 0; fi
if ! command -v dotnet >/dev/null 2>&1; then
  echo "$pkg $ver: not restored: no dotnet on PATH (https://learn.microsoft.com/dotnet/core/install/linux)" >&2; exit 3
fi
proj=$(dirname "$NUGET_PACKAGES")/dotnet.restore/$lower.$ver
rm -rf "$proj"; mkdir -p "$proj" || exit 3
cat >"$proj/restore.csproj" <<EOF
<Project Sdk="Microsoft.NET.Sdk">
  <!-- written by tests/lib/dotnet_restore.sh: downloads $pkg $ver, builds nothing -->
  <PropertyGroup><TargetFramework>net\$(BundledNETCoreAppTargetFrameworkVersion)</TargetFramework></PropertyGroup>
  <ItemGroup><PackageDownload Include="$pkg" Version="[$ver]" /></ItemGroup>
</Project>
EOF
src=(); [ -n "${DOTNET_RESTORE_SOURCE:-}" ] && src=(--source "$DOTNET_RESTORE_SOURCE")
to=(); command -v timeout >/dev/null 2>&1 && to=(timeout "${DOTNET_RESTORE_TIMEOUT:-300}")
"${to[@]}" env DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
  dotnet restore "$proj/restore.csproj" "${src[@]}" -nologo -v quiet >"$proj/restore.log" 2>&1
rc=$?
if [ $rc = 0 ] && [ -f "$dir/.nupkg.metadata" ]; then echo "$dir"; exit 0; fi
rm -rf "$dir" # a partial extraction must not look restored next time
why=$(grep -Eo '(error|warning) NU[0-9]+: .*' "$proj/restore.log" | head -n 1 | sed 's/ \[[^]]*\]$//' | cut -c1-200)
[ $rc = 124 ] && why="timed out after ${DOTNET_RESTORE_TIMEOUT:-300} s"
echo "$pkg $ver: not restored (offline, or the feed refused it): ${why:-dotnet restore exit $rc, see $proj/restore.log}" >&2
exit 3
