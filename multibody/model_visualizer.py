"""ModelVisualizer: load model files and show them in Meshcat (pydrake's
``pydrake.visualization.ModelVisualizer``).

    visualizer = ModelVisualizer(meshcat=meshcat, visualize_frames=True)
    visualizer.parser().add_models_from_string(sdf_text, "sdf")
    visualizer.run(loop_once=True)

It owns a DiagramBuilder with a MultibodyPlant (continuous) and a SceneGraph; `parser`
adds models to that plant; `finalize` finalizes the plant, adds Meshcat visualizers of the
illustration geometry, of the proximity geometry (hidden at first, as Drake's) and of
the contact forces, builds the diagram and publishes it; `run` publishes the model at
the given positions (the default positions otherwise). With ``visualize_frames`` every
body frame is drawn as a red-green-blue triad.

Drake's `run` then loops, moving the model by joint sliders until the browser's "Stop
Running" button is clicked. merganser's viewer shows no sliders or buttons
(`geometry.visualization.meshcat_controls`), so that loop could never end: `run` with
``loop_once=False`` publishes once and returns with a UserWarning saying so.
"""

from __future__ import annotations

import warnings

import numpy as np

from merganser.framework import DiagramBuilder
from merganser.geometry import Cylinder, RigidTransform, RollPitchYaw
from merganser.geometry.visualization import (ContactVisualizer, ContactVisualizerParams,
                                              Meshcat, MeshcatVisualizer,
                                              MeshcatVisualizerParams)
from merganser.multibody.parsing import Parser
from merganser.multibody.plant.config import add_multibody_plant_scene_graph

__all__ = ["ModelVisualizer"]

_FRAMES = "/frames"
_AXES = (("x", RollPitchYaw(0.0, np.pi / 2, 0.0), [1.0, 0.0, 0.0]),
         ("y", RollPitchYaw(-np.pi / 2, 0.0, 0.0), [0.0, 1.0, 0.0]),
         ("z", RollPitchYaw(0.0, 0.0, 0.0), [0.0, 0.0, 1.0]))


