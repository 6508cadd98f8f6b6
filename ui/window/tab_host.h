// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Everything a tab controller (ChartTabs, PlanningTabs, CompareController, ReportExport) may ask of
// the window that hosts it, in one short list (DESIGN.md §8, issue 45 §4). MainWindow implements it;
// the controllers take a TabHost& and never include main_window.h (scripts/check-folder-layers.py
// fails the build's source_folder_layers test if one does), so a tab can be read, built and tested
// against this header alone, and the window can change its widgets without touching a tab.
//
// What it deliberately does not offer: the window's widgets (tab widget, runs table and its models,
// menus, tool bar, timeline panel) and the other controllers. A tab asks for a named operation
// (showTab, showTimelineRange, selectedRuns); the window places the tab's actions in its menus and
// tells the tabs what happened through Qt signals it connects itself (currentRunChanged to each
// controller's setCurrentRun, sweepFinished, the runs table's selection; main_window_tabs.cpp). A
// tab that needs another tab's state gets that object in its constructor (PlanningTabs and
// CompareController take the charts' ChartsController for the scaling input and the price), so
// the order they depend on each other is visible where the window builds them.

#include <QString>
#include <QtGlobal>

#include <vector>

#include "ui/document/run_id.h"
#include "ui/export/save_as.h"

class QWidget;

namespace tpscope::core {
class Catalog;
}

namespace tpscope::ui {

class RunDocument;
struct Services;
struct SweepRequest;

class TabHost {
  public:
    // The runs (add, look up, watch through RunDocument's signals) and the one the window shows.
    virtual RunDocument* document() const = 0;
    virtual RunId currentRun() const = 0;
    // The GPU, fabric and model presets; the sweep, open and what-if services (ui/jobs/services.h).
    virtual const core::Catalog& catalog() const = 0;
    virtual const Services& services() const = 0;

    // Adds a tab implementing ViewTab (the widget must derive from it; ui/view_tab.h), and makes a
    // tab already added the current one.
    virtual void addViewTab(QWidget* tab) = 0;
    virtual void showTab(QWidget* tab) = 0;
    // Shows [t0, t1] (ns) of the current run on the Timeline tab, which becomes the current tab.
    virtual void showTimelineRange(qint64 t0Ns, qint64 t1Ns) = 0;
    // The runs selected in the runs table, in table order (as sorted on screen).
    virtual std::vector<RunId> selectedRuns() const = 0;
    // Runs a sweep built by a tab through the window's sweep path, as user work: the new runs' ids,
    // or none (with the reason shown) when it cannot start.
    virtual std::vector<RunId> startSweepRequest(const SweepRequest& sweep) = 0;
    // A change the undo stack does not hold (a What-if prediction added): the workspace is unsaved.
    virtual void markUnsaved() = 0;

    // A failure shown in the window (error strip and status bar).
    virtual void showError(const QString& message) = 0;
    // A yes/no question (replacing a file); tests answer it without a dialog.
    virtual const ConfirmPrompt& confirmPrompt() const = 0;
    // The window as the parent of a tab's dialogs and, until addViewTab places them, of its pages.
    virtual QWidget* dialogParent() = 0;

  protected:
    TabHost() = default;
    ~TabHost() = default;
    TabHost(const TabHost&) = default;
    TabHost& operator=(const TabHost&) = default;
    TabHost(TabHost&&) = default;
    TabHost& operator=(TabHost&&) = default;
};

}  // namespace tpscope::ui
