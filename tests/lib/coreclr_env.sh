# tests/lib/coreclr_env.sh - sourced by tests/t_host_coreclr.sh, tests/t_host_composite.sh, examples/demo.sh and the bench:
# how a CoreCLR store is packed, which .NET runtime build/coreclr_host will run, and what the program prints.

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

# clr_want_fixed: the first 9 lines examples/hello_clr prints for `hello.dll store "two words"` (the work it does;
# its 10th, "loaded: ...", depends on the runtime and layout)
clr_want_fixed() {
  cat <<'EOF'
args: 2 [0]=store [1]=two words
hello, store, from an assembly store
primes: 2 3 5 7 11 13 17 19 23 29 31 37
sum of squares: 4727
json: {"1":[11,31],"2":[2],"3":[3,13,23],"5":[5],"7":[7,17,37],"9":[19,29]}
json parsed back: 6 groups, sum 197
regex: 5 pairs, runtime=coreclr, numbers 86 64 3 346
xml: 263 chars, 12 <p> elements, busiest last digit 3
fnv1a: 17a337d2
EOF
}
