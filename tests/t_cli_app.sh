#!/bin/bash
# tests/t_cli_app.sh - the app's own libxamarin-app.so beside a store (tools/cli_app.c): info finds it
# beside a store file, in a .NET 6-8 set directory, in an APK (lib/<abi>/) or by --app FILE, shows its
# compressed-assembly table and whether the store agrees with it (index in range, size within the
# descriptor); repack lets a replacement grow up to the descriptor's size and stay compressed (the
# arm64 Mono.Android descriptor says 306,688 while the store holds 294,400). The real samples are
# used in place, never copied; APKs are built from the real store and its real library. A library that
# is there but cannot be read (a directory, a FIFO, a bzip2 entry) is named with the real error.
. "$(dirname "$0")/lib/lib.sh"
PY=/usr/bin/python3
V3=$SAMPLES/v3-watercountdown-widget
RAZR=$SAMPLES/v1-razr-pointcrep

if [ ! -d "$SAMPLES" ]; then t_skip "app library" "samples absent (set SAMPLES=.../assembly-store-samples)"; t_done; exit; fi

# ---- info: the table, found beside the store, and the agreement ----
"$ASMSTORE" info "$V3/x86_64/assembly-store.so" >"$T_TMP/info" 2>&1
t_check "info beside a .NET 10 store: the buffer table with its 10 descriptors" \
    grep -q "app library: .*libxamarin-app.so: buffer table, 10 descriptors, 1836544-byte buffer; 10 assemblies in the APK, 10 bundled slots" "$T_TMP/info"
t_check "info: descriptor 9 is Mono.Android's, at offset 0x175800 in the buffer" \
    grep -qE "^ +9 +306688 +0x175800  Mono.Android.dll" "$T_TMP/info"
t_check "info: the store agrees with its library" grep -q "app table: *agrees with the store (10 compressed entries" "$T_TMP/info"
"$ASMSTORE" info "$V3/arm64-v8a/assembly-store.so" >"$T_TMP/info64" 2>&1
t_check "info arm64: Mono.Android's descriptor is the unshrunk 306,688" grep -qE "^ +9 +306688 +0x[0-9a-f]+  Mono.Android.dll" "$T_TMP/info64"
t_check "info --json: app_library with the sizes, agrees" \
    bash -c "'$ASMSTORE' info --json '$V3/arm64-v8a/assembly-store.so' | $PY -c 'import json,sys; a=json.load(sys.stdin)[\"stores\"][0][\"app_library\"]; assert a[\"table\"] == \"buffer\" and a[\"agrees\"] and a[\"sizes\"][9] == 306688 and a[\"descriptors\"] == 10, a'"
"$ASMSTORE" info "$RAZR" >"$T_TMP/razr" 2>&1
t_check "info on a .NET 8 set: the pointers table, 25 descriptors" grep -q "pointers table, 25 descriptors; 25 assemblies in the APK" "$T_TMP/razr"
t_check "info on a .NET 8 set: System.Private.CoreLib (arch store) uses descriptor 17" grep -qE "^ +17 +1451008 +0x[0-9a-f]+  System.Private.CoreLib.dll" "$T_TMP/razr"
t_check "info on a .NET 8 set: both stores agree" test "$(grep -c 'agrees with the store' "$T_TMP/razr")" = 2

# a damaged copy named by --app: descriptor 9 shrunk below the store's image, descriptor count cut
$PY - "$V3/arm64-v8a/libxamarin-app.so" "$T_TMP/small.so" "$T_TMP/cut.so" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
# compressed_assembly_descriptors at file offset 0x6b10 (vaddr 0xeb10), 12 bytes each
struct.pack_into("<I", d, 0x6b10 + 9 * 12, 1000)
open(sys.argv[2], "wb").write(d)
d = bytearray(open(sys.argv[1], "rb").read())
off = d.find(struct.pack("<I", 10) + struct.pack("<I", 1827328))  # compressed_assembly_count, data size
assert off > 0
struct.pack_into("<I", d, off, 9)
open(sys.argv[3], "wb").write(d)
EOF
"$ASMSTORE" info --app "$T_TMP/small.so" "$V3/arm64-v8a/assembly-store.so" >"$T_TMP/bad" 2>&1
t_check "info --app: a descriptor smaller than the image is a disagreement naming the entry" \
    grep -q "entry 7 Mono.Android.dll: 294400 bytes uncompressed, descriptor 9 holds 1000 (the runtime aborts)" "$T_TMP/bad"
t_check "info --app: 1 of 10 would abort" grep -q "disagrees with the store: 1 of 10 compressed entries" "$T_TMP/bad"
"$ASMSTORE" info --app "$T_TMP/cut.so" "$V3/arm64-v8a/assembly-store.so" >"$T_TMP/cut" 2>&1
t_check "info --app: a descriptor index past the table is named" \
    grep -q "entry 7 Mono.Android.dll: descriptor 9, past the app library's 9 descriptors" "$T_TMP/cut"
