// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 27 §2: the serving engines' step annotations (core/trace/step_annotation.h) give the steps,
// their phase and the batch. The hand-written fixtures in tests/data/step_annotations hold CPU
// annotations whose kernels run later on the GPU (CUDA-graph replays included): each step must be
// projected onto its kernels, prefill steps must stay out of the decode latency.

#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <tuple>

#include "core/analysis/analysis.h"
#include "core/io/import/trace_reader.h"
#include "core/trace/step_annotation.h"

namespace tpscope::test {
namespace {

using core::StepPhase;

std::string fixture(const std::string& name) {
    return (std::filesystem::path(TPSCOPE_SOURCE_DIR) / "tests" / "data" / "step_annotations" / name).string();
}

TEST(StepAnnotation, GrammarOfEachEngine) {
    const auto v = core::parseStepAnnotation("execute_context_0(0)_generation_16(16)");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->engine, core::StepEngine::Vllm);
    EXPECT_EQ(v->phase, StepPhase::Decode);
    EXPECT_EQ(v->batch, 16);
    EXPECT_EQ(core::parseStepAnnotation("execute_context_2(512)_generation_0(0)")->phase, StepPhase::Prefill);
    EXPECT_EQ(core::parseStepAnnotation("execute_new_0_cached_32")->batch, 32);
    EXPECT_EQ(core::parseStepAnnotation("execute_new_0_cached_32")->phase, StepPhase::Decode);
    EXPECT_EQ(core::parseStepAnnotation("execute_new_1_cached_0")->phase, StepPhase::Prefill);

    const auto s = core::parseStepAnnotation("step[DECODE bs=64]");
    EXPECT_EQ(core::parseStepAnnotation("step[MIXED bs=12 num_tokens=300]")->phase, StepPhase::Mixed);
    EXPECT_EQ(core::parseStepAnnotation("step[MIXED bs=12 num_tokens=300]")->batch, 0);  // prefills counted in
    ASSERT_TRUE(s);
    EXPECT_EQ(s->engine, core::StepEngine::Sglang);
    EXPECT_EQ(s->batch, 64);
    EXPECT_EQ(core::parseStepAnnotation("step[EXTEND bs=2 num_tokens=40]")->phase, StepPhase::Prefill);

    const auto t = core::parseStepAnnotation("[Executor] _forward_step 17: 0 ctx reqs, 64 gen reqs");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->engine, core::StepEngine::TensorRtLlm);
    EXPECT_EQ(t->number, 17);
    EXPECT_EQ(t->batch, 64);
    EXPECT_EQ(t->phase, StepPhase::Decode);
    const auto t2 = core::parseStepAnnotation("[Executor] _forward_step 3: 2 ctx reqs, 300 ctx tokens, 5 gen reqs");
    ASSERT_TRUE(t2);
    EXPECT_EQ(t2->phase, StepPhase::Mixed);  // 2 prefills beside 5 decodes
    EXPECT_EQ(t2->batch, 5);
    EXPECT_EQ(core::parseStepAnnotation("[Executor] _forward_step 4: 2 ctx reqs, 300 ctx tokens, 0 gen reqs")->phase,
              StepPhase::Prefill);

    const auto p = core::parseStepAnnotation("ProfilerStep#12");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->number, 12);
    EXPECT_EQ(p->phase, StepPhase::Unknown);
    EXPECT_EQ(p->batch, 0);

    for (const char* not_a_step : {"execute_model", "execute_context_x", "execute_32_context_0",
                                   "execute_32context_0(x)", "execute_context_0(0_generation_1(1)", "step[UNKNOWN]",
                                   "aten::mm", "", "[Executor] _forward_step 1: many ctx reqs"}) {
        EXPECT_FALSE(core::parseStepAnnotation(not_a_step)) << not_a_step;
    }
}

