"""Coordinate queries of a finalized MultibodyTree (a mixin of `MultibodyTree`).

Everything here needs ``finalize()``: sizes, per-model-instance index tables and array
slicing, the actuation matrix, default positions, stacked limits and Drake's
position/velocity/state/actuator names.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from merganser.multibody.tree.joints.joint import as_vector

if TYPE_CHECKING:
    from merganser.multibody.tree.rigid_body import RigidBody

__all__ = ["TreeCoordinatesMixin"]


class TreeCoordinatesMixin:
    """Queries on q, v and u; uses the tree's ``_compiled`` model and ``_tables``."""

    def num_positions(self, model_instance: int | None = None) -> int:
        """nq of the plant (or of `model_instance`)."""
        self._throw_if_not_finalized("num_positions")
        if model_instance is None:
            return self._compiled.nq
        return len(self._tables.q_indices[self._check_instance(model_instance, "num_positions")])

    def num_velocities(self, model_instance: int | None = None) -> int:
        """nv of the plant (or of `model_instance`)."""
        self._throw_if_not_finalized("num_velocities")
        if model_instance is None:
            return self._compiled.nv
        return len(self._tables.v_indices[self._check_instance(model_instance, "num_velocities")])

    def num_multibody_states(self, model_instance: int | None = None) -> int:
        """nq + nv (of `model_instance`, if given)."""
        return self.num_positions(model_instance) + self.num_velocities(model_instance)

    def get_position_indices(self, model_instance: int) -> np.ndarray:
        """Indices in q of `model_instance`'s positions, ascending, int64 (read-only)."""
        self._throw_if_not_finalized("get_position_indices")
        return self._tables.q_indices[self._check_instance(model_instance, "get_position_indices")]

    def get_velocity_indices(self, model_instance: int) -> np.ndarray:
        """Indices in v of `model_instance`'s velocities, ascending, int64 (read-only)."""
        self._throw_if_not_finalized("get_velocity_indices")
        return self._tables.v_indices[self._check_instance(model_instance, "get_velocity_indices")]

    def get_actuator_input_indices(self, model_instance: int) -> np.ndarray:
        """Indices in u of `model_instance`'s actuators, int64 (read-only)."""
        self._throw_if_not_finalized("get_actuator_input_indices")
        return self._tables.actuator_inputs[
            self._check_instance(model_instance, "get_actuator_input_indices")
        ]

    def _select(self, kind, model_instance, array, func):
        self._throw_if_not_finalized(func)
        mi = self._check_instance(model_instance, func)
        indices = {
            "q": self._tables.q_indices,
            "v": self._tables.v_indices,
            "u": self._tables.actuator_inputs,
        }[kind][mi]
        size = {"q": self._compiled.nq, "v": self._compiled.nv, "u": len(self._actuators)}[kind]
        array = np.asarray(array, dtype=np.float64)
        if array.shape != (size,):
            raise ValueError(f"{func}: {kind} has shape {array.shape}, expected ({size},)")
        return indices, array

    def get_positions_from_array(self, model_instance: int, q) -> np.ndarray:
        """`model_instance`'s entries of the full q (nq,)."""
        idx, q = self._select("q", model_instance, q, "get_positions_from_array")
        return q[idx]

    def set_positions_in_array(self, model_instance: int, q_instance, q) -> None:
        """Write `q_instance` into `model_instance`'s entries of `q` (nq,), in place."""
        idx, _ = self._select("q", model_instance, q, "set_positions_in_array")
        q[idx] = as_vector(q_instance, len(idx), "set_positions_in_array", "q_instance")

    def get_velocities_from_array(self, model_instance: int, v) -> np.ndarray:
        """`model_instance`'s entries of the full v (nv,)."""
        idx, v = self._select("v", model_instance, v, "get_velocities_from_array")
        return v[idx]

    def set_velocities_in_array(self, model_instance: int, v_instance, v) -> None:
        """Write `v_instance` into `model_instance`'s entries of `v` (nv,), in place."""
        idx, _ = self._select("v", model_instance, v, "set_velocities_in_array")
        v[idx] = as_vector(v_instance, len(idx), "set_velocities_in_array", "v_instance")

    def set_actuation_in_array(self, model_instance: int, u_instance, u) -> None:
        """Write `u_instance` into `model_instance`'s entries of `u` (nu,), in place."""
        idx, _ = self._select("u", model_instance, u, "set_actuation_in_array")
        u[idx] = as_vector(u_instance, len(idx), "set_actuation_in_array", "u_instance")

    def get_actuation_from_array(self, model_instance: int, u) -> np.ndarray:
        """`model_instance`'s entries of the full actuation vector u (nu,)."""
        idx, u = self._select("u", model_instance, u, "get_actuation_from_array")
        return u[idx]

    def make_actuation_matrix(self) -> np.ndarray:
        """The actuation matrix B, shape (nv, nu): τ_actuation = B u."""
        self._throw_if_not_finalized("make_actuation_matrix")
        return self._tables.actuation_matrix.copy()

    def remove_all_joint_actuator_effort_limits(self) -> None:
        """Set every joint actuator's effort limit to inf (before finalize), as pydrake's
        ``RemoveAllJointActuatorEffortLimits``."""
        self._throw_if_finalized("remove_all_joint_actuator_effort_limits",
                                 "effort limit changes")
        for actuator in self._actuators:
            actuator.set_effort_limit(np.inf)

    def make_actuation_matrix_pseudoinverse(self):
        """The pseudoinverse B⁺ of the actuation matrix, shape (nu, nv), as a
        ``scipy.sparse`` matrix (pydrake returns a sparse matrix too): u = B⁺ τ for τ in
        the range of B. When every actuator drives its own degree of freedom (the columns
        of B are distinct unit vectors) B⁺ is exactly Bᵀ; otherwise it is the
        Moore-Penrose pseudoinverse.
        """
        import scipy.sparse
        self._throw_if_not_finalized("make_actuation_matrix_pseudoinverse")
        B = self._tables.actuation_matrix
        BtB = B.T @ B
        B_pinv = B.T.copy() if np.array_equal(BtB, np.eye(B.shape[1])) else np.linalg.pinv(B)
        return scipy.sparse.csr_matrix(B_pinv)

    def get_default_positions(self, model_instance: int | None = None) -> np.ndarray:
        """Default q (nq,) from the joints' default positions (or `model_instance`'s part)."""
        self._throw_if_not_finalized("get_default_positions")
        q = np.zeros(self._compiled.nq)
        for joint in self._joints:
            q[joint._q_start : joint._q_start + joint.num_positions()] = joint._default_positions
        if model_instance is None:
            return q
        return self.get_positions_from_array(model_instance, q)

    def set_default_positions(self, *args, q=None, model_instance=None,
                              q_instance=None) -> None:
        """``set_default_positions(q)`` or ``set_default_positions(model_instance, q_instance)``
        (positionally or by pydrake's keywords)."""
        func = "set_default_positions"
        self._throw_if_not_finalized(func)
        given = [a for a in (q,) if a is not None] or [
            a for a in (model_instance, q_instance) if a is not None]
        if given:
            if args:
                raise TypeError(f"{func}: pass the arguments positionally or by keyword, "
                                f"not both")
            args = tuple(given)
        if len(args) == 1:
            q = as_vector(args[0], self._compiled.nq, func, "q")
        elif len(args) == 2:
            q = self.get_default_positions()
            self.set_positions_in_array(args[0], args[1], q)
        else:
            raise TypeError(
                f"{func}: expected (q) or (model_instance, q_instance), got {len(args)} arguments"
            )
        if not np.all(np.isfinite(q)):
            raise ValueError(f"{func}: q must be finite, got {q.tolist()}")
        for joint in self._joints:
            joint.set_default_positions(q[joint._q_start : joint._q_start + joint.num_positions()])

    def _stacked_limits(self, func, kind, which):
        self._throw_if_not_finalized(func)
        n = self._compiled.nq if kind == "position" else self._compiled.nv
        out = np.full(n, -np.inf if which == "lower" else np.inf)
        for joint in self._joints:
            start = joint._q_start if kind == "position" else joint._v_start
            values = getattr(joint, f"{kind}_{which}_limits")()
            out[start : start + len(values)] = values
        return out

    def get_position_lower_limits(self) -> np.ndarray:
        """Position lower limits (nq,)."""
        return self._stacked_limits("get_position_lower_limits", "position", "lower")

    def get_position_upper_limits(self) -> np.ndarray:
        """Position upper limits (nq,)."""
        return self._stacked_limits("get_position_upper_limits", "position", "upper")

    def get_velocity_lower_limits(self) -> np.ndarray:
        """Velocity lower limits (nv,)."""
        return self._stacked_limits("get_velocity_lower_limits", "velocity", "lower")

    def get_velocity_upper_limits(self) -> np.ndarray:
        """Velocity upper limits (nv,)."""
        return self._stacked_limits("get_velocity_upper_limits", "velocity", "upper")

    def get_acceleration_lower_limits(self) -> np.ndarray:
        """Acceleration lower limits (nv,)."""
        return self._stacked_limits("get_acceleration_lower_limits", "acceleration", "lower")

    def get_acceleration_upper_limits(self) -> np.ndarray:
        """Acceleration upper limits (nv,)."""
        return self._stacked_limits("get_acceleration_upper_limits", "acceleration", "upper")

    def get_effort_lower_limits(self) -> np.ndarray:
        """-effort_limit per actuator (nu,)."""
        self._throw_if_not_finalized("get_effort_lower_limits")
        return -np.array([a.effort_limit() for a in self._actuators], dtype=np.float64)

    def get_effort_upper_limits(self) -> np.ndarray:
        """effort_limit per actuator (nu,)."""
        self._throw_if_not_finalized("get_effort_upper_limits")
        return np.array([a.effort_limit() for a in self._actuators], dtype=np.float64)

    def default_reflected_inertia(self) -> np.ndarray:
        """Per velocity, the actuators' reflected inertia ρ² Iᵣ plus the joints' armature
        (nv,): the one diagonal term every dynamics computation adds to M(q)."""
        self._throw_if_not_finalized("default_reflected_inertia")
        out = np.zeros(self._compiled.nv)
        for joint in self._joints:
            if joint.num_velocities():
                out[joint._v_start:joint._v_start + joint.num_velocities()] += joint._armature
        for actuator in self._actuators:
            out[actuator.joint()._v_start] += actuator.default_reflected_inertia()
        return out

    def get_bodies_welded_to(self, body: RigidBody) -> list[RigidBody]:
        """Bodies welded to `body` (directly or through other welds), `body` included."""
        self._throw_if_not_finalized("get_bodies_welded_to")
        self._check_element(body, self._bodies, "get_bodies_welded_to", "body")
        adjacency = defaultdict(list)
        for joint in self._joints:
            if joint.num_velocities() == 0:
                a, b = joint.parent_body().index(), joint.child_body().index()
                adjacency[a].append(b)
                adjacency[b].append(a)
        seen, stack = {body.index()}, [body.index()]
        while stack:
            for other in adjacency[stack.pop()]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
        return [self._bodies[b] for b in sorted(seen)]

    def is_anchored(self, body: RigidBody) -> bool:
        """True if `body` is the world or welded to it (only weld joints on its path to
        the world), as pydrake's ``IsAnchored``."""
        self._throw_if_not_finalized("is_anchored")
        self._check_element(body, self._bodies, "is_anchored", "body")
        return body.index() in {b.index() for b in self.get_bodies_welded_to(self._bodies[0])}

    def get_actuated_joint_indices(self, model_instance: int) -> list[int]:
        """Indices of the joints driven by `model_instance`'s actuators, in actuator
        order (pydrake's ``GetActuatedJointIndices``)."""
        mi = self._check_instance(model_instance, "get_actuated_joint_indices")
        return [a.joint().index() for a in self._actuators if a.model_instance() == mi]

    def get_topology_graphviz_string(self) -> str:
        """The tree's topology in Graphviz DOT: one node per body (grouped by model
        instance), one edge per joint labelled with its name and type."""
        self._throw_if_not_finalized("get_topology_graphviz_string")
        lines = ["digraph MultibodyPlant {"]
        for mi in range(self.num_model_instances()):
            name = self.get_model_instance_name(mi)
            lines.append(f'  subgraph "cluster_{mi}" {{ label="{name}";')
            for body in self._bodies:
                if body.model_instance() == mi:
                    lines.append(f'    "body{body.index()}" [label="{body.name()}"];')
            lines.append("  }")
        for joint in self._joints:
            lines.append(f'  "body{joint.parent_body().index()}" -> '
                         f'"body{joint.child_body().index()}" '
                         f'[label="{joint.name()} [{joint.type_name()}]"];')
        lines.append("}")
        return "\n".join(lines)

    def _coordinate_names(
        self, kind, model_instance, add_model_instance_prefix, always_add_suffix, func
    ):
        self._throw_if_not_finalized(func)
        if model_instance is not None:
            model_instance = self._check_instance(model_instance, func)
        if add_model_instance_prefix is None:
            add_model_instance_prefix = model_instance is None  # Drake's defaults
        n = self._compiled.nq if kind == "q" else self._compiled.nv
        names = [""] * n
        for joint in self._joints:
            if model_instance is not None and joint.model_instance() != model_instance:
                continue
            count = joint.num_positions() if kind == "q" else joint.num_velocities()
            start = joint._q_start if kind == "q" else joint._v_start
            suffix = joint.position_suffix if kind == "q" else joint.velocity_suffix
            prefix = (
                f"{self.get_model_instance_name(joint.model_instance())}_"
                if add_model_instance_prefix
                else ""
            )
            for i in range(count):
                tail = f"_{suffix(i)}" if always_add_suffix or count > 1 else ""
                names[start + i] = f"{prefix}{joint._coordinate_prefix}{tail}"
        if model_instance is None:
            return names
        indices = self._tables.q_indices if kind == "q" else self._tables.v_indices
        return [names[i] for i in indices[model_instance]]

    def get_position_names(
        self,
        model_instance: int | None = None,
        add_model_instance_prefix: bool | None = None,
        always_add_suffix: bool = True,
    ) -> list[str]:
        """Names of the positions, as Drake makes them: ``[<instance>_]<joint>[_<suffix>]``.

        The model-instance prefix is added by default for the whole plant and not for a
        single `model_instance` (Drake's defaults). Free bodies' coordinates use the
        body name (``<body>_qw``, ...). Single-coordinate joints get their suffix only
        with `always_add_suffix`.
        """
        return self._coordinate_names(
            "q", model_instance, add_model_instance_prefix, always_add_suffix, "get_position_names"
        )

    def get_velocity_names(
        self,
        model_instance: int | None = None,
        add_model_instance_prefix: bool | None = None,
        always_add_suffix: bool = True,
    ) -> list[str]:
        """Names of the velocities (see `get_position_names`)."""
        return self._coordinate_names(
            "v", model_instance, add_model_instance_prefix, always_add_suffix, "get_velocity_names"
        )

    def get_state_names(
        self, model_instance: int | None = None, add_model_instance_prefix: bool | None = None
    ) -> list[str]:
        """Position names followed by velocity names (suffixes always added)."""
        return self.get_position_names(
            model_instance, add_model_instance_prefix, True
        ) + self.get_velocity_names(model_instance, add_model_instance_prefix, True)

    def get_actuator_names(
        self, model_instance: int | None = None, add_model_instance_prefix: bool | None = None
    ) -> list[str]:
        """Actuator names in input order, ``[<instance>_]<actuator>``."""
        func = "get_actuator_names"
        self._throw_if_not_finalized(func)
        if model_instance is not None:
            model_instance = self._check_instance(model_instance, func)
        if add_model_instance_prefix is None:
            add_model_instance_prefix = model_instance is None
        return [
            (
                f"{self.get_model_instance_name(a.model_instance())}_"
                if add_model_instance_prefix
                else ""
            )
            + a.name()
            for a in self._actuators
            if model_instance is None or a.model_instance() == model_instance
        ]
