"""SDFormat joints, following Drake's SDFormat parser.

Types: ``revolute``, ``continuous``, ``prismatic``, ``fixed``, ``ball``, ``universal``,
``screw`` and Drake's ``drake:joint type="planar"``; ``revolute2`` and ``gearbox`` are
errors. The joint frame J has the pose of ``<joint><pose>`` (relative to the child link
by default); the joint's frames are J expressed on the parent link (``<joint>_parent``,
only when J is offset from the parent link) and on the child link (``<joint>_child``,
always, as Drake), at the default configuration of the model.
``<axis><xyz expressed_in>`` is in J unless it names a frame (SDFormat < 1.7:
``use_parent_model_frame`` means the model frame). Limits: ``lower``/``upper`` (±inf
by default), ``velocity`` and ``effort`` (negative means unlimited), and
``drake:acceleration``; ``<dynamics>``: ``damping``, ``spring_reference`` and
``spring_stiffness`` (a RevoluteSpring / PrismaticSpring). Revolute, continuous,
prismatic and screw joints get an actuator named after the joint unless their effort
limit is 0 (Drake's rule); ``drake:mimic`` / ``axis/mimic`` make coupler constraints
(on plants that enforce constraints, see `urdf_joints.constraints_unsupported_reason`).
"""

from __future__ import annotations

import math

import numpy as np

from merganser.multibody.parsing.poses import inverse_pose, pose_from_rotation
from merganser.multibody.parsing.urdf_joints import constraints_unsupported_reason, joint_frame
from merganser.multibody.tree import (
    BallRpyJoint,
    PlanarJoint,
    PrismaticJoint,
    PrismaticSpring,
    RevoluteJoint,
    RevoluteSpring,
    ScrewJoint,
    UniversalJoint,
    WeldJoint,
)

__all__ = ["add_sdf_joint", "sdf_version"]

_UNLIMITED = 1e16  # older libsdformat writes ±1e16 for "no limit"


def sdf_version(doc) -> tuple:
    """(major, minor) of the document's ``<sdf version>`` ((1, 9) if absent)."""
    raw = doc.root.get("version") or "1.9"
    try:
        return tuple(int(x) for x in raw.split(".")[:2])
    except ValueError:
        return (1, 9)


def _axis(scope, el, name, tag, X_MJ, required=True):
    doc = scope.doc
    axis_el = doc.child(el, tag)
    if axis_el is None:
        if required:
            doc.error(el, f"joint '{name}' must have an <{tag}>")
        return None, None
    doc.mark(axis_el)
    xyz_el = doc.child(axis_el, "xyz")
    if xyz_el is None:
        doc.defaulted(axis_el, "no <xyz>: 0 0 1")
        axis = np.array([0.0, 0.0, 1.0])
        expressed_in = None
    else:
        axis = doc.text_vector(xyz_el, 3)
        expressed_in = doc.attr(xyz_el, "expressed_in", None)
    norm = float(np.linalg.norm(axis))
    if norm < 1e-8:
        doc.error(axis_el, f"joint '{name}' has a zero axis {axis.tolist()}")
    axis = axis / norm
    use_parent = doc.child_bool(axis_el, "use_parent_model_frame", False)
    if expressed_in and expressed_in != "__joint__":
        X_ME = scope.pose_in_model(expressed_in, xyz_el)
        axis = (inverse_pose(X_MJ) @ X_ME)[:3, :3] @ axis
    elif use_parent and sdf_version(doc) < (1, 7):
        axis = inverse_pose(X_MJ)[:3, :3] @ axis
    return axis, axis_el


def _limits(doc, axis_el):
    inf = math.inf
    if axis_el is None or doc.child(axis_el, "limit") is None:
        return -inf, inf, inf, inf, inf
    limit = doc.child(axis_el, "limit")
    doc.mark(limit)
    lower = doc.child_float(limit, "lower", -inf, allow_inf=True)
    upper = doc.child_float(limit, "upper", inf, allow_inf=True)
    lower = -inf if lower <= -_UNLIMITED else lower
    upper = inf if upper >= _UNLIMITED else upper
    if lower > upper:
        doc.error(limit, f"lower limit {lower} exceeds upper limit {upper}")
    velocity = doc.child_float(limit, "velocity", -1.0, allow_inf=True)
    effort = doc.child_float(limit, "effort", -1.0, allow_inf=True)
    acceleration = doc.child_float(limit, "drake:acceleration", inf, allow_inf=True,
                                   minimum=0.0)
    for tag in ("stiffness", "dissipation"):
        if doc.child(limit, tag) is not None:
            doc.ignore(doc.child(limit, tag), f"<limit><{tag}> (joint stop) is not supported "
                                              f"and is ignored")
    return (lower, upper, inf if velocity < 0 else velocity, acceleration,
            inf if effort < 0 else effort)


