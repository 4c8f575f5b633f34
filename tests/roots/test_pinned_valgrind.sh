#!/usr/bin/env bash
# A pinned Valgrind for CI: inside a clean Debian 12 root (Valgrind 3.19 is what its apt
# would give), `scripts/ci-install-cgbench.sh --valgrind testing` builds cgbench and Valgrind
# from the source package of Debian's testing release (`apt-get source`, nothing else
# downloaded) into one prefix, as a CI job does on a cache miss; the examples are then built in
# the root and measured with that cgbench and that Valgrind:
#   - the fingerprint names the pinned Valgrind (testing's version, not 3.19, launched from the
#     prefix), and Debian's own valgrind package is not installed in the root;
#   - every event of every single-process benchmark equals the summary Valgrind wrote in its
#     own output file (--keep-raw), and a second run gives the same events for every benchmark;
#   - a second install into the same prefix (a CI cache hit) builds nothing.
# What is built is kept in the build tree (BUILD/tests/roots/pinned-*): the prefix, bound at
# a fixed path in the root, since a Valgrind stays where it was built; a later run rebuilds
# only what changed. The last line gives the build's time and the installed sizes.
#
# Opt-in: Valgrind's build takes many CPU-minutes. Without CGBENCH_PINNED_VALGRIND=1 and
# without a finished build in the build tree it exits 77 with one line saying how to run it;
# without root, debootstrap or a mirror it skips naming the cause (debian-root.sh).
# Usage: test_pinned_valgrind.sh BUILD_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
build="$(cd "${1:?usage: test_pinned_valgrind.sh BUILD_DIR}" && pwd)"
roots="$build/tests/roots"
root="$roots/bookworm-pinned"
prefix="$roots/pinned-prefix"
work="$roots/pinned-work"
inside=/opt/cgbench-ci

fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "${CGBENCH_SKIP_CACHED_LANES:-0}" = 1 ] && [ "${CGBENCH_PINNED_VALGRIND:-0}" != 1 ]; then
  echo "SKIPPED: CGBENCH_SKIP_CACHED_LANES=1 (the pinned Valgrind is kept in $prefix)"
  exit 77
fi
if [ "${CGBENCH_PINNED_VALGRIND:-0}" != 1 ] && ! [ -f "$prefix/.cgbench-install" ]; then
  echo "SKIPPED: the pinned-Valgrind lane builds Valgrind from Debian's source in a Debian 12" \
    "root (about 15 minutes the first time); run it once with CGBENCH_PINNED_VALGRIND=1" \
    "ctest -R Platform.pinned_valgrind"
  exit 77
fi
"$here/debian-root.sh" bookworm "$root" git ca-certificates
# shellcheck source=mirror.sh
source "$here/mirror.sh"
mirror="$(debian_mirror)"
mkdir -p "$prefix" "$work"
in_root() {
  "$here/in-root.sh" "$root" --bind "$source_dir:/src" --bind "$prefix:$inside" \
    --bind "$work:/work" --env "CGBENCH_DEBIAN_MIRROR=$mirror" "$@"
}

# 1. The install a CI job makes on a cache miss (or, with the build kept, on a hit).
t0=$SECONDS
in_root -- /src/scripts/ci-install-cgbench.sh --valgrind testing /src "$inside" \
  >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "the install failed"; }
t1=$SECONDS
build_line="$(grep -E '^build-valgrind: built Valgrind' "$work/install.log" || true)"
if [ -n "$build_line" ]; then echo "$build_line" >"$work/valgrind-build.txt"; fi

# 2. A second install into the same prefix: the cache hit, nothing built.
in_root -- /src/scripts/ci-install-cgbench.sh --valgrind testing /src "$inside" \
  >"$work/install2.log" 2>&1 || { cat "$work/install2.log" >&2; fail "the second install failed"; }
if grep -qE 'compiling|\[3/4\]' "$work/install2.log"; then
  cat "$work/install2.log" >&2
  fail "the second install built something"
