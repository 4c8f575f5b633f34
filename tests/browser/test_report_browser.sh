#!/usr/bin/env bash
# The page `cgbench report --html` writes, loaded by a real browser (Debian's chromium,
# headless): it parses, every benchmark section is there, and benchmarks named to inject
# markup and script stay text: no injected element exists in the DOM and the page title is
# unchanged. Skips (exit 77) with the reason when chromium is not installed.
# Usage: test_report_browser.sh CGBENCH PROGRAMS_DIR
set -euo pipefail
cgbench="$1"
programs="$2"

browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (apt-get install chromium); the page was not loaded" >&2
  exit 77
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
db="$work/history.db"
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
"$cgbench" report -q --db "$db" --html "$work/report.html"

# --dump-dom prints the DOM after the page loaded (and after any script would have run).
timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$work/profile" \
  --dump-dom "file://$work/report.html" >"$work/dom.html" 2>"$work/browser.log" || {
  cat "$work/browser.log" >&2
  echo "FAIL: chromium could not load the page" >&2
  exit 1
}

fail=0
check() {  # check DESCRIPTION COMMAND...
  if ! "${@:2}"; then
    echo "FAIL: $1" >&2
    fail=1
  fi
}
count() { grep -o -- "$1" "$work/dom.html" | wc -l; }
check "the title is the page's own (no script ran)" grep -q '<title>cgbench history</title>' "$work/dom.html"
check "no <img> element" test "$(count '<img')" -eq 0
check "no <script> element" test "$(count '<script')" -eq 0
check "three benchmark sections" test "$(count '<section class="bench"')" -eq 3
check "a chart and a sparkline per benchmark" test "$(count '<svg ')" -eq 6
check "the names are shown as text" grep -qF '&lt;img src=x onerror="document.title=' "$work/dom.html"
if [ "$fail" -ne 0 ]; then
  echo "--- DOM ---" >&2
  head -c 4000 "$work/dom.html" >&2
  exit 1
fi
echo "ok: the page loaded in $("$browser" --version 2>/dev/null | head -n 1); nothing was injected"
