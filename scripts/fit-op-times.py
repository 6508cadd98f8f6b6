#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Fit the per-op decode kernel times of core/sim/op_time_fit to Vidur's measured per-op times (issue 44).

Input: Vidur's compute profiles, <traces>/vidur-compute-profiling/<gpu>/<org>/<model>/mlp.csv (microsoft/vidur
@ 7d475133, data/profiling/compute; columns in traces/public/SOURCES.md): the PyTorch-profiler GPU time of every
per-layer op of 6-8 models at TP 1, 2, 4, 8 and 1-4096 tokens, fp16, median of repeated runs, in ms.

The forms (each linear in its coefficients, so the fit is one weighted least-squares solve):
  dense GEMM   t = fixed + W x ns_per_weight_byte + min(W, R) x ns_per_ramp_byte + k x ns_per_reduction_element
                   + F x ns_per_flop + A x ns_per_activation_byte
               W = weight bytes of the rank's slice, k = the reduction depth, F = 2 m n k, A = m (k + n) x element
               bytes (m = tokens). A launch cost every kernel pays; the weight stream; its first R bytes stream
               slower (the ramp: a small slice has too few blocks in flight to reach the asymptotic bandwidth);
               the reduction depth k (a thin GEMM gives each block a strip of outputs and walks k: at one weight
               size a deep, narrow slice - QKV, gate/up - takes longer than a shallow, wide one - O, down - in
               every model, ~2 us at k = 8192 on H100); then the tensor-core work and the activations. Two
               coefficient sets: one token (m = 1, cuBLAS's GEMV-class kernels; F and A are then proportional to W
               and k and are not fitted) and 2-128 tokens (tensor-core GEMM kernels). R is one of 8-128 MiB
               (powers of two), the one whose leave-one-model-out error at 1-64 tokens is lowest (a
               cross-validated choice, never fitted to the rows it predicts). Fitted on 1-128 tokens (the decode
               batches; fitting to 512 tokens costs the 1-64-token rows 3-5 points of median error), weighted by
               1 / t^2 (least squares on the relative error, the goal's measure). Above 128 tokens the simulator
               takes the larger of this and the compute roofline (core/sim/kernel_model.cpp).
  row kernels  t = fixed + width x ns_per_width + m x width x element bytes x ns_per_byte
  (RMSNorm, SiLU*mul, RoPE, residual add)
               One thread block per token walks its row: below a GPU's worth of tokens the time is one block's
               pass over the row (grows with the width, not the tokens); the tokens x width term is the HBM
               traffic that takes over as tokens grow. Fitted on 1-128 tokens (the decode batches), unweighted
               (least squares on the absolute error, the goal's measure). The simulator never goes below
               the roofline with them (large batches stream their rows).
Row widths: norm and add = hidden; SiLU*mul = the rank's FFN width (output); RoPE = (heads + kv heads) x head
dim of the rank. The norm and activation fits use the gated-MLP (RMSNorm + SwiGLU) models only: phi-2 runs a
LayerNorm and a GELU, kernels tpscope's plan does not have.

Leave-one-model-out: for each GPU and op class, fit without one model, predict that model's rows; the median
and 90th percentile of |predicted / measured - 1| (GEMMs, by token band) or |predicted - measured| in us (row
kernels, 1-64 tokens) over all models in turn.

Usage: scripts/fit-op-times.py [TRACES_DIR] [--out resources/calibration/op_time_fit.json] [--table]
TRACES_DIR defaults to $TPSCOPE_PUBLIC_TRACES, else ../shared/traces/public beside the checkout.
--table prints the leave-one-model-out table (Markdown) recorded in docs/simulator.md. Standard library only.
"""
import csv
import glob
import hashlib
import json
import os
import sys

VIDUR_COMMIT = "7d47513363ec447a741ac5e47241580b47724fbf"
# Vidur's profiling folders -> tpscope's GPU presets (resources/gpus.json). Vidur's a100 / h100 profiles were
# taken on A100 80GB SXM4 and H100 80GB SXM5 (DGX-class) machines; the presets with those peaks are these.
GPUS = {"a100": "a100-sxm", "h100": "h100-sxm"}
GEMM_OPS = ("attn_pre_proj", "attn_post_proj", "mlp_up_proj", "mlp_down_proj")
ROW_CLASSES = ("norm", "act", "rope", "add")
ELEMENT_BYTES = 2  # fp16
GEMM_MAX_TOKENS = 128
ROW_MAX_TOKENS = 128
TOKEN_BANDS = ((1, 1), (2, 16), (17, 64), (65, 128))
MIB = 1 << 20
RAMP_CANDIDATES = tuple(b * MIB for b in (8, 16, 32, 64, 128))


def solve(a, b):
    """Gaussian elimination with partial pivoting (a is small and well conditioned after scaling)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[p] = m[p], m[i]
        for k in range(n):
            if k != i and m[i][i] != 0:
                f = m[k][i] / m[i][i]
                for j in range(i, n + 1):
                    m[k][j] -= f * m[i][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def least_squares(features, targets, weights):
    """Coefficients c minimising sum w (c . x - t)^2. Columns are scaled to unit mean first."""
    n = len(features[0])
    scale = [max(1e-30, sum(abs(x[j]) for x in features) / len(features)) for j in range(n)]
    xs = [[x[j] / scale[j] for j in range(n)] for x in features]
    a = [[sum(w * x[i] * x[j] for x, w in zip(xs, weights)) for j in range(n)] for i in range(n)]
    b = [sum(w * x[i] * t for x, t, w in zip(xs, targets, weights)) for i in range(n)]
    return [c / s for c, s in zip(solve(a, b), scale)]


def model_dims(row):
    hidden = int(row["n_embd"])
    heads = int(row["n_head"])
    kv_heads = int(row["n_kv_head"])
    ffn = int(row["n_expanded_embd"])
    tp = int(row["num_tensor_parallel_workers"])
    gated = row["use_gated_mlp"] == "True"
    head_dim = hidden // heads
    kv_per_rank = max(1, kv_heads // tp)  # kv heads replicated when tp exceeds them, as vLLM
    return hidden, heads, ffn, tp, gated, head_dim, kv_per_rank


def gemm_shapes(row):
    """(op, k, n) of the rank's four GEMMs: y[m x n] = x[m x k] W^T."""
    hidden, heads, ffn, tp, gated, head_dim, kv = model_dims(row)
    return (("attn_pre_proj", hidden, (heads // tp + 2 * kv) * head_dim),
            ("attn_post_proj", heads // tp * head_dim, hidden),
            ("mlp_up_proj", hidden, (2 if gated else 1) * ffn // tp),
            ("mlp_down_proj", ffn // tp, hidden))


def row_widths(row):
    """class -> [(op column, row width)] of the row kernels tpscope models."""
    hidden, heads, ffn, tp, gated, head_dim, kv = model_dims(row)
    out = {"rope": [("attn_rope", (heads // tp + kv) * head_dim)], "add": [("add", hidden)]}
    if gated:
        out["norm"] = [("input_layernorm", hidden), ("post_attention_layernorm", hidden)]
        out["act"] = [("mlp_act", ffn // tp)]
    return out


def gemm_features(m, k, n):
    """The raw shape; gemm_columns turns it into the form's columns once the ramp R is chosen."""
    return (m, k, n)


def gemm_columns(shape, ramp):
    """The GEMM form's columns: fixed, W, min(W, R), k, then F and A for 2+ tokens (at one token F = W and
    A = (k + n) x bytes are not separable from W and k)."""
    m, k, n = shape
    weight = float(ELEMENT_BYTES * k * n)
    columns = [1.0, weight, min(weight, float(ramp)), float(k)]
    return columns if m == 1 else columns + [2.0 * m * k * n, float(ELEMENT_BYTES * m * (k + n))]


def row_features(m, width):
    return [1.0, float(width), float(m * width * ELEMENT_BYTES)]


def load(folder):
    """Samples per op class: (model, tokens, features, measured ns); duplicate rows of one (tokens, tp) are
    averaged. Returns (samples, provenance files)."""
    samples = {c: [] for c in ("gemm",) + ROW_CLASSES}
    files = []
    for path in sorted(glob.glob(os.path.join(folder, "*", "*", "mlp.csv"))):
        model = os.path.basename(os.path.dirname(path))
        with open(path, "rb") as f:
            data = f.read()
        files.append({"file": os.path.relpath(path, os.path.dirname(os.path.dirname(folder))),
                      "sha256": hashlib.sha256(data).hexdigest()})
        groups = {}
        for row in csv.DictReader(data.decode().splitlines()):
            key = (int(row["num_tokens"]), int(row["num_tensor_parallel_workers"]))
            groups.setdefault(key, []).append(row)
        for (m, _tp), rows in sorted(groups.items()):
            def measured(op):
                column = "time_stats." + op + ".median"
                values = [float(r[column]) for r in rows if r.get(column)]
                return sum(values) / len(values) * 1e6 if values else None  # ms -> ns
            if m <= GEMM_MAX_TOKENS:
                for op, k, n in gemm_shapes(rows[0]):
                    t = measured(op)
                    if t:
                        samples["gemm"].append((model, m, gemm_features(m, k, n), t))
            if m <= ROW_MAX_TOKENS:
                for cls, ops in row_widths(rows[0]).items():
                    for op, width in ops:
                        t = measured(op)
                        if t:
                            samples[cls].append((model, m, row_features(m, width), t))
    return samples, files


def fit(cls, samples):
    """Least squares with every slope >= 0 (a time never falls as a kernel gets bigger): a slope that comes
    out negative is dropped (held at 0) and the rest refitted."""
    weights = [1.0 / (s[3] * s[3]) for s in samples] if cls == "gemm" else [1.0] * len(samples)
    targets = [s[3] for s in samples]
    kept = list(range(len(samples[0][2])))
    while True:
        c = least_squares([[s[2][j] for j in kept] for s in samples], targets, weights)
        negative = [j for j, v in zip(kept, c) if v < 0 and j != 0]
        if not negative:
            full = [0.0] * len(samples[0][2])
            for j, v in zip(kept, c):
                full[j] = v
            return full
        kept.remove(min(negative, key=lambda j: c[kept.index(j)]))


def predict(coefficients, features):
    return sum(c * x for c, x in zip(coefficients, features))


def percentile(values, q):
    v = sorted(values)
    pos = q * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def fit_gemm(samples, ramp):
    """The two GEMM coefficient sets (one token; 2+ tokens) for ramp R: {"gemv": [...], "gemm": [...]}."""
    out = {}
    for name, one_token in (("gemv", True), ("gemm", False)):
        rows = [(s[0], s[1], gemm_columns(s[2], ramp), s[3]) for s in samples if (s[1] == 1) == one_token]
        out[name] = fit("gemm", rows)
    return out


def predict_gemm(fits, shape, ramp):
    return predict(fits["gemv" if shape[0] == 1 else "gemm"], gemm_columns(shape, ramp))


def fit_class(cls, samples, ramp=None):
    return fit_gemm(samples, ramp) if cls == "gemm" else fit(cls, samples)


def predict_class(cls, c, features, ramp=None):
    return predict_gemm(c, features, ramp) if cls == "gemm" else predict(c, features)


def leave_one_model_out(cls, samples, ramp=None):
    """Errors of each held-out model's rows: relative for GEMMs (per token band), absolute us for row kernels."""
    errors = {}
    models = sorted({s[0] for s in samples})
    for held in models:
        c = fit_class(cls, [s for s in samples if s[0] != held], ramp)
        for s in samples:
            if s[0] != held:
                continue
            p = predict_class(cls, c, s[2], ramp)
            if cls == "gemm":
                for lo, hi in TOKEN_BANDS:
                    if lo <= s[1] <= hi:
                        errors.setdefault("%d-%d" % (lo, hi), []).append(abs(p / s[3] - 1))
            elif s[1] <= 64:
                errors.setdefault("1-64", []).append(abs(p - s[3]) / 1000)
    return errors, models


def choose_ramp(samples):
    """The ramp R with the lowest mean leave-one-model-out error over the 1-64-token rows, and every candidate's
    score (the provenance of the choice)."""
    scores = {}
    for ramp in RAMP_CANDIDATES:
        errors, _ = leave_one_model_out("gemm", samples, ramp)
        e = [x for band, v in errors.items() if int(band.split("-")[1]) <= 64 for x in v]
        scores[ramp] = sum(e) / len(e)
    return min(RAMP_CANDIDATES, key=lambda r: scores[r]), scores


def coefficients_json(cls, c):
    names = (("fixed_ns", "ns_per_weight_byte", "ns_per_ramp_byte", "ns_per_reduction_element", "ns_per_flop",
              "ns_per_activation_byte") if cls == "gemm" else ("fixed_ns", "ns_per_width", "ns_per_byte"))
    values = list(c) + [0.0] * (len(names) - len(c))
    return {name: float("%.6g" % value) for name, value in zip(names, values)}


def main(argv):
    out = None
    table = False
    traces = os.environ.get("TPSCOPE_PUBLIC_TRACES") or os.path.join(os.path.dirname(__file__), "..", "..",
                                                                      "shared", "traces", "public")
    args = iter(argv)
    for a in args:
        if a == "--out":
            out = next(args, None)
        elif a == "--table":
            table = True
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            traces = a
    folder = os.path.join(traces, "vidur-compute-profiling")
    if not os.path.isdir(folder):
        sys.exit("fit-op-times: no folder " + folder + " (scripts/fetch-public-traces.sh, or TPSCOPE_PUBLIC_TRACES)")
    result = {"schema": 2,
              "comment": "Per-op decode kernel time fits of core/sim/op_time_fit, written by scripts/fit-op-times.py "
                         "from Vidur's measured per-op times; do not edit by hand.",
              "source": "microsoft/vidur @ " + VIDUR_COMMIT + " data/profiling/compute/<gpu>/<org>/<model>/mlp.csv "
                        "(fp16 F.linear / kernels, PyTorch-profiler GPU time, median of repeated runs)",
              "forms": {
                  "gemm": "t = fixed_ns + W x ns_per_weight_byte + min(W, ramp_bytes) x ns_per_ramp_byte + k x "
                          "ns_per_reduction_element + 2mnk x ns_per_flop + m(k+n) x element_bytes x "
                          "ns_per_activation_byte (W = weight bytes, k = reduction depth); 'gemv' times one token "
                          "(no flop or activation terms), 'gemm' 2+ tokens; ramp_bytes chosen from %s MiB by the "
                          "lowest mean leave-one-model-out error at 1-64 tokens; fitted on 1-%d tokens, weight 1/t^2"
                          % ("/".join(str(r // MIB) for r in RAMP_CANDIDATES), GEMM_MAX_TOKENS),
                  "row": "t = fixed_ns + width x ns_per_width + tokens x width x element_bytes x ns_per_byte; "
                         "fitted on 1-%d tokens, unweighted; norm and act on the gated-MLP models" % ROW_MAX_TOKENS},
              "gpus": []}
    lines = []
    for vidur_gpu, preset in GPUS.items():
        samples, files = load(os.path.join(folder, vidur_gpu))
        if not samples["gemm"]:
            sys.exit("fit-op-times: no rows under " + os.path.join(folder, vidur_gpu))
        entry = {"gpu": preset, "vidur": vidur_gpu, "files": files, "fits": {}, "leave_one_model_out": {}}
        ramp, scores = choose_ramp(samples["gemm"])
        entry["ramp_bytes"] = ramp
        entry["ramp_choice"] = {"%d MiB" % (r // MIB): round(v, 5) for r, v in sorted(scores.items())}
        for cls in ("gemm",) + ROW_CLASSES:
            c = fit_class(cls, samples[cls], ramp)
            errors, models = leave_one_model_out(cls, samples[cls], ramp)
            if cls == "gemm":
                for name in ("gemv", "gemm"):
                    entry["fits"][name] = coefficients_json("gemm", c[name])
                    entry["fits"][name]["ramp_bytes"] = ramp
                    entry["fits"][name]["samples"] = sum(1 for s in samples[cls] if (s[1] == 1) == (name == "gemv"))
                    entry["fits"][name]["models"] = models
            else:
                entry["fits"][cls] = coefficients_json(cls, c)
                entry["fits"][cls]["samples"] = len(samples[cls])
                entry["fits"][cls]["models"] = models
            unit = "relative" if cls == "gemm" else "us"
            for band, e in sorted(errors.items(), key=lambda kv: int(kv[0].split("-")[0])):
                band = band if band.split("-")[0] != band.split("-")[1] else band.split("-")[0]
                med, p90 = percentile(e, 0.5), percentile(e, 0.9)
                entry["leave_one_model_out"][cls + " " + band] = {"unit": unit, "rows": len(e),
                                                                  "median": round(med, 4), "p90": round(p90, 4)}
                shown = (lambda x: "%.1f %%" % (100 * x)) if cls == "gemm" else (lambda x: "%.2f µs" % x)
                lines.append("| %s | %s | %s | %d | %d | %s | %s |" % (
                    preset, cls, band, len(models), len(e), shown(med), shown(p90)))
        result["gpus"].append(entry)
    if table:
        print("| GPU | op class | tokens | models | rows | median error | p90 error |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(lines))
    text = json.dumps(result, indent=1, ensure_ascii=False) + "\n"
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    elif not table:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
