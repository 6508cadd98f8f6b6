// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli: the headless face of tpscope. Every number it prints is the one the GUI shows;
// --json output, the exit codes and the error format are documented in docs/cli.md.

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <new>
#include <string_view>

#include "cli_context.h"
#include "command_line.h"
#include "core/util/build_info.h"
#include "core/util/huge_pages.h"

int main(int argc, char** argv) {
    // First, before any thread or file: the heap on huge pages (may execute the program again), and
    // its growth set for large traces.
    (void)tpscope::core::restartWithHugePages(argv);
    (void)tpscope::core::tuneHeapGrowth();
    using namespace tpscope::cli;
    CLI::App app{"tpscope-cli: tensor-parallel decode profiler (plans, calculators, simulation, analysis)",
                 "tpscope-cli"};
    std::string version = tpscope::core::versionText("tpscope-cli");
    version.pop_back();  // CLI11 ends the text with its own newline
    app.set_version_flag("--version", version);
    app.require_subcommand(1);
    app.footer(
        "Exit codes: 0 success, 1 the work failed (file, data, device, nothing ran), 2 the command line was wrong.\n"
        "Every command takes --json. Reference: docs/cli.md; 'tpscope-cli COMMAND --help' for its options.");
    CliContext ctx;
    app.add_option("--catalog", ctx.catalogFiles, "Extra preset file(s) with models/gpus/fabrics (repeatable)");
    const std::string defaultsHelp = "Print the defaults every command, the window and the report assume, and exit";
    app.add_flag("--defaults", defaultsHelp);

    for (CommandFactory add :
         {addPlanCommand, addAmdahlCommand, addCostCommand, addBoundsCommand, addCatalogCommands, addDemoCommand,
          addSimulateCommand, addAllReduceCommand, addCalibrateCommand, addPlanCapacityCommand, addAnalyzeCommand,
          addScalingCommand, addCompareCommand, addCaptureCommand, addDevicesCommand, addConvertCommands,
          addWhatIfCommand, addKernelsCommand}) {
        add(app, ctx);
    }

    // Like --version, --defaults needs no command.
    if (argc == 2 && std::string_view(argv[1]) == "--defaults") return printDefaults(std::cout);
    if (auto problem = checkArguments(app, argc, argv)) {
        std::cerr << "tpscope-cli: " << *problem << '\n';
        return kExitBadInput;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
        std::cerr << "tpscope-cli: " << describeParseError(app, e) << '\n';
        return kExitBadInput;
    } catch (const std::bad_alloc&) {
        // core reports allocation failures as errors; this is the last line for anything else.
        std::cerr << "tpscope-cli: out of memory (the input needs more memory than is available)\n";
        return kExitFailure;
    } catch (const std::exception& e) {
        std::cerr << "tpscope-cli: internal error: " << e.what() << '\n';
        return kExitFailure;
    }
    return ctx.exitCode;
}
