#!/usr/bin/env bash
# The time-of-impact measurements: every anchors pair, random poses and a smooth path, each pose
# to the next as a motion (`bvh-bench poses --query toi --verify 1000`: every answer checked
# against 1,000 samples of its motion and the distance at it), slerp and screw, the tolerance
# 1e-4 of the scene's diagonal; and FCL 0.7's conservative advancement (peers/fcl_toi.cpp,
# RSS trees, CCDM_LINEAR / CCDM_SCREW) on the first FCL_MOTIONS motions of the same files, its
# answers judged by our samples. Needs libfcl-dev (apt), python3 with numpy and ../shared beside
# the repository. PRESETS (comma-separated, default co) are all timed and verified, the first
# one's times in the table. Usage: [FCL_MOTIONS=50] [PRESETS=co] bvh-bench/scripts/toi_suite.sh
# [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/pose-suite}
SHARED=../shared
. bvh-bench/scripts/anchor_pairs.sh
mkdir -p "$OUT/toi"
FCL_TOI=$OUT/toi/fcl-toi
g++ -std=c++17 -O3 -DNDEBUG -I/usr/include/eigen3 -I$SHARED/anchors/common bvh-bench/peers/fcl_toi.cpp \
  -o "$FCL_TOI" -lfcl -lccd -lm
: > "$OUT/toi/results.jsonl"
while IFS=: read -r name scene part scale; do
  tolerance=$($BIN info --json "$scene" | python3 -c '
import json, sys
parts = json.load(sys.stdin)["parts"]
lo = [min(p["bounds"][0][d] for p in parts) for d in range(3)]
hi = [max(p["bounds"][1][d] for p in parts) for d in range(3)]
print("%.3g" % (1e-4 * sum((h - l) ** 2 for l, h in zip(lo, hi)) ** 0.5))')
  for kind in random path; do
    poses=$(pose_file "$name" "$scene" "$part" "$scale" $kind)
    head -n $((${FCL_MOTIONS:-50} + 1)) "$poses" > "$OUT/toi/$name-$kind-prefix.txt"
    for motion in slerp screw; do
      fcl_motion=linear; [ $motion = screw ] && fcl_motion=screw
      tag=$name-$kind-$motion
      $BIN poses --scene "$scene" --part "$part" --poses "$poses" --query toi --motion $motion --preset "${PRESETS:-co}" \
        --tolerance "$tolerance" --verify 1000 --reps 3 --out "$OUT/toi/ours-$tag.txt" \
        | while read -r line; do echo "{\"pair\":\"$name\",\"kind\":\"$kind\",\"motion\":\"$motion\",\"backend\":\"ours\",\"result\":$line}"; done \
        >> "$OUT/toi/results.jsonl"
      [ "${FCL_MOTIONS:-50}" -gt 0 ] || continue
      "$FCL_TOI" "$scene" "$part" "$OUT/toi/$name-$kind-prefix.txt" "$OUT/toi/fcl-$tag.txt" --motion $fcl_motion --reps 1 \
        | while read -r line; do echo "{\"pair\":\"$name\",\"kind\":\"$kind\",\"motion\":\"$motion\",\"backend\":\"fcl\",\"result\":$line}"; done \
        >> "$OUT/toi/results.jsonl"
    done
  done
done <<< "$PAIRS_AND_ENV_ROB"
python3 bvh-bench/scripts/toi_table.py "$OUT/toi"
