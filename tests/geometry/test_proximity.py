"""Narrow-phase proximity against closed forms: sphere-sphere, sphere-box, box-half-space
corners, capsule-capsule, and GJK/EPA pairs against their exact values; every pair is
symmetric under swapping A and B."""

import itertools

import numpy as np
import pytest

from merganser.geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, RigidTransform, \
    RollPitchYaw, Sphere
from merganser.geometry.proximity.narrow_phase import halfspace_contact_points, signed_distance_pair


def signed(shape_a, X_a, shape_b, X_b):
    out = np.zeros(10)
    assert signed_distance_pair(shape_a.type_code, shape_a.kernel_params(),
                                X_a.get_as_matrix4(), shape_b.type_code,
                                shape_b.kernel_params(), X_b.get_as_matrix4(), out)
    return out[0:3], out[3:6], out[6:9], out[9]


def check_consistent(Ca, Cb, n, phi):
    assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-9)
    np.testing.assert_allclose(Ca - Cb, phi * n, atol=1e-7)


def test_sphere_sphere_penetration_matches_closed_form():
    Ca, Cb, n, phi = signed(Sphere(1.0), RigidTransform([0, 0, 0.0]),
                            Sphere(0.5), RigidTransform([1.2, 0, 0]))
    assert phi == pytest.approx(-0.3)
    np.testing.assert_allclose(n, [-1, 0, 0])
    np.testing.assert_allclose(Ca, [1.0, 0, 0])
    np.testing.assert_allclose(Cb, [0.7, 0, 0])


def test_sphere_sphere_distance_along_oblique_axis():
    d = np.array([1.0, 2.0, 2.0]) / 3.0
    Ca, Cb, n, phi = signed(Sphere(0.2), RigidTransform(3.0 * d),
                            Sphere(0.3), RigidTransform([0, 0, 0.0]))
    assert phi == pytest.approx(2.5)
    np.testing.assert_allclose(n, d, atol=1e-12)
    np.testing.assert_allclose(Cb, 0.3 * d, atol=1e-12)


@pytest.mark.parametrize("center, phi, normal", [
    ([0.0, 0.0, 0.8], 0.8 - 0.5 - 0.25, [0, 0, 1]),             # above the top face
    ([0.0, 0.0, 0.6], 0.6 - 0.5 - 0.25, [0, 0, 1]),             # penetrating the top face
    ([1.0, 0.7, 0.0], np.hypot(0.5, 0.2) - 0.25, None),         # beside an edge
    ([0.1, 0.0, 0.3], -(0.2 + 0.25), [0, 0, 1]),                # centre inside
])
def test_sphere_box_matches_closed_form(center, phi, normal):
    box = Box(1.0, 1.0, 1.0)
    X_box = RigidTransform(RollPitchYaw(0.0, 0.0, 0.3), [0.2, -0.1, 0.0])
    p = X_box @ np.array(center)
    Ca, Cb, n, got = signed(Sphere(0.25), RigidTransform(p), box, X_box)
    assert got == pytest.approx(phi, abs=1e-12)
    check_consistent(Ca, Cb, n, got)
    if normal is not None:
        np.testing.assert_allclose(n, X_box.rotation().matrix() @ normal, atol=1e-12)


def test_box_half_space_deepest_corner_and_all_corners():
    box = Box(0.2, 0.2, 0.2)
    # box rotated 45° about x and lowered: its lowest edge (two corners) is below z = 0
    X = RigidTransform(RollPitchYaw(np.pi / 4, 0.0, 0.0), [0.0, 0.0, 0.1])
    ground = RigidTransform()
    Ca, Cb, n, phi = signed(box, X, HalfSpace(), ground)
    assert phi == pytest.approx(0.1 - 0.1 * np.sqrt(2.0))
    np.testing.assert_allclose(n, [0, 0, 1])
    assert Ca[2] == pytest.approx(phi) and Cb[2] == pytest.approx(0.0)
    rows = np.zeros((16, 10))
    k = halfspace_contact_points(box.type_code, box.kernel_params(), X.get_as_matrix4(),
                                 ground.get_as_matrix4(), False, rows, 0)
    assert k == 2                                         # the two corners of the edge
    np.testing.assert_allclose(sorted(rows[:k, 0]), [-0.1, 0.1], atol=1e-12)
    np.testing.assert_allclose(rows[:k, 9], phi, atol=1e-12)


