"""Constraint declarations of a MultibodyTree (a mixin of `MultibodyTree`).

The tree validates and records coupler, distance, ball, weld and tendon constraints as specs
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
    TendonConstraintSpec,
    WeldConstraintSpec,
)
from merganser.multibody.tree.errors import ConstraintArgumentError
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

    def add_tendon_constraint(self, joints, a, offset=None, lower_limit=None,
                              upper_limit=None, stiffness=None, damping=None) -> int:
        """Declare lₗ ≤ l(q) = aᵀ q + offset ≤ lᵤ over single-dof joints (Drake's
        AddTendonConstraint, MuJoCo's fixed tendon); returns the constraint id.

        Parameters
        ----------
        joints : sequence of JointIndex (or Joint)
            Distinct joints with one position and one velocity each; q[i] is the
            position of joints[i].
        a : sequence of float
            The coefficients, one per joint (units such that l is in m or rad).
        offset : float, optional
            The length offset (m or rad); None: 0.
        lower_limit, upper_limit : float, optional
            lₗ and lᵤ (m or rad); None: -inf and inf. At least one must be finite and
            lₗ ≤ lᵤ.
        stiffness : float, optional
            > 0 (N/m or N·m/rad); None: inf, a constraint as rigid as the solver makes
            it (SAP's near-rigid regime).
        damping : float, optional
            >= 0 (N·s/m or N·m·s/rad); None: 0.

        The discrete SAP-family step keeps l within the limits with one unilateral
        compliant row per finite limit (fₗ = -k (l - lₗ) - c l̇ while l < lₗ, fᵤ likewise
        above lᵤ), added to a step whose start violates a limit (Drake's SapDriver).
        """
        func = "add_tendon_constraint"
        self._throw_if_finalized(func, "constraints")
        inf = np.inf

        def bad(arg, expected, got):
            return ConstraintArgumentError(f"{func}: {arg} must be {expected}, got {got}")

        try:
            joints = list(joints)
        except TypeError:
            raise bad("joints", "a sequence of joint indices", type(joints).__name__) from None
        if not joints:
            raise bad("joints", "a non-empty sequence of joint indices", "[]")
        indices = []
        for i, joint in enumerate(joints):
            if hasattr(joint, "index") and hasattr(joint, "num_velocities"):
                self._check_element(joint, self._joint_slots, func, f"joints[{i}]")
                joint = joint.index()
            if not self.has_joint(joint):
                raise bad(f"joints[{i}]", "the index of a joint of this plant (valid: "
                          f"{[int(k) for k, e in enumerate(self._joint_slots) if e is not None]})",
                          repr(joint))
            indices.append(int(joint))
        if len(set(indices)) != len(indices):
            duplicated = sorted({k for k in indices if indices.count(k) > 1})
            raise bad("joints", "a set of distinct joints (Drake: duplicated joint in "
                      "`joints`)", f"joint {duplicated[0]} more than once")
        a = np.array(a, dtype=float).reshape(-1) if np.ndim(a) else np.array([a], float)
        if a.size != len(indices):
            raise bad("a", f"one coefficient per joint (size {len(indices)}, the size of "
                      f"joints)", f"size {a.size}")
        if not np.all(np.isfinite(a)):
            raise bad("a", "finite", a.tolist())
        for i, k in enumerate(indices):
            joint = self._joint_slots[k]
            if joint.num_positions() != 1 or joint.num_velocities() != 1:
                raise bad(f"joints[{i}]", "a single-dof joint (one position and one "
                          "velocity)", f"joint {joint.name()!r} with {joint.num_positions()} "
                          f"positions and {joint.num_velocities()} velocities")
        offset = 0.0 if offset is None else float(offset)
        if not np.isfinite(offset):
            raise bad("offset", "finite", repr(offset))
        lower = -inf if lower_limit is None else float(lower_limit)
        upper = inf if upper_limit is None else float(upper_limit)
        if not lower < inf:
            raise bad("lower_limit", "< inf (None for no lower limit)", repr(lower_limit))
        if not upper > -inf:
            raise bad("upper_limit", "> -inf (None for no upper limit)", repr(upper_limit))
        if lower == -inf and upper == inf:
            raise bad("lower_limit and upper_limit", "at least one finite limit",
                      f"lower_limit={lower_limit!r}, upper_limit={upper_limit!r}")
        if not lower <= upper:
            raise bad("lower_limit", f"<= upper_limit ({upper!r})", repr(lower))
        k = inf if stiffness is None else float(stiffness)
        if not k > 0.0:
            raise bad("stiffness", "> 0 (None or inf for a rigid constraint)",
                      repr(stiffness))
        c = 0.0 if damping is None else float(damping)
        if not c >= 0.0:
            raise bad("damping", ">= 0", repr(damping))
        spec = TendonConstraintSpec(tuple(indices), a, offset, lower, upper, k, c)
        return self._add_constraint(spec, func)

    def num_tendon_constraints(self) -> int:
        """Number of declared (and not removed) tendon constraints."""
        return sum(isinstance(spec, TendonConstraintSpec) for spec in self._constraints)

    def get_tendon_constraint_specs(self, id=None):  # noqa: A002 (Drake's argument)
        """``{constraint id: TendonConstraintSpec}`` of the tendon constraints, or, given
        `id`, that constraint's spec (Drake's internal get_tendon_constraint_specs)."""
        specs = {k: spec for k, spec in enumerate(self._constraints)
                 if isinstance(spec, TendonConstraintSpec)}
        if id is None:
            return specs
        if not (isinstance(id, (int, np.integer)) and int(id) in specs):
            raise ConstraintArgumentError(
                f"get_tendon_constraint_specs: id must be the id of a tendon constraint "
                f"(tendon constraint ids: {sorted(specs)}), got {id!r}")
        return specs[int(id)]

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
