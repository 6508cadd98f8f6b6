#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# gpu/gpu-check.sh: the device check of the GPU backend (gpu/README.md).
#
#   gpu/gpu-check.sh --bundle DIR [--from BUILD]   here (CPU machine with the CUDA toolkit and the
#        Debian dev packages): tpscope-cli and gpu_tests (built into build/gpu-bundle-build, kept, or taken
#        from an existing CUDA-enabled BUILD), stripped, RUNPATH $ORIGIN/../lib, with every shared
#        library they need except the CUDA driver, cuBLAS and NCCL (loaded at run time; the CUDA
#        runtime is static) and the C library, plus libcupti, in DIR/lib (the C++ runtime in
#        DIR/lib/cxx, used where the machine's is older). At most 60 MB. CUDA_HOME picks the
#        toolkit (a 12.x one builds a bundle for 12.x drivers; MANIFEST records its major).
#   gpu/gpu-check.sh --prebuilt DIR [OUT]           there (GPU machine, no network, no dev packages):
#        the check below with DIR's binaries.
#   gpu/gpu-check.sh [OUT]                          build here from source (into build/gpu-check,
#        kept for a rerun), then the check.
#
# The check (budget GPU_CHECK_BUDGET_S, default 300 s, counted from the end of the build in source
# mode: a cold build alone can take longer than that): the driver (>= 580 for CUDA 13, >= 525 for 12), the gpu
# tests (the >= 2-GPU ones skip and say why), then TP 1 captures of llama3-8b: batch 1 eager, batch 16
# eager, batch 1 CUDA graph, each with and without CUPTI; with N >= 2 GPUs also a TP-N capture eager
# and as a CUDA graph (N = 8, 4 or 2) and `allreduce --measure` at 8 KiB, 1 MiB and 256 MiB against
# the fabric preset (GPU_CHECK_FABRIC, default nvlink4). OUT (default $OUT, else ./gpu-check-out)
# gets gpu-check.log, tests.log, checks.tsv, summary.md and summary.json (a PASS/WARN/FAIL verdict per
# target, gpu_check_summary.py), and trace-b1.json, which `tpscope-cli analyze` must open. summary.md
# is written on every exit path, the early ones included. Exit status: 0 only when the tests pass,
# every capture succeeds, no kernel of a CUPTI capture lacks its op tag, no capture lost a record
# and no target is FAIL; 1 otherwise.
set -uo pipefail

MODE=check
PREBUILT=""
BUNDLE=""
FROM=""
case "${1:-}" in
  --prebuilt) PREBUILT="${2:?--prebuilt needs a folder}"; shift 2 ;;
  --bundle)
    MODE=bundle; BUNDLE="${2:?--bundle needs a folder}"; shift 2
    if [ "${1:-}" = --from ]; then FROM=$(cd "${2:?--from needs a build folder}" && pwd) || exit 2; shift 2; fi ;;
  -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
esac
OUT_DIR="${1:-${OUT:-$PWD/gpu-check-out}}"
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/tpscope-gpu-check.XXXXXX)
BUDGET_S=${GPU_CHECK_BUDGET_S:-300}
BUDGET_START=0  # $SECONDS when the budget started: after the build in source mode
BUNDLE_LIMIT_BYTES=$((60 * 1000 * 1000))
FAILURES=0
SUMMARY_WRITTEN=0
[ "$MODE" = bundle ] && OUT_DIR="$WORK/out"
mkdir -p "$OUT_DIR" || { echo "gpu-check: cannot create $OUT_DIR" >&2; exit 2; }
OUT_DIR=$(cd "$OUT_DIR" && pwd)
LOG="$OUT_DIR/gpu-check.log"
CHECKS="$OUT_DIR/checks.tsv"
: >"$LOG"
: >"$CHECKS"

log() { echo "[gpu-check +${SECONDS}s] $*" | tee -a "$LOG"; }
verdict() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$CHECKS"; }  # PASS|WARN|FAIL, what, detail
fail() { log "FAILED: $*"; verdict FAIL "$*"; FAILURES=$((FAILURES + 1)); }
STOPPED_EARLY=""
die() { fail "$*"; STOPPED_EARLY="$*"; exit 1; }

