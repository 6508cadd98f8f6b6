// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/allreduce_measure.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/util/statistics.h"
#include "gpu/device_query.h"
#include "gpu/gpu_check.h"
#include "gpu/nccl_loader.h"
#include "gpu/nccl_setup.h"

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

// Communicators, streams, buffers and events of every GPU; released (or aborted) on scope exit.
struct Devices {
    std::vector<ncclComm_t> comms;
    std::vector<cudaStream_t> streams;
    std::vector<void*> sendBuffers, recvBuffers;
    std::vector<cudaEvent_t> starts, ends;
    bool abortComms = false;
    ~Devices() {
        for (std::size_t i = 0; i < comms.size(); ++i) {
            if (comms[i] == nullptr) continue;
            if (abortComms) {
                ncclCommAbort(comms[i]);
            } else {
                ncclCommDestroy(comms[i]);
            }
        }
        for (std::size_t i = 0; i < streams.size(); ++i) {
            cudaSetDevice(static_cast<int>(i));
            if (streams[i] != nullptr) cudaStreamDestroy(streams[i]);
            if (i < sendBuffers.size() && sendBuffers[i] != nullptr) cudaFree(sendBuffers[i]);
            if (i < recvBuffers.size() && recvBuffers[i] != nullptr) cudaFree(recvBuffers[i]);
            if (i < starts.size() && starts[i] != nullptr) cudaEventDestroy(starts[i]);
            if (i < ends.size() && ends[i] != nullptr) cudaEventDestroy(ends[i]);
        }
    }
};

