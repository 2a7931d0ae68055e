"""Drake's CalcForcedUnrestrictedUpdate on a Diagram: each leaf's forced unrestricted
handlers see the leaf's own state (its substate) and write into the diagram's State;
leaves without handlers keep the context's values; the context is unchanged."""

import numpy as np
import pytest

from merganser.framework import AbstractValue, DiagramBuilder, LeafSystem


class Scaler(LeafSystem):
    """Forced unrestricted update: xd <- k xd, xc <- 10 k, abstract <- 'k'."""

    def __init__(self, k):
        super().__init__()
        self.k = k
        self.declare_continuous_state(1)
        self.declare_discrete_state([1.0])
        self.declare_abstract_state(AbstractValue.make("start"))
        self.declare_forced_unrestricted_update_event(self._update)

    def _update(self, context, state):
        assert state.get_continuous_state().size() == 1     # the leaf's own layout
        state.get_mutable_discrete_state().set_value([self.k * context.get_discrete_state(0)[0]])
        state.get_mutable_continuous_state().set_from_vector([10.0 * self.k])
        state.get_mutable_abstract_state(0).set_value(f"k={self.k}")


class Idle(LeafSystem):
    def __init__(self):
        super().__init__()
        self.declare_continuous_state(2)
        self.declare_discrete_state([5.0])


def _diagram():
    builder = DiagramBuilder()
    builder.add_system(Scaler(2.0))
    builder.add_system(Idle())
    builder.add_system(Scaler(3.0))
    return builder.build()


def test_diagram_forced_unrestricted_update_writes_each_leaf_substate():
    diagram = _diagram()
    context = diagram.create_default_context()
    context.get_mutable_continuous_state_vector().set_value([0.5, 0.25, 0.75, 0.125])
    state = context.clone().get_mutable_state()
    diagram.calc_forced_unrestricted_update(context=context, state=state)
    xc = np.array(state.get_continuous_state().get_value())
    # the diagram's continuous layout is the leaves' q, then v, then z: all z here
    np.testing.assert_array_equal(xc, [20.0, 0.25, 0.75, 30.0])
    groups = [state.get_discrete_state().get_value(i)[0] for i in range(3)]
    assert groups == [2.0, 5.0, 3.0]
    assert [state.get_abstract_state(i).get_value() for i in range(2)] == ["k=2.0", "k=3.0"]
    # the context is unchanged
    np.testing.assert_array_equal(context.get_continuous_state_vector(), [0.5, 0.25, 0.75, 0.125])
    assert context.get_discrete_state(0)[0] == 1.0
    assert context.get_abstract_state(0).get_value() == "start"


def test_diagram_forced_unrestricted_update_first_copies_the_context_into_state():
    diagram = _diagram()
    context = diagram.create_default_context()
    other = diagram.create_default_context()
    other.get_mutable_discrete_state().set_value(1, [-1.0])
    state = other.get_mutable_state()
    diagram.calc_forced_unrestricted_update(context, state)
    assert state.get_discrete_state().get_value(1)[0] == 5.0     # Idle's, from context


def test_diagram_forced_unrestricted_update_rejects_a_state_of_another_layout():
    diagram = _diagram()
    context = diagram.create_default_context()
    leaf_state = Scaler(1.0).create_default_context().get_mutable_state()
    with pytest.raises(RuntimeError, match="calc_forced_unrestricted_update: state has"):
        diagram.calc_forced_unrestricted_update(context, leaf_state)
    with pytest.raises(RuntimeError, match="state must be a State"):
        diagram.calc_forced_unrestricted_update(context, [1.0])


def test_nested_diagram_forced_unrestricted_update():
    inner = _diagram()
    builder = DiagramBuilder()
    builder.add_system(Idle())
    builder.add_system(inner)
    outer = builder.build()
    context = outer.create_default_context()
    state = context.clone().get_mutable_state()
    outer.calc_forced_unrestricted_update(context, state)
    groups = [state.get_discrete_state().get_value(i)[0] for i in range(4)]
    assert groups == [5.0, 2.0, 5.0, 3.0]
    # on the inner diagram's own subcontext, with a State of its layout
    sub = inner.get_my_context_from_root(context)
    inner_state = inner.create_default_context().get_mutable_state()
    inner.calc_forced_unrestricted_update(sub, inner_state)
    xc = np.array(inner_state.get_continuous_state().get_value())
    np.testing.assert_array_equal(xc, [20.0, 0.0, 0.0, 30.0])
