#!/usr/bin/env bash
# real_world.sh — 15 programs nobody in this project wrote (the set of
# shared/reports/measurement-quality-2: xz, jq, sqlite3, git, bc, python3, perl, lua, ruby,
# node, a Go and a Rust program, zstd at two levels, a bash pipeline): does each repeat to
# the last digit, and if not, does a single run say so?
#
# Installs the Debian packages it needs (scripts/install-deps.sh --bench: xz-utils jq
# sqlite3 git bc python3 perl lua5.4 ruby nodejs golang-go rustc zstd; needs root or sudo),
# compiles the Go and Rust programs with them, then measures each program VERIFY times
# (default 5) with `cgbench run --verify`, and prints per program: exact (every run gave the
# same counts) or the spread of its cost, and the warnings of the first run (the
# repeatability warnings of runner/repeatability.hpp and the threads warning). A program is "covered" when it is exact or warned.
#
# Usage: bench/real_world.sh            (VERIFY=5 SKIP_BUILD=1 to skip building cgbench;
#                                        ONLY=REGEX measures the programs whose name matches)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
VERIFY="${VERIFY:-5}"

"$ROOT/scripts/install-deps.sh" --bench

W="$TMP/w"
mkdir -p "$W"
cd "$W"
# Inputs: text for the compressors and the pipeline, JSON records, an SQL script, a git repo.
python3 - <<'PY'
import json, random
r = random.Random(7)
words = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua ut enim ad minim veniam").split()
def text(n):
    out, size = [], 0
    while size < n:
        w = r.choice(words) + (" " if r.random() < 0.9 else "\n"); out.append(w); size += len(w)
    return "".join(out)
open("text-1m.txt", "w").write(text(1 << 20))
open("text-64k.txt", "w").write(text(64 << 10))
open("text-24k.txt", "w").write(text(24 << 10))
json.dump([{"name": "item%d" % i, "n": i, "tags": [r.choice(words) for _ in range(4)]}
           for i in range(200)], open("records.json", "w"))
with open("rows.sql", "w") as f:
    f.write("CREATE TABLE t(a INTEGER, b TEXT);\nBEGIN;\n")
    for i in range(6000):
        f.write("INSERT INTO t VALUES(%d, 'k%05d');\n" % (i, (i * 7919) % 6000))
    f.write("COMMIT;\nCREATE INDEX tb ON t(b);\n"
            "SELECT count(*), sum(a) FROM t GROUP BY substr(b,1,3) ORDER BY 1 LIMIT 3;\n")
open("pi.bc", "w").write("scale=250\n4*a(1)\n")
PY
git init -q repo
for i in $(seq 1 40); do
  python3 -c "import random; r=random.Random($i); print('\n'.join('line %d %d' % (j, r.randrange(10**6)) for j in range(200)))" >"repo/f$((i % 7)).txt"
  git -C repo add -A && git -C repo -c user.name=b -c user.email=b@example.com commit -qm "commit $i"
done
cat >dict.py <<'EOF'
d = {}
s = set()
for i in range(60000):
    k = "key%d" % (i * 7919 % 60000)
    d[k] = i
    s.add(k[:5])
print(len(d), len(s), sum(d.values()) % 1000)
EOF
cat >hash.pl <<'EOF'
my %h; for my $i (0..60000) { $h{"key" . ($i * 7919 % 60000)} = $i; }
my $s = 0; $s += $h{$_} for keys %h; print scalar(keys %h), " $s\n";
EOF
cat >table.lua <<'EOF'
local t = {}
for i = 1, 60000 do t["key" .. (i * 7919 % 60000)] = i end
local s = 0
for k, v in pairs(t) do s = s + v end
print(s)
EOF
cat >hash.rb <<'EOF'
h = {}
60000.times { |i| h["key#{i * 7919 % 60000}"] = i }
puts h.values.sum
EOF
cat >maps.js <<'EOF'
const m = new Map(); const s = new Set();
for (let i = 0; i < 60000; i++) { const k = "key" + (i * 7919 % 60000); m.set(k, i); s.add(k.slice(0, 5)); }
let t = 0; for (const v of m.values()) t += v;
console.log(m.size, s.size, t);
EOF
mkdir -p gomap
cat >gomap/main.go <<'EOF'
package main

import "fmt"

