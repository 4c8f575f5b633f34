#!/usr/bin/env bash
# Validates the action and every workflow file with @action-validator/cli (GitHub's schemas),
# after checking that it rejects a broken action and a broken workflow (so a pass means
# something).
# Usage: test_action_validator.sh BUILD_DIR
set -euo pipefail
# shellcheck source=tests/ci/lib.sh
source "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: test_action_validator.sh BUILD_DIR" >&2; exit 2; }
ci_install_clients
scratch="$(ci_scratch "$1" action-validator)"

printf 'name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo no shell\n' \
  >"$scratch/action.yml"
printf 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    stepz: []\n' >"$scratch/broken.yml"
for broken in "$scratch/action.yml" "$scratch/broken.yml"; do
  if "$ci_bin/action-validator" "$broken" >/dev/null 2>&1; then
    fail "action-validator accepted the broken $broken"
  fi
done

files=("$ci_root/ci/github/action.yml" "$ci_root"/ci/github/examples/*.yml
       "$ci_root"/.github/workflows/*.yml)
[ "${#files[@]}" -ge 6 ] || fail "expected the action, 3 examples and 2 workflows, found ${files[*]}"
for f in "${files[@]}"; do
  "$ci_bin/action-validator" "$f" || fail "action-validator rejects ${f#"$ci_root/"}"
  echo "valid: ${f#"$ci_root/"}"
done
