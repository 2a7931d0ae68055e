"""Drake's event objects, ContinuousState construction, BusValue with BusCreator and
BusSelector, RandomGenerator, the time-varying affine systems and AffineSystem's
coefficient update, checked against Drake's behaviour and analytic values."""

import math

import numpy as np
import pytest

from merganser.framework import (AffineSystem, BasicVector, BusCreator, BusSelector, BusValue,
                                 ConstantVectorSource, ContinuousState, DiagramBuilder,
                                 DiscreteDerivative, DiscreteUpdateEvent, DiscreteValues,
                                 Integrator, LeafSystem,
                                 LinearSystem, PeriodicEventData, PiecewisePolynomial,
                                 PublishEvent, RandomGenerator, Simulator,
                                 StateInterpolatorWithDiscreteDerivative,
                                 TrajectoryAffineSystem, TrajectoryLinearSystem, TriggerType,
                                 UnrestrictedUpdateEvent, Value, VectorBase, kUseDefaultName)


def test_event_objects_call_back_with_drakes_signature():
    seen = []

    class S(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state(1)
            self.declare_periodic_event(0.5, 0.0, DiscreteUpdateEvent(
                callback=lambda context, event, xd: xd.set_value([xd.get_value()[0] + 1.0])))
            self.declare_per_step_event(PublishEvent(
                callback=lambda context, event: seen.append(event.get_trigger_type())))
            self.declare_initialization_event(UnrestrictedUpdateEvent(
                system_callback=lambda system, context, event, state:
                state.get_mutable_discrete_state().set_value([10.0])))

    s = S()
    sim = Simulator(s)
    sim.advance_to(1.0)
    # initialization set 10; the updates at t = 0 and 0.5 add one each (as in Drake, the
    # one due at the final time 1.0 runs at the start of the next step)
    assert sim.get_context().get_discrete_state(0)[0] == 12.0
    assert seen and all(t == TriggerType.kPerStep for t in seen)
    assert PublishEvent(trigger_type=TriggerType.kForced).get_trigger_type() == TriggerType.FORCED
    with pytest.raises(TypeError):
        PublishEvent(callback=print, system_callback=print)


def test_periodic_event_data_and_difference_equation_queries():
    discrete = LinearSystem(A=[1], B=[1], C=[1], D=[1], time_period=0.1)
    data = discrete.get_unique_periodic_discrete_update_attribute()
    assert data == PeriodicEventData(0.1, 0.0)
    assert (data.period_sec(), data.offset_sec()) == (0.1, 0.0)
    assert discrete.is_difference_equation_system() == (True, 0.1)
    assert not discrete.is_differential_equation_system()
    continuous = LinearSystem(A=[1], B=[1], C=[1], D=[1])
    assert continuous.get_unique_periodic_discrete_update_attribute() is None
    assert continuous.is_difference_equation_system() == (False, 0.0)
    assert continuous.is_differential_equation_system()


def test_continuous_state_constructor_and_mutable_vector():
    assert ContinuousState().size() == 0
    state = ContinuousState(BasicVector(np.arange(6.0)), num_q=3, num_v=2, num_z=1)
    assert (state.num_q(), state.num_v(), state.num_z()) == (3, 2, 1)
    np.testing.assert_array_equal(state.get_generalized_velocity(), [3.0, 4.0])
    clone = state.clone()
    state[1] = 11.0
    assert clone[1] == 1.0 and state[1] == 11.0
    assert ContinuousState([1.0, 2.0]).num_z() == 2
    with pytest.raises(ValueError):
        ContinuousState(np.zeros(3), 1, 1, 2)
    with pytest.raises(TypeError):
        ContinuousState(np.zeros(3), num_q=1)
    # a context's mutable continuous state writes through get_vector()
    builder = DiagramBuilder()
    integrator = builder.add_system(LinearSystem(A=np.zeros((3, 3)), B=np.zeros((3, 1))))
    diagram = builder.build()
    ctx = diagram.create_default_context()
    diagram.get_mutable_subsystem_state(integrator, ctx).get_mutable_continuous_state() \
        .get_vector().set_from_vector([0.0, 1.0, 2.0])
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [0.0, 1.0, 2.0])
    with pytest.raises(ValueError):
        ctx.get_continuous_state().get_vector().set_from_vector([1.0, 1.0, 1.0])


