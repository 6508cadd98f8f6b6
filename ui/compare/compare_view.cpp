// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/compare/compare_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

#include "core/analysis/run_summary.h"
#include "ui/compare/compare_tables.h"
#include "ui/compare/residual_page.h"
#include "ui/compare/stacked_timelines.h"
#include "ui/export/painted_export.h"
#include "ui/export/plot_export.h"
#include "ui/palette_colors.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_legend.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"

namespace tpscope::ui {

namespace {

QString paneTitle(const CompareRun& run, std::size_t index) {
    return QStringLiteral("#%1 %2").arg(index + 1).arg(run.label);
}

}  // namespace

bool isMeasuredOrigin(core::TraceOrigin o) {
    return o == core::TraceOrigin::Captured || o == core::TraceOrigin::Imported;
}

bool isModelOrigin(core::TraceOrigin o) {
    return o == core::TraceOrigin::Simulated || o == core::TraceOrigin::Predicted;
}

std::optional<ResidualPair> residualPairFor(const std::vector<core::TraceOrigin>& origins) {
    if (origins.size() != 2) return std::nullopt;
    if (isMeasuredOrigin(origins[0]) && isModelOrigin(origins[1])) return ResidualPair{0, 1};
    if (isModelOrigin(origins[0]) && isMeasuredOrigin(origins[1])) return ResidualPair{1, 0};
    return std::nullopt;
}

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    m_axis = new TimeAxis(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("compareMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_stack->addWidget(m_message);

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(4, 4, 4, 4);
    auto* tools = new QHBoxLayout;
    m_title = new QLabel(content);
    m_title->setTextFormat(Qt::RichText);
    tools->addWidget(m_title, 1);
    tools->addWidget(new QLabel(tr("Baseline"), content));
    m_baseline = new QComboBox(content);
    m_baseline->setObjectName(QStringLiteral("compareBaseline"));
    m_baseline->setToolTip(tr("The run every delta is measured against"));
    tools->addWidget(m_baseline);
    connect(m_baseline, &QComboBox::activated, this, [this](int index) {
        if (index > 0) setBaseline(static_cast<std::size_t>(index));
    });
    tools->addWidget(new QLabel(tr("Align on layer"), content));
    m_layer = new QSpinBox(content);
    m_layer->setObjectName(QStringLiteral("compareAlignLayer"));
    m_layer->setToolTip(tr("Centre every pane on this layer of its own run (the first step that has it)"));
    tools->addWidget(m_layer);
    auto* align = new QPushButton(tr("Align"), content);
    align->setToolTip(tr("Centre every pane on the chosen layer again (after a pan or zoom)"));
    tools->addWidget(align);
    contentLayout->addLayout(tools);
    // One legend for every pane, on its own line (each pane's own is hidden: setCompact).
    auto* legend = new QHBoxLayout;
    legend->addWidget(new TimelineLegend(content));
    legend->addStretch(1);
    contentLayout->addLayout(legend);
    connect(m_layer, &QSpinBox::valueChanged, this, [this](int layer) { alignOnLayer(layer); });
    connect(align, &QPushButton::clicked, this, [this] { alignOnLayer(m_layer->value()); });

    auto* split = new QSplitter(Qt::Vertical, content);
    m_panesSplit = new QSplitter(Qt::Vertical, split);
    m_panesSplit->setChildrenCollapsible(false);
    m_tables = new QTabWidget(split);
    // The tables scroll: their tallest page (the residual chart) must not set the view's minimum height.
    m_tables->setMinimumHeight(m_tables->tabBar()->sizeHint().height() + fontMetrics().lineSpacing() * 4);
    m_layerTable = new QStandardItemModel(this);
    m_summaryTable = new QStandardItemModel(this);
    addTableTab(m_layerTable, tr("Per layer"));
    addTableTab(m_summaryTable, tr("Summary"));
    m_residualPage = new ResidualPage(m_tables);
    // Always a tab, shown only with a residual pair: a removed tab's page would stay on screen.
    m_tables->addTab(m_residualPage, tr("Residual (measured − model)"));
    m_tables->setTabVisible(m_tables->indexOf(m_residualPage), false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({760, 190});  // the timelines (up to four) get most of the height; the tables scroll
    contentLayout->addWidget(split, 1);
    m_stack->addWidget(content);
    clear(
        tr("<h3>Compare runs</h3><p>Select 2 to 4 runs in the runs table (Ctrl+click) and press "
           "<b>Compare</b>, or use <b>Simulate this configuration</b> / <b>What if on…</b> on a measured run.</p>"));
}

CompareView::~CompareView() {
    // The panes' views report to the axis when they go: delete them while it exists.
    qDeleteAll(m_panes);
}

QTableView* CompareView::addTableTab(QStandardItemModel* model, const QString& title) {
    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(model);
    sorted->setSortRole(Qt::UserRole);
    auto* view = new QTableView(m_tables);
    view->setModel(sorted);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tables->addTab(view, title);
    return view;
}

QString CompareView::tabTitle() const {
    return tr("Compare");
}

QString CompareView::messageText() const {
    return m_message->text();
}

void CompareView::clear(const QString& why) {
    qDeleteAll(m_panes);
    m_panes.clear();
    m_runs.clear();
    m_residual.reset();
    m_comparison = {};
    m_alignedLayer = -1;
    m_layerTable->clear();
    m_summaryTable->clear();
    m_residualPage->clearResidual();
    m_tables->setTabVisible(m_tables->indexOf(m_residualPage), false);
    m_message->setStyleSheet(QStringLiteral("color:%1").arg(mutedTextColor(palette()).name()));
    m_message->setText(why);
    m_stack->setCurrentIndex(0);
}

bool CompareView::showsRun(RunId id) const {
    return std::any_of(m_runs.begin(), m_runs.end(), [id](const CompareRun& r) { return r.id == id; });
}

core::Status CompareView::setRuns(std::vector<CompareRun> runs, std::optional<ResidualPair> residual) {
    if (runs.size() < kMinRuns || runs.size() > kMaxRuns) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "Compare shows 2 to 4 runs; " + std::to_string(runs.size()) + " selected");
    }
    for (const auto& r : runs) {
        if (!r.trace || !r.analysis) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "run '" + r.label.toStdString() + "' has no trace yet: it has not finished");
        }
    }
    if (residual && (residual->measured >= runs.size() || residual->model >= runs.size() ||
                     residual->measured == residual->model)) {
        return core::makeError(core::ErrorCode::InvalidArgument, "the residual needs two different compared runs");
    }
    m_runs = std::move(runs);
    m_residual = residual;
    // The numbers of `tpscope-cli compare --json` on the same runs: labels, every rank (mean).
    std::vector<core::analysis::CompareInput> inputs;
    for (const auto& r : m_runs) inputs.push_back({r.label.toStdString(), r.analysis.get(), -1});
    m_comparison = core::analysis::compareRuns(inputs);
    fillLayerDeltaTable(*m_layerTable, m_comparison);
    fillSummaryTable(*m_summaryTable, m_comparison);
    const int residualTab = m_tables->indexOf(m_residualPage);
    m_tables->setTabVisible(residualTab, m_residual.has_value());
    if (m_residual) {
        m_residualPage->setResidual(m_comparison, m_residual->measured, m_residual->model);
        m_tables->setCurrentWidget(m_residualPage);
    } else {
        m_residualPage->clearResidual();
        m_tables->setCurrentIndex(0);
    }
    m_title->setText(tr("<b>Compare</b> %1 runs — deltas against #1").arg(m_runs.size()));
    {
        const QSignalBlocker block(m_baseline);
        m_baseline->clear();
        for (std::size_t i = 0; i < m_runs.size(); ++i) m_baseline->addItem(paneTitle(m_runs[i], i));
        m_baseline->setCurrentIndex(0);
    }
    rebuildPanes();
    m_stack->setCurrentIndex(1);

    // Align on the first layer index that every run has (else the first there is).
    int first = -1;
    for (const auto& row : m_comparison.layers) {
        const bool everywhere = std::all_of(row.runs.begin(), row.runs.end(), [](const auto& c) { return c.present; });
        if (everywhere) {
            first = row.layer;
            break;
        }
    }
    if (first < 0 && !m_comparison.layers.empty()) first = m_comparison.layers.front().layer;
    const QSignalBlocker block(m_layer);
    m_layer->setRange(m_comparison.layers.empty() ? 0 : m_comparison.layers.front().layer,
                      m_comparison.layers.empty() ? 0 : m_comparison.layers.back().layer);
    m_alignedLayer = -1;
    if (first >= 0) {
        m_layer->setValue(first);
        alignOnLayer(first);
    } else {
        fitView();
    }
    return core::Ok{};
}

