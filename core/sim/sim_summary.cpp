#include "core/sim/sim_summary.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace tpscope::core::sim {

namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;

// Sorts and merges overlapping intervals in place.
void unite(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end());
    std::size_t out = 0;
    for (const auto& iv : v) {
        if (out > 0 && iv.first <= v[out - 1].second) {
            v[out - 1].second = std::max(v[out - 1].second, iv.second);
        } else {
            v[out++] = iv;
        }
    }
    v.resize(out);
}

}  // namespace

CommSummary summarizeComm(const Rank& rank) {
    std::vector<Interval> comm;
    std::vector<Interval> compute;
    for (const auto& s : rank.streams) {
        const auto& e = s.events;
        for (std::size_t i = 0; i < e.size(); ++i) {
            const Interval iv{e.startNs(i), e.endNs(i)};
            const EventKind k = e.kind(i);
            if (k == EventKind::Collective) {
                comm.push_back(iv);
            } else if (k != EventKind::Memcpy && k != EventKind::Memset) {
                compute.push_back(iv);
            }
        }
    }
    unite(comm);
    unite(compute);
    CommSummary out;
    std::size_t j = 0;
    for (const auto& c : comm) {
        out.commNs += static_cast<double>(c.second - c.first);
        double covered = 0;
        while (j < compute.size() && compute[j].second <= c.first) ++j;
        for (std::size_t k = j; k < compute.size() && compute[k].first < c.second; ++k) {
            covered += static_cast<double>(std::min(c.second, compute[k].second) - std::max(c.first, compute[k].first));
        }
        out.exposedNs += static_cast<double>(c.second - c.first) - covered;
    }
    return out;
}

CommSummary summarizeComm(const Trace& trace) {
    CommSummary total;
    for (const auto& r : trace.ranks) {
        const CommSummary s = summarizeComm(r);
        total.commNs += s.commNs;
        total.exposedNs += s.exposedNs;
    }
    return total;
}

}  // namespace tpscope::core::sim
