"""TrajectorySource: outputs a trajectory and its derivatives at the context time (Drake's)."""

import numpy as np

from ..compiled_form_changes import note_compiled_form_change
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._linearization import select_ports
from ._validation import as_size


class TrajectorySource(LeafSystem):
    """Outputs y0 = [q(t); q̇(t); ...; q⁽ᵏ⁾(t)] for a column trajectory q.

    ::

        ┌──────────────────┐
        │ TrajectorySource │ ──▶ y0
        └──────────────────┘

    Parameters
    ----------
    trajectory : Trajectory
        With ``cols() == 1``; evaluated at the context time (outside its time range the
        trajectory's own value is used, e.g. a PiecewisePolynomial holds its end values).
    output_derivative_order : int
        k >= 0; the output has size rows·(k + 1).
    zero_derivatives_beyond_limits : bool
        When True (default), the derivatives are 0 before ``start_time()`` and after
        ``end_time()``.
    """

    @lists_valid_keywords
    def __init__(self, trajectory, output_derivative_order=0, zero_derivatives_beyond_limits=True):
        super().__init__()
        self._k = as_size("TrajectorySource", "output_derivative_order", output_derivative_order,
                          minimum=0)
        self._zero_beyond = bool(zero_derivatives_beyond_limits)
        self._set(trajectory, "TrajectorySource")
        self.declare_vector_output_port("y0", self._rows * (self._k + 1), self._calc_output,
                                        [self.time_ticket()])

    def _set(self, trajectory, fn):
        for method in ("value", "rows", "cols", "make_derivative", "start_time", "end_time"):
            if not hasattr(trajectory, method):
                raise TypeError(
                    f"{fn}: trajectory must be a Trajectory (with {method}()), got "
                    f"{type(trajectory).__name__}")
        if trajectory.cols() != 1:
            raise ValueError(
                f"{fn}: trajectory must have one column, got shape "
                f"({trajectory.rows()}, {trajectory.cols()})")
        rows = trajectory.rows()
        if hasattr(self, "_rows") and rows != self._rows:
            raise ValueError(f"{fn}: trajectory has {rows} rows, expected {self._rows}")
        self._rows = rows
        self._trajectories = [trajectory] + [trajectory.make_derivative(i)
                                             for i in range(1, self._k + 1)]
        # A PiecewisePolynomial evaluates the value and its derivatives in one pass.
        self._stacked = getattr(trajectory, "_eval_value_and_derivatives_into", None)
        note_compiled_form_change()     # compiled diagrams read the trajectory

    def update_trajectory(self, trajectory):
        """Replace the trajectory (same number of rows); affects every context."""
        self._set(trajectory, "TrajectorySource.update_trajectory")

    def _calc_output(self, context, output):
        t = context.get_time()
        y = output.get_mutable_value()
        r = self._rows
        if self._stacked is not None:
            # y is this output's cache storage, written only here: when the last evaluation
            # wrote it at the same time (e.g. an integrator step ending where the next one
            # starts), it already holds the value.
            inside = self._stacked(t, self._k, y, True)
            if self._k and self._zero_beyond and not inside:
                y[r:] = 0.0
            return
        y[:r] = np.asarray(self._trajectories[0].value(t)).reshape(-1)
        first = self._trajectories[0]
        outside = t < first.start_time() or t > first.end_time()
        for i in range(1, self._k + 1):
            if self._zero_beyond and outside:
                y[i * r:(i + 1) * r] = 0.0
            else:
                y[i * r:(i + 1) * r] = np.asarray(self._trajectories[i].value(t)).reshape(-1)

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """No state and no input: C and D have no columns."""
        p = self._rows * (self._k + 1)
        matrices = (np.zeros((0, 0)), np.zeros((0, 0)), np.zeros((p, 0)), np.zeros((p, 0)))
        return select_ports(self, matrices, input_port_index, output_port_index)
