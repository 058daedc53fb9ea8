# tests/coreclr_env.sh - sourced by tests/t_coreclr.sh, examples/demo.sh and tests/bench/time_to_main.sh:
# how a CoreCLR store is packed, and which .NET runtime build/coreclr_host will run.

# The pack flags for a CoreCLR store (one place to change them).
PACK_CORECLR_FLAGS=${PACK_CORECLR_FLAGS:---target net11 --runtime coreclr}

# clr_find_runtime: sets CLR_DIR (.../shared/Microsoft.NETCore.App/<version>: libcoreclr.so and the
# framework's *.dll) and CLR_VERSION, and exports DOTNET_ROOT so that coreclr_host picks the same
# runtime (the highest version under DOTNET_ROOT) without asking `dotnet`. Returns 1, with CLR_WHY
# set to a one-line reason, when there is none.
clr_find_runtime() {
  local base v
  CLR_DIR=; CLR_VERSION=; CLR_WHY=
  if [ -z "${DOTNET_ROOT:-}" ]; then
    if ! command -v dotnet >/dev/null 2>&1; then
      CLR_WHY="no .NET runtime (dotnet not on PATH, DOTNET_ROOT unset; install: https://learn.microsoft.com/dotnet/core/install/linux)"
      return 1
    fi
    base=$(dotnet --list-runtimes 2>/dev/null | sed -n 's/^Microsoft\.NETCore\.App [^ ]* \[\(.*\)\]$/\1/p' | tail -n 1)
    [ -n "$base" ] && DOTNET_ROOT=${base%/shared/Microsoft.NETCore.App}
  fi
  v=$(ls "${DOTNET_ROOT:-/nonexistent}/shared/Microsoft.NETCore.App" 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$v" ] || [ ! -f "$DOTNET_ROOT/shared/Microsoft.NETCore.App/$v/libcoreclr.so" ]; then
    CLR_WHY="no Microsoft.NETCore.App runtime under DOTNET_ROOT=${DOTNET_ROOT:-} (dotnet --list-runtimes)"
    return 1
  fi
  export DOTNET_ROOT
  CLR_VERSION=$v
  CLR_DIR=$DOTNET_ROOT/shared/Microsoft.NETCore.App/$v
}
