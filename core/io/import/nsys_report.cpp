// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/nsys_report.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

extern char** environ;

namespace tpscope::core {

namespace fs = std::filesystem;

bool isNsysReport(std::string_view path) {
    return path.ends_with(".nsys-rep") || path.ends_with(".qdrep");
}

std::string nsysExportCommand(const std::string& report, const std::string& sqlite) {
    return "nsys export --type sqlite --output '" + sqlite + "' '" + report + "'";
}

std::string findOnPath(const std::string& name, const std::string& pathList) {
    std::size_t from = 0;
    while (from <= pathList.size()) {
        const std::size_t colon = std::min(pathList.find(':', from), pathList.size());
        const std::string dir = pathList.substr(from, colon - from);
        from = colon + 1;
        if (dir.empty()) continue;
        const fs::path candidate = fs::path(dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return {};
}

namespace {

fs::path cacheFolder() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
        return fs::path(xdg) / "tpscope" / "nsys-export";
    }
    const char* home = std::getenv("HOME");
    return fs::path(home != nullptr && *home != '\0' ? home : fs::temp_directory_path().c_str()) / ".cache" /
           "tpscope" / "nsys-export";
}

// Runs argv[0] with argv (no shell) until it exits or `control` cancels it; its exit status, or
// ErrorCode::Cancelled.
Result<int> runUntilDone(const std::vector<std::string>& args, const TaskControl& control) {
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    if (const int err = ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ); err != 0) {
        return makeError(ErrorCode::IoError, "cannot start " + args[0] + ": " + std::strerror(err), args[0]);
    }
    int status = 0;
    while (true) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0) return makeError(ErrorCode::IoError, "lost track of " + args[0], args[0]);
        if (control.cancelled()) {
            ::kill(pid, SIGTERM);
            ::waitpid(pid, &status, 0);
            return makeError(ErrorCode::Cancelled, "export cancelled", args.back());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

Result<std::string> exportNsysReport(const std::string& report, const TaskControl& control,
                                     const std::string& nsysPath) {
    std::error_code ec;
    if (!fs::is_regular_file(report, ec)) return makeError(ErrorCode::NotFound, "no such file", report);
    const std::string nsys =
        !nsysPath.empty() ? nsysPath : findOnPath("nsys", std::getenv("PATH") ? std::getenv("PATH") : "");
    const std::string byHand = fs::path(report).replace_extension(".sqlite").string();
    if (nsys.empty()) {
        return makeError(ErrorCode::NotFound,
                         "an Nsight Systems report needs Nsight Systems' nsys to be read, and nsys is not on the "
                         "PATH; export it with `" +
                             nsysExportCommand(report, byHand) + "` and open the .sqlite file",
                         report);
    }
    const auto size = fs::file_size(report, ec);
    const auto mtime = fs::last_write_time(report, ec).time_since_epoch().count();
    const fs::path folder = cacheFolder();
    const fs::path cached = folder / (fs::path(report).stem().string() + "-" + std::to_string(size) + "-" +
                                      std::to_string(mtime) + ".sqlite");
    if (fs::is_regular_file(cached, ec)) return cached.string();
    fs::create_directories(folder, ec);
    if (ec)
        return makeError(ErrorCode::IoError, "cannot create the export cache folder: " + ec.message(), folder.string());
    // nsys writes the partial file under a name of its own; renamed once complete.
    const fs::path partial = cached.string() + ".part.sqlite";
    control.report(0);
    auto exit = runUntilDone(
        {nsys, "export", "--type", "sqlite", "--force-overwrite", "true", "--output", partial.string(), report},
        control);
    if (!exit || *exit != 0 || !fs::is_regular_file(partial, ec)) {
        fs::remove(partial, ec);
        if (!exit) return exit.error();
        return makeError(ErrorCode::IoError,
                         "nsys export failed (exit status " + std::to_string(*exit) + "); try it by hand: `" +
                             nsysExportCommand(report, byHand) + "`",
                         report);
    }
    fs::rename(partial, cached, ec);
    if (ec)
        return makeError(ErrorCode::IoError, "cannot move the export into the cache: " + ec.message(), cached.string());
    control.report(1);
    return cached.string();
}

}  // namespace tpscope::core
