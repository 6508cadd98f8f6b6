// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/allreduce_measure.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "core/util/statistics.h"
#include "gpu/device_query.h"
#include "gpu/gpu_check.h"
#include "gpu/nccl_loader.h"
#include "gpu/nccl_setup.h"
#include "gpu/owned_comm.h"

namespace tpscope::gpu {

namespace {

core::Result<ncclDataType_t> ncclType(core::Dtype dtype) {
    switch (dtype) {
        case core::Dtype::Fp32:
            return ncclFloat32;
        case core::Dtype::Fp16:
            return ncclFloat16;
        case core::Dtype::Bf16:
            return ncclBfloat16;
        case core::Dtype::Fp64:
            return ncclFloat64;
        case core::Dtype::Int32:
            return ncclInt32;
        case core::Dtype::Int64:
            return ncclInt64;
        case core::Dtype::Int8:
            return ncclInt8;
        default:
            break;
    }
    return core::makeError(core::ErrorCode::Unsupported,
                           "NCCL all-reduce dtype must be fp32, fp16, bf16, fp64, int8, int32 or int64", "--dtype");
}

// One GPU of the sweep, owned by its thread: stream, buffers, events, the blocking communicator.
struct GpuRank {
    int device = 0;
    cudaStream_t stream = nullptr;
    void* send = nullptr;
    void* recv = nullptr;
    cudaEvent_t start = nullptr, end = nullptr;
    ncclComm_t comm = nullptr;
    std::unique_ptr<OwnedComm> owned;
    bool drained = false;

    core::Status allocate(std::uint64_t bytes) {
        TPSCOPE_GPU_CHECK(cudaSetDevice(device));
        TPSCOPE_GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        TPSCOPE_GPU_CHECK(cudaMalloc(&send, bytes));
        TPSCOPE_GPU_CHECK(cudaMalloc(&recv, bytes));
        TPSCOPE_GPU_CHECK(cudaMemset(send, 0, bytes));
        TPSCOPE_GPU_CHECK(cudaEventCreate(&start));
        TPSCOPE_GPU_CHECK(cudaEventCreate(&end));
        return core::Ok{};
    }
    // Polls instead of cudaEventSynchronize: after a peer failed an all-reduce may never end.
    core::Status waitFor(cudaEvent_t event, int timeoutMs) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            const cudaError_t state = cudaEventQuery(event);
            if (state == cudaSuccess) return core::Ok{};
            if (state != cudaErrorNotReady) TPSCOPE_GPU_CHECK(state);
            if (owned) TPSCOPE_TRY(owned->poll("allreduce --measure"));  // NCCL's error or a peer's: abort
            if (std::chrono::steady_clock::now() > deadline) {
                if (owned) owned->abort();
                return core::makeError(core::ErrorCode::DeviceError,
                                       "an all-reduce did not finish within " + std::to_string(timeoutMs) +
                                           " ms on GPU " + std::to_string(device) + "; communicator aborted",
                                       "allreduce --measure");
            }
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }
    // The stream idle, with a deadline (after an abort an all-reduce may never end).
    core::Status waitIdle(int timeoutMs) const {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (stream != nullptr) {
            const cudaError_t state = cudaStreamQuery(stream);
            if (state == cudaSuccess) break;
            if (state != cudaErrorNotReady) TPSCOPE_GPU_CHECK(state);
            if (std::chrono::steady_clock::now() > deadline) {
                return core::makeError(core::ErrorCode::DeviceError,
                                       "GPU " + std::to_string(device) + " still busy " + std::to_string(timeoutMs) +
                                           " ms into the teardown",
                                       "allreduce --measure");
            }
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
        return core::Ok{};
    }
    // Abort first unless every GPU finished; the stream with a deadline; finalize (tearDownRank).
    core::Status tearDown(bool healthy, int timeoutMs) {
        cudaSetDevice(device);
        core::Status synced = core::Ok{};
        core::Status down = tearDownRank(owned.get(), healthy,
                                         [&] {
                                             synced = waitIdle(timeoutMs);
                                             return synced;
                                         },
                                         {});
        drained = synced.ok();
        return down;
    }
    ~GpuRank() {
        owned.reset();         // aborts a communicator still open (this thread owns it)
        if (!drained) return;  // memory an all-reduce may still use is leaked rather than freed under it
        cudaSetDevice(device);
        if (stream != nullptr) cudaStreamDestroy(stream);
        if (send != nullptr) cudaFree(send);
        if (recv != nullptr) cudaFree(recv);
        if (start != nullptr) cudaEventDestroy(start);
        if (end != nullptr) cudaEventDestroy(end);
    }
};

// What the GPU threads share.
struct Sweep {
    Sweep(const MeasuredAllReduceOptions& options, ncclDataType_t t, const ncclUniqueId& i, std::uint64_t bytes)
        : o(options),
          type(t),
          id(i),
          bufferBytes(bytes),
          barrier(options.gpus),
          errors(static_cast<std::size_t>(options.gpus)),
          msBy(options.sizesBytes.size(), std::vector<std::vector<double>>(static_cast<std::size_t>(options.gpus))) {}

