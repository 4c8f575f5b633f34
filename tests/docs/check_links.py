#!/usr/bin/env python3
"""Every relative link in the project's Markdown leads somewhere: the file or directory exists,
and a #fragment names a heading of the target page (GitHub's anchors: lower case, punctuation
dropped, spaces as -, a -N suffix for repeats). Links inside code blocks and spans are text.
Usage: check_links.py SOURCE_DIR"""
import os
import re
import sys

root = sys.argv[1]
pages = ["README.md", "ARCHITECTURE.md", "tests/README.md", "bench/README.md"]
for d, _, files in os.walk(os.path.join(root, "docs")):
    pages += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith(".md")]

LINK = re.compile(r"\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)")


def anchors(path):
    seen, out = {}, set()
    text = re.sub(r"^```.*?^```", "", open(path, encoding="utf-8").read(), flags=re.S | re.M)
    for m in re.finditer(r"^#{1,6} (.*)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


bad = []
for page in sorted(pages):
    text = open(os.path.join(root, page), encoding="utf-8").read()
    links = [m.group(1) for m in LINK.finditer(re.sub(r"^```.*?^```", "", text, flags=re.S | re.M))]
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        target, _, fragment = link.partition("#")
        path = os.path.normpath(os.path.join(root, os.path.dirname(page), target)) if target else os.path.join(root, page)
        if not os.path.exists(path):
            bad.append(f"{page}: {link}: no such file")
        elif fragment and path.endswith(".md") and fragment not in anchors(path):
            bad.append(f"{page}: {link}: no heading #{fragment} in {os.path.relpath(path, root)}")
for b in bad:
    print("FAIL:", b, file=sys.stderr)
if bad:
    sys.exit(1)
print(f"ok: every relative link of {len(pages)} Markdown pages leads to a file and heading")
