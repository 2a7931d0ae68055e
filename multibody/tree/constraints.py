"""Declared constraint specifications: coupler, distance, ball and weld constraints.

The tree only records what the user declared (``add_*_constraint``) after validating
the arguments; the contact/constraint solvers enforce them. Each spec is a frozen
dataclass; bodies and joints are referenced by index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "BallConstraintSpec",
    "CouplerConstraintSpec",
    "DistanceConstraintSpec",
    "WeldConstraintSpec",
]


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=np.float64)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class CouplerConstraintSpec:
    """q₀ = ρ q₁ + Δq between the positions of two single-dof joints.

    Attributes
    ----------
    joint0_index, joint1_index : int
        Indices of the coupled joints (each with one position and one velocity).
    gear_ratio : float
        ρ.
    offset : float
        Δq (rad or m).
    """

    joint0_index: int
    joint1_index: int
    gear_ratio: float
    offset: float = 0.0


@dataclass(frozen=True)
class DistanceConstraintSpec:
    """|p_WQ - p_WP| = d between point P of body A and point Q of body B.

    Attributes
    ----------
    body_A_index, body_B_index : int
        The two bodies (distinct).
    p_AP : ndarray, shape (3,)
        P on A, from Ao, expressed in A.
    p_BQ : ndarray, shape (3,)
        Q on B, from Bo, expressed in B.
    distance : float
        d (m), > 0.
    stiffness : float
        Constraint stiffness (N/m), > 0; inf for a rigid constraint.
    damping : float
        Constraint damping (N·s/m), >= 0.
    """

    body_A_index: int
    p_AP: np.ndarray = field(repr=False)
    body_B_index: int
    p_BQ: np.ndarray = field(repr=False)
    distance: float
    stiffness: float = np.inf
    damping: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "p_AP", _frozen(self.p_AP))
        object.__setattr__(self, "p_BQ", _frozen(self.p_BQ))


@dataclass(frozen=True)
class BallConstraintSpec:
    """Point P of body A coincides with point Q of body B (p_WP = p_WQ).

    Attributes
    ----------
    body_A_index, body_B_index : int
        The two bodies (distinct).
    p_AP : ndarray, shape (3,)
        P on A, expressed in A.
    p_BQ : ndarray, shape (3,) or None
        Q on B, expressed in B; ``None`` means "where P is in the default configuration"
        (computed by the plant at finalize, as in Drake).
    """

    body_A_index: int
    p_AP: np.ndarray = field(repr=False)
    body_B_index: int
    p_BQ: np.ndarray | None = field(repr=False, default=None)

    def __post_init__(self):
        object.__setattr__(self, "p_AP", _frozen(self.p_AP))
        if self.p_BQ is not None:
            object.__setattr__(self, "p_BQ", _frozen(self.p_BQ))


@dataclass(frozen=True)
class WeldConstraintSpec:
    """Frame P fixed on body A coincides with frame Q fixed on body B (X_WP = X_WQ).

    Attributes
    ----------
    body_A_index, body_B_index : int
        The two bodies (distinct).
    X_AP : ndarray, shape (4, 4)
        Pose of P in A.
    X_BQ : ndarray, shape (4, 4)
        Pose of Q in B.
    """

    body_A_index: int
    X_AP: np.ndarray = field(repr=False)
    body_B_index: int
    X_BQ: np.ndarray = field(repr=False)

    def __post_init__(self):
        object.__setattr__(self, "X_AP", _frozen(self.X_AP))
        object.__setattr__(self, "X_BQ", _frozen(self.X_BQ))
