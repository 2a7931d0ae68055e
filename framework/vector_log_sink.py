"""VectorLogSink and log_vector_output: record a vector signal during simulation (Drake's)."""

from .events import TriggerType
from .keyword_check import lists_valid_keywords
from .leaf_system import LeafSystem
from .ports import OutputPort
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
    publish_triggers : set of TriggerType, optional
        When to log, among ``TriggerType.FORCED``, ``PERIODIC`` and ``PER_STEP`` (Drake's
        kForced, kPeriodic, kPerStep). Default: {FORCED, PERIODIC} with a positive
        ``publish_period``, else {FORCED, PER_STEP}. PERIODIC requires a positive period.
        pydrake's positional ``(input_size, publish_triggers, publish_period)`` is accepted.
    """

    @lists_valid_keywords
    def __init__(self, input_size, publish_period=0.0, publish_triggers=None):
        super().__init__()
        publish_period, publish_triggers = _period_and_triggers(publish_period,
                                                                publish_triggers)
        self._period = float(publish_period)
        if not self._period >= 0.0:
            raise ValueError(f"VectorLogSink: publish_period must be >= 0, got {publish_period}")
        if publish_triggers is None:
            publish_triggers = {TriggerType.FORCED, TriggerType.PERIODIC if self._period > 0.0
                                else TriggerType.PER_STEP}
        triggers = set(publish_triggers)
        allowed = {TriggerType.FORCED, TriggerType.PERIODIC, TriggerType.PER_STEP}
        if not triggers or not triggers <= allowed:
            raise ValueError(
                f"VectorLogSink: publish_triggers must be a non-empty subset of "
                f"{{FORCED, PERIODIC, PER_STEP}}, got {sorted(t.name for t in triggers)}")
        if (TriggerType.PERIODIC in triggers) != (self._period > 0.0):
            raise ValueError(
                f"VectorLogSink: a positive publish_period goes with the PERIODIC trigger "
                f"(and only with it); got publish_period {self._period} and triggers "
                f"{sorted(t.name for t in triggers)}")
        self._triggers = frozenset(triggers)
        input_size = int(input_size)
        self.declare_vector_input_port("data", input_size)
        self._log_index = self.declare_abstract_state(VectorLog(input_size))
        if TriggerType.PERIODIC in triggers:
            self.declare_periodic_publish_event(self._period, 0.0, self._write)
        if TriggerType.PER_STEP in triggers:
            self.declare_per_step_publish_event(self._write)
        if TriggerType.FORCED in triggers:
            self.declare_forced_publish_event(self._write)

    def publish_period(self):
        return self._period

    def get_publish_triggers(self):
        """The triggers that log (a frozenset of TriggerType)."""
        return self._triggers

    def _write(self, context):
        log = context.get_abstract_state(self._log_index).get_value()
        log.add_data(context.get_time(), self.get_input_port(0).eval(context))

    def get_log(self, context):
        """The VectorLog of this sink's ``context`` (or of any context containing it)."""
        ctx = self._context_from(context, "VectorLogSink.get_log")
        return ctx.get_abstract_state(self._log_index).get_value()

    get_mutable_log = get_log

    def find_log(self, context):
        """The VectorLog held for this sink in `context`, a root context holding the sink's
        (pydrake's keyword ``context=``)."""
        return self.get_log(self.get_my_context_from_root(context))

    find_mutable_log = find_log


@lists_valid_keywords
def _period_and_triggers(publish_period, publish_triggers):
    """pydrake's positional forms (size, period), (size, triggers) and (size, triggers,
    period): a set in the period's place is the triggers, and what follows the period."""
    if isinstance(publish_period, (set, frozenset)):
        period = publish_triggers if publish_triggers is not None else 0.0
        return period, publish_period
    return publish_period, publish_triggers


def log_vector_output(src=None, builder=None, publish_period=0.0, publish_triggers=None, *,
                      port=None):
    """Add a VectorLogSink to ``builder`` and connect ``src`` to it (Drake's LogVectorOutput).

    Parameters
    ----------
    src : OutputPort
        A vector output port of a system already added to ``builder`` (``port`` is the
        name API.md uses; give one of them).
    builder : DiagramBuilder
    publish_period : float
        0 logs every simulator step; otherwise the logging period (s).
    publish_triggers : set of TriggerType, optional
        See VectorLogSink (pydrake's ``LogVectorOutput(src, builder, publish_triggers)`` and
        ``(src, builder, publish_triggers, publish_period)`` forms are accepted
        positionally too).

    Returns
    -------
    VectorLogSink
    """
    if (src is None) == (port is None):
        raise TypeError("log_vector_output: give the output port as src (or port), once")
    src = port if src is None else src
    publish_period, publish_triggers = _period_and_triggers(publish_period, publish_triggers)
    if not isinstance(src, OutputPort):
        raise TypeError(f"log_vector_output: src must be an OutputPort, got {type(src).__name__}")
    if builder is None or not hasattr(builder, "add_system"):
        raise TypeError(f"log_vector_output: builder must be a DiagramBuilder, got "
                        f"{type(builder).__name__}")
    if src.get_data_type() != "vector":
        raise ValueError(
            f"log_vector_output: {src!r} is abstract; only vector ports can be logged")
    sink = builder.add_system(VectorLogSink(src.size(), publish_period,
                                            publish_triggers=publish_triggers))
    builder.connect(src, sink.get_input_port(0))
    return sink
