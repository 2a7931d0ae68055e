"""solve_ik_ccd: cyclic coordinate descent inverse kinematics for a point on a serial chain.

One sweep visits the joints from the tip back to the base. Each revolute joint is turned
by the angle, about its axis, between the directions from the joint to the effector point
and from the joint to the target (both projected on the plane normal to the axis); each
prismatic joint slides by the target offset along its axis. The new coordinate is
clamped to the joint's limits before the next joint is visited. Sweeps repeat until the
effector is within the tolerance or the iteration limit is hit; a target out of reach
leaves the arm stretched toward it, with ``success`` False.

References
----------
L.-C. T. Wang and C. C. Chen, "A combined optimization method for solving the inverse
kinematics problem of mechanical manipulators", IEEE Trans. Robotics and Automation
7(4), 1991.
"""

import numpy as np

from merganser.multibody.inverse_kinematics._arguments import (
    as_vector,
    check_frame,
    check_plant,
    check_positive,
    working_context,
)
from merganser.multibody.inverse_kinematics.result import InverseKinematicsResult
from merganser.multibody.tree import PrismaticJoint, RevoluteJoint, WeldJoint

__all__ = ["solve_ik_ccd", "joint_chain_to_frame"]


def joint_chain_to_frame(plant, frame):
    """The joints from the world to `frame`'s body, base first (welds excluded).

    Raises
    ------
    ValueError
        If a joint on the chain is neither revolute, prismatic nor weld (CCD moves one
        scalar coordinate at a time), or if the body is not connected to the world.
    """
    fn = "solve_ik_ccd"
    inboard = {}
    for i in plant.get_joint_indices():
        joint = plant.get_joint(i)
        inboard[joint.child_body().index()] = joint
    chain = []
    body = frame.body()
    while not body.is_world():
        joint = inboard.get(body.index())
        if joint is None:
            raise ValueError(f"{fn}: body {body.name()!r} has no inboard joint")
        if isinstance(joint, (RevoluteJoint, PrismaticJoint)):
            chain.append(joint)
        elif not isinstance(joint, WeldJoint):
            raise ValueError(
                f"{fn}: joint {joint.name()!r} on the chain to frame {frame.name()!r} is a "
                f"{type(joint).__name__}; CCD handles RevoluteJoint, PrismaticJoint and "
                f"WeldJoint only (use solve_ik_jacobian or InverseKinematics)")
        body = joint.parent_body()
    return chain[::-1]


def _ccd_angle(axis_W, p_WJ, p_WE, p_WT):
    """Rotation about axis_W (unit, through p_WJ) taking the direction J->E toward J->T."""
    r_e = p_WE - p_WJ
    r_t = p_WT - p_WJ
    u = r_e - (r_e @ axis_W) * axis_W
    w = r_t - (r_t @ axis_W) * axis_W
    if u @ u < 1e-24 or w @ w < 1e-24:
        return 0.0          # effector or target on the axis: this joint cannot help
    return float(np.arctan2(axis_W @ np.cross(u, w), u @ w))


def solve_ik_ccd(plant, frame_E, p_WQ_target, *, p_EQ=(0.0, 0.0, 0.0), context=None,
                 q_initial=None, tolerance=1e-4, max_iterations=500, with_joint_limits=True):
    """Move point Q fixed to frame E to a world position by cyclic coordinate descent.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant; the chain from the world to frame E's body may contain
        revolute, prismatic and weld joints.
    frame_E : Frame
        End-effector frame.
    p_WQ_target : array_like, shape (3,)
        Target position of Q, in the world frame (m).
    p_EQ : array_like, shape (3,)
        Position of the effector point Q in frame E (m).
    context : Context, optional
        Supplies q_initial (its positions) and parameters; not modified.
    q_initial : array_like, shape (nq,), optional
        Start configuration (clamped to the limits); coordinates not on the chain are
        kept.
    tolerance : float
        Success when |p_WQ - p_WQ_target| <= tolerance (m).
    max_iterations : int
        Largest number of sweeps.
    with_joint_limits : bool
        Clamp each joint to its position limits.

    Returns
    -------
    InverseKinematicsResult
        ``q``; ``success`` (target within tolerance); ``position_error`` (m);
        ``num_iterations`` (sweeps); ``message``. When a sweep no longer moves any
        joint (the arm is stretched toward an unreachable target or blocked by its
        limits) the solve stops early with ``success`` False.
    """
    fn = "solve_ik_ccd"
    check_plant(fn, plant)
    check_frame(fn, "frame_E", frame_E)
    p_WT = as_vector(fn, "p_WQ_target", p_WQ_target, 3)
    p_EQ = as_vector(fn, "p_EQ", p_EQ, 3).reshape(3, 1)
    tol = check_positive(fn, "tolerance", tolerance)
    sweeps = int(check_positive(fn, "max_iterations", max_iterations, integer=True))
    ctx, q = working_context(fn, plant, context, q_initial)
    chain = joint_chain_to_frame(plant, frame_E)
    if with_joint_limits:
        lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    else:
        lower, upper = np.full(len(q), -np.inf), np.full(len(q), np.inf)
    q = np.clip(q, lower, upper)
    world = plant.world_frame()

    def effector():
        plant.set_positions(ctx, q)
        return plant.calc_points_positions(ctx, frame_E, p_EQ, world)[:, 0]

    p_WQ = effector()
    error = float(np.linalg.norm(p_WQ - p_WT))
    sweep, stalled = 0, False
    while error > tol and sweep < sweeps and not stalled:
        sweep += 1
        largest_step = 0.0
        for joint in reversed(chain):
            X_WF = plant.calc_relative_transform(ctx, world, joint.frame_on_parent())
            R_WF, p_WF = X_WF.rotation().matrix(), X_WF.translation()
            i = joint.position_start()
            if isinstance(joint, RevoluteJoint):
                step = _ccd_angle(R_WF @ joint.revolute_axis(), p_WF, p_WQ, p_WT)
            else:
                step = float((R_WF @ joint.translation_axis()) @ (p_WT - p_WQ))
            new = min(upper[i], max(lower[i], q[i] + step))
            largest_step = max(largest_step, abs(new - q[i]))
            q[i] = new
            p_WQ = effector()
            error = float(np.linalg.norm(p_WQ - p_WT))
            if error <= tol:
                break
        stalled = largest_step < 1e-12
    success = error <= tol
    if success:
        message = f"reached the target within {error:.3g} m after {sweep} sweeps"
    else:
        why = ("no joint moves any more: the target is out of reach or blocked by joint "
               "limits" if stalled else "iteration limit reached")
        message = f"target not reached: {error:.3g} m away after {sweep} sweeps ({why})"
    return InverseKinematicsResult(q=q.copy(), success=success, position_error=error,
                                   num_iterations=sweep, message=message, cost=0.0)
