#!/bin/bash
# tests/t_app_cross.sh - the app library part of asmstore.h on 32-bit libraries it did not
# write: for i686 and armhf, tests/lib/app_lib32.c compiled by the cross gcc and linked by lld with
# the options dotnet/android links libxamarin-app.so with (then stripped as it is), against the
# stand-in bionic libc.so, as .NET 8 and .NET 9
# (compressed_assemblies, per-entry buffers behind R_386_RELATIVE / R_ARM_RELATIVE REL relocations;
# format_tag 1 and 2) and .NET 10+ (compressed_assembly_count/_descriptors,
# uncompressed_assemblies_data_size and _buffer). asmstore_app_open must read what the source
# declared at the addresses nm gives; asmstore_app_grow (app_runtime_check --grow) grows descriptor
# 1 from 70,000 to 200,000 bytes; glibc's dlopen under qemu-user (tests/app_cross_check.c,
# cross-compiled) must then see the grown size over zero-filled, writable memory, the others
# unchanged; readelf and eu-elflint report nothing new against the original. For .NET 9 and 10, an
# APK of a store packed for the release and that library: repack grows the entry, keeps it XALZ,
# and the APK's patched library loads the same way. CoreCLR (-DAPP_CORECLR): asmstore_app_add_slots on
# the 32-bit libraries (read back, loaded under qemu, eu-elflint), and natively on x86_64 an APK
# repacked with --add whose patched library app_runtime_check --coreclr loads and fills.
. "$(dirname "$0")/lib/lib.sh"
CC=${CC:-cc}
W="-std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-align -Werror"
SRC=$TOP/tests/lib/app_lib32.c
CHK=$TOP/tests/app_cross_check.c
printf 'LIBC { global: puts; abort; local: *; };\n' >"$T_TMP/libc.map"

if ! command -v ld.lld >/dev/null; then
    t_skip "32-bit app libraries" "ld.lld absent (Debian: lld)"
    t_done
    exit
fi
if ! $CC $W -D_GNU_SOURCE -o "$T_TMP/chk" "$CHK" -ldl 2>"$T_TMP/cc.log" ||
    ! $CC -std=c99 -D_GNU_SOURCE -o "$T_TMP/grow" "$TOP/tests/app_runtime_check.c" \
        -ldl -llz4 -lzstd 2>>"$T_TMP/cc.log"; then
    t_skip "32-bit app libraries" "the host harnesses do not build: $(head -c 300 "$T_TMP/cc.log")"
    t_done
    exit
fi

# sym LIB NAME [-D]: NAME's value from the symbol table (-D: the dynamic one), as 0x%x
sym() { printf '0x%x' "0x$(nm $3 "$1" | awk -v n="$2" '$3 == n { print $1 }')"; }

# tail_region LIB: where asmstore_app_grow puts new memory: LIB's last PT_LOAD's end, rounded to 16
tail_region() {
    local v m
    read -r v m < <(readelf -lW "$1" | awk '$1 == "LOAD" { v = $3; m = $6 } END { print v, m }')
    printf '0x%x' $(((v + m + 15) & ~15))
}

# expect_open LIB RELEASE ABI SIZE1 [ORIGINAL]: what asmstore_app_open must say, addresses from nm;
# with ORIGINAL (LIB grown from it), the grown memory at the end of ORIGINAL's last PT_LOAD
expect_open() {
    local lib=$1 d b total=$((74234 - 70000 + $4)) at1=3000
    d=$(sym "$1" compressed_assembly_descriptors)
    if [ "$2" = 10 ]; then
        b=$(sym "$lib" uncompressed_assemblies_data_buffer -D)
        if [ -n "$5" ]; then
            total=$((74234 + $4))
            at1=74234
            b=$(tail_region "$5")
        fi
        echo "abi $3, 32-bit, table 2, format_tag 2, 3 descriptors of 12 bytes at $d"
        echo "config: 5 assemblies in the APK, 0 store files, 5 bundled slots"
        echo "buffer: $total bytes at $b"
        printf 'descriptor 0: 3000 bytes at 0x%x\n' $((b))
        printf 'descriptor 1: %u bytes at 0x%x\n' "$4" $((b + at1))
        printf 'descriptor 2: 1234 bytes at 0x%x\n' $((b + 73000))
    else
        b=$(sym "$lib" compressed_assembly_data_1)
        [ -n "$5" ] && b=$(tail_region "$5")
        echo "abi $3, 32-bit, table 1, format_tag $(($2 == 8 ? 1 : 2)), 3 descriptors of 12 bytes" \
            "at $d"
        echo "config: 5 assemblies in the APK, $(($2 == 8 ? 2 : 0)) store files, 5 bundled slots"
        echo "descriptor 0: 3000 bytes at $(sym "$lib" compressed_assembly_data_0)"
        echo "descriptor 1: $4 bytes at $b"
        echo "descriptor 2: 1234 bytes at $(sym "$lib" compressed_assembly_data_2)"
    fi
}

