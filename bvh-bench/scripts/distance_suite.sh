#!/usr/bin/env bash
# The distance measurements of docs/distance.md: every anchors pair, random poses and a smooth
# path, `bvh-bench poses --query distance --cache both`, and FCL's and Coal's distance variants
# (obbrss_dist, rss_dist) on the same pose files when FCL and COAL name the anchors' harnesses
# (../shared/anchors/build.sh builds them); then one table: ours against the fastest of them,
# cached against uncached, and how many distances agree with Coal's (f64) within 1e-5 relative.
# Needs python3 with numpy (the anchors' generators) and ../shared beside the repository.
# With ROUNDS above one, each pose set's runs and the peers' alternate round after round, so the
# machine's drift falls on all alike: the table gives the medians, and the medians of the rounds'
# own ratios. ONLY="env-rob lucy-dragon" keeps those pairs alone.
# Usage: [ROUNDS=1] [ONLY=PAIRS] [FCL=/tmp/anchors-target/cpp/anchor-fcl] \
#   [COAL=/tmp/anchors-target/cpp/anchor-coal] bvh-bench/scripts/distance_suite.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/pose-suite}
SHARED=../shared
. bvh-bench/scripts/anchor_pairs.sh
mkdir -p "$OUT/dist"
: > "$OUT/dist/results.jsonl"
record() {
  while read -r line; do
    echo "{\"pair\":\"$name\",\"kind\":\"$kind\",\"backend\":\"$1\",\"round\":$round,\"result\":$line}"
  done >> "$OUT/dist/results.jsonl"
}
while IFS=: read -r name scene part scale; do
  [ -n "${ONLY:-}" ] && ! grep -qw -- "$name" <<< "$ONLY" && continue
  for kind in random path; do
    poses=$(pose_file "$name" "$scene" "$part" "$scale" $kind)
    for round in $(seq "${ROUNDS:-1}"); do
      mkdir -p "$OUT/dist/ours"
      $BIN poses --scene "$scene" --part "$part" --poses "$poses" --query distance --cache both --reps 3 \
        --out "$OUT/dist/ours/$name-$kind.dist" | record ours
      for backend in fcl coal; do
        harness=${FCL:-}; [ $backend = coal ] && harness=${COAL:-}
        [ -n "$harness" ] || continue
        mkdir -p "$OUT/dist/$backend/$name-$kind"
        "$harness" "$scene" "$part" "$poses" "$OUT/dist/$backend/$name-$kind" --reps 3 --build-reps 1 \
          --variants obbrss_dist,rss_dist | record $backend
      done
    done
  done
done <<< "$PAIRS_AND_ENV_ROB"
python3 bvh-bench/scripts/distance_table.py "$OUT/dist"
