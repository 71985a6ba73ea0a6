#!/usr/bin/env bash
# The query measurements of docs/notes/query-2026-11.md: every anchors pair, random poses and a smooth path,
# first contact (with and without the cache) and all contacts, each against parry3d in the same
# process, timed pose by pose side by side; the cache on five more paths per pair; then every
# preset on one pair, the same way. Needs
# python3 with numpy (the anchors' generators) and ../shared beside the repository. With FCL set
# to the anchors' FCL harness (built by ../shared/anchors/build.sh), FCL's OBB tree and
# all-contacts runs time the same pose files in the same session, so ratios do not depend on how
# fast the shared machine is that day.
# Usage: [FCL=/tmp/anchors-target/cpp/anchor-fcl] bvh-bench/scripts/pose_suite.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/pose-suite}
SHARED=../shared
. bvh-bench/scripts/anchor_pairs.sh
: > "$OUT/results.jsonl"
# Runs `bvh-bench poses` with parry beside it on pose set KIND of pair NAME and appends each line
# it prints to the results, labelled: the uncached first contact, the cached, or all contacts.
record() {
  local name=$1 kind=$2 scene=$3 part=$4 query=$5
  $BIN poses --scene "$scene" --part "$part" --poses "$OUT/$name-$kind.txt" $query --vs-parry --reps 3 \
    | while read -r line; do
        case "$query,$line" in
          *'--query all'*) variant="--query all" ;;
          *'"cache":true'*) variant="--query any --cache" ;;
          *) variant="--query any" ;;
        esac
        echo "{\"pair\":\"$name\",\"poses_kind\":\"$kind\",\"variant\":\"$variant\",\"result\":$line}" >> "$OUT/results.jsonl"
      done
}
while IFS=: read -r name scene part scale; do
  for kind in random path; do
    poses=$(pose_file "$name" "$scene" "$part" "$scale" $kind)
    # First contact with and without the cache, and parry's walk, timed pose by pose side by
    # side (one line each, the uncached first); then all contacts.
    record "$name" $kind "$scene" "$part" "--query any --cache both"
    record "$name" $kind "$scene" "$part" "--query all"
    if [ -n "${FCL:-}" ]; then
      mkdir -p "$OUT/fcl/$name-$kind"
      "$FCL" "$scene" "$part" "$poses" "$OUT/fcl/$name-$kind" --reps 3 --build-reps 1 --variants obb_bool,obbrss_all \
        | while read -r line; do
            echo "{\"pair\":\"$name\",\"poses_kind\":\"$kind\",\"variant\":\"fcl\",\"result\":$line}" >> "$OUT/results.jsonl"
          done
    fi
  done
  # Five more paths (other seeds) for the cache: a single path's cached / uncached ratio moves
  # by ±0.03 from run to run with the few frames whose contact jumps.
  for seed in 2 3 4 5 6; do
    poses=$(pose_file "$name" "$scene" "$part" "$scale" path $seed)
    record "$name" path-$seed "$scene" "$part" "--query any --cache both"
  done
done <<< "$PAIRS"
# The presets timed pose by pose side by side in one process, one line each.
$BIN poses --scene "$M/bay150k.obj" --part "$M/part9k.obj" --poses "$OUT/bay150k-random.txt" \
  --preset rapid,sao,ao,co,sphere-obb,classified,aabb --vs-parry --reps 3 \
  | while read -r line; do
      preset=$(echo "$line" | sed 's/^{"preset":"\([^"]*\)".*/\1/')
      echo "{\"pair\":\"bay150k\",\"poses_kind\":\"random\",\"variant\":\"--preset $preset\",\"result\":$line}" >> "$OUT/results.jsonl"
    done
echo "results: $OUT/results.jsonl"
python3 bvh-bench/scripts/pose_tables.py "$OUT/results.jsonl"
