// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "run_output.h"

#include <iostream>
#include "core/io/export/chrome_writer.h"

#include "core/io/workspace/run_info.h"
#include "core/io/workspace/stored_analysis.h"

namespace tpscope::cli {

bool isWorkspacePath(const std::string& path) {
    return path.ends_with(".tpscope");
}
bool isChromeJsonPath(const std::string& path) {
    return path.ends_with(".json") || path.ends_with(".json.gz");
}

core::RunInfo runInfoOf(const core::sim::SweepRun& run) {
    const auto& c = run.config;
    core::RunInfo info = core::makeRunInfo(c.plan, c.tokens, "simulated", c.cluster.gpu.id, c.cluster.intraFabric.id);
    info.spec.emplace_back("nodes", std::to_string(c.cluster.nodes));
    info.spec.emplace_back("gpus_per_node", std::to_string(c.cluster.gpusPerNode));
    info.spec.emplace_back("overlap", c.params.overlap ? "1" : "0");
    info.spec.emplace_back("runtime", std::string(core::sim::toString(c.params.effectiveRuntime())));
    info.spec.emplace_back("cuda_graphs", c.params.effectiveRuntime() == core::sim::Runtime::CudaGraphs ? "1" : "0");
    info.spec.emplace_back("seed", std::to_string(c.params.seed));
    if (c.cluster.interFabric) info.spec.emplace_back("inter_fabric", c.cluster.interFabric->id);
    return info;
}

core::Trace combineRuns(const std::vector<core::Run>& runs) {
    core::Trace out;
    out.origin = runs.empty() || !runs.front().trace ? core::TraceOrigin::Unknown : runs.front().trace->origin;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!runs[i].trace) continue;
        const core::Trace& t = *runs[i].trace;
        if (out.source.empty()) out.source = t.source;
        for (const auto& [k, v] : t.metadata) out.metadata.emplace_back("run" + std::to_string(i) + "." + k, v);
        for (const auto& rank : t.ranks) {
            core::Rank& r = out.rank(core::RankId{static_cast<std::uint32_t>(i * 10000) + rank.id.value});
            r.host = runs[i].info.name + " · " + rank.host;
            r.deviceIndex = rank.deviceIndex;
            r.deviceName = rank.deviceName;
            r.clockOffsetNs = rank.clockOffsetNs;
            for (const auto& range : rank.ranges) {
                r.ranges.push_back({range.startNs, range.endNs, out.intern(t.name(range.name)), range.depth});
            }
            for (const auto& stream : rank.streams) {
                core::Stream& s = r.stream(stream.id, stream.label);
                s.events.reserve(stream.events.size());
                for (std::size_t e = 0; e < stream.events.size(); ++e) {
                    core::EventRecord rec = stream.events.at(e);
                    const core::Payload& p = t.payload(rec.payload);
                    core::Payload copy = p;
                    copy.collective.communicator = out.intern(t.name(p.collective.communicator));
                    rec.name = out.intern(t.name(rec.name));
                    rec.payload = out.intern(copy);
                    s.events.append(rec);
                }
            }
        }
    }
    out.finalize();
    return out;
}

void storeAnalyses(core::Workspace& ws) {
    for (auto& run : ws.runs) {
        if (auto stored = core::storeAnalysis(run); !stored) std::cerr << "note: " << stored.error().describe() << '\n';
    }
}

core::Status writeRuns(const std::vector<core::Run>& runs, const std::string& path) {
    if (isWorkspacePath(path)) {
        core::Workspace ws;
        ws.runs = runs;
        storeAnalyses(ws);
        return core::saveWorkspace(ws, path);
    }
    if (isChromeJsonPath(path)) {
        if (runs.size() == 1 && runs.front().trace) return core::writeChromeJson(*runs.front().trace, path);
        return core::writeChromeJson(combineRuns(runs), path);
    }
    return core::makeError(core::ErrorCode::InvalidArgument,
                           "unknown output type: use .tpscope (workspace) or .json / .json.gz (Chrome trace)", path);
}

}  // namespace tpscope::cli
