#include "ui/runs_model.h"

#include <QColor>

#include <cmath>
#include <limits>

#include "ui/timeline/time_ruler.h"

namespace tpscope::ui {

namespace {

bool sameGroup(const RunRequest& a, const RunRequest& b) {
    return a.backend == b.backend && a.model.id == b.model.id && a.model.hidden == b.model.hidden &&
           a.model.layers == b.model.layers && a.dtype == b.dtype && a.batch == b.batch &&
           a.contextLen == b.contextLen && a.gpu.id == b.gpu.id && a.fabric.id == b.fabric.id &&
           a.cudaGraphs == b.cudaGraphs && a.overlap == b.overlap;
}

bool finished(const RunRecord& r) {
    return r.status == RunStatus::Done && r.metrics.tokensPerSec > 0;
}

}  // namespace

std::vector<double> scalingEfficiencies(const std::vector<RunRecord>& runs) {
    std::vector<double> out(runs.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!finished(runs[i]) || runs[i].request.backend == BackendKind::Imported) continue;
        const RunRecord* base = nullptr;
        for (const auto& r : runs) {
            if (finished(r) && sameGroup(r.request, runs[i].request) && (!base || r.request.tp < base->request.tp))
                base = &r;
        }
        const double speedup = runs[i].metrics.tokensPerSec / base->metrics.tokensPerSec;
        out[i] = speedup / (static_cast<double>(runs[i].request.tp) / base->request.tp);
    }
    return out;
}

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

int RunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const RunRecord& r = m_runs[static_cast<std::size_t>(index.row())];
    const double eff = m_efficiency[static_cast<std::size_t>(index.row())];
    const bool imported = r.request.backend == BackendKind::Imported;
    if (role == ProgressRole) return r.status == RunStatus::Running ? r.progress : -1.0;
    if (role == Qt::ToolTipRole) {
        if (r.status == RunStatus::Failed || r.status == RunStatus::Cancelled) return r.error;
        if (index.column() == Efficiency)
            return tr("speed-up ÷ GPU ratio vs the smallest TP of the same configuration");
        return r.source.isEmpty() ? QVariant() : QVariant(r.source);
    }
    if (role == Qt::ForegroundRole && r.status == RunStatus::Failed) return QColor(0xB0, 0x30, 0x30);
    if (role == Qt::TextAlignmentRole && index.column() >= Tp) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (index.column()) {
            case Tp:
                return r.request.tp;
            case Batch:
                return r.request.batch;
            case TokensPerSec:
                return r.metrics.tokensPerSec;
            case StepLatency:
                return r.metrics.stepLatencyNs;
            case Efficiency:
                return eff;
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole) return {};
    const bool done = r.status == RunStatus::Done;
    switch (index.column()) {
        case Name:
            return r.label();
        case Status:
            if (r.status == RunStatus::Running) return QStringLiteral("%1 %").arg(static_cast<int>(r.progress * 100));
            return statusText(r.status);
        case Backend:
            return r.request.backendText();
        case Tp:
            return r.request.tp;
        case Batch:
            return imported ? QVariant(QStringLiteral("—")) : QVariant(r.request.batch);
        case TokensPerSec:
            return done && r.metrics.tokensPerSec > 0 ? QVariant(QString::number(r.metrics.tokensPerSec, 'f', 1))
                                                      : QVariant();
        case StepLatency:
            return done && r.metrics.stepLatencyNs > 0 ? QVariant(formatDuration(r.metrics.stepLatencyNs)) : QVariant();
        case Efficiency:
            return std::isnan(eff) ? QVariant() : QVariant(QStringLiteral("%1 %").arg(eff * 100, 0, 'f', 0));
        default:
            return {};
    }
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Name:
            return tr("Run");
        case Status:
            return tr("Status");
        case Backend:
            return tr("Backend");
        case Tp:
            return tr("TP");
        case Batch:
            return tr("Batch");
        case TokensPerSec:
            return tr("Tokens/s");
        case StepLatency:
            return tr("Step latency");
        case Efficiency:
            return tr("Efficiency");
        default:
            return {};
    }
}

void RunsModel::setRuns(std::vector<RunRecord> runs) {
    beginResetModel();
    m_runs = std::move(runs);
    recomputeEfficiency();
    endResetModel();
}

int RunsModel::appendRuns(std::vector<RunRecord> runs) {
    const int first = rowCount();
    if (runs.empty()) return first;
    beginInsertRows({}, first, first + static_cast<int>(runs.size()) - 1);
    for (auto& r : runs) m_runs.push_back(std::move(r));
    recomputeEfficiency();
    endInsertRows();
    return first;
}

void RunsModel::updateRun(int row, RunRecord run) {
    if (row < 0 || row >= rowCount()) return;
    m_runs[static_cast<std::size_t>(row)] = std::move(run);
    recomputeEfficiency();
    // Efficiency of the other runs of the group may change with this one.
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void RunsModel::setProgress(int row, double fraction) {
    if (row < 0 || row >= rowCount()) return;
    auto& r = m_runs[static_cast<std::size_t>(row)];
    r.status = RunStatus::Running;
    r.progress = fraction;
    Q_EMIT dataChanged(index(row, Status), index(row, Status), {Qt::DisplayRole, ProgressRole});
}

void RunsModel::clear() {
    setRuns({});
}

void RunsModel::recomputeEfficiency() {
    m_efficiency = scalingEfficiencies(m_runs);
}

}  // namespace tpscope::ui
