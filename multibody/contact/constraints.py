"""Bilateral constraint rows (coupler, distance, ball, weld) and the tendon constraints'
tables for the discrete solvers.

Each constraint contributes rows of a holonomic constraint g(q) = 0 with constraint
velocity ġ = J v: coupler q₀ - ρ q₁ - Δq (1 row), distance |p_WQ - p_WP| - d (1 row),
ball p_WQ - p_WP (3 rows, W axes), weld p_WQ - p_WP and the rotation vector of R_PQ
expressed in W (6 rows: angular rows use ω_WB - ω_WA). Rigid rows have infinite stiffness
(the solvers use a near-rigid regularization); a distance constraint may be compliant
(stiffness k, damping c). The rows are computed by the compiled
`multibody.contact.constraint_kernels.constraint_rows` from flat tables built here once.

Tendon constraints (Drake's SapTendonConstraint) are unilateral and their rows depend on
the state (a tendon that violates a limit at the step's start gives a row per finite
limit), so they are kept in tables of their own (`ConstraintRows.tendons`), which the
SAP-family step turns into rows after the joint-limit rows
(`constraint_kernels.tendon_rows`).
"""

import numpy as np

from merganser.multibody.contact.constraint_kernels import (
    BALL, COUPLER, DISTANCE, FLOAT_PARAMS, INT_PARAMS, ROWS_OF_KIND, TENDON_PARAMS, WELD,
    constraint_rows,
)
from merganser.multibody.tree.constraints import (
    BallConstraintSpec, CouplerConstraintSpec, DistanceConstraintSpec, TendonConstraintSpec,
    WeldConstraintSpec,
)

__all__ = ["ConstraintRows"]


