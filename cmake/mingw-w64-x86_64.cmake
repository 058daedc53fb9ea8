# CMake toolchain file for Windows x86_64 with Debian's mingw-w64 (apt-get install mingw-w64):
#   cmake -S myproject -B build -DCMAKE_TOOLCHAIN_FILE=<asmstore>/cmake/mingw-w64-x86_64.cmake \
#         -DCMAKE_FIND_ROOT_PATH=<where mingw's zstd and xxhash.h are: lib/ and include/>
# Libraries and headers are looked for only in the mingw root (/usr/x86_64-w64-mingw32) and the
# CMAKE_FIND_ROOT_PATH given, never in the build machine's /usr; pkg-config likewise reads only
# their lib/pkgconfig. `make windows` builds such a root: build/windows/deps (mk/windows.mk).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ASMSTORE_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${ASMSTORE_MINGW_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${ASMSTORE_MINGW_TRIPLE}-g++)
set(CMAKE_RC_COMPILER ${ASMSTORE_MINGW_TRIPLE}-windres)
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${ASMSTORE_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config: the roots' .pc files only, their paths prefixed with nothing (they name themselves)
set(_asmstore_pc "")
foreach(_root IN LISTS CMAKE_FIND_ROOT_PATH)
  list(APPEND _asmstore_pc ${_root}/lib/pkgconfig)
endforeach()
string(REPLACE ";" ":" _asmstore_pc "${_asmstore_pc}")
set(ENV{PKG_CONFIG_LIBDIR} "${_asmstore_pc}")
set(ENV{PKG_CONFIG_PATH} "")
