"""ExternallyAppliedSpatialForceMultiplexer: concatenate lists of externally applied
spatial forces (Drake's system of the same name).

::

                     ┌──────────────────────────────────────────┐
        u0 ─────────>│                                          │
        ...          │ ExternallyAppliedSpatialForceMultiplexer │──> y
        u{N-1} ─────>│                                          │
                     └──────────────────────────────────────────┘

Each input is a list of `ExternallyAppliedSpatialForce`; the output is their
concatenation in port order (u0's forces first), ready for the plant's
``applied_spatial_force`` input.
"""

import copy
import numbers

from merganser.framework import LeafSystem

__all__ = ["ExternallyAppliedSpatialForceMultiplexer"]


class ExternallyAppliedSpatialForceMultiplexer(LeafSystem):
    """Concatenates `num_inputs` lists of ExternallyAppliedSpatialForce.

    Parameters
    ----------
    num_inputs : int
        Number of input ports (>= 1), named ``u0``, ``u1``, ...
    """

    def __init__(self, num_inputs):
        super().__init__()
        if isinstance(num_inputs, bool) or not isinstance(num_inputs, numbers.Integral) \
                or num_inputs < 1:
            raise ValueError(f"ExternallyAppliedSpatialForceMultiplexer: num_inputs must be an "
                             f"integer >= 1, got {num_inputs!r}")
        for i in range(int(num_inputs)):
            self.declare_abstract_input_port(f"u{i}", [])
        self.declare_abstract_output_port("y", list, self._calc,
                                          [self.all_input_ports_ticket()])

    def _calc(self, context, output):
        forces = []
        for i in range(self.num_input_ports()):
            forces += copy.deepcopy(list(self.get_input_port(i).eval(context)))
        output.set_value(forces)
