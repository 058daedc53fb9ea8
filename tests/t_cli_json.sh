#!/usr/bin/env bash
# tests/t_cli_json.sh - every reporting command's --json against docs/json.md: info, list, verify,
# extract, diff and elfcheck on every real sample in ../shared (in place; each field compared with
# EXPECTED.json) and on every pack --target/--runtime preset's output (raw, .so, format-1 set, APK),
# pack --json itself, and the failures: one valid document with "schema", "command", the ABI
# spelled as the APK's directory (or null), null for what a format does not record (never
# 0000000000000000), "error" null or {status, code, message} while the exit status keeps its rule.
. "$(dirname "$0")/lib/lib.sh"
A=$ASMSTORE
PY=/usr/bin/python3
cd "$T_TMP" || exit 2

cat >check.py <<'EOF'
"""check.py COMMAND JSON STATUS [INPUT]: the document's common rules; with INPUT under $SAMPLES,
its fields against EXPECTED.json."""
import hashlib, json, os, sys

ABIS = {"arm64-v8a", "armeabi-v7a", "x86_64", "x86", None}
command, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
inp = sys.argv[4] if len(sys.argv) > 4 else None
samples = os.environ.get("SAMPLES", "")
d = json.load(open(path, encoding="utf-8"))


def walk(v, where="$"):
    """Every "abi" in the ABI set; no all-zero hash standing in for 'none'."""
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "abi":
                assert x in ABIS, (where, k, x)
            walk(x, where + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, "%s[%d]" % (where, i))
    elif isinstance(v, str):
        assert v != "0" * 16, (where, "an all-zero hash: must be null")


assert d["schema"] == 1 and d["command"] == command, (d.get("schema"), d.get("command"))
assert list(d)[:2] == ["schema", "command"], list(d)[:2]
assert "error" in d, "no error field"
walk(d)
if status == 2 or d["error"] is not None:
    e = d["error"]
    assert set(e) == {"status", "code", "message"} and e["status"] == status, e
    assert e["message"] and (e["code"] is None or e["code"] < 0), e
    sys.exit(0)
exp_all = json.load(open(os.path.join(samples, "EXPECTED.json"))) if inp and samples else None


def expected(store):
    """The EXPECTED.json record of a store the document names, found from its label."""
    rel = os.path.relpath(inp, samples)
    for key in (os.path.relpath(store, samples) if store.startswith("/") else None,
                rel + "/" + store, os.path.dirname(rel) + "/" + store):
        if key and key in exp_all:
            return key, exp_all[key]
    raise AssertionError("no EXPECTED.json record for " + store)


def abi_of(key, x):
    if x["format"] != 1:
        return {1: "arm64-v8a", 3: "x86_64"}.get(x["abi_byte"], "?")
    for word, abi in (("arm64_v8a", "arm64-v8a"), ("armeabi_v7a", "armeabi-v7a"),
                      ("x86_64", "x86_64"), (".x86.", "x86")):
        if word in os.path.basename(key):
            return abi
    return None


def check_info(s, key, x):
    v1 = x["format"] == 1
    assert s["format"] == x["format"] and s["version_word"] == x["version_word"], s
    assert s["store_size"] == x["size"] and s["abi"] == abi_of(key, x), (s, key)
    assert s["entries"] == x["local_entry_count" if v1 else "entry_count"], s
    assert s["archive_entry"] is None and s["content_id"] is None, s
    if v1:
        assert s["store_id"] == x["store_id"] and s["hash_table_rows"] == x["global_entry_count"], s
        assert s["hash"] is None and s["manifest"] is True, s
    else:
        assert s["store_id"] is None and s["hash_table_rows"] is None and s["manifest"] is None, s
        assert s["hash"] == "xxh3-64", s


def check_list(s, key, x, tables):
    v1 = x["format"] == 1
    assert s["format"] == x["format"] and len(s["entries"]) == len(x["descriptors"]), key
    for i, (e, w) in enumerate(zip(s["entries"], x["descriptors"])):
        name = w["name_from_manifest"] + ".dll" if v1 else w["name"]
        assert e["index"] == i and e["name"] == name and e["named"] is True, (e, w)
        assert e["stored_size"] == w["data_size"] and e["size"] == w["uncompressed_size"], (e, w)
        assert e["sha256"] == w["uncompressed_sha256"], (e, w)
        assert e["pdb_size"] == w["debug_data_size"] and e["config_size"] == w["config_data_size"]
        assert e["compression"] == ("lz4" if w["magic"] == "XALZ" else "none"), (e, w)
        if not v1:
            assert e["xxh64"] is None and e["mapping_index"] == w["mapping_index"], e
        elif tables:
            assert len(e["xxh64"]) == 16 and isinstance(e["mapping_index"], int), e
        else:  # a per-ABI blob with no store 0 beside it: no hash tables to read
            assert e["xxh64"] is None and e["mapping_index"] is None, e


