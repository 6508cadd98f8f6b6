#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/trace/event_kind.h"

namespace tpscope::core {

struct GpuSpec {
    std::string id;  // "h100-sxm"
    std::string name;
    std::uint64_t memoryBytes = 0;
    double hbmBytesPerSec = 0;
    double fp16Flops = 0;  // dense tensor-core peak
    double bf16Flops = 0;
    double fp8Flops = 0;  // 0 when the GPU has no FP8 tensor cores
    double fp32Flops = 0;
    int sms = 0;
    std::map<std::string, std::string> sources;  // field -> where the value comes from

    // Dense peak for the dtype; 0 when unsupported.
    double peakFlops(Dtype dtype) const;
    // Roofline crossover: FLOP per byte above which a kernel is compute-bound.
    double rooflineCrossover(Dtype dtype) const;
};

enum class FabricScope : std::uint8_t { IntraNode, InterNode };

struct FabricSpec {
    std::string id;  // "nvlink4"
    std::string name;
    FabricScope scope = FabricScope::IntraNode;
    double linkBytesPerSec = 0;   // theoretical, per GPU per direction
    double busbwBytesPerSec = 0;  // large-message all-reduce bus bandwidth (nccl-tests convention)
    double hopLatencyNs = 0;      // per ring step
    double baseLatencyNs = 0;     // fixed cost per collective
    bool throughCpu = false;      // PCIe traffic crossing the host bridge
    int maxGpus = 0;              // GPUs one node of this fabric connects; 0 = unbounded (network)
    std::vector<CollectiveAlgo> algorithms;
    std::map<std::string, std::string> sources;

    bool supports(CollectiveAlgo algo) const;
};

}  // namespace tpscope::core
