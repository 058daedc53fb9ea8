"""Builds asmstore._asmstore from the project's C sources: in a clone, ../asmstore.h and
../tools/*.c; in an sdist, the copy of them `setup.py sdist` put in csrc/ (git holds one copy only).

Libraries are found the standard way: pkg-config, then the compiler's own search paths (a test
program compiled and linked). libzstd and libcrypto (SHA-256: never left out) are needed; liblz4
and zlib are optional, as for the CLI (the same -D and -l as the Makefile's); the build prints one
line of what it found.

ASMSTORE_STATIC_DEPS=PREFIX (`make wheel`): every library from PREFIX/lib/lib*.a instead, built
-fPIC from Debian's source packages, linked in with its symbols kept inside the extension: the
wheel then needs no libzstd, liblz4, zlib or libcrypto where it is installed."""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(HERE, "csrc")  # only in an sdist
TOP = BUNDLED if os.path.isdir(BUNDLED) else os.path.dirname(HERE)
TOOLS = os.path.join(TOP, "tools")
if not os.path.isfile(os.path.join(TOP, "asmstore.h")) or not os.path.isdir(TOOLS):
    sys.exit("asmstore: no C sources: build from a clone (pip install ./python) or from the sdist "
             "`make sdist` writes (it carries them in csrc/), not from a bare copy of python/")

# (pkg-config name, header, library, -D for the CLI's code, and for a required one what to install)
LIBRARIES = [("libzstd", "zstd.h", "zstd", None,
              "install libzstd-dev (Debian, Ubuntu), libzstd-devel (Fedora) or zstd (Homebrew)"),
             ("liblz4", "lz4.h", "lz4", "ASMSTORE_CLI_LZ4", None),
             ("zlib", "zlib.h", "z", "ASMSTORE_CLI_ZLIB", None),
             ("libcrypto", "openssl/evp.h", "crypto", "ASMSTORE_CLI_CRYPTO",
              "install libssl-dev (Debian, Ubuntu), openssl-devel (Fedora) or openssl (Homebrew)")]


def header_version():
    """MAJOR.MINOR.PATCH from asmstore.h: the version the CLI's --version prints."""
    with open(os.path.join(TOP, "asmstore.h")) as f:
        text = f.read()
    parts = [re.search(r"#define ASMSTORE_VERSION_%s (\d+)" % p, text) for p in
             ("MAJOR", "MINOR", "PATCH")]
    return ".".join(m.group(1) for m in parts)


def pkg_config(name):
    """(cflags, libs) from pkg-config, or None when it is not there or does not know name."""
    try:
        cflags, libs = (subprocess.run(["pkg-config", flag, name], capture_output=True,
                                       check=True, text=True).stdout.split()
                        for flag in ("--cflags", "--libs"))
    except (OSError, subprocess.CalledProcessError):
        return None
    return cflags, libs


def compiles(compiler, header, library):
    """Whether a program including header links with -llibrary, by the compiler's search paths."""
    tmp = tempfile.mkdtemp(prefix="asmstore-probe.")
    try:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write("#include <%s>\nint main(void) { return 0; }\n" % header)
        objects = compiler.compile([src], output_dir=tmp)
        compiler.link_executable(objects, "probe", output_dir=tmp, libraries=[library])
        return True
    except Exception:  # CompileError, LinkError: the library is not there
        return False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class BuildExt(build_ext):
    """build_ext that finds the libraries first (LIBRARIES) and says what it found."""

    def build_extensions(self):
        found = []
        for ext in self.extensions:
            for pc, header, library, define, required in LIBRARIES:
                how = self.find_library(ext, pc, header, library)
                if how is None and required:
                    sys.exit("asmstore: lib%s not found (pkg-config %s, <%s> with -l%s): %s"
                             % (library, pc, header, library, required))
                if how is not None and define:
                    ext.define_macros.append((define, None))
                found.append("%s %s" % (library, how or "not found"))
        print("asmstore: " + ", ".join(found), file=sys.stderr)
        super().build_extensions()

    def find_library(self, ext, pc, header, library):
        """Adds library's flags to ext: "(static)", "(pkg-config)", "(compiler)" or None when not
        found."""
        static = os.environ.get("ASMSTORE_STATIC_DEPS")
        if static:
            archive = os.path.join(static, "lib", "lib%s.a" % library)
            if not os.path.isfile(archive):
                sys.exit("asmstore: ASMSTORE_STATIC_DEPS=%s has no lib%s.a (make wheel builds it)"
                         % (static, library))
            ext.include_dirs.insert(0, os.path.join(static, "include"))
            ext.extra_objects.append(archive)
            if "-Wl,--exclude-libs,ALL" not in ext.extra_link_args:  # its symbols stay ours
                ext.extra_link_args.append("-Wl,--exclude-libs,ALL")
            return "(static)"
        flags = pkg_config(pc)
        if flags is not None:
            ext.extra_compile_args += flags[0]
            ext.extra_link_args += flags[1]
            return "(pkg-config)"
        if compiles(self.compiler, header, library):
            ext.libraries.append(library)
            return "(compiler)"
        return None


