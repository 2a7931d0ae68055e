"""solve_ik_jacobian: damped least-squares (Levenberg-Marquardt) inverse kinematics.

Each iteration linearizes the task error e (the position error of point Q, or the pose
error [rotation vector of R_WT R_WEᵀ; position error], both in the world frame) and
takes the damped least-squares step

    Δv = Jᵀ (J Jᵀ + λ² I)⁻¹ e  +  (I - Jᵀ (J Jᵀ + λ² I)⁻¹ J) z,

where z is an optional secondary joint motion projected into the (damped) null space of
the task, so redundant arms can, e.g., stay near a preferred posture. The positions move
by q̇ = N(q) Δv and are clamped to the joint limits (a joint on a limit that Δv pushes
outward is locked, its Jacobian column zeroed, and Δv recomputed). A step that does not
reduce the error is rejected and λ is increased; accepted steps decrease λ again (never
below the given damping). The solve stops when the error is within tolerance (and the secondary
motion has settled), or with ``success`` False when λ grows past its limit or the step
vanishes (target out of reach, singular, or blocked by limits).

References
----------
C. W. Wampler, "Manipulator inverse kinematic solutions based on vector formulations
and damped least-squares methods", IEEE Trans. SMC 16(1), 1986; Y. Nakamura and
H. Hanafusa, "Inverse kinematic solutions with singularity robustness for robot
manipulator control", J. Dyn. Sys. Meas. Control 108(3), 1986.
"""

import numpy as np

from merganser.geometry import RigidTransform
from merganser.multibody.inverse_kinematics._arguments import (
    as_vector,
    check_frame,
    check_plant,
    check_positive,
    normalize_quaternions,
    quaternion_position_starts,
    rotation_vector,
    working_context,
)
from merganser.multibody.inverse_kinematics.result import InverseKinematicsResult
from merganser.multibody.plant import JacobianWrtVariable

__all__ = ["solve_ik_jacobian"]

_LAMBDA_MAX = 1e6


class _Task:
    """The task error and Jacobian at the positions held by a context."""

    def __init__(self, plant, ctx, frame_E, p_EQ, target, weight):
        self._plant, self._ctx, self._frame_E = plant, ctx, frame_E
        self._p_EQ = p_EQ
        if isinstance(target, RigidTransform):
            self._R_WT = target.rotation().matrix()
            self._p_WT = target.translation()
        else:
            self._R_WT = None
            self._p_WT = target
        self._weight = weight

    @property
    def full_pose(self):
        return self._R_WT is not None

    def errors(self):
        """(position error (m), orientation error (rad), weighted error vector)."""
        plant, world = self._plant, self._plant.world_frame()
        X_WE = plant.calc_relative_transform(self._ctx, world, self._frame_E)
        p_WQ = X_WE @ self._p_EQ
        e_p = self._p_WT - p_WQ
        if self._R_WT is None:
            return float(np.linalg.norm(e_p)), float("nan"), e_p
        e_R = rotation_vector(self._R_WT @ X_WE.rotation().matrix().T)
        return (float(np.linalg.norm(e_p)), float(np.linalg.norm(e_R)),
                np.concatenate([self._weight * e_R, e_p]))

    def jacobian(self):
        """(3 or 6, nv) Jacobian of [w_WE; v_WQ] (angular rows weighted)."""
        world = self._plant.world_frame()
        J = self._plant.calc_jacobian_spatial_velocity(
            self._ctx, JacobianWrtVariable.kV, self._frame_E, self._p_EQ, world, world)
        if self._R_WT is None:
            return J[3:]
        J[:3] *= self._weight
        return J


def _secondary_motion(fn, secondary_objective, q, nv, nq):
    if secondary_objective is None:
        return None
    if callable(secondary_objective):
        z = np.asarray(secondary_objective(q), dtype=np.float64)
        if z.shape != (nv,):
            raise ValueError(f"{fn}: secondary_objective(q) returned shape {z.shape}, "
                             f"expected ({nv},)")
        return z
    if nq != nv:
        raise ValueError(f"{fn}: a q_nominal secondary_objective needs nq == nv (got nq = "
                         f"{nq}, nv = {nv}); pass a callable q -> z (nv,) instead")
    return secondary_objective - q


