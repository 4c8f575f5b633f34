#!/usr/bin/env bash
# cost_model.sh — does the cost mean time, with and without the terms the model lacks? One
# `cgbench calibrate` run gives every figure: the sweep (42 kernels) timed natively and
# counted under Cachegrind with branch simulation (--branch-sim), an L2 level from a second
# geometry run (--l2, the host's L2 per core), a per-instruction term (--ir-term), and the
# real programs of bench/programs (--programs: held out, never fitted on). Prints, for every
# weight set (the presets without and with their misprediction weight; the fit on L1/LL/RAM,
# with each new term, with all of them): r, R² and median error on the sweep and on the
# programs, the goals, the CPU and the clock, and the load average at start and end.
# Keeps report.txt, figures.md, calibration.json, calibration.html and weights.toml in OUT.
#
# Usage: bench/cost_model.sh [extra cgbench calibrate options, e.g. --max-noise 5% --rounds 5]
# Env:   OUT=DIR (default ./cost-model), L2=SIZE,ASSOC,LINE (default: the host's L2 from
#        sysfs), PROGRAM_SUITE=SUITE (default bench/programs/cgbench.toml), SKIP_BUILD=1,
#        SKIP_PREPARE=1 (bench/programs/prepare.sh ran already)
# Take the figures on a quiet machine (1-minute load below 0.5; docs/calibrate.md, "Calibrating
# on a quiet machine"): the script says so when the load was higher.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
bench_init
bench_build
[ "${SKIP_PREPARE:-0}" = 1 ] || "$ROOT/bench/programs/prepare.sh" >/dev/null

out="${OUT:-$PWD/cost-model}"
mkdir -p "$out"

# The host's L2 per core, as Valgrind takes a cache: SIZE,ASSOC,LINE.
host_l2() {
    local d
    for d in /sys/devices/system/cpu/cpu0/cache/index*; do
        [ "$(cat "$d/level" 2>/dev/null)" = 2 ] || continue
        local size
        size="$(cat "$d/size")"
        case "$size" in
            *K) size=$(( ${size%K} * 1024 )) ;;
            *M) size=$(( ${size%M} * 1024 * 1024 )) ;;
        esac
        echo "$size,$(cat "$d/ways_of_associativity"),$(cat "$d/coherency_line_size")"
        return
    done
}
l2="${L2:-$(host_l2)}"
if [ -z "$l2" ]; then
    echo "cost_model.sh: cannot read the host's L2 from sysfs; set L2=SIZE,ASSOC,LINE" >&2
    exit 1
fi
load1() { cut -d' ' -f1 /proc/loadavg; }

bench_machine "cgbench calibrate: median of rounds x repeat per kernel and program (see the report)"
echo "L2:       $l2 (the L2 term's second geometry run)"
load_start="$(load1)"
echo "load:     $(uptime | sed 's/.*load average/load average/') (start)"
echo

rc=0
t0="$(date +%s.%N)"
"$CGBENCH" calibrate --branch-sim --ir-term --l2 "$l2" \
    --programs "${PROGRAM_SUITE:-$ROOT/bench/programs/cgbench.toml}" \
    --out "$out/weights.toml" --html "$out/calibration.html" --json "$out/calibration.json" \
    "$@" >"$out/report.txt" || rc=$?
t1="$(date +%s.%N)"
load_end="$(load1)"
cat "$out/report.txt"
echo
echo "load:     $(uptime | sed 's/.*load average/load average/') (end)"
echo "wall:     $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s (exit $rc)"
if [ "$rc" -ne 0 ]; then
    echo "calibrate failed (exit $rc): see its message above" >&2
    exit "$rc"
fi

