// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/repeat_layers.h"

#include <algorithm>
#include <bit>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/trace/event_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tpscope::core::analysis {

namespace {

constexpr std::size_t kMinPeriod = 4;

bool heavy(EventKind k) {
    return k == EventKind::Gemm || k == EventKind::Collective;
}

struct Region {
    std::size_t begin = 0;  // kernels [begin, end) repeat with the period
    std::size_t end = 0;
};

// Bit j of the result: t[j] == t[j + p], for j < count <= 64. Four tokens a compare where SSE2 is
// there (every x86-64): the period search compares up to m x kMaxPeriod pairs per window.
std::uint64_t equalMask(const std::uint32_t* t, std::size_t p, std::size_t count) {
    std::uint64_t mask = 0;
    std::size_t j = 0;
#if defined(__SSE2__)
    for (; j + 4 <= count; j += 4) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + j));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t + j + p));
        const auto bits = static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b))));
        mask |= static_cast<std::uint64_t>(bits) << j;
    }
#endif
    for (; j < count; ++j) mask |= static_cast<std::uint64_t>(t[j] == t[j + p]) << j;
    return mask;
}

// First position j >= i (i < len) where t[j] != t[j + p], or len. A few positions one by one (the
// usual short run), then 64 at a time from a bit mask.
std::size_t runEnd(const std::uint32_t* t, std::size_t p, std::size_t i, std::size_t len) {
    for (const std::size_t stop = std::min(len, i + 8); i < stop; ++i) {
        if (t[i] != t[i + p]) return i;
    }
    while (i < len) {
        const std::size_t count = std::min<std::size_t>(64, len - i);
        const auto ones = static_cast<std::size_t>(std::countr_one(equalMask(t + i, p, count)));  // bits past count: 0
        i += ones;
        if (ones < count) return i;
    }
    return len;
}

// First position of the run of t[j] == t[j + p] that holds position i (an equal one), going down
// no further than `floor`.
std::size_t runStart(const std::uint32_t* t, std::size_t p, std::size_t i, std::size_t floor) {
    for (const std::size_t stop = i - std::min(i - floor, std::size_t{8}); i > stop; --i) {
        if (t[i - 1] != t[i - 1 + p]) return i;
    }
    while (i > floor) {
        const std::size_t count = std::min<std::size_t>(64, i - floor);
        const std::uint64_t eq = equalMask(t + i - count, p, count);
        const auto ones = static_cast<std::size_t>(std::countl_one(eq << (64 - count)));
        i -= ones;
        if (ones < count) return i;
    }
    return floor;
}

// Calls f(Region) for each maximal run of t[i] == t[i + p] that spans at least p positions, as the
// region [first i of the run, last i + 1 + p), in order. A run that long holds a multiple of p, so
// only those positions are tried, and a run is followed out from one that matches: O(m / p) plus the
// runs touched, where comparing every position was O(m) for each of up to m / 2 periods (a window
// without a period tries them all).
template <typename F>
void forEachRegion(std::span<const std::uint32_t> t, std::size_t p, F&& f) {
    if (p == 0 || t.size() <= p) return;
    const std::uint32_t* d = t.data();
    const std::size_t len = t.size() - p;  // positions i that have a partner i + p
    std::size_t known = 0;                 // positions below this one belong to runs already followed
    for (std::size_t i = 0; i < len; i += p) {
        if (i < known || d[i] != d[i + p]) continue;
        // The run cannot reach back past the last sample (it was unequal, or inside a run followed).
        const std::size_t first = runStart(d, p, i, known);
        const std::size_t end = runEnd(d, p, i + 1, len);
        if (end - first >= p) f(Region{first, end + p});
        known = end + 1;  // position `end` is unequal (or past the last)
    }
}

std::vector<std::uint32_t> tokensOf(std::span<const RepeatKernel> s) {
    std::vector<std::uint32_t> t(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) t[i] = s[i].token;
    return t;
}

