#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# scripts/check-includes.py finds a file that uses a standard facility without its header (the
# GCC 14 break of Debian 13: std::stable_sort with <vector> only), accepts one that includes it
# directly or through a header of ours, and tells std::remove(path) (<cstdio>) from the algorithm.
set -euo pipefail
repo="$1"
check="$repo/scripts/check-includes.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/missing.cpp" <<'CPP'
#include <vector>
// std::sort in a comment and "std::sort" in a string do not count
void f(std::vector<int>& v) { std::stable_sort(v.begin(), v.end()); }
CPP
if out=$("$check" "$tmp/missing.cpp" 2>/dev/null); then fail "a missing <algorithm> passed"; fi
grep -q 'missing.cpp: uses std::stable_sort .* without #include <algorithm>' <<<"$out" || fail "unexpected report: $out"
[ "$(wc -l <<<"$out")" -eq 1 ] || fail "one problem expected, got: $out"

cat >"$tmp/ours.h" <<'CPP'
#pragma once
#include <algorithm>
#include <cstdint>
CPP
cat >"$tmp/through_ours.cpp" <<'CPP'
#include "ours.h"
#include <cstdio>
#include <vector>
void f(std::vector<std::uint32_t>& v) { std::stable_sort(v.begin(), v.end()); std::remove("x"); }
CPP
"$check" "$tmp/through_ours.cpp" >/dev/null 2>&1 || fail "a header included through one of ours was not seen"

cat >"$tmp/remove_file.cpp" <<'CPP'
#include <string>
void f(const std::string& p) { std::remove(p.c_str()); }
CPP
out=$("$check" "$tmp/remove_file.cpp" 2>/dev/null) && fail "std::remove(path) without <cstdio> passed"
grep -q '<cstdio>' <<<"$out" || fail "std::remove(path) should ask for <cstdio>: $out"

# The tree itself is clean.
"$check" >/dev/null || { "$check"; fail "the tree misses standard headers (above)"; }
echo "check-includes: all cases behave"
