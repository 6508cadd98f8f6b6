// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one table of defaults (issue 49 §2): what every command, the window and the report assume
// when the user does not say. Each value lives here once; the CLI's options, the window's run
// panel, the embedded default sweep (defaultSweepSpec) and the PDF report read it from here, and
// `tpscope-cli --defaults` prints the table (docs/cli.md shows that output, checked by the docs
// runner), so a default cannot differ between two places.
//
// Why these values:
// - runtime cuda-graphs: vLLM, SGLang and TensorRT-LLM decode under CUDA graphs (or a C++ runtime)
//   by default; pytorch-eager stays available with --runtime pytorch-eager (issue 44 §3).
// - llama3-70b on 8x h100-sxm over nvlink4: the most common TP deployment of a model that needs TP.
// - 4 decode tokens: enough steps for a mean and a spread; the simulated steps repeat after the first.
// - context 1024: a short chat turn; every command with a KV cache takes --context to change it.
// - $2.50 per GPU-hour: an on-demand H100 from a GPU cloud (2026 list prices span $2-4).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/sim/runtime_profile.h"

namespace tpscope::core::sim {

struct Defaults {
    Runtime runtime = Runtime::CudaGraphs;
    std::string_view model = "llama3-70b";
    std::string_view gpu = "h100-sxm";
    std::string_view fabric = "nvlink4";
    int gpusPerNode = 8;      // when the fabric does not say how many GPUs it connects
    int tokens = 4;           // simulated decode steps per run
    int capturedTokens = 16;  // measured decode steps of a capture (warm steps for a stable mean)
    int contextLen = 1024;
    double pricePerGpuHour = 2.50;
    std::uint64_t seed = 1;
};
inline constexpr Defaults kDefaults{};

// One row of the printed table: the setting, its value as a user types it, the options that
// take it and who else uses it.
struct DefaultRow {
    std::string setting;
    std::string value;
    std::string options;
    std::string usedBy;
};
std::vector<DefaultRow> defaultsTable();

}  // namespace tpscope::core::sim
