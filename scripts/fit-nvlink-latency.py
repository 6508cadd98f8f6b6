#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Check the NVLink presets' NCCL all-reduce and fit their custom all-reduce kernels (issue 26 §3).

Input: resources/fabrics.json and the kernel-level rows in resources/calibration:
a100-sxm4-nvlink3.csv, h100-sxm-nvlink4.csv (NCCL) and h100-sxm-custom-allreduce.csv (vLLM's
one-shot / two-shot kernels under CUDA graphs). Python stdlib only.

NCCL (core/sim/collective_model.cpp, one node, n GPUs, S bytes per rank): the cheapest ring protocol,
  base + 2(n-1) step + S 2(n-1)/n / (busbw x fraction), with the preset's numbers as shipped.
  A row measured with one host thread launching kernels on g GPUs (nccl-tests -g g) starts its
  kernels one launch apart (NVIDIA/nccl-tests#333): measured = model + (g - 1) x launch interval.
  The interval is a property of that host, not of the fabric: it is the one number fitted per file.
custom kernels, fitted (base latency and bandwidth; 0.6 us per flag barrier):
  one_shot: base + 2 x 0.6 us + (n-1) S / bw;  two_shot: base + 3 x 0.6 us + S 2(n-1)/n / bw.
Objective: mean squared log(predicted / measured) over rows of at least 32 KiB, Nelder-Mead.
Prints every row's error and a markdown band table (docs/PERFORMANCE.md); the presets carry the
rounded custom-kernel fit and tests/core/sim/calibration_test.cpp recomputes every error.

Usage: scripts/fit-nvlink-latency.py [repository root]
"""
import json
import math
import os
import sys

MIN_BYTES = 32 * 1024


def load(path):
    header, rows = None, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cells = line.split(",")
            if header is None:
                header = cells
                continue
            row = dict(zip(header, cells))
            rows.append(row)
    return rows


def nccl_ns(n, size, fabric):
    """The preset's NCCL ring time: the cheapest protocol (its algorithm_params ring busbw if any)."""
    wire, steps = 2.0 * (n - 1) / n, 2 * (n - 1)
    busbw = fabric.get("algorithm_params", {}).get("ring", {}).get("busbw_bytes_per_sec", fabric["busbw_bytes_per_sec"])
    return min(p["base_latency_ns"] + steps * p["hop_latency_ns"] + size * wire / (busbw * p["bandwidth_fraction"]) * 1e9
               for p in fabric["protocols"].values() if p["bandwidth_fraction"] > 0)


def custom_ns(algo, n, size, base, bw, hop=600.0):
    if algo == "one_shot":
        return base + 2 * hop + (n - 1) * size / bw * 1e9
    return base + 3 * hop + 2.0 * (n - 1) / n * size / bw * 1e9


def nelder_mead(f, x0, step=0.3, iters=5000):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (step if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        if vals[-1] - vals[0] < 1e-12:
            break
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        xr = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
    best = min(range(n + 1), key=lambda i: vals[i])
    return pts[best]


def fit(f, x0):
    x = x0
    for _ in range(4):  # restarts
        x = nelder_mead(f, x)
    return x


def check_nccl(name, path, fabric):
    """The preset as shipped against a file's rows; only the file's launch interval is fitted."""
    rows = [r for r in load(path) if int(r["bytes"]) >= MIN_BYTES]

    def predict(x, r):
        launch = math.exp(x[0])
        return (nccl_ns(int(r["gpus"]), int(r["bytes"]), fabric) + (int(r["gpus_per_thread"]) - 1) * launch) / 1e3

    def objective(x):
        return sum(math.log(predict(x, r) / float(r["time_us"])) ** 2 for r in rows) / len(rows)

    x = fit(objective, [math.log(4000.0)])
    print(f"{name}: launch interval of the one-thread rows {math.exp(x[0]):.0f} ns "
          f"({os.path.basename(path)}, {len(rows)} rows >= 32 KiB)")
    worst = 0.0
    for r in rows:
        pred = predict(x, r)
        err = pred / float(r["time_us"]) - 1
        worst = max(worst, abs(err))
        print(f"  {r['gpus']} GPUs {int(r['bytes']):>11} B  measured {float(r['time_us']):8.2f} us  "
              f"predicted {pred:8.2f} us  {err * 100:+6.1f} %  {r.get('source', '')}")
    print(f"  worst |error| {worst * 100:.1f} %, rms log error {math.sqrt(objective(x)) * 100:.1f} %")
    print_bands(name, [(r, predict(x, r) / float(r["time_us"]) - 1) for r in rows])


BANDS = [("32 - 256 KiB", 32 * 1024, 256 * 1024), ("256 KiB - 2 MiB", 256 * 1024 + 1, 2 << 20),
         ("2 - 16 MiB", (2 << 20) + 1, 16 << 20), ("> 16 MiB", (16 << 20) + 1, 1 << 62)]


def print_bands(name, errors):
    """Markdown rows: preset, source, GPUs, then per band 'worst / median |error| (rows)'."""
    keys = sorted({(r.get("source", ""), int(r["gpus"])) for r, _ in errors}, key=lambda k: (k[1], k[0]))
    for source, gpus in keys:
        cells = []
        for _, lo, hi in BANDS:
            e = sorted(abs(err) for r, err in errors
                       if r.get("source", "") == source and int(r["gpus"]) == gpus and lo <= int(r["bytes"]) <= hi)
            cells.append(f"{e[-1] * 100:.1f} / {e[len(e) // 2] * 100:.1f} ({len(e)})" if e else "-")
        print(f"| `{name}` | {source or 'g8'} | {gpus} | " + " | ".join(cells) + " |")


def fit_custom(path):
    rows = load(path)
    for algo in ("one_shot", "two_shot"):
        sel = [r for r in rows if r["algorithm"] == algo]

        def objective(x, sel=sel, algo=algo):
            base, bw = math.exp(x[0]), math.exp(x[1])
            return sum(math.log(custom_ns(algo, int(r["gpus"]), int(r["bytes"]), base, bw) / 1e3 / float(r["time_us"])) ** 2
                       for r in sel)

        base, bw = (math.exp(v) for v in fit(objective, [math.log(3000.0), math.log(362e9)]))
        worst = max(abs(custom_ns(algo, int(r["gpus"]), int(r["bytes"]), base, bw) / 1e3 / float(r["time_us"]) - 1)
                    for r in sel)
        print(f"nvlink4 {algo}: base {base:.0f} ns, bandwidth {bw / 1e9:.0f} GB/s "
              f"({len(sel)} rows, worst |error| {worst * 100:.1f} %)")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    cal = os.path.join(root, "resources", "calibration")
    with open(os.path.join(root, "resources", "fabrics.json")) as f:
        fabrics = {fab["id"]: fab for fab in json.load(f)["fabrics"]}
    check_nccl("nvlink3", os.path.join(cal, "a100-sxm4-nvlink3.csv"), fabrics["nvlink3"])
    check_nccl("nvlink4", os.path.join(cal, "h100-sxm-nvlink4.csv"), fabrics["nvlink4"])
    fit_custom(os.path.join(cal, "h100-sxm-custom-allreduce.csv"))


if __name__ == "__main__":
    main()
