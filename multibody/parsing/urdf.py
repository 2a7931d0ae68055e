"""URDF -> MultibodyPlant, following Drake's URDF parser.

One ``<robot>`` is one model instance named after the robot. In order:

1. robot-level ``<material>``s;
2. ``<link>``s: a body each (``<inertial>`` with ``<origin xyz rpy>``, ``<mass>``,
   ``<inertia>`` about the center of mass in the rotated frame; no ``<inertial>`` means a
   massless link), their visual and collision geometry (records) and ``<hydro>``
   blocks (a HydrodynamicForce each). A link named ``world`` *is* the world body (its
   inertial is ignored), so joints to it weld or connect the model to the world; a link
   with ``drake_ignore="true"`` is skipped;
3. the joint graph is checked (missing links, loops) before any joint is added, then
   ``<joint>``/``<drake:joint>``s in document order (see `urdf_joints`);
4. ``<transmission>``s (actuators), ``<mimic>``s (coupler constraints), ``<frame>``s,
   ``drake:linear_bushing_rpy`` and ``drake:collision_filter_group``.

Root link rule (Drake's): a link that is not the child of any joint becomes a free
(floating) body when the plant is finalized, unless the file connects it to its own
``world`` link.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.hydrodynamics import HydrodynamicForce
from merganser.multibody.math import SpatialInertia
from merganser.multibody.parsing.hydrodynamics import parse_hydro_element
from merganser.multibody.parsing.link_inertia import add_link_body, link_spatial_inertia
from merganser.multibody.parsing.poses import pose_from_xyz_rpy
from merganser.multibody.parsing.urdf_geometry import parse_origin, parse_urdf_geometry, parse_urdf_material
from merganser.multibody.parsing.urdf_joints import (
    check_urdf_tree,
    parse_mimic,
    parse_transmission,
    parse_urdf_joint,
)
from merganser.multibody.tree import FixedOffsetFrame, LinearBushingRollPitchYaw

__all__ = ["parse_urdf"]


def _ignored_by_drake(doc, el) -> bool:
    """True (and reported) for elements with ``drake_ignore="true"``."""
    if doc.attr(el, "drake_ignore", "false").lower() == "true":
        doc.ignore(el, f"<{doc.tag(el)} name='{el.get('name')}'> has drake_ignore=\"true\" and "
                       f"is skipped", quiet=True)
        return True
    return False


def _link_inertia(doc, el, name):
    """M_BBo_B of the ``<inertial>`` element `el` of link `name`."""
    doc.mark(el)
    X_BBi = parse_origin(doc, el)
    mass_el = doc.child(el, "mass")
    if mass_el is None:
        doc.defaulted(el, "no <mass>: 0")
        mass = 0.0
    else:
        doc.mark(mass_el)
        mass = doc.attr_float(mass_el, "value")
    inertia_el = doc.child(el, "inertia")
    I = np.zeros((3, 3))
    if inertia_el is None:
        doc.defaulted(el, "no <inertia>: zero rotational inertia")
    else:
        doc.mark(inertia_el)
        v = {k: doc.attr_float(inertia_el, k, 0.0)
             for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")}
        I = np.array([[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
                      [v["ixz"], v["iyz"], v["izz"]]])
    return link_spatial_inertia(doc, el, name, mass, X_BBi[:3, 3], I, X_BBi[:3, :3])


def _parse_link(doc, el, ws, mi, materials, bodies):
    name = doc.attr(el, "name")
    if name in bodies and name != "world":
        doc.error(el, f"link '{name}' is declared twice")
    doc.mark(el)
    if doc.has(el, "type"):
        doc.attr(el, "type")
        doc.warn(el, f"attribute 'type' of link '{name}' is not supported and is ignored")
    inertial = doc.child(el, "inertial")
    if name == "world":
        body = ws.plant.world_body()
        if inertial is not None:
            doc.ignore(inertial, "the file's 'world' link is the world body; its <inertial> "
                                 "is ignored")
    else:
        if inertial is None:
            doc.defaulted(el, f"link '{name}' has no <inertial>: it is massless (a massless "
                              f"link that ends a movable chain is rejected by finalize())")
            M = SpatialInertia.zero()
        else:
            M = _link_inertia(doc, inertial, name)
        body = add_link_body(doc, el, ws.plant, name, mi, M)
    bodies[name] = body
    used = {"visual": set(), "collision": set()}
    for geom in doc.elements(el):
        role = doc.tag(geom)
        if role in used:
            record = parse_urdf_geometry(doc, geom, ws, body_name=name, model_instance=mi,
                                         materials=materials, used_names=used[role])
            if record is not None:
                ws.report.geometries.append(record)
    hydro = doc.elements(el, "hydro")
    if len(hydro) > 1:
        doc.error(hydro[1], f"link '{name}' has more than one <hydro> block")
    if hydro:
        if name == "world":
            doc.ignore(hydro[0], "the world body cannot carry hydrodynamics; <hydro> ignored")
        else:
            data = parse_hydro_element(doc, hydro[0], name)
            with doc.at(hydro[0], f"link '{name}' <hydro>"):
                ws.plant.add_force_element(HydrodynamicForce(
                    body, data, fluid_density=ws.fluid_density, gravity=ws.gravity))


def _parse_frame(doc, el, ws, mi, bodies):
    name = doc.attr(el, "name")
    link = doc.attr(el, "link")
    if link not in bodies:
        doc.error(el, f"frame '{name}' is attached to link '{link}', which does not exist")
    doc.mark(el)
    X_BF = pose_from_xyz_rpy(doc.attr_vector(el, "xyz", 3, default=np.zeros(3)),
                             doc.attr_vector(el, "rpy", 3, default=np.zeros(3)))
    with doc.at(el, f"frame '{name}'"):
        ws.plant.add_frame(FixedOffsetFrame(name, bodies[link].body_frame(), X_BF,
                                            model_instance=mi))


def _parse_bushing(doc, el, ws, mi):
    plant = ws.plant
    doc.mark(el)

    def vector(tag):
        child = doc.require_child(el, tag, "<drake:linear_bushing_rpy>")
        doc.mark(child)
        return doc.attr_vector(child, "value", 3, minimum=0.0)

    def frame(tag):
        child = doc.require_child(el, tag, "<drake:linear_bushing_rpy>")
        doc.mark(child)
        frame_name = doc.attr(child, "name")
        if not plant.has_frame_named(frame_name, mi):
            doc.error(child, f"bushing frame '{frame_name}' does not exist in this model")
        return plant.get_frame_by_name(frame_name, mi)

    with doc.at(el, "drake:linear_bushing_rpy"):
        plant.add_force_element(LinearBushingRollPitchYaw(
            frame("drake:bushing_frameA"), frame("drake:bushing_frameC"),
            vector("drake:bushing_torque_stiffness"), vector("drake:bushing_torque_damping"),
            vector("drake:bushing_force_stiffness"), vector("drake:bushing_force_damping")))


def parse_collision_filter_group(doc, el, ws, mi, member_exists, member_attr):
    """Record a ``drake:collision_filter_group`` (for the scene graph) in the report."""
    name = doc.attr(el, "name")
    if doc.attr(el, "ignore", "false").lower() == "true":
        doc.ignore(el, f"collision filter group '{name}' has ignore=\"true\"")
        return
    doc.mark(el, message="recorded for the scene graph")
    members, ignored = [], []
    for member in doc.elements(el, "drake:member"):
        link = doc.attr(member, member_attr) if member_attr else doc.text(member)
        if not member_exists(link):
            doc.error(member, f"collision filter group '{name}' names link '{link}', which "
                              f"does not exist")
        members.append(link)
        doc.mark(member)
    for other in doc.elements(el, "drake:ignored_collision_filter_group"):
        ignored.append(doc.attr(other, "name") if member_attr else doc.text(other))
        doc.mark(other)
    ws.report.collision_filter_groups.append(
        {"name": name, "model_instance": mi, "members": members, "ignored_groups": ignored})


def parse_urdf(doc, ws, parent_model_name: str | None = None) -> list[int]:
    """Add the ``<robot>`` of `doc` to ``ws.plant``; return [model_instance]."""
    robot = doc.root
    if doc.tag(robot) != "robot":
        doc.error(robot, f"a URDF file must have a <robot> root element, got <{doc.tag(robot)}>")
    name = doc.attr(robot, "name")
    if doc.has(robot, "version"):
        doc.attr(robot, "version")
        doc.warn(robot, "attribute 'version' of <robot> is not supported and is ignored")
    mi = ws.add_model_instance(doc, robot, name, parent_model_name)
    doc.mark(robot, message=f"model instance {mi}")

    materials = {}
    for el in doc.elements(robot, "material"):
        mat_name, rgba, _ = parse_urdf_material(doc, el, ws, name_required=True)
        if mat_name in materials and not np.array_equal(materials[mat_name], rgba):
            doc.error(el, f"material '{mat_name}' is declared twice with different colors")
        materials[mat_name] = rgba

    links = [el for el in doc.elements(robot, "link") if not _ignored_by_drake(doc, el)]
    bodies = {"world": ws.plant.world_body()}
    for el in links:
        _parse_link(doc, el, ws, mi, materials, bodies)

    joints = [el for el in doc.elements(robot) if doc.tag(el) in ("joint", "drake:joint")
              and not _ignored_by_drake(doc, el)]
    check_urdf_tree(doc, joints, set(bodies))
    effort_limits = {}
    for el in joints:
        parse_urdf_joint(doc, el, ws, mi, bodies, effort_limits)
    for el in doc.elements(robot, "transmission"):
        parse_transmission(doc, el, ws, mi, effort_limits)
    for el in joints:
        parse_mimic(doc, el, ws, mi)
    for el in doc.elements(robot, "loop_joint"):
        doc.error(el, "loop joints are not supported by MultibodyPlant")
    for el in doc.elements(robot, "frame"):
        _parse_frame(doc, el, ws, mi, bodies)
    for el in doc.elements(robot, "drake:linear_bushing_rpy"):
        _parse_bushing(doc, el, ws, mi)
    for el in doc.elements(robot, "drake:collision_filter_group"):
        parse_collision_filter_group(doc, el, ws, mi, lambda link: link in bodies, "link")
    for el in doc.elements(robot, "gazebo"):
        doc.ignore(el, "<gazebo> is simulator-specific and is ignored", quiet=True)
    return [mi]
