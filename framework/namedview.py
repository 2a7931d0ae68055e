"""namedview: named access to the entries of a vector (pydrake's
``pydrake.common.containers.namedview``).

    State = namedview("State", ["theta", "thetadot"])
    x = np.array([0.1, 0.0])
    s = State(x)
    s.thetadot = 2.0            # x is now [0.1, 2.0]: the view aliases x
    State.Zero()                # State(theta=0.0, thetadot=0.0) over a new zero array

A view holds the object it was given (an ndarray, a BasicVector's values, a list) and
reads and writes its entries; ``view[:]`` and ``np.asarray(view)`` alias it,
``np.array(view)`` copies it.
"""

from __future__ import annotations

import keyword
import re

import numpy as np

__all__ = ["NamedViewBase", "namedview"]


class NamedViewBase:
    """The base of the classes `namedview` makes: field properties over ``_value``."""

    _fields = ()

    def __init__(self, value):
        n = len(self._fields)
        try:
            size = len(value)
        except TypeError:
            raise TypeError(f"{type(self).__name__}: value must be a sequence of {n} entries "
                            f"(an ndarray, a list, ...), got {type(value).__name__}") from None
        if size != n:
            raise ValueError(f"{type(self).__name__}: value must have {n} entries (the fields "
                             f"{', '.join(self._fields)}), got {size}")
        object.__setattr__(self, "_value", value)

    @classmethod
    def get_fields(cls):
        """The field names, in order."""
        return cls._fields

    @classmethod
    def Zero(cls):  # noqa: N802 (pydrake's name)
        """A view over a new float array of zeros."""
        return cls(np.zeros(len(cls._fields)))

    zero = Zero

    def __setattr__(self, name, value):
        if name not in self._fields:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}; its fields "
                                 f"are {', '.join(self._fields)}")
        object.__setattr__(self, name, value)

    def __getitem__(self, index):
        return self._value[index]

    def __setitem__(self, index, value):
        self._value[index] = value

    def __len__(self):
        return len(self._fields)

    def __iter__(self):
        return iter(self._value[i] for i in range(len(self._fields)))

    def __array__(self, dtype=None, copy=None):
        out = np.asarray(self._value, dtype=dtype)
        return out.copy() if copy else out

    def __str__(self):
        values = ", ".join(f"{name}={_shown(self._value[i])}"
                           for i, name in enumerate(self._fields))
        return f"{type(self).__name__}({values})"

    def __repr__(self):
        return f"<{self}>"


def _shown(x):
    """A number as a plain float (``5.0``, not ``np.float64(5.0)``), anything else by repr."""
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        return repr(float(x))
    return repr(x)


def _sanitize(name):
    out = re.sub(r"[^0-9a-zA-Z_]", "_", name)
    if out[:1].isdigit():
        out = "_" + out
    return re.sub(r"_+", "_", out)


def _field_property(i):
    def get(self):
        return self._value[i]

    def put(self, value):
        self._value[i] = value
    return property(get, put)


def namedview(name, fields, *, sanitize_field_names=True):
    """A class whose instances give named access to the entries of a vector.

    Parameters
    ----------
    name : str
        The class's name.
    fields : sequence of str
        The entries' names, in order.
    sanitize_field_names : bool
        Replace the characters of a field name that are not valid in a Python identifier
        by ``_`` (a leading digit gets a ``_`` before it, runs of ``_`` become one), as
        pydrake does; False leaves them as given (then they must be identifiers).

    Returns
    -------
    type
        A subclass of `NamedViewBase`; ``View(value)`` wraps `value` (``len(fields)``
        entries) without copying it.

    Raises
    ------
    ValueError
        For a field that is not an identifier (after sanitizing), a keyword, a duplicate,
        or the name of a view method (``get_fields``, ``Zero``, ``zero``).
    """
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"namedview: name must be an identifier, got {name!r}")
    names = []
    for field in fields:
        if not isinstance(field, str):
            raise TypeError(f"namedview {name!r}: field names must be str, got "
                            f"{type(field).__name__}")
        field = _sanitize(field) if sanitize_field_names else field
        if not field.isidentifier() or keyword.iskeyword(field):
            raise ValueError(f"namedview {name!r}: field {field!r} is not a valid Python "
                             f"identifier")
        if field in names:
            raise ValueError(f"namedview {name!r}: field {field!r} appears twice")
        if hasattr(NamedViewBase, field):
            raise ValueError(f"namedview {name!r}: field {field!r} is the name of a view "
                             f"method")
        names.append(field)
    namespace = {"_fields": tuple(names), "__slots__": ()}
    namespace.update({field: _field_property(i) for i, field in enumerate(names)})
    return type(name, (NamedViewBase,), namespace)
