// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/nsys_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <set>
#include <unordered_map>

#include "core/io/import/step_projection.h"
#include "core/trace/step_annotation.h"

namespace tpscope::core {

namespace {

constexpr std::int64_t kNvtxPushPopRange = 59;
constexpr std::int64_t kNvtxStartEndRange = 60;
constexpr std::int64_t kNvtxThreadName = 39;

std::int64_t processOf(std::int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}

// nsys times are ns since the session start; anything beyond +-2^62 is corrupt.
bool validTimes(std::int64_t start, std::int64_t end) {
    return start > -kMaxAbsTimeNs && start < kMaxAbsTimeNs && end > -kMaxAbsTimeNs && end < kMaxAbsTimeNs;
}

// CUPTI_ACTIVITY_MEMCPY_KIND values (also ENUM_CUDA_MEMCPY_OPER in newer exports).
CopyKind copyKindOf(std::int64_t k) {
    switch (k) {
        case 1:
        case 11:
            return CopyKind::HostToDevice;
        case 2:
        case 12:
            return CopyKind::DeviceToHost;
        case 8:
        case 13:
            return CopyKind::DeviceToDevice;
        case 10:
            return CopyKind::PeerToPeer;
        default:
            return CopyKind::Unknown;
    }
}

std::string_view copyName(CopyKind k) {
    switch (k) {
        case CopyKind::HostToDevice:
            return "Memcpy HtoD";
        case CopyKind::DeviceToHost:
            return "Memcpy DtoH";
        case CopyKind::DeviceToDevice:
            return "Memcpy DtoD";
        case CopyKind::PeerToPeer:
            return "Memcpy PtoP";
        case CopyKind::Unknown:
            break;
    }
    return "Memcpy";
}

class NsysReader {
  public:
    NsysReader(SqliteDb& db, const KernelClassifier& classifier, const TaskControl& control)
        : m_db(db), m_classifier(classifier), m_control(control) {}

    Result<TracePart> read();

  private:
    Status loadStrings();
    void loadTargetInfo();
    Status readKernels();
    Status readCopies(bool memset);
    Status readNvtx();
    void countRuntime();
    std::vector<KinetoLinks::LaunchRecord> runtimeLaunches();
    Status checkCancel() const;
    StagedDevice& device(std::int64_t deviceId, std::int64_t globalPid);
    NameId nameOf(const SqliteStmt& row, int col);

    SqliteDb& m_db;
    const KernelClassifier& m_classifier;
    const TaskControl& m_control;
    TracePart m_part;
    std::unordered_map<std::int64_t, std::string> m_strings;  // StringIds
    std::unordered_map<std::int64_t, NameId> m_nameIds;
    std::map<std::int64_t, std::string> m_gpuNames;
    std::map<std::int64_t, std::set<std::int64_t>> m_devicesOfProcess;  // pid -> deviceIds
    std::vector<std::optional<KernelClass>> m_classes;
};

Status NsysReader::checkCancel() const {
    if (m_control.cancelled()) return makeError(ErrorCode::Cancelled, "import cancelled", m_db.path());
    return Ok{};
}

Status NsysReader::loadStrings() {
    if (!m_db.hasTable("StringIds")) return Ok{};
    auto stmt = m_db.prepare("SELECT id, value FROM StringIds");
    if (!stmt) return stmt.error();
    int rc = 0;
    while ((rc = stmt->step()) == SQLITE_ROW) m_strings.emplace(stmt->int64(0), std::string(stmt->text(1)));
    if (rc != SQLITE_DONE) return m_db.error("cannot read StringIds");
    return Ok{};
}

void NsysReader::loadTargetInfo() {
    if (m_db.hasTable("TARGET_INFO_SESSION_START_TIME") &&
        m_db.columns("TARGET_INFO_SESSION_START_TIME").count("utcEpochNs") != 0) {
        if (auto stmt = m_db.prepare("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1")) {
            if (stmt->step() == SQLITE_ROW && !stmt->isNull(0) && validTimes(stmt->int64(0), 0)) {
                m_part.timeBaseNs = stmt->int64(0);
            }
        }
    }
    const auto cols = m_db.columns("TARGET_INFO_GPU");
    if (cols.count("id") != 0 && cols.count("name") != 0) {
        if (auto stmt = m_db.prepare("SELECT id, name FROM TARGET_INFO_GPU")) {
            while (stmt->step() == SQLITE_ROW) m_gpuNames[stmt->int64(0)] = std::string(stmt->text(1));
        }
    }
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!m_db.hasTable(table)) continue;
        if (auto stmt =
                m_db.prepare(std::string("SELECT value FROM ") + table + " WHERE name = 'EXPORT_PRODUCT_VERSION'")) {
            if (stmt->step() == SQLITE_ROW) m_part.setMetadata("nsys_version", std::string(stmt->text(0)));
        }
    }
}

