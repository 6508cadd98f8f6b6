// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Progress and cancellation for every long call (file import and export, a simulated run or sweep,
// a run on local GPUs), so that the GUI can run it on a worker thread and the CLI can print a
// counter and stop on Ctrl-C. One type for core, gpu and ui:
//   - progress gets the work's own progress value: the fraction done in [0, 1] for TaskControl
//     (report() clamps it), a richer struct where a caller needs more (a sweep's runs as they finish);
//   - cancel is a flag any thread may set; the work stops at its next check (each decode step, every
//     few MB or chunk of a file) and returns ErrorCode::Cancelled, or marks its result cancelled when
//     the work done so far is worth keeping (a sweep's finished runs).
// Callbacks run on the thread that does the work.

#include <atomic>
#include <functional>
#include <type_traits>

namespace tpscope::core {

using CancelFlag = std::atomic<bool>;

template <class Progress>
struct TaskControlOf {
    std::function<void(Progress)> progress;
    const CancelFlag* cancel = nullptr;

    bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
    void report(const Progress& value) const {
        if (!progress) return;
        if constexpr (std::is_floating_point_v<Progress>) {
            progress(value < 0 ? Progress{0} : (value > 1 ? Progress{1} : value));
        } else {
            progress(value);
        }
    }
};

// Fraction-done progress.
using ProgressFn = std::function<void(double fractionDone)>;
using TaskControl = TaskControlOf<double>;

}  // namespace tpscope::core
