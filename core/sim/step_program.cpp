// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/step_program.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

#include "core/sim/all_to_all_model.h"
#include "core/sim/moe_kernel_names.h"
#include "core/sim/op_time_fit.h"
#include "core/util/units.h"

namespace tpscope::core::sim {

namespace {

struct Segment {
    std::size_t first = 0;
    std::size_t last = 0;  // one past the end; the last op is a collective unless the plan ended
    bool inLayer = false;
};

// Runs of ops that end with a collective: the unit the overlap mode pipelines.
std::vector<Segment> segments(const DecodePlan& plan) {
    std::vector<Segment> out;
    std::size_t begin = 0;
    for (std::size_t i = 0; i < plan.ops.size(); ++i) {
        if (plan.ops[i].isCollective() || i + 1 == plan.ops.size()) {
            out.push_back({begin, i + 1, plan.ops[begin].layer >= 0});
            begin = i + 1;
        }
    }
    return out;
}

class ProgramBuilder {
  public:
    ProgramBuilder(StepProgram& program, const GpuSpec& gpu, const CollectiveModel& collectives,
                   const SimParams& params, Trace& trace)
        : m_p(program), m_gpu(gpu), m_coll(collectives), m_params(params), m_trace(trace), m_arch(gpuArch(gpu)) {}

    // Emits plan `planIndex`'s ops [seg.first, seg.last); the first compute op waits for `waits`.
    // Returns the index of the segment's collective instruction, or -1.
    int emit(const Segment& seg, std::size_t planIndex, const std::array<int, 2>& waits) {
        const DecodePlan& plan = m_p.plans[planIndex];
        int lastCompute = -1;
        int collective = -1;
        bool waited = false;
        for (std::size_t k = seg.first; k < seg.last; ++k) {
            const PlanOp& op = plan.ops[k];
            StepInstr in;
            in.op = &op;
            in.collective = op.isCollective();
            in.kind = op.eventKind;
            if (in.collective) {
                describeCollective(in, op, plan);
                in.onComm = m_params.overlap;
                in.dataDep = lastCompute;
                collective = static_cast<int>(m_p.instrs.size());
                ++m_p.commInstrs;
            } else {
                describeCompute(in, op, plan);
                if (m_params.overlap && !waited) {
                    in.waitFor[0] = waits[0];
                    in.waitFor[1] = waits[1] != waits[0] ? waits[1] : -1;
                    waited = true;
                }
                lastCompute = static_cast<int>(m_p.instrs.size());
                ++m_p.computeInstrs;
            }
            m_p.instrs.push_back(in);
        }
        return collective;
    }

  private:
    NameId name(const std::string& text) {
        auto it = m_names.find(text);
        if (it != m_names.end()) return it->second;
        const NameId id = m_trace.intern(text);
        m_names.emplace(text, id);
        return id;
    }

    void addNote(std::string note) {
        if (std::find(m_p.notes.begin(), m_p.notes.end(), note) == m_p.notes.end()) {
            m_p.notes.push_back(std::move(note));
        }
    }

    void describeCompute(StepInstr& in, const PlanOp& op, const DecodePlan& plan) {
        const KernelCost cost = kernelCost(op, m_gpu, plan.config.dtype, m_params);
        in.baseNs = cost.timeNs();
        if (cost.fittedNs && !m_fitNoted) {
            // Every output that uses a GPU without per-op measurements says so.
            m_fitNoted = true;
            if (const auto model = opTimeModel(m_gpu); model && model->derived) {
                addNote("kernel times on " + m_gpu.id + ": " + model->description());
            }
        }
        in.memoryBound = cost.memoryBound();
        const std::string moe = moeKernelName(op, plan.config, m_arch);
        in.name = name(moe.empty() ? computeKernelName(op, m_arch, plan.config.dtype, plan.config.model.headDim) : moe);
        if (op.eventKind == EventKind::Gemm) in.payload = m_trace.intern(Payload::of(op.gemm));
    }

