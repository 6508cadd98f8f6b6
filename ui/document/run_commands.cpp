// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document/run_commands.h"

#include <algorithm>

#include "ui/document/run_document.h"

namespace tpscope::ui {

RemoveRunsCommand::RemoveRunsCommand(RunDocument* document, std::vector<RunId> ids, const QString& text)
    : QUndoCommand(text), m_document(document), m_ids(std::move(ids)) {}

void RemoveRunsCommand::redo() {
    m_removed.clear();
    for (const RunId id : m_ids) {
        const int position = m_document->indexOf(id);
        if (position < 0) continue;
        m_removed.emplace_back(position, *m_document->run(id));
    }
    // Ascending positions: undo inserts them front to back, each at the place it had.
    std::sort(m_removed.begin(), m_removed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [position, record] : m_removed) m_document->remove(record.id);
}

void RemoveRunsCommand::undo() {
    m_ids.clear();
    for (auto& [position, record] : m_removed) {
        if (record.status == RunStatus::Pending || record.status == RunStatus::Running) {
            record.status = RunStatus::Cancelled;
            record.error = QStringLiteral("removed before it finished");
        }
        m_ids.push_back(m_document->insert(position, std::move(record)));
    }
    m_removed.clear();
}

}  // namespace tpscope::ui
