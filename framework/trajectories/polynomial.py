"""Coefficient kernels for piecewise polynomials with matrix values.

A piecewise polynomial with S segments, degree D and values of shape (R, C) is stored
as one array ``coefficients`` of shape (S, D + 1, R, C). On segment i, between
``breaks[i]`` and ``breaks[i + 1]``, the value is

    value(t) = sum_j coefficients[i, j] * tau**j,    tau = t - breaks[i],

i.e. ascending powers of the local time tau (seconds). Every function here acts on
such arrays at once, with no Python loop over segments or matrix entries (only over the
degree). The Hermite section builds cubic pieces from values and first derivatives at
the breaks and holds the two rules that choose those derivatives: the shape-preserving
(PCHIP) rule and the C2 cubic-spline rule.

References
----------
F. N. Fritsch and R. E. Carlson, "Monotone piecewise cubic interpolation", SIAM J.
Numer. Anal. 17(2), 1980.
C. de Boor, "A Practical Guide to Splines", Springer, 1978, chapter IV.
"""

from __future__ import annotations

import numpy as np

# Slopes closer to zero than this count as zero in the PCHIP end-slope rule (as Drake).
PCHIP_SLOPE_EPSILON = 1e-10


# ---- evaluation and calculus -----------------------------------------------------------


def evaluate(coefficients: np.ndarray, segment_indices: np.ndarray,
             local_times: np.ndarray) -> np.ndarray:
    """Evaluate pieces at many local times.

    Parameters
    ----------
    coefficients : ndarray, shape (S, D + 1, R, C)
        Piece coefficients, ascending powers of local time.
    segment_indices : ndarray of int, shape (n,)
        Segment of each evaluation.
    local_times : ndarray, shape (n,)
        Local time tau = t - breaks[segment] of each evaluation (seconds).

    Returns
    -------
    ndarray, shape (n, R, C)
        The values.
    """
    degree = coefficients.shape[1] - 1
    powers = local_times[:, None] ** np.arange(degree + 1)
    return np.einsum("nj,njrc->nrc", powers, coefficients[segment_indices])


def differentiate(coefficients: np.ndarray, derivative_order: int) -> np.ndarray:
    """Coefficients of the ``derivative_order``-th derivative of every piece.

    Parameters
    ----------
    coefficients : ndarray, shape (S, D + 1, R, C)
        Piece coefficients.
    derivative_order : int
        Number of derivatives, >= 0.

    Returns
    -------
    ndarray, shape (S, max(D + 1 - derivative_order, 1), R, C)
        Derivative coefficients; all zero of degree 0 when the order exceeds D.
    """
    num_segments, num_coefficients, rows, cols = coefficients.shape
    if derivative_order == 0:
        return coefficients.copy()
    if derivative_order >= num_coefficients:
        return np.zeros((num_segments, 1, rows, cols))
    # d^k/dtau^k tau^j = j (j - 1) ... (j - k + 1) tau^(j - k).
    powers = np.arange(derivative_order, num_coefficients, dtype=np.float64)
    factor = np.ones_like(powers)
    for m in range(derivative_order):
        factor *= powers - m
    return coefficients[:, derivative_order:] * factor[None, :, None, None]


def antidifferentiate(coefficients: np.ndarray) -> np.ndarray:
    """Coefficients of the antiderivative of every piece, zero at its local time 0.

    Parameters
    ----------
    coefficients : ndarray, shape (S, D + 1, R, C)

    Returns
    -------
    ndarray, shape (S, D + 2, R, C)
    """
    num_segments, num_coefficients, rows, cols = coefficients.shape
    result = np.zeros((num_segments, num_coefficients + 1, rows, cols))
    powers = np.arange(1, num_coefficients + 1, dtype=np.float64)
    result[:, 1:] = coefficients / powers[None, :, None, None]
    return result


