"""Meshcat scene, recording and HTML export; the MeshcatVisualizer's recorded poses; contact
force arrows; add_default_visualization (no browser needed)."""

from types import SimpleNamespace

import numpy as np
import pytest

import viz_scene
from merganser.framework import DiagramBuilder
from merganser.geometry import (Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Mesh, Rgba,
                               RigidTransform, RollPitchYaw, RotationMatrix, Sphere)
from merganser.geometry.visualization import (ContactVisualizer, ContactVisualizerParams, Meshcat,
                                    MeshcatVisualizer, MeshcatVisualizerParams,
                                    add_default_visualization)
from merganser.geometry.visualization.contact_visualizer import arrow_frame
from merganser.geometry.visualization.meshcat_animation import MeshcatAnimation, decompose_transform
from merganser.geometry.visualization.meshcat_shapes import shape_to_object


def test_decompose_transform_recovers_quaternion_translation_and_scale():
    R = RotationMatrix(RollPitchYaw(0.3, -1.2, 2.5))
    X = RigidTransform(R, [1.0, -2.0, 0.5]).get_as_matrix4()
    X[:3, :3] = X[:3, :3] @ np.diag([1.0, 1.0, 3.0])
    p, q_xyzw, scale = decompose_transform(X)
    np.testing.assert_allclose(p, [1.0, -2.0, 0.5])
    np.testing.assert_allclose(scale, [1.0, 1.0, 3.0])
    w, x, y, z = R.to_quaternion()
    sign = np.sign(q_xyzw[3] * w)
    np.testing.assert_allclose(sign * q_xyzw, [x, y, z, w], atol=1e-12)


def test_visualizer_records_the_frame_pose_at_each_publish():
    diagram, meshcat, visualizer = viz_scene.build(publish_period=0.1)
    visualizer.start_recording()
    diagram.simulate(1.0)
    visualizer.stop_recording()
    recording = visualizer.get_mutable_recording()
    assert recording.frames_per_second() == pytest.approx(10.0)
    assert recording.num_frames() == 11
    path = "/merganser/illustration/toy/mover"
    for k in (0, 4, 10):
        X = recording.get_transform(path, k)
        np.testing.assert_allclose(X[:3, 3], [0.1 * k, 0.0, 0.1], atol=1e-12)
    # Anchored geometry is drawn once, not animated.
    assert "/merganser/illustration/toy/world" not in recording.paths()
    assert meshcat.object_paths() == ["/merganser/illustration/toy/mover/red_box",
                                      "/merganser/illustration/toy/world/green_ball"]


def test_published_recording_is_a_set_animation_command_in_the_html():
    diagram, meshcat, visualizer = viz_scene.build(publish_period=0.25)
    with pytest.raises(RuntimeError, match="nothing was recorded"):
        meshcat.publish_recording()
    visualizer.start_recording()
    diagram.simulate(1.0)
    visualizer.stop_recording()
    visualizer.publish_recording()
    page = meshcat.static_html()
    commands = viz_scene.page_commands(page)
    [animation] = [c for c in commands if c["type"] == "set_animation"]
    [clip] = [a["clip"] for a in animation["animations"]
              if a["path"] == "/merganser/illustration/toy/mover"]
    position = [t for t in clip["tracks"] if t["name"] == ".position"][0]
    assert [k["time"] for k in position["keys"]] == [0, 1, 2, 3, 4]
    np.testing.assert_allclose([k["value"][0] for k in position["keys"]],
                               [0.0, 0.25, 0.5, 0.75, 1.0])
    assert "var duration = 1.0;" in page


def test_shapes_lower_to_three_js_objects(tmp_path):
    box = shape_to_object(Box(1.0, 2.0, 3.0), [1, 0, 0, 1])
    geometry = box["geometries"][0]
    assert (geometry["width"], geometry["height"], geometry["depth"]) == (1.0, 2.0, 3.0)
    assert box["materials"][0]["color"] == 0xFF0000
    cylinder = shape_to_object(Cylinder(0.1, 2.0))
    M = np.array(cylinder["object"]["matrix"]).reshape(4, 4).T
    np.testing.assert_allclose(M[:3, :3] @ [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], atol=1e-15)
    ellipsoid = shape_to_object(Ellipsoid(1.0, 2.0, 3.0))
    np.testing.assert_allclose(np.diag(np.array(ellipsoid["object"]["matrix"]).reshape(4, 4)),
                               [1.0, 2.0, 3.0, 1.0])
    assert len(shape_to_object(Capsule(0.1, 1.0))["object"]["children"]) == 3
    assert shape_to_object(HalfSpace())["geometries"][0]["width"] == 10.0
    assert shape_to_object(Sphere(0.5))["geometries"][0]["radius"] == 0.5
    stl = tmp_path / "tri.stl"
    stl.write_bytes(b"\0" * 84)
    mesh = shape_to_object(Mesh(str(stl), 2.0))
    assert mesh["geometries"][0]["format"] == "stl"
    assert isinstance(mesh["geometries"][0]["data"], bytes)
    with pytest.raises(TypeError, match="cannot draw a str"):
        shape_to_object("box")


