// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_host_rows.h"

#include <simdjson.h>

namespace tpscope::core {

void KinetoHostRows::declare(std::string_view tpscopeMember) {
    simdjson::dom::parser parser;
    simdjson::dom::element meta;
    if (parser.parse(tpscopeMember.data(), tpscopeMember.size(), true).get(meta) != simdjson::SUCCESS) return;
    simdjson::dom::array ranks;
    if (meta["ranks"].get_array().get(ranks) != simdjson::SUCCESS) return;
    for (const auto r : ranks) {
        std::int64_t pid = 0;
        simdjson::dom::array threads;
        if (r["pid"].get_int64().get(pid) != simdjson::SUCCESS ||
            r["hostThreads"].get_array().get(threads) != simdjson::SUCCESS) {
            continue;
        }
        for (const auto t : threads) {
            Declared d;
            d.pid = pid;
            std::string_view label;
            if (t["tid"].get_int64().get(d.tid) != simdjson::SUCCESS ||
                t["id"].get_uint64().get(d.threadId) != simdjson::SUCCESS) {
                continue;
            }
            if (t["label"].get_string().get(label) == simdjson::SUCCESS) d.label = std::string(label);
            m_threads.push_back(std::move(d));
        }
    }
}

bool KinetoHostRows::take(const kineto::RecordFields& f, std::int64_t startNs, std::int64_t durNs, TracePart& part) {
    if (!f.hasPid || !f.hasTid) return false;
    std::int64_t pid = 0, tid = 0;
    if (f.pid.get_int64().get(pid) != simdjson::SUCCESS || f.tid.get_int64().get(tid) != simdjson::SUCCESS) {
        return false;
    }
    for (const auto& d : m_threads) {
        if (d.pid != pid || d.tid != tid) continue;
        const kineto::ArgFields a = f.hasArgs ? kineto::readArgs(f.args) : kineto::ArgFields{};
        StagedHostThread& thread = part.device(std::to_string(pid)).hostThread(d.threadId, d.label);
        thread.events.push_back(EventRecord{startNs, durNs, part.names.intern(f.name), EventKind::Other,
                                            static_cast<std::uint32_t>(a.correlation > 0 ? a.correlation : 0),
                                            kNoPayload});
        return true;
    }
    return false;
}

}  // namespace tpscope::core
