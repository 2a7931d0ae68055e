"""System-level behaviour a pydrake user expects, spelled in snake_case with pydrake's
keyword names: output allocation, derivative and discrete-variable allocation, port
evaluation variants, fix_value checks and teaching errors for unknown keywords."""

import numpy as np
import pytest

from merganser.framework import (AbstractValue, BasicVector, ContinuousState, DiagramBuilder,
                                 DiscreteValues, LeafSystem, LinearSystem, Value)


class Oscillator(LeafSystem):
    """ẍ = -ω² x + u with ω² a numeric parameter; outputs the state and a label."""

    def __init__(self):
        super().__init__()
        self.u = self.declare_vector_input_port(name="u", size=1)
        self.declare_continuous_state(num_q=1, num_v=1, num_z=0)
        self.declare_numeric_parameter(model_vector=BasicVector([4.0]))
        self.declare_vector_output_port(name="x", size=2, calc=self._calc_x,
                                        prerequisites_of_calc={self.xc_ticket()})
        self.declare_abstract_output_port(name="label", alloc=lambda: Value("none"),
                                          calc=self._calc_label)
        self.calls = 0

    def _calc_x(self, context, output):
        output.set_value(context.get_continuous_state_vector())

    def _calc_label(self, context, output):
        output.set_value(f"t={context.get_time():g}")

    def do_calc_time_derivatives(self, context, derivatives):
        self.calls += 1
        q, v = context.get_continuous_state_vector()
        w2 = context.get_numeric_parameter(0)[0]
        derivatives.set_value([v, -w2 * q + self.u.eval(context)[0]])


def _context(system, x=(1.0, 0.5), u=0.25):
    ctx = system.create_default_context()
    ctx.set_continuous_state(x)
    system.get_input_port(0).fix_value(ctx, [u])
    return ctx


def test_allocate_output_and_calc_output():
    system = Oscillator()
    ctx = _context(system)
    ctx.set_time(1.5)
    output = system.allocate_output()
    assert output.num_ports() == 2
    system.calc_output(ctx, output)
    np.testing.assert_array_equal(output.get_vector_data(0).get_value(), [1.0, 0.5])
    assert output.get_data(1).get_value() == "t=1.5"
    np.testing.assert_array_equal(output.get_data(0).get_value().get_value(), [1.0, 0.5])
    with pytest.raises(RuntimeError, match="abstract"):
        output.get_vector_data(1)


def test_calc_output_of_a_diagram_exported_ports():
    builder = DiagramBuilder()
    osc = builder.add_named_system("osc", Oscillator())
    builder.export_input(osc.get_input_port(0), "u")
    builder.export_output(osc.get_output_port(0), "x")
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.get_input_port(0).fix_value(ctx, [0.0])
    osc.get_my_context_from_root(ctx).set_continuous_state([3.0, -1.0])
    output = diagram.allocate_output()
    diagram.calc_output(ctx, output)
    np.testing.assert_array_equal(output.get_vector_data(0).get_value(), [3.0, -1.0])


def test_calc_time_derivatives_computes_and_eval_caches():
    system = Oscillator()
    ctx = _context(system)
    derivatives = system.allocate_time_derivatives()
    assert isinstance(derivatives, ContinuousState)
    assert (derivatives.num_q(), derivatives.num_v(), derivatives.num_z()) == (1, 1, 0)
    system.calc_time_derivatives(ctx, derivatives)
    system.calc_time_derivatives(ctx, derivatives)
    assert system.calls == 2                    # calc computes every time
    expected = [0.5, -4.0 * 1.0 + 0.25]
    np.testing.assert_allclose(derivatives.copy_to_vector(), expected)
    np.testing.assert_allclose(derivatives.get_generalized_velocity(), expected[1:])
    system.eval_time_derivatives(ctx)
    system.eval_time_derivatives(ctx)
    assert system.calls == 3                    # eval computes once, then caches
    array = np.zeros(2)
    system.calc_time_derivatives(ctx, array)
    np.testing.assert_allclose(array, expected)


