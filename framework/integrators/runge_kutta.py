"""Explicit Runge-Kutta integrators: one step routine, one Butcher tableau per scheme.

A scheme with s stages, coefficients ``A`` (strictly lower triangular), weights ``b``
and nodes ``c`` advances x from t0 to t1 = t0 + h by

    k_i = f(t0 + c_i h, x0 + h sum_{j<i} a_ij k_j),   i = 1..s
    x1  = x0 + h sum_i b_i k_i

An embedded pair also gives weights ``b_hat`` of a lower-order solution; the local error
estimate is ``err = h sum_i (b_i - b_hat_i) k_i``. A tableau is *first same as last*
(FSAL) when its last stage is evaluated at (t1, x1): that stage is the next step's k_1,
which the context's derivative cache then serves without a new evaluation.

Each scheme below is a subclass that only sets its tableau (scipy.integrate's design).

References
----------
E. Hairer, S. P. Norsett, G. Wanner, *Solving Ordinary Differential Equations I*,
2nd ed., Springer, 1993, Sec. II.1-II.5. J. R. Dormand, P. J. Prince, "A family of
embedded Runge-Kutta formulae", J. Comput. Appl. Math. 6 (1980). P. Bogacki,
L. F. Shampine, "A 3(2) pair of Runge-Kutta formulas", Appl. Math. Lett. 2 (1989).
"""

import numpy as np
from merganser.framework.compilation import kernel

from .integrator_base import IntegratorBase


@kernel(allocates=True, inline=False)
def combine_stages(out, x0, h, weights, K, num_stages):
    """out = x0 + h * sum_{j < num_stages} weights[j] * K[j].

    Parameters
    ----------
    out : ndarray, shape (n,)
        Result (written).
    x0 : ndarray, shape (n,)
        Base state.
    h : float
        Step size (s).
    weights : ndarray, shape (s,)
        Stage weights (a row of A, b, or b - b_hat).
    K : ndarray, shape (s, n)
        Stage derivatives.
    num_stages : int
        Number of leading stages to combine.
    """
    for i in range(x0.shape[0]):
        acc = 0.0
        for j in range(num_stages):
            acc += weights[j] * K[j, i]
        out[i] = x0[i] + h * acc


@kernel(allocates=True, inline=False)
def finish_step(x1, xc, err, x0, h, b, e, K, num_b, num_e, want_error):
    """x1 = x0 + h Σ_{j < num_b} b[j] K[j], copied into xc, and, when `want_error`,
    err = h Σ_{j < num_e} e[j] K[j] (the last two stage combinations of a step in one pass).

    Parameters
    ----------
    x1, xc, err : ndarray, shape (n,)
        Outputs (xc may be x1 itself).
    x0 : ndarray, shape (n,)
    h : float
    b, e : ndarray, shape (s,)
        Propagation weights and error weights (b − b̂).
    K : ndarray, shape (s, n)
    num_b, num_e : int
        Stages combined for x1 and for err.
    want_error : bool
    """
    for i in range(x0.shape[0]):
        acc = 0.0
        for j in range(num_b):
            acc += b[j] * K[j, i]
        x1[i] = x0[i] + h * acc
        xc[i] = x1[i]
        if want_error:
            acc = 0.0
            for j in range(num_e):
                acc += e[j] * K[j, i]
            err[i] = h * acc


