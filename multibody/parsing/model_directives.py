"""Model directives: a YAML list of steps that assemble a scene (Drake's ``.dmd.yaml``).

::

    directives:
    - add_model: {name: arm, file: "package://my_robots/arm.urdf",
                  default_joint_positions: {shoulder: [0.3]}}
    - add_weld: {parent: world, child: "arm::base_link"}
    - add_frame:
        name: arm::tool
        X_PF: {base_frame: "arm::link7", translation: [0, 0, 0.1],
               rotation: !Rpy {deg: [0, 0, 90]}}
    - add_model_instance: {name: left}
    - add_directives: {file: "package://my_robots/gripper.dmd.yaml", model_namespace: left}

The dataclasses mirror Drake's structs (one field per YAML key); `load_model_directives`
and `load_model_directives_from_string` read them, ``process_model_directives`` applies
them to a plant. Frame and body names are scoped (``model::element``, see `ScopedName`).
Unknown keys raise ValueError naming the key, the valid ones and the file.
"""

from __future__ import annotations

import dataclasses
import os

import numpy as np

from merganser.geometry import RigidTransform, RollPitchYaw, RotationMatrix

__all__ = [
    "AddCollisionFilterGroup",
    "AddDirectives",
    "AddFrame",
    "AddModel",
    "AddModelInstance",
    "AddWeld",
    "ModelDirective",
    "ModelDirectives",
    "Rotation",
    "Rpy",
    "Transform",
    "load_model_directives",
    "load_model_directives_from_string",
]


@dataclasses.dataclass
class Rpy:
    """A rotation by roll-pitch-yaw angles in degrees (YAML tag ``!Rpy``)."""

    deg: list = dataclasses.field(default_factory=lambda: [0.0, 0.0, 0.0])

    def to_rotation_matrix(self) -> RotationMatrix:
        """The rotation, R = Rz(yaw) Ry(pitch) Rx(roll)."""
        return RollPitchYaw(*np.radians(np.asarray(self.deg, dtype=float))).to_rotation_matrix()


@dataclasses.dataclass
class AngleAxis:
    """A rotation by ``angle_deg`` about the unit vector ``axis`` (YAML tag ``!AngleAxis``).

    Reached as ``Rotation.AngleAxis`` (Drake's ``schema::Rotation::AngleAxis``): it is not
    exported under its bare name, which is the geometry's `AngleAxis` (radians, Eigen's).
    """

    angle_deg: float = 0.0
    axis: list = dataclasses.field(default_factory=lambda: [0.0, 0.0, 1.0])

    def to_rotation_matrix(self) -> RotationMatrix:
        """The rotation (the axis is normalized)."""
        k = np.asarray(self.axis, dtype=float)
        norm = np.linalg.norm(k)
        if not norm > 0.0:
            raise ValueError(f"AngleAxis: axis must be non-zero, got {self.axis!r}")
        return RotationMatrix.make_from_angle_axis(np.radians(float(self.angle_deg)), k / norm)


class Rotation:
    """The rotations a directive's `Transform` takes (Drake's ``schema::Rotation``):
    ``Rotation.Rpy(deg=[r, p, y])`` and ``Rotation.AngleAxis(angle_deg=, axis=)``."""

    Rpy = Rpy
    AngleAxis = AngleAxis

    def __init__(self):
        raise TypeError("Rotation: a namespace of rotation schemas; make a Rotation.Rpy or "
                        "a Rotation.AngleAxis")


@dataclasses.dataclass
class Transform:
    """A pose relative to the frame ``base_frame`` (Drake's ``schema::Transform``).

    Attributes
    ----------
    base_frame : str or None
        Scoped name of the frame the pose is measured in.
    translation : list of 3 floats
    rotation : Rpy, AngleAxis or None
        None: no rotation.
    """

    base_frame: str | None = None
    translation: list = dataclasses.field(default_factory=lambda: [0.0, 0.0, 0.0])
    rotation: Rpy | AngleAxis | None = None

    def get_deterministic_value(self) -> RigidTransform:
        """The pose as a RigidTransform."""
        p = np.asarray(self.translation, dtype=float)
        if p.shape != (3,):
            raise ValueError(f"Transform: translation must have 3 entries, got "
                             f"{self.translation!r}")
        R = RotationMatrix() if self.rotation is None else self.rotation.to_rotation_matrix()
        return RigidTransform(R, p)


@dataclasses.dataclass
class AddModel:
    """Add the model(s) of `file` (a URL); a single model is named `name`."""

    file: str = ""
    name: str = ""
    default_joint_positions: dict = dataclasses.field(default_factory=dict)
    default_free_body_pose: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class AddModelInstance:
    """Add an empty model instance `name` (a namespace for later directives)."""

    name: str = ""


@dataclasses.dataclass
class AddFrame:
    """Add a FixedOffsetFrame `name` at ``X_PF`` in ``X_PF.base_frame``."""

    name: str = ""
    X_PF: Transform = dataclasses.field(default_factory=Transform)


@dataclasses.dataclass
class AddWeld:
    """Weld frame `child` to frame `parent` at ``X_PC`` (identity if None)."""

    parent: str = ""
    child: str = ""
    X_PC: Transform | None = None


@dataclasses.dataclass
class AddCollisionFilterGroup:
    """A collision filter group of bodies (and other groups), and the groups it ignores."""

    name: str = ""
    members: list = dataclasses.field(default_factory=list)
    member_groups: list = dataclasses.field(default_factory=list)
    model_namespace: str | None = None
    ignored_collision_filter_groups: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class AddDirectives:
    """Apply the directives of `file` (a URL), their names prefixed by `model_namespace`."""

    file: str = ""
    model_namespace: str | None = None


