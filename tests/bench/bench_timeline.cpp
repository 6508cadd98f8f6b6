// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Timeline paint time (issue 7): a 1920x1080 frame of the TimelineView over 1 M and 10 M kernel
// events (8 GPUs x compute + nccl streams, NVTX step/layer/block rows), zoomed fully out, to a
// mid zoom (1/1000 of the trace) and deep (about 40 us on screen). "cold" pans by one pixel before
// every frame, so the level-of-detail draw list is rebuilt (the cost while zooming or panning);
// "warm" repaints an unchanged view from the cached geometry (the cost of hover and selection).
// Target: <= 16 ms per frame at 10 M events; <= 16 ms at 100 M (issue 18). Reported CPU time is the
// whole process's (all threads). TPSCOPE_BENCH_TIMELINE_EVENTS adds one more size (100000000 for the
// 100 M figure: ~2.5 GB resident, about a minute to build; CI keeps 1 M and 10 M).
//
//   build/dev/tests/bench/bench_timeline --benchmark_min_time=0.5
//   build/dev/tests/bench/bench_timeline --benchmark_filter=Timeline   (rows, then the analysis' part)
//   TPSCOPE_BENCH_TIMELINE_EVENTS=100000000 build/dev/tests/bench/bench_timeline --benchmark_filter=events:100000000/
//   build/dev/tests/bench/bench_timeline --benchmark_filter=MatchCollective   (hover: a collective's call)

#include <QApplication>
#include <QImage>

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <random>
#include <vector>

#include "tests/bench/bench_env.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_view.h"

namespace {

using namespace tpscope;

constexpr int kRanks = 8;

// Decode-shaped: per rank, 80 % of the events back-to-back on "compute" (1-30 us), one collective
// on "nccl" after every four compute kernels, a layer every 20 kernels and a step every 1600.
std::shared_ptr<const core::Trace> makeTrace(std::size_t events) {
    auto t = std::make_shared<core::Trace>();
    const core::NameId gemm = t->intern("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x64x64_cublas");
    const core::NameId norm = t->intern("rms_norm_kernel");
    const core::NameId nccl = t->intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    const core::NameId layer = t->intern("layer");
    const core::NameId step = t->intern("step");
    const core::NameId block = t->intern("mlp");
    const std::size_t perRank = events / kRanks;
    for (int r = 0; r < kRanks; ++r) {
        auto& rank = t->rank(core::RankId{static_cast<std::uint32_t>(r)});
        rank.deviceName = "bench GPU";
        rank.stream(core::StreamId{7}, "compute");
        rank.stream(core::StreamId{13}, "nccl");
        rank.streams[0].events.reserve(perRank);
        rank.streams[1].events.reserve(perRank / 4);
        std::mt19937_64 rng(static_cast<std::uint64_t>(r));
        std::uniform_int_distribution<std::int64_t> dur(1'000, 30'000);
        std::int64_t now = 0, layerStart = 0, stepStart = 0;
        for (std::size_t i = 0; i < perRank; ++i) {
            if (i % 5 == 4) {
                const std::int64_t d = 8'000 + static_cast<std::int64_t>(rng() % 4'000);
                rank.streams[1].events.append({now, d, nccl, core::EventKind::Collective, 0, core::kNoPayload});
                now += d;
            } else {
                const std::int64_t d = dur(rng);
                rank.streams[0].events.append({now, d, i % 2 ? gemm : norm,
                                               i % 2 ? core::EventKind::Gemm : core::EventKind::Elementwise, 0,
                                               core::kNoPayload});
                now += d + 800;
            }
            if (i % 20 == 19) {
                rank.ranges.push_back({layerStart, now, layer, 1});
                rank.ranges.push_back({layerStart, (layerStart + now) / 2, block, 2});
                layerStart = now;
            }
            if (i % 1600 == 1599) {
                rank.ranges.push_back({stepStart, now, step, 0});
                stepStart = now;
            }
        }
    }
    t->finalize();
    return t;
}

struct Fixture {
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const ui::TimelineData> data;
};

const Fixture& fixture(std::size_t events) {
    static std::map<std::size_t, Fixture> cache;
    auto it = cache.find(events);
    if (it == cache.end()) {
        Fixture f;
        f.trace = makeTrace(events);
        f.data = ui::TimelineData::build(*f.trace);
        it = cache.emplace(events, std::move(f)).first;
    }
    return it->second;
}

enum Zoom { Out = 0, Mid = 1, Deep = 2 };

