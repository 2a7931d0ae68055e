"""Meshcat: a three.js scene addressed by paths, with recording and a self-contained HTML
replay (Drake's Meshcat, built on the ``meshcat`` package's viewer).

The scene is kept here as the list of meshcat commands that produce it (``set_object``,
``set_transform``, ``set_property``, ``delete``, ``set_animation``), so it can be

- exported as one HTML file (`static_html`, `save_static_html`) that embeds the meshcat
  viewer bundle (three.js included) read from the installed ``meshcat`` package, the
  commands, and a time slider for the recording; it replays offline, with no server
  (`static_zip`: the same as a zip of a thin page and the bundle);
- shown live (`start_server` / `web_url`): a server in this process
  (`geometry.visualization.meshcat_server`) serves the viewer page and sends the commands
  to every connected browser over a websocket; host, port and URL come from
  `MeshcatParams`. What a browser sends back (button clicks, slider moves, gamepad state,
  its camera pose) is applied as Drake applies it (`_handle_message`; tests inject such
  messages with `_inject_websocket_message`).

The last command per path (per path and property) is the server's scene tree:
`_get_packed_object`, `_get_packed_transform` and `_get_packed_property` give its msgpack
bytes, as Drake's private getters do.

Recording (`start_recording`, `stop_recording`, `publish_recording`) keyframes every
`set_transform` / `set_property` given a ``time_in_recording`` (the visualizers pass the
simulation time) into a `MeshcatAnimation`.

Paths are "/"-separated; a path not starting with "/" is relative to "/merganser".
"""

from __future__ import annotations

import inspect
import math
import threading
import warnings
from pathlib import Path

import numpy as np

from merganser.geometry.point_cloud import PointCloud
from merganser.geometry.rigid_transform import RigidTransform
from merganser.geometry.rotation_matrix import RotationMatrix
from merganser.geometry.triangle_surface_mesh import TriangleSurfaceMesh
from merganser.geometry.visualization.meshcat_animation import MeshcatAnimation
from merganser.geometry.visualization.meshcat_buffers import (
    OrthographicCamera, PerspectiveCamera, SideOfFaceToRender, camera_object, line_object,
    point_cloud_object, surface_arrays, triangle_mesh_object)
from merganser.geometry.visualization.meshcat_controls import Gamepad, MeshcatControls
from merganser.geometry.visualization.meshcat_params import MeshcatParams, web_url_from_pattern
from merganser.geometry.visualization.meshcat_shapes import (image_data_uri, shape_to_object,
                                                              with_diffuse_map)

__all__ = ["Meshcat", "MeshcatParams", "MeshcatUnavailableError", "meshcat_viewer_bundle",
           "start_meshcat"]

ROOT = "/merganser"


class MeshcatUnavailableError(ImportError):
    """The ``meshcat`` package (which ships the viewer bundle) is not installed."""


def _viewer_root():
    """Folder of the meshcat viewer (``index.html``, ``main.min.js``) in the installed
    ``meshcat`` package."""
    from importlib.util import find_spec

    spec = find_spec("meshcat")            # located, not imported (it would start zmq)
    if spec is None or not spec.submodule_search_locations:
        raise MeshcatUnavailableError(
            "Meshcat needs the 'meshcat' package for its viewer (three.js) bundle; install "
            "it with `pip install meshcat` (or the project's `viz` extra)")
    return Path(list(spec.submodule_search_locations)[0]) / "viewer" / "dist"


def _params_of(params, port):
    """The MeshcatParams of ``Meshcat(params, port)`` (an int `params` is a port)."""
    if isinstance(params, int) and not isinstance(params, bool) and port is None:
        params, port = None, params
    if params is not None and not isinstance(params, MeshcatParams):
        raise TypeError(f"Meshcat: params must be a MeshcatParams or an int port, got "
                        f"{type(params).__name__}")
    if params is not None and port is not None:
        raise TypeError("Meshcat: give the port once (params=MeshcatParams(port=...) or "
                        "port=), not both")
    if port is None:
        return params if params is not None else MeshcatParams()
    if isinstance(port, bool) or not isinstance(port, int):
        raise TypeError(f"Meshcat: port must be an int or None, got {type(port).__name__}")
    try:
        return MeshcatParams(port=port)
    except ValueError as error:                 # pydantic's ValidationError
        raise ValueError(f"Meshcat: port must be 0 or in [1024, 65535], got {port}") \
            from error


