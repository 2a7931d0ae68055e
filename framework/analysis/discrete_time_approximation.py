"""discrete_time_approximation: exact zero-order-hold discretization of a continuous-time
LinearSystem or AffineSystem (Drake's DiscreteTimeApproximation)."""

import numpy as np
import scipy.linalg

from ..keyword_check import lists_valid_keywords
from ..primitives.linear_system import AffineSystem, LinearSystem


@lists_valid_keywords
def discrete_time_approximation(linear_system=None, time_period=None, *, affine_system=None,
                                system=None, integrator_config=None):
    """The discrete-time system that samples a continuous-time one with a zero-order hold.

    For ẋ = A x + B u + f0, y = C x + D u + y0, with the input held constant over each
    period h, the exact sampled dynamics are x[n+1] = Ad x[n] + Bd u[n] + f0d with
    ``[[Ad, Bd, f0d], [0, I, 0], [0, 0, 1]] = expm(h [[A, B, f0], [0, 0, 0], [0, 0, 0]])``;
    C, D and y0 are unchanged.

    Parameters
    ----------
    linear_system : LinearSystem, optional
        A continuous-time LinearSystem; the result is a LinearSystem.
    time_period : float
        h (s), > 0.
    affine_system : AffineSystem, optional
        A continuous-time AffineSystem (give it instead of ``linear_system``); the result is
        an AffineSystem.
    system, integrator_config
        Drake's third form (any System, discretized by an integrator) is not provided:
        giving ``system`` raises NotImplementedError.

    Returns
    -------
    LinearSystem or AffineSystem
        With ``time_period() == h``.
    """
    fn = "discrete_time_approximation"
    if system is not None or integrator_config is not None:
        raise NotImplementedError(
            f"{fn}: discretizing an arbitrary System with an integrator (system=, "
            "integrator_config=) is not provided; give linear_system= or affine_system=")
    if (linear_system is None) == (affine_system is None):
        raise TypeError(f"{fn}: give exactly one of linear_system and affine_system")
    source = linear_system if linear_system is not None else affine_system
    expected = LinearSystem if linear_system is not None else AffineSystem
    if not isinstance(source, expected):
        raise TypeError(f"{fn}: expected a {expected.__name__}, got {type(source).__name__}")
    if source.time_period() != 0.0:
        raise ValueError(f"{fn}: system '{source.get_name()}' is already discrete "
                         f"(time_period {source.time_period()})")
    try:
        h = float(time_period)
    except (TypeError, ValueError):
        raise TypeError(f"{fn}: time_period must be a number, got {time_period!r}") from None
    if not (h > 0.0 and np.isfinite(h)):
        raise ValueError(f"{fn}: time_period must be a finite number > 0, got {time_period!r}")
    A, B, f0 = (np.asarray(M, dtype=float) for M in (source.A(), source.B(), source.f0()))
    n, m = B.shape
    M = np.zeros((n + m + 1, n + m + 1))
    M[:n, :n], M[:n, n:n + m], M[:n, n + m] = A, B, f0
    E = scipy.linalg.expm(h * M)
    Ad, Bd, f0d = E[:n, :n], E[:n, n:n + m], E[:n, n + m]
    if linear_system is not None:
        return LinearSystem(Ad, Bd, source.C(), source.D(), time_period=h)
    return AffineSystem(Ad, Bd, f0d, source.C(), source.D(), source.y0(), time_period=h)
