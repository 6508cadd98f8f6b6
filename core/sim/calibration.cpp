// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/calibration.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>

#include "core/sim/collective_model.h"
#include "core/sim/nelder_mead.h"
#include "core/util/units.h"

namespace tpscope::core::sim {

namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;
constexpr std::uint64_t kMaxBytes = ~std::uint64_t{0};
// log(predicted / measured) beyond this is treated linearly (Huber): one noisy 2 KB sample that
// took 5x its neighbours should not bend the whole curve.
constexpr double kHuberDelta = 0.3;
// A very weak pull of every log-parameter towards the starting preset (a Gaussian prior far below
// the data term of a fit that is off by a few percent): a parameter the data cannot see (Simple's
// step latency on a fabric where LL128 always wins, LL128 where it never does) stays at its
// NCCL-ratio value instead of drifting to an absurd one.
constexpr double kPriorWeight = 1e-5;

struct Band {
    const char* label;
    std::uint64_t minBytes;
    std::uint64_t maxBytes;
};
constexpr std::array<Band, 4> kBands{{{"<= 64 KiB", 0, 64 * kKiB},
                                      {"64 KiB - 1 MiB", 64 * kKiB + 1, kMiB},
                                      {"1 - 16 MiB", kMiB + 1, 16 * kMiB},
                                      {"> 16 MiB", 16 * kMiB + 1, kMaxBytes}}};

ErrorStats stats(std::string label, std::uint64_t lo, std::uint64_t hi, std::vector<double> rel) {
    ErrorStats s;
    s.label = std::move(label);
    s.minBytes = lo;
    s.maxBytes = hi;
    s.samples = static_cast<int>(rel.size());
    if (rel.empty()) return s;
    double sum = 0;
    for (const double r : rel) sum += r;
    s.meanSignedError = sum / static_cast<double>(rel.size());
    for (auto& r : rel) r = std::abs(r);
    std::sort(rel.begin(), rel.end());
    s.medianAbsError = rel[rel.size() / 2];
    s.p90AbsError = rel[std::min(rel.size() - 1, rel.size() * 9 / 10)];
    return s;
}

std::vector<ErrorStats> bandStats(const std::vector<std::pair<std::uint64_t, double>>& rel) {
    std::vector<ErrorStats> out;
    for (const auto& b : kBands) {
        std::vector<double> in;
        for (const auto& [bytes, r] : rel) {
            if (bytes >= b.minBytes && bytes <= b.maxBytes) in.push_back(r);
        }
        out.push_back(stats(b.label, b.minBytes, b.maxBytes, std::move(in)));
    }
    return out;
}

// The models of each (ranks, nodes) in the samples, built once per evaluation.
class Predictor {
  public:
    static Result<Predictor> create(const std::vector<AllReduceSample>& samples, const FabricSpec& intra,
                                    const std::optional<FabricSpec>& inter) {
        Predictor p;
        for (const auto& s : samples) {
            const auto key = std::make_pair(s.ranks, s.nodes);
            if (p.m_models.count(key) != 0) continue;
            if (s.ranks % s.nodes != 0) {
                return makeError(
                    ErrorCode::InvalidArgument,
                    std::to_string(s.ranks) + " ranks do not split over " + std::to_string(s.nodes) + " nodes",
                    "calibration data");
            }
            auto model = CollectiveModel::create(intra, s.nodes > 1 ? inter : std::nullopt, s.ranks, s.ranks / s.nodes);
            if (!model) return model.error();
            p.m_models.emplace(key, std::move(*model));
        }
        return p;
    }
    double predictNs(const AllReduceSample& s) const {
        return m_models.at(std::make_pair(s.ranks, s.nodes)).allReduce(s.bytes).timeNs();
    }

