#include "core/analysis/exposed_comm.h"

#include <algorithm>

namespace tpscope::core::analysis {

std::vector<TimeInterval> unionOf(std::vector<TimeInterval> intervals) {
    const auto byStart = [](const TimeInterval& x, const TimeInterval& y) { return x.startNs < y.startNs; };
    if (!std::is_sorted(intervals.begin(), intervals.end(), byStart)) {
        std::sort(intervals.begin(), intervals.end(), byStart);
    }
    unionInPlace(intervals);
    return intervals;
}

std::vector<TimeInterval> subtract(const std::vector<TimeInterval>& a, const std::vector<TimeInterval>& b) {
    std::vector<TimeInterval> out;
    std::size_t j = 0;
    for (const auto& iv : a) {
        std::int64_t cursor = iv.startNs;
        while (j < b.size() && b[j].endNs <= cursor) ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].startNs < iv.endNs) {
            if (b[k].startNs > cursor) out.push_back({cursor, b[k].startNs});
            cursor = std::max(cursor, b[k].endNs);
            ++k;
        }
        if (cursor < iv.endNs) out.push_back({cursor, iv.endNs});
    }
    return out;
}

namespace {

struct CommAndCompute {
    std::vector<TimeInterval> comm;     // union of collective kernels
    std::vector<TimeInterval> compute;  // union of compute kernels
};

// Each stream is sorted by start, so its unions grow by appending (no copy of every kernel, no sort:
// at 100 M events that copy and sort were most of the timeline's preparation); the streams' unions
// are then merged. A rank rarely has more than a few streams.
CommAndCompute unionsOf(const core::Rank& rank) {
    CommAndCompute all;
    for (const auto& stream : rank.streams) {
        CommAndCompute one;
        const auto& ev = stream.events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            const auto kind = ev.kind(i);
            if (kind == core::EventKind::Collective) {
                appendToUnion(one.comm, {ev.startNs(i), ev.endNs(i)});
            } else if (kind != core::EventKind::Memcpy && kind != core::EventKind::Memset) {
                appendToUnion(one.compute, {ev.startNs(i), ev.endNs(i)});
            }
        }
        all.comm = all.comm.empty() ? std::move(one.comm) : mergeUnions(all.comm, one.comm);
        all.compute = all.compute.empty() ? std::move(one.compute) : mergeUnions(all.compute, one.compute);
    }
    return all;
}

}  // namespace

std::vector<TimeInterval> exposedCommIntervals(const core::Rank& rank) {
    const CommAndCompute u = unionsOf(rank);
    return subtract(u.comm, u.compute);
}

CommSummary summarizeComm(const core::Rank& rank) {
    const CommAndCompute u = unionsOf(rank);
    return {static_cast<double>(totalLength(u.comm)), static_cast<double>(totalLength(subtract(u.comm, u.compute)))};
}

CommSummary summarizeComm(const core::Trace& trace) {
    CommSummary total;
    for (const auto& r : trace.ranks) {
        const CommSummary s = summarizeComm(r);
        total.commNs += s.commNs;
        total.exposedNs += s.exposedNs;
    }
    return total;
}

}  // namespace tpscope::core::analysis
