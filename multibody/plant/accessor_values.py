"""Values readable both as an attribute and as Drake's zero-argument accessor.

merganser's result records (`PointPairContactInfo`, `HydroelasticContactInfo`) expose
their fields as attributes (``info.contact_force``); pydrake spells the same fields as
methods (``info.contact_force()``). `accessor_value` wraps a field's value so that both
spellings work: the wrapped value is the value (an ndarray, int, float or the original
object's class) and calling it with no argument returns it unchanged.
"""

import copy

import numpy as np

__all__ = ["accessor_value"]


class _AccessorArray(np.ndarray):
    def __call__(self):
        return self


class _AccessorInt(int):
    def __call__(self):
        return self


class _AccessorFloat(float):
    def __call__(self):
        return self


_CALLABLE_SUBCLASSES: dict[type, type] = {}


def _slot_names(cls):
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        yield from ((slots,) if isinstance(slots, str) else slots)


def _plain(value, cls):
    """`value` (an instance of the callable subclass of `cls`) as a plain `cls`."""
    if isinstance(value, int):
        return cls(int(value))
    out = cls.__new__(cls)
    for name in _slot_names(cls):
        if name not in ("__dict__", "__weakref__") and hasattr(value, name):
            object.__setattr__(out, name, getattr(value, name))
    if hasattr(value, "__dict__"):
        for name, item in vars(value).items():
            object.__setattr__(out, name, item)
    return out


def _callable_subclass(cls):
    sub = _CALLABLE_SUBCLASSES.get(cls)
    if sub is None:
        def reduce_ex(self, protocol):      # pickle/deepcopy as accessor_value(plain cls)
            return accessor_value, (_plain(self, cls),)

        sub = type(cls.__name__, (cls,), {"__slots__": (), "__call__": lambda self: self,
                                          "__reduce_ex__": reduce_ex,
                                          "__module__": cls.__module__,
                                          "__qualname__": cls.__qualname__})
        _CALLABLE_SUBCLASSES[cls] = sub
    return sub


def accessor_value(value):
    """Return `value` made callable with no argument (returning itself).

    Parameters
    ----------
    value : ndarray, int, float, bool or object
        The field value. Arrays come back as a read-only ndarray view, ints and floats
        as int and float subclasses, None and bools unchanged (pydrake has no such
        accessor), and other objects as a shallow copy whose class is a subclass of
        theirs (so ``isinstance`` checks keep holding).

    Returns
    -------
    object
        The value, callable as ``value()``.
    """
    if value is None or isinstance(value, bool) or callable(value):
        return value
    if isinstance(value, np.ndarray):
        out = value.view(_AccessorArray)
        out.flags.writeable = False
        return out
    if isinstance(value, (int, np.integer)):
        if type(value) in (int, np.int64, np.int32):
            return _AccessorInt(value)
        return _callable_subclass(type(value))(value)      # e.g. a BodyIndex
    if isinstance(value, (float, np.floating)):
        return _AccessorFloat(value)
    try:
        out = copy.copy(value)
        object.__setattr__(out, "__class__", _callable_subclass(type(value)))
    except (TypeError, AttributeError):             # built-in or incompatible layout
        return value
    return out
