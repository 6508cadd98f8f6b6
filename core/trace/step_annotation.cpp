// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/step_annotation.h"

#include <charconv>

namespace tpscope::core {

namespace {

// Reads a decimal number at the front of `s` and drops it; nullopt (s unchanged) when there is none.
std::optional<std::int64_t> number(std::string_view& s) {
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < 0) return std::nullopt;
    s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
    return v;
}

bool skip(std::string_view& s, std::string_view prefix) {
    if (!s.starts_with(prefix)) return false;
    s.remove_prefix(prefix.size());
    return true;
}

int asBatch(std::int64_t v) {
    return v > 0 && v < (1 << 30) ? static_cast<int>(v) : 0;
}

// Prefill-only, decode-only or both in one step (chunked prefill beside decodes).
StepPhase phaseOf(std::int64_t prefills, std::int64_t decodes) {
    if (prefills <= 0) return StepPhase::Decode;
    return decodes > 0 ? StepPhase::Mixed : StepPhase::Prefill;
}

// "(...)" at the front of `s`, whatever it holds (a token count, or the newer form's tallies such as
// "sq32sk55086sqsq32sqsk55086"), dropped; false when `s` does not start with a balanced group.
bool skipGroup(std::string_view& s) {
    if (!s.starts_with('(')) return false;
    const auto close = s.find(')');
    if (close == std::string_view::npos) return false;
    s.remove_prefix(close + 1);
    return true;
}

// vLLM V1: "execute_[<T>_]context_<N>(...)_generation_<M>(...)" (T: tokens scheduled in the step,
// written by newer versions) or "execute_new_<N>_cached_<M>".
std::optional<StepAnnotation> vllm(std::string_view s) {
    StepAnnotation a{StepEngine::Vllm, StepPhase::Unknown, 0, -1};
    if (!skip(s, "execute_")) return std::nullopt;
    if (skip(s, "new_")) {
        const auto fresh = number(s);
        if (!fresh || !skip(s, "_cached_")) return std::nullopt;
        const auto cached = number(s);
        if (!cached) return std::nullopt;
        a.phase = phaseOf(*fresh, *cached);
        a.batch = asBatch(*cached);
        return a;
    }
    if (number(s) && !skip(s, "_")) return std::nullopt;  // the newer form's scheduled token count
    if (!skip(s, "context_")) return std::nullopt;
    const auto context = number(s);
    if (!context || !skipGroup(s) || !skip(s, "_generation_")) return std::nullopt;
    const auto generation = number(s);
    if (!generation) return std::nullopt;
    a.phase = phaseOf(*context, *generation);
    a.batch = asBatch(*generation);
    return a;
}

// SGLang: the decode batch is "bs=" of a DECODE step; an EXTEND step decodes nothing, and a MIXED
// step's "bs=" counts its prefills too, so neither says how many sequences decode.
std::optional<StepAnnotation> sglang(std::string_view s) {
    if (!skip(s, "step[")) return std::nullopt;
    StepAnnotation a{StepEngine::Sglang, StepPhase::Unknown, 0, -1};
    if (skip(s, "DECODE")) {
        a.phase = StepPhase::Decode;
    } else if (skip(s, "MIXED")) {
        a.phase = StepPhase::Mixed;
    } else if (skip(s, "EXTEND") || skip(s, "PREFILL")) {
        a.phase = StepPhase::Prefill;
    } else if (!skip(s, "IDLE")) {
        return std::nullopt;
    }
    if (const auto bs = s.find("bs="); bs != std::string_view::npos) {
        s.remove_prefix(bs + 3);
        if (const auto n = number(s)) a.batch = a.phase == StepPhase::Decode ? asBatch(*n) : 0;
    }
    return a;
}

std::optional<StepAnnotation> trtllm(std::string_view s) {
    const auto at = s.find("_forward_step ");
    if (at == std::string_view::npos) return std::nullopt;
    s.remove_prefix(at + 14);
    StepAnnotation a{StepEngine::TensorRtLlm, StepPhase::Unknown, 0, -1};
    const auto iter = number(s);
    if (!iter || !skip(s, ": ")) return std::nullopt;
    a.number = *iter;
    const auto ctx = number(s);
    if (!ctx || !skip(s, " ctx reqs, ")) return std::nullopt;
    auto rest = s;
    if (number(rest) && skip(rest, " ctx tokens, ")) s = rest;
    const auto gen = number(s);
    if (!gen || !skip(s, " gen reqs")) return std::nullopt;
    a.phase = phaseOf(*ctx, *gen);
    a.batch = asBatch(*gen);
    return a;
}

}  // namespace

std::string_view toString(StepPhase phase) {
    switch (phase) {
        case StepPhase::Decode:
            return "decode";
        case StepPhase::Prefill:
            return "prefill";
        case StepPhase::Mixed:
            return "mixed";
        case StepPhase::Unknown:
            break;
    }
    return "unknown";
}

std::string_view toString(StepEngine engine) {
    switch (engine) {
        case StepEngine::Vllm:
            return "vllm";
        case StepEngine::Sglang:
            return "sglang";
        case StepEngine::TensorRtLlm:
            return "tensorrt-llm";
        case StepEngine::PyTorch:
            break;
    }
    return "pytorch";
}

std::optional<StepAnnotation> parseStepAnnotation(std::string_view name) {
    if (name.starts_with("execute_")) return vllm(name);
    if (name.starts_with("step[")) return sglang(name);
    if (name.starts_with("ProfilerStep#")) {
        name.remove_prefix(13);
        StepAnnotation a;
        if (const auto n = number(name); n && name.empty()) a.number = *n;
        return a;
    }
    return trtllm(name);
}

}  // namespace tpscope::core
