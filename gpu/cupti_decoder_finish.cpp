// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CuptiDecoder::finish: events per (rank, stream), NVTX ranges paired, nested and projected onto
// the GPU, graph-replayed kernels given layer/block ranges (and their steps, where CUPTI's graph
// launch correlation is broken), statistics into the metadata.

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "gpu/cupti_decoder.h"

namespace tpscope::gpu {

core::Trace CuptiDecoder::finish() {
    // Built in place: names and payloads were interned into m_trace as records arrived.
    SpanMap spans;
    std::vector<GraphEvent> graphEvents;
    emitEvents(m_trace, spans, graphEvents);
    std::vector<HostRange> ranges = pairMarkers();
    const std::vector<GraphReplay> replays = graphReplays(graphEvents);
    m_stats.graphCorrelationMismatches = countCorrelationMismatches(replays);
    if (m_stats.graphCorrelationMismatches > 0) emitStepsFromReplays(m_trace, ranges, replays);
    emitRanges(m_trace, ranges, spans);
    emitGraphRanges(m_trace, graphEvents);
    writeStats(m_trace);
    m_trace.origin = core::TraceOrigin::Captured;
    m_trace.finalize();
    core::Trace out = std::move(m_trace);
    m_trace = core::Trace{};

    m_gpu.clear();
    m_apiByThread.clear();
    m_externalIds.clear();
    m_markers.clear();
    m_foreignMarkerIds.clear();
    m_kernelNames.clear();  // their NameIds belonged to the trace just handed out
    return out;
}

void CuptiDecoder::emitEvents(core::Trace& out, SpanMap& spans, std::vector<GraphEvent>& graphEvents) {
    for (const GpuRecord& r : m_gpu) {
        const core::RankId rankId = rankOf(r.deviceId);
        core::Rank& rank = out.rank(rankId);
        if (rank.deviceIndex < 0) rank.deviceIndex = static_cast<int>(r.deviceId);
        const auto label = m_streamLabels.find((static_cast<std::uint64_t>(r.deviceId) << 32) | r.streamId);
        core::Stream& stream =
            rank.stream(core::StreamId(r.streamId), label != m_streamLabels.end() ? label->second : std::string_view());

        core::EventRecord e{r.startNs, r.endNs - r.startNs, r.name, r.kind, r.correlationId, r.payload};
        if (const auto tag = opTagOf(r)) {
            const std::uint32_t op = opIndexOfTag(*tag);
            const core::PlanOp& planOp = m_ops[op];
            ++m_stats.attributedEvents;
            e.payload = opPayload(planOp, r.payload, rowsOfTag(*tag));
            // A helper kernel of an op (cuBLAS split-K reduction) takes the op's kind.
            const bool isCopy = r.kind == core::EventKind::Memcpy || r.kind == core::EventKind::Memset;
            if (!isCopy && r.kind == core::EventKind::Other) e.kind = planOp.eventKind;
            if (r.graphNodeId != 0) {
                const auto alias = m_graphNodeAlias.find(r.graphNodeId);
                const std::uint64_t node = alias != m_graphNodeAlias.end() ? alias->second : r.graphNodeId;
                graphEvents.push_back({rankId, r.startNs, r.endNs, op, node, r.correlationId});
            }
        } else if (!m_ops.empty() && r.kind != core::EventKind::Memcpy && r.kind != core::EventKind::Memset) {
            ++m_stats.unattributedKernels;  // gpu-check fails on these: a kernel without its op tag
        }
        stream.events.append(e);

        auto [it, inserted] = spans.try_emplace(r.correlationId, Span{rankId, r.startNs, r.endNs});
        if (!inserted) {
            it->second.startNs = std::min(it->second.startNs, r.startNs);
            it->second.endNs = std::max(it->second.endNs, r.endNs);
        }
    }
}

std::vector<CuptiDecoder::HostRange> CuptiDecoder::pairMarkers() {
    std::vector<HostRange> ranges;
    for (const auto& [id, half] : m_markers) {
        if (half.startNs < 0 || half.endNs < half.startNs) {
            ++m_stats.unmatchedMarkers;
            continue;
        }
        ranges.push_back({half.startNs, half.endNs, half.threadKey, half.name, 0});
    }
    // Nesting per thread: outer ranges first at equal starts; a range's depth is the number of
    // ranges of its thread still open when it starts.
    std::sort(ranges.begin(), ranges.end(), [](const HostRange& a, const HostRange& b) {
        if (a.threadKey != b.threadKey) return a.threadKey < b.threadKey;
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
    });
    std::vector<std::int64_t> openEnds;
    std::uint64_t thread = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        HostRange& r = ranges[i];
        if (i == 0 || r.threadKey != thread) {
            openEnds.clear();
            thread = r.threadKey;
        }
        while (!openEnds.empty() && openEnds.back() <= r.startNs) openEnds.pop_back();
        r.depth = static_cast<std::uint8_t>(std::min<std::size_t>(openEnds.size(), 255));
        openEnds.push_back(r.endNs);
    }
    return ranges;
}