// Waits for every GPU's end event, watching NCCL errors and the deadline.
core::Status waitAll(Devices& d, int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (std::size_t i = 0; i < d.ends.size();) {
        const cudaError_t state = cudaEventQuery(d.ends[i]);
        if (state == cudaSuccess) {
            ++i;
            continue;
        }
        if (state != cudaErrorNotReady) TPSCOPE_GPU_CHECK(state);
        ncclResult_t async = ncclSuccess;
        TPSCOPE_GPU_CHECK(ncclCommGetAsyncError(d.comms[i], &async));
        if (async != ncclSuccess && async != ncclInProgress) {
            d.abortComms = true;
            TPSCOPE_GPU_CHECK(async);
        }
        if (std::chrono::steady_clock::now() > deadline) {
            d.abortComms = true;
            return core::makeError(
                core::ErrorCode::DeviceError,
                "an all-reduce did not finish within " + std::to_string(timeoutMs) + " ms; communicators aborted",
                "allreduce --measure");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    return core::Ok{};
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

core::Result<std::vector<double>> timeBackToBack(const AllReduceTimingCalls& calls, int warmup, int k, int samples) {
    if (k < 1 || samples < 1 || warmup < 0) {
        return core::makeError(core::ErrorCode::InvalidArgument, "needs >= 1 iteration and >= 1 sample",
                               "allreduce --measure");
    }
    for (int w = 0; w < warmup; ++w) TPSCOPE_TRY(calls.launchAll());
    // Idle GPUs before each sample, so every sample starts alike (not behind the warm-up's queue).
    TPSCOPE_TRY(calls.recordEnds());
    TPSCOPE_TRY(calls.waitAll());
    std::vector<double> timesUs;
    for (int s = 0; s < samples; ++s) {
        TPSCOPE_TRY(calls.recordStarts());
        for (int i = 0; i < k; ++i) TPSCOPE_TRY(calls.launchAll());
        TPSCOPE_TRY(calls.recordEnds());
        TPSCOPE_TRY(calls.waitAll());
        std::vector<double> elapsed;
        TPSCOPE_TRY_ASSIGN(elapsed, calls.elapsedMs());
        const double slowestMs = elapsed.empty() ? 0.0 : *std::max_element(elapsed.begin(), elapsed.end());
        timesUs.push_back(slowestMs * 1000.0 / k);
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
    const std::uint64_t maxBytes = *std::max_element(o.sizesBytes.begin(), o.sizesBytes.end());

    Devices d;
    const auto n = static_cast<std::size_t>(o.gpus);
    d.comms.assign(n, nullptr);
    d.streams.assign(n, nullptr);
    d.sendBuffers.assign(n, nullptr);
    d.recvBuffers.assign(n, nullptr);
    d.starts.assign(n, nullptr);
    d.ends.assign(n, nullptr);
    std::vector<int> list(n);
    for (std::size_t i = 0; i < n; ++i) list[i] = static_cast<int>(i);
    // ncclCommInitAll's equivalent, but with the config: blocking whatever NCCL_COMM_BLOCKING says
    // (a non-blocking communicator returns ncclInProgress and launches from a thread of its own).
    TPSCOPE_TRY(loadNccl());
    ncclUniqueId id{};
    TPSCOPE_GPU_CHECK(ncclGetUniqueId(&id));
    TPSCOPE_GPU_CHECK(ncclGroupStart());
    for (std::size_t i = 0; i < n; ++i) {
        ncclConfig_t config = blockingCommConfig();
        TPSCOPE_GPU_CHECK(cudaSetDevice(list[i]));
        TPSCOPE_GPU_CHECK(ncclCommInitRankConfig(&d.comms[i], o.gpus, id, static_cast<int>(i), &config));
    }
    TPSCOPE_GPU_CHECK(ncclGroupEnd());
    for (std::size_t i = 0; i < n; ++i) {
        TPSCOPE_GPU_CHECK(cudaSetDevice(list[i]));
        TPSCOPE_GPU_CHECK(cudaStreamCreateWithFlags(&d.streams[i], cudaStreamNonBlocking));
        const std::uint64_t bytes = std::max<std::uint64_t>(maxBytes, elem);
        TPSCOPE_GPU_CHECK(cudaMalloc(&d.sendBuffers[i], bytes));
        TPSCOPE_GPU_CHECK(cudaMalloc(&d.recvBuffers[i], bytes));
        TPSCOPE_GPU_CHECK(cudaMemset(d.sendBuffers[i], 0, bytes));
        TPSCOPE_GPU_CHECK(cudaEventCreate(&d.starts[i]));
        TPSCOPE_GPU_CHECK(cudaEventCreate(&d.ends[i]));
    }

    const auto recordAll = [&](std::vector<cudaEvent_t>& events) -> core::Status {
        for (std::size_t i = 0; i < n; ++i) {
            TPSCOPE_GPU_CHECK(cudaSetDevice(list[i]));
            TPSCOPE_GPU_CHECK(cudaEventRecord(events[i], d.streams[i]));
        }
        return core::Ok{};
    };
    std::vector<MeasuredAllReduceRow> rows;
    for (const std::uint64_t size : o.sizesBytes) {
        const std::uint64_t count = std::max<std::uint64_t>(size / elem, 1);
        AllReduceTimingCalls calls;
        calls.recordStarts = [&] { return recordAll(d.starts); };
        calls.recordEnds = [&] { return recordAll(d.ends); };
        calls.launchAll = [&]() -> core::Status {
            TPSCOPE_GPU_CHECK(ncclGroupStart());
            for (std::size_t i = 0; i < n; ++i) {
                TPSCOPE_GPU_CHECK(
                    ncclAllReduce(d.sendBuffers[i], d.recvBuffers[i], count, type, ncclSum, d.comms[i], d.streams[i]));
            }
            TPSCOPE_GPU_CHECK(ncclGroupEnd());
            return core::Ok{};
        };
        calls.waitAll = [&] { return waitAll(d, o.hangTimeoutMs); };
        calls.elapsedMs = [&]() -> core::Result<std::vector<double>> {
            std::vector<double> ms(n);
            for (std::size_t i = 0; i < n; ++i) {
                float m = 0;
                TPSCOPE_GPU_CHECK(cudaEventElapsedTime(&m, d.starts[i], d.ends[i]));
                ms[i] = static_cast<double>(m);
            }
            return ms;
        };
        std::vector<double> timesUs;
        TPSCOPE_TRY_ASSIGN(timesUs, timeBackToBack(calls, o.warmupIterations, o.iterations, kAllReduceSamples));
        MeasuredAllReduceRow row;
        TPSCOPE_TRY_ASSIGN(row, measuredRow(count, o.dtype, o.gpus, std::move(timesUs)));
        rows.push_back(row);
    }
    return rows;
}

}  // namespace tpscope::gpu
