#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# gpu/gpu-check.sh's verdict, without a GPU: --prebuilt with stand-in binaries that answer as a
# passing machine would, or fail one capture, or leave kernels without their op tag.
#   script_test.sh REPO
set -uo pipefail
REPO=$1
WORK=$(mktemp -d /tmp/tpscope-gpu-check-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failed=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failed=1; fi; }

mkdir -p "$WORK/prebuilt/bin" "$WORK/prebuilt/lib"
# Step 10 ms without CUPTI and 10.1 ms with it; 90 % of the HBM floor; STUB_MODE picks a failure.
cat >"$WORK/prebuilt/bin/tpscope-cli" <<'STUB'
#!/usr/bin/env bash
case "$1" in
  --version) echo "tpscope 0.1.0 (stand-in)"; exit 0 ;;
  devices) echo "index name memory"; echo "0 NVIDIA H200 141 GB"; exit 0 ;;
  analyze) [ -f "$2" ] && { echo "analysis of $2"; exit 0; }; exit 1 ;;
esac
batch=1 cupti=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in --batch) batch=$2; shift ;; --no-cupti) cupti=0 ;; --out) out=$2; shift ;; esac
  shift
done
if [ "${STUB_MODE:-ok}" = fail-b16 ] && [ "$batch" = 16 ] && [ $cupti = 1 ]; then
  echo "tpscope-cli: capture failed: CUDA error cudaErrorIllegalAddress" >&2; exit 1
fi
untagged=0
[ "${STUB_MODE:-ok}" = untagged ] && [ $cupti = 1 ] && untagged=3
step=$((cupti ? 10100000 : 10000000))
[ $cupti = 1 ] && echo '{"traceEvents": []}' >"$out"
echo "{\"median_step_ns\": $step, \"tokens_per_sec\": $((batch * 100)), \"gpu_preset\": \"h200-sxm\","
echo " \"peak_hbm_bytes_per_sec\": 4.8e12, \"fraction_of_hbm_floor\": 0.9, \"dropped_records\": \"0\","
echo " \"unattributed_kernels\": \"$untagged\"}"
STUB
printf '#!/usr/bin/env bash\necho "[  PASSED  ] 12 tests."\n' >"$WORK/prebuilt/bin/gpu_tests"
chmod +x "$WORK/prebuilt/bin/"*

run() {  # mode -> exit status in $WORK/<mode>.rc, output in $WORK/<mode>
  STUB_MODE=$1 GPU_CHECK_BUDGET_S=120 "$REPO/gpu/gpu-check.sh" --prebuilt "$WORK/prebuilt" "$WORK/$1" >"$WORK/$1.out" 2>&1
  echo $? >"$WORK/$1.rc"
}
run ok
run fail-b16
run untagged

check "a passing machine exits 0" '[ "$(cat "$WORK/ok.rc")" = 0 ]'
check "its summary has the batch 1 row: HBM floor 90.0 %, CUPTI overhead 1.00 %" \
  'grep -E "^\| batch 1 \| 10.000 ms \| 10.100 ms \| 1.00 % \| 100.0 \| 90.0 % " "$WORK/ok/summary.md" >/dev/null'
check "it keeps the captured trace" '[ -f "$WORK/ok/trace-b1.json" ]'
check "it records the test result" 'grep -q "PASSED" "$WORK/ok/tests.log"'
check "it does not say FAILED" '! grep -q FAILED "$WORK/ok/summary.md"'
check "one failed capture makes the check fail" '[ "$(cat "$WORK/fail-b16.rc")" = 1 ]'
check "and the log names it" 'grep -q "FAILED: capture b16 (exit 1)" "$WORK/fail-b16/gpu-check.log"'
check "and the summary says so" 'grep -q "gpu-check FAILED" "$WORK/fail-b16/summary.md"'
check "kernels without their op tag make the check fail" '[ "$(cat "$WORK/untagged.rc")" = 1 ]'
check "and the log says how many" 'grep -q "3 kernels lack their op tag" "$WORK/untagged/gpu-check.log"'
[ $failed -eq 0 ] || for m in ok fail-b16 untagged; do echo "--- $m"; cat "$WORK/$m.out"; done
exit $failed
