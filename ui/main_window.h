#pragma once
// The main window (DESIGN.md §8): run panel and runs table on the left, the Timeline tab on the
// right, an error strip above it, menus, a tool bar and a status bar. Sweeps run through a
// SweepRunner and files open through a DocumentLoader, both on worker threads; the window only
// receives value types and never blocks. Split by feature: main_window_actions.cpp (menus, recent
// files), main_window_runs.cpp (sweeps and the runs table), main_window_file.cpp (open, save,
// drag-and-drop, the unsaved-changes prompt).

#include <QMainWindow>
#include <QMessageBox>

#include <functional>
#include <memory>

#include "core/hw/catalog.h"
#include "ui/services.h"

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QTableView;
class QTabWidget;

namespace tpscope::ui {

class ChartTabs;
class DocumentLoader;
class ErrorBanner;
class RunPanel;
class RunsModel;
class SweepRunner;
class TimelinePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    explicit MainWindow(Services services, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Runs the run panel's sweep (false with the reason in the window when the input is invalid
    // or a sweep is already running).
    bool startSweep();
    void startDefaultSweep();
    void cancelSweep();
    bool isSweepRunning() const;
    // Opens a workspace, trace file or rank folder in the background.
    void openPath(const QString& path);
    bool isLoading() const;
    bool saveTo(const QString& path);

    RunsModel* runsModel() const { return m_runs; }
    TimelinePanel* timelinePanel() const { return m_timeline; }
    ChartTabs* chartTabs() const { return m_chartTabs; }
    QTabWidget* tabs() const { return m_tabs; }
    RunPanel* runPanel() const { return m_runPanel; }
    QTableView* runsTable() const { return m_runsTable; }
    QString lastError() const { return m_lastError; }
    bool isModified() const { return m_modified; }
    QString currentPath() const { return m_path; }
    void selectRun(int row);
    int currentRun() const;
    // Shows the current run on two layers of its second step with the collective of the largest
    // arrival skew selected: the view that answers "is NCCL slow, or is it waiting?".
    void focusTimelineOnExample();

    // Replaces the Save / Discard / Cancel question (tests answer without a dialog).
    using UnsavedPrompt = std::function<QMessageBox::StandardButton(QWidget*)>;
    void setUnsavedPrompt(UnsavedPrompt prompt) { m_unsavedPrompt = std::move(prompt); }

  Q_SIGNALS:
    void sweepFinished(bool cancelled);
    void documentOpened(const QString& path);
    void openFailed(const QString& path, const QString& message);
    void errorShown(const QString& message);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildLayout();
    void buildActions();
    void connectWorkers();
    void restoreSettings();
    void saveSettings() const;
    void showError(const QString& message);
    void setModified(bool modified);
    void updateTitle();
    void updateActions();

    // main_window_runs.cpp
    void onRunStarted(int index);
    void onRunProgress(int index, double fraction);
    void onRunFinished(int index, RunOutcome outcome);
    void onRunFailed(int index, const QString& message, bool cancelled);
    void onSweepFinished(bool cancelled);
    void showRun(int row);

    // main_window_file.cpp
    void openDialog();
    void openFolderDialog();
    bool save();
    bool saveAsDialog();
    bool maybeSave();
    void onDocumentLoaded(OpenedDocument document);
    void onDocumentFailed(const QString& path, const QString& message);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();

    Services m_services;
    core::Catalog m_catalog;
    RunsModel* m_runs = nullptr;
    RunPanel* m_runPanel = nullptr;
    QTableView* m_runsTable = nullptr;
    TimelinePanel* m_timeline = nullptr;
    QTabWidget* m_tabs = nullptr;
    ChartTabs* m_chartTabs = nullptr;
    ErrorBanner* m_banner = nullptr;
    QLabel* m_statusTrace = nullptr;
    QProgressBar* m_statusProgress = nullptr;
    SweepRunner* m_sweep = nullptr;
    DocumentLoader* m_loader = nullptr;

    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_saveAction = nullptr;
    QMenu* m_recentMenu = nullptr;

    int m_sweepFirstRow = 0;
    int m_sweepSize = 0;
    int m_sweepDone = 0;
    QString m_lastError;
    QString m_path;
    bool m_modified = false;
    UnsavedPrompt m_unsavedPrompt;
};

}  // namespace tpscope::ui
