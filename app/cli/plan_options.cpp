// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "plan_options.h"

namespace tpscope::cli {

core::Result<ResolvedConfig> resolveConfig(const core::Catalog& catalog, const ConfigOptions& opts, int tp, int batch,
                                           int context) {
    ResolvedConfig out;
    core::PlanConfig& c = out.plan;
    TPSCOPE_TRY_ASSIGN(c.model, resolveModel(catalog, opts.model));
    TPSCOPE_TRY_ASSIGN(c.dtype, resolveDtype(opts.dtype));
    TPSCOPE_TRY(applyPrecision(opts.precision, c.weightDtype, c.kvDtype));
    TPSCOPE_TRY_ASSIGN(c.moeParallel, resolveMoeParallel(opts.precision));
    if (!opts.gpu.empty()) TPSCOPE_TRY_ASSIGN(out.gpu, catalog.gpu(opts.gpu));
    c.tp = tp;
    c.batch = batch;
    c.contextLen = context;
    return out;
}

}  // namespace tpscope::cli
