"""SceneGraph's renderer queries answer as Drake's SceneGraph with no renderer registered
(merganser has no render engines)."""

import pytest

from merganser.framework import DiagramBuilder
from merganser.geometry import SceneGraph


@pytest.fixture
def scene_graph_and_root_context():
    builder = DiagramBuilder()
    scene_graph = builder.add_system(SceneGraph())
    diagram = builder.build()
    return scene_graph, diagram.create_default_context()


def test_no_renderer_is_registered_in_the_model_or_a_context(scene_graph_and_root_context):
    scene_graph, root = scene_graph_and_root_context
    assert scene_graph.renderer_count() == 0
    assert scene_graph.renderer_count(root) == 0
    assert scene_graph.has_renderer("vtk") is False
    assert scene_graph.has_renderer(root, "vtk") is False


def test_type_name_and_parameter_yaml_of_an_unknown_name_are_empty(
        scene_graph_and_root_context):
    scene_graph, root = scene_graph_and_root_context
    assert scene_graph.get_renderer_type_name("vtk") == ""
    assert scene_graph.get_renderer_type_name(root, "vtk") == ""
    assert scene_graph.get_renderer_parameter_yaml("vtk") == ""
    assert scene_graph.get_renderer_parameter_yaml(root, "vtk") == ""


def test_removing_a_renderer_raises_as_for_a_missing_name(scene_graph_and_root_context):
    scene_graph, root = scene_graph_and_root_context
    with pytest.raises(RuntimeError, match="remove_renderer: a renderer with the name "
                                           "'vtk' does not exist"):
        scene_graph.remove_renderer("vtk")
    with pytest.raises(RuntimeError, match="'gl' does not exist"):
        scene_graph.remove_renderer(root, "gl")


def test_renderer_queries_refuse_bad_arguments(scene_graph_and_root_context):
    scene_graph, root = scene_graph_and_root_context
    with pytest.raises(TypeError, match="has_renderer: name must be a str, got int"):
        scene_graph.has_renderer(3)
    with pytest.raises(TypeError, match="renderer_count: expected a Context, got str"):
        scene_graph.renderer_count("vtk")
    with pytest.raises(TypeError, match=r"expected \(name\) or \(context, name\), got 3"):
        scene_graph.get_renderer_type_name(root, "a", "b")
    other = SceneGraph().create_default_context()
    with pytest.raises(RuntimeError, match="SceneGraph.has_renderer: the context was "
                                           "created for system"):
        scene_graph.has_renderer(other, "vtk")
