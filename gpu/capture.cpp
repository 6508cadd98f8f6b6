// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// runCapture: join the launch (alone, or as one of the processes of mpirun/srun), agree on the
// GPUs, share the NCCL id (only at TP >= 2), agree on the clocks, capture this process's ranks,
// gather everything on process 0 and merge it onto one timeline.

#include "gpu/capture.h"

#include <nccl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <thread>

#include "gpu/cupti_decoder.h"
#include "gpu/cupti_session.h"
#include "gpu/decode_runner.h"
#include "gpu/device_query.h"
#include "gpu/gpu_check.h"
#include "gpu/launch_env.h"
#include "gpu/trace_merge.h"
#include "gpu/trace_wire.h"
#if TPSCOPE_HAVE_MPI
#include "gpu/mpi/mpi_context.h"
#else
#define TPSCOPE_HAVE_MPI 0
#endif

namespace tpscope::gpu {

namespace {

constexpr int kClockRounds = 16;

std::uint64_t fnv1a(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ULL;
    return h;
}

std::string localHostName() {
    char name[256] = {};
    return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("localhost");
}

// This process's place in the launch.
struct Launch {
    int processes = 1;
    int processRank = 0;
    int localRank = 0;
    std::string host = localHostName();
#if TPSCOPE_HAVE_MPI
    std::unique_ptr<MpiContext> mpi;
#endif
    // True on every process when `mine` is true on every process.
    core::Result<bool> everyone(bool mine) const {
#if TPSCOPE_HAVE_MPI
        if (mpi) return mpi->allTrue(mine);
#endif
        return mine;
    }
};

core::Result<Launch> joinLaunch(const CaptureOptions& o) {
    Launch launch;
    const EnvLookup env = [](const char* name) -> const char* { return std::getenv(name); };
    if (auto refused = unusableLaunch(env, TPSCOPE_HAVE_MPI != 0)) {
        return core::makeError(core::ErrorCode::Unsupported, *refused, "capture");
    }
#if TPSCOPE_HAVE_MPI
    if (hasProcessManager(env)) {
        TPSCOPE_TRY_ASSIGN(launch.mpi, MpiContext::init());
        launch.processes = launch.mpi->size();
        launch.processRank = launch.mpi->rank();
        launch.localRank = launch.mpi->localRank();
        if (o.cpuTest && o.cpuTestHostPerProcess) {
            launch.mpi->setHostName(launch.mpi->host() + "/p" + std::to_string(launch.mpi->rank()));
        }
        launch.host = launch.mpi->host();
    }
#else
    (void)o;
#endif
    return launch;
}

core::Result<LocalRanks> localGpus(const CaptureOptions& o, const Launch& launch) {
    int visible = 1 << 20;  // the cpu test drives no device
    if (!o.cpuTest) {
        auto devices = listDevices();
        if (!devices) return devices.error();
        visible = static_cast<int>(devices->size());
    }
    return assignLocalGpus(o.tp, launch.processes, launch.processRank, launch.localRank, visible);
}

// Every process must agree before NCCL is initialised, or the others would wait for it forever.
core::Result<LocalRanks> agreeOnGpus(const CaptureOptions& o, const Launch& launch) {
    auto local = localGpus(o, launch);
    bool allOk = false;
    TPSCOPE_TRY_ASSIGN(allOk, launch.everyone(local.ok()));
    if (!local) return local.error();
    if (!allOk) {
        return core::makeError(core::ErrorCode::DeviceError, "another process could not start (see its message)",
                               "launch");
    }
    return local;
}

// Process 0 makes the id and broadcasts it; an empty id tells the others that process 0 failed.
core::Result<std::vector<std::uint8_t>> shareLaunchId(const CaptureOptions& o, const Launch& launch) {
    std::vector<std::uint8_t> id;
    std::string idError;
    if (launch.processRank == 0) {
        auto made = makeLaunchId(o);
        if (made) {
            id = std::move(*made);
        } else {
            idError = made.error().describe();
        }
    }
#if TPSCOPE_HAVE_MPI
    if (launch.mpi) TPSCOPE_TRY(launch.mpi->broadcast(id));
#endif
    if (o.tp > 1 && id.size() != NCCL_UNIQUE_ID_BYTES) {
        return core::makeError(core::ErrorCode::DeviceError,
                               idError.empty() ? "process 0 could not create the NCCL unique id" : idError, "launch");
    }
    if (!idError.empty()) return core::makeError(core::ErrorCode::DeviceError, idError, "launch");
    return id;
}

// The clock of every CUPTI record, or (cpu test) a steady clock process p runs p x skew ahead.
std::function<std::int64_t()> captureClock(const CaptureOptions& o, const Launch& launch) {
    if (!o.cpuTest) return [] { return CuptiSession::timestampNs(); };
    const std::int64_t skewNs = o.cpuTestSkewNs * launch.processRank;
    return [skewNs]() -> std::int64_t {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                   .count() +
               skewNs;
    };
}

core::Result<std::vector<std::int64_t>> agreeOnClocks(const Launch& launch,
                                                      const std::function<std::int64_t()>& clockNs) {
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(launch.processes), 0);
#if TPSCOPE_HAVE_MPI
    if (launch.mpi) TPSCOPE_TRY_ASSIGN(offsets, launch.mpi->clockOffsets(clockNs, kClockRounds));
#else
    (void)clockNs;
    (void)kClockRounds;
#endif
    return offsets;
}

// Every process's part on process 0 (empty elsewhere).
core::Result<std::vector<ProcessTrace>> gatherParts(const Launch& launch, ProcessTrace mine) {
    std::vector<ProcessTrace> parts;
#if TPSCOPE_HAVE_MPI
    if (launch.mpi) {
        std::vector<std::vector<std::uint8_t>> all;
        TPSCOPE_TRY_ASSIGN(all, launch.mpi->gather(serializeProcessTrace(mine)));
        for (const auto& bytes : all) {
            ProcessTrace p;
            TPSCOPE_TRY_ASSIGN(p, deserializeProcessTrace(bytes));
            parts.push_back(std::move(p));
        }
        return parts;
    }
#else
    (void)launch;
#endif
    parts.push_back(std::move(mine));
    return parts;
}

void addLaunchMetadata(core::Trace& t, const CaptureOptions& o) {
    const auto put = [&t](std::string k, std::string v) { t.metadata.emplace_back(std::move(k), std::move(v)); };
    // The simulator's keys (core/sim) where they mean the same, so analysis reads both alike.
    put("model", o.model.id);
    put("tp", std::to_string(o.tp));
    put("batch", std::to_string(o.batch));
    put("tokens", std::to_string(o.tokens));
    put("context", std::to_string(o.contextLen));
    put("dtype", std::string(core::toString(o.dtype)));
    put("overlap", o.overlap ? "true" : "false");
    put("graph", o.graph ? "true" : "false");
    put("warmup_steps", std::to_string(o.warmupSteps));
    put("cupti", o.collect ? "true" : "false");
    put("capture.mode", o.cpuTest ? "cpu-test (synthetic events)" : "gpu");
    t.source = std::string(o.cpuTest ? "cpu-test capture " : "capture ") + o.model.id + " tp" + std::to_string(o.tp) +
               " batch" + std::to_string(o.batch);
}

// The cpu test of failure propagation: the failing process announces its failure as a GPU capture's
// main thread does, and every other process polls for it as that thread does while its GPUs run.
std::string cpuTestFailure(const CaptureOptions& o, int processRank, const LaunchLink& link) {
    if (processRank == o.cpuTestFailProcess) {
        if (link.announceFailure) link.announceFailure();
        return "cpu test: injected failure";
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.hangTimeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        if (link.peerFailed && link.peerFailed()) return "stopped because another rank failed (another process)";
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return "no failure announcement arrived within " + std::to_string(o.hangTimeoutMs) + " ms";
}

core::Status validate(const CaptureOptions& o) {
    const auto positive = [](int v, const char* what) -> core::Status {
        if (v <= 0) {
            return core::makeError(core::ErrorCode::InvalidArgument, std::string(what) + " must be positive", what);
        }
        return core::Ok{};
    };
    TPSCOPE_TRY(positive(o.tp, "--tp"));
    TPSCOPE_TRY(positive(o.batch, "--batch"));
    TPSCOPE_TRY(positive(o.tokens, "--tokens"));
    TPSCOPE_TRY(positive(o.contextLen, "--context"));
    if (o.warmupSteps < 0) return core::makeError(core::ErrorCode::InvalidArgument, "must not be negative", "--warmup");
    if (o.overlap && o.batch > 2 * static_cast<int>(kMaxTaggedRows)) {  // a half's rows ride in its op tag
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "--overlap takes at most " + std::to_string(2 * kMaxTaggedRows) + " sequences",
                               "--batch");
    }
    if (o.dtype != core::Dtype::Fp16 && o.dtype != core::Dtype::Bf16) {
        return core::makeError(core::ErrorCode::Unsupported, "the GPU runner computes in fp16 or bf16", "--dtype");
    }
    if (o.model.isMoe() || o.model.isMla()) {
        return core::makeError(core::ErrorCode::Unsupported,
                               "the GPU runner decodes dense models only; " + o.model.id + " is " + o.model.kindLabel(),
                               "--model");
    }
    return core::Ok{};
}

}  // namespace

