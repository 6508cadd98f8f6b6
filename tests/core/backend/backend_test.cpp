// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/backend/backend.h"

#include <gtest/gtest.h>

namespace tpscope::core {
namespace {

// A backend with no devices, as a machine without GPUs reports them.
class NoDeviceBackend final : public Backend {
  public:
    std::string name() const override { return "no devices"; }
    Result<std::vector<LocalDevice>> devices() const override {
        return makeError(ErrorCode::DeviceError, "no CUDA device: none present");
    }
    Result<std::shared_ptr<const Trace>> run(const LocalRunRequest&, const TaskControl&) override {
        return makeError(ErrorCode::DeviceError, "no CUDA device: none present");
    }
};

TEST(Backend, RegistryStartsEmptyAndHoldsWhatWasRegistered) {
    registerLocalBackend(nullptr);
    EXPECT_EQ(localBackend(), nullptr) << "a build without a GPU backend has none";
    auto backend = std::make_shared<NoDeviceBackend>();
    registerLocalBackend(backend);
    ASSERT_EQ(localBackend(), backend);
    const auto devices = localBackend()->devices();
    ASSERT_FALSE(devices.ok());
    EXPECT_NE(devices.error().message.find("no CUDA device"), std::string::npos);
    registerLocalBackend(nullptr);
}

}  // namespace
}  // namespace tpscope::core