def test_basic_vector_is_a_vector_base():
    assert isinstance(BasicVector([1.0]), VectorBase)
    assert issubclass(BasicVector, VectorBase)
    assert not isinstance(np.zeros(1), VectorBase)


def test_vector_set_from_and_plus_eq_scaled():
    x = BasicVector([1.0, 2.0, 3.0])
    y = BasicVector([0.5, -1.0, 4.0])
    assert x.plus_eq_scaled(2.0, y) is x                    # x += 2 y
    np.testing.assert_array_equal(x.get_value(), [2.0, 0.0, 11.0])
    x.plus_eq_scaled([(1.0, y), (-3.0, [1.0, 1.0, 1.0])])     # x += y - 3 [1, 1, 1]
    np.testing.assert_array_equal(x.get_value(), [-0.5, -4.0, 12.0])
    x.set_from(y)
    np.testing.assert_array_equal(x.get_value(), y.get_value())
    x.set_at_index(index=1, value=7.0)
    assert x.get_at_index(index=1) == 7.0 and y.get_at_index(1) == -1.0
    with pytest.raises(ValueError, match="BasicVector.set_from: the vector has size 2, "
                                         "expected 3"):
        x.set_from(BasicVector(2))
    with pytest.raises(TypeError, match="BasicVector.plus_eq_scaled: expected \\(scale, rhs\\)"):
        x.plus_eq_scaled(1.0, y, y)
    np.testing.assert_array_equal(x.get_value(), [0.5, 7.0, 4.0])     # unchanged by errors
    # the same on a context's state vector (a VectorBase)
    builder = DiagramBuilder()
    system = builder.add_system(LinearSystem(A=np.zeros((3, 3)), B=np.zeros((3, 1))))
    diagram = builder.build()
    ctx = diagram.create_default_context()
    xc = diagram.get_mutable_subsystem_state(system, ctx).get_mutable_continuous_state() \
        .get_vector()
    xc.set_from(y)
    xc.plus_eq_scaled(-1.0, y)
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [0.0, 0.0, 0.0])
    xc.set_at_index(index=2, value=5.0)
    assert ctx.get_continuous_state_vector().get_at_index(index=2) == 5.0


def test_basic_vector_prints_as_pydrakes():
    assert str(BasicVector([1.0, 2.5])) == "[1.0, 2.5]"
    integrator = Integrator(2)
    context = integrator.create_default_context()
    context.set_continuous_state([0.00019662705047555356, 2.0])
    assert str(context.get_continuous_state_vector()) == "[0.00019662705047555356, 2.0]"
    assert repr(BasicVector([1.0, 2.5])) == "BasicVector([1.0, 2.5])"


def test_bus_value_holds_copies_and_keeps_types():
    bus = BusValue()
    data = [1, 2]
    bus.set("list", Value(data))
    data.append(3)
    assert bus.find("list") == [1, 2] and bus.find("none") is None
    bus.set("name", Value("text"))
    assert list(bus) == ["list", "name"] and bus["name"] == "text"     # pydrake's iteration
    assert [(k, v.get_value()) for k, v in bus.items()] == [("list", [1, 2]), ("name", "text")]
    with pytest.raises(KeyError):
        bus["none"]
    with pytest.raises(RuntimeError):
        bus.set("list", Value("text"))
    bus.clear()
    assert len(bus) == 0
    with pytest.raises(RuntimeError):        # the presumed type outlives clear()
        bus.set("list", Value(1.0))


