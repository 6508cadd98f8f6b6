// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "headless.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QImage>
#include <QTextStream>
#include <QTimer>

#include <cmath>
#include <cstdio>

#include "open_timings.h"
#include "ui/charts/chart_set.h"
#include "ui/document/run_document.h"
#include "ui/document/run_scaling.h"
#include "ui/export/safe_write.h"
#include "ui/report/sweep_report.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::app {

namespace {

constexpr int kTimeoutMs = 300'000;

// Spins the event loop until `signal` of `sender` fires; false on timeout.
template <typename Sender, typename Signal>
bool waitFor(const Sender* sender, Signal signal) {
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, &QEventLoop::quit);
    QTimer::singleShot(kTimeoutMs, &loop, [&loop] { loop.exit(1); });
    return loop.exec() == 0;
}

bool runDefaultSweep(ui::MainWindow& window) {
    window.startDefaultSweep();
    if (window.isSweepRunning() && !waitFor(&window, &ui::MainWindow::sweepFinished)) {
        std::fprintf(stderr, "tpscope: the default sweep did not finish in time\n");
        return false;
    }
    QApplication::processEvents();
    return true;
}

bool saveWidget(QWidget& widget, const QString& path, OpenTimings* timings = nullptr) {
    QApplication::processEvents();
    const QImage image = widget.grab().toImage();
    if (timings != nullptr) timings->markComplete();
    const auto status = ui::writeFileSafely(path, "screenshot", [&](QIODevice& out) -> core::Status {
        if (!image.save(&out, "PNG")) return ui::exportWriteError(path, "screenshot", out.errorString());
        return core::Ok{};
    });
    if (!status) {
        std::fprintf(stderr, "tpscope: %s\n", status.error().describe().c_str());
        return false;
    }
    return true;
}

QString percent(double v) {
    return std::isnan(v) ? QStringLiteral("—") : QStringLiteral("%1 %").arg(v * 100, 0, 'f', 0);
}

// What screenshot-main.png has selected, in words taken from the selection itself (focusTimelineOnExample
// picks the call with the largest arrival skew of any collective op, not always an all-reduce).
QString selectionText(const ui::MainWindow& window) {
    const auto* view = window.timelinePanel()->view();
    const auto* trace = view->trace();
    const auto& ref = view->selectedEvent();
    if (trace == nullptr || !ref.valid()) return QStringLiteral("two layers, nothing selected");
    const auto& stream = trace->ranks[static_cast<std::size_t>(ref.rank)].streams[static_cast<std::size_t>(ref.stream)];
    const core::EventRecord event = stream.events.at(ref.index);
    const core::Payload& payload = trace->payload(event.payload);
    QString text = QStringLiteral("two layers; selected: the ");
    if (payload.kind == core::PayloadKind::Collective && payload.collective.op != core::CollectiveOp::Unknown) {
        text += QString::fromStdString(std::string(core::toString(payload.collective.op)));
    } else {
        text += QStringLiteral("collective");
    }
    text += QStringLiteral(" call `%1`").arg(QString::fromStdString(std::string(trace->name(event.name))));
    if (const auto& match = view->selectedMatch()) {
        text += QStringLiteral(" with the largest arrival skew of its step (%1)")
                    .arg(ui::formatDuration(static_cast<double>(match->skewNs)));
    }
    text += QStringLiteral(", on the rank that waited longest");
    return text;
}

