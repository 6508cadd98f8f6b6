#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# The weekly sanitizer run (AddressSanitizer + UBSan, preset "asan"): a second full Debug build plus
# every test, which does not fit the per-change CI time on 2 cores. Run it from cron, e.g.
#   0 3 * * 0  cd /path/to/tpscope && git pull -q && scripts/weekly-asan.sh > asan.log 2>&1
# Exit status non-zero on any failure or sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan --parallel "$(nproc 2>/dev/null || echo 2)"
# Leaks of libraries we do not own are suppressed (tests/lsan.supp: fontconfig's cache behind Qt's
# font database, OpenMPI's). OpenMPI also leaks from its components, which it dlcloses before exit,
# so their frames have no module to suppress by: the MPI launch tests run with leak detection off
# (every other check on).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 ctest --preset asan --output-on-failure -E '^MpiLaunch\.' "$@" || status=1
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 ctest --preset asan --output-on-failure -R '^MpiLaunch\.' "$@" || status=1
exit $status