func main() {
	m := map[string]int{}
	for i := 0; i < 60000; i++ {
		m[fmt.Sprintf("key%d", i*7919%60000)] = i
	}
	s := 0
	for _, v := range m {
		s += v
	}
	fmt.Println(len(m), s)
}
EOF
cat >hashmap.rs <<'EOF'
use std::collections::HashMap;
fn main() {
    let mut m = HashMap::new();
    for i in 0..60000u32 { m.insert(format!("key{}", i * 7919 % 60000), i); }
    let s: u64 = m.values().map(|&v| v as u64).sum();
    println!("{} {}", m.len(), s);
}
EOF
(cd gomap && GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" GO111MODULE=off go build -o ../gomap-bin main.go)
rustc -O -o hashmap hashmap.rs 2>/dev/null
cat >pipeline.sh <<'EOF'
tr -cs 'a-z' '\n' < text-1m.txt | sort | uniq -c | sort -rn | head -n 3
EOF

# name | stdin file | command...
programs=(
  "zstd -1|-|$(command -v zstd) -1 -c text-1m.txt"
  "zstd -19|-|$(command -v zstd) -19 -c text-24k.txt"
  "xz -6|-|$(command -v xz) -6 -c text-64k.txt"
  "jq|-|$(command -v jq) [.[]|{k:.name,v:(.n*2),t:(.tags|join(\"-\"))}]|length records.json"
  "sqlite3|rows.sql|$(command -v sqlite3) :memory:"
  "git log|-|$(command -v git) -C repo log -p --stat -n30"
  "bc|pi.bc|$(command -v bc) -l"
  "python3|-|/usr/bin/python3 dict.py"
  "perl|-|$(command -v perl) hash.pl"
  "lua5.4|-|$(command -v lua5.4) table.lua"
  "ruby|-|$(command -v ruby) hash.rb"
  "node|-|$(command -v node) maps.js"
  "go map|-|./gomap-bin"
  "rust HashMap|-|./hashmap"
  "bash pipeline|-|/bin/bash pipeline.sh"
)

bench_machine "each program measured $VERIFY times (cgbench run --verify $VERIFY)"
echo
printf '| %-14s | %-13s | %s |\n' program "$VERIFY runs" "warned on one run"
printf '|%s|%s|%s|\n' "----------------" "---------------" "---"
covered=0
for entry in "${programs[@]}"; do
  IFS='|' read -r name stdin cmd <<<"$entry"
  [[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && continue
  read -r -a argv <<<"$cmd"
  [ "$name" = jq ] && argv=("$(command -v jq)" '[.[]|{k:.name,v:(.n*2),t:(.tags|join("-"))}]|length' records.json)
  extra=(--env GODEBUG=cpu.rdtscp=off)  # Go 1.19 on Valgrind 3.19 (harmless elsewhere)
  [ "$stdin" != - ] && extra+=(--stdin "$stdin")
  "$CGBENCH" run --no-db -q --warmup 1 --verify "$VERIFY" --format json "${extra[@]}" -- "${argv[@]}" \
    >"$TMP/r.json" 2>"$TMP/r.err" || true
  python3 - "$TMP/r.json" "$name" >>"$TMP/rows" <<'PY' || echo "| $name | error | $(tail -1 "$TMP/r.err") |" >>"$TMP/rows"
import json, sys
d = json.load(open(sys.argv[1]))
b = d["benchmarks"][0]
spread = b.get("verify", {}).get("spread", {})
if b["status"] == "ok":
    exact = "exact"
elif "Ir" in spread:
    exact = "differ (Ir %s..%s)" % (format(spread["Ir"]["min"], ","), format(spread["Ir"]["max"], ","))
elif spread:
    event, r = next(iter(spread.items()))
    exact = "differ (%s %s..%s)" % (event, format(r["min"], ","), format(r["max"], ","))
else:
    exact = "failed: " + b.get("error", "")[:60]
warns = [w for w in b.get("warnings", []) + d["run"].get("warnings", [])
         if "--verify" in w or "threads" in w]
short = "; ".join(w.split(":")[0][:90] for w in warns) or "no"
print("| %-14s | %-13s | %s |" % (sys.argv[2], exact, short))
print("COVERED" if exact == "exact" or warns else "MISSED", file=sys.stderr)
if exact == "exact" and warns:
    print("FALSE-ALARM", file=sys.stderr)
PY
  tail -1 "$TMP/rows"
done 2>"$TMP/covered"
echo
echo "covered (exact, or warned on a single run): $(grep -c COVERED "$TMP/covered" || true) of $(grep -cE '^(COVERED|MISSED)$' "$TMP/covered" || true) measured;" \
  "warned although exact: $(grep -c FALSE-ALARM "$TMP/covered" || true)"
