// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/whatif_replay.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <queue>

#include "core/analysis/analysis.h"
#include "core/sim/collective_model.h"
#include "core/sim/kernel_model.h"
#include "core/util/units.h"

namespace tpscope::core::sim {

namespace {

constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::min();
// About 64 bytes of replay state per event: 100 M events is several GB, the most a replay may take.
constexpr double kMaxReplayEvents = 100e6;

std::int64_t roundedNs(double ns) {
    return static_cast<std::int64_t>(std::llround(ns));
}

struct Node {
    std::uint32_t stream = 0;
    std::uint32_t event = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    EventKind kind = EventKind::Other;
    int call = -1;
    int crit = -1;  // node whose end it followed (latest end at or before its start)
    int sameStream = -1;
};

// One measured rank's kernels in start order with their dependencies.
std::vector<Node> buildNodes(const Rank& rank) {
    std::vector<Node> nodes;
    for (std::uint32_t s = 0; s < rank.streams.size(); ++s) {
        const auto& ev = rank.streams[s].events;
        for (std::uint32_t i = 0; i < ev.size(); ++i) {
            nodes.push_back({s, i, ev.startNs(i), ev.endNs(i), ev.kind(i)});
        }
    }
    std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.stream < b.stream;
    });
    std::vector<int> lastOfStream(rank.streams.size(), -1);
    using Pending = std::pair<std::int64_t, int>;  // (end, node), min-heap on end
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> running;
    int best = -1;
    for (int n = 0; n < static_cast<int>(nodes.size()); ++n) {
        auto& node = nodes[static_cast<std::size_t>(n)];
        while (!running.empty() && running.top().first <= node.startNs) {
            const int done = running.top().second;
            running.pop();
            if (best < 0 ||
                nodes[static_cast<std::size_t>(done)].endNs >= nodes[static_cast<std::size_t>(best)].endNs) {
                best = done;
            }
        }
        node.crit = best;
        node.sameStream = lastOfStream[node.stream];
        lastOfStream[node.stream] = n;
        running.emplace(node.endNs, n);
    }
    return nodes;
}

struct CallState {
    std::uint32_t expected = 0;
    std::uint32_t arrived = 0;
    std::int64_t lastArrivalNs = kUnset;
    std::int64_t endNs = kUnset;
    double transferNs = 0;
};

double modelledTransfer(const analysis::CollectiveCall& call, const Payload& payload, int groupSize,
                        std::map<int, CollectiveModel>& models, const WhatIfOptions& o, bool* modelled,
                        Status* status) {
    *modelled = false;
    const auto measured = static_cast<double>(call.transferNs());
    const bool sized = call.bytes > 0;
    const CollectiveOp op = call.op != CollectiveOp::Unknown ? call.op : payload.collective.op;
    if (!sized ||
        (op != CollectiveOp::AllReduce && op != CollectiveOp::AllGather && op != CollectiveOp::ReduceScatter)) {
        return measured;
    }
    auto it = models.find(groupSize);
    if (it == models.end()) {
        const int perNode = o.gpusPerNode > 0 ? o.gpusPerNode : (o.fabric.maxGpus > 0 ? o.fabric.maxGpus : 8);
        // A group smaller than a node sits inside one node.
        auto m = CollectiveModel::create(o.fabric, o.interFabric, groupSize, std::min(perNode, groupSize));
        if (!m) {
            *status = m.error();
            return measured;
        }
        it = models.emplace(groupSize, std::move(*m)).first;
    }
    *modelled = true;
    if (op == CollectiveOp::AllReduce) return engineAllReduce(it->second, call.bytes, o.engine).estimate.timeNs();
    return it->second.allGather(call.bytes / static_cast<std::uint64_t>(std::max(groupSize, 1))).timeNs();
}

}  // namespace