void CuptiDecoder::emitRanges(core::Trace& out, const std::vector<HostRange>& ranges, const SpanMap& spans) {
    for (auto& [thread, calls] : m_apiByThread) {
        std::sort(calls.begin(), calls.end(), [](const ApiCall& a, const ApiCall& b) { return a.startNs < b.startNs; });
    }
    for (const HostRange& r : ranges) {
        core::NvtxRange range{r.startNs, r.endNs, r.name, r.depth};
        core::RankId rank = m_defaultRank;
        bool projected = false;
        const auto calls = m_apiByThread.find(r.threadKey);
        if (m_projectOnGpu && calls != m_apiByThread.end()) {
            const auto& v = calls->second;
            auto it = std::lower_bound(v.begin(), v.end(), r.startNs,
                                       [](const ApiCall& c, std::int64_t t) { return c.startNs < t; });
            for (; it != v.end() && it->startNs <= r.endNs; ++it) {
                const auto span = spans.find(it->correlationId);
                if (span == spans.end()) continue;
                if (!projected) {
                    range.startNs = span->second.startNs;
                    range.endNs = span->second.endNs;
                    rank = span->second.rank;
                    projected = true;
                } else {
                    range.startNs = std::min(range.startNs, span->second.startNs);
                    range.endNs = std::max(range.endNs, span->second.endNs);
                }
            }
        }
        out.rank(rank).ranges.push_back(range);
    }
}

std::vector<CuptiDecoder::GraphReplay> CuptiDecoder::graphReplays(std::vector<GraphEvent>& events) {
    std::sort(events.begin(), events.end(), [](const GraphEvent& a, const GraphEvent& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.startNs < b.startNs;
    });
    std::vector<GraphReplay> replays;
    std::unordered_set<std::uint64_t> nodesInReplay;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const GraphEvent& e = events[i];
        const bool newRank = i == 0 || e.rank != events[i - 1].rank;
        if (newRank || !nodesInReplay.insert(e.node).second) {
            nodesInReplay.clear();
            nodesInReplay.insert(e.node);
            replays.push_back({e.rank, e.startNs, e.endNs, e.correlationId, false});
            continue;
        }
        GraphReplay& r = replays.back();
        r.endNs = std::max(r.endNs, e.endNs);
        r.mixedCorrelation = r.mixedCorrelation || e.correlationId != r.correlationId;
    }
    return replays;
}

std::uint64_t CuptiDecoder::countCorrelationMismatches(const std::vector<GraphReplay>& replays) const {
    // Without runtime records there is nothing to check the kernels' ids against.
    if (m_apiByThread.empty()) return 0;
    std::unordered_set<std::uint32_t> launches;
    for (const auto& [thread, calls] : m_apiByThread) {
        for (const ApiCall& c : calls) launches.insert(c.correlationId);
    }
    std::unordered_set<std::uint32_t> seen;
    std::uint64_t mismatches = 0;
    for (const GraphReplay& r : replays) {
        const bool own = !r.mixedCorrelation && launches.count(r.correlationId) > 0;
        if (!seen.insert(r.correlationId).second || !own) ++mismatches;
    }
    return mismatches;
}

