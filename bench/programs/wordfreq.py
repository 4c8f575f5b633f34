# The interpreter benchmark of bench/programs: word frequencies, a small object simulation
# and sorting, in plain Python (dicts, classes, method calls, string methods).
import sys


class Body:
    __slots__ = ("x", "v")

    def __init__(self, x, v):
        self.x = x
        self.v = v

    def step(self, others):
        for o in others:
            if o is not self:
                self.v += (o.x - self.x) * 1e-3


def main(path):
    counts = {}
    with open(path, encoding="ascii") as f:
        for line in f:
            for word in line.lower().rstrip(".\n").split():
                counts[word] = counts.get(word, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
    bodies = [Body(float(i), 0.0) for i in range(40)]
    for _ in range(60):
        for b in bodies:
            b.step(bodies)
        for b in bodies:
            b.x += b.v
    print(len(counts), top[0], round(sum(b.x for b in bodies), 3))


main(sys.argv[1])
