"""Containers for port and state values: BasicVector (numeric), Value (abstract) and
VectorBase (the numpy array the context hands out for state vectors)."""

import copy
import types
import typing

import numpy as np


def _vector_values(fn, value, size):
    """The values of `value` (a BasicVector, a VectorBase or an array of numbers) as a
    float64 (size,) array; ValueError naming `fn` on another size."""
    if isinstance(value, BasicVector) or hasattr(value, "copy_to_vector"):
        value = value.copy_to_vector()
    a = np.asarray(value, dtype=float).reshape(-1)
    if a.size != size:
        raise ValueError(f"{fn}: the vector has size {a.size}, expected {size}")
    return a


def _scaled_sum(fn, values, args, kwargs):
    """``values + Σ scale * rhs`` for pydrake's ``plus_eq_scaled(scale, rhs)`` or
    ``plus_eq_scaled([(scale, rhs), ...])`` (`args` and `kwargs` the call's arguments,
    pydrake's keywords ``scale=``, ``rhs=`` and ``rhs_scale=``)."""
    unknown = sorted(set(kwargs) - {"scale", "rhs", "rhs_scale"})
    if unknown:
        raise TypeError(f"{fn}: unexpected keyword {unknown[0]!r}; valid keywords: scale, rhs, "
                        f"rhs_scale")
    if "rhs_scale" in kwargs:
        args = args + (kwargs["rhs_scale"],)
    elif "scale" in kwargs or "rhs" in kwargs:
        args = args + tuple(kwargs[k] for k in ("scale", "rhs") if k in kwargs)
    if len(args) == 2:
        pairs = [args]
    elif len(args) == 1:
        pairs = list(args[0])
    else:
        raise TypeError(f"{fn}: expected (scale, rhs) or ([(scale, rhs), ...]), got "
                        f"{len(args)} arguments")
    total = np.array(values, dtype=float)
    for scale, rhs in pairs:
        total += float(scale) * _vector_values(fn, rhs, total.size)
    return total


class _Size(int):
    """An int that can also be called: ``v.size`` (numpy) and ``v.size()`` (Drake)."""

    __slots__ = ()

    def __call__(self):
        return int(self)


class _VectorBaseType(type):
    """Drake's BasicVector is a VectorBase: ``isinstance(BasicVector(...), VectorBase)``
    holds here too, although a BasicVector is no ndarray."""

    def __instancecheck__(cls, instance):
        return type.__instancecheck__(cls, instance) or (
            cls is VectorBase and isinstance(instance, BasicVector))

    def __subclasscheck__(cls, subclass):
        return type.__subclasscheck__(cls, subclass) or (
            cls is VectorBase and isinstance(subclass, type) and issubclass(subclass, BasicVector))


class VectorBase(np.ndarray, metaclass=_VectorBaseType):
    """A float64 numpy array with Drake's VectorBase methods.

    The context returns state vectors as VectorBase views: numpy habits keep working
    (``x[0]``, ``x @ y``, ``x.size``), and so do Drake's ``size()``, ``get_value()``,
    ``copy_to_vector()``, ``get_at_index(i)``. Views returned by the read-only accessors
    (``get_continuous_state_vector()``, ``get_discrete_state_vector()``) refuse writes;
    the mutable accessors (``get_mutable_continuous_state_vector()``, ...) return
    writable views and mark the state changed when called. Arithmetic results are plain
    ndarrays.
    """

    @property
    def size(self):
        return _Size(np.ndarray.size.__get__(self))

    def __array_wrap__(self, array, context=None, return_scalar=False):
        if return_scalar:
            return array[()]
        return array.view(np.ndarray) if type(array) is not np.ndarray else array

    def __str__(self):
        """The values as a list at full precision, ``[0.0001966, 2.5]``, as pydrake prints a
        state vector (a 1-D vector; other shapes print as numpy does)."""
        if self.ndim != 1:
            return np.ndarray.__str__(self.view(np.ndarray))
        return str(self.view(np.ndarray).tolist())

    def get_value(self):
        """The values (this array itself), shape (n,)."""
        return self

    def value(self):
        return self

    def get_mutable_value(self):
        """This array, writable when it came from a mutable accessor."""
        self._check_writeable("get_mutable_value")
        return self

    def copy_to_vector(self):
        """A plain ndarray copy, shape (n,)."""
        return np.array(self, dtype=float)

    _get_value_copy = copy_to_vector    # pydrake's binding name of the same copy

    def get_at_index(self, index):
        return float(self[index])

    def set_at_index(self, index, value):
        self._check_writeable("set_at_index")
        self[index] = value

    def set_from(self, value):
        """Overwrite all values with those of the vector `value` of the same size
        (Drake's SetFrom)."""
        self.set_from_vector(_vector_values("VectorBase.set_from", value, len(self)))

    def plus_eq_scaled(self, *args, **kwargs):
        """``self += scale * rhs`` (``plus_eq_scaled(scale, rhs)``), or the sum over
        ``[(scale, rhs), ...]`` (``rhs_scale=``); returns self (Drake's PlusEqScaled)."""
        self.set_from_vector(_scaled_sum("VectorBase.plus_eq_scaled", self, args, kwargs))
        return self

    def set_from_vector(self, value):
        """Overwrite all values; ``value`` must have ``size()`` elements."""
        self._check_writeable("set_from_vector")
        value = np.asarray(value, dtype=float)
        if value.size != len(self):
            raise ValueError(
                f"VectorBase.set_from_vector: value has size {value.size}, expected {len(self)}")
        self[:] = value.reshape(-1)

    set_value = set_from_vector

    def set_zero(self):
        self._check_writeable("set_zero")
        self[:] = 0.0

    def get_vector(self):
        return self

    def get_mutable_vector(self):
        return self

    def _check_writeable(self, fn):
        if not self.flags.writeable:
            raise ValueError(
                f"VectorBase.{fn}: this vector is a read-only view of a context's state; write "
                f"through the context's setters or its get_mutable_* accessors")