class ConstraintRows:
    """The rows of a plant's constraints (see the module docstring).

    Parameters
    ----------
    core : PlantCore
        The finalized plant's core (`multibody.plant.plant_core`).
    specs : list
        The tree's constraint specs.

    Attributes
    ----------
    m : int
        Number of bilateral rows.
    kinds : ndarray, shape (n,), int64
        Kind of each of the n bilateral constraints (`constraint_kernels.COUPLER` ...).
    int_params : ndarray, shape (n, INT_PARAMS), int64
    float_params : ndarray, shape (n, FLOAT_PARAMS)
        The bilateral constraints' tables (layout in `multibody.contact.constraint_kernels`;
        points and poses expressed in their bodies' frames).
    tendons : tuple
        ``(tendon_start, tendon_qv, tendon_a, tendon_params)``, the tendon constraints'
        tables (layout in `multibody.contact.constraint_kernels`; empty without tendons).
    tendon_max_rows : int
        The most rows the tendons give in a step (each tendon's finite limits).
    """

    def __init__(self, core, specs):
        self.core = core
        self._positions = [i for i, spec in enumerate(specs)
                           if not isinstance(spec, TendonConstraintSpec)]
        self._tendon_positions = [i for i, spec in enumerate(specs)
                                  if isinstance(spec, TendonConstraintSpec)]
        self._table_index = {p: k for k, p in enumerate(self._positions)}
        self._tendon_specs = [specs[i] for i in self._tendon_positions]
        n = len(self._positions)
        self.kinds = np.zeros(n, np.int64)
        self.int_params = np.zeros((n, INT_PARAMS), np.int64)
        self.float_params = np.zeros((n, FLOAT_PARAMS))
        for k, i in enumerate(self._positions):
            self._write(k, specs[i])
        self.m = int(sum(ROWS_OF_KIND[k] for k in self.kinds))
        self._set_tendons(self._tendon_specs)

    def _set_tendons(self, specs):
        """The tendon tables (`tendons`, `tendon_max_rows`) of tendon `specs`."""
        plant = self.core.plant
        start = np.zeros(len(specs) + 1, np.int64)
        qv, a = [], []
        params = np.zeros((len(specs), TENDON_PARAMS))
        for t, spec in enumerate(specs):
            for joint_index, coefficient in zip(spec.joints, spec.a):
                joint = plant.get_joint(joint_index)
                qv.append((joint.position_start(), joint.velocity_start()))
                a.append(coefficient)
            start[t + 1] = len(a)
            params[t] = (spec.offset, spec.lower_limit, spec.upper_limit, spec.stiffness,
                         spec.damping)
        self.tendons = (start, np.array(qv, np.int64).reshape(-1, 2), np.array(a, float),
                        params)
        self.tendon_max_rows = int(sum(spec.num_finite_limits() for spec in specs))

    def _write(self, i, spec):
        """Fill entry `i` of the tables from `spec`."""
        plant, node_of_body = self.core.plant, self.core.tables.node_of_body
        ints, floats = self.int_params[i], self.float_params[i]
        ints[:], floats[:] = 0, 0.0
        if isinstance(spec, CouplerConstraintSpec):
            j0, j1 = plant.get_joint(spec.joint0_index), plant.get_joint(spec.joint1_index)
            kind = COUPLER
            ints[:] = (j0.position_start(), j1.position_start(), j0.velocity_start(),
                       j1.velocity_start())
            floats[:2] = spec.gear_ratio, spec.offset
        elif isinstance(spec, (DistanceConstraintSpec, BallConstraintSpec)):
            ints[:2] = node_of_body[spec.body_A_index], node_of_body[spec.body_B_index]
            floats[0:3] = spec.p_AP
            if isinstance(spec, DistanceConstraintSpec):
                kind = DISTANCE
                floats[3:6] = spec.p_BQ
                floats[6:9] = spec.distance, spec.stiffness, spec.damping
            else:
                kind = BALL
                p_BQ = spec.p_BQ
                floats[3:6] = self._default_point_on_B(spec) if p_BQ is None else p_BQ
        elif isinstance(spec, WeldConstraintSpec):
            kind = WELD
            ints[:2] = node_of_body[spec.body_A_index], node_of_body[spec.body_B_index]
            for off, X in ((0, spec.X_AP), (12, spec.X_BQ)):
                X = np.asarray(X, dtype=float)
                floats[off:off + 9] = X[:3, :3].reshape(9)
                floats[off + 9:off + 12] = X[:3, 3]
        else:
            raise TypeError(f"ConstraintRows: unknown constraint spec {type(spec).__name__}")
        self.kinds[i] = kind

    def with_distance_params(self, params):
        """These rows with the distance constraints of ``params`` (``{position in the spec
        order: DistanceConstraintSpec}``, a Context's own values) rewritten: this object
        when ``params`` is empty, else a copy."""
        if not params:
            return self
        other = ConstraintRows.__new__(ConstraintRows)
        other.__dict__.update(self.__dict__)
        other.int_params, other.float_params = self.int_params.copy(), self.float_params.copy()
        for i, spec in params.items():
            other._write(self._table_index[i], spec)
        return other

    def active(self, flags):
        """The rows of the constraints whose flag is set (``flags``: bool (n,) or None,
        in spec order): this object when all are set, else a copy over the subset."""
        if flags is None or flags.all():
            return self
        subset = ConstraintRows.__new__(ConstraintRows)
        subset.__dict__.update(self.__dict__)
        own = np.asarray(flags, dtype=bool)[self._positions]
        subset.kinds = np.ascontiguousarray(self.kinds[own])
        subset.int_params = np.ascontiguousarray(self.int_params[own])
        subset.float_params = np.ascontiguousarray(self.float_params[own])
        subset.m = int(sum(ROWS_OF_KIND[k] for k in subset.kinds))
        subset._set_tendons([spec for spec, p in zip(self._tendon_specs, self._tendon_positions)
                             if flags[p]])
        return subset

    def _default_point_on_B(self, spec):
        """Q on B where P is in the default configuration (Drake's rule)."""
        core = self.core
        X = core.dyn.forward_kinematics(core.default_positions())
        n = core.tables.node_of_body
        X_WA, X_WB = X[n[spec.body_A_index]], X[n[spec.body_B_index]]
        p_WP = X_WA[:3, :3] @ spec.p_AP + X_WA[:3, 3]
        return X_WB[:3, :3].T @ (p_WP - X_WB[:3, 3])

    def fill(self, q, ws, J, g, stiffness, damping):
        """Write the rows into J (m, nv) (zeroed here), g (m), stiffness and damping (m).

        The workspace `ws` must hold the poses of `q` (the contact Jacobian's pose pass).
        """
        constraint_rows(self.core.ip, ws, self.kinds, self.int_params, self.float_params, q,
                        J, g, stiffness, damping)
