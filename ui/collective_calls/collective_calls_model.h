// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Collective calls table (issue 17 §1, made virtual for issue 18): one row per collective call
// of a run, each cell read from core in data(): the call (core::analysis::CollectiveMatching), its
// algbw/busbw (core::analysis::algBandwidth/busBandwidth), the collective model's busbw at its size
// (core::sim::allReduceBusbw, all-reduces of the model's communicator size only) and the first
// participant's kernel name from the trace. Text is core's formatters'; Qt::UserRole holds the raw
// number (none where there is none), which sorting and CSV export read. Nothing is stored per row
// but the sort permutation. Cost: data() O(1) (a model busbw: O(algorithms x protocols));
// sort() O(calls log calls) time and O(calls) memory; a new run O(calls) when sorted, else O(1).

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/sim/collective_model.h"

namespace tpscope::ui {

class CollectiveCallsModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Step, Layer, Op, Bytes, Ranks, Transfer, Algbw, Busbw, ModelBusbw, Ratio, Kernel, ColumnCount };

    explicit CollectiveCallsModel(QObject* parent = nullptr);

    // The run's calls (none while either is null); `model` gives the Model busbw column (nullopt: "—").
    // The current sort holds for the new rows.
    void setRun(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const core::analysis::RunAnalysis> analysis,
                std::optional<core::sim::CollectiveModel> model);
    // The call shown in `row`: an index into the matching's calls.
    std::size_t callIndex(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // By each cell's raw number, calls without one last (first when descending), stable from the
    // current order, exactly as the QSortFilterProxyModel sorting by Qt::UserRole that this model
    // replaced: the text columns (no raw number) keep the current order; column -1 is call order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

  private:
    // The cell's raw number; NaN where it has none (a text column, no size or transfer, no model).
    double raw(const core::analysis::CollectiveCall& call, int column) const;
    double modelBusbw(const core::analysis::CollectiveCall& call) const;
    QString text(const core::analysis::CollectiveCall& call, int column) const;
    void applySort();

    std::shared_ptr<const core::Trace> m_trace;
    std::shared_ptr<const core::analysis::RunAnalysis> m_analysis;
    std::optional<core::sim::CollectiveModel> m_model;
    std::vector<std::uint32_t> m_order;  // row -> call; empty: call order
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

}  // namespace tpscope::ui
