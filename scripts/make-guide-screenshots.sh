#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Regenerates the screenshots of docs/guide.md with the GUI's headless modes (no display needed):
#   scripts/make-guide-screenshots.sh [BUILD_DIR]     (default build/dev; needs tpscope and tpscope-cli built)
# `tpscope --report DIR` writes the default sweep's report (and `--report OUT.pdf` the PDF alone); `tpscope --screenshot OUT FILE` renders
# the main window on a workspace written by `tpscope-cli simulate`.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/dev}"
gui="$build/app/gui/tpscope"
cli="$build/app/tpscope-cli"
out=docs/guide
[ -x "$gui" ] || { echo "make-guide-screenshots: $gui not built (cmake --build --preset dev --target tpscope)" >&2; exit 1; }
export QT_QPA_PLATFORM=offscreen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# 1. The default sweep (what `./setup.sh gui` opens on): the main window and the whole timeline.
"$gui" --report "$work/report" >/dev/null
cp "$work/report/screenshot-main.png" "$out/default-sweep.png"
cp "$work/report/timeline-overview.png" "$out/timeline-overview.png"

# 2. A PCIe box with uneven ranks: the early ranks' all-reduces are mostly waiting.
"$cli" simulate --model llama3-8b --gpu l40s --fabric pcie4 --tp 4 --tokens 4 --imbalance 0.05 --seed 3 \
  --runtime pytorch-eager --out "$work/pcie.tpscope" >/dev/null 2>&1  # the picture's run: eager launches
"$gui" --screenshot "$out/pcie-imbalance.png" "$work/pcie.tpscope" >/dev/null

# 3. Two TP configurations of one workspace, as the runs table lists them.
"$cli" simulate --model llama3-70b --gpu h100-sxm --fabric nvlink4 --tp 2,4,8 --batch 1 --tokens 4 \
  --out "$work/compare.tpscope" >/dev/null 2>&1
"$gui" --screenshot "$out/compare-tp.png" "$work/compare.tpscope" >/dev/null
# 4. The PDF report of the default sweep (`tpscope --report OUT.pdf`): its summary and chart pages as
#    PNGs for the README (pdftoppm, from poppler-utils).
"$gui" --report "$work/report.pdf" >/dev/null
mkdir -p docs/report
pdftoppm -r 80 -f 1 -l 4 -png "$work/report.pdf" "$work/page"
for i in 1 2 3 4; do cp "$work/page-$i.png" "docs/report/report-page-$i.png"; done

# 5. Compare (`tpscope --screenshot OUT A B`): simulated TP 4 against TP 8, and the public 8-rank param
#    trace (measured, PyTorch profiler) against a simulated run.
"$cli" simulate --model llama3-70b --gpu h100-sxm --fabric nvlink4 --tp 4 --batch 1 --tokens 4 \
  --out "$work/tp4.json" >/dev/null 2>&1
"$cli" simulate --model llama3-70b --gpu h100-sxm --fabric nvlink4 --tp 8 --batch 1 --tokens 4 \
  --out "$work/tp8.json" >/dev/null 2>&1
"$gui" --screenshot "$out/compare-tp4-tp8.png" "$work/tp4.json" "$work/tp8.json" >/dev/null
traces="${TPSCOPE_PUBLIC_TRACES:-public-traces}"   # filled by scripts/fetch-public-traces.sh
[ -d "$traces" ] || [ ! -d ../shared/traces/public ] || traces=../shared/traces/public   # as the tests' default
param="$traces/param-dlrm_kineto-8rank"
if [ -d "$param" ]; then
  "$cli" simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 8 --batch 1 --tokens 2 \
    --out "$work/sim-tp8.json" >/dev/null 2>&1
  "$gui" --screenshot "$out/compare-param-vs-sim.png" "$param" "$work/sim-tp8.json" >/dev/null
else
  echo "make-guide-screenshots: $param not found (scripts/fetch-public-traces.sh), compare-param-vs-sim.png not refreshed" >&2
fi

# 6. The Calculator, Advice and Collective calls tabs on the default sweep's TP 4 run, drawn by their
#    window test (it writes BUILD_DIR/screenshots/planning-*.png; needs ui_tests built).
if [ -x "$build/tests/ui_tests" ]; then
  "$build/tests/ui_tests" --gtest_filter='PlanningTabsInWindow.*' >/dev/null
  for tab in calculator advice collective-calls; do cp "$build/screenshots/planning-$tab.png" "$out/$tab.png"; done
fi

# 7. Compare with four runs (three public traces and a simulated run, panes folded to one lane per GPU)
#    and the main window under a dark palette, drawn by their window tests (BUILD_DIR/screenshots/).
if [ -x "$build/tests/ui_tests" ]; then
  "$build/tests/ui_tests" --gtest_filter='SmallViewFixes.UnderADarkPalette*' >/dev/null
  cp "$build/screenshots/main-dark.png" "$out/main-dark.png"
  if [ -d "$param" ]; then
    TPSCOPE_PUBLIC_TRACES="$traces" "$build/tests/ui_tests" \
      --gtest_filter='CompareFourRuns.ThreePublicTracesAndASimulatedRun*' >/dev/null
    cp "$build/screenshots/compare-four-runs.png" "$out/compare-four-runs.png"
  fi
fi

echo "make-guide-screenshots: wrote $(ls "$out"/*.png | tr '\n' ' ')"