"$ASMSTORE" info --app "$T_TMP/nope.so" "$V3/arm64-v8a/assembly-store.so" >"$T_TMP/nope" 2>&1
t_check "info --app with no such file: exit 2, says what it could not read" \
    bash -c "test $? = 2 && grep -q 'cannot read the app library (--app)' '$T_TMP/nope'"

# ---- an APK made of the real x86_64 store (wrapped as .NET 10 ships it) and its real library ----
if command -v zip >/dev/null && command -v zipalign >/dev/null; then
    A=$T_TMP/apk; mkdir -p "$A/lib/x86_64"
    "$ASMSTORE" wrap -o "$A/lib/x86_64/libassembly-store.so" --abi x86_64 "$V3/x86_64/assembly-store.so" >/dev/null
    cat "$V3/x86_64/libxamarin-app.so" >"$A/lib/x86_64/libxamarin-app.so"   # a file of the APK, not of the repo
    echo '<manifest/>' >"$A/AndroidManifest.xml"
    (cd "$A" && zip -q -X ../in0.apk AndroidManifest.xml lib/x86_64/libxamarin-app.so && zip -q -X -0 ../in0.apk lib/x86_64/libassembly-store.so)
    zipalign -f -p 4 "$T_TMP/in0.apk" "$T_TMP/in.apk"
    "$ASMSTORE" info "$T_TMP/in.apk" >"$T_TMP/apkinfo" 2>&1
    t_check "APK: info finds lib/x86_64/libxamarin-app.so (DEFLATEd) and the store agrees" \
        bash -c "grep -q 'app library: *lib/x86_64/libxamarin-app.so: buffer table, 10 descriptors' '$T_TMP/apkinfo' && grep -q 'agrees with the store' '$T_TMP/apkinfo'"
    # repack --replace Mono.Android.dll with 3.3 MB: compressed, and the APK's library patched to hold it
    t_pe --fill "Mono.Android grown " "$T_TMP/MA3M.dll" 3300000
    "$ASMSTORE" repack "$T_TMP/in.apk" -o "$T_TMP/grown.apk" --replace Mono.Android.dll="$T_TMP/MA3M.dll" 2>"$T_TMP/grown.log"
    t_check "APK grow: exit 0, the 3.3 MB image stays XALZ with index 9, the library patched" \
        bash -c "grep -q 'descriptor index 9 kept (3300000 bytes uncompressed, 3300000 reserved: the app library patched' '$T_TMP/grown.log' && grep -q 'lib/x86_64/libxamarin-app.so (x86_64): patched' '$T_TMP/grown.log'"
    t_check "APK grow: listed compressed, extract gives it back" \
        bash -c "'$ASMSTORE' list '$T_TMP/grown.apk' | grep -qE ' 3300000 +[0-9]+ lz4 +Mono.Android.dll' && '$ASMSTORE' extract '$T_TMP/grown.apk' -C '$T_TMP/xa' Mono.Android.dll >/dev/null && cmp '$T_TMP/MA3M.dll' '$T_TMP/xa/Mono.Android.dll'"
    t_check "APK grow: unzip -t passes, info says the store agrees with the APK's library" \
        bash -c "unzip -tq '$T_TMP/grown.apk' && '$ASMSTORE' info '$T_TMP/grown.apk' | grep -q 'agrees with the store (10 compressed'"
    t_check "APK grow --json: the library under patched_libraries, not among the stores" \
        bash -c "'$ASMSTORE' repack '$T_TMP/in.apk' -o '$T_TMP/grown-j.apk' --json --replace Mono.Android.dll='$T_TMP/MA3M.dll' 2>/dev/null | $PY -c 'import json,sys; d=json.load(sys.stdin); assert [s[\"store\"] for s in d[\"stores\"]] == [\"lib/x86_64/libassembly-store.so\"] and d[\"patched_libraries\"] == [{\"file\": \"lib/x86_64/libxamarin-app.so\", \"abi\": \"x86_64\"}], d'"
    mkdir -p "$T_TMP/ga"; (cd "$T_TMP/ga" && unzip -q "$T_TMP/grown.apk" lib/x86_64/libxamarin-app.so lib/x86_64/libassembly-store.so)
    t_check "APK grow: the library keeps its size; only its buffer's fields changed" \
        bash -c "test \$(stat -c %s '$T_TMP/ga/lib/x86_64/libxamarin-app.so') = \$(stat -c %s '$V3/x86_64/libxamarin-app.so') && [ \$(cmp -l '$V3/x86_64/libxamarin-app.so' '$T_TMP/ga/lib/x86_64/libxamarin-app.so' | wc -l) -le 40 ]"
    # two stores of one ABI (libassembly-store.so and libassemblies.x86_64.blob.so) share the one
    # library: both growing would patch it twice, each on its own copy
    cp "$A/lib/x86_64/libassembly-store.so" "$A/lib/x86_64/libassemblies.x86_64.blob.so"
    (cd "$A" && zip -q -X ../in2-0.apk AndroidManifest.xml lib/x86_64/libxamarin-app.so &&
        zip -q -X -0 ../in2-0.apk lib/x86_64/libassembly-store.so lib/x86_64/libassemblies.x86_64.blob.so)
    rm "$A/lib/x86_64/libassemblies.x86_64.blob.so"
    zipalign -f -p 4 "$T_TMP/in2-0.apk" "$T_TMP/in2.apk"
    "$ASMSTORE" repack "$T_TMP/in2.apk" -o "$T_TMP/two.apk" --replace Mono.Android.dll="$T_TMP/MA3M.dll" 2>"$T_TMP/two.log"; rc=$?
    t_check "APK with two x86_64 stores, both growing: refused (exit 1), naming the one library, nothing written" \
        bash -c "[ $rc = 1 ] && grep -q 'lib/x86_64/libxamarin-app.so: .* both need their entries. room patched in this one app library' '$T_TMP/two.log' && [ ! -e '$T_TMP/two.apk' ]"
    # a .NET 8 APK: its stores share one table (indices over every ABI), each ABI's library is patched
    B=$T_TMP/apk8; mkdir -p "$B/assemblies" "$B/lib/arm64-v8a"
    cat "$RAZR/base_assemblies.blob" >"$B/assemblies/assemblies.blob"
    cat "$RAZR/base_assemblies.arm64_v8a.blob" >"$B/assemblies/assemblies.arm64_v8a.blob"
    cat "$RAZR/base_assemblies.manifest" >"$B/assemblies/assemblies.manifest"
    cat "$RAZR/libxamarin-app.so" >"$B/lib/arm64-v8a/libxamarin-app.so"
    echo '<manifest/>' >"$B/AndroidManifest.xml"
    (cd "$B" && zip -q -X ../in8-0.apk AndroidManifest.xml assemblies/assemblies.manifest lib/arm64-v8a/libxamarin-app.so &&
        zip -q -X -0 ../in8-0.apk assemblies/assemblies.blob assemblies/assemblies.arm64_v8a.blob)
    zipalign -f -p 4 "$T_TMP/in8-0.apk" "$T_TMP/in8.apk"
    t_pe --fill "Mono.Android grown " "$T_TMP/MA400.dll" 400000
    "$ASMSTORE" repack "$T_TMP/in8.apk" -o "$T_TMP/out8.apk" --replace Mono.Android.dll="$T_TMP/MA400.dll" 2>"$T_TMP/apk8.log"
    t_check "APK .NET 8: a replacement over the descriptor stays XALZ with index 2, the library patched" \
        grep -q "descriptor index 2 kept (400000 bytes uncompressed, 400000 reserved: the app library patched" "$T_TMP/apk8.log"
    t_check "APK .NET 8: the output's library says so" grep -q "lib/arm64-v8a/libxamarin-app.so (arm64-v8a): patched: each grown entry's buffer" "$T_TMP/apk8.log"
    t_check "APK .NET 8: both stores agree with the output's patched library" \
        bash -c "[ \$('$ASMSTORE' info '$T_TMP/out8.apk' | grep -c 'agrees with the store') = 2 ]"
    t_check "APK .NET 8: extract gives the 400,000 bytes back" \
        bash -c "'$ASMSTORE' extract '$T_TMP/out8.apk' -C '$T_TMP/x8' Mono.Android.dll >/dev/null && cmp '$T_TMP/MA400.dll' '$T_TMP/x8/Mono.Android.dll'"
    t_check "APK .NET 8: the original library would abort on the new store" \
        bash -c "unzip -p '$T_TMP/out8.apk' assemblies/assemblies.arm64_v8a.blob >/dev/null; '$ASMSTORE' info --app '$RAZR/libxamarin-app.so' '$T_TMP/out8.apk' | grep -q 'Mono.Android.dll: 400000 bytes uncompressed, descriptor 2 holds 363008'"
    # the same set with its library under another ABI's directory: the arm64 store has none of its own
    (cd "$B" && mkdir -p lib/x86_64 && mv lib/arm64-v8a/libxamarin-app.so lib/x86_64/ &&
        zip -q -X ../in8b-0.apk AndroidManifest.xml assemblies/assemblies.manifest lib/x86_64/libxamarin-app.so &&
        zip -q -X -0 ../in8b-0.apk assemblies/assemblies.blob assemblies/assemblies.arm64_v8a.blob)
    zipalign -f -p 4 "$T_TMP/in8b-0.apk" "$T_TMP/in8b.apk"
    "$ASMSTORE" repack "$T_TMP/in8b.apk" -o "$T_TMP/out8b.apk" --replace Mono.Android.dll="$T_TMP/MA400.dll" 2>"$T_TMP/apk8b.log"
    t_check "APK .NET 8, no library for the arch store's ABI: stored uncompressed, saying which library is missing" \
        grep -q "stored UNCOMPRESSED: 400000 bytes is more than the 339456 .*not patched: no libxamarin-app.so for arm64-v8a" "$T_TMP/apk8b.log"
    t_check "APK .NET 8, no library for the arch store's ABI: the library in the output is the original, byte for byte" \
        bash -c "unzip -p '$T_TMP/out8b.apk' lib/x86_64/libxamarin-app.so | cmp - '$RAZR/libxamarin-app.so'"
