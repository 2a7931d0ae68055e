"""Events, event status and witness functions (Drake's Event, EventStatus, WitnessFunction)."""

import math

from .drake_enum import DrakeIntEnum
from .errors import SimulationError


class EventStatus:
    """The outcome of an event handler or a monitor (Drake's EventStatus).

    Make one with the factories ``did_nothing()``, ``succeeded()``,
    ``reached_termination(system, message)`` or ``failed(system, message)``; read it with
    ``severity()`` (an ``EventStatus.Severity``, ordered from least to most severe),
    ``system()`` and ``message()``.
    """

    class Severity(DrakeIntEnum):
        """How severe an outcome is; larger is more severe."""

        DID_NOTHING = 0
        SUCCEEDED = 1
        REACHED_TERMINATION = 2
        FAILED = 3
        # pydrake's member names (the same members)
        kDidNothing = 0
        kSucceeded = 1
        kReachedTermination = 2
        kFailed = 3

    __slots__ = ("_severity", "_system", "_message")

    def __init__(self, severity, system=None, message=""):
        self._severity = EventStatus.Severity(severity)
        self._system = system
        self._message = message

    @classmethod
    def did_nothing(cls):
        """The handler had nothing to do."""
        return cls(cls.Severity.DID_NOTHING)

    @classmethod
    def succeeded(cls):
        """The handler did what it should."""
        return cls(cls.Severity.SUCCEEDED)

    @classmethod
    def reached_termination(cls, system, message):
        """The simulation should stop, normally (``system`` is the reporting system)."""
        return cls(cls.Severity.REACHED_TERMINATION, system, str(message))

    @classmethod
    def failed(cls, system, message):
        """The handler failed; the simulator raises, naming ``system`` and ``message``."""
        return cls(cls.Severity.FAILED, system, str(message))

    def severity(self):
        return self._severity

    def system(self):
        """The system that reported the status (None for did_nothing / succeeded)."""
        return self._system

    def message(self):
        return self._message

    def is_reached_termination(self):
        return self._severity == EventStatus.Severity.REACHED_TERMINATION

    def is_failure(self):
        return self._severity == EventStatus.Severity.FAILED

    def keep_more_severe(self, candidate):
        """Become ``candidate`` when it is more severe (Drake's KeepMoreSevere); returns self."""
        if candidate._severity > self._severity:
            self._severity = candidate._severity
            self._system = candidate._system
            self._message = candidate._message
        return self

    def throw_on_failure(self, function_name):
        """Raise SimulationError (a RuntimeError) naming ``function_name`` if this is a failure."""
        if self.is_failure():
            who = f"system '{self._system.get_name()}'" if self._system is not None else "a system"
            raise SimulationError(f"{function_name}: {who} failed: {self._message}")

    def __repr__(self):
        name = self._severity.name.lower()
        if self._system is None and not self._message:
            return f"EventStatus.{name}()"
        who = "None" if self._system is None else f"system '{self._system.get_name()}'"
        return f"EventStatus.{name}({who}, {self._message!r})"


class TriggerType(DrakeIntEnum):
    """What causes an event to be dispatched."""

    UNKNOWN = 0
    INITIALIZATION = 1
    FORCED = 2
    TIMED = 3
    PERIODIC = 4
    PER_STEP = 5
    WITNESS = 6
    # pydrake's spellings, aliases of the members above (TriggerType.kForced is FORCED).
    kUnknown = 0
    kInitialization = 1
    kForced = 2
    kTimed = 3
    kPeriodic = 4
    kPerStep = 5
    kWitness = 6


class _WithEvent:
    """Drake's handler form ``fn(context, event, *state)`` (``system_callback``:
    ``fn(system, context, event, *state)``) called as merganser's ``handler(context,
    *state)``; a class rather than a closure so that systems stay picklable."""

    __slots__ = ("fn", "event", "with_system")

    def __init__(self, fn, event, with_system):
        self.fn, self.event, self.with_system = fn, event, with_system

    def __call__(self, context, *state):
        if self.with_system:
            return self.fn(context.get_system(), context, self.event, *state)
        return self.fn(context, self.event, *state)


class Event:
    """Base of the three event kinds (Drake's Event).

    Parameters
    ----------
    callback : callable or None
        Drake's form: ``callback(context, event)`` for a PublishEvent,
        ``callback(context, event, discrete_state)`` for a DiscreteUpdateEvent,
        ``callback(context, event, state)`` for an UnrestrictedUpdateEvent; may return an
        EventStatus.
    trigger_type : TriggerType
    system_callback : callable or None
        The same with the system first: ``system_callback(system, context, event, ...)``.

    Attributes
    ----------
    callback : callable or None
        The handler the framework dispatches, ``callback(context[, state])`` (the form
        the ``declare_*_event`` methods take).
    """

    kind = None

    def __init__(self, callback=None, trigger_type=TriggerType.UNKNOWN, *, system_callback=None):
        if system_callback is not None and callback is not None:
            raise TypeError(f"{type(self).__name__}: give callback or system_callback, "
                            f"not both")
        self._drake_callback = (callback, False) if callback is not None else (
            (system_callback, True) if system_callback is not None else None)
        self.callback = None if self._drake_callback is None else _WithEvent(
            self._drake_callback[0], self, self._drake_callback[1])
        self.trigger_type = TriggerType(trigger_type)

    @classmethod
    def from_handler(cls, handler, trigger_type=TriggerType.UNKNOWN):
        """An event dispatching ``handler(context[, state])`` (merganser's form, the one
        ``declare_periodic_publish_event`` and friends take)."""
        event = cls(trigger_type=trigger_type)
        event.callback = handler
        return event

    def with_trigger_type(self, trigger_type):
        """A copy of this event with another trigger type (a declaration's)."""
        if self._drake_callback is None:
            return type(self).from_handler(self.callback, trigger_type)
        fn, with_system = self._drake_callback
        if with_system:
            return type(self)(trigger_type=trigger_type, system_callback=fn)
        return type(self)(fn, trigger_type)

    def get_trigger_type(self):
        """What causes this event (a TriggerType)."""
        return self.trigger_type

    def __repr__(self):
        return f"<{type(self).__name__} {self.trigger_type.name}>"


