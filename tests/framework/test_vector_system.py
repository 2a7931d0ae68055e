"""VectorSystem: Drake's vector-function base class, continuous and discrete."""

import math

import numpy as np
import pytest

from merganser.framework import Simulator, Value, VectorSystem


class Custom(VectorSystem):
    """1 input, 2 states, 3 outputs: y = [u; x], ẋ = x + u, x[n+1] = x + 2u."""

    def __init__(self, is_discrete, direct_feedthrough=True):
        super().__init__(1, 3, direct_feedthrough=direct_feedthrough)
        if is_discrete:
            self.declare_discrete_state(2)
            self.declare_periodic_discrete_update(0.5)
        else:
            self.declare_continuous_state(2)

    def do_calc_vector_output(self, context, u, x, y):
        y[:] = np.hstack([u if u.size else [np.nan], x])

    def do_calc_vector_time_derivatives(self, context, u, x, xdot):
        xdot[:] = x + u

    def do_calc_vector_discrete_variable_updates(self, context, u, x, x_next):
        x_next[:] = x + 2 * u


def test_continuous_vector_system_integrates_and_outputs():
    system = Custom(is_discrete=False)
    assert [p.get_name() for p in system._input_ports] == ["u0"]
    assert system.get_output_port().get_name() == "y0" and system.has_any_direct_feedthrough()
    sim = Simulator(system)
    system.get_input_port().fix_value(sim.get_mutable_context(), [1.0])
    sim.get_mutable_integrator().set_target_accuracy(1e-10)
    sim.advance_to(1.0)
    ctx = sim.get_context()
    np.testing.assert_allclose(ctx.get_continuous_state_vector(), [math.e - 1.0] * 2, rtol=1e-7)
    np.testing.assert_allclose(system.get_output_port().eval(ctx),
                               [1.0, math.e - 1.0, math.e - 1.0], rtol=1e-7)


def test_discrete_vector_system_updates_periodically_and_when_forced():
    system = Custom(is_discrete=True)
    sim = Simulator(system)
    system.get_input_port().fix_value(sim.get_mutable_context(), [1.0])
    sim.advance_to(1.2)             # updates at 0, 0.5, 1.0
    ctx = sim.get_mutable_context()
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [6.0, 6.0])
    system.execute_forced_events(ctx)
    np.testing.assert_array_equal(ctx.get_discrete_state(0), [8.0, 8.0])


def test_without_feedthrough_the_output_sees_an_empty_input():
    system = Custom(is_discrete=False, direct_feedthrough=False)
    assert not system.has_any_direct_feedthrough()
    ctx = system.create_default_context()
    system.get_input_port().fix_value(ctx, [5.0])
    y = system.get_output_port().eval(ctx)
    assert np.isnan(y[0]) and list(y[1:]) == [0.0, 0.0]


def test_state_layout_and_missing_overrides_are_reported():
    class Both(VectorSystem):
        def __init__(self):
            super().__init__(0, 0)
            self.declare_continuous_state(1)
            self.declare_discrete_state(1)

    with pytest.raises(RuntimeError, match="either continuous state or one discrete"):
        Both().create_default_context()

    class Abstract(VectorSystem):
        def __init__(self):
            super().__init__(0, 0)
            self.declare_abstract_state(Value(1))

    with pytest.raises(RuntimeError):
        Abstract().create_default_context()

    class NoOutput(VectorSystem):
        def __init__(self):
            super().__init__(0, 2)

    system = NoOutput()
    with pytest.raises(NotImplementedError, match="do_calc_vector_output"):
        system.get_output_port().eval(system.create_default_context())
