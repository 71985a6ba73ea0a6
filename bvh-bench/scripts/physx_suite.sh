#!/usr/bin/env bash
# First contact and all intersecting pairs against PhysX 5.1 (issue 35): every anchors pair and
# FCL's env/rob, random poses and a smooth path, `bvh-bench poses --query any` and `--query all`
# on one thread, and the anchors' PhysX harness (`overlap_any`, `overlap_all`) on the same pose
# files in the same session; then one table: the ratios, and where PhysX's answers differ from
# ours (yes/no per pose, pair counts per pose). Needs ../shared beside the repository and the
# PhysX harness (../shared/anchors/build.sh builds it).
# Usage: [PHYSX=/tmp/anchors-target/release/anchor-physx] bvh-bench/scripts/physx_suite.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/pose-suite}
SHARED=../shared
PHYSX=${PHYSX:-/tmp/anchors-target/release/anchor-physx}
. bvh-bench/scripts/anchor_pairs.sh
mkdir -p "$OUT/physx"
: > "$OUT/physx/results.jsonl"
while IFS=: read -r name scene part scale; do
  for kind in random path; do
    poses=$(pose_file "$name" "$scene" "$part" "$scale" $kind)
    dir=$OUT/physx/$name-$kind
    mkdir -p "$dir"
    for query in any all; do
      RAYON_NUM_THREADS=1 $BIN poses --scene "$scene" --part "$part" --poses "$poses" --query $query --reps 3 \
        --out "$dir/ours-$query.txt" \
        | while read -r line; do echo "{\"pair\":\"$name\",\"kind\":\"$kind\",\"backend\":\"ours\",\"result\":$line}"; done \
        >> "$OUT/physx/results.jsonl"
    done
    "$PHYSX" "$scene" "$part" "$poses" "$dir" --reps 3 --build-reps 1 --variants overlap_any,overlap_all \
      | while read -r line; do echo "{\"pair\":\"$name\",\"kind\":\"$kind\",\"backend\":\"physx\",\"result\":$line}"; done \
      >> "$OUT/physx/results.jsonl"
  done
done <<< "$PAIRS_AND_ENV_ROB"
python3 bvh-bench/scripts/physx_table.py "$OUT/physx"
