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
// table indexed by id - first id, 8 bytes an id; sparse ids fall back to a sorted list. A hash map
// cost one heap node per launch (12 M a rank at 100 M events, most of the finding's time).
class LaunchEnds {
  public:
    // Rebuilds the lookup for rank in the buffers the previous rank left (same capacity, no fresh pages).
    void build(const Rank& rank) {
        m_table.clear();
        m_sorted.clear();
        std::size_t count = 0;
        std::uint32_t lo = std::numeric_limits<std::uint32_t>::max();
        std::uint32_t hi = 0;
        forEachLaunch(rank, [&](std::uint32_t id, std::int64_t) {
            ++count;
            lo = std::min(lo, id);
            hi = std::max(hi, id);
        });
        if (count == 0) return;
        m_first = lo;
        const std::size_t range = static_cast<std::size_t>(hi - lo) + 1;
        if (range <= 4 * count + 1024) {
            m_table.assign(range, kNoLaunch);
            forEachLaunch(rank, [&](std::uint32_t id, std::int64_t end) {
                std::int64_t& slot = m_table[id - m_first];
                if (slot == kNoLaunch) slot = end;
            });
        } else {
            m_sorted.reserve(count);
            forEachLaunch(rank, [&](std::uint32_t id, std::int64_t end) { m_sorted.emplace_back(id, end); });
            std::stable_sort(m_sorted.begin(), m_sorted.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        }
    }
    bool empty() const { return m_table.empty() && m_sorted.empty(); }
    // The launch call's end, or kNoLaunch.
    std::int64_t find(std::uint32_t id) const {
        if (!m_table.empty()) {
            return id >= m_first && id - m_first < m_table.size() ? m_table[id - m_first] : kNoLaunch;
        }
        const auto it = std::lower_bound(m_sorted.begin(), m_sorted.end(), id,
                                         [](const auto& entry, std::uint32_t key) { return entry.first < key; });
        return it != m_sorted.end() && it->first == id ? it->second : kNoLaunch;
    }

  private:
    template <typename F>
    static void forEachLaunch(const Rank& rank, F&& f) {
        for (const auto& thread : rank.hostThreads) {
            const auto& ev = thread.events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const std::uint32_t id = ev.correlationId(i);
                if (id != 0) f(id, ev.endNs(i));
            }
        }
    }
    std::uint32_t m_first = 0;
    std::vector<std::int64_t> m_table;
    std::vector<std::pair<std::uint32_t, std::int64_t>> m_sorted;
};

HostIdle rankIdle(const Rank& rank, LaunchEnds& launchEnd) {
    HostIdle out;
    launchEnd.build(rank);
    if (launchEnd.empty()) return out;
    out.hostRows = true;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        std::int64_t freeAt = 0;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            const std::int64_t start = ev.startNs(i);
            const std::int64_t launch = launchEnd.find(ev.correlationId(i));
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
    return out;
}

}  // namespace

HostIdle attributeIdleToHost(const Trace& trace, unsigned threads) {
    std::vector<HostIdle> perRank(trace.ranks.size());
    // One lookup table per worker, rebuilt rank after rank: 8 bytes an id, 100 MB a rank at 100 M events.
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