def as_vector_base(array, writeable):
    """A VectorBase view of ``array`` (a float64 ndarray), read-only unless ``writeable``."""
    view = array.view(VectorBase)
    if not writeable:
        view.flags.writeable = False
    return view


class BasicVector:
    """A fixed-size float64 vector, the value type of vector ports and state groups.

    Parameters
    ----------
    data : int or array_like, shape (n,)
        The size (zero-filled) or the initial values.
    """

    __slots__ = ("_data",)

    def __init__(self, data=None, *, size=None):
        if (data is None) == (size is None):
            raise TypeError("BasicVector: give the values (data) or a size (size=), once")
        if size is not None:
            data = int(size)
        if isinstance(data, (int, np.integer)):
            self._data = np.zeros(int(data))
        else:
            self._data = np.array(data, dtype=float).reshape(-1)

    @classmethod
    def _wrap(cls, array):
        """Wrap an existing float64 array without copying (the vector writes through)."""
        obj = cls.__new__(cls)
        obj._data = array
        return obj

    def size(self):
        """Number of elements."""
        return self._data.shape[0]

    def __len__(self):
        return self._data.shape[0]

    def get_value(self):
        """The values, as a read-only view, shape (n,)."""
        view = self._data.view()
        view.flags.writeable = False
        return view

    def value(self):
        """Alias of :meth:`get_value`."""
        return self.get_value()

    def get_mutable_value(self):
        """A writable view of the values, shape (n,)."""
        return self._data

    def set_value(self, value):
        """Overwrite all values; ``value`` must have exactly ``size()`` elements."""
        value = np.asarray(value, dtype=float)
        if value.size != self._data.shape[0]:
            raise ValueError(
                f"BasicVector.set_value: value has size {value.size}, expected {self._data.shape[0]}")
        self._data[:] = value.reshape(-1)

    def set_from_vector(self, value):
        """Alias of :meth:`set_value` (Drake's SetFromVector)."""
        self.set_value(value)

    def get_mutable_vector(self):
        """Return self, so that ``derivatives.get_mutable_vector().set_value(x)`` works."""
        return self

    def get_vector(self):
        """Return self."""
        return self

    def copy_to_vector(self):
        """A copy of the values, shape (n,)."""
        return self._data.copy()

    _get_value_copy = copy_to_vector    # pydrake's binding name of the same copy

    def clone(self):
        """An independent BasicVector with the same values."""
        return BasicVector(self._data)

    def get_at_index(self, index):
        return float(self._data[index])

    def set_at_index(self, index, value):
        self._data[index] = value

    def set_from(self, value):
        """Overwrite all values with those of the vector `value` of the same size
        (Drake's SetFrom)."""
        self._data[:] = _vector_values("BasicVector.set_from", value, self._data.shape[0])

    def plus_eq_scaled(self, *args, **kwargs):
        """``self += scale * rhs`` (``plus_eq_scaled(scale, rhs)``), or the sum over
        ``[(scale, rhs), ...]`` (``rhs_scale=``); returns self (Drake's PlusEqScaled)."""
        self._data[:] = _scaled_sum("BasicVector.plus_eq_scaled", self._data, args, kwargs)
        return self

    def set_zero(self):
        self._data[:] = 0.0

    def __getitem__(self, i):
        return self._data[i]

    def __setitem__(self, i, value):
        self._data[i] = value

    def __repr__(self):
        return f"BasicVector({self._data.tolist()})"

    def __str__(self):
        """The values as a list, ``[1.0, 2.5]``, as pydrake prints a BasicVector."""
        return str(self._data.tolist())


