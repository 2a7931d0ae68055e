"""discrete_time_approximation: exact zero-order-hold discretization of a continuous-time
LinearSystem or AffineSystem (Drake's DiscreteTimeApproximation)."""

import numpy as np
import scipy.linalg

from ..integrators import make_integrator
from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..primitives._validation import as_positive_float
from ..primitives.linear_system import AffineSystem, LinearSystem
from ..simulator_config import SimulatorConfig


class DiscreteTimeApproximationSystem(LeafSystem):
    """A continuous-time system sampled every h: x[n+1] is the state the system reaches from
    x[n] over one period with its inputs held at their values at t_n, integrated by the
    scheme of ``integrator_config`` (Drake's DiscreteTimeApproximation of a System).

    ::

        u0 ──▶ ┌─────────────────────────────────┐ ──▶ y0
        ...    │ DiscreteTimeApproximationSystem │ ...
        uN ──▶ └─────────────────────────────────┘ ──▶ yM

    The ports are the wrapped system's (same names, sizes and direct feedthrough; vector
    ports only); the
    discrete state (one group) is its continuous state, starting at its default. The
    outputs are the wrapped system's outputs at the held state.

    Parameters
    ----------
    system : System
        Continuous state only (no discrete or abstract state).
    time_period : float
        h (s), > 0.
    integrator_config : SimulatorConfig, optional
        Integration scheme, max_step_size, accuracy, use_error_control.
    """

    def __init__(self, system, time_period, integrator_config=None):
        super().__init__()
        fn = "DiscreteTimeApproximation"
        self._h = as_positive_float(fn, "time_period", time_period)
        self._config = integrator_config if integrator_config is not None else SimulatorConfig()
        self._system = system
        self._sub = system.create_default_context()
        if self._sub.num_discrete_state_groups() or self._sub.num_abstract_states():
            raise ValueError(f"{fn}: system '{system.get_name()}' must have only continuous "
                             "state")
        n = system.num_continuous_states()
        self.declare_discrete_state(np.array(self._sub.get_continuous_state_vector()))
        for i in range(system.num_input_ports()):
            port = system.get_input_port(i)
            if port.get_data_type() != "vector":
                raise ValueError(f"{fn}: input port '{port.get_name()}' of system "
                                 f"'{system.get_name()}' is abstract; only vector inputs "
                                 "are supported")
            self.declare_vector_input_port(port.get_name(), port.size())
        for j in range(system.num_output_ports()):
            port = system.get_output_port(j)
            if port.get_data_type() != "vector":
                raise ValueError(f"{fn}: output port '{port.get_name()}' of system "
                                 f"'{system.get_name()}' is abstract; only vector outputs "
                                 "are supported")
            prereqs = [self.xd_ticket()] + [
                self.input_port_ticket(i) for i in range(system.num_input_ports())
                if system.has_direct_feedthrough(i, j)]
            self.declare_vector_output_port(port.get_name(), port.size(),
                                            self._make_output(j), prereqs)
        self._integrator = make_integrator(self._config.integration_scheme, system, self._sub,
                                           self._config.max_step_size)
        if self._integrator.supports_error_estimation():
            self._integrator.set_fixed_step_mode(not self._config.use_error_control)
            self._integrator.set_target_accuracy(self._config.accuracy)
        if n:
            self.declare_periodic_discrete_update_event(self._h, 0.0, self._update)

    def time_period(self):
        """h (s)."""
        return self._h

    def get_continuous_system(self):
        """The wrapped continuous-time system."""
        return self._system

    def _load(self, context):
        """Copy time, held state and inputs of ``context`` into the wrapped system's context."""
        sub = self._sub
        sub.set_time(context.get_time())
        sub.set_continuous_state(context.get_discrete_state(0))
        for i in range(self.num_input_ports()):
            self._system.get_input_port(i).fix_value(sub, self.get_input_port(i).eval(context))
        return sub

    def _make_output(self, j):
        def calc(context, output):
            output.get_mutable_value()[:] = self._system.get_output_port(j).eval(
                self._load(context))
        return calc

    def _update(self, context, discrete_state):
        sub = self._load(context)
        self._integrator.initialize()
        self._integrator.integrate_with_multiple_steps_to_time(context.get_time() + self._h)
        discrete_state.set_value(sub.get_continuous_state_vector())


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
    system : System, optional
        Any continuous-time system with only continuous state (give it instead of the
        others); the result is a DiscreteTimeApproximationSystem that integrates it over
        each period.
    integrator_config : SimulatorConfig, optional
        With ``system``: the integrator settings (default SimulatorConfig()).

    Returns
    -------
    LinearSystem, AffineSystem or DiscreteTimeApproximationSystem
        With ``time_period() == h``.
    """
    fn = "discrete_time_approximation"
    if sum(x is not None for x in (linear_system, affine_system, system)) != 1:
        raise TypeError(f"{fn}: give exactly one of linear_system, affine_system and system")
    if system is not None:
        return DiscreteTimeApproximationSystem(system, time_period, integrator_config)
    if integrator_config is not None:
        raise TypeError(f"{fn}: integrator_config goes with system=, not with linear or "
                        "affine systems (those are discretized exactly)")
    source = linear_system if linear_system is not None else affine_system
    expected = LinearSystem if linear_system is not None else AffineSystem
    if not isinstance(source, expected):
        raise TypeError(f"{fn}: expected a {expected.__name__}, got {type(source).__name__}")
    if source.time_period() != 0.0:
        raise ValueError(f"{fn}: system '{source.get_name()}' is already discrete "
                         f"(time_period {source.time_period()})")
    h = as_positive_float(fn, "time_period", time_period)
    A, B, f0 = (np.asarray(M, dtype=float) for M in (source.A(), source.B(), source.f0()))
    n, m = B.shape
    M = np.zeros((n + m + 1, n + m + 1))
    M[:n, :n], M[:n, n:n + m], M[:n, n + m] = A, B, f0
    E = scipy.linalg.expm(h * M)
    Ad, Bd, f0d = E[:n, :n], E[:n, n:n + m], E[:n, n + m]
    if linear_system is not None:
        return LinearSystem(Ad, Bd, source.C(), source.D(), time_period=h)
    return AffineSystem(Ad, Bd, f0d, source.C(), source.D(), source.y0(), time_period=h)
