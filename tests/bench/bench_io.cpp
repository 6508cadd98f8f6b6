// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// File I/O speed (docs/PERFORMANCE.md, "core/io"):
//   BM_KinetoImport    JSON import on one thread, MB/s of uncompressed JSON, all event fields kept.
//                      Input: an 8-rank Kineto trace from scripts/gen-kineto-trace.py, generated
//                      once into /tmp (TPSCOPE_BENCH_KINETO_MB, default 200; 1000 for the 1 GB figure),
//                      or the folder TPSCOPE_BENCH_KINETO_DIR.
//   BM_WorkspaceSave / BM_WorkspaceLoad   a synthetic decode trace of TPSCOPE_BENCH_EVENTS events
//                      (default 10 M), with bytes per event on disk; BM_WorkspaceLoad reads the
//                      workspace TPSCOPE_BENCH_WORKSPACE instead when it is set.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "core/io/import/trace_reader.h"
#include "core/io/workspace/workspace.h"
#include "tests/bench/bench_env.h"
#include "tests/synthetic_trace.h"

namespace {

namespace fs = std::filesystem;
using namespace tpscope;

using bench::envNumber;

// The generated trace folder (created on first use) and its total size in bytes.
// TPSCOPE_BENCH_KINETO_DIR names a folder to read instead (a trace of your own, or another generator's).
std::pair<std::string, std::uint64_t> kinetoInput() {
    const std::uint64_t mb = envNumber("TPSCOPE_BENCH_KINETO_MB", 200);
    const char* given = std::getenv("TPSCOPE_BENCH_KINETO_DIR");
    const fs::path dir = given != nullptr && *given != '\0'
                             ? fs::path(given)
                             : fs::temp_directory_path() / ("tpscope-bench-kineto-gen-" + std::to_string(mb) + "mb");
    if (given == nullptr && !fs::exists(dir / "rank-7.json")) {
        const std::string cmd = "python3 " + std::string(TPSCOPE_SOURCE_DIR) + "/scripts/gen-kineto-trace.py --out " +
                                dir.string() + " --ranks 8 --target-mb " + std::to_string(mb);
        if (std::system(cmd.c_str()) != 0) return {"", 0};
    }
    std::uint64_t bytes = 0;
    for (const auto& e : fs::directory_iterator(dir)) bytes += e.file_size();
    return {dir.string(), bytes};
}

void BM_KinetoImport(benchmark::State& state) {
    const auto [dir, bytes] = kinetoInput();
    if (bytes == 0) {
        state.SkipWithError("could not generate the input with scripts/gen-kineto-trace.py");
        return;
    }
    core::ReadOptions options;
    options.threads = 1;  // one core: the per-file parse speed
    std::size_t events = 0;
    for (auto _ : state) {
        auto trace = core::readTrace(dir, options);
        if (!trace) {
            state.SkipWithError(trace.error().describe().c_str());
            return;
        }
        events = (*trace)->eventCount();
        benchmark::DoNotOptimize(events);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    state.counters["input_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["gpu_events"] = static_cast<double>(events);
}
BENCHMARK(BM_KinetoImport)->Unit(benchmark::kMillisecond)->Iterations(2);

std::shared_ptr<core::Trace> bigTrace() {
    static std::shared_ptr<core::Trace> trace = [] {
        const std::uint64_t events = envNumber("TPSCOPE_BENCH_EVENTS", 10'000'000);
        const int ranks = 8, layers = 80;
        const int steps = static_cast<int>(events / (ranks * (1 + layers * 10))) + 1;
        return test::makeSyntheticTrace({ranks, steps, layers, 42});
    }();
    return trace;
}

std::string workspacePath() {
    return (fs::temp_directory_path() / "tpscope-bench.tpscope").string();
}

// TPSCOPE_BENCH_WORKSPACE names a workspace for BM_WorkspaceLoad to read instead (a 100 M-event one);
// it is never written.
const char* givenWorkspace() {
    const char* given = std::getenv("TPSCOPE_BENCH_WORKSPACE");
    return given != nullptr && *given != '\0' ? given : nullptr;
}

void BM_WorkspaceSave(benchmark::State& state) {
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"bench"}, bigTrace(), std::nullopt});
    for (auto _ : state) {
        if (auto s = core::saveWorkspace(ws, workspacePath()); !s) {
            state.SkipWithError(s.error().describe().c_str());
            return;
        }
    }
    const auto events = static_cast<double>(bigTrace()->eventCount());
    state.counters["events"] = events;
    state.counters["bytes_per_event"] = static_cast<double>(fs::file_size(workspacePath())) / events;
    state.counters["events_per_s"] = benchmark::Counter(events, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_WorkspaceSave)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_WorkspaceLoad(benchmark::State& state) {
    if (givenWorkspace() == nullptr && !fs::exists(workspacePath())) {
        core::Workspace ws;
        ws.runs.push_back(core::Run{{"bench"}, bigTrace(), std::nullopt});
        (void)core::saveWorkspace(ws, workspacePath());
    }
    const std::string path = givenWorkspace() != nullptr ? givenWorkspace() : workspacePath();
    std::size_t events = 0;
    for (auto _ : state) {
        auto ws = core::loadWorkspace(path);
        if (!ws) {
            state.SkipWithError(ws.error().describe().c_str());
            return;
        }
        events = ws->runs.at(0).trace->eventCount();
    }
    state.counters["events"] = static_cast<double>(events);
    state.counters["events_per_s"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_WorkspaceLoad)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
