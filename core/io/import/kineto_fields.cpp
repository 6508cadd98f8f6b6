// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_fields.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace tpscope::core::kineto {

namespace {

// |t| < 2^62 ns for every time value, so a start plus a duration plus a time base never overflows.
constexpr std::int64_t kMaxMicros = (std::int64_t{1} << 62) / 1000;

bool inRange(double us) {
    return std::fabs(us) < static_cast<double>(kMaxMicros);  // false for NaN and inf too
}

// std::llround(us * 1000) for an in-range us without the library call (5 % of the field decoding's
// instructions): below 2^62 the truncation to an integer is exact, and so is the fraction left, so
// rounding half away from zero by hand gives llround's value.
std::int64_t roundedNs(double us) {
    const double ns = us * 1000.0;
    auto whole = static_cast<std::int64_t>(ns);
    const double fraction = ns - static_cast<double>(whole);
    if (fraction >= 0.5) {
        ++whole;
    } else if (fraction <= -0.5) {
        --whole;
    }
    return whole;
}

std::optional<std::int64_t> microsFromDouble(double us) {
    if (!inRange(us)) return std::nullopt;
    return roundedNs(us);
}

// The two shapes of nearly every time value (an integer or a float), here so that readRecord inlines
// them; anything else goes to microsToNs. A flag and an out-parameter, not an optional (integerInto
// says why); false: not a time.
inline bool timeNsInto(simdjson::dom::element e, std::int64_t& ns) {
    const auto type = e.type();
    if (type == simdjson::dom::element_type::DOUBLE) {
        const double us = e.get_double().value_unsafe();
        if (!inRange(us)) return false;
        ns = roundedNs(us);
        return true;
    }
    if (type == simdjson::dom::element_type::INT64) {
        const std::int64_t v = e.get_int64().value_unsafe();
        if (v >= kMaxMicros || v <= -kMaxMicros) return false;
        ns = v * 1000;
        return true;
    }
    const auto t = microsToNs(e);
    if (t) ns = *t;
    return t.has_value();
}

// Sets `target` to a time value, or marks the record's times bad.
inline void setTime(std::optional<std::int64_t>& target, bool& badTime, simdjson::dom::element e) {
    std::int64_t ns = 0;
    if (timeNsInto(e, ns)) {
        target = ns;
    } else {
        target.reset();
        badTime = true;
    }
}

}  // namespace

// One look at the element's type (each get_* would look again).
std::optional<std::int64_t> integerOtherThanInt64(simdjson::dom::element e) {
    switch (e.type()) {
        case simdjson::dom::element_type::INT64:
            return e.get_int64().value_unsafe();
        case simdjson::dom::element_type::UINT64:  // above INT64_MAX, so beyond the 9e18 below
            return std::nullopt;
        case simdjson::dom::element_type::DOUBLE: {
            const double d = e.get_double().value_unsafe();
            if (std::isfinite(d) && std::fabs(d) < 9.0e18) return static_cast<std::int64_t>(d);
            return std::nullopt;
        }
        case simdjson::dom::element_type::STRING: {
            const std::string_view s = e.get_string().value_unsafe();
            std::int64_t v = 0;
            const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
            if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return v;
            return std::nullopt;
        }
        default:
            return std::nullopt;
    }
}

std::optional<std::int64_t> microsToNs(simdjson::dom::element e) {
    switch (e.type()) {
        case simdjson::dom::element_type::INT64: {
            const std::int64_t v = e.get_int64().value_unsafe();
            if (v >= kMaxMicros || v <= -kMaxMicros) return std::nullopt;
            return v * 1000;
        }
        case simdjson::dom::element_type::UINT64: {
            const std::uint64_t v = e.get_uint64().value_unsafe();
            if (v >= static_cast<std::uint64_t>(kMaxMicros)) return std::nullopt;
            return static_cast<std::int64_t>(v) * 1000;
        }
        case simdjson::dom::element_type::DOUBLE:
            return microsFromDouble(e.get_double().value_unsafe());
        case simdjson::dom::element_type::STRING: {
            const std::string_view s = e.get_string().value_unsafe();
            double d = 0;
            const auto r = std::from_chars(s.data(), s.data() + s.size(), d);
            if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
            return microsFromDouble(d);
        }
        default:
            return std::nullopt;
    }
}

