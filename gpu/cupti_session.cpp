// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/cupti_session.h"

#include <dlfcn.h>

#include <cstdlib>

#include "gpu/cupti_version.h"
#include "gpu/gpu_check.h"

namespace tpscope::gpu {

namespace {

// CUPTI's buffer callbacks carry no user pointer: the one session of the process.
std::atomic<CuptiSession*> g_session{nullptr};

const CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_MARKER,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    // NCCL launches its kernels through the driver API: its calls carry their correlation ids.
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

// Records CUPTI lost for want of buffer space; reading resets the count. context null, stream 0: the
// global queue (records not tied to a context: runtime/driver calls, markers, external ids).
std::size_t takeDroppedRecords(CUcontext context, std::uint32_t streamId) {
    std::size_t dropped = 0;
    return cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) == CUPTI_SUCCESS ? dropped : 0;
}

}  // namespace

BufferWalk walkActivityBuffer(const std::function<CUptiResult(CUpti_Activity**)>& next) {
    BufferWalk walk;
    CUpti_Activity* record = nullptr;
    CUptiResult status = CUPTI_SUCCESS;
    while ((status = next(&record)) == CUPTI_SUCCESS) walk.records.push_back(record);
    walk.incomplete = status != CUPTI_ERROR_MAX_LIMIT_REACHED;
    return walk;
}

core::Status CuptiSession::checkVersion() {
    std::uint32_t library = 0;
    TPSCOPE_GPU_CHECK(cuptiGetVersion(&library));
    const std::uint32_t header = CUPTI_API_VERSION;
    const CuptiLibraryCheck check = checkCuptiLibrary(header, library);
    if (!check.accepted) {
        return core::makeError(core::ErrorCode::Unsupported,
                               "the CUPTI library loaded (" + describeCuptiVersion(library) + ") is " + check.reason +
                                   "; tpscope was built with the CUPTI headers " + describeCuptiVersion(header) +
                                   ". Point LD_LIBRARY_PATH at a CUPTI of the same major release and at least that "
                                   "minor (the bundle of gpu-check.sh --bundle carries one)",
                               "CUPTI version check");
    }
    return core::Ok{};
}

std::int64_t CuptiSession::timestampNs() {
    std::uint64_t ts = 0;
    cuptiGetTimestamp(&ts);
    return static_cast<std::int64_t>(ts);
}

core::Result<std::unique_ptr<CuptiSession>> CuptiSession::start(const CuptiSessionConfig& config) {
    if (config.bufferBytes < 64 * 1024 || config.maxBytes < config.bufferBytes) {
        return core::makeError(core::ErrorCode::InvalidArgument, "CUPTI buffers must be >= 64 KiB and fit the maximum",
                               "CuptiSession");
    }
    CuptiSession* expected = nullptr;
    std::unique_ptr<CuptiSession> session(new CuptiSession());
    if (!g_session.compare_exchange_strong(expected, session.get())) {
        return core::makeError(core::ErrorCode::Internal, "a CUPTI session is already running", "CuptiSession");
    }
    if (auto status = session->setUp(config); !status) return status.error();  // the destructor releases g_session
    return session;
}

core::Status CuptiSession::setUp(const CuptiSessionConfig& config) {
    m_config = config;
    m_buffers = std::make_unique<ActivityBuffers>(config.bufferBytes, config.maxBytes);
    TPSCOPE_TRY(checkVersion());

    // NVTX reaches CUPTI only through its injection library, named before the first NVTX call.
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr) {
        const char* existing = std::getenv("NVTX_INJECTION64_PATH");
        if (existing == nullptr || *existing == '\0') {
            setenv("NVTX_INJECTION64_PATH", info.dli_fname, 1);
        } else if (std::string(existing) != info.dli_fname) {
            m_warnings.push_back(std::string("NVTX_INJECTION64_PATH is already ") + existing +
                                 ": NVTX ranges go to that tool, not to this capture");
        }
    } else {
        m_warnings.emplace_back("could not locate the loaded libcupti: NVTX ranges will be missing");
    }

    TPSCOPE_GPU_CHECK(cuptiActivityRegisterCallbacks(&CuptiSession::bufferRequested, &CuptiSession::bufferCompleted));
    // Cloned graph nodes (graph instantiation) -> originals, for kernel attribution in graph mode.
    // Only one CUPTI subscriber may exist per process; without it graph kernels keep their step only.
    if (cuptiSubscribe(&m_subscriber, &CuptiSession::resourceCallback, this) == CUPTI_SUCCESS) {
        TPSCOPE_GPU_CHECK(
            cuptiEnableCallback(1, m_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED));
    } else {
        m_subscriber = nullptr;
        m_warnings.emplace_back("another CUPTI subscriber is active: graph kernels are attributed to their step only");
    }
    return core::Ok{};
}

