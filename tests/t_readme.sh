#!/usr/bin/env bash
# tests/t_readme.sh - README.md's "Inspect a real app" and "Repack an app" walk-throughs, run as
# written where a fresh clone runs them: a directory holding only build/ (no ../shared beside it,
# which users do not have), their /tmp directories moved into T_TMP. Each comment's claim is checked
# on the output. (t_cli_sign.sh, t_cli_unpack.sh and t_cli_diff.sh run the Signing, Unpack and
# Compare blocks.)
. "$(dirname "$0")/lib/lib.sh"
T=$T_TMP
NEW=/usr/lib/mono/4.5-api/Facades/System.Runtime.dll # the blocks' "your build"

# readme_block FROM TO OUT: the first ```sh block between the headings "## FROM" and "## TO"
readme_block() {
    sed -n "/^## $1/,/^## $2/p" "$TOP/README.md" |
        awk '/^```sh/{g=1; next} g&&/^```/{exit} g' >"$3"
}

# run_block NAME FILE: FILE holds a block naming no file a user lacks; it runs in the clone
run_block() {
    if ! [ -s "$2" ]; then
        t_fail "$1: no sh block found in README.md"
        return 1
    fi
    if grep -q '\.\./shared\|assembly-store-samples' "$2"; then
        t_fail "$1: names ../shared" "$(cat "$2")"
        return 1
    fi
    if (cd "$T/clone" && bash -e "$2") >"$2.log" 2>&1; then
        t_ok "$1: runs as written in a fresh clone"
        return 0
    fi
    t_fail "$1: runs as written in a fresh clone" "$(tail -20 "$2.log")"
    return 1
}

if ! command -v zip >/dev/null || ! [ -d "$MONO45/Facades" ] || ! [ -e "$NEW" ]; then
    t_skip "README walk-throughs" "zip or mono-devel's assemblies absent"; t_done; exit; fi
mkdir -p "$T/clone" && ln -s "$BUILD" "$T/clone/build"

# ---- Inspect a real app ----
readme_block "Inspect a real app" "Repack an app" "$T/inspect.sh"
sed -i "s|D=/tmp/inspecting|D=$T/inspecting|" "$T/inspect.sh"
if run_block "Inspect" "$T/inspect.sh"; then
    L=$T/inspect.sh.log
    t_check "Inspect: info says format 3, XXH3-64, the .NET 10 layout" \
        grep -q '^layout: *format 3, XXH3-64 index.*the .NET 10 layout' "$L"
    t_check "Inspect: verify checked the APK's store" grep -q 'app.apk: ok, 134 entries$' "$L"
    t_check "Inspect: list shows both .blob files, names from the manifest" bash -c \
        "grep -q '^# assemblies.blob ' '$L' && grep -q '^# assemblies.arm64_v8a.blob ' '$L' &&
         grep -q ' Accessibility.dll$' '$L' && grep -q ' System.Runtime.dll$' '$L'"
    t_check "Inspect: extract wrote System.Runtime.dll as packed" bash -c "cmp \
        '$MONO45/Facades/System.Runtime.dll' \$(find '$T/inspecting/out' -name System.Runtime.dll)"
fi

# ---- Repack an app (its `make` left out: the suite runs after make; the clone has no Makefile) ----
readme_block "Repack an app" "Unpack to a folder" "$T/repack.sh"
sed -i -e "s|D=/tmp/repacking|D=$T/repacking|" -e '/^make /d' "$T/repack.sh"
if run_block "Repack" "$T/repack.sh"; then
    L=$T/repack.sh.log R=$T/repacking
    t_check "Repack 1: nothing changed gives the same bytes" grep -qx identical "$L"
    t_check "Repack 2: System.Runtime.dll compressed again, its index kept; extract gives it" bash -c \
        "grep -q '^System.Runtime.dll (arm64-v8a): replaced, XALZ.*descriptor index [0-9]* kept' '$L' &&
         cmp '$NEW' '$R/new/System.Runtime.dll'"
    t_check "Repack 3: the .NET 8 set written as a directory holding the new build" bash -c \
        "[ -s '$R/set-new/assemblies.manifest' ] && '$ASMSTORE' verify '$R/set-new' >/dev/null &&
         '$ASMSTORE' extract '$R/set-new' -C '$R/set-x' System.Runtime >/dev/null &&
         cmp '$NEW' \$(find '$R/set-x' -type f)"
    t_check "Repack 4: the APK is whole, its store 16 KiB-aligned and holding the new build" bash -c \
        "unzip -tq '$R/app-new.apk' &&
         '$ASMSTORE' info '$R/app-new.apk' | grep -q '(16384-byte aligned), STORED' &&
         '$ASMSTORE' extract '$R/app-new.apk' -C '$R/apk-x' System.Runtime >/dev/null &&
         cmp '$NEW' \$(find '$R/apk-x' -type f)"
fi
t_done
