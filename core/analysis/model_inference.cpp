// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/model_inference.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <string_view>

#include "core/analysis/analysis.h"
#include "core/analysis/scaling_input.h"
#include "core/workload/plan_shapes.h"

namespace tpscope::core::analysis {

namespace {

// Expert GEMM kernel names: the MoE GEMM rule of resources/kernel_rules.json (issue 32), whose kernels
// the rules class as plain GEMMs; the names tell an expert GEMM from a dense one.
constexpr std::array<std::string_view, 7> kExpertGemmNames = {"_matmul_ogs_", "fused_moe",  "moe_gemm", "grouped_gemm",
                                                              "cutlass_moe",  "grouped_mm", "MoeGemm"};

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

bool isExpertGemm(std::string_view name) {
    return std::any_of(kExpertGemmNames.begin(), kExpertGemmNames.end(),
                       [&](std::string_view n) { return contains(name, n); });
}

// Weight format of routed experts from a kernel name (Triton matmul_ogs writes the operand types:
// `bf16xbf16xmxfp4` for gpt-oss's MXFP4 experts).
WeightFormat formatFromName(std::string_view name) {
    if (contains(name, "mxfp4")) return WeightFormat::Mxfp4;
    if (contains(name, "nvfp4")) return WeightFormat::Nvfp4;
    if (contains(name, "fp8") || contains(name, "e4m3")) return WeightFormat::Fp8;
    return WeightFormat::Default;
}

struct Gemm {
    std::int64_t m = 0, n = 0, k = 0;
    bool expert = false;
    std::string_view name;
};

// A rank's GEMMs with shapes and its attention kernels, in start order (all streams).
struct Item {
    std::int64_t startNs = 0;
    bool attention = false;
    Gemm gemm;
    bool shaped = true;  // false: a GEMM without a shape, kept only to end a run of attention kernels
};

std::vector<Item> itemsOf(const Trace& trace, const Rank& rank) {
    std::vector<Item> items;
    for (const auto& s : rank.streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            const EventKind kind = s.events.kind(i);
            if (kind == EventKind::Attention) {
                items.push_back({s.events.startNs(i), true, {}});
            } else if (kind == EventKind::Gemm) {
                // Expert GEMMs count without a shape too (Triton launches carry none): they mark a MoE layer.
                const std::string_view name = trace.name(s.events.name(i));
                const bool expert = isExpertGemm(name);
                const PayloadId id = s.events.payload(i);
                const Payload* p = id != kNoPayload ? &trace.payload(id) : nullptr;
                if (p != nullptr && p->kind == PayloadKind::Gemm && p->gemm.m > 0 && p->gemm.n > 0 && p->gemm.k > 0) {
                    items.push_back({s.events.startNs(i), false, Gemm{p->gemm.m, p->gemm.n, p->gemm.k, expert, name}});
                } else if (expert) {
                    items.push_back({s.events.startNs(i), false, Gemm{0, 0, 0, true, name}});
                } else {
                    items.push_back({s.events.startNs(i), false, Gemm{0, 0, 0, false, name}, false});
                }
            }
        }
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.startNs < b.startNs; });
    return items;
}

// The most common non-zero value (ties: the larger); 0 when none.
class Mode {
  public:
    void add(std::int64_t v) {
        if (v > 0) ++m_counts[v];
    }
    std::int64_t value() const {
        std::int64_t best = 0;
        std::size_t bestCount = 0;
        for (const auto& [v, c] : m_counts) {
            if (c >= bestCount) {
                best = v;
                bestCount = c;
            }
        }
        return best;
    }
    std::size_t count(std::int64_t v) const {
        const auto it = m_counts.find(v);
        return it == m_counts.end() ? 0 : it->second;
    }
    const std::map<std::int64_t, std::size_t>& counts() const { return m_counts; }

  private:
    std::map<std::int64_t, std::size_t> m_counts;
};

