// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/allreduce_engine.h"

#include <array>
#include <utility>

namespace tpscope::core::sim {

namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;

EngineChoice fallBack(const CollectiveModel& model, std::uint64_t bytes, std::string why) {
    return {model.allReduce(bytes), std::move(why)};
}

EngineChoice custom(const CollectiveModel& model, std::uint64_t bytes, CollectiveAlgo algo) {
    return {model.allReduce(bytes, algo, CollectiveProto::Unknown), {}};
}

std::string gpus(int n) {
    return std::to_string(n) + " GPUs";
}

// Shared preconditions of the custom kernels: one node, GPU peer-to-peer loads (NVLink here; the
// PCIe presets go through the CPU, where neither vLLM nor TensorRT-LLM enables them).
std::string customKernelBlocker(const CollectiveModel& model, std::string_view engine) {
    if (model.nodes() > 1) return std::string(engine) + " runs inside one node; " + gpus(model.ranks()) + " span nodes";
    if (!model.intra().supports(CollectiveAlgo::OneShot)) {
        return "no GPU peer-to-peer on " + model.intra().id + " for " + std::string(engine);
    }
    return {};
}

// vLLM csrc/custom_all_reduce.cuh (REDUCE_CASE) and
// vllm/distributed/device_communicators/custom_all_reduce.py (_SUPPORTED_WORLD_SIZES = [2, 4, 6, 8],
// max_size 8 MiB, should_custom_ar: inp_size < max_size; more than 2 GPUs need full NVLink).
EngineChoice vllmCustomAr(const CollectiveModel& model, std::uint64_t bytes) {
    const int n = model.ranks();
    if (auto why = customKernelBlocker(model, "vLLM custom all-reduce"); !why.empty()) {
        return fallBack(model, bytes, why);
    }
    if (n != 2 && n != 4 && n != 6 && n != 8) {
        return fallBack(model, bytes, "vLLM custom all-reduce supports 2, 4, 6 or 8 GPUs, not " + std::to_string(n));
    }
    if (bytes >= 8 * kMiB) return fallBack(model, bytes, "message at or above vLLM's 8 MiB custom all-reduce buffer");
    const bool oneShot = n == 2 || (n <= 4 && bytes < 512 * kKiB) || (n <= 8 && bytes < 256 * kKiB);
    return custom(model, bytes, oneShot ? CollectiveAlgo::OneShot : CollectiveAlgo::TwoShot);
}

// TensorRT-LLM cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp selectImplementation (AUTO):
// NCCL without peer-to-peer or NVLink, or above the workspace (customAllReduceUtils.h
// getMaxRequiredWorkspaceSize: 16 MB at <= 2 GPUs, else 8 MB); else one-shot at <= 2 GPUs, below
// 1 MB at <= 4 GPUs and below 500 kB above; two-shot otherwise. Sizes are decimal there.
EngineChoice trtllm(const CollectiveModel& model, std::uint64_t bytes) {
    const int n = model.ranks();
    if (auto why = customKernelBlocker(model, "TensorRT-LLM custom all-reduce"); !why.empty()) {
        return fallBack(model, bytes, why);
    }
    const std::uint64_t workspace = n <= 2 ? 16'000'000 : 8'000'000;
    if (bytes > workspace) return fallBack(model, bytes, "message above TensorRT-LLM's all-reduce workspace");
    const bool oneShot = n <= 2 || (n <= 4 ? bytes < 1'000'000 : bytes < 500'000);
    return custom(model, bytes, oneShot ? CollectiveAlgo::OneShot : CollectiveAlgo::TwoShot);
}

// vLLM vllm/distributed/device_communicators/symm_mem.py (SymmMemCommunicator:
// _WORLD_SIZES_MULTIMEM = {"9.0": [4, 6, 8]}, multimem_all_reduce_ there, two_shot_all_reduce_
// otherwise; disabled without a multicast address) and all_reduce_utils.py
// SYMM_MEM_ALL_REDUCE_MAX_SIZES["9.0"] (32 MiB at 4 GPUs, 64 MiB at 2, 6, 8), NCCL above.
EngineChoice symmMem(const CollectiveModel& model, std::uint64_t bytes) {
    const int n = model.ranks();
    if (model.nodes() > 1) return fallBack(model, bytes, "symmetric memory runs inside one node");
    if (!model.intra().supports(CollectiveAlgo::Nvls)) {
        return fallBack(model, bytes, "no NVSwitch multicast (NVLS) on " + model.intra().id + " for symmetric memory");
    }
    const std::uint64_t maxBytes = n == 4 ? 32 * kMiB : 64 * kMiB;
    if (bytes >= maxBytes) return fallBack(model, bytes, "message above the symmetric-memory buffer");
    if (n == 4 || n == 6 || n == 8) return {model.allReduce(bytes, CollectiveAlgo::Nvls, CollectiveProto::Simple), {}};
    if (!model.intra().supports(CollectiveAlgo::TwoShot)) {
        return fallBack(model, bytes, "no two-shot kernel on " + model.intra().id);
    }
    return custom(model, bytes, CollectiveAlgo::TwoShot);
}

}  // namespace

std::string_view toString(AllReduceEngine engine) {
    switch (engine) {
        case AllReduceEngine::VllmCustomAr:
            return "vllm-custom-ar";
        case AllReduceEngine::TrtLlm:
            return "trtllm";
        case AllReduceEngine::SymmMem:
            return "symm-mem";
        case AllReduceEngine::Nccl:
            break;
    }
    return "nccl";
}

const std::vector<AllReduceEngine>& allReduceEngines() {
    static const std::vector<AllReduceEngine> kAll{AllReduceEngine::Nccl, AllReduceEngine::VllmCustomAr,
                                                   AllReduceEngine::TrtLlm, AllReduceEngine::SymmMem};
    return kAll;
}

std::optional<AllReduceEngine> parseAllReduceEngine(std::string_view text) {
    for (const auto e : allReduceEngines()) {
        if (toString(e) == text) return e;
    }
    return std::nullopt;
}

EngineChoice engineAllReduce(const CollectiveModel& model, std::uint64_t bytes, AllReduceEngine engine) {
    if (model.ranks() <= 1) return {model.allReduce(bytes), {}};
    switch (engine) {
        case AllReduceEngine::VllmCustomAr:
            return vllmCustomAr(model, bytes);
        case AllReduceEngine::TrtLlm:
            return trtllm(model, bytes);
        case AllReduceEngine::SymmMem:
            return symmMem(model, bytes);
        case AllReduceEngine::Nccl:
            break;
    }
    return {model.allReduce(bytes), {}};
}

Result<double> collectiveTimeNs(const FabricSpec& fabric, int gpus, CollectiveOp op, std::uint64_t bytes,
                                AllReduceEngine engine) {
    auto model = CollectiveModel::create(fabric, std::nullopt, gpus, gpus);
    if (!model) return model.error();
    switch (op) {
        case CollectiveOp::AllReduce:
            return engineAllReduce(*model, bytes, engine).estimate.timeNs();
        case CollectiveOp::AllGather:
            return model->allGather(bytes).timeNs();
        default:
            return makeError(ErrorCode::InvalidArgument,
                             "the collective model covers all-reduce and all-gather, not " + std::string(toString(op)),
                             "collective");
    }
}

}  // namespace tpscope::core::sim