def test_binary_mesh_data_reaches_the_page_as_msgpack_bytes(tmp_path):
    stl = tmp_path / "tri.stl"
    stl.write_bytes(bytes(range(84)))
    meshcat = Meshcat()
    meshcat.set_object("part", Mesh(str(stl), 1.0))
    page = meshcat.static_html()
    assert "data:application/octet-binary;base64," in page
    [command] = viz_scene.page_commands(page)
    assert command["object"]["geometries"][0]["data"] == bytes(range(84))


def test_delete_removes_a_subtree():
    meshcat = Meshcat()
    meshcat.set_object("a/b", Sphere(1.0))
    meshcat.set_object("a/c", Sphere(1.0))
    meshcat.set_object("d", Sphere(1.0))
    meshcat.delete("a")
    assert meshcat.object_paths() == ["/merganser/d"]


def test_visualizer_params_are_checked():
    with pytest.raises(ValueError, match="params.role must be one of"):
        MeshcatVisualizer(Meshcat(), MeshcatVisualizerParams(role="collision"))
    with pytest.raises(ValueError, match="publish_period must be > 0"):
        MeshcatVisualizer(Meshcat(), MeshcatVisualizerParams(publish_period=0.0))


def test_arrow_frame_points_z_along_the_force():
    f = np.array([1.0, -2.0, 0.5])
    X = arrow_frame([0.1, 0.2, 0.3], f)
    np.testing.assert_allclose(X[:3, 2], f / np.linalg.norm(f))
    np.testing.assert_allclose(X[:3, :3].T @ X[:3, :3], np.eye(3), atol=1e-12)
    np.testing.assert_allclose(X[:3, 3], [0.1, 0.2, 0.3])


class _FakeContactResults:
    def __init__(self, forces):
        self._infos = [SimpleNamespace(contact_point=np.asarray(p), contact_force=np.asarray(f))
                       for p, f in forces]

    def num_point_pair_contacts(self):
        return len(self._infos)

    def point_pair_contact_info(self, i):
        return self._infos[i]


def test_contact_arrows_scale_with_force_and_hide_when_unused():
    meshcat = Meshcat()
    arrows = ContactVisualizer(meshcat, ContactVisualizerParams(newtons_per_meter=20.0))
    ctx = arrows.create_default_context()
    port = arrows.get_contact_results_input_port()
    port.fix_value(ctx, _FakeContactResults([([0, 0, 0], [0, 0, 10.0]), ([1, 0, 0], [0, 0, 40.0])]))
    arrows.forced_publish(ctx)
    np.testing.assert_allclose(meshcat.get_transform("/merganser/contact_forces/1/shaft"),
                               np.diag([1.0, 1.0, 2.0, 1.0]))
    np.testing.assert_allclose(meshcat.get_transform("/merganser/contact_forces/0")[:3, 3],
                               [0.0, 0.0, 0.0])
    port.fix_value(ctx, _FakeContactResults([([0, 0, 0], [0, 0, 1e-4])]))   # below threshold
    arrows.forced_publish(ctx)
    visible = {path: cmd["value"] for (path, prop), cmd in meshcat._properties.items()
               if prop == "visible"}
    assert visible == {"/merganser/contact_forces/0": False, "/merganser/contact_forces/1": False}


def test_add_default_visualization_needs_a_scene_graph():
    with pytest.raises(ValueError, match="builder has no SceneGraph"):
        add_default_visualization(DiagramBuilder())


def test_add_default_visualization_draws_illustration_and_hidden_proximity():
    from merganser.geometry import SceneGraph

    builder = DiagramBuilder()
    scene_graph = builder.add_system(SceneGraph())
    meshcat = add_default_visualization(builder)
    visualizers = [s for s in builder.get_systems() if isinstance(s, MeshcatVisualizer)]
    assert sorted(v.prefix() for v in visualizers) == ["/merganser/illustration",
                                                       "/merganser/proximity"]
    diagram = builder.build()
    diagram.forced_publish(diagram.create_default_context())
    assert meshcat._properties[("/merganser/proximity", "visible")]["value"] is False
    assert scene_graph is not None


