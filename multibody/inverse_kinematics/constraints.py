"""Kinematic constraints and costs of `InverseKinematics`, as functions of q with gradients.

A constraint is a vector function g(q) (m,) with bounds lb <= g(q) <= ub; a cost is a
scalar c(q). Both are evaluated on a plant context that already holds q and return their
gradients with respect to q, built from the plant's Jacobians with respect to q̇
(``JacobianWrtVariable.kQDot``), so quaternion coordinates are handled correctly.

Formulations (Drake's, with the orientation constraint's exact case made regular):

- position: p_AQ(q) in the box [p_AQ_lower, p_AQ_upper] for a point Q fixed to frame B;
- orientation: the angle θ between frames A and B satisfies θ <= θ_bound, written
  tr(R_AB) >= 1 + 2 cos θ_bound; for θ_bound = 0 the equality log(R_AB) = θ k = 0 (the
  rotation vector, 3 rows) is used instead, whose gradient does not vanish at the
  solution;
- gaze target: the point T fixed to B lies in the cone of half angle α with apex S fixed
  to A and axis n_A: n̂_A · p_ST_A - cos α |p_ST_A| >= 0;
- minimum distance: Σ_pairs φ((d_i - d_inf) / δ) / φ(-1) <= 1 with the exponentially
  smoothed hinge φ(x) = -x e^(1/x) (x < 0), d_inf = bound + δ (δ the influence offset);
- position cost (p_AQ - p_AP)ᵀ C (p_AQ - p_AP); orientation cost c (1 - cos θ);
  quadratic error cost (q - q_d)ᵀ W (q - q_d).
"""

import numpy as np

from merganser.multibody.inverse_kinematics._arguments import (
    as_rotation_matrix,
    as_vector,
    check_frame,
    check_positive,
    rotation_vector,
)
from merganser.multibody.plant import JacobianWrtVariable

__all__ = [
    "GazeTargetConstraint",
    "IkConstraint",
    "IkCost",
    "MinimumDistanceLowerBoundConstraint",
    "OrientationConstraint",
    "OrientationCost",
    "PositionConstraint",
    "PositionCost",
    "QuadraticErrorCost",
    "UnitQuaternionConstraint",
]

_kQDot = JacobianWrtVariable.kQDot


def _vee_skew(R):
    """vee((R - Rᵀ) / 2) (3,), equal to sin θ k for a rotation θ about k."""
    return 0.5 * np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])


def _square_matrix(fn, arg, value, n, *, symmetric_psd=True):
    try:
        M = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: {arg} must be a matrix of numbers, got "
                        f"{type(value).__name__}") from None
    if M.ndim == 0:
        M = M * np.eye(n)
    if M.shape != (n, n):
        raise ValueError(f"{fn}: {arg} has shape {M.shape}, expected ({n}, {n})")
    if symmetric_psd:
        if not np.allclose(M, M.T, atol=1e-12 * max(1.0, np.abs(M).max())):
            raise ValueError(f"{fn}: {arg} must be symmetric, got {M.tolist()}")
        if np.linalg.eigvalsh(M).min() < -1e-12 * max(1.0, np.abs(M).max()):
            raise ValueError(f"{fn}: {arg} must be positive semidefinite, got eigenvalues "
                             f"{np.linalg.eigvalsh(M)}")
    return M


class IkConstraint:
    """Base of the constraints: lb <= g(q) <= ub with g (m,).

    Subclasses set ``self._lb`` and ``self._ub`` (m,) and implement
    ``evaluate(plant, context, q) -> (g (m,), dg_dq (m, nq))``. ``kinematic`` is True
    when g depends on q through the kinematics (evaluated at normalized quaternions), so
    the solver chains its gradient through the normalization; False when g reads q as is.
    """

    description = "constraint"
    kinematic = True

    def num_constraints(self):
        """m, the number of rows of g."""
        return len(self._lb)

    def lower_bound(self):
        """lb (m,)."""
        return self._lb.copy()

    def upper_bound(self):
        """ub (m,)."""
        return self._ub.copy()

    def evaluate(self, plant, context, q):
        """(g (m,), dg/dq (m, nq)) at the positions held by `context` (q is the same)."""
        raise NotImplementedError

    def violation(self, g):
        """Largest amount by which g (m,) leaves [lb, ub] (0 when satisfied)."""
        if len(g) == 0:
            return 0.0
        return float(max(0.0, np.max(self._lb - g), np.max(g - self._ub)))