# summary.md on every exit path (gpu_check_summary.py; a plain one from checks.tsv without python3).
write_summary() {
  SUMMARY_WRITTEN=1
  log "summary"
  python3 "$REPO/gpu/gpu_check_summary.py" "$OUT_DIR" "$STOPPED_EARLY" >>"$LOG" 2>&1
  local prc=$?
  if [ ! -s "$OUT_DIR/summary.md" ] || ! command -v python3 >/dev/null; then
    { echo "# tpscope gpu-check (no python3: plain summary)"; echo
      [ -n "$STOPPED_EARLY" ] && { echo "**Stopped early**: $STOPPED_EARLY"; echo; }
      echo "| target | measured | wanted | verdict |"; echo "| --- | --- | --- | --- |"
      awk -F'\t' '{print "| " $2 " | " $3 " | | " $1 " |"}' "$CHECKS"; } >"$OUT_DIR/summary.md"
  elif [ $prc -ne 0 ]; then
    fail "a target is FAIL (see summary.md)"
  fi
  if [ "$FAILURES" -ne 0 ]; then
    echo "" >>"$OUT_DIR/summary.md"
    echo "**gpu-check FAILED**: $FAILURES failure(s), see gpu-check.log" >>"$OUT_DIR/summary.md"
  fi
}
finish() {
  local rc=$?
  if [ "$MODE" = check ] && [ "$SUMMARY_WRITTEN" = 0 ]; then
    [ $rc -ne 0 ] && [ "$FAILURES" -eq 0 ] && fail "stopped (exit $rc)"
    write_summary
  fi
  rm -rf "$WORK"  # logs and scratch only: build folders are kept
  exit $rc
}
trap finish EXIT
if [ -n "$PREBUILT" ]; then
  given=$PREBUILT
  PREBUILT=$(cd "$given" 2>/dev/null && pwd) || die "--prebuilt: no folder $given"
fi
left() { echo $((BUDGET_S - (SECONDS - BUDGET_START))); }
step() {  # runs a command with what is left of the budget as its timeout
  local t
  t=$(left)
  [ "$t" -gt 5 ] || { fail "out of time before: $*"; return 124; }
  timeout "$t" "$@"
}

# ---- libraries ---------------------------------------------------------------------------------
find_cuda_home() {
  local nvcc=""
  [ -n "${CUDA_HOME:-}" ] && [ -d "$CUDA_HOME" ] && return 0
  nvcc=$(command -v nvcc || true)
  for c in /usr/local/cuda /usr/local/cuda-13.0; do [ -z "$nvcc" ] && [ -x "$c/bin/nvcc" ] && nvcc="$c/bin/nvcc"; done
  if [ -n "$nvcc" ]; then CUDA_HOME=$(cd "$(dirname "$nvcc")/.." && pwd -P); else CUDA_HOME=/usr/local/cuda; fi
  export CUDA_HOME
}

# The CUDA major release of a toolkit's nvcc ("release 13.0, V13.0.88" -> 13); 13 when unknown.
cuda_major() {
  local v
  v=$("$1" --version 2>/dev/null | grep -o 'release [0-9]*' | grep -o '[0-9]*$')
  echo "${v:-13}"
}

# The driver branch a CUDA major release needs: 580 for CUDA 13.0, 525 for CUDA 12.x (minor version
# compatibility; CUDA release notes, "CUDA Toolkit and Corresponding Driver Versions").
min_driver_for() { case "$1" in 12) echo 525 ;; *) echo 580 ;; esac; }

