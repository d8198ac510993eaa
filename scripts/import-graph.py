#!/usr/bin/env python3
"""File-level import graph of a Rust crate's sources, and the cycles in it.

Usage: scripts/import-graph.py [SRC_DIR] [--under DIR] [--with-tests] [--edges]

Without SRC_DIR, the `src` of each crate that was once the runtime (mcs-core, mcs-extract,
mcs-hybrid, mcs-rest, mcs-openapi, mcs-llm, mcs-orchestrator, mcs-http), and of mcs-policy
and mcs-cli, is checked in turn, and the exit status is 1 if any has a cycle. Every `.rs` file is one node. An edge A -> B means
code in A names something that lives in B:

- a `use` statement (`use crate::…`, `use super::…`, `use self::…`, or a path that
  starts with a child module of A's module), each name of a `{…}` group on its own;
- a qualified path anywhere else in the code (`super::scan::floor_boundary(…)`,
  `crate::types::Tool`), and a path through a child module (`native::read(…)` in the
  `mod.rs` that declares `mod native;`).

A name resolves to the deepest module file that holds it: `super::Cx` is the parent's
file, `super::scan::skip_ws` is `scan.rs`. Declaring a child module (`mod scan;`) is not
an edge: a parent that declares its children does not depend on them until it uses them.
Paths to other crates (`serde_json::…`, `std::…`) are not edges. Comments, strings and
character literals are skipped. Code in `#[cfg(test)]` modules is left out unless
`--with-tests` is given: tests may call the module's own entry point without the
production code depending on it.

Prints every cycle (each strongly connected component of more than one file, with one
cycle through it and the line of each edge) and exits 1 if there is one; exits 0 and says
so otherwise. `--under DIR` reports only the components whose files all lie under DIR
(relative to SRC_DIR, e.g. `extract`). `--edges` also prints every edge.
"""

import argparse
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_code(text):
    """`text` with comments, strings and character literals blanked (newlines kept), so
    line numbers stay and no path inside them is taken for code."""
    out = []
    i, n = 0, len(text)

    def blank(chunk):
        return "".join("\n" if c == "\n" else " " for c in chunk)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif re.match(r'b?r(#*)"', text[i:i + 260]) and (i == 0 or not re.match(r"[A-Za-z0-9_]", text[i - 1])):
            m = re.match(r'b?r(#*)"', text[i:])
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and (i == 0 or not re.match(r"[A-Za-z0-9_]", text[i - 1]))):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(blank(text[i:j]))
            i = j
        elif c == "'":
            # A character literal ('x', '\n', '\u{1F600}') or a lifetime ('a).
            m = re.match(r"'(\\(u\{[0-9A-Fa-f]+\}|x[0-9A-Fa-f]{2}|.)|[^\\'])'", text[i:i + 16], re.S)
            if m:
                out.append(blank(m.group(0)))
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_path(src, path):
    """The module path of a source file: `extract/scan.rs` -> ('extract', 'scan')."""
    rel = os.path.relpath(path, src)
    parts = rel[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def use_paths(tree):
    """The full paths a `use` tree names: `a::{b, c::{d, self}}` -> a::b, a::c::d, a::c."""
    tree = re.sub(r"\s+", "", tree)
    tree = re.sub(r"\bas" + IDENT, "", tree)  # `x as y`, after blank removal
    results = []

    def expand(prefix, t):
        # Split `t` at top-level commas.
        depth, start, parts = 0, 0, []
        for k, ch in enumerate(t):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(t[start:k])
                start = k + 1
        parts.append(t[start:])
        for part in parts:
            if not part:
                continue
            brace = part.find("{")
            if brace >= 0:
                head = part[:brace].rstrip(":")
                inner = part[brace + 1:part.rfind("}")]
                expand(prefix + ([s for s in head.split("::") if s]), inner)
            else:
                segs = [s for s in part.split("::") if s]
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                results.append(prefix + segs)

    expand([], tree)
    return results


class Graph:
    def __init__(self, src, with_tests):
        self.src = src
        self.with_tests = with_tests
        self.files = {}  # module path -> file (relative to src)
        self.children = {}  # module path -> set of child names declared with `mod x;`
        self.edges = {}  # (from, to) -> first line
        for root, _, names in os.walk(src):
            for name in sorted(names):
                if name.endswith(".rs"):
                    path = os.path.join(root, name)
                    self.files[module_path(src, path)] = os.path.relpath(path, src)
        self.texts = {}
        for mod, rel in self.files.items():
            with open(os.path.join(src, rel), encoding="utf-8") as f:
                self.texts[mod] = strip_code(f.read())
            self.children[mod] = set(re.findall(r"\bmod\s+(" + IDENT + r")\s*;", self.texts[mod]))

    def resolve(self, current, segs):
        """The file module holding the absolute path that `segs` spells in `current` (an
        inline-aware module path), or None for other crates."""
        if not segs:
            return None
        head = segs[0]
        if head == "crate":
            absolute = list(segs[1:])
        elif head in ("super", "self"):
            base = list(current)
            k = 0
            while k < len(segs) and segs[k] in ("super", "self"):
                if segs[k] == "super":
                    if not base:
                        return None
                    base.pop()
                k += 1
            absolute = base + list(segs[k:])
        else:
            file_mod = self.file_module(current)
            if head in self.children.get(file_mod, ()) and tuple(current) == file_mod:
                absolute = list(current) + list(segs)
            else:
                return None
        for k in range(len(absolute), -1, -1):
            if tuple(absolute[:k]) in self.files:
                return tuple(absolute[:k])
        return None

    def file_module(self, mod):
        mod = tuple(mod)
        while mod not in self.files and mod:
            mod = mod[:-1]
        return mod

    def scan(self):
        for mod, text in self.texts.items():
            self.scan_file(mod, text)

    def scan_file(self, mod, text):
        # Inline modules: (name, brace depth at which it closes, is test).
        stack = []
        depth = 0
        line = 1
        i, n = 0, len(text)
        pending_test = False
        token = re.compile(
            r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]"
            r"|\bmod\s+(?P<inline>" + IDENT + r")\s*\{"
            r"|\buse\s+(?P<use>[^;]*);"
            r"|(?<![A-Za-z0-9_:])(?P<path>(?:" + IDENT + r")(?:\s*::\s*" + IDENT + r")+)"
            r"|[{}\n]"
        )
        while i < n:
            m = token.search(text, i)
            if not m:
                break
            line += text.count("\n", i, m.start())
            tok = m.group(0)
            i = m.end()
            in_test = any(t for _, _, t in stack)
            current = list(mod) + [name for name, _, _ in stack]
            if tok.startswith("#"):
                pending_test = True
            elif m.group("inline"):
                depth += 1
                stack.append((m.group("inline"), depth, pending_test))
                pending_test = False
            elif m.group("use") is not None:
                if not (in_test and not self.with_tests):
                    for segs in use_paths(m.group("use")):
                        self.add(mod, current, segs, line)
                line += tok.count("\n")
                pending_test = False
            elif m.group("path"):
                if not (in_test and not self.with_tests):
                    segs = [s.strip() for s in m.group("path").split("::")]
                    self.add(mod, current, segs, line)
                line += tok.count("\n")
            elif tok == "{":
                depth += 1
                pending_test = False
            elif tok == "}":
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1
                pending_test = False
            elif tok == "\n":
                line += 1

    def add(self, mod, current, segs, line):
        target = self.resolve(current, segs)
        if target is None or target == mod:
            return
        self.edges.setdefault((mod, target), line)


