#!/usr/bin/env bash
# Generated .so files against real loaders and tools: a Mono 4.5 subset packed per ABI, wrapped in
# dlopen, section and template (stub built with the ABI's cc -shared -nostdlib) kinds, then
#   readelf -hlSdW --dyn-syms (no warnings), eu-elflint --gnu-ld (no errors), asmstore elfcheck
#   (bionic rules), glibc dlopen + every entry read back byte-exact: x86_64 natively, arm64/armhf/i386
#   under qemu-user (arm64 also with 16 and 64 KiB pages);
# and APKs built by zip + zipalign: two ABIs, ZIP64 (zip -fz), archive comment (zip -z, plus a fake
# EOCD in it), a compressed entry (refused), unaligned, split APKs, truncated and garbled archives.
. "$(dirname "$0")/lib/lib.sh"
have() { command -v "$1" >/dev/null 2>&1; }

# the whole C suite (generation, parsers, validator, ZIP, file/APK locators) on big-endian s390x and
# on armhf, cross-built static (no zstd, no dlopen: stored stores only) and run under qemu-user
for spec in s390x-linux-gnu:qemu-s390x arm-linux-gnueabihf:qemu-arm; do
  cc=${spec%%:*}-gcc; q=${spec##*:}
  if ! have "$cc" || ! have "$q"; then t_skip "test_elf, test_locator on ${spec%%:*}" "needs $cc and $q"; continue; fi
  for t in test_elf test_locator; do
    if $cc -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Wstrict-prototypes -Werror \
         -O1 -D_GNU_SOURCE -DASMSTORE_NO_ZSTD -DASMSTORE_NO_THREADS -DASMSTORE_NO_LOCATOR -static \
         -o "$T_TMP/$t-$q" "$TOP/tests/$t.c" 2>"$T_TMP/err"; then
      if $q "$T_TMP/$t-$q" >"$T_TMP/out" 2>&1 && grep -qE "^[1-9][0-9]* passed, 0 failed" "$T_TMP/out"; then t_ok "$t suite on ${spec%%:*} (qemu)"
      else t_fail "$t on ${spec%%:*}" "$(grep -v '^ok' "$T_TMP/out" | tail -5)"; fi
    else t_fail "build $t for ${spec%%:*}" "$(head -3 "$T_TMP/err")"; fi
  done
done

if [ ! -d "$MONO45" ]; then t_skip "t_elf" "no $MONO45 (mono-devel)"; t_done; exit; fi
src="$T_TMP/src"; mkdir -p "$src"
# the whole Mono 4.5 framework + Facades (270 assemblies): every ABI and mode carries all of it
for f in "$MONO45"/*.dll "$MONO45"/Facades/*.dll; do cp -L "$f" "$src/"; done
nsrc=$(ls "$src" | wc -l)

# ABI -> cross compiler, qemu command prefix
cc_of() { case $1 in arm64) echo aarch64-linux-gnu-gcc;; arm) echo arm-linux-gnueabihf-gcc;; x86) echo i686-linux-gnu-gcc;; x86_64) echo "${CC:-cc}";; esac; }
run_of() {
  case $1 in
    arm64) echo "qemu-aarch64 $2 -L /usr/aarch64-linux-gnu";;
    arm) echo "qemu-arm -L /usr/arm-linux-gnueabihf";;
    x86) echo "qemu-i386 -L /usr/i686-linux-gnu";;
    x86_64) echo "";;
  esac
}
qemu_of() { case $1 in arm64) echo qemu-aarch64;; arm) echo qemu-arm;; x86) echo qemu-i386;; *) echo true;; esac; }

# readelf / eu-elflint / elfcheck over one file
inspect() { # NAME FILE ABI [SYMBOL]
  local name=$1 f=$2 abi=$3
  if have readelf; then
    if readelf -hlSdW --dyn-syms "$f" >"$T_TMP/re" 2>&1 && ! grep -qi "warning\|error" "$T_TMP/re"; then t_ok "$name: readelf clean"
    else t_fail "$name: readelf" "$(grep -i "warning\|error" "$T_TMP/re" | head -3)"; fi
  fi
  if have eu-elflint; then
    if eu-elflint --gnu-ld "$f" >"$T_TMP/el" 2>&1 && grep -q "^No errors" "$T_TMP/el"; then t_ok "$name: eu-elflint --gnu-ld: no errors"
    else t_fail "$name: eu-elflint" "$(head -5 "$T_TMP/el")"; fi
  fi
  if "$ASMSTORE" elfcheck --abi "$abi" ${4:+--symbol "$4"} "$f" >"$T_TMP/ec" 2>&1; then t_ok "$name: bionic rules (elfcheck)"
  else t_fail "$name: elfcheck" "$(cat "$T_TMP/ec")"; fi
}

have readelf || t_skip "readelf checks" "binutils not installed"
have eu-elflint || t_skip "eu-elflint checks" "elfutils not installed"

for abi in arm64 arm x86_64 x86; do
  raw="$T_TMP/$abi.store"
  if ! "$ASMSTORE" pack --raw --no-compress --runtime monovm --format 4 --abi "$abi" -o "$raw" "$src" 2>"$T_TMP/err"; then t_fail "pack $abi" "$(cat "$T_TMP/err")"; continue; fi
  "$ASMSTORE" wrap --abi "$abi" --mode dlopen -o "$T_TMP/dlopen-$abi.so" "$raw" &&
  "$ASMSTORE" wrap --abi "$abi" --mode section -o "$T_TMP/section-$abi.so" "$raw"
  t_check "$abi: wrap dlopen + section" test $? = 0
  # pack's .so is the preset's kind (monovm: the stub layout), or --wrap's: byte-identical to pack --raw + wrap
  "$ASMSTORE" pack --no-compress --runtime monovm --format 4 --abi "$abi" -o "$T_TMP/pack-$abi.so" "$src" 2>/dev/null
  t_check "$abi: pack (monovm preset: section .so) == pack --raw + wrap --mode section" cmp "$T_TMP/pack-$abi.so" "$T_TMP/section-$abi.so"
  "$ASMSTORE" pack --no-compress --runtime monovm --format 4 --wrap dlopen --abi "$abi" -o "$T_TMP/pack-$abi.so" "$src" 2>/dev/null
  t_check "$abi: pack --wrap dlopen == pack --raw + wrap --mode dlopen" cmp "$T_TMP/pack-$abi.so" "$T_TMP/dlopen-$abi.so"
  # MonoVM legacy expectations: payload at 0x4000 and the last section header
  last=$(readelf -SW "$T_TMP/section-$abi.so" 2>/dev/null | grep -E '^ +\[ *[0-9]+\]' | tail -1)
  if grep -q " payload " <<<"$last" && [ "$(awk '{for(i=1;i<=NF;i++) if($i=="PROGBITS"){print $(i+2); exit}}' <<<"$last")" = 004000 ]; then
    t_ok "$abi: section kind: payload is the last section, at offset 0x4000"
  else t_fail "$abi: section kind layout" "$last"; fi
  # template: stub built by the ABI's compiler
  cc=$(cc_of $abi)
  tpl=""
  if have "$cc"; then
    echo '__attribute__((visibility("default"))) _Bool dotnet_for_android_data_payload = 1;' >"$T_TMP/stub.c"
    # arm64 runs under 64 KiB pages too: its stub's two PT_LOADs must not share a 64 KiB page (glibc >= 2.36)
    mps=16384; [ $abi = arm64 ] && mps=65536
    if $cc -shared -nostdlib -fPIC -O2 -s -Wl,-z,max-page-size=$mps -Wl,-z,norelro -Wl,--build-id=none \
         -Wl,--hash-style=sysv -Wl,-soname,libassembly-store.so -o "$T_TMP/stub-$abi.so" "$T_TMP/stub.c" 2>"$T_TMP/err"; then
      "$ASMSTORE" wrap --abi "$abi" --template "$T_TMP/stub-$abi.so" -o "$T_TMP/template-$abi.so" "$raw"
      t_check "$abi: wrap --template stub" test $? = 0
      tpl="$T_TMP/template-$abi.so"
      ssz=$(stat -c %s "$T_TMP/stub-$abi.so")
      last=$(readelf -SW "$tpl" 2>/dev/null | grep -E '^ +\[ *[0-9]+\]' | tail -1)
      off=$(awk '{for(i=1;i<=NF;i++) if($i=="PROGBITS"){print $(i+2); exit}}' <<<"$last")
      if grep -q " payload " <<<"$last" && [ $((16#$off % 16384)) = 0 ] && [ $((16#$off)) -ge "$ssz" ] &&
         cmp -s -n 32 "$T_TMP/stub-$abi.so" "$tpl"; then
        t_ok "$abi: template: payload is the last section, 16 KiB-aligned after the stub's bytes"
      else t_fail "$abi: template layout" "$last (stub $ssz bytes)"; fi
    else t_fail "$abi: build stub with $cc" "$(head -3 "$T_TMP/err")"; fi
  else t_skip "$abi: template" "$cc not installed"; fi

  inspect "$abi dlopen" "$T_TMP/dlopen-$abi.so" $abi
  inspect "$abi section" "$T_TMP/section-$abi.so" $abi
  [ -n "$tpl" ] && inspect "$abi template" "$tpl" $abi

  # glibc dlopen, payload byte-compare, every entry byte-exact against the source DLLs
  host="$BUILD/elf-host-$abi"
  q=$(qemu_of $abi)
  if [ ! -x "$host" ]; then t_skip "$abi: dlopen" "$host not built ($cc missing?)"; continue; fi
  if ! have "$q"; then t_skip "$abi: dlopen" "$q not installed (qemu-user)"; continue; fi
  pages="default"; [ $abi = arm64 ] && pages="default 16384 65536"
  for p in $pages; do
    popt=""; [ "$p" != default ] && popt="-p $p"
    run=$(run_of $abi "$popt")
    for kind in dlopen section template; do
      f="$T_TMP/$kind-$abi.so"; [ -f "$f" ] || continue
      args="$kind $f $raw $src"; [ $kind = template ] && args="$args dotnet_for_android_data_payload"
      if $run "$host" $args >"$T_TMP/h" 2>&1 && grep -q "^$nsrc entries read back byte-exact" "$T_TMP/h"; then
        t_ok "$abi ${p/default/native} pages: glibc dlopen $kind kind, $nsrc entries byte-exact"
      else t_fail "$abi $p: dlopen $kind" "$(tail -3 "$T_TMP/h")"; fi
    done
  done
done

# ---- APKs built by zip + zipalign ----
if ! have zip || ! have python3; then t_skip "APK tests" "zip or python3 not installed"; t_done; exit; fi
# data offset of NAME computed by Python's zipfile (independent of our scanner)
pyoff() { python3 - "$1" "$2" <<'EOF'
import sys, zipfile, struct
z = zipfile.ZipFile(sys.argv[1]); i = z.getinfo(sys.argv[2])
f = open(sys.argv[1], 'rb'); f.seek(i.header_offset); h = f.read(30)
n, m = struct.unpack('<HH', h[26:30]); print(i.header_offset + 30 + n + m)
EOF
}
apk="$T_TMP/apk"; mkdir -p "$apk/lib/arm64-v8a" "$apk/lib/x86_64"
cp "$T_TMP/dlopen-arm64.so" "$apk/lib/arm64-v8a/libassembly-store.so"
cp "$T_TMP/section-x86_64.so" "$apk/lib/x86_64/libassembly-store.so"
echo '<manifest package="x"/>' >"$apk/AndroidManifest.xml"
for i in $(seq 1 300); do echo "classes line $i"; done >"$apk/classes.dex"
(cd "$apk" && zip -q -0 -r "$T_TMP/stored.zip" AndroidManifest.xml lib && zip -q "$T_TMP/stored.zip" classes.dex)
if have zipalign; then
  zipalign -f 16384 "$T_TMP/stored.zip" "$T_TMP/app.apk" && zipalign -c 16384 "$T_TMP/app.apk" >/dev/null
  t_check "zipalign -f 16384 builds and checks the APK" test $? = 0
  "$ASMSTORE" info --json "$T_TMP/app.apk" >"$T_TMP/info" 2>"$T_TMP/err"
  want=$(pyoff "$T_TMP/app.apk" lib/arm64-v8a/libassembly-store.so)
  if python3 - "$T_TMP/info" "$want" <<'EOF' && [ $((want % 16384)) = 0 ]; then
import json, sys
ss = {s["abi"]: s for s in json.load(open(sys.argv[1]))["stores"]}
a, x = ss["arm64-v8a"], ss["x86_64"]
assert a["archive_entry"]["offset"] == int(sys.argv[2]) and a["archive_entry"]["from_split"] is False, a
assert a["wrapper"] == "elf-dlopen" and x["wrapper"] == "elf-section", (a, x)
EOF
    t_ok "info on the APK: both ABIs, entry offset $want equals Python zipfile's"
  else t_fail "info app.apk" "want $want: $(cat "$T_TMP/info" "$T_TMP/err")"; fi
  "$ASMSTORE" list "$T_TMP/app.apk" >"$T_TMP/list" 2>&1
  if [ "$(grep -c '^# lib/' "$T_TMP/list")" = 2 ] && [ "$(grep -c '\.dll' "$T_TMP/list")" = $((2 * nsrc)) ]; then t_ok "list on the APK: every entry of both ABI stores"
  else t_fail "list app.apk" "$(head -5 "$T_TMP/list")"; fi
  "$ASMSTORE" elfcheck "$T_TMP/app.apk" >"$T_TMP/ec" 2>&1
  t_check "elfcheck on the APK: both entries pass the bionic rules incl. rule 12" test $? = 0 -a "$(grep -c ': ok$' "$T_TMP/ec")" = 2
  rm -rf "$T_TMP/x"
  if "$ASMSTORE" extract "$T_TMP/app.apk" -C "$T_TMP/x" 2>"$T_TMP/err"; then
    bad=0; for f in "$src"/*.dll; do for d in arm64-v8a x86_64; do cmp -s "$f" "$T_TMP/x/$d/$(basename "$f")" || bad=1; done; done
    t_check "extract from the APK: both ABIs' stores, each under DIR/<abi>/, byte-identical" test $bad = 0
  else t_fail "extract app.apk" "$(cat "$T_TMP/err")"; fi
  "$ASMSTORE" verify "$T_TMP/app.apk" >/dev/null 2>&1; t_check "verify on the APK" test $? = 0
  # archive comment via zip -z, then a fake EOCD signature appended inside the comment
  cp "$T_TMP/app.apk" "$T_TMP/comment.apk"
  echo "built by t_elf.sh PK" | zip -q -z "$T_TMP/comment.apk"
  python3 - "$T_TMP/comment.apk" <<'EOF'
import sys, struct
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
e = b.rindex(b'PK\x05\x06'); clen = struct.unpack('<H', b[e+20:e+22])[0]
fake = b'PK\x05\x06' + b'\0' * 8 + struct.pack('<II', 7, 3) + struct.pack('<H', 0)
b += fake; b[e+20:e+22] = struct.pack('<H', clen + len(fake))
open(p, 'wb').write(b)
EOF
  "$ASMSTORE" verify "$T_TMP/comment.apk" >/dev/null 2>"$T_TMP/err"
  t_check "APK with an archive comment (zip -z) holding a fake EOCD opens" test $? = 0
  # split APKs: base.apk without native libs, split_config.arm64_v8a.apk with the store
  mkdir -p "$T_TMP/split/a/lib/arm64-v8a"
  cp "$T_TMP/dlopen-arm64.so" "$T_TMP/split/a/lib/arm64-v8a/libassembly-store.so"
  (cd "$apk" && zip -q -0 "$T_TMP/split/base0.apk" AndroidManifest.xml classes.dex)
  (cd "$T_TMP/split/a" && zip -q -0 -r "$T_TMP/split/s0.apk" lib)
  zipalign -f 16384 "$T_TMP/split/base0.apk" "$T_TMP/split/base.apk"
  zipalign -f 16384 "$T_TMP/split/s0.apk" "$T_TMP/split/split_config.arm64_v8a.apk"
  "$ASMSTORE" info --json "$T_TMP/split/base.apk" >"$T_TMP/info" 2>"$T_TMP/err"
  if grep -q '"from_split": true' "$T_TMP/info"; then t_ok "base.apk: the store comes from split_config.arm64_v8a.apk"
  else t_fail "split APK" "$(cat "$T_TMP/info" "$T_TMP/err")"; fi
else
  t_skip "zipalign tests" "zipalign not installed"
fi

# asmstore_locate_file opens each file once and maps it once (an APK: that one mapping, trimmed to the
# entry's pages), counted with strace: openat of the path, then mmap of that descriptor until its close
host="$BUILD/elf-host-x86_64"
if have strace && [ -x "$host" ] && [ -f "$T_TMP/app.apk" ]; then
  cp "$T_TMP/x86_64.store" "$T_TMP/loc.store" # the harness reads RAW itself: locate a copy
  for spec in loc.store:x86_64.store dlopen-x86_64.so:x86_64.store app.apk:arm64.store; do
    f="$T_TMP/${spec%%:*}"
    strace -o "$T_TMP/st" -e trace=openat,open,mmap,close "$host" locate "$f" "$T_TMP/${spec##*:}" >"$T_TMP/h" 2>&1; rc=$?
    counts=$(awk -v f="\"$f\"" '
      index($0, f) && /^open/ { opens++; split($0, a, "= "); fd = a[2] + 0; live = 1; next }
      live && /^mmap\(/ && index($0, ", " fd ", ") { maps++ }
      live && index($0, "close(" fd ")") == 1 { live = 0 }
      END { print opens + 0, maps + 0 }' "$T_TMP/st")
    if [ $rc = 0 ] && [ "$counts" = "1 1" ]; then t_ok "locate_file ${spec%%:*}: opened once, mapped once (strace), payload found"
    else t_fail "locate_file ${spec%%:*}: opens, maps = $counts (want 1 1)" "$(tail -2 "$T_TMP/h")"; fi
  done
else
  t_skip "locate_file open/map counts" "needs strace, $host and zipalign"
fi
# unaligned (no zipalign): refused by the alignment rules, never silently used
"$ASMSTORE" elfcheck "$T_TMP/stored.zip" >"$T_TMP/ec" 2>&1; rc=$?
want=$(pyoff "$T_TMP/stored.zip" lib/arm64-v8a/libassembly-store.so)
if [ $rc = 1 ] && grep -qE "rule 12|not aligned" "$T_TMP/ec"; then t_ok "unaligned APK (data at $want) fails rule 12 / alignment"
else t_fail "unaligned APK" "rc=$rc $(cat "$T_TMP/ec")"; fi
# ZIP64 (zip -fz): the entry offset we report equals Python's (reported whether or not it is 16-aligned)
(cd "$apk" && zip -q -0 -fz -r "$T_TMP/z64.zip" lib)
if python3 -c "import sys; b=open(sys.argv[1],'rb').read(); sys.exit(0 if b'PK\x06\x06' in b[-200:] else 1)" "$T_TMP/z64.zip"; then
  want=$(pyoff "$T_TMP/z64.zip" lib/arm64-v8a/libassembly-store.so)
  "$ASMSTORE" info --json "$T_TMP/z64.zip" >"$T_TMP/info" 2>"$T_TMP/err"; rc=$?
  if { [ $rc = 0 ] && grep -q "\"archive_entry\": {\"offset\": $want," "$T_TMP/info"; } ||
     { [ $rc = 1 ] && grep -q "not aligned.*offset $want " "$T_TMP/err"; }; then
    t_ok "ZIP64 archive (zip -fz): entry found at offset $want (as Python zipfile says)"
  else t_fail "zip64" "rc=$rc want=$want $(cat "$T_TMP/info" "$T_TMP/err")"; fi
else t_fail "zip -fz wrote no ZIP64 end record"; fi
# a DEFLATEd store entry (a Release APK with extractNativeLibs=true): the CLI inflates it, the
# on-device locator refuses it with its own result
(cd "$apk" && zip -q -r "$T_TMP/deflated.zip" lib)
"$ASMSTORE" info "$T_TMP/deflated.zip" >"$T_TMP/out" 2>"$T_TMP/err"; rc=$?
if [ $rc = 0 ] && grep -q "DEFLATEd (inflated to read it)" "$T_TMP/out"; then t_ok "DEFLATEd libassembly-store.so entry is inflated by the CLI"
else t_fail "deflated entry" "rc=$rc $(cat "$T_TMP/err")"; fi
# elfcheck opens the APK as the device does (asmstore_locate_apk); load reads what info reads
"$ASMSTORE" elfcheck "$T_TMP/deflated.zip" >"$T_TMP/out" 2>&1; rc=$?
"$ASMSTORE" load "$T_TMP/deflated.zip" --all >/dev/null 2>"$T_TMP/err"; rc2=$?
if [ $rc = 1 ] && grep -q "compressed" "$T_TMP/out" && [ $rc2 = 0 ]; then
  t_ok "the mmap locator (elfcheck) refuses the DEFLATEd entry: archive entry is compressed; load inflates it as info does"
else t_fail "deflated entry via the locator" "rc=$rc/$rc2 $(cat "$T_TMP/out" "$T_TMP/err")"; fi
# truncated and garbled archives: a result code, never a crash
base="$T_TMP/app.apk"; [ -f "$base" ] || base="$T_TMP/stored.zip"
sz=$(stat -c %s "$base"); bad=""
for n in 0 1 21 22 100 $((sz / 2)) $((sz - 23)) $((sz - 22)) $((sz - 1)); do
  head -c "$n" "$base" >"$T_TMP/t.apk"
  "$ASMSTORE" info "$T_TMP/t.apk" >/dev/null 2>&1; rc=$?
  [ $rc = 1 ] || [ $rc = 2 ] || bad="$bad $n:rc=$rc"
done
t_check "truncated APKs give an error exit, no crash${bad:+ ($bad)}" test -z "$bad"
bad=""
for seed in 1 2 3 4 5 6 7 8; do
  python3 - "$base" "$T_TMP/g.apk" $seed <<'EOF'
import sys, random, struct
b = bytearray(open(sys.argv[1], 'rb').read()); r = random.Random(int(sys.argv[3]))
e = b.rindex(b'PK\x05\x06'); cd = struct.unpack('<I', b[e+16:e+20])[0]
lo = [cd, e, cd + 46, 0][int(sys.argv[3]) % 4]
for _ in range(16): b[min(len(b) - 1, lo + r.randrange(64))] = r.randrange(256)
open(sys.argv[2], 'wb').write(b)
EOF
  "$ASMSTORE" verify "$T_TMP/g.apk" >/dev/null 2>&1; rc=$?
  [ $rc -lt 128 ] || bad="$bad seed$seed:rc=$rc"
done
t_check "garbled APKs (central directory, EOCD, local header) never crash${bad:+ ($bad)}" test -z "$bad"
# upstream's own recipe (docs/store-format.md §6.2): llvm-mc + ld.lld around a raw store (.incbin).
# We did not write these files: the finder, elfcheck, verify and (x86_64) dlopen must all take them.
if have llvm-mc && have ld.lld; then
  for spec in x86_64:x86_64-linux-android:elf_x86_64:16384 arm64:aarch64-linux-android:aarch64linux:16384 \
              arm:armv7-linux-androideabi:armelf_linux_eabi:4096 x86:i686-linux-android:elf_i386:4096; do
    IFS=: read -r abi triple emul page <<<"$spec"
    "$ASMSTORE" pack --raw --target net11-preview --runtime monovm --abi "$abi" -o "$T_TMP/up-$abi.store" "$src" 2>/dev/null
    printf '\t.section payload, "a"\n\t.balign %s\n\t.globl _assembly_store\n_assembly_store:\n\t.incbin "%s"\n' \
      "$page" "$T_TMP/up-$abi.store" >"$T_TMP/up.s"
    if llvm-mc --filetype=obj -triple="$triple" -o "$T_TMP/up.o" "$T_TMP/up.s" 2>"$T_TMP/err" &&
       ld.lld --shared -soname libassembly-store.so -m "$emul" -z max-page-size="$page" --build-id=sha1 \
         --export-dynamic-symbol=_assembly_store -o "$T_TMP/up-$abi.so" "$T_TMP/up.o" 2>>"$T_TMP/err"; then
      if "$ASMSTORE" verify "$T_TMP/up-$abi.so" >/dev/null 2>&1 && "$ASMSTORE" info "$T_TMP/up-$abi.so" | grep -q "elf-dlopen"; then
        t_ok "$abi: upstream llvm-mc + ld.lld wrapper (NOTYPE, size 0): found and verified, $nsrc entries"
      else t_fail "$abi: upstream lld wrapper" "$("$ASMSTORE" verify "$T_TMP/up-$abi.so" 2>&1 | tail -2)"; fi
      # lld adds PT_GNU_RELRO (for .dynamic, its end not 16 KiB-aligned) and a build-id PT_NOTE: what
      # docs/elf-so.md §4 rule 8 keeps out of our layout. elfcheck must say exactly that, and only that.
      if [ "$page" = 16384 ]; then
        "$ASMSTORE" elfcheck --abi "$abi" "$T_TMP/up-$abi.so" >"$T_TMP/ec" 2>&1
        t_check "$abi: elfcheck on the upstream lld wrapper names rule 8 (PT_GNU_RELRO/PT_NOTE), nothing earlier" \
          grep -q "rule 8:" "$T_TMP/ec"
      fi
    else t_fail "$abi: llvm-mc/ld.lld" "$(head -3 "$T_TMP/err")"; fi
  done
  "$ASMSTORE" load --dlopen "$T_TMP/up-x86_64.so" --all >"$T_TMP/load" 2>"$T_TMP/err"
  t_check "x86_64: upstream lld wrapper loads through glibc dlopen + dlsym with --dlopen (size 0: extent from its PT_LOAD)" \
    test "$(wc -l <"$T_TMP/load")" = "$nsrc"
else
  t_skip "upstream lld wrappers" "needs llvm-mc and ld.lld (Debian: llvm, lld)"
fi

t_done
