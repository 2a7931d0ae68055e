"""Controllability and observability of linear systems (Drake's ControllabilityMatrix,
IsControllable, ObservabilityMatrix, IsObservable, IsStabilizable, IsDetectable)."""

import numpy as np


def _matrices(fn, sys):
    if not all(hasattr(sys, k) for k in ("A", "B", "C")):
        raise TypeError(f"{fn}: expected a LinearSystem or AffineSystem, got {type(sys).__name__}")
    return np.asarray(sys.A()), np.asarray(sys.B()), np.asarray(sys.C())


def controllability_matrix(sys):
    """[B, AB, A²B, ..., Aⁿ⁻¹B], shape (n, n·m).

    Parameters
    ----------
    sys : LinearSystem or AffineSystem
    """
    A, B, _ = _matrices("controllability_matrix", sys)
    blocks, block = [], B
    for _ in range(A.shape[0]):
        blocks.append(block)
        block = A @ block
    return np.hstack(blocks) if blocks else np.zeros((0, 0))


def observability_matrix(sys):
    """[C; CA; CA²; ...; CAⁿ⁻¹], shape (n·p, n)."""
    A, _, C = _matrices("observability_matrix", sys)
    blocks, block = [], C
    for _ in range(A.shape[0]):
        blocks.append(block)
        block = block @ A
    return np.vstack(blocks) if blocks else np.zeros((0, 0))


def _full_rank(M, n, threshold):
    return n == 0 or (M.size > 0 and np.linalg.matrix_rank(M, tol=threshold) == n)


def is_controllable(sys, threshold=None):
    """Whether the controllability matrix has rank n.

    Parameters
    ----------
    sys : LinearSystem or AffineSystem
    threshold : float or None
        Singular values at or below it count as zero; None uses numpy's default
        (σ_max · max(shape) · ε).
    """
    n = np.asarray(sys.A()).shape[0]
    return _full_rank(controllability_matrix(sys), n, threshold)


def is_observable(sys, threshold=None):
    """Whether the observability matrix has rank n (``threshold`` as in is_controllable)."""
    n = np.asarray(sys.A()).shape[0]
    return _full_rank(observability_matrix(sys), n, threshold)


def _unstable_modes(sys):
    A = np.asarray(sys.A())
    eig = np.linalg.eigvals(A)
    if getattr(sys, "time_period", lambda: 0.0)() > 0.0:
        return A, eig[np.abs(eig) >= 1.0]
    return A, eig[eig.real >= 0.0]


def is_stabilizable(sys, threshold=None):
    """PBH test: rank [λI − A, B] = n for every eigenvalue λ that is not stable
    (Re λ >= 0, or |λ| >= 1 for a discrete system)."""
    A, modes = _unstable_modes(sys)
    B = np.asarray(sys.B())
    n = A.shape[0]
    return all(_full_rank(np.hstack([lam * np.eye(n) - A, B]), n, threshold) for lam in modes)


def is_detectable(sys, threshold=None):
    """PBH test: rank [λI − A; C] = n for every eigenvalue λ that is not stable."""
    A, modes = _unstable_modes(sys)
    C = np.asarray(sys.C())
    n = A.shape[0]
    return all(_full_rank(np.vstack([lam * np.eye(n) - A, C]), n, threshold) for lam in modes)
