"""Meshcat's pydrake surface beyond shapes: set_object's point cloud and triangle-mesh forms
and the shape's diffuse map, the server's scene tree as msgpack bytes, messages from a
browser (buttons, sliders, gamepad, camera pose; injected or over the websocket), typed
property values and the static zip."""

import asyncio
import base64
import io
import zipfile

import numpy as np
import pytest

from merganser.geometry import (BaseField, Box, Fields, Mesh, PointCloud, Rgba, SurfaceTriangle,
                                TriangleSurfaceMesh)
from merganser.geometry.visualization import Meshcat

umsgpack = pytest.importorskip("umsgpack")


def cloud_of(n, colored=False):
    fields = BaseField.kXYZs | (BaseField.kRGBs if colored else 0)
    cloud = PointCloud(n, Fields(fields))
    cloud.mutable_xyzs()[:] = np.arange(3 * n, dtype=float).reshape(3, n)
    if colored:
        cloud.mutable_rgbs()[:] = 255
    return cloud


# ---- set_object's three forms ------------------------------------------------------------
def test_a_cloud_is_a_points_object_of_its_xyzs_with_the_point_size():
    meshcat = Meshcat()
    meshcat.set_object("cloud", cloud=cloud_of(2), point_size=0.01, rgba=Rgba(1, 0, 0, 0.5))
    obj = meshcat.get_object("cloud")
    assert obj["object"]["type"] == "Points"
    [material] = obj["materials"]
    assert (material["type"], material["size"], material["vertexColors"]) == (
        "PointsMaterial", 0.01, False)
    assert (material["color"], material["opacity"], material["transparent"]) == (
        0xFF0000, 0.5, True)
    position = obj["geometries"][0]["data"]["attributes"]["position"]["array"]
    assert position == [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]       # point by point


def test_a_cloud_with_rgbs_is_colored_per_point_and_pydrake_positional_order_works():
    meshcat = Meshcat()
    meshcat.set_object("cloud", cloud_of(2, colored=True), 0.02)   # path, cloud, point_size
    obj = meshcat.get_object("cloud")
    assert obj["materials"][0]["size"] == 0.02 and obj["materials"][0]["vertexColors"]
    assert obj["geometries"][0]["data"]["attributes"]["color"]["array"] == [1.0] * 6
    with pytest.raises(ValueError, match="point_size must be finite and > 0, got 0.0"):
        meshcat.set_object("cloud", cloud_of(1), point_size=0.0)
    with pytest.raises(ValueError, match="cloud must have xyzs"):
        meshcat.set_object("cloud", PointCloud(1, BaseField.kRGBs))


def test_a_triangle_surface_mesh_is_a_mesh_with_its_faces_side_and_wireframe():
    mesh = TriangleSurfaceMesh(triangles=[SurfaceTriangle(0, 1, 2), SurfaceTriangle(3, 0, 2)],
                               vertices=[[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]])
    meshcat = Meshcat()
    meshcat.set_object("tri", mesh=mesh, rgba=Rgba(0.0, 0.0, 1.0), wireframe=True,
                       wireframe_line_width=2.0, side=Meshcat.SideOfFaceToRender.kFrontSide)
    obj = meshcat.get_object("tri")
    [material] = obj["materials"]
    assert (material["side"], material["wireframe"], material["wireframeLinewidth"],
            material["color"]) == (0, True, 2.0, 0x0000FF)
    assert obj["geometries"][0]["data"]["index"]["array"] == [0, 1, 2, 3, 0, 2]
    meshcat.set_object("tri2", mesh)
    assert meshcat.get_object("tri2")["materials"][0]["color"] == 0x1A1A1A   # Drake's default


def test_arguments_that_fit_no_form_raise_naming_the_form():
    meshcat = Meshcat()
    with pytest.raises(TypeError, match=r"set_object\(path, cloud, point_size.*"
                                        r"unexpected keyword argument 'wireframe'"):
        meshcat.set_object("c", cloud=cloud_of(1), wireframe=True)
    with pytest.raises(TypeError, match="give one of shape=, cloud= or mesh=, got shape=, "
                                        "cloud="):
        meshcat.set_object("c", shape=Box(1, 1, 1), cloud=cloud_of(1))
    with pytest.raises(TypeError, match="mesh must be a TriangleSurfaceMesh, got Box"):
        meshcat.set_object("c", mesh=Box(1, 1, 1))