else
    t_skip "APK with its app library" "zip or zipalign absent"
fi

# ---- repack: a replacement up to the descriptor's size stays compressed, no patch ----
t_pe --fill "Mono.Android grown " "$T_TMP/MA300.dll" 300000 "$T_TMP/MA320.dll" 320000 "$T_TMP/MA350.dll" 350000
"$ASMSTORE" repack "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/r300.so" --replace Mono.Android.dll="$T_TMP/MA300.dll" 2>"$T_TMP/r300.log"
t_check "repack arm64: 300,000 bytes (over the store's 294,400, within the library's 306,688) stays XALZ, index 9" \
    grep -q "Mono.Android.dll (arm64-v8a): replaced, XALZ (LZ4 HC) level [0-9]*, descriptor index 9 kept (300000 bytes uncompressed, 306688 reserved: .*libxamarin-app.so)" "$T_TMP/r300.log"
t_check "repack arm64: listed compressed" bash -c "'$ASMSTORE' list '$T_TMP/r300.so' | grep -qE ' 300000 +[0-9]+ lz4 +Mono.Android.dll'"
t_check "repack arm64: extract gives the replacement back" \
    bash -c "'$ASMSTORE' extract '$T_TMP/r300.so' -C '$T_TMP/x300' Mono.Android.dll >/dev/null && cmp '$T_TMP/MA300.dll' '$T_TMP/x300/Mono.Android.dll'"
