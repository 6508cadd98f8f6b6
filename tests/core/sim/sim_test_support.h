// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Shared set-up of the simulator tests: presets from the built-in catalog and small configurations
// that simulate in milliseconds.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hw/catalog.h"
#include "core/sim/simulator.h"

namespace tpscope::test {

inline const core::Catalog& catalog() {
    static const core::Catalog c = *core::Catalog::builtin();
    return c;
}

inline core::sim::SimConfig simConfig(const std::string& model, const std::string& gpu, const std::string& fabric,
                                      int tp, int batch, int tokens = 2) {
    core::sim::SimConfig c;
    c.plan.model = *catalog().model(model);
    c.plan.tp = tp;
    c.plan.batch = batch;
    c.plan.contextLen = 1024;
    c.cluster.gpu = *catalog().gpu(gpu);
    c.cluster.intraFabric = *catalog().fabric(fabric);
    c.cluster.gpusPerNode = 8;
    c.tokens = tokens;
    return c;
}

// A 4-layer Llama-3-8B shape: the per-layer structure of the real model at a fraction of the events.
inline core::ModelSpec smallModel() {
    core::ModelSpec m = *catalog().model("llama3-8b");
    m.id = "llama3-8b-4l";
    m.layers = 4;
    return m;
}

// A deterministic simulation of `model` cut to `layers` layers, 3 tokens on H100 SXM over NVLink 4,
// eager or replayed from CUDA graphs: the traces the round-trip tests strip of NVTX and segment again.
inline std::shared_ptr<core::Trace> simulatedLayers(const std::string& model, int tp, int batch, bool graphs,
                                                    int layers) {
    auto config = simConfig(model, "h100-sxm", "nvlink4", tp, batch, 3);
    config.plan.model.layers = layers;
    config.params = core::sim::SimParams::deterministic();
    config.params.cudaGraphs = graphs;
    auto r = core::sim::simulate(config);
    EXPECT_TRUE(r) << r.error().describe();
    return r ? std::const_pointer_cast<core::Trace>(r->trace) : nullptr;
}

// The trace as an importer without NVTX would give it: the same kernels, no NVTX ranges.
inline core::Trace withoutNvtx(const core::Trace& trace) {
    core::Trace stripped = trace;
    for (auto& rank : stripped.ranks) rank.ranges.clear();
    return stripped;
}

}  // namespace tpscope::test
