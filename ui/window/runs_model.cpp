// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/runs_model.h"

#include <QPalette>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/units.h"
#include "ui/charts/breakdown_palette.h"
#include "ui/charts/step_bar_delegate.h"
#include "ui/document/run_scaling.h"
#include "ui/palette_colors.h"
#include "ui/timeline/time_ruler.h"

namespace tpscope::ui {

namespace {

// The step bar's tooltip: each part's share of step time and the mean step it is a share of, all
// from the run's analysis.
QString lossTooltip(const core::analysis::LossBreakdown& loss, double meanStepNs) {
    QStringList lines;
    lines << QObject::tr("Decode step, share of step time summed over GPUs (mean step %1):")
                 .arg(formatDuration(meanStepNs));
    for (const auto& [part, share] : StepBarDelegate::segments(loss))
        lines
            << QStringLiteral("  %1: %2").arg(breakdownLabel(part), QString::fromStdString(core::formatPercent(share)));
    return lines.join(QLatin1Char('\n'));
}

const core::analysis::LossBreakdown* lossOf(const RunRecord& r) {
    return r.status == RunStatus::Done && r.analysis ? &r.analysis->summary.loss : nullptr;
}

}  // namespace

RunsModel::RunsModel(RunDocument* document, QObject* parent) : QAbstractTableModel(parent), m_document(document) {
    m_rows = m_document->ids();
    recomputeEfficiency();
    connect(m_document, &RunDocument::runAdded, this, &RunsModel::onAdded);
    connect(m_document, &RunDocument::runChanged, this, &RunsModel::onChanged);
    connect(m_document, &RunDocument::runRemoved, this, &RunsModel::onRemoved);
    connect(m_document, &RunDocument::reset, this, &RunsModel::onReset);
}

int RunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

RunId RunsModel::idAt(int row) const {
    return row >= 0 && row < rowCount() ? m_rows[static_cast<std::size_t>(row)] : RunId::None;
}

int RunsModel::rowOf(RunId id) const {
    const auto it = std::find(m_rows.begin(), m_rows.end(), id);
    return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

double RunsModel::efficiency(RunId id) const {
    const auto it = m_efficiency.find(id);
    return it == m_efficiency.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const RunId id = m_rows[static_cast<std::size_t>(index.row())];
    const RunRecord* run = m_document->run(id);
    if (run == nullptr) return {};
    const RunRecord& r = *run;
    const double eff = efficiency(id);
    const bool imported = r.request.backend == BackendKind::Imported;
    if (role == RunIdRole) return QVariant::fromValue(static_cast<quint64>(id));
    if (role == ProgressRole) return r.status == RunStatus::Running ? r.progress : -1.0;
    const auto* loss = lossOf(r);
    if (role == LossRole) return index.column() == StepBreakdown && loss ? QVariant::fromValue(*loss) : QVariant();
    if (role == Qt::ToolTipRole) {
        if (r.status == RunStatus::Failed || r.status == RunStatus::Cancelled || r.status == RunStatus::DoesNotFit) {
            return r.error;
        }
        if (index.column() == Name) return r.source.isEmpty() ? r.label() : r.label() + QLatin1Char('\n') + r.source;
        if (index.column() == Efficiency)
            return tr("speed-up ÷ GPU ratio vs the smallest TP of the same sweep and batch (core scaling analysis)");
        if (index.column() == StepLatency) return tr("mean decode-step latency");
        if (index.column() == StepBreakdown)
            return loss ? QVariant(lossTooltip(*loss, r.analysis->summary.latencyMeanNs)) : QVariant();
        return r.source.isEmpty() ? QVariant() : QVariant(r.source);
    }
    if (role == Qt::ForegroundRole && r.status == RunStatus::Failed) return errorTextColor(QPalette());
    if (role == Qt::TextAlignmentRole && index.column() >= Tp && index.column() <= Efficiency)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (index.column()) {
            case Sweep:
                return r.sweep;
            case Tp:
                return r.request.tp;
            case Batch:
                return r.request.batch;
            case Tokens:
                return r.request.tokens;
            case TokensPerSec:
                return r.metrics.tokensPerSec;
            case StepLatency:
                return r.metrics.stepLatencyNs;
            case StepBreakdown:
                return loss ? loss->compute : -1.0;  // by the share of the step spent computing
            case Efficiency:
                // NaN is no sort key (every comparison false): runs without one sort below 0 %.
                return std::isnan(eff) ? -1.0 : eff;
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole) return {};
    const bool done = r.status == RunStatus::Done;
    switch (index.column()) {
        case Name:
            return r.label();
        case Sweep:
            return r.sweep > 0 ? QVariant(QStringLiteral("#%1").arg(r.sweep)) : QVariant(tr("opened"));
        case Status:
            if (r.status == RunStatus::Running) return QStringLiteral("%1 %").arg(static_cast<int>(r.progress * 100));
            // Why, in core's words ("does not fit: needs 131.7 GiB per GPU of 71.7 GiB usable on ..."); in full in
            // the tooltip.
            if (r.status == RunStatus::Failed && !r.error.isEmpty()) return statusText(r.status) + ": " + r.error;
            // Neutral (no error colour): core's reason already starts "does not fit: needs X of Y".
            if (r.status == RunStatus::DoesNotFit && !r.error.isEmpty()) return r.error;
            return statusText(r.status);
        case Backend:
            return r.request.backendText();
        case Tp:
            return r.request.tp;
        case Batch:
            return imported ? QVariant(QStringLiteral("—")) : QVariant(r.request.batch);
        case Tokens:
            return imported ? QVariant(QStringLiteral("—")) : QVariant(r.request.tokens);
        case TokensPerSec:
            return done && r.metrics.tokensPerSec > 0 ? QVariant(QString::number(r.metrics.tokensPerSec, 'f', 1))
                                                      : QVariant();
        case StepLatency:
            return done && r.metrics.stepLatencyNs > 0 ? QVariant(formatDuration(r.metrics.stepLatencyNs)) : QVariant();
        case Efficiency:
            return std::isnan(eff) ? QVariant() : QVariant(QStringLiteral("%1 %").arg(eff * 100, 0, 'f', 0));
        default:
            return {};
    }
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == StepBreakdown) {
        QStringList parts;
        for (const auto& [part, share] : StepBarDelegate::segments({})) parts << breakdownLabel(part);
        return tr("Where a decode step goes (core run summary): %1, as shares of step time").arg(parts.join(", "));
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Name:
            return tr("Run");
        case Sweep:
            return tr("Sweep");
        case Status:
            return tr("Status");
        case Backend:
            return tr("Backend");
        case Tp:
            return tr("TP");
        case Batch:
            return tr("Batch");
        case Tokens:
            return tr("Tokens");
        case TokensPerSec:
            return tr("Tokens/s");
        case StepLatency:
            return tr("Step (mean)");
        case StepBreakdown:
            return tr("Step breakdown");
        case Efficiency:
            return tr("Efficiency");
        default:
            return {};
    }
}

void RunsModel::onAdded(RunId id) {
    // At its place in the document (an undone removal goes back where it was).
    const int at = m_document->indexOf(id);
    const int row = at < 0 || at > rowCount() ? rowCount() : at;
    beginInsertRows({}, row, row);
    m_rows.insert(m_rows.begin() + row, id);
    endInsertRows();
    onChanged(id);  // a finished run added as it is (an opened trace) may change its sweep's efficiency
}

void RunsModel::onChanged(RunId id) {
    const int row = rowOf(id);
    if (row < 0) return;
    const auto before = m_efficiency;
    // A progress tick changes a running run's progress only: the scaling is recomputed once, when a
    // run's outcome changes (issue 45 §3), not at every tick.
    const RunRecord* run = m_document->run(id);
    if (run == nullptr || run->status != RunStatus::Running) recomputeEfficiency();
    if (before != m_efficiency && rowCount() > 0) {
        // The efficiency of the other runs of the sweep may change with this one.
        Q_EMIT dataChanged(index(0, Efficiency), index(rowCount() - 1, Efficiency));
    }
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void RunsModel::onRemoved(RunId id) {
    const int row = rowOf(id);
    if (row < 0) return;
    beginRemoveRows({}, row, row);
    m_rows.erase(m_rows.begin() + row);
    endRemoveRows();
    recomputeEfficiency();
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, Efficiency), index(rowCount() - 1, Efficiency));
}

void RunsModel::onReset() {
    beginResetModel();
    m_rows = m_document->ids();
    recomputeEfficiency();
    endResetModel();
}

void RunsModel::recomputeEfficiency() {
    m_efficiency.clear();
    // Each run against its own scaling group, as core forms the groups.
    for (const ScalingInput& input : scalingGroupsOf(m_document->runs())) {
        const auto report = core::analysis::analyzeScaling(input.points);
        if (!report) continue;  // e.g. two runs with the same TP and batch in one group
        for (const RunId id : input.pointIds) {
            const auto* batch = scalingBatchOf(*report, input, id);
            const auto* row = scalingRowOf(*report, input, id);
            if (batch != nullptr && row != nullptr && row->gpus > batch->baselineGpus)
                m_efficiency[id] = row->efficiency;
        }
    }
}

}  // namespace tpscope::ui
