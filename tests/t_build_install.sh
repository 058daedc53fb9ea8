#!/usr/bin/env bash
# tests/t_build_install.sh - `make install PREFIX=...` into a temp prefix, then a small program built
# against it with nothing but `pkg-config --cflags --libs asmstore`; `cmake --install` into another
# prefix installs the same files; DESTDIR staging; uninstall.
. "$(dirname "$0")/lib/lib.sh"
if ! command -v pkg-config >/dev/null 2>&1; then t_skip "install" "pkg-config not installed"; t_done; exit; fi
P=$T_TMP/prefix
if make -s -C "$TOP" install PREFIX="$P" >"$T_TMP/install.log" 2>&1; then t_ok "make install PREFIX=<temp>"
else t_fail "make install" "$(tail -5 "$T_TMP/install.log")"; t_done; exit; fi

missing=
for f in include/asmstore.h include/asmstore_cache.h bin/asmstore share/man/man1/asmstore.1 \
         share/bash-completion/completions/asmstore share/pkgconfig/asmstore.pc \
         share/cmake/asmstore/asmstoreConfig.cmake share/cmake/asmstore/asmstoreConfigVersion.cmake; do
  [ -f "$P/$f" ] || missing="$missing $f"
done
[ -x "$P/bin/asmstore" ] || missing="$missing (bin/asmstore not executable)"
if [ -z "$missing" ]; then t_ok "headers, CLI, asmstore.pc and the CMake package config installed"; else t_fail "installed files" "missing:$missing"; fi

export PKG_CONFIG_PATH=$P/share/pkgconfig
want_ver=$(sed -n 's/^#define ASMSTORE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$TOP/asmstore.h" | paste -sd. -)
ver=$(pkg-config --modversion asmstore 2>&1)
if [ "$ver" = "$want_ver" ]; then t_ok "pkg-config --modversion asmstore = $ver (asmstore.h)"
else t_fail "pkg-config --modversion" "got '$ver', want '$want_ver'"; fi
flags=$(pkg-config --cflags --libs asmstore 2>&1)
case " $flags " in
  *" -I$P/include "*"-lzstd"*) t_ok "pkg-config --cflags --libs asmstore: $flags" ;;
  *) t_fail "pkg-config flags" "$flags" ;;
esac

# A program that uses every installed header, compiled outside the source tree against the prefix.
mkdir "$T_TMP/app" && cd "$T_TMP/app" || exit 1
cat >app.c <<'EOF'
#define _GNU_SOURCE
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_CACHE_IMPLEMENTATION
#include <asmstore.h>
#include <asmstore_cache.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    static char big[200000];
    asmstore_write_options o;
    asmstore_writer *w;
    asmstore_reader r;
    asmstore_entry e;
    asmstore_cache *c;
    asmstore_cache_image img;
    const void *store;
    size_t size, i;
    int pass;
    if (argc != 2) return 2;
    for (i = 0; i < sizeof big; i++) big[i] = (char)('a' + i % 7);
    asmstore_add app = {0};
    asmstore_add satellite = {0};
    memset(&o, 0, sizeof o);
    o.abi = ASMSTORE_ABI_X86_64;
    app.name = "App.dll";
    app.image = big;
    app.image_size = sizeof big;
    satellite.name = "fr/App.resources.dll";
    satellite.image = "bonjour";
    satellite.image_size = 7;
    if (asmstore_writer_create(&w, &o, NULL) != ASMSTORE_OK ||
        asmstore_writer_add(w, &app, NULL) != ASMSTORE_OK ||
        asmstore_writer_add(w, &satellite, NULL) != ASMSTORE_OK ||
        asmstore_writer_finish(w, &store, &size, NULL) != ASMSTORE_OK) return 1;
    if (asmstore_reader_init(&r, store, size, NULL, NULL) != ASMSTORE_OK) return 1;
    for (pass = 0; pass < 2; pass++) {
        if (asmstore_cache_open(&c, argv[1], &r, NULL, NULL) != ASMSTORE_OK) return 1;
        if (asmstore_reader_find(&r, "App", 3, &e, NULL) != ASMSTORE_OK || asmstore_cache_get(c, &e, &img, NULL) != ASMSTORE_OK) return 1;
        if (img.size != sizeof big || memcmp(img.data, big, sizeof big) != 0) return 1;
        printf("%s %s\n", pass ? "warm" : "cold", img.source == ASMSTORE_CACHE_HIT ? "hit" : img.source == ASMSTORE_CACHE_MISS ? "miss" : "direct");
        asmstore_cache_release(&img);
        asmstore_cache_flush(c);
        asmstore_cache_close(c);
    }
    printf("%u entries, format %u, asmstore %u\n", (unsigned)r.entry_count, (unsigned)r.format, asmstore_version_number());
    asmstore_writer_free(w);
    return 0;
}
EOF
# shellcheck disable=SC2046  # word splitting of pkg-config output is the point
if ${CC:-cc} -std=c99 -Wall -Wextra -Wpedantic -Werror $(pkg-config --cflags asmstore) -o app app.c $(pkg-config --libs asmstore) -lpthread >cc.log 2>&1; then
  t_ok "a program builds with pkg-config --cflags --libs asmstore (outside the source tree)"
