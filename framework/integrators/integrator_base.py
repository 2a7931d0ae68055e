"""IntegratorBase: the common machinery of every numerical integrator (Drake's IntegratorBase).

An integrator advances the continuous state x = [q; v; z] of a root context by
integrating ``system.eval_time_derivatives``. Subclasses implement only the step of one
scheme (``_do_step``); this class owns step-size selection, error control, statistics
and the contract with the Simulator.

``integrate_no_further_than_time(publish_time, update_time, boundary_time)`` takes ONE
step and never passes the earliest of the three times::

    t0 = context time;  dt = min(publish, update, boundary) - t0   (ties prefer update,
                                                                      then publish)
    if dt > stretch * max_step_size:      # cannot reach the target in one step
        dt = max_step_size;  result = TIME_HAS_ADVANCED
    # else: within 1 % of max_step_size, the step is stretched to land on the target
    if fixed-step mode:
        step exactly dt (raise SimulationError if an implicit solve fails)
    else (error control):
        loop:
            h = ideal next step size (initially the initial step target or max_step_size)
            if h >= dt / stretch:  h = dt (land on the target)
            elif dt - h < working minimum step:  h = dt / 2 (leave no tiny remainder)
            if h < working minimum step:  raise (or take the minimum step, unchecked;
                                          also when the error was NaN/inf: the caller then
                                          sees the non-finite state)
            attempt the step; on solver failure halve h and retry
            ||err|| = weighted error norm;  adapt h (step_size_control)
            if ||err|| <= 1: accept and stop, else restore (t0, x0) and retry
        result = TIME_HAS_ADVANCED unless the whole dt was taken
    return result

``integrate_with_single_fixed_step_to_time(t)`` takes one step of exactly ``t - t0``
without error control (used by the Simulator to localize witness zero crossings) and
returns False when an implicit solve fails (the context is then left unchanged).

Derivative evaluations are counted when ``eval_time_derivatives`` actually computes:
the root context's time-derivative cache entry tells whether the value was current.
For contexts without that entry, every call counts except the one at the start of a
step that finds the context where the previous step left it after evaluating there
(first-same-as-last reuse).
"""

import enum
import math

import numpy as np

from ..errors import SimulationError
from ..keyword_check import lists_valid_keywords
from .dense_output import DenseOutput
from .step_size_control import StepSizeController, scaled_error_norm


class StepResult(enum.IntEnum):
    """Why ``integrate_no_further_than_time`` stopped (Drake's values)."""

    REACHED_PUBLISH_TIME = 1
    REACHED_ZERO_CROSSING = 2
    REACHED_UPDATE_TIME = 3
    TIME_HAS_ADVANCED = 4
    REACHED_BOUNDARY_TIME = 5
    REACHED_STEP_LIMIT = 6


#: Maximum step size used when none is given to the constructor (s).
DEFAULT_MAXIMUM_STEP_SIZE = 0.1
#: Without a requested initial step, error control starts from this fraction of the
#: maximum step size (Drake's).
INITIAL_STEP_FRACTION = 0.1
#: Accuracy used when neither the integrator nor the context sets one.
DEFAULT_ACCURACY = 1e-3
#: Requested accuracies looser than this are tightened to it (as Drake does).
LOOSEST_ACCURACY = 0.1
#: A step may be stretched by up to 1 % of the maximum step size to land on a target time.
STRETCH_FACTOR = 1.01
#: The working minimum step size is at least this fraction of max(1, |t|).
SMALLEST_RELATIVE_STEP = 1e-14


def _positive(fn, name, value):
    value = float(value)
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{fn}: {name} must be a finite number > 0, got {value}")
    return value


