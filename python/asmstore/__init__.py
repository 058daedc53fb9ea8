"""Read, pack and repack .NET for Android assembly stores (XABA) from Python.

A thin layer over the C extension asmstore._asmstore, which is the project's C code itself:
asmstore.h's reader, the CLI's input code (raw stores, ``.so`` wrappers, .NET 6-8 sets, APK, AAB
and split APKs, DEFLATEd entries) and the CLI's pack, repack and extract commands run in-process.
Nothing here parses a store: this module only shapes what the C code returns into Python objects.

    >>> import asmstore
    >>> with asmstore.open("app.apk") as store:   # every ABI's stores
    ...     print(store.info.release, store.abis)
    ...     for entry in store:
    ...         print(entry.abi, entry.name, entry.size, entry.compression.name)
    ...     image = store["System.Runtime.dll"]   # bytes

Errors are AsmstoreError (EntryNotFound, also a KeyError, for a name that is not there), carrying
the library's result code, its message and the byte offset it was found at.
"""
import builtins
import dataclasses
import enum
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _asmstore

__all__ = ["open", "pack", "repack", "unpack", "scan", "name_hash", "identity", "Store", "Entry", "Info", "Compression",
           "AsmstoreError", "EntryNotFound", "RESULTS", "__version__"]

#: what `asmstore --version` prints (asmstore.h's ASMSTORE_VERSION_MAJOR.MINOR.PATCH)
__version__: str = _asmstore.version_string

PathLike = Union[str, "os.PathLike[str]"]

#: every library result: code -> (name, text), as asmstore.h's "core: results" lists them
RESULTS: Dict[int, Tuple[str, str]] = {code: (name, text)
                                      for code, name, text in _asmstore.results()}