# expect_load RELEASE SIZE1: what the library loaded by glibc must show
expect_load() {
    local n=0 s
    [ "$1" = 10 ] && echo "buffer: $((74234 + ($2 == 70000 ? 0 : $2))) bytes"
    for s in 3000 "$2" 1234; do
        echo "descriptor $((n++)): $s bytes, zero-filled, writable"
    done
}

# tool_diff TOOL A B: TOOL's reports on A and B the same but for hex and long numbers (addresses and
# sizes move, nothing else may)
tool_diff() {
    diff <($1 "$2" 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{5,\}//g') \
        <($1 "$3" 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{5,\}//g')
}

# build_lib XCC DIR RELEASE ABI: DIR/appRELEASE.so, linked against DIR/libc.so with the options
# dotnet/android's NativeLinker passes (4 KiB pages on 32-bit ABIs, -X on arm), and
# DIR/appRELEASE-stripped.so, stripped as the build then does (objcopy --strip-debug
# --strip-unneeded: no .symtab), the library an APK ships; DIR/bfdRELEASE.so linked by GNU ld
# instead (RELRO and .data in one PT_LOAD)
build_lib() {
    local def= emu=elf_i386 x=
    [ "$3" != 8 ] && def=-DAPP_NET$3
    [ "$3" = clr ] && def=-DAPP_CORECLR
    [ "$4" = arm ] && emu=armelf_linux_eabi x=-X
    [ "$4" = x86_64 ] && emu=elf_x86_64
    $1 $W $def -O2 -fPIC -c -o "$2/app$3.o" "$SRC" &&
        ld.lld --shared --gc-sections --export-dynamic -z relro -z noexecstack \
            -z max-page-size=4096 -z now --enable-new-dtags --build-id=sha1 \
            --warn-shared-textrel --fatal-warnings --no-rosegment --no-undefined \
            -soname libxamarin-app.so $x -m $emu \
            -o "$2/app$3.so" "$2/app$3.o" "$2/libc.so" &&
        "${1%gcc}objcopy" --strip-debug --strip-unneeded "$2/app$3.so" "$2/app$3-stripped.so" &&
        $1 $W $def -O2 -shared -fPIC -nostdlib -Wl,-soname,libxamarin-app.so \
            -o "$2/bfd$3.so" "$SRC" "$2/libc.so"
}

# one_release ABI QEMU DIR RELEASE: the checks on one library and its grown copy
one_release() {
    local abi=$1 q=$2 o=$3 rel=$4 lib=$3/app$4.so grown=$3/grown$4.so n tool
    local name="$abi .NET $rel"
    n=$(readelf -rW "$lib" | grep -c "R_[A-Z0-9]*_RELATIVE")
    t_check "$name: asmstore_app_open reads the source's table at nm's addresses ($n RELATIVE)" \
        diff <(expect_open "$lib" "$rel" "$abi" 70000) <("$T_TMP/chk" open "$lib")
    t_check "$name: stripped (no .symtab), it reads the same" \
        diff <("$T_TMP/chk" open "$lib") <("$T_TMP/chk" open "$o/app$rel-stripped.so")
    t_check "$name: glibc's dlopen under ${q%% *} sees the same table over zero-filled buffers" \
        diff <(expect_load "$rel" 70000) <($q "$o/chk" load "$o/libc.so" "$lib")
    t_check "$name: asmstore_app_grow grows descriptor 1 to 200,000 bytes" \
        "$T_TMP/grow" --grow "$lib" 1 200000 "$grown"
    one_decoy "$q" "$o" "$rel" "$name"
    t_check "$name: the grown library keeps its file size" \
        test "$(stat -c %s "$grown")" = "$(stat -c %s "$lib")"
    t_check "$name: asmstore_app_open reads the grown table, its new memory past the last PT_LOAD" \
        diff <(expect_open "$grown" "$rel" "$abi" 200000 "$lib") <("$T_TMP/chk" open "$grown")
    t_check "$name: loaded by glibc under ${q%% *}, descriptor 1 has 200,000 zero-filled bytes" \
        diff <(expect_load "$rel" 200000) <($q "$o/chk" load "$o/libc.so" "$grown")
    for tool in "readelf -lSW --dyn-syms -r" "eu-elflint --gnu-ld"; do
        if ! command -v "${tool%% *}" >/dev/null; then
            t_skip "$name: ${tool%% *}" "not installed"
            continue
        fi
        t_check "$name: ${tool%% *} reports nothing new against the original" \
            tool_diff "$tool" "$lib" "$grown"
    done
}

# zip_apk DIR OUT LIBDIR STORE: an APK of DIR's manifest, LIBDIR/libxamarin-app.so (DEFLATEd) and
# STORE (stored), zipaligned
zip_apk() {
    rm -f "$2.0"
    echo '<manifest/>' >"$1/AndroidManifest.xml"
    (cd "$1" && zip -q -X "$2.0" AndroidManifest.xml "$3/libxamarin-app.so" && zip -q -X -0 "$2.0" "$4") &&
        zipalign -f -p 4 "$2.0" "$2" && rm -f "$2.0"
}

# one_decoy QEMU DIR RELEASE NAME: DIR/appRELEASE.so with its section headers pointed at copies of
# .dynsym, .dynstr and .rel(a).dyn (tests/lib/app_decoy.py), which glibc loads as the original;
# asmstore_app_grow must patch the tables the loader reads (PT_DYNAMIC's), not the copies
one_decoy() {
    local q=$1 o=$2 rel=$3 name="$4 decoy"
    /usr/bin/python3 "$TOP/tests/lib/app_decoy.py" "$o/app$rel.so" "$o/decoy$rel.so"
    t_check "$name: glibc${q:+ under ${q%% *}} loads it as the original" \
        diff <(expect_load "$rel" 70000) <($q "$o/chk" load "$o/libc.so" "$o/decoy$rel.so")
    "$T_TMP/grow" --grow "$o/decoy$rel.so" 1 200000 "$o/decoy-grown$rel.so"
    t_check "$name: grown to 200,000 bytes and loaded, descriptor 1 has them (the loader's symbols and relocations patched)" \
        diff <(expect_load "$rel" 200000) <($q "$o/chk" load "$o/libc.so" "$o/decoy-grown$rel.so")
}

# one_apk ABI QEMU DIR RELEASE: an APK of a store packed for the release and the stripped library;
# repack grows B1.dll (descriptor 1) to 200,000 bytes: XALZ kept, the APK's library patched
one_apk() {
    local abi=$1 q=$2 o=$3 rel=$4 name="$1 .NET $4 APK" a=$3/apk$4 lib store
    if ! command -v zip >/dev/null || ! command -v zipalign >/dev/null || [ ! -x "$ASMSTORE" ]; then
        t_skip "$name" "zip, zipalign or $ASMSTORE absent"
        return
    fi
    case $abi in arm) lib=lib/armeabi-v7a ;; x86_64) lib=lib/x86_64 ;; *) lib=lib/x86 ;; esac
    store=$lib/libassembly-store.so
    [ "$rel" = 9 ] && store=$lib/libassemblies.${lib#lib/}.blob.so
    mkdir -p "$a/$lib"
    "$ASMSTORE" pack --target "net$rel" --abi "$abi" --compression lz4 -o "$a/$store" \
        "$T_TMP/A0.dll" "$T_TMP/B1.dll" "$T_TMP/C2.dll" 2>"$o/pack.log"
    cat "$o/app$rel-stripped.so" >"$a/$lib/libxamarin-app.so"
    zip_apk "$a" "$o/in$rel.apk" "$lib" "$store"
    t_check "$name: info finds $lib/libxamarin-app.so and the store agrees with it" \
        bash -c "'$ASMSTORE' info '$o/in$rel.apk' | grep -q 'agrees with the store (3 compressed'"
    "$ASMSTORE" repack "$o/in$rel.apk" -o "$o/out$rel.apk" --replace B1.dll="$T_TMP/BB.dll" \
        2>"$o/repack.log"
    t_check "$name: repack keeps the grown B1.dll XALZ with index 1, the library patched" \
        grep -q "index 1 kept (200000 bytes uncompressed, 200000 reserved: the app library patched" \
        "$o/repack.log"
    local did="uncompressed_assemblies_data_buffer moved to the end of .bss"
    [ "$rel" = 10 ] || did="each grown entry's buffer is a new zero-filled region at the end of .bss"
    t_check "$name: repack says what the patch did ($([ "$rel" = 10 ] && echo buffer moved || echo own region))" \
        grep -q "libxamarin-app.so ($abi[^)]*): patched: $did" "$o/repack.log"
    t_check "$name: extract gives the replacement back, info says the store agrees" \
        bash -c "'$ASMSTORE' extract '$o/out$rel.apk' -C '$o/x$rel' B1.dll >/dev/null &&
            cmp '$T_TMP/BB.dll' '$o/x$rel/B1.dll' &&
            '$ASMSTORE' info '$o/out$rel.apk' | grep -q 'agrees with the store (3 compressed'"
    unzip -p "$o/out$rel.apk" "$lib/libxamarin-app.so" >"$o/patched$rel.so"
    t_check "$name: its patched library, loaded by glibc${q:+ under ${q%% *}}, holds 200,000 bytes" \
        diff <(expect_load "$rel" 200000) <($q "$o/chk" load "$o/libc.so" "$o/patched$rel.so")
}

