#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Writes a synthetic multi-rank PyTorch-profiler (Kineto) trace of tensor-parallel decode, for the
import and analysis benchmarks (docs/PERFORMANCE.md) and for trying tpscope on a big trace.

Every file says it is synthetic (traceName "tpscope synthetic"), so nothing generated here can pass
as a measurement.

Layout per rank (one file each, rank-<r>.json): a CPU thread with ProfilerStep#N annotations; per
layer the ops of a Megatron TP block (QKV GEMM, attention, output GEMM, all-reduce, norm, gate/up
GEMM, activation, down GEMM, all-reduce), each a cpu_op with its cudaLaunchKernel runtime call, the
ac2g flow pair and the kernel on the compute stream (7); all-reduces as record_param_comms with
PyTorch's collective args and an NCCL kernel on the communication stream (21). One rank (--late-rank)
finishes its compute --late-us later before every all-reduce, so the others' NCCL kernels wait for
it: the sync wait the analysis splits from the transfer. Durations get +-5 % seeded jitter.

  scripts/gen-kineto-trace.py --out DIR [--ranks 8] [--target-mb 400] [--layers 32] [--seed 1]
The files are written whole steps at a time until the ranks together reach --target-mb.
"""
import argparse
import json
import os
import random
import sys

COMPUTE_STREAM, COMM_STREAM = 7, 21
# (kind, kernel name, cpu op, mean GPU us at TP 8 decode of a 70B-class layer)
LAYER_OPS = [
    ("gemm", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x32x64_cublas", "aten::mm", 22.0),
    ("attention", "flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, bf16>>", "aten::_flash_attention_forward", 14.0),
    ("gemm", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x32x64_cublas", "aten::mm", 16.0),
    ("allreduce", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "record_param_comms", 12.0),
    ("norm", "void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int, int)", "aten::rms_norm", 3.0),
    ("gemm", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_cublas", "aten::mm", 48.0),
    ("activation", "void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>>(c10::BFloat16*, c10::BFloat16 const*, int)", "aten::silu", 3.0),
    ("gemm", "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x32x64_cublas", "aten::mm", 26.0),
    ("allreduce", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "record_param_comms", 12.0),
]
HIDDEN, LAUNCH_US, HOST_AHEAD_US = 8192, 4.0, 60.0


class RankWriter:
    """Streams one rank's events as JSON, counting the bytes written."""

    def __init__(self, path, rank, ranks):
        self.f = open(path, "w", encoding="ascii")
        self.bytes = 0
        self.first = True
        self.pid, self.tid = 1000 + rank, 1000 + rank
        head = {"schemaVersion": 1, "traceName": "tpscope synthetic (scripts/gen-kineto-trace.py)",
                "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": ranks},
                "deviceProperties": [{"id": rank, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85045477376,
                                      "computeMajor": 9, "computeMinor": 0}]}
        text = json.dumps(head)[:-1] + ', "traceEvents": [\n'
        self.f.write(text)
        self.bytes += len(text)

    def event(self, e):
        text = ("" if self.first else ",\n") + json.dumps(e, separators=(",", ":"))
        self.first = False
        self.f.write(text)
        self.bytes += len(text)

    def close(self):
        self.f.write("\n]}\n")
        self.f.close()


def emit_op(w, rank, kind, kernel, cpu_op, host_us, gpu_start, gpu_end, corr, extra_args):
    """One op: cpu_op > cudaLaunchKernel on the CPU thread, its flow, its kernel on the GPU."""
    stream = COMM_STREAM if kind == "allreduce" else COMPUTE_STREAM
    w.event({"ph": "X", "cat": "cpu_op", "name": cpu_op, "pid": w.pid, "tid": w.tid, "ts": round(host_us, 3),
             "dur": LAUNCH_US + 2.0, "args": dict({"External id": corr}, **extra_args)})
    if kind == "allreduce":
        w.event({"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": w.pid, "tid": w.tid,
                 "ts": round(host_us + 0.5, 3), "dur": LAUNCH_US + 1.0, "args": {"External id": corr}})
    launch = host_us + 1.0
    w.event({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": w.pid, "tid": w.tid,
             "ts": round(launch, 3), "dur": LAUNCH_US, "args": {"External id": corr, "correlation": corr, "cbid": 211}})
    w.event({"ph": "s", "id": corr, "pid": w.pid, "tid": w.tid, "ts": round(launch, 3), "cat": "ac2g", "name": "ac2g"})
    args = dict({"External id": corr, "device": rank, "stream": stream, "correlation": corr}, **extra_args)
    w.event({"ph": "X", "cat": "kernel", "name": kernel, "pid": rank, "tid": stream, "ts": round(gpu_start, 3),
             "dur": round(gpu_end - gpu_start, 3), "args": args})
    w.event({"ph": "f", "id": corr, "pid": rank, "tid": stream, "ts": round(gpu_start, 3), "cat": "ac2g",
             "name": "ac2g", "bp": "e"})


