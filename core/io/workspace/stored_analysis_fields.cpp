// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The stored analysis' large sections (stored_analysis_fields.h): the segmentation, the collective
// calls and their participants, the layer x rank rows and the layer instances, a mark after each item.
// The summary section is in stored_analysis_summary.cpp.
#include "core/io/workspace/stored_analysis_fields.h"

#include <stdexcept>
#include <utility>

#include "core/util/vector_grow.h"

namespace tpscope::core::stored {

// A field added to one of these structs must be added to its section (here or in
// stored_analysis_summary.cpp, and the format version of stored_analysis.cpp raised): these sizes stop
// the build until it is.
static_assert(sizeof(analysis::TimeBreakdown) == 64);
static_assert(sizeof(analysis::StepWindow) == 32);
static_assert(sizeof(analysis::LayerWindow) == 32);
static_assert(sizeof(analysis::BlockWindow) == 32);
static_assert(sizeof(analysis::RankSegmentation) == 304);
static_assert(sizeof(analysis::CollectiveCall) == 72);
static_assert(sizeof(analysis::CallParticipant) == 12);
static_assert(sizeof(analysis::LongWait) == 16);
static_assert(sizeof(analysis::RankCollectiveStats) == 48);
static_assert(sizeof(analysis::CollectiveMatching) == 136);
static_assert(sizeof(analysis::BlockRankSum) == 88);
static_assert(sizeof(analysis::StepRankRow) == 88);
static_assert(sizeof(analysis::LayerAcrossRanks) == 56);
static_assert(sizeof(analysis::StepLatency) == 40);
static_assert(sizeof(analysis::KindShare) == 32);
static_assert(sizeof(analysis::RankSummary) == 112);
static_assert(sizeof(analysis::RunSummary) == 504);
static_assert(sizeof(analysis::TraceFinding) == 96);
static_assert(sizeof(analysis::Understanding) == 56);
static_assert(sizeof(analysis::RankClockEstimate) == 64);
static_assert(sizeof(analysis::ClockEstimate) == 48);
static_assert(sizeof(analysis::RunAnalysis) == 960);

namespace {

using namespace analysis;

// n elements, their pages faulted in by one call (core::grow): the large tables of the result are
// fresh memory, whose faults one by one cost this VM more than decoding them.
template <typename T>
void sized(std::vector<T>& v, std::size_t n) {
    v.clear();
    v.reserve(n);
    grow(v, n);
}

}  // namespace

TraceShape::TraceShape(const Trace& trace)
    : ranks(trace.ranks.size()), names(trace.names.size()), payloads(trace.payloads.size()) {
    streamEvents.reserve(trace.ranks.size());
    for (const auto& rank : trace.ranks) {
        auto& counts = streamEvents.emplace_back();
        for (const auto& stream : rank.streams) counts.push_back(stream.events.size());
    }
}

void writeSegmentationSection(StoredOut& out, const Segmentation& segmentation) {
    out.u(segmentation.ranks.size());
    for (const auto& r : segmentation.ranks) {
        out.u(r.rank.value);
        out.u(static_cast<std::uint8_t>(r.source));
        out.u(r.steps.size());
        for (const auto& s : r.steps) {
            out.s(s.key);
            out.s(s.startNs);
            out.s(s.endNs - s.startNs);
            out.u(static_cast<std::uint8_t>(s.phase));
            out.s(s.batch);
            out.mark();
        }
        // Layers and blocks: differences from the one before (a few bytes each before compression).
        out.u(r.layers.size());
        LayerWindow before;
        for (const LayerWindow w : r.layers) {
            out.s(w.step - before.step);
            out.s(w.layer);
            out.s(w.startNs - before.startNs);
            out.s(w.endNs - w.startNs);
            before = w;
            out.mark();
        }
        out.u(r.blocks.size());
        BlockWindow blockBefore;
        for (const BlockWindow w : r.blocks) {
            out.s(w.step - blockBefore.step);
            out.s(w.layer);
            out.u(static_cast<std::uint8_t>(w.kind));
            out.s(w.startNs - blockBefore.startNs);
            out.s(w.endNs - w.startNs);
            blockBefore = w;
            out.mark();
        }
        for (const std::size_t v : {r.blockCount, r.unsplitLayers, r.leftoverBlocks, r.ignoredLayerRanges,
                                    r.repeatPeriod, r.patternLayerCount, r.repeatLayerCount, r.repeatLayersPerUnit}) {
            out.u(v);
        }
        out.b(r.blocksDerived);
        out.u(static_cast<std::uint8_t>(r.repeatSplitBy));
        out.b(r.patternKeptAsMultiple);
        out.mark();
    }
}

void readSegmentationSection(StoredIn& in, const TraceShape& shape, Segmentation& segmentation) {
    segmentation.ranks.resize(in.count());
    if (segmentation.ranks.size() != shape.ranks) in.fail();
    // One list of each for every rank: a rank's layers are 40 MB at 100 M events, fresh pages each time
    // if made per rank.
    std::vector<LayerWindow> layers;
    std::vector<BlockWindow> blocks;
    for (auto& r : segmentation.ranks) {
        if (!in.ok()) return;
        r.rank = RankId{static_cast<std::uint32_t>(in.below(std::uint64_t{1} << 32))};
        r.source = in.enumBelow<SegmentationSource>(kSegmentationSources);
        r.steps.resize(in.count());
        for (auto& s : r.steps) {
            s.key = in.s();
            s.startNs = in.s();
            s.endNs = in.plus(s.startNs);
            s.phase = in.enumBelow<StepPhase>(kStepPhases);
            s.batch = static_cast<int>(in.s());
            in.mark();
        }
        layers.assign(in.count(), LayerWindow{});
        LayerWindow before;
        for (auto& w : layers) {
            w.step = in.plus(before.step);
            w.layer = static_cast<int>(in.s());
            w.startNs = in.plus(before.startNs);
            w.endNs = in.plus(w.startNs);
            before = w;
            in.mark();
        }
        blocks.assign(in.count(), BlockWindow{});
        BlockWindow blockBefore;
        for (auto& w : blocks) {
            w.step = in.plus(blockBefore.step);
            w.layer = static_cast<int>(in.s());
            w.kind = in.enumBelow<BlockKind>(kBlockKinds);
            w.startNs = in.plus(blockBefore.startNs);
            w.endNs = in.plus(w.startNs);
            blockBefore = w;
            in.mark();
        }
        if (!in.ok()) return;
        r.layers = LayerWindows(layers);
        r.blocks = BlockWindows(blocks);
        for (std::size_t* v : {&r.blockCount, &r.unsplitLayers, &r.leftoverBlocks, &r.ignoredLayerRanges,
                               &r.repeatPeriod, &r.patternLayerCount, &r.repeatLayerCount, &r.repeatLayersPerUnit}) {
            *v = in.u();
        }
        r.blocksDerived = in.b();
        r.repeatSplitBy = in.enumBelow<UnitSplit>(kUnitSplits);
        r.patternKeptAsMultiple = in.b();
        in.mark();
    }
}

void writeCallsSection(StoredOut& out, const std::vector<CollectiveCall>& calls) {
    out.u(calls.size());
    CollectiveCall before;
    before.step = 0;
    std::uint64_t nextParticipant = 0;
    for (const auto& c : calls) {
        out.s(static_cast<std::int64_t>(c.firstParticipant) - static_cast<std::int64_t>(nextParticipant));
        out.u(c.participantCount);
        out.u(c.expectedParticipants);
        out.u(c.groupSize);
        out.u(c.communicator.value);
        out.u(c.lastRankIndex);
        out.s(c.layer);
        out.u(static_cast<std::uint8_t>(c.op));
        out.u(c.bytes);
        out.s(c.firstStartNs - before.firstStartNs);
        out.s(c.lastStartNs - c.firstStartNs);
        out.s(c.medianEndNs - c.lastStartNs);
        out.s(c.step - before.step);
        nextParticipant = std::uint64_t{c.firstParticipant} + c.participantCount;
        before = c;
        out.mark();
    }
}

void readCallsSection(StoredIn& in, const TraceShape& shape, std::vector<CollectiveCall>& calls) {
    sized(calls, in.count());
    CollectiveCall before;
    before.step = 0;
    std::int64_t nextParticipant = 0;
    for (auto& c : calls) {
        const std::int64_t first = in.plus(nextParticipant);
        if (first < 0 || first > 0xFFFFFFFFLL) in.fail();
        if (!in.ok()) return;
        c.firstParticipant = static_cast<std::uint32_t>(first);
        c.participantCount = static_cast<std::uint32_t>(in.below(std::uint64_t{1} << 32));
        c.expectedParticipants = static_cast<std::uint32_t>(in.below(std::uint64_t{1} << 32));
        c.groupSize = static_cast<std::uint32_t>(in.below(std::uint64_t{1} << 32));
        c.communicator = NameId{static_cast<std::uint32_t>(in.below(shape.names))};
        c.lastRankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        c.layer = static_cast<int>(in.s());
        c.op = in.enumBelow<CollectiveOp>(kCollectiveOps);
        c.bytes = in.u();
        c.firstStartNs = in.plus(before.firstStartNs);
        c.lastStartNs = in.plus(c.firstStartNs);
        c.medianEndNs = in.plus(c.lastStartNs);
        c.step = in.plus(before.step);
        nextParticipant = first + c.participantCount;
        before = c;
        in.mark();
    }
}

void writeParticipantsSection(StoredOut& out, const CollectiveMatching& m) {
    // A rank's stream's matched kernels come in order, a few apart: each event index is written as the
    // difference from the last one of its (rank, stream).
    std::vector<std::vector<std::int64_t>> last;
    out.u(m.participants.size());
    for (const auto& p : m.participants) {
        if (p.rankIndex >= last.size()) last.resize(p.rankIndex + 1u);
        auto& streams = last[p.rankIndex];
        if (p.streamIndex >= streams.size()) streams.resize(p.streamIndex + 1u, 0);
        out.u(p.rankIndex);
        out.u(p.streamIndex);
        out.s(static_cast<std::int64_t>(p.eventIndex) - streams[p.streamIndex]);
        out.s(p.narrowWaitNs);
        streams[p.streamIndex] = p.eventIndex;
        out.mark();
    }
    out.u(m.longWaits.size());
    for (const auto& w : m.longWaits) {
        out.u(w.participant);
        out.s(w.waitNs);
        out.mark();
    }
}

void readParticipantsSection(StoredIn& in, const TraceShape& shape, CollectiveMatching& m) {
    std::vector<std::vector<std::int64_t>> last(shape.ranks);
    for (std::size_t r = 0; r < shape.ranks; ++r) last[r].assign(shape.streamEvents[r].size(), 0);
    sized(m.participants, in.count());
    for (auto& p : m.participants) {
        const auto rank = in.below(shape.ranks);
        const auto stream = in.below(in.ok() ? shape.streamEvents[rank].size() : 0);
        if (!in.ok()) return;
        const std::int64_t event = in.plus(last[rank][stream]);
        if (event < 0 || static_cast<std::uint64_t>(event) >= shape.streamEvents[rank][stream]) in.fail();
        const std::int64_t wait = in.s();
        if (wait < 0 || wait > kLongWait) in.fail();
        if (!in.ok()) return;
        p.rankIndex = static_cast<std::uint16_t>(rank);
        p.streamIndex = static_cast<std::uint16_t>(stream);
        p.eventIndex = static_cast<std::uint32_t>(event);
        p.narrowWaitNs = static_cast<std::int32_t>(wait);
        last[rank][stream] = event;
        in.mark();
    }
    m.longWaits.resize(in.count());
    for (auto& w : m.longWaits) {
        w.participant = static_cast<std::uint32_t>(in.below(m.participants.size()));
        w.waitNs = in.s();
        in.mark();
    }
}

void writeRowsSection(StoredOut& out, const LayerRows& rows) {
    const auto& instances = rows.instances();
    out.u(instances.size());
    LayerRows::Instance before;
    for (const auto& inst : instances) {
        out.s(inst.step - before.step);
        out.s(inst.layer);
        out.u(inst.firstRow - before.firstRow);
        before = inst;
        out.mark();
    }
    out.u(rows.size());
    std::int64_t startBefore = 0;
    for (const LayerRankRow row : rows) {
        const TimeBreakdown& t = row.time;
        out.u(row.rankIndex);
        out.s(row.startNs - startBefore);
        for (const std::int64_t v : {t.wallNs, t.computeNs, t.overlappedCommNs, t.exposedWaitNs, t.exposedTransferNs}) {
            out.s(v);
        }
        // The three sums a narrow row derives: 0 each where they hold.
        out.s(t.exposedCommNs - (t.exposedWaitNs + t.exposedTransferNs));
        out.s(t.commNs - (t.exposedCommNs + t.overlappedCommNs));
        out.s(t.idleNs - (t.wallNs - t.computeNs - t.exposedCommNs));
        startBefore = row.startNs;
        out.mark();
    }
}

void readRowsSection(StoredIn& in, const TraceShape& shape, LayerRows& rows) {
    std::vector<LayerRows::Instance> instances(in.count());
    LayerRows::Instance before;
    for (auto& inst : instances) {
        inst.step = in.plus(before.step);
        inst.layer = static_cast<int>(in.s());
        inst.firstRow = static_cast<std::uint32_t>(before.firstRow + in.below(std::uint64_t{1} << 32));
        before = inst;
        in.mark();
    }
    const std::size_t count = in.count();
    if (!in.ok()) return;
    try {
        rows.reset(instances, count);
    } catch (const std::invalid_argument&) {
        in.fail();
        return;
    }
    std::vector<LayerRows::WideRow> wide;
    std::int64_t startBefore = 0;
    for (std::size_t k = 0; k < instances.size() && in.ok(); ++k) {
        const std::size_t end = k + 1 < instances.size() ? instances[k + 1].firstRow : count;
        for (std::size_t i = instances[k].firstRow; i < end && in.ok(); ++i) {
            LayerRankRow row{instances[k].step, instances[k].layer, 0, 0, {}};
            row.rankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
            row.startNs = in.plus(startBefore);
            TimeBreakdown& t = row.time;
            for (std::int64_t* v :
                 {&t.wallNs, &t.computeNs, &t.overlappedCommNs, &t.exposedWaitNs, &t.exposedTransferNs}) {
                *v = in.s();
            }
            t.exposedCommNs = in.plus(in.sum(t.exposedWaitNs, t.exposedTransferNs));
            t.commNs = in.plus(in.sum(t.exposedCommNs, t.overlappedCommNs));
            t.idleNs = in.plus(in.difference(in.difference(t.wallNs, t.computeNs), t.exposedCommNs));
            if (!rows.store(i, row)) wide.emplace_back(static_cast<std::uint32_t>(i), t);
            startBefore = row.startNs;
            in.mark();
        }
    }
    if (in.ok()) rows.keepWide(std::move(wide));
}

void writeLayersSection(StoredOut& out, const std::vector<LayerAcrossRanks>& layers) {
    out.u(layers.size());
    LayerAcrossRanks before;
    for (const auto& l : layers) {
        out.s(l.step - before.step);
        out.s(l.maxWallNs);
        out.s(l.minComputeNs);
        out.s(l.maxComputeNs - l.minComputeNs);
        out.f(l.meanComputeNs);
        out.s(l.layer);
        out.u(l.ranks);
        out.s(static_cast<std::int64_t>(l.firstRow) - static_cast<std::int64_t>(before.firstRow + before.ranks));
        out.u(l.slowestRankIndex);
        before = l;
        out.mark();
    }
}

void readLayersSection(StoredIn& in, const TraceShape& shape, std::vector<LayerAcrossRanks>& layers) {
    sized(layers, in.count());
    LayerAcrossRanks before;
    for (auto& l : layers) {
        l.step = in.plus(before.step);
        l.maxWallNs = in.s();
        l.minComputeNs = in.s();
        l.maxComputeNs = in.plus(l.minComputeNs);
        l.meanComputeNs = in.f();
        l.layer = static_cast<int>(in.s());
        l.ranks = static_cast<std::uint32_t>(in.below(std::uint64_t{1} << 32));
        const std::int64_t first = in.plus(static_cast<std::int64_t>(before.firstRow) + before.ranks);
        if (first < 0 || first > 0xFFFFFFFFLL) in.fail();
        l.firstRow = static_cast<std::uint32_t>(first);
        l.slowestRankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        if (!in.ok()) return;
        before = l;
        in.mark();
    }
}

void writeSection(std::size_t section, StoredOut& out, const RunAnalysis& a, const ClockEstimate& clock) {
    switch (section) {
        case kSummary:
            writeSummarySection(out, a, clock);
            return;
        case kSegmentation:
            writeSegmentationSection(out, a.segmentation);
            return;
        case kCalls:
            writeCallsSection(out, a.matching.calls);
            return;
        case kParticipants:
            writeParticipantsSection(out, a.matching);
            return;
        case kRows:
            writeRowsSection(out, a.breakdown.rows);
            return;
        case kLayers:
            writeLayersSection(out, a.breakdown.layers);
            return;
        default:
            return;
    }
}

void readSection(std::size_t section, StoredIn& in, const TraceShape& shape, RunAnalysis& a, ClockEstimate& clock) {
    switch (section) {
        case kSummary:
            readSummarySection(in, shape, a, clock);
            return;
        case kSegmentation:
            readSegmentationSection(in, shape, a.segmentation);
            return;
        case kCalls:
            readCallsSection(in, shape, a.matching.calls);
            return;
        case kParticipants:
            readParticipantsSection(in, shape, a.matching);
            return;
        case kRows:
            readRowsSection(in, shape, a.breakdown.rows);
            return;
        case kLayers:
            readLayersSection(in, shape, a.breakdown.layers);
            return;
        default:
            in.fail();
            return;
    }
}

}  // namespace tpscope::core::stored
