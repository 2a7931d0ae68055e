"""Matrix-valued piecewise polynomial trajectories (Drake's PiecewisePolynomial).

The trajectory is defined by strictly increasing ``breaks`` t_0 < ... < t_{N-1} (seconds)
and one polynomial per segment [t_i, t_{i+1}], expressed in local time tau = t - t_i. All
segments are stored in one array ``coefficients`` of shape (N - 1, D + 1, rows, cols), so
evaluation is a segment search (bisection) and a sum over powers (compiled, in
:mod:`framework.trajectories.polynomial_eval`). Layout and kernels are in
:mod:`framework.trajectories.polynomial`.

Evaluation follows Drake: t is clamped to [start_time(), end_time()], and at an interior
break the segment that starts there is used (so a zero-order hold returns the sample at
each break but the second to last one at the end time).

Samples are accepted in the layouts Drake's Python bindings accept:

- an array of shape (rows, N): column i is the (rows, 1) sample at breaks[i];
- an array of shape (N,): N scalar samples (a 1x1 trajectory);
- a list of N ndarrays, each (rows, cols) (or (rows,) for a column): matrix samples;
- an array of shape (N, rows, cols): matrix samples.
"""

from __future__ import annotations

import numbers
from bisect import bisect_right

import numpy as np

from merganser.framework.compiled_form_changes import note_compiled_form_change
from merganser.framework.trajectories import polynomial
from merganser.framework.trajectories.polynomial_eval import eval_orders, stack_derivatives
from merganser.framework.trajectories.trajectory import Trajectory, as_time

# Minimum separation of consecutive breaks (Drake's PiecewiseTrajectory::kEpsilonTime).
EPSILON_TIME = float(np.finfo(np.float64).eps)


# ---- input validation --------------------------------------------------------------------


def _as_float_array(function: str, name: str, value) -> np.ndarray:
    try:
        return np.asarray(value, dtype=np.float64)
    except TypeError:
        raise TypeError(
            f"{function}: {name} must be an array of real numbers, got {type(value).__name__}"
        ) from None
    except ValueError as error:
        raise ValueError(
            f"{function}: {name} must be a rectangular array of real numbers (knots have "
            f"inconsistent dimensions?): {error}"
        ) from None


def _as_breaks(function: str, breaks) -> np.ndarray:
    breaks = _as_float_array(function, "breaks", breaks)
    if breaks.ndim != 1:
        raise ValueError(
            f"{function}: breaks must be a one-dimensional array of times, got shape "
            f"{breaks.shape}"
        )
    if not np.isfinite(breaks).all():
        index = int(np.flatnonzero(~np.isfinite(breaks))[0])
        raise ValueError(
            f"{function}: breaks[{index}] = {float(breaks[index])!r} is not finite")
    return breaks


def _as_samples(function: str, name: str, samples) -> np.ndarray:
    """Convert samples in any accepted layout to shape (N, rows, cols)."""
    if isinstance(samples, (list, tuple)) and samples and all(
            isinstance(sample, np.ndarray) for sample in samples):
        matrices = [_as_matrix(function, f"{name}[{i}]", s) for i, s in enumerate(samples)]
        for i, matrix in enumerate(matrices):
            if matrix.shape != matrices[0].shape:
                raise ValueError(
                    f"{function}: {name}[{i}] has shape {matrix.shape} but {name}[0] has "
                    f"shape {matrices[0].shape} (knots have inconsistent dimensions)"
                )
        return np.stack(matrices)
    array = _as_float_array(function, name, samples)
    if array.ndim == 1:
        return array.reshape(-1, 1, 1)
    if array.ndim == 2:
        return np.ascontiguousarray(array.T)[:, :, None]
    if array.ndim == 3:
        return array
    raise ValueError(
        f"{function}: {name} must have shape (rows, N), (N,) or (N, rows, cols), or be a "
        f"list of N matrices; got an array of shape {array.shape}"
    )


def _as_matrix(function: str, name: str, value) -> np.ndarray:
    """Convert a scalar, a (rows,) vector or a (rows, cols) matrix to 2-D."""
    matrix = _as_float_array(function, name, value)
    if matrix.ndim == 0:
        return matrix.reshape(1, 1)
    if matrix.ndim == 1:
        return matrix.reshape(-1, 1)
    if matrix.ndim == 2:
        return matrix
    raise ValueError(
        f"{function}: {name} must be a scalar, vector or matrix, got an array of shape "
        f"{matrix.shape}"
    )


