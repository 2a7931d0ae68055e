"""Parameters: a context's numeric and abstract parameters together (Drake's Parameters)."""

import numpy as np

from .state import AbstractValues, DiscreteValues
from .value import BasicVector, as_value


class Parameters:
    """Numeric parameter groups (BasicVectors) and abstract parameters (Values).

    ``Parameters(numeric=[...], abstract=[...])`` (or pydrake's ``Parameters(vec=v)`` /
    ``Parameters(value=a)`` for one vector / one Value) holds copies of its own; a context's
    ``get_parameters()`` / ``get_mutable_parameters()`` read and write the context's
    (the mutable one marks every parameter changed when it is made and on each
    ``get_mutable_*``).
    """

    __slots__ = ("_numeric", "_abstract", "_on_write")

    def __init__(self, numeric=None, abstract=None, *, vec=None, value=None):
        # pydrake's one-vector and one-value forms: Parameters(vec=v), Parameters(value=a)
        if vec is not None or value is not None:
            if numeric is not None or abstract is not None or (vec is not None
                                                               and value is not None):
                raise TypeError("Parameters: give numeric=/abstract=, or one of vec= "
                                "(a BasicVector) and value= (a Value)")
            numeric, abstract = ([vec], None) if vec is not None else (None, [value])
        self._numeric = [np.array(v.get_value() if isinstance(v, BasicVector) else v,
                                  dtype=float).reshape(-1) for v in (numeric or [])]
        self._abstract = [as_value(v).clone() for v in (abstract or [])]
        self._on_write = None

    @classmethod
    def _over(cls, numeric, abstract, on_write):
        """The Parameters over a context's own arrays and Values."""
        obj = cls.__new__(cls)
        obj._numeric, obj._abstract, obj._on_write = numeric, abstract, on_write
        return obj

    def num_numeric_parameter_groups(self):
        return len(self._numeric)

    def num_abstract_parameters(self):
        return len(self._abstract)

    def _index(self, fn, i, items, what):
        if not 0 <= int(i) < len(items):
            raise IndexError(f"Parameters.{fn}: {what} {i} out of range; there are "
                             f"{len(items)}")
        return int(i)

    def get_numeric_parameter(self, index):
        """Numeric group ``index`` as a BasicVector over the values (treat as read-only)."""
        i = self._index("get_numeric_parameter", index, self._numeric, "numeric parameter")
        return BasicVector._wrap(self._numeric[i])

    def get_mutable_numeric_parameter(self, index):
        """Numeric group ``index``, writable."""
        i = self._index("get_mutable_numeric_parameter", index, self._numeric,
                        "numeric parameter")
        if self._on_write is not None:
            self._on_write()
        return BasicVector._wrap(self._numeric[i])

    def get_abstract_parameter(self, index):
        """Abstract parameter ``index``, its Value."""
        return self._abstract[self._index("get_abstract_parameter", index, self._abstract,
                                          "abstract parameter")]

    def get_mutable_abstract_parameter(self, index):
        i = self._index("get_mutable_abstract_parameter", index, self._abstract,
                        "abstract parameter")
        if self._on_write is not None:
            self._on_write()
        return self._abstract[i]

    def get_numeric_parameters(self):
        """Every numeric group as a DiscreteValues over the values (treat as read-only)."""
        return DiscreteValues(self._numeric)

    def get_abstract_parameters(self):
        """Every abstract parameter as an AbstractValues over the Values."""
        return AbstractValues(self._abstract)

    def set_numeric_parameters(self, numeric_params):
        """Copy the groups of DiscreteValues `numeric_params` (one per numeric group, of
        the same sizes) into these parameters. Unlike Drake's, which replaces the storage,
        the values are copied: vectors obtained earlier stay valid and see them."""
        fn = "Parameters.set_numeric_parameters"
        if not isinstance(numeric_params, DiscreteValues):
            raise TypeError(f"{fn}: numeric_params must be a DiscreteValues, got "
                            f"{type(numeric_params).__name__}")
        sizes = [numeric_params.get_value(i).size for i in range(numeric_params.num_groups())]
        if sizes != [p.size for p in self._numeric]:
            raise ValueError(f"{fn}: numeric_params has groups of sizes {sizes}, expected "
                             f"{[p.size for p in self._numeric]}")
        for i, dst in enumerate(self._numeric):
            dst[:] = numeric_params.get_value(i)
        if self._on_write is not None:
            self._on_write()

    def set_abstract_parameters(self, abstract_params):
        """Copy the held objects of AbstractValues `abstract_params` (as many as there
        are abstract parameters) into these parameters' Values."""
        fn = "Parameters.set_abstract_parameters"
        if not isinstance(abstract_params, AbstractValues):
            raise TypeError(f"{fn}: abstract_params must be an AbstractValues, got "
                            f"{type(abstract_params).__name__}")
        if abstract_params.size() != len(self._abstract):
            raise ValueError(f"{fn}: abstract_params has {abstract_params.size()} values, "
                             f"expected {len(self._abstract)}")
        AbstractValues(self._abstract).set_from(abstract_params)
        if self._on_write is not None:
            self._on_write()

    def set_from(self, other):
        """Copy every value of ``other`` (same layout)."""
        if ([p.size for p in other._numeric], len(other._abstract)) != (
                [p.size for p in self._numeric], len(self._abstract)):
            raise ValueError("Parameters.set_from: other's layout differs")
        for dst, src in zip(self._numeric, other._numeric):
            dst[:] = src
        for dst, src in zip(self._abstract, other._abstract):
            dst.set_from(src)
        if self._on_write is not None:
            self._on_write()

    def clone(self):
        return Parameters(self._numeric, self._abstract)

    def __repr__(self):
        return (f"Parameters(numeric={[p.tolist() for p in self._numeric]}, "
                f"abstract={self._abstract})")
