#pragma once
// Command-line options shared by analyze, scaling and compare: how layers are found in traces
// without NVTX ranges, the matching tolerance, and the batch size when the trace does not say.

#include <CLI/CLI.hpp>

#include <string>

#include "core/analysis/analysis.h"

namespace tpscope::cli {

struct AnalysisCliOptions {
    int blocksPerLayer = 2;
    int leadingBlocks = 0;
    int layersPerStep = 0;
    bool allCollectivesCloseBlocks = false;
    std::int64_t matchToleranceNs = 2000;
    int batch = 0;
    std::string kernelRules;  // --kernel-rules FILE: extra classification rules, tried first

    core::analysis::AnalysisOptions toCore() const;
};

// withBatch: scaling takes per-file batches itself.
void addAnalysisOptions(CLI::App& cmd, AnalysisCliOptions& o, bool withBatch = true);

// "--rank 3" names a RankId; the index of that rank in the trace, or an error listing the ranks.
core::Result<std::int64_t> rankIndexOf(const core::Trace& trace, std::int64_t rankId);

std::string percentText(double fraction);

}  // namespace tpscope::cli
