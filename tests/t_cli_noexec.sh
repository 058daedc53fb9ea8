#!/usr/bin/env bash
# tests/t_cli_noexec.sh - nothing a file carries runs. A .so built here with cc, whose constructor
# creates a file and which carries a valid store under _assembly_store, is given to every command
# (load with and without a cache, info, list, list --hash, diff, verify, extract, pack and wrap
# inputs, wrap --template, repack, elfcheck, cache) on its own and inside an APK: the file is never
# created (0.6.0's load dlopen'ed it). load reads a .so through the file locator, never through the
# system's loader, unless --dlopen asks (then only one that loading runs nothing from, as a host
# does): glibc's loader faults on fields the inertness check had no reason to read.
# asmstore_elf_check_inert over real files: every generated kind on every ABI, templates over stubs
# built by each ABI's cc, upstream-style stores made by llvm-mc + ld.lld pass; libxamarin-app.so of
# the samples (code, relocations, DT_NEEDED) is refused.
. "$(dirname "$0")/lib/lib.sh"
have() { command -v "$1" >/dev/null 2>&1; }
cd "$T_TMP" || exit 1
CC=${CC:-cc}
if ! have "$CC"; then t_skip "t_cli_noexec" "no C compiler ($CC)"; t_done; exit; fi
case $(uname -m) in
  x86_64) host=x86_64;; aarch64) host=arm64;; i?86) host=x86;; armv7*|armv8l) host=arm;; *) host=;;
esac
if [ -z "$host" ]; then t_skip "t_cli_noexec" "no Android ABI for $(uname -m)"; t_done; exit; fi

t_pe A.dll 23893
"$ASMSTORE" pack --raw --target net11 --abi "$host" -o host.store A.dll 2>/dev/null

# the hostile .so: a constructor that creates $T_TMP/PWNED, and the store as _assembly_store
{
  echo '#include <stdio.h>'
  echo '__attribute__((constructor)) static void pwn(void) { FILE *f = fopen(PWNED, "w"); if (f) fclose(f); }'
  echo '__attribute__((visibility("default"), aligned(16))) const unsigned char _assembly_store[] = {'
  od -An -v -tu1 host.store | tr -s ' \n' ',,' | sed 's/^,//; s/,$//'
  echo '};'
} >hostile.c
if ! $CC -shared -fPIC -O1 -DPWNED="\"$T_TMP/PWNED\"" -o hostile.so hostile.c 2>cc.err; then
  t_fail "build the hostile .so" "$(head -3 cc.err)"; t_done; exit
fi
# the control: dlopen'ing it does create the file (else the assertions below prove nothing)
cat >dl.c <<'EOF'
#include <dlfcn.h>
int main(int argc, char **argv) { return argc > 1 && dlopen(argv[1], RTLD_NOW) ? 0 : 1; }
EOF
$CC -o dl dl.c -ldl 2>/dev/null && ./dl "$T_TMP/hostile.so" && [ -f PWNED ]
t_check "control: dlopen of the hostile .so runs its constructor" test $? = 0
rm -f PWNED

case $host in arm64) abidir=arm64-v8a;; arm) abidir=armeabi-v7a;; *) abidir=$host;; esac
mkdir -p "lib/$abidir"
cp hostile.so "lib/$abidir/libassembly-store.so"
if have zip; then zip -q -0 hostile.apk "lib/$abidir/libassembly-store.so"; fi

# every command, each with the hostile file as its input (and as the APK's store where that applies)
run_all() { # INPUT
  local in=$1
  "$ASMSTORE" load "$in" --all
  "$ASMSTORE" load --cache cache "$in" --all
  "$ASMSTORE" load --abi "$host" "$in" A.dll
  "$ASMSTORE" load --dlopen "$in" --all
  "$ASMSTORE" info "$in"
  "$ASMSTORE" info --json "$in"
  "$ASMSTORE" list "$in"
  "$ASMSTORE" list --hash --json "$in"
  "$ASMSTORE" diff "$in" "$in"
  "$ASMSTORE" diff --json "$in" host.store
  "$ASMSTORE" verify "$in"
  "$ASMSTORE" extract "$in" -C "out-$(basename "$in")"
  "$ASMSTORE" repack "$in" -o "repacked-$(basename "$in")"
  "$ASMSTORE" elfcheck "$in"
  "$ASMSTORE" pack -o "packed-$(basename "$in").xaba" --raw "$in"
  "$ASMSTORE" wrap --abi "$host" -o "wrapped-$(basename "$in")" "$in"
  "$ASMSTORE" wrap --abi "$host" --template "$in" -o "templated-$(basename "$in")" host.store
  "$ASMSTORE" pack -o "packtpl-$(basename "$in")" --template "$in" --abi "$host" A.dll
  "$ASMSTORE" cache stats cache
  "$ASMSTORE" cache prune cache --max-bytes 1
}
run_all "$T_TMP/hostile.so" >all.out 2>&1
if [ ! -f PWNED ] && grep -q '^A.dll 23893 ' all.out &&
   grep -q "hostile.so: read from the file, not dlopen'ed: loading this ELF file would run code" all.out; then
  t_ok "the hostile .so given to every command: its constructor never runs; load reads it from the file, saying why"