Result<TpKernelScaling> tpKernelScaling(const PlanConfig& measured, int newTp, const GpuSpec& gpu,
                                        const SimParams& params) {
    PlanConfig target = measured;
    target.tp = newTp;
    auto a = buildDecodePlan(measured);
    if (!a) return a.error();
    auto b = buildDecodePlan(target);
    if (!b) return makeError(b.error().code, b.error().message, "--tp " + std::to_string(newTp));
    auto sum = [&](const DecodePlan& plan, EventKind kind) {
        double t = 0;
        for (const auto& op : plan.ops) {
            if (op.eventKind == kind) t += kernelCost(op, gpu, plan.config.dtype, params).timeNs();
        }
        return t;
    };
    TpKernelScaling s;
    const double gemmOld = sum(*a, EventKind::Gemm), attnOld = sum(*a, EventKind::Attention);
    s.gemm = gemmOld > 0 ? sum(*b, EventKind::Gemm) / gemmOld : 1.0;
    s.attention = attnOld > 0 ? sum(*b, EventKind::Attention) / attnOld : 1.0;
    s.assumptions.push_back("GEMM kernels scaled by " + formatFixed(s.gemm, 3) + " and attention by " +
                            formatFixed(s.attention, 3) + ": their roofline times in the decode plan of " +
                            measured.model.id + " (batch " + std::to_string(measured.batch) + ", context " +
                            std::to_string(measured.contextLen) + ") on " + gpu.id + " at TP " + std::to_string(newTp) +
                            " vs TP " + std::to_string(measured.tp));
    s.assumptions.emplace_back(
        "norms, activations and other kernels keep their measured durations; launch gaps are unchanged");
    return s;
}

namespace {

// Every measured rank's kernels as dependency nodes, and the node of each (rank, stream, event).
struct MeasuredNodes {
    std::vector<std::vector<Node>> nodes;               // [rank], in start order
    std::vector<std::vector<std::vector<int>>> nodeOf;  // [rank][stream][event] -> node
};

MeasuredNodes indexNodes(const Trace& measured) {
    const std::size_t n = measured.ranks.size();
    MeasuredNodes m;
    m.nodes.resize(n);
    m.nodeOf.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
        m.nodes[r] = buildNodes(measured.ranks[r]);
        m.nodeOf[r].resize(measured.ranks[r].streams.size());
        for (std::size_t s = 0; s < m.nodeOf[r].size(); ++s) {
            m.nodeOf[r][s].assign(measured.ranks[r].streams[s].events.size(), -1);
        }
        for (int i = 0; i < static_cast<int>(m.nodes[r].size()); ++i) {
            const auto& node = m.nodes[r][static_cast<std::size_t>(i)];
            m.nodeOf[r][node.stream][node.event] = i;
        }
    }
    return m;
}

// Per matched call: how many replay ranks join it and its transfer on the new fabric; each
// participant's node learns its call. Counts the calls re-timed and kept in `out`.
Result<std::vector<CallState>> prepareCalls(const Trace& measured, const analysis::CollectiveMatching& matching,
                                            const WhatIfOptions& o, std::size_t replayRanks,
                                            const std::vector<std::uint32_t>& copies, MeasuredNodes& m,
                                            WhatIfReplay& out) {
    const bool tpChange = replayRanks != measured.ranks.size();
    const auto worldSize = static_cast<std::uint32_t>(analysis::metadataInt(measured, "world_size"));
    std::vector<CallState> calls(matching.calls.size());
    std::map<int, CollectiveModel> models;
    Status status = Ok{};
    for (std::size_t c = 0; c < matching.calls.size(); ++c) {
        const auto& call = matching.calls[c];
        const auto& first = matching.participants[call.firstParticipant];
        const Payload& payload = measured.payload(
            measured.ranks[first.rankIndex].streams[first.streamIndex].events.payload(first.eventIndex));
        std::uint32_t group = call.participantCount;
        if (payload.kind == PayloadKind::Collective) group = std::max(group, payload.collective.groupSize);
        // A single-rank trace of a custom all-reduce names no group: the job's world size does.
        if (group < 2) group = std::max(group, worldSize);
        if (tpChange) group = static_cast<std::uint32_t>(replayRanks);
        for (std::uint32_t p = 0; p < call.participantCount; ++p) {
            const auto& part = matching.participants[call.firstParticipant + p];
            calls[c].expected += copies[part.rankIndex];
            const int node = m.nodeOf[part.rankIndex][part.streamIndex][part.eventIndex];
            if (node >= 0) m.nodes[part.rankIndex][static_cast<std::size_t>(node)].call = static_cast<int>(c);
        }
        bool modelled = false;
        calls[c].transferNs = modelledTransfer(call, payload, static_cast<int>(group), models, o, &modelled, &status);
        if (!status) return status.error();
        ++(modelled ? out.collectivesRetimed : out.collectivesKept);
    }
    return calls;
}

