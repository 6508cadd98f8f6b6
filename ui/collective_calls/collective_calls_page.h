// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Collective calls tab (issue 17 §1): each collective call of the current run as a point, its
// bus bandwidth (core::analysis::busBandwidth: bytes / transfer x the nccl-tests factor, the number
// `analyze --calls --json` prints) against its message size, over the collective model's
// nccl-tests-style all-reduce curve (core::sim::CollectiveModel, NCCL's choice at each size, the
// curve `tpscope-cli allreduce --fabric F --gpus N` tabulates) for a fabric picked above the chart,
// at the calls' communicator size. The table lists every call with the model's busbw at its size,
// read from core as shown (CollectiveCallsModel: no item per cell, so a 10 M-event run's 250 k calls
// fill it in milliseconds, not seconds and a gigabyte of items; tests/bench/bench_charts).
// Calls without a size or a transfer time have no busbw and are counted, not plotted. The page
// plots; core computes. Cost: O(calls + curve sizes x algorithms).

#include <memory>

#include "core/analysis/analysis.h"
#include "core/hw/catalog.h"
#include "core/sim/collective_model.h"
#include "ui/charts/chart_page.h"
#include "ui/collective_calls/collective_calls_model.h"

class QComboBox;
class QCPGraph;
class QLabel;

namespace tpscope::ui {

class CollectiveCallsPage : public ChartPage {
    Q_OBJECT

  public:
    explicit CollectiveCallsPage(core::Catalog catalog, QWidget* parent = nullptr);

    // The run's calls; the model curve on fabricId when the catalog has it (an imported run's empty
    // id keeps the current choice).
    void setRun(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const core::analysis::RunAnalysis> analysis,
                const std::string& fabricId);
    void setFabric(const std::string& fabricId);

    // Each read first builds the page if the run or the fabric changed since.
    QCPGraph* allReducePoints();
    QCPGraph* otherPoints();  // all-gather, reduce-scatter, ...
    QCPGraph* modelCurve();
    int curveRanks();  // communicator size of the curve (0: none)
    std::string fabricId() const;
    QString statusText();
    // One row per call, in the order the table shows (call order until a header is clicked).
    CollectiveCallsModel* tableModel();
    core::Status exportTo(const ExportRequest& request) const override;

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void invalidate();  // rebuilds now when shown, else when next shown or read
    void ensureBuilt();
    void rebuild();

    core::Catalog m_catalog;
    std::vector<core::FabricSpec> m_fabrics;  // intra-node ones: the curve is one node's
    std::shared_ptr<const core::Trace> m_trace;
    std::shared_ptr<const core::analysis::RunAnalysis> m_analysis;
    QComboBox* m_fabric = nullptr;
    QLabel* m_status = nullptr;
    CollectiveCallsModel* m_calls = nullptr;
    QCPGraph* m_allReduce = nullptr;
    QCPGraph* m_other = nullptr;
    QCPGraph* m_curve = nullptr;
    int m_ranks = 0;
    bool m_stale = true;
};

}  // namespace tpscope::ui
