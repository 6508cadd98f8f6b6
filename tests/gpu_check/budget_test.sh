#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# gpu/gpu-check.sh's budget in source mode (gpu-check.sh OUT): a build that takes longer than the
# whole budget must leave the budget to the checks, which start after it. The script runs from a
# copy of gpu/ (so its build folder is the copy's) with a stand-in cmake whose build sleeps longer
# than GPU_CHECK_BUDGET_S and leaves stand-in binaries where a real build puts them, and a stand-in
# nvidia-smi. The first checks (devices, copy roof, gpu tests) must run, not stop "out of time".
#   budget_test.sh REPO
set -uo pipefail
REPO=$1
WORK=$(mktemp -d /tmp/tpscope-gpu-check-budget.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
BUDGET_S=10
BUILD_S=$((BUDGET_S + 2))
mkdir -p "$WORK/repo/gpu" "$WORK/bin" "$WORK/stand-ins"
cp "$REPO/gpu/gpu-check.sh" "$REPO/gpu/gpu_check_summary.py" "$WORK/repo/gpu/"
cat >"$WORK/stand-ins/tpscope-cli" <<'STUB'
#!/usr/bin/env bash
case "$1" in
  --version) echo "tpscope (stand-in)" ;;
  devices) roof=""; [[ " $* " == *" --copy-roof "* ]] && roof=', "copy_roof_bytes_per_sec": 4.0e12'
    echo "[{\"index\": 0, \"name\": \"NVIDIA H200\"$roof}]" ;;
  *) exit 1 ;;
esac
STUB
printf '#!/usr/bin/env bash\necho "[  PASSED  ] 12 tests."\n' >"$WORK/stand-ins/gpu_tests"
cat >"$WORK/bin/cmake" <<'STUB'
#!/usr/bin/env bash
if [ "$1" = -S ]; then echo "-- tpscope: CUDA backend ON (stand-in)"; exit 0; fi
dir=$2
if [[ " $* " == *" help "* ]]; then printf '... tpscope-cli\n... gpu_tests\n'; exit 0; fi
sleep "$BUILD_S"
mkdir -p "$dir/app" "$dir/tests" && cp "$STAND_INS/tpscope-cli" "$dir/app/" && cp "$STAND_INS/gpu_tests" "$dir/tests/"
STUB
cat >"$WORK/bin/nvidia-smi" <<'STUB'
#!/usr/bin/env bash
if [[ "$*" == *compute_cap*noheader* ]]; then echo "9.0"; exit 0; fi
if [[ "$*" == *noheader* ]]; then echo "580.82.07"; exit 0; fi
echo "name, memory.total [MiB], driver_version, compute_cap"; echo "NVIDIA H200, 143771 MiB, 580.82.07, 9.0"
STUB
chmod +x "$WORK/stand-ins/"* "$WORK/bin/"*
env PATH="$WORK/bin:$PATH" GPU_CHECK_BUDGET_S=$BUDGET_S BUILD_S=$BUILD_S STAND_INS="$WORK/stand-ins" \
  "$WORK/repo/gpu/gpu-check.sh" "$WORK/out" >"$WORK/out.log" 2>&1
LOG="$WORK/out/gpu-check.log"
failed=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failed=1; fi; }
check "the build took longer than the budget (${BUILD_S}s > ${BUDGET_S}s)" \
  'grep -Eq "^\[gpu-check \+([0-9]+)s\] built tpscope-cli gpu_tests" "$LOG" &&
   [ "$(grep -Eo "^\[gpu-check \+[0-9]+s\] built" "$LOG" | grep -Eo "[0-9]+")" -ge $BUILD_S ]'
check "the budget starts after the build" 'grep -q "budget of the check starts now, after the build" "$LOG"'
check "devices ran, not out of time" '! grep -q "out of time before: .*devices" "$LOG" && grep -q "^PASS	tpscope-cli devices" "$WORK/out/checks.tsv"'
check "the gpu tests ran" 'grep -q "^PASS	gpu tests" "$WORK/out/checks.tsv"'
[ $failed -eq 0 ] || { cat "$WORK/out.log"; cat "$WORK/out/checks.tsv"; }
exit $failed
