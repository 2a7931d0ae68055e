"""ParsingWorkspace: what the format parsers share during one ``add_models`` call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import os

from merganser.multibody.parsing.package_map import UnresolvedUriError

__all__ = ["COLLISION_MESH_EXTENSIONS", "ParsingWorkspace"]

#: Mesh formats the collision loader reads (trimesh's); visual meshes may be anything.
COLLISION_MESH_EXTENSIONS = frozenset({".obj", ".stl", ".ply", ".off", ".glb", ".gltf",
                                       ".dae", ".3mf", ".vtk"})     # .vtk: tetrahedra


@dataclass
class ParsingWorkspace:
    """The plant, the package map, the report and the naming policy of one parse.

    Attributes
    ----------
    plant : MultibodyPlant
        Receives the model (not finalized).
    package_map : PackageMap
        Resolves ``package://`` / ``model://`` URIs.
    diagnostics : Diagnostics
        Warnings, errors and report entries (strict mode).
    report : ImportReport
        The import report being filled (also holds the geometry records).
    add_model_instance : callable
        ``add_model_instance(doc, el, name, parent_name=None) -> int`` creates a model
        instance for a model named `name` (nested in `parent_name`, ``parent::name``),
        applying the parser's prefix and auto-renaming, or raises ParseError on a clash.
    fluid_density : float
        ρ (kg/m³) for the HydrodynamicForce elements created from ``<hydro>`` blocks.
    gravity : float
        g (m/s²) for buoyancy.
    """

    plant: object
    package_map: object
    diagnostics: object
    report: object
    add_model_instance: Callable
    fluid_density: float = 1000.0
    gravity: float = 9.81
    geometry_registered: bool = True

    def resolve_mesh(self, doc, el, uri: str, what: str, role: str):
        """Path of a mesh file, or None when it does not resolve and no geometry is
        registered (a plant without SceneGraph, as Drake: a located warning then).

        A mesh must be a regular file (not a folder or a device); a collision mesh must
        have an extension its loader knows (``.obj``, ``.stl``, ...).
        """
        try:
            path = self.package_map.resolve(uri, doc.base_dir)
            if not os.path.isfile(path):
                raise UnresolvedUriError(f"{uri!r} resolves to {path!r}, which is not a "
                                         f"regular file")
            ext = os.path.splitext(path)[1].lower()
            if role == "collision" and ext not in COLLISION_MESH_EXTENSIONS:
                raise UnresolvedUriError(
                    f"{uri!r} has the extension {ext or '(none)'!r}; a collision mesh must be "
                    f"one of {sorted(COLLISION_MESH_EXTENSIONS)}")
            return path
        except UnresolvedUriError as err:
            if self.geometry_registered:
                doc.error(el, f"{what}: cannot resolve {uri!r}: {err}")
            doc.warn(el, f"{what}: cannot resolve {uri!r}: {err}; the plant has no "
                         f"SceneGraph, so the geometry is not registered and this is not an "
                         f"error (it is when loading with a SceneGraph)")
            return None

    def resolve(self, doc, el, uri: str, what: str) -> str:
        """Resolve `uri` relative to `doc`'s directory through the package map, or raise
        ParseError at `el` naming `what` (a missing package or file)."""
        try:
            return self.package_map.resolve(uri, doc.base_dir)
        except UnresolvedUriError as err:
            doc.error(el, f"{what}: cannot resolve {uri!r}: {err}")
