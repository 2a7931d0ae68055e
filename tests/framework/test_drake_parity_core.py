"""Drake-parity names of the framework core: typed values, indices, tickets, input
evaluation and allocation, fixed-input mutation, diagram locators, event objects."""

import numpy as np
import pytest

from merganser.framework import (AbstractValue, BasicVector, DependencyTicket, DiagramBuilder,
                                 InputPortIndex, LeafSystem, OutputPortIndex, PublishEvent,
                                 Simulator, SubsystemIndex, TriggerType, Value, ValueProducer)
from merganser.framework.primitives import Adder, PassThrough


def test_value_template_holds_default_of_type_and_checks_instances():
    assert Value[str]().get_value() == ""
    assert Value[object](3).get_value() == 3
    v = AbstractValue.make("hi")
    assert isinstance(v, Value[str]) and isinstance(v, Value[object])
    assert not isinstance(v, Value[BasicVector])
    assert Value[str] is Value[str]
    other = Value([1, 2])
    v.set_from(other)
    assert v.get_value() == [1, 2] and v.get_value() is not other.get_value()


def test_typed_indices_are_ints_and_reject_negative():
    assert InputPortIndex(2) == 2 and hash(OutputPortIndex(1)) == hash(1)
    assert repr(SubsystemIndex(0)) == "SubsystemIndex(0)"
    with pytest.raises(ValueError):
        InputPortIndex(-1)


class _Summer(LeafSystem):
    def __init__(self):
        super().__init__()
        self.declare_vector_input_port("u", 2)
        self.declare_abstract_input_port("label", Value[str]())
        self.declare_vector_output_port("y", 1, self._calc)

    def _calc(self, context, output):
        u = self.eval_vector_input(context, 0)
        output.set_value([u.get_value().sum()])


def test_eval_and_allocate_inputs_in_drake_types():
    s = _Summer()
    ctx = s.create_default_context()
    s.get_input_port(0).fix_value(ctx, [1.5, 2.0])
    s.get_input_port(1).fix_value(ctx, "tag")
    assert isinstance(s.eval_vector_input(ctx, 0), BasicVector)
    np.testing.assert_array_equal(s.eval_vector_input(ctx, 0).get_value(), [1.5, 2.0])
    assert s.eval_abstract_input(ctx, 1).get_value() == "tag"
    np.testing.assert_array_equal(s.get_output_port(0).eval(ctx), [3.5])
    vec = s.allocate_input_vector(s.get_input_port(0))
    assert isinstance(vec, BasicVector) and vec.size() == 2
    assert isinstance(s.allocate_input_abstract(s.get_input_port(1)), Value[str])
    abstract_of_vector = s.get_input_port(0).eval_abstract(ctx)
    np.testing.assert_array_equal(abstract_of_vector.get_value().get_value(), [1.5, 2.0])
    assert s.num_constraints() == 0


def test_fixed_input_mutable_data_invalidates_outputs():
    s = _Summer()
    ctx = s.create_default_context()
    fixed = s.get_input_port(0).fix_value(ctx, [1.0, 1.0])
    s.get_input_port(1).fix_value(ctx, "x")
    assert s.get_output_port(0).eval(ctx)[0] == 2.0
    data = fixed.get_mutable_data()
    assert isinstance(data, AbstractValue)
    data.get_value().set_value([4.0, 5.0])
    assert s.get_output_port(0).eval(ctx)[0] == 9.0


def test_tickets_are_dependency_tickets_and_input_port_ticket_drives_cache():
    for t in (LeafSystem.configuration_ticket(), LeafSystem.kinematics_ticket(),
              LeafSystem.ke_ticket(), LeafSystem.pnc_ticket(), LeafSystem.xc_ticket()):
        assert isinstance(t, DependencyTicket)
    s = _Summer()
    calls = []

    def calc(context, value):
        calls.append(1)
        value.set_value(float(s.get_input_port(0).eval(context)[0]) * 10)

    entry = s.declare_cache_entry(
        "tenfold", ValueProducer(allocate=lambda: Value(0.0), calc=calc),
        prerequisites_of_calc={s.get_input_port(0).ticket()})
    ctx = s.create_default_context()
    s.get_input_port(0).fix_value(ctx, [2.0, 0.0])
    assert entry.eval(ctx) == 20.0 and entry.eval(ctx) == 20.0 and len(calls) == 1
    s.get_input_port(0).fix_value(ctx, [3.0, 0.0])
    assert entry.eval(ctx) == 30.0 and len(calls) == 2


def test_value_producer_allocate_must_return_a_value():
    s = LeafSystem()

    def bad_alloc():
        return "not a Value"

    s.declare_cache_entry("bad", ValueProducer(allocate=bad_alloc, calc=lambda c, v: None))
    with pytest.raises(RuntimeError, match="bad_alloc.*Value.*not str"):
        s.create_default_context()