else t_fail "hostile .so" "$([ -f PWNED ] && echo 'PWNED created; ')$(head -5 all.out)"; fi
rm -f PWNED
if [ -f hostile.apk ]; then
  run_all "$T_TMP/hostile.apk" >apk.out 2>&1
  if [ ! -f PWNED ] && grep -q '^A.dll 23893 ' apk.out; then t_ok "the same .so inside an APK, to every command: never run"
  else t_fail "hostile APK" "$([ -f PWNED ] && echo 'PWNED created; ')$(head -5 apk.out)"; fi
else t_skip "hostile APK" "zip not installed"; fi

# a .so that loading runs nothing from (asmstore wrap's) is dlopen'ed only with --dlopen
"$ASMSTORE" wrap --abi "$host" --mode dlopen -o inert.so host.store
LD_DEBUG=files "$ASMSTORE" load inert.so --all >inert.out 2>inert.err
LD_DEBUG=files "$ASMSTORE" load --dlopen inert.so --all >inert-dl.out 2>inert-dl.err
if ! grep -q 'file=' inert.err; then t_skip "load --dlopen dlopens an inert .so" "the loader has no LD_DEBUG=files (not glibc)"
elif ! grep -q 'dynamically loaded by' inert.err && grep -q '^A.dll 23893 ' inert.out &&
     grep -q 'dynamically loaded by' inert-dl.err && grep -q '^A.dll 23893 ' inert-dl.out && ! grep -q "not dlopen'ed" inert-dl.err; then
  t_ok "load reads an inert .so through the file locator; load --dlopen dlopens it"
else t_fail "load of an inert .so" "$(grep -hv '^ *[0-9]*:' inert.err inert-dl.err | head -3)"; fi

# fields the loader faults on: a PT_PHDR whose p_vaddr lies outside every segment, a PT_LOAD
# without PF_R (glibc maps it PROT_NONE and reads its dynamic table). load reads each from the file
# (0.6's dlopen'ed it and died of SIGSEGV), --dlopen refuses it by name, elfcheck breaks a rule.
python3 - inert.so <<'EOF'
import struct, sys
f = bytearray(open(sys.argv[1], "rb").read())
b64 = f[4] == 2
phoff = struct.unpack_from("<Q" if b64 else "<I", f, 32 if b64 else 28)[0]
phsz, phnum = struct.unpack_from("<HH", f, 54 if b64 else 42)
def phdr_at(kind):
    return next(phoff + i * phsz for i in range(phnum) if struct.unpack_from("<I", f, phoff + i * phsz)[0] == kind)
def mutant(name, at, fmt, value):
    g = bytearray(f); struct.pack_into(fmt, g, at, value); open(name, "wb").write(g)
mutant("phdr-out.so", phdr_at(6) + (16 if b64 else 8), "<Q" if b64 else "<I", 0x10000000)
mutant("load-noread.so", phdr_at(1) + (4 if b64 else 24), "<I", 0)
EOF
for m in phdr-out:'PT_PHDR does not map the program headers':'rule 6' load-noread:'PT_LOAD without PF_R':'rule 7'; do
  IFS=: read -r so why rule <<<"$m"
  timeout 60 "$ASMSTORE" load "$so.so" --all >m.out 2>m.err; rc=$?
  timeout 60 "$ASMSTORE" load --dlopen "$so.so" --all >md.out 2>md.err; rcd=$?
  "$ASMSTORE" elfcheck "$so.so" >me.out 2>&1; rce=$?
  if [ $rc = 0 ] && grep -q '^A.dll 23893 ' m.out && [ $rcd = 0 ] && grep -q '^A.dll 23893 ' md.out &&
     grep -q "$so.so: read from the file, not dlopen'ed: .*$why" md.err && [ $rce = 1 ] && grep -q "$rule" me.out; then
    t_ok "$so.so: load reads it from the file, --dlopen refuses it ($why), elfcheck: $rule"
  else t_fail "$so.so" "load $rc, --dlopen $rcd, elfcheck $rce: $(cat m.err md.err me.out | head -4)"; fi
done
{ ./dl "$T_TMP/phdr-out.so"; rc1=$?; } 2>/dev/null
{ ./dl "$T_TMP/load-noread.so"; rc2=$?; } 2>/dev/null
if [ $rc1 -ge 128 ] && [ $rc2 -ge 128 ]; then t_ok "control: this system's loader dies on both ($rc1, $rc2)"
else t_skip "control: the loader dies on both" "this loader's exits: $rc1, $rc2"; fi