t_check "repack arm64: the output agrees with the unchanged library (the runtime's checks)" \
    bash -c "'$ASMSTORE' info --app '$V3/arm64-v8a/libxamarin-app.so' '$T_TMP/r300.so' | grep -q 'agrees with the store (10 compressed entries'"
"$ASMSTORE" repack "$V3/arm64-v8a/assembly-store.so" -o "$T_TMP/r320.so" --replace Mono.Android.dll="$T_TMP/MA320.dll" 2>"$T_TMP/r320.log"
t_check "repack arm64: 320,000 bytes (over the descriptor) goes in uncompressed, naming the library's limit" \
    grep -q "Mono.Android.dll (arm64-v8a): replaced, stored UNCOMPRESSED: 320000 bytes is more than the 306688 .*libxamarin-app.so" "$T_TMP/r320.log"
"$ASMSTORE" repack "$RAZR" -o "$T_TMP/razr-out" --replace Mono.Android.dll="$T_TMP/MA350.dll" 2>"$T_TMP/razr.log"
t_check "repack .NET 8 set: 350,000 bytes (store 339,456, library 363,008) stays XALZ, index 2" \
    grep -q "Mono.Android.dll (every ABI): replaced, XALZ (LZ4 HC) level [0-9]*, descriptor index 2 kept (350000 bytes uncompressed, 363008 reserved" "$T_TMP/razr.log"
t_check "repack .NET 8 set: both stores agree with the library" \
    bash -c "[ \$('$ASMSTORE' info --app '$RAZR/libxamarin-app.so' '$T_TMP/razr-out' | grep -c 'agrees with the store') = 2 ]"
t_check "repack .NET 8 set: extract gives the replacement back" \
    bash -c "'$ASMSTORE' extract '$T_TMP/razr-out' -C '$T_TMP/xr' Mono.Android.dll >/dev/null && cmp '$T_TMP/MA350.dll' '$T_TMP/xr/Mono.Android.dll'"

# ---- repack of a .NET 8 set directory: its library patched, written into the output directory ----
t_pe --fill "Mono.Android grown " "$T_TMP/MA400d.dll" 400000
"$ASMSTORE" repack "$RAZR" -o "$T_TMP/razr-grown" --replace Mono.Android.dll="$T_TMP/MA400d.dll" 2>"$T_TMP/razr-g.log"
t_check "repack .NET 8 set: 400,000 bytes (over the library's 363,008) stays XALZ, index 2, the library patched" \
    grep -q "descriptor index 2 kept (400000 bytes uncompressed, 400000 reserved: the app library patched" "$T_TMP/razr-g.log"
t_check "repack .NET 8 set: the patched library is in the output directory" \
    bash -c "test -f '$T_TMP/razr-grown/libxamarin-app.so' && ! cmp -s '$T_TMP/razr-grown/libxamarin-app.so' '$RAZR/libxamarin-app.so'"
t_check "repack .NET 8 set: both stores agree with the library beside them" \
    bash -c "[ \$('$ASMSTORE' info '$T_TMP/razr-grown' | grep -c 'agrees with the store') = 2 ]"
