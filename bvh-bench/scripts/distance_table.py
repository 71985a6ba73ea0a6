#!/usr/bin/env python3
"""The distance table of a distance suite run (distance_suite.sh): per pair and pose set, ours
(uncached and cached) against the fastest of FCL's and Coal's distance variants, and how many of
our distances agree with Coal's RSS (f64) within 1e-5 relative. Over several rounds (ROUNDS in
distance_suite.sh) each time is the median of the rounds, and each ratio the median of the
rounds' own ratios (ours against the fastest peer of the same round, cached against uncached).

Usage: distance_table.py OUTDIR/dist
"""
import os
import statistics
import sys

from suite_results import records


def main(out):
    # Per pair and pose set, per round (records without a round are one round): our runs, and
    # each peer variant's time.
    ours, peers = {}, {}
    for d in records(out):
        key, r, round_ = (d["pair"], d["kind"]), d["result"], d.get("round", 1)
        if d["backend"] == "ours":
            ours.setdefault(key, {}).setdefault(round_, {})["cached" if r["cache"] else "plain"] = r
        else:
            peers.setdefault(key, {}).setdefault(round_, {})[f'{d["backend"]} {r["variant"]}'] = r["per_query_us"]
    print("| pair | poses | rounds | ours mean / median µs | cached mean µs | fastest peer µs | ours ÷ fastest "
          "| cached ÷ uncached | volume tests | triangle tests | touching | equal to Coal |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    for (pair, kind), rounds in ours.items():
        plain = {k: r["plain"] for k, r in rounds.items()}
        cached = {k: r.get("cached", r["plain"]) for k, r in rounds.items()}
        fastest = {k: min(v.items(), key=lambda kv: kv[1]) for k, v in peers.get((pair, kind), {}).items() if v}
        median = statistics.median
        mean = median(p["query_us_mean"] for p in plain.values())
        p = plain[min(plain)]
        peer, ratio = "-", "-"
        if fastest:
            # The peer variant fastest most often, at the median of its fastest times.
            names = [name for name, _ in fastest.values()]
            name = max(set(names), key=names.count)
            peer = f"{name} {median(t for _, t in fastest.values()):.0f}"
            ratio = f"{median(plain[k]['query_us_mean'] / fastest[k][1] for k in fastest if k in plain):.3f}"
        agree = "-"
        coal = os.path.join(out, "coal", f"{pair}-{kind}", "coal-rss_dist.dist")
        if os.path.exists(coal):
            mine = [float(l.split()[0]) for l in open(os.path.join(out, "ours", f"{pair}-{kind}.dist"))]
            theirs = [float(l) for l in open(coal)]
            agree = f"{sum(abs(a - b) <= 1e-5 * (1 + b) for a, b in zip(mine, theirs))}/{len(mine)}"
        cache_ratio = median(cached[k]["query_us_mean"] / plain[k]["query_us_mean"] for k in plain)
        print(f"| {pair} | {kind} | {len(plain)} | {mean:.1f} / {median(q['query_us_median'] for q in plain.values()):.1f} | "
              f"{median(c['query_us_mean'] for c in cached.values()):.1f} | {peer} | {ratio} | {cache_ratio:.2f} | "
              f"{p['volume_tests_mean']:.0f} | {p['triangle_tests_mean']:.0f} | {p['touching']} | {agree} |")


if __name__ == "__main__":
    main(sys.argv[1])
