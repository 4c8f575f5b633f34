# String-keyed dicts and sets (the workload of seed 002): its counts depend on the hashes of
# every string Python sees, its own path and sys.path included.
words = {}
seen = set()
x = 12345
for i in range(3000):
    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    w = "key%d_%s" % (x % 700, "ab"[x & 1])
    words[w] = words.get(w, 0) + 1
    if x % 3 == 0:
        seen.add(w.upper())
both = {k for k in words if k.upper() in seen}
top = sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
print(len(words), len(seen), len(both), top[0])