# Folders of the Python wheels' libraries (site-packages/nvidia/*/lib: NCCL, CUPTI, cuBLAS, runtime).
wheel_lib_dirs() {
  local py=${PYTHON:-python3} d
  command -v "$py" >/dev/null || return 0
  for d in $("$py" -c 'import site; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null); do
    [ -d "$d/nvidia" ] && find "$d/nvidia" -maxdepth 3 -name 'lib*.so*' -printf '%h\n' 2>/dev/null
  done | sort -u
}

# The machine's C++ runtime when it is new enough for the bundle (GLIBCXX_3.4.30, gcc 12), else the
# bundle's lib/cxx (which needs glibc >= 2.36).
prebuilt_cxx_runtime() {
  if env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$CLI" --version >/dev/null 2>&1; then
    log "C++ runtime: the machine's ($(env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" ldd "$CLI" | awk '/libstdc\+\+/{print $3}'))"
    return 0
  fi
  LD_LIBRARY_PATH="$PREBUILT/lib/cxx:$LD_LIBRARY_PATH"
  export LD_LIBRARY_PATH
  "$CLI" --version >/dev/null 2>"$WORK/cxx.err" ||
    die "tpscope-cli does not start with the machine's nor the bundle's C++ runtime: $(head -3 "$WORK/cxx.err")"
  log "C++ runtime: the bundle's lib/cxx (the machine's libstdc++ is missing or older than gcc 12)"
}

# The run-time library path of --prebuilt: the bundle first (its libcupti wins), then the toolkit's
# runtime, cuBLAS and CUPTI, then the Python wheels' (NCCL where the machine has no other).
prebuilt_library_path() {
  local p="$PREBUILT/lib" d
  for d in "$CUDA_HOME/lib64" "$CUDA_HOME/lib" "$CUDA_HOME/extras/CUPTI/lib64" $(wheel_lib_dirs); do
    [ -d "$d" ] && p="$p:$d"
  done
  echo "$p${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# Libraries that stay outside the bundle: the C library, the CUDA driver, cuBLAS and NCCL (both
# loaded at run time), and a shared CUDA runtime (the binaries link it statically since issue 29).
EXTERNAL_LIBS='/(libc|libm|libdl|librt|libpthread|libutil|libresolv|ld-linux[^/]*|libcuda|libcudart|libcublas|libcublasLt|libnccl|libnvidia-[^/]*)\.so[^/]*$'

# ---- build -------------------------------------------------------------------------------------
build_cuda_targets() {  # build-dir arch
  local dir=$1 arch=$2 gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  log "configuring $dir (sm_$arch)"
  # The toolkit of CUDA_HOME (find_cuda_home), so that CUDA_HOME=/usr/local/cuda-12.8 builds a CUDA 12 bundle.
  cmake -S "$REPO" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTPSCOPE_WITH_CUDA=ON -DTPSCOPE_WITH_GUI=OFF \
    -DCUDAToolkit_ROOT="$CUDA_HOME" -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" \
    -DTPSCOPE_BUILD_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    >"$WORK/configure.log" 2>&1 || { tail -30 "$WORK/configure.log" | tee -a "$LOG"; die "CMake configure failed"; }
  grep "tpscope:" "$WORK/configure.log" | tee -a "$LOG"
  local targets=(tpscope-cli)
  # (grep -q would end the pipe early: under pipefail a SIGPIPE'd cmake would read as "no target")
  cmake --build "$dir" --target help >"$WORK/targets.txt" 2>/dev/null
  grep -qw gpu_tests "$WORK/targets.txt" && targets+=(gpu_tests)
  cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}" >"$WORK/build.log" 2>&1 ||
    { tail -40 "$WORK/build.log" | tee -a "$LOG"; die "build failed"; }
  log "built ${targets[*]} in $dir"
}