if command in ("info", "list", "verify", "extract"):
    assert d["input"] == inp or not inp, d["input"]
    stores = d.get("stores", [])
    if command != "extract":
        assert stores, "no stores"
    # a format-1 set's store 0 (in the document, or beside the blob opened) holds the hash tables
    v1_tables = any(s["store"].endswith("assemblies.blob") for s in stores) or (inp and any(
        f.endswith("assemblies.blob") for f in os.listdir(os.path.dirname(inp))))
    for s in stores:
        assert s["abi"] in ABIS and "store" in s, s
        if exp_all is None:
            continue
        key, x = expected(s["store"])
        if command == "info":
            check_info(s, key, x)
        elif command == "list":
            check_list(s, key, x, v1_tables)
        elif command == "verify":
            assert s["ok"] is True and s["problems"] == [] and s["entries"] == len(x["descriptors"])
    if command == "verify":
        assert d["ok"] is (status == 0) and d["problems"] == sum(len(s["problems"]) for s in stores)
    if command == "extract":
        assert d["count"] == len(d["files"]) and d["bytes"] == sum(f["size"] for f in d["files"])
        for f in d["files"]:
            assert os.path.getsize(os.path.join(d["directory"], f["path"])) == f["size"], f
        if exp_all is not None:  # every image extracted is one EXPECTED.json names
            want = {w["uncompressed_sha256"] for k, x in exp_all.items()
                    if k.startswith(os.path.relpath(inp, samples).split("/")[0])
                    for w in x.get("descriptors", [])}
            for f in d["files"]:
                got = hashlib.sha256(open(os.path.join(d["directory"], f["path"]), "rb").read())
                assert got.hexdigest() in want, f
elif command == "diff":
    assert d["same"] is True and d["changed"] == 0 and d["stores"], d
elif command == "elfcheck":
    assert d["checks"] and d["ok"] is all(c["ok"] for c in d["checks"]), d
    for c in d["checks"]:
        assert c["ok"] or c["message"], c
elif command == "unpack":
    assert d["stores"] and d["files"] >= len(d["stores"]), d
    assert os.path.isfile(os.path.join(d["directory"], d["settings"])), d
    for s in d["stores"]:
        assert os.path.isdir(os.path.join(d["directory"], s["dir"])), s
        assert s["dir"] == (s["abi"] or "any-abi") or s["dir"].startswith(s["abi"] or "any-abi"), s
elif command == "load":
    assert d["stores"], d
    for s in d["stores"]:
        c = s["counters"]
        assert s["entries"] and c["misses"] + c["hits"] + c["direct"] == len(s["entries"]), s
        assert all(len(e["xxh3"]) == 16 and e["source"] in ("hit", "miss", "direct") for e in s["entries"]), s
elif command == "cache":
    if d["operation"] == "stats":
        ids = d["store_ids"]
        assert ids and d["files"] == sum(i["files"] for i in ids) and d["bytes"] == sum(i["bytes"] for i in ids), d
        assert all(len(i["store_id"]) == 16 and i["temp"] == 0 for i in ids), d
    else:
        assert d["files_removed"] >= 1 and d["bytes_kept"] <= 1, d
elif command == "repack":
    assert d["stores"] and d["changed"] is (d["changes"] > 0) and d["signed"] is False, d
    for s in d["stores"]:
        assert s["size"] > 0 and s["store"], s
elif command == "pack":
    assert d["files"] and d["entries"] >= 1 and d["format"] in (1, 2, 3, 4), d
    for f in d["files"]:
        assert os.path.getsize(f["path"]) == f["size"], f
    assert (d["hash"] is None) == (d["format"] == 1), d
EOF

