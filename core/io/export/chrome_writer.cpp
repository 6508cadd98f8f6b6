// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/export/chrome_writer.h"

#include <array>
#include <charconv>
#include <sstream>
#include <unordered_set>

#include "core/io/export/output_file.h"
#include "core/util/json_writer.h"

namespace tpscope::core {

namespace {

constexpr int kNvtxTid = 0;

void appendInt(std::string& out, std::int64_t v) {
    std::array<char, 24> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    out.append(buf.data(), r.ptr);
}

void appendUint(std::string& out, std::uint64_t v) {
    std::array<char, 24> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    out.append(buf.data(), r.ptr);
}

// ns -> µs text with exactly three decimals: 1234567 -> "1234.567".
void appendMicros(std::string& out, std::int64_t ns) {
    if (ns < 0) {
        out += '-';
        ns = -ns;
    }
    appendInt(out, ns / 1000);
    const auto frac = static_cast<int>(ns % 1000);
    out += '.';
    out += static_cast<char>('0' + frac / 100);
    out += static_cast<char>('0' + frac / 10 % 10);
    out += static_cast<char>('0' + frac % 10);
}

std::string escaped(std::string_view s) {
    std::ostringstream os;
    JsonWriter::writeEscaped(os, s);
    return os.str();
}

std::string_view categoryOf(EventKind k) {
    if (k == EventKind::Memcpy) return "gpu_memcpy";
    if (k == EventKind::Memset) return "gpu_memset";
    return "kernel";
}

void appendPayload(std::string& out, const Payload& p, const std::vector<std::string>& names) {
    switch (p.kind) {
        case PayloadKind::Collective: {
            const auto& c = p.collective;
            out += R"(, "payload": "collective", "Collective name": ")";
            out += toString(c.op);
            out += R"(", "algorithm": ")";
            out += toString(c.algo);
            out += R"(", "protocol": ")";
            out += toString(c.proto);
            out += R"(", "dtype": ")";
            out += toString(c.dtype);
            out += R"(", "Group size": )";
            appendUint(out, c.groupSize);
            out += ", \"Process Group Name\": ";
            out += names[c.communicator.value];
            if (dtypeBytes(c.dtype) > 0) {
                out += ", \"In msg nelems\": ";
                appendUint(out, c.bytes / static_cast<std::uint64_t>(dtypeBytes(c.dtype)));
            }
            out += ", \"msg bytes\": ";
            appendUint(out, c.bytes);
            break;
        }
        case PayloadKind::Gemm:
            out += R"(, "payload": "gemm", "gemm m": )";
            appendUint(out, p.gemm.m);
            out += ", \"gemm n\": ";
            appendUint(out, p.gemm.n);
            out += ", \"gemm k\": ";
            appendUint(out, p.gemm.k);
            out += R"(, "dtype": ")";
            out += toString(p.gemm.dtype);
            out += '"';
            break;
        case PayloadKind::Copy:
            out += R"(, "payload": "copy", "copy kind": ")";
            out += toString(p.copy.kind);
            out += R"(", "bytes": )";
            appendUint(out, p.copy.bytes);
            break;
        case PayloadKind::None:
            break;
    }
}

std::string header(const Trace& trace, std::int64_t baseNs) {
    std::ostringstream os;
    JsonWriter json(os, false);
    json.beginObject();
    json.field("displayTimeUnit", "ns");
    json.field("baseTimeNanoseconds", baseNs);
    json.key("tpscope").beginObject();
    json.field("version", 1);
    json.field("origin", toString(trace.origin));
    json.field("source", trace.source);
    json.key("metadata").beginArray();
    for (const auto& [k, v] : trace.metadata) json.beginArray().value(k).value(v).endArray();
    json.endArray();
    json.key("ranks").beginArray();
    for (const auto& r : trace.ranks) {
        json.beginObject();
        json.field("pid", static_cast<std::uint64_t>(r.id.value));
        json.field("rank", static_cast<std::uint64_t>(r.id.value));
        json.field("host", r.host);
        json.field("deviceIndex", r.deviceIndex);
        json.field("deviceName", r.deviceName);
        json.field("clockOffsetNs", r.clockOffsetNs);
        json.key("streams").beginArray();
        for (const auto& s : r.streams) json.beginObject().field("id", s.id.value).field("label", s.label).endObject();
        json.endArray();
        if (!r.hostThreads.empty()) {
            json.key("hostThreads").beginArray();
            for (std::size_t h = 0; h < r.hostThreads.size(); ++h) {
                json.beginObject()
                    .field("tid", kHostTidBase + static_cast<std::int64_t>(h))
                    .field("id", r.hostThreads[h].threadId)
                    .field("label", r.hostThreads[h].label)
                    .endObject();
            }
            json.endArray();
        }
        json.endObject();
    }
    json.endArray();
    json.endObject();
    json.endObject();
    std::string text = os.str();
    text.pop_back();  // reopen the object: traceEvents follows
    return text + ",\n\"traceEvents\": [\n";
}

