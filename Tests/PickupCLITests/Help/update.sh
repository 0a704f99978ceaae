#!/usr/bin/env bash
# Writes each command's help as the built tool prints it, 100 columns wide, for
# HelpTests to compare with. Run after changing a help text, then read the diff.
set -euo pipefail
cd "$(dirname "$0")/../../.."
tool=$(swift build --show-bin-path)/pickup
for command in "" probe import library thumb export upload uploads "uploads list" "uploads resume" "uploads cancel" "uploads prune"; do
  name=${command:-pickup}
  # shellcheck disable=SC2086  # a command of two words is two arguments
  COLUMNS=100 "$tool" $command --help >"Tests/PickupCLITests/Help/${name// /-}.txt"
done