make_bundle() {
  command -v patchelf >/dev/null || die "patchelf is needed for --bundle (scripts/install-deps.sh installs it)"
  local build=$FROM
  if [ -z "$build" ]; then
    build="$REPO/build/gpu-bundle-build"
    build_cuda_targets "$build" "${CUDA_ARCH:-90}"
  fi
  [ -x "$build/app/tpscope-cli" ] || die "no $build/app/tpscope-cli"
  rm -rf "$BUNDLE" && mkdir -p "$BUNDLE/bin" "$BUNDLE/lib" || die "cannot create $BUNDLE"
  for b in app/tpscope-cli tests/gpu_tests; do
    [ -x "$build/$b" ] || die "no $build/$b (GoogleTest missing where it was built?): the device check needs it"
    cp "$build/$b" "$BUNDLE/bin/" && strip "$BUNDLE/bin/${b##*/}" && patchelf --set-rpath '$ORIGIN/../lib' "$BUNDLE/bin/${b##*/}"
  done
  env -u LD_LIBRARY_PATH ldd "$BUNDLE"/bin/* | awk '/=> \//{print $3}' | sort -u | grep -Ev "$EXTERNAL_LIBS" |
    while read -r l; do
      cp -L "$l" "$BUNDLE/lib/" && chmod u+w "$BUNDLE/lib/${l##*/}" && strip --strip-unneeded "$BUNDLE/lib/${l##*/}" &&
        patchelf --set-rpath '$ORIGIN' "$BUNDLE/lib/${l##*/}"
    done
  ls "$BUNDLE/lib"/libcupti.so* >/dev/null 2>&1 || die "libcupti is not in the bundle"
  ls "$BUNDLE/lib"/libmpi.so* >/dev/null 2>&1 &&
    log "warning: $build links MPI: OpenMPI's libraries are bundled and its libevent needs glibc >= 2.36 (build the device bundle with --bundle alone, which leaves MPI out)"
  # The C++ runtime of this build machine needs glibc >= 2.36 (arc4random): it waits in lib/cxx and
  # is used only where the GPU machine's own libstdc++ is too old (prebuilt_cxx_runtime).
  mkdir -p "$BUNDLE/lib/cxx"
  for l in "$BUNDLE"/lib/libstdc++.so* "$BUNDLE"/lib/libgcc_s.so*; do [ -f "$l" ] && mv "$l" "$BUNDLE/lib/cxx/"; done
  { echo "built from $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?') in $build"
    echo "cuda_major $(cuda_major "$CUDA_HOME/bin/nvcc")"
    "$BUNDLE/bin/tpscope-cli" --version 2>/dev/null
    (cd "$BUNDLE" && find . -type f -printf '%s %P\n' | sort -k2); } >"$BUNDLE/MANIFEST"
  local bytes
  bytes=$(du -sb "$BUNDLE" | cut -f1)
  [ "$bytes" -le "$BUNDLE_LIMIT_BYTES" ] || die "bundle is $bytes bytes, over the 60 MB limit"
  log "bundle in $BUNDLE: $bytes bytes: $(cd "$BUNDLE" && find . -type f -printf '%P ')"
}

if [ "$MODE" = bundle ]; then
  find_cuda_home
  make_bundle
  exit 0
fi

# ---- check -------------------------------------------------------------------------------------
log "tpscope gpu-check: output in $OUT_DIR, budget ${BUDGET_S}s (after the build when building from source)"
find_cuda_home
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv 2>&1 | tee -a "$LOG"
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1 | tr -d ' ')
  # The binaries' CUDA release (the bundle's MANIFEST, else the toolkit here) sets the driver it needs:
  # too old a driver would only say "no CUDA device".
  major=13
  if [ -n "$PREBUILT" ] && [ -f "$PREBUILT/MANIFEST" ]; then
    major=$(awk '$1 == "cuda_major" {print $2}' "$PREBUILT/MANIFEST")
    major=${major:-13}
  elif [ -z "$PREBUILT" ]; then
    major=$(cuda_major "$CUDA_HOME/bin/nvcc")
  fi
  need=$(min_driver_for "$major")
  if [[ "${driver%%.*}" =~ ^[0-9]+$ ]] && [ "${driver%%.*}" -lt "$need" ]; then
    die "driver $driver too old for CUDA $major, need >= $need (these binaries are built with CUDA $major)"
  fi
  [ -n "$driver" ] && verdict PASS "NVIDIA driver" "$driver (>= $need for CUDA $major)"
else
  log "nvidia-smi not found"