class IkCost:
    """Base of the costs: ``evaluate(plant, context, q) -> (c, dc_dq (nq,))``
    (``kinematic`` as for `IkConstraint`)."""

    description = "cost"
    kinematic = True

    def evaluate(self, plant, context, q):
        raise NotImplementedError


class PositionConstraint(IkConstraint):
    """p_AQ_lower <= p_AQ(q) <= p_AQ_upper for a point Q fixed to frame B.

    Parameters
    ----------
    plant : MultibodyPlant
    frame_A : Frame
        Frame in which the position is measured and expressed.
    p_AQ_lower, p_AQ_upper : array_like, shape (3,)
        Bounds (m); entries may be ±inf.
    frame_B : Frame
        Frame to which Q is fixed.
    p_BQ : array_like, shape (3,)
        Position of Q in B (m).
    """

    description = "position constraint"

    def __init__(self, plant, frame_A, p_AQ_lower, p_AQ_upper, frame_B, p_BQ):
        fn = "add_position_constraint"
        self._frame_A = check_frame(fn, "frame_A", frame_A)
        self._frame_B = check_frame(fn, "frame_B", frame_B)
        self._p_BQ = as_vector(fn, "p_BQ", p_BQ, 3).reshape(3, 1)
        lb = np.array(p_AQ_lower, dtype=np.float64)
        ub = np.array(p_AQ_upper, dtype=np.float64)
        for arg, value in (("p_AQ_lower", lb), ("p_AQ_upper", ub)):
            if value.shape != (3,) or np.any(np.isnan(value)):
                raise ValueError(f"{fn}: {arg} must have shape (3,) without NaN, got {value}")
        if np.any(lb > ub):
            raise ValueError(f"{fn}: p_AQ_lower {lb} exceeds p_AQ_upper {ub}")
        self._lb, self._ub = lb, ub

    def evaluate(self, plant, context, q):
        p = plant.calc_points_positions(context, self._frame_B, self._p_BQ, self._frame_A)[:, 0]
        J = plant.calc_jacobian_translational_velocity(context, _kQDot, self._frame_B,
                                                       self._p_BQ[:, 0], self._frame_A,
                                                       self._frame_A)
        return p, J


class _RelativeOrientation:
    """R_AB(q) = R_AbarAᵀ R_AbarBbar(q) R_BbarB and the Jacobian of w_AB_A w.r.t. q."""

    def __init__(self, fn, frame_Abar, R_AbarA, frame_Bbar, R_BbarB):
        self._frame_Abar = check_frame(fn, "frame_Abar", frame_Abar)
        self._frame_Bbar = check_frame(fn, "frame_Bbar", frame_Bbar)
        self._R_AAbar = as_rotation_matrix(fn, "R_AbarA", R_AbarA).T
        self._R_BbarB = as_rotation_matrix(fn, "R_BbarB", R_BbarB)

    def evaluate(self, plant, context):
        R_AbarBbar = plant.calc_relative_transform(context, self._frame_Abar,
                                                   self._frame_Bbar).rotation().matrix()
        R_AB = self._R_AAbar @ R_AbarBbar @ self._R_BbarB
        Jw = plant.calc_jacobian_angular_velocity(context, _kQDot, self._frame_Bbar,
                                                  self._frame_Abar, self._frame_Abar)
        return R_AB, self._R_AAbar @ Jw


