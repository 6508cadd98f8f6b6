#include "ui/document_loader.h"

#include "ui/logging.h"
#include "ui/timeline/timeline_data.h"

namespace tpscope::ui {

DocumentLoader::DocumentLoader(OpenFn open, QObject* parent) : QObject(parent), m_open(std::move(open)) {
    qRegisterMetaType<tpscope::ui::OpenedDocument>();
}

DocumentLoader::~DocumentLoader() {
    cancel();
    wait();
}

void DocumentLoader::start(const QString& path) {
    cancel();
    wait();
    m_cancel.store(false);
    m_loading.store(true);
    const std::uint64_t generation = ++m_generation;
    qCInfo(lcDocument) << "opening" << path;
    m_thread = std::thread([this, path, generation] {
        const ProgressFn progress = [this, generation](double f) {
            if (generation == m_generation.load()) Q_EMIT this->progress(f);
        };
        auto result = m_open(path, progress, m_cancel);
        if (result) {
            for (auto& run : result->runs) {
                if (run.trace && !run.timeline) run.timeline = TimelineData::build(*run.trace);
            }
        }
        deliver(generation, std::move(result), path);
    });
}

void DocumentLoader::deliver(std::uint64_t generation, core::Result<OpenedDocument> result, const QString& path) {
    const bool current = generation == m_generation.load() && !m_cancel.load();
    m_loading.store(false);
    if (!current) return;
    if (result) {
        Q_EMIT loaded(std::move(*result));
    } else {
        qCWarning(lcDocument) << "could not open" << path << ":" << QString::fromStdString(result.error().message);
        Q_EMIT failed(path, QString::fromStdString(result.error().message));
    }
}

void DocumentLoader::cancel() {
    m_cancel.store(true);
}

void DocumentLoader::wait() {
    if (m_thread.joinable()) m_thread.join();
}

}  // namespace tpscope::ui
