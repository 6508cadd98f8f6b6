#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# The device check's bundle, proved without a GPU (ctest label "bundle"): gpu-check.sh --bundle
# from this build's binaries, copied into a fresh folder, run with LD_LIBRARY_PATH cleared.
#   bundle_test.sh REPO BUILD_DIR HAVE_CUDA
# Exit 77 (skipped) when the CUDA backend is not built.
set -uo pipefail
REPO=$1 BUILD=$2 HAVE_CUDA=$3
if [ "$HAVE_CUDA" != ON ]; then echo "SKIPPED: the CUDA backend is not built (TPSCOPE_WITH_CUDA/toolkit)"; exit 77; fi
WORK=$(mktemp -d /tmp/tpscope-bundle-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failed=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failed=1; fi; }

"$REPO/gpu/gpu-check.sh" --bundle "$WORK/made" --from "$BUILD" >"$WORK/bundle.log" 2>&1 || { cat "$WORK/bundle.log"; exit 1; }
# A fresh root: the bundle as it travels (tar), unpacked elsewhere.
mkdir -p "$WORK/fresh"
tar -C "$WORK/made" -cf - . | tar -C "$WORK/fresh" -xf -
B="$WORK/fresh"
check "bundle holds tpscope-cli and gpu_tests" '[ -x "$B/bin/tpscope-cli" ] && [ -x "$B/bin/gpu_tests" ]'
check "bundle holds libcupti" 'ls "$B"/lib/libcupti.so* >/dev/null 2>&1'
check "bundle is at most 60 MB" '[ "$(du -sb "$B" | cut -f1)" -le 60000000 ]'
check "RUNPATH is \$ORIGIN/../lib" '[ "$(patchelf --print-rpath "$B/bin/tpscope-cli")" = "\$ORIGIN/../lib" ]'

# Everything resolves inside the bundle except the C library, the CUDA driver/runtime/cuBLAS and NCCL,
# with the bundle's C++ runtime (lib/cxx) on the path as --prebuilt puts it where the machine's is older.
external='/(libc|libm|libdl|librt|libpthread|libutil|libresolv|ld-linux[^/]*|libcuda|libcudart|libcublas|libcublasLt|libnccl)\.so[^/]*$'
env LD_LIBRARY_PATH="$B/lib/cxx" ldd "$B"/bin/* "$B"/lib/*.so* >"$WORK/ldd.txt" 2>&1
outside=$(awk '/=> /{print $3}' "$WORK/ldd.txt" | sort -u | grep -v "^$B/" | grep -Ev "$external" || true)
check "nothing resolves outside the bundle but libc, CUDA and NCCL${outside:+: $outside}" '[ -z "$outside" ]'
check "no library is missing" '! grep -q "not found" "$WORK/ldd.txt"'
# The runtime is static and NCCL, like cuBLAS, is loaded when a collective runs: TP 1 and `devices`
# need the driver and cuBLAS alone.
check "the binaries link neither a shared CUDA runtime nor NCCL" '! grep -Eq "lib(cudart|nccl)\.so" "$WORK/ldd.txt"'
check "libcupti resolves to the bundle's" 'grep -E "libcupti\.so.* => $B/(bin/\.\./)?lib/" "$WORK/ldd.txt" >/dev/null'
check "the C++ runtime waits in lib/cxx" '[ -f "$B/lib/cxx/libstdc++.so.6" ] && [ -f "$B/lib/cxx/libgcc_s.so.1" ]'
# Without lib/cxx only the C++ runtime may come from the machine (then gcc >= 12's, GLIBCXX_3.4.30).
env -u LD_LIBRARY_PATH ldd "$B"/bin/* "$B"/lib/*.so* >"$WORK/ldd-plain.txt" 2>&1
outside=$(awk '/=> /{print $3}' "$WORK/ldd-plain.txt" | sort -u | grep -v "^$B/" | grep -Ev "$external" |
  grep -Ev '/(libstdc\+\+|libgcc_s)\.so[^/]*$' || true)
check "without lib/cxx only the C++ runtime comes from the machine${outside:+: $outside}" '[ -z "$outside" ]'
# A GPU machine may have an older glibc than this Debian 12 (2.36): Ubuntu 22.04 has 2.35. The
# bundle's own C++ runtime (lib/cxx) needs 2.36 and is used only where the machine's is too old.
# This build may link MPI (the dev preset does; the device bundle, built by --bundle alone, does
# not): OpenMPI's libraries (libevent needs 2.36) are left out of this check and listed.
mpi_libs='/lib(mpi|mpi_cxx|open-pal|open-rte|event[^/]*|hwloc|udev)\.so[^/]*$'
checked=$(ls "$B"/bin/* "$B"/lib/*.so* | grep -Ev "$mpi_libs")
ls "$B"/lib/*.so* | grep -E "$mpi_libs" | sed 's|.*/|note: from the MPI launch, not in the device bundle: |'
newest=$(objdump -T $checked 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -t. -k2 -n -u | tail -1)
check "binaries and libraries need at most GLIBC_2.35 (need $newest)" \
  '[ "$(printf "%s\n" "$newest" GLIBC_2.35 | sort -t. -k2 -n | tail -1)" = GLIBC_2.35 ]'

run() { env -i PATH=/usr/bin:/bin HOME="$WORK" "$@"; }
version=$(run "$B/bin/tpscope-cli" --version 2>&1)
check "tpscope-cli --version runs from the bundle ($version)" '[[ "$version" == tpscope* ]]'
devices=$(run "$B/bin/tpscope-cli" devices 2>&1)
check "tpscope-cli devices says no CUDA device ($devices)" '[[ "$devices" == *"no CUDA device"* ]]'

# The check itself on this machine: no GPU, so it must fail, and say so in its summary.
run OUT="$WORK/out" GPU_CHECK_BUDGET_S=60 "$REPO/gpu/gpu-check.sh" --prebuilt "$B" "$WORK/out" >"$WORK/check.log" 2>&1
rc=$?
check "gpu-check --prebuilt exits non-zero without a GPU (exit $rc)" '[ $rc -ne 0 ]'
check "its log says no CUDA device" 'grep -q "no CUDA device" "$WORK/out/gpu-check.log"'
check "its summary says it failed" 'grep -q "gpu-check FAILED" "$WORK/out/summary.md"'
[ $failed -eq 0 ] || { echo "--- bundle.log"; cat "$WORK/bundle.log"; echo "--- check.log"; cat "$WORK/check.log"; }
exit $failed
