// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: sweeps on the worker thread, the runs table and the current run. Worker results carry
// the sweep's job id and the run's index in the sweep; both are checked here, on the GUI thread, and
// mapped to a RunId, so a result of an old sweep or of a run that is gone is dropped.

#include <QApplication>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QUndoStack>

#include <algorithm>

#include "ui/compare/compare_view.h"
#include "ui/document/run_commands.h"
#include "ui/document/run_document.h"
#include "ui/jobs/sim_service.h"
#include "ui/jobs/sweep_runner.h"
#include "ui/logging.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_tab.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {

bool MainWindow::startSweep() {
    return beginSweep(m_runPanel->sweepRequest(), true);
}

bool MainWindow::startDefaultSweep() {
    // The panel keeps what the user left in it last time; the launch sweep is core's default.
    return beginSweep(defaultSweepRequest(m_catalog, RunPanel::kDefaultPricePerGpuHour), false);
}

std::vector<RunId> MainWindow::startSweepRequest(const SweepRequest& sweep) {
    if (!beginSweep(sweep, true)) return {};
    return m_sweepState.ids;
}

bool MainWindow::beginSweep(const core::Result<SweepRequest>& sweep, bool userStarted) {
    if (isSweepRunning()) return false;
    if (!sweep) {
        showError(tr("Cannot run: %1").arg(QString::fromStdString(sweep.error().describe())));
        return false;
    }
    const int number = m_document->nextSweepNumber();
    std::vector<RunRecord> records;
    for (const auto& r : sweep->expand()) {
        RunRecord record;
        record.request = r;
        record.sweep = number;
        records.push_back(std::move(record));
    }
    const quint64 job = m_sweep->start(*sweep);
    if (job == 0) return false;  // the previous worker has not ended yet
    m_sweepState = SweepState{};
    m_sweepState.job = job;
    m_sweepState.active = true;
    m_sweepState.userStarted = userStarted;
    m_sweepState.ids = m_document->add(std::move(records));
    m_userPickedRun = false;  // follow the new sweep's runs until the user picks one
    statusBar()->showMessage(tr("Running %1 runs…").arg(m_sweepState.ids.size()));
    m_runPanel->setOverallProgress(sweepCounts(), 0);
    updateActions();
    updateStatusProgress();
    return true;
}

void MainWindow::cancelSweep() {
    if (!isSweepRunning()) return;
    m_sweep->cancel();
    statusBar()->showMessage(tr("Cancelling…"));
}

bool MainWindow::isSweepRunning() const {
    return m_sweepState.active;
}

RunId MainWindow::sweepRunId(quint64 job, int index) const {
    if (job != m_sweepState.job || index < 0 || static_cast<std::size_t>(index) >= m_sweepState.ids.size())
        return RunId::None;
    return m_sweepState.ids[static_cast<std::size_t>(index)];
}

void MainWindow::onRunProgress(quint64 job, int index, double fraction) {
    const RunId id = sweepRunId(job, index);
    if (id == RunId::None) return;
    m_document->update(id, [fraction](RunRecord& r) {
        r.status = RunStatus::Running;
        r.progress = fraction;
    });
    auto& s = m_sweepState;
    s.currentFraction = fraction;
    m_runPanel->setOverallProgress(sweepCounts(), fraction);
    updateStatusProgress();
    if (id == m_current) {
        m_timeline->setCurrentRun(id);  // "running 40 %" in the centre
        m_runPanel->showRun(m_document->run(id));
    }
}

