"""Axis-aligned bounding boxes of the broad phase (closed forms per shape) against the
support function: for every primitive and a hull in random poses, the box is exactly
the world extent of the shape (support points along ±x, ±y, ±z), grown by the margin."""

import numpy as np
import pytest

from merganser.geometry.proximity.broad_phase import compute_aabbs
from merganser.geometry.proximity.support import (
    BOX, CAPSULE, CONVEX, CYLINDER, ELLIPSOID, HALFSPACE, SPHERE, support,
)

SHAPES = [
    (SPHERE, [0.3]),
    (BOX, [0.1, 0.25, 0.4]),
    (CAPSULE, [0.05, 0.3]),
    (CYLINDER, [0.2, 0.15]),
    (ELLIPSOID, [0.3, 0.1, 0.2]),
    (CONVEX, list(np.random.default_rng(4).normal(size=(12, 3)).ravel())),
]


def _random_pose(rng):
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                  [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                  [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    X = np.eye(4)
    X[:3, :3], X[:3, 3] = R, rng.normal(size=3)
    return X


@pytest.mark.parametrize("margin", [0.0, 0.01])
def test_boxes_are_the_support_extents(margin):
    rng = np.random.default_rng(1)
    gtype = np.array([t for t, _ in SHAPES] + [HALFSPACE], dtype=np.int64)
    params = np.concatenate([np.asarray(p, dtype=float) for _, p in SHAPES] + [np.zeros(0)])
    pstart = np.cumsum([0] + [len(p) for _, p in SHAPES] + [0]).astype(np.int64)
    for _ in range(20):
        X_WG = np.array([_random_pose(rng) for _ in range(len(gtype))])
        aabb = np.zeros((len(gtype), 6))
        compute_aabbs(gtype, pstart, params, X_WG, margin, aabb)
        for i, (t, p) in enumerate(SHAPES):
            prm = np.asarray(p, dtype=float)
            for c in range(3):
                d = np.zeros(3)
                d[c] = 1.0
                hi = support(t, prm, X_WG[i], d[0], d[1], d[2], True)[c]
                lo = support(t, prm, X_WG[i], -d[0], -d[1], -d[2], True)[c]
                assert aabb[i, c] == pytest.approx(lo - margin, abs=1e-12)
                assert aabb[i, 3 + c] == pytest.approx(hi + margin, abs=1e-12)
        assert np.all(np.isinf(aabb[-1])) and np.all(aabb[-1, :3] < 0) and np.all(aabb[-1, 3:] > 0)


def test_sphere_on_half_space_point_rows_equal_the_signed_distance_rows():
    # contact_point_rows takes a sphere against a half space by its deepest point: the
    # same row as the generic signed-distance narrow phase (penetration_rows).
    from merganser.geometry.proximity.scene import contact_point_rows, penetration_rows

    rng = np.random.default_rng(9)
    r = 0.2
    gtype = np.array([SPHERE, HALFSPACE], dtype=np.int64)
    params = np.array([r])
    seen = 0
    for _ in range(50):
        X_WG = np.array([_random_pose(rng), _random_pose(rng)])
        n = X_WG[1, :3, 2]
        X_WG[0, :3, 3] = X_WG[1, :3, 3] + rng.uniform(-0.3, 0.15) * n + 0.5 * rng.normal(size=3)
        for order in ([0, 1], [1, 0]):
            g, X = gtype[order], X_WG[order]
            prm_start = np.array([0, 1, 1], dtype=np.int64) if order == [0, 1] else \
                np.array([0, 0, 1], dtype=np.int64)
            pairs = np.array([[0, 1]], dtype=np.int64)
            rows_a, pairs_a = np.zeros((16, 10)), np.zeros((16, 2), np.int64)
            rows_b, pairs_b = np.zeros((16, 10)), np.zeros((16, 2), np.int64)
            ka = contact_point_rows(g, prm_start, params, X, pairs, 1, rows_a, pairs_a)
            kb = penetration_rows(g, prm_start, params, X, pairs, 1, rows_b, pairs_b)
            assert ka == kb
            if ka:
                seen += 1
                np.testing.assert_allclose(rows_a[0], rows_b[0], atol=1e-12)
                assert rows_a[0, 9] < 0.0
    assert seen > 10
