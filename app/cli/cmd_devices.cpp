// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli devices: the local CUDA GPUs a capture can use.

#include <iostream>
#include <string>
#include <vector>

#include "cli_context.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"
#if TPSCOPE_HAVE_CUDA
#include "gpu/copy_roof.h"
#include "gpu/device_query.h"
#endif

namespace tpscope::cli {

namespace {

int runDevices(bool json, bool copyRoof) {
#if TPSCOPE_HAVE_CUDA
    auto devices = gpu::listDevices();
    if (!devices) return reportError(devices.error());
    // The measured roof per device (--copy-roof): what a copy kernel reaches, beside the preset peak.
    std::vector<gpu::CopyRoof> roofs;
    if (copyRoof) {
        for (const auto& d : *devices) {
            auto roof = gpu::measureCopyRoof(d.index);
            if (!roof) return reportError(roof.error());
            roofs.push_back(*roof);
        }
    }
    if (json) {
        core::JsonWriter w(std::cout);
        w.beginArray();
        for (const auto& d : *devices) {
            w.beginObject().field("index", d.index).field("name", d.name).field("memory_bytes", d.memoryBytes);
            w.field("sm_count", d.smCount)
                .field("compute_capability", std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor));
            for (const auto& r : roofs) {
                if (r.device != d.index) continue;
                w.field("copy_roof_bytes_per_sec", r.bestBytesPerSec)
                    .field("copy_median_bytes_per_sec", r.medianBytesPerSec)
                    .field("copy_buffer_bytes", r.bufferBytes)
                    .field("copy_repeats", r.repeats);
            }
            w.endObject();
        }
        w.endArray();
        std::cout << '\n';
        return kExitOk;
    }
    std::vector<std::string> header{"index", "name", "memory", "SMs", "compute"};
    if (copyRoof) header.emplace_back("copy roof");
    TextTable t(header);
    for (const auto& d : *devices) {
        std::vector<std::string> row{std::to_string(d.index), d.name,
                                     core::formatBytes(static_cast<double>(d.memoryBytes)), std::to_string(d.smCount),
                                     std::to_string(d.computeMajor) + "." + std::to_string(d.computeMinor)};
        for (const auto& r : roofs) {
            if (r.device == d.index) row.push_back(core::formatBytes(r.bestBytesPerSec) + "/s");
        }
        t.addRow(row);
    }
    t.print(std::cout);
    return kExitOk;
#else
    (void)json;
    (void)copyRoof;
    return reportError(core::makeError(core::ErrorCode::DeviceError,
                                       "no CUDA device: this tpscope-cli was built without the CUDA backend",
                                       "devices"));
#endif
}

}  // namespace

void addDevicesCommand(CLI::App& app, CliContext& ctx) {
    auto json = std::make_shared<bool>(false);
    auto copyRoof = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("devices", "List the local CUDA GPUs");
    cmd->add_flag("--json", *json, "Print as JSON");
    cmd->add_flag("--copy-roof", *copyRoof,
                  "Also measure each GPU's HBM bandwidth roof with a device-to-device copy kernel (best of 20 copies "
                  "of 1 GiB; copy_roof_bytes_per_sec in JSON)");
    cmd->callback([&ctx, json, copyRoof] { ctx.exitCode = runDevices(*json, *copyRoof); });
}

}  // namespace tpscope::cli