void MainWindow::onRunFinished(quint64 job, int index, RunOutcome outcome) {
    const RunId id = sweepRunId(job, index);
    if (id == RunId::None) return;
    auto& s = m_sweepState;
    ++s.finished;
    s.currentFraction = 0;
    m_runPanel->setOverallProgress(sweepCounts(), 0);
    const bool applied = m_document->update(id, [&outcome](RunRecord& r) {
        r.status = RunStatus::Done;
        r.progress = 1;
        r.trace = std::move(outcome.trace);
        r.timeline = std::move(outcome.timeline);
        r.analysis = std::move(outcome.analysis);
        r.metrics = outcome.metrics;
        r.simStats = outcome.simStats;
    });
    if (!applied) return;  // removed while it ran
    if (s.userStarted) setModified(true);
    qCInfo(lcRuns) << "run" << index << "of job" << job << "done:" << outcome.metrics.tokensPerSec << "tokens/s";
    // Show the first run that finishes, then follow the largest TP so far (that is where the
    // communication is), until the user picks a run: from then on the selection is theirs.
    const RunRecord* current = m_document->run(m_current);
    const RunRecord* finished = m_document->run(id);
    const bool currentIsOfThisSweep = std::find(s.ids.begin(), s.ids.end(), m_current) != s.ids.end();
    if (!m_userPickedRun && (current == nullptr || current->status != RunStatus::Done ||
                             (currentIsOfThisSweep && finished->request.tp > current->request.tp))) {
        selectRun(id);
    } else if (id == m_current) {
        showRun(id);
    }
}

SweepCounts MainWindow::sweepCounts() const {
    const auto& s = m_sweepState;
    return SweepCounts{s.finished, s.failed, s.notFitting, static_cast<int>(s.ids.size())};
}

