"""Bilateral constraint rows (coupler, distance, ball, weld) for the discrete solvers.

Each constraint contributes rows of a holonomic constraint g(q) = 0 with constraint
velocity ġ = J v: coupler q₀ - ρ q₁ - Δq (1 row), distance |p_WQ - p_WP| - d (1 row),
ball p_WQ - p_WP (3 rows, W axes), weld p_WQ - p_WP and the rotation vector of R_PQ
expressed in W (6 rows: angular rows use ω_WB - ω_WA). Rigid rows have infinite stiffness
(the solvers use a near-rigid regularization); a distance constraint may be compliant
(stiffness k, damping c).
"""

import numpy as np

from multibody.contact.contact_kernels import add_angular_jacobian, add_point_jacobian
from multibody.kernels.layout import WS_PW, WS_RW
from multibody.tree.constraints import (
    BallConstraintSpec, CouplerConstraintSpec, DistanceConstraintSpec, WeldConstraintSpec,
)

__all__ = ["ConstraintRows"]

_I3 = np.eye(3)


def _rotation_vector(R):
    """Axis-angle vector θ k of a rotation matrix (3,)."""
    c = np.clip(0.5 * (np.trace(R) - 1.0), -1.0, 1.0)
    angle = np.arccos(c)
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    s = np.sin(angle)
    if s < 1e-9:
        if c > 0.0:
            return 0.5 * w
        # angle ~ pi
        k = np.sqrt(np.maximum((np.diag(R) + 1.0) / 2.0, 0.0))
        i = int(np.argmax(k))
        k[(i + 1) % 3] = np.copysign(k[(i + 1) % 3], R[i, (i + 1) % 3])
        k[(i + 2) % 3] = np.copysign(k[(i + 2) % 3], R[i, (i + 2) % 3])
        return angle * k / np.linalg.norm(k)
    return angle / (2.0 * s) * w


