#!/usr/bin/env bash
# Makes the throw-away repository the CI tests measure: a tiny C program with a work
# parameter, a build command (build.sh) and a cgbench.toml with two benchmarks.
#   commit 1 on main:       the baseline
#   commit 2 on branch pr:  CHANGE = regress: `sum` does 7% more steps (cost +5%)
#                           CHANGE = same: a comment changes, nothing measurable
# Usage: make-repo.sh DIR regress|same
set -euo pipefail
if [ $# -ne 2 ] || { [ "$2" != regress ] && [ "$2" != same ]; }; then
  echo "usage: make-repo.sh DIR regress|same" >&2
  exit 2
fi
dir="$1"
change="$2"
mkdir -p "$dir"
cd "$dir"
git init -q -b main .
git config user.email ci-test@example.invalid
git config user.name "cgbench CI test"
git config commit.gpgsign false

write_prog() { # EXTRA_WORK_PERCENT
  cat >prog.c <<C
#include <stdio.h>
#include <stdlib.h>

/* sum N: a loop of N steps; copy N: a memory copy of N ints. */
int main(int argc, char** argv) {
    if (argc != 3) return 2;
    long n = atol(argv[2]);
    volatile long acc = 0;
    if (argv[1][0] == 's') {
        long steps = n + n * $1 / 100;
        for (long i = 0; i < steps; ++i) acc += i ^ (i >> 3);
    } else {
        int* a = calloc((size_t)n, sizeof *a);
        int* b = calloc((size_t)n, sizeof *b);
        if (!a || !b) return 1;
        for (long i = 0; i < n; ++i) b[i] = a[i] + (int)i;
        acc = b[n - 1];
        free(a);
        free(b);
    }
    printf("%ld\n", (long)acc);
    return 0;
}
C
}

write_prog 0
cat >build.sh <<'SH'
#!/usr/bin/env bash
set -euo pipefail
mkdir -p out
cc -O1 -o out/prog prog.c
SH
chmod +x build.sh
cat >cgbench.toml <<'TOML'
[defaults]
threshold = "1%"

[[bench]]
name = "sum/60000"
command = ["out/prog", "sum", "60000"]

[[bench]]
name = "copy/20000"
command = ["out/prog", "copy", "20000"]
TOML
printf 'out/\ncgbench-pr/\n.cgbench/\n' >.gitignore
git add -A
git commit -q -m "baseline"
git checkout -q -b pr
if [ "$change" = regress ]; then
  write_prog 7
else
  sed -i 's|/\* sum N|/* sum N (unchanged)|' prog.c
fi
git commit -q -am "change: $change"