class PublishEvent(Event):
    """Read-only event: ``callback(context, event)``."""

    kind = "publish"


class DiscreteUpdateEvent(Event):
    """Updates the discrete state: ``callback(context, event, discrete_state)``."""

    kind = "discrete"


class UnrestrictedUpdateEvent(Event):
    """May change any state: ``callback(context, event, state)``."""

    kind = "unrestricted"


class PeriodicEventData:
    """Period and offset (s) of a periodic event (Drake's PeriodicEventData):
    ``period_sec()``, ``offset_sec()``; equal when both are."""

    __slots__ = ("_period_sec", "_offset_sec")

    def __init__(self, period_sec, offset_sec):
        self._period_sec = float(period_sec)
        self._offset_sec = float(offset_sec)

    def period_sec(self):
        return self._period_sec

    def offset_sec(self):
        return self._offset_sec

    def __eq__(self, other):
        return (isinstance(other, PeriodicEventData) and
                (self._period_sec, self._offset_sec) == (other._period_sec, other._offset_sec))

    def __hash__(self):
        return hash((self._period_sec, self._offset_sec))

    def __copy__(self):
        return PeriodicEventData(self._period_sec, self._offset_sec)

    def __repr__(self):
        return f"PeriodicEventData(period_sec={self._period_sec}, offset_sec={self._offset_sec})"

    def next_time(self, t, inclusive):
        """Earliest trigger time after ``t`` (at or after when ``inclusive``)."""
        return next_periodic_time(self._period_sec, self._offset_sec, t, inclusive)


def next_periodic_time(period, offset, t, inclusive):
    """The earliest time ``offset + k * period`` (k = 0, 1, ...) after ``t`` (s), or at
    ``t`` when ``inclusive``.

    Plain Python that numba compiles too: the compiled simulation loop of a compiled
    diagram (``compiled_diagram.event_loop``) copies this source, so both loops find the
    same event times.
    """
    if t < offset or (inclusive and t == offset):
        return offset
    k = float(math.floor((t - offset) / period))
    candidate = offset + k * period
    if inclusive and candidate == t:
        return candidate
    while candidate <= t:
        k += 1.0
        candidate = offset + k * period
    return candidate


class WitnessFunctionDirection(DrakeIntEnum):
    """Which sign changes of a witness function trigger it (Drake's names)."""

    NONE = 0
    POSITIVE_THEN_NON_POSITIVE = 1
    NEGATIVE_THEN_NON_NEGATIVE = 2
    CROSSES_ZERO = 3
    # pydrake's member names (the same members)
    kNone = 0
    kPositiveThenNonPositive = 1
    kNegativeThenNonNegative = 2
    kCrossesZero = 3


_DIRECTION_NAMES = {
    "none": WitnessFunctionDirection.NONE,
    "positive_then_non_positive": WitnessFunctionDirection.POSITIVE_THEN_NON_POSITIVE,
    "negative_then_non_negative": WitnessFunctionDirection.NEGATIVE_THEN_NON_NEGATIVE,
    "crosses_zero": WitnessFunctionDirection.CROSSES_ZERO,
}


def as_direction(direction):
    """Accept a WitnessFunctionDirection or its snake_case name."""
    if isinstance(direction, str):
        try:
            return _DIRECTION_NAMES[direction]
        except KeyError:
            raise ValueError(
                f"make_witness_function: direction must be one of {sorted(_DIRECTION_NAMES)}, "
                f"got {direction!r}") from None
    return WitnessFunctionDirection(int(direction))


class WitnessFunction:
    """A scalar function of the context whose zero crossings the Simulator localizes.

    Parameters
    ----------
    system : System
    description : str
    direction : WitnessFunctionDirection
    calc : callable ``calc(context) -> float``
    event : Event or None
        Dispatched at the isolated crossing time.
    """

    def __init__(self, system, description, direction, calc, event=None):
        self._system = system
        self._description = description
        self._direction = direction
        self._calc = calc
        self._event = event
        if event is not None:
            event.trigger_type = TriggerType.WITNESS

    def get_system(self):
        return self._system

    def description(self):
        return self._description

    def direction_type(self):
        return self._direction

    def get_event(self):
        return self._event

    def calc_witness_value(self, context):
        """The witness value in ``context`` (the system's own context)."""
        return float(self._calc(context))

    def should_trigger(self, w0, wf):
        """Whether the change from ``w0`` to ``wf`` over a step triggers this witness."""
        d = self._direction
        if d == WitnessFunctionDirection.POSITIVE_THEN_NON_POSITIVE:
            return w0 > 0.0 and wf <= 0.0
        if d == WitnessFunctionDirection.NEGATIVE_THEN_NON_NEGATIVE:
            return w0 < 0.0 and wf >= 0.0
        if d == WitnessFunctionDirection.CROSSES_ZERO:
            return (w0 > 0.0 and wf <= 0.0) or (w0 < 0.0 and wf >= 0.0)
        return False

    def __repr__(self):
        return f"<WitnessFunction '{self._description}' of '{self._system.get_name()}'>"
