// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Export of anything painted through a QPainter (the timeline, Compare's stacked timelines) to
// PNG (size × dpr pixels), SVG (vector, viewBox = size) or PDF (one page of size points), by the
// path's suffix. The painter callback draws at `size` logical pixels and the given device-pixel
// ratio. Every failure is one Status naming the file.

#include <QSize>
#include <QString>

#include <functional>

#include "core/util/result.h"

class QPainter;

namespace tpscope::ui {

using PaintFn = std::function<void(QPainter& painter, QSize size, double dpr)>;

core::Status exportPainted(const QString& path, QSize size, double dpr, const QString& title, const PaintFn& paint);

}  // namespace tpscope::ui
