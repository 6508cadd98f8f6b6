// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/export/plot_export.h"

#include <qcustomplot.h>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <cmath>

#include "core/io/export/csv_writer.h"
#include "core/util/units.h"

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

core::Status exportSvg(QCustomPlot& plot, const QString& path, QSize size) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QStringLiteral("tpscope chart"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return exportError(path, "cannot write the SVG file");
    plot.toPainter(&painter, size.width(), size.height());
    painter.end();
    if (QFileInfo(path).size() <= 0) return exportError(path, "cannot write the SVG file");
    return core::Ok{};
}

core::Status exportPlotAtSize(QCustomPlot& plot, const ExportRequest& request) {
    if (request.path.isEmpty()) return exportError(request.path, "no file name given");
    const QString suffix = exportSuffix(request.path);
    const QSize size = logicalSize(plot, request);
    const double dpr = request.dpr > 0 && std::isfinite(request.dpr) ? request.dpr : 1.0;
    if (suffix == QLatin1String("png")) {
        const int dpi = static_cast<int>(std::lround(96 * dpr));
        if (!plot.savePng(request.path, size.width(), size.height(), dpr, -1, dpi, QCP::ruDotsPerInch)) {
            return exportError(request.path, "cannot write the PNG file");
        }
        return core::Ok{};
    }
    if (suffix == QLatin1String("svg")) return exportSvg(plot, request.path, size);
    if (suffix == QLatin1String("pdf")) {
        if (!plot.savePdf(request.path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("tpscope"),
                          QStringLiteral("tpscope chart"))) {
            return exportError(request.path, "cannot write the PDF file");
        }
        return core::Ok{};
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

core::Status exportTableCsv(const QAbstractItemModel& model, const QString& path) {
    if (exportSuffix(path) != QLatin1String("csv")) {
        return exportError(path, "tables export to .csv, not ." + exportSuffix(path).toStdString());
    }
    core::CsvTable table;
    for (int c = 0; c < model.columnCount(); ++c) {
        table.header.push_back(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().toStdString());
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
    return core::writeCsvTable(table, path.toStdString());
}

}  // namespace tpscope::ui
