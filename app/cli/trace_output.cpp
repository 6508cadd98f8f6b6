#include "trace_output.h"

#include <fstream>

#include "core/util/json_writer.h"

namespace tpscope::cli {

namespace {

// Chrome timestamps are microseconds as doubles: relative to the trace start they keep ns digits.
double micros(std::int64_t ns, std::int64_t originNs) { return static_cast<double>(ns - originNs) / 1000.0; }

void writeName(core::JsonWriter& w, const char* what, std::uint32_t pid, std::uint64_t tid, const std::string& name) {
    w.beginObject().field("ph", "M").field("name", what).field("pid", pid).field("tid", tid);
    w.key("args").beginObject().field("name", name).endObject();
    w.endObject();
}

void writePayload(core::JsonWriter& w, const core::Trace& t, core::PayloadId id) {
    const core::Payload& p = t.payload(id);
    switch (p.kind) {
        case core::PayloadKind::Gemm:
            w.field("m", p.gemm.m).field("n", p.gemm.n).field("k", p.gemm.k).field("dtype", core::toString(p.gemm.dtype));
            break;
        case core::PayloadKind::Collective:
            w.field("op", core::toString(p.collective.op)).field("algo", core::toString(p.collective.algo));
            w.field("proto", core::toString(p.collective.proto)).field("dtype", core::toString(p.collective.dtype));
            w.field("bytes", p.collective.bytes).field("group_size", p.collective.groupSize);
            break;
        case core::PayloadKind::Copy:
            w.field("copy", core::toString(p.copy.kind)).field("bytes", p.copy.bytes);
            break;
        case core::PayloadKind::None: break;
    }
}

}  // namespace

core::Status writeTraceFile(const core::Trace& t, const std::string& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return core::makeError(core::ErrorCode::IoError, "cannot open for writing", path);
    const std::int64_t origin = t.startNs();
    core::JsonWriter w(out, false);
    w.beginObject();
    w.field("displayTimeUnit", "ns");
    w.key("metadata").beginObject();
    w.field("origin", core::toString(t.origin)).field("source", t.source).field("start_ns", origin);
    for (const auto& [k, v] : t.metadata) w.field(k, v);
    w.endObject();
    w.key("traceEvents").beginArray();
    for (const core::Rank& r : t.ranks) {
        const std::uint32_t pid = r.id.value;
        writeName(w, "process_name", pid, 0,
                  "rank " + std::to_string(pid) + " (" + r.host + " GPU " + std::to_string(r.deviceIndex) + " " +
                      r.deviceName + ", clock offset " + std::to_string(r.clockOffsetNs) + " ns)");
        writeName(w, "thread_name", pid, 0, "NVTX");
        for (const core::NvtxRange& range : r.ranges) {
            w.beginObject().field("ph", "X").field("cat", "nvtx").field("name", t.name(range.name));
            w.field("pid", pid).field("tid", 0).field("ts", micros(range.startNs, origin));
            w.field("dur", static_cast<double>(range.endNs - range.startNs) / 1000.0);
            w.key("args").beginObject().field("depth", static_cast<int>(range.depth)).endObject();
            w.endObject();
        }
        for (const core::Stream& s : r.streams) {
            const std::uint64_t tid = s.id.value + 1;
            writeName(w, "thread_name", pid, tid, s.label);
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                w.beginObject().field("ph", "X").field("cat", core::toString(s.events.kind(i)));
                w.field("name", t.name(s.events.name(i))).field("pid", pid).field("tid", tid);
                w.field("ts", micros(s.events.startNs(i), origin));
                w.field("dur", static_cast<double>(s.events.durNs(i)) / 1000.0);
                w.key("args").beginObject().field("correlation", s.events.correlationId(i));
                writePayload(w, t, s.events.payload(i));
                w.endObject().endObject();
            }
        }
    }
    w.endArray();
    w.endObject();
    out << '\n';
    if (!out.flush()) return core::makeError(core::ErrorCode::IoError, "write failed (disk full?)", path);
    return core::Ok{};
}

}  // namespace tpscope::cli
