// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Field extraction for one Kineto / Chrome trace record (a simdjson DOM object): one pass over the
// record's members and, when asked, one over its "args", each member's key dispatched by one switch
// on its length and first byte. Views point into the parser's DOM and are valid until the next batch
// is parsed.
//
// Timestamps are microseconds in the file (integer or float, sometimes a string) and int64 ns here:
// integers convert exactly; floats are rounded to the nearest ns (exact for Kineto's relative float
// µs, within 1 ns for float epoch µs beyond 2^53 / 1000).

#include <simdjson.h>

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/trace/event_kind.h"

namespace tpscope::core::kineto {

struct RecordFields {
    std::string_view ph;
    std::string_view cat;
    std::string_view name;
    simdjson::dom::element pid;
    simdjson::dom::element tid;
    bool hasPid = false;
    bool hasTid = false;
    std::optional<std::int64_t> tsNs;
    std::optional<std::int64_t> durNs;
    bool badTime = false;  // ts or dur present but not a number
    simdjson::dom::object args;
    bool hasArgs = false;
    simdjson::dom::element id;  // flows: the first "id"
    bool hasId = false;
};

struct ArgFields {
    std::int64_t device = -1;
    std::uint64_t stream = 0;  // CUDA stream ids can use all 64 bits
    bool hasStream = false;
    std::int64_t externalId = -1;
    std::int64_t correlation = -1;
    std::int64_t bytes = -1;
    std::int64_t inNelems = -1;
    std::int64_t outNelems = -1;
    std::int64_t groupSize = -1;
    std::int64_t msgBytes = -1;  // tpscope export: exact collective bytes
    std::int64_t depth = -1;     // tpscope export: range depth
    std::int64_t gemmM = -1, gemmN = -1, gemmK = -1;
    // The first tensor argument of a CPU op: the product of the first non-empty shape in "Input Dims"
    // and the "Input type" at the same position (nccl:* annotations, custom all-reduce ops).
    std::int64_t inputElems = -1;
    std::string_view collectiveName;
    std::string_view dtype;
    std::string_view processGroupName;
    std::string_view processGroupDesc;
    std::string_view kind;         // tpscope export: event kind (its presence means: fields are exact)
    std::string_view payloadKind;  // tpscope export: "collective", "gemm", "copy"
    std::string_view algo;         // tpscope export
    std::string_view proto;        // tpscope export
    std::string_view copyKind;
    std::string_view inputType;  // "Input type" of that argument
    std::string_view text;       // metadata records: args.name / args.labels
};

// For optional fields: a missing or mistyped field leaves the target at its default.
inline void ignoreError(simdjson::error_code /*unused*/) {}

RecordFields readRecord(simdjson::dom::object obj);
ArgFields readArgs(simdjson::dom::object args);

// µs value (number or numeric string) -> ns; nullopt when not a finite number in range.
std::optional<std::int64_t> microsToNs(simdjson::dom::element e);
// An integer value: the number, a float's integer part, or a string of digits; nullopt otherwise.
std::optional<std::int64_t> integerOtherThanInt64(simdjson::dom::element e);
// The same as a flag and an out-parameter, inline for the common case, a JSON integer (ids, sizes,
// counts: most args members). The hot paths use this form: GCC copies a returned
// std::optional<int64_t> through the stack as an 8-byte and a 1-byte store read back as one 16-byte
// load, which the CPU cannot forward and stalls on (perf annotate: most of a call's time).
inline bool integerInto(simdjson::dom::element e, std::int64_t& out) {
    if (e.type() == simdjson::dom::element_type::INT64) {
        out = e.get_int64().value_unsafe();
        return true;
    }
    const auto i = integerOtherThanInt64(e);
    if (i) out = *i;
    return i.has_value();
}
inline std::optional<std::int64_t> integer(simdjson::dom::element e) {
    std::int64_t i = 0;
    return integerInto(e, i) ? std::optional<std::int64_t>(i) : std::nullopt;
}

// Numeric value of a pid/tid: the number itself, or the digits in "stream 7" / "GPU 0".
// Inline, as idKey: the reader calls them on every GPU record.
inline std::optional<std::int64_t> idNumber(simdjson::dom::element e) {
    std::int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) return integer(e);
    const auto digit = s.find_first_of("0123456789");
    if (digit == std::string_view::npos) return std::nullopt;
    const auto r = std::from_chars(s.data() + digit, s.data() + s.size(), i);
    return r.ec == std::errc() ? std::optional<std::int64_t>(i) : std::nullopt;
}

// Room for a printed int64 (20 digits and a sign).
using IdKeyBuffer = std::array<char, 24>;

// Text key of a pid: the number printed (into buf), or the string itself; "?" when absent.
inline std::string_view idKey(simdjson::dom::element e, bool present, IdKeyBuffer& buf) {
    if (!present) return "?";
    std::string_view s;
    if (e.get_string().get(s) == simdjson::SUCCESS) return s;
    if (const auto n = integer(e)) {
        const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), *n);
        return {buf.data(), static_cast<std::size_t>(r.ptr - buf.data())};
    }
    return "?";
}

// Dtype from torch's ScalarType names ("Float", "BFloat16", "Half", "Long", "Int", "Char", "Byte")
// and the usual spellings.
Dtype parseTorchDtype(std::string_view s);
// "Memcpy HtoD (Pageable -> Device)" -> HostToDevice, also "DtoH", "DtoD", "PtoP", "htod"...
CopyKind copyKindFromName(std::string_view name);

}  // namespace tpscope::core::kineto
