"""Implicit integrators for stiff systems: implicit Euler, Radau IIA (3), velocity-implicit Euler.

Each step solves a nonlinear system G(y) = 0 by simplified Newton iterations

    M dy = -G(y_k),   y_{k+1} = y_k + dy,   M = I - gamma h (J-based iteration matrix)

where J is a Jacobian of the time derivatives obtained by finite differences (forward,
the default: J[:, j] = (f(x + d_j e_j) - f(x)) / d_j with d_j = sqrt(eps) max(1, |x_j|);
or central with d_j = eps^(1/3) max(1, |x_j|), twice the evaluations, second-order
accurate). Every evaluation made for a Jacobian counts as a derivative evaluation.

Jacobian reuse (as Drake): J is computed when first needed and reused across steps
(``set_reuse(False)`` recomputes it every step); the LU factorizations of the iteration
matrices are cached per step size. If Newton fails with a Jacobian from an earlier step,
J is recomputed at the current step's start and Newton runs again; if it fails with a
fresh Jacobian the step fails and error control retries with half the step (in
fixed-step mode the failure is an error).

Convergence test (Hairer & Wanner IV.8): with the weighted norm of step_size_control,
theta = ||dy_k|| / ||dy_{k-1}||; diverged if theta >= 1 or if the predicted number of
iterations exceeds the limit; converged when theta / (1 - theta) ||dy_k|| <= kappa
(kappa = 0.05, the norm already divides by the accuracy), or when ||dy_k|| is at
roundoff level. At most 10 iterations.

Error estimates:
- implicit_euler: the difference to the implicit trapezoid rule started from the same
  state (default), or, with ``set_use_implicit_trapezoid_error_estimation(False)``, step
  doubling: one step of h against two of h/2, propagating the two half steps. Order 2.
- radau3: the difference to the implicit trapezoid rule. Order 3.
- velocity_implicit_euler: step doubling, propagating the two half steps. Order 2.

References
----------
E. Hairer, G. Wanner, *Solving Ordinary Differential Equations II: Stiff and
Differential-Algebraic Problems*, 2nd ed., Springer, 1996, Sec. IV.5 and IV.8.
"""

import math

import numpy as np
from scipy.linalg import lu_factor, lu_solve

from ..keyword_check import lists_valid_keywords
from .integrator_base import IntegratorBase
from .step_size_control import scaled_error_norm

_EPS = np.finfo(float).eps
_CONVERGED, _NOT_CONVERGED, _DIVERGED = 1, 0, -1
JACOBIAN_SCHEMES = ("forward", "central")


