"""Argument checks and small kinematic helpers shared by the inverse-kinematics solvers.

Every check raises with the calling function's name, the argument, what was expected
and what was received.
"""

import numpy as np

from merganser.geometry import RigidTransform, RotationMatrix
from merganser.multibody.plant import MultibodyPlant
from merganser.multibody.tree import Frame, QuaternionFloatingJoint

__all__ = ["as_rotation_matrix", "as_vector", "check_frame", "check_plant",
           "check_positive", "normalize_quaternions", "quaternion_position_starts",
           "rotation_vector", "working_context"]


def check_plant(fn, plant):
    """Raise unless `plant` is a finalized MultibodyPlant."""
    if not isinstance(plant, MultibodyPlant):
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got {type(plant).__name__}")
    if not plant.is_finalized():
        raise RuntimeError(f"{fn}: plant must be finalized; call plant.finalize() first")


def check_frame(fn, arg, frame):
    """Raise unless `frame` is a Frame."""
    if not isinstance(frame, Frame):
        raise TypeError(f"{fn}: {arg} must be a Frame, got {type(frame).__name__}")
    return frame


def as_vector(fn, arg, value, size):
    """`value` as a new finite float64 array of shape (size,)."""
    try:
        a = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be an array of numbers, got "
                        f"{type(value).__name__}") from None
    if a.ndim == 0 and size == 1:
        a = a.reshape(1)
    if a.shape != (size,):
        raise ValueError(f"{fn}: {arg} has shape {a.shape}, expected ({size},)")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{fn}: {arg} must be finite, got {a}")
    return a


def check_positive(fn, arg, value, *, allow_zero=False, integer=False):
    """`value` as a float (or int) > 0 (>= 0 with `allow_zero`)."""
    kind = int if integer else float
    try:
        x = kind(value)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be a number, got {type(value).__name__}") from None
    if integer and x != value:
        raise TypeError(f"{fn}: {arg} must be an integer, got {value!r}")
    ok = x >= 0 if allow_zero else x > 0
    if not (ok and np.isfinite(x)):
        expected = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{fn}: {arg} must be finite and {expected}, got {value!r}")
    return x


def as_rotation_matrix(fn, arg, R):
    """A (3, 3) rotation matrix from a RotationMatrix, a RigidTransform's rotation or an
    orthonormal (3, 3) array."""
    if isinstance(R, RotationMatrix):
        return R.matrix()
    if isinstance(R, RigidTransform):
        raise TypeError(f"{fn}: {arg} must be a RotationMatrix, got a RigidTransform "
                        f"(pass X.rotation())")
    try:
        return RotationMatrix(np.asarray(R, dtype=np.float64)).matrix()
    except (TypeError, ValueError) as err:
        raise ValueError(f"{fn}: {arg} must be a rotation matrix: {err}") from None


def quaternion_position_starts(plant):
    """Start indices in q of every quaternion (qw, qx, qy, qz) of the plant's joints."""
    starts = []
    for i in plant.get_joint_indices():
        joint = plant.get_joint(i)
        if isinstance(joint, QuaternionFloatingJoint):
            starts.append(joint.position_start())
    return starts


def normalize_quaternions(q, starts):
    """Copy of q (nq,) with each quaternion block scaled to unit norm (in place on the copy)."""
    q = np.array(q, dtype=np.float64)
    for s in starts:
        n = np.linalg.norm(q[s:s + 4])
        q[s:s + 4] = q[s:s + 4] / n if n > 0.0 else (1.0, 0.0, 0.0, 0.0)
    return q


def working_context(fn, plant, context, q_initial):
    """A private plant context for a solver, and the initial positions (nq,).

    The new context copies the time, state and parameters of `context` (the plant's
    context or a diagram context containing the plant), so the caller's context is never
    modified; q_initial defaults to the positions in `context` (the default positions
    when `context` is None).
    """
    ctx = plant.create_default_context()
    if context is not None:
        ctx.set_time_state_and_parameters_from(plant.get_my_context_from_root(context))
    if q_initial is None:
        q0 = plant.get_positions(ctx)
    else:
        q0 = as_vector(fn, "q_initial", q_initial, plant.num_positions())
    return ctx, q0


def rotation_vector(R):
    """Rotation vector θ k (3,) of the rotation matrix R (3, 3), with θ in [0, π].

    θ = atan2(|w|, (tr R - 1) / 2) with w = vee(R - Rᵀ) / 2 = sin θ k; near θ = π, where
    w vanishes, k comes from the symmetric part (R + Rᵀ) / 2 = cos θ I + (1 - cos θ) k kᵀ.
    """
    R = np.asarray(R, dtype=np.float64)
    w = 0.5 * np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    c = min(1.0, max(-1.0, 0.5 * (np.trace(R) - 1.0)))
    s = np.linalg.norm(w)
    theta = np.arctan2(s, c)
    if theta < 1e-10:
        return w
    if theta < np.pi - 1e-6:
        return theta * w / s
    kkT = (0.5 * (R + R.T) - c * np.eye(3)) / (1.0 - c)
    i = int(np.argmax(np.diag(kkT)))
    k = kkT[:, i] / np.sqrt(max(kkT[i, i], 1e-300))
    if k @ w < 0.0:
        k = -k
    return theta * k
