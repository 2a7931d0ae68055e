"""Loading a model file for the command line (and the examples): package paths, the
parsed geometry registered with the SceneGraph, and a base that is welded or free.

`load_model` resolves ``package://NAME/...`` URIs by mapping every folder above the model
file to its own name (so ``.../example-robot-data/robots/x/urdf/x.urdf`` finds
``package://example-robot-data/...``), plus any ``--package NAME=PATH`` given.
"""

from __future__ import annotations

import warnings
from pathlib import Path


__all__ = ["load_model", "register_parsed_geometry"]


def _add_ancestor_packages(package_map, path):
    for folder in Path(path).resolve().parents:
        name = folder.name
        if name and not package_map.contains(name):
            package_map.add(name, str(folder))


def load_model(path, plant, scene_graph=None, packages=(), strict=False,
               quiet_warnings=True, roles=("visual", "collision")):
    """Parse `path` into `plant` (not finalized) and return ``(parser, model_instances)``.

    Parameters
    ----------
    path : str or Path
        URDF, SDFormat or MJCF file.
    plant : MultibodyPlant
    scene_graph : SceneGraph, optional
        When given (the plant registered with it), the parsed geometry of `roles` is
        registered (`register_parsed_geometry`).
    packages : sequence of (name, path)
        Extra package-map entries.
    strict : bool
        Warnings become ParseErrors.
    quiet_warnings : bool
        Do not print ParseWarnings (they are in ``parser.last_report()``).
    roles : tuple of str
        Geometry roles to register ("visual", "collision").
    """
    from merganser.multibody.parsing import ParseWarning, Parser

    parser = Parser(plant, geometry_roles=())   # registered below, only for the roles asked for
    if strict:
        parser.set_strict_parsing()
    for name, folder in packages:
        parser.package_map().add(name, str(folder))
    _add_ancestor_packages(parser.package_map(), path)
    with warnings.catch_warnings():
        if quiet_warnings:
            warnings.simplefilter("ignore", ParseWarning)
        instances = parser.add_models(str(path))
    if scene_graph is not None:
        register_parsed_geometry(plant, parser, roles)
    return parser, instances


def register_parsed_geometry(plant, parser, roles=("visual", "collision")):
    """Register the parser's geometry records of ``roles`` with the plant's SceneGraph
    (bodies that already have geometry of a role are skipped); returns how many were added.
    See ``multibody.plant.plant_geometry.register_parsed_geometry``."""
    from merganser.multibody.plant.plant_geometry import register_parsed_geometry as register

    return register(plant, parser.geometries(), roles)
