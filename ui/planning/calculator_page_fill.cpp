// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CalculatorPage: the plan, fabric and Amdahl tables and the floors chart, filled from core's numbers.

#include <qcustomplot.h>
#include <QStandardItemModel>

#include <array>
#include <cmath>
#include <vector>

#include "core/util/units.h"
#include "ui/charts/unit_ticker.h"
#include "ui/planning/calculator_page.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

QString duration(double ns) {
    return qs(core::formatDurationNs(ns, core::DurationStyle::Detail));
}

// The `bounds --json` field each fabric column shows (dotted for nested objects).
constexpr std::array kFabricFields{
    "fabric",
    "busbw_bytes_per_sec",
    "per_call_at_busbw_us",
    "per_step_at_busbw_us",
    "alpha_beta.min_call_latency_us",
    "alpha_beta.per_call_us",
    "alpha_beta.per_step_us",
    "alpha_beta.dominant",
    "comm_over_hbm",
    "",  // the note: why a fabric cannot carry the plan
};

// The step's HBM floor as `bounds --gpu` gives it (core::sim::stepFloors; the same on every fabric).
double hbmFloorNs(const CalculatorNumbers& n) {
    for (const auto& row : n.fabrics) {
        if (row.floors) return row.floors->hbmFloorNs;
    }
    return n.roofline.memoryTimeNs;
}

// One row of the plan table: the label, the CLI field it equals, its text and raw value.
struct Row {
    QString label;
    const char* field;  // `plan --json` field (dotted when nested), or "bounds:..." for `bounds --json --gpu`
    QString text;
    double raw;
};

void appendRows(QStandardItemModel* table, const std::vector<Row>& rows) {
    for (const auto& row : rows) {
        auto* label = new QStandardItem(row.label);
        label->setData(QString::fromLatin1(row.field), CalculatorPage::kFieldRole);
        table->appendRow({label, numberItem(row.text, row.raw)});
    }
}

}  // namespace

void CalculatorPage::fillPlan(const CalculatorNumbers& n) {
    const auto& p = n.plan;
    const auto& r = n.roofline;
    const double hbmNs = hbmFloorNs(n);
    const auto bytes = [](std::uint64_t b) { return qs(core::formatBytes(static_cast<double>(b))); };
    const std::vector<Row> rows = {
        {tr("all-reduce message per call"), "allreduce_message_bytes", bytes(p.allreduceMessageBytes),
         static_cast<double>(p.allreduceMessageBytes)},
        {tr("ring wire bytes per call"), "allreduce_wire_bytes_per_gpu", bytes(p.allreduceWireBytesPerGpu),
         static_cast<double>(p.allreduceWireBytesPerGpu)},
        {tr("all-reduces per step (in layers)"), "layer_allreduces_per_step", QString::number(p.layerAllreducesPerStep),
         static_cast<double>(p.layerAllreducesPerStep)},
        {tr("all-reduces per step"), "allreduces_per_step", QString::number(p.allreducesPerStep),
         static_cast<double>(p.allreducesPerStep)},
        {tr("collectives per step"), "collectives_per_step", QString::number(p.collectivesPerStep),
         static_cast<double>(p.collectivesPerStep)},
        {tr("wire bytes per step"), "wire_bytes_per_step_per_gpu", bytes(p.wireBytesPerStepPerGpu),
         static_cast<double>(p.wireBytesPerStepPerGpu)},
        {tr("weights"), "weight_bytes_per_gpu", bytes(p.memory.weightBytesPerGpu),
         static_cast<double>(p.memory.weightBytesPerGpu)},
        {tr("FLOPs per step"), "flops_per_step_per_gpu", qs(core::formatSi(p.flopsPerStep, "FLOP")), p.flopsPerStep},
        {tr("arithmetic intensity"), "bounds:roofline.arithmetic_intensity",
         qs(core::formatFixed(r.arithmeticIntensity, 2) + " FLOP/B"), r.arithmeticIntensity},
        {tr("roofline crossover of the GPU"), "bounds:roofline.crossover",
         qs(core::formatFixed(r.crossover, 1) + " FLOP/B"), r.crossover},
        {tr("intensity ÷ crossover"), "",
         qs(core::formatFixed(r.arithmeticIntensity / r.crossover, 4)) +
             (r.memoryBound ? tr(" (memory-bound)") : tr(" (compute-bound)")),
         r.arithmeticIntensity / r.crossover},
        {tr("roofline step floor"), "bounds:roofline.step_lower_bound_us", duration(r.stepLowerBoundNs),
         r.stepLowerBoundNs / 1e3},
        {tr("HBM floor of the step"), "bounds:hbm_floor_us", duration(hbmNs), hbmNs / 1e3},
    };
    m_planTable->setRowCount(0);
    appendRows(m_planTable, rows);
    // MoE / MLA: what the step reads changes with batch, and which cache every rank holds in full.
    const auto& m = p.config.model;
    std::vector<Row> extra;
    if (m.isMoe()) {
        const auto& moe = p.moe;
        extra = {
            {tr("experts touched per layer (of %1)").arg(m.moe.experts), "moe_step.touched_experts_per_layer",
             qs(core::formatFixed(moe.touchedExpertsPerLayer, 1)), moe.touchedExpertsPerLayer},
            {tr("experts per rank (%1)").arg(qs(core::toString(p.config.moeParallel))), "moe_step.experts_per_rank",
             QString::number(moe.expertsPerRank), static_cast<double>(moe.expertsPerRank)},
            {tr("touched experts per rank"), "moe_step.touched_experts_per_rank",
             qs(core::formatFixed(moe.touchedExpertsPerRank, 1)), moe.touchedExpertsPerRank},
            {tr("batch reading half the experts"), "moe_step.half_experts_batch", QString::number(moe.halfExpertsBatch),
             static_cast<double>(moe.halfExpertsBatch)},
            {tr("expert weights read per step"), "moe_step.expert_weight_bytes_per_step_per_gpu",
             bytes(moe.expertWeightBytesPerStepPerGpu), static_cast<double>(moe.expertWeightBytesPerStepPerGpu)},
            {tr("weights read per step (dense + touched experts)"), "weight_bytes_read_per_step_per_gpu",
             bytes(p.weightBytesReadPerStep), static_cast<double>(p.weightBytesReadPerStep)},
        };
    }
    if (m.isMoe() || m.isMla()) {
        const QString cache = p.shard.kvReplicated ? (m.isMla() ? tr("KV cache (MLA latent, full on every rank)")
                                                                : tr("KV cache (kv heads replicated)"))
                                                   : tr("KV cache");
        extra.push_back({cache, "kv_cache_bytes_per_gpu", bytes(p.memory.kvCacheBytesPerGpu),
                         static_cast<double>(p.memory.kvCacheBytesPerGpu)});
    }
    appendRows(m_planTable, extra);
}

