// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/cupti_decoder.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>

namespace tpscope::gpu {

namespace {

std::uint64_t key(std::uint32_t high, std::uint32_t low) {
    return (static_cast<std::uint64_t>(high) << 32) | low;
}

bool validTimes(std::uint64_t start, std::uint64_t end) {
    return start != 0 && end >= start && end <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

std::string demangle(const char* mangled) {
    if (mangled == nullptr || *mangled == '\0') return "<unnamed kernel>";
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return status == 0 && out ? std::string(out.get()) : std::string(mangled);
}

core::CopyKind copyKind(std::uint8_t cuptiKind) {
    switch (cuptiKind) {
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
            return core::CopyKind::HostToDevice;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
            return core::CopyKind::DeviceToHost;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
            return core::CopyKind::DeviceToDevice;
        case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
            return core::CopyKind::PeerToPeer;
        default:
            return core::CopyKind::Unknown;
    }
}

std::string_view copyName(core::CopyKind kind) {
    switch (kind) {
        case core::CopyKind::HostToDevice:
            return "Memcpy HtoD";
        case core::CopyKind::DeviceToHost:
            return "Memcpy DtoH";
        case core::CopyKind::DeviceToDevice:
            return "Memcpy DtoD";
        case core::CopyKind::PeerToPeer:
            return "Memcpy PtoP";
        case core::CopyKind::Unknown:
            break;
    }
    return "Memcpy";
}

}  // namespace

CuptiDecoder::CuptiDecoder(const core::KernelClassifier& classifier) : m_classifier(classifier) {}

void CuptiDecoder::mapDevice(std::uint32_t deviceId, core::RankId rank) {
    m_deviceRanks[deviceId] = rank;
}

void CuptiDecoder::labelStream(std::uint32_t deviceId, std::uint32_t streamId, std::string label) {
    m_streamLabels[key(deviceId, streamId)] = std::move(label);
}

void CuptiDecoder::setPlan(const core::DecodePlan& plan) {
    m_ops = plan.ops;
    m_tp = static_cast<std::uint32_t>(plan.config.tp);
    m_batch = static_cast<std::uint32_t>(plan.config.batch);
    m_dtype = plan.config.dtype;
}

void CuptiDecoder::tagGraphNode(std::uint64_t graphNodeId, std::uint32_t opIndex, std::uint32_t rows) {
    m_graphNodeOps[graphNodeId] = encodeOpTag(0, opIndex, rows);
}

void CuptiDecoder::aliasGraphNode(std::uint64_t clonedNodeId, std::uint64_t originalNodeId) {
    if (clonedNodeId != originalNodeId) m_graphNodeAlias[clonedNodeId] = originalNodeId;
}

void CuptiDecoder::addRecord(const CUpti_Activity& record) {
    switch (record.kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            addKernel(reinterpret_cast<const KernelRecord&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            addMemcpy(reinterpret_cast<const MemcpyRecord&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_MEMSET:
            addMemset(reinterpret_cast<const MemsetRecord&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_MARKER:
            addMarker(reinterpret_cast<const MarkerRecord&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER: {
            const auto& api = reinterpret_cast<const ApiRecord&>(record);
            ++m_stats.runtimeCalls;
            m_apiByThread[key(api.processId, api.threadId)].push_back(
                {static_cast<std::int64_t>(api.start), api.correlationId});
            break;
        }
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const auto& ext = reinterpret_cast<const ExternalCorrelationRecord&>(record);
            ++m_stats.externalCorrelations;
            if (ext.externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) {
                m_externalIds[ext.correlationId] = ext.externalId;
            }
            break;
        }
        default:
            ++m_stats.otherRecords;
            break;
    }
}

const CuptiDecoder::KernelName& CuptiDecoder::kernelName(const char* mangled) {
    const std::string raw = mangled == nullptr ? std::string() : std::string(mangled);
    auto it = m_kernelNames.find(raw);
    if (it != m_kernelNames.end()) return it->second;
    const std::string readable = demangle(mangled);
    KernelName kn{m_trace.intern(readable), m_classifier.classify(readable)};
    return m_kernelNames.emplace(raw, kn).first->second;
}

void CuptiDecoder::addKernel(const KernelRecord& k) {
    ++m_stats.kernels;
    if (!validTimes(k.start, k.end)) {
        ++m_stats.invalidTimestamps;
        return;
    }
    const KernelName& kn = kernelName(k.name);
    GpuRecord r{k.deviceId,
                k.streamId,
                static_cast<std::int64_t>(k.start),
                static_cast<std::int64_t>(k.end),
                kn.name,
                kn.cls.kind,
                k.correlationId,
                k.graphNodeId,
                core::kNoPayload};
    if (kn.cls.kind == core::EventKind::Collective) {
        core::CollectivePayload c = kn.cls.collective;
        c.groupSize = m_tp;
        r.payload = m_trace.intern(core::Payload::of(c));
    }
    m_gpu.push_back(r);
}

void CuptiDecoder::addMemcpy(const MemcpyRecord& m) {
    ++m_stats.memcpys;
    if (!validTimes(m.start, m.end)) {
        ++m_stats.invalidTimestamps;
        return;
    }
    const core::CopyKind kind = copyKind(m.copyKind);
    m_gpu.push_back({m.deviceId, m.streamId, static_cast<std::int64_t>(m.start), static_cast<std::int64_t>(m.end),
                     m_trace.intern(copyName(kind)), core::EventKind::Memcpy, m.correlationId, m.graphNodeId,
                     m_trace.intern(core::Payload::of(core::CopyPayload{kind, m.bytes}))});
}

void CuptiDecoder::addMemset(const MemsetRecord& m) {
    ++m_stats.memsets;
    if (!validTimes(m.start, m.end)) {
        ++m_stats.invalidTimestamps;
        return;
    }
    m_gpu.push_back({m.deviceId, m.streamId, static_cast<std::int64_t>(m.start), static_cast<std::int64_t>(m.end),
                     m_trace.intern("Memset"), core::EventKind::Memset, m.correlationId, m.graphNodeId,
                     m_trace.intern(core::Payload::of(core::CopyPayload{core::CopyKind::Unknown, m.bytes}))});
}

void CuptiDecoder::addMarker(const MarkerRecord& m) {
    ++m_stats.markers;
    const auto flags = static_cast<std::uint32_t>(m.flags);
    const bool isStart = (flags & CUPTI_ACTIVITY_FLAG_MARKER_START) != 0;
    const bool isEnd = (flags & CUPTI_ACTIVITY_FLAG_MARKER_END) != 0;
    if (!isStart && !isEnd) return;  // instantaneous marks and sync markers carry no interval
    // The runner's ranges are in NVTX's default domain (no name). NCCL opens its own domain "NCCL"
    // once NVTX injection is on; the end half may come without the domain, so the id is remembered.
    const bool foreign = m.domain != nullptr && *m.domain != '\0';
    if (foreign || m_foreignMarkerIds.count(m.id) != 0) {
        // An end half that came first, without the domain, was kept as ours: it is foreign too.
        if (foreign && m_foreignMarkerIds.insert(m.id).second) m_stats.foreignMarkers += m_markers.erase(m.id);
        ++m_stats.foreignMarkers;
        return;
    }
    MarkerHalf& half = m_markers[m.id];
    const std::uint64_t thread =
        m.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? key(m.objectId.pt.processId, m.objectId.pt.threadId) : 0;
    if (isStart) {
        half.startNs = static_cast<std::int64_t>(m.timestamp);
        half.threadKey = thread;  // the pushing thread owns the range; an end may come from another
        half.name = m_trace.intern(m.name == nullptr ? std::string_view() : std::string_view(m.name));
    } else {
        half.endNs = static_cast<std::int64_t>(m.timestamp);
        if (half.startNs < 0) half.threadKey = thread;
    }
}

core::RankId CuptiDecoder::rankOf(std::uint32_t deviceId) const {
    const auto it = m_deviceRanks.find(deviceId);
    return it != m_deviceRanks.end() ? it->second : core::RankId(deviceId);
}

std::optional<std::uint64_t> CuptiDecoder::opTagOf(const GpuRecord& r) const {
    std::optional<std::uint64_t> tag;
    if (r.graphNodeId != 0) {
        std::uint64_t node = r.graphNodeId;
        if (const auto alias = m_graphNodeAlias.find(node); alias != m_graphNodeAlias.end()) node = alias->second;
        if (const auto t = m_graphNodeOps.find(node); t != m_graphNodeOps.end()) tag = t->second;
    } else if (const auto ext = m_externalIds.find(r.correlationId); ext != m_externalIds.end()) {
        tag = ext->second;
    }
    if (tag && opIndexOfTag(*tag) >= m_ops.size()) return std::nullopt;
    return tag;
}

core::PayloadId CuptiDecoder::opPayload(const core::PlanOp& op, core::PayloadId fromRecord, std::uint32_t rows) {
    // A half of overlap mode's split: its rows of the batch, not the whole op's.
    const bool half = rows > 0 && m_batch > 0 && rows < m_batch;
    if (op.eventKind == core::EventKind::Gemm) {
        core::GemmPayload g = op.gemm;
        if (half) g.m = rows;
        return m_trace.intern(core::Payload::of(g));
    }
    if (op.eventKind != core::EventKind::Collective) return fromRecord;
    const core::Payload named = m_trace.payload(fromRecord);  // a copy: interning may reallocate
    core::CollectivePayload c =
        named.kind == core::PayloadKind::Collective ? named.collective : core::CollectivePayload{};
    if (c.op == core::CollectiveOp::Unknown) c.op = op.collective;
    if (c.dtype == core::Dtype::Unknown) c.dtype = m_dtype;
    c.groupSize = m_tp;
    c.bytes = half ? op.messageBytes / m_batch * rows : op.messageBytes;
    return m_trace.intern(core::Payload::of(c));
}

}  // namespace tpscope::gpu
