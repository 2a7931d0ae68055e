"""A model from a bare ``.obj`` mesh file (Drake's mesh parser: ``parser.AddModels(
"box.obj")``).

The file becomes one model instance with one free rigid body, both named after the
file's last ``o name`` statement, else the file's stem; the body's spatial inertia is
that of the closed triangle mesh filled with water (1000 kg/m³) about the mesh's origin,
and the mesh is its collision geometry (``"collision"``, with no proximity properties
of its own, as Drake's) and its visual geometry (``"visual"``).
"""

from __future__ import annotations

import contextlib
import os

import numpy as np

from merganser.geometry.proximity.mesh_loading import load_triangles
from merganser.multibody.parsing.diagnostics import ParseError
from merganser.multibody.parsing.geometry_records import GeometryRecord
from merganser.multibody.tree.geometry_spatial_inertia import mesh_spatial_inertia

__all__ = ["WATER_DENSITY", "parse_obj_model"]

#: The density (kg/m³) a mesh model's body is filled with, as Drake's.
WATER_DENSITY = 1000.0


class _ObjFile:
    """What `Parser._add_model_instance` needs of a document, for an .obj file."""

    def __init__(self, path, diagnostics):
        self.file_name, self.diagnostics = path, diagnostics

    def error(self, el, message):
        raise ParseError(message, self.file_name)

    def defaulted(self, el, message):
        self.diagnostics.note("defaulted", message, self.file_name, None, element="")

    @contextlib.contextmanager
    def at(self, el, what=""):
        try:
            yield
        except ParseError:
            raise
        except (ValueError, TypeError, LookupError) as err:
            raise ParseError(f"{what}: {err}" if what else str(err), self.file_name) from err


def _object_name(path):
    """The last ``o name`` of the .obj file (its object name), or ''."""
    name = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("o ") or line.startswith("o\t"):
                name = line[2:].strip()
    return name


def parse_obj_model(path, ws):
    """Add the model of the .obj file `path` to ``ws.plant`` (see the module docstring);
    returns ``[model_instance]``.

    Raises
    ------
    ParseError
        Naming the file: it cannot be read, has no triangles, or does not enclose a
        positive volume (an open or inside-out mesh).
    """
    doc = _ObjFile(path, ws.diagnostics)
    if not os.path.isfile(path):
        raise ParseError("cannot read the file: it does not exist", path)
    try:
        vertices, faces, _ = load_triangles(path)
    except (RuntimeError, ImportError) as err:
        raise ParseError(str(err), path) from err
    if not len(faces):
        raise ParseError("the mesh has no triangles, so its body has no volume for the mass "
                         "and inertia a mesh model takes from it", path)
    try:
        M_BBo_B = mesh_spatial_inertia(vertices, faces, WATER_DENSITY)
    except ValueError as err:
        raise ParseError(f"the mesh model's inertia (water-filled, {WATER_DENSITY:g} kg/m³): "
                         f"{err}", path) from err
    name = _object_name(path) or os.path.splitext(os.path.basename(path))[0]
    instance = ws.add_model_instance(doc, None, name)
    with doc.at(None, f"mesh model '{name}'"):
        ws.plant.add_rigid_body(name, instance, M_BBo_B)
    for role in ("collision", "visual"):
        ws.report.geometries.append(GeometryRecord(
            role=role, name=role, model_instance=instance, body_name=name, X_BG=np.eye(4),
            shape="Mesh", params={"filename": os.path.abspath(path), "scale": np.ones(3)},
            file=path, line=None))
    return [instance]
