// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "trace_builder_fixtures.h"

#include <algorithm>

namespace tpscope::test {

using namespace tpscope::core;

TraceBuilder::TraceBuilder() : m_trace(std::make_shared<Trace>()) {
    m_trace->origin = TraceOrigin::Simulated;
}

TraceBuilder& TraceBuilder::kernel(int rank, EventKind kind, std::int64_t startNs, std::int64_t endNs, StreamId stream,
                                   std::string_view name) {
    auto& s = m_trace->rank(RankId{static_cast<std::uint32_t>(rank)})
                  .stream(stream, stream == kNcclStream ? "nccl" : "compute");
    const NameId nameId = m_trace->intern(name.empty() ? toString(kind) : name);
    s.events.append({startNs, endNs - startNs, nameId, kind, 0, kNoPayload});
    return *this;
}

TraceBuilder& TraceBuilder::collective(int rank, std::int64_t startNs, std::int64_t endNs, std::uint64_t bytes,
                                       CollectiveOp op, StreamId stream, std::string_view communicator,
                                       std::uint32_t groupSize) {
    CollectivePayload c;
    c.op = op;
    c.bytes = bytes;
    c.groupSize = groupSize;
    c.communicator = m_trace->intern(communicator);
    const PayloadId payload = m_trace->intern(Payload::of(c));
    auto& s = m_trace->rank(RankId{static_cast<std::uint32_t>(rank)})
                  .stream(stream, stream == kNcclStream ? "nccl" : "compute");
    s.events.append({startNs, endNs - startNs, m_trace->intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL"),
                     EventKind::Collective, 0, payload});
    return *this;
}

TraceBuilder& TraceBuilder::range(int rank, const std::string& name, int depth, std::int64_t startNs,
                                  std::int64_t endNs) {
    m_trace->rank(RankId{static_cast<std::uint32_t>(rank)})
        .ranges.push_back({startNs, endNs, m_trace->intern(name), static_cast<std::uint8_t>(depth)});
    return *this;
}

TraceBuilder& TraceBuilder::meta(const std::string& key, const std::string& value) {
    m_trace->metadata.emplace_back(key, value);
    return *this;
}

TraceBuilder& TraceBuilder::emptyRank(int rank) {
    m_trace->rank(RankId{static_cast<std::uint32_t>(rank)});
    return *this;
}

std::shared_ptr<const Trace> TraceBuilder::build() {
    m_trace->finalize();
    return m_trace;
}

std::shared_ptr<const Trace> makeDecodeTrace(const DecodeFixture& f) {
    TraceBuilder b;
    b.meta("tp", std::to_string(f.tp > 0 ? f.tp : f.ranks)).meta("batch", std::to_string(f.batch));
    std::int64_t t = 1'000'000;
    for (int s = 0; s < f.steps; ++s) {
        const std::int64_t stepStart = t;
        for (int l = 0; l < f.layers; ++l) {
            const std::int64_t layerStart = t;
            for (int block = 0; block < 2; ++block) {
                const std::int64_t computeStart = t + f.gapNs;
                std::int64_t lastArrival = 0;
                for (int r = 0; r < f.ranks; ++r) {
                    const std::int64_t end = computeStart + f.computeNs + (r == f.lateRank ? f.lateByNs : 0);
                    lastArrival = std::max(lastArrival, end);
                }
                const std::int64_t arEnd = lastArrival + f.arNs;
                for (int r = 0; r < f.ranks; ++r) {
                    const std::int64_t end = computeStart + f.computeNs + (r == f.lateRank ? f.lateByNs : 0);
                    b.gemm(r, computeStart, end);
                    b.allReduce(r, end, arEnd, f.arBytes);
                }
                t = arEnd;
            }
            if (f.nvtx) {
                for (int r = 0; r < f.ranks; ++r) b.layer(r, l, layerStart, t);
            }
        }
        if (f.nvtx) {
            for (int r = 0; r < f.ranks; ++r) b.step(r, s, stepStart, t);
        }
    }
    return b.build();
}

}  // namespace tpscope::test