// Start and end of every node of every replay rank ([replay rank][node]).
struct Schedule {
    std::vector<std::vector<std::int64_t>> start, end;
};

// Every unfinished rank waits at a call another waiting rank has not reached (the streams' order
// differs between ranks): end the waited-for call that arrived first in the measurement.
void endFirstMeasuredWaitingCall(const std::vector<std::vector<Node>>& nodes, const std::vector<std::size_t>& cursor,
                                 const analysis::CollectiveMatching& matching, std::vector<CallState>& calls) {
    const std::size_t n = nodes.size();
    int pick = -1;
    for (std::size_t i = 0; i < cursor.size(); ++i) {
        if (cursor[i] >= nodes[i % n].size()) continue;
        const int c = nodes[i % n][cursor[i]].call;
        if (pick < 0 || matching.calls[static_cast<std::size_t>(c)].lastStartNs <
                            matching.calls[static_cast<std::size_t>(pick)].lastStartNs) {
            pick = c;
        }
    }
    auto& call = calls[static_cast<std::size_t>(pick)];
    call.endNs = call.lastArrivalNs + roundedNs(call.transferNs);
}

// Replay: every rank advances until it reaches a collective not every rank has arrived at; when
// every unfinished rank waits, the call that arrived first in the measurement ends (counted).
Schedule replaySchedule(const std::vector<std::vector<Node>>& nodes, std::size_t replayRanks,
                        const analysis::CollectiveMatching& matching, const TpKernelScaling& scaling,
                        std::vector<CallState>& calls, std::size_t& resolvedOutOfOrder) {
    const std::size_t n = nodes.size();
    Schedule sched;
    auto& start = sched.start;
    auto& end = sched.end;
    start.resize(replayRanks);
    end.resize(replayRanks);
    std::vector<std::size_t> cursor(replayRanks, 0);
    std::vector<bool> arrived(replayRanks, false);
    std::size_t remaining = 0;
    for (std::size_t i = 0; i < replayRanks; ++i) {
        start[i].assign(nodes[i % n].size(), kUnset);
        end[i].assign(nodes[i % n].size(), kUnset);
        remaining += nodes[i % n].size();
    }
    auto scaled = [&](const Node& node) {
        const auto d = static_cast<double>(node.endNs - node.startNs);
        if (node.kind == EventKind::Gemm) return roundedNs(d * scaling.gemm);
        if (node.kind == EventKind::Attention) return roundedNs(d * scaling.attention);
        return node.endNs - node.startNs;
    };
    auto readyTime = [&](std::size_t i, std::size_t k) {
        const auto& list = nodes[i % n];
        const Node& node = list[k];
        std::int64_t t = node.startNs;
        if (node.crit >= 0) {
            const auto c = static_cast<std::size_t>(node.crit);
            t = end[i][c] + (node.startNs - list[c].endNs);
        } else if (k > 0) {
            t = start[i][k - 1] + (node.startNs - list[k - 1].startNs);
        }
        if (node.sameStream >= 0) t = std::max(t, end[i][static_cast<std::size_t>(node.sameStream)]);
        return t;
    };
    while (remaining > 0) {
        bool progress = false;
        for (std::size_t i = 0; i < replayRanks; ++i) {
            const auto& list = nodes[i % n];
            while (cursor[i] < list.size()) {
                const std::size_t k = cursor[i];
                const Node& node = list[k];
                if (start[i][k] == kUnset) start[i][k] = readyTime(i, k);
                if (node.call >= 0) {
                    auto& call = calls[static_cast<std::size_t>(node.call)];
                    if (!arrived[i]) {
                        arrived[i] = true;
                        ++call.arrived;
                        call.lastArrivalNs = std::max(call.lastArrivalNs, start[i][k]);
                    }
                    if (call.endNs == kUnset && call.arrived >= call.expected) {
                        call.endNs = call.lastArrivalNs + roundedNs(call.transferNs);
                    }
                    if (call.endNs == kUnset) break;
                    end[i][k] = std::max(call.endNs, start[i][k] + roundedNs(call.transferNs));
                    arrived[i] = false;
                } else {
                    end[i][k] = start[i][k] + scaled(node);
                }
                ++cursor[i];
                --remaining;
                progress = true;
            }
        }
        if (progress || remaining == 0) continue;
        endFirstMeasuredWaitingCall(nodes, cursor, matching, calls);
        ++resolvedOutOfOrder;
    }
    return sched;
}

