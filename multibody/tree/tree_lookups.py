"""Name and index lookups of a MultibodyTree (a mixin of `MultibodyTree`).

Names are unique per model instance for each kind of element (body, frame, joint,
actuator); a lookup without a model instance must be unambiguous. Failed lookups list
the valid names (truncated when long).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from merganser.multibody.tree.errors import ElementLookupError, list_names

if TYPE_CHECKING:
    from merganser.multibody.tree.frames import Frame
    from merganser.multibody.tree.joint_actuator import JointActuator
    from merganser.multibody.tree.joints import Joint
    from merganser.multibody.tree.rigid_body import RigidBody

__all__ = ["TreeLookupsMixin", "is_index"]


def is_index(x) -> bool:
    """True for a Python or numpy integer (not a bool)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


class TreeLookupsMixin:
    """Lookups by name and index; uses the tree's ``_by_name`` map and element lists."""

    _KIND_ITEMS = (
        ("body", "_bodies"),
        ("frame", "_frames"),
        ("joint", "_joints"),
        ("actuator", "_actuators"),
    )

    def _check_unique(self, kind: str, name: str, model_instance: int, func: str) -> None:
        for element in self._by_name[kind].get(name, ()):
            if element.model_instance() == model_instance:
                raise ValueError(
                    f"{func}: model instance {self.get_model_instance_name(model_instance)!r} "
                    f"already contains a {kind} named {name!r}; {kind} names must be unique "
                    f"within a model instance"
                )

    def _lookup(self, kind: str, name: str, model_instance, func: str, raise_if_missing=True):
        candidates = self._by_name[kind].get(name, [])
        if model_instance is not None:
            mi = self._check_instance(model_instance, func)
            candidates = [e for e in candidates if e.model_instance() == mi]
        if len(candidates) == 1:
            return candidates[0]
        if not raise_if_missing:
            return candidates[0] if candidates else None
        if len(candidates) > 1:
            instances = [self.get_model_instance_name(e.model_instance()) for e in candidates]
            raise ElementLookupError(
                f"{func}: there are {len(candidates)} {_plural(kind)} named {name!r}, in model instances "
                f"{list_names(instances)}; pass model_instance to choose one"
            )
        items = getattr(self, dict(self._KIND_ITEMS)[kind])
        if model_instance is None:
            where, valid = "", [e.name() for e in items]
        else:
            where = f" in model instance {self.get_model_instance_name(model_instance)!r}"
            valid = [e.name() for e in items if e.model_instance() == model_instance]
        raise ElementLookupError(
            f"{func}: there is no {kind} named {name!r}{where}; valid {kind} names are: "
            f"{list_names(valid)}"
        )

    def get_body_by_name(self, name: str, model_instance: int | None = None) -> RigidBody:
        """The body named `name` (in `model_instance`, required if the name is ambiguous)."""
        return self._lookup("body", name, model_instance, "get_body_by_name")

    def num_bodies_with_name(self, name: str) -> int:
        """How many bodies (over all model instances) are named `name`."""
        return len(self._by_name["body"].get(name, ()))

    def get_rigid_body_by_name(self, name: str, model_instance: int | None = None) -> RigidBody:
        """The body named `name`, as `get_body_by_name` (pydrake's ``GetRigidBodyByName``)."""
        return self._lookup("body", name, model_instance, "get_rigid_body_by_name")

    def get_frame_by_name(self, name: str, model_instance: int | None = None) -> Frame:
        """The frame named `name` (body frames have their body's name)."""
        return self._lookup("frame", name, model_instance, "get_frame_by_name")

    def get_joint_by_name(self, name: str, model_instance: int | None = None) -> Joint:
        """The joint named `name`."""
        return self._lookup("joint", name, model_instance, "get_joint_by_name")

    def get_joint_actuator_by_name(
        self, name: str, model_instance: int | None = None
    ) -> JointActuator:
        """The actuator named `name`."""
        return self._lookup("actuator", name, model_instance, "get_joint_actuator_by_name")

    def _has_named(self, kind, name, model_instance, func) -> bool:
        if model_instance is not None:
            mi = self._check_instance(model_instance, func)
            return any(e.model_instance() == mi for e in self._by_name[kind].get(name, ()))
        return bool(self._by_name[kind].get(name))

    def has_body_named(self, name: str, model_instance: int | None = None) -> bool:
        """True if a body named `name` exists (in `model_instance`, if given)."""
        return self._has_named("body", name, model_instance, "has_body_named")

    def has_frame_named(self, name: str, model_instance: int | None = None) -> bool:
        """True if a frame named `name` exists (in `model_instance`, if given)."""
        return self._has_named("frame", name, model_instance, "has_frame_named")

    def has_joint_named(self, name: str, model_instance: int | None = None) -> bool:
        """True if a joint named `name` exists (in `model_instance`, if given)."""
        return self._has_named("joint", name, model_instance, "has_joint_named")

    def has_joint_actuator_named(self, name: str, model_instance: int | None = None) -> bool:
        """True if an actuator named `name` exists (in `model_instance`, if given)."""
        return self._has_named("actuator", name, model_instance, "has_joint_actuator_named")

    def _get_indexed(self, items, index, func, what):
        if not is_index(index) or not 0 <= index < len(items):
            raise ElementLookupError(
                f"{func}: index {index!r} is out of range; there are {len(items)} {what} "
                f"(valid indices 0..{len(items) - 1})"
            )
        return items[int(index)]

    def _check_element(self, element, items, func, arg) -> None:
        index = getattr(element, "_index", None)
        if index is None or index >= len(items) or items[index] is not element:
            name = element.name() if hasattr(element, "name") else repr(element)
            raise ElementLookupError(f"{func}: {arg} {name!r} does not belong to this plant")


def _plural(kind):
    """English plural of an element kind ("body" -> "bodies")."""
    if kind.endswith("y"):
        return kind[:-1] + "ies"
    return kind + "s"
