#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Rewrites the outputs README.md and docs/*.md show, from the current build, in one command: builds
# tpscope-cli (and the GUI where it is configured), then runs the docs runner in write mode
# (scripts/docs-runner.py --update), so every shown output and every generated table comes from
# exactly the commands the docs test (ctest -R docs_examples) checks. Review `git diff README.md docs`
# like code: every changed number must be explained by the change that moved it (the simulated
# numbers move whenever the simulator's model does). Set TPSCOPE_PUBLIC_TRACES to refresh the blocks
# that read the public traces too (without it they are skipped and keep what they show).
#   scripts/update-docs.sh            # preset dev
#   TPSCOPE_PRESET=ci scripts/update-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${TPSCOPE_PRESET:-dev}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target tpscope-cli
# The GUI target exists when Qt was found (TPSCOPE_WITH_GUI=AUTO); its headless blocks need it.
if grep -q '^build tpscope:\|^build app/gui/tpscope:' "build/$preset/build.ninja" 2>/dev/null; then
  cmake --build --preset "$preset" --target tpscope
fi
python3 scripts/docs-runner.py --bin "build/$preset/app" --update README.md docs/*.md
git status --short README.md docs
echo "update-docs: rewritten; review with: git diff README.md docs"