# json_ok NAME WANT_STATUS COMMAND ARGS...: runs asmstore COMMAND --json ARGS, checks its exit
# status and its document (check.py; with $INPUT set, against EXPECTED.json)
json_ok() {
  local name=$1 want=$2 cmd=$3 rc
  shift 3
  "$A" "$cmd" --json "$@" >out.json 2>err; rc=$?
  if [ "$rc" = "$want" ] && python3 check.py "$cmd" out.json "$rc" ${INPUT:+"$INPUT"} >py.out 2>&1; then
    t_ok "$name"
  else
    t_fail "$name" "exit $rc (want $want): $(tail -3 py.out) $(head -c 300 out.json) $(head -2 err)"
  fi
}

# --- every real sample in place: each store file, and each .NET 6-8 set as a directory ---
if [ -f "$SAMPLES/EXPECTED.json" ]; then
  export SAMPLES
  inputs=$(python3 -c 'import json,sys; print("\n".join(k for k, v in json.load(open(sys.argv[1])).items() if "descriptors" in v))' "$SAMPLES/EXPECTED.json")
  for d in "$SAMPLES"/v1-*; do inputs="$inputs
${d#"$SAMPLES"/}"; done
  for s in $inputs; do
    INPUT="$SAMPLES/$s"
    for c in info list verify; do
      json_ok "$s: $c --json, its fields as EXPECTED.json has them" 0 "$c" "$INPUT"
    done
    rm -rf "x-${s//\//_}"
    json_ok "$s: extract --json, each file as written, each image one EXPECTED.json names" 0 \
      extract "$INPUT" -C "x-${s//\//_}"
    json_ok "$s: diff --json against itself: the same" 0 diff "$INPUT" "$INPUT"
    rm -rf "u-${s//\//_}"
    json_ok "$s: unpack --json, each store's directory" 0 unpack "$INPUT" -C "u-${s//\//_}"
    [ -d "$INPUT" ] && continue # a set is repacked into a directory: below, for the preset's
    json_ok "$s: repack --json without a change" 0 repack "$INPUT" -o "rp-${s//\//_}"
  done
  INPUT=
else
  t_skip "real samples" "$SAMPLES/EXPECTED.json not there"
fi

# --- every pack preset's output: raw, .so, format-1 set, and each in an APK ---
mkdir in && t_pe in/Foo.dll 2000 in/Bar.dll 1500 in/Baz.dll 1800
cat >apk.py <<'EOF'
import struct, sys, zipfile
out = sys.argv[1]
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    z.writestr("AndroidManifest.xml", b"<manifest/>" * 10, zipfile.ZIP_DEFLATED)
    for pair in sys.argv[2:]:
        name, path = pair.split("=", 1)
        zi = zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0))
        data = z.fp.tell() + 30 + len(name) + 4  # with an alignment record (0xD935)
        pad = -data % 16384
        zi.extra = struct.pack("<HH", 0xD935, pad) + b"\0" * pad
        z.writestr(zi, open(path, "rb").read())
EOF
# reads the output files of pack's document (one a line)
pack_files() { python3 -c 'import json,sys; print("\n".join(f["path"] for f in json.load(open(sys.argv[1]))["files"]))' "$1"; }
for tg in net8 net9 net10 net11 net11-preview net12; do
  for rt in monovm coreclr; do
    p=$tg-$rt
    "$A" pack -o "$p.try" --target "$tg" --runtime "$rt" in 2>err >/dev/null; rc=$?
    if [ "$rc" = 2 ] && grep -q "no $rt store exists" err; then continue; fi
    rm -rf "$p.try"
    fmt1=0; [ "$tg" = net8 ] && fmt1=1
    if [ $fmt1 = 1 ]; then
      json_ok "$p: pack --json, the set's files" 0 pack -o "$p.set" --target "$tg" --runtime "$rt" in
      cp out.json "$p.pack.json"
      outs="$p.set"
      set -- ; for f in $(pack_files "$p.pack.json"); do set -- "$@" "assemblies/$(basename "$f")=$f"; done
      python3 apk.py "$p.apk" "$@"
    else
      json_ok "$p: pack --json (.so)" 0 pack -o "$p.so" --target "$tg" --runtime "$rt" in
      cp out.json "$p.pack.json"
      json_ok "$p: pack --json --raw" 0 pack --raw -o "$p.raw" --target "$tg" --runtime "$rt" in
      so=$(pack_files "$p.pack.json")
      python3 apk.py "$p.apk" "lib/arm64-v8a/libassembly-store.so=$so" \
        "lib/arm64-v8a/$(basename "$so")=$so"
      outs="$p.so $p.raw"
      json_ok "$p: elfcheck --json on the .so" 0 elfcheck "$p.so"
      json_ok "$p: elfcheck --json on the APK" 0 elfcheck "$p.apk"
    fi
    for o in $outs "$p.apk"; do
      for c in info list verify; do json_ok "$o: $c --json" 0 "$c" "$o"; done
      rm -rf "x-$o"
      json_ok "$o: extract --json" 0 extract "$o" -C "x-$o"
      json_ok "$o: diff --json against itself" 0 diff "$o" "$o"
      json_ok "$o: repack --json without a change" 0 repack "$o" -o "rp-$o"
      rm -rf "u-$o"
      json_ok "$o: unpack --json" 0 unpack "$o" -C "u-$o"
    done
    # what info and list say agrees with what pack said it wrote
    "$A" info --json "$p.apk" >info.json && "$A" list --json "$p.apk" >list.json
    t_check "$p: info/list --json agree with pack --json (format, ABI, entries; a format-1 store 0 has no ABI)" \
      python3 - "$p.pack.json" info.json list.json <<'EOF'
