// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The workspace document on the GUI thread (DESIGN.md §8 "One document"): it owns the runs, gives
// each a stable RunId, and says what changed by id. The runs table (RunsModel), the views and the
// window's workers refer to runs by id only; a result addressed to a removed run is dropped.
// Pointers returned by run() stay valid until the next change of the document.

#include <QObject>

#include <functional>
#include <vector>

#include "ui/document/run_id.h"
#include "ui/document/run_request.h"

namespace tpscope::ui {

class RunDocument : public QObject {
    Q_OBJECT

  public:
    explicit RunDocument(QObject* parent = nullptr);

    // Appends in display order; each gets a new id (the record's own id is ignored).
    RunId add(RunRecord record);
    std::vector<RunId> add(std::vector<RunRecord> records);
    // Inserts at a display position (clamped to [0, size()]) with a new id: Undo of a removal.
    RunId insert(int position, RunRecord record);
    // Replaces every run (an opened workspace): new ids, one reset() signal.
    void resetRuns(std::vector<RunRecord> records);
    void clear();
    bool remove(RunId id);
    // Applies `change` to the run and emits runChanged; false (and nothing happens) when it is gone.
    bool update(RunId id, const std::function<void(RunRecord&)>& change);

    const RunRecord* run(RunId id) const;  // nullptr when there is no such run (any more)
    std::vector<RunId> ids() const;        // in display order
    int indexOf(RunId id) const;           // display position, -1 when gone
    std::size_t size() const { return m_runs.size(); }
    bool empty() const { return m_runs.empty(); }
    const std::vector<RunRecord>& runs() const { return m_runs; }
    // A new sweep number, shown in the runs table so that runs of different sweeps can be told apart.
    int nextSweepNumber() { return ++m_sweeps; }
    // Counts every change (add, remove, update, reset): a save records the revision it wrote, so
    // that a run finishing while it was written is not marked saved.
    std::uint64_t revision() const { return m_revision; }

  Q_SIGNALS:
    void runAdded(tpscope::ui::RunId id);
    void runChanged(tpscope::ui::RunId id);
    void runRemoved(tpscope::ui::RunId id);
    void reset();

  private:
    RunId newId() { return static_cast<RunId>(++m_lastId); }

    std::vector<RunRecord> m_runs;
    std::uint64_t m_lastId = 0;
    int m_sweeps = 0;
    std::uint64_t m_revision = 0;
};

}  // namespace tpscope::ui
