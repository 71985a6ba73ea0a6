#!/usr/bin/env bash
# Builds of the bench timed against each other on one anchors pair, alternated round by round
# so the machine's drift falls on every build alike (on a shared machine, one build's runs after
# another's drift apart): each build's `poses` mean per round, then its min and median. Needs
# ../shared beside the repository (the pair's meshes and pose file are made if missing).
# Usage: [THREADS=1] [REPS=3] [KIND=random] [OUT=/tmp/pose-suite] \
#   bvh-bench/scripts/ab.sh ROUNDS PAIR "QUERY [ARGS]" BIN...
# e.g. cp target/release/bvh-bench /tmp/before; (change, build); \
#   bvh-bench/scripts/ab.sh 5 bay500k "regions --split" /tmp/before target/release/bvh-bench
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=$1 pair=$2 query=$3
shift 3
OUT=${OUT:-/tmp/pose-suite}
SHARED=../shared
. bvh-bench/scripts/anchor_pairs.sh
pick_pair "$pair" "${KIND:-random}"
for _ in $(seq "$rounds"); do
  for bin in "$@"; do
    # shellcheck disable=SC2086
    mean=$(RAYON_NUM_THREADS=${THREADS:-1} "$bin" poses --scene "$scene" --part "$part" --poses "$poses" \
      --query $query --reps "${REPS:-3}" | tail -1 | python3 -c "import json, sys; print(json.load(sys.stdin)['query_us_mean'])")
    echo "$bin $mean"
  done
done | python3 -c "
import statistics, sys
runs = {}
for line in sys.stdin:
    bin, mean = line.split()
    runs.setdefault(bin, []).append(float(mean))
for bin, means in runs.items():
    print(f'{bin}: min {min(means):.1f} median {statistics.median(means):.1f} µs  (' + ' '.join(f'{m:.1f}' for m in means) + ')')
"