class RungeKuttaIntegrator(IntegratorBase):
    """An explicit Runge-Kutta integrator defined by the class attributes below.

    Attributes
    ----------
    tableau_c : tuple of float, length s
        Nodes.
    tableau_a : tuple of tuples, s rows
        Row i holds a_i0 .. a_i(i-1).
    tableau_b : tuple of float, length s
        Weights of the propagated solution.
    tableau_b_hat : tuple of float or None
        Weights of the embedded solution used for the error estimate.
    fsal : bool
        True when the last stage is f(t1, x1) (a_(s-1) = b, c_(s-1) = 1).
    """

    tableau_c = ()
    tableau_a = ()
    tableau_b = ()
    tableau_b_hat = None
    fsal = False

    def _do_initialize(self, n):
        s = len(self.tableau_b)
        A = np.zeros((s, s))
        for i, row in enumerate(self.tableau_a):
            A[i, : len(row)] = row
        self._A = A
        self._b = np.array(self.tableau_b, dtype=float)
        b_hat = self.tableau_b if self.tableau_b_hat is None else self.tableau_b_hat
        self._e = self._b - np.array(b_hat, dtype=float)
        self._c = [float(c) for c in self.tableau_c]
        self._s = s
        self._K = np.zeros((s, n))
        self._zero = np.zeros(n)

    def _do_step(self, t0, h, t1, want_error, retry):
        ctx = self._context
        K, A, c, x0 = self._K, self._A, self._c, self._x0
        if not retry:
            K[0] = self._eval_derivatives_at_step_start()
        last = self._s - 1 if self.fsal else self._s
        xc = self._xc_in_place
        for i in range(1, last):
            if xc is not None:
                combine_stages(xc, x0, h, A[i], K, i)     # the stage state, in the context
                ctx._set_time_after_writing_xc(t0 + c[i] * h)
            else:
                combine_stages(self._x1, x0, h, A[i], K, i)
                ctx.set_time_and_continuous_state(t0 + c[i] * h, self._x1)
            K[i] = self._eval_derivatives()
        x1 = self._x1
        if xc is not None and not self.fsal:
            # x1 into the context and the error estimate in one pass
            finish_step(x1, xc, self._err, x0, h, self._b, self._e, K, last, self._s,
                        want_error)
            ctx._set_time_after_writing_xc(t1)
            return True
        combine_stages(x1, x0, h, self._b, K, last)
        ctx.set_time_and_continuous_state(t1, x1)
        if want_error:
            if self.fsal:
                K[last] = self._eval_derivatives()
                self._mark_end_derivatives_evaluated(t1, x1)
            combine_stages(self._err, self._zero, h, self._e, K, self._s)
        return True


class ExplicitEulerIntegrator(RungeKuttaIntegrator):
    """Forward Euler, order 1, fixed step: x1 = x0 + h f(t0, x0)."""

    scheme_name = "explicit_euler"
    tableau_c = (0.0,)
    tableau_a = ((),)
    tableau_b = (1.0,)


class RungeKutta2Integrator(RungeKuttaIntegrator):
    """Heun's method (explicit trapezoid), order 2, fixed step."""

    scheme_name = "runge_kutta2"
    tableau_c = (0.0, 1.0)
    tableau_a = ((), (1.0,))
    tableau_b = (0.5, 0.5)


class RungeKutta3Integrator(RungeKuttaIntegrator):
    """Kutta's third-order method with the embedded explicit midpoint (order 2) for the
    error estimate (local error estimate ~ h^3); error-controlled, the default scheme."""

    scheme_name = "runge_kutta3"
    error_estimate_order = 3
    tableau_c = (0.0, 0.5, 1.0)
    tableau_a = ((), (0.5,), (-1.0, 2.0))
    tableau_b = (1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0)
    tableau_b_hat = (0.0, 1.0, 0.0)


class BogackiShampine3Integrator(RungeKuttaIntegrator):
    """Bogacki-Shampine 3(2): order 3 with an embedded order-2 estimate, FSAL
    (3 new derivative evaluations per accepted step)."""

    scheme_name = "bogacki_shampine3"
    error_estimate_order = 3
    fsal = True
    tableau_c = (0.0, 0.5, 0.75, 1.0)
    tableau_a = ((), (0.5,), (0.0, 0.75), (2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0))
    tableau_b = (2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0)
    tableau_b_hat = (7.0 / 24.0, 0.25, 1.0 / 3.0, 0.125)


class RungeKutta5Integrator(RungeKuttaIntegrator):
    """Dormand-Prince 5(4): order 5 propagated, embedded order-4 estimate, FSAL
    (6 new derivative evaluations per accepted step)."""

    scheme_name = "runge_kutta5"
    error_estimate_order = 5
    fsal = True
    tableau_c = (0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0)
    tableau_a = (
        (),
        (1.0 / 5.0,),
        (3.0 / 40.0, 9.0 / 40.0),
        (44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0),
        (19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0),
        (9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0),
        (35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0),
    )
    tableau_b = (35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0,
                 11.0 / 84.0, 0.0)
    tableau_b_hat = (5179.0 / 57600.0, 0.0, 7571.0 / 16695.0, 393.0 / 640.0,
                     -92097.0 / 339200.0, 187.0 / 2100.0, 1.0 / 40.0)
