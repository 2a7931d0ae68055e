"""Loading a model file for the command line (and the examples): package paths, the
parsed geometry registered with the SceneGraph, and a base that is welded or free.

`load_model` resolves ``package://NAME/...`` URIs by mapping every folder above the model
file to its own name (so ``.../example-robot-data/robots/x/urdf/x.urdf`` finds
``package://example-robot-data/...``), plus any ``--package NAME=PATH`` given.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

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
    from multibody.parsing import ParseWarning, Parser

    parser = Parser(plant)     # geometry registered below, only for the roles asked for
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
    """Register the parser's geometry records with the plant's SceneGraph.

    Only does something while the Parser does not register geometry itself: bodies that
    already have geometry of a role are skipped, and nothing happens when the plant is not
    registered with a SceneGraph.

    Returns
    -------
    int
        Number of geometries registered.
    """
    from geometry import (Box, Capsule, Convex, CoulombFriction, Cylinder, Ellipsoid,
                          HalfSpace, Mesh, ProximityProperties, RigidTransform, Sphere)
    from multibody.parsing import SHAPE_TYPES

    if not plant.geometry_source_is_registered():
        return 0
    shapes = dict(Box=Box, Sphere=Sphere, Cylinder=Cylinder, Capsule=Capsule,
                  Ellipsoid=Ellipsoid, HalfSpace=HalfSpace, Mesh=Mesh, Convex=Convex)
    had = {}
    count = 0
    for record in parser.geometries():
        if record.role not in roles:
            continue
        body = (plant.world_body() if record.body_name == "world" else
                plant.get_body_by_name(record.body_name, record.model_instance))
        key = (body.index(), record.role)
        if key not in had:
            had[key] = bool(plant.get_visual_geometries(body) if record.role == "visual"
                            else plant.get_collision_geometries(body))
        if had[key]:
            continue
        params = record.params
        if record.shape in ("Mesh", "Convex"):
            scale = np.atleast_1d(params.get("scale", 1.0))
            shape = shapes[record.shape](params["filename"], float(scale[0]))
        else:
            shape = shapes[record.shape](*[params[k] for k in SHAPE_TYPES[record.shape]])
        X_BG = RigidTransform(np.asarray(record.X_BG))
        # SceneGraph names are unique per frame across roles: collision names get a prefix.
        name = record.name or f"{record.role}{count}"
        if record.role == "collision":
            name = f"collision_{name}"
        if record.role == "visual":
            rgba = None if record.diffuse_rgba is None else np.asarray(record.diffuse_rgba)
            plant.register_visual_geometry(body, X_BG, shape, name, rgba)
        else:
            props = ProximityProperties()
            for (group, prop), value in record.proximity.items():
                if (group, prop) == ("material", "coulomb_friction"):
                    value = CoulombFriction(*value)
                props.add_property(group, prop, value)
            plant.register_collision_geometry(body, X_BG, shape, name, props)
        count += 1
    return count
