// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/op_time_fit.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "core/hw/catalog.h"
#include "core/sim/kernel_model.h"
#include "core/util/json_fields.h"

namespace tpscope::core {
std::string_view embeddedResource(std::string_view name);  // generated from resources/*.json
}

namespace tpscope::core::sim {

namespace {

Result<simdjson::dom::object> objectField(simdjson::dom::object obj, std::string_view field, const std::string& where) {
    simdjson::dom::object out;
    if (obj[field].get_object().get(out) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "needs an object '" + std::string(field) + "'", where);
    }
    return out;
}

// A fit coefficient: a number >= 0 (a kernel never gets faster as it gets bigger).
Status coefficient(simdjson::dom::object obj, std::string_view field, const std::string& where, double& out) {
    auto v = json::nonNegativeNumber(obj, field, where);
    if (!v) return v.error();
    out = *v;
    return Ok{};
}

Result<GpuOpTimeFit> parseGpu(simdjson::dom::element e, const std::string& where) {
    simdjson::dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "each 'gpus' entry must be an object", where);
    }
    auto id = json::string(obj, "gpu", where);
    if (!id) return id.error();
    const std::string at = where + ": gpu " + *id;
    auto fits = objectField(obj, "fits", at);
    if (!fits) return fits.error();
    GpuOpTimeFit g;
    g.gpuId = *id;
    for (const auto& [name, gemm] : {std::pair{"gemv", &g.gemv}, std::pair{"gemm", &g.gemm}}) {
        auto fit = objectField(*fits, name, at);
        if (!fit) return fit.error();
        const std::string in = at + " " + name;
        for (const auto& [key, target] :
             {std::pair{"fixed_ns", &gemm->fixedNs}, std::pair{"ns_per_weight_byte", &gemm->nsPerWeightByte},
              std::pair{"ramp_bytes", &gemm->rampBytes}, std::pair{"ns_per_ramp_byte", &gemm->nsPerRampByte},
              std::pair{"ns_per_reduction_element", &gemm->nsPerReductionElement},
              std::pair{"ns_per_flop", &gemm->nsPerFlop},
              std::pair{"ns_per_activation_byte", &gemm->nsPerActivationByte}}) {
            if (auto s = coefficient(*fit, key, in, *target); !s) return s.error();
        }
    }
    for (const auto& [name, row] : {std::pair{"norm", &g.norm}, std::pair{"act", &g.activation},
                                    std::pair{"rope", &g.rope}, std::pair{"add", &g.residualAdd}}) {
        auto fit = objectField(*fits, name, at);
        if (!fit) return fit.error();
        const std::string in = at + " " + name;
        for (const auto& [key, target] :
             {std::pair{"fixed_ns", &row->fixedNs}, std::pair{"ns_per_width", &row->nsPerWidth},
              std::pair{"ns_per_byte", &row->nsPerByte}}) {
            if (auto s = coefficient(*fit, key, in, *target); !s) return s.error();
        }
    }
    return g;
}

// The measured GPU a GPU without data borrows from: same generation of memory system and SM.
std::string_view nearestMeasured(const GpuSpec& gpu) {
    const GpuArch arch = gpuArch(gpu);
    return arch == GpuArch::Hopper || arch == GpuArch::Blackwell ? "h100-sxm" : "a100-sxm";
}

// The measured GPU's datasheet numbers (the built-in catalog's preset of the same id).
const GpuSpec* referenceGpu(std::string_view id) {
    static const std::vector<GpuSpec> gpus = [] {
        auto catalog = Catalog::builtin();
        return catalog ? catalog->gpus() : std::vector<GpuSpec>{};
    }();
    const auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& g) { return g.id == id; });
    return it == gpus.end() ? nullptr : &*it;
}

double ratio(double numerator, double denominator) {
    return numerator > 0 && denominator > 0 ? numerator / denominator : 1.0;
}

}  // namespace

std::string_view toString(OpFitClass cls) {
    switch (cls) {
        case OpFitClass::Gemm:
            return "gemm";
        case OpFitClass::Norm:
            return "norm";
        case OpFitClass::Activation:
            return "act";
        case OpFitClass::Rope:
            return "rope";
        case OpFitClass::ResidualAdd:
            return "add";
        case OpFitClass::None:
            break;
    }
    return "roofline";
}

OpFitClass opFitClass(OpKind kind) {
    switch (kind) {
        case OpKind::QkvGemm:
        case OpKind::OProjGemm:
        case OpKind::GateUpGemm:
        case OpKind::DownGemm:
        case OpKind::LmHeadGemm:
        case OpKind::MlaQUpGemm:
        case OpKind::MlaKvUpGemm:
        case OpKind::MoeRouter:
            return OpFitClass::Gemm;
        // The plan's norms are vLLM's fused residual-add + RMSNorm: one row kernel, timed as the norm.
        case OpKind::InputNorm:
        case OpKind::PostAttnNorm:
        case OpKind::FinalNorm:
            return OpFitClass::Norm;
        case OpKind::SiluMul:
        case OpKind::MoeSiluMul:
            return OpFitClass::Activation;
        default:
            return OpFitClass::None;
    }
}

const RowTimeFit* GpuOpTimeFit::row(OpFitClass cls) const {
    switch (cls) {
        case OpFitClass::Norm:
            return &norm;
        case OpFitClass::Activation:
            return &activation;
        case OpFitClass::Rope:
            return &rope;
        case OpFitClass::ResidualAdd:
            return &residualAdd;
        default:
            return nullptr;
    }
}

const GpuOpTimeFit* OpTimeFits::find(std::string_view gpuId) const {
    const auto it = std::find_if(gpus.begin(), gpus.end(), [&](const GpuOpTimeFit& g) { return g.gpuId == gpuId; });
    return it == gpus.end() ? nullptr : &*it;
}

