// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// core::visibleSpans on one row of 1 M and 10 M events: the level-of-detail cost of one timeline
// row per frame, fully zoomed out and at a mid zoom, for a 1920-pixel row.
//
//   build/dev/tests/bench/bench_level_of_detail --benchmark_min_time=0.3

#include <benchmark/benchmark.h>

#include <map>
#include <random>

#include "core/trace/level_of_detail.h"

namespace {

using namespace tpscope::core;

const EventColumns& stream(std::size_t n) {
    static std::map<std::size_t, EventColumns> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    EventColumns c;
    c.reserve(n);
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<std::int64_t> dur(1'000, 30'000);
    std::int64_t now = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t d = dur(rng);
        c.append({now, d, NameId{1}, static_cast<EventKind>(i % 4), 0, kNoPayload});
        now += d + 800;
    }
    c.finalize();
    return cache.emplace(n, std::move(c)).first->second;
}

void BM_VisibleSpans(benchmark::State& state) {
    const auto& c = stream(static_cast<std::size_t>(state.range(0)));
    const std::int64_t full = c.lastEndNs() - c.firstStartNs();
    const std::int64_t span = full / state.range(1);
    const std::int64_t t0 = c.firstStartNs() + (full - span) / 3;
    std::vector<LodSpan> out;
    for (auto _ : state) {
        visibleSpans(c, t0, t0 + span, 1920, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["items"] = static_cast<double>(out.size());
}
BENCHMARK(BM_VisibleSpans)
    ->Args({1'000'000, 1})
    ->Args({1'000'000, 1000})
    ->Args({10'000'000, 1})
    ->Args({10'000'000, 1000})
    ->ArgNames({"events", "zoom divisor"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
