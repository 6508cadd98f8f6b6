#pragma once
// What the timeline derives once per trace (on the loading thread when possible): NVTX depth rows,
// exposed-communication intervals and an index of each rank's collective kernels in call order, so
// that drawing, hit-testing and cross-rank matching never scan the whole trace.
//
// Collective matching (DESIGN.md §5): the k-th collective kernel of a rank (all streams, by start)
// is the same call as the k-th of every other rank. wait(rank) = max start - start(rank);
// transfer = median end - max start (clamped at 0); busbw = bytes / transfer x the nccl-tests bus
// factor of the op. Build O(n log n) per rank; a match is O(ranks · log c).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

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
};

struct CollectiveMember {
    EventRef event;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t waitNs = 0;  // max start - this rank's start
};

struct CollectiveMatch {
    std::size_t ordinal = 0;
    std::vector<CollectiveMember> members;  // one per rank that has this call, in rank order
    std::int64_t skewNs = 0;                // max start - min start (arrival skew)
    std::int64_t transferNs = 0;            // median end - max start, >= 0
    std::uint64_t bytes = 0;
    double busbwBytesPerSec = 0;  // 0 when unknown
};

struct RankTimelineData {
    std::vector<core::EventColumns> nvtx;    // per depth: 0 step, 1 layer, 2 block
    core::EventColumns exposed;              // exposed-communication intervals (kind Collective)
    std::vector<CollectiveRef> collectives;  // by start
    std::int64_t exposedTotalNs = 0;
};

class TimelineData {
  public:
    static std::shared_ptr<const TimelineData> build(const core::Trace& trace);

    const std::vector<RankTimelineData>& ranks() const { return m_ranks; }
    // The cross-rank match of a collective event; nullopt when the event is not a collective.
    std::optional<CollectiveMatch> matchCollective(const core::Trace& trace, const EventRef& event) const;
    // Exposed-communication time of rank r clipped to [t0, t1).
    std::int64_t exposedNs(std::size_t rank, std::int64_t t0, std::int64_t t1) const;

  private:
    std::vector<RankTimelineData> m_ranks;
};

// nccl-tests bus-bandwidth factor: 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter
// and all-to-all, 1 otherwise.
double busBandwidthFactor(core::CollectiveOp op, int ranks);

}  // namespace tpscope::ui
