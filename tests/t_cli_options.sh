#!/usr/bin/env bash
# tests/t_cli_options.sh - the CLI as a tool: one option parser for every command (--opt=value,
# -oVALUE, --, operands between options, -o/--output and -C/--directory, --help and unknown
# options everywhere), help CMD, pack's checks before any work, list's header, singular and
# plural, extract of a missing name, an unchanged repack, the man page and the bash completion
# written from the command table.
. "$(dirname "$0")/lib/lib.sh"
cd "$T_TMP" || exit 1
A=$ASMSTORE
commands=$("$A" --help | sed -n 's/^  asmstore \([a-z]*\).*/\1/p' | sort -u)

# --- every command: --help and -h (exit 0, stdout), help CMD the same, an example; unknown options
bad=; bad_help=; bad_unknown=
for c in $commands; do
  "$A" $c --help >h1 2>e1; r1=$?; "$A" $c -h >h2 2>/dev/null; r2=$?; "$A" help $c >h3 2>/dev/null; r3=$?
  { [ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 0 ] && [ ! -s e1 ] && cmp -s h1 h2 && cmp -s h1 h3; } || bad="$bad $c"
  grep -q "^Example: asmstore $c " h1 && grep -q '^  -h, --help' h1 || bad_help="$bad_help $c"
  "$A" $c --frobnicate x >/dev/null 2>e; r=$?
  { [ $r = 2 ] && [ "$(cat e)" = "asmstore $c: unknown option --frobnicate (asmstore $c --help lists them)" ]; } ||
    bad_unknown="$bad_unknown $c:$r:$(cat e)"
done
t_check "every command: --help = -h = 'asmstore help CMD', exit 0 on stdout${bad:+ (not:$bad)}" test -z "$bad"
t_check "every command's help lists its options and one example${bad_help:+ (not:$bad_help)}" test -z "$bad_help"
t_check "every command: an unknown option is named, exit 2${bad_unknown:+ ($bad_unknown)}" test -z "$bad_unknown"
"$A" help frobnicate >/dev/null 2>e; t_check "help of an unknown command exits 2, lists the commands" sh -c "[ $? = 2 ] && grep -q 'Commands: pack' e"
"$A" pack -o 2>e; r=$?
t_check "a missing value names the option (exit 2)" sh -c "[ $r = 2 ] && grep -q 'option -o needs a value, OUT' e"
"$A" pack --arch arm64 2>e; r=$?
t_check "--arch ABI FILE: a missing second value is named" sh -c "[ $r = 2 ] && grep -q 'option --arch needs two values, ABI FILE|DIR' e"
"$A" list --json=yes x 2>e; r=$?
t_check "a flag given a value is refused (exit 2)" sh -c "[ $r = 2 ] && grep -q 'option --json takes no value' e"
"$A" list --jso x 2>e; r=$?
t_check "no abbreviations: --jso is unknown" sh -c "[ $r = 2 ] && grep -q 'unknown option --jso' e"

# --- the spellings of one command line give the same bytes
mkdir in && t_pe in/Foo.dll 3000 in/Bar.dll 2000 in/-dash.dll 1000
ok=1
"$A" pack --raw -o s0 in/Foo.dll in/Bar.dll 2>/dev/null || ok=0
for form in "-o s1 --raw in/Foo.dll in/Bar.dll" "--raw -os2 in/Foo.dll in/Bar.dll" "in/Foo.dll --output=s3 --raw in/Bar.dll" \
            "--raw in/Foo.dll --output s4 -- in/Bar.dll"; do
  # shellcheck disable=SC2086
  "$A" pack $form 2>/dev/null || ok=0
