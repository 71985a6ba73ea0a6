#!/usr/bin/env python3
"""The table of regions_suite.sh: contact regions against FCL's all-contacts query, per pair.

Mean µs per pose over the same random pose file; ours on one thread, and split across the
threads (`--split`); FCL (obbrss_all) lists the intersecting pairs only, with no curve, normal
or depth. The all-pairs column shows what the regions add to finding the pairs. Over several
rounds (ROUNDS in regions_suite.sh) each time is the median of the rounds, and each ratio the
median of the rounds' own ratios (ours against FCL in the same round).

Usage: regions_table.py OUTDIR/regions
"""
import statistics
import sys

from suite_results import records


def main(root):
    # Per pair, per run, the mean µs of each round (records without a round are one round).
    runs = {}
    for d in records(root):
        r = d["result"]
        rounds = runs.setdefault(d["pair"], {}).setdefault(d["run"], {})
        rounds[d.get("round", 1)] = r.get("query_us_mean", r.get("per_query_us"))
    print("| pair | rounds | FCL obbrss_all µs | ours all µs | ours regions µs | ÷ FCL | regions --split µs | ÷ FCL |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for pair, r in runs.items():
        median = {run: statistics.median(rounds.values()) for run, rounds in r.items()}
        fcl = r["fcl"]

        def ratio(run):
            return statistics.median(r[run][k] / fcl[k] for k in fcl if k in r[run])

        print(f"| {pair} | {len(fcl)} | {median['fcl']:.4g} | {median['all']:.4g} | {median['regions']:.4g} | "
              f"{ratio('regions'):.2f} | {median['regions--split']:.4g} | {ratio('regions--split'):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1])
