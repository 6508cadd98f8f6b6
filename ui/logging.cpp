#include "ui/logging.h"

namespace tpscope::ui {

Q_LOGGING_CATEGORY(lcTimeline, "tpscope.timeline", QtInfoMsg)
Q_LOGGING_CATEGORY(lcRuns, "tpscope.runs", QtInfoMsg)
Q_LOGGING_CATEGORY(lcDocument, "tpscope.document", QtInfoMsg)
Q_LOGGING_CATEGORY(lcApp, "tpscope.app", QtInfoMsg)

}  // namespace tpscope::ui
