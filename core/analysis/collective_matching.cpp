// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/collective_matching.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

#include "core/trace/event_scan.h"
#include "core/util/parallel_for.h"

namespace tpscope::core::analysis {

namespace {

using KernelRef = CollectiveKernelRef;

const EventColumns& eventsOf(const Trace& trace, std::uint32_t rankIndex, const KernelRef& k) {
    return trace.ranks[rankIndex].streams[k.streamIndex].events;
}

// The collective payload of a kernel, or nullptr when it has none.
const CollectivePayload* collectiveOf(const Trace& trace, PayloadId id) {
    const Payload& p = trace.payload(id);
    return p.kind == PayloadKind::Collective ? &p.collective : nullptr;
}

// One rank's collective kernels per channel, each list sorted by start.
struct RankKernels {
    std::map<std::uint32_t, std::vector<KernelRef>> lists;
    std::map<std::uint32_t, std::uint32_t> groupSize;  // largest a payload of this rank states
    std::size_t unmatched = 0;                         // kernels whose rank or stream index a participant cannot hold
};

// A stream's collective kernels, counted from its kinds decoded a block at a time (a branch-free sum);
// a stream without any (a launch thread) is answered by EventKinds::next at once.
std::size_t countCollectives(const EventColumns& ev) {
    constexpr auto kCollective = static_cast<std::uint8_t>(EventKind::Collective);
    const std::size_t first = ev.kinds().next(0, 1U << kCollective);
    std::array<std::uint8_t, EventColumns::kBlock> kinds{};
    std::size_t n = 0;
    for (std::size_t b = first / EventColumns::kBlock; b * EventColumns::kBlock < ev.size(); ++b) {
        const std::size_t count = ev.decodeKinds(b, kinds.data());
        for (std::size_t j = 0; j < count; ++j) n += kinds[j] == kCollective ? 1 : 0;
    }
    return n;
}

RankKernels gatherRank(const Trace& trace, const Rank& rank, std::size_t rankIndex) {
    RankKernels out;
    // The rank's collective kernels, counted first (one byte a kernel) so that a channel's list is
    // reserved, not grown by doubling: with one channel (the usual case) at exactly its size.
    std::size_t collectives = 0;
    for (std::size_t s = 0; s < rank.streams.size(); ++s) {
        const std::size_t n = countCollectives(rank.streams[s].events);
        if (rankIndex > kMaxParticipantIndex || s > kMaxParticipantIndex) {
            out.unmatched += n;
        } else {
            collectives += n;
        }
    }
    std::size_t gathered = 0;
    std::vector<KernelRef>* last = nullptr;
    std::uint32_t lastChannel = 0;
    std::uint32_t* group = nullptr;
    // Kernels of one payload share its channel and group size: looked up once per run of them.
    PayloadId lastPayload = kNoPayload;
    for (std::size_t s = 0; s < rank.streams.size() && rankIndex <= kMaxParticipantIndex; ++s) {
        if (s > kMaxParticipantIndex) break;
        const auto& ev = rank.streams[s].events;
        constexpr auto kCollective = static_cast<std::uint8_t>(EventKind::Collective);
        EventScan kinds(ev, EventScan::kKinds);  // from the first collective: a launch thread is skipped whole
        for (std::size_t i = ev.kinds().next(0, 1U << kCollective); i < ev.size(); ++i) {
            if (kinds.kind(i) != kCollective) continue;
            const PayloadId id = ev.payload(i);
            if (last == nullptr || id != lastPayload) {
                const CollectivePayload* c = collectiveOf(trace, id);
                const std::uint32_t channel = c != nullptr ? c->communicator.value : 0;
                if (last == nullptr || channel != lastChannel) {
                    last = &out.lists[channel];
                    if (last->capacity() == 0) last->reserve(collectives - gathered);
                    lastChannel = channel;
                    group = &out.groupSize.try_emplace(channel, 0).first->second;
                }
                if (c != nullptr) *group = std::max(*group, c->groupSize);
                lastPayload = id;
            }
            last->push_back({ev.startNs(i), static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(i)});
            ++gathered;
        }
    }
    auto byStart = [](const KernelRef& a, const KernelRef& b) { return a.startNs < b.startNs; };
    for (auto& [channel, list] : out.lists) {
        // A list reserved for more than its channel's kernels (several channels) gives the rest back.
        if (list.capacity() > list.size() + list.size() / 8) list.shrink_to_fit();
        // One stream per channel (the usual case) is already in order: skip the sort's buffer.
        if (!std::is_sorted(list.begin(), list.end(), byStart)) std::stable_sort(list.begin(), list.end(), byStart);
    }
    return out;
}

// Where a kernel start falls in a rank's layer windows. `from` is where this rank's previous search
// ended: a channel's calls come in start order on each rank, so the window is at or just after it,
// found by galloping forward from there (the same window as a binary search over all of them).
void labelLayer(const RankSegmentation& seg, std::int64_t t, CollectiveCall& call, std::size_t& from) {
    const auto& layers = seg.layers;
    const std::size_t n = layers.size();
    std::size_t lo = 0;
    std::size_t hi = n;
    if (from > 0 && from <= n && layers[from - 1].startNs <= t) {
        // Every window before `lo` starts at or before t; double the step until one starts after it.
        lo = from;
        hi = lo;
        for (std::size_t step = 1; hi < n && layers[hi].startNs <= t; step *= 2) {
            lo = hi + 1;
            hi = lo + step;
        }
        hi = std::min(hi, n);
    }
    const auto it = std::upper_bound(layers.begin() + static_cast<std::ptrdiff_t>(lo),
                                     layers.begin() + static_cast<std::ptrdiff_t>(hi), t,
                                     [](std::int64_t v, const LayerWindow& l) { return v < l.startNs; });
    from = static_cast<std::size_t>(it - layers.begin());
    if (it == layers.begin()) return;
    const LayerWindow& l = *(it - 1);
    if (t < l.endNs) {
        call.step = l.step;
        call.layer = l.layer;
    }
}

struct Member {
    std::uint32_t rankIndex;
    const KernelRef* kernel;
    const EventColumns* events;  // the kernel's stream
    std::int64_t endNs;          // the kernel's end, read once for the stale test and the median
};

// One piece of a channel's matching: from `head` (each rank's next kernel) until the state is
// `stopHeads` (empty: to the end of the channel). It stops before a call that would take a rank past
// its stop head, so it writes only its own participants, [S_j, S_j+1) of the channel's in kernel
// counts; what it matched goes to its own slots, joined in piece order when every piece is done.
struct Piece {
    std::size_t channel = 0;  // into CollectiveKernels::channels
    std::vector<std::size_t> head;
    std::vector<std::size_t> stopHeads;
    std::size_t firstParticipant = 0;  // the next one it writes, into CollectiveMatching::participants
    std::vector<CollectiveCall>* calls = nullptr;
    std::vector<CollectiveCall> ownCalls;  // `calls` for every piece but the first
    std::vector<RankCollectiveStats> ranks;
    std::size_t incompleteCalls = 0;
    bool reachedStop = false;  // ended in exactly stopHeads: the next piece's start was right
    bool longWait = false;     // wrote a participant whose wait is kLongWait ns or more
};

// The scratch of one piece's matching.
struct PieceScratch {
    std::vector<std::size_t> labelFrom;  // per rank: where its last layer search ended
    std::vector<std::int64_t> ends;
    // Per rank: its head kernel's end once read (headEnd), and the head it was read for (headEndOf).
    std::vector<std::int64_t> headEnd;
    std::vector<std::size_t> headEndOf;
};

// Fills timing, waits and the last arrival of one call from its members, and writes its participants
// from `participants` on.
void finishCall(const Trace& trace, const Segmentation& segmentation, const std::vector<Member>& members,
                std::uint32_t expected, std::uint32_t channel, Piece& piece, CallParticipant* participants,
                PieceScratch& scratch) {
    CollectiveCall call;
    call.firstParticipant = static_cast<std::uint32_t>(piece.firstParticipant);
    call.participantCount = static_cast<std::uint32_t>(members.size());
    call.expectedParticipants = expected;
    call.communicator = NameId{channel};
    call.firstStartNs = std::numeric_limits<std::int64_t>::max();
    call.lastStartNs = std::numeric_limits<std::int64_t>::min();
    auto& ends = scratch.ends;
    ends.clear();
    for (const auto& m : members) {
        call.firstStartNs = std::min(call.firstStartNs, m.kernel->startNs);
        if (m.kernel->startNs > call.lastStartNs) {
            call.lastStartNs = m.kernel->startNs;
            call.lastRankIndex = m.rankIndex;
        }
        ends.push_back(m.endNs);
        if (const CollectivePayload* c = collectiveOf(trace, m.events->payload(m.kernel->eventIndex))) {
            if (call.op == CollectiveOp::Unknown) call.op = c->op;
            call.bytes = std::max(call.bytes, c->bytes);
            call.groupSize = std::max(call.groupSize, c->groupSize);
        }
    }
    call.groupSize = std::max(call.groupSize, call.participantCount);
    std::sort(ends.begin(), ends.end());
    const std::size_t n = ends.size();
    // Median of an even count: the mean of the two middle values (rounded down).
    call.medianEndNs = n % 2 == 1 ? ends[n / 2] : ends[n / 2 - 1] + (ends[n / 2] - ends[n / 2 - 1]) / 2;
    for (std::size_t i = 0; i < members.size(); ++i) {
        const auto& m = members[i];
        const std::int64_t dur = m.events->durNs(m.kernel->eventIndex);
        const std::int64_t wait = std::clamp<std::int64_t>(call.lastStartNs - m.kernel->startNs, 0, dur);
        // gatherRank kept only kernels whose indices fit (kMaxParticipantIndex). A wait of
        // kLongWait ns or more goes to the side table once every piece is done (longWaitsOf).
        const bool narrow = wait < kLongWait;
        piece.longWait = piece.longWait || !narrow;
        participants[i] = {static_cast<std::uint16_t>(m.rankIndex), static_cast<std::uint16_t>(m.kernel->streamIndex),
                           m.kernel->eventIndex, narrow ? static_cast<std::int32_t>(wait) : kLongWait};
        auto& stats = piece.ranks[m.rankIndex];
        ++stats.kernels;
        stats.waitNs += wait;
        stats.kernelNs += dur;
        if (!call.complete()) ++stats.extraKernels;
    }
    if (call.complete() && members.size() >= 2) ++piece.ranks[call.lastRankIndex].lastArrivals;
    if (!call.complete()) ++piece.incompleteCalls;
    // The step and layer of the first participant's start.
    const std::uint32_t first = members.front().rankIndex;
    if (first < segmentation.ranks.size()) {
        labelLayer(segmentation.ranks[first], members.front().kernel->startNs, call, scratch.labelFrom[first]);
    }
    piece.calls->push_back(call);
    piece.firstParticipant += members.size();
}

void matchPiece(const Trace& trace, const CollectiveChannel& ch, const Segmentation& segmentation,
                const MatchingOptions& options, std::uint32_t expected, Piece& piece, CallParticipant* participants) {
    const auto& perRank = ch.perRank;
    const std::size_t rankCount = perRank.size();
    auto& head = piece.head;
    const auto& stop = piece.stopHeads;
    const bool stops = !stop.empty();
    std::size_t behind = 0;  // ranks whose head is still before the stop state
    for (std::size_t r = 0; stops && r < rankCount; ++r) {
        if (head[r] > stop[r]) return;  // past it already (pieceStarts never plans that)
        behind += head[r] < stop[r] ? 1 : 0;
    }
    PieceScratch scratch;
    scratch.labelFrom.assign(segmentation.ranks.size(), 0);
    scratch.headEnd.assign(rankCount, 0);
    scratch.headEndOf.assign(rankCount, std::numeric_limits<std::size_t>::max());
    // Rank r's head kernel's stream and end, read from the columns once a head.
    const auto headEvents = [&](std::uint32_t r) -> const EventColumns& {
        return eventsOf(trace, r, perRank[r][head[r]]);
    };
    const auto headEnd = [&](std::uint32_t r) {
        if (scratch.headEndOf[r] != head[r]) {
            scratch.headEnd[r] = headEvents(r).endNs(perRank[r][head[r]].eventIndex);
            scratch.headEndOf[r] = head[r];
        }
        return scratch.headEnd[r];
    };
    std::vector<std::uint32_t> set;
    std::vector<std::uint32_t> stale;
    std::vector<Member> members;
    set.reserve(rankCount);
    stale.reserve(rankCount);
    members.reserve(rankCount);
    while (true) {
        if (stops && behind == 0) {
            piece.reachedStop = true;
            return;
        }
        set.clear();
        for (std::uint32_t r = 0; r < rankCount; ++r) {
            if (head[r] < perRank[r].size()) set.push_back(r);
        }
        if (set.empty()) return;
        // Narrow to the ranks whose head can be one call: drop heads that ended before the latest
        // head started, and repeat among those (they ran ahead and may share an earlier call).
        while (options.toleranceNs >= 0 && set.size() > 1) {
            std::int64_t maxStart = std::numeric_limits<std::int64_t>::min();
            for (const auto r : set) maxStart = std::max(maxStart, perRank[r][head[r]].startNs);
            stale.clear();
            for (const auto r : set) {
                if (headEnd(r) + options.toleranceNs < maxStart) stale.push_back(r);
            }
            if (stale.empty()) break;
            set.swap(stale);
        }
        // A call that takes a rank past its stop head: the stop state is never reached (the piece
        // after starts from a wrong guess), and this call is the next piece's to write.
        if (stops && std::any_of(set.begin(), set.end(), [&](std::uint32_t r) { return head[r] >= stop[r]; })) return;
        members.clear();
        for (const auto r : set) {
            members.push_back({r, &perRank[r][head[r]], &headEvents(r), headEnd(r)});
            ++head[r];
            if (stops && head[r] == stop[r]) --behind;
        }
        finishCall(trace, segmentation, members, expected, ch.communicator, piece,
                   participants + piece.firstParticipant, scratch);
    }
}

// The states a channel's pieces start from, the first all zeros: for piece j, the kernel of the
// busiest rank a j-th of the way through its list, and on every other rank the kernel nearest to it in
// start time (the guess that they are one call).
std::vector<std::vector<std::size_t>> pieceStarts(const CollectiveChannel& ch, std::size_t pieces) {
    const auto& perRank = ch.perRank;
    std::size_t busiest = 0;
    for (std::size_t r = 1; r < perRank.size(); ++r) {
        if (perRank[r].size() > perRank[busiest].size()) busiest = r;
    }
    std::vector<std::vector<std::size_t>> starts(pieces, std::vector<std::size_t>(perRank.size(), 0));
    for (std::size_t j = 1; j < pieces; ++j) {
        const std::int64_t t = perRank[busiest][perRank[busiest].size() * j / pieces].startNs;
        for (std::size_t r = 0; r < perRank.size(); ++r) {
            const auto& list = perRank[r];
            if (list.empty()) continue;
            const auto it = std::lower_bound(list.begin(), list.end(), t,
                                             [](const KernelRef& k, std::int64_t v) { return k.startNs < v; });
            auto i = static_cast<std::size_t>(it - list.begin());
            // Start at or after t (none past the end), or before it: the nearer one (ties: the later).
            if (i == list.size() || (i > 0 && t - list[i - 1].startNs < list[i].startNs - t)) --i;
            // Never before the previous piece's start, so the pieces' participants never overlap.
            starts[j][r] = std::max(i, starts[j - 1][r]);
        }
    }
    return starts;
}

std::size_t kernelCount(const CollectiveChannel& ch) {
    std::size_t n = 0;
    for (const auto& list : ch.perRank) n += list.size();
    return n;
}

std::size_t busiestCount(const CollectiveChannel& ch) {
    std::size_t most = 0;
    for (const auto& list : ch.perRank) most = std::max(most, list.size());
    return most;
}

// Adds a kept piece's counts to the result.
void addPiece(const Piece& piece, CollectiveMatching& out) {
    for (std::size_t r = 0; r < out.ranks.size(); ++r) {
        auto& to = out.ranks[r];
        const auto& from = piece.ranks[r];
        to.kernels += from.kernels;
        to.lastArrivals += from.lastArrivals;
        to.extraKernels += from.extraKernels;
        to.waitNs += from.waitNs;
        to.kernelNs += from.kernelNs;
    }
    out.incompleteCalls += piece.incompleteCalls;
    if (piece.calls != &out.calls) out.calls.insert(out.calls.end(), piece.calls->begin(), piece.calls->end());
}

// The pieces of every channel, in channel order: up to `threads` per channel of at least
// minCallsPerPiece calls each (by the busiest rank).
std::vector<Piece> planPieces(const CollectiveKernels& kernels, std::size_t rankCount, unsigned threads,
                              std::size_t minCallsPerPiece) {
    std::vector<Piece> pieces;
    std::size_t firstParticipant = 0;
    for (std::size_t c = 0; c < kernels.channels.size(); ++c) {
        const auto& ch = kernels.channels[c];
        const std::size_t most = busiestCount(ch);
        const std::size_t count =
            std::max<std::size_t>(1, std::min<std::size_t>(resolveThreadCount(threads, most),
                                                           most / std::max<std::size_t>(1, minCallsPerPiece)));
        auto starts = pieceStarts(ch, count);
        for (std::size_t j = 0; j < count; ++j) {
            Piece p;
            p.channel = c;
            p.firstParticipant = firstParticipant;
            for (const auto h : starts[j]) p.firstParticipant += h;
            if (j + 1 < count) p.stopHeads = starts[j + 1];
            p.head = std::move(starts[j]);
            p.ranks.resize(rankCount);
            pieces.push_back(std::move(p));
        }
        firstParticipant += kernelCount(ch);
    }
    return pieces;
}

// The waits the participants could not hold, computed again from their calls as finishCall did.
std::vector<LongWait> longWaitsOf(const Trace& trace, const CollectiveMatching& m) {
    std::vector<LongWait> out;
    for (const auto& call : m.calls) {
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = m.participants[call.firstParticipant + i];
            if (p.narrowWaitNs != kLongWait) continue;
            const auto& ev = trace.ranks[p.rankIndex].streams[p.streamIndex].events;
            const std::int64_t wait =
                std::clamp<std::int64_t>(call.lastStartNs - ev.startNs(p.eventIndex), 0, ev.durNs(p.eventIndex));
            out.push_back({call.firstParticipant + i, wait});
        }
    }
    std::sort(out.begin(), out.end(),
              [](const LongWait& a, const LongWait& b) { return a.participant < b.participant; });
    return out;
}

}  // namespace

