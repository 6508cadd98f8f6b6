#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""summary.md and summary.json of gpu/gpu-check.sh from what it left in OUT.

Inputs (each may be missing: the summary is written on every exit path, the early ones included):
checks.tsv (verdict, check, detail per line, from the script), the captures' --json outputs
(b1-r1..3.json and b1-nocupti-r1..3.json interleaved, b16*.json, b1-graph*.json, tpN.json,
tpN-graph.json), copy-roof.json (devices --copy-roof), allreduce-measured.json and allreduce-predicted.json.

Targets and verdicts (PASS / WARN / FAIL):
- HBM floor reached = ((streamed weights, all but the input embedding table, + KV cache) / peak HBM bandwidth) / median step, batch 1 without CUPTI:
  PASS >= 85 %, WARN >= 60 %, else FAIL. Achieved TB/s = bytes per step / median step, beside the roof
  (the measured copy roof when devices --copy-roof ran, else the GPU preset's peak HBM bandwidth).
- Weights + KV floor at the measured copy roof = ((streamed weights + KV cache) / copy roof) / median step, batch 1
  without CUPTI: PASS >= 80 %, WARN >= 60 %, else FAIL (only when the roof was measured).
- CUPTI overhead = (step with CUPTI - step without) / step without, batch 1 from three interleaved pairs
  (shortest of each side): PASS <= 2 %, WARN <= 5 %, else FAIL.
- Graph replays whose launch correlation CUPTI broke (rebuilt from the nodes): WARN.
- Records lost (dropped + incomplete + invalid timestamps + buffers refused): PASS 0, else FAIL.
- Kernels without their op tag: PASS 0, else FAIL.
- All-reduce busbw at 256 MiB against the fabric preset's prediction: PASS >= 70 %, WARN >= 40 %, else
  FAIL; at 8 KiB and 1 MiB the time against the prediction: PASS <= 1.5x, else WARN (the latency model
  is coarse).
The first-run checklist of gpu/README.md gets a PASS / WARN / FAIL line each (printed, and in
summary.md and summary.json): copy roof against the preset's peak, records lost and kernels without
their op tag over every CUPTI capture, NVTX ranges and kernels per step per rank, bytes over the roof,
graph correlation mismatches, CUPTI overhead, collectives per step at TP >= 2.
Exit status 1 when a target or a checklist line is FAIL (the script's own failures are its to count).
"""
import json
import os
import sys

out = sys.argv[1]
early = sys.argv[2] if len(sys.argv) > 2 else ""


def load(name):
    try:
        with open(os.path.join(out, name + ".json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return {"error": "not run"}
    except (OSError, ValueError) as e:
        return {"error": "no result (%s)" % e.__class__.__name__}


def load_min(name):
    """The run with the shortest median step among name-r1.. (interleaved repeats), else name itself."""
    reps = [load("%s-r%d" % (name, i)) for i in range(1, 10) if os.path.exists(os.path.join(out, "%s-r%d.json" % (name, i)))]
    done = [r for r in reps if r.get("median_step_ns", 0) > 0]
    if done:
        best = dict(min(done, key=lambda r: r["median_step_ns"]))
        best["repeats"] = len(reps)
        return best
    return reps[0] if reps else load(name)


def copy_roof():
    """GPU 0's measured copy roof in B/s (devices --copy-roof), or None."""
    try:
        with open(os.path.join(out, "copy-roof.json")) as f:
            devices = json.load(f)
        return float(devices[0]["copy_roof_bytes_per_sec"]) or None
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def ms(ns):
    return "%.3f ms" % (ns / 1e6)


def grade(value, passes, warns):
    if passes(value):
        return "PASS"
    return "WARN" if warns is not None and warns(value) else "FAIL"


def num(d, key):
    try:
        return float(d.get(key, ""))
    except (TypeError, ValueError):
        return None


checks = []
try:
    with open(os.path.join(out, "checks.tsv")) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2:
                checks.append((parts[0], parts[1], parts[2] if len(parts) > 2 else ""))
except OSError:
    pass

targets = []  # (target, measured, wanted, verdict)
roof = copy_roof()
if roof:
    targets.append(("copy roof, GPU 0 (measured)", "%.2f TB/s" % (roof / 1e12), "measured", "PASS"))
runs = []
for label, base in (("batch 1", "b1"), ("batch 16", "b16"), ("batch 1, CUDA graph", "b1-graph")):
    on, off = load_min(base), load_min(base + "-nocupti")
    row = {"run": label, "with_cupti": on, "without_cupti": off}
    if on.get("median_step_ns", 0) > 0 and off.get("median_step_ns", 0) > 0:
        row["cupti_overhead_pct"] = 100.0 * (on["median_step_ns"] - off["median_step_ns"]) / off["median_step_ns"]
        targets.append(("CUPTI overhead, %s" % label, "%.2f %%" % row["cupti_overhead_pct"], "<= 2 %",
                        grade(row["cupti_overhead_pct"], lambda v: v <= 2.0, lambda v: v <= 5.0)))
    if base == "b1" and off.get("median_step_ns", 0) > 0 and off.get("gpu_preset"):
        frac = 100.0 * off.get("fraction_of_hbm_floor", 0.0)
        targets.append(("HBM floor reached, batch 1", "%.1f %%" % frac, ">= 85 %",
                        grade(frac, lambda v: v >= 85.0, lambda v: v >= 60.0)))
    if base == "b1" and off.get("median_step_ns", 0) > 0 and roof and off.get("hbm_floor_bytes_per_gpu"):
        # The bytes a step must read (streamed weights + KV cache, as the HBM floor) at the measured copy roof.
        frac = 100.0 * (float(off["hbm_floor_bytes_per_gpu"]) / roof * 1e9) / off["median_step_ns"]
        row["fraction_of_copy_roof_floor"] = frac / 100.0
        targets.append(("weights + KV floor at the measured copy roof, batch 1", "%.1f %%" % frac, ">= 80 %",
                        grade(frac, lambda v: v >= 80.0, lambda v: v >= 60.0)))
    runs.append(row)
for name in sorted(f[:-5] for f in os.listdir(out) if f.startswith("tp") and f.endswith(".json")):
    runs.append({"run": name, "with_cupti": load(name), "without_cupti": {}})
for r in runs:
    on = r["with_cupti"]
    if on.get("median_step_ns", 0) <= 0:
        continue
    lost = num(on, "records_lost")
    if lost is not None:
        targets.append(("records lost, %s" % r["run"], "%d" % lost, "0", "PASS" if lost == 0 else "FAIL"))
    broken = num(on, "graph_correlation_mismatches")
    if broken:
        targets.append(("graph launch correlation, %s" % r["run"], "%d replays rebuilt from nodes" % broken, "0",
                        "WARN"))
    untagged = num(on, "unattributed_kernels")
    if untagged is not None:
        targets.append(("kernels without op tag, %s" % r["run"], "%d" % untagged, "0",
                        "PASS" if untagged == 0 else "FAIL"))

measured, predicted = load("allreduce-measured"), load("allreduce-predicted")
allreduce = []
pred_rows = {p.get("bytes"): p for p in predicted.get("rows", [])}
for m in measured.get("rows", []):
    p = pred_rows.get(m.get("bytes"), {})
    row = {"bytes": m.get("bytes"), "measured": m, "predicted": p}
    allreduce.append(row)
    if not p:
        continue
    if m.get("bytes", 0) >= 256 << 20 and p.get("busbw_gbps", 0) > 0:
        frac = 100.0 * m.get("busbw_gbps", 0) / p["busbw_gbps"]
        targets.append(("all-reduce busbw, %d MiB, %d GPUs" % (m["bytes"] >> 20, measured.get("gpus", 0)),
                        "%.1f GB/s (%.0f %% of %s's %.1f)" % (m.get("busbw_gbps", 0), frac,
                                                               predicted.get("fabric", "?"), p["busbw_gbps"]),
                        ">= 70 % of the preset", grade(frac, lambda v: v >= 70.0, lambda v: v >= 40.0)))
    elif p.get("time_us", 0) > 0:
        ratio = m.get("time_us", 0) / p["time_us"]
        targets.append(("all-reduce time, %d B, %d GPUs" % (m["bytes"], measured.get("gpus", 0)),
                        "%.2f us (%.2fx the preset's %.2f)" % (m.get("time_us", 0), ratio, p["time_us"]),
                        "<= 1.5x the preset", "PASS" if ratio <= 1.5 else "WARN"))



# ---- the first-run checklist (gpu/README.md): one PASS / WARN / FAIL line per item -------------------
def capture_runs():
    """Every CUPTI capture that ran: (name, its --json)."""
    names = ["b1-r%d" % i for i in range(1, 10)] + ["b16", "b1-graph"]
    names += sorted(f[:-5] for f in os.listdir(out) if f.startswith("tp") and f.endswith(".json"))
    runs_ = [(n, load(n)) for n in names if os.path.exists(os.path.join(out, n + ".json"))]
    return [(n, r) for n, r in runs_ if r.get("median_step_ns", 0) > 0 and r.get("cupti", True)]


def per_rank(runs_, what, expected):
    """what(run, rank) against expected(run) on every rank of every run: (measured text, verdict)."""
    seen, bad_low, bad_high = [], [], []
    for name, r in runs_:
        ranks = r.get("ranks") or []
        want = expected(r)
        if not ranks or want is None:
            continue
        for rank in ranks:
            got = what(r, rank)
            if got is None:
                continue
            seen.append("%s r%s %s" % (name, rank.get("rank", "?"), fmt(got)))
            if got < want[0]:
                bad_low.append(name)
            elif got > want[1]:
                bad_high.append(name)
    return seen, bad_low, bad_high


def fmt(v):
    return "%d" % v if float(v).is_integer() else "%.2f" % v


def steps_of(r):
    return r.get("steps") or len(r.get("step_ns", [])) or None


checklist = []  # (item, measured, expected, verdict)
cap = capture_runs()
b1 = load_min("b1-nocupti")
peak = b1.get("peak_hbm_bytes_per_sec") or 0
if roof and peak:
    frac = roof / peak
    checklist.append(("copy roof / preset peak HBM (%s)" % b1.get("gpu_preset", "?"), "%.2f TB/s, %.0f %%" % (
        roof / 1e12, 100 * frac), "70-97 % of the peak", "PASS" if 0.70 <= frac <= 0.97 else "WARN"))
else:
    checklist.append(("copy roof / preset peak HBM", "not measured" if not roof else "no GPU preset",
                      "70-97 % of the peak", "WARN"))
for label, key in (("records lost", "records_lost"), ("kernels without their op tag", "unattributed_kernels")):
    values = [(n, num(r, key)) for n, r in cap if num(r, key) is not None]
    if values:
        total = sum(v for _, v in values)
        checklist.append((label + ", every CUPTI capture", "%d over %d captures" % (total, len(values)), "0",
                          "PASS" if total == 0 else "FAIL"))
    else:
        checklist.append((label + ", every CUPTI capture", "no capture", "0", "WARN"))
# NVTX ranges: per step "step i", per layer "layer i", "attention" and "mlp".
seen, low, high = per_rank(cap, lambda r, k: k.get("ranges"),
                           lambda r: (steps_of(r) * (1 + 3 * r["layers"]),) * 2 if r.get("layers") and steps_of(r) else None)
checklist.append(("NVTX ranges per rank = steps x (1 + 3 x layers)", "; ".join(seen) or "not in the captures' JSON",
                  "exact", "PASS" if seen and not low and not high else "WARN"))
# Kernels per step: at least one per plan op; split-KV attention adds a combine kernel per layer and
# cuBLAS may add a split-K reduction per GEMM (4 per layer and the LM head).
seen, low, high = per_rank(cap, lambda r, k: k.get("events", 0) / steps_of(r) if steps_of(r) else None,
                           lambda r: (r["plan_ops_per_step"], r["plan_ops_per_step"] + 5 * r["layers"] + 1)
                           if r.get("plan_ops_per_step") and r.get("layers") else None)
checklist.append(("kernels per step per rank", "; ".join(seen) or "not in the captures' JSON",
                  "plan ops .. plan ops + 5 x layers + 1", "PASS" if seen and not low and not high else "WARN"))
checklist.append(("bytes over the roof, batch 1 step (per kernel: analyze-b1.txt)",
                  next((m for t, m, w, v in targets if t.startswith("weights + KV floor")), "not measured"),
                  ">= 80 % of the floor at the copy roof",
                  next((v for t, m, w, v in targets if t.startswith("weights + KV floor")), "WARN")))
graphs = [(n, num(r, "graph_correlation_mismatches")) for n, r in cap if "graph" in n]
graphs = [(n, v) for n, v in graphs if v is not None]
checklist.append(("graph replays whose launch correlation CUPTI broke",
                  "; ".join("%s %d" % (n, v) for n, v in graphs) or "no graph capture", "0",
                  "PASS" if graphs and all(v == 0 for _, v in graphs) else "WARN"))
over = next((r for r in runs if r["run"] == "batch 1" and "cupti_overhead_pct" in r), None)
checklist.append(("CUPTI overhead, batch 1", "%.2f %%" % over["cupti_overhead_pct"] if over else "not measured",
                  "<= 2 % (WARN <= 5 %)", grade(over["cupti_overhead_pct"], lambda v: v <= 2.0, lambda v: v <= 5.0)
                  if over else "WARN"))
tp_runs = [(n, r) for n, r in cap if n.startswith("tp")]
seen, low, high = per_rank(tp_runs, lambda r, k: k.get("collectives", 0) / steps_of(r) if steps_of(r) else None,
                           lambda r: (r["plan_collectives_per_step"],) * 2 if r.get("plan_collectives_per_step") else None)
checklist.append(("collectives per step per rank at TP >= 2 (2 per layer + embedding + logits)",
                  "; ".join(seen) or "no TP >= 2 capture", "the plan's, exactly",
                  "FAIL" if low else "WARN" if high or not seen else "PASS"))

with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump({"checks": [{"verdict": v, "check": c, "detail": d} for v, c, d in checks],
               "targets": [{"target": t, "measured": m, "wanted": w, "verdict": v} for t, m, w, v in targets],
               "checklist": [{"item": i, "measured": m, "expected": e, "verdict": v} for i, m, e, v in checklist],
               "captures": runs, "allreduce": allreduce, "stopped_early": early}, f, indent=2)

lines = ["# tpscope gpu-check: llama3-8b", ""]
if early:
    lines += ["**Stopped early**: %s" % early, ""]
lines += ["## Verdicts", "", "| target | measured | wanted | verdict |", "| --- | --- | --- | --- |"]
for v, c, d in checks:
    lines.append("| %s | %s | | %s |" % (c, d.replace("|", "/"), v))
for t, m, w, v in targets:
    lines.append("| %s | %s | %s | %s |" % (t, m, w, v))
lines += ["", "## First-run checklist (gpu/README.md)", "", "| item | measured | expected | verdict |",
          "| --- | --- | --- | --- |"]
for i, m, e, v in checklist:
    lines.append("| %s | %s | %s | %s |" % (i, m, e, v))
lines += ["", "## Captures", "",
          "| run | step (no CUPTI) | step (CUPTI) | CUPTI overhead | tokens/s | HBM floor reached | achieved / roof "
          "| untagged kernels | records lost |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for r in runs:
    on, off = r["with_cupti"], r["without_cupti"]
    base = off if off.get("median_step_ns", 0) > 0 else on
    if base.get("median_step_ns", 0) <= 0:
        lines.append("| %s | failed: %s | | | | | | | |" % (r["run"], base.get("error", "?")))
        continue
    lines.append("| %s | %s | %s | %s | %.1f | %s | %s | %s | %s |" % (
        r["run"], ms(off["median_step_ns"]) if off.get("median_step_ns", 0) > 0 else "-",
        ms(on["median_step_ns"]) if on.get("median_step_ns", 0) > 0 else "failed: %s" % on.get("error", "?"),
        "%.2f %%" % r["cupti_overhead_pct"] if "cupti_overhead_pct" in r else "-",
        base.get("tokens_per_sec", 0.0),
        "%.1f %%" % (100.0 * base["fraction_of_hbm_floor"]) if base.get("gpu_preset") else "- (no GPU preset)",
        "%.2f / %.2f TB/s (%s)" % (base.get("achieved_bytes_per_sec", 0) / 1e12,
                                   (roof or base.get("peak_hbm_bytes_per_sec", 0)) / 1e12,
                                   "measured copy roof" if roof else base.get("gpu_preset") or "?"),
        on.get("unattributed_kernels", "?"), on.get("records_lost", "?")))
if allreduce:
    lines += ["", "## All-reduce (%s GPUs, measured against the %s preset)" % (measured.get("gpus", "?"),
                                                                             predicted.get("fabric", "?")), "",
              "| size (B) | time (us) | busbw (GB/s) | preset time (us) | preset busbw (GB/s) |",
              "| --- | --- | --- | --- | --- |"]
    for a in allreduce:
        m, p = a["measured"], a["predicted"]
        lines.append("| %s | %.2f | %.2f | %s | %s |" % (
            a["bytes"], m.get("time_us", 0), m.get("busbw_gbps", 0),
            "%.2f" % p["time_us"] if p else "-", "%.2f" % p["busbw_gbps"] if p else "-"))
lines += ["",
          "HBM floor reached = ((streamed weights, all but the input embedding table, + KV cache) / peak HBM bandwidth) / measured median step, without CUPTI.",
          "Achieved = plan bytes per step / median step; roof = the measured copy roof (devices --copy-roof: a",
          "device-to-device copy kernel, best of 20 copies of 1 GiB) when it ran, else the GPU preset's peak HBM bandwidth.",
          "Weights + KV floor at the measured copy roof = ((streamed weights + KV cache) / copy roof) / median step, without CUPTI.",
          "CUPTI overhead = (step with CUPTI - step without) / step without; batch 1 from three interleaved pairs,",
          "the shortest of each side. Medians of the measured steps after 5 warm-up steps. All-reduce: K back to back per sample, median of 5 samples (nccl-tests' method)."]
with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
print()
for i, m, e, v in checklist:
    print("%-4s  %s: %s (expected %s)" % (v, i, m, e))
sys.exit(1 if any(v == "FAIL" for _, _, _, v in targets + checklist) else 0)
