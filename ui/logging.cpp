#include "ui/logging.h"

namespace tpscope::ui {

Q_LOGGING_CATEGORY(lcTimeline, "tpscope.timeline", QtWarningMsg)
Q_LOGGING_CATEGORY(lcRuns, "tpscope.runs", QtWarningMsg)
Q_LOGGING_CATEGORY(lcDocument, "tpscope.document", QtWarningMsg)
Q_LOGGING_CATEGORY(lcApp, "tpscope.app", QtWarningMsg)

}  // namespace tpscope::ui
