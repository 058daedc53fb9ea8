#!/usr/bin/env bash
# Build flavours: gcc and clang; C99, C11 and C++11; every warning an error; ASMSTORE_STATIC in two
# translation units linked together; reader-only (no writer, no stdio); no zstd (callback only);
# exported symbols all start with asmstore_ and no XXH* or ZSTD_compress* leaks where it must not;
# the trim switches (ASMSTORE_NO_BUILD, _NO_ZIP, _NO_DLOPEN, the older _NO_LOCATOR), alone and together, and a
# device build (ASMSTORE_NO_BUILD) with no writer, ELF generator, checker or patcher function, static or not (nm);
# the CLI built without any optional library reads every real release and names liblz4 when asked to write LZ4.
# strict POSIX (no _GNU_SOURCE) with gcc, clang and musl-gcc.
. "$(dirname "$0")/lib/lib.sh"
W="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror"
WXX="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Werror"
D="$TOP/tests/build"
HDRS="asmstore.h"
for cc in gcc clang; do
  command -v $cc >/dev/null || { t_skip "$cc" "not installed"; continue; }
  cxx=$([ $cc = gcc ] && echo g++ || echo clang++)
  for std in c99 c11; do
    t_check "$cc -std=$std implementation + use, -Werror" \
      sh -c "$cc -std=$std $W -O2 -D_GNU_SOURCE -c $D/impl.c -o $T_TMP/impl-$cc-$std.o && $cc -std=$std $W -O2 -c $D/use_all.c -o $T_TMP/use-$cc-$std.o"
  done
  cp "$D/use_all.c" "$T_TMP/use_all.cpp"; cp "$D/impl.c" "$T_TMP/impl.cpp"
  sed -i "s|../../asmstore|$TOP/asmstore|" "$T_TMP/use_all.cpp" "$T_TMP/impl.cpp"
  t_check "$cxx -std=c++11 implementation + use, -Werror" \
    sh -c "$cxx -std=c++11 $WXX -O2 -D_GNU_SOURCE -c $T_TMP/impl.cpp -o $T_TMP/impl-$cxx.o && $cxx -std=c++11 $WXX -c $T_TMP/use_all.cpp -o $T_TMP/use-$cxx.o"
  t_check "$cc ASMSTORE_STATIC: two static copies link and agree" \
    sh -c "$cc -std=c99 $W -O2 -D_GNU_SOURCE $D/static_a.c $D/static_b.c -o $T_TMP/static-$cc -lzstd -lpthread && $T_TMP/static-$cc"
  t_check "$cc multiple inclusion" \
    sh -c "$cc -std=c99 $W -D_GNU_SOURCE $D/multi_include.c -o $T_TMP/multi-$cc -lzstd -lpthread && $T_TMP/multi-$cc"
  t_check "$cc reader-only build (ASMSTORE_NO_WRITER + ASMSTORE_NO_STDIO + ASMSTORE_NO_ELF + ASMSTORE_NO_LOCATOR)" \
    $cc -std=c99 $W -O2 -DASMSTORE_NO_WRITER -DASMSTORE_NO_STDIO -DASMSTORE_NO_ELF -DASMSTORE_NO_LOCATOR -c $D/impl.c -o "$T_TMP/ro-$cc.o"
  t_check "$cc on-device build (reader + locators: ASMSTORE_NO_WRITER + ASMSTORE_NO_ELF)" \
    $cc -std=c99 $W -O2 -DASMSTORE_NO_WRITER -DASMSTORE_NO_ELF -c $D/impl.c -o "$T_TMP/dev-$cc.o"
  t_check "$cc strict -std=c99 without -D_GNU_SOURCE (the header sets it)" \
    $cc -std=c99 $W -O2 -c $D/impl.c -o "$T_TMP/strict-$cc.o"
  t_check "$cc no-zstd build (ASMSTORE_NO_ZSTD, no zstd.h needed)" \
    $cc -std=c99 $W -O2 -D_GNU_SOURCE -DASMSTORE_NO_ZSTD -DASMSTORE_ZSTD_HEADER='"/nonexistent/zstd.h"' -c $D/impl.c -o "$T_TMP/nz-$cc.o"
