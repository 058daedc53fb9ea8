"""The asmstore Python package (python/), run by tests/t_python.sh against an installed copy.

Environment: ASMSTORE_TOP (the clone, default ../..), ASMSTORE_SAMPLES (the real samples; their
tests skip without them), ASMSTORE (the CLI to compare with, default build/asmstore in the clone;
its tests skip without it)."""
import filecmp
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
import zlib

import pytest

import asmstore

TOP = os.environ.get("ASMSTORE_TOP") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SAMPLES = os.environ.get("ASMSTORE_SAMPLES") or os.path.join(TOP, "..", "shared",
                                                             "assembly-store-samples")
HAVE_SAMPLES = os.path.isfile(os.path.join(SAMPLES, "EXPECTED.json"))
needs_samples = pytest.mark.skipif(not HAVE_SAMPLES, reason="no real samples at " + SAMPLES)
CLI = os.environ.get("ASMSTORE") or os.path.join(TOP, "build", "asmstore")
needs_cli = pytest.mark.skipif(not os.access(CLI, os.X_OK), reason="no CLI at " + CLI)
#: every real sample input (a .NET 6-8 set is its directory)
SAMPLE_INPUTS = ["v1-expandroid", "v1-razr-pointcrep",
                 "v3-watercountdown-widget/arm64-v8a/assembly-store.so",
                 "v3-watercountdown-widget/x86_64/assembly-store.so"]
PRESETS = [("net8", "monovm"), ("net9", "monovm"), ("net10", "monovm"), ("net10", "coreclr"),
           ("net11", "monovm"), ("net11", "coreclr"), ("net11-preview", "monovm"),
           ("net11-preview", "coreclr")]
FORMAT = {"net8": 1, "net9": 2, "net10": 3, "net11": 3, "net11-preview": 4}


def sha256(b):
    return hashlib.sha256(b).hexdigest()


def mini_pe(path, size, fill="random"):
    """The smallest real assembly of size bytes (tests/lib/mini_pe.py), its bytes."""
    subprocess.run([sys.executable, os.path.join(TOP, "tests", "lib", "mini_pe.py"), "--fill", fill,
                    str(path), str(size)], check=True)
    with open(path, "rb") as f:
        return f.read()


@pytest.fixture
def assemblies(tmp_path):
    """Three real minimal assemblies: name -> bytes (one zero-filled, so it compresses)."""
    d = tmp_path / "in"
    d.mkdir()
    return {name: mini_pe(d / name, size, fill) for name, size, fill in
            [("App.dll", 4096, "random"), ("Lib.dll", 20000, "zero"), ("Tiny.dll", 1024, "random")]}


def store_of(tmp_path, assemblies, **kw):
    files = [tmp_path / "in" / n for n in assemblies]
    return asmstore.pack(files, tmp_path / "app.so", **kw)


def apk_with(tmp_path, so, compress=zipfile.ZIP_DEFLATED, abi="arm64-v8a"):
    apk = tmp_path / "app.apk"
    with zipfile.ZipFile(apk, "w") as z:
        z.writestr("AndroidManifest.xml", b"<manifest/>")
        z.write(so, "lib/%s/libassembly-store.so" % abi, compress_type=compress)
    return apk


# ---- the real samples against EXPECTED.json -------------------------------------------------
def expected():
    with open(os.path.join(SAMPLES, "EXPECTED.json")) as f:
        return json.load(f)


def sample_stores():
    return [k for k, v in expected().items() if "descriptors" in v] if HAVE_SAMPLES else []


@needs_samples
@pytest.mark.parametrize("key", sample_stores())
def test_sample_matches_expected(key):
    want = expected()[key]
    with asmstore.open(os.path.join(SAMPLES, key)) as store:
        unit = next(i for i, s in enumerate(store.stores) if key.endswith(s.label.split("/")[-1]))
        info = store.stores[unit]
        assert info.format == want["format"]
        assert info.version_word == int(want["version_word"], 16)
        assert info.entry_count == len(want["descriptors"])
        entries = [e for e in store if e.store == unit]
        assert len(entries) == len(want["descriptors"])
        for e, d in zip(entries, want["descriptors"]):
            name = d.get("name") or d.get("name_from_manifest")
            assert e.name == name
            assert e.stored_size == d["data_size"]
            assert e.size == d["uncompressed_size"]
            assert e.compression == asmstore.Compression.LZ4
            image = store.read(e)
            assert sha256(image) == d["uncompressed_sha256"]
            assert bytes(image[:2]) == d["uncompressed_starts_with"].encode()
            assert sha256(store[name]) == d["uncompressed_sha256"]