class Sdist(sdist):
    """sdist that copies the C files the extension compiles (asmstore*.h, tools/*.[ch], and
    xxhash.h, used header-only) into csrc/ of the release tree: pip builds it anywhere."""

    def make_release_tree(self, base_dir, files):
        # ../ paths (the clone's sources as build_ext lists them) go to csrc/ instead
        super().make_release_tree(base_dir, [f for f in files if not f.startswith("..")])
        if TOP == BUNDLED:  # an sdist made from an sdist
            shutil.copytree(BUNDLED, os.path.join(base_dir, "csrc"))
            return
        os.makedirs(os.path.join(base_dir, "csrc", "tools"))
        shutil.copy2(os.path.join(TOP, "LICENSE"), base_dir)
        for path in glob.glob(os.path.join(TOP, "asmstore*.h")) + glob.glob(
                os.path.join(TOOLS, "*.[ch]")) + [find_header("xxhash.h")]:
            shutil.copy2(path, os.path.join(base_dir, "csrc", os.path.relpath(
                path, TOP) if path.startswith(TOP + os.sep) else os.path.basename(path)))


def find_header(name):
    """Where the compiler finds <name> (its own -M dependency output), for the sdist to carry."""
    cc = os.environ.get("CC", "cc").split()
    deps = subprocess.run(cc + ["-M", "-x", "c", "-"], input="#include <%s>\n" % name,
                          capture_output=True, text=True)
    for word in deps.stdout.replace("\\\n", " ").split():
        if os.path.basename(word) == name and os.path.isfile(word):
            return word
    sys.exit("asmstore: %s not found by %s (Debian: libxxhash-dev): the sdist must carry it"
             % (name, " ".join(cc)))


# every CLI source (its main renamed) and this package's module, relative to python/ (where pip
# runs this; bdist_wheel refuses absolute source paths)
sources = [os.path.join("src", "_asmstore.c")] + sorted(
    os.path.relpath(p, HERE) for p in glob.glob(os.path.join(TOOLS, "*.c")))
flags = ["-std=c11", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wshadow"]
if os.environ.get("ASMSTORE_WERROR"):
    flags.append("-Werror")
# a changed header rebuilds the extension too
depends = sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(TOP, "asmstore*.h")) +
                 glob.glob(os.path.join(TOOLS, "*.h")))

# The stable ABI from CPython 3.11, the first whose limited API has the buffer protocol (view()):
# one abi3 wheel serves 3.11 and every later CPython; 3.8-3.10 build the full-API extension
ABI3 = sys.version_info >= (3, 11)
macros = [("_GNU_SOURCE", None), ("main", "asmstore_cli_main")]  # tools/asmstore.c's main
if ABI3:
    macros.append(("Py_LIMITED_API", "0x030B0000"))

setup(version=header_version(), cmdclass={"build_ext": BuildExt, "sdist": Sdist},
      options={"bdist_wheel": {"py_limited_api": "cp311"}} if ABI3 else {},
      ext_modules=[Extension("asmstore._asmstore", sources=sources, depends=depends,
                             include_dirs=[TOOLS, TOP], define_macros=macros, py_limited_api=ABI3,
                             libraries=["pthread"], extra_compile_args=flags)])
