#!/usr/bin/env python3
"""The table of regions_suite.sh: contact regions against FCL's all-contacts query, per pair.

Mean µs per pose over the same random pose file; ours on one thread, and split across the
threads (`--split`); FCL (obbrss_all) lists the intersecting pairs only, with no curve, normal
or depth. The all-pairs column shows what the regions add to finding the pairs.

Usage: regions_table.py OUTDIR/regions
"""
import sys

from suite_results import records


def main(root):
    runs = {}
    for d in records(root):
        r = d["result"]
        runs.setdefault(d["pair"], {})[d["run"]] = r.get("query_us_mean", r.get("per_query_us"))
    print("| pair | FCL obbrss_all µs | ours all µs | ours regions µs | ÷ FCL | regions --split µs | ÷ FCL |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for pair, r in runs.items():
        fcl = r["fcl"]
        print(f"| {pair} | {fcl:.4g} | {r['all']:.4g} | {r['regions']:.4g} | {r['regions'] / fcl:.2f} | "
              f"{r['regions--split']:.4g} | {r['regions--split'] / fcl:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1])
