"""URDF joints, mimic tags and transmissions, following Drake's URDF parser.

- ``revolute``/``continuous``, ``prismatic``, ``fixed``, ``planar`` (the plane is normal
  to ``<axis>``) as ``<joint>``; ``ball``, ``universal``, ``screw`` (with
  ``<drake:screw_thread_pitch value>``) as ``<drake:joint>``; ``floating`` is not a
  joint in Drake: the child is left free (with a warning).
- ``<origin>`` is the pose of the joint frame in the parent link; the child link frame
  coincides with the joint frame at q = 0. ``<axis xyz>`` (default 1 0 0) is expressed
  in the joint frame. Limits: ``lower``/``upper`` (position), ``velocity`` (±),
  ``drake:acceleration`` (±) and ``effort`` (kept for the actuator), all ±inf by
  default; ``<dynamics damping>``.
- ``<mimic joint multiplier offset>`` becomes a coupler constraint
  q_joint = multiplier q_mimicked + offset when the plant can enforce constraints (a
  discrete plant with the sap, similar, lagged or lcp approximation); otherwise it is
  ignored with a warning, so that the model still simulates, without the coupling.
  (Drake 1.51 adds the constraint to any plant; a continuous plant then refuses to
  simulate. Older Drake releases ignored the tag with a warning, as here.)
- Actuators come only from ``<transmission>`` (SimpleTransmission), named after the
  ``<actuator>``, with the joint's effort limit; a zero effort limit skips the
  transmission (warning), a negative one is an error.
"""

from __future__ import annotations

import numpy as np

from merganser.multibody.parsing.poses import (
    is_identity,
    pose_from_rotation,
    rotation_closest_to_identity_from_z,
)
from merganser.multibody.parsing.urdf_geometry import parse_origin
from merganser.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    PlanarJoint,
    PrismaticJoint,
    RevoluteJoint,
    ScrewJoint,
    UniversalJoint,
    WeldJoint,
)

__all__ = ["check_urdf_tree", "constraints_unsupported_reason", "joint_frame", "parse_mimic",
           "parse_transmission", "parse_urdf_joint"]

_CONSTRAINT_APPROXIMATIONS = ("sap", "similar", "lagged", "lcp")


def constraints_unsupported_reason(plant):
    """Why `plant` cannot take a coupler constraint (None if it can).

    Mimic elements are honored only by plants that enforce constraints: discrete plants
    with the sap, similar, lagged or lcp contact approximation (the plant rejects
    constraints on continuous plants at finalize()). See the module docstring for how this
    differs from Drake 1.51.
    """
    if not plant.is_discrete():
        return "the plant is continuous (time_step = 0)"
    approximation = plant.get_discrete_contact_approximation()
    if approximation not in _CONSTRAINT_APPROXIMATIONS:
        return f"the plant's discrete contact approximation is {approximation!r}"
    return None

_STANDARD = {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}
_CUSTOM = {"ball", "universal", "screw", "planar"}


def joint_frame(plant, body, X_BF, joint_name: str, suffix: str, model_instance: int,
                always: bool = False):
    """The body frame when X_BF is the identity (and not `always`), else a new
    FixedOffsetFrame named ``<joint>_<suffix>`` (Drake's naming) in the joint's model
    instance. Drake's SDFormat parser makes the child frame always."""
    if is_identity(X_BF) and not always:
        return body.body_frame()
    return plant.add_frame(FixedOffsetFrame(f"{joint_name}_{suffix}", body.body_frame(), X_BF,
                                            model_instance=model_instance))


def _key_params(doc, el):
    name = doc.attr(el, "name")
    kind = doc.attr(el, "type")
    parent_el = doc.require_child(el, "parent", f"joint '{name}'")
    child_el = doc.require_child(el, "child", f"joint '{name}'")
    doc.mark(parent_el)
    doc.mark(child_el)
    return name, kind, doc.attr(parent_el, "link"), doc.attr(child_el, "link")