void setMetadata(Trace& trace, const std::string& key, const std::string& value) {
    for (auto& [k, v] : trace.metadata) {
        if (k == key) {
            v = value;
            return;
        }
    }
    trace.metadata.emplace_back(key, value);
}

// A range moves with the first kernel inside it (start) and the last one (end); a range with no
// kernel inside moves with the kernel before it.
NvtxRange movedRange(const NvtxRange& range, const std::vector<Node>& list, const std::vector<std::int64_t>& start,
                     const std::vector<std::int64_t>& end) {
    auto first = std::lower_bound(list.begin(), list.end(), range.startNs,
                                  [](const Node& a, std::int64_t t) { return a.startNs < t; });
    NvtxRange moved = range;
    if (first != list.end() && first->startNs < range.endNs) {
        const auto k0 = static_cast<std::size_t>(first - list.begin());
        moved.startNs = start[k0] - (first->startNs - range.startNs);
        std::int64_t measuredEnd = kUnset, newEnd = kUnset;
        for (std::size_t k = k0; k < list.size() && list[k].startNs < range.endNs; ++k) {
            measuredEnd = std::max(measuredEnd, std::min(list[k].endNs, range.endNs));
            newEnd = std::max(newEnd, end[k]);
        }
        moved.endNs = std::max(moved.startNs, newEnd + (range.endNs - measuredEnd));
    } else {
        const auto k = static_cast<std::size_t>(first - list.begin());
        const std::int64_t drift = k > 0 ? end[k - 1] - list[k - 1].endNs : 0;
        moved.startNs += drift;
        moved.endNs += drift;
    }
    return moved;
}

// The predicted trace: the measured one's names, payloads and metadata (marked as a prediction),
// every replay rank's kernels at their replayed times and its ranges moved with them. At a TP
// change a collective's payload names the new group size.
std::shared_ptr<Trace> predictedTrace(const Trace& measured, const std::vector<std::vector<Node>>& nodes,
                                      const Schedule& sched, const WhatIfOptions& o, const std::string& fabrics) {
    const std::size_t n = measured.ranks.size();
    const std::size_t replayRanks = sched.start.size();
    const bool tpChange = replayRanks != n;
    auto trace = std::make_shared<Trace>();
    trace->names = measured.names;
    trace->payloads = measured.payloads;
    trace->origin = TraceOrigin::Predicted;
    trace->source = "what-if replay of " + (measured.source.empty() ? std::string("a run") : measured.source) + " on " +
                    fabrics + (tpChange ? " at TP " + std::to_string(replayRanks) : std::string()) +
                    " (model prediction)";
    trace->metadata = measured.metadata;
    setMetadata(*trace, "fabric", o.fabric.id);
    setMetadata(*trace, "inter_fabric", o.interFabric ? o.interFabric->id : std::string());
    setMetadata(*trace, "tp", std::to_string(replayRanks));
    setMetadata(*trace, "prediction", "what-if replay (model)");
    setMetadata(*trace, "whatif.measured_source", measured.source);
    setMetadata(*trace, "whatif.measured_origin", std::string(toString(measured.origin)));
    std::map<PayloadId, PayloadId> regrouped;
    for (std::size_t i = 0; i < replayRanks; ++i) {
        const Rank& tmpl = measured.ranks[i % n];
        const auto& list = nodes[i % n];
        Rank& r = trace->rank(tpChange ? RankId{static_cast<std::uint32_t>(i)} : tmpl.id);
        r.host = tmpl.host;
        r.deviceIndex = tmpl.deviceIndex;
        r.deviceName = tmpl.deviceName;
        r.clockOffsetNs = tmpl.clockOffsetNs;
        for (const auto& s : tmpl.streams) r.stream(s.id, s.label);
        for (std::size_t k = 0; k < list.size(); ++k) {
            const Node& node = list[k];
            EventRecord e = tmpl.streams[node.stream].events.at(node.event);
            e.startNs = sched.start[i][k];
            e.durNs = std::max<std::int64_t>(0, sched.end[i][k] - sched.start[i][k]);
            if (tpChange && e.kind == EventKind::Collective &&
                trace->payload(e.payload).kind == PayloadKind::Collective) {
                auto it = regrouped.find(e.payload);
                if (it == regrouped.end()) {
                    Payload p = trace->payload(e.payload);
                    p.collective.groupSize = static_cast<std::uint32_t>(replayRanks);
                    it = regrouped.emplace(e.payload, trace->intern(p)).first;
                }
                e.payload = it->second;
            }
            r.streams[node.stream].events.append(e);
        }
        for (const auto& range : tmpl.ranges) r.ranges.push_back(movedRange(range, list, sched.start[i], sched.end[i]));
    }
    trace->finalize();
    return trace;
}

