# mk/python.mk - the Python package (python/, issue 26; tests/t_python.sh runs its suite in `make test`):
#   make sdist         build/dist/asmstore-VERSION.tar.gz: the package with the C files it compiles
#                      copied into its csrc/ (python/setup.py's sdist), to pip install anywhere
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
.PHONY: sdist python-venv bench-python python-asan

# setup.py sdist: `python3 -m build --sdist --no-isolation python` gives the same, where the build
# package (python3-build, not in DEPS) is installed
sdist: | $(B)
	rm -rf $(B)/dist
	cd python && $(PY_SYS) setup.py -q sdist --dist-dir $(abspath $(B))/dist
	@ls $(B)/dist/*.tar.gz

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
