"""Removing joints and joint actuators before finalize (a mixin of `MultibodyTree`;
Drake's RemoveJoint and RemoveJointActuator).

Indices are never reused: a removed element leaves a hole in ``_joint_slots`` /
``_actuator_slots`` (the by-index tables), while ``_joints`` / ``_actuators`` list the
live elements in index order. So `num_joints()` counts the live joints, `get_joint()` of
a removed index raises, `has_joint()` is False for it, and an element added later gets
the next unused index. A removed element's name can be used again. An actuator's input
in u is its position among the live actuators (Drake's input_start after removal).
"""

from __future__ import annotations

from merganser.multibody.tree.errors import ElementLookupError
from merganser.multibody.tree.tree_lookups import is_index

__all__ = ["ElementRemovalError", "TreeRemovalMixin"]


class ElementRemovalError(RuntimeError, ValueError):
    """A removal that Drake refuses (std::logic_error there, hence a RuntimeError)."""


class TreeRemovalMixin:
    """``remove_joint`` and ``remove_joint_actuator``; the tree keeps ``_joint_slots`` and
    ``_actuator_slots`` (None where an element was removed)."""

    def remove_joint(self, joint) -> None:
        """Remove `joint` (before finalize). As Drake, refused while the plant has
        user-added force elements (besides gravity) or constraints, or while an actuator
        acts on the joint (remove it first with `remove_joint_actuator`)."""
        func = "remove_joint"
        self._throw_if_finalized(func, "joint removals")
        self._check_element(joint, self._joint_slots, func, "joint")
        index = joint.index()
        if len(self._force_elements) > 1:
            raise ElementRemovalError(
                f"{func}: the plant has {len(self._force_elements) - 1} user-added force "
                f"element(s); it must have none to remove joint {joint.name()!r} (index {index})")
        if self.num_constraints():
            raise ElementRemovalError(
                f"{func}: the plant has {self.num_constraints()} user-added constraint(s); it "
                f"must have none to remove joint {joint.name()!r} (index {index})")
        dependents = [f"JointActuator(name: {a.name()}, index: {a.index()})"
                      for a in self._actuators if a.joint() is joint]
        if dependents:
            raise ElementRemovalError(
                f"{func}: joint {joint.name()!r} (index {index}) has dependent elements that must "
                f"be removed first (remove_joint_actuator): [{', '.join(dependents)}]")
        self._joint_slots[index] = None
        self._joints.remove(joint)
        self._model_instances[joint.model_instance()].joint_indices.remove(index)
        self._by_name["joint"][joint.name()].remove(joint)
        parent, child = joint.parent_body().index(), joint.child_body().index()
        self._joint_between.pop((min(parent, child), max(parent, child)), None)
        joint._tree, joint._index = None, None

    def remove_joint_actuator(self, actuator) -> None:
        """Remove `actuator` (before finalize); the actuators after it move down one
        place in u."""
        func = "remove_joint_actuator"
        self._throw_if_finalized(func, "joint actuator removals")
        self._check_element(actuator, self._actuator_slots, func, "actuator")
        index = actuator.index()
        self._actuator_slots[index] = None
        self._actuators.remove(actuator)
        self._model_instances[actuator.model_instance()].actuator_indices.remove(index)
        self._by_name["actuator"][actuator.name()].remove(actuator)
        actuator._tree, actuator._index = None, None

    def has_joint(self, joint_index) -> bool:
        """True if `joint_index` (JointIndex or int) is the index of a joint of this plant
        (False for a removed one)."""
        return _has_slot(self._joint_slots, joint_index)

    def has_joint_actuator(self, actuator_index) -> bool:
        """True if `actuator_index` (JointActuatorIndex or int) is the index of an actuator
        of this plant (False for a removed one)."""
        return _has_slot(self._actuator_slots, actuator_index)

    def _live_slot(self, slots, index, func, what):
        """``slots[index]``, raising (ElementLookupError) for a bad or removed index."""
        if is_index(index) and 0 <= index < len(slots) and slots[index] is not None:
            return slots[index]
        live = [i for i, e in enumerate(slots) if e is not None]
        if is_index(index) and 0 <= index < len(slots):
            raise ElementLookupError(f"{func}: the {what[:-1]} with index {int(index)} was "
                                     f"removed; valid indices: {live}")
        raise ElementLookupError(f"{func}: index {index!r} is out of range; there are "
                                 f"{len(live)} {what} (valid indices: {live})")


def _has_slot(slots, index):
    return is_index(index) and 0 <= index < len(slots) and slots[index] is not None
