// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/unit_ticker.h"

#include "core/util/units.h"

namespace tpscope::ui {

QString UnitTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*formatChar*/, int /*precision*/) {
    // Ticks are multiples of a step; values like 3e-17 are zero that floating point missed.
    // Zero needs no unit, and "0 ns" under a column of "µs" ticks reads like a different scale.
    if (std::abs(tick) < 1e-12) return QStringLiteral("0");
    return QString::fromStdString(m_format(tick));
}

QString LogUnitTicker::getTickLabel(double tick, const QLocale& /*locale*/, QChar /*formatChar*/, int /*precision*/) {
    return QString::fromStdString(m_format(tick));
}

QSharedPointer<QCPAxisTicker> durationTicker() {
    return QSharedPointer<QCPAxisTicker>(
        new UnitTicker([](double ns) { return core::formatDurationNs(ns, core::DurationStyle::Display); }));
}

QSharedPointer<QCPAxisTicker> dollarTicker() {
    return QSharedPointer<QCPAxisTicker>(new UnitTicker([](double d) { return core::formatDollars(d); }));
}

QSharedPointer<QCPAxisTicker> percentTicker() {
    return QSharedPointer<QCPAxisTicker>(new UnitTicker([](double f) { return core::formatPercent(f); }));
}

QSharedPointer<QCPAxisTicker> siTicker() {
    return QSharedPointer<QCPAxisTicker>(new UnitTicker([](double v) { return core::formatSi(v, ""); }));
}

QSharedPointer<QCPAxisTicker> speedupTicker() {
    return QSharedPointer<QCPAxisTicker>(new UnitTicker([](double v) { return core::formatSi(v, "") + "×"; }));
}

QSharedPointer<QCPAxisTicker> bandwidthTicker() {
    return QSharedPointer<QCPAxisTicker>(new UnitTicker([](double v) { return core::formatSi(v, "B/s"); }));
}

QSharedPointer<QCPAxisTicker> bytesLogTicker() {
    auto* ticker = new LogUnitTicker([](double b) { return core::formatBytes(b); });
    ticker->setLogBase(2);
    ticker->setSubTickCount(0);
    return QSharedPointer<QCPAxisTicker>(ticker);
}

QSharedPointer<QCPAxisTicker> durationLogTicker() {
    auto* ticker =
        new LogUnitTicker([](double ns) { return core::formatDurationNs(ns, core::DurationStyle::Display); });
    ticker->setLogBase(10);
    return QSharedPointer<QCPAxisTicker>(ticker);
}

QSharedPointer<QCPAxisTickerText> categoryTicker(const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i) ticker->addTick(i + 1, labels[i]);
    return ticker;
}

}  // namespace tpscope::ui