def test_a_diffuse_map_textures_the_shape_with_the_image(tmp_path):
    image = tmp_path / "wood.png"
    image.write_bytes(b"\x89PNG pixels")
    meshcat = Meshcat()
    meshcat.set_object("box", shape=Box(1, 1, 1), rgba=Rgba(0.5, 0.5, 0.5), diffuse_map=str(image))
    obj = meshcat.get_object("box")
    [texture], [picture] = obj["textures"], obj["images"]
    assert obj["materials"][0]["map"] == texture["uuid"] and texture["image"] == picture["uuid"]
    assert picture["url"] == "data:image/png;base64," + base64.b64encode(
        b"\x89PNG pixels").decode()
    meshcat.set_object("plain", Box(1, 1, 1), diffuse_map="")
    assert "map" not in meshcat.get_object("plain")["materials"][0]


def test_a_diffuse_map_that_cannot_apply_is_ignored_with_a_warning(tmp_path):
    meshcat = Meshcat()
    with pytest.warns(UserWarning, match="cannot read the diffuse_map texture .*nope.png"):
        meshcat.set_object("box", Box(1, 1, 1), diffuse_map=str(tmp_path / "nope.png"))
    assert "map" not in meshcat.get_object("box")["materials"][0]
    obj_file = tmp_path / "tri.obj"
    obj_file.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.warns(UserWarning, match="diffuse_map is not applied to a Mesh"):
        meshcat.set_object("mesh", Mesh(str(obj_file)), diffuse_map=str(obj_file))


# ---- the scene tree as msgpack bytes -----------------------------------------------------
def test_packed_getters_are_the_msgpack_of_what_was_sent_and_empty_otherwise():
    meshcat = Meshcat()
    meshcat.set_object("/test/box", Box(1, 2, 3))
    meshcat.set_transform("/test/box", np.diag([1.0, 1.0, 1.0, 1.0]))
    meshcat.set_property("/Background", "visible", True)
    obj = umsgpack.unpackb(meshcat._get_packed_object("/test/box"))
    assert obj == {"type": "set_object", "path": "/test/box",
                   "object": meshcat.get_object("/test/box")}
    transform = umsgpack.unpackb(meshcat._get_packed_transform("/test/box"))
    assert transform["type"] == "set_transform" and transform["matrix"][15] == 1.0
    assert umsgpack.unpackb(meshcat._get_packed_property("/Background", "visible")) == {
        "type": "set_property", "path": "/Background", "property": "visible", "value": True}
    assert meshcat._get_packed_object("/nothing") == b""
    assert meshcat._get_packed_transform("/nothing") == b""
    assert meshcat._get_packed_property("/Background", "top_color") == b""


def test_property_values_are_typed_as_drakes_overloads():
    meshcat = Meshcat()
    cases = [(2, 2.0), (np.float32(0.5), 0.5), (True, True), ([0, 1, 2], [0.0, 1.0, 2.0]),
             (np.array([1, 2]), [1.0, 2.0]), ("hello", "hello")]
    for value, sent in cases:
        meshcat.set_property("/Lights/AmbientLight/<object>", "p", value)
        packed = umsgpack.unpackb(meshcat._get_packed_property(
            "/Lights/AmbientLight/<object>", "p"))["value"]
        assert packed == sent and type(packed) is type(sent)


# ---- messages from a browser -------------------------------------------------------------
def inject(meshcat, **message):
    meshcat._inject_websocket_message(umsgpack.packb(message))


def test_button_and_slider_messages_reach_known_controls_only():
    meshcat = Meshcat()
    with pytest.warns(UserWarning, match="shows no sliders or buttons"):
        meshcat.add_button("alice")
    meshcat.add_slider("s", min=0.0, max=1.0, step=0.1, value=0.5)
    inject(meshcat, type="button", name="alice")
    inject(meshcat, type="button", name="alice")
    inject(meshcat, type="button", name="bob")                 # unknown: ignored
    assert meshcat.get_button_clicks("alice") == 2
    inject(meshcat, type="slider", name="s", value=0.25)       # the browser's value, as sent
    assert meshcat.get_slider_value("s") == 0.25
    with pytest.warns(UserWarning, match="ignored a 'slider' event"):   # no value, as Drake
        inject(meshcat, type="slider", name="s")
    assert meshcat.get_slider_value("s") == 0.25