void CompareView::rebuildPanes() {
    qDeleteAll(m_panes);
    m_panes.clear();
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        auto* pane = new TimelinePanel(m_panesSplit);
        pane->setCompact(true);
        pane->view()->setTimeAxis(m_axis);
        // One summary lane per GPU, so four runs of eight GPUs show kernels in every pane; one ruler
        // (the first pane's) for the shared axis.
        pane->view()->setFoldPolicy(foldEveryTrace);
        pane->view()->setRulerVisible(i == 0);
        pane->setTrace(m_runs[i].trace, m_runs[i].timeline, paneTitle(m_runs[i], i));
        connect(pane, &TimelinePanel::detailsChanged, this, &CompareView::detailsChanged);
        connect(pane->view(), &TimelineView::verticalOffsetChanged, this,
                [this, view = pane->view()](int offset) { syncVerticalOffset(view, offset); });
        m_panesSplit->addWidget(pane);
        m_panes.push_back(pane);
    }
}

void CompareView::syncVerticalOffset(const TimelineView* from, int offset) {
    if (m_syncingScroll) return;  // the other panes' own offsets echo back
    m_syncingScroll = true;
    for (auto* pane : m_panes) {
        if (pane->view() != from) pane->view()->setVerticalOffset(offset);
    }
    m_syncingScroll = false;
}

