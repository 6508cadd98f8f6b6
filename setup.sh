#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# tpscope set-up in one command on a fresh Debian 12 (bookworm) or 13 (trixie) machine.
#   ./setup.sh gui    install dependencies, build only the GUI and the CLI, open the GUI on the
#                     embedded default sweep (no display: say so and write the report instead)
#   ./setup.sh test   install dependencies, build everything, run every test (exits non-zero on a failure)
#   ./setup.sh build  install dependencies and build everything
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-gui}"
shift || true
preset="${TPSCOPE_PRESET:-dev}"
jobs="$(nproc 2>/dev/null || echo 2)"

scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
if [ "$mode" = gui ]; then
  # Only what this mode runs: the test suites and benchmarks are built by 'test' and 'build'.
  targets=(tpscope-cli)
  # The target list is read whole before it is searched: with pipefail, 'help | grep -q' failed
  # whenever grep quit early and cmake died of SIGPIPE, and the GUI was then silently not built.
  target_list="$(cmake --build --preset "$preset" --target help 2>/dev/null || true)"
  grep -q '^tpscope:' <<<"$target_list" && targets+=(tpscope)
  cmake --build --preset "$preset" --parallel "$jobs" --target "${targets[@]}"
else
  cmake --build --preset "$preset" --parallel "$jobs"
fi
bin="build/$preset/app"
gui="$bin/gui/tpscope"

case "$mode" in
  gui)
    if [ -x "$gui" ]; then
      if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        echo "setup: no display found; writing the default sweep's report (out/report.pdf, summary.md, screenshots) instead of opening the window"
        mkdir -p out
        exec "$gui" --report out "$@"
      fi
      exec "$gui" "$@"
    fi
    exec "$bin/tpscope-cli" demo "$@"
    ;;
  test)
    exec ctest --preset "$preset" --output-on-failure "$@"
    ;;
  build) ;;
  *) echo "usage: ./setup.sh [gui|test|build]" >&2; exit 2 ;;
esac
