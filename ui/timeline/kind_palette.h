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
// NVTX ranges: slate tones, lighter with depth on a light background and darker on a dark one, so a
// nested range never turns into a near-white bar on a dark desktop.
QColor nvtxColor(int depth, std::size_t index, bool dark = false);
// The part of a selected collective where its rank waits for the last arrival: a wash of the
// background over the kernel colour (white on a light palette, the dark base on a dark one), then a
// hatch.
QColor waitWashColor(const QColor& background);
QColor waitHatchColor();
QString kindLabel(core::EventKind kind);  // "GEMM", "Attention", "Collective", ...
// Black or white, whichever reads better on the background.
QColor textColorOn(const QColor& background);

}  // namespace tpscope::ui
