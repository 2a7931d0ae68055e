"""Argument checks shared by the controllers (private).

Every check raises with the function, the argument, what was expected and what was got.
"""

import numpy as np


class ControlModelError(RuntimeError, ValueError):
    """A control model (plant) a controller cannot use: not fully actuated, nq != nv, or
    an actuation matrix that is not a permutation. A RuntimeError, as pydrake raises, and
    a ValueError."""


def as_vector(fn, name, value, size=None):
    """``value`` as a finite float64 vector (a scalar is a vector of size 1).

    Parameters
    ----------
    fn, name : str
        The calling function and the argument, for the error message.
    value : array_like
    size : int or None
        The required size, if any.

    Returns
    -------
    ndarray, shape (size,)
    """
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {name} must be a vector of numbers, got "
                        f"{type(value).__name__}") from None
    if arr.ndim == 0:
        arr = arr.reshape(1)
    elif arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(f"{fn}: {name} must be a vector, got shape {arr.shape}")
    if size is not None and arr.size != size:
        raise ValueError(f"{fn}: {name} has size {arr.size}, expected {size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{fn}: {name} must be finite, got {arr}")
    return arr


def as_matrix(fn, name, value, shape=None):
    """``value`` as a finite float64 2-D array; a scalar is 1x1 and a 1-D sequence of k
    numbers a k x 1 column (as pydrake's Eigen arguments take them: ``R=[1]`` is 1x1).

    Parameters
    ----------
    shape : tuple of int or None
        The required shape, if any (an entry None accepts any size on that axis).

    Returns
    -------
    ndarray, 2-D
    """
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {name} must be a matrix of numbers, got "
                        f"{type(value).__name__}") from None
    if arr.ndim == 0:
        arr = arr.reshape(1, 1)
    elif arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise ValueError(f"{fn}: {name} must be a 2-D matrix, got shape {arr.shape}")
    if shape is not None and any(e is not None and e != g for e, g in zip(shape, arr.shape)):
        want = "(" + ", ".join("any" if e is None else str(e) for e in shape) + ")"
        raise ValueError(f"{fn}: {name} has shape {arr.shape}, expected {want}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{fn}: {name} must be finite")
    return arr


def check_finalized_plant(fn, plant):
    """Raise unless ``plant`` is a finalized MultibodyPlant-like object."""
    if not (hasattr(plant, "is_finalized") and hasattr(plant, "calc_inverse_dynamics")):
        raise TypeError(f"{fn}: plant must be a MultibodyPlant, got {type(plant).__name__}")
    if not plant.is_finalized():
        raise RuntimeError(f"{fn}: the plant must be finalized first; call plant.finalize()")


def check_fully_actuated(fn, plant):
    """The velocity index driven by each actuator, for a fully actuated plant.

    A plant is fully actuated here when nq = nv = nu and its actuation matrix B (nv, nu)
    is a permutation of the identity, so that B⁻¹ = Bᵀ maps generalized forces to
    actuation: u = τ[v_of_actuator].

    Returns
    -------
    ndarray of int, shape (nu,)
        ``v_of_actuator[k]`` is the velocity index that actuator input k drives.

    Raises
    ------
    ControlModelError
        (A RuntimeError, as pydrake's, and a ValueError) naming the counts (positions,
        velocities, actuators) or the offending column of B.
    """
    nq, nv, nu = plant.num_positions(), plant.num_velocities(), plant.num_actuators()
    if nu != nv:
        raise ControlModelError(
            f"{fn}: the robot must be fully actuated, but the plant has {nv} velocities "
            f"(and {nq} positions) and {nu} actuators; add an actuator to every joint of the "
            f"control model (an unactuated floating base cannot be controlled this way)")
    if nq != nv:
        raise ControlModelError(
            f"{fn}: the plant has {nq} positions but {nv} velocities (a quaternion floating "
            f"joint?); this controller requires nq = nv")
    B = plant.make_actuation_matrix()
    v_of_actuator = np.empty(nu, dtype=np.int64)
    for k in range(nu):
        rows = np.flatnonzero(B[:, k])
        if rows.size != 1 or B[rows[0], k] != 1.0:
            raise ControlModelError(
                f"{fn}: actuator input {k} does not drive exactly one generalized velocity with "
                f"unit gain (column {k} of the actuation matrix is {B[:, k]}); the actuation "
                f"matrix must be a permutation of the identity")
        v_of_actuator[k] = rows[0]
    if np.unique(v_of_actuator).size != nu:
        raise ControlModelError(
            f"{fn}: several actuators drive the same generalized velocity (actuated velocity "
            f"indices {v_of_actuator.tolist()}); the actuation matrix must be a permutation of "
            f"the identity")
    return v_of_actuator


def as_gains(fn, name, value, n):
    """Per-coordinate gains (n,), read-only; a scalar is broadcast to all n coordinates."""
    gains = as_vector(fn, name, value)
    if gains.size == 1 and n != 1:
        gains = np.full(n, gains[0])
    if gains.size != n:
        raise ValueError(f"{fn}: {name} has size {gains.size}, expected nq = {n}")
    gains.flags.writeable = False
    return gains