def test_box_resting_flat_gives_four_corner_contacts():
    box = Box(0.1, 0.1, 0.1)
    X = RigidTransform([0.3, 0.0, 0.05 - 1e-3])
    rows = np.zeros((16, 10))
    k = halfspace_contact_points(box.type_code, box.kernel_params(), X.get_as_matrix4(),
                                 np.eye(4), True, rows, 0)
    assert k == 4
    np.testing.assert_allclose(rows[:k, 9], -1e-3, atol=1e-12)
    np.testing.assert_allclose(rows[:k, 6:9], np.tile([0, 0, -1.0], (4, 1)))  # flipped: A = H


@pytest.mark.parametrize("offset, expected", [
    ([0.3, 0.0, 0.0], 0.3 - 0.2),                 # parallel, side by side
    ([0.0, 0.0, 1.5], 1.5 - 1.0 - 0.2),           # end to end (length 1 each)
])
def test_capsule_capsule_parallel(offset, expected):
    cap = Capsule(0.1, 1.0)
    Ca, Cb, n, phi = signed(cap, RigidTransform(offset), cap, RigidTransform())
    assert phi == pytest.approx(expected)
    check_consistent(Ca, Cb, n, phi)


def test_capsule_capsule_crossing_segments():
    a = Capsule(0.1, 2.0)
    b = Capsule(0.05, 2.0)
    X_a = RigidTransform(RollPitchYaw(0, np.pi / 2, 0), [0, 0, 0.12])   # along x, at z .12
    X_b = RigidTransform(RollPitchYaw(np.pi / 2, 0, 0), [0.3, 0, 0])    # along y
    Ca, Cb, n, phi = signed(a, X_a, b, X_b)
    assert phi == pytest.approx(0.12 - 0.15)
    np.testing.assert_allclose(n, [0, 0, 1], atol=1e-12)
    np.testing.assert_allclose(Ca, [0.3, 0, 0.02], atol=1e-12)
    np.testing.assert_allclose(Cb, [0.3, 0, 0.05], atol=1e-12)


def test_box_box_overlap_by_epa_matches_minimum_overlap_axis():
    a, b = Box(1.0, 1.0, 1.0), Box(2.0, 2.0, 0.5)
    Ca, Cb, n, phi = signed(a, RigidTransform([0.1, 0.2, 0.6]), b, RigidTransform())
    assert phi == pytest.approx(-(0.25 - 0.1), abs=1e-8)
    np.testing.assert_allclose(n, [0, 0, 1], atol=1e-8)
    check_consistent(Ca, Cb, n, phi)


def test_box_box_separated_distance_by_gjk():
    a = Box(1.0, 1.0, 1.0)
    Ca, Cb, n, phi = signed(a, RigidTransform([1.0 + 0.3, 0.4, 0.2]), a, RigidTransform())
    assert phi == pytest.approx(0.3, abs=1e-10)
    np.testing.assert_allclose(n, [1, 0, 0], atol=1e-10)


def test_ellipsoid_with_equal_axes_behaves_as_sphere():
    e = Ellipsoid(0.4, 0.4, 0.4)
    X = RigidTransform(RollPitchYaw(0.3, 0.2, 0.1), [0.0, 0.0, 0.0])
    for other_center, expected in (([0.9, 0, 0], 0.9 - 0.6), ([0.5, 0.1, 0], None)):
        c = np.array(other_center)
        Ca, Cb, n, phi = signed(e, X, Sphere(0.2), RigidTransform(c))
        ref = np.linalg.norm(c) - 0.6
        assert phi == pytest.approx(ref if expected is None else expected, abs=2e-6)


def test_cylinder_half_space_uses_rim():
    cyl = Cylinder(0.1, 0.4)
    X = RigidTransform(RollPitchYaw(np.pi / 2, 0, 0), [0, 0, 0.09])     # lying on its side
    _, _, n, phi = signed(cyl, X, HalfSpace(), RigidTransform())
    assert phi == pytest.approx(-0.01)