class ModelVisualizer:
    """Shows the models a `parser` loads in a Meshcat (see the module docstring).

    Parameters
    ----------
    visualize_frames : bool
        Draw each body frame as a triad (x red, y green, z blue).
    triad_length, triad_radius, triad_opacity : float
        The triads' size (m) and opacity in [0, 1].
    publish_contacts : bool
        Add a ContactVisualizer of the plant's contact forces.
    browser_new, pyplot : bool
        pydrake's options to open a browser tab and to draw with matplotlib: only False
        (the default) is supported; True raises NotImplementedError.
    meshcat : Meshcat, optional
        Where to draw; a new Meshcat (no live server) when None.
    environment_map : str, optional
        Not supported (merganser's viewer has no image-based lighting): only None.
    compliance_type : str, optional
        Not supported: only None (the models' own proximity properties are used).
    """

    def __init__(self, *, visualize_frames=False, triad_length=0.3, triad_radius=0.005,
                 triad_opacity=0.9, publish_contacts=True, browser_new=False, pyplot=False,
                 meshcat=None, environment_map=None, compliance_type=None):
        fn = "ModelVisualizer"
        for name, value in (("browser_new", browser_new), ("pyplot", pyplot)):
            if value:
                raise NotImplementedError(f"{fn}: {name}=True is not supported (merganser "
                                          f"draws in Meshcat only); leave it False")
        for name, value in (("environment_map", environment_map),
                            ("compliance_type", compliance_type)):
            if value not in (None, ""):
                raise NotImplementedError(f"{fn}: {name}={value!r} is not supported; leave "
                                          f"it None")
        for name, value in (("triad_length", triad_length), ("triad_radius", triad_radius)):
            if not (isinstance(value, (int, float)) and np.isfinite(value) and value > 0):
                raise ValueError(f"{fn}: {name} must be a number > 0, got {value!r}")
        if not (isinstance(triad_opacity, (int, float)) and 0.0 <= triad_opacity <= 1.0):
            raise ValueError(f"{fn}: triad_opacity must be in [0, 1], got {triad_opacity!r}")
        if meshcat is not None and not isinstance(meshcat, Meshcat):
            raise TypeError(f"{fn}: meshcat must be a Meshcat or None, got "
                            f"{type(meshcat).__name__}")
        self._meshcat = Meshcat() if meshcat is None else meshcat
        self._frames = bool(visualize_frames)
        self._triad = (float(triad_length), float(triad_radius), float(triad_opacity))
        self._contacts = bool(publish_contacts)
        self._builder = DiagramBuilder()
        self._plant, self._scene_graph = add_multibody_plant_scene_graph(self._builder, 0.0)
        self._parser = Parser(self._plant)
        self._diagram = self._context = None

    # ---- what pydrake's ModelVisualizer hands out -----------------------------------------
    def meshcat(self):
        """The Meshcat drawn into."""
        return self._meshcat

    def parser(self):
        """The Parser adding models to the visualized plant (before `finalize`)."""
        return self._parser

    def package_map(self):
        """The parser's PackageMap."""
        return self._parser.package_map()

    def add_models(self, filename=None, *, url=None):
        """``parser().add_models(filename)`` or ``(url=url)``; returns the model instances."""
        self._check_not_finalized("add_models")
        if url is not None:
            return self._parser.add_models(url=url) if filename is None else \
                self._parser.add_models(filename, url=url)
        return self._parser.add_models(filename)

    # ---- finalize and draw ----------------------------------------------------------------
    def finalize(self, position=None):
        """Finalize the plant, add the visualizers, build the diagram and publish once (at
        `position`, shape (nq,), when given).

        Raises
        ------
        RuntimeError
            When called twice.
        ValueError
            For a `position` of the wrong size (nothing is published then).
        """
        self._check_not_finalized("finalize")
        plant = self._plant
        plant.finalize()
        meshcat, builder = self._meshcat, self._builder
        MeshcatVisualizer.add_to_builder(builder, self._scene_graph, meshcat,
                                         MeshcatVisualizerParams())
        MeshcatVisualizer.add_to_builder(
            builder, self._scene_graph, meshcat,
            MeshcatVisualizerParams(role="proximity", default_color=[0.4, 0.6, 1.0, 0.5],
                                    visible_by_default=False))
        if self._contacts:
            ContactVisualizer.add_to_builder(builder, plant, meshcat, ContactVisualizerParams())
        self._diagram = builder.build()
        self._context = self._diagram.create_default_context()
        if self._frames:
            self._add_triads()
        self._publish(position, "finalize")

    def run(self, position=None, loop_once=False):
        """Publish the model at `position` (shape (nq,); the default positions when None),
        finalizing first if needed. With ``loop_once=False`` pydrake then waits for the
        browser's "Stop Running" button, which merganser's viewer does not show: it
        returns after the publish with a UserWarning."""
        if self._diagram is None:
            self.finalize(position)
        else:
            self._publish(position, "run")
        if not loop_once:
            warnings.warn(
                "ModelVisualizer.run: merganser's Meshcat viewer shows no joint sliders or "
                "'Stop Running' button, so there is no interactive loop: the model was "
                "published once; move it with run(position=q)", UserWarning, stacklevel=2)

    def _check_not_finalized(self, fn):
        if self._diagram is not None:
            raise RuntimeError(f"ModelVisualizer.{fn}: already finalized (models are added "
                               f"before finalize() or the first run())")

    def _publish(self, position, fn):
        plant_context = self._plant.get_my_context_from_root(self._context)
        if position is not None:
            q = np.asarray(position, dtype=float).reshape(-1)
            if q.size != self._plant.num_positions():
                raise ValueError(f"ModelVisualizer.{fn}: position must have "
                                 f"{self._plant.num_positions()} values (nq), got {q.size}")
            self._plant.set_positions(plant_context, q)
        self._diagram.forced_publish(self._context)
        if self._frames:
            for body in self._bodies():
                self._meshcat.set_transform(self._triad_path(body),
                                            self._plant.eval_body_pose_in_world(plant_context,
                                                                                body))

    # ---- frame triads ---------------------------------------------------------------------
    def _bodies(self):
        plant = self._plant
        return [plant.get_body(i) for i in range(1, plant.num_bodies())]

    def _triad_path(self, body):
        instance = self._plant.get_model_instance_name(body.model_instance())
        return f"{_FRAMES}/{instance}/{body.name()}"

    def _add_triads(self):
        length, radius, opacity = self._triad
        for body in self._bodies():
            path = self._triad_path(body)
            for axis, rotation, color in _AXES:
                offset = np.zeros(3)
                offset["xyz".index(axis)] = length / 2.0
                self._meshcat.set_object(f"{path}/{axis}-axis", Cylinder(radius, length),
                                         [*color, opacity])
                self._meshcat.set_transform(f"{path}/{axis}-axis",
                                            RigidTransform(rotation, offset))
