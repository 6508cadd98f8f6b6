// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one Save As path of every file the window writes (workspace, view export, report). The file
// dialog is told not to ask about replacing a file: it would ask about the name as typed, before the
// chosen filter's suffix is added, and not about the files written beside it (the Calculator's
// -plan.csv and -amdahl.csv). This helper adds the suffix first, then asks one question naming every
// file that already exists among all those the choice will write.

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace tpscope::ui {

// A yes/no question (a QMessageBox in the window; tests answer without a dialog).
using ConfirmPrompt = std::function<bool(QWidget* owner, const QString& question)>;

struct SaveAsOptions {
    QString title;           // the dialog's title
    QString suggested;       // the name (or path) offered first
    QStringList formats;     // the suffixes the file may have ("png", "svg"); the first is the default
    QStringList filters;     // the dialog's filters ("PNG (*.png)"); empty: one per format
    QString selectedFilter;  // the filter offered first; empty: the first
    // The other files written with the chosen one (empty: none).
    std::function<QStringList(const QString& path)> companions;
};

// "PNG (*.png)" for each format.
QStringList saveAsFilters(const QStringList& formats);
// The name typed in the dialog, made final: the chosen filter's suffix added when the name has none
// of the formats; then, if any of the files it writes exists, one question naming them. Empty when
// the user declines.
QString confirmSaveAs(const QString& typed, const QString& selectedFilter, const SaveAsOptions& options, QWidget* owner,
                      const ConfirmPrompt& confirm);
// The dialog, then confirmSaveAs. Empty when the user cancels either. `selectedFilter`, when given,
// receives the filter chosen.
QString askSaveAs(QWidget* owner, const SaveAsOptions& options, const ConfirmPrompt& confirm,
                  QString* selectedFilter = nullptr);

}  // namespace tpscope::ui
