// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/host_idle.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "core/util/parallel_for.h"

namespace tpscope::core::analysis {

namespace {

constexpr std::int64_t kNoLaunch = std::numeric_limits<std::int64_t>::min();

// Correlation id -> end of its launch call, the first launch call of an id kept (host threads in
// order, each in start order). Ids are dense in practice (a runtime counter per process): then a
// table indexed by id - first id holds the launch call's position among the rank's host events (4
// bytes an id; its end is read from the columns when a kernel asks); sparse ids fall back to a
// sorted list of (id, position), 8 bytes a launch. A hash map cost one heap node per launch (12 M a
// rank at 100 M events, most of the finding's time); a table of 64-bit ends took 100 MB a worker.
class LaunchEnds {
  public:
    // Rebuilds the lookup for rank in the buffers the previous rank left (same capacity, no fresh pages).
    void build(const Rank& rank) {
        m_rank = &rank;
        m_table.clear();
        m_sorted.clear();
        m_threadFirst.clear();
        m_rising = risingLaunchThread(rank);
        if (m_rising != nullptr) return;
        std::size_t count = 0;
        std::size_t hostEvents = 0;
        std::uint32_t lo = std::numeric_limits<std::uint32_t>::max();
        std::uint32_t hi = 0;
        for (const auto& thread : rank.hostThreads) {
            m_threadFirst.push_back(hostEvents);
            hostEvents += thread.events.size();
        }
        m_threadFirst.push_back(hostEvents);
        forEachLaunch(rank, [&](std::uint32_t id, std::size_t) {
            ++count;
            lo = std::min(lo, id);
            hi = std::max(hi, id);
        });
        if (count == 0) return;
        m_first = lo;
        const std::size_t range = static_cast<std::size_t>(hi - lo) + 1;
        if (hostEvents < kNone && range <= 4 * count + 1024) {
            m_table.assign(range, kNone);
            forEachLaunch(rank, [&](std::uint32_t id, std::size_t position) {
                std::uint32_t& slot = m_table[id - m_first];
                if (slot == kNone) slot = static_cast<std::uint32_t>(position);
            });
        } else {
            m_sorted.reserve(count);
            forEachLaunch(rank, [&](std::uint32_t id, std::size_t position) { m_sorted.emplace_back(id, position); });
            std::stable_sort(m_sorted.begin(), m_sorted.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        }
    }
    bool empty() const { return m_rising == nullptr && m_table.empty() && m_sorted.empty(); }
    // The one host thread that launches every kernel, when it and every stream keep their ids rising:
    // then each stream walks it once (RisingLaunches) and no lookup is built.
    const EventColumns* rising() const { return m_rising; }
    // The launch call's end, or kNoLaunch.
    std::int64_t find(std::uint32_t id) const {
        if (!m_table.empty()) {
            if (id < m_first || id - m_first >= m_table.size()) return kNoLaunch;
            const std::uint32_t position = m_table[id - m_first];
            return position == kNone ? kNoLaunch : endAt(position);
        }
        const auto it = std::lower_bound(m_sorted.begin(), m_sorted.end(), id,
                                         [](const auto& entry, std::uint32_t key) { return entry.first < key; });
        return it != m_sorted.end() && it->first == id ? endAt(it->second) : kNoLaunch;
    }

  private:
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    // f(id, position) for every launch call, position counting the rank's host events thread after thread.
    template <typename F>
    static void forEachLaunch(const Rank& rank, F&& f) {
        std::size_t position = 0;
        for (const auto& thread : rank.hostThreads) {
            const auto& ev = thread.events;
            for (std::size_t i = 0; i < ev.size(); ++i, ++position) {
                const std::uint32_t id = ev.correlationId(i);
                if (id != 0) f(id, position);
            }
        }
    }
    std::int64_t endAt(std::size_t position) const {
        std::size_t t = 0;
        while (position >= m_threadFirst[t + 1]) ++t;  // a rank has a few host threads
        return m_rank->hostThreads[t].events.endNs(position - m_threadFirst[t]);
    }

    // Ids other than 0 strictly rising along the events (a runtime counter on one thread).
    static bool idsRise(const EventColumns& ev) {
        std::uint32_t last = 0;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            const std::uint32_t id = ev.correlationId(i);
            if (id == 0) continue;
            if (id <= last) return false;
            last = id;
        }
        return true;
    }
    static const EventColumns* risingLaunchThread(const Rank& rank) {
        const EventColumns* launches = nullptr;
        for (const auto& thread : rank.hostThreads) {
            const auto& ev = thread.events;
            bool any = false;
            for (std::size_t i = 0; i < ev.size() && !any; ++i) any = ev.correlationId(i) != 0;
            if (!any) continue;
            if (launches != nullptr) return nullptr;  // two launching threads: the lookup
            launches = &ev;
        }
        if (launches == nullptr || !idsRise(*launches)) return nullptr;
        for (const auto& stream : rank.streams) {
            if (!idsRise(stream.events)) return nullptr;
        }
        return launches;
    }

