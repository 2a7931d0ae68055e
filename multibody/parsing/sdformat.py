"""SDFormat (1.6+) -> MultibodyPlant, following Drake's SDFormat parser.

A file holds ``<model>``s, or a ``<world>`` with models, ``<include>``s and world
joints. Each model (nested ones too, named ``outer::inner``) is a model instance. The
parse has two passes: the first builds the frame scopes of every model and include
(`sdformat_frames`), creating the model instances in document order; the second adds,
per model (nested models first): links (bodies, geometry records, default free-body
pose X_WL), the ``__model__`` frame and ``<frame>``s (FixedOffsetFrames), joints
(`sdformat_joints`), welds for ``<static>`` models, bushings and collision filter
groups; then the world joints.

Includes (``<include><uri>``) are resolved through the package map: ``model://name``
and ``package://`` name a directory with a ``model.config`` (its ``<sdf>`` file) or a
``model.sdf``, or a file. ``<name>``, ``<pose>`` and ``<static>`` override the
included model's.

Links without ``<inertial>`` get SDFormat's defaults (mass 1 kg, unit moments of inertia
at the link origin), as libsdformat (and therefore Drake) do.
"""

from __future__ import annotations

import os

import numpy as np

from merganser.multibody.parsing.link_inertia import add_link_body, link_spatial_inertia
from merganser.multibody.parsing.poses import inverse_pose, is_identity
from merganser.multibody.parsing.sdformat_frames import FrameNode, FrameScope, parse_pose
from merganser.multibody.parsing.sdformat_geometry import parse_sdf_geometry
from merganser.multibody.parsing.sdformat_joints import add_sdf_joint, add_sdf_mimic, sdf_version
from merganser.multibody.parsing.urdf import parse_collision_filter_group
from merganser.multibody.parsing.xml_document import XmlDocument
from merganser.multibody.tree import FixedOffsetFrame, LinearBushingRollPitchYaw, WeldJoint

__all__ = ["parse_sdformat"]

_JOINT_TAGS = ("joint", "drake:joint")


# ====================================================================== pass 1: scopes
def _build_model(doc, el, parent, ws, docs, *, name=None, pose=None, static=None):
    """FrameScope of ``<model>`` `el` (and, recursively, its nested models)."""
    own_name = doc.attr(el, "name")
    name = name or own_name
    parent_full = parent.full_name if parent.model_instance is not None else None
    mi = ws.add_model_instance(doc, el, name, parent_full)
    scope = FrameScope(doc, name, ws.plant.get_model_instance_name(mi), mi, parent, el=el)
    X, relative_to = pose if pose is not None else parse_pose(doc, el)
    if pose is not None and doc.child(el, "pose") is not None:
        doc.mark_subtree(doc.child(el, "pose"), "replaced by the <include>'s <pose>")
    parent.add(name, FrameNode("model", el, X, relative_to or "__model__"))
    parent.nested[name] = scope
    doc.mark(el, message=f"model instance {mi}")
    scope.static = static if static is not None else doc.child_bool(el, "static", False)
    if doc.child(el, "static") is not None:
        doc.mark(doc.child(el, "static"))
    if doc.has(el, "placement_frame"):
        doc.attr(el, "placement_frame")
        doc.warn(el, "attribute 'placement_frame' is not supported and is ignored")
    first_link = None
    for child in doc.elements(el):
        tag = doc.tag(child)
        if tag == "link":
            link = doc.attr(child, "name")
            deformable = doc.child(child, "drake:deformable_properties")
            if deformable is not None:
                # Drake's deformable (FEM) body: not a rigid body, and loading it as one (a
                # free body with SDFormat's default inertia) would give wrong dynamics;
                # refused here, before the model adds anything to the plant
                doc.error(deformable, f"link '{link}' is a deformable body "
                                      f"(<drake:deformable_properties>, Drake's FEM bodies); "
                                      f"merganser simulates rigid bodies only: remove the link "
                                      f"from the model to load the rest")
            X, rel = parse_pose(doc, child)
            scope.add(link, FrameNode("link", child, X, rel or "__model__"))
            first_link = first_link or link
        elif tag in _JOINT_TAGS:
            joint = doc.attr(child, "name")
            prefix = "drake:" if tag == "drake:joint" else ""
            child_link = doc.child_text(child, f"{prefix}child")
            X, rel = parse_pose(doc, child)
            scope.add(joint, FrameNode("joint", child, X, rel or child_link, child_link))
        elif tag == "frame":
            frame = doc.attr(child, "name")
            attached = doc.attr(child, "attached_to", None) or "__model__"
            X, rel = parse_pose(doc, child)
            scope.add(frame, FrameNode("frame", child, X, rel or attached, attached))
        elif tag == "model":
            nested = _build_model(doc, child, scope, ws, docs)
            if first_link is None and nested.canonical_link:
                first_link = f"{nested.name}::{nested.canonical_link}"
        elif tag == "include":
            nested = _build_include(doc, child, scope, ws, docs)
            if first_link is None and nested.canonical_link:
                first_link = f"{nested.name}::{nested.canonical_link}"
    scope.canonical_link = doc.attr(el, "canonical_link", None) or first_link
    return scope


