#include "run_output.h"

#include "core/io/chrome_writer.h"
#include "core/io/run_info.h"

namespace tpscope::cli {

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isWorkspacePath(const std::string& path) {
    return endsWith(path, ".tpscope");
}
bool isChromeJsonPath(const std::string& path) {
    return endsWith(path, ".json") || endsWith(path, ".json.gz");
}

core::RunInfo runInfoOf(const core::sim::SweepRun& run) {
    const auto& c = run.config;
    core::RunInfo info = core::makeRunInfo(c.plan, c.tokens, "simulated", c.cluster.gpu.id, c.cluster.intraFabric.id);
    info.spec.emplace_back("nodes", std::to_string(c.cluster.nodes));
    info.spec.emplace_back("gpus_per_node", std::to_string(c.cluster.gpusPerNode));
    info.spec.emplace_back("overlap", c.params.overlap ? "1" : "0");
    info.spec.emplace_back("seed", std::to_string(c.params.seed));
    if (c.cluster.interFabric) info.spec.emplace_back("inter_fabric", c.cluster.interFabric->id);
    return info;
}

core::Status writeRuns(const std::vector<core::Run>& runs, const std::string& path) {
    if (isWorkspacePath(path)) {
        core::Workspace ws;
        ws.runs = runs;
        return core::saveWorkspace(ws, path);
    }
    if (isChromeJsonPath(path)) {
        if (runs.size() != 1 || !runs.front().trace) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "a Chrome trace file holds one run; write several runs to a .tpscope workspace",
                                   path);
        }
        return core::writeChromeJson(*runs.front().trace, path);
    }
    return core::makeError(core::ErrorCode::InvalidArgument,
                           "unknown output type: use .tpscope (workspace) or .json / .json.gz (Chrome trace)", path);
}

}  // namespace tpscope::cli
