#include "ui/standin/plan_trace_preview.h"

#include <algorithm>
#include <random>

#include "core/hw/memory_fit.h"
#include "core/workload/decode_plan.h"

namespace tpscope::ui {

namespace {

constexpr std::int64_t kMinKernelNs = 2'000;
constexpr std::int64_t kEagerLaunchGapNs = 2'500;
constexpr std::int64_t kGraphLaunchGapNs = 300;
constexpr std::int64_t kHostGapBetweenStepsNs = 40'000;  // sampling + scheduling on the host
constexpr double kHostStallProbability = 0.004;
constexpr double kHostStallNs = 40'000;
constexpr core::StreamId kComputeStream{7};
constexpr core::StreamId kNcclStream{13};

std::string kernelName(const core::PlanOp& op) {
    using core::OpKind;
    switch (op.kind) {
        case OpKind::Embedding:
            return "indexSelectLargeIndex";
        case OpKind::InputNorm:
        case OpKind::PostAttnNorm:
        case OpKind::FinalNorm:
            return "rms_norm_kernel";
        case OpKind::Attention:
            return "flash_fwd_splitkv_kernel";
        case OpKind::SiluMul:
            return "act_and_mul_kernel<silu>";
        case OpKind::QkvGemm:
        case OpKind::GateUpGemm:
        case OpKind::LmHeadGemm:
            return "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x64x64_cublas";
        case OpKind::OProjGemm:
        case OpKind::DownGemm:
            return "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize64x64x128_splitk_cublas";
        case OpKind::AttnAllReduce:
        case OpKind::MlpAllReduce:
        case OpKind::EmbeddingAllReduce:
            return "ncclDevKernel_AllReduce_Sum_f16_RING_LL";
        case OpKind::LogitsAllGather:
            return "ncclDevKernel_AllGather_RING_LL";
    }
    return "kernel";
}

double computeTimeNs(const core::PlanOp& op, const core::GpuSpec& gpu, core::Dtype dtype) {
    const double peak = gpu.peakFlops(dtype) > 0 ? gpu.peakFlops(dtype) : gpu.fp16Flops;
    const double flopsNs = peak > 0 ? op.flops / peak * 1e9 : 0;
    const double bytesNs =
        gpu.hbmBytesPerSec > 0 ? static_cast<double>(op.bytesRead + op.bytesWritten) / gpu.hbmBytesPerSec * 1e9 : 0;
    return std::max({flopsNs, bytesNs, static_cast<double>(kMinKernelNs)});
}

double collectiveTimeNs(const core::PlanOp& op, const core::FabricSpec& fabric, int tp) {
    const double wireNs =
        fabric.busbwBytesPerSec > 0 ? static_cast<double>(op.wireBytesPerGpu) / fabric.busbwBytesPerSec * 1e9 : 0;
    return fabric.baseLatencyNs + 2.0 * (tp - 1) * fabric.hopLatencyNs + wireNs;
}

struct RankClock {
    std::int64_t nowNs = 0;
    double slowness = 1.0;  // a persistently slower GPU (clocks, thermals)
};

class Builder {
  public:
    Builder(const RunRequest& request, const core::DecodePlan& plan)
        : m_req(request), m_plan(plan), m_rng(request.seed), m_ranks(static_cast<std::size_t>(request.tp)) {
        std::uniform_real_distribution<double> slow(0.0, 0.03);
        for (auto& r : m_ranks) r.slowness = 1.0 + slow(m_rng);
        m_trace = std::make_shared<core::Trace>();
        for (int r = 0; r < request.tp; ++r) {
            auto& rank = m_trace->rank(core::RankId{static_cast<std::uint32_t>(r)});
            rank.host = "sim-node" + std::to_string(r / std::max(1, request.gpusPerNode));
            rank.deviceIndex = r % std::max(1, request.gpusPerNode);
            rank.deviceName = request.gpu.name;
            rank.stream(kComputeStream, "compute");
            if (request.tp > 1) rank.stream(kNcclStream, "nccl");
        }
    }

