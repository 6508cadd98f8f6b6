#!/usr/bin/env bash
# gpu/gpu-check.sh: the device check of the GPU backend (issue 6), for a machine with an NVIDIA
# GPU, the CUDA toolkit (nvcc 13) and maybe no Qt, no MPI, no GoogleTest.
#
#   gpu/gpu-check.sh [OUT_DIR]                   build here from source, then check
#   gpu/gpu-check.sh --prebuilt DIR [OUT_DIR]    use DIR/bin/{tpscope-cli,gpu_tests} and DIR/lib
#   gpu/gpu-check.sh --bundle DIR                on a machine WITHOUT a GPU but with the build
#                                                dependencies: build and copy binaries + their
#                                                non-CUDA shared libraries into DIR for --prebuilt
#
# The check: runs the `gpu`-labelled tests (skipped, and said so, when GoogleTest is missing),
# then TP=1 captures of llama3-8b at batch 1 and 16, each with and without CUPTI (the overhead)
# and batch 1 in CUDA-graph mode, and writes into OUT_DIR (default $OUT, else ./gpu-check-out):
#   gpu-check.log   what was found and used, every step and its time
#   tests.log       the test output
#   summary.md / summary.json   step latency, tokens/s, achieved HBM bandwidth vs peak, the HBM
#                   floor reached, CUPTI overhead (step time with vs without capture), dropped records
#   trace-b1.json, trace-b16.json   the captured traces (Chrome trace JSON until the workspace format)
# NCCL and CUPTI are taken from the toolkit when it has them, else from the Python wheels
# (site-packages/nvidia/*: nvidia-nccl-cu13, nvidia-cuda-cupti). Total budget: under 8 minutes.
set -uo pipefail

MODE=check
PREBUILT=""
BUNDLE=""
case "${1:-}" in
  --prebuilt) PREBUILT=$(cd "${2:?--prebuilt needs a folder}" && pwd); shift 2 ;;
  --bundle) MODE=bundle; BUNDLE="${2:?--bundle needs a folder}"; shift 2 ;;
  -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
esac
OUT_DIR="${1:-${OUT:-$PWD/gpu-check-out}}"
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/tpscope-gpu-check.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
BUDGET_S=${GPU_CHECK_BUDGET_S:-450}
mkdir -p "$OUT_DIR"
LOG="$OUT_DIR/gpu-check.log"
: >"$LOG"

log() { echo "[gpu-check +${SECONDS}s] $*" | tee -a "$LOG"; }
die() { log "FAILED: $*"; exit 1; }
left() { echo $((BUDGET_S - SECONDS)); }
# Runs a step with what is left of the budget as its timeout.
step() {
  local t
  t=$(left)
  [ "$t" -gt 5 ] || die "out of time before: $*"
  timeout "$t" "$@"
}

# ---- toolchain and libraries -------------------------------------------------------------------
find_cuda() {
  NVCC=""
  [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ] && NVCC="$CUDA_HOME/bin/nvcc"
  [ -z "$NVCC" ] && NVCC=$(command -v nvcc || true)
  for c in /usr/local/cuda /usr/local/cuda-13.0; do
    [ -z "$NVCC" ] && [ -x "$c/bin/nvcc" ] && NVCC="$c/bin/nvcc"
  done
  [ -n "$NVCC" ] || die "nvcc not found (PATH, \$CUDA_HOME, /usr/local/cuda)"
  CUDA_HOME=$(cd "$(dirname "$NVCC")/.." && pwd -P)
  export CUDA_HOME PATH="$CUDA_HOME/bin:$PATH"
  log "CUDA: $NVCC ($("$NVCC" --version | tail -1))"
}

site_nvidia_dirs() {
  local py=${PYTHON:-python3}
  command -v "$py" >/dev/null || return 0
  "$py" - <<'PY' 2>/dev/null
import site, sys, os
for p in site.getsitepackages() + [site.getusersitepackages()]:
    d = os.path.join(p, "nvidia")
    if os.path.isdir(d):
        print(d)
PY
}

