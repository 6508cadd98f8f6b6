// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/kind_mix.h"

#include <algorithm>

namespace tpscope::core {

KindShares kindMix(const EventColumns& events, const LodSpan& span, std::size_t maxSamples) {
    KindShares byTime{};
    KindShares byCount{};
    const std::size_t first = std::min(span.firstIndex, events.size());
    const std::size_t count = std::min(span.count, events.size() - first);
    if (count == 0) return byTime;
    const std::size_t samples = std::max<std::size_t>(1, std::min(count, maxSamples));
    double total = 0;
    for (std::size_t s = 0; s < samples; ++s) {
        // Evenly spread, first and last included: i = first + s * (count - 1) / (samples - 1).
        const std::size_t i = first + (samples == 1 ? 0 : s * (count - 1) / (samples - 1));
        const auto k = static_cast<std::size_t>(events.kind(i));
        const auto dur = static_cast<double>(std::max<std::int64_t>(0, events.durNs(i)));
        byTime[k] += dur;
        byCount[k] += 1;
        total += dur;
    }
    KindShares& shares = total > 0 ? byTime : byCount;
    const double sum = total > 0 ? total : static_cast<double>(samples);
    for (auto& v : shares) v /= sum;
    return shares;
}

}  // namespace tpscope::core
