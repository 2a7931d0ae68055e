"""BodyHydroData: the hydrodynamic parameters of one body, rotational-first.

Model files (the RobotDynamics ``<hydro>`` block of a URDF link) list 6-vectors and the
6x6 added mass in the order x y z r p y (translational first). Like the plant, this
class stores them rotational first: ``[r p y x y z]`` (body frame B, about Bo).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["BodyHydroData", "reorder_translational_first_matrix",
           "reorder_translational_first_vector"]


def reorder_translational_first_vector(v) -> np.ndarray:
    """[x y z r p y] (6,) -> [r p y x y z] (6,)."""
    v = np.asarray(v, dtype=np.float64).reshape(6)
    return np.concatenate([v[3:], v[:3]])


def reorder_translational_first_matrix(M) -> np.ndarray:
    """A 6x6 matrix in x y z r p y order -> the same operator in r p y x y z order
    (blocks [[tt, tr], [rt, rr]] -> [[rr, rt], [tr, tt]])."""
    M = np.asarray(M, dtype=np.float64).reshape(6, 6)
    P = np.zeros((6, 6))
    P[:3, 3:] = np.eye(3)
    P[3:, :3] = np.eye(3)
    return P @ M @ P.T


@dataclass
class BodyHydroData:
    """Hydrodynamic parameters of a body B (all in B, about Bo, rotational first).

    Attributes
    ----------
    has_hydro : bool
        True if the body declared hydrodynamics (a ``<hydro>`` block); False means no
        effect at all.
    linear_drag : ndarray, shape (6,)
        a: the drag spatial force on B at Bo, expressed in B, has the term a ∘ V, with
        V = [w_WB_B; v_WBo_B] the body's spatial velocity in B. Negative entries oppose
        the motion (the RobotDynamics / Fossen convention).
    quadratic_drag : ndarray, shape (6,)
        b: the term b ∘ V ∘ |V| (elementwise), negative entries oppose the motion.
    volume : float
        Displaced volume V (m³), >= 0.
    center_of_buoyancy : ndarray, shape (3,)
        p_BoBcb_B, where buoyancy acts (m).
    added_mass_matrix : ndarray, shape (6, 6)
        M_A, symmetric, about Bo, expressed in B, rotational first ([[rr, rt], [tr,
        tt]]; kg m², kg m, kg). Zero when not given, otherwise positive definite.
    """

    has_hydro: bool = False
    linear_drag: np.ndarray = field(default_factory=lambda: np.zeros(6))
    quadratic_drag: np.ndarray = field(default_factory=lambda: np.zeros(6))
    volume: float = 0.0
    center_of_buoyancy: np.ndarray = field(default_factory=lambda: np.zeros(3))
    added_mass_matrix: np.ndarray = field(default_factory=lambda: np.zeros((6, 6)))

    def __post_init__(self):
        for name, shape in (("linear_drag", (6,)), ("quadratic_drag", (6,)),
                            ("center_of_buoyancy", (3,)), ("added_mass_matrix", (6, 6))):
            value = np.array(getattr(self, name), dtype=np.float64)
            if value.shape != shape:
                raise ValueError(f"BodyHydroData: {name} has shape {value.shape}, expected "
                                 f"{shape}")
            if not np.all(np.isfinite(value)):
                raise ValueError(f"BodyHydroData: {name} must be finite, got {value.tolist()}")
            setattr(self, name, value)
        self.volume = float(self.volume)
        if not (np.isfinite(self.volume) and self.volume >= 0.0):
            raise ValueError(f"BodyHydroData: volume must be finite and >= 0, got {self.volume!r}")
        self.has_hydro = bool(self.has_hydro)
        M = self.added_mass_matrix
        if np.any(M):
            scale = float(np.max(np.abs(M)))
            if not np.allclose(M, M.T, rtol=0.0, atol=1e-12 * scale):
                raise ValueError(f"BodyHydroData: added_mass_matrix must be symmetric, got "
                                 f"{M.tolist()}")
            smallest = float(np.linalg.eigvalsh(0.5 * (M + M.T))[0])
            if not smallest > 0.0:
                raise ValueError(f"BodyHydroData: added_mass_matrix must be positive definite "
                                 f"(or all zero), but its smallest eigenvalue is {smallest:.6g}")
