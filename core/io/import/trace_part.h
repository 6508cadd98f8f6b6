// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What one input file contributes before the ranks of a job are numbered, and the merge of several
// such parts onto one timeline.
//
// Readers stage GPU activity per "device" (a Kineto GPU pid, an nsys deviceId) and stream, with
// timestamps relative to the part's time base, in their own name and payload tables, so files can be
// parsed on separate threads. mergeParts() then:
//   * numbers ranks: an explicit rank (tpscope's own export) wins, then a rank the file declares
//     (Kineto distributedInfo, a rank-N / workerN file name, nsys "MPI Rank N") when the file has one
//     device, then the smallest free ids in file and device order; a rank claimed twice is counted;
//   * shifts every timestamp by the part's time base (epoch ns), re-interns names and payloads;
//   * gives ranges a depth by nesting (explicit depths are kept) and sorts everything (finalize).
// Names and payloads are re-interned in file order on the calling thread (so their ids never depend
// on the threads); each rank's columns are then built and finalized by one task per rank on up to
// `threads` threads (0: one per hardware thread).
// Cost: O(events) plus the sorts done by Trace::finalize.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/io/import/import_stats.h"
#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::core {

// Every time value a reader stages is within +-kMaxAbsTimeNs, so sums of two never overflow.
inline constexpr std::int64_t kMaxAbsTimeNs = std::int64_t{1} << 62;

struct StagedRange {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    NameId name{};
    int depth = -1;  // -1: computed from nesting
};

struct StagedStream {
    std::uint64_t id = 0;
    std::string label;
    std::vector<EventRecord> events;
};

// A host thread of a device (tpscope's own export: Rank::hostThreads read back).
struct StagedHostThread {
    std::uint64_t id = 0;
    std::string label;
    std::vector<EventRecord> events;
};

struct StagedDevice {
    std::string key;  // how the reader found it (pid text, deviceId)
    int deviceIndex = -1;
    std::string deviceName;
    std::string host;
    std::optional<std::uint32_t> rank;  // explicit, from tpscope's own metadata
    std::int64_t clockOffsetNs = 0;
    std::vector<StagedStream> streams;
    std::vector<StagedRange> ranges;
    std::vector<StagedHostThread> hostThreads;

    StagedStream& stream(std::uint64_t id);
    StagedHostThread& hostThread(std::uint64_t id, std::string_view label);
};

struct TracePart {
    std::string path;
    StringTable names;
    PayloadTable payloads;
    std::vector<StagedDevice> devices;
    std::vector<StagedRange> processRanges;  // CPU-side ranges: shown on every rank of this file
    std::optional<std::uint32_t> declaredRank;
    std::int64_t timeBaseNs = 0;  // added to every timestamp of this part
    std::vector<std::pair<std::string, std::string>> metadata;
    TraceOrigin origin = TraceOrigin::Imported;
    std::string source;
    ImportStats stats;

    StagedDevice& device(std::string_view key);
    void setMetadata(std::string key, std::string value);
};

// Assigns depths to ranges sorted by start (then longest first): a range's depth is the number of
// still-open ranges that contain its start. Explicit depths are kept. O(n log n).
void assignRangeDepths(std::vector<StagedRange>& ranges);

// Rank of a file from its name: "rank-3.json", "rank_3", "worker3_step_12...", "..._rank3.pt.trace.json".
std::optional<std::uint32_t> rankFromFileName(const std::string& path);

Result<std::shared_ptr<Trace>> mergeParts(std::vector<TracePart>&& parts, ImportStats* stats, unsigned threads = 0);

}  // namespace tpscope::core
