"""Drake's keyword spellings and overloads on geometry classes (issue 18): Box(measures),
Shape.clone(),
CollisionFilterDeclaration's set_A/set_B, GeometryInstance.mutable_*_properties."""

import numpy as np
import pytest

from merganser.geometry import (
    Box, CollisionFilterDeclaration, GeometryInstance, GeometrySet, ProximityProperties,
    RigidTransform, Sphere,
)
from merganser.geometry.geometry_instance import GeometryId


def test_box_from_measures():
    box = Box([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(box.size(), [1.0, 2.0, 3.0])
    assert (box.width(), box.depth(), box.height()) == (1.0, 2.0, 3.0)
    twin = box.clone()
    assert twin == box and twin is not box and type(twin) is Box
    with pytest.raises(ValueError, match="measures"):
        Box([1.0, 2.0])
    with pytest.raises(TypeError, match="width, depth and height"):
        Box(1.0, 2.0)


def test_declaration_takes_drakes_set_keywords():
    a, b = GeometrySet([GeometryId.get_new_id()]), GeometrySet([GeometryId.get_new_id()])
    declaration = CollisionFilterDeclaration().exclude_between(set_A=a, set_B=b)
    assert declaration.allow_between(set_A=a, set_B=b) is declaration


def test_mutable_properties_edit_in_place():
    instance = GeometryInstance(RigidTransform(), Sphere(0.1), "ball")
    with pytest.raises(RuntimeError, match="no proximity properties"):
        instance.mutable_proximity_properties()
    instance.set_proximity_properties(ProximityProperties())
    instance.mutable_proximity_properties().add_property("material", "mu", 0.5)
    assert instance.proximity_properties().get_property("material", "mu") == 0.5
