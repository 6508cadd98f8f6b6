#include "ui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/charts/chart_tabs.h"
#include "ui/document_loader.h"
#include "ui/error_banner.h"
#include "ui/logging.h"
#include "ui/progress_delegate.h"
#include "ui/run_panel.h"
#include "ui/runs_model.h"
#include "ui/sweep_runner.h"
#include "ui/timeline/timeline_panel.h"

namespace tpscope::ui {

namespace {

core::Catalog loadCatalog(QString& problem) {
    auto catalog = core::Catalog::load();
    if (catalog) return std::move(*catalog);
    problem = QString::fromStdString(catalog.error().describe());
    auto builtin = core::Catalog::builtin();
    return builtin ? std::move(*builtin) : core::Catalog{};
}

}  // namespace

MainWindow::MainWindow(Services services, QWidget* parent) : QMainWindow(parent), m_services(std::move(services)) {
    QString catalogProblem;
    m_catalog = loadCatalog(catalogProblem);
    m_unsavedPrompt = [](QWidget* owner) {
        return QMessageBox::question(owner, tr("Unsaved runs"),
                                     tr("The workspace has runs that are not saved. Save them first?"),
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    setAcceptDrops(true);
    buildLayout();
    buildActions();
    connectWorkers();
    restoreSettings();
    updateTitle();
    updateActions();
    if (!catalogProblem.isEmpty()) showError(tr("Could not load the preset catalog: %1").arg(catalogProblem));
}

MainWindow::~MainWindow() {
    // Stop the workers before the widgets they report to go away.
    m_sweep->cancel();
    m_sweep->wait();
    m_loader->cancel();
    m_loader->wait();
}

void MainWindow::buildLayout() {
    m_runs = new RunsModel(this);
    const LocalBackendInfo local = m_services.localBackend ? m_services.localBackend() : LocalBackendInfo{};
    m_runPanel = new RunPanel(m_catalog, local, this);
    auto* panelScroll = new QScrollArea(this);
    panelScroll->setWidget(m_runPanel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setFrameShape(QFrame::NoFrame);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_runsTable = new QTableView(this);
    m_runsTable->setModel(m_runs);
    m_runsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runsTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runsTable->setItemDelegateForColumn(RunsModel::Status, new ProgressDelegate(m_runsTable));
    m_runsTable->verticalHeader()->hide();
    m_runsTable->verticalHeader()->setDefaultSectionSize(22);
    m_runsTable->setAlternatingRowColors(true);
    m_runsTable->setWordWrap(false);

    // Left: what to run. Right: the views on top; the runs and the details of the selection below,
    // side by side, so the timeline keeps the full width and height it needs.
    m_runsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runsTable->horizontalHeader()->setSectionResizeMode(RunsModel::Status, QHeaderView::Stretch);
    m_runsTable->horizontalHeader()->setStretchLastSection(false);
    auto* runsBox = new QWidget(this);
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->setSpacing(2);
    runsLayout->addWidget(new QLabel(tr("<b>Runs</b> — select one to show its timeline"), runsBox));
    runsLayout->addWidget(m_runsTable, 1);

    m_timeline = new TimelinePanel(this);
    auto* detailsBox = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(detailsBox);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->setSpacing(2);
    detailsLayout->addWidget(new QLabel(tr("<b>Selection</b>"), detailsBox));
    detailsLayout->addWidget(m_timeline->detailsWidget(), 1);
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(runsBox);
    bottom->addWidget(detailsBox);
    bottom->setSizes({640, 560});

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_banner = new ErrorBanner(this);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 4, 0, 0);
    topLayout->addWidget(m_banner);
    topLayout->addWidget(m_tabs, 1);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(top);
    right->addWidget(bottom);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    right->setSizes({720, 220});

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("mainSplit"));
    split->addWidget(panelScroll);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({370, 1230});
    setCentralWidget(split);

    m_statusTrace = new QLabel(this);
    m_statusProgress = new QProgressBar(this);
    m_statusProgress->setRange(0, 1000);
    m_statusProgress->setMaximumWidth(180);
    m_statusProgress->setMaximumHeight(14);
    m_statusProgress->hide();
    statusBar()->addPermanentWidget(m_statusTrace);
    statusBar()->addPermanentWidget(m_statusProgress);
    statusBar()->showMessage(tr("Ready"));
    resize(1600, 1000);
}

void MainWindow::connectWorkers() {
    m_sweep = new SweepRunner(m_services.runOne, this);
    connect(m_sweep, &SweepRunner::runStarted, this, &MainWindow::onRunStarted);
    connect(m_sweep, &SweepRunner::runProgress, this, &MainWindow::onRunProgress);
    connect(m_sweep, &SweepRunner::runFinished, this, &MainWindow::onRunFinished);
    connect(m_sweep, &SweepRunner::runFailed, this, &MainWindow::onRunFailed);
    connect(m_sweep, &SweepRunner::finished, this, &MainWindow::onSweepFinished);
    connect(m_runPanel, &RunPanel::runRequested, this, &MainWindow::startSweep);
    connect(m_runPanel, &RunPanel::cancelRequested, this, &MainWindow::cancelSweep);

    m_loader = new DocumentLoader(m_services.open, this);
    connect(m_loader, &DocumentLoader::loaded, this, &MainWindow::onDocumentLoaded);
    connect(m_loader, &DocumentLoader::failed, this, &MainWindow::onDocumentFailed);
    connect(m_loader, &DocumentLoader::progress, this, [this](double f) {
        m_statusProgress->show();
        m_statusProgress->setValue(static_cast<int>(f * 1000));
    });
    connect(m_runsTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showRun(current.row()); });
    m_chartTabs = new ChartTabs(m_tabs, m_runs, m_runsTable, m_timeline, this);
    m_chartTabs->setPricePerGpuHour(m_runPanel->pricePerGpuHour());
    connect(m_runPanel, &RunPanel::pricePerGpuHourChanged, m_chartTabs, &ChartTabs::setPricePerGpuHour);
    m_chartTabs->addExportActions(menuBar()->actions().front()->menu());
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_runPanel->restoreSettings(settings);
    rebuildRecentMenu();
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_runPanel->saveSettings(settings);
}

void MainWindow::showError(const QString& message) {
    m_lastError = message;
    qCWarning(lcApp) << message;
    m_banner->showMessage(message);
    statusBar()->showMessage(message, 10'000);
    Q_EMIT errorShown(message);
}

void MainWindow::setModified(bool modified) {
    m_modified = modified;
    updateTitle();
}

void MainWindow::updateTitle() {
    const QString name = m_path.isEmpty() ? tr("untitled workspace") : m_path.section(QLatin1Char('/'), -1);
    setWindowTitle(QStringLiteral("%1%2 — tpscope").arg(name, m_modified ? QStringLiteral(" *") : QString()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_sweep->cancel();
    saveSettings();
    event->accept();
}

}  // namespace tpscope::ui
