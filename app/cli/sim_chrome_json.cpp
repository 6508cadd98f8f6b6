#include "sim_chrome_json.h"

#include <fstream>

#include "core/util/json_writer.h"

namespace tpscope::cli {

namespace {

constexpr std::uint64_t kNvtxThread = 1;

void metadataEvent(core::JsonWriter& w, const char* what, int pid, std::uint64_t tid, const std::string& name) {
    w.beginObject().field("ph", "M").field("name", what).field("pid", pid).field("tid", tid);
    w.key("args").beginObject().field("name", name).endObject().endObject();
}

void writeArgs(core::JsonWriter& w, const core::Trace& t, core::PayloadId id) {
    const auto& p = t.payload(id);
    w.key("args").beginObject();
    if (p.kind == core::PayloadKind::Collective) {
        const auto& c = p.collective;
        w.field("op", core::toString(c.op))
            .field("algo", core::toString(c.algo))
            .field("proto", core::toString(c.proto));
        w.field("dtype", core::toString(c.dtype)).field("group_size", c.groupSize).field("bytes", c.bytes);
    } else if (p.kind == core::PayloadKind::Gemm) {
        w.field("m", p.gemm.m).field("n", p.gemm.n).field("k", p.gemm.k);
    }
    w.endObject();
}

void writeRun(core::JsonWriter& w, const core::sim::SweepRun& run, int runIndex) {
    const core::Trace& t = *run.trace;
    const std::string label = "TP" + std::to_string(run.config.plan.tp) + " b" + std::to_string(run.config.plan.batch);
    for (const auto& rank : t.ranks) {
        const int pid = runIndex * 10000 + static_cast<int>(rank.id.value);
        metadataEvent(w, "process_name", pid, 0,
                      label + " rank " + std::to_string(rank.id.value) + " (" + rank.host + " gpu" +
                          std::to_string(rank.deviceIndex) + ")");
        metadataEvent(w, "thread_name", pid, kNvtxThread, "nvtx");
        for (const auto& s : rank.streams) {
            metadataEvent(w, "thread_name", pid, s.id.value, s.label);
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                w.beginObject().field("ph", "X").field("cat", "kernel").field("name", t.name(s.events.name(i)));
                w.field("pid", pid).field("tid", s.id.value);
                w.field("ts", static_cast<double>(s.events.startNs(i)) / 1e3);
                w.field("dur", static_cast<double>(s.events.durNs(i)) / 1e3);
                if (s.events.payload(i) != core::kNoPayload) writeArgs(w, t, s.events.payload(i));
                w.endObject();
            }
        }
        for (const auto& r : rank.ranges) {
            w.beginObject().field("ph", "X").field("cat", "gpu_user_annotation").field("name", t.name(r.name));
            w.field("pid", pid).field("tid", kNvtxThread);
            w.field("ts", static_cast<double>(r.startNs) / 1e3)
                .field("dur", static_cast<double>(r.endNs - r.startNs) / 1e3);
            w.endObject();
        }
    }
}

}  // namespace

void writeSweepChromeJson(std::ostream& out, const core::sim::SweepResult& sweep) {
    core::JsonWriter w(out, false);
    w.beginObject().key("traceEvents").beginArray();
    for (std::size_t i = 0; i < sweep.runs.size(); ++i) writeRun(w, sweep.runs[i], static_cast<int>(i));
    w.endArray();
    w.field("displayTimeUnit", "ns");
    w.key("otherData").beginObject().field("producer", "tpscope simulate");
    w.key("runs").beginArray();
    for (const auto& run : sweep.runs) {
        w.beginObject();
        for (const auto& [k, v] : run.trace->metadata) w.field(k, v);
        w.endObject();
    }
    w.endArray().endObject();
    w.endObject();
    out << '\n';
}

core::Status writeSweepChromeJsonFile(const std::string& path, const core::sim::SweepResult& sweep) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return core::makeError(core::ErrorCode::IoError, "cannot open for writing", path);
    writeSweepChromeJson(out, sweep);
    out.flush();
    if (!out) return core::makeError(core::ErrorCode::IoError, "write failed (disk full?)", path);
    return core::Ok{};
}

}  // namespace tpscope::cli
