#pragma once
// The interface every tab widget implements (DESIGN.md §8): the window routes View and File → Export
// actions to the current tab through it.

#include <QSize>
#include <QString>
#include <QStringList>

#include "core/util/result.h"
#include "ui/run_id.h"

namespace tpscope::ui {

struct ExportRequest {
    QString path;
    QSize sizePx;
    double dpr = 1.0;
};  // format from the path's suffix: png, svg, pdf, csv

class ViewTab {  // implemented by every tab widget
  public:
    virtual ~ViewTab() = default;
    virtual QString tabTitle() const = 0;
    virtual void fitView() = 0;
    virtual void zoomIn() = 0;
    virtual void zoomOut() = 0;
    virtual void setCurrentRun(RunId id) = 0;
    virtual QStringList exportFormats() const = 0;
    virtual core::Status exportTo(const ExportRequest& request) const = 0;
};

}  // namespace tpscope::ui
