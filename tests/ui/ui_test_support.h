// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Shared by the headless widget tests: one QApplication on the offscreen platform, small traces
// with known events, and where screenshots go.

#include <QApplication>
#include <QColor>
#include <QDir>
#include <QPalette>
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

// A dark desktop palette (Fusion's dark colours, disabled controls dimmed as a desktop's dark theme
// dims them): what the dark-theme tests set on the window or the application.
inline QPalette darkPalette() {
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2B, 0x2B, 0x2B));
    dark.setColor(QPalette::WindowText, QColor(0xE6, 0xE6, 0xE6));
    dark.setColor(QPalette::Base, QColor(0x1E, 0x1E, 0x1E));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Text, QColor(0xE6, 0xE6, 0xE6));
    dark.setColor(QPalette::Button, QColor(0x33, 0x33, 0x33));
    dark.setColor(QPalette::ButtonText, QColor(0xE6, 0xE6, 0xE6));
    dark.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ToolTipText, QColor(0xE6, 0xE6, 0xE6));
    dark.setColor(QPalette::Highlight, QColor(0x2A, 0x82, 0xDA));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x50));
    dark.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    // setColor above sets every group; then the disabled group is dimmed.
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        dark.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    }
    return dark;
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
