#!/usr/bin/env bash
# First contact and all intersecting pairs against PhysX 5.1 (issue 35): every anchors pair and
# FCL's env/rob, random poses and a smooth path, `bvh-bench poses --query any` and `--query all`
# on one thread, and the anchors' PhysX harness (`overlap_any`, `overlap_all`) on the same pose
# files in the same session; then one table: the ratios, and where PhysX's answers differ from
# ours (yes/no per pose, pair counts per pose). Needs ../shared beside the repository and the
# PhysX harness (../shared/anchors/build.sh builds it).
# ROUNDS (default 1) times each pose set that many times, ours and PhysX in turn: on a shared
# machine the two drift apart from run to run, and the table takes each set's median.
# PAIRS_ONLY (names, space-separated) keeps only those pairs. DISPUTED (default 20): on how many
# of the poses where PhysX's pair count differs from ours its pairs are fetched and each pair
# only one side reports is measured (how far apart, in last places of its coordinates).
# PRESET (default co) is the hierarchy preset of ours.
# Usage: [PHYSX=...] [ROUNDS=3] [PAIRS_ONLY="scans env-rob"] [PRESET=co-binned]
#        bvh-bench/scripts/physx_suite.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/pose-suite}
SHARED=../shared
PHYSX=${PHYSX:-/tmp/anchors-target/release/anchor-physx}
ROUNDS=${ROUNDS:-1}
PRESET=${PRESET:-co}
. bvh-bench/scripts/anchor_pairs.sh
mkdir -p "$OUT/physx"
: > "$OUT/physx/results.jsonl"
# Appends each JSON line of standard input to the results, tagged with the pair, pose set,
# back-end and round.
tag() {
  while read -r line; do
    echo "{\"pair\":\"$1\",\"kind\":\"$2\",\"backend\":\"$3\",\"round\":$4,\"result\":$line}"
  done >> "$OUT/physx/results.jsonl"
}
while IFS=: read -r name scene part scale; do
  case " ${PAIRS_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
  for kind in random path; do
    poses=$(pose_file "$name" "$scene" "$part" "$scale" $kind)
    dir=$OUT/physx/$name-$kind
    mkdir -p "$dir"
    for round in $(seq "$ROUNDS"); do
      for query in any all; do
        RAYON_NUM_THREADS=1 $BIN poses --scene "$scene" --part "$part" --poses "$poses" --query $query \
          --preset "$PRESET" --reps 3 --out "$dir/ours-$query.txt" | tag "$name" $kind ours "$round"
      done
      "$PHYSX" "$scene" "$part" "$poses" "$dir" --reps 3 --build-reps 1 --variants overlap_any,overlap_all \
        | tag "$name" $kind physx "$round"
    done
    # Where the pair counts differ (the first DISPUTED poses, default 20): PhysX's pairs there,
    # and each pair only one side reports measured by `bvh-bench peer-pairs`.
    differing=$(python3 bvh-bench/scripts/physx_table.py --differing "$dir/ours-all.txt" \
      "$dir/physx-overlap_all.pairs" "${DISPUTED:-20}")
    : > "$dir/disputed.jsonl"
    if [ -n "$differing" ]; then
      "$PHYSX" "$scene" "$part" "$poses" --dump-pairs "$differing" > "$dir/physx-dump.json"
      $BIN peer-pairs --scene "$scene" --part "$part" --poses "$poses" --pairs "$dir/physx-dump.json" \
        --preset "$PRESET" > "$dir/disputed.jsonl"
    fi
  done
done <<< "$PAIRS_AND_ENV_ROB"
python3 bvh-bench/scripts/physx_table.py "$OUT/physx"