  private:
    std::map<std::pair<int, int>, CollectiveModel> m_models;
};

// Parameter vector (natural logs): LL base, LL hop, busbw, LL128 hop, Simple base, Simple hop.
constexpr std::size_t kParams = 6;

std::vector<double> packParams(const FabricSpec& f) {
    FabricSpec g = f;
    fillDefaultProtocols(g);
    const double ll128Hop = g.protocols[1].hopLatencyNs > 0 ? g.protocols[1].hopLatencyNs : 3 * g.hopLatencyNs;
    auto safeLog = [](double v) { return std::log(std::max(v, 1e-3)); };
    return {safeLog(g.protocols[0].baseLatencyNs), safeLog(g.protocols[0].hopLatencyNs),
            safeLog(g.busbwBytesPerSec),           safeLog(ll128Hop),
            safeLog(g.protocols[2].baseLatencyNs), safeLog(g.protocols[2].hopLatencyNs)};
}

void unpackParams(const std::vector<double>& x, FabricSpec& f) {
    const double llBase = std::exp(x[0]);
    const double llHop = std::exp(x[1]);
    f.baseLatencyNs = llBase;
    f.hopLatencyNs = llHop;
    f.busbwBytesPerSec = std::exp(x[2]);
    f.protocols[0] = ProtocolSpec{llBase, llHop, 0.5};
    f.protocols[1] = f.throughCpu ? ProtocolSpec{} : ProtocolSpec{llBase, std::exp(x[3]), 120.0 / 128.0};
    f.protocols[2] = ProtocolSpec{std::exp(x[4]), std::exp(x[5]), 1.0};
}

std::vector<double> sampleWeights(const std::vector<AllReduceSample>& samples) {
    std::map<std::tuple<int, int, int>, int> counts;
    auto key = [](const AllReduceSample& s) {
        return std::make_tuple(s.ranks, s.nodes, static_cast<int>(std::floor(std::log2(static_cast<double>(s.bytes)))));
    };
    for (const auto& s : samples) ++counts[key(s)];
    std::vector<double> w;
    w.reserve(samples.size());
    for (const auto& s : samples) w.push_back(1.0 / counts[key(s)]);
    return w;
}

double huber(double e) {
    const double a = std::abs(e);
    return a <= kHuberDelta ? e * e : 2 * kHuberDelta * a - kHuberDelta * kHuberDelta;
}

double roundSignificant(double v, int digits) {
    if (v <= 0) return v;
    const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(v))));
    return std::round(v * scale) / scale;
}

}  // namespace

std::vector<AllReduceSample> selectSamples(const std::vector<AllReduceSample>& samples, CalibrationTarget target,
                                           const std::vector<int>& ranks) {
    std::vector<AllReduceSample> out;
    for (const auto& s : samples) {
        const bool multiNode = s.nodes > 1;
        if (multiNode != (target == CalibrationTarget::InterNode)) continue;
        if (!ranks.empty() && std::find(ranks.begin(), ranks.end(), s.ranks) == ranks.end()) continue;
        out.push_back(s);
    }
    return out;
}

Result<CalibrationReport> evaluateFabric(const std::vector<AllReduceSample>& samples, const FabricSpec& intra,
                                         const std::optional<FabricSpec>& inter, double launchIntervalNs) {
    if (samples.empty()) return makeError(ErrorCode::InvalidArgument, "no samples to compare with", "calibration data");
    auto predictor = Predictor::create(samples, intra, inter);
    if (!predictor) return predictor.error();
    std::vector<std::pair<std::uint64_t, double>> all;
    std::map<std::pair<int, int>, std::vector<std::pair<std::uint64_t, double>>> perConfig;
    for (const auto& s : samples) {
        const double launches = (s.gpusPerThread - 1) * launchIntervalNs;
        const double rel = (predictor->predictNs(s) + launches) / s.timeNs - 1.0;
        all.emplace_back(s.bytes, rel);
        perConfig[{s.ranks, s.nodes}].emplace_back(s.bytes, rel);
    }
    auto values = [](const std::vector<std::pair<std::uint64_t, double>>& v) {
        std::vector<double> out;
        out.reserve(v.size());
        for (const auto& p : v) out.push_back(p.second);
        return out;
    };
    CalibrationReport report;
    report.bands = bandStats(all);
    report.overall = stats("all sizes", 0, kMaxBytes, values(all));
    for (const auto& [key, rel] : perConfig) {
        CalibrationReport::Config c;
        c.ranks = key.first;
        c.nodes = key.second;
        c.all = stats("all sizes", 0, kMaxBytes, values(rel));
        c.bands = bandStats(rel);
        report.configs.push_back(std::move(c));
    }
    return report;
}

