"""MJCF ``<actuator>``: joint-transmission actuators become joint actuators.

``<motor>`` follows Drake's rules: the effort limit is min(ctrl limit, force limit), each
the larger magnitude of its (possibly asymmetric, with a warning) range; ``gear`` is the
actuator's gear ratio (used for reflected inertia) and the joint's ``armature`` becomes
the rotor inertia armature / gear², so that the reflected inertia equals MuJoCo's
armature.

``<position>``, ``<velocity>``, ``<general>`` (and the other MuJoCo shortcuts) on a joint
also become a joint actuator with the same gear, rotor inertia and effort limit (the
``forcerange``), but the plant's actuation input is the joint torque: MuJoCo's gain and
bias law (``kp``, ``kv``, ``gainprm``, ``biasprm``, activation dynamics) is dropped with
a located warning naming it, unless it is the identity (a ``<general>`` with
``gaintype="fixed" gainprm="1" biastype="none"`` is a motor). Actuators on tendons, sites
or bodies are ignored with a warning. The armature of a joint that no actuator carries
(no actuator, a tendon actuator, or a joint already carried by an earlier actuator)
becomes the joint's own armature (`Joint.set_default_armature`, a merganser extension),
so the mass matrix gains MuJoCo's armature exactly once either way.
"""

from __future__ import annotations

import numpy as np

__all__ = ["parse_mjcf_actuators", "parse_mjcf_range"]


def parse_mjcf_range(doc, el, range_attr: str, limited_attr: str, autolimits: bool):
    """(limited, lower, upper) from a range attribute and its ``*limited`` flag
    (``true``/``false``/``auto``; auto means "limited if a range is given" when
    autolimits is on, and is an error with a range otherwise)."""
    flag = doc.attr(el, limited_attr, "auto")
    has_range = doc.has(el, range_attr)
    lo, hi = doc.attr_vector(el, range_attr, 2) if has_range else (0.0, 0.0)
    if flag == "auto":
        if not autolimits and has_range:
            doc.error(el, f"'{range_attr}' is given but autolimits is disabled and "
                          f"'{limited_attr}' is not set")
        limited = has_range
    elif flag in ("true", "false"):
        limited = flag == "true"
    else:
        doc.error(el, f"'{limited_attr}' must be true, false or auto, got {flag!r}")
    if limited and lo > hi:
        doc.error(el, f"'{range_attr}' lower bound {lo} exceeds upper bound {hi}")
    return limited, float(lo), float(hi)


_JOINT_ACTUATORS = ("motor", "position", "velocity", "general", "intvelocity", "damper",
                    "cylinder", "muscle", "adhesion")


def _gain_bias_dropped(doc, el, tag):
    """Description of the MuJoCo gain/bias law the torque input drops (None: a motor)."""
    if tag == "motor":
        return None
    if tag == "position":
        return f"position servo kp={doc.attr(el, 'kp', '1')} kv={doc.attr(el, 'kv', '0')}"
    if tag == "velocity":
        return f"velocity servo kv={doc.attr(el, 'kv', '1')}"
    if tag == "general":
        gaintype = doc.attr(el, "gaintype", "fixed")
        biastype = doc.attr(el, "biastype", "none")
        dyntype = doc.attr(el, "dyntype", "none")
        gain = doc.attr_vector(el, "gainprm", range(1, 11), default=np.ones(1))
        bias = doc.attr_vector(el, "biasprm", range(1, 11), default=np.zeros(1))
        doc.consume(el, "dynprm")
        if (gaintype == "fixed" and gain[0] == 1.0 and biastype == "none"
                and dyntype == "none"):
            return None
        return (f"general actuator gaintype={gaintype} gainprm={gain.tolist()} "
                f"biastype={biastype} biasprm={bias.tolist()} dyntype={dyntype}")
    return f"<{tag}> actuator dynamics"


def _effort_limit(doc, motor, name, autolimits, tag="motor"):
    effort = np.inf
    ranges = (("ctrlrange", "ctrllimited"), ("forcerange", "forcelimited"))
    if tag != "motor":  # the control is not a torque: only the force range bounds it
        doc.consume(motor, "ctrlrange", "ctrllimited")
        ranges = ranges[1:]
    for rng, flag in ranges:
        limited, lo, hi = parse_mjcf_range(doc, motor, rng, flag, autolimits)
        if limited:
            if lo != -hi:
                doc.warn(motor, f"motor '{name}': asymmetric {rng} [{lo}, {hi}]; the effort "
                                f"limit is the larger magnitude")
            effort = min(effort, max(hi, -lo))
    return effort


def parse_mjcf_actuators(doc, el, plant, model_instance: int, *, apply_defaults,
                         autolimits: bool, armature: dict) -> None:
    """Add the joint actuators of an ``<actuator>`` element.

    `apply_defaults(el, tag)` applies the default class; `armature` maps joint indices to
    their ``armature`` values: the first actuator on a joint carries it as rotor inertia
    armature / gear² and the entry is removed, so what remains is carried by no actuator.
    """
    doc.mark(el)
    for k, motor in enumerate(doc.elements(el)):
        tag = doc.tag(motor)
        if tag not in _JOINT_ACTUATORS:
            doc.ignore(motor, f"actuator <{tag}> is not supported and is ignored")
            continue
        apply_defaults(motor, tag)
        name = doc.attr(motor, "name", None) or f"{tag}{k}"
        joint_name = doc.attr(motor, "joint", None)
        if joint_name is None:
            others = [a for a in ("tendon", "site", "body", "jointinparent", "cranksite")
                      if doc.has(motor, a)]
            doc.ignore(motor, f"actuator '{name}' acts on a {others[0] if others else 'missing'}"
                              f" transmission (only joint transmissions are supported) and is "
                              f"ignored")
            continue
        doc.mark(motor)
        if not plant.has_joint_named(joint_name, model_instance):
            doc.error(motor, f"actuator '{name}' names joint '{joint_name}', which does not "
                             f"exist")
        effort = _effort_limit(doc, motor, name, autolimits, tag)
        gear = doc.attr_vector(motor, "gear", (1, 2, 3, 4, 5, 6), default=np.ones(1))
        if gear[0] == 0.0 or not abs(gear[0]) < 1e150:
            doc.error(motor, f"actuator '{name}': gear must be non-zero and below 1e150 in "
                             f"magnitude, got {gear[0]!r}")
        if np.any(gear[1:] != 0.0):
            doc.warn(motor, f"actuator '{name}': only the first gear value is used")
        joint = plant.get_joint_by_name(joint_name, model_instance)
        if joint.num_velocities() != 1:
            doc.warn(motor, f"actuator '{name}' acts on joint '{joint_name}' with "
                            f"{joint.num_velocities()} dofs; only single-dof joints can be "
                            f"actuated and it is ignored", status="ignored")
            continue
        dropped = _gain_bias_dropped(doc, motor, tag)
        with doc.at(motor, f"actuator '{name}'"):
            actuator = plant.add_joint_actuator(name, joint, effort)
            actuator.set_default_gear_ratio(gear[0])
            if armature.get(joint.index()):
                actuator.set_default_rotor_inertia(armature.pop(joint.index()) / gear[0] ** 2)
        if dropped is not None:
            doc.consume(motor, "kp", "kv", "gaintype", "biastype", "dyntype", "gainprm",
                        "biasprm", "timeconst", "inheritrange")
            doc.warn(motor, f"actuator '{name}' on joint '{joint_name}' is a torque input: "
                            f"its {dropped} is dropped (add a controller to reproduce it)")