else t_fail "build against the prefix" "$(head -10 cc.log)"; fi
if [ -x app ] && ./app cachedir >run.log 2>&1 && [ "$(cat run.log)" = "cold miss
warm hit
2 entries, format 4, asmstore $(echo "$want_ver" | awk -F. '{print $1*10000 + $2*100 + $3}')" ]; then
  t_ok "it packs, reads and caches (cold miss, warm hit)"
else t_fail "run the program" "$(cat run.log 2>/dev/null)"; fi

t_pe Lib.dll 4000
if "$P/bin/asmstore" pack --raw --target net11-preview --runtime monovm -o s.bin Lib.dll >/dev/null 2>&1 && "$P/bin/asmstore" list s.bin 2>&1 | grep -q 'Lib.dll'; then
  t_ok "the installed CLI packs and lists"
else t_fail "installed CLI" "$("$P/bin/asmstore" list s.bin 2>&1 | head -3)"; fi

# `cmake --install` installs the same files: same names and modes, the text files equal but for the
# prefix, the two CLIs print the same --version
C=$T_TMP/cmake-prefix
if ! command -v cmake >/dev/null 2>&1; then t_skip "make install = cmake --install" "cmake not installed"
elif cmake -S "$TOP" -B "$T_TMP/b.cmake" -DCMAKE_INSTALL_PREFIX="$C" >"$T_TMP/cmake.log" 2>&1 &&
     cmake --build "$T_TMP/b.cmake" >>"$T_TMP/cmake.log" 2>&1 && cmake --install "$T_TMP/b.cmake" >>"$T_TMP/cmake.log" 2>&1; then
  (cd "$P" && find . \( -type f -o -type l \) -printf '%P %m\n' | sort) >"$T_TMP/make.files"
  (cd "$C" && find . \( -type f -o -type l \) -printf '%P %m\n' | sort) >"$T_TMP/cmake.files"
  differ=$(diff "$T_TMP/make.files" "$T_TMP/cmake.files" | grep '^[<>]')
  while read -r f _; do
    case $f in
      bin/*) [ "$("$P/$f" --version 2>&1)" = "$("$C/$f" --version 2>&1)" ] || differ="$differ $f (--version)" ;;
      *) [ -f "$C/$f" ] && { sed "s|$C|PREFIX|g" "$C/$f" | cmp -s - <(sed "s|$P|PREFIX|g" "$P/$f") || differ="$differ $f"; } ;;
    esac
  done <"$T_TMP/make.files"
  if [ -z "$differ" ]; then t_ok "cmake --install installs the same $(wc -l <"$T_TMP/make.files") files as make install"
  else t_fail "make install vs cmake --install" "$(echo "$differ" | head -10)"; fi
else t_fail "cmake --install" "$(tail -5 "$T_TMP/cmake.log")"; fi
# a prefix given only at install time is the one asmstore.pc names
R=$T_TMP/cmake-relocated
if command -v cmake >/dev/null 2>&1 && cmake --install "$T_TMP/b.cmake" --prefix "$R" >>"$T_TMP/cmake.log" 2>&1 &&
   [ "$(PKG_CONFIG_PATH=$R/share/pkgconfig pkg-config --cflags asmstore | xargs)" = "-I$R/include" ]; then
  t_ok "cmake --install --prefix P: asmstore.pc gives -IP/include"
elif command -v cmake >/dev/null 2>&1; then
  t_fail "cmake --install --prefix" "$(PKG_CONFIG_PATH=$R/share/pkgconfig pkg-config --cflags asmstore 2>&1)"; fi

# DESTDIR stages under a root while the .pc still names the final prefix
D=$T_TMP/stage
if make -s -C "$TOP" install PREFIX=/opt/asmstore DESTDIR="$D" >"$T_TMP/stage.log" 2>&1 &&
   [ -f "$D/opt/asmstore/include/asmstore.h" ] && grep -qx 'prefix=/opt/asmstore' "$D/opt/asmstore/share/pkgconfig/asmstore.pc"; then
  t_ok "DESTDIR staging keeps prefix=/opt/asmstore in asmstore.pc"
else t_fail "DESTDIR install" "$(tail -3 "$T_TMP/stage.log")"; fi

if make -s -C "$TOP" uninstall PREFIX="$P" >/dev/null 2>&1 && [ ! -e "$P/include/asmstore.h" ] && [ ! -e "$P/bin/asmstore" ] &&
   [ ! -e "$P/share/pkgconfig/asmstore.pc" ] && [ -z "$(find "$P" -type f)" ]; then t_ok "make uninstall removes them"
else t_fail "make uninstall" "$(find "$P" -type f)"; fi
t_done
