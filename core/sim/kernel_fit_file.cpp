// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/kernel_fit_file.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/json_fields.h"
#include "core/util/units.h"

namespace tpscope::core::sim {

namespace {

constexpr std::uintmax_t kMaxFitFileBytes = 1u << 20;

Result<KernelFitClass> parseClass(simdjson::dom::element e, const std::string& source) {
    simdjson::dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "each entry of 'classes' must be an object", source);
    }
    auto kindText = json::string(obj, "kind", source);
    if (!kindText) return kindText.error();
    const auto kind = parseEventKind(*kindText);
    if (!kind || !(*kind == EventKind::Gemm || *kind == EventKind::Attention || *kind == EventKind::Elementwise ||
                   *kind == EventKind::Other)) {
        return makeError(ErrorCode::ParseError,
                         "unknown kernel class '" + *kindText + "' (gemm, attention, elementwise or other)", source);
    }
    KernelFitClass c;
    c.kind = *kind;
    const std::string where = source + ": class " + *kindText;
    for (const auto& [field, target] : {std::pair{"compute_efficiency", &c.efficiency.compute},
                                        std::pair{"memory_efficiency", &c.efficiency.memory}}) {
        auto v = json::number(obj, field, where);
        if (!v) return v.error();
        if (!(*v > 0 && *v <= 1)) {
            return makeError(ErrorCode::ParseError,
                             std::string(field) + " must be in (0, 1], got " + formatShortest(*v), where);
        }
        *target = *v;
    }
    return c;
}

}  // namespace

Result<KernelFit> parseKernelFit(std::string_view text, const std::string& source) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto err = parser.parse(text.data(), text.size()).get(root); err != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, std::string("not valid JSON: ") + simdjson::error_message(err), source);
    }
    simdjson::dom::object obj;
    simdjson::dom::array classes;
    if (root.get_object().get(obj) != simdjson::SUCCESS ||
        obj["classes"].get_array().get(classes) != simdjson::SUCCESS) {
        return makeError(ErrorCode::WrongFormat,
                         "not a kernel fit: expected the JSON of `tpscope-cli calibrate --from-trace TRACE --kernels "
                         "--json`, with a 'classes' array",
                         source);
    }
    KernelFit fit;
    fit.source = source;
    TPSCOPE_TRY_ASSIGN(fit.gpuId, json::string(obj, "gpu", source));
    fit.modelId = json::optionalString(obj, "model");
    TPSCOPE_TRY_ASSIGN(fit.launchGapNs, json::number(obj, "launch_gap_ns", source));
    if (fit.launchGapNs < 0 || fit.launchGapNs > 1e9) {
        return makeError(ErrorCode::ParseError,
                         "launch_gap_ns must lie in 0..1e9, got " + formatShortest(fit.launchGapNs), source);
    }
    // Written since the host timeline (issue 26); older fits have only the launch gap.
    fit.hostPerLaunchNs = json::optionalNumber(obj, "host_per_launch_ns", 0);
    const double stepHost = json::optionalNumber(obj, "step_host_ns", -1);
    if (stepHost != -1) fit.stepHostNs = stepHost;
    if (!(fit.hostPerLaunchNs >= 0 && fit.hostPerLaunchNs <= 1e9) ||
        !(stepHost == -1 || (stepHost >= 0 && stepHost <= 1e10))) {
        return makeError(ErrorCode::ParseError, "host_per_launch_ns and step_host_ns must be non-negative", source);
    }
    for (auto e : classes) {
        KernelFitClass c;
        TPSCOPE_TRY_ASSIGN(c, parseClass(e, source));
        for (const auto& seen : fit.classes) {
            if (seen.kind == c.kind) {
                return makeError(ErrorCode::ParseError, "kernel class '" + std::string(toString(c.kind)) + "' twice",
                                 source);
            }
        }
        fit.classes.push_back(c);
    }
    if (fit.classes.empty()) return makeError(ErrorCode::ParseError, "'classes' is empty: nothing was fitted", source);
    return fit;
}

Result<KernelFit> loadKernelFit(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        return makeError(ErrorCode::IoError, "no such file (or not a regular file)", path);
    }
    if (std::filesystem::file_size(path, ec) > kMaxFitFileBytes) {
        return makeError(ErrorCode::WrongFormat, "larger than 1 MiB: not a kernel fit", path);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::IoError, "cannot open the file", path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parseKernelFit(buffer.str(), path);
}

Status applyKernelFit(const KernelFit& fit, const std::string& gpuId, SimParams& params) {
    if (fit.gpuId != gpuId) {
        return makeError(ErrorCode::InvalidArgument,
                         "the kernel efficiencies were fitted on " + fit.gpuId + ", not on " + gpuId +
                             ": simulate with --gpu " + fit.gpuId + " or fit a trace from " + gpuId,
                         fit.source);
    }
    for (const auto& c : fit.classes) params.efficiency(c.kind) = c.efficiency;
    // The measured machine's efficiencies scale the roofline; they replace the built-in per-op fit.
    if (!fit.classes.empty()) params.fittedOpTimes = false;
    // The runtime's profile with the measured machine's numbers: the gap between kernels, the host
    // time per launch and the host work between steps.
    HostCosts host = params.host();
    host.deviceGapNs = fit.launchGapNs;
    host.hostPerLaunchNs = host.graphs ? 0.0 : fit.hostPerLaunchNs;
    if (fit.stepHostNs) host.stepHostNs = *fit.stepHostNs;
    params.hostCosts = host;
    return Ok{};
}

}  // namespace tpscope::core::sim