std::int64_t longWaitNs(std::span<const LongWait> longWaits, std::size_t i) {
    const auto it = std::lower_bound(longWaits.begin(), longWaits.end(), i,
                                     [](const LongWait& w, std::size_t p) { return w.participant < p; });
    return it != longWaits.end() && it->participant == i ? it->waitNs : kLongWait;
}

CollectiveKernels gatherCollectiveKernels(const Trace& trace, unsigned threads) {
    // Ranks are gathered in parallel, then their lists are moved into the channels in rank order.
    const std::size_t rankCount = trace.ranks.size();
    std::vector<RankKernels> perRank(rankCount);
    parallelFor(rankCount, threads, [&](std::size_t r) { perRank[r] = gatherRank(trace, trace.ranks[r], r); });
    CollectiveKernels out;
    std::map<std::uint32_t, CollectiveChannel> channels;
    for (std::size_t r = 0; r < rankCount; ++r) {
        out.unmatchedKernels += perRank[r].unmatched;
        for (auto& [channel, list] : perRank[r].lists) {
            auto& ch = channels[channel];
            if (ch.perRank.empty()) ch.perRank.resize(rankCount);
            ch.communicator = channel;
            ch.perRank[r] = std::move(list);
            ch.groupSize = std::max(ch.groupSize, perRank[r].groupSize[channel]);
        }
        perRank[r] = {};
    }
    out.channels.reserve(channels.size());
    for (auto& [channel, ch] : channels) out.channels.push_back(std::move(ch));
    return out;
}