// Issue 43 §2: each vLLM form, with the phase and decode batch its counts give. The first string is
// the real one quoted in the issue; the second is the issue's mixed step with its elided tallies
// filled in; the others follow vLLM's format strings.
TEST(StepAnnotation, EveryVllmFormGivesItsPhaseAndBatch) {
    struct Case {
        const char* name;
        StepPhase phase;
        int batch;
    };
    for (const Case& c : std::initializer_list<Case>{
             {"execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)", StepPhase::Decode,
              32},
             {"execute_8192_context_9(sq8155sk8155sqsq7452621sqsk7452621)_generation_37(sq37sk70311sqsq37sqsk70311)",
              StepPhase::Mixed, 37},
             {"execute_2048_context_1(sq2048sk2048sqsq4194304sqsk4194304)_generation_0(sq0sk0sqsq0sqsk0)",
              StepPhase::Prefill, 0},
             {"execute_context_0(0)_generation_16(16)", StepPhase::Decode, 16},
             {"execute_context_2(512)_generation_6(6)", StepPhase::Mixed, 6},
             {"execute_new_0_cached_8", StepPhase::Decode, 8},
             {"execute_new_2_cached_5", StepPhase::Mixed, 5},
             {"execute_new_3_cached_0", StepPhase::Prefill, 0}}) {
        const auto a = core::parseStepAnnotation(c.name);
        ASSERT_TRUE(a) << c.name;
        EXPECT_EQ(a->engine, core::StepEngine::Vllm) << c.name;
        EXPECT_EQ(a->phase, c.phase) << c.name;
        EXPECT_EQ(a->batch, c.batch) << c.name;
    }
    const auto t = core::parseStepAnnotation("[Executor] _forward_step 9: 1 ctx reqs, 512 ctx tokens, 7 gen reqs");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->phase, StepPhase::Mixed);
    EXPECT_EQ(t->batch, 7);
    EXPECT_EQ(core::toString(StepPhase::Mixed), "mixed");
}

struct Expected {
    const char* file;
    int batch;
    // Per step: first kernel start and last kernel end in µs (from the fixture), phase.
    std::vector<std::tuple<std::int64_t, std::int64_t, StepPhase>> steps;
};

class EngineFixture : public ::testing::TestWithParam<Expected> {};

