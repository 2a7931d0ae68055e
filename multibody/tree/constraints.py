"""Declared constraint specifications: coupler, distance, ball, weld and tendon constraints.

The tree only records what the user declared (``add_*_constraint``) after validating
the arguments; the contact/constraint solvers enforce them. Each spec is a frozen
dataclass; bodies and joints are referenced by index.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "DistanceConstraintParams",
    "BallConstraintSpec",
    "CouplerConstraintSpec",
    "DistanceConstraintSpec",
    "TendonConstraintSpec",
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


@dataclass(frozen=True)
class TendonConstraintSpec:
    """lₗ ≤ l(q) = aᵀ q + offset ≤ lᵤ over single-dof joints (Drake's TendonConstraintSpec).

    Attributes
    ----------
    joints : tuple of int
        The joints' indices (distinct, one position and one velocity each); q[i] is the
        position of joints[i].
    a : ndarray, shape (len(joints),)
        The coefficients, a[i] of joints[i].
    offset : float
        The length offset (m or rad).
    lower_limit, upper_limit : float
        lₗ (-inf: none) and lᵤ (inf: none), at least one finite, lₗ ≤ lᵤ.
    stiffness : float
        > 0 (N/m or N·m/rad); inf for a near-rigid constraint.
    damping : float
        >= 0 (N·s/m or N·m·s/rad).
    """

    joints: tuple
    a: np.ndarray = field(repr=False)
    offset: float = 0.0
    lower_limit: float = -np.inf
    upper_limit: float = np.inf
    stiffness: float = np.inf
    damping: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "joints", tuple(int(j) for j in self.joints))
        object.__setattr__(self, "a", _frozen(self.a))

    def num_finite_limits(self) -> int:
        """1 or 2: the rows the constraint adds to a step where it is violated."""
        return int(np.isfinite(self.lower_limit)) + int(np.isfinite(self.upper_limit))


class DistanceConstraintParams:
    """The parameters of a distance constraint (Drake's DistanceConstraintParams):
    |p_WQ - p_WP| = distance between point P of body A and point Q of body B, enforced
    with `stiffness` (N/m; inf: rigid) and `damping` (N s/m).

    Parameters
    ----------
    bodyA, bodyB : int
        Body indices (distinct).
    p_AP, p_BQ : array_like (3,)
        The points, in their bodies' frames (m).
    distance : float
        > 0 (m).
    stiffness : float, optional
        > 0; inf (default) makes the constraint rigid.
    damping : float, optional
        >= 0, finite (default 0).
    """

    def __init__(self, bodyA, p_AP, bodyB, p_BQ, distance, stiffness=np.inf, damping=0.0):
        fn = "DistanceConstraintParams"
        if int(bodyA) == int(bodyB):
            raise ValueError(f"{fn}: bodyA and bodyB must differ, got {int(bodyA)} twice")
        if not (np.isfinite(distance) and distance > 0.0):
            raise ValueError(f"{fn}: distance must be finite and > 0, got {distance!r}")
        if not stiffness > 0.0:
            raise ValueError(f"{fn}: stiffness must be > 0 (inf for rigid), got {stiffness!r}")
        if not (np.isfinite(damping) and damping >= 0.0):
            raise ValueError(f"{fn}: damping must be finite and >= 0, got {damping!r}")
        self._spec = DistanceConstraintSpec(int(bodyA), _frozen(p_AP), int(bodyB),
                                            _frozen(p_BQ), float(distance), float(stiffness),
                                            float(damping))
        for arg, p in (("p_AP", self._spec.p_AP), ("p_BQ", self._spec.p_BQ)):
            if p.shape != (3,):
                raise ValueError(f"{fn}: {arg} must have shape (3,), got {p.shape}")

    @classmethod
    def from_spec(cls, spec: DistanceConstraintSpec) -> "DistanceConstraintParams":
        """The params of a declared distance constraint."""
        return cls(spec.body_A_index, spec.p_AP, spec.body_B_index, spec.p_BQ, spec.distance,
                   spec.stiffness, spec.damping)

    def bodyA(self) -> int:  # noqa: N802 (Drake's name)
        """Index of body A."""
        return self._spec.body_A_index

    def bodyB(self) -> int:  # noqa: N802 (Drake's name)
        """Index of body B."""
        return self._spec.body_B_index

    def p_AP(self) -> np.ndarray:  # noqa: N802 (monogram)
        """P in A (3,), read-only."""
        return self._spec.p_AP

    def p_BQ(self) -> np.ndarray:  # noqa: N802 (monogram)
        """Q in B (3,), read-only."""
        return self._spec.p_BQ

    def distance(self) -> float:
        """The constrained distance (m)."""
        return self._spec.distance

    def stiffness(self) -> float:
        """Stiffness (N/m; inf: rigid)."""
        return self._spec.stiffness

    def damping(self) -> float:
        """Damping (N s/m)."""
        return self._spec.damping

    def __eq__(self, other):
        if not isinstance(other, DistanceConstraintParams):
            return NotImplemented
        a, b = self._spec, other._spec
        return (a.body_A_index, a.body_B_index, a.distance, a.stiffness, a.damping) == (
            b.body_A_index, b.body_B_index, b.distance, b.stiffness, b.damping) and \
            np.array_equal(a.p_AP, b.p_AP) and np.array_equal(a.p_BQ, b.p_BQ)

    __hash__ = None

    def __repr__(self):
        s = self._spec
        return (f"DistanceConstraintParams(bodyA={s.body_A_index}, p_AP={s.p_AP.tolist()}, "
                f"bodyB={s.body_B_index}, p_BQ={s.p_BQ.tolist()}, distance={s.distance!r}, "
                f"stiffness={s.stiffness!r}, damping={s.damping!r})")

