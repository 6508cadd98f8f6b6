// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Shared by the Compare tests: small simulated runs (llama3-8b, two decode steps) as trace files and
// as window runs, and a "measured" copy of a simulated trace for the measured-vs-model flows.

#include <QSignalSpy>
#include <QString>

#include <gtest/gtest.h>

#include "core/hw/catalog.h"
#include "core/io/export/chrome_writer.h"
#include "ui/document/run_document.h"
#include "ui/jobs/services.h"
#include "ui/jobs/sim_service.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

namespace tpscope::test {

// The GUI's request for one small simulated run on the catalog's presets.
inline ui::RunRequest smallRequest(int tp, const std::string& fabric = "nvlink4") {
    const auto catalog = core::Catalog::load();
    EXPECT_TRUE(catalog.ok());
    ui::RunRequest r;
    r.model = *catalog->model("llama3-8b");
    r.gpu = *catalog->gpu("h100-sxm");
    r.fabric = *catalog->fabric(fabric);
    r.tp = tp;
    r.batch = 4;
    r.tokens = 2;
    r.contextLen = 512;
    r.gpusPerNode = 8;
    return r;
}

// A finished run record of that request, analysed as the GUI's workers do.
inline ui::RunRecord simulatedRecord(const ui::RunRequest& request,
                                     core::TraceOrigin origin = core::TraceOrigin::Simulated) {
    ui::SweepRequest sweep;
    sweep.base = request;
    sweep.tps = {request.tp};
    sweep.batches = {request.batch};
    auto run = core::sim::simulate(ui::sweepSpecOf(sweep).configFor(request.tp, request.batch));
    EXPECT_TRUE(run.ok());
    auto trace = std::make_shared<core::Trace>(*run->trace);
    trace->origin = origin;
    ui::RunRecord record;
    record.request = request;
    if (origin != core::TraceOrigin::Simulated) {
        // A stand-in for a measured run: what an imported file gives the window.
        record.request.backend = ui::BackendKind::Imported;
        record.request.model = {};
        record.request.gpu = {};
        record.request.fabric = {};
        record.request.batch = 0;
        record.source = QStringLiteral("measured-tp%1.json").arg(request.tp);
    }
    record.status = ui::RunStatus::Done;
    record.progress = 1;
    record.trace = std::move(trace);
    ui::deriveRunData(record);
    return record;
}

}  // namespace tpscope::test
