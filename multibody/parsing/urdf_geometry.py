"""URDF ``<visual>``, ``<collision>`` and ``<material>`` elements -> GeometryRecords.

Shapes: ``box size``, ``sphere radius``, ``cylinder radius length``, ``capsule`` /
``drake:capsule`` (radius, length), ``drake:ellipsoid a b c`` and ``mesh filename
[scale]`` (``drake:declare_convex`` makes it a Convex). Mesh files are resolved through
the package map (a missing package or file is a ParseError); their contents are not
read. Visual colors come from an inline ``<material>`` or a robot-level one by name;
collision contact properties from ``drake:proximity_properties``.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.parsing.contact_properties import parse_proximity_properties
from merganser.multibody.parsing.geometry_records import GeometryRecord
from merganser.multibody.parsing.package_map import UnresolvedUriError
from merganser.multibody.parsing.poses import pose_from_xyz_rpy

__all__ = ["parse_origin", "parse_urdf_geometry", "parse_urdf_material"]


def parse_origin(doc, parent, tag: str = "origin") -> np.ndarray:
    """X (4, 4) of the ``<origin xyz rpy>`` child of `parent` (identity if absent)."""
    origin = doc.child(parent, tag)
    if origin is None:
        return np.eye(4)
    doc.mark(origin)
    xyz = doc.attr_vector(origin, "xyz", 3, default=np.zeros(3))
    rpy = doc.attr_vector(origin, "rpy", 3, default=np.zeros(3))
    return pose_from_xyz_rpy(xyz, rpy)


def parse_urdf_material(doc, el, ws, name_required: bool):
    """(name, rgba or None, texture path or None) of a ``<material>`` element."""
    name = doc.attr(el, "name", None)
    if name_required and not name:
        doc.error(el, "a robot-level <material> must have a 'name'")
    rgba = None
    color = doc.child(el, "color")
    if color is not None:
        doc.mark(color)
        rgba = doc.attr_vector(color, "rgba", 4, minimum=0.0)
        if np.any(rgba > 1.0):
            doc.error(color, f"<color rgba> values must be in [0, 1], got {rgba.tolist()}")
    texture_path = None
    texture = doc.child(el, "texture")
    if texture is not None:
        doc.mark(texture)
        uri = doc.attr(texture, "filename", None)
        if uri:
            try:
                texture_path = ws.package_map.resolve(uri, doc.base_dir)
            except UnresolvedUriError as err:
                doc.warn(texture, f"texture {uri!r} cannot be resolved and is ignored: {err}")
    doc.mark(el)
    return name, rgba, texture_path


def _shape(doc, geometry_el, ws, what, role):
    """(shape type, params) of the single shape element inside ``<geometry>``."""
    shapes = doc.elements(geometry_el)
    stray = [c for c in shapes if doc.tag(c) == "drake:declare_convex"]
    if stray and len(shapes) - len(stray) == 1:
        # Drake's own atlas_convex_hull.urdf puts it beside <mesh>; Drake reads it only
        # inside <mesh> and loads such a mesh as a Mesh: the same here, said at its line
        for c in stray:
            doc.warn(c, f"{what}: <drake:declare_convex> beside the shape in <geometry> is "
                        f"ignored (as Drake does): the mesh loads as a Mesh; put it inside "
                        f"<mesh> to declare a Convex")
        shapes = [c for c in shapes if c not in stray]
    if len(shapes) != 1:
        found = [f"<{doc.tag(s)}>" for s in shapes] or ["nothing"]
        doc.error(geometry_el, f"{what}: <geometry> must contain exactly one shape (box, "
                               f"sphere, cylinder, capsule, drake:ellipsoid or mesh), found "
                               f"{', '.join(found)}")
    s = shapes[0]
    tag = doc.tag(s)
    doc.mark(s)
    if tag == "box":
        w, d, h = doc.attr_vector(s, "size", 3, positive=True)
        return "Box", {"width": w, "depth": d, "height": h}
    if tag == "sphere":
        return "Sphere", {"radius": doc.attr_float(s, "radius", minimum=0.0)}     # 0: a point
    if tag in ("cylinder", "capsule", "drake:capsule"):
        kind = "Cylinder" if tag == "cylinder" else "Capsule"
        return kind, {"radius": doc.attr_float(s, "radius", positive=True),
                      "length": doc.attr_float(s, "length", positive=True)}
    if tag == "drake:ellipsoid":
        return "Ellipsoid", {k: doc.attr_float(s, k, positive=True) for k in ("a", "b", "c")}
    if tag == "mesh":
        uri = doc.attr(s, "filename")
        path = ws.resolve_mesh(doc, s, uri, f"{what}: mesh", role)
        scale = doc.attr_vector(s, "scale", (1, 3), default=np.ones(3))
        if scale.size == 1:
            scale = np.full(3, scale[0])
        if np.any(scale == 0.0):
            doc.error(s, f"{what}: mesh scale must be non-zero, got {scale.tolist()}")
        convex = doc.child(s, "drake:declare_convex")
        if convex is not None:
            doc.mark(convex)
        return ("Convex" if convex is not None else "Mesh"), {"filename": path, "scale": scale}
    doc.error(s, f"{what}: unknown shape <{tag}>; expected box, sphere, cylinder, capsule, "
                 f"drake:capsule, drake:ellipsoid or mesh")


def _unique_name(name, existing):
    candidate, k = name, 1
    while candidate in existing:
        candidate, k = f"{name}_{k}", k + 1
    existing.add(candidate)
    return candidate


def parse_urdf_geometry(doc, el, ws, *, body_name: str, model_instance: int,
                        materials: dict, used_names: set) -> GeometryRecord | None:
    """A GeometryRecord for a ``<visual>`` or ``<collision>`` element of link `body_name`.

    `materials` maps robot-level material names to (rgba, texture); `used_names` (per
    body and role) keeps generated names unique. None when the mesh does not resolve
    on a plant without SceneGraph (warned).
    """
    role = doc.tag(el)
    doc.mark(el)
    given = doc.attr(el, "name", None)
    what = f"link '{body_name}' {role}" + (f" '{given}'" if given else "")
    X_BG = parse_origin(doc, el)
    geometry = doc.require_child(el, "geometry", what)
    doc.mark(geometry)
    shape, params = _shape(doc, geometry, ws, what, role)
    if shape in ("Mesh", "Convex") and params["filename"] is None:
        return None  # unresolved without a SceneGraph (warned)
    # Drake's names: the given one, else the shape's type ("Box", "Cylinder", ...), made
    # unique per link and role with "_1", "_2", ...
    name = _unique_name(given or shape, used_names)
    what = f"link '{body_name}' {role} '{name}'"
    record = GeometryRecord(role, name, model_instance, body_name, X_BG, shape, params,
                            file=doc.file_name, line=doc.line(el))
    if role == "visual":
        material = doc.child(el, "material")
        if material is not None:
            mat_name, rgba, _ = parse_urdf_material(doc, material, ws, name_required=False)
            if rgba is None and mat_name:
                if mat_name not in materials:
                    doc.error(material, f"{what}: material '{mat_name}' is not defined at the "
                                        f"robot level or in an earlier link, and has no "
                                        f"<color>")
                rgba = materials[mat_name]
            elif rgba is not None and mat_name and mat_name not in materials:
                materials[mat_name] = rgba  # later links may reuse it by name (URDF)
            record.diffuse_rgba = rgba
            record.material_name = mat_name
    else:
        props = doc.child(el, "drake:proximity_properties")
        if props is not None:
            record.proximity = parse_proximity_properties(
                doc, props, lambda c, positive: doc.attr_float(c, "value", minimum=0.0,
                                                               positive=positive))
    return record
