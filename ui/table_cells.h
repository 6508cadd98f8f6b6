// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The two helpers every table and caption of the ui uses to show core's numbers: a std::string from
// core as a QString (UTF-8), and a number cell that keeps its raw value for sorting and CSV. One NaN
// policy for every table: an unknown (non-finite) number shows "—" and has no sort value.

#include <QStandardItem>
#include <QString>

#include <cmath>
#include <string_view>

#include "core/workload/model.h"

namespace tpscope::ui {

inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// `text` shown right-aligned, `raw` in Qt::UserRole (what sorting and CSV read); NaN: "—", no raw.
inline QStandardItem* numberItem(const QString& text, double raw) {
    const bool known = std::isfinite(raw);
    auto* item = new QStandardItem(known ? text : QStringLiteral("—"));
    if (known) item->setData(raw, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// A model as the model lists show it: a MoE or MLA model with its kind (core's kindLabel) after the
// name, "gpt-oss-120b · MoE 128x top-4 GQA"; a dense model by its name alone.
inline QString modelLabel(const core::ModelSpec& m) {
    if (!m.isMoe() && !m.isMla()) return qs(m.name);
    return qs(m.name + " · " + m.kindLabel());
}

}  // namespace tpscope::ui
