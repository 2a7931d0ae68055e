"""VectorSystem: a LeafSystem written as functions of plain vectors (Drake's VectorSystem)."""

import numpy as np

from .keyword_check import lists_valid_keywords
from .leaf_system import LeafSystem
from .ports import PortDataType, kUseDefaultName

_EMPTY = np.zeros(0)
_EMPTY.flags.writeable = False


class VectorSystem(LeafSystem):
    """At most one vector input u (``u0``), one vector output y (``y0``) and one state x,
    continuous (``declare_continuous_state``) or one discrete group
    (``declare_discrete_state``), never both and no abstract state.

    Override, with u, x read-only ndarrays and the last argument an ndarray to fill in
    place (``y[:] = ...``):

    - ``do_calc_vector_output(context, u, x, y)``;
    - ``do_calc_vector_time_derivatives(context, u, x, xdot)``;
    - ``do_calc_vector_discrete_variable_updates(context, u, x, x_next)``, run by the
      forced discrete update and by the periodic one ``declare_periodic_discrete_update``
      declares.

    Parameters
    ----------
    input_size, output_size : int
        0 declares no such port.
    direct_feedthrough : bool or None
        Whether y may depend on u (None: assume it does). With False the output is
        computed with an empty u.
    """

    @lists_valid_keywords
    def __init__(self, input_size, output_size, direct_feedthrough=None):
        super().__init__()
        self._direct_feedthrough = direct_feedthrough
        if int(input_size) > 0:
            self.declare_input_port(kUseDefaultName, PortDataType.kVectorValued, int(input_size))
        if int(output_size) > 0:
            prereqs = [self.all_sources_ticket() if direct_feedthrough in (None, True)
                       else self.all_sources_except_input_ports_ticket()]
            self.declare_vector_output_port(kUseDefaultName, int(output_size),
                                            self._calc_vector_output, prereqs)
        self.declare_forced_discrete_update_event(self._calc_discrete_update)

    def declare_periodic_discrete_update(self, period_sec, offset_sec=0.0):
        """Run ``do_calc_vector_discrete_variable_updates`` every ``period_sec`` from
        ``offset_sec``."""
        self.declare_periodic_discrete_update_event(period_sec, offset_sec,
                                                    self._calc_discrete_update)

    def eval_vector_input(self, context, port_index=None):
        """u as a read-only ndarray (empty without an input port); with ``port_index``,
        LeafSystem's BasicVector form."""
        if port_index is not None:
            return super().eval_vector_input(context, port_index)
        return self._input_ports[0].eval(context) if self._input_ports else _EMPTY

    def get_vector_state(self, context):
        """x: the continuous state, or the discrete group, read-only."""
        if context.num_discrete_state_groups():
            return context.get_discrete_state(0)
        return context.get_continuous_state_vector()

    # ---- the framework's calls -----------------------------------------------------------
    def _make_context_tree(self):
        fn = type(self).__name__
        if self._xa_model or len(self._xd_model) > 1 or (
                self._xd_model and self.num_continuous_states()):
            raise RuntimeError(
                f"{fn} '{self._name}': a VectorSystem has either continuous state or one "
                f"discrete state group, and no abstract state; it declared "
                f"{self.num_continuous_states()} continuous states, {len(self._xd_model)} "
                f"discrete groups and {len(self._xa_model)} abstract states")
        return super()._make_context_tree()

    def do_calc_time_derivatives(self, context, derivatives):
        xdot = derivatives.get_mutable_value()
        if xdot.size:
            self.do_calc_vector_time_derivatives(context, self.eval_vector_input(context),
                                                 context.get_continuous_state_vector(), xdot)

    def _calc_vector_output(self, context, output):
        evaluate = self._input_ports and (self._direct_feedthrough is None
                                          or self._direct_feedthrough)
        u = self.eval_vector_input(context) if evaluate else _EMPTY
        self.do_calc_vector_output(context, u, self.get_vector_state(context),
                                   output.get_mutable_value())

    def _calc_discrete_update(self, context, discrete_state):
        if discrete_state.num_groups():
            self.do_calc_vector_discrete_variable_updates(
                context, self.eval_vector_input(context), context.get_discrete_state(0),
                discrete_state.get_mutable_value(0))

    # ---- overridables -------------------------------------------------------------------
    def _unimplemented(self, what, fn, array):
        if array.size:
            raise NotImplementedError(
                f"{type(self).__name__} '{self._name}' has {array.size} {what} but does not "
                f"override {fn}")

    def do_calc_vector_output(self, context, u, x, y):
        self._unimplemented("outputs", "do_calc_vector_output", y)

    def do_calc_vector_time_derivatives(self, context, u, x, xdot):
        self._unimplemented("continuous states", "do_calc_vector_time_derivatives", xdot)

    def do_calc_vector_discrete_variable_updates(self, context, u, x, x_next):
        self._unimplemented("discrete states", "do_calc_vector_discrete_variable_updates",
                            x_next)
