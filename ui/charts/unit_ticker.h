// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Axis tickers whose labels carry units, formatted by core's own unit formatter (core/util/units),
// so µs/ms, $/Mtok, tokens/s and % read the same on every chart, in the GUI and in exports.

#include <qcustomplot.h>

#include <functional>
#include <string>

namespace tpscope::ui {

class UnitTicker : public QCPAxisTicker {
  public:
    using Format = std::function<std::string(double)>;
    explicit UnitTicker(Format format) : m_format(std::move(format)) {}

  protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

  private:
    Format m_format;
};

// A logarithmic axis (powers of 2 or 10) whose labels go through core's formatter.
class LogUnitTicker : public QCPAxisTickerLog {
  public:
    explicit LogUnitTicker(UnitTicker::Format format) : m_format(std::move(format)) {}

  protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

  private:
    UnitTicker::Format m_format;
};

// Tickers for the units the chart pages plot.
QSharedPointer<QCPAxisTicker> durationTicker();     // nanoseconds -> "812 ns", "12.4 us", "1.20 ms"
QSharedPointer<QCPAxisTicker> dollarTicker();       // dollars -> "$0.42"
QSharedPointer<QCPAxisTicker> percentTicker();      // fraction -> "85 %"
QSharedPointer<QCPAxisTicker> siTicker();           // 1500 -> "1.50 k"
QSharedPointer<QCPAxisTicker> speedupTicker();      // 2.5 -> "2.5×"
QSharedPointer<QCPAxisTicker> bandwidthTicker();    // bytes/s -> "12.3 GB/s"
QSharedPointer<QCPAxisTicker> bytesLogTicker();     // log2 axis of byte sizes -> "16.0 KiB"
QSharedPointer<QCPAxisTicker> durationLogTicker();  // log10 axis of nanoseconds -> "10 us", "1.00 ms"
// Text ticks at category positions 1..n (GPU counts, layer names).
QSharedPointer<QCPAxisTickerText> categoryTicker(const QStringList& labels);

}  // namespace tpscope::ui