def test_bus_creator_to_selector_round_trip():
    builder = DiagramBuilder()
    source = builder.add_system(ConstantVectorSource([1.0, 2.0]))
    creator = builder.add_system(BusCreator(output_port_name="bus"))
    creator.declare_vector_input_port("vec", 2)
    creator.declare_abstract_input_port(kUseDefaultName, Value[object]())
    creator.declare_abstract_input_port("unconnected", Value[str]())
    selector = builder.add_named_system("selector", BusSelector())
    selector.declare_vector_output_port("vec", 2)
    selector.declare_abstract_output_port("u1", Value[object]())
    selector.declare_abstract_output_port("unconnected", Value[str]())
    builder.connect(source.get_output_port(), creator.get_input_port("vec"))
    builder.connect(creator.get_output_port("bus"), selector.get_input_port("u0"))
    diagram = builder.build()
    ctx = diagram.create_default_context()
    creator.get_input_port("u1").fix_value(creator.get_my_context_from_root(ctx), (4, 5))
    bus = creator.get_output_port().eval(creator.get_my_context_from_root(ctx))
    assert isinstance(bus.find("vec"), BasicVector) and "unconnected" not in bus
    sel_ctx = selector.get_my_context_from_root(ctx)
    np.testing.assert_array_equal(selector.get_output_port("vec").eval(sel_ctx), [1.0, 2.0])
    assert selector.get_output_port("u1").eval(sel_ctx) == (4, 5)
    with pytest.raises(RuntimeError, match=f"'unconnected' on ::{diagram.get_name()}::selector"):
        selector.get_output_port("unconnected").eval(sel_ctx)


def test_random_generator_reproduces_std_mt19937():
    g = RandomGenerator()
    # std::mt19937's first outputs for its default seed 5489 (the C++ standard's check
    # value is the 10000th: 4123659995)
    assert [g(), g()] == [3499211612, 581869302]
    g = RandomGenerator()
    for _ in range(9999):
        g()
    assert g() == 4123659995
    a, b = RandomGenerator(7), RandomGenerator(7)
    np.testing.assert_array_equal(a.normal(size=4), b.normal(size=4))
    assert isinstance(a, np.random.Generator)
    with pytest.raises(ValueError):
        RandomGenerator(-1)


def test_random_context_draws_the_configured_gaussian():
    system = AffineSystem(A=-np.eye(2), B=np.zeros((2, 1)), f0=[0.0, 0.0])
    system.configure_default_state([1.0, 2.0])
    system.configure_random_state(np.diag([4.0, 9.0]))
    ctx = system.create_default_context()
    draws = []
    g = RandomGenerator(3)
    for _ in range(2000):
        system.set_random_context(ctx, g)
        draws.append(ctx.get_continuous_state_vector().copy_to_vector())
    draws = np.array(draws)
    np.testing.assert_allclose(draws.mean(axis=0), [1.0, 2.0], atol=0.2)
    np.testing.assert_allclose(draws.std(axis=0), [2.0, 3.0], rtol=0.06)


def test_trajectory_affine_system_matches_the_analytic_solution():
    # x' = a(t) x + f0 with a(t) = -t (a first-order hold through (0, 0) and (2, -2)):
    # x(t) = exp(-t²/2) for f0 = 0
    a = PiecewisePolynomial.first_order_hold([0.0, 2.0], [[0.0, -2.0]])
    zero = PiecewisePolynomial(np.zeros((1, 1)))
    system = TrajectoryAffineSystem(a, zero, None, PiecewisePolynomial(np.ones((1, 1))),
                                    zero, PiecewisePolynomial(np.array([[0.5]])))
    assert system.A(1.5)[0, 0] == -1.5 and system.y0(0.3)[0] == 0.5
    system.configure_default_state([1.0])
    sim = Simulator(system)
    sim.get_mutable_integrator().set_target_accuracy(1e-9)
    sim.get_mutable_context().set_time(0.0)
    system.get_input_port(0).fix_value(sim.get_mutable_context(), [0.0])
    sim.advance_to(1.5)
    ctx = sim.get_context()
    x = ctx.get_continuous_state_vector()[0]
    assert x == pytest.approx(math.exp(-1.5 ** 2 / 2), rel=1e-6)
    assert system.get_output_port().eval(ctx)[0] == pytest.approx(x + 0.5, rel=1e-9)