void metadataEvent(std::string& out, std::string_view what, std::uint32_t pid, int tid, std::string_view argKey,
                   const std::string& argJson) {
    out += R"({"ph": "M", "name": ")";
    out += what;
    out += R"(", "pid": )";
    appendUint(out, pid);
    out += ", \"tid\": ";
    appendInt(out, tid);
    out += R"(, "args": {")";
    out += argKey;
    out += "\": ";
    out += argJson;
    out += "}},\n";
}

// An "ac2g" flow record of the launch with correlation `correlation` on rank `rank`: "s" at the
// launch call, "f" (bound to the enclosing slice) at the kernel.
void flowEvent(std::string& out, char phase, std::uint32_t pid, std::int64_t tid, std::int64_t tsNs,
               std::uint32_t correlation) {
    out += R"({"ph": ")";
    out += phase;
    out += phase == 'f' ? R"(", "bp": "e)" : "";
    out += R"(", "cat": "ac2g", "name": "ac2g", "id": )";
    appendUint(out, (std::uint64_t{pid} << 32) | correlation);
    out += ", \"pid\": ";
    appendUint(out, pid);
    out += ", \"tid\": ";
    appendInt(out, tid);
    out += ", \"ts\": ";
    appendMicros(out, tsNs);
    out += "},\n";
}

// The rank's host rows; `launched` gets the correlation ids of their launches, for the kernels' flow
// ends. False when a write failed.
bool writeHostRows(BufferedOutput& out, const Rank& r, const std::vector<std::string>& names, std::int64_t baseNs,
                   std::unordered_set<std::uint32_t>& launched) {
    const std::uint32_t pid = r.id.value;
    for (std::size_t h = 0; h < r.hostThreads.size(); ++h) {
        const std::int64_t tid = kHostTidBase + static_cast<std::int64_t>(h);
        metadataEvent(out.buf(), "thread_name", pid, static_cast<int>(tid), "name", escaped(r.hostThreads[h].label));
        const auto& ev = r.hostThreads[h].events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            std::string& o = out.buf();
            o += R"({"ph": "X", "cat": "cuda_runtime", "name": )";
            o += names[ev.name(i).value];
            o += ", \"pid\": ";
            appendUint(o, pid);
            o += ", \"tid\": ";
            appendInt(o, tid);
            o += ", \"ts\": ";
            appendMicros(o, ev.startNs(i) - baseNs);
            o += ", \"dur\": ";
            appendMicros(o, ev.durNs(i));
            o += R"(, "args": {"correlation": )";
            appendUint(o, ev.correlationId(i));
            o += "}},\n";
            if (ev.correlationId(i) != 0) {
                flowEvent(o, 's', pid, tid, ev.startNs(i) - baseNs, ev.correlationId(i));
                launched.insert(ev.correlationId(i));
            }
            if (!out.maybeFlush()) return false;
        }
    }
    return true;
}

std::string processName(const Rank& r) {
    std::string name = "rank " + std::to_string(r.id.value);
    if (r.deviceIndex >= 0) name += " \xC2\xB7 GPU " + std::to_string(r.deviceIndex);
    if (!r.deviceName.empty()) name += " (" + r.deviceName + ")";
    if (!r.host.empty()) name += " \xC2\xB7 " + r.host;
    return name;
}