_STEP_TYPES = {"add_model": AddModel, "add_model_instance": AddModelInstance,
               "add_frame": AddFrame, "add_weld": AddWeld,
               "add_collision_filter_group": AddCollisionFilterGroup,
               "add_directives": AddDirectives}


@dataclasses.dataclass
class ModelDirective:
    """One step: exactly one of the fields is set."""

    add_model: AddModel | None = None
    add_model_instance: AddModelInstance | None = None
    add_frame: AddFrame | None = None
    add_weld: AddWeld | None = None
    add_collision_filter_group: AddCollisionFilterGroup | None = None
    add_directives: AddDirectives | None = None

    def is_valid(self) -> bool:
        """True if exactly one step is set."""
        return sum(getattr(self, k) is not None for k in _STEP_TYPES) == 1

    def step(self):
        """``(key, value)`` of the step that is set (ValueError unless exactly one)."""
        set_steps = [(k, getattr(self, k)) for k in _STEP_TYPES if getattr(self, k) is not None]
        if len(set_steps) != 1:
            raise ValueError(f"ModelDirective: exactly one of {list(_STEP_TYPES)} must be set, "
                             f"got {[k for k, _ in set_steps] or 'none'}")
        return set_steps[0]


@dataclasses.dataclass
class ModelDirectives:
    """The list of steps of a ``.dmd.yaml`` file."""

    directives: list = dataclasses.field(default_factory=list)


# ---------------------------------------------------------------------- YAML reading
def _yaml_loader():
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def tagged(loader, suffix, node):
        value = loader.construct_mapping(node, deep=True) \
            if isinstance(node, yaml.MappingNode) else {}
        return {"_tag": suffix, **value}

    Loader.add_multi_constructor("!", tagged)
    return Loader


def _fields(cls, data, where):
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a mapping for {cls.__name__}, got {data!r}")
    valid = [f.name for f in dataclasses.fields(cls)]
    unknown = [k for k in data if k not in valid and k != "_tag"]
    if unknown:
        raise ValueError(f"{where}: {cls.__name__} has no key(s) {unknown}; valid keys: "
                         f"{valid}")
    return {k: v for k, v in data.items() if k != "_tag"}


def _rotation(data, where):
    if data is None:
        return None
    tag = data.get("_tag") if isinstance(data, dict) else None
    if tag == "AngleAxis" or (tag is None and isinstance(data, dict) and "angle_deg" in data):
        return AngleAxis(**_fields(AngleAxis, data, where))
    if tag in ("Rpy", None):
        return Rpy(**_fields(Rpy, data, where))
    raise ValueError(f"{where}: rotation tag !{tag} is not supported; use !Rpy or !AngleAxis")


def _transform(data, where):
    if data is None:
        return None
    values = _fields(Transform, data, where)
    values["rotation"] = _rotation(values.get("rotation"), where)
    return Transform(**values)


def _directive(data, where):
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError(f"{where}: each directive must be a mapping with one of "
                         f"{list(_STEP_TYPES)}, got {data!r}")
    (key, value), = data.items()
    cls = _STEP_TYPES.get(key)
    if cls is None:
        raise ValueError(f"{where}: unknown directive {key!r}; valid: {list(_STEP_TYPES)}")
    values = _fields(cls, value or {}, f"{where}: {key}")
    if cls is AddFrame:
        values["X_PF"] = _transform(values.get("X_PF") or {}, f"{where}: add_frame.X_PF")
    elif cls is AddWeld:
        values["X_PC"] = _transform(values.get("X_PC"), f"{where}: add_weld.X_PC")
    elif cls is AddModel:
        values["default_joint_positions"] = {
            k: np.atleast_1d(np.asarray(v, dtype=float))
            for k, v in (values.get("default_joint_positions") or {}).items()}
        values["default_free_body_pose"] = {
            k: _transform(v, f"{where}: add_model.default_free_body_pose[{k!r}]")
            for k, v in (values.get("default_free_body_pose") or {}).items()}
    return ModelDirective(**{key: cls(**values)})


def _parse(text: str, where: str) -> ModelDirectives:
    import yaml

    try:
        data = yaml.load(text, Loader=_yaml_loader())
    except yaml.YAMLError as err:
        raise ValueError(f"{where}: malformed YAML: {err}") from None
    values = _fields(ModelDirectives, data if data is not None else {}, where)
    steps = values.get("directives") or []
    if not isinstance(steps, list):
        raise ValueError(f"{where}: 'directives' must be a list, got {steps!r}")
    return ModelDirectives([_directive(step, f"{where}: directive {i}")
                            for i, step in enumerate(steps)])


def load_model_directives(filename) -> ModelDirectives:
    """Read a ``.dmd.yaml`` file (a path or str).

    Raises
    ------
    ValueError
        Naming the file, for malformed YAML, unknown keys or directives.
    OSError
        If the file cannot be read.
    """
    path = os.fspath(filename)
    with open(path, encoding="utf-8") as f:
        return _parse(f.read(), path)


def load_model_directives_from_string(model_directives: str) -> ModelDirectives:
    """Read model directives from YAML text (as `load_model_directives`)."""
    if not isinstance(model_directives, str):
        raise TypeError(f"load_model_directives_from_string: model_directives must be a str, "
                        f"got {type(model_directives).__name__}")
    return _parse(model_directives, "<string>")