@needs_samples
def test_sample_xalz_slices_are_the_stores_entries():
    """Each xalz/ slice is one entry of a sample store: its image is what the store gives."""
    slices = {k: v for k, v in expected().items() if k.startswith("xalz/")}
    where = {"watercountdown-arm64-v8a.": "v3-watercountdown-widget/arm64-v8a/assembly-store.so",
             "razr-pointcrep-base.": "v1-razr-pointcrep/base_assemblies.blob"}
    assert slices
    for key, want in slices.items():
        base = key[len("xalz/"):]
        prefix = next(p for p in where if base.startswith(p))
        name = base[len(prefix):-len(".xalz")]
        with asmstore.open(os.path.join(SAMPLES, where[prefix])) as store:
            e = next(e for e in store if e.file_name == name or e.name == name[:-4])
            assert e.stored_size == want["size"]
            assert e.size == want["uncompressed_size"]
            assert sha256(store.read(e)) == want["uncompressed_sha256"]


@needs_samples
def test_sample_sets_and_abis():
    with asmstore.open(os.path.join(SAMPLES, "v1-expandroid"), abi="armeabi-v7a") as s:
        assert s.info.abi == "armeabi-v7a" and s.info.format == 1
        assert sorted(s.abis) == ["arm64-v8a", "armeabi-v7a"]
        assert "System.Text.Json.dll" in s and "System.Text.Json" in s
    with asmstore.open(os.path.join(SAMPLES, "v1-razr-pointcrep")) as s:
        assert [i.store_id for i in s.stores] == [0, 1]  # assemblies.blob, then the ABI's blob
        assert len(s) == 25
        assert s.info.store_id == 1
        assert sha256(s["StereoKit.dll"]) == sha256(s["StereoKit"])


@needs_samples
def test_sample_libxamarin_app_holds_no_store():
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.open(os.path.join(SAMPLES, "v3-watercountdown-widget/x86_64/libxamarin-app.so"))
    assert e.value.code_name == "ERR_NO_PAYLOAD" and e.value.status == 1
    assert "libassembly-store.so" in e.value.message


# ---- pack -> open, every preset ---------------------------------------------------------------
@pytest.mark.parametrize("target,runtime", PRESETS)
def test_pack_open_round_trip(tmp_path, assemblies, target, runtime):
    out = tmp_path / "out"
    out.mkdir()
    asmstore.pack([tmp_path / "in" / n for n in assemblies], str(out) + "/", target=target,
                  runtime=runtime, abi="arm64")
    written = sorted(os.listdir(out))
    path = out if target == "net8" else out / written[0]
    with asmstore.open(path) as store:
        assert store.info.format == FORMAT[target]
        assert store.info.abi == ("every ABI" if target == "net8" else "arm64-v8a")
        assert store.info.runtime.lower() == runtime
        real = [e for e in store if not e.ignored]
        assert sorted(e.file_name for e in real) == sorted(assemblies)
        for name, data in assemblies.items():
            assert bytes(store[name]) == data
            assert bytes(store[name[:-4]]) == data
        ignored = [e for e in store if e.ignored]
        for e in ignored:
            with pytest.raises(asmstore.EntryNotFound) as err:
                store.read(e.name)
            assert err.value.code_name == "ERR_IGNORED" and e.name not in store


def test_pack_returns_bytes_and_options(tmp_path, assemblies):
    blob = asmstore.pack([tmp_path / "in" / n for n in assemblies], target="net10", raw=True,
                         level=3, compression="zstd")
    assert blob[:4] == b"XABA"
    path = tmp_path / "raw.bin"
    path.write_bytes(blob)
    with asmstore.open(path) as store:
        assert store.info.wrapper == "raw"
        assert {e.compression for e in store} == {asmstore.Compression.ZSTD}
        assert bytes(store["Lib.dll"]) == assemblies["Lib.dll"]


def test_pack_refuses_what_the_cli_refuses_and_prints_nothing(tmp_path, capfd):
    bad = tmp_path / "NotAnAssembly.dll"
    bad.write_bytes(b"just some bytes" * 100)
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.pack([bad], tmp_path / "x.so")
    assert e.value.status == 1
    assert "NotAnAssembly.dll" in e.value.message
    assert not (tmp_path / "x.so").exists()
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.pack([bad], tmp_path / "x.so", target="net7")
    assert e.value.status == 2
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # the CLI's messages went to the exception only


def test_pack_no_check_packs_bytes(tmp_path):
    raw = tmp_path / "Blob.dll"
    raw.write_bytes(b"\x01\x02" * 300)
    blob = asmstore.pack([raw], check=False, compression="none", raw=True)
    (tmp_path / "s").write_bytes(blob)
    with asmstore.open(tmp_path / "s") as store:
        assert bytes(store["Blob"]) == raw.read_bytes()


# ---- reading: bytes, views, closing, APKs -----------------------------------------------------
def test_view_is_a_memoryview_over_the_mapping(tmp_path, assemblies):
    so = store_of(tmp_path, assemblies, compression="none")
    store = asmstore.open(so)
    assert type(store["App.dll"]) is bytes and type(store.read_pdb("App.dll")) is type(None)
    view = store.view("App.dll")
    assert isinstance(view, memoryview) and view.readonly
    assert bytes(view) == assemblies["App.dll"]
    with pytest.raises(BufferError):
        store.close()  # a live view keeps the mapping
    view.release()
    store.close()
    assert store.closed
    with pytest.raises(ValueError):
        store.read("App.dll")
    with pytest.raises(ValueError):
        store.extract(tmp_path / "x")
    store.close()  # twice is fine


