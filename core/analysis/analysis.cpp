// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/analysis.h"

#include <charconv>
#include <utility>

#include "core/analysis/scaling_input.h"
#include "core/analysis/synced_analysis.h"

namespace tpscope::core::analysis {

namespace {

template <typename T>
std::size_t vectorBytes(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

}  // namespace

std::size_t RunAnalysis::residentBytes() const {
    std::size_t bytes = sizeof(*this);
    for (const auto& r : segmentation.ranks) {
        bytes += sizeof(r) + vectorBytes(r.steps) + r.layers.residentBytes() + r.blocks.residentBytes();
    }
    bytes += vectorBytes(matching.calls) + vectorBytes(matching.participants) + vectorBytes(matching.longWaits) +
             vectorBytes(matching.ranks);
    bytes += breakdown.rows.residentBytes() + vectorBytes(breakdown.blockSums) + vectorBytes(breakdown.steps) +
             vectorBytes(breakdown.layers) + vectorBytes(breakdown.rankTotals);
    bytes += vectorBytes(summary.steps) + vectorBytes(summary.rankSummaries);
    return bytes;
}

int metadataInt(const Trace& trace, std::string_view key) {
    const std::string text = trace.metadataValue(key);
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size() && value > 0 ? value : 0;
}

RunAnalysis analyzeTrace(const Trace& trace, const AnalysisOptions& options) {
    return analyzeSegmentedTrace(trace, segmentLayers(trace, options.segmentation, options.threads), options);
}

RunAnalysis analyzeSegmentedTrace(const Trace& trace, Segmentation segmentation, const AnalysisOptions& options) {
    CollectiveMatching matching = matchCollectives(trace, segmentation, options.matching, options.threads);
    return analyzeMatchedTrace(trace, std::move(segmentation), std::move(matching), options);
}

RunAnalysis analyzeMatchedTrace(const Trace& trace, Segmentation segmentation, CollectiveMatching matching,
                                const AnalysisOptions& options) {
    RunAnalysis a;
    a.segmentation = std::move(segmentation);
    a.matching = std::move(matching);
    a.breakdown = computeBreakdown(trace, a.segmentation, a.matching, options.threads);
    // The blocks (8 bytes each, 20 M at 100 M events) serve the breakdown alone: its rows and block sums
    // hold what they say, and blockCount their number.
    for (auto& r : a.segmentation.ranks) r.blocks = {};
    a.summary = summarizeRun(trace, a.matching, a.breakdown, options.batch, options.threads, &a.segmentation);
    a.findings = findTraceIssues(trace, a.matching, a.breakdown, a.summary, options.findings);
    a.notes = a.segmentation.notes;
    a.notes.insert(a.notes.end(), a.matching.notes.begin(), a.matching.notes.end());
    if (!a.summary.batchKnown) {
        a.notes.push_back("batch size unknown (no --batch, no 'batch' in the trace metadata): tokens/s assume batch 1");
    } else if (a.summary.batchSource == "step annotations") {
        a.notes.push_back("batch " + std::to_string(a.summary.batch) +
                          " from the serving engine's step annotations (sequences decoding per step)");
    }
    if (a.summary.prefillSteps > 0) {
        a.notes.push_back(std::to_string(a.summary.prefillSteps) +
                          " prefill step(s) left out of token latency and tokens/s (not a decode rate)");
    }
    if (a.summary.steps.empty()) a.notes.push_back("no decode step found: no latency or throughput");
    std::size_t emptyLayers = 0;
    for (const auto& row : a.breakdown.rows) emptyLayers += row.time.computeNs == 0 && row.time.commNs == 0 ? 1 : 0;
    if (emptyLayers > 0) {
        a.notes.push_back(std::to_string(emptyLayers) + " layer window(s) (step x rank) hold no kernel: all idle");
    }
    a.understanding = checkUnderstanding(trace, a);
    return a;
}

bool analysisReusable(const Trace& trace, const AnalysisOptions& computedWith, const AnalysisOptions& wanted) {
    // The segmentation and the matching shape every stage after them.
    if (!(wanted.segmentation == computedWith.segmentation) || !(wanted.matching == computedWith.matching)) {
        return false;
    }
    if (wanted.batch == computedWith.batch) return true;
    // The batch reaches the summary alone (and the notes and understanding through batchKnown and
    // batchSource). An unknown one is replaced by the step annotations' with a note of its own, so only
    // two known batches of one value stand for each other: they differ in where it came from.
    const RunBatch had = runBatch(trace, computedWith.batch);
    const RunBatch want = runBatch(trace, wanted.batch);
    return had.known && want.known && had.batch == want.batch;
}

bool reuseAnalysis(RunAnalysis& a, const Trace& trace, const AnalysisOptions& computedWith,
                   const AnalysisOptions& wanted) {
    if (!analysisReusable(trace, computedWith, wanted)) return false;
    if (wanted.batch != computedWith.batch) a.summary.batchSource = runBatch(trace, wanted.batch).source;
    // The findings read the result and nothing reads them (analyzeMatchedTrace).
    if (!(wanted.findings == computedWith.findings)) {
        a.findings = findTraceIssues(trace, a.matching, a.breakdown, a.summary, wanted.findings);
    }
    return true;
}

RunPoint runPointOf(const Trace& trace, const RunAnalysis& analysis, std::string label, int gpus, int batch) {
    RunPoint p;
    p.label = std::move(label);
    // Without a given TP, the one rule of the scaling input (traceTp: metadata, communicator size,
    // world_size, ranks), so the GUI's runs table and charts read an imported trace as the CLI does.
    p.gpus = gpus > 0 ? gpus : traceTp(trace).tp;
    p.batch = batch > 0 ? batch : analysis.summary.batch;
    const double latency = analysis.summary.latencyMeanNs;
    p.stepLatencyNs = latency;
    p.tokensPerSec = decodeTokensPerSec(analysis.summary, p.batch);
    p.loss = analysis.summary.loss;
    p.exposedCommShare = analysis.summary.exposedCommShare;
    return p;
}

}  // namespace tpscope::core::analysis
