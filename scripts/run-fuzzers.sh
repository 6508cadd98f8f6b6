#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Builds the libFuzzer targets (clang, ASan+UBSan, preset "fuzz") and runs each for SECONDS seconds,
# one after the other, at low priority. Seeds come from fuzz_make_seeds; corpora and findings stay
# in build/fuzz/corpus/<target> and build/fuzz/findings/<target>. Exit status 1 on any finding.
#   scripts/run-fuzzers.sh 600            # 10 minutes each
#   scripts/run-fuzzers.sh 60 fuzz_nsys   # one target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_kineto fuzz_nsys fuzz_workspace fuzz_sqlite_schema)

cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j"${JOBS:-2}" --target fuzz_make_seeds "${targets[@]}"
seeds=build/fuzz/seeds
rm -rf "$seeds" && build/fuzz/fuzz/fuzz_make_seeds "$seeds" >/dev/null

status=0
for t in "${targets[@]}"; do
  case "$t" in
    fuzz_kineto) seed="$seeds/kineto" ;;
    fuzz_nsys) seed="$seeds/nsys" ;;
    fuzz_workspace) seed="$seeds/workspace" ;;
    fuzz_sqlite_schema) seed="$seeds/schema"; mkdir -p "$seed" ;;  # inputs are schema programs: no seeds needed
    *) echo "unknown target $t" >&2; exit 2 ;;
  esac
  corpus="build/fuzz/corpus/$t"; findings="build/fuzz/findings/$t"
  mkdir -p "$corpus" "$findings"
  echo "== $t for ${seconds}s"
  # -rss_limit_mb bounds memory; -timeout flags inputs that take more than 10 s (hangs).
  if ! nice -n 19 "build/fuzz/fuzz/$t" "$corpus" "$seed" -max_total_time="$seconds" -rss_limit_mb=2048 \
       -timeout=10 -max_len=65536 -print_final_stats=1 -artifact_prefix="$findings/" 2>"build/fuzz/$t.log"; then
    echo "!! $t found a problem: see build/fuzz/$t.log and $findings/" >&2
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build/fuzz/$t.log" || true
done
exit $status