class ImplicitIntegrator(IntegratorBase):
    """Newton machinery shared by the implicit schemes (Drake's ImplicitIntegrator).

    Subclasses implement ``_do_implicit_step(t0, h, t1, want_error)`` and
    ``_refresh_jacobian()``.
    """

    max_newton_iterations = 10
    newton_kappa = 0.05
    is_implicit = True

    @lists_valid_keywords
    def __init__(self, system, max_step_size=None, context=None):
        self._jacobian_scheme = "forward"
        self._reuse = True
        super().__init__(system, max_step_size, context)

    # ---- settings ---------------------------------------------------------------------------
    def set_jacobian_computation_scheme(self, scheme):
        """``"forward"`` (default) or ``"central"`` finite differences."""
        if scheme not in JACOBIAN_SCHEMES:
            raise ValueError(
                f"set_jacobian_computation_scheme: scheme must be one of {JACOBIAN_SCHEMES}, "
                f"got {scheme!r}")
        self._jacobian_scheme = scheme
        self._J = None

    def get_jacobian_computation_scheme(self):
        return self._jacobian_scheme

    def set_reuse(self, reuse):
        """Reuse the Jacobian across steps (True, default) or recompute it every step."""
        self._reuse = bool(reuse)

    def get_reuse(self):
        return self._reuse

    # ---- statistics -------------------------------------------------------------------------
    def reset_statistics(self):
        super().reset_statistics()
        self._num_jacobian_evaluations = 0
        self._num_jacobian_derivative_evaluations = 0
        self._num_newton_iterations = 0
        self._num_factorizations = 0

    def get_num_jacobian_evaluations(self):
        return self._num_jacobian_evaluations

    def get_num_derivative_evaluations_for_jacobian(self):
        """Derivative evaluations spent on finite-difference Jacobians (included in
        ``get_num_derivative_evaluations``)."""
        return self._num_jacobian_derivative_evaluations

    def get_num_newton_raphson_iterations(self):
        return self._num_newton_iterations

    def get_num_iteration_matrix_factorizations(self):
        return self._num_factorizations

    # ---- step skeleton ----------------------------------------------------------------------
    def _do_initialize(self, n):
        self._J = None
        self._lu_cache = {}
        self._step_serial = 0
        self._jacobian_serial = -1
        self._f0 = np.zeros(n)
        self._f0_valid = False
        self._x_tr = np.zeros(n)
        self._r = np.zeros(n)
        self._do_implicit_initialize(n)

    def _do_implicit_initialize(self, n):
        """Allocate scheme-specific storage."""

    def _do_step(self, t0, h, t1, want_error, retry):
        if self._n == 0:
            self._context.set_time(t1)
            self._err[:] = 0.0
            return True
        if not retry:
            self._step_serial += 1
            self._f0_valid = False
        self._t0 = t0
        if not self._do_implicit_step(t0, h, t1, want_error):
            return False
        self._context.set_time_and_continuous_state(t1, self._x1)
        return True

    def _do_implicit_step(self, t0, h, t1, want_error):
        raise NotImplementedError

    def _refresh_jacobian(self):
        raise NotImplementedError

    # ---- building blocks --------------------------------------------------------------------
    def _f0_at_start(self):
        """f(t0, x0) of the current step, shape (n,) (evaluated once per step)."""
        if not self._f0_valid:
            ctx, t0 = self._context, self._t0
            if not (ctx.get_time() == t0
                    and np.array_equal(ctx.get_continuous_state_vector(), self._x0)):
                ctx.set_time_and_continuous_state(t0, self._x0)
            np.copyto(self._f0, self._eval_derivatives_at_step_start())
            self._f0_valid = True
        return self._f0

    def _fd_jacobian(self, fn, y0, f_y0, J):
        """Finite-difference Jacobian of ``fn`` at ``y0`` into ``J`` (shape (m, m)).

        ``fn(y)`` returns f(y), shape (m,); ``f_y0`` = fn(y0) (unused for central).
        """
        before = self._num_derivative_evaluations
        central = self._jacobian_scheme == "central"
        rel = _EPS ** (1.0 / 3.0) if central else math.sqrt(_EPS)
        y = y0.copy()
        for j in range(y0.size):
            yj = y0[j] + rel * max(1.0, abs(y0[j]))
            d = yj - y0[j]
            y[j] = yj
            if central:
                f_plus = np.array(fn(y))
                y[j] = y0[j] - d
                J[:, j] = (f_plus - fn(y)) / (2.0 * d)
            else:
                J[:, j] = (fn(y) - f_y0) / d
            y[j] = y0[j]
        self._num_jacobian_evaluations += 1
        self._num_jacobian_derivative_evaluations += self._num_derivative_evaluations - before
        self._jacobian_serial = self._step_serial
        self._lu_cache.clear()

    def _state_jacobian(self):
        """J = df/dx at the step start (t0, x0), shape (n, n) (implicit_euler, radau3)."""
        if self._J is None:
            self._J = np.zeros((self._n, self._n))
        central = self._jacobian_scheme == "central"
        f0 = None if central else self._f0_at_start()
        ctx, t0 = self._context, self._t0

        def f(x):
            ctx.set_time_and_continuous_state(t0, x)
            return self._eval_derivatives()

        self._fd_jacobian(f, self._x0, f0, self._J)

    def _factor(self, kind, gamma, build=None):
        """LU factors of ``I - gamma J`` (or of ``build()``), cached by (kind, gamma)."""
        key = (kind, gamma)
        lu = self._lu_cache.get(key)
        if lu is None:
            if build is None:
                M = -gamma * self._J
                M[np.diag_indices_from(M)] += 1.0
            else:
                M = build()
            lu = lu_factor(M, check_finite=False)
            self._num_factorizations += 1
            if len(self._lu_cache) > 8:
                self._lu_cache.clear()
            self._lu_cache[key] = lu
        return lu

    def _newton_status(self, k, dy_norm):
        if not math.isfinite(dy_norm):
            return _DIVERGED
        if dy_norm * self._accuracy_in_use <= 10.0 * _EPS:
            return _CONVERGED
        if k == 0:
            self._last_dy_norm = dy_norm
            return _NOT_CONVERGED
        theta = dy_norm / self._last_dy_norm
        self._last_dy_norm = dy_norm
        if theta >= 1.0:
            return _DIVERGED
        kappa = self.newton_kappa
        if theta / (1.0 - theta) * dy_norm <= kappa:
            return _CONVERGED
        remaining = self.max_newton_iterations - 1 - k
        if theta ** remaining / (1.0 - theta) * dy_norm > kappa:
            return _DIVERGED
        return _NOT_CONVERGED

    def _newton_solve(self, y, y_guess, neg_residual, get_lu, y_ref):
        """Simplified Newton on G(y) = 0, refreshing a stale Jacobian once on failure.

        Parameters
        ----------
        y : ndarray, shape (m,)
            Iterate (written; the solution on success).
        y_guess : ndarray, shape (m,)
            Initial guess.
        neg_residual : callable
            ``neg_residual(y) -> -G(y)``, shape (m,).
        get_lu : callable
            ``get_lu() -> LU factors`` of the iteration matrix (called after refreshes).
        y_ref : ndarray, shape (m,)
            State whose magnitude scales the norm of the updates.

        Returns
        -------
        bool
            True when Newton converged.
        """
        if self._J is None or (not self._reuse and self._jacobian_serial != self._step_serial):
            self._refresh_jacobian()
        atol, rtol = self.get_absolute_tolerance(), self._accuracy_in_use
        for trial in range(2):
            if trial == 1:
                if self._jacobian_serial == self._step_serial:
                    return False
                self._refresh_jacobian()
            np.copyto(y, y_guess)
            lu = get_lu()
            for k in range(self.max_newton_iterations):
                dy = lu_solve(lu, neg_residual(y), check_finite=False)
                y += dy
                self._num_newton_iterations += 1
                status = self._newton_status(k, scaled_error_norm(dy, y_ref, y_ref, atol, rtol))
                if status == _CONVERGED:
                    return True
                if status == _DIVERGED:
                    break
        return False

    def _implicit_euler_solve(self, ta, h, tb, xa, out):
        """out = xa + h f(tb, out), solved by Newton from the guess xa."""
        ctx, r = self._context, self._r

        def neg_residual(x):
            ctx.set_time_and_continuous_state(tb, x)
            np.multiply(self._eval_derivatives(), h, out=r)
            np.add(r, xa, out=r)
            return np.subtract(r, x, out=r)

        return self._newton_solve(out, xa, neg_residual, lambda: self._factor("ie", h), xa)

    def _trapezoid_error(self, t0, h, t1):
        """err = x1 - x_tr with x_tr = x0 + h/2 (f(t0, x0) + f(t1, x_tr)) (local error ~ h^3)."""
        f0 = self._f0_at_start()
        ctx, r, x0 = self._context, self._r, self._x0

        def neg_residual(x):
            ctx.set_time_and_continuous_state(t1, x)
            np.add(self._eval_derivatives(), f0, out=r)
            np.multiply(r, 0.5 * h, out=r)
            np.add(r, x0, out=r)
            return np.subtract(r, x, out=r)

        if not self._newton_solve(self._x_tr, self._x1, neg_residual,
                                  lambda: self._factor("ie", 0.5 * h), x0):
            return False
        np.subtract(self._x1, self._x_tr, out=self._err)
        return True