if [ -x "$ASMSTORE" ]; then
    t_pe --fill "app32 " "$T_TMP/A0.dll" 3000 "$T_TMP/B1.dll" 70000 "$T_TMP/C2.dll" 1234 \
        "$T_TMP/BB.dll" 200000
fi

for spec in i686-linux-gnu:i386:x86 arm-linux-gnueabihf:arm:arm; do
    IFS=: read -r triplet qarch abi <<<"$spec"
    xcc=$triplet-gcc
    o=$T_TMP/$abi
    if ! command -v "$xcc" >/dev/null || ! command -v "qemu-$qarch" >/dev/null ||
        [ ! -d "/usr/$triplet/lib" ]; then
        t_skip "$abi" "needs $xcc, qemu-$qarch and /usr/$triplet (Debian: gcc-$triplet qemu-user)"
        continue
    fi
    mkdir -p "$o"
    if ! $xcc -shared -fPIC -o "$o/libc.so" "$TOP/tests/lib/standin_libc.c" \
        -Wl,--version-script="$T_TMP/libc.map" -Wl,-soname,libc.so 2>"$T_TMP/cc.log" ||
        ! $xcc $W -D_GNU_SOURCE -o "$o/chk" "$CHK" -ldl 2>>"$T_TMP/cc.log"; then
        t_fail "$abi: build the stand-in libc and the harness" "$(head -5 "$T_TMP/cc.log")"
        continue
    fi
    for rel in 8 9 10; do
        if ! build_lib "$xcc" "$o" "$rel" "$abi" 2>"$T_TMP/cc.log"; then
            t_fail "$abi .NET $rel: build the library" "$(head -5 "$T_TMP/cc.log")"
            continue
        fi
        one_release "$abi" "qemu-$qarch -L /usr/$triplet" "$o" "$rel"
        [ "$rel" != 8 ] && one_apk "$abi" "qemu-$qarch -L /usr/$triplet" "$o" "$rel"
        t_check "$abi .NET $rel: linked by GNU ld, asmstore_app_open reads it at nm's places" \
            diff <(expect_open "$o/bfd$rel.so" "$rel" "$abi" 70000) \
            <("$T_TMP/chk" open "$o/bfd$rel.so")
    done
    if ! build_lib "$xcc" "$o" clr "$abi" 2>"$T_TMP/cc.log"; then
        t_fail "$abi CoreCLR: build the library" "$(head -5 "$T_TMP/cc.log")"
        continue
    fi
    t_check "$abi CoreCLR: asmstore_app_add_slots makes 3 bundled slots 5 (16 bytes each), the config's count 5" \
        bash -c "'$T_TMP/chk' open '$o/appclr.so' | grep -q 'config: 3 assemblies in the APK, 0 store files, 3 bundled slots' &&
            '$T_TMP/grow' --slots '$o/appclr-stripped.so' 5 '$o/clr5.so' &&
            '$T_TMP/chk' open '$o/clr5.so' | grep -q 'config: 5 assemblies in the APK, 0 store files, 5 bundled slots'"
    t_check "$abi CoreCLR: the patched library, loaded by glibc under qemu-$qarch, reads its table the same" \
        diff <("qemu-$qarch" -L "/usr/$triplet" "$o/chk" load "$o/libc.so" "$o/appclr-stripped.so") <("qemu-$qarch" -L "/usr/$triplet" "$o/chk" load "$o/libc.so" "$o/clr5.so")
    t_check "$abi CoreCLR: eu-elflint reports nothing new against the original" \
        tool_diff "eu-elflint --gnu-ld" "$o/appclr-stripped.so" "$o/clr5.so"
