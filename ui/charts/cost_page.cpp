// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/cost_page.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>

#include <limits>

#include "core/calc/cost_target.h"
#include "core/util/units.h"
#include "ui/charts/breakdown_palette.h"
#include "ui/charts/unit_ticker.h"
#include "ui/export/plot_export.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

constexpr double kNoNumber = std::numeric_limits<double>::quiet_NaN();  // a "—" cell

QString premiumText(double premium, bool baseline) {
    if (baseline) return QObject::tr("base");
    return (premium >= 0 ? QStringLiteral("+") : QString()) + qs(core::formatPercent(premium));
}

}  // namespace

CostPage::CostPage(QWidget* parent) : ChartPage(tr("Cost"), parent) {
    controls()->addWidget(new QLabel(tr("Price per GPU-hour:"), this));
    m_price = new QDoubleSpinBox(this);
    m_price->setObjectName(QStringLiteral("costPrice"));
    // $0 is "no price", as in the run panel: no cost columns anywhere.
    m_price->setRange(0, 1000);
    m_price->setSpecialValueText(tr("no price"));
    m_price->setDecimals(2);
    m_price->setPrefix(QStringLiteral("$ "));
    m_price->setValue(2.50);
    m_price->setLocale(QLocale::c());
    controls()->addWidget(m_price);
    controls()->addWidget(new QLabel(tr("Latency target:"), this));
    m_target = new QDoubleSpinBox(this);
    m_target->setObjectName(QStringLiteral("costLatencyTarget"));
    m_target->setRange(0.1, 100000);
    m_target->setDecimals(2);
    m_target->setSuffix(tr(" ms per token"));
    m_target->setValue(50);
    m_target->setLocale(QLocale::c());
    controls()->addWidget(m_target);
    controls()->addWidget(new QLabel(tr("Batch:"), this));
    m_batch = new QComboBox(this);
    controls()->addWidget(m_batch);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    controls()->addWidget(m_caption, 1);
    connect(m_price, &QDoubleSpinBox::valueChanged, this, &CostPage::pricePerGpuHourEdited);
    connect(m_target, &QDoubleSpinBox::valueChanged, this, &CostPage::latencyTargetEdited);
    connect(m_batch, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });

    auto* p = plot();
    p->xAxis->setLabel(tr("GPUs"));
    p->yAxis->setLabel(tr("$ per million tokens"));
    p->yAxis->setTicker(dollarTicker());
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(tr("Throughput (tokens/s)"));
    p->yAxis2->setTicker(siTicker());
    m_cost = new QCPBars(p->xAxis, p->yAxis);
    m_cost->setName(tr("$ per million tokens"));
    m_cost->setWidth(0.6);
    m_cost->setAntialiased(false);
    m_cost->setPen(Qt::NoPen);
    m_highlight = new QCPBars(p->xAxis, p->yAxis);
    m_highlight->setName(tr("Cheapest meeting the latency target"));
    m_highlight->setWidth(0.6);
    m_highlight->setAntialiased(false);
    m_throughput = p->addGraph(p->xAxis, p->yAxis2);
    m_throughput->setName(tr("Throughput"));
    m_throughput->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    restyle();

    auto* table = addTable({tr("Batch"), tr("GPUs"), tr("Tokens/s"), tr("Step latency"), tr("$ per M tokens"),
                            tr("Premium"), tr("Meets target")});
    setCsvHeader(*table, {"batch", "gpus", "tokens_per_sec", "step_latency_ms", "dollars_per_million_tokens",
                          "premium_fraction", "meets_target"});
    clearCost(tr("No finished runs."));
}

double CostPage::pricePerGpuHour() const {
    return m_price->value();
}

void CostPage::setPricePerGpuHour(double price) {
    m_price->setValue(price);
}

double CostPage::latencyTargetMs() const {
    return m_target->value();
}

void CostPage::setLatencyTargetMs(double ms) {
    m_target->setValue(ms);
}

void CostPage::setShownBatch(int batch) {
    const int index = m_batch->findData(batch);
    if (index >= 0) m_batch->setCurrentIndex(index);
}

int CostPage::shownBatch() const {
    return m_batch->currentData().isValid() ? m_batch->currentData().toInt() : 0;
}

void CostPage::clearCost(const QString& why) {
    m_why = why;
    m_report = {};
    m_candidates.clear();
    m_highlightIndex.reset();
    m_gpus.clear();
    m_cost->data()->clear();
    m_highlight->data()->clear();
    m_throughput->data()->clear();
    plot()->clearItems();
    {
        const QSignalBlocker block(m_batch);
        m_batch->clear();
    }
    m_caption->setText(why);
    tableModel()->removeRows(0, tableModel()->rowCount());
    requestReplot();
}

