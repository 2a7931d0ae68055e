"""Drake's scalar-type templates (``LeafSystem_``, ``Adder_``, ...) with the one scalar
type merganser computes in.

pydrake exposes each scalar-templated class ``Foo<T>`` twice: ``Foo`` (T = double) and the
template ``Foo_``, indexed by the scalar type (``Foo_[float]``, ``Foo_[AutoDiffXd]``,
``Foo_[Expression]``; ``Foo_[None]`` is the default). merganser's systems compute in
float64 only, so ``Foo_[float]`` and ``Foo_[None]`` are ``Foo`` itself and any other scalar
type is refused with a RuntimeError (pydrake raises one for a missing instantiation).

Every framework class is reachable under its template name (``merganser.framework.Adder_``),
made on first use by the package's ``__getattr__``.
"""

from __future__ import annotations

import copy

__all__ = ["ScalarCast", "ScalarTemplate"]


class ScalarTemplate:
    """The scalar-type template ``name`` whose only instantiation (float) is `cls`.

    Parameters
    ----------
    name : str
        The template's name, e.g. ``"Adder_"``.
    cls : type
        The float64 class, e.g. ``Adder``.
    """

    def __init__(self, name, cls):
        self.name = name
        self._cls = cls
        self.param_list = [(float,)]

    def __getitem__(self, param):
        """``template[float]`` / ``template[None]`` -> the float64 class; anything else raises
        RuntimeError."""
        key = param[0] if isinstance(param, tuple) and len(param) == 1 else param
        if key is None or key is float:
            return self._cls
        raise RuntimeError(
            f"{self.name}[{getattr(key, '__name__', key)!s}]: merganser computes in float64 "
            f"only; expected the scalar type float (or None for the default), "
            f"got {key!r}")

    def get_instantiation(self, param=None):
        """(the class, the parameter tuple) for `param` (default: float)."""
        return self[param], (float,)

    def is_instantiation(self, obj):
        """Whether `obj` is this template's (float64) class."""
        return obj is self._cls

    def is_subclass_of_instantiation(self, obj):
        """The parameter tuple when the class `obj` derives from the float64 class, else None."""
        return (float,) if isinstance(obj, type) and issubclass(obj, self._cls) else None

    def __call__(self, *args, **kwargs):
        """Calling the template constructs the default (float64) class, as in pydrake."""
        return self._cls(*args, **kwargs)

    def __repr__(self):
        return f"<ScalarTemplate {self.name} (float: {self._cls.__module__}.{self._cls.__qualname__})>"


class _CastBound:
    """``value.cast`` of one object: ``value.cast[float]()`` is a copy of it."""

    __slots__ = ("_value", "_name")

    def __init__(self, value, name):
        self._value = value
        self._name = name

    def __getitem__(self, param):
        key = param[0] if isinstance(param, tuple) and len(param) == 1 else param
        if key is None or key is float:
            return self._copy
        raise RuntimeError(
            f"{self._name}.cast[{getattr(key, '__name__', key)!s}]: merganser computes in "
            f"float64 only; expected the scalar type float, got {key!r}")

    def _copy(self):
        return copy.deepcopy(self._value)

    def __call__(self):
        """``value.cast()`` without a scalar type: a copy (the default scalar, float)."""
        return self._copy()


class ScalarCast:
    """Drake's ``cast<U>()`` as the attribute ``cast`` of a value class: ``value.cast[U]()``
    returns a copy of ``value`` with scalar type U; U can only be float (or None, the
    default) in merganser, any other scalar type raises RuntimeError.

    Used as a class attribute: ``cast = ScalarCast()``.
    """

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return _CastBound(obj, type(obj).__name__)
