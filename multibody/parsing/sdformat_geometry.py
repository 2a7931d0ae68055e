"""SDFormat ``<visual>`` and ``<collision>`` elements -> GeometryRecords.

Shapes: ``box/size``, ``sphere/radius``, ``cylinder/radius,length``,
``capsule/radius,length``, ``ellipsoid/radii``, ``plane/normal`` (a HalfSpace whose +z
is the normal; ``size`` is only visual and ignored), ``mesh/uri[,scale]`` (Convex with
``drake:declare_convex``), Drake's legacy ``drake:capsule`` and ``drake:ellipsoid``, and
``empty`` (no geometry). Visual color: ``material/diffuse``. Collision friction: Drake's
``drake:proximity_properties`` or, failing that, ``surface/friction/ode/mu`` (static)
and ``mu2`` (dynamic).
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.parsing.contact_properties import parse_proximity_properties
from merganser.multibody.parsing.geometry_records import GeometryRecord
from merganser.multibody.parsing.poses import pose_from_rotation, rotation_closest_to_identity_from_z

__all__ = ["parse_sdf_geometry"]

_UNSUPPORTED_SHAPES = ("heightmap", "polyline", "image")


def _positive(doc, el, tag):
    return doc.child_float(el, tag, positive=True)


def _shape(doc, geometry_el, ws, what, role):
    """(shape type, params, X_GS) of the shape in ``<geometry>`` (None for <empty>)."""
    shapes = doc.elements(geometry_el)
    if len(shapes) != 1:
        found = [f"<{doc.tag(s)}>" for s in shapes] or ["nothing"]
        doc.error(geometry_el, f"{what}: <geometry> must contain exactly one shape, found "
                               f"{', '.join(found)}")
    s = shapes[0]
    tag = doc.tag(s)
    if tag in _UNSUPPORTED_SHAPES:
        doc.ignore(s, f"{what}: <{tag}> geometry is not supported and is ignored")
        return None
    doc.mark(s)
    identity = np.eye(4)
    if tag == "empty":
        return None
    if tag == "box":
        w, d, h = doc.child_vector(s, "size", 3, positive=True)
        return "Box", {"width": w, "depth": d, "height": h}, identity
    if tag == "sphere":
        return "Sphere", {"radius": doc.child_float(s, "radius", minimum=0.0)}, identity
    if tag in ("cylinder", "capsule", "drake:capsule"):
        kind = "Cylinder" if tag == "cylinder" else "Capsule"
        return kind, {"radius": _positive(doc, s, "radius"),
                      "length": _positive(doc, s, "length")}, identity
    if tag == "ellipsoid":
        a, b, c = doc.child_vector(s, "radii", 3, positive=True)
        return "Ellipsoid", {"a": a, "b": b, "c": c}, identity
    if tag == "drake:ellipsoid":
        return "Ellipsoid", {k: _positive(doc, s, k) for k in ("a", "b", "c")}, identity
    if tag == "plane":
        normal = doc.child_vector(s, "normal", 3, default=np.array([0.0, 0.0, 1.0]))
        if np.linalg.norm(normal) < 1e-12:
            doc.error(s, f"{what}: the plane normal must be non-zero")
        size = doc.child(s, "size")
        if size is not None:
            doc.mark(size, message="plane size has no effect on a half space")
            doc.text(size)
        return "HalfSpace", {}, pose_from_rotation(rotation_closest_to_identity_from_z(normal))
    if tag == "mesh":
        uri_el = doc.require_child(s, "uri", f"{what}: <mesh>")
        uri = doc.text(uri_el)
        path = ws.resolve_mesh(doc, uri_el, uri, f"{what}: mesh", role)
        scale = doc.child_vector(s, "scale", 3, default=np.ones(3))
        if np.any(scale == 0.0):
            doc.error(s, f"{what}: mesh scale must be non-zero, got {scale.tolist()}")
        convex = doc.child(s, "drake:declare_convex")
        if convex is not None:
            doc.mark(convex)
        return ("Convex" if convex is not None else "Mesh"), {"filename": path,
                                                              "scale": scale}, identity
    doc.error(s, f"{what}: unknown shape <{tag}>; expected box, sphere, cylinder, capsule, "
                 f"ellipsoid, plane, mesh or empty")


def _ode_friction(doc, el):
    """(mu, mu2) from ``surface/friction/ode`` (None if absent)."""
    surface = doc.child(el, "surface")
    if surface is None:
        return None
    doc.mark(surface)
    friction = doc.child(surface, "friction")
    if friction is None:
        return None
    doc.mark(friction)
    ode = doc.child(friction, "ode")
    if ode is None:
        return None
    doc.mark(ode)
    mu = doc.child_float(ode, "mu", None, minimum=0.0)
    mu2 = doc.child_float(ode, "mu2", None, minimum=0.0)
    if mu is None and mu2 is None:
        return None
    mu = mu2 if mu is None else mu
    mu2 = mu if mu2 is None else mu2
    return mu, mu2


def parse_sdf_geometry(doc, el, ws, *, X_LG: np.ndarray, body_name: str,
                       model_instance: int, used_names: set):
    """GeometryRecord of a ``<visual>``/``<collision>`` at pose X_LG in link `body_name`
    (None for ``<empty>`` or an unsupported shape)."""
    role = doc.tag(el)
    name = doc.attr(el, "name")
    if name in used_names:
        doc.error(el, f"link '{body_name}' has two <{role}> elements named '{name}'")
    used_names.add(name)
    doc.mark(el)
    what = f"link '{body_name}' {role} '{name}'"
    geometry = doc.require_child(el, "geometry", what)
    doc.mark(geometry)
    shape = _shape(doc, geometry, ws, what, role)
    if shape is None:
        return None
    kind, params, X_GS = shape
    if kind in ("Mesh", "Convex") and params["filename"] is None:
        return None  # unresolved without a SceneGraph (warned)
    record = GeometryRecord(role, name, model_instance, body_name, X_LG @ X_GS, kind, params,
                            file=doc.file_name, line=doc.line(el))
    if role == "visual":
        material = doc.child(el, "material")
        if material is not None:
            doc.mark(material)
            diffuse = doc.child_vector(material, "diffuse", (3, 4), default=None, minimum=0.0)
            if diffuse is not None:
                record.diffuse_rgba = np.append(diffuse, 1.0) if diffuse.size == 3 else diffuse
    else:
        properties = {}
        mu = _ode_friction(doc, el)
        if mu is not None:
            if mu[1] > mu[0]:
                doc.error(el, f"{what}: ode mu2 ({mu[1]}) must not exceed mu ({mu[0]})")
            properties[("material", "coulomb_friction")] = mu
        props = doc.child(el, "drake:proximity_properties")
        if props is not None:
            properties = parse_proximity_properties(
                doc, props, lambda c, positive: doc.text_float(c, minimum=0.0,
                                                               positive=positive), properties)
        record.proximity = properties
    return record
