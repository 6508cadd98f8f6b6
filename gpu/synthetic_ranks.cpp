// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The cpu-test part of a capture: the events each local rank would record for `steps` decode
// steps of the plan, with fixed synthetic durations (not a performance model: only the shape of
// a capture matters here), so the launch and merge code runs without a GPU.

#include <algorithm>
#include <string>

#include "gpu/capture.h"

namespace tpscope::gpu {

namespace {

constexpr std::int64_t kGapNs = 1'000;
constexpr std::int64_t kMinKernelNs = 2'000;
constexpr std::uint64_t kComputeBytesPerNs = 2'000;   // 2 TB/s
constexpr std::uint64_t kCollectiveBytesPerNs = 100;  // 100 GB/s
constexpr std::int64_t kCollectiveLatencyNs = 8'000;

std::int64_t syntheticDurationNs(const core::PlanOp& op) {
    if (op.isCollective()) {
        return kCollectiveLatencyNs + static_cast<std::int64_t>(op.messageBytes / kCollectiveBytesPerNs);
    }
    return std::max(kMinKernelNs, static_cast<std::int64_t>((op.bytesRead + op.bytesWritten) / kComputeBytesPerNs));
}

}  // namespace

LocalCapture synthesizeLocalRanks(const core::DecodePlan& plan, const LocalRanks& ranks, int steps,
                                  std::int64_t startNs) {
    LocalCapture out;
    core::Trace& t = out.trace;
    t.origin = core::TraceOrigin::Synthetic;  // made-up durations: never a measurement
    for (std::size_t i = 0; i < ranks.devices.size(); ++i) {
        core::Rank& rank =
            t.rank(core::RankId(static_cast<std::uint32_t>(ranks.firstRank) + static_cast<std::uint32_t>(i)));
        rank.deviceIndex = ranks.devices[i];
        rank.deviceName = "synthetic (cpu test)";
        core::Stream& compute = rank.stream(core::StreamId(7), "compute");
        std::int64_t now = startNs;
        for (int s = 0; s < steps; ++s) {
            const std::int64_t stepStart = now;
            int layer = -2;
            std::int64_t layerStart = 0, blockStart = 0;
            core::OpBlock block = core::OpBlock::Prologue;
            const auto closeBlock = [&](std::int64_t end) {
                if (layer >= 0 && (block == core::OpBlock::Attention || block == core::OpBlock::Mlp)) {
                    rank.ranges.push_back({blockStart, end, t.intern(core::toString(block)), 2});
                }
            };
            const auto closeLayer = [&](std::int64_t end) {
                closeBlock(end);
                if (layer >= 0) rank.ranges.push_back({layerStart, end, t.intern("layer " + std::to_string(layer)), 1});
            };
            std::int64_t lastEnd = now;
            for (const core::PlanOp& op : plan.ops) {
                if (op.layer != layer) {
                    closeLayer(lastEnd);
                    layer = op.layer;
                    layerStart = now;
                    block = op.block;
                    blockStart = now;
                } else if (op.block != block) {
                    closeBlock(lastEnd);
                    block = op.block;
                    blockStart = now;
                }
                core::PayloadId payload = core::kNoPayload;
                if (op.eventKind == core::EventKind::Gemm) payload = t.intern(core::Payload::of(op.gemm));
                if (op.isCollective()) {
                    core::CollectivePayload c;
                    c.op = op.collective;
                    c.dtype = plan.config.dtype;
                    c.groupSize = static_cast<std::uint32_t>(ranks.tp);
                    c.bytes = op.messageBytes;
                    payload = t.intern(core::Payload::of(c));
                }
                const std::int64_t dur = syntheticDurationNs(op);
                compute.events.append({now, dur, t.intern(core::toString(op.kind)), op.eventKind, 0, payload});
                lastEnd = now + dur;
                now = lastEnd + kGapNs;
            }
            closeLayer(lastEnd);
            rank.ranges.push_back({stepStart, lastEnd, t.intern("step " + std::to_string(s)), 0});
            if (i == 0) out.stepNs.push_back(lastEnd - stepStart);
        }
    }
    t.finalize();
    return out;
}

}  // namespace tpscope::gpu