# Finds a header and a library for NCCL or CUPTI: the toolkit first, then the wheels. Wheels ship
# only versioned .so names, so a shim folder gets the plain names CMake looks for.
find_pkg() {  # name header libglob envvar
  local name=$1 header=$2 libglob=$3 var=$4 inc="" lib="" d
  for d in "$CUDA_HOME/include" "$CUDA_HOME/extras/CUPTI/include" /usr/include; do
    [ -f "$d/$header" ] && inc=$d && break
  done
  for d in "$CUDA_HOME/lib64" "$CUDA_HOME/extras/CUPTI/lib64" /usr/lib/x86_64-linux-gnu; do
    compgen -G "$d/$libglob" >/dev/null && lib=$d && break
  done
  if [ -n "$inc" ] && [ -n "$lib" ]; then
    log "$name: toolkit/system ($inc, $lib)"
    return 0
  fi
  for d in $(site_nvidia_dirs); do
    local h l
    h=$(find "$d" -maxdepth 4 -name "$header" -path '*include*' 2>/dev/null | head -1)
    l=$(find "$d" -maxdepth 4 -name "$libglob" 2>/dev/null | sort | head -1)
    if [ -n "$h" ] && [ -n "$l" ]; then
      local shim="$WORK/$name"
      mkdir -p "$shim/lib"
      ln -sfn "$(dirname "$h")" "$shim/include"
      ln -sf "$l" "$shim/lib/${libglob%%\**}"
      ln -sf "$l" "$shim/lib/$(basename "$l")"
      export "$var=$shim"
      LD_LIBRARY_PATH="$(dirname "$l")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      export LD_LIBRARY_PATH
      log "$name: Python wheel ($(dirname "$h"), $l) via $var=$shim"
      return 0
    fi
  done
  die "$name not found in $CUDA_HOME or the Python wheels under site-packages/nvidia"
}

cuda_arch() {
  local cc
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  echo "${cc:-90}"
}

# ---- build -------------------------------------------------------------------------------------
configure_and_build() {  # build-dir arch tests(ON/OFF) targets...
  local dir=$1 arch=$2 tests=$3
  shift 3
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  step cmake -S "$REPO" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTPSCOPE_WITH_CUDA=ON \
    -DTPSCOPE_WITH_GUI=OFF -DTPSCOPE_BUILD_BENCH=OFF -DTPSCOPE_BUILD_TESTS="$tests" \
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$WORK/configure.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && [ "$tests" = ON ] && grep -q "GTest" "$WORK/configure.log"; then
    log "GoogleTest not found: building without tests (the gpu tests are SKIPPED)"
    TESTS_BUILT=no
    rm -rf "$dir"
    configure_and_build "$dir" "$arch" OFF tpscope-cli
    return $?
  fi
  if [ $rc -ne 0 ]; then
    tail -30 "$WORK/configure.log" | tee -a "$LOG"
    die "CMake configure failed (a missing dependency above? then use --bundle on a machine that has it)"
  fi
  grep "tpscope:" "$WORK/configure.log" | tee -a "$LOG"
  step cmake --build "$dir" -j"$(nproc)" --target "$@" >"$WORK/build.log" 2>&1 ||
    { tail -40 "$WORK/build.log" | tee -a "$LOG"; die "build failed"; }
  log "built: $*"
}