// Per-rank observations (mode over layers); 0 = not seen.
struct Observed {
    std::int64_t hidden = 0;
    std::int64_t qRank = 0;    // O-proj K
    std::int64_t qkvRank = 0;  // sum of the QKV GEMMs' N
    std::int64_t ffnRank = 0;
    std::int64_t expertFfnRank = 0;
    std::int64_t sharedFfnRank = 0;
    std::int64_t experts = 0;
    std::int64_t topK = 0;
    std::int64_t vocabRank = 0;
    std::int64_t attentionOps = 0;  // runs of attention kernels with no GEMM between them (split-KV: 2 kernels, 1 op)
    bool moe = false;
    WeightFormat expertFormat = WeightFormat::Default;
    std::string expertKernel;  // one expert GEMM name, for the evidence
};

std::int64_t hiddenOf(const std::vector<Item>& items) {
    Mode dims;
    for (const auto& it : items) {
        if (it.attention || it.gemm.n == 0) continue;
        dims.add(it.gemm.n);
        if (it.gemm.k != it.gemm.n) dims.add(it.gemm.k);
    }
    return dims.value();
}

// One layer's MLP (the GEMMs after the O-proj up to the last one writing the hidden size).
void readMlp(const std::vector<const Gemm*>& mlp, std::int64_t tokenRows, std::int64_t h, Observed& o, Mode& ffn,
             Mode& expertFfn, Mode& shared, Mode& experts, Mode& topK) {
    const bool moe = std::any_of(mlp.begin(), mlp.end(), [](const Gemm* g) { return g->expert; });
    if (!moe) {
        if (!mlp.empty() && mlp.back()->n == h) ffn.add(mlp.back()->k);
        return;
    }
    o.moe = true;
    std::int64_t router = 0;
    for (const Gemm* g : mlp) {
        if (g->expert) {
            if (o.expertKernel.empty()) o.expertKernel = std::string(g->name);
            if (const WeightFormat f = formatFromName(g->name); f != WeightFormat::Default) o.expertFormat = f;
            if (g->n == h) expertFfn.add(g->k);
            if (g->k == h && tokenRows > 0 && g->m % tokenRows == 0) topK.add(g->m / tokenRows);
        } else if (g->k == h && (router == 0 || g->n < router)) {
            router = g->n;
        } else if (g->n == h) {
            shared.add(g->k);
        }
    }
    experts.add(router);
}

Observed observe(const std::vector<Item>& items) {
    Observed o;
    o.hidden = hiddenOf(items);
    const std::int64_t h = o.hidden;
    // Segments: the GEMMs after each attention op, up to the next one. An op may launch several
    // attention kernels back to back (split-KV decoding: a split kernel and a combine kernel).
    std::vector<std::vector<const Gemm*>> segments(1);
    bool previousAttention = false;
    for (const auto& it : items) {
        const bool opensOp = it.attention && !previousAttention;
        previousAttention = it.attention;
        if (!it.attention && !it.shaped) continue;
        if (opensOp) {
            ++o.attentionOps;
            segments.emplace_back();
        } else if (!it.attention) {
            segments.back().push_back(&it.gemm);
        }
    }
    Mode q, qkv, ffn, expertFfn, shared, experts, topK;
    // Before the first attention kernel: the first layer's QKV.
    std::int64_t first = 0;
    for (const Gemm* g : segments.front()) first += g->k == h ? g->n : 0;
    qkv.add(first);
    for (std::size_t s = 1; s < segments.size(); ++s) {
        const auto& seg = segments[s];
        const auto oProj = std::find_if(seg.begin(), seg.end(), [&](const Gemm* g) { return g->n == h && !g->expert; });
        if (oProj == seg.end()) continue;
        q.add((*oProj)->k);
        // The trailing plain GEMMs reading the hidden size are the next layer's QKV (or the LM head);
        // what lies between them and the O-proj is the MLP.
        auto qkvStart = seg.end();
        while (qkvStart - 1 > oProj && (*(qkvStart - 1))->k == h && !(*(qkvStart - 1))->expert) --qkvStart;
        if (qkvStart - 1 > oProj) {
            readMlp(std::vector<const Gemm*>(oProj + 1, qkvStart), (*oProj)->m, h, o, ffn, expertFfn, shared, experts,
                    topK);
        }
        if (s + 1 < segments.size()) {  // not after the last attention kernel: that is the LM head
            std::int64_t sum = 0;
            for (auto it = qkvStart; it != seg.end(); ++it) sum += (*it)->n;
            qkv.add(sum);
        }
    }
    o.qRank = q.value();
    o.qkvRank = qkv.value();
    o.ffnRank = ffn.value();
    o.expertFfnRank = expertFfn.value();
    o.sharedFfnRank = shared.value();
    o.experts = experts.value();
    o.topK = topK.value();
    // LM head: the widest GEMM reading the hidden size, at most one per four layers' worth of the
    // most common such GEMM, and wider than the hidden size (a vocabulary always is).
    Mode readsHidden;
    for (const auto& it : items) {
        if (!it.attention && !it.gemm.expert && it.gemm.k == h) readsHidden.add(it.gemm.n);
    }
    const std::size_t common = readsHidden.count(readsHidden.value());
    for (const auto& [n, c] : readsHidden.counts()) {
        if (n > h && c * 4 <= common) o.vocabRank = std::max(o.vocabRank, n);
    }
    return o;
}