StagedDevice& NsysReader::device(std::int64_t deviceId, std::int64_t globalPid) {
    m_devicesOfProcess[processOf(globalPid)].insert(deviceId);
    std::array<char, 32> buf = {'d', 'e', 'v', ' '};
    const auto r = std::to_chars(buf.data() + 4, buf.data() + buf.size(), deviceId);
    StagedDevice& dev = m_part.device(std::string_view(buf.data(), static_cast<std::size_t>(r.ptr - buf.data())));
    if (dev.deviceIndex < 0) {
        dev.deviceIndex = static_cast<int>(deviceId);
        if (auto it = m_gpuNames.find(deviceId); it != m_gpuNames.end()) dev.deviceName = it->second;
    }
    return dev;
}

NameId NsysReader::nameOf(const SqliteStmt& row, int col) {
    if (row.type(col) == SQLITE_TEXT) return m_part.names.intern(row.text(col));
    if (row.isNull(col)) return m_part.names.intern("<unnamed>");
    const std::int64_t id = row.int64(col);
    if (auto it = m_nameIds.find(id); it != m_nameIds.end()) return it->second;
    auto s = m_strings.find(id);
    const NameId name = m_part.names.intern(s != m_strings.end() ? std::string_view(s->second) : "<unknown string>");
    m_nameIds.emplace(id, name);
    return name;
}

Status NsysReader::readKernels() {
    const auto cols = m_db.columns("CUPTI_ACTIVITY_KIND_KERNEL");
    if (cols.empty()) return Ok{};
    std::string nameCol;
    for (const char* c : {"demangledName", "shortName", "name", "mangledName"}) {
        if (cols.count(c) != 0) {
            nameCol = c;
            break;
        }
    }
    for (const char* required : {"start", "end", "deviceId", "streamId"}) {
        if (cols.count(required) == 0) {
            m_part.stats.note(std::string("CUPTI_ACTIVITY_KIND_KERNEL has no '") + required +
                              "' column; kernels skipped");
            return Ok{};
        }
    }
    const std::string sql = "SELECT start, end, deviceId, streamId, " +
                            std::string(cols.count("correlationId") != 0 ? "correlationId" : "0") + ", " +
                            (nameCol.empty() ? std::string("NULL") : nameCol) + ", " +
                            (cols.count("globalPid") != 0 ? "globalPid" : "0") + " FROM CUPTI_ACTIVITY_KIND_KERNEL";
    auto stmt = m_db.prepare(sql);
    if (!stmt) return stmt.error();
    int rc = 0;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        ++m_part.stats.records;
        if ((m_part.stats.records & 0xFFFF) == 0) TPSCOPE_TRY(checkCancel());
        if (stmt->isNull(0) || stmt->isNull(1) || !validTimes(stmt->int64(0), stmt->int64(1))) {
            ++m_part.stats.badRecords;
            continue;
        }
        EventRecord e;
        e.startNs = stmt->int64(0);
        e.durNs = stmt->int64(1) - e.startNs;
        if (e.durNs < 0) {
            ++m_part.stats.negativeDurations;
            e.durNs = 0;
        }
        e.correlationId = static_cast<std::uint32_t>(stmt->int64(4));
        e.name = nameOf(*stmt, 5);
        if (m_classes.size() <= e.name.value) m_classes.resize(e.name.value + 1);
        if (!m_classes[e.name.value]) m_classes[e.name.value] = m_classifier.classify(m_part.names.view(e.name));
        const KernelClass& cls = *m_classes[e.name.value];
        e.kind = cls.kind;
        if (e.kind == EventKind::Collective) e.payload = m_part.payloads.intern(Payload::of(cls.collective));
        device(stmt->int64(2), stmt->int64(6)).stream(static_cast<std::uint64_t>(stmt->int64(3))).events.push_back(e);
        ++m_part.stats.kernels;
    }
    if (rc != SQLITE_DONE) return m_db.error("cannot read CUPTI_ACTIVITY_KIND_KERNEL");
    return Ok{};
}

