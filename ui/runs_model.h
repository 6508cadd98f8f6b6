#pragma once
// The workspace's runs as a table: status (with progress while running), backend, TP, batch,
// tokens/s, step latency and scaling efficiency. Efficiency compares a run with the run of the
// smallest TP in its group (same model, dtype, batch, context, hardware) that finished:
// (tokens/s ÷ baseline tokens/s) ÷ (TP ÷ baseline TP) — DESIGN.md §5 with TP 1 as the baseline
// when it ran.

#include <QAbstractTableModel>

#include <vector>

#include "ui/run_request.h"

namespace tpscope::ui {

// NaN where a run has no finished baseline (or did not finish).
std::vector<double> scalingEfficiencies(const std::vector<RunRecord>& runs);

class RunsModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Name, Status, Backend, Tp, Batch, TokensPerSec, StepLatency, Efficiency, ColumnCount };
    static constexpr int ProgressRole = Qt::UserRole + 1;  // double 0..1, or -1 when not running
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit RunsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void setRuns(std::vector<RunRecord> runs);
    int appendRuns(std::vector<RunRecord> runs);  // returns the row of the first one
    void updateRun(int row, RunRecord run);
    void setProgress(int row, double fraction);
    void clear();

    const RunRecord& run(int row) const { return m_runs[static_cast<std::size_t>(row)]; }
    RunRecord& mutableRun(int row) { return m_runs[static_cast<std::size_t>(row)]; }
    const std::vector<RunRecord>& runs() const { return m_runs; }
    double efficiency(int row) const { return m_efficiency[static_cast<std::size_t>(row)]; }

  private:
    void recomputeEfficiency();

    std::vector<RunRecord> m_runs;
    std::vector<double> m_efficiency;
};

}  // namespace tpscope::ui
