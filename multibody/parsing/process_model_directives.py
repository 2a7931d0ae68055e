"""Apply model directives to a plant (Drake's ProcessModelDirectives and friends).

Each step of a `ModelDirectives` acts on the parser's plant, in order:

=============================  ===========================================================
``add_model``                  parse the file (a URL); the model is named
                               ``namespace::name``; then default joint positions and
                               default free-body poses
``add_model_instance``         an empty model instance ``namespace::name``
``add_frame``                  a FixedOffsetFrame; in the model instance its name's scope
                               names, else in its base frame's
``add_weld``                   ``weld_frames(parent, child, X_PC)``
``add_collision_filter_group`` a group of the parser's `CollisionFilterGroups`
``add_directives``             the directives of another file, in a nested namespace
                               (whose model instance must exist)
=============================  ===========================================================

Every name a step uses is relative to the current namespace (``left::arm::link``), except
``world``.
"""

from __future__ import annotations

import dataclasses

from merganser.geometry import RigidTransform
from merganser.multibody.parsing.model_directives import (
    ModelDirective,
    ModelDirectives,
    load_model_directives,
)
from merganser.multibody.tree import QuaternionFloatingJoint, ScopedName
from merganser.multibody.tree.frames import FixedOffsetFrame

__all__ = [
    "ModelInstanceInfo",
    "flatten_model_directives",
    "get_scoped_frame_by_name",
    "get_scoped_frame_by_name_maybe",
    "apply_model_directives",
]


@dataclasses.dataclass
class ModelInstanceInfo:
    """A model added by ``add_model``; the weld fields are set by a later ``add_weld``
    whose child is in the model."""

    model_name: str = ""
    model_path: str = ""
    parent_frame_name: str = ""
    child_frame_name: str = ""
    X_PC: RigidTransform | None = None
    model_instance: int = -1

    def __post_init__(self):
        if self.X_PC is None:
            self.X_PC = RigidTransform()


def _join(namespace: str, name: str) -> str:
    """``namespace::name``; ``world`` is never scoped (as Drake's directives)."""
    if name == "world":
        return name
    return ScopedName.join(namespace or "", name or "").get_full()


def get_scoped_frame_by_name_maybe(plant, full_name: str):
    """The frame named by the scoped name `full_name` (``model::frame``; ``world`` or an
    unscoped name unique in the plant), or None if there is none."""
    name = ScopedName.parse(full_name)
    if not name.get_namespace():
        if plant.has_frame_named(name.get_element()):
            return plant.get_frame_by_name(name.get_element())
        return None
    if not plant.has_model_instance_named(name.get_namespace()):
        return None
    mi = plant.get_model_instance_by_name(name.get_namespace())
    if not plant.has_frame_named(name.get_element(), mi):
        return None
    return plant.get_frame_by_name(name.get_element(), mi)


def get_scoped_frame_by_name(plant, full_name: str):
    """As `get_scoped_frame_by_name_maybe`, but RuntimeError (naming the frame, and the
    model instance's frames) if there is no such frame."""
    frame = get_scoped_frame_by_name_maybe(plant, full_name)
    if frame is None:
        name = ScopedName.parse(full_name)
        if name.get_namespace() and not plant.has_model_instance_named(name.get_namespace()):
            hint = f"there is no model instance named {name.get_namespace()!r}"
        else:
            hint = "no frame has that name"
        raise RuntimeError(f"get_scoped_frame_by_name: no frame {full_name!r} in the plant: "
                           f"{hint}")
    return frame


def _scoped_frame(plant, namespace, name, step):
    try:
        return get_scoped_frame_by_name(plant, _join(namespace, name))
    except RuntimeError as err:
        raise RuntimeError(f"process_model_directives: {step}: {err}") from None


def _add_model(parser, model, namespace, infos):
    plant = parser.plant()
    path = parser.package_map().resolve(model.file)
    instances = parser._add_models_named(path, model.name, namespace)
    full_name = _join(namespace, model.name)
    for mi in instances:
        for joint_name, q in model.default_joint_positions.items():
            plant.get_joint_by_name(joint_name, mi).set_default_positions(q)
        for child_name, pose in model.default_free_body_pose.items():
            _default_free_body_pose(plant, mi, namespace, child_name, pose)
        infos.append(ModelInstanceInfo(model_name=full_name, model_path=path,
                                       model_instance=mi))


def _default_free_body_pose(plant, mi, namespace, child_name, pose):
    X_PC = pose.get_deterministic_value()
    base = pose.base_frame or "world"
    parent = plant.world_frame() if base == "world" else \
        _scoped_frame(plant, namespace, base, "default_free_body_pose")
    if child_name:
        child = plant.get_frame_by_name(child_name, mi)
    else:
        bodies = plant.get_body_indices(mi)
        if len(bodies) != 1:
            raise RuntimeError(
                f"process_model_directives: model instance "
                f"'{plant.get_model_instance_name(mi)}' cannot use an empty frame name for "
                f"its default_free_body_pose because it has {len(bodies)} (not 1) bodies")
        child = plant.get_body(bodies[0]).body_frame()
    if parent is plant.world_frame() and child.get_fixed_pose_in_body_frame() \
            .get_as_matrix4().tolist() == RigidTransform().get_as_matrix4().tolist():
        plant.set_default_free_body_pose(child.body(), X_PC)
        return
    joint_name = child.body().name()
    while plant.has_joint_named(joint_name, mi):
        joint_name = "_" + joint_name
    joint = plant.add_joint(QuaternionFloatingJoint(joint_name, parent, child))
    joint.set_default_pose(X_PC)


