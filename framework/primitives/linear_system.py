"""AffineSystem and LinearSystem: time-invariant state-space models (Drake's)."""

import numpy as np

from ..matvec import matvec, matvec_add
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._validation import as_vector


def _as_matrix(fn, name, value):
    """``value`` as a 2-D float array, or None when it is None or a shapeless empty.

    As pydrake converts to an Eigen matrix: a scalar is 1x1 and a 1-D array of length k
    is a k x 1 column (so ``A=[1]`` is the 1x1 matrix [[1]]); an empty 2-D array keeps
    its shape (``B=np.zeros((0, 2))``: no state, two inputs).
    """
    if value is None:
        return None
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"{fn}: {name} must be a numeric matrix, got {type(value).__name__}") from None
    if arr.ndim == 0:
        return arr.reshape(1, 1)
    if arr.ndim == 1:
        return None if arr.size == 0 else arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise ValueError(f"{fn}: {name} must be a 2-D array, got shape {arr.shape}")
    return arr


def _column(value):
    """A (k, 1) column (what pydrake converts to an Eigen vector) as a 1-D array."""
    arr = np.asarray(value)
    return arr.reshape(-1) if arr.ndim == 2 and arr.shape[1] == 1 else value


def _checked(fn, name, value, shape, sizes):
    """A copy of ``value`` (zeros when None) after checking its shape."""
    if value is None or (value.size == 0 and 0 in shape):
        return np.zeros(shape)
    if value.shape != shape:
        raise ValueError(f"{fn}: {name} has shape {value.shape}, expected {shape} ({sizes})")
    return value.copy()


def _first(*candidates):
    """The first nonzero candidate size, else the first given one, else 0."""
    given = [c for c in candidates if c is not None]
    return next((c for c in given if c), given[0] if given else 0)


class AffineState:
    """The state x of an affine system: a continuous state (``time_period == 0``) or one
    discrete group, its default ``x0`` and optional Gaussian randomization (Drake's
    TimeVaryingAffineSystem state helpers). Needs ``num_states()`` and
    ``self._time_period``; sets ``self._x0`` and ``self._x0_covariance``.
    """

    def time_period(self):
        """0 for a continuous system, else the discrete update period (s)."""
        return self._time_period

    def configure_default_state(self, x0):
        """Use ``x0`` (shape (n,)) as the state of contexts created from now on."""
        self._x0 = as_vector("configure_default_state", "x0", x0, self.num_states())

    def configure_random_state(self, covariance):
        """``set_random_context`` draws x ~ N(x0, covariance), covariance shape (n, n)."""
        n = self.num_states()
        cov = np.array(covariance, dtype=float)
        if cov.shape != (n, n):
            raise ValueError(
                f"configure_random_state: covariance has shape {cov.shape}, expected ({n}, {n})")
        try:
            self._x0_covariance = np.linalg.cholesky(cov) if n else cov
        except np.linalg.LinAlgError:
            raise ValueError(
                "configure_random_state: covariance must be symmetric positive definite") from None

    def get_state(self, context):
        """The state x in ``context``, shape (n,), read-only."""
        ctx = self._context_from(context, "get_state")
        if self._time_period == 0.0:
            return ctx.get_continuous_state_vector()
        return ctx.get_discrete_state(0) if self.num_states() else np.zeros(0)

    def set_state(self, context, x):
        """Write the state x (shape (n,)) into ``context``."""
        ctx = self._context_from(context, "set_state")
        x = as_vector("set_state", "x", x, self.num_states())
        if self._time_period == 0.0:
            ctx.set_continuous_state(x)
        elif x.size:
            ctx.set_discrete_state(0, x)

    def set_default_state_and_parameters(self, context):
        if self.num_states():
            self.set_state(context, self._x0)

    def set_random_state(self, context, state, generator):
        """x ~ N(x0, covariance) when ``configure_random_state`` was called."""
        if self._x0_covariance is not None and self.num_states():
            w = generator.standard_normal(self.num_states())
            x = self._x0 + self._x0_covariance @ w
            if self._time_period == 0.0:
                state.get_mutable_continuous_state().set_from_vector(x)
            else:
                state.get_mutable_discrete_state(0).set_value(x)


