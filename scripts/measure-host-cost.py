#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Host cost per op from the CPU side of Kineto / PyTorch-profiler traces (issue 26).

Input: one or more Kineto JSON files (.json or .json.gz). For each trace, on the thread that issues
the most launches:
  launch call      duration of cudaLaunchKernel / cudaLaunchKernelExC / cudaMemsetAsync / cudaMemcpyAsync
  host per launch  time from one launch call's start to the next (Python + dispatcher + the call);
                   the mean is what a host-bound step pays per kernel, the median a typical op
  device gap       idle time between consecutive GPU kernels whose launch ended before the previous
                   kernel ended (the GPU had the next kernel queued: the device's own gap)
  launch latency   kernel start - launch call start, for kernels launched while the GPU was idle
                   (launch started after the previous kernel's end)
  cpu_op           count and median duration of the top-level aten ops
Numbers are microseconds. The script only reads; its output is recorded in
resources/runtime_profiles.json and docs/simulator.md. Python 3 standard library only.
Usage: scripts/measure-host-cost.py TRACE... [--json]
"""
import collections
import gzip
import json
import statistics
import sys

LAUNCHES = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemsetAsync", "cudaMemcpyAsync", "cuLaunchKernel",
            "cudaGraphLaunch"}
GPU_CATS = {"kernel", "gpu_memset", "gpu_memcpy"}


def pct(xs, p):
    xs = sorted(xs)
    return xs[int(round(p * (len(xs) - 1)))] if xs else float("nan")


def summary(xs):
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "p10": round(pct(xs, 0.1), 3), "median": round(statistics.median(xs), 3),
            "mean": round(statistics.fmean(xs), 3), "p90": round(pct(xs, 0.9), 3)}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def measure(path):
    doc = load(path)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    gpu = ""
    if isinstance(doc, dict) and doc.get("deviceProperties"):
        gpu = doc["deviceProperties"][0].get("name", "")
    launches_by_thread = collections.defaultdict(list)
    kernels_by_stream = collections.defaultdict(list)
    cpu_ops = []
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        cat = e.get("cat", "")
        if cat == "cuda_runtime" and e.get("name") in LAUNCHES:
            launches_by_thread[(e.get("pid"), e.get("tid"))].append(e)
        elif cat in GPU_CATS:
            kernels_by_stream[(e.get("pid"), e.get("tid"))].append(e)
        elif cat == "cpu_op":
            cpu_ops.append(e)
    if not launches_by_thread or not kernels_by_stream:
        return {"trace": path, "gpu": gpu, "error": "no cuda_runtime launches or no GPU kernels"}
    thread = max(launches_by_thread, key=lambda k: len(launches_by_thread[k]))
    launches = sorted(launches_by_thread[thread], key=lambda e: e["ts"])
    by_corr = {e.get("args", {}).get("correlation"): e for e in launches}
    calls = collections.defaultdict(list)
    for e in launches:
        calls[e["name"]].append(e["dur"])
    host_per_launch = [b["ts"] - a["ts"] for a, b in zip(launches, launches[1:])]
    device_gap, latency = [], []
    for stream, ks in kernels_by_stream.items():
        ks.sort(key=lambda e: e["ts"])
        prev_end = None
        for k in ks:
            launch = by_corr.get(k.get("args", {}).get("correlation"))
            if prev_end is not None and launch is not None:
                if launch["ts"] + launch["dur"] <= prev_end:
                    device_gap.append(k["ts"] - prev_end)
                elif launch["ts"] >= prev_end:
                    latency.append(k["ts"] - launch["ts"])
            end = k["ts"] + k["dur"]
            prev_end = end if prev_end is None else max(prev_end, end)
    # Top-level cpu_ops only (not nested in another cpu_op of the same thread).
    top = []
    last_end = -1.0
    for e in sorted((e for e in cpu_ops if (e.get("pid"), e.get("tid")) == thread), key=lambda e: e["ts"]):
        if e["ts"] >= last_end:
            top.append(e)
            last_end = e["ts"] + e["dur"]
    kernels = sum(len(v) for v in kernels_by_stream.values())
    busy = sum(k["dur"] for v in kernels_by_stream.values() for k in v)
    span = launches[-1]["ts"] - launches[0]["ts"]
    return {
        "trace": path,
        "gpu": gpu,
        "launch_thread": str(thread),
        "launches": len(launches),
        "gpu_events": kernels,
        "gpu_busy_us": round(busy, 1),
        "launch_span_us": round(span, 1),
        "launch_calls": {name: summary(d) for name, d in sorted(calls.items())},
        "host_per_launch_us": summary(host_per_launch),
        "device_gap_us": summary([g for g in device_gap if g >= 0]),
        "launch_latency_us": summary(latency),
        "top_level_cpu_ops": summary([e["dur"] for e in top]),
        "top_level_cpu_ops_per_launch": round(len(top) / len(launches), 3),
    }


def main(argv):
    paths = [a for a in argv if a != "--json"]
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    results = [measure(p) for p in paths]
    if "--json" in argv:
        json.dump(results, sys.stdout, indent=1)
        print()
        return 0
    for r in results:
        print(r["trace"])
        if "error" in r:
            print("  " + r["error"])
            continue
        print(f"  gpu {r['gpu'] or '?'}; {r['launches']} launches on thread {r['launch_thread']}, "
              f"{r['gpu_events']} GPU events, busy {r['gpu_busy_us']} us over a launch span of {r['launch_span_us']} us")
        for name, s in r["launch_calls"].items():
            print(f"  {name:22s} {s}")
        for key in ("host_per_launch_us", "device_gap_us", "launch_latency_us", "top_level_cpu_ops"):
            print(f"  {key:22s} {r[key]}")
        print(f"  top-level cpu_ops per launch {r['top_level_cpu_ops_per_launch']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
