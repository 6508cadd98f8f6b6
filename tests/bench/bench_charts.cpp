// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Replotting every chart (issue 11): a 64-run simulated sweep (Llama-3 8B on 8 H100s over NVLink 4,
// TP 1/2/4/8 × 16 batch sizes, two tokens each), analysed once in setup as the document does. One
// iteration hands the runs to the chart controller (core's scaling report, cost candidates and
// cheapest-meeting pick, then the Layers, Scaling and Cost pages rebuild their series and tables)
// and replots all three charts at 1600×1000. Target: <= 50 ms. Switching tabs never reaches this
// path: the pages keep their series.
//
// The Collective calls tab at 10 M events (issue 18): one simulated Llama-3 70B run, TP 8 on
// NVLink 4, batch 1, 1560 tokens (the `tpscope-cli simulate ... --tokens 1560` workspace: ~10 M
// kernel events, ~250 k collective calls), analysed once in setup. BM_CollectiveCallsTab hands it to
// the page and reads its table (what opening the tab does: the plot's points and the table); the
// counter table_rss_mb is the resident memory the page holds after its first build.
// BM_CollectiveCallsSortByBusbw sorts the table by busbw (a header click).
//
//   build/dev/tests/bench/bench_charts --benchmark_min_time=1
//   build/dev/tests/bench/bench_charts --benchmark_filter=CollectiveCalls

#include <QApplication>

#include <QTableView>

#include <benchmark/benchmark.h>
#include <qcustomplot.h>

#include <fstream>

#include "core/hw/catalog.h"
#include "core/sim/sweep.h"
#include "ui/charts/chart_page.h"
#include "ui/charts/chart_set.h"
#include "ui/collective_calls/collective_calls_page.h"
#include "ui/report/report_runs.h"

namespace {

using namespace tpscope;

const ui::ReportRuns& sweep64() {
    static const ui::ReportRuns runs = [] {
        auto catalog = core::Catalog::load();
        core::sim::SweepSpec spec;
        spec.model = *catalog->model("llama3-8b");
        spec.cluster.gpu = *catalog->gpu("h100-sxm");
        spec.cluster.intraFabric = *catalog->fabric("nvlink4");
        spec.tps = {1, 2, 4, 8};
        spec.batches = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
        spec.tokens = 2;
        spec.contextLen = 512;
        auto r = ui::simulatedReportRuns(spec, QStringLiteral("bench"));
        return r.ok() ? *r : ui::ReportRuns{};
    }();
    return runs;
}

void BM_ReplotAllCharts(benchmark::State& state) {
    const auto& runs = sweep64();
    if (runs.runs.size() != 64) {
        state.SkipWithError("the 64-run sweep did not simulate");
        return;
    }
    ui::ChartSet charts;
    charts.resizePages(QSize(1600, 1000));
    charts.controller()->setPricePerGpuHour(2.5);
    for (auto _ : state) {
        charts.controller()->setRuns(runs.runs);
        for (auto* page : charts.pages()) page->plot()->replot(QCustomPlot::rpImmediateRefresh);
    }
    state.counters["runs"] = static_cast<double>(runs.runs.size());
}
BENCHMARK(BM_ReplotAllCharts)->Unit(benchmark::kMillisecond);

// The live edit on the Cost tab: a new price recomputes the report through core and replots.
void BM_CostPriceEdit(benchmark::State& state) {
    const auto& runs = sweep64();
    ui::ChartSet charts;
    charts.resizePages(QSize(1600, 1000));
    charts.controller()->setRuns(runs.runs);
    double price = 2.0;
    for (auto _ : state) {
        price = price == 2.0 ? 3.0 : 2.0;
        charts.controller()->setPricePerGpuHour(price);
        for (auto* page : charts.pages()) page->plot()->replot(QCustomPlot::rpImmediateRefresh);
    }
}
BENCHMARK(BM_CostPriceEdit)->Unit(benchmark::kMillisecond);

const ui::ChartRun* run10M() {
    static const ui::ReportRuns runs = [] {
        auto catalog = core::Catalog::load();
        core::sim::SweepSpec spec;
        spec.model = *catalog->model("llama3-70b");
        spec.cluster.gpu = *catalog->gpu("h100-sxm");
        spec.cluster.intraFabric = *catalog->fabric("nvlink4");
        spec.tps = {8};
        spec.batches = {1};
        spec.tokens = 1560;
        auto r = ui::simulatedReportRuns(spec, QStringLiteral("bench"));
        return r.ok() ? *r : ui::ReportRuns{};
    }();
    return runs.runs.size() == 1 ? &runs.runs.front() : nullptr;
}

double residentMb() {
    std::ifstream statm("/proc/self/statm");
    double size = 0, resident = 0;
    statm >> size >> resident;
    return resident * 4096.0 / (1024.0 * 1024.0);
}

void BM_CollectiveCallsTab(benchmark::State& state) {
    const auto* run = run10M();
    if (run == nullptr) {
        state.SkipWithError("the 10 M-event run did not simulate");
        return;
    }
    auto catalog = core::Catalog::load();
    const double before = residentMb();
    ui::CollectiveCallsPage page(*catalog);
    page.setRun(run->trace, run->analysis, "nvlink4");
    benchmark::DoNotOptimize(page.tableModel()->rowCount());
    state.counters["table_rss_mb"] = residentMb() - before;
    for (auto _ : state) {
        page.setRun(run->trace, run->analysis, "nvlink4");  // stale: the next read rebuilds
        benchmark::DoNotOptimize(page.tableModel()->rowCount());
    }
    state.counters["calls"] = static_cast<double>(run->analysis->matching.calls.size());
}
BENCHMARK(BM_CollectiveCallsTab)->Unit(benchmark::kMillisecond);

void BM_CollectiveCallsSortByBusbw(benchmark::State& state) {
    const auto* run = run10M();
    if (run == nullptr) {
        state.SkipWithError("the 10 M-event run did not simulate");
        return;
    }
    auto catalog = core::Catalog::load();
    ui::CollectiveCallsPage page(*catalog);
    page.setRun(run->trace, run->analysis, "nvlink4");
    benchmark::DoNotOptimize(page.tableModel()->rowCount());
    bool descending = false;
    for (auto _ : state) {
        descending = !descending;
        page.tableView()->sortByColumn(7, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    }
}
BENCHMARK(BM_CollectiveCallsSortByBusbw)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
