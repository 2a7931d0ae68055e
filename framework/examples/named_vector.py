"""Drake's named vectors (``*.named_vector`` in its examples) as BasicVector subclasses."""

from __future__ import annotations

import numpy as np

from ..value import BasicVector

__all__ = ["NamedVectorViews", "named_vector"]


def named_vector(name, fields, defaults, doc):
    """A BasicVector subclass named `name` with a getter, a ``set_<field>`` setter and a
    ``with_<field>`` copy per field of `fields` (Drake's generated named vectors), its
    default values `defaults`."""
    def init(self, data=None, *, size=None):
        BasicVector.__init__(self, list(defaults) if data is None and size is None else data,
                             size=size)
        if self.size() != len(fields):
            raise ValueError(f"{name}: expected {len(fields)} values ({', '.join(fields)}), "
                             f"got {self.size()}")

    namespace = {"__init__": init, "__doc__": doc, "__slots__": (), "_fields": tuple(fields)}
    for i, field in enumerate(fields):
        def get(self, i=i):
            return float(self._data[i])

        def put(self, value, i=i):
            self._data[i] = float(value)

        def with_(self, value, i=i):
            out = type(self)(self._data.copy())
            out._data[i] = float(value)
            return out
        get.__doc__ = f"The {field}."
        namespace[field], namespace[f"set_{field}"], namespace[f"with_{field}"] = get, put, with_
    return type(name, (BasicVector,), namespace)


class NamedVectorViews:
    """A system's ``get_state`` / ``get_mutable_state`` / ``get_parameters`` /
    ``get_mutable_parameters`` (Drake's example plants): the context's continuous state
    and numeric parameter group 0 viewed as the named vectors `state_vector` and
    `params_vector` (the read forms copy, the mutable forms write into the context)."""

    state_vector = params_vector = None

    @classmethod
    def get_state(cls, context):
        """The context's continuous state as a `state_vector` (a copy)."""
        return cls.state_vector._wrap(np.array(context.get_continuous_state_vector()))

    @classmethod
    def get_mutable_state(cls, context):
        """The context's continuous state as a `state_vector` writing into it."""
        return cls.state_vector._wrap(context.get_mutable_continuous_state_vector())

    @classmethod
    def get_parameters(cls, context):
        """The context's parameters as a `params_vector` (a copy)."""
        return cls.params_vector._wrap(np.array(context.get_numeric_parameter(0)))

    @classmethod
    def get_mutable_parameters(cls, context):
        """The context's parameters as a `params_vector` writing into it."""
        return cls.params_vector._wrap(
            context.get_mutable_numeric_parameter(0).get_mutable_value())
