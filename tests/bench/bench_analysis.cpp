// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Full analysis (segmentation, matching, breakdown, summary) of a decode-like trace built in
// memory: 8 ranks, per layer 10 kernels (norm, QKV, attention, O-proj, all-reduce, norm, gate/up,
// SiLU, down, all-reduce) with NVTX step > layer > block ranges and seeded per-rank jitter, so
// ranks arrive at each all-reduce at different times. Targets: 10 M events in <= 2 s on one core
// (issue 4), 100 M in <= 15 s on 2 cores (issue 18), analysis memory <= the trace's own. Counters: events, trace_MB
// (resident), result_MB (heap held by the result), peak_extra_MB (rise of the process peak RSS during the analysis,
// measured by resetting VmHWM through /proc/self/clear_refs), main_cpu_ms (CPU time of the calling thread in the last
// iteration: serial stages plus its share of the per-rank tasks, so about the wall time on idle cores, one per worker).
// TPSCOPE_BENCH_ANALYSIS_THREADS=N sets AnalysisOptions::threads and the ByRanks benchmarks' threads (default 0: one
// per hardware thread).
//
// CPU time is the process's (all threads), Time is wall. 100 M events (~2.5 GB of trace) only with
// TPSCOPE_BENCH_ANALYSIS_100M=1.
//
//   build/dev/tests/bench/bench_analysis --benchmark_filter=10M
//   TPSCOPE_BENCH_ANALYSIS_100M=1 build/dev/tests/bench/bench_analysis --benchmark_filter=100M
//   build/dev/tests/bench/bench_analysis --benchmark_filter=ByRanks   # matching and clock offsets at 8/32/72 ranks
//   build/dev/tests/bench/bench_analysis --benchmark_filter=Simulated  # a simulated trace with host rows

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/analysis/collective_matching.h"
#include "core/analysis/host_idle.h"
#include "core/analysis/repeat_layers.h"
#include "core/analysis/synced_analysis.h"
#include "core/hw/catalog.h"
#include "core/sim/simulator.h"
#include "core/trace/trace.h"

