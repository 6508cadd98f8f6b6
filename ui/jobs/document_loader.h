// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Opens a file (workspace, Kineto JSON, rank folder, nsys SQLite) as a job (ui/jobs/job.h) through
// Services::open and emits the result as a value: loaded(OpenedDocument) or failed(path, message).
// Each run's timeline data and analysis are derived on the same thread; before that, preview(run)
// hands over the first run with its trace and timeline rows (TimelineData::buildRows), so that a
// large file paints while it is analysed.
//
// A new load abandons the previous one without waiting for it: the superseded worker winds down on
// the job pool while the new one starts, so the GUI thread never blocks, and no signal of the old
// load follows. cancel() (the window's Cancel) does the same for the current load.

#include <QObject>
#include <QString>

#include <vector>

#include "ui/jobs/job.h"
#include "ui/jobs/services.h"

namespace tpscope::ui {

class DocumentLoader : public QObject {
    Q_OBJECT

  public:
    using OpenFn = decltype(Services::open);

    explicit DocumentLoader(OpenFn open, QObject* parent = nullptr);
    ~DocumentLoader() override;  // abandons the load, does not wait

    void start(const QString& path);
    void cancel();
    bool isLoading() const { return m_job.id() != 0; }
    // Blocks until every worker of this loader, abandoned ones too, has returned (tests, shutdown:
    // the open function may refer to what its caller owns).
    void wait();

  Q_SIGNALS:
    void progress(double fraction);
    void preview(tpscope::ui::RunRecord firstRun);
    void loaded(tpscope::ui::OpenedDocument document);
    void failed(QString path, QString message);

  private:
    OpenFn m_open;
    JobHandle m_job;                     // the current load; id 0: none
    std::vector<JobHandle> m_abandoned;  // still winding down
};

}  // namespace tpscope::ui
