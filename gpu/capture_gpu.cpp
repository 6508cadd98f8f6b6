// captureLocalGpus: one thread per local GPU runs the decode steps; the main thread turns CUPTI
// on between warm-up and the measured steps and turns the records into the process's trace.
// Phases are separated by a barrier that any failing thread can break, so a rank that fails
// (out of memory, NCCL error, hang) stops the others instead of leaving them waiting.

#include <condition_variable>
#include <mutex>
#include <thread>

#include "gpu/capture.h"
#include "gpu/cupti_session.h"
#include "gpu/decode_runner.h"
#include "gpu/gpu_check.h"

namespace tpscope::gpu {

namespace {

class PhaseBarrier {
  public:
    explicit PhaseBarrier(int parties) : m_parties(parties) {}
    // False once any party has aborted.
    bool arriveAndWait() {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_aborted) return false;
        const int generation = m_generation;
        if (++m_arrived == m_parties) {
            m_arrived = 0;
            ++m_generation;
            m_cv.notify_all();
            return true;
        }
        m_cv.wait(lock, [&] { return m_generation != generation || m_aborted; });
        return !m_aborted;
    }
    void abort() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_aborted = true;
        m_cv.notify_all();
    }

  private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_parties;
    int m_arrived = 0;
    int m_generation = 0;
    bool m_aborted = false;
};

RunnerHooks hooksFor(CuptiSession* session, bool graph) {
    RunnerHooks hooks;
    if (session == nullptr) return hooks;
    if (!graph) {
        hooks.pushOpTag = [session](std::uint64_t tag) { session->pushOpTag(tag); };
        hooks.popOpTag = [session] { session->popOpTag(); };
    }
    hooks.tagGraphNode = [session](cudaGraphNode_t node, std::uint32_t op) { session->tagGraphNode(node, op); };
    return hooks;
}

}  // namespace

LocalCapture captureLocalGpus(const CaptureOptions& o, const core::DecodePlan& plan, const LocalRanks& local,
                              const std::vector<std::uint8_t>& ncclId) {
    LocalCapture out;
    const int n = static_cast<int>(local.devices.size());
    std::unique_ptr<CuptiSession> session;
    if (o.collect) {
        auto started = CuptiSession::start({o.cuptiBufferBytes, o.cuptiMaxBytes});
        if (!started) {
            out.error = started.error().describe();
            return out;
        }
        session = std::move(*started);
        session->withDecoder([&](CuptiDecoder& d) {
            d.setPlan(plan);
            d.setDefaultRank(core::RankId(static_cast<std::uint32_t>(local.firstRank)));
            for (int i = 0; i < n; ++i) {
                d.mapDevice(static_cast<std::uint32_t>(local.devices[static_cast<std::size_t>(i)]),
                            core::RankId(static_cast<std::uint32_t>(local.firstRank + i)));
            }
        });
    }

    PhaseBarrier barrier(n + 1);
    std::atomic<bool> abort{false};
    std::vector<std::string> errors(static_cast<std::size_t>(n));
    std::vector<std::vector<std::int64_t>> stepNs(static_cast<std::size_t>(n));
    std::vector<std::string> deviceNames(static_cast<std::size_t>(n));
    const auto worker = [&](int i) {
        const auto idx = static_cast<std::size_t>(i);
        const int device = local.devices[idx];
        const int rank = local.firstRank + i;
        const auto fail = [&](const core::Error& e) {
            errors[idx] = "rank " + std::to_string(rank) + " (GPU " + std::to_string(device) + "): " + e.describe();
            abort.store(true);
            barrier.abort();
        };
        cudaDeviceProp prop{};
        if (cudaSetDevice(device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
            deviceNames[idx] = prop.name;
        }
        RunnerConfig cfg;
        cfg.plan = &plan;
        cfg.device = device;
        cfg.rank = rank;
        cfg.graph = o.graph;
        cfg.overlap = o.overlap;
        cfg.nvtx = o.collect;
        cfg.hangTimeoutMs = o.hangTimeoutMs;
        cfg.abort = &abort;
        cfg.hooks = hooksFor(session.get(), o.graph);
        auto runner = DecodeRunner::create(cfg, ncclId);
        if (!runner) return fail(runner.error());
        if (session) {
            const auto label = [&](cudaStream_t stream, const char* name) {
                if (auto id = session->streamId(stream)) {
                    session->withDecoder(
                        [&](CuptiDecoder& d) { d.labelStream(static_cast<std::uint32_t>(device), *id, name); });
                }
            };
            label((*runner)->computeStream(), "compute");
            if (o.overlap) label((*runner)->commStream(), "nccl");
        }
        if (!barrier.arriveAndWait()) return;  // everyone set up
        for (int w = 0; w < o.warmupSteps; ++w) {
            if (auto r = (*runner)->step(w, false); !r) return fail(r.error());
        }
        if (!barrier.arriveAndWait()) return;  // warm-up done: the main thread turns CUPTI on
        if (!barrier.arriveAndWait()) return;
        for (int s = 0; s < o.tokens; ++s) {
            if (o.cancel != nullptr && o.cancel->load()) {
                return fail(core::makeError(core::ErrorCode::Cancelled, "capture cancelled", "capture"));
            }
            auto r = (*runner)->step(s, true);
            if (!r) return fail(r.error());
            stepNs[idx].push_back(*r);
            if (i == 0 && o.progress) o.progress("decode steps", static_cast<double>(s + 1) / o.tokens);
        }
        barrier.arriveAndWait();  // all ranks done before any communicator is destroyed
    };

    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i) threads.emplace_back(worker, i);
    if (barrier.arriveAndWait() && barrier.arriveAndWait()) {
        if (session) {
            if (auto on = session->enable(); !on) {
                errors.push_back(on.error().describe());
                abort.store(true);
                barrier.abort();
            }
        }
        if (barrier.arriveAndWait()) barrier.arriveAndWait();
    }
    for (auto& t : threads) t.join();

    if (session) {
        if (auto flushed = session->flush(); !flushed) errors.push_back(flushed.error().describe());
        out.trace = session->withDecoder([](CuptiDecoder& d) { return d.finish(); });
        out.trace.metadata.emplace_back("cupti.buffers_refused", std::to_string(session->refusedBuffers()));
        for (const auto& w : session->warnings()) out.trace.metadata.emplace_back("capture.warning", w);
    }
    for (int i = 0; i < n; ++i) {
        core::Rank& r = out.trace.rank(core::RankId(static_cast<std::uint32_t>(local.firstRank + i)));
        r.deviceIndex = local.devices[static_cast<std::size_t>(i)];
        r.deviceName = deviceNames[static_cast<std::size_t>(i)];
    }
    out.trace.finalize();
    out.stepNs = stepNs.empty() ? std::vector<std::int64_t>{} : stepNs.front();
    // The first failure that is not another rank's consequence ("stopped because ...").
    for (const auto& e : errors) {
        if (!e.empty() && (out.error.empty() || out.error.find("another rank failed") != std::string::npos))
            out.error = e;
    }
    return out;
}

}  // namespace tpscope::gpu