std::vector<Region> regions(std::span<const std::uint32_t> t, std::size_t p) {
    std::vector<Region> out;
    forEachRegion(t, p, [&](const Region& r) { out.push_back(r); });
    return out;
}

std::size_t gemmsIn(std::span<const RepeatKernel> s, std::size_t from, std::size_t p) {
    std::size_t n = 0;
    for (std::size_t i = from; i < from + p && i < s.size(); ++i) n += s[i].kind == EventKind::Gemm ? 1 : 0;
    return n;
}

bool acceptable(std::span<const RepeatKernel> s, std::size_t p, const RepeatCoverage& c, std::size_t scanned) {
    return c.covered * 2 >= scanned && c.firstRegion != SIZE_MAX && gemmsIn(s, c.firstRegion, p) >= 2;
}

std::size_t findPeriod(std::span<const RepeatKernel> kernels, std::size_t hint) {
    const auto scan = kernels.first(std::min(kernels.size(), kMaxScan));
    const std::size_t m = scan.size();
    const std::vector<std::uint32_t> tokens = tokensOf(scan);
    const auto coverage = [&](std::size_t p) { return repeatCoverage(tokens, p); };
    if (hint >= kMinPeriod && 2 * hint <= m) {
        // The previous step's period still covering most of this one: steps look alike.
        const RepeatCoverage c = coverage(hint);
        if (c.covered * 5 >= m * 4 && acceptable(scan, hint, c, m)) return hint;
    }
    const std::size_t maxPeriod = std::min(m / 2, kMaxPeriod);
    if (maxPeriod < kMinPeriod) return 0;
    std::vector<RepeatCoverage> cov(maxPeriod + 1);
    std::size_t best = 0;
    for (std::size_t p = kMinPeriod; p <= maxPeriod; ++p) {
        cov[p] = coverage(p);
        best = std::max(best, cov[p].covered);
        // Most of the window repeats with this period: no longer one can do better (O(m x p) then).
        if (cov[p].covered * 5 >= m * 4 && acceptable(scan, p, cov[p], m)) return p;
    }
    for (std::size_t p = kMinPeriod; p <= maxPeriod; ++p) {
        if (cov[p].covered * 5 >= best * 4 && acceptable(scan, p, cov[p], m)) return p;
    }
    return 0;
}

// Offset in the unit s[a, a+p) where a layer starts (see the header, step 3).
std::size_t layerPhase(std::span<const RepeatKernel> s, std::size_t a, std::size_t p) {
    auto kind = [&](std::size_t u) { return s[a + u % p].kind; };
    auto prev = [&](std::size_t u) { return (u + p - 1) % p; };
    std::size_t attention = p;
    for (std::size_t u = 0; u < p; ++u) {
        if (kind(u) == EventKind::Attention) {
            attention = u;
            break;
        }
    }
    if (attention == p) {
        for (std::size_t u = 0; u < p; ++u) {
            if (!heavy(kind(u)) && heavy(kind(prev(u)))) return u;
        }
        return 0;
    }
    std::size_t j = prev(attention);
    std::size_t steps = 0;
    while (!heavy(kind(j)) && ++steps < p) j = prev(j);                   // rope, cache writes
    while (kind(prev(j)) == EventKind::Gemm && ++steps < p) j = prev(j);  // the QKV GEMMs
    std::size_t k = prev(j);
    while (!heavy(kind(k)) && ++steps < p) k = prev(k);  // the input norm
    return (k + 1) % p;
}

// Where the layer that holds the attention run at `attention` starts, in the unit s[a, a + p): step 3's
// walk back (rope and cache writes, the QKV GEMMs, the input norm) to just after the heavy kernel
// before them, without wrapping; 0 when the walk reaches the unit's start.
std::size_t layerStartBefore(std::span<const RepeatKernel> s, std::size_t a, std::size_t attention) {
    auto kind = [&](std::size_t u) { return s[a + u].kind; };
    std::size_t j = attention;
    while (j > 0 && !heavy(kind(j - 1))) --j;
    while (j > 0 && kind(j - 1) == EventKind::Gemm) --j;
    while (j > 0 && !heavy(kind(j - 1))) --j;
    return j;
}

