"""Drake parity: scalar-type templates (``Foo_[float]``), structure counts, Drake's
accessor keywords and return types, and the refusal of scalar conversion."""

import numpy as np
import pytest

import merganser.framework as fw
from merganser.framework import (
    Adder, BasicVector, ConstantVectorSource, DiagramBuilder, Integrator, LeafSystem,
    PassThrough, Value, VectorBase, ZeroOrderHold,
)


def test_template_float_and_default_are_the_class():
    assert fw.Adder_[float] is Adder
    assert fw.Adder_[None] is Adder
    assert fw.LeafSystem_[float] is LeafSystem
    assert fw.BasicVector_[float] is BasicVector
    assert fw.Adder_.param_list == [(float,)]
    assert fw.Adder_.is_instantiation(Adder)
    assert not fw.Adder_.is_instantiation(PassThrough)
    assert fw.Adder_.get_instantiation() == (Adder, (float,))
    # Calling the template builds the default instantiation.
    adder = fw.Adder_(2, 3)
    assert isinstance(adder, Adder) and adder.num_input_ports() == 2


def test_template_subclass_as_pydrake_users_write_it():
    class Doubler(fw.LeafSystem_[float]):
        def __init__(self):
            fw.LeafSystem_[float].__init__(self)
            self.declare_vector_input_port("u", 1)
            self.declare_vector_output_port("y", 1, self._calc)

        def _calc(self, context, output):
            output.set_value(2.0 * self.get_input_port().eval(context))

    system = Doubler()
    context = system.create_default_context()
    system.get_input_port().fix_value(context, [1.5])
    assert system.get_output_port().eval(context)[0] == 3.0
    assert fw.LeafSystem_.is_subclass_of_instantiation(Doubler) == (float,)


def test_template_refuses_other_scalar_types_with_runtime_error():
    class AutoDiffXd:       # stands for a scalar type merganser does not compute in
        pass

    with pytest.raises(RuntimeError, match=r"Adder_\[AutoDiffXd\].*float64 only.*float"):
        fw.Adder_[AutoDiffXd]


def test_template_name_only_for_exported_classes():
    assert not hasattr(fw, "linearize_")     # a function, not a class: no template
    assert not hasattr(fw, "NoSuchThing_")


def test_structure_counts_of_leaf_and_diagram():
    class Counted(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state(2)
            self.declare_discrete_state(1)
            self.declare_abstract_state(Value("a"))
            self.declare_numeric_parameter([1.0, 2.0])
            self.declare_abstract_parameter(Value(3))
            self.declare_vector_input_port("u", 4)
            self.declare_abstract_input_port("label", Value("x"))
            self.declare_vector_output_port("y", 2, lambda c, o: o.set_value([0.0, 0.0]))

    leaf = Counted()
    assert leaf.num_discrete_state_groups() == 2
    assert leaf.num_abstract_states() == 1
    assert leaf.num_numeric_parameter_groups() == 1
    assert leaf.num_abstract_parameters() == 1
    assert leaf.num_total_inputs() == 4          # the abstract port counts 0, as in Drake
    assert leaf.num_total_outputs() == 2
    adder = Adder(3, 10)
    assert (adder.num_abstract_states(), adder.num_discrete_state_groups()) == (0, 0)
    assert adder.num_total_inputs() == 30

    builder = DiagramBuilder()
    builder.add_system(Counted())
    builder.add_system(Counted())
    builder.add_system(ZeroOrderHold(0.1, 3))
    diagram = builder.build()
    assert diagram.num_discrete_state_groups() == 5
    assert diagram.num_abstract_states() == 2
    assert diagram.num_numeric_parameter_groups() == 2
    assert diagram.num_abstract_parameters() == 2
    context = diagram.create_default_context()
    assert context.num_discrete_state_groups() == diagram.num_discrete_state_groups()


def test_context_get_discrete_state_without_index_is_all_groups():
    hold = ZeroOrderHold(period_sec=0.1, vector_size=2)
    context = hold.create_default_context()
    hold.get_input_port().fix_value(context, [3.0, 4.0])
    everything = context.get_discrete_state()
    assert everything.num_groups() == 1
    np.testing.assert_array_equal(everything.get_vector(0), [0.0, 0.0])
    # It stays group 0's (read-only) array for code that reads it as one.
    assert everything.shape == (2,) and not everything.flags.writeable
    updated = hold.eval_unique_periodic_discrete_update(context)
    assert updated.num_groups() == everything.num_groups()
    np.testing.assert_array_equal(updated.get_vector().copy_to_vector(), [3.0, 4.0])
    with pytest.raises(IndexError, match="group 1 out of range"):
        everything.get_vector(1)
    # A system without discrete state: no groups, an empty array.
    empty = Adder(2, 1).create_default_context().get_discrete_state()
    assert empty.num_groups() == 0 and empty.size == 0


def test_context_accessors_take_drakes_index_keyword():
    class Parametrized(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state(2)
            self.declare_abstract_state(Value("s"))
            self.declare_numeric_parameter([1.0, 2.0])
            self.declare_abstract_parameter(Value("p"))

    system = Parametrized()
    context = system.create_default_context()
    np.testing.assert_array_equal(context.get_discrete_state(index=0), [0.0, 0.0])
    assert context.get_abstract_state(index=0).get_value() == "s"
    assert context.get_abstract_parameter(index=0).get_value() == "p"
    parameter = context.get_numeric_parameter(index=0)
    assert isinstance(parameter, VectorBase)
    np.testing.assert_array_equal(parameter.get_value(), [1.0, 2.0])
    with pytest.raises(ValueError):      # the read-only accessor refuses writes
        parameter[0] = 5.0
    context.set_numeric_parameter(index=0, value=[5.0, 6.0])
    np.testing.assert_array_equal(context.get_numeric_parameter(0), [5.0, 6.0])


def test_diagram_subsystem_context_takes_drakes_keywords():
    builder = DiagramBuilder()
    source = builder.add_system(ConstantVectorSource([1.0]))
    diagram = builder.build()
    context = diagram.create_default_context()
    sub = diagram.get_mutable_subsystem_context(subsystem=source, context=context)
    assert diagram.get_subsystem_context(subsystem=source, context=context) is sub
    assert sub is source.get_my_context_from_root(context)


def test_scalar_conversion_is_refused_as_a_runtime_error():
    integrator = Integrator(2)
    integrator.set_name("int")
    with pytest.raises(RuntimeError, match=r"to_auto_diff_xd: system 'int'.*AutoDiffXd"):
        integrator.to_auto_diff_xd()
    with pytest.raises(RuntimeError, match=r"to_symbolic: system 'int'.*Expression"):
        integrator.to_symbolic()
    assert integrator.to_auto_diff_xd_maybe() is None
    assert integrator.to_symbolic_maybe() is None



def test_get_subsystem_context_accepts_the_root_context_under_each_documented_keyword():
    from merganser.framework import ConstantVectorSource, DiagramBuilder
    builder = DiagramBuilder()
    source = builder.add_system(ConstantVectorSource([1.0, 2.0]))
    diagram = builder.build()
    root = diagram.create_default_context()
    expected = diagram.get_subsystem_context(source, root)
    for keyword in ("context", "root_ctx", "root_context"):
        got = diagram.get_subsystem_context(source, **{keyword: root})
        assert got is expected
        np.testing.assert_array_equal(source.get_output_port(0).eval(got), [1.0, 2.0])
    with pytest.raises(TypeError, match="get_subsystem_context"):
        diagram.get_subsystem_context(source)
