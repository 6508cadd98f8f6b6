#pragma once
// Opens a file (workspace, Kineto JSON, rank folder, nsys SQLite) on a worker thread through
// Services::open and emits the result as a value: loaded(OpenedDocument) or failed(path, message).
// Each run's timeline data is derived on the same thread. A new load cancels the previous one;
// results of a superseded load are dropped.

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

#include "ui/services.h"

namespace tpscope::ui {

class DocumentLoader : public QObject {
    Q_OBJECT

  public:
    using OpenFn = decltype(Services::open);

    explicit DocumentLoader(OpenFn open, QObject* parent = nullptr);
    ~DocumentLoader() override;

    void start(const QString& path);
    void cancel();
    bool isLoading() const { return m_loading.load(); }
    void wait();

  Q_SIGNALS:
    void progress(double fraction);
    void loaded(tpscope::ui::OpenedDocument document);
    void failed(QString path, QString message);

  private:
    void deliver(std::uint64_t generation, core::Result<OpenedDocument> result, const QString& path);

    OpenFn m_open;
    std::thread m_thread;
    std::atomic<bool> m_loading{false};
    std::atomic<std::uint64_t> m_generation{0};
    CancelFlag m_cancel{false};
};

}  // namespace tpscope::ui
