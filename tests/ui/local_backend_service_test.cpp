// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The GUI's local-GPU path (services_default.cpp) hands core::Backend the one TaskControl: a
// backend's per-step progress reaches the sweep's per-run callback, and the GUI's cancel flag
// reaches the backend. A stand-in backend is registered, as app/gui registers the CUDA one.

#include <gtest/gtest.h>

#include <vector>

#include "core/backend/backend.h"
#include "ui/jobs/services.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

// Records `request.tokens` steps, reporting after each and honouring the flag before each, as
// gpu/local_backend does.
class SteppingBackend final : public core::Backend {
  public:
    int stepsRun = 0;
    std::string name() const override { return "stepping"; }
    core::Result<std::vector<core::LocalDevice>> devices() const override {
        return std::vector<core::LocalDevice>{{0, "Test GPU", 1ull << 30}};
    }
    core::Result<std::shared_ptr<const core::Trace>> run(const core::LocalRunRequest& request,
                                                         const core::TaskControl& control) override {
        for (int s = 0; s < request.tokens; ++s) {
            if (control.cancelled()) return core::makeError(core::ErrorCode::Cancelled, "capture cancelled");
            ++stepsRun;
            control.report(static_cast<double>(s + 1) / request.tokens);
        }
        return test::makeTrace(request.plan.tp, {{0, 1000, core::EventKind::Gemm, "gemm"}}, {});
    }
};

struct LocalBackendService : ::testing::Test {
    std::shared_ptr<SteppingBackend> backend = std::make_shared<SteppingBackend>();
    void SetUp() override { core::registerLocalBackend(backend); }
    void TearDown() override { core::registerLocalBackend(nullptr); }

    static SweepRequest twoRuns(int tokens) {
        SweepRequest sweep;
        sweep.base.backend = BackendKind::LocalGpus;
        sweep.base.model.id = "tiny";
        sweep.base.tokens = tokens;
        sweep.tps = {1, 2};
        sweep.batches = {1};
        return sweep;
    }
};

TEST_F(LocalBackendService, EachDecodeStepOfEachRunReachesTheSweepsProgress) {
    const int tokens = 4;
    std::vector<std::pair<int, double>> progress;
    int finished = 0;
    SweepCallbacks callbacks;
    callbacks.progress = [&](int index, double f) { progress.emplace_back(index, f); };
    callbacks.finished = [&](int, RunOutcome) { ++finished; };
    const CancelFlag cancel{false};
    const auto status = defaultServices().runSweep(twoRuns(tokens), callbacks, cancel);
    ASSERT_TRUE(status.ok()) << status.error().describe();
    EXPECT_EQ(finished, 2);
    ASSERT_EQ(progress.size(), 2u * tokens);
    for (int run = 0; run < 2; ++run) {
        for (int s = 0; s < tokens; ++s) {
            const auto& [index, f] = progress[static_cast<std::size_t>(run * tokens + s)];
            EXPECT_EQ(index, run);
            EXPECT_DOUBLE_EQ(f, (s + 1.0) / tokens);
        }
    }
}

TEST_F(LocalBackendService, TheGuisCancelFlagStopsTheBackendBetweenSteps) {
    const int tokens = 6;
    CancelFlag cancel{false};
    SweepCallbacks callbacks;
    callbacks.progress = [&](int, double f) {
        if (f >= 0.5) cancel.store(true);  // halfway through the first run
    };
    bool failedRun = false;
    callbacks.failed = [&](int, const core::Error&) { failedRun = true; };
    const auto status = defaultServices().runSweep(twoRuns(tokens), callbacks, cancel);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(backend->stepsRun, tokens / 2) << "the backend stops at the step after the flag, and no run follows";
    EXPECT_FALSE(failedRun) << "a cancel is not a failed run";
}

}  // namespace
}  // namespace tpscope::ui
