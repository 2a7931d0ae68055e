"""Pull-based evaluation and caching: eval recomputes only what a context change affects."""

import pickle

import numpy as np
import pytest

from merganser.framework import DiagramBuilder, LeafSystem, PortError


class CountingSource(LeafSystem):
    """Output y = p * t, counting its calc calls; depends on time and parameter 0 only."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.p = self.declare_numeric_parameter([2.0])
        self.declare_vector_output_port(
            "y", 1, self.calc, [self.time_ticket(), self.numeric_parameter_ticket(self.p)])

    def calc(self, context, output):
        self.calls += 1
        output.set_value([context.get_numeric_parameter(self.p)[0] * context.get_time()])


class CountingGainState(LeafSystem):
    """Continuous state x (x' = u) and output y = x + u, counting calls."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.deriv_calls = 0
        self.declare_continuous_state(1)
        self.u = self.declare_vector_input_port("u", 1)
        self.declare_vector_output_port("y", 1, self.calc,
                                        [self.xc_ticket(), self.input_port_ticket(0)])

    def calc(self, context, output):
        self.calls += 1
        output.set_value(context.get_continuous_state_vector() + self.u.eval(context))

    def do_calc_time_derivatives(self, context, derivatives):
        self.deriv_calls += 1
        derivatives.set_value(self.u.eval(context))


def make_diagram():
    builder = DiagramBuilder()
    src = builder.add_named_system("src", CountingSource())
    sys = builder.add_named_system("sys", CountingGainState())
    builder.connect(src.get_output_port(), sys.get_input_port("u"))
    builder.export_output(sys.get_output_port("y"), "y")
    return builder.build(), src, sys


def test_eval_on_unchanged_context_does_not_recompute():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    ctx.set_time(1.5)
    y = diagram.get_output_port("y").eval(ctx)
    assert y[0] == pytest.approx(3.0)
    assert (src.calls, sys.calls) == (1, 1)
    for _ in range(5):
        diagram.get_output_port("y").eval(ctx)
        sys.get_input_port("u").eval(sys.get_my_context_from_root(ctx))
    assert (src.calls, sys.calls) == (1, 1)


def test_changing_state_invalidates_only_state_dependents():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    ctx.set_time(1.0)
    diagram.get_output_port("y").eval(ctx)
    sys.get_my_context_from_root(ctx).set_continuous_state([10.0])
    y = diagram.get_output_port("y").eval(ctx)
    assert y[0] == pytest.approx(12.0)
    assert (src.calls, sys.calls) == (1, 2)        # the source does not depend on xc


def test_changing_time_invalidates_downstream_through_the_connection():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    diagram.get_output_port("y").eval(ctx)
    ctx.set_time(2.0)
    assert diagram.get_output_port("y").eval(ctx)[0] == pytest.approx(4.0)
    assert (src.calls, sys.calls) == (2, 2)


def test_changing_a_parameter_invalidates_its_dependents():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    ctx.set_time(1.0)
    diagram.get_output_port("y").eval(ctx)
    src.get_my_context_from_root(ctx).set_numeric_parameter(0, [5.0])
    assert diagram.get_output_port("y").eval(ctx)[0] == pytest.approx(5.0)
    assert (src.calls, sys.calls) == (2, 2)


def test_time_derivatives_are_cached_until_a_prerequisite_changes():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    ctx.set_time(3.0)
    xdot = diagram.eval_time_derivatives(ctx)
    assert xdot[0] == pytest.approx(6.0)
    diagram.eval_time_derivatives(ctx)
    assert sys.deriv_calls == 1
    ctx.set_time_and_continuous_state(4.0, [1.0])
    assert diagram.eval_time_derivatives(ctx)[0] == pytest.approx(8.0)
    assert sys.deriv_calls == 2


def test_returned_arrays_are_read_only():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    with pytest.raises(ValueError):
        diagram.get_output_port("y").eval(ctx)[0] = 1.0
    with pytest.raises(ValueError):
        ctx.get_continuous_state_vector()[0] = 1.0


def test_fixed_input_value_and_refixing_invalidates():
    sys = CountingGainState()
    ctx = sys.create_default_context()
    with pytest.raises(PortError, match="input port 'u' of system '.*' is neither connected nor fixed"):
        sys.get_output_port("y").eval(ctx)
    sys.calls = 0
    sys.get_input_port("u").fix_value(ctx, [2.0])
    assert sys.get_output_port("y").eval(ctx)[0] == 2.0
    sys.get_input_port("u").fix_value(ctx, [3.0])
    assert sys.get_output_port("y").eval(ctx)[0] == 3.0
    assert sys.calls == 2
    with pytest.raises(PortError, match="has size 1, got a value of size 2"):
        sys.get_input_port("u").fix_value(ctx, [1.0, 2.0])


def test_clone_is_independent_and_keeps_values():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    ctx.set_time(1.0)
    sys.get_my_context_from_root(ctx).set_continuous_state([1.0])
    clone = ctx.clone()
    sys.get_my_context_from_root(clone).set_continuous_state([5.0])
    assert diagram.get_output_port("y").eval(clone)[0] == pytest.approx(7.0)
    assert diagram.get_output_port("y").eval(ctx)[0] == pytest.approx(3.0)


def test_diagram_and_context_pickle_round_trip():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    ctx.set_time(2.0)
    sys.get_my_context_from_root(ctx).set_continuous_state([1.0])
    d2, c2 = pickle.loads(pickle.dumps((diagram, ctx)))
    assert d2.get_output_port("y").eval(c2)[0] == pytest.approx(5.0)
    c2.set_continuous_state([2.0])       # writes through to the leaf after unpickling
    assert d2.get_output_port("y").eval(c2)[0] == pytest.approx(6.0)
    np.testing.assert_allclose(d2.eval_time_derivatives(c2), [4.0])


def test_set_time_on_subcontext_raises():
    diagram, src, sys = make_diagram()
    ctx = diagram.create_default_context()
    with pytest.raises(ValueError, match="root context"):
        sys.get_my_context_from_root(ctx).set_time(1.0)