// Starts of maximal runs of kernels of `kind` in the unit s[a, a + p).
std::vector<std::size_t> runStarts(std::span<const RepeatKernel> s, std::size_t a, std::size_t p, EventKind kind) {
    std::vector<std::size_t> out;
    for (std::size_t u = 0; u < p; ++u) {
        if (s[a + u].kind == kind && (u == 0 || s[a + u - 1].kind != kind)) out.push_back(u);
    }
    return out;
}

// Step 5: the offsets in a layer-aligned unit s[a, a + p) where its layers start (the first is 0);
// one offset when the unit is one layer.
std::vector<std::size_t> unitLayerStarts(std::span<const RepeatKernel> s, std::size_t a, std::size_t p, UnitSplit& by) {
    by = UnitSplit::None;
    std::vector<std::size_t> starts{0};
    const auto attention = runStarts(s, a, p, EventKind::Attention);
    std::vector<std::size_t> cand;
    if (attention.size() >= 2) {
        for (std::size_t j = 1; j < attention.size(); ++j) cand.push_back(layerStartBefore(s, a, attention[j]));
        by = UnitSplit::Attention;
    } else {
        const auto coll = runStarts(s, a, p, EventKind::Collective);
        if (coll.size() < 4 || coll.size() % 2 != 0) return starts;
        // The unit starts after a layer's last collective (step 3): a layer ends after every second one.
        for (std::size_t j = 2; j < coll.size(); j += 2) {
            std::size_t end = coll[j - 1];
            while (end < p && s[a + end].kind == EventKind::Collective) ++end;
            cand.push_back(end);
        }
        by = UnitSplit::Collectives;
    }
    cand.push_back(p);
    // Every layer holds its projections: at least two GEMMs, else the runs are one layer's.
    std::size_t from = 0;
    for (const std::size_t to : cand) {
        if (to <= from || gemmsIn(s, a + from, to - from) < 2) {
            by = UnitSplit::None;
            return {0};
        }
        if (to < p) starts.push_back(to);
        from = to;
    }
    return starts;
}

// Splits each layer of `r` (p kernels, or a few more or fewer where an extra kernel interrupted it)
// at the unit's layer starts; indices become index x k + j. Of each tail (a region's part after its
// last whole period), the unit's layers that it holds whole are layers too.
void splitUnits(std::span<const RepeatKernel> kernels, RepeatResult& r, const std::vector<RepeatLayer>& tails) {
    if (r.layers.empty()) return;
    const std::size_t p = r.period;
    // A unit inside the periodic region: the second layer of the first pass when it has one (the
    // first may have taken prologue kernels).
    const RepeatLayer& model =
        r.layers.size() > 1 && r.layers[1].pass == r.layers[0].pass && r.layers[1].last - r.layers[1].first == p
            ? r.layers[1]
            : r.layers[0];
    if (model.first + p > kernels.size()) return;
    const auto starts = unitLayerStarts(kernels, model.first, p, r.splitBy);
    const std::size_t k = starts.size();
    if (k < 2) return;
    std::vector<RepeatLayer> split;
    split.reserve(r.layers.size() * k);
    for (const RepeatLayer& l : r.layers) {
        const std::size_t len = l.last - l.first;
        for (std::size_t j = 0; j < k; ++j) {
            const std::size_t first = l.first + std::min(starts[j], len);
            const std::size_t last = j + 1 < k ? l.first + std::min(starts[j + 1], len) : l.last;
            if (last <= first) continue;
            split.push_back({first, last, l.pass, l.index * static_cast<int>(k) + static_cast<int>(j)});
        }
    }
    bool tailLayers = false;
    for (const RepeatLayer& t : tails) {
        for (std::size_t j = 0; j + 1 < k && starts[j + 1] <= t.last - t.first; ++j) {
            split.push_back({t.first + starts[j], t.first + starts[j + 1], t.pass,
                             t.index * static_cast<int>(k) + static_cast<int>(j)});
            tailLayers = true;
        }
    }
    if (tailLayers) {
        std::stable_sort(split.begin(), split.end(),
                         [](const RepeatLayer& a, const RepeatLayer& b) { return a.first < b.first; });
    }
    r.layers = std::move(split);
    r.layersPerUnit = k;
}

}  // namespace

