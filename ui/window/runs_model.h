// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The document's runs as a table (an adapter over RunDocument, ready for a QSortFilterProxyModel):
// name, sweep, the step's loss breakdown (an inline bar, StepBarDelegate), status (with progress
// while running, or why it failed), TP, batch, tokens, tokens/s, mean step latency, scaling
// efficiency and backend. Every number comes from core: tokens/s, step latency and the breakdown from the run's
// RunAnalysis, efficiency from core::analysis::analyzeScaling over the run's sweep (run_scaling.h),
// shown only where a smaller TP of the same sweep and batch ran (against itself it is 100 % by
// definition). The model keeps its own list of ids so that it can announce each insertion and
// removal to views with the begin/end calls the item-model contract needs.

#include <QAbstractTableModel>

#include <unordered_map>
#include <vector>

#include "ui/document/run_document.h"

namespace tpscope::ui {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    // The step bar next to the name: what a user looks for first when a sweep finishes; the backend,
    // the same for every run of a sweep, last.
    enum Column {
        Name,
        Sweep,
        StepBreakdown,
        Status,
        Tp,
        Batch,
        Tokens,
        TokensPerSec,
        StepLatency,
        Efficiency,
        Backend,
        ColumnCount
    };
    static constexpr int ProgressRole = Qt::UserRole + 1;  // double 0..1, or -1 when not running
    static constexpr int SortRole = Qt::UserRole + 2;
    static constexpr int RunIdRole = Qt::UserRole + 3;  // quint64 of the row's RunId
    // core::analysis::LossBreakdown of a finished run's step (its RunAnalysis summary), on the
    // StepBreakdown column; invalid elsewhere and for runs without an analysis.
    static constexpr int LossRole = Qt::UserRole + 4;

    explicit RunsModel(RunDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    RunDocument* document() const { return m_document; }
    RunId idAt(int row) const;
    int rowOf(RunId id) const;  // -1 when not in the table
    // NaN when the run has no row in its sweep's scaling report (not finished, imported, ...) or is
    // its batch's baseline (no smaller TP ran).
    double efficiency(RunId id) const;

  private:
    void onAdded(RunId id);
    void onChanged(RunId id);
    void onRemoved(RunId id);
    void onReset();
    void recomputeEfficiency();

    RunDocument* m_document = nullptr;
    std::vector<RunId> m_rows;
    std::unordered_map<RunId, double> m_efficiency;
};

}  // namespace tpscope::ui
