"""Read, pack and repack .NET for Android assembly stores (XABA) from Python.

A thin layer over the C extension asmstore._asmstore, which is the project's C code itself:
asmstore.h's reader, the CLI's input code (raw stores, ``.so`` wrappers, .NET 6-8 sets, APK, AAB
and split APKs, DEFLATEd entries) and the CLI's pack, repack and extract commands run in-process.
Nothing here parses a store: this module only shapes what the C code returns into Python objects.

    >>> import asmstore
    >>> with asmstore.open("app.apk", abi="arm64") as store:
    ...     print(store.info.release)
    ...     for entry in store:
    ...         print(entry.name, entry.size, entry.compression.name)
    ...     image = store["System.Runtime.dll"]   # bytes, or a memoryview for a stored image

Errors are AsmstoreError (EntryNotFound, also a KeyError, for a name that is not there), carrying
the library's result code, its message and the byte offset it was found at.
"""
import builtins
import dataclasses
import enum
import os
import re
import tempfile
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _asmstore

__all__ = ["open", "pack", "repack", "Store", "Entry", "Info", "Compression", "AsmstoreError",
           "EntryNotFound", "RESULTS", "__version__"]

__version__ = "%d.%d.%d" % (_asmstore.version >> 16, (_asmstore.version >> 8) & 0xFF,
                            _asmstore.version & 0xFF)

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
    hash: str             # "crc32", "xxhash32", "xxhash3-64", "xxhash64"
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
    hash: int             # format 1: the XXH64 of its name from store 0's table, else 0
    store: int            # which of Store.stores it is in


def _abi_arg(abi: Optional[str]) -> str:
    return "" if abi is None else str(abi)


class Store:
    """The stores of one input for one ABI (a .NET 6-8 set: its ABI's blob and assemblies.blob).

    Opened by asmstore.open(); iterating gives its Entry objects; store[name] and read(name) give
    an image. A context manager: leaving it (or close()) unmaps the files, which BufferError
    refuses while a memoryview from read() is still alive."""

    def __init__(self, path: PathLike, abi: Optional[str] = None) -> None:
        self.path = os.fspath(path)
        self._s = _asmstore.open(os.fsencode(self.path), _abi_arg(abi))
        self.stores: List[Info] = [Info(**dict(u, compression=Compression(u["compression"])))
                                   for u in self._s.units()]
        #: the ABIs the input has stores for (open it again with abi= for another)
        self.abis: List[str] = self._s.abis()
        self._entries: Optional[List[Entry]] = None

    @property
    def info(self) -> Info:
        """The store served: the ABI's own when a .NET 6-8 set also has a store 0."""
        return next((i for i in self.stores if i.store_id != 0 or i.format != 1), self.stores[0])

    def entries(self) -> List[Entry]:
        """Every entry, ignored placeholders included, store by store in descriptor order."""
        if self._entries is None:
            self._entries = [Entry(name=name, file_name=fname, index=index, ignored=ignored,
                                   compression=Compression(comp), stored_size=stored, size=size,
                                   pdb_size=pdb, config_size=config, hash=h, store=unit)
                             for (unit, index, ignored, name, fname, comp, stored, size, pdb,
                                  config, h) in self._s.entries()]
        return self._entries

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries())

    def __len__(self) -> int:
        return len(self.entries())

    def __contains__(self, name: object) -> bool:
        """Whether read(name) finds an image: the lookup alone, nothing is read."""
        return isinstance(name, str) and self._s.find(name) is not None

    def read(self, name: Union[str, Entry]) -> Union[bytes, memoryview]:
        """An entry's uncompressed image, by name (with or without .dll, "fr/X.resources") or Entry:
        a read-only memoryview over the mapping when it is stored as is (no copy; it keeps the
        store open), else new bytes decompressed into directly. EntryNotFound when not there."""
        if isinstance(name, Entry):
            return self._s.read_index(name.store, name.index)
        return self._s.read(name)

    __getitem__ = read

    def read_pdb(self, name: Union[str, Entry]) -> Optional[memoryview]:
        """The entry's .pdb as stored beside it, or None."""
        if isinstance(name, Entry):
            return self._s.read_index(name.store, name.index, 1)
        return self._s.read(name, 1)

    def read_config(self, name: Union[str, Entry]) -> Optional[memoryview]:
        """The entry's .config as stored beside it (format 1 appends a NUL), or None."""
        if isinstance(name, Entry):
            return self._s.read_index(name.store, name.index, 2)
        return self._s.read(name, 2)

    def extract(self, directory: PathLike) -> int:
        """Writes every entry (and its .pdb and .config) under directory, as `asmstore extract`
        does: never through a symlink or outside it, each image checked first. Returns the number
        of files written."""
        self._check_open()
        args = ["extract", self.path, "-C", os.fspath(directory)]
        if self.info.abi in self.abis:
            args += ["--abi", self.info.abi]
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
        """Unmaps the input; BufferError while a memoryview from read() is alive."""
        self._s.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "%d entries" % len(self)
        return "<asmstore.Store %r %s: %s>" % (self.path, self.info.abi, state)


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
    checks: target "net8".."net11", "net11-preview" (default net11); runtime "coreclr"/"monovm";
    abi; level; compression "zstd"/"lz4"/"none"; wrap "dlopen"/"section" or raw=True; check=False
    packs bytes that are no assembly (test stores); options: any further CLI options. With output
    (a file, or a directory ending in "/") returns the path given; without, the packed file's
    bytes (not for target net8, which writes a set of files: give output)."""
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
           options: Sequence[str] = ()) -> None:
    """Rewrites src's store into dst as `asmstore repack` does, refusing what the app's runtime
    would reject: replace {"[ABI/]NAME": path or bytes}, remove ["[ABI/]NAME"], add [path]; options:
    further CLI options (--jobs, --sign-key KEY --sign-cert CERT)."""
    args = ["repack", os.fspath(src), "-o", os.fspath(dst)]
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
