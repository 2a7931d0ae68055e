"""PointCloud, Fields and BaseField as pydrake.perception's: fields, defaults, resizing,
read-only and mutable views, the errors on a missing field."""

import copy

import numpy as np
import pytest

from merganser.geometry import BaseField, Fields, PointCloud


def test_a_new_cloud_has_xyzs_only_with_nan_float32_positions():
    cloud = PointCloud(3)
    assert cloud.size() == 3
    assert cloud.fields() == Fields(BaseField.kXYZs)
    assert cloud.has_xyzs() and not cloud.has_rgbs() and not cloud.has_normals()
    assert cloud.xyzs().shape == (3, 3) and cloud.xyzs().dtype == np.float32
    assert np.all(np.isnan(cloud.xyzs()))
    assert PointCloud.is_default_value(PointCloud.kDefaultValue)
    assert PointCloud.is_invalid_value(np.inf) and not PointCloud.is_invalid_value(1.0)


def test_mutable_xyzs_writes_in_place_and_xyzs_is_read_only():
    cloud = PointCloud(2)
    cloud.mutable_xyzs()[:] = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    np.testing.assert_array_equal(cloud.xyz(1), [2.0, 4.0, 6.0])
    cloud.mutable_xyz(0)[:] = [7.0, 8.0, 9.0]
    np.testing.assert_array_equal(cloud.xyzs()[:, 0], [7.0, 8.0, 9.0])
    with pytest.raises(ValueError, match="read-only"):
        cloud.xyzs()[0, 0] = 1.0


def test_resize_keeps_the_points_and_gives_new_ones_the_defaults():
    cloud = PointCloud(2, Fields(BaseField.kXYZs | BaseField.kRGBs | BaseField.kNormals))
    cloud.mutable_xyzs()[:] = 1.0
    cloud.mutable_rgbs()[:] = 200
    cloud.mutable_normals()[:] = 0.5
    cloud.resize(4)
    np.testing.assert_array_equal(cloud.xyzs()[:, :2], np.ones((3, 2)))
    assert np.all(np.isnan(cloud.xyzs()[:, 2:])) and np.all(np.isnan(cloud.normals()[:, 2:]))
    np.testing.assert_array_equal(cloud.rgbs(), [[200, 200, 0, 0]] * 3)
    assert cloud.rgbs().dtype == np.uint8
    cloud.resize(1)
    assert cloud.size() == 1 and cloud.rgb(0).tolist() == [200, 200, 200]


def test_reading_a_field_the_cloud_lacks_raises_naming_it():
    cloud = PointCloud(1)
    with pytest.raises(RuntimeError, match=r"PointCloud.rgbs: this cloud has no rgbs .*"
                                           r"Fields\(base_fields=2\).*BaseField.kRGBs"):
        cloud.rgbs()
    with pytest.raises(RuntimeError, match="mutable_normals: this cloud has no normals"):
        cloud.mutable_normals()
    colors = PointCloud(1, BaseField.kRGBs)
    with pytest.raises(RuntimeError, match="no xyzs"):
        colors.xyzs()


def test_fields_combine_as_bit_sets():
    both = Fields(BaseField.kXYZs) | Fields(BaseField.kRGBs)
    assert both.base_fields() == 10 and both.has_base_fields()
    assert both.contains(BaseField.kRGBs) and not both.contains(BaseField.kNormals)
    assert (both & Fields(BaseField.kRGBs)) == Fields(BaseField.kRGBs)
    assert not Fields(BaseField.kNone).has_base_fields()
    assert repr(both) == "Fields(base_fields=10)"
    assert str(BaseField.kXYZs) == "BaseField.kXYZs"


@pytest.mark.parametrize("call, error, match", [
    (lambda: Fields(1), ValueError, "base_fields must combine .* got 1"),
    (lambda: Fields("xyz"), TypeError, "base_fields must be a BaseField.* got str"),
    (lambda: PointCloud(-1), ValueError, "PointCloud: new_size must be an int >= 0, got -1"),
    (lambda: PointCloud(2, BaseField.kNone), ValueError, "at least one BaseField"),
    (lambda: PointCloud(2).resize(1.5), ValueError, "resize: new_size must be an int"),
    (lambda: PointCloud(2).xyz(2), IndexError, r"xyz: i must be an int in \[0, 2\), got 2"),
])
def test_bad_arguments_raise_naming_the_function_and_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_copies_are_independent_and_set_from_needs_the_same_fields():
    cloud = PointCloud(2)
    cloud.mutable_xyzs()[:] = 3.0
    for other in (PointCloud(cloud), PointCloud(other=cloud), copy.deepcopy(cloud)):
        other.mutable_xyzs()[:] = 0.0
        assert np.all(cloud.xyzs() == 3.0)
    target = PointCloud(5)
    target.set_from(cloud)
    assert target.size() == 2 and np.all(target.xyzs() == 3.0)
    with pytest.raises(RuntimeError, match="set_from: other must have this cloud's fields"):
        PointCloud(1, BaseField.kRGBs).set_from(cloud)


def test_crop_keeps_the_points_inside_the_box_with_their_colors():
    cloud = PointCloud(3, BaseField.kXYZs | BaseField.kRGBs)
    cloud.mutable_xyzs()[:] = [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]
    cloud.mutable_rgbs()[:] = [[10, 20, 30]] * 3
    inside = cloud.crop([0.5, 0.5, 0.5], [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(inside.xyzs(), [[1.0, 2.0]] * 3)
    np.testing.assert_array_equal(inside.rgbs(), [[20, 30]] * 3)
    with pytest.raises(ValueError, match="crop: lower_xyz and upper_xyz"):
        cloud.crop([1.0, 0.0, 0.0], [0.0, 1.0, 1.0])
