#!/usr/bin/env bash
# Makes the throw-away repository the CI tests measure: a tiny C program with a work
# parameter, a build command (build.sh) and a cgbench.toml with two benchmarks.
#   commit 1 on main:       the baseline
#   commit 2 on branch pr:  CHANGE = regress: `sum` does 7% more steps (cost +5%)
#                           CHANGE = same: a comment changes, nothing measurable
#                           CHANGE = first: main has no cgbench.toml yet; pr adds it
#                           CHANGE = moved: as regress, and after the branch point main
#                                    gets commit 3, which makes `copy` do 20% more work
#                                    (main moved on: pr's merge base is commit 1)
# Usage: make-repo.sh DIR regress|same|first|moved
set -euo pipefail
if [ $# -ne 2 ] || ! [[ "$2" =~ ^(regress|same|first|moved)$ ]]; then
  echo "usage: make-repo.sh DIR regress|same|first|moved" >&2
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

# A second copy loop over EXTRA_COPY_PERCENT of the array; none at 0 (the program text of
# the baseline is the same in every variant).
extra_copy() { # PERCENT
  [ "$1" -eq 0 ] || printf '\n        for (long i = 0; i < n * %s / 100; ++i) b[i] = a[i] + (int)i + 1;' "$1"
}

write_prog() { # EXTRA_SUM_PERCENT [EXTRA_COPY_PERCENT]
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
        for (long i = 0; i < n; ++i) b[i] = a[i] + (int)i;$(extra_copy "${2:-0}")
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
[ "$change" = first ] && mv cgbench.toml ../cgbench.toml.later
git add -A
git commit -q -m "baseline"
git checkout -q -b pr
case "$change" in
  regress|moved) write_prog 7 ;;
  same) sed -i 's|/\* sum N|/* sum N (unchanged)|' prog.c ;;
  first) mv ../cgbench.toml.later cgbench.toml && git add cgbench.toml ;;
esac
git commit -q -am "change: $change"
if [ "$change" = moved ]; then
  git checkout -q main
  write_prog 0 20
  git commit -q -am "main: copy does 20% more work"
  git checkout -q pr
fi