def meshcat_viewer_bundle():
    """(JavaScript source, version) of the meshcat viewer bundled with the installed
    ``meshcat`` package (three.js included)."""
    from importlib.metadata import PackageNotFoundError, version

    path = _viewer_root() / "main.min.js"
    if not path.is_file():
        raise MeshcatUnavailableError(f"the meshcat package at {path.parent} has no viewer "
                                      f"bundle main.min.js")
    try:
        ver = version("meshcat")
    except PackageNotFoundError:
        ver = "unknown"
    return path.read_text(encoding="utf-8"), ver


def _full_path(path):
    if not isinstance(path, str):
        raise TypeError(f"Meshcat: path must be a str, got {type(path).__name__}")
    if path.startswith("/"):
        full = path
    else:
        full = f"{ROOT}/{path}" if path else ROOT
    return "/" + "/".join(p for p in full.split("/") if p)


def _matrix4(fn, X):
    if hasattr(X, "get_as_matrix4"):
        X = X.get_as_matrix4()
    X = np.asarray(X, dtype=float)
    if X.shape != (4, 4) or not np.all(np.isfinite(X)):
        raise ValueError(f"{fn}: X must be a RigidTransform or a finite (4, 4) matrix, got "
                         f"shape {X.shape}")
    return X


def _property_value(value):
    """A property value typed as Drake's SetProperty overloads send it (bool, double,
    vector<double>, string); other values (dicts of the viewer's own) as they are."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    if isinstance(value, (list, tuple, np.ndarray)):
        array = np.asarray(value)
        if array.ndim == 1 and (np.issubdtype(array.dtype, np.integer)
                                or np.issubdtype(array.dtype, np.floating)):
            return [float(v) for v in array]
    return value


def _shape_form(shape, rgba=None, diffuse_map=""):
    if isinstance(shape, dict):
        return shape
    return with_diffuse_map(shape_to_object(shape, rgba), shape, diffuse_map)


def _cloud_form(cloud, point_size=0.001, rgba=(0.9, 0.9, 0.9, 1.0)):
    return point_cloud_object("set_object", cloud, point_size, rgba)


def _mesh_form(mesh, rgba=(0.1, 0.1, 0.1, 1.0), wireframe=False, wireframe_line_width=1.0,
               side=SideOfFaceToRender.kDoubleSide):
    if not isinstance(mesh, TriangleSurfaceMesh):
        raise TypeError(f"Meshcat.set_object: mesh must be a TriangleSurfaceMesh, got "
                        f"{type(mesh).__name__}")
    return triangle_mesh_object("set_object", mesh.vertex_array().T, mesh.index_array().T,
                                rgba=rgba, wireframe=wireframe,
                                wireframe_line_width=wireframe_line_width, side=side)


_FORM_SIGNATURES = {
    _shape_form: 'shape, rgba=None, diffuse_map=""',
    _cloud_form: "cloud, point_size=0.001, rgba=Rgba(0.9, 0.9, 0.9, 1)",
    _mesh_form: "mesh, rgba=Rgba(0.1, 0.1, 0.1, 1), wireframe=False, "
                "wireframe_line_width=1.0, side=SideOfFaceToRender.kDoubleSide",
}


def _object_form(args, kwargs):
    """The set_object overload of these arguments: by keyword (shape=, cloud=, mesh=), else
    by the type of the first positional one."""
    named = [key for key in ("shape", "cloud", "mesh") if key in kwargs]
    if len(named) > 1:
        raise TypeError(f"Meshcat.set_object: give one of shape=, cloud= or mesh=, got "
                        f"{', '.join(k + '=' for k in named)}")
    if named:
        return {"shape": _shape_form, "cloud": _cloud_form, "mesh": _mesh_form}[named[0]]
    if not args:
        raise TypeError("Meshcat.set_object: give the object to set (a Shape or a "
                        "three.js dict, a PointCloud or a TriangleSurfaceMesh) after path")
    if isinstance(args[0], PointCloud):
        return _cloud_form
    if isinstance(args[0], TriangleSurfaceMesh):
        return _mesh_form
    return _shape_form


class Meshcat(MeshcatControls):
    """A meshcat scene (see the module docstring), with Drake's sliders and buttons
    (`geometry.visualization.meshcat_controls`: values held for the program,
    no controls drawn) and realtime-rate / simulation-time reports.

    Parameters
    ----------
    params : MeshcatParams or int, optional
        Host, port, URL pattern and initial properties (`MeshcatParams`); an int is a
        port (Drake's ``Meshcat(port)``).
    port : int, optional
        The port (Drake's ``Meshcat(port=)``): None for the first free one in
        [7000, 7999], 0 for an ephemeral one, else >= 1024.
    start_server : bool
        Start the live server now. Given `params` or `port` the server starts at
        construction, as Drake's does (a taken port raises RuntimeError); with neither it
        starts at the first `web_url` / `port` / `start_server` call, so a Meshcat used
        only for recording and HTML export opens no socket.
    """

    SideOfFaceToRender = SideOfFaceToRender
    PerspectiveCamera = PerspectiveCamera
    OrthographicCamera = OrthographicCamera
    Gamepad = Gamepad

    def __init__(self, params=None, port=None, *, start_server=False):
        super().__init__()
        self._params = _params_of(params, port)
        self._realtime_rate = 0.0
        self._simulation_time = 0.0
        self._objects = {}        # path -> set_object command
        self._transforms = {}     # path -> set_transform command
        self._properties = {}     # (path, property) -> set_property command
        self._animation = None
        self._recording = None
        self._set_while_recording = True
        self._published = None    # set_animation command
        self._server = None
        self._camera_pose = None  # X_WC a browser reported (Drake's camera frame)
        self._messages = threading.Lock()
        for initial in self._params.initial_properties:
            self.set_property(initial.path, initial.property, initial.value)
        if start_server or params is not None or port is not None:
            self.start_server()

    # ---- live server (`geometry.visualization.meshcat_server`) ----------------------------
    def start_server(self):
        """Start the live server (in this process, on a thread) and return `web_url`; the
        browser that connects is sent the scene so far, then every change.

        Raises
        ------
        RuntimeError
            When the port of the MeshcatParams is taken (or, with no port given, every
            port in [7000, 7999]).
        MeshcatUnavailableError
            Without the ``meshcat`` package (its viewer bundle and server libraries).
        """
        if self._server is None:
            from merganser.geometry.visualization.meshcat_server import MeshcatServer

            try:
                self._server = MeshcatServer(self._params.host, self._params.port,
                                             self._scene_commands, _viewer_root(),
                                             receive=self._handle_message)
            except ImportError as error:
                raise MeshcatUnavailableError(
                    f"Meshcat.start_server needs the 'meshcat' package (and its tornado "
                    f"and u-msgpack-python); install it with `pip install meshcat` "
                    f"({error})") from None
        return web_url_from_pattern(self._params, self._server.port())

    def stop_server(self):
        """Stop the live server started by `start_server` (the scene is kept)."""
        if self._server is not None:
            self._server.stop()
            self._server = None

    def is_server_running(self):
        """True between `start_server` and `stop_server`."""
        return self._server is not None

    def web_url(self):
        """The viewer's http URL, e.g. "http://localhost:7000" (no trailing slash, as
        Drake's; `MeshcatParams.web_url_pattern` shapes it). Starts the server if needed."""
        return self.start_server()

    def ws_url(self):
        """The websocket URL: `web_url` with "http" replaced by "ws" ("https" by "wss")."""
        url = self.web_url()
        return "ws" + url[len("http"):] if url.startswith("http") else url

    def port(self):
        """The port listened on for http and websocket connections (starts the server if
        needed)."""
        self.start_server()
        return self._server.port()

    def get_num_active_connections(self):
        """How many browsers are connected to the live server (0 without one)."""
        return 0 if self._server is None else self._server.num_active_connections()

    def get_params(self):
        """The MeshcatParams this Meshcat was made with."""
        return self._params

    def _send(self, cmd):
        if self._server is not None:
            self._server.broadcast(cmd)

    # ---- scene ---------------------------------------------------------------------------
    def set_object(self, path, *args, **kwargs):
        """Set the object at `path` (drawn at ``<path>/<object>``), replacing what was there.
        Drake's three overloads, told apart by the keyword or by the type of the first
        argument after `path`:

        - ``set_object(path, shape, rgba=None, diffuse_map="")``: a geometry Shape (or a
          three.js object JSON dict) in `rgba` (default (0.9, 0.9, 0.9, 1); a Mesh without
          one keeps its file's materials), textured by the image file `diffuse_map`
          (`meshcat_shapes.with_diffuse_map`: not on a Mesh or a Convex);
        - ``set_object(path, cloud, point_size=0.001, rgba=(0.9, 0.9, 0.9, 1))``: a
          PointCloud's xyzs as points of `point_size`, colored by its rgbs when it has
          them, else by `rgba`;
        - ``set_object(path, mesh, rgba=(0.1, 0.1, 0.1, 1), wireframe=False,
          wireframe_line_width=1.0, side=SideOfFaceToRender.kDoubleSide)``: a
          TriangleSurfaceMesh.

        Parameters
        ----------
        path : str
            The scene path ("/"-separated; relative paths are under /merganser).
        shape : Shape or dict
        cloud : PointCloud
        mesh : TriangleSurfaceMesh
        rgba : Rgba or array_like, shape (4,)
        diffuse_map : str or Path
        point_size : float
            > 0.
        wireframe : bool
        wireframe_line_width : float
        side : Meshcat.SideOfFaceToRender

        Raises
        ------
        TypeError
            For arguments that fit none of the three forms (the message names the form).
        """
        form = _object_form(args, kwargs)
        try:
            bound = inspect.signature(form).bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"Meshcat.set_object(path, {_FORM_SIGNATURES[form]}): {error}") \
                from None
        full = _full_path(path)
        cmd = {"type": "set_object", "path": full, "object": form(**bound.arguments)}
        self._objects[full] = cmd
        self._send(cmd)

    def set_transform(self, path, X_ParentPath=None, time_in_recording=None, *, matrix=None):
        """Set the transform of `path` relative to its parent path (RigidTransform or (4, 4),
        which may include a positive scale; pydrake's ``matrix=`` for the (4, 4) form);
        keyframed too while recording."""
        if (X_ParentPath is None) == (matrix is None):
            raise TypeError("Meshcat.set_transform: give the transform once (X_ParentPath "
                            "or matrix=)")
        if X_ParentPath is None:
            X_ParentPath = matrix
        full = _full_path(path)
        X = _matrix4("Meshcat.set_transform", X_ParentPath)
        if self._recording is not None and time_in_recording is not None:
            self._recording.set_transform(self._recording.frame(time_in_recording), full, X)
            if not self._set_while_recording:
                return
        cmd = {"type": "set_transform", "path": full, "matrix": list(X.T.ravel())}
        self._transforms[full] = cmd
        self._send(cmd)

    def set_property(self, path, prop=None, value=None, time_in_recording=None, *,
                     property=None):  # noqa: A002 (pydrake's keyword)
        """Set a property of `path` ("visible", "color", "position", ...; the name as
        `prop` or pydrake's ``property=``). The value is sent as Drake's overloads type
        it: a bool as a bool, any other number as a float (``2`` as ``2.0``), a sequence or
        array of numbers as a list of floats, a str as it is."""
        if (prop is None) == (property is None) or value is None:
            raise TypeError("Meshcat.set_property: give the property name once (prop or "
                            "property=) and its value")
        if prop is None:
            prop = property
        full = _full_path(path)
        value = _property_value(value)
        if self._recording is not None and time_in_recording is not None:
            self._recording.set_property(self._recording.frame(time_in_recording), full, prop,
                                         value)
            if not self._set_while_recording:
                return
        cmd = {"type": "set_property", "path": full, "property": prop, "value": value}
        self._properties[(full, prop)] = cmd
        self._send(cmd)

    def set_environment_map(self, image_path):
        """Set the viewer's environment texture, the lighting and reflections of
        physically-based materials (Drake's SetEnvironmentMap): an equirectangular image
        (jpg, png, ...) sent as a data URI, the ``environment_map`` property of
        ``/Background/<object>``; an empty path clears it.

        Parameters
        ----------
        image_path : str or Path
            The image file, or "" to clear the map.

        Raises
        ------
        RuntimeError
            A non-empty path whose file cannot be read.
        """
        if not isinstance(image_path, (str, Path)):
            raise TypeError(f"Meshcat.set_environment_map: image_path must be a str or Path, "
                            f"got {type(image_path).__name__}")
        value = ""
        if str(image_path):
            try:
                value = image_data_uri(image_path)
            except OSError as exc:
                raise RuntimeError(f"Meshcat.set_environment_map: cannot read the image "
                                   f"{str(image_path)!r}: {exc.strerror}") from None
        self.set_property("/Background/<object>", "environment_map", value)

    def delete(self, path=""):
        """Delete `path` and everything below it (default: everything under /merganser)."""
        full = _full_path(path)
        below = full.rstrip("/") + "/"
        for table in (self._objects, self._transforms):
            for p in [p for p in table if p == full or p.startswith(below)]:
                del table[p]
        for key in [k for k in self._properties if k[0] == full or k[0].startswith(below)]:
            del self._properties[key]
        self._send({"type": "delete", "path": full})

    def set_camera_pose(self, camera_in_world, target_in_world):
        """Place the default camera at `camera_in_world` (3,) looking at `target_in_world`
        (3,), both in m in the world frame (z up)."""
        camera = np.asarray(camera_in_world, dtype=float).reshape(3)
        target = np.asarray(target_in_world, dtype=float).reshape(3)
        X = np.eye(4)
        X[:3, 3] = target
        self.set_transform("/Cameras/default", X)
        d = camera - target                       # the viewer's camera node is y-up
        self.set_property("/Cameras/default/rotated/<object>", "position",
                          [float(d[0]), float(d[2]), float(-d[1])])

    # ---- lines, meshes, surfaces (`geometry.visualization.meshcat_buffers`) --------------
    _DARK = (0.1, 0.1, 0.1, 1.0)

    def set_line(self, path, vertices, line_width=1.0, rgba=_DARK):
        """A polyline through the (3, N) `vertices` (m, in the path's frame)."""
        self.set_object(path, line_object("set_line", vertices, line_width, rgba))

    def set_line_segments(self, path, start, end, line_width=1.0, rgba=_DARK):
        """Segments from each column of `start` (3, N) to the same column of `end`."""
        start = np.asarray(start, dtype=float)
        end = np.asarray(end, dtype=float)
        if start.shape != end.shape or start.ndim != 2 or start.shape[0] != 3:
            raise ValueError(f"Meshcat.set_line_segments: start and end must be (3, N) "
                             f"arrays of one shape, got {start.shape} and {end.shape}")
        pairs = np.empty((3, 2 * start.shape[1]))
        pairs[:, 0::2], pairs[:, 1::2] = start, end
        self.set_object(path, line_object("set_line_segments", pairs, line_width, rgba,
                                          segments=True))

    def set_triangle_mesh(self, path, vertices, faces, rgba=_DARK, wireframe=False,
                          wireframe_line_width=1.0, side=SideOfFaceToRender.kDoubleSide):
        """A triangle mesh of the (3, N) `vertices` and (3, M) integer `faces`."""
        self.set_object(path, triangle_mesh_object(
            "set_triangle_mesh", vertices, faces, rgba=rgba, wireframe=wireframe,
            wireframe_line_width=wireframe_line_width, side=side))

    def set_triangle_color_mesh(self, path, vertices, faces, colors, wireframe=False,
                                wireframe_line_width=1.0,
                                side=SideOfFaceToRender.kDoubleSide):
        """A triangle mesh colored per vertex by `colors` (3, N), rgb in [0, 1]."""
        self.set_object(path, triangle_mesh_object(
            "set_triangle_color_mesh", vertices, faces, colors=colors, wireframe=wireframe,
            wireframe_line_width=wireframe_line_width, side=side))

    def plot_surface(self, path, X, Y, Z, rgba=(0.1, 0.1, 0.9, 1.0), wireframe=False,
                     wireframe_line_width=1.0):
        """The surface z = Z(X, Y) of (m, n) grids, two triangles per grid cell."""
        vertices, faces = surface_arrays("plot_surface", X, Y, Z)
        self.set_triangle_mesh(path, vertices, faces, rgba, wireframe, wireframe_line_width)

    # ---- camera and render mode ----------------------------------------------------------
    def set_camera(self, camera, path="/Cameras/default/rotated"):
        """Replace the camera at `path` by a PerspectiveCamera or an OrthographicCamera
        (Drake's SetCamera)."""
        self.set_object(path, camera_object(camera))

    def set_camera_target(self, target_in_world):
        """Point the default camera at `target_in_world` (3,), keeping its offset."""
        target = np.asarray(target_in_world, dtype=float).reshape(3)
        X = np.eye(4)
        X[:3, 3] = target
        self.set_transform("/Cameras/default", X)

    def set2d_render_mode(self, X_WC=None, xmin=-1.0, xmax=1.0, ymin=-1.0, ymax=1.0):
        """Look along +y of the camera pose X_WC (default: from (0, -1, 0)) with an
        orthographic camera spanning [xmin, xmax] x [ymin, ymax] in its x-z plane, the
        grid, axes and background hidden (Drake's Set2dRenderMode)."""
        X = np.eye(4) if X_WC is None else _matrix4("Meshcat.set2d_render_mode", X_WC)
        if X_WC is None:
            X[1, 3] = -1.0
        self.set_transform("/Cameras/default", X)
        self.set_property("/Cameras/default/rotated/<object>", "position", [0.0, 0.0, 0.0])
        self.set_camera(OrthographicCamera(left=xmin, right=xmax, top=ymax, bottom=ymin,
                                           near=-1000.0, far=1000.0))
        for hidden in ("/Grid", "/Axes", "/Background"):
            self.set_property(hidden, "visible", False)

    def reset_render_mode(self):
        """Undo `set2d_render_mode`: the default perspective camera, grid, axes and
        background back (Drake's ResetRenderMode)."""
        self.set_camera(PerspectiveCamera(fov=75.0, aspect=1.0, near=0.01, far=100.0))
        self.set_transform("/Cameras/default", np.eye(4))
        for shown in ("/Grid", "/Axes", "/Background"):
            self.set_property(shown, "visible", True)

    def get_tracked_camera_pose(self):
        """The pose X_WC of the camera a browser last reported (a ``camera_pose`` message),
        in Drake's camera convention (+Cz forward, +Cy down), as a RigidTransform; None
        before any report or when the reported camera is orthographic. The meshcat
        package's viewer sends none, so with it this stays None, as Drake's does until a
        browser reports."""
        with self._messages:
            return self._camera_pose

    def has_path(self, path):
        """True when an object or a transform is set at `path` or below."""
        full = _full_path(path)
        below = full.rstrip("/") + "/"
        return any(p == full or p.startswith(below)
                   for p in list(self._objects) + list(self._transforms))

    def object_paths(self):
        """Paths of every object set, sorted."""
        return sorted(self._objects)

    def get_object(self, path):
        """The three.js object JSON (a dict) last set at `path` (KeyError if none)."""
        return self._objects[_full_path(path)]["object"]

    def get_transform(self, path):
        """The last (4, 4) transform set at `path` (KeyError if none)."""
        m = self._transforms[_full_path(path)]["matrix"]
        return np.array(m, dtype=float).reshape(4, 4).T

    # ---- the server's scene tree and browser messages ------------------------------------
    def _get_packed_object(self, path):
        """The msgpack bytes of the set_object message last sent for `path` (what a browser
        receives), or b"" when none is set there (Drake's GetPackedObject, bound privately
        in pydrake for tests)."""
        cmd = self._objects.get(_full_path(path))
        return b"" if cmd is None else _pack("_get_packed_object", cmd)

    def _get_packed_transform(self, path):
        """The msgpack bytes of the set_transform message last sent for `path`, or b""."""
        cmd = self._transforms.get(_full_path(path))
        return b"" if cmd is None else _pack("_get_packed_transform", cmd)

    def _get_packed_property(self, path, property):  # noqa: A002 (pydrake's keyword)
        """The msgpack bytes of the set_property message last sent for `property` of
        `path`, or b""."""
        cmd = self._properties.get((_full_path(path), property))
        return b"" if cmd is None else _pack("_get_packed_property", cmd)

    def _inject_websocket_message(self, message):
        """Handle `message` (msgpack bytes) as if a browser had sent it over the websocket
        (Drake's InjectWebsocketMessage, bound privately in pydrake for tests); see
        `_handle_message`."""
        if not isinstance(message, (bytes, bytearray, memoryview)):
            raise TypeError(f"Meshcat._inject_websocket_message: message must be bytes, got "
                            f"{type(message).__name__}")
        self._handle_message(bytes(message))

    def _handle_message(self, message):
        """One websocket message from a browser (msgpack bytes of a dict with a "type"):
        ``button``, ``slider`` and ``gamepad`` go to the controls
        (`MeshcatControls.handle_control_message`), ``camera_pose`` (16 column-major
        floats of the three.js camera's world matrix and ``is_perspective``) sets
        `get_tracked_camera_pose`. A message that does not decode to such a dict is
        ignored quietly; one of another type with a warning, as Drake logs it."""
        try:
            umsgpack = _umsgpack("_inject_websocket_message")
            data = umsgpack.unpackb(bytes(message))
        except MeshcatUnavailableError:
            raise
        except Exception:       # noqa: BLE001 (any undecodable message is ignored)
            return
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            return
        with self._messages:
            if self.handle_control_message(data):
                return
            if data["type"] == "camera_pose":
                pose = data.get("camera_pose")
                perspective = data.get("is_perspective")
                if isinstance(pose, list) and len(pose) == 16 and isinstance(perspective,
                                                                              bool):
                    try:
                        self._camera_pose = _camera_pose_from_meshcat(pose) if perspective \
                            else None
                    except (TypeError, ValueError):
                        return          # not a rigid transform: ignored
                    return
        warnings.warn(f"Meshcat ignored a {data['type']!r} event", UserWarning, stacklevel=2)

    # ---- realtime rate and simulation time (Drake's reports to the browser) ------------------
    def set_realtime_rate(self, rate):
        """Record the realtime rate to report (the Simulator's, as Drake's visualizers
        send it); shown by Drake's own viewer, kept here for `get_realtime_rate`."""
        rate = float(rate)
        if not math.isfinite(rate):
            raise ValueError(f"Meshcat.set_realtime_rate: rate must be finite, got {rate!r}")
        self._realtime_rate = rate

    def get_realtime_rate(self):
        """The last rate given to `set_realtime_rate` (0 before)."""
        return self._realtime_rate

    def set_simulation_time(self, sim_time):
        """Record the simulation time to report (Drake's SetSimulationTime)."""
        sim_time = float(sim_time)
        if not math.isfinite(sim_time):
            raise ValueError(f"Meshcat.set_simulation_time: sim_time must be finite, got "
                             f"{sim_time!r}")
        self._simulation_time = sim_time

    def get_simulation_time(self):
        """The last time given to `set_simulation_time` (0 before)."""
        return self._simulation_time

    def flush(self):
        """Drake's Flush: commands are sent as they are made here, so nothing is pending."""

    # ---- recording -----------------------------------------------------------------------
    def start_recording(self, frames_per_second=64.0, set_visualizations_while_recording=True,
                        *, set_transforms_while_recording=None):
        """Start keyframing; an existing recording is replaced. With
        `set_visualizations_while_recording` False (pydrake's keyword; the older
        ``set_transforms_while_recording`` too) the scene itself is not updated while
        recording."""
        if set_transforms_while_recording is not None:
            set_visualizations_while_recording = set_transforms_while_recording
        self._recording = MeshcatAnimation(frames_per_second)
        self._animation = self._recording
        self._set_while_recording = bool(set_visualizations_while_recording)

    def stop_recording(self):
        """Stop keyframing (the recording is kept)."""
        self._recording = None

    def is_recording(self):
        return self._recording is not None

    def get_recording(self):
        """The current MeshcatAnimation (None before `start_recording`)."""
        return self._animation

    def get_mutable_recording(self):
        """The MeshcatAnimation being recorded, to edit (Drake's get_mutable_recording).

        Raises
        ------
        RuntimeError
            Before `start_recording` (or after `delete_recording`).
        """
        if self._animation is None:
            raise RuntimeError("Meshcat.get_mutable_recording: there is no recording; call "
                               "start_recording() first")
        return self._animation

    def delete_recording(self):
        self._animation = self._recording = self._published = None

    def set_animation(self, animation):
        """Send `animation` (a MeshcatAnimation) as the scene's animation: it plays in the
        viewer, with the animation's autoplay, loop mode, repetitions and clamping, and is
        part of the HTML export."""
        if not isinstance(animation, MeshcatAnimation):
            raise TypeError(f"Meshcat.set_animation: animation must be a MeshcatAnimation, "
                            f"got {type(animation).__name__}")
        self._animation = animation
        self._published = {"type": "set_animation", "path": "",
                           "animations": animation.lower(), "options": animation.options()}
        self._send(self._published)

    def publish_recording(self, play=None, repetitions=None):
        """Send the recording as the scene's animation (`set_animation`). `play` and
        `repetitions`, when given, are set on the recording first (`set_autoplay`,
        `set_repetitions`)."""
        if self._animation is None:
            raise RuntimeError("Meshcat.publish_recording: nothing was recorded; call "
                               "start_recording() before simulating")
        if play is not None:
            self._animation.set_autoplay(play)
        if repetitions is not None:
            self._animation.set_repetitions(repetitions)
        self.set_animation(self._animation)

    # ---- export --------------------------------------------------------------------------
    def _scene_commands(self):
        cmds = list(self._objects.values()) + list(self._transforms.values()) + \
            list(self._properties.values())
        if self._published is not None:
            cmds.append(self._published)
        return cmds

    def _page(self, title, bundle_src=None):
        from merganser.geometry.visualization.html_export import render_static_html

        bundle, version = meshcat_viewer_bundle()
        duration = 0.0 if self._published is None else self._animation.duration()
        messages = [_pack("static_html", cmd) for cmd in self._scene_commands()]
        return render_static_html(bundle, version, messages, duration, title, bundle_src)

    def static_html(self, title="merganser replay"):
        """One self-contained HTML page replaying the scene and the published recording
        offline (meshcat viewer and three.js embedded, time slider): each command is the
        msgpack message the live server sends, embedded as a
        ``data:application/octet-binary;base64`` URI, as Drake's StaticHtml does."""
        return self._page(title)

    def static_zip(self, title="merganser replay"):
        """The `static_html` snapshot as the bytes of a ZIP file (Drake's StaticZip): a
        thin ``meshcat.html`` (the scene's commands, the time slider) that loads the
        viewer from the ``main.min.js`` beside it. Serve the unzipped folder over http
        (``python -m http.server``) to view it."""
        import io
        import zipfile

        page = self._page(title, bundle_src="main.min.js")
        bundle, _ = meshcat_viewer_bundle()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("meshcat.html", page)
            archive.writestr("main.min.js", bundle)
        return buffer.getvalue()

    def save_static_html(self, filename, title="merganser replay"):
        """Write `static_html` to `filename` (folders created); returns its Path."""
        path = Path(filename)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.static_html(title), encoding="utf-8")
        return path

    def __repr__(self):
        state = "recording" if self._recording is not None else "idle"
        return f"<Meshcat {len(self._objects)} objects, {state}>"


