// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/local_backend.h"

#include "gpu/capture.h"
#include "gpu/device_query.h"

namespace tpscope::gpu {

namespace {

class LocalGpuBackend final : public core::Backend {
  public:
    std::string name() const override { return "local GPUs (CUDA, NCCL, CUPTI)"; }

    core::Result<std::vector<core::LocalDevice>> devices() const override {
        auto found = listDevices();
        if (!found) return found.error();
        std::vector<core::LocalDevice> out;
        for (const auto& d : *found) out.push_back({d.index, d.name, d.memoryBytes});
        return out;
    }

    core::Result<std::shared_ptr<const core::Trace>> run(const core::LocalRunRequest& request,
                                                         const core::TaskControl& control) override {
        CaptureOptions options;
        options.model = request.plan.model;
        options.tp = request.plan.tp;
        options.batch = request.plan.batch;
        options.contextLen = request.plan.contextLen;
        options.dtype = request.plan.dtype;
        options.tokens = request.tokens;
        options.graph = request.graph;
        options.overlap = request.overlap;
        options.control = control;
        auto report = runCapture(options);
        if (!report) return report.error();
        if (!report->failure.empty()) {
            return core::makeError(core::ErrorCode::DeviceError, report->failure, "capture");
        }
        return std::make_shared<const core::Trace>(std::move(report->trace));
    }
};

}  // namespace

std::shared_ptr<core::Backend> makeLocalBackend() {
    return std::make_shared<LocalGpuBackend>();
}

}  // namespace tpscope::gpu
