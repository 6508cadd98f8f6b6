// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/layer_segmentation.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>

#include "core/analysis/layer_blocks.h"
#include "core/analysis/repeat_layers.h"
#include "core/analysis/repeat_segmentation.h"
#include "core/trace/event_scan.h"
#include "core/util/parallel_for.h"

namespace tpscope::core::analysis {

std::string_view toString(SegmentationSource source) {
    switch (source) {
        case SegmentationSource::Nvtx:
            return "nvtx";
        case SegmentationSource::Pattern:
            return "pattern";
        case SegmentationSource::Repeat:
            return "repeat";
        case SegmentationSource::None:
            break;
    }
    return "none";
}

namespace {

// ASCII only: the match does not depend on the C locale, and costs no libc call a character (it
// runs on every layer range).
char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (asciiLower(s[i]) != asciiLower(prefix[i])) return false;
    }
    return true;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

struct Closer {
    std::int64_t startNs;
    std::int64_t endNs;
};

// Collective kernels that end a block, sorted by end.
std::vector<Closer> closers(const Trace& trace, const Rank& rank, const SegmentationOptions& o) {
    std::vector<Closer> out;
    constexpr std::uint32_t kCollectives = 1U << static_cast<unsigned>(EventKind::Collective);
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        const EventKinds kinds = ev.kinds();  // a stream or block without collectives is skipped whole
        for (std::size_t i = kinds.next(0, kCollectives); i < ev.size(); i = kinds.next(i + 1, kCollectives)) {
            if (!o.allCollectivesCloseBlocks) {
                const Payload& p = trace.payload(ev.payload(i));
                const CollectiveOp op = p.kind == PayloadKind::Collective ? p.collective.op : CollectiveOp::Unknown;
                if (op != CollectiveOp::AllReduce && op != CollectiveOp::Unknown) continue;
            }
            out.push_back({ev.startNs(i), ev.endNs(i)});
        }
    }
    // The collectives of one stream come in end order already, and a strictly increasing list is what
    // the sort would return (ties are still left to it, as before): sorting it cost ~2 % of the
    // analysis of a trace without NVTX.
    const bool strictlyByEnd = std::adjacent_find(out.begin(), out.end(), [](const Closer& a, const Closer& b) {
                                   return a.endNs >= b.endNs;
                               }) == out.end();
    if (!strictlyByEnd) {
        std::sort(out.begin(), out.end(), [](const Closer& a, const Closer& b) { return a.endNs < b.endNs; });
    }
    return out;
}

std::int64_t firstEventStart(const Rank& rank) {
    std::int64_t t = std::numeric_limits<std::int64_t>::max();
    for (const auto& s : rank.streams) {
        if (!s.events.empty()) t = std::min(t, s.events.firstStartNs());
    }
    return t;
}

std::int64_t lastEventEnd(const Rank& rank) {
    std::int64_t t = std::numeric_limits<std::int64_t>::min();
    for (const auto& s : rank.streams) {
        if (!s.events.empty()) t = std::max(t, s.events.lastEndNs());
    }
    return t;
}

std::vector<StepWindow> nvtxSteps(const Trace& trace, const Rank& rank, const SegmentationOptions& o) {
    std::vector<StepWindow> steps;
    std::vector<bool> fromEngine;
    for (std::size_t i = 0; i < rank.ranges.size(); ++i) {
        if (rank.ranges.depth(i) != 0) continue;  // the depth column first: most ranges are not steps
        const NvtxRange r = rank.ranges[i];
        const auto name = trace.name(r.name);
        const auto annotation = parseStepAnnotation(name);
        const bool isStep = annotation || std::any_of(o.stepPrefixes.begin(), o.stepPrefixes.end(),
                                                      [&](const std::string& p) { return startsWithNoCase(name, p); });
        if (!isStep) continue;
        StepWindow w{parseTrailingNumber(name), r.startNs, r.endNs};
        if (annotation) {
            if (annotation->number >= 0) w.key = annotation->number;
            w.phase = annotation->phase;
            w.batch = annotation->batch;
        }
        steps.push_back(w);
        fromEngine.push_back(annotation && annotation->engine != StepEngine::PyTorch);
    }
    // An engine's steps inside a profiler step: the engine's are the model steps.
    if (std::find(fromEngine.begin(), fromEngine.end(), true) != fromEngine.end()) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (fromEngine[i]) steps[kept++] = steps[i];
        }
        steps.resize(kept);
    }
    bool allNumbered = true;
    for (const auto& s : steps) allNumbered = allNumbered && s.key >= 0;
    std::int64_t ordinal = 0;
    for (auto& s : steps) {
        if (!allNumbered) s.key = ordinal;
        ++ordinal;
    }
    return steps;
}