RepeatCoverage repeatCoverage(std::span<const std::uint32_t> tokens, std::size_t p) {
    RepeatCoverage c;
    forEachRegion(tokens, p, [&](const Region& r) {
        c.covered += r.end - r.begin;
        c.firstRegion = std::min(c.firstRegion, r.begin);
    });
    return c;
}

namespace {

// Sorts `kernels` by start, stably, given the ends of runs that are each (nearly always) in start
// order already: the streams of a rank. Adjacent runs are merged pairwise, bottom up, so ties keep
// their run order as a stable sort of the whole would, in O(n log runs) instead of O(n log n) (the
// sort was ~17 % of the analysis of a 1 M-event trace without NVTX).
void mergeRunsByStart(std::vector<RepeatKernel>& kernels, const std::vector<std::size_t>& runEnds) {
    auto byStart = [](const RepeatKernel& a, const RepeatKernel& b) { return a.startNs < b.startNs; };
    std::vector<std::size_t> bounds{0};
    for (const std::size_t end : runEnds) {
        if (end == bounds.back()) continue;  // a stream without kernels
        const auto first = kernels.begin() + static_cast<std::ptrdiff_t>(bounds.back());
        const auto last = kernels.begin() + static_cast<std::ptrdiff_t>(end);
        if (!std::is_sorted(first, last, byStart)) std::stable_sort(first, last, byStart);
        bounds.push_back(end);
    }
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{0};
        merged.reserve(bounds.size() / 2 + 2);
        std::size_t i = 0;
        for (; i + 2 < bounds.size(); i += 2) {
            std::inplace_merge(kernels.begin() + static_cast<std::ptrdiff_t>(bounds[i]),
                               kernels.begin() + static_cast<std::ptrdiff_t>(bounds[i + 1]),
                               kernels.begin() + static_cast<std::ptrdiff_t>(bounds[i + 2]), byStart);
            merged.push_back(bounds[i + 2]);
        }
        if (i + 1 < bounds.size()) merged.push_back(bounds.back());  // an odd run out: merged next round
        bounds = std::move(merged);
    }
}

}  // namespace

std::vector<RepeatKernel> repeatKernels(const Trace& trace, const Rank& rank) {
    std::unordered_map<std::uint32_t, std::uint32_t> tokenOfName;
    std::unordered_map<std::string, std::uint32_t> tokenOfFamily;
    auto token = [&](NameId name) {
        const auto it = tokenOfName.find(name.value);
        if (it != tokenOfName.end()) return it->second;
        std::string_view text = trace.name(name);
        if (const auto paren = text.find('('); paren != std::string_view::npos) text = text.substr(0, paren);
        std::string family;
        family.reserve(text.size());
        for (const char c : text) {
            if (c < '0' || c > '9') family += c;
        }
        const auto t =
            tokenOfFamily.emplace(std::move(family), static_cast<std::uint32_t>(tokenOfFamily.size())).first->second;
        tokenOfName.emplace(name.value, t);
        return t;
    };
    std::vector<RepeatKernel> out;
    out.reserve(rank.eventCount());
    std::vector<std::size_t> runEnds;  // each stream's kernels are one run, in start order
    runEnds.reserve(rank.streams.size());
    for (const auto& stream : rank.streams) {
        EventScan ev(stream.events, EventScan::kStarts | EventScan::kDurations | EventScan::kKinds | EventScan::kNames);
        for (std::size_t i = 0, n = ev.size(); i < n; ++i) {
            const EventScan::Event e = ev.at(i);
            const auto kind = static_cast<EventKind>(e.kind);
            if (kind == EventKind::Memcpy || kind == EventKind::Memset) continue;
            out.push_back({e.startNs, e.startNs + e.durNs, token(e.name), kind});
        }
        runEnds.push_back(out.size());
    }
    mergeRunsByStart(out, runEnds);
    return out;
}

