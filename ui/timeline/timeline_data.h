#pragma once
// What the timeline derives once per trace (on the worker thread that produced or loaded it): NVTX
// depth rows, exposed-communication intervals, the kernels per kind of each rank, and an index from
// each collective kernel to its call in core's cross-rank matching, so that drawing, hit-testing and
// the Selection panel never scan the whole trace.
//
// Collective matching is core's (core::analysis::matchCollectives, DESIGN.md §5: per communicator,
// checked in time, wait capped at the kernel), read from the run's RunAnalysis, so the wait, skew,
// transfer and busbw the Selection panel shows are the numbers `tpscope-cli analyze --json` prints.
// Build O(n log n) per rank; a lookup is O(log c) for c collective kernels of the rank.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/trace/event_columns.h"
#include "core/trace/trace.h"

namespace tpscope::ui {

// One event of the trace by position: indices into trace.ranks, rank.streams and the stream's columns.
struct EventRef {
    int rank = -1;
    int stream = -1;
    std::size_t index = 0;
    bool valid() const { return rank >= 0 && stream >= 0; }
    bool operator==(const EventRef&) const = default;
};

struct CollectiveRef {
    std::int64_t startNs = 0;
    std::uint32_t stream = 0;
    std::size_t index = 0;
    std::int64_t call = -1;  // index into the matching's calls, -1 when unmatched
};

struct CollectiveMember {
    EventRef event;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t waitNs = 0;  // core's wait: last arrival - this rank's start, capped at its kernel
};

// A view of one core::analysis::CollectiveCall with the members' kernels resolved.
struct CollectiveMatch {
    std::size_t ordinal = 0;                // the call's position among this rank's collective kernels
    std::vector<CollectiveMember> members;  // one per rank in the call, in rank order
    std::int64_t skewNs = 0;                // last arrival - first arrival
    std::int64_t transferNs = 0;            // core: median end - last arrival, >= 0
    std::uint64_t bytes = 0;
    double busbwBytesPerSec = 0;  // core::analysis::busBandwidth; NaN when unknown
    bool complete = true;         // every rank of the communicator took part
};

inline constexpr std::size_t kExposedBlock = 64;

struct RankTimelineData {
    std::vector<core::EventColumns> nvtx;  // per depth: 0 step, 1 layer, 2 block
    core::EventColumns exposed;            // exposed-communication intervals (kind Collective)
    // Sum of the exposed durations before each block of kExposedBlock intervals, so that exposedNs
    // of a window is O(log n + kExposedBlock) instead of a loop over every interval in it (12 M at
    // 100 M events, zoomed out: the timeline's exposed strip asks once per item and frame). Empty
    // when the intervals are not disjoint and sorted (then exposedNs loops).
    std::vector<std::int64_t> exposedBlockSum;
    std::vector<CollectiveRef> collectives;  // by start
    std::int64_t exposedTotalNs = 0;
    std::array<std::size_t, core::kEventKindCount> kindCount{};  // events per kind (core::rangeStats)
    std::size_t kernelCount() const;                             // kernels only: memcpy and memset are not kernels
};

class TimelineData {
  public:
    // analysis: the run's analysis (shared, not copied); computed here when null (tests, a bare view).
    static std::shared_ptr<const TimelineData> build(const core::Trace& trace,
                                                     std::shared_ptr<const core::analysis::RunAnalysis> analysis = {});

    const std::vector<RankTimelineData>& ranks() const { return m_ranks; }
    const core::analysis::RunAnalysis& analysis() const { return *m_analysis; }
    // Each rank's clock offset estimated from the collectives (core::analysis::estimateClockOffsets,
    // as `tpscope-cli info` reports it), for the rank headers.
    const core::analysis::ClockEstimate& clock() const { return m_clock; }
    // The cross-rank match of a collective event; nullopt when the event is not a matched collective.
    std::optional<CollectiveMatch> matchCollective(const core::Trace& trace, const EventRef& event) const;
    // Exposed-communication time of rank r clipped to [t0, t1).
    // O(log n + kExposedBlock) for r's n intervals.
    std::int64_t exposedNs(std::size_t rank, std::int64_t t0, std::int64_t t1) const;

  private:
    std::vector<RankTimelineData> m_ranks;
    std::shared_ptr<const core::analysis::RunAnalysis> m_analysis;
    core::analysis::ClockEstimate m_clock;
};

}  // namespace tpscope::ui
