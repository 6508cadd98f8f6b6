// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/compare/compare_tables.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

#include "core/util/units.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

using core::analysis::LayerCell;
using core::analysis::LayerDelta;
using core::analysis::RunComparison;

QString tr(const char* text) {
    return QCoreApplication::translate("CompareTables", text);
}

const QString kNone = QStringLiteral("—");

QStandardItem* textItem(const QString& text) {
    return new QStandardItem(text);
}

QStandardItem* durationItem(double ns) {
    return numberItem(QString::fromStdString(core::formatDurationNs(ns, core::DurationStyle::Detail)), ns);
}

QStandardItem* signedDurationItem(double ns) {
    const std::string text = core::formatDurationNs(std::fabs(ns), core::DurationStyle::Detail);
    return numberItem(QString::fromStdString((ns < 0 ? "−" : "+") + text), ns);
}

QStandardItem* percentItem(double fraction) {
    return numberItem(QString::fromStdString(core::formatPercent(fraction)), fraction);
}

QStandardItem* signedPercentItem(double fraction) {
    return numberItem(QString::fromStdString((fraction >= 0 ? "+" : "") + core::formatPercent(fraction)), fraction);
}

QStandardItem* emptyItem() {
    auto* item = new QStandardItem(kNone);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

void reset(QStandardItemModel& model, const QStringList& header) {
    model.clear();
    model.setColumnCount(static_cast<int>(header.size()));
    model.setHorizontalHeaderLabels(header);
}

QString runName(const RunComparison& c, std::size_t i) {
    return QStringLiteral("#%1 %2").arg(i + 1).arg(QString::fromStdString(c.runs[i].label));
}

}  // namespace

void fillLayerDeltaTable(QStandardItemModel& model, const RunComparison& c) {
    reset(model, {tr("Layer"), tr("Run"), tr("Wall"), tr("Δ wall vs #1"), tr("Δ wall %"), tr("Compute"),
                  tr("Δ compute"), tr("Exposed transfer"), tr("Δ exposed transfer"), tr("Exposed wait"),
                  tr("Δ exposed wait"), tr("Idle"), tr("Δ idle")});
    // Part deltas of each run against run 0, by layer index (core::analysis::layerDeltas).
    std::vector<std::vector<LayerDelta>> deltas(c.runs.size());
    for (std::size_t i = 1; i < c.runs.size(); ++i) deltas[i] = core::analysis::layerDeltas(c, i, 0);
    for (const auto& row : c.layers) {
        for (std::size_t i = 0; i < row.runs.size(); ++i) {
            const LayerCell& cell = row.runs[i];
            QList<QStandardItem*> items;
            items << numberItem(QString::number(row.layer), row.layer) << textItem(runName(c, i));
            if (!cell.present) {
                for (int k = col(LayerDeltaColumn::Wall); k < col(LayerDeltaColumn::Count); ++k) items << emptyItem();
                model.appendRow(items);
                continue;
            }
            const LayerDelta* d = nullptr;
            for (const auto& candidate : deltas[i]) {
                if (candidate.layer == row.layer) d = &candidate;
            }
            const auto delta = [&](double LayerDelta::*part) {
                return d != nullptr ? signedDurationItem(d->*part) : emptyItem();
            };
            items << durationItem(cell.wallNs);
            if (i == 0) {
                items << emptyItem() << emptyItem();
            } else {
                items << signedDurationItem(row.wallDeltaNs[i]) << signedPercentItem(row.wallDeltaFraction[i]);
            }
            items << durationItem(cell.computeNs) << delta(&LayerDelta::computeNs);
            items << durationItem(cell.exposedTransferNs) << delta(&LayerDelta::exposedTransferNs);
            items << durationItem(cell.exposedWaitNs) << delta(&LayerDelta::exposedWaitNs);
            items << durationItem(cell.idleNs) << delta(&LayerDelta::idleNs);
            model.appendRow(items);
        }
    }
}

void fillSummaryTable(QStandardItemModel& model, const RunComparison& c) {
    reset(model, {tr("Run"), tr("GPUs"), tr("Step latency"), tr("Δ latency vs #1"), tr("Tokens/s"),
                  tr("Δ tokens/s vs #1"), tr("Exposed comm"), tr("Δ exposed comm (points)"), tr("Exposed wait")});
    for (std::size_t i = 0; i < c.runs.size(); ++i) {
        const auto& r = c.runs[i];
        QList<QStandardItem*> items;
        items << textItem(runName(c, i)) << numberItem(QString::number(r.ranks), static_cast<double>(r.ranks))
              << durationItem(r.stepLatencyNs);
        items << (i == 0 ? emptyItem() : signedPercentItem(r.latencyDeltaFraction));
        // A rate at an assumed batch of 1 would pass a guess as a measurement (issue 45 §2).
        const bool rateKnown = r.batchKnown && c.runs.front().batchKnown;
        items << (r.batchKnown
                      ? numberItem(QString::fromStdString(core::formatFixed(r.tokensPerSec, 1)) + tr(" tokens/s"),
                                   r.tokensPerSec)
                      : textItem(kNone));
        items << (i == 0 || !rateKnown ? emptyItem() : signedPercentItem(r.tokensPerSecDeltaFraction));
        items << percentItem(r.exposedCommShare);
        items << (i == 0 ? emptyItem() : signedPercentItem(r.exposedCommShareDelta));
        items << percentItem(r.exposedWaitShare);
        model.appendRow(items);
    }
}

void fillResidualTable(QStandardItemModel& model, const RunComparison& c, const std::vector<LayerDelta>& residual,
                       std::size_t measured, std::size_t modelRun) {
    reset(model, {tr("Layer"), tr("Wall residual"), tr("Compute residual"), tr("Exposed transfer residual"),
                  tr("Exposed wait residual"), tr("Idle residual"), tr("Measured wall"), tr("Model wall")});
    for (const auto& r : residual) {
        const auto row =
            std::find_if(c.layers.begin(), c.layers.end(), [&](const auto& l) { return l.layer == r.layer; });
        QList<QStandardItem*> items;
        items << numberItem(QString::number(r.layer), r.layer) << signedDurationItem(r.wallNs)
              << signedDurationItem(r.computeNs) << signedDurationItem(r.exposedTransferNs)
              << signedDurationItem(r.exposedWaitNs) << signedDurationItem(r.idleNs);
        items << (row != c.layers.end() ? durationItem(row->runs[measured].wallNs) : emptyItem());
        items << (row != c.layers.end() ? durationItem(row->runs[modelRun].wallNs) : emptyItem());
        model.appendRow(items);
    }
}

}  // namespace tpscope::ui
