#!/usr/bin/env bash
# region_tools.sh — the same regions measured with Cachegrind (Valgrind 3.22 and later: a run
# that logs the markers, then a run per region instrumenting only that region) and with
# Callgrind (one run simulating the whole program), wall time side by side:
#   regions setup N       one small region after 100 times its work of setup
#   sort_regions N        two regions, "sort" and "search", after generating the input
#   regions nested N      "inner" nested in "outer", little else
# Runs are interleaved; each figure is the median of $RUNS. Also prints each region's Ir under
# both tools (they count slightly differently: never compared by cgbench).
#
# Usage: bench/region_tools.sh            (Valgrind >= 3.22; in the Debian 13 root of the
#                                           second-platform lane: bench/in-debian13.sh region_tools.sh)
# Env:   RUNS=N (default 5), N=... (default 100000), SKIP_BUILD=1, BUILD_DIR=...
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
N="${N:-100000}"
version="$("$VALGRIND" --version)"
case "$version" in
  valgrind-3.2[2-9]* | valgrind-3.[3-9]* | valgrind-[4-9]*) ;;
  *) echo "bench: $version has no Cachegrind start/stop requests (3.22 and later)" >&2; exit 1 ;;
esac
bench_machine

declare -a names cmds
names+=("regions setup $N");   cmds+=("$PROGRAMS/regions setup $N")
names+=("sort_regions $N");    cmds+=("$EXAMPLES/sort_regions $N")
names+=("regions nested $N");  cmds+=("$PROGRAMS/regions nested $N")

printf '\n%-22s %12s %12s %8s  %s\n' program "cachegrind s" "callgrind s" speed-up "Ir per region (cachegrind / callgrind)"
for i in "${!names[@]}"; do
  read -r -a argv <<<"${cmds[$i]}"
  key="$TMP/$i"
  for ((r = 0; r < RUNS; r++)); do
    for tool in cachegrind callgrind; do
      time_cmd "$key.$tool" "$CGBENCH" run -q --no-db --regions --region-tool "$tool" -- "${argv[@]}"
    done
  done
  irs=""
  for tool in cachegrind callgrind; do
    "$CGBENCH" run -q --no-db --regions --region-tool "$tool" --format json -- "${argv[@]}" >"$key.$tool.json"
  done
  irs="$(python3 - "$key.cachegrind.json" "$key.callgrind.json" <<'PY'
import json, sys
cg, cl = (json.load(open(p))["benchmarks"] for p in sys.argv[1:])
print(", ".join(f'{a["region"]["name"]} {a["events"]["Ir"]:,} / {b["events"]["Ir"]:,}' for a, b in zip(cg, cl)))
PY
)"
  a="$(median "$key.cachegrind")"; b="$(median "$key.callgrind")"
  printf '%-22s %12.2f %12.2f %7.2fx  %s\n' "${names[$i]}" "$a" "$b" "$(ratio "$b" "$a")" "$irs"
done
echo
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (at the end)"