def _umsgpack(fn):
    try:
        import umsgpack
    except ImportError:
        raise MeshcatUnavailableError(
            f"Meshcat.{fn} needs u-msgpack-python (installed with the 'meshcat' package: "
            f"`pip install meshcat`)") from None
    return umsgpack


def _pack(fn, cmd):
    """The msgpack bytes of a command, as the server sends it."""
    return _umsgpack(fn).packb(cmd)


def _camera_pose_from_meshcat(values):
    """X_WC of a three.js camera world matrix (16 column-major floats, y-up world M, the
    camera looking along -z with +y up) in Drake's z-up world W and camera frame C (+Cz
    forward, +Cy down): R_WM = Rx(π/2), R_CmC = diag(1, -1, -1)."""
    X_MCm = np.asarray(values, dtype=float).reshape(4, 4).T
    R_WM = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    R_WC = R_WM @ X_MCm[:3, :3] @ np.diag([1.0, -1.0, -1.0])
    return RigidTransform(RotationMatrix(R_WC), R_WM @ X_MCm[:3, 3])


def start_meshcat():
    """A Meshcat with its live server started, the URL printed (Drake's StartMeshcat).

    Raises
    ------
    MeshcatUnavailableError
        Without the ``meshcat`` package (the `viz` extra).
    """
    meshcat = Meshcat()
    url = meshcat.start_server()
    print(f"Meshcat is now available at {url}")
    return meshcat
