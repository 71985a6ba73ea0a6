#!/usr/bin/env python3
"""The table of toi_suite.sh: per pair, pose set and motion, our time of impact (the first
preset's mean and median per motion, at-start and other motions apart, advances; late and missed
answers of every preset against 1,000 samples per motion) beside FCL's conservative advancement
on the prefix it ran: its time,
how many of its answers our samples contradict (late: after the first touching sample; missed:
no contact reported where a sample touches), and ours over FCL's time on the motions where FCL
is right."""
import sys
from pathlib import Path

from suite_results import records


def rows(path):
    """Per motion, the fields of its line, `none` as None."""
    return [[None if f == "none" else float(f) for f in line.split()] for line in Path(path).read_text().splitlines() if line]


def time_cell(value):
    """A mean time, or a dash where there was nothing to time."""
    return "–" if value is None else f"{value:.1f}"


def main(folder):
    folder = Path(folder)
    runs = records(folder)
    print("| pair | poses | motion | ours µs mean / median | at start / others | advances | late / missed (motions × presets) "
          "| FCL µs mean (motions) | FCL wrong | ours ÷ FCL where FCL is right |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    seen = []
    for run in runs:
        key = (run["pair"], run["kind"], run["motion"])
        if run["backend"] != "ours" or key in seen:
            continue
        seen.append(key)
        pair, kind, motion = key
        # The first preset's line gives the times; every preset's line its late and missed.
        lines = [x["result"] for x in runs if x["backend"] == "ours" and (x["pair"], x["kind"], x["motion"]) == key]
        r = lines[0]
        late, missed = sum(x["late"] for x in lines), sum(x["missed"] for x in lines)
        fcl = next((x["result"] for x in runs if x["backend"] == "fcl" and (x["pair"], x["kind"], x["motion"]) == key), None)
        tag = f"{pair}-{kind}-{motion}"
        ours = rows(folder / f"ours-{tag}.txt")
        fcl_cells = ["–", "–", "–"]
        if fcl is not None and fcl["motions"] > 0:
            theirs = rows(folder / f"fcl-{tag}.txt")
            wrong, ours_us, fcl_us = 0, 0.0, 0.0
            for (toc, us), (answer, sample, our_us) in zip(theirs, ours):
                # Wrong: later than the first touching sample, or no contact where one touches.
                if sample is not None and (toc is None or toc > sample):
                    wrong += 1
                else:
                    ours_us += our_us
                    fcl_us += us
            ratio = f"{ours_us / fcl_us:.2e}" if fcl_us > 0 else "–"
            fcl_cells = [f"{fcl['query_us_mean']:.0f} ({fcl['motions']})", f"{wrong} of {len(theirs)}", ratio]
        print(f"| {pair} | {kind} | {motion} | {r['query_us_mean']:.1f} / {r['query_us_median']:.1f} "
              f"| {time_cell(r['query_us_mean_touching_at_start'])} / {time_cell(r['query_us_mean_others'])} | {r['advances_mean']:.1f} "
              f"| {late} / {missed} ({r['motions']} × {len(lines)}) | " + " | ".join(fcl_cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/pose-suite/toi")
