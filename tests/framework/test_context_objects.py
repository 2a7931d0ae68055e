"""Context and state objects as Drake has them: ContinuousState with its q/v/z split,
VectorBase state vectors, State and DiscreteValues, mutable accessors, copying between
contexts and the context's printed summary."""

import numpy as np
import pytest

from merganser.framework import (BasicVector, ContinuousState, DiagramBuilder, DiscreteValues,
                                 LeafSystem, State)


class Mixed(LeafSystem):
    """q = (2), v = (2), z = (1); two discrete groups; one abstract state; one parameter."""

    def __init__(self):
        super().__init__()
        self.declare_continuous_state(model_vector=[1.0, 2.0, 3.0, 4.0, 5.0], num_q=2, num_v=2,
                                      num_z=1)
        self.declare_discrete_state(model_vector=[6.0, 7.0])
        self.declare_discrete_state(num_state_variables=3)
        self.declare_abstract_state("hello")
        self.declare_numeric_parameter(model_vector=[0.5])

    def do_calc_time_derivatives(self, context, derivatives):
        x = context.get_continuous_state_vector()
        derivatives.set_value(-np.asarray(x))


class Stateless(LeafSystem):
    def __init__(self):
        super().__init__()
        self.declare_vector_output_port(name="y", size=1, calc=lambda c, o: o.set_value([1.0]))


def test_continuous_state_split_and_sizes():
    ctx = Mixed().create_default_context()
    xc = ctx.get_continuous_state()
    assert isinstance(xc, ContinuousState)
    assert (xc.size(), xc.num_q(), xc.num_v(), xc.num_z()) == (5, 2, 2, 1)
    np.testing.assert_array_equal(xc.get_vector().copy_to_vector(), [1, 2, 3, 4, 5])
    np.testing.assert_array_equal(xc.get_generalized_position(), [1, 2])
    np.testing.assert_array_equal(xc.get_generalized_velocity(), [3, 4])
    np.testing.assert_array_equal(xc.get_misc_continuous_state(), [5])
    assert xc[4] == 5.0


def test_state_vector_is_a_read_only_numpy_array_with_drakes_methods():
    ctx = Mixed().create_default_context()
    x = ctx.get_continuous_state_vector()
    assert isinstance(x, np.ndarray)
    assert x.size() == 5 and x.size == 5 and len(x) == 5
    assert x.get_at_index(1) == 2.0 and x[1] == 2.0
    np.testing.assert_array_equal(x.get_value(), [1, 2, 3, 4, 5])
    copy = x.copy_to_vector()
    assert type(copy) is np.ndarray and copy.flags.writeable
    assert type(x * 2.0) is np.ndarray          # arithmetic gives plain arrays
    with pytest.raises(ValueError, match="read-only"):
        x.set_from_vector(np.zeros(5))
    with pytest.raises(ValueError):
        x[0] = 3.0
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [1, 2, 3, 4, 5])