namespace {

using namespace tpscope::core;

constexpr int kDefaultRanks = 8;
constexpr int kLayersPerStep = 80;
constexpr int kKernelsPerLayer = 10;
constexpr int kCollectivesPerLayer = 2;

std::shared_ptr<const Trace> makeTrace(std::size_t totalEvents, int kRanks = kDefaultRanks) {
    auto trace = std::make_shared<Trace>();
    trace->origin = TraceOrigin::Simulated;
    trace->metadata = {{"tp", std::to_string(kRanks)}, {"batch", "16"}};
    const std::size_t layers = totalEvents / (static_cast<std::size_t>(kRanks) * kKernelsPerLayer);
    const std::size_t steps = (layers + kLayersPerStep - 1) / kLayersPerStep;
    const NameId names[kKernelsPerLayer] = {trace->intern("rms_norm_kernel"),
                                            trace->intern("sm90_xmma_gemm_qkv"),
                                            trace->intern("flash_fwd_splitkv_kernel"),
                                            trace->intern("sm90_xmma_gemm_oproj"),
                                            trace->intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"),
                                            trace->intern("rms_norm_kernel"),
                                            trace->intern("sm90_xmma_gemm_gateup"),
                                            trace->intern("act_and_mul_kernel"),
                                            trace->intern("sm90_xmma_gemm_down"),
                                            trace->intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL")};
    const EventKind kinds[kKernelsPerLayer] = {
        EventKind::Elementwise, EventKind::Gemm, EventKind::Attention,   EventKind::Gemm, EventKind::Collective,
        EventKind::Elementwise, EventKind::Gemm, EventKind::Elementwise, EventKind::Gemm, EventKind::Collective};
    const std::int64_t durs[kKernelsPerLayer] = {4000, 30000, 20000, 12000, 0, 4000, 60000, 5000, 30000, 0};
    CollectivePayload ar;
    ar.op = CollectiveOp::AllReduce;
    ar.bytes = 16 * 8192 * 2;
    ar.groupSize = static_cast<std::uint32_t>(kRanks);
    ar.communicator = trace->intern("tp");
    const PayloadId arPayload = trace->intern(Payload::of(ar));
    const NameId stepName = trace->intern("step");
    const NameId attn = trace->intern("attention");
    const NameId mlp = trace->intern("mlp");
    std::vector<NameId> layerNames;
    for (int l = 0; l < kLayersPerStep; ++l) layerNames.push_back(trace->intern("layer " + std::to_string(l)));
    for (int r = 0; r < kRanks; ++r) {
        auto& rank = trace->rank(RankId{static_cast<std::uint32_t>(r)});
        rank.stream(StreamId{7}, "compute").events.reserve(layers * kKernelsPerLayer);
        rank.ranges.reserve(steps + layers * 3);
    }
    std::uint64_t lcg = 12345;
    auto jitter = [&lcg] {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::int64_t>((lcg >> 33) % 3000);
    };
    std::int64_t t = 0;
    std::vector<std::int64_t> arrive(static_cast<std::size_t>(kRanks), 0);
    std::int64_t layerStart = 0;
    std::int64_t blockStart = 0;
    std::int64_t stepStart = 0;
    for (std::size_t layer = 0; layer < layers; ++layer) {
        const int inStep = static_cast<int>(layer % kLayersPerStep);
        if (inStep == 0) stepStart = t;
        layerStart = t;
        blockStart = t;
        for (int k = 0; k < kKernelsPerLayer; ++k) {
            if (kinds[k] == EventKind::Collective) {
                std::int64_t last = 0;
                for (int r = 0; r < kRanks; ++r) last = std::max(last, arrive[r]);
                const std::int64_t end = last + 9000;
                for (int r = 0; r < kRanks; ++r) {
                    trace->ranks[r].streams[0].events.append(
                        {arrive[r], end - arrive[r], names[k], kinds[k], 0, arPayload});
                    trace->ranks[r].ranges.push_back({blockStart, end, k == 4 ? attn : mlp, 2});
                }
                t = end;
                blockStart = end;
                continue;
            }
            for (int r = 0; r < kRanks; ++r) {
                const std::int64_t start = (k == 0 || k == 5) ? t + 1500 : arrive[r] + 800;
                const std::int64_t dur = durs[k] + jitter();
                trace->ranks[r].streams[0].events.append({start, dur, names[k], kinds[k], 0, kNoPayload});
                arrive[r] = start + dur;
            }
        }
        for (int r = 0; r < kRanks; ++r) {
            trace->ranks[r].ranges.push_back({layerStart, t, layerNames[inStep], 1});
            if (inStep == kLayersPerStep - 1 || layer + 1 == layers) {
                trace->ranks[r].ranges.push_back({stepStart, t, stepName, 0});
            }
        }
    }
    trace->finalize();
    return trace;
}

std::size_t peakRssBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
}

std::size_t currentRssBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
}

// CPU time of the calling thread: the analysis's critical path when every worker has a core of its own.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// TPSCOPE_BENCH_ANALYSIS_THREADS, else 0 (one per hardware thread).
unsigned benchThreads() {
    const char* env = std::getenv("TPSCOPE_BENCH_ANALYSIS_THREADS");
    return env != nullptr ? static_cast<unsigned>(std::atoi(env)) : 0;
}

void resetPeakRss() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

void BM_AnalyzeTrace(benchmark::State& state) {
    const auto trace = makeTrace(static_cast<std::size_t>(state.range(0)));
    std::size_t resultBytes = 0;
    std::size_t peakExtra = 0;
    double mainCpuMs = 0;
    analysis::AnalysisOptions options;
    options.threads = benchThreads();
    for (auto _ : state) {
        state.PauseTiming();
        resetPeakRss();
        const std::size_t before = currentRssBytes();
        const double mainBefore = threadCpuMs();
        state.ResumeTiming();
        auto a = analysis::analyzeTrace(*trace, options);
        state.PauseTiming();
        mainCpuMs = threadCpuMs() - mainBefore;
        resultBytes = a.residentBytes();
        const std::size_t peak = peakRssBytes();
        peakExtra = peak > before ? peak - before : 0;
        benchmark::DoNotOptimize(a.summary.tokensPerSec);
        { auto discard = std::move(a); }
        state.ResumeTiming();
    }
    state.counters["events"] = static_cast<double>(trace->eventCount());
    state.counters["trace_MB"] = static_cast<double>(trace->residentBytes()) / 1e6;
    state.counters["result_MB"] = static_cast<double>(resultBytes) / 1e6;
    state.counters["peak_extra_MB"] = static_cast<double>(peakExtra) / 1e6;
    state.counters["main_cpu_ms"] = mainCpuMs;
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace->eventCount()));
}

