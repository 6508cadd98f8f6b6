#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# scripts/check-folder-layers.py finds two folders that include each other (a planted charts <->
# compare circle, by a path from the repository root and by a path beside the file), a longer
# circle through the top level, a top level with too many files, and a tab controller or feature
# folder that includes ui/window/main_window.h (tabs reach the window through TabHost); it accepts
# folders that depend only downwards and the window's own files including its header; and the
# repository's own ui/ and core/ pass.
set -euo pipefail
repo="$1"
check="$repo/scripts/check-folder-layers.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$tmp"

mkdir -p ui/charts ui/compare ui/document
echo '#pragma once' >ui/document/run_id.h
printf '#pragma once\n#include "ui/document/run_id.h"\n' >ui/charts/chart_page.h
printf '#pragma once\n#include "ui/charts/chart_page.h"\n' >ui/compare/compare_view.h
"$check" ui >/dev/null 2>&1 || fail "folders that depend only downwards were refused"

# The circle: charts includes compare back (written beside the file, not from the root).
printf '#include "../compare/compare_view.h"\n' >ui/charts/chart_tabs.cpp
if out=$("$check" ui 2>/dev/null); then fail "charts <-> compare passed"; fi
grep -q 'circle: charts -> compare -> charts' <<<"$out" || fail "unexpected report: $out"
grep -q 'ui/charts/chart_tabs.cpp -> ../compare/compare_view.h' <<<"$out" || fail "the report names no file: $out"
rm ui/charts/chart_tabs.cpp

# A longer circle through the top level: document -> top -> charts -> document.
printf '#pragma once\n#include "ui/charts/chart_page.h"\n' >ui/view_tab.h
printf '#include "ui/view_tab.h"\n' >ui/document/run_id.cpp
if out=$("$check" ui 2>/dev/null); then fail "a circle through the top level passed"; fi
grep -q 'circle: (top level) -> charts -> document -> (top level)' <<<"$out" || fail "unexpected report: $out"
rm ui/document/run_id.cpp ui/view_tab.h

# Too many files at the top level.
for i in 1 2 3; do echo '#pragma once' >"ui/top_$i.h"; done
"$check" --max-top-files 3 ui >/dev/null 2>&1 || fail "three files at a top level of three were refused"
if out=$("$check" --max-top-files 2 ui 2>/dev/null); then fail "three files at a top level of two passed"; fi
grep -q '3 source files at the top level, at most 2' <<<"$out" || fail "unexpected report: $out"

# ui/window/main_window.h is the window's own: its files may include it, a tab controller (beside it
# in window/) or a feature folder may not.
rm ui/top_*.h
mkdir -p ui/window
printf '#pragma once\n#include "ui/window/tab_host.h"\n' >ui/window/main_window.h
echo '#pragma once' >ui/window/tab_host.h
printf '#include "ui/window/main_window.h"\n' >ui/window/main_window_tabs.cpp
printf '#include "ui/window/tab_host.h"\n' >ui/window/chart_tabs.cpp
"$check" ui >/dev/null 2>&1 || fail "the window's own files including main_window.h were refused"
printf '#include "ui/window/main_window.h"\n' >ui/window/chart_tabs.cpp
if out=$("$check" ui 2>/dev/null); then fail "a tab controller including main_window.h passed"; fi
grep -q 'ui/window/chart_tabs.cpp includes ui/window/main_window.h, which only ui/window/main_window\* may' <<<"$out" ||
    fail "unexpected report: $out"
printf '#include "ui/window/tab_host.h"\n' >ui/window/chart_tabs.cpp
printf '#include "../window/main_window.h"\n' >ui/compare/compare_view.cpp
if out=$("$check" ui 2>/dev/null); then fail "a feature folder including main_window.h passed"; fi
grep -q 'ui/compare/compare_view.cpp includes ../window/main_window.h' <<<"$out" || fail "unexpected report: $out"
rm ui/compare/compare_view.cpp

# The repository itself: ui/ (at most 8 files at its top level) and core/.
"$check" >/dev/null 2>&1 || { "$check"; fail "the repository's folders include each other (above)"; }
echo "check-folder-layers: all cases behave"
