// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/collective_calls/collective_calls_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/analysis/collective_matching.h"
#include "core/util/units.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

QString dash() {
    return QStringLiteral("—");
}

QString bandwidthText(double v) {
    return std::isfinite(v) ? qs(core::formatSi(v, "B/s")) : dash();
}

}  // namespace

CollectiveCallsModel::CollectiveCallsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CollectiveCallsModel::setRun(std::shared_ptr<const core::Trace> trace,
                                  std::shared_ptr<const core::analysis::RunAnalysis> analysis,
                                  std::optional<core::sim::CollectiveModel> model) {
    beginResetModel();
    m_trace = std::move(trace);
    m_analysis = std::move(analysis);
    if (!m_trace || !m_analysis) {
        m_trace.reset();
        m_analysis.reset();
    }
    m_model = std::move(model);
    m_order.clear();  // a new run's rows are sorted from call order
    applySort();
    endResetModel();
}

std::size_t CollectiveCallsModel::callIndex(int row) const {
    const auto r = static_cast<std::size_t>(row);
    return m_order.empty() ? r : m_order[r];
}

int CollectiveCallsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_analysis ? 0 : static_cast<int>(m_analysis->matching.calls.size());
}

int CollectiveCallsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

Qt::ItemFlags CollectiveCallsModel::flags(const QModelIndex& index) const {
    return index.isValid() ? Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemNeverHasChildren : Qt::NoItemFlags;
}

QVariant CollectiveCallsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case Step:
            return tr("Step");
        case Layer:
            return tr("Layer");
        case Op:
            return tr("Op");
        case Bytes:
            return tr("Bytes");
        case Ranks:
            return tr("Ranks");
        case Transfer:
            return tr("Transfer");
        case Algbw:
            return tr("algbw");
        case Busbw:
            return tr("busbw");
        case ModelBusbw:
            return tr("Model busbw");
        case Ratio:
            return tr("busbw ÷ model");
        case Kernel:
            return tr("Kernel");
        default:
            return {};
    }
}

QVariant CollectiveCallsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const auto& call = m_analysis->matching.calls[callIndex(index.row())];
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            return text(call, column);
        case Qt::UserRole: {
            const double v = raw(call, column);
            return std::isnan(v) ? QVariant() : QVariant(v);
        }
        case Qt::TextAlignmentRole:
            if (column == Op || column == Kernel) return {};
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        default:
            return {};
    }
}

double CollectiveCallsModel::modelBusbw(const core::analysis::CollectiveCall& call) const {
    if (!m_model || call.op != core::CollectiveOp::AllReduce || call.bytes == 0 ||
        static_cast<int>(call.groupSize) != m_model->ranks()) {
        return NAN;
    }
    return core::sim::allReduceBusbw(call.bytes, m_model->allReduce(call.bytes).timeNs(), m_model->ranks());
}

double CollectiveCallsModel::raw(const core::analysis::CollectiveCall& call, int column) const {
    double v = NAN;
    switch (column) {
        case Step:
            v = static_cast<double>(call.step);
            break;
        case Layer:
            v = call.layer;
            break;
        case Bytes:
            v = static_cast<double>(call.bytes);
            break;
        case Ranks:
            v = call.groupSize;
            break;
        case Transfer:
            v = static_cast<double>(call.transferNs());
            break;
        case Algbw:
            v = core::analysis::algBandwidth(call);
            break;
        case Busbw:
            v = core::analysis::busBandwidth(call);
            break;
        case ModelBusbw:
            v = modelBusbw(call);
            break;
        case Ratio:
            v = core::analysis::busBandwidth(call) / modelBusbw(call);
            break;
        default:
            break;
    }
    return std::isfinite(v) ? v : NAN;
}

QString CollectiveCallsModel::text(const core::analysis::CollectiveCall& call, int column) const {
    switch (column) {
        case Step:
            return call.layer >= 0 ? QString::number(call.step) : dash();
        case Layer:
            return call.layer >= 0 ? QString::number(call.layer) : dash();
        case Op:
            return qs(std::string(core::toString(call.op)));
        case Bytes:
            return qs(core::formatBytes(static_cast<double>(call.bytes)));
        case Ranks:
            return QString::number(call.groupSize);
        case Transfer:
            return qs(core::formatDurationNs(static_cast<double>(call.transferNs()), core::DurationStyle::Detail));
        case Algbw:
            return bandwidthText(core::analysis::algBandwidth(call));
        case Busbw:
            return bandwidthText(core::analysis::busBandwidth(call));
        case ModelBusbw:
            return bandwidthText(modelBusbw(call));
        case Ratio: {
            const double ratio = raw(call, Ratio);
            return std::isnan(ratio) ? dash() : qs(core::formatPercent(ratio));
        }
        case Kernel: {
            const auto& first = m_analysis->matching.participants[call.firstParticipant];
            const auto& stream = m_trace->ranks[first.rankIndex].streams[first.streamIndex];
            return qs(std::string(m_trace->name(stream.events.name(first.eventIndex))));
        }
        default:
            return {};
    }
}

void CollectiveCallsModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<std::size_t> calls;  // of the persistent indexes, before the new order
    calls.reserve(static_cast<std::size_t>(before.size()));
    for (const auto& index : before) calls.push_back(callIndex(index.row()));
    m_sortColumn = column;
    m_sortOrder = order;
    applySort();
    if (!before.isEmpty()) {
        std::vector<std::uint32_t> rowOf(m_order.size());
        for (std::size_t row = 0; row < m_order.size(); ++row) rowOf[m_order[row]] = static_cast<std::uint32_t>(row);
        QModelIndexList after;
        after.reserve(before.size());
        for (qsizetype i = 0; i < before.size(); ++i) {
            const auto c = calls[static_cast<std::size_t>(i)];
            after.push_back(
                index(rowOf.empty() ? static_cast<int>(c) : static_cast<int>(rowOf[c]), before[i].column()));
        }
        changePersistentIndexList(before, after);
    }
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void CollectiveCallsModel::applySort() {
    if (!m_analysis) {
        m_order.clear();
        return;
    }
    const auto n = static_cast<std::uint32_t>(m_analysis->matching.calls.size());
    if (m_sortColumn < 0 || m_sortColumn >= ColumnCount) {  // unsorted: call order
        m_order.clear();
        return;
    }
    if (m_sortColumn == Op || m_sortColumn == Kernel) return;  // no raw numbers: all rows tie, the order stays
    const auto& calls = m_analysis->matching.calls;
    std::vector<double> key(n);
    for (std::uint32_t i = 0; i < n; ++i) key[i] = raw(calls[i], m_sortColumn);
    if (m_order.empty()) {
        m_order.resize(n);
        std::iota(m_order.begin(), m_order.end(), 0u);
    }
    // QVariant's order under QSortFilterProxyModel: a missing value is never less, and greater than
    // any number. Stable from the current order, as the proxy sorts its current rows: ties keep the
    // previous sort's order.
    const auto less = [&key](std::uint32_t a, std::uint32_t b) {
        return !std::isnan(key[a]) && (std::isnan(key[b]) || key[a] < key[b]);
    };
    if (m_sortOrder == Qt::AscendingOrder) {
        std::stable_sort(m_order.begin(), m_order.end(), less);
    } else {
        std::stable_sort(m_order.begin(), m_order.end(),
                         [&less](std::uint32_t a, std::uint32_t b) { return less(b, a); });
    }
}

}  // namespace tpscope::ui