class OrientationConstraint(IkConstraint):
    """The angle between frames A and B is at most θ_bound.

    Frame A is fixed to frame Abar with orientation R_AbarA and frame B to Bbar with
    R_BbarB (Drake's AddOrientationConstraint).

    Parameters
    ----------
    plant : MultibodyPlant
    frame_Abar : Frame
    R_AbarA : RotationMatrix or array_like, shape (3, 3)
    frame_Bbar : Frame
    R_BbarB : RotationMatrix or array_like, shape (3, 3)
    theta_bound : float
        Largest allowed angle (rad), in [0, π].
    """

    description = "orientation constraint"

    def __init__(self, plant, frame_Abar, R_AbarA, frame_Bbar, R_BbarB, theta_bound):
        fn = "add_orientation_constraint"
        self._rel = _RelativeOrientation(fn, frame_Abar, R_AbarA, frame_Bbar, R_BbarB)
        theta = check_positive(fn, "theta_bound", theta_bound, allow_zero=True)
        if theta > np.pi:
            raise ValueError(f"{fn}: theta_bound must be in [0, π], got {theta_bound!r}")
        self._exact = theta == 0.0
        if self._exact:
            self._lb, self._ub = np.zeros(3), np.zeros(3)
        else:
            self._lb = np.array([1.0 + 2.0 * np.cos(theta)])
            self._ub = np.array([np.inf])

    def evaluate(self, plant, context, q):
        R, Jw_A = self._rel.evaluate(plant, context)
        if not self._exact:
            # d tr(R) = tr([w]× R) = -2 w · vee((R - Rᵀ) / 2)
            return np.array([np.trace(R)]), (-2.0 * _vee_skew(R) @ Jw_A).reshape(1, -1)
        r = rotation_vector(R)
        return r, _inverse_left_jacobian(r) @ Jw_A


def _inverse_left_jacobian(r):
    """J_l⁻¹(r) (3, 3): ṙ = J_l⁻¹(r) w for R = exp([r]×) with Ṙ Rᵀ = [w]×."""
    theta = np.linalg.norm(r)
    K = np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])
    if theta < 1e-6:
        return np.eye(3) - 0.5 * K + K @ K / 12.0
    s = max(np.sin(theta), 1e-9)
    return (np.eye(3) - 0.5 * K
            + (1.0 / theta**2 - (1.0 + np.cos(theta)) / (2.0 * theta * s)) * K @ K)


class GazeTargetConstraint(IkConstraint):
    """Point T fixed to B lies in the cone with apex S fixed to A, axis n_A, half angle α.

    Parameters
    ----------
    plant : MultibodyPlant
    frame_A : Frame
    p_AS : array_like, shape (3,)
        Apex S of the cone, in A (m).
    n_A : array_like, shape (3,)
        Cone axis in A (normalized here; must be nonzero).
    frame_B : Frame
    p_BT : array_like, shape (3,)
        Target point T, in B (m).
    cone_half_angle : float
        α in [0, π] (rad).
    """

    description = "gaze target constraint"

    def __init__(self, plant, frame_A, p_AS, n_A, frame_B, p_BT, cone_half_angle):
        fn = "add_gaze_target_constraint"
        self._frame_A = check_frame(fn, "frame_A", frame_A)
        self._frame_B = check_frame(fn, "frame_B", frame_B)
        self._p_AS = as_vector(fn, "p_AS", p_AS, 3)
        n = as_vector(fn, "n_A", n_A, 3)
        if np.linalg.norm(n) < 1e-12:
            raise ValueError(f"{fn}: n_A must be a nonzero vector, got {n}")
        self._n_A = n / np.linalg.norm(n)
        self._p_BT = as_vector(fn, "p_BT", p_BT, 3)
        alpha = check_positive(fn, "cone_half_angle", cone_half_angle, allow_zero=True)
        if alpha > np.pi:
            raise ValueError(f"{fn}: cone_half_angle must be in [0, π], got {cone_half_angle!r}")
        self._cos = np.cos(alpha)
        self._lb, self._ub = np.zeros(1), np.array([np.inf])

    def evaluate(self, plant, context, q):
        p_AT = plant.calc_points_positions(context, self._frame_B, self._p_BT.reshape(3, 1),
                                           self._frame_A)[:, 0]
        J = plant.calc_jacobian_translational_velocity(context, _kQDot, self._frame_B,
                                                       self._p_BT, self._frame_A, self._frame_A)
        p_ST = p_AT - self._p_AS
        norm = np.linalg.norm(p_ST)
        unit = p_ST / norm if norm > 0.0 else self._n_A
        g = self._n_A @ p_ST - self._cos * norm
        return np.array([g]), ((self._n_A - self._cos * unit) @ J).reshape(1, -1)


