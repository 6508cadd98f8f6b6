// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Kernel classification by name: which EventKind a GPU kernel is, and for collectives what the
// name tells about op, algorithm, protocol and dtype. Rules live in resources/kernel_rules.json
// (first match wins); users add rules for their own kernels (custom all-reduce implementations),
// tried before the built-ins. Memcpy/memset records are classified by their activity kind, not here.
//
// NCCL kernel names in both namings are decoded:
//   ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)  (NCCL < 2.19)
//   ncclDevKernel_AllReduce_Sum_f16_RING_LL               (NCCL >= 2.19)
//   ncclDevKernel_Generic / ncclDevKernel_Generic_4       (op unknown from the name)
// Cost: O(rules x patterns x name length) per call; callers classify each distinct NameId once.

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
    std::size_t ruleCount() const { return m_rules.size(); }

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
    static Result<std::vector<Rule>> parseRules(std::string_view text, const std::string& context);
    std::vector<Rule> m_rules;
};

// Decodes op, algorithm, protocol and dtype from an NCCL kernel name; fields it cannot tell stay Unknown.
CollectivePayload parseNcclKernelName(std::string_view name);

}  // namespace tpscope::core
