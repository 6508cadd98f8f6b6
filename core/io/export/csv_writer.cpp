// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/export/csv_writer.h"

#include "core/io/export/output_file.h"

namespace tpscope::core {

void appendCsvField(std::string& out, std::string_view f) {
    if (f.find_first_of(",\"\n\r") == std::string_view::npos) {
        out.append(f);
        return;
    }
    out += '"';
    for (const char c : f) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

void appendCsvRow(std::string& out, const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ',';
        appendCsvField(out, fields[i]);
    }
    out += '\n';
}

Status writeCsvTable(const CsvTable& table, const std::string& path) {
    auto file = OutputFile::create(path);
    if (!file) return file.error();
    BufferedOutput out(*file);
    appendCsvRow(out.buf(), table.header);
    for (const auto& row : table.rows) {
        appendCsvRow(out.buf(), row);
        if (!out.maybeFlush()) break;
    }
    out.flush();
    return file->commit();
}

namespace {

void payloadFields(const Trace& trace, const Payload& p, std::vector<std::string>& f) {
    const std::size_t first = f.size();
    f.resize(first + 11);
    switch (p.kind) {
        case PayloadKind::Collective:
            f[first] = "collective";
            f[first + 1] = toString(p.collective.op);
            f[first + 2] = toString(p.collective.algo);
            f[first + 3] = toString(p.collective.proto);
            f[first + 4] = toString(p.collective.dtype);
            f[first + 5] = std::to_string(p.collective.groupSize);
            f[first + 6] = trace.name(p.collective.communicator);
            f[first + 7] = std::to_string(p.collective.bytes);
            break;
        case PayloadKind::Gemm:
            f[first] = "gemm";
            f[first + 4] = toString(p.gemm.dtype);
            f[first + 8] = std::to_string(p.gemm.m);
            f[first + 9] = std::to_string(p.gemm.n);
            f[first + 10] = std::to_string(p.gemm.k);
            break;
        case PayloadKind::Copy:
            f[first] = "copy";
            f[first + 7] = std::to_string(p.copy.bytes);
            f.emplace_back(toString(p.copy.kind));
            return;
        case PayloadKind::None:
            break;
    }
    f.emplace_back();
}

}  // namespace

Status writeEventsCsv(const Trace& trace, const std::string& path, const TaskControl& control) {
    auto file = OutputFile::create(path);
    if (!file) return file.error();
    BufferedOutput out(*file);
    out.buf() +=
        "rank,host,device_index,stream_id,stream_label,start_ns,dur_ns,end_ns,kind,name,correlation_id,payload,"
        "collective_op,algorithm,protocol,dtype,group_size,communicator,bytes,gemm_m,gemm_n,gemm_k,copy_kind\n";
    std::vector<std::string> f;
    std::size_t written = 0;
    for (const auto& r : trace.ranks) {
        for (const auto& s : r.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                f = {std::to_string(r.id.value),
                     r.host,
                     std::to_string(r.deviceIndex),
                     std::to_string(s.id.value),
                     s.label,
                     std::to_string(s.events.startNs(i)),
                     std::to_string(s.events.durNs(i)),
                     std::to_string(s.events.endNs(i)),
                     std::string(toString(s.events.kind(i))),
                     std::string(trace.name(s.events.name(i))),
                     std::to_string(s.events.correlationId(i))};
                payloadFields(trace, trace.payload(s.events.payload(i)), f);
                appendCsvRow(out.buf(), f);
                if (!out.maybeFlush()) return makeError(ErrorCode::IoError, "write failed (disk full?)", path);
                if ((++written & 0xFFFF) == 0 && control.cancelled()) {
                    return makeError(ErrorCode::Cancelled, "export cancelled", path);
                }
            }
        }
    }
    if (!out.flush()) return makeError(ErrorCode::IoError, "write failed (disk full?)", path);
    return file->commit();
}

Status writeRangesCsv(const Trace& trace, const std::string& path) {
    CsvTable t;
    t.header = {"rank", "start_ns", "end_ns", "dur_ns", "depth", "name"};
    for (const auto& r : trace.ranks) {
        for (const auto& range : r.ranges) {
            t.rows.push_back({std::to_string(r.id.value), std::to_string(range.startNs), std::to_string(range.endNs),
                              std::to_string(range.endNs - range.startNs), std::to_string(range.depth),
                              std::string(trace.name(range.name))});
        }
    }
    return writeCsvTable(t, path);
}

}  // namespace tpscope::core
