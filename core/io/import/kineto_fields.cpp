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

std::optional<std::int64_t> microsFromDouble(double us) {
    if (!std::isfinite(us) || std::fabs(us) >= static_cast<double>(kMaxMicros)) return std::nullopt;
    return std::llround(us * 1000.0);
}

}  // namespace

std::optional<std::int64_t> integer(simdjson::dom::element e) {
    std::int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
    double d = 0;
    if (e.get_double().get(d) == simdjson::SUCCESS && std::isfinite(d) && std::fabs(d) < 9.0e18) {
        return static_cast<std::int64_t>(d);
    }
    std::string_view s;
    if (e.get_string().get(s) == simdjson::SUCCESS) {
        std::int64_t v = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return v;
    }
    return std::nullopt;
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
                    f.tsNs = microsToNs(field.value);
                    f.badTime = f.badTime || !f.tsNs;
                } else if (key == "tid") {
                    f.tid = field.value;
                    f.hasTid = true;
                }
                break;
            case 'd':
                if (key == "dur") {
                    f.durNs = microsToNs(field.value);
                    f.badTime = f.badTime || !f.durNs;
                }
                break;
            case 'a':
                if (key == "args") f.hasArgs = field.value.get_object().get(f.args) == simdjson::SUCCESS;
                break;
            default:
                break;
        }
    }
    return f;
}

namespace {

void setInt(std::int64_t& target, simdjson::dom::element v) {
    if (const auto i = integer(v)) target = *i;
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

ArgFields readArgs(simdjson::dom::object args) {
    ArgFields a;
    simdjson::dom::array inputTypes;
    bool hasInputTypes = false;
    std::size_t inputIndex = 0;
    for (const auto field : args) {
        const std::string_view key = field.key;
        if (key.size() < 2) continue;
        switch (key[0]) {
            case 'd':
                if (key == "device")
                    setInt(a.device, field.value);
                else if (key == "dtype")
                    setString(a.dtype, field.value);
                else if (key == "depth")
                    setInt(a.depth, field.value);
                break;
            case 's':
                if (key == "stream") {
                    std::uint64_t u = 0;
                    if (field.value.get_uint64().get(u) == simdjson::SUCCESS) {
                        a.stream = u;
                        a.hasStream = true;
                    } else if (const auto i = integer(field.value); i && *i >= 0) {
                        a.stream = static_cast<std::uint64_t>(*i);
                        a.hasStream = true;
                    }
                }
                break;
            case 'c':
                if (key == "correlation")
                    setInt(a.correlation, field.value);
                else if (key == "copy kind")
                    setString(a.copyKind, field.value);
                break;
            case 'E':
                if (key == "External id") setInt(a.externalId, field.value);
                break;
            case 'b':
                if (key == "bytes") setInt(a.bytes, field.value);
                break;
            case 'C':
                if (key == "Collective name") setString(a.collectiveName, field.value);
                break;
            case 'I':
                if (key == "In msg nelems")
                    setInt(a.inNelems, field.value);
                else if (key == "Input Dims")
                    std::tie(a.inputElems, inputIndex) = firstTensorElements(field.value);
                else if (key == "Input type")
                    hasInputTypes = field.value.get_array().get(inputTypes) == simdjson::SUCCESS;
                break;
            case 'O':
                if (key == "Out msg nelems") setInt(a.outNelems, field.value);
                break;
            case 'G':
                if (key == "Group size") setInt(a.groupSize, field.value);
                break;
            case 'P':
                if (key == "Process Group Name")
                    setString(a.processGroupName, field.value);
                else if (key == "Process Group Description")
                    setString(a.processGroupDesc, field.value);
                break;
            case 'k':
                if (key == "kind") setString(a.kind, field.value);
                break;
            case 'a':
                if (key == "algorithm") setString(a.algo, field.value);
                break;
            case 'p':
                if (key == "protocol")
                    setString(a.proto, field.value);
                else if (key == "payload")
                    setString(a.payloadKind, field.value);
                break;
            case 'm':
                if (key == "msg bytes") setInt(a.msgBytes, field.value);
                break;
            case 'n':
                if (key == "name") setString(a.text, field.value);
                break;
            case 'l':
                if (key == "labels") setString(a.text, field.value);
                break;
            case 'g':
                if (key == "gemm m")
                    setInt(a.gemmM, field.value);
                else if (key == "gemm n")
                    setInt(a.gemmN, field.value);
                else if (key == "gemm k")
                    setInt(a.gemmK, field.value);
                break;
            default:
                break;
        }
    }
    if (hasInputTypes && a.inputElems >= 0) {
        simdjson::dom::element type;
        if (inputTypes.at(inputIndex).get(type) == simdjson::SUCCESS) ignoreError(type.get_string().get(a.inputType));
    }
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