void CalculatorPage::fillFabrics(const CalculatorNumbers& n) {
    auto* table = tableModel();
    table->setRowCount(0);
    for (int c = 0; c < table->columnCount(); ++c) {
        table->setHeaderData(c, Qt::Horizontal, QString::fromLatin1(kFabricFields.at(static_cast<std::size_t>(c))),
                             kFieldRole);
    }
    for (const auto& row : n.fabrics) {
        auto* name = new QStandardItem(qs(row.fabric.name));
        name->setData(qs(row.fabric.id), kFieldRole);
        QList<QStandardItem*> items{
            name, numberItem(qs(core::formatSi(row.fabric.busbwBytesPerSec, "B/s")), row.fabric.busbwBytesPerSec)};
        if (!row.floors) {
            for (int c = 2; c < table->columnCount() - 1; ++c) items << new QStandardItem(QStringLiteral("—"));
            auto* why = new QStandardItem(qs(row.error));
            why->setToolTip(qs(row.error));
            items << why;
            table->appendRow(items);
            continue;
        }
        const auto& f = *row.floors;
        const auto& b = f.bandwidthOnly;
        items << numberItem(duration(b.perCallAtBusbwNs), b.perCallAtBusbwNs / 1e3)
              << numberItem(duration(b.perStepAtBusbwNs), b.perStepAtBusbwNs / 1e3)
              << numberItem(duration(f.minCallLatencyNs), f.minCallLatencyNs / 1e3)
              << numberItem(duration(f.perCallAlphaBetaNs), f.perCallAlphaBetaNs / 1e3)
              << numberItem(duration(f.perStepAlphaBetaNs), f.perStepAlphaBetaNs / 1e3)
              << new QStandardItem(f.latencyDominates() ? QStringLiteral("latency") : QStringLiteral("bandwidth"))
              << numberItem(qs(core::formatFixed(f.commOverHbm, 3)), f.commOverHbm) << new QStandardItem(QString());
        table->appendRow(items);
    }
}

