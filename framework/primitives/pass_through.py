"""PassThrough: copies its input to its output (Drake's PassThrough)."""

import copy
import numbers

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ..value import Value
from ._linearization import feedthrough_matrices, select_ports


class PassThrough(LeafSystem):
    """Outputs its input unchanged: y = u.

    ::

        u ──▶ ┌─────────────┐
              │ PassThrough │ ──▶ y
              └─────────────┘

    ``y`` is direct feedthrough of ``u``. As in Drake, the vector input may stay
    unconnected: the output is then the model vector (zeros for a size).

    Parameters
    ----------
    vector_size : int, array_like or Value
        Positionally any of the three forms below; as a keyword, the vector size.
    value : array_like, optional
        A model vector: vector ports of its size.
    abstract_model_value : Value or object, optional
        Abstract ports whose values look like this one.
    size : int, optional
        The vector size (the name API.md uses).

    Give exactly one of them. An int gives vector ports of that size; a numeric array
    gives vector ports of its size; a ``Value`` (or any other object) gives abstract ports
    of that type.
    """

    @lists_valid_keywords
    def __init__(self, vector_size=None, *, value=None, abstract_model_value=None, size=None):
        super().__init__()
        given = [x for x in (vector_size, value, abstract_model_value, size) if x is not None]
        if len(given) != 1:
            raise TypeError(
                "PassThrough: give exactly one of vector_size, value, abstract_model_value "
                f"and size, got {len(given)}")
        v = given[0]
        if abstract_model_value is not None and not isinstance(v, Value):
            v = Value(v)
        if isinstance(v, numbers.Integral) and not isinstance(v, bool):
            if v < 1:
                raise ValueError(f"PassThrough: size must be >= 1, got {v}")
            self._abstract = False
            size = int(v)
        elif isinstance(v, (list, tuple, np.ndarray)) and np.asarray(v).dtype.kind in "biuf":
            self._abstract = False
            size = np.asarray(v).size
            if size < 1:
                raise ValueError("PassThrough: the model vector must not be empty")
        else:
            self._abstract = True
        if self._abstract:
            model = v if isinstance(v, Value) else Value(v)
            self.declare_abstract_input_port("u", model)
            self.declare_abstract_output_port("y", model.clone, self._calc_abstract,
                                              [self.input_port_ticket(0)])
        else:
            default = (np.zeros(size) if isinstance(v, numbers.Integral)
                       else np.asarray(v, dtype=float).reshape(-1))
            self.declare_vector_input_port("u", size, required=False, default_value=default)
            self.declare_vector_output_port("y", size, self._calc_vector,
                                            [self.input_port_ticket(0)])

    def is_abstract(self):
        return self._abstract

    def _calc_vector(self, context, output):
        output.set_value(self.get_input_port(0).eval(context))

    def _calc_abstract(self, context, output):
        output.set_value(copy.deepcopy(self.get_input_port(0).eval(context)))

    def do_calc_linearization(self, context, input_port_index=None, output_port_index=None):
        """Exact linearization: D = I (None for abstract ports)."""
        if self._abstract:
            return None
        D = np.eye(self._input_ports[0].size())
        return select_ports(self, feedthrough_matrices(D), input_port_index, output_port_index)

    def is_time_invariant_affine(self):
        """True for the vector form (see ``framework.affine_fusion``)."""
        return not self._abstract
