// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// How many of a MoE layer's experts one decode step touches.
//
// Input: E experts, top-k per token, B tokens in the step, routing skew s >= 0.
// Mapping: expert i is picked by one token with probability p_i; a step of B independent tokens
// misses it with probability (1 - p_i)^B, so the expected distinct experts are sum_i 1 - (1 - p_i)^B.
// Uniform routing (s = 0): p_i = k/E and the sum is E (1 - (1 - k/E)^B), the closed form. Skewed
// routing: p_i = min(1, k w_i) with Zipf weights w_i = i^-s / sum_j j^-s, an approximation of top-k
// sampling without replacement (exact at s = 0). The Zipf form and s are this tool's modelling choice,
// with no published calibration behind them (see MoeDims::routingSkew).
// Cost: O(E) per call (O(1) at s = 0); batchForExpertFraction is O(E log B).

#include <cstdint>

namespace tpscope::core {

// Expected distinct experts a step of `tokens` tokens routes to (0 when tokens or experts is 0).
double expectedTouchedExperts(std::int64_t experts, std::int64_t topK, std::int64_t tokens, double skew = 0);
// The smallest batch whose expected touched experts reach fraction x experts (fraction in (0, 1));
// -1 when no batch up to 2^30 does (a skewed router that never reaches the fraction).
std::int64_t batchForExpertFraction(std::int64_t experts, std::int64_t topK, double fraction, double skew = 0);

}  // namespace tpscope::core
