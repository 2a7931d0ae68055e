"""Abstract matrix-valued function of time.

A Trajectory maps a time t (seconds) to a matrix of shape (rows, cols). It is the type
that a ``TrajectorySource`` evaluates inside a simulation, so the public methods here
only validate their arguments and then call the overridable ``do_*`` methods that
concrete trajectories implement (the public/``do_*`` split of Drake's
``Trajectory``).
"""

from __future__ import annotations

import abc
import copy
import numbers

import numpy as np


def as_time(function: str, t, name: str = "t") -> float:
    """Return the scalar time ``t`` as a Python float, or raise.

    Parameters
    ----------
    function : str
        Name of the calling function, used in the error message.
    t : float
        Time in seconds; any real scalar (Python or numpy, or a 0-d array).
    name : str, optional
        Name of the argument, used in the error message.

    Returns
    -------
    float
        ``t`` converted to float.

    Raises
    ------
    TypeError
        If ``t`` is not a real scalar.
    ValueError
        If ``t`` is NaN.
    """
    if type(t) is not float:
        if np.ndim(t) != 0:
            raise TypeError(
                f"{function}: {name} must be a scalar time in seconds, got an array of shape "
                f"{np.shape(t)}"
            )
        try:
            t = float(t)
        except (TypeError, ValueError):
            raise TypeError(
                f"{function}: {name} must be a real scalar time in seconds, got "
                f"{type(t).__name__}"
            ) from None
    if t != t:
        raise ValueError(f"{function}: {name} must be a time in seconds, got NaN")
    return t


def as_derivative_order(function: str, derivative_order) -> int:
    """Return ``derivative_order`` as a non-negative int, or raise.

    Parameters
    ----------
    function : str
        Name of the calling function, used in the error message.
    derivative_order : int
        Number of time derivatives; must be an integer >= 0.

    Returns
    -------
    int
        The derivative order.

    Raises
    ------
    TypeError
        If ``derivative_order`` is not an integer.
    ValueError
        If ``derivative_order`` is negative.
    """
    if isinstance(derivative_order, bool) or not isinstance(derivative_order, numbers.Integral):
        raise TypeError(
            f"{function}: derivative_order must be an integer >= 0, got "
            f"{type(derivative_order).__name__} {derivative_order!r}"
        )
    derivative_order = int(derivative_order)
    if derivative_order < 0:
        raise ValueError(
            f"{function}: derivative_order must be >= 0, got {derivative_order}"
        )
    return derivative_order