/usr/bin/python3 - "$out/calibration.json" "$load_start" "$load_end" >"$out/figures.md" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
load_start, load_end = float(sys.argv[2]), float(sys.argv[3])
n = doc["native"]
print(f"CPU: {n['cpu_model']} ({n['cpus']} CPUs); clock: {n['clock']}"
      + (f" (no cycle counter: {n['cycles_unavailable']})" if n["cycles_unavailable"] else "")
      + f"; load average {load_start:.2f} at start, {load_end:.2f} at end; "
      + f"{len(doc['kernels'])} sweep kernels, {len(doc.get('programs', []))} programs; "
      + f"objective {doc['objective']}; L2 {doc.get('l2', '-')}")
print()
print("| weights | sweep r | R² | median error | programs r | R² | median error |")
print("|---|--:|--:|--:|--:|--:|--:|")
for s in doc["weight_sets"]:
    p = s.get("programs", {})
    cells = [f"{s['r']:.3f}", f"{s['r_squared']:.3f}", f"{s['median_abs_error'] * 100:.1f}%"]
    if p:
        cells += [f"{p['r']:.3f}", f"{p['r_squared']:.3f}", f"{p['median_abs_error'] * 100:.1f}%"]
    terms = " / ".join(f"{k} {s[k]:.3g}" for k in ("l1", "l2", "ll", "ram", "mispredict", "ir")
                       if k in s)
    name = s["name"] + ("" if s["usable"] else " (comparison only)")
    print(f"| {name}: {terms} | " + " | ".join(cells) + " |")
print()
default = next(s for s in doc["weight_sets"] if s["name"] == "pythonspeed")
def goal(v, g, above=True):
    return "ok" if (v >= g if above else v <= g) else "MISSED"
p = default.get("programs", {"r": float("nan"), "median_abs_error": float("nan")})
print(f"goals, default weights (pythonspeed): sweep r {default['r']:.3f} >= 0.97 "
      f"{goal(default['r'], 0.97)}; programs r {p['r']:.3f} >= 0.95 {goal(p['r'], 0.95)}; "
      f"median error {default['median_abs_error'] * 100:.1f}% (sweep), "
      f"{p['median_abs_error'] * 100:.1f}% (programs) <= 15% "
      f"{goal(max(default['median_abs_error'], p['median_abs_error']), 0.15, False)}")
# The rejected variant: indirect mispredictions weighed like conditional ones (Bcm + Bim).
# The sweep's loops have no indirect branches, so its fits and scales are the sets' own; only
# the programs' costs change.
def pearson(x, y):
    n = len(x); mx = sum(x) / n; my = sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x); syy = sum((b - my) ** 2 for b in y)
    return sxy / (sxx * syy) ** 0.5
def median(v):
    v = sorted(v); n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
programs = doc.get("programs", [])
if programs and all("indirect_mispredicts" in p for p in programs):
    print()
    print("| with Bim weighed too (rejected) | programs r | median error |")
    print("|---|--:|--:|")
    for s in doc["weight_sets"]:
        if "mispredict" not in s or "programs" not in s:
            continue
        def cost(p, indirect):
            h = p["hits"]
            c = s.get("l1", 0) * h["l1"] + s.get("ll", 0) * max(h["ll"] - (h.get("l2", 0) if "l2" in s else 0), 0)
            c += s.get("ram", 0) * h["ram"] + s.get("l2", 0) * h.get("l2", 0) + s.get("ir", 0) * p["Ir"]
            return c + s["mispredict"] * (p["mispredicts"] + (p["indirect_mispredicts"] if indirect else 0))
        t = [p["time"]["median"] for p in programs]
        c = [cost(p, True) for p in programs]
        err = median([abs(s["scale"] * ci - ti) / ti for ci, ti in zip(c, t)])
        print(f"| {s['name']} | {pearson(c, t):.3f} | {err * 100:.1f}% |")
if max(load_start, load_end) >= 0.5:
    print(f"NOT QUIET: the load average was {max(load_start, load_end):.2f} (>= 0.5): "
          "re-take these figures on a quiet machine")
EOF
echo
cat "$out/figures.md"
echo "files:    $out/{report.txt,figures.md,calibration.json,calibration.html,weights.toml}"