def _dynamics(doc, axis_el):
    """(damping, spring_reference, spring_stiffness)."""
    if axis_el is None or doc.child(axis_el, "dynamics") is None:
        return 0.0, 0.0, 0.0
    dyn = doc.child(axis_el, "dynamics")
    doc.mark(dyn)
    friction = doc.child_float(dyn, "friction", 0.0)
    if friction != 0.0:
        doc.warn(dyn, f"joint friction {friction} is not supported and is ignored")
    return (doc.child_float(dyn, "damping", 0.0, minimum=0.0),
            doc.child_float(dyn, "spring_reference", 0.0),
            doc.child_float(dyn, "spring_stiffness", 0.0, minimum=0.0))


def _actuate(scope, el, ws, joint, name, effort):
    doc = scope.doc
    ws.report.joint_effort_limits[(joint.model_instance(), name)] = effort
    if effort == 0.0:
        doc.mark(el, message="effort limit 0: not actuated")
        return
    actuator = ws.plant.add_joint_actuator(name, joint, effort)
    for tag, setter in (("drake:rotor_inertia", actuator.set_default_rotor_inertia),
                        ("drake:gear_ratio", actuator.set_default_gear_ratio)):
        if doc.child(el, tag) is not None:
            setter(doc.child_float(el, tag))


def add_sdf_joint(scope, name: str, el, ws):
    """Add the joint `name` (element `el`) of `scope` to the plant."""
    doc = scope.doc
    plant = ws.plant
    custom = doc.tag(el) == "drake:joint"
    kind = doc.attr(el, "type")
    prefix = "drake:" if custom else ""
    parent_name = doc.child_text(el, f"{prefix}parent")
    child_name = doc.child_text(el, f"{prefix}child")
    if custom and kind != "planar":
        doc.error(el, f"<drake:joint> '{name}' has type '{kind}'; only 'planar' is supported")
    if kind in ("revolute2", "gearbox"):
        doc.error(el, f"joint '{name}' has type '{kind}', which is not supported")
    known = ("revolute", "continuous", "prismatic", "fixed", "ball", "universal", "screw",
             "planar")
    if kind not in known or (kind == "planar" and not custom):
        doc.error(el, f"joint '{name}' has unknown type '{kind}'; expected one of "
                      f"{list(known[:-1])} (or <drake:joint type='planar'>)")
    doc.mark(el, message=f"{kind} joint")
    world = plant.world_body()
    parent, X_MP = scope.body_of(parent_name, el, world)
    child, X_MC = scope.body_of(child_name, el, world)
    if child is world:
        doc.error(el, f"joint '{name}' has the world as its child")
    if child is parent:
        doc.error(el, f"joint '{name}' connects link '{child.name()}' to itself")
    X_MJ = scope.pose_in_model(name, el)
    X_PJ = inverse_pose(X_MP) @ X_MJ
    X_CJ = inverse_pose(X_MC) @ X_MJ
    mi = child.model_instance()
    with doc.at(el, f"joint '{name}'"):
        return _make_joint(scope, el, ws, plant, kind, name, parent, child, X_PJ, X_CJ, X_MJ, mi)


