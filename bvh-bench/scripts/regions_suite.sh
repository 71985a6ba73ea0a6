#!/usr/bin/env bash
# The contact-region measurements of issue 29: every anchors pair and FCL's env/rob on random
# poses, `bvh-bench poses --query regions` on one thread and split across the threads (`--split`),
# `--query all` for the pairs alone, and FCL's all-contacts query (`obbrss_all`) on the same pose
# files in the same session; then one table of the ratios. With ROUNDS above one, each pair's runs
# and FCL's alternate round after round, so the machine's drift falls on both alike: the table
# gives the medians, and the median of the rounds' ratios. Needs ../shared beside the repository
# and the FCL harness (../shared/anchors/build.sh builds it).
# ONLY="bay500k env-rob" keeps those pairs alone.
# Usage: [ROUNDS=1] [ONLY=PAIRS] [FCL=/tmp/anchors-target/cpp/anchor-fcl] bvh-bench/scripts/regions_suite.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/pose-suite}
SHARED=../shared
FCL=${FCL:-/tmp/anchors-target/cpp/anchor-fcl}
. bvh-bench/scripts/anchor_pairs.sh
mkdir -p "$OUT/regions"
: > "$OUT/regions/results.jsonl"
record() {
  while read -r line; do echo "{\"pair\":\"$1\",\"run\":\"$2\",\"round\":$round,\"result\":$line}"; done \
    >> "$OUT/regions/results.jsonl"
}
while IFS=: read -r name scene part scale; do
  [ "$name" = scans ] && continue
  [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<< "$ONLY" && continue
  poses=$(pose_file "$name" "$scene" "$part" "$scale" random)
  for round in $(seq "${ROUNDS:-1}"); do
    for run in "regions" "regions --split" "all"; do
      # shellcheck disable=SC2086
      RAYON_NUM_THREADS=$([ "$run" = "regions --split" ] && nproc || echo 1) \
        $BIN poses --scene "$scene" --part "$part" --poses "$poses" --query $run --reps 3 | record "$name" "${run// /}"
    done
    mkdir -p "$OUT/regions/fcl-$name"
    "$FCL" "$scene" "$part" "$poses" "$OUT/regions/fcl-$name" --reps 3 --build-reps 1 --variants obbrss_all \
      | record "$name" fcl
  done
done <<< "$PAIRS_AND_ENV_ROB"
python3 bvh-bench/scripts/regions_table.py "$OUT/regions"
