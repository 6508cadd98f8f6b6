// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A multi-page PDF report (STYLE.md "Charts and reports"): QPdfWriter + one QPainter; text and
// tables are QTextDocument HTML paginated over as many pages as they need, each chart gets a page
// drawn by QCustomPlot::toPainter at the page's size, so all text stays vector and searchable.
// A4 landscape at 96 dpi, the resolution QCustomPlot's own PDF export uses, so fonts and pens
// keep their on-screen proportions.

#include <QSize>
#include <QString>

#include <functional>
#include <memory>

#include "core/util/result.h"

class QCustomPlot;
class QAbstractItemModel;
class QCPPainter;
class QPainter;
class QPdfWriter;
class QSaveFile;

namespace tpscope::ui {

class CheckedOutput;

class ReportPdf {
  public:
    explicit ReportPdf(QString path, QString title);
    ~ReportPdf();
    ReportPdf(const ReportPdf&) = delete;
    ReportPdf& operator=(const ReportPdf&) = delete;

    // Starts the file; an error when it cannot be written.
    core::Status begin();
    // HTML on as many pages as it needs (starts on a new page).
    void addHtml(const QString& html);
    // One page: a heading, the chart at the page's width, a caption below it.
    void addChart(const QString& heading, QCustomPlot& plot, const QString& caption = {});
    // One page like addChart, its body drawn by `paint` into (0, 0, size) (stacked timelines).
    using PagePainter = std::function<void(QPainter& painter, QSize size)>;
    void addPainted(const QString& heading, const PagePainter& paint, const QString& caption = {});
    // Finishes the file; the number of pages written.
    core::Result<int> finish();

    int pagesWritten() const { return m_pages; }

  private:
    void startPage();

    QString m_path;
    QString m_title;
    std::unique_ptr<QSaveFile> m_file;  // replaces m_path on finish() only
    std::unique_ptr<CheckedOutput> m_out;
    std::unique_ptr<QPdfWriter> m_writer;
    std::unique_ptr<QCPPainter> m_painter;
    int m_pages = 0;
};

// A table model as an HTML table (header row, display text), for a report page.
QString tableHtml(const QAbstractItemModel& model);
QString htmlEscaped(const QString& text);

}  // namespace tpscope::ui
