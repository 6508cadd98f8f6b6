#pragma once
// What every tpscope-cli subcommand shares: the catalog (built-ins plus --catalog files), model
// selection by preset or custom dimensions, and one way to report errors.

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/hw/catalog.h"
#include "core/io/import/import_stats.h"
#include "core/trace/event_kind.h"
#include "core/trace/kernel_classifier.h"
#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/workload/model.h"

namespace tpscope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the work failed (file, device, does not fit)
inline constexpr int kExitBadInput = 2;  // the command line was wrong

struct CliContext {
    std::vector<std::string> catalogFiles;
    int exitCode = kExitOk;

    core::Result<core::Catalog> catalog() const { return core::Catalog::load(catalogFiles); }
};

// Prints "tpscope-cli: <context>: <message>" to stderr and returns the exit code for it.
int reportError(const core::Error& error);

struct ModelOptions {
    std::string preset;
    std::int64_t hidden = 0, ffn = 0, heads = 0, kvHeads = 0, headDim = 0, layers = 0, vocab = 0;
};
void addModelOptions(CLI::App& cmd, ModelOptions& opts, bool required = true);
// The preset with any custom dimensions applied, or a fully custom model ("custom").
core::Result<core::ModelSpec> resolveModel(const core::Catalog& catalog, const ModelOptions& opts);

core::Result<core::Dtype> resolveDtype(const std::string& text);

// Reads a trace in any supported format (Kineto/Chrome JSON, .json.gz, a folder of ranks, an Nsight
// Systems SQLite export, a .tpscope workspace's first run). Prints a one-line note to stderr when
// records had to be repaired or skipped; `stats` receives the details.
core::Result<std::shared_ptr<const core::Trace>> loadTraceFile(const std::string& path,
                                                               core::ImportStats* stats = nullptr,
                                                               const core::KernelClassifier* classifier = nullptr);

// The same, for callers that correct the trace before analysing it (clock offsets).
core::Result<std::shared_ptr<core::Trace>> loadMutableTraceFile(const std::string& path,
                                                                core::ImportStats* stats = nullptr,
                                                                const core::KernelClassifier* classifier = nullptr);

using CommandFactory = void (*)(CLI::App& app, CliContext& ctx);
void addPlanCommand(CLI::App& app, CliContext& ctx);
void addAmdahlCommand(CLI::App& app, CliContext& ctx);
void addCostCommand(CLI::App& app, CliContext& ctx);
void addBoundsCommand(CLI::App& app, CliContext& ctx);
void addCatalogCommands(CLI::App& app, CliContext& ctx);
void addDemoCommand(CLI::App& app, CliContext& ctx);
void addAnalyzeCommand(CLI::App& app, CliContext& ctx);
void addScalingCommand(CLI::App& app, CliContext& ctx);
void addCompareCommand(CLI::App& app, CliContext& ctx);
void addCaptureCommand(CLI::App& app, CliContext& ctx);
void addDevicesCommand(CLI::App& app, CliContext& ctx);
void addSimulateCommand(CLI::App& app, CliContext& ctx);
void addAllReduceCommand(CLI::App& app, CliContext& ctx);
void addCalibrateCommand(CLI::App& app, CliContext& ctx);
void addConvertCommands(CLI::App& app, CliContext& ctx);  // convert, info
void addWhatIfCommand(CLI::App& app, CliContext& ctx);

}  // namespace tpscope::cli
