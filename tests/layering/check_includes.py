#!/usr/bin/env python3
"""Checks the layering of src/ against src/layers.txt (bottom first): every `#include "F/..."`
in src/G/ must name a folder F at or below G. Also prints the include cycles between folders
(strongly connected components of the folder graph), which an order that holds rules out.
Fails (exit 1) on an include against the order, on an include of a backend folder from a
folder its "#! backends A B: X Y" line does not name, on an include of a header a "#! private
F/H.hpp ...: X Y/Z.cpp" line keeps for folders X and files Y/Z.cpp from anywhere else, on a folder
of src/ the order lacks, and on a listed folder that does not exist.
Usage: check_includes.py SRC_DIR [--order FILE]"""
import os
import re
import sys

src = sys.argv[1]
order_file = sys.argv[sys.argv.index("--order") + 1] if "--order" in sys.argv else os.path.join(src, "layers.txt")
order = [l.strip() for l in open(order_file) if l.strip() and not l.lstrip().startswith("#")]
rank = {folder: i for i, folder in enumerate(order)}
# "#! backends A B: X Y": folders A and B are backends, included only by X and Y (and each other).
backends, backend_users = set(), set()
for l in open(order_file):
    m = re.match(r"#!\s*backends\s+([^:]*):(.*)", l)
    if m:
        backends.update(m.group(1).split())
        backend_users.update(m.group(2).split())
# "#! private F/H.hpp ...: X Y/Z.cpp ...": those headers are included only by files of folder X,
# by the files named, and by their own folder's files.
private = {}  # header -> users (folders or files, relative to src/)
for l in open(order_file):
    m = re.match(r"#!\s*private\s+([^:]*):(.*)", l)
    if m:
        for header in m.group(1).split():
            private.setdefault(header, set()).update(m.group(2).split())
folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
problems = [f"src/{d}/ is not in {order_file}: place it in the order" for d in folders if d not in rank]
problems += [f"{order_file} lists {d}, which src/ lacks" for d in order if d not in folders]

INCLUDE = re.compile(r'^\s*#\s*include\s+"(([a-z_0-9]+)/[^"]+)"')
edges = {}  # folder -> {folder: [file:line, ...]}
for folder in folders:
    for dirpath, _, files in os.walk(os.path.join(src, folder)):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            if not re.search(r"\.(c|cpp|hpp|h|in)$", name):
                continue
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                m = INCLUDE.match(line)
                if not m or m.group(2) not in folders or m.group(2) == folder:
                    continue
                where = f"{os.path.relpath(path, os.path.dirname(src))}:{n}"
                users = private.get(m.group(1))
                if users is not None and folder not in users and os.path.relpath(path, src) not in users:
                    problems.append(f"{where}: includes {m.group(1)}, which only {', '.join(sorted(users))} "
                                    f"may include (see {order_file})")
                edges.setdefault(folder, {}).setdefault(m.group(2), []).append(where)
                if m.group(2) in backends and folder not in backends | backend_users:
                    problems.append(f"{where}: {folder}/ includes the backend {m.group(2)}/, which "
                                    f"only {' and '.join(u + '/' for u in sorted(backend_users))} may include: go "
                                    f"through history::HistoryBackend")
                if folder in rank and m.group(2) in rank and rank[m.group(2)] > rank[folder]:
                    problems.append(f"{where}: {folder}/ includes {line.strip()[9:]}, but {m.group(2)}/ "
                                    f"is above {folder}/ in the order")


def cycles(nodes, graph):
    """Tarjan's strongly connected components with more than one folder."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


found = cycles(folders, edges)
print(f"include cycles between folders: {len(found)}")
for c in found:
    print("  cycle: " + " <-> ".join(c))
for p in problems:
    print("FAIL: " + p, file=sys.stderr)
if problems or found:
    sys.exit(1)
print(f"ok: {sum(len(v) for e in edges.values() for v in e.values())} includes across {len(folders)} "
      f"folders follow the order {' < '.join(order)}")