    void step(int s) {
        const std::int64_t gap = m_req.cudaGraphs ? kGraphLaunchGapNs : kEagerLaunchGapNs;
        std::vector<std::int64_t> stepStart(m_ranks.size());
        for (std::size_t r = 0; r < m_ranks.size(); ++r) stepStart[r] = m_ranks[r].nowNs;
        std::vector<std::int64_t> layerStart(m_ranks.size()), blockStart(m_ranks.size());
        for (std::size_t i = 0; i < m_plan.ops.size(); ++i) {
            const auto& op = m_plan.ops[i];
            const bool opensLayer = op.layer >= 0 && (i == 0 || m_plan.ops[i - 1].layer != op.layer);
            const bool opensBlock = i == 0 || m_plan.ops[i - 1].block != op.block || opensLayer;
            for (std::size_t r = 0; r < m_ranks.size(); ++r) {
                m_ranks[r].nowNs += gap + launchJitterNs(gap);
                if (opensLayer) layerStart[r] = m_ranks[r].nowNs;
                if (opensBlock) blockStart[r] = m_ranks[r].nowNs;
            }
            if (op.isCollective()) {
                if (m_req.tp > 1) collective(op);
            } else {
                for (std::size_t r = 0; r < m_ranks.size(); ++r) compute(op, r);
            }
            const bool closesBlock = i + 1 == m_plan.ops.size() || m_plan.ops[i + 1].block != op.block ||
                                     m_plan.ops[i + 1].layer != op.layer;
            const bool closesLayer =
                op.layer >= 0 && (i + 1 == m_plan.ops.size() || m_plan.ops[i + 1].layer != op.layer);
            for (std::size_t r = 0; r < m_ranks.size(); ++r) {
                if (closesBlock && op.layer >= 0) addRange(r, blockStart[r], std::string(core::toString(op.block)), 2);
                if (closesBlock && op.layer < 0) addRange(r, blockStart[r], std::string(core::toString(op.block)), 1);
                if (closesLayer) addRange(r, layerStart[r], "layer " + std::to_string(op.layer), 1);
            }
        }
        for (std::size_t r = 0; r < m_ranks.size(); ++r) {
            addRange(r, stepStart[r], "step " + std::to_string(s), 0);
            m_ranks[r].nowNs += kHostGapBetweenStepsNs;
        }
    }

    std::shared_ptr<const core::Trace> finish() {
        m_trace->origin = core::TraceOrigin::Simulated;
        m_trace->source = "simulated " + m_req.gpu.id + " x" + std::to_string(m_req.tp) + " " + m_req.fabric.id;
        m_trace->metadata = {{"generator", "tpscope ui stand-in (decode plan + roofline); core::sim replaces it"},
                             {"model", m_req.model.id},
                             {"gpu", m_req.gpu.id},
                             {"fabric", m_req.fabric.id},
                             {"tp", std::to_string(m_req.tp)},
                             {"batch", std::to_string(m_req.batch)},
                             {"context", std::to_string(m_req.contextLen)},
                             {"dtype", std::string(core::toString(m_req.dtype))},
                             {"cuda_graphs", m_req.cudaGraphs ? "1" : "0"},
                             {"overlap", m_req.overlap ? "requested (not modelled by the stand-in)" : "0"}};
        m_trace->finalize();
        return m_trace;
    }

  private:
    core::Stream& stream(std::size_t r, core::StreamId id) { return m_trace->ranks[r].stream(id); }

    // Host-side launch jitter: mostly a fraction of the gap, now and then a stall of a few tens of
    // microseconds (GC, page fault, scheduler) that the other ranks then wait for.
    std::int64_t launchJitterNs(std::int64_t gap) {
        std::exponential_distribution<double> jitter(1.0 / (0.3 * static_cast<double>(gap)));
        std::uniform_real_distribution<double> u(0.0, 1.0);
        auto ns = static_cast<std::int64_t>(jitter(m_rng));
        if (!m_req.cudaGraphs && u(m_rng) < kHostStallProbability)
            ns += static_cast<std::int64_t>(u(m_rng) * kHostStallNs);
        return ns;
    }

