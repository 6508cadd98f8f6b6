// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/scaling_page.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/util/units.h"
#include "ui/charts/chart_theme.h"
#include "ui/charts/unit_ticker.h"
#include "ui/export/plot_export.h"

namespace tpscope::ui {

namespace {

double lossShare(const core::analysis::LossBreakdown& loss, BreakdownPart part) {
    switch (part) {
        case BreakdownPart::ExposedTransfer:
            return loss.transfer;
        case BreakdownPart::SyncWait:
            return loss.syncWait;
        case BreakdownPart::Imbalance:
            return loss.imbalance;
        case BreakdownPart::Idle:
            return loss.idle;
        default:
            return loss.compute;
    }
}

QString gpusText(int gpus) {
    return gpus == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus);
}

}  // namespace

ScalingPage::ScalingPage(QWidget* parent) : ChartPage(tr("Scaling"), parent) {
    m_caption = new QLabel(this);
    controls()->addWidget(m_caption, 1);
    controls()->addWidget(new QLabel(tr("Loss breakdown for batch:"), this));
    m_batch = new QComboBox(this);
    controls()->addWidget(m_batch);
    connect(m_batch, &QComboBox::currentIndexChanged, this, [this] { rebuildLoss(); });

    auto* p = plot();
    p->xAxis->setLabel(tr("GPUs (tensor-parallel degree)"));
    p->yAxis->setLabel(tr("Speed-up"));
    p->yAxis->setTicker(speedupTicker());
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(tr("Efficiency"));
    p->yAxis2->setTicker(percentTicker());
    // The speed-up legend in a row of its own under its axes, two entries a row (a batch's speed-up and
    // efficiency side by side; three batches stay readable at 1000 px): inside the axes, top left, it hid
    // the smallest TP's efficiency point, 100 % by definition.
    placeLegendInRow(p->legend, 1);
    p->legend->setWrap(2);

    m_lossRect = new QCPAxisRect(p);
    p->plotLayout()->addElement(2, 0, m_lossRect);
    p->plotLayout()->setRowStretchFactor(2, 0.7);
    m_lossRect->axis(QCPAxis::atBottom)->setLabel(tr("GPUs"));
    m_lossRect->axis(QCPAxis::atLeft)->setLabel(tr("Share of step time"));
    m_lossRect->axis(QCPAxis::atLeft)->setTicker(percentTicker());
    // In a row of its own under the loss bars: inside the axes (top left, where the smallest TP loses
    // least) it still covered the first bar when that bar was tall enough.
    m_lossLegend = new QCPLegend;
    placeLegendInRow(m_lossLegend, 3);
    m_lossLegend->setLayer(QStringLiteral("legend"));
    QCPBars* below = nullptr;
    for (const auto part : kLossParts) {
        auto* bars = new QCPBars(m_lossRect->axis(QCPAxis::atBottom), m_lossRect->axis(QCPAxis::atLeft));
        bars->setName(breakdownLabel(part));
        bars->setWidth(0.6);
        bars->setAntialiased(false);
        bars->setPen(Qt::NoPen);
        bars->setBrush(breakdownColor(part));
        bars->removeFromLegend(p->legend);
        bars->addToLegend(m_lossLegend);
        if (below != nullptr) bars->moveAbove(below);
        below = bars;
        m_loss.push_back(bars);
    }
    auto* group = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_lossRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    // ChartPage themed the plot before the loss rect and its legend existed: theme them too, or the
    // legend stays white on a dark palette until the palette changes again.
    applyChartTheme(*p, palette());

    auto* table =
        addTable({tr("Batch"), tr("GPUs"), tr("Tokens/s"), tr("Step latency"), tr("Speed-up"), tr("Efficiency"),
                  tr("Amdahl model"), tr("Transfer"), tr("Sync wait"), tr("Imbalance"), tr("Idle")});
    setCsvHeader(*table,
                 {"batch", "gpus", "tokens_per_sec", "step_latency_ns", "speedup_ratio", "efficiency_fraction",
                  "amdahl_speedup_ratio", "transfer_share", "sync_wait_share", "imbalance_share", "idle_share"});
    clearReport(tr("No finished runs."));
}