def _include_file(doc, el, uri_el, ws):
    """The SDFormat file an ``<include><uri>`` refers to."""
    uri = doc.text(uri_el)
    path = ws.resolve(doc, uri_el, uri, "<include>")
    if os.path.isdir(path):
        config = os.path.join(path, "model.config")
        candidates = []
        if os.path.isfile(config):
            sub = XmlDocument.load(doc.diagnostics, path=config)
            candidates = [os.path.join(path, sub.text(s)) for s in sub.root.iter("sdf")]
        candidates.append(os.path.join(path, "model.sdf"))
        for candidate in candidates:
            if os.path.isfile(candidate):
                return candidate
        doc.error(uri_el, f"<include> {uri!r}: the directory {path!r} has no model.config "
                          f"naming an existing file and no model.sdf")
    if not path.endswith(".sdf"):
        doc.error(uri_el, f"<include> {uri!r}: only SDFormat (.sdf) files can be included, "
                          f"got {path!r}")
    return path


def _build_include(doc, el, parent, ws, docs):
    """FrameScope of the model an ``<include>`` brings in (its file parsed separately)."""
    doc.mark(el)
    uri_el = doc.require_child(el, "uri", "<include>")
    path = _include_file(doc, el, uri_el, ws)
    chain = getattr(doc, "include_chain", None) or [os.path.abspath(doc.file_name)]
    if os.path.abspath(path) in chain:
        doc.error(uri_el, f"<include> {doc.text(uri_el)!r} includes a file that is already "
                          f"being included: {' -> '.join(chain + [os.path.abspath(path)])}")
    sub = XmlDocument.load(doc.diagnostics, path=path)
    sub.leading_numbers = True
    sub.include_chain = chain + [os.path.abspath(path)]
    if sub.tag(sub.root) != "sdf":
        sub.error(sub.root, f"included file must have an <sdf> root, got <{sub.tag(sub.root)}>")
    sub.mark(sub.root)
    sub.attr(sub.root, "version", None)
    models = sub.elements(sub.root, "model")
    if len(models) != 1:
        sub.error(sub.root, f"an included file must contain exactly one <model>, found "
                            f"{len(models)}")
    docs.append(sub)
    name = doc.child_text(el, "name", None)
    pose = parse_pose(doc, el) if doc.child(el, "pose") is not None else None
    static = doc.child_bool(el, "static", None) if doc.child(el, "static") is not None else None
    if doc.child(el, "placement_frame") is not None:
        doc.ignore(doc.child(el, "placement_frame"),
                   "<include><placement_frame> is not supported and is ignored")
    return _build_model(sub, models[0], parent, ws, docs, name=name, pose=pose, static=static)