Result<CalibrationResult> calibrateFabric(const std::vector<AllReduceSample>& input, const CalibrationOptions& o) {
    const bool inter = o.target == CalibrationTarget::InterNode;
    const auto samples = selectSamples(input, o.target, o.ranks);
    if (samples.size() < 4) {
        return makeError(ErrorCode::InvalidArgument,
                         std::string("too few ") + (inter ? "multi-node" : "single-node") +
                             " samples to fit (need 4, have " + std::to_string(samples.size()) + ")",
                         "calibration data");
    }
    if (inter && !o.intra) {
        return makeError(ErrorCode::InvalidArgument, "fitting a network fabric needs the intra-node fabric it ran with",
                         "--intra-fabric");
    }
    // The fit works on copies stripped of their text fields: the objective builds models thousands of times.
    FabricSpec work = o.start;
    work.sources.clear();
    work.scope = inter ? FabricScope::InterNode : FabricScope::IntraNode;
    std::optional<FabricSpec> fixedIntra;
    if (inter) {
        fixedIntra = *o.intra;
        fixedIntra->sources.clear();
    }
    const auto weights = sampleWeights(samples);
    double weightSum = 0;
    for (const double w : weights) weightSum += w;
    bool invalid = false;
    const std::vector<double> prior = packParams(o.start);
    auto objective = [&](const std::vector<double>& x) {
        unpackParams(x, work);
        auto predictor =
            inter ? Predictor::create(samples, *fixedIntra, work) : Predictor::create(samples, work, std::nullopt);
        if (!predictor) {
            invalid = true;
            return 1e300;
        }
        double sum = 0;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            sum += weights[i] * huber(std::log(predictor->predictNs(samples[i]) / samples[i].timeNs));
        }
        double penalty = 0;
        for (std::size_t i = 0; i < kParams; ++i) penalty += (x[i] - prior[i]) * (x[i] - prior[i]);
        return sum / weightSum + kPriorWeight * penalty;
    };
    const auto best = nelderMead(objective, prior, 0.7, o.maxIterations, o.restarts);
    if (invalid) {
        return makeError(ErrorCode::InvalidArgument, "the samples' topology cannot be modelled", "calibration data");
    }

    CalibrationResult result;
    result.fabric = o.start;
    result.fabric.scope = work.scope;
    std::vector<double> rounded = best.x;
    unpackParams(rounded, result.fabric);
    // Three significant digits: the fit is not more precise than that, and the preset file stays readable.
    result.fabric.baseLatencyNs = roundSignificant(result.fabric.baseLatencyNs, 3);
    result.fabric.hopLatencyNs = roundSignificant(result.fabric.hopLatencyNs, 3);
    result.fabric.busbwBytesPerSec = roundSignificant(result.fabric.busbwBytesPerSec, 3);
    for (auto& p : result.fabric.protocols) {
        p.baseLatencyNs = roundSignificant(p.baseLatencyNs, 3);
        p.hopLatencyNs = roundSignificant(p.hopLatencyNs, 3);
    }
    const std::string note = o.sourceNote.empty() ? "tpscope-cli calibrate" : o.sourceNote;
    for (const char* field : {"busbw_bytes_per_sec", "hop_latency_ns", "base_latency_ns", "protocols"}) {
        result.fabric.sources[field] = "fitted: " + note;
    }
    result.samples = samples.size();
    result.objective = best.value;
    TPSCOPE_TRY_ASSIGN(result.report, inter ? evaluateFabric(samples, *o.intra, result.fabric)
                                            : evaluateFabric(samples, result.fabric, std::nullopt));
    return result;
}

}  // namespace tpscope::core::sim