std::string num(std::int64_t v) {
    return std::to_string(v);
}

// Each observed dimension against one catalog model at the trace's TP.
struct Check {
    std::string what;
    bool known = false;
    bool agrees = false;
};

std::vector<Check> compare(const Observed& o, const InferredDims& d, const ModelSpec& m, int tp) {
    std::vector<Check> checks;
    const auto add = [&](std::string what, bool known, bool agrees) {
        if (known) checks.push_back({std::move(what), true, agrees});
    };
    const auto shard = shardModel(m, tp);
    if (!shard) return {{"TP " + num(tp), true, false}};
    const auto a = detail::attentionShapes(m, *shard);
    add("hidden", true, m.hidden == o.hidden);
    add("MoE", true, m.isMoe() == o.moe);
    add("attention width", o.qRank > 0, a.oProjK == o.qRank);
    add("QKV width", o.qkvRank > 0 && !m.isMla(), a.qkvN == o.qkvRank);
    add("FFN", o.ffnRank > 0, shard->ffnPerRank == o.ffnRank);
    add("layers", d.layers > 0, m.layers == d.layers);
    // vLLM pads the vocabulary per rank (to a multiple of 64): within 64 per rank.
    add("vocabulary", o.vocabRank > 0, std::llabs(shard->vocabPerRank - o.vocabRank) < 64);
    add("heads", d.heads > 0, shard->headsPerRank == d.heads && (m.isMla() || m.headDim == d.headDim));
    add("kv heads", d.kvHeads > 0 && !m.isMla(), shard->kvHeadsPerRank == d.kvHeads);
    if (o.moe && m.isMoe()) {
        add("experts", o.experts > 0, m.moe.experts == o.experts);
        add("top-k", o.topK > 0, m.moe.topK == o.topK);
        add("expert FFN", o.expertFfnRank > 0, shard->expertFfnPerRank == o.expertFfnRank);
        add("expert format", o.expertFormat != WeightFormat::Default, m.formats.experts == o.expertFormat);
    }
    return checks;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep = ", ") {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
    return out;
}

