// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Loading a trace file for any subcommand (convert, info, analyze): every format core/io reads, and
// the runs of a workspace one by one.

#include <charconv>

#include "cli_context.h"
#include "core/io/import/trace_reader.h"
#include "core/io/workspace/workspace.h"
#include "run_output.h"

namespace tpscope::cli {

core::Result<std::shared_ptr<core::Trace>> loadMutableTraceFile(const std::string& path, core::ImportStats* stats,
                                                                const core::KernelClassifier* classifier) {
    core::ImportStats local;
    core::ReadOptions options;
    options.classifier = classifier;
    auto trace = core::readTrace(path, options, stats != nullptr ? stats : &local);
    if (!trace) return fileError(trace.error());
    const core::ImportStats& s = stats != nullptr ? *stats : local;
    if (s.problemCount() > 0) {
        std::cerr << "tpscope-cli: note: " << path << ": " << countText(s.problemCount(), "record was", "records were")
                  << " repaired or skipped (see 'tpscope-cli info')\n";
    }
    return std::move(*trace);
}

core::Result<std::shared_ptr<const core::Trace>> loadTraceFile(const std::string& path, core::ImportStats* stats,
                                                               const core::KernelClassifier* classifier) {
    auto trace = loadMutableTraceFile(path, stats, classifier);
    if (!trace) return trace.error();
    return std::shared_ptr<const core::Trace>(std::move(*trace));
}

namespace {

// "--run 2" (1-based) or "--run 'TP 2 · batch 1'" -> the 0-based index, or an error listing the runs.
core::Result<std::size_t> selectRun(const std::vector<core::RunInfo>& runs, const std::string& selector) {
    int number = 0;
    const char* end = selector.data() + selector.size();
    if (auto [p, ec] = std::from_chars(selector.data(), end, number); ec == std::errc() && p == end) {
        if (number >= 1 && static_cast<std::size_t>(number) <= runs.size()) return static_cast<std::size_t>(number - 1);
    }
    std::string known;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].name == selector) return i;
        known += (known.empty() ? "" : ", ") + std::to_string(i + 1) + " '" + runs[i].name + "'";
    }
    return core::makeError(core::ErrorCode::InvalidArgument, "no run '" + selector + "' (runs: " + known + ")",
                           "--run");
}

}  // namespace

core::Result<std::vector<LoadedRun>> loadRuns(const std::string& path, const std::string& runSelector,
                                              core::ImportStats* stats, const core::KernelClassifier* classifier) {
    if (!isWorkspacePath(path)) {
        if (!runSelector.empty()) {
            return core::makeError(core::ErrorCode::InvalidArgument, "only a .tpscope workspace holds several runs",
                                   "--run");
        }
        auto trace = loadTraceFile(path, stats, classifier);
        if (!trace) return trace.error();
        return std::vector<LoadedRun>{{"", 0, 0, *trace, 0, path}};
    }
    auto infos = core::listWorkspaceRuns(path);
    if (!infos) return fileError(infos.error());
    if (infos->empty()) return core::makeError(core::ErrorCode::IoError, "the workspace holds no runs", path);
    std::vector<std::size_t> wanted;
    if (runSelector.empty()) {
        for (std::size_t i = 0; i < infos->size(); ++i) wanted.push_back(i);
    } else {
        auto index = selectRun(*infos, runSelector);
        if (!index) return index.error();
        wanted.push_back(*index);
    }
    std::vector<LoadedRun> runs;
    for (const std::size_t i : wanted) {
        auto trace = core::loadWorkspaceTrace(path, i);
        if (!trace) return fileError(trace.error());
        runs.push_back({(*infos)[i].name, static_cast<int>(i + 1), static_cast<int>(infos->size()),
                        std::shared_ptr<const core::Trace>(std::move(*trace)), (*infos)[i].batch, path});
    }
    return runs;
}

core::Result<LoadedRun> loadOneRun(const std::string& path, const std::string& runSelector, core::ImportStats* stats,
                                   const core::KernelClassifier* classifier) {
    if (isWorkspacePath(path) && runSelector.empty()) {
        auto infos = core::listWorkspaceRuns(path);
        if (!infos) return fileError(infos.error());
        if (infos->size() > 1) {
            std::string known;
            for (std::size_t i = 0; i < infos->size(); ++i) {
                known += (known.empty() ? "" : ", ") + std::to_string(i + 1) + " '" + (*infos)[i].name + "'";
            }
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   path + " holds " + std::to_string(infos->size()) +
                                       " runs: choose one with --run N|NAME (runs: " + known + ")",
                                   "--run");
        }
    }
    auto runs = loadRuns(path, runSelector, stats, classifier);
    if (!runs) return runs.error();
    return std::move(runs->front());
}

std::string runLabel(const std::string& path, const LoadedRun& run) {
    if (run.of == 0) return path;
    return "run " + std::to_string(run.index) + " of " + std::to_string(run.of) + " '" + run.name + "' of " + path;
}

void addRunOption(CLI::App& cmd, std::string& runSelector, const std::string& help) {
    cmd.add_option("--run", runSelector, help);
}

}  // namespace tpscope::cli
