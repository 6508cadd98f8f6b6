// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Which all-reduce a serving engine runs for a message, on top of the collective model
// (core/sim/collective_model.h). Input: the communicator's model, the message size per rank and the
// engine; output: the algorithm the engine's own dispatch rule picks, its modelled time, and, when
// the engine cannot run its kernels there, the NCCL fall-back it takes with the reason (shown in a
// run's notes). Each rule follows the engine's source, cited at the rule:
//   nccl            NCCL's tuner: the cheapest NCCL algorithm and protocol;
//   vllm-custom-ar  vLLM's custom all-reduce: one-shot below 512 KiB (4 GPUs) / 256 KiB (8 GPUs),
//                   always at 2 GPUs, two-shot above, NCCL from its 8 MiB buffer up;
//   trtllm          TensorRT-LLM's AUTO strategy: one-shot / two-shot by size and GPU count, NCCL
//                   above its workspace (and NCCL's own choice there, NVLS included);
//   symm-mem        PyTorch symmetric memory as vLLM uses it: NVLS multimem at 4, 6, 8 GPUs,
//                   two-shot otherwise, on NVSwitch fabrics with multicast.
// Cost: O(algorithms x protocols) per call, like the model.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/sim/collective_model.h"
#include "core/sim/sim_params.h"
#include "core/trace/event_kind.h"
#include "core/util/result.h"

namespace tpscope::core::sim {

std::string_view toString(AllReduceEngine engine);
// "nccl", "vllm-custom-ar", "trtllm", "symm-mem".
std::optional<AllReduceEngine> parseAllReduceEngine(std::string_view text);
const std::vector<AllReduceEngine>& allReduceEngines();

struct EngineChoice {
    CollectiveEstimate estimate;
    std::string fallback;  // empty: the engine's own path; else why it handed the call to NCCL
};

EngineChoice engineAllReduce(const CollectiveModel& model, std::uint64_t bytes, AllReduceEngine engine);

// The modelled time of one collective (all-reduce through the engine, all-gather as NCCL's ring) on
// one node of `fabric` with `gpus` GPUs: the entry point for re-timing measured collectives.
Result<double> collectiveTimeNs(const FabricSpec& fabric, int gpus, CollectiveOp op, std::uint64_t bytes,
                                AllReduceEngine engine = AllReduceEngine::Nccl);

}  // namespace tpscope::core::sim
