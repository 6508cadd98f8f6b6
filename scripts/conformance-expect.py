#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Writes the conformance corpus (tests/conformance/*.json): what each public trace holds, read by a
plain parse of the file with Python's standard library, not by tpscope's code. The conformance test
(tests/cli/conformance_test.cpp) runs `tpscope-cli analyze --json --calls` on every trace present and
compares.

Per trace (a file; the folder of the 8 PARAM ranks is one trace):
  kernels      per class, with the rules of resources/kernel_rules.json applied as their comment says
               (first match wins; contains any / prefix any, none of except), the cpu_op_rules on the
               CPU op whose "External id" the kernel carries (they win except over collective,
               memcpy and memset names), a kernel with a "Collective name" arg a collective; Kineto
               gpu_memcpy / gpu_memset and nsys MEMCPY / MEMSET rows are memcpy / memset.
  all_reduces  collective kernels whose name (ncclKernel_AllReduce_*, ncclDevKernel_AllReduce_*), rule
               "op" or "Collective name" arg says all-reduce; `bytes` per size where the kernels carry
               "In/Out msg nelems" and "dtype" (max of the two x the dtype's size), else null.
  steps        distinct ProfilerStep#N annotations (Kineto), null without any.
  batch_known  whether a serving engine's step annotation (vLLM execute_*, SGLang step[...]) gives it.
  layers       decoder layers of the first step (or of the whole trace without steps): maximal runs of
               attention-class kernels in start order; null when the trace has no attention kernel (not
               an LLM: its layers are the pattern rule's choice, not a fact of the file).

  scripts/conformance-expect.py PUBLIC_TRACES_DIR [OUT_DIR]   (default OUT_DIR: tests/conformance)
"""
import gzip
import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = os.path.join(HERE, "..", "resources", "kernel_rules.json")
DTYPE_BYTES = {"Float": 4, "float": 4, "Float32": 4, "BFloat16": 2, "bfloat16": 2, "Half": 2, "Float16": 2,
               "half": 2, "Double": 8, "Int": 4, "Int32": 4, "Long": 8, "Int64": 8, "Byte": 1, "Char": 1,
               "Bool": 1}
KINDS = ["gemm", "attention", "collective", "elementwise", "memcpy", "memset", "other"]


def load_rules():
    with open(RULES, encoding="utf-8") as f:
        doc = json.load(f)
    return doc["rules"], doc.get("cpu_op_rules", [])


def rule_matches(rule, name):
    hit = any(name.startswith(p) for p in rule.get("prefix", [])) or any(c in name for c in rule.get("contains", []))
    return hit and not any(e in name for e in rule.get("except", []))


def classify(rules, name):
    for rule in rules:
        if rule_matches(rule, name):
            return rule["kind"], rule.get("op")
    return "other", None


def name_op(name):
    for prefix in ("ncclDevKernel_", "ncclKernel_"):
        if name.startswith(prefix) and name[len(prefix):].startswith("AllReduce"):
            return "all_reduce"
    return None


class Tally:
    def __init__(self):
        self.kernels = {k: 0 for k in KINDS}
        self.all_reduces = 0
        self.sizes = {}  # bytes -> count
        self.sized = True  # every all-reduce carried its size
        self.attention_starts = []  # (start, is_attention) of kernel-class events, for the layers

    def kernel(self, kind, op, start, size=None):
        self.kernels[kind] += 1
        if kind not in ("memcpy", "memset"):
            self.attention_starts.append((start, kind == "attention"))
        if kind == "collective" and op == "all_reduce":
            self.all_reduces += 1
            if size is None:
                self.sized = False
            else:
                self.sizes[size] = self.sizes.get(size, 0) + 1


def kineto_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    if isinstance(doc, list):
        return doc, False
    return doc.get("traceEvents", []), "tpscope" in doc


def kineto_file(path, rules, op_rules, tally, steps, windows, engine_batch):
    events, own = kineto_events(path)
    table = {}
    op_seen = False
    late = []  # kernels that came before any CPU op: classed by the final table (kineto_parser_finish)
    first_step = None
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X" or "ts" not in e:
            continue
        cat, name, args = e.get("cat"), e.get("name", ""), e.get("args") or {}
        if cat in ("user_annotation", "gpu_user_annotation"):
            if name.startswith("ProfilerStep#"):
                steps.add(name)
                if cat == "gpu_user_annotation" and first_step is None:
                    first_step = (float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)))
            if name.startswith("execute_") or name.startswith("step[DECODE"):
                engine_batch[0] = True
            continue
        if cat == "cpu_op":
            op_seen = True
            ext = args.get("External id")
            if ext is None:
                continue
            for rule in op_rules:
                if rule_matches(rule, name):
                    table[ext] = rule["kind"]
                    break
            continue
        start = float(e["ts"])
        if cat in ("gpu_memcpy", "Memcpy"):
            tally.kernel("memcpy", None, start)
            continue
        if cat in ("gpu_memset", "Memset"):
            tally.kernel("memset", None, start)
            continue
        if cat not in ("kernel", "Kernel"):
            continue
        if own and args.get("kind"):
            tally.kernel(args["kind"], None, start)
            continue
        kind, op = classify(rules, name)
        op = op or name_op(name)
        coll = args.get("Collective name")
        if coll:
            kind = "collective"
            op = "all_reduce" if coll.replace("_", "").lower() == "allreduce" else op
        ext = args.get("External id")
        size = None
        nelems = max(args.get("In msg nelems", 0) or 0, args.get("Out msg nelems", 0) or 0)
        if nelems and args.get("dtype") in DTYPE_BYTES:
            size = nelems * DTYPE_BYTES[args["dtype"]]
        if ext is not None and kind != "collective":
            if ext in table:
                kind = kind if kind in ("memcpy", "memset") else table[ext]
            elif not op_seen:
                late.append((ext, kind, start))
                continue
        tally.kernel(kind, op, start, size)
    for ext, kind, start in late:
        if ext in table and kind not in ("memcpy", "memset"):
            kind = table[ext]
        tally.kernel(kind, None, start)
    if first_step is not None:
        windows.append(first_step)


def nsys_file(path, rules, tally):
    db = sqlite3.connect("file:" + path + "?mode=ro", uri=True)
    strings = dict(db.execute("SELECT id, value FROM StringIds"))
    cols = [r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
    name_col = "demangledName" if "demangledName" in cols else "shortName"
    for start, name_id in db.execute(f"SELECT start, {name_col} FROM CUPTI_ACTIVITY_KIND_KERNEL"):
        name = strings.get(name_id, "")
        kind, op = classify(rules, name)
        tally.kernel(kind, op or name_op(name), float(start) / 1000.0)
    for table, kind in (("CUPTI_ACTIVITY_KIND_MEMCPY", "memcpy"), ("CUPTI_ACTIVITY_KIND_MEMSET", "memset")):
        try:
            for (start,) in db.execute(f"SELECT start FROM {table}"):
                tally.kernel(kind, None, float(start) / 1000.0)
        except sqlite3.OperationalError:
            pass
    db.close()


def layers_of(tally, window):
    runs, inside = 0, False
    for start, attention in sorted(tally.attention_starts, key=lambda s: s[0]):
        if window is not None and not window[0] <= start < window[1]:
            continue
        runs += 1 if attention and not inside else 0
        inside = attention
    return runs if runs > 0 else None


def expect(paths, rules, op_rules):
    tally, steps, windows, engine_batch = Tally(), set(), [], [False]
    for p in paths:
        if p.endswith(".sqlite"):
            nsys_file(p, rules, tally)
        else:
            kineto_file(p, rules, op_rules, tally, steps, windows, engine_batch)
    # Several ranks: the layers of rank 0's first step (every rank runs the same layers).
    if len(paths) > 1:
        first = Tally()
        kineto_file(paths[0], rules, op_rules, first, set(), [], [False])
        layer_tally, window = first, None
    else:
        layer_tally, window = tally, (windows[0] if windows else None)
    return {
        "ranks": len(paths),
        "kernels": tally.kernels,
        "all_reduces": {"count": tally.all_reduces,
                        "bytes": ({str(k): v for k, v in sorted(tally.sizes.items())} if tally.sized else None)},
        "steps": len(steps) if steps else None,
        "batch_known": engine_batch[0],
        "layers": layers_of(layer_tally, window),
    }


def units(root):
    """(id, relative path, files): each trace file, the PARAM folder as one trace."""
    out = []
    for dirpath, _, files in sorted(os.walk(root)):
        rel = os.path.relpath(dirpath, root)
        traces = sorted(f for f in files if f.endswith((".json", ".json.gz", ".sqlite")))
        if not traces:
            continue
        if rel == "param-dlrm_kineto-8rank":
            out.append((rel, rel, [os.path.join(dirpath, f) for f in traces]))
            continue
        for f in traces:
            out.append((os.path.join(rel, f), os.path.join(rel, f), [os.path.join(dirpath, f)]))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "tests", "conformance")
    rules, op_rules = load_rules()
    os.makedirs(out_dir, exist_ok=True)
    for ident, rel, files in units(root):
        e = {"trace": rel, "generated_by": "scripts/conformance-expect.py"}
        e.update(expect(files, rules, op_rules))
        name = rel.replace("/", "__")
        for suffix in (".json.gz", ".json", ".sqlite"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        with open(os.path.join(out_dir, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(e, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{rel}: {e['kernels']}, all-reduces {e['all_reduces']['count']}, layers {e['layers']}")


if __name__ == "__main__":
    main()