fi
if [ -n "$PREBUILT" ]; then
  CLI="$PREBUILT/bin/tpscope-cli"
  GPU_TESTS="$PREBUILT/bin/gpu_tests"
  LD_LIBRARY_PATH=$(prebuilt_library_path)
  export LD_LIBRARY_PATH
  log "prebuilt binaries from $PREBUILT; LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  [ -x "$CLI" ] || die "no $CLI"
  missing=$(ldd "$PREBUILT"/bin/* 2>/dev/null | grep 'not found' | grep -Ev 'libstdc|libgcc_s' | sort -u)
  [ -z "$missing" ] || die "libraries not found (install the CUDA runtime/cuBLAS or NCCL, or set CUDA_HOME): $missing"
  prebuilt_cxx_runtime
  ldd "$CLI" | awk '/=> \//{print "  " $1 " -> " $3}' | grep -E 'cupti|nccl|cudart|cublas' | tee -a "$LOG"
else
  ARCH=${CUDA_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')}
  build_cuda_targets "$REPO/build/gpu-check" "${ARCH:-90}"
  # The budget is the check's, not the build's (a cold build can take longer than all of it).
  BUDGET_START=$SECONDS
  log "the ${BUDGET_S}s budget of the check starts now, after the build"
  CLI="$REPO/build/gpu-check/app/tpscope-cli"
  GPU_TESTS="$REPO/build/gpu-check/tests/gpu_tests"
fi
"$CLI" --version 2>&1 | tee -a "$LOG"
step "$CLI" devices --json >"$OUT_DIR/devices.json" 2>"$WORK/devices.err"
rc=$?
cat "$OUT_DIR/devices.json" "$WORK/devices.err" >>"$LOG"
GPUS=$(grep -o '"index"' "$OUT_DIR/devices.json" | wc -l)
if [ $rc -eq 0 ] && [ "$GPUS" -gt 0 ]; then
  verdict PASS "tpscope-cli devices" "$GPUS GPU(s)"
else
  fail "tpscope-cli devices found no usable GPU (exit $rc): $(tail -1 "$WORK/devices.err")"
  rc=1
fi

# The measured roof the captures are judged against: a device-to-device copy kernel, best of 20.
if [ $rc -eq 0 ]; then
  if step "$CLI" devices --copy-roof --json >"$OUT_DIR/copy-roof.json" 2>"$WORK/copy-roof.err"; then
    roof=$(grep -o '"copy_roof_bytes_per_sec": *[0-9.e+]*' "$OUT_DIR/copy-roof.json" | head -1 | grep -o '[0-9.e+]*$')
    log "copy roof of GPU 0: ${roof:-?} B/s"
  else
    log "copy roof not measured: $(tail -1 "$WORK/copy-roof.err")"
    verdict WARN "copy roof" "not measured: $(tail -1 "$WORK/copy-roof.err")"
    rm -f "$OUT_DIR/copy-roof.json"
  fi
fi

if [ $rc -eq 0 ] && [ -x "$GPU_TESTS" ]; then
  log "gpu tests"
  step "$GPU_TESTS" --gtest_color=no >"$OUT_DIR/tests.log" 2>&1
  trc=$?
  log "gpu tests exit $trc: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) *\] [0-9]+ tests?' "$OUT_DIR/tests.log" | tr '\n' ' ')"
  grep -A1 '^\[ *SKIPPED' "$OUT_DIR/tests.log" | grep -v '^--' | tee -a "$LOG" >/dev/null
  if [ $trc -eq 0 ]; then
    verdict PASS "gpu tests" "$(grep -E '^\[  PASSED' "$OUT_DIR/tests.log" | head -1)"
  else
    fail "gpu tests (see tests.log)"
  fi
elif [ $rc -eq 0 ]; then
  echo "gpu tests not built (GoogleTest was missing where they were built)" >"$OUT_DIR/tests.log"
  fail "gpu tests not built"
fi

capture() {  # name tp batch extra-args...
  local name=$1 tp=$2 batch=$3
  shift 3
  log "capture $name: llama3-8b tp $tp batch $batch $*"
  step "$CLI" capture --model llama3-8b --tp "$tp" --batch "$batch" --tokens "${TOKENS:-32}" --warmup 5 --json "$@" \
    >"$OUT_DIR/$name.json" 2>"$WORK/$name.err"
  local crc=$?
  if [ $crc -ne 0 ]; then
    fail "capture $name (exit $crc): $(tail -1 "$WORK/$name.err")"
    echo "{\"error\": $(tail -1 "$WORK/$name.err" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))' 2>/dev/null || echo '"failed"')}" >"$OUT_DIR/$name.json"
    return
  fi
  local untagged lost
  untagged=$(grep -o '"unattributed_kernels": *"[0-9]*"' "$OUT_DIR/$name.json" | grep -o '[0-9]*"$' | tr -d '"')
  if [ -n "$untagged" ] && [ "$untagged" != 0 ]; then fail "capture $name: $untagged kernels lack their op tag"; fi
  # dropped + incomplete + invalid timestamps + buffers refused: a trace with holes is not a pass.
  lost=$(grep -o '"records_lost": *[0-9]*' "$OUT_DIR/$name.json" | grep -o '[0-9]*$')
  if [ -n "$lost" ] && [ "$lost" != 0 ]; then fail "capture $name: $lost CUPTI records lost"; fi
}
if [ $rc -eq 0 ]; then
  # CUPTI's overhead at batch 1 from interleaved runs, with and without it, min of 3 each: a
  # drifting clock or a warming GPU then costs both sides alike.
  for rep in 1 2 3; do
    out="$WORK/trace-b1-r$rep.json"
    [ $rep = 1 ] && out="$OUT_DIR/trace-b1.json"
    capture "b1-r$rep" 1 1 --out "$out"
    capture "b1-nocupti-r$rep" 1 1 --no-cupti --out "$WORK/none.json"
  done
  capture b16 1 16 --out "$WORK/trace-b16.json"
  capture b16-nocupti 1 16 --no-cupti --out "$WORK/none.json"
  capture b1-graph 1 1 --graph --out "$WORK/trace-b1-graph.json"
  capture b1-graph-nocupti 1 1 --graph --no-cupti --out "$WORK/none.json"
  TP=1
  for n in 8 4 2; do if [ "$GPUS" -ge $n ]; then TP=$n; break; fi; done
  if [ $TP -ge 2 ]; then
    capture "tp$TP" "$TP" 1 --out "$WORK/trace-tp$TP.json"
    capture "tp$TP-graph" "$TP" 1 --graph --out "$WORK/trace-tp$TP-graph.json"
    log "allreduce --measure on $TP GPUs"
    sizes=8K,1M,256M
    if step "$CLI" allreduce --measure --gpus "$TP" --sizes $sizes --json >"$OUT_DIR/allreduce-measured.json" \
      2>"$WORK/allreduce.err"; then
      verdict PASS "allreduce --measure, $TP GPUs" "$sizes"
    else
      fail "allreduce --measure on $TP GPUs: $(tail -1 "$WORK/allreduce.err")"
    fi
    "$CLI" allreduce --gpus "$TP" --sizes $sizes --fabric "${GPU_CHECK_FABRIC:-nvlink4}" --json \
      >"$OUT_DIR/allreduce-predicted.json" 2>>"$LOG" || log "no prediction for fabric ${GPU_CHECK_FABRIC:-nvlink4}"
  else
    log "TP >= 2 captures and allreduce --measure skipped: they need 2 GPUs (one NCCL rank per GPU); this machine has $GPUS"
    verdict WARN "TP >= 2 and NCCL" "skipped: $GPUS GPU"
  fi
  if [ -f "$OUT_DIR/trace-b1.json" ]; then
    step "$CLI" analyze "$OUT_DIR/trace-b1.json" >"$OUT_DIR/analyze-b1.txt" 2>&1 || fail "tpscope-cli analyze trace-b1.json"
  else
    fail "no captured trace (trace-b1.json)"
  fi
fi

write_summary
if [ "$FAILURES" -ne 0 ]; then
  log "done in ${SECONDS}s: $FAILURES failure(s)"
  exit 1
fi
log "done in ${SECONDS}s: all passed"
