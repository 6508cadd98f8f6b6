// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/error_banner.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include "ui/palette_colors.h"

namespace tpscope::ui {

namespace {

struct BannerColors {
    QColor background;
    QColor border;
    QColor text;  // >= 7:1 against the background
};

// Pale plates with dark text on a light palette; deep plates with pale text on a dark one (the same
// hues, the same >= 7:1 text contrast), so the banner never stays a light patch on a dark desktop.
BannerColors colorsOf(ErrorBanner::Level level, bool dark) {
    if (dark) {
        switch (level) {
            case ErrorBanner::Level::Error:
                return {QColor(0x4A, 0x1E, 0x1A), QColor(0x8C, 0x3A, 0x30), QColor(0xFF, 0xD8, 0xD2)};
            case ErrorBanner::Level::Warning:
                return {QColor(0x40, 0x33, 0x0C), QColor(0x8A, 0x6D, 0x1F), QColor(0xFF, 0xEB, 0xB0)};
            case ErrorBanner::Level::Info:
                return {QColor(0x16, 0x30, 0x4D), QColor(0x3D, 0x6A, 0x99), QColor(0xD8, 0xE9, 0xFB)};
        }
    }
    switch (level) {
        case ErrorBanner::Level::Error:
            return {QColor(0xFD, 0xEC, 0xEA), QColor(0xE8, 0xA3, 0x9B), QColor(0x7A, 0x1F, 0x16)};
        case ErrorBanner::Level::Warning:
            return {QColor(0xFF, 0xF6, 0xE0), QColor(0xE9, 0xC4, 0x6A), QColor(0x6B, 0x4E, 0x00)};
        case ErrorBanner::Level::Info:
            return {QColor(0xE8, 0xF1, 0xFB), QColor(0x9C, 0xC2, 0xE8), QColor(0x1D, 0x3F, 0x66)};
    }
    return {};
}

}  // namespace

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

void ErrorBanner::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    // A new palette (the desktop switched theme): the plate follows it.
    // Setting the style sheet can itself send PaletteChange: re-pick only when the theme flipped.
    if (event->type() == QEvent::PaletteChange && isDarkPalette(QApplication::palette()) != m_dark) applyColors();
}

void ErrorBanner::showMessage(const QString& text, Level level) {
    m_level = level;
    applyColors();
    m_text->setText(text);
    show();
}

void ErrorBanner::applyColors() {
    m_dark = isDarkPalette(QApplication::palette());
    const BannerColors c = colorsOf(m_level, m_dark);
    m_background = c.background;
    // The label gets its colour explicitly: a style sheet on the frame does not pass `color` down,
    // and the application palette's text colour is light on a dark theme.
    setStyleSheet(QStringLiteral("#errorBanner{background:%1;border:1px solid %2;border-radius:4px;}"
                                 " QLabel{border:none;background:transparent;color:%3;}"
                                 " QToolButton{color:%3;}")
                      .arg(c.background.name(), c.border.name(), c.text.name()));
    QPalette p = m_text->palette();
    p.setColor(QPalette::WindowText, c.text);
    p.setColor(QPalette::Text, c.text);
    m_text->setPalette(p);
}

QString ErrorBanner::text() const {
    return m_text->text();
}

}  // namespace tpscope::ui
