// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// captureLocalGpus: one thread per local GPU runs the decode steps; the main thread turns CUPTI
// on between warm-up and the measured steps, off again as soon as the last step has finished (so
// NCCL's finalize and the frees of the teardown are not recorded), and turns the records into the
// process's trace. Phases are separated by a barrier that any failing thread can break, so a rank
// that fails (out of memory, NCCL error, hang) stops the others instead of leaving them waiting.
//
// Phases (the workers and the main thread): allocate | every rank of every process allocated? |
// NCCL communicators | warm-up | CUPTI on | measured steps | CUPTI off | every rank finished? |
// teardown (finalize when every rank finished, else abort first). The main thread waits with a
// poll: another process's failure (LaunchLink::peerFailed) stops this one's ranks, and a failure
// here is announced to the others, so no process waits out the hang timeout for a peer that is gone.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "gpu/capture.h"
#include "gpu/cupti_session.h"
#include "gpu/decode_runner.h"
#include "gpu/gpu_check.h"
#include "gpu/nccl_setup.h"
#include "gpu/phase_barrier.h"

namespace tpscope::gpu {

namespace {

RunnerHooks hooksFor(CuptiSession* session, bool graph) {
    RunnerHooks hooks;
    if (session == nullptr) return hooks;
    if (!graph) {
        hooks.pushOpTag = [session](std::uint64_t tag) { session->pushOpTag(tag); };
        hooks.popOpTag = [session] { session->popOpTag(); };
    }
    hooks.tagGraphNode = [session](cudaGraphNode_t node, std::uint32_t op, std::uint32_t rows) {
        session->tagGraphNode(node, op, rows);
    };
    return hooks;
}

// What the rank threads and the main thread share during one process's capture.
struct CaptureRun {
    CaptureRun(const CaptureOptions& options, const core::DecodePlan& p, const LocalRanks& l,
               const std::vector<std::uint8_t>& id, CuptiSession* s, const LaunchLink& k)
        : o(options),
          plan(p),
          local(l),
          ncclId(id),
          session(s),
          link(k),
          ranks(l.devices.size()),
          barrier(static_cast<int>(l.devices.size()) + 1),
          errors(ranks),
          stepNs(ranks),
          deviceNames(ranks) {}