def step_plan(rng, ranks, layers, late_rank, late_us):
    """GPU intervals of one step on every rank, relative to the step start: the late rank's compute
    before each all-reduce runs late_us longer, and every rank's all-reduce ends together."""
    clock = [0.0] * ranks
    ops = []  # per op: [(start, end) per rank]
    for _ in range(layers):
        for kind, _, _, mean in LAYER_OPS:
            spans = []
            if kind == "allreduce":
                transfer = mean * rng.uniform(0.95, 1.05)
                end = max(clock) + transfer
                spans = [(clock[r] + 0.5, end) for r in range(ranks)]
                clock = [end] * ranks
            else:
                for r in range(ranks):
                    d = mean * rng.uniform(0.95, 1.05) + (late_us if r == late_rank and kind == "gemm" else 0.0)
                    spans.append((clock[r] + 0.5, clock[r] + 0.5 + d))
                    clock[r] += 0.5 + d
            ops.append(spans)
    return ops, max(clock)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--ranks", type=int, default=8)
    p.add_argument("--target-mb", type=float, default=400.0)
    p.add_argument("--layers", type=int, default=32)
    p.add_argument("--late-rank", type=int, default=None, help="default: the last rank")
    p.add_argument("--late-us", type=float, default=6.0, help="extra compute of the late rank before each all-reduce")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if not 1 <= a.ranks <= 1024 or a.layers < 1 or a.target_mb <= 0:
        sys.exit("gen-kineto-trace: --ranks must be 1..1024, --layers >= 1 and --target-mb > 0")
    late_rank = a.ranks - 1 if a.late_rank is None else a.late_rank
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    writers = [RankWriter(os.path.join(a.out, "rank-%d.json" % r), r, a.ranks) for r in range(a.ranks)]
    target = a.target_mb * 1e6
    t0, corr, step = 1.7e15 / 1e3, 1, 0  # microseconds, like Kineto's
    nelems = HIDDEN  # batch 1 decode: one hidden vector per all-reduce
    comm_args = {"Collective name": "allreduce", "In msg nelems": nelems, "Out msg nelems": nelems,
                 "Group size": a.ranks, "dtype": "BFloat16", "Process Group Name": "0"}
    while sum(w.bytes for w in writers) < target:
        ops, length = step_plan(rng, a.ranks, a.layers, late_rank, a.late_us)
        gpu0 = t0 + HOST_AHEAD_US
        for r, w in enumerate(writers):
            w.event({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % step, "pid": w.pid,
                     "tid": w.tid, "ts": round(t0, 3), "dur": round(length + HOST_AHEAD_US, 3), "args": {}})
            host = t0 + 2.0
            for i, spans in enumerate(ops):
                kind, kernel, cpu_op, _ = LAYER_OPS[i % len(LAYER_OPS)]
                start, end = spans[r]
                # The host stays ahead of the GPU: it launches no earlier than 40 us before the kernel runs.
                host = max(host + LAUNCH_US + 2.5, gpu0 + start - 40.0)
                extra = comm_args if kind == "allreduce" else {}
                emit_op(w, r, kind, kernel, cpu_op, host, gpu0 + start, gpu0 + end, corr + i, extra)
        corr += len(ops)
        t0 += length + HOST_AHEAD_US + 20.0
        step += 1
    for w in writers:
        w.close()
    total = sum(os.path.getsize(os.path.join(a.out, "rank-%d.json" % r)) for r in range(a.ranks))
    print("gen-kineto-trace: %d ranks, %d steps of %d layers, %.1f MB in %s" %
          (a.ranks, step, a.layers, total / 1e6, a.out))


if __name__ == "__main__":
    main()