t_check "repack .NET 8 set: extract gives the 400,000 bytes back" \
    bash -c "'$ASMSTORE' extract '$T_TMP/razr-grown' -C '$T_TMP/xrg' Mono.Android.dll >/dev/null && cmp '$T_TMP/MA400d.dll' '$T_TMP/xrg/Mono.Android.dll'"
t_check "repack .NET 8 set: the input's library is untouched" \
    bash -c "sha256sum '$RAZR/libxamarin-app.so' | grep -q e17611b4097873f134b2c218adc16f683e91fe8abec6bba293d405c42db66a4b"
mkdir -p "$T_TMP/s8/lib/arm64-v8a"
for f in "$RAZR"/*.blob "$RAZR"/*.manifest; do ln -s "$f" "$T_TMP/s8/"; done
cp "$RAZR/libxamarin-app.so" "$T_TMP/s8/lib/arm64-v8a/"
"$ASMSTORE" repack "$T_TMP/s8" -o "$T_TMP/s8-out" --replace Mono.Android.dll="$T_TMP/MA400d.dll" 2>/dev/null
t_check "repack .NET 8 set, its library under lib/arm64-v8a/: patched at that path in the output, which agrees" \
    bash -c "cmp -s '$T_TMP/s8-out/lib/arm64-v8a/libxamarin-app.so' '$T_TMP/razr-grown/libxamarin-app.so' && [ \$('$ASMSTORE' info '$T_TMP/s8-out' | grep -c 'agrees with the store') = 2 ]"


# ---- repack --add: CoreCLR .NET 10+ only (t_app_cross.sh); refused elsewhere, with the reason ----
t_pe "$T_TMP/New.dll" 4096
"$ASMSTORE" repack "$V3/x86_64/assembly-store.so" -o "$T_TMP/add.so" --add "$T_TMP/New.dll" 2>"$T_TMP/add.log"
add_rc=$?
t_check "repack --add into a lone store: refused (exit 1), nothing written" bash -c "[ $add_rc = 1 ] && [ ! -e '$T_TMP/add.so' ]"
t_check "repack --add into a lone store: the library is patched only inside an APK or AAB" \
    grep -q -- "--add .*New.dll refused for .*: the app library's bundled-assembly slots are patched only inside an APK or AAB" "$T_TMP/add.log"
if [ -e "$T_TMP/in.apk" ] && [ -e "$T_TMP/in8.apk" ]; then
    "$ASMSTORE" repack "$T_TMP/in.apk" -o "$T_TMP/add.apk" --add "$T_TMP/New.dll" 2>"$T_TMP/add10.log"
    add_rc=$?
    t_check "repack --add, a MonoVM .NET 10 APK: refused (exit 1), nothing written" bash -c "[ $add_rc = 1 ] && [ ! -e '$T_TMP/add.apk' ]"
    t_check "repack --add, a MonoVM .NET 10 APK: names MonoImageLoader::stash_and_return and the image-cache hashes" \
        grep -q "not a CoreCLR library: MonoVM aborts (MonoImageLoader::stash_and_return) on a name missing from assembly_image_cache_hashes\[\], sorted in .rodata" "$T_TMP/add10.log"
    "$ASMSTORE" repack "$T_TMP/in8.apk" -o "$T_TMP/add8.apk" --add "$T_TMP/New.dll" 2>"$T_TMP/add8.log"
    t_check "repack --add, a .NET 8 APK: names format 1's number_of_assemblies_in_apk rows" \
        bash -c "[ $? = 1 ] && [ ! -e '$T_TMP/add8.apk' ] && grep -q '.NET 6-8 (format 1) searches exactly the number_of_assemblies_in_apk rows' '$T_TMP/add8.log'"
    mkdir -p "$T_TMP/dup"; cp "$T_TMP/New.dll" "$T_TMP/dup/Mono.Android.dll"
    "$ASMSTORE" repack "$T_TMP/in.apk" -o "$T_TMP/add.apk" --add "$T_TMP/dup/Mono.Android.dll" 2>"$T_TMP/adddup.log"
    t_check "repack --add of a name the store has: refused, saying to --replace" \
        grep -q "refused for .*: the store already has an entry of that name. Rebuild the app with the assembly, or --replace" "$T_TMP/adddup.log"
fi
# ---- the runtime's checks under glibc's loader (tests/app_runtime_check.c, a stand-in bionic libc.so) ----
CC=${CC:-cc}
printf 'LIBC { global: puts; abort; local: *; };\n' >"$T_TMP/libc.map"
if [ "$(uname -m)" = x86_64 ] &&
    $CC -shared -fPIC -o "$T_TMP/libc.so" "$TOP/tests/lib/standin_libc.c" -Wl,--version-script="$T_TMP/libc.map" -Wl,-soname,libc.so 2>"$T_TMP/cc.log" &&
    $CC -std=c99 -D_GNU_SOURCE -o "$T_TMP/chk" "$TOP/tests/app_runtime_check.c" -ldl -llz4 -lzstd 2>>"$T_TMP/cc.log"; then
    X64=$V3/x86_64
    t_check "runtime: glibc loads the real x86_64 library, every compressed entry of its store loads" \
        "$T_TMP/chk" "$T_TMP/libc.so" "$X64/libxamarin-app.so" "$X64/assembly-store.so"
    if [ -f "$T_TMP/ga/lib/x86_64/libxamarin-app.so" ]; then
        t_check "runtime: the APK's patched library, loaded by glibc, takes every compressed entry of its new store (3.3 MB Mono.Android)" \
            "$T_TMP/chk" "$T_TMP/libc.so" "$T_TMP/ga/lib/x86_64/libxamarin-app.so" "$T_TMP/ga/lib/x86_64/libassembly-store.so"
        for tool in "readelf -lSW --dyn-syms -r" "eu-elflint --gnu-ld"; do
            command -v ${tool%% *} >/dev/null || continue
            t_check "APK grow: ${tool%% *} reports nothing new against the original (addresses and sizes aside)" \
                bash -c "diff <($tool '$X64/libxamarin-app.so' 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{6,\}//g') <($tool '$T_TMP/ga/lib/x86_64/libxamarin-app.so' 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{6,\}//g')"
        done
    fi
    # Mono.Android grown to 3.3 MB: the library patched (asmstore_app_grow), the store repacked beside it
    mkdir -p "$T_TMP/g"; ln -s "$X64/assembly-store.so" "$T_TMP/g/assembly-store.so"
    t_check "grow: descriptor 9 patched to 3,300,000 bytes" "$T_TMP/chk" --grow "$X64/libxamarin-app.so" 9 3300000 "$T_TMP/g/libxamarin-app.so"
    t_check "grow: the file keeps its size" test "$(stat -c %s "$T_TMP/g/libxamarin-app.so")" = "$(stat -c %s "$X64/libxamarin-app.so")"
    t_pe --fill "Mono.Android grown " "$T_TMP/MA3M.dll" 3300000
    "$ASMSTORE" repack "$T_TMP/g/assembly-store.so" -o "$T_TMP/g3.so" --replace Mono.Android.dll="$T_TMP/MA3M.dll" 2>"$T_TMP/g3.log"
    t_check "grow: repack beside the patched library keeps the 3.3 MB image compressed (XALZ, index 9)" \
        grep -q "descriptor index 9 kept (3300000 bytes uncompressed, 3300000 reserved" "$T_TMP/g3.log"
    t_check "grow: extract gives the 3.3 MB image back" \
        bash -c "'$ASMSTORE' extract '$T_TMP/g3.so' -C '$T_TMP/xg' Mono.Android.dll >/dev/null && cmp '$T_TMP/MA3M.dll' '$T_TMP/xg/Mono.Android.dll'"
    t_check "runtime: the patched library, loaded by glibc, takes every compressed entry of the new store" \
        "$T_TMP/chk" "$T_TMP/libc.so" "$T_TMP/g/libxamarin-app.so" "$T_TMP/g3.so"
    "$T_TMP/chk" "$T_TMP/libc.so" "$X64/libxamarin-app.so" "$T_TMP/g3.so" >"$T_TMP/abort.log" 2>&1
    t_check "runtime: the unpatched library would abort on it (assemblies don't grow)" \
        bash -c "test $? = 1 && grep -q 'entry 7: 3300000 bytes, larger than when the application was built (306688): abort' '$T_TMP/abort.log'"
    for tool in "readelf -lSW --dyn-syms -r" "eu-elflint --gnu-ld"; do
        command -v ${tool%% *} >/dev/null || { t_skip "grow: $tool" "not installed"; continue; }
        $tool "$X64/libxamarin-app.so" 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{6,\}//g' >"$T_TMP/o.txt"
        $tool "$T_TMP/g/libxamarin-app.so" 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{6,\}//g' >"$T_TMP/n.txt"
        t_check "grow: ${tool%% *} reports nothing new against the original (addresses and sizes aside)" diff "$T_TMP/o.txt" "$T_TMP/n.txt"
    done
    t_check "grow: .bss, the last PT_LOAD and the buffer symbol are the only header fields changed" \
        bash -c "diff <(readelf -lSW --dyn-syms '$X64/libxamarin-app.so') <(readelf -lSW --dyn-syms '$T_TMP/g/libxamarin-app.so') | grep '^>' | grep -vc -e ' .bss ' -e 'LOAD ' -e 'uncompressed_assemblies_data_buffer' | grep -qx 0"
    # a decoy (tests/lib/app_decoy.py): the section headers pointed at copies of .dynsym, .dynstr and
    # .rela.dyn appended past the end. glibc loads it as the original; the patch must land in the
    # tables the loader reads (PT_DYNAMIC's), where a section-header reader would move only the copy's
    # buffer symbol and let the runtime decompress past the real one
    $PY "$TOP/tests/lib/app_decoy.py" "$X64/libxamarin-app.so" "$T_TMP/decoy.so"
    t_check "decoy: glibc loads it as the original, every compressed entry of the store loads" \
        "$T_TMP/chk" "$T_TMP/libc.so" "$T_TMP/decoy.so" "$X64/assembly-store.so"
    mkdir -p "$T_TMP/gd"; ln -s "$X64/assembly-store.so" "$T_TMP/gd/assembly-store.so"
    "$T_TMP/chk" --grow "$T_TMP/decoy.so" 9 3300000 "$T_TMP/gd/libxamarin-app.so"
    "$ASMSTORE" repack "$T_TMP/gd/assembly-store.so" -o "$T_TMP/gd3.so" --replace Mono.Android.dll="$T_TMP/MA3M.dll" 2>/dev/null
    t_check "decoy grown: glibc loads the patched library, the 3.3 MB image decompresses inside the buffer it resolves" \
        "$T_TMP/chk" "$T_TMP/libc.so" "$T_TMP/gd/libxamarin-app.so" "$T_TMP/gd3.so"
    if command -v zip >/dev/null && command -v zipalign >/dev/null; then
        D=$T_TMP/dapk; mkdir -p "$D/lib/x86_64"
        cp "$A/lib/x86_64/libassembly-store.so" "$D/lib/x86_64/"
        cat "$T_TMP/decoy.so" >"$D/lib/x86_64/libxamarin-app.so"
        echo '<manifest/>' >"$D/AndroidManifest.xml"
        (cd "$D" && zip -q -X ../d0.apk AndroidManifest.xml lib/x86_64/libxamarin-app.so && zip -q -X -0 ../d0.apk lib/x86_64/libassembly-store.so)
        zipalign -f -p 4 "$T_TMP/d0.apk" "$T_TMP/decoy.apk"
        "$ASMSTORE" repack "$T_TMP/decoy.apk" -o "$T_TMP/decoy-out.apk" --replace Mono.Android.dll="$T_TMP/MA3M.dll" 2>/dev/null
        mkdir -p "$T_TMP/do"; (cd "$T_TMP/do" && unzip -q "$T_TMP/decoy-out.apk" lib/x86_64/libxamarin-app.so lib/x86_64/libassembly-store.so)
        t_check "decoy APK: repack grows Mono.Android, glibc loads the output's library, every entry decompresses inside its buffer" \
            "$T_TMP/chk" "$T_TMP/libc.so" "$T_TMP/do/lib/x86_64/libxamarin-app.so" "$T_TMP/do/lib/x86_64/libassembly-store.so"
    fi
    # the loader's buffer symbol shrunk to 1,000,000 bytes, its section-header copy still 1,836,544: info
    # must judge the table the loader uses (the runtime check shows it would write past the buffer)
    $PY "$TOP/tests/lib/app_decoy.py" "$X64/libxamarin-app.so" "$T_TMP/shrunk.so" --shrink uncompressed_assemblies_data_buffer=1000000
    "$T_TMP/chk" "$T_TMP/libc.so" "$T_TMP/shrunk.so" "$X64/assembly-store.so" >"$T_TMP/shrunk.log" 2>&1
    t_check "decoy with the loader's buffer shrunk: the runtime would decompress past it" \
        grep -q "decompresses past uncompressed_assemblies_data_buffer's 1000000 bytes" "$T_TMP/shrunk.log"
    "$ASMSTORE" info --app "$T_TMP/shrunk.so" "$X64/assembly-store.so" >"$T_TMP/shrunk-info" 2>&1
    t_check "decoy with the loader's buffer shrunk: info says the store disagrees, never \"agrees\"" \
        bash -c "grep -q 'app table: *disagrees with the store' '$T_TMP/shrunk-info' && ! grep -qw agrees '$T_TMP/shrunk-info'"
    # arm64, by parsing: the same patch, info --app says the new store agrees
    t_check "grow arm64: descriptor 9 patched" "$T_TMP/chk" --grow "$V3/arm64-v8a/libxamarin-app.so" 9 3300000 "$T_TMP/arm64-app.so"
    mkdir -p "$T_TMP/g64"; ln -s "$V3/arm64-v8a/assembly-store.so" "$T_TMP/g64/assembly-store.so"; cp "$T_TMP/arm64-app.so" "$T_TMP/g64/libxamarin-app.so"
    "$ASMSTORE" repack "$T_TMP/g64/assembly-store.so" -o "$T_TMP/g64.so" --replace Mono.Android.dll="$T_TMP/MA3M.dll" 2>/dev/null
    t_check "grow arm64: the repacked store agrees with the patched library, not with the original" \
        bash -c "'$ASMSTORE' info --app '$T_TMP/arm64-app.so' '$T_TMP/g64.so' | grep -q 'agrees with the store' && '$ASMSTORE' info --app '$V3/arm64-v8a/libxamarin-app.so' '$T_TMP/g64.so' | grep -q 'entry 7 Mono.Android.dll: 3300000 bytes uncompressed, descriptor 9 holds 306688'"
    # .NET 8 (arm64, by parsing): Mono.Android's own region, its relocation retargeted
    mkdir -p "$T_TMP/g8"
    for f in "$RAZR"/*.blob "$RAZR"/*.manifest; do ln -s "$f" "$T_TMP/g8/"; done
    t_check "grow .NET 8: descriptor 2 patched to 400,000 bytes" "$T_TMP/chk" --grow "$RAZR/libxamarin-app.so" 2 400000 "$T_TMP/g8/libxamarin-app.so"
    t_pe --fill "Mono.Android grown " "$T_TMP/MA400.dll" 400000
    "$ASMSTORE" repack "$T_TMP/g8" -o "$T_TMP/g8-out" --replace Mono.Android.dll="$T_TMP/MA400.dll" 2>"$T_TMP/g8.log"
    t_check "grow .NET 8: repack beside the patched library keeps 400,000 bytes XALZ with index 2" \
        grep -q "descriptor index 2 kept (400000 bytes uncompressed, 400000 reserved" "$T_TMP/g8.log"
    t_check "grow .NET 8: both stores agree with the patched library, not with the original" \
        bash -c "[ \$('$ASMSTORE' info --app '$T_TMP/g8/libxamarin-app.so' '$T_TMP/g8-out' | grep -c 'agrees with the store') = 2 ] && '$ASMSTORE' info --app '$RAZR/libxamarin-app.so' '$T_TMP/g8-out' | grep -q 'Mono.Android.dll: 400000 bytes uncompressed, descriptor 2 holds 363008'"
    for tool in "readelf -lSW --dyn-syms -r" "eu-elflint --gnu-ld"; do
        command -v ${tool%% *} >/dev/null || continue
        t_check "grow .NET 8: ${tool%% *} reports nothing new against the original (addresses, sizes, addends aside)" \
            bash -c "diff <($tool '$RAZR/libxamarin-app.so' 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{5,\}//g') <($tool '$T_TMP/g8/libxamarin-app.so' 2>&1 | sed 's/0x[0-9a-f]*\|[0-9a-f]\{5,\}//g')"
    done
else
    t_skip "the runtime's checks under glibc's loader" "not an x86_64 host, or cc/liblz4/libzstd missing: $(head -c 300 "$T_TMP/cc.log")"
fi
# ---- an app library that is there but cannot be read is named with the real error, never "none
# found" (a directory or a FIFO in its place: tests may run as root, where chmod 000 reads anyway) ----
for kind in dir fifo; do
    D=$T_TMP/unreadable-$kind; mkdir -p "$D"; ln -sf "$V3/x86_64/assembly-store.so" "$D/"
    if [ $kind = dir ]; then mkdir -p "$D/libxamarin-app.so"; why="Is a directory; give a file, not a directory"
    else mkfifo "$D/libxamarin-app.so"; why="it is a pipe, socket or device: give a regular file"; fi
    timeout 20 "$ASMSTORE" info "$D/assembly-store.so" >"$T_TMP/unr.out" 2>"$T_TMP/unr.err"; rc=$?
    t_check "a $kind as libxamarin-app.so: info exits 2 naming the library's path and why" bash -c \
        "[ $rc = 2 ] && grep -q '$D/libxamarin-app.so: cannot read the app library: .*$why' '$T_TMP/unr.err' || { cat '$T_TMP/unr.err'; false; }"
    t_check "a $kind as libxamarin-app.so: info's report says it cannot be read, not none found" bash -c \
        "grep -q 'app library: *$D/libxamarin-app.so: cannot read it' '$T_TMP/unr.out' && ! grep -q 'none found' '$T_TMP/unr.out'"
done
# in an APK, an entry no reader takes (bzip2, method 12)
$PY - "$V3/x86_64" "$T_TMP/bz.apk" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w") as z:
    z.writestr("AndroidManifest.xml", b"x" * 100)
    z.write(sys.argv[1] + "/libxamarin-app.so", "lib/x86_64/libxamarin-app.so", compress_type=zipfile.ZIP_BZIP2)
    z.write(sys.argv[1] + "/assembly-store.so", "lib/x86_64/libassembly-store.so", compress_type=zipfile.ZIP_STORED)
EOF
"$ASMSTORE" info "$T_TMP/bz.apk" >"$T_TMP/bz.out" 2>&1
t_check "APK with a bzip2 libxamarin-app.so: info says it cannot read it, not none found" bash -c \
    "grep -q 'app library: *lib/x86_64/libxamarin-app.so: cannot read it: archive entry is compressed' '$T_TMP/bz.out' && ! grep -q 'none found' '$T_TMP/bz.out'"
t_done
