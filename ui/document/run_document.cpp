// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document/run_document.h"

#include <algorithm>

namespace tpscope::ui {

RunDocument::RunDocument(QObject* parent) : QObject(parent) {}

RunId RunDocument::add(RunRecord record) {
    return insert(static_cast<int>(m_runs.size()), std::move(record));
}

RunId RunDocument::insert(int position, RunRecord record) {
    record.id = newId();
    m_sweeps = std::max(m_sweeps, record.sweep);
    const RunId id = record.id;
    const auto at = static_cast<std::size_t>(std::clamp(position, 0, static_cast<int>(m_runs.size())));
    m_runs.insert(m_runs.begin() + static_cast<std::ptrdiff_t>(at), std::move(record));
    ++m_revision;
    Q_EMIT runAdded(id);
    return id;
}

std::vector<RunId> RunDocument::add(std::vector<RunRecord> records) {
    std::vector<RunId> ids;
    ids.reserve(records.size());
    for (auto& r : records) ids.push_back(add(std::move(r)));
    return ids;
}

void RunDocument::resetRuns(std::vector<RunRecord> records) {
    m_runs = std::move(records);
    ++m_revision;
    for (auto& r : m_runs) {
        r.id = newId();
        m_sweeps = std::max(m_sweeps, r.sweep);  // the next sweep gets a number of its own
    }
    Q_EMIT reset();
}

void RunDocument::clear() {
    resetRuns({});
}

bool RunDocument::remove(RunId id) {
    const int i = indexOf(id);
    if (i < 0) return false;
    m_runs.erase(m_runs.begin() + i);
    ++m_revision;
    Q_EMIT runRemoved(id);
    return true;
}

bool RunDocument::update(RunId id, const std::function<void(RunRecord&)>& change) {
    const int i = indexOf(id);
    if (i < 0) return false;
    change(m_runs[static_cast<std::size_t>(i)]);
    m_runs[static_cast<std::size_t>(i)].id = id;  // the change may not re-identify the run
    ++m_revision;
    Q_EMIT runChanged(id);
    return true;
}

const RunRecord* RunDocument::run(RunId id) const {
    const int i = indexOf(id);
    return i < 0 ? nullptr : &m_runs[static_cast<std::size_t>(i)];
}

std::vector<RunId> RunDocument::ids() const {
    std::vector<RunId> out;
    out.reserve(m_runs.size());
    for (const auto& r : m_runs) out.push_back(r.id);
    return out;
}

int RunDocument::indexOf(RunId id) const {
    if (id == RunId::None) return -1;
    const auto it = std::find_if(m_runs.begin(), m_runs.end(), [id](const RunRecord& r) { return r.id == id; });
    return it == m_runs.end() ? -1 : static_cast<int>(it - m_runs.begin());
}

}  // namespace tpscope::ui
