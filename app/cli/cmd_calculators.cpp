// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli amdahl | cost: the calculators shared with the GUI's calculator panel.

#include <charconv>
#include <cmath>
#include <iostream>

#include "cli_context.h"
#include "core/calc/amdahl.h"
#include "core/calc/cost.h"
#include "core/sim/defaults.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct AmdahlOptions {
    double serial = -1;
    std::string gpus = "1,2,4,8";
    bool json = false;
};

int runAmdahl(const AmdahlOptions& o) {
    auto gpus = core::parsePositiveIntList(o.gpus, "--gpu-counts");
    if (!gpus) return reportError(gpus.error());
    auto table = core::amdahlTable(o.serial, *gpus);
    if (!table) return reportError(table.error());
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("serial_fraction", table->serialFraction);
        w.key("max_speedup");
        if (std::isfinite(table->maxSpeedup)) {
            w.value(table->maxSpeedup);
        } else {
            w.null();
        }
        w.key("points").beginArray();
        for (const auto& p : table->points) {
            w.beginObject().field("gpus", p.gpus).field("speedup", p.speedup).field("efficiency", p.efficiency);
            w.endObject();
        }
        w.endArray().endObject();
        return kExitOk;
    }
    std::cout << "Amdahl, serial fraction " << core::formatFixed(o.serial, 4) << ": speedup = 1 / (S + (1 - S) / N)\n";
    TextTable t({"GPUs", "speedup", "efficiency"});
    for (const auto& p : table->points) {
        t.addRow({std::to_string(p.gpus), core::formatFixed(p.speedup, 3) + "x",
                  core::formatFixed(p.efficiency * 100, 1) + " %"});
    }
    t.print(std::cout);
    std::cout << "limit 1/S: "
              << (std::isfinite(table->maxSpeedup) ? core::formatFixed(table->maxSpeedup, 2) + "x" : "unbounded")
              << '\n';
    return kExitOk;
}

struct CostOptions {
    double price = core::sim::kDefaults.pricePerGpuHour;
    std::string throughput;
    bool json = false;
};

// "1=50,2=92" -> {(1, 50), (2, 92)}
core::Result<std::vector<std::pair<int, double>>> parseThroughputs(const std::string& text) {
    std::vector<std::pair<int, double>> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t comma = text.find(',', pos);
        if (comma == std::string::npos) comma = text.size();
        const std::string item = text.substr(pos, comma - pos);
        const std::size_t eq = item.find('=');
        int gpus = 0;
        double tps = 0;
        const bool ok = eq != std::string::npos &&
                        std::from_chars(item.data(), item.data() + eq, gpus).ec == std::errc() &&
                        std::from_chars(item.data() + eq + 1, item.data() + item.size(), tps).ec == std::errc();
        if (!ok) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "expected GPUS=TOKENS_PER_SEC pairs such as 1=50,2=92, got '" + item + "'",
                                   "--throughput");
        }
        out.emplace_back(gpus, tps);
        pos = comma + 1;
    }
    return out;
}

int runCost(const CostOptions& o) {
    auto pairs = parseThroughputs(o.throughput);
    if (!pairs) return reportError(pairs.error());
    auto table = core::costTable(o.price, *pairs);
    if (!table) return reportError(table.error());
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("price_per_gpu_hour", table->pricePerGpuHour).field("baseline_gpus", table->baselineGpus);
        w.key("rows").beginArray();
        for (const auto& r : table->rows) {
            w.beginObject().field("gpus", r.gpus).field("tokens_per_sec", r.tokensPerSec);
            w.field("cost_per_million_tokens", r.costPerMillionTokens);
            w.field("premium_vs_baseline", r.premiumVsBaseline).field("speedup_vs_baseline", r.speedupVsBaseline);
            w.endObject();
        }
        w.endArray().endObject();
        return kExitOk;
    }
    std::cout << "$ per million tokens = GPUs x $" << core::formatFixed(o.price, 2)
              << "/GPU-hour / (tokens/s x 3600 / 1e6)\n";
    TextTable t(
        {"GPUs", "tokens/s", "speedup", "$/Mtok", "premium vs " + std::to_string(table->baselineGpus) + " GPU"});
    for (const auto& r : table->rows) {
        t.addRow({std::to_string(r.gpus), core::formatFixed(r.tokensPerSec, 1),
                  core::formatFixed(r.speedupVsBaseline, 2) + "x", "$" + core::formatFixed(r.costPerMillionTokens, 3),
                  core::formatFixed(r.premiumVsBaseline * 100, 1) + " %"});
    }
    t.print(std::cout);
    return kExitOk;
}

}  // namespace

void addAmdahlCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<AmdahlOptions>();
    auto* cmd = app.add_subcommand("amdahl", "Amdahl speedup and efficiency for a serial fraction");
    cmd->add_option("--serial", opts->serial, "Serial fraction S, 0..1")->required();
    cmd->add_option("--gpu-counts", opts->gpus, "GPU counts to tabulate, comma-separated")->capture_default_str();
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = runAmdahl(*opts); });
}

void addCostCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<CostOptions>();
    auto* cmd = app.add_subcommand("cost", "Cost per million tokens and the premium over the smallest GPU count");
    cmd->add_option("--price-per-gpu-hour", opts->price, "Price of one GPU for one hour, in $")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--throughput", opts->throughput, "GPUS=TOKENS_PER_SEC pairs, e.g. 1=50,2=92,4=170")->required();
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = runCost(*opts); });
}

}  // namespace tpscope::cli