def _smoothed_hinge(x):
    """φ(x) = -x e^(1/x) for x < 0 (0 otherwise) and its derivative."""
    if x >= 0.0:
        return 0.0, 0.0
    e = np.exp(1.0 / x)
    return -x * e, e * (1.0 / x - 1.0)


class MinimumDistanceLowerBoundConstraint(IkConstraint):
    """Every pair of collision geometries is at least `bound` apart (smoothed, as Drake).

    Needs the plant registered with a SceneGraph, its ``geometry_query`` input connected
    in a diagram, and the IK context taken from that diagram's context; SceneGraph's
    QueryObject provides the signed distances and witness points.

    Parameters
    ----------
    plant : MultibodyPlant
    context : Context
        The plant context (of a diagram) that `InverseKinematics` will modify.
    bound : float
        Minimum signed distance (m).
    influence_distance_offset : float
        δ > 0 (m): pairs farther than bound + δ do not contribute.

    Raises
    ------
    NotImplementedError
        When SceneGraph's signed-distance query or the geometry-to-body map is not
        available in this build.
    RuntimeError
        When the plant's geometry_query input is not connected in `context`.
    """

    description = "minimum distance constraint"

    def __init__(self, plant, context, bound, influence_distance_offset=0.01):
        fn = "add_minimum_distance_lower_bound_constraint"
        _require_distance_queries(fn, plant, context)
        try:
            self._bound = float(bound)
        except (TypeError, ValueError):
            raise TypeError(f"{fn}: bound must be a number, got {type(bound).__name__}") from None
        if not np.isfinite(self._bound):
            raise ValueError(f"{fn}: bound must be finite, got {bound!r}")
        self._offset = check_positive(fn, "influence_distance_offset", influence_distance_offset)
        self._scale = 1.0 / _smoothed_hinge(-1.0)[0]
        self._lb, self._ub = np.array([-np.inf]), np.array([1.0])

    def evaluate(self, plant, context, q):
        query = plant.get_geometry_query_input_port().eval(context)
        inspector = query.inspector()
        d_influence = self._bound + self._offset
        world = plant.world_frame()
        penalty, grad = 0.0, np.zeros(plant.num_positions())
        for pair in query.compute_signed_distance_pairwise_closest_points(d_influence):
            phi, dphi = _smoothed_hinge((pair.distance - d_influence) / self._offset)
            if phi == 0.0:
                continue
            J = []
            for geometry_id, p_GC in ((pair.id_A, pair.p_ACa), (pair.id_B, pair.p_BCb)):
                body = plant.get_body_from_frame_id(inspector.get_frame_id(geometry_id))
                p_BoC_B = inspector.get_pose_in_frame(geometry_id) @ np.asarray(p_GC)
                J.append(plant.calc_jacobian_translational_velocity(
                    context, _kQDot, body.body_frame(), p_BoC_B, world, world))
            penalty += phi
            grad += dphi / self._offset * (np.asarray(pair.nhat_BA_W) @ (J[0] - J[1]))
        return np.array([penalty * self._scale]), (grad * self._scale).reshape(1, -1)


