"""Drake's named vectors (``*.named_vector`` in its examples) as BasicVector subclasses."""

from __future__ import annotations

from ..value import BasicVector

__all__ = ["named_vector"]


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
