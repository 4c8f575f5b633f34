#!/usr/bin/env bash
# The generated man pages are well formed: each starts with .TH NAME SECTION, has NAME,
# SYNOPSIS and DESCRIPTION sections in that order, every request is a man(7) macro the
# converter writes, .nf/.fi and .RS/.RE pair up, and groff formats it without one warning
# (-ww: all of them); cgbench.1 names every option of `cgbench run --help`.
# Usage: test_man_pages.sh CGBENCH BUILD_SRC_DIR
set -euo pipefail
cgbench=$1 dir=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

for page in cgbench.1 cgbench-pr.1 cgbench.toml.5; do
  f="$dir/$page"
  [[ -s $f ]] || fail "$f was not generated"
  name=${page%.*} section=${page##*.}
  head -n1 "$f" | grep -q "^\.TH \"${name^^}\" \"$section\" " || fail "$page: the first line is not .TH ${name^^} $section"
  order=$(sed -n 's/^\.SH "\{0,1\}\([A-Z ]*\)"\{0,1\}$/\1/p' "$f" | grep -xE 'NAME|SYNOPSIS|DESCRIPTION' | tr '\n' ' ')
  [[ $order == "NAME SYNOPSIS DESCRIPTION " ]] || fail "$page: sections NAME, SYNOPSIS, DESCRIPTION expected in that order, got '$order'"
  bad=$(grep -nE '^[.'"'"']' "$f" | grep -vE '^[0-9]+:\.(TH|SH|SS|PP|TP|IP|RS|RE|nf|fi|br|BR)( |$)' || true)
  [[ -z $bad ]] || fail "$page: requests that are not the converter's man macros: $bad"
  [[ $(grep -c '^\.nf$' "$f") == $(grep -c '^\.fi$' "$f") ]] || fail "$page: .nf and .fi do not pair up"
  [[ $(grep -c '^\.RS' "$f") == $(grep -c '^\.RE$' "$f") ]] || fail "$page: .RS and .RE do not pair up"
  if [[ -s "$f.gz" ]]; then
    cmp -s <(gzip -dc "$f.gz") "$f" || fail "$page.gz is not $page"
  fi
done

# Every option of `cgbench run` is in cgbench.1, as roff writes it (\- for each -).
for opt in $("$cgbench" run --help | awk '/^  -/ { n = split($1, p, ","); for (i = 1; i <= n; i++) print p[i] }'); do
  grep -qF -- "${opt//-/\\-}" "$dir/cgbench.1" || fail "cgbench.1 does not name $opt"
done

if ! command -v groff >/dev/null; then
  echo "skipped: the pages are well formed, but groff is not installed to format them (scripts/install-deps.sh installs groff-base)"
  exit 77
fi
for page in cgbench.1 cgbench-pr.1 cgbench.toml.5; do
  warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$dir/$page" 2>&1 >/dev/null)
  [[ -z $warnings ]] || fail "groff warns about $page: $warnings"
  lines=$(LC_ALL=C.UTF-8 groff -man -Tutf8 "$dir/$page" 2>/dev/null | wc -l)
  [[ $lines -gt 20 ]] || fail "$page formats to only $lines lines"
done
echo "ok: cgbench.1, cgbench-pr.1 and cgbench.toml.5 are well formed and groff formats them without a warning"
