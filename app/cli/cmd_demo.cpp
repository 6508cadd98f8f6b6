// tpscope-cli demo: the embedded default configuration (llama3-70b on an 8-GPU H100 NVLink node,
// TP 1/2/4/8) summarised without a screen. Until the simulator lands this prints the analytic
// floors: HBM time of the step, all-reduce transfer time, and the tokens/s they allow.

#include <iostream>

#include "cli_context.h"
#include "core/calc/allreduce_bound.h"
#include "core/calc/roofline.h"
#include "core/hw/memory_fit.h"
#include "core/util/units.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

int runDemo(const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto model = catalog->model("llama3-70b");
    auto gpu = catalog->gpu("h100-sxm");
    auto fabric = catalog->fabric("nvlink4");
    if (!model || !gpu || !fabric) return reportError(core::makeError(core::ErrorCode::Internal, "preset missing"));
    std::cout << "tpscope demo: " << model->name << " decode on 8x " << gpu->name << " over " << fabric->name
              << ", batch 1, fp16\n\n";
    TextTable t({"TP", "memory", "HBM floor/step", "all-reduce floor/step", "tokens/s bound"});
    for (const int tp : {1, 2, 4, 8}) {
        core::PlanConfig c{*model, tp, 1, 1024, core::Dtype::Fp16};
        auto plan = core::buildDecodePlan(c);
        if (!plan) return reportError(plan.error());
        const auto fit = core::checkFit(plan->memory, *gpu);
        auto roof = core::roofline(*plan, *gpu);
        if (!roof) return reportError(roof.error());
        const auto bound = core::allReduceBound(*plan, *fabric);
        const double stepNs = roof->stepLowerBoundNs + bound.perStepAtBusbwNs;
        t.addRow({std::to_string(tp),
                  fit.fits ? "fits" : "short " + core::formatBytes(static_cast<double>(fit.shortfallBytes)),
                  core::formatDurationNs(roof->stepLowerBoundNs), core::formatDurationNs(bound.perStepAtBusbwNs),
                  fit.fits ? core::formatFixed(1e9 / stepNs, 1) : "-"});
    }
    t.print(std::cout);
    std::cout << "\nFloors only (no kernel overheads, launch gaps or synchronisation). Explore with:\n"
                 "  tpscope-cli plan --model llama3-70b --tp 4 --gpu h100-sxm\n"
                 "  tpscope-cli bounds --model llama3-70b --tp 4 --fabric nvlink4 --gpu h100-sxm\n";
    return kExitOk;
}

}  // namespace

void addDemoCommand(CLI::App& app, CliContext& ctx) {
    auto* cmd = app.add_subcommand("demo", "Summarise the embedded default sweep (what the GUI opens on)");
    cmd->callback([&ctx] { ctx.exitCode = runDemo(ctx); });
}

}  // namespace tpscope::cli
