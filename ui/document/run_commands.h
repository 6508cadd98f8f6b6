// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Removing and clearing runs as undoable commands (QUndoStack, Edit → Undo): the window pushes one
// per Remove or Clear, so that a slip followed by Save does not write an empty workspace over the
// user's file. Redo removes the runs still in the document, remembering each record and its place;
// undo puts them back at their places (new RunIds: ids are never reused). A run removed while its
// sweep ran comes back cancelled: its worker's results were addressed to the old id.

#include <QUndoCommand>

#include <utility>
#include <vector>

#include "ui/document/run_id.h"
#include "ui/document/run_request.h"

namespace tpscope::ui {

class RunDocument;

class RemoveRunsCommand : public QUndoCommand {
  public:
    RemoveRunsCommand(RunDocument* document, std::vector<RunId> ids, const QString& text);

    void redo() override;
    void undo() override;
    // The runs it removed last (empty before the first redo and after an undo).
    std::size_t removedCount() const { return m_removed.size(); }

  private:
    RunDocument* m_document;
    std::vector<RunId> m_ids;
    std::vector<std::pair<int, RunRecord>> m_removed;  // display position, record; ascending positions
};

}  // namespace tpscope::ui
