// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Kernel classification by name (resources/kernel_rules.json). Names are taken verbatim from the
// public traces in shared/traces/public (Kineto dumps of A100/V100/H100 runs) and from the kernel
// symbols of NCCL, vLLM, TensorRT-LLM and PyTorch symmetric memory.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "core/trace/kernel_classifier.h"

namespace tpscope::core {
namespace {

EventKind kindOf(std::string_view name) {
    return KernelClassifier::builtin().classify(name).kind;
}
CollectivePayload collectiveOf(std::string_view name) {
    return KernelClassifier::builtin().classify(name).collective;
}

TEST(KernelClassifier, BuiltinRulesAreEveryRuleOfTheResourceFile) {
    // Counted here with simdjson from resources/kernel_rules.json, independently of the loader.
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.load(std::string(TPSCOPE_SOURCE_DIR) + "/resources/kernel_rules.json").get(root),
              simdjson::SUCCESS);
    simdjson::dom::array rules;
    ASSERT_EQ(root["rules"].get_array().get(rules), simdjson::SUCCESS);
    EXPECT_EQ(KernelClassifier::builtin().ruleCount(), rules.size());
    simdjson::dom::array opRules;
    ASSERT_EQ(root["cpu_op_rules"].get_array().get(opRules), simdjson::SUCCESS);
    EXPECT_EQ(KernelClassifier::builtin().cpuOpRuleCount(), opRules.size());
    // The first rule wins first: a name with its first prefix gets its kind.
    std::string_view kind, prefix;
    ASSERT_EQ(rules.at(0)["kind"].get_string().get(kind), simdjson::SUCCESS);
    ASSERT_EQ(rules.at(0)["prefix"].at(0).get_string().get(prefix), simdjson::SUCCESS);
    EXPECT_EQ(toString(kindOf(std::string(prefix) + "Anything")), kind);
}

TEST(KernelClassifier, OldNcclNamingIsCollectiveWithOpAlgoProtoDtype) {
    // param-dlrm and HTA traces (NCCL 2.1x): ncclKernel_<Op>_<ALGO>_<PROTO>_<redop>_<type>(signature)
    const auto c = KernelClassifier::builtin().classify("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)");
    EXPECT_EQ(c.kind, EventKind::Collective);
    EXPECT_EQ(c.collective.op, CollectiveOp::AllReduce);
    EXPECT_EQ(c.collective.algo, CollectiveAlgo::Ring);
    EXPECT_EQ(c.collective.proto, CollectiveProto::LL);
    EXPECT_EQ(c.collective.dtype, Dtype::Fp32);

    const auto sr = collectiveOf("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)");
    EXPECT_EQ(sr.op, CollectiveOp::SendRecv);
    EXPECT_EQ(sr.proto, CollectiveProto::Simple);
    EXPECT_EQ(sr.dtype, Dtype::Int8);

    const auto bc = collectiveOf("ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)");
    EXPECT_EQ(bc.op, CollectiveOp::Broadcast);
}

TEST(KernelClassifier, OldNcclBfloat16TypeNameIsDecoded) {
    // NCCL < 2.19 spells the type of bf16 kernels as __nv_bfloat16.
    const auto c = collectiveOf("ncclKernel_AllReduce_TREE_LL128_Sum___nv_bfloat16(ncclWorkElem)");
    EXPECT_EQ(c.op, CollectiveOp::AllReduce);
    EXPECT_EQ(c.algo, CollectiveAlgo::Tree);
    EXPECT_EQ(c.proto, CollectiveProto::LL128);
    EXPECT_EQ(c.dtype, Dtype::Bf16);
}

TEST(KernelClassifier, NewNcclNamingIsCollectiveWithOpAlgoProtoDtype) {
    // NCCL >= 2.19: ncclDevKernel_<Op>_<redop>_<type>_<ALGO>_<PROTO>
    const auto c = KernelClassifier::builtin().classify("ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    EXPECT_EQ(c.kind, EventKind::Collective);
    EXPECT_EQ(c.collective.op, CollectiveOp::AllReduce);
    EXPECT_EQ(c.collective.algo, CollectiveAlgo::Ring);
    EXPECT_EQ(c.collective.proto, CollectiveProto::LL);
    EXPECT_EQ(c.collective.dtype, Dtype::Fp16);

    const auto rs = collectiveOf("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL128");
    EXPECT_EQ(rs.op, CollectiveOp::ReduceScatter);
    EXPECT_EQ(rs.proto, CollectiveProto::LL128);
    EXPECT_EQ(rs.dtype, Dtype::Bf16);

    EXPECT_EQ(collectiveOf("ncclDevKernel_AllGather_RING_LL").op, CollectiveOp::AllGather);
    EXPECT_EQ(collectiveOf("ncclDevKernel_AllReduce_Sum_bf16_NVLS_SIMPLE").algo, CollectiveAlgo::Nvls);
}

TEST(KernelClassifier, NvlsTreeIsOneAlgorithmNotNvls) {
    EXPECT_EQ(collectiveOf("ncclDevKernel_AllReduce_Sum_f32_NVLS_TREE_SIMPLE").algo, CollectiveAlgo::NvlsTree);
    EXPECT_EQ(collectiveOf("ncclDevKernel_AllReduce_Sum_f32_NVLSTREE_SIMPLE").algo, CollectiveAlgo::NvlsTree);
}

TEST(KernelClassifier, NcclGenericKernelIsCollectiveWithUnknownOp) {
    // Many algorithm/protocol pairs run in one generic kernel; the name says nothing about the op.
    for (const char* name : {"ncclDevKernel_Generic", "ncclDevKernel_Generic_4", "ncclDevKernel_SendRecv"}) {
        EXPECT_EQ(kindOf(name), EventKind::Collective) << name;
    }
    EXPECT_EQ(collectiveOf("ncclDevKernel_Generic").op, CollectiveOp::Unknown);
    EXPECT_EQ(collectiveOf("ncclDevKernel_Generic_4").algo, CollectiveAlgo::Unknown);
}

TEST(KernelClassifier, VllmCustomAllReduceIsAllReduceWithItsAlgorithm) {
    const auto one = KernelClassifier::builtin().classify(
        "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, "
        "__nv_bfloat16*, int, int)");
    EXPECT_EQ(one.kind, EventKind::Collective);
    EXPECT_EQ(one.collective.op, CollectiveOp::AllReduce);
    EXPECT_EQ(one.collective.algo, CollectiveAlgo::OneShot);
    const auto two = collectiveOf(
        "void vllm::cross_device_reduce_2stage<half, 4>(vllm::RankData*, vllm::RankSignals, "
        "vllm::Signal*, half*, int, int)");
    EXPECT_EQ(two.op, CollectiveOp::AllReduce);
    EXPECT_EQ(two.algo, CollectiveAlgo::TwoShot);
}

TEST(KernelClassifier, TensorRtLlmCustomAllReduceIsAllReduce) {
    const auto one = KernelClassifier::builtin().classify(
        "void tensorrt_llm::kernels::oneShotAllReduceKernel<__nv_bfloat16, 8, "
        "false>(tensorrt_llm::kernels::AllReduceParams)");
    EXPECT_EQ(one.kind, EventKind::Collective);
    EXPECT_EQ(one.collective.op, CollectiveOp::AllReduce);
    EXPECT_EQ(one.collective.algo, CollectiveAlgo::OneShot);
    const auto two = collectiveOf(
        "void tensorrt_llm::kernels::twoShotAllReduceKernel<half, 4, true>(tensorrt_llm::kernels::AllReduceParams)");
    EXPECT_EQ(two.op, CollectiveOp::AllReduce);
    EXPECT_EQ(two.algo, CollectiveAlgo::TwoShot);
    const auto fused = KernelClassifier::builtin().classify(
        "void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<__nv_bfloat16, 8>()");
    EXPECT_EQ(fused.kind, EventKind::Collective);
    EXPECT_EQ(fused.collective.op, CollectiveOp::AllReduce);
}

TEST(KernelClassifier, PyTorchSymmetricMemoryAllReduceIsAllReduce) {
    for (const char* name :
         {"void c10d::symmetric_memory::multimem_all_reduce_kernel<c10::BFloat16, 16, 8>(c10::BFloat16*, unsigned "
          "long)",
          "void c10d::symmetric_memory::one_shot_all_reduce_kernel<float, 16, 4>(float**, float*, unsigned long)",
          "void c10d::symmetric_memory::two_shot_all_reduce_kernel_inplace<c10::BFloat16, 16, 8>()"}) {
        const auto c = KernelClassifier::builtin().classify(name);
        EXPECT_EQ(c.kind, EventKind::Collective) << name;
        // "reduce" alone would parse as the Reduce op; the rule pins the op.
        EXPECT_EQ(c.collective.op, CollectiveOp::AllReduce) << name;
    }
}

TEST(KernelClassifier, HopperAndAmpereGemmNamesAreGemm) {
    // tracelens-h100-qwen (H100, cuBLAS 12), HTA traces (A100/V100). A name split at the column limit
    // is parenthesised: one name, not a missing comma.
    for (const char* name :
         {("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
           "kernel__5x_cublas"),
          "nvjet_tst_128x64_64x4_1x2_h_bz_coopA_NNT", "nvjet_hsh_64x8_64x16_4x1_v_bz_splitK_TNT",
          "volta_sgemm_128x32_nt", "ampere_sgemm_128x64_nn", "cutlass_80_simt_sgemm_128x64_8x5_tn_align1",
          ("void cutlass::Kernel<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(cutlass_80_wmma_"
           "tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)"),
          "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize160x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
          "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn",
          "void gemmSN_TN_kernel<float, 128, 16, 2, 4>()", "void gemmk1_kernel<int, float, 256, 5, false, false>()"}) {
        EXPECT_EQ(kindOf(name), EventKind::Gemm) << name;
    }
}

TEST(KernelClassifier, CublasGemvAndSplitKReduceAreGemm) {
    // Decode at batch 1 runs matrix-vector products: cuBLAS picks gemv kernels, and split-K GEMMs
    // finish with a reduction kernel that is part of the GEMM, not an elementwise op.
    for (const char* name : {"void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false>()",
                             "void gemvNSP_kernel<float, float, float, float, 1, 32, 4, 1024>()",
                             "void gemv2N_kernel<int, int, float, float, float, float, 128, 8, 4, 4, false>()",
                             "void splitKreduce_kernel<32, 16, int, float, float, float, float, true, false>()",
                             "void cublasLt::splitKreduce_kernel<32, 16, int, __half, __half, float, __half>()"}) {
        EXPECT_EQ(kindOf(name), EventKind::Gemm) << name;
    }
}

TEST(KernelClassifier, FbgemmKernelsAreNotGemm) {
    // fbgemm_gpu is an embedding/sparse library (param-dlrm trace), despite "gemm" in its name.
    for (const char* name : {"void fbgemm_gpu::permute_2D_lengths_kernel<int>(int, int, int const*, int*)",
                             "void fbgemm_gpu::permute_indices_weights_kernel<false, int, float>()",
                             "void fbgemm_gpu::(anonymous namespace)::_compute_FP8_quantize_cuda_kernel<float>()"}) {
        EXPECT_NE(kindOf(name), EventKind::Gemm) << name;
    }
}

TEST(KernelClassifier, FlashAndPagedAttentionAreAttention) {
    // The first name is parenthesised: one name split at the column limit, not a missing comma.
    for (const char* name :
         {("void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, "
           "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, "
           "true, false, false, false, true, false>(pytorch_flash::Flash_fwd_params)"),
          "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4>, true>(Flash_fwd_params)",
          "void flash::FlashAttnFwdSm90<cutlass::bfloat16_t>(Params)",
          "void vllm::paged_attention_v2_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128>()",
          "void flashinfer::BatchDecodeWithPagedKVCacheKernel<true, 2, 4, 8>()",
          "fmha_cutlassF_bf16_aligned_64x128_rf_sm80",
          "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0"}) {
        EXPECT_EQ(kindOf(name), EventKind::Attention) << name;
    }
}

TEST(KernelClassifier, NormsActivationsAndCopiesAreElementwise) {
    for (const char* name :
         {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
          "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
          "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
          "float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, "
          "float, float>, unsigned int, float, 4>)",
          "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>()",
          "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
          "void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, true>()",
          "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::"
          "OpaqueType<2u>, unsigned int, 4, 64, 64>()",
          "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false, false>()"}) {
        EXPECT_EQ(kindOf(name), EventKind::Elementwise) << name;
    }
}

TEST(KernelClassifier, ProfilerMemcpyAndMemsetRecordsAreClassifiedByName) {
    // Kineto and nsys name copy/set activities this way; importers may pass them through classify().
    EXPECT_EQ(kindOf("Memcpy HtoD (Pageable -> Device)"), EventKind::Memcpy);
    EXPECT_EQ(kindOf("Memcpy DtoD (Device -> Device)"), EventKind::Memcpy);
    EXPECT_EQ(kindOf("Memset (Device)"), EventKind::Memset);
    EXPECT_EQ(kindOf("[CUDA memcpy Device-to-Device]"), EventKind::Memcpy);
    EXPECT_EQ(kindOf("[CUDA memset]"), EventKind::Memset);
}

TEST(KernelClassifier, UnknownKernelsAreOther) {
    // (cuDNN batch norm and CloverLeaf's par_ranged2d_kernel used to be here: issue 27 classes them.)
    EXPECT_EQ(kindOf("void hydro::advect_cells<double>(double*, int)"), EventKind::Other);
    EXPECT_EQ(kindOf("my_vendor_kernel_a"), EventKind::Other);
    EXPECT_EQ(kindOf(""), EventKind::Other);
}

TEST(KernelClassifier, UserRulesTakePrecedenceOverBuiltins) {
    KernelClassifier c = KernelClassifier::builtin();
    // A custom all-reduce whose name the built-ins would call elementwise ("reduce_kernel").
    const std::string_view name = "void my_team::fused_allreduce_residual_norm_reduce_kernel<half>()";
    EXPECT_EQ(c.classify(name).kind, EventKind::Elementwise);
    const auto status = c.addRulesJson(
        R"({"rules": [{"kind": "collective", "contains": ["fused_allreduce_residual"], "op": "all_reduce",
                       "algo": "one_shot"}]})",
        "test rules");
    ASSERT_TRUE(status.ok()) << status.error().describe();
    const auto k = c.classify(name);
    EXPECT_EQ(k.kind, EventKind::Collective);
    EXPECT_EQ(k.collective.op, CollectiveOp::AllReduce);
    EXPECT_EQ(k.collective.algo, CollectiveAlgo::OneShot);
    // The built-ins still apply to everything else.
    EXPECT_EQ(c.classify("ncclDevKernel_AllReduce_Sum_f16_RING_LL").kind, EventKind::Collective);
    // And the program-wide built-in classifier is unchanged.
    EXPECT_EQ(KernelClassifier::builtin().classify(name).kind, EventKind::Elementwise);
}

