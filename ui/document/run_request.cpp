// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document/run_request.h"

#include "core/sim/allreduce_engine.h"
#include "core/sim/runtime_profile.h"

namespace tpscope::ui {

QString RunRequest::label() const {
    // Tokens and context too: runs of one TP and batch often differ only in how many steps they ran
    // or how long their KV cache was (`simulate --context 1024,2048`); two runs never share a name.
    return QStringLiteral("TP %1 · batch %2 · context %3 · %4 tokens").arg(tp).arg(batch).arg(contextLen).arg(tokens);
}

core::PlanConfig RunRequest::plan() const {
    core::PlanConfig config{model, tp, batch, contextLen, dtype};
    config.moeParallel = moeParallel;
    return config;
}

QString RunRequest::backendText() const {
    switch (backend) {
        case BackendKind::SimulatedCluster:
            // The runtime profile sets the host's share of each step: two runs that differ only in it
            // differ in every number.
            return QStringLiteral("sim %1×%2 %3, %4%5, %6%7")
                .arg(nodes)
                .arg(gpusPerNode)
                .arg(QString::fromStdString(gpu.id), QString::fromStdString(fabric.id),
                     nodes > 1 && interFabric ? QStringLiteral(" + ") + QString::fromStdString(interFabric->id)
                                              : QString(),
                     QString::fromLatin1(core::sim::toString(runtime)),
                     allReduceEngine == core::sim::AllReduceEngine::Nccl
                         ? QString()
                         : QStringLiteral(", ") + QString::fromLatin1(core::sim::toString(allReduceEngine)));
        case BackendKind::LocalGpus:
            return QStringLiteral("local GPUs");
        case BackendKind::Imported:
            return QStringLiteral("imported");
    }
    return {};
}

std::vector<RunRequest> SweepRequest::expand() const {
    std::vector<RunRequest> runs;
    for (const int tp : tps) {
        for (const int batch : batches) {
            RunRequest r = base;
            r.tp = tp;
            r.batch = batch;
            runs.push_back(r);
        }
    }
    return runs;
}

QString RunRecord::label() const {
    if (request.backend == BackendKind::Imported) return source.section(QLatin1Char('/'), -1);
    return request.label();
}

QString statusText(RunStatus status) {
    switch (status) {
        case RunStatus::Pending:
            return QStringLiteral("pending");
        case RunStatus::Running:
            return QStringLiteral("running");
        case RunStatus::Done:
            return QStringLiteral("done");
        case RunStatus::Failed:
            return QStringLiteral("failed");
        case RunStatus::Cancelled:
            return QStringLiteral("cancelled");
        case RunStatus::DoesNotFit:
            return QStringLiteral("does not fit");
    }
    return {};
}

bool endedWithReason(RunStatus status) {
    return status == RunStatus::Failed || status == RunStatus::DoesNotFit;
}

}  // namespace tpscope::ui
