"""multibody.inverse_kinematics: optimization-based inverse kinematics
(`InverseKinematics`), cyclic coordinate descent (`solve_ik_ccd`) and damped least
squares (`solve_ik_jacobian`), all returning an `InverseKinematicsResult`."""

from merganser.multibody.inverse_kinematics.ccd import joint_chain_to_frame, solve_ik_ccd
from merganser.multibody.inverse_kinematics.constraints import (
    GazeTargetConstraint,
    MinimumDistanceLowerBoundConstraint,
    OrientationConstraint,
    OrientationCost,
    PositionConstraint,
    PositionCost,
    QuadraticErrorCost,
    UnitQuaternionConstraint,
)
from merganser.multibody.inverse_kinematics.inverse_kinematics import InverseKinematics
from merganser.multibody.inverse_kinematics.jacobian_ik import solve_ik_jacobian
from merganser.multibody.inverse_kinematics.result import InverseKinematicsResult

__all__ = [
    "GazeTargetConstraint",
    "InverseKinematics",
    "InverseKinematicsResult",
    "MinimumDistanceLowerBoundConstraint",
    "OrientationConstraint",
    "OrientationCost",
    "PositionConstraint",
    "PositionCost",
    "QuadraticErrorCost",
    "UnitQuaternionConstraint",
    "joint_chain_to_frame",
    "solve_ik_ccd",
    "solve_ik_jacobian",
]