def _check_spline_inputs(function: str, breaks, samples, min_length: int):
    """Validate breaks and samples as Drake does; return (breaks (N,), samples (N, r, c))."""
    breaks = _as_breaks(function, breaks)
    samples = _as_samples(function, "samples", samples)
    if len(breaks) != len(samples):
        raise ValueError(
            f"{function}: number of break points {len(breaks)} does not match number of "
            f"samples {len(samples)}"
        )
    if len(breaks) < min_length:
        raise ValueError(
            f"{function}: {len(breaks)} samples is not enough samples (this method "
            f"requires at least {min_length})"
        )
    if samples.shape[1] < 1 or samples.shape[2] < 1:
        raise ValueError(
            f"{function}: samples must be non-empty matrices, got shape {samples.shape[1:]}"
        )
    gaps = np.diff(breaks)
    if (gaps <= 0.0).any():
        i = int(np.flatnonzero(gaps <= 0.0)[0])
        raise ValueError(
            f"{function}: breaks must be strictly increasing, but breaks[{i + 1}] = "
            f"{float(breaks[i + 1])!r} <= breaks[{i}] = {float(breaks[i])!r}"
        )
    if (gaps < EPSILON_TIME).any():
        i = int(np.flatnonzero(gaps < EPSILON_TIME)[0])
        raise ValueError(
            f"{function}: breaks must be at least {EPSILON_TIME} apart, but breaks[{i + 1}] "
            f"- breaks[{i}] = {float(gaps[i])!r}"
        )
    return breaks, samples


def _check_same_shape(function: str, name: str, matrix: np.ndarray, shape) -> None:
    if matrix.shape != tuple(shape):
        raise ValueError(
            f"{function}: {name} has shape {matrix.shape}, expected {tuple(shape)} "
            "(the shape of the samples)"
        )


# ---- the trajectory ----------------------------------------------------------------------