// Index of the step whose window holds t, or -1. Steps sorted by start.
std::ptrdiff_t stepAt(const std::vector<StepWindow>& steps, std::int64_t t) {
    auto it = std::upper_bound(steps.begin(), steps.end(), t,
                               [](std::int64_t v, const StepWindow& s) { return v < s.startNs; });
    if (it == steps.begin()) return -1;
    --it;
    return t < it->endNs ? it - steps.begin() : -1;
}

// Returns the depth of the layer ranges used (256 when there are none).
// Layer ranges repeat a few names ("layer 0" … "layer 79") over thousands of steps: a small
// direct-mapped cache by name id parses each once (a collision just parses again).
class LayerIndexOfName {
  public:
    LayerIndexOfName(const Trace& trace, std::string_view prefix) : m_trace(trace), m_prefix(prefix) {}
    int operator()(NameId name) {
        Slot& slot = m_slots[name.value % m_slots.size()];
        if (slot.name != name.value || name.value == kEmpty) {
            slot = {name.value, parseLayerIndex(m_trace.name(name), m_prefix)};
        }
        return slot.index;
    }

  private:
    static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
    struct Slot {
        std::uint32_t name = kEmpty;
        int index = -1;
    };
    const Trace& m_trace;
    std::string_view m_prefix;
    std::array<Slot, 256> m_slots{};
};

// The layers go to `layers` (a plain list: the blocks are found from it before it is packed).
int nvtxLayers(const Trace& trace, const Rank& rank, const SegmentationOptions& o, RankSegmentation& seg,
               std::vector<LayerWindow>& layers) {
    LayerIndexOfName layerIndex(trace, o.layerPrefix);
    // Module-named ranges nest ("layers.3" > "layers.3.mlp"): only the shallowest depth that has
    // layer ranges is used, so each layer is counted once.
    int depth = 256;
    const NvtxRanges& ranges = rank.ranges;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (ranges.depth(i) < depth && layerIndex(ranges.name(i)) >= 0) depth = ranges.depth(i);
    }
    EventScan spans(ranges.columns(), EventScan::kStarts | EventScan::kDurations);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (ranges.depth(i) != depth) continue;
        const int index = layerIndex(ranges.name(i));
        if (index < 0) continue;
        const EventScan::Event r = spans.at(i);
        layers.push_back({0, index, r.startNs, r.startNs + r.durNs});
    }
    if (!seg.steps.empty()) {
        for (auto& l : layers) {
            const auto s = stepAt(seg.steps, l.startNs);
            if (s < 0) {
                ++seg.ignoredLayerRanges;
                l.layer = -1;
                continue;
            }
            l.step = seg.steps[static_cast<std::size_t>(s)].key;
        }
        std::erase_if(layers, [](const LayerWindow& l) { return l.layer < 0; });
    } else {
        // No step ranges: a layer index that does not increase starts the next step.
        std::int64_t step = 0;
        for (std::size_t i = 0; i < layers.size(); ++i) {
            if (i > 0 && layers[i].layer <= layers[i - 1].layer) {
                ++step;
            }
            layers[i].step = step;
            if (i == 0 || layers[i].step != layers[i - 1].step) {
                seg.steps.push_back({step, layers[i].startNs, layers[i].endNs});
            }
            seg.steps.back().endNs = std::max(seg.steps.back().endNs, layers[i].endNs);
        }
    }
    return depth;
}

