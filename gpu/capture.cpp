#include "gpu/capture.h"

#include <nccl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>

#include "gpu/cupti_session.h"
#include "gpu/decode_runner.h"
#include "gpu/device_query.h"
#include "gpu/gpu_check.h"
#include "gpu/trace_merge.h"
#include "gpu/trace_wire.h"
#if TPSCOPE_HAVE_MPI
#include "gpu/mpi/mpi_context.h"
#endif

namespace tpscope::gpu {

namespace {

constexpr int kClockRounds = 16;

std::uint64_t fnv1a(const std::vector<std::uint8_t>& bytes) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ULL;
    return h;
}

core::Result<std::vector<std::uint8_t>> makeLaunchId(bool cpuTest) {
    std::vector<std::uint8_t> id(NCCL_UNIQUE_ID_BYTES);
    if (cpuTest) {
        std::random_device rd;  // any bytes will do: the test checks every process got the same
        for (auto& b : id) b = static_cast<std::uint8_t>(rd());
        return id;
    }
    return makeNcclUniqueId();
}

std::string localHostName() {
    char name[256] = {};
    return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("localhost");
}

// Which GPUs this process drives: all tp of them alone, or tp / processes from its local rank.
core::Result<LocalRanks> assignGpus(const CaptureOptions& o, int processes, int processRank, int localRank) {
    if (o.tp % processes != 0) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "tp " + std::to_string(o.tp) + " is not a multiple of the " + std::to_string(processes) +
                                   " launched processes (each process drives tp / processes GPUs)",
                               "--tp");
    }
    const int perProcess = o.tp / processes;
    LocalRanks local;
    local.tp = o.tp;
    local.firstRank = processRank * perProcess;
    int available = 1 << 20;
    if (!o.cpuTest) {
        auto devices = listDevices();
        if (!devices) return devices.error();
        available = static_cast<int>(devices->size());
    }
    const int first = localRank * perProcess;
    if (first + perProcess > available) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "tp " + std::to_string(o.tp) + " needs " + std::to_string(first + perProcess) +
                                   " GPUs on this host (one NCCL rank per GPU) but it has " + std::to_string(available),
                               "--tp");
    }
    for (int i = 0; i < perProcess; ++i) local.devices.push_back(first + i);
    return local;
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

core::Status validate(const CaptureOptions& o) {
    const auto positive = [](int v, const char* what) -> core::Status {
        if (v <= 0)
            return core::makeError(core::ErrorCode::InvalidArgument, std::string(what) + " must be positive", what);
        return core::Ok{};
    };
    TPSCOPE_TRY(positive(o.tp, "--tp"));
    TPSCOPE_TRY(positive(o.batch, "--batch"));
    TPSCOPE_TRY(positive(o.tokens, "--tokens"));
    TPSCOPE_TRY(positive(o.contextLen, "--context"));
    if (o.warmupSteps < 0) return core::makeError(core::ErrorCode::InvalidArgument, "must not be negative", "--warmup");
    if (o.dtype != core::Dtype::Fp16 && o.dtype != core::Dtype::Bf16) {
        return core::makeError(core::ErrorCode::Unsupported, "the GPU runner computes in fp16 or bf16", "--dtype");
    }
    return core::Ok{};
}

}  // namespace

core::Result<CaptureReport> runCapture(const CaptureOptions& o) {
    TPSCOPE_TRY(validate(o));
    core::DecodePlan plan;
    TPSCOPE_TRY_ASSIGN(plan, core::buildDecodePlan({o.model, o.tp, o.batch, o.contextLen, o.dtype}));

    CaptureReport report;
    report.bytesPerStepPerGpu = plan.bytesReadPerStep + plan.bytesWrittenPerStep;
    report.weightBytesPerGpu = plan.memory.weightBytesPerGpu;
    int localRank = 0;
    std::string host = localHostName();
#if TPSCOPE_HAVE_MPI
    std::unique_ptr<MpiContext> mpi;
    if (MpiContext::launchedByLauncher()) {
        TPSCOPE_TRY_ASSIGN(mpi, MpiContext::init());
        report.processes = mpi->size();
        report.processRank = mpi->rank();
        localRank = mpi->localRank();
        if (o.cpuTest && o.cpuTestHostPerProcess) mpi->setHostName(mpi->host() + "/p" + std::to_string(mpi->rank()));
        host = mpi->host();
    }
    const auto everyone = [&mpi](bool mine) -> core::Result<bool> { return mpi ? mpi->allTrue(mine) : mine; };
#else
    // Several processes of a build without MPI would each drive the same GPUs and write one file.
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
        const char* size = std::getenv(var);
        if (size != nullptr && std::atoi(size) > 1) {
            return core::makeError(core::ErrorCode::Unsupported,
                                   "launched as one of several processes, but this tpscope-cli was built without MPI; "
                                   "run one process (it drives all --tp GPUs of this host)",
                                   "capture");
        }
    }
    const auto everyone = [](bool mine) -> core::Result<bool> { return mine; };
