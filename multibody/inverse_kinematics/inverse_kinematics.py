"""InverseKinematics: optimization-based inverse kinematics over the positions q of a plant.

Constraints and costs are added with ``add_*`` methods (Drake's InverseKinematics names);
``solve(q_initial)`` minimizes the sum of the costs subject to the constraints and, by
default, the joint position limits, with scipy's SLSQP (or trust-constr). Every function
is evaluated with its exact gradient from the plant's Jacobians with respect to q̇.
Quaternion coordinates of floating joints get a unit-norm constraint and components
bounded to [-1, 1]; kinematics is evaluated at the normalized quaternion.
"""

import warnings

import numpy as np

from merganser.multibody.inverse_kinematics._arguments import (
    as_vector,
    check_plant,
    check_positive,
    normalize_quaternions,
    quaternion_position_starts,
)
from merganser.multibody.inverse_kinematics.constraints import (
    GazeTargetConstraint,
    MinimumDistanceLowerBoundConstraint,
    OrientationConstraint,
    OrientationCost,
    PositionConstraint,
    PositionCost,
    QuadraticErrorCost,
    UnitQuaternionConstraint,
)
from merganser.multibody.inverse_kinematics.result import InverseKinematicsResult

__all__ = ["InverseKinematics"]

_METHODS = ("SLSQP", "trust-constr")


class _Evaluator:
    """Evaluates every constraint and cost at q once (scipy asks for f and ∇f separately)."""

    def __init__(self, ik):
        self._ik = ik
        self._key = None
        self.regularization = None

    def at(self, x):
        key = x.tobytes()
        if key != self._key:
            ik = self._ik
            q = normalize_quaternions(x, ik._quaternion_starts)
            ik._plant.set_positions(ik._context, q)
            P = ik._normalization_jacobian(x)
            g, J, cost, grad = [], [], 0.0, np.zeros(len(x))
            for c in ik._constraints:
                gi, Ji = c.evaluate(ik._plant, ik._context, x)
                g.append(gi)
                J.append(Ji @ P if c.kinematic else Ji)
            for c in ik._costs:
                ci, gradi = c.evaluate(ik._plant, ik._context, x)
                cost += ci
                grad += gradi @ P if c.kinematic else gradi
            if self.regularization is not None:
                x_ref, weight = self.regularization
                cost += 0.5 * weight * (x - x_ref) @ (x - x_ref)
                grad += weight * (x - x_ref)
            self._g = np.concatenate(g) if g else np.zeros(0)
            self._J = np.vstack(J) if J else np.zeros((0, len(x)))
            self._cost, self._grad = cost, grad
            self._key = key
        return self

    def cost(self, x):
        return self.at(x)._cost

    def cost_gradient(self, x):
        return self.at(x)._grad

    def g(self, x):
        return self.at(x)._g

    def jacobian(self, x):
        return self.at(x)._J


