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

    const Rank* m_rank = nullptr;
    std::uint32_t m_first = 0;
    std::vector<std::size_t> m_threadFirst;  // host thread t's first position; one more: their count
    std::vector<std::uint32_t> m_table;
    std::vector<std::pair<std::uint32_t, std::size_t>> m_sorted;
};

// The one host thread that launches every kernel of a rank (the only one with an id other than 0),
// or nullptr with `several` set when more than one does (or with neither: no launch call at all).
const EventColumns* launchThread(const Rank& rank, bool& several) {
    several = false;
    const EventColumns* launches = nullptr;
    for (const auto& thread : rank.hostThreads) {
        const auto& ev = thread.events;
        bool any = false;
        for (std::size_t i = 0; i < ev.size() && !any; ++i) any = ev.correlationId(i) != 0;
        if (!any) continue;
        if (launches != nullptr) {
            several = true;
            return nullptr;
        }
        launches = &ev;
    }
    return launches;
}

// The launch calls of the one launch thread read in the order of a stream's rising ids: a cursor, no
// memory. It answers as the lookup would (the first launch call of an id) only while the ids other
// than 0 rise along the launch thread, which it checks as it reads: each call is checked once, by the
// first cursor that passes it (a RiseCheck handed from a stream's cursor to the next one; tailRises()
// checks the calls no cursor passed). At the first id that does not rise it stops answering (`broken`).
struct RiseCheck {
    std::size_t checkedTo = 0;  // calls [0, checkedTo) checked
    std::uint32_t lastId = 0;   // the last id other than 0 among them
    bool broken = false;
};

class RisingLaunches {
  public:
    RisingLaunches(const EventColumns& launches, const RiseCheck& checked) : m_launches(launches), m_check(checked) {}
    // The check as it stands after this cursor's reads (a copy while it reads: kept in registers).
    const RiseCheck& check() const { return m_check; }
    // The end of the launch call of id, which must be above the previous id asked for (the stream's ids
    // rise): the calls before it are passed, and so is the call found (the next id is above it).
    std::int64_t find(std::uint32_t id) {
        if (id == 0) return kNoLaunch;
        const std::size_t n = m_launches.size();
        while (m_next < n) {
            const std::uint32_t at = m_launches.correlationId(m_next);
            if (at > id) return kNoLaunch;  // stays: a later id may be this one
            if (!pass(at)) return kNoLaunch;
            if (at == id) return m_launches.endNs(m_next - 1);
        }
        return kNoLaunch;
    }
    // Whether the ids of the calls no cursor passed keep rising.
    static bool tailRises(const EventColumns& launches, RiseCheck& check) {
        for (std::size_t i = check.checkedTo; i < launches.size(); ++i) {
            const std::uint32_t id = launches.correlationId(i);
            if (id == 0) continue;
            if (id <= check.lastId) return false;
            check.lastId = id;
        }
        check.checkedTo = launches.size();
        return true;
    }

  private:
    // Steps past the call at m_next, whose id is `at`, checking it if no cursor has: false, and no more
    // answers (the rank takes the lookup), when its id does not rise.
    bool pass(std::uint32_t at) {
        if (m_next++ != m_check.checkedTo) return true;
        ++m_check.checkedTo;
        if (at == 0) return true;
        if (at <= m_check.lastId) {
            m_check.broken = true;
            m_next = m_launches.size();
            return false;
        }
        m_check.lastId = at;
        return true;
    }

    const EventColumns& m_launches;
    RiseCheck m_check;
    std::size_t m_next = 0;
};

// Adds one stream's gaps to out. With CheckRise, false (out then incomplete) at the first id other
// than 0 that does not rise along the stream: the cursor's answers need rising ids. Sums are kept in
// locals (stores through `out` inside the loop would make the compiler reload the columns' pointers).
template <bool CheckRise, typename Find>
bool addStream(const EventColumns& ev, Find&& launchEndOf, HostIdle& out) {
    const std::size_t n = ev.size();
    if (n == 0) return true;
    std::int64_t gapNs = 0;
    std::int64_t launchWaitNs = 0;
    std::size_t kernels = 0;
    std::size_t launchBound = 0;
    std::uint32_t lastId = 0;
    std::int64_t freeAt = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t start = ev.startNs(i);
        const std::int64_t end = start + ev.durNs(i);
        const std::uint32_t id = ev.correlationId(i);
        if constexpr (CheckRise) {
            if (id != 0) {
                if (id <= lastId) return false;
                lastId = id;
            }
        }
        const std::int64_t launch = launchEndOf(id);
        if (i > 0 && start > freeAt) {
            const std::int64_t gap = start - freeAt;
            gapNs += gap;
            if (launch != kNoLaunch && launch > freeAt) {
                launchWaitNs += gap;
                ++launchBound;
            }
        }
        if (launch != kNoLaunch) ++kernels;
        freeAt = i == 0 ? end : std::max(freeAt, end);
    }
    out.gapNs += gapNs;
    out.launchWaitNs += launchWaitNs;
    out.kernels += kernels;
    out.launchBoundKernels += launchBound;
    return true;
}

// The rank's gaps through the one launch thread's cursor, one walk a stream; false (out incomplete)
// when the ids do not rise along the launch thread and every stream, where the cursor's answers would
// differ from the lookup's.
bool walkRising(const Rank& rank, const EventColumns& launches, HostIdle& out) {
    RiseCheck check;
    for (const auto& stream : rank.streams) {
        RisingLaunches cursor(launches, check);
        const bool rises = addStream<true>(
            stream.events, [&](std::uint32_t id) { return cursor.find(id); }, out);
        check = cursor.check();
        if (!rises || check.broken) return false;
    }
    return RisingLaunches::tailRises(launches, check);
}

HostIdle rankIdle(const Rank& rank, LaunchEnds& launchEnd) {
    HostIdle out;
    bool several = false;
    const EventColumns* launches = launchThread(rank, several);
    if (launches == nullptr && !several) return out;  // no launch call: no host rows
    out.hostRows = true;
    // One launch thread whose ids, and every stream's, rise (a decode trace, a runtime counter): the
    // walk, no lookup. Else the lookup, from the start again.
    if (launches != nullptr && walkRising(rank, *launches, out)) return out;
    out = HostIdle{};
    out.hostRows = true;
    launchEnd.build(rank);
    for (const auto& stream : rank.streams) {
        addStream<false>(
            stream.events, [&](std::uint32_t id) { return launchEnd.find(id); }, out);
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