TEST(KernelClassifier, UserRuleCanReclassifyABuiltinMatch) {
    KernelClassifier c = KernelClassifier::builtin();
    ASSERT_TRUE(c.addRulesJson(R"({"rules": [{"kind": "other", "prefix": ["volta_sgemm"]}]})", "t").ok());
    EXPECT_EQ(c.classify("volta_sgemm_128x32_nt").kind, EventKind::Other);
}

TEST(KernelClassifier, UserRuleExceptListExcludesNames) {
    KernelClassifier c = KernelClassifier::builtin();
    ASSERT_TRUE(
        c.addRulesJson(R"({"rules": [{"kind": "attention", "contains": ["myattn"], "except": ["myattn_bwd"]}]})", "t")
            .ok());
    EXPECT_EQ(c.classify("myattn_fwd").kind, EventKind::Attention);
    EXPECT_EQ(c.classify("myattn_bwd").kind, EventKind::Other);
}

TEST(KernelClassifier, BadRuleFilesGiveOneClearError) {
    KernelClassifier c = KernelClassifier::builtin();
    const auto notJson = c.addRulesJson("{rules: nope", "mine.json");
    ASSERT_FALSE(notJson.ok());
    EXPECT_EQ(notJson.error().context, "mine.json");
    const auto badKind = c.addRulesJson(R"({"rules": [{"kind": "matmul", "contains": ["x"]}]})", "mine.json");
    ASSERT_FALSE(badKind.ok());
    EXPECT_NE(badKind.error().message.find("matmul"), std::string::npos);
    EXPECT_FALSE(c.addRulesJson(R"({"rules": [{"kind": "gemm"}]})", "mine.json").ok());
    EXPECT_FALSE(c.addRulesJson(R"({"nope": []})", "mine.json").ok());
    EXPECT_FALSE(c.addRulesFile("/nonexistent/kernel_rules.json").ok());
    // A failed add leaves the classifier as it was.
    EXPECT_EQ(c.ruleCount(), KernelClassifier::builtin().ruleCount());
}

