"""PlanarSceneGraphVisualizer: a SceneGraph's illustration geometry drawn with matplotlib,
projected onto a plane (pydrake's ``pydrake.systems.planar_scenegraph_visualizer``).

::

    query ──▶ ┌────────────────────────────┐
              │ PlanarSceneGraphVisualizer │   (draws into a matplotlib figure)
              └────────────────────────────┘

    visualizer = connect_planar_scene_graph_visualizer(builder, scene_graph,
                                                       xlim=[-1, 1], ylim=[-1, 1], show=False)
    visualizer.start_recording()
    simulator.advance_to(5.0)
    visualizer.stop_recording()
    animation = visualizer.get_recording_as_animation()      # matplotlib FuncAnimation

Each geometry is drawn as the convex hull of its vertices projected by the view matrix
``T_VW`` (3 x 4: the rows give the view's x and y and the homogeneous row; by default the
world's x to the right and z up), filled with its illustration ``("phong", "diffuse")``
color (or a color per frame with ``use_random_colors``). A sphere, cylinder, capsule or
ellipsoid is sampled on its surface; a mesh contributes its convex hull's vertices; a half
space is a 20 m wide slab 1 m thick under its plane.
"""

from __future__ import annotations

import numpy as np

from merganser.framework import LeafSystem

from ..shapes import Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Sphere

__all__ = ["PlanarSceneGraphVisualizer", "connect_planar_scene_graph_visualizer"]

#: pydrake's default view: x to the right, z up.
DEFAULT_T_VW = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
_GREY = (0.9, 0.9, 0.9, 1.0)


def _unit_sphere(n=16):
    """Points (k, 3) on the unit sphere: latitude-longitude rings."""
    theta = np.linspace(0.0, np.pi, n // 2 + 1)
    phi = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    T, P = np.meshgrid(theta, phi, indexing="ij")
    return np.stack([np.sin(T) * np.cos(P), np.sin(T) * np.sin(P), np.cos(T)],
                    axis=-1).reshape(-1, 3)


def _circle(radius, z, n=32):
    a = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.column_stack([radius * np.cos(a), radius * np.sin(a), np.full(n, z)])


def shape_vertices(shape):
    """Points (k, 3) in the geometry frame G whose convex hull is `shape` (sampled for
    curved shapes), or None for a shape that is not drawn."""
    if isinstance(shape, Box):
        half = np.asarray(shape.size(), dtype=float) / 2.0
        return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1)
                         for sz in (-1, 1)]) * half
    if isinstance(shape, Sphere):
        return shape.radius() * _unit_sphere()
    if isinstance(shape, Ellipsoid):
        return _unit_sphere() * np.array([shape.a(), shape.b(), shape.c()])
    if isinstance(shape, Cylinder):
        r, half = shape.radius(), shape.length() / 2.0
        return np.vstack([_circle(r, -half), _circle(r, half)])
    if isinstance(shape, Capsule):
        r, half = shape.radius(), shape.length() / 2.0
        ball = r * _unit_sphere()
        return np.vstack([ball + [0.0, 0.0, half], ball - [0.0, 0.0, half]])
    if isinstance(shape, (Mesh, Convex)):
        return np.asarray(shape.convex_hull_vertices(), dtype=float)
    if isinstance(shape, HalfSpace):
        return np.array([[sx * 10.0, sy * 10.0, sz] for sx in (-1, 1) for sy in (-1, 1)
                         for sz in (-1.0, 0.0)])
    return None


def _hull_2d(points):
    """The convex hull of `points` (k, 2), counter-clockwise (k >= 1)."""
    from scipy.spatial import ConvexHull, QhullError
    try:
        return points[ConvexHull(points).vertices]
    except (QhullError, ValueError):        # flat in the view: its extent as a sliver
        return points[[np.argmin(points[:, 0] + points[:, 1]),
                       np.argmax(points[:, 0] + points[:, 1])]]


