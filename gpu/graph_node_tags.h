// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Which graph nodes an op added while a CUDA graph was being captured. cudaGraphGetNodes does not
// promise creation order, so "the nodes past the count seen before" could tag another op's nodes:
// the new nodes are the set difference between the graph after the op and every node seen before.
// O(nodes) per op with a hash set; a decode step has a few hundred nodes.

#include <unordered_set>
#include <vector>

namespace tpscope::gpu {

template <typename Node>
std::vector<Node> takeNewNodes(const std::vector<Node>& all, std::unordered_set<Node>& seen) {
    std::vector<Node> added;
    for (const Node& n : all) {
        if (seen.insert(n).second) added.push_back(n);
    }
    return added;
}

}  // namespace tpscope::gpu