class AsmstoreError(Exception):
    """A store (or the input around it) that could not be read, packed or repacked.

    message: what was checked or looked for and what to try (the CLI's words);
    code: the library's asmstore_result (negative; None when the failure is not one of them);
    code_name: its name ("ERR_CORRUPT"); offset: the byte offset the problem was found at, or
    None; entry: the descriptor index involved, or None; status: the CLI's exit status for it
    (1 the input is bad, 2 an I/O or usage error)."""

    def __init__(self, message: str, code: Optional[int] = None, offset: Optional[int] = None,
                 entry: Optional[int] = None, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.code_name = RESULTS[code][0] if code in RESULTS else None
        self.offset = offset
        self.entry = entry
        self.status = status

    def __str__(self) -> str:
        return self.message


class EntryNotFound(AsmstoreError, KeyError):
    """No entry of that name (code ERR_NOT_FOUND), or only an ignored placeholder (ERR_IGNORED)."""

    __str__ = AsmstoreError.__str__


_asmstore._init(AsmstoreError, EntryNotFound)


class Compression(enum.IntEnum):
    """How an image is stored: asmstore_compression."""
    NONE = 0
    ZSTD = 1  # XAZS
    LZ4 = 2   # XALZ


@dataclasses.dataclass(frozen=True)
class Info:
    """One store as the CLI's info describes it (docs/store-releases.md §5)."""
    label: str            # the file or archive entry it came from
    abi: str              # "arm64-v8a", or "every ABI" for a .NET 6-8 set's store 0
    format: int           # 1 (.NET 6-8), 2 (9), 3 (10, 11), 4 (11 previews)
    version_word: int
    hash: str             # "crc32", "xxh32", "xxh3-64", "xxh64" (name_hash's kinds)
    wrapper: str          # "raw", "elf-dlopen", "elf-section"
    is_64bit: bool
    release: str          # "format 3, CRC-32 index, dlopen wrapper: the .NET 11 GA CoreCLR layout"
    runtime: str
    compression: Compression  # of its first compressed entry
    entry_count: int      # descriptors, ignored placeholders included
    store_id: int         # format 1: 0 assemblies.blob, 1 an ABI's blob
    payload_offset: int   # of the store inside its file or archive entry
    in_archive: bool
    deflated: bool        # the archive entry had to be inflated
    from_split: bool      # from split_config.<abi>.apk beside base.apk
    image_alignment: int


@dataclasses.dataclass(frozen=True)
class Entry:
    """One descriptor of a store."""
    name: Optional[str]   # None for a .NET 6-8 entry without assemblies.manifest
    file_name: str        # what extract writes it as ("System.Runtime.dll")
    index: int            # descriptor index in its store
    ignored: bool         # an "X.ni.dll" placeholder: owns no bytes
    compression: Compression
    stored_size: int      # bytes in the store (with the 12-byte header when compressed)
    size: int             # the uncompressed image's size
    pdb_size: int
    config_size: int
    hash: Optional[int]   # format 1: the XXH64 of its name from the index table, else None
    mapping_index: Optional[int]  # None where the store has no index table (a .NET 6-8 ABI blob)
    store: int            # which of Store.stores it is in
    abi: Optional[str]    # "arm64-v8a"; None in a .NET 6-8 store 0, which serves every ABI

    def to_dict(self) -> Dict[str, object]:
        """The entry as `asmstore list --json` shows it (docs/json.md): the same fields, names
        and values; "sha256" is its image's (None for a placeholder), read from its store."""
        owner: Optional[Store] = getattr(self, "_owner", None)  # set by Store.entries
        image = None if self.ignored or owner is None else owner.read(self)
        return {"index": self.index, "name": self.file_name, "named": self.name is not None,
                "xxh64": None if self.hash is None else "%016x" % self.hash,
                "mapping_index": self.mapping_index, "ignored": self.ignored,
                "stored_size": self.stored_size, "size": self.size,
                "compression": self.compression.name.lower(), "pdb_size": self.pdb_size,
                "config_size": self.config_size,
                "sha256": None if image is None else hashlib.sha256(image).hexdigest(),
                "identity": None if image is None else identity(image)}


def _abi_arg(abi: Optional[str]) -> str:
    return "" if abi is None else str(abi)


def _name_of(abi: Optional[str]) -> Optional[str]:
    """An ABI given any way ("arm64") as Entry.abi names it ("arm64-v8a"); ValueError if unknown."""
    return None if abi is None else _asmstore.abi_name(str(abi))


class Store:
    """The stores of one input: every ABI's (a .NET 6-8 set's assemblies.blob among them), or one
    ABI's when open() was given abi=.

    Opened by asmstore.open(); iterating gives its Entry objects, every ABI's; store[name] and
    read(name) give an image as bytes, found in the stores of store.abi (read(name, abi=) for
    another); view() gives a stored image without a copy. A context manager: leaving it (or
    close()) unmaps the files, which BufferError refuses while a memoryview from view() lives."""

    def __init__(self, path: PathLike, abi: Optional[str] = None) -> None:
        self.path = os.fspath(path)
        self._s = _asmstore.open(os.fsencode(self.path), _abi_arg(abi))
        #: every store served, each an Info (Entry.store indexes this list)
        self.stores: List[Info] = [Info(**dict(u, compression=Compression(u["compression"])))
                                   for u in self._s.units()]
        #: the ABIs the input has stores for
        self.abis: List[str] = self._s.abis()
        #: why each store asked for that did not open was left out (the CLI's words), else []
        self.problems: List[str] = self._s.problems()
        self._entries: Optional[List[Entry]] = None
        #: the ABI names are looked up in: abi= if given, else the host's when the input has it,
        #: else the first found (None for a .NET 6-8 store 0 alone)
        self.abi: Optional[str] = self._s.abi
        self._abi_given = abi is not None

    @property
    def info(self) -> Info:
        """The store of self.abi: its own when a .NET 6-8 set also has a store 0."""
        mine = [i for i in self.stores if i.abi == self.abi]
        return (mine or self.stores)[0]

    def entries(self, abi: Optional[str] = None) -> List[Entry]:
        """Every entry, ignored placeholders included, store by store in descriptor order: every
        ABI's, or with abi ("arm64", "arm64-v8a") that ABI's (and a .NET 6-8 store 0's)."""
        if self._entries is None:
            self._entries = []
            for (unit, unit_abi, index, ignored, name, fname, comp, stored, size, pdb, config,
                 h, mapping) in self._s.entries():
                e = Entry(name=name, file_name=fname, index=index, ignored=ignored,
                          compression=Compression(comp), stored_size=stored, size=size,
                          pdb_size=pdb, config_size=config, hash=h, mapping_index=mapping,
                          store=unit, abi=unit_abi)
                object.__setattr__(e, "_owner", self)  # for to_dict's sha256; no field
                self._entries.append(e)
        if abi is None:
            return list(self._entries)
        want = _name_of(abi)
        return [e for e in self._entries if e.abi in (want, None)]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries())

    def __len__(self) -> int:
        return len(self.entries())

    def __contains__(self, name: object) -> bool:
        """Whether read(name) finds an image: the lookup alone, nothing is read."""
        return isinstance(name, str) and self._s.find(name) is not None

    def _part(self, name: Union[str, Entry], part: int, abi: Optional[str],
              view: bool) -> Optional[Union[bytes, memoryview]]:
        if isinstance(name, Entry):
            return self._s.read_index(name.store, name.index, part, view)
        return self._s.read(name, part, _abi_arg(abi), view)

    def read(self, name: Union[str, Entry], abi: Optional[str] = None) -> bytes:
        """An entry's uncompressed image as new bytes, by Entry or by name (with or without .dll,
        "fr/X.resources") in the stores of abi (default self.abi). EntryNotFound when not there.
        Nothing returned points into the file: another process truncating it cannot harm it."""
        return self._part(name, 0, abi, False)  # type: ignore[return-value]

    __getitem__ = read

    def view(self, name: Union[str, Entry], abi: Optional[str] = None) -> memoryview:
        """read()'s image without a copy where it is stored uncompressed: a read-only memoryview
        over the file's mapping, which keeps the store open (close() raises BufferError until it
        is released). Only for files nothing else changes: touching the view after another process
        truncated the file kills the interpreter with SIGBUS, as mmap does. A compressed image is
        decompressed as read() does (a memoryview over new bytes)."""
        image = self._part(name, 0, abi, True)
        return image if isinstance(image, memoryview) else memoryview(image)  # type: ignore

    def read_pdb(self, name: Union[str, Entry], abi: Optional[str] = None) -> Optional[bytes]:
        """The entry's .pdb as stored beside it, or None."""
        return self._part(name, 1, abi, False)  # type: ignore[return-value]

    def read_config(self, name: Union[str, Entry], abi: Optional[str] = None) -> Optional[bytes]:
        """The entry's .config as stored beside it (format 1 appends a NUL), or None."""
        return self._part(name, 2, abi, False)  # type: ignore[return-value]

    def extract(self, directory: PathLike) -> int:
        """Writes every entry (and its .pdb and .config) under directory, as `asmstore extract`
        does: never through a symlink or outside it, each image checked first. Returns the number
        of files written."""
        self._check_open()
        args = ["extract", self.path, "-C", os.fspath(directory)]
        if self._abi_given:
            args += ["--abi", self.abi]
        out = _run(args)
        found = re.search(r"extracted (\d+) file", out)
        return int(found.group(1)) if found else 0

    def _check_open(self) -> None:
        if self._s.closed:
            raise ValueError("I/O operation on a closed asmstore.Store")

    @property
    def closed(self) -> bool:
        return self._s.closed

    def close(self) -> None:
        """Unmaps the input; BufferError while a memoryview from view() is alive."""
        self._s.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "%d entries" % len(self)
        return "<asmstore.Store %r %s: %s>" % (self.path, ", ".join(self.abis) or "every ABI",
                                                state)


