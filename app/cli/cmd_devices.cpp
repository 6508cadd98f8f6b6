// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli devices: the local CUDA GPUs a capture can use.

#include <iostream>

#include "cli_context.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"
#if TPSCOPE_HAVE_CUDA
#include "gpu/device_query.h"
#endif

namespace tpscope::cli {

namespace {

int runDevices(bool json) {
#if TPSCOPE_HAVE_CUDA
    auto devices = gpu::listDevices();
    if (!devices) return reportError(devices.error());
    if (json) {
        core::JsonWriter w(std::cout);
        w.beginArray();
        for (const auto& d : *devices) {
            w.beginObject().field("index", d.index).field("name", d.name).field("memory_bytes", d.memoryBytes);
            w.field("sm_count", d.smCount)
                .field("compute_capability", std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor));
            w.endObject();
        }
        w.endArray();
        std::cout << '\n';
        return kExitOk;
    }
    TextTable t({"index", "name", "memory", "SMs", "compute"});
    for (const auto& d : *devices) {
        t.addRow({std::to_string(d.index), d.name, core::formatBytes(static_cast<double>(d.memoryBytes)),
                  std::to_string(d.smCount), std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor)});
    }
    t.print(std::cout);
    return kExitOk;
#else
    (void)json;
    return reportError(core::makeError(core::ErrorCode::DeviceError,
                                       "no CUDA device: this tpscope-cli was built without the CUDA backend",
                                       "devices"));
#endif
}

}  // namespace

void addDevicesCommand(CLI::App& app, CliContext& ctx) {
    auto json = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("devices", "List the local CUDA GPUs");
    cmd->add_flag("--json", *json, "Print as JSON");
    cmd->callback([&ctx, json] { ctx.exitCode = runDevices(*json); });
}

}  // namespace tpscope::cli
