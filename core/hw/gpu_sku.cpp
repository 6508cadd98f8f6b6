// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/hw/gpu_sku.h"

#include <cctype>

namespace tpscope::core {

namespace {

// Lower case, '-' and '_' as spaces, single spaces, without the "nvidia " prefix.
std::string normalized(std::string_view name) {
    std::string out;
    for (const char raw : name) {
        char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw)));
        if (c == '-' || c == '_') c = ' ';
        if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
        out.push_back(c);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    constexpr std::string_view kPrefix = "nvidia ";
    if (out.compare(0, kPrefix.size(), kPrefix) == 0) out.erase(0, kPrefix.size());
    return out;
}

}  // namespace

const std::vector<GpuSku>& gpuSkus() {
    // cudaDeviceProp::name / nvidia-smi --query-gpu=name of each SKU.
    static const std::vector<GpuSku> table = {
        {"NVIDIA A100-SXM4-80GB", "a100-sxm"},
        {"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb"},
        {"NVIDIA A100 80GB PCIe", "a100-pcie"},
        {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
        {"NVIDIA H100 80GB HBM3", "h100-sxm"},
        {"NVIDIA H100 SXM5 80GB", "h100-sxm"},
        {"NVIDIA H100 PCIe", "h100-pcie"},
        {"NVIDIA H100 NVL", "h100-nvl"},
        {"NVIDIA H200", "h200-sxm"},
        {"NVIDIA H200 NVL", "h200-nvl"},
        {"NVIDIA GH200 480GB", "gh200"},
        {"NVIDIA GH200 144G HBM3e", "gh200-144g"},
        {"NVIDIA H20", "h20"},
        {"NVIDIA B200", "b200"},
        {"NVIDIA GB200", "gb200"},
        {"NVIDIA L40S", "l40s"},
    };
    return table;
}

GpuSkuMatch matchGpuSku(const Catalog& catalog, std::string_view deviceName) {
    GpuSkuMatch m;
    const std::string name = normalized(deviceName);
    for (const GpuSku& sku : gpuSkus()) {
        if (normalized(sku.deviceName) != name) continue;
        if (auto g = catalog.gpu(sku.presetId)) {
            m.gpu = *g;
            m.exact = true;
            return m;
        }
    }
    // Not in the table: the first preset of its family ("h100" of "h100-sxm"), PCIe only for PCIe.
    const bool pcie = name.find("pcie") != std::string::npos;
    for (const GpuSpec& g : catalog.gpus()) {
        const std::string family = g.id.substr(0, g.id.find('-'));
        const std::size_t at = name.find(family);
        // The family as a word of its own: "h200" is not inside "gh200".
        if (at == std::string::npos || (at > 0 && name[at - 1] != ' ')) continue;
        if ((g.id.find("pcie") != std::string::npos) != pcie) continue;
        m.gpu = g;
        m.note = "unknown SKU \"" + std::string(deviceName) + "\", using " + g.id + " (pass --gpu to choose)";
        return m;
    }
    m.note = "unknown SKU \"" + std::string(deviceName) + "\": no GPU preset fits it (pass --gpu to choose one)";
    return m;
}

}  // namespace tpscope::core