// What was observed, in words, with where each number came from.
std::string describe(const InferredDims& d, const Observed& o, const std::string& layerSource) {
    std::vector<std::string> parts;
    parts.push_back("hidden " + num(d.hidden) + " (the most common GEMM dimension)");
    if (d.layers > 0) parts.push_back(num(d.layers) + " layers (" + layerSource + ")");
    if (d.qWidth > 0) {
        parts.push_back("attention " + num(d.qWidth) + (d.kvWidth > 0 ? " / kv " + num(d.kvWidth) : std::string()) +
                        " wide (O-proj and QKV GEMMs)");
    }
    if (d.heads > 0) {
        parts.push_back(num(d.heads) + " heads, " + num(d.kvHeads) + " kv heads of " + num(d.headDim) +
                        " (attention op shapes)");
    }
    if (d.ffn > 0) parts.push_back("FFN " + num(d.ffn) + " (down-proj GEMM)");
    if (d.vocab > 0) parts.push_back("vocabulary " + num(d.vocab) + " (LM head GEMM)");
    if (d.moe) {
        std::string moe = "MoE from expert GEMM kernels (" + o.expertKernel.substr(0, 40) + ")";
        if (d.experts > 0) moe += ": " + num(d.experts) + " experts (router GEMM)";
        if (d.topK > 0) moe += ", top-" + num(d.topK) + " (expert rows per token)";
        if (d.expertFfn > 0) moe += ", expert FFN " + num(d.expertFfn);
        if (d.sharedFfn > 0) moe += ", shared expert FFN " + num(d.sharedFfn);
        if (d.expertFormat != WeightFormat::Default) {
            moe += ", experts " + std::string(toString(d.expertFormat)) + " (kernel name)";
        }
        parts.push_back(moe);
    }
    if (d.tp > 1) parts.push_back("at TP " + num(d.tp));
    return join(parts, "; ");
}

std::int64_t headDimGuess(const InferredDims& d) {
    if (d.headDim > 0) return d.headDim;
    for (const std::int64_t hd : {128, 64}) {
        if (d.qWidth % hd == 0 && d.kvWidth % hd == 0) return hd;
    }
    return 0;
}

// A custom model from the dims; nullopt when a dimension the simulator needs is missing.
std::optional<ModelSpec> customModel(const InferredDims& d, std::string* assumed) {
    const std::int64_t hd = headDimGuess(d);
    if (d.hidden <= 0 || d.layers <= 0 || d.qWidth <= 0 || hd <= 0) return std::nullopt;
    if (d.moe && (d.experts <= 0 || d.topK <= 0 || d.expertFfn <= 0)) return std::nullopt;
    if (!d.moe && d.ffn <= 0) return std::nullopt;
    ModelSpec m;
    m.id = "inferred";
    m.name = "Inferred from the trace";
    m.hidden = d.hidden;
    m.ffn = d.moe ? (d.ffn > 0 ? d.ffn : d.expertFfn) : d.ffn;
    m.headDim = hd;
    m.heads = d.qWidth / hd;
    m.kvHeads = d.kvWidth > 0 ? d.kvWidth / hd : m.heads;
    m.layers = d.layers;
    m.vocab = d.vocab;
    if (d.headDim <= 0) *assumed += "head dim " + num(hd) + " assumed, no attention op shapes; ";
    if (m.vocab <= 0) {
        // The simulator needs a vocabulary for the LM head; the trace has none. 32000 is Llama-2's
        // (its config.json vocab_size): a stated assumption, not an inference.
        m.vocab = 32000;
        *assumed += "vocabulary 32000 assumed, no LM head GEMM; ";
    }
    if (d.moe) {
        m.moe.experts = d.experts;
        m.moe.topK = d.topK;
        m.moe.expertFfn = d.expertFfn;
        m.moe.sharedExperts = d.sharedFfn > 0 && d.sharedFfn % d.expertFfn == 0 ? d.sharedFfn / d.expertFfn : 0;
        m.formats.experts = d.expertFormat;
    }
    m.source = "inferred from the trace's GEMM shapes by tpscope";
    if (!validateModel(m)) return std::nullopt;
    return m;
}

}  // namespace

int layersPerStep(const Segmentation& segmentation) {
    for (const auto& r : segmentation.ranks) {
        if (r.layers.empty()) continue;
        std::map<std::int64_t, std::int64_t> perStep;
        for (const auto& l : r.layers) ++perStep[l.step];
        Mode mode;
        for (const auto& [step, n] : perStep) mode.add(n);
        return static_cast<int>(mode.value());
    }
    return 0;
}

