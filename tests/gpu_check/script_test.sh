#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# gpu/gpu-check.sh's verdicts and exit paths, without a GPU: --prebuilt with stand-in binaries (and a
# stand-in nvidia-smi) that answer as a passing machine would, with 1 or 2 GPUs, or fail one capture,
# leave kernels without their op tag, lose records, run slow, find no GPU, or have a CUDA 12 driver.
# summary.md must be written on every exit path, the early ones included.
#   script_test.sh REPO
set -uo pipefail
REPO=$1
WORK=$(mktemp -d /tmp/tpscope-gpu-check-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failed=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failed=1; fi; }

mkdir -p "$WORK/prebuilt/bin" "$WORK/prebuilt/lib" "$WORK/path"
# Step 10 ms without CUPTI and 10.1 ms with it; 90 % of the HBM floor at 4.32 of 4.8 TB/s.
cat >"$WORK/prebuilt/bin/tpscope-cli" <<'STUB'
#!/usr/bin/env bash
mode=${STUB_MODE:-ok}
case "$1" in
  --version) echo "tpscope 0.1.0 (stand-in)"; exit 0 ;;
  devices)
    [ "$mode" = nogpu ] && { echo "tpscope-cli: no CUDA device: no NVIDIA driver is loaded" >&2; exit 1; }
    roof=""; [[ " $* " == *" --copy-roof "* ]] && roof=", \"copy_roof_bytes_per_sec\": 4.0e12"
    echo "["; for ((i = 0; i < ${STUB_GPUS:-1}; i++)); do
      [ $i -gt 0 ] && echo ","; echo "{\"index\": $i, \"name\": \"NVIDIA H200\"$roof}"; done; echo "]"; exit 0 ;;
  analyze) [ -f "$2" ] && { echo "analysis of $2"; exit 0; }; exit 1 ;;
  allreduce)
    # Measured busbw 300 GB/s at 256 MiB against a preset of 350 (86 %); 8 KiB at 1.2x the preset's time.
    scale=1; [[ " $* " == *" --measure "* ]] && scale=0
    echo "{\"fabric\": \"nvlink4\", \"gpus\": 2, \"measured\": $([ $scale = 0 ] && echo true || echo false), \"rows\": ["
    if [ $scale = 0 ]; then
      echo '{"bytes": 8192, "time_us": 18.0, "busbw_gbps": 0.45}, {"bytes": 1048576, "time_us": 20.0, "busbw_gbps": 52.4},'
      echo '{"bytes": 268435456, "time_us": 894.8, "busbw_gbps": 300.0}]}'
    else
      echo '{"bytes": 8192, "time_us": 15.0, "busbw_gbps": 0.55}, {"bytes": 1048576, "time_us": 25.0, "busbw_gbps": 41.9},'
      echo '{"bytes": 268435456, "time_us": 767.0, "busbw_gbps": 350.0}]}'
    fi
    exit 0 ;;
esac
batch=1 cupti=1 out="" tp=1
while [ $# -gt 0 ]; do
  case "$1" in --batch) batch=$2; shift ;; --tp) tp=$2; shift ;; --no-cupti) cupti=0 ;; --out) out=$2; shift ;; esac
  shift
done
if [ "$mode" = fail-b16 ] && [ "$batch" = 16 ] && [ $cupti = 1 ]; then
  echo "tpscope-cli: capture failed: CUDA error cudaErrorIllegalAddress" >&2; exit 1
fi
untagged=0 lost=0 fraction=0.9
[ "$mode" = untagged ] && [ $cupti = 1 ] && untagged=3
[ "$mode" = lost ] && [ $cupti = 1 ] && lost=5
[ "$mode" = slow ] && fraction=0.5
step=$((cupti ? 10100000 : 10000000))
# noisy: the first two batch-1 runs without CUPTI are 5 % slow; the min of three must not see them.
if [ "$mode" = noisy ] && [ "$batch" = 1 ] && [ $cupti = 0 ] && [ -n "${STUB_COUNTER:-}" ]; then
  n=$(($(cat "$STUB_COUNTER" 2>/dev/null || echo 0) + 1)); echo $n >"$STUB_COUNTER"
  [ $n -le 2 ] && step=10500000
