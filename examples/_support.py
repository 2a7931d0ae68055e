"""Shared plumbing of the example scripts: command-line options, model paths, parsed
geometry, the HTML replay and the plots.

Every example's ``main(argv)`` accepts

- ``--quick``: the shortened run used by the tests (same checks, looser where stated);
- ``--html OUT``: record the run with a MeshcatVisualizer and write a self-contained
  HTML replay (three.js embedded, time slider) to OUT;
- ``--plots DIR``: save the example's PNG plots in DIR (needs matplotlib).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
MODELS = REPO_ROOT / "tests" / "data" / "models"

__all__ = ["MODELS", "REPO_ROOT", "Replay", "model_path", "parse_args",
           "register_parsed_geometry", "save_plots"]


def parse_args(argv, description):
    """Parse the common options (``--quick``, ``--html OUT``, ``--plots DIR``)."""
    summary = " ".join(description.strip().split("\n\n")[0].split())
    parser = argparse.ArgumentParser(description=summary,
                                     epilog="See the module docstring for what is shown.")
    parser.add_argument("--quick", action="store_true",
                        help="shortened run (used by the tests)")
    parser.add_argument("--html", metavar="OUT", default=None,
                        help="write a self-contained HTML replay of the run to OUT")
    parser.add_argument("--plots", metavar="DIR", default=None,
                        help="save PNG plots in DIR")
    return parser.parse_args(argv)


def model_path(*parts):
    """Path of a model file under the repository's ``tests/data/models``."""
    path = MODELS.joinpath(*parts)
    if not path.is_file():
        raise FileNotFoundError(f"model_path: {path} does not exist")
    return path


def add_package_paths(parser):
    """Map ``example-robot-data`` to the copy in the repository's test data."""
    parser.package_map().add("example-robot-data", str(MODELS / "example-robot-data"))


def add_model_with_geometry(builder, *parts):
    """A continuous MultibodyPlant and its SceneGraph in ``builder``, holding the model
    file `model_path(*parts)` with its geometry registered; finalized."""
    from merganser.multibody import add_multibody_plant_scene_graph
    from merganser.multibody.parsing import Parser

    plant, scene_graph = add_multibody_plant_scene_graph(builder, 0.0)
    parser = Parser(plant, scene_graph)
    parser.add_models(model_path(*parts))
    register_parsed_geometry(plant, parser)
    plant.finalize()
    return plant, scene_graph


def equilibrium_context(plant, x):
    """A context of ``plant`` at the state ``x`` = [q; v] with zero actuation fixed, for
    linearizing; returns it and the actuation input port."""
    context = plant.create_default_context()
    plant.set_positions_and_velocities(context, x)
    actuation = plant.get_actuation_input_port()
    actuation.fix_value(context, [0.0] * actuation.size())
    return context, actuation


def register_parsed_geometry(plant, parser, roles=("visual", "collision")):
    """Register the parser's geometry records with the plant's SceneGraph (see
    `merganser.cli.models.register_parsed_geometry`); returns how many were added."""
    try:
        from merganser.cli.models import register_parsed_geometry as register
    except ImportError:          # merganser.cli not installed: use the repository's copy
        sys.path.insert(0, str(REPO_ROOT))
        from merganser.cli.models import register_parsed_geometry as register
    return register(plant, parser, roles)


class Replay:
    """Records a diagram's run with a MeshcatVisualizer and writes the HTML replay.

    ``Replay(args.html, builder, scene_graph)`` before ``builder.build()``; then
    ``replay.start()`` before simulating and ``replay.finish()`` afterwards. All methods
    do nothing when `out` is None. `camera` is (camera position, target) in the world;
    contact forces are drawn as arrows |f| / newtons_per_meter long.
    """

    def __init__(self, out, builder, scene_graph, plant=None, contact_forces=False,
                 role="illustration", publish_period=1.0 / 30.0,
                 camera=((0.3, -2.8, 1.2), (0.0, 0.0, 0.3)), newtons_per_meter=10.0):
        self.out = out
        self.meshcat = self.visualizer = None
        if out is None:
            return
        from merganser.geometry.visualization import (ContactVisualizer, ContactVisualizerParams, Meshcat,
                                            MeshcatVisualizer, MeshcatVisualizerParams)

        self.meshcat = Meshcat()
        self.meshcat.set_camera_pose(*camera)
        params = MeshcatVisualizerParams(role=role, publish_period=publish_period)
        self.visualizer = MeshcatVisualizer.add_to_builder(builder, scene_graph, self.meshcat,
                                                           params)
        if contact_forces and plant is not None:
            ContactVisualizer.add_to_builder(
                builder, plant, self.meshcat,
                ContactVisualizerParams(publish_period=publish_period,
                                        newtons_per_meter=newtons_per_meter))

    def start(self):
        if self.out is not None:
            self.visualizer.start_recording()

    def publish(self, diagram_context):
        """Record one frame from `diagram_context` (kinematic animations)."""
        if self.out is not None:
            self.visualizer.forced_publish(
                self.visualizer.get_my_context_from_root(diagram_context))

    def finish(self):
        """Stop recording and write the replay; returns its path (or None)."""
        if self.out is None:
            return None
        self.meshcat.stop_recording()
        self.meshcat.publish_recording()
        path = self.meshcat.save_static_html(self.out)
        print(f"replay written to {path}")
        return path


def save_plots(plots_dir, name, figures):
    """Save each matplotlib figure of `figures` (dict stem -> Figure) as DIR/name_stem.png."""
    if plots_dir is None:
        return []
    from merganser.framework.plotting import save_figure

    os.makedirs(plots_dir, exist_ok=True)
    paths = [save_figure(fig, Path(plots_dir) / f"{name}_{stem}.png")
             for stem, fig in figures.items()]
    for p in paths:
        print(f"plot written to {p}")
    return paths
