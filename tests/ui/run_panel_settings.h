// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The run panel set through its own settings, as a user's saved panel would be: the tests that sweep
// from the window start from one panel (fp16, 2 tokens of 256 context, H100 SXM over NVLink 4, one
// node of 8 GPUs) and say only what differs.

#include <QSettings>
#include <QString>
#include <QVariantMap>

#include "ui/window/run_panel.h"

namespace tpscope::test {

// `values`: the panel's settings keys (model, tp, batches, …) that the test chooses; they replace the
// defaults above. The settings file goes in `dir`.
inline void restoreRunPanel(ui::RunPanel& panel, const QString& dir, const QVariantMap& values) {
    QVariantMap settings{
        {QStringLiteral("dtype"), QStringLiteral("fp16")},
        {QStringLiteral("tokens"), 2},
        {QStringLiteral("context"), 256},
        {QStringLiteral("gpu"), QStringLiteral("h100-sxm")},
        {QStringLiteral("fabric"), QStringLiteral("nvlink4")},
        {QStringLiteral("nodes"), 1},
        {QStringLiteral("gpusPerNode"), 8},
    };
    settings.insert(values);
    QSettings s(dir + QStringLiteral("/panel.ini"), QSettings::IniFormat);
    s.beginGroup(QStringLiteral("runPanel"));
    for (auto it = settings.cbegin(); it != settings.cend(); ++it) s.setValue(it.key(), it.value());
    s.endGroup();
    panel.restoreSettings(s);
}

}  // namespace tpscope::test
