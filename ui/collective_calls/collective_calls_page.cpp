// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/collective_calls/collective_calls_page.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

#include "core/analysis/collective_matching.h"
#include "ui/charts/unit_ticker.h"
#include "ui/collective_calls/collective_calls_model.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

// Powers of two from 16x below the smallest call to 16x above the largest (8 B .. 1 TiB), so the
// curve shows where the calls sit between the latency-bound and the bandwidth-bound regime.
std::vector<std::uint64_t> curveSizes(std::uint64_t minBytes, std::uint64_t maxBytes) {
    constexpr std::uint64_t kMax = 1ull << 40;
    std::uint64_t lo = 8;
    while (lo * 2 <= minBytes / 16 && lo < kMax) lo *= 2;
    const std::uint64_t hi = std::min(kMax, std::max<std::uint64_t>(maxBytes, 64) * 16);
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t b = lo; b <= hi; b *= 2) {
        sizes.push_back(b);
    }
    return sizes;
}

}  // namespace

CollectiveCallsPage::CollectiveCallsPage(core::Catalog catalog, QWidget* parent)
    : ChartPage(tr("Collective calls"), parent), m_catalog(std::move(catalog)) {
    for (const auto& f : m_catalog.fabrics()) {
        if (f.scope == core::FabricScope::IntraNode) m_fabrics.push_back(f);
    }
    controls()->addWidget(new QLabel(tr("Model curve on"), this));
    m_fabric = new QComboBox(this);
    for (const auto& f : m_fabrics) m_fabric->addItem(qs(f.name), qs(f.id));
    controls()->addWidget(m_fabric);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    controls()->addWidget(m_status, 1);
    connect(m_fabric, &QComboBox::currentIndexChanged, this, &CollectiveCallsPage::invalidate);

    auto* p = plot();
    m_curve = p->addGraph();
    m_curve->setPen(QPen(QColor(0x88, 0x88, 0x88), 2));
    m_allReduce = p->addGraph();
    m_allReduce->setLineStyle(QCPGraph::lsNone);
    m_allReduce->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0xe0, 0x7b, 0x39), 6));
    m_allReduce->setName(tr("all-reduce calls (measured)"));
    m_other = p->addGraph();
    m_other->setLineStyle(QCPGraph::lsNone);
    m_other->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0x5b, 0x8f, 0xd6), 6));
    m_other->setName(tr("other collectives"));
    p->xAxis->setScaleType(QCPAxis::stLogarithmic);
    p->xAxis->setTicker(bytesLogTicker());
    p->xAxis->setLabel(tr("message size per rank"));
    p->yAxis->setTicker(bandwidthTicker());
    p->yAxis->setLabel(tr("bus bandwidth (nccl-tests convention)"));
    p->legend->setVisible(true);
    m_calls = new CollectiveCallsModel(this);
    setTableModel(m_calls);
    invalidate();
}

std::string CollectiveCallsPage::fabricId() const {
    return m_fabric->currentData().toString().toStdString();
}

QString CollectiveCallsPage::statusText() {
    ensureBuilt();
    return m_status->text();
}

QCPGraph* CollectiveCallsPage::allReducePoints() {
    ensureBuilt();
    return m_allReduce;
}

QCPGraph* CollectiveCallsPage::otherPoints() {
    ensureBuilt();
    return m_other;
}

QCPGraph* CollectiveCallsPage::modelCurve() {
    ensureBuilt();
    return m_curve;
}

int CollectiveCallsPage::curveRanks() {
    ensureBuilt();
    return m_ranks;
}

CollectiveCallsModel* CollectiveCallsPage::tableModel() {
    ensureBuilt();
    return m_calls;
}

core::Status CollectiveCallsPage::exportTo(const ExportRequest& request) const {
    // Exporting reads the page as shown: build it first (the page's state, not the run, changes).
    const_cast<CollectiveCallsPage*>(this)->ensureBuilt();
    return ChartPage::exportTo(request);
}

