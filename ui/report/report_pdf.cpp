// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/report/report_pdf.h"

#include <qcustomplot.h>
#include <QAbstractItemModel>
#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

#include "ui/export/safe_write.h"

namespace tpscope::ui {

namespace {

constexpr int kDpi = 96;
constexpr double kMarginPx = 40;

}  // namespace

ReportPdf::ReportPdf(QString path, QString title) : m_path(std::move(path)), m_title(std::move(title)) {}

ReportPdf::~ReportPdf() {
    if (m_painter && m_painter->isActive()) m_painter->end();
}

core::Status ReportPdf::begin() {
    // Through a save file: a report that fails half-way (a full disk) leaves the previous one as it was.
    if (QFileInfo(m_path).isDir()) return exportWriteError(m_path, "PDF report", QStringLiteral("it is a folder"));
    m_file = std::make_unique<QSaveFile>(m_path);
    if (!m_file->open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        return exportWriteError(m_path, "PDF report", m_file->errorString());
    }
    m_out = std::make_unique<CheckedOutput>(*m_file);
    m_writer = std::make_unique<QPdfWriter>(m_out.get());
    m_writer->setResolution(kDpi);
    m_writer->setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(0, 0, 0, 0)));
    m_writer->setTitle(m_title);
    m_writer->setCreator(QStringLiteral("tpscope"));
    m_painter = std::make_unique<QCPPainter>();
    if (!m_painter->begin(m_writer.get())) {
        return core::makeError(core::ErrorCode::IoError, "cannot write the PDF report", m_path.toStdString());
    }
    return core::Ok{};
}

void ReportPdf::startPage() {
    if (m_pages > 0) m_writer->newPage();
    ++m_pages;
}

void ReportPdf::addHtml(const QString& html) {
    if (!m_painter || !m_painter->isActive()) return;
    const QRectF page(QPointF(0, 0), QSizeF(m_writer->width(), m_writer->height()));
    const QRectF body = page.adjusted(kMarginPx, kMarginPx, -kMarginPx, -kMarginPx);
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(m_writer.get());
    doc.setDefaultStyleSheet(
        QStringLiteral("table { border-collapse: collapse; } th, td { padding: 2px 6px; } "
                       "th { background: #e8e8e8; }"));
    doc.setHtml(html);
    doc.setPageSize(body.size());
    const int pages = std::max(1, doc.pageCount());
    for (int i = 0; i < pages; ++i) {
        startPage();
        m_painter->save();
        m_painter->translate(body.left(), body.top() - i * body.height());
        doc.drawContents(m_painter.get(), QRectF(0, i * body.height(), body.width(), body.height()));
        m_painter->restore();
    }
}

void ReportPdf::addChart(const QString& heading, QCustomPlot& plot, const QString& caption) {
    addPainted(
        heading,
        [this, &plot](QPainter&, QSize size) {
            m_painter->setMode(QCPPainter::pmVectorized);
            m_painter->setMode(QCPPainter::pmNoCaching);
            plot.toPainter(m_painter.get(), size.width(), size.height());
            // toPainter laid the plot out at the page's size: lay it out for the screen again, or the
            // on-screen chart's hover and clicks map to the page's geometry (the wrong layer).
            plot.replot(QCustomPlot::rpImmediateRefresh);
        },
        caption);
}

void ReportPdf::addPainted(const QString& heading, const PagePainter& paint, const QString& caption) {
    if (!m_painter || !m_painter->isActive()) return;
    startPage();
    const QRectF page(QPointF(0, 0), QSizeF(m_writer->width(), m_writer->height()));
    const QRectF body = page.adjusted(kMarginPx, kMarginPx, -kMarginPx, -kMarginPx);
    QFont headingFont = m_painter->font();
    headingFont.setPointSizeF(16);
    headingFont.setBold(true);
    m_painter->setFont(headingFont);
    m_painter->setPen(Qt::black);
    const QRectF headingRect(body.left(), body.top(), body.width(), 32);
    m_painter->drawText(headingRect, Qt::AlignLeft | Qt::AlignVCenter, heading);
    const double captionHeight = caption.isEmpty() ? 0 : 60;
    const QRectF bodyRect(body.left(), headingRect.bottom() + 8, body.width(),
                          body.height() - headingRect.height() - 8 - captionHeight);
    m_painter->save();
    m_painter->translate(bodyRect.topLeft());
    paint(*m_painter, bodyRect.size().toSize());
    m_painter->restore();
    if (!caption.isEmpty()) {
        QFont captionFont = m_painter->font();
        captionFont.setPointSizeF(10);
        captionFont.setBold(false);
        m_painter->setFont(captionFont);
        m_painter->setPen(Qt::black);
        m_painter->drawText(QRectF(body.left(), body.bottom() - captionHeight + 6, body.width(), captionHeight - 6),
                            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, caption);
    }
}

core::Result<int> ReportPdf::finish() {
    if (!m_painter || !m_painter->isActive()) {
        return core::makeError(core::ErrorCode::IoError, "the PDF report was not started", m_path.toStdString());
    }
    if (m_pages == 0) startPage();  // an empty report is still a valid one-page PDF
    const bool painted = m_painter->end();
    m_writer.reset();
    if (!painted || m_out->failed()) {
        m_file->cancelWriting();
        return exportWriteError(m_path, "PDF report",
                                painted ? m_out->reason() : QStringLiteral("the painter could not finish"));
    }
    if (!m_file->commit()) return exportWriteError(m_path, "PDF report", m_file->errorString());
    return m_pages;
}

QString htmlEscaped(const QString& text) {
    return text.toHtmlEscaped();
}

QString tableHtml(const QAbstractItemModel& model) {
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\"><tr>");
    for (int c = 0; c < model.columnCount(); ++c) {
        html += QStringLiteral("<th>%1</th>").arg(model.headerData(c, Qt::Horizontal).toString().toHtmlEscaped());
    }
    html += QStringLiteral("</tr>");
    for (int r = 0; r < model.rowCount(); ++r) {
        html += QStringLiteral("<tr>");
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            const bool right = (model.data(index, Qt::TextAlignmentRole).toInt() & Qt::AlignRight) != 0;
            html += QStringLiteral("<td%1>%2</td>")
                        .arg(right ? QStringLiteral(" align=\"right\"") : QString(),
                             model.data(index).toString().toHtmlEscaped());
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

}  // namespace tpscope::ui