    void addRange(std::size_t r, std::int64_t start, const std::string& name, std::uint8_t depth) {
        m_trace->ranks[r].ranges.push_back({start, m_ranks[r].nowNs, m_trace->intern(name), depth});
    }

    void compute(const core::PlanOp& op, std::size_t r) {
        std::normal_distribution<double> jitter(1.0, 0.03);
        const double ns =
            computeTimeNs(op, m_req.gpu, m_req.dtype) * m_ranks[r].slowness * std::max(0.8, jitter(m_rng));
        const auto dur = static_cast<std::int64_t>(ns);
        const core::PayloadId payload =
            op.eventKind == core::EventKind::Gemm ? m_trace->intern(core::Payload::of(op.gemm)) : core::kNoPayload;
        stream(r, kComputeStream)
            .events.append(
                {m_ranks[r].nowNs, dur, m_trace->intern(kernelName(op)), op.eventKind, m_correlation++, payload});
        m_ranks[r].nowNs += dur;
    }

    void collective(const core::PlanOp& op) {
        std::int64_t lastArrival = 0;
        for (const auto& r : m_ranks) lastArrival = std::max(lastArrival, r.nowNs);
        const auto transfer = static_cast<std::int64_t>(collectiveTimeNs(op, m_req.fabric, m_req.tp));
        core::CollectivePayload p;
        p.op = op.collective;
        p.algo = core::CollectiveAlgo::Ring;
        p.proto = core::CollectiveProto::LL;
        p.dtype = m_req.dtype;
        p.groupSize = static_cast<std::uint32_t>(m_req.tp);
        p.communicator = m_trace->intern("tp");
        p.bytes = op.messageBytes;
        const core::PayloadId payload = m_trace->intern(core::Payload::of(p));
        const core::NameId name = m_trace->intern(kernelName(op));
        std::uniform_int_distribution<std::int64_t> tail(0, 400);
        for (std::size_t r = 0; r < m_ranks.size(); ++r) {
            const std::int64_t end = lastArrival + transfer + tail(m_rng);
            stream(r, kNcclStream)
                .events.append({m_ranks[r].nowNs, end - m_ranks[r].nowNs, name, core::EventKind::Collective,
                                m_correlation++, payload});
            m_ranks[r].nowNs = end;
        }
    }

    const RunRequest& m_req;
    const core::DecodePlan& m_plan;
    std::mt19937_64 m_rng;
    std::vector<RankClock> m_ranks;
    std::shared_ptr<core::Trace> m_trace;
    std::uint32_t m_correlation = 1;
};

}  // namespace

core::Result<std::shared_ptr<const core::Trace>> previewDecodeTrace(const RunRequest& request,
                                                                    const ProgressFn& progress,
                                                                    const CancelFlag& cancel) {
    if (request.tokens < 1) return core::makeError(core::ErrorCode::InvalidArgument, "tokens must be at least 1");
    if (request.tp > request.nodes * request.gpusPerNode) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "TP " + std::to_string(request.tp) + " needs more GPUs than the cluster has (" +
                                   std::to_string(request.nodes * request.gpusPerNode) + ")");
    }
    core::DecodePlan plan;
    TPSCOPE_TRY_ASSIGN(plan, core::buildDecodePlan(core::PlanConfig{request.model, request.tp, request.batch,
                                                                    request.contextLen, request.dtype}));
    const core::FitReport fit = core::checkFit(plan.memory, request.gpu);
    if (!fit.fits) return core::makeError(core::ErrorCode::DoesNotFit, fit.describe(request.gpu.name));
    Builder builder(request, plan);
    for (int s = 0; s < request.tokens; ++s) {
        if (cancel.load(std::memory_order_relaxed)) return core::makeError(core::ErrorCode::Cancelled, "run cancelled");
        builder.step(s);
        if (progress) progress(static_cast<double>(s + 1) / request.tokens);
    }
    return builder.finish();
}

}  // namespace tpscope::ui
