#!/usr/bin/env bash
# Checks that every tracked C++ file is as clang-format writes it (.clang-format: Google style at 120 columns) and
# every TypeScript and script file of the web as Prettier writes it (web/.prettierrc.json). Nothing is rewritten:
# run scripts/format-check.sh --fix to format the tree.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t cpp < <(git ls-files '*.cpp' '*.h')
web=('src/**/*.ts' 'test/**/*.ts' 'e2e/**/*.mjs' 'e2e/**/*.ts' 'scripts/**/*.mjs' '*.ts')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${cpp[@]}"
  (cd web && npx prettier --log-level warn --no-error-on-unmatched-pattern --write "${web[@]}")
  exit 0
fi
clang-format --dry-run --Werror "${cpp[@]}"
echo "format: ${#cpp[@]} C++ files as clang-format writes them"
(cd web && npx prettier --log-level warn --no-error-on-unmatched-pattern --check "${web[@]}")
echo "format: the web's TypeScript and scripts as Prettier writes them"
