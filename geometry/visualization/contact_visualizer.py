"""ContactVisualizer: contact forces drawn as arrows in a Meshcat (Drake's
ContactVisualizer).

::

    contact_results ──▶ ┌───────────────────┐
                        │ ContactVisualizer │   (publishes to a Meshcat)
                        └───────────────────┘

Each point contact whose force exceeds ``force_threshold`` is drawn as an arrow from the
contact point along the force on body B (on body A when B is the world, so that arrows
point out of the ground), ``|f| / newtons_per_meter`` long; each
hydroelastic contact as an arrow at its surface centroid along the force on A's body.
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
    """Options of ContactVisualizer.

    Attributes
    ----------
    publish_period : float
        Seconds between publishes.
    color : list of 4 floats
        Arrow RGBA.
    newtons_per_meter : float
        Force scale: an arrow is |f| / newtons_per_meter long (m).
    force_threshold : float
        Forces below this (N) are not drawn.
    prefix : str
        Meshcat path of the arrows (under /merganser).
    """

    publish_period: float = 1.0 / 64.0
    color: list = field(default_factory=lambda: [1.0, 0.1, 0.1, 1.0])
    newtons_per_meter: float = 10.0
    force_threshold: float = 1e-2
    prefix: str = "contact_forces"


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
        self._params = ContactVisualizerParams() if params is None else params
        if not self._params.newtons_per_meter > 0.0:
            raise ValueError(f"ContactVisualizer: params.newtons_per_meter must be > 0, got "
                             f"{self._params.newtons_per_meter!r}")
        self._meshcat = meshcat
        self._prefix = "/merganser/" + self._params.prefix.strip("/")
        self._num_arrows = 0
        self._visible = []
        self._input = self.declare_abstract_input_port("contact_results", None)
        self.declare_periodic_publish_event(self._params.publish_period, 0.0, self._publish)
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

    @staticmethod
    def forces(contact_results):
        """[(p_WC (3,), f_W (3,))] of every contact in `contact_results`."""
        out = []
        for i in range(contact_results.num_point_pair_contacts()):
            info = contact_results.point_pair_contact_info(i)
            f_W = np.asarray(info.contact_force, float)
            if getattr(info, "bodyB_index", None) == 0:      # B is the world: draw A's force
                f_W = -f_W
            out.append((np.asarray(info.contact_point, float), f_W))
        num_hydro = getattr(contact_results, "num_hydroelastic_contacts", lambda: 0)()
        for i in range(num_hydro):
            info = contact_results.hydroelastic_contact_info(i)
            F = info.F_Ac_W
            f = F.translational() if hasattr(F, "translational") else np.asarray(F)[3:]
            out.append((np.asarray(info.contact_surface.centroid, float), np.asarray(f, float)))
        return out

    def _arrow(self, k):
        path = f"{self._prefix}/{k}"
        if k >= self._num_arrows:
            shaft, head = arrow_object(self._params.color)
            self._meshcat.set_object(f"{path}/shaft", shaft)
            self._meshcat.set_object(f"{path}/head", head)
            self._num_arrows = k + 1
            self._visible.append(None)
        return path

    def _publish(self, context):
        results = self._input.eval(context)
        t = context.get_time()
        mc, params = self._meshcat, self._params
        drawn = 0
        for p_WC, f_W in ([] if results is None else self.forces(results)):
            magnitude = float(np.linalg.norm(f_W))
            if not magnitude > params.force_threshold:
                continue
            path = self._arrow(drawn)
            length = magnitude / params.newtons_per_meter
            mc.set_transform(path, arrow_frame(p_WC, f_W), time_in_recording=t)
            mc.set_transform(f"{path}/shaft", np.diag([1.0, 1.0, length, 1.0]),
                             time_in_recording=t)
            tip = np.eye(4)
            tip[2, 3] = length
            mc.set_transform(f"{path}/head", tip, time_in_recording=t)
            self._set_visible(drawn, True, t)
            drawn += 1
        for k in range(drawn, self._num_arrows):
            self._set_visible(k, False, t)

    def _set_visible(self, k, visible, t):
        recording = self._meshcat.is_recording()
        if self._visible[k] is not visible or recording:
            self._meshcat.set_property(f"{self._prefix}/{k}", "visible", visible,
                                       time_in_recording=t)
            self._visible[k] = visible