ModelInference inferModel(const Trace& trace, const std::vector<ModelSpec>& catalog, const Segmentation* segmentation) {
    ModelInference out;
    const std::string named = trace.metadataValue("model");
    if (!named.empty()) {
        const auto it = std::find_if(catalog.begin(), catalog.end(), [&](const ModelSpec& m) { return m.id == named; });
        if (it != catalog.end()) {
            out.model = *it;
            out.fromCatalog = true;
            out.evidence = "the trace's metadata names " + named;
            return out;
        }
    }
    const Rank* rank = nullptr;
    std::vector<Item> items;
    for (const auto& r : trace.ranks) {
        items = itemsOf(trace, r);
        if (std::any_of(items.begin(), items.end(), [](const Item& i) { return !i.attention && i.gemm.n > 0; })) {
            rank = &r;
            break;
        }
    }
    const std::string unnamed =
        named.empty() ? std::string() : "the trace names \"" + named + "\", not in the catalog; ";
    if (rank == nullptr) {
        out.evidence = unnamed +
                       "no GEMM shapes in this trace (PyTorch records them with record_shapes=True; "
                       "tpscope's own exports carry them), so no model is inferred";
        return out;
    }
    const Observed o = observe(items);
    InferredDims& d = out.dims;
    d.tp = std::max(1, traceTp(trace).tp);
    d.hidden = o.hidden;
    d.qWidth = o.qRank * d.tp;
    d.kvWidth = o.qkvRank > o.qRank && (o.qkvRank - o.qRank) % 2 == 0 ? (o.qkvRank - o.qRank) / 2 * d.tp : 0;
    d.ffn = o.ffnRank * d.tp;
    d.moe = o.moe;
    d.experts = o.experts;
    d.topK = o.topK;
    d.expertFfn = o.expertFfnRank * d.tp;
    d.sharedFfn = o.sharedFfnRank * d.tp;
    d.vocab = o.vocabRank * d.tp;
    d.expertFormat = o.expertFormat;
    d.heads = metadataInt(trace, "attention_heads");
    d.kvHeads = metadataInt(trace, "attention_kv_heads");
    d.headDim = metadataInt(trace, "attention_head_dim");
    std::string layerSource;
    if (segmentation != nullptr) {
        d.layers = layersPerStep(*segmentation);
        for (const auto& r : segmentation->ranks) {
            if (!r.layers.empty()) {
                layerSource = "layer segmentation, " + std::string(toString(r.source));
                break;
            }
        }
    }
    if (d.layers <= 0 && o.attentionOps > 0) {
        const std::size_t steps = segmentation != nullptr && !segmentation->ranks.empty()
                                      ? std::max<std::size_t>(1, segmentation->ranks.front().steps.size())
                                      : 1;
        d.layers = o.attentionOps / static_cast<std::int64_t>(steps);
        layerSource = "attention ops per step";
    }
    const std::string observed = describe(d, o, layerSource);

    const ModelSpec* best = nullptr;
    std::vector<std::string> bestAgreeing;
    for (const auto& m : catalog) {
        const auto checks = compare(o, d, m, d.tp);
        std::vector<std::string> agreeing;
        bool ok = true;
        for (const auto& c : checks) {
            ok = ok && c.agrees;
            if (c.agrees) agreeing.push_back(c.what);
        }
        if (ok && (best == nullptr || agreeing.size() > bestAgreeing.size())) {
            best = &m;
            bestAgreeing = agreeing;
        }
    }
    if (best != nullptr) {
        out.model = *best;
        out.fromCatalog = true;
        out.evidence = unnamed + best->id + ": " + observed + "; agrees in " + join(bestAgreeing);
        return out;
    }
    std::string assumed;
    out.model = customModel(d, &assumed);
    out.evidence = unnamed + observed + "; no catalog model has these dimensions";
    if (!out.model) {
        out.evidence += ", and too few were seen for a custom model";
    } else {
        out.evidence += ", so a custom model";
        if (!assumed.empty()) out.evidence += " (" + assumed.substr(0, assumed.size() - 2) + ")";
    }
    return out;
}

}  // namespace tpscope::core::analysis
