"""VectorLogSink and log_vector_output: record a vector signal during simulation (Drake's)."""

from .leaf_system import LeafSystem
from .vector_log import VectorLog


class VectorLogSink(LeafSystem):
    """Appends its input to a VectorLog kept in the context.

    ::

        data ──▶ ┌───────────────┐
                 │ VectorLogSink │
                 └───────────────┘

    With ``publish_period == 0`` it logs at the start time and at the end of every
    simulator step (a per-step publish); otherwise every ``publish_period`` seconds from
    t = 0. A forced publish (``forced_publish(context)``) also logs.

    The log is abstract state 0 of the sink's context: every context (a clone, a Monte
    Carlo sample) has its own log, and resetting the context to defaults empties it.

    Parameters
    ----------
    input_size : int
        Size of the logged vector.
    publish_period : float
        0 (every step) or the logging period (s).
    """

    def __init__(self, input_size, publish_period=0.0):
        super().__init__()
        self._period = float(publish_period)
        if not self._period >= 0.0:
            raise ValueError(f"VectorLogSink: publish_period must be >= 0, got {publish_period}")
        input_size = int(input_size)
        self.declare_vector_input_port("data", input_size)
        self._log_index = self.declare_abstract_state(VectorLog(input_size))
        if self._period > 0.0:
            self.declare_periodic_publish_event(self._period, 0.0, self._write)
        else:
            self.declare_per_step_publish_event(self._write)
        self.declare_forced_publish_event(self._write)

    def publish_period(self):
        return self._period

    def _write(self, context):
        log = context.get_abstract_state(self._log_index)
        log.add_data(context.get_time(), self.get_input_port(0).eval(context))

    def get_log(self, context):
        """The VectorLog of this sink's ``context`` (or of any context containing it)."""
        ctx = self._context_from(context, "VectorLogSink.get_log")
        return ctx.get_abstract_state(self._log_index)

    get_mutable_log = get_log

    def find_log(self, root_context):
        """The VectorLog held for this sink in ``root_context`` (a diagram's root context)."""
        return self.get_log(self.get_my_context_from_root(root_context))

    find_mutable_log = find_log


def log_vector_output(port, builder, publish_period=0.0):
    """Add a VectorLogSink to ``builder`` and connect ``port`` to it.

    Parameters
    ----------
    port : OutputPort
        A vector output port of a system already added to ``builder``.
    builder : DiagramBuilder
    publish_period : float
        0 logs every simulator step; otherwise the logging period (s).

    Returns
    -------
    VectorLogSink
    """
    if port.get_data_type() != "vector":
        raise ValueError(
            f"log_vector_output: {port!r} is abstract; only vector ports can be logged")
    sink = builder.add_system(VectorLogSink(port.size(), publish_period))
    builder.connect(port, sink.get_input_port(0))
    return sink
