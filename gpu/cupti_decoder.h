// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// CUPTI activity records -> core::Trace (DESIGN.md §7), separate from the live session so it is
// tested on hand-filled records without a GPU or libcupti (only the CUPTI headers are needed).
//
// Input: records one at a time (CONCURRENT_KERNEL/KERNEL, MEMCPY, MEMSET, MARKER, RUNTIME/DRIVER,
// EXTERNAL_CORRELATION, anything else is counted and skipped) plus dropped-record counts.
// Mapping: every GPU record becomes one event on (rank of its device, its CUPTI stream); kernel
// names are demangled and classified by core::KernelClassifier; NVTX start/end (or push/pop)
// markers of the default domain (the runner's own ranges; another domain such as NCCL's is counted
// and skipped, so it cannot shift the step > layer > block depths) are paired by id, nested per
// thread into depths, and projected onto the GPU: a range
// covers the GPU work launched by the runtime calls its thread made inside it (how Nsight shows
// "NVTX on GPU"), so ranges line up with kernels as in a simulated trace. Runtime calls whose
// external correlation id (or a graph-replayed kernel whose node) is tagged with a plan op give
// their kernels the op's payload; graph-replayed kernels, which have no NVTX inside the replay,
// get "layer i" > "attention"/"mlp" ranges rebuilt from their ops.
// Cost: O(records log records) at finish(); memory O(records) until then.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/trace/kernel_classifier.h"
#include "core/trace/trace.h"
#include "core/workload/decode_plan.h"
#include "gpu/cupti_records.h"

namespace tpscope::gpu {

struct CuptiDecodeStats {
    std::uint64_t kernels = 0;
    std::uint64_t memcpys = 0;
    std::uint64_t memsets = 0;
    std::uint64_t markers = 0;
    std::uint64_t runtimeCalls = 0;
    std::uint64_t externalCorrelations = 0;
    std::uint64_t otherRecords = 0;         // kinds the decoder does not use
    std::uint64_t droppedRecords = 0;       // reported lost by CUPTI (buffers full), both queues
    std::uint64_t incompleteRecords = 0;    // buffers whose walk stopped at an incomplete record (the rest unread)
    std::uint64_t invalidTimestamps = 0;    // GPU records with start 0 or end < start, skipped
    std::uint64_t unmatchedMarkers = 0;     // a start without an end or an end without a start
    std::uint64_t foreignMarkers = 0;       // NVTX markers of another domain (NCCL's own ranges), skipped
    std::uint64_t unattributedKernels = 0;  // kernels no plan op claimed (after finish(); 0 without a plan)
    std::uint64_t attributedEvents = 0;     // events that received a plan op (payload, graph range)
    // Graph replays whose kernels do not carry one correlation id of their own cudaGraphLaunch
    // (CUPTI 13.0 to 13.1 GA, in every profiling session after a process's first: fixed in 13.1
    // Update 1, CUPTI release notes). Their step ranges are rebuilt from the graph nodes instead.
    std::uint64_t graphCorrelationMismatches = 0;
    std::uint64_t stepsFromGraphNodes = 0;  // step ranges rebuilt so (0 when correlation held)
};

// External correlation id that tags the runtime calls of one plan op: step in bits 63..40, rows in
// 39..24 (0: the whole op; overlap mode's half-GEMMs and half-all-reduces carry the rows of their
// half, so a step's bytes and FLOPs are not counted twice), op index in 23..0. Pushed with
// CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0; graph nodes are tagged with the same value.
inline constexpr std::uint32_t kMaxTaggedRows = 0xffff;
inline std::uint64_t encodeOpTag(std::uint32_t step, std::uint32_t opIndex, std::uint32_t rows = 0) {
    return (static_cast<std::uint64_t>(step & 0xffffffu) << 40) |
           (static_cast<std::uint64_t>(rows & kMaxTaggedRows) << 24) | (opIndex & 0xffffffu);
}
inline std::uint32_t opIndexOfTag(std::uint64_t tag) {
    return static_cast<std::uint32_t>(tag & 0xffffffu);
}
inline std::uint32_t rowsOfTag(std::uint64_t tag) {
    return static_cast<std::uint32_t>((tag >> 24) & kMaxTaggedRows);
}

class CuptiDecoder {
  public:
    explicit CuptiDecoder(const core::KernelClassifier& classifier = core::KernelClassifier::builtin());

    // Which trace rank a CUPTI device id belongs to; unmapped devices become RankId(deviceId).
    void mapDevice(std::uint32_t deviceId, core::RankId rank);
    // Rank for NVTX ranges that launched no GPU work (none is known for them otherwise).
    void setDefaultRank(core::RankId rank) { m_defaultRank = rank; }
    void labelStream(std::uint32_t deviceId, std::uint32_t streamId, std::string label);
    // The decode step's ops (by index, as tagged), for payloads and graph attribution; the plan's
    // tp is the collectives' group size and its dtype theirs.
    void setPlan(const core::DecodePlan& plan);
    // Graph node (CUPTI id) -> index into the plan ops (and the rows of an overlap half, 0 = all);
    // cloned nodes (graph instantiation) alias their original.
    void tagGraphNode(std::uint64_t graphNodeId, std::uint32_t opIndex, std::uint32_t rows = 0);
    void aliasGraphNode(std::uint64_t clonedNodeId, std::uint64_t originalNodeId);
    // When false, NVTX ranges keep their host (CPU) times.
    void setProjectRangesOnGpu(bool on) { m_projectOnGpu = on; }