done

# ---- CoreCLR .NET 10+, x86_64 natively: repack --add makes room in assembly_store_bundled_assemblies ----
# the library of tests/lib/app_lib32.c -DAPP_CORECLR (3 slots, one per entry of the store packed for it),
# linked as above for x86_64; an APK of it and a CoreCLR net10 store; repack --add two assemblies
clr_add() {
    local o=$T_TMP/clr a=$T_TMP/clr/apk lib=lib/x86_64 runtime
    mkdir -p "$o" "$a/$lib"
    if ! $CC -shared -fPIC -o "$o/libc.so" "$TOP/tests/lib/standin_libc.c" \
        -Wl,--version-script="$T_TMP/libc.map" -Wl,-soname,libc.so 2>"$T_TMP/cc.log" ||
        ! $CC $W -DAPP_CORECLR -O2 -fPIC -c -o "$o/app.o" "$SRC" 2>>"$T_TMP/cc.log" ||
        ! ld.lld --shared --gc-sections --export-dynamic -z relro -z noexecstack -z now \
            --enable-new-dtags --build-id=sha1 --fatal-warnings --no-rosegment --no-undefined \
            -soname libxamarin-app.so -m elf_x86_64 -o "$o/app-full.so" "$o/app.o" "$o/libc.so" \
            2>>"$T_TMP/cc.log" ||
        ! objcopy --strip-debug --strip-unneeded "$o/app-full.so" "$o/app.so"; then
        t_fail "CoreCLR x86_64: build the library" "$(head -5 "$T_TMP/cc.log")"
        return
    fi
    runtime="$T_TMP/grow --coreclr $o/libc.so"
    "$ASMSTORE" pack --target net10 --runtime coreclr --abi x86_64 --compression lz4 \
        -o "$a/$lib/libassembly-store.so" "$T_TMP/A0.dll" "$T_TMP/B1.dll" "$T_TMP/C2.dll" 2>/dev/null
    cat "$o/app.so" >"$a/$lib/libxamarin-app.so"
    zip_apk "$a" "$o/in.apk" "$lib" "$lib/libassembly-store.so"
    t_check "CoreCLR x86_64: info names the library CoreCLR's, 3 slots, agreeing with the store" \
        bash -c "'$ASMSTORE' info '$o/in.apk' | grep -q '3 assemblies in the APK, 3 bundled slots; CoreCLR' &&
            '$ASMSTORE' info '$o/in.apk' | grep -q 'agrees with the store (3 compressed'"
    "$ASMSTORE" repack "$o/in.apk" -o "$o/out.apk" --add "$T_TMP/N3.dll" --add "$T_TMP/N4.dll" 2>"$o/add.log"
    t_check "CoreCLR x86_64: repack --add stores both uncompressed at mapping indices 3 and 4" \
        bash -c "grep -q 'N3.dll (x86_64): added, stored uncompressed (5000 bytes, mapping index 3)' '$o/add.log' &&
            grep -q 'N4.dll (x86_64): added, stored uncompressed (6000 bytes, mapping index 4)' '$o/add.log'"
    t_check "CoreCLR x86_64: the library patched: 5 bundled slots, number_of_assemblies_in_apk 5" \
        bash -c "grep -q 'assembly_store_bundled_assemblies has 5 slots at the end of .bss for the added entries (number_of_assemblies_in_apk 5)' '$o/add.log' &&
            '$ASMSTORE' info '$o/out.apk' | grep -q '5 assemblies in the APK, 5 bundled slots; CoreCLR'"
    t_check "CoreCLR x86_64: extract gives each added assembly back" \
        bash -c "'$ASMSTORE' extract '$o/out.apk' -C '$o/x' N3.dll N4.dll >/dev/null &&
            cmp '$T_TMP/N3.dll' '$o/x/N3.dll' && cmp '$T_TMP/N4.dll' '$o/x/N4.dll'"
    (cd "$o" && unzip -q -o out.apk "$lib/libxamarin-app.so" "$lib/libassembly-store.so")
    t_check "CoreCLR x86_64: glibc loads the patched library; open_assembly's slot of every entry is in it, every compressed entry loads" \
        $runtime "$o/$lib/libxamarin-app.so" "$o/$lib/libassembly-store.so"
    $runtime "$o/app.so" "$o/$lib/libassembly-store.so" >"$o/past.log" 2>&1
    t_check "CoreCLR x86_64: the original library would take the new entry past its array" \
        bash -c "test $? = 1 && grep -q 'mapping index 3 past assembly_store_bundled_assemblies. 3 slots' '$o/past.log'"
    for tool in "readelf -lSW --dyn-syms -r" "eu-elflint --gnu-ld"; do
        command -v "${tool%% *}" >/dev/null || continue
        t_check "CoreCLR x86_64: ${tool%% *} reports nothing new against the original (the moved symbol aside)" \
            bash -c "diff <($tool '$o/app.so' 2>&1 | grep -v assembly_store_bundled_assemblies | sed 's/0x[0-9a-f]*\\|[0-9a-f]\\{5,\\}//g') <($tool '$o/$lib/libxamarin-app.so' 2>&1 | grep -v assembly_store_bundled_assemblies | sed 's/0x[0-9a-f]*\\|[0-9a-f]\\{5,\\}//g')"
    done
    t_check "CoreCLR x86_64: assembly_store_bundled_assemblies is now 5 x 32 bytes" \
        bash -c "readelf --dyn-syms -W '$o/$lib/libxamarin-app.so' | grep -qE ' 160 OBJECT +GLOBAL +DEFAULT +[0-9]+ assembly_store_bundled_assemblies'"
    t_check "CoreCLR x86_64: the patched library is the original's size, a few bytes changed" \
        bash -c "test \$(stat -c %s '$o/app.so') = \$(stat -c %s '$o/$lib/libxamarin-app.so') && [ \$(cmp -l '$o/app.so' '$o/$lib/libxamarin-app.so' | wc -l) -le 16 ]"
    python3 "$TOP/tests/lib/r2r_pe.py" "$o/Stub.dll" stub app.r2r.dll
    "$ASMSTORE" repack "$o/in.apk" -o "$o/stub.apk" --add "$o/Stub.dll" 2>"$o/stub.log"; rc=$?
    t_check "CoreCLR x86_64: --add of a ReadyToRun stub whose composite the store lacks: refused (exit 1), nothing written" \
        bash -c "[ $rc = 1 ] && grep -q 'Stub.dll (x86_64) is a ReadyToRun component stub .* app.r2r.dll, which the repacked store would not hold' '$o/stub.log' && [ ! -e '$o/stub.apk' ]"
    # repack --from takes every new file of the folder, 300 of them as well as 3
    "$ASMSTORE" unpack "$o/in.apk" -C "$o/u" >/dev/null 2>&1
    for i in $(seq 100 399); do cp "$T_TMP/N3.dll" "$o/u/x86_64/F$i.dll"; done
    "$ASMSTORE" repack "$o/in.apk" --from "$o/u" -o "$o/many.apk" >"$o/many.log" 2>&1; rc=$?
    (cd "$o" && mkdir -p m && cd m && unzip -q -o ../many.apk "$lib/libxamarin-app.so" "$lib/libassembly-store.so")
    t_check "CoreCLR x86_64: repack --from with 300 new files: exit 0, all 300 added, nothing else" \
        bash -c "[ $rc = 0 ] && [ \$('$ASMSTORE' list '$o/many.apk' | grep -c ' F[0-9]*.dll$') = 300 ] &&
            [ \$('$ASMSTORE' list '$o/many.apk' | grep -vc '^index') = \$((\$('$ASMSTORE' list '$o/in.apk' | grep -vc '^index') + 300)) ]"
    t_check "CoreCLR x86_64: the library patched for 303 takes every one of them" \
        $runtime "$o/m/$lib/libxamarin-app.so" "$o/m/$lib/libassembly-store.so"
    "$ASMSTORE" repack "$o/out.apk" -o "$o/out2.apk" --replace B1.dll="$T_TMP/BB.dll" --add "$T_TMP/N5.dll" 2>"$o/add2.log"
    (cd "$o" && mkdir -p y && cd y && unzip -q -o ../out2.apk "$lib/libxamarin-app.so" "$lib/libassembly-store.so")
    t_check "CoreCLR x86_64: a second repack grows B1.dll and adds one more; the library takes all six" \
        $runtime "$o/y/$lib/libxamarin-app.so" "$o/y/$lib/libassembly-store.so"
    # a decoy of the library (tests/lib/app_decoy.py): section headers pointed at copies of .dynsym,
    # .dynstr and .rela.dyn; the slots must move where the loader resolves them
    /usr/bin/python3 "$TOP/tests/lib/app_decoy.py" "$o/app.so" "$a/$lib/libxamarin-app.so"
    zip_apk "$a" "$o/decoy.apk" "$lib" "$lib/libassembly-store.so"
    "$ASMSTORE" repack "$o/decoy.apk" -o "$o/decoy-out.apk" --add "$T_TMP/N3.dll" --add "$T_TMP/N4.dll" 2>"$o/decoy.log"
    (cd "$o" && mkdir -p d && cd d && unzip -q -o ../decoy-out.apk "$lib/libxamarin-app.so" "$lib/libassembly-store.so")
    t_check "CoreCLR x86_64 decoy: repack --add, glibc loads the patched library; every entry's slot is in the array it resolves" \
        $runtime "$o/d/$lib/libxamarin-app.so" "$o/d/$lib/libassembly-store.so"
}