def test_animation_rejects_a_bad_frame_rate():
    with pytest.raises(ValueError, match="frames_per_second must be > 0"):
        MeshcatAnimation(0.0)


def test_live_server_serves_the_viewer_and_stops():
    import urllib.error
    import urllib.request

    meshcat = Meshcat()
    meshcat.set_object("box", Box(1.0, 1.0, 1.0), [1.0, 0.0, 0.0, 1.0])
    try:
        url = meshcat.web_url()
        assert url == f"http://localhost:{meshcat.port()}"
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "MeshCat" in page and 'src="main.min.js"' in page
    finally:
        meshcat.stop_server()
    assert not meshcat.is_server_running()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=2)
    assert meshcat.object_paths() == ["/merganser/box"]      # the scene outlives the server


def test_start_meshcat_starts_the_live_server(capsys):
    from merganser.geometry import start_meshcat
    meshcat = start_meshcat()
    try:
        assert f"Meshcat is now available at {meshcat.web_url()}" in capsys.readouterr().out
    finally:
        meshcat.stop_server()


def test_sliders_and_buttons_follow_drakes_semantics():
    meshcat = Meshcat()
    with pytest.warns(UserWarning, match="shows no sliders or buttons"):
        value = meshcat.add_slider("a", min=0.0, max=1.0, step=0.1, value=0.55)
    assert value == pytest.approx(0.6)                      # snapped to the step from min
    assert meshcat.add_slider("b", 0.0, 1.0, 0.25, 2.0) == 1.0          # clamped
    assert meshcat.get_slider_names() == ["a", "b"]
    assert meshcat.set_slider_value("a", -3.0) == 0.0
    assert meshcat.get_slider_value("a") == 0.0
    with pytest.raises(RuntimeError, match="already has a slider named a"):
        meshcat.add_slider("a", 0.0, 1.0, 0.1, 0.5)
    with pytest.raises(RuntimeError, match=r"any slider named zz\. The registered slider "
                                           r"names are \(a, b\)"):
        meshcat.get_slider_value("zz")
    assert meshcat.delete_slider("a") and not meshcat.delete_slider("a", strict=False)
    with pytest.raises(RuntimeError, match="any slider named a"):
        meshcat.delete_slider("a")
    meshcat.add_button("go", keycode="KeyG")
    assert meshcat.get_button_clicks("go") == 0 and meshcat.get_button_names() == ["go"]
    meshcat.add_button("go")                                # re-adding resets the count
    with pytest.raises(RuntimeError, match="any button named stop"):
        meshcat.get_button_clicks("stop")
    meshcat.delete_added_controls()
    assert meshcat.get_slider_names() == [] and meshcat.get_button_names() == []
    with pytest.raises(ValueError, match="need finite min <= max"):
        meshcat.add_slider("c", 1.0, 0.0, 0.1, 0.5)


def test_realtime_rate_simulation_time_and_pydrake_keywords():
    meshcat = Meshcat()
    assert meshcat.get_realtime_rate() == 0.0
    meshcat.set_realtime_rate(0.8)
    meshcat.set_simulation_time(1.5)
    assert (meshcat.get_realtime_rate(), meshcat.get_simulation_time()) == (0.8, 1.5)
    meshcat.flush()
    meshcat.set_object("box", shape=Box(1.0, 2.0, 3.0))
    meshcat.set_transform("box", matrix=np.eye(4))
    meshcat.set_property("box", property="visible", value=False)
    assert meshcat.has_path("box")
    with pytest.raises(TypeError, match="multiple values for argument .shape."):
        meshcat.set_object("box", Box(1.0, 1.0, 1.0), shape=Box(1.0, 1.0, 1.0))
    meshcat.start_recording(set_visualizations_while_recording=False)
    meshcat.set_transform("box", RigidTransform([1.0, 0.0, 0.0]), time_in_recording=0.0)
    # keyframed, not applied to the scene while recording
    np.testing.assert_array_equal(meshcat.get_transform("box"), np.eye(4))


def test_visualizers_add_to_builder_take_pydrakes_keywords():
    from merganser.multibody import add_multibody_plant_scene_graph
    builder = DiagramBuilder()
    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.001)
    plant.finalize()
    meshcat = Meshcat()
    visualizer = MeshcatVisualizer.add_to_builder(builder, scene_graph=scene_graph,
                                                  meshcat=meshcat)
    contacts = ContactVisualizer.add_to_builder(builder, plant=plant, meshcat=meshcat)
    diagram = builder.build()
    assert diagram.are_connected(scene_graph.get_query_output_port(),
                                 visualizer.get_query_object_input_port())
    assert diagram.are_connected(plant.get_contact_results_output_port(),
                                 contacts.get_contact_results_input_port())
    with pytest.raises(TypeError, match="give the scene graph or its query port once"):
        MeshcatVisualizer.add_to_builder(DiagramBuilder(), scene_graph, meshcat,
                                         scene_graph=scene_graph)


