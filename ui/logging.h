#pragma once
// One logging category per area of the GUI; enable with QT_LOGGING_RULES="tpscope.*.debug=true".

#include <QLoggingCategory>

namespace tpscope::ui {

Q_DECLARE_LOGGING_CATEGORY(lcTimeline)
Q_DECLARE_LOGGING_CATEGORY(lcRuns)
Q_DECLARE_LOGGING_CATEGORY(lcDocument)
Q_DECLARE_LOGGING_CATEGORY(lcApp)

}  // namespace tpscope::ui
