"""BsplineBasis: the B-spline basis functions of one order over one knot vector (Drake's
math::BsplineBasis).

A basis of order k (degree k − 1) over the non-decreasing knots t₀ … t_{m−1} has
n = m − k basis functions Bᵢ, each a piecewise polynomial that is non-zero only on
[tᵢ, t_{i+k}). The curve of control points Pᵢ is s(t) = Σᵢ Pᵢ Bᵢ(t), defined for t in
[t_{k−1}, t_n] (the initial and final parameter values), where the Bᵢ sum to one.
Evaluation is de Boor's algorithm on the k control points active in t's knot interval.
"""

import bisect
import enum
import math

import numpy as np

__all__ = ["BsplineBasis", "KnotVectorType"]


class KnotVectorType(enum.IntEnum):
    """How the knots of a `BsplineBasis` made from a count of basis functions lie."""

    kUniform = 0          # evenly spaced, extending order − 1 intervals beyond each end
    kClampedUniform = 1   # order knots at each end, evenly spaced between them


class BsplineBasis:
    """The B-spline basis of one order over one knot vector.

    Three constructors, as in Drake::

        BsplineBasis()                                  # order 0, no knots
        BsplineBasis(order, knots)
        BsplineBasis(order, num_basis_functions, type=KnotVectorType.kClampedUniform,
                     initial_parameter_value=0.0, final_parameter_value=1.0)
        BsplineBasis(other=basis)                       # a copy

    Parameters
    ----------
    order : int
        The order k (polynomial degree + 1), at least 1.
    knots : array_like of float, shape (m,)
        Non-decreasing knots, m >= 2 k.
    num_basis_functions : int
        n >= order; the knots are then made by `type` over
        [initial_parameter_value, final_parameter_value].

    Raises
    ------
    ValueError
        When the knots are fewer than 2 k or not sorted, the order is not positive, there
        are fewer basis functions than the order, or the parameter interval is reversed.
    """

    __slots__ = ("_order", "_knots")

    def __init__(self, order=None, knots=None, type=None, initial_parameter_value=0.0,
                 final_parameter_value=1.0, *, num_basis_functions=None, other=None):
        if other is not None:
            if order is not None or knots is not None or num_basis_functions is not None:
                raise TypeError("BsplineBasis(other=...): give no other argument with other=")
            if not isinstance(other, BsplineBasis):
                raise TypeError(f"BsplineBasis(other=...): expected a BsplineBasis, "
                                f"got {_type_name(other)}")
            self._order, self._knots = other._order, other._knots.copy()
            return
        if order is None:
            if knots is not None or num_basis_functions is not None:
                raise TypeError("BsplineBasis: order is required with knots or "
                                "num_basis_functions")
            self._order, self._knots = 0, np.zeros(0)
            return
        if num_basis_functions is None and knots is not None and np.ndim(knots) == 0:
            num_basis_functions, knots = knots, None     # BsplineBasis(order, n, ...)
        order = _positive_int("order", order)
        if num_basis_functions is not None:
            if knots is not None:
                raise TypeError("BsplineBasis: give knots or num_basis_functions, not both")
            knots = _make_knots(order, _positive_int("num_basis_functions",
                                                     num_basis_functions),
                                KnotVectorType.kClampedUniform if type is None else type,
                                float(initial_parameter_value), float(final_parameter_value))
        elif type is not None:
            raise TypeError("BsplineBasis(order, knots): type= needs num_basis_functions")
        knots = np.array(knots, dtype=float).reshape(-1)
        if knots.size < 2 * order:
            raise ValueError(f"BsplineBasis: knots needs at least 2 * order = {2 * order} "
                             f"values, got {knots.size}")
        if not np.all(np.isfinite(knots)) or np.any(np.diff(knots) < 0):
            raise ValueError(f"BsplineBasis: knots must be finite and non-decreasing, got "
                             f"{knots.tolist()}")
        self._order, self._knots = order, knots

    # --- the basis -------------------------------------------------------------------
    def order(self):
        """The order k (int)."""
        return self._order

    def degree(self):
        """The polynomial degree k − 1 (int)."""
        return self._order - 1

    def num_basis_functions(self):
        """The number n of basis functions: knots − order (int)."""
        return self._knots.size - self._order

    def knots(self):
        """The knot vector, shape (m,) (a copy)."""
        return self._knots.copy()

    def initial_parameter_value(self):
        """t_{k−1}: the start of the interval on which the basis sums to one."""
        return float(self._knots[self._order - 1])

    def final_parameter_value(self):
        """t_n: the end of that interval."""
        return float(self._knots[self.num_basis_functions()])

    def find_containing_interval(self, parameter_value):
        """The index l of the knot interval [t_l, t_{l+1}) holding `parameter_value`; at the
        final parameter value, the last non-empty interval that ends there.

        Raises
        ------
        ValueError
            When `parameter_value` lies outside [initial, final] parameter value.
        """
        t = self._checked_parameter("find_containing_interval", parameter_value)
        knots = self._knots.tolist()
        if t < self.final_parameter_value():
            return bisect.bisect_right(knots, t) - 1
        return bisect.bisect_left(knots, t) - 1

    def compute_active_basis_function_indices(self, parameter_interval=None, *,
                                              parameter_value=None):
        """The indices of the basis functions that may be non-zero on an interval
        ``[t0, t1]`` (`parameter_interval`) or at one `parameter_value` (list of int)."""
        if (parameter_interval is None) == (parameter_value is None):
            raise TypeError("BsplineBasis.compute_active_basis_function_indices: give "
                            "parameter_interval or parameter_value")
        if parameter_value is not None:
            parameter_interval = (parameter_value, parameter_value)
        elif np.ndim(parameter_interval) == 0:
            parameter_interval = (parameter_interval, parameter_interval)
        t0, t1 = (float(v) for v in parameter_interval)
        if t0 > t1:
            raise ValueError(f"BsplineBasis.compute_active_basis_function_indices: "
                             f"parameter_interval must be increasing, got [{t0}, {t1}]")
        first = self.find_containing_interval(t0) - (self._order - 1)
        last = self.find_containing_interval(t1)
        return list(range(first, last + 1))

    def evaluate_curve(self, control_points, parameter_value):
        """s(t) = Σᵢ Pᵢ Bᵢ(t) for the control points Pᵢ (de Boor's algorithm).

        Parameters
        ----------
        control_points : sequence of array_like, n items of one shape
        parameter_value : float

        Returns
        -------
        numpy.ndarray
            The curve's value, of the control points' shape.
        """
        points = [np.asarray(p, dtype=float) for p in control_points]
        n = self.num_basis_functions()
        if len(points) != n:
            raise ValueError(f"BsplineBasis.evaluate_curve: control_points needs "
                             f"num_basis_functions() = {n} points, got {len(points)}")
        if any(p.shape != points[0].shape for p in points):
            raise ValueError("BsplineBasis.evaluate_curve: control_points must all have one "
                             f"shape, got {sorted({p.shape for p in points})}")
        t = self._checked_parameter("evaluate_curve", parameter_value)
        k, knots = self._order, self._knots
        ell = self.find_containing_interval(t)
        # de Boor: p[j] starts as P_{ell−k+1+j}; each round blends neighbours
        p = [points[ell - k + 1 + j].copy() for j in range(k)]
        for r in range(1, k):
            for j in range(k - 1, r - 1, -1):
                i = ell - k + 1 + j
                span = knots[i + k - r] - knots[i]
                alpha = 0.0 if span == 0.0 else (t - knots[i]) / span
                p[j] = (1.0 - alpha) * p[j - 1] + alpha * p[j]
        return p[k - 1]

    def evaluate_linear_in_control_points(self, parameter_value):
        """The basis function values (B₀(t) … B_{n−1}(t)), shape (n,), so that
        s(t) = Σᵢ values[i] Pᵢ."""
        t = self._checked_parameter("evaluate_linear_in_control_points", parameter_value)
        n = self.num_basis_functions()
        return self.evaluate_curve(np.eye(n), t)

    def evaluate_basis_function_i(self, i, parameter_value):
        """Bᵢ(t), the i-th basis function's value (float)."""
        n = self.num_basis_functions()
        if not 0 <= int(i) < n or int(i) != i:
            raise ValueError(f"BsplineBasis.evaluate_basis_function_i: i must be an index "
                             f"in [0, {n}), got {i!r}")
        return float(self.evaluate_linear_in_control_points(parameter_value)[int(i)])

    # --- comparison and pickling -----------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, BsplineBasis):
            return NotImplemented
        return self._order == other._order and np.array_equal(self._knots, other._knots)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __getstate__(self):
        return (self._order, self._knots.tolist())

    def __setstate__(self, state):
        self._order, self._knots = int(state[0]), np.array(state[1], dtype=float)

    def __repr__(self):
        return f"BsplineBasis(order={self._order}, knots={self._knots.tolist()})"

    def _checked_parameter(self, function, parameter_value):
        t = float(parameter_value)
        t0, t1 = self.initial_parameter_value(), self.final_parameter_value()
        if not t0 <= t <= t1:
            raise ValueError(f"BsplineBasis.{function}: parameter_value must lie in "
                             f"[{t0}, {t1}], got {t}")
        return t