def test_compressed_images_are_bytes(tmp_path, assemblies):
    with asmstore.open(store_of(tmp_path, assemblies, compression="zstd")) as store:
        image = store["Lib.dll"]
        assert type(image) is bytes and image == assemblies["Lib.dll"]
        e = next(e for e in store if e.name == "Lib.dll")
        assert e.compression == asmstore.Compression.ZSTD and e.stored_size < e.size


def test_missing_names_raise_key_errors(tmp_path, assemblies):
    with asmstore.open(store_of(tmp_path, assemblies)) as store:
        with pytest.raises(KeyError):
            store["Nope.dll"]
        with pytest.raises(asmstore.EntryNotFound) as e:
            store.read("Nope")
        assert e.value.code_name == "ERR_NOT_FOUND"
        assert "Nope.dll" not in store
        assert store.read_pdb("App.dll") is None and store.read_config("App.dll") is None


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_apk(tmp_path, assemblies, method):
    apk = apk_with(tmp_path, store_of(tmp_path, assemblies), method)
    with asmstore.open(apk) as store:
        assert store.info.in_archive
        assert store.info.deflated == (method == zipfile.ZIP_DEFLATED)
        assert store.info.label == "lib/arm64-v8a/libassembly-store.so"
        assert bytes(store["Tiny.dll"]) == assemblies["Tiny.dll"]
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.open(apk, abi="x86")
    assert "for that ABI" in e.value.message


