#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Configuring on a machine without the Debian dev packages (a bare GPU box): one message naming every
# missing package and the --bundle way around it; without GoogleTest the project still configures.
# TPSCOPE_WITH_CUDA=AUTO with nvcc missing, or with an nvcc that rejects the host compiler, turns the
# backend off with one message and configures; =ON fails with that message.
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
# nvcc missing, or one that rejects the host compiler (as a CUDA 13.0 nvcc does a too new gcc).
cat >"$WORK/nvcc-rejects" <<'NVCC'
#!/bin/sh
echo "/usr/local/cuda/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 14 are not supported!" >&2
exit 1
NVCC
chmod +x "$WORK/nvcc-rejects"
auto=(-DTPSCOPE_WITH_CUDA=AUTO -DTPSCOPE_WITH_GUI=OFF -DTPSCOPE_BUILD_BENCH=OFF -DTPSCOPE_BUILD_TESTS=OFF
  -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
have_cuda=0
[ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null && have_cuda=1
for case in nonvcc rejects; do
  nvcc="$WORK/no/such/nvcc"
  [ $case = rejects ] && nvcc="$WORK/nvcc-rejects"
  cmake -S "$REPO" -B "$WORK/$case" "${auto[@]}" -DCMAKE_CUDA_COMPILER="$nvcc" >"$WORK/$case.log" 2>&1
  rc=$?
  check "AUTO, $case: configure succeeds (exit $rc)" '[ $rc -eq 0 ]'
  check "AUTO, $case: the backend is off" 'grep -q "CUDA backend OFF" "$WORK/$case.log"'
  if [ $have_cuda = 1 ]; then  # the reason shows only where the rest of the CUDA stack was found
    check "AUTO, $case: one message says why" '[ "$(grep -c "GPU backend off" "$WORK/$case.log")" = 1 ]'
  fi
done
if [ $have_cuda = 1 ]; then
  check "the rejection names the host compiler and nvcc's reason" \
    'flat "$WORK/rejects.log" | grep -q "accepts the host compiler .*unsupported GNU version"'
  cmake -S "$REPO" -B "$WORK/on-rejects" "${auto[@]}" -DTPSCOPE_WITH_CUDA=ON -DCMAKE_CUDA_COMPILER="$WORK/nvcc-rejects" \
    >"$WORK/on-rejects.log" 2>&1
  rc=$?
  check "ON with a rejecting nvcc fails configure with the reason (exit $rc)" \
    '[ $rc -ne 0 ] && flat "$WORK/on-rejects.log" | grep -q "unsupported GNU version"'
fi
[ $failed -eq 0 ] || { cat "$WORK/missing.log" "$WORK/nogtest.log" "$WORK"/nonvcc.log "$WORK"/rejects.log; }
exit $failed
