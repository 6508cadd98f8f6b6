// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// An inline message strip above the views (KDE's KMessageWidget idea): errors stay visible in the
// window with their reason until dismissed or until a later success, without a modal dialog that
// blocks the work. Its colours are fixed pairs (tinted background, dark text of the same hue) set on
// the strip and on the label itself, so a dark application palette cannot make the text unreadable.

#include <QColor>
#include <QFrame>

class QLabel;

namespace tpscope::ui {

class ErrorBanner : public QFrame {
    Q_OBJECT

  public:
    enum class Level { Error, Warning, Info };
    explicit ErrorBanner(QWidget* parent = nullptr);
    void showMessage(const QString& text, Level level = Level::Error);
    QString text() const;
    QColor backgroundColor() const { return m_background; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void applyColors();
    QLabel* m_text = nullptr;
    QColor m_background;
    Level m_level = Level::Error;
    bool m_dark = false;  // the theme the colours were picked for
};

}  // namespace tpscope::ui
