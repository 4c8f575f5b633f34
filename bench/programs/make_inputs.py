#!/usr/bin/python3
"""Writes the inputs of the real-program suite (bench/programs/cgbench.toml) into DIR.

Deterministic: the same bytes on every machine and Python 3 version (random.Random with a
fixed seed, whose sequence Python keeps stable), so every machine measures the same work.
Nothing is downloaded.

Usage: make_inputs.py DIR
"""
import json
import os
import random
import sys

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "qu", "th", "an", "er",
             "in", "on", "ing", "ed", "es", "st", "pr", "br", "cl", "ea", "ou", "ai"]


def vocabulary(rng, size):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
    return sorted(words)


def zipf_words(rng, words, count):
    # Word i is drawn with weight 1/(i+1): text-like frequencies, so compressors, sort and
    # awk see realistic repetition.
    weights = [1.0 / (i + 1) for i in range(len(words))]
    return rng.choices(words, weights=weights, k=count)


def corpus(rng, words, lines):
    out = []
    for _ in range(lines):
        line = zipf_words(rng, words, rng.randint(6, 14))
        out.append(" ".join(line).capitalize() + ".")
    return "\n".join(out) + "\n"


def records(rng, words, count):
    cities = words[:40]
    return [{"id": i, "city": rng.choice(cities), "name": rng.choice(words),
             "amount": rng.randint(1, 100000) / 100, "tags": rng.sample(words[:200], 3)}
            for i in range(count)]


def c_unit(rng, functions):
    # A translation unit for the compiler front end: the C library's headers and generated
    # functions with loops, structs and calls.
    out = ["#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>",
           "#include <math.h>", "#include <stdint.h>", "#include <ctype.h>", "",
           "struct point { double x, y; int tag; };", ""]
    for f in range(functions):
        n = rng.randint(3, 9)
        body = [f"static double f{f}(const struct point *p, size_t n, int k) {{",
                "    double acc = 0;",
                "    for (size_t i = 0; i < n; ++i) {"]
        for j in range(n):
            op = rng.choice(["acc += p[i].x * {c};", "acc -= sqrt(fabs(p[i].y)) + {c};",
                             "if (p[i].tag == {j}) acc *= 1.0{j};",
                             "acc += (double)(k ^ {j}) / (1 + i);"])
            body.append("        " + op.format(c=rng.randint(1, 99), j=j))
        body += ["    }", f"    return acc + {'f%d(p, n / 2, k + 1)' % (f - 1) if f else '0'};",
                 "}", ""]
        out += body
    out += ["int main(int argc, char **argv) {",
            "    struct point p[16] = {{0}};",
            f"    printf(\"%f\\n\", f{functions - 1}(p, 16, argc));",
            "    (void)argv;", "    return 0;", "}", ""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_inputs.py DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20260301)
    words = vocabulary(rng, 3000)
    files = {
        "corpus.txt": corpus(rng, words, 15000),
        "words.txt": "\n".join(zipf_words(rng, words, 120000)) + "\n",
        "records.json": json.dumps(records(rng, words, 2500), separators=(",", ":")) + "\n",
        "unit.c": c_unit(rng, 400),
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w", encoding="ascii", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