CuptiSession::~CuptiSession() {
    if (g_session.load() == this) {
        if (m_enabled) (void)flush();
        if (m_subscriber != nullptr) cuptiUnsubscribe(m_subscriber);
        g_session.store(nullptr);
    }
}

core::Status CuptiSession::enable() {
    for (const CUpti_ActivityKind kind : kKinds) TPSCOPE_GPU_CHECK(cuptiActivityEnable(kind));
    m_enabled = true;
    return core::Ok{};
}

core::Status CuptiSession::flush() {
    TPSCOPE_GPU_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    for (const CUpti_ActivityKind kind : kKinds) TPSCOPE_GPU_CHECK(cuptiActivityDisable(kind));
    m_enabled = false;
    TPSCOPE_GPU_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    // Losses of the global queue since its last completed buffer (a refused buffer completes none).
    const std::size_t dropped = takeDroppedRecords(nullptr, 0);
    withDecoder([&](CuptiDecoder& d) { d.addDroppedRecords(dropped); });
    return core::Ok{};
}

void CuptiSession::pushOpTag(std::uint64_t tag) {
    cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, tag);
}

void CuptiSession::popOpTag() {
    std::uint64_t last = 0;
    cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
}

void CuptiSession::tagGraphNode(cudaGraphNode_t node, std::uint32_t opIndex, std::uint32_t rows) {
    std::uint64_t id = 0;
    if (cuptiGetGraphNodeId(node, &id) != CUPTI_SUCCESS) return;
    withDecoder([&](CuptiDecoder& d) { d.tagGraphNode(id, opIndex, rows); });
}

core::Result<std::uint32_t> CuptiSession::streamId(cudaStream_t stream) const {
    std::uint32_t id = 0;
    TPSCOPE_GPU_CHECK(cuptiGetStreamIdEx(nullptr, stream, 0, &id));
    return id;
}

void CuptiSession::bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords) {
    *buffer = nullptr;
    *size = 0;
    *maxNumRecords = 0;
    CuptiSession* s = g_session.load();
    if (s == nullptr || !s->m_buffers) return;
    *buffer = s->m_buffers->take();  // null beyond maxBytes: CUPTI drops those records and counts them
    if (*buffer != nullptr) *size = s->m_config.bufferBytes;
}

void CuptiSession::bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t,
                                   std::size_t validSize) {
    CuptiSession* s = g_session.load();
    if (s != nullptr && buffer != nullptr) {
        // Lock order: CUPTI may hold its own locks when it calls back into the session (graph node
        // clones), so the session never calls CUPTI while holding m_mutex: walk first, decode after.
        const BufferWalk walk = walkActivityBuffer(
            [&](CUpti_Activity** record) { return cuptiActivityGetNextRecord(buffer, validSize, record); });
        // Both queues: this buffer's (context, stream) and the global one.
        std::size_t dropped = takeDroppedRecords(context, streamId);
        if (context != nullptr || streamId != 0) dropped += takeDroppedRecords(nullptr, 0);
        std::lock_guard<std::mutex> lock(s->m_mutex);
        for (const CUpti_Activity* r : walk.records) s->m_decoder.addRecord(*r);
        s->m_decoder.addDroppedRecords(dropped);
        if (walk.incomplete) s->m_decoder.addIncompleteRecords(1);
    }
    // Possibly a buffer of an earlier session of this process: freed, not taken off this one's count.
    ActivityBuffers::giveBack(s != nullptr ? s->m_buffers.get() : nullptr, buffer);
}

void CuptiSession::resourceCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    const void* data) {
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || cbid != CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED || data == nullptr) return;
    auto* session = static_cast<CuptiSession*>(userdata);
    const auto* resource = static_cast<const CUpti_ResourceData*>(data);
    const auto* graph = static_cast<const CUpti_GraphData*>(resource->resourceDescriptor);
    std::uint64_t clone = 0, original = 0;
    if (graph == nullptr || cuptiGetGraphNodeId(graph->node, &clone) != CUPTI_SUCCESS ||
        cuptiGetGraphNodeId(graph->originalNode, &original) != CUPTI_SUCCESS) {
        return;
    }
    session->withDecoder([&](CuptiDecoder& d) { d.aliasGraphNode(clone, original); });
}

}  // namespace tpscope::gpu
