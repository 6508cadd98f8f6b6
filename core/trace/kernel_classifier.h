// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Kernel classification by name: which EventKind a GPU kernel is, and for collectives what the
// name tells about op, algorithm, protocol and dtype. Rules live in resources/kernel_rules.json
// (first match wins); users add rules for their own kernels (custom all-reduce implementations),
// tried before the built-ins. Memcpy/memset records are classified by their activity kind, not here.
// "cpu_op_rules" classify a kernel by the CPU op that launched it (aten::mm -> GEMM): importers that
// see the launch correlation ask classifyCpuOp() and let its answer win over the name's
// (kernelClassWithOp), because names change with every library release and ops do not.
//
// NCCL kernel names in both namings are decoded:
//   ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)  (NCCL < 2.19)
//   ncclDevKernel_AllReduce_Sum_f16_RING_LL               (NCCL >= 2.19)
//   ncclDevKernel_Generic / ncclDevKernel_Generic_4       (op unknown from the name)
// Cost: O(rules x patterns x name length) per call; callers classify each distinct NameId once.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/trace/payload.h"
#include "core/util/result.h"

namespace tpscope::core {

struct KernelClass {
    EventKind kind = EventKind::Other;
    CollectivePayload collective;  // op/algo/proto/dtype parsed from the name, for collectives
};

class KernelClassifier {
  public:
    static const KernelClassifier& builtin();  // the compiled-in rules; valid for the whole program
    static Result<KernelClassifier> fromJson(std::string_view text, const std::string& context);

    // User rules go before the existing ones.
    Status addRulesJson(std::string_view text, const std::string& context);
    Status addRulesFile(const std::string& path);

    KernelClass classify(std::string_view kernelName) const;
    // The class a launching CPU op gives its kernels; nullopt when no cpu_op rule matches.
    std::optional<EventKind> classifyCpuOp(std::string_view opName) const;
    std::size_t ruleCount() const { return m_rules.size(); }
    std::size_t cpuOpRuleCount() const { return m_opRules.size(); }

  private:
    struct Rule {
        EventKind kind = EventKind::Other;
        std::vector<std::string> prefixes;
        std::vector<std::string> contains;
        std::vector<std::string> except;
        CollectiveOp op = CollectiveOp::Unknown;
        CollectiveAlgo algo = CollectiveAlgo::Unknown;
        bool matches(std::string_view name) const;
    };
    struct RuleSets {
        std::vector<Rule> names;
        std::vector<Rule> ops;
    };
    static Result<RuleSets> parseRules(std::string_view text, const std::string& context);
    std::vector<Rule> m_rules;
    std::vector<Rule> m_opRules;
};

// The class of a kernel launched by an op of class `opKind`: the op wins, except over names that are
// unambiguous on their own (collectives: their payload comes from the name; copies and sets).
EventKind kernelClassWithOp(EventKind nameKind, EventKind opKind);

// Decodes op, algorithm, protocol and dtype from an NCCL kernel name; fields it cannot tell stay Unknown.
CollectivePayload parseNcclKernelName(std::string_view name);

}  // namespace tpscope::core
