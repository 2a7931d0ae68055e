"""Rgba: channels, range checks, modulation, array conversion."""

import copy
import pickle

import numpy as np
import pytest

from merganser.geometry import IllustrationProperties, Rgba


def test_default_is_opaque_white_and_channels():
    assert Rgba() == Rgba(1.0, 1.0, 1.0, 1.0)
    c = Rgba(0.75, 0.5, 0.25)
    assert (c.r(), c.g(), c.b(), c.a()) == (0.75, 0.5, 0.25, 1.0)
    assert c != Rgba(0.75, 0.5, 0.25, 0.0)
    assert repr(c) == "Rgba(r=0.75, g=0.5, b=0.25, a=1.0)"


def test_scale_rgb_clamps_and_keeps_alpha():
    c = Rgba(0.5, 0.25, 0.75, 0.4).scale_rgb(2.0)
    np.testing.assert_array_equal(c.rgba, [1.0, 0.5, 1.0, 0.4])
    np.testing.assert_array_equal(Rgba(0.5, 0.25, 0.75, 0.4).scale_rgb(0.5).rgba,
                                  [0.25, 0.125, 0.375, 0.4])
    with pytest.raises(RuntimeError, match="scale"):
        c.scale_rgb(-1.0)


def test_product_is_channelwise():
    p = Rgba(0.5, 0.6, 0.7, 0.8) * Rgba(0.5, 0.5, 0.5, 0.5)
    np.testing.assert_allclose(p.rgba, [0.25, 0.3, 0.35, 0.4])


def test_set_update_and_rgba_property():
    c = Rgba()
    c.set(0.1, 0.2, 0.3)
    assert c == Rgba(0.1, 0.2, 0.3, 1.0)
    c.set(rgba=[0.4, 0.5, 0.6, 0.7])
    assert c == Rgba(0.4, 0.5, 0.6, 0.7)
    c.update(a=0.25)
    assert c == Rgba(0.4, 0.5, 0.6, 0.25)
    c.rgba = [0.5, 0.6, 0.7]
    assert c.a() == 1.0 and c.rgba[2] == 0.7
    with pytest.raises(RuntimeError, match=r"range \[0, 1\]"):
        c.rgba = [-1.0] * 4
    with pytest.raises(RuntimeError, match="3 or 4"):
        c.rgba = [1.0] * 5
    with pytest.raises(RuntimeError, match=r"range \[0, 1\]"):
        c.update(r=3.0)
    with pytest.raises(RuntimeError, match=r"range \[0, 1\]"):
        Rgba(2.0, 0.0, 0.0)
    assert c == Rgba(0.5, 0.6, 0.7, 1.0)  # failed updates leave the color unchanged


def test_array_conversion_copy_pickle_and_properties():
    c = Rgba(0.1, 0.2, 0.3, 0.4)
    np.testing.assert_array_equal(np.asarray(c), [0.1, 0.2, 0.3, 0.4])
    assert pickle.loads(pickle.dumps(c)) == c
    d = copy.copy(c)
    d.update(r=0.9)
    assert c.r() == 0.1
    props = IllustrationProperties()
    props.add_property("phong", "diffuse", c)
    np.testing.assert_array_equal(np.asarray(props.get_property("phong", "diffuse")),
                                  [0.1, 0.2, 0.3, 0.4])


def test_yaml_reads_three_or_four_channels_and_checks_them():
    from merganser.framework import YamlLoadError, yaml_dump_typed, yaml_load_typed
    color = yaml_load_typed(schema=Rgba, data="rgba: [0.1, 0.2, 0.3]")
    assert (color.r(), color.g(), color.b(), color.a()) == (0.1, 0.2, 0.3, 1.0)
    assert yaml_load_typed(schema=Rgba, data="rgba: [0.1, 0.2, 0.3, 0.4]") == Rgba(0.1, 0.2, 0.3, 0.4)
    with pytest.raises(YamlLoadError, match=r"Rgba\.rgba: .*either 3 or 4 elements, got 0"):
        yaml_load_typed(schema=Rgba, data="rgba: []")
    with pytest.raises(RuntimeError, match=r"within the range \[0, 1\]"):
        yaml_load_typed(schema=Rgba, data="rgba: [0, 0, 0, -1]")
    assert yaml_dump_typed(Rgba(0.5, 0.25, 1.0)) == "rgba: [0.5, 0.25, 1.0, 1.0]\n"