def check_urdf_tree(doc, joint_elements, link_names) -> None:
    """Raise ParseError (at the offending joint) for a joint naming a missing link, a
    link with two parent joints, the world as a child, or a cycle."""
    parent_of = {}
    for el in joint_elements:
        name, _, parent, child = _key_params(doc, el)
        for role, link in (("parent", parent), ("child", child)):
            if link != "world" and link not in link_names:
                doc.error(el, f"joint '{name}' names {role} link '{link}', which is not a link "
                              f"of this model")
        if child == "world":
            doc.error(el, f"joint '{name}' has the world as its child; the world can only be "
                          f"a parent")
        if parent == child:
            doc.error(el, f"joint '{name}' connects link '{child}' to itself")
        if child in parent_of:
            other_name, other_el, _ = parent_of[child]
            doc.error(el, f"kinematic loop: link '{child}' is the child of joint "
                          f"'{other_name}' (line {doc.line(other_el)}) and of joint '{name}'; "
                          f"URDF models must be trees (loop joints are not supported)")
        parent_of[child] = (name, el, parent)
    for start in parent_of:
        seen, link = set(), start
        while link in parent_of:
            if link in seen:
                name, el, _ = parent_of[link]
                doc.error(el, f"kinematic loop: the joints form a cycle through link '{link}' "
                              f"(joint '{name}'); URDF models must be trees")
            seen.add(link)
            link = parent_of[link][2]


def _limits(doc, el):
    """(lower, upper, velocity, acceleration, effort) from ``<limit>`` (±inf default)."""
    inf = np.inf
    limit = doc.child(el, "limit")
    if limit is None:
        return -inf, inf, inf, inf, inf
    doc.mark(limit)
    lower = doc.attr_float(limit, "lower", -inf, allow_inf=True)
    upper = doc.attr_float(limit, "upper", inf, allow_inf=True)
    if lower > upper:
        doc.error(limit, f"lower limit {lower} exceeds upper limit {upper}")
    velocity = doc.attr_float(limit, "velocity", inf, allow_inf=True, minimum=0.0)
    acceleration = doc.attr_float(limit, "drake:acceleration", inf, allow_inf=True, minimum=0.0)
    effort = doc.attr_float(limit, "effort", inf, allow_inf=True)
    return lower, upper, velocity, acceleration, effort


def _damping(doc, el, size: int = 1):
    dynamics = doc.child(el, "dynamics")
    if dynamics is None:
        return 0.0 if size == 1 else np.zeros(size)
    doc.mark(dynamics)
    friction = doc.attr_float(dynamics, "friction", 0.0)
    if friction != 0.0:
        doc.warn(dynamics, f"joint friction {friction} is not supported and is ignored "
                           f"(MultibodyPlant has no joint friction)")
    if doc.has(dynamics, "coulomb_window"):
        doc.attr(dynamics, "coulomb_window")
        doc.warn(dynamics, "'coulomb_window' is no longer used by Drake and is ignored")
    if size == 1:
        return doc.attr_float(dynamics, "damping", 0.0, minimum=0.0)
    values = doc.attr_vector(dynamics, "damping", (1, size), default=np.zeros(size),
                             minimum=0.0)
    return np.full(size, values[0]) if values.size == 1 else values


def _axis(doc, el, name):
    axis_el = doc.child(el, "axis")
    if axis_el is None:
        return np.array([1.0, 0.0, 0.0])
    doc.mark(axis_el)
    axis = doc.attr_vector(axis_el, "xyz", 3, default=np.array([1.0, 0.0, 0.0]))
    norm = float(np.linalg.norm(axis))
    if norm < 1e-8:
        doc.error(axis_el, f"joint '{name}' has a zero axis {axis.tolist()}")
    return axis / norm


