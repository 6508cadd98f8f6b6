// MainWindow: sweeps on the worker thread and the runs table.

#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>
#include <QTableView>

#include "ui/logging.h"
#include "ui/main_window.h"
#include "ui/run_panel.h"
#include "ui/runs_model.h"
#include "ui/sweep_runner.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_panel.h"

namespace tpscope::ui {

bool MainWindow::startSweep() {
    if (isSweepRunning()) return false;
    const auto sweep = m_runPanel->sweepRequest();
    if (!sweep) {
        showError(tr("Cannot run: %1").arg(QString::fromStdString(sweep.error().describe())));
        return false;
    }
    std::vector<RunRequest> requests = sweep->expand();
    std::vector<RunRecord> records;
    for (const auto& r : requests) records.push_back(RunRecord{r});
    m_sweepFirstRow = m_runs->appendRuns(std::move(records));
    m_sweepSize = static_cast<int>(requests.size());
    m_sweepDone = 0;
    m_sweep->start(std::move(requests));
    m_statusProgress->setValue(0);
    m_statusProgress->show();
    statusBar()->showMessage(tr("Running %1 runs…").arg(m_sweepSize));
    m_runPanel->setOverallProgress(0, m_sweepSize, 0);
    updateActions();
    return true;
}

void MainWindow::startDefaultSweep() {
    m_runPanel->setDefaults();
    startSweep();
}

void MainWindow::cancelSweep() {
    if (!isSweepRunning()) return;
    m_sweep->cancel();
    statusBar()->showMessage(tr("Cancelling…"));
}

bool MainWindow::isSweepRunning() const {
    return m_sweep != nullptr && m_sweep->isRunning();
}

void MainWindow::onRunStarted(int index) {
    m_runs->setProgress(m_sweepFirstRow + index, 0);
}

void MainWindow::onRunProgress(int index, double fraction) {
    m_runs->setProgress(m_sweepFirstRow + index, fraction);
    m_runPanel->setOverallProgress(m_sweepDone, m_sweepSize, fraction);
    m_statusProgress->setValue(static_cast<int>((m_sweepDone + fraction) / std::max(1, m_sweepSize) * 1000));
}

void MainWindow::onRunFinished(int index, RunOutcome outcome) {
    const int row = m_sweepFirstRow + index;
    RunRecord record = m_runs->run(row);
    record.status = RunStatus::Done;
    record.progress = 1;
    record.trace = std::move(outcome.trace);
    record.timeline = std::move(outcome.timeline);
    record.metrics = outcome.metrics;
    m_runs->updateRun(row, std::move(record));
    ++m_sweepDone;
    m_runPanel->setOverallProgress(m_sweepDone, m_sweepSize, 0);
    setModified(true);
    qCInfo(lcRuns) << "run" << index << "done:" << outcome.metrics.tokensPerSec << "tokens/s";
    // Show the first run that finishes, then follow the largest TP so far: that is where the
    // communication is.
    const int current = currentRun();
    if (current < 0 || m_runs->run(current).status != RunStatus::Done ||
        (current >= m_sweepFirstRow && m_runs->run(row).request.tp > m_runs->run(current).request.tp)) {
        selectRun(row);
    }
}

void MainWindow::onRunFailed(int index, const QString& message, bool cancelled) {
    const int row = m_sweepFirstRow + index;
    RunRecord record = m_runs->run(row);
    record.status = cancelled ? RunStatus::Cancelled : RunStatus::Failed;
    record.error = message;
    m_runs->updateRun(row, std::move(record));
    ++m_sweepDone;
    if (!cancelled) {
        statusBar()->showMessage(tr("%1 failed: %2").arg(m_runs->run(row).label(), message), 10'000);
    }
}

void MainWindow::onSweepFinished(bool cancelled) {
    int failed = 0;
    for (int row = m_sweepFirstRow; row < m_sweepFirstRow + m_sweepSize; ++row) {
        RunRecord r = m_runs->run(row);
        if (r.status == RunStatus::Pending || r.status == RunStatus::Running) {
            r.status = RunStatus::Cancelled;
            m_runs->updateRun(row, std::move(r));
        } else if (r.status == RunStatus::Failed) {
            ++failed;
        }
    }
    m_statusProgress->hide();
    updateActions();
    QString message = cancelled
                          ? tr("Sweep cancelled: %1 of %2 runs finished").arg(m_sweepDone - failed).arg(m_sweepSize)
                          : tr("Sweep finished: %1 runs").arg(m_sweepSize);
    if (failed > 0) message += tr(", %1 failed (see the Status column)").arg(failed);
    statusBar()->showMessage(message, 15'000);
    Q_EMIT sweepFinished(cancelled);
}

void MainWindow::selectRun(int row) {
    if (row < 0 || row >= m_runs->rowCount()) return;
    m_runsTable->selectionModel()->setCurrentIndex(m_runs->index(row, 0),
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

int MainWindow::currentRun() const {
    return m_runsTable->selectionModel()->currentIndex().row();
}

void MainWindow::showRun(int row) {
    if (row < 0 || row >= m_runs->rowCount() || !m_runs->run(row).trace) {
        m_timeline->setTrace(nullptr, nullptr, {});
        m_statusTrace->clear();
        if (row >= 0 && row < m_runs->rowCount()) {
            const RunRecord& r = m_runs->run(row);
            m_timeline->showMessage(tr("<h3>%1: %2</h3><p>%3</p>")
                                        .arg(r.label().toHtmlEscaped(), statusText(r.status),
                                             r.error.isEmpty() ? tr("No timeline yet.") : r.error.toHtmlEscaped()));
        }
        return;
    }
    const RunRecord& r = m_runs->run(row);
    const QString title = r.request.backend == BackendKind::Imported
                              ? r.label()
                              : QStringLiteral("%1 · %2 · %3")
                                    .arg(QString::fromStdString(r.request.model.name), r.label(),
                                         QString::fromStdString(r.request.gpu.name));
    m_timeline->setTrace(r.trace, r.timeline, title);
    m_statusTrace->setText(
        tr("%1 GPUs · %2 events · step %3")
            .arg(r.trace->ranks.size())
            .arg(QLocale().toString(static_cast<qulonglong>(r.trace->eventCount())))
            .arg(r.metrics.stepLatencyNs > 0 ? formatDuration(r.metrics.stepLatencyNs) : QStringLiteral("—")));
}

}  // namespace tpscope::ui

namespace tpscope::ui {

void MainWindow::focusTimelineOnExample() {
    TimelineView* view = m_timeline->view();
    const auto* trace = view->trace();
    const auto* timeline = view->data();
    if (trace == nullptr || timeline == nullptr || timeline->ranks().empty()) return;
    const auto& nvtx = timeline->ranks().front().nvtx;
    if (nvtx.size() < 2 || nvtx[1].size() < 3) {
        view->fit();
        return;
    }
    // The second step is warm (no first-step effects); without one, the first.
    const auto& steps = nvtx[0];
    const std::size_t step = steps.size() > 1 ? 1 : 0;
    const std::int64_t s0 = steps.startNs(step), s1 = steps.endNs(step);
    std::optional<CollectiveMatch> best;
    for (const auto& call : timeline->ranks().front().collectives) {
        if (call.startNs < s0 || call.startNs >= s1) continue;
        auto match = timeline->matchCollective(*trace, EventRef{0, static_cast<int>(call.stream), call.index});
        if (match && (!best || match->skewNs > best->skewNs)) best = std::move(match);
    }
    // Two layers wide, the call a little right of the centre so the compute that led to it shows.
    const auto& layers = nvtx[1];
    const std::int64_t width = 2 * (layers.endNs(1) - layers.startNs(1));
    if (!best) {
        view->setVisibleRange(s0, s0 + width);
        return;
    }
    const std::int64_t at = best->members.front().startNs;
    view->setVisibleRange(at - width * 6 / 10, at + width * 4 / 10);
    // Select the rank that waited longest: its kernel shows the most hatching.
    const auto waiter = std::max_element(best->members.begin(), best->members.end(),
                                         [](const auto& a, const auto& b) { return a.waitNs < b.waitNs; });
    view->selectEvent(waiter->event);
}

}  // namespace tpscope::ui
