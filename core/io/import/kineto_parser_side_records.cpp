// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The records and members read once or rarely: top-level members (distributedInfo,
// deviceProperties, baseTimeNanoseconds, tpscope), "M" thread names and "B"/"E" pairs (kineto_parser.h).
#include "core/io/import/kineto_parser.h"

#include <simdjson.h>

#include <string>

namespace tpscope::core {

namespace {

using kineto::ArgFields;
using kineto::idKey;
using kineto::idNumber;
using kineto::RecordFields;

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    return s;
}

std::string pidTidKey(std::string_view pid, simdjson::dom::element tid, bool hasTid) {
    kineto::IdKeyBuffer buf{};
    std::string key(pid);
    key += '/';
    key += idKey(tid, hasTid, buf);
    return key;
}

}  // namespace

Status KinetoParser::member(std::string_view key, std::string_view raw) {
    if (key == "tpscope") {
        m_tpscopeMeta.assign(raw);
        m_hostRows.declare(raw);
        return Ok{};
    }
    if (key != "distributedInfo" && key != "deviceProperties" && key != "baseTimeNanoseconds") return Ok{};
    simdjson::dom::element e;
    if (m_sideParser.parse(raw.data(), raw.size(), true).get(e) != simdjson::SUCCESS) {
        m_stats.note("top-level member \"" + std::string(key) + "\" is not valid JSON; ignored");
        return Ok{};
    }
    if (key == "baseTimeNanoseconds") {
        if (const auto base = kineto::integer(e); base && *base > -kMaxAbsTimeNs && *base < kMaxAbsTimeNs) {
            m_part.timeBaseNs = *base;
        }
    } else if (key == "distributedInfo") {
        simdjson::dom::element v;
        if (e["rank"].get(v) == simdjson::SUCCESS) {
            if (const auto r = kineto::integer(v); r && *r >= 0 && *r < (1LL << 31)) {
                m_part.declaredRank = static_cast<std::uint32_t>(*r);
            }
        }
        if (e["world_size"].get(v) == simdjson::SUCCESS) {
            if (const auto w = kineto::integer(v)) m_part.setMetadata("world_size", std::to_string(*w));
        }
        std::string_view s;
        if (e["nccl_version"].get_string().get(s) == simdjson::SUCCESS) {
            m_part.setMetadata("nccl_version", std::string(s));
        }
        if (e["backend"].get_string().get(s) == simdjson::SUCCESS) m_part.setMetadata("backend", std::string(s));
    } else {
        simdjson::dom::array gpus;
        if (e.get_array().get(gpus) != simdjson::SUCCESS) return Ok{};
        for (const auto g : gpus) {
            simdjson::dom::element id;
            std::string_view name;
            if (g["id"].get(id) == simdjson::SUCCESS && g["name"].get_string().get(name) == simdjson::SUCCESS) {
                if (const auto i = kineto::integer(id)) m_gpuNames[*i] = std::string(name);
            }
        }
    }
    return Ok{};
}

void KinetoParser::beginEnd(const RecordFields& f, simdjson::dom::object obj) {
    if (!f.tsNs) {
        ++m_stats.badRecords;
        return;
    }
    kineto::IdKeyBuffer buf{};
    const std::string key = pidTidKey(idKey(f.pid, f.hasPid, buf), f.tid, f.hasTid);
    if (f.ph[0] == 'B') {
        m_openBegins[key].push_back(simdjson::minify(obj));
        return;
    }
    auto it = m_openBegins.find(key);
    if (it == m_openBegins.end() || it->second.empty()) {
        ++m_stats.unmatchedEnds;
        return;
    }
    const std::string text = std::move(it->second.back());
    it->second.pop_back();
    simdjson::dom::object begin;
    if (m_sideParser.parse(text).get_object().get(begin) != simdjson::SUCCESS) return;
    const RecordFields b = kineto::readRecord(begin);
    if (!b.tsNs) return;
    complete(b, *b.tsNs, *f.tsNs - *b.tsNs);
}

void KinetoParser::metadataRecord(const RecordFields& f) {
    if (f.name != "thread_name" || !f.hasArgs) return;
    const ArgFields a = kineto::readArgs(f.args);
    kineto::IdKeyBuffer buf{};
    const auto tidNumber = f.hasTid ? idNumber(f.tid) : std::nullopt;
    if (!tidNumber || a.text.empty()) return;
    std::string key(idKey(f.pid, f.hasPid, buf));
    key += '/' + std::to_string(*tidNumber);
    m_threadNames[key] = std::string(trim(a.text));
}

}  // namespace tpscope::core