class ImplicitEulerIntegrator(ImplicitIntegrator):
    """Implicit (backward) Euler: x1 = x0 + h f(t1, x1). First order, L-stable.

    The error estimate (order 2) is the difference to the implicit trapezoid rule, or,
    after ``set_use_implicit_trapezoid_error_estimation(False)``, step doubling.
    """

    scheme_name = "implicit_euler"
    error_estimate_order = 2

    @lists_valid_keywords
    def __init__(self, system, max_step_size=None, context=None):
        self._use_trapezoid = True
        super().__init__(system, max_step_size, context)

    def set_use_implicit_trapezoid_error_estimation(self, flag):
        self._use_trapezoid = bool(flag)

    def get_use_implicit_trapezoid_error_estimation(self):
        return self._use_trapezoid

    def _do_implicit_initialize(self, n):
        self._x_full = np.zeros(n)
        self._x_half = np.zeros(n)

    def _refresh_jacobian(self):
        self._state_jacobian()

    def _do_implicit_step(self, t0, h, t1, want_error):
        x0, x1 = self._x0, self._x1
        if want_error and not self._use_trapezoid:
            t_half = t0 + 0.5 * h
            ok = (self._implicit_euler_solve(t0, h, t1, x0, self._x_full)
                  and self._implicit_euler_solve(t0, 0.5 * h, t_half, x0, self._x_half)
                  and self._implicit_euler_solve(t_half, 0.5 * h, t1, self._x_half, x1))
            if ok:
                np.subtract(self._x_full, x1, out=self._err)
            return ok
        if want_error:
            self._f0_at_start()       # needed by the estimate; evaluate while at (t0, x0)
        if not self._implicit_euler_solve(t0, h, t1, x0, x1):
            return False
        return self._trapezoid_error(t0, h, t1) if want_error else True


