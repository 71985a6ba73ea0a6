#!/usr/bin/env python3
"""The distance table of a distance suite run (distance_suite.sh): per pair and pose set, ours
(uncached and cached) against the fastest of FCL's and Coal's distance variants, and how many of
our distances agree with Coal's RSS (f64) within 1e-5 relative.

Usage: distance_table.py OUTDIR/dist
"""
import os
import sys

from suite_results import records


def main(out):
    ours, peers = {}, {}
    for d in records(out):
        key, r = (d["pair"], d["kind"]), d["result"]
        if d["backend"] == "ours":
            ours.setdefault(key, {})["cached" if r["cache"] else "plain"] = r
        else:
            peers.setdefault(key, {})[f'{d["backend"]} {r["variant"]}'] = r["per_query_us"]
    print("| pair | poses | ours mean / median µs | cached mean µs | fastest peer µs | ours ÷ fastest "
          "| cached ÷ uncached | volume tests | triangle tests | touching | equal to Coal |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for (pair, kind), runs in ours.items():
        p, c = runs["plain"], runs.get("cached", runs["plain"])
        fastest = min(peers.get((pair, kind), {}).items(), key=lambda kv: kv[1], default=None)
        agree = "-"
        coal = os.path.join(out, "coal", f"{pair}-{kind}", "coal-rss_dist.dist")
        if os.path.exists(coal):
            mine = [float(l.split()[0]) for l in open(os.path.join(out, "ours", f"{pair}-{kind}.dist"))]
            theirs = [float(l) for l in open(coal)]
            agree = f"{sum(abs(a - b) <= 1e-5 * (1 + b) for a, b in zip(mine, theirs))}/{len(mine)}"
        peer = f"{fastest[0]} {fastest[1]:.0f}" if fastest else "-"
        ratio = f"{p['query_us_mean'] / fastest[1]:.3f}" if fastest else "-"
        print(f"| {pair} | {kind} | {p['query_us_mean']:.1f} / {p['query_us_median']:.1f} | "
              f"{c['query_us_mean']:.1f} | {peer} | {ratio} | {c['query_us_mean'] / p['query_us_mean']:.2f} | "
              f"{p['volume_tests_mean']:.0f} | {p['triangle_tests_mean']:.0f} | {p['touching']} | {agree} |")


if __name__ == "__main__":
    main(sys.argv[1])