Status NsysReader::readCopies(bool memset) {
    const char* table = memset ? "CUPTI_ACTIVITY_KIND_MEMSET" : "CUPTI_ACTIVITY_KIND_MEMCPY";
    const auto cols = m_db.columns(table);
    if (cols.empty()) return Ok{};
    for (const char* required : {"start", "end", "deviceId", "streamId"}) {
        if (cols.count(required) == 0) {
            m_part.stats.note(std::string(table) + " has no '" + required + "' column; skipped");
            return Ok{};
        }
    }
    auto opt = [&](const char* c) { return std::string(cols.count(c) != 0 ? c : "0"); };
    const std::string sql = "SELECT start, end, deviceId, streamId, " + opt("correlationId") + ", " + opt("bytes") +
                            ", " + (memset ? std::string("0") : opt("copyKind")) + ", " + opt("globalPid") + " FROM " +
                            table;
    auto stmt = m_db.prepare(sql);
    if (!stmt) return stmt.error();
    const NameId memsetName = m_part.names.intern("Memset");
    int rc = 0;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        ++m_part.stats.records;
        if (stmt->isNull(0) || stmt->isNull(1) || !validTimes(stmt->int64(0), stmt->int64(1))) {
            ++m_part.stats.badRecords;
            continue;
        }
        EventRecord e;
        e.startNs = stmt->int64(0);
        e.durNs = std::max<std::int64_t>(0, stmt->int64(1) - e.startNs);
        e.correlationId = static_cast<std::uint32_t>(stmt->int64(4));
        const CopyKind kind = memset ? CopyKind::Unknown : copyKindOf(stmt->int64(6));
        e.kind = memset ? EventKind::Memset : EventKind::Memcpy;
        e.name = memset ? memsetName : m_part.names.intern(copyName(kind));
        e.payload = m_part.payloads.intern(
            Payload::of(CopyPayload{kind, static_cast<std::uint64_t>(std::max<std::int64_t>(0, stmt->int64(5)))}));
        device(stmt->int64(2), stmt->int64(7)).stream(static_cast<std::uint64_t>(stmt->int64(3))).events.push_back(e);
        ++(memset ? m_part.stats.memsets : m_part.stats.memcpys);
    }
    if (rc != SQLITE_DONE) return m_db.error(std::string("cannot read ") + table);
    return Ok{};
}

Status NsysReader::readNvtx() {
    const auto cols = m_db.columns("NVTX_EVENTS");
    if (cols.empty()) return Ok{};
    if (cols.count("start") == 0 || cols.count("eventType") == 0) {
        m_part.stats.note("NVTX_EVENTS lacks start/eventType; ranges skipped");
        return Ok{};
    }
    auto opt = [&](const char* c) { return std::string(cols.count(c) != 0 ? c : "NULL"); };
    const std::string sql = "SELECT start, " + opt("end") + ", eventType, " + opt("text") + ", " + opt("textId") +
                            ", " + opt("globalTid") + " FROM NVTX_EVENTS";
    auto stmt = m_db.prepare(sql);
    if (!stmt) return stmt.error();
    std::map<std::int64_t, std::vector<StagedRange>> rangesOfProcess;
    // Step annotations (TensorRT-LLM's _forward_step, ...) are CPU ranges: moved onto their GPU work below.
    std::vector<CpuStepRange> steps;
    std::vector<std::int64_t> stepProcess;
    std::map<std::int64_t, std::uint32_t> mpiRankOfProcess;
    int rc = 0;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        ++m_part.stats.records;
        const std::int64_t type = stmt->int64(2);
        const std::int64_t process = processOf(stmt->int64(5));
        NameId name =
            !stmt->isNull(3) ? m_part.names.intern(stmt->text(3)) : (!stmt->isNull(4) ? nameOf(*stmt, 4) : NameId{});
        if (type == kNvtxThreadName) {
            const std::string_view text = m_part.names.view(name);
            if (text.substr(0, 9) == "MPI Rank ") {
                std::uint32_t rank = 0;
                const auto r = std::from_chars(text.data() + 9, text.data() + text.size(), rank);
                if (r.ec == std::errc()) mpiRankOfProcess[process] = rank;
            }
            continue;
        }
        if (type != kNvtxPushPopRange && type != kNvtxStartEndRange) continue;
        if (stmt->isNull(1)) {
            ++m_part.stats.unmatchedBegins;
            continue;
        }
        if (!validTimes(stmt->int64(0), stmt->int64(1))) {
            ++m_part.stats.badRecords;
            continue;
        }
        const std::int64_t startNs = stmt->int64(0);
        std::int64_t endNs = stmt->int64(1);
        if (endNs < startNs) {
            ++m_part.stats.negativeDurations;
            endNs = startNs;
        }
        if (!stmt->isNull(5) && projectedStep(m_part.names.view(name))) {
            steps.push_back({stmt->int64(5), startNs, endNs, name});
            stepProcess.push_back(process);
            continue;
        }
        rangesOfProcess[process].push_back({startNs, endNs, name, -1});
    }
    if (rc != SQLITE_DONE) return m_db.error("cannot read NVTX_EVENTS");
    if (!steps.empty()) {
        const auto projected = projectSteps(steps, runtimeLaunches(), m_part);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (projected[i]) {
                ++m_part.stats.projectedSteps;
            } else {
                rangesOfProcess[stepProcess[i]].push_back({steps[i].startNs, steps[i].endNs, steps[i].name, -1});
            }
        }
    }
    for (auto& [process, ranges] : rangesOfProcess) {
        auto devs = m_devicesOfProcess.find(process);
        if (devs == m_devicesOfProcess.end() || m_devicesOfProcess.size() == 1) {
            // One process (the usual per-rank report) or ranges of a process without GPU work.
            m_part.processRanges.insert(m_part.processRanges.end(), ranges.begin(), ranges.end());
            continue;
        }
        for (const std::int64_t d : devs->second) {
            auto& target = device(d, process << 24).ranges;
            target.insert(target.end(), ranges.begin(), ranges.end());
        }
    }
    if (mpiRankOfProcess.size() == 1) {
        m_part.declaredRank = mpiRankOfProcess.begin()->second;
    } else {
        for (const auto& [process, rank] : mpiRankOfProcess) {
            auto devs = m_devicesOfProcess.find(process);
            if (devs != m_devicesOfProcess.end() && devs->second.size() == 1) {
                device(*devs->second.begin(), process << 24).rank = rank;
            }
        }
    }
    return Ok{};
}