std::vector<CallByOrder> callsByOrder(const CollectiveKernels& kernels, std::size_t* kernelCount) {
    std::vector<CallByOrder> calls;
    // At most one call per index of a channel's busiest rank: reserved, not grown by doubling (at
    // 100 M events the doublings touched ~2.5 times the pages of the list they end in).
    std::size_t indices = 0;
    for (const auto& ch : kernels.channels) indices += busiestCount(ch);
    calls.reserve(indices);
    for (std::size_t c = 0; c < kernels.channels.size(); ++c) {
        const auto& perRank = kernels.channels[c].perRank;
        const std::size_t most = busiestCount(kernels.channels[c]);
        for (std::size_t i = 0; i < most; ++i) {
            std::size_t members = 0;
            std::int64_t last = std::numeric_limits<std::int64_t>::min();
            for (const auto& list : perRank) {
                if (i >= list.size()) continue;
                ++members;
                last = std::max(last, list[i].startNs);
            }
            if (members < 2) continue;
            calls.push_back({last, static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(i)});
            if (kernelCount != nullptr) *kernelCount += members;
        }
    }
    auto byLastStart = [](const CallByOrder& a, const CallByOrder& b) { return a.lastStartNs < b.lastStartNs; };
    // One channel's calls usually come in order already: skip the sort's buffer then.
    if (!std::is_sorted(calls.begin(), calls.end(), byLastStart)) {
        std::stable_sort(calls.begin(), calls.end(), byLastStart);
    }
    return calls;
}

