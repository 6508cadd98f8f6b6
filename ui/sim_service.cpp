#include "ui/sim_service.h"

#include "core/analysis/analysis.h"
#include "core/hw/catalog.h"
#include "core/sim/simulator.h"

namespace tpscope::ui {

core::Result<std::shared_ptr<const core::Trace>> simulatedTrace(const RunRequest& request, const CancelFlag& cancel) {
    core::sim::SimConfig config;
    config.plan = core::PlanConfig{request.model, request.tp, request.batch, request.contextLen, request.dtype};
    config.cluster.gpu = request.gpu;
    config.cluster.intraFabric = request.fabric;
    config.cluster.nodes = request.nodes;
    config.cluster.gpusPerNode = request.gpusPerNode;
    if (request.nodes > 1) {
        auto catalog = core::Catalog::builtin();
        if (!catalog) return catalog.error();
        auto ib = catalog->fabric("ib-ndr");
        if (!ib) return ib.error();
        config.cluster.interFabric = *ib;
    }
    config.tokens = request.tokens;
    config.params.seed = request.seed;
    config.params.overlap = request.overlap;
    config.params.cudaGraphs = request.cudaGraphs;
    auto result = core::sim::simulate(config, &cancel);
    if (!result) return result.error();
    return result->trace;
}

RunMetrics metricsOf(const core::Trace& trace, int batch) {
    core::analysis::AnalysisOptions options;
    options.batch = batch;
    const auto analysis = core::analysis::analyzeTrace(trace, options);
    RunMetrics m;
    m.stepLatencyNs = analysis.summary.latencyP50Ns;
    m.tokensPerSec = analysis.summary.batchKnown ? analysis.summary.tokensPerSec : 0;
    m.steps = static_cast<int>(analysis.summary.steps.size());
    return m;
}

}  // namespace tpscope::ui
