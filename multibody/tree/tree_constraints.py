"""Constraint declarations of a MultibodyTree (a mixin of `MultibodyTree`).

The tree validates and records coupler, distance, ball and weld constraints as specs
(`multibody.tree.constraints`); the solvers enforce them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from merganser.multibody.tree.constraints import (
    BallConstraintSpec,
    CouplerConstraintSpec,
    DistanceConstraintParams,
    DistanceConstraintSpec,
    WeldConstraintSpec,
)
from merganser.multibody.tree.frames import pose_matrix
from merganser.multibody.tree.joints.joint import as_vector

if TYPE_CHECKING:
    from merganser.multibody.tree.joints import Joint

__all__ = ["TreeConstraintsMixin"]


class TreeConstraintsMixin:
    """``add_*_constraint`` methods; uses the tree's ``_constraints`` list."""

    def _add_constraint(self, spec, func: str) -> int:
        self._throw_if_finalized(func, "constraints")
        self._constraints.append(spec)
        return len(self._constraints) - 1

    def add_coupler_constraint(
        self, joint0: Joint, joint1: Joint, gear_ratio: float, offset: float = 0.0
    ) -> int:
        """Declare q₀ = ρ q₁ + Δq between two single-dof joints; returns the constraint index."""
        func = "add_coupler_constraint"
        self._throw_if_finalized(func, "constraints")
        for arg, joint in (("joint0", joint0), ("joint1", joint1)):
            self._check_element(joint, self._joint_slots, func, arg)
            if joint.num_positions() != 1 or joint.num_velocities() != 1:
                raise ValueError(
                    f"{func}: {arg} {joint.name()!r} has {joint.num_positions()} positions; "
                    f"coupler constraints need single-dof joints"
                )
        if joint0 is joint1:
            raise ValueError(f"{func}: joint0 and joint1 are the same joint {joint0.name()!r}")
        if not (np.isfinite(gear_ratio) and np.isfinite(offset)):
            raise ValueError(
                f"{func}: gear_ratio and offset must be finite, got {gear_ratio!r}, {offset!r}"
            )
        return self._add_constraint(
            CouplerConstraintSpec(joint0.index(), joint1.index(), float(gear_ratio), float(offset)),
            func,
        )

    def _check_body_pair(self, body_A, body_B, func):
        self._check_element(body_A, self._bodies, func, "body_A")
        self._check_element(body_B, self._bodies, func, "body_B")
        if body_A is body_B:
            raise ValueError(f"{func}: body_A and body_B are the same body {body_A.name()!r}")

    def add_distance_constraint(
        self,
        body_A,
        p_AP,
        body_B,
        p_BQ,
        distance: float,
        stiffness: float = np.inf,
        damping: float = 0.0,
    ) -> int:
        """Declare |p_WQ - p_WP| = distance; returns the constraint index."""
        func = "add_distance_constraint"
        self._throw_if_finalized(func, "constraints")
        self._check_body_pair(body_A, body_B, func)
        if not (np.isfinite(distance) and distance > 0.0):
            raise ValueError(f"{func}: distance must be finite and > 0, got {distance!r}")
        if not stiffness > 0.0:
            raise ValueError(f"{func}: stiffness must be > 0 (inf for rigid), got {stiffness!r}")
        if not (np.isfinite(damping) and damping >= 0.0):
            raise ValueError(f"{func}: damping must be finite and >= 0, got {damping!r}")
        spec = DistanceConstraintSpec(
            body_A.index(),
            as_vector(p_AP, 3, func, "p_AP"),
            body_B.index(),
            as_vector(p_BQ, 3, func, "p_BQ"),
            float(distance),
            float(stiffness),
            float(damping),
        )
        return self._add_constraint(spec, func)

    def add_ball_constraint(self, body_A, p_AP, body_B, p_BQ=None) -> int:
        """Declare that point P of A and point Q of B coincide; returns the constraint index."""
        func = "add_ball_constraint"
        self._throw_if_finalized(func, "constraints")
        self._check_body_pair(body_A, body_B, func)
        spec = BallConstraintSpec(
            body_A.index(),
            as_vector(p_AP, 3, func, "p_AP"),
            body_B.index(),
            None if p_BQ is None else as_vector(p_BQ, 3, func, "p_BQ"),
        )
        return self._add_constraint(spec, func)

    def add_weld_constraint(self, body_A, X_AP, body_B, X_BQ) -> int:
        """Declare that frame P on A and frame Q on B coincide; returns the constraint index."""
        func = "add_weld_constraint"
        self._throw_if_finalized(func, "constraints")
        self._check_body_pair(body_A, body_B, func)
        spec = WeldConstraintSpec(
            body_A.index(),
            pose_matrix(X_AP, func, "X_AP"),
            body_B.index(),
            pose_matrix(X_BQ, func, "X_BQ"),
        )
        return self._add_constraint(spec, func)

    def num_constraints(self) -> int:
        """Number of declared (and not removed) constraints."""
        return sum(spec is not None for spec in self._constraints)

    def get_constraint_ids(self) -> list:
        """The ids of the declared (and not removed) constraints, ascending (Drake's
        GetConstraintIds)."""
        return [k for k, spec in enumerate(self._constraints) if spec is not None]

    def get_constraint_specs(self) -> list:
        """The declared constraint specs (removed ones left out), in order of addition."""
        return [spec for spec in self._constraints if spec is not None]

    def remove_constraint(self, id: int) -> None:  # noqa: A002 (pydrake's keyword)
        """Remove the constraint `id` (before finalize, as Drake); the other constraints
        keep their ids."""
        func = "remove_constraint"
        self._throw_if_finalized(func, "constraints")
        k = int(id)
        if not (0 <= k < len(self._constraints)) or self._constraints[k] is None:
            live = [i for i, spec in enumerate(self._constraints) if spec is not None]
            raise ValueError(f"{func}: there is no constraint with id {k}; constraint ids: "
                             f"{live}")
        self._constraints[k] = None

    def get_default_distance_constraint_params(self) -> dict:
        """``{constraint id: DistanceConstraintParams}`` of the distance constraints."""
        return {k: DistanceConstraintParams.from_spec(spec)
                for k, spec in enumerate(self._constraints)
                if isinstance(spec, DistanceConstraintSpec)}