def test_trajectory_linear_system_steps_with_the_coefficients_of_the_sample_time():
    # x[n+1] = a(t_n) x[n] + u with a(t) = 1 + t, h = 0.5, u = 1, x0 = 1
    a = PiecewisePolynomial.first_order_hold([0.0, 10.0], [[1.0, 11.0]])
    one = PiecewisePolynomial(np.ones((1, 1)))
    system = TrajectoryLinearSystem(A=a, B=one, C=one, D=PiecewisePolynomial(np.zeros((1, 1))),
                                    time_period=0.5)
    system.configure_default_state([1.0])
    sim = Simulator(system)
    system.get_input_port(0).fix_value(sim.get_mutable_context(), [1.0])
    sim.advance_to(1.0)
    x = 1.0
    for t in (0.0, 0.5):            # the update due at t = 1.0 runs at the next step
        x = (1.0 + t) * x + 1.0
    assert sim.get_context().get_discrete_state(0)[0] == pytest.approx(x)
    with pytest.raises(TypeError):
        TrajectoryLinearSystem(A=np.eye(1), B=one, C=one, D=one)


def test_update_coefficients_replaces_matrices_of_the_same_shape():
    system = AffineSystem(A=np.eye(2), B=[[0.0], [1.0]], f0=[0.0, 0.0], C=[[0.0, 1.0]],
                          D=[[1.0]], y0=[0.0])
    system.update_coefficients(A=[[1, 2], [3, 4]], B=[[5], [6]], f0=[[7], [8]],
                               C=[[9, 10]], D=[[11]], y0=[12])
    np.testing.assert_array_equal(system.f0(), [7.0, 8.0])
    ctx = system.create_default_context()
    ctx.set_continuous_state([1.0, 1.0])
    system.get_input_port().fix_value(ctx, [1.0])
    np.testing.assert_array_equal(system.eval_time_derivatives(ctx), [1 + 2 + 5 + 7,
                                                                       3 + 4 + 6 + 8])
    assert system.get_output_port().eval(ctx)[0] == 9 + 10 + 11 + 12
    with pytest.raises(ValueError, match="different sizes"):
        system.update_coefficients(np.eye(3), [[5], [6]], [7, 8], [[9, 10]], [[11]], [12])
    no_feedthrough = LinearSystem(A=np.eye(1), B=[[1.0]], C=[[1.0]], D=[[0.0]])
    with pytest.raises(ValueError, match="depend"):
        no_feedthrough.update_coefficients([[1.0]], [[1.0]], [0.0], [[1.0]], [[2.0]], [0.0])


def test_discrete_derivative_state_layout_follows_drake():
    dd = DiscreteDerivative(2, 0.1)
    ctx = dd.create_default_context()
    assert ctx.num_discrete_state_groups() == 3          # u[n], u[n-1], sample counter
    dd.set_input_history(ctx, [1.0, 2.0], [0.5, 1.0])
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [1.0, 2.0])
    np.testing.assert_array_equal(ctx.get_discrete_state(1), [0.5, 1.0])
    np.testing.assert_allclose(dd.get_output_port().eval(ctx), [5.0, 10.0])
    interp = StateInterpolatorWithDiscreteDerivative(num_positions=2, time_step=0.5)
    ctx = interp.create_default_context()
    state = ctx.get_mutable_state()
    interp.set_initial_state(state=state, position=[1.0, 2.0], velocity=[2.0, -2.0])
    interp.get_input_port().fix_value(ctx, [1.0, 2.0])
    np.testing.assert_allclose(interp.get_output_port().eval(ctx), [1.0, 2.0, 2.0, -2.0])
    with pytest.raises(TypeError):
        interp.set_initial_position(ctx, [1.0, 2.0], state=state)