def _make_knots(order, num_basis_functions, knot_type, t0, t1):
    """Knots of `num_basis_functions` functions of `order` over [t0, t1], by type."""
    if num_basis_functions < order:
        raise ValueError(f"BsplineBasis: num_basis_functions must be at least order = "
                         f"{order}, got {num_basis_functions}")
    if not (math.isfinite(t0) and math.isfinite(t1)) or t0 > t1:
        raise ValueError(f"BsplineBasis: initial_parameter_value must not exceed "
                         f"final_parameter_value, got {t0} and {t1}")
    try:
        knot_type = KnotVectorType(knot_type)
    except ValueError:
        raise ValueError(f"BsplineBasis: type must be a KnotVectorType, got "
                         f"{knot_type!r}") from None
    delta = (t1 - t0) / (num_basis_functions - order + 1.0)
    clamped = knot_type == KnotVectorType.kClampedUniform
    knots = []
    for i in range(num_basis_functions + order):
        if clamped and i < order:
            knots.append(t0)
        elif clamped and i >= num_basis_functions:
            knots.append(t1)
        else:
            knots.append(t0 + delta * (i - (order - 1)))
    return knots


def _positive_int(name, value):
    if isinstance(value, bool) or int(value) != value or int(value) < 1:
        raise ValueError(f"BsplineBasis: {name} must be a positive integer, got {value!r}")
    return int(value)


def _type_name(value):
    return type(value).__name__
