"""measures= constructors, MeshcatCone and calc_volume against closed forms."""

import math

import pytest

from merganser.geometry import (
    Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, InMemoryMesh, MemoryFile, Mesh,
    MeshcatCone, Sphere, calc_volume,
)

# a unit cube [0, 1]^3 as a closed triangle mesh (12 outward-wound triangles)
_V = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
_F = [(1, 3, 2), (1, 2, 0), (5, 6, 7), (5, 4, 6), (1, 5, 7), (1, 7, 3), (0, 2, 6), (0, 6, 4),
      (2, 3, 7), (2, 7, 6), (0, 4, 5), (0, 5, 1)]
CUBE = "".join(f"v {x} {y} {z}\n" for x, y, z in _V) + "".join(
    f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in _F)


def test_measures_match_the_separate_arguments():
    assert Box(measures=(1.0, 2.0, 3.0)) == Box(1.0, 2.0, 3.0)
    assert Capsule(measures=(1.0, 2.0)) == Capsule(radius=1.0, length=2.0)
    assert Cylinder(measures=(1.0, 2.0)).length() == 2.0
    assert Ellipsoid(measures=(1.0, 2.0, 3.0)).c() == 3.0
    with pytest.raises(ValueError, match=r"measures must be \[radius, length\]"):
        Cylinder(measures=(1.0, 2.0, 3.0))
    with pytest.raises(TypeError, match="not both"):
        Box(1.0, measures=(1.0, 2.0, 3.0))


def test_meshcat_cone_is_visual_only():
    cone = MeshcatCone(measures=(1.2, 3.4, 5.6))
    assert (cone.height(), cone.a(), cone.b()) == (1.2, 3.4, 5.6)
    assert cone.clone() == cone and cone.clone() is not cone
    assert eval(repr(cone), {"MeshcatCone": MeshcatCone}) == cone
    with pytest.raises(RuntimeError, match="visualization only"):
        cone.kernel_params()


def test_calc_volume_closed_forms():
    assert calc_volume(Box(1.0, 2.0, 3.0)) == pytest.approx(6.0, abs=1e-14)
    assert calc_volume(Sphere(2.0)) == pytest.approx(32.0 * math.pi / 3.0)
    assert calc_volume(Cylinder(1.0, 2.0)) == pytest.approx(2.0 * math.pi)
    assert calc_volume(Capsule(1.0, 2.0)) == pytest.approx(2.0 * math.pi + 4.0 * math.pi / 3.0)
    assert calc_volume(Ellipsoid(1.0, 2.0, 3.0)) == pytest.approx(8.0 * math.pi)
    assert calc_volume(MeshcatCone(3.0, 1.0, 2.0)) == pytest.approx(2.0 * math.pi)
    assert calc_volume(HalfSpace()) == math.inf
    cube = InMemoryMesh(MemoryFile(CUBE, ".obj", "cube"))
    assert calc_volume(Mesh(mesh_data=cube, scale3=[1.0, 2.0, 3.0])) == pytest.approx(6.0)
    assert calc_volume(Convex(mesh_data=cube, scale=2.0)) == pytest.approx(8.0)