Status writeAll(const Trace& trace, OutputFile& file, const TaskControl& control) {
    const std::int64_t baseNs = trace.startNs();
    BufferedOutput out(file);
    out.buf() += header(trace, baseNs);
    std::vector<std::string> names(trace.names.size());
    for (std::uint32_t i = 0; i < names.size(); ++i) names[i] = escaped(trace.name(NameId{i}));
    const double total = static_cast<double>(std::max<std::size_t>(1, trace.eventCount()));
    std::size_t written = 0;
    for (const auto& r : trace.ranks) {
        const std::uint32_t pid = r.id.value;
        std::string& b = out.buf();
        metadataEvent(b, "process_name", pid, 0, "name", escaped(processName(r)));
        metadataEvent(b, "process_sort_index", pid, 0, "sort_index", std::to_string(pid));
        metadataEvent(b, "thread_name", pid, kNvtxTid, "name", "\"NVTX ranges\"");
        for (std::size_t si = 0; si < r.streams.size(); ++si) {
            const int tid = static_cast<int>(si) + 1;
            metadataEvent(b, "thread_name", pid, tid, "name", escaped(r.streams[si].label));
            metadataEvent(b, "thread_sort_index", pid, tid, "sort_index", std::to_string(tid));
        }
        for (const auto& range : r.ranges) {
            b += R"({"ph": "X", "cat": "gpu_user_annotation", "name": )";
            b += names[range.name.value];
            b += ", \"pid\": ";
            appendUint(b, pid);
            b += R"(, "tid": 0, "ts": )";
            appendMicros(b, range.startNs - baseNs);
            b += ", \"dur\": ";
            appendMicros(b, range.endNs - range.startNs);
            b += R"(, "args": {"depth": )";
            appendInt(b, range.depth);
            b += "}},\n";
        }
        std::unordered_set<std::uint32_t> launched;
        if (!writeHostRows(out, r, names, baseNs, launched)) {
            return makeError(ErrorCode::IoError, "write failed (disk full?)", file.path());
        }
        for (std::size_t si = 0; si < r.streams.size(); ++si) {
            const auto& s = r.streams[si];
            const auto& ev = s.events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                std::string& o = out.buf();
                const EventKind kind = ev.kind(i);
                o += R"({"ph": "X", "cat": ")";
                o += categoryOf(kind);
                o += R"(", "name": )";
                o += names[ev.name(i).value];
                o += ", \"pid\": ";
                appendUint(o, pid);
                o += ", \"tid\": ";
                appendUint(o, si + 1);
                o += ", \"ts\": ";
                appendMicros(o, ev.startNs(i) - baseNs);
                o += ", \"dur\": ";
                appendMicros(o, ev.durNs(i));
                o += R"(, "args": {"device": )";
                appendInt(o, r.deviceIndex);
                o += ", \"stream\": ";
                appendUint(o, s.id.value);
                o += ", \"correlation\": ";
                appendUint(o, ev.correlationId(i));
                o += R"(, "kind": ")";
                o += toString(kind);
                o += '"';
                appendPayload(o, trace.payload(ev.payload(i)), names);
                o += "}},\n";
                if (!launched.empty() && launched.count(ev.correlationId(i)) != 0) {
                    flowEvent(o, 'f', pid, static_cast<std::int64_t>(si) + 1, ev.startNs(i) - baseNs,
                              ev.correlationId(i));
                }
                if (!out.maybeFlush()) return makeError(ErrorCode::IoError, "write failed (disk full?)", file.path());
                if ((++written & 0xFFFF) == 0) {
                    if (control.cancelled()) return makeError(ErrorCode::Cancelled, "export cancelled", file.path());
                    control.report(static_cast<double>(written) / total);
                }
            }
        }
    }
    // A final metadata record avoids a trailing comma.
    out.buf() += "{\"ph\": \"M\", \"name\": \"trace_end\", \"pid\": 0, \"tid\": 0, \"args\": {}}\n]}\n";
    if (!out.flush()) return makeError(ErrorCode::IoError, "write failed (disk full?)", file.path());
    return Ok{};
}

}  // namespace

Status writeChromeJson(const Trace& trace, const std::string& path, const TaskControl& control) {
    auto file = OutputFile::create(path);
    if (!file) return file.error();
    TPSCOPE_TRY(writeAll(trace, *file, control));
    TPSCOPE_TRY(file->commit());
    control.report(1.0);
    return Ok{};
}

}  // namespace tpscope::core