void MainWindow::onRunFailed(quint64 job, int index, const QString& message, RunStatus status) {
    const RunId id = sweepRunId(job, index);
    if (id == RunId::None) return;
    // A cancelled run is neither finished nor failed: the counters say what really ran.
    auto& s = m_sweepState;
    if (status == RunStatus::Failed) ++s.failed;
    if (status == RunStatus::DoesNotFit) ++s.notFitting;
    s.currentFraction = 0;
    m_runPanel->setOverallProgress(sweepCounts(), 0);
    m_document->update(id, [&](RunRecord& r) {
        r.status = status;
        r.error = message;
    });
    if (const RunRecord* r = m_document->run(id); r != nullptr && status != RunStatus::Cancelled) {
        // core's reason for a configuration that does not fit already says so ("does not fit: needs ...").
        statusBar()->showMessage(status == RunStatus::DoesNotFit ? tr("%1: %2").arg(r->label(), message)
                                                                 : tr("%1 failed: %2").arg(r->label(), message),
                                 10'000);
    }
    if (id == m_current) showRun(id);
}

void MainWindow::onSweepFinished(quint64 job, bool cancelled, const QString& error) {
    if (job != m_sweepState.job) return;
    auto& s = m_sweepState;
    for (const RunId id : s.ids) {
        const RunRecord* r = m_document->run(id);
        if (r == nullptr || (r->status != RunStatus::Pending && r->status != RunStatus::Running)) continue;
        m_document->update(id, [&](RunRecord& rec) {
            rec.status = error.isEmpty() ? RunStatus::Cancelled : RunStatus::Failed;
            rec.error = error.isEmpty() ? tr("cancelled before it finished") : error;
        });
    }
    s.active = false;
    s.currentFraction = 0;
    const int total = static_cast<int>(s.ids.size());
    m_runPanel->setOverallProgress(sweepCounts(), 0);
    updateActions();
    updateStatusProgress();
    if (!error.isEmpty()) {
        showError(tr("The sweep stopped: %1").arg(error));
    } else {
        QString message = cancelled ? tr("Sweep cancelled: %1 of %2 runs finished").arg(s.finished).arg(total)
                                    : tr("Sweep finished: %1 of %2 runs").arg(s.finished).arg(total);
        if (s.notFitting > 0) message += tr(", %1 not fitting the GPU memory").arg(s.notFitting);
        if (s.failed > 0) message += tr(", %1 failed (see the Status column)").arg(s.failed);
        statusBar()->showMessage(message, 15'000);
        if (s.finished > 0) clearError();
    }
    if (m_current != RunId::None) showRun(m_current);
    Q_EMIT sweepFinished(cancelled);
}

void MainWindow::selectRun(RunId id) {
    const int row = m_runs->rowOf(id);
    if (row < 0) return;
    const QModelIndex index = m_proxy->mapFromSource(m_runs->index(row, 0));
    if (m_runsTable->selectionModel()->currentIndex() == index) {
        showRun(id);  // already current: show it again (it may have finished meanwhile)
        return;
    }
    m_selectingRun = true;
    m_runsTable->selectionModel()->setCurrentIndex(index,
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_selectingRun = false;
}

void MainWindow::showRun(RunId id) {
    m_current = m_document->run(id) != nullptr ? id : RunId::None;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto* tab = dynamic_cast<ViewTab*>(m_tabs->widget(i))) tab->setCurrentRun(m_current);
    }
    const RunRecord* r = m_document->run(m_current);
    m_runPanel->showRun(r);
    if (r == nullptr || !r->trace) {
        m_statusTrace->clear();
    } else {
        m_statusTrace->setText(
            tr("%1 GPUs · %2 events · mean step %3")
                .arg(r->trace->ranks.size())
                .arg(QLocale().toString(static_cast<qulonglong>(r->trace->eventCount())))
                .arg(r->metrics.stepLatencyNs > 0 ? formatDuration(r->metrics.stepLatencyNs) : QStringLiteral("—")));
    }
    Q_EMIT currentRunChanged(m_current);
}

bool MainWindow::removeRun(RunId id) {
    if (m_document->run(id) == nullptr) return false;
    // The undo stack's clean state says whether the workspace is unsaved (isModified).
    m_undo->push(new RemoveRunsCommand(m_document, {id}, tr("Remove run")));
    return true;
}

bool MainWindow::clearRuns() {
    if (m_document->empty()) return false;
    if (!m_confirmPrompt(this, tr("Remove all %1 runs? Edit → Undo brings them back.").arg(m_document->size()))) {
        return false;
    }
    if (isSweepRunning()) cancelSweep();
    m_undo->push(new RemoveRunsCommand(m_document, m_document->ids(), tr("Clear all runs")));
    return true;
}

void MainWindow::removeSelectedRuns() {
    std::vector<RunId> ids;
    const QWidget* focus = QApplication::focusWidget();
    const auto within = [focus](const QWidget* w) {
        return focus != nullptr && (focus == w || w->isAncestorOf(focus));
    };
    if (within(m_compare->view())) {
        // The run of the Compare pane that has the keyboard.
        const CompareView* compare = m_compare->view();
        for (int i = 0; i < compare->paneCount(); ++i) {
            if (within(compare->paneView(i))) ids.push_back(compare->runs()[static_cast<std::size_t>(i)].id);
        }
    } else if (within(m_timeline)) {
        if (m_current != RunId::None) ids.push_back(m_current);  // the run the timeline shows
    } else {
        for (const QModelIndex& index : m_runsTable->selectionModel()->selectedRows()) {
            ids.push_back(m_runs->idAt(m_proxy->mapToSource(index).row()));
        }
    }
    if (ids.empty()) return;
    const QString text = ids.size() == 1 ? tr("Remove run") : tr("Remove %1 runs").arg(ids.size());
    m_undo->push(new RemoveRunsCommand(m_document, std::move(ids), text));
}

void MainWindow::focusTimelineOnExampleUnlessUserChose(bool wholeStep) {
    if (m_userPickedRun || m_timeline->view()->selectedEvent().valid()) return;
    focusTimelineOnExample(wholeStep);
}

void MainWindow::focusTimelineOnExample(bool wholeStep) {
    m_timeline->focusOnExample(wholeStep ? TimelinePanel::ExampleZoom::WholeStep
                                         : TimelinePanel::ExampleZoom::TwoLayers);
}

}  // namespace tpscope::ui