core::Result<LocalRanks> assignLocalGpus(int tp, int processes, int processRank, int localRank, int visibleDevices) {
    if (processes < 1 || tp % processes != 0) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "tp " + std::to_string(tp) + " is not a multiple of the " + std::to_string(processes) +
                                   " launched processes (each process drives tp / processes GPUs)",
                               "--tp");
    }
    const int perProcess = tp / processes;
    LocalRanks local;
    local.tp = tp;
    local.firstRank = processRank * perProcess;
    int first = localRank * perProcess;
    // A launcher that gives each process only its own GPUs (srun --gpus-per-task, a per-rank
    // CUDA_VISIBLE_DEVICES) leaves exactly perProcess visible, numbered from 0.
    if (processes > 1 && visibleDevices == perProcess) first = 0;
    if (first + perProcess > visibleDevices) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "tp " + std::to_string(tp) + " needs " + std::to_string(first + perProcess) +
                                   " GPUs on this host (one NCCL rank per GPU) but it has " +
                                   std::to_string(visibleDevices),
                               "--tp");
    }
    for (int i = 0; i < perProcess; ++i) local.devices.push_back(first + i);
    return local;
}

core::Result<std::vector<std::uint8_t>> makeLaunchId(const CaptureOptions& o) {
    // TP 1 has no communicator: no NCCL call at all. (ncclGetUniqueId starts NCCL's bootstrap, a
    // listening socket and a thread that outlive the capture, and fails without a usable network.)
    if (o.tp <= 1) return std::vector<std::uint8_t>{};
    if (o.cpuTest) {
        std::vector<std::uint8_t> id(NCCL_UNIQUE_ID_BYTES);
        std::random_device rd;  // any bytes will do: the test checks every process got the same
        for (auto& b : id) b = static_cast<std::uint8_t>(rd());
        return id;
    }
    return makeNcclUniqueId();
}