def shift(coefficients: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Re-expand each piece about a shifted origin: q_i(tau) = p_i(tau + offsets[i]).

    Parameters
    ----------
    coefficients : ndarray, shape (S, D + 1, R, C)
    offsets : ndarray, shape (S,)
        Shift of each piece's local time origin (seconds).

    Returns
    -------
    ndarray, shape (S, D + 1, R, C)
    """
    from scipy.special import comb  # scipy loads at first use, not with the package

    degree = coefficients.shape[1] - 1
    j = np.arange(degree + 1)
    # q_m = sum_{j >= m} binom(j, m) offset^(j - m) p_j.
    exponent = j[None, :] - j[:, None]  # [m, j] = j - m
    binomial = comb(j[None, :], j[:, None])  # zero where j < m
    basis = binomial[None] * offsets[:, None, None] ** np.maximum(exponent, 0)[None]
    basis = np.where(exponent[None] >= 0, basis, 0.0)
    return np.einsum("smj,sjrc->smrc", basis, coefficients)


def elevate(coefficients: np.ndarray, num_coefficients: int) -> np.ndarray:
    """Zero-pad the coefficient axis to ``num_coefficients`` (degree elevation)."""
    missing = num_coefficients - coefficients.shape[1]
    if missing <= 0:
        return coefficients
    return np.pad(coefficients, ((0, 0), (0, missing), (0, 0), (0, 0)))


# ---- Hermite cubic pieces ----------------------------------------------------------------


def cubic_hermite_coefficients(durations: np.ndarray, samples: np.ndarray,
                               samples_dot: np.ndarray) -> np.ndarray:
    """Cubic pieces matching values and first derivatives at both ends.

    Parameters
    ----------
    durations : ndarray, shape (S,)
        h_i = breaks[i + 1] - breaks[i] (seconds).
    samples : ndarray, shape (S + 1, R, C)
        Values y_i at the breaks.
    samples_dot : ndarray, shape (S + 1, R, C)
        First derivatives s_i at the breaks.

    Returns
    -------
    ndarray, shape (S, 4, R, C)
        With delta_i = (y_{i+1} - y_i) / h_i the piece is
        y_i + s_i tau + (3 delta_i - 2 s_i - s_{i+1}) / h_i tau^2
        + (s_i + s_{i+1} - 2 delta_i) / h_i^2 tau^3.
    """
    h = durations[:, None, None]
    delta = (samples[1:] - samples[:-1]) / h
    s0, s1 = samples_dot[:-1], samples_dot[1:]
    c2 = (3.0 * delta - 2.0 * s0 - s1) / h
    c3 = (s0 + s1 - 2.0 * delta) / (h * h)
    return np.stack([samples[:-1], s0, c2, c3], axis=1)


def _sign(x: np.ndarray, tolerance: float) -> np.ndarray:
    return np.where(x < -tolerance, -1, np.where(x > tolerance, 1, 0))


def _pchip_end_slope(h0, h1, delta0, delta1) -> np.ndarray:
    """One end slope of the shape-preserving rule (three-point formula, clipped).

    ``h0``/``delta0`` belong to the end segment, ``h1``/``delta1`` to its neighbour.
    The non-centred three-point estimate is set to zero if its sign differs from
    delta0's, and limited to 3 delta0 where the data change direction.
    """
    slope = ((2.0 * h0 + h1) * delta0 - h0 * delta1) / (h0 + h1)
    sign_slope = _sign(slope, PCHIP_SLOPE_EPSILON)
    sign0 = _sign(delta0, PCHIP_SLOPE_EPSILON)
    sign1 = _sign(delta1, PCHIP_SLOPE_EPSILON)
    too_steep = (sign0 != sign1) & (np.abs(slope) > np.abs(3.0 * delta0))
    slope = np.where(too_steep, 3.0 * delta0, slope)
    return np.where(sign_slope != sign0, 0.0, slope)


def shape_preserving_slopes(durations: np.ndarray, samples: np.ndarray,
                            zero_end_point_derivatives: bool) -> np.ndarray:
    """First derivatives at the breaks that keep a cubic Hermite spline monotone.

    Interior slopes are the weighted harmonic mean of the neighbouring secant slopes
    (zero at a local extremum, i.e. where the secants differ in sign or one is zero);
    end slopes use the shape-preserving three-point formula, or zero.

    Parameters
    ----------
    durations : ndarray, shape (S,)
        Segment durations h_i (seconds), S >= 1 (S >= 2 unless
        ``zero_end_point_derivatives``).
    samples : ndarray, shape (S + 1, R, C)
        Values at the breaks.
    zero_end_point_derivatives : bool
        If True, the first and last slopes are zero.

    Returns
    -------
    ndarray, shape (S + 1, R, C)
    """
    h = durations[:, None, None]
    delta = (samples[1:] - samples[:-1]) / h
    slopes = np.zeros_like(samples)
    if len(durations) >= 2:
        h0, h1 = h[:-1], h[1:]
        d0, d1 = delta[:-1], delta[1:]
        same_sign = d0 * d1 > 0.0
        safe0 = np.where(same_sign, d0, 1.0)
        safe1 = np.where(same_sign, d1, 1.0)
        common = h0 + h1
        harmonic = 3.0 * common / ((common + h1) / safe0 + (common + h0) / safe1)
        slopes[1:-1] = np.where(same_sign, harmonic, 0.0)
        if not zero_end_point_derivatives:
            slopes[0] = _pchip_end_slope(h[0], h[1], delta[0], delta[1])
            slopes[-1] = _pchip_end_slope(h[-1], h[-2], delta[-1], delta[-2])
    return slopes


def spline_slopes(durations: np.ndarray, samples: np.ndarray, end_condition: str,
                  slope_at_start: np.ndarray | None = None,
                  slope_at_end: np.ndarray | None = None) -> np.ndarray:
    """First derivatives at the breaks of the C2 cubic spline through the samples.

    Row i of the linear system for the slopes s (interior breaks) makes the second
    derivative continuous at break i:
    h_i s_{i-1} + 2 (h_{i-1} + h_i) s_i + h_{i-1} s_{i+1} = 3 (h_i delta_{i-1} + h_{i-1} delta_i).
    The first and last rows hold the end condition:

    - ``"clamped"``: s_0 and s_{N-1} are given.
    - ``"not-a-knot"``: the third derivative is continuous at breaks 1 and N-2; with
      three breaks (where those coincide) both pieces have zero third derivative,
      so the result is the parabola through the three samples (as Drake).
    - ``"periodic"``: first and second derivatives at the end equal those at the
      start.

    Parameters
    ----------
    durations : ndarray, shape (S,)
        Segment durations h_i (seconds); S >= 1 for clamped, S >= 2 otherwise.
    samples : ndarray, shape (S + 1, R, C)
        Values at the breaks.
    end_condition : {"clamped", "not-a-knot", "periodic"}
    slope_at_start, slope_at_end : ndarray, shape (R, C), optional
        End slopes, required for ``"clamped"``.

    Returns
    -------
    ndarray, shape (S + 1, R, C)
    """
    n = len(durations) + 1
    shape = samples.shape
    h = durations
    delta = ((samples[1:] - samples[:-1]) / h[:, None, None]).reshape(n - 1, -1)
    rhs = np.zeros((n, delta.shape[1]))
    interior = np.arange(1, n - 1)
    h_left, h_right = h[:-1], h[1:]
    rhs[1:-1] = 3.0 * (h_right[:, None] * delta[:-1] + h_left[:, None] * delta[1:])
    end_entries = []  # (row, col, value) of the two end-condition rows

    def add(row, col, value):
        end_entries.append((row, col, value))

    if end_condition == "clamped":
        add(0, 0, 1.0)
        rhs[0] = np.reshape(slope_at_start, -1)
        add(n - 1, n - 1, 1.0)
        rhs[n - 1] = np.reshape(slope_at_end, -1)
    elif end_condition == "not-a-knot" and n == 3:
        # Zero third derivative on both pieces: s_i + s_{i+1} = 2 delta_i.
        add(0, 0, 1.0)
        add(0, 1, 1.0)
        rhs[0] = 2.0 * delta[0]
        add(2, 1, 1.0)
        add(2, 2, 1.0)
        rhs[2] = 2.0 * delta[1]
    elif end_condition == "not-a-knot":
        # Third derivative 6 (s_i + s_{i+1} - 2 delta_i) / h_i^2 equal on both sides of
        # breaks 1 and n-2; each row is divided by (h_a + h_b) for scaling.
        for row, a in ((0, 0), (n - 1, n - 3)):
            ha2, hb2, scale = h[a] ** 2, h[a + 1] ** 2, h[a] + h[a + 1]
            add(row, a, hb2 / scale)
            add(row, a + 1, (hb2 - ha2) / scale)
            add(row, a + 2, -ha2 / scale)
            rhs[row] = 2.0 * (hb2 * delta[a] - ha2 * delta[a + 1]) / scale
    elif end_condition == "periodic":
        # s_0 = s_{n-1}, and y'' at the start of piece 0 equals y'' at the end of the
        # last piece: h_L (3 delta_0 - 2 s_0 - s_1) = h_0 (s_{n-2} + 2 s_{n-1} - 3 delta_L).
        add(0, 0, 1.0)
        add(0, n - 1, -1.0)
        h0, hl = h[0], h[-1]
        add(n - 1, 0, 2.0 * hl)
        add(n - 1, 1, hl)
        add(n - 1, n - 2, h0)
        add(n - 1, n - 1, 2.0 * h0)
        rhs[n - 1] = 3.0 * (hl * delta[0] + h0 * delta[-1])
    else:
        raise ValueError(f"spline_slopes: unknown end_condition {end_condition!r}")

    end_rows, end_cols, end_values = np.array(end_entries).T
    rows_i = np.concatenate([interior, interior, interior, end_rows.astype(int)])
    cols_i = np.concatenate([interior - 1, interior, interior + 1, end_cols.astype(int)])
    values = np.concatenate([h_right, 2.0 * (h_left + h_right), h_left, end_values])
    import scipy.sparse.linalg  # scipy loads at first use, not with the package

    matrix = scipy.sparse.csc_matrix((values, (rows_i, cols_i)), shape=(n, n))
    slopes = scipy.sparse.linalg.splu(matrix).solve(rhs)
    return slopes.reshape(shape)
