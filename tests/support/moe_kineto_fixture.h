// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A hand-written PyTorch profiler (Kineto) trace of one gpt-oss-20b decode step at TP 1, batch 1, the
// way vLLM runs it eagerly with record_shapes=True, but with no model name anywhere: per layer the QKV,
// O-proj and router GEMMs as aten::mm with Input Dims, flash decode attention, and the MXFP4 expert
// GEMMs as Triton matmul_ogs kernels launched by a custom op with no shapes (as their Triton launches
// are); the LM head GEMM last. Dimensions from gpt-oss-20b's config.json as the catalog cites them:
// hidden 2880, 64 heads and 8 kv heads of 64, 32 experts, top-4, expert width 2880, 24 layers, vocab
// 201088. Synthetic: a test input, not a measurement.

#include <string>

namespace tpscope::test {

inline std::string gptOss20bKinetoJson(int layers = 24) {
    std::string events;
    int id = 0;
    double ts = 100;
    const auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
    // A CPU op (optionally with shapes) and the kernel it launches, linked by the External id.
    const auto launch = [&](const std::string& op, const std::string& dims, const std::string& kernel) {
        ++id;
        const std::string sid = std::to_string(id);
        std::string args = R"("External id": )" + sid;
        if (!dims.empty())
            args += R"(, "Input Dims": )" + dims + R"(, "Input type": ["c10::BFloat16", "c10::BFloat16"])";
        add(R"({"ph": "X", "cat": "cpu_op", "name": ")" + op + R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts) +
            R"(, "dur": 4, "args": {)" + args + "}}");
        add(R"({"ph": "X", "cat": "kernel", "name": ")" + kernel + R"(", "pid": 0, "tid": 7, "ts": )" +
            std::to_string(ts + 10) + R"(, "dur": 6, "args": {"device": 0, "stream": 7, "correlation": )" + sid +
            R"(, "External id": )" + sid + "}}");
        ts += 8;
    };
    const std::string gemm = "nvjet_tst_64x8_64x16_4x1_v_bz_TNN";
    add(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 50, "dur": )" +
        std::to_string(100 * layers + 200) + "}");
    launch("aten::embedding", "",
           "void at::native::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, 2, -2>");
    for (int l = 0; l < layers; ++l) {
        launch("vllm::rms_norm", "", "void vllm::rms_norm_kernel<c10::BFloat16>");
        launch("aten::mm", "[[1, 2880], [2880, 5120]]", gemm);  // QKV: (64 + 2 x 8) x 64
        launch("vllm::rotary_embedding", "", "void vllm::rotary_embedding_kernel<c10::BFloat16, true>");
        launch("vllm::unified_attention", "", "flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<64, 64, 128, 4>>");
        launch("aten::mm", "[[1, 4096], [4096, 2880]]", gemm);  // O-proj
        launch("vllm::fused_add_rms_norm", "", "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>");
        launch("aten::mm", "[[1, 2880], [2880, 32]]", gemm);  // router
        launch("vllm::moe_forward", "", "_topk_forward");
        launch("vllm::moe_forward", "", "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1_swiglu");
        launch("vllm::moe_forward", "", "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1");
    }
    launch("vllm::fused_add_rms_norm", "", "void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>");
    launch("aten::mm", "[[1, 2880], [2880, 201088]]", gemm);  // LM head
    return R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}], "traceEvents": [)" +
           events + "]}";
}

}  // namespace tpscope::test
