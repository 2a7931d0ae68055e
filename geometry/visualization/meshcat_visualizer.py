"""MeshcatVisualizer: draws a SceneGraph's geometry in a Meshcat and moves it as the
simulation runs (Drake's MeshcatVisualizer).

::

    query_object ──▶ ┌───────────────────┐
                     │ MeshcatVisualizer │   (publishes to a Meshcat)
                     └───────────────────┘

On the first publish (and whenever the scene graph's geometry changes) every geometry
with the chosen role is set as an object at ``/<prefix>/<source>/<frame>/<geometry>``,
posed by its X_FG; each publish then sets the frames' poses X_WF (at the context's time
in the recording, when the Meshcat is recording). Geometry fixed to the world is drawn
once. Colors: the illustration property ("phong", "diffuse"), else
``params.default_color``; meshes without a color keep their own materials.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from merganser.framework import LeafSystem

__all__ = ["MeshcatVisualizer", "MeshcatVisualizerParams"]

_ROLES = ("illustration", "proximity", "perception")


@dataclass
class MeshcatVisualizerParams:
    """Options of MeshcatVisualizer (Drake's MeshcatVisualizerParams).

    Attributes
    ----------
    publish_period : float
        Seconds between publishes (simulation time).
    role : str
        "illustration" (default), "proximity" or "perception".
    default_color : list of 4 floats
        RGBA of geometry without a diffuse color.
    prefix : str
        Meshcat path under which the geometry is drawn (default: the role).
    delete_on_initialization_event : bool
        Delete ``prefix`` when the simulation initializes.
    visible_by_default : bool
        Initial ``visible`` property of ``prefix``.
    """

    publish_period: float = 1.0 / 64.0
    role: str = "illustration"
    default_color: list = field(default_factory=lambda: [0.9, 0.9, 0.9, 1.0])
    prefix: str = ""
    delete_on_initialization_event: bool = True
    visible_by_default: bool = True


def _clean(name):
    """A Meshcat path segment of a SceneGraph name."""
    return str(name).replace("/", "_") or "_"


def _frame_segment(name):
    """The Meshcat path of a frame name: Drake's scope separator "::" becomes a path level
    ("model::link" -> "model/link"), as Drake's MeshcatVisualizer does."""
    return "/".join(_clean(part) for part in str(name).split("::")) or "_"


def _geometry_segment(name):
    """The Meshcat path segment of a geometry: its name without the model scope (the
    frame's path already holds it)."""
    return _clean(str(name).rsplit("::", 1)[-1])


class MeshcatVisualizer(LeafSystem):
    """See the module docstring.

    Parameters
    ----------
    meshcat : Meshcat
    params : MeshcatVisualizerParams, optional
    """

    def __init__(self, meshcat, params=None):
        super().__init__()
        params = MeshcatVisualizerParams() if params is None else params
        if not isinstance(params, MeshcatVisualizerParams):
            raise TypeError(f"MeshcatVisualizer: params must be MeshcatVisualizerParams, got "
                            f"{type(params).__name__}")
        if params.role not in _ROLES:
            raise ValueError(f"MeshcatVisualizer: params.role must be one of {_ROLES}, got "
                             f"{params.role!r}")
        if not params.publish_period > 0.0:
            raise ValueError(f"MeshcatVisualizer: params.publish_period must be > 0, got "
                             f"{params.publish_period!r}")
        if not hasattr(meshcat, "set_object"):
            raise TypeError(f"MeshcatVisualizer: meshcat must be a Meshcat, got "
                            f"{type(meshcat).__name__}")
        self._meshcat = meshcat
        self._params = params
        self._prefix = "/" + "/".join(p for p in ("merganser/" + (params.prefix or params.role))
                                      .split("/") if p)
        self._drawn_version = None
        self._frames = []       # (path, FrameId, GeometryId, X_GF (4, 4))
        self._query = self.declare_abstract_input_port("query_object", None)
        self.declare_periodic_publish_event(params.publish_period, 0.0, self._publish)
        self.declare_forced_publish_event(self._publish)
        self.declare_initialization_publish_event(self._on_initialization)

    # ---- construction helpers ------------------------------------------------------------
    @staticmethod
    def add_to_builder(builder, scene_graph_or_query_port=None, meshcat=None, params=None, *,
                       scene_graph=None, query_object_port=None):
        """Add a MeshcatVisualizer to `builder`, fed by the SceneGraph's query output port
        (or by the given query output port; pydrake's keywords ``scene_graph=`` or
        ``query_object_port=`` also name it); returns it."""
        given = [x for x in (scene_graph_or_query_port, scene_graph, query_object_port)
                 if x is not None]
        if len(given) != 1 or meshcat is None:
            raise TypeError("MeshcatVisualizer.add_to_builder: give the scene graph or its "
                            "query port once, and the meshcat")
        port = given[0]
        if hasattr(port, "get_query_output_port"):
            port = port.get_query_output_port()
        visualizer = builder.add_system(MeshcatVisualizer(meshcat, params))
        name = f"meshcat_visualizer({visualizer._params.prefix or visualizer._params.role})"
        if not builder.has_subsystem_named(name):
            visualizer.set_name(name)
        builder.connect(port, visualizer.get_query_object_input_port())
        return visualizer

    def get_query_object_input_port(self):
        return self._query

    def query_object_input_port(self):
        """pydrake's name of `get_query_object_input_port`."""
        return self.get_query_object_input_port()

    def prefix(self):
        """The Meshcat path the geometry is drawn under."""
        return self._prefix

    # ---- recording (forwarded to the Meshcat) ----------------------------------------------
    def start_recording(self, set_transforms_while_recording=True):
        """Start recording the published poses at 1 / publish_period frames per second."""
        self._meshcat.start_recording(1.0 / self._params.publish_period,
                                      set_transforms_while_recording)
        return self._meshcat.get_recording()

    def stop_recording(self):
        self._meshcat.stop_recording()

    def publish_recording(self):
        self._meshcat.publish_recording()

    def delete_recording(self):
        self._meshcat.delete_recording()

    def get_mutable_recording(self):
        return self._meshcat.get_recording()

    def delete(self):
        """Delete everything this visualizer drew."""
        self._meshcat.delete(self._prefix)
        self._drawn_version = None

    # ---- publishing ----------------------------------------------------------------------
    def _on_initialization(self, context):
        if self._params.delete_on_initialization_event:
            self.delete()
        self._publish(context)

    def _publish(self, context):
        query = self._query.eval(context)
        if query is None:
            raise RuntimeError(f"MeshcatVisualizer '{self.get_name()}': input port "
                               f"'query_object' has no QueryObject; connect SceneGraph's query "
                               f"output port")
        inspector = query.inspector()
        version = (inspector.num_frames(), inspector.num_geometries())
        if self._drawn_version != version or not self._meshcat.has_path(self._prefix):
            self._draw(inspector, query)
            self._drawn_version = version
        t = context.get_time()
        for path, gid, X_GF in self._frames:
            X_WG = query.get_pose_in_world(gid).get_as_matrix4()
            self._meshcat.set_transform(path, X_WG @ X_GF, time_in_recording=t)

    def _draw(self, inspector, query):
        """Set every geometry of the role as a Meshcat object."""
        mc, params = self._meshcat, self._params
        mc.delete(self._prefix)
        mc.set_property(self._prefix, "visible", bool(params.visible_by_default))
        world = inspector.world_frame_id()
        by_frame = {}
        for gid in inspector.get_geometry_ids(role=params.role):
            by_frame.setdefault(inspector.get_frame_id(gid), []).append(gid)
        used = set()
        self._frames = []
        for fid, gids in by_frame.items():
            base = "world" if fid == world else _frame_segment(inspector.get_name(fid))
            name = base if base not in used else f"{base}_{inspector.get_frame_group(fid)}"
            used.add(name)
            source = _clean(inspector.get_owning_source_name(gids[0]))
            frame_path = f"{self._prefix}/{source}/{name}"
            for gid in gids:
                path = f"{frame_path}/{_geometry_segment(inspector.get_name(gid))}"
                mc.set_object(path, inspector.get_shape(gid), self._color(inspector, gid))
                mc.set_transform(path, inspector.get_pose_in_frame(gid).get_as_matrix4())
            if fid == world:
                continue
            X_FG = inspector.get_pose_in_frame(gids[0]).get_as_matrix4()
            self._frames.append((frame_path, gids[0], np.linalg.inv(X_FG)))

    def _color(self, inspector, gid):
        role = self._params.role
        props = (inspector.get_illustration_properties(gid) if role == "illustration" else
                 inspector.get_proximity_properties(gid) if role == "proximity" else
                 inspector.get_perception_properties(gid))
        shape = inspector.get_shape(gid)
        is_mesh = type(shape).__name__ in ("Mesh", "Convex")
        if props is not None and props.has_property("phong", "diffuse"):
            return np.asarray(props.get_property("phong", "diffuse"), dtype=float)
        return None if is_mesh and role != "proximity" else np.asarray(
            self._params.default_color, dtype=float)