    void describeCollective(StepInstr& in, const PlanOp& op, const DecodePlan& plan) {
        CollectiveEstimate e;
        if (op.collective == CollectiveOp::AllGather) {
            e = m_coll.allGather(op.messageBytes);
        } else if (op.collective == CollectiveOp::AllToAll) {
            e = allToAll(m_coll, op.messageBytes);
        } else {
            EngineChoice choice = engineAllReduce(m_coll, op.messageBytes, m_params.allReduceEngine);
            e = choice.estimate;
            if (!choice.fallback.empty()) {
                addNote(std::string(toString(m_params.allReduceEngine)) + " fell back to NCCL (" +
                        formatBytes(static_cast<double>(op.messageBytes)) + "): " + choice.fallback);
            }
        }
        in.baseNs = e.timeNs();
        in.allReduce = op.collective == CollectiveOp::AllReduce;
        if (in.allReduce && op.layer >= 0 && !m_p.layerAllReduce.valid()) m_p.layerAllReduce = e;
        const double seconds = e.timeNs() * 1e-9;
        if (seconds > 0 && m_gpu.hbmBytesPerSec > 0) {
            const double hbmRate = m_params.ncclHbmBytesPerWireByte * static_cast<double>(op.wireBytesPerGpu) / seconds;
            in.hbmShare = std::clamp(hbmRate / m_gpu.hbmBytesPerSec, 0.0, 0.9);
        }
        const std::string a2a = moeKernelName(op, plan.config, m_arch);
        in.name = name(a2a.empty() ? collectiveKernelName(op.collective, e.algo, e.proto, plan.config.dtype) : a2a);
        CollectivePayload c;
        c.op = op.collective;
        c.algo = e.algo;
        c.proto = e.proto;
        c.dtype = plan.config.dtype;
        c.groupSize = static_cast<std::uint32_t>(plan.config.tp);
        c.communicator = m_trace.intern("tp");
        // nccl-tests "size": an all-gather's is the gathered output (every rank's shard), as the
        // Kineto importer reads it from "Out msg nelems".
        c.bytes = op.collective == CollectiveOp::AllGather
                      ? op.messageBytes * static_cast<std::uint64_t>(plan.config.tp)
                      : op.messageBytes;
        in.payload = m_trace.intern(Payload::of(c));
    }

    StepProgram& m_p;
    const GpuSpec& m_gpu;
    const CollectiveModel& m_coll;
    const SimParams& m_params;
    Trace& m_trace;
    GpuArch m_arch;
    bool m_fitNoted = false;
    std::unordered_map<std::string, NameId> m_names;
};

void markRanges(StepProgram& p) {
    int lastLayer = -1;
    int lastMlpLayer = -1;
    bool epilogue = false;
    for (auto& in : p.instrs) {
        if (in.collective) continue;
        const PlanOp& op = *in.op;
        if (op.layer >= 0 && op.layer != lastLayer) {
            in.firstOfLayer = true;
            lastLayer = op.layer;
        }
        if (op.layer >= 0 && op.block == OpBlock::Mlp && op.layer != lastMlpLayer) {
            in.firstOfMlp = true;
            lastMlpLayer = op.layer;
        }
        if (op.block == OpBlock::Epilogue && !epilogue) {
            in.firstOfEpilogue = true;
            epilogue = true;
        }
    }
}

}  // namespace

Result<StepProgram> buildStepProgram(DecodePlan wholePlan, const GpuSpec& gpu, const CollectiveModel& collectives,
                                     const SimParams& params, Trace& trace) {
    StepProgram p;
    const int batch = wholePlan.config.batch;
    p.split = params.overlap && batch >= 2 && wholePlan.config.tp > 1;
    p.plans.reserve(3);  // StepInstr::op points into these: no reallocation after this line
    p.plans.push_back(std::move(wholePlan));
    if (p.split) {
        for (const int half : {(batch + 1) / 2, batch / 2}) {
            PlanConfig c = p.plans[0].config;
            c.batch = half;
            auto plan = buildDecodePlan(c);
            if (!plan) return plan.error();
            p.plans.push_back(std::move(*plan));
        }
    }
    ProgramBuilder builder(p, gpu, collectives, params, trace);
    std::array<int, 2> last{-1, -1};
    for (const Segment& seg : segments(p.plans[0])) {
        if (p.split && seg.inLayer) {
            for (int half = 0; half < 2; ++half) {
                const std::array<int, 2> waits{last[half], -1};
                const int c = builder.emit(seg, static_cast<std::size_t>(half) + 1, waits);
                if (c >= 0) last[half] = c;
            }
        } else {
            const int c = builder.emit(seg, 0, last);
            if (c >= 0) last[0] = last[1] = c;
        }
    }
    markRanges(p);
    return p;
}

}  // namespace tpscope::core::sim