fi
bytes=3.6e10; [ "$mode" = slow ] && bytes=2.0e10
[ $cupti = 1 ] && echo '{"traceEvents": []}' >"$out"
echo "{\"median_step_ns\": $step, \"tokens_per_sec\": $((batch * 100)), \"gpu_preset\": \"h200-sxm\", \"tp\": $tp,"
echo " \"peak_hbm_bytes_per_sec\": 4.8e12, \"achieved_bytes_per_sec\": 4.32e12, \"fraction_of_hbm_floor\": $fraction,"
# The floor's bytes (streamed weights + KV); the step's bytes also count activations and writes.
echo " \"hbm_floor_bytes_per_gpu\": $bytes, \"bytes_per_step_per_gpu\": 3.7e10,"
echo " \"dropped_records\": \"0\", \"records_lost\": $lost, \"unattributed_kernels\": \"$untagged\"}"
STUB
printf '#!/usr/bin/env bash\necho "[  PASSED  ] 12 tests."\n' >"$WORK/prebuilt/bin/gpu_tests"
cat >"$WORK/path/nvidia-smi" <<'STUB'
#!/usr/bin/env bash
if [[ "$*" == *noheader* ]]; then echo "${STUB_DRIVER:-580.82.07}"; exit 0; fi
echo "name, memory.total [MiB], driver_version, compute_cap"
echo "NVIDIA H200, 143771 MiB, ${STUB_DRIVER:-580.82.07}, 9.0"
STUB
chmod +x "$WORK/prebuilt/bin/"* "$WORK/path/nvidia-smi"

run() {  # name [VAR=value ...] -> exit status in $WORK/<name>.rc, output in $WORK/<name>
  local name=$1
  shift
  env PATH="$WORK/path:$PATH" GPU_CHECK_BUDGET_S=120 "$@" "$REPO/gpu/gpu-check.sh" --prebuilt "$WORK/prebuilt" \
    "$WORK/$name" >"$WORK/$name.out" 2>&1
  echo $? >"$WORK/$name.rc"
}
run ok
run two STUB_GPUS=2
run fail-b16 STUB_MODE=fail-b16
run untagged STUB_MODE=untagged
run lost STUB_MODE=lost
run slow STUB_MODE=slow
run noisy STUB_MODE=noisy STUB_COUNTER="$WORK/noisy.count"
run nogpu STUB_MODE=nogpu
run olddriver STUB_DRIVER=550.54.15
# A bundle built with a CUDA 12 toolkit (MANIFEST) runs on that same 12.x driver.
cp -r "$WORK/prebuilt" "$WORK/prebuilt12" && echo "cuda_major 12" >"$WORK/prebuilt12/MANIFEST"
env PATH="$WORK/path:$PATH" GPU_CHECK_BUDGET_S=120 STUB_DRIVER=550.54.15 "$REPO/gpu/gpu-check.sh" \
  --prebuilt "$WORK/prebuilt12" "$WORK/cuda12" >"$WORK/cuda12.out" 2>&1
echo $? >"$WORK/cuda12.rc"
env PATH="$WORK/path:$PATH" "$REPO/gpu/gpu-check.sh" --prebuilt "$WORK/missing" "$WORK/noprebuilt" >"$WORK/noprebuilt.out" 2>&1
echo $? >"$WORK/noprebuilt.rc"

rc() { cat "$WORK/$1.rc"; }
S() { echo "$WORK/$1/summary.md"; }
check "a passing machine exits 0" '[ "$(rc ok)" = 0 ]'
check "its summary has the batch 1 row: HBM floor 90.0 %, CUPTI overhead 1.00 %, achieved beside the roof" \
  'grep -E "^\| batch 1 \| 10.000 ms \| 10.100 ms \| 1.00 % \| 100.0 \| 90.0 % \| 4.32 / 4.00 TB/s " "$(S ok)" >/dev/null'
check "its verdicts: HBM floor PASS, CUPTI overhead PASS, no record lost PASS" \
  'grep -q "^| HBM floor reached, batch 1 | 90.0 % | >= 85 % | PASS |" "$(S ok)" &&
   grep -q "^| CUPTI overhead, batch 1 | 1.00 % | <= 2 % | PASS |" "$(S ok)" &&
   grep -q "^| records lost, batch 1 | 0 | 0 | PASS |" "$(S ok)"'
check "the copy roof is measured and named beside the achieved bandwidth" \
  'grep -q "^| copy roof, GPU 0 (measured) | 4.00 TB/s | measured | PASS |" "$(S ok)" &&
   grep -q "4.32 / 4.00 TB/s (measured copy roof)" "$(S ok)"'
check "the weights + KV floor at that roof: 3.6e10 B / 4.0e12 B/s = 9 ms of a 10 ms step, 90 %, PASS" \
  'grep -q "^| weights + KV floor at the measured copy roof, batch 1 | 90.0 % | >= 80 % | PASS |" "$(S ok)"'
check "batch 1 ran three interleaved pairs, with and without CUPTI" \
  'for r in 1 2 3; do [ -f "$WORK/ok/b1-r$r.json" ] && [ -f "$WORK/ok/b1-nocupti-r$r.json" ] || exit 1; done'
