"""Common base of the tree's elements (bodies, frames, joints, actuators, forces).

An element is created on its own, then added to exactly one ``MultibodyTree``,
which assigns its index and keeps a back-reference (``_tree``). Context-dependent
accessors (``RevoluteJoint.get_angle(ctx)``, ``RigidBody.get_mass(ctx)``, ...) go
through the tree's *state accessor*, an object that the MultibodyPlant attaches
with ``MultibodyTree.set_state_accessor``; see `StateAccessor` for the interface.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from merganser.multibody.tree.errors import TreeLifecycleError
from merganser.multibody.tree.indices import ModelInstanceIndex

__all__ = ["MultibodyElement", "StateAccessor"]


class StateAccessor(Protocol):
    """Interface the plant provides so that elements can read and write a Context.

    The MultibodyPlant implements these methods (it may simply pass itself when
    its own methods have these names) and attaches the object with
    ``tree.set_state_accessor(accessor)``. All vectors are numpy float64.
    """

    def get_positions(self, context: Any) -> np.ndarray:
        """Return the full position vector q, shape (nq,)."""

    def get_velocities(self, context: Any) -> np.ndarray:
        """Return the full velocity vector v, shape (nv,)."""

    def set_positions_slice(self, context: Any, start: int, values: np.ndarray) -> None:
        """Write ``q[start:start + len(values)] = values`` in `context`."""

    def set_velocities_slice(self, context: Any, start: int, values: np.ndarray) -> None:
        """Write ``v[start:start + len(values)] = values`` in `context`."""

    def eval_body_pose_in_world(self, context: Any, body: Any) -> Any:
        """Return X_WB, the pose of `body` in world, as a RigidTransform."""

    def eval_body_spatial_velocity_in_world(self, context: Any, body: Any) -> Any:
        """Return V_WB_W, the spatial velocity of `body`'s origin in world."""

    def get_body_mass(self, context: Any, body: Any) -> float:
        """Return the mass of `body` stored in `context`."""

    def set_body_mass(self, context: Any, body: Any, mass: float) -> None:
        """Set the mass of `body` in `context` (keeping p_BoBcm_B and G_BBo_B)."""

    def get_body_spatial_inertia(self, context: Any, body: Any) -> Any:
        """Return M_BBo_B, the spatial inertia of `body` about Bo, expressed in B."""

    def set_body_spatial_inertia(self, context: Any, body: Any, M_BBo_B: Any) -> None:
        """Set M_BBo_B of `body` in `context`."""

    def frame_pose_in_body(self, context: Any, frame: Any) -> np.ndarray:
        """Return X_BF (4, 4) of `frame` in `context`."""

    def set_frame_pose_in_parent(self, context: Any, frame: Any, X_PF: np.ndarray) -> None:
        """Set the pose X_PF (4, 4) of FixedOffsetFrame `frame` in its parent in `context`."""

    def get_frame_pose_in_parent(self, context: Any, frame: Any) -> np.ndarray:
        """Return X_PF (4, 4) of FixedOffsetFrame `frame` in `context`."""

    def set_joint_locked(self, context: Any, joint: Any, locked: bool) -> None:
        """Lock (zeroing its velocities) or unlock `joint` in `context`."""

    def is_joint_locked(self, context: Any, joint: Any) -> bool:
        """True if `joint` is locked in `context`."""

    def get_joint_damping(self, context: Any, joint: Any) -> np.ndarray:
        """Return the damping (nv of the joint,) `context` holds for `joint` (a copy)."""

    def set_joint_damping(self, context: Any, joint: Any, damping: np.ndarray) -> None:
        """Set the damping (nv of the joint,) of `joint` in `context` only."""

    def eval_element_kinematics(self, context: Any) -> tuple:
        """Return (X_WB (nb, 4, 4), V_WB_W (nb, 6), q, v), node order, of `context`."""

    def get_actuator_rotor(self, context: Any, actuator: Any) -> tuple:
        """Return (rotor inertia, gear ratio) `context` holds for `actuator`."""

    def set_actuator_rotor(self, context: Any, actuator: Any, rotor_inertia=None,
                           gear_ratio=None) -> None:
        """Set the rotor inertia and/or gear ratio of `actuator` in `context` only."""

    def get_force_element_parameters(self, context: Any, element: Any) -> np.ndarray:
        """Return the parameters `context` holds for force `element` (a copy)."""

    def set_force_element_parameters(self, context: Any, element: Any, values: Any) -> None:
        """Overwrite the parameters `context` holds for force `element`."""


