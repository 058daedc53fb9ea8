#!/usr/bin/env bash
# Debian source packages, built for another toolchain: the libraries the CLI links, from the very
# versions the Linux build uses (the same zstd writes the same frames), never from a downloaded binary.
#   mk/debsrc.sh fetch BINPKG DIR [newer]
#                                        unpack the source of the installed BINPKG's version into
#                                        DIR/<source>-<version> (prints that path); a deb-src line is
#                                        given to apt for this run only, in DIR/apt. newer: when that
#                                        version has left the archive, the suite's newest of the same
#                                        upstream series (OpenSSL's security updates: what it computes
#                                        does not change, unlike a compressor's frames)
#   mk/debsrc.sh zstd SRC PREFIX         lib/ Makefile: libzstd.a + headers into PREFIX
#   mk/debsrc.sh lz4 SRC PREFIX          lib/ Makefile: liblz4.a + headers into PREFIX
#   mk/debsrc.sh zlib SRC PREFIX         its configure --static: libz.a + headers into PREFIX
#   mk/debsrc.sh openssl SRC PREFIX      libcrypto.a + headers into PREFIX, and nothing it could load
#                                        at run time (no config file, engine, module or DSO)
# The builds use $CC, $AR, $CFLAGS as given (mingw: CC=x86_64-w64-mingw32-gcc; the Python wheel: CFLAGS=-fPIC).
set -euo pipefail

die() { echo "debsrc: $*" >&2; exit 1; }

# fetch BINPKG DIR [newer]
fetch() {
  local bin=$1 dir=$2 newer=${3:-} src ver apt out
  src=$(dpkg-query -W -f='${source:Package}' "$bin" 2>/dev/null) || die "$bin is not installed (make deps)"
  ver=$(dpkg-query -W -f='${source:Version}' "$bin")
  mkdir -p "$dir/apt/lists/partial" "$dir/apt/archives/partial"
  dir=$(cd "$dir" && pwd); apt="$dir/apt"; out="$dir/$src-${ver#*:}"
  # one fetch at a time (make -j builds several libraries: apt's lists and archives take one user)
  exec 9>"$apt/fetch.lock" && flock 9
  if [ -f "$out/.debsrc-done" ]; then echo "$out"; return; fi
  # bookworm, its updates and its security suite: the deb-src twins of /etc/apt's deb lines
  . /etc/os-release
  printf 'deb-src http://deb.debian.org/debian %s main\ndeb-src http://deb.debian.org/debian %s-updates main\ndeb-src http://deb.debian.org/debian-security %s-security main\n' \
    "$VERSION_CODENAME" "$VERSION_CODENAME" "$VERSION_CODENAME" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/none"
              -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o "Dir::Cache::archives=$apt/archives"
              -o "APT::Sandbox::User=root" -qq)
  # once more after a pause: a mirror caught mid-sync fails an index now and then
  [ -n "$(ls "$apt/lists" | grep -i sources || true)" ] ||
    apt-get "${opts[@]}" update >&2 || { sleep 20; apt-get "${opts[@]}" update >&2; }
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  # the exact version, else one of the same upstream version (a security suite's pool may be out of
  # reach where the main archive is not: its fixes do not change what the library writes)
  local v got= series=${ver%-*}-
  [ -z "$newer" ] || series=$(sed 's/^\([0-9]*\.[0-9]*\.\).*/\1/' <<<"${ver#*:}")
  local others
  others=$(apt-cache "${opts[@]}" showsrc "$src" | sed -n 's/^Version: //p' |
           awk -v s="$series" 'index($0, s) == 1' | grep -vxF "$ver" | sort -rV || true)
  for v in "$ver" $others; do
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

# private_copy SRC PREFIX NAME: a copy of the source tree under PREFIX/src/NAME, printed: each toolchain builds in its own, so the mingw, musl and wheel builds never share objects
private_copy() {
  local work=$2/src/$3
  rm -rf "$work" && mkdir -p "$2/src" && cp -r "$1" "$work" &&
    find "$work" \( -name '*.o' -o -name '*.a' -o -name '*.d' \) -delete && echo "$work" # nothing built elsewhere
}

# lib_build NAME SRC PREFIX MAKEVARS...: the library's own lib/ Makefile, static only
lib_build() {
  local name=$1 src=$2 prefix=$3 work; shift 3
  [ -f "$prefix/lib/lib$name.a" ] && return
  work=$(private_copy "$src" "$prefix" "$name")/lib
  make -s -C "$work" clean >/dev/null 2>&1 || true # objects an earlier build left in the source tree
  make -s -C "$work" -j2 CC="${CC:-cc}" AR="${AR:-ar}" CFLAGS="${CFLAGS:--O2}" "$@" lib$name.a >&2
  mkdir -p "$prefix/lib" "$prefix/include"
  cp "$work/lib$name.a" "$prefix/lib/"
}

# PREFIX absolute (OpenSSL's Configure wants it so), made if absent
[ $# -lt 3 ] || [ "$1" = fetch ] || set -- "$1" "$2" "$(mkdir -p "$3" && cd "$3" && pwd)"
case "${1:-}" in
  fetch) [ $# -ge 3 ] || die "usage: fetch BINPKG DIR [newer]"; fetch "$2" "$3" "${4:-}" ;;
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
    [ -f "$3/lib/libz.a" ] && exit 0
    (cd "$(private_copy "$2" "$3" zlib)" && { make -s distclean >/dev/null 2>&1 || true; } &&
     CC="${CC:-cc}" AR="${AR:-ar}" CFLAGS="${CFLAGS:--O2}" ./configure --static --prefix="$3" >&2 &&
     make -s -j2 libz.a >&2 && mkdir -p "$3/lib" "$3/include" && cp libz.a "$3/lib/" &&
     cp zlib.h zconf.h "$3/include/") ;;
  openssl)
    [ $# -eq 3 ] || die "usage: openssl SRC PREFIX"
    [ -f "$3/lib/libcrypto.a" ] && exit 0
    # libcrypto alone, and of it what the CLI calls: digests, PEM, X.509, RSA and EC signatures (the
    # ciphers, MACs and KDFs it never uses left out: a third less to build). A library linked into
    # someone else's process (the wheel) or a static binary reads no openssl.cnf (which can load
    # code) and loads no engine, module or DSO; no async jobs or secure heap (musl lacks them)
    (cd "$(private_copy "$2" "$3" openssl)" && { make -s distclean >/dev/null 2>&1 || true; } &&
     CC="${CC:-cc}" AR="${AR:-ar}" ./Configure "${OPENSSL_TARGET:-linux-x86_64}" no-shared no-module no-dso \
       no-engine no-legacy no-autoload-config no-tests no-ssl3 no-comp no-async no-afalgeng no-ui-console \
       no-secure-memory no-aria no-bf no-camellia no-cast no-des no-idea no-md4 no-mdc2 no-rc2 no-rc4 \
       no-rmd160 no-seed no-sm2 no-sm3 no-sm4 no-whirlpool no-srp no-cms no-ts no-ocsp no-ct no-dsa no-dh \
       no-scrypt no-siphash no-blake2 no-ocb no-siv no-chacha no-poly1305 ${CFLAGS:--O2} --prefix="$3" >&2 &&
     make -s -j2 build_generated >&2 && make -s -j2 libcrypto.a >&2 &&
     mkdir -p "$3/lib" "$3/include" && cp libcrypto.a "$3/lib/" && cp -r include/openssl "$3/include/") ;;
  *) die "usage: mk/debsrc.sh fetch|zstd|lz4|zlib|openssl ..." ;;
esac
