// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/export/save_as.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>

#include "ui/export/plot_export.h"

namespace tpscope::ui {

QStringList saveAsFilters(const QStringList& formats) {
    QStringList filters;
    for (const QString& f : formats) filters << QStringLiteral("%1 (*.%2)").arg(f.toUpper(), f);
    return filters;
}

QString confirmSaveAs(const QString& typed, const QString& selectedFilter, const SaveAsOptions& options, QWidget* owner,
                      const ConfirmPrompt& confirm) {
    if (typed.isEmpty()) return {};
    QString path = withChosenSuffix(typed, selectedFilter, options.formats);
    QStringList written{path};
    if (options.companions) written += options.companions(path);
    QStringList existing;
    for (const QString& file : written) {
        if (QFileInfo::exists(file)) existing << QFileInfo(file).fileName();
    }
    if (existing.isEmpty()) return path;
    const QString question =
        existing.size() == 1
            ? QCoreApplication::translate("SaveAs", "%1 already exists. Replace it?").arg(existing.front())
            : QCoreApplication::translate("SaveAs", "%1 already exist. Replace them?")
                  .arg(existing.join(QStringLiteral(", ")));
    return confirm && confirm(owner, question) ? path : QString();
}

QString askSaveAs(QWidget* owner, const SaveAsOptions& options, const ConfirmPrompt& confirm, QString* selectedFilter) {
    const QStringList filters = options.filters.isEmpty() ? saveAsFilters(options.formats) : options.filters;
    QString selected = filters.contains(options.selectedFilter) ? options.selectedFilter : filters.value(0);
    const QString typed =
        QFileDialog::getSaveFileName(owner, options.title, options.suggested, filters.join(QStringLiteral(";;")),
                                     &selected, QFileDialog::DontConfirmOverwrite);
    if (selectedFilter != nullptr) *selectedFilter = selected;
    return confirmSaveAs(typed, selected, options, owner, confirm);
}

}  // namespace tpscope::ui