class Trajectory(abc.ABC):
    """A matrix-valued function of time, value(t) of shape (rows, cols).

    Subclasses implement ``do_value``, ``do_rows``, ``do_cols``, ``do_start_time`` and
    ``do_end_time``; those that can differentiate themselves also override
    ``do_has_derivative`` (to return True), ``do_eval_derivative`` and
    ``do_make_derivative``. ``do_values`` may be overridden with a vectorized
    evaluation at many times.
    """

    # ---- public interface -------------------------------------------------------------

    def value(self, t) -> np.ndarray:
        """Evaluate the trajectory at time ``t``.

        Parameters
        ----------
        t : float
            Time in seconds.

        Returns
        -------
        ndarray, shape (rows, cols)
            The value at ``t`` (a new array).
        """
        return self.do_value(as_time("value", t))

    def vector_values(self, times) -> np.ndarray:
        """Evaluate a vector-valued trajectory at many times.

        Parameters
        ----------
        times : array_like, shape (n,)
            Times in seconds.

        Returns
        -------
        ndarray
            If ``cols() == 1``, shape (rows, n): column i is ``value(times[i])``.
            Otherwise, if ``rows() == 1``, shape (n, cols): row i is ``value(times[i])``.

        Raises
        ------
        ValueError
            If the trajectory is matrix-valued (neither rows nor cols is 1), or if
            ``times`` is not one-dimensional or contains NaN.
        """
        rows, cols = self.rows(), self.cols()
        if rows != 1 and cols != 1:
            raise ValueError(
                "vector_values: this method only supports vector-valued trajectories "
                f"(rows() == 1 or cols() == 1), got a {rows}x{cols} trajectory"
            )
        try:
            times = np.asarray(times, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"vector_values: times must be an array of real times, got "
                f"{type(times).__name__}"
            ) from None
        if times.ndim > 1:
            raise ValueError(
                f"vector_values: times must be one-dimensional, got shape {times.shape}"
            )
        times = times.reshape(-1)
        if np.isnan(times).any():
            raise ValueError(
                f"vector_values: times[{int(np.flatnonzero(np.isnan(times))[0])}] is NaN"
            )
        values = self.do_values(times)
        if cols == 1:
            return np.ascontiguousarray(values[:, :, 0].T)
        return np.ascontiguousarray(values[:, 0, :])

    def has_derivative(self) -> bool:
        """Return True iff ``eval_derivative`` and ``make_derivative`` are supported."""
        return self.do_has_derivative()

    def eval_derivative(self, t, derivative_order: int = 1) -> np.ndarray:
        """Evaluate a time derivative of the trajectory at time ``t``.

        Parameters
        ----------
        t : float
            Time in seconds.
        derivative_order : int, optional
            Number of time derivatives (>= 0; 0 gives ``value(t)``). Default 1.

        Returns
        -------
        ndarray, shape (rows, cols)
            d^k value / dt^k at ``t``, in units of value per second^k.
        """
        derivative_order = as_derivative_order("eval_derivative", derivative_order)
        return self.do_eval_derivative(as_time("eval_derivative", t), derivative_order)

    def make_derivative(self, derivative_order: int = 1) -> Trajectory:
        """Return a new trajectory that is a time derivative of this one.

        Parameters
        ----------
        derivative_order : int, optional
            Number of time derivatives (>= 0). Default 1.

        Returns
        -------
        Trajectory
            A trajectory with the same rows, cols and time span.
        """
        derivative_order = as_derivative_order("make_derivative", derivative_order)
        return self.do_make_derivative(derivative_order)

    def rows(self) -> int:
        """Return the number of rows of ``value(t)``."""
        return self.do_rows()

    def cols(self) -> int:
        """Return the number of columns of ``value(t)``."""
        return self.do_cols()

    def start_time(self) -> float:
        """Return the first time (seconds) at which the trajectory is defined."""
        return self.do_start_time()

    def end_time(self) -> float:
        """Return the last time (seconds) at which the trajectory is defined."""
        return self.do_end_time()

    def clone(self) -> Trajectory:
        """Return an independent copy of this trajectory."""
        return self.do_clone()

    # ---- overridable implementation ---------------------------------------------------

    @abc.abstractmethod
    def do_value(self, t: float) -> np.ndarray:
        """Return the value at the (validated) float time ``t``, shape (rows, cols)."""

    @abc.abstractmethod
    def do_rows(self) -> int:
        """Return the number of rows of the value."""

    @abc.abstractmethod
    def do_cols(self) -> int:
        """Return the number of columns of the value."""

    @abc.abstractmethod
    def do_start_time(self) -> float:
        """Return the start time in seconds."""

    @abc.abstractmethod
    def do_end_time(self) -> float:
        """Return the end time in seconds."""

    def do_values(self, times: np.ndarray) -> np.ndarray:
        """Return the values at validated times, shape (n, rows, cols).

        The default evaluates ``do_value`` at each time; subclasses may vectorize.
        """
        if times.size == 0:
            return np.zeros((0, self.rows(), self.cols()))
        return np.stack([self.do_value(float(t)) for t in times])

    def do_has_derivative(self) -> bool:
        """Return whether derivatives are implemented (default False)."""
        return False

    def do_eval_derivative(self, t: float, derivative_order: int) -> np.ndarray:
        """Return the derivative at ``t``; the default raises."""
        raise NotImplementedError(
            f"eval_derivative: {type(self).__name__} does not support derivatives"
        )

    def do_make_derivative(self, derivative_order: int) -> Trajectory:
        """Return the derivative trajectory; the default raises."""
        raise NotImplementedError(
            f"make_derivative: {type(self).__name__} does not support derivatives"
        )

    def do_clone(self) -> Trajectory:
        """Return a deep copy (subclasses holding shared resources may override)."""
        return copy.deepcopy(self)