#endif
    report.writesOutput = report.processRank == 0;

    // Every process must agree before NCCL is initialised, or the others would wait for it forever.
    auto local = assignGpus(o, report.processes, report.processRank, localRank);
    bool allOk = false;
    TPSCOPE_TRY_ASSIGN(allOk, everyone(local.ok()));
    if (!local) return local.error();
    if (!allOk)
        return core::makeError(core::ErrorCode::DeviceError, "another process could not start (see its message)",
                               "launch");

    std::vector<std::uint8_t> id;
    std::string idError;
    if (report.processRank == 0) {
        auto made = makeLaunchId(o.cpuTest);
        if (made)
            id = std::move(*made);
        else
            idError = made.error().describe();
    }
#if TPSCOPE_HAVE_MPI
    if (mpi) TPSCOPE_TRY(mpi->broadcast(id));  // an empty id tells the others that process 0 failed
#endif
    if (id.size() != NCCL_UNIQUE_ID_BYTES) {
        return core::makeError(core::ErrorCode::DeviceError,
                               idError.empty() ? "process 0 could not create the NCCL unique id" : idError, "launch");
    }

    const std::int64_t skewNs = o.cpuTest ? o.cpuTestSkewNs * report.processRank : 0;
    const std::function<std::int64_t()> clockNs = [&o, skewNs]() -> std::int64_t {
        if (o.cpuTest) {
            return std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count() +
                   skewNs;
        }
        return CuptiSession::timestampNs();  // the clock of every CUPTI record
    };
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(report.processes), 0);
#if TPSCOPE_HAVE_MPI
    if (mpi) TPSCOPE_TRY_ASSIGN(offsets, mpi->clockOffsets(clockNs, kClockRounds));
#endif

    LocalCapture part =
        o.cpuTest ? synthesizeLocalRanks(plan, *local, o.tokens, clockNs()) : captureLocalGpus(o, plan, *local, id);
    report.stepNs = part.stepNs;
    for (core::Rank& r : part.trace.ranks) r.host = host;
    ProcessTrace mine{report.processRank, host,      offsets[static_cast<std::size_t>(report.processRank)],
                      part.error,         fnv1a(id), std::move(part.trace)};

    std::vector<ProcessTrace> parts;
#if TPSCOPE_HAVE_MPI
    if (mpi) {
        std::vector<std::vector<std::uint8_t>> all;
        TPSCOPE_TRY_ASSIGN(all, mpi->gather(serializeProcessTrace(mine)));
        for (const auto& bytes : all) {
            ProcessTrace p;
            TPSCOPE_TRY_ASSIGN(p, deserializeProcessTrace(bytes));
            parts.push_back(std::move(p));
        }
        if (!report.writesOutput) {
            report.failure = mine.error;
            return report;
        }
    }
#endif
    if (parts.empty()) parts.push_back(std::move(mine));
    for (const ProcessTrace& p : parts) {
        if (!p.error.empty() && report.failure.empty())
            report.failure = "process " + std::to_string(p.process) + ": " + p.error;
    }
    report.clockOffsetsNs = offsets;
    TPSCOPE_TRY_ASSIGN(report.trace, mergeProcessTraces(std::move(parts)));
    addLaunchMetadata(report.trace, o);
    return report;
}

}  // namespace tpscope::gpu
