"""LinearTransformDensity: w_out = A w_in + b and the density of w_out (Drake's)."""

import math

import numpy as np

from ..keyword_check import lists_valid_keywords
from ..leaf_system import LeafSystem
from ._validation import as_size
from .random_source import RandomDistribution, as_random_distribution


def _log_density_of_input(distribution, w):
    """log p(w) for w with independent elements of ``distribution`` (-inf off support)."""
    if distribution == RandomDistribution.kGaussian:
        return -0.5 * float(w @ w) - 0.5 * w.size * math.log(2.0 * math.pi)
    if distribution == RandomDistribution.kUniform:
        return 0.0 if np.all((w >= 0.0) & (w <= 1.0)) else -math.inf
    return -float(np.sum(w)) if np.all(w >= 0.0) else -math.inf      # exponential, rate 1


class LinearTransformDensity(LeafSystem):
    """w_out = A w_in + b, with the probability density of w_out.

    ::

         w_in ──▶ ┌────────────────────────┐ ──▶ w_out
            A ──▶ │ LinearTransformDensity │
            b ──▶ └────────────────────────┘ ──▶ w_out_density

    ``w_in`` should come from a RandomSource of the same ``distribution`` (elements
    independent). ``A`` is the (output_size × input_size) matrix flattened in column-major
    order (size output_size·input_size); ``b`` may stay unconnected (then zero). The
    density of w_out is p(w_in) / |det A|, which needs a square invertible A.

    Parameters
    ----------
    distribution : RandomDistribution or str
    input_size, output_size : int
    """

    @lists_valid_keywords
    def __init__(self, distribution, input_size, output_size):
        super().__init__()
        fn = "LinearTransformDensity"
        self._distribution = as_random_distribution(fn, distribution)
        self._m = as_size(fn, "input_size", input_size)
        self._p = as_size(fn, "output_size", output_size)
        self._w_in = self.declare_vector_input_port("w_in", self._m,
                                                    random_type=self._distribution)
        self._A = self.declare_vector_input_port("A", self._p * self._m)
        self._b = self.declare_vector_input_port("b", self._p, required=False,
                                                 default_value=np.zeros(self._p))
        inputs = [self.all_input_ports_ticket()]
        self._w_out = self.declare_vector_output_port("w_out", self._p, self._calc_w_out,
                                                      inputs)
        self._density = self.declare_vector_output_port("w_out_density", 1,
                                                        self._calc_density_output, inputs)

    def get_input_port_w_in(self):
        return self._w_in

    def get_input_port_A(self):
        return self._A

    def get_input_port_b(self):
        return self._b

    def get_output_port_w_out(self):
        return self._w_out

    def get_output_port_w_out_density(self):
        return self._density

    def get_distribution(self):
        return self._distribution

    def fix_constant_a(self, context, A):
        """Fix port A to the matrix ``A``, shape (output_size, input_size)."""
        A = np.asarray(A, dtype=float)
        if A.shape != (self._p, self._m):
            raise ValueError(f"LinearTransformDensity.fix_constant_a: A must have shape "
                             f"({self._p}, {self._m}), got {A.shape}")
        return self._A.fix_value(context, A.reshape(-1, order="F"))

    def fix_constant_b(self, context, b):
        """Fix port b to the vector ``b``, shape (output_size,)."""
        return self._b.fix_value(context, np.asarray(b, dtype=float).reshape(-1))

    def _matrix(self, context):
        return np.asarray(self._A.eval(context)).reshape((self._p, self._m), order="F")

    def _calc_w_out(self, context, output):
        output.get_mutable_value()[:] = (self._matrix(context) @ self._w_in.eval(context)
                                         + self._b.eval(context))

    def calc_density(self, context):
        """The density of w_out at the current inputs: p(w_in) / |det A|.

        Raises
        ------
        ValueError
            When A is not square and invertible.
        """
        A = self._matrix(context)
        det = np.linalg.det(A) if self._p == self._m else 0.0
        if det == 0.0 or not np.isfinite(det):
            raise ValueError(
                f"LinearTransformDensity.calc_density: A must be square and invertible in "
                f"system '{self.get_name()}', got shape {A.shape} with determinant {det}")
        w_in = np.asarray(self._w_in.eval(context), dtype=float)
        return math.exp(_log_density_of_input(self._distribution, w_in)) / abs(det)

    def _calc_density_output(self, context, output):
        output.get_mutable_value()[0] = self.calc_density(context)