void addAssumptions(WhatIfReplay& out, const WhatIfOptions& o, const std::string& fabrics, std::size_t measuredRanks,
                    std::size_t replayRanks) {
    const bool tpChange = replayRanks != measuredRanks;
    out.assumptions.push_back("compute kernels keep their measured durations" +
                              std::string(tpChange ? " (GEMM and attention scaled, see below)" : "") +
                              "; each kernel keeps its stream order and the measured gap after the kernel it followed");
    out.assumptions.push_back("collectives re-timed with the collective model of " + fabrics + " (all-reduce: " +
                              std::string(toString(o.engine)) + "); every rank waits for the last arrival");
    if (out.collectivesKept > 0) {
        out.assumptions.push_back(std::to_string(out.collectivesKept) +
                                  " collective call(s) without a message size or of an op the model does not cost "
                                  "(send/recv, all-to-all, broadcast) keep their measured transfer time");
    }
    if (tpChange) {
        out.assumptions.push_back("TP " + std::to_string(replayRanks) + " from " + std::to_string(measuredRanks) +
                                  " measured ranks: replay rank i follows measured rank i mod " +
                                  std::to_string(measuredRanks));
        out.assumptions.insert(out.assumptions.end(), o.scaling.assumptions.begin(), o.scaling.assumptions.end());
    }
    if (out.callsResolvedOutOfOrder > 0) {
        out.assumptions.push_back(std::to_string(out.callsResolvedOutOfOrder) +
                                  " call(s) were ended before every rank arrived (ranks issue collectives in a "
                                  "different order)");
    }
}

}  // namespace

Result<WhatIfReplay> replayOnFabric(const Trace& measured, const analysis::CollectiveMatching& matching,
                                    const WhatIfOptions& o) {
    const std::size_t n = measured.ranks.size();
    if (n == 0) return makeError(ErrorCode::InvalidArgument, "the trace has no ranks to replay", measured.source);
    if (o.tp < 0 || o.tp > 4096) return makeError(ErrorCode::InvalidArgument, "TP must be 1..4096", "--tp");
    const std::size_t replayRanks = o.tp > 0 ? static_cast<std::size_t>(o.tp) : n;
    MeasuredNodes m = indexNodes(measured);
    // A replay holds every kernel of every replay rank: a TP far above the measured ranks multiplies them.
    double replayEvents = 0;
    for (std::size_t i = 0; i < replayRanks; ++i) replayEvents += static_cast<double>(m.nodes[i % n].size());
    if (replayEvents > kMaxReplayEvents) {
        return makeError(ErrorCode::InvalidArgument,
                         "replaying at TP " + std::to_string(replayRanks) + " would hold " +
                             formatFixed(replayEvents / 1e6, 0) + " M events, more than the " +
                             formatFixed(kMaxReplayEvents / 1e6, 0) +
                             " M a replay may; use a smaller TP or a shorter trace",
                         "--tp");
    }
    std::vector<std::uint32_t> copies(n, 0);  // replay ranks following each measured rank
    for (std::size_t i = 0; i < replayRanks; ++i) ++copies[i % n];

    WhatIfReplay out;
    auto calls = prepareCalls(measured, matching, o, replayRanks, copies, m, out);
    if (!calls) return calls.error();
    const Schedule sched =
        replaySchedule(m.nodes, replayRanks, matching, o.scaling, *calls, out.callsResolvedOutOfOrder);
    const std::string fabrics = o.fabric.id + (o.interFabric ? " + " + o.interFabric->id : std::string());
    out.trace = predictedTrace(measured, m.nodes, sched, o, fabrics);
    addAssumptions(out, o, fabrics, n, replayRanks);
    return out;
}

}  // namespace tpscope::core::sim
