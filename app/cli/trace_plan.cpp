// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "trace_plan.h"

#include <algorithm>

#include "cli_context.h"
#include "core/analysis/analysis.h"

namespace tpscope::cli {

core::Result<TracePlan> resolveTracePlan(const core::Trace& trace, const core::Catalog& catalog,
                                         const TracePlanOverrides& o, const std::string& what) {
    using core::analysis::metadataInt;
    const std::string modelId = !o.model.empty() ? o.model : trace.metadataValue("model");
    const std::string gpuId = !o.gpu.empty() ? o.gpu : trace.metadataValue("gpu");
    if (modelId.empty() || gpuId.empty()) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "needs the run's model and GPU (the trace names " +
                                   (modelId.empty() ? std::string("no model") : "model " + modelId) + ", " +
                                   (gpuId.empty() ? std::string("no GPU") : "GPU " + gpuId) +
                                   "): give --model and --gpu",
                               what);
    }
    TracePlan out;
    TPSCOPE_TRY_ASSIGN(out.plan.model, catalog.model(modelId));
    TPSCOPE_TRY_ASSIGN(out.gpu, catalog.gpu(gpuId));
    const int tp = metadataInt(trace, "tp");
    out.plan.tp = tp > 0 ? tp : static_cast<int>(trace.ranks.size());
    out.plan.batch = o.batch > 0 ? o.batch : std::max(1, metadataInt(trace, "batch"));
    const int context = metadataInt(trace, "context");
    out.plan.contextLen = o.context > 0 ? o.context : (context > 0 ? context : 1024);
    const std::string dtype = !o.dtype.empty() ? o.dtype : trace.metadataValue("dtype");
    if (!dtype.empty()) TPSCOPE_TRY_ASSIGN(out.plan.dtype, resolveDtype(dtype));
    return out;
}

}  // namespace tpscope::cli