RecordFields readRecord(simdjson::dom::object obj) {
    RecordFields f;
    for (const auto field : obj) {
        const std::string_view key = field.key;
        if (key.empty()) continue;
        switch (key[0]) {
            case 'p':
                if (key == "ph") {
                    ignoreError(field.value.get_string().get(f.ph));
                } else if (key == "pid") {
                    f.pid = field.value;
                    f.hasPid = true;
                }
                break;
            case 'c':
                if (key == "cat") ignoreError(field.value.get_string().get(f.cat));
                break;
            case 'n':
                if (key == "name") ignoreError(field.value.get_string().get(f.name));
                break;
            case 't':
                if (key == "ts") {
                    setTime(f.tsNs, f.badTime, field.value);
                } else if (key == "tid") {
                    f.tid = field.value;
                    f.hasTid = true;
                }
                break;
            case 'd':
                if (key == "dur") setTime(f.durNs, f.badTime, field.value);
                break;
            case 'a':
                if (key == "args") f.hasArgs = field.value.get_object().get(f.args) == simdjson::SUCCESS;
                break;
            case 'i':
                if (key == "id" && !f.hasId) {  // the first, as a lookup by key would find
                    f.id = field.value;
                    f.hasId = true;
                }
                break;
            default:
                break;
        }
    }
    return f;
}

namespace {

// A missing or mistyped value leaves the target's default.
void setInt(std::int64_t& target, simdjson::dom::element v) {
    integerInto(v, target);  // leaves target as it was when v is no integer
}

void setString(std::string_view& target, simdjson::dom::element v) {
    ignoreError(v.get_string().get(target));
}

// The first non-empty shape in "Input Dims" and its position: [[], [8, 1024]] -> (8192, 1). Scalars
// and non-tensor arguments have an empty shape; a nested list (a tensor list) ends the search.
std::pair<std::int64_t, std::size_t> firstTensorElements(simdjson::dom::element v) {
    simdjson::dom::array outer;
    if (v.get_array().get(outer) != simdjson::SUCCESS) return {-1, 0};
    std::size_t index = 0;
    for (const auto shape : outer) {
        simdjson::dom::array dims;
        if (shape.get_array().get(dims) != simdjson::SUCCESS) return {-1, 0};
        std::int64_t n = 1;
        bool any = false;
        for (const auto d : dims) {
            const auto i = integer(d);
            if (!i || *i < 0 || (*i > 0 && n > std::numeric_limits<std::int64_t>::max() / *i)) return {-1, 0};
            n *= *i;
            any = true;
        }
        if (any) return {n, index};
        ++index;
    }
    return {-1, 0};
}

}  // namespace

namespace {

using Element = simdjson::dom::element;

void setStream(ArgFields& a, Element v) {
    std::uint64_t u = 0;
    if (v.get_uint64().get(u) == simdjson::SUCCESS) {
        a.stream = u;
        a.hasStream = true;
    } else if (const auto i = integer(v); i && *i >= 0) {
        a.stream = static_cast<std::uint64_t>(*i);
        a.hasStream = true;
    }
}

// CPU ops' tensor arguments: "Input Dims" and "Input type", paired by position once both are read.
struct InputShapes {
    simdjson::dom::array types;
    bool hasTypes = false;
    std::size_t index = 0;  // of the first tensor in "Input Dims"