class MultibodyElement:
    """Base class holding the index, model instance and owning tree of an element.

    Parameters
    ----------
    model_instance : int or None
        Model instance index, or ``None`` when it is decided when the element is
        added to a tree (e.g. joints take their child frame's instance).
    """

    #: Element kind used in messages ("body", "joint", ...); set by subclasses.
    _kind = "element"

    def __init__(self, model_instance: int | None = None):
        self._tree = None
        self._index: int | None = None
        self._model_instance = (None if model_instance is None
                                else ModelInstanceIndex(model_instance))
        self._source_location: str | None = None

    # -- identity ---------------------------------------------------------------------
    def index(self) -> int:
        """Index of this element among the tree's elements of the same kind."""
        if self._index is None:
            raise TreeLifecycleError(
                f"{type(self).__name__}.index(): {self._kind} {self._describe()} has not been "
                f"added to a MultibodyTree/MultibodyPlant yet"
            )
        return self._index

    def model_instance(self) -> int:
        """Index of the model instance this element belongs to."""
        if self._model_instance is None:
            raise TreeLifecycleError(
                f"{type(self).__name__}.model_instance(): {self._kind} {self._describe()} "
                f"gets its model instance when it is added to a MultibodyTree"
            )
        return self._model_instance

    def source_location(self) -> str | None:
        """``"file:line"`` of the model-file element this element was parsed from (or
        None); finalize-time errors about the element name it."""
        return self._source_location

    def set_source_location(self, location: str | None) -> None:
        """Record where this element was defined (`source_location`); set by the parser."""
        self._source_location = None if location is None else str(location)

    def has_parent_tree(self) -> bool:
        """True once the element was added to a tree."""
        return self._tree is not None

    def is_ephemeral(self) -> bool:
        """True for an element the plant added itself at finalize (Drake's is_ephemeral);
        False here, joints override it."""
        return False

    def get_parent_plant(self):
        """The MultibodyPlant this element was added to (Drake's GetParentPlant).

        Raises
        ------
        TreeLifecycleError
            If the element is not in a plant.
        """
        tree = self._require_tree("get_parent_plant")
        plant = getattr(tree._state_accessor, "_plant", None)     # (PlantStateAccessor)
        if plant is None:
            raise TreeLifecycleError(
                f"{type(self).__name__}.get_parent_plant(): {self._kind} {self._describe()} "
                f"is in a MultibodyTree that no MultibodyPlant owns"
            )
        return plant

    #: Class name shown by ``repr`` (Drake's: a body's frame prints as RigidBodyFrame).
    _repr_name = None

    def __repr__(self) -> str:
        """Drake's form: ``<RevoluteJoint name='elbow' index=0 model_instance=2>`` (no
        ``name=`` for unnamed elements, no index before the element is in a tree)."""
        parts = [self._repr_name or type(self).__name__]
        name = getattr(self, "_name", None)
        if name is not None:
            parts.append(f"name={name!r}")
        if self._index is not None:
            parts.append(f"index={int(self._index)}")
        try:
            parts.append(f"model_instance={int(self.model_instance())}")
        except TreeLifecycleError:
            pass
        return "<" + " ".join(parts) + ">"

    def _describe(self) -> str:
        name = getattr(self, "_name", None)
        return repr(name) if name is not None else "(unnamed)"

    # -- lifecycle guards -------------------------------------------------------------
    def _require_tree(self, func: str):
        if self._tree is None:
            raise TreeLifecycleError(
                f"{type(self).__name__}.{func}(): {self._kind} {self._describe()} has not been "
                f"added to a MultibodyTree/MultibodyPlant"
            )
        return self._tree

    def _require_finalized(self, func: str):
        tree = self._require_tree(func)
        if not tree.is_finalized():
            raise TreeLifecycleError(
                f"{type(self).__name__}.{func}() requires finalize(); call finalize() on the "
                f"plant first ({self._kind} {self._describe()})"
            )
        return tree

    def _require_not_finalized(self, func: str):
        tree = self._tree
        if tree is not None and tree.is_finalized():
            raise TreeLifecycleError(
                f"{type(self).__name__}.{func}() after finalize() is not allowed; call it "
                f"before finalize() ({self._kind} {self._describe()})"
            )

    def _state(self, func: str) -> StateAccessor:
        """Return the plant's state accessor, or raise if no plant is attached."""
        tree = self._require_finalized(func)
        accessor = tree.state_accessor()
        if accessor is None:
            raise NotImplementedError(
                f"{type(self).__name__}.{func}(context) needs a MultibodyPlant: the "
                f"MultibodyTree owning {self._kind} {self._describe()} has no state accessor "
                f"attached (MultibodyTree.set_state_accessor)"
            )
        return accessor
