#include "ui/timeline/timeline_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/timeline/event_details.h"
#include "ui/timeline/timeline_legend.h"

namespace tpscope::ui {

namespace {

const char* const kHint =
    "<p style='color:#6a737d'>Hover a kernel for its details; click to select it (a collective shows the same call "
    "on every GPU, hatched where a GPU waits for the last one to arrive). Drag on the ruler or Shift+drag to "
    "measure a range. Wheel or W/S zoom, drag or A/D pan, F fits, Z zooms to the selection.</p>";

}  // namespace

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(6, 2, 6, 0);
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    tools->addWidget(m_title);
    tools->addStretch(1);
    tools->addWidget(new TimelineLegend(this));
    layout->addLayout(tools);

    m_view = new TimelineView(this);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    auto* viewBox = new QWidget(this);
    auto* viewLayout = new QHBoxLayout(viewBox);
    viewLayout->setContentsMargins(0, 0, 0, 0);
    viewLayout->setSpacing(0);
    viewLayout->addWidget(m_view, 1);
    viewLayout->addWidget(m_scroll);

    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setStyleSheet(QStringLiteral("color:#6a737d"));
    showMessage(
        tr("<h3>No run selected</h3><p>Press <b>Run sweep</b> to simulate one, or open a trace "
           "(File → Open, or drop a file here).</p>"));
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(viewBox);

    m_details = new QTextBrowser(this);
    m_details->setOpenLinks(false);
    m_details->setHtml(QString::fromUtf8(kHint));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_stack);
    split->addWidget(m_details);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 150});
    layout->addWidget(split, 1);

    connect(m_view, &TimelineView::verticalRangeChanged, m_scroll, [this](int maximum, int page) {
        m_scroll->setRange(0, maximum);
        m_scroll->setPageStep(page);
        m_scroll->setSingleStep(20);
        m_scroll->setVisible(maximum > 0);
    });
    connect(m_view, &TimelineView::verticalOffsetChanged, m_scroll, &QScrollBar::setValue);
    connect(m_scroll, &QScrollBar::valueChanged, m_view, &TimelineView::setVerticalOffset);
    connect(m_view, &TimelineView::selectionChanged, this, &TimelinePanel::refreshDetails);
    connect(m_view, &TimelineView::rangeSelectionChanged, this, &TimelinePanel::refreshDetails);
}

void TimelinePanel::setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> timeline,
                             const QString& title) {
    m_stack->setCurrentIndex(trace ? 1 : 0);
    m_title->setText(title.isEmpty() ? QString() : QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    m_view->setTrace(std::move(trace), std::move(timeline));
}

void TimelinePanel::showMessage(const QString& html) {
    m_empty->setText(html);
    if (m_stack != nullptr) m_stack->setCurrentIndex(0);
}

QString TimelinePanel::detailsHtml() const {
    return m_details->toHtml();
}

QWidget* TimelinePanel::detailsWidget() const {
    return m_details;
}

void TimelinePanel::refreshDetails() {
    const auto* trace = m_view->trace();
    const auto* timeline = m_view->data();
    if (trace == nullptr || timeline == nullptr) {
        m_details->setHtml(QString::fromUtf8(kHint));
        return;
    }
    QString html;
    if (m_view->selectedEvent().valid()) {
        html += eventDetailsHtml(*trace, m_view->selectedEvent(), m_view->selectedMatch(), m_view->originNs());
    }
    if (m_view->hasSelectedRange()) html += rangeStatsHtml(*timeline, m_view->rangeStats(), m_view->originNs());
    m_details->setHtml(html.isEmpty() ? QString::fromUtf8(kHint) : html);
}

}  // namespace tpscope::ui