def test_mutable_vector_writes_into_the_context_and_invalidates():
    system = Mixed()
    ctx = system.create_default_context()
    np.testing.assert_array_equal(system.eval_time_derivatives(ctx), [-1, -2, -3, -4, -5])
    xm = ctx.get_mutable_continuous_state_vector()
    xm.set_from_vector([0.0, 1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(system.eval_time_derivatives(ctx), [0, -1, -2, -3, -4])
    ctx.get_mutable_continuous_state().get_mutable_vector().set_at_index(0, 9.0)
    assert ctx.get_continuous_state_vector()[0] == 9.0
    assert system.eval_time_derivatives(ctx)[0] == -9.0
    with pytest.raises(ValueError, match="size"):
        xm.set_from_vector([1.0])


def test_discrete_state_vector_and_mutable_discrete_values():
    system = Mixed()
    ctx = system.create_default_context()
    with pytest.raises(RuntimeError, match="exactly one discrete state group"):
        ctx.get_discrete_state_vector()
    g0 = ctx.get_discrete_state(0)
    assert g0.size() == 2 and g0.get_value().tolist() == [6.0, 7.0]
    values = ctx.get_mutable_discrete_state()
    assert isinstance(values, DiscreteValues)
    assert values.num_groups() == 2 and values.size() == 5
    values.set_value(1, [1.0, 2.0, 3.0])
    values.get_mutable_vector(0).set_value([8.0, 9.0])
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [8, 9])
    np.testing.assert_array_equal(ctx.get_discrete_state(1), [1, 2, 3])


def test_single_group_discrete_state_vector_is_a_vector_base():
    class One(LeafSystem):
        def __init__(self):
            super().__init__()
            self.declare_discrete_state(vector=np.array([1.0, 2.0]))

    ctx = One().create_default_context()
    xd = ctx.get_discrete_state_vector()
    assert xd.size() == 2 and xd.copy_to_vector().tolist() == [1.0, 2.0]
    ctx.get_mutable_discrete_state_vector().set_from_vector([3.0, 4.0])
    np.testing.assert_array_equal(ctx.get_discrete_state_vector(), [3, 4])


def test_state_object_reads_and_mutable_state_writes():
    system = Mixed()
    ctx = system.create_default_context()
    state = ctx.get_state()
    assert isinstance(state, State)
    np.testing.assert_array_equal(state.get_continuous_state().get_vector(), [1, 2, 3, 4, 5])
    assert state.get_discrete_state().num_groups() == 2
    np.testing.assert_array_equal(state.get_discrete_state(0).get_value(), [6, 7])
    assert state.get_abstract_state(0).get_value() == "hello"
    assert state.get_abstract_state().get_value(0) is state.get_abstract_state(0)
    mutable = ctx.get_mutable_state()
    mutable.get_mutable_continuous_state().get_mutable_generalized_velocity().set_from_vector(
        [-3.0, -4.0])
    mutable.get_mutable_discrete_state(1).set_value([7.0, 7.0, 7.0])
    mutable.get_mutable_abstract_state(0).set_value("bye")
    np.testing.assert_array_equal(ctx.get_continuous_state_vector(), [1, 2, -3, -4, 5])
    np.testing.assert_array_equal(ctx.get_discrete_state(1), [7, 7, 7])
    assert ctx.get_abstract_state(0).get_value() == "bye"
    np.testing.assert_array_equal(system.eval_time_derivatives(ctx), [-1, -2, 3, 4, -5])


def test_subsystem_state_in_a_diagram():
    builder = DiagramBuilder()
    a = builder.add_named_system("a", Mixed())
    b = builder.add_named_system("b", Mixed())
    diagram = builder.build()
    root = diagram.create_default_context()
    state_b = diagram.get_mutable_subsystem_state(b, root)
    state_b.get_mutable_discrete_state(0).set_value([0.0, 1.0])
    np.testing.assert_array_equal(b.get_my_context_from_root(root).get_discrete_state(0), [0, 1])
    np.testing.assert_array_equal(a.get_my_context_from_root(root).get_discrete_state(0), [6, 7])
    # the diagram's own state: [q_a q_b v_a v_b z_a z_b], groups of a then b
    xc = root.get_continuous_state()
    assert (xc.num_q(), xc.num_v(), xc.num_z()) == (4, 4, 2)
    np.testing.assert_array_equal(xc.get_generalized_position(), [1, 2, 1, 2])
    assert root.get_state().get_discrete_state().num_groups() == 4
    assert root.num_input_ports() == 0 and root.num_output_ports() == 0


def test_set_state_and_parameters_from_copies_all_but_time():
    system = Mixed()
    src = system.create_default_context()
    dst = system.create_default_context()
    src.set_time(2.5)
    src.set_continuous_state(np.arange(5.0))
    src.set_discrete_state(1, [3.0, 2.0, 1.0])
    src.set_abstract_state(0, "copied")
    src.set_numeric_parameter(0, [4.0])
    dst.set_state_and_parameters_from(src)
    assert dst.get_time() == 0.0
    np.testing.assert_array_equal(dst.get_continuous_state_vector(), np.arange(5.0))
    np.testing.assert_array_equal(dst.get_discrete_state(1), [3, 2, 1])
    assert dst.get_abstract_state(0).get_value() == "copied"
    np.testing.assert_array_equal(dst.get_numeric_parameter(0), [4.0])
    with pytest.raises(RuntimeError):
        dst.set_state_and_parameters_from(Stateless().create_default_context())


def test_is_stateless_and_port_counts():
    ctx = Stateless().create_default_context()
    assert ctx.is_stateless()
    assert not Mixed().create_default_context().is_stateless()
    assert ctx.num_input_ports() == 0 and ctx.num_output_ports() == 1


def test_basic_vector_clone_is_independent():
    v = BasicVector([1.0, 2.0])
    w = v.clone()
    w.set_value([3.0, 4.0])
    assert v.get_value().tolist() == [1.0, 2.0] and w.get_value().tolist() == [3.0, 4.0]
    assert w.size() == 2 and w.get_at_index(1) == 4.0


def test_context_prints_drakes_summary():
    system = Mixed()
    system.set_name("mixed")
    ctx = system.create_default_context()
    ctx.set_time(0.25)
    assert str(ctx) == (
        "::mixed Context\n"
        "----------------\n"
        "Time: 0.25\n"
        "States:\n"
        "  5 continuous states\n"
        "    [1, 2, 3, 4, 5]\n"
        "  2 discrete state groups with\n"
        "     2 states\n"
        "       [6, 7]\n"
        "     3 states\n"
        "       [0, 0, 0]\n"
        "  1 abstract states\n"
        "\n"
        "Parameters:\n"
        "  1 numeric parameter groups with\n"
        "     1 parameters\n"
        "       [0.5]\n")


def test_diagram_context_summary_lists_totals_and_subcontexts():
    builder = DiagramBuilder()
    builder.add_named_system("m", Mixed())
    builder.add_named_system("s", Stateless())
    diagram = builder.build()
    text = str(diagram.create_default_context())
    name = diagram.get_name()
    assert text.startswith(f"::{name} Context (of a Diagram)\n")
    assert "5 total continuous states\n" in text
    assert "5 total discrete states in 2 groups\n" in text
    # as Drake, the stateless, parameterless subsystem s is left out
    assert f"\n::{name}::m Context\n" in text and f"::{name}::s Context" not in text
    # Drake's forms: an underline of one dash per UTF-8 byte of the title and one more
    system = Mixed()
    system.set_name("θ")
    context = system.create_default_context()
    context.set_continuous_state([1.0, 2.5, -3.0, 0.0, 0.0])
    text = str(context)
    assert text.startswith("::θ Context\n" + "-" * 13 + "\n")
    assert "  5 continuous states\n    [1, 2.5, -3, 0, 0]\n" in text


def test_diagram_mutable_discrete_values_write_into_the_leaves():
    builder = DiagramBuilder()
    a = builder.add_named_system("a", Mixed())
    b = builder.add_named_system("b", Mixed())
    diagram = builder.build()
    root = diagram.create_default_context()
    values = root.get_mutable_discrete_state()
    assert values.num_groups() == 4
    values.set_value(2, [1.5, 2.5])             # b's first group
    np.testing.assert_array_equal(b.get_my_context_from_root(root).get_discrete_state(0),
                                  [1.5, 2.5])
    np.testing.assert_array_equal(a.get_my_context_from_root(root).get_discrete_state(0), [6, 7])
    np.testing.assert_array_equal(root.get_discrete_state(2), [1.5, 2.5])