class PiecewisePolynomial(Trajectory):
    """A matrix-valued trajectory that is a polynomial of time on each segment.

    ``PiecewisePolynomial()`` is empty (no segments); ``PiecewisePolynomial(value)`` is
    the constant ``value`` (scalar, (rows,) vector or (rows, cols) matrix) on
    [-inf, inf]. The class methods build interpolating splines through samples.

    Parameters
    ----------
    constant_value : array_like, optional
        Constant value; a vector becomes a (rows, 1) column.
    """

    # Make numpy defer ``ndarray + PiecewisePolynomial`` to our reflected operators.
    __array_ufunc__ = None

    def __init__(self, constant_value=None):
        if constant_value is None:
            self._set_data(np.zeros(0), np.zeros((0, 1, 0, 0)))
        else:
            value = _as_matrix("PiecewisePolynomial", "constant_value", constant_value)
            self._set_data(np.array([-np.inf, np.inf]), value[None, None].copy())

    @classmethod
    def _from_data(cls, breaks: np.ndarray, coefficients: np.ndarray) -> PiecewisePolynomial:
        trajectory = cls.__new__(cls)
        trajectory._set_data(breaks, coefficients)
        return trajectory

    def _set_data(self, breaks: np.ndarray, coefficients: np.ndarray) -> None:
        self._breaks = np.array(breaks, dtype=np.float64)
        self._breaks_list = self._breaks.tolist()
        self._coefficients = np.array(coefficients, dtype=np.float64, order="C")
        self._num_segments = self._coefficients.shape[0]
        # "stack" -> (breaks, stacked derivative coefficients, counts) of the compiled
        # evaluation, and "last" -> (out, t, max order, inside) of the last call of
        # _eval_value_and_derivatives_into
        self._evaluation_cache = {}
        note_compiled_form_change()     # compiled diagrams read the coefficients

    # ---- constructors ----------------------------------------------------------------

    @classmethod
    def from_coefficients(cls, breaks, coefficients) -> PiecewisePolynomial:
        """Build from breaks and per-segment coefficients in local time.

        Parameters
        ----------
        breaks : array_like, shape (N,)
            Strictly increasing times (seconds), N >= 2.
        coefficients : array_like, shape (N - 1, D + 1, rows, cols)
            ``coefficients[i, j]`` multiplies (t - breaks[i])**j on segment i.
        """
        function = "from_coefficients"
        coefficients = _as_float_array(function, "coefficients", coefficients)
        if coefficients.ndim != 4 or min(coefficients.shape) < 1:
            raise ValueError(
                f"{function}: coefficients must have shape (num_segments, degree + 1, "
                f"rows, cols) with every size >= 1, got {coefficients.shape}"
            )
        breaks = _as_breaks(function, breaks)
        if len(breaks) != coefficients.shape[0] + 1:
            raise ValueError(
                f"{function}: {len(breaks)} breaks given for {coefficients.shape[0]} segments; "
                "expected one more break than segments"
            )
        breaks, _ = _check_spline_inputs(function, breaks, np.zeros(len(breaks)), 2)
        return cls._from_data(breaks, coefficients)

    @classmethod
    def zero_order_hold(cls, breaks, samples) -> PiecewisePolynomial:
        """Piecewise constant: segment i holds samples[i] (the last sample is unused).

        Parameters
        ----------
        breaks, samples : array_like
            N >= 2 strictly increasing times (seconds), shape (N,), and the N samples
            (layouts in the module docstring), each held until the next break.
        """
        breaks, samples = _check_spline_inputs("zero_order_hold", breaks, samples, 2)
        return cls._from_data(breaks, samples[:-1, None])

    @classmethod
    def first_order_hold(cls, breaks, samples) -> PiecewisePolynomial:
        """Piecewise linear interpolation of the samples.

        Parameters
        ----------
        breaks, samples : array_like
            N >= 2 strictly increasing times (seconds), shape (N,), and the N samples
            (layouts in the module docstring) joined by straight lines.
        """
        breaks, samples = _check_spline_inputs("first_order_hold", breaks, samples, 2)
        slopes = (samples[1:] - samples[:-1]) / np.diff(breaks)[:, None, None]
        return cls._from_data(breaks, np.stack([samples[:-1], slopes], axis=1))

    @classmethod
    def cubic_shape_preserving(cls, breaks, samples,
                               zero_end_point_derivatives: bool = False) -> PiecewisePolynomial:
        """Shape-preserving cubic (PCHIP) interpolation: monotone data stay monotone.

        Derivatives at interior breaks are the weighted harmonic mean of the adjacent
        secant slopes, or zero at a local extremum of the samples (Fritsch-Carlson);
        at the ends they come from a non-centred three-point formula limited to keep
        the shape, or are zero if ``zero_end_point_derivatives``. Second derivatives
        are not continuous.

        Parameters
        ----------
        breaks, samples : array_like
            Strictly increasing times (seconds), shape (N,), and the N samples (layouts
            in the module docstring); N >= 3, or N >= 2 when ``zero_end_point_derivatives``.
        zero_end_point_derivatives : bool, optional
            Use zero first derivatives at the first and last breaks.
        """
        min_length = 2 if zero_end_point_derivatives else 3
        breaks, samples = _check_spline_inputs(
            "cubic_shape_preserving", breaks, samples, min_length)
        durations = np.diff(breaks)
        slopes = polynomial.shape_preserving_slopes(
            durations, samples, bool(zero_end_point_derivatives))
        return cls._from_data(
            breaks, polynomial.cubic_hermite_coefficients(durations, samples, slopes))

    @classmethod
    def cubic_with_continuous_second_derivatives(
            cls, breaks, samples, sample_dot_at_start=None, sample_dot_at_end=None,
            periodic_end_condition: bool = False, *,
            periodic_end: bool | None = None) -> PiecewisePolynomial:
        """Cubic spline with continuous first and second derivatives at interior breaks.

        End conditions: the given first derivatives at both ends (clamped) when
        ``sample_dot_at_start`` and ``sample_dot_at_end`` are given; otherwise
        "not-a-knot" (continuous third derivative at the second and second to last
        breaks; with three breaks, the parabola through the samples) or, if
        ``periodic_end_condition``, equal first and second derivatives at both ends.

        Parameters
        ----------
        breaks, samples : array_like
            Strictly increasing times (seconds), shape (N,), and the N samples (layouts
            in the module docstring); N >= 2 when clamped, else N >= 3.
        sample_dot_at_start, sample_dot_at_end : array_like, shape (rows, cols), optional
            First time derivatives at the first and last breaks (both or neither).
        periodic_end_condition : bool, optional
            Use the periodic end condition (only without end derivatives). As in pydrake,
            it may also be the third positional argument (``(breaks, samples, True)``),
            or the keyword ``periodic_end=``.
        """
        function = "cubic_with_continuous_second_derivatives"
        if isinstance(sample_dot_at_start, (bool, np.bool_)) and sample_dot_at_end is None:
            sample_dot_at_start, periodic_end_condition = None, bool(sample_dot_at_start)
        if periodic_end is not None:
            periodic_end_condition = bool(periodic_end)
        clamped = sample_dot_at_start is not None or sample_dot_at_end is not None
        if clamped and (sample_dot_at_start is None or sample_dot_at_end is None):
            missing = "sample_dot_at_end" if sample_dot_at_end is None else "sample_dot_at_start"
            raise ValueError(
                f"{function}: sample_dot_at_start and sample_dot_at_end must be given "
                f"together, but {missing} is None"
            )
        if clamped and periodic_end_condition:
            raise ValueError(
                f"{function}: periodic_end_condition=True cannot be combined with "
                "sample_dot_at_start / sample_dot_at_end"
            )
        breaks, samples = _check_spline_inputs(function, breaks, samples, 2 if clamped else 3)
        durations = np.diff(breaks)
        if clamped:
            start = _as_matrix(function, "sample_dot_at_start", sample_dot_at_start)
            end = _as_matrix(function, "sample_dot_at_end", sample_dot_at_end)
            _check_same_shape(function, "sample_dot_at_start", start, samples.shape[1:])
            _check_same_shape(function, "sample_dot_at_end", end, samples.shape[1:])
            slopes = polynomial.spline_slopes(durations, samples, "clamped", start, end)
        else:
            condition = "periodic" if periodic_end_condition else "not-a-knot"
            slopes = polynomial.spline_slopes(durations, samples, condition)
        return cls._from_data(
            breaks, polynomial.cubic_hermite_coefficients(durations, samples, slopes))

    @classmethod
    def cubic_hermite(cls, breaks, samples, samples_dot) -> PiecewisePolynomial:
        """Cubic pieces matching given values and first derivatives at every break.

        Parameters
        ----------
        breaks, samples : array_like
            N >= 2 strictly increasing times (seconds), shape (N,), and the N samples
            (layouts in the module docstring) the curve passes through.
        samples_dot : array_like
            N first time derivatives, in the same layout and shape as ``samples``.
        """
        function = "cubic_hermite"
        breaks, samples = _check_spline_inputs(function, breaks, samples, 2)
        samples_dot = _as_samples(function, "samples_dot", samples_dot)
        if len(samples_dot) != len(samples):
            raise ValueError(
                f"{function}: samples_dot has {len(samples_dot)} samples but samples has "
                f"{len(samples)} (one per break)"
            )
        if samples_dot.shape[1:] != samples.shape[1:]:
            raise ValueError(
                f"{function}: samples_dot entries have shape {samples_dot.shape[1:]} but "
                f"samples entries have shape {samples.shape[1:]}"
            )
        durations = np.diff(breaks)
        return cls._from_data(
            breaks, polynomial.cubic_hermite_coefficients(durations, samples, samples_dot))

    @classmethod
    def lagrange_interpolating_polynomial(cls, times, samples) -> PiecewisePolynomial:
        """The single polynomial of degree N - 1 through N samples.

        Parameters
        ----------
        times : array_like, shape (N,)
            Strictly increasing times (seconds), N >= 2. The trajectory spans
            [times[0], times[-1]] as one segment.
        samples : array_like
            N samples, see the module docstring for the layouts.
        """
        breaks, samples = _check_spline_inputs(
            "lagrange_interpolating_polynomial", times, samples, 2)
        n, rows, cols = samples.shape
        vandermonde = (breaks - breaks[0])[:, None] ** np.arange(n)[None, :]
        solution = np.linalg.solve(vandermonde, samples.reshape(n, rows * cols))
        return cls._from_data(breaks[[0, -1]], solution.reshape(1, n, rows, cols))

    # ---- Trajectory implementation ---------------------------------------------------------

    def _require_segments(self, function: str) -> None:
        if self._num_segments == 0:
            raise RuntimeError(
                f"{function}: PiecewisePolynomial is empty (it has no segments)"
            )

    def _evaluation_stack(self, max_order: int):
        """(breaks, stack, counts) of `polynomial_eval.eval_orders` for orders 0 ..
        max_order (built once per trajectory data and highest order asked for)."""
        data = self._evaluation_cache.get("stack")
        if data is None or data[2].shape[0] <= max_order:
            stack, counts = stack_derivatives(self._coefficients, polynomial.differentiate,
                                              max(max_order, 1))
            data = self._evaluation_cache["stack"] = (self._breaks, stack, counts)
        return data

    def _evaluate(self, function: str, t: float, derivative_order: int) -> np.ndarray:
        self._require_segments(function)
        breaks, stack, counts = self._evaluation_stack(derivative_order)
        shape = self._coefficients.shape
        out = np.empty(shape[2] * shape[3])
        eval_orders(breaks, stack, counts, float(t), derivative_order, derivative_order, out)
        return out.reshape(shape[2], shape[3])

    def _eval_value_and_derivatives_into(self, t: float, max_order: int, out: np.ndarray,
                                         reuse: bool = False) -> bool:
        """Write [value; d/dt value; ...; d^max_order/dt^max_order value] at ``t`` into ``out``.

        For TrajectorySource: one compiled call for all the orders and no argument
        checks; bit for bit the numbers of ``value(t)`` and ``eval_derivative(t, k)``
        (t clamped to the time range; the same kernel evaluates both).

        Parameters
        ----------
        t : float
            Time in seconds.
        max_order : int
            Highest derivative order, >= 0.
        out : ndarray, shape (rows * cols * (max_order + 1),)
            C-contiguous float64 output; each block is a value flattened in row-major order.
        reuse : bool
            When True and the previous call (since the trajectory last changed) wrote this
            same ``out`` at the same ``t`` and ``max_order``, nothing is written: the caller
            guarantees that ``out`` was not modified since (e.g. a cache entry's storage).

        Returns
        -------
        bool
            True when ``t`` lies within [start_time(), end_time()].
        """
        cache = self._evaluation_cache
        last = cache.get("last")
        if reuse and last is not None and last[0] is out and last[1] == t \
                and last[2] == max_order:
            return last[3]
        data = cache.get("stack")
        if data is None or data[2].shape[0] <= max_order:
            self._require_segments("TrajectorySource")
            data = self._evaluation_stack(max_order)
        inside = eval_orders(data[0], data[1], data[2], t, 0, max_order, out)
        cache["last"] = (out, t, max_order, inside)
        return inside

    def do_value(self, t: float) -> np.ndarray:
        return self._evaluate("value", t, 0)

    def do_eval_derivative(self, t: float, derivative_order: int) -> np.ndarray:
        return self._evaluate("eval_derivative", t, derivative_order)

    def do_values(self, times: np.ndarray) -> np.ndarray:
        self._require_segments("vector_values")
        breaks = self._breaks
        clamped = np.clip(times, breaks[0], breaks[-1])
        segments = np.clip(np.searchsorted(breaks, clamped, side="right") - 1,
                           0, self._num_segments - 1)
        return polynomial.evaluate(self._coefficients, segments, clamped - breaks[segments])

    def do_has_derivative(self) -> bool:
        return True

    def do_make_derivative(self, derivative_order: int) -> PiecewisePolynomial:
        return self._from_data(
            self._breaks, polynomial.differentiate(self._coefficients, derivative_order))

    def do_rows(self) -> int:
        self._require_segments("rows")
        return self._coefficients.shape[2]

    def do_cols(self) -> int:
        self._require_segments("cols")
        return self._coefficients.shape[3]

    def do_start_time(self) -> float:
        self._require_segments("start_time")
        return self._breaks_list[0]

    def do_end_time(self) -> float:
        self._require_segments("end_time")
        return self._breaks_list[-1]

    # ---- segments ------------------------------------------------------------------------

    def _check_segment_index(self, function: str, segment_index) -> int:
        if isinstance(segment_index, bool) or not isinstance(segment_index, numbers.Integral):
            raise TypeError(
                f"{function}: segment_index must be an integer, got "
                f"{type(segment_index).__name__}"
            )
        if not 0 <= segment_index < self._num_segments:
            raise ValueError(
                f"{function}: segment_index {segment_index} out of range "
                f"[0, {self._num_segments})"
            )
        return int(segment_index)

    def start_time(self, segment_index: int | None = None) -> float:
        """Return the start time (seconds) of the trajectory, or of one segment.

        Parameters
        ----------
        segment_index : int, optional
            Segment in [0, get_number_of_segments()); None for the whole trajectory.
        """
        if segment_index is None:
            return self.do_start_time()
        return self._breaks_list[self._check_segment_index("start_time", segment_index)]

    def end_time(self, segment_index: int | None = None) -> float:
        """Return the end time (seconds) of the trajectory, or of one segment.

        Parameters
        ----------
        segment_index : int, optional
            Segment in [0, get_number_of_segments()); None for the whole trajectory.
        """
        if segment_index is None:
            return self.do_end_time()
        return self._breaks_list[self._check_segment_index("end_time", segment_index) + 1]

    def duration(self, segment_index: int) -> float:
        """Return the duration (seconds) of one segment.

        Parameters
        ----------
        segment_index : int
            Segment in [0, get_number_of_segments()).
        """
        index = self._check_segment_index("duration", segment_index)
        return self._breaks_list[index + 1] - self._breaks_list[index]

    def empty(self) -> bool:
        """Return True if the trajectory has no segments."""
        return self._num_segments == 0

    def get_number_of_segments(self) -> int:
        """Return the number of segments (number of breaks minus one, or 0)."""
        return self._num_segments

    def get_segment_times(self) -> list[float]:
        """Return the breaks (seconds) as a list."""
        return list(self._breaks_list)

    def get_segment_index(self, t) -> int:
        """Return the index of the segment used to evaluate time ``t``.

        ``t`` is clamped to the time span; at an interior break the segment starting
        there is returned, at the end time the last segment.

        Parameters
        ----------
        t : float
            Time in seconds.
        """
        t = as_time("get_segment_index", t)
        self._require_segments("get_segment_index")
        return min(max(bisect_right(self._breaks_list, t) - 1, 0), self._num_segments - 1)

    def is_time_in_range(self, t) -> bool:
        """Return True if start_time() <= t <= end_time().

        Parameters
        ----------
        t : float
            Time in seconds.
        """
        t = as_time("is_time_in_range", t)
        return self.start_time() <= t <= self.end_time()

    def get_coefficients(self) -> np.ndarray:
        """Return the coefficients, shape (num_segments, degree + 1, rows, cols).

        ``coefficients[i, j]`` multiplies (t - breaks[i])**j on segment i. The returned
        array is a read-only view.
        """
        view = self._coefficients.view()
        view.flags.writeable = False
        return view

    def slice(self, start_segment_index: int, num_segments: int) -> PiecewisePolynomial:
        """Return a new trajectory made of consecutive segments of this one.

        Parameters
        ----------
        start_segment_index : int
            First segment kept.
        num_segments : int
            Number of segments kept (>= 1).
        """
        first = self._check_segment_index("slice", start_segment_index)
        last = self._check_segment_index("slice", first + num_segments - 1)
        return self._from_data(self._breaks[first:last + 2],
                               self._coefficients[first:last + 1])

    # ---- matrix shape ------------------------------------------------------------------

    def block(self, start_row: int, start_col: int, block_rows: int,
              block_cols: int) -> PiecewisePolynomial:
        """A new trajectory whose value is the (block_rows, block_cols) block of this one's
        starting at (start_row, start_col) (Drake's Block).

        Raises
        ------
        ValueError
            If the block does not lie inside the (rows, cols) value.
        """
        rows, cols = self._coefficients.shape[2:]
        r, c, br, bc = (int(x) for x in (start_row, start_col, block_rows, block_cols))
        if not (0 <= r and 0 <= c and 0 <= br and 0 <= bc and r + br <= rows
                and c + bc <= cols):
            raise ValueError(f"PiecewisePolynomial.block: the block ({r}, {c}) + ({br}, {bc}) "
                             f"does not lie inside the ({rows}, {cols}) value")
        return self._from_data(self._breaks, self._coefficients[:, :, r:r + br, c:c + bc])

    def transpose(self) -> PiecewisePolynomial:
        """A new trajectory whose value is this one's transposed (Drake's Transpose)."""
        return self._from_data(self._breaks, self._coefficients.transpose(0, 1, 3, 2))

    def reshape(self, rows: int, cols: int) -> None:
        """Reshape the value to (rows, cols) in place, the entries kept in column-major
        order as Eigen's resize (Drake's Reshape).

        Raises
        ------
        ValueError
            If rows * cols differs from the number of entries.
        """
        S, D, r0, c0 = self._coefficients.shape
        rows, cols = int(rows), int(cols)
        if rows < 0 or cols < 0 or rows * cols != r0 * c0:
            raise ValueError(f"PiecewisePolynomial.reshape: ({rows}, {cols}) does not hold "
                             f"the {r0} x {c0} = {r0 * c0} entries")
        flat = self._coefficients.reshape(S, D, r0 * c0, order="F")
        self._set_data(self._breaks, flat.reshape(S, D, rows, cols, order="F"))

    # ---- calculus and comparison -------------------------------------------------------

    def integral(self, value_at_start_time=0.0) -> PiecewisePolynomial:
        """Return the antiderivative with the given value at start_time().

        Parameters
        ----------
        value_at_start_time : float or array_like, shape (rows, cols), optional
            Value of the result at start_time(); a scalar applies to every entry.
        """
        function = "integral"
        self._require_segments(function)
        if not np.isfinite(self._breaks).all():
            raise ValueError(f"{function}: the trajectory spans infinite time")
        start = _as_float_array(function, "value_at_start_time", value_at_start_time)
        if start.ndim != 0:
            start = _as_matrix(function, "value_at_start_time", start)
            _check_same_shape(function, "value_at_start_time", start,
                              (self.rows(), self.cols()))
        antiderivative = polynomial.antidifferentiate(self._coefficients)
        durations = np.diff(self._breaks)
        increments = polynomial.evaluate(
            antiderivative, np.arange(self._num_segments), durations)
        antiderivative[:, 0] = start + np.cumsum(increments, axis=0) - increments
        return self._from_data(self._breaks, antiderivative)

    def is_approx(self, other: PiecewisePolynomial, tol: float) -> bool:
        """Return True if ``other`` is the same trajectory up to ``tol``.

        Parameters
        ----------
        other : PiecewisePolynomial
            Trajectory to compare with.
        tol : float
            Tolerance on breaks (absolute, seconds) and coefficients (absolute for
            magnitudes below 1, relative above); degrees may differ (zero padding).
        """
        if not isinstance(other, PiecewisePolynomial):
            return False
        if self.empty() or other.empty():
            return self.empty() and other.empty()
        if self._coefficients.shape[2:] != other._coefficients.shape[2:]:
            return False
        if self._breaks.shape != other._breaks.shape or not np.all(
                np.abs(self._breaks - other._breaks) <= tol):
            return False
        size = max(self._coefficients.shape[1], other._coefficients.shape[1])
        a = polynomial.elevate(self._coefficients, size)
        b = polynomial.elevate(other._coefficients, size)
        scale = np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))
        return bool(np.all(np.abs(a - b) <= tol * scale))

    # ---- modification (in place, as Drake) ------------------------------------------------

    def _new_end_time(self, function: str, time) -> tuple[float, float]:
        """Validate the end time of an appended segment; return it and the duration."""
        self._require_segments(function)
        time = as_time(function, time, "time")
        end = self.end_time()
        if not time > end:
            raise ValueError(
                f"{function}: time {time!r} must be greater than end_time() = {end!r}"
            )
        return time, time - end

    def _append_segment(self, end_time: float, coefficients: np.ndarray) -> None:
        size = max(self._coefficients.shape[1], coefficients.shape[1])
        self._set_data(
            np.append(self._breaks, end_time),
            np.concatenate([polynomial.elevate(self._coefficients, size),
                            polynomial.elevate(coefficients, size)]))

    def append_first_order_segment(self, time, sample) -> None:
        """Append a linear segment from the current end value to ``sample`` at ``time``.

        Parameters
        ----------
        time : float
            New end time (seconds), > end_time().
        sample : array_like, shape (rows, cols)
            Value at ``time``.
        """
        function = "append_first_order_segment"
        time, duration = self._new_end_time(function, time)
        sample = _as_matrix(function, "sample", sample)
        _check_same_shape(function, "sample", sample, (self.rows(), self.cols()))
        start = self.value(self.end_time())
        coefficients = np.stack([start, (sample - start) / duration])[None]
        self._append_segment(time, coefficients)

    def append_cubic_hermite_segment(self, time, sample, sample_dot) -> None:
        """Append a cubic segment from the current end value and derivative.

        Parameters
        ----------
        time : float
            New end time (seconds), > end_time().
        sample, sample_dot : array_like, shape (rows, cols)
            Value and first time derivative at ``time``.
        """
        function = "append_cubic_hermite_segment"
        time, duration = self._new_end_time(function, time)
        shape = (self.rows(), self.cols())
        sample = _as_matrix(function, "sample", sample)
        sample_dot = _as_matrix(function, "sample_dot", sample_dot)
        _check_same_shape(function, "sample", sample, shape)
        _check_same_shape(function, "sample_dot", sample_dot, shape)
        end = self.end_time()
        values = np.stack([self.value(end), sample])
        derivatives = np.stack([self.eval_derivative(end, 1), sample_dot])
        self._append_segment(time, polynomial.cubic_hermite_coefficients(
            np.array([duration]), values, derivatives))

    def remove_final_segment(self) -> None:
        """Remove the last segment (and the last break)."""
        self._require_segments("remove_final_segment")
        self._set_data(self._breaks[:-1], self._coefficients[:-1])

    def concatenate_in_time(self, other: PiecewisePolynomial) -> None:
        """Append ``other``, which must start (within rounding) where this one ends.

        An empty trajectory becomes a copy of ``other``.

        Parameters
        ----------
        other : PiecewisePolynomial
            Trajectory of the same shape with other.start_time() == end_time().
        """
        function = "concatenate_in_time"
        if not isinstance(other, PiecewisePolynomial):
            raise TypeError(
                f"{function}: other must be a PiecewisePolynomial, got {type(other).__name__}"
            )
        other._require_segments(function)
        if self.empty():
            self._set_data(other._breaks, other._coefficients)
            return
        if (self.rows(), self.cols()) != (other.rows(), other.cols()):
            raise ValueError(
                f"{function}: other is {other.rows()}x{other.cols()} but this trajectory is "
                f"{self.rows()}x{self.cols()}"
            )
        offset = other.start_time() - self.end_time()
        tolerance = max(abs(self.end_time()), 1.0) * np.finfo(np.float64).eps
        if not abs(offset) < tolerance:
            raise ValueError(
                f"{function}: other starts at {other.start_time()!r} but this trajectory "
                f"ends at {self.end_time()!r}; they must coincide"
            )
        size = max(self._coefficients.shape[1], other._coefficients.shape[1])
        self._set_data(
            np.concatenate([self._breaks[:-1], other._breaks - offset]),
            np.concatenate([polynomial.elevate(self._coefficients, size),
                            polynomial.elevate(other._coefficients, size)]))

    def shift_right(self, offset) -> None:
        """Delay the trajectory: new value(t) = old value(t - offset).

        Parameters
        ----------
        offset : float
            Delay in seconds (may be negative).
        """
        offset = as_time("shift_right", offset, "offset")
        if not np.isfinite(offset):
            raise ValueError(f"shift_right: offset must be finite, got {offset!r}")
        self._set_data(self._breaks + offset, self._coefficients)

    def scale_time(self, scale) -> None:
        """Stretch time: new value(t) = old value(t / scale).

        Parameters
        ----------
        scale : float
            Time scale factor, > 0 (2 makes the trajectory twice as slow).
        """
        scale = as_time("scale_time", scale, "scale")
        if not 0.0 < scale < np.inf:
            raise ValueError(f"scale_time: scale must be finite and > 0, got {scale!r}")
        powers = scale ** np.arange(self._coefficients.shape[1], dtype=np.float64)
        self._set_data(self._breaks * scale,
                           self._coefficients / powers[None, :, None, None])

    def reverse_time(self) -> None:
        """Reverse time: new value(t) = old value(-t), on [-end_time(), -start_time()]."""
        self._require_segments("reverse_time")
        durations = np.diff(self._breaks)
        # Segment i becomes q(tau) = p_i(h_i - tau): shift by h_i, then negate odd powers.
        shifted = polynomial.shift(self._coefficients, durations)
        signs = (-1.0) ** np.arange(shifted.shape[1])
        self._set_data(-self._breaks[::-1],
                           (shifted * signs[None, :, None, None])[::-1])

    # ---- arithmetic ---------------------------------------------------------------------

    def _check_same_segments(self, function: str, other: PiecewisePolynomial) -> None:
        if (self.rows(), self.cols()) != (other.rows(), other.cols()):
            raise ValueError(
                f"{function}: operands are {self.rows()}x{self.cols()} and "
                f"{other.rows()}x{other.cols()}; shapes must match"
            )
        if self._breaks.shape != other._breaks.shape or np.any(
                np.abs(self._breaks - other._breaks) > EPSILON_TIME):
            raise ValueError(
                f"{function}: not implemented when segment times are not equal "
                f"({self.get_segment_times()} vs {other.get_segment_times()})"
            )

    def _offset(self, function: str, other) -> np.ndarray:
        offset = _as_float_array(function, "offset", other)
        if offset.ndim != 0:
            offset = _as_matrix(function, "offset", offset)
            _check_same_shape(function, "offset", offset, (self.rows(), self.cols()))
        return offset

    def __add__(self, other):
        """Sum with a PiecewisePolynomial of equal breaks and shape, or with a constant
        offset (scalar or (rows, cols) array)."""
        if isinstance(other, PiecewisePolynomial):
            self._check_same_segments("__add__", other)
            size = max(self._coefficients.shape[1], other._coefficients.shape[1])
            return self._from_data(self._breaks,
                                   polynomial.elevate(self._coefficients, size)
                                   + polynomial.elevate(other._coefficients, size))
        if not isinstance(other, (numbers.Real, np.ndarray, list, tuple)):
            return NotImplemented
        coefficients = self._coefficients.copy()
        coefficients[:, 0] += self._offset("__add__", other)
        return self._from_data(self._breaks, coefficients)

    __radd__ = __add__

    def __neg__(self):
        """Negated trajectory."""
        return self._from_data(self._breaks, -self._coefficients)

    def __sub__(self, other):
        """Difference with a PiecewisePolynomial of equal breaks or a constant offset."""
        if not isinstance(other, (PiecewisePolynomial, numbers.Real, np.ndarray, list, tuple)):
            return NotImplemented
        if isinstance(other, PiecewisePolynomial):
            return self + (-other)
        return self + (-self._offset("__sub__", other))

    def __rsub__(self, other):
        """Constant offset minus this trajectory."""
        return (-self) + other

    def __mul__(self, other):
        """Product with a real scalar."""
        if isinstance(other, numbers.Real) or (
                isinstance(other, np.ndarray) and other.ndim == 0):
            return self._from_data(self._breaks, self._coefficients * float(other))
        return NotImplemented

    __rmul__ = __mul__

    def __repr__(self) -> str:
        if self.empty():
            return "PiecewisePolynomial(empty)"
        return (
            f"PiecewisePolynomial(rows={self.rows()}, cols={self.cols()}, "
            f"segments={self._num_segments}, degree={self._coefficients.shape[1] - 1}, "
            f"start_time={self.start_time()}, end_time={self.end_time()})"
        )