// Turns the closers of one step into layers. `blockStartNs` is where the step's first block begins.
void patternLayersOfStep(const std::vector<Closer>& cl, std::size_t first, std::size_t last, std::int64_t step,
                         std::int64_t blockStartNs, const SegmentationOptions& o, RankSegmentation& seg,
                         std::vector<LayerWindow>& layers) {
    const auto perLayer = static_cast<std::size_t>(std::max(1, o.blocksPerLayer));
    const auto leading = static_cast<std::size_t>(std::max(0, o.leadingBlocks));
    std::size_t block = 0;
    std::int64_t layerStart = blockStartNs;
    int layer = 0;
    for (std::size_t i = first; i < last; ++i, ++block) {
        if (block < leading) {
            layerStart = cl[i].endNs;
            continue;
        }
        if ((block - leading + 1) % perLayer == 0) {
            layers.push_back({step, layer++, layerStart, cl[i].endNs});
            layerStart = cl[i].endNs;
        }
    }
    const std::size_t blocks = last - first;
    if (blocks > leading) seg.leftoverBlocks += (blocks - leading) % perLayer;
}

void patternLayers(const Trace& trace, const Rank& rank, const SegmentationOptions& o, RankSegmentation& seg,
                   std::vector<LayerWindow>& layers) {
    const auto cl = closers(trace, rank, o);
    const std::int64_t first = firstEventStart(rank);
    if (first == std::numeric_limits<std::int64_t>::max()) return;
    if (!seg.steps.empty()) {
        std::size_t i = 0;
        for (const auto& step : seg.steps) {
            while (i < cl.size() && cl[i].startNs < step.startNs) ++i;
            const std::size_t begin = i;
            while (i < cl.size() && cl[i].startNs < step.endNs) ++i;
            patternLayersOfStep(cl, begin, i, step.key, step.startNs, o, seg, layers);
        }
        return;
    }
    if (o.layersPerStep <= 0) {
        seg.steps.push_back({0, first, lastEventEnd(rank)});
        patternLayersOfStep(cl, 0, cl.size(), 0, first, o, seg, layers);
        return;
    }
    const auto perStep =
        static_cast<std::size_t>(std::max(0, o.leadingBlocks)) +
        static_cast<std::size_t>(o.layersPerStep) * static_cast<std::size_t>(std::max(1, o.blocksPerLayer));
    std::int64_t stepStart = first;
    std::int64_t key = 0;
    for (std::size_t begin = 0; begin + perStep <= cl.size(); begin += perStep, ++key) {
        seg.steps.push_back({key, stepStart, cl[begin + perStep - 1].endNs});
        patternLayersOfStep(cl, begin, begin + perStep, key, stepStart, o, seg, layers);
        stepStart = cl[begin + perStep - 1].endNs;
    }
    seg.leftoverBlocks += cl.size() % perStep;
}

}  // namespace

int parseLayerIndex(std::string_view name, std::string_view prefix) {
    if (!startsWithNoCase(name, prefix)) return -1;
    std::size_t i = prefix.size();
    if (i < name.size() && (name[i] == 's' || name[i] == 'S')) ++i;
    while (i < name.size() &&
           (name[i] == ' ' || name[i] == '_' || name[i] == '.' || name[i] == '#' || name[i] == ':' || name[i] == '-')) {
        ++i;
    }
    if (i >= name.size() || !isDigit(name[i])) return -1;
    long long value = 0;
    while (i < name.size() && isDigit(name[i])) {
        value = value * 10 + (name[i] - '0');
        if (value > std::numeric_limits<int>::max()) return -1;
        ++i;
    }
    // "layer 3" and "layers.3.mlp" are layers; "layer3norm" is not.
    if (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i]))) return -1;
    return static_cast<int>(value);
}

std::int64_t parseTrailingNumber(std::string_view name) {
    std::size_t end = name.size();
    while (end > 0 && name[end - 1] == ' ') --end;
    std::size_t begin = end;
    while (begin > 0 && isDigit(name[begin - 1])) --begin;
    if (begin == end || end - begin > 18) return -1;
    std::int64_t value = 0;
    for (std::size_t i = begin; i < end; ++i) value = value * 10 + (name[i] - '0');
    return value;
}

