#!/usr/bin/env python3
"""The table of physx_suite.sh: ours against PhysX 5.1, first contact and all pairs, per pose set.

Ratios are mean µs per query, ours / PhysX's, both single-threaded on the same pose file. A
ratio counts only where PhysX's answers are right: its yes/no per pose for first contact, its
pair count per pose too for all pairs; where they differ from ours, the row says by how much.

Usage: physx_table.py OUTDIR/physx
"""
import os
import sys

from suite_results import records


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def main(root):
    runs = {}
    for d in records(root):
        r = d["result"]
        variant = r.get("variant") if d["backend"] == "physx" else r["query"]
        runs.setdefault((d["pair"], d["kind"]), {})[(d["backend"], variant)] = r
    print("| pair | poses | ours any µs | PhysX any µs | any ratio | yes/no differ | ours all µs "
          "| PhysX all µs | all ratio | pair counts differ | PhysX pairs / ours |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (pair, kind), r in runs.items():
        d = os.path.join(root, f"{pair}-{kind}")
        ours_any, ours_all = r[("ours", "any")], r[("ours", "all")]
        px_any, px_all = r[("physx", "overlap_any")], r[("physx", "overlap_all")]
        our_bits = [int(x) for x in lines(os.path.join(d, "ours-any.txt"))]
        px_bits = [int(x) for x in lines(px_any["bits"])]
        bits_differ = sum(a != b for a, b in zip(our_bits, px_bits))
        our_counts = [int(x) for x in lines(os.path.join(d, "ours-all.txt"))]
        px_counts = [int(x) for x in lines(px_all["pairs"])]
        counts_differ = sum(a != b for a, b in zip(our_counts, px_counts))
        ratio_any = ours_any["query_us_mean"] / px_any["per_query_us"]
        ratio_all = ours_all["query_us_mean"] / px_all["per_query_us"]
        excess = sum(px_counts) / max(1, sum(our_counts))
        print(f"| {pair} | {kind} | {ours_any['query_us_mean']:.3g} | {px_any['per_query_us']:.3g} | "
              f"{ratio_any:.2f} | {bits_differ} | {ours_all['query_us_mean']:.4g} | "
              f"{px_all['per_query_us']:.4g} | {ratio_all:.2f} | {counts_differ} | {excess:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
