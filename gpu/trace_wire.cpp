#include "gpu/trace_wire.h"

#include <cstring>
#include <string>
#include <type_traits>

namespace tpscope::gpu {

namespace {

constexpr std::uint32_t kMagic = 0x54505357;  // "TPSW"
constexpr std::uint32_t kVersion = 1;

class Writer {
  public:
    template <typename T>
    void put(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const auto at = m_out.size();
        m_out.resize(at + sizeof(T));
        std::memcpy(m_out.data() + at, &v, sizeof(T));
    }
    void str(std::string_view s) {
        put<std::uint64_t>(s.size());
        m_out.insert(m_out.end(), s.begin(), s.end());
    }
    std::vector<std::uint8_t> take() { return std::move(m_out); }

  private:
    std::vector<std::uint8_t> m_out;
};

class Reader {
  public:
    explicit Reader(const std::vector<std::uint8_t>& in) : m_in(in) {}
    template <typename T>
    bool get(T& v) {
        if (m_in.size() - m_pos < sizeof(T)) return fail();
        std::memcpy(&v, m_in.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool str(std::string& s) {
        std::uint64_t n = 0;
        if (!get(n) || m_in.size() - m_pos < n) return fail();
        s.assign(reinterpret_cast<const char*>(m_in.data() + m_pos), n);
        m_pos += n;
        return true;
    }
    // A count read from the input must fit in what is left (each item takes at least one byte),
    // so a corrupted count cannot make the reader allocate without bound.
    bool count(std::uint64_t& n) { return get(n) && (n <= m_in.size() - m_pos || fail()); }
    bool ok() const { return m_ok; }
    std::size_t position() const { return m_pos; }

  private:
    bool fail() {
        m_ok = false;
        return false;
    }
    const std::vector<std::uint8_t>& m_in;
    std::size_t m_pos = 0;
    bool m_ok = true;
};

void putPayload(Writer& w, const core::Payload& p) {
    w.put(static_cast<std::uint8_t>(p.kind));
    const auto& c = p.collective;
    w.put(static_cast<std::uint8_t>(c.op));
    w.put(static_cast<std::uint8_t>(c.algo));
    w.put(static_cast<std::uint8_t>(c.proto));
    w.put(static_cast<std::uint8_t>(c.dtype));
    w.put(c.groupSize);
    w.put(c.communicator.value);
    w.put(c.bytes);
    w.put(p.gemm.m);
    w.put(p.gemm.n);
    w.put(p.gemm.k);
    w.put(static_cast<std::uint8_t>(p.gemm.dtype));
    w.put(static_cast<std::uint8_t>(p.copy.kind));
    w.put(p.copy.bytes);
}

template <typename E>
bool getEnum(Reader& r, E& e) {
    std::uint8_t v = 0;
    if (!r.get(v)) return false;
    e = static_cast<E>(v);
    return true;
}

bool getPayload(Reader& r, core::Payload& p) {
    auto& c = p.collective;
    return getEnum(r, p.kind) && getEnum(r, c.op) && getEnum(r, c.algo) && getEnum(r, c.proto) && getEnum(r, c.dtype) &&
           r.get(c.groupSize) && r.get(c.communicator.value) && r.get(c.bytes) && r.get(p.gemm.m) && r.get(p.gemm.n) &&
           r.get(p.gemm.k) && getEnum(r, p.gemm.dtype) && getEnum(r, p.copy.kind) && r.get(p.copy.bytes);
}

}  // namespace

std::vector<std::uint8_t> serializeTrace(const core::Trace& t) {
    Writer w;
    w.put(kMagic);
    w.put(kVersion);
    w.put<std::uint64_t>(t.names.size());
    for (std::uint32_t i = 0; i < t.names.size(); ++i) w.str(t.names.view(core::NameId(i)));
    w.put<std::uint64_t>(t.payloads.size());
    for (const auto& p : t.payloads.all()) putPayload(w, p);
    w.put<std::uint64_t>(t.ranks.size());
    for (const auto& rank : t.ranks) {
        w.put(rank.id.value);
        w.str(rank.host);
        w.put<std::int32_t>(rank.deviceIndex);
        w.str(rank.deviceName);
        w.put(rank.clockOffsetNs);
        w.put<std::uint64_t>(rank.streams.size());
        for (const auto& s : rank.streams) {
            w.put(s.id.value);
            w.str(s.label);
            w.put<std::uint64_t>(s.events.size());
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                const core::EventRecord e = s.events.at(i);
                w.put(e.startNs);
                w.put(e.durNs);
                w.put(e.name.value);
                w.put(static_cast<std::uint8_t>(e.kind));
                w.put(e.correlationId);
                w.put(e.payload);
            }
        }
        w.put<std::uint64_t>(rank.ranges.size());
        for (const auto& r : rank.ranges) {
            w.put(r.startNs);
            w.put(r.endNs);
            w.put(r.name.value);
            w.put(r.depth);
        }
    }
    w.put(static_cast<std::uint8_t>(t.origin));
    w.str(t.source);
    w.put<std::uint64_t>(t.metadata.size());
    for (const auto& [k, v] : t.metadata) {
        w.str(k);
        w.str(v);
    }
    return w.take();
}

namespace {

core::Error malformed(const std::string& why) {
    return core::makeError(core::ErrorCode::ParseError, "malformed trace from another rank: " + why, "MPI gather");
}

}  // namespace

std::vector<std::uint8_t> serializeProcessTrace(const ProcessTrace& part) {
    Writer w;
    w.put(kMagic);
    w.put<std::int32_t>(part.process);
    w.str(part.host);
    w.put(part.clockOffsetNs);
    w.str(part.error);
    w.put(part.launchIdHash);
    std::vector<std::uint8_t> out = w.take();
    const std::vector<std::uint8_t> trace = serializeTrace(part.trace);
    out.insert(out.end(), trace.begin(), trace.end());
    return out;
}

core::Result<ProcessTrace> deserializeProcessTrace(const std::vector<std::uint8_t>& bytes) {
    Reader r(bytes);
    ProcessTrace part;
    std::uint32_t magic = 0;
    std::int32_t process = 0;
    if (!r.get(magic) || magic != kMagic || !r.get(process) || !r.str(part.host) || !r.get(part.clockOffsetNs) ||
        !r.str(part.error) || !r.get(part.launchIdHash)) {
        return malformed("process header");
    }
    part.process = process;
    const std::vector<std::uint8_t> rest(bytes.begin() + static_cast<std::ptrdiff_t>(r.position()), bytes.end());
    TPSCOPE_TRY_ASSIGN(part.trace, deserializeTrace(rest));
    return part;
}

core::Result<core::Trace> deserializeTrace(const std::vector<std::uint8_t>& bytes) {
    const auto bad = malformed;
    Reader r(bytes);
    std::uint32_t magic = 0, version = 0;
    if (!r.get(magic) || magic != kMagic) return bad("wrong magic");
    if (!r.get(version) || version != kVersion) return bad("unknown version " + std::to_string(version));

    core::Trace t;
    std::uint64_t n = 0;
    std::string s;
    // Names and payloads are re-interned in order; ids are checked against what was read.
    if (!r.count(n)) return bad("name count");
    std::vector<core::NameId> names;
    for (std::uint64_t i = 0; i < n; ++i) {
        if (!r.str(s)) return bad("name");
        names.push_back(t.intern(s));
    }
    const auto nameOk = [&](std::uint32_t id) { return id < names.size(); };
    if (!r.count(n)) return bad("payload count");
    std::vector<core::PayloadId> payloads;
    for (std::uint64_t i = 0; i < n; ++i) {
        core::Payload p;
        if (!getPayload(r, p)) return bad("payload");
        if (!nameOk(p.collective.communicator.value)) return bad("payload communicator name");
        p.collective.communicator = names[p.collective.communicator.value];
        payloads.push_back(t.intern(p));
    }
    std::uint64_t rankCount = 0;
    if (!r.count(rankCount)) return bad("rank count");
    for (std::uint64_t ri = 0; ri < rankCount; ++ri) {
        std::uint32_t id = 0;
        if (!r.get(id)) return bad("rank id");
        core::Rank& rank = t.rank(core::RankId(id));
        std::int32_t device = 0;
        std::uint64_t streams = 0;
        if (!r.str(rank.host) || !r.get(device) || !r.str(rank.deviceName) || !r.get(rank.clockOffsetNs) ||
            !r.count(streams)) {
            return bad("rank header");
        }
        rank.deviceIndex = device;
        for (std::uint64_t si = 0; si < streams; ++si) {
            std::uint64_t sid = 0, events = 0;
            if (!r.get(sid) || !r.str(s) || !r.count(events)) return bad("stream header");
            core::Stream& stream = rank.stream(core::StreamId(sid), s);
            stream.events.reserve(events);
            for (std::uint64_t ei = 0; ei < events; ++ei) {
                core::EventRecord e;
                if (!r.get(e.startNs) || !r.get(e.durNs) || !r.get(e.name.value) || !getEnum(r, e.kind) ||
                    !r.get(e.correlationId) || !r.get(e.payload)) {
                    return bad("event");
                }
                if (!nameOk(e.name.value) || e.payload >= payloads.size()) return bad("event name or payload id");
                e.name = names[e.name.value];
                e.payload = payloads[e.payload];
                stream.events.append(e);
            }
        }
        if (!r.count(n)) return bad("range count");
        for (std::uint64_t i = 0; i < n; ++i) {
            core::NvtxRange range;
            if (!r.get(range.startNs) || !r.get(range.endNs) || !r.get(range.name.value) || !r.get(range.depth)) {
                return bad("range");
            }
            if (!nameOk(range.name.value)) return bad("range name id");
            range.name = names[range.name.value];
            rank.ranges.push_back(range);
        }
    }
    if (!getEnum(r, t.origin) || !r.str(t.source) || !r.count(n)) return bad("trailer");
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string k, v;
        if (!r.str(k) || !r.str(v)) return bad("metadata");
        t.metadata.emplace_back(std::move(k), std::move(v));
    }
    t.finalize();
    return t;
}

}  // namespace tpscope::gpu
