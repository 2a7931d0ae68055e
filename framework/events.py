"""Events, event status and witness functions (Drake's Event, EventStatus, WitnessFunction)."""

import enum
import math



class EventStatus:
    """The outcome of an event handler or a monitor (Drake's EventStatus).

    Use the constructors ``succeeded()``, ``did_nothing()``,
    ``reached_termination(system, message)`` and ``failed(system, message)``.
    """

    DID_NOTHING = 0
    SUCCEEDED = 1
    REACHED_TERMINATION = 2
    FAILED = 3

    __slots__ = ("_severity", "_system", "_message")

    def __init__(self, severity, system=None, message=""):
        self._severity = severity
        self._system = system
        self._message = message

    @classmethod
    def succeeded(cls):
        return cls(cls.SUCCEEDED)

    @classmethod
    def did_nothing(cls):
        return cls(cls.DID_NOTHING)

    @classmethod
    def reached_termination(cls, system, message):
        return cls(cls.REACHED_TERMINATION, system, str(message))

    @classmethod
    def failed(cls, system, message):
        return cls(cls.FAILED, system, str(message))

    def severity(self):
        return self._severity

    def system(self):
        return self._system

    def message(self):
        return self._message

    def did_nothing_(self):
        return self._severity == self.DID_NOTHING

    def succeeded_(self):
        return self._severity == self.SUCCEEDED

    def is_reached_termination(self):
        return self._severity == self.REACHED_TERMINATION

    def is_failure(self):
        return self._severity == self.FAILED

    def __repr__(self):
        names = {0: "did_nothing", 1: "succeeded", 2: "reached_termination", 3: "failed"}
        return f"EventStatus.{names[self._severity]}({self._message!r})"


class TriggerType(enum.IntEnum):
    """What causes an event to be dispatched."""

    UNKNOWN = 0
    INITIALIZATION = 1
    FORCED = 2
    TIMED = 3
    PERIODIC = 4
    PER_STEP = 5
    WITNESS = 6


class Event:
    """Base of the three event kinds; holds the handler callback.

    Parameters
    ----------
    callback : callable or None
        ``publish(context)``, ``update(context, discrete_state)`` or
        ``update(context, state)`` depending on the kind; may return an EventStatus.
    """

    kind = None

    def __init__(self, callback=None, trigger_type=TriggerType.UNKNOWN):
        self.callback = callback
        self.trigger_type = trigger_type

    def __repr__(self):
        return f"<{type(self).__name__} {self.trigger_type.name}>"


class PublishEvent(Event):
    """Read-only event: ``callback(context)``."""

    kind = "publish"


class DiscreteUpdateEvent(Event):
    """Updates the discrete state: ``callback(context, discrete_state)``."""

    kind = "discrete"


class UnrestrictedUpdateEvent(Event):
    """May change any state: ``callback(context, state)``."""

    kind = "unrestricted"


class PeriodicEventData:
    """Period and offset (s) of a periodic event."""

    __slots__ = ("period_sec", "offset_sec")

    def __init__(self, period_sec, offset_sec):
        self.period_sec = float(period_sec)
        self.offset_sec = float(offset_sec)

    def next_time(self, t, inclusive):
        """Earliest trigger time after ``t`` (at or after when ``inclusive``)."""
        period, offset = self.period_sec, self.offset_sec
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


class WitnessFunctionDirection(enum.IntEnum):
    """Which sign changes of a witness function trigger it (Drake's names)."""

    NONE = 0
    POSITIVE_THEN_NON_POSITIVE = 1
    NEGATIVE_THEN_NON_NEGATIVE = 2
    CROSSES_ZERO = 3

    # Drake spellings.
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