def test_abstract_state_accessors_return_values_as_drake():
    class Holder(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_abstract_state(Value({"key": "value"}))
            self.declare_abstract_parameter(Value("param"))

    system = Holder()
    ctx = system.create_default_context()
    assert ctx.get_abstract_state(0).get_value() == {"key": "value"}
    assert ctx.get_abstract_state().get_value(0) is ctx.get_abstract_state(0)
    assert ctx.get_abstract_state().size() == 1
    ctx.get_mutable_abstract_state(0).set_value({"key": "new"})
    assert ctx.get_state().get_abstract_state(0).get_value() == {"key": "new"}
    assert ctx.get_abstract_parameter(0).get_value() == "param"
    values = ctx.get_mutable_abstract_state()
    copy = values.clone()
    ctx.get_mutable_abstract_state(0).get_mutable_value()["key"] = "changed"
    values.set_from(copy)
    assert ctx.get_abstract_state(0).get_value() == {"key": "new"}
    # state copies clone abstract values: no aliasing between contexts
    other = ctx.clone()
    assert other.get_abstract_state(0).get_value() == {"key": "new"}
    assert other.get_abstract_state(0).get_value() is not ctx.get_abstract_state(0).get_value()


def test_state_copies_between_systems_of_the_same_layout():
    a, b = LinearSystem(A=np.eye(2), B=np.zeros((2, 1))), LinearSystem(A=2 * np.eye(2),
                                                                        B=np.ones((2, 1)))
    src, dst = a.create_default_context(), b.create_default_context()
    src.set_time(0.5)
    src.set_continuous_state([3.0, 4.0])
    dst.set_time_state_and_parameters_from(src)
    assert dst.get_time() == 0.5
    np.testing.assert_array_equal(dst.get_continuous_state_vector(), [3.0, 4.0])
    with pytest.raises(RuntimeError, match="laid out"):
        dst.set_state_and_parameters_from(LinearSystem(A=np.eye(3), B=np.zeros((3, 1)))
                                          .create_default_context())


def test_subvector_and_supervector_read_and_write_through():
    from merganser.framework import Subvector, Supervector
    data = BasicVector([1.0, 2.0, 3.0, 4.0])
    sub = Subvector(data, 1, 2)
    assert isinstance(sub, VectorBase) and sub.size() == 2
    sub.set_at_index(0, 20.0)
    np.testing.assert_array_equal(data.get_value(), [1.0, 20.0, 3.0, 4.0])
    with pytest.raises(IndexError):
        Subvector(data, 3, 2)
    ctx = LinearSystem(A=np.eye(3), B=np.zeros((3, 1))).create_default_context()
    with pytest.raises(ValueError):         # a view of a read-only state stays read-only
        Subvector(ctx.get_continuous_state_vector(), 0, 1).set_from_vector([1.0])
    other = np.array([5.0, 6.0])
    sup = Supervector([data, other])
    assert sup.size() == 6 and sup[4] == 5.0 and sup.get_at_index(-1) == 6.0
    sup.set_from_vector(np.arange(6.0))
    np.testing.assert_array_equal(data.get_value(), [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(other, [4.0, 5.0])
    sup[1] = -1.0
    assert data[1] == -1.0
    with pytest.raises(IndexError):
        sup.get_at_index(6)


def test_parameters_object_reads_and_writes_the_context():
    from merganser.framework import Parameters

    class Params(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_numeric_parameter([1.0, 2.0])
            self.declare_abstract_parameter(Value("a"))
            self.declare_vector_output_port("p", 2, lambda ctx, out: out.set_value(
                ctx.get_numeric_parameter(0)), {self.numeric_parameter_ticket(0)})

    system = Params()
    ctx = system.create_default_context()
    params = ctx.get_parameters()
    assert (params.num_numeric_parameter_groups(), params.num_abstract_parameters()) == (1, 1)
    np.testing.assert_array_equal(params.get_numeric_parameter(0).get_value(), [1.0, 2.0])
    assert params.get_abstract_parameter(0).get_value() == "a"
    np.testing.assert_array_equal(system.get_output_port().eval(ctx), [1.0, 2.0])
    ctx.get_mutable_parameters().get_mutable_numeric_parameter(0).set_value([3.0, 4.0])
    np.testing.assert_array_equal(system.get_output_port().eval(ctx), [3.0, 4.0])
    standalone = Parameters(numeric=[BasicVector([5.0, 6.0])], abstract=[Value("b")])
    ctx.get_mutable_parameters().set_from(standalone)
    np.testing.assert_array_equal(system.get_output_port().eval(ctx), [5.0, 6.0])
    assert ctx.get_abstract_parameter(0).get_value() == "b"
    with pytest.raises(ValueError):
        ctx.get_mutable_parameters().set_from(Parameters(numeric=[[1.0]]))
    one_vector, one_value = Parameters(vec=BasicVector([1.0])), Parameters(value=Value("v"))
    assert (one_vector.num_numeric_parameter_groups(), one_vector.num_abstract_parameters()) == (
        1, 0)
    assert one_value.get_abstract_parameter(0).get_value() == "v"
    with pytest.raises(TypeError, match="give numeric=/abstract=, or one of vec="):
        Parameters(numeric=[[1.0]], vec=BasicVector([1.0]))
    # pydrake's whole-collection accessors
    params = ctx.get_mutable_parameters()
    numeric = params.get_numeric_parameters().clone()
    numeric.get_mutable_vector(0).set_value([7.0, 8.0])
    params.set_numeric_parameters(numeric)
    np.testing.assert_array_equal(system.get_output_port().eval(ctx), [7.0, 8.0])
    abstract = params.get_abstract_parameters().clone()
    abstract.get_mutable_value(0).set_value("c")
    params.set_abstract_parameters(abstract)
    assert ctx.get_abstract_parameter(0).get_value() == "c"
    with pytest.raises(ValueError, match=r"set_numeric_parameters: numeric_params has groups "
                                         r"of sizes \[1\], expected \[2\]"):
        params.set_numeric_parameters(DiscreteValues([[1.0]]))
    with pytest.raises(TypeError, match="numeric_params must be a DiscreteValues, got list"):
        params.set_numeric_parameters([[1.0, 2.0]])
    np.testing.assert_array_equal(system.get_output_port().eval(ctx), [7.0, 8.0])


def test_random_hooks_take_drakes_state_and_parameters():
    class Noisy(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state([0.0])
            self.declare_numeric_parameter([1.0])

        def set_random_state(self, context, state, generator):
            state.get_mutable_discrete_state(0).set_value([generator.uniform(10.0, 11.0)])

        def set_random_parameters(self, context, parameters, generator):
            parameters.get_mutable_numeric_parameter(0).set_value([generator.uniform(-2.0, -1.0)])

    system = Noisy()
    ctx = system.create_default_context()
    system.set_random_context(ctx, RandomGenerator(1))
    assert 10.0 <= ctx.get_discrete_state(0)[0] <= 11.0
    assert -2.0 <= ctx.get_numeric_parameter(0)[0] <= -1.0
    again = system.create_default_context()
    system.set_random_context(again, RandomGenerator(1))
    assert again.get_discrete_state(0)[0] == ctx.get_discrete_state(0)[0]


def test_default_state_and_parameter_overrides_follow_drake():
    class Shifted(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_continuous_state(2)
            self.declare_discrete_state([1.0])
            self.declare_abstract_state(Value("model"))
            self.declare_numeric_parameter([1.0])

        def set_default_state(self, context, state=None):
            super().set_default_state(context, state)
            state.get_mutable_discrete_state(0).set_value([5.0])

        def set_default_parameters(self, context, parameters):
            parameters.get_mutable_numeric_parameter(0).set_value([7.0])

    system = Shifted()
    ctx = system.create_default_context()
    assert ctx.get_discrete_state(0)[0] == 5.0 and ctx.get_numeric_parameter(0)[0] == 7.0
    # the base implementation writes the model values into any State of the system
    ctx.set_continuous_state([3.0, 4.0])
    ctx.get_mutable_abstract_state(0).set_value("changed")
    state = ctx.get_mutable_state()
    LeafSystem.set_default_state(system, ctx, state)
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [0.0, 0.0])
    assert ctx.get_discrete_state(0)[0] == 1.0
    assert ctx.get_abstract_state(0).get_value() == "model"
