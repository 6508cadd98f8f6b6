#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Configuring on a machine without the Debian dev packages (a bare GPU box): one message naming every
# missing package and the --bundle way around it; without GoogleTest the project still configures.
#   configure_test.sh REPO
set -uo pipefail
REPO=$1
WORK=$(mktemp -d /tmp/tpscope-configure-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failed=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failed=1; fi; }
common=(-DTPSCOPE_WITH_CUDA=OFF -DTPSCOPE_WITH_GUI=OFF -DTPSCOPE_BUILD_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)

cmake -S "$REPO" -B "$WORK/missing" "${common[@]}" -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON >"$WORK/missing.log" 2>&1
rc=$?
check "configure fails without simdjson and CLI11 (exit $rc)" '[ $rc -ne 0 ]'
flat() { tr -s ' \n' '  ' <"$1"; }  # CMake wraps long messages
check "one message names both Debian packages" 'flat "$WORK/missing.log" | grep -q "libsimdjson-dev libcli11-dev"'
check "and points to gpu-check.sh --bundle" 'flat "$WORK/missing.log" | grep -q "gpu-check.sh --bundle"'

cmake -S "$REPO" -B "$WORK/nogtest" "${common[@]}" -DTPSCOPE_BUILD_TESTS=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  >"$WORK/nogtest.log" 2>&1
rc=$?
check "configure succeeds without GoogleTest (exit $rc)" '[ $rc -eq 0 ]'
check "and says the tests are not built" 'flat "$WORK/nogtest.log" | grep -q "tests are not built"'
[ $failed -eq 0 ] || { cat "$WORK/missing.log" "$WORK/nogtest.log"; }
exit $failed