def parse_urdf_joint(doc, el, ws, model_instance: int, bodies: dict, effort_limits: dict):
    """Add the joint of `el` to the plant (nothing for ``floating``). `bodies` maps link
    names (and "world") to bodies; `effort_limits[name]` receives the effort limit."""
    plant = ws.plant
    name, kind, parent_name, child_name = _key_params(doc, el)
    custom = doc.tag(el) == "drake:joint"
    if kind not in _STANDARD | _CUSTOM:
        doc.error(el, f"joint '{name}' has unknown type '{kind}'; expected one of "
                      f"{sorted(_STANDARD)} (or {sorted(_CUSTOM - {'planar'})} as "
                      f"<drake:joint>)")
    if custom and kind not in _CUSTOM:
        doc.error(el, f"joint '{name}' of type '{kind}' is a standard joint type and must be "
                      f"declared with <joint>, not <drake:joint>")
    if not custom and kind not in _STANDARD:
        doc.error(el, f"joint '{name}' of type '{kind}' is a custom joint type and must be "
                      f"declared with <drake:joint>")
    doc.mark(el, message=f"{kind} joint")
    parent, child = bodies[parent_name], bodies[child_name]
    X_PJ = parse_origin(doc, el)
    for unsupported in ("calibration", "safety_controller"):
        for sub in doc.elements(el, unsupported):
            doc.ignore(sub, f"<{unsupported}> of joint '{name}' is not used by Drake and is "
                            f"ignored")
    if kind == "floating":
        doc.warn(el, f"joint '{name}' is of type floating, which MultibodyPlant does not "
                     f"support as a joint; leaving link '{child_name}' as a free body")
        if doc.child(el, "axis") is not None:
            doc.ignore(doc.child(el, "axis"))
        return None
    axis = None if kind in ("fixed", "ball") else _axis(doc, el, name)
    with doc.at(el, f"joint '{name}'"):
        joint = _add_joint(doc, el, ws, plant, kind, name, parent, child, X_PJ, axis,
                           model_instance, effort_limits)
    return joint


def _add_joint(doc, el, ws, plant, kind, name, parent, child, X_PJ, axis, mi, effort_limits):
    F = None
    if kind in ("revolute", "continuous", "prismatic"):
        lower, upper, velocity, acceleration, effort = _limits(doc, el)
        damping = _damping(doc, el)
        F = joint_frame(plant, parent, X_PJ, name, "parent", mi)
        if kind == "prismatic":
            joint = PrismaticJoint(name, F, child.body_frame(), axis, pos_lower_limit=lower,
                                   pos_upper_limit=upper, damping=damping)
        else:
            joint = RevoluteJoint(name, F, child.body_frame(), axis, damping,
                                  pos_lower_limit=lower, pos_upper_limit=upper)
        joint.set_velocity_limits([-velocity], [velocity])
        joint.set_acceleration_limits([-acceleration], [acceleration])
        effort_limits[name] = effort
        ws.report.joint_effort_limits[(mi, name)] = effort
        return plant.add_joint(joint)
    if kind == "fixed":
        F = joint_frame(plant, parent, X_PJ, name, "parent", mi)
        return plant.add_joint(WeldJoint(name, F, child.body_frame(), None))
    if kind == "planar":
        R_BM = rotation_closest_to_identity_from_z(axis)
        X_BM = pose_from_rotation(R_BM)
        F = joint_frame(plant, parent, X_PJ @ X_BM, name, "parent", mi)
        M = joint_frame(plant, child, X_BM, name, "child", mi)
        return plant.add_joint(PlanarJoint(name, F, M, _damping(doc, el, 3)))
    damping = _damping(doc, el)
    F = joint_frame(plant, parent, X_PJ, name, "parent", mi)
    if kind == "ball":
        return plant.add_joint(BallRpyJoint(name, F, child.body_frame(), damping))
    if kind == "universal":
        return plant.add_joint(UniversalJoint(name, F, child.body_frame(), damping))
    pitch_el = doc.child(el, "drake:screw_thread_pitch")
    if pitch_el is None:
        doc.error(el, f"screw joint '{name}' is missing its <drake:screw_thread_pitch value>")
    doc.mark(pitch_el)
    pitch = doc.attr_float(pitch_el, "value")
    effort_limits[name] = _limits(doc, el)[4]
    ws.report.joint_effort_limits[(mi, name)] = effort_limits[name]
    return plant.add_joint(ScrewJoint(name, F, child.body_frame(), axis, pitch, damping))


