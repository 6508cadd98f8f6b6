// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A CUDA device name -> its GPU preset (gpu_sku.h): one test per SKU, each against the preset this
// test names (not the table's own answer), and the HBM bandwidth that tells the SKU from its family's
// other members; names outside the table say "unknown SKU, using X".

#include "core/hw/gpu_sku.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

namespace tpscope::core {
namespace {

struct Sku {
    const char* deviceName;  // as cudaGetDeviceProperties / nvidia-smi name it
    const char* preset;
    double hbmTBs;  // the datasheet's bandwidth of this SKU
};

const Catalog& catalog() {
    static const Catalog c = *Catalog::builtin();
    return c;
}

class GpuSkuName : public ::testing::TestWithParam<Sku> {};

TEST_P(GpuSkuName, MatchesItsOwnPresetExactly) {
    const Sku sku = GetParam();
    const GpuSkuMatch m = matchGpuSku(catalog(), sku.deviceName);
    ASSERT_TRUE(m.gpu.has_value()) << m.note;
    EXPECT_TRUE(m.exact);
    EXPECT_EQ(m.note, "");
    EXPECT_EQ(m.gpu->id, sku.preset);
    EXPECT_DOUBLE_EQ(m.gpu->hbmBytesPerSec, sku.hbmTBs * 1e12);
}

INSTANTIATE_TEST_SUITE_P(
    EverySku, GpuSkuName,
    ::testing::Values(Sku{"NVIDIA GH200 480GB", "gh200", 4.0}, Sku{"NVIDIA GH200 144G HBM3e", "gh200-144g", 4.9},
                      Sku{"NVIDIA H100 NVL", "h100-nvl", 3.9}, Sku{"NVIDIA H100 PCIe", "h100-pcie", 2.0},
                      Sku{"NVIDIA H100 80GB HBM3", "h100-sxm", 3.35}, Sku{"NVIDIA H200", "h200-sxm", 4.8},
                      Sku{"NVIDIA H200 NVL", "h200-nvl", 4.8}, Sku{"NVIDIA B200", "b200", 8.0},
                      Sku{"NVIDIA GB200", "gb200", 8.0}, Sku{"NVIDIA L40S", "l40s", 0.864},
                      Sku{"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb", 1.555},
                      Sku{"NVIDIA A100 80GB PCIe", "a100-pcie", 1.935},
                      Sku{"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb", 1.555},
                      Sku{"NVIDIA A100-SXM4-80GB", "a100-sxm", 2.039}, Sku{"NVIDIA H20", "h20", 4.0}),
    [](const ::testing::TestParamInfo<Sku>& param) {
        std::string name;
        for (const char c : std::string(param.param.deviceName).substr(7)) {
            name += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
        }
        return name;
    });

TEST(GpuSku, EveryTableEntryNamesAPresetOfTheCatalog) {
    std::set<std::string> names;
    for (const GpuSku& sku : gpuSkus()) {
        EXPECT_TRUE(catalog().gpu(sku.presetId).ok()) << sku.presetId;
        EXPECT_TRUE(names.insert(sku.deviceName).second) << "twice: " << sku.deviceName;
    }
}

// 978c820 matched by family: GH200 took the H200 preset (its name contains "h200") and the H100 NVL
// the SXM5 one.
TEST(GpuSku, FamilyLookalikesAreNotConfused) {
    EXPECT_EQ(matchGpuSku(catalog(), "NVIDIA GH200 480GB").gpu->id, "gh200");
    EXPECT_EQ(matchGpuSku(catalog(), "NVIDIA H100 NVL").gpu->id, "h100-nvl");
    // Case, hyphens and the vendor prefix do not matter.
    EXPECT_EQ(matchGpuSku(catalog(), "a100 pcie 40gb").gpu->id, "a100-pcie-40gb");
}

TEST(GpuSku, AnUnknownSkuSaysWhichPresetItUses) {
    const GpuSkuMatch m = matchGpuSku(catalog(), "NVIDIA H100 SXM5 94GB");
    ASSERT_TRUE(m.gpu.has_value());
    EXPECT_FALSE(m.exact);
    EXPECT_EQ(m.gpu->id, "h100-sxm");
    EXPECT_EQ(m.note, "unknown SKU \"NVIDIA H100 SXM5 94GB\", using h100-sxm (pass --gpu to choose)");
    const GpuSkuMatch pcie = matchGpuSku(catalog(), "NVIDIA H100 PCIe 96GB");
    ASSERT_TRUE(pcie.gpu.has_value());
    EXPECT_EQ(pcie.gpu->id, "h100-pcie");
    // A family inside another word is not that family: "gh200" is no "h200".
    const GpuSkuMatch grace = matchGpuSku(catalog(), "NVIDIA GH200 999GB");
    ASSERT_TRUE(grace.gpu.has_value());
    EXPECT_EQ(grace.gpu->id, "gh200");
}

TEST(GpuSku, ANameNoPresetFitsGetsNoneAndSaysSo) {
    const GpuSkuMatch m = matchGpuSku(catalog(), "NVIDIA RTX 6000 Ada Generation");
    EXPECT_FALSE(m.gpu.has_value());
    EXPECT_NE(m.note.find("no GPU preset fits it"), std::string::npos) << m.note;
    EXPECT_FALSE(matchGpuSku(catalog(), "").gpu.has_value());
}

}  // namespace
}  // namespace tpscope::core