def test_aab(tmp_path, assemblies):
    aab = tmp_path / "app.aab"
    with zipfile.ZipFile(aab, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("base/manifest/AndroidManifest.xml", b"<manifest/>")
        so = store_of(tmp_path, assemblies, abi="x86_64")
        z.write(so, "base/lib/x86_64/libassembly-store.so")
    with asmstore.open(aab) as store:
        assert store.info.label == "base/lib/x86_64/libassembly-store.so"
        assert store.abis == ["x86_64"] and bytes(store["Lib"]) == assemblies["Lib.dll"]


def test_split_apks_and_abi_choice(tmp_path, assemblies):
    so = store_of(tmp_path, assemblies)
    base = tmp_path / "base.apk"
    with zipfile.ZipFile(base, "w") as z:
        z.writestr("AndroidManifest.xml", b"<manifest/>")
    with zipfile.ZipFile(tmp_path / "split_config.arm64_v8a.apk", "w") as z:
        z.write(so, "lib/arm64-v8a/libassembly-store.so")
    with asmstore.open(base) as store:
        assert store.info.from_split and store.abis == ["arm64-v8a"]
        assert bytes(store["App"]) == assemblies["App.dll"]


def test_extract(tmp_path, assemblies, capfd):
    with asmstore.open(store_of(tmp_path, assemblies)) as store:
        assert store.extract(tmp_path / "x") == 3
    for name, data in assemblies.items():
        assert (tmp_path / "x" / name).read_bytes() == data
    assert capfd.readouterr() == ("", "")


def test_extract_never_writes_through_a_symlink(tmp_path, assemblies):
    (tmp_path / "x").mkdir()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere" / "App.dll", tmp_path / "x" / "App.dll")
    with asmstore.open(store_of(tmp_path, assemblies)) as store:
        assert store.extract(tmp_path / "x") == 3
    assert not (tmp_path / "elsewhere" / "App.dll").exists()  # the link is replaced, not followed
    assert not os.path.islink(tmp_path / "x" / "App.dll")
    os.symlink(tmp_path / "elsewhere", tmp_path / "linked")
    with asmstore.open(store_of(tmp_path, assemblies)) as store:
        with pytest.raises(asmstore.AsmstoreError) as e:
            store.extract(tmp_path / "linked")
    assert e.value.status == 2 and "symlink" in e.value.message
    assert os.listdir(tmp_path / "elsewhere") == []


# ---- repack -----------------------------------------------------------------------------------
def test_repack_replace_with_bytes_and_path(tmp_path, assemblies):
    so = store_of(tmp_path, assemblies, target="net10")
    new_app = mini_pe(tmp_path / "App2.dll", 5000)
    new_lib = mini_pe(tmp_path / "Lib2.dll", 9000, "zero")
    asmstore.repack(so, tmp_path / "new.so", replace={"App.dll": new_app,
                                                      "Lib.dll": tmp_path / "Lib2.dll"})
    with asmstore.open(tmp_path / "new.so") as store:
        assert bytes(store["App.dll"]) == new_app
        assert bytes(store["Lib.dll"]) == new_lib
        assert bytes(store["Tiny.dll"]) == assemblies["Tiny.dll"]
        assert store.info.release == asmstore.open(so).info.release


def test_repack_remove_and_apk(tmp_path, assemblies):
    apk = apk_with(tmp_path, store_of(tmp_path, assemblies), zipfile.ZIP_STORED)
    asmstore.repack(apk, tmp_path / "new.apk", remove=["Tiny.dll"])
    with asmstore.open(tmp_path / "new.apk") as store:
        assert "Tiny.dll" not in store and "App.dll" in store


def test_repack_errors_carry_the_cli_message(tmp_path, assemblies, capfd):
    so = store_of(tmp_path, assemblies)
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.repack(so, tmp_path / "new.so", replace={"Missing.dll": b"x"})
    assert e.value.status == 1 and "Missing.dll" in e.value.message
    assert not (tmp_path / "new.so").exists()
    assert capfd.readouterr() == ("", "")


# ---- bad input raises, never crashes ----------------------------------------------------------
def test_errors_carry_code_and_offset(tmp_path, assemblies):
    data = bytearray(open(store_of(tmp_path, assemblies, raw=True), "rb").read())
    (tmp_path / "t").write_bytes(bytes(data[:40]))
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.open(tmp_path / "t")
    assert e.value.code < 0 and e.value.code_name.startswith("ERR_")
    assert asmstore.RESULTS[e.value.code][1] in e.value.message
    with pytest.raises(FileNotFoundError):
        asmstore.open(tmp_path / "not-there")
    with pytest.raises(ValueError):
        asmstore.open(tmp_path / "t", abi="mips")
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.open(tmp_path / "empty")
    assert e.value.code_name == "ERR_TRUNCATED" and "cut short" in e.value.message


def test_every_word_broken_raises_with_code_offset_and_entry(tmp_path, assemblies):
    """Each 4-byte word of a store's tables set to 0x7fffffff: open or read raises AsmstoreError
    whose code, offset and entry are the library's (the message says the same offset)."""
    so = store_of(tmp_path, {"App.dll": assemblies["App.dll"]}, raw=True, target="net10")
    data = open(so, "rb").read()
    found = {}
    for at in range(8, 120, 4):
        broken = tmp_path / ("m%d" % at)
        broken.write_bytes(data[:at] + b"\xff\xff\xff\x7f" + data[at + 4:])
        try:
            with asmstore.open(broken) as store:
                for e in store:
                    store.read(e)
        except asmstore.AsmstoreError as e:
            assert e.code in asmstore.RESULTS and e.code < 0
            assert e.message.startswith("asmstore: ") and asmstore.RESULTS[e.code][1] in e.message
            if e.offset is not None:
                assert "(at offset %d)" % e.offset in e.message
            found[e.code_name] = (e.offset, e.entry)
    assert found["ERR_BAD_COUNTS"] == (8, None)
    assert found["ERR_BAD_DESCRIPTOR"][0] > 8 and found["ERR_BAD_DESCRIPTOR"][1] == 0
    assert found["ERR_DECOMPRESS"][1] == 0 or found["ERR_SIZE_MISMATCH"][1] == 0


def test_damaged_image_raises_with_offset(tmp_path, assemblies):
    so = store_of(tmp_path, assemblies, raw=True, compression="zstd")
    data = bytearray(open(so, "rb").read())
    with asmstore.open(so) as store:
        e = next(e for e in store if e.name == "Lib.dll")
        size = e.stored_size
    at = data.find(b"XAZS")
    while at >= 0:  # break every zstd frame: the magic after each image header
        data[at + 12:at + 16] = b"\0\0\0\0"
        at = data.find(b"XAZS", at + 4)
    (tmp_path / "bad").write_bytes(bytes(data))
    with asmstore.open(tmp_path / "bad") as store:
        with pytest.raises(asmstore.AsmstoreError) as err:
            store["Lib.dll"]
        assert err.value.code_name == "ERR_DECOMPRESS" and size > 0


def corpus_files():
    found = []
    for top in ("corpus", "regress"):
        root = os.path.join(TOP, "fuzz", top)
        for d, _dirs, files in os.walk(root):
            found += [os.path.join(d, f) for f in sorted(files)]
    return found


def test_fuzz_corpus_never_crashes():
    """Every fuzz/corpus and fuzz/regress input through open, iteration and read."""
    files = corpus_files()
    assert len(files) > 100
    opened = read = 0
    for path in files:
        try:
            with asmstore.open(path) as store:
                opened += 1
                for e in store:
                    try:
                        read += len(store.read(e)) >= 0
                    except asmstore.AsmstoreError:
                        pass
        except (asmstore.AsmstoreError, OSError):
            pass
    assert opened > 0 and read > 0


def test_version_and_results():
    assert asmstore.__version__.count(".") == 2
    assert asmstore.RESULTS[0][0] == "OK" and asmstore.RESULTS[-7][0] == "ERR_NOT_FOUND"


def first_line(args):
    return subprocess.run(args, capture_output=True, text=True).stdout.split("\n")[0]


@needs_cli
def test_version_is_the_clis():
    """__version__, the installed distribution's and `python -m asmstore --version` are what the
    CLI's --version prints (it was "0.2.88": asmstore_version_number's decimal 600 as bytes)."""
    from importlib.metadata import PackageNotFoundError, version
    want = first_line([CLI, "--version"])
    assert want == "asmstore " + asmstore.__version__
    try:
        assert version("asmstore") == asmstore.__version__
    except PackageNotFoundError:  # make python-asan's build: compiled, not installed
        assert sys.prefix == sys.base_prefix
    assert first_line([sys.executable, "-m", "asmstore", "--version"]) == want


def test_no_python_objects_leak(tmp_path, assemblies):
    """Opening, listing, reading and failing 500 times keeps no Python object alive (tracemalloc
    sees every object the extension makes: a reference kept per call would be tens of KB here)."""
    import gc
    import tracemalloc
    apk = apk_with(tmp_path, store_of(tmp_path, assemblies), zipfile.ZIP_DEFLATED)
    (tmp_path / "bad").write_bytes(b"XABA" + b"\xff" * 60)

    def rounds(n):
        for _ in range(n):
            with asmstore.open(apk) as store:
                for e in store:
                    bytes(store.read(e))
                assert store.read_pdb("App") is None
                with pytest.raises(KeyError):
                    store["Nope"]
            with pytest.raises(asmstore.AsmstoreError):
                asmstore.open(tmp_path / "bad")
    rounds(20)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rounds(500)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 8192, "%d bytes kept after 500 rounds" % grown


def test_paths_that_are_not_utf8(tmp_path, assemblies):
    """A directory named with bytes that are no UTF-8 (os.fsdecode's surrogates) works."""
    d = tmp_path / os.fsdecode(b"caf\xe9")
    d.mkdir()
    so = asmstore.pack([tmp_path / "in" / n for n in assemblies], d / "app.so")
    with asmstore.open(so) as store:
        assert store.info.label == os.fspath(so)
        assert store.extract(d / "out") == 3
    assert (d / "out" / "App.dll").read_bytes() == assemblies["App.dll"]
    (d / "bad").write_bytes(b"XABA")
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.open(d / "bad")
    assert "caf\\xe9" in e.value.message  # the CLI's messages show a byte that is no UTF-8 as \xHH


def test_pack_on_a_terminal_prints_no_progress(tmp_path):
    """With fd 2 a terminal, the CLI's pack shows progress for over 50 inputs: from Python it does
    not reach the terminal."""
    import pty
    d = tmp_path / "many"
    d.mkdir()
    for i in range(60):
        mini_pe(d / ("A%d.dll" % i), 1024)
    code = "import asmstore, sys; asmstore.pack([sys.argv[1]], sys.argv[2]); print('DONE')"
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", code, str(d), str(tmp_path / "s.so")])
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    assert (tmp_path / "s.so").exists()
    assert out.strip() == b"DONE", out


def test_pdb_beside_its_assembly(tmp_path, assemblies):
    pdb = tmp_path / "in" / "App.pdb"
    subprocess.run([sys.executable, os.path.join(TOP, "tests", "lib", "mini_pe.py"), "--pdb",
                    str(pdb), "700"], check=True)
    so = asmstore.pack([tmp_path / "in" / "App.dll"], tmp_path / "p.so", options=["--pdb"])
    with asmstore.open(so) as store:
        e = next(e for e in store if e.name == "App.dll")
        assert e.pdb_size == 700 and bytes(store.read_pdb(e)) == pdb.read_bytes()
        assert bytes(store.read_pdb("App")) == pdb.read_bytes()
        assert store.extract(tmp_path / "x") == 2
    assert (tmp_path / "x" / "App.pdb").read_bytes() == pdb.read_bytes()


# ---- reading survives the file being truncated (issue 37) -------------------------------------
TRUNCATE_SCRIPT = """
import asmstore, hashlib, subprocess, sys
path, name = sys.argv[1], sys.argv[2]
with asmstore.open(path) as store:
    data, pdb = store.read(name), store.read_pdb(name)
    before = hashlib.sha256(data).hexdigest()
    # another process cuts the file to nothing while the bytes are held
    subprocess.run([sys.executable, "-c", "import os, sys; os.truncate(sys.argv[1], 0)", path],
                   check=True)
    assert hashlib.sha256(data).hexdigest() == before and len(pdb) == 700
print("OK")
"""


def test_read_bytes_survive_the_file_truncated_by_another_process(tmp_path, assemblies):
    """read() and read_pdb() of a stored (uncompressed) image give bytes: the file truncated by
    another process while they are held harms nothing (a memoryview into the mapping died with
    SIGBUS there, taking the interpreter with it). Run in a child so a crash is seen as one."""
    pdb = tmp_path / "in" / "App.pdb"
    subprocess.run([sys.executable, os.path.join(TOP, "tests", "lib", "mini_pe.py"), "--pdb",
                    str(pdb), "700"], check=True)
    so = asmstore.pack([tmp_path / "in" / "App.dll"], tmp_path / "s.so", compression="none",
                       options=["--pdb"])
    run = subprocess.run([sys.executable, "-c", TRUNCATE_SCRIPT, str(so), "App.dll"],
                         capture_output=True, text=True)
    assert (run.returncode, run.stdout.strip()) == (0, "OK"), run.stderr


def test_unknown_part_is_an_error(tmp_path, assemblies):
    """The extension's part argument (0 image, 1 .pdb, 2 .config): anything else is a ValueError,
    not a silent None."""
    with asmstore.open(store_of(tmp_path, assemblies)) as store:
        e = store.entries()[0]
        for bad in (3, -1, 99):
            with pytest.raises(ValueError, match="no part"):
                store._s.read(e.name, bad)
            with pytest.raises(ValueError, match="no part"):
                store._s.read_index(e.store, e.index, bad)


def test_oserror_filename_is_a_str(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        asmstore.open(tmp_path / "not-there")
    assert e.value.filename == str(tmp_path / "not-there")


# ---- every ABI from one open, Entry fields as list --json -------------------------------------
def two_abi_apk(tmp_path, assemblies, broken_x86=False):
    """An APK with an arm64-v8a and an x86_64 store of the same assemblies (x86_64's cut short)."""
    files = [tmp_path / "in" / n for n in assemblies]
    arm = asmstore.pack(files, tmp_path / "arm.so", abi="arm64")
    x86 = asmstore.pack(files, tmp_path / "x86.so", abi="x86_64", compression="none")
    apk = tmp_path / "two.apk"
    with zipfile.ZipFile(apk, "w") as z:
        z.writestr("AndroidManifest.xml", b"<manifest/>")
        z.write(arm, "lib/arm64-v8a/libassembly-store.so")
        data = open(x86, "rb").read()
        z.writestr("lib/x86_64/libassembly-store.so", data[:200] if broken_x86 else data)
    return apk


def test_one_open_serves_every_abi(tmp_path, assemblies):
    apk = two_abi_apk(tmp_path, assemblies)
    with asmstore.open(apk) as store:
        assert sorted(store.abis) == ["arm64-v8a", "x86_64"] and store.problems == []
        assert sorted(i.abi for i in store.stores) == ["arm64-v8a", "x86_64"]
        assert len(store) == 2 * len(assemblies)
        assert sorted(e.abi for e in store) == ["arm64-v8a"] * 3 + ["x86_64"] * 3
        assert {e.abi for e in store.entries(abi="x86_64")} == {"x86_64"}
        assert {e.abi for e in store.entries(abi="arm64")} == {"arm64-v8a"}
        for e in store:
            assert store.read(e) == assemblies[e.file_name]
            assert store.stores[e.store].abi == e.abi
        comp = {e.abi: e.compression for e in store if e.name == "Lib.dll"}
        assert comp["x86_64"] == asmstore.Compression.NONE != comp["arm64-v8a"]
        assert store.read("Lib.dll", abi="x86_64") == store.read("Lib.dll", abi="arm64-v8a")
        with pytest.raises(ValueError):
            store.entries(abi="mips")
    with asmstore.open(apk, abi="x86_64") as store:  # one ABI asked for: that ABI's only
        assert store.abi == "x86_64" and {e.abi for e in store} == {"x86_64"}


def test_a_store_that_did_not_open_is_named_in_problems(tmp_path, assemblies):
    with asmstore.open(two_abi_apk(tmp_path, assemblies, broken_x86=True)) as store:
        assert {e.abi for e in store} == {"arm64-v8a"}
        assert len(store.problems) == 1 and "lib/x86_64/libassembly-store.so" in store.problems[0]


@needs_samples
def test_sample_set_every_abi_in_one_open():
    with asmstore.open(os.path.join(SAMPLES, "v1-expandroid")) as s:
        assert sorted(s.abis) == ["arm64-v8a", "armeabi-v7a"] and len(s) == 14
        arm = s.read("System.Text.Json.dll", abi="armeabi-v7a")
        arm64 = s.read("System.Text.Json.dll", abi="arm64-v8a")
        assert arm != arm64  # each ABI's own image
        assert s.read("System.Text.Json.dll") == (arm64 if s.abi == "arm64-v8a" else arm)


def list_json(path):
    run = subprocess.run([CLI, "list", "--json", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)["stores"]


def assert_entries_are_list_json(path):
    """Entry.to_dict() of every entry of path is its item in `asmstore list --json`, store by store
    (paired by the store's label and ABI); "none" is None in both."""
    stores = list_json(path)
    with asmstore.open(path) as store:
        assert len(store.stores) == len(stores)
        for unit, info in enumerate(store.stores):
            doc = next(d for d in stores if d["store"] == info.label and
                       d["abi"] == (None if info.abi == "every ABI" else info.abi))
            mine = [e.to_dict() for e in store if e.store == unit]
            assert mine == doc["entries"]
            assert all(e.abi == doc["abi"] for e in store if e.store == unit)


@needs_cli
@needs_samples
@pytest.mark.parametrize("sample", SAMPLE_INPUTS)
def test_to_dict_is_list_json_on_real_samples(sample):
    assert_entries_are_list_json(os.path.join(SAMPLES, sample))


@needs_cli
@pytest.mark.parametrize("target,runtime", [("net8", "monovm"), ("net10", "coreclr")])
def test_to_dict_is_list_json(tmp_path, assemblies, target, runtime):
    out, arch = tmp_path / "out", tmp_path / "arch"
    arch.mkdir()
    os.rename(tmp_path / "in" / "Tiny.dll", arch / "Tiny.dll")  # net8: an ABI blob of its own
    files = [tmp_path / "in" / n for n in ("App.dll", "Lib.dll")]
    if target == "net8":
        asmstore.pack(files, out, target=target, runtime=runtime,
                      options=["--arch", "arm64", str(arch)])
        path = out
    else:
        out.mkdir()
        asmstore.pack(files, str(out) + "/", target=target, runtime=runtime)
        path = out / os.listdir(out)[0]
    assert_entries_are_list_json(path)
    with asmstore.open(path) as store:  # format 1 records its names' XXH64, later ones no hash
        assert [e.hash for e in store] == [asmstore.name_hash(e.name, "xxh64") if target == "net8"
                                           else None for e in store]


# ---- name_hash --------------------------------------------------------------------------------
def test_name_hash_against_independent_implementations():
    """crc32 against zlib, the xxHash kinds against python3-xxhash (Debian's, when installed)."""
    for name in ("System.Runtime", "System.Runtime.dll", "fr/App.resources", "\u00e9t\u00e9"):
        data = name.encode("utf-8")
        assert asmstore.name_hash(name, "crc32") == zlib.crc32(data)
        assert asmstore.name_hash(data, "crc32") == zlib.crc32(data)
    with pytest.raises(ValueError, match="xxh3-64"):
        asmstore.name_hash("x", "md5")
    xxhash = pytest.importorskip("xxhash")
    for name in ("System.Runtime", "Mono.Android.dll", ""):
        data = name.encode()
        assert asmstore.name_hash(name, "xxh64") == xxhash.xxh64_intdigest(data)
        assert asmstore.name_hash(name, "xxh32") == xxhash.xxh32_intdigest(data)
        assert asmstore.name_hash(name, "xxh3-64") == xxhash.xxh3_64_intdigest(data)


@needs_samples
def test_name_hash_is_what_format_1_stores_record():
    with asmstore.open(os.path.join(SAMPLES, "v1-razr-pointcrep")) as store:
        hashed = [e for e in store if e.hash is not None and e.name]
        assert hashed
        for e in hashed:
            assert asmstore.name_hash(e.name, "xxh64") == e.hash


# ---- unpack and repack --from, beside the CLI's -----------------------------------------------
def assert_same_tree(a, b):
    cmp = filecmp.dircmp(a, b)
    assert not (cmp.left_only or cmp.right_only or cmp.diff_files or cmp.funny_files), \
        (cmp.left_only, cmp.right_only, cmp.diff_files)
    for sub in cmp.common_dirs:
        assert_same_tree(os.path.join(a, sub), os.path.join(b, sub))
    for f in cmp.common_files:  # dircmp compares by stat; compare the bytes
        assert filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False), f


@needs_cli
@needs_samples
@pytest.mark.parametrize("sample", SAMPLE_INPUTS)
def test_unpack_repack_from_python_is_the_clis(tmp_path, sample, capfd):
    """The folder round trip from Python (unpack, edit, repack from_dir=) gives byte for byte what
    the CLI's unpack and repack --from give, on every real sample."""
    src = os.path.join(SAMPLES, sample)
    asmstore.unpack(src, tmp_path / "py")
    subprocess.run([CLI, "unpack", src, "-C", str(tmp_path / "cli")], check=True,
                   capture_output=True)
    assert capfd.readouterr() == ("", "")
    assert_same_tree(tmp_path / "py", tmp_path / "cli")
    # the same edits in each folder: the first compressed entry's level changed, and (format 2
    # on: format 1 keeps its count) the last entry removed
    with open(tmp_path / "py" / "asmstore-unpack.json") as f:
        settings = json.load(f)
    first = settings["stores"][0]
    next(e for e in first["entries"] if e["compression"] != "none")["level"] = 3
    removed = [] if first["format"] == 1 else [first["entries"][-1]["file"]]
    for d in ("py", "cli"):
        with open(tmp_path / d / "asmstore-unpack.json", "w") as f:
            json.dump(settings, f)
        for name in removed:
            os.remove(tmp_path / d / first["dir"] / name)
    out_py, out_cli = tmp_path / "out-py", tmp_path / "out-cli"
    asmstore.repack(src, out_py, from_dir=tmp_path / "py")
    subprocess.run([CLI, "repack", src, "-o", str(out_cli), "--from", str(tmp_path / "cli")],
                   check=True, capture_output=True)
    if os.path.isdir(out_cli):
        assert_same_tree(out_py, out_cli)
    else:
        assert filecmp.cmp(out_py, out_cli, shallow=False)
    with asmstore.open(out_py) as store:
        kept = [e for e in store if e.store == 0]
        assert len(kept) == len(first["entries"]) - len(removed)


def test_unpack_refuses_a_folder_in_use(tmp_path, assemblies):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "mine.txt").write_text("x")
    with pytest.raises(asmstore.AsmstoreError) as e:
        asmstore.unpack(store_of(tmp_path, assemblies), tmp_path / "d")
    assert e.value.status != 0 and "--force" in e.value.message
    asmstore.unpack(store_of(tmp_path, assemblies), tmp_path / "d", force=True)


# ---- python -m asmstore and the console script: the CLI ---------------------------------------
@needs_cli
def test_python_m_asmstore_is_the_cli(tmp_path, assemblies):
    """python -m asmstore and the venv's asmstore script print what the CLI prints and exit with
    its status: 0 verified, 1 a bad store, 2 a missing file."""
    so = store_of(tmp_path, assemblies)
    bad = tmp_path / "bad.so"
    bad.write_bytes(open(so, "rb").read()[:300])
    runners = [[sys.executable, "-m", "asmstore"]]
    if sys.prefix != sys.base_prefix:  # installed into a venv (not make python-asan's build)
        runners.append([os.path.join(os.path.dirname(sys.executable), "asmstore")])
        assert os.access(runners[1][0], os.X_OK)
    for args in (["verify", str(so)], ["verify", str(bad)], ["list", str(tmp_path / "nope")],
                 ["list", "--json", str(so)], ["frobnicate"]):
        want = subprocess.run([CLI] + args, capture_output=True)
        for runner in runners:
            got = subprocess.run(runner + args, capture_output=True)
            assert (got.returncode, got.stdout, got.stderr) == \
                (want.returncode, want.stdout, want.stderr), (runner, args)
    codes = [subprocess.run([sys.executable, "-m", "asmstore"] + a, capture_output=True).returncode
             for a in (["verify", str(so)], ["verify", str(bad)], ["list", str(tmp_path / "x")])]
    assert codes == [0, 1, 2]


@pytest.mark.skipif(not os.path.exists("/usr/lib/mono/4.5/Accessibility.dll"),
                    reason="Mono's 4.5 assemblies absent (Debian: mono-devel)")
def test_identity_of_a_real_assembly():
    with open("/usr/lib/mono/4.5/Accessibility.dll", "rb") as f:
        image = f.read()
    ident = asmstore.identity(image)
    assert ident["name"] == "Accessibility" and ident["version"] == "4.0.0.0"
    assert ident["culture"] is None and ident["mvid"] == "a9022686-5e88-41d9-9e3f-f70b83d35683"
    assert ident["public_key_token"] == "b03f5f7f11d50a3a"
    assert asmstore.identity(image[:300]) is None and asmstore.identity(b"text") is None


def scan_inputs():
    """Files of every kind the samples have: .NET 10 stores, .NET 6-8 set files, text."""
    return [os.path.join(SAMPLES, f) for f in (
        "v3-watercountdown-widget/x86_64/assembly-store.so",
        "v3-watercountdown-widget/arm64-v8a/assembly-store.so",
        "v1-expandroid/assemblies.armeabi_v7a.blob", "v1-razr-pointcrep/base_assemblies.blob",
        "v1-razr-pointcrep/libxamarin-app.so", "SOURCES.md")]


def cli_scan_lines(paths):
    run = subprocess.run([CLI, "scan", "--"] + [str(p) for p in paths], capture_output=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


@needs_cli
@needs_samples
def test_scan_is_the_clis():
    """asmstore.scan yields the CLI's NDJSON lines as dicts, in input order, whatever jobs is."""
    paths = scan_inputs()
    want = cli_scan_lines(paths)
    assert len(want) == len(paths)
    assert list(asmstore.scan(paths)) == want
    assert list(asmstore.scan(paths, jobs=2)) == want
    with tempfile.TemporaryDirectory() as cache:
        assert list(asmstore.scan(paths, cache=cache)) == want  # filled
        assert any(f.endswith(".images") for f in os.listdir(cache))
        assert list(asmstore.scan(paths, jobs=2, cache=cache)) == want  # read back
    with pytest.raises(asmstore.AsmstoreError) as e:
        list(asmstore.scan(paths, yara=os.path.join(SAMPLES, "SOURCES.md")))
    assert e.value.status == 2 and "--yara" in e.value.message


@needs_cli
@needs_samples
def test_scan_on_a_dask_cluster():
    """The recipe of python/README.md: a Dask cluster of a scheduler and 2 worker processes scans
    the inputs through the package, one input a task; the records equal the CLI's NDJSON."""
    distributed = pytest.importorskip("distributed")
    paths = scan_inputs()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        futures = client.map(lambda p: list(asmstore.scan(p))[0], paths)
        records = client.gather(futures)
        pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids
    assert records == cli_scan_lines(paths)