import json, sys
pack, info, lst = (json.load(open(f)) for f in sys.argv[1:])
arch = [s for s in info["stores"] if s["abi"] is not None]
assert (arch or pack["format"] == 1) and all(s["format"] == pack["format"] and s["abi"] == "arm64-v8a" for s in arch), info
assert all(s["archive_entry"]["alignment"] >= 4 for s in info["stores"]), info
if pack["format"] == 1:
    # every assembly here is ABI-neutral: all in store 0, which has no ABI
    assert [(s["abi"], s["store_id"]) for s in info["stores"]] == [(None, 0)], info
    assert all(s["hash"] is None and s["content_id"] is None for s in info["stores"]), info
else:
    assert all(s["store_id"] is None and s["manifest"] is None for s in info["stores"]), info
    es = lst["stores"][0]["entries"]
    assert len(es) == pack["entries"] and all(e["xxh64"] is None for e in es), (es, pack)
EOF
  done
done

# --- cache stats and prune over a cache load filled ---
json_ok "load --json through a cache: each entry's source and XXH3-64, the counters" 0 load --cache cdir net10-monovm.raw --all
json_ok "load --json again: hits now" 0 load --cache cdir net10-monovm.raw --all
python3 -c 'import json; c=json.load(open("out.json"))["stores"][0]["counters"]; assert c["hits"] == 3 and c["misses"] == 0, c' &&
  t_ok "  ... 3 hits, 0 misses" || t_fail "load --json warm" "$(cat out.json)"
json_ok "load --json of a name not there: exit 1, error with the library's result" 1 load net10-monovm.raw Nope
json_ok "cache stats --json: each store id's files and bytes, and the totals" 0 cache stats cdir
json_ok "cache prune --json --max-bytes 1: what was removed and kept" 0 cache prune cdir --max-bytes 1
json_ok "cache stats --json of a directory with no cache: exit 1, error" 1 cache stats in

# --- failures: one document with "error", the exit status as the rule says ---
json_ok "info --json of a missing file: exit 2, error with the I/O result" 2 info missing.bin
python3 -c 'import json,sys; e=json.load(open("out.json"))["error"]; assert e["code"] == -12 and "missing.bin" in e["message"], e' &&
  t_ok "  ... its code is ASMSTORE_ERR_IO (-12), its message names the file" || t_fail "missing file's error" "$(cat out.json)"
echo 'not a store' >text.txt
json_ok "list --json of a text file: exit 1, error with the library's result" 1 list text.txt
python3 -c 'import json,sys; e=json.load(open("out.json"))["error"]; assert e["code"] < 0 and "text.txt" in e["message"], e' &&
  t_ok "  ... a result code and the file in its message" || t_fail "text file's error" "$(cat out.json)"
