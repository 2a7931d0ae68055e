"""PidController's compiled form: diagrams with the controller, compiled, equal the
block-by-block evaluation bit for bit."""

import numpy as np
import pytest
from random_diagrams import (RandomDiagram, assert_bitwise_equal_at_random_states,
                             compiled_and_plain)

from merganser.controllers import PidController
from merganser.framework import DiagramBuilder, LinearSystem, Simulator
from merganser.framework.compiled_diagram import (compile_diagram_dynamics,
                                                  unfuse_compiled_dynamics)


def pid_maker(rng, n):
    """A PidController of size n (random projections half of the time)."""
    kp, ki, kd = rng.uniform(0.5, 3.0, size=(3, n))
    if rng.uniform() < 0.3:
        ki[:] = 0.0                         # no integral state
    if rng.uniform() < 0.5:
        return PidController(kp, ki, kd), [2 * n, 2 * n]
    nx = 2 * n + 1
    P_x = rng.normal(size=(2 * n, nx))
    P_y = rng.normal(size=(2, n))
    return PidController(P_x, P_y, kp, ki, kd), [nx, 2 * n]


@pytest.mark.parametrize("seed", range(6))
def test_random_wirings_with_pid_controllers_are_bitwise_equal(seed):
    diagram = RandomDiagram(seed, feedthrough_makers=[pid_maker] * 3).build()
    fused, plain = compiled_and_plain(diagram)
    assert_bitwise_equal_at_random_states(diagram, fused, plain, np.random.default_rng(seed),
                                          scale=1.0)


def test_a_pid_loop_simulates_bitwise_equal_and_reaches_the_set_point():
    finals = []
    for compiled in (True, False):
        builder = DiagramBuilder()
        plant = builder.add_named_system(
            "plant", LinearSystem([[0.0, 1.0], [-4.0, -0.8]], [[0.0], [1.0]], np.eye(2),
                                  np.zeros((2, 1))))
        pid = builder.add_named_system("pid", PidController([10.0], [5.0], [3.0]))
        builder.connect(plant.get_output_port(), pid.get_input_port_estimated_state())
        builder.connect(pid.get_output_port_control(), plant.get_input_port())
        builder.export_input(pid.get_input_port_desired_state(), "desired")
        diagram = builder.build()
        ctx = diagram.create_default_context()
        diagram.get_input_port(0).fix_value(ctx, [1.0, 0.0])
        if compiled:
            assert compile_diagram_dynamics(diagram, ctx)
        else:
            unfuse_compiled_dynamics(ctx)
        Simulator(diagram, ctx).advance_to(20.0)
        finals.append(np.array(ctx.get_continuous_state_vector()))
    assert finals[0].tobytes() == finals[1].tobytes()
    # the integral action removes the steady-state error: x -> 1, z -> 4 / 5 (u = 4 x)
    np.testing.assert_allclose(finals[0], [1.0, 0.0, 0.8], atol=1e-3)
