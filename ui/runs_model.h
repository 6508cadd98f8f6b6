#pragma once
// The document's runs as a table (an adapter over RunDocument, ready for a QSortFilterProxyModel):
// name, sweep, status (with progress while running), backend, TP, batch, tokens, tokens/s, mean step
// latency and scaling efficiency. Every number comes from core: tokens/s and step latency from the
// run's RunAnalysis, efficiency from core::analysis::analyzeScaling over the run's sweep
// (run_scaling.h). The model keeps its own list of ids so that it can announce each insertion and
// removal to views with the begin/end calls the item-model contract needs.

#include <QAbstractTableModel>

#include <unordered_map>
#include <vector>

#include "ui/run_document.h"

namespace tpscope::ui {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Name, Sweep, Status, Backend, Tp, Batch, Tokens, TokensPerSec, StepLatency, Efficiency, ColumnCount };
    static constexpr int ProgressRole = Qt::UserRole + 1;  // double 0..1, or -1 when not running
    static constexpr int SortRole = Qt::UserRole + 2;
    static constexpr int RunIdRole = Qt::UserRole + 3;  // quint64 of the row's RunId

    explicit RunsModel(RunDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    RunDocument* document() const { return m_document; }
    RunId idAt(int row) const;
    int rowOf(RunId id) const;  // -1 when not in the table
    // NaN when the run has no row in its sweep's scaling report (not finished, imported, ...).
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