def open(path: PathLike, abi: Optional[str] = None) -> Store:  # noqa: A001 - the module's verb
    """Opens a raw store, a .so wrapping one, a .NET 6-8 set (a directory, or one of its blobs), an
    APK, AAB or split APK (base.apk beside split_config.<abi>.apk). abi ("arm64", "arm64-v8a",
    "x86_64", ...) picks the ABI; None takes the host's when the input has it, else the first
    found. Raises AsmstoreError when no usable store is there (saying what was looked for), OSError
    when the path cannot be read, ValueError for an unknown ABI."""
    return Store(path, abi)


def _result_of(message: str) -> Tuple[Optional[int], Optional[int]]:
    """The library result and offset a CLI message names ("TEXT: ... (at offset N)")."""
    code = None
    for c, (_name, text) in RESULTS.items():
        if c and text in message and (code is None or len(text) > len(RESULTS[code][1])):
            code = c
    offset = re.search(r"\(at offset (\d+)\)", message)
    return code, int(offset.group(1)) if offset else None


def _run(args: List[str]) -> str:
    """Runs `asmstore ARGS` in-process; its stdout, or AsmstoreError with its message and status."""
    status, out, err = _asmstore.run([os.fsencode(a) for a in args])
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    # pack's "\rcompressing N/M" progress (shown when fd 2 is a terminal) is no part of a message
    err = "\n".join(line for line in err.split("\n") if not line.startswith("\r"))
    if status != 0:
        message = err.strip() or out.strip() or "asmstore %s failed (exit %d)" % (args[0], status)
        code, offset = _result_of(message)
        raise AsmstoreError(message, code=code, offset=offset, status=status)
    return out


