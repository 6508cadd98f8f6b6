// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Every export (chart, table, view, report) writes through a QSaveFile: into a temporary file next to
// the target, which replaces the target only once everything was written and the painter that drew
// it ended cleanly (commit). A failure on the way (a full disk, a file size limit, a painter that
// could not finish) leaves the previous file as it was and nothing half-written under its name.
// CSV goes through core's writer (core::OutputFile), which does the same in core.

#include <QIODevice>
#include <QSaveFile>
#include <QString>

#include <functional>
#include <string>

#include "core/util/result.h"

namespace tpscope::ui {

// Hands every write to a save file opened Unbuffered and remembers a short one: QFileDevice reports
// a write the kernel cut short (a full disk, a file size limit) as a success of fewer bytes, and
// writers that do not check the count (QSvgGenerator, QPdfWriter) would commit a truncated file.
class CheckedOutput : public QIODevice {
  public:
    explicit CheckedOutput(QSaveFile& file);
    bool failed() const { return m_failed; }
    QString reason() const { return m_reason; }

  protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 size) override;

  private:
    QSaveFile& m_file;
    bool m_failed = false;
    QString m_reason;
};

// An IoError naming the file: "cannot write the <what>: <reason>".
core::Error exportWriteError(const QString& path, const std::string& what, const QString& reason = {});

// write(out) fills the file; its error (or a failed write or commit) discards it.
core::Status writeFileSafely(const QString& path, const std::string& what,
                             const std::function<core::Status(QIODevice& out)>& write);

}  // namespace tpscope::ui
