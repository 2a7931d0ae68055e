"""PID control of a second-order LTI plant built only from primitives, against scipy.

Plant x'' = -4x - 0.8x' + u as a LinearSystem with C = I (y = [x, x']); PID with
kp = 10, ki = 5, kd = 3 on the constant reference r = 1, the derivative taken on the
measured velocity (d(r - x)/dt = -x' for constant r):

    u = kp (r - x) + ki ∫(r - x) dt - kd x'

Closed loop in z = [x, x', ∫e]:  x' = v,  v' = -4x - 0.8v + u,  ∫e' = r - x.
"""

import numpy as np
from scipy.integrate import solve_ivp

from merganser.framework import DiagramBuilder
from merganser.framework.analysis import linearize
from merganser.framework.primitives import (Adder, ConstantVectorSource, Demultiplexer, Gain, Integrator,
                                  LinearSystem)
from merganser.framework.simulator_config import SimulatorConfig
from merganser.framework.vector_log_sink import log_vector_output

KP, KI, KD = 10.0, 5.0, 3.0
A_PLANT = np.array([[0.0, 1.0], [-4.0, -0.8]])
B_PLANT = np.array([[0.0], [1.0]])


def _build_pid_loop():
    builder = DiagramBuilder()
    plant = builder.add_named_system("plant", LinearSystem(A_PLANT, B_PLANT, np.eye(2),
                                                           np.zeros((2, 1))))
    reference = builder.add_named_system("reference", ConstantVectorSource([1.0]))
    split = builder.add_named_system("split", Demultiplexer([1, 1]))
    negate = builder.add_named_system("negate", Gain(-1.0, 1))
    error = builder.add_named_system("error", Adder(2, 1))
    integral = builder.add_named_system("integral", Integrator(1))
    kp = builder.add_named_system("kp", Gain(KP, 1))
    ki = builder.add_named_system("ki", Gain(KI, 1))
    kd = builder.add_named_system("kd", Gain(-KD, 1))
    control = builder.add_named_system("control", Adder(3, 1))
    builder.connect(plant.get_output_port(), split.get_input_port())
    builder.connect(reference.get_output_port(), error.get_input_port(0))
    builder.connect(split.get_output_port(0), negate.get_input_port())
    builder.connect(negate.get_output_port(), error.get_input_port(1))
    builder.connect(error.get_output_port(), kp.get_input_port())
    builder.connect(error.get_output_port(), integral.get_input_port())
    builder.connect(integral.get_output_port(), ki.get_input_port())
    builder.connect(split.get_output_port(1), kd.get_input_port())
    builder.connect(kp.get_output_port(), control.get_input_port(0))
    builder.connect(ki.get_output_port(), control.get_input_port(1))
    builder.connect(kd.get_output_port(), control.get_input_port(2))
    builder.connect(control.get_output_port(), plant.get_input_port())
    sink = log_vector_output(plant.get_output_port(), builder)
    return builder.build(), plant, sink


def _closed_loop_rhs(t, z):
    x, v, e_int = z
    u = KP * (1.0 - x) + KI * e_int - KD * v
    return [v, -4.0 * x - 0.8 * v + u, 1.0 - x]


def test_pid_on_lti_plant_matches_scipy_solve_ivp():
    diagram, plant, sink = _build_pid_loop()
    result = diagram.simulate(
        10.0, config=SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-10),
        record={"y": plant.get_output_port()})
    t = result.time
    reference = solve_ivp(_closed_loop_rhs, (0.0, 10.0), [0.0, 0.0, 0.0], method="DOP853",
                          rtol=1e-12, atol=1e-12, dense_output=True)
    z = reference.sol(t)
    assert np.max(np.abs(result.outputs["y"][0] - z[0])) < 1e-6
    assert np.max(np.abs(result.outputs["y"][1] - z[1])) < 1e-6
    # the loop settles on the reference (integral action removes the offset)
    assert abs(result.outputs["y"][0, -1] - 1.0) < 0.02
    log = sink.find_log(result.context)
    np.testing.assert_array_equal(log.sample_times(), t)
    np.testing.assert_allclose(log.data(), result.outputs["y"], rtol=0, atol=0)


def test_pid_loop_linearizes_exactly_to_closed_loop_matrix():
    diagram, plant, _ = _build_pid_loop()
    ctx = diagram.create_default_context()
    # equilibrium: x = 1, v = 0, ki ∫e = 4 (the spring force)
    ctx.set_continuous_state([1.0, 0.0, 4.0 / KI])
    lin = linearize(diagram, ctx)
    assert lin.linearization_method == "exact"
    expected = np.array([[0.0, 1.0, 0.0],
                         [-4.0 - KP, -0.8 - KD, KI],
                         [-1.0, 0.0, 0.0]])
    np.testing.assert_allclose(lin.A(), expected, atol=1e-15)
    assert np.all(np.linalg.eigvals(lin.A()).real < 0.0)
