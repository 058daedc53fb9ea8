# mk/python.mk - the Python package (python/, issue 26; tests/t_python.sh runs its suite in `make test`):
#   make sdist         build/dist/asmstore-VERSION.tar.gz: the package with the C files it compiles
#                      copied into its csrc/ (python/setup.py's sdist), to pip install anywhere
#   make wheel         build/dist/asmstore-VERSION-*.whl: the extension with zstd, lz4, zlib and
#                      libcrypto linked in statically (build/wheel-deps: -fPIC builds of Debian's source
#                      packages, mk/debsrc.sh), so it installs where none of them is
#   make python-venv   build/python-venv: a venv with the system's site packages and the package installed
#                      as python/README.md says (pip install --no-build-isolation ./python, offline)
#   make bench-python  reading every image of the .NET BCL store from Python beside `asmstore extract`
#                      (tests/bench/bench_python.py; BENCHMARKS.md "Python")
#   make python-asan   the pytest suite (the fuzz corpus through open and read included) on an ASan +
#                      UBSan build of the extension; not in `make test` (it compiles every tools/*.c again)
PY_SYS   ?= /usr/bin/python3
PY_VENV   = $(B)/python-venv
PY_ASAN   = $(B)/python-asan
PY_DEPS   = python/setup.py python/pyproject.toml python/src/_asmstore.c $(wildcard python/asmstore/*) \
            $(HEADERS) $(wildcard tools/*.c tools/*.h)
.PHONY: sdist wheel python-wheel-check python-venv bench-python python-asan
WHEEL_DEPS = $(abspath $(B))/wheel-deps
WHEEL_LIBS = $(WHEEL_DEPS)/lib/libzstd.a $(WHEEL_DEPS)/lib/liblz4.a $(WHEEL_DEPS)/lib/libz.a \
             $(WHEEL_DEPS)/lib/libcrypto.a

# setup.py sdist: `python3 -m build --sdist --no-isolation python` gives the same, where the build
# package (python3-build, not in DEPS) is installed
sdist: | $(B)
	rm -f $(B)/dist/*.tar.gz
	cd python && $(PY_SYS) setup.py -q sdist --dist-dir $(abspath $(B))/dist
	@ls $(B)/dist/*.tar.gz

# each from the source package of the version this machine's -dev package has (OpenSSL: its
# series' newest when the archive has moved on: security fixes)
$(WHEEL_DEPS)/lib/libzstd.a:
	@src=$$(mk/debsrc.sh fetch libzstd-dev $(B)/debsrc) && CFLAGS="-O2 -fPIC" mk/debsrc.sh zstd "$$src" $(WHEEL_DEPS)
$(WHEEL_DEPS)/lib/liblz4.a:
	@src=$$(mk/debsrc.sh fetch liblz4-dev $(B)/debsrc) && CFLAGS="-O2 -fPIC" mk/debsrc.sh lz4 "$$src" $(WHEEL_DEPS)
$(WHEEL_DEPS)/lib/libz.a:
	@src=$$(mk/debsrc.sh fetch zlib1g-dev $(B)/debsrc) && CFLAGS="-O2 -fPIC" mk/debsrc.sh zlib "$$src" $(WHEEL_DEPS)
$(WHEEL_DEPS)/lib/libcrypto.a:
	@src=$$(mk/debsrc.sh fetch libssl-dev $(B)/debsrc newer) && \
	  CFLAGS="-O2 -fPIC" mk/debsrc.sh openssl "$$src" $(WHEEL_DEPS)

# setup.py bdist_wheel (offline: the system's setuptools and wheel), built apart in build/wheel-build
# (python/build/ holds the extension `pip install ./python` links against the shared libraries)
wheel: $(WHEEL_LIBS) | $(B)
	rm -rf $(B)/wheel-build $(B)/dist/*.whl
	cd python && ASMSTORE_STATIC_DEPS=$(WHEEL_DEPS) $(PY_SYS) setup.py -q build -b $(abspath $(B))/wheel-build \
	  bdist_wheel -b $(abspath $(B))/wheel-build/bdist -d $(abspath $(B))/dist
	@ls $(B)/dist/*.whl

# before `make test` (tests/t_python.sh installs the wheel): a failure is said and kept in
# build/dist/wheel.log, which the suite reads (Debian's source packages out of reach: a skip)
python-wheel-check: | $(B)
	@mkdir -p $(B)/dist; $(MAKE) --no-print-directory wheel >$(B)/dist/wheel.log 2>&1 || \
	  echo "  wheel: not built (build/dist/wheel.log: $$(tail -1 $(B)/dist/wheel.log))"
PYTHON_TEST_NEEDS = python-wheel-check

$(PY_VENV)/installed: $(PY_DEPS) | $(B)
	rm -rf $(PY_VENV)
	$(PY_SYS) -m venv --system-site-packages $(PY_VENV)
	$(PY_VENV)/bin/pip install -q --no-build-isolation --no-index ./python
	touch $@
python-venv: $(PY_VENV)/installed

bench-python: $(B)/asmstore $(PY_VENV)/installed
	$(PY_VENV)/bin/python tests/bench/bench_python.py --python $(PY_VENV)/bin/python \
	  --asmstore $(B)/asmstore --work $(B)/bench-python

# the extension built apart (build_ext -b/-t under build/python-asan, not python/build) beside a
# copy of the package's .py files; libasan preloaded into the interpreter, leaks not reported (CPython's)
python-asan: | $(B)
	cd python && CFLAGS="$(SAN_FLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" $(PY_SYS) setup.py -q build_ext -b ../$(PY_ASAN)/lib \
	  -t ../$(PY_ASAN)/tmp
	cp python/asmstore/*.py python/asmstore/*.pyi $(PY_ASAN)/lib/asmstore/
	cd $(PY_ASAN) && LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  ASAN_OPTIONS=detect_leaks=0 PYTHONPATH=$(CURDIR)/$(PY_ASAN)/lib ASMSTORE_TOP=$(CURDIR) \
	  $(PY_SYS) -m pytest -p no:cacheprovider -q $(CURDIR)/python/tests
