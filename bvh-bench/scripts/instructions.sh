#!/usr/bin/env bash
# Builds of the bench compared by the instructions one query executes (valgrind's callgrind,
# counting only inside the query), on the first N poses of one anchors pair's pose file. Unlike
# time, the count does not drift with the machine's load, so one run tells a change of a few
# percent; it leaves out memory waits, which bound first contact on random poses far more than
# a search for every pair (docs/query.md, "Where an all-pairs query spends its time"). Needs
# valgrind and ../shared beside the repository (the pair's meshes and pose file are made if
# missing). Each pose is queried twice (the timed pass and the statistics pass): the figure is
# the mean over both.
# Usage: [KIND=random] [N=100] [PRESET=co] [OUT=/tmp/pose-suite] \
#   bvh-bench/scripts/instructions.sh PAIR QUERY BIN...
# QUERY is any, all, within=D, distance or regions; e.g. cp target/release/bvh-bench /tmp/before;
# (change, build); bvh-bench/scripts/instructions.sh scans all /tmp/before target/release/bvh-bench
set -euo pipefail
cd "$(dirname "$0")/../.."
pair=$1 query=$2
shift 2
case $query in
  any) counted=intersects_counted ;;
  all) counted=intersecting_pairs_counted ;;
  within=*) counted=pairs_within_counted ;;
  distance) counted=distance_counted ;;
  regions) counted=contact_regions_counted ;;
  *) echo "no query $query" >&2; exit 1 ;;
esac
OUT=${OUT:-/tmp/pose-suite}
SHARED=../shared
. bvh-bench/scripts/anchor_pairs.sh
pick_pair "$pair" "${KIND:-random}"
n=${N:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n "$n" "$poses" > "$work/poses.txt"
n=$(wc -l < "$work/poses.txt")
for bin in "$@"; do
  RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    --toggle-collect="*HierarchyQuery*$counted*" "$bin" poses --scene "$scene" --part "$part" \
    --poses "$work/poses.txt" --query "$query" --preset "${PRESET:-co}" --reps 1 > /dev/null 2> "$work/log"
  total=$(grep -E "^(summary|totals):" "$work/out" | head -1 | awk '{print $2}')
  echo "$bin $((total / (2 * n))) instructions per query ($pair ${KIND:-random}, $n poses, $query)"
done