TEST_P(EngineFixture, StepsAreProjectedOntoTheirKernelsWithPhaseAndBatch) {
    const Expected& e = GetParam();
    core::ImportStats stats;
    auto trace = core::readTrace(fixture(e.file), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(stats.projectedSteps, e.steps.size());
    // The CPU ranges are gone: only GPU-time step ranges remain.
    for (const auto& r : (*trace)->ranks.at(0).ranges) EXPECT_GE(r.startNs, std::get<0>(e.steps[0]) * 1000);
    const auto a = core::analysis::analyzeTrace(**trace);
    ASSERT_EQ(a.summary.steps.size(), e.steps.size());
    double decodeSum = 0;
    std::size_t decodeSteps = 0;
    for (std::size_t i = 0; i < e.steps.size(); ++i) {
        const auto& [startUs, endUs, phase] = e.steps[i];
        const auto& st = a.summary.steps[i];
        EXPECT_EQ(st.startNs, startUs * 1000) << i;
        EXPECT_EQ(st.latencyNs, (endUs - startUs) * 1000) << i;
        EXPECT_EQ(st.phase, phase) << i;
        EXPECT_EQ(st.prefill, phase == StepPhase::Prefill || phase == StepPhase::Mixed) << i;
        if (!st.prefill) {
            decodeSum += static_cast<double>((endUs - startUs) * 1000);
            ++decodeSteps;
        }
    }
    if (e.batch > 0) {
        EXPECT_TRUE(a.summary.batchKnown);
        EXPECT_EQ(a.summary.batchSource, "step annotations");
    } else {
        EXPECT_FALSE(a.summary.batchKnown);
    }
    const int batch = e.batch > 0 ? e.batch : 1;
    EXPECT_EQ(a.summary.batch, batch);
    const double mean = decodeSum / static_cast<double>(decodeSteps);
    EXPECT_DOUBLE_EQ(a.summary.latencyMeanNs, mean);
    EXPECT_NEAR(a.summary.tokensPerSec, batch / (mean * 1e-9), 1e-6);
}

// Kernel windows from the fixtures: first kernel start, last kernel end (ts + dur), in µs.
INSTANTIATE_TEST_SUITE_P(Engines, EngineFixture,
                         ::testing::Values(Expected{"vllm_graph.json",
                                                    4,
                                                    {{100, 125 + 10, StepPhase::Decode},
                                                     {300, 341 + 20, StepPhase::Mixed},
                                                     {500, 525 + 12, StepPhase::Decode}}},
                                           Expected{"vllm_tallies.json",
                                                    4,
                                                    {{100, 125 + 10, StepPhase::Decode},
                                                     {300, 341 + 20, StepPhase::Prefill},
                                                     {500, 525 + 12, StepPhase::Decode}}},
                                           Expected{"sglang.json",
                                                    8,
                                                    {{100, 131 + 10, StepPhase::Prefill},
                                                     {300, 316 + 6, StepPhase::Decode},
                                                     {500, 516 + 7, StepPhase::Decode}}}),
                         [](const ::testing::TestParamInfo<Expected>& p) {
                             std::string name = p.param.file;
                             return name.substr(0, name.find('.'));
                         });

TEST(StepAnnotation, CpuOnlyProfilerStepsMoveOntoTheirKernels) {
    // profiler_step.json: each ProfilerStep#N launches two kernels; it spans them in GPU time.
    core::ImportStats stats;
    auto trace = core::readTrace(fixture("profiler_step.json"), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(stats.projectedSteps, 2u);
    const auto& ranges = (*trace)->ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), 2u);
    // First kernel start, last kernel end, from the fixture (µs).
    EXPECT_EQ(ranges[0].startNs, 100'000);
    EXPECT_EQ(ranges[0].endNs, (131 + 10) * 1'000);
    EXPECT_EQ(ranges[1].startNs, 300'000);
    EXPECT_EQ(ranges[1].endNs, (331 + 12) * 1'000);
    const auto seg = core::analysis::segmentLayers(**trace);
    ASSERT_EQ(seg.ranks.at(0).steps.size(), 2u);
    EXPECT_EQ(seg.ranks[0].steps[0].key, 3);
    EXPECT_EQ(seg.ranks[0].steps[0].startNs, 100'000);
}

TEST(StepAnnotation, TheAnnotationsNestedInAProfilerStepMoveWithIt) {
    // profiler_step_nested.json: the whole CPU tree goes onto the GPU, nesting kept; the two
    // annotations that launched nothing (metrics, the dataloader thread's) are dropped.
    core::ImportStats stats;
    auto trace = core::readTrace(fixture("profiler_step_nested.json"), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(stats.projectedSteps, 1u);
    const auto& t = **trace;
    struct Want {
        const char* name;
        std::int64_t startUs, endUs;
        int depth;
    };
    // Kernels: corr 1 [200, 230), corr 2 [240, 260) in forward; corr 3 [300, 310) in Optimizer.step.
    const std::vector<Want> want{{"ProfilerStep#7", 200, 310, 0},
                                 {"## forward ##", 200, 260, 1},
                                 {"## optimizer ##", 300, 310, 1},
                                 {"Optimizer.step#SGD.step", 300, 310, 2}};
    const auto& ranges = t.ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(t.name(ranges[i].name), want[i].name) << i;
        EXPECT_EQ(ranges[i].startNs, want[i].startUs * 1'000) << want[i].name;
        EXPECT_EQ(ranges[i].endNs, want[i].endUs * 1'000) << want[i].name;
        EXPECT_EQ(ranges[i].depth, want[i].depth) << want[i].name;
    }
    bool noted = false;
    for (const auto& n : stats.notes)
        noted = noted || n.find("2 CPU annotation(s) launched no GPU work") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(StepAnnotation, EngineStepsWinOverTheProfilerStepAroundThem) {
    core::Trace t;
    auto& rank = t.rank(core::RankId{0});
    core::EventRecord e;
    e.name = t.intern("sm90_xmma_gemm");
    e.kind = core::EventKind::Gemm;
    for (std::int64_t s : {100, 300}) {
        e.startNs = s;
        e.durNs = 50;
        rank.stream(core::StreamId{7}).events.append(e);
    }
    rank.ranges.push_back({0, 1000, t.intern("ProfilerStep#5"), 0});
    rank.ranges.push_back({100, 150, t.intern("step[DECODE bs=3]"), 0});
    rank.ranges.push_back({300, 350, t.intern("step[DECODE bs=3]"), 0});
    t.finalize();
    const auto seg = core::analysis::segmentLayers(t);
    ASSERT_EQ(seg.ranks.at(0).steps.size(), 2u);
    EXPECT_EQ(seg.ranks[0].steps[1].startNs, 300);
    EXPECT_EQ(seg.ranks[0].steps[1].batch, 3);
    EXPECT_EQ(seg.ranks[0].steps[1].phase, StepPhase::Decode);
}

}  // namespace
}  // namespace tpscope::test
