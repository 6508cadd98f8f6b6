#pragma once
// An inline message strip above the views (KDE's KMessageWidget idea): errors stay visible in the
// window with their reason until dismissed, without a modal dialog that blocks the work.

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

  private:
    QLabel* m_text = nullptr;
};

}  // namespace tpscope::ui