if [ "$MODE" = bundle ]; then
  find_cuda
  find_pkg nccl nccl.h 'libnccl.so*' NCCL_HOME
  find_pkg cupti cupti.h 'libcupti.so*' CUPTI_HOME
  TESTS_BUILT=yes
  configure_and_build "$WORK/build" "${CUDA_ARCH:-90}" ON tpscope-cli gpu_tests
  mkdir -p "$BUNDLE/bin" "$BUNDLE/lib"
  for b in app/tpscope-cli tests/gpu_tests; do
    [ -x "$WORK/build/$b" ] && cp "$WORK/build/$b" "$BUNDLE/bin/" && strip "$BUNDLE/bin/$(basename "$b")"
  done
  # Shared libraries the target machine may lack; the C library, libstdc++ and CUDA's own stay.
  ldd "$BUNDLE"/bin/* | awk '/=> \//{print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|librt|libpthread|libutil|libresolv|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas[^/]*|libnccl|libcupti|libnvidia[^/]*)\.so' |
    while read -r l; do cp -L "$l" "$BUNDLE/lib/"; done
  log "bundle in $BUNDLE: $(find "$BUNDLE" -type f -printf '%P ')"
  exit 0
fi

# ---- check -------------------------------------------------------------------------------------
log "tpscope gpu-check: output in $OUT_DIR, budget ${BUDGET_S}s"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv 2>&1 | tee -a "$LOG"
else
  log "nvidia-smi not found"
fi
find_cuda
find_pkg nccl nccl.h 'libnccl.so*' NCCL_HOME
find_pkg cupti cupti.h 'libcupti.so*' CUPTI_HOME
TESTS_BUILT=yes
if [ -n "$PREBUILT" ]; then
  CLI="$PREBUILT/bin/tpscope-cli"
  GPU_TESTS="$PREBUILT/bin/gpu_tests"
  export LD_LIBRARY_PATH="$PREBUILT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  [ -x "$GPU_TESTS" ] || TESTS_BUILT=no
  log "prebuilt binaries from $PREBUILT"
else
  ARCH=${CUDA_ARCH:-$(cuda_arch)}
  log "building for sm_$ARCH"
  configure_and_build "$WORK/build" "$ARCH" ON tpscope-cli gpu_tests
  CLI="$WORK/build/app/tpscope-cli"
  GPU_TESTS="$WORK/build/tests/gpu_tests"
fi
[ -x "$CLI" ] || die "no tpscope-cli"
"$CLI" devices 2>&1 | tee -a "$LOG"

if [ "$TESTS_BUILT" = yes ] && [ -x "$GPU_TESTS" ]; then
  log "gpu tests"
  step "$GPU_TESTS" --gtest_color=no >"$OUT_DIR/tests.log" 2>&1
  log "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) *\] [0-9]+ tests?' "$OUT_DIR/tests.log" | tr '\n' ' ')"
else
  echo "gpu tests SKIPPED: GoogleTest was not available to build them" >"$OUT_DIR/tests.log"
  log "gpu tests SKIPPED (no GoogleTest)"
fi

capture() {  # name batch extra-args...
  local name=$1 batch=$2
  shift 2
  log "capture $name: llama3-8b tp 1 batch $batch $*"
  step "$CLI" capture --model llama3-8b --tp 1 --batch "$batch" --tokens "${TOKENS:-32}" --warmup 5 --json "$@" \
    >"$WORK/$name.json" 2>"$WORK/$name.err" || log "capture $name failed (exit $?): $(tail -1 "$WORK/$name.err")"
}
capture b1 1 --out "$OUT_DIR/trace-b1.json"
capture b1-nocupti 1 --no-cupti --out "$WORK/none.json"
capture b16 16 --out "$OUT_DIR/trace-b16.json"
capture b16-nocupti 16 --no-cupti --out "$WORK/none.json"
capture b1-graph 1 --graph --out "$WORK/trace-b1-graph.json"
capture b1-graph-nocupti 1 --graph --no-cupti --out "$WORK/none.json"

log "summary"
python3 - "$WORK" "$OUT_DIR" <<'PY' 2>&1 | tee -a "$LOG"
import json, os, sys
work, out = sys.argv[1], sys.argv[2]
def load(name):
    try:
        with open(os.path.join(work, name + ".json")) as f:
            return json.load(f)
    except Exception as e:
        try:
            with open(os.path.join(work, name + ".err")) as f:
                return {"error": (f.read().strip().splitlines() or [str(e)])[-1]}
        except Exception:
            return {"error": str(e)}
rows = []
for label, base in (("batch 1", "b1"), ("batch 16", "b16"), ("batch 1, CUDA graph", "b1-graph")):
    on, off = load(base), load(base + "-nocupti")
    row = {"run": label, "with_cupti": on, "without_cupti": off}
    if "median_step_ns" in on and "median_step_ns" in off and off["median_step_ns"] > 0:
        row["cupti_overhead_pct"] = 100.0 * (on["median_step_ns"] - off["median_step_ns"]) / off["median_step_ns"]
    rows.append(row)
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(rows, f, indent=2)
lines = ["# tpscope gpu-check: llama3-8b, TP 1", "",
         "| run | step (no CUPTI) | step (CUPTI) | CUPTI overhead | tokens/s | HBM achieved | peak | HBM floor reached | dropped |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for r in rows:
    on, off = r["with_cupti"], r["without_cupti"]
    if "median_step_ns" not in off:
        lines.append(f"| {r['run']} | failed: {off.get('error', '?')} | | | | | | | |")
        continue
    fmt = lambda ns: f"{ns / 1e6:.3f} ms"
    lines.append("| {} | {} | {} | {} | {:.1f} | {:.2f} TB/s | {:.2f} TB/s ({}) | {:.1f} % | {} |".format(
        r["run"], fmt(off["median_step_ns"]), fmt(on["median_step_ns"]) if "median_step_ns" in on else "failed",
        f"{r['cupti_overhead_pct']:.2f} %" if "cupti_overhead_pct" in r else "-", off["tokens_per_sec"],
        off["achieved_bytes_per_sec"] / 1e12, off["peak_hbm_bytes_per_sec"] / 1e12, off["gpu_preset"] or "no preset",
        100.0 * off["fraction_of_hbm_floor"], on.get("dropped_records", "?")))
lines += ["", "HBM floor reached = (weight bytes / peak HBM bandwidth) / measured step, without CUPTI;",
          "CUPTI overhead = (step with CUPTI - step without) / step without (medians of 32 steps after 5 warm-up steps)."]
with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
log "done in ${SECONDS}s"