class Radau3Integrator(ImplicitIntegrator):
    """Two-stage Radau IIA: order 3, L-stable, stiffly accurate.

    Stages X_i = x0 + Z_i at t0 + c_i h, c = (1/3, 1), with
    Z_i = h sum_j a_ij f(t0 + c_j h, x0 + Z_j), A = [[5/12, -1/12], [3/4, 1/4]], and
    x1 = x0 + Z_2. Newton runs on the 2n stage increments Z with the iteration matrix
    I - h (A kron J). The error estimate (order 3) is the difference to the implicit
    trapezoid rule.
    """

    scheme_name = "radau3"
    error_estimate_order = 3
    A = np.array([[5.0 / 12.0, -1.0 / 12.0], [0.75, 0.25]])
    c = (1.0 / 3.0, 1.0)

    def _do_implicit_initialize(self, n):
        self._Z = np.zeros(2 * n)
        self._Z0 = np.zeros(2 * n)
        self._F = np.zeros((2, n))
        self._R = np.zeros(2 * n)
        self._X = np.zeros(n)
        self._x0_2 = np.zeros(2 * n)

    def _refresh_jacobian(self):
        self._state_jacobian()

    def _radau_matrix(self, h):
        n = self._n
        M = -h * np.kron(self.A, self._J)
        M[np.diag_indices(2 * n)] += 1.0
        return M

    def _do_implicit_step(self, t0, h, t1, want_error):
        ctx, n, x0 = self._context, self._n, self._x0
        F, R, X = self._F, self._R, self._X
        (a11, a12), (a21, a22) = self.A
        times = (t0 + self.c[0] * h, t1)
        if want_error:
            self._f0_at_start()
        self._x0_2[:n] = x0
        self._x0_2[n:] = x0

        def neg_residual(Z):
            for i in range(2):
                np.add(x0, Z[i * n:(i + 1) * n], out=X)
                ctx.set_time_and_continuous_state(times[i], X)
                F[i] = self._eval_derivatives()
            R[:n] = h * (a11 * F[0] + a12 * F[1]) - Z[:n]
            R[n:] = h * (a21 * F[0] + a22 * F[1]) - Z[n:]
            return R

        get_lu = lambda: self._factor("radau", h, lambda: self._radau_matrix(h))  # noqa: E731
        if not self._newton_solve(self._Z, self._Z0, neg_residual, get_lu, self._x0_2):
            return False
        np.add(x0, self._Z[n:], out=self._x1)
        return self._trapezoid_error(t0, h, t1) if want_error else True