json_ok "diff --json with a missing second input: exit 2, error" 2 diff net10-monovm.raw missing.bin
json_ok "pack --json to a missing directory: exit 2, error" 2 pack -o no/such/dir/x.so in
json_ok "repack --json of a missing input: exit 2, error" 2 repack missing.bin -o rp-missing
json_ok "unpack --json into a directory that is not empty: exit 2, error" 2 unpack net10-monovm.raw -C in
json_ok "elfcheck --json of a text file: exit 1, the check not ok" 1 elfcheck text.txt
# the CLI's own refusals and usage errors: "error" is the first stderr line without "asmstore: "
# (a usage error's "asmstore CMD: "), not a pointer to stderr; one document even before the
# command's began (docs/json.md §1)
json_refusal() { # NAME STATUS CODE COMMAND ARGS...: CODE "null" or the result's number
  local name=$1 want=$2 code=$3 cmd=$4 rc; shift 4
  "$A" "$cmd" --json "$@" >out.json 2>err; rc=$?
  if [ "$rc" = "$want" ] && python3 - "$cmd" "$rc" "$code" <<'EOF' >py.out 2>&1; then
import json, sys
cmd, rc, code = sys.argv[1:]
d = json.load(open("out.json"))
line = open("err").readline().rstrip("\n")
for prefix in ("asmstore: ", "asmstore %s: " % cmd):
    if line.startswith(prefix):
        line = line[len(prefix):]
e = d["error"]
assert list(d)[:2] == ["schema", "command"] and d["command"] == cmd and list(d)[-1] == "error", d
assert e["status"] == int(rc) and json.dumps(e["code"]) == code, e
assert e["message"] == line, (e["message"], line)
EOF
    t_ok "$name"
  else
    t_fail "$name" "exit $rc (want $want): $(tail -3 py.out) $(head -c 300 out.json) $(head -2 err)"
  fi
}
json_refusal "unpack --json into a directory that is not empty: its refusal is the error" 2 null \
  unpack net10-monovm.raw -C in
json_refusal "pack --json -o into a missing directory: its refusal is the error" 2 null \
  pack -o no/such/dir/x.so in
json_refusal "pack --json --target net5: the bad value is the error, before the document began" 2 null \
  pack --target net5 -o x.so in
json_refusal "repack --json --add: its refusal is the error" 1 null \
  repack net10-monovm.raw -o rp-add --add in/Foo.dll
json_refusal "info --json --bogus: the unknown option is the error" 2 null info --bogus net10-monovm.raw
json_refusal "list --json and no STORE: the usage line is the error" 2 null list
json_refusal "extract --json -C with no value: the usage error is the error" 2 null extract net10-monovm.raw -C
rm -rf xm
json_ok "extract --json of a name not there: exit 1, error null" 1 extract net10-monovm.raw -C xm Nope.dll
python3 -c 'import json,sys; d=json.load(open("out.json")); assert d["missing"] == ["Nope.dll"] and d["error"] is None and d["files"] == [], d' &&
  t_ok "  ... \"missing\" names it" || t_fail "extract missing" "$(cat out.json)"
# a damaged image: verify's finding is its report (exit 1, error null), named in "problems"
"$A" pack --raw --no-compress -o plain.raw --target net10 --runtime monovm in 2>/dev/null
$PY - "$TOP/tests/lib" plain.raw <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from indep_store import parse_v2
b = bytearray(open(sys.argv[2], "rb").read())
# the last image found by its descriptor, not by searching for "MZ", which its random filler may hold
i = max(d[1] for d in parse_v2(b)["descriptors"])
b[i:i + 2] = b"XX"  # the last image no longer starts as a PE file does
open(sys.argv[2], "wb").write(b)
EOF
json_ok "verify --json of a damaged image: exit 1, error null" 1 verify plain.raw
python3 -c 'import json,sys; d=json.load(open("out.json")); s=d["stores"][0]; assert d["error"] is None and d["ok"] is False and not s["ok"] and s["problems"] and d["problems"] == len(s["problems"]), d' &&
  t_ok "  ... the store not ok, its problem in \"problems\"" || t_fail "verify damaged" "$(cat out.json)"
rm -rf xd
"$A" extract --json plain.raw -C xd >out.json 2>err; rc=$?
python3 -c 'import json,sys; d=json.load(open("out.json")); e=d["error"]; assert e["status"] == 1 and e["code"] == -39 and "not extracted" in e["message"] and len(d["files"]) == 2, d' && [ $rc = 1 ] &&
  t_ok "extract --json of the damaged image: exit 1, the others written, the one not extracted in error" || t_fail "extract damaged" "rc=$rc $(cat out.json)"
t_done
