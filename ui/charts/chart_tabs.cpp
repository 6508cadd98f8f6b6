#include "ui/charts/chart_tabs.h"

#include <qcustomplot.h>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>

#include "ui/charts/chart_set.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"
#include "ui/export/sweep_report.h"
#include "ui/runs_model.h"
#include "ui/timeline/timeline_panel.h"

namespace tpscope::ui {

namespace {

// Until the document hands out stable ids, a run is known by its row (runs are only appended).
RunId idOfRow(int row) {
    return static_cast<RunId>(static_cast<std::uint64_t>(row) + 1);
}

}  // namespace

ChartTabs::ChartTabs(QTabWidget* tabs, RunsModel* runs, QTableView* runsTable, TimelinePanel* timeline, QObject* parent)
    : QObject(parent), m_tabs(tabs), m_runs(runs), m_timeline(timeline), m_charts(new ChartSet(this)) {
    for (auto* page : m_charts->pages()) m_tabs->addTab(page, page->tabTitle());
    connect(m_runs, &QAbstractItemModel::modelReset, this, &ChartTabs::refreshRuns);
    connect(m_runs, &QAbstractItemModel::rowsInserted, this, &ChartTabs::refreshRuns);
    connect(m_runs, &QAbstractItemModel::rowsRemoved, this, &ChartTabs::refreshRuns);
    connect(m_runs, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& topLeft, const QModelIndex&, const QList<int>& roles) {
                // Progress ticks change only the progress role; the charts wait for finished runs.
                if (roles.size() == 1 && roles.front() == RunsModel::ProgressRole) return;
                Q_UNUSED(topLeft);
                refreshRuns();
            });
    connect(runsTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentRow(current.row()); });
    connect(m_charts->layers(), &LayersPage::layerActivated, this, [this](int, qint64 t0, qint64 t1) {
        m_timeline->view()->setVisibleRange(t0, t1);
        m_tabs->setCurrentWidget(m_timeline);
    });
}

void ChartTabs::setPricePerGpuHour(double price) {
    m_charts->controller()->setPricePerGpuHour(price);
}

void ChartTabs::refreshRuns() {
    std::vector<ChartRun> runs;
    for (int row = 0; row < m_runs->rowCount(); ++row) {
        const auto& r = m_runs->run(row);
        if (r.status != RunStatus::Done || !r.trace) continue;
        auto& analysis = m_analyses[r.trace.get()];
        if (!analysis)
            analysis = std::make_shared<const core::analysis::RunAnalysis>(core::analysis::analyzeTrace(*r.trace));
        ChartRun c;
        c.id = idOfRow(row);
        c.label = r.label();
        c.gpus = r.request.tp;
        c.batch = r.request.backend == BackendKind::Imported ? 0 : r.request.batch;
        c.trace = r.trace;
        c.analysis = analysis;
        runs.push_back(std::move(c));
    }
    // Forget analyses of traces that left the document.
    std::erase_if(m_analyses, [&runs](const auto& entry) {
        return std::none_of(runs.begin(), runs.end(), [&](const ChartRun& c) { return c.trace.get() == entry.first; });
    });
    m_charts->controller()->setRuns(std::move(runs));
}

void ChartTabs::onCurrentRow(int row) {
    m_charts->controller()->setCurrentRun(row >= 0 ? idOfRow(row) : RunId::None);
}

void ChartTabs::addExportActions(QMenu* file) {
    QAction* before = nullptr;
    for (auto* action : file->actions()) {
        if (action->isSeparator()) before = action;
    }
    auto* chart = new QAction(tr("&Export chart…"), file);
    chart->setToolTip(tr("The current chart as PNG, SVG or PDF, or its table as CSV"));
    connect(chart, &QAction::triggered, this, &ChartTabs::exportChartDialog);
    auto* report = new QAction(tr("Export &report (PDF)…"), file);
    report->setToolTip(tr("Configuration, summary, every chart, the per-layer table and the advice"));
    connect(report, &QAction::triggered, this, &ChartTabs::exportReportDialog);
    file->insertActions(before, {chart, report});
    if (before != nullptr) file->insertSeparator(chart);
}

void ChartTabs::exportChartDialog() {
    auto* page = dynamic_cast<ChartPage*>(m_tabs->currentWidget());
    if (page == nullptr) {
        QMessageBox::information(m_tabs, tr("Export chart"), tr("Pick the Layers, Scaling or Cost tab first."));
        return;
    }
    QStringList filters;
    for (const auto& f : page->exportFormats()) filters << tr("%1 (*.%2)").arg(f.toUpper(), f);
    const QString path = QFileDialog::getSaveFileName(m_tabs, tr("Export chart"), page->tabTitle().toLower(),
                                                      filters.join(QStringLiteral(";;")));
    if (path.isEmpty()) return;
    // Exported at twice the on-screen size in pixels, drawn at a pixel ratio of 2: sharp in print.
    const auto status = page->exportTo({path, page->plot()->size() * 2, 2.0});
    if (!status) QMessageBox::warning(m_tabs, tr("Export chart"), QString::fromStdString(status.error().describe()));
}

core::Status ChartTabs::exportReport(const QString& path) const {
    ReportContext context;
    context.title = tr("tpscope report");
    for (int row = 0; row < m_runs->rowCount(); ++row) {
        const auto& r = m_runs->run(row);
        if (context.modelName.isEmpty() && !r.request.model.name.empty()) {
            context.modelName = QString::fromStdString(r.request.model.name);
            context.gpuName = QString::fromStdString(r.request.gpu.name);
        }
        context.configuration
            << QStringLiteral("%1: %2 (%3)").arg(r.label(), r.request.backendText(), statusText(r.status));
        if (r.status == RunStatus::Failed) context.failedRuns << r.label() + QStringLiteral(": ") + r.error;
    }
    context.configuration << tr("Price $%1 per GPU-hour.").arg(m_charts->controller()->pricePerGpuHour(), 0, 'f', 2);
    auto pages = writeSweepReport(path, context, *m_charts);
    if (!pages) return pages.error();
    return core::Ok{};
}

void ChartTabs::exportReportDialog() {
    const QString path =
        QFileDialog::getSaveFileName(m_tabs, tr("Export report"), QStringLiteral("report.pdf"), tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    const auto status = exportReport(path);
    if (!status) QMessageBox::warning(m_tabs, tr("Export report"), QString::fromStdString(status.error().describe()));
}

}  // namespace tpscope::ui
