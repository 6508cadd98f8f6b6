// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/layers_page.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QToolTip>

#include <cmath>

#include "core/util/units.h"
#include "ui/charts/unit_ticker.h"
#include "ui/export/plot_export.h"

namespace tpscope::ui {

namespace {

using core::analysis::LayerIndexSummary;
using core::analysis::TimeBreakdown;

// The value of one stacked part, straight from core's per-layer summary.
double partNs(const LayerIndexSummary& l, BreakdownPart part) {
    switch (part) {
        case BreakdownPart::Compute:
            return l.meanComputeOnlyNs();
        case BreakdownPart::OverlappedComm:
            return l.mean(&TimeBreakdown::overlappedCommNs);
        case BreakdownPart::ExposedTransfer:
            return l.mean(&TimeBreakdown::exposedTransferNs);
        case BreakdownPart::ExposedWait:
            return l.mean(&TimeBreakdown::exposedWaitNs);
        case BreakdownPart::SyncWait:  // the per-layer view shows the whole exposed wait, imbalance apart
            return l.mean(&TimeBreakdown::exposedWaitNs) - l.meanImbalanceNs();
        case BreakdownPart::Idle:
            return l.mean(&TimeBreakdown::idleNs);
        case BreakdownPart::Imbalance:
            return l.meanImbalanceNs();
    }
    return 0;
}

QString duration(double ns) {
    return QString::fromStdString(core::formatDurationNs(ns, core::DurationStyle::Display));
}

}  // namespace

LayersPage::LayersPage(QWidget* parent) : ChartPage(tr("Layers"), parent) {
    controls()->addWidget(new QLabel(tr("Ranks:"), this));
    m_rank = new QComboBox(this);
    m_rank->setObjectName(QStringLiteral("layersRankChoice"));
    controls()->addWidget(m_rank);
    m_caption = new QLabel(this);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    controls()->addWidget(m_caption, 1);
    connect(m_rank, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });

    auto* p = plot();
    p->xAxis->setLabel(tr("Layer"));
    p->yAxis->setLabel(tr("Time per layer (mean over steps)"));
    p->yAxis->setTicker(durationTicker());
    QSharedPointer<QCPAxisTickerFixed> layerTicks(new QCPAxisTickerFixed);
    layerTicks->setTickStep(1);
    layerTicks->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    p->xAxis->setTicker(layerTicks);
    QCPBars* below = nullptr;
    for (const auto part : kParts) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(breakdownLabel(part));
        bars->setWidth(0.8);
        bars->setAntialiased(false);
        bars->setPen(Qt::NoPen);
        bars->setBrush(breakdownColor(part));
        if (below != nullptr) bars->moveAbove(below);
        below = bars;
        m_bars.push_back(bars);
    }
    placeLegendBelowPlot();
    p->setInteractions({});  // clicks pick a layer; fit and zoom go through the View menu
    connect(p, &QCustomPlot::mouseMove, this, &LayersPage::onMouseMove);
    connect(p, &QCustomPlot::mousePress, this, &LayersPage::onMousePress);

    auto* table = addTable({tr("Layer"), tr("Wall"), tr("Compute"), tr("Overlapped comm"), tr("Exposed transfer"),
                            tr("Exposed wait"), tr("Idle"), tr("Imbalance")});
    setCsvHeader(*table, {"layer", "wall_ns", "compute_ns", "overlapped_comm_ns", "exposed_transfer_ns",
                          "exposed_wait_ns", "idle_ns", "imbalance_ns"});
    clearRun(tr("No run selected."));
}

void LayersPage::setRun(std::shared_ptr<const core::analysis::RunAnalysis> analysis, const QString& runLabel,
                        RunId id) {
    if (!analysis) {
        clearRun(tr("No analysis for %1.").arg(runLabel));
        return;
    }
    m_analysis = std::move(analysis);
    m_currentRun = id;
    const QSignalBlocker block(m_rank);
    const int previous = m_rank->currentData().isValid() ? m_rank->currentData().toInt() : kMeanOfRanks;
    m_rank->clear();
    m_rank->addItem(tr("all, mean"), kMeanOfRanks);
    m_rank->addItem(tr("all, slowest of each layer"), kSlowestRank);
    for (std::size_t r = 0; r < m_analysis->summary.ranks; ++r) {
        m_rank->addItem(tr("rank %1").arg(r), static_cast<int>(r));
    }
    m_rank->setCurrentIndex(std::max(0, m_rank->findData(previous)));
    m_caption->setText(runLabel);
    rebuild();
}

