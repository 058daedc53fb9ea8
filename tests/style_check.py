#!/usr/bin/env python3
"""The project's written rules for its C sources, checked: function length, line width, statements
per line, one banner style, and no circle among the files that include each other.

    python3 tests/style_check.py [--report] [FILE...]

With no FILE: the two headers, tools/ and examples/. Exit 0 when every rule holds, 1 otherwise (each breach
is printed as FILE:LINE: what). --report also prints the density figures per file."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FUNCTION_LINES = 60
WIDTH_SOFT = 100          # under 1 % of a file's lines may pass this
WIDTH_HARD = 120          # no line may pass this
SOFT_SHARE = 0.01
MAX_STATEMENTS = 2        # a line with three statements is a breach
BANNER = re.compile(r"^/\* >>[a-z0-9][a-z0-9 :,()./_+-]*[a-z0-9)]( -+)? \*/$")
BANNER_LIKE = re.compile(r"^/\*\s*(>>|={3,}|-{3,}|\*{3,})")




def default_files():
    files = [os.path.join(ROOT, "asmstore.h"), os.path.join(ROOT, "asmstore_cache.h")]
    for top in ("tools", "examples"):
        d = os.path.join(ROOT, top)
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h")):
                files.append(os.path.join(d, name))
    return files


def strip_code(line, in_comment):
    """The line with comments and string/char literals blanked; whether a comment is still open."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if in_comment:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i = end + 2
            in_comment = False
            continue
        c = line[i]
        if line.startswith("/*", i):
            in_comment = True
            i += 2
            continue
        if line.startswith("//", i):
            break
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), in_comment


def statements(code):
    """Semicolons outside parentheses (a for header counts once) plus bare `if (...) x;` bodies."""
    depth = 0
    count = 0
    for c in code:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == ";" and depth == 0:
            count += 1
    if code.lstrip().startswith("for") and count == 0 and ";" in code:
        count = 1
    return count


def is_linkage_brace(codes, i):
    """The `extern "C" {` of a C++ guard, or its closing `}` right after `#ifdef __cplusplus`."""
    stripped = codes[i].strip()
    if re.match(r'extern\s*""\s*\{$', stripped):
        return True
    return stripped == "}" and i > 0 and codes[i - 1].strip().startswith("#ifdef __cplusplus")


def function_spans(codes):
    """(first line, last line) of every function body: a line that opens a brace at depth 0 after a
    parameter list, up to the brace that closes it."""
    spans = []
    depth = 0
    start = None
    for i, code in enumerate(codes):
        stripped = code.strip()
        if is_linkage_brace(codes, i):
            continue
        if depth == 0 and "{" in code and start is None:
            head = " ".join(c.strip() for c in codes[max(0, i - 6):i + 1])
            tail = head[:head.rfind("{")]
            is_decl = re.search(r"\b(struct|union|enum)\b[^()]*$", tail) or "=" in tail.split(")")[-1]
            if tail.rstrip().endswith(")") and not is_decl and not stripped.startswith(("#", "extern")):
                start = i
        for c in code:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
        if start is not None and depth == 0:
            spans.append((start, i))
            start = None
    return spans


def check_file(path, report):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rel = os.path.relpath(path, ROOT)
    breaches = []
    codes = []
    in_comment = False
    wide = 0
    for no, line in enumerate(lines, 1):
        code, in_comment = strip_code(line, in_comment)
        codes.append(code)
        if len(line) > WIDTH_HARD:
            breaches.append(f"{rel}:{no}: {len(line)} columns (at most {WIDTH_HARD})")
        if len(line) > WIDTH_SOFT:
            wide += 1
        if statements(code) > MAX_STATEMENTS:
            breaches.append(f"{rel}:{no}: {statements(code)} statements on one line")
        if BANNER_LIKE.match(line) and not BANNER.match(line):
            breaches.append(f"{rel}:{no}: banner not in the one style `/* >>name ---- */`")
    if lines and wide > SOFT_SHARE * len(lines):
        breaches.append(f"{rel}: {wide} of {len(lines)} lines past {WIDTH_SOFT} columns "
                        f"(at most {SOFT_SHARE:.0%})")
    for first, last in function_spans(codes):
        length = last - first + 1
        if length > MAX_FUNCTION_LINES:
            breaches.append(f"{rel}:{first + 1}: function of {length} lines (at most {MAX_FUNCTION_LINES})")
    if report:
        nonblank = [ln for ln in lines if ln.strip()]
        chars = sum(len(ln.strip()) for ln in nonblank) / max(1, len(nonblank))
        blank = 1 - len(nonblank) / max(1, len(lines))
        print(f"{rel}: {len(lines)} lines, {chars:.0f} chars per non-blank line, {blank:.1%} blank, "
              f"{wide / max(1, len(lines)):.1%} past {WIDTH_SOFT}")
    return breaches


def include_graph():
    """Which project file includes which (quoted includes only), over every C source and header."""
    graph = {}
    for top in ("", "tools", "examples", "tests", "tests/bench", "fuzz"):
        d = os.path.join(ROOT, top)
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(d, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                found = re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M)
            deps = set()
            for inc in found:
                target = os.path.normpath(os.path.join(d, inc))
                if os.path.exists(target):
                    deps.add(os.path.relpath(target, ROOT))
            graph[os.path.relpath(path, ROOT)] = deps
    return graph


def include_circles(graph):
    breaches = []
    state = {}

    def visit(node, trail):
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycle = trail[trail.index(dep):] + [dep] if dep in trail else [node, dep]
                breaches.append("include circle: " + " -> ".join(cycle))
            elif dep not in state:
                visit(dep, trail + [dep])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return breaches


def main(argv):
    report = "--report" in argv
    files = [a for a in argv if not a.startswith("--")] or default_files()
    breaches = []
    for path in files:
        breaches += check_file(path, report)
    breaches += include_circles(include_graph())
    for b in breaches:
        print(b)
    print(f"style: {len(breaches)} breaches in {len(files)} files")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
