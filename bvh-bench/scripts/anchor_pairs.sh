# Sourced by the suites: builds the bench, generates the anchors' synthetic meshes and the
# scanned composite (scan_composite.py: three scans side by side, a fourth as the part) into
# $OUT/meshes if missing, and sets BIN, M, E and PAIRS (one line per pair: name, scene, part,
# the calibrated random-pose scale), and PAIRS_AND_ENV_ROB (those and FCL's own env/rob pair),
# and defines pose_file and pick_pair. Expects OUT and SHARED.
mkdir -p "$OUT" "$OUT/meshes"
cargo build --release -q -p bvh-bench
BIN=target/release/bvh-bench
M=$OUT/meshes
[ -f "$M/bay150k.obj" ] || python3 $SHARED/anchors/gen_meshes.py "$M"
E=$SHARED/meshes
[ -f "$M/scans3.obj" ] && [ -f "$M/scan-part.obj" ] || python3 bvh-bench/scripts/scan_composite.py "$E" "$M/scans3.obj" "$M/scan-part.obj"
PAIRS="bay150k:$M/bay150k.obj:$M/part9k.obj:1.189
bay500k:$M/bay500k.obj:$M/part34k.obj:1.189
lucy-dragon:$E/vtk_lucy.obj:$E/srt_dragon_23k.obj:0.7401
bunny-bracket:$E/c3d_stanford-bunny.obj:$E/jig_bracket-3.obj:1.682
scans:$M/scans3.obj:$M/scan-part.obj:1.0"
PAIRS_AND_ENV_ROB="$PAIRS
env-rob:$E/fcl_env.obj:$E/fcl_rob.obj:1.0"
# The pose file of pair NAME's pose set (random or path, seed 1 unless given), made by the
# anchors' generator if missing: pose_file NAME SCENE PART SCALE KIND [SEED].
pose_file() {
  local seed=${6:-1} file=$OUT/$1-$5.txt
  [ "$seed" = 1 ] || file=$OUT/$1-$5-$seed.txt
  [ -f "$file" ] || python3 $SHARED/anchors/gen_poses.py "$2" "$3" 1000 "$seed" "$5" "$file" --scale "$4" >/dev/null
  echo "$file"
}
# Sets scene, part and poses for pair NAME (any of PAIRS_AND_ENV_ROB) and pose set KIND, or
# stops the script: pick_pair NAME KIND.
pick_pair() {
  local line name scale
  line=$(grep "^$1:" <<< "$PAIRS_AND_ENV_ROB") || { echo "no pair $1" >&2; exit 1; }
  IFS=: read -r name scene part scale <<< "$line"
  poses=$(pose_file "$name" "$scene" "$part" "$scale" "$2")
}
