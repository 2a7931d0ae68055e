"""multibody.inverse_kinematics: optimization-based inverse kinematics
(`InverseKinematics`), cyclic coordinate descent (`solve_ik_ccd`) and damped least
squares (`solve_ik_jacobian`), all returning an `InverseKinematicsResult`."""

from merganser.framework.lazy_exports import lazy_exports

__all__, __getattr__, __dir__ = lazy_exports(__name__, {
    ".ccd": ("joint_chain_to_frame", "solve_ik_ccd"),
    ".constraints": (
        "GazeTargetConstraint", "MinimumDistanceLowerBoundConstraint", "OrientationConstraint",
        "OrientationCost", "PositionConstraint", "PositionCost", "QuadraticErrorCost",
        "UnitQuaternionConstraint",
    ),
    ".inverse_kinematics": ("InverseKinematics",),
    ".jacobian_ik": ("solve_ik_jacobian",),
    ".result": ("InverseKinematicsResult",),
})