def parse_mimic(doc, el, ws, model_instance: int) -> None:
    """Coupler constraint for the ``<mimic>`` of joint element `el` (if any)."""
    mimic = doc.child(el, "mimic")
    if mimic is None:
        return
    plant = ws.plant
    name = doc.attr(el, "name")
    doc.mark(mimic, message="coupler constraint")
    target = doc.attr(mimic, "joint")
    if target == name:
        doc.error(mimic, f"joint '{name}' cannot mimic itself")
    if not plant.has_joint_named(target, model_instance):
        doc.error(mimic, f"joint '{name}' mimics joint '{target}', which does not exist in "
                         f"this model")
    multiplier = doc.attr_float(mimic, "multiplier", 1.0)
    offset = doc.attr_float(mimic, "offset", 0.0)
    if not plant.has_joint_named(name, model_instance):
        doc.warn(mimic, f"joint '{name}' is not a single-dof joint of the plant; its <mimic> "
                        f"is ignored")
        return
    reason = constraints_unsupported_reason(plant)
    if reason is not None:
        doc.warn(mimic, f"the <mimic> of joint '{name}' is ignored: {reason}; coupler "
                        f"constraints need a discrete plant with one of the contact "
                        f"approximations {list(_CONSTRAINT_APPROXIMATIONS)}")
        return
    joint0 = plant.get_joint_by_name(name, model_instance)
    joint1 = plant.get_joint_by_name(target, model_instance)
    if joint0.num_velocities() != joint1.num_velocities():
        doc.error(mimic, f"joint '{name}' with {joint0.num_velocities()} dofs cannot mimic "
                         f"joint '{target}' with {joint1.num_velocities()} dofs")
    if joint0.num_velocities() != 1:
        doc.warn(mimic, f"mimic is supported for single-dof joints only; the <mimic> of joint "
                        f"'{name}' is ignored")
        return
    with doc.at(mimic, f"mimic of joint '{name}'"):
        plant.add_coupler_constraint(joint0, joint1, multiplier, offset)


def _mechanical_reduction(doc, el):
    for child in doc.elements(el, "mechanicalReduction"):
        value = doc.text(child, "")
        tokens = value.split()
        if len(tokens) == 1 and tokens[0] in ("1", "1.0", "1.") or value == "":
            doc.mark(child, message="1 (no effect)")
        else:
            doc.warn(child, f"mechanicalReduction {value!r} is not supported (only 1) and is "
                            f"ignored")


def parse_transmission(doc, el, ws, model_instance: int, effort_limits: dict) -> None:
    """Add the actuator of a SimpleTransmission (see the module docstring)."""
    plant = ws.plant
    doc.attr(el, "name", None)      # a transmission's name is informational only
    type_el = doc.child(el, "type")
    kind = doc.text(type_el) if type_el is not None else doc.attr(el, "type", None)
    if kind is None:
        doc.error(el, "<transmission> is missing its type (a <type> element or 'type' "
                      "attribute)")
    if "SimpleTransmission" not in kind:
        doc.ignore(el, f"transmission type {kind!r} is not supported (only SimpleTransmission);"
                       f" the transmission is ignored")
        return
    doc.mark(el)
    _mechanical_reduction(doc, el)
    actuator_el = doc.require_child(el, "actuator", "<transmission>")
    doc.mark(actuator_el)
    _mechanical_reduction(doc, actuator_el)
    actuator_name = doc.attr(actuator_el, "name")
    joint_el = doc.require_child(el, "joint", "<transmission>")
    doc.mark(joint_el)
    joint_name = doc.attr(joint_el, "name")
    if not plant.has_joint_named(joint_name, model_instance):
        doc.error(joint_el, f"transmission names joint '{joint_name}', which does not exist")
    joint = plant.get_joint_by_name(joint_name, model_instance)
    if joint.num_velocities() == 0 or joint_name not in effort_limits:
        doc.warn(joint_el, f"transmission on joint '{joint_name}' skipped: only revolute, "
                           f"continuous, prismatic and screw joints can be actuated")
        return
    effort = effort_limits[joint_name]
    if effort < 0.0:
        doc.error(joint_el, f"transmission names joint '{joint_name}', whose effort limit "
                            f"{effort} is negative")
    if effort == 0.0:
        doc.warn(joint_el, f"transmission on joint '{joint_name}' skipped: the joint's effort "
                           f"limit is 0")
        return
    with doc.at(actuator_el, f"actuator '{actuator_name}'"):
        actuator = plant.add_joint_actuator(actuator_name, joint, effort)
        for tag, setter in (("drake:rotor_inertia", actuator.set_default_rotor_inertia),
                            ("drake:gear_ratio", actuator.set_default_gear_ratio)):
            sub = doc.child(actuator_el, tag)
            if sub is not None:
                doc.mark(sub)
                setter(doc.attr_float(sub, "value"))