done
for n in 1 2 3 4; do cmp -s s0 s$n || ok=0; done
t_check "pack: -o OUT, -oOUT, --output=OUT, --output OUT, operands between options and after -- all give the same store" test $ok = 1
cd in && "$A" pack --raw -o ../sd -- -dash.dll Foo.dll 2>/dev/null; r=$?; cd ..
t_check "pack -- -dash.dll: an operand that starts with '-' after --" sh -c "[ $r = 0 ] && '$A' list sd | grep -q ' -dash.dll$'"
"$A" list s0 --abi=arm64 >l1 2>&1 && "$A" list --abi arm64 s0 >l2 2>&1
t_check "list --abi=A = list --abi A, before or after STORE" cmp l1 l2
rm -rf x1 x2 x3
"$A" extract s0 -C x1 Foo >/dev/null && "$A" extract --directory=x2 s0 Foo >/dev/null && "$A" extract -Cx3 s0 Foo >/dev/null
t_check "extract -C DIR = --directory=DIR = -CDIR" sh -c "cmp x1/Foo.dll in/Foo.dll && cmp x2/Foo.dll in/Foo.dll && cmp x3/Foo.dll in/Foo.dll"
"$A" repack s0 --output=r1 --replace=Foo.dll=in/Bar.dll 2>/dev/null && "$A" extract r1 -C xr Foo >/dev/null 2>&1
t_check "repack --output=OUT --replace=NAME=FILE" cmp xr/Foo.dll in/Bar.dll

# --- pack checks where it writes and what it reads before any work
"$A" pack --raw -o missing-dir/x.so in/Foo.dll 2>e; r=$?
t_check "pack -o missing-dir/x.so: exit 2 before any work, naming the directory" \
  sh -c "[ $r = 2 ] && grep -q 'the directory missing-dir is not there' e && ! grep -q 'entr' e && [ ! -e missing-dir ]"
"$A" pack --raw -o missing-dir/ in/Foo.dll 2>e; r=$?
t_check "pack -o missing-dir/: the same" sh -c "[ $r = 2 ] && grep -q 'the directory missing-dir/ is not there' e"
echo 'a text file' >SOURCES
"$A" pack --raw -o t.bin in/Foo.dll SOURCES 2>e; r=$?
t_check "pack of a text file: exit 1 naming it, nothing written (no SOURCES entry invented)" \
  sh -c "[ $r = 1 ] && [ ! -e t.bin ] && grep -q 'SOURCES (SOURCES): not a .NET assembly' e"
mkdir pdb && t_pe pdb/App.dll 1500 && echo 'not a pdb' >pdb/App.pdb
"$A" pack --raw --pdb -o p.bin pdb 2>e; r=$?
t_check "pack --pdb: a companion that is no PDB -> exit 1 naming it, nothing written" \
  sh -c "[ $r = 1 ] && [ ! -e p.bin ] && grep -q 'App.dll (pdb/App.dll, its .pdb): not a PDB' e"
t_pe --pdb pdb/App.pdb 800
t_check "pack --pdb with a real Portable PDB beside it: ok" sh -c "'$A' pack --raw --pdb -o p.bin pdb 2>/dev/null && '$A' list p.bin | grep -q '+pdb'"

# --- list's header; singular and plural
mkdir one && t_pe one/One.dll 1200
"$A" pack --raw -o one.bin one 2>pe
"$A" list one.bin >l
t_check "list: a header line names the columns" sh -c "[ \"\$(head -1 l)\" = 'index       size     stored comp name' ] && [ \$(wc -l <l) = 2 ]"
"$A" list --json one.bin | python3 -c 'import json,sys; assert len(json.load(sys.stdin)["stores"][0]["entries"]) == 1' 2>/dev/null
t_check "list --json: no header in it" test $? = 0
"$A" verify one.bin >v
t_check "one entry: '1 entry' in verify and pack, never '1 entries'" \
  sh -c "grep -q 'ok, 1 entry\$' v && grep -q ': 1 entry, ' pe && ! grep -q '1 entries' v pe"
"$A" verify s0 >v
t_check "two entries: '2 entries'" grep -q 'ok, 2 entries$' v
"$A" diff one.bin one.bin >d
t_check "diff of one store of one entry: '1 store, 1 entry'" grep -q '^same: one.bin and one.bin hold the same 1 store, 1 entry$' d