def _holds(held_type, value):
    """Whether `value` is a `held_type`; a generic (``list[T]``, ``typing.Optional[T]``,
    pydrake's ``List[T]``) is checked by its container or its alternatives."""
    if held_type is object:
        return True
    origin = typing.get_origin(held_type)
    if origin is None:
        return isinstance(value, held_type)
    if origin is typing.Union or origin is types.UnionType:
        return any(_holds(arg, value) for arg in typing.get_args(held_type))
    return isinstance(value, origin)


def _default_value(held_type):
    """The value ``Value[held_type]()`` holds: ``held_type()``; an empty container for
    ``list[T]`` / ``dict[K, V]``, None for ``typing.Optional[T]`` (or a union with None),
    else the first alternative's default."""
    if held_type is object:
        return None
    origin = typing.get_origin(held_type)
    if origin is None:
        return held_type()
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(held_type)
        return None if type(None) in args else _default_value(args[0])
    return origin()


def _type_name(held_type):
    """``RigidTransform``, ``list[RigidTransform]``: a held type's short name."""
    origin = typing.get_origin(held_type)
    if origin is None:
        return getattr(held_type, "__name__", str(held_type))
    args = ",".join(_type_name(arg) for arg in typing.get_args(held_type))
    return f"{getattr(origin, '__name__', str(origin))}[{args}]"


class _TypedValueMeta(type):
    """Metaclass of ``Value[T]``: ``isinstance(v, Value[T])`` is true for any Value whose
    held object is a ``T`` (``Value[object]`` matches every Value), as in pydrake."""

    def __instancecheck__(cls, instance):
        if not isinstance(instance, Value):
            return False
        return _holds(cls._held_type, instance._value)

    def __subclasscheck__(cls, subclass):
        return isinstance(subclass, type) and issubclass(subclass, Value) and (
            cls._held_type is object or getattr(subclass, "_held_type", None) is cls._held_type)


class Value:
    """A type-erased holder for an abstract (non-numeric) value, as Drake's AbstractValue.

    ``Value[T]`` is pydrake's template spelling: ``Value[str]()`` holds ``str()``,
    ``Value[object](x)`` holds ``x``, and ``isinstance(v, Value[T])`` checks the held type.
    T may be a generic: ``Value[List[SpatialForce]]()`` (pydrake's ``cpp_param.List``,
    which is ``list[SpatialForce]``) holds an empty list.
    ``Value.make(x)`` (Drake's ``AbstractValue.Make``) is ``Value(x)``.

    Parameters
    ----------
    value : object
        The held value; ``clone()`` deep-copies it.
    """

    __slots__ = ("_value",)
    _typed = {}

    def __init__(self, value=None):
        self._value = value

    def __class_getitem__(cls, held_type):
        typed = Value._typed.get(held_type)
        if typed is None:
            def __init__(self, *args):
                self._value = args[0] if args else _default_value(held_type)
            name = f"Value[{_type_name(held_type)}]"
            typed = _TypedValueMeta(name, (Value,), {"__slots__": (), "__init__": __init__,
                                                      "_held_type": held_type})
            Value._typed[held_type] = typed
        return typed

    @staticmethod
    def make(value):
        """A Value holding ``value`` (Drake's ``AbstractValue.Make``)."""
        return Value(value)

    def set_from(self, other):
        """Copy the held object of another Value (Drake's ``SetFrom``)."""
        if not isinstance(other, Value):
            raise TypeError(f"Value.set_from: other must be a Value, got {type(other).__name__}")
        self._value = copy.deepcopy(other._value)

    def get_value(self):
        """The held object."""
        return self._value

    def get_mutable_value(self):
        """The held object (mutable)."""
        return self._value

    def set_value(self, value):
        """Replace the held object."""
        self._value = value

    def clone(self):
        """A deep copy."""
        return Value(copy.deepcopy(self._value))

    def __repr__(self):
        return f"Value({self._value!r})"


AbstractValue = Value


def as_value(model_value):
    """Return ``model_value`` as a :class:`Value` (wrapping raw objects)."""
    return model_value if isinstance(model_value, Value) else Value(model_value)
