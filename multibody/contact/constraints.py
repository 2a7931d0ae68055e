"""Bilateral constraint rows (coupler, distance, ball, weld) for the discrete solvers.

Each constraint contributes rows of a holonomic constraint g(q) = 0 with constraint
velocity ġ = J v: coupler q₀ - ρ q₁ - Δq (1 row), distance |p_WQ - p_WP| - d (1 row),
ball p_WQ - p_WP (3 rows, W axes), weld p_WQ - p_WP and the rotation vector of R_PQ
expressed in W (6 rows: angular rows use ω_WB - ω_WA). Rigid rows have infinite stiffness
(the solvers use a near-rigid regularization); a distance constraint may be compliant
(stiffness k, damping c). The rows are computed by the compiled
`multibody.contact.constraint_kernels.constraint_rows` from flat tables built here once.
"""

import numpy as np

from merganser.multibody.contact.constraint_kernels import (
    BALL, COUPLER, DISTANCE, FLOAT_PARAMS, INT_PARAMS, ROWS_OF_KIND, WELD, constraint_rows,
)
from merganser.multibody.tree.constraints import (
    BallConstraintSpec, CouplerConstraintSpec, DistanceConstraintSpec, WeldConstraintSpec,
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
        Number of rows.
    kinds : ndarray, shape (n,), int64
        Kind of each of the n constraints (`constraint_kernels.COUPLER` ...).
    int_params : ndarray, shape (n, INT_PARAMS), int64
    float_params : ndarray, shape (n, FLOAT_PARAMS)
        The constraints' tables (layout in `multibody.contact.constraint_kernels`; points
        and poses expressed in their bodies' frames).
    """

    def __init__(self, core, specs):
        self.core = core
        n = len(specs)
        self.kinds = np.zeros(n, np.int64)
        self.int_params = np.zeros((n, INT_PARAMS), np.int64)
        self.float_params = np.zeros((n, FLOAT_PARAMS))
        for i, spec in enumerate(specs):
            self._write(i, spec)
        self.m = int(sum(ROWS_OF_KIND[k] for k in self.kinds))

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
        other.core, other.kinds, other.m = self.core, self.kinds, self.m
        other.int_params, other.float_params = self.int_params.copy(), self.float_params.copy()
        for i, spec in params.items():
            other._write(i, spec)
        return other

    def active(self, flags):
        """The rows of the constraints whose flag is set (``flags``: bool (n,) or None,
        in spec order): this object when all are set, else a copy over the subset."""
        if flags is None or flags.all():
            return self
        subset = ConstraintRows.__new__(ConstraintRows)
        subset.core = self.core
        subset.kinds = np.ascontiguousarray(self.kinds[flags])
        subset.int_params = np.ascontiguousarray(self.int_params[flags])
        subset.float_params = np.ascontiguousarray(self.float_params[flags])
        subset.m = int(sum(ROWS_OF_KIND[k] for k in subset.kinds))
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