QCPBars* ScalingPage::lossBars(BreakdownPart part) const {
    for (std::size_t i = 0; i < std::size(kLossParts); ++i) {
        if (kLossParts[i] == part) return m_loss[i];
    }
    return nullptr;
}

void ScalingPage::clearSeries() {
    for (auto* g : m_speedup) plot()->removeGraph(g);
    for (auto* g : m_efficiency) plot()->removeGraph(g);
    for (auto* g : m_amdahl) plot()->removeGraph(g);
    for (auto* g : m_ideals) plot()->removeGraph(g);
    m_speedup.clear();
    m_efficiency.clear();
    m_amdahl.clear();
    m_ideals.clear();
}

void ScalingPage::clearReport(const QString& why) {
    m_report = {};
    clearSeries();
    for (auto* b : m_loss) b->data()->clear();
    m_lossGpus.clear();
    const QSignalBlocker block(m_batch);
    m_batch->clear();
    m_caption->setText(why);
    tableModel()->removeRows(0, tableModel()->rowCount());
    requestReplot();
}

void ScalingPage::setReport(const core::analysis::ScalingReport& report) {
    const int previousBatch = lossBatch();
    clearSeries();
    m_report = report;
    auto* p = plot();
    auto* model = tableModel();
    model->removeRows(0, model->rowCount());
    std::set<int> gpuCounts;
    QStringList fits;
    for (std::size_t bi = 0; bi < m_report.batches.size(); ++bi) {
        const auto& b = m_report.batches[bi];
        const QColor color = seriesColor(static_cast<int>(bi));
        auto* speedup = p->addGraph(p->xAxis, p->yAxis);
        speedup->setName(tr("Speed-up, batch %1 (vs %2)").arg(b.batch).arg(gpusText(b.baselineGpus)));
        speedup->setPen(QPen(color, 2));
        speedup->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
        auto* efficiency = p->addGraph(p->xAxis, p->yAxis2);
        efficiency->setName(tr("Efficiency, batch %1").arg(b.batch));
        efficiency->setPen(QPen(color, 1.5, Qt::DotLine));
        efficiency->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 6));
        for (const auto& r : b.rows) {
            gpuCounts.insert(r.gpus);
            speedup->addData(r.gpus, r.speedup);
            // Efficiency against itself is 100 % by definition: only shown where a smaller TP ran.
            if (r.gpus > b.baselineGpus) efficiency->addData(r.gpus, r.efficiency);
            QList<QStandardItem*> row;
            row << numberItem(QString::number(b.batch), b.batch) << numberItem(QString::number(r.gpus), r.gpus)
                << numberItem(QString::fromStdString(core::formatSi(r.tokensPerSec, "")), r.tokensPerSec)
                << numberItem(
                       QString::fromStdString(core::formatDurationNs(r.stepLatencyNs, core::DurationStyle::Display)),
                       r.stepLatencyNs)
                << numberItem(QString::fromStdString(core::formatFixed(r.speedup, 2)) + QStringLiteral("×"), r.speedup);
            if (r.gpus > b.baselineGpus) {
                row << numberItem(QString::fromStdString(core::formatPercent(r.efficiency)), r.efficiency);
            } else {
                row << new QStandardItem(tr("baseline"));
            }
            row << (b.fit.valid ? numberItem(QString::fromStdString(core::formatFixed(r.amdahlSpeedup, 2)) +
                                                 QStringLiteral("×"),
                                             r.amdahlSpeedup)
                                : new QStandardItem(QStringLiteral("—")));
            for (const auto part : kLossParts) {
                const double share = lossShare(r.loss, part);
                row << numberItem(QString::fromStdString(core::formatPercent(share)), share);
            }
            model->appendRow(row);
        }
        m_speedup.insert(b.batch, speedup);
        m_efficiency.insert(b.batch, efficiency);
        if (b.fit.valid && !b.rows.empty()) {
            auto* amdahl = p->addGraph(p->xAxis, p->yAxis);
            amdahl->setName(tr("Amdahl fit, batch %1 (serial fraction %2)")
                                .arg(b.batch)
                                .arg(QString::fromStdString(core::formatPercent(b.fit.serialFraction))));
            amdahl->setPen(QPen(color.lighter(130), 1.5, Qt::DashLine));
            const double lo = b.baselineGpus;
            const double hi = b.rows.back().gpus;
            for (int i = 0; i < kCurvePoints; ++i) {
                const double n = lo + (hi - lo) * i / (kCurvePoints - 1);
                amdahl->addData(n, core::analysis::fittedSpeedup(b, n));
            }
            m_amdahl.insert(b.batch, amdahl);
            fits << tr("batch %1: serial %2, max %3×")
                        .arg(b.batch)
                        .arg(QString::fromStdString(core::formatPercent(b.fit.serialFraction)))
                        .arg(std::isinf(b.fit.maxSpeedup)
                                 ? QStringLiteral("∞")
                                 : QString::fromStdString(core::formatFixed(b.fit.maxSpeedup, 1)));
        }
    }
    // One ideal line per baseline: speed-ups of a batch are against its own smallest GPU count.
    std::vector<int> baselines;
    for (const auto& b : m_report.batches) {
        if (std::find(baselines.begin(), baselines.end(), b.baselineGpus) == baselines.end()) {
            baselines.push_back(b.baselineGpus);
        }
    }
    for (const int base : gpuCounts.empty() ? std::vector<int>{} : baselines) {
        auto* ideal = p->addGraph(p->xAxis, p->yAxis);
        ideal->setName(tr("Ideal (linear from %1)").arg(gpusText(base)));
        ideal->setPen(QPen(QColor(0x80, 0x80, 0x80), 1,
                           baselines.size() > 1 && base != baselines.front() ? Qt::DotLine : Qt::DashDotLine));
        // The ideal line is N / baseline: two points span it.
        ideal->addData(base, 1.0);
        ideal->addData(*gpuCounts.rbegin(), static_cast<double>(*gpuCounts.rbegin()) / base);
        m_ideals.push_back(ideal);
    }
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    for (const int g : gpuCounts) ticks->addTick(g, QString::number(g));
    p->xAxis->setTicker(ticks);
    m_caption->setText(fits.isEmpty() ? tr("Amdahl fit needs two or more GPU counts.")
                                      : fits.join(QStringLiteral("; ")));
    {
        const QSignalBlocker block(m_batch);
        m_batch->clear();
        for (const auto& b : m_report.batches) m_batch->addItem(QString::number(b.batch), b.batch);
        m_batch->setCurrentIndex(std::max(0, m_batch->findData(previousBatch)));
    }
    rebuildLoss();
}