    const CaptureOptions& o;
    const core::DecodePlan& plan;
    const LocalRanks& local;
    const std::vector<std::uint8_t>& ncclId;
    CuptiSession* session;
    const LaunchLink& link;
    std::size_t ranks;
    PhaseBarrier barrier;
    std::atomic<bool> abort{false};
    bool peersHealthy = false;        // every rank of every process finished (set before the teardown phase)
    std::vector<std::string> errors;  // per rank (each written by its thread only)
    std::string collectionError;      // the main thread's (CUPTI)
    std::vector<std::vector<std::int64_t>> stepNs;
    std::vector<std::string> deviceNames;
};

core::Result<std::unique_ptr<CuptiSession>> startSession(const CaptureOptions& o, const core::DecodePlan& plan,
                                                         const LocalRanks& local) {
    std::unique_ptr<CuptiSession> session;
    TPSCOPE_TRY_ASSIGN(session, CuptiSession::start({o.cuptiBufferBytes, o.cuptiMaxBytes}));
    session->withDecoder([&](CuptiDecoder& d) {
        d.setPlan(plan);
        d.setDefaultRank(core::RankId(static_cast<std::uint32_t>(local.firstRank)));
        for (std::size_t i = 0; i < local.devices.size(); ++i) {
            d.mapDevice(static_cast<std::uint32_t>(local.devices[i]),
                        core::RankId(static_cast<std::uint32_t>(local.firstRank) + static_cast<std::uint32_t>(i)));
        }
    });
    return session;
}

core::Result<std::unique_ptr<DecodeRunner>> setUpRank(CaptureRun& run, std::size_t i) {
    const int device = run.local.devices[i];
    cudaDeviceProp prop{};
    if (cudaSetDevice(device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
        run.deviceNames[i] = prop.name;
    }
    RunnerConfig cfg;
    cfg.plan = &run.plan;
    cfg.device = device;
    cfg.rank = run.local.firstRank + static_cast<int>(i);
    cfg.graph = run.o.graph;
    cfg.overlap = run.o.overlap;
    cfg.nvtx = run.o.collect;
    cfg.hangTimeoutMs = run.o.hangTimeoutMs;
    cfg.abort = &run.abort;
    cfg.hooks = hooksFor(run.session, run.o.graph);
    std::unique_ptr<DecodeRunner> runner;
    TPSCOPE_TRY_ASSIGN(runner, DecodeRunner::create(cfg));
    if (run.session != nullptr) {
        const auto label = [&](cudaStream_t stream, const char* name) {
            if (auto id = run.session->streamId(stream)) {
                run.session->withDecoder(
                    [&](CuptiDecoder& d) { d.labelStream(static_cast<std::uint32_t>(device), *id, name); });
            }
        };
        label(runner->computeStream(), "compute");
        if (run.o.overlap) label(runner->commStream(), "nccl");
    }
    return runner;
}

// One rank's thread: set up, warm up, then the measured steps between the CUPTI phases.
void runRank(CaptureRun& run, std::size_t i) {
    const auto fail = [&](const core::Error& e) {
        run.errors[i] = "rank " + std::to_string(run.local.firstRank + static_cast<int>(i)) + " (GPU " +
                        std::to_string(run.local.devices[i]) + "): " + e.describe();
        run.abort.store(true);
        run.barrier.abort();
    };
    auto runner = setUpRank(run, i);
    if (!runner) return fail(runner.error());
    if (!run.barrier.arriveAndWait()) return;  // every local rank allocated
    if (!run.barrier.arriveAndWait()) return;  // every process's ranks too: all of them enter the NCCL init
    if (auto c = (*runner)->connect(run.ncclId); !c) return fail(c.error());
    if (auto g = (*runner)->prepareGraph(); !g) return fail(g.error());
    if (!run.barrier.arriveAndWait()) return;  // everyone set up
    for (int w = 0; w < run.o.warmupSteps; ++w) {
        if (auto r = (*runner)->step(w, false); !r) return fail(r.error());
    }
    if (!run.barrier.arriveAndWait()) return;  // warm-up done: the main thread turns CUPTI on
    if (!run.barrier.arriveAndWait()) return;
    for (int s = 0; s < run.o.tokens; ++s) {
        if (run.o.control.cancelled()) {
            return fail(core::makeError(core::ErrorCode::Cancelled, "capture cancelled", "capture"));
        }
        auto r = (*runner)->step(s, true);
        if (!r) return fail(r.error());
        run.stepNs[i].push_back(*r);
        if (i == 0) run.o.control.report(static_cast<double>(s + 1) / run.o.tokens);
    }
    if (!run.barrier.arriveAndWait()) return;  // all steps done: the main thread turns CUPTI off
    if (!run.barrier.arriveAndWait()) return;  // collection stopped, health agreed: tear down
    if (auto down = (*runner)->shutDown(run.peersHealthy); !down) fail(down.error());
}

// Every rank's failure sets `abort` (fail() in runRank), so the main thread needs no rank's error
// string, which that rank's thread may still be writing.
bool localFailure(const CaptureRun& run) {
    return run.abort.load() || !run.collectionError.empty();
}

// The main thread's part: agreement over the processes before the NCCL init and before the
// teardown, CUPTI on after warm-up and off after the last step; while waiting, failures cross the
// process boundary both ways.
void driveCollection(CaptureRun& run) {
    const auto record = [&](const core::Error& e) {
        run.collectionError = e.describe();
        run.abort.store(true);
        run.barrier.abort();
    };
    const auto everyone = [&](bool mine) { return run.link.everyone ? run.link.everyone(mine) : mine; };
    const auto poll = [&] {
        if (run.abort.load()) {
            if (run.link.announceFailure) run.link.announceFailure();
        } else if (run.link.peerFailed && run.link.peerFailed()) {
            run.abort.store(true);  // the ranks' owners abort their communicators (OwnedComm::poll)
            run.barrier.abort();
            if (run.collectionError.empty()) {
                run.collectionError = "stopped because another rank failed (another process)";
            }
        }
    };
    // Every process calls everyone() exactly twice, at the same points, whatever failed.
    const bool allocated = run.barrier.arriveAndWait(poll);
    if (!everyone(allocated && !localFailure(run)) && allocated) {
        run.abort.store(true);
        run.barrier.abort();
        if (run.collectionError.empty()) {
            run.collectionError = "stopped because another rank failed (another process could not set up)";
        }
    }
    const bool warmedUp =
        run.barrier.arriveAndWait(poll) && run.barrier.arriveAndWait(poll) && run.barrier.arriveAndWait(poll);
    if (warmedUp && run.session != nullptr) {
        if (auto on = run.session->enable(); !on) record(on.error());
    }
    if (warmedUp && run.barrier.arriveAndWait(poll)) run.barrier.arriveAndWait(poll);  // steps run
    if (run.session != nullptr) {
        if (auto off = run.session->flush(); !off && run.collectionError.empty()) {
            run.collectionError = off.error().describe();
        }
    }
    if (localFailure(run) && run.link.announceFailure) run.link.announceFailure();
    run.peersHealthy = everyone(!localFailure(run));
    run.barrier.arriveAndWait(poll);
}

LocalCapture collectTrace(CaptureRun& run) {
    LocalCapture out;
    if (run.session != nullptr) {
        out.trace = run.session->withDecoder([](CuptiDecoder& d) { return d.finish(); });
        out.trace.metadata.emplace_back("cupti.buffers_refused", std::to_string(run.session->refusedBuffers()));
        for (const auto& w : run.session->warnings()) out.trace.metadata.emplace_back("capture.warning", w);
    }
    for (std::size_t i = 0; i < run.ranks; ++i) {
        core::Rank& r = out.trace.rank(
            core::RankId(static_cast<std::uint32_t>(run.local.firstRank) + static_cast<std::uint32_t>(i)));
        r.deviceIndex = run.local.devices[i];
        r.deviceName = run.deviceNames[i];
    }
    out.trace.finalize();
    out.stepNs = run.stepNs.empty() ? std::vector<std::int64_t>{} : run.stepNs.front();
    // The first failure that is not another rank's consequence ("stopped because ...").
    run.errors.push_back(run.collectionError);
    for (const auto& e : run.errors) {
        if (!e.empty() && (out.error.empty() || out.error.find("another rank failed") != std::string::npos)) {
            out.error = e;
        }
    }
    return out;
}

}  // namespace

LocalCapture captureLocalGpus(const CaptureOptions& o, const core::DecodePlan& plan, const LocalRanks& local,
                              const std::vector<std::uint8_t>& ncclId, const LaunchLink& link) {
    std::unique_ptr<CuptiSession> session;
    if (o.collect) {
        auto started = startSession(o, plan, local);
        if (!started) {
            LocalCapture out;
            out.error = started.error().describe();
            return out;
        }
        session = std::move(*started);
    }
    // Every process, before its first NCCL call (process 0 also did when it made the id).
    if (plan.config.tp > 1) prepareNcclEnvironment();
    CaptureRun run(o, plan, local, ncclId, session.get(), link);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < run.ranks; ++i) threads.emplace_back(runRank, std::ref(run), i);
    driveCollection(run);
    for (auto& t : threads) t.join();
    return collectTrace(run);
}

}  // namespace tpscope::gpu