done
# strict POSIX (no _GNU_SOURCE: what macOS and the BSDs offer beside POSIX is guarded) and a second
# libc (musl, whose headers are not /usr/include's: zstd.h and xxhash.h copied beside), both headers
# with their implementations, every warning an error
mkdir -p "$T_TMP/inc" && cp /usr/include/zstd.h /usr/include/zstd_errors.h /usr/include/xxhash.h "$T_TMP/inc/"
for cc in gcc clang musl-gcc; do
  command -v $cc >/dev/null || { t_skip "$cc strict builds" "not installed (make deps: musl-tools)"; continue; }
  t_check "$cc -std=c99 -D_POSIX_C_SOURCE=200809L, no _GNU_SOURCE: asmstore.h + asmstore_cache.h, -Werror" \
    $cc -std=c99 $W -O2 -DASMSTORE_NO_GNU_SOURCE -D_POSIX_C_SOURCE=200809L -I"$T_TMP/inc" -c "$D/impl.c" -o "$T_TMP/posix-$cc.o"
done
command -v musl-gcc >/dev/null && t_check "musl-gcc -std=c99 (the header's _GNU_SOURCE): both headers, -Werror" \
  musl-gcc -std=c99 $W -O2 -I"$T_TMP/inc" -c "$D/impl.c" -o "$T_TMP/musl.o"