void ScalingPage::setLossBatch(int batch) {
    const int index = m_batch->findData(batch);
    if (index >= 0) m_batch->setCurrentIndex(index);
}

int ScalingPage::lossBatch() const {
    return m_batch->currentData().isValid() ? m_batch->currentData().toInt() : 0;
}

void ScalingPage::rebuildLoss() {
    m_lossGpus.clear();
    const int batch = lossBatch();
    const core::analysis::BatchScaling* shown = nullptr;
    for (const auto& b : m_report.batches) {
        if (b.batch == batch) shown = &b;
    }
    QStringList labels;
    for (std::size_t i = 0; i < m_loss.size(); ++i) {
        QVector<double> keys;
        QVector<double> values;
        if (shown != nullptr) {
            for (std::size_t k = 0; k < shown->rows.size(); ++k) {
                keys.push_back(static_cast<double>(k + 1));
                values.push_back(lossShare(shown->rows[k].loss, kLossParts[i]));
            }
        }
        m_loss[i]->setData(keys, values, true);
    }
    if (shown != nullptr) {
        for (const auto& r : shown->rows) {
            m_lossGpus.push_back(r.gpus);
            labels << gpusText(r.gpus);
        }
    }
    m_lossRect->axis(QCPAxis::atBottom)->setTicker(categoryTicker(labels));
    fitRanges();
    requestReplot();
}

void ScalingPage::fitRanges() {
    ChartPage::fitRanges();
    // Efficiency is a share: 0 to a little over 100 %, so the ideal's 100 % is always in view.
    plot()->yAxis2->setRange(0, 1.1);
    m_lossRect->axis(QCPAxis::atBottom)->setRange(0.4, static_cast<double>(m_lossGpus.size()) + 0.6);
}

void ScalingPage::restyle() {
    for (std::size_t i = 0; i < m_loss.size(); ++i) m_loss[i]->setBrush(breakdownColor(kLossParts[i]));
}

}  // namespace tpscope::ui
