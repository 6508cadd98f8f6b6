// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/compare/residual_page.h"

#include <qcustomplot.h>
#include <QHBoxLayout>
#include <QLabel>

#include "ui/charts/unit_ticker.h"
#include "ui/compare/compare_tables.h"
#include "ui/palette_colors.h"

namespace tpscope::ui {

namespace {

double partResidual(const core::analysis::LayerDelta& r, BreakdownPart part) {
    switch (part) {
        case BreakdownPart::Compute:
            return r.computeNs;
        case BreakdownPart::ExposedTransfer:
            return r.exposedTransferNs;
        case BreakdownPart::ExposedWait:
            return r.exposedWaitNs;
        case BreakdownPart::Idle:
            return r.idleNs;
        default:
            return 0;
    }
}

}  // namespace

ResidualPage::ResidualPage(QWidget* parent) : ChartPage(tr("Residual"), parent) {
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    controls()->addWidget(m_caption, 1);
    auto* p = plot();
    p->xAxis->setLabel(tr("Layer"));
    p->yAxis->setLabel(tr("Measured − model, mean per layer"));
    p->yAxis->setTicker(durationTicker());
    QSharedPointer<QCPAxisTickerFixed> layerTicks(new QCPAxisTickerFixed);
    layerTicks->setTickStep(1);
    layerTicks->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    p->xAxis->setTicker(layerTicks);
    m_wall = new QCPBars(p->xAxis, p->yAxis);
    m_wall->setName(tr("Wall"));
    m_wall->setWidth(0.7);
    m_wall->setAntialiased(false);
    m_wall->setPen(Qt::NoPen);
    for (const auto part : kParts) {
        auto* graph = p->addGraph(p->xAxis, p->yAxis);
        graph->setName(breakdownLabel(part));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        m_parts.push_back(graph);
    }
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    addTable({});
    restyle();
    clearResidual();
}

QCPGraph* ResidualPage::partGraph(BreakdownPart part) const {
    for (std::size_t i = 0; i < std::size(kParts); ++i) {
        if (kParts[i] == part) return m_parts[i];
    }
    return nullptr;
}

QString ResidualPage::caption() const {
    return m_caption->text();
}

void ResidualPage::restyle() {
    QColor wall = mutedTextColor(palette());
    wall.setAlpha(140);
    m_wall->setBrush(wall);
    for (std::size_t i = 0; i < m_parts.size(); ++i) m_parts[i]->setPen(QPen(breakdownColor(kParts[i]), 2));
}

void ResidualPage::setResidual(const core::analysis::RunComparison& comparison, std::size_t measured,
                               std::size_t model) {
    m_residual = core::analysis::layerDeltas(comparison, measured, model);
    QVector<double> keys;
    QVector<double> wall;
    for (const auto& r : m_residual) {
        keys.push_back(r.layer);
        wall.push_back(r.wallNs);
    }
    m_wall->setData(keys, wall, true);
    for (std::size_t i = 0; i < m_parts.size(); ++i) {
        QVector<double> values;
        for (const auto& r : m_residual) values.push_back(partResidual(r, kParts[i]));
        m_parts[i]->setData(keys, values, true);
    }
    fillResidualTable(*tableModel(), comparison, m_residual, measured, model);
    m_caption->setText(
        tr("Residual of %1 (measured) against %2 (model): positive where the measured run spends more time than "
           "the model predicts.")
            .arg(QString::fromStdString(comparison.runs[measured].label),
                 QString::fromStdString(comparison.runs[model].label)));
    fitRanges();
    requestReplot();
}

void ResidualPage::fitRanges() {
    ChartPage::fitRanges();
    // Residuals go both ways: keep the negative side too, with headroom on both.
    plot()->yAxis->rescale(true);
    const QCPRange r = plot()->yAxis->range();
    const double pad = std::max(1.0, 0.1 * (r.upper - r.lower));
    plot()->yAxis->setRange(std::min(0.0, r.lower) - pad, std::max(0.0, r.upper) + pad);
}

void ResidualPage::clearResidual() {
    m_residual.clear();
    m_wall->data()->clear();
    for (auto* g : m_parts) g->data()->clear();
    tableModel()->removeRows(0, tableModel()->rowCount());
    m_caption->setText(
        tr("No measured run against a model: use “Simulate this configuration” on a captured or imported run."));
    requestReplot();
}

}  // namespace tpscope::ui
