// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// NCCL loaded on first use: what a caller sees with and without the library.

#include <gtest/gtest.h>
#include <nccl.h>

#include <string>

#include "gpu/nccl_loader.h"

namespace tpscope::gpu {
namespace {

TEST(NcclLoader, ErrorStringsComeFromTheLibraryOrNameWhyItIsMissing) {
    const core::Status loaded = loadNccl();
    const std::string text = ncclGetErrorString(ncclInvalidArgument);
    if (loaded) {
        // NCCL's own wording for its codes; ours only ever says "NCCL not found".
        EXPECT_EQ(text.find("NCCL not found"), std::string::npos) << text;
        EXPECT_FALSE(text.empty());
    } else {
        EXPECT_EQ(text.rfind("NCCL not found: ", 0), 0u) << text;
        EXPECT_NE(loaded.error().message.find("NCCL not found"), std::string::npos);
        EXPECT_EQ(ncclGroupStart(), ncclSystemError);
    }
}

TEST(NcclLoader, LoadingTwiceGivesTheSameAnswer) {
    EXPECT_EQ(static_cast<bool>(loadNccl()), static_cast<bool>(loadNccl()));
}

}  // namespace
}  // namespace tpscope::gpu