class VelocityImplicitEulerIntegrator(ImplicitIntegrator):
    """Implicit Euler in the velocities v and miscellaneous states z, with q from v
    (Drake's VelocityImplicitEulerIntegrator).

    With y = [v; z] and l(y) = [vdot; zdot](t1, q(y), y), q(y) = q0 + h N(q0) v:

        y1 = y0 + h l(y1),   q1 = q0 + h N(q0) v1.

    Newton runs on y only (size nv + nz instead of n) with the finite-difference Jacobian
    of l with respect to y (which includes the q(y) dependence). N(q0) is formed once per
    step from nv calls of ``map_velocity_to_qdot``. First order; the error estimate
    (order 2) is step doubling, and the two half steps are propagated.
    """

    scheme_name = "velocity_implicit_euler"
    error_estimate_order = 2

    def _do_implicit_initialize(self, n):
        nq, nv = self._nq, self._nv
        m = n - nq
        self._m = m
        self._N = np.zeros((nq, nv))
        self._N_half = np.zeros((nq, nv))
        self._xk = np.zeros(n)
        self._y = np.zeros(m)
        self._ry = np.zeros(m)
        self._x_full = np.zeros(n)
        self._x_half = np.zeros(n)
        self._J = None
        self._point = None
        self._N_serial = -1

    def _velocity_to_qdot_matrix(self, N):
        """N(q) at the context's state, shape (nq, nv), column by column."""
        e = np.zeros(self._nv)
        for j in range(self._nv):
            e[j] = 1.0
            N[:, j] = self._system.map_velocity_to_qdot(self._context, e)
            e[j] = 0.0

    def _l_of_y(self, ta, h, tb, xa, N):
        """The function y -> l(y) of one substep, and the state buffer it fills."""
        ctx, nq, nv, xk = self._context, self._nq, self._nv, self._xk

        def l_of_y(y):
            xk[nq:] = y
            if nq:
                np.dot(N, y[:nv], out=xk[:nq])
                xk[:nq] *= h
                xk[:nq] += xa[:nq]
            ctx.set_time_and_continuous_state(tb, xk)
            return self._eval_derivatives()[nq:]

        return l_of_y

    def _refresh_jacobian(self):
        if self._J is None:
            self._J = np.zeros((self._m, self._m))
        ta, h, tb, xa, N = self._point
        l_of_y = self._l_of_y(ta, h, tb, xa, N)
        y0 = xa[self._nq:]
        l0 = None if self._jacobian_scheme == "central" else np.array(l_of_y(y0))
        self._fd_jacobian(l_of_y, y0, l0, self._J)

    def _substep(self, ta, h, tb, xa, N, out):
        """One velocity-implicit Euler step of size h from (ta, xa) into ``out``."""
        nq, nv, ry = self._nq, self._nv, self._ry
        y0 = xa[nq:]
        l_of_y = self._l_of_y(ta, h, tb, xa, N)
        self._point = (ta, h, tb, xa, N)

        def neg_residual(y):
            np.multiply(l_of_y(y), h, out=ry)
            np.add(ry, y0, out=ry)
            return np.subtract(ry, y, out=ry)

        if not self._newton_solve(self._y, y0, neg_residual,
                                  lambda: self._factor("vie", h), y0):
            return False
        out[nq:] = self._y
        if nq:
            out[:nq] = xa[:nq] + h * (N @ self._y[:nv])
        return True

    def _do_implicit_step(self, t0, h, t1, want_error):
        x0, x1 = self._x0, self._x1
        if self._nq and self._N_serial != self._step_serial:
            ctx = self._context
            if not (ctx.get_time() == t0
                    and np.array_equal(ctx.get_continuous_state_vector(), x0)):
                ctx.set_time_and_continuous_state(t0, x0)
            self._velocity_to_qdot_matrix(self._N)
            self._N_serial = self._step_serial
        if not want_error:
            return self._substep(t0, h, t1, x0, self._N, x1)
        t_half = t0 + 0.5 * h
        if not (self._substep(t0, h, t1, x0, self._N, self._x_full)
                and self._substep(t0, 0.5 * h, t_half, x0, self._N, self._x_half)):
            return False
        if self._nq:
            self._context.set_time_and_continuous_state(t_half, self._x_half)
            self._velocity_to_qdot_matrix(self._N_half)
        if not self._substep(t_half, 0.5 * h, t1, self._x_half, self._N_half, x1):
            return False
        np.subtract(self._x_full, x1, out=self._err)
        return True
