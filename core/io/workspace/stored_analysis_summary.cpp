// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The stored analysis' summary section (stored_analysis_fields.h): the run summary, the matching's and
// the breakdown's per-rank tables, notes, findings, understanding and the clock estimate: the small
// tables (3 MB of the 288 at 100 M events). The large ones are in stored_analysis_fields.cpp.
#include "core/io/workspace/stored_analysis_fields.h"

namespace tpscope::core::stored {

namespace {

using namespace analysis;

void writeTime(StoredOut& out, const TimeBreakdown& t) {
    for (const std::int64_t v : {t.wallNs, t.computeNs, t.commNs, t.exposedCommNs, t.overlappedCommNs, t.exposedWaitNs,
                                 t.exposedTransferNs, t.idleNs}) {
        out.s(v);
    }
}

TimeBreakdown readTime(StoredIn& in) {
    TimeBreakdown t;
    for (std::int64_t* v : {&t.wallNs, &t.computeNs, &t.commNs, &t.exposedCommNs, &t.overlappedCommNs, &t.exposedWaitNs,
                            &t.exposedTransferNs, &t.idleNs}) {
        *v = in.s();
    }
    return t;
}

// An index into the trace's ranks that -1 may also stand for "none".
std::int64_t readRankOrNone(StoredIn& in, const TraceShape& shape) {
    const std::int64_t v = in.s();
    if (v < -1 || v >= static_cast<std::int64_t>(shape.ranks)) in.fail();
    return in.ok() ? v : -1;
}

void writeMatchingTables(StoredOut& out, const CollectiveMatching& m) {
    out.u(m.incompleteCalls);
    out.u(m.unmatchedKernels);
    out.texts(m.notes);
    out.u(m.ranks.size());
    for (const auto& r : m.ranks) {
        out.u(r.rankIndex);
        out.u(r.kernels);
        out.u(r.lastArrivals);
        out.u(r.extraKernels);
        out.s(r.waitNs);
        out.s(r.kernelNs);
    }
}

void readMatchingTables(StoredIn& in, const TraceShape& shape, CollectiveMatching& m) {
    m.incompleteCalls = in.u();
    m.unmatchedKernels = in.u();
    m.notes = in.texts();
    m.ranks.resize(in.count());
    for (auto& r : m.ranks) {
        r.rankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        r.kernels = in.u();
        r.lastArrivals = in.u();
        r.extraKernels = in.u();
        r.waitNs = in.s();
        r.kernelNs = in.s();
    }
}

void writeBreakdownTables(StoredOut& out, const LayerBreakdown& b) {
    out.u(b.blockSums.size());
    for (const auto& s : b.blockSums) {
        out.u(s.rankIndex);
        out.s(s.layer);
        out.u(static_cast<std::uint8_t>(s.block));
        out.u(s.samples);
        writeTime(out, s.time);
        out.mark();
    }
    out.u(b.steps.size());
    for (const auto& s : b.steps) {
        out.s(s.step);
        out.u(s.rankIndex);
        out.s(s.startNs);
        writeTime(out, s.time);
        out.mark();
    }
    out.u(b.rankTotals.size());
    for (const auto& t : b.rankTotals) writeTime(out, t);
}

void readBreakdownTables(StoredIn& in, const TraceShape& shape, LayerBreakdown& b) {
    b.blockSums.resize(in.count());
    for (auto& s : b.blockSums) {
        s.rankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        s.layer = static_cast<int>(in.s());
        s.block = in.enumBelow<BlockKind>(kBlockKinds);
        s.samples = in.u();
        s.time = readTime(in);
        in.mark();
    }
    b.steps.resize(in.count());
    for (auto& s : b.steps) {
        s.step = in.s();
        s.rankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        s.startNs = in.s();
        s.time = readTime(in);
        in.mark();
    }
    b.rankTotals.resize(in.count());
    for (auto& t : b.rankTotals) t = readTime(in);
}

void writeRunSummary(StoredOut& out, const RunSummary& s) {
    out.u(s.ranks);
    out.u(s.events);
    out.s(s.batch);
    out.b(s.batchKnown);
    out.text(s.batchSource);
    out.u(s.prefillSteps);
    out.u(s.steps.size());
    for (const auto& step : s.steps) {
        out.s(step.step);
        out.s(step.startNs);
        out.s(step.latencyNs);
        out.u(step.ranks);
        out.u(static_cast<std::uint8_t>(step.phase));
        out.b(step.prefill);
        out.s(step.batch);
        out.mark();
    }
    for (const double v : {s.latencyMeanNs, s.latencyP50Ns, s.latencyP90Ns, s.latencyMaxNs, s.tokensPerSec}) out.f(v);
    for (const auto& k : s.kinds) {
        out.u(static_cast<std::uint8_t>(k.kind));
        out.u(k.kernels);
        out.s(k.busyNs);
        out.f(k.share);
    }
    for (const double v : {s.loss.compute, s.loss.transfer, s.loss.syncWait, s.loss.imbalance, s.loss.idle}) out.f(v);
    out.f(s.exposedCommShare);
    out.f(s.exposedWaitShare);
    out.s(s.slowestRankIndex);
    out.text(s.slowestRankReason);
    out.s(s.slowestLayer);
    out.f(s.slowestLayerMeanWallNs);
    out.u(s.collectiveCalls);
    out.u(s.incompleteCalls);
    out.u(s.rankSummaries.size());
    for (const auto& r : s.rankSummaries) {
        out.u(r.rankIndex);
        out.u(r.rank.value);
        writeTime(out, r.time);
        out.s(r.imbalanceNs);
        out.u(r.collectiveKernels);
        out.u(r.lastArrivals);
        out.u(r.extraKernels);
        out.s(r.collectiveWaitNs);
    }
}

void readRunSummary(StoredIn& in, const TraceShape& shape, RunSummary& s) {
    s.ranks = in.u();
    s.events = in.u();
    s.batch = static_cast<int>(in.s());
    s.batchKnown = in.b();
    s.batchSource = in.text();
    s.prefillSteps = in.u();
    s.steps.resize(in.count());
    for (auto& step : s.steps) {
        step.step = in.s();
        step.startNs = in.s();
        step.latencyNs = in.s();
        step.ranks = static_cast<std::uint32_t>(in.u());
        step.phase = in.enumBelow<StepPhase>(kStepPhases);
        step.prefill = in.b();
        step.batch = static_cast<int>(in.s());
        in.mark();
    }
    for (double* v : {&s.latencyMeanNs, &s.latencyP50Ns, &s.latencyP90Ns, &s.latencyMaxNs, &s.tokensPerSec}) {
        *v = in.f();
    }
    for (auto& k : s.kinds) {
        k.kind = in.enumBelow<EventKind>(kEventKindCount);
        k.kernels = in.u();
        k.busyNs = in.s();
        k.share = in.f();
    }
    for (double* v : {&s.loss.compute, &s.loss.transfer, &s.loss.syncWait, &s.loss.imbalance, &s.loss.idle}) {
        *v = in.f();
    }
    s.exposedCommShare = in.f();
    s.exposedWaitShare = in.f();
    s.slowestRankIndex = readRankOrNone(in, shape);
    s.slowestRankReason = in.text();
    s.slowestLayer = static_cast<int>(in.s());
    s.slowestLayerMeanWallNs = in.f();
    s.collectiveCalls = in.u();
    s.incompleteCalls = in.u();
    s.rankSummaries.resize(in.count());
    for (auto& r : s.rankSummaries) {
        r.rankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        r.rank = RankId{static_cast<std::uint32_t>(in.below(std::uint64_t{1} << 32))};
        r.time = readTime(in);
        r.imbalanceNs = in.s();
        r.collectiveKernels = in.u();
        r.lastArrivals = in.u();
        r.extraKernels = in.u();
        r.collectiveWaitNs = in.s();
    }
}

void writeFindings(StoredOut& out, const std::vector<TraceFinding>& findings, const Understanding& u) {
    out.u(findings.size());
    for (const auto& f : findings) {
        out.u(static_cast<std::uint8_t>(f.kind));
        out.f(f.value);
        out.u(f.steps.size());
        for (const std::int64_t step : f.steps) out.s(step);
        out.f(f.busbwBytesPerSec);
        out.f(f.fabricBusbwBytesPerSec);
        out.u(f.communicatorSize);
        out.text(f.text);
    }
    out.u(u.gaps.size());
    for (const auto& g : u.gaps) {
        out.u(static_cast<std::uint8_t>(g.kind));
        out.text(g.what);
        out.text(g.fix);
    }
    out.f(u.otherShare);
    out.u(u.topOther.size());
    for (const auto& n : u.topOther) {
        out.text(n.name);
        out.s(n.ns);
        out.u(n.count);
    }
}

void readFindings(StoredIn& in, std::vector<TraceFinding>& findings, Understanding& u) {
    findings.resize(in.count());
    for (auto& f : findings) {
        f.kind = in.enumBelow<FindingKind>(kFindingKinds);
        f.value = in.f();
        f.steps.resize(in.count());
        for (auto& step : f.steps) step = in.s();
        f.busbwBytesPerSec = in.f();
        f.fabricBusbwBytesPerSec = in.f();
        f.communicatorSize = static_cast<std::uint32_t>(in.u());
        f.text = in.text();
    }
    u.gaps.resize(in.count());
    for (auto& g : u.gaps) {
        g.kind = in.enumBelow<GapKind>(kGapKinds);
        g.what = in.text();
        g.fix = in.text();
    }
    u.otherShare = in.f();
    u.topOther.resize(in.count());
    for (auto& n : u.topOther) {
        n.name = in.text();
        n.ns = in.s();
        n.count = in.u();
    }
}

void writeClock(StoredOut& out, const ClockEstimate& c) {
    out.s(c.referenceRankIndex);
    out.u(c.ranks.size());
    for (const auto& r : c.ranks) {
        out.u(r.rankIndex);
        out.b(r.known);
        out.s(r.offsetNs);
        out.f(r.residualNs);
        out.u(r.calls);
        out.text(r.reason);
    }
    out.u(c.callsUsed);
    out.u(c.callsDropped);
}

void readClock(StoredIn& in, const TraceShape& shape, ClockEstimate& c) {
    c.referenceRankIndex = readRankOrNone(in, shape);
    c.ranks.resize(in.count());
    for (auto& r : c.ranks) {
        r.rankIndex = static_cast<std::uint32_t>(in.below(shape.ranks));
        r.known = in.b();
        r.offsetNs = in.s();
        r.residualNs = in.f();
        r.calls = in.u();
        r.reason = in.text();
    }
    c.callsUsed = in.u();
    c.callsDropped = in.u();
}
}  // namespace

void writeSummarySection(StoredOut& out, const RunAnalysis& a, const ClockEstimate& clock) {
    out.texts(a.notes);
    out.texts(a.segmentation.notes);
    writeMatchingTables(out, a.matching);
    writeBreakdownTables(out, a.breakdown);
    writeRunSummary(out, a.summary);
    writeFindings(out, a.findings, a.understanding);
    writeClock(out, clock);
}

void readSummarySection(StoredIn& in, const TraceShape& shape, RunAnalysis& a, ClockEstimate& clock) {
    a.notes = in.texts();
    a.segmentation.notes = in.texts();
    readMatchingTables(in, shape, a.matching);
    readBreakdownTables(in, shape, a.breakdown);
    readRunSummary(in, shape, a.summary);
    readFindings(in, a.findings, a.understanding);
    readClock(in, shape, clock);
}

}  // namespace tpscope::core::stored
