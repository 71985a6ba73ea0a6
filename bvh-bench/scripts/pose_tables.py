#!/usr/bin/env python3
"""The tables of docs/notes/query-2026-11.md from a pose suite's results.jsonl (pose_suite.sh writes it).

Usage: pose_tables.py OUTDIR/results.jsonl
"""
import json
import sys

NAMES = {
    "bay150k": "bay150k / part9k",
    "bay500k": "bay500k / part34k",
    "lucy-dragon": "Lucy 100k / dragon 23k",
    "bunny-bracket": "bunny 69k / bracket 15k",
    "scans": "3 scans 266k / bunny 69k",
}


def load(path):
    """Results by (pair, poses kind), then by variant (FCL's as fcl-<its variant>)."""
    runs = {}
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            r = d["result"]
            variant = "fcl-" + r["variant"] if d["variant"] == "fcl" else d["variant"]
            runs.setdefault((d["pair"], d["poses_kind"]), {})[variant] = r
    return runs


def first_contact_runs(runs):
    """Per pose set with first-contact runs (the random poses and the first path): its pair,
    kind, every run, and the uncached and cached first-contact results."""
    for (pair, kind), v in runs.items():
        if "--query any" in v and kind in ("random", "path"):
            yield pair, kind, v, v["--query any"], v["--query any --cache"]


def ratio(a, b):
    return f"{a / b:.2f}"


def first_contact(runs):
    print("| pair | poses | ours | ours + cache | parry `intersection_test` | parry BVTT | FCL OBB "
          "| ours / BVTT: means · medians · per pose | ours / FCL OBB, mean · median |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for pair, kind, v, a, c in first_contact_runs(runs):
        f = v.get("fcl-obb_bool")
        fcl = f"{f['per_query_us']:.1f} / {f['pose_us_p50']:.1f}" if f else "–"
        vs_fcl = (f"{ratio(a['query_us_mean'], f['per_query_us'])} · {ratio(a['query_us_median'], f['pose_us_p50'])}"
                  if f else "–")
        print(f"| {NAMES[pair]} | {kind} | {a['query_us_mean']:.2f} / {a['query_us_median']:.2f} "
              f"| {c['query_us_mean']:.2f} / {c['query_us_median']:.2f} "
              f"| {a['parry_query_us_mean']:.0f} / {a['parry_query_us_median']:.1f} "
              f"| {a['parry_bvtt_query_us_mean']:.1f} / {a['parry_bvtt_query_us_median']:.2f} | {fcl} "
              f"| {ratio(a['query_us_mean'], a['parry_bvtt_query_us_mean'])} · "
              f"{ratio(a['query_us_median'], a['parry_bvtt_query_us_median'])} · "
              f"{a['ours_over_parry_bvtt_pose_median']:.2f} | {vs_fcl} |")


def all_contacts(runs):
    print("| pair | poses | ours, mean / median µs | FCL OBBRSS, mean / median | ours / FCL, mean · median "
          "| volume tests | triangle tests | pairs per pose |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (pair, kind), v in runs.items():
        if "--query all" not in v or "fcl-obbrss_all" not in v:
            continue
        a, f = v["--query all"], v["fcl-obbrss_all"]
        print(f"| {NAMES[pair]} | {kind} | {a['query_us_mean']:,.0f} / {a['query_us_median']:,.1f} "
              f"| {f['per_query_us']:,.0f} / {f['pose_us_p50']:,.1f} "
              f"| {ratio(a['query_us_mean'], f['per_query_us'])} · {ratio(a['query_us_median'], f['pose_us_p50'])} "
              f"| {a['volume_tests_mean']:,.0f} | {a['triangle_tests_mean']:,.0f} | {a['results_total'] / a['poses']:,.0f} |")


def cache_and_parry(runs):
    print("| pair | poses | cached / uncached, mean · median | ours / parry `intersection_test`: mean · per pose "
          "| disagreements with parry (exact distance, m) |")
    print("|---|---|---:|---:|---|")
    for pair, kind, _, a, c in first_contact_runs(runs):
        gaps = ", ".join(f"{x.get('exact_distance', x.get('exact_distance_over'))}" for x in a["disagreement_details"])
        print(f"| {NAMES[pair]} | {kind} | {ratio(c['query_us_mean'], a['query_us_mean'])} · "
              f"{ratio(c['query_us_median'], a['query_us_median'])} "
              f"| {a['query_us_mean'] / a['parry_query_us_mean']:.3f} · {a['ours_over_parry_pose_median']:.3f} "
              f"| {a['disagreements']} ({gaps}) |")


def cache_over_paths(runs):
    """Cached over uncached first contact on all of a pair's paths: the means summed over the
    paths, and the range of the single paths' ratios."""
    print("| pair | paths | cached / uncached, summed means | single paths |")
    print("|---|---:|---:|---:|")
    by_pair = {}
    for (pair, kind), v in runs.items():
        if kind.startswith("path") and "--query any --cache" in v:
            by_pair.setdefault(pair, []).append((v["--query any --cache"]["query_us_mean"], v["--query any"]["query_us_mean"]))
    for pair, paths in by_pair.items():
        singles = [c / u for c, u in paths]
        total = sum(c for c, _ in paths) / sum(u for _, u in paths)
        print(f"| {NAMES[pair]} | {len(paths)} | {total:.3f} | {min(singles):.2f}–{max(singles):.2f} |")


def presets(runs):
    print("| preset | mean / median µs | / parry BVTT: means · medians · per pose "
          "| / parry `intersection_test`: means · medians · per pose | volume tests |")
    print("|---|---:|---:|---:|---:|")
    for v in runs.values():
        for variant, r in v.items():
            if not variant.startswith("--preset"):
                continue
            if "parry_query_us_mean" in r:
                vs_bvtt = (f"{ratio(r['query_us_mean'], r['parry_bvtt_query_us_mean'])} · "
                           f"{ratio(r['query_us_median'], r['parry_bvtt_query_us_median'])} · "
                           f"{r['ours_over_parry_bvtt_pose_median']:.2f}")
                vs_public = (f"{r['query_us_mean'] / r['parry_query_us_mean']:.3f} · "
                             f"{r['query_us_median'] / r['parry_query_us_median']:.3f} · "
                             f"{r['ours_over_parry_pose_median']:.3f}")
            else:
                vs_bvtt = vs_public = "–"
            print(f"| {r['preset']} | {r['query_us_mean']:.2f} / {r['query_us_median']:.2f} "
                  f"| {vs_bvtt} | {vs_public} | {r['volume_tests_mean']:.1f} |")


def main():
    runs = load(sys.argv[1])
    for table in (first_contact, all_contacts, cache_and_parry, cache_over_paths, presets):
        table(runs)
        print()


if __name__ == "__main__":
    main()