void LayersPage::clearRun(const QString& why) {
    m_analysis.reset();
    m_layers.clear();
    m_caption->setText(why);
    for (auto* b : m_bars) b->data()->clear();
    tableModel()->removeRows(0, tableModel()->rowCount());
    requestReplot();
}

void LayersPage::setRankChoice(int choice) {
    const int index = m_rank->findData(choice);
    if (index >= 0) m_rank->setCurrentIndex(index);
}

int LayersPage::rankChoice() const {
    return m_rank->currentData().isValid() ? m_rank->currentData().toInt() : kMeanOfRanks;
}

QCPBars* LayersPage::bars(BreakdownPart part) const {
    for (std::size_t i = 0; i < std::size(kParts); ++i) {
        if (kParts[i] == part) return m_bars[i];
    }
    return nullptr;
}

void LayersPage::rebuild() {
    if (!m_analysis) return;
    const int choice = rankChoice();
    m_layers = choice == kSlowestRank ? core::analysis::layerTableSlowestRank(m_analysis->breakdown)
                                      : core::analysis::layerTable(m_analysis->breakdown, choice);
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        QVector<double> keys;
        QVector<double> values;
        keys.reserve(static_cast<int>(m_layers.size()));
        values.reserve(static_cast<int>(m_layers.size()));
        for (const auto& l : m_layers) {
            keys.push_back(l.layer);
            values.push_back(partNs(l, kParts[i]));
        }
        m_bars[i]->setData(keys, values, true);
    }
    fillTable();
    fitRanges();
    requestReplot();
}

void LayersPage::fillTable() {
    auto* model = tableModel();
    model->removeRows(0, model->rowCount());
    for (const auto& l : m_layers) {
        QList<QStandardItem*> row;
        row << numberItem(QString::number(l.layer), l.layer);
        const double wall = l.mean(&TimeBreakdown::wallNs);
        row << numberItem(duration(wall), wall);
        for (const auto part : {BreakdownPart::Compute, BreakdownPart::OverlappedComm, BreakdownPart::ExposedTransfer,
                                BreakdownPart::ExposedWait, BreakdownPart::Idle, BreakdownPart::Imbalance}) {
            row << numberItem(duration(partNs(l, part)), partNs(l, part));
        }
        model->appendRow(row);
    }
}

QString LayersPage::layerDetails(int layer) const {
    for (const auto& l : m_layers) {
        if (l.layer != layer) continue;
        QString text = tr("Layer %1 — wall %2").arg(layer).arg(duration(l.mean(&TimeBreakdown::wallNs)));
        for (const auto part : kParts)
            text += QStringLiteral("\n%1: %2").arg(breakdownLabel(part), duration(partNs(l, part)));
        text += tr("\nImbalance across ranks: %1").arg(duration(l.meanImbalanceNs()));
        return text;
    }
    return {};
}

void LayersPage::activateLayer(int layer) {
    if (!m_analysis) return;
    if (const auto span = core::analysis::firstLayerSpan(m_analysis->breakdown, layer)) {
        Q_EMIT layerActivated(layer, span->startNs, span->endNs);
    }
}

int LayersPage::layerAtPixel(double x) const {
    if (m_layers.empty()) return -1;
    const double key = plot()->xAxis->pixelToCoord(x);
    const int layer = static_cast<int>(std::lround(key));
    return std::abs(key - layer) <= 0.4 ? layer : -1;
}

void LayersPage::onMouseMove(QMouseEvent* event) {
    const QString text = layerDetails(layerAtPixel(event->position().x()));
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(event->globalPosition().toPoint(), text, plot());
    }
}

void LayersPage::onMousePress(QMouseEvent* event) {
    const int layer = layerAtPixel(event->position().x());
    if (layer >= 0) activateLayer(layer);
}

void LayersPage::restyle() {
    for (std::size_t i = 0; i < m_bars.size(); ++i) m_bars[i]->setBrush(breakdownColor(kParts[i]));
}

}  // namespace tpscope::ui
