"""PidControlledSystem against the closed-form response of a PD-controlled mass."""

import math

import numpy as np
import pytest

from merganser.controllers import PidControlledSystem
from merganser.framework import DiagramBuilder, LinearSystem, Simulator


def _mass():
    """q̈ = u, outputs [q; v]."""
    return LinearSystem(A=[[0.0, 1.0], [0.0, 0.0]], B=[[0.0], [1.0]], C=np.eye(2),
                        D=np.zeros((2, 1)))


def _simulate(system, x0, t, feedforward=0.0):
    sim = Simulator(system)
    ctx = sim.get_mutable_context()
    ctx.set_continuous_state(x0)
    system.get_control_input_port().fix_value(ctx, [feedforward])
    system.get_state_input_port().fix_value(ctx, [0.0, 0.0])
    sim.get_mutable_integrator().set_target_accuracy(1e-10)
    sim.advance_to(t)
    return sim.get_context()


def test_critically_damped_pd_matches_the_closed_form():
    # kp = 4, kd = 4: q̈ + 4 q̇ + 4 q = 0, q(0) = 1, q̇(0) = 0 -> q = (1 + 2t) e^(-2t)
    system = PidControlledSystem(_mass(), kp=4.0, ki=0.0, kd=4.0, state_output_port_index=0,
                                 plant_input_port_index=0)
    assert [system.get_input_port(i).get_name() for i in range(2)] == \
        ["feedforward_control", "desired_state"]
    ctx = _simulate(system, [1.0, 0.0], 1.5)
    q = system.get_state_output_port().eval(ctx)[0]
    assert q == pytest.approx((1.0 + 3.0) * math.exp(-3.0), rel=1e-6)


def test_feedforward_shifts_the_equilibrium_and_integral_action_removes_it():
    pd = PidControlledSystem(_mass(), kp=[4.0], ki=[0.0], kd=[4.0])
    ctx = _simulate(pd, [0.0, 0.0], 20.0, feedforward=8.0)
    assert pd.get_state_output_port().eval(ctx)[0] == pytest.approx(2.0, rel=1e-6)
    # with ki the controller's integral state (ordered after the mass's) absorbs it
    pid = PidControlledSystem(_mass(), np.eye(2), 4.0, 1.0, 4.0, 0, 0)
    sim = Simulator(pid)
    ctx = sim.get_mutable_context()
    pid.get_control_input_port().fix_value(ctx, [8.0])
    pid.get_state_input_port().fix_value(ctx, [0.0, 0.0])
    sim.advance_to(60.0)
    assert pid.get_state_output_port().eval(ctx)[0] == pytest.approx(0.0, abs=1e-3)


def test_connect_controller_with_input_saturation_limits_the_effort():
    builder = DiagramBuilder()
    mass = builder.add_system(_mass())
    ports = PidControlledSystem.connect_controller_with_input_saturation(
        mass.get_input_port(), mass.get_output_port(), [100.0], [0.0], [0.0],
        [-1.0], [1.0], builder)
    builder.export_input(ports.control_input_port, "u_ff")
    builder.export_input(ports.state_input_port, "x_d")
    diagram = builder.build()
    ctx = diagram.create_default_context()
    ctx.set_continuous_state([1.0, 0.0])
    diagram.get_input_port(0).fix_value(ctx, [0.0])
    diagram.get_input_port(1).fix_value(ctx, [0.0, 0.0])
    # the PD command -100 saturates at -1: q̈ = -1
    np.testing.assert_allclose(diagram.eval_time_derivatives(ctx), [0.0, -1.0])