RepeatResult findRepeatLayers(std::span<const RepeatKernel> kernels, std::size_t hintPeriod) {
    RepeatResult result;
    const std::size_t p = findPeriod(kernels, hintPeriod);
    if (p == 0) return result;
    const auto regs = regions(tokensOf(kernels), p);
    std::size_t layersEnd = 0;  // where the last layer found ends: nothing before it is taken again
    std::size_t pass = 0;
    std::size_t passLayers = 0;
    std::vector<std::size_t> layersPerPass;
    std::vector<RepeatLayer> tails;  // the part of a region after its last whole period
    bool started = false;
    for (const Region& reg : regs) {
        const std::size_t d = layerPhase(kernels, reg.begin, p);
        std::size_t layerStart = reg.begin + d;
        std::size_t next = layerStart + p;
        // A few extra (or missing) kernels broke the repeat inside a layer when the region's first
        // boundary at least half a period on is about one period after the last layer: they belong to
        // the layer they interrupt. A longer stretch (LM head, sampling, embedding) starts a new pass.
        bool continues = false;
        if (started && reg.begin < layersEnd + p) {
            std::size_t boundary = reg.begin + d;
            while (boundary < layersEnd + (p + 1) / 2) boundary += p;
            const std::size_t span = boundary - layersEnd;
            const std::size_t slack = std::max<std::size_t>(2, p / 8);
            continues = span + slack >= p && span <= p + slack;
            if (continues) next = boundary;
        }
        if (continues) {
            if (!tails.empty() && tails.back().first >= layersEnd) tails.pop_back();  // this region goes on there
            layerStart = layersEnd;
        } else {
            // Layer 0 differs from the others at its start (no residual input) when the region starts
            // late in it; otherwise the kernels before the region that repeat are the prologue's.
            if (d > 0 && p - d < d && reg.begin + d >= layersEnd + p) {
                layerStart = reg.begin + d - p;
                next = reg.begin + d;
            }
            while (layerStart < layersEnd) {
                layerStart += p;
                next = layerStart + p;
            }
        }
        const bool newPass = started && !continues;
        if (newPass && next <= reg.end) {
            layersPerPass.push_back(passLayers);
            ++pass;
            passLayers = 0;
        }
        while (next <= reg.end) {
            result.layers.push_back({layerStart, next, pass, static_cast<int>(passLayers++)});
            layerStart = next;
            next += p;
        }
        if (passLayers > 0) {
            layersEnd = result.layers.back().last;
            started = true;
            // Less than a period still repeating after the last whole one: whole layers of a unit of
            // several (step 5: 5 layers of a sliding/full pair end with a lone sliding layer).
            if (layerStart == layersEnd && layerStart < reg.end) {
                tails.push_back({layerStart, reg.end, pass, static_cast<int>(passLayers)});
            }
        }
    }
    if (!started) return result;
    layersPerPass.push_back(passLayers);
    result.period = p;
    result.passes = pass + 1;
    // A first pass cut by the profiler (no prologue before it) holds the last layers of its pass.
    const std::size_t longest = *std::max_element(layersPerPass.begin(), layersPerPass.end());
    if (result.passes > 1 && layersPerPass[0] < longest && result.layers.front().first < p) {
        const auto shift = static_cast<int>(longest - layersPerPass[0]);
        for (auto& l : result.layers) {
            if (l.pass == 0) l.index += shift;
        }
        for (auto& l : tails) {
            if (l.pass == 0) l.index += shift;
        }
    }
    splitUnits(kernels, result, tails);
    return result;
}

}  // namespace tpscope::core::analysis