def _scalar_joint_coordinates(plant):
    """(q index, v index) of every 1-dof joint with a finite position limit."""
    lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    out = []
    for i in plant.get_joint_indices():
        joint = plant.get_joint(i)
        if joint.num_positions() == 1 and joint.num_velocities() == 1:
            iq = joint.position_start()
            if np.isfinite(lower[iq]) or np.isfinite(upper[iq]):
                out.append((iq, joint.velocity_start()))
    return out


def _damped_steps(J, e, z, lam, gain, q, lower, upper, scalar_joints):
    """Candidate steps Δv: with the null-space motion z (when given), then without.

    A joint at a limit whose step would push it further out is locked (its Jacobian
    column and z entry zeroed) and the step recomputed, so the other joints take over
    its share of the task instead of the clamp discarding it.
    """
    locked = np.zeros(J.shape[1], dtype=bool)
    for _ in range(len(scalar_joints) + 1):
        Jf = np.where(locked, 0.0, J)
        A = Jf @ Jf.T + lam**2 * np.eye(len(e))
        steps = [Jf.T @ np.linalg.solve(A, e)]
        if z is not None:
            zf = np.where(locked, 0.0, z)
            steps.insert(0, steps[0] + gain * (zf - Jf.T @ np.linalg.solve(A, Jf @ zf)))
        newly = False
        for iq, iv in scalar_joints:
            if locked[iv]:
                continue
            dv = steps[0][iv]
            if (q[iq] <= lower[iq] and dv < 0.0) or (q[iq] >= upper[iq] and dv > 0.0):
                locked[iv] = newly = True
        if not newly:
            return steps
    return steps


