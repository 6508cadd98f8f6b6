#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""summary.md and summary.json of gpu/gpu-check.sh from the captures' --json outputs in OUT.

HBM floor reached = (weight bytes / peak HBM bandwidth) / median step, without CUPTI (1 = at the floor).
CUPTI overhead = (median step with CUPTI - median step without) / median step without.
"""
import json
import os
import sys

out = sys.argv[1]


def load(name):
    try:
        with open(os.path.join(out, name + ".json")) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"error": "no result (%s)" % e}


def ms(ns):
    return "%.3f ms" % (ns / 1e6)


rows = []
for label, base in (("batch 1", "b1"), ("batch 16", "b16"), ("batch 1, CUDA graph", "b1-graph")):
    on, off = load(base), load(base + "-nocupti")
    row = {"run": label, "with_cupti": on, "without_cupti": off}
    if on.get("median_step_ns", 0) > 0 and off.get("median_step_ns", 0) > 0:
        row["cupti_overhead_pct"] = 100.0 * (on["median_step_ns"] - off["median_step_ns"]) / off["median_step_ns"]
    rows.append(row)
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(rows, f, indent=2)

lines = ["# tpscope gpu-check: llama3-8b, TP 1", "",
         "| run | step (no CUPTI) | step (CUPTI) | CUPTI overhead | tokens/s | HBM floor reached | peak | untagged kernels | dropped |",
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
for r in rows:
    on, off = r["with_cupti"], r["without_cupti"]
    if off.get("median_step_ns", 0) <= 0:
        lines.append("| %s | failed: %s | | | | | | | |" % (r["run"], off.get("error", "?")))
        continue
    lines.append("| %s | %s | %s | %s | %.1f | %s | %s | %s | %s |" % (
        r["run"], ms(off["median_step_ns"]),
        ms(on["median_step_ns"]) if on.get("median_step_ns", 0) > 0 else "failed: %s" % on.get("error", "?"),
        "%.2f %%" % r["cupti_overhead_pct"] if "cupti_overhead_pct" in r else "-",
        off.get("tokens_per_sec", 0.0),
        "%.1f %%" % (100.0 * off["fraction_of_hbm_floor"]) if off.get("gpu_preset") else "- (no GPU preset)",
        "%.2f TB/s (%s)" % (off.get("peak_hbm_bytes_per_sec", 0) / 1e12, off.get("gpu_preset") or "?"),
        on.get("unattributed_kernels", "?"), on.get("dropped_records", "?")))
lines += ["",
          "HBM floor reached = (weight bytes / peak HBM bandwidth) / measured median step, without CUPTI;",
          "target >= 85 % at batch 1. CUPTI overhead = (step with CUPTI - step without) / step without;",
          "target <= 2 %. Medians of the measured steps after 5 warm-up steps."]
with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
