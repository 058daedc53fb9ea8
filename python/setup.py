"""Builds asmstore._asmstore from the repository's C sources (python/ must stay inside a clone: the
extension is compiled from ../asmstore.h and ../tools/*.c, not from a copy of them)."""
import glob
import os
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
TOOLS = os.path.join(TOP, "tools")
if not os.path.isfile(os.path.join(TOP, "asmstore.h")) or not os.path.isdir(TOOLS):
    sys.exit("asmstore: setup.py builds from the repository around python/ (../asmstore.h, "
             "../tools): install from a clone (pip install --no-build-isolation ./python), "
             "not from a copy of python/")

# the CLI's optional parts, found the way the Makefile finds them (the same -D and -l)
OPTIONAL = [("lz4.h", "ASMSTORE_CLI_LZ4", ["lz4"]), ("zlib.h", "ASMSTORE_CLI_ZLIB", ["z"]),
            ("openssl/evp.h", "ASMSTORE_CLI_CRYPTO", ["crypto"])]
defines = [("_GNU_SOURCE", None), ("main", "asmstore_cli_main")]  # tools/asmstore.c's main, renamed
libraries = ["zstd", "pthread"]
for header, define, libs in OPTIONAL:
    if os.path.isfile(os.path.join("/usr/include", header)):
        defines.append((define, None))
        libraries += libs

# every CLI source (its main renamed above) and this package's module, relative to python/
# (where pip runs this; bdist_wheel refuses absolute source paths)
sources = [os.path.join("src", "_asmstore.c")] + sorted(
    os.path.relpath(p, HERE) for p in glob.glob(os.path.join(TOOLS, "*.c")))
flags = ["-std=c11", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wshadow"]
if os.environ.get("ASMSTORE_WERROR"):
    flags.append("-Werror")

# a changed header rebuilds the extension too
depends = sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(TOP, "asmstore*.h")) +
                 glob.glob(os.path.join(TOOLS, "*.h")))

setup(ext_modules=[Extension("asmstore._asmstore", sources=sources, depends=depends,
                             include_dirs=[TOOLS, TOP], define_macros=defines, libraries=libraries,
                             extra_compile_args=flags)])
