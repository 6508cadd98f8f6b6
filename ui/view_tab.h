// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The interface every tab of the main window implements (Timeline, Layers, Scaling, Cost, Compare,
// Calculator, Advice, Collective calls). The window routes the View menu's fit / zoom / export to the
// current tab through it, and tells each tab which run is current. A tab that has details to show
// for its selection declares a Qt signal `void detailsChanged(const QString& html)`; the window's
// addViewTab (TabHost::addViewTab, ui/window/tab_host.h) connects it to the window's details pane
// (DESIGN.md §8: the window owns the details pane), which shows the current tab's last details only:
// another tab's selection never overwrites it.

#include <QSize>
#include <QString>
#include <QStringList>

#include "core/util/result.h"
#include "ui/document/run_id.h"

namespace tpscope::ui {

// What to export: the file (its suffix names the format: png, svg, pdf, csv), the size in logical
// pixels (empty: the tab's current size) and the device-pixel ratio of a raster image.
struct ExportRequest {
    QString path;
    QSize sizePx;
    double dpr = 1.0;
};

class ViewTab {
  public:
    virtual ~ViewTab() = default;
    virtual QString tabTitle() const = 0;
    virtual void fitView() = 0;
    virtual void zoomIn() = 0;
    virtual void zoomOut() = 0;
    virtual void setCurrentRun(RunId id) = 0;
    virtual QStringList exportFormats() const = 0;  // e.g. {"png", "svg"}
    // A clear error (naming the file and the problem) on failure.
    virtual core::Status exportTo(const ExportRequest& request) const = 0;
    // The other files exportTo(path) writes beside `path` (asked about with it before replacing).
    virtual QStringList exportCompanions(const QString& /*path*/) const { return {}; }
    // View → Zoom to selection and Collapse / Expand all GPUs: tabs with a timeline implement them.
    virtual void zoomToSelection() {}
    virtual void setAllRanksCollapsed(bool /*collapsed*/) {}
};

}  // namespace tpscope::ui