def solve_ik_jacobian(plant, frame_E, target, *, p_EQ=(0.0, 0.0, 0.0), context=None,
                      q_initial=None, damping=1e-2, tolerance=1e-4,
                      orientation_tolerance=1e-3, orientation_weight=1.0, max_iterations=200,
                      max_step=0.5, with_joint_limits=True, secondary_objective=None,
                      null_space_gain=0.5):
    """Move frame E (point Q, and optionally its orientation) to a world target by damped
    least squares.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant.
    frame_E : Frame
        End-effector frame.
    target : array_like, shape (3,), or RigidTransform
        p_WT: position target for Q (m, world frame); or X_WT: full pose target, R_WE must
        equal R_WT and Q must be at p_WT.
    p_EQ : array_like, shape (3,)
        Effector point Q in frame E (m).
    context : Context, optional
        Supplies q_initial (its positions) and parameters; not modified.
    q_initial : array_like, shape (nq,), optional
        Start configuration (clamped to the limits).
    damping : float
        λ >= 0, the smallest damping used (m); larger λ is more robust near
        singularities, slower near the solution.
    tolerance : float
        Position tolerance (m).
    orientation_tolerance : float
        Orientation tolerance (rad), for pose targets.
    orientation_weight : float
        Weight (m/rad) of the rotation error against the position error.
    max_iterations : int
        Largest number of linearizations.
    max_step : float
        Largest |Δv| component per iteration (rad or m).
    with_joint_limits : bool
        Clamp q to the plant's position limits after every step; a joint resting on a
        limit that the step pushes outward is locked for that step.
    secondary_objective : array_like (nq,) or callable, optional
        q_nominal, pulled toward with z = q_nominal - q; or a function q -> z (nv,) of the
        desired secondary joint motion. z is scaled by `null_space_gain` and projected
        into the task's null space.
    null_space_gain : float
        Scale of z (per iteration).

    Returns
    -------
    InverseKinematicsResult
        ``q``, ``success``, ``position_error`` (m), ``orientation_error`` (rad, NaN for
        position targets), ``num_iterations``, ``message``.
    """
    fn = "solve_ik_jacobian"
    check_plant(fn, plant)
    check_frame(fn, "frame_E", frame_E)
    if not isinstance(target, RigidTransform):
        target = as_vector(fn, "target", target, 3)
    p_EQ = as_vector(fn, "p_EQ", p_EQ, 3)
    lam_min = check_positive(fn, "damping", damping, allow_zero=True)
    tol = check_positive(fn, "tolerance", tolerance)
    tol_R = check_positive(fn, "orientation_tolerance", orientation_tolerance)
    weight = check_positive(fn, "orientation_weight", orientation_weight)
    iterations = int(check_positive(fn, "max_iterations", max_iterations, integer=True))
    max_step = check_positive(fn, "max_step", max_step)
    gain = check_positive(fn, "null_space_gain", null_space_gain, allow_zero=True)
    nq, nv = plant.num_positions(), plant.num_velocities()
    if secondary_objective is not None and not callable(secondary_objective):
        secondary_objective = as_vector(fn, "secondary_objective", secondary_objective, nq)
    ctx, q = working_context(fn, plant, context, q_initial)
    quats = quaternion_position_starts(plant)
    if with_joint_limits:
        lower, upper = plant.get_position_lower_limits(), plant.get_position_upper_limits()
    else:
        lower, upper = np.full(nq, -np.inf), np.full(nq, np.inf)
    task = _Task(plant, ctx, frame_E, p_EQ, target, weight)
    scalar_joints = _scalar_joint_coordinates(plant) if with_joint_limits else []

    def evaluate(q_new):
        plant.set_positions(ctx, q_new)
        return task.errors()

    def converged(err_p, err_R):
        return err_p <= tol and (not task.full_pose or err_R <= tol_R)

    def trial(q, dv):
        """Positions after the step dv (limited to max_step, clamped) and their errors."""
        largest = np.max(np.abs(dv)) if len(dv) else 0.0
        if largest > max_step:
            dv = dv * (max_step / largest)
        plant.set_positions(ctx, q)
        q_new = normalize_quaternions(np.clip(q + plant.map_velocity_to_qdot(ctx, dv),
                                              lower, upper), quats)
        return (q_new,) + evaluate(q_new)

    q = normalize_quaternions(np.clip(q, lower, upper), quats)
    err_p, err_R, e = evaluate(q)
    lam = max(lam_min, 1e-6)
    it, status = 0, "iteration limit reached"
    while it < iterations:
        done = converged(err_p, err_R)
        if done and secondary_objective is None:
            status = "converged"
            break
        it += 1
        plant.set_positions(ctx, q)
        J = task.jacobian()
        z = _secondary_motion(fn, secondary_objective, q, nv, nq)
        steps = _damped_steps(J, e, z, lam, gain, q, lower, upper, scalar_joints)
        accepted = None
        for dv in steps:
            q_new, new_p, new_R, e_new = trial(q, dv)
            if e_new @ e_new < e @ e or (done and converged(new_p, new_R)):
                accepted = (q_new, new_p, new_R, e_new)
                break
        if accepted is None:
            lam *= 4.0
            if lam > _LAMBDA_MAX:
                status = "no step reduces the error"
                break
            continue
        moved = np.max(np.abs(accepted[0] - q))
        q, err_p, err_R, e = accepted
        lam = max(lam_min, lam * 0.5)
        if moved < 1e-12 or (done and moved < 1e-9):
            status = "converged" if converged(err_p, err_R) else "step vanished"
            break
    success = converged(err_p, err_R)
    if success:
        message = f"reached the target after {it} iterations"
    else:
        reason = ("the target is out of reach, singular or blocked by joint limits"
                  if status != "iteration limit reached" else status)
        message = (f"target not reached after {it} iterations: position error {err_p:.3g} m"
                   + (f", orientation error {err_R:.3g} rad" if task.full_pose else "")
                   + f" ({reason})")
    return InverseKinematicsResult(q=q, success=success, position_error=err_p,
                                   orientation_error=err_R, num_iterations=it,
                                   message=message, cost=0.0)