def test_convex_hull_of_cube_mesh_matches_box(tmp_path):
    pytest.importorskip("trimesh")
    path = tmp_path / "cube.obj"
    corners = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    faces = [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)]
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in corners)
                    + "".join("f " + " ".join(map(str, f)) + "\n" for f in faces))
    hull = Convex(str(path), 0.5)
    box = Box(1.0, 1.0, 1.0)
    X_a = RigidTransform(RollPitchYaw(0.1, 0.0, 0.2), [0.2, 0.1, 0.9])
    for A in (hull, box):
        _, _, n, phi = signed(A, X_a, box, RigidTransform())
        assert phi < 0
    got = signed(hull, X_a, box, RigidTransform())[3]
    ref = signed(box, X_a, box, RigidTransform())[3]
    assert got == pytest.approx(ref, abs=1e-8)


SHAPES = [Sphere(0.3), Box(0.4, 0.5, 0.6), Capsule(0.2, 0.5), Cylinder(0.25, 0.5),
          Ellipsoid(0.3, 0.2, 0.4)]


@pytest.mark.parametrize("a, b", list(itertools.combinations_with_replacement(range(5), 2)))
@pytest.mark.parametrize("gap", [0.35, -0.05])
def test_pairs_are_symmetric_under_swap(a, b, gap):
    A, B = SHAPES[a], SHAPES[b]
    X_a = RigidTransform(RollPitchYaw(0.2, -0.3, 0.5), [0.0, 0.0, 0.0])
    X_b = RigidTransform(RollPitchYaw(-0.4, 0.1, 0.3), [0.5 + gap, 0.1, -0.05])
    Ca, Cb, n, phi = signed(A, X_a, B, X_b)
    Cb2, Ca2, n2, phi2 = signed(B, X_b, A, X_a)
    assert phi2 == pytest.approx(phi, abs=1e-6)
    np.testing.assert_allclose(n2, -n, atol=1e-4)
    np.testing.assert_allclose(Ca2, Ca, atol=1e-4)
    np.testing.assert_allclose(Cb2, Cb, atol=1e-4)
    check_consistent(Ca, Cb, n, phi)


def test_box_on_box_contact_points_span_the_overlap():
    from merganser.geometry.proximity.narrow_phase import box_box_contact_points
    box = Box(0.1, 0.1, 0.1)
    X_top = RigidTransform([0.01, 0.0, 0.1 - 1e-3]).get_as_matrix4()
    X_bottom = np.eye(4)
    deepest = np.zeros(10)
    assert signed_distance_pair(box.type_code, box.kernel_params(), X_top, box.type_code,
                                box.kernel_params(), X_bottom, deepest)
    np.testing.assert_allclose(deepest[6:9], [0, 0, 1], atol=1e-9)
    rows = np.zeros((16, 10))
    k = box_box_contact_points(box.kernel_params(), X_top, box.kernel_params(), X_bottom,
                               deepest, rows, 0)
    assert k == 4         # two corners of the top box, two of the bottom box
    np.testing.assert_allclose(rows[:k, 9], -1e-3, atol=1e-12)
    np.testing.assert_allclose(sorted(rows[:k, 0]), [-0.04, -0.04, 0.05, 0.05], atol=1e-12)


@pytest.mark.parametrize("a", range(5))
def test_half_space_pairs_are_symmetric_under_swap(a):
    A = SHAPES[a]
    X_a = RigidTransform(RollPitchYaw(0.3, 0.2, -0.4), [0.1, 0.0, 0.12])
    X_h = RigidTransform(RollPitchYaw(0.1, -0.05, 0.0), [0.0, 0.0, 0.0])
    Ca, Cb, n, phi = signed(A, X_a, HalfSpace(), X_h)
    Cb2, Ca2, n2, phi2 = signed(HalfSpace(), X_h, A, X_a)
    assert phi2 == pytest.approx(phi) and phi < 0
    np.testing.assert_allclose(n, X_h.rotation().matrix()[:, 2])
    np.testing.assert_allclose(n2, -n)
    np.testing.assert_allclose(Ca2, Ca)
    np.testing.assert_allclose(Cb2, Cb)
    check_consistent(Ca, Cb, n, phi)
