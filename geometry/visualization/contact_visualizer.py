"""ContactVisualizer: contact forces drawn as arrows in a Meshcat (Drake's
ContactVisualizer).

::

    contact_results ──▶ ┌───────────────────┐
                        │ ContactVisualizer │   (publishes to a Meshcat)
                        └───────────────────┘

Each point contact whose force exceeds ``force_threshold`` is drawn as an arrow (``color``)
from the contact point along the force on body B (on body A when B is the world, so that
arrows point out of the ground), ``|f| / newtons_per_meter`` long; each hydroelastic
contact as an arrow (``hydro_force_color``) at its surface centroid along the force on A's
body, and, when its moment about the centroid exceeds ``moment_threshold``, a second arrow
(``hydro_moment_color``) along that moment, ``|τ| / newton_meters_per_meter`` long.
Arrows are reused between publishes and hidden (``visible`` false) when unused, so a
recording replays them. The input is read through the ContactResults interface
(``num_point_pair_contacts()``, ``point_pair_contact_info(i).contact_point`` /
``.contact_force``, ``num_hydroelastic_contacts()``, ``hydroelastic_contact_info(i)
.F_Ac_W`` and ``.contact_surface.centroid``), so this module needs no multibody import.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from merganser.framework import LeafSystem
from merganser.geometry.visualization.meshcat_shapes import arrow_object

__all__ = ["ContactVisualizer", "ContactVisualizerParams", "arrow_frame"]


@dataclass
class ContactVisualizerParams:
    """Options of ContactVisualizer (pydrake's fields and defaults).

    Attributes
    ----------
    publish_period : float
        Seconds between publishes.
    color, hydro_force_color, hydro_moment_color : Rgba or list of 4 floats
        Colors of the point-contact force arrows and of the hydroelastic force and moment
        arrows.
    prefix : str
        Meshcat path of the arrows (under /merganser).
    delete_on_initialization_event : bool
        Delete the arrows when a simulation initializes.
    force_threshold, moment_threshold : float
        Forces (N) and moments (N m) below these are not drawn.
    newtons_per_meter, newton_meters_per_meter : float
        Scales: an arrow is |f| / newtons_per_meter or |τ| / newton_meters_per_meter long.
    radius : float
        The arrows' shaft radius (m); the heads are 2.5 times wider.
    """

    publish_period: float = 1.0 / 32.0
    color: list = field(default_factory=lambda: [0.0, 1.0, 0.0, 1.0])
    hydro_force_color: list = field(default_factory=lambda: [1.0, 0.0, 0.0, 1.0])
    hydro_moment_color: list = field(default_factory=lambda: [0.0, 0.0, 1.0, 1.0])
    prefix: str = "contact_forces"
    delete_on_initialization_event: bool = True
    force_threshold: float = 1e-2
    moment_threshold: float = 1e-2
    newtons_per_meter: float = 10.0
    newton_meters_per_meter: float = 3.0
    radius: float = 0.002


def arrow_frame(p_WC, f_W):
    """(4, 4) pose of an arrow frame at p_WC whose +z axis points along f_W."""
    z = np.asarray(f_W, dtype=float) / np.linalg.norm(f_W)
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    X = np.eye(4)
    X[:3, :3] = np.column_stack([x, np.cross(z, x), z])
    X[:3, 3] = p_WC
    return X


class ContactVisualizer(LeafSystem):
    """See the module docstring.

    Parameters
    ----------
    meshcat : Meshcat
    params : ContactVisualizerParams, optional
    """

    def __init__(self, meshcat, params=None):
        super().__init__()
        self._params = p = ContactVisualizerParams() if params is None else params
        for name in ("newtons_per_meter", "newton_meters_per_meter", "radius",
                     "publish_period"):
            value = getattr(p, name)
            if not (isinstance(value, (int, float)) and value > 0.0):
                raise ValueError(f"ContactVisualizer: params.{name} must be > 0, got "
                                 f"{value!r}")
        self._meshcat = meshcat
        self._prefix = "/merganser/" + p.prefix.strip("/")
        # arrow pools: (path prefix, color) -> arrows made, their visibility
        self._pools = {kind: [path, np.asarray(color, dtype=float).tolist(), 0, []] for kind, path, color in (
            ("point", self._prefix, p.color),
            ("force", f"{self._prefix}/hydroelastic/force", p.hydro_force_color),
            ("moment", f"{self._prefix}/hydroelastic/moment", p.hydro_moment_color))}
        self._input = self.declare_abstract_input_port("contact_results", None)
        self.declare_initialization_publish_event(self._on_initialization)
        self.declare_periodic_publish_event(p.publish_period, 0.0, self._publish)
        self.declare_forced_publish_event(self._publish)

    @staticmethod
    def add_to_builder(builder, plant_or_contact_results_port=None, meshcat=None, params=None, *,
                       plant=None, contact_results_port=None):
        """Add a ContactVisualizer fed by the plant's contact results output (pydrake's
        keywords ``plant=`` or ``contact_results_port=`` also name the source); returns
        it."""
        given = [x for x in (plant_or_contact_results_port, plant, contact_results_port)
                 if x is not None]
        if len(given) != 1 or meshcat is None:
            raise TypeError("ContactVisualizer.add_to_builder: give the plant or the contact "
                            "results port once, and the meshcat")
        port = given[0]
        if hasattr(port, "get_contact_results_output_port"):
            port = port.get_contact_results_output_port()
        visualizer = builder.add_system(ContactVisualizer(meshcat, params))
        builder.connect(port, visualizer.get_contact_results_input_port())
        return visualizer

    def get_contact_results_input_port(self):
        return self._input

    def prefix(self):
        return self._prefix

    def delete(self):
        """Delete every arrow drawn."""
        self._meshcat.delete(self._prefix)
        for pool in self._pools.values():
            pool[2], pool[3] = 0, []

    @staticmethod
    def forces(contact_results):
        """[(p_WC (3,), f_W (3,))] of every contact in `contact_results`: the point
        contacts' then the hydroelastic contacts' forces (at their centroids)."""
        return [(p, f) for kind, p, f in ContactVisualizer._arrows(contact_results)
                if kind != "moment"]

    @staticmethod
    def _arrows(contact_results):
        """[(pool, p_WC (3,), vector (3,))] of every arrow `contact_results` calls for."""
        out = []
        for i in range(contact_results.num_point_pair_contacts()):
            info = contact_results.point_pair_contact_info(i)
            f_W = np.asarray(info.contact_force, float)
            if getattr(info, "bodyB_index", None) == 0:      # B is the world: draw A's force
                f_W = -f_W
            out.append(("point", np.asarray(info.contact_point, float), f_W))
        num_hydro = getattr(contact_results, "num_hydroelastic_contacts", lambda: 0)()
        for i in range(num_hydro):
            info = contact_results.hydroelastic_contact_info(i)
            F = info.F_Ac_W
            if hasattr(F, "translational"):
                f, tau = F.translational(), F.rotational()
            else:
                f, tau = np.asarray(F)[3:], np.asarray(F)[:3]
            c = np.asarray(info.contact_surface.centroid, float)
            out.append(("force", c, np.asarray(f, float)))
            out.append(("moment", c, np.asarray(tau, float)))
        return out

    def _arrow(self, kind, k):
        pool = self._pools[kind]
        path = f"{pool[0]}/{k}"
        if k >= pool[2]:
            r = self._params.radius
            shaft, head = arrow_object(pool[1], shaft_radius=r, head_radius=2.5 * r)
            self._meshcat.set_object(f"{path}/shaft", shaft)
            self._meshcat.set_object(f"{path}/head", head)
            pool[2] = k + 1
            pool[3].append(None)
        return path

    def _on_initialization(self, context):
        if self._params.delete_on_initialization_event:
            self.delete()
        self._publish(context)

    def _publish(self, context):
        results = self._input.eval(context)
        t = context.get_time()
        mc, params = self._meshcat, self._params
        drawn = {kind: 0 for kind in self._pools}
        scale = {"point": (params.newtons_per_meter, params.force_threshold),
                 "force": (params.newtons_per_meter, params.force_threshold),
                 "moment": (params.newton_meters_per_meter, params.moment_threshold)}
        for kind, p_WC, vector in ([] if results is None else self._arrows(results)):
            per_meter, threshold = scale[kind]
            magnitude = float(np.linalg.norm(vector))
            if not magnitude > threshold:
                continue
            k = drawn[kind]
            path = self._arrow(kind, k)
            length = magnitude / per_meter
            mc.set_transform(path, arrow_frame(p_WC, vector), time_in_recording=t)
            mc.set_transform(f"{path}/shaft", np.diag([1.0, 1.0, length, 1.0]),
                             time_in_recording=t)
            tip = np.eye(4)
            tip[2, 3] = length
            mc.set_transform(f"{path}/head", tip, time_in_recording=t)
            self._set_visible(kind, k, True, t)
            drawn[kind] = k + 1
        for kind, pool in self._pools.items():
            for k in range(drawn[kind], pool[2]):
                self._set_visible(kind, k, False, t)

    def _set_visible(self, kind, k, visible, t):
        pool = self._pools[kind]
        if pool[3][k] is not visible or self._meshcat.is_recording():
            self._meshcat.set_property(f"{pool[0]}/{k}", "visible", visible,
                                       time_in_recording=t)
            pool[3][k] = visible