def test_gamepad_is_empty_until_a_gamepad_message_arrives():
    meshcat = Meshcat()
    gamepad = meshcat.get_gamepad()
    assert (gamepad.index, gamepad.button_values, gamepad.axes) == (None, [], [])
    inject(meshcat, type="gamepad",
           gamepad={"index": 1, "button_values": [0.0, 1.0], "axes": [0.5, -0.5, 0.0, 1.0]})
    gamepad = meshcat.get_gamepad()
    assert (gamepad.index, gamepad.button_values, gamepad.axes) == (
        1, [0.0, 1.0], [0.5, -0.5, 0.0, 1.0])
    gamepad.axes.clear()                                       # a copy
    assert len(meshcat.get_gamepad().axes) == 4
    assert "index=1" in repr(gamepad)
    assert Meshcat.Gamepad(index=2, axes=[1.0]).axes == [1.0]


def test_a_camera_pose_message_gives_the_tracked_pose_in_drakes_camera_frame():
    meshcat = Meshcat()
    assert meshcat.get_tracked_camera_pose() is None
    # a three.js camera at y-up (1, 2, 3) with the identity rotation (looking along -y_M)
    X_MCm = np.eye(4)
    X_MCm[:3, 3] = [1.0, 2.0, 3.0]
    inject(meshcat, type="camera_pose", camera_pose=list(X_MCm.T.ravel()), is_perspective=True)
    X_WC = meshcat.get_tracked_camera_pose()
    np.testing.assert_allclose(X_WC.translation(), [1.0, -3.0, 2.0], atol=1e-15)
    R = X_WC.rotation().matrix()
    np.testing.assert_allclose(R[:, 2], [0.0, 1.0, 0.0], atol=1e-15)   # Cz forward: +y_W
    np.testing.assert_allclose(R[:, 1], [0.0, 0.0, -1.0], atol=1e-15)  # Cy down
    inject(meshcat, type="camera_pose", camera_pose=list(X_MCm.T.ravel()), is_perspective=False)
    assert meshcat.get_tracked_camera_pose() is None


def test_undecodable_messages_are_ignored_and_unknown_types_warn():
    meshcat = Meshcat()
    meshcat._inject_websocket_message(b"\xc1 not msgpack")
    meshcat._inject_websocket_message(umsgpack.packb([1, 2]))
    with pytest.warns(UserWarning, match="Meshcat ignored a 'dance' event"):
        inject(meshcat, type="dance")
    with pytest.raises(TypeError, match="_inject_websocket_message: message must be bytes, "
                                        "got str"):
        meshcat._inject_websocket_message("button")


def test_a_click_sent_over_the_websocket_reaches_the_button():
    websocket = pytest.importorskip("tornado.websocket")
    meshcat = Meshcat(port=0)
    try:
        with pytest.warns(UserWarning):
            meshcat.add_button("go")

        async def click():
            client = await websocket.websocket_connect(meshcat.ws_url())
            await client.write_message(umsgpack.packb({"type": "button", "name": "go"}),
                                       binary=True)
            while meshcat.get_button_clicks("go") == 0:     # handled on the server thread
                await asyncio.sleep(0.01)
            client.close()
        asyncio.run(asyncio.wait_for(click(), timeout=10))
        assert meshcat.get_button_clicks("go") == 1
    finally:
        meshcat.stop_server()


# ---- static export -----------------------------------------------------------------------
def test_static_zip_holds_a_thin_page_and_the_viewer_bundle():
    meshcat = Meshcat()
    meshcat.set_object("box", Box(1, 1, 1))
    with zipfile.ZipFile(io.BytesIO(meshcat.static_zip())) as archive:
        assert sorted(archive.namelist()) == ["main.min.js", "meshcat.html"]
        page = archive.read("meshcat.html").decode()
        assert '<script src="main.min.js"></script>' in page
        assert "data:application/octet-binary;base64," in page
        assert "MeshCat" in archive.read("main.min.js").decode()
    assert len(page) < len(meshcat.static_html()) / 10


def test_pydrake_spells_the_private_hooks_and_exports_the_perception_names():
    import merganser.pydrake_spelling as sp

    assert sp.PointCloud is PointCloud and sp.Fields is Fields and sp.BaseField is BaseField
    meshcat = sp.Meshcat()
    meshcat.SetProperty("/Lights/AmbientLight/<object>", "intensity", 2)
    parsed = umsgpack.unpackb(meshcat._GetPackedProperty(
        path="/Lights/AmbientLight/<object>", property="intensity"))
    assert parsed["value"] == 2.0
    assert meshcat._GetPackedObject(path="/none") == b""
    assert meshcat._GetPackedTransform(path="/none") == b""
    meshcat._InjectWebsocketMessage(message=umsgpack.packb({"type": "gamepad", "gamepad": {
        "index": 0, "button_values": [], "axes": []}}))
    assert meshcat.GetGamepad().index == 0
