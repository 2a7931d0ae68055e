"""OperatingPoint: a private snapshot of a system's context for linearization.

The snapshot is a new root context of the system holding a copy of the given context's
time, state and parameters, with every input port that has a value fixed to that value.
Linearization then perturbs the snapshot, never the caller's context.
"""

import numpy as np

from ..errors import PortError, SimulationError
from ..events import EventStatus
from ..state import DiscreteValues

CONTINUOUS = "continuous"
DISCRETE = "discrete"


class OperatingPoint:
    """The operating point (x0, u0) of ``system`` and its dynamics there.

    Parameters
    ----------
    system : System
    context : Context
        A context of ``system`` (its root context or a subcontext of a larger diagram).
    input_port : InputPort or None
        The vector input u (None: no input).
    output_port : OutputPort or None
        The vector output y (None: no output).
    fn : str
        Name of the public function, for error messages.

    Attributes
    ----------
    kind : str
        ``"continuous"`` (A is ∂ẋ/∂x) or ``"discrete"`` (A is ∂x[n+1]/∂x[n]).
    time_period : float
        0 for continuous, else the period of the discrete update (s).
    n, m, p : int
        Sizes of x, u and y.
    x0 : ndarray, shape (n,)
    u0 : ndarray, shape (m,)
    """

    def __init__(self, system, context, input_port, output_port, fn):
        self.system = system
        self.fn = fn
        ctx = system._check_context(context, fn)
        work = system.create_default_context()
        work.set_time_state_and_parameters_from(ctx)
        for port in system._input_ports:
            if port.has_value(ctx):
                port.fix_value(work, port.eval(ctx))
        self.work = work
        self.leaves = list(work._leaf_contexts())
        self.input_port = input_port
        self.output_port = output_port
        if input_port is not None:
            try:
                self.u0 = np.array(input_port.eval(work), dtype=float)
            except PortError:
                raise PortError(
                    f"{fn}: input port '{input_port.get_name()}' of system '{system.get_name()}' "
                    f"has no value in the context; fix the operating-point input with "
                    f"get_input_port(...).fix_value(context, u0)") from None
            input_port.fix_value(work, self.u0)
        else:
            self.u0 = np.zeros(0)
        self._classify()
        self.x0 = self.get_state()
        self.n, self.m = self.x0.size, self.u0.size
        self.p = output_port.size() if output_port is not None else 0

    def _classify(self):
        nc = self.work.num_continuous_states()
        nd = sum(leaf.get_discrete_state(i).size for leaf in self.leaves
                 for i in range(leaf.num_discrete_state_groups()))
        name = self.system.get_name()
        if nc and nd:
            raise ValueError(
                f"{self.fn}: system '{name}' has both continuous state ({nc}) and discrete state "
                f"({nd}); only purely continuous or purely discrete systems can be linearized")
        self.kind, self.time_period = CONTINUOUS, 0.0
        if not nd:
            return
        attributes = set()
        for leaf in self.leaves:
            s = leaf._system
            for data, event in s._periodic_events:
                if event.kind == "discrete":
                    attributes.add((data.period_sec(), data.offset_sec()))
                elif event.kind == "unrestricted":
                    raise ValueError(
                        f"{self.fn}: subsystem '{s.get_name()}' ({type(s).__name__}) has a "
                        f"periodic unrestricted update; only periodic discrete updates can be "
                        f"linearized")
            if any(e.kind != "publish" for e in s._per_step_events):
                raise ValueError(
                    f"{self.fn}: subsystem '{s.get_name()}' ({type(s).__name__}) has per-step "
                    f"update events; only periodic discrete updates can be linearized")
        if len(attributes) != 1:
            raise ValueError(
                f"{self.fn}: a discrete system must have exactly one periodic discrete update "
                f"(period, offset); system '{name}' has {sorted(attributes) or 'none'}")
        self.kind, self.time_period = DISCRETE, attributes.pop()[0]

    # ---- state and input ----------------------------------------------------------------------
    def get_state(self):
        """x in the snapshot, shape (n,) (a copy)."""
        if self.kind == CONTINUOUS:
            return np.array(self.work.get_continuous_state_vector())
        parts = [leaf.get_discrete_state(i) for leaf in self.leaves
                 for i in range(leaf.num_discrete_state_groups())]
        return np.concatenate(parts) if parts else np.zeros(0)

    def set_state(self, x):
        if self.kind == CONTINUOUS:
            self.work.set_continuous_state(x)
            return
        start = 0
        for leaf in self.leaves:
            for i in range(leaf.num_discrete_state_groups()):
                size = leaf.get_discrete_state(i).size
                leaf.set_discrete_state(i, x[start:start + size])
                start += size

    def set_input(self, u):
        if self.input_port is not None:
            self.input_port.fix_value(self.work, u)

    def restore(self):
        """Put x0 and u0 back into the snapshot."""
        self.set_state(self.x0)
        self.set_input(self.u0)

    # ---- dynamics -----------------------------------------------------------------------------
    def dynamics(self):
        """ẋ (continuous) or x[n+1] (discrete) at the snapshot, shape (n,)."""
        if self.kind == CONTINUOUS:
            if self.work.num_continuous_states() == 0:
                return np.zeros(0)
            return np.array(self.system.eval_time_derivatives(self.work))
        parts = []
        for leaf in self.leaves:
            s = leaf._system
            values = DiscreteValues([np.array(leaf.get_discrete_state(i))
                                     for i in range(leaf.num_discrete_state_groups())])
            for _, event in s._periodic_events:
                if event.kind == "discrete" and event.callback is not None:
                    status = event.callback(leaf, values)
                    if isinstance(status, EventStatus) and status.is_failure():
                        raise SimulationError(
                            f"{self.fn}: the discrete update of subsystem '{s.get_name()}' "
                            f"failed: {status.message()}")
            parts.extend(values.get_value(i) for i in range(values.num_groups()))
        return np.concatenate(parts) if parts else np.zeros(0)

    def output(self):
        """y at the snapshot, shape (p,)."""
        if self.output_port is None:
            return np.zeros(0)
        return np.array(self.output_port.eval(self.work), dtype=float)
