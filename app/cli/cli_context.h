// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What every tpscope-cli subcommand shares: the catalog (built-ins plus --catalog files), model
// selection by preset or custom dimensions, the exit-code table, and one way to report errors.
// Each cmd_*.cpp reads as parse (options struct filled by CLI11) -> compute (core) -> print.

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hw/catalog.h"
#include "core/io/import/import_stats.h"
#include "core/trace/event_kind.h"
#include "core/trace/kernel_classifier.h"
#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/workload/model.h"

namespace tpscope::cli {

// The exit-code table of docs/cli.md ("Exit codes"); every command returns one of these.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the work failed: a file missing/unreadable/not a trace, device, nothing ran
inline constexpr int kExitBadInput = 2;  // the command line was wrong: unknown command/option/preset, bad value
inline constexpr int kExitNotUnderstood = 3;  // analyze --strict: a run's trace was not understood

struct CliContext {
    std::vector<std::string> catalogFiles;
    int exitCode = kExitOk;

    // Built-ins plus --catalog files; a missing or malformed catalog file is a file error (exit 1).
    core::Result<core::Catalog> catalog() const;
};

// Prints "tpscope-cli: <context>: <message>" on one line to stderr and returns the exit code for it:
// InvalidArgument and NotFound (unknown preset, bad value) are command-line errors, the rest failures.
int reportError(const core::Error& error);
// A failed file read is a failure of the work (exit 1) even when the file does not exist.
core::Error fileError(core::Error error);
// A problem with the data a command read (too few samples, no matching calls): exit 1, never 2,
// with the file named and what to do about it ("FILE: <what>; <advice>").
core::Error dataError(core::Error error, const std::string& file, const std::string& advice);
// Prints "tpscope-cli: warning: <text>" to stderr.
void warn(const std::string& text);

// "1 rank", "2 ranks"; `many` for irregular plurals.
std::string countText(std::int64_t n, std::string_view one, std::string_view many = {});

// --out FILE: refused before any work runs when its folder does not exist.
core::Status checkOutputPath(const std::string& path, const std::string& option = "--out");

// A progress line for long commands: rewritten in place on a terminal, plain lines otherwise, and
// always cleared (or ended) before anything else is printed, so an error never starts mid-line.
class ProgressLine {
  public:
    ProgressLine();
    ~ProgressLine() { finish(); }
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    // On a terminal every update rewrites the line; to a file or a pipe only a milestone (a run
    // finished) is written, one line each, so a log holds one line per run, not one per step.
    void update(const std::string& text, bool milestone = true);
    void finish();

  private:
    bool m_terminal = false;
    std::size_t m_width = 0;
};

// Validators with one-line messages ("must be a positive number, got 'abc'"), for every numeric option.
const CLI::Validator& positiveNumber();
const CLI::Validator& nonNegativeNumber();

// Options several commands share, added the same way everywhere.
void addJsonFlag(CLI::App& cmd, bool& json);
void addKernelRulesOption(CLI::App& cmd, std::string& rulesFile);
// The built-in classifier plus the rules of --kernel-rules FILE (tried first); empty when no file.
core::Result<std::optional<core::KernelClassifier>> classifierFor(const std::string& rulesFile);

struct ModelOptions {
    std::string preset;
    std::string modelFile;    // --model-file: models in resources/models.json's shape (MoE, MLA, weights)
    std::string modelConfig;  // --model-config: a Hugging Face config.json (core/workload/hf_config.h)
    std::string command;      // the subcommand, for the "--model is required" message
    bool required = true;
    std::int64_t hidden = 0, ffn = 0, heads = 0, kvHeads = 0, headDim = 0, layers = 0, vocab = 0;
    double routingSkew = -1;  // --routing-skew: MoE routing skew; < 0 keeps the model's
};
void addModelOptions(CLI::App& cmd, ModelOptions& opts, bool required = true);
// The preset with any custom dimensions applied, or a fully custom model ("custom"); --model-file's
// models join the catalog first, so --model can name one of them; --model-config reads the model from a
// Hugging Face config.json instead of --model (custom dimensions then apply to it).
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

// One run of the file a command reads: a trace file is one unnamed run; a workspace gives each of its
// runs (or the one --run N|NAME selects) with its name, so commands can say which run they show.
struct LoadedRun {
    std::string name;  // "" for a plain trace file
    int index = 0;     // 1-based position in the workspace; 0 for a plain trace file
    int of = 0;        // runs in the workspace; 0 for a plain trace file
    std::shared_ptr<const core::Trace> trace;
    int batch = 0;     // a workspace run's batch (RunInfo::batch): the one its stored analysis holds for
    std::string file;  // the file it was read from (a workspace's stored analysis is read from it)
};
core::Result<std::vector<LoadedRun>> loadRuns(const std::string& path, const std::string& runSelector,
                                              core::ImportStats* stats = nullptr,
                                              const core::KernelClassifier* classifier = nullptr);
void addRunOption(CLI::App& cmd, std::string& runSelector,
                  const std::string& help =
                      "Workspace with several runs: only run N (1-based) or the run of that "
                      "name (default: every run)");
// One run: the trace file, or the run --run selects; a workspace with several runs and no --run is a
// command-line error that lists the runs (a command never picks one silently).
core::Result<LoadedRun> loadOneRun(const std::string& path, const std::string& runSelector,
                                   core::ImportStats* stats = nullptr,
                                   const core::KernelClassifier* classifier = nullptr);
// "run 2 of 6 'TP 4 · batch 1' of sweep.tpscope", or the path for a plain trace file.
std::string runLabel(const std::string& path, const LoadedRun& run);

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
void addPlanCapacityCommand(CLI::App& app, CliContext& ctx);
void addConvertCommands(CLI::App& app, CliContext& ctx);  // convert, info
void addWhatIfCommand(CLI::App& app, CliContext& ctx);
void addKernelsCommand(CLI::App& app, CliContext& ctx);
// `tpscope-cli --defaults`: the one table of defaults (core/sim/defaults.h); returns kExitOk.
int printDefaults(std::ostream& out);

}  // namespace tpscope::cli
