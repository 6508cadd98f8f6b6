// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Simulator throughput: events produced per second on one core for Llama-3 70B decode at TP 8 on an
// H100 NVLink node, with and without overlap, eager (a host-row launch call per kernel) and under
// CUDA graphs. Target (issue 26): >= 10 M events/s, host rows included. "events/s" counts kernels and
// host-row events together, "kernels/s" the kernels alone; docs/PERFORMANCE.md records both.

#include <benchmark/benchmark.h>

#include "core/hw/catalog.h"
#include "core/sim/simulator.h"

namespace {

using namespace tpscope::core;

sim::SimConfig config(int tokens, bool overlap, int batch, sim::Runtime runtime) {
    static const Catalog catalog = *Catalog::builtin();
    sim::SimConfig c;
    c.plan.model = *catalog.model("llama3-70b");
    c.plan.tp = 8;
    c.plan.batch = batch;
    c.cluster.gpu = *catalog.gpu("h100-sxm");
    c.cluster.intraFabric = *catalog.fabric("nvlink4");
    c.tokens = tokens;
    c.params.overlap = overlap;
    c.params.setRuntime(runtime);
    return c;
}

void runBench(benchmark::State& state, bool overlap, int batch, sim::Runtime runtime = sim::Runtime::PytorchEager) {
    const auto c = config(static_cast<int>(state.range(0)), overlap, batch, runtime);
    std::size_t events = 0;
    std::size_t kernels = 0;
    for (auto _ : state) {
        auto r = sim::simulate(c);
        if (!r) {
            state.SkipWithError(r.error().describe().c_str());
            return;
        }
        events += r->trace->eventCount() + r->trace->hostEventCount();
        kernels += r->trace->eventCount();
        benchmark::DoNotOptimize(r->trace.get());
    }
    state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
    state.counters["kernels/s"] = benchmark::Counter(static_cast<double>(kernels), benchmark::Counter::kIsRate);
    state.counters["events"] = static_cast<double>(events) / static_cast<double>(state.iterations());
}

void BM_Simulate70bTp8(benchmark::State& state) {
    runBench(state, false, 1);
}
void BM_Simulate70bTp8Overlap(benchmark::State& state) {
    runBench(state, true, 8);
}
void BM_Simulate70bTp8CudaGraphs(benchmark::State& state) {
    runBench(state, false, 1, sim::Runtime::CudaGraphs);
}

BENCHMARK(BM_Simulate70bTp8)->Arg(32)->Arg(256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate70bTp8Overlap)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate70bTp8CudaGraphs)->Arg(32)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