core::Result<CaptureReport> runCapture(const CaptureOptions& o) {
    TPSCOPE_TRY(validate(o));
    core::DecodePlan plan;
    TPSCOPE_TRY_ASSIGN(plan, core::buildDecodePlan({o.model, o.tp, o.batch, o.contextLen, o.dtype}));
    CaptureReport report;
    report.bytesPerStepPerGpu = plan.bytesReadPerStep + plan.bytesWrittenPerStep;
    report.weightBytesPerGpu = plan.memory.weightBytesPerGpu;
    report.streamedWeightBytesPerGpu = plan.memory.streamedWeightBytesPerGpu();
    report.kvCacheBytesPerGpu = plan.memory.kvCacheBytesPerGpu;
    report.planOpsPerStep = static_cast<int>(plan.ops.size());
    report.planCollectivesPerStep = plan.collectivesPerStep;
    report.layers = static_cast<int>(o.model.layers);

    Launch launch;
    TPSCOPE_TRY_ASSIGN(launch, joinLaunch(o));
    report.processes = launch.processes;
    report.processRank = launch.processRank;
    report.writesOutput = launch.processRank == 0;
    LocalRanks local;
    TPSCOPE_TRY_ASSIGN(local, agreeOnGpus(o, launch));
    std::vector<std::uint8_t> id;
    TPSCOPE_TRY_ASSIGN(id, shareLaunchId(o, launch));
    const auto clockNs = captureClock(o, launch);
    std::vector<std::int64_t> offsets;
    TPSCOPE_TRY_ASSIGN(offsets, agreeOnClocks(launch, clockNs));

    LaunchLink link;
#if TPSCOPE_HAVE_MPI
    if (launch.mpi) {
        MpiContext* mpi = launch.mpi.get();
        link.everyone = [mpi](bool mine) {
            auto all = mpi->allTrue(mine);
            return all && *all;
        };
        link.announceFailure = [mpi] { mpi->announceFailure(); };
        link.peerFailed = [mpi] { return mpi->peerFailed(); };
    }
#endif
    LocalCapture part =
        o.cpuTest ? synthesizeLocalRanks(plan, local, o.tokens, clockNs()) : captureLocalGpus(o, plan, local, id, link);
    if (o.cpuTest && o.cpuTestFailProcess >= 0) part.error = cpuTestFailure(o, launch.processRank, link);
    report.stepNs = part.stepNs;
    for (core::Rank& r : part.trace.ranks) r.host = launch.host;
    ProcessTrace mine{launch.processRank, launch.host, offsets[static_cast<std::size_t>(launch.processRank)],
                      part.error,         fnv1a(id),   std::move(part.trace)};
    const std::string myError = mine.error;
    std::vector<ProcessTrace> parts;
    TPSCOPE_TRY_ASSIGN(parts, gatherParts(launch, std::move(mine)));
    if (!report.writesOutput) {
        report.failure = myError;
        return report;
    }
    for (const ProcessTrace& p : parts) {
        if (!p.error.empty() && report.failure.empty()) {
            report.failure = "process " + std::to_string(p.process) + ": " + p.error;
        }
    }
    report.clockOffsetsNs = offsets;
    TPSCOPE_TRY_ASSIGN(report.trace, mergeProcessTraces(std::move(parts)));
    addLaunchMetadata(report.trace, o);
    return report;
}

}  // namespace tpscope::gpu