def _make_joint(scope, el, ws, plant, kind, name, parent, child, X_PJ, X_CJ, X_MJ, mi):
    doc = scope.doc

    def frames(X_P, X_C):
        # as Drake: the parent frame only when offset, the child frame always
        return (joint_frame(plant, parent, X_P, name, "parent", mi),
                joint_frame(plant, child, X_C, name, "child", mi, always=True))

    if kind == "fixed":
        F, M = frames(X_PJ, X_CJ)
        return plant.add_joint(WeldJoint(name, F, M, None))
    if kind == "planar":
        damping = doc.child_vector(el, "drake:damping", 3, default=np.zeros(3), minimum=0.0)
        F, M = frames(X_PJ, X_CJ)
        return plant.add_joint(PlanarJoint(name, F, M, damping))
    if kind == "ball":
        axis_el = doc.child(el, "axis")
        if axis_el is not None:
            doc.mark(axis_el)
        damping = _dynamics(doc, axis_el)[0]
        F, M = frames(X_PJ, X_CJ)
        return plant.add_joint(BallRpyJoint(name, F, M, damping))
    if kind == "universal":
        axis1, axis_el = _axis(scope, el, name, "axis", X_MJ)
        axis2, axis2_el = _axis(scope, el, name, "axis2", X_MJ)
        if abs(float(axis1 @ axis2)) > 1e-10:
            doc.error(el, f"universal joint '{name}': axis and axis2 must be orthogonal")
        X_JI = pose_from_rotation(np.column_stack([axis1, axis2, np.cross(axis1, axis2)]))
        damping = _dynamics(doc, axis_el)[0]
        if _dynamics(doc, axis2_el)[0] != damping:
            doc.warn(axis2_el, f"universal joint '{name}': the damping of <axis2> differs from "
                               f"<axis>; Drake uses the damping of <axis> for both")
        F, M = frames(X_PJ @ X_JI, X_CJ @ X_JI)
        return plant.add_joint(UniversalJoint(name, F, M, damping))
    axis, axis_el = _axis(scope, el, name, "axis", X_MJ)
    lower, upper, velocity, acceleration, effort = _limits(doc, axis_el)
    damping, spring_reference, spring_stiffness = _dynamics(doc, axis_el)
    F, M = frames(X_PJ, X_CJ)
    if kind == "screw":
        pitch = _screw_pitch(doc, el, name)
        joint = plant.add_joint(ScrewJoint(name, F, M, axis, pitch, damping))
    elif kind == "prismatic":
        joint = plant.add_joint(PrismaticJoint(name, F, M, axis, pos_lower_limit=lower,
                                               pos_upper_limit=upper, damping=damping))
    else:
        if kind == "continuous":
            lower, upper = -math.inf, math.inf
        joint = plant.add_joint(RevoluteJoint(name, F, M, axis, damping, pos_lower_limit=lower,
                                              pos_upper_limit=upper))
    if kind != "screw":
        joint.set_velocity_limits([-velocity], [velocity])
        joint.set_acceleration_limits([-acceleration], [acceleration])
    _actuate(scope, el, ws, joint, name, effort)
    if spring_stiffness != 0.0 and kind != "screw":
        spring = PrismaticSpring if kind == "prismatic" else RevoluteSpring
        plant.add_force_element(spring(joint, spring_reference, spring_stiffness))
    return joint


def _screw_pitch(doc, el, name):
    """Translation per revolution (m): ``screw_thread_pitch`` (SDFormat 1.10+), or the
    legacy ``thread_pitch`` (rad/m, opposite handedness) as -2π / thread_pitch."""
    if doc.child(el, "screw_thread_pitch") is not None:
        return doc.child_float(el, "screw_thread_pitch")
    legacy = doc.child(el, "thread_pitch")
    if legacy is None:
        doc.error(el, f"screw joint '{name}' needs a <screw_thread_pitch>")
    value = doc.text_float(legacy)
    if value == 0.0:
        doc.error(legacy, f"screw joint '{name}': <thread_pitch> must be non-zero")
    doc.mark(legacy, message="legacy thread_pitch (rad/m) converted to -2π/thread_pitch m/rev")
    return -2.0 * math.pi / value


def add_sdf_mimic(scope, name: str, el, ws) -> None:
    """Coupler constraint from ``drake:mimic`` (attributes) or ``axis/mimic`` (SDFormat
    1.11: ``joint`` attribute, ``multiplier`` and ``offset`` children)."""
    doc = scope.doc
    plant = ws.plant
    mimic = doc.child(el, "drake:mimic")
    if mimic is not None:
        target = doc.attr(mimic, "joint")
        multiplier = doc.attr_float(mimic, "multiplier", 1.0)
        offset = doc.attr_float(mimic, "offset", 0.0)
    else:
        axis_el = doc.child(el, "axis")
        mimic = None if axis_el is None else doc.child(axis_el, "mimic")
        if mimic is None:
            return
        target = doc.attr(mimic, "joint")
        multiplier = doc.child_float(mimic, "multiplier", 1.0)
        offset = doc.child_float(mimic, "offset", 0.0)
        if doc.child(mimic, "reference") is not None:
            offset -= multiplier * doc.child_float(mimic, "reference", 0.0)
    mi = scope.model_instance
    reason = constraints_unsupported_reason(plant)
    if reason is not None:
        doc.warn(mimic, f"the mimic of joint '{name}' is ignored: {reason}")
        return
    doc.mark(mimic, message="coupler constraint")
    if target == name or not plant.has_joint_named(target, mi):
        doc.error(mimic, f"joint '{name}' mimics joint '{target}', which is not another joint "
                         f"of model '{scope.full_name}'")
    joint0, joint1 = plant.get_joint_by_name(name, mi), plant.get_joint_by_name(target, mi)
    with doc.at(mimic, f"mimic of joint '{name}'"):
        plant.add_coupler_constraint(joint0, joint1, multiplier, offset)
