#!/bin/bash
# tests/t_identity.sh - who each assembly says it is (asmstore_pe_identity, list --json's "identity"):
# name, version, culture, public key token, MVID, COFF timestamp, debug id, PDB path and checksum of
# every assembly of the .NET shared framework, Mono's 4.5 profile and its facades, and the real .NET 10
# sample's linked assemblies, each equal to what System.Reflection.Metadata (the .NET runtime's own
# reader, tests/lib/identity_ref) says of the same file; what is no assembly has "identity": null.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
REF=$B/identity_ref/bin/identity_ref.dll
FW=${FW:-$(ls -d /usr/share/dotnet/shared/Microsoft.NETCore.App/10.* 2>/dev/null | sort -V | tail -1)}
T=$T_TMP

if [ ! -e "$REF" ] || ! command -v dotnet >/dev/null; then t_skip "identity" "no dotnet (the reference is System.Reflection.Metadata; make identity-ref)"; t_done; exit; fi

# same FILES... STORE LABEL: the store's identities equal the reference's, file by file
same() {
    local label=$1 store=$2; shift 2
    dotnet "$REF" "$@" >"$T/$label.ref" &&
    "$ASMSTORE" list --json "$store" >"$T/$label.json" &&
    $PY - "$T/$label.json" "$T/$label.ref" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
ref = {}
for line in open(sys.argv[2]):
    r = json.loads(line); ref[r.pop('file')] = r
ours = {e['name']: e['identity'] for s in doc['stores'] for e in s['entries']}
bad = [n for n in ref if ours.get(n) != ref[n]] + [n for n in ours if ours[n] is not None and n not in ref]
for n in bad[:5]:
    print(n, '\n  ours:', ours.get(n), '\n  ref: ', ref.get(n))
print(len(ref), 'assemblies compared,', len(bad), 'differ')
sys.exit(1 if bad or not ref else 0)
PYEOF
}

if [ -n "$FW" ]; then
  "$ASMSTORE" pack -o "$T/fw.blob" --raw --compression none "$FW"/*.dll >/dev/null 2>&1
  t_check "the .NET shared framework ($(basename "$FW")): every assembly as System.Reflection.Metadata reads it (debug ids, PDB checksums)" same fw "$T/fw.blob" "$FW"/*.dll
else
  t_skip "the .NET shared framework" "no /usr/share/dotnet/shared/Microsoft.NETCore.App/10.*"
fi
if [ -e "$MONO45/mscorlib.dll" ]; then
  "$ASMSTORE" pack -o "$T/mono.blob" --raw "$MONO45"/*.dll "$MONO45"/*.exe >/dev/null 2>&1
  "$ASMSTORE" pack -o "$T/facades.blob" --raw --target net10 "$MONO45"/Facades/*.dll >/dev/null 2>&1
  t_check "Mono's 4.5 profile, zstd-compressed: every assembly as System.Reflection.Metadata reads it" same mono "$T/mono.blob" "$MONO45"/*.dll "$MONO45"/*.exe
  t_check "Mono's facades in a .NET 10 store (LZ4): every assembly as System.Reflection.Metadata reads it" same facades "$T/facades.blob" "$MONO45"/Facades/*.dll
else
  t_skip "Mono's 4.5 profile" "absent (Debian: mono-devel)"
fi
V3=$SAMPLES/v3-watercountdown-widget/x86_64/assembly-store.so
if [ -e "$V3" ]; then
  "$ASMSTORE" extract -C "$T/v3" "$V3" >/dev/null 2>&1
  t_check "the real .NET 10 sample's linked assemblies (no debug directory): as System.Reflection.Metadata reads them" same v3 "$V3" "$T/v3"/*.dll
fi

# what is no assembly: a store packed --no-check with a text file and an assembly cut short has null
# identities
printf 'not an assembly' >"$T/text.dll"
head -c 4000 "$REF" >"$T/cut.dll"
"$ASMSTORE" pack -o "$T/junk.blob" --raw --no-check "$T/text.dll" "$T/cut.dll" >/dev/null 2>&1
t_check "an image that is no assembly: \"identity\": null, and list still exits 0" \
    bash -c "'$ASMSTORE' list --json '$T/junk.blob' | $PY -c 'import json,sys; d=json.load(sys.stdin); assert [e[\"identity\"] for s in d[\"stores\"] for e in s[\"entries\"]] == [None, None]'"
t_done