void CuptiDecoder::emitStepsFromReplays(core::Trace& out, std::vector<HostRange>& ranges,
                                        const std::vector<GraphReplay>& replays) {
    // The step names in the order the host issued them (every rank runs the same steps); the host
    // ranges go, since their projection followed the broken ids.
    std::vector<std::pair<std::int64_t, core::NameId>> steps;
    std::unordered_set<std::string_view> named;
    for (const HostRange& r : ranges) {
        if (r.depth == 0 && out.name(r.name).rfind("step ", 0) == 0) steps.emplace_back(r.startNs, r.name);
    }
    std::sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<core::NameId> names;
    for (const auto& [start, name] : steps) {
        if (named.insert(out.name(name)).second) names.push_back(name);
    }
    std::erase_if(ranges,
                  [&out](const HostRange& r) { return r.depth == 0 && out.name(r.name).rfind("step ", 0) == 0; });
    std::size_t index = 0;
    for (std::size_t i = 0; i < replays.size(); ++i) {
        if (i > 0 && replays[i].rank != replays[i - 1].rank) index = 0;
        const core::NameId name =
            index < names.size() ? names[index] : out.intern("graph replay " + std::to_string(index));
        out.rank(replays[i].rank).ranges.push_back({replays[i].startNs, replays[i].endNs, name, 0});
        ++index;
        ++m_stats.stepsFromGraphNodes;
    }
}

void CuptiDecoder::emitGraphRanges(core::Trace& out, std::vector<GraphEvent>& events) {
    // Sorted by (rank, start) in graphReplays().
    // Runs of consecutive kernels of one layer make a "layer i" range; inside it, runs of one
    // block make its "attention"/"mlp" range. Prologue/epilogue kernels stay under the step only.
    std::size_t i = 0;
    while (i < events.size()) {
        const core::PlanOp& first = m_ops[events[i].op];
        std::size_t end = i + 1;
        while (end < events.size() && events[end].rank == events[i].rank &&
               m_ops[events[end].op].layer == first.layer) {
            ++end;
        }
        if (first.layer >= 0) {
            core::Rank& rank = out.rank(events[i].rank);
            auto emit = [&](std::size_t from, std::size_t to, core::NameId name, std::uint8_t depth) {
                std::int64_t start = std::numeric_limits<std::int64_t>::max(), stop = 0;
                for (std::size_t k = from; k < to; ++k) {
                    start = std::min(start, events[k].startNs);
                    stop = std::max(stop, events[k].endNs);
                }
                rank.ranges.push_back({start, stop, name, depth});
            };
            emit(i, end, out.intern("layer " + std::to_string(first.layer)), 1);
            for (std::size_t b = i; b < end;) {
                const core::OpBlock block = m_ops[events[b].op].block;
                std::size_t e = b + 1;
                while (e < end && m_ops[events[e].op].block == block) ++e;
                if (block == core::OpBlock::Attention || block == core::OpBlock::Mlp) {
                    emit(b, e, out.intern(core::toString(block)), 2);
                }
                b = e;
            }
        }
        i = end;
    }
}

void CuptiDecoder::writeStats(core::Trace& out) const {
    const auto put = [&out](const char* name, std::uint64_t v) { out.metadata.emplace_back(name, std::to_string(v)); };
    put("cupti.kernels", m_stats.kernels);
    put("cupti.memcpys", m_stats.memcpys);
    put("cupti.memsets", m_stats.memsets);
    put("cupti.markers", m_stats.markers);
    put("cupti.runtime_calls", m_stats.runtimeCalls);
    put("cupti.external_correlations", m_stats.externalCorrelations);
    put("cupti.other_records", m_stats.otherRecords);
    put("cupti.dropped_records", m_stats.droppedRecords);
    put("cupti.incomplete_records", m_stats.incompleteRecords);
    put("cupti.invalid_timestamps", m_stats.invalidTimestamps);
    put("cupti.unmatched_markers", m_stats.unmatchedMarkers);
    put("cupti.foreign_markers", m_stats.foreignMarkers);
    put("cupti.unattributed_kernels", m_stats.unattributedKernels);
    put("cupti.attributed_events", m_stats.attributedEvents);
    put("cupti.graph_correlation_mismatches", m_stats.graphCorrelationMismatches);
    put("cupti.steps_from_graph_nodes", m_stats.stepsFromGraphNodes);
}

}  // namespace tpscope::gpu