def pack(files: Iterable[PathLike], output: Optional[PathLike] = None, *,
         target: Optional[str] = None, runtime: Optional[str] = None, abi: Optional[str] = None,
         level: Optional[int] = None, compression: Optional[str] = None,
         wrap: Optional[str] = None, raw: bool = False, check: bool = True,
         options: Sequence[str] = ()) -> Union[str, bytes]:
    """Packs assemblies (files or directories) as `asmstore pack` does, with the same defaults and
    checks: target "net8".."net11", "net11-preview", "net12" (default net11); runtime
    "coreclr"/"monovm"; abi; level; compression "zstd"/"lz4"/"none"; wrap "dlopen"/"section" or
    raw=True; check=False packs bytes that are no assembly (test stores); options: any further CLI
    options. With output (a file, or a directory ending in "/") returns the path given; without,
    the packed file's bytes (not for target net8, which writes a set of files: give output)."""
    named = [("--target", target), ("--runtime", runtime), ("--abi", abi), ("--level", level),
             ("--compression", compression), ("--wrap", wrap)]
    args = ["pack"] + [a for k, v in named if v is not None for a in (k, str(v))]
    args += (["--raw"] if raw else []) + ([] if check else ["--no-check"]) + list(options)
    paths = [os.fspath(f) for f in files]
    if output is not None:
        _run(args + ["-o", os.fspath(output), "--"] + paths)
        return os.fspath(output)
    with tempfile.TemporaryDirectory(prefix="asmstore-pack.") as tmp:
        out = os.path.join(tmp, "store")
        _run(args + ["-o", out, "--"] + paths)
        if os.path.isdir(out):
            raise ValueError("this pack writes a set of files (target net8): give output=DIR")
        with builtins.open(out, "rb") as f:
            return f.read()


