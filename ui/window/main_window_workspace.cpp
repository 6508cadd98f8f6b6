// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: what the view shows, kept in the workspace (issue 45 §1.9) so that a reopened workspace
// shows the same report: the price per GPU-hour, the latency target, the advice threshold, the
// Compare set with its baseline and aligned layer, and the current run. Runs are named by their
// position among the runs a save writes (isSavedRun), which is their position when reopened.
// Numbers are written locale-proof (core::formatShortest).

#include <QStringList>

#include <algorithm>
#include <string>

#include "core/util/units.h"
#include "ui/charts/chart_set.h"
#include "ui/charts/charts_controller.h"
#include "ui/compare/compare_view.h"
#include "ui/document/run_document.h"
#include "ui/jobs/io_services.h"
#include "ui/planning/advice_page.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"

namespace tpscope::ui {

namespace {

constexpr const char* kPrice = "price_per_gpu_hour";
constexpr const char* kLatencyTarget = "latency_target_ms";
constexpr const char* kAdviceThreshold = "advice_threshold";
constexpr const char* kCurrentRun = "current_run";
constexpr const char* kCompareRuns = "compare.runs";  // positions, the baseline first
constexpr const char* kAlignedLayer = "compare.aligned_layer";

const std::string* valueOf(const WorkspaceSettings& settings, std::string_view key) {
    const auto it = std::find_if(settings.begin(), settings.end(), [key](const auto& kv) { return kv.first == key; });
    return it == settings.end() ? nullptr : &it->second;
}

bool numberOf(const WorkspaceSettings& settings, std::string_view key, double& out) {
    const std::string* v = valueOf(settings, key);
    return v != nullptr && core::parseDouble(*v, out);
}

}  // namespace

WorkspaceSettings MainWindow::viewSettings() const {
    // The position each run will have in the saved workspace; -1 for one that is not saved.
    std::vector<RunId> saved;
    for (const auto& run : m_document->runs()) {
        if (isSavedRun(run)) saved.push_back(run.id);
    }
    const auto positionOf = [&saved](RunId id) {
        const auto it = std::find(saved.begin(), saved.end(), id);
        return it == saved.end() ? -1 : static_cast<int>(it - saved.begin());
    };
    auto* charts = m_chartTabs->charts()->controller();
    WorkspaceSettings out{{kPrice, core::formatShortest(charts->pricePerGpuHour())},
                          {kLatencyTarget, core::formatShortest(charts->latencyTargetMs())},
                          {kAdviceThreshold, core::formatShortest(m_planningTabs->advice()->efficiencyThreshold())}};
    if (const int current = positionOf(m_current); current >= 0) out.emplace_back(kCurrentRun, std::to_string(current));
    const CompareView* compare = m_compare->view();
    if (compare->hasRuns()) {
        QStringList positions;
        for (const auto& run : compare->runs()) {
            const int p = positionOf(run.id);
            if (p >= 0) positions << QString::number(p);
        }
        if (positions.size() >= 2) {
            out.emplace_back(kCompareRuns, positions.join(QLatin1Char(',')).toStdString());
            out.emplace_back(kAlignedLayer, std::to_string(compare->alignedLayer()));
        }
    }
    return out;
}

void MainWindow::applyViewSettings(const WorkspaceSettings& settings) {
    auto* charts = m_chartTabs->charts()->controller();
    double value = 0;
    if (numberOf(settings, kPrice, value) && value >= 0) charts->setPricePerGpuHour(value);
    if (numberOf(settings, kLatencyTarget, value) && value >= 0) charts->setLatencyTargetMs(value);
    if (numberOf(settings, kAdviceThreshold, value)) m_planningTabs->advice()->setEfficiencyThreshold(value);
    const auto ids = m_document->ids();
    const auto idAt = [&ids](double position) {
        const auto p = static_cast<std::size_t>(position);
        return position >= 0 && p < ids.size() ? ids[p] : RunId::None;
    };
    if (numberOf(settings, kCurrentRun, value) && idAt(value) != RunId::None) selectRun(idAt(value));
    if (const std::string* compareRuns = valueOf(settings, kCompareRuns)) {
        std::vector<RunId> compared;
        for (const QString& p : QString::fromStdString(*compareRuns).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int position = p.toInt(&ok);
            if (ok && idAt(position) != RunId::None) compared.push_back(idAt(position));
        }
        // The set as it was shown: compare() orders by its argument; the first is the baseline.
        if (compared.size() >= 2 && m_compare->compare(compared).ok()) {
            const auto& shown = m_compare->view()->runs();
            const auto base = std::find_if(shown.begin(), shown.end(),
                                           [&compared](const auto& run) { return run.id == compared.front(); });
            if (base != shown.end()) m_compare->view()->setBaseline(static_cast<std::size_t>(base - shown.begin()));
            if (numberOf(settings, kAlignedLayer, value) && value >= 0) {
                m_compare->view()->alignOnLayer(static_cast<int>(value));
            }
        }
    }
}

}  // namespace tpscope::ui
