// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The GPU preset of a device name as CUDA and nvidia-smi report it ("NVIDIA H100 NVL",
// "NVIDIA A100-SXM4-40GB"): SKUs are matched exactly, from one table, because members of one family
// differ in what the HBM floor depends on (GH200 is not an H200, an H100 NVL is not an SXM5 H100).
// A name outside the table gets its family's first preset with a note saying so ("unknown SKU
// ..., using h100-sxm"), or no preset when no family matches either. Names compare case-blind,
// with '-' and '_' as spaces and the "NVIDIA " prefix optional.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hw/catalog.h"

namespace tpscope::core {

struct GpuSkuMatch {
    std::optional<GpuSpec> gpu;  // none: no preset fits the name
    bool exact = false;          // the name is a SKU of the table
    std::string note;            // empty when exact; else "unknown SKU ..., using X" or why there is none
};

GpuSkuMatch matchGpuSku(const Catalog& catalog, std::string_view deviceName);

// The table: device name -> preset id (for the tests and the docs).
struct GpuSku {
    const char* deviceName;
    const char* presetId;
};
const std::vector<GpuSku>& gpuSkus();

}  // namespace tpscope::core
