// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The step annotations serving engines and PyTorch write around each model step (docs/formats.md,
// "Step annotations"): what a step is, whether it decodes or prefills, and how many sequences decode.
//
//   vLLM       execute_<T>_context_<N>(<tallies>)_generation_<M>(<tallies>)   newer vLLM V1 (T: tokens)
//              execute_context_<N>(<tokens>)_generation_<M>(<tokens>)
//              execute_new_<N>_cached_<M>                                       older vLLM V1 form
//   SGLang     step[DECODE bs=<N> ...], step[EXTEND bs=<N> ...], step[MIXED ...]
//   TRT-LLM    [Executor] _forward_step <i>: <C> ctx reqs, [<T> ctx tokens, ]<G> gen reqs
//   PyTorch    ProfilerStep#<i>                                                 phase and batch unknown
// Phase: decode when no request prefills (N, C = 0; SGLang DECODE), prefill when none decodes (M, G = 0;
// EXTEND / PREFILL), mixed when both run in one step (chunked prefill beside decodes; SGLang MIXED).
// The batch is the number of sequences that decode a token in the step (M, N of DECODE, G above).
// Cost: O(name length), no allocation.

#include <cstdint>
#include <optional>
#include <string_view>

namespace tpscope::core {

// Mixed: prefills and decodes in one step; like a prefill step it is left out of decode rates.
enum class StepPhase : std::uint8_t { Unknown = 0, Decode, Prefill, Mixed };
std::string_view toString(StepPhase phase);

enum class StepEngine : std::uint8_t { PyTorch = 0, Vllm, Sglang, TensorRtLlm };
std::string_view toString(StepEngine engine);

struct StepAnnotation {
    StepEngine engine = StepEngine::PyTorch;
    StepPhase phase = StepPhase::Unknown;
    int batch = 0;             // sequences decoding in the step; 0 when the name does not say
    std::int64_t number = -1;  // the step's own number, when the name has one
};

// nullopt when `name` is none of the annotations above.
std::optional<StepAnnotation> parseStepAnnotation(std::string_view name);

}  // namespace tpscope::core
