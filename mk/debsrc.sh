#!/usr/bin/env bash
# Debian source packages, built for another toolchain: the libraries the CLI links, from the very
# versions the Linux build uses (the same zstd writes the same frames), never from a downloaded binary.
#   mk/debsrc.sh fetch BINPKG DIR        unpack the source of the installed BINPKG's version into
#                                        DIR/<source>-<version> (prints that path); a deb-src line is
#                                        given to apt for this run only, in DIR/apt
#   mk/debsrc.sh zstd SRC PREFIX         lib/ Makefile: libzstd.a + headers into PREFIX
#   mk/debsrc.sh lz4 SRC PREFIX          lib/ Makefile: liblz4.a + headers into PREFIX
#   mk/debsrc.sh zlib SRC PREFIX         configure --static: libz.a + headers into PREFIX
#   mk/debsrc.sh libcrypto SRC PREFIX    OpenSSL's Configure (linux-x86_64, static, no engines,
#                                        modules, apps or tests): libcrypto.a + headers into PREFIX
# The builds use $CC, $AR, $CFLAGS as given (mingw: CC=x86_64-w64-mingw32-gcc; the Python wheel: CFLAGS=-fPIC).
set -euo pipefail

die() { echo "debsrc: $*" >&2; exit 1; }

# fetch BINPKG DIR
fetch() {
  local bin=$1 dir=$2 src ver apt out
  src=$(dpkg-query -W -f='${source:Package}' "$bin" 2>/dev/null) || die "$bin is not installed (make deps)"
  ver=$(dpkg-query -W -f='${source:Version}' "$bin")
  out="$dir/$src-${ver#*:}"
  if [ -f "$out/.debsrc-done" ]; then echo "$out"; return; fi
  apt="$dir/apt"
  mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$dir"
  dir=$(cd "$dir" && pwd); apt="$dir/apt"; out="$dir/$src-${ver#*:}"
  # bookworm and its security suite: the deb-src twins of /etc/apt's deb lines
  . /etc/os-release
  printf 'deb-src http://deb.debian.org/debian %s %s-updates main\ndeb-src http://deb.debian.org/debian-security %s-security main\n' \
    "$VERSION_CODENAME" "$VERSION_CODENAME" "$VERSION_CODENAME" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/none"
              -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o "Dir::Cache::archives=$apt/archives"
              -o "APT::Sandbox::User=root" -qq)
  [ -n "$(ls "$apt/lists" | grep -i sources || true)" ] || apt-get "${opts[@]}" update >&2
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  # the exact version, else one of the same upstream version (a security suite's pool may be out of
  # reach where the main archive is not: its fixes do not change what the library writes); with
  # DEBSRC_ANY_VERSION=1 (libcrypto: its digests and RSA signatures are the same bytes in every
  # version) then any Debian version of the source, for one the archive no longer holds
  local v got= all
  all=$(apt-cache "${opts[@]}" showsrc "$src" | sed -n 's/^Version: //p' | grep -vxF "$ver" || true)
  for v in "$ver" $(grep -F "${ver%-*}-" <<<"$all") $([ "${DEBSRC_ANY_VERSION:-0}" = 1 ] && grep -vF "${ver%-*}-" <<<"$all"); do
    if (cd "$out.tmp" && apt-get "${opts[@]}" source "$src=$v" >&2); then got=$v; break; fi
    echo "debsrc: $src=$v not fetched; trying the same upstream version" >&2
  done
  [ -n "$got" ] || die "apt-get source $src=$ver (or the same upstream version) failed"
  [ "$got" = "$ver" ] || echo "debsrc: $src: built from $got (installed: $ver)" >&2
  local d
  d=$(find "$out.tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
  [ -n "$d" ] || die "apt-get source $src=$ver unpacked nothing"
  rm -rf "$out" && mv "$d" "$out" && rm -rf "$out.tmp"
  echo "$got" >"$out/.debsrc-done" # the version unpacked
  echo "$out"
}

# lib_build NAME SRC PREFIX MAKEVARS...: the library's own lib/ Makefile, static only
lib_build() {
  local name=$1 src=$2 prefix=$3; shift 3
  [ -f "$prefix/lib/lib$name.a" ] && return
  make -s -C "$src/lib" clean >/dev/null 2>&1 || true
  make -s -C "$src/lib" -j2 CC="${CC:-cc}" AR="${AR:-ar}" CFLAGS="${CFLAGS:--O2}" "$@" lib$name.a >&2
  mkdir -p "$prefix/lib" "$prefix/include"
  cp "$src/lib/lib$name.a" "$prefix/lib/"
}

case "${1:-}" in
  fetch) [ $# -eq 3 ] || die "usage: fetch BINPKG DIR"; fetch "$2" "$3" ;;
  zstd)
    [ $# -eq 3 ] || die "usage: zstd SRC PREFIX"
    # single-threaded (the writer runs its own threads; zstd's workers change no frame it writes),
    # no legacy formats, no assembly (the C code: any toolchain)
    lib_build zstd "$2" "$3" ZSTD_LEGACY_SUPPORT=0 ZSTD_NO_ASM=1
    cp "$2/lib/zstd.h" "$2/lib/zstd_errors.h" "$3/include/" ;;
  lz4)
    [ $# -eq 3 ] || die "usage: lz4 SRC PREFIX"
    lib_build lz4 "$2" "$3"
    cp "$2/lib/lz4.h" "$2/lib/lz4hc.h" "$2/lib/lz4frame.h" "$3/include/" ;;
  zlib)
    [ $# -eq 3 ] || die "usage: zlib SRC PREFIX"
    if [ ! -f "$3/lib/libz.a" ]; then
      (cd "$2" && { make -s distclean >/dev/null 2>&1 || true; } &&
        CC="${CC:-cc}" CFLAGS="${CFLAGS:--O2}" ./configure --static >&2 && make -s -j2 libz.a >&2)
      mkdir -p "$3/lib" "$3/include" && cp "$2/libz.a" "$3/lib/" && cp "$2/zlib.h" "$2/zconf.h" "$3/include/"
    fi ;;
  libcrypto)
    [ $# -eq 3 ] || die "usage: libcrypto SRC PREFIX"
    # only what the CLI calls (digests, PEM, X.509, RSA and EC signatures): no engines, modules,
    # async jobs or secure heap (musl has neither the kernel headers nor the calls they need)
    if [ ! -f "$3/lib/libcrypto.a" ]; then
      (cd "$2" && { make -s distclean >/dev/null 2>&1 || true; } &&
        CC="${CC:-cc}" ./Configure linux-x86_64 no-shared no-tests no-module no-engine no-dso \
          no-async no-afalgeng no-ui-console no-legacy no-comp no-secure-memory \
          "${CFLAGS:--O2}" >&2 && make -s build_generated >&2 && make -s -j2 libcrypto.a >&2)
      mkdir -p "$3/lib" "$3/include" && cp "$2/libcrypto.a" "$3/lib/" && cp -r "$2/include/openssl" "$3/include/"
    fi ;;
  *) die "usage: mk/debsrc.sh fetch|zstd|lz4|zlib|libcrypto ..." ;;
esac
