// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Shared by the headless widget tests: one QApplication on the offscreen platform, small traces
// with known events, and where screenshots go.

#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QString>

#include <memory>
#include <vector>

#include "core/sim/simulator.h"
#include "core/trace/trace.h"
#include "ui/jobs/sim_service.h"

namespace tpscope::test {

inline QApplication& ensureApp() {
    static int argc = 1;
    static char name[] = "ui_tests";
    static char* argv[] = {name, nullptr};
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static QApplication* app = [] {
        auto* a = new QApplication(argc, argv);
        // Settings (recent files, window state) of the tests stay in the build folder.
        QApplication::setOrganizationName(QStringLiteral("tpscope-tests"));
        QApplication::setApplicationName(QStringLiteral("ui_tests"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QStringLiteral(TPSCOPE_BINARY_DIR "/test-settings"));
        return a;
    }();
    return *app;
}

// Derive test fixtures from this first so the application exists before any widget member.
struct AppGuard {
    AppGuard() { ensureApp(); }
};

inline QString screenshotDir() {
    const QString dir = QStringLiteral(TPSCOPE_BINARY_DIR) + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

struct KernelSpec {
    std::int64_t startNs;
    std::int64_t durNs;
    core::EventKind kind;
    const char* name;
};

// ranks x {compute stream 7 holding `compute`, nccl stream 13 holding `comm`}; rank r's events are
// shifted by r * rankShiftNs so the cross-rank tests see skew.
inline std::shared_ptr<const core::Trace> makeTrace(int ranks, const std::vector<KernelSpec>& compute,
                                                    const std::vector<KernelSpec>& comm, std::int64_t rankShiftNs = 0) {
    auto t = std::make_shared<core::Trace>();
    const core::CollectivePayload coll{core::CollectiveOp::AllReduce,
                                       core::CollectiveAlgo::Ring,
                                       core::CollectiveProto::LL,
                                       core::Dtype::Fp16,
                                       static_cast<std::uint32_t>(ranks),
                                       core::NameId{},
                                       1 << 20};
    const core::PayloadId payload = t->intern(core::Payload::of(coll));
    for (int r = 0; r < ranks; ++r) {
        auto& rank = t->rank(core::RankId{static_cast<std::uint32_t>(r)});
        rank.deviceName = "Test GPU";
        rank.stream(core::StreamId{7}, "compute");
        if (!comm.empty()) rank.stream(core::StreamId{13}, "nccl");
    }
    for (int r = 0; r < ranks; ++r) {
        auto& rank = t->ranks[static_cast<std::size_t>(r)];
        const std::int64_t shift = r * rankShiftNs;
        for (const auto& k : compute) {
            rank.streams[0].events.append({k.startNs + shift, k.durNs, t->intern(k.name), k.kind, 0, core::kNoPayload});
        }
        for (const auto& k : comm) {
            rank.streams[1].events.append({k.startNs + shift, k.durNs - shift, t->intern(k.name), k.kind, 0, payload});
        }
    }
    t->finalize();
    return t;
}

// One simulated run of a request, built the way the GUI's sweeps are (ui::sweepSpecOf).
inline core::Result<std::shared_ptr<const core::Trace>> simulateRun(const ui::RunRequest& request) {
    ui::SweepRequest sweep;
    sweep.base = request;
    sweep.tps = {request.tp};
    sweep.batches = {request.batch};
    auto run = core::sim::simulate(ui::sweepSpecOf(sweep).configFor(request.tp, request.batch));
    if (!run) return run.error();
    return std::shared_ptr<const core::Trace>(run->trace);
}

}  // namespace tpscope::test