    const MeasuredAllReduceOptions& o;
    ncclDataType_t type;
    ncclUniqueId id;
    std::uint64_t bufferBytes;
    PhaseBarrier barrier;
    std::atomic<bool> stop{false};
    std::vector<std::string> errors;                     // per GPU (written by its thread only)
    std::vector<std::vector<std::vector<double>>> msBy;  // [size][gpu][sample]
};

// GPU g's thread: allocate, connect, every size's samples, tear down.
void runGpu(Sweep& w, int g) {
    const auto gi = static_cast<std::size_t>(g);
    const auto fail = [&](const core::Error& e) {
        w.errors[gi] = "GPU " + std::to_string(g) + ": " + e.describe();
        w.stop.store(true);
        w.barrier.abort();
    };
    GpuRank r;
    r.device = g;
    if (auto a = r.allocate(w.bufferBytes); !a) fail(a.error());
    // Every GPU allocated before any enters the blocking init (which waits for all of them).
    if (w.barrier.arriveAndWait()) {
        r.owned = std::make_unique<OwnedComm>("GPU " + std::to_string(g), ncclCommCalls(&r.comm, w.o.gpus, w.id, g, {}),
                                              std::chrono::milliseconds(w.o.hangTimeoutMs), &w.stop);
        if (auto c = r.owned->init(); !c) fail(c.error());
    }
    const auto elem = static_cast<std::uint64_t>(core::dtypeBytes(w.o.dtype));
    for (std::size_t s = 0; s < w.o.sizesBytes.size() && !w.stop.load(); ++s) {
        const std::uint64_t count = std::max<std::uint64_t>(w.o.sizesBytes[s] / elem, 1);
        AllReduceTimingCalls calls;
        calls.recordStart = [&]() -> core::Status {
            TPSCOPE_GPU_CHECK(cudaEventRecord(r.start, r.stream));
            return core::Ok{};
        };
        calls.launch = [&] {
            return r.owned->call("ncclAllReduce", [&] {
                return ncclAllReduce(r.send, r.recv, count, w.type, ncclSum, r.comm, r.stream);
            });
        };
        calls.recordEnd = [&]() -> core::Status {
            TPSCOPE_GPU_CHECK(cudaEventRecord(r.end, r.stream));
            return core::Ok{};
        };
        calls.wait = [&] { return r.waitFor(r.end, w.o.hangTimeoutMs); };
        calls.elapsedMs = [&]() -> core::Result<double> {
            float ms = 0;
            TPSCOPE_GPU_CHECK(cudaEventElapsedTime(&ms, r.start, r.end));
            return static_cast<double>(ms);
        };
        auto elapsed = timeOneGpu(calls, w.o.warmupIterations, w.o.iterations, kAllReduceSamples, w.barrier);
        if (!elapsed) {
            if (!w.stop.load()) fail(elapsed.error());
            break;
        }
        w.msBy[s][gi] = std::move(*elapsed);
    }
    // Every GPU finished (the barrier held): finalize; else abort first.
    const bool healthy = w.barrier.arriveAndWait() && !w.stop.load();
    if (auto down = r.tearDown(healthy, w.o.hangTimeoutMs); !down && w.errors[gi].empty()) fail(down.error());
}

}  // namespace

core::Result<MeasuredAllReduceRow> measuredRow(std::uint64_t count, core::Dtype dtype, int gpus,
                                               std::vector<double> timesUs) {
    MeasuredAllReduceRow row;
    row.count = count;
    row.bytes = count * static_cast<std::uint64_t>(core::dtypeBytes(dtype));
    row.dtype = dtype;
    if (timesUs.empty() || gpus < 1) {
        return core::makeError(core::ErrorCode::InvalidArgument, "no timed iteration", "allreduce --measure");
    }
    row.timeUs = core::median(std::move(timesUs));
    if (!(row.timeUs > 0)) {
        return core::makeError(
            core::ErrorCode::DeviceError,
            "the all-reduce of " + std::to_string(row.bytes) + " bytes timed 0 us: no bandwidth can be derived from it",
            "allreduce --measure");
    }
    row.algbwGBs = static_cast<double>(row.bytes) / (row.timeUs * 1e-6) / 1e9;
    row.busbwGBs = row.algbwGBs * 2.0 * (gpus - 1) / gpus;
    return row;
}

core::Result<std::vector<double>> timeOneGpu(const AllReduceTimingCalls& calls, int warmup, int k, int samples,
                                             PhaseBarrier& barrier) {
    const auto stopped = [] {
        return core::makeError(core::ErrorCode::Cancelled, "stopped because another GPU failed", "allreduce --measure");
    };
    const auto failed = [&](const core::Status& status) {
        barrier.abort();  // the other GPUs stop at their next barrier
        return status.error();
    };
    if (k < 1 || samples < 1 || warmup < 0) {
        barrier.abort();
        return core::makeError(core::ErrorCode::InvalidArgument, "needs >= 1 iteration and >= 1 sample",
                               "allreduce --measure");
    }
    if (!barrier.arriveAndWait()) return stopped();
    for (int i = 0; i < warmup; ++i) {
        if (auto s = calls.launch(); !s) return failed(s);
    }
    // Idle before each sample, so every sample starts alike (not behind the warm-up's queue).
    if (auto s = calls.recordEnd(); !s) return failed(s);
    if (auto s = calls.wait(); !s) return failed(s);
    std::vector<double> elapsed;
    for (int sample = 0; sample < samples; ++sample) {
        if (!barrier.arriveAndWait()) return stopped();  // every GPU's thread starts the sample together
        if (auto s = calls.recordStart(); !s) return failed(s);
        for (int i = 0; i < k; ++i) {
            if (auto s = calls.launch(); !s) return failed(s);
        }
        if (auto s = calls.recordEnd(); !s) return failed(s);
        if (auto s = calls.wait(); !s) return failed(s);
        auto ms = calls.elapsedMs();
        if (!ms) return failed(ms.error());
        elapsed.push_back(*ms);
    }
    return elapsed;
}

std::vector<double> slowestPerSampleUs(const std::vector<std::vector<double>>& elapsedMs, int k) {
    std::vector<double> timesUs;
    for (const auto& gpu : elapsedMs) {
        if (timesUs.size() < gpu.size()) timesUs.resize(gpu.size(), 0.0);
        for (std::size_t s = 0; s < gpu.size(); ++s) timesUs[s] = std::max(timesUs[s], gpu[s] * 1000.0 / k);
    }
    return timesUs;
}

core::Result<std::vector<MeasuredAllReduceRow>> runMeasuredAllReduce(const MeasuredAllReduceOptions& o) {
    if (o.gpus < 1 || o.iterations < 1 || o.warmupIterations < 0 || o.sizesBytes.empty()) {
        return core::makeError(core::ErrorCode::InvalidArgument, "needs >= 1 GPU, >= 1 iteration and at least one size",
                               "allreduce --measure");
    }
    ncclDataType_t type{};
    TPSCOPE_TRY_ASSIGN(type, ncclType(o.dtype));
    prepareNcclEnvironment();
    const auto elem = static_cast<std::uint64_t>(core::dtypeBytes(o.dtype));
    std::vector<DeviceInfo> devices;
    TPSCOPE_TRY_ASSIGN(devices, listDevices());
    if (static_cast<int>(devices.size()) < o.gpus) {
        return core::makeError(
            core::ErrorCode::InvalidArgument,
            std::to_string(o.gpus) + " GPUs requested but this host has " + std::to_string(devices.size()), "--gpus");
    }
    TPSCOPE_TRY(loadNccl());
    ncclUniqueId id{};
    TPSCOPE_GPU_CHECK(ncclGetUniqueId(&id));
    const std::uint64_t maxBytes = *std::max_element(o.sizesBytes.begin(), o.sizesBytes.end());
    Sweep w(o, type, id, std::max<std::uint64_t>(maxBytes, elem));
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(o.gpus));
    for (int g = 0; g < o.gpus; ++g) threads.emplace_back(runGpu, std::ref(w), g);
    for (auto& t : threads) t.join();
    // The first failure that is not another GPU's consequence.
    std::string error;
    for (const auto& e : w.errors) {
        if (!e.empty() && (error.empty() || error.find("another GPU failed") != std::string::npos)) error = e;
    }
    if (!error.empty()) return core::makeError(core::ErrorCode::DeviceError, error, "allreduce --measure");
    std::vector<MeasuredAllReduceRow> rows;
    for (std::size_t s = 0; s < o.sizesBytes.size(); ++s) {
        const std::uint64_t count = std::max<std::uint64_t>(o.sizesBytes[s] / elem, 1);
        MeasuredAllReduceRow row;
        TPSCOPE_TRY_ASSIGN(row, measuredRow(count, o.dtype, o.gpus, slowestPerSampleUs(w.msBy[s], o.iterations)));
        rows.push_back(row);
    }
    return rows;
}

}  // namespace tpscope::gpu