Result<OpTimeFits> parseOpTimeFits(std::string_view json, const std::string& where) {
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(json.data(), json.size()).get(doc) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "not valid JSON", where);
    }
    simdjson::dom::object root;
    if (doc.get_object().get(root) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "the op-time fit file must be a JSON object", where);
    }
    OpTimeFits fits;
    fits.source = json::optionalString(root, "source");
    simdjson::dom::array gpus;
    if (root["gpus"].get_array().get(gpus) != simdjson::SUCCESS || gpus.size() == 0) {
        return makeError(ErrorCode::ParseError, "needs a non-empty 'gpus' array", where);
    }
    for (simdjson::dom::element e : gpus) {
        auto g = parseGpu(e, where);
        if (!g) return g.error();
        fits.gpus.push_back(std::move(*g));
    }
    return fits;
}

const OpTimeFits& builtinOpTimeFits() {
    static const OpTimeFits fits = [] {
        auto parsed = parseOpTimeFits(embeddedResource("op_time_fit.json"), "embedded op_time_fit.json");
        if (!parsed) {
            std::cerr << "tpscope: " << parsed.error().describe() << '\n';
            std::abort();
        }
        return std::move(*parsed);
    }();
    return fits;
}

std::string OpTimeModel::description() const {
    if (!derived) return measuredOn + " fit (Vidur, measured)";
    return "derived from the " + measuredOn + " fit (bandwidth, SMs), not measured";
}

std::optional<OpTimeModel> opTimeModel(const GpuSpec& gpu, const OpTimeFits& fits) {
    if (gpu.hbmBytesPerSec <= 0) return std::nullopt;
    OpTimeModel m;
    if (const GpuOpTimeFit* own = fits.find(gpu.id)) {
        m.fit = *own;
        m.measuredOn = gpu.id;
        return m;
    }
    const GpuOpTimeFit* base = fits.find(nearestMeasured(gpu));
    if (base == nullptr) base = &fits.gpus.front();
    const GpuSpec* ref = referenceGpu(base->gpuId);
    if (ref == nullptr) return std::nullopt;
    const double bandwidth = ratio(ref->hbmBytesPerSec, gpu.hbmBytesPerSec);
    const double flops = ratio(ref->fp16Flops, gpu.fp16Flops);
    const int sms = gpu.sms > 0 ? gpu.sms : ref->sms;
    const double perSm = ratio(ref->hbmBytesPerSec / ref->sms, gpu.hbmBytesPerSec / sms);
    m.fit = *base;
    m.fit.gpuId = gpu.id;
    for (GemmTimeFit* g : {&m.fit.gemv, &m.fit.gemm}) {
        g->nsPerWeightByte *= bandwidth;
        g->nsPerRampByte *= bandwidth;
        g->nsPerActivationByte *= bandwidth;
        g->nsPerFlop *= flops;
        g->nsPerReductionElement *= perSm;  // one block walks k: its SM's share of the bandwidth
    }
    for (RowTimeFit* r : {&m.fit.norm, &m.fit.activation, &m.fit.rope, &m.fit.residualAdd}) {
        r->nsPerByte *= bandwidth;
        r->nsPerWidth *= perSm;
    }
    m.measuredOn = base->gpuId;
    m.derived = true;
    return m;
}

std::optional<double> fittedOpTimeNs(const PlanOp& op, const OpTimeModel& model, const GpuSpec& gpu, Dtype dtype) {
    const OpFitClass cls = opFitClass(op.kind);
    const double elementBytes = dtypeBytes(dtype);
    if (cls == OpFitClass::Gemm) {
        const auto m = static_cast<double>(op.gemm.m);
        const auto n = static_cast<double>(op.gemm.n);
        const auto k = static_cast<double>(op.gemm.k);
        GemmTimeFit g = model.fit.gemmFor(op.gemm.m);
        // The fit is of fp16 GEMMs; another dtype's tensor cores (fp8: twice the peak) run the FLOP term
        // at their own peak.
        const Dtype gemmDtype = op.gemm.dtype == Dtype::Unknown ? dtype : op.gemm.dtype;
        g.nsPerFlop *= ratio(gpu.fp16Flops, gpu.peakFlops(gemmDtype));
        return g.timeNs(static_cast<double>(op.weightBytesRead), k, op.flops, m * (k + n) * elementBytes);
    }
    const RowTimeFit* row = model.fit.row(cls);
    if (row == nullptr || op.rowWidth <= 0) return std::nullopt;
    const auto width = static_cast<double>(op.rowWidth);
    return row->timeNs(width, static_cast<double>(op.rows) * width * elementBytes);
}

std::optional<double> expectedGemmNs(std::int64_t m, std::int64_t n, std::int64_t k, Dtype dtype, const GpuSpec& gpu) {
    const auto model = opTimeModel(gpu);
    if (!model || m <= 0 || n <= 0 || k <= 0) return std::nullopt;
    PlanOp op;
    op.kind = OpKind::QkvGemm;  // any dense GEMM: the fit has one class
    op.eventKind = EventKind::Gemm;
    op.gemm =
        GemmPayload{static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(k), dtype};
    op.flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    op.weightBytesRead =
        static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(dtypeBytes(dtype));
    const auto t = fittedOpTimeNs(op, *model, gpu, dtype);
    const double peak = gpu.peakFlops(dtype);
    const double computeFloor = peak > 0 ? op.flops / peak * 1e9 : 0.0;
    return t ? std::optional<double>(std::max(*t, computeFloor)) : std::nullopt;
}

}  // namespace tpscope::core::sim
