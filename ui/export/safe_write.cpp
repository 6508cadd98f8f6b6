// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/export/safe_write.h"

#include <QFileInfo>
#include <QSaveFile>

namespace tpscope::ui {

core::Error exportWriteError(const QString& path, const std::string& what, const QString& reason) {
    std::string message = "cannot write the " + what;
    if (!reason.isEmpty()) message += ": " + reason.toStdString();
    return core::makeError(core::ErrorCode::IoError, message, path.toStdString());
}

CheckedOutput::CheckedOutput(QSaveFile& file) : m_file(file) {
    open(QIODevice::WriteOnly);
}

qint64 CheckedOutput::writeData(const char* data, qint64 size) {
    if (m_failed) return -1;
    const qint64 written = m_file.write(data, size);
    if (written == size) return written;
    m_failed = true;
    m_reason = written < 0 ? m_file.errorString() : QStringLiteral("the disk took only part of it");
    setErrorString(m_reason);
    return -1;
}

core::Status writeFileSafely(const QString& path, const std::string& what,
                             const std::function<core::Status(QIODevice& out)>& write) {
    if (path.isEmpty()) return exportWriteError(path, what, QStringLiteral("no file name given"));
    if (QFileInfo(path).isDir()) return exportWriteError(path, what, QStringLiteral("it is a folder"));
    QSaveFile file(path);
    // Unbuffered: each write reaches the file now, and a short one shows in its count.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        return exportWriteError(path, what, file.errorString());
    }
    CheckedOutput out(file);
    auto status = write(out);
    if (status && out.failed()) status = exportWriteError(path, what, out.reason());
    if (!status) {
        file.cancelWriting();
        return status;
    }
    // commit() fails when any write failed (a full disk) or the rename does: the target is untouched.
    if (!file.commit()) return exportWriteError(path, what, file.errorString());
    return core::Ok{};
}

}  // namespace tpscope::ui
