#!/usr/bin/env bash
# tpscope set-up in one command on a fresh Debian 12 machine.
#   ./setup.sh gui    install dependencies, build, open the GUI on the embedded default sweep
#                     (no display: say so and write the report instead)
#   ./setup.sh test   install dependencies, build, run every test (exits non-zero on a failure)
#   ./setup.sh build  install dependencies and build only
set -euo pipefail
cd "$(dirname "$0")"
mode="${1:-gui}"
shift || true
preset="${TPSCOPE_PRESET:-dev}"
jobs="$(nproc 2>/dev/null || echo 2)"

scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --parallel "$jobs"
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