QString summaryMarkdown(const ui::MainWindow& window, const QStringList& files) {
    const auto* runs = window.runsModel();
    // The window's one price and scaling (ChartsController): the same $/Mtok the Cost tab shows.
    const auto* charts = window.chartTabs()->charts()->controller();
    const double price = charts->pricePerGpuHour();
    QString md;
    QTextStream s(&md);
    const auto& rows = window.document()->runs();
    // The runtime profile sets the host's share of each step: it belongs in the first line.
    std::vector<core::sim::Runtime> runtimes;
    for (const auto& row : rows) {
        if (row.request.backend == ui::BackendKind::SimulatedCluster) runtimes.push_back(row.request.runtime);
    }
    const QString what =
        files.isEmpty() ? QStringLiteral("the embedded default sweep") : files.join(QStringLiteral(", "));
    s << "# " << ui::titleWithRuntimes(QStringLiteral("tpscope report: ") + what, runtimes) << "\n\n";
    if (!rows.empty()) {
        const auto& first = rows.front();
        const QString priceText = price > 0
                                      ? QStringLiteral("price $%1 per GPU-hour").arg(QString::number(price, 'f', 2))
                                      : QStringLiteral("no price per GPU-hour");
        if (first.request.backend != ui::BackendKind::Imported) {
            const auto& r = first.request;
            s << "Model **" << QString::fromStdString(r.model.name) << "**, "
              << QString::fromStdString(std::string(core::toString(r.dtype))) << ", batch " << r.batch << ", context "
              << r.contextLen << ", " << r.tokens << " decode steps, on " << r.nodes << "×" << r.gpusPerNode << " "
              << QString::fromStdString(r.gpu.name) << " over " << QString::fromStdString(r.fabric.name) << "; "
              << priceText << ".\n\n";
        } else if (first.trace) {
            // An opened trace has no request: say what the file itself records, and what it does not.
            const core::Trace& t = *first.trace;
            const std::string model = t.metadataValue("model");
            s << "Opened trace (" << QString::fromStdString(std::string(core::toString(t.origin))) << "), "
              << t.ranks.size() << (t.ranks.size() == 1 ? " rank" : " ranks") << ", model "
              << (model.empty() ? QStringLiteral("not recorded in the trace")
                                : QStringLiteral("**%1**").arg(QString::fromStdString(model)))
              << "; " << priceText << ".\n\n";
        }
        const std::string generator = first.trace ? first.trace->metadataValue("generator") : std::string();
        if (!generator.empty()) s << "Trace source: " << QString::fromStdString(generator) << ".\n\n";
    }
    s << "| TP | status | mean step latency | tokens/s | efficiency | exposed comm (% of step) | $ per M tokens |\n";
    s << "|---:|---|---:|---:|---:|---:|---:|\n";
    for (const auto& r : rows) {
        const bool done = r.status == ui::RunStatus::Done;
        // Every number from core: the run's analysis, the sweep's scaling, the cost formula.
        const QString exposed =
            done && r.analysis ? QStringLiteral("%1 %").arg(100.0 * r.analysis->summary.exposedCommShare, 0, 'f', 1)
                               : QStringLiteral("—");
        const auto* row = charts->scaling() ? ui::scalingRowOf(*charts->scaling(), charts->input(), r.id) : nullptr;
        const double cost = row != nullptr && price > 0 ? row->costPerMillionTokens : NAN;
        s << "| " << r.request.tp << " | "
          << (r.status == ui::RunStatus::Failed       ? "failed: " + r.error
              : r.status == ui::RunStatus::DoesNotFit ? r.error
                                                      : ui::statusText(r.status))
          << " | " << (done ? ui::formatDuration(r.metrics.stepLatencyNs) : QStringLiteral("—")) << " | "
          << (done ? QString::number(r.metrics.tokensPerSec, 'f', 1) : QStringLiteral("—")) << " | "
          << percent(runs->efficiency(r.id)) << " | " << exposed << " | "
          << (std::isnan(cost) ? QStringLiteral("—") : QString::number(cost, 'f', 2)) << " |\n";
    }
    s << "\nEfficiency = speed-up ÷ GPU ratio against the smallest TP of the same configuration that ran. "
         "Exposed communication = collective time with no compute kernel running on that GPU.\n\n"
         "Screenshots: `screenshot-main.png` ("
      << selectionText(window) << "), `timeline-overview.png` (the whole trace of the run the timeline shows).\n";
    return md;
}

}  // namespace