def test_diagram_allocations_follow_its_leaves():
    class Discrete(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state(model_vector=[1.0, 2.0])

    builder = DiagramBuilder()
    osc = builder.add_system(Oscillator())
    builder.add_system(Discrete())
    builder.export_input(osc.get_input_port(0))
    diagram = builder.build()
    derivatives = diagram.allocate_time_derivatives()
    assert derivatives.size() == 2 and derivatives.num_q() == 1
    values = diagram.allocate_discrete_variables()
    assert isinstance(values, DiscreteValues)
    assert values.num_groups() == 1 and values.get_vector(0).get_value().tolist() == [1.0, 2.0]
    ctx = diagram.allocate_context()
    assert ctx.num_continuous_states() == 2 and ctx.num_input_ports() == 1
    diagram.get_input_port(0).fix_value(ctx, [1.0])
    diagram.calc_time_derivatives(ctx, derivatives)
    np.testing.assert_allclose(derivatives.copy_to_vector(), [0.0, 1.0])


def test_port_eval_variants():
    system = Oscillator()
    ctx = _context(system)
    np.testing.assert_array_equal(system.get_output_port(0).eval_vector(ctx), [1.0, 0.5])
    assert system.get_output_port(0).eval_basic_vector(ctx).size() == 2
    assert system.get_output_port(1).eval_abstract(ctx).get_value() == "t=0"
    assert system.get_input_port(0).eval_vector(ctx).tolist() == [0.25]
    with pytest.raises(RuntimeError, match="abstract"):
        system.get_output_port(1).eval_vector(ctx)
    value = system.get_output_port(0).allocate()
    system.get_output_port(0).calc(ctx, value)
    np.testing.assert_array_equal(value.get_value(), [1.0, 0.5])


def test_fix_value_errors_are_runtime_errors_naming_what_was_expected():
    system = Oscillator()
    system.set_name("osc")
    ctx = system.create_default_context()
    port = system.get_input_port(0)
    with pytest.raises(RuntimeError, match="size 1, got a value of size 3"):
        port.fix_value(ctx, [1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match=r"fix_value: argument 'value'.*'u' of system 'osc'"
                                           r".*1 floats.*got str"):
        port.fix_value(ctx, "abc")
    port.fix_value(ctx, BasicVector([2.0]))
    assert port.eval(ctx)[0] == 2.0


def test_abstract_port_type_mismatch_raises_runtime_error():
    class Reader(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_abstract_input_port(name="text", model_value=AbstractValue("model"))

    system = Reader()
    ctx = system.create_default_context()
    with pytest.raises(RuntimeError, match="type str, got int"):
        system.get_input_port(0).fix_value(ctx, 3)
    system.get_input_port(0).fix_value(ctx, Value("fine"))
    assert system.get_input_port(0).eval(ctx) == "fine"


def test_declare_continuous_state_forms():
    def declared(**kwargs):
        system = LeafSystem()
        system.declare_continuous_state(**kwargs)
        return system.create_default_context().get_continuous_state()

    xc = declared(num_state_variables=3)
    assert (xc.num_q(), xc.num_v(), xc.num_z()) == (0, 0, 3)
    xc = declared(num_q=2, num_v=1, num_z=1)
    assert (xc.num_q(), xc.num_v(), xc.num_z()) == (2, 1, 1)
    xc = declared(model_vector=BasicVector([1.0, 2.0]))
    assert xc.num_z() == 2 and xc.get_vector().tolist() == [1.0, 2.0]
    system = LeafSystem()
    system.declare_continuous_state(BasicVector([1.0, 2.0, 3.0]), 1, 1, 1)
    assert system.create_default_context().get_continuous_state().num_v() == 1
    with pytest.raises(ValueError, match="num_v"):
        declared(num_q=1, num_v=2, num_z=0)


def test_unknown_keywords_list_the_valid_ones():
    system = LeafSystem()
    with pytest.raises(TypeError, match=r"unknown keyword argument 'num_states'.*"
                                        r"valid keywords: num_state_variables, num_q, num_v, "
                                        r"num_z, model_vector"):
        system.declare_continuous_state(num_states=2)
    with pytest.raises(TypeError, match=r"'sizes'; valid keywords: .*did you mean 'size'"):
        system.declare_vector_input_port(name="u", sizes=2)
    port = system.declare_vector_input_port(name="u", size=1)
    with pytest.raises(TypeError, match="valid keywords: context, value"):
        port.fix_value(system.create_default_context(), val=[1.0])


def test_clone_is_a_deep_copy_outside_any_diagram():
    A, B = np.array([[0.0, 1.0], [-2.0, -0.5]]), np.array([[0.0], [1.0]])
    system = LinearSystem(A, B, np.eye(2), np.zeros((2, 1)))
    system.set_name("plant")
    builder = DiagramBuilder()
    builder.add_system(system)
    diagram = builder.build()
    twin = system.clone()
    assert twin is not system and twin.get_name() == "plant"
    np.testing.assert_array_equal(twin.A(), A)
    builder2 = DiagramBuilder()
    builder2.add_system(twin)                          # a clone belongs to no Diagram
    diagram2 = builder2.build()
    ctx = twin.get_my_context_from_root(diagram2.create_default_context())
    twin.get_input_port().fix_value(ctx, [1.0])
    ctx.set_continuous_state([1.0, 2.0])
    np.testing.assert_allclose(twin.eval_time_derivatives(ctx), A @ [1.0, 2.0] + B @ [1.0])
    assert diagram.get_systems() == [system]
    copy_of_diagram = diagram.clone()
    assert copy_of_diagram.get_systems()[0] is not system
    assert copy_of_diagram.get_systems()[0].get_name() == "plant"
