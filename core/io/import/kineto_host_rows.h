// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Host rows (Rank::hostThreads) read back from tpscope's own Chrome JSON export (issue 26).
//
// Input: the "tpscope" member's ranks[].hostThreads ({tid, id, label}: which thread of the rank's
// process is which host thread) and the "X" records on those threads (cat cuda_runtime: launch calls
// and the host's other work), args.correlation = the launched kernel's, 0 for none. The member precedes "traceEvents"
// in every file tpscope writes, so the threads are known before their records arrive; in a file where it comes later,
// or in another profiler's trace, runtime records stay skipped as before. Mapping: each record on a declared thread
// becomes an event of that host thread of the device (kind Other, its correlation id kept), so the timeline, host_idle
// and launch_link see the same rows as before the export. The flow records beside them are Perfetto's arrows and not
// needed. Cost: O(declared threads) per CPU record while any are declared, nothing otherwise.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/import/kineto_fields.h"
#include "core/io/import/trace_part.h"

namespace tpscope::core {

class KinetoHostRows {
  public:
    // Reads ranks[].hostThreads of the "tpscope" member (its raw JSON); a malformed entry is skipped.
    void declare(std::string_view tpscopeMember);
    bool active() const { return !m_threads.empty(); }
    // Stages the record onto its host thread when (pid, tid) is a declared one; false otherwise.
    bool take(const kineto::RecordFields& f, std::int64_t startNs, std::int64_t durNs, TracePart& part);

  private:
    struct Declared {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        std::uint64_t threadId = 0;
        std::string label;
    };
    std::vector<Declared> m_threads;
};

}  // namespace tpscope::core
