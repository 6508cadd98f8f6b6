#include "core/hw/gpu_spec.h"

#include <algorithm>

namespace tpscope::core {

double GpuSpec::peakFlops(Dtype dtype) const {
    switch (dtype) {
        case Dtype::Fp16: return fp16Flops;
        case Dtype::Bf16: return bf16Flops;
        case Dtype::Fp8: return fp8Flops;
        case Dtype::Fp32: return fp32Flops;
        default: return 0;
    }
}

double GpuSpec::rooflineCrossover(Dtype dtype) const {
    return hbmBytesPerSec > 0 ? peakFlops(dtype) / hbmBytesPerSec : 0;
}

bool FabricSpec::supports(CollectiveAlgo algo) const {
    return std::find(algorithms.begin(), algorithms.end(), algo) != algorithms.end();
}

}  // namespace tpscope::core
