// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/collective_matching.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/util/parallel_for.h"

namespace tpscope::core::analysis {

namespace {

// 16 bytes: the end and the payload (op, bytes, group size) are read from the trace's columns when
// a call is finished, not copied per kernel. At 100 M events there are ~20 M collective kernels,
// and these lists are held together with the whole result: 32 bytes each made them 0.6 GB.
struct KernelRef {
    std::int64_t startNs;
    std::uint32_t streamIndex;
    std::uint32_t eventIndex;
};

const EventColumns& eventsOf(const Trace& trace, std::uint32_t rankIndex, const KernelRef& k) {
    return trace.ranks[rankIndex].streams[k.streamIndex].events;
}

// The collective payload of a kernel, or nullptr when it has none.
const CollectivePayload* collectiveOf(const Trace& trace, PayloadId id) {
    const Payload& p = trace.payload(id);
    return p.kind == PayloadKind::Collective ? &p.collective : nullptr;
}

struct Channel {
    std::vector<std::vector<KernelRef>> perRank;  // per rank index, sorted by start
    std::uint32_t groupSize = 0;                  // largest group size a payload states
};
// keyed by communicator name id (0: unnamed)
using Channels = std::map<std::uint32_t, Channel>;

// One rank's collective kernels per channel, each list sorted by start.
struct RankKernels {
    std::map<std::uint32_t, std::vector<KernelRef>> lists;
    std::map<std::uint32_t, std::uint32_t> groupSize;  // largest a payload of this rank states
    std::size_t unmatched = 0;                         // kernels whose rank or stream index a participant cannot hold
};

RankKernels gatherRank(const Trace& trace, const Rank& rank, std::size_t rankIndex) {
    RankKernels out;
    std::uint32_t lastChannel = 0;
    std::vector<KernelRef>* last = nullptr;
    for (std::size_t s = 0; s < rank.streams.size(); ++s) {
        const auto& ev = rank.streams[s].events;
        const auto kinds = ev.kinds();
        if (rankIndex > kMaxParticipantIndex || s > kMaxParticipantIndex) {
            out.unmatched += static_cast<std::size_t>(
                std::count(kinds.begin(), kinds.end(), static_cast<std::uint8_t>(EventKind::Collective)));
            continue;
        }
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (kinds[i] != static_cast<std::uint8_t>(EventKind::Collective)) continue;
            const PayloadId id = ev.payload(i);
            const CollectivePayload* c = collectiveOf(trace, id);
            const std::uint32_t channel = c != nullptr ? c->communicator.value : 0;
            if (last == nullptr || channel != lastChannel) {
                last = &out.lists[channel];
                lastChannel = channel;
                out.groupSize.try_emplace(channel, 0);
            }
            if (c != nullptr) {
                auto& g = out.groupSize[channel];
                g = std::max(g, c->groupSize);
            }
            last->push_back({ev.startNs(i), static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(i)});
        }
    }
    auto byStart = [](const KernelRef& a, const KernelRef& b) { return a.startNs < b.startNs; };
    for (auto& [channel, list] : out.lists) {
        // One stream per channel (the usual case) is already in order: skip the sort's buffer.
        if (!std::is_sorted(list.begin(), list.end(), byStart)) std::stable_sort(list.begin(), list.end(), byStart);
    }
    return out;
}

// Ranks are gathered in parallel, then their lists are moved into the channels in rank order.
Channels gatherChannels(const Trace& trace, unsigned threads, std::size_t& unmatched) {
    const std::size_t rankCount = trace.ranks.size();
    std::vector<RankKernels> perRank(rankCount);
    parallelFor(rankCount, threads, [&](std::size_t r) { perRank[r] = gatherRank(trace, trace.ranks[r], r); });
    Channels channels;
    for (std::size_t r = 0; r < rankCount; ++r) {
        unmatched += perRank[r].unmatched;
        for (auto& [channel, list] : perRank[r].lists) {
            auto& ch = channels[channel];
            if (ch.perRank.empty()) ch.perRank.resize(rankCount);
            ch.perRank[r] = std::move(list);
            ch.groupSize = std::max(ch.groupSize, perRank[r].groupSize[channel]);
        }
        perRank[r] = {};
    }
    return channels;
}

// Where a kernel start falls in a rank's layer windows.
void labelLayer(const RankSegmentation& seg, std::int64_t t, CollectiveCall& call) {
    auto it = std::upper_bound(seg.layers.begin(), seg.layers.end(), t,
                               [](std::int64_t v, const LayerWindow& l) { return v < l.startNs; });
    if (it == seg.layers.begin()) return;
    --it;
    if (t < it->endNs) {
        call.step = it->step;
        call.layer = it->layer;
    }
}

struct Member {
    std::uint32_t rankIndex;
    const KernelRef* kernel;
};

// Fills timing, waits and the last arrival of one call from its members.
void finishCall(const Trace& trace, const std::vector<Member>& members, std::uint32_t expected, std::uint32_t channel,
                CollectiveMatching& out, std::vector<std::int64_t>& endsScratch) {
    CollectiveCall call;
    call.firstParticipant = static_cast<std::uint32_t>(out.participants.size());
    call.participantCount = static_cast<std::uint32_t>(members.size());
    call.expectedParticipants = expected;
    call.communicator = NameId{channel};
    call.firstStartNs = std::numeric_limits<std::int64_t>::max();
    call.lastStartNs = std::numeric_limits<std::int64_t>::min();
    endsScratch.clear();
    for (const auto& m : members) {
        call.firstStartNs = std::min(call.firstStartNs, m.kernel->startNs);
        if (m.kernel->startNs > call.lastStartNs) {
            call.lastStartNs = m.kernel->startNs;
            call.lastRankIndex = m.rankIndex;
        }
        const EventColumns& ev = eventsOf(trace, m.rankIndex, *m.kernel);
        endsScratch.push_back(ev.endNs(m.kernel->eventIndex));
        if (const CollectivePayload* c = collectiveOf(trace, ev.payload(m.kernel->eventIndex))) {
            if (call.op == CollectiveOp::Unknown) call.op = c->op;
            call.bytes = std::max(call.bytes, c->bytes);
            call.groupSize = std::max(call.groupSize, c->groupSize);
        }
    }
    call.groupSize = std::max(call.groupSize, call.participantCount);
    std::sort(endsScratch.begin(), endsScratch.end());
    const std::size_t n = endsScratch.size();
    // Median of an even count: the mean of the two middle values (rounded down).
    call.medianEndNs =
        n % 2 == 1 ? endsScratch[n / 2] : endsScratch[n / 2 - 1] + (endsScratch[n / 2] - endsScratch[n / 2 - 1]) / 2;
    call.transferNs = std::max<std::int64_t>(0, call.medianEndNs - call.lastStartNs);
    for (const auto& m : members) {
        const std::int64_t dur = eventsOf(trace, m.rankIndex, *m.kernel).durNs(m.kernel->eventIndex);
        const std::int64_t wait = std::clamp<std::int64_t>(call.lastStartNs - m.kernel->startNs, 0, dur);
        // gatherRank kept only kernels whose indices fit (kMaxParticipantIndex).
        out.participants.push_back({static_cast<std::uint16_t>(m.rankIndex),
                                    static_cast<std::uint16_t>(m.kernel->streamIndex), m.kernel->eventIndex, wait});
        auto& stats = out.ranks[m.rankIndex];
        ++stats.kernels;
        stats.waitNs += wait;
        stats.kernelNs += dur;
        if (!call.complete()) ++stats.extraKernels;
    }
    if (call.complete() && members.size() >= 2) ++out.ranks[call.lastRankIndex].lastArrivals;
    if (!call.complete()) ++out.incompleteCalls;
    out.calls.push_back(call);
}

void matchChannel(const Trace& trace, std::uint32_t channel, const std::vector<std::vector<KernelRef>>& perRank,
                  const MatchingOptions& options, CollectiveMatching& out) {
    const std::size_t rankCount = perRank.size();
    std::uint32_t expected = 0;
    for (const auto& list : perRank) expected += list.empty() ? 0 : 1;
    std::vector<std::size_t> head(rankCount, 0);
    std::vector<std::uint32_t> set;
    std::vector<std::uint32_t> stale;
    std::vector<Member> members;
    std::vector<std::int64_t> ends;
    while (true) {
        set.clear();
        for (std::uint32_t r = 0; r < rankCount; ++r) {
            if (head[r] < perRank[r].size()) set.push_back(r);
        }
        if (set.empty()) break;
        // Narrow to the ranks whose head can be one call: drop heads that ended before the latest
        // head started, and repeat among those (they ran ahead and may share an earlier call).
        while (options.toleranceNs >= 0 && set.size() > 1) {
            std::int64_t maxStart = std::numeric_limits<std::int64_t>::min();
            for (const auto r : set) maxStart = std::max(maxStart, perRank[r][head[r]].startNs);
            stale.clear();
            for (const auto r : set) {
                const KernelRef& k = perRank[r][head[r]];
                if (eventsOf(trace, r, k).endNs(k.eventIndex) + options.toleranceNs < maxStart) stale.push_back(r);
            }
            if (stale.empty()) break;
            set.swap(stale);
        }
        members.clear();
        for (const auto r : set) members.push_back({r, &perRank[r][head[r]++]});
        finishCall(trace, members, expected, channel, out, ends);
    }
}

}  // namespace

