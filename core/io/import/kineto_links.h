// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Links between a Kineto trace's GPU collectives and the CPU side that launched them, used to find
// a collective's message size when the kernel record itself does not carry it:
//   newer traces: kernel "External id" == the record_param_comms CPU op's, whose args have
//                 "Collective name", "In/Out msg nelems", "dtype", "Group size", process group;
//   launcher ops: custom and symmetric-memory all-reduces (vllm::all_reduce, _C_custom_ar::all_reduce,
//                 symm_mem::multimem_all_reduce_, trtllm::allreduce, ...) and old nccl:<op>
//                 annotations carry no collective args; their first tensor argument ("Input Dims" x
//                 "Input type") is the message. A kernel reaches its launcher by its "External id",
//                 else by its "correlation" (== the cudaLaunchKernel record's, or the id of an "ac2g"
//                 flow start) to the launch, which lies inside the launcher op on the same CPU thread
//                 (the innermost enclosing one wins).
// Records arrive in any order, so links are collected while reading and resolved once at the end.
// Cost: O(launches + annotations log annotations + pending).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/io/import/kineto_fields.h"
#include "core/io/import/trace_part.h"
#include "core/util/result.h"

namespace tpscope::core {

// The last text looked up and its value: a trace spells a dtype, collective or group name the same way
// on every record, and the lookups normalise case and separators or hash (~5 % of the import, perf).
template <class T, class Lookup>
class LastLookup {
  public:
    explicit LastLookup(Lookup lookup) : m_lookup(std::move(lookup)) {}
    template <class... Context>
    T operator()(std::string_view text, Context&... context) {
        if (!m_valid || text != m_text) {
            m_value = m_lookup(text, context...);
            m_text.assign(text);
            m_valid = true;
        }
        return m_value;
    }

  private:
    Lookup m_lookup;
    std::string m_text;
    T m_value{};
    bool m_valid = false;
};

struct PendingCollective {
    std::size_t device = 0;
    std::size_t stream = 0;
    std::size_t event = 0;
    std::int64_t externalId = -1;
    std::int64_t correlation = -1;
};

class KinetoLinks {
  public:
    void addCpuOp(const kineto::ArgFields& a, TracePart& part);
    // A CPU op or annotation that launches a collective kernel without args (isLauncherOp).
    void addLauncher(const kineto::RecordFields& f, const kineto::ArgFields& a, std::int64_t startNs,
                     std::int64_t durNs);
    void addLaunch(const kineto::RecordFields& f, const kineto::ArgFields& a, std::int64_t startNs);
    // An "ac2g" flow start: id = the launch's correlation; kept unless a runtime record gave it.
    void addFlowStart(const kineto::RecordFields& f, std::int64_t correlation, std::int64_t startNs);
    void addPending(const PendingCollective& p) { m_pending.push_back(p); }
    // Overrides name-derived collective fields with a record's args (see kineto_reader.h).
    void applyCollectiveArgs(CollectivePayload& p, const kineto::ArgFields& a, TracePart& part);
    // Fills in the payloads of pending collectives; returns how many got a message size.
    std::size_t resolve(TracePart& part);

    struct LaunchRecord {
        std::int64_t thread = 0;
        std::int64_t startNs = 0;
        std::int64_t correlation = -1;
    };
    // Every launch seen (kernel, copy and graph launches, flow starts), sorted by thread then start;
    // sorted in place and handed over (no copy: fresh pages are the import's dearest allocation), so
    // it comes after resolve(), which needs them in arrival order, and leaves none behind. The list
    // may come back with giveBackLaunchRecords, for release() to pass on.
    std::vector<LaunchRecord> takeLaunchRecords();
    void giveBackLaunchRecords(std::vector<LaunchRecord>&& launches) { m_launches = std::move(launches); }

    // The two long lists (a launch and a record_param_comms op per kernel), kept by a parser pool
    // between the files that one thread reads: emptied, not freed, so that the next file appends
    // into pages already in memory instead of growing fresh ones (KinetoParserPool).
    struct Buffers;
    void adopt(Buffers&& buffers);
    Buffers release();

  private:
    struct OpArgs {
        CollectiveOp op = CollectiveOp::Unknown;
        Dtype dtype = Dtype::Unknown;
        std::int64_t elements = -1;
        std::int64_t groupSize = -1;
        NameId communicator{};
    };
    struct Launch {
        std::int64_t thread = 0;
        std::int64_t startNs = 0;
    };
    struct Annotation {
        std::int64_t thread = 0;
        std::int64_t startNs = 0;
        std::int64_t endNs = 0;
        OpArgs args;
    };
    // Kept in arrival order and put into maps only when a collective needs them (most traces' NCCL
    // kernels carry their own args): `replaces` = a later entry for the same id wins, else the first.
    struct OpArgsEntry {
        std::int64_t externalId = -1;
        OpArgs args;
        bool replaces = false;
    };
    const Annotation* enclosing(std::int64_t thread, std::int64_t ns) const;

    using ParseDtype = Dtype (*)(std::string_view);
    using ParseOp = std::optional<CollectiveOp> (*)(std::string_view);
    using InternName = NameId (*)(std::string_view, TracePart&);
    NameId groupName(const kineto::ArgFields& a, TracePart& part);  // {} when the args name none

    LastLookup<Dtype, ParseDtype> m_dtype{&kineto::parseTorchDtype};
    LastLookup<std::optional<CollectiveOp>, ParseOp> m_op{&parseCollectiveOp};
    LastLookup<NameId, InternName> m_group{[](std::string_view s, TracePart& part) { return part.names.intern(s); }};
    std::vector<OpArgsEntry> m_opArgs;
    // Launches in arrival order, and whether each is a runtime record (which replaces an earlier entry
    // of its correlation) or a flow start (which does not): apart, so the records hand over as they are.
    std::vector<LaunchRecord> m_launches;
    std::vector<bool> m_launchReplaces;
    std::vector<Annotation> m_annotations;
    std::vector<PendingCollective> m_pending;
};

struct KinetoLinks::Buffers {
    std::vector<OpArgsEntry> opArgs;
    std::vector<LaunchRecord> launches;
};

// The CPU thread of a record, as launches and annotations are keyed by it.
std::int64_t kinetoThreadKey(const kineto::RecordFields& f);

// The collective a CPU op name launches: nccl:all_reduce, vllm::all_reduce, _C_custom_ar::all_reduce,
// symm_mem::multimem_all_reduce_, trtllm::allreduce, ...; nullopt for any other op.
std::optional<CollectiveOp> launcherOp(std::string_view name);

// The "tpscope" member of tpscope's own Chrome JSON export: exact ranks, hosts, clock offsets,
// stream labels, origin, source and metadata (written by chrome_writer).
Status applyTpscopeChromeMeta(std::string_view rawJson, TracePart& part);

}  // namespace tpscope::core
