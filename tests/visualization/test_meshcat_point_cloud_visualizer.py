"""MeshcatPointCloudVisualizer as Drake's: its ports, the cloud set at each publish with the
point size and default color, the optional X_ParentCloud pose, Delete."""

import numpy as np
import pytest

from merganser.framework import DiagramBuilder
from merganser.framework.primitives import ConstantValueSource
from merganser.geometry import BaseField, PointCloud, Rgba, RigidTransform
from merganser.geometry.visualization import Meshcat, MeshcatPointCloudVisualizer


def two_points(colored=False):
    cloud = PointCloud(2, BaseField.kXYZs | (BaseField.kRGBs if colored else 0))
    cloud.mutable_xyzs()[:] = [[0.0, 1.0], [0.0, 2.0], [0.0, 3.0]]
    if colored:
        cloud.mutable_rgbs()[:] = [[255, 0], [0, 255], [0, 0]]
    return cloud


def test_ports_are_drakes_and_the_pose_port_is_optional():
    visualizer = MeshcatPointCloudVisualizer(Meshcat(), "cloud")
    assert visualizer.cloud_input_port().get_name() == "cloud"
    assert visualizer.pose_input_port().get_name() == "X_ParentCloud"
    assert visualizer.cloud_input_port().is_required()
    assert not visualizer.pose_input_port().is_required()


def test_a_forced_publish_sets_the_cloud_with_the_size_and_color_at_the_identity():
    meshcat = Meshcat()
    visualizer = MeshcatPointCloudVisualizer(meshcat=meshcat, path="cloud",
                                             publish_period=1 / 12.0)
    visualizer.set_point_size(0.1)
    visualizer.set_default_rgba(Rgba(0, 0, 1, 1))
    context = visualizer.create_default_context()
    visualizer.cloud_input_port().fix_value(context, two_points())
    visualizer.forced_publish(context)
    obj = meshcat.get_object("cloud")
    [material] = obj["materials"]
    assert (material["size"], material["color"], material["vertexColors"]) == (
        0.1, 0x0000FF, False)
    assert obj["geometries"][0]["data"]["attributes"]["position"]["array"] == [
        0.0, 0.0, 0.0, 1.0, 2.0, 3.0]
    np.testing.assert_array_equal(meshcat.get_transform("cloud"), np.eye(4))
    visualizer.delete()
    assert not meshcat.has_path("cloud")


def test_the_pose_input_places_the_cloud_and_its_rgbs_color_it_during_a_simulation():
    meshcat = Meshcat()
    builder = DiagramBuilder()
    visualizer = builder.add_system(MeshcatPointCloudVisualizer(meshcat, "/clouds/c", 0.25))
    cloud = builder.add_system(ConstantValueSource(two_points(colored=True)))
    pose = builder.add_system(ConstantValueSource(RigidTransform([1.0, 2.0, 3.0])))
    builder.connect(cloud.get_output_port(0), visualizer.cloud_input_port())
    builder.connect(pose.get_output_port(0), visualizer.pose_input_port())
    builder.build().simulate(0.5)
    obj = meshcat.get_object("/clouds/c")
    assert obj["materials"][0]["vertexColors"]
    assert obj["geometries"][0]["data"]["attributes"]["color"]["array"] == [
        1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    np.testing.assert_array_equal(meshcat.get_transform("/clouds/c")[:3, 3], [1.0, 2.0, 3.0])


@pytest.mark.parametrize("call, error, match", [
    (lambda: MeshcatPointCloudVisualizer(object(), "c"), TypeError,
     "meshcat must be a Meshcat, got object"),
    (lambda: MeshcatPointCloudVisualizer(Meshcat(), 3), TypeError, "path must be a str, got int"),
    (lambda: MeshcatPointCloudVisualizer(Meshcat(), "c", 0.0), ValueError,
     "publish_period must be finite and > 0, got 0.0"),
    (lambda: MeshcatPointCloudVisualizer(Meshcat(), "c").set_point_size(-1.0), ValueError,
     "set_point_size: point_size must be finite and > 0, got -1.0"),
    (lambda: MeshcatPointCloudVisualizer(Meshcat(), "c").set_default_rgba([1, 0, 0]),
     ValueError, r"set_default_rgba: rgba must be an Rgba or 4 finite numbers, got shape \(3,\)"),
])
def test_bad_arguments_raise_naming_them(call, error, match):
    with pytest.raises(error, match=match):
        call()