namespace {

// Settings only the pattern rule has, given explicitly: the user chose it.
bool patternOnly(const SegmentationOptions& o) {
    return o.patternOnly || o.layersPerStep > 0 || o.leadingBlocks > 0;
}

struct RankResult {
    RankSegmentation seg;
    std::size_t multiPassSteps = 0;  // repeat rule: step windows holding several forward passes
};

// A worker's plain lists of one rank's layers and NVTX blocks, before they are packed (layer_windows.h,
// block_windows.h). Kept from rank to rank: at 100 M events they are 40 and 80 MB a rank, and fresh
// ones cost a page fault per 4 KB (with regrowth copies for the layers): a fifth of the open's faults.
struct SegmentScratch {
    std::vector<LayerWindow> layers;
    std::vector<BlockWindow> blocks;
};

// One rank's steps, layers and blocks; ranks are independent, so they run in parallel.
RankResult segmentRank(const Trace& trace, const Rank& rank, const SegmentationOptions& options,
                       SegmentScratch& scratch) {
    RankResult result;
    RankSegmentation& seg = result.seg;
    seg.rank = rank.id;
    seg.steps = nvtxSteps(trace, rank, options);
    // The layers are found into a plain list, which the blocks are then split from, and packed into
    // seg.layers once at the end. Each layer comes from one range: room for them all, so the list
    // never regrows (pages not written are not resident).
    std::vector<LayerWindow>& layers = scratch.layers;
    layers.clear();
    layers.reserve(rank.ranges.size());
    const int layerDepth = nvtxLayers(trace, rank, options, seg, layers);
    std::vector<RepeatKernel> kernels;  // the repeat rule's: its layers' blocks are split from them
    if (!layers.empty()) {
        seg.source = SegmentationSource::Nvtx;
    } else if (rank.eventCount() > 0) {
        RankSegmentation beforePattern = seg;
        patternLayers(trace, rank, options, seg, layers);
        seg.source = SegmentationSource::Pattern;
        seg.patternLayerCount = layers.size();
        if (!patternOnly(options)) {
            kernels = repeatKernels(trace, rank);
            result.multiPassSteps = checkWithRepeatRule(kernels, std::move(beforePattern), seg, layers);
        }
    }
    // Both lists mostly come in start order already; a merge sort of a sorted list still costs
    // n log n comparisons and a buffer (~2 % of the analysis of a 1 M-event trace with NVTX).
    auto byStart = [](const auto& a, const auto& b) { return a.startNs < b.startNs; };
    if (!std::is_sorted(seg.steps.begin(), seg.steps.end(), byStart)) {
        std::stable_sort(seg.steps.begin(), seg.steps.end(), byStart);
    }
    if (!std::is_sorted(layers.begin(), layers.end(), byStart)) {
        std::stable_sort(layers.begin(), layers.end(), byStart);
    }
    if (seg.source == SegmentationSource::Nvtx) {
        nvtxBlocks(trace, rank, layers, layerDepth + 1, scratch.blocks);
        seg.blocks = scratch.blocks;
    } else if (seg.source == SegmentationSource::Repeat) {
        // Pattern layers are not split: their blocks already end at the collectives, and the split
        // measured ~8 % of the analysis of a 1 M-event trace without NVTX (bench_analysis).
        auto derived = splitLayersByKernelKind(kernels, layers);
        seg.blocks = std::move(derived.blocks);
        seg.blocksDerived = true;
        seg.unsplitLayers = derived.unsplitLayers;
    }
    seg.layers = layers;
    // The steps grew by doubling: up to half their capacity unused, held for the result's lifetime
    // (the blocks and layers are packed at their size: block_windows.h, layer_windows.h).
    seg.steps.shrink_to_fit();
    return result;
}

}  // namespace