class PlanarSceneGraphVisualizer(LeafSystem):
    """See the module docstring (pydrake's parameters).

    Parameters
    ----------
    scene_graph : SceneGraph
        The geometry drawn (its illustration role).
    draw_period : float, optional
        Seconds between draws; 1/32 when None.
    T_VW : array_like (3, 4)
        The view projection.
    xlim, ylim : sequence of 2 floats
        The view's range.
    facecolor : color
        The figure's background.
    use_random_colors : bool
        One random color per frame instead of the geometries' own colors.
    substitute_collocated_mesh_files : bool
        pydrake's option to replace an unreadable mesh by a sibling file; merganser reads
        the mesh formats it takes itself, so the value changes nothing.
    ax : matplotlib Axes, optional
        Draw there instead of in a new figure.
    show : bool, optional
        Show the figure on each draw; None shows it unless matplotlib's backend is
        non-interactive ("agg", "template", ...).
    """

    def __init__(self, scene_graph, draw_period=None, T_VW=DEFAULT_T_VW, xlim=(-1.0, 1.0),
                 ylim=(-1.0, 1.0), facecolor=(1.0, 1.0, 1.0), use_random_colors=False,
                 substitute_collocated_mesh_files=True, ax=None, show=None):
        super().__init__()
        import matplotlib
        import matplotlib.pyplot as plt

        fn = "PlanarSceneGraphVisualizer"
        T = np.asarray(T_VW, dtype=float)
        if T.shape != (3, 4):
            raise ValueError(f"{fn}: T_VW must have shape (3, 4), got {T.shape}")
        period = 1.0 / 32.0 if draw_period is None else float(draw_period)
        if not period > 0.0:
            raise ValueError(f"{fn}: draw_period must be > 0, got {draw_period!r}")
        self.set_name("planar_scenegraph_visualizer")
        self._plt, self._T_VW, self.time_step = plt, T, period
        self._scene_graph = scene_graph
        self._random = np.random.default_rng(0) if use_random_colors else None
        if ax is None:
            self.fig = plt.figure(facecolor=facecolor)
            self.ax = self.fig.add_axes([0.0, 0.0, 1.0, 1.0])
        else:
            self.ax, self.fig = ax, ax.get_figure()
        self.ax.set_xlim(*xlim)
        self.ax.set_ylim(*ylim)
        self.ax.set_aspect("equal")
        self.ax.axis("off")
        if show is None:
            show = matplotlib.get_backend().lower() not in ("agg", "template", "pdf", "svg",
                                                              "ps", "cairo")
        self._show = bool(show)
        if not self._show:
            plt.close(self.fig)
        self._patches = {}          # geometry id -> (Polygon, vertices in G)
        self._colors = {}           # frame id -> random color
        self._recording, self._frames = False, []
        self._query = self.declare_abstract_input_port("geometry_query", None)
        self.declare_initialization_publish_event(self._on_publish)
        self.declare_periodic_publish_event(period, 0.0, self._on_publish)
        self.declare_forced_publish_event(self._on_publish)

    def get_geometry_query_input_port(self):
        return self._query

    # ---- recording ----------------------------------------------------------------------
    def start_recording(self):
        """Keep every drawn frame (the poses) for `get_recording_as_animation`."""
        self._recording = True

    def stop_recording(self):
        self._recording = False

    def reset_recording(self):
        self._frames = []

    def get_recording_as_animation(self, **kwargs):
        """A matplotlib FuncAnimation of the recorded frames, one per draw period
        (`kwargs` go to FuncAnimation)."""
        import matplotlib.animation as animation

        frames = list(self._frames)
        return animation.FuncAnimation(self.fig, lambda i: self._draw_poses(frames[i]),
                                       frames=len(frames), interval=1000.0 * self.time_step,
                                       **kwargs)

    # ---- drawing ------------------------------------------------------------------------
    def draw(self, context):
        """Draw the geometry at the poses of `context`'s query input."""
        self._draw_poses(self._poses(context))

    def _poses(self, context):
        query = self._query.eval(context)
        if query is None:
            return {}
        inspector = query.inspector()
        out = {}
        for gid in inspector.get_all_geometry_ids():
            if inspector.get_illustration_properties(gid) is None:
                continue
            out[gid] = query.get_pose_in_world(gid).get_as_matrix4()
        return out

    def _patch(self, gid):
        entry = self._patches.get(gid)
        if entry is None:
            from matplotlib.patches import Polygon

            inspector = self._scene_graph.model_inspector()
            vertices = shape_vertices(inspector.get_shape(gid))
            if vertices is None:
                self._patches[gid] = entry = (None, None)
                return entry
            if self._random is not None:
                frame = inspector.get_frame_id(gid)
                color = self._colors.setdefault(frame, (*self._random.uniform(size=3), 1.0))
            else:
                props = inspector.get_illustration_properties(gid)
                rgba = (props.get_property_or_default("phong", "diffuse", None)
                        if props is not None else None)
                color = _GREY if rgba is None else tuple(np.asarray(rgba, dtype=float).tolist())
            polygon = Polygon(np.zeros((3, 2)), closed=True, facecolor=color[:3],
                              alpha=color[3], edgecolor="black", linewidth=0.5)
            self.ax.add_patch(polygon)
            self._patches[gid] = entry = (polygon, vertices)
        return entry

    def _draw_poses(self, poses):
        for gid, X_WG in poses.items():
            polygon, vertices = self._patch(gid)
            if polygon is None:
                continue
            p_W = vertices @ X_WG[:3, :3].T + X_WG[:3, 3]
            view = np.column_stack([p_W, np.ones(len(p_W))]) @ self._T_VW.T
            polygon.set_xy(_hull_2d(view[:, :2] / view[:, 2:3]))
        return [p for p, _ in self._patches.values() if p is not None]

    def _on_publish(self, context):
        poses = self._poses(context)
        if self._show:
            self._draw_poses(poses)
            self.fig.canvas.draw()
            self._plt.pause(1e-10)
        if self._recording:
            self._frames.append(poses)


def connect_planar_scene_graph_visualizer(builder, scene_graph, output_port=None, **kwargs):
    """Add a PlanarSceneGraphVisualizer of `scene_graph` to `builder`, fed by
    `output_port` (the scene graph's query output when None); `kwargs` go to its
    constructor. Returns the visualizer."""
    visualizer = builder.add_system(PlanarSceneGraphVisualizer(scene_graph, **kwargs))
    port = scene_graph.get_query_output_port() if output_port is None else output_port
    builder.connect(port, visualizer.get_geometry_query_input_port())
    return visualizer