def _add_frame(plant, frame, namespace):
    scoped = ScopedName.parse(frame.name)
    if frame.X_PF.base_frame is None:
        raise RuntimeError(f"process_model_directives: add_frame {frame.name!r} has no "
                           f"X_PF.base_frame; a frame's base frame must be given")
    instance = None
    if scoped.get_namespace():
        instance = plant.get_model_instance_by_name(_join(namespace, scoped.get_namespace()))
    base = _scoped_frame(plant, namespace, frame.X_PF.base_frame, f"add_frame {frame.name!r}")
    plant.add_frame(FixedOffsetFrame(scoped.get_element(), base,
                                     frame.X_PF.get_deterministic_value(),
                                     model_instance=instance))


def _add_weld(plant, weld, namespace, infos):
    parent = _scoped_frame(plant, namespace, weld.parent, "add_weld parent")
    child = _scoped_frame(plant, namespace, weld.child, "add_weld child")
    X_PC = RigidTransform() if weld.X_PC is None else weld.X_PC.get_deterministic_value()
    plant.weld_frames(parent, child, X_PC)
    for info in infos:
        if info.model_instance == child.model_instance():
            info.parent_frame_name, info.child_frame_name = parent.name(), child.name()
            info.X_PC = X_PC


def _add_collision_filter_group(parser, group, namespace):
    scope = _join(namespace, group.model_namespace or "")
    groups = parser._collision_filter_groups
    name = _join(scope, group.name)
    members = {_join(scope, m) for m in group.members}
    for other in group.member_groups:
        members |= groups.groups().get(_join(scope, other), set())
    groups.add_group(name, members)
    for ignored in group.ignored_collision_filter_groups:
        groups.add_exclusion_pair((name, _join(scope, ignored)))


def _process(parser, directives, namespace, infos):
    plant = parser.plant()
    for index, directive in enumerate(directives.directives):
        if not isinstance(directive, ModelDirective):
            raise TypeError(f"process_model_directives: directive {index} must be a "
                            f"ModelDirective, got {type(directive).__name__}")
        key, step = directive.step()
        if key == "add_model":
            _add_model(parser, step, namespace, infos)
        elif key == "add_model_instance":
            plant.add_model_instance(_join(parser._model_prefix(namespace), step.name))
        elif key == "add_frame":
            _add_frame(plant, step, namespace)
        elif key == "add_weld":
            _add_weld(plant, step, namespace, infos)
        elif key == "add_collision_filter_group":
            _add_collision_filter_group(parser, step, namespace)
        else:
            inner = _join(namespace, step.model_namespace or "")
            if inner and not plant.has_model_instance_named(inner):
                raise RuntimeError(f"process_model_directives: add_directives {step.file!r}: "
                                   f"namespace '{inner}' does not exist as a model instance; "
                                   f"add it first with add_model_instance")
            sub = load_model_directives(parser.package_map().resolve(step.file))
            _process(parser, sub, inner, infos)


def apply_model_directives(parser, directives) -> list:
    """Apply `directives` to ``parser.plant()`` with ``parser`` resolving the URLs (its
    package map) and parsing the files; then apply the parser's collision filter groups.
    Returns a ModelInstanceInfo per added model, in order. The public entry point is
    `merganser.multibody.parsing.parser.process_model_directives`."""
    if not isinstance(directives, ModelDirectives):
        raise TypeError(f"process_model_directives: directives must be a ModelDirectives, "
                        f"got {type(directives).__name__}")
    infos: list = []
    _process(parser, directives, "", infos)
    parser.apply_collision_filter_groups()
    return infos


def _flatten(directives, package_map, namespace, out):
    for directive in directives.directives:
        key, step = directive.step()
        if key == "add_directives":
            sub = load_model_directives(package_map.resolve(step.file))
            _flatten(sub, package_map, _join(namespace, step.model_namespace or ""), out)
            continue
        step = dataclasses.replace(step)
        if namespace and key in ("add_model", "add_model_instance"):
            step.name = _join(namespace, step.name)
        elif namespace and key == "add_weld":
            step.parent, step.child = _join(namespace, step.parent), _join(namespace, step.child)
        elif key == "add_frame":
            base = step.X_PF.base_frame or ""
            scoped = ScopedName.parse(step.name)
            scope = scoped.get_namespace() or ScopedName.parse(base).get_namespace()
            step.name = _join(namespace, _join(scope, scoped.get_element()))
            step.X_PF = dataclasses.replace(step.X_PF, base_frame=_join(namespace, base))
        elif namespace and key == "add_collision_filter_group":
            full = ScopedName.parse(_join(namespace, _join(step.model_namespace or "",
                                                           step.name)))
            step.name, step.model_namespace = full.get_element(), full.get_namespace() or None
        out.directives.append(ModelDirective(**{key: step}))


def flatten_model_directives(directives, package_map) -> ModelDirectives:
    """The same steps with every ``add_directives`` replaced by the steps of its file,
    names scoped by its namespace (Drake's FlattenModelDirectives)."""
    if not isinstance(directives, ModelDirectives):
        raise TypeError(f"flatten_model_directives: directives must be a ModelDirectives, "
                        f"got {type(directives).__name__}")
    out = ModelDirectives()
    _flatten(directives, package_map, "", out)
    return out