def declare_affine_ports(system, n, m, p, feedthrough_output, calc_output, update,
                         time_varying=False):
    """The input ``u0`` (m > 0), the state (continuous, or one discrete group updated by
    ``update`` every ``time_period``) and the output ``y0`` (p > 0) of an affine system;
    the output depends on the input only when ``feedthrough_output``, on time only when
    ``time_varying``."""
    system._x0 = np.zeros(n)
    system._x0_covariance = None
    if m > 0:
        system.declare_vector_input_port("u0", m)
    if n > 0 and system._time_period == 0.0:
        system.declare_continuous_state(n)
        state_ticket = system.xc_ticket()
    elif n > 0:
        system.declare_discrete_state(n)
        system.declare_periodic_discrete_update_event(system._time_period, 0.0, update)
        state_ticket = system.xd_ticket()
    else:
        state_ticket = system.nothing_ticket()
    if p > 0:
        prereqs = [state_ticket]
        if m > 0 and feedthrough_output:
            prereqs.append(system.input_port_ticket(0))
        if time_varying:
            prereqs.append(system.time_ticket())
        system.declare_vector_output_port("y0", p, calc_output, prereqs)


def checked_time_period(fn, time_period):
    time_period = float(time_period)
    if not (time_period >= 0.0 and np.isfinite(time_period)):
        raise ValueError(f"{fn}: time_period must be a finite number >= 0, got {time_period}")
    return time_period


