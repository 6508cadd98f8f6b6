#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
#
# The checks that do not fit the per-change CI time on 2 cores, in one run with a summary at the end;
# the step before every release tag (README "Development"). Each step runs even when an earlier one
# failed, so one run shows everything that is wrong.
#   fresh-root  scripts/fresh-root-check.sh: the README's two commands on empty Debian 12 and 13 roots
#   tidy        clang-tidy on every file (preset "tidy": the whole tree built with clang-tidy)
#   asan        every test under AddressSanitizer + UBSan (scripts/weekly-asan.sh)
#   fuzz        every importer's libFuzzer target for FUZZ_SECONDS each (scripts/run-fuzzers.sh)
#
#   scripts/deep-check.sh [--fuzz-seconds N] [--only STEP[,STEP...]] [--ccache]
# --ccache is passed to fresh-root-check.sh. Needs root (the fresh root's debootstrap and chroot).
# Exit status 0 only when every step that ran passed. Takes several hours on 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."

fuzz_seconds=600
only=""
fresh_args=(--release all)
while [ $# -gt 0 ]; do
  case "$1" in
    --fuzz-seconds) fuzz_seconds="$2"; shift ;;
    --only) only="$2"; shift ;;
    --ccache) fresh_args+=(--ccache) ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "deep-check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

logs="build/deep-check"
mkdir -p "$logs"
summary=()
overall=0
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
step() {  # $1: name, rest: command
  local name="$1" t0 status
  shift
  wanted "$name" || return 0
  echo "deep-check: $name: $* (log: $logs/$name.log)"
  t0=$(date +%s)
  "$@" >"$logs/$name.log" 2>&1
  status=$?
  summary+=("$(printf '%-11s %-4s %6d s  %s' "$name" "$([ $status -eq 0 ] && echo PASS || echo FAIL)" \
    $(($(date +%s) - t0)) "$(tail -1 "$logs/$name.log" | cut -c1-90)")")
  [ $status -eq 0 ] || overall=1
}

tidy_all() {
  scripts/install-deps.sh
  # clang-tidy's findings stay warnings here, so the whole tree builds and one run lists every finding
  # (as errors, a failed file blocked every target that links its library); any finding fails the step.
  local out
  out=$(mktemp)
  cmake --preset tidy -DCMAKE_CXX_CLANG_TIDY="clang-tidy;--quiet" >/dev/null &&
    cmake --build --preset tidy --parallel "$(nproc 2>/dev/null || echo 2)" 2>&1 | tee "$out"
  local built=${PIPESTATUS[0]} findings
  findings=$(grep -cE 'warning: .* \[[a-z]+-[a-z0-9.-]+(,-warnings-as-errors)?\]$' "$out")
  grep -oE '\[[a-z]+-[a-z0-9.-]+\]$' "$out" | sort | uniq -c | sort -rn
  rm -f "$out"
  echo "clang-tidy: $findings finding(s)"
  [ "$built" -eq 0 ] && [ "$findings" -eq 0 ]
}
fuzz_all() {
  # The fuzz preset builds with clang and its libFuzzer runtime, which the ordinary build does not need.
  command -v clang++ >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang >/dev/null
  scripts/run-fuzzers.sh "$fuzz_seconds"
}

step fresh-root scripts/fresh-root-check.sh "${fresh_args[@]}"
step tidy tidy_all
step asan scripts/weekly-asan.sh
step fuzz fuzz_all

echo "deep-check: summary ($(git rev-parse --short HEAD))"
printf '  %s\n' "${summary[@]}"
exit $overall