# --- extract of a name that is not there creates no directory
"$A" extract s0 -C nodir NoSuch.dll >/dev/null 2>e; r=$?
t_check "extract of a missing name: exit 1, names it, no -C directory created" \
  sh -c "[ $r = 1 ] && grep -q 'no entry named NoSuch.dll' e && [ ! -e nodir ]"
"$A" extract s0 -C somedir NoSuch.dll Foo >/dev/null 2>e; r=$?
t_check "extract of a missing and a present name: the present one written, exit 1" sh -c "[ $r = 1 ] && cmp somedir/Foo.dll in/Foo.dll"

# --- an unchanged repack says so
"$A" repack s0 -o u.bin 2>e; r=$?
t_check "repack without changes: says unchanged, not written" sh -c "[ $r = 0 ] && grep -q '^u.bin: unchanged' e && ! grep -q 'written' e"
"$A" repack s0 -o c.bin --remove Bar 2>e
t_check "repack with a change: says written" grep -q '^c.bin: written' e

# --- no message cites a document users lack: every docs/X.md the binary names is in the tree
bad=
for d in $(strings "$A" | grep -o '[a-z_-]*\.md' | sort -u); do
  case $d in README.md|CHANGELOG.md) continue ;; esac
  strings "$A" | grep -q "docs/$d" && [ -f "$TOP/docs/$d" ] || bad="$bad $d"
done
strings "$A" | grep -q 'shared/reference\|\.\./shared' && bad="$bad ../shared"
t_check "messages cite only the project's own docs/ files${bad:+ (not:$bad)}" test -z "$bad"

# --- the man page and the bash completion, both from the command table
"$A" --man >asmstore.1
bad=
for c in $commands; do grep -q "^\.SS $c\$" asmstore.1 || bad="$bad $c"; done
t_check "asmstore --man: a section per command${bad:+ (missing:$bad)}" test -z "$bad"
if command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww -z asmstore.1 >gw 2>&1
  t_check "groff renders asmstore.1 without a warning" sh -c "[ ! -s gw ]"
else t_skip "groff" "not installed (apt-get install groff)"; fi
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l asmstore.1 >man.txt 2>man.err
  t_check "man -l asmstore.1 shows every command's example" sh -c "[ ! -s man.err ] && [ \$(grep -c 'asmstore [a-z]* ' man.txt) -gt 20 ] && grep -q 'asmstore pack -o out/' man.txt"
else t_skip "man -l" "man not installed"; fi
"$A" --completion bash >asmstore.bash
complete_() { bash -c 'source ./asmstore.bash; COMP_WORDS=('"$1"'); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _asmstore; echo "${COMPREPLY[*]}"'; }
t_check "completion: 'asmstore pa' -> pack" test "$(complete_ 'asmstore pa')" = pack
t_check "completion: 'asmstore pack --ta' -> --target" test "$(complete_ 'asmstore pack --ta')" = --target
t_check "completion: 'asmstore pack --target net1' -> its choices" test "$(complete_ 'asmstore pack --target net1')" = "net10 net11 net11-preview net12"
t_check "completion: 'asmstore extract x --d' -> --directory" test "$(complete_ 'asmstore extract x --d')" = --directory
t_check "completion: 'asmstore help ex' -> extract" test "$(complete_ 'asmstore help ex')" = extract
t_check "completion: 'asmstore load --dl' -> --dlopen" test "$(complete_ 'asmstore load --dl')" = --dlopen
t_check "asmstore --man and load --help: --dlopen runs the system's loader, only for files you trust" \
  sh -c "grep -q 'dlopen.*runs your system.s loader over the file: only for files you trust' asmstore.1 &&
         '$A' load --help | grep -q 'runs your system.s loader over the file: only for files you trust'"
t_check "completion: 'asmstore list one.b' -> the file" test "$(complete_ 'asmstore list one.b')" = one.bin
t_done