class InverseKinematics:
    """Optimization-based inverse kinematics for a MultibodyPlant.

    Parameters
    ----------
    plant : MultibodyPlant
        A finalized plant.
    plant_context : Context, optional
        The plant's context (or a diagram context containing it). As in Drake, `solve`
        writes the positions it evaluates (finally the solution) into this context;
        distance constraints need it to be part of a diagram with a SceneGraph. A new
        default context is made when omitted.
    with_joint_limits : bool
        Bound q by the plant's position limits (default True).

    Examples
    --------
    >>> ik = InverseKinematics(plant)
    >>> ik.add_position_constraint(hand, [0, 0, 0.1], plant.world_frame(), p_lo, p_hi)
    >>> result = ik.solve(q_initial)
    >>> result.is_success(), result.q
    """

    def __init__(self, plant, plant_context=None, with_joint_limits=True):
        fn = "InverseKinematics"
        check_plant(fn, plant)
        self._plant = plant
        self._context = (plant.create_default_context() if plant_context is None
                         else plant.get_my_context_from_root(plant_context))
        nq = plant.num_positions()
        self._quaternion_starts = quaternion_position_starts(plant)
        if with_joint_limits:
            lower = plant.get_position_lower_limits().astype(np.float64)
            upper = plant.get_position_upper_limits().astype(np.float64)
        else:
            lower, upper = np.full(nq, -np.inf), np.full(nq, np.inf)
        self._constraints = []
        self._costs = []
        for s in self._quaternion_starts:
            lower[s:s + 4] = np.maximum(lower[s:s + 4], -1.0)
            upper[s:s + 4] = np.minimum(upper[s:s + 4], 1.0)
            self._constraints.append(UnitQuaternionConstraint(s))
        self._lower, self._upper = lower, upper

    # ---- accessors ---------------------------------------------------------------------
    def plant(self):
        """The plant."""
        return self._plant

    def context(self):
        """The plant context that `solve` writes into."""
        return self._context

    get_mutable_context = context

    def num_positions(self):
        """nq, the number of decision variables."""
        return self._plant.num_positions()

    def get_constraints(self):
        """The constraints added so far (including unit-quaternion constraints)."""
        return list(self._constraints)

    def get_costs(self):
        """The costs added so far."""
        return list(self._costs)

    # ---- constraints -------------------------------------------------------------------
    def _add_constraint(self, constraint):
        self._constraints.append(constraint)
        return constraint

    def _add_cost(self, cost):
        self._costs.append(cost)
        return cost

    def add_position_constraint(self, frame_B, p_BQ, frame_A, p_AQ_lower, p_AQ_upper):
        """Constrain point Q fixed to frame B to the box p_AQ_lower <= p_AQ <= p_AQ_upper
        (positions in frame A, m); see `PositionConstraint`. Returns the constraint."""
        return self._add_constraint(
            PositionConstraint(self._plant, frame_A, p_AQ_lower, p_AQ_upper, frame_B, p_BQ))

    def add_orientation_constraint(self, frame_Abar, R_AbarA, frame_Bbar, R_BbarB,
                                   theta_bound):
        """Constrain the angle between frame A (R_AbarA in Abar) and frame B (R_BbarB in
        Bbar) to at most `theta_bound` rad; see `OrientationConstraint`."""
        return self._add_constraint(
            OrientationConstraint(self._plant, frame_Abar, R_AbarA, frame_Bbar, R_BbarB,
                                  theta_bound))

    def add_gaze_target_constraint(self, frame_A, p_AS, n_A, frame_B, p_BT, cone_half_angle):
        """Constrain point T (p_BT in frame B) to the cone with apex S (p_AS in frame A),
        axis n_A and half angle `cone_half_angle`; see `GazeTargetConstraint`."""
        return self._add_constraint(
            GazeTargetConstraint(self._plant, frame_A, p_AS, n_A, frame_B, p_BT,
                                 cone_half_angle))

    def add_minimum_distance_lower_bound_constraint(self, bound,
                                                    influence_distance_offset=0.01):
        """Keep every pair of collision geometries at least `bound` (m) apart; see
        `MinimumDistanceLowerBoundConstraint` for what it needs (SceneGraph queries)."""
        return self._add_constraint(
            MinimumDistanceLowerBoundConstraint(self._plant, self._context, bound,
                                                influence_distance_offset))

    add_minimum_distance_constraint = add_minimum_distance_lower_bound_constraint

    # ---- costs -------------------------------------------------------------------------
    def add_position_cost(self, frame_A, p_AP, frame_B, p_BQ, C):
        """Add (p_AQ - p_AP)ᵀ C (p_AQ - p_AP) for point Q (p_BQ in frame B); positions in
        frame A (m), C (3, 3) symmetric positive semidefinite."""
        return self._add_cost(PositionCost(self._plant, frame_A, p_AP, frame_B, p_BQ, C))

    def add_orientation_cost(self, frame_Abar, R_AbarA, frame_Bbar, R_BbarB, c):
        """Add c (1 - cos θ), θ the angle between frame A (R_AbarA in Abar) and frame B
        (R_BbarB in Bbar)."""
        return self._add_cost(
            OrientationCost(self._plant, frame_Abar, R_AbarA, frame_Bbar, R_BbarB, c))

    def add_quadratic_error_cost(self, W, q_desired):
        """Add (q - q_desired)ᵀ W (q - q_desired), W (nq, nq) symmetric positive
        semidefinite (Drake's prog().AddQuadraticErrorCost(W, q_desired, ik.q()))."""
        return self._add_cost(QuadraticErrorCost(self._plant, W, q_desired))

    # ---- solve -------------------------------------------------------------------------
    def _normalization_jacobian(self, x):
        """d(normalized q)/dq (nq, nq): (I - q̂ q̂ᵀ) / |q| on each quaternion block."""
        P = np.eye(len(x))
        for s in self._quaternion_starts:
            n = np.linalg.norm(x[s:s + 4])
            if n > 0.0:
                u = x[s:s + 4] / n
                P[s:s + 4, s:s + 4] = (np.eye(4) - np.outer(u, u)) / n
        return P

    def _scipy_constraints(self, evaluator, method, tol):
        """scipy constraints; for SLSQP, equality rows become lb - tol/10 <= g <= ub +
        tol/10, which keeps the subproblem regular when a row's gradient vanishes (e.g.
        the z row of a position equality on a planar arm)."""
        from scipy.optimize import BFGS, NonlinearConstraint

        if not self._constraints:
            return []
        lb = np.concatenate([c.lower_bound() for c in self._constraints])
        ub = np.concatenate([c.upper_bound() for c in self._constraints])
        if method == "trust-constr":
            return [NonlinearConstraint(evaluator.g, lb, ub, jac=evaluator.jacobian,
                                        hess=BFGS())]
        slack = np.where(lb == ub, 0.1 * tol, 0.0)
        lb, ub = lb - slack, ub + slack
        lo, hi = np.flatnonzero(np.isfinite(lb)), np.flatnonzero(np.isfinite(ub))
        return [{"type": "ineq",
                 "fun": lambda x: np.concatenate([evaluator.g(x)[lo] - lb[lo],
                                                  ub[hi] - evaluator.g(x)[hi]]),
                 "jac": lambda x: np.vstack([evaluator.jacobian(x)[lo],
                                             -evaluator.jacobian(x)[hi]])}]

    def solve(self, q_initial=None, *, method="SLSQP", tolerance=1e-6, max_iterations=500,
              restarts=2):
        """Minimize the costs subject to the constraints, starting from `q_initial`.

        Without any cost, the feasible q nearest the initial guess (minimizing
        ½ |q - q_initial|²) is sought, which also keeps SLSQP's line search working.

        Parameters
        ----------
        q_initial : array_like, shape (nq,), optional
            Initial guess; defaults to the positions in the context. Clipped to the
            bounds.
        method : {"SLSQP", "trust-constr"}
            scipy.optimize.minimize method.
        tolerance : float
            Optimizer tolerance, and the largest constraint violation accepted as
            success.
        max_iterations : int
            Iteration limit of each optimizer run.
        restarts : int
            When a solve ends infeasible, retry up to this many times from the initial
            guess perturbed by N(0, 0.1²) per coordinate (seeded, so repeatable); the
            best attempt is returned.

        Returns
        -------
        InverseKinematicsResult
            ``q`` (nq,) (quaternions normalized; also written to the context),
            ``success`` (every constraint and bound satisfied within `tolerance`),
            ``cost``, ``constraint_violation``, ``num_iterations``, ``message`` and
            ``details["scipy"]`` (the OptimizeResult).
        """
        from scipy.optimize import BFGS, Bounds, minimize

        fn = "InverseKinematics.solve"
        if method not in _METHODS:
            raise ValueError(f"{fn}: method must be one of {_METHODS}, got {method!r}")
        tol = check_positive(fn, "tolerance", tolerance)
        iterations = int(check_positive(fn, "max_iterations", max_iterations, integer=True))
        restarts = int(check_positive(fn, "restarts", restarts, allow_zero=True, integer=True))
        nq = self._plant.num_positions()
        if q_initial is None:
            q0 = self._plant.get_positions(self._context)
        else:
            q0 = as_vector(fn, "q_initial", q_initial, nq)
        x0 = np.clip(q0, self._lower, self._upper)
        evaluator = _Evaluator(self)
        if not self._costs:
            # A pure feasibility problem: find the feasible q nearest the initial guess
            # (a zero objective stalls SLSQP's merit line search).
            evaluator.regularization = (x0.copy(), 1.0)
        bounds = Bounds(self._lower, self._upper)
        constraints = self._scipy_constraints(evaluator, method, tol)
        if method == "SLSQP":
            options = {"maxiter": iterations, "ftol": tol}
            extra = {}
        else:
            options = {"maxiter": iterations, "gtol": tol, "xtol": tol * 1e-2}
            extra = {"hess": BFGS()}
        rng = np.random.default_rng(0)
        start, best = x0, None
        for attempt in range(1 + restarts):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                res = minimize(evaluator.cost, start, jac=evaluator.cost_gradient,
                               bounds=bounds, constraints=constraints, method=method,
                               options=options, **extra)
            x = np.clip(res.x, self._lower, self._upper)
            violation = self._violation(evaluator, x)
            if best is None or (violation, evaluator.cost(x)) < best[:2]:
                best = (violation, evaluator.cost(x), x, res, attempt)
            if violation <= tol:
                break
            # A failed start (often a singular configuration such as a stretched arm):
            # retry from a deterministic perturbation of the initial guess.
            start = np.clip(x0 + 0.1 * rng.standard_normal(len(x0)), self._lower, self._upper)
        violation, cost, x, res, attempt = best
        q = normalize_quaternions(x, self._quaternion_starts)
        self._plant.set_positions(self._context, q)
        success = violation <= tol
        message = (f"scipy {method}: {res.message}; largest constraint violation "
                   f"{violation:.3g}" + (f" (after {attempt} restarts)" if attempt else ""))
        return InverseKinematicsResult(
            q=q, success=bool(success), num_iterations=int(res.get("nit", 0)),
            message=message, cost=float(cost) if self._costs else 0.0,
            constraint_violation=violation,
            details={"scipy": res})

    def _violation(self, evaluator, x):
        """Largest constraint violation at x."""
        g = evaluator.g(x)
        violation, offset = 0.0, 0
        for c in self._constraints:
            m = c.num_constraints()
            violation = max(violation, c.violation(g[offset:offset + m]))
            offset += m
        return violation