def components(nodes, edges):
    """Strongly connected components (Tarjan), iteratively."""
    succ = {v: [] for v in nodes}
    for a, b in edges:
        succ[a].append(b)
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            if k < len(succ[v]):
                work.append((v, k + 1))
                w = succ[v][k]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            for w in succ[v]:
                if w in on:
                    low[v] = min(low[v], low[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def a_cycle(comp, edges):
    """One cycle through the first node of `comp`, as a list of nodes."""
    members = set(comp)
    start = min(comp)
    succ = {}
    for a, b in edges:
        if a in members and b in members:
            succ.setdefault(a, []).append(b)
    # Breadth-first from start back to start.
    prev = {}
    frontier = [start]
    seen = {start}
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(succ.get(v, [])):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return [start] + list(reversed(path[:-1])) + [start] if len(path) > 1 else [start, start]
                if w not in seen:
                    seen.add(w)
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return [start]


RUNTIME_CRATES = [
    "mcs-core",
    "mcs-extract",
    "mcs-hybrid",
    "mcs-rest",
    "mcs-openapi",
    "mcs-llm",
    "mcs-orchestrator",
    "mcs-policy",
    "mcs-http",
    "mcs-cli",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("src", nargs="?", default=None)
    parser.add_argument("--under", default=None)
    parser.add_argument("--with-tests", action="store_true")
    parser.add_argument("--edges", action="store_true")
    args = parser.parse_args()
    if args.src:
        return check(os.path.normpath(args.src), args)
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    crates = [os.path.join(root, crate, "src") for crate in RUNTIME_CRATES]
    return max(check(src, args) for src in crates)


def check(src, args):
    graph = Graph(src, args.with_tests)
    graph.scan()
    name = graph.files.get
    nodes = sorted(graph.files)
    if args.edges:
        for (a, b), line in sorted(graph.edges.items()):
            print(f"{name(a)}:{line} -> {name(b)}")
    under = None
    if args.under:
        under = os.path.normpath(args.under).rstrip(os.sep) + os.sep
    cycles = []
    for comp in components(nodes, graph.edges):
        if len(comp) < 2:
            continue
        files = sorted(name(m) for m in comp)
        if under and not all(f.startswith(under) for f in files):
            continue
        cycles.append((files, a_cycle(comp, graph.edges)))
    scope = f"{src}" + (f" (under {args.under})" if args.under else "")
    print(f"{len(nodes)} files, {len(graph.edges)} import edges in {scope}")
    if not cycles:
        print("no import cycles")
        return 0
    for files, cycle in sorted(cycles):
        print(f"cycle between {len(files)} files: {', '.join(files)}")
        for a, b in zip(cycle, cycle[1:]):
            print(f"  {name(a)}:{graph.edges[(a, b)]} -> {name(b)}")
    print(f"{len(cycles)} cycle(s)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
