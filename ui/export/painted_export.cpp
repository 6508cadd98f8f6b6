// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/export/painted_export.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>

#include "ui/export/safe_write.h"

namespace tpscope::ui {

core::Status exportPainted(const QString& path, QSize size, double dpr, const QString& title, const PaintFn& paint) {
    const std::string file = path.toStdString();
    if (size.width() < 200 || size.height() < 60 || size.width() > 20000 || size.height() > 20000)
        return core::makeError(core::ErrorCode::InvalidArgument, "export size must lie in 200×60 .. 20000×20000", file);
    dpr = std::clamp(dpr, 1.0, 4.0);
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QString finished = QStringLiteral("the painter could not finish");
    if (suffix == QLatin1String("png")) {
        QImage image(size * dpr, QImage::Format_RGB32);
        image.setDevicePixelRatio(dpr);
        QPainter p(&image);
        paint(p, size, dpr);
        if (!p.end()) return exportWriteError(path, "PNG", finished);
        return writeFileSafely(path, "PNG", [&](QIODevice& out) -> core::Status {
            if (!image.save(&out, "PNG")) return exportWriteError(path, "PNG", out.errorString());
            return core::Ok{};
        });
    }
    if (suffix == QLatin1String("svg")) {
        return writeFileSafely(path, "SVG", [&](QIODevice& out) -> core::Status {
            QSvgGenerator svg;
            svg.setOutputDevice(&out);
            svg.setSize(size);
            svg.setViewBox(QRect(QPoint(0, 0), size));
            svg.setTitle(title);
            QPainter p;
            if (!p.begin(&svg)) return exportWriteError(path, "SVG");
            paint(p, size, 1.0);
            if (!p.end()) return exportWriteError(path, "SVG", finished);
            return core::Ok{};
        });
    }
    if (suffix == QLatin1String("pdf")) {
        return writeFileSafely(path, "PDF", [&](QIODevice& out) -> core::Status {
            QPdfWriter pdf(&out);
            pdf.setResolution(96);
            pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
            pdf.setPageMargins(QMarginsF());
            pdf.setTitle(title);
            QPainter p;
            if (!p.begin(&pdf)) return exportWriteError(path, "PDF");
            const double scale = pdf.width() / static_cast<double>(size.width());
            p.scale(scale, scale);
            paint(p, size, 1.0);
            if (!p.end()) return exportWriteError(path, "PDF", finished);
            return core::Ok{};
        });
    }
    return core::makeError(core::ErrorCode::InvalidArgument, "unknown export format: use .png, .svg or .pdf", file);
}

}  // namespace tpscope::ui
