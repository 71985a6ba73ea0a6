#!/usr/bin/env python3
"""A scene of scanned meshes side by side, for the pose suites: Lucy, the horse and the bunny of
../shared/meshes, each scaled to the same size (its box diagonal 1000) and placed along x with a
gap of a fifth of that between their boxes, all standing on z = 0 – a large scanned scene of
266k triangles, shaped like the generated bays – and the bunny again, scaled to a third of that
size, as the part (69k triangles). Writes SCENE.obj and PART.obj (vertices and faces only).

Usage: scan_composite.py SHARED_MESHES SCENE.obj PART.obj
"""
import sys

import numpy as np

SIZE = 1000.0


def load(path):
    vertices, faces = [], []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                vertices.append([float(x) for x in line.split()[1:4]])
            elif line.startswith("f "):
                corners = [int(c.split("/")[0]) for c in line.split()[1:]]
                corners = [c - 1 if c > 0 else len(vertices) + c for c in corners]
                faces.extend([corners[0], corners[k], corners[k + 1]] for k in range(1, len(corners) - 1))
    return np.array(vertices), np.array(faces, dtype=np.int64)


def fitted(vertices, size):
    """Scaled so its box diagonal is `size`, its box's minimum corner at the origin."""
    lo, hi = vertices.min(0), vertices.max(0)
    return (vertices - lo) * (size / np.linalg.norm(hi - lo))


def write(path, pieces):
    with open(path, "w") as f:
        base = 0
        for vertices, faces in pieces:
            f.writelines("v %.6f %.6f %.6f\n" % tuple(v) for v in vertices)
            f.writelines("f %d %d %d\n" % tuple(t + base + 1) for t in faces)
            base += len(vertices)


def main(shared, scene_path, part_path):
    pieces, x = [], 0.0
    for name in ["vtk_lucy.obj", "vtk_horse.obj", "c3d_stanford-bunny.obj"]:
        vertices, faces = load(f"{shared}/{name}")
        vertices = fitted(vertices, SIZE)
        vertices[:, 0] += x
        x = vertices[:, 0].max() + 0.2 * SIZE
        pieces.append((vertices, faces))
    write(scene_path, pieces)
    vertices, faces = load(f"{shared}/c3d_stanford-bunny.obj")
    write(part_path, [(fitted(vertices, SIZE / 3), faces)])
    total = sum(len(f) for _, f in pieces)
    print(f"{scene_path}: {total} triangles; {part_path}: {len(faces)} triangles", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:4])
