#include "ui/standin/run_metrics.h"

#include <algorithm>

namespace tpscope::ui {

RunMetrics measureRun(const core::Trace& trace, int batch, int expectedSteps) {
    RunMetrics m;
    if (trace.ranks.empty()) return m;
    std::vector<std::int64_t> steps;
    for (const auto& r : trace.ranks.front().ranges) {
        if (r.depth == 0) steps.push_back(r.endNs - r.startNs);
    }
    if (!steps.empty()) {
        std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2), steps.end());
        m.stepLatencyNs = static_cast<double>(steps[steps.size() / 2]);
        m.steps = static_cast<int>(steps.size());
    } else {
        m.steps = std::max(1, expectedSteps);
        m.stepLatencyNs = static_cast<double>(trace.endNs() - trace.startNs()) / m.steps;
    }
    if (m.stepLatencyNs > 0 && batch > 0) m.tokensPerSec = batch * 1e9 / m.stepLatencyNs;
    return m;
}

}  // namespace tpscope::ui