check "noisy runs: CUPTI overhead from the shortest of three (1.00 %), not from a slow one" \
  '[ "$(rc noisy)" = 0 ] && grep -q "^| CUPTI overhead, batch 1 | 1.00 % | <= 2 % | PASS |" "$(S noisy)"'
check "one GPU: TP >= 2 and NCCL skipped with a WARN" 'grep -q "^| TP >= 2 and NCCL | skipped: 1 GPU | | WARN |" "$(S ok)"'
check "it keeps the captured trace" '[ -f "$WORK/ok/trace-b1.json" ]'
check "it records the test result" 'grep -q "PASSED" "$WORK/ok/tests.log"'
check "it does not say FAILED" '! grep -q FAILED "$(S ok)"'

check "two GPUs: exits 0" '[ "$(rc two)" = 0 ]'
check "two GPUs: a TP 2 capture, eager and as a graph" '[ -f "$WORK/two/tp2.json" ] && [ -f "$WORK/two/tp2-graph.json" ]'
check "two GPUs: allreduce --measure at 256 MiB judged against the preset (86 %, PASS)" \
  'grep -q "^| all-reduce busbw, 256 MiB, 2 GPUs | 300.0 GB/s (86 % of nvlink4.s 350.0) | >= 70 % of the preset | PASS |" "$(S two)"'
check "two GPUs: 8 KiB at 1.2x the preset's time is a PASS" \
  'grep -q "^| all-reduce time, 8192 B, 2 GPUs | 18.00 us (1.20x the preset.s 15.00) | <= 1.5x the preset | PASS |" "$(S two)"'
check "two GPUs: 1 MiB within the preset's time is a PASS" 'grep -q "^| all-reduce time, 1048576 B, 2 GPUs .* | PASS |" "$(S two)"'

check "one failed capture makes the check fail" '[ "$(rc fail-b16)" = 1 ]'
check "and the log names it" 'grep -q "FAILED: capture b16 (exit 1)" "$WORK/fail-b16/gpu-check.log"'
check "and the summary says so, with a FAIL verdict" \
  'grep -q "gpu-check FAILED" "$(S fail-b16)" && grep -q "^| capture b16 (exit 1).* | FAIL |" "$(S fail-b16)"'
check "kernels without their op tag make the check fail" '[ "$(rc untagged)" = 1 ]'
check "and the log says how many" 'grep -q "3 kernels lack their op tag" "$WORK/untagged/gpu-check.log"'
check "lost records make the check fail" '[ "$(rc lost)" = 1 ]'
check "and the log and the verdict say how many" \
  'grep -q "capture b1-r1: 5 CUPTI records lost" "$WORK/lost/gpu-check.log" && grep -q "^| records lost, batch 1 | 5 | 0 | FAIL |" "$(S lost)"'
check "and at the measured roof too: 2.0e10 B / 4.0e12 B/s over 10 ms is 50 %, FAIL" \
  'grep -q "^| weights + KV floor at the measured copy roof, batch 1 | 50.0 % | >= 80 % | FAIL |" "$(S slow)"'
check "a step at 50 % of the HBM floor is a FAIL verdict and fails the check" \
  '[ "$(rc slow)" = 1 ] && grep -q "^| HBM floor reached, batch 1 | 50.0 % | >= 85 % | FAIL |" "$(S slow)" && grep -q "gpu-check FAILED" "$(S slow)"'

check "no GPU: the check fails" '[ "$(rc nogpu)" = 1 ]'
check "and still writes a summary naming why" \
  'grep -q "no usable GPU" "$(S nogpu)" && grep -q "gpu-check FAILED" "$(S nogpu)"'
check "a CUDA 12 driver stops the check early" '[ "$(rc olddriver)" = 1 ]'
check "with the driver named in the summary" \
  'grep -q "Stopped early.*driver 550.54.15 too old for CUDA 13, need >= 580" "$(S olddriver)"'
check "a CUDA 12 bundle on a 550 driver passes the driver gate and the check" \
  '[ "$(rc cuda12)" = 0 ] && grep -q "^| NVIDIA driver | 550.54.15 (>= 525 for CUDA 12) | | PASS |" "$(S cuda12)"'
check "a missing --prebuilt folder fails with a summary too" \
  '[ "$(rc noprebuilt)" = 1 ] && grep -q "no folder $WORK/missing" "$(S noprebuilt)"'
[ $failed -eq 0 ] || for m in ok two fail-b16 untagged lost slow noisy nogpu olddriver cuda12 noprebuilt; do
  echo "--- $m"; cat "$WORK/$m.out"; [ -f "$(S $m)" ] && cat "$(S $m)"; done
exit $failed
