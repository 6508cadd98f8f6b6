#pragma once
// The Timeline tab: a small tool row (fit, zoom to selection, collapse/expand, legend), the
// timeline view with its vertical scroll bar, and a details pane that shows the selected event
// (with its cross-rank wait/transfer) or the statistics of the selected range.

#include <QWidget>

#include <memory>

#include "ui/timeline/timeline_view.h"

class QLabel;
class QScrollBar;
class QStackedWidget;
class QTextBrowser;

namespace tpscope::ui {

class TimelinePanel : public QWidget {
    Q_OBJECT

  public:
    explicit TimelinePanel(QWidget* parent = nullptr);
    TimelineView* view() const { return m_view; }
    void setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> timeline,
                  const QString& title);
    // Shown instead of the timeline when there is no trace (why a run has none, what to do).
    void showMessage(const QString& html);
    QString detailsHtml() const;
    // The details pane, for a window that places it elsewhere (it stays connected to this panel).
    QWidget* detailsWidget() const;

  private:
    void refreshDetails();

    TimelineView* m_view = nullptr;
    QScrollBar* m_scroll = nullptr;
    QTextBrowser* m_details = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_empty = nullptr;
};

}  // namespace tpscope::ui
