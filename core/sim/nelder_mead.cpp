// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/nelder_mead.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tpscope::core::sim {

namespace {

MinimizeResult simplexRun(const std::function<double(const std::vector<double>&)>& f, const std::vector<double>& start,
                          double step, int maxIterations, double tolerance) {
    const std::size_t n = start.size();
    std::vector<std::vector<double>> p(n + 1, start);
    std::vector<double> v(n + 1);
    for (std::size_t i = 0; i < n; ++i) p[i + 1][i] += step;
    int evals = 0;
    for (std::size_t i = 0; i <= n; ++i) {
        v[i] = f(p[i]);
        ++evals;
    }
    std::vector<std::size_t> order(n + 1);
    std::vector<double> centroid(n), trial(n), trial2(n);
    auto eval = [&](const std::vector<double>& x) {
        ++evals;
        return f(x);
    };
    for (int it = 0; it < maxIterations; ++it) {
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
        const std::size_t best = order.front(), worst = order.back(), second = order[n - 1];
        if (std::abs(v[worst] - v[best]) <= tolerance * (std::abs(v[best]) + tolerance)) break;
        std::fill(centroid.begin(), centroid.end(), 0.0);
        for (std::size_t i = 0; i <= n; ++i) {
            if (i == worst) continue;
            for (std::size_t d = 0; d < n; ++d) centroid[d] += p[i][d] / static_cast<double>(n);
        }
        for (std::size_t d = 0; d < n; ++d) trial[d] = centroid[d] + (centroid[d] - p[worst][d]);
        const double fr = eval(trial);
        if (fr < v[best]) {
            for (std::size_t d = 0; d < n; ++d) trial2[d] = centroid[d] + 2.0 * (centroid[d] - p[worst][d]);
            const double fe = eval(trial2);
            if (fe < fr) {
                p[worst] = trial2;
                v[worst] = fe;
            } else {
                p[worst] = trial;
                v[worst] = fr;
            }
            continue;
        }
        if (fr < v[second]) {
            p[worst] = trial;
            v[worst] = fr;
            continue;
        }
        const bool outside = fr < v[worst];
        for (std::size_t d = 0; d < n; ++d) {
            trial2[d] = outside ? centroid[d] + 0.5 * (trial[d] - centroid[d])
                                : centroid[d] + 0.5 * (p[worst][d] - centroid[d]);
        }
        const double fc = eval(trial2);
        if (fc < std::min(fr, v[worst])) {
            p[worst] = trial2;
            v[worst] = fc;
            continue;
        }
        for (std::size_t i = 0; i <= n; ++i) {
            if (i == best) continue;
            for (std::size_t d = 0; d < n; ++d) p[i][d] = p[best][d] + 0.5 * (p[i][d] - p[best][d]);
            v[i] = eval(p[i]);
        }
    }
    const std::size_t best = static_cast<std::size_t>(std::min_element(v.begin(), v.end()) - v.begin());
    return MinimizeResult{p[best], v[best], evals};
}

}  // namespace

MinimizeResult nelderMead(const std::function<double(const std::vector<double>&)>& f, const std::vector<double>& start,
                          double initialStep, int maxIterations, int restarts, double tolerance) {
    MinimizeResult best = simplexRun(f, start, initialStep, maxIterations, tolerance);
    int evals = best.evaluations;
    double step = initialStep;
    for (int r = 0; r < restarts; ++r) {
        step *= 0.5;
        MinimizeResult next = simplexRun(f, best.x, step, maxIterations, tolerance);
        evals += next.evaluations;
        if (next.value < best.value) best = std::move(next);
    }
    best.evaluations = evals;
    return best;
}

}  // namespace tpscope::core::sim
