// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Event-model benchmark: builds a decode-shaped trace of N kernel events (default 10 M, 8 ranks)
// and reports resident bytes per event and the time of a visible-range query.
//   build/dev/tests/bench/bench_trace --benchmark_counters_tabular=true

#include <benchmark/benchmark.h>

#include <random>

#include "core/trace/trace.h"

namespace tpscope::core {
namespace {

// Ten kernels per layer like a TP decode step: 4 GEMMs, attention, 3 elementwise, 2 all-reduces.
Trace buildDecodeTrace(std::size_t events, int ranks) {
    Trace t;
    const EventKind pattern[] = {
        EventKind::Elementwise, EventKind::Gemm, EventKind::Attention,   EventKind::Gemm, EventKind::Collective,
        EventKind::Elementwise, EventKind::Gemm, EventKind::Elementwise, EventKind::Gemm, EventKind::Collective};
    NameId names[10];
    for (int i = 0; i < 10; ++i) names[i] = t.intern("kernel_" + std::to_string(i));
    CollectivePayload c;
    c.op = CollectiveOp::AllReduce;
    c.bytes = 16384;
    const PayloadId collective = t.intern(Payload::of(c));
    const PayloadId gemm = t.intern(Payload::of(GemmPayload{1, 10240, 8192, Dtype::Fp16}));
    std::mt19937 rng(1);
    const std::size_t perRank = events / static_cast<std::size_t>(ranks);
    for (int r = 0; r < ranks; ++r) {
        Stream& s = t.rank(RankId{static_cast<std::uint32_t>(r)}).stream(StreamId{7}, "compute");
        s.events.reserve(perRank);
        std::int64_t now = 0;
        for (std::size_t i = 0; i < perRank; ++i) {
            const int k = static_cast<int>(i % 10);
            EventRecord e;
            e.startNs = now;
            e.durNs = 2000 + static_cast<std::int64_t>(rng() % 20000);
            e.name = names[k];
            e.kind = pattern[k];
            e.correlationId = static_cast<std::uint32_t>(i);
            e.payload =
                pattern[k] == EventKind::Collective ? collective : (pattern[k] == EventKind::Gemm ? gemm : kNoPayload);
            s.events.append(e);
            now += e.durNs + 1500;
        }
    }
    t.finalize();
    return t;
}

void BM_BuildTrace(benchmark::State& state) {
    const auto events = static_cast<std::size_t>(state.range(0));
    double bytesPerEvent = 0;
    for (auto _ : state) {
        Trace t = buildDecodeTrace(events, 8);
        bytesPerEvent = static_cast<double>(t.residentBytes()) / static_cast<double>(t.eventCount());
        benchmark::DoNotOptimize(t);
    }
    state.counters["bytes_per_event"] = bytesPerEvent;
    state.counters["events_per_s"] =
        benchmark::Counter(static_cast<double>(events) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BuildTrace)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_VisibleRange(benchmark::State& state) {
    static const Trace t = buildDecodeTrace(10'000'000, 8);
    const auto& events = t.ranks[3].streams[0].events;
    const std::int64_t span = events.lastEndNs() - events.firstStartNs();
    const std::int64_t window = span / state.range(0);
    std::mt19937_64 rng(7);
    std::size_t found = 0;
    for (auto _ : state) {
        const std::int64_t t0 = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span - window + 1));
        // Not const: Google Benchmark 1.9 (Debian 13) deprecates DoNotOptimize of a const object.
        auto r = events.visibleRange(t0, t0 + window);
        found += r.size();
        benchmark::DoNotOptimize(r);
    }
    state.counters["events_in_window"] = static_cast<double>(found) / static_cast<double>(state.iterations());
}
// Window = span / N: N = 1 is fully zoomed out, 1e6 is deep zoom.
BENCHMARK(BM_VisibleRange)->Arg(1)->Arg(1000)->Arg(1'000'000)->Unit(benchmark::kNanosecond);

}  // namespace
}  // namespace tpscope::core

BENCHMARK_MAIN();
