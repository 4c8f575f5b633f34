#!/usr/bin/env bash
# The options reference and --help name the same options, both ways:
#   - every option `cgbench --help`, each subcommand's --help (config's included) and
#     `cgbench-pr --help` print is in docs/reference/cgbench.md (or cgbench-pr.md), in the
#     section of that command or in "Global options";
#   - every option those sections list exists in that command's --help.
# An option is a token starting with - in the first cell of a table row of the section; a
# section `<!-- options-as: SUB -->` takes the table of `cgbench SUB`, one with
# `<!-- options-in: PAGE SECTION -->` the table of SECTION in PAGE (cgbench pr's, in cgbench-pr.md).
# Usage: test_options_reference.sh CGBENCH CGBENCH_PR_SCRIPT DOCS_REFERENCE_DIR
set -euo pipefail
cgbench=$1 pr=$2 ref=$3
fail=0

# Options of one --help text: the first token of lines indented by exactly two spaces that
# start with -, split on commas ("-j,--jobs" for CLI11, "-h, --help" for cgbench-pr).
help_options() {
  awk '/^  -/ { o = $1; if (o ~ /,$/) o = o $2; n = split(o, part, ","); for (i = 1; i <= n; i++) if (part[i] ~ /^-/) print part[i] }' | sort -u
}

# Options of section "## TITLE" of a reference page (up to the next "## ").
ref_options() {
  local page=$1 title=$2
  awk -v t="## $title" '
    $0 == t { on = 1; next }
    on && /^## / { exit }
    on && /^<!-- options-as: / { sub(/^<!-- options-as: /, ""); sub(/ -->.*/, ""); print "AS " $0; next }
    on && /^<!-- options-in: / { sub(/^<!-- options-in: /, ""); sub(/ -->.*/, ""); print "IN " $0; next }
    on && /^\| / {
      split($0, cell, "|"); c = cell[2]
      if (c ~ /^ *(option|---)/) next
      while (match(c, /(^|[ `,\/])--?[A-Za-z][-A-Za-z0-9]*/)) {
        o = substr(c, RSTART, RLENGTH); sub(/^[ `,\/]/, "", o); print o
        c = substr(c, RSTART + RLENGTH)
      }
    }' "$page" | sort -u
}

section_options() {
  local page=$1 title=$2 out as in
  out=$(ref_options "$page" "$title")
  as=$(sed -n 's/^AS //p' <<<"$out")
  in=$(sed -n 's/^IN //p' <<<"$out")  # "PAGE SECTION": the table of another page's section
  if [[ -n $as ]]; then ref_options "$page" "cgbench $as"
  elif [[ -n $in ]]; then ref_options "$(dirname "$page")/${in%% *}" "${in#* }"
  else printf '%s\n' "$out" | sed '/^$/d'; fi
}

compare_sets() {
  local what=$1 help=$2 documented=$3 allowed=$4
  local missing extra
  missing=$(comm -23 <(printf '%s\n' "$help" | sed '/^$/d') <(printf '%s\n%s\n' "$documented" "$allowed" | sed '/^$/d' | sort -u))
  extra=$(comm -13 <(printf '%s\n' "$help" | sed '/^$/d') <(printf '%s\n' "$documented" | sed '/^$/d'))
  if [[ -n $missing ]]; then
    echo "FAIL: $what: in --help but not in the reference: $(echo $missing)" >&2; fail=1
  fi
  if [[ -n $extra ]]; then
    echo "FAIL: $what: in the reference but not in --help: $(echo $extra)" >&2; fail=1
  fi
}

page="$ref/cgbench.md"
global=$(section_options "$page" "Global options")
[[ -n $global ]] || { echo "FAIL: no Global options section in $page" >&2; exit 1; }
top=$("$cgbench" --help)
compare_sets "cgbench" "$(help_options <<<"$top")" "$global" ""

# Subcommands: the lines "  NAME   description" after "Subcommands:" (config has its own).
subcommands() { sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p'; }
checked=0
for sub in $(subcommands <<<"$top"); do
  text=$("$cgbench" "$sub" --help)
  nested=$(subcommands <<<"$text")
  if [[ -n $nested ]]; then
    for n in $nested; do
      opts=$(section_options "$page" "cgbench $sub $n")
      grep -qx "## cgbench $sub $n" "$page" || { echo "FAIL: no section '## cgbench $sub $n' in $page" >&2; fail=1; continue; }
      compare_sets "cgbench $sub $n" "$("$cgbench" "$sub" "$n" --help | help_options)" "$opts" "$global"
      checked=$((checked + 1))
    done
    continue
  fi
  grep -qx "## cgbench $sub" "$page" || { echo "FAIL: no section '## cgbench $sub' in $page" >&2; fail=1; continue; }
  compare_sets "cgbench $sub" "$(help_options <<<"$text")" "$(section_options "$page" "cgbench $sub")" "$global"
  checked=$((checked + 1))
done
[[ $checked -ge 10 ]] || { echo "FAIL: only $checked subcommands found in cgbench --help" >&2; exit 1; }

# cgbench-pr: its page has one options table, in "## Options".
compare_sets "cgbench-pr" "$("$pr" --help | help_options)" "$(section_options "$ref/cgbench-pr.md" "Options")" ""

[[ $fail -eq 0 ]] || exit 1
echo "ok: the options of cgbench --help, $checked subcommands and cgbench-pr --help match the reference"