    void readDims(ArgFields& a, Element v) { std::tie(a.inputElems, index) = firstTensorElements(v); }
    void readTypes(Element v) { hasTypes = v.get_array().get(types) == simdjson::SUCCESS; }
    void pairTypes(ArgFields& a) const {
        if (!hasTypes || a.inputElems < 0) return;
        Element type;
        if (types.at(index).get(type) == simdjson::SUCCESS) ignoreError(type.get_string().get(a.inputType));
    }
};

// One member of "args". The keys: those of every Kineto GPU record and of metadata records; the
// communication args PyTorch writes on NCCL kernels and record_param_comms ops; tpscope's own export
// (exact kind, payload and range depth); CPU ops' tensor arguments. A missing or mistyped value
// leaves the field's default.
void readArg(ArgFields& a, InputShapes& shapes, std::string_view key, Element v) {
    if (key.size() < 2) return;
    switch (key[0]) {
        case 'k':
            if (key == "kind") setString(a.kind, v);
            break;
        case 'n':
            if (key == "name") setString(a.text, v);
            break;
        case 'b':
            if (key == "bytes") setInt(a.bytes, v);
            break;
        case 'd':
            if (key == "device") {
                setInt(a.device, v);
            } else if (key == "dtype") {
                setString(a.dtype, v);
            } else if (key == "depth") {
                setInt(a.depth, v);
            }
            break;
        case 's':
            if (key == "stream") setStream(a, v);
            break;
        case 'l':
            if (key == "labels") setString(a.text, v);
            break;
        case 'g':
            if (key == "gemm m") {
                setInt(a.gemmM, v);
            } else if (key == "gemm n") {
                setInt(a.gemmN, v);
            } else if (key == "gemm k") {
                setInt(a.gemmK, v);
            }
            break;
        case 'p':
            if (key == "payload") {
                setString(a.payloadKind, v);
            } else if (key == "protocol") {
                setString(a.proto, v);
            }
            break;
        case 'a':
            if (key == "algorithm") setString(a.algo, v);
            break;
        case 'c':
            if (key == "correlation") {
                setInt(a.correlation, v);
            } else if (key == "copy kind") {
                setString(a.copyKind, v);
            }
            break;
        case 'm':
            if (key == "msg bytes") setInt(a.msgBytes, v);
            break;
        case 'E':
            if (key == "External id") setInt(a.externalId, v);
            break;
        case 'G':
            if (key == "Group size") setInt(a.groupSize, v);
            break;
        case 'I':
            if (key == "In msg nelems") {
                setInt(a.inNelems, v);
            } else if (key == "Input Dims") {
                shapes.readDims(a, v);
            } else if (key == "Input type") {
                shapes.readTypes(v);
            }
            break;
        case 'O':
            if (key == "Out msg nelems") setInt(a.outNelems, v);
            break;
        case 'C':
            if (key == "Collective name") setString(a.collectiveName, v);
            break;
        case 'P':
            if (key == "Process Group Name") {
                setString(a.processGroupName, v);
            } else if (key == "Process Group Description") {
                setString(a.processGroupDesc, v);
            }
            break;
        default:
            break;
    }
}

}  // namespace

ArgFields readArgs(simdjson::dom::object args) {
    ArgFields a;
    InputShapes shapes;
    for (const auto field : args) readArg(a, shapes, field.key, field.value);
    shapes.pairTypes(a);
    return a;
}

Dtype parseTorchDtype(std::string_view s) {
    if (const auto d = parseDtype(s)) return *d;
    if (s == "Half" || s == "c10::Half") return Dtype::Fp16;
    if (s == "c10::BFloat16") return Dtype::Bf16;
    if (s == "Long" || s == "long int" || s == "int64_t") return Dtype::Int64;
    if (s == "Int" || s == "int" || s == "int32_t") return Dtype::Int32;
    if (s == "Char" || s == "Byte" || s == "signed char" || s == "unsigned char" || s == "uint8") return Dtype::Int8;
    if (s == "Double") return Dtype::Fp64;
    if (s.substr(0, 6) == "Float8") return Dtype::Fp8;
    return Dtype::Unknown;
}

CopyKind copyKindFromName(std::string_view name) {
    auto has = [&](std::string_view t) { return name.find(t) != std::string_view::npos; };
    if (has("HtoD") || has("htod")) return CopyKind::HostToDevice;
    if (has("DtoH") || has("dtoh")) return CopyKind::DeviceToHost;
    if (has("DtoD") || has("dtod")) return CopyKind::DeviceToDevice;
    if (has("PtoP") || has("ptop")) return CopyKind::PeerToPeer;
    return CopyKind::Unknown;
}

}  // namespace tpscope::core::kineto
