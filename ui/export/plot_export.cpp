// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/export/plot_export.h"

#include <qcustomplot.h>
#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <cmath>

#include "core/io/export/csv_writer.h"
#include "core/util/units.h"
#include "ui/export/safe_write.h"

namespace tpscope::ui {

namespace {

core::Error exportError(const QString& path, const std::string& message) {
    return core::makeError(core::ErrorCode::IoError, message, path.toStdString());
}

// Logical size to lay the plot out at (ExportRequest::sizePx is in logical pixels).
QSize logicalSize(const QCustomPlot& plot, const ExportRequest& request) {
    QSize size = request.sizePx.isValid() && !request.sizePx.isEmpty() ? request.sizePx : plot.size();
    if (size.isEmpty()) size = QSize(1200, 800);
    return size;
}

// QCustomPlot::savePng's image (toPixmap at dpr, the DPI set), written into `out`.
core::Status writePng(QCustomPlot& plot, QSize size, double dpr, const QString& path, QIODevice& out) {
    QImage image = plot.toPixmap(size.width(), size.height(), dpr).toImage();
    const int dotsPerMeter = static_cast<int>(std::lround(96 * dpr / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    if (image.isNull() || !image.save(&out, "PNG")) return exportWriteError(path, "PNG file", out.errorString());
    return core::Ok{};
}

core::Status writeSvg(QCustomPlot& plot, QSize size, const QString& path, QIODevice& out) {
    QSvgGenerator generator;
    generator.setOutputDevice(&out);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QStringLiteral("tpscope chart"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return exportWriteError(path, "SVG file");
    plot.toPainter(&painter, size.width(), size.height());
    if (!painter.end()) return exportWriteError(path, "SVG file", QStringLiteral("the painter could not finish"));
    return core::Ok{};
}

// What QCustomPlot::savePdf draws (vectorised, no cosmetic pens, one page of the plot's size in
// points), through a QPdfWriter on `out`: savePdf prints through QPrinter, which takes a file name
// only and would bypass the save file.
core::Status writePdf(QCustomPlot& plot, QSize size, const QString& path, QIODevice& out) {
    QPdfWriter pdf(&out);
    pdf.setCreator(QStringLiteral("tpscope"));
    pdf.setTitle(QStringLiteral("tpscope chart"));
    pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                                  QPageLayout::Portrait, QMarginsF()));
    QCPPainter painter;
    if (!painter.begin(&pdf)) return exportWriteError(path, "PDF file");
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic);
    painter.setWindow(QRect(QPoint(0, 0), size));
    plot.toPainter(&painter, size.width(), size.height());
    if (!painter.end()) return exportWriteError(path, "PDF file", QStringLiteral("the painter could not finish"));
    return core::Ok{};
}

core::Status exportPlotAtSize(QCustomPlot& plot, const ExportRequest& request) {
    if (request.path.isEmpty()) return exportError(request.path, "no file name given");
    const QString suffix = exportSuffix(request.path);
    const QSize size = logicalSize(plot, request);
    const double dpr = request.dpr > 0 && std::isfinite(request.dpr) ? request.dpr : 1.0;
    const QString& path = request.path;
    if (suffix == QLatin1String("png")) {
        return writeFileSafely(path, "PNG file", [&](QIODevice& out) { return writePng(plot, size, dpr, path, out); });
    }
    if (suffix == QLatin1String("svg")) {
        return writeFileSafely(path, "SVG file", [&](QIODevice& out) { return writeSvg(plot, size, path, out); });
    }
    if (suffix == QLatin1String("pdf")) {
        return writeFileSafely(path, "PDF file", [&](QIODevice& out) { return writePdf(plot, size, path, out); });
    }
    return exportError(request.path, "charts export to .png, .svg or .pdf, not ." + suffix.toStdString());
}

}  // namespace

QString exportSuffix(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

QString withChosenSuffix(const QString& path, const QString& selectedFilter, const QStringList& formats) {
    if (formats.contains(exportSuffix(path))) return path;
    const auto match = QRegularExpression(QStringLiteral("\\*\\.(\\w+)")).match(selectedFilter);
    const QString suffix = match.hasMatch() ? match.captured(1).toLower() : formats.value(0);
    return suffix.isEmpty() ? path : path + QLatin1Char('.') + suffix;
}

core::Status exportPlot(QCustomPlot& plot, const ExportRequest& request) {
    core::Status status = exportPlotAtSize(plot, request);
    // The export laid the plot out at its own size; lay it out for the screen again, or hover and
    // clicks map to the exported geometry (the wrong layer).
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return status;
}

void setCsvHeader(QAbstractItemModel& model, const QStringList& names) {
    for (int c = 0; c < model.columnCount() && c < names.size(); ++c) {
        model.setHeaderData(c, Qt::Horizontal, names[c], kCsvHeaderRole);
    }
}

core::Status exportTableCsv(const QAbstractItemModel& model, const QString& path) {
    if (exportSuffix(path) != QLatin1String("csv")) {
        return exportError(path, "tables export to .csv, not ." + exportSuffix(path).toStdString());
    }
    core::CsvTable table;
    for (int c = 0; c < model.columnCount(); ++c) {
        const QString named = model.headerData(c, Qt::Horizontal, kCsvHeaderRole).toString();
        table.header.push_back(
            (named.isEmpty() ? model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() : named).toStdString());
    }
    for (int r = 0; r < model.rowCount(); ++r) {
        std::vector<std::string> row;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            const QVariant raw = model.data(index, Qt::UserRole);
            const int type = raw.typeId();
            const bool isNumber = type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong ||
                                  type == QMetaType::UInt || type == QMetaType::ULongLong;
            row.push_back(isNumber ? core::formatShortest(raw.toDouble())
                                   : model.data(index, Qt::DisplayRole).toString().toStdString());
        }
        table.rows.push_back(std::move(row));
    }
    // core's writer: a temporary file renamed over the target on commit, as writeFileSafely does.
    return core::writeCsvTable(table, path.toStdString());
}

}  // namespace tpscope::ui
