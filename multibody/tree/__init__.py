"""multibody.tree: the user-facing multibody elements and their compilation.

Bodies, frames, joints, actuators, force elements and constraint specs are registered in
a `MultibodyTree`, whose ``finalize()`` compiles them into the flat `CompiledModel`
read by the kernels (``docs/compiled_model.md``).
"""

from merganser.multibody.tree.compiled_model import JOINT_NQ, JOINT_NV, CompiledModel, JointType
from merganser.multibody.tree.constraints import (
    BallConstraintSpec,
    CouplerConstraintSpec,
    DistanceConstraintParams,
    DistanceConstraintSpec,
    WeldConstraintSpec,
)
from merganser.multibody.tree.element import MultibodyElement, StateAccessor
from merganser.multibody.tree.errors import (
    DuplicateElementError, ElementLookupError, TopologyError, TreeLifecycleError,
)
from merganser.multibody.tree.force_elements import (
    ForceElement,
    LinearBushingRollPitchYaw,
    LinearSpringDamper,
    PrismaticSpring,
    RevoluteSpring,
    UniformGravityFieldElement,
)
from merganser.multibody.tree.frames import BodyFrame, FixedOffsetFrame, Frame
from merganser.multibody.tree.geometry_spatial_inertia import calc_spatial_inertia
from merganser.multibody.tree.indices import *  # noqa: F401,F403
from merganser.multibody.tree.indices import __all__ as _indices_all
from merganser.multibody.tree.joint_actuator import JointActuator
from merganser.multibody.tree.joints import (
    BallQuaternionJoint,
    BallRpyJoint,
    Joint,
    PlanarJoint,
    PrismaticJoint,
    QuaternionFloatingJoint,
    RevoluteJoint,
    RpyFloatingJoint,
    ScrewJoint,
    UniversalJoint,
    WeldJoint,
)
from merganser.multibody.tree.model_instance import DEFAULT_MODEL_INSTANCE, WORLD_MODEL_INSTANCE
from merganser.multibody.tree.multibody_tree import MultibodyTree
from merganser.multibody.tree.rigid_body import RigidBody
from merganser.multibody.tree.scoped_name import ScopedName

__all__ = _indices_all + [
    "DEFAULT_MODEL_INSTANCE",
    "JOINT_NQ",
    "JOINT_NV",
    "WORLD_MODEL_INSTANCE",
    "BallConstraintSpec",
    "BallQuaternionJoint",
    "BallRpyJoint",
    "BodyFrame",
    "CompiledModel",
    "CouplerConstraintSpec",
    "DistanceConstraintParams",
    "DistanceConstraintSpec",
    "DuplicateElementError",
    "ElementLookupError",
    "FixedOffsetFrame",
    "ForceElement",
    "Frame",
    "Joint",
    "JointActuator",
    "JointType",
    "LinearBushingRollPitchYaw",
    "LinearSpringDamper",
    "MultibodyElement",
    "MultibodyTree",
    "PlanarJoint",
    "PrismaticJoint",
    "PrismaticSpring",
    "QuaternionFloatingJoint",
    "RevoluteJoint",
    "RevoluteSpring",
    "RigidBody",
    "RpyFloatingJoint",
    "ScopedName",
    "ScrewJoint",
    "StateAccessor",
    "TopologyError",
    "TreeLifecycleError",
    "UniformGravityFieldElement",
    "UniversalJoint",
    "WeldConstraintSpec",
    "WeldJoint",
    "calc_spatial_inertia",
]
