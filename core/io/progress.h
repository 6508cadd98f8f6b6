#pragma once
// Progress and cancellation for long file work, so the GUI can run it on a worker thread: the
// callback gets the fraction done in [0, 1]; setting *cancel makes the work return ErrorCode::Cancelled
// at its next check (checks happen every few MB or every chunk).

#include <atomic>
#include <functional>

namespace tpscope::core {

using ProgressFn = std::function<void(double fractionDone)>;

struct TaskControl {
    ProgressFn progress;
    const std::atomic<bool>* cancel = nullptr;

    bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
    void report(double fraction) const {
        if (progress) progress(fraction < 0 ? 0 : (fraction > 1 ? 1 : fraction));
    }
};

}  // namespace tpscope::core
