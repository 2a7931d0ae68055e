"""BusValue: named signals grouped on one port (Drake's BusValue)."""

from .value import Value


class BusValue:
    """Labeled signals, each held as a Value, carried by one abstract port (Drake's
    BusValue); BusCreator packs input ports into one and BusSelector unpacks one into
    output ports named after the signals.

    ``set(name, value)`` stores a Value (a copy), ``find(name)`` returns the object it
    holds (a BasicVector for a vector signal) or None, ``clear()`` empties the bus.
    As pydrake's, iterating yields the signal names in the order they were first set
    and ``bus[name]`` is the held object (KeyError for an unknown name); ``items()``
    gives the ``(name, Value)`` pairs.
    Once a name was set, later values for it must hold the same type, as in Drake.
    """

    __slots__ = ("_signals", "_types")

    def __init__(self):
        self._signals = {}
        self._types = {}          # name -> type of the held object, kept across clear()

    def set(self, name, value):
        """Store a copy of ``value`` (a Value) under ``name`` (any str)."""
        if not isinstance(name, str):
            raise TypeError(f"BusValue.set: name must be a str, got {type(name).__name__}")
        if not isinstance(value, Value):
            raise TypeError(f"BusValue.set: value for signal {name!r} must be a Value "
                            f"(AbstractValue), got {type(value).__name__}")
        held = type(value.get_value())
        presumed = self._types.setdefault(name, held)
        if presumed is not held:
            raise RuntimeError(
                f"BusValue.set: signal {name!r} holds {presumed.__name__} values on this bus, "
                f"got a {held.__name__}")
        self._signals[name] = value.clone()

    def find(self, name):
        """The object signal ``name`` holds, or None when the bus has no such signal."""
        value = self._signals.get(name)
        return None if value is None else value.get_value()

    def clear(self):
        """Remove every signal."""
        self._signals.clear()

    def __iter__(self):
        return iter(list(self._signals))

    def __getitem__(self, name):
        value = self._signals.get(name)
        if value is None:
            raise KeyError(name)
        return value.get_value()

    def items(self):
        """The ``(name, Value)`` pairs, in the order the names were first set."""
        return list(self._signals.items())

    def __len__(self):
        return len(self._signals)

    def __contains__(self, name):
        return name in self._signals

    def __deepcopy__(self, memo):
        other = BusValue()
        other._signals = {k: v.clone() for k, v in self._signals.items()}
        other._types = dict(self._types)
        return other

    def __repr__(self):
        return f"BusValue({sorted(self._signals)})"