# ---- a decoy, x86_64 natively: .NET 9's pointer table behind RELA relocations, the library's section
# headers pointed at copies (one_decoy), grown directly and by repack of an APK (one_apk); .NET 10's
# buffer on x86_64 is t_cli_app.sh's (the real sample, its store loaded by app_runtime_check) ----
native_decoys() {
    local o=$T_TMP/x86_64 rel=9
    mkdir -p "$o"
    if ! $CC -shared -fPIC -o "$o/libc.so" "$TOP/tests/lib/standin_libc.c" \
        -Wl,--version-script="$T_TMP/libc.map" -Wl,-soname,libc.so 2>"$T_TMP/cc.log" ||
        ! cp "$T_TMP/chk" "$o/chk"; then
        t_fail "x86_64 decoys: build the stand-in libc" "$(head -5 "$T_TMP/cc.log")"
        return
    fi
    if ! build_lib x86_64-linux-gnu-gcc "$o" "$rel" x86_64 2>"$T_TMP/cc.log"; then
        t_fail "x86_64 .NET $rel: build the library" "$(head -5 "$T_TMP/cc.log")"
        return
    fi
    one_decoy "" "$o" "$rel" "x86_64 .NET $rel"
    /usr/bin/python3 "$TOP/tests/lib/app_decoy.py" "$o/app$rel-stripped.so" "$o/app$rel-stripped.so"
    one_apk x86_64 "" "$o" "$rel"
}
if [ "$(uname -m)" = x86_64 ] && [ -x "$ASMSTORE" ] && command -v zip >/dev/null &&
    command -v zipalign >/dev/null; then
    t_pe --fill "clr " "$T_TMP/N3.dll" 5000 "$T_TMP/N4.dll" 6000 "$T_TMP/N5.dll" 7000
    clr_add
    if command -v x86_64-linux-gnu-gcc >/dev/null; then native_decoys; else t_skip "x86_64 decoys" "x86_64-linux-gnu-gcc absent"; fi
else
    t_skip "CoreCLR x86_64 --add" "not an x86_64 host, or asmstore, zip or zipalign absent"
fi
t_done