    const Rank* m_rank = nullptr;
    const EventColumns* m_rising = nullptr;
    std::uint32_t m_first = 0;
    std::vector<std::size_t> m_threadFirst;  // host thread t's first position; one more: their count
    std::vector<std::uint32_t> m_table;
    std::vector<std::pair<std::uint32_t, std::size_t>> m_sorted;
};

// The launch calls of a rising launch thread (LaunchEnds::rising) read in the order of a stream's
// rising ids: a cursor, no memory.
class RisingLaunches {
  public:
    explicit RisingLaunches(const EventColumns& launches) : m_launches(launches) {}
    std::int64_t find(std::uint32_t id) {
        if (id == 0) return kNoLaunch;
        while (m_next < m_launches.size()) {
            const std::uint32_t at = m_launches.correlationId(m_next);
            if (at >= id && at != 0) return at == id ? m_launches.endNs(m_next) : kNoLaunch;
            ++m_next;
        }
        return kNoLaunch;
    }

  private:
    const EventColumns& m_launches;
    std::size_t m_next = 0;
};

template <typename Find>
void addStream(const EventColumns& ev, Find&& launchEndOf, HostIdle& out) {
    std::int64_t freeAt = 0;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        const std::int64_t start = ev.startNs(i);
        const std::int64_t launch = launchEndOf(ev.correlationId(i));
        if (i > 0 && start > freeAt) {
            const std::int64_t gap = start - freeAt;
            out.gapNs += gap;
            if (launch != kNoLaunch && launch > freeAt) {
                out.launchWaitNs += gap;
                ++out.launchBoundKernels;
            }
        }
        if (launch != kNoLaunch) ++out.kernels;
        freeAt = i == 0 ? ev.endNs(i) : std::max(freeAt, ev.endNs(i));
    }
}

HostIdle rankIdle(const Rank& rank, LaunchEnds& launchEnd) {
    HostIdle out;
    launchEnd.build(rank);
    if (launchEnd.empty()) return out;
    out.hostRows = true;
    for (const auto& stream : rank.streams) {
        if (launchEnd.rising() != nullptr) {
            RisingLaunches launches(*launchEnd.rising());
            addStream(
                stream.events, [&](std::uint32_t id) { return launches.find(id); }, out);
        } else {
            addStream(
                stream.events, [&](std::uint32_t id) { return launchEnd.find(id); }, out);
        }
    }
    return out;
}

}  // namespace

HostIdle attributeIdleToHost(const Trace& trace, unsigned threads) {
    std::vector<HostIdle> perRank(trace.ranks.size());
    // One lookup table per worker, rebuilt rank after rank: 4 bytes an id, 50 MB a rank at 100 M events,
    // unless the rank's ids rise along its launch thread and streams (a decode trace): no table then.
    parallelForWithScratch<LaunchEnds>(trace.ranks.size(), threads, [&](std::size_t r, LaunchEnds& launchEnd) {
        perRank[r] = rankIdle(trace.ranks[r], launchEnd);
    });
    HostIdle out;
    for (const HostIdle& r : perRank) {
        out.hostRows = out.hostRows || r.hostRows;
        out.gapNs += r.gapNs;
        out.launchWaitNs += r.launchWaitNs;
        out.kernels += r.kernels;
        out.launchBoundKernels += r.launchBoundKernels;
    }
    return out;
}

}  // namespace tpscope::core::analysis
