"""GeometryProperties: Drake's default group, keywords, str, copies; phong illustration."""

import copy

import numpy as np

from merganser.framework import AbstractValue
from merganser.geometry import (
    IllustrationProperties, PerceptionProperties, ProximityProperties, Rgba,
    make_phong_illustration_properties,
)


def test_default_group_keywords_and_str():
    props = ProximityProperties()
    assert str(props) == "[__default__]"
    g = props.default_group_name()
    assert g == "__default__" and props.has_group(group_name=g) and props.num_groups() == 1
    props.add_property(group_name=g, name="k", value=3)
    props.add_property(group="material", name="mu", value=0.5)
    assert props.num_groups() == 2
    assert props.get_property_or_default(group_name=g, name="none", default_value=5) == 5
    values = props.get_properties_in_group(group_name=g)
    assert isinstance(values["k"], AbstractValue) and values["k"].get_value() == 3
    assert str(props) == "[__default__]\n  k: 3\n[material]\n  mu: 0.5"


def test_copies_are_independent_and_cross_role():
    src = PerceptionProperties()
    src.add_property("a", "b", [1, 2])
    for dup in (copy.copy(src), copy.deepcopy(src), PerceptionProperties(other=src)):
        dup.update_property("a", "c", 1)
        assert not src.has_property("a", "c")
    assert ProximityProperties(IllustrationProperties(src)).get_property("a", "b") == [1, 2]


def test_make_phong_stores_an_rgba():
    props = make_phong_illustration_properties([0.0, 0.0, 1.0, 1.0])
    assert isinstance(props, IllustrationProperties)
    diffuse = props.get_property("phong", "diffuse")
    assert diffuse == Rgba(0.0, 0.0, 1.0, 1.0)
    np.testing.assert_array_equal(np.asarray(diffuse, dtype=float), [0.0, 0.0, 1.0, 1.0])