TEST(KernelClassifier, NameFamiliesOfOtherVendorsAndGeneratorsAreClassed) {
    // ROCm hipBLASLt/Tensile, composable kernel, Triton (MoE GEMM, inductor templates and pointwise),
    // cuBLAS nvjet, vLLM Triton unified attention, PyTorch's generic kernels, cub sorts.
    EXPECT_EQ(kindOf("Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x16x1_SN_1LDSB0_AFC1_AG0"), EventKind::Gemm);
    EXPECT_EQ(kindOf("void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<> >"), EventKind::Gemm);
    EXPECT_EQ(kindOf("_matmul_ogs_NNT_bf16xbf16xmxfp4_128x256x128x1_swiglu"), EventKind::Gemm);
    EXPECT_EQ(kindOf("triton_tem_fused_mm_0"), EventKind::Gemm);
    EXPECT_EQ(kindOf("nvjet_tst_128x64_64x8_1x1_v_bz_TNN"), EventKind::Gemm);
    EXPECT_EQ(kindOf("kernel_unified_attention_2d"), EventKind::Attention);
    EXPECT_EQ(kindOf("void vllm::paged_attention_v1_kernel<__nv_bfloat16, 128, 16>"), EventKind::Attention);
    EXPECT_EQ(kindOf("void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16>"), EventKind::Attention);
    EXPECT_EQ(kindOf("triton_poi_fused_add_mul_0"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<> >"),
              EventKind::Elementwise);
    EXPECT_EQ(kindOf("void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::OpaqueType<2> >"),
              EventKind::Elementwise);
    EXPECT_EQ(kindOf("void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, float>"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<long, int, int> >"),
              EventKind::Elementwise);
    EXPECT_EQ(kindOf("void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 128, true, 1, true>"),
              EventKind::Elementwise);
    // fbgemm's embedding kernels are not GEMMs.
    EXPECT_NE(kindOf("void fbgemm_gpu::permute_2D_data_kernel<false, int, int>"), EventKind::Gemm);
}

TEST(KernelClassifier, RocmNameFamiliesAreClassed) {
    // Names as ROCm builds of PyTorch, vLLM, aiter, composable kernel and RCCL write them (issue 43 §1).
    EXPECT_EQ(kindOf("Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT32x32x256_MI16x16x1_SN_LDSB0_AFC1"),
              EventKind::Gemm);
    EXPECT_EQ(kindOf("void ck_tile::kentry<256, 1, ck_tile::GemmKernel<ck_tile::GemmTile1DPartitioner<> > >"),
              EventKind::Gemm);
    EXPECT_EQ(kindOf("void ck_tile::kentry<64, 2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVS<> > >"),
              EventKind::Attention);
    EXPECT_EQ(kindOf("void ck_tile::kentry<64, 1, ck_tile::Rmsnorm2dFwd<ck_tile::Rmsnorm2dFwdPipelineOnePass<> > >"),
              EventKind::Elementwise);
    EXPECT_EQ(kindOf("void aiter::add_rmsnorm_quant_kernel<__hip_bfloat16, 256, 8>"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, 128, 16>"), EventKind::Attention);
    EXPECT_EQ(kindOf("pa_fwd_kernel"), EventKind::Attention);
    EXPECT_EQ(kindOf("kernel_unified_attention_3d"), EventKind::Attention);
    EXPECT_EQ(kindOf("reduce_segments"), EventKind::Attention);
    EXPECT_EQ(kindOf("triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("triton_per_fused_add_mean_1"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1_swiglu"), EventKind::Gemm);
    EXPECT_EQ(kindOf("_topk_forward"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>"), EventKind::Gemm);
    EXPECT_EQ(kindOf("void fmoe_bf16_g1u1_subGU_256"), EventKind::Gemm);
    EXPECT_EQ(kindOf("void rocprim::detail::sort_keys_kernel<256>"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("__amd_rocclr_fillBufferAligned"), EventKind::Elementwise);
    EXPECT_EQ(kindOf("ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)"), EventKind::Collective);
    EXPECT_EQ(kindOf("mscclKernel_Sum_bf16_LL128(ncclDevComm*, mscclAlgo*, mscclWork*)"), EventKind::Collective);
    EXPECT_EQ(kindOf("void quickreduce::allreduce_prototype_twoshot<quickreduce::CodecQ4, false>"),
              EventKind::Collective);
    EXPECT_EQ(collectiveOf("void quickreduce::allreduce_prototype_twoshot<quickreduce::CodecQ4, false>").op,
              CollectiveOp::AllReduce);
}

TEST(KernelClassifier, CpuOpRulesClassGemmAttentionAndCollectiveOps) {
    const auto& c = KernelClassifier::builtin();
    for (const char* gemm : {"aten::mm", "aten::addmm", "aten::bmm", "aten::linear", "aten::_scaled_mm",
                             "_C::cutlass_scaled_mm", "_C::marlin_gemm"}) {
        EXPECT_EQ(c.classifyCpuOp(gemm), EventKind::Gemm) << gemm;
    }
    for (const char* attention : {"aten::_flash_attention_forward", "aten::_scaled_dot_product_efficient_attention",
                                  "vllm::unified_attention_with_output", "_C::paged_attention_v1"}) {
        EXPECT_EQ(c.classifyCpuOp(attention), EventKind::Attention) << attention;
    }
    for (const char* collective : {"c10d::allreduce_", "nccl:all_reduce", "record_param_comms", "vllm::all_reduce",
                                   "_C_custom_ar::all_reduce", "symm_mem::one_shot_all_reduce"}) {
        EXPECT_EQ(c.classifyCpuOp(collective), EventKind::Collective) << collective;
    }
    for (const char* none : {"aten::mul", "aten::copy_", "aten::add", "aten::mean"}) {
        EXPECT_EQ(c.classifyCpuOp(none), std::nullopt) << none;
    }
}

TEST(KernelClassWithOp, OpWinsExceptOverCollectiveAndCopyNames) {
    EXPECT_EQ(kernelClassWithOp(EventKind::Elementwise, EventKind::Gemm), EventKind::Gemm);
    EXPECT_EQ(kernelClassWithOp(EventKind::Other, EventKind::Attention), EventKind::Attention);
    EXPECT_EQ(kernelClassWithOp(EventKind::Collective, EventKind::Gemm), EventKind::Collective);
    EXPECT_EQ(kernelClassWithOp(EventKind::Memcpy, EventKind::Collective), EventKind::Memcpy);
    EXPECT_EQ(kernelClassWithOp(EventKind::Memset, EventKind::Gemm), EventKind::Memset);
}

TEST(ParseNcclKernelName, FieldsItCannotTellStayUnknown) {
    const auto p = parseNcclKernelName("ncclDevKernel_Generic_4");
    EXPECT_EQ(p.op, CollectiveOp::Unknown);
    EXPECT_EQ(p.algo, CollectiveAlgo::Unknown);
    EXPECT_EQ(p.proto, CollectiveProto::Unknown);
    EXPECT_EQ(p.dtype, Dtype::Unknown);
}

}  // namespace
}  // namespace tpscope::core