// The same trace without its NVTX ranges, as an imported trace comes: the pattern rule and the
// repeating kernel sequence (issue 27) both segment each rank, and the pattern rule is kept when they agree.
void BM_AnalyzeTraceWithoutNvtx(benchmark::State& state) {
    Trace trace = *makeTrace(static_cast<std::size_t>(state.range(0)));
    for (auto& rank : trace.ranks) rank.ranges.clear();
    analysis::AnalysisOptions options;
    options.threads = benchThreads();
    std::string source;
    for (auto _ : state) {
        auto a = analysis::analyzeTrace(trace, options);
        source = std::string(analysis::toString(a.segmentation.ranks.at(0).source));
        benchmark::DoNotOptimize(a.summary.tokensPerSec);
    }
    state.SetLabel(source);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.eventCount()));
}
BENCHMARK(BM_AnalyzeTraceWithoutNvtx)
    ->Name("AnalyzeTraceWithoutNvtx/1M")
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// CPU time is the whole process's (the analysis runs on worker threads); Time is wall.
BENCHMARK(BM_AnalyzeTrace)
    ->Name("AnalyzeTrace/1M")
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_AnalyzeTrace)
    ->Name("AnalyzeTrace/10M")
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// Collective matching and the clock-offset estimate must stay linear in ranks x calls (issue 31: an
// NVL72 domain is 72 ranks): the same 10,000 layers (20,000 all-reduces a rank) on 8, 32 and 72
// ranks. time_per_rank_call is the wall time over ranks x calls (seconds, "n" = ns): flat when linear.
void setRankCallCounters(benchmark::State& state, int ranks, std::size_t layers) {
    const double rankCalls = static_cast<double>(ranks) * static_cast<double>(layers * kCollectivesPerLayer);
    state.counters["rank_calls"] = rankCalls;
    state.counters["time_per_rank_call"] = benchmark::Counter(
        rankCalls * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

constexpr std::size_t kScalingLayers = 10'000;

void byRanks(benchmark::internal::Benchmark* b) {
    b->Arg(8)->Arg(32)->Arg(72)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
}

void BM_MatchCollectivesByRanks(benchmark::State& state) {
    const int ranks = static_cast<int>(state.range(0));
    const auto trace = makeTrace(kScalingLayers * kKernelsPerLayer * static_cast<std::size_t>(ranks), ranks);
    const analysis::Segmentation segmentation = analysis::segmentLayers(*trace);
    for (auto _ : state) {
        const auto m = analysis::matchCollectives(*trace, segmentation, {}, benchThreads());
        benchmark::DoNotOptimize(m.calls.size());
    }
    setRankCallCounters(state, ranks, kScalingLayers);
}
BENCHMARK(BM_MatchCollectivesByRanks)->Apply(byRanks);

void BM_ClockOffsetsByRanks(benchmark::State& state) {
    const int ranks = static_cast<int>(state.range(0));
    const auto trace = makeTrace(kScalingLayers * kKernelsPerLayer * static_cast<std::size_t>(ranks), ranks);
    for (auto _ : state) {
        // Not const: Google Benchmark 1.9 (Debian 13) deprecates DoNotOptimize of a const object.
        auto c = analysis::estimateClockOffsets(*trace, analysis::gatherCollectiveKernels(*trace, benchThreads()));
        benchmark::DoNotOptimize(c.callsUsed);
    }
    setRankCallCounters(state, ranks, kScalingLayers);
}
BENCHMARK(BM_ClockOffsetsByRanks)->Apply(byRanks);

// A simulated trace with host rows, as `tpscope-cli simulate --model llama3-70b --gpu h100-sxm --fabric
// nvlink4 --tp 8 --batch 1 --tokens N` writes it (eager: one launch call a kernel on one launch thread,
// correlation ids rising along it and the stream; 6,440 kernels and as many launch calls a token over
// the 8 ranks). makeTrace() has no host rows, so the host-idle walk (host_idle.cpp) runs only here.
std::shared_ptr<const Trace> simulatedTrace(int tokens) {
    static const Catalog catalog = *Catalog::builtin();
    sim::SimConfig c;
    c.plan.model = *catalog.model("llama3-70b");
    c.plan.tp = 8;
    c.plan.batch = 1;
    c.cluster.gpu = *catalog.gpu("h100-sxm");
    c.cluster.intraFabric = *catalog.fabric("nvlink4");
    c.tokens = tokens;
    auto r = sim::simulate(c);
    return r ? r->trace : nullptr;
}

void setSimulatedCounters(benchmark::State& state, const Trace& trace) {
    state.counters["events"] = static_cast<double>(trace.eventCount());
    state.counters["host_events"] = static_cast<double>(trace.hostEventCount());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace.eventCount()));
}

