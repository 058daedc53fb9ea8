#!/usr/bin/env bash
# tests/t_build_cmake.sh - CMakeLists.txt: tests/cmake_consumer (C + C++) built against asmstore::asmstore
# through add_subdirectory (each way of finding zstd) and through find_package after cmake --install;
# a clear configure error when zstd cannot be found.
. "$(dirname "$0")/lib/lib.sh"
if ! command -v cmake >/dev/null 2>&1; then t_skip "cmake" "cmake not installed (make deps installs it)"; t_done; exit; fi
if ! command -v c++ >/dev/null 2>&1; then t_skip "cmake" "no C++ compiler (the consumer has a C++ file)"; t_done; exit; fi
SRC=$TOP/tests/cmake_consumer
cd "$T_TMP" || exit 1

# consumer NAME ZSTD-REGEX CMAKE-ARGS...: configure + build + run; the configure log must say how zstd was found
consumer() {
  local name=$1 how=$2; shift 2
  if cmake -S "$SRC" -B "b.$name" "$@" >"$name.cfg" 2>&1 && cmake --build "b.$name" >"$name.build" 2>&1 &&
     "b.$name/consumer" "cache.$name" >"$name.run" 2>&1 && [ "$(head -2 "$name.run" | paste -sd' ')" = "miss hit" ] &&
     { [ -z "$how" ] || grep -Eq "asmstore [0-9.]+: zstd $how" "$name.cfg"; }; then
    t_ok "$name: configures, builds (-Wall -Wextra -Werror, C and C++), runs${how:+ (zstd: $(grep -o "zstd $how[^;]*" "$name.cfg" | head -1 | cut -c6-))}"
  else
    t_fail "$name" "$(tail -5 "$name.cfg" "$name.build" "$name.run" 2>/dev/null)"
  fi
}
consumer subdir-package-config 'package target zstd::' -DCMAKE_BUILD_TYPE=Release
consumer subdir-pkg-config 'pkg-config libzstd' -DCMAKE_DISABLE_FIND_PACKAGE_zstd=ON
consumer subdir-find-library '/.*zstd' -DCMAKE_DISABLE_FIND_PACKAGE_zstd=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON
consumer subdir-own-target 'target consumer_zstd' -DCONSUMER_ZSTD_TARGET=ON

# install asmstore with CMake, then find_package(asmstore CONFIG) from the prefix
if cmake -S "$TOP" -B b.asmstore -DCMAKE_INSTALL_PREFIX="$T_TMP/inst" >inst.cfg 2>&1 && cmake --build b.asmstore >inst.log 2>&1 &&
   cmake --install b.asmstore >>inst.log 2>&1 &&
   [ -f inst/include/asmstore.h ] && [ -f inst/share/cmake/asmstore/asmstoreConfig.cmake ] &&
   ! grep -q "$T_TMP/b.asmstore\|$TOP\|PkgConfig::" inst/share/cmake/asmstore/asmstoreConfig.cmake; then
  t_ok "cmake --install: headers + asmstoreConfig.cmake, no build-tree paths exported"
else t_fail "cmake --install" "$(tail -5 inst.cfg inst.log)"; fi
consumer find-package '' -DASMSTORE_FROM=package -DCMAKE_PREFIX_PATH="$T_TMP/inst"
if grep -q "asmstore_DIR:PATH=$T_TMP/inst/" b.find-package/CMakeCache.txt 2>/dev/null; then t_ok "find-package used the temp prefix"
else t_fail "find-package: asmstore_DIR" "$(grep asmstore_DIR b.find-package/CMakeCache.txt 2>/dev/null)"; fi

# no zstd anywhere the search may look: configure fails and says what to do
mkdir empty
if cmake -S "$SRC" -B b.nozstd -DCMAKE_DISABLE_FIND_PACKAGE_zstd=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
     -DCMAKE_FIND_ROOT_PATH="$T_TMP/empty" -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
     >nozstd.cfg 2>&1; then t_fail "configure without zstd must fail" "$(tail -3 nozstd.cfg)"
elif grep -q 'libzstd not found' nozstd.cfg; then t_ok "without zstd: configure fails with 'libzstd not found'"
else t_fail "without zstd: message" "$(grep -i error -A3 nozstd.cfg | head -5)"; fi
t_done
