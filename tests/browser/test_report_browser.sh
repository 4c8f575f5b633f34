#!/usr/bin/env bash
# The page `cgbench report --html` writes, loaded by a real browser (Debian's chromium,
# headless):
# 1. benchmarks named to inject markup and script stay text: no injected element exists in
#    the DOM and the page title is unchanged (--dump-dom);
# 2. a history of real commits, each measured (a step at one commit in two benchmarks, a
#    second step later, a feature branch, a run with uncommitted changes): through the
#    DevTools protocol (tests/browser/cdp.mjs), every step `cgbench steps` finds has its
#    marker in its chart, the labels do not overlap as the browser laid them out, and the
#    page's own script ran (filter, a switch per branch) and no other. Screenshots are left
#    in OUT_DIR (report.png) for a person to look at.
# Skips (exit 77) with the reason when chromium or node is not installed.
# Usage: test_report_browser.sh CGBENCH PROGRAMS_DIR [OUT_DIR]
set -euo pipefail
cgbench="$1"
programs="$2"
here="$(cd "$(dirname "$0")" && pwd)"
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (apt-get install chromium); the page was not loaded" >&2
  exit 77
fi
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (apt-get install nodejs); the page was not measured" >&2
  exit 77
fi
work="$(mktemp -d)"
out="${3:-$work}"
mkdir -p "$out"
trap 'rm -rf "$work"' EXIT
fail=0
check() {  # check DESCRIPTION COMMAND...
  if ! "${@:2}"; then
    echo "FAIL: $1" >&2
    fail=1
  fi
}

# 1. Hostile names.
db="$work/hostile.db"
names=(
  $'<img src=x onerror="document.title=\'pwned-img\'">|**x**'
  "</script><script>document.title='pwned-script'</script>"
  $'</title></svg><svg onload="document.title=\'pwned-svg\'">'
)
for n in 2000 3000; do
  for name in "${names[@]}"; do
    "$cgbench" run -q --weights ir --db "$db" --name "$name" -- "$programs/workload" "$n"
  done
done
"$cgbench" report -q --db "$db" --html "$work/hostile.html"
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
  --dump-dom "file://$work/hostile.html" >"$work/dom.html" 2>"$work/browser.log" || {
  cat "$work/browser.log" >&2
  echo "FAIL: chromium could not load the page" >&2
  exit 1
}
count() { grep -o -- "$1" "$work/dom.html" | wc -l; }
check "the title is the page's own (no injected script ran)" grep -q '<title>cgbench history</title>' "$work/dom.html"
check "no <img> element" test "$(count '<img')" -eq 0
check "two <script> elements: the data block and the page's own" test "$(count '<script')" -eq 2
check "three benchmark sections" test "$(count '<section class="bench"')" -eq 3
check "a chart and a sparkline per benchmark" test "$(count '<svg ')" -eq 6
check "the names are shown as text" grep -qF '&lt;img src=x onerror="document.title=' "$work/dom.html"
check "the page's script ran: the filter exists" grep -q 'id="filter"' "$work/dom.html"

# 2. A history of measured commits.
repo="$work/repo"
git init -q -b main "$repo"
printf '.cgbench/\n' >"$repo/.gitignore"  # the history is not part of the commits
db="$repo/.cgbench/history.db"
commit() {  # commit SUBJECT ALPHA_N BETA_N: the suite's arguments are the code that changes
  cat >"$repo/cgbench.toml" <<TOML
[[bench]]
name = "alpha"
command = ["$programs/workload", "$2"]

[[bench]]
name = "beta/with a longer name"
command = ["$programs/workload", "$3"]

[[bench]]
name = "gamma"
command = ["$programs/workload", "1500"]
TOML
  printf '%s\n' "$1" >"$repo/CHANGES"  # every commit changes a file, even when the code does not
  git -C "$repo" add -A
  git -C "$repo" -c user.name=t -c user.email=t@example.com commit -q -m "$1"
  (cd "$repo" && "$cgbench" run -q -j 2 --db "$db")
}
commit "initial" 2000 3000
commit "docs" 2000 3000
commit "parse: more work" 2200 3300
commit "docs again" 2200 3300
commit "hot loop: a bit more" 2200 3350
commit "tidy" 2200 3350
git -C "$repo" checkout -q -b feature/faster
commit "feature: try less work" 1800 3350
git -C "$repo" checkout -q main
sed -i 's/"1500"/"1600"/' "$repo/cgbench.toml"
(cd "$repo" && "$cgbench" run -q -j 2 --db "$db")  # uncommitted changes
git -C "$repo" checkout -q -- cgbench.toml
commit "last" 2200 3350

(cd "$repo" && "$cgbench" steps --db "$db" --format json >"$work/steps.json")
(cd "$repo" && "$cgbench" report -q --db "$db" --html "$out/report.html" \
  --commit-url 'https://example.org/r/commit/{commit}')
node "$here/cdp.mjs" "$browser" "file://$out/report.html" "$out/report" 1400x1000 >/dev/null || {
  echo "FAIL: chromium could not load or measure the page" >&2
  exit 1
}
check "what the browser showed matches the steps found" node "$here/check_report.mjs" \
  "$out/report.json" "$work/steps.json"
if [ "$fail" -ne 0 ]; then
  echo "(the page and its screenshot: $out/report.html, $out/report.png)" >&2
  exit 1
fi
echo "ok: loaded in $("$browser" --version 2>/dev/null | head -n 1); nothing injected; screenshot $out/report.png"