# the library check over real files
cat >inert_check.c <<'EOF'
#define ASMSTORE_IMPLEMENTATION
#define ASMSTORE_NO_DLOPEN
#include "asmstore.h"
/* inert_check FILE...: one line per file, "FILE: ok" or "FILE: refused: why"; exit 1 if any was. */
int main(int argc, char **argv) {
    int i, refused = 0;
    for (i = 1; i < argc; i++) {
        void *data = NULL;
        size_t size = 0;
        asmstore_error err;
        asmstore_result res = asmstore_read_file(argv[i], NULL, &data, &size, NULL);
        if (res == ASMSTORE_OK) res = asmstore_elf_check_inert(data, size, &err);
        printf("%s: %s%s\n", argv[i], res == ASMSTORE_OK ? "ok" : "refused: ",
               res == ASMSTORE_OK ? "" : res == ASMSTORE_ERR_ELF_NOT_INERT ? err.message : asmstore_result_string(res));
        refused |= res != ASMSTORE_OK;
        free(data);
    }
    return refused;
}
EOF
if ! $CC -std=c99 -O1 -D_GNU_SOURCE -DASMSTORE_NO_ZSTD -I"$TOP" -o inert_check inert_check.c 2>cc.err; then
  t_fail "build inert_check" "$(head -3 cc.err)"; t_done; exit
fi
./inert_check hostile.so >ic.out
t_check "asmstore_elf_check_inert refuses the hostile .so" grep -q 'hostile.so: refused: an executable segment' ic.out

cc_of() { case $1 in arm64) echo aarch64-linux-gnu-gcc;; arm) echo arm-linux-gnueabihf-gcc;; x86) echo i686-linux-gnu-gcc;; x86_64) echo x86_64-linux-gnu-gcc;; esac; }
echo '__attribute__((visibility("default"))) _Bool dotnet_for_android_data_payload = 1;' >stub.c
files=""
for abi in arm64 arm x86_64 x86; do
  "$ASMSTORE" pack --raw --no-compress --runtime monovm --format 4 --abi $abi -o raw-$abi A.dll 2>/dev/null
  "$ASMSTORE" wrap --abi $abi --mode dlopen -o dlopen-$abi.so raw-$abi
  "$ASMSTORE" wrap --abi $abi --mode section -o section-$abi.so raw-$abi
  files="$files dlopen-$abi.so section-$abi.so"
  cc=$(cc_of $abi); [ $abi = "$host" ] && cc=$CC
  if have "$cc"; then
    # the stub as upstream links it (-nostdlib, stripped), with sysv and with both hash styles
    for h in sysv both; do
      $cc -shared -nostdlib -fPIC -O2 -s -Wl,-z,max-page-size=16384 -Wl,--hash-style=$h \
        -Wl,-soname,libassembly-store.so -o stub-$h-$abi.so stub.c 2>/dev/null &&
      "$ASMSTORE" wrap --abi $abi --template stub-$h-$abi.so -o template-$h-$abi.so raw-$abi &&
      files="$files stub-$h-$abi.so template-$h-$abi.so"
    done
  else t_skip "$abi: stubs and templates" "$cc not installed"; fi
done
# upstream's dlopen-kind store (DlopenAssemblyStoreGenerator.cs): llvm-mc + ld.lld
if have llvm-mc && have ld.lld; then
  for spec in arm64:aarch64-linux-android:aarch64linux:16384 arm:armv7-linux-androideabi:armelf_linux_eabi:4096 \
              x86_64:x86_64-linux-android:elf_x86_64:16384 x86:i686-linux-android:elf_i386:4096; do
    IFS=: read -r abi triple emu page <<<"$spec"
    printf '\t.section payload, "a"\n\t.balign %s\n\t.globl _assembly_store\n_assembly_store:\n\t.incbin "raw-%s"\n' \
      "$page" $abi >up-$abi.s
    llvm-mc --filetype=obj -triple=$triple -o up-$abi.o up-$abi.s 2>/dev/null &&
    ld.lld --shared -soname libassembly-store.so -m $emu -z max-page-size=$page --build-id=sha1 \
      --export-dynamic-symbol=_assembly_store -o up-$abi.so up-$abi.o 2>/dev/null &&
    files="$files up-$abi.so"
  done
else t_skip "upstream-style stores" "llvm-mc or ld.lld not installed"; fi
# shellcheck disable=SC2086
if ./inert_check $files >ic.out; then t_ok "asmstore_elf_check_inert passes every generated kind, template, stub ($(wc -l <ic.out) files)"
else t_fail "inert check over generated files" "$(grep refused ic.out | head -3)"; fi

n=0
for f in "$SAMPLES"/*/libxamarin-app.so "$SAMPLES"/*/*/libxamarin-app.so; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  ./inert_check "$f" >>xa.out
done
if [ $n = 0 ]; then t_skip "libxamarin-app.so refused" "no samples in $SAMPLES"
elif [ "$(grep -c ': refused: ' xa.out)" = $n ]; then t_ok "asmstore_elf_check_inert refuses every sample libxamarin-app.so ($n)"
else t_fail "libxamarin-app.so" "$(grep -v refused xa.out | head -3)"; fi
t_done