CollectiveMatching matchCollectives(const Trace& trace, const Segmentation& segmentation,
                                    const MatchingOptions& options, unsigned threads) {
    CollectiveMatching out;
    out.ranks.resize(trace.ranks.size());
    for (std::uint32_t r = 0; r < out.ranks.size(); ++r) out.ranks[r].rankIndex = r;
    const Channels channels = gatherChannels(trace, threads, out.unmatchedKernels);
    // Every kernel joins exactly one call, and a channel has at least as many calls as its busiest
    // rank has kernels (exactly as many when every call is complete): reserve, not double.
    std::size_t kernels = 0;
    std::size_t calls = 0;
    for (const auto& [channel, ch] : channels) {
        std::size_t most = 0;
        for (const auto& list : ch.perRank) {
            kernels += list.size();
            most = std::max(most, list.size());
        }
        calls += most;
    }
    out.participants.reserve(kernels);
    out.calls.reserve(calls);
    for (const auto& [channel, ch] : channels) {
        matchChannel(trace, channel, ch.perRank, options, out);
        const auto present = static_cast<std::uint32_t>(
            std::count_if(ch.perRank.begin(), ch.perRank.end(), [](const auto& l) { return !l.empty(); }));
        if (ch.groupSize > present) {
            const auto name = trace.name(NameId{channel});
            out.notes.push_back("communicator " +
                                (name.empty() ? std::string("(unnamed)") : "'" + std::string(name) + "'") + " has " +
                                std::to_string(ch.groupSize) + " ranks but the trace holds " + std::to_string(present) +
                                ": wait is measured among the ranks present");
        }
    }
    for (auto& call : out.calls) {
        const auto& first = out.participants[call.firstParticipant];
        if (first.rankIndex < segmentation.ranks.size()) {
            labelLayer(segmentation.ranks[first.rankIndex], participantStartNs(trace, first), call);
        }
    }
    auto byLastArrival = [](const CollectiveCall& a, const CollectiveCall& b) { return a.lastStartNs < b.lastStartNs; };
    // One channel's calls usually come out in arrival order already: skip the sort's buffer then.
    if (!std::is_sorted(out.calls.begin(), out.calls.end(), byLastArrival)) {
        std::stable_sort(out.calls.begin(), out.calls.end(), byLastArrival);
    }
    if (out.incompleteCalls > 0) {
        std::string who;
        for (const auto& r : out.ranks) {
            if (r.extraKernels == 0) continue;
            if (!who.empty()) who += ", ";
            who += "rank " + std::to_string(trace.ranks[r.rankIndex].id.value) + ": " + std::to_string(r.extraKernels);
        }
        out.notes.push_back(std::to_string(out.incompleteCalls) +
                            " collective call(s) were not joined by every rank of their channel (" + who +
                            " kernel(s)); their wait is measured among the ranks present");
    }
    if (out.unmatchedKernels > 0) {
        out.notes.push_back(std::to_string(out.unmatchedKernels) +
                            " collective kernel(s) on a rank or stream index above " +
                            std::to_string(kMaxParticipantIndex) +
                            " were left out of the matching (a call participant holds 16-bit indices): they count "
                            "as communication, their exposed part as wait");
    }
    if (trace.ranks.size() == 1 && !out.calls.empty()) {
        out.notes.push_back(
            "single rank: collective time cannot be split into sync wait and transfer; all of it "
            "counts as transfer");
    }
    return out;
}