    void addRecord(const CUpti_Activity& record);
    void addDroppedRecords(std::uint64_t count) { m_stats.droppedRecords += count; }
    void addIncompleteRecords(std::uint64_t count) { m_stats.incompleteRecords += count; }

    // Counts so far; after finish() they also hold the unmatched markers and attributed events.
    const CuptiDecodeStats& stats() const { return m_stats; }

    // Builds the trace (finalized, origin Captured, stats in metadata "cupti.*"). Call once: the
    // records are handed over and the decoder keeps only its configuration and stats.
    core::Trace finish();

  private:
    struct GpuRecord {
        std::uint32_t deviceId = 0;
        std::uint32_t streamId = 0;
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        core::NameId name{};
        core::EventKind kind = core::EventKind::Other;
        std::uint32_t correlationId = 0;
        std::uint64_t graphNodeId = 0;
        core::PayloadId payload = core::kNoPayload;  // from the record itself (copy bytes, NCCL name)
    };
    struct ApiCall {
        std::int64_t startNs = 0;
        std::uint32_t correlationId = 0;
    };
    struct MarkerHalf {
        std::int64_t startNs = -1;
        std::int64_t endNs = -1;
        std::uint64_t threadKey = 0;
        core::NameId name{};
    };
    struct KernelName {
        core::NameId name{};
        core::KernelClass cls;
    };
    struct HostRange {
        std::int64_t startNs = 0, endNs = 0;
        std::uint64_t threadKey = 0;
        core::NameId name{};
        std::uint8_t depth = 0;
    };

    void addKernel(const KernelRecord& k);
    void addMemcpy(const MemcpyRecord& m);
    void addMemset(const MemsetRecord& m);
    void addMarker(const MarkerRecord& m);
    const KernelName& kernelName(const char* mangled);
    core::RankId rankOf(std::uint32_t deviceId) const;
    // The op tag of a record (graph node or external correlation id), if any.
    std::optional<std::uint64_t> opTagOf(const GpuRecord& r) const;
    // The op's payload, scaled to `rows` of the batch when a half carries them (0: the whole op).
    core::PayloadId opPayload(const core::PlanOp& op, core::PayloadId fromRecord, std::uint32_t rows);
    std::vector<HostRange> pairMarkers();
    // GPU interval of the work launched under one correlation id (several kernels for a graph launch).
    struct Span {
        core::RankId rank{};
        std::int64_t startNs = 0, endNs = 0;
    };
    using SpanMap = std::unordered_map<std::uint32_t, Span>;
    struct GraphEvent {
        core::RankId rank{};
        std::int64_t startNs = 0, endNs = 0;
        std::uint32_t op = 0;
        std::uint64_t node = 0;  // the original (captured) node: each runs once per replay
        std::uint32_t correlationId = 0;
    };
    // One replay of a rank's graph: its kernels, bounded where a node runs a second time.
    struct GraphReplay {
        core::RankId rank{};
        std::int64_t startNs = 0, endNs = 0;
        std::uint32_t correlationId = 0;
        bool mixedCorrelation = false;
    };
    void emitEvents(core::Trace& out, SpanMap& spans, std::vector<GraphEvent>& graphEvents);
    void emitRanges(core::Trace& out, const std::vector<HostRange>& ranges, const SpanMap& spans);
    void emitGraphRanges(core::Trace& out, std::vector<GraphEvent>& graphEvents);
    // Sorts the events by (rank, start) and cuts them into replays.
    static std::vector<GraphReplay> graphReplays(std::vector<GraphEvent>& graphEvents);
    // Replays whose correlation id is shared, mixed or not a recorded launch (the CUPTI bug above).
    std::uint64_t countCorrelationMismatches(const std::vector<GraphReplay>& replays) const;
    // Under that bug: the host's "step" ranges leave `ranges`, and each rank's replays become its
    // steps, named in the host ranges' order.
    void emitStepsFromReplays(core::Trace& out, std::vector<HostRange>& ranges,
                              const std::vector<GraphReplay>& replays);
    void writeStats(core::Trace& out) const;

    const core::KernelClassifier& m_classifier;
    core::Trace m_trace;  // names and payloads are interned here while records arrive
    CuptiDecodeStats m_stats;
    std::unordered_map<std::uint32_t, core::RankId> m_deviceRanks;
    core::RankId m_defaultRank{0};
    std::unordered_map<std::uint64_t, std::string> m_streamLabels;  // (device << 32 | stream)
    std::vector<core::PlanOp> m_ops;
    std::uint32_t m_tp = 0;
    std::uint32_t m_batch = 0;
    core::Dtype m_dtype = core::Dtype::Unknown;
    std::unordered_map<std::uint64_t, std::uint64_t> m_graphNodeOps;  // node -> op tag
    std::unordered_map<std::uint64_t, std::uint64_t> m_graphNodeAlias;
    bool m_projectOnGpu = true;

    std::vector<GpuRecord> m_gpu;
    std::unordered_map<std::uint64_t, std::vector<ApiCall>> m_apiByThread;  // (process << 32 | thread)
    std::unordered_map<std::uint32_t, std::uint64_t> m_externalIds;         // correlation -> op tag
    std::unordered_map<std::uint32_t, MarkerHalf> m_markers;                // marker id -> halves
    std::unordered_set<std::uint32_t> m_foreignMarkerIds;                   // ids of other domains' ranges
    std::unordered_map<std::string, KernelName> m_kernelNames;
};

}  // namespace tpscope::gpu