# ====================================================================== pass 2: the plant
def _link_inertia(doc, link_el, link, scope):
    """M_BBo_B from ``<inertial>`` with SDFormat's defaults."""
    inertial = doc.child(link_el, "inertial")
    if inertial is None:
        doc.defaulted(link_el, f"link '{link}' has no <inertial>: SDFormat's default mass 1 kg "
                               f"and moments of inertia 1 kg m² at the link origin")
        return link_spatial_inertia(doc, link_el, link, 1.0, np.zeros(3), np.eye(3))
    doc.mark(inertial)
    X_LI, rel = parse_pose(doc, inertial)
    if rel is not None and rel != link:
        X_LI = inverse_pose(scope.pose_in_model(link)) @ scope.pose_in_model(rel, inertial) @ X_LI
    mass_el = doc.child(inertial, "mass")
    if mass_el is None:
        doc.defaulted(inertial, "no <mass>: SDFormat's default 1 kg")
    mass = 1.0 if mass_el is None else doc.text_float(mass_el)
    inertia_el = doc.child(inertial, "inertia")
    values = {}
    for k, default in (("ixx", 1.0), ("iyy", 1.0), ("izz", 1.0), ("ixy", 0.0), ("ixz", 0.0),
                       ("iyz", 0.0)):
        values[k] = default if inertia_el is None else doc.child_float(inertia_el, k, default)
    if inertia_el is None:
        doc.defaulted(inertial, "no <inertia>: SDFormat's default moments 1 kg m²")
    else:
        doc.mark(inertia_el)
    v = values
    I = np.array([[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
                  [v["ixz"], v["iyz"], v["izz"]]])
    return link_spatial_inertia(doc, inertial, link, mass, X_LI[:3, 3], I, X_LI[:3, :3])


def _add_link(scope, link, node, ws):
    doc, el = scope.doc, node.el
    doc.mark(el)
    for tag, good in (("gravity", True), ("kinematic", False)):
        if doc.child(el, tag) is not None and doc.child_bool(el, tag, good) != good:
            doc.warn(doc.child(el, tag), f"link '{link}': <{tag}>{not good}</{tag}> is not "
                                         f"supported and is ignored")
    M = _link_inertia(doc, el, link, scope)
    body = add_link_body(doc, el, ws.plant, link, scope.model_instance, M)
    scope.bodies[link] = body
    X_WL = scope.pose_in_world(link, el)
    if not is_identity(X_WL):
        ws.plant.set_default_free_body_pose(body, X_WL)
    X_ML = scope.pose_in_model(link, el)
    used = {"visual": set(), "collision": set()}
    for geom in doc.elements(el):
        role = doc.tag(geom)
        if role not in used:
            continue
        X, rel = parse_pose(doc, geom)
        X_LG = X if rel in (None, link) else (inverse_pose(X_ML) @
                                               scope.pose_in_model(rel, geom) @ X)
        record = parse_sdf_geometry(doc, geom, ws, X_LG=X_LG, body_name=link,
                                    model_instance=scope.model_instance,
                                    used_names=used[role])
        if record is not None:
            ws.report.geometries.append(record)


def _add_frames(scope, ws):
    plant, doc, mi = ws.plant, scope.doc, scope.model_instance
    world = plant.world_body()
    if scope.canonical_link is not None:
        body, X_MLc = scope.body_of(scope.canonical_link, scope.el, world)
        with doc.at(scope.el, f"model '{scope.full_name}'"):
            plant.add_frame(FixedOffsetFrame("__model__", body.body_frame(),
                                             inverse_pose(X_MLc), model_instance=mi))
    for name, node in scope.nodes.items():
        if node.kind != "frame":
            continue
        doc.mark(node.el)
        body, X_ML = scope.body_of(name, node.el, world)
        if body is world:
            doc.warn(node.el, f"frame '{name}' is attached to the world; it is used for poses "
                              f"but not added to the plant")
            continue
        X_LF = inverse_pose(X_ML) @ scope.pose_in_model(name, node.el)
        with doc.at(node.el, f"frame '{name}'"):
            plant.add_frame(FixedOffsetFrame(name, body.body_frame(), X_LF, model_instance=mi))


def _weld_static(scope, ws, joint_children):
    """Weld the root links of a static model to the world at their default poses."""
    plant, doc = ws.plant, scope.doc
    for name, node in scope.nodes.items():
        if node.kind == "joint" and doc.attr(node.el, "type") != "fixed":
            doc.error(node.el, f"model '{scope.full_name}' is static: only fixed joints are "
                               f"allowed, but joint '{name}' is {doc.attr(node.el, 'type')}")
    for link, body in scope.bodies.items():
        if body.index() in joint_children:
            continue
        with doc.at(scope.el, f"static model '{scope.full_name}'"):
            plant.add_joint(WeldJoint(f"sdformat_model_static_world_welds_to_{link}",
                                      plant.world_frame(), body.body_frame(),
                                      scope.pose_in_world(link)))


def _add_bushing(scope, el, ws):
    doc, plant, mi = scope.doc, ws.plant, scope.model_instance
    doc.mark(el)

    def frame(tag):
        name = doc.child_text(el, tag)
        if not plant.has_frame_named(name, mi):
            doc.error(el, f"<{tag}> names frame '{name}', which does not exist in this model")
        return plant.get_frame_by_name(name, mi)

    def vector(tag):
        return doc.child_vector(el, tag, 3, minimum=0.0)

    with doc.at(el, "drake:linear_bushing_rpy"):
        plant.add_force_element(LinearBushingRollPitchYaw(
            frame("drake:bushing_frameA"), frame("drake:bushing_frameC"),
            vector("drake:bushing_torque_stiffness"), vector("drake:bushing_torque_damping"),
            vector("drake:bushing_force_stiffness"), vector("drake:bushing_force_damping")))


def _add_model(scope, ws, instances):
    instances.append(scope.model_instance)
    for nested in scope.nested.values():
        _add_model(nested, ws, instances)
    for link, node in scope.nodes.items():
        if node.kind == "link":
            _add_link(scope, link, node, ws)
    _add_frames(scope, ws)
    joint_children = set()
    for name, node in scope.nodes.items():
        if node.kind == "joint":
            joint = add_sdf_joint(scope, name, node.el, ws)
            joint_children.add(joint.child_body().index())
    for name, node in scope.nodes.items():
        if node.kind == "joint":
            add_sdf_mimic(scope, name, node.el, ws)
    if scope.static:
        _weld_static(scope, ws, joint_children)
    doc = scope.doc
    for el in doc.elements(scope.el, "drake:linear_bushing_rpy"):
        _add_bushing(scope, el, ws)
    for el in doc.elements(scope.el, "drake:collision_filter_group"):
        parse_collision_filter_group(doc, el, ws, scope.model_instance,
                                     lambda link: link in scope.bodies, None)


def _build_world(doc, world_el, scope, ws, docs):
    doc.mark(world_el)
    doc.attr(world_el, "name", None)
    for child in doc.elements(world_el):
        tag = doc.tag(child)
        if tag == "model":
            _build_model(doc, child, scope, ws, docs)
        elif tag == "include":
            _build_include(doc, child, scope, ws, docs)
        elif tag in _JOINT_TAGS:
            joint = doc.attr(child, "name")
            child_link = doc.child_text(child, "child")
            X, rel = parse_pose(doc, child)
            scope.add(joint, FrameNode("joint", child, X, rel or child_link, child_link))
        elif tag == "frame":
            frame = doc.attr(child, "name")
            attached = doc.attr(child, "attached_to", None) or "world"
            X, rel = parse_pose(doc, child)
            scope.add(frame, FrameNode("frame", child, X, rel or attached, attached))
        elif tag in ("gravity", "physics", "scene", "light", "plugin", "gui", "atmosphere",
                     "magnetic_field", "spherical_coordinates", "wind", "audio", "state",
                     "road", "population"):
            doc.ignore(child, f"world <{tag}> is not used by the plant and is ignored")


def parse_sdformat(doc, ws, parent_model_name: str | None = None) -> list[int]:
    """Add every model of the SDFormat document `doc` to ``ws.plant``."""
    doc.leading_numbers = True          # SDFormat's reading of scalars (XmlDocument)
    root = doc.root
    if doc.tag(root) != "sdf":
        doc.error(root, f"an SDFormat file must have an <sdf> root element, got <{doc.tag(root)}>")
    version = doc.attr(root, "version", None)
    if version is None:
        doc.defaulted(root, "no 'version' attribute: read as SDFormat 1.9")
    elif sdf_version(doc) < (1, 6):
        doc.warn(root, f"SDFormat {version} is older than 1.6; it is read with the 1.6+ rules")
    doc.mark(root)
    world_scope = FrameScope(doc, "world", "world", None, None, el=root)
    docs = []
    for child in doc.elements(root):
        tag = doc.tag(child)
        if tag == "model":
            _build_model(doc, child, world_scope, ws, docs)
        elif tag == "world":
            _build_world(doc, child, world_scope, ws, docs)
    if not world_scope.nested:
        doc.error(root, "the SDFormat file has no <model> (nor a <world> with models)")
    instances = []
    for scope in world_scope.nested.values():
        _add_model(scope, ws, instances)
    for name, node in world_scope.nodes.items():
        if node.kind == "joint":
            add_sdf_joint(world_scope, name, node.el, ws)
    for sub in docs:
        sub.finish()
    return instances