class IntegratorBase:
    """Base class of the integrators; see the module docstring for the step algorithm.

    Parameters
    ----------
    system : System
        The system whose continuous state is integrated (usually a Diagram).
    max_step_size : float, optional
        Largest step (s); the step of the fixed-step schemes. Defaults to
        ``DEFAULT_MAXIMUM_STEP_SIZE``.
    context : Context, optional
        The root context to integrate; may be given later with ``reset_context``.

    Notes
    -----
    Subclasses set the class attributes ``scheme_name`` and ``error_estimate_order``
    (0 when the scheme has no error estimate) and implement ``_do_initialize(n)`` and
    ``_do_step(t0, h, t1, want_error, retry)``.
    """

    scheme_name = ""
    error_estimate_order = 0
    is_implicit = False

    @lists_valid_keywords
    def __init__(self, system, max_step_size=None, context=None):
        if not hasattr(system, "eval_time_derivatives"):
            raise TypeError(
                f"{type(self).__name__}: system must be a System, got {type(system).__name__}")
        if context is None and hasattr(max_step_size, "get_continuous_state_vector"):
            # Drake's error-controlled integrators take (system, context): the second
            # positional argument is then the context.
            max_step_size, context = None, max_step_size
        if context is not None and not hasattr(context, "get_continuous_state_vector"):
            raise TypeError(
                f"{type(self).__name__}: context must be a Context of system "
                f"'{system.get_name()}', got {type(context).__name__}")
        self._system = system
        max_step = DEFAULT_MAXIMUM_STEP_SIZE if max_step_size is None else _positive(
            type(self).__name__, "max_step_size", max_step_size)
        self._context = None
        self._controller = StepSizeController()
        self._n = 0
        self._default_settings(max_step)
        if context is not None:
            self.reset_context(context)

    # ---- context and lifecycle --------------------------------------------------------------
    def get_system(self):
        """The system being integrated."""
        return self._system

    def get_context(self):
        """The root context being integrated (None until set)."""
        return self._context

    get_mutable_context = get_context

    def reset_context(self, context):
        """Integrate ``context`` from now on; the integrator must be initialized again."""
        owner = getattr(context, "get_system", None)
        if owner is not None and context.get_system() is not self._system:
            raise ValueError(
                f"{type(self).__name__}.reset_context: the context belongs to system "
                f"'{context.get_system().get_name()}', expected system "
                f"'{self._system.get_name()}'")
        self._context = context
        self._initialized = False

    def is_initialized(self):
        return self._initialized

    def initialize(self):
        """Allocate working storage for the context's state size and choose the accuracy.

        The accuracy in use is the target accuracy if set, else the context's accuracy if
        set, else ``DEFAULT_ACCURACY``; looser than ``LOOSEST_ACCURACY`` is tightened.
        Statistics are reset. Integration calls this on first use if needed.
        """
        if self._context is None:
            raise RuntimeError(
                f"{type(self).__name__}.initialize: no context; call reset_context(context) "
                f"first")
        accuracy = self._target_accuracy
        if accuracy is None:
            accuracy = self._context.get_accuracy()
        if accuracy is None:
            accuracy = DEFAULT_ACCURACY
        self._accuracy_in_use = min(float(accuracy), LOOSEST_ACCURACY)
        self._supports_error = self.supports_error_estimation()
        # A framework root Context lets the schemes write stage states in place; other
        # context objects get set_time_and_continuous_state.
        ctx = self._context
        in_place = getattr(ctx, "_parent", True) is None and hasattr(
            ctx, "_set_time_after_writing_xc")
        self._xc_in_place = ctx._root.xc if in_place else None
        state = self._context.get_continuous_state()
        self._nq, self._nv, self._nz = state.num_q(), state.num_v(), state.num_z()
        self._n = n = self._nq + self._nv + self._nz
        self._x0 = np.zeros(n)
        self._x1 = np.zeros(n)
        self._err = np.zeros(n)
        self._x_end = np.zeros(n)      # where the last step left the context
        self._t_end = math.nan
        self._end_derivatives_evaluated = False
        self._deriv_entry = getattr(self._context, "deriv_entry", None)
        if not hasattr(self._deriv_entry, "valid"):
            self._deriv_entry = None
        self._ideal_h = math.nan
        self.reset_statistics()
        self._do_initialize(n)
        self._initialized = True

    def _do_initialize(self, n):
        """Allocate scheme-specific storage for a state of size ``n``."""

    # ---- settings ---------------------------------------------------------------------------
    def supports_error_estimation(self):
        """True when the scheme estimates its local error (and can control it)."""
        return self.error_estimate_order > 0

    def get_error_estimate_order(self):
        """Order p of the local error estimate (error ~ h^p); 0 when there is none."""
        return self.error_estimate_order

    def set_target_accuracy(self, accuracy):
        """Set the accuracy (relative tolerance of the error norm; also the Newton tolerance)."""
        accuracy = _positive("set_target_accuracy", "accuracy", accuracy)
        if not self.supports_error_estimation():
            raise RuntimeError(
                f"set_target_accuracy: {self.scheme_name} does not estimate its error, so an "
                f"accuracy cannot be requested; use an error-controlled scheme "
                f"(runge_kutta3, runge_kutta5, bogacki_shampine3, implicit_euler, radau3, "
                f"velocity_implicit_euler)")
        self._target_accuracy = accuracy
        self._accuracy_in_use = min(accuracy, LOOSEST_ACCURACY)

    def get_target_accuracy(self):
        """The accuracy requested with ``set_target_accuracy`` (None if never set)."""
        return self._target_accuracy

    def get_accuracy_in_use(self):
        """The accuracy actually used (see ``initialize``)."""
        return self._accuracy_in_use

    def set_absolute_tolerance(self, atol):
        """Absolute tolerance of the error norm (defaults to the accuracy in use)."""
        self._atol = _positive("set_absolute_tolerance", "atol", atol)

    def get_absolute_tolerance(self):
        return self._accuracy_in_use if self._atol is None else self._atol

    def set_maximum_step_size(self, max_step_size):
        """Largest step the integrator may take (s); the step size in fixed-step mode."""
        self._max_step = _positive("set_maximum_step_size", "max_step_size", max_step_size)

    def get_maximum_step_size(self):
        return self._max_step

    def request_initial_step_size_target(self, step_size):
        """First step size to attempt under error control (by default a tenth of the
        maximum step, as Drake; the Simulator's own integrator asks for 1e-4 s, as
        Drake's)."""
        self._initial_step_target = _positive("request_initial_step_size_target",
                                              "step_size", step_size)
        self._ideal_h = math.nan

    def get_initial_step_size_target(self):
        return self._initial_step_target

    def set_requested_minimum_step_size(self, min_step_size):
        """Smallest step error control may choose before giving up (s, >= 0)."""
        h = float(min_step_size)
        if not (math.isfinite(h) and h >= 0.0):
            raise ValueError(
                f"set_requested_minimum_step_size: min_step_size must be a finite number "
                f">= 0, got {h}")
        self._requested_min_step = h

    def get_requested_minimum_step_size(self):
        return self._requested_min_step

    def get_working_minimum_step_size(self):
        """max(requested minimum, 1e-14 max(1, |t|)): below it error control gives up."""
        t = self._context.get_time() if self._context is not None else 0.0
        return max(self._requested_min_step, SMALLEST_RELATIVE_STEP * max(1.0, abs(t)))

    def set_throw_on_minimum_step_size_violation(self, throws):
        """If False, a step below the working minimum is taken at that minimum, unchecked."""
        self._throw_on_min_step = bool(throws)

    def get_throw_on_minimum_step_size_violation(self):
        return self._throw_on_min_step

    def set_fixed_step_mode(self, flag):
        """Take steps of the maximum step size without error control."""
        if not flag and not self.supports_error_estimation():
            raise RuntimeError(
                f"set_fixed_step_mode: {self.scheme_name} has no error estimate and always "
                f"runs in fixed-step mode; cannot set fixed_step_mode to False")
        self._fixed_step_mode = bool(flag)

    def get_fixed_step_mode(self):
        return self._fixed_step_mode or not self.supports_error_estimation()

    def get_stretch_factor(self):
        """Factor by which a step may exceed the maximum step size to land on a target."""
        return STRETCH_FACTOR

    def reset(self):
        """Back to the settings of a new integrator (Drake's Reset): default maximum
        step, no target accuracy, minimum step or initial step target, error control on
        (if the scheme has it), statistics zeroed, dense integration stopped; the context
        is kept and the integrator must be initialized again."""
        self._default_settings()

    def _default_settings(self, max_step=DEFAULT_MAXIMUM_STEP_SIZE):
        self._max_step = max_step
        self._target_accuracy = None
        self._accuracy_in_use = DEFAULT_ACCURACY
        self._atol = None
        self._initial_step_target = None
        self._requested_min_step = 0.0
        self._throw_on_min_step = True
        self._fixed_step_mode = False
        self._dense = None
        self._ideal_h = math.nan
        self._t_step_start = math.nan
        self._initialized = False
        self.reset_statistics()

    # ---- statistics -------------------------------------------------------------------------
    def reset_statistics(self):
        """Zero every counter and step-size record."""
        self._num_steps = 0
        self._num_derivative_evaluations = 0
        self._num_shrinkages_error = 0
        self._num_shrinkages_failure = 0
        self._num_substep_failures = 0
        self._prev_h = math.nan
        self._largest_h = math.nan
        self._smallest_adapted_h = math.nan
        self._initial_h_taken = math.nan

    def get_num_steps_taken(self):
        """Accepted steps since the last ``initialize`` / ``reset_statistics``."""
        return self._num_steps

    def get_num_derivative_evaluations(self):
        """Computations of the time derivatives (cache hits are not counted)."""
        return self._num_derivative_evaluations

    def get_num_step_shrinkages_from_error_control(self):
        """Steps rejected by error control and retried smaller."""
        return self._num_shrinkages_error

    def get_num_step_shrinkages_from_substep_failures(self):
        """Steps retried smaller because an implicit solve failed."""
        return self._num_shrinkages_failure

    def get_num_substep_failures(self):
        """Failed implicit solves (each followed by a retry or an error)."""
        return self._num_substep_failures

    def get_previous_integration_step_size(self):
        """Size of the last accepted step (NaN before the first)."""
        return self._prev_h

    def get_ideal_next_step_size(self):
        """Step size error control proposes next (NaN before the first step)."""
        return self._ideal_h

    def get_largest_step_size_taken(self):
        return self._largest_h

    def get_smallest_adapted_step_size_taken(self):
        """Smallest step chosen by error control (steps cut short by a target excluded)."""
        return self._smallest_adapted_h

    def get_actual_initial_step_size_taken(self):
        return self._initial_h_taken

    def get_statistics_summary(self):
        """The statistics above, one ``name: value`` line each (Drake's
        GetStatisticsSummary)."""
        rows = [
            ("integrator", type(self).__name__),
            ("num_steps_taken", self.get_num_steps_taken()),
            ("num_derivative_evaluations", self.get_num_derivative_evaluations()),
            ("num_step_shrinkages_from_error_control",
             self.get_num_step_shrinkages_from_error_control()),
            ("num_step_shrinkages_from_substep_failures",
             self.get_num_step_shrinkages_from_substep_failures()),
            ("num_substep_failures", self.get_num_substep_failures()),
            ("actual_initial_step_size_taken", self.get_actual_initial_step_size_taken()),
            ("smallest_adapted_step_size_taken", self.get_smallest_adapted_step_size_taken()),
            ("largest_step_size_taken", self.get_largest_step_size_taken()),
        ]
        return "".join(f"{name}: {value}\n" for name, value in rows)

    def get_error_estimate(self):
        """The last step's local error estimate, shape (n,) (None if not computed)."""
        if not self._initialized or not self.supports_error_estimation():
            return None
        return self._err.copy()

    # ---- integration ------------------------------------------------------------------------
    def integrate_no_further_than_time(self, publish_time, update_time, boundary_time):
        """Take one step toward the earliest of three times without passing it.

        Parameters
        ----------
        publish_time, update_time, boundary_time : float
            Next publish event, next update event and the end of the simulation (s),
            each >= the context time.

        Returns
        -------
        StepResult
            Which time was reached (update preferred over publish over boundary when equal),
            or ``TIME_HAS_ADVANCED`` when the step stopped short of all of them.
        """
        if not self._initialized:
            self.initialize()
        ctx = self._context
        t0 = ctx.get_time()
        dt = boundary_time - t0
        target = boundary_time
        result = StepResult.REACHED_BOUNDARY_TIME
        if publish_time - t0 <= dt:
            dt, target, result = publish_time - t0, publish_time, StepResult.REACHED_PUBLISH_TIME
        if update_time - t0 <= dt:
            dt, target, result = update_time - t0, update_time, StepResult.REACHED_UPDATE_TIME
        if not dt >= 0.0:
            self._raise_time_in_past(t0, publish_time, update_time, boundary_time)
        if dt == 0.0:
            return result
        if dt > STRETCH_FACTOR * self._max_step:
            dt = self._max_step
            target = t0 + dt
            result = StepResult.TIME_HAS_ADVANCED
        np.copyto(self._x0, ctx.get_continuous_state_vector())
        self._t_step_start = t0
        if self._dense is not None:
            self._dense.record_step_start(self, t0)
        if self._fixed_step_mode or not self._supports_error:
            if not self._do_step(t0, dt, target, False, False):
                self._restore(t0)
                raise SimulationError(
                    f"integrate_no_further_than_time: {self.scheme_name} failed to take a "
                    f"fixed step of size {dt:g} at t = {t0:g} (the implicit solve did not "
                    f"converge); reduce max_step_size or enable error control")
            self._record_step(dt, adapted=False)
            return result
        if self._step_error_controlled(t0, dt, target):
            return result
        return StepResult.TIME_HAS_ADVANCED

    def integrate_with_single_fixed_step_to_time(self, t_target):
        """One step of exactly ``t_target - t`` without error control.

        Returns
        -------
        bool
            False when the step failed (implicit solve); the context is then unchanged.
        """
        if not self._initialized:
            self.initialize()
        t0 = self._context.get_time()
        h = t_target - t0
        if not h >= 0.0:
            raise ValueError(
                f"integrate_with_single_fixed_step_to_time: t_target = {t_target} is earlier "
                f"than the context time {t0}")
        if h == 0.0:
            return True
        np.copyto(self._x0, self._context.get_continuous_state_vector())
        self._t_step_start = t0
        if self._dense is not None:
            self._dense.record_step_start(self, t0)
        if not self._do_step(t0, h, t_target, False, False):
            self._restore(t0)
            return False
        self._record_step(h, adapted=False)
        return True

    def integrate_with_multiple_steps_to_time(self, t_final):
        """Integrate to ``t_final`` with as many steps as needed (no events)."""
        if not self._initialized:
            self.initialize()
        t_final = float(t_final)
        if not t_final >= self._context.get_time():
            raise ValueError(
                f"integrate_with_multiple_steps_to_time: t_final = {t_final} is earlier than "
                f"the context time {self._context.get_time()}")
        while self._context.get_time() < t_final:
            self.integrate_no_further_than_time(t_final, t_final, t_final)

    def restore_step_start(self):
        """Put the context back at the time and continuous state where the last step
        began (the Simulator calls this when a step produced a non-finite state)."""
        if self._initialized and math.isfinite(self._t_step_start):
            self._restore(self._t_step_start)

    # ---- dense output -----------------------------------------------------------------------
    def start_dense_integration(self):
        """Record every step from now on into a dense output (Drake's
        StartDenseIntegration): a piecewise cubic Hermite interpolant of the continuous
        state through the step ends, where the time derivatives are also recorded (see
        ``framework.integrators.dense_output``).

        Raises
        ------
        RuntimeError
            If dense integration is already in progress or the system has no continuous
            state.
        """
        if self._dense is not None:
            raise RuntimeError(
                f"{type(self).__name__}.start_dense_integration: dense integration is "
                f"already in progress; call stop_dense_integration() first")
        if self._context is not None and self._context.num_continuous_states() == 0:
            raise RuntimeError(
                f"{type(self).__name__}.start_dense_integration: system "
                f"'{self._system.get_name()}' has no continuous state to interpolate")
        self._dense = DenseOutput()

    def get_dense_output(self):
        """The dense output being recorded: a PiecewisePolynomial (``value(t)`` of shape
        (n, 1)) that grows with every step, the same object until
        ``stop_dense_integration``; None when no dense integration is in progress."""
        return self._dense

    def stop_dense_integration(self):
        """Stop recording; returns the dense output (the object ``get_dense_output``
        returned), which keeps the steps taken so far."""
        if self._dense is None:
            raise RuntimeError(
                f"{type(self).__name__}.stop_dense_integration: no dense integration in "
                f"progress; call start_dense_integration() first")
        dense, self._dense = self._dense, None
        return dense

    # ---- internals --------------------------------------------------------------------------
    def _raise_time_in_past(self, t0, publish_time, update_time, boundary_time):
        for name, value in (("publish_time", publish_time), ("update_time", update_time),
                            ("boundary_time", boundary_time)):
            if not value >= t0:
                raise ValueError(
                    f"integrate_no_further_than_time: {name} = {value} is earlier than the "
                    f"context time {t0}")

    def _restore(self, t0):
        self._context.set_time_and_continuous_state(t0, self._x0)

    def _record_step(self, h, adapted):
        if self._dense is not None:
            self._dense.record_step_end(self)
        self._num_steps += 1
        self._prev_h = h
        if not h <= self._largest_h:
            self._largest_h = h
        if adapted and not h >= self._smallest_adapted_h:
            self._smallest_adapted_h = h
        if self._num_steps == 1:
            self._initial_h_taken = h

    def _step_error_controlled(self, t0, dt, target):
        """Error-controlled step of at most ``dt``; True if it reached ``target``."""
        max_step = self._max_step
        ideal = self._ideal_h
        if not ideal > 0.0:
            ideal = self._initial_step_target or INITIAL_STEP_FRACTION * max_step
        ideal = min(ideal, max_step)
        # get_working_minimum_step_size() and get_absolute_tolerance(), inlined
        working_min = max(self._requested_min_step, SMALLEST_RELATIVE_STEP * max(1.0, abs(t0)))
        rtol = self._accuracy_in_use
        atol = rtol if self._atol is None else self._atol
        order = self.error_estimate_order
        retry = nonfinite = False
        while True:
            unchecked = False
            if ideal * STRETCH_FACTOR >= dt:
                h = dt
            else:
                h = ideal if dt - ideal >= working_min else 0.5 * dt   # no tiny remainder
                if h < working_min:
                    if not nonfinite:
                        self._check_minimum_step(t0, h, working_min)
                    h, unchecked = min(working_min, dt), True
            landing = h == dt
            t1 = target if landing else t0 + h
            if not self._do_step(t0, h, t1, True, retry):
                self._restore(t0)
                retry = True
                self._num_substep_failures += 1
                if unchecked or h <= working_min:
                    raise SimulationError(
                        f"integrate_no_further_than_time: {self.scheme_name} failed to solve "
                        f"its implicit step equations even with the minimum step size "
                        f"{h:.3g} s at t = {t0:.9g}")
                self._num_shrinkages_failure += 1
                ideal = 0.5 * h
                continue
            err = scaled_error_norm(self._err, self._x0, self._x1, atol, rtol)
            accepted, h_new = self._controller.adjust(err, h, order, max_step)
            if accepted or unchecked:
                if landing and h < ideal:     # cut short by the target: keep the ideal step
                    h_new = max(h_new, ideal)
                self._ideal_h = h_new
                self._record_step(h, adapted=not landing)
                return landing
            # A non-finite error (NaN or overflowing derivatives) shrinks the step like any
            # other; if it persists down to the minimum step, that step is accepted so that
            # the caller sees (and reports) the non-finite state.
            nonfinite = not math.isfinite(err)
            self._restore(t0)
            retry = True
            self._num_shrinkages_error += 1
            ideal = h_new

    def _check_minimum_step(self, t0, h, working_min):
        if self._throw_on_min_step:
            if self.is_implicit:
                advice = ("the solution is probably discontinuous or not smooth here (an "
                          "event, a contact or friction switch, a non-smooth input): loosen "
                          "the accuracy, lower set_requested_minimum_step_size, model the "
                          "switch with an event or witness function, run in fixed-step mode "
                          "(set_fixed_step_mode(True)), or call "
                          "set_throw_on_minimum_step_size_violation(False)")
            else:
                advice = ("the system may be stiff or discontinuous: loosen the accuracy, "
                          "use an implicit scheme (implicit_euler, radau3, "
                          "velocity_implicit_euler), or call "
                          "set_throw_on_minimum_step_size_violation(False)")
            raise SimulationError(
                f"integrate_no_further_than_time: {self.scheme_name} error control wants a "
                f"step of {h:.3g} s at t = {t0:.9g}, smaller than the minimum step size "
                f"{working_min:.3g} s (accuracy {self._accuracy_in_use:g}); {advice}")

    def _eval_derivatives(self):
        """Time derivatives at the context's (t, x), shape (n,), read-only; counted."""
        entry = self._deriv_entry
        if entry is None or not entry.valid:
            self._num_derivative_evaluations += 1
        return self._system.eval_time_derivatives(self._context)

    def _eval_derivatives_at_step_start(self):
        """As ``_eval_derivatives``, recognizing reuse of the previous step's last value."""
        if self._deriv_entry is None and self._end_derivatives_evaluated:
            self._end_derivatives_evaluated = False
            ctx = self._context
            if ctx.get_time() == self._t_end and np.array_equal(
                    ctx.get_continuous_state_vector(), self._x_end):
                return self._system.eval_time_derivatives(ctx)
        return self._eval_derivatives()

    def _mark_end_derivatives_evaluated(self, t1, x1):
        """Record that derivatives were just evaluated at the step's final (t1, x1)."""
        if self._deriv_entry is None:
            self._end_derivatives_evaluated = True
            self._t_end = t1
            np.copyto(self._x_end, x1)

    def _do_step(self, t0, h, t1, want_error, retry):
        """Advance the context from (t0, self._x0) to (t1, x1), t1 = t0 + h.

        On success leave x1 in ``self._x1`` and in the context (time ``t1``) and, when
        ``want_error``, the local error estimate in ``self._err``; return True. Return
        False when an implicit solve fails (the caller restores the context). ``retry``
        is True when the same step is attempted again from the same (t0, x0).
        """
        raise NotImplementedError