def _object_at(meshcat, path):
    return meshcat.get_object(path)


def test_lines_meshes_and_surfaces_become_buffer_geometries():
    meshcat = Meshcat()
    vertices = np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    meshcat.set_line("line", vertices, line_width=2.0, rgba=Rgba(1.0, 0.0, 0.0, 1.0))
    line = _object_at(meshcat, "/merganser/line")
    assert line["object"]["type"] == "Line"
    assert line["geometries"][0]["data"]["attributes"]["position"]["array"] == [
        0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0]              # column by column
    assert line["materials"][0]["color"] == 0xFF0000
    meshcat.set_line_segments("segs", np.zeros((3, 2)), np.ones((3, 2)))
    segs = _object_at(meshcat, "/merganser/segs")
    assert segs["object"]["type"] == "LineSegments"
    assert len(segs["geometries"][0]["data"]["attributes"]["position"]["array"]) == 12
    meshcat.set_triangle_color_mesh("tri", np.eye(3), np.array([[0], [1], [2]]), np.eye(3),
                                    side=Meshcat.SideOfFaceToRender.kFrontSide)
    tri = _object_at(meshcat, "/merganser/tri")
    data = tri["geometries"][0]["data"]
    assert data["index"]["array"] == [0, 1, 2] and "color" in data["attributes"]
    assert tri["materials"][0]["side"] == 0 and tri["materials"][0]["vertexColors"]
    X, Y = np.meshgrid(np.linspace(0.0, 1.0, 3), np.linspace(0.0, 1.0, 4))
    meshcat.plot_surface("surface", X, Y, X * Y)
    surface = _object_at(meshcat, "/merganser/surface")["geometries"][0]["data"]
    assert len(surface["attributes"]["position"]["array"]) == 3 * 12
    assert len(surface["index"]["array"]) == 3 * 2 * (3 * 2)       # two per grid cell
    with pytest.raises(ValueError, match="faces must be a .3, M. integer array"):
        meshcat.set_triangle_mesh("bad", np.eye(3), np.array([[0], [1], [3]]))
    with pytest.raises(ValueError, match="vertices must be a finite .3, N. array"):
        meshcat.set_line("bad", np.zeros((2, 3)))


def test_cameras_and_the_2d_render_mode():
    meshcat = Meshcat()
    meshcat.set2d_render_mode(xmin=-2.0, xmax=2.0, ymin=-1.0, ymax=3.0)
    camera = _object_at(meshcat, "/Cameras/default/rotated")["object"]
    assert camera["type"] == "OrthographicCamera"
    assert (camera["left"], camera["right"], camera["bottom"], camera["top"]) == (-2, 2, -1, 3)
    np.testing.assert_array_equal(meshcat.get_transform("/Cameras/default")[:3, 3],
                                  [0.0, -1.0, 0.0])
    meshcat.reset_render_mode()
    assert _object_at(meshcat, "/Cameras/default/rotated")["object"]["type"] == \
        "PerspectiveCamera"
    meshcat.set_camera(Meshcat.PerspectiveCamera(fov=40.0))
    assert _object_at(meshcat, "/Cameras/default/rotated")["object"]["fov"] == 40.0
    with pytest.raises(TypeError, match="PerspectiveCamera or an OrthographicCamera"):
        meshcat.set_camera("wide")
    assert meshcat.get_tracked_camera_pose() is None


def test_environment_map_is_the_image_as_a_data_uri_and_empty_clears_it(tmp_path):
    import base64
    image = tmp_path / "sky.png"
    image.write_bytes(b"\x89PNG fake pixels")
    meshcat = Meshcat()
    meshcat.set_environment_map(image)
    uri = "data:image/png;base64," + base64.b64encode(b"\x89PNG fake pixels").decode()
    [command] = viz_scene.page_commands(meshcat.static_html())
    assert (command["property"], command["value"]) == ("environment_map", uri)
    meshcat.set_environment_map("")
    [command] = viz_scene.page_commands(meshcat.static_html())
    assert command["value"] == ""
    with pytest.raises(RuntimeError, match="set_environment_map: cannot read the image .*nope.jpg"):
        meshcat.set_environment_map(tmp_path / "nope.jpg")
    with pytest.raises(TypeError, match="image_path must be a str or Path, got int"):
        meshcat.set_environment_map(3)