CollectiveMatching matchCollectives(const Trace& trace, const Segmentation& segmentation,
                                    const MatchingOptions& options, unsigned threads) {
    return matchCollectives(trace, gatherCollectiveKernels(trace, threads), segmentation, options, threads);
}

CollectiveMatching matchCollectives(const Trace& trace, const CollectiveKernels& kernels,
                                    const Segmentation& segmentation, const MatchingOptions& options,
                                    unsigned threads) {
    MatchingSplit split;
    return matchCollectives(trace, kernels, segmentation, options, threads, split);
}

CollectiveMatching matchCollectives(const Trace& trace, const CollectiveKernels& kernels,
                                    const Segmentation& segmentation, const MatchingOptions& options, unsigned threads,
                                    MatchingSplit& split) {
    CollectiveMatching out;
    out.ranks.resize(trace.ranks.size());
    for (std::uint32_t r = 0; r < out.ranks.size(); ++r) out.ranks[r].rankIndex = r;
    out.unmatchedKernels = kernels.unmatchedKernels;
    // Every kernel joins exactly one call, and a channel has at least as many calls as its busiest
    // rank has kernels (exactly as many when every call is complete): reserve, not double.
    std::size_t kernelTotal = 0;
    std::size_t calls = 0;
    std::vector<std::uint32_t> expected;  // per channel: its ranks
    for (const auto& ch : kernels.channels) {
        kernelTotal += kernelCount(ch);
        calls += busiestCount(ch);
        expected.push_back(static_cast<std::uint32_t>(
            std::count_if(ch.perRank.begin(), ch.perRank.end(), [](const auto& l) { return !l.empty(); })));
    }
    // Every piece writes its participants in place: a piece starting from state S begins at the
    // channel's first participant plus the kernels before S (each kernel joins exactly one call).
    out.participants.resize(kernelTotal);
    out.calls.reserve(calls);
    std::vector<Piece> pieces = planPieces(kernels, out.ranks.size(), threads, split.minCallsPerPiece);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        auto& p = pieces[i];
        if (i == 0) {
            p.calls = &out.calls;
            continue;
        }
        const auto& lists = kernels.channels[p.channel].perRank;
        std::size_t most = 0;
        for (std::size_t r = 0; r < lists.size(); ++r) {
            most = std::max(most, (p.stopHeads.empty() ? lists[r].size() : p.stopHeads[r]) - p.head[r]);
        }
        p.ownCalls.reserve(most);
        p.calls = &p.ownCalls;
    }
    parallelFor(pieces.size(), threads, [&](std::size_t i) {
        auto& p = pieces[i];
        matchPiece(trace, kernels.channels[p.channel], segmentation, options, expected[p.channel], p,
                   out.participants.data());
    });
    // Each channel's first piece is kept, and every next one whose start state the kept piece before
    // ended in. A kept piece that stopped short of its stop state (the next start was a wrong guess)
    // matches on to the channel's end here, writing over what the pieces after it wrote.
    bool keep = false;
    bool longWait = false;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        auto& p = pieces[i];
        ++split.pieces;
        const bool first = i == 0 || pieces[i - 1].channel != p.channel;
        keep = first || (keep && pieces[i - 1].reachedStop);
        if (!keep) continue;
        ++split.piecesKept;
        if (!p.stopHeads.empty() && !p.reachedStop) {
            p.stopHeads.clear();
            matchPiece(trace, kernels.channels[p.channel], segmentation, options, expected[p.channel], p,
                       out.participants.data());
        }
        addPiece(p, out);
        longWait = longWait || p.longWait;
        p.ownCalls = {};
    }
    if (longWait) out.longWaits = longWaitsOf(trace, out);
    for (std::size_t c = 0; c < kernels.channels.size(); ++c) {
        const auto& ch = kernels.channels[c];
        if (ch.groupSize > expected[c]) {
            const auto name = trace.name(NameId{ch.communicator});
            out.notes.push_back("communicator " +
                                (name.empty() ? std::string("(unnamed)") : "'" + std::string(name) + "'") + " has " +
                                std::to_string(ch.groupSize) + " ranks but the trace holds " +
                                std::to_string(expected[c]) + ": wait is measured among the ranks present");
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
    if (call.bytes == 0 || call.transferNs() <= 0) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(call.bytes) / (static_cast<double>(call.transferNs()) * 1e-9);
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
