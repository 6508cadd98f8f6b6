#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# `tpscope --screenshot OUT --timings` (app/gui/open_timings.h) on a small simulated workspace: stdout
# is exactly one JSON line whose three figures are numbers, the first frame comes before the complete
# view and both within the run's own wall time; --timings without --screenshot is refused with the reason.
# Arguments: the build folder.
set -euo pipefail
build="$1"
cli="$build/app/tpscope-cli"
gui="$build/app/gui/tpscope"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$cli" simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 2 --batch 1 --tokens 2 \
  --out "$tmp/small.tpscope" >/dev/null 2>&1 || fail "simulate did not write the workspace"

before=$(date +%s.%N)
QT_QPA_PLATFORM=offscreen "$gui" --screenshot "$tmp/shot.png" --timings "$tmp/small.tpscope" \
  >"$tmp/out.txt" 2>"$tmp/err.txt" || fail "screenshot failed: $(cat "$tmp/err.txt")"
after=$(date +%s.%N)
[ -s "$tmp/shot.png" ] || fail "no screenshot written"
[ "$(wc -l <"$tmp/out.txt")" -eq 1 ] || fail "one line expected on stdout, got: $(cat "$tmp/out.txt")"

python3 - "$tmp/out.txt" "$before" "$after" <<'PY' || fail "timings line: $(cat "$tmp/out.txt")"
import json, sys
line = open(sys.argv[1]).read()
t = json.loads(line)
assert set(t) == {"first_frame_s", "complete_s", "peak_rss_mb"}, t
for key in t:
    assert isinstance(t[key], (int, float)) and not isinstance(t[key], bool), (key, t[key])
wall = float(sys.argv[3]) - float(sys.argv[2])
# Both times count from the process's start (10 ms ticks), which is inside the measured wall time.
assert 0 < t["first_frame_s"] <= t["complete_s"] <= wall + 0.02, (t, wall)
assert t["peak_rss_mb"] > 1, t
PY

if QT_QPA_PLATFORM=offscreen "$gui" --timings "$tmp/small.tpscope" >"$tmp/out2.txt" 2>"$tmp/err2.txt"; then
  fail "--timings without --screenshot was accepted"
fi
grep -q -- "--timings measures a --screenshot run" "$tmp/err2.txt" || fail "no reason given: $(cat "$tmp/err2.txt")"
echo "ok: $(cat "$tmp/out.txt")"
