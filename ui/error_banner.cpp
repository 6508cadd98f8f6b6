#include "ui/error_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace tpscope::ui {

ErrorBanner::ErrorBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("errorBanner"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    layout->addWidget(m_text, 1);
    layout->addWidget(close);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void ErrorBanner::showMessage(const QString& text, Level level) {
    const char* style = level == Level::Error     ? "background:#fdecea;border:1px solid #e8a39b;color:#7a1f16;"
                        : level == Level::Warning ? "background:#fff6e0;border:1px solid #e9c46a;color:#6b4e00;"
                                                  : "background:#e8f1fb;border:1px solid #9cc2e8;color:#1d3f66;";
    setStyleSheet(QStringLiteral("#errorBanner{%1border-radius:4px;} QLabel{border:none;background:transparent;}")
                      .arg(QString::fromLatin1(style)));
    m_text->setText(text);
    show();
}

QString ErrorBanner::text() const {
    return m_text->text();
}

}  // namespace tpscope::ui
