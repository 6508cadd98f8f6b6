// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// DecodeRunner's CUDA graph mode: one eager step, then the step captured once (thread-local stream
// capture) with every op's nodes tagged for CUPTI, instantiated and uploaded; step() replays it.

#include "gpu/decode_runner_impl.h"
#include "gpu/gpu_check.h"
#include "gpu/graph_node_tags.h"

namespace tpscope::gpu {

core::Status DecodeRunner::prepareGraph() {
    TPSCOPE_GPU_CHECK(cudaSetDevice(m_config.device));
    if (m_config.graph && m_impl->graphExec == nullptr) TPSCOPE_TRY(captureGraph(0));
    return core::Ok{};
}

// The nodes this op added to the graph being captured: the set difference with every node seen so
// far (cudaGraphGetNodes does not promise creation order; graph_node_tags.h).
core::Status DecodeRunner::tagNewGraphNodes(std::size_t opIndex, int rows) {
    cudaStreamCaptureStatus captureStatus = cudaStreamCaptureStatusNone;
    cudaGraph_t graph = nullptr;
    TPSCOPE_GPU_CHECK(cudaStreamGetCaptureInfo(m_compute, &captureStatus, nullptr, &graph));
    std::size_t count = 0;
    TPSCOPE_GPU_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    if (count == m_impl->taggedNodes.size()) return core::Ok{};
    std::vector<cudaGraphNode_t> nodes(count);
    TPSCOPE_GPU_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
    nodes.resize(count);
    for (cudaGraphNode_t node : takeNewNodes(nodes, m_impl->taggedNodes)) {
        m_config.hooks.tagGraphNode(node, static_cast<std::uint32_t>(opIndex), static_cast<std::uint32_t>(rows));
    }
    return core::Ok{};
}

core::Status DecodeRunner::captureGraph(int index) {
    Impl& d = *m_impl;
    // One eager step first: NCCL connects its peers at a communicator's first collectives, which
    // must not happen inside a stream capture (and cuBLAS picks its kernels outside it too).
    TPSCOPE_TRY(enqueueStep(index, false, false));
    TPSCOPE_GPU_CHECK(cudaEventRecord(d.stepEnd, m_compute));
    TPSCOPE_TRY(waitForStep());
    // Thread-local mode: every GPU thread captures its own graph at the same time.
    TPSCOPE_GPU_CHECK(cudaStreamBeginCapture(m_compute, cudaStreamCaptureModeThreadLocal));
    d.taggedNodes.clear();
    const core::Status enqueued = enqueueStep(index, false, true);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(m_compute, &graph);
    if (!enqueued) {
        if (graph != nullptr) cudaGraphDestroy(graph);
        return enqueued;
    }
    TPSCOPE_GPU_CHECK(ended);
    d.graph = graph;
    TPSCOPE_GPU_CHECK(cudaGraphInstantiate(&d.graphExec, graph, 0));
    TPSCOPE_GPU_CHECK(cudaGraphUpload(d.graphExec, m_compute));
    return core::Ok{};
}

}  // namespace tpscope::gpu