void paintFrame(benchmark::State& state, bool cold) {
    const auto events = static_cast<std::size_t>(state.range(0));
    const auto zoom = static_cast<Zoom>(state.range(1));
    const Fixture& f = fixture(events);
    ui::TimelineView view;
    view.resize(1920, 1080);
    view.setTrace(f.trace, f.data);
    const std::int64_t begin = f.trace->startNs(), end = f.trace->endNs();
    const std::int64_t span = zoom == Out ? end - begin : zoom == Mid ? (end - begin) / 1000 : 40'000;
    const std::int64_t t0 = zoom == Out ? begin : begin + (end - begin) / 3;
    view.setVisibleRange(t0, t0 + span);
    QImage image(view.size(), QImage::Format_RGB32);
    const double nsPerPx = static_cast<double>(span) / view.timeAreaWidth();
    std::int64_t shift = 0;
    std::size_t items = 0;
    for (auto _ : state) {
        if (cold) {
            shift = shift == 0 ? static_cast<std::int64_t>(nsPerPx) + 1 : 0;
            view.setVisibleRange(t0 + shift, t0 + shift + span);
        }
        view.render(&image);
        items = view.geometry().itemCount;
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["items"] = static_cast<double>(items);
    state.counters["events"] = static_cast<double>(f.trace->eventCount());
}

void BM_PaintCold(benchmark::State& state) {
    paintFrame(state, true);
}
void BM_PaintWarm(benchmark::State& state) {
    paintFrame(state, false);
}

void zooms(benchmark::internal::Benchmark* b) {
    std::vector<long> sizes{1'000'000L, 10'000'000L};
    if (const auto extra = static_cast<long>(bench::envNumber("TPSCOPE_BENCH_TIMELINE_EVENTS", 0)); extra > 0) {
        sizes.push_back(extra);
    }
    for (const long events : sizes) {
        for (const long zoom : {Out, Mid, Deep}) b->Args({events, zoom});
    }
    // Process CPU time: the level of detail runs rows on the thread pool, and this machine is shared,
    // so wall time says more about the neighbours than about the code.
    b->ArgNames({"events", "zoom(0 out,1 mid,2 deep)"})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
}

BENCHMARK(BM_PaintCold)->Apply(zooms);
BENCHMARK(BM_PaintWarm)->Apply(zooms);

// What a file waits for before its first frame (issue 18): the timeline's rows from the trace alone
// (TimelineData::buildRows), and after the analysis the part that needs it (the collective lookup and
// the clock estimate, sharing the rows). The analysis itself is BM_AnalyzeTrace's.
void BM_TimelineRows(benchmark::State& state) {
    const Fixture& f = fixture(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(ui::TimelineData::buildRows(*f.trace));
    state.counters["events"] = static_cast<double>(f.trace->eventCount());
}
void BM_TimelineAnalysisPart(benchmark::State& state) {
    const Fixture& f = fixture(static_cast<std::size_t>(state.range(0)));
    const auto analysis = std::shared_ptr<const core::analysis::RunAnalysis>(f.data, &f.data->analysis());
    for (auto _ : state) benchmark::DoNotOptimize(ui::TimelineData::build(*f.trace, analysis, f.data.get()));
    state.counters["events"] = static_cast<double>(f.trace->eventCount());
}
void sizes(benchmark::internal::Benchmark* b) {
    b->Arg(1'000'000L)->Arg(10'000'000L)->ArgName("events")->Unit(benchmark::kMillisecond)->UseRealTime();
}
BENCHMARK(BM_TimelineRows)->Apply(sizes);
BENCHMARK(BM_TimelineAnalysisPart)->Apply(sizes);

// Hovering or selecting a collective kernel: TimelineData::matchCollective (its call through core's
// matching, its place among the rank's kernels, the members' times). One lookup an iteration, over
// 4096 kernels of rank 3 spread across the trace. Target: well under 1 ms at 100 M events (a lookup
// per mouse move).
void BM_MatchCollective(benchmark::State& state) {
    const Fixture& f = fixture(static_cast<std::size_t>(state.range(0)));
    const auto& ev = f.trace->ranks[3].streams[1].events;
    std::vector<ui::EventRef> kernels;
    for (std::size_t k = 0; k < 4096; ++k) kernels.push_back({3, 1, ev.size() * k / 4096});
    std::size_t k = 0;
    std::size_t matched = 0;
    for (auto _ : state) {
        // Not const: Google Benchmark 1.9 (Debian 13) deprecates DoNotOptimize of a const object.
        auto match = f.data->matchCollective(*f.trace, kernels[k]);
        matched += match ? 1 : 0;
        benchmark::DoNotOptimize(match);
        k = (k + 1) % kernels.size();
    }
    state.counters["matched"] = static_cast<double>(matched) / static_cast<double>(state.iterations());
    state.counters["events"] = static_cast<double>(f.trace->eventCount());
}
void lookupSizes(benchmark::internal::Benchmark* b) {
    b->Arg(1'000'000L)->Arg(10'000'000L);
    if (const auto extra = static_cast<long>(bench::envNumber("TPSCOPE_BENCH_TIMELINE_EVENTS", 0)); extra > 0) {
        b->Arg(extra);
    }
    b->ArgName("events")->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_MatchCollective)->Apply(lookupSizes);

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
