// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/advice.h"

#include <array>
#include <cmath>

#include "core/util/units.h"

namespace tpscope::core::analysis {

std::string_view toString(AdviceKind kind) {
    switch (kind) {
        case AdviceKind::MinimumTp:
            return "minimum_tp";
        case AdviceKind::HigherTpPays:
            return "higher_tp_pays";
        case AdviceKind::HigherTpDoesNotPay:
            return "higher_tp_does_not_pay";
        case AdviceKind::Recommendation:
            return "recommendation";
    }
    return "recommendation";
}

namespace {

std::string fixed(double v, int decimals) {
    return formatFixed(v, decimals);
}

std::string percent(double fraction) {
    return fixed(fraction * 100.0, 0) + " %";
}

void largestLoss(const LossBreakdown& l, AdviceItem& item) {
    const std::array<std::pair<const char*, double>, 4> losses{
        {{"sync wait", l.syncWait}, {"transfer", l.transfer}, {"imbalance", l.imbalance}, {"idle", l.idle}}};
    item.largestLoss = losses[0].first;
    item.largestLossShare = losses[0].second;
    for (const auto& [name, share] : losses) {
        if (share > item.largestLossShare) {
            item.largestLoss = name;
            item.largestLossShare = share;
        }
    }
}

AdviceItem pairAdvice(const BatchScaling& bs, const ScalingRow& from, const ScalingRow& to, double threshold,
                      bool priced) {
    AdviceItem item;
    item.batch = bs.batch;
    item.fromGpus = from.gpus;
    item.toGpus = to.gpus;
    item.speedup = to.tokensPerSec / from.tokensPerSec;
    item.efficiency = item.speedup / (static_cast<double>(to.gpus) / from.gpus);
    item.costChange =
        priced && from.costPerMillionTokens > 0 ? to.costPerMillionTokens / from.costPerMillionTokens - 1 : 0;
    item.kind = item.efficiency >= threshold ? AdviceKind::HigherTpPays : AdviceKind::HigherTpDoesNotPay;
    largestLoss(to.loss, item);
    // Below 1x the higher TP is slower: say so, never "0.83x faster".
    const bool slower = item.speedup < 1.0;
    std::string text = "TP " + std::to_string(to.gpus) + " vs " + std::to_string(from.gpus) + " at batch " +
                       std::to_string(bs.batch) + ": " +
                       (slower ? fixed(1.0 / item.speedup, 2) + "x slower" : fixed(item.speedup, 2) + "x faster");
    if (priced) {
        text += ", " + percent(std::fabs(item.costChange)) + (item.costChange >= 0 ? " more" : " less") + " $/Mtok";
    }
    text += " (efficiency " + percent(item.efficiency) + "); " + item.largestLoss + " is " +
            percent(item.largestLossShare) + " of the TP " + std::to_string(to.gpus) + " step";
    if (item.kind == AdviceKind::HigherTpPays) {
        text += " -> the higher TP pays";
    } else if (slower) {
        // Slower in latency and dearer per token: nothing speaks for the higher TP.
        text += " -> stay at TP " + std::to_string(from.gpus) + ": TP " + std::to_string(to.gpus) +
                " is slower in latency too";
    } else {
        text += " -> stay at TP " + std::to_string(from.gpus) + " unless latency matters more than cost";
    }
    item.text = std::move(text);
    return item;
}

}  // namespace

std::vector<AdviceItem> adviseTp(const ScalingReport& report, const AdviceOptions& options) {
    std::vector<AdviceItem> out;
    const bool priced = report.pricePerGpuHour > 0;
    const std::string model = options.modelName.empty() ? "the model" : options.modelName;
    if (options.minimumTpThatFits > 0) {
        AdviceItem item;
        item.kind = AdviceKind::MinimumTp;
        item.toGpus = options.minimumTpThatFits;
        item.text = model + " needs TP >= " + std::to_string(options.minimumTpThatFits) + " to fit" +
                    (options.gpuName.empty() ? "" : " on " + options.gpuName) + " (weights, KV cache, activations)";
        for (const auto& bs : report.batches) {
            for (const auto& row : bs.rows) {
                if (row.gpus < options.minimumTpThatFits) {
                    item.text += "; the TP " + std::to_string(row.gpus) + " run at batch " + std::to_string(bs.batch) +
                                 " should not fit: check the model and GPU";
                }
            }
        }
        out.push_back(std::move(item));
    }
    for (const auto& bs : report.batches) {
        std::vector<AdviceItem> pairs;
        for (std::size_t i = 1; i < bs.rows.size(); ++i) {
            pairs.push_back(pairAdvice(bs, bs.rows[i - 1], bs.rows[i], options.efficiencyThreshold, priced));
        }
        // Walk up from the smallest TP that fits (or ran) while the next step pays.
        std::size_t start = 0;
        while (start < bs.rows.size() && bs.rows[start].gpus < options.minimumTpThatFits) ++start;
        if (start == bs.rows.size()) continue;
        std::size_t pick = start;
        while (pick + 1 < bs.rows.size() && pairs[pick].kind == AdviceKind::HigherTpPays) ++pick;
        AdviceItem rec;
        rec.kind = AdviceKind::Recommendation;
        rec.batch = bs.batch;
        rec.fromGpus = bs.rows[start].gpus;
        rec.toGpus = bs.rows[pick].gpus;
        rec.speedup = bs.rows[pick].tokensPerSec / bs.rows[start].tokensPerSec;
        rec.efficiency = rec.speedup / (static_cast<double>(rec.toGpus) / rec.fromGpus);
        largestLoss(bs.rows[pick].loss, rec);
        rec.text = "batch " + std::to_string(bs.batch) + ": use TP " + std::to_string(rec.toGpus);
        if (pick + 1 < bs.rows.size()) {
            rec.text += " (TP " + std::to_string(bs.rows[pick + 1].gpus) + " runs at " +
                        percent(pairs[pick].efficiency) + " step efficiency, below " +
                        percent(options.efficiencyThreshold) + ")";
        } else if (bs.rows.size() > 1) {
            rec.text += " (the largest TP measured; every step up reached " + percent(options.efficiencyThreshold) +
                        " efficiency)";
        } else {
            rec.text += " (the only TP measured at this batch)";
        }
        if (options.eagerLaunches && rec.largestLoss == "idle") {
            rec.text += "; idle is " + percent(rec.largestLossShare) +
                        " of its step: the runs launch eagerly (pytorch-eager), so the host limits them; under "
                        "cuda-graphs (the default runtime) a step is one graph launch";
        }
        for (auto& p : pairs) out.push_back(std::move(p));
        out.push_back(std::move(rec));
    }
    return out;
}

}  // namespace tpscope::core::analysis