double busBandwidthFactor(CollectiveOp op, std::uint32_t ranks) {
    if (ranks == 0) return std::numeric_limits<double>::quiet_NaN();
    const double n = ranks;
    switch (op) {
        case CollectiveOp::AllReduce:
            return 2.0 * (n - 1.0) / n;
        case CollectiveOp::AllGather:
        case CollectiveOp::ReduceScatter:
        case CollectiveOp::AllToAll:
            return (n - 1.0) / n;
        case CollectiveOp::Broadcast:
        case CollectiveOp::Reduce:
        case CollectiveOp::SendRecv:
            return 1.0;
        case CollectiveOp::Unknown:
            break;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double algBandwidth(const CollectiveCall& call) {
    if (call.bytes == 0 || call.transferNs <= 0) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(call.bytes) / (static_cast<double>(call.transferNs) * 1e-9);
}

double busBandwidth(const CollectiveCall& call) {
    return algBandwidth(call) * busBandwidthFactor(call.op, std::max(call.groupSize, call.participantCount));
}

std::int64_t participantStartNs(const Trace& trace, const CallParticipant& p) {
    return trace.ranks[p.rankIndex].streams[p.streamIndex].events.startNs(p.eventIndex);
}

std::int64_t participantEndNs(const Trace& trace, const CallParticipant& p) {
    return trace.ranks[p.rankIndex].streams[p.streamIndex].events.endNs(p.eventIndex);
}

}  // namespace tpscope::core::analysis
