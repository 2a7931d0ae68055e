"""Model instances: named groups of bodies, frames, joints and actuators.

As in Drake, a model instance is identified by an integer index. Index 0 is the
world model instance (it holds only the world body and world frame), index 1 is the
default model instance (elements added without an instance), and every call to
``MultibodyTree.add_model_instance(name)`` returns the next index, 2, 3, ... Each
parsed model gets its own instance.
"""

from __future__ import annotations

from merganser.multibody.tree.choice_enum import ChoiceEnum
from merganser.multibody.tree.indices import ModelInstanceIndex

__all__ = [
    "BASE_BODY_JOINT_TYPES",
    "BaseBodyJointType",
    "DEFAULT_MODEL_INSTANCE",
    "DEFAULT_MODEL_INSTANCE_NAME",
    "WORLD_MODEL_INSTANCE",
    "WORLD_MODEL_INSTANCE_NAME",
    "ModelInstance",
]

#: Index of the world model instance (Drake's ``world_model_instance()``).
WORLD_MODEL_INSTANCE = ModelInstanceIndex(0)
#: Index of the default model instance (Drake's ``default_model_instance()``).
DEFAULT_MODEL_INSTANCE = ModelInstanceIndex(1)
#: Drake's name for model instance 0.
WORLD_MODEL_INSTANCE_NAME = "WorldModelInstance"
#: Drake's name for model instance 1.
DEFAULT_MODEL_INSTANCE_NAME = "DefaultModelInstance"

class BaseBodyJointType(ChoiceEnum):
    """The joint that ``finalize()`` gives a body with no inboard joint (Drake's
    BaseBodyJointType); chosen with ``set_base_body_joint_type``.

    Attributes
    ----------
    kQuaternionFloatingJoint : "quaternion_floating"
        Six degrees of freedom, q = [qw qx qy qz x y z] (default).
    kRpyFloatingJoint : "rpy_floating"
        Six degrees of freedom, q = [roll pitch yaw x y z].
    kWeldJoint : "weld"
        Welded to the world at its default pose.
    """

    kQuaternionFloatingJoint = "quaternion_floating"
    kRpyFloatingJoint = "rpy_floating"
    kWeldJoint = "weld"


#: Joint types accepted by ``set_base_body_joint_type`` for bodies that have no
#: inboard joint at ``finalize()``.
BASE_BODY_JOINT_TYPES = BaseBodyJointType.names()


class ModelInstance:
    """Bookkeeping record of one model instance (internal to the tree).

    Parameters
    ----------
    index : int
        The model instance index.
    name : str
        Its unique name.

    Attributes
    ----------
    base_body_joint_type : str or None
        Joint type used at ``finalize()`` to mobilize this instance's free bodies,
        one of `BASE_BODY_JOINT_TYPES`; ``None`` means "use the tree's global
        choice" (``"quaternion_floating"`` unless changed).
    body_indices, frame_indices, joint_indices, actuator_indices : list of int
        Indices of the instance's elements, in the order they were added.
    """

    def __init__(self, index: int, name: str):
        self.index = int(index)
        self.name = str(name)
        self.base_body_joint_type: str | None = None
        self.body_indices: list[int] = []
        self.frame_indices: list[int] = []
        self.joint_indices: list[int] = []
        self.actuator_indices: list[int] = []

    def __repr__(self) -> str:
        return f"ModelInstance(index={self.index}, name={self.name!r})"
