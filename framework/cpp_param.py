"""pydrake's container type parameters: ``List[T]``, ``Dict[K, V]``, ``Optional[T]``,
``Union[A, B, ...]`` (pydrake.common.cpp_param).

pydrake names the C++ containers ``std::vector<T>``, ``std::map<K, V>``,
``std::optional<T>`` and ``std::variant<...>`` with these generics, mostly as the held type
of an abstract value: ``Value[List[SpatialForce]]`` is the value type of a port carrying a
list of spatial forces. Each one makes Python's own generic (``List[float]`` is
``list[float]``, ``Optional[int]`` is ``typing.Optional[int]``), after mapping the numpy and
ctypes aliases of a scalar to its Python type (``np.double`` -> ``float``,
``np.int32`` -> ``int``), so that two spellings of one C++ type are one parameter.

They are importable by name from ``merganser.framework`` and left out of its
``import *`` (``List``, ``Dict``, ``Optional`` and ``Union`` would shadow ``typing``'s).
"""

import ctypes
import typing

import numpy as np

__all__ = ["Dict", "List", "Optional", "Union", "get_param_canonical"]

#: alias -> the canonical Python type of the same C++ type
_CANONICAL = {
    np.double: float, ctypes.c_double: float,
    np.float32: np.float32, ctypes.c_float: np.float32,
    np.int32: int, ctypes.c_int32: int,
    ctypes.c_int16: np.int16, ctypes.c_int64: np.int64,
    ctypes.c_uint8: np.uint8, ctypes.c_uint16: np.uint16,
    ctypes.c_uint32: np.uint32, ctypes.c_uint64: np.uint64,
}


def get_param_canonical(params):
    """The canonical types of a tuple of type parameters (``np.double`` -> ``float``).

    Parameters
    ----------
    params : tuple
        Type parameters; those that are no registered alias come back unchanged.

    Returns
    -------
    tuple
        The canonical parameters, in order.
    """
    if not isinstance(params, tuple):
        raise TypeError(f"get_param_canonical: params must be a tuple, got "
                        f"{type(params).__name__}")
    return tuple(_CANONICAL.get(p, p) if _hashable(p) else p for p in params)


def _hashable(obj):
    try:
        hash(obj)
    except TypeError:
        return False
    return True


class _Generic:
    """A generic indexed by type parameters: ``List[float]`` is ``list[float]``.

    Parameters
    ----------
    name : str
        The generic's name, for messages.
    instantiate : callable
        tuple of canonical parameters -> Python's generic.
    num_params : int or None
        The number of parameters it takes (None: any number, at least one).
    """

    def __init__(self, name, instantiate, num_params):
        self._name = name
        self._instantiate = instantiate
        self._num_params = num_params

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        if self._num_params is not None and len(params) != self._num_params:
            raise RuntimeError(
                f"{self._name}[]: expected exactly {self._num_params} type parameter(s), "
                f"got {len(params)}")
        if not params:
            raise RuntimeError(f"{self._name}[]: expected at least one type parameter, got 0")
        return self._instantiate(get_param_canonical(params))

    def __repr__(self):
        return f"<Generic {self._name}>"


#: ``List[T]``: ``list[T]``, pydrake's name of ``std::vector<T>``.
List = _Generic("List", lambda p: list[p[0]], 1)
#: ``Dict[K, V]``: ``dict[K, V]``, pydrake's name of ``std::map<K, V>``.
Dict = _Generic("Dict", lambda p: dict[p[0], p[1]], 2)
#: ``Optional[T]``: ``typing.Optional[T]``, pydrake's name of ``std::optional<T>``.
Optional = _Generic("Optional", lambda p: typing.Optional[p[0]], 1)
#: ``Union[A, ...]``: ``typing.Union[A, ...]``, pydrake's name of ``std::variant<A, ...>``.
Union = _Generic("Union", lambda p: typing.Union[p], None)
