#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Rewrites tests/golden/expected from the current build in one command: builds tpscope-cli and the
# CLI tests, then runs the golden test in write mode (TPSCOPE_UPDATE_GOLDENS=1), so the files come
# from exactly the commands the test checks (tests/golden/cases.txt). Review `git diff tests/golden`
# like code: every changed number must be explained by the change that moved it. The simulated
# goldens (sim.*) change whenever the simulator's model does.
#   scripts/update-goldens.sh            # preset dev
#   TPSCOPE_PRESET=asan scripts/update-goldens.sh
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${TPSCOPE_PRESET:-dev}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target tpscope-cli cli_tests
TPSCOPE_UPDATE_GOLDENS=1 "build/$preset/tests/cli_tests" --gtest_filter='Golden.CliOutputsEqualTheCheckedInExpectations' \
  --gtest_brief=1 >/dev/null
git status --short tests/golden
echo "update-goldens: rewritten; review with: git diff tests/golden"
