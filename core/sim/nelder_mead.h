// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Derivative-free minimisation (Nelder-Mead downhill simplex, standard coefficients: reflection 1,
// expansion 2, contraction 1/2, shrink 1/2) for the calibration fits, whose objectives are
// piecewise smooth (a minimum over protocols) and cheap to evaluate. Restarts rebuild the simplex
// around the best point, which escapes the simplex collapsing early. O(iterations x dimensions).

#include <functional>
#include <vector>

namespace tpscope::core::sim {

struct MinimizeResult {
    std::vector<double> x;
    double value = 0;
    int evaluations = 0;
};

MinimizeResult nelderMead(const std::function<double(const std::vector<double>&)>& f, const std::vector<double>& start,
                          double initialStep, int maxIterations, int restarts, double tolerance = 1e-10);

}  // namespace tpscope::core::sim