class AffineSystem(AffineState, LeafSystem):
    """A continuous or discrete affine system (Drake's AffineSystem).

    ::

        u0 ──▶ ┌──────────────┐
               │ AffineSystem │ ──▶ y0
               └──────────────┘

    Continuous (``time_period == 0``): ẋ = A x + B u + f0, y = C x + D u + y0.
    Discrete (``time_period = h > 0``): x[n+1] = A x[n] + B u[n] + f0 every h seconds
    from t = 0, y = C x + D u + y0. The input port exists only when m > 0 and the output
    port only when p > 0; the output is direct feedthrough only when D != 0.

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n, m)
    f0 : array_like, shape (n,)
    C : array_like, shape (p, n)
    D : array_like, shape (p, m)
    y0 : array_like, shape (p,)
    time_period : float
        0 for a continuous system, else the update period h (s).

    Any argument may be None or empty when its sizes are implied by the others (it is
    then zero).

    Attributes
    ----------
    linearization_method : str or None
        Set by ``framework.analysis.linearize`` on the systems it returns: ``"exact"``
        or ``"finite_difference"``; None otherwise.
    """

    linearization_method = None

    @lists_valid_keywords
    def __init__(self, A=None, B=None, f0=None, C=None, D=None, y0=None, time_period=0.0):
        super().__init__()
        fn = type(self).__name__
        A, B, C, D = (_as_matrix(fn, k, v) for k, v in (("A", A), ("B", B), ("C", C), ("D", D)))
        f0 = None if f0 is None or np.size(f0) == 0 else as_vector(fn, "f0", _column(f0))
        y0 = None if y0 is None or np.size(y0) == 0 else as_vector(fn, "y0", _column(y0))
        n = _first(*(None if M is None else M.shape[k] for M, k in ((A, 0), (B, 0), (C, 1))),
                   None if f0 is None else f0.size)
        m = _first(*(None if M is None else M.shape[1] for M in (B, D)))
        p = _first(*(None if M is None else M.shape[0] for M in (C, D)),
                   None if y0 is None else y0.size)
        sizes = f"n = {n}, m = {m}, p = {p} from the other arguments"
        self._A = _checked(fn, "A", A, (n, n), sizes)
        self._B = _checked(fn, "B", B, (n, m), sizes)
        self._C = _checked(fn, "C", C, (p, n), sizes)
        self._D = _checked(fn, "D", D, (p, m), sizes)
        self._f0 = _checked(fn, "f0", f0, (n,), sizes)
        self._y0 = _checked(fn, "y0", y0, (p,), sizes)
        self._time_period = checked_time_period(fn, time_period)
        self._freeze_coefficients()
        declare_affine_ports(self, n, m, p, bool(np.any(self._D)), self._calc_output,
                             self._update)
        self._u_port = self._input_ports[0] if m > 0 else None

    def _freeze_coefficients(self):
        for M in (self._A, self._B, self._C, self._D, self._f0, self._y0):
            M.flags.writeable = False
        # Precomputed for the evaluation hot path (one np.dot into the output buffer).
        m = self._B.shape[1]
        self._has_f0 = bool(np.any(self._f0))
        self._has_y0 = bool(np.any(self._y0))
        self._has_B = m > 0 and bool(np.any(self._B))
        self._has_D = m > 0 and bool(np.any(self._D))

    def update_coefficients(self, A, B, f0, C, D, y0):
        """Replace the coefficients by ones of the same shapes (Drake's
        UpdateCoefficients). As in Drake, a D that was zero may not become nonzero (that
        would change the output's dependencies). Values already cached in existing
        contexts are not recomputed: call ``context.set_all_cache_entries_out_of_date()``.

        Raises
        ------
        ValueError
            On a shape mismatch or a newly nonzero D.
        """
        fn = "AffineSystem.update_coefficients"
        new = {}
        for name, value, old in (("A", A, self._A), ("B", B, self._B), ("f0", f0, self._f0),
                                 ("C", C, self._C), ("D", D, self._D), ("y0", y0, self._y0)):
            arr = np.array(value, dtype=float)
            if arr.size != old.size or (arr.ndim == 2 and old.ndim == 2 and arr.shape != old.shape):
                raise ValueError(f"{fn}: new and current {name} have different sizes "
                                 f"({arr.shape} vs {old.shape}; system '{self._name}')")
            new[name] = arr.reshape(old.shape).copy()
        if not np.any(self._D) and np.any(new["D"]):
            raise ValueError(f"{fn}: new D makes the output of system '{self._name}' depend "
                             f"on the input, which it did not; unsupported (as in Drake)")
        self._A, self._B, self._f0 = new["A"], new["B"], new["f0"]
        self._C, self._D, self._y0 = new["C"], new["D"], new["y0"]
        self._freeze_coefficients()

    # ---- accessors ------------------------------------------------------------------------------
    def A(self):
        """State matrix, shape (n, n), read-only."""
        return self._A

    def B(self):
        """Input matrix, shape (n, m), read-only."""
        return self._B

    def C(self):
        """Output matrix, shape (p, n), read-only."""
        return self._C

    def D(self):
        """Feedthrough matrix, shape (p, m), read-only."""
        return self._D

    def f0(self):
        """State offset, shape (n,), read-only."""
        return self._f0

    def y0(self):
        """Output offset, shape (p,), read-only."""
        return self._y0

    def is_time_invariant_affine(self):
        """True for the continuous form (see ``framework.affine_fusion``)."""
        return self._time_period == 0.0

    def num_states(self):
        return self._A.shape[0]

    def num_inputs(self):
        return self._B.shape[1]

    def num_outputs(self):
        return self._C.shape[0]

    # ---- dynamics ----------------------------------------------------------------------------
    def _input(self, context):
        return self._u_port.eval(context) if self._u_port is not None else None

    def _affine_into(self, out, M, N, offset, has_N, has_offset, x, context):
        """out = M x (+ N u) (+ offset), computed in place."""
        # matvec, not np.dot: the compiled form (framework.compiled_diagram) computes
        # the same bits with the same kernels
        if x.shape[0]:
            matvec(M, x, out)
            if has_N:
                matvec_add(N, self._u_port.eval(context), out)
        elif has_N:
            matvec(N, self._u_port.eval(context), out)
        else:
            out.fill(0.0)
        if has_offset:
            out += offset

    def do_calc_time_derivatives(self, context, derivatives):
        self._affine_into(derivatives.get_mutable_value(), self._A, self._B, self._f0,
                          self._has_B, self._has_f0, context.get_continuous_state_vector(),
                          context)

    def _update(self, context, discrete_state):
        self._affine_into(discrete_state.get_mutable_value(0), self._A, self._B, self._f0,
                          self._has_B, self._has_f0, context.get_discrete_state(0), context)

    def _calc_output(self, context, output):
        if self._time_period == 0.0:
            x = context.get_continuous_state_vector()
        else:
            x = context.get_discrete_state(0) if self._A.shape[0] else _EMPTY
        self._affine_into(output.get_mutable_value(), self._C, self._D, self._y0,
                          self._has_D, self._has_y0, x, context)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact (A, B, C, D); see ``framework.primitives._linearization``."""
        return self._A, self._B, self._C, self._D


_EMPTY = np.zeros(0)
_EMPTY.flags.writeable = False


class LinearSystem(AffineSystem):
    """A continuous or discrete linear system (Drake's LinearSystem).

    ::

        u0 ──▶ ┌──────────────┐
               │ LinearSystem │ ──▶ y0
               └──────────────┘

    Continuous (``time_period == 0``): ẋ = A x + B u, y = C x + D u. Discrete
    (``time_period = h > 0``): x[n+1] = A x[n] + B u[n] every h seconds, y = C x + D u.
    Direct feedthrough only when D != 0.

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n, m)
    C : array_like, shape (p, n)
    D : array_like, shape (p, m)
    time_period : float
        0 for continuous time, else the update period (s).
    """

    @lists_valid_keywords
    def __init__(self, A=None, B=None, C=None, D=None, time_period=0.0):
        super().__init__(A, B, None, C, D, None, time_period)