bool CompareView::setBaseline(std::size_t index) {
    if (index >= m_runs.size()) return false;
    if (index == 0) return true;
    std::vector<CompareRun> runs = m_runs;
    std::vector<std::size_t> order(runs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(index),
                order.begin() + static_cast<std::ptrdiff_t>(index) + 1);
    std::vector<CompareRun> reordered;
    reordered.reserve(order.size());
    for (const std::size_t i : order) reordered.push_back(runs[i]);
    std::optional<ResidualPair> residual = m_residual;
    if (residual) {
        const auto at = [&](std::size_t old) {
            return static_cast<std::size_t>(std::find(order.begin(), order.end(), old) - order.begin());
        };
        residual = ResidualPair{at(residual->measured), at(residual->model)};
    }
    return setRuns(std::move(reordered), residual).ok();
}

TimelineView* CompareView::paneView(int index) const {
    if (index < 0 || index >= paneCount()) return nullptr;
    return m_panes[static_cast<std::size_t>(index)]->view();
}

bool CompareView::alignOnLayer(int layer) {
    // Each run's own layer `layer` (first step that has it) from its analysis.
    std::vector<std::optional<core::analysis::TimeSpan>> spans;
    bool any = false;
    for (const auto& r : m_runs) {
        spans.push_back(core::analysis::firstLayerSpan(r.analysis->breakdown, layer));
        any = any || spans.back().has_value();
    }
    if (!any || m_panes.size() != m_runs.size()) return false;
    // Axis 0 of pane i sits at (its layer centre - C), C the latest layer centre relative to its run's
    // start: then every anchor is at or before its trace's start, and the axis range centred on C
    // shows each run's layer in the middle, at every zoom and pan. A run without the layer keeps
    // its start at 0.
    std::int64_t latest = 0;
    std::int64_t widest = 0;
    std::vector<std::int64_t> centres(m_runs.size(), 0);
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const TimelineView* view = m_panes[i]->view();
        if (!spans[i]) continue;
        centres[i] = spans[i]->startNs + (spans[i]->endNs - spans[i]->startNs) / 2;
        latest = std::max(latest, centres[i] - view->originNs());
        widest = std::max(widest, spans[i]->endNs - spans[i]->startNs);
    }
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        TimelineView* view = m_panes[i]->view();
        view->setAxisAnchorNs(spans[i] ? centres[i] - latest : view->originNs());
    }
    // The layer and about one neighbour either side, within the widest view the axis allows (twice
    // its content: a wider request would be cut and no longer centred).
    const std::int64_t width = std::clamp<std::int64_t>(3 * widest, TimeAxis::kMinSpanNs,
                                                        std::max(TimeAxis::kMinSpanNs, 2 * m_axis->contentSpanNs()));
    m_axis->setRange(latest - width / 2, latest - width / 2 + width);
    m_alignedLayer = layer;
    if (m_layer->value() != layer) {
        const QSignalBlocker block(m_layer);
        m_layer->setValue(layer);
    }
    return true;
}

void CompareView::fitView() {
    for (auto* pane : m_panes) pane->view()->setAxisAnchorNs(pane->view()->originNs());
    m_alignedLayer = -1;
    m_axis->fit();
}

void CompareView::zoomIn() {
    m_axis->zoom(0.5, 0.5);
}

void CompareView::zoomOut() {
    m_axis->zoom(2.0, 0.5);
}

QStringList CompareView::exportFormats() const {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv")};
}

const QStandardItemModel* CompareView::currentTable() const {
    if (m_tables->currentWidget() == m_residualPage) return m_residualPage->tableModel();
    return m_tables->currentIndex() == 1 ? m_summaryTable : m_layerTable;
}

std::vector<StackedPane> CompareView::stackedPanes() const {
    std::vector<StackedPane> panes;
    for (std::size_t i = 0; i < m_panes.size(); ++i) {
        panes.push_back({paneTitle(m_runs[i], i), m_panes[i]->view()->renderer()});
    }
    return panes;
}

core::Status CompareView::exportTo(const ExportRequest& request) const {
    if (m_runs.empty()) {
        return core::makeError(core::ErrorCode::InvalidArgument, "nothing to export: no runs compared",
                               request.path.toStdString());
    }
    const QString suffix = exportSuffix(request.path);
    if (suffix == QLatin1String("csv")) return exportTableCsv(*currentTable(), request.path);
    if (m_tables->currentWidget() == m_residualPage) return m_residualPage->exportTo(request);
    QSize size = request.sizePx.isValid() && !request.sizePx.isEmpty() ? request.sizePx : m_panesSplit->size();
    if (size.width() < 200 || size.height() < 60) size = QSize(1600, 900);
    auto panes = stackedPanes();
    const QFont font = this->font();
    return exportPainted(request.path, size, request.dpr, QStringLiteral("tpscope compare"),
                         [&](QPainter& p, QSize at, double dpr) { paintStackedTimelines(p, panes, at, dpr, font); });
}

}  // namespace tpscope::ui
