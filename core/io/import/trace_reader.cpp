// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/trace_reader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <mutex>

#include "core/io/import/file_format.h"
#include "core/io/import/kineto_reader.h"
#include "core/io/import/nsys_reader.h"
#include "core/io/import/nsys_report.h"
#include "core/io/import/trace_part.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_schema.h"
#include "core/util/out_of_memory.h"
#include "core/util/parallel_for.h"

namespace tpscope::core {

namespace {

bool isTraceFileName(const std::string& name) {
    auto ends = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends(".json") || ends(".json.gz") || ends(".gz") || ends(".sqlite") || ends(".nsys.sqlite");
}

// "worker2" < "worker10": digit runs compare by value.
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) != 0 &&
            std::isdigit(static_cast<unsigned char>(b[j])) != 0) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])) != 0) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])) != 0) ++je;
            const std::string_view da = std::string_view(a).substr(i, ie - i);
            const std::string_view db = std::string_view(b).substr(j, je - j);
            const auto na = da.find_first_not_of('0'), nb = db.find_first_not_of('0');
            const std::string_view ta = na == std::string_view::npos ? "" : da.substr(na);
            const std::string_view tb = nb == std::string_view::npos ? "" : db.substr(nb);
            if (ta.size() != tb.size()) return ta.size() < tb.size();
            if (ta != tb) return ta < tb;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

Result<TracePart> readOne(const std::string& path, const KernelClassifier& classifier, const TaskControl& control,
                          KinetoParserPool& parsers) {
    FileFormat format{};
    TPSCOPE_TRY_ASSIGN(format, detectFileFormat(path));
    if (format != FileFormat::Sqlite) return readKinetoFile(path, classifier, control, parsers);
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    if (!db) return db.error();
    if (isWorkspaceDatabase(*db)) {
        return makeError(ErrorCode::InvalidArgument,
                         "a tpscope workspace cannot be merged with other trace files; open it on its own", path);
    }
    auto part = readNsysDatabase(*db, classifier, control);
    if (part) part->path = part->source = path;
    return part;
}

std::uint64_t fileSize(const std::string& path) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(path, ec);
    return ec ? 1 : std::max<std::uint64_t>(n, 1);
}

}  // namespace

Result<std::vector<std::string>> traceFilesIn(const std::string& folder) {
    std::error_code ec;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        if (!entry.is_regular_file(ec)) continue;
        if (isTraceFileName(entry.path().filename().string())) files.push_back(entry.path().string());
    }
    if (ec) return makeError(ErrorCode::IoError, "cannot list folder: " + ec.message(), folder);
    std::sort(files.begin(), files.end(), naturalLess);
    if (files.empty()) {
        return makeError(ErrorCode::NotFound, "no trace files (.json, .json.gz, .sqlite) in this folder", folder);
    }
    return files;
}

Result<std::shared_ptr<Trace>> readTrace(const std::string& pathOrFolder, const ReadOptions& options,
                                         ImportStats* stats) {
    std::error_code ec;
    if (std::filesystem::is_directory(pathOrFolder, ec)) {
        std::vector<std::string> files;
        TPSCOPE_TRY_ASSIGN(files, traceFilesIn(pathOrFolder));
        return readTraceFiles(files, options, stats);
    }
    if (isNsysReport(pathOrFolder)) {
        // nsys's own container: its SQLite export is what is read (nsys_report.h).
        std::string sqlite;
        TPSCOPE_TRY_ASSIGN(sqlite, exportNsysReport(pathOrFolder, options.control));
        auto trace = readTraceFiles({sqlite}, options, stats);
        if (trace) (*trace)->source = pathOrFolder;
        return trace;
    }
    FileFormat format{};
    TPSCOPE_TRY_ASSIGN(format, detectFileFormat(pathOrFolder));
    if (format == FileFormat::Sqlite) {
        auto db = SqliteDb::open(pathOrFolder, SqliteDb::Mode::ReadOnly);
        if (!db) return db.error();
        if (isWorkspaceDatabase(*db)) {
            WorkspaceOptions wo;
            wo.control = options.control;
            wo.threads = options.threads;
            auto trace = loadWorkspaceTrace(pathOrFolder, options.runIndex, wo);
            if (trace && stats != nullptr) {
                *stats = ImportStats{};
                stats->files = 1;
                for (const auto& r : (*trace)->ranks) {
                    for (const auto& s : r.streams) {
                        for (const auto k : s.events.kinds()) {
                            const auto kind = static_cast<EventKind>(k);
                            if (kind == EventKind::Memcpy) {
                                ++stats->memcpys;
                            } else if (kind == EventKind::Memset) {
                                ++stats->memsets;
                            } else {
                                ++stats->kernels;
                            }
                        }
                    }
                    stats->ranges += r.ranges.size();
                }
            }
            return trace;
        }
    }
    return readTraceFiles({pathOrFolder}, options, stats);
}

Result<std::shared_ptr<Trace>> readTraceFiles(const std::vector<std::string>& paths, const ReadOptions& options,
                                              ImportStats* stats) {
    if (paths.empty()) return makeError(ErrorCode::InvalidArgument, "no trace files given");
    const KernelClassifier& classifier =
        options.classifier != nullptr ? *options.classifier : KernelClassifier::builtin();

    // Progress: each file's share is its size; the user's callback is never entered concurrently.
    std::vector<double> span(paths.size());
    double total = 0;
    for (const auto& p : paths) total += static_cast<double>(fileSize(p));
    for (std::size_t i = 0; i < paths.size(); ++i) span[i] = static_cast<double>(fileSize(paths[i])) / total;
    std::mutex progressMutex;
    std::vector<double> done(paths.size(), 0.0);
    std::vector<TaskControl> controls(paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
        controls[i].cancel = options.control.cancel;
        if (!options.control.progress) continue;
        controls[i].progress = [&, i](double f) {
            std::lock_guard lock(progressMutex);
            done[i] = span[i] * f;
            double sum = 0;
            for (const double d : done) sum += d;
            options.control.report(sum * 0.95);  // the merge takes the rest
        };
    }

    std::vector<std::optional<Result<TracePart>>> results(paths.size());
    KinetoParserPool parsers;
    parallelFor(paths.size(), options.threads, [&](std::size_t i) {
        results[i] =
            withAllocationErrors([&] { return readOne(paths[i], classifier, controls[i], parsers); }, paths[i]);
    });

    std::vector<TracePart> parts;
    parts.reserve(paths.size());
    for (auto& r : results) {
        if (!r->ok()) return r->error();
        parts.push_back(std::move(r->value()));
    }
    auto trace = mergeParts(std::move(parts), stats, options.threads);
    options.control.report(1.0);
    return trace;
}

}  // namespace tpscope::core