Segmentation segmentLayers(const Trace& trace, const SegmentationOptions& options, unsigned threads) {
    Segmentation out;
    out.ranks.resize(trace.ranks.size());
    std::vector<std::size_t> multiPassSteps(trace.ranks.size(), 0);
    parallelForWithScratch<SegmentScratch>(trace.ranks.size(), threads, [&](std::size_t r, SegmentScratch& scratch) {
        auto result = segmentRank(trace, trace.ranks[r], options, scratch);
        out.ranks[r] = std::move(result.seg);
        out.ranks[r].blockCount = out.ranks[r].blocks.size();
        multiPassSteps[r] = result.multiPassSteps;
    });
    std::size_t nvtxRanks = 0;
    std::size_t patternRanks = 0;
    std::size_t repeatRanks = 0;
    std::size_t agreeing = 0;   // pattern ranks whose repeating sequence gave as many layers
    std::size_t multiples = 0;  // pattern ranks whose repeating sequence gave a whole fraction of them
    std::size_t derivedBlockRanks = 0;
    std::size_t unsplit = 0;
    std::size_t leftover = 0;
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
        const Rank& rank = trace.ranks[r];
        const RankSegmentation& seg = out.ranks[r];
        nvtxRanks += seg.source == SegmentationSource::Nvtx ? 1 : 0;
        patternRanks += seg.source == SegmentationSource::Pattern ? 1 : 0;
        agreeing +=
            seg.source == SegmentationSource::Pattern && seg.repeatLayerCount > 0 && !seg.patternKeptAsMultiple ? 1 : 0;
        multiples += seg.source == SegmentationSource::Pattern && seg.patternKeptAsMultiple ? 1 : 0;
        repeatRanks += seg.source == SegmentationSource::Repeat ? 1 : 0;
        if (seg.ignoredLayerRanges > 0) {
            out.notes.push_back("rank " + std::to_string(rank.id.value) + ": " +
                                std::to_string(seg.ignoredLayerRanges) +
                                " layer range(s) outside every step range were ignored");
        }
        if (rank.eventCount() == 0) out.notes.push_back("rank " + std::to_string(rank.id.value) + " has no kernels");
        leftover += seg.leftoverBlocks;
        derivedBlockRanks += seg.blocksDerived && !seg.blocks.empty() ? 1 : 0;
        unsplit += seg.blocksDerived ? seg.unsplitLayers : 0;
    }
    if (patternRanks > 0) {
        out.notes.push_back(
            std::to_string(patternRanks) + " rank(s) without NVTX layer ranges: layers from the " + "pattern rule (" +
            std::to_string(options.blocksPerLayer) + " collective-closed blocks per layer, " +
            std::to_string(options.leadingBlocks) + " leading block(s) per step)" +
            (patternOnly(options)       ? std::string(", as set")
             : agreeing == patternRanks ? std::string(": the repeating kernel sequence gives as many layers")
             : agreeing + multiples == 0
                 ? std::string(": no repeating kernel sequence found to check it")
                 : ": " + std::to_string(agreeing) + " of them checked against the repeating kernel sequence"));
    }
    addRepeatRuleNotes(out.ranks, out.notes);
    const std::size_t multiPass = std::accumulate(multiPassSteps.begin(), multiPassSteps.end(), std::size_t{0});
    if (multiPass > 0) {
        out.notes.push_back(std::to_string(multiPass) +
                            " step window(s) hold several forward passes: their layers are numbered on across the "
                            "passes (layer 0 of the second pass follows the first pass's last layer)");
    }
    if (derivedBlockRanks > 0) {
        out.notes.push_back(std::to_string(derivedBlockRanks) +
                            " rank(s): attention and MLP blocks derived from the kernel sequence (the MLP block "
                            "starts after the attention output projection GEMM and its all-reduce)");
    }
    if (unsplit > 0) {
        out.notes.push_back(std::to_string(unsplit) +
                            " layer(s) not split into attention and MLP: no attention kernel followed by a GEMM");
    }
    if (leftover > 0) {
        out.notes.push_back(std::to_string(leftover) + " block(s) at step ends did not complete a layer");
    }
    if (nvtxRanks > 0 && patternRanks + repeatRanks > 0) {
        out.notes.push_back("ranks disagree on segmentation: some have NVTX layer ranges, others do not");
    }
    return out;
}

}  // namespace tpscope::core::analysis