def repack(src: PathLike, dst: PathLike,
           replace: Optional[Dict[str, Union[PathLike, bytes]]] = None,
           remove: Iterable[str] = (), add: Iterable[PathLike] = (),
           from_dir: Optional[PathLike] = None, options: Sequence[str] = ()) -> None:
    """Rewrites src's store into dst as `asmstore repack` does, refusing what the app's runtime
    would reject: replace {"[ABI/]NAME": path or bytes}, remove ["[ABI/]NAME"], add [path];
    from_dir: the folder unpack() wrote for src, its edited, deleted and new files taken as
    `repack --from` takes them; options: further CLI options (--jobs, --sign-key KEY --sign-cert
    CERT)."""
    args = ["repack", os.fspath(src), "-o", os.fspath(dst)]
    if from_dir is not None:
        args += ["--from", os.fspath(from_dir)]
    with tempfile.TemporaryDirectory(prefix="asmstore-repack.") as tmp:
        for i, (name, what) in enumerate((replace or {}).items()):
            if isinstance(what, (bytes, bytearray, memoryview)):
                path = os.path.join(tmp, "%d-%s" % (i, os.path.basename(name)))
                with builtins.open(path, "wb") as f:
                    f.write(what)
                what = path
            args += ["--replace", "%s=%s" % (name, os.fspath(what))]
        for name in remove:
            args += ["--remove", name]
        for path in add:
            args += ["--add", os.fspath(path)]
        _run(args + list(options))


def unpack(src: PathLike, directory: PathLike, force: bool = False) -> None:
    """Writes every store's images (and .pdb/.config) of src under directory/<abi>/ with the
    settings file repack(src, out, from_dir=directory) rebuilds them from, as `asmstore unpack`
    does (docs/unpack.md): pyxamstore's unpack / pack round trip. directory must be new or empty
    unless force."""
    _run(["unpack", os.fspath(src), "-C", os.fspath(directory)] + (["--force"] if force else []))


def scan(paths: Union[PathLike, Iterable[PathLike]], jobs: int = 1, timeout: Optional[int] = None,
         max_memory_mib: Optional[int] = None, yara: Optional[PathLike] = None,
         yara_members: bool = False,
         cache: Optional[PathLike] = None) -> Iterator[Dict[str, object]]:
    """`asmstore scan` over paths (files, directories walked, "@LIST"): one dict per input, in
    input order, as the lines of its NDJSON (docs/json.md 3.12), yielded as they come. The scan
    runs in a process of its own (python -m asmstore), whose workers read one input at a time, so
    an input past timeout or max_memory_mib costs only its own record. A usage error (a rule file
    that does not compile, say) raises AsmstoreError with the CLI's message and status. cache: a
    directory of records (`--cache`): a scan of the same bytes again runs only the rules."""
    args = [sys.executable, "-m", "asmstore", "scan", "--jobs", str(jobs)]
    if timeout is not None:
        args += ["--timeout", str(timeout)]
    if max_memory_mib is not None:
        args += ["--max-memory", str(max_memory_mib)]
    if yara is not None:
        args += ["--yara", os.fspath(yara)] + (["--yara-members"] if yara_members else [])
    if cache is not None:
        args += ["--cache", os.fspath(cache)]
    one = isinstance(paths, (str, bytes, os.PathLike))
    args += ["--"] + [os.fspath(p) for p in ([paths] if one else paths)]  # type: ignore[list-item]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        for line in proc.stdout:
            yield json.loads(line)
        err = proc.stderr.read().decode("utf-8", "replace")
        status = proc.wait()
    if status == 2 and err.strip():
        raise AsmstoreError(err.strip(), status=status)


def identity(image: bytes) -> Optional[Dict[str, object]]:
    """Who an assembly's bytes say it is, as `list --json`'s "identity" gives it (docs/json.md):
    name, version, culture, public_key_token, mvid, timestamp, debug_id (the key crash reporters
    such as Sentry use for its PDB), pdb_path, pdb_checksum; None for what is no assembly."""
    return _asmstore.identity(image)


def name_hash(name: Union[str, bytes], kind: str) -> int:
    """The hash a store's index keys name under (pyxamstore's `hash`): kind "xxh64" (.NET 6-8),
    "xxh3-64" or "xxh32" (.NET 9-10, 64- and 32-bit ABIs), "crc32" (CoreCLR .NET 11) - the kinds
    Info.hash names. A str is hashed as its UTF-8 bytes, as the stores write names."""
    data = name.encode("utf-8") if isinstance(name, str) else bytes(name)
    return _asmstore.name_hash(data, kind)
