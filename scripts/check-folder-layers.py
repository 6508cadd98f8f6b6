#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Folders depend only downwards: within ui/ and core/, the folders (and the files at the top level,
taken as one more folder) must not include each other in a circle. A folder that includes a sibling
which includes it back (charts -> compare -> charts) cannot be read, built or tested on its own, and
that is what a newcomer trips over first (DESIGN.md section 8, "Layout shows the architecture").
ui/'s top level also holds at most a handful of source files: what ties the window together goes
there, everything else into a folder that names it. And a few headers are private to the files named
beside them: in ui/, only the window's own files (window/main_window*) include window/main_window.h;
the tab controllers and every feature folder reach the window through window/tab_host.h (TabHost),
so a tab never grows a dependency on the whole window (issue 45 section 4). app/ and tests/ build
and drive the window and are not checked trees.

  scripts/check-folder-layers.py [--max-top-files N] [ROOT...]   (default: ui core, ui at most 8)
Exit status: 0 when no circle exists, no top level holds too many files and no private header is
included from outside its owners; 1 otherwise, with one line per circle naming a file on each of its
edges and one line per file that includes a header private to others.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")
TOP = "(top level)"
DEFAULT_MAX_TOP_FILES = {"ui": 8}
# {tree: {header: (the path prefix of the files that may include it, what the others use instead)}},
# paths relative to the tree.
PRIVATE_HEADERS = {
    "ui": {
        "window/main_window.h": ("window/main_window",
                                 "tabs and feature folders reach the window through window/tab_host.h (TabHost)"),
    },
}


def folder_of(root, path):
    """The folder a file belongs to: the first folder below root, or TOP for a file directly in it."""
    rel = os.path.relpath(path, root)
    return rel.split(os.sep)[0] if os.sep in rel else TOP


def included_path(root, include, from_path):
    """The file under root a quoted include names (from the repository root or beside the includer)."""
    for candidate in (include, os.path.join(os.path.dirname(from_path), include)):
        candidate = os.path.normpath(candidate)
        if os.path.isfile(candidate) and not os.path.relpath(candidate, root).startswith(".."):
            return candidate
    return None


def sources(root):
    for base, subdirs, files in os.walk(root):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith("."))
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                yield os.path.join(base, name)


def includes(root):
    """Every (file, include as written, included file under root) of the tree."""
    for path in sources(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for include in INCLUDE.findall(text):
            target = included_path(root, include, path)
            if target is not None:
                yield os.path.normpath(path), include, target


def folder_edges(root):
    """{(from folder, to folder): one 'file -> include' that makes the edge}."""
    edges = {}
    for path, include, target in includes(root):
        a, b = folder_of(root, path), folder_of(root, target)
        if a != b:
            edges.setdefault((a, b), f"{path} -> {include}")
    return edges


def private_includes(root):
    """One line per file that includes a header private to other files (PRIVATE_HEADERS)."""
    private = PRIVATE_HEADERS.get(os.path.basename(root), {})
    found = []
    for path, include, target in includes(root):
        header = os.path.relpath(target, root).replace(os.sep, "/")
        if header not in private:
            continue
        owners, instead = private[header]
        if not os.path.relpath(path, root).replace(os.sep, "/").startswith(owners):
            found.append(f"{path} includes {include}, which only {root}/{owners}* may include: {instead}")
    return found


def circles(edges, limit=20):
    """Circles of the folder graph, each once, as lists of folders (first == last); the first
    `limit` of them (a tangled tree has thousands, and the first few say where to start)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    found, seen_sets = [], set()

    def walk(start, node, trail):
        for nxt in sorted(graph.get(node, ())):
            if len(found) >= limit:
                return
            if nxt == start:
                key = frozenset(trail)
                if key not in seen_sets:
                    seen_sets.add(key)
                    found.append(trail + [start])
            elif nxt not in trail and nxt > start:  # each circle from its smallest folder only
                walk(start, nxt, trail + [nxt])

    for start in sorted(graph):
        walk(start, start, [start])
    return found


def check(root, max_top_files):
    problems = []
    root = os.path.normpath(root)
    edges = folder_edges(root)
    problems += private_includes(root)
    for circle in circles(edges):
        steps = "; ".join(edges[(a, b)] for a, b in zip(circle, circle[1:]))
        problems.append(f"{root}: folders include each other in a circle: {' -> '.join(circle)} ({steps})")
    if max_top_files is not None:
        top = [p for p in sources(root) if folder_of(root, p) == TOP]
        if len(top) > max_top_files:
            problems.append(f"{root}: {len(top)} source files at the top level, at most {max_top_files}: "
                            "move them into a folder that names what they do")
    return problems, len(edges)


def main(argv):
    args = argv[1:]
    max_top = None
    if len(args) >= 2 and args[0] == "--max-top-files":
        max_top, args = int(args[1]), args[2:]
    if not args:
        os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        args = [r for r in ("ui", "core") if os.path.isdir(r)]
    problems, count = [], 0
    for root in args:
        found, edges = check(root, max_top if max_top is not None else DEFAULT_MAX_TOP_FILES.get(root))
        problems += found
        count += edges
    for p in problems:
        print(p)
    print(f"check-folder-layers: {len(args)} trees, {count} folder edges, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
