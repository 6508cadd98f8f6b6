// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/breakdown_palette.h"

#include <array>

#include "ui/timeline/kind_palette.h"

namespace tpscope::ui {

QColor breakdownColor(BreakdownPart part) {
    switch (part) {
        case BreakdownPart::Compute:
            return kindColor(core::EventKind::Gemm);
        case BreakdownPart::OverlappedComm:
            return kindColor(core::EventKind::Collective);
        case BreakdownPart::ExposedTransfer:
            return exposedCommColor();
        case BreakdownPart::SyncWait:
        case BreakdownPart::ExposedWait:  // the whole of which sync wait is a part: one colour
            return kindColor(core::EventKind::Attention);
        case BreakdownPart::Imbalance:
            return kindColor(core::EventKind::Memset);
        case BreakdownPart::Idle:
            return kindColor(core::EventKind::Other);
    }
    return kindColor(core::EventKind::Other);
}

QString breakdownLabel(BreakdownPart part) {
    switch (part) {
        case BreakdownPart::Compute:
            return QStringLiteral("Compute");
        case BreakdownPart::OverlappedComm:
            return QStringLiteral("Overlapped comm");
        case BreakdownPart::ExposedTransfer:
            return QStringLiteral("Exposed transfer");
        case BreakdownPart::SyncWait:
            return QStringLiteral("Sync wait");
        case BreakdownPart::ExposedWait:
            return QStringLiteral("Exposed wait");
        case BreakdownPart::Imbalance:
            return QStringLiteral("Imbalance");
        case BreakdownPart::Idle:
            return QStringLiteral("Idle");
    }
    return {};
}

QColor seriesColor(int index) {
    static const std::array<core::EventKind, 6> order = {core::EventKind::Gemm,        core::EventKind::Collective,
                                                         core::EventKind::Memcpy,      core::EventKind::Attention,
                                                         core::EventKind::Elementwise, core::EventKind::Memset};
    const auto i = static_cast<std::size_t>(index < 0 ? 0 : index) % order.size();
    return kindColor(order[i]).darker(100 + 25 * (index / static_cast<int>(order.size())));
}

}  // namespace tpscope::ui