def test_diagram_get_system_locators_and_are_connected():
    b = DiagramBuilder()
    a1 = b.add_system(Adder(2, 1))
    a2 = b.add_system(Adder(1, 1))
    b.connect(a1.get_output_port(0), a2.get_input_port(0))
    b.export_input(a1.get_input_port(0))
    b.export_input(a1.get_input_port(1))
    b.export_output(a2.get_output_port(0))
    d = b.build()
    assert d.get_system(SubsystemIndex(1)) is a2
    assert d.get_input_port_locators(InputPortIndex(1)) == [(a1, 1)]
    assert d.get_output_port_locator(OutputPortIndex(0)) == (a2, 0)
    assert d.are_connected(output=a1.get_output_port(0), input=a2.get_input_port(0))
    assert not d.are_connected(output=a2.get_output_port(0), input=a1.get_input_port(0))


def test_initialization_and_per_step_events_from_event_objects():
    times = {"init": [], "step": []}

    class S(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_initialization_event(PublishEvent(
                callback=lambda ctx, event: times["init"].append(ctx.get_time()),
                trigger_type=TriggerType.kInitialization))
            self.declare_per_step_event(PublishEvent(
                callback=lambda ctx, event: times["step"].append(ctx.get_time())))

    sim = Simulator(S())
    sim.initialize()
    assert times["init"] == [0.0]
    assert PublishEvent(trigger_type=TriggerType.kForced).get_trigger_type() == TriggerType.FORCED


def test_time_derivatives_have_drake_size_and_values():
    class Decay(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_continuous_state(3)

        def do_calc_time_derivatives(self, context, derivatives):
            derivatives.get_mutable_vector().set_from_vector(
                -2.0 * context.get_continuous_state_vector().copy_to_vector())

    s = Decay()
    ctx = s.create_default_context()
    ctx.set_continuous_state([1.0, 2.0, 3.0])
    xdot = s.eval_time_derivatives(ctx)
    assert xdot.size() == 3
    np.testing.assert_array_equal(xdot, [-2.0, -4.0, -6.0])
    p = PassThrough(3)
    assert p.allocate_input_vector(p.get_input_port()).size() == 3


def test_system_callback_receives_system_context_and_event():
    seen = []

    class S(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_initialization_event(PublishEvent(
                system_callback=lambda system, ctx, event: seen.append(
                    (system, ctx.get_time(), event.get_trigger_type()))))

    s = S()
    sim = Simulator(s)
    sim.initialize()
    assert len(seen) == 1 and seen[0][0] is s and seen[0][1] == 0.0
    with pytest.raises(TypeError):
        PublishEvent(callback=print, system_callback=print)


def test_connect_input_with_pydrake_keywords_feeds_both_ports():
    b = DiagramBuilder()
    adder = b.add_system(Adder(3, 1))
    b.export_input(adder.get_input_port(0), "in0")
    b.connect_input(diagram_port_name="in0", input=adder.get_input_port(1))
    b.connect_input(diagram_port_index=InputPortIndex(0), input=adder.get_input_port(2))
    b.export_output(adder.get_output_port(0))
    d = b.build()
    ctx = d.create_default_context()
    d.get_input_port(0).fix_value(ctx, [2.0])
    assert d.get_output_port(0).eval(ctx)[0] == 6.0
    with pytest.raises(TypeError):
        b.connect_input("in0", adder.get_input_port(1), input=adder.get_input_port(1))


def test_abstract_fix_value_types_follow_pydrake():
    text = PassThrough(Value(""))
    ctx = text.create_default_context()
    port = text.get_input_port(0)
    port.fix_value(ctx, Value("Bravo"))
    assert port.eval(ctx) == "Bravo"
    with pytest.raises(RuntimeError):
        port.fix_value(ctx, Value(1))
    with pytest.raises(TypeError):
        port.fix_value(ctx, 1)
    anything = PassThrough(Value(object()))
    ctx = anything.create_default_context()
    port = anything.get_input_port(0)
    port.fix_value(ctx, 1)
    assert port.eval(ctx) == 1
    port.fix_value(ctx, "string")
    assert port.eval(ctx) == "string"
    with pytest.raises(RuntimeError):
        port.fix_value(ctx, Value("string"))


def test_periodic_event_object_fires_on_its_period():
    times = []

    class S(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_periodic_event(period_sec=0.25, offset_sec=0.0, event=PublishEvent(
                callback=lambda ctx, event: times.append(round(ctx.get_time(), 9))))

    sim = Simulator(S())
    sim.advance_to(1.0)
    assert times == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(TypeError):
        S().declare_periodic_event(0.1, 0.0, "not an event")


def test_declare_input_port_by_data_type_and_default_names():
    from merganser.framework import PortDataType, kUseDefaultName
    s = LeafSystem()
    u0 = s.declare_input_port(kUseDefaultName, PortDataType.kVectorValued, 2)
    u1 = s.declare_input_port("any", PortDataType.kAbstractValued, 0)
    y0 = s.declare_vector_output_port(kUseDefaultName, 1, lambda c, o: o.set_value([1.0]))
    assert (u0.get_name(), u0.size(), y0.get_name()) == ("u0", 2, "y0")
    assert u1.get_data_type() == PortDataType.kAbstractValued
    assert repr(kUseDefaultName) == "kUseDefaultName"
    with pytest.raises(TypeError):
        s.declare_input_port("bad", "matrix", 1)


def test_pydrake_keywords_on_context_and_vector_setters():
    from merganser.framework import BasicVector, LeafSystem
    system = LeafSystem()
    system.declare_discrete_state(2)
    system.declare_discrete_state(1)
    system.declare_continuous_state(2)
    ctx = system.create_default_context()
    ctx.set_time(time_sec=2.5)
    assert ctx.get_time() == 2.5
    ctx.set_time(3.0)
    assert ctx.get_time() == 3.0
    with pytest.raises(TypeError, match="give the time once"):
        ctx.set_time(1.0, time_sec=2.0)
    ctx.set_discrete_state(group_index=1, xd=[5.0])
    ctx.set_discrete_state(xd=[1.0, 2.0])
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [1.0, 2.0])
    np.testing.assert_array_equal(ctx.get_discrete_state(1), [5.0])
    with pytest.raises(TypeError, match="each once"):
        ctx.set_discrete_state(0, group_index=1, xd=[5.0])
    ctx.get_mutable_continuous_state().set_from_vector(value=[3.0, 4.0])
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [3.0, 4.0])
    v = BasicVector([1.0, 2.0])
    v.plus_eq_scaled(scale=2.0, rhs=[1.0, 1.0])
    v.plus_eq_scaled(rhs_scale=[(1.0, [1.0, -1.0]), (0.5, [2.0, 2.0])])
    np.testing.assert_array_equal(v.get_value(), [5.0, 4.0])
    with pytest.raises(TypeError, match="unexpected keyword 'factor'"):
        v.plus_eq_scaled(factor=2.0, rhs=[1.0, 1.0])


def test_has_direct_feedthrough_takes_drakes_overloads_and_keywords():
    from merganser.framework import ConstantVectorSource, Gain, Integrator
    gain, integrator = Gain(k=2.0, size=1), Integrator(1)
    # one argument: the output port (does it depend on some input?), as Drake
    assert gain.has_direct_feedthrough(0) and not integrator.has_direct_feedthrough(0)
    assert not ConstantVectorSource([1.0]).has_direct_feedthrough(0)
    assert gain.has_direct_feedthrough(input_port=0, output_port=0)
    assert gain.has_direct_feedthrough(output_port=0)
    assert gain.has_direct_feedthrough(input_index=0, output_index=0)   # API.md's names
    assert not integrator.has_direct_feedthrough(0, 0)
    with pytest.raises(TypeError, match="given twice"):
        gain.has_direct_feedthrough(0, 0, output_port=0)


def test_basic_vector_of_a_size_and_periodic_spline_spellings():
    from merganser.framework import BasicVector, PiecewisePolynomial
    np.testing.assert_array_equal(BasicVector(size=3).get_value(), [0.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="once"):
        BasicVector([1.0], size=1)
    breaks, samples = [0.0, 1.0, 2.0, 3.0], np.array([[0.0, 1.0, 0.0, 0.0]])
    splines = [PiecewisePolynomial.cubic_with_continuous_second_derivatives(breaks, samples, True),
               PiecewisePolynomial.cubic_with_continuous_second_derivatives(
                   breaks, samples, periodic_end=True),
               PiecewisePolynomial.cubic_with_continuous_second_derivatives(
                   breaks, samples, periodic_end_condition=True)]
    for pp in splines:          # pydrake's periodic spline gives 0.625 at t = 0.5
        np.testing.assert_allclose(pp.value(0.5), [[0.625]], rtol=1e-14)
        np.testing.assert_allclose(pp.eval_derivative(0.0, 1), pp.eval_derivative(3.0, 1),
                                   atol=1e-12)


def test_configs_and_enums_print_as_pydrake():
    from merganser.framework import SimulatorConfig, SimulatorStatus, TriggerType
    assert str(SimulatorConfig()).startswith("SimulatorConfig(integration_scheme='runge_kutta3', ")
    assert str(SimulatorStatus.ReturnReason.kReachedBoundaryTime) == \
        "ReturnReason.kReachedBoundaryTime"
    assert f"{TriggerType.kPeriodic}" == "TriggerType.kPeriodic"
    assert TriggerType.kPeriodic == int(TriggerType.kPeriodic)          # still ints


def test_port_index_and_data_type_are_drakes_types():
    from merganser.framework import (InputPortIndex, OutputPortIndex, PassThrough,
                                     PortDataType)
    dut = PassThrough(vector_size=2)
    i, o = dut.get_input_port(0).get_index(), dut.get_output_port(0).get_index()
    assert isinstance(i, InputPortIndex) and isinstance(o, OutputPortIndex) and i == o == 0
    assert repr(i) == "InputPortIndex(0)"
    kind = dut.get_input_port(0).get_data_type()
    assert kind is PortDataType.kVectorValued and kind == "vector"
    assert str(kind) == "PortDataType.kVectorValued"
