"""Drake parity of SceneGraph frame registration keywords and of default identifiers."""

import pytest

from merganser.geometry import FrameId, GeometryFrame, GeometryId, SceneGraph


def test_register_frame_takes_pydrakes_keywords_and_positional_forms():
    sg = SceneGraph()
    source = sg.register_source("src")
    a = sg.register_frame(source_id=source, frame=GeometryFrame("a"))
    b = sg.register_frame(source_id=source, parent_id=a, frame=GeometryFrame("b"))
    c = sg.register_frame(source, GeometryFrame("c"))
    d = sg.register_frame(source, b, GeometryFrame("d"))
    inspector = sg.model_inspector()
    assert inspector.num_frames() == 5            # the world and four
    assert {inspector.get_name(f) for f in (a, b, c, d)} == {"a", "b", "c", "d"}
    assert inspector.get_parent_frame(b) == a and inspector.get_parent_frame(d) == b
    assert inspector.get_parent_frame(c) == sg.world_frame_id()
    with pytest.raises(TypeError, match="GeometryFrame"):
        sg.register_frame(source_id=source, parent_id=a)


def test_default_identifiers_are_invalid_as_in_drake():
    invalid = GeometryId()
    assert not invalid.is_valid() and GeometryId.get_new_id().is_valid()
    assert invalid == GeometryId() and invalid != FrameId()
    assert len({GeometryId(), GeometryId()}) == 1
