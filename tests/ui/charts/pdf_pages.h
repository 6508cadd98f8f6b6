// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Page count of a PDF by its page objects ("/Type /Page", not "/Pages"); Qt's writer keeps the page
// dictionaries uncompressed. -1 when the file is missing or not a PDF.

#include <QFile>
#include <QString>

namespace tpscope::test {

inline int pdfPageCount(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return -1;
    const QByteArray data = f.readAll();
    if (!data.startsWith("%PDF-")) return -1;
    int pages = 0;
    for (qsizetype at = data.indexOf("/Type /Page"); at >= 0; at = data.indexOf("/Type /Page", at + 1)) {
        if (data.mid(at + 11, 1) != "s") ++pages;
    }
    return pages;
}

}  // namespace tpscope::test
