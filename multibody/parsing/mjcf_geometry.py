"""MJCF ``<geom>`` -> GeometryRecords (and the geom's solid mass properties).

``size`` follows MuJoCo (sphere: radius; capsule and cylinder: radius, half-length;
box: half-sizes; ellipsoid: radii); ``fromto`` places a capsule or cylinder between two
points. Each geom is both visual and collision geometry, except that
``contype="0" conaffinity="0"`` makes it visual only and ``group > 2`` collision only
(Drake's rules). ``rgba`` (or the named ``material``'s) colors it and the first
``friction`` value is the Coulomb friction (static = dynamic). An ``hfield`` geom is the
closed solid of its height field as a mesh (`mjcf_mesh_data`); its mass properties are
MuJoCo's: those of the box of half sizes (rx, ry, elevation_z / 4 + base_z / 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from merganser.multibody.math import SpatialInertia
from merganser.multibody.parsing.geometry_records import GeometryRecord
from merganser.multibody.parsing.mjcf_frames import CompilerSettings, parse_mjcf_pose
from merganser.multibody.parsing.mjcf_inertia import geom_mass_properties
from merganser.multibody.parsing.poses import pose_from_rotation, rotation_closest_to_identity_from_z

__all__ = ["GEOM_TYPES", "MjcfAssets", "parse_mjcf_geom"]

GEOM_TYPES = ("sphere", "box", "capsule", "cylinder", "ellipsoid", "plane", "mesh", "hfield")


@dataclass
class MjcfAssets:
    """``<asset>`` contents: meshes (name -> (resolved path, scale (3,), inertia mode)),
    height fields (name -> (path of their closed solid's OBJ (`mjcf_mesh_data`), size
    (4,))) and material colors (name -> rgba (4,))."""

    meshes: dict = field(default_factory=dict)
    hfields: dict = field(default_factory=dict)
    materials: dict = field(default_factory=dict)


def _shape(doc, el, name, kind, size, fromto, assets):
    """(shape type, params) of a geom."""

    def need(n, what):
        if len(size) < n:
            doc.error(el, f"geom '{name}': {what} needs at least {n} size values, got "
                          f"{len(size)}")
        if any(s <= 0.0 for s in size[:n]):
            doc.error(el, f"geom '{name}': sizes must be > 0, got {list(size[:n])}")

    if kind == "plane":
        return "HalfSpace", {}
    if kind == "sphere":
        need(1, "a sphere")
        return "Sphere", {"radius": size[0]}
    if kind in ("capsule", "cylinder"):
        need(1 if fromto is not None else 2, f"a {kind}")
        length = (np.linalg.norm(fromto[3:] - fromto[:3]) if fromto is not None
                  else 2.0 * size[1])
        if not length > 0.0:
            doc.error(el, f"geom '{name}': fromto has zero length")
        return kind.capitalize(), {"radius": size[0], "length": float(length)}
    if kind in ("box", "ellipsoid"):
        if fromto is not None:
            doc.error(el, f"geom '{name}': fromto is not supported for a {kind}")
        need(3, f"a {kind}")
        if kind == "box":
            return "Box", {"width": 2 * size[0], "depth": 2 * size[1], "height": 2 * size[2]}
        return "Ellipsoid", {"a": size[0], "b": size[1], "c": size[2]}
    if kind == "hfield":       # MuJoCo ignores the geom's size: the asset's gives it
        hfield = doc.attr(el, "hfield", None)
        if hfield not in assets.hfields:
            doc.error(el, f"geom '{name}' of type hfield names hfield {hfield!r}, which is not "
                          f"an <asset><hfield>; known height fields: {sorted(assets.hfields)}")
        doc.consume(el, "size")
        return "Mesh", {"filename": assets.hfields[hfield][0], "scale": np.ones(3)}
    mesh = doc.attr(el, "mesh", None)
    if mesh is None or mesh not in assets.meshes:
        doc.error(el, f"geom '{name}' of type mesh names mesh {mesh!r}, which is not an "
                      f"<asset><mesh>; known meshes: {sorted(assets.meshes)}")
    path, scale, _ = assets.meshes[mesh]
    return "Mesh", {"filename": path, "scale": scale}


def _placement(doc, el, fromto, compiler):
    if fromto is None:
        return parse_mjcf_pose(doc, el, compiler)
    X_BG = pose_from_rotation(rotation_closest_to_identity_from_z(fromto[3:] - fromto[:3]))
    X_BG[:3, 3] = 0.5 * (fromto[:3] + fromto[3:])
    for attr in ("pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"):
        doc.consume(el, attr)
    return X_BG


def _contact_properties(doc, el, name):
    proximity = {}
    friction = doc.attr_vector(el, "friction", (1, 2, 3), default=None, minimum=0.0)
    if friction is not None:
        proximity[("material", "coulomb_friction")] = (friction[0], friction[0])
        if np.any(friction[1:] != 0.0):
            doc.warn(el, f"geom '{name}': torsional and rolling friction are not supported "
                         f"and are ignored")
    return proximity


def parse_mjcf_geom(doc, el, index: int, *, body_name: str, model_instance: int,
                    compiler: CompilerSettings, assets: MjcfAssets, with_inertia: bool):
    """(records, M_GBo_B or None) of one ``<geom>`` (defaults already applied).

    With `with_inertia`, the geom's solid mass properties (``mass``, or ``density``
    (1000 kg/m³ by default) times its volume) about the body origin, in the body frame.
    """
    name = doc.attr(el, "name", None) or f"geom{index}"
    kind = doc.attr(el, "type", "sphere")
    if kind not in GEOM_TYPES:
        doc.error(el, f"geom '{name}' has unknown or unsupported type '{kind}'; expected one "
                      f"of {list(GEOM_TYPES)}")
    doc.mark(el)
    size = doc.attr_vector(el, "size", (1, 2, 3), default=np.zeros(0))
    fromto = doc.attr_vector(el, "fromto", 6, default=None)
    shape, params = _shape(doc, el, name, kind, size, fromto, assets)
    X_BG = _placement(doc, el, fromto, compiler)
    rgba = doc.attr_vector(el, "rgba", 4, default=None)
    material = doc.attr(el, "material", None)
    if rgba is None and material is not None:
        if material not in assets.materials:
            doc.warn(el, f"geom '{name}' uses the unknown material {material!r}")
        rgba = assets.materials.get(material)
    proximity = _contact_properties(doc, el, name)
    roles = []
    if not (doc.attr_float(el, "contype", 1.0) == 0 and doc.attr_float(el, "conaffinity",
                                                                        1.0) == 0):
        roles.append("collision")
    if doc.attr_float(el, "group", 0.0) <= 2:
        roles.append("visual")
    records = [GeometryRecord(role, name, model_instance, body_name, X_BG, shape, params,
                              rgba if role == "visual" else None, None,
                              proximity if role == "collision" else {}, doc.file_name,
                              doc.line(el)) for role in roles]
    if not with_inertia:
        doc.consume(el, "mass", "density")
        return records, None
    mass = doc.attr_float(el, "mass", None, minimum=0.0)
    density = doc.attr_float(el, "density", 1000.0, minimum=0.0)
    if kind == "hfield":       # MuJoCo: the box of half sizes rx, ry, elevation_z/4 + base_z/2
        rx, ry, elevation, base = assets.hfields[doc.attr(el, "hfield")][1]
        shape, params = "Box", {"width": 2 * rx, "depth": 2 * ry,
                                "height": 0.5 * elevation + base}
    mode = assets.meshes[doc.attr(el, "mesh")][2] if shape == "Mesh" else "legacy"
    m, p_GoGcm_G, I_G = geom_mass_properties(doc, el, shape, params, density, mass, mode)
    if not m > 0.0:
        return records, None
    R = X_BG[:3, :3]
    with doc.at(el, f"geom '{name}' mass properties"):
        return records, SpatialInertia.make_from_central_inertia(
            m, X_BG[:3, 3] + R @ p_GoGcm_G, R @ I_G @ R.T)