# macOS's case, the closest we can compile without its SDK: a POSIX system whose loader reads no ELF
# (the header leaves its dlopen locator out, as ASMSTORE_NO_DLOPEN): every CLI file still compiles
bad=
for f in "$TOP"/tools/*.c; do
  gcc -std=c99 $W -O2 -D_GNU_SOURCE -DASMSTORE_NO_DLOPEN -DASMSTORE_CLI_CRYPTO -I"$TOP" -fsyntax-only "$f" 2>"$T_TMP/nodl.err" || { bad=$f; break; }
done
if [ -z "$bad" ]; then t_ok "the CLI with no dlopen locator (macOS: no ELF loader): every tools/*.c compiles, -Werror"
else t_fail "the CLI with no dlopen locator: $bad" "$(grep -m2 error "$T_TMP/nodl.err")"; fi
# trim switches by audience: each flavour compiles (-Werror), links without what it drops (no -ldl
# without dlopen, no -lpthread without BUILD), runs tests/build/trim.c, which says what it used, and
# its object defines none of the dropped functions (the full object defines them all).
trim_build="asmstore_writer_create asmstore_writer_finish asmstore_write_options_preset asmstore_read_file asmstore_write_file asmstore_elf_wrap asmstore_elf_layout asmstore_elf_check_bionic asmstore_elf_check_inert asmstore_app_open asmstore_app_grow asmstore_app_add_slots"
trim_zip="asmstore_zip_find asmstore_zip_find_store asmstore_zip_store_path asmstore_locate_apk"
trim_dlopen="asmstore_locate_dlopen"
trim_kept="asmstore_reader_init asmstore_reader_read asmstore_elf_payload asmstore_locate_file asmstore_locator_close asmstore_app_load"
# trim_defined OBJ SYMS...: prints the SYMS that OBJ defines, one a line
trim_defined() {
  local o=$1 d s; shift
  d=$(nm -g --defined-only "$o" | awk '{print $3}')
  for s in "$@"; do if printf '%s\n' "$d" | grep -qx "$s"; then echo "$s"; fi; done
}
if [ ! -x "$ASMSTORE" ] || ! command -v zip >/dev/null || ! command -v zipalign >/dev/null || ! command -v nm >/dev/null; then
  t_skip "trim flavours" "needs $ASMSTORE (make), zip, zipalign and nm"
else
  printf 'MZ trim flavour image' >"$T_TMP/Trim.dll"
  mkdir -p "$T_TMP/apk/lib/x86_64"
  "$ASMSTORE" pack --no-check -o "$T_TMP/store.so" --abi x86_64 "$T_TMP/Trim.dll" >/dev/null 2>&1
  cp "$T_TMP/store.so" "$T_TMP/apk/lib/x86_64/libassembly-store.so"
  (cd "$T_TMP/apk" && zip -q -0 -r "$T_TMP/stored.zip" lib) && zipalign -f 16384 "$T_TMP/stored.zip" "$T_TMP/app.apk"
  trim_all="$trim_build $trim_zip $trim_dlopen"
  # name | compiler | defines | libraries | what the run must print | functions that must be absent
  while IFS='|' read -r name cc defs libs says absent; do
    command -v "$cc" >/dev/null || { t_skip "$cc trim flavour $name" "not installed"; continue; }
    o="$T_TMP/trim-$name-$cc"
    t_check "$cc trim flavour $name: compiles and links with only $libs" \
      sh -c "$cc -std=c99 $W -O1 $defs -c $D/trim.c -o $o.o && $cc $o.o -o $o $libs"
    [ -x "$o" ] || continue
    out=$("$o" "$T_TMP/store.so" "$T_TMP/app.apk" Trim.dll 2>&1)
    if [ "$out" = "$says" ]; then t_ok "$cc trim flavour $name runs: $says"
    else t_fail "$cc trim flavour $name runs" "said '$out', want '$says'"; fi
    kept=$(trim_defined "$o.o" $trim_kept | wc -l)
    if [ "$kept" -eq 6 ]; then t_ok "$cc trim flavour $name keeps the reader, payload finder, file locator and app buffers"
    else t_fail "$cc trim flavour $name" "defines $kept of the 6 kept functions"; fi
    if [ -z "$absent" ]; then
      have=$(trim_defined "$o.o" $trim_all | wc -l); want=$(echo $trim_all | wc -w)
      if [ "$have" -eq "$want" ]; then t_ok "$cc trim flavour $name defines every function a trim drops ($want)"
      else t_fail "$cc trim flavour $name" "defines $have of the $want functions trims drop"; fi
    else
      left=$(trim_defined "$o.o" $absent)
      if [ -z "$left" ]; then t_ok "$cc trim flavour $name defines no dropped function"
      else t_fail "$cc trim flavour $name still defines" "$left"; fi
    fi
  done <<FLAVOURS
full|gcc||-lzstd -ldl -lpthread|read zip dlopen build|
no-build|gcc|-DASMSTORE_NO_BUILD|-lzstd -ldl|read zip dlopen|$trim_build
no-zip|gcc|-DASMSTORE_NO_ZIP|-lzstd -ldl -lpthread|read dlopen build|$trim_zip
no-dlopen|gcc|-DASMSTORE_NO_DLOPEN|-lzstd -lpthread|read zip build|$trim_dlopen
no-locator|gcc|-DASMSTORE_NO_LOCATOR|-lzstd -lpthread|read zip build|$trim_dlopen
minimal|gcc|-DASMSTORE_NO_BUILD -DASMSTORE_NO_ZIP -DASMSTORE_NO_DLOPEN|-lzstd|read|$trim_all
minimal|clang|-DASMSTORE_NO_BUILD -DASMSTORE_NO_ZIP -DASMSTORE_NO_DLOPEN|-lzstd|read|$trim_all
FLAVOURS
  # the build kit by family over every function defined, the header's static ones too (nm without -g):
  # the full object has each family, a device build (ASMSTORE_NO_BUILD) none of them
  kit_families="writer:^asmstore(_writer_|_write_options_preset\$|__compress_|__wentry_|__run_compression\$|__reusable_|__v1_(store|table)\$|__windex_cmp\$)
elf-generator:^asmstore(_elf_(wrap|layout|write_file|image_free)\$|__elf_put_|__elf_alloc_parts\$)
checker:^asmstore(_elf_check_|__inert_|__elf_load_covers\$)
patcher:^asmstore(_app_|__app_)"
  # the run-time app-buffer calls (asmstore_app_load: a host's, so a device build's) are no patcher
  runtime_app='^asmstore(_app_load|_app_tables_dlsym|__app_fill)$'
  kit_functions() { nm --defined-only "$1" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | grep -vE "$runtime_app"; }
  kit_count() { kit_functions "$1" | grep -cE "$2"; } # OBJ ERE
  while IFS=: read -r family re; do
    full=$(kit_count "$T_TMP/trim-full-gcc.o" "$re")
    if [ "$full" -gt 0 ]; then t_ok "the full object defines the $family ($full functions)"
    else t_fail "the full object" "defines no $family function: the pattern no longer matches the header"; fi
    for o in no-build-gcc minimal-gcc minimal-clang; do
      [ -f "$T_TMP/trim-$o.o" ] || continue
      left=$(kit_functions "$T_TMP/trim-$o.o" | grep -E "$re" | tr '\n' ' ')
      if [ -z "$left" ]; then t_ok "device build $o (ASMSTORE_NO_BUILD) defines no $family function, static or not"
      else t_fail "device build $o defines $family functions" "$left"; fi
    done
  done <<<"$kit_families"
fi
# libcrypto is required (SHA-256 is never left out): without it the CLI's build stops, naming the
# package, and leaves no asmstore behind
nocrypto=$T_TMP/nocrypto
make -s -C "$TOP" B="$nocrypto" HAVE_CRYPTO=0 "$nocrypto/asmstore" >"$T_TMP/make" 2>&1; rc=$?
t_check "a CLI build without libcrypto stops (exit $rc), names libssl-dev and writes no asmstore" \
  sh -c "[ $rc != 0 ] && grep -q 'libcrypto (OpenSSL) not found.*libssl-dev' '$T_TMP/make' && [ ! -e '$nocrypto/asmstore' ]"
# the CLI's code itself refuses to compile without it (a build that bypasses the Makefile)
t_check "tools/cli_os.c without ASMSTORE_CLI_CRYPTO: #error naming libcrypto" \
  sh -c "cc -std=c99 -fsyntax-only -D_GNU_SOURCE -I'$TOP' '$TOP/tools/cli_os.c' 2>&1 | grep -q 'needs libcrypto'"
# the CLI with no optional library (no liblz4, zlib or libyara): it reads every release (the XALZ
# ones through the header's LZ4 decoder) and, asked to write LZ4, names what it lacks
if [ -d "$SAMPLES" ]; then
  bare=$T_TMP/bare
  if make -s -C "$TOP" B="$bare" HAVE_LZ4=0 HAVE_ZLIB=0 HAVE_YARA=0 "$bare/asmstore" >"$T_TMP/make" 2>&1; then
    libs=$(ldd "$bare/asmstore" | grep -oE 'lib(lz4|z|yara)\.so[^ ]*' | tr '\n' ' ')
    t_check "a CLI built without liblz4, zlib and libyara links none of them" test -z "$libs"
    bad=""
    for s in v1-expandroid v1-razr-pointcrep v3-watercountdown-widget/arm64-v8a/assembly-store.so \
             v3-watercountdown-widget/x86_64/assembly-store.so; do
      "$bare/asmstore" verify "$SAMPLES/$s" >"$T_TMP/v" 2>&1 || bad="$bad $s"
    done
    rm -rf "$T_TMP/bx"; "$bare/asmstore" extract "$SAMPLES/v3-watercountdown-widget/arm64-v8a/assembly-store.so" -C "$T_TMP/bx" >/dev/null 2>&1
    python3 - "$SAMPLES/EXPECTED.json" "$T_TMP/bx" <<'EOF' || bad="$bad extract"
import hashlib, json, os, sys
exp = json.load(open(sys.argv[1]))["v3-watercountdown-widget/arm64-v8a/assembly-store.so"]["descriptors"]
sys.exit(0 if all(hashlib.sha256(open(os.path.join(sys.argv[2], d["name"]), "rb").read()).hexdigest()
                  == d["uncompressed_sha256"] for d in exp) else 1)
EOF
    t_check "the CLI without liblz4 verifies every real XALZ sample and extracts EXPECTED.json's bytes${bad:+ (failed:$bad)}" test -z "$bad"
    "$bare/asmstore" pack --compression lz4 -o "$T_TMP/l.so" "$MONO45/System.dll" >"$T_TMP/lz4w" 2>&1; rc=$?
    t_check "the CLI without liblz4 asked to write LZ4: exit 1, 'built without liblz4: install liblz4-dev and rebuild'" \
      sh -c "[ $rc = 1 ] && grep -q 'built without liblz4: install liblz4-dev and rebuild' '$T_TMP/lz4w' && [ ! -e '$T_TMP/l.so' ]"
  else t_fail "make without liblz4, zlib, libyara" "$(tail -5 "$T_TMP/make")"; fi
else t_skip "a CLI without optional libraries reads every release" "$SAMPLES absent"; fi
# exported symbols
if command -v nm >/dev/null && [ -f "$T_TMP/impl-gcc-c99.o" ]; then
  bad=$(nm -g --defined-only "$T_TMP/impl-gcc-c99.o" | awk '{print $3}' | grep -v '^asmstore_' || true) # both headers
  if [ -z "$bad" ]; then t_ok "every exported symbol starts with asmstore_"; else t_fail "exported symbols" "$bad"; fi
  xx=$(nm -g --defined-only "$T_TMP/impl-gcc-c99.o" | awk '{print $3}' | grep -E '^_?(XXH|xxh)' || true)
  if [ -z "$xx" ]; then t_ok "no XXH* symbol leaks (xxhash inlined)"; else t_fail "XXH leak" "$xx"; fi
  if [ -f "$T_TMP/ro-gcc.o" ]; then
    und=$(nm -u "$T_TMP/ro-gcc.o" | grep -E 'ZSTD_compress|ZSTD_createCCtx|fopen|open$|mmap|dlopen|pthread_create' || true)
    if [ -z "$und" ]; then t_ok "reader-only object needs no compressor, stdio or threads"; else t_fail "reader-only references" "$und"; fi
  fi
  if [ -f "$T_TMP/nz-gcc.o" ]; then
    und=$(nm -u "$T_TMP/nz-gcc.o" | grep ZSTD_ || true)
    if [ -z "$und" ]; then t_ok "no-zstd object references no ZSTD_ symbol"; else t_fail "no-zstd references" "$und"; fi
  fi
fi
t_done
