#!/usr/bin/env python3
"""The table of physx_suite.sh: ours against PhysX 5.1, first contact and all pairs, per pose set.

Ratios are mean µs per query, ours / PhysX's, both single-threaded on the same pose file, taken
per round (ours and PhysX timed one after the other) and given as the median over the rounds,
with their range when there are several; the µs columns are medians too. A ratio counts only
where PhysX's answers are right: its yes/no per pose for first contact, its pair count per pose
too for all pairs; where they differ from ours, the row says by how much: on how many poses,
and – from `bvh-bench peer-pairs` on the first of those poses – how many pairs only PhysX
reports and how far apart the farthest lies (in last places of its coordinates: up to a few,
the two answers differ within the rounding of placing the part; far more, PhysX is wrong), and
how many pairs that meet it misses.

Usage: physx_table.py OUTDIR/physx
       physx_table.py --differing OURS PHYSX N   (the first N poses whose counts differ, for
                                                   physx_suite.sh to fetch PhysX's pairs at)
"""
import json
import os
import statistics
import sys

from suite_results import records

# Each timed column: the back-end, the variant (our query, PhysX's call) and the key of its time.
COLUMNS = {
    "ours_any": ("ours", "any", "query_us_mean"),
    "ours_all": ("ours", "all", "query_us_mean"),
    "px_any": ("physx", "overlap_any", "per_query_us"),
    "px_all": ("physx", "overlap_all", "per_query_us"),
}


def numbers(path):
    """The number on each non-empty line of PATH: a pose's 0/1 or its pair count."""
    with open(path) as f:
        return [int(line) for line in f if line.strip()]


def differing(ours, theirs):
    """The poses two answer lists disagree on."""
    return [k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b]


def disputed(path):
    """`bvh-bench peer-pairs`' summary (its last line) in PATH, if it ran."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    return json.loads(lines[-1]) if lines else None


def spread(values, digits):
    """The median of VALUES, with their range when there are several."""
    middle = f"{statistics.median(values):.{digits}g}"
    if len(values) == 1:
        return middle
    return f"{middle} ({min(values):.{digits}g}–{max(values):.{digits}g})"


def main(root):
    runs = {}
    for d in records(root):
        r = d["result"]
        variant = r.get("variant") if d["backend"] == "physx" else r["query"]
        rounds = runs.setdefault((d["pair"], d["kind"]), {})
        rounds.setdefault(d.get("round", 1), {})[(d["backend"], variant)] = r
    print("| pair | poses | rounds | ours any µs | PhysX any µs | any ratio | yes/no differ "
          "| ours all µs | PhysX all µs | all ratio | pair counts differ | PhysX pairs / ours "
          "| PhysX only: pairs, farthest (last places) | missed by PhysX |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (pair, kind), rounds in runs.items():
        d = os.path.join(root, f"{pair}-{kind}")
        column = {
            name: [r[(backend, variant)][key] for r in rounds.values()]
            for name, (backend, variant, key) in COLUMNS.items()
        }
        ratio = {q: [o / p for o, p in zip(column[f"ours_{q}"], column[f"px_{q}"])] for q in ("any", "all")}
        last = rounds[max(rounds)]
        bits_differ = len(differing(numbers(os.path.join(d, "ours-any.txt")),
                                numbers(last[("physx", "overlap_any")]["bits"])))
        our_counts = numbers(os.path.join(d, "ours-all.txt"))
        px_counts = numbers(last[("physx", "overlap_all")]["pairs"])
        excess = sum(px_counts) / max(1, sum(our_counts))
        judged = disputed(os.path.join(d, "disputed.jsonl"))
        extra, missed = ("–", "–") if judged is None else (
            f"{judged['peer_only']}, {judged['peer_only_farthest']:.3g} ({judged['peer_only_farthest_ulps']:.3g}) "
            f"on {judged['poses']} poses",
            # Ours only: meeting where the pose places them (0 last places apart), else within rounding.
            f"{judged['ours_only']}, farthest apart {judged['ours_only_farthest_ulps']:.3g} last places")
        print(f"| {pair} | {kind} | {len(rounds)} | {spread(column['ours_any'], 3)} | "
              f"{spread(column['px_any'], 3)} | {spread(ratio['any'], 2)} | {bits_differ} | "
              f"{spread(column['ours_all'], 4)} | {spread(column['px_all'], 4)} | "
              f"{spread(ratio['all'], 2)} | {len(differing(our_counts, px_counts))} | {excess:.3f} | "
              f"{extra} | {missed} |")


if __name__ == "__main__":
    if sys.argv[1] == "--differing":
        ours, theirs, most = sys.argv[2], sys.argv[3], int(sys.argv[4])
        print(",".join(map(str, differing(numbers(ours), numbers(theirs))[:most])))
    else:
        main(sys.argv[1])
