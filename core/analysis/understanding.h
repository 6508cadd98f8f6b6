// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Whether the analysis understood a trace (DESIGN.md §5, issue 43 §4): the loud answer for a trace
// whose kernels, layers or batch it could not place, said before any number built on them.
//
// Input: the trace and its RunAnalysis. A gap is each of:
// - other kernels: more than kOtherShareLimit of kernel time (memcpy and memset left out) is in
//   kernels no rule classes; the top unclassified names by time say which rule to write
//   (--kernel-rules FILE, docs/cli.md);
// - no layers: no rank was segmented into layers (no NVTX layer ranges, no collective pattern, no
//   repeating kernel sequence); --layers-per-step / --blocks-per-layer set the pattern rule;
// - batch assumed: no --batch, no trace metadata and no engine step annotation gave it, so tokens/s
//   assume batch 1 (--batch N).
// Complexity: O(kinds) from the summary; the top names (only when "other" is over the limit) cost
// one pass over the events (core/trace/kernel_time.h).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct RunAnalysis;

inline constexpr double kOtherShareLimit = 0.20;

enum class GapKind : std::uint8_t { OtherKernels, NoLayers, BatchAssumed };
std::string_view toString(GapKind kind);  // "other_kernels", "no_layers", "batch_assumed"

struct UnderstandingGap {
    GapKind kind = GapKind::OtherKernels;
    std::string what;  // what is missing, in words
    std::string fix;   // the flag or rules file that fixes it
};

struct UnclassifiedName {
    std::string name;
    std::int64_t ns = 0;
    std::uint64_t count = 0;
};

struct Understanding {
    std::vector<UnderstandingGap> gaps;      // empty: understood
    double otherShare = 0;                   // of kernel time
    std::vector<UnclassifiedName> topOther;  // when OtherKernels is a gap: the names with the most time
    bool understood() const { return gaps.empty(); }
    // One paragraph that leads a report: "not understood: <what>; fix: <flags>"; empty when understood.
    std::string headline() const;
};

Understanding checkUnderstanding(const Trace& trace, const RunAnalysis& analysis, std::size_t topNames = 5);

}  // namespace tpscope::core::analysis