fi
grep -q "using the cached" "$work/install2.log" || fail "the second install did not use the cache"
if in_root -- dpkg-query -W -f '${Status}' valgrind 2>/dev/null | grep -q "install ok installed"; then
  fail "Debian's valgrind package was installed in the root"
fi

# 3. The examples, built in the root, measured twice with the pinned Valgrind.
in_root -- /usr/bin/env -C /work sh -c '
  set -e
  /src/scripts/install-deps.sh --examples >deps.log 2>&1
  cmake -S /src -B /work/examples-build -DCGBENCH_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >configure.log 2>&1
  cmake --build /work/examples-build -j "$(nproc)" --target examples >examples.log 2>&1' ||
  { tail -n 30 "$work"/deps.log "$work"/configure.log "$work"/examples.log >&2; fail "building the examples failed"; }
for n in 1 2; do
  rm -rf "$work/raw$n"
  in_root --env "PATH=$inside/bin:/usr/sbin:/usr/bin:/sbin:/bin" -- /usr/bin/env -C /work \
    cgbench run -q --no-db --suite /work/examples-build/examples/cgbench.toml \
    --out "/work/run$n.json" --keep-raw "/work/raw$n" >"$work/run$n.log" 2>&1 ||
    { cat "$work/run$n.log" >&2; fail "measuring the examples with the pinned Valgrind failed"; }
done
python3 - "$work" <<'PY' || fail "the pinned Valgrind's results are not exact (above)"
import json, os, re, sys
work = sys.argv[1]
a, b = (json.load(open(f"{work}/run{n}.json")) for n in (1, 2))
fp = a["run"]["fingerprint"]
problems = []
if not fp["valgrind"].startswith("3.27"):
    problems.append(f"fingerprint names Valgrind {fp['valgrind']}, not testing's 3.27")
if not fp.get("valgrind_launcher", "").startswith("/opt/cgbench-ci/"):
    problems.append(f"the launcher is {fp.get('valgrind_launcher')}, not the pinned one")
second = {r["name"]: r for r in b["benchmarks"]}
checked = 0
for r in a["benchmarks"]:
    if r.get("status") != "ok":
        problems.append(f'{r["name"]}: {r.get("status")}')
        continue
    if r["events"] != second[r["name"]]["events"]:
        problems.append(f'{r["name"]}: the second run gave other events')
    raw = os.path.join(work, "raw1", re.sub(r"[^A-Za-z0-9._-]", "_", r["name"]) + ".cachegrind.out")
    if r.get("tool") != "cachegrind" or len(r.get("processes", [])) > 1 or not os.path.exists(raw):
        continue
    text = open(raw).read()
    names = re.search(r"^events: (.*)$", text, re.M).group(1).split()
    totals = [int(x) for x in re.search(r"^summary: (.*)$", text, re.M).group(1).split()]
    own = dict(zip(names, totals))
    for k, v in own.items():
        if r["events"].get(k) != v:
            problems.append(f'{r["name"]}: {k} {r["events"].get(k)} but Valgrind wrote {v}')
    checked += 1
if checked < 5:
    problems.append(f"only {checked} benchmarks had their Valgrind file to check against")
for p in problems:
    print("  " + p, file=sys.stderr)
print(f"{len(a['benchmarks'])} benchmarks, {checked} checked against Valgrind's own files; valgrind {fp['valgrind']}")
sys.exit(1 if problems else 0)
PY
t2=$SECONDS
echo "pinned Valgrind ($(in_root -- "$inside/bin/valgrind" --version)) in a Debian 12 root:" \
  "install $((t1 - t0)) s ($(cat "$work/valgrind-build.txt" 2>/dev/null || echo 'kept from an earlier run'));" \
  "prefix $(du -sh "$prefix" | cut -f1), of it Valgrind $(du -sh "$prefix/valgrind" | cut -f1);" \
  "examples measured in $((t2 - t1)) s"
