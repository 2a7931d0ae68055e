"""``merganser inspect MODEL``: what the parser made of a model file.

Prints the import report summary, the model instances, every body (mass, whether it is
free), every joint (type, parent -> child, coordinates, limits), the actuators, nq / nv /
nu, the total mass, the geometry counts and the parser's warnings with file:line.
``--json`` prints the same as one JSON object (see `describe_model`).
"""

from __future__ import annotations

import json

import numpy as np

__all__ = ["describe_model", "run"]


def _limits(lo, hi):
    return [[None if not np.isfinite(a) else float(a), None if not np.isfinite(b) else float(b)]
            for a, b in zip(lo, hi)]


def describe_model(path, packages=(), strict=False):
    """A dict describing the model in `path` (the content of ``merganser inspect --json``).

    Keys: ``file``, ``format``, ``report`` (counts per status), ``model_instances``,
    ``bodies`` (name, model_instance, mass, floating), ``joints`` (name, type, parent,
    child, position_start, num_positions, velocity_start, num_velocities, lower, upper),
    ``actuators``, ``nq``, ``nv``, ``nu``, ``total_mass``, ``geometry`` (visual and
    collision counts), ``warnings`` (strings with file:line).
    """
    from merganser.cli.models import load_model
    from merganser.multibody import MultibodyPlant

    plant = MultibodyPlant(0.0)
    parser, instances = load_model(path, plant, packages=packages, strict=strict)
    plant.finalize()
    report = parser.last_report()
    bodies = []
    for i in range(1, plant.num_bodies()):
        body = plant.get_body(i)
        bodies.append(dict(name=body.name(), model_instance=plant.get_model_instance_name(
            body.model_instance()), mass=float(body.default_mass()),
            floating=bool(body.is_floating())))
    joints = []
    for j in plant.get_joint_indices():
        joint = plant.get_joint(j)
        joints.append(dict(
            name=joint.name(), type=joint.type_name(), parent=joint.parent_body().name(),
            child=joint.child_body().name(), position_start=joint.position_start(),
            num_positions=joint.num_positions(), velocity_start=joint.velocity_start(),
            num_velocities=joint.num_velocities(),
            limits=_limits(joint.position_lower_limits(), joint.position_upper_limits())))
    geometries = parser.geometries()
    return dict(
        file=str(path), format=report.file_type, report=report.counts(),
        model_instances=[plant.get_model_instance_name(m) for m in instances],
        bodies=bodies, joints=joints, actuators=list(plant.get_actuator_names()),
        nq=plant.num_positions(), nv=plant.num_velocities(), nu=plant.num_actuators(),
        total_mass=float(sum(b["mass"] for b in bodies)),
        geometry=dict(visual=sum(g.role == "visual" for g in geometries),
                      collision=sum(g.role == "collision" for g in geometries)),
        warnings=[str(e) for e in report.warnings()])


def _format_limits(limits):
    def one(v):
        return "·" if v is None else f"{v:.3g}"
    return ", ".join(f"[{one(a)}, {one(b)}]" for a, b in limits)


def to_text(info):
    """The human-readable report of `describe_model`'s dict."""
    counts = ", ".join(f"{n} {s}" for s, n in info["report"].items())
    lines = [f"{info['file']} ({info['format']}): {counts}",
             f"model instances: {', '.join(info['model_instances'])}",
             f"nq = {info['nq']}, nv = {info['nv']}, nu = {info['nu']}, "
             f"total mass = {info['total_mass']:.6g} kg",
             f"geometry: {info['geometry']['visual']} visual, "
             f"{info['geometry']['collision']} collision",
             f"bodies ({len(info['bodies'])}):"]
    width = max([len(b["name"]) for b in info["bodies"]] + [4])
    for b in info["bodies"]:
        free = "  free" if b["floating"] else ""
        lines.append(f"  {b['name']:<{width}}  {b['mass']:10.6g} kg{free}")
    lines.append(f"joints ({len(info['joints'])}):")
    width = max([len(j["name"]) for j in info["joints"]] + [4])
    for j in info["joints"]:
        coords = (f"q[{j['position_start']}:{j['position_start'] + j['num_positions']}]"
                  if j["num_positions"] else "no coordinates")
        limits = f"  limits {_format_limits(j['limits'])}" if any(
            v is not None for pair in j["limits"] for v in pair) else ""
        lines.append(f"  {j['name']:<{width}}  {j['type']:<20} {j['parent']} -> "
                     f"{j['child']}  {coords}{limits}")
    lines.append(f"actuators ({len(info['actuators'])}): {', '.join(info['actuators'])}")
    counts = info["report"]
    lines.append(f"parser warnings ({counts.get('warned', 0)} warned, "
                 f"{counts.get('ignored', 0)} ignored):")
    lines += [f"  {w}" for w in info["warnings"]]
    return "\n".join(lines)


def run(args, parser):
    """Entry of ``merganser inspect``."""
    info = describe_model(args.model, packages=args.package, strict=args.strict)
    print(json.dumps(info, indent=2) if args.json else to_text(info))
    return 0