void CalculatorPage::fillAmdahl(const CalculatorNumbers& n) {
    m_amdahlTable->setRowCount(0);
    if (!n.amdahl) {
        m_amdahlLimit->clear();
        return;
    }
    for (const auto& p : n.amdahl->points) {
        m_amdahlTable->appendRow({numberItem(QString::number(p.gpus), p.gpus),
                                  numberItem(qs(core::formatFixed(p.speedup, 3)) + QStringLiteral("×"), p.speedup),
                                  numberItem(qs(core::formatPercent(p.efficiency)), p.efficiency)});
    }
    m_amdahlLimit->setText(std::isfinite(n.amdahl->maxSpeedup)
                               ? tr("limit 1/S: %1×").arg(qs(core::formatFixed(n.amdahl->maxSpeedup, 2)))
                               : tr("limit 1/S: unbounded (S = 0)"));
}

// Per fabric, the two per-step floors as bars on a log axis (they span ns to ms) and the HBM floor of
// the step as a line: a fabric whose alpha-beta bar rises above it is bound by communication.
void CalculatorPage::plotFabrics(const CalculatorNumbers& n) {
    auto* p = plot();
    p->clearPlottables();
    p->clearItems();  // the n/a labels of the last plan
    QStringList labels;
    QVector<double> keys, bandwidthOnly, alphaBeta;
    for (std::size_t i = 0; i < n.fabrics.size(); ++i) {
        labels << qs(n.fabrics[i].fabric.id);
        if (!n.fabrics[i].floors) {
            // A fabric that cannot carry the plan keeps its slot, marked: the chart's slots stay the
            // table's rows at every TP, and an empty slot on a log axis reads as "below 1 ns".
            auto* na = new QCPItemText(p);
            na->setText(tr("n/a"));
            na->position->setTypeX(QCPItemPosition::ptPlotCoords);
            na->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            na->position->setCoords(static_cast<double>(i + 1), 0.97);  // just above the axis
            na->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
            na->setPadding(QMargins(3, 1, 3, 1));
            na->setColor(palette().color(QPalette::Text));
            na->setBrush(palette().color(QPalette::Base));  // the slot's grid line runs under it, not through it
            na->setClipToAxisRect(true);
            continue;
        }
        keys << static_cast<double>(i + 1);
        bandwidthOnly << n.fabrics[i].floors->bandwidthOnly.perStepAtBusbwNs;
        alphaBeta << n.fabrics[i].floors->perStepAlphaBetaNs;
    }
    const auto addBars = [&](const QString& name, const QVector<double>& values, double offset, const QColor& colour) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(name);
        bars->setWidth(0.38);
        bars->setPen(Qt::NoPen);
        bars->setBaseValue(1);  // the log axis has no 0: bars rise from 1 ns
        bars->setBrush(colour);
        QVector<double> shifted = keys;
        for (auto& k : shifted) k += offset;
        bars->setData(shifted, values, true);
        return bars;
    };
    addBars(tr("bandwidth-only floor per step"), bandwidthOnly, -0.2, QColor(0x5b, 0x8f, 0xd6));
    addBars(tr("α-β floor per step"), alphaBeta, 0.2, QColor(0xe0, 0x7b, 0x39));
    auto* hbm = p->addGraph();
    hbm->setName(tr("HBM floor of the step"));
    hbm->setPen(QPen(QColor(0x2e, 0x9e, 0x5b), 2, Qt::DashLine));
    const double hbmNs = hbmFloorNs(n);
    hbm->setData({0.5, static_cast<double>(n.fabrics.size()) + 0.5}, {hbmNs, hbmNs});
    p->xAxis->setTicker(categoryTicker(labels));
    p->xAxis->setTickLabelRotation(30);
    p->yAxis->setScaleType(QCPAxis::stLogarithmic);
    p->yAxis->setTicker(durationLogTicker());
    p->yAxis->setLabel(tr("step floor"));
    fitRanges();
    requestReplot();
}

void CalculatorPage::fitRanges() {
    double lo = 0, hi = 0;
    for (int i = 0; i < plot()->plottableCount(); ++i) {
        bool found = false;
        const QCPRange r = plot()->plottable(i)->getValueRange(found, QCP::sdPositive);
        if (!found) continue;
        lo = lo > 0 ? std::min(lo, r.lower) : r.lower;
        hi = std::max(hi, r.upper);
    }
    if (hi <= 0) return;
    plot()->yAxis->setRange(lo / 2, hi * 2);  // the legend is below the axes
    plot()->xAxis->setRange(0.4, static_cast<double>(tableModel()->rowCount()) + 0.6);
}

}  // namespace tpscope::ui