namespace {

enum class Opened { Yes, Failed, TimedOut };

Opened openAndWait(ui::MainWindow& window, const QString& file) {
    bool failed = false;
    QEventLoop loop;
    QObject::connect(&window, &ui::MainWindow::documentOpened, &loop, &QEventLoop::quit);
    QObject::connect(&window, &ui::MainWindow::openFailed, &loop, [&] {
        failed = true;
        loop.quit();
    });
    QTimer::singleShot(kTimeoutMs, &loop, [&loop] { loop.exit(1); });
    window.openPath(file);
    if (loop.exec() != 0) {
        std::fprintf(stderr, "tpscope: opening %s did not finish in time\n", qPrintable(file));
        return Opened::TimedOut;
    }
    if (failed) std::fprintf(stderr, "tpscope: %s\n", qPrintable(window.lastError()));
    return failed ? Opened::Failed : Opened::Yes;
}

}  // namespace

int takeScreenshot(ui::MainWindow& window, const QString& out, const QString& file, OpenTimings* timings) {
    window.resize(1600, 1000);
    window.show();
    if (file.isEmpty()) {
        if (!runDefaultSweep(window)) return 1;
        window.focusTimelineOnExample();
    } else {
        const Opened opened = openAndWait(window, file);
        if (opened == Opened::TimedOut) return 1;
        // The screenshot still shows the window with the reason; the exit status says it failed.
        if (opened == Opened::Failed) return saveWidget(window, out) ? 2 : 1;
        window.focusTimelineOnExample();
    }
    return saveWidget(window, out, timings) ? 0 : 1;
}

int takeCompareScreenshot(ui::MainWindow& window, const QString& out, const QStringList& files) {
    window.resize(1600, 1000);
    window.show();
    for (const QString& file : files) {
        const Opened opened = openAndWait(window, file);
        if (opened == Opened::TimedOut) return 1;
        if (opened == Opened::Failed) return saveWidget(window, out) ? 2 : 1;
    }
    const auto status = window.compareController()->compare(window.document()->ids());
    if (!status) {
        std::fprintf(stderr, "tpscope: cannot compare: %s\n", status.error().describe().c_str());
        return saveWidget(window, out) ? 2 : 1;
    }
    return saveWidget(window, out) ? 0 : 1;
}

int writeReport(ui::MainWindow& window, const QString& dir, const QStringList& files) {
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "tpscope: cannot create %s\n", qPrintable(dir));
        return 1;
    }
    window.resize(1600, 1000);
    window.show();
    // Every file in DIR from the same input: the given files, else the default sweep (never a mix).
    if (files.isEmpty()) {
        if (!runDefaultSweep(window)) return 1;
    }
    for (const QString& file : files) {
        if (openAndWait(window, file) != Opened::Yes) return 1;
    }
    window.timelinePanel()->fitView();
    if (!saveWidget(*window.timelinePanel(), dir + QStringLiteral("/timeline-overview.png"))) return 1;
    window.focusTimelineOnExample();
    if (!saveWidget(window, dir + QStringLiteral("/screenshot-main.png"))) return 1;
    const QString summaryPath = dir + QStringLiteral("/summary.md");
    const QByteArray summary = summaryMarkdown(window, files).toUtf8();
    const auto written = ui::writeFileSafely(summaryPath, "summary", [&](QIODevice& out) -> core::Status {
        if (out.write(summary) != summary.size()) {
            return ui::exportWriteError(summaryPath, "summary", out.errorString());
        }
        return core::Ok{};
    });
    if (!written) {
        std::fprintf(stderr, "tpscope: %s\n", written.error().describe().c_str());
        return 1;
    }
    std::printf("tpscope: report of %s written to %s (summary.md, screenshot-main.png, timeline-overview.png)\n",
                qPrintable(files.isEmpty() ? QStringLiteral("the default sweep") : files.join(QStringLiteral(", "))),
                qPrintable(QDir(dir).absolutePath()));
    return 0;
}

}  // namespace tpscope::app