void CollectiveCallsPage::showEvent(QShowEvent* event) {
    ensureBuilt();
    ChartPage::showEvent(event);
}

void CollectiveCallsPage::invalidate() {
    m_stale = true;
    if (isVisible()) ensureBuilt();
}

void CollectiveCallsPage::ensureBuilt() {
    if (!m_stale) return;
    m_stale = false;
    rebuild();
}

void CollectiveCallsPage::setRun(std::shared_ptr<const core::Trace> trace,
                                 std::shared_ptr<const core::analysis::RunAnalysis> analysis,
                                 const std::string& fabricId) {
    m_trace = std::move(trace);
    m_analysis = std::move(analysis);
    const int i = m_fabric->findData(qs(fabricId));
    if (i >= 0 && i != m_fabric->currentIndex()) {
        m_fabric->setCurrentIndex(i);  // invalidates
    } else {
        invalidate();
    }
}

void CollectiveCallsPage::setFabric(const std::string& fabricId) {
    const int i = m_fabric->findData(qs(fabricId));
    if (i >= 0) m_fabric->setCurrentIndex(i);
}

void CollectiveCallsPage::rebuild() {
    m_allReduce->data()->clear();
    m_other->data()->clear();
    m_curve->data()->clear();
    m_ranks = 0;
    if (!m_trace || !m_analysis) {
        m_calls->setRun(nullptr, nullptr, std::nullopt);
        m_status->setText(tr("No run selected."));
        requestReplot();
        return;
    }
    const auto& calls = m_analysis->matching.calls;
    std::uint64_t minBytes = UINT64_MAX, maxBytes = 0;
    std::size_t unplotted = 0;
    for (const auto& c : calls) {
        const double busbw = core::analysis::busBandwidth(c);
        if (!std::isfinite(busbw)) {
            ++unplotted;
            continue;
        }
        (c.op == core::CollectiveOp::AllReduce ? m_allReduce : m_other)->addData(static_cast<double>(c.bytes), busbw);
        minBytes = std::min(minBytes, c.bytes);
        maxBytes = std::max(maxBytes, c.bytes);
        if (c.op == core::CollectiveOp::AllReduce) m_ranks = std::max(m_ranks, static_cast<int>(c.groupSize));
    }
    QStringList status;
    status << tr("%n collective call(s)", nullptr, static_cast<int>(calls.size()));
    if (unplotted > 0) {
        status << tr("%n without a size or transfer time (not plotted)", nullptr, static_cast<int>(unplotted));
    }
    std::optional<core::sim::CollectiveModel> model;
    const std::size_t fabricIndex = static_cast<std::size_t>(std::max(0, m_fabric->currentIndex()));
    if (m_ranks >= 2 && fabricIndex < m_fabrics.size()) {
        const auto& fabric = m_fabrics[fabricIndex];
        auto created = core::sim::CollectiveModel::create(fabric, std::nullopt, m_ranks, m_ranks);
        if (created) {
            model = std::move(*created);
            for (const auto bytes : curveSizes(minBytes, maxBytes)) {
                const double t = model->allReduce(bytes).timeNs();
                m_curve->addData(static_cast<double>(bytes), core::sim::allReduceBusbw(bytes, t, m_ranks));
            }
            m_curve->setName(tr("model: all-reduce on %1, %2 GPUs").arg(qs(fabric.name)).arg(m_ranks));
        } else {
            status << qs(created.error().describe());
        }
    } else if (m_ranks < 2) {
        status << tr("no all-reduce of two or more ranks with a size: no model curve");
    }
    m_curve->setVisible(model.has_value());
    m_curve->removeFromLegend();
    if (model) m_curve->addToLegend();
    m_status->setText(status.join(QStringLiteral("; ")));
    m_calls->setRun(m_trace, m_analysis, std::move(model));
    plot()->rescaleAxes();
    auto* y = plot()->yAxis;
    y->setRange(0, std::max(1.0, y->range().upper * 1.1));
    requestReplot();
}

}  // namespace tpscope::ui