// The host-idle finding alone (attributeIdleToHost): every kernel against its launch call.
void BM_HostIdleSimulated(benchmark::State& state) {
    const auto trace = simulatedTrace(static_cast<int>(state.range(0)));
    if (trace == nullptr) {
        state.SkipWithError("simulation failed");
        return;
    }
    for (auto _ : state) {
        auto idle = analysis::attributeIdleToHost(*trace, benchThreads());
        benchmark::DoNotOptimize(idle.launchWaitNs);
    }
    setSimulatedCounters(state, *trace);
}
BENCHMARK(BM_HostIdleSimulated)->Name("HostIdleSimulated")->Arg(240)->Unit(benchmark::kMillisecond);

// The whole analysis of the same trace as the GUI runs it (analyzeWithClockEstimate: the analysis, and
// the clock offsets estimated on a thread of their own), matching the simulator's collectives.
void BM_AnalyzeSimulated(benchmark::State& state) {
    const auto trace = simulatedTrace(static_cast<int>(state.range(0)));
    if (trace == nullptr) {
        state.SkipWithError("simulation failed");
        return;
    }
    analysis::AnalysisOptions options;
    options.threads = benchThreads();
    for (auto _ : state) {
        auto a = analysis::analyzeWithClockEstimate(*trace, options);
        benchmark::DoNotOptimize(a.analysis.summary.tokensPerSec);
    }
    setSimulatedCounters(state, *trace);
}
BENCHMARK(BM_AnalyzeSimulated)
    ->Name("AnalyzeSimulated")
    ->Arg(240)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// The period search of the repeat rule on a step window without a period, like those of the
// synthetic Kineto traces (gen_kineto.py: 3,100 kernels a step, GEMMs of three tile shapes drawn at
// random between all-reduces): every period up to half the window is tried and none covers it.
void BM_PeriodSearchWithoutPeriod(benchmark::State& state) {
    const auto m = static_cast<std::size_t>(state.range(0));
    std::vector<analysis::RepeatKernel> window(m);
    std::uint64_t x = 31;
    for (std::size_t i = 0; i < m; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const bool gemm = i % 2 == 0;
        window[i] = {static_cast<std::int64_t>(i) * 1000, static_cast<std::int64_t>(i) * 1000 + 900,
                     gemm ? static_cast<std::uint32_t>((x >> 33) % 3) : 3u,
                     gemm ? EventKind::Gemm : EventKind::Collective};
    }
    std::size_t period = 0;
    for (auto _ : state) {
        period = analysis::findRepeatLayers(window).period;
        benchmark::DoNotOptimize(period);
    }
    state.SetLabel("period " + std::to_string(period));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * m));
}
BENCHMARK(BM_PeriodSearchWithoutPeriod)->Arg(3100)->Unit(benchmark::kMicrosecond);

// 100 M events (issue 18) hold ~2.5 GB of trace: only on request, never in CI.
void register100M() {
    const char* env = std::getenv("TPSCOPE_BENCH_ANALYSIS_100M");
    if (env == nullptr || std::string_view(env) != "1") return;
    benchmark::RegisterBenchmark("AnalyzeTrace/100M", BM_AnalyzeTrace)
        ->Arg(100'000'000)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1)
        ->MeasureProcessCPUTime()
        ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
    register100M();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
