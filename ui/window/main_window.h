// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The main window (DESIGN.md §8): run panel on the left; on the right the view tabs (Timeline; the
// chart tabs join through addViewTab) with an error strip above them, and below them the runs table
// and the details pane, side by side. One RunDocument owns the runs; the runs table is a RunsModel
// adapter over it behind a QSortFilterProxyModel. Sweeps run through a SweepRunner and files open
// through a DocumentLoader, both on worker threads; their results carry a job id (sweep) or
// generation (load) that the GUI-thread slot checks, and runs are addressed by RunId, never by row.
// The View menu's fit / zoom / export go to the current tab through the ViewTab interface. The tab
// controllers (ChartTabs, PlanningTabs, CompareController, ReportExport) see the window only as a
// TabHost (tab_host.h); main_window_tabs.cpp builds them and connects the window's signals to them.
// Split by feature: main_window_layout.cpp (widgets), main_window_actions.cpp (menus, recent files),
// main_window_runs.cpp (sweeps, the runs table, current run), main_window_file.cpp (open, save,
// drag-and-drop, the unsaved-changes prompt), main_window_tabs.cpp (the tab controllers, TabHost).

#include <QHash>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <functional>
#include <memory>

#include "core/hw/catalog.h"
#include "ui/document/run_id.h"
#include "ui/export/save_as.h"
#include "ui/jobs/services.h"
#include "ui/window/tab_host.h"

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QProgressDialog;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QToolBar;
class QTextBrowser;
class QUndoStack;

namespace tpscope::ui {

class ChartTabs;
class CompareController;
class PlanningTabs;
class ReportExport;
class DocumentLoader;
class ErrorBanner;
class RunDocument;
class RunPanel;
class RunsModel;
class SweepRunner;
class TimelinePanel;
class ViewTab;

class MainWindow : public QMainWindow, public TabHost {
    Q_OBJECT

  public:
    // Undo steps kept (Remove and Clear hold the removed runs' traces until they fall off the stack).
    static constexpr int kUndoLimit = 20;

    explicit MainWindow(Services services, QWidget* parent = nullptr);
    const Services& services() const override { return m_services; }
    ~MainWindow() override;

    // Runs the run panel's sweep (false with the reason in the window when the input is invalid
    // or a sweep is already running). Runs the user started count as unsaved work.
    bool startSweep();
    // The embedded default sweep on launch: not unsaved work, the run panel keeps its settings.
    bool startDefaultSweep();
    // Runs a sweep built elsewhere (Compare's "Simulate this configuration") through the same path,
    // as user work; the new runs' ids, or none (with the reason shown) when it cannot start.
    std::vector<RunId> startSweepRequest(const SweepRequest& sweep) override;
    void cancelSweep();
    // Run → Cancel (Shift+Esc, tool bar): stops the file being opened (the current runs stay) and
    // the sweep.
    void cancelWork();
    QAction* cancelAction() const { return m_cancelAction; }
    // File → Export view… after its dialog: the current tab to `typed`, in the format of the filter
    // the user chose ("SVG (*.svg)") unless the name has a suffix of its own; the filter is
    // remembered for the next dialog. False (with the reason in the banner) when it fails; the file
    // that was there stays as it was.
    bool exportCurrentViewTo(const QString& typed, const QString& selectedFilter);
    // True from startSweep until the window has received the sweep's end.
    bool isSweepRunning() const;
    // Opens a workspace, trace file or rank folder in the background.
    void openPath(const QString& path);
    bool isLoading() const;
    // Starts saving a snapshot of the runs on a worker thread, with progress and Cancel and no nested
    // event loop; false (with the reason shown) when it cannot start. saveFinished says how it ended,
    // and `then` (optional) is called with the same answer. Runs that change while it is written
    // keep the workspace unsaved (RunDocument::revision).
    bool saveTo(const QString& path, std::function<void(bool saved)> then = {});
    bool isSaving() const { return m_saving; }
    // Undoable (Edit → Undo, undoStack()); false when there is no such run.
    bool removeRun(RunId id);
    // Asks first (confirmPrompt), then removes every run as one undoable step; false when declined.
    bool clearRuns();
    QUndoStack* undoStack() const { return m_undo; }
    // True once the user picked a run in the runs table since the last sweep started: the window then
    // stops moving the selection to newly finished runs.
    bool userPickedRun() const { return m_userPickedRun; }
    // At the end of the launch sweep: the timeline's example (focusTimelineOnExample), unless the user
    // already picked a run or selected a kernel, which it would replace.
    void focusTimelineOnExampleUnlessUserChose(bool wholeStep);

