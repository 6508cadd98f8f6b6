// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/rank_clock_text.h"

#include <QCoreApplication>

#include "core/util/units.h"

namespace tpscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("RankClock", text);
}

QString duration(double ns) {
    return QString::fromStdString(core::formatDurationNs(ns, core::DurationStyle::Detail));
}

}  // namespace

QString rankClockText(const core::analysis::ClockEstimate& estimate, std::size_t rankIndex, bool hasCollectives) {
    if (!hasCollectives) return tr("clock offset not estimated (no collectives)");
    if (rankIndex >= estimate.ranks.size()) return tr("clock offset not estimated");
    const auto& e = estimate.ranks[rankIndex];
    if (!e.known) return tr("clock offset not estimated (%1)").arg(QString::fromStdString(e.reason));
    if (static_cast<std::int64_t>(rankIndex) == estimate.referenceRankIndex) {
        return tr("clock reference (%1 calls)").arg(e.calls);
    }
    const QString sign = e.offsetNs > 0 ? QStringLiteral("+") : QString();
    return tr("clock offset %1%2 ± %3 (%4 calls)")
        .arg(sign, duration(static_cast<double>(e.offsetNs)), duration(e.residualNs))
        .arg(e.calls);
}

}  // namespace tpscope::ui
