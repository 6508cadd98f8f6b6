// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Colours of the timeline, one per event kind plus the overlays, chosen to stay apart for the
// common colour-vision deficiencies (Tableau 10 hues) and to print well.

#include <QColor>
#include <QString>

#include "core/trace/event_kind.h"

namespace tpscope::ui {

QColor kindColor(core::EventKind kind);
QColor foldedColor(core::EventKind kind);  // a run of sub-pixel events of this dominant kind
QColor exposedCommColor();
// A call on a rank's host row (a kernel or graph launch, the host's work between steps): slate, apart
// from every kernel kind, since the host row is not GPU time.
QColor hostCallColor();
QColor foldedHostColor();  // a run of sub-pixel host calls
QColor nvtxColor(int depth, std::size_t index);
// The part of a selected collective where its rank waits for the last arrival: a wash over the
// kernel colour, then a hatch.
QColor waitWashColor();
QColor waitHatchColor();
QString kindLabel(core::EventKind kind);  // "GEMM", "Attention", "Collective", ...
// Black or white, whichever reads better on the background.
QColor textColorOn(const QColor& background);

}  // namespace tpscope::ui
