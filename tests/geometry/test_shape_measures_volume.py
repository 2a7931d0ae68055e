"""measures= constructors, MeshcatCone and calc_volume against closed forms."""

import math

import numpy as np
import pytest

from merganser.geometry import (
    Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, InMemoryMesh, MemoryFile, Mesh,
    MeshcatCone, Rgba, Sphere, calc_volume,
)
from merganser.geometry.visualization.meshcat_shapes import shape_to_object

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


def test_meshcat_cone_drawing_puts_the_apex_at_the_origin_and_the_rim_at_height():
    obj = shape_to_object(MeshcatCone(2.0, 0.5, 0.25), rgba=Rgba(1.0, 0.0, 0.0, 0.5))
    geometry = obj["geometries"][0]
    assert (geometry["radiusBottom"], geometry["radiusTop"], geometry["height"]) == (0, 1, 1)
    X = np.array(obj["object"]["matrix"]).reshape(4, 4).T      # three.js: column-major
    apex, rim_x, rim_z = (X @ np.array(p) for p in
                          ([0, -0.5, 0, 1], [1, 0.5, 0, 1], [0, 0.5, 1, 1]))
    np.testing.assert_allclose(apex[:3], [0.0, 0.0, 0.0])
    np.testing.assert_allclose(rim_x[:3], [0.5, 0.0, 2.0])
    np.testing.assert_allclose(np.abs(rim_z[:3]), [0.0, 0.25, 2.0])
    assert obj["materials"][0]["opacity"] == 0.5 and obj["materials"][0]["color"] == 0xFF0000