// Launch records (any runtime call with a correlation: kernel, copy and graph launches) by thread.
std::vector<KinetoLinks::LaunchRecord> NsysReader::runtimeLaunches() {
    std::vector<KinetoLinks::LaunchRecord> out;
    const auto cols = m_db.columns("CUPTI_ACTIVITY_KIND_RUNTIME");
    if (cols.count("start") == 0 || cols.count("correlationId") == 0 || cols.count("globalTid") == 0) return out;
    auto stmt = m_db.prepare("SELECT start, correlationId, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME");
    if (!stmt) return out;
    while (stmt->step() == SQLITE_ROW) {
        if (stmt->isNull(0) || stmt->isNull(1) || stmt->isNull(2)) continue;
        out.push_back({stmt->int64(2), stmt->int64(0), stmt->int64(1)});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.thread != b.thread ? a.thread < b.thread : a.startNs < b.startNs;
    });
    return out;
}

void NsysReader::countRuntime() {
    if (!m_db.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME")) return;
    if (auto stmt = m_db.prepare("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME")) {
        if (stmt->step() == SQLITE_ROW) {
            const auto n = static_cast<std::uint64_t>(stmt->int64(0));
            m_part.stats.records += n;
            m_part.stats.cpuRecordsSkipped += n;
        }
    }
}

Result<TracePart> NsysReader::read() {
    m_part.path = m_db.path();
    m_part.source = m_db.path();
    m_part.stats.files = 1;
    TPSCOPE_TRY(loadStrings());
    loadTargetInfo();
    m_control.report(0.1);
    TPSCOPE_TRY(readKernels());
    m_control.report(0.6);
    TPSCOPE_TRY(checkCancel());
    TPSCOPE_TRY(readCopies(false));
    TPSCOPE_TRY(readCopies(true));
    TPSCOPE_TRY(checkCancel());
    TPSCOPE_TRY(readNvtx());
    countRuntime();
    for (auto& dev : m_part.devices) {
        for (auto& s : dev.streams) s.label = "stream " + std::to_string(s.id);
    }
    m_part.setMetadata("format", "nsys-sqlite");
    m_control.report(1.0);
    return std::move(m_part);
}

}  // namespace

bool looksLikeNsysExport(SqliteDb& db) {
    for (const char* t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                          "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"}) {
        if (db.hasTable(t)) return true;
    }
    return false;
}

Result<TracePart> readNsysDatabase(SqliteDb& db, const KernelClassifier& classifier, const TaskControl& control) {
    if (auto probe = db.prepare("SELECT count(*) FROM sqlite_master"); !probe || probe->step() != SQLITE_ROW) {
        return makeError(ErrorCode::WrongFormat, "not a readable SQLite database", db.path());
    }
    // The reader scans these; a view or virtual table in their place could compute unbounded rows.
    TPSCOPE_TRY(
        db.requireRealTables({"StringIds", "TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_GPU", "META_DATA_EXPORT",
                              "EXPORT_META_DATA", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"}));
    if (!looksLikeNsysExport(db)) {
        return makeError(ErrorCode::WrongFormat,
                         "SQLite database without CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS tables: not an Nsight "
                         "Systems export (create one with `nsys export --type sqlite`)",
                         db.path());
    }
    NsysReader reader(db, classifier, control);
    return reader.read();
}

Result<TracePart> readNsysFile(const std::string& path, const KernelClassifier& classifier,
                               const TaskControl& control) {
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    if (!db) return db.error();
    auto part = readNsysDatabase(*db, classifier, control);
    if (part) part->path = part->source = path;
    return part;
}

}  // namespace tpscope::core
