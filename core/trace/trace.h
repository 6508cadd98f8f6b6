// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The event model every source produces and every view reads (DESIGN.md §2): ranks (one GPU
// each), their streams of columnar events, their NVTX ranges, interned names and payloads.
// Timestamps are int64 ns on one common timeline; a rank merged from another host records the
// clock offset that was applied to bring it there.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/trace/event_columns.h"
#include "core/trace/nvtx_ranges.h"
#include "core/trace/payload.h"
#include "core/trace/string_table.h"
#include "core/util/strong_id.h"

namespace tpscope::core {

struct Stream {
    StreamId id{};
    std::string label;  // "compute", "nccl", "stream 7"
    EventColumns events;
    bool operator==(const Stream&) const = default;
};

// A CPU thread of the process that drives a rank's GPU: the runtime calls that launch its kernels
// (cudaLaunchKernel, cudaGraphLaunch) and the host work between decode steps, as a simulated run's
// host timeline (DESIGN.md §4) or, later, an importer's `cuda_runtime` events. Each launch call
// carries the correlation id of the kernel it launched (a graph launch: the first kernel of its
// graph); 0 = none. Host events are kept apart from `streams` on purpose: every GPU analysis
// (compute / comm / idle unions, kernel counts, collective matching, exports' kernel tables) reads
// streams only, so a host row never counts as a kernel. Their kind is EventKind::Other.
struct HostThread {
    std::uint64_t threadId = 0;
    std::string label;  // "launch thread", "python 25286"
    EventColumns events;
    bool operator==(const HostThread&) const = default;
};

struct Rank {
    RankId id{};
    std::string host;
    int deviceIndex = -1;
    std::string deviceName;
    std::int64_t clockOffsetNs = 0;  // added to this rank's native clock to reach the common timeline
    std::vector<Stream> streams;
    NvtxRanges ranges;                    // sorted by start, then by depth (after finalize)
    std::vector<HostThread> hostThreads;  // CPU side; empty for traces without host rows

    Stream& stream(StreamId id, std::string_view label = {});  // find or create
    const Stream* findStream(StreamId id) const;
    HostThread& hostThread(std::uint64_t threadId, std::string_view label = {});  // find or create
    std::size_t eventCount() const;                                               // GPU events (streams) only
    std::size_t hostEventCount() const;                                           // host-thread events
    // Indices [first, last) of NVTX ranges overlapping [t0, t1) (NvtxRanges::visibleRanges: some inside
    // may have ended before t0). Requires finalized ranges.
    IndexRange visibleRanges(std::int64_t t0, std::int64_t t1) const { return ranges.visibleRanges(t0, t1); }
    bool operator==(const Rank&) const = default;
};

// Moves every event (host rows included) and range of the rank by deltaNs and records it in clockOffsetNs (a clock
// correction after the fact). O(events) time, events stay sorted.
void shiftRank(Rank& rank, std::int64_t deltaNs);

// Synthetic: made-up events that exercise a code path (capture --cpu-test), never a measurement.
// Predicted: a model's answer derived from another run (what-if replay), never a measurement.
enum class TraceOrigin : std::uint8_t { Unknown = 0, Simulated, Captured, Imported, Synthetic, Predicted };
inline constexpr int kTraceOriginCount = 6;
std::string_view toString(TraceOrigin origin);
// The origin toString() names; nullopt for any other text.
std::optional<TraceOrigin> parseTraceOrigin(std::string_view text);

class Trace {
  public:
    StringTable names;
    PayloadTable payloads;
    std::vector<Rank> ranks;
    TraceOrigin origin = TraceOrigin::Unknown;
    std::string source;  // file path, "simulated h100-sxm x8 nvlink4", ...
    std::vector<std::pair<std::string, std::string>> metadata;

    Rank& rank(RankId id);  // find or create, keeping ranks sorted by id
    const Rank* findRank(RankId id) const;

    NameId intern(std::string_view text) { return names.intern(text); }
    PayloadId intern(const Payload& payload) { return payloads.intern(payload); }
    std::string_view name(NameId id) const { return names.view(id); }
    const Payload& payload(PayloadId id) const { return payloads.get(id); }

    // Sorts every stream and range track; call after building, before reading.
    void finalize();

    std::size_t eventCount() const;      // GPU events (kernels, copies); host rows are not counted
    std::size_t hostEventCount() const;  // events on host threads
    std::int64_t startNs() const;        // earliest event (GPU or host) or range start; 0 when empty
    std::int64_t endNs() const;          // latest end
    std::size_t residentBytes() const;
    std::string metadataValue(std::string_view key) const;

    // Names and payloads are compared by content, so two traces built in different orders compare
    // equal when they describe the same events.
    // GPU side only (streams and ranges): a format that does not carry host rows (Chrome JSON) still
    // round-trips; sameHostEvents compares the host threads the same way.
    bool sameEvents(const Trace& other) const;
    bool sameHostEvents(const Trace& other) const;
};

}  // namespace tpscope::core