void CostPage::setCost(const core::analysis::ScalingReport& report, std::vector<core::CostCandidate> candidates,
                       std::optional<std::size_t> highlight) {
    const int previous = shownBatch();
    m_why.clear();
    m_report = report;
    m_candidates = std::move(candidates);
    m_highlightIndex = highlight && *highlight < m_candidates.size() ? highlight : std::nullopt;
    {
        const QSignalBlocker block(m_batch);
        m_batch->clear();
        for (const auto& b : m_report.batches) m_batch->addItem(QString::number(b.batch), b.batch);
        // Open on the batch of the highlighted configuration, else keep the user's choice.
        const int wanted = m_highlightIndex ? m_candidates[*m_highlightIndex].batch : previous;
        m_batch->setCurrentIndex(std::max(0, m_batch->findData(wanted)));
    }
    auto* model = tableModel();
    model->removeRows(0, model->rowCount());
    const bool priced = m_report.pricePerGpuHour > 0;  // $0: no price, "—" as in every other view
    for (std::size_t i = 0; i < m_candidates.size(); ++i) {
        const auto& c = m_candidates[i];
        double premium = 0;
        bool baseline = false;
        for (const auto& b : m_report.batches) {
            for (const auto& r : b.rows) {
                if (b.batch == c.batch && r.gpus == c.gpus) {
                    premium = r.premiumVsBaseline;
                    baseline = r.gpus == b.baselineGpus;
                }
            }
        }
        QList<QStandardItem*> row;
        row << numberItem(QString::number(c.batch), c.batch) << numberItem(QString::number(c.gpus), c.gpus)
            << numberItem(qs(core::formatSi(c.tokensPerSec, "")), c.tokensPerSec)
            << numberItem(qs(core::formatDurationNs(c.stepLatencyMs * 1e6, core::DurationStyle::Display)),
                          c.stepLatencyMs)
            << (priced ? numberItem(qs(core::formatDollars(c.dollarsPerMillionTokens)), c.dollarsPerMillionTokens)
                       : numberItem({}, kNoNumber))
            << (priced ? numberItem(premiumText(premium, baseline), premium) : numberItem({}, kNoNumber))
            << new QStandardItem(core::meetsTarget(c, latencyTargetMs())
                                     ? (priced && m_highlightIndex == i ? tr("yes, cheapest") : tr("yes"))
                                     : tr("no"));
        model->appendRow(row);
    }
    rebuild();
}

std::optional<core::CostCandidate> CostPage::highlighted() const {
    if (!m_highlightIndex) return std::nullopt;
    return m_candidates[*m_highlightIndex];
}

QString CostPage::highlightText() const {
    // Without a report the reason is why there is none (a scaling error, no runs), never the price.
    if (!m_why.isEmpty()) return m_why;
    if (m_report.pricePerGpuHour <= 0) return tr("Set a price per GPU-hour to see costs.");
    if (!m_highlightIndex) {
        return tr("No configuration meets %1 ms per token.").arg(qs(core::formatFixed(latencyTargetMs(), 1)));
    }
    const auto& c = m_candidates[*m_highlightIndex];
    return tr("Cheapest within %1 ms per token: %2 GPUs at batch %3, %4 per million tokens (%5 ms per token).")
        .arg(qs(core::formatFixed(latencyTargetMs(), 1)))
        .arg(c.gpus)
        .arg(c.batch)
        .arg(qs(core::formatDollars(c.dollarsPerMillionTokens)))
        .arg(qs(core::formatFixed(c.stepLatencyMs, 2)));
}

QStringList CostPage::premiumLabels() const {
    QStringList labels;
    for (int i = 0; i < plot()->itemCount(); ++i) {
        if (auto* text = qobject_cast<QCPItemText*>(plot()->item(i))) labels << text->text();
    }
    return labels;
}

void CostPage::rebuild() {
    auto* p = plot();
    p->clearItems();
    m_gpus.clear();
    QVector<double> keys;
    QVector<double> cost;
    QVector<double> tps;
    QVector<double> hiKey;
    QVector<double> hiValue;
    QStringList labels;
    const int batch = shownBatch();
    for (const auto& b : m_report.batches) {
        if (b.batch != batch) continue;
        for (std::size_t k = 0; k < b.rows.size(); ++k) {
            const auto& r = b.rows[k];
            const double key = static_cast<double>(k + 1);
            m_gpus.push_back(r.gpus);
            labels << (r.gpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(r.gpus));
            keys.push_back(key);
            cost.push_back(r.costPerMillionTokens);
            tps.push_back(r.tokensPerSec);
            if (m_highlightIndex && m_candidates[*m_highlightIndex].batch == b.batch &&
                m_candidates[*m_highlightIndex].gpus == r.gpus) {
                hiKey.push_back(key);
                hiValue.push_back(r.costPerMillionTokens);
            }
            if (m_report.pricePerGpuHour > 0) {
                auto* label = new QCPItemText(p);
                label->position->setType(QCPItemPosition::ptPlotCoords);
                label->position->setAxes(p->xAxis, p->yAxis);
                label->position->setCoords(key, r.costPerMillionTokens);
                label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
                label->setText(premiumText(r.premiumVsBaseline, r.gpus == b.baselineGpus));
                label->setColor(palette().color(QPalette::Text));
                label->setClipToAxisRect(false);
            }
        }
    }
    m_cost->setData(keys, cost, true);
    m_highlight->setData(hiKey, hiValue, true);
    m_throughput->setData(keys, tps, true);
    p->xAxis->setTicker(categoryTicker(labels));
    m_caption->setText(highlightText());
    fitRanges();
    requestReplot();
}

void CostPage::fitRanges() {
    ChartPage::fitRanges();
    plot()->xAxis->setRange(0.4, static_cast<double>(m_gpus.size()) + 0.6);
    // Room above the tallest bar for its premium label.
    plot()->yAxis->setRangeUpper(plot()->yAxis->range().upper * 1.08);
}

void CostPage::restyle() {
    m_cost->setBrush(seriesColor(0));
    const QColor hi = breakdownColor(BreakdownPart::OverlappedComm);
    m_highlight->setBrush(QBrush(hi, Qt::SolidPattern));
    m_highlight->setPen(QPen(palette().color(QPalette::Text), 2));
    m_throughput->setPen(QPen(seriesColor(2), 2));
    for (int i = 0; i < plot()->itemCount(); ++i) {
        if (auto* text = qobject_cast<QCPItemText*>(plot()->item(i))) text->setColor(palette().color(QPalette::Text));
    }
}

}  // namespace tpscope::ui
