// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Hand-built traces for the analysis tests: a few kernels per rank with exact timestamps, so every
// expected number can be derived by hand from the fixture.

#include <cstdint>
#include <memory>
#include <string>

#include "core/trace/trace.h"

namespace tpscope::test {

inline constexpr core::StreamId kComputeStream{7};
inline constexpr core::StreamId kNcclStream{13};

class TraceBuilder {
  public:
    TraceBuilder();
    // A non-collective kernel on `rank` ([startNs, endNs)).
    TraceBuilder& kernel(int rank, core::EventKind kind, std::int64_t startNs, std::int64_t endNs,
                         core::StreamId stream = kComputeStream, std::string_view name = {});
    TraceBuilder& gemm(int rank, std::int64_t startNs, std::int64_t endNs, core::StreamId stream = kComputeStream) {
        return kernel(rank, core::EventKind::Gemm, startNs, endNs, stream);
    }
    // A collective kernel with a payload.
    TraceBuilder& collective(int rank, std::int64_t startNs, std::int64_t endNs, std::uint64_t bytes = 0,
                             core::CollectiveOp op = core::CollectiveOp::AllReduce,
                             core::StreamId stream = kComputeStream, std::string_view communicator = "tp",
                             std::uint32_t groupSize = 0);
    TraceBuilder& allReduce(int rank, std::int64_t startNs, std::int64_t endNs, std::uint64_t bytes = 0,
                            core::StreamId stream = kComputeStream) {
        return collective(rank, startNs, endNs, bytes, core::CollectiveOp::AllReduce, stream);
    }
    TraceBuilder& range(int rank, const std::string& name, int depth, std::int64_t startNs, std::int64_t endNs);
    TraceBuilder& step(int rank, int n, std::int64_t startNs, std::int64_t endNs) {
        return range(rank, "step " + std::to_string(n), 0, startNs, endNs);
    }
    TraceBuilder& layer(int rank, int i, std::int64_t startNs, std::int64_t endNs) {
        return range(rank, "layer " + std::to_string(i), 1, startNs, endNs);
    }
    TraceBuilder& meta(const std::string& key, const std::string& value);
    // An empty rank (no kernels, no ranges).
    TraceBuilder& emptyRank(int rank);

    std::shared_ptr<const core::Trace> build();

  private:
    std::shared_ptr<core::Trace> m_trace;
};

// A regular decode trace: `ranks` GPUs, `steps` steps of `layers` layers, each layer = two blocks of
// [compute computeNs][all-reduce arNs] with NVTX ranges (optional). Rank `lateRank` (if >= 0) runs
// every compute phase `lateByNs` longer, so the others wait for it at every all-reduce.
struct DecodeFixture {
    int ranks = 4;
    int steps = 2;
    int layers = 3;
    std::int64_t computeNs = 1000;
    std::int64_t arNs = 200;  // transfer time of each all-reduce once everyone has arrived
    std::int64_t gapNs = 0;   // idle launch gap before each block's compute
    int lateRank = -1;
    std::int64_t lateByNs = 0;
    bool nvtx = true;
    std::uint64_t arBytes = 16384;
    int batch = 8;
    int tp = 0;  // metadata "tp"; 0 = ranks
};
std::shared_ptr<const core::Trace> makeDecodeTrace(const DecodeFixture& f);

}  // namespace tpscope::test
