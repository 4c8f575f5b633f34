#!/usr/bin/env bash
# calibrate.sh — does the cost track time on this machine? The full `cgbench calibrate`
# sweep (seed 002's memory walk, linear and random, over 1K..256M, and the compute and branch
# kernels), native runs pinned to one CPU, with the load before and after and the sweep's
# wall time. Prints the calibration report, then r of the default (pythonspeed), KCachegrind
# and fitted weights against the goals (>= 0.95 default, >= 0.98 fitted), and the fitted
# weights. Keeps the weights file, the HTML page and the JSON document in OUT.
#
# Usage: bench/calibrate.sh [extra cgbench calibrate options, e.g. --rounds 5 --cpu 1]
# Env:   OUT=DIR (default ./calibration), SKIP_BUILD=1 (don't run scripts/build.sh)
# A busy machine makes the timings noisy: calibrate refuses (exit 4) when they are too
# noisy to fit. Run it when nothing else runs (see docs/calibrate.md, "Calibrating on a quiet machine").
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build

out="${OUT:-$PWD/calibration}"
mkdir -p "$out"
bench_machine "cgbench calibrate: median of rounds x repeat per kernel (see the report)"
echo "load:     $(uptime | sed 's/.*load average/load average/') (before)"
echo

rc=0
t0="$(date +%s.%N)"
"$CGBENCH" calibrate --out "$out/weights.toml" --html "$out/calibration.html" \
    --json "$out/calibration.json" "$@" \
    >"$out/report.txt" || rc=$?
t1="$(date +%s.%N)"
cat "$out/report.txt"
echo
echo "load:     $(uptime | sed 's/.*load average/load average/') (after)"
echo "sweep:    $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s wall time (exit $rc)"
if [ "$rc" -ne 0 ]; then
    echo "calibrate failed (exit $rc): see its message above" >&2
    exit "$rc"
fi
# The weight-set table: NAME  L1 / LL / RAM  r  R²  median error
r_of() { awk -v n="$1" '$1 == n && $3 == "/" && $5 == "/" { print $7; exit }' "$out/report.txt"; }
goal() { awk -v v="$1" -v g="$2" 'BEGIN { print (v >= g) ? "ok" : "BELOW GOAL" }'; }
default_r="$(r_of pythonspeed)"
fitted_r="$(r_of fitted)"
echo
echo "r pythonspeed (default) $default_r  goal >= 0.95  $(goal "$default_r" 0.95)"
echo "r kcachegrind           $(r_of kcachegrind)"
echo "r fitted                $fitted_r  goal >= 0.98  $(goal "$fitted_r" 0.98)"
echo "fitted weights:         $(grep -E '^(l1|ll|ram) =' "$out/weights.toml" | tr '\n' ' ')"
echo "files:                  $out/weights.toml $out/calibration.html $out/calibration.json"
