#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# The style gates CI runs (.ci/run), on the lines a change touches: clang-format (the repo's
# .clang-format) and clang-tidy (the repo's .clang-tidy; any warning fails). Both read the diff from
# BASE: by default the merge-base with main (origin/main in a CI clone), or the previous commit when
# HEAD is on main itself.
#   scripts/check-style.sh format [BASE]
#   scripts/check-style.sh tidy [BASE]      needs build/${TPSCOPE_PRESET:-dev}/compile_commands.json
#   scripts/check-style.sh includes        every file includes the standard headers it uses
#                                          (scripts/check-includes.py, the whole tree, ~1 s), and
#                                          no folder of ui/ or core/ includes one that includes it
#                                          back (scripts/check-folder-layers.py, < 1 s)
#   scripts/check-style.sh all [BASE]       all three
# Measured on the 2-core CI machine: format of the whole tree 3 s; tidy ~7-14 s per changed .cpp file
# (the whole tree, ~250 files, would take about an hour, so CI checks the changed lines only; the
# "tidy" preset builds everything with clang-tidy for a full local run).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
base="${2:-}"
if [ -z "$base" ]; then
  for ref in origin/main main; do
    if git rev-parse -q --verify "$ref" >/dev/null; then base="$(git merge-base HEAD "$ref")"; break; fi
  done
  if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
    base="$(git rev-parse -q --verify HEAD~1 || git hash-object -t tree /dev/null)"
  fi
fi
status=0

if [ "$mode" = includes ] || [ "$mode" = all ]; then
  # The whole tree, not the diff: a file can lose a header it leant on when another file changes.
  scripts/check-includes.py || { echo "check-style: add the standard headers named above" >&2; status=1; }
  scripts/check-folder-layers.py || { echo "check-style: break the folder circles named above" >&2; status=1; }
fi

if [ "$mode" = format ] || [ "$mode" = all ]; then
  out="$(git diff -U0 --no-color "$base" -- '*.cpp' '*.h' '*.cu' '*.cuh' | clang-format-diff -p1 || true)"
  if [ -n "$out" ]; then
    echo "$out"
    echo "check-style: clang-format would change the lines above (clang-format -i the files)" >&2
    status=1
  else
    echo "check-style: format clean (since ${base:0:12})"
  fi
fi

if [ "$mode" = tidy ] || [ "$mode" = all ]; then
  build="build/${TPSCOPE_PRESET:-dev}"
  [ -f "$build/compile_commands.json" ] || { echo "check-style: no $build/compile_commands.json (configure first)" >&2; exit 2; }
  # Library and application sources only: tests follow GoogleTest's macro idioms, not these checks.
  out="$(git diff -U0 --no-color "$base" -- 'core/*.cpp' 'app/*.cpp' 'ui/*.cpp' 'gpu/*.cpp' |
    clang-tidy-diff -p1 -path "$build" -quiet -j "$(nproc 2>/dev/null || echo 2)" 2>/dev/null || true)"
  # Searched as a here-string, not 'echo | grep -q': under pipefail, echo dies of SIGPIPE when grep
  # quits early on a long output, and the warnings would read as clean.
  if grep -qE '(warning|error):' <<<"$out"; then
    echo "$out" | grep -E -A3 '(warning|error):'
    echo "check-style: clang-tidy warnings on changed lines" >&2
    status=1
  else
    echo "check-style: tidy clean (since ${base:0:12})"
  fi
fi
exit $status
