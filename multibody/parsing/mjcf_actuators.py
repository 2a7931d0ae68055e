"""MJCF ``<actuator>``: ``<motor>`` elements become joint actuators (Drake's rules).

A motor on ``joint`` gets the effort limit min(ctrl limit, force limit), each being the
larger magnitude of its (possibly asymmetric, with a warning) range; ``gear`` is the
actuator's gear ratio (Drake uses it for reflected inertia only) and the joint's
``armature`` becomes the rotor inertia armature / gear². Other actuator types and
motors without a joint transmission are ignored with a warning.
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


def _effort_limit(doc, motor, name, autolimits):
    effort = np.inf
    for rng, flag in (("ctrlrange", "ctrllimited"), ("forcerange", "forcelimited")):
        limited, lo, hi = parse_mjcf_range(doc, motor, rng, flag, autolimits)
        if limited:
            if lo != -hi:
                doc.warn(motor, f"motor '{name}': asymmetric {rng} [{lo}, {hi}]; the effort "
                                f"limit is the larger magnitude")
            effort = min(effort, max(hi, -lo))
    return effort


def parse_mjcf_actuators(doc, el, plant, model_instance: int, *, apply_defaults,
                         autolimits: bool, armature: dict) -> None:
    """Add the motors of an ``<actuator>`` element.

    `apply_defaults(el, tag)` applies the default class; `armature` maps joint indices to
    their ``armature`` values.
    """
    doc.mark(el)
    for k, motor in enumerate(doc.elements(el)):
        tag = doc.tag(motor)
        if tag != "motor":
            doc.ignore(motor, f"actuator <{tag}> is not supported (only <motor>) and is ignored")
            continue
        apply_defaults(motor, "motor")
        name = doc.attr(motor, "name", None) or f"motor{k}"
        joint_name = doc.attr(motor, "joint", None)
        if joint_name is None:
            doc.ignore(motor, f"motor '{name}' has no 'joint' transmission (only joint "
                              f"transmissions are supported) and is ignored")
            continue
        doc.mark(motor)
        if not plant.has_joint_named(joint_name, model_instance):
            doc.error(motor, f"motor '{name}' names joint '{joint_name}', which does not exist")
        effort = _effort_limit(doc, motor, name, autolimits)
        gear = doc.attr_vector(motor, "gear", (1, 2, 3, 4, 5, 6), default=np.ones(1))
        if gear[0] == 0.0:
            doc.error(motor, f"motor '{name}': gear must be non-zero")
        if np.any(gear[1:] != 0.0):
            doc.warn(motor, f"motor '{name}': only the first gear value is used")
        joint = plant.get_joint_by_name(joint_name, model_instance)
        with doc.at(motor, f"motor '{name}'"):
            actuator = plant.add_joint_actuator(name, joint, effort)
            actuator.set_default_gear_ratio(gear[0])
            if armature.get(joint.index()):
                actuator.set_default_rotor_inertia(armature[joint.index()] / gear[0] ** 2)