def _require_distance_queries(fn, plant, context):
    """Raise NotImplementedError naming what is missing for distance queries."""
    try:
        from merganser.geometry import QueryObject
    except ImportError:
        raise NotImplementedError(
            f"{fn}: needs geometry.QueryObject.compute_signed_distance_pairwise_closest_points "
            f"(SceneGraph proximity queries), which this build does not provide yet") from None
    missing = [what for owner, name, what in (
        (QueryObject, "compute_signed_distance_pairwise_closest_points",
         "geometry.QueryObject.compute_signed_distance_pairwise_closest_points"),
        (QueryObject, "inspector", "geometry.QueryObject.inspector"),
        (plant, "get_body_from_frame_id",
         "MultibodyPlant.get_body_from_frame_id (the plant's SceneGraph registration)"))
        if not hasattr(owner, name)]
    if missing:
        raise NotImplementedError(f"{fn}: needs {', '.join(missing)}, which this build does "
                                  f"not provide yet")
    if not plant.get_geometry_query_input_port().has_value(context):
        raise RuntimeError(
            f"{fn}: the plant's geometry_query input is not connected in the IK context; "
            f"register the plant with a SceneGraph, connect them in a diagram and pass "
            f"plant.get_my_context_from_root(diagram_context) as plant_context")


class UnitQuaternionConstraint(IkConstraint):
    """|q[s:s+4]|² = 1 for the quaternion of a floating joint starting at index s."""

    description = "unit quaternion constraint"
    kinematic = False

    def __init__(self, start):
        self._start = int(start)
        self._lb, self._ub = np.ones(1), np.ones(1)

    def evaluate(self, plant, context, q):
        s = self._start
        J = np.zeros((1, len(q)))
        J[0, s:s + 4] = 2.0 * q[s:s + 4]
        return np.array([q[s:s + 4] @ q[s:s + 4]]), J


class PositionCost(IkCost):
    """(p_AQ - p_AP)ᵀ C (p_AQ - p_AP) for a point Q fixed to frame B.

    Parameters
    ----------
    plant : MultibodyPlant
    frame_A : Frame
    p_AP : array_like, shape (3,)
        Desired position P, in A (m).
    frame_B : Frame
    p_BQ : array_like, shape (3,)
        Point Q in B (m).
    C : array_like, shape (3, 3)
        Symmetric positive semidefinite weight (a scalar means C I).
    """

    description = "position cost"

    def __init__(self, plant, frame_A, p_AP, frame_B, p_BQ, C):
        fn = "add_position_cost"
        self._constraint = PositionConstraint(plant, frame_A, np.full(3, -np.inf),
                                              np.full(3, np.inf), frame_B, p_BQ)
        self._p_AP = as_vector(fn, "p_AP", p_AP, 3)
        self._C = _square_matrix(fn, "C", C, 3)

    def evaluate(self, plant, context, q):
        p, J = self._constraint.evaluate(plant, context, q)
        e = p - self._p_AP
        Ce = self._C @ e
        return float(e @ Ce), 2.0 * Ce @ J


class OrientationCost(IkCost):
    """c (1 - cos θ), θ the angle between frames A and B (see `OrientationConstraint`)."""

    description = "orientation cost"

    def __init__(self, plant, frame_Abar, R_AbarA, frame_Bbar, R_BbarB, c):
        fn = "add_orientation_cost"
        self._rel = _RelativeOrientation(fn, frame_Abar, R_AbarA, frame_Bbar, R_BbarB)
        self._c = check_positive(fn, "c", c, allow_zero=True)

    def evaluate(self, plant, context, q):
        R, Jw_A = self._rel.evaluate(plant, context)
        # 1 - cos θ = (3 - tr R) / 2
        return (self._c * 0.5 * (3.0 - np.trace(R)),
                self._c * (_vee_skew(R) @ Jw_A))


class QuadraticErrorCost(IkCost):
    """(q - q_desired)ᵀ W (q - q_desired)."""

    description = "quadratic error cost"
    kinematic = False

    def __init__(self, plant, W, q_desired):
        fn = "add_quadratic_error_cost"
        nq = plant.num_positions()
        self._W = _square_matrix(fn, "W", W, nq)
        self._q_desired = as_vector(fn, "q_desired", q_desired, nq)

    def evaluate(self, plant, context, q):
        e = q - self._q_desired
        We = self._W @ e
        return float(e @ We), 2.0 * We