class ConstraintRows:
    """The rows of a plant's constraints (see the module docstring).

    Parameters
    ----------
    plant : MultibodyPlant
        Finalized.
    specs : list
        The tree's constraint specs.
    ip, fp, ws : ndarray
        Packed model and workspace of the contact kernels (``ws`` must hold the poses of
        the state when `fill` is called).
    """

    def __init__(self, plant, specs, ip, fp, ws):
        self.plant = plant
        self.ip, self.fp, self.ws = ip, fp, ws
        node_of_body = plant._tables.node_of_body
        self.items = []
        m = 0
        for spec in specs:
            if isinstance(spec, CouplerConstraintSpec):
                j0, j1 = plant.get_joint(spec.joint0_index), plant.get_joint(spec.joint1_index)
                item = ("coupler", j0.position_start(), j1.position_start(),
                        j0.velocity_start(), j1.velocity_start(), spec.gear_ratio, spec.offset)
                m += 1
            elif isinstance(spec, DistanceConstraintSpec):
                item = ("distance", node_of_body[spec.body_A_index], spec.p_AP,
                        node_of_body[spec.body_B_index], spec.p_BQ, spec.distance,
                        spec.stiffness, spec.damping)
                m += 1
            elif isinstance(spec, BallConstraintSpec):
                p_BQ = spec.p_BQ
                if p_BQ is None:
                    p_BQ = self._default_point_on_B(spec)
                item = ("ball", node_of_body[spec.body_A_index], spec.p_AP,
                        node_of_body[spec.body_B_index], np.asarray(p_BQ, dtype=float))
                m += 3
            elif isinstance(spec, WeldConstraintSpec):
                item = ("weld", node_of_body[spec.body_A_index], spec.X_AP,
                        node_of_body[spec.body_B_index], spec.X_BQ)
                m += 6
            else:
                raise TypeError(f"ConstraintRows: unknown constraint spec {type(spec).__name__}")
            self.items.append(item)
        self.m = m

    def _default_point_on_B(self, spec):
        """Q on B where P is in the default configuration (Drake's rule)."""
        plant = self.plant
        q = plant.get_default_positions()
        X = plant._dyn.forward_kinematics(np.ascontiguousarray(q, dtype=float))
        n = plant._tables.node_of_body
        X_WA, X_WB = X[n[spec.body_A_index]], X[n[spec.body_B_index]]
        p_WP = X_WA[:3, :3] @ spec.p_AP + X_WA[:3, 3]
        return X_WB[:3, :3].T @ (p_WP - X_WB[:3, 3])

    def _pose(self, node):
        ws = self.ws
        return ws[node, WS_RW:WS_RW + 9].reshape(3, 3), ws[node, WS_PW:WS_PW + 3]

    def fill(self, q, J, g, stiffness, damping):
        """Write the rows into J (m, nv) (zeroed here), g (m), stiffness and damping (m).

        The workspace must hold the poses of `q` (the contact Jacobian's pose pass).
        """
        ip, ws = self.ip, self.ws
        J[:] = 0.0
        stiffness[:] = np.inf
        damping[:] = 0.0
        r = 0
        for item in self.items:
            kind = item[0]
            if kind == "coupler":
                _, qs0, qs1, vs0, vs1, rho, offset = item
                J[r, vs0] += 1.0
                J[r, vs1] -= rho
                g[r] = q[qs0] - rho * q[qs1] - offset
                r += 1
            elif kind == "distance":
                _, na, p_AP, nb, p_BQ, dist, k, c = item
                R_A, o_A = self._pose(na)
                R_B, o_B = self._pose(nb)
                p_WP, p_WQ = o_A + R_A @ p_AP, o_B + R_B @ p_BQ
                u = p_WQ - p_WP
                length = np.linalg.norm(u)
                u = u / length if length > 1e-12 else np.array([0.0, 0.0, 1.0])
                tmp = np.zeros((3, J.shape[1]))
                add_point_jacobian(ws, ip, nb, p_WQ[0], p_WQ[1], p_WQ[2], 1.0, _I3, tmp, 0)
                add_point_jacobian(ws, ip, na, p_WP[0], p_WP[1], p_WP[2], -1.0, _I3, tmp, 0)
                J[r] = u @ tmp
                g[r] = length - dist
                stiffness[r] = k
                damping[r] = c
                r += 1
            elif kind == "ball":
                _, na, p_AP, nb, p_BQ = item
                R_A, o_A = self._pose(na)
                R_B, o_B = self._pose(nb)
                p_WP, p_WQ = o_A + R_A @ p_AP, o_B + R_B @ p_BQ
                add_point_jacobian(ws, ip, nb, p_WQ[0], p_WQ[1], p_WQ[2], 1.0, _I3, J, r)
                add_point_jacobian(ws, ip, na, p_WP[0], p_WP[1], p_WP[2], -1.0, _I3, J, r)
                g[r:r + 3] = p_WQ - p_WP
                r += 3
            else:
                _, na, X_AP, nb, X_BQ = item
                R_A, o_A = self._pose(na)
                R_B, o_B = self._pose(nb)
                p_WP = o_A + R_A @ X_AP[:3, 3]
                p_WQ = o_B + R_B @ X_BQ[:3, 3]
                R_WP, R_WQ = R_A @ X_AP[:3, :3], R_B @ X_BQ[:3, :3]
                add_point_jacobian(ws, ip, nb, p_WQ[0], p_WQ[1], p_WQ[2], 1.0, _I3, J, r)
                add_point_jacobian(ws, ip, na, p_WP[0], p_WP[1], p_WP[2], -1.0, _I3, J, r)
                g[r:r + 3] = p_WQ - p_WP
                add_angular_jacobian(ws, ip, nb, 1.0, J, r + 3)
                add_angular_jacobian(ws, ip, na, -1.0, J, r + 3)
                g[r + 3:r + 6] = R_WP @ _rotation_vector(R_WP.T @ R_WQ)
                r += 6
