// tpscope-cli: the headless face of tpscope. Every number it prints is the one the GUI shows;
// --json output is documented in docs/cli.md.

#include <CLI/CLI.hpp>

#include "cli_context.h"

int main(int argc, char** argv) {
    using namespace tpscope::cli;
    CLI::App app{"tpscope-cli: tensor-parallel decode profiler (plans, calculators, simulation, analysis)"};
    app.set_version_flag("--version", std::string("tpscope ") + TPSCOPE_VERSION);
    app.require_subcommand(1);
    CliContext ctx;
    app.add_option("--catalog", ctx.catalogFiles, "Extra preset file(s) with models/gpus/fabrics (repeatable)")
        ->check(CLI::ExistingFile);

    for (CommandFactory add :
         {addPlanCommand, addAmdahlCommand, addCostCommand, addBoundsCommand, addCatalogCommands, addDemoCommand,
          addSimulateCommand, addAllReduceCommand, addCalibrateCommand, addAnalyzeCommand, addScalingCommand,
          addCompareCommand, addCaptureCommand, addDevicesCommand, addConvertCommands, addWhatIfCommand}) {
        add(app, ctx);
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : kExitBadInput;
    }
    return ctx.exitCode;
}
