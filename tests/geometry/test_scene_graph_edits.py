"""SceneGraph model edits (Drake's RenameFrame, RenameGeometry, ChangeShape,
RemoveGeometry), checked through the inspector and the proximity queries (issue 18)."""

import numpy as np
import pytest

from merganser.geometry import (
    Box, GeometryFrame, RigidTransform, Sphere,
)
from scene_graph_scenes import context_at_identity, two_sphere_scene


def _distance(sg, s, f):
    ctx = context_at_identity(sg, s, f)
    query = sg.get_query_output_port().eval(ctx)
    return [p.distance for p in query.compute_signed_distance_pairwise_closest_points()]


def test_change_shape_and_pose_change_the_distance():
    sg, s, f, a, b = two_sphere_scene()
    assert _distance(sg, s, f) == [pytest.approx(1.0)]
    sg.change_shape(s, a, Box(2.0, 2.0, 2.0))                     # face at x = 1
    assert _distance(sg, s, f) == [pytest.approx(0.5)]
    sg.change_shape(s, a, Sphere(0.5), X_FG=RigidTransform([0.5, 0, 0]))
    assert _distance(sg, s, f) == [pytest.approx(0.5)]
    inspector = sg.model_inspector()
    assert isinstance(inspector.get_shape(a), Sphere)
    np.testing.assert_array_equal(inspector.get_pose_in_frame(a).translation(), [0.5, 0, 0])
    assert inspector.get_proximity_properties(a) is not None       # roles stay


def test_remove_and_rename():
    sg, s, f, a, b = two_sphere_scene()
    sg.rename_frame(f, "g")
    sg.rename_geometry(a, "c")
    inspector = sg.model_inspector()
    assert inspector.get_name(f) == "g" and inspector.get_name(a) == "c"
    sg.remove_geometry(s, b)
    assert inspector.num_geometries() == 1 and _distance(sg, s, f) == []
    with pytest.raises(ValueError, match="not a registered geometry"):
        sg.remove_geometry(s, b)
    other = sg.register_source("other")
    with pytest.raises(ValueError, match="does not belong to source 'other'"):
        sg.change_shape(other, a, Sphere(1.0))
    sg.register_frame(s, GeometryFrame("h"))
    with pytest.raises(ValueError, match="not used by another frame"):
        sg.rename_frame(f, "h")