    // Adds a tab implementing ViewTab (the widget must derive from it); see view_tab.h.
    void addViewTab(QWidget* tab) override;
    ViewTab* currentViewTab() const;
    // TabHost (tab_host.h), main_window_tabs.cpp.
    void showTab(QWidget* tab) override;
    void showTimelineRange(qint64 t0Ns, qint64 t1Ns) override;
    std::vector<RunId> selectedRuns() const override;
    QWidget* dialogParent() override { return this; }

    RunDocument* document() const override { return m_document; }
    RunsModel* runsModel() const { return m_runs; }
    QSortFilterProxyModel* runsProxy() const { return m_proxy; }
    TimelinePanel* timelinePanel() const { return m_timeline; }
    ChartTabs* chartTabs() const { return m_chartTabs; }
    CompareController* compareController() const { return m_compare; }
    PlanningTabs* planningTabs() const { return m_planningTabs; }
    ReportExport* reportExport() const { return m_report; }
    const core::Catalog& catalog() const override { return m_catalog; }
    RunPanel* runPanel() const { return m_runPanel; }
    QTableView* runsTable() const { return m_runsTable; }
    QTabWidget* tabs() const { return m_tabs; }
    QProgressBar* statusProgress() const { return m_statusProgress; }
    QTextBrowser* detailsPane() const { return m_details; }
    QString lastError() const { return m_lastError; }
    // Unsaved: the undo stack has left the state of the last save or open, or a change outside it (a
    // run that finished, a What-if prediction, a changed view setting) came after that snapshot.
    bool isModified() const;
    // A change the undo stack does not hold (a What-if prediction added): the workspace is unsaved.
    void markUnsaved() override;
    QString currentPath() const { return m_path; }
    void selectRun(RunId id);
    RunId currentRun() const override { return m_current; }
    // Selects the collective of the largest arrival skew in the current run's second step: the view
    // that answers "is NCCL slow, or is it waiting?". Zoomed to two layers around it (screenshots) or,
    // with wholeStep, keeping that whole step on screen (the window at start-up).
    void focusTimelineOnExample(bool wholeStep = false);
    // Shows a failure in the window (error strip and status bar) and emits errorShown.
    void showError(const QString& message) override;

    // Replaces the Save / Discard / Cancel question (tests answer without a dialog).
    using UnsavedPrompt = std::function<QMessageBox::StandardButton(QWidget*)>;
    void setUnsavedPrompt(UnsavedPrompt prompt) { m_unsavedPrompt = std::move(prompt); }
    // A yes/no question before a destructive step (Clear all runs); tests answer without a dialog.
    using ConfirmPrompt = ui::ConfirmPrompt;
    void setConfirmPrompt(ConfirmPrompt prompt) { m_confirmPrompt = std::move(prompt); }
    const ConfirmPrompt& confirmPrompt() const override { return m_confirmPrompt; }

  Q_SIGNALS:
    void sweepFinished(bool cancelled);
    void saveFinished(const QString& path, bool saved);
    void documentOpened(const QString& path);
    void openFailed(const QString& path, const QString& message);
    void errorShown(const QString& message);
    void currentRunChanged(tpscope::ui::RunId id);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private Q_SLOTS:
    // A tab's detailsChanged: kept for that tab, shown when it is the current one.
    void onTabDetails(const QString& html);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    // main_window_layout.cpp
    void buildLayout();
    QWidget* buildRunPanelArea();
    QWidget* buildRunsArea();
    QWidget* buildDetailsArea();
    QWidget* buildViewsArea();
    void buildStatusBar();
    void assembleSplitters(QWidget* panel, QWidget* views, QWidget* runs, QWidget* details);

    void buildActions();
    void connectWorkers();
    // main_window_tabs.cpp: the tab controllers, each given this window as its TabHost.
    void buildTabControllers();
    void restoreSettings();
    void saveSettings() const;
    void clearError();
    void setModified(bool modified);
    void updateTitle();
    void updateActions();
    void updateStatusProgress();

