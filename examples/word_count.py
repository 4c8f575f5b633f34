#!/usr/bin/env python3
"""word_count: the dict, set and list work of a typical Python script (the kind of program
"CI for performance: reliable benchmarking in noisy environments" measures).

    word_count.py [N]     N words of generated text (default 20000)

Counts words in a dict, collects the distinct long ones in a set, and sorts the most frequent
into a list. Its counts depend on the hashes of every string Python sees (its own path,
sys.path, the environment), so it shows that cgbench gives the same numbers on every run,
for every user and in every parallel job. Run it directly: its `#!/usr/bin/env python3` line
makes it a program like any other.
"""
import sys

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "qua"]


def words(n):
    state = 2463534242
    for _ in range(n):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        length = 1 + state % 4
        yield "".join(SYLLABLES[(state >> (4 * i)) % len(SYLLABLES)] for i in range(length))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    counts = {}
    long_words = set()
    for w in words(n):
        counts[w] = counts.get(w, 0) + 1
        if len(w) > 6:
            long_words.add(w)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    print(len(counts), len(long_words), " ".join(f"{w}={c}" for w, c in top))


if __name__ == "__main__":
    main()