    // main_window_runs.cpp
    bool beginSweep(const core::Result<SweepRequest>& sweep, bool userStarted);
    void onRunProgress(quint64 job, int index, double fraction);
    void onRunFinished(quint64 job, int index, RunOutcome outcome);
    void onRunFailed(quint64 job, int index, const QString& message, RunStatus status);
    SweepCounts sweepCounts() const;
    void onSweepFinished(quint64 job, bool cancelled, const QString& error);
    RunId sweepRunId(quint64 job, int index) const;
    void showRun(RunId id);
    void removeSelectedRuns();

    // main_window_file.cpp
    void openDialog();
    void openFolderDialog();
    // Save / Save as: start the save (false when none started); `then` gets its outcome.
    bool save(std::function<void(bool saved)> then = {});
    bool saveAsDialog(std::function<void(bool saved)> then = {});
    // Opens `path` once the unsaved-changes question (asked first for a workspace, which replaces
    // the runs) is answered: at once, after the save, or not at all.
    void startLoad(const QString& path, bool askedFirst);
    void applyLoadedWorkspace(OpenedDocument document);
    void onSaveDone(const QString& error, bool cancelled);
    // Before a save over an existing workspace that holds more runs than the save writes: the user's yes.
    bool confirmReplacingRuns(const QString& path);
    // main_window_workspace.cpp: what the view shows, kept in the workspace (its settings) and
    // restored when it is opened: the price, the latency target, the advice threshold, the Compare
    // set with its baseline and aligned layer, the current run.
    WorkspaceSettings viewSettings() const;
    void applyViewSettings(const WorkspaceSettings& settings);
    void onDocumentPreview(const RunRecord& firstRun);
    void onDocumentLoaded(OpenedDocument document);
    void onDocumentFailed(const QString& path, const QString& message);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void exportCurrentView();

    struct SweepState {
        quint64 job = 0;  // of the sweep whose results are applied; others are dropped
        bool active = false;
        bool userStarted = false;
        std::vector<RunId> ids;  // by index of the sweep's expand() order
        int finished = 0;        // runs that produced a trace
        int failed = 0;          // runs that failed (cancelled runs are neither)
        int notFitting = 0;      // configurations that do not fit memory (neither finished nor failed)
        double currentFraction = 0;
    };

    Services m_services;
    core::Catalog m_catalog;
    RunDocument* m_document = nullptr;
    RunsModel* m_runs = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    RunPanel* m_runPanel = nullptr;
    QTableView* m_runsTable = nullptr;
    TimelinePanel* m_timeline = nullptr;
    QTabWidget* m_tabs = nullptr;
    ChartTabs* m_chartTabs = nullptr;
    CompareController* m_compare = nullptr;
    PlanningTabs* m_planningTabs = nullptr;
    ReportExport* m_report = nullptr;
    QTextBrowser* m_details = nullptr;
    ErrorBanner* m_banner = nullptr;
    QLabel* m_statusTrace = nullptr;
    QProgressBar* m_statusProgress = nullptr;
    SweepRunner* m_sweep = nullptr;
    DocumentLoader* m_loader = nullptr;

    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_removeAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_runMenu = nullptr;
    QToolBar* m_toolBar = nullptr;

    SweepState m_sweepState;
    RunId m_current = RunId::None;
    double m_loadFraction = 0;
    QString m_loadPath;  // the file being opened
    QString m_lastError;
    QString m_path;
    bool m_dirty = false;  // changed outside the undo stack since the last save or open
    bool m_saving = false;
    QString m_savePath;
    std::uint64_t m_saveRevision = 0;  // the document's revision the running save wrote
    // Counts the documents shown (a workspace opened replaces it): a save adopts its path only when
    // the document it wrote is still the one shown.
    std::uint64_t m_generation = 0;
    std::uint64_t m_saveGeneration = 0;
    std::function<void(bool)> m_afterSave;
    QPointer<QProgressDialog> m_saveDialog;
    QString m_loadAskedFor;        // the workspace whose load the unsaved-changes question came before
    bool m_closeApproved = false;  // Discard was answered for this close, which waited for a save
    UnsavedPrompt m_unsavedPrompt;
    ConfirmPrompt m_confirmPrompt;
    QHash<const QWidget*, QString> m_tabDetails;  // each tab's last details
    QUndoStack* m_undo = nullptr;
    bool m_userPickedRun = false;
    bool m_selectingRun = false;  // selectRun is moving the table's current row, not the user
};

}  // namespace tpscope::ui
